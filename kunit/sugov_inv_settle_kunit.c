// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_settle: sugov_inv_settle() of sugov_inv_rules.h,
 * the two rules between a decision's raw target and the frequency sent.
 * The resolve cache (schedutil's get_next_freq()): an unchanged raw
 * target reuses the last request without calling the driver's resolver.
 * The busy-CPU hold (schedutil's sugov_cpu_is_busy() rule): on a
 * single-CPU policy whose CPU ran through, a lower table frequency is not
 * taken; the cache then keeps its old raw target.  A pending limits
 * change neither reuses nor holds.
 *
 * The resolver here is a table of the EPYC 7742's P-states as
 * acpi-cpufreq lists them (1500, 2000, 2250 MHz): the lowest at or above
 * the target, else the highest.  It counts its calls, so each row also
 * says whether the driver was asked.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - the cache reused after a limits change (force ignored by the cache)
 *  - a hold after a limits change (force ignored by the hold)
 *  - the hold taken at an equal frequency (< flipped to <=)
 *  - the held evaluation's raw target cached
 *  - the cache never used (every evaluation resolves)
 */
#include <kunit/test.h>

#include "compat.h"
#include "sugov_inv_rules.h"

static const unsigned int epyc_7742_khz[] = { 1500000, 2000000, 2250000 };
static unsigned int resolve_calls;

static unsigned int table_resolve(struct cpufreq_policy *policy,
				  unsigned int target_khz)
{
	unsigned int i;

	resolve_calls++;
	for (i = 0; i < ARRAY_SIZE(epyc_7742_khz); i++)
		if (epyc_7742_khz[i] >= target_khz)
			return epyc_7742_khz[i];
	return epyc_7742_khz[ARRAY_SIZE(epyc_7742_khz) - 1];
}

/*
 * One evaluation: its inputs (struct sugov_inv_settle's in fields) and
 * what must come out: the frequency, held or not, the cached raw target,
 * and whether the resolver was called.
 */
struct settle_case {
	const char *name;
	u32 raw_khz;
	u32 last_khz;
	u32 cached_raw_khz;
	bool force;
	bool may_hold;
	u32 want_khz;
	bool want_held;
	u32 want_cached_khz;
	bool want_resolved;
};

static const struct settle_case settle_cases[] = {
	{
		.name = "unchanged raw target: last request reused, no resolve",
		.raw_khz = 1800000, .cached_raw_khz = 1800000,
		.last_khz = 2000000,
		.want_khz = 2000000, .want_cached_khz = 1800000,
	}, {
		.name = "unchanged raw target, limits changed: resolved afresh",
		.raw_khz = 1800000, .cached_raw_khz = 1800000,
		.last_khz = 2250000, .force = true,
		.want_khz = 2000000, .want_cached_khz = 1800000,
		.want_resolved = true,
	}, {
		.name = "higher raw target: resolved and cached",
		.raw_khz = 2100000, .cached_raw_khz = 1800000,
		.last_khz = 2000000,
		.want_khz = 2250000, .want_cached_khz = 2100000,
		.want_resolved = true,
	}, {
		.name = "lower raw target, the CPU idled: lower frequency",
		.raw_khz = 1400000, .cached_raw_khz = 1800000,
		.last_khz = 2000000,
		.want_khz = 1500000, .want_cached_khz = 1400000,
		.want_resolved = true,
	}, {
		.name = "lower raw target, the CPU ran through: held, old cache",
		.raw_khz = 1400000, .cached_raw_khz = 1800000,
		.last_khz = 2000000, .may_hold = true,
		.want_khz = 2000000, .want_held = true,
		.want_cached_khz = 1800000, .want_resolved = true,
	}, {
		.name = "lower raw target, ran through, limits changed: no hold",
		.raw_khz = 1400000, .cached_raw_khz = 1800000,
		.last_khz = 2000000, .may_hold = true, .force = true,
		.want_khz = 1500000, .want_cached_khz = 1400000,
		.want_resolved = true,
	}, {
		.name = "new raw target, same table entry, ran through: no hold",
		.raw_khz = 1900000, .cached_raw_khz = 1800000,
		.last_khz = 2000000, .may_hold = true,
		.want_khz = 2000000, .want_cached_khz = 1900000,
		.want_resolved = true,
	}, {
		.name = "higher raw target, ran through: taken",
		.raw_khz = 2200000, .cached_raw_khz = 1800000,
		.last_khz = 2000000, .may_hold = true,
		.want_khz = 2250000, .want_cached_khz = 2200000,
		.want_resolved = true,
	}, {
		.name = "raw target above the table: its top",
		.raw_khz = 4250000, .cached_raw_khz = 1800000,
		.last_khz = 2000000,
		.want_khz = 2250000, .want_cached_khz = 4250000,
		.want_resolved = true,
	}, {
		.name = "fresh start (nothing requested or cached), util 0: last stands",
		.want_khz = 0, .want_cached_khz = 0,
	}, {
		.name = "fresh start, first raw target: resolved, nothing to hold",
		.raw_khz = 1200000, .may_hold = true,
		.want_khz = 1500000, .want_cached_khz = 1200000,
		.want_resolved = true,
	},
};

KUNIT_ARRAY_PARAM_DESC(settle, settle_cases, name);

static void settle_follows_rules(struct kunit *test)
{
	const struct settle_case *c = test->param_value;
	struct sugov_inv_settle s = {
		.raw_khz = c->raw_khz,
		.last_khz = c->last_khz,
		.cached_raw_khz = c->cached_raw_khz,
		.force = c->force,
		.may_hold = c->may_hold,
	};

	resolve_calls = 0;
	sugov_inv_settle(&s, NULL, table_resolve);

	KUNIT_EXPECT_EQ(test, s.next_khz, c->want_khz);
	KUNIT_EXPECT_EQ(test, s.held, c->want_held);
	KUNIT_EXPECT_EQ(test, s.cached_raw_khz, c->want_cached_khz);
	KUNIT_EXPECT_EQ(test, resolve_calls, c->want_resolved ? 1U : 0U);
}

static struct kunit_case sugov_inv_settle_test_cases[] = {
	KUNIT_CASE_PARAM(settle_follows_rules, settle_gen_params),
	{}
};

static struct kunit_suite sugov_inv_settle_test_suite = {
	.name = "sugov_inv_settle",
	.test_cases = sugov_inv_settle_test_cases,
};

kunit_test_suites(&sugov_inv_settle_test_suite);
