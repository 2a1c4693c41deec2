/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the utilization estimator's arithmetic.  From one window's
 * wall, idle and delivered-frequency figures to a CPU's smoothed invariant
 * util and busy fraction, following PELT's clock (kernel/sched/pelt.c):
 * busy fraction, decay factor, blend, the per-window update and the decay
 * of an all-idle stretch.
 *
 * Pure: static inlines of their arguments only (no per-CPU data, no
 * clocks, no allocation), so that KUnit checks them
 * (kunit/sugov_inv_estimator_kunit.c) and the governor uses them in the
 * scheduler's update_util hook (sugov_inv_measure.c).
 */
#ifndef _SUGOV_INV_EST_H
#define _SUGOV_INV_EST_H

#include <linux/bits.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "sugov_inv.h"

/*
 * A window whose busy fraction is within 1/64 (1.6 %) of full counts as
 * "never idled": the idle time in it is only the accounting's jitter
 * (microsecond units, a wake-up racing the sample), and the window is
 * treated as running throughout (see sugov_inv_est_update()).
 */
#define SUGOV_INV_BUSY_FULL_SLACK	(SUGOV_INV_CAP / 64)

/* Decay factors are fractions of 1 << 16 */
#define SUGOV_INV_DECAY_SHIFT		16
#define SUGOV_INV_DECAY_ONE		BIT(SUGOV_INV_DECAY_SHIFT)
/* The estimator keeps util with 10 extra fraction bits (units of 1/1024) */
#define SUGOV_INV_EST_SHIFT		10
/*
 * Longest PELT-clock lag kept, us.  Past 32 half-lives a catch-up decays
 * everything anyway, and the longest half-life is 1 s.
 */
#define SUGOV_INV_LAG_MAX_US		(32ULL * USEC_PER_SEC)

/*
 * A CPU of a shared policy that has not closed a window of its own for
 * this long past its sampling period is stale: its stored util is
 * projected before it counts (sugov_inv_gather_shared() says why three
 * ticks).
 */
#define SUGOV_INV_STALE_NS		(3 * (u64)TICK_NSEC)

/**
 * sugov_inv_busy() - busy (non-idle) fraction of a window
 * @wall_us: length of the window, us
 * @idle_us: idle time (idle + iowait) accounted in the window, us
 *
 * Return: (wall - idle) / wall in capacity units, 0..1024 (rounded down);
 * 0 for an empty window, and 0 when the idle clock ran ahead of the wall
 * clock (the two come from different reads and can disagree by a few us).
 */
static inline u32 sugov_inv_busy(u64 wall_us, u64 idle_us)
{
	if (!wall_us || idle_us >= wall_us)
		return 0;
	/* wall_us < 2^53 for any uptime below 285 years: no overflow */
	return (u32)div64_u64((wall_us - idle_us) * SUGOV_INV_CAP, wall_us);
}

/**
 * sugov_inv_saturated() - did a window count as "never idled"?
 * @busy: busy fraction, capacity units
 *
 * Return: true when @busy is within SUGOV_INV_BUSY_FULL_SLACK of full.
 */
static inline bool sugov_inv_saturated(u32 busy)
{
	return busy >= SUGOV_INV_CAP - SUGOV_INV_BUSY_FULL_SLACK;
}

/**
 * sugov_inv_busy_input() - instantaneous non-invariant util of a window
 * @busy: busy fraction of the window, capacity units
 *
 * What noinv and the over-utilization test see: the busy fraction, with
 * the same saturation rule as the invariant input.
 *
 * Return: capacity units, 0..1024.
 */
static inline u32 sugov_inv_busy_input(u32 busy)
{
	if (sugov_inv_saturated(busy))
		return SUGOV_INV_CAP;
	return min(busy, SUGOV_INV_CAP);
}

/**
 * sugov_inv_decay_factor() - weight the old value keeps after @dt_ns
 * @dt_ns: elapsed time
 * @halflife_ns: time after which the old value keeps half its weight
 *
 * Return: 2^(-dt/halflife) in units of 1/65536 (SUGOV_INV_DECAY_ONE is 1.0,
 * returned only for @dt_ns == 0); 0 after 32 half-lives or for a zero
 * @halflife_ns (no memory).
 */
static inline u32 sugov_inv_decay_factor(u64 dt_ns, u64 halflife_ns)
{
	/*
	 * 2^(-i/32) in units of 1/65536 for i = 0..32: the fractional part of
	 * the exponent, interpolated linearly between entries (largest error
	 * 1e-4 of full weight: 0.1 capacity units).  The integer part is a
	 * right shift, as PELT's decay_load() does with its own y^n table.
	 * In the function, so that only the objects that use it hold a copy.
	 */
	static const u32 exp2_frac[33] = {
		65536, 64132, 62757, 61413, 60097, 58809, 57549, 56316,
		55109, 53928, 52773, 51642, 50535, 49452, 48393, 47356,
		46341, 45348, 44376, 43425, 42495, 41584, 40693, 39821,
		38968, 38133, 37316, 36516, 35734, 34968, 34219, 33486,
		32768,
	};
	u64 halvings, rem, pos;
	u32 idx, sub, hi, lo, f;

	if (!dt_ns)
		return SUGOV_INV_DECAY_ONE;
	if (!halflife_ns)
		return 0;

	halvings = div64_u64_rem(dt_ns, halflife_ns, &rem);
	if (halvings >= 32)
		return 0;

	/*
	 * Fractional exponent in 1/32768 of a half-life: the top 5 bits pick
	 * the table entry, the low 10 interpolate.  rem < halflife_ns, and any
	 * half-life below 2^49 ns (6.5 days) keeps rem << 15 in u64.
	 */
	pos = div64_u64(rem << 15, halflife_ns);
	idx = (u32)pos >> 10;
	sub = (u32)pos & 1023;

	hi = exp2_frac[idx];
	lo = exp2_frac[idx + 1];
	/* hi - lo < 1500 and sub < 1024: the product fits in u32 */
	f = hi - (((hi - lo) * sub + 512) >> 10);

	return f >> halvings;
}

/**
 * sugov_inv_blend() - move @prev towards @input, keeping @factor of @prev
 * @prev: previous smoothed value
 * @input: new instantaneous value
 * @factor: weight kept by @prev, units of 1/65536 (sugov_inv_decay_factor())
 *
 * prev * factor + input * (1 - factor), rounded to nearest, but moving at
 * least one unit towards @input whenever @factor < 1: rounding alone would
 * otherwise stop a slowly converging value one unit short of a full input
 * forever (and a fully busy CPU would never quite ask for 100 %).
 *
 * Return: the new smoothed value, between @prev and @input.
 */
static inline u32 sugov_inv_blend(u32 prev, u32 input, u32 factor)
{
	u64 step, diff;

	if (factor >= SUGOV_INV_DECAY_ONE || prev == input)
		return prev;

	diff = input > prev ? input - prev : prev - input;
	step = (diff * (SUGOV_INV_DECAY_ONE - factor) +
		(SUGOV_INV_DECAY_ONE >> 1)) >> SUGOV_INV_DECAY_SHIFT;
	step = clamp_t(u64, step, 1, diff);

	return input > prev ? prev + (u32)step : prev - (u32)step;
}

/**
 * struct sugov_inv_est - one CPU's utilization estimate
 * @util_inv_fp: smoothed invariant util, capacity units << SUGOV_INV_EST_SHIFT
 * @util_raw_fp: smoothed busy fraction (not scaled by frequency), same units
 * @lag_us: how far the PELT-like clock is behind real time, us: running
 *	below the reference without idling
 *
 * The extra fraction bits keep rounding error far below one capacity unit
 * over many short windows.
 */
struct sugov_inv_est {
	u32 util_inv_fp;
	u32 util_raw_fp;
	u64 lag_us;
};

/* Is a fixed-point util within SUGOV_INV_BUSY_FULL_SLACK of full? */
static inline bool sugov_inv_est_saturated(u32 util_fp)
{
	return util_fp >= (SUGOV_INV_CAP - SUGOV_INV_BUSY_FULL_SLACK) <<
			  SUGOV_INV_EST_SHIFT;
}

/**
 * sugov_inv_est_update() - fold one window into the estimate
 * @est: the estimate
 * @wall_us: window length, us (0: nothing happens)
 * @idle_us: idle time in the window, us
 * @deliv_khz: average delivered frequency in the window
 * @ref_khz: what capacity 1024 stands for (0: unknown, nothing is scaled)
 * @halflife_ns: smoothing half-life
 *
 * The invariant estimate follows PELT's clock.  That clock advances by
 * running time scaled by s = deliv / ref (at most 1: it never runs ahead
 * of real time) and catches up with real time only when the CPU idles;
 * the catch-up counts as idle time, unless util is saturated then, when
 * PELT books it as lost idle time (update_idle_rq_clock_pelt()).  Per
 * window:
 *
 *  - never idled (busy within SUGOV_INV_BUSY_FULL_SLACK of full): full
 *    input over wall * s of PELT time; the rest, wall * (1 - s), is added
 *    to the lag.  A CPU that never idles therefore reaches full util
 *    whatever its frequency (after halflife / s of real time per halving).
 *  - idled: running time * deliv / ref (capped at full) over a PELT time
 *    of the whole window plus the lag, which is paid off here (dropped if
 *    util is saturated).  A constant load converges to
 *    min(busy * deliv / ref, 1) * 1024 however its busy and idle times
 *    are lumped into windows.
 *
 * Each window moves the estimate towards its input with weight
 * 1 - 2^(-PELT time / halflife): a step from 0 to full at the reference
 * reaches half after one half-life however it is cut into windows.  The
 * unscaled busy fraction (@util_raw_fp) uses real time and no lag.
 */
static inline void sugov_inv_est_update(struct sugov_inv_est *est,
					u64 wall_us, u64 idle_us,
					u32 deliv_khz, u32 ref_khz,
					u64 halflife_ns)
{
	u64 wall_ns, busy_ns, run_ns, behind_ns, catch_ns, pelt_ns, scale;
	u32 busy, in_inv, in_raw;

	if (!wall_us)
		return;

	/* Any window shorter than 584 years fits in ns */
	wall_ns = wall_us * NSEC_PER_USEC;
	busy = sugov_inv_busy(wall_us, idle_us);
	in_raw = sugov_inv_busy_input(busy);
	est->util_raw_fp = sugov_inv_blend(est->util_raw_fp,
					   in_raw << SUGOV_INV_EST_SHIFT,
					   sugov_inv_decay_factor(wall_ns,
								  halflife_ns));

	/*
	 * s = deliv / ref in units of 2^-20.  Above 1 (a CPU boosting past the
	 * reference) it raises the input, capped at full, but the clock
	 * cannot run ahead of real time (the kernel caps its frequency scale
	 * at 1024 too).  Capped at 4096: no CPU runs that much faster than a
	 * reference, and the product below stays in u32 x u64.
	 */
	scale = ref_khz ? min_t(u64, div_u64((u64)deliv_khz << 20, ref_khz),
				U32_MAX) : 1ULL << 20;

	if (sugov_inv_saturated(busy)) {
		/* Ran throughout: full input, the clock falls behind */
		pelt_ns = mul_u64_u32_div(wall_ns, (u32)min_t(u64, scale, 1ULL << 20),
					  1U << 20);
		est->lag_us = min(est->lag_us +
				  div_u64(wall_ns - pelt_ns, NSEC_PER_USEC),
				  SUGOV_INV_LAG_MAX_US);
		in_inv = SUGOV_INV_CAP;
	} else {
		/* 96-bit intermediates: no overflow for any window length */
		busy_ns = mul_u64_u32_div(wall_ns, busy, SUGOV_INV_CAP);
		run_ns = mul_u64_u32_div(busy_ns, (u32)scale, 1U << 20);
		/* What the clock fell behind by in this window and before */
		behind_ns = busy_ns > run_ns ? busy_ns - run_ns : 0;
		catch_ns = est->lag_us * NSEC_PER_USEC + behind_ns;
		if (sugov_inv_est_saturated(est->util_inv_fp))
			catch_ns = 0;
		/* > 0: busy < full leaves idle time in the window */
		pelt_ns = wall_ns - behind_ns + catch_ns;
		/* 128-bit product, exact; run > pelt only when s > 1 */
		in_inv = (u32)min_t(u64, mul_u64_u64_div_u64(run_ns, SUGOV_INV_CAP,
							      pelt_ns),
				    SUGOV_INV_CAP);
		est->lag_us = 0;
	}

	est->util_inv_fp = sugov_inv_blend(est->util_inv_fp,
					   in_inv << SUGOV_INV_EST_SHIFT,
					   sugov_inv_decay_factor(pelt_ns,
								  halflife_ns));
}

/**
 * sugov_inv_est_decay() - fold an all-idle stretch into the estimate
 * @est: the estimate
 * @idle_ns: length of the stretch, ns; the CPU idled throughout
 * @halflife_ns: smoothing half-life
 *
 * The result of sugov_inv_est_update() for a window with idle == wall
 * (to the rounding of its us arguments), without its divisions by the
 * frequencies: a CPU that idled all along decays as PELT's blocked util
 * does.  Both inputs are 0 then, so each average keeps the decay factor
 * of its own clock: the busy fraction real time, the invariant util
 * real time plus the lag the idle time pays off (none when saturated,
 * as there).  For the idle CPUs of a shared policy, whose evaluation
 * would otherwise run a full update for every one of them.
 */
static inline void sugov_inv_est_decay(struct sugov_inv_est *est,
				       u64 idle_ns, u64 halflife_ns)
{
	u64 pelt_ns = idle_ns;
	u32 factor;

	if (!idle_ns)
		return;

	factor = sugov_inv_decay_factor(idle_ns, halflife_ns);
	est->util_raw_fp = sugov_inv_blend(est->util_raw_fp, 0, factor);

	if (!sugov_inv_est_saturated(est->util_inv_fp) && est->lag_us) {
		pelt_ns += est->lag_us * NSEC_PER_USEC;
		factor = sugov_inv_decay_factor(pelt_ns, halflife_ns);
	}
	est->util_inv_fp = sugov_inv_blend(est->util_inv_fp, 0, factor);
	est->lag_us = 0;
}

/* Round a fixed-point estimate to capacity units */
static inline u32 sugov_inv_est_round(u32 fp)
{
	return (fp + (1U << (SUGOV_INV_EST_SHIFT - 1))) >> SUGOV_INV_EST_SHIFT;
}

/**
 * sugov_inv_est_util() - smoothed invariant util, capacity units 0..1024
 * @est: the estimate
 *
 * Return: the rounded value.
 */
static inline u32 sugov_inv_est_util(const struct sugov_inv_est *est)
{
	return sugov_inv_est_round(est->util_inv_fp);
}

/**
 * sugov_inv_est_busy() - smoothed busy fraction, capacity units 0..1024
 * @est: the estimate
 *
 * Return: the rounded value.
 */
static inline u32 sugov_inv_est_busy(const struct sugov_inv_est *est)
{
	return sugov_inv_est_round(est->util_raw_fp);
}

/**
 * sugov_inv_stale() - is a CPU's stored util too old to count as it is?
 * @now_ns: current time (the hook's clock)
 * @last_ns: when that CPU's estimate was last due to be current: the end
 *	of its last window plus its sampling period
 *
 * Return: true when more than SUGOV_INV_STALE_NS passed since @last_ns.
 */
static inline bool sugov_inv_stale(u64 now_ns, u64 last_ns)
{
	return (s64)(now_ns - last_ns) > (s64)SUGOV_INV_STALE_NS;
}

#endif /* _SUGOV_INV_EST_H */
