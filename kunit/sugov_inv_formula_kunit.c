// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for the freq_next formula and the freq_max choices of
 * sugov_inv_rules.h:
 *
 *   sugov_inv_formula   freq_next = headroom * freq_max * util / 1024 and
 *                       sugov_inv_decide() for each freq_max choice of
 *                       Documentation/design.rst
 *   sugov_inv_overutil  the over-utilization test at, below and above its
 *                       threshold, alone and inside overutil-detect
 *
 * Every expectation is computed here from the rule as design.rst states
 * it, by a different method than sugov_inv_rules.h uses (long division
 * instead of mul_u64_u32_div(), an explicit table of the choices instead
 * of its switch), so the two can only agree by both being right.  The
 * tables carry inputs only: real CPUs' published frequencies (sources at
 * struct cpu_caps) and edge values.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - formula: round to nearest instead of down
 *  - formula: util not clamped to 1024 (a util of 2048 asks twice freq_max)
 *  - formula: no saturation at U32_MAX (the result wraps)
 *  - formula: headroom * freq_max * util in plain u64 (wraps; only
 *    far above the governor's 1.25, which keeps the product below 2^50)
 *  - formula: divide by 1000 instead of 1024 (capacity scale)
 *  - choices: midpoint answers max_P; max_P answers the reference
 *  - choices: noinv scales with invariant util instead of the busy fraction
 *  - choices: iowait boost compared with >= / not capped at 1024
 *  - overutil: >= flipped to > (at-threshold rows), threshold scaled by 1000
 *  - overutil: decided on invariant util instead of the busy fraction
 *  - overutil: cpuinfo.max_freq of 0 not replaced by max_boost
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "compat.h"
#include "sugov_inv_rules.h"

/* ------------------------------------------------------------------------
 * The rules, written independently of sugov_inv.h
 * ------------------------------------------------------------------------
 */

/*
 * floor(headroom_pct / 100 * freq_max * min(util, 1024) / 1024), saturated
 * at U32_MAX.  headroom * freq_max fits in u64 but the product with util
 * may not, so divide first: a = q * den + r gives
 * a * util / den = q * util + r * util / den, where r * util < 2^27.
 */
static u32 ref_formula(u32 headroom_pct, u32 freq_max_khz, u32 util)
{
	const u64 den = 100ULL * SCHED_CAPACITY_SCALE;
	u64 a = (u64)headroom_pct * freq_max_khz;
	u64 q, r, khz;

	util = min_t(u32, util, SCHED_CAPACITY_SCALE);
	q = div64_u64_rem(a, den, &r);
	/* q <= 2^64 / 102400, so q * 1024 cannot overflow either */
	khz = q * util + div64_u64(r * util, den);
	return (u32)min_t(u64, khz, U32_MAX);
}

/*
 * The smallest busy fraction (capacity units) that is at or above
 * threshold_pct percent of full: ceil(threshold * 1024 / 100).
 */
static u32 ref_overutil_boundary(u32 threshold_pct)
{
	return DIV_ROUND_UP(threshold_pct * SCHED_CAPACITY_SCALE, 100);
}

/**
 * struct cpu_caps - one CPU's frequencies as freq_invariance reports them
 * @max_p_khz: highest non-boost P-state
 * @max_boost_khz: highest boost frequency
 * @kernel_ratio: Linux 6.1's invariance ratio (x1024) on that CPU; the
 *	reference frequency is max_P * ratio / 1024
 */
struct cpu_caps {
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 kernel_ratio;
};

/*
 * Published register values.  EPYC 7702: nominal 2000 MHz, CPPC highest
 * 255 of nominal 152 (uniform), 6.1 ratio (166 * 1024 / 152 + 1024) / 2 =
 * 1071 (the linux-pm thread "cpufreq/amd-pstate: Fix the scaling_max_freq
 * setting on shared memory CPPC systems", September 2024).  Xeon E5-2660
 * v3 (the E5-2687W v3's die): base 26, 1C 33, 4C 30 -> 1181 (InstLatx64's
 * CPUID dump GenuineIntel00306F2_HaswellEP2_CPUID.txt).  Core i3-1220P:
 * base 10, 1C 44, 4C 38 -> 3891, the widest spread known (InstLatx64's
 * GenuineIntel00906A4_AlderLakeP_00_CPUID.txt).
 */
static const struct cpu_caps epyc_7702 = {
	.max_p_khz = 2000000, .max_boost_khz = 3353515,
	.kernel_ratio = 1071,
};

static const struct cpu_caps xeon_e5_2660v3 = {
	.max_p_khz = 2600000, .max_boost_khz = 3300000,
	.kernel_ratio = 1181,
};

static const struct cpu_caps core_i3_1220p = {
	.max_p_khz = 1000000, .max_boost_khz = 4400000,
	.kernel_ratio = 3891,
};

/* Caps unknown to freq_invariance: every frequency 0 */
static const struct cpu_caps no_caps;

static u32 caps_mid_khz(const struct cpu_caps *caps)
{
	return (u32)(((u64)caps->max_p_khz + caps->max_boost_khz) / 2);
}

static u32 caps_ref_khz(const struct cpu_caps *caps)
{
	return (u32)(((u64)caps->max_p_khz * caps->kernel_ratio) >>
		     SCHED_CAPACITY_SHIFT);
}

/* ------------------------------------------------------------------------
 * sugov_inv_formula: the formula on its own
 * ------------------------------------------------------------------------
 */

struct formula_case {
	const char *name;
	u32 headroom_pct;
	u32 freq_max_khz;
	u32 util;
};

static const struct formula_case formula_cases[] = {
	{
		.name = "EPYC 7742 max_P 2.25 GHz, full util, headroom 1.25",
		.headroom_pct = 125, .freq_max_khz = 2250000, .util = 1024,
	}, {
		.name = "EPYC 7742 max_boost 3.4 GHz, half util",
		.headroom_pct = 125, .freq_max_khz = 3400000, .util = 512,
	}, {
		.name = "EPYC 7742 midpoint, util 819: just under the tipping point",
		.headroom_pct = 125, .freq_max_khz = 2825000, .util = 819,
	}, {
		.name = "EPYC 7742 midpoint, util 820: just over the tipping point",
		.headroom_pct = 125, .freq_max_khz = 2825000, .util = 820,
	}, {
		.name = "Xeon E5-2687W v3 base 3.1 GHz, util 307 (30 %)",
		.headroom_pct = 125, .freq_max_khz = 3100000, .util = 307,
	}, {
		.name = "headroom 1.00: full util asks exactly freq_max",
		.headroom_pct = 100, .freq_max_khz = 3400000, .util = 1024,
	}, {
		.name = "headroom 4.00: a quarter of util asks freq_max",
		.headroom_pct = 400, .freq_max_khz = 3400000, .util = 256,
	}, {
		.name = "util 0 asks 0",
		.headroom_pct = 125, .freq_max_khz = 3400000, .util = 0,
	}, {
		.name = "util 1 of 1024: 4150.39 kHz rounds down",
		.headroom_pct = 125, .freq_max_khz = 3400000, .util = 1,
	}, {
		.name = "rounding: 1023 kHz at util 1 is 0.999 kHz, rounds to 0",
		.headroom_pct = 100, .freq_max_khz = 1023, .util = 1,
	}, {
		.name = "rounding: 1 kHz at full util with headroom 1.99 is 1",
		.headroom_pct = 199, .freq_max_khz = 1, .util = 1024,
	}, {
		.name = "clamp: util 2048 counts as full",
		.headroom_pct = 125, .freq_max_khz = 3400000, .util = 2048,
	}, {
		.name = "clamp: util U32_MAX counts as full",
		.headroom_pct = 125, .freq_max_khz = 3400000, .util = U32_MAX,
	}, {
		.name = "freq_max 0 asks 0",
		.headroom_pct = 125, .freq_max_khz = 0, .util = 1024,
	}, {
		.name = "u64: U32_MAX kHz, headroom 1.00, full util is exact",
		.headroom_pct = 100, .freq_max_khz = U32_MAX, .util = 1024,
	}, {
		.name = "u64: U32_MAX kHz x 4.00 x full saturates at U32_MAX",
		.headroom_pct = 400, .freq_max_khz = U32_MAX, .util = 1024,
	}, {
		.name = "u64: headroom U32_MAX % x 2^31 kHz x 1024 is 2^73",
		.headroom_pct = U32_MAX, .freq_max_khz = 1U << 31, .util = 1024,
	}, {
		.name = "u64: 2^23 % x 2^31 kHz x 1024 is 2^64 (0 if wrapped)",
		.headroom_pct = 1U << 23, .freq_max_khz = 1U << 31, .util = 1024,
	}, {
		.name = "u64: headroom U32_MAX % x U32_MAX kHz x util 1",
		.headroom_pct = U32_MAX, .freq_max_khz = U32_MAX, .util = 1,
	}, {
		.name = "u64: 400 % x 4 GHz x util 1023 stays exact",
		.headroom_pct = 400, .freq_max_khz = 4000000, .util = 1023,
	},
};

KUNIT_ARRAY_PARAM_DESC(formula, formula_cases, name);

static void formula_matches_rule(struct kunit *test)
{
	const struct formula_case *c = test->param_value;
	u32 want = ref_formula(c->headroom_pct, c->freq_max_khz, c->util);

	KUNIT_EXPECT_EQ(test, sugov_inv_formula(c->headroom_pct,
						c->freq_max_khz, c->util),
			want);
}

/*
 * The freq_max choices.  Each row is one decision; the test derives the
 * expected freq_max, util and reason from design.rst's table of the
 * choices (fmax_rule()).
 */
struct fmax_case {
	const char *name;
	const struct cpu_caps *caps;
	enum sugov_inv_fmax fmax;
	u32 util_inv;
	u32 util_raw;
	u32 boost;
	u32 cur_khz;
	/* cpuinfo.max_freq: what the driver lists as the top */
	u32 cpu_max_khz;
	u32 overutil_pct;
};

/*
 * acpi-cpufreq's cpuinfo.max_freq on an EPYC 7702 under 6.1: nominal
 * 2000 MHz * (166 * 1024 / 152) / 1024 (the thread above), below the
 * real boost.
 */
#define EPYC_7702_CPUINFO_MAX_KHZ	2183593

static const struct fmax_case fmax_cases[] = {
	/* Each choice on three CPUs at half invariant util, 60 % busy */
	{
		.name = "EPYC 7702: max_P, util 512",
		.caps = &epyc_7702, .fmax = SUGOV_INV_MAX_P,
		.util_inv = 512, .util_raw = 614, .cur_khz = 2000000,
	}, {
		.name = "EPYC 7702: midpoint, util 512",
		.caps = &epyc_7702, .fmax = SUGOV_INV_MIDPOINT,
		.util_inv = 512, .util_raw = 614, .cur_khz = 2000000,
	}, {
		.name = "EPYC 7702: max_boost, util 512",
		.caps = &epyc_7702, .fmax = SUGOV_INV_MAX_BOOST,
		.util_inv = 512, .util_raw = 614, .cur_khz = 2000000,
	}, {
		.name = "EPYC 7702: overutil-detect, 60 % busy: the reference",
		.caps = &epyc_7702, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 512, .util_raw = 614, .cur_khz = 2000000,
	}, {
		.name = "EPYC 7702: noinv, 60 % busy at the current frequency",
		.caps = &epyc_7702, .fmax = SUGOV_INV_NOINV,
		.util_inv = 512, .util_raw = 614, .cur_khz = 2000000,
	}, {
		.name = "Xeon E5-2660 v3: max_P, util 512",
		.caps = &xeon_e5_2660v3, .fmax = SUGOV_INV_MAX_P,
		.util_inv = 512, .util_raw = 614, .cur_khz = 3000000,
	}, {
		.name = "Xeon E5-2660 v3: midpoint, util 512",
		.caps = &xeon_e5_2660v3, .fmax = SUGOV_INV_MIDPOINT,
		.util_inv = 512, .util_raw = 614, .cur_khz = 3000000,
	}, {
		.name = "Xeon E5-2660 v3: max_boost, util 512",
		.caps = &xeon_e5_2660v3, .fmax = SUGOV_INV_MAX_BOOST,
		.util_inv = 512, .util_raw = 614, .cur_khz = 3000000,
	}, {
		.name = "Xeon E5-2660 v3: overutil-detect, 60 % busy: the reference",
		.caps = &xeon_e5_2660v3, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 512, .util_raw = 614, .cur_khz = 3000000,
	}, {
		.name = "Xeon E5-2660 v3: noinv, 60 % busy at the current frequency",
		.caps = &xeon_e5_2660v3, .fmax = SUGOV_INV_NOINV,
		.util_inv = 512, .util_raw = 614, .cur_khz = 3000000,
	}, {
		.name = "Core i3-1220P: max_P, util 512",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_MAX_P,
		.util_inv = 512, .util_raw = 614, .cur_khz = 1000000,
	}, {
		.name = "Core i3-1220P: midpoint, util 512",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_MIDPOINT,
		.util_inv = 512, .util_raw = 614, .cur_khz = 1000000,
	}, {
		.name = "Core i3-1220P: max_boost, util 512",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_MAX_BOOST,
		.util_inv = 512, .util_raw = 614, .cur_khz = 1000000,
	}, {
		.name = "Core i3-1220P: overutil-detect, 60 % busy: the reference",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 512, .util_raw = 614, .cur_khz = 1000000,
	}, {
		.name = "Core i3-1220P: noinv, 60 % busy at the current frequency",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_NOINV,
		.util_inv = 512, .util_raw = 614, .cur_khz = 1000000,
	}, {
		.name = "overutil-detect, 90 % busy: cpuinfo.max_freq, util ignored",
		.caps = &epyc_7702, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 300, .util_raw = 922, .cur_khz = 1500000,
		.cpu_max_khz = EPYC_7702_CPUINFO_MAX_KHZ,
	}, {
		.name = "overutil-detect, cpuinfo.max_freq 0: the caps' max_boost",
		.caps = &epyc_7702, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 300, .util_raw = 922, .cur_khz = 1500000,
		.cpu_max_khz = 0,
	}, {
		.name = "overutil-detect: a boost of full does not count as busy",
		.caps = &epyc_7702, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 100, .util_raw = 100, .boost = 1024,
		.cur_khz = 1500000,
	}, {
		.name = "noinv: invariant util ignored, busy fraction used",
		.caps = &xeon_e5_2660v3, .fmax = SUGOV_INV_NOINV,
		.util_inv = 1024, .util_raw = 205, .cur_khz = 1200000,
	}, {
		.name = "max_boost: iowait boost 1/2 above util 1/8 replaces it",
		.caps = &epyc_7702, .fmax = SUGOV_INV_MAX_BOOST,
		.util_inv = 128, .util_raw = 128, .boost = 512,
		.cur_khz = 2000000,
	}, {
		.name = "max_boost: iowait boost equal to util is not a boost",
		.caps = &epyc_7702, .fmax = SUGOV_INV_MAX_BOOST,
		.util_inv = 512, .util_raw = 512, .boost = 512,
		.cur_khz = 2000000,
	}, {
		.name = "max_P: iowait boost below util is ignored",
		.caps = &epyc_7702, .fmax = SUGOV_INV_MAX_P,
		.util_inv = 700, .util_raw = 700, .boost = 128,
		.cur_khz = 2000000,
	}, {
		.name = "noinv: boost above full (4096) is capped at 1024",
		.caps = &epyc_7702, .fmax = SUGOV_INV_NOINV,
		.util_inv = 10, .util_raw = 10, .boost = 4096,
		.cur_khz = 2000000,
	}, {
		.name = "midpoint: util 0 asks 0",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_MIDPOINT,
		.cur_khz = 1000000,
	}, {
		.name = "max_boost: full util asks 1.25 x max_boost",
		.caps = &core_i3_1220p, .fmax = SUGOV_INV_MAX_BOOST,
		.util_inv = 1024, .util_raw = 1024, .cur_khz = 4400000,
	}, {
		.name = "max_P: freq_max 0 (caps unknown) asks 0",
		.caps = &no_caps, .fmax = SUGOV_INV_MAX_P,
		.util_inv = 800, .util_raw = 800, .cur_khz = 2000000,
	}, {
		.name = "overutil-detect: reference 0 (caps unknown) asks 0",
		.caps = &no_caps, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 600, .util_raw = 600, .cur_khz = 2000000,
		.cpu_max_khz = 3000000,
	}, {
		.name = "noinv: current frequency 0 asks 0",
		.caps = &epyc_7702, .fmax = SUGOV_INV_NOINV,
		.util_inv = 600, .util_raw = 600, .cur_khz = 0,
	}, {
		.name = "an unknown choice number behaves as max_boost",
		.caps = &epyc_7702, .fmax = SUGOV_INV_NR_FMAX,
		.util_inv = 400, .util_raw = 400, .cur_khz = 2000000,
	},
};

KUNIT_ARRAY_PARAM_DESC(fmax, fmax_cases, name);

/* Fill the governor's input from a row; 0 threshold: the default */
static void fmax_case_input(const struct fmax_case *c,
			    struct sugov_inv_in *in)
{
	memset(in, 0, sizeof(*in));
	in->fmax = c->fmax;
	in->util_inv = c->util_inv;
	in->util_raw = c->util_raw;
	in->boost = c->boost;
	in->cur_khz = c->cur_khz;
	in->cpu_max_khz = c->cpu_max_khz;
	in->max_p_khz = c->caps->max_p_khz;
	in->mid_khz = caps_mid_khz(c->caps);
	in->max_boost_khz = c->caps->max_boost_khz;
	in->ref_khz = caps_ref_khz(c->caps);
	in->overutil_pct = c->overutil_pct ?: SUGOV_INV_THRESHOLD_DEFAULT_PCT;
}

/*
 * Documentation/design.rst, "The formula and the freq_max policies", as a
 * table: which frequency each choice puts into the formula, which util it scales (noinv: the busy
 * fraction, not scaled by frequency), and the overutil-detect exception.
 */
static void fmax_rule(const struct sugov_inv_in *in, struct sugov_inv_out *out)
{
	bool noinv = in->fmax == SUGOV_INV_NOINV;
	u32 util = noinv ? in->util_raw : in->util_inv;

	/* schedutil: an iowait boost larger than util takes its place */
	out->reason = SUGOV_INV_REASON_FORMULA;
	if (in->boost > util) {
		util = min_t(u32, in->boost, SCHED_CAPACITY_SCALE);
		out->reason = SUGOV_INV_REASON_IOWAIT;
	}
	out->util = util;

	if (in->fmax == SUGOV_INV_OVERUTIL &&
	    in->util_raw >= ref_overutil_boundary(in->overutil_pct)) {
		out->freq_max_khz = in->cpu_max_khz ? in->cpu_max_khz :
						      in->max_boost_khz;
		out->raw_khz = out->freq_max_khz;
		out->reason = SUGOV_INV_REASON_OVERUTIL;
		return;
	}

	if (in->fmax == SUGOV_INV_MAX_P)
		out->freq_max_khz = in->max_p_khz;
	else if (in->fmax == SUGOV_INV_MIDPOINT)
		out->freq_max_khz = in->mid_khz;
	else if (in->fmax == SUGOV_INV_OVERUTIL)
		out->freq_max_khz = in->ref_khz;
	else if (noinv)
		out->freq_max_khz = in->cur_khz;
	else
		out->freq_max_khz = in->max_boost_khz;
	/* schedutil's headroom, 1.25 */
	out->raw_khz = ref_formula(125, out->freq_max_khz, util);
}

static void expect_decision(struct kunit *test, const struct sugov_inv_in *in)
{
	struct sugov_inv_out got, want;

	/* Poison the output: every field must be written */
	memset(&got, 0xa5, sizeof(got));
	sugov_inv_decide(in, &got);
	fmax_rule(in, &want);

	KUNIT_EXPECT_EQ(test, got.freq_max_khz, want.freq_max_khz);
	KUNIT_EXPECT_EQ(test, got.util, want.util);
	KUNIT_EXPECT_EQ(test, got.raw_khz, want.raw_khz);
	KUNIT_EXPECT_EQ(test, got.reason, want.reason);
}

static void fmax_matches_table(struct kunit *test)
{
	const struct fmax_case *c = test->param_value;
	struct sugov_inv_in in;

	fmax_case_input(c, &in);
	expect_decision(test, &in);
}

static struct kunit_case sugov_inv_formula_test_cases[] = {
	KUNIT_CASE_PARAM(formula_matches_rule, formula_gen_params),
	KUNIT_CASE_PARAM(fmax_matches_table, fmax_gen_params),
	{}
};

static struct kunit_suite sugov_inv_formula_test_suite = {
	.name = "sugov_inv_formula",
	.test_cases = sugov_inv_formula_test_cases,
};

/* ------------------------------------------------------------------------
 * sugov_inv_overutil: the threshold
 * ------------------------------------------------------------------------
 */

/*
 * @delta is the busy fraction's distance from the smallest value at or
 * above the threshold: -1 is just below, 0 is at, +1 just above.  Exact
 * thresholds (25/50/75/100 % of 1024 are whole numbers) tell ">=" from
 * ">"; 80 % (819.2) and 99 % (1013.76) check the rounding of the boundary.
 */
struct overutil_case {
	const char *name;
	u32 threshold_pct;
	int delta;
};

static const struct overutil_case overutil_cases[] = {
	{ .name = "80 % (default): 819 is below",   .threshold_pct = 80, .delta = -1 },
	{ .name = "80 % (default): 820 is at",      .threshold_pct = 80, .delta = 0 },
	{ .name = "80 % (default): 821 is above",   .threshold_pct = 80, .delta = 1 },
	{ .name = "25 %: 255 is below",             .threshold_pct = 25, .delta = -1 },
	{ .name = "25 %: exactly 256 is at",        .threshold_pct = 25, .delta = 0 },
	{ .name = "25 %: 257 is above",             .threshold_pct = 25, .delta = 1 },
	{ .name = "50 %: 511 is below",             .threshold_pct = 50, .delta = -1 },
	{ .name = "50 %: exactly 512 is at",        .threshold_pct = 50, .delta = 0 },
	{ .name = "75 %: exactly 768 is at",        .threshold_pct = 75, .delta = 0 },
	{ .name = "75 %: 767 is below",             .threshold_pct = 75, .delta = -1 },
	{ .name = "100 %: 1023 is below",           .threshold_pct = 100, .delta = -1 },
	{ .name = "100 %: full (1024) is at",       .threshold_pct = 100, .delta = 0 },
	{ .name = "100 %: 1025 (over full) is above", .threshold_pct = 100, .delta = 1 },
	{ .name = "99 %: 1013 is below",            .threshold_pct = 99, .delta = -1 },
	{ .name = "99 %: 1014 is at",               .threshold_pct = 99, .delta = 0 },
	{ .name = "1 %: 10 is below",               .threshold_pct = 1, .delta = -1 },
	{ .name = "1 %: 11 is at",                  .threshold_pct = 1, .delta = 0 },
};

KUNIT_ARRAY_PARAM_DESC(overutil, overutil_cases, name);

static void overutil_threshold(struct kunit *test)
{
	const struct overutil_case *c = test->param_value;
	u32 busy = ref_overutil_boundary(c->threshold_pct) + c->delta;

	KUNIT_EXPECT_EQ_MSG(test, sugov_inv_overutilized(busy, c->threshold_pct),
			    c->delta >= 0, "busy %u, threshold %u %%", busy,
			    c->threshold_pct);
}

/*
 * The same boundary inside overutil-detect: a CPU whose invariant util is
 * low (it runs slowly) but whose busy fraction reaches the threshold asks
 * for the top frequency; one unit less and it follows the formula.
 */
static void overutil_in_decision(struct kunit *test)
{
	const struct overutil_case *c = test->param_value;
	const struct fmax_case row = {
		.caps = &epyc_7702, .fmax = SUGOV_INV_OVERUTIL,
		.util_inv = 200, .cur_khz = 1500000,
		.cpu_max_khz = EPYC_7702_CPUINFO_MAX_KHZ,
		.overutil_pct = c->threshold_pct,
	};
	struct sugov_inv_out out;
	struct sugov_inv_in in;

	fmax_case_input(&row, &in);
	in.util_raw = ref_overutil_boundary(c->threshold_pct) + c->delta;
	expect_decision(test, &in);

	sugov_inv_decide(&in, &out);
	KUNIT_EXPECT_EQ(test, out.reason == SUGOV_INV_REASON_OVERUTIL,
			c->delta >= 0);
}

static struct kunit_case sugov_inv_overutil_test_cases[] = {
	KUNIT_CASE_PARAM(overutil_threshold, overutil_gen_params),
	KUNIT_CASE_PARAM(overutil_in_decision, overutil_gen_params),
	{}
};

static struct kunit_suite sugov_inv_overutil_test_suite = {
	.name = "sugov_inv_overutil",
	.test_cases = sugov_inv_overutil_test_cases,
};

kunit_test_suites(&sugov_inv_formula_test_suite,
		  &sugov_inv_overutil_test_suite);
