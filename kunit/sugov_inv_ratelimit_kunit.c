// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_ratelimit: when the governor evaluates a policy
 * (sugov_inv_eval_due() and sugov_inv_update_next() of sugov_inv_rules.h),
 * schedutil's rules: at most one evaluation per rate_limit_us, counted
 * from the last evaluation that changed the frequency (an evaluation that
 * changed nothing does not restart the period); a
 * change of scaling_min_freq/scaling_max_freq is applied at the next hook
 * call whatever the rate limit says; a clock that reads earlier than the
 * last evaluation (another CPU's clock in a shared policy) is not a
 * reason to evaluate.
 *
 * Mutations this suite catches (each run once by hand):
 *  - >= flipped to > (an evaluation exactly rate_limit_us later is late)
 *  - the limits-change bypass dropped
 *  - elapsed time computed unsigned (a backwards clock evaluates at once)
 *  - delay compared in us against ns (evaluates 1000x too often)
 *  - sugov_inv_update_next() true for an unchanged frequency (every
 *    evaluation restarts the period: a load step waits a full period)
 *  - the limits-change force dropped from sugov_inv_update_next()
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/time64.h>

#include "compat.h"
#include "sugov_inv_rules.h"

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

KUNIT_ARRAY_PARAM_DESC(ratelimit, ratelimit_cases, name);

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

/*
 * A timeline of hook calls on one policy with a 10 ms rate limit: what
 * each evaluation chose, and whether the rule says it is due and sent.
 * A step: evaluations at 0 (change), 10 ms (no change), and a load step
 * at 11 ms, which is acted on at once because the 10 ms evaluation did
 * not restart the period; under the old rule it would wait until 20 ms.
 */
struct ratelimit_step {
	u64 now_ms;
	u32 next_khz;
	bool limits_changed;
	bool due;
	bool sent;
};

static const struct ratelimit_step ratelimit_timeline[] = {
	{ .now_ms = 100, .next_khz = 1500000, .due = true, .sent = true },
	{ .now_ms = 105, .next_khz = 2250000, .due = false },
	{ .now_ms = 110, .next_khz = 1500000, .due = true, .sent = false },
	/* the load step: due at once, the period counts from 100 */
	{ .now_ms = 111, .next_khz = 2250000, .due = true, .sent = true },
	{ .now_ms = 115, .next_khz = 1500000, .due = false },
	{ .now_ms = 121, .next_khz = 2250000, .due = true, .sent = false },
	/* unchanged but a limits change: sent, and restarts the period */
	{ .now_ms = 122, .next_khz = 2250000, .limits_changed = true,
	  .due = true, .sent = true },
	{ .now_ms = 131, .next_khz = 1500000, .due = false },
	{ .now_ms = 132, .next_khz = 1500000, .due = true, .sent = true },
};

static void update_next_restarts_on_change_only(struct kunit *test)
{
	const s64 delay_ns = 10 * NSEC_PER_MSEC;
	u64 last_freq_update_ns = 0;
	u32 last_khz = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ratelimit_timeline); i++) {
		const struct ratelimit_step *st = &ratelimit_timeline[i];
		u64 now_ns = st->now_ms * NSEC_PER_MSEC;
		bool due = sugov_inv_eval_due(now_ns, last_freq_update_ns,
					      delay_ns, st->limits_changed);
		bool sent = false;

		KUNIT_EXPECT_EQ_MSG(test, due, st->due, "step %u at %llu ms",
				    i, st->now_ms);
		if (due)
			sent = sugov_inv_update_next(st->next_khz, last_khz,
						     st->limits_changed);
		KUNIT_EXPECT_EQ_MSG(test, sent, st->sent, "step %u at %llu ms",
				    i, st->now_ms);
		/* What sugov_inv_commit() does with a request */
		if (sent) {
			last_khz = st->next_khz;
			last_freq_update_ns = now_ns;
		}
	}
}

/* Unchanged and not forced: nothing to send; forced or changed: send */
static void update_next_is_change_or_force(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, sugov_inv_update_next(2000000, 2000000, false));
	KUNIT_EXPECT_TRUE(test, sugov_inv_update_next(2000000, 2000000, true));
	KUNIT_EXPECT_TRUE(test, sugov_inv_update_next(1500000, 2000000, false));
	KUNIT_EXPECT_TRUE(test, sugov_inv_update_next(2250000, 2000000, false));
}

static struct kunit_case sugov_inv_ratelimit_test_cases[] = {
	KUNIT_CASE_PARAM(eval_due_follows_rule, ratelimit_gen_params),
	KUNIT_CASE(update_next_restarts_on_change_only),
	KUNIT_CASE(update_next_is_change_or_force),
	{}
};

static struct kunit_suite sugov_inv_ratelimit_test_suite = {
	.name = "sugov_inv_ratelimit",
	.test_cases = sugov_inv_ratelimit_test_cases,
};

kunit_test_suites(&sugov_inv_ratelimit_test_suite);
