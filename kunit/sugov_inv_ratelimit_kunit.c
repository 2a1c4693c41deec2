// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_ratelimit: when the governor evaluates a policy
 * (sugov_inv_eval_due() of sugov_inv.h), schedutil's rules: at most one
 * evaluation per rate_limit_us, counted from the previous evaluation; a
 * change of scaling_min_freq/scaling_max_freq is applied at the next hook
 * call whatever the rate limit says; a clock that reads earlier than the
 * last evaluation (another CPU's clock in a shared policy) is not a
 * reason to evaluate.
 *
 * Built only once sugov_inv.h provides sugov_inv_eval_due() (kunit/Kbuild
 * checks); until then the rate limit lives inside sugov_inv.c and only the
 * selftests reach it.
 *
 * Mutations this suite is written to catch (not run yet: it builds only
 * once sugov_inv_eval_due() exists):
 *  - >= flipped to > (an evaluation exactly rate_limit_us later is late)
 *  - the limits-change bypass dropped
 *  - elapsed time computed unsigned (a backwards clock evaluates at once)
 *  - delay compared in us against ns (evaluates 1000x too often)
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "sugov_inv.h"

/*
 * @elapsed_ns: hook time minus the last evaluation (negative: the clock
 * read earlier); @last_ns: when the last evaluation happened, to test the
 * difference across a u64 wrap.
 */
struct ratelimit_case {
	const char *name;
	u64 last_ns;
	s64 elapsed_ns;
	u32 rate_limit_us;
	bool limits_changed;
};

static const struct ratelimit_case ratelimit_cases[] = {
	{
		.name = "10 ms limit, 9.999999 ms later: not yet",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = 10 * NSEC_PER_MSEC - 1,
		.rate_limit_us = 10000,
	}, {
		.name = "10 ms limit, exactly 10 ms later: due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = 10 * NSEC_PER_MSEC,
		.rate_limit_us = 10000,
	}, {
		.name = "10 ms limit, 11 ms later: due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = 11 * NSEC_PER_MSEC,
		.rate_limit_us = 10000,
	}, {
		.name = "10 ms limit, 1 us later but limits changed: due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = NSEC_PER_USEC,
		.rate_limit_us = 10000, .limits_changed = true,
	}, {
		.name = "1 s limit (maximum), 0.5 s later: not yet",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = NSEC_PER_SEC / 2,
		.rate_limit_us = 1000000,
	}, {
		.name = "1 s limit, 0.5 s later but limits changed: due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = NSEC_PER_SEC / 2,
		.rate_limit_us = 1000000, .limits_changed = true,
	}, {
		.name = "1 s limit, 1 s later: due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = NSEC_PER_SEC,
		.rate_limit_us = 1000000,
	}, {
		.name = "no limit (0): due at once",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = 0,
		.rate_limit_us = 0,
	}, {
		.name = "another CPU's clock 1 us behind: not due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = -(s64)NSEC_PER_USEC,
		.rate_limit_us = 10000,
	}, {
		.name = "clock behind, limits changed: due",
		.last_ns = 5 * NSEC_PER_SEC, .elapsed_ns = -(s64)NSEC_PER_USEC,
		.rate_limit_us = 10000, .limits_changed = true,
	}, {
		.name = "20 ms later across a u64 wrap: due",
		.last_ns = U64_MAX - 5 * NSEC_PER_MSEC, .elapsed_ns = 20 * NSEC_PER_MSEC,
		.rate_limit_us = 10000,
	}, {
		.name = "2 ms later across a u64 wrap: not yet",
		.last_ns = U64_MAX - NSEC_PER_MSEC, .elapsed_ns = 2 * NSEC_PER_MSEC,
		.rate_limit_us = 10000,
	},
};

static void ratelimit_case_desc(const struct ratelimit_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ratelimit, ratelimit_cases, ratelimit_case_desc);

static void eval_due_follows_rule(struct kunit *test)
{
	const struct ratelimit_case *c = test->param_value;
	s64 delay_ns = (s64)c->rate_limit_us * NSEC_PER_USEC;
	u64 now_ns = c->last_ns + (u64)c->elapsed_ns;
	/* The rule: a limits change, or at least rate_limit_us since the last */
	bool want = c->limits_changed || c->elapsed_ns >= delay_ns;

	KUNIT_EXPECT_EQ(test, sugov_inv_eval_due(now_ns, c->last_ns, delay_ns,
						 c->limits_changed), want);
}

static struct kunit_case sugov_inv_ratelimit_test_cases[] = {
	KUNIT_CASE_PARAM(eval_due_follows_rule, ratelimit_gen_params),
	{}
};

static struct kunit_suite sugov_inv_ratelimit_test_suite = {
	.name = "sugov_inv_ratelimit",
	.test_cases = sugov_inv_ratelimit_test_cases,
};

kunit_test_suites(&sugov_inv_ratelimit_test_suite);
