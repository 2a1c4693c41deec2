// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite vcpufreq_table: the test driver's table_khz= parser and
 * table checks, selftests/vcpufreq_table.h.  Good tables against the
 * max_P and max_boost worked out by hand, bad ones against the reason the
 * driver logs (its one line on a refused load).
 *
 * Mutations this suite catches (each tried: a case failed with it):
 *  - a trailing 'b' not stripped (every boost entry "not a number")
 *  - the duplicate check skipped
 *  - a boost entry counted as max_P
 *  - the 33rd entry accepted (off by one at VCPUFREQ_MAX_STATES)
 *  - an empty entry after a trailing comma accepted
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "compat.h"
#include "selftests/vcpufreq_table.h"

/* "1,2,...,N": N distinct entries of 1..N kHz. */
#define ENTRIES_8	"1,2,3,4,5,6,7,8"
#define ENTRIES_32	ENTRIES_8 ",9,10,11,12,13,14,15,16,17,18,19,20," \
			"21,22,23,24,25,26,27,28,29,30,31,32"

struct parse_case {
	const char *name;
	const char *spec;
	int ret;
	unsigned int nr;
	unsigned int max_p_khz;
	unsigned int max_p_idx;
	unsigned int max_boost_khz;
	const char *why;	/* with ret != 0: the reason, exactly */
};

static const struct parse_case parse_cases[] = {
	/* Good tables */
	{ "epyc-7742 as acpi-cpufreq lists it", "2250000,2000000,1500000",
	  0, 3, 2250000, 0, 0 },
	{ "listed boost first", "3400000b,2250000,2000000,1500000",
	  0, 4, 2250000, 1, 3400000 },
	{ "unsorted: max_P found where it is", "1500000,2250000,2000000",
	  0, 3, 2250000, 1, 0 },
	{ "two boost entries: the higher is max_boost",
	  "3300000b,3500000b,3100000,1200000", 0, 4, 3100000, 2, 3500000 },
	{ "boost 1 kHz above max_P", "2250001b,2250000",
	  0, 2, 2250000, 1, 2250001 },
	{ "one entry", "800000", 0, 1, 800000, 0, 0 },
	{ "'+' and leading zeros are numbers", "+2250000,01500000",
	  0, 2, 2250000, 0, 0 },
	{ "highest value accepted", "100000000", 0, 1, 100000000, 0, 0 },
	{ "32 entries", ENTRIES_32, 0, 32, 32, 31, 0 },
	/* Bad input: the reason names the entry (1-based) */
	{ "empty table", "", -EINVAL, 0, 0, 0, 0, "empty table" },
	{ "33 entries", ENTRIES_32 ",33", -EINVAL, 0, 0, 0, 0,
	  "more than 32 entries" },
	{ "empty entry inside", "2250000,,1500000", -EINVAL, 0, 0, 0, 0,
	  "entry 2 is empty" },
	{ "trailing comma", "2250000,", -EINVAL, 0, 0, 0, 0,
	  "entry 2 is empty" },
	{ "leading comma", ",2250000", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is empty" },
	{ "not a number", "2250000,fast", -EINVAL, 0, 0, 0, 0,
	  "entry 2 is not a number of kHz" },
	{ "a lone 'b'", "b", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is not a number of kHz" },
	{ "two 'b's", "2250000bb", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is not a number of kHz" },
	{ "negative", "-1500000", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is not a number of kHz" },
	{ "space after the number", "2250000 ,1500000", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is not a number of kHz" },
	{ "beyond u32", "4294967296", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is not a number of kHz" },
	{ "longer than any number", "0000000000000000000000002250000",
	  -EINVAL, 0, 0, 0, 0, "entry 1 is not a number of kHz" },
	{ "zero kHz", "2250000,0", -EINVAL, 0, 0, 0, 0,
	  "entry 2 is 0 kHz, must be 1..100000000" },
	{ "above 100 GHz", "100000001", -EINVAL, 0, 0, 0, 0,
	  "entry 1 is 100000001 kHz, must be 1..100000000" },
	{ "listed twice", "2250000,2000000,2250000b", -EINVAL, 0, 0, 0, 0,
	  "2250000 kHz is listed twice" },
	{ "boost only", "3400000b", -EINVAL, 0, 0, 0, 0,
	  "every entry is a boost entry" },
	{ "boost below max_P", "2000000b,2250000", -EINVAL, 0, 0, 0, 0,
	  "boost entry 2000000 kHz is below the highest non-boost entry 2250000 kHz" },
};

KUNIT_ARRAY_PARAM_DESC(parse, parse_cases, name);

static void vcpufreq_table_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	char why[VCPUFREQ_WHY_LEN] = "";
	struct vcpufreq_table *t;
	unsigned int i;
	int ret;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	ret = vcpufreq_table_parse(t, c->spec, why, sizeof(why));
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, t->nr, c->nr);
	if (c->ret) {
		KUNIT_EXPECT_STREQ(test, why, c->why);
		return;
	}
	KUNIT_EXPECT_EQ(test, t->max_p_khz, c->max_p_khz);
	KUNIT_EXPECT_EQ(test, t->max_p_idx, c->max_p_idx);
	KUNIT_EXPECT_EQ(test, t->max_boost_khz, c->max_boost_khz);
	/* What cpufreq reads: the index in driver_data, a terminator. */
	for (i = 0; i < t->nr; i++)
		KUNIT_EXPECT_EQ(test, t->entries[i].driver_data, i);
	KUNIT_EXPECT_EQ(test, t->entries[t->nr].frequency, CPUFREQ_TABLE_END);
}

/* The boost flag lands on the entries marked 'b', and only there. */
static void vcpufreq_table_parse_flags_test(struct kunit *test)
{
	static const unsigned int want_khz[] = { 3500000, 3100000, 3300000 };
	static const unsigned int want_flags[] = { CPUFREQ_BOOST_FREQ, 0,
						   CPUFREQ_BOOST_FREQ };
	char why[VCPUFREQ_WHY_LEN] = "";
	struct vcpufreq_table *t;
	unsigned int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, vcpufreq_table_parse(t, "3500000b,3100000,3300000b",
						   why, sizeof(why)), 0);
	KUNIT_ASSERT_EQ(test, t->nr, ARRAY_SIZE(want_khz));
	for (i = 0; i < t->nr; i++) {
		KUNIT_EXPECT_EQ(test, t->entries[i].frequency, want_khz[i]);
		KUNIT_EXPECT_EQ(test, t->entries[i].flags, want_flags[i]);
	}
}

/*
 * A preset's table: the leading nr_boost entries are boost states (the
 * xeon-e5-2687w-v3 shape, shortened), and an oversized one is refused
 * before anything is written past the table.
 */
static void vcpufreq_table_fill_test(struct kunit *test)
{
	static const unsigned int xeon[] = { 3500000, 3100000, 3000000,
					     1200000 };
	unsigned int big[VCPUFREQ_MAX_STATES + 1];
	char why[VCPUFREQ_WHY_LEN] = "";
	struct vcpufreq_table *t;
	unsigned int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, vcpufreq_table_fill(t, xeon, ARRAY_SIZE(xeon), 1,
						  why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, t->nr, ARRAY_SIZE(xeon));
	KUNIT_EXPECT_EQ(test, t->entries[0].flags, CPUFREQ_BOOST_FREQ);
	KUNIT_EXPECT_EQ(test, t->entries[1].flags, 0U);
	KUNIT_EXPECT_EQ(test, t->max_p_khz, 3100000U);
	KUNIT_EXPECT_EQ(test, t->max_p_idx, 1U);
	KUNIT_EXPECT_EQ(test, t->max_boost_khz, 3500000U);

	for (i = 0; i < ARRAY_SIZE(big); i++)
		big[i] = 1000000 + i;
	KUNIT_EXPECT_EQ(test, vcpufreq_table_fill(t, big, ARRAY_SIZE(big), 0,
						  why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "more than 32 entries");
	KUNIT_EXPECT_EQ(test, t->nr, 0U);
}

/* A reason longer than the buffer is cut, never written past it. */
static void vcpufreq_table_why_len_test(struct kunit *test)
{
	char why[12 + 1];
	struct vcpufreq_table *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	memset(why, 'x', sizeof(why));
	KUNIT_EXPECT_EQ(test, vcpufreq_table_parse(t, "2000000b,2250000", why,
						   sizeof(why) - 1), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "boost entry");
	KUNIT_EXPECT_EQ(test, why[sizeof(why) - 1], 'x');
}

static struct kunit_case vcpufreq_table_cases[] = {
	KUNIT_CASE_PARAM(vcpufreq_table_parse_test, parse_gen_params),
	KUNIT_CASE(vcpufreq_table_parse_flags_test),
	KUNIT_CASE(vcpufreq_table_fill_test),
	KUNIT_CASE(vcpufreq_table_why_len_test),
	{}
};

static struct kunit_suite vcpufreq_table_suite = {
	.name = "vcpufreq_table",
	.test_cases = vcpufreq_table_cases,
};

kunit_test_suites(&vcpufreq_table_suite);
