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
 *	after a run of at least a tick (zero until then), as the CPU's own
 *	windows made it (@earned)
 * @earned: the CPU's estimate folded from its windows alone, never
 *	raised by a restore: what a long idle stretch remembers after a
 *	short run, so that a restored memory is not taken again as the
 *	CPU's own (a CPU whose load has ended but that runs a tick after
 *	each long idle stretch would otherwise keep the ended load's util
 *	for good)
 * @run_start_ns: the end of the CPU's last window with idle time (hook
 *	clock): its current run has gone on at least since then
 * @busy_ns: busy time of the windows with idle time since the last long
 *	idle stretch: the CPU's short runs (a run still going on is not in
 *	it)
 * @work_ns: busy time of every window since the last long idle stretch:
 *	the work that confirms a memory (sugov_inv_wake_fold())
 * @ran_tick: the CPU has run for a tick without idling since its last
 *	long idle stretch began (so @pre, taken at the next one, describes a
 *	real run, not a wake-up of a few microseconds)
 * @taken_ns: hook time of the window @pre was taken at
 * @pending: a long idle stretch ended and the CPU has not yet run for a
 *	tick since: @pre waits to be restored
 */
struct sugov_inv_wake {
	struct sugov_inv_est pre;
	struct sugov_inv_est earned;
	u64 run_start_ns;
	u64 busy_ns;
	u64 work_ns;
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

/**
 * struct sugov_inv_wake_window - one window, as sugov_inv_wake_fold() takes it
 * @now_ns: hook time of the window's end
 * @wall_us: the window's length, us
 * @idle_us: idle time in it, us
 * @deliv_khz: average delivered frequency while busy, kHz
 * @ref_khz: what capacity 1024 stands for, kHz (0: unknown)
 * @halflife_ns: the estimator's half-life, ns
 * @restore_us: the idle_restore_us tunable (0: the memory is off)
 * @guard_ns: how long a run must last before the memory is restored (a
 *	tick)
 */
struct sugov_inv_wake_window {
	u64 now_ns;
	u64 wall_us;
	u64 idle_us;
	u32 deliv_khz;
	u32 ref_khz;
	u64 halflife_ns;
	u32 restore_us;
	u64 guard_ns;
};

/**
 * sugov_inv_wake_fold() - fold a window into the estimate, with the memory
 * @w: the CPU's memory
 * @est: the CPU's estimate
 * @win: the window
 *
 * Folds @win into @est and into @w->earned alike (sugov_inv_est_update()),
 * notes the window (sugov_inv_wake_note()), then restores a pending memory
 * into @est (sugov_inv_wake_restore()).  What a long idle stretch
 * remembers depends on the work since the last one: after at least
 * @win->restore_us of busy time in all (a job as long as the gaps that
 * make work arrive on an idle CPU; short idles inside it do not count
 * against it) the estimate as it was, restored memory and all, since the
 * work confirmed it; after less, the earned estimate, so that a memory
 * lives on only through work that bears it out.
 * A burst of 35 ms after each 100 ms gap keeps its memory; a job of 8 ms
 * every 38 ms after a load fades to its own duty cycle
 * (kunit/sugov_inv_wake_kunit.c has both).  With the memory off,
 * @w->earned follows @est, so that turning it on starts from the CPU's
 * estimate.
 *
 * Context: any.
 * Return: true when @est was raised by the memory.
 */
static inline bool sugov_inv_wake_fold(struct sugov_inv_wake *w,
				       struct sugov_inv_est *est,
				       const struct sugov_inv_wake_window *win)
{
	struct sugov_inv_est earned_before = w->earned, before = *est;
	u64 restore_ns = (u64)win->restore_us * NSEC_PER_USEC;
	bool confirmed;

	w->work_ns += (win->wall_us > win->idle_us ?
		       win->wall_us - win->idle_us : 0) * NSEC_PER_USEC;
	confirmed = w->work_ns >= restore_ns;
	/* A long idle stretch ends the work; its window's busy time with it */
	if (win->restore_us && win->idle_us >= win->restore_us)
		w->work_ns = 0;
	sugov_inv_est_update(est, win->wall_us, win->idle_us, win->deliv_khz,
			     win->ref_khz, win->halflife_ns);
	if (win->restore_us)
		sugov_inv_est_update(&w->earned, win->wall_us, win->idle_us,
				     win->deliv_khz, win->ref_khz,
				     win->halflife_ns);
	else
		w->earned = *est;
	sugov_inv_wake_note(w, confirmed ? &before : &earned_before,
			    win->now_ns, win->wall_us, win->idle_us,
			    win->restore_us);
	return sugov_inv_wake_restore(w, est, win->now_ns, win->guard_ns);
}

#endif /* _SUGOV_INV_WAKE_H */
