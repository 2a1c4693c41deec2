// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_estimator: the PELT-like util estimator of
 * sugov_inv_est.h (sugov_inv_est_update() and the helpers it is built from).
 *
 * The rules under test, from Documentation/design.rst: invariant util of a window is
 * min(busy * f_deliv / ref, 1) * 1024; the estimate moves towards it with
 * weight 1 - 2^(-t / half-life), t measured on PELT's clock, which runs
 * at s = min(f_deliv / ref, 1) while the CPU is busy and catches up with
 * real time (the lag counts as idle time) only when it idles, unless util
 * is saturated then.  So a step from 0 to fully busy at the reference
 * reaches half after one half-life however the time is cut into windows;
 * a CPU that never idles reaches full util whatever its frequency, after
 * half-life / s of real time per halving; and its first idle window pays
 * the lag back.  Expectations are computed here from those rules (whole
 * half-lives: 1 - 2^-n, and 2^-n for decay; the window's input for
 * convergence; 2^-a * 2^-b = 2^-(a+b) for the decay factor), never pasted.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - decay: wrong half-life (rem << 14: the 2^(-i/32) table walked at half
 *    speed); one entry of that table off by 0.2 %
 *  - decay: the whole half-lives not applied (f >> halvings dropped)
 *  - decay: a zero-length time not giving 1.0
 *  - the never-idles rule dropped (a busy CPU at a low frequency stays
 *    below full)
 *  - frequency scale inverted (ref / deliv)
 *  - PELT's clock running ahead of real time above the reference
 *  - the input not capped at full while boosting past the reference
 *  - the lag not paid at the next idle; paid although util is saturated
 *  - reference 0 divided by (a crash) instead of leaving busy unscaled
 *  - busy: idle time used as the busy time
 *  - a zero-length window not skipped (divides by zero: a crash)
 *  - blend: overshoots the input
 *  - idle decay step (sugov_inv_est_decay()): the busy fraction left
 *    undecayed; the lag not paid; the lag paid although util is saturated;
 *    the lag kept after the idle stretch
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/time64.h>

#include "compat.h"
#include "sugov_inv_est.h"

#define CAP		SCHED_CAPACITY_SCALE
#define ONE		BIT(16)		/* decay factors: units of 1/65536 */

/*
 * Input of one window as Documentation/design.rst states it: the busy fraction, scaled by
 * delivered / reference frequency and capped at full; a window busy to
 * within the header's jitter slack counts as never idle and gives full.
 * Reference 0 (caps unknown) leaves the busy fraction as it is.
 */
static u32 ref_busy(u64 wall_us, u64 idle_us)
{
	if (!wall_us || idle_us >= wall_us)
		return 0;
	return (u32)div64_u64((wall_us - idle_us) * CAP, wall_us);
}

static u32 ref_input(u64 wall_us, u64 idle_us, u32 deliv_khz, u32 ref_khz)
{
	u32 busy = ref_busy(wall_us, idle_us);

	if (busy >= CAP - SUGOV_INV_BUSY_FULL_SLACK)
		return CAP;
	if (!ref_khz)
		return busy;
	return (u32)min_t(u64, div_u64((u64)busy * deliv_khz, ref_khz), CAP);
}

/*
 * A zero argument the compiler (and sparse) cannot see through: the
 * functions under test guard their divisions against 0, but sparse folds
 * an inlined constant 0 into the guarded division and warns.
 */
static u64 runtime_zero(void)
{
	u64 zero = 0;

	OPTIMIZER_HIDE_VAR(zero);
	return zero;
}

/* Feed @n identical windows into @est */
static void feed(struct sugov_inv_est *est, unsigned int n, u64 wall_us,
		 u64 idle_us, u32 deliv_khz, u32 ref_khz, u32 halflife_ms)
{
	while (n--)
		sugov_inv_est_update(est, wall_us, idle_us, deliv_khz, ref_khz,
				     (u64)halflife_ms * NSEC_PER_MSEC);
}

/* ------------------------------------------------------------------------
 * Step response: 0 -> fully busy
 * ------------------------------------------------------------------------
 */

/*
 * A CPU idle until now runs flat out for @halflives half-lives of PELT
 * time, cut into windows of @window_us; its util must be 1 - 2^-halflives
 * of full, within 1 % of that value.  Below the reference PELT's clock
 * runs at s = deliv / ref, so the same util takes halflives * half-life /
 * s of real time: it gets there, only later.
 */
struct step_case {
	const char *name;
	u32 halflife_ms;
	u32 window_us;
	u32 halflives;
	u32 deliv_khz;
	u32 ref_khz;
};

static const struct step_case step_cases[] = {
	{
		.name = "32 ms half-life, 1 ms windows: half after 32 ms",
		.halflife_ms = 32, .window_us = 1000, .halflives = 1,
		.deliv_khz = 3400000, .ref_khz = 3400000,
	}, {
		.name = "32 ms half-life, 4 ms windows (250 Hz tick): half",
		.halflife_ms = 32, .window_us = 4000, .halflives = 1,
		.deliv_khz = 3400000, .ref_khz = 3400000,
	}, {
		.name = "32 ms half-life, one 32 ms window: half",
		.halflife_ms = 32, .window_us = 32000, .halflives = 1,
		.deliv_khz = 3400000, .ref_khz = 3400000,
	}, {
		.name = "32 ms half-life, 100 us windows: half",
		.halflife_ms = 32, .window_us = 100, .halflives = 1,
		.deliv_khz = 3400000, .ref_khz = 3400000,
	}, {
		.name = "32 ms half-life, 1 ms windows: 3/4 after 64 ms",
		.halflife_ms = 32, .window_us = 1000, .halflives = 2,
		.deliv_khz = 3400000, .ref_khz = 3400000,
	}, {
		.name = "32 ms half-life, 8 ms windows: 7/8 after 96 ms",
		.halflife_ms = 32, .window_us = 8000, .halflives = 3,
		.deliv_khz = 3400000, .ref_khz = 3400000,
	}, {
		.name = "8 ms half-life, 1 ms windows: half after 8 ms",
		.halflife_ms = 8, .window_us = 1000, .halflives = 1,
		.deliv_khz = 2250000, .ref_khz = 2250000,
	}, {
		.name = "1 ms half-life (minimum), 250 us windows: half",
		.halflife_ms = 1, .window_us = 250, .halflives = 1,
		.deliv_khz = 2250000, .ref_khz = 2250000,
	}, {
		.name = "100 ms half-life, 10 ms windows: half after 100 ms",
		.halflife_ms = 100, .window_us = 10000, .halflives = 1,
		.deliv_khz = 2250000, .ref_khz = 2250000,
	}, {
		.name = "1000 ms half-life (maximum), 4 ms windows: half",
		.halflife_ms = 1000, .window_us = 4000, .halflives = 1,
		.deliv_khz = 2250000, .ref_khz = 2250000,
	}, {
		.name = "above the reference (boost) the clock does not run faster",
		.halflife_ms = 32, .window_us = 1000, .halflives = 1,
		.deliv_khz = 3400000, .ref_khz = 2250000,
	}, {
		.name = "never idles at EPYC P2 1.5 of 2.25 GHz: half after 48 ms",
		.halflife_ms = 32, .window_us = 4000, .halflives = 1,
		.deliv_khz = 1500000, .ref_khz = 2250000,
	}, {
		.name = "never idles at 400 MHz of 3.2 GHz: 3/4 after 512 ms",
		.halflife_ms = 32, .window_us = 1000, .halflives = 2,
		.deliv_khz = 400000, .ref_khz = 3200000,
	},
};

KUNIT_ARRAY_PARAM_DESC(step, step_cases, name);

/*
 * Real time, us, for @pelt_us of PELT time on a CPU running at @deliv_khz
 * without idling: pelt / s, s = min(deliv / ref, 1); 0 ref: s = 1.
 * Rounded up, so a caller asking for whole windows gets at least that.
 */
static u64 real_us(u64 pelt_us, u32 deliv_khz, u32 ref_khz)
{
	if (!ref_khz || deliv_khz >= ref_khz)
		return pelt_us;
	return div64_u64(pelt_us * ref_khz + deliv_khz - 1, deliv_khz);
}

static void step_reaches_half_per_halflife(struct kunit *test)
{
	const struct step_case *c = test->param_value;
	u64 pelt_us = (u64)c->halflife_ms * USEC_PER_MSEC * c->halflives;
	u64 total_us = real_us(pelt_us, c->deliv_khz, c->ref_khz);
	u32 windows = (u32)div_u64(total_us, c->window_us);
	u32 want = CAP - (CAP >> c->halflives);
	u32 tol = DIV_ROUND_UP(want, 100);
	struct sugov_inv_est est = { };
	u32 util, busy;

	/* The table must cut the time into whole windows */
	KUNIT_ASSERT_EQ(test, (u64)windows * c->window_us, total_us);

	feed(&est, windows, c->window_us, 0, c->deliv_khz, c->ref_khz,
	     c->halflife_ms);
	util = sugov_inv_est_util(&est);
	KUNIT_EXPECT_GE_MSG(test, util, want - tol, "%u windows", windows);
	KUNIT_EXPECT_LE_MSG(test, util, want + tol, "%u windows", windows);

	/*
	 * The busy fraction is not scaled by frequency and runs on real time:
	 * 1 - 2^-(real time / half-life), checked where that is a whole
	 * number of half-lives.
	 */
	busy = sugov_inv_est_busy(&est);
	if (total_us == pelt_us) {
		KUNIT_EXPECT_GE(test, busy, want - tol);
		KUNIT_EXPECT_LE(test, busy, want + tol);
	} else {
		KUNIT_EXPECT_GT(test, busy, want + tol);
	}
}

/* ------------------------------------------------------------------------
 * Constant input: convergence and frequency scaling of busy time
 * ------------------------------------------------------------------------
 */

/*
 * From a start value, windows of @window_us with @idle_us idle at
 * @deliv_khz for 20 half-lives of PELT time: util must settle on the
 * window's input (±1 unit of rounding), the unscaled estimate on the busy
 * fraction.
 */
struct converge_case {
	const char *name;
	u32 start_util;
	u32 window_us;
	u32 idle_us;
	u32 deliv_khz;
	u32 ref_khz;
};

static const struct converge_case converge_cases[] = {
	{
		.name = "25 % busy at the reference: a quarter",
		.window_us = 4000, .idle_us = 3000,
		.deliv_khz = 2250000, .ref_khz = 2250000,
	}, {
		.name = "50 % busy at half the reference: a quarter",
		.window_us = 4000, .idle_us = 2000,
		.deliv_khz = 1700000, .ref_khz = 3400000,
	}, {
		.name = "75 % busy at EPYC P2 1.5 of 2.09 GHz (6.1 reference)",
		.window_us = 1000, .idle_us = 250,
		.deliv_khz = 1500000, .ref_khz = 2091796,
	}, {
		.name = "50 % busy at twice the reference: full, not more",
		.window_us = 4000, .idle_us = 2000,
		.deliv_khz = 4400000, .ref_khz = 2200000,
	}, {
		.name = "75 % busy at 1.5x the reference (boost): full, not more",
		.window_us = 4000, .idle_us = 1000,
		.deliv_khz = 3375000, .ref_khz = 2250000,
	}, {
		.name = "90 % busy at half the reference: not saturated",
		.window_us = 4000, .idle_us = 400,
		.deliv_khz = 1000000, .ref_khz = 2000000,
	}, {
		.name = "never idles at 400 MHz of 2 GHz: full (PELT's rule)",
		.window_us = 4000, .idle_us = 0,
		.deliv_khz = 400000, .ref_khz = 2000000,
	}, {
		.name = "99.5 % busy at half the reference: jitter, full",
		.window_us = 4000, .idle_us = 20,
		.deliv_khz = 1000000, .ref_khz = 2000000,
	}, {
		.name = "idle from full: decays to 0",
		.start_util = 1024, .window_us = 4000, .idle_us = 4000,
		.deliv_khz = 2000000, .ref_khz = 2000000,
	}, {
		.name = "50 % busy at the reference, from full: half",
		.start_util = 1024, .window_us = 1000, .idle_us = 500,
		.deliv_khz = 2000000, .ref_khz = 2000000,
	}, {
		.name = "reference 0 (caps unknown): busy fraction unscaled",
		.window_us = 4000, .idle_us = 1000,
		.deliv_khz = 2000000, .ref_khz = 0,
	}, {
		.name = "idle clock ahead of the wall clock: busy 0",
		.start_util = 512, .window_us = 4000, .idle_us = 4010,
		.deliv_khz = 2000000, .ref_khz = 2000000,
	},
};

KUNIT_ARRAY_PARAM_DESC(converge, converge_cases, name);

static void constant_input_converges(struct kunit *test)
{
	const struct converge_case *c = test->param_value;
	u32 halflife_ms = SUGOV_INV_HALFLIFE_MS;
	/* 20 half-lives of PELT time, which runs slower below the reference */
	u64 total_us = real_us(20ULL * halflife_ms * USEC_PER_MSEC,
			       c->deliv_khz, c->ref_khz);
	u32 windows = (u32)div_u64(total_us, c->window_us) + 1;
	u32 want = ref_input(c->window_us, c->idle_us, c->deliv_khz, c->ref_khz);
	u32 want_busy = ref_input(c->window_us, c->idle_us, 1, 1);
	struct sugov_inv_est est = {
		.util_inv_fp = c->start_util << SUGOV_INV_EST_SHIFT,
		.util_raw_fp = c->start_util << SUGOV_INV_EST_SHIFT,
	};

	feed(&est, windows, c->window_us, c->idle_us, c->deliv_khz, c->ref_khz,
	     halflife_ms);
	KUNIT_EXPECT_GE(test, sugov_inv_est_util(&est) + 1, want);
	KUNIT_EXPECT_LE(test, sugov_inv_est_util(&est), want + 1);
	KUNIT_EXPECT_GE(test, sugov_inv_est_busy(&est) + 1, want_busy);
	KUNIT_EXPECT_LE(test, sugov_inv_est_busy(&est), want_busy + 1);
}

/* ------------------------------------------------------------------------
 * The lag: PELT's clock catching up at idle
 * ------------------------------------------------------------------------
 */

/*
 * A CPU idle until now runs flat out at @deliv_khz for @run_halflives
 * half-lives of PELT time (1 ms windows, 32 ms half-life), then idles for
 * one window of @idle_ms.  Its PELT clock fell behind real time by the
 * running time * (1 - s); the idle window counts for its own length plus
 * that lag, so util after it is U0 * 2^-((idle + lag) / half-life), with
 * U0 = 1 - 2^-run_halflives of full; unless U0 is saturated, when PELT
 * drops the lag as lost idle time and only the idle window decays util.
 */
struct lag_case {
	const char *name;
	u32 deliv_khz;
	u32 ref_khz;
	u32 run_halflives;
	u32 idle_ms;
};

static const struct lag_case lag_cases[] = {
	{
		.name = "at the reference there is no lag: 32 ms idle halves",
		.deliv_khz = 2250000, .ref_khz = 2250000,
		.run_halflives = 1, .idle_ms = 32,
	}, {
		.name = "half speed 64 ms: the 32 ms lag is paid at the idle",
		.deliv_khz = 1125000, .ref_khz = 2250000,
		.run_halflives = 1, .idle_ms = 32,
	}, {
		.name = "quarter speed 128 ms: 96 ms lag + 32 ms idle",
		.deliv_khz = 562500, .ref_khz = 2250000,
		.run_halflives = 1, .idle_ms = 32,
	}, {
		.name = "half speed until saturated: the lag is dropped",
		.deliv_khz = 1125000, .ref_khz = 2250000,
		.run_halflives = 40, .idle_ms = 32,
	},
};

KUNIT_ARRAY_PARAM_DESC(lag, lag_cases, name);

static void lag_paid_at_idle(struct kunit *test)
{
	const struct lag_case *c = test->param_value;
	const u32 halflife_ms = 32;
	u64 pelt_us = (u64)c->run_halflives * halflife_ms * USEC_PER_MSEC;
	u64 run_us = real_us(pelt_us, c->deliv_khz, c->ref_khz);
	u64 idle_us = (u64)c->idle_ms * USEC_PER_MSEC;
	u32 u0 = CAP - (CAP >> min(c->run_halflives, 31U));
	u64 decay_us = idle_us;
	struct sugov_inv_est est = { };
	u32 want, tol, util;

	if (u0 < CAP - SUGOV_INV_BUSY_FULL_SLACK)
		decay_us += run_us - pelt_us;
	/* The table must give whole 1 ms windows and whole half-lives */
	KUNIT_ASSERT_EQ(test, run_us % 1000, 0ULL);
	KUNIT_ASSERT_EQ(test, decay_us % (halflife_ms * USEC_PER_MSEC), 0ULL);
	want = u0 >> div_u64(decay_us, halflife_ms * USEC_PER_MSEC);
	tol = DIV_ROUND_UP(u0, 100);

	feed(&est, (u32)div_u64(run_us, 1000), 1000, 0, c->deliv_khz,
	     c->ref_khz, halflife_ms);
	feed(&est, 1, idle_us, idle_us, c->deliv_khz, c->ref_khz, halflife_ms);
	util = sugov_inv_est_util(&est);
	KUNIT_EXPECT_GE_MSG(test, util + tol, want, "U0 %u, decay %llu us", u0,
			    decay_us);
	KUNIT_EXPECT_LE_MSG(test, util, want + tol, "U0 %u, decay %llu us", u0,
			    decay_us);
}

/* ------------------------------------------------------------------------
 * Edge windows
 * ------------------------------------------------------------------------
 */

/* A zero-length window (two hook calls in the same microsecond) is no news */
static void zero_length_window_changes_nothing(struct kunit *test)
{
	struct sugov_inv_est est = {
		.util_inv_fp = 700 << SUGOV_INV_EST_SHIFT,
		.util_raw_fp = 900 << SUGOV_INV_EST_SHIFT,
	};
	const struct sugov_inv_est before = est;

	sugov_inv_est_update(&est, runtime_zero(), 0, 2000000, 2000000,
			     SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC);
	sugov_inv_est_update(&est, runtime_zero(), 5, 2000000, runtime_zero(),
			     SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, est.util_inv_fp, before.util_inv_fp);
	KUNIT_EXPECT_EQ(test, est.util_raw_fp, before.util_raw_fp);
	KUNIT_EXPECT_EQ(test, est.lag_us, before.lag_us);
	KUNIT_EXPECT_EQ(test, sugov_inv_decay_factor(0, 32 * NSEC_PER_MSEC), ONE);
}

/*
 * A NOHZ-idle CPU wakes after a very long sleep: one window of a day (and
 * one of a year, whose length in ns is 3.2e16, far inside u64) wipes the
 * estimate out without overflowing anything.
 */
static void very_long_idle_window_forgets(struct kunit *test)
{
	static const u64 lengths_us[] = {
		10ULL * USEC_PER_SEC,			/* 10 s */
		86400ULL * USEC_PER_SEC,		/* a day */
		365ULL * 86400 * USEC_PER_SEC,		/* a year */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lengths_us); i++) {
		struct sugov_inv_est est = {
			.util_inv_fp = CAP << SUGOV_INV_EST_SHIFT,
			.util_raw_fp = CAP << SUGOV_INV_EST_SHIFT,
		};

		sugov_inv_est_update(&est, lengths_us[i], lengths_us[i],
				     2000000, 2000000,
				     SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC);
		KUNIT_EXPECT_EQ_MSG(test, sugov_inv_est_util(&est), 0,
				    "idle for %llu us", lengths_us[i]);
		KUNIT_EXPECT_EQ(test, sugov_inv_est_busy(&est), 0);
	}
}

/* A long window that was busy half the time gives the window's input at once */
static void very_long_half_busy_window(struct kunit *test)
{
	u64 wall_us = 86400ULL * USEC_PER_SEC;
	struct sugov_inv_est est = { };

	sugov_inv_est_update(&est, wall_us, wall_us / 2, 1000000, 2000000,
			     SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, sugov_inv_est_util(&est),
			ref_input(wall_us, wall_us / 2, 1000000, 2000000));
	KUNIT_EXPECT_EQ(test, sugov_inv_est_busy(&est), CAP / 2);
}

/* ------------------------------------------------------------------------
 * The decay factor: 2^(-dt / half-life) in units of 1/65536
 * ------------------------------------------------------------------------
 */

/*
 * 2^-a * 2^-b = 2^-(a+b): the product of two factors must match the
 * factor of the summed time within the interpolation error (2/65536), and
 * whole half-lives must be exact powers of two.
 */
struct decay_case {
	const char *name;
	u32 halflife_us;
	u32 a_us;
	u32 b_us;
};

static const struct decay_case decay_cases[] = {
	{ .name = "32 ms: 1 ms + 1 ms",   .halflife_us = 32000, .a_us = 1000, .b_us = 1000 },
	{ .name = "32 ms: 4 ms + 12 ms",  .halflife_us = 32000, .a_us = 4000, .b_us = 12000 },
	{ .name = "32 ms: 16 ms + 16 ms", .halflife_us = 32000, .a_us = 16000, .b_us = 16000 },
	{ .name = "32 ms: 7 ms + 29 ms",  .halflife_us = 32000, .a_us = 7000, .b_us = 29000 },
	{ .name = "32 ms: 33 ms + 50 ms", .halflife_us = 32000, .a_us = 33000, .b_us = 50000 },
	{ .name = "32 ms: 1 us + 3 us",   .halflife_us = 32000, .a_us = 1, .b_us = 3 },
	{ .name = "8 ms: 3 ms + 2 ms",    .halflife_us = 8000, .a_us = 3000, .b_us = 2000 },
	{ .name = "1 s: 123 ms + 456 ms", .halflife_us = 1000000, .a_us = 123000, .b_us = 456000 },
	{ .name = "1 ms: 300 us + 900 us", .halflife_us = 1000, .a_us = 300, .b_us = 900 },
};

KUNIT_ARRAY_PARAM_DESC(decay, decay_cases, name);

static void decay_is_exponential(struct kunit *test)
{
	const struct decay_case *c = test->param_value;
	u64 hl = (u64)c->halflife_us * NSEC_PER_USEC;
	u64 fa = sugov_inv_decay_factor((u64)c->a_us * NSEC_PER_USEC, hl);
	u64 fb = sugov_inv_decay_factor((u64)c->b_us * NSEC_PER_USEC, hl);
	u32 fab = sugov_inv_decay_factor((u64)(c->a_us + c->b_us) * NSEC_PER_USEC,
					 hl);
	u32 product = (u32)((fa * fb + ONE / 2) >> 16);
	u32 diff = product > fab ? product - fab : fab - product;

	KUNIT_EXPECT_LE_MSG(test, diff, 2U,
			    "f(a)=%llu f(b)=%llu f(a+b)=%u", fa, fb, fab);
	/* Strictly inside (0, 1) for any time shorter than 32 half-lives */
	KUNIT_EXPECT_LT(test, fa, (u64)ONE);
	KUNIT_EXPECT_GT(test, fa, 0ULL);
}

/* Whole half-lives are exact halvings, down to nothing after 32 of them */
static void decay_whole_halflives(struct kunit *test)
{
	const u64 hl = SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC;
	unsigned int n;

	for (n = 0; n < 32; n++)
		KUNIT_EXPECT_EQ_MSG(test, sugov_inv_decay_factor(n * hl, hl),
				    ONE >> n, "%u half-lives", n);
	KUNIT_EXPECT_EQ(test, sugov_inv_decay_factor(32 * hl, hl), 0U);
	KUNIT_EXPECT_EQ(test, sugov_inv_decay_factor(U64_MAX, hl), 0U);
	/* No half-life means no memory, not a division by zero */
	KUNIT_EXPECT_EQ(test, sugov_inv_decay_factor(1, runtime_zero()), 0U);
}

/*
 * Every 32nd of a half-life: f(i/32) * f((32 - i)/32) = f(1) = 1/2, which
 * puts each of the 31 inner points of the fractional part under the
 * product rule (an entry of the exponent table typed wrong breaks it).
 */
static void decay_complements_halve(struct kunit *test)
{
	const u64 hl = SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC;
	unsigned int i;

	for (i = 1; i < 32; i++) {
		u64 a = sugov_inv_decay_factor(div_u64(hl * i, 32), hl);
		u64 b = sugov_inv_decay_factor(div_u64(hl * (32 - i), 32), hl);
		u32 product = (u32)((a * b + ONE / 2) >> 16);
		u32 diff = product > ONE / 2 ? product - ONE / 2 :
					      ONE / 2 - product;

		KUNIT_EXPECT_LE_MSG(test, diff, 2U, "%u/32: %llu * %llu", i, a, b);
	}
}

/* Longer windows never keep more of the old value */
static void decay_is_monotonic(struct kunit *test)
{
	const u64 hl = SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC;
	u32 prev = ONE, f;
	u64 dt;

	for (dt = 0; dt <= 3 * hl; dt += 97 * NSEC_PER_USEC) {
		f = sugov_inv_decay_factor(dt, hl);
		KUNIT_EXPECT_LE_MSG(test, f, prev, "at %llu ns", dt);
		prev = f;
	}
}

/* The blend lands between old and new value, and always moves */
static void blend_moves_towards_input(struct kunit *test)
{
	static const u32 factors[] = { 0, 1, 32768, 65000, 65535 };
	static const u32 pairs[][2] = {
		{ 0, 1024 << 10 }, { 1024 << 10, 0 }, { 100, 101 }, { 101, 100 },
		{ 512 << 10, 300 << 10 },
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		for (j = 0; j < ARRAY_SIZE(factors); j++) {
			u32 prev = pairs[i][0], input = pairs[i][1];
			u32 got = sugov_inv_blend(prev, input, factors[j]);

			KUNIT_EXPECT_TRUE_MSG(test, got != prev &&
					      got >= min(prev, input) &&
					      got <= max(prev, input),
					      "blend(%u, %u, %u) = %u", prev,
					      input, factors[j], got);
		}
		/* A factor of one keeps the old value entirely */
		KUNIT_EXPECT_EQ(test, sugov_inv_blend(pairs[i][0], pairs[i][1], ONE),
				pairs[i][0]);
		/* A factor of zero takes the input entirely */
		KUNIT_EXPECT_EQ(test, sugov_inv_blend(pairs[i][0], pairs[i][1], 0),
				pairs[i][1]);
	}
}

/* ------------------------------------------------------------------------
 * The idle decay step of a shared policy's idle CPUs
 * ------------------------------------------------------------------------
 */

/**
 * struct idle_decay_case - an estimate and an all-idle stretch
 * @name: case description
 * @util_inv: invariant util before, capacity units
 * @util_raw: busy fraction before, capacity units
 * @lag_us: PELT-clock lag before
 * @idle_us: length of the idle stretch
 * @halflife_ms: half-life
 */
struct idle_decay_case {
	const char *name;
	u32 util_inv, util_raw;
	u64 lag_us, idle_us;
	u32 halflife_ms;
};

static const struct idle_decay_case idle_decay_cases[] = {
	{ "half busy, one half-life", 512, 512, 0, 32000, 32 },
	{ "saturated with lag, lag not paid", 1024, 1024, 20000, 12000, 32 },
	{ "below full with lag, lag paid", 700, 1000, 20000, 12000, 32 },
	{ "short stretch, long half-life", 300, 900, 0, 4000, 1000 },
	{ "lag only", 100, 50, 64000, 1, 16 },
	{ "already zero", 0, 0, 0, 250000, 32 },
	{ "past 32 half-lives", 1024, 1024, 0, 2000000, 32 },
};

KUNIT_ARRAY_PARAM_DESC(idle_decay, idle_decay_cases, name);

/*
 * The decay step is the full update of a window that idled throughout,
 * whatever the frequencies: checked field by field against it, and
 * against the rule itself where it is a whole number of half-lives.
 */
static void idle_decay_matches_idle_window(struct kunit *test)
{
	const struct idle_decay_case *c = test->param_value;
	u64 halflife_ns = (u64)c->halflife_ms * NSEC_PER_MSEC;
	struct sugov_inv_est before = {
		.util_inv_fp = c->util_inv << SUGOV_INV_EST_SHIFT,
		.util_raw_fp = c->util_raw << SUGOV_INV_EST_SHIFT,
		.lag_us = c->lag_us,
	};
	static const u32 khz[][2] = {
		{ 3400000, 2250000 }, { 1500000, 2250000 }, { 2000000, 0 },
	};
	struct sugov_inv_est step = before;
	unsigned int i;

	sugov_inv_est_decay(&step, c->idle_us * NSEC_PER_USEC, halflife_ns);
	for (i = 0; i < ARRAY_SIZE(khz); i++) {
		struct sugov_inv_est full = before;

		sugov_inv_est_update(&full, c->idle_us, c->idle_us, khz[i][0],
				     khz[i][1], halflife_ns);
		KUNIT_EXPECT_EQ_MSG(test, step.util_inv_fp, full.util_inv_fp,
				    "%u/%u kHz", khz[i][0], khz[i][1]);
		KUNIT_EXPECT_EQ_MSG(test, step.util_raw_fp, full.util_raw_fp,
				    "%u/%u kHz", khz[i][0], khz[i][1]);
		KUNIT_EXPECT_EQ_MSG(test, step.lag_us, full.lag_us,
				    "%u/%u kHz", khz[i][0], khz[i][1]);
	}
	KUNIT_EXPECT_EQ(test, step.lag_us, 0ULL);
	if (!c->lag_us && c->idle_us % (c->halflife_ms * USEC_PER_MSEC) == 0) {
		u64 n = div_u64(c->idle_us, c->halflife_ms * USEC_PER_MSEC);
		u32 want = n >= 32 ? 0 : c->util_inv >> n;

		KUNIT_EXPECT_LE(test, sugov_inv_est_util(&step), want + 1);
		KUNIT_EXPECT_GE(test, sugov_inv_est_util(&step) + 1, want);
	}
}

/* A zero-length stretch changes nothing, the lag included */
static void idle_decay_zero_changes_nothing(struct kunit *test)
{
	struct sugov_inv_est est = {
		.util_inv_fp = 600 << SUGOV_INV_EST_SHIFT,
		.util_raw_fp = 900 << SUGOV_INV_EST_SHIFT,
		.lag_us = 5000,
	};

	sugov_inv_est_decay(&est, 0, 32 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, est.util_inv_fp, 600U << SUGOV_INV_EST_SHIFT);
	KUNIT_EXPECT_EQ(test, est.util_raw_fp, 900U << SUGOV_INV_EST_SHIFT);
	KUNIT_EXPECT_EQ(test, est.lag_us, 5000ULL);
}

static struct kunit_case sugov_inv_estimator_test_cases[] = {
	KUNIT_CASE_PARAM(step_reaches_half_per_halflife, step_gen_params),
	KUNIT_CASE_PARAM(constant_input_converges, converge_gen_params),
	KUNIT_CASE_PARAM(lag_paid_at_idle, lag_gen_params),
	KUNIT_CASE(zero_length_window_changes_nothing),
	KUNIT_CASE(very_long_idle_window_forgets),
	KUNIT_CASE(very_long_half_busy_window),
	KUNIT_CASE_PARAM(decay_is_exponential, decay_gen_params),
	KUNIT_CASE(decay_whole_halflives),
	KUNIT_CASE(decay_complements_halve),
	KUNIT_CASE(decay_is_monotonic),
	KUNIT_CASE(blend_moves_towards_input),
	KUNIT_CASE_PARAM(idle_decay_matches_idle_window, idle_decay_gen_params),
	KUNIT_CASE(idle_decay_zero_changes_nothing),
	{}
};

static struct kunit_suite sugov_inv_estimator_test_suite = {
	.name = "sugov_inv_estimator",
	.test_cases = sugov_inv_estimator_test_cases,
};

kunit_test_suites(&sugov_inv_estimator_test_suite);
