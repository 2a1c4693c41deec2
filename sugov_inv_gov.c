// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the governor core.  A schedutil-like cpufreq governor with a
 * selectable freq_max,
 *
 *   freq_next = headroom * freq_max * util / 1024
 *
 * with freq_max chosen by the freq_max_policy tunable (max_P, midpoint,
 * max_boost, overutil-detect, noinv; see Documentation/design.rst), so
 * that the choices the schedutil frequency-invariance debate argued about
 * can be compared on a stock kernel without rebuilding it.
 *
 * This file: the update_util hooks, one evaluation (gather the
 * utilization inputs, decide, commit), the governor operations and the
 * module's registration.  Each CPU measures its own util
 * (sugov_inv_measure.c), the rules are pure (sugov_inv_rules.h), a driver
 * that may sleep is called from the slow path (sugov_inv_slow.c), system
 * sleep is followed in sugov_inv_pm.c, the tunables live in
 * sugov_inv_sysfs.c and their defaults in sugov_inv_params.c.  Kept from schedutil: rate_limit_us,
 * iowait boost, the busy-CPU hold, shared policies, fast switch with a
 * slow path, limits changes applied at the next update.  Not reproduced
 * (no exported interface on 6.1): util following tasks as they migrate,
 * util_est, uclamp, RT/DL running at the maximum.
 *
 * Model: kernel/sched/cpufreq_schedutil.c (structure, init/start/stop/exit
 * and the slow path).  Banners follow its order: internals, governor
 * operations, registration.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched/cpufreq.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "sugov_inv_chain.h"
#include "sugov_inv_internal.h"
#include "sugov_inv_measure.h"
#include "sugov_inv_rules.h"

#define CREATE_TRACE_POINTS
#include "sugov_inv_trace.h"

/*
 * A restart of the governor this soon after its stop keeps the estimates
 * of the CPUs that stayed in the policy (sugov_inv_start()).  The core's
 * hotplug restarts follow their stop within milliseconds; 1 s leaves
 * room for a slow debug kernel and is short enough that what is kept
 * still describes the load.
 */
#define SUGOV_INV_KEEP_NS		NSEC_PER_SEC

DEFINE_PER_CPU(struct sugov_inv_cpu, sugov_inv_cpus);

/*
 * Stops of every policy data, counted: the stamp of each stop
 * (sugov_inv_keep.h).  A new policy data may sit at a freed one's
 * address, so neither the address nor a count of its own tells its
 * stops apart.
 */
static atomic64_t sugov_inv_stops = ATOMIC64_INIT(0);

/************************ Governor internals ***********************/

/*
 * Can the CPU running this hook change @policy's frequency?  6.1's own
 * cpufreq_this_cpu_can_update() is not exported.  The test is the same:
 * a CPU of the policy, or any CPU when the driver allows DVFS from any CPU,
 * as long as that CPU runs one of our hooks itself (a CPU going offline has
 * had its hook removed and must not leave an irq_work behind).
 */
static inline bool
sugov_inv_this_cpu_can_update(struct cpufreq_policy *policy)
{
	return cpumask_test_cpu(smp_processor_id(), policy->cpus) ||
	       (policy->dvfs_possible_from_any_cpu &&
		READ_ONCE(this_cpu_ptr(&sugov_inv_cpus)->sgp));
}

/*
 * Is an evaluation due?  Consumes a pending limits change, which bypasses
 * the rate limit.  Runs under the rq lock of the hook's CPU (and the
 * policy's update_lock when shared).
 */
static bool sugov_inv_should_update(struct sugov_inv_policy_data *sgp,
				    u64 time)
{
	bool limits_changed = READ_ONCE(sgp->limits_changed);

	if (unlikely(limits_changed)) {
		WRITE_ONCE(sgp->limits_changed, false);
		sgp->need_freq_update = true;
		/*
		 * Clear the flag before cpufreq_driver_resolve_freq() reads
		 * policy->min/max, or a limits update landing between the two
		 * would be missed: its flag would be cleared here although
		 * its limits were read before it.  A store followed by loads
		 * needs a full barrier.  Pairs with the smp_wmb() in
		 * sugov_inv_limits().
		 */
		smp_mb();
	}

	return sugov_inv_eval_due(time, sgp->last_freq_update_ns,
				  READ_ONCE(sgp->freq_update_delay_ns),
				  limits_changed);
}

/* Slow path: hand @sgp->next_freq to the kthread (update_lock held) */
static void sugov_inv_deferred_update(struct sugov_inv_policy_data *sgp)
{
	lockdep_assert_held(&sgp->update_lock);

	/*
	 * One queued work is enough: it reads next_freq under update_lock
	 * when it runs, so it sends the latest value.
	 */
	if (!sgp->work_in_progress) {
		sgp->work_in_progress = true;
		irq_work_queue(&sgp->irq_work);
	}
}

/*
 * Send @next to the driver unless it changes nothing (@last: the
 * policy's next_freq as this evaluation read it).  Returns true when a
 * request was made.  Only a request restarts the rate limit
 * (sugov_inv_update_next()): after an evaluation that changed nothing the
 * next hook call evaluates again, with a new window once
 * SUGOV_INV_MIN_WINDOW_NS has passed.
 */
static bool sugov_inv_commit(struct sugov_inv_policy_data *sgp, u64 time,
			     unsigned int next, unsigned int last)
{
	struct cpufreq_policy *policy = sgp->policy;
	bool force = sgp->need_freq_update;

	sgp->need_freq_update = false;

	/*
	 * After a limits change the request goes out even when unchanged:
	 * 6.1 does not export cpufreq_driver_test_flags(), so the governor
	 * cannot tell whether the driver wants CPUFREQ_NEED_UPDATE_LIMITS,
	 * and one extra request per limits change is cheap.
	 */
	if (!sugov_inv_update_next(next, last, force))
		return false;
	/* The hooks' rate-limited returns read it without a lock */
	WRITE_ONCE(sgp->last_freq_update_ns, time);

	/* No worker: fast switch was enabled at init */
	if (!sgp->worker) {
		/* Serialized by the rq lock (single) or update_lock (shared) */
		WRITE_ONCE(sgp->next_freq, next);
		cpufreq_driver_fast_switch(policy, next);
		return true;
	}

	if (sgp->shared) {
		/* The hook holds update_lock for the whole evaluation */
		lockdep_assert_held(&sgp->update_lock);
		WRITE_ONCE(sgp->next_freq, next);
		sugov_inv_deferred_update(sgp);
	} else {
		raw_spin_lock(&sgp->update_lock);
		WRITE_ONCE(sgp->next_freq, next);
		sugov_inv_deferred_update(sgp);
		raw_spin_unlock(&sgp->update_lock);
	}
	return true;
}

/*
 * The decision.  One hook call runs these rules in this order:
 *
 *  1. Rate limit: at most one evaluation per rate_limit_us after the last
 *     request; a limits change is applied at the next hook call whatever
 *     the rate limit (sugov_inv_should_update(), sugov_inv_eval_due()).
 *  2. Utilization: the CPU's own estimate, or on a shared policy the
 *     highest over its CPUs, stale ones projected from their idle clock
 *     (sugov_inv_gather(), sugov_inv_gather_shared()).
 *  3. Chain: the CPU of a single-CPU policy that hands work off to
 *     another CPU, which hands it back (both wake a task of the other's
 *     and idle, at least every two chain_window_us), takes the two
 *     CPUs' summed busy fraction, capped at capacity, as its util and busy
 *     fraction: a client and its server each keep a CPU half busy, and
 *     half of the chain's demand is what the formula would ask for.  It
 *     raises util, never lowers it (sugov_inv_chain_busy(),
 *     sugov_inv_chain.h).
 *  4. I/O-wait boost: raises util, as schedutil's (sugov_inv_decide()).
 *  5. freq_max and the formula: headroom * freq_max * util / 1024 with
 *     the freq_max_policy choice; overutil-detect asks for
 *     cpuinfo.max_freq while the unscaled busy fraction is at or above
 *     its threshold (sugov_inv_decide()).
 *  6. Wake-up hold: a CPU of a single-CPU policy that just left a long
 *     idle stretch keeps the frequency it idled at, up to what its util
 *     from before the stretch asks for, until it has run a tick.  It
 *     raises the raw target, never lowers it (sugov_inv_decide()).
 *  7. Resolve cache: an unchanged raw target keeps the last request
 *     without resolving it again (sugov_inv_settle()).
 *  8. Busy-CPU hold: the CPU of a single-CPU policy that has not idled
 *     since its last evaluation keeps its frequency against a lower
 *     target, as schedutil's sugov_cpu_is_busy() (sugov_inv_settle()).
 *  9. Send: a changed frequency, or any after a limits change, goes to
 *     the driver; only a request restarts the rate limit
 *     (sugov_inv_commit(), sugov_inv_update_next()).
 *
 * A pending limits change skips 7 and 8: the new limits apply at once.
 * sugov_inv_gather() fills struct sugov_inv_in, the pure
 * sugov_inv_decide() and sugov_inv_settle() (sugov_inv_rules.h) decide,
 * sugov_inv_finish() commits.
 */

/*
 * The wake-up hold's input (rule 6), about the evaluating CPU and only
 * when it evaluates in its own hook (an evaluation from another CPU, a
 * remote wake-up, knows nothing of the CPU's run): whether it just left a
 * long idle stretch.  The hold is schedutil's busy-CPU hold's sibling
 * and, like it, for single-CPU policies only.
 */
static void sugov_inv_gather_wake(struct sugov_inv_cpu *sgc, u64 time,
				  struct sugov_inv_in *in)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	const struct sugov_inv_wake *w = &sgc->wake;

	in->last_khz = READ_ONCE(sgp->next_freq);
	if (sgc->cpu != smp_processor_id())
		return;

	if (unlikely(w->pending) && !sgp->shared &&
	    sugov_inv_wake_holding(w, time, TICK_NSEC)) {
		in->wake_hold = true;
		in->pre_util_inv = sugov_inv_est_util(&w->pre);
		in->pre_util_raw = sugov_inv_est_busy(&w->pre);
	}
}

/*
 * Fill @in, zeroed by the caller, for one evaluation of @sgc's policy.
 * Returns the CPU whose util won, for the delivered frequency in the
 * tracepoint.
 */
static struct sugov_inv_cpu *sugov_inv_gather(struct sugov_inv_cpu *sgc,
					      u64 time,
					      struct sugov_inv_in *in)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct cpufreq_policy *policy = sgp->policy;
	const struct sugov_inv_tunables *tunables = sgp->tunables;
	const struct freq_inv_caps *caps = &sgc->win.caps;
	struct sugov_inv_cpu *top = sgc;
	unsigned int chain_window_us;
	u32 partner_busy;

	if (sgp->shared) {
		top = sugov_inv_gather_shared(sgc, time, in);
	} else {
		in->util_inv = sugov_inv_est_util(&sgc->win.est);
		in->util_raw = sugov_inv_est_busy(&sgc->win.est);
		in->boost = sugov_inv_iowait_apply(&sgc->iowait,
						   sugov_inv_since(time, sgc->last_update));
		/*
		 * Rule 3.  Single-CPU policies only: the CPUs of a chain
		 * inside one shared policy would need the sum where the
		 * policy takes the highest, which is not done yet.
		 */
		chain_window_us = READ_ONCE(tunables->chain_window_us);
		partner_busy = chain_window_us ?
			       sugov_inv_chain_busy(sgc, time, chain_window_us) : 0;
		if (partner_busy) {
			u32 util_inv = sugov_inv_chain_util(in->util_inv, in->util_raw,
							    partner_busy);
			u32 util_raw = sugov_inv_chain_util(in->util_raw, in->util_raw,
							    partner_busy);

			if (util_inv != in->util_inv || util_raw != in->util_raw)
				sugov_inv_stat_inc(&sgc->stats.chained);
			in->util_inv = util_inv;
			in->util_raw = util_raw;
		}
	}

	/*
	 * The caps of the CPU's last window when this is the CPU's own hook:
	 * it measured at most SUGOV_INV_MIN_WINDOW_NS ago, before deciding.
	 * Read afresh for a remote call (an idle CPU's window may be seconds
	 * old) and after a limits change, which must apply at once.
	 */
	if (unlikely(sgc->cpu != smp_processor_id() || sgp->need_freq_update)) {
		sugov_inv_get_caps(sgc->cpu, policy, &sgp->fresh_caps);
		caps = &sgp->fresh_caps;
	}
	in->fmax = READ_ONCE(tunables->freq_max_policy);
	in->overutil_pct = READ_ONCE(tunables->overutil_threshold_pct);
	in->cur_khz = READ_ONCE(policy->cur);
	in->cpu_max_khz = policy->cpuinfo.max_freq;
	in->max_p_khz = caps->max_p_khz;
	in->mid_khz = caps->midpoint_khz;
	in->max_boost_khz = caps->max_boost_khz;
	in->ref_khz = caps->reference_khz;
	sugov_inv_gather_wake(sgc, time, in);
	return top;
}

/*
 * The busy-CPU hold's input (rule 8): no window measured since the last
 * evaluation contained idle time.  Without a new window the last answer
 * stands.  Single-CPU policies only, as schedutil's.
 */
static bool sugov_inv_may_hold(struct sugov_inv_cpu *sgc)
{
	if (sgc->samples_since_eval)
		sgc->ran_through = !sgc->idled_since_eval;
	sgc->samples_since_eval = 0;
	sgc->idled_since_eval = false;
	return !sgc->sgp->shared && sgc->ran_through;
}

/*
 * Commit one settled decision (rule 9), then count it in debugfs and
 * trace it.  A reason is counted for a request, or for a hold, which
 * sends nothing.
 */
static void sugov_inv_finish(struct sugov_inv_cpu *sgc, u64 time,
			     const struct sugov_inv_cpu *top,
			     const struct sugov_inv_in *in,
			     const struct sugov_inv_out *out,
			     const struct sugov_inv_settle *settle)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	enum sugov_inv_reason reason = out->reason;
	bool request;

	if (settle->held)
		reason = SUGOV_INV_REASON_HOLD;
	if (settle->force)
		reason = SUGOV_INV_REASON_LIMITS;

	request = sugov_inv_commit(sgp, time, settle->next_khz,
				   settle->last_khz);

	sugov_inv_stat_inc(&sgc->stats.evals);
	if (request || settle->held)
		sugov_inv_stat_inc(&sgc->stats.reasons[reason]);
	WRITE_ONCE(sgc->stats.last_util, out->util);
	WRITE_ONCE(sgc->stats.last_raw, out->raw_khz);
	WRITE_ONCE(sgc->stats.last_next, settle->next_khz);

	trace_sugov_inv_decision(sgc->cpu, sgp->policy->cpu, out->util,
				 in->util_raw, top->win.deliv_khz, in->fmax,
				 out->freq_max_khz, out->raw_khz,
				 settle->next_khz, reason, request);
}

/*
 * One evaluation of @sgc's policy, from @sgc's hook: gather, decide,
 * settle on a table frequency, commit.  Out of line for the reason
 * sugov_inv_measure() is.
 */
static noinline void sugov_inv_evaluate(struct sugov_inv_cpu *sgc, u64 time)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct sugov_inv_in in = { };
	struct sugov_inv_out out;
	struct sugov_inv_settle settle;
	const struct sugov_inv_cpu *top;
	unsigned int cached_raw;

	top = sugov_inv_gather(sgc, time, &in);
	sugov_inv_decide(&in, &out);

	cached_raw = READ_ONCE(sgp->cached_raw_khz);
	settle.raw_khz = out.raw_khz;
	settle.last_khz = in.last_khz;
	settle.cached_raw_khz = cached_raw;
	settle.force = sgp->need_freq_update;
	settle.may_hold = sugov_inv_may_hold(sgc);
	sugov_inv_settle(&settle, sgp->policy, cpufreq_driver_resolve_freq);
	if (settle.cached_raw_khz != cached_raw)
		WRITE_ONCE(sgp->cached_raw_khz, settle.cached_raw_khz);

	sugov_inv_finish(sgc, time, top, &in, &out, &settle);
}

/*
 * Is an evaluation due, without consuming anything?  The hooks' first
 * test, before any lock, on what sugov_inv_should_update() decides on
 * under it.  Plain reads (data_race()), as schedutil's
 * sugov_should_update_freq() reads the same fields: each is compared
 * once and only picks the path.  A stale value makes a call return as
 * rate-limited, as it would have a moment earlier, or take the slow path,
 * which decides again; on a shared policy it then only chooses the
 * length of the window to measure (sugov_inv_window_due()).
 */
static __always_inline bool
sugov_inv_peek_due(const struct sugov_inv_policy_data *sgp, u64 time)
{
	/* Plain reads: each value only picks the path (above) */
	return data_race(sugov_inv_eval_due(time, sgp->last_freq_update_ns,
					    sgp->freq_update_delay_ns,
					    sgp->limits_changed));
}

/*
 * The rest of a hook call, once the window is measured: an evaluation if
 * one is due and this CPU may change the frequency.
 * The scheduler calls the hooks with the rq lock of sgc->cpu held and IRQs
 * off, on that CPU or (remote wake-ups, load balancing) on another one:
 * no sleeping, no allocation, no printk.
 */
static __always_inline void sugov_inv_update(struct sugov_inv_cpu *sgc,
					     u64 time, bool due)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;

	/*
	 * Not due, or nothing measured yet (a fresh start: the first window
	 * comes first, and a pending limits change is left for the first
	 * evaluation to apply), or a remote call the driver cannot act on:
	 * computing a frequency nobody can set is wasted work.
	 */
	if (!due || unlikely(!sgc->measured))
		goto ratelimited;
	if (!sugov_inv_this_cpu_can_update(sgp->policy))
		return;
	if (!sugov_inv_should_update(sgp, time))
		goto ratelimited;

	sugov_inv_evaluate(sgc, time);
	return;

ratelimited:
	sugov_inv_stat_inc(&sgc->stats.ratelimited);
}

/* A single-CPU policy's hook past its rate-limited return */
static noinline void sugov_inv_update_single_slow(struct sugov_inv_cpu *sgc,
						  u64 time)
{
	bool due;

	if (unlikely(READ_ONCE(sugov_inv_pm_sleep)))
		return;
	/* Pairs with the smp_wmb() in sugov_inv_pm_notify() */
	smp_rmb();

	due = sugov_inv_peek_due(sgc->sgp, time);

	/* Idle time and APERF/MPERF can only be read on the CPU itself */
	if (sugov_inv_window_due(sgc, time, due) &&
	    sgc->cpu == smp_processor_id())
		sugov_inv_publish(sgc, sugov_inv_measure(sgc, time, &sgc->win));

	sugov_inv_update(sgc, time, due);
}

/*
 * Hook of a single-CPU policy: the CPU's rq lock serializes everything,
 * so the window is measured in place.  The rate-limited return, by far
 * the most common call, reads this CPU's and its policy's own fields and
 * nothing else, and makes no call (the rest is out of line): it is
 * sugov_inv_peek_due() false for a CPU that has measured a window.  It
 * skips sugov_inv_window_due(): the once-per-period window serves the
 * CPUs of a shared policy that do not evaluate, and here the evaluation
 * that ends the rate limit measures the window before deciding (the
 * estimator gives the same result for one long window as for several
 * short ones).
 */
static void sugov_inv_update_single(struct update_util_data *hook, u64 time,
				    unsigned int flags)
{
	struct sugov_inv_cpu *sgc = container_of(hook, struct sugov_inv_cpu,
						 update_util);
	const struct sugov_inv_policy_data *sgp = sgc->sgp;

	/*
	 * Without a boost or an I/O-wait wake-up, the common case, there is
	 * nothing to account, and last_update is not needed: it is read only
	 * for a boost (sugov_inv_iowait_note() and sugov_inv_iowait_apply()
	 * read no time for a boost of 0), and a boost starts here.
	 */
	if (unlikely((flags & SCHED_CPUFREQ_IOWAIT) || sgc->iowait.boost)) {
		sugov_inv_iowait_note(&sgc->iowait,
				      sugov_inv_since(time, sgc->last_update),
				      flags & SCHED_CPUFREQ_IOWAIT);
		sgc->last_update = time;
	}

	if (likely(!sugov_inv_peek_due(sgp, time) && sgc->measured)) {
		sugov_inv_stat_inc(&sgc->stats.ratelimited);
		return;
	}
	sugov_inv_update_single_slow(sgc, time);
}

/*
 * A shared policy's CPU measures its window before update_lock, into a
 * copy (the clock reads, APERF/MPERF and the estimator's divisions, with
 * IRQs off but without holding up the policy's other CPUs), and copies it
 * in under the lock, which it returns holding.  Out of line, so that only
 * the calls that measure pay for the copy's stack: kernels built with
 * INIT_STACK_ALL_ZERO (Debian's) zero a local at every call of the
 * function that declares it, and the stack protector guards it.
 */
static noinline void sugov_inv_measure_shared(struct sugov_inv_cpu *sgc,
					      u64 time)
	__acquires(&sgc->sgp->update_lock)
{
	/* Only this CPU writes sgc->win: no lock to read it */
	struct sugov_inv_window win = sgc->win;
	bool closed = sugov_inv_measure(sgc, time, &win);

	raw_spin_lock(&sgc->sgp->update_lock);
	sgc->win = win;
	sugov_inv_publish(sgc, closed);
}

/* A shared policy's hook past its lockless rate-limited return */
static noinline void sugov_inv_update_shared_slow(struct sugov_inv_cpu *sgc,
						  u64 time, unsigned int flags)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	bool due;

	if (unlikely(READ_ONCE(sugov_inv_pm_sleep)))
		return;
	/* Pairs with the smp_wmb() in sugov_inv_pm_notify() */
	smp_rmb();

	due = sugov_inv_peek_due(sgp, time);
	if (sugov_inv_window_due(sgc, time, due) &&
	    sgc->cpu == smp_processor_id())
		sugov_inv_measure_shared(sgc, time);
	else
		raw_spin_lock(&sgp->update_lock);
	sugov_inv_iowait_note(&sgc->iowait,
			      sugov_inv_since(time, sgc->last_update),
			      flags & SCHED_CPUFREQ_IOWAIT);
	WRITE_ONCE(sgc->last_update, time);
	sugov_inv_update(sgc, time, sugov_inv_peek_due(sgp, time));
	raw_spin_unlock(&sgp->update_lock);
}

/*
 * Hook of a shared policy: update_lock serializes the policy's CPUs.  The
 * rate-limited return needs no lock when there is no iowait boost to
 * account, and writes nothing but its counter: this CPU's last_update is
 * read only for a boost (sugov_inv_iowait_note() and
 * sugov_inv_iowait_apply() read no time for a boost of 0), and a boost
 * starts in the slow path, which records the time.  A boost read as 0
 * stays 0 until this CPU's own next I/O-wait wake-up (the rq lock held
 * here excludes it): sugov_inv_gather_shared() only lowers boosts.
 */
static void sugov_inv_update_shared(struct update_util_data *hook, u64 time,
				    unsigned int flags)
{
	struct sugov_inv_cpu *sgc = container_of(hook, struct sugov_inv_cpu,
						 update_util);
	const struct sugov_inv_policy_data *sgp = sgc->sgp;

	if (likely(!(flags & SCHED_CPUFREQ_IOWAIT) &&
		   /* Lowered by other CPUs: a plain read, as in peek_due */
		   !data_race(sgc->iowait.boost) && sgc->measured &&
		   !sugov_inv_peek_due(sgp, time) &&
		   (!sugov_inv_window_due(sgc, time, false) ||
		    sgc->cpu != smp_processor_id()))) {
		sugov_inv_stat_inc(&sgc->stats.ratelimited);
		return;
	}
	sugov_inv_update_shared_slow(sgc, time, flags);
}

/********************** cpufreq governor interface *********************/

static int sugov_inv_init(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp;
	int ret;

	/* The core calls exit before a second init; anything else is a bug */
	if (policy->governor_data)
		return -EBUSY;

	cpufreq_enable_fast_switch(policy);

	sgp = kzalloc(sizeof(*sgp), GFP_KERNEL);
	if (!sgp) {
		ret = -ENOMEM;
		goto disable_fast_switch;
	}
	sgp->policy = policy;
	raw_spin_lock_init(&sgp->update_lock);

	ret = sugov_inv_kthread_create(sgp);
	if (ret)
		goto free_sgp;

	ret = sugov_inv_tunables_attach(sgp);
	if (ret)
		goto stop_kthread;

	policy->governor_data = sgp;
	return 0;

stop_kthread:
	sugov_inv_kthread_stop(sgp);
free_sgp:
	kfree(sgp);
disable_fast_switch:
	cpufreq_disable_fast_switch(policy);
	pr_err("policy%u: initialization failed: %d\n", policy->cpu, ret);
	return ret;
}

static void sugov_inv_exit(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp = policy->governor_data;

	sugov_inv_tunables_detach(sgp);
	policy->governor_data = NULL;

	sugov_inv_kthread_stop(sgp);
	kfree(sgp);
	cpufreq_disable_fast_switch(policy);
}

static int sugov_inv_start(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp = policy->governor_data;
	void (*hook)(struct update_util_data *data, u64 time,
		     unsigned int flags);
	struct sugov_inv_cpu **link = &sgp->first_cpu;
	struct freq_inv_caps caps;
	unsigned int cpu, nocaps = 0;
	bool keep;

	/* Rule 3's probes */
	sugov_inv_chain_set_window(READ_ONCE(sgp->tunables->chain_window_us));
	sugov_inv_chain_get();

	sugov_inv_set_rate_limit(sgp, sgp->tunables);
	sgp->last_freq_update_ns = 0;
	WRITE_ONCE(sgp->next_freq, 0);
	WRITE_ONCE(sgp->cached_raw_khz, 0);
	sgp->work_in_progress = false;
	sgp->limits_changed = false;
	sgp->need_freq_update = false;
	sgp->shared = policy_is_shared(policy);
	hook = sgp->shared ? sugov_inv_update_shared : sugov_inv_update_single;

	/*
	 * The core restarts the governor of a shared policy whenever one of
	 * its CPUs goes offline or comes online.  The CPUs that stayed keep
	 * their estimate and snapshots: the next window spans the restart
	 * and measures it like any other, and the policy does not fall back
	 * to what one new CPU measured.  So does the restart of a system
	 * sleep, however long it lasted (see sugov_inv_pm_sleep).  Anything
	 * else (a first start, a CPU that went offline, whose idle clock
	 * restarted, a restart long after the stop) starts from nothing: a
	 * CPU is kept only when it was marked at this policy data's last
	 * stop (sugov_inv_keep.h says why by a generation).
	 */
	keep = ktime_get_boottime_ns() - sgp->stop_ns < SUGOV_INV_KEEP_NS ||
	       READ_ONCE(sugov_inv_pm_sleep);

	for_each_cpu(cpu, policy->cpus) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);

		if (keep && sugov_inv_keep_match(&sgc->kept, &sgp->stopped)) {
			memset(&sgc->stats, 0, sizeof(sgc->stats));
		} else {
			memset(sgc, 0, sizeof(*sgc));
			sgc->cpu = cpu;
		}
		WRITE_ONCE(sgc->sgp, sgp);
		/* The evaluation's walk over the CPUs, in cpumask order */
		sgc->next_in_policy = NULL;
		*link = sgc;
		link = &sgc->next_in_policy;

		if (freq_inv_get_caps(cpu, &caps))
			nocaps++;
	}
	/* Said here, in process context: the hook cannot printk */
	if (nocaps)
		pr_debug("policy%u: %u CPUs without freq_invariance caps: their freq_max is cpuinfo_max_freq (%u kHz)\n",
			 policy->cpu, nocaps, policy->cpuinfo.max_freq);

	for_each_cpu(cpu, policy->cpus) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);

		cpufreq_add_update_util_hook(cpu, &sgc->update_util, hook);
	}
	return 0;
}

static void sugov_inv_stop(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp = policy->governor_data;
	unsigned int cpu;

	for_each_cpu(cpu, policy->cpus)
		cpufreq_remove_update_util_hook(cpu);

	/* The hooks run under rcu_read_lock_sched(): wait for the last one */
	synchronize_rcu();
	/* The last policy to stop takes rule 3's probes away */
	sugov_inv_chain_put();

	/*
	 * Keeps the counters for debugfs; only the ownership goes.  The
	 * estimates stay for a restart that follows (sugov_inv_start()).
	 */
	sugov_inv_keep_stop(&sgp->stopped, &sugov_inv_stops);
	sgp->stop_ns = ktime_get_boottime_ns();
	for_each_cpu(cpu, policy->cpus) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);

		WRITE_ONCE(sgc->sgp, NULL);
		sugov_inv_keep_mark(&sgc->kept, &sgp->stopped);
	}

	if (sgp->worker) {
		irq_work_sync(&sgp->irq_work);
		kthread_cancel_work_sync(&sgp->work);
	}
}

static void sugov_inv_limits(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp = policy->governor_data;

	/*
	 * Slow path: apply the new limits now, as schedutil does; the fast
	 * path applies them from the next hook call.
	 */
	if (sgp->worker) {
		mutex_lock(&sgp->work_lock);
		cpufreq_policy_apply_limits(policy);
		mutex_unlock(&sgp->work_lock);
	}

	/*
	 * cpufreq_set_policy() stored the new policy->min/max before calling
	 * us: make those stores visible before the flag, so a hook that sees
	 * the flag reads the new limits.  Pairs with the smp_mb() in
	 * sugov_inv_should_update().
	 */
	smp_wmb();
	WRITE_ONCE(sgp->limits_changed, true);
}

struct cpufreq_governor sugov_inv_gov = {
	.name	= "sugov_inv",
	.owner	= THIS_MODULE,
	.flags	= CPUFREQ_GOV_DYNAMIC_SWITCHING,
	.init	= sugov_inv_init,
	.exit	= sugov_inv_exit,
	.start	= sugov_inv_start,
	.stop	= sugov_inv_stop,
	.limits	= sugov_inv_limits,
};

/************************** registration ************************/

static int __init sugov_inv_module_init(void)
{
	int ret;

	ret = sugov_inv_check_params();
	if (ret)
		return ret;

	sugov_inv_debugfs_init();
	/* Before the governor can start: no start misses a sleep */
	ret = sugov_inv_pm_init();
	if (ret)
		goto remove_debugfs;
	/* The chain rule's worker too: a start queues work for it */
	ret = sugov_inv_chain_init();
	if (ret)
		goto unregister_pm;

	ret = cpufreq_register_governor(&sugov_inv_gov);
	if (ret) {
		pr_err("cannot register the governor: %d\n", ret);
		goto stop_chain;
	}
	return 0;

stop_chain:
	sugov_inv_chain_exit();
unregister_pm:
	sugov_inv_pm_exit();
remove_debugfs:
	sugov_inv_debugfs_exit();
	return ret;
}
module_init(sugov_inv_module_init);

/*
 * Unload is only possible while no policy uses the governor: the cpufreq
 * core holds a reference on THIS_MODULE from a policy's governor init to
 * its exit, so rmmod fails with EBUSY until then.
 */
static void __exit sugov_inv_module_exit(void)
{
	cpufreq_unregister_governor(&sugov_inv_gov);
	sugov_inv_chain_exit();
	sugov_inv_pm_exit();
	sugov_inv_debugfs_exit();
}
module_exit(sugov_inv_module_exit);

MODULE_DESCRIPTION("schedutil-like cpufreq governor with a selectable freq_max");
MODULE_LICENSE("GPL");
MODULE_VERSION(SUGOV_INV_VERSION);
/* What cpufreq's scaling_governor store asks modprobe for */
MODULE_ALIAS("cpufreq_sugov_inv");
FREQ_INV_IMPORT_NS();
