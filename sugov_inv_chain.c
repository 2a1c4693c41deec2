// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the chain rule's glue.  Two tracepoint probes keep each
 * CPU's hand-off record (sugov_inv_chain.h): sched_waking, on the waking
 * CPU, notes a wake-up of another CPU's task, and sched_switch to the
 * idle task judges whether the CPU handed off.  An evaluation of a
 * single-CPU policy then raises its CPU's util to its chain's
 * (sugov_inv_chain_busy() and sugov_inv_chain_util(), rule 3 in
 * sugov_inv_gov.c).
 *
 * The probes are registered while the governor runs on some policy with
 * the rule on: the first start has them registered, the last stop or a
 * window of 0 removed, by the module's kthread worker "sugov_inv_chain"
 * (sugov_inv_chain_get(), sugov_inv_chain_put(),
 * sugov_inv_chain_set_window(); why a worker: at sugov_inv_chain_users).
 *
 * Why tracepoints: the update_util hook is called for the woken task's
 * CPU, often from the waker's CPU, but not when the waker goes idle, and
 * it does not say who woke whom.  The two probes cost a per-CPU write per
 * wake-up of another CPU's task and a test per context switch (one more
 * write when the switch is to idle).  Model: the test driver's
 * sched_switch probe (selftests/vcpufreq_emu.c, vcpufreq_emu_start()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "sugov_inv_chain.h"
#include "sugov_inv_internal.h"
#include "sugov_inv_rules.h"

/* Each CPU's hand-off record; written by the CPU's own probes only */
static DEFINE_PER_CPU(struct sugov_inv_chain, sugov_inv_chains);

/*
 * The window the probes judge hand-offs by, ns (0: off), from the
 * chain_window_us tunable: the probes cannot reach the tunables.  x86 has
 * one tunables set (sugov_inv_tunables_attach()), so one value serves
 * every policy; with a set per policy (a driver's choice, which the test
 * driver can make) the set last started or written wins here, and each
 * evaluation judges links by its own set's window.
 */
static u64 sugov_inv_chain_window_ns;

/*
 * How many policies run the governor (sugov_inv_chain_get() and _put()),
 * and whether the probes are registered, which follows it from a work
 * item.  The governor starts and stops in CPU hotplug callbacks, with
 * cpu_hotplug_lock held for writing by the task driving the hotplug
 * (cpufreq_offline() restarts a shared policy's governor there), while
 * registering the first probe of a tracepoint, or removing the last,
 * flips its static key, which takes cpus_read_lock()
 * (static_key_enable(), kernel/jump_label.c): done in place, the hotplug
 * would deadlock.
 */
static atomic_t sugov_inv_chain_users = ATOMIC_INIT(0);

/*
 * The work runs on a kthread worker of its own rather than the system
 * workqueue: its thread runs nothing else, so every allocation it makes
 * is the registration's, and /proc/PID/fail-nth armed on it fails the
 * Nth of them (selftests/85-fail-nth.sh), where a kworker would spend
 * the count on whatever other work it runs.  Created at module init
 * (sugov_inv_chain_init()), before any start can queue the work.
 */
static struct kthread_worker *sugov_inv_chain_worker;
static struct kthread_work sugov_inv_chain_work;

/* Taken by the work and by module exit; protects the fields below */
static DEFINE_MUTEX(sugov_inv_chain_lock);
static bool sugov_inv_chain_registered;
static struct tracepoint *sugov_inv_tp_waking;
static struct tracepoint *sugov_inv_tp_switch;

/*
 * sched_waking, on the waking CPU with the wakee's pi_lock held and IRQs
 * off (try_to_wake_up()); a task waking itself has IRQs on there, but it
 * is its own CPU's task and leaves the record alone.  task_cpu() is where
 * the wakee last ran: where it will run is chosen later.  No window test:
 * the probes are registered only with the rule on, and a wake-up noted
 * while they are being removed counts for nothing, as the idle probe
 * judges none without a window.
 */
static void sugov_inv_chain_waking_probe(void *data, struct task_struct *p)
{
	unsigned int cpu = smp_processor_id();
	unsigned int wakee_cpu = task_cpu(p);

	if (wakee_cpu == cpu)
		return;
	sugov_inv_chain_waking(this_cpu_ptr(&sugov_inv_chains), local_clock(),
			       cpu, wakee_cpu);
}

/* sched_switch, rq lock held, IRQs off: only a switch to idle counts */
static void sugov_inv_chain_switch_probe(void *data, bool preempt,
					 struct task_struct *prev,
					 struct task_struct *next,
					 unsigned int prev_state)
{
	u64 window_ns;

	if (!is_idle_task(next))
		return;
	window_ns = READ_ONCE(sugov_inv_chain_window_ns);
	if (!window_ns)
		return;
	sugov_inv_chain_idle(this_cpu_ptr(&sugov_inv_chains), local_clock(),
			     window_ns);
}

static void sugov_inv_chain_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_waking"))
		sugov_inv_tp_waking = tp;
	else if (!strcmp(tp->name, "sched_switch"))
		sugov_inv_tp_switch = tp;
}

/* Register the probes, on a clean record; -errno with none registered */
static int sugov_inv_chain_register(void)
{
	unsigned int cpu;
	int ret;

	lockdep_assert_held(&sugov_inv_chain_lock);

	if (!sugov_inv_tp_waking || !sugov_inv_tp_switch)
		for_each_kernel_tracepoint(sugov_inv_chain_find_tp, NULL);
	if (!sugov_inv_tp_waking || !sugov_inv_tp_switch)
		return -ENODEV;

	/* No probe runs: none was registered, or the last unregister waited */
	for_each_possible_cpu(cpu)
		sugov_inv_chain_reset(per_cpu_ptr(&sugov_inv_chains, cpu));

	ret = tracepoint_probe_register(sugov_inv_tp_waking,
					sugov_inv_chain_waking_probe, NULL);
	if (ret)
		return ret;
	ret = tracepoint_probe_register(sugov_inv_tp_switch,
					sugov_inv_chain_switch_probe, NULL);
	if (ret) {
		tracepoint_probe_unregister(sugov_inv_tp_waking,
					    sugov_inv_chain_waking_probe, NULL);
		tracepoint_synchronize_unregister();
	}
	return ret;
}

static void sugov_inv_chain_unregister(void)
{
	lockdep_assert_held(&sugov_inv_chain_lock);

	tracepoint_probe_unregister(sugov_inv_tp_switch,
				    sugov_inv_chain_switch_probe, NULL);
	tracepoint_probe_unregister(sugov_inv_tp_waking,
				    sugov_inv_chain_waking_probe, NULL);
	/* Waits for a probe still running on another CPU */
	tracepoint_synchronize_unregister();
}

/*
 * Bring the probes in line with the users count and the window: wanted
 * while some policy runs the governor with the rule on.  A failed
 * registration leaves the rule without records (no CPU has a target: no
 * chain) and is tried again when the rule is turned off and on, or
 * the first policy starts after the last one stopped.
 */
static void sugov_inv_chain_sync(struct kthread_work *work)
{
	bool want;
	int ret;

	mutex_lock(&sugov_inv_chain_lock);
	want = atomic_read(&sugov_inv_chain_users) > 0 &&
	       READ_ONCE(sugov_inv_chain_window_ns);
	if (want && !sugov_inv_chain_registered) {
		ret = sugov_inv_chain_register();
		if (ret)
			pr_err("chain rule off: no sched_waking and sched_switch probes: %d\n",
			       ret);
		else
			sugov_inv_chain_registered = true;
	} else if (!want && sugov_inv_chain_registered) {
		sugov_inv_chain_unregister();
		sugov_inv_chain_registered = false;
	}
	mutex_unlock(&sugov_inv_chain_lock);
}

/*
 * Have the worker run sugov_inv_chain_sync(); any context (the queue's
 * lock is a raw spinlock).  A work still pending runs once, and reads
 * the latest users count and window then.
 */
static void sugov_inv_chain_queue(void)
{
	kthread_queue_work(sugov_inv_chain_worker, &sugov_inv_chain_work);
}

/**
 * sugov_inv_chain_set_window() - set the rule's window
 * @window_us: the chain_window_us tunable, us (0: the rule is off)
 *
 * The probes and the evaluations use the new window from their next
 * call.  Turning the rule off or on while some policy runs the governor
 * has the probes removed or registered, by the worker: off, the rule
 * costs the scheduler nothing.
 *
 * Context: process (governor start, the tunable's store).
 */
void sugov_inv_chain_set_window(unsigned int window_us)
{
	u64 window_ns = (u64)window_us * NSEC_PER_USEC;
	u64 old_ns = xchg(&sugov_inv_chain_window_ns, window_ns);

	if (!old_ns != !window_ns && atomic_read(&sugov_inv_chain_users) > 0)
		sugov_inv_chain_queue();
}

/**
 * sugov_inv_chain_get() - a policy starts: the probes are wanted
 *
 * Description: The first user has the probes registered, on cleared
 * records, by the worker (sugov_inv_chain_users says why not here):
 * the rule sees hand-offs from a moment after the start.
 *
 * Context: process (governor start, possibly in a CPU hotplug callback).
 */
void sugov_inv_chain_get(void)
{
	if (atomic_inc_return(&sugov_inv_chain_users) == 1)
		sugov_inv_chain_queue();
}

/**
 * sugov_inv_chain_put() - a policy stops: drop its use of the probes
 *
 * Description: The last user has them unregistered by the worker;
 * sugov_inv_chain_exit() makes sure they are gone before the module is.
 *
 * Context: process (governor stop, possibly in a CPU hotplug callback).
 */
void sugov_inv_chain_put(void)
{
	int users = atomic_dec_return(&sugov_inv_chain_users);

	if (WARN_ON_ONCE(users < 0))
		atomic_set(&sugov_inv_chain_users, 0);
	else if (!users)
		sugov_inv_chain_queue();
}

/**
 * sugov_inv_chain_init() - create the worker that registers the probes
 *
 * Description: The kthread worker "sugov_inv_chain", which runs every
 * registration and removal of the probes (sugov_inv_chain_worker says
 * why a thread of its own).  No probe is registered here: the first
 * start asks for them.
 *
 * Context: module init, before cpufreq_register_governor(); sleeps.
 * Return: 0, or the error of kthread_run_worker() (-ENOMEM, -EINTR),
 * with nothing left behind.
 */
int __init sugov_inv_chain_init(void)
{
	struct kthread_worker *worker;

	kthread_init_work(&sugov_inv_chain_work, sugov_inv_chain_sync);
	worker = kthread_run_worker(0, "sugov_inv_chain");
	if (IS_ERR(worker)) {
		pr_err("cannot create the chain rule's worker: %ld\n",
		       PTR_ERR(worker));
		return PTR_ERR(worker);
	}
	sugov_inv_chain_worker = worker;
	return 0;
}

/**
 * sugov_inv_chain_exit() - no probe may outlive the module
 *
 * Description: Runs a pending registration change, ends the worker and
 * removes the probes if they are still there (no policy runs the
 * governor once it is unregistered, so none can ask for them again).
 *
 * Context: module exit, after cpufreq_unregister_governor(), or module
 * init unwinding a failure after sugov_inv_chain_init(); sleeps.
 */
void sugov_inv_chain_exit(void)
{
	/* Flushes the worker first: its last work runs to its end */
	kthread_destroy_worker(sugov_inv_chain_worker);
	sugov_inv_chain_worker = NULL;
	mutex_lock(&sugov_inv_chain_lock);
	if (sugov_inv_chain_registered) {
		sugov_inv_chain_unregister();
		sugov_inv_chain_registered = false;
	}
	mutex_unlock(&sugov_inv_chain_lock);
}

/*
 * A copy of @cpu's record, each field read once: the other CPU's probes
 * write it meanwhile (struct sugov_inv_chain says why that is enough).
 */
static void sugov_inv_chain_read(unsigned int cpu, struct sugov_inv_chain *c)
{
	const struct sugov_inv_chain *src = per_cpu_ptr(&sugov_inv_chains, cpu);

	c->handoff_ns = READ_ONCE(src->handoff_ns);
	c->gap_avg_ns = READ_ONCE(src->gap_avg_ns);
	c->share = READ_ONCE(src->share);
	c->target_cpu = READ_ONCE(src->target_cpu);
}

/*
 * @self's group (sugov_inv_chain_component()) as a mask of the CPU ids
 * of its block, bit 0 being CPU *@base; 0 when @self is no member.
 * Reads the record of every online CPU of the block.
 */
static u64 sugov_inv_chain_group(unsigned int self, u64 time, u64 window_ns,
				 unsigned int *base)
{
	unsigned int first = self & ~(SUGOV_INV_CHAIN_GROUP_CPUS - 1);
	s8 target[SUGOV_INV_CHAIN_GROUP_CPUS];
	struct sugov_inv_chain b;
	unsigned int cpu;
	u64 members = 0;

	*base = first;
	/* From the block's first online CPU: not a walk from CPU 0 */
	for (cpu = cpumask_next((int)first - 1, cpu_online_mask);
	     cpu < nr_cpu_ids && cpu < first + SUGOV_INV_CHAIN_GROUP_CPUS;
	     cpu = cpumask_next(cpu, cpu_online_mask)) {
		sugov_inv_chain_read(cpu, &b);
		if (!sugov_inv_chain_member(&b, time, window_ns))
			continue;
		members |= BIT_ULL(cpu - first);
		/* another block's CPU, or none: joins nothing */
		target[cpu - first] = -1;
		if (b.target_cpu >= (int)first &&
		    b.target_cpu < (int)(first + SUGOV_INV_CHAIN_GROUP_CPUS))
			target[cpu - first] = b.target_cpu - first;
	}
	return sugov_inv_chain_component(members, target, self - first);
}

/**
 * sugov_inv_chain_show() - the chain records, for debugfs
 * @m: the seq_file of sugov_inv/chain
 *
 * Description: Whether the probes are registered, the window, and per
 * possible CPU its target (-1: none), share of hand-offs (of 1024),
 * average gap (us), the age of its last hand-off (us), whether its
 * link is live now, and its group (sugov_inv_chain_component()) as a
 * hex mask of its block of 64 CPU ids, bit 0 the block's first (0: no
 * member, or offline).  Read without the CPUs' cooperation: a snapshot
 * of each field, not of the set.
 *
 * Context: process (a debugfs read).
 */
void sugov_inv_chain_show(struct seq_file *m)
{
	u64 window_ns = READ_ONCE(sugov_inv_chain_window_ns);
	u64 now = local_clock();
	struct sugov_inv_chain c;
	unsigned int cpu, base;
	bool registered;

	/* Without the work's lock: a diagnostic may show a stale state */
	registered = data_race(sugov_inv_chain_registered);
	seq_printf(m, "# probes %s window_us %llu\n",
		   registered ? "registered" : "off",
		   div_u64(window_ns, NSEC_PER_USEC));
	seq_puts(m, "# cpu target share gap_avg_us handoff_age_us live group\n");
	for_each_possible_cpu(cpu) {
		u64 group = 0;

		sugov_inv_chain_read(cpu, &c);
		if (cpu_online(cpu))
			group = sugov_inv_chain_group(cpu, now, window_ns, &base);
		seq_printf(m, "%u %d %u %llu %llu %d %#llx\n", cpu, c.target_cpu,
			   c.share,
			   c.gap_avg_ns == U64_MAX ? 0 :
			   div_u64(c.gap_avg_ns, NSEC_PER_USEC),
			   c.target_cpu == SUGOV_INV_CHAIN_NO_CPU ? 0 :
			   div_u64(sugov_inv_chain_since(now, c.handoff_ns),
				   NSEC_PER_USEC),
			   sugov_inv_chain_live(&c, now, window_ns), group);
	}
}

/*
 * @cpu's smoothed busy fraction, or 0 when it is not one of ours, has not
 * measured, or its estimate is older than @period_ns allows.  Its
 * policy data is not dereferenced: a policy stopping on it may free it.
 * Its window is written by its own hook under its own rq lock: each field
 * read once, as the debugfs summary does.
 */
static u32 sugov_inv_chain_partner_busy(unsigned int cpu, u64 time,
					u64 period_ns)
{
	const struct sugov_inv_cpu *p = per_cpu_ptr(&sugov_inv_cpus, cpu);

	if (!READ_ONCE(p->sgp) || !READ_ONCE(p->measured))
		return 0;
	return sugov_inv_chain_fresh_busy(sugov_inv_est_round(READ_ONCE(p->win.est.util_raw_fp)),
					  time, READ_ONCE(p->win.time),
					  period_ns);
}

/*
 * How often a partner of @sgc's CPU measures a window at least, while it
 * runs: the longer of the rule's window and the sampling period.
 */
static u64 sugov_inv_chain_period_ns(const struct sugov_inv_cpu *sgc,
				     u64 window_ns)
{
	return max_t(u64, window_ns, READ_ONCE(sgc->sgp->sample_period_ns));
}

/*
 * The summed busy fraction of the other CPUs in @sgc's group, capped at
 * capacity; 0 when @sgc's CPU (its record @a) is no member: then its own
 * record is all it reads.
 */
static u32 sugov_inv_chain_group_busy(const struct sugov_inv_cpu *sgc,
				      const struct sugov_inv_chain *a,
				      u64 time, u64 window_ns)
{
	unsigned int base;
	u64 group, period_ns;
	u32 sum = 0;

	if (!sugov_inv_chain_member(a, time, window_ns))
		return 0;
	period_ns = sugov_inv_chain_period_ns(sgc, window_ns);
	group = sugov_inv_chain_group(sgc->cpu, time, window_ns, &base);
	group &= ~BIT_ULL(sgc->cpu - base);
	for (; group; group &= group - 1)
		sum += sugov_inv_chain_partner_busy(base + __ffs64(group), time,
						    period_ns);
	return min_t(u32, sum, SUGOV_INV_CAP);
}

/**
 * sugov_inv_chain_busy() - the busy fraction of a CPU's chain partners
 * @sgc: the CPU evaluated, of a single-CPU policy
 * @time: the hook's time, ns (rq clock)
 * @window_us: its tunables' chain_window_us, as the caller read it (> 0:
 *	the caller skips the call with the rule off)
 *
 * When @sgc's CPU and the CPU it last handed off to form a chain
 * (sugov_inv_chain_linked()), the partner's smoothed busy fraction, for
 * sugov_inv_chain_util().  Otherwise, when the CPU is a group member
 * (sugov_inv_chain_member()), the summed busy fractions of the other
 * members joined to it by hand-offs (sugov_inv_chain_component()),
 * capped at capacity: a load that moves between more than two CPUs
 * (tbench with two clients on four) seldom has two CPUs pointing at each
 * other.  A partner's estimate counts only while it is current: it
 * measures at least every sampling period while it runs, and a partner
 * in a live chain runs within every two windows.  A value, not
 * the evaluation's inputs by reference: their address given to a function
 * of another unit would keep them in memory for the whole evaluation
 * (make bench: 70 instructions more per full evaluation, shared policies
 * too).
 *
 * Context: the update_util hook (rq lock held, IRQs off).
 * Return: capacity units, 0 when the CPU is in no chain or group (or its
 * partners' estimates are stale).
 */
u32 sugov_inv_chain_busy(const struct sugov_inv_cpu *sgc, u64 time,
			 unsigned int window_us)
{
	u64 window_ns = (u64)window_us * NSEC_PER_USEC;
	struct sugov_inv_chain a, b;
	int partner;

	sugov_inv_chain_read(sgc->cpu, &a);
	partner = a.target_cpu;
	if (partner < 0 || partner >= nr_cpu_ids || !cpu_online(partner))
		return 0;
	sugov_inv_chain_read(partner, &b);
	if (!sugov_inv_chain_linked(&a, sgc->cpu, &b, partner, time, window_ns))
		return sugov_inv_chain_group_busy(sgc, &a, time, window_ns);
	return sugov_inv_chain_partner_busy(partner, time,
					    sugov_inv_chain_period_ns(sgc, window_ns));
}
