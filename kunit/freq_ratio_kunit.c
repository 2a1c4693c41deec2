// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite freq_ratio: the math layer every part of freq_invariance
 * and tools/fi-probe computes with (freq_ratio.h) -- the x * 1024 / y
 * ratio, the >> 10 scaling, AMD's midpoint of the boost ratio and 1024,
 * and the frequency two counters' deltas give, with its sanity bound --
 * on published values (Documentation/published-cpus.rst) and the edges.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - the delta bound shift 4 made 5 (APERF 17 to 31 x MPERF accepted):
 *    "17x faster: a reset" fails
 * Also meant to catch, by construction: a zero delta or reference delta
 * answered with 0 kHz, the scaling rounding up, the AMD midpoint rounding
 * up, a ratio that rounds to 0 accepted, the midpoint of two odd
 * frequencies losing its half.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "compat.h"
#include "../freq_ratio.h"

/**
 * struct ratio_case - one call of freq_ratio_of()
 * @name: what is tested
 * @num: numerator
 * @den: denominator
 * @err: expected return
 * @ratio: expected ratio, x1024
 */
struct ratio_case {
	const char *name;
	u32 num, den;
	int err;
	u32 ratio;
};

static const struct ratio_case ratio_cases[] = {
	/* EPYC 7702: 6.1's 166 and 6.12's 255 over nominal_perf 152 */
	{ "EPYC 7702 166/152", 166, 152, 0, 166 * 1024 / 152 },
	{ "EPYC 7702 255/152", 255, 152, 0, 255 * 1024 / 152 },
	/* i3-1220P: 4C turbo 38 over base 10, the largest ratio published */
	{ "i3-1220P 38/10", 38, 10, 0, 38 * 1024 / 10 },
	{ "equal: 1024", 152, 152, 0, 1024 },
	{ "rounds to 0", 1, 2048, -ERANGE, 0 },
	{ "numerator 0", 0, 152, -ERANGE, 0 },
	{ "denominator 0", 166, 0, -EINVAL, 0 },
	{ "U32_MAX/1 does not fit", U32_MAX, 1, -ERANGE, 0 },
	{ "largest that fits", U32_MAX >> 10, 1, 0, (U32_MAX >> 10) << 10 },
};

KUNIT_ARRAY_PARAM_DESC(ratio_of, ratio_cases, name);

static void ratio_of_test(struct kunit *test)
{
	const struct ratio_case *c = test->param_value;
	u32 ratio = 0xa5a5a5a5;

	KUNIT_ASSERT_EQ(test, c->err, freq_ratio_of(c->num, c->den, &ratio));
	KUNIT_EXPECT_EQ(test, ratio, c->err ? 0xa5a5a5a5 : c->ratio);
}

/* acpi-cpufreq's cpuinfo.max_freq of the EPYC 7702, and the overflow */
static void ratio_scale_test(struct kunit *test)
{
	u32 khz = 0;

	KUNIT_EXPECT_EQ(test, 0, freq_ratio_scale_khz(2000000, 166 * 1024 / 152,
						      &khz));
	/* 2000000 * 1118 >> 10, truncated */
	KUNIT_EXPECT_EQ(test, khz, 2183593U);
	KUNIT_EXPECT_EQ(test, 0, freq_ratio_scale_khz(U32_MAX, 1024, &khz));
	KUNIT_EXPECT_EQ(test, khz, U32_MAX);
	khz = 7;
	KUNIT_EXPECT_EQ(test, -ERANGE, freq_ratio_scale_khz(U32_MAX, 1025, &khz));
	KUNIT_EXPECT_EQ(test, khz, 7U);
}

/* cppc.c's (ratio + 1024) >> 1: 6.1's EPYC 7702 ratio, and no wrap */
static void ratio_amd_midpoint_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1071U, freq_ratio_amd_midpoint(166 * 1024 / 152));
	KUNIT_EXPECT_EQ(test, 1370U, freq_ratio_amd_midpoint(255 * 1024 / 152));
	KUNIT_EXPECT_EQ(test, 1024U, freq_ratio_amd_midpoint(1024));
	KUNIT_EXPECT_EQ(test, 1024U, freq_ratio_amd_midpoint(1025));
	KUNIT_EXPECT_EQ(test, (u32)(((u64)U32_MAX + 1024) >> 1),
			freq_ratio_amd_midpoint(U32_MAX));
}

/**
 * struct delta_case - one call of freq_ratio_delta_khz()
 * @name: what is tested
 * @ref_khz: the reference counter's frequency
 * @delta: delivered-counter ticks
 * @ref_delta: reference-counter ticks
 * @err: expected return
 * @khz: expected frequency
 */
struct delta_case {
	const char *name;
	u32 ref_khz;
	u64 delta, ref_delta;
	int err;
	u32 khz;
};

static const struct delta_case delta_cases[] = {
	/* EPYC 7742 at its 3400 MHz boost: APERF 3400 ticks per 2250 MPERF */
	{ "EPYC 7742 boosting", 2250000, 3400, 2250, 0, 3400000 },
	{ "at the reference", 2250000, 1000, 1000, 0, 2250000 },
	{ "half the reference", 2000000, 500, 1000, 0, 1000000 },
	{ "16x faster: the bound", 1000000, 16000, 1000, 0, 16000000 },
	{ "17x faster: a reset", 1000000, 17000, 1000, -ENODATA, 0 },
	{ "idle: no reference ticks", 2250000, 0, 0, -ENODATA, 0 },
	{ "no delivered ticks", 2250000, 0, 1000, -ENODATA, 0 },
	{ "reference ticks only in delta", 2250000, 1000, 0, -ENODATA, 0 },
	{ "max_P unknown", 0, 1000, 1000, -ENODATA, 0 },
	/* A year of ticks at 3.4 GHz: the 128-bit intermediate */
	{ "huge deltas", 2250000, 3400ULL << 40, 2250ULL << 40, 0, 3400000 },
	{ "largest deltas", 1024, U64_MAX, U64_MAX, 0, 1024 },
};

KUNIT_ARRAY_PARAM_DESC(delta_khz, delta_cases, name);

static void delta_khz_test(struct kunit *test)
{
	const struct delta_case *c = test->param_value;
	u32 khz = 0xa5a5a5a5;

	KUNIT_ASSERT_EQ(test, c->err,
			freq_ratio_delta_khz(c->ref_khz, c->delta, c->ref_delta,
					     &khz));
	KUNIT_EXPECT_EQ(test, khz, c->err ? 0xa5a5a5a5 : c->khz);
}

/*
 * The EPYC 7742's and the Xeon E5-2687W v3's max_P and max_boost
 * (Documentation/published-cpus.rst), and no wrap or lost half near
 * U32_MAX
 */
static void midpoint_khz_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2825000U, freq_ratio_midpoint_khz(2250000, 3400000));
	KUNIT_EXPECT_EQ(test, 2825000U, freq_ratio_midpoint_khz(3400000, 2250000));
	KUNIT_EXPECT_EQ(test, 3300000U, freq_ratio_midpoint_khz(3100000, 3500000));
	KUNIT_EXPECT_EQ(test, 2825001U, freq_ratio_midpoint_khz(2250001, 3400001));
	KUNIT_EXPECT_EQ(test, U32_MAX, freq_ratio_midpoint_khz(U32_MAX, U32_MAX));
	KUNIT_EXPECT_EQ(test, U32_MAX - 1,
			freq_ratio_midpoint_khz(U32_MAX, U32_MAX - 1));
	KUNIT_EXPECT_EQ(test, U32_MAX / 2, freq_ratio_midpoint_khz(U32_MAX, 0));
	KUNIT_EXPECT_EQ(test, 1U, freq_ratio_midpoint_khz(1, 1));
}

static void rules_name_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, "6.1", freq_ratio_rules_name(FREQ_RATIO_RULES_6_1));
	KUNIT_EXPECT_STREQ(test, "6.12",
			   freq_ratio_rules_name(FREQ_RATIO_RULES_6_12));
	KUNIT_EXPECT_STREQ(test, "unknown",
			   freq_ratio_rules_name(FREQ_RATIO_RULES_NR));
}

static struct kunit_case freq_ratio_test_cases[] = {
	KUNIT_CASE_PARAM(ratio_of_test, ratio_of_gen_params),
	KUNIT_CASE(ratio_scale_test),
	KUNIT_CASE(ratio_amd_midpoint_test),
	KUNIT_CASE_PARAM(delta_khz_test, delta_khz_gen_params),
	KUNIT_CASE(midpoint_khz_test),
	KUNIT_CASE(rules_name_test),
	{ }
};

static struct kunit_suite freq_ratio_test_suite = {
	.name = "freq_ratio",
	.test_cases = freq_ratio_test_cases,
};

kunit_test_suites(&freq_ratio_test_suite);
