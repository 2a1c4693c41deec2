// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_wake: what a CPU remembers across an idle stretch
 * (sugov_inv_wake.h).  ondemand's rule, dbs_update() in
 * drivers/cpufreq/cpufreq_governor.c: after an idle stretch longer than
 * two sampling periods, reuse the load from before it.  Here: a window
 * with at least idle_restore_us of idle time is a long idle stretch; the
 * estimate the CPU had when it went into it after a run of a tick or more
 * is restored (raised to, never lowered to) once the CPU has run a tick
 * again without idling; a wake-up shorter than a tick neither uses nor
 * replaces the memory.
 *
 * Each case is a timeline of windows on one CPU, every step giving the
 * window's end, length and idle time, the estimate before and after the
 * estimator folded it in (the estimator is tested in its own suite), and
 * what the memory must do.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - the guard dropped (restored at the wake-up's own window)
 *  - < guard_ns turned into <= (restored a window early)
 *  - the memory taken at every long idle (short wake-ups replace it)
 *  - the memory not taken after a real run (nothing ever restored)
 *  - a restore that lowers the estimate (min for max)
 *  - pending not cleared by a restore (restored at every window)
 *  - idle_restore_us 0 not treated as off
 *  - idle_us >= restore_us turned into > (an idle of exactly the tunable
 *    forgotten)
 *  - run_start not moved by a window with idle time (a run counted from
 *    before the idle stretch)
 *  - run_ns computed unsigned (a clock behind the run's start reads as a
 *    run of centuries)
 *  - a memory kept after a tick's worth of short runs (a periodic load
 *    holds the frequency of a run long gone)
 *  - a memory re-armed at every long idle (a CPU whose load has ended
 *    holds its frequency at every timer wake-up)
 *  - a memory expired at the first brief wake-up (a gap of a bursty load
 *    with a timer in it restores nothing)
 *  - the age bound's > turned into >= (a memory of exactly the bound's
 *    age dropped), or the bound doubled (one just older kept)
 *  - the memory renewed from the estimate rather than the earned one after
 *    a short run (a CPU whose load has ended keeps its util while it runs
 *    a tick after each long idle: wake_fades_after_load, with the
 *    estimator itself), or from the earned one after a long run (a burst
 *    after each 100 ms gap starts low again: wake_keeps_for_long_runs)
 */
#include <kunit/test.h>
#include <linux/time64.h>

#include "compat.h"
#include "sugov_inv_wake.h"

#define WAKE_TICK_NS	(4 * NSEC_PER_MSEC)	/* HZ=250 */
#define WAKE_STEPS	8

/*
 * @end_us: hook time of the window's end, us; @wall_us, @idle_us: the
 * window; @before, @folded: the invariant estimate (capacity units) before
 * and after the estimator folded the window in (the busy fraction follows
 * it at half its value); @want: the estimate after the restore;
 * @pending, @holding: the memory's state after the window.
 */
struct wake_step {
	u64 end_us;
	u64 wall_us;
	u64 idle_us;
	u32 before;
	u32 folded;
	u32 want;
	bool pending;
	bool holding;
};

struct wake_case {
	const char *name;
	u32 restore_us;
	struct wake_step steps[WAKE_STEPS];
};

static const struct wake_case wake_cases[] = {
	{
		.name = "a burst after 100 ms idle: restored a tick into it",
		.restore_us = 20000,
		.steps = {
			/* 40 ms flat out: a real run */
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1040000, 40000, 0, 620, 700, 700 },
			/* wake-up after 100 ms idle, 0.5 ms into the burst */
			{ 1140500, 100500, 100000, 700, 80, 80, true, true },
			/* 3 ms in: still under a tick */
			{ 1143000, 2500, 0, 80, 150, 150, true, true },
			/* 4.5 ms in: the estimate comes back */
			{ 1144500, 1500, 0, 150, 190, 700 },
			/* once only */
			{ 1150000, 5500, 0, 700, 710, 710 },
		},
	}, {
		.name = "a wake-up of 100 us restores nothing and keeps the memory",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			/* 50 ms idle, 100 us of work, idle again */
			{ 1060100, 50100, 50000, 640, 330, 330, true, true },
			/* 60 ms later: still the memory of the real run */
			{ 1120300, 60200, 60000, 330, 50, 50, true, true },
			/* then a real run */
			{ 1125300, 5000, 0, 50, 170, 640 },
		},
	}, {
		.name = "after the load ends, brief wake-ups drop the hold",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1040000, 40000, 0, 620, 700, 700 },
			/* the load ends; 100 us timer wake-ups 50 ms apart */
			{ 1090100, 50100, 50000, 700, 300, 300, true, true },
			/* a gap's timer, 50 and 100 ms after: still held */
			{ 1140100, 50000, 49900, 300, 150, 150, true, true },
			{ 1190100, 50000, 49900, 150, 80, 80, true, true },
			/* 150 ms after: the memory has expired */
			{ 1240100, 50000, 49900, 80, 40, 40 },
			/* a real run later has nothing to restore */
			{ 1245100, 5000, 0, 40, 150, 150 },
			/* and is remembered at the next idle */
			{ 1295200, 50100, 50000, 150, 70, 70, true, true },
		},
	}, {
		.name = "a memory just older than 5 idle_restore_us is gone",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			{ 1060100, 50100, 50000, 640, 330, 330, true, true },
			/* 100.001 ms after it was taken */
			{ 1160101, 100001, 100000, 330, 50, 50 },
			{ 1165101, 5000, 0, 50, 170, 170 },
		},
	}, {
		.name = "an idle shorter than idle_restore_us is no stretch",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			/* 19.999 ms idle */
			{ 1030000, 20000, 19999, 640, 420, 420 },
			{ 1040000, 10000, 0, 420, 500, 500 },
		},
	}, {
		.name = "an idle of exactly idle_restore_us is one",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			{ 1030001, 20001, 20000, 640, 420, 420, true, true },
			{ 1040000, 9999, 0, 420, 500, 640 },
		},
	}, {
		.name = "idle_restore_us 0: off",
		.restore_us = 0,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			{ 1110000, 100000, 99900, 640, 70, 70 },
			{ 1120000, 10000, 0, 70, 200, 200 },
		},
	}, {
		.name = "no real run before the idle: nothing to restore",
		.restore_us = 20000,
		.steps = {
			/* only wake-ups of 1 ms: no memory to keep */
			{ 1050000, 50000, 49000, 0, 20, 20 },
			{ 1100000, 50000, 49000, 20, 30, 30 },
			{ 1106000, 5000, 0, 30, 120, 120 },
		},
	}, {
		.name = "the memory never lowers an estimate",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 300, 300, 300 },
			{ 1010000, 10000, 0, 300, 300, 300 },
			{ 1040500, 30500, 30000, 300, 150, 150, true, true },
			/* the new run is heavier than the old one */
			{ 1050500, 10000, 0, 150, 500, 500 },
		},
	}, {
		.name = "a tick's worth of short runs drops the memory",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			/* 24 ms idle and 1 ms of work: a long stretch */
			{ 1035000, 25000, 24000, 640, 300, 300, true, true },
			/* 3 ms more after 12 ms idle: 4 ms of work, no tick */
			{ 1050000, 15000, 12000, 300, 260, 260 },
			/* the next long stretch remembers nothing */
			{ 1075000, 25000, 24000, 260, 150, 150, true, true },
			{ 1085000, 10000, 0, 150, 280, 280 },
		},
	}, {
		.name = "a run counts from the end of the last window with idle",
		.restore_us = 20000,
		.steps = {
			{ 1000000, 10000, 0, 600, 620, 620 },
			{ 1010000, 10000, 0, 620, 640, 640 },
			/* 40 ms idle, then 3 ms of work before the window ends */
			{ 1053000, 43000, 40000, 640, 300, 300, true, true },
			/* 3.999 ms after that end: not yet a tick */
			{ 1056999, 3999, 0, 300, 350, 350, true, true },
			{ 1057000, 1, 0, 350, 351, 640 },
		},
	},
};

KUNIT_ARRAY_PARAM_DESC(wake, wake_cases, name);

static struct sugov_inv_est wake_est(u32 util)
{
	struct sugov_inv_est est = {
		.util_inv_fp = util << SUGOV_INV_EST_SHIFT,
		.util_raw_fp = (util / 2) << SUGOV_INV_EST_SHIFT,
	};

	return est;
}

static void wake_timeline(struct kunit *test)
{
	const struct wake_case *c = test->param_value;
	struct sugov_inv_wake w = { };
	unsigned int i;

	for (i = 0; i < WAKE_STEPS && c->steps[i].end_us; i++) {
		const struct wake_step *st = &c->steps[i];
		u64 now_ns = st->end_us * NSEC_PER_USEC;
		struct sugov_inv_est before = wake_est(st->before);
		struct sugov_inv_est est = wake_est(st->folded);
		bool restored;

		sugov_inv_wake_note(&w, &before, now_ns, st->wall_us,
				    st->idle_us, c->restore_us);
		restored = sugov_inv_wake_restore(&w, &est, now_ns,
						  WAKE_TICK_NS);
		KUNIT_EXPECT_EQ_MSG(test, est.util_inv_fp >> SUGOV_INV_EST_SHIFT,
				    st->want, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, est.util_raw_fp >> SUGOV_INV_EST_SHIFT,
				    st->want / 2, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, restored, st->want != st->folded,
				    "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test, w.pending, st->pending, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    sugov_inv_wake_holding(&w, now_ns, WAKE_TICK_NS),
				    st->holding, "step %u", i);
	}
}

/* The run: from the end of the last window with idle, never negative */
static void wake_run_from_last_idle(struct kunit *test)
{
	struct sugov_inv_wake w = { };
	struct sugov_inv_est est = wake_est(100);
	u64 now_ns = 5 * NSEC_PER_SEC;

	sugov_inv_wake_note(&w, &est, now_ns, 10000, 7000, 20000);
	KUNIT_EXPECT_EQ(test, sugov_inv_wake_run_ns(&w, now_ns), 0ULL);
	KUNIT_EXPECT_EQ(test, sugov_inv_wake_run_ns(&w, now_ns + NSEC_PER_MSEC),
			NSEC_PER_MSEC);
	/* another CPU's clock, 1 us behind the run's start */
	KUNIT_EXPECT_EQ(test, sugov_inv_wake_run_ns(&w, now_ns - NSEC_PER_USEC),
			0ULL);
	/* a window without idle leaves the start where it was */
	sugov_inv_wake_note(&w, &est, now_ns + 2 * NSEC_PER_MSEC, 2000, 0, 20000);
	KUNIT_EXPECT_EQ(test, sugov_inv_wake_run_ns(&w, now_ns + 2 * NSEC_PER_MSEC),
			2 * NSEC_PER_MSEC);
}

/* One window of @wall_us with @idle_us of idle, ending @wall_us later */
static bool wake_fold_next(struct sugov_inv_wake *w, struct sugov_inv_est *est,
			   struct sugov_inv_wake_window *win, u64 wall_us,
			   u64 idle_us)
{
	win->now_ns += wall_us * NSEC_PER_USEC;
	win->wall_us = wall_us;
	win->idle_us = idle_us;
	return sugov_inv_wake_fold(w, est, win);
}

/*
 * 200 ms flat out, a window a tick, the first setting the estimate: the
 * load both fold cases start from (real estimator, 32 ms half-life, at
 * the reference).
 */
static void wake_flat_out_load(struct sugov_inv_wake *w,
			       struct sugov_inv_est *est,
			       struct sugov_inv_wake_window *win)
{
	unsigned int i;

	*win = (struct sugov_inv_wake_window){
		.now_ns = NSEC_PER_SEC,
		.deliv_khz = 2000000,
		.ref_khz = 2000000,
		.restore_us = 20000,
		.guard_ns = WAKE_TICK_NS,
	};
	for (i = 0; i < 50; i++) {
		win->halflife_ns = i ? 32 * NSEC_PER_MSEC : 0;
		wake_fold_next(w, est, win, WAKE_TICK_NS / NSEC_PER_USEC, 0);
	}
}

/*
 * The memory is the CPU's own, never one it was given back: after a load
 * that kept the CPU busy, a job of 8 ms every 38 ms (each run a tick and
 * more after 30 ms of idle, so each restores the memory) must bring the
 * estimate down to its own duty cycle, about a fifth, not keep the load's.
 */
static void wake_fades_after_load(struct kunit *test)
{
	struct sugov_inv_wake w = { };
	struct sugov_inv_est est = { };
	struct sugov_inv_wake_window win;
	bool restored_first = false;
	unsigned int i, j;

	wake_flat_out_load(&w, &est, &win);
	KUNIT_ASSERT_GT(test, sugov_inv_est_util(&est), 1000U);

	for (i = 0; i < 20; i++) {
		/* 30 ms idle, woken 100 us before the window closes */
		wake_fold_next(&w, &est, &win, 30100, 30000);
		/* 8 ms of running, a window a tick: restored at the first */
		for (j = 0; j < 2; j++) {
			if (wake_fold_next(&w, &est, &win,
					   WAKE_TICK_NS / NSEC_PER_USEC, 0) && !i)
				restored_first = true;
		}
	}
	/* The rule itself still works: the first run got the load back */
	KUNIT_EXPECT_TRUE(test, restored_first);
	KUNIT_EXPECT_LT(test, sugov_inv_est_util(&est), 450U);
	KUNIT_EXPECT_LT(test, sugov_inv_est_util(&w.pre), 450U);
}

/*
 * A run that bears the memory out keeps it: after the same load, a burst
 * of 36 ms (nine ticks, longer than idle_restore_us) after each 100 ms
 * gap gets the memory back at every burst, and goes into each gap with
 * it, as the bursts of tools/compare's burst:100 do.
 */
static void wake_keeps_for_long_runs(struct kunit *test)
{
	struct sugov_inv_wake w = { };
	struct sugov_inv_est est = { };
	struct sugov_inv_wake_window win;
	unsigned int i, j, restored = 0;

	wake_flat_out_load(&w, &est, &win);
	for (i = 0; i < 10; i++) {
		wake_fold_next(&w, &est, &win, 100100, 100000);
		for (j = 0; j < 9; j++) {
			if (wake_fold_next(&w, &est, &win,
					   WAKE_TICK_NS / NSEC_PER_USEC, 0))
				restored++;
		}
	}
	KUNIT_EXPECT_EQ(test, restored, 10U);
	KUNIT_EXPECT_GT(test, sugov_inv_est_util(&w.pre), 900U);
	KUNIT_EXPECT_GT(test, sugov_inv_est_util(&est), 900U);
}

static struct kunit_case sugov_inv_wake_test_cases[] = {
	KUNIT_CASE_PARAM(wake_timeline, wake_gen_params),
	KUNIT_CASE(wake_run_from_last_idle),
	KUNIT_CASE(wake_fades_after_load),
	KUNIT_CASE(wake_keeps_for_long_runs),
	{}
};

static struct kunit_suite sugov_inv_wake_test_suite = {
	.name = "sugov_inv_wake",
	.test_cases = sugov_inv_wake_test_cases,
};

kunit_test_suites(&sugov_inv_wake_test_suite);
