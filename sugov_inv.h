/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the governor's arithmetic, kept free of hardware and locking so
 * that KUnit can check it (kunit/) and the governor (sugov_inv.c) can use it
 * in the scheduler's update_util hook (rq lock held, IRQs off).
 *
 * Units: frequencies in kHz; utilization, busy fractions and boosts in
 * capacity units (SCHED_CAPACITY_SCALE = 1024 = 100 %); times in ns unless a
 * name says _us; percentages as plain integers (125 = 1.25).
 *
 * Everything here is a static inline of its arguments only: no per-CPU data,
 * no clocks, no allocation.
 */
#ifndef _SUGOV_INV_H
#define _SUGOV_INV_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "freq_invariance.h"

/* Full capacity: what a CPU running all the time at the reference does. */
#define SUGOV_INV_CAP			((u32)SCHED_CAPACITY_SCALE)

/*
 * Tunable ranges and defaults.  headroom_pct 125 is schedutil's 1.25 (its
 * tipping point at util = 80 %); 100 means no headroom and 400 is a limit
 * that keeps the formula's u64 product far from overflow and still asks for
 * the top of any table at a quarter of full util.
 */
#define SUGOV_INV_HEADROOM_DEFAULT	125U
#define SUGOV_INV_HEADROOM_MIN		100U
#define SUGOV_INV_HEADROOM_MAX		400U
/* schedutil's tipping point: with 1.25 headroom, 80 % util asks for freq_max */
#define SUGOV_INV_OVERUTIL_DEFAULT	80U
#define SUGOV_INV_OVERUTIL_MIN		1U
#define SUGOV_INV_OVERUTIL_MAX		100U
/* PELT's half-life is 32 ms (y^32 = 0.5 with 1 ms periods) */
#define SUGOV_INV_HALFLIFE_DEFAULT_MS	32U
#define SUGOV_INV_HALFLIFE_MIN_MS	1U
#define SUGOV_INV_HALFLIFE_MAX_MS	1000U
/* rate_limit_us above one second would make the governor look frozen */
#define SUGOV_INV_RATE_LIMIT_MAX_US	1000000U

/*
 * A window whose busy fraction is within 1/64 (1.6 %) of full counts as
 * "never idled": the idle time in it is only the accounting's jitter
 * (microsecond units, a wake-up racing the sample), and the window is
 * treated as running throughout (see sugov_inv_est_update()).
 */
#define SUGOV_INV_BUSY_FULL_SLACK	(SUGOV_INV_CAP / 64)

/* schedutil's iowait boost starts at 1/8 of capacity */
#define SUGOV_INV_IOWAIT_BOOST_MIN	(SUGOV_INV_CAP / 8)
/* ... and is dropped after a tick without an update of that CPU */
#define SUGOV_INV_IOWAIT_RESET_NS	((u64)TICK_NSEC)

/*
 * A CPU of a shared policy that has not closed a window of its own for
 * this long past its sampling period (the rate limit) has its stored util
 * brought up to date by the CPU that evaluates (from its idle clock)
 * before it counts.  A CPU that runs anything gets a hook call at least
 * every tick (task_tick_fair() -> update_load_avg() ->
 * cpufreq_update_util()), and closes a window at the first one after its
 * period, so three ticks later it is idle without a tick (NOHZ), running
 * without one (nohz_full), or a vCPU its host has not scheduled.  Hook
 * calls made for it from other CPUs (remote wake-ups) do not count: they
 * cannot sample it.
 */
#define SUGOV_INV_STALE_NS		(3 * (u64)TICK_NSEC)

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

/**
 * enum sugov_inv_fmax - which frequency stands for freq_max in the formula
 * @SUGOV_INV_MAX_P: the highest non-boost P-state
 * @SUGOV_INV_MIDPOINT: (max_P + max_boost) / 2
 * @SUGOV_INV_MAX_BOOST: the highest reachable frequency
 * @SUGOV_INV_OVERUTIL: the reference, but the policy's highest frequency
 *	while the CPU is over-utilized: the fix Giovanni Gherdovich proposed
 *	for schedutil on LKML in January 2021 (quoted by Phoronix on
 *	27 January 2021), in no kernel
 * @SUGOV_INV_NOINV: the current frequency, util not scaled (schedutil
 *	without frequency invariance)
 * @SUGOV_INV_NR_FMAX: number of choices
 *
 * The freq_max_policy tunable (sysfs keeps that name) picks one; "policy"
 * elsewhere is the cpufreq policy.  The first three and noinv are the
 * configurations of Gherdovich's AMD EPYC measurements (sugov-P0,
 * sugov-mid, sugov-max, sugov-noinv).  The order is the order sysfs
 * lists them in.
 */
enum sugov_inv_fmax {
	SUGOV_INV_MAX_P,
	SUGOV_INV_MIDPOINT,
	SUGOV_INV_MAX_BOOST,
	SUGOV_INV_OVERUTIL,
	SUGOV_INV_NOINV,
	SUGOV_INV_NR_FMAX,
};

/**
 * enum sugov_inv_reason - why a frequency was chosen (tracepoint, debugfs)
 * @SUGOV_INV_REASON_FORMULA: headroom * freq_max * util / 1024
 * @SUGOV_INV_REASON_OVERUTIL: over-utilized: the policy's highest frequency
 * @SUGOV_INV_REASON_IOWAIT: the iowait boost exceeded util and set it
 * @SUGOV_INV_REASON_HOLD: a lower request was held: the CPU did not idle
 * @SUGOV_INV_REASON_LIMITS: evaluated because scaling_min/max_freq changed
 * @SUGOV_INV_NR_REASONS: number of reasons
 */
enum sugov_inv_reason {
	SUGOV_INV_REASON_FORMULA,
	SUGOV_INV_REASON_OVERUTIL,
	SUGOV_INV_REASON_IOWAIT,
	SUGOV_INV_REASON_HOLD,
	SUGOV_INV_REASON_LIMITS,
	SUGOV_INV_NR_REASONS,
};

/* ------------------------------------------------------------------------
 * Estimator: busy fraction, invariant util, PELT-like smoothing
 * ------------------------------------------------------------------------
 */

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

/* ------------------------------------------------------------------------
 * iowait boost (schedutil's rules, own code)
 * ------------------------------------------------------------------------
 */

/**
 * struct sugov_inv_iowait - one CPU's iowait boost
 * @boost: current boost, capacity units (0 = none)
 * @pending: an I/O-wait wake-up arrived since the boost was last applied
 */
struct sugov_inv_iowait {
	u32 boost;
	bool pending;
};

/**
 * sugov_inv_iowait_note() - account one hook call for the iowait boost
 * @io: the CPU's boost state
 * @since_last_ns: time since this CPU's previous hook call
 * @iowait: the call carried SCHED_CPUFREQ_IOWAIT
 *
 * After more than a tick of silence the boost restarts (from the minimum if
 * this call is an I/O-wait wake-up, else from nothing).  Otherwise each
 * I/O-wait wake-up doubles the boost, once per application, up to full
 * capacity; the first one starts it at 1/8.
 */
static inline void sugov_inv_iowait_note(struct sugov_inv_iowait *io,
					 u64 since_last_ns, bool iowait)
{
	if (io->boost && since_last_ns > SUGOV_INV_IOWAIT_RESET_NS) {
		io->boost = iowait ? SUGOV_INV_IOWAIT_BOOST_MIN : 0;
		io->pending = iowait;
		return;
	}
	if (!iowait || io->pending)
		return;

	io->pending = true;
	if (io->boost)
		io->boost = min(io->boost << 1, SUGOV_INV_CAP);
	else
		io->boost = SUGOV_INV_IOWAIT_BOOST_MIN;
}

/**
 * sugov_inv_iowait_apply() - the boost to use in one evaluation
 * @io: the CPU's boost state
 * @since_last_ns: time since this CPU's last hook call
 *
 * Without an I/O-wait wake-up since the previous application the boost
 * halves, and below the minimum it stops.  A CPU silent for more than a
 * tick loses its boost.
 *
 * Return: the boost, capacity units (0 = none).
 */
static inline u32 sugov_inv_iowait_apply(struct sugov_inv_iowait *io,
					 u64 since_last_ns)
{
	if (!io->boost)
		return 0;
	if (since_last_ns > SUGOV_INV_IOWAIT_RESET_NS) {
		io->boost = 0;
		io->pending = false;
		return 0;
	}
	if (!io->pending) {
		io->boost >>= 1;
		if (io->boost < SUGOV_INV_IOWAIT_BOOST_MIN) {
			io->boost = 0;
			return 0;
		}
	}
	io->pending = false;
	return io->boost;
}

/* ------------------------------------------------------------------------
 * Formula and policies
 * ------------------------------------------------------------------------
 */

/**
 * sugov_inv_formula() - headroom * freq_max * util / 1024
 * @headroom_pct: headroom in percent (125 = 1.25)
 * @freq_max_khz: freq_max of the active policy
 * @util: capacity units; values above 1024 count as 1024
 *
 * Return: the raw target in kHz (before resolving to a table entry),
 * rounded down, saturated at UINT_MAX.
 */
static inline u32 sugov_inv_formula(u32 headroom_pct, u32 freq_max_khz,
				    u32 util)
{
	u64 khz;

	util = min(util, SUGOV_INV_CAP);
	/* u32 * u32 fits in u64; the 96-bit product goes via mul_u64_u32_div */
	khz = mul_u64_u32_div((u64)headroom_pct * freq_max_khz, util,
			      100 * SUGOV_INV_CAP);
	return (u32)min_t(u64, khz, U32_MAX);
}

/**
 * sugov_inv_overutilized() - is a busy fraction at or over the threshold?
 * @busy: busy fraction not scaled by frequency, capacity units
 * @threshold_pct: threshold in percent (1..100)
 *
 * Return: true when busy / 1024 >= threshold / 100.
 */
static inline bool sugov_inv_overutilized(u32 busy, u32 threshold_pct)
{
	return (u64)busy * 100 >= (u64)threshold_pct * SUGOV_INV_CAP;
}

/**
 * struct sugov_inv_in - everything one decision depends on
 * @fmax: the active freq_max choice (the freq_max_policy tunable)
 * @util_inv: smoothed invariant util (max over the policy's CPUs)
 * @util_raw: smoothed busy fraction, not scaled (max over the CPUs)
 * @boost: iowait boost (max over the CPUs), capacity units
 * @cur_khz: the policy's current frequency
 * @cpu_max_khz: the policy's highest frequency (cpuinfo.max_freq)
 * @max_p_khz: freq_inv caps: highest non-boost P-state
 * @mid_khz: freq_inv caps: midpoint
 * @max_boost_khz: freq_inv caps: highest reachable frequency
 * @ref_khz: freq_inv caps: what capacity 1024 stands for
 * @headroom_pct: headroom tunable
 * @overutil_pct: over-utilization threshold tunable
 */
struct sugov_inv_in {
	enum sugov_inv_fmax fmax;
	u32 util_inv;
	u32 util_raw;
	u32 boost;
	u32 cur_khz;
	u32 cpu_max_khz;
	u32 max_p_khz;
	u32 mid_khz;
	u32 max_boost_khz;
	u32 ref_khz;
	u32 headroom_pct;
	u32 overutil_pct;
};

/**
 * struct sugov_inv_out - one decision before the driver resolves it
 * @util: the util fed to the formula (after the iowait boost)
 * @freq_max_khz: freq_max the policy chose
 * @raw_khz: the raw target, kHz (before resolve and clamping)
 * @reason: SUGOV_INV_REASON_FORMULA, _OVERUTIL or _IOWAIT
 */
struct sugov_inv_out {
	u32 util;
	u32 freq_max_khz;
	u32 raw_khz;
	enum sugov_inv_reason reason;
};

/**
 * sugov_inv_fmax_khz() - freq_max of the active choice in the formula
 * @in: the decision inputs
 *
 * Return: kHz; for overutil-detect the reference (its value while not
 * over-utilized).  An unknown choice behaves as max_boost.
 */
static inline u32 sugov_inv_fmax_khz(const struct sugov_inv_in *in)
{
	switch (in->fmax) {
	case SUGOV_INV_MAX_P:
		return in->max_p_khz;
	case SUGOV_INV_MIDPOINT:
		return in->mid_khz;
	case SUGOV_INV_OVERUTIL:
		return in->ref_khz;
	case SUGOV_INV_NOINV:
		return in->cur_khz;
	case SUGOV_INV_MAX_BOOST:
	default:
		return in->max_boost_khz;
	}
}

/**
 * sugov_inv_decide() - the policy table of design.md as code
 * @in: the decision inputs
 * @out: the decision
 *
 * noinv: cur * headroom * busy (util not scaled); the three fixed policies:
 * their freq_max * headroom * invariant util; overutil-detect: the
 * reference * headroom * invariant util, or the policy's highest frequency
 * irrespective of util while the unscaled busy fraction is at or above the
 * threshold.  The iowait boost raises util as in schedutil.
 */
static inline void sugov_inv_decide(const struct sugov_inv_in *in,
				    struct sugov_inv_out *out)
{
	bool noinv = in->fmax == SUGOV_INV_NOINV;
	u32 util = noinv ? in->util_raw : in->util_inv;

	out->reason = SUGOV_INV_REASON_FORMULA;
	if (in->boost > util) {
		util = min(in->boost, SUGOV_INV_CAP);
		out->reason = SUGOV_INV_REASON_IOWAIT;
	}
	out->util = util;

	if (in->fmax == SUGOV_INV_OVERUTIL &&
	    sugov_inv_overutilized(in->util_raw, in->overutil_pct)) {
		/* cpuinfo.max_freq unknown (0): the caps' highest instead */
		out->freq_max_khz = in->cpu_max_khz ?: in->max_boost_khz;
		out->raw_khz = out->freq_max_khz;
		out->reason = SUGOV_INV_REASON_OVERUTIL;
		return;
	}

	out->freq_max_khz = sugov_inv_fmax_khz(in);
	out->raw_khz = sugov_inv_formula(in->headroom_pct, out->freq_max_khz,
					 util);
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

/**
 * sugov_inv_eval_due() - schedutil's rate limit, with its limits bypass
 * @now_ns: hook time, ns (rq clock)
 * @last_eval_ns: when the policy's frequency last changed, ns
 *	(sugov_inv_update_next())
 * @delay_ns: rate_limit_us in ns
 * @limits_changed: scaling_min/max_freq changed since the last evaluation
 *
 * A limits change is applied at the next hook call whatever the rate
 * limit; otherwise at most one evaluation per @delay_ns.  The signed
 * difference keeps a clock that went backwards (another CPU's rq clock,
 * slightly behind) from reading as a huge delay.
 *
 * Context: any.
 * Return: true when the policy should be evaluated now.
 */
static inline bool sugov_inv_eval_due(u64 now_ns, u64 last_eval_ns,
				      s64 delay_ns, bool limits_changed)
{
	return limits_changed || (s64)(now_ns - last_eval_ns) >= delay_ns;
}

/**
 * sugov_inv_update_next() - schedutil's sugov_update_next_freq() rule
 * @next_khz: the frequency this evaluation chose
 * @last_khz: in/out: the frequency last requested from the driver
 * @force: a limits change is pending: send even when unchanged
 * @now_ns: hook time, ns (rq clock)
 * @last_req_ns: in/out: when the frequency last changed; the rate limit
 *	(sugov_inv_eval_due()) counts from it
 *
 * An evaluation that changes nothing neither sends nor restarts the rate
 * limit, so a load step after it is acted on at the next hook call once
 * rate_limit_us has passed since the last change, not since the last
 * evaluation.  One that changes the frequency, or follows a limits
 * change, updates both outputs.
 *
 * Context: any.
 * Return: true when @next_khz must be sent to the driver.
 */
static inline bool sugov_inv_update_next(u32 next_khz, u32 *last_khz,
					 bool force, u64 now_ns,
					 u64 *last_req_ns)
{
	if (next_khz == *last_khz && !force)
		return false;
	*last_khz = next_khz;
	/* The hooks' rate-limited returns read it without a lock */
	WRITE_ONCE(*last_req_ns, now_ns);
	return true;
}

#endif /* _SUGOV_INV_H */
