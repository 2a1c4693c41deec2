/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: what a CPU remembers across an idle stretch.  The rules of
 * work that arrives on an idle CPU, kept beside the estimator they feed:
 * how long the CPU has run since it last idled, and the estimate it had
 * when it last went idle after a real run, restored once it has run for
 * a tick again (ondemand's rule in dbs_update(),
 * drivers/cpufreq/cpufreq_governor.c: after an idle stretch longer than
 * two sampling periods it reuses the load of the window before it).
 *
 * Pure: static inlines of their arguments only, so that KUnit checks them
 * (kunit/sugov_inv_wake_kunit.c) and the governor calls them when a CPU
 * closes a window in its own hook (sugov_inv_measure.c).
 */
#ifndef _SUGOV_INV_WAKE_H
#define _SUGOV_INV_WAKE_H

#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "sugov_inv_est.h"

/*
 * How long a memory lasts, in idle_restore_us: a memory is taken at the
 * first wake-up at least idle_restore_us into a gap, so it bridges gaps
 * up to six times idle_restore_us (120 ms by default) wherever timers
 * split them, while a CPU whose load has ended drops it at its first long
 * idle stretch this much after the first.
 */
#define SUGOV_INV_WAKE_AGE_RESTORES	5

/**
 * struct sugov_inv_wake - one CPU's memory across idle stretches
 * @pre: the estimate when the CPU last went into a long idle stretch
 *	after a run of at least a tick (zero until then)
 * @run_start_ns: the end of the CPU's last window with idle time (hook
 *	clock): its current run has gone on at least since then
 * @busy_ns: busy time of the windows with idle time since the last long
 *	idle stretch: the CPU's short runs (a run still going on is not in
 *	it)
 * @ran_tick: the CPU has run for a tick without idling since its last
 *	long idle stretch began (so @pre, taken at the next one, describes a
 *	real run, not a wake-up of a few microseconds)
 * @taken_ns: hook time of the window @pre was taken at
 * @pending: a long idle stretch ended and the CPU has not yet run for a
 *	tick since: @pre waits to be restored
 */
struct sugov_inv_wake {
	struct sugov_inv_est pre;
	u64 run_start_ns;
	u64 busy_ns;
	u64 taken_ns;
	bool ran_tick;
	bool pending;
};

/**
 * sugov_inv_wake_note() - account a window before it is folded in
 * @w: the CPU's memory
 * @est: the estimate before the window is folded in
 * @now_ns: hook time of the window's end
 * @wall_us: the window's length, us
 * @idle_us: idle time in it, us
 * @restore_us: the idle_restore_us tunable: idle time that makes a long
 *	idle stretch (0: the rule is off, and nothing is remembered)
 *
 * A window with idle time moves @w->run_start_ns to its end: where in the
 * window the idle time fell is not known, so the run is counted from
 * there, never longer than it was.  One with at least @restore_us of idle
 * time is a long idle stretch: it takes @est as the memory when the CPU
 * ran a tick since the last one (a CPU that only woke briefly in between
 * keeps the older memory, which the wake-ups would otherwise replace with
 * an estimate the stretch has already decayed) and marks the memory
 * pending.  A memory older than SUGOV_INV_WAKE_AGE_RESTORES times
 * @restore_us is dropped instead: a gap in a bursty load may hold a
 * timer's wake-up, but a CPU whose load has ended only wakes briefly, and
 * would otherwise hold that load's frequency at every wake-up until it
 * next ran a tick.  The busy time of windows with idle time is counted
 * from there, for sugov_inv_wake_restore().
 *
 * Context: any.
 */
static inline void sugov_inv_wake_note(struct sugov_inv_wake *w,
				       const struct sugov_inv_est *est,
				       u64 now_ns, u64 wall_us, u64 idle_us,
				       u32 restore_us)
{
	u64 busy_ns = (wall_us > idle_us ? wall_us - idle_us : 0) *
		      NSEC_PER_USEC;

	if (!idle_us)
		return;
	w->run_start_ns = now_ns;

	if (!restore_us || idle_us < restore_us) {
		w->busy_ns += busy_ns;
		return;
	}
	w->busy_ns = busy_ns;
	if (w->ran_tick) {
		w->pre = *est;
		w->taken_ns = now_ns;
	} else if (now_ns - w->taken_ns >
		   (u64)SUGOV_INV_WAKE_AGE_RESTORES * restore_us * NSEC_PER_USEC) {
		w->pre = (struct sugov_inv_est){ };
		w->pending = false;
		return;
	}
	w->ran_tick = false;
	w->pending = true;
}

/**
 * sugov_inv_wake_run_ns() - how long the CPU has run without idling
 * @w: the CPU's memory
 * @now_ns: hook time of the CPU's last window's end or later
 *
 * Return: ns since @w->run_start_ns, 0 for a clock behind it.  A lower
 * bound: the run may have begun inside the last window with idle time.
 */
static inline u64 sugov_inv_wake_run_ns(const struct sugov_inv_wake *w,
					u64 now_ns)
{
	return (s64)(now_ns - w->run_start_ns) > 0 ? now_ns - w->run_start_ns :
		0;
}

/**
 * sugov_inv_wake_restore() - restore the memory once the CPU has run
 * @w: the CPU's memory
 * @est: the estimate, the window folded in
 * @now_ns: hook time of the window's end
 * @guard_ns: how long the CPU must run without idling first (a tick)
 *
 * After a window without idle time that ends @guard_ns or more into the
 * CPU's run, a pending memory raises @est to it, field by field (never
 * lowers it), once.  The guard keeps a CPU that woke for a few
 * microseconds from spending a window at the frequency of its last real
 * run.  A CPU that has run @guard_ns since the stretch in shorter pieces
 * (a periodic load whose idle parts add up to a long stretch in one
 * window) is not coming back to its old load: the memory is dropped.
 * The lag is left as it is: it belongs to the current run.
 *
 * Context: any.
 * Return: true when @est was raised (the memory was used).
 */
static inline bool sugov_inv_wake_restore(struct sugov_inv_wake *w,
					  struct sugov_inv_est *est,
					  u64 now_ns, u64 guard_ns)
{
	if (sugov_inv_wake_run_ns(w, now_ns) < guard_ns) {
		if (w->pending && w->busy_ns >= guard_ns) {
			w->pending = false;
			w->pre = (struct sugov_inv_est){ };
		}
		return false;
	}
	w->ran_tick = true;
	if (!w->pending)
		return false;
	w->pending = false;
	if (est->util_inv_fp >= w->pre.util_inv_fp &&
	    est->util_raw_fp >= w->pre.util_raw_fp)
		return false;
	est->util_inv_fp = max(est->util_inv_fp, w->pre.util_inv_fp);
	est->util_raw_fp = max(est->util_raw_fp, w->pre.util_raw_fp);
	return true;
}

/**
 * sugov_inv_wake_holding() - is the CPU between a long idle and a tick?
 * @w: the CPU's memory
 * @now_ns: hook time
 * @guard_ns: as for sugov_inv_wake_restore()
 *
 * Return: true while a memory is pending and the CPU has run less than
 * @guard_ns: its evaluations then keep the frequency it idled at, up to
 * what the memory asks for (sugov_inv_decide()).
 */
static inline bool sugov_inv_wake_holding(const struct sugov_inv_wake *w,
					  u64 now_ns, u64 guard_ns)
{
	return w->pending && sugov_inv_wake_run_ns(w, now_ns) < guard_ns;
}

#endif /* _SUGOV_INV_WAKE_H */
