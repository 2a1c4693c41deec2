// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_arrival: the decision rule for work that arrives
 * on an idle CPU in sugov_inv_decide() of sugov_inv_rules.h
 * (Documentation/design.rst, "Work that arrives on an idle CPU"): a CPU
 * that just left a long idle stretch keeps the frequency it idled at, up
 * to what its util from before the stretch asks for; beside it, the
 * iowait boost and overutil-detect, which come before it.
 *
 * Expected targets are worked out by hand from the rule (the arithmetic is
 * in each row's comment), on the EPYC 7742's frequencies: max_P 2250 MHz,
 * max_boost 3400 MHz (AMD's product page), table top 2250 MHz.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - the wake-up hold not capped at the last request (min dropped: a
 *    CPU that idled low asks for the top at once)
 *  - the wake-up hold applied with nothing requested yet (last 0)
 *  - overutil-detect asks for max_boost where cpuinfo.max_freq is known
 */
#include <kunit/test.h>

#include "compat.h"
#include "sugov_inv_rules.h"

#define MAX_P_KHZ	2250000U
#define MAX_BOOST_KHZ	3400000U
#define REF_KHZ		2823500U

struct arrival_case {
	const char *name;
	enum sugov_inv_fmax fmax;
	u32 util_inv, util_raw, boost, cur_khz;
	bool no_cpu_max;
	bool wake_hold;
	u32 pre_util_inv, last_khz;
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
		.name = "iowait boost above util: the boost (4250000 * 800 / 1024)",
		.util_inv = 200, .util_raw = 300, .boost = 800,
		.want_util = 800, .want_raw_khz = 3320312,
		.want_reason = SUGOV_INV_REASON_IOWAIT,
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
		.name = "overutil-detect over its threshold: the table's top",
		.fmax = SUGOV_INV_OVERUTIL, .util_inv = 200, .util_raw = 900,
		.want_util = 200, .want_raw_khz = MAX_P_KHZ,
		.want_reason = SUGOV_INV_REASON_OVERUTIL,
	}, {
		.name = "overutil-detect, cpuinfo.max_freq unknown: max_boost",
		.fmax = SUGOV_INV_OVERUTIL, .util_inv = 200, .util_raw = 900,
		.no_cpu_max = true,
		.want_util = 200, .want_raw_khz = MAX_BOOST_KHZ,
		.want_reason = SUGOV_INV_REASON_OVERUTIL,
	}, {
		.name = "wake-up hold below an over-utilized target: the top",
		.fmax = SUGOV_INV_OVERUTIL, .util_inv = 200, .util_raw = 900,
		.wake_hold = true, .pre_util_inv = 400, .last_khz = 2000000,
		.want_util = 200, .want_raw_khz = MAX_P_KHZ,
		.want_reason = SUGOV_INV_REASON_OVERUTIL,
	},
};

KUNIT_ARRAY_PARAM_DESC(arrival, arrival_cases, name);

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
		.overutil_pct = 80,
		.wake_hold = c->wake_hold,
		.pre_util_inv = c->pre_util_inv, .pre_util_raw = c->pre_util_inv,
		.last_khz = c->last_khz,
	};
	struct sugov_inv_out out;

	sugov_inv_decide(&in, &out);
	KUNIT_EXPECT_EQ(test, out.util, c->want_util);
	KUNIT_EXPECT_EQ(test, out.raw_khz, c->want_raw_khz);
	KUNIT_EXPECT_EQ(test, out.reason, c->want_reason);
}

static struct kunit_case sugov_inv_arrival_test_cases[] = {
	KUNIT_CASE_PARAM(arrival_decides, arrival_gen_params),
	{}
};

static struct kunit_suite sugov_inv_arrival_test_suite = {
	.name = "sugov_inv_arrival",
	.test_cases = sugov_inv_arrival_test_cases,
};

kunit_test_suites(&sugov_inv_arrival_test_suite);
