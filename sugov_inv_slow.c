// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the slow path.  A driver that cannot change the frequency
 * from the scheduler's hook (no fast switch: it may sleep) is called from
 * a SCHED_FIFO kthread worker, which the hook wakes through an irq_work:
 * the hook runs under the rq lock with interrupts off, where neither
 * sleeping nor waking a thread directly is allowed.
 *
 * Model: kernel/sched/cpufreq_schedutil.c, sugov_work(), sugov_irq_work()
 * and sugov_kthread_create(); what differs is said where it differs.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "compat.h"
#include "sugov_inv_internal.h"

/* Slow path: the kthread's work, calls the driver (may sleep) */
static void sugov_inv_work(struct kthread_work *work)
{
	struct sugov_inv_policy_data *sgp =
		container_of(work, struct sugov_inv_policy_data, work);
	unsigned long flags;
	unsigned int freq, cur;
	bool elsewhere;
	int ret;

	/*
	 * Read next_freq and clear work_in_progress together: a hook that
	 * sets a newer next_freq after this point sees work_in_progress
	 * false and queues the work again, so no request is lost.
	 */
	raw_spin_lock_irqsave(&sgp->update_lock, flags);
	freq = sgp->next_freq;
	sgp->work_in_progress = false;
	raw_spin_unlock_irqrestore(&sgp->update_lock, flags);

	mutex_lock(&sgp->work_lock);
	ret = __cpufreq_driver_target(sgp->policy, freq, CPUFREQ_RELATION_L);
	cur = READ_ONCE(sgp->policy->cur);
	mutex_unlock(&sgp->work_lock);

	/*
	 * Did the driver set another frequency than @freq where a later
	 * request for @freq would do better?  When it failed; and with a
	 * frequency table, where @freq is a table entry (resolved by the
	 * hook) and a driver that succeeded sets it unless a hook's
	 * cpufreq_driver_resolve_freq() replaced policy->cached_resolved_idx
	 * between __resolve_freq() and __target_index() in
	 * __cpufreq_driver_target() (drivers/cpufreq/cpufreq.c of 6.1 and
	 * 6.12): the hook of another CPU of the policy, or this CPU's tick,
	 * since the kthread runs with IRQs on.  Not for a ->target driver
	 * without a table that succeeded: it rounds what it is given
	 * (intel_cpufreq sets the P-state ratio x 100 MHz), @cur differs
	 * from @freq by design, and asking again only sets @cur again, one
	 * kthread wake-up per rate limit for nothing.
	 */
	elsewhere = cur != freq && (ret || sgp->policy->freq_table);

	/*
	 * Then next_freq would claim @freq, and every later request for
	 * @freq would be skipped as unchanged while the CPU runs @cur.  Set
	 * it to what the CPU runs, and forget the cached raw target so the
	 * next evaluation resolves and sends again.  Not when a newer
	 * request is pending: it is sent anyway.
	 */
	raw_spin_lock_irqsave(&sgp->update_lock, flags);
	if (elsewhere && !sgp->work_in_progress && sgp->next_freq == freq) {
		WRITE_ONCE(sgp->next_freq, cur);
		WRITE_ONCE(sgp->cached_raw_khz, 0);
	}
	raw_spin_unlock_irqrestore(&sgp->update_lock, flags);
}

/* Slow path: hard IRQ context, hands the work to the kthread */
static void sugov_inv_irq_work(struct irq_work *irq_work)
{
	struct sugov_inv_policy_data *sgp =
		container_of(irq_work, struct sugov_inv_policy_data, irq_work);

	kthread_queue_work(sgp->worker, &sgp->work);
}

/**
 * sugov_inv_kthread_create() - start the slow path of a policy
 * @sgp: the policy's data, @sgp->policy set
 *
 * A policy whose driver cannot switch from the hook (no fast switch) gets
 * a kthread worker, bound to the policy's CPUs, that calls the driver,
 * and the irq_work that wakes it.  Process context (governor init).
 *
 * Return: 0, also when no worker is needed; the error of
 * kthread_run_worker() or set_cpus_allowed_ptr() otherwise, with nothing
 * left behind.
 */
int sugov_inv_kthread_create(struct sugov_inv_policy_data *sgp)
{
	struct cpufreq_policy *policy = sgp->policy;
	struct kthread_worker *worker;
	int ret;

	/* Fast switch calls the driver from the hook: no thread needed */
	if (policy->fast_switch_enabled)
		return 0;

	kthread_init_work(&sgp->work, sugov_inv_work);
	worker = kthread_run_worker(0, "sugov_inv:%u",
				    cpumask_first(policy->related_cpus));
	if (IS_ERR(worker)) {
		pr_err("cannot create the worker of policy%u: %ld\n",
		       policy->cpu, PTR_ERR(worker));
		return PTR_ERR(worker);
	}

	/*
	 * schedutil's thread is SCHED_DEADLINE with the kernel-internal
	 * SCHED_FLAG_SUGOV; a module can only ask for SCHED_FIFO (priority
	 * 50): above every normal task, below higher RT priorities.
	 */
	sched_set_fifo(worker->task);

	/*
	 * Run on the policy's CPUs, where the driver expects to be called
	 * (kthread_bind_mask() is not exported; this is its effect, though
	 * root can still move the thread).
	 */
	ret = set_cpus_allowed_ptr(worker->task, policy->related_cpus);
	if (ret) {
		kthread_destroy_worker(worker);
		pr_err("cannot bind the worker of policy%u: %d\n",
		       policy->cpu, ret);
		return ret;
	}

	init_irq_work(&sgp->irq_work, sugov_inv_irq_work);
	mutex_init(&sgp->work_lock);
	sgp->worker = worker;
	return 0;
}

/**
 * sugov_inv_kthread_stop() - stop the slow path of a policy
 * @sgp: the policy's data; a policy without a worker is left alone
 *
 * Flushes a queued request to the driver, then stops and frees the worker.
 * Process context (governor exit, or init's unwind), after the hooks are
 * gone: no irq_work can be queued any more.
 */
void sugov_inv_kthread_stop(struct sugov_inv_policy_data *sgp)
{
	if (!sgp->worker)
		return;

	/* Flushes queued work, then stops and frees the thread */
	kthread_destroy_worker(sgp->worker);
	sgp->worker = NULL;
	mutex_destroy(&sgp->work_lock);
}
