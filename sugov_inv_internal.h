/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: what the governor's units share: the per-CPU, per-policy and
 * tunables structs, their locking rules, the few helpers every unit
 * inlines, and the calls from one unit into another.
 *
 *   sugov_inv_gov.c      hooks, evaluation, slow path, governor ops, module
 *   sugov_inv_measure.c  per-CPU windows and the projection of stale CPUs
 *   sugov_inv_measure.h  the measuring the hooks inline
 *   sugov_inv_sysfs.c    the tunables' directory and lifetime
 *   sugov_inv_params.c   module parameters: the defaults of new tunables
 *   sugov_inv_debugfs.c  the per-CPU summary in debugfs
 *   sugov_inv_keep.h     which CPUs keep their state across a restart
 *   sugov_inv_chain.c    the chain rule's probes and its use in an evaluation
 */
#ifndef _SUGOV_INV_INTERNAL_H
#define _SUGOV_INV_INTERNAL_H

#include <linux/cpufreq.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched/cpufreq.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <asm/local64.h>

#include "freq_invariance.h"
#include "sugov_inv.h"
#include "sugov_inv_est.h"
#include "sugov_inv_iowait.h"
#include "sugov_inv_keep.h"
#include "sugov_inv_wake.h"

/*
 * Shortest window a busy fraction is measured over.  Idle time comes in
 * microseconds, so 1 ms keeps the rounding of one window under 0.1 %, and
 * the APERF/MPERF reads (MSR reads: VM exits in a guest) happen at most
 * 1000 times a second per CPU even with rate_limit_us = 0.
 */
#define SUGOV_INV_MIN_WINDOW_NS		NSEC_PER_MSEC

/**
 * struct sugov_inv_tunables - one sysfs directory of tunables
 * @attr_set: the kobject and the list of policies using this set; its
 *	update_lock (a mutex taken by governor_sysfs_ops around every store)
 *	serializes the writers below
 * @rate_limit_us: minimum time from a policy's last request to its next
 *	evaluation, us (schedutil's rate_limit_us)
 * @freq_max_policy: enum sugov_inv_fmax
 * @overutil_threshold_pct: overutil-detect's busy threshold, percent
 * @idle_restore_us: idle time in one window that makes a long idle
 *	stretch, after which the CPU's util from before it comes back once
 *	the CPU has run a tick (0: off; struct sugov_inv_wake)
 * @chain_window_us: the chain rule's window (0: off; sugov_inv_chain.h)
 *
 * The update_util hooks read the fields with READ_ONCE() and no lock: each
 * is one word, and a decision taken with the previous value of one of them
 * while it changes is as good as one taken a moment earlier.
 */
struct sugov_inv_tunables {
	struct gov_attr_set attr_set;
	unsigned int rate_limit_us;
	unsigned int freq_max_policy;
	unsigned int overutil_threshold_pct;
	unsigned int idle_restore_us;
	unsigned int chain_window_us;
};

struct sugov_inv_cpu;

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
 * @last_freq_update_ns: hook time (rq clock, ns) of the last evaluation
 *	that sent a request (a changed frequency, or one after a limits
 *	change): the rate limit counts from it, as from schedutil's
 *	last_freq_update_time
 * @freq_update_delay_ns: rate_limit_us in ns: the wait after a request
 *	before the next evaluation
 * @sample_period_ns: the longer of @freq_update_delay_ns and
 *	SUGOV_INV_MIN_WINDOW_NS: how often a CPU that does not evaluate
 *	measures a window (sugov_inv_window_due())
 * @next_freq: the frequency last requested from the driver, kHz.  Every
 *	access is a READ_ONCE() or WRITE_ONCE(): on a single-CPU policy with
 *	a slow path the hook reads it under the rq lock while
 *	sugov_inv_work() sets it back to policy->cur under @update_lock.
 *	Writers hold @update_lock, or (fast switch) the lock that serializes
 *	the policy's hooks.
 * @cached_raw_khz: raw target that @next_freq was resolved from (0: none;
 *	sugov_inv_settle()); accessed as @next_freq
 * @limits_changed: set by sugov_inv_limits(), consumed by the next hook
 * @need_freq_update: the next evaluation must send its result even when it
 *	equals @next_freq, and must not hold
 * @irq_work: slow path: queued by the hook to wake @worker
 * @work: slow path: calls the driver from @worker
 * @work_lock: slow path: serializes driver calls from @work and
 *	sugov_inv_limits() (mutex: the driver may sleep)
 * @worker: slow path: the SCHED_FIFO kthread worker
 * @work_in_progress: slow path: @work is queued and has not read @next_freq
 * @stopped: the stamp of this policy data's last sugov_inv_stop() (none
 *	before the first); a CPU whose struct sugov_inv_cpu::kept matches it
 *	was in the policy at that stop (process context only: start and stop
 *	are serialized by the policy's rwsem)
 * @stop_ns: CLOCK_BOOTTIME of the last sugov_inv_stop(), ns
 * @fresh_caps: the caps an evaluation reads afresh (sugov_inv_evaluate()),
 *	serialized as the policy's evaluations are (@update_lock when
 *	shared, else the CPU's rq lock).  Here rather than on the hook's
 *	stack, where kernels built with INIT_STACK_ALL_ZERO (Debian's) would
 *	zero it, and the stack protector guard it, at every evaluation.
 * @first_cpu: the first of policy->cpus, whose @next_in_policy links the
 *	rest in cpumask order (set by sugov_inv_start() before the hooks are
 *	added; the core changes policy->cpus only while the governor is
 *	stopped)
 */
struct sugov_inv_policy_data {
	struct cpufreq_policy *policy;
	struct sugov_inv_tunables *tunables;
	struct list_head tunables_hook;

	raw_spinlock_t update_lock;	/* see @update_lock above */
	bool shared;
	u64 last_freq_update_ns;
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

	struct sugov_inv_keep stopped;
	u64 stop_ns;
	struct freq_inv_caps fresh_caps;
	struct sugov_inv_cpu *first_cpu;
};

/**
 * struct sugov_inv_window - what a CPU's last measured window left
 * @est: util estimate, that window folded in
 * @caps: the CPU's caps, read when the window closed (sugov_inv_get_caps())
 * @time: hook time of the window's end (rq clock, ns)
 * @wall_us: wall clock at the window's end (CLOCK_MONOTONIC), us
 * @idle_us: idle + iowait time at the window's end, us
 * @deliv_khz: average delivered frequency in the window, kHz
 * @deliv_counted: @deliv_khz came from APERF/MPERF, which also make the
 *	kernel's own PELT frequency-invariant on x86
 * @pm_seq: sugov_inv_pm_seq when the window began: a window begun before
 *	a system sleep is not measured across it
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
	bool deliv_counted;
	unsigned int pm_seq;
};

/**
 * struct sugov_inv_stats - per-CPU counters shown in debugfs
 * @evals: evaluations run by this CPU's hook
 * @ratelimited: hook calls that returned early on the rate limit (or
 *	before the first window was measured)
 * @samples: windows measured on this CPU
 * @reasons: requests sent, by reason; [SUGOV_INV_REASON_HOLD] counts
 *	evaluations whose lower target was held (those send nothing)
 * @chained: evaluations whose util the chain rule raised
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
	local64_t chained;
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
 * @wake: what the CPU remembers across an idle stretch (measured with its
 *	windows, read by its own evaluations)
 * @kept: the stamp of the last stop of a policy on this CPU
 * @next_in_policy: the next CPU of the policy (NULL after the last): the
 *	evaluation walks this list instead of searching policy->cpus for
 *	each CPU (struct sugov_inv_policy_data::first_cpu)
 * @stats: debugfs counters
 *
 * Serialized by the CPU's rq lock (every hook call for this CPU holds it),
 * and for a shared policy by the policy's update_lock as well, which lets
 * the evaluating CPU read the other CPUs' @win, @sampled, @iowait and
 * @last_update.  Only the CPU itself measures (@sample, @win): the
 * counters can only be read locally.  On a shared policy it measures
 * outside update_lock into a copy of @win and writes @win, @sampled and
 * @measured under the lock (sugov_inv_measure_shared()).
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
	struct sugov_inv_wake wake;
	struct sugov_inv_keep kept;
	struct sugov_inv_cpu *next_in_policy;
	struct sugov_inv_stats stats;
};

DECLARE_PER_CPU(struct sugov_inv_cpu, sugov_inv_cpus);

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

/*
 * Fill @caps for @cpu.  Without freq_invariance's caps (-ENODEV: not
 * learned yet) every frequency is cpuinfo.max_freq: the choices then
 * agree, and invariant util is measured against the policy maximum, as
 * schedutil does where the arch has no invariance.
 */
static inline void sugov_inv_get_caps(unsigned int cpu,
				      struct cpufreq_policy *policy,
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

/* The rate limit and the sampling period that follows from it */
static inline void sugov_inv_set_rate_limit(struct sugov_inv_policy_data *sgp,
					    const struct sugov_inv_tunables *t)
{
	s64 delay_ns = (s64)READ_ONCE(t->rate_limit_us) * NSEC_PER_USEC;

	WRITE_ONCE(sgp->freq_update_delay_ns, delay_ns);
	WRITE_ONCE(sgp->sample_period_ns,
		   max_t(s64, delay_ns, SUGOV_INV_MIN_WINDOW_NS));
}

/* sugov_inv_gov.c: the governor, whose name the tunables' directory takes */
extern struct cpufreq_governor sugov_inv_gov;
/* sugov_inv_pm.c: system sleep (see sugov_inv_pm_sleep there) */
extern bool sugov_inv_pm_sleep;
extern unsigned int sugov_inv_pm_seq;
int __init sugov_inv_pm_init(void);
void sugov_inv_pm_exit(void);

/* sugov_inv_slow.c */
int sugov_inv_kthread_create(struct sugov_inv_policy_data *sgp);
void sugov_inv_kthread_stop(struct sugov_inv_policy_data *sgp);

/* sugov_inv_sysfs.c */
extern const char * const sugov_inv_fmax_names[SUGOV_INV_NR_FMAX];
int sugov_inv_parse_uint(const char *buf, size_t count, unsigned int min,
			 unsigned int max, unsigned int *val);
int sugov_inv_tunables_attach(struct sugov_inv_policy_data *sgp);
void sugov_inv_tunables_detach(struct sugov_inv_policy_data *sgp);

/* sugov_inv_params.c */
void sugov_inv_tunables_defaults(struct sugov_inv_tunables *tunables,
				 struct cpufreq_policy *policy);
int __init sugov_inv_check_params(void);

/* sugov_inv_chain.c */
struct seq_file;
void sugov_inv_chain_set_window(unsigned int window_us);
void sugov_inv_chain_get(void);
void sugov_inv_chain_put(void);
int __init sugov_inv_chain_init(void);
void sugov_inv_chain_exit(void);
void sugov_inv_chain_show(struct seq_file *m);
u32 sugov_inv_chain_busy(const struct sugov_inv_cpu *sgc, u64 time,
			 unsigned int window_us);

/* sugov_inv_debugfs.c */
void sugov_inv_debugfs_init(void);
void sugov_inv_debugfs_exit(void);

#endif /* _SUGOV_INV_INTERNAL_H */
