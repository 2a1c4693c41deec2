// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: a schedutil-like cpufreq governor with a selectable freq_max
 *
 *   freq_next = headroom * freq_max * util / 1024
 *
 * with freq_max chosen by the freq_max_policy tunable (max_P, midpoint,
 * max_boost, overutil-detect, noinv; see Documentation and sugov_inv.h),
 * so that the choices the schedutil frequency-invariance debate argued
 * about can be compared on a stock kernel without rebuilding it.
 *
 * The scheduler's PELT util is not exported to modules on 6.1, so each CPU
 * measures its own: at most once per window (the rate limit, at least
 * SUGOV_INV_MIN_WINDOW_NS) its update_util hook reads the CPU's idle time
 * (get_cpu_idle_time_us() of the local CPU only) and the frequency it
 * delivered (freq_invariance: APERF/MPERF, else the policy's current
 * frequency), and folds min(busy * f_deliv / ref, 1) * 1024 into a PELT-like
 * average (sugov_inv_est_update()).  Kept from schedutil: rate_limit_us,
 * iowait boost, the busy-CPU hold, shared policies, fast switch with an
 * irq_work + kthread slow path, limits changes applied at the next update.
 * Not reproduced (no exported interface on 6.1): util following tasks as
 * they migrate, util_est, uclamp, RT/DL running at the maximum.
 *
 * Model: kernel/sched/cpufreq_schedutil.c (structure, init/start/stop/exit
 * and the slow path).  Banners follow its order: internals, sysfs, governor
 * operations, registration.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <asm/local64.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched/cpufreq.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "freq_inv_choices.h"
#include "freq_invariance.h"
#include "sugov_inv.h"

#define CREATE_TRACE_POINTS
#include "sugov_inv_trace.h"

/*
 * Shortest window a busy fraction is measured over.  Idle time comes in
 * microseconds, so 1 ms keeps the rounding of one window under 0.1 %, and
 * the APERF/MPERF reads (MSR reads: VM exits in a guest) happen at most
 * 1000 times a second per CPU even with rate_limit_us = 0.
 */
#define SUGOV_INV_MIN_WINDOW_NS		NSEC_PER_MSEC

/*
 * A restart of the governor this soon after its stop keeps the estimates
 * of the CPUs that stayed in the policy (sugov_inv_start()).  The core's
 * hotplug restarts follow their stop within milliseconds; 1 s leaves
 * room for a slow debug kernel and is short enough that what is kept
 * still describes the load.
 */
#define SUGOV_INV_KEEP_NS		NSEC_PER_SEC

/**
 * struct sugov_inv_tunables - one sysfs directory of tunables
 * @attr_set: the kobject and the list of policies using this set; its
 *	update_lock (a mutex taken by governor_sysfs_ops around every store)
 *	serializes the writers below
 * @rate_limit_us: minimum time between two evaluations of a policy, us
 * @freq_max_policy: enum sugov_inv_fmax
 * @headroom_pct: headroom, percent (125 = 1.25)
 * @overutil_pct: overutil-detect's busy threshold, percent
 * @halflife_ms: half-life of the util average, ms
 *
 * The update_util hooks read the fields with READ_ONCE() and no lock: each
 * is one word, and a decision taken with the previous value of one of them
 * while it changes is as good as one taken a moment earlier.
 */
struct sugov_inv_tunables {
	struct gov_attr_set attr_set;
	unsigned int rate_limit_us;
	unsigned int freq_max_policy;
	unsigned int headroom_pct;
	unsigned int overutil_pct;
	unsigned int halflife_ms;
};

/**
 * struct sugov_inv_policy_data - the governor's state for one cpufreq policy
 * @policy: the cpufreq policy
 * @tunables: the tunables set in use (shared by all policies on x86)
 * @tunables_hook: entry in @tunables->attr_set.policy_list
 * @update_lock: raw spinlock (taken in the scheduler hook, IRQs off).  For a
 *	shared policy it serializes the hooks of all the policy's CPUs, so it
 *	protects every per-CPU struct sugov_inv_cpu of the policy and all the
 *	fields below; for a single-CPU policy the CPU's rq lock does that and
 *	@update_lock only orders @next_freq and @work_in_progress against
 *	sugov_inv_work() on the slow path.
 * @shared: more than one CPU in policy->cpus (fixed between start and stop)
 * @last_eval_time: hook time (rq clock, ns) of the last evaluation that
 *	changed the frequency (or followed a limits change): the rate limit
 *	counts from it, as schedutil's last_freq_update_time
 * @freq_update_delay_ns: rate_limit_us in ns
 * @sample_period_ns: the longer of @freq_update_delay_ns and
 *	SUGOV_INV_MIN_WINDOW_NS: how often a CPU that does not evaluate
 *	measures a window (sugov_inv_window_due())
 * @next_freq: the frequency last requested from the driver, kHz; on the
 *	slow path set back to policy->cur by sugov_inv_work() when the driver
 *	ended up elsewhere
 * @cached_raw_khz: raw target that @next_freq was resolved from (0: none);
 *	an unchanged raw target reuses @next_freq instead of resolving again
 * @limits_changed: set by sugov_inv_limits(), consumed by the next hook
 * @need_freq_update: the next evaluation must send its result even when it
 *	equals @next_freq, and must not hold
 * @irq_work: slow path: queued by the hook to wake @worker
 * @work: slow path: calls the driver from @worker
 * @work_lock: slow path: serializes driver calls from @work and
 *	sugov_inv_limits() (mutex: the driver may sleep)
 * @worker: slow path: the SCHED_FIFO kthread worker
 * @work_in_progress: slow path: @work is queued and has not read @next_freq
 * @stop_seq: number of sugov_inv_stop() calls on this policy data; a CPU
 *	whose struct sugov_inv_cpu::kept_seq equals it was in the policy at
 *	the last stop (process context only: start and stop are serialized by
 *	the policy's rwsem)
 * @stop_ns: CLOCK_BOOTTIME of the last sugov_inv_stop(), ns
 */
struct sugov_inv_policy_data {
	struct cpufreq_policy *policy;
	struct sugov_inv_tunables *tunables;
	struct list_head tunables_hook;

	raw_spinlock_t update_lock;	/* see @update_lock above */
	bool shared;
	u64 last_eval_time;
	s64 freq_update_delay_ns;
	s64 sample_period_ns;
	unsigned int next_freq;
	unsigned int cached_raw_khz;
	bool limits_changed;
	bool need_freq_update;

	struct irq_work irq_work;
	struct kthread_work work;
	struct mutex work_lock;		/* see @work_lock above */
	struct kthread_worker *worker;
	bool work_in_progress;

	unsigned long stop_seq;
	u64 stop_ns;
};

/**
 * struct sugov_inv_window - what a CPU's last measured window left
 * @est: util estimate, that window folded in
 * @caps: the CPU's caps, read when the window closed (sugov_inv_get_caps())
 * @time: hook time of the window's end (rq clock, ns)
 * @wall_us: wall clock at the window's end (CLOCK_MONOTONIC), us
 * @idle_us: idle + iowait time at the window's end, us
 * @deliv_khz: average delivered frequency in the window, kHz
 *
 * The caps are read once per window, not per hook call: they change only
 * with a boost toggle, freq_invariance's reference= parameter or caps it
 * learns late, and a CPU evaluating in its own hook measures a window
 * (so reads them) at most SUGOV_INV_MIN_WINDOW_NS before.  Evaluations
 * from another CPU, and those after a limits change, read them afresh
 * (sugov_inv_evaluate()).  acpi-cpufreq's boost toggle writes the MSRs
 * and changes no limits.
 */
struct sugov_inv_window {
	struct sugov_inv_est est;
	struct freq_inv_caps caps;
	u64 time;
	u64 wall_us;
	u64 idle_us;
	u32 deliv_khz;
};

/**
 * struct sugov_inv_stats - per-CPU counters shown in debugfs
 * @evals: evaluations run by this CPU's hook
 * @ratelimited: hook calls that returned early on the rate limit (or
 *	before the first window was measured)
 * @samples: windows measured on this CPU
 * @reasons: requests sent, by reason; [SUGOV_INV_REASON_HOLD] counts
 *	evaluations whose lower target was held (those send nothing)
 * @last_util: util of the last evaluation, capacity units
 * @last_raw: raw target of the last evaluation, kHz
 * @last_next: resolved frequency of the last evaluation, kHz
 *
 * Written by the CPU's hook only (serialized as its struct sugov_inv_cpu),
 * read by debugfs without a lock: local64_t counters and WRITE_ONCE()/
 * READ_ONCE() keep each value whole; the set of values is a snapshot, not
 * a consistent one.
 */
struct sugov_inv_stats {
	local64_t evals;
	local64_t ratelimited;
	local64_t samples;
	local64_t reasons[SUGOV_INV_NR_REASONS];
	u32 last_util;
	u32 last_raw;
	u32 last_next;
};

/**
 * struct sugov_inv_cpu - the governor's state for one CPU
 * @update_util: the hook registered with cpufreq_add_update_util_hook()
 * @sgp: the CPU's policy data; NULL while no policy of ours runs here
 * @cpu: the CPU
 * @last_update: hook time of this CPU's last hook call (rq clock, ns)
 * @iowait: iowait boost state
 * @win: what the CPU's last window left (its estimate among it)
 * @sample: APERF/MPERF snapshot for freq_invariance
 * @sampled: @win and @sample hold a snapshot
 * @samples_since_eval: windows measured since this CPU last evaluated
 * @idled_since_eval: one of those windows contained idle time
 * @ran_through: no window measured between the last two evaluations that
 *	had one contained idle time (the busy-CPU hold's test; kept for
 *	evaluations without a new window, which the rate limit allows
 *	after one that changed nothing)
 * @measured: @est holds a measured window (or was kept across a restart):
 *	until then the CPU does not evaluate, since an estimate of nothing
 *	would ask for the policy minimum (see sugov_inv_start())
 * @proj_est: on a shared policy, @win.est as another CPU last projected it
 *	(sugov_inv_gather_shared(); update_lock)
 * @proj_time: hook time of that projection, the evaluating CPU's clock (ns)
 * @proj_base: @win.time the projection started from
 * @owner: the policy data that last stopped on this CPU (only compared)
 * @kept_seq: @owner's stop_seq at that stop
 * @stats: debugfs counters
 *
 * Serialized by the CPU's rq lock (every hook call for this CPU holds it),
 * and for a shared policy by the policy's update_lock as well, which lets
 * the evaluating CPU read the other CPUs' @win, @sampled, @iowait and
 * @last_update.  Only the CPU itself measures (@sample, @win): the
 * counters can only be read locally.  On a shared policy it measures
 * outside update_lock into a copy of @win and writes @win, @sampled and
 * @measured under the lock (sugov_inv_update_shared()).
 */
struct sugov_inv_cpu {
	struct update_util_data update_util;
	struct sugov_inv_policy_data *sgp;
	unsigned int cpu;
	u64 last_update;
	struct sugov_inv_iowait iowait;
	struct sugov_inv_window win;
	struct freq_inv_sample sample;
	bool sampled;
	unsigned int samples_since_eval;
	bool idled_since_eval;
	bool ran_through;
	bool measured;
	struct sugov_inv_est proj_est;
	u64 proj_time;
	u64 proj_base;
	struct sugov_inv_policy_data *owner;
	unsigned long kept_seq;
	struct sugov_inv_stats stats;
};

static DEFINE_PER_CPU(struct sugov_inv_cpu, sugov_inv_cpus);

/*
 * What a new tunables set starts with: the module parameters
 * default_policy=, rate_limit_us=, headroom_pct=, overutil_threshold_pct=
 * and util_halflife_ms=, judged in module init.  A rate limit of UINT_MAX
 * (none given) means the driver's transition delay, as in schedutil.
 */
static unsigned int sugov_inv_default_policy = SUGOV_INV_MAX_BOOST;
static unsigned int sugov_inv_default_rate_limit_us = UINT_MAX;
static unsigned int sugov_inv_default_headroom_pct = SUGOV_INV_HEADROOM_DEFAULT;
static unsigned int sugov_inv_default_overutil_pct = SUGOV_INV_OVERUTIL_DEFAULT;
static unsigned int sugov_inv_default_halflife_ms = SUGOV_INV_HALFLIFE_DEFAULT_MS;

/*
 * @now_ns - @last_ns, never negative: rq_clock() of two CPUs may differ a
 * little, and 6.1 reads another CPU's idle clock without protection.
 * Used for ns and us alike.
 */
static inline u64 sugov_inv_since(u64 now_ns, u64 last_ns)
{
	return (s64)(now_ns - last_ns) > 0 ? now_ns - last_ns : 0;
}

/*
 * Counter increment for a reader without a lock (see sugov_inv_stats): one
 * instruction on x86 (local64_inc()), which the rate-limited return notices
 */
static inline void sugov_inv_stat_inc(local64_t *counter)
{
	local64_inc(counter);
}

/* rate_limit_us and what follows from it, for the hooks to read */
static void sugov_inv_set_rate_limit(struct sugov_inv_policy_data *sgp,
				     unsigned int rate_limit_us)
{
	s64 delay_ns = (s64)rate_limit_us * NSEC_PER_USEC;

	WRITE_ONCE(sgp->freq_update_delay_ns, delay_ns);
	WRITE_ONCE(sgp->sample_period_ns,
		   max_t(s64, delay_ns, SUGOV_INV_MIN_WINDOW_NS));
}

/************************ Governor internals ***********************/

/*
 * Can the CPU running this hook change @policy's frequency?  6.1's own
 * cpufreq_this_cpu_can_update() is not exported.  The test is the same:
 * a CPU of the policy, or any CPU when the driver allows DVFS from any CPU,
 * as long as that CPU runs one of our hooks itself (a CPU going offline has
 * had its hook removed and must not leave an irq_work behind).
 */
static bool sugov_inv_this_cpu_can_update(struct cpufreq_policy *policy)
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

	return sugov_inv_eval_due(time, sgp->last_eval_time,
				  READ_ONCE(sgp->freq_update_delay_ns),
				  limits_changed);
}

/*
 * Fill @caps for @cpu.  Without freq_invariance's caps (-ENODEV: not
 * learned yet) every frequency is cpuinfo.max_freq: the policies then
 * agree, and invariant util is measured against the policy maximum, as
 * schedutil does where the arch has no invariance.
 */
static void sugov_inv_get_caps(unsigned int cpu, struct cpufreq_policy *policy,
			       struct freq_inv_caps *caps)
{
	u32 max = policy->cpuinfo.max_freq;

	if (!freq_inv_get_caps(cpu, caps) && caps->reference_khz)
		return;

	caps->max_p_khz = max;
	caps->max_boost_khz = max;
	caps->midpoint_khz = max;
	caps->reference_khz = max;
	caps->kernel_ratio = SUGOV_INV_CAP;
	caps->source = FREQ_INV_SRC_NONE;
}

/*
 * Read @cpu's idle clock: idle + iowait time and the wall clock, both in
 * us.  I/O wait counts as idle: the CPU runs nothing, exactly as PELT sees
 * it.
 *
 * The local CPU in its hook (@local) takes the wall clock from the idle
 * time's own ktime_get() (a non-NULL last_update_time): one clock read
 * less, and wall and idle from the same instant.  That call also folds a
 * running idle period into the statistics, which only the CPU itself may
 * do: on 6.1 it does so without any protection.  Another CPU of a shared
 * policy (sugov_inv_project()) reads with a NULL last_update_time, as
 * /proc/stat does, and the wall clock separately.
 *
 * With NOHZ inactive (nohz=off) get_cpu_idle_time_us() returns -1; then
 * get_cpu_idle_time() answers from the tick's cputime accounting
 * (kcpustat, no vtime without NOHZ), with wall and idle in jiffy
 * resolution: busy fractions are then coarse (one tick = 4 ms at HZ=250)
 * but unbiased, and the util average smooths them.
 */
static void sugov_inv_read_idle(unsigned int cpu, bool local, u64 *wall_us,
				u64 *idle_us)
{
	u64 idle = get_cpu_idle_time_us(cpu, local ? wall_us : NULL);

	if (likely(idle != -1ULL)) {
		*idle_us = idle + get_cpu_iowait_time_us(cpu, NULL);
		if (!local)
			*wall_us = ktime_to_us(ktime_get());
		return;
	}
	*idle_us = get_cpu_idle_time(cpu, wall_us, 0);
}

/*
 * Close the local CPU's current window in @win, which holds the previous
 * one (sgc->win itself, or on a shared policy a copy made outside
 * update_lock), and fold it into the estimate there.  Touches nothing
 * another CPU reads: the caller publishes @win.  Returns true when a
 * window was measured, false when this was the first snapshot.  Not
 * inlined, as sugov_inv_evaluate(): inlined, their stack frame (caps,
 * saved registers, the stack protector) made every hook call pay for
 * them, the rate-limited return included.
 */
static noinline bool sugov_inv_measure(struct sugov_inv_cpu *sgc, u64 time,
				       struct sugov_inv_window *win)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct cpufreq_policy *policy = sgp->policy;
	u64 wall_us, idle_us, halflife_ns;
	u32 khz;

	sugov_inv_read_idle(sgc->cpu, true, &wall_us, &idle_us);

	if (!sgc->sampled) {
		sgc->sample.cpu = sgc->cpu;
		freq_inv_sample_prepare(&sgc->sample);
		sugov_inv_get_caps(sgc->cpu, policy, &win->caps);
		win->time = time;
		win->wall_us = wall_us;
		win->idle_us = idle_us;
		return false;
	}

	/*
	 * Average delivered frequency while busy; it also re-arms the
	 * counters for the next window.  No answer at all (no policy seen
	 * by freq_invariance): the current frequency is the best guess.
	 */
	if (freq_inv_delivered_khz(&sgc->sample, &khz, NULL) || !khz)
		khz = READ_ONCE(policy->cur);
	win->deliv_khz = khz;

	sugov_inv_get_caps(sgc->cpu, policy, &win->caps);
	halflife_ns = (u64)READ_ONCE(sgp->tunables->halflife_ms) *
		      NSEC_PER_MSEC;

	/*
	 * The first window after a fresh start sets the estimate to what it
	 * measured (a zero half-life keeps no memory): blending it into an
	 * estimate of 0 would ask for the policy minimum, and a CPU that was
	 * busy at the top would drop and take a few half-lives to climb back.
	 * schedutil keeps PELT util across a start; this is the nearest a
	 * governor measuring its own util gets.
	 */
	if (!sgc->measured)
		halflife_ns = 0;

	/* A clock read out of order (idle ahead of wall) gives busy 0 */
	sugov_inv_est_update(&win->est,
			     sugov_inv_since(wall_us, win->wall_us),
			     sugov_inv_since(idle_us, win->idle_us),
			     khz, win->caps.reference_khz, halflife_ns);

	sgc->samples_since_eval++;
	if (idle_us != win->idle_us)
		sgc->idled_since_eval = true;
	sugov_inv_stat_inc(&sgc->stats.samples);

	win->time = time;
	win->wall_us = wall_us;
	win->idle_us = idle_us;
	return true;
}

/*
 * Is a new window due on the local CPU?  Right before an evaluation
 * (@due) as soon as SUGOV_INV_MIN_WINDOW_NS passed, so decisions use
 * fresh data, and otherwise once per rate-limit period, so the CPUs of a
 * shared policy that do not evaluate keep their estimates current.  The
 * first window is short: the CPU evaluates only after it.  Before the
 * first snapshot sgc->win.time is 0 (sugov_inv_start()), and the
 * difference is the whole uptime.
 */
static inline bool sugov_inv_window_due(const struct sugov_inv_cpu *sgc,
					u64 time, bool due)
{
	s64 window = SUGOV_INV_MIN_WINDOW_NS;

	if (!due && likely(sgc->measured))
		window = READ_ONCE(sgc->sgp->sample_period_ns);
	return (s64)(time - sgc->win.time) >= window;
}

/*
 * Bring the estimate of a CPU of a shared policy that has not closed a
 * window for SUGOV_INV_STALE_NS (plus the rate limit) up to date, into @est
 * (the CPU's own state is left to the CPU): the time since its last
 * window is folded in as a window of its own, with the idle time its idle
 * clock shows (sugov_inv_read_idle(), the same clock and the same
 * nohz=off fallback its own windows use).  A CPU idle all along then
 * decays as PELT's blocked util does, one that ran all along (a tickless
 * or host-starved CPU) keeps its util.
 *
 * The common case, a CPU idle since its last window (to within 1/64 of
 * the stretch: the reads are a few us apart, and the window closed a
 * little before the idle period began), costs one decay step
 * (sugov_inv_est_decay(): no frequency divisions, no caps).  Anything
 * else takes the full update, with the CPU's caps read now.  A reading
 * that went backwards counts as no idle; a CPU that never sampled has
 * nothing to project.
 */
static void sugov_inv_project(struct sugov_inv_cpu *j_sgc,
			      struct sugov_inv_est *est)
{
	struct sugov_inv_policy_data *sgp = j_sgc->sgp;
	const struct sugov_inv_window *win = &j_sgc->win;
	u64 idle_us, wall_us, halflife_ns;
	struct freq_inv_caps caps;

	lockdep_assert_held(&sgp->update_lock);

	*est = win->est;
	if (!j_sgc->sampled)
		return;

	halflife_ns = (u64)READ_ONCE(sgp->tunables->halflife_ms) *
		      NSEC_PER_MSEC;
	sugov_inv_read_idle(j_sgc->cpu, false, &wall_us, &idle_us);
	wall_us = sugov_inv_since(wall_us, win->wall_us);
	idle_us = sugov_inv_since(idle_us, win->idle_us);

	if (idle_us >= wall_us - (wall_us >> 6)) {
		sugov_inv_est_decay(est, wall_us * NSEC_PER_USEC, halflife_ns);
		return;
	}

	sugov_inv_get_caps(j_sgc->cpu, sgp->policy, &caps);
	sugov_inv_est_update(est, wall_us, idle_us,
			     win->deliv_khz ?: READ_ONCE(sgp->policy->cur),
			     caps.reference_khz, halflife_ns);
}

/*
 * Utilization inputs of a shared policy: the highest util, busy fraction
 * and iowait boost over its CPUs, those that have not closed a window for
 * a while brought up to date first (sugov_inv_project()).  Returns the CPU whose
 * util won, for the delivered frequency in the tracepoint.
 */
static struct sugov_inv_cpu *
sugov_inv_gather_shared(struct sugov_inv_cpu *sgc, u64 time,
			struct sugov_inv_in *in)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct sugov_inv_cpu *top = sgc;
	u64 delay_ns = max_t(s64, READ_ONCE(sgp->freq_update_delay_ns), 0);
	unsigned int j;

	lockdep_assert_held(&sgp->update_lock);

	for_each_cpu(j, sgp->policy->cpus) {
		struct sugov_inv_cpu *j_sgc = &per_cpu(sugov_inv_cpus, j);
		const struct sugov_inv_est *use = &j_sgc->win.est;
		u32 boost, util;
		u64 since;

		/* Decays (or drops, after a tick of silence) every boost */
		since = sugov_inv_since(time, READ_ONCE(j_sgc->last_update));
		boost = sugov_inv_iowait_apply(&j_sgc->iowait, since);

		/*
		 * Stale is keyed on the CPU's last window, which only the CPU
		 * itself closes, not on its last hook call: remote wake-ups
		 * call the hook of an idle CPU from another CPU without
		 * sampling, and would otherwise keep an estimate from before
		 * it idled current forever.  A CPU that runs closes a window
		 * at least once per rate-limit period plus a tick.  One that
		 * never sampled has nothing to project and counts as 0.  Only
		 * the CPU running this hook is current by construction (it
		 * measured before the lock); the hook's own CPU is projected
		 * like any other when the call is a remote one for an idle CPU.
		 */
		if (j != smp_processor_id() &&
		    sugov_inv_stale(time, j_sgc->win.time + delay_ns)) {
			/*
			 * Evaluations closer together than a window reuse the
			 * last projection: an idle CPU then costs a compare,
			 * however often its policy evaluates.  A new window of
			 * its own makes it project afresh.
			 */
			if (j_sgc->proj_base != j_sgc->win.time ||
			    sugov_inv_since(time, j_sgc->proj_time) >=
			    SUGOV_INV_MIN_WINDOW_NS) {
				sugov_inv_project(j_sgc, &j_sgc->proj_est);
				j_sgc->proj_time = time;
				j_sgc->proj_base = j_sgc->win.time;
			}
			use = &j_sgc->proj_est;
		}

		util = sugov_inv_est_util(use);
		if (util > in->util_inv) {
			in->util_inv = util;
			top = j_sgc;
		}
		in->util_raw = max(in->util_raw, sugov_inv_est_busy(use));
		in->boost = max(in->boost, boost);
	}
	return top;
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
 * Send @next to the driver unless it changes nothing.  Returns true when a
 * request was made.  Only a request restarts the rate limit
 * (sugov_inv_update_next(), schedutil's rule): after an evaluation that
 * changed nothing the next hook call evaluates again, with a new window
 * once SUGOV_INV_MIN_WINDOW_NS has passed.
 */
static bool sugov_inv_commit(struct sugov_inv_policy_data *sgp, u64 time,
			     unsigned int next)
{
	struct cpufreq_policy *policy = sgp->policy;
	bool force = sgp->need_freq_update;
	unsigned int last = READ_ONCE(sgp->next_freq);

	sgp->need_freq_update = false;

	/*
	 * After a limits change the request goes out even when unchanged:
	 * 6.1 does not export cpufreq_driver_test_flags(), so the governor
	 * cannot tell whether the driver wants CPUFREQ_NEED_UPDATE_LIMITS,
	 * and one extra request per limits change is cheap.
	 */
	if (!sugov_inv_update_next(next, &last, force, time,
				   &sgp->last_eval_time))
		return false;

	/* No worker: fast switch was enabled at init */
	if (!sgp->worker) {
		/* Serialized by the rq lock (single) or update_lock (shared) */
		sgp->next_freq = next;
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

/* One evaluation of @sgc's policy, from @sgc's hook (see sugov_inv_measure()) */
static noinline void sugov_inv_evaluate(struct sugov_inv_cpu *sgc, u64 time)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct cpufreq_policy *policy = sgp->policy;
	struct sugov_inv_tunables *tunables = sgp->tunables;
	struct sugov_inv_cpu *top = sgc;
	const struct freq_inv_caps *caps = &sgc->win.caps;
	struct sugov_inv_in in = { };
	struct sugov_inv_out out;
	struct freq_inv_caps fresh;
	enum sugov_inv_reason reason;
	unsigned int next, cached_raw;
	bool request;

	if (sgp->shared) {
		top = sugov_inv_gather_shared(sgc, time, &in);
	} else {
		in.util_inv = sugov_inv_est_util(&sgc->win.est);
		in.util_raw = sugov_inv_est_busy(&sgc->win.est);
		in.boost = sugov_inv_iowait_apply(&sgc->iowait,
						  sugov_inv_since(time, sgc->last_update));
	}

	/*
	 * The caps of the CPU's last window when this is the CPU's own hook:
	 * it measured at most SUGOV_INV_MIN_WINDOW_NS ago, before deciding.
	 * Read afresh for a remote call (an idle CPU's window may be seconds
	 * old) and after a limits change, which must apply at once.
	 */
	if (unlikely(sgc->cpu != smp_processor_id() || sgp->need_freq_update)) {
		sugov_inv_get_caps(sgc->cpu, policy, &fresh);
		caps = &fresh;
	}
	in.fmax = READ_ONCE(tunables->freq_max_policy);
	in.headroom_pct = READ_ONCE(tunables->headroom_pct);
	in.overutil_pct = READ_ONCE(tunables->overutil_pct);
	in.cur_khz = READ_ONCE(policy->cur);
	in.cpu_max_khz = policy->cpuinfo.max_freq;
	in.max_p_khz = caps->max_p_khz;
	in.mid_khz = caps->midpoint_khz;
	in.max_boost_khz = caps->max_boost_khz;
	in.ref_khz = caps->reference_khz;

	sugov_inv_decide(&in, &out);
	reason = out.reason;

	/*
	 * Lowest table entry at or above the target, within min..max.  As
	 * schedutil's get_next_freq(), resolve only when the raw target
	 * changed: on 6.1 each cpufreq_driver_resolve_freq() overwrites
	 * policy->cached_resolved_idx, which the slow path's
	 * __cpufreq_driver_target() may be about to use, so resolving less
	 * often makes that window rarer (sugov_inv_work() repairs its effect).
	 */
	cached_raw = READ_ONCE(sgp->cached_raw_khz);
	if (out.raw_khz == cached_raw && !sgp->need_freq_update) {
		next = READ_ONCE(sgp->next_freq);
	} else {
		next = cpufreq_driver_resolve_freq(policy, out.raw_khz);
		WRITE_ONCE(sgp->cached_raw_khz, out.raw_khz);
	}

	/*
	 * Busy-CPU hold (schedutil's, single-CPU policies): a CPU that has
	 * not idled in any window since its last evaluation keeps its
	 * frequency rather than lose it to a util average that is still
	 * catching up.  Not after a limits change, which must apply, and
	 * not without a measured window (nothing is known then).
	 */
	if (sgc->samples_since_eval)
		sgc->ran_through = !sgc->idled_since_eval;
	if (!sgp->shared && !sgp->need_freq_update && sgc->ran_through &&
	    next < sgp->next_freq) {
		next = sgp->next_freq;
		reason = SUGOV_INV_REASON_HOLD;
		/* The held frequency did not come from this raw target */
		WRITE_ONCE(sgp->cached_raw_khz, cached_raw);
	}
	sgc->samples_since_eval = 0;
	sgc->idled_since_eval = false;

	if (sgp->need_freq_update)
		reason = SUGOV_INV_REASON_LIMITS;

	request = sugov_inv_commit(sgp, time, next);

	sugov_inv_stat_inc(&sgc->stats.evals);
	if (request || reason == SUGOV_INV_REASON_HOLD)
		sugov_inv_stat_inc(&sgc->stats.reasons[reason]);
	WRITE_ONCE(sgc->stats.last_util, out.util);
	WRITE_ONCE(sgc->stats.last_raw, out.raw_khz);
	WRITE_ONCE(sgc->stats.last_next, next);

	trace_sugov_inv_decision(sgc->cpu, policy->cpu, out.util, in.util_raw,
				 top->win.deliv_khz, in.fmax, out.freq_max_khz,
				 out.raw_khz, next, reason, request);
}

/*
 * Is an evaluation due, without consuming anything?  The hooks' first
 * test, before any lock: READ_ONCE() of what sugov_inv_should_update()
 * decides on under the lock.  On a shared policy another CPU may change
 * either before the lock is taken; the answer then only chooses the
 * length of the window to measure (sugov_inv_window_due()).
 */
static inline bool sugov_inv_peek_due(const struct sugov_inv_policy_data *sgp,
				      u64 time)
{
	return sugov_inv_eval_due(time, READ_ONCE(sgp->last_eval_time),
				  READ_ONCE(sgp->freq_update_delay_ns),
				  READ_ONCE(sgp->limits_changed));
}

/* The fields of a measurement other CPUs read (update_lock when shared) */
static inline void sugov_inv_publish(struct sugov_inv_cpu *sgc, bool closed)
{
	sgc->sampled = true;
	if (closed)
		sgc->measured = true;
}

/*
 * The rest of a hook call, once the window is measured: an evaluation if
 * one is due and this CPU may change the frequency.
 * The scheduler calls the hooks with the rq lock of sgc->cpu held and IRQs
 * off, on that CPU or (remote wake-ups, load balancing) on another one:
 * no sleeping, no allocation, no printk.
 */
static void sugov_inv_update(struct sugov_inv_cpu *sgc, u64 time, bool due)
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
	bool due = sugov_inv_peek_due(sgc->sgp, time);

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

	/* A no-op without a boost or an I/O-wait wake-up, the common case */
	if (unlikely(sgc->iowait.boost | (flags & SCHED_CPUFREQ_IOWAIT)))
		sugov_inv_iowait_note(&sgc->iowait,
				      sugov_inv_since(time, sgc->last_update),
				      flags & SCHED_CPUFREQ_IOWAIT);
	sgc->last_update = time;

	if (likely((s64)(time - READ_ONCE(sgp->last_eval_time)) <
		   READ_ONCE(sgp->freq_update_delay_ns) &&
		   sgc->measured && !READ_ONCE(sgp->limits_changed))) {
		sugov_inv_stat_inc(&sgc->stats.ratelimited);
		return;
	}
	sugov_inv_update_single_slow(sgc, time);
}

/*
 * A shared policy's hook past its lockless rate-limited return.  The
 * window is measured before update_lock, into a copy (the clock reads,
 * APERF/MPERF and the estimator's divisions, with IRQs off but without
 * holding up the policy's other CPUs), and only copied in under it.
 */
static noinline void sugov_inv_update_shared_slow(struct sugov_inv_cpu *sgc,
						  u64 time, unsigned int flags,
						  bool due)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct sugov_inv_window win;
	bool measure, closed = false;

	measure = sugov_inv_window_due(sgc, time, due) &&
		  sgc->cpu == smp_processor_id();
	if (measure) {
		/* Only this CPU writes sgc->win: no lock to read it */
		win = sgc->win;
		closed = sugov_inv_measure(sgc, time, &win);
	}

	raw_spin_lock(&sgp->update_lock);
	if (measure) {
		sgc->win = win;
		sugov_inv_publish(sgc, closed);
	}
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
 * account: of this CPU's state only last_update changes then, which
 * another CPU reads only for a boost.  A boost read as 0 stays 0 until
 * this CPU's own next I/O-wait wake-up (the rq lock held here excludes
 * it): sugov_inv_gather_shared() only lowers boosts.
 */
static void sugov_inv_update_shared(struct update_util_data *hook, u64 time,
				    unsigned int flags)
{
	struct sugov_inv_cpu *sgc = container_of(hook, struct sugov_inv_cpu,
						 update_util);
	bool due = sugov_inv_peek_due(sgc->sgp, time);

	if (likely(!(READ_ONCE(sgc->iowait.boost) |
		     (flags & SCHED_CPUFREQ_IOWAIT))) &&
	    !due && likely(sgc->measured) &&
	    (!sugov_inv_window_due(sgc, time, false) ||
	     sgc->cpu != smp_processor_id())) {
		WRITE_ONCE(sgc->last_update, time);
		sugov_inv_stat_inc(&sgc->stats.ratelimited);
		return;
	}
	sugov_inv_update_shared_slow(sgc, time, flags, due);
}

/* Slow path: the kthread's work, calls the driver (may sleep) */
static void sugov_inv_work(struct kthread_work *work)
{
	struct sugov_inv_policy_data *sgp =
		container_of(work, struct sugov_inv_policy_data, work);
	unsigned long flags;
	unsigned int freq, cur;

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
	__cpufreq_driver_target(sgp->policy, freq, CPUFREQ_RELATION_L);
	cur = READ_ONCE(sgp->policy->cur);
	mutex_unlock(&sgp->work_lock);

	/*
	 * The driver may have set another frequency than @freq: it failed,
	 * or (6.1) a hook's cpufreq_driver_resolve_freq() replaced
	 * policy->cached_resolved_idx before __cpufreq_driver_target() used
	 * it.  next_freq would then claim @freq, and every later request for
	 * @freq would be skipped as unchanged while the CPU runs @cur.  Set
	 * it to what the CPU runs, and forget the cached raw target so the
	 * next evaluation resolves and sends again.  Not when a newer
	 * request is pending: it is sent anyway.
	 */
	raw_spin_lock_irqsave(&sgp->update_lock, flags);
	if (cur != freq && !sgp->work_in_progress && sgp->next_freq == freq) {
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

/************************** sysfs interface ************************/

/* The one tunables set of a system without governor-per-policy (x86) */
static struct sugov_inv_tunables *global_tunables;
/* Protects global_tunables and the tunables' policy lists in init/exit */
static DEFINE_MUTEX(global_tunables_lock);

/* sysfs and module-parameter spelling; indexed by enum sugov_inv_fmax */
static const char * const sugov_inv_fmax_names[] = {
	[SUGOV_INV_MAX_P]	= "max_P",
	[SUGOV_INV_MIDPOINT]	= "midpoint",
	[SUGOV_INV_MAX_BOOST]	= "max_boost",
	[SUGOV_INV_OVERUTIL]	= "overutil-detect",
	[SUGOV_INV_NOINV]	= "noinv",
};

/* debugfs column names; indexed by enum sugov_inv_reason */
static const char * const sugov_inv_reason_names[] = {
	[SUGOV_INV_REASON_FORMULA]	= "formula",
	[SUGOV_INV_REASON_OVERUTIL]	= "overutil",
	[SUGOV_INV_REASON_IOWAIT]	= "iowait",
	[SUGOV_INV_REASON_HOLD]		= "hold",
	[SUGOV_INV_REASON_LIMITS]	= "limits",
};

static inline struct sugov_inv_tunables *
to_sugov_inv_tunables(struct gov_attr_set *attr_set)
{
	return container_of(attr_set, struct sugov_inv_tunables, attr_set);
}

/*
 * sysfs hands the store all @count bytes written, NUL-terminated after
 * them; kstrtouint() and sysfs_match_string() stop at the first NUL, so
 * "150\0junk" would pass as "150".  Refuse a write with a NUL inside.
 */
static bool sugov_inv_embedded_nul(const char *buf, size_t count)
{
	return strnlen(buf, count) != count;
}

/*
 * Parse an unsigned decimal (kstrtouint()'s: an optional '+', one
 * trailing newline) and check its range.  Garbage is -EINVAL, a number
 * outside [min, max] -ERANGE; the caller stores nothing then.
 */
static int sugov_inv_parse_uint(const char *buf, size_t count,
				unsigned int min, unsigned int max,
				unsigned int *val)
{
	unsigned int v;

	if (sugov_inv_embedded_nul(buf, count) || kstrtouint(buf, 10, &v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

static ssize_t rate_limit_us_show(struct gov_attr_set *attr_set, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  to_sugov_inv_tunables(attr_set)->rate_limit_us);
}

static ssize_t rate_limit_us_store(struct gov_attr_set *attr_set,
				   const char *buf, size_t count)
{
	struct sugov_inv_tunables *tunables = to_sugov_inv_tunables(attr_set);
	struct sugov_inv_policy_data *sgp;
	unsigned int val;
	int ret;

	/* governor_sysfs_ops holds it; it also keeps policy_list stable */
	lockdep_assert_held(&attr_set->update_lock);

	ret = sugov_inv_parse_uint(buf, count, 0, SUGOV_INV_RATE_LIMIT_MAX_US,
				   &val);
	if (ret)
		return ret;

	WRITE_ONCE(tunables->rate_limit_us, val);
	list_for_each_entry(sgp, &attr_set->policy_list, tunables_hook)
		sugov_inv_set_rate_limit(sgp, val);
	return count;
}

static ssize_t freq_max_policy_show(struct gov_attr_set *attr_set, char *buf)
{
	unsigned int active = READ_ONCE(to_sugov_inv_tunables(attr_set)->freq_max_policy);

	return freq_inv_emit_choices(buf, sugov_inv_fmax_names,
				     SUGOV_INV_NR_FMAX, active);
}

static ssize_t freq_max_policy_store(struct gov_attr_set *attr_set,
				     const char *buf, size_t count)
{
	struct sugov_inv_tunables *tunables = to_sugov_inv_tunables(attr_set);
	int i;

	lockdep_assert_held(&attr_set->update_lock);

	/* Exact names only (a trailing newline is allowed) */
	if (sugov_inv_embedded_nul(buf, count))
		return -EINVAL;
	i = sysfs_match_string(sugov_inv_fmax_names, buf);
	if (i < 0)
		return i;

	/* The next evaluation of each policy uses it */
	WRITE_ONCE(tunables->freq_max_policy, i);
	return count;
}

/*
 * Store an unsigned tunable after checking its range; the value is left
 * as it was on any error.
 */
static ssize_t sugov_inv_store_uint(struct gov_attr_set *attr_set,
				    const char *buf, size_t count,
				    unsigned int min, unsigned int max,
				    unsigned int *field)
{
	unsigned int val;
	int ret;

	lockdep_assert_held(&attr_set->update_lock);

	ret = sugov_inv_parse_uint(buf, count, min, max, &val);
	if (ret)
		return ret;
	WRITE_ONCE(*field, val);
	return count;
}

static ssize_t headroom_pct_show(struct gov_attr_set *attr_set, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  to_sugov_inv_tunables(attr_set)->headroom_pct);
}

static ssize_t headroom_pct_store(struct gov_attr_set *attr_set,
				  const char *buf, size_t count)
{
	return sugov_inv_store_uint(attr_set, buf, count,
				    SUGOV_INV_HEADROOM_MIN,
				    SUGOV_INV_HEADROOM_MAX,
				    &to_sugov_inv_tunables(attr_set)->headroom_pct);
}

static ssize_t overutil_threshold_pct_show(struct gov_attr_set *attr_set,
					   char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  to_sugov_inv_tunables(attr_set)->overutil_pct);
}

static ssize_t overutil_threshold_pct_store(struct gov_attr_set *attr_set,
					    const char *buf, size_t count)
{
	return sugov_inv_store_uint(attr_set, buf, count,
				    SUGOV_INV_OVERUTIL_MIN,
				    SUGOV_INV_OVERUTIL_MAX,
				    &to_sugov_inv_tunables(attr_set)->overutil_pct);
}

static ssize_t util_halflife_ms_show(struct gov_attr_set *attr_set, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  to_sugov_inv_tunables(attr_set)->halflife_ms);
}

static ssize_t util_halflife_ms_store(struct gov_attr_set *attr_set,
				      const char *buf, size_t count)
{
	return sugov_inv_store_uint(attr_set, buf, count,
				    SUGOV_INV_HALFLIFE_MIN_MS,
				    SUGOV_INV_HALFLIFE_MAX_MS,
				    &to_sugov_inv_tunables(attr_set)->halflife_ms);
}

static struct governor_attr rate_limit_us = __ATTR_RW(rate_limit_us);
static struct governor_attr freq_max_policy = __ATTR_RW(freq_max_policy);
static struct governor_attr headroom_pct = __ATTR_RW(headroom_pct);
static struct governor_attr overutil_threshold_pct =
	__ATTR_RW(overutil_threshold_pct);
static struct governor_attr util_halflife_ms = __ATTR_RW(util_halflife_ms);

static struct attribute *sugov_inv_attrs[] = {
	&rate_limit_us.attr,
	&freq_max_policy.attr,
	&headroom_pct.attr,
	&overutil_threshold_pct.attr,
	&util_halflife_ms.attr,
	NULL
};
ATTRIBUTE_GROUPS(sugov_inv);

/*
 * kobject release: the only place the tunables are freed.  It runs when
 * the last reference goes, after gov_attr_set_put() dropped the governor's
 * and after any sysfs reader or writer still inside a show/store.
 */
static void sugov_inv_tunables_free(struct kobject *kobj)
{
	kfree(to_sugov_inv_tunables(to_gov_attr_set(kobj)));
}

static const struct kobj_type sugov_inv_tunables_ktype = {
	.default_groups = sugov_inv_groups,
	.sysfs_ops = &governor_sysfs_ops,
	.release = sugov_inv_tunables_free,
};

/********************** cpufreq governor interface *********************/

static struct cpufreq_governor sugov_inv_gov;

static int sugov_inv_kthread_create(struct sugov_inv_policy_data *sgp)
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

static void sugov_inv_kthread_stop(struct sugov_inv_policy_data *sgp)
{
	if (!sgp->worker)
		return;

	/* Flushes queued work, then stops and frees the thread */
	kthread_destroy_worker(sgp->worker);
	sgp->worker = NULL;
	mutex_destroy(&sgp->work_lock);
}

static struct sugov_inv_tunables *
sugov_inv_tunables_alloc(struct sugov_inv_policy_data *sgp)
{
	struct sugov_inv_tunables *tunables;

	lockdep_assert_held(&global_tunables_lock);

	tunables = kzalloc(sizeof(*tunables), GFP_KERNEL);
	if (!tunables)
		return NULL;

	gov_attr_set_init(&tunables->attr_set, &sgp->tunables_hook);
	tunables->rate_limit_us = sugov_inv_default_rate_limit_us != UINT_MAX ?
		sugov_inv_default_rate_limit_us :
		cpufreq_policy_transition_delay_us(sgp->policy);
	tunables->freq_max_policy = sugov_inv_default_policy;
	tunables->headroom_pct = sugov_inv_default_headroom_pct;
	tunables->overutil_pct = sugov_inv_default_overutil_pct;
	tunables->halflife_ms = sugov_inv_default_halflife_ms;

	if (!have_governor_per_policy())
		global_tunables = tunables;
	return tunables;
}

static void sugov_inv_clear_global_tunables(void)
{
	lockdep_assert_held(&global_tunables_lock);

	if (!have_governor_per_policy())
		global_tunables = NULL;
}

static int sugov_inv_init(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp;
	struct sugov_inv_tunables *tunables;
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

	mutex_lock(&global_tunables_lock);

	if (global_tunables) {
		if (WARN_ON(have_governor_per_policy())) {
			ret = -EINVAL;
			goto stop_kthread;
		}
		gov_attr_set_get(&global_tunables->attr_set,
				 &sgp->tunables_hook);
		sgp->tunables = global_tunables;
		policy->governor_data = sgp;
		goto out;
	}

	tunables = sugov_inv_tunables_alloc(sgp);
	if (!tunables) {
		ret = -ENOMEM;
		goto stop_kthread;
	}
	sgp->tunables = tunables;
	policy->governor_data = sgp;

	ret = kobject_init_and_add(&tunables->attr_set.kobj,
				   &sugov_inv_tunables_ktype,
				   get_governor_parent_kobj(policy), "%s",
				   sugov_inv_gov.name);
	if (ret)
		goto put_kobj;

out:
	mutex_unlock(&global_tunables_lock);
	return 0;

put_kobj:
	/* Frees the tunables through sugov_inv_tunables_free() */
	kobject_put(&tunables->attr_set.kobj);
	policy->governor_data = NULL;
	sugov_inv_clear_global_tunables();
stop_kthread:
	mutex_unlock(&global_tunables_lock);
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
	struct sugov_inv_tunables *tunables = sgp->tunables;
	unsigned int count;

	mutex_lock(&global_tunables_lock);
	/*
	 * Linux 6.1's gov_attr_set_put() destroys update_lock before its
	 * kobject_put() removes the files, so a store already inside
	 * governor_store() would lock a destroyed mutex.  The last user
	 * removes the files first, which waits for such stores; usage_count
	 * only changes under global_tunables_lock here.
	 */
	if (tunables->attr_set.usage_count == 1)
		kobject_del(&tunables->attr_set.kobj);
	/* Drops our reference; the last one frees through the release */
	count = gov_attr_set_put(&tunables->attr_set, &sgp->tunables_hook);
	policy->governor_data = NULL;
	if (!count)
		sugov_inv_clear_global_tunables();
	mutex_unlock(&global_tunables_lock);

	sugov_inv_kthread_stop(sgp);
	kfree(sgp);
	cpufreq_disable_fast_switch(policy);
}

static int sugov_inv_start(struct cpufreq_policy *policy)
{
	struct sugov_inv_policy_data *sgp = policy->governor_data;
	void (*hook)(struct update_util_data *data, u64 time,
		     unsigned int flags);
	struct freq_inv_caps caps;
	unsigned int cpu, nocaps = 0;
	bool keep;

	sugov_inv_set_rate_limit(sgp, READ_ONCE(sgp->tunables->rate_limit_us));
	sgp->last_eval_time = 0;
	sgp->next_freq = 0;
	sgp->cached_raw_khz = 0;
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
	 * to what one new CPU measured.  Anything else (a first start, a CPU
	 * that went offline, whose idle clock restarted, a restart long
	 * after the stop) starts from nothing.
	 */
	keep = sgp->stop_seq &&
	       ktime_get_boottime_ns() - sgp->stop_ns < SUGOV_INV_KEEP_NS;

	for_each_cpu(cpu, policy->cpus) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);

		if (keep && sgc->owner == sgp && sgc->kept_seq == sgp->stop_seq) {
			memset(&sgc->stats, 0, sizeof(sgc->stats));
		} else {
			memset(sgc, 0, sizeof(*sgc));
			sgc->cpu = cpu;
		}
		WRITE_ONCE(sgc->sgp, sgp);

		if (freq_inv_get_caps(cpu, &caps))
			nocaps++;
	}
	/* Said here, in process context: the hook cannot printk */
	if (nocaps)
		pr_info("policy%u: %u CPUs without freq_invariance caps: their freq_max is cpuinfo_max_freq (%u kHz)\n",
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

	/*
	 * Keeps the counters for debugfs; only the ownership goes.  The
	 * estimates stay for a restart that follows (sugov_inv_start()).
	 */
	sgp->stop_seq++;
	sgp->stop_ns = ktime_get_boottime_ns();
	for_each_cpu(cpu, policy->cpus) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);

		WRITE_ONCE(sgc->sgp, NULL);
		sgc->owner = sgp;
		sgc->kept_seq = sgp->stop_seq;
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

static struct cpufreq_governor sugov_inv_gov = {
	.name	= "sugov_inv",
	.owner	= THIS_MODULE,
	.flags	= CPUFREQ_GOV_DYNAMIC_SWITCHING,
	.init	= sugov_inv_init,
	.exit	= sugov_inv_exit,
	.start	= sugov_inv_start,
	.stop	= sugov_inv_stop,
	.limits	= sugov_inv_limits,
};

/************************** debugfs summary ************************/

static struct dentry *sugov_inv_debugfs;

/*
 * One line per possible CPU; counters since the governor last started on
 * that CPU.  Columns are named in the header.  Reading races with the
 * hooks by design (see struct sugov_inv_stats).
 */
static int sugov_inv_summary_show(struct seq_file *m, void *unused)
{
	unsigned int cpu, r;

	seq_puts(m, "# cpu active evals ratelimited samples");
	for (r = 0; r < SUGOV_INV_NR_REASONS; r++)
		seq_printf(m, " req_%s", sugov_inv_reason_names[r]);
	seq_puts(m, " util busy deliv_khz last_util last_raw_khz last_next_khz\n");

	for_each_possible_cpu(cpu) {
		struct sugov_inv_cpu *sgc = &per_cpu(sugov_inv_cpus, cpu);
		struct sugov_inv_stats *st = &sgc->stats;

		seq_printf(m, "%u %u %llu %llu %llu", cpu,
			   READ_ONCE(sgc->sgp) ? 1 : 0,
			   (u64)local64_read(&st->evals),
			   (u64)local64_read(&st->ratelimited),
			   (u64)local64_read(&st->samples));
		for (r = 0; r < SUGOV_INV_NR_REASONS; r++)
			seq_printf(m, " %llu", (u64)local64_read(&st->reasons[r]));
		seq_printf(m, " %u %u %u %u %u %u\n",
			   sugov_inv_est_round(READ_ONCE(sgc->win.est.util_inv_fp)),
			   sugov_inv_est_round(READ_ONCE(sgc->win.est.util_raw_fp)),
			   READ_ONCE(sgc->win.deliv_khz), READ_ONCE(st->last_util),
			   READ_ONCE(st->last_raw), READ_ONCE(st->last_next));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sugov_inv_summary);

/************************** registration ************************/

/*
 * default_policy= is only recorded when set and judged in module init: a
 * parameter's set() that fails makes the kernel log the whole value
 * ("`...' invalid for parameter"), which would be a second log line, and
 * one as long as whatever was passed.  The copy is truncated; a value that
 * did not fit is invalid anyway, since every policy name is short.
 */
static char default_policy_arg[24] = "max_boost";
static bool default_policy_truncated;

static int sugov_inv_default_policy_set(const char *val,
					const struct kernel_param *kp)
{
	default_policy_truncated =
		strscpy(default_policy_arg, val, sizeof(default_policy_arg)) < 0;
	return 0;
}

static int sugov_inv_default_policy_get(char *buf,
					const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", default_policy_arg);
}

static const struct kernel_param_ops sugov_inv_default_policy_ops = {
	.set = sugov_inv_default_policy_set,
	.get = sugov_inv_default_policy_get,
};
module_param_cb(default_policy, &sugov_inv_default_policy_ops, NULL, 0444);
MODULE_PARM_DESC(default_policy,
		 "freq_max_policy of new tunables: max_P, midpoint, max_boost (default), overutil-detect or noinv");

/*
 * The numeric defaults, recorded the same way (one log line on a bad
 * value, from init) and judged by the sysfs stores' own parser and ranges.
 */
struct sugov_inv_uint_param {
	const char *name;
	char arg[16];		/* as given */
	bool given, truncated;
	unsigned int min, max;
	unsigned int *val;
};

#define SUGOV_INV_UINT_PARAM(_name, _min, _max, _val)			\
	static struct sugov_inv_uint_param sugov_inv_param_##_name = {	\
		.name = #_name, .min = (_min), .max = (_max), .val = (_val) }; \
	module_param_cb(_name, &sugov_inv_uint_param_ops,		\
			&sugov_inv_param_##_name, 0444)

static int sugov_inv_uint_param_set(const char *val,
				    const struct kernel_param *kp)
{
	struct sugov_inv_uint_param *p = kp->arg;

	p->given = true;
	p->truncated = strscpy(p->arg, val, sizeof(p->arg)) < 0;
	return 0;
}

/* The value new tunables get; -1 for the driver's rate limit */
static int sugov_inv_uint_param_get(char *buf, const struct kernel_param *kp)
{
	const struct sugov_inv_uint_param *p = kp->arg;

	if (*p->val == UINT_MAX)
		return sysfs_emit(buf, "-1\n");
	return sysfs_emit(buf, "%u\n", *p->val);
}

static const struct kernel_param_ops sugov_inv_uint_param_ops = {
	.set = sugov_inv_uint_param_set,
	.get = sugov_inv_uint_param_get,
};

SUGOV_INV_UINT_PARAM(rate_limit_us, 0, SUGOV_INV_RATE_LIMIT_MAX_US,
		     &sugov_inv_default_rate_limit_us);
MODULE_PARM_DESC(rate_limit_us,
		 "rate_limit_us of new tunables, 0..1000000 (default: the driver's transition delay)");
SUGOV_INV_UINT_PARAM(headroom_pct, SUGOV_INV_HEADROOM_MIN,
		     SUGOV_INV_HEADROOM_MAX, &sugov_inv_default_headroom_pct);
MODULE_PARM_DESC(headroom_pct, "headroom_pct of new tunables, 100..400 (default 125)");
SUGOV_INV_UINT_PARAM(overutil_threshold_pct, SUGOV_INV_OVERUTIL_MIN,
		     SUGOV_INV_OVERUTIL_MAX, &sugov_inv_default_overutil_pct);
MODULE_PARM_DESC(overutil_threshold_pct,
		 "overutil_threshold_pct of new tunables, 1..100 (default 80)");
SUGOV_INV_UINT_PARAM(util_halflife_ms, SUGOV_INV_HALFLIFE_MIN_MS,
		     SUGOV_INV_HALFLIFE_MAX_MS, &sugov_inv_default_halflife_ms);
MODULE_PARM_DESC(util_halflife_ms, "util_halflife_ms of new tunables, 1..1000 (default 32)");

static struct sugov_inv_uint_param *const sugov_inv_uint_params[] __initconst = {
	&sugov_inv_param_rate_limit_us,
	&sugov_inv_param_headroom_pct,
	&sugov_inv_param_overutil_threshold_pct,
	&sugov_inv_param_util_halflife_ms,
};

/* Check every parameter given; Return: 0, or the first one's error */
static int __init sugov_inv_check_params(void)
{
	struct sugov_inv_uint_param *p;
	unsigned int i;
	int ret;

	ret = sysfs_match_string(sugov_inv_fmax_names, default_policy_arg);
	if (ret < 0 || default_policy_truncated) {
		pr_err("default_policy=%s%s: not one of max_P midpoint max_boost overutil-detect noinv\n",
		       default_policy_arg,
		       default_policy_truncated ? "..." : "");
		return -EINVAL;
	}
	sugov_inv_default_policy = ret;

	for (i = 0; i < ARRAY_SIZE(sugov_inv_uint_params); i++) {
		p = sugov_inv_uint_params[i];
		if (!p->given)
			continue;
		ret = p->truncated ? -EINVAL :
			sugov_inv_parse_uint(p->arg, strlen(p->arg), p->min,
					     p->max, p->val);
		if (ret) {
			pr_err("%s=%s%s: not a number in %u..%u\n", p->name,
			       p->arg, p->truncated ? "..." : "", p->min, p->max);
			return ret;
		}
	}
	return 0;
}

static int __init sugov_inv_module_init(void)
{
	int ret;

	ret = sugov_inv_check_params();
	if (ret)
		return ret;

	/* Optional: debugfs errors are not fatal (and not worth checking) */
	sugov_inv_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("summary", 0444, sugov_inv_debugfs, NULL,
			    &sugov_inv_summary_fops);

	ret = cpufreq_register_governor(&sugov_inv_gov);
	if (ret) {
		debugfs_remove_recursive(sugov_inv_debugfs);
		pr_err("cannot register the governor: %d\n", ret);
	}
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
	debugfs_remove_recursive(sugov_inv_debugfs);
}
module_exit(sugov_inv_module_exit);

MODULE_DESCRIPTION("schedutil-like cpufreq governor with a selectable freq_max policy");
MODULE_LICENSE("GPL");
MODULE_VERSION(SUGOV_INV_VERSION);
/* What cpufreq's scaling_governor store asks modprobe for */
MODULE_ALIAS("cpufreq_sugov_inv");
FREQ_INV_IMPORT_NS();
