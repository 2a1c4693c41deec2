// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_arrival: the decision rules for work that arrives
 * on an idle CPU, in sugov_inv_decide() and sugov_inv_step_allowed() of
 * sugov_inv_rules.h (Documentation/design.rst, "Work that arrives on an
 * idle CPU"):
 *
 *  - the running task's util raises util (invariant and busy fraction),
 *    as schedutil's per-task util and util_est do;
 *  - a CPU that has run without idling for flat_out_us asks for the
 *    policy's highest frequency (ondemand's up_threshold at full load);
 *  - a CPU that just left a long idle stretch keeps the frequency it
 *    idled at, up to what its util from before the stretch asks for;
 *  - a busy CPU never asks for less than the busy floor;
 *  - a rise waits up_rate_limit_us, a fall down_rate_limit_us, and a CPU
 *    that has run a tick without idling rises at once (fast_rise).
 *
 * Expected targets are worked out by hand from the rule (the arithmetic is
 * in each row's comment), on the EPYC 7742's frequencies: max_P 2250 MHz,
 * max_boost 3400 MHz (AMD's product page), table top 2250 MHz.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - the task's util not applied to the busy fraction (noinv ignores it),
 *    or not to the invariant util
 *  - the busy floor never applied
 *  - flat out: >= turned into >, or flat_out_ns 0 not treated as off
 *  - flat out asks for max_boost where cpuinfo.max_freq is known
 *  - the wake-up hold not capped at the last request (min dropped: a
 *    CPU that idled low asks for the top at once)
 *  - the wake-up hold applied with nothing requested yet (last 0)
 *  - the floor applied before the other rules (a hold above it lost)
 *  - a rise allowed early without fast_rise, or fast_rise with a run
 *    shorter than its tick
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "sugov_inv_rules.h"

#define MAX_P_KHZ	2250000U
#define MAX_BOOST_KHZ	3400000U
#define REF_KHZ		2823500U
#define TICK_4MS	(4 * NSEC_PER_MSEC)

struct arrival_case {
	const char *name;
	enum sugov_inv_fmax fmax;
	u32 util_inv, util_raw, boost, cur_khz;
	bool no_cpu_max;
	u32 task_util;
	u64 run_ns, flat_out_ns;
	bool wake_hold;
	u32 pre_util_inv, last_khz, floor_khz;
	u32 want_util, want_raw_khz;
	enum sugov_inv_reason want_reason;
};

/*
 * max_boost: raw = 1.25 * 3400000 * util / 1024 = 4250000 * util / 1024,
 * rounded down; noinv: 1.25 * cur * busy / 1024.
 */
static const struct arrival_case arrival_cases[] = {
	{
		.name = "no rule: the formula (4250000 * 200 / 1024)",
		.util_inv = 200, .util_raw = 300,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "the task's util 600 raises util (4250000 * 600 / 1024)",
		.util_inv = 200, .util_raw = 300, .task_util = 600,
		.want_util = 600, .want_raw_khz = 2490234,
	}, {
		.name = "a task's util below the CPU's changes nothing",
		.util_inv = 200, .util_raw = 300, .task_util = 100,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "noinv: the task's util raises the busy fraction (1875000 * 600 / 1024)",
		.fmax = SUGOV_INV_NOINV, .cur_khz = 1500000,
		.util_inv = 200, .util_raw = 300, .task_util = 600,
		.want_util = 600, .want_raw_khz = 1098632,
	}, {
		.name = "iowait boost above the task's util: the boost",
		.util_inv = 200, .util_raw = 300, .task_util = 600, .boost = 800,
		.want_util = 800, .want_raw_khz = 3320312,
		.want_reason = SUGOV_INV_REASON_IOWAIT,
	}, {
		.name = "flat out for exactly flat_out_us: the table's top",
		.util_inv = 200, .util_raw = 300,
		.run_ns = 8 * NSEC_PER_MSEC, .flat_out_ns = 8 * NSEC_PER_MSEC,
		.want_util = 200, .want_raw_khz = MAX_P_KHZ,
		.want_reason = SUGOV_INV_REASON_FLAT_OUT,
	}, {
		.name = "flat out, the formula already at the top: the formula",
		.util_inv = 600, .util_raw = 600,
		.run_ns = NSEC_PER_SEC, .flat_out_ns = 8 * NSEC_PER_MSEC,
		.want_util = 600, .want_raw_khz = 2490234,
	}, {
		.name = "1 ns short of flat_out_us: the formula",
		.util_inv = 200, .util_raw = 300,
		.run_ns = 8 * NSEC_PER_MSEC - 1, .flat_out_ns = 8 * NSEC_PER_MSEC,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "flat_out_us 0 is off, however long the run",
		.util_inv = 200, .util_raw = 300, .run_ns = 10 * NSEC_PER_SEC,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "flat out, cpuinfo.max_freq unknown: max_boost",
		.util_inv = 200, .util_raw = 300, .no_cpu_max = true,
		.run_ns = NSEC_PER_SEC, .flat_out_ns = 8 * NSEC_PER_MSEC,
		.want_util = 200, .want_raw_khz = MAX_BOOST_KHZ,
		.want_reason = SUGOV_INV_REASON_FLAT_OUT,
	}, {
		.name = "wake-up: the frequency it idled at (pre asks 2905273)",
		.util_inv = 200, .util_raw = 300,
		.wake_hold = true, .pre_util_inv = 700, .last_khz = 2250000,
		.want_util = 200, .want_raw_khz = 2250000,
		.want_reason = SUGOV_INV_REASON_WAKE,
	}, {
		.name = "wake-up: no more than pre asks (4250000 * 400 / 1024)",
		.util_inv = 200, .util_raw = 300,
		.wake_hold = true, .pre_util_inv = 400, .last_khz = 2250000,
		.want_util = 200, .want_raw_khz = 1660156,
		.want_reason = SUGOV_INV_REASON_WAKE,
	}, {
		.name = "wake-up, pre asks less than util: the formula",
		.util_inv = 200, .util_raw = 300,
		.wake_hold = true, .pre_util_inv = 100, .last_khz = 2250000,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "wake-up with nothing requested yet: the formula",
		.util_inv = 200, .util_raw = 300,
		.wake_hold = true, .pre_util_inv = 700, .last_khz = 0,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "busy floor 2000 MHz above the target: the floor",
		.util_inv = 200, .util_raw = 300, .floor_khz = 2000000,
		.want_util = 200, .want_raw_khz = 2000000,
		.want_reason = SUGOV_INV_REASON_FLOOR,
	}, {
		.name = "busy floor below the target: the formula",
		.util_inv = 200, .util_raw = 300, .floor_khz = 500000,
		.want_util = 200, .want_raw_khz = 830078,
	}, {
		.name = "wake-up hold above the floor: the hold",
		.util_inv = 200, .util_raw = 300, .floor_khz = 1500000,
		.wake_hold = true, .pre_util_inv = 400, .last_khz = 2250000,
		.want_util = 200, .want_raw_khz = 1660156,
		.want_reason = SUGOV_INV_REASON_WAKE,
	}, {
		.name = "overutil-detect over its threshold: over-utilized, not flat out",
		.fmax = SUGOV_INV_OVERUTIL, .util_inv = 200, .util_raw = 900,
		.run_ns = NSEC_PER_SEC, .flat_out_ns = 8 * NSEC_PER_MSEC,
		.want_util = 200, .want_raw_khz = MAX_P_KHZ,
		.want_reason = SUGOV_INV_REASON_OVERUTIL,
	},
};

static void arrival_case_desc(const struct arrival_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(arrival, arrival_cases, arrival_case_desc);

static void arrival_decides(struct kunit *test)
{
	const struct arrival_case *c = test->param_value;
	struct sugov_inv_in in = {
		.fmax = c->fmax ?: SUGOV_INV_MAX_BOOST,
		.util_inv = c->util_inv, .util_raw = c->util_raw,
		.boost = c->boost, .cur_khz = c->cur_khz,
		.cpu_max_khz = c->no_cpu_max ? 0 : MAX_P_KHZ,
		.max_p_khz = MAX_P_KHZ, .mid_khz = (MAX_P_KHZ + MAX_BOOST_KHZ) / 2,
		.max_boost_khz = MAX_BOOST_KHZ, .ref_khz = REF_KHZ,
		.headroom_pct = 125, .overutil_pct = 80,
		.task_util = c->task_util, .run_ns = c->run_ns,
		.flat_out_ns = c->flat_out_ns, .wake_hold = c->wake_hold,
		.pre_util_inv = c->pre_util_inv, .pre_util_raw = c->pre_util_inv,
		.last_khz = c->last_khz, .floor_khz = c->floor_khz,
	};
	struct sugov_inv_out out;

	sugov_inv_decide(&in, &out);
	KUNIT_EXPECT_EQ(test, out.util, c->want_util);
	KUNIT_EXPECT_EQ(test, out.raw_khz, c->want_raw_khz);
	KUNIT_EXPECT_EQ(test, out.reason, c->want_reason);
}

/* since, delay, run, fast tick: may the change be sent? */
struct step_case {
	const char *name;
	s64 since_ns, delay_ns;
	u64 run_ns, fast_ns;
	bool want;
};

static const struct step_case step_cases[] = {
	{ "exactly the limit later: sent", 10000000, 10000000, 0, 0, true },
	{ "1 ns short: waits", 9999999, 10000000, 0, 0, false },
	{ "limit 0: at once", 0, 0, 0, 0, true },
	{ "a clock behind the last request: waits", -1000, 0, 0, 0, false },
	{ "fast_rise, a tick of running: at once", 1000000, 10000000,
	  TICK_4MS, TICK_4MS, true },
	{ "fast_rise, a run 1 ns short of a tick: waits", 1000000, 10000000,
	  TICK_4MS - 1, TICK_4MS, false },
	{ "no fast_rise, a second of running: waits", 1000000, 10000000,
	  NSEC_PER_SEC, 0, false },
};

static void step_case_desc(const struct step_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(step, step_cases, step_case_desc);

static void step_allowed_follows_rule(struct kunit *test)
{
	const struct step_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sugov_inv_step_allowed(c->since_ns, c->delay_ns,
						     c->run_ns, c->fast_ns),
			c->want);
}

static struct kunit_case sugov_inv_arrival_test_cases[] = {
	KUNIT_CASE_PARAM(arrival_decides, arrival_gen_params),
	KUNIT_CASE_PARAM(step_allowed_follows_rule, step_gen_params),
	{}
};

static struct kunit_suite sugov_inv_arrival_test_suite = {
	.name = "sugov_inv_arrival",
	.test_cases = sugov_inv_arrival_test_cases,
};

kunit_test_suites(&sugov_inv_arrival_test_suite);
