// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_iowait: the iowait boost of sugov_inv_iowait.h
 * (sugov_inv_iowait_note() and sugov_inv_iowait_apply()), schedutil's
 * rules: the first I/O-wait wake-up boosts util to 1/8 of full, each
 * further one (at most one per evaluation) doubles it up to full, an
 * evaluation without one halves it and below 1/8 it stops; more than a
 * tick without a hook call on that CPU drops it.
 *
 * Each row is a sequence of hook calls on one CPU and the boost each
 * evaluation must use, written as the fraction of full it stands for
 * ('8' = 1/8, '1' = full, '-' = none).  The governor calls note() with the
 * time since the CPU's previous hook call and then, for its own CPU,
 * apply() with 0 (its last update is now); for another CPU of a shared
 * policy, apply() with that CPU's own silence.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - first boost at 1/4 instead of 1/8
 *  - doubling not capped at full
 *  - two wake-ups in one evaluation double twice (pending flag ignored)
 *  - no halving without a wake-up (the boost sticks)
 *  - halving continues below 1/8 instead of stopping
 *  - silence compared with >= instead of > one tick
 *  - apply() keeping the boost of a CPU silent for more than a tick
 *  - a wake-up after silence keeps the old boost instead of restarting
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include "compat.h"
#include "sugov_inv_iowait.h"

/*
 * Hook calls:
 *   i  I/O-wait wake-up a quarter tick after the previous call, evaluated
 *   n  ordinary call a quarter tick later, evaluated
 *   I  I/O-wait wake-up a quarter tick later, not evaluated (rate limit)
 *   e  I/O-wait wake-up exactly one tick later, evaluated
 *   S  I/O-wait wake-up after two ticks of silence, evaluated
 *   s  ordinary call after two ticks of silence, evaluated
 *   p  no call: another CPU of the policy evaluates after two ticks
 */
struct iowait_case {
	const char *name;
	const char *calls;
	const char *boosts;	/* one per evaluation: denominator or '-' */
};

static const struct iowait_case iowait_cases[] = {
	{
		.name = "wake-ups double the boost: 1/8 1/4 1/2 1",
		.calls = "iiii", .boosts = "8421",
	}, {
		.name = "the boost stops at full",
		.calls = "iiiiii", .boosts = "842111",
	}, {
		.name = "without wake-ups it halves, and stops below 1/8",
		.calls = "iiiinnnn", .boosts = "8421248-",
	}, {
		.name = "an ordinary call never starts a boost",
		.calls = "nnn", .boosts = "---",
	}, {
		.name = "two wake-ups between evaluations double once",
		.calls = "iIi", .boosts = "84",
	}, {
		.name = "a wake-up after halving doubles again",
		.calls = "iiinin", .boosts = "842424",
	}, {
		.name = "more than a tick of silence resets it",
		.calls = "iiiis", .boosts = "8421-",
	}, {
		.name = "a wake-up after silence restarts at 1/8",
		.calls = "iiiiS", .boosts = "84218",
	}, {
		.name = "exactly one tick later is not silence",
		.calls = "iie", .boosts = "842",
	}, {
		.name = "a silent CPU's boost is dropped by its policy",
		.calls = "iiipn", .boosts = "842--",
	},
};

KUNIT_ARRAY_PARAM_DESC(iowait, iowait_cases, name);

/* The boost a character of .boosts stands for, in capacity units */
static u32 boost_of(char c)
{
	return c == '-' ? 0 : SCHED_CAPACITY_SCALE / (c - '0');
}

static void iowait_sequence(struct kunit *test)
{
	const struct iowait_case *c = test->param_value;
	const u64 quarter = TICK_NSEC / 4, silence = 2 * TICK_NSEC;
	struct sugov_inv_iowait io = { };
	const char *want = c->boosts;
	const char *call;

	for (call = c->calls; *call; call++) {
		bool evaluate = true;
		u64 since = 0;
		u32 got;

		switch (*call) {
		case 'i':
			sugov_inv_iowait_note(&io, quarter, true);
			break;
		case 'n':
			sugov_inv_iowait_note(&io, quarter, false);
			break;
		case 'I':
			sugov_inv_iowait_note(&io, quarter, true);
			evaluate = false;
			break;
		case 'e':
			sugov_inv_iowait_note(&io, TICK_NSEC, true);
			break;
		case 'S':
			sugov_inv_iowait_note(&io, silence, true);
			break;
		case 's':
			sugov_inv_iowait_note(&io, silence, false);
			break;
		case 'p':
			since = silence;
			break;
		default:
			KUNIT_FAIL(test, "bad call '%c' in the table", *call);
			return;
		}
		if (!evaluate)
			continue;

		KUNIT_ASSERT_NE_MSG(test, *want, '\0', "table: too few boosts");
		got = sugov_inv_iowait_apply(&io, since);
		KUNIT_EXPECT_EQ_MSG(test, got, boost_of(*want),
				    "call %td ('%c') of \"%s\"", call - c->calls,
				    *call, c->calls);
		want++;
	}
	KUNIT_EXPECT_EQ_MSG(test, *want, '\0', "table: too many boosts");
}

static struct kunit_case sugov_inv_iowait_test_cases[] = {
	KUNIT_CASE_PARAM(iowait_sequence, iowait_gen_params),
	{}
};

static struct kunit_suite sugov_inv_iowait_test_suite = {
	.name = "sugov_inv_iowait",
	.test_cases = sugov_inv_iowait_test_cases,
};

kunit_test_suites(&sugov_inv_iowait_test_suite);
