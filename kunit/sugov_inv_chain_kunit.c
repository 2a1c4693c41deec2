// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_chain: the chain rule of sugov_inv_chain.h
 * (Documentation/design.rst, "Chains of CPUs").  Detection: a CPU that
 * wakes another CPU's task and idles soon after, again and again (at
 * least once every two windows on average), has a live link to that
 * CPU; one that wakes a kworker now and then, one whose wake-ups stay on
 * its own CPU, or one woken by a timer once in a long while has none.
 * Two CPUs form a chain only when their live links point at each other.
 * Combination: the two busy fractions summed, capped at
 * 1024, never below the CPU's own util.  Expiry: a link dies two windows
 * after the last hand-off, and one hand-off after a pause does not revive
 * it.
 *
 * The detection rows are event sequences on CPU 0, with the default
 * 10 ms window: an idle entry every period, a wake-up of a task of
 * another CPU some lead before every Nth of them.
 *
 * Mutations this suite catches (each tried on the suite's cases compiled
 * for the host with a stand-in for KUnit's macros, before its first run
 * in the guest):
 *  - the share test of a live link dropped, or the gap test
 *  - the gap bound at 3 windows instead of 2
 *  - the expiry at 3 windows instead of 2
 *  - a chain without the mutual check (B's target not A)
 *  - the sum not capped at 1024, or allowed below the CPU's own util
 *  - an unknown partner (0) still raising util to the CPU's own busy
 *  - an idle entry any time after a wake-up counted as a hand-off
 *  - a wake-up of the CPU's own task counted
 *  - a gap average without history starting at 0 instead of the cap
 *  - a wake-up not consumed by the idle entry that judged it
 *
 * The group (a CPU that hands off but is in no pair): membership without
 * its share or age test, or with a gap test; a component that joins
 * through a non-member, or takes every member (chain-results.txt section
 * 15's first experiment), or a member's root not looked up (the long
 * path).
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "compat.h"
#include "sugov_inv_chain.h"

#define WINDOW_NS	(10 * NSEC_PER_MSEC)
/* Any start away from 0: the record's times are plain clock values */
#define T0_NS		NSEC_PER_SEC

struct chain_detect_case {
	const char *name;
	unsigned int idle_entries;
	u64 period_ns;
	unsigned int wake_every;	/* 0: no wake-up at all */
	u64 lead_ns;			/* wake-up this long before the entry */
	int wakee_cpu;
	u64 check_after_ns;		/* after the last idle entry */
	bool want_live;
};

static const struct chain_detect_case chain_detect_cases[] = {
	{
		.name = "ping-pong, a hand-off every 100 us: live",
		.idle_entries = 200, .period_ns = 100 * NSEC_PER_USEC,
		.wake_every = 1, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 1,
		.want_live = true,
	}, {
		.name = "a hand-off every 9 ms (under a window): live",
		.idle_entries = 50, .period_ns = 9 * NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = NSEC_PER_MSEC, .wakee_cpu = 1,
		.want_live = true,
	}, {
		.name = "a hand-off every 19 ms (under two windows): live",
		.idle_entries = 50, .period_ns = 19 * NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = NSEC_PER_MSEC, .wakee_cpu = 1,
		.want_live = true,
	}, {
		.name = "a hand-off every 21 ms (over two windows): not live",
		.idle_entries = 50, .period_ns = 21 * NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = NSEC_PER_MSEC, .wakee_cpu = 1,
	}, {
		.name = "three hand-offs only: no history yet, not live",
		.idle_entries = 3, .period_ns = 100 * NSEC_PER_USEC,
		.wake_every = 1, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 1,
	}, {
		.name = "a kworker woken before every 4th idle entry: not live",
		.idle_entries = 200, .period_ns = NSEC_PER_MSEC,
		.wake_every = 4, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 1,
	}, {
		.name = "a kworker woken before each idle entry, 50 ms apart: not live",
		.idle_entries = 50, .period_ns = 50 * NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 1,
	}, {
		.name = "a periodic task waking its own CPU's tasks: not live",
		.idle_entries = 200, .period_ns = NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 0,
	}, {
		.name = "a periodic task waking nothing: not live",
		.idle_entries = 200, .period_ns = NSEC_PER_MSEC,
	}, {
		.name = "idle entries 11 ms after each wake-up: no hand-off",
		.idle_entries = 100, .period_ns = 12 * NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = 11 * NSEC_PER_MSEC, .wakee_cpu = 1,
	}, {
		.name = "idle system, a timer wakes another CPU's task every 100 ms: not live",
		.idle_entries = 50, .period_ns = 100 * NSEC_PER_MSEC,
		.wake_every = 1, .lead_ns = 10 * NSEC_PER_USEC, .wakee_cpu = 1,
	}, {
		.name = "ping-pong, checked 2 windows after the last hand-off: live",
		.idle_entries = 200, .period_ns = 100 * NSEC_PER_USEC,
		.wake_every = 1, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 1,
		.check_after_ns = 2 * WINDOW_NS, .want_live = true,
	}, {
		.name = "ping-pong, checked 2 windows + 1 ns after: expired",
		.idle_entries = 200, .period_ns = 100 * NSEC_PER_USEC,
		.wake_every = 1, .lead_ns = 20 * NSEC_PER_USEC, .wakee_cpu = 1,
		.check_after_ns = 2 * WINDOW_NS + 1,
	},
};

KUNIT_ARRAY_PARAM_DESC(chain_detect, chain_detect_cases, name);

/* Play @c's events on CPU 0's record; returns the last idle entry's time */
static u64 chain_play(const struct chain_detect_case *c,
		      struct sugov_inv_chain *rec)
{
	u64 t = T0_NS;
	unsigned int i;

	sugov_inv_chain_reset(rec);
	for (i = 0; i < c->idle_entries; i++) {
		t = T0_NS + (u64)(i + 1) * c->period_ns;
		if (c->wake_every && i % c->wake_every == 0)
			sugov_inv_chain_waking(rec, t - c->lead_ns, 0,
					       c->wakee_cpu);
		sugov_inv_chain_idle(rec, t, WINDOW_NS);
	}
	return t;
}

static void chain_detects(struct kunit *test)
{
	const struct chain_detect_case *c = test->param_value;
	struct sugov_inv_chain rec;
	u64 last = chain_play(c, &rec);

	KUNIT_EXPECT_EQ(test, sugov_inv_chain_live(&rec, last + c->check_after_ns,
						   WINDOW_NS),
			c->want_live);
	if (c->want_live)
		KUNIT_EXPECT_EQ(test, rec.target_cpu, c->wakee_cpu);
	/* The average stays within the cap whatever the gaps */
	if (rec.target_cpu != SUGOV_INV_CHAIN_NO_CPU)
		KUNIT_EXPECT_LE(test, rec.gap_avg_ns,
				SUGOV_INV_CHAIN_GAP_CAP_WINDOWS * WINDOW_NS);
}

/* A live link with the rule off (window 0) is not live */
static void chain_off(struct kunit *test)
{
	struct sugov_inv_chain rec;
	u64 last = chain_play(&chain_detect_cases[0], &rec);

	KUNIT_ASSERT_TRUE(test, sugov_inv_chain_live(&rec, last, WINDOW_NS));
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_live(&rec, last, 0));
}

/*
 * Expiry, then a restart: a link dies 2 windows after its last hand-off;
 * one hand-off after a 100 ms pause leaves it dead (the pause lifts the
 * gap average over a window), and steady hand-offs make it live again.
 */
static void chain_expires(struct kunit *test)
{
	struct sugov_inv_chain rec;
	u64 t = chain_play(&chain_detect_cases[0], &rec);
	unsigned int i;

	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_live(&rec, t + WINDOW_NS,
						     WINDOW_NS));
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_live(&rec, t + 2 * WINDOW_NS,
						     WINDOW_NS));
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_live(&rec, t + 2 * WINDOW_NS + 1,
						      WINDOW_NS));

	t += 100 * NSEC_PER_MSEC;
	sugov_inv_chain_waking(&rec, t - 20 * NSEC_PER_USEC, 0, 1);
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_idle(&rec, t, WINDOW_NS));
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_live(&rec, t, WINDOW_NS));

	for (i = 0; i < 20; i++) {
		t += 100 * NSEC_PER_USEC;
		sugov_inv_chain_waking(&rec, t - 20 * NSEC_PER_USEC, 0, 1);
		sugov_inv_chain_idle(&rec, t, WINDOW_NS);
	}
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_live(&rec, t, WINDOW_NS));
}

/*
 * A wake-up is judged by the next idle entry only, and only within a
 * window; the first hand-off's gap counts as the cap (no history).
 */
static void chain_idle_judges_once(struct kunit *test)
{
	struct sugov_inv_chain rec;
	u64 t = T0_NS;

	sugov_inv_chain_reset(&rec);
	sugov_inv_chain_waking(&rec, t, 0, 1);
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_idle(&rec, t + 1000,
						     WINDOW_NS));
	KUNIT_EXPECT_EQ(test, rec.gap_avg_ns,
			SUGOV_INV_CHAIN_GAP_CAP_WINDOWS * WINDOW_NS);
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_idle(&rec, t + 2000,
						      WINDOW_NS));
	KUNIT_EXPECT_EQ(test, rec.target_cpu, 1);

	/* A wake-up of the CPU's own task is not one of another CPU's */
	sugov_inv_chain_waking(&rec, t + 3000, 0, 0);
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_idle(&rec, t + 4000,
						      WINDOW_NS));

	/* Exactly one window after the wake-up: a hand-off; one ns more: not */
	t += NSEC_PER_SEC;
	sugov_inv_chain_waking(&rec, t, 0, 2);
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_idle(&rec, t + WINDOW_NS,
						     WINDOW_NS));
	KUNIT_EXPECT_EQ(test, rec.target_cpu, 2);
	t += NSEC_PER_SEC;
	sugov_inv_chain_waking(&rec, t, 0, 1);
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_idle(&rec, t + WINDOW_NS + 1,
						      WINDOW_NS));
	KUNIT_EXPECT_EQ(test, rec.target_cpu, 2);
}

/* Records made by hand: which pairs form a chain */
struct chain_link_case {
	const char *name;
	int a_target, b_target, b_cpu;
	bool a_stale, b_stale;	/* last hand-off 3 windows before now */
	bool b_kworker;		/* B's share of hand-offs 1/4 */
	bool want;
};

static const struct chain_link_case chain_link_cases[] = {
	{
		.name = "A and B hand off to each other: a chain",
		.a_target = 1, .b_target = 0, .b_cpu = 1, .want = true,
	}, {
		.name = "A hands off to B, B to C: no chain",
		.a_target = 1, .b_target = 2, .b_cpu = 1,
	}, {
		.name = "A wakes B's kworker, B hands nothing back: no chain",
		.a_target = 1, .b_target = SUGOV_INV_CHAIN_NO_CPU, .b_cpu = 1,
	}, {
		.name = "B's link points at A but its share is 1/4: no chain",
		.a_target = 1, .b_target = 0, .b_cpu = 1, .b_kworker = true,
	}, {
		.name = "B's last hand-off 3 windows ago: no chain",
		.a_target = 1, .b_target = 0, .b_cpu = 1, .b_stale = true,
	}, {
		.name = "A's last hand-off 3 windows ago: no chain",
		.a_target = 1, .b_target = 0, .b_cpu = 1, .a_stale = true,
	}, {
		.name = "a CPU is not its own partner",
		.a_target = 0, .b_target = 0, .b_cpu = 0,
	},
};

KUNIT_ARRAY_PARAM_DESC(chain_link, chain_link_cases, name);

static void chain_record(struct sugov_inv_chain *rec, int target, bool stale,
			 bool kworker, u64 now)
{
	sugov_inv_chain_reset(rec);
	rec->target_cpu = target;
	rec->handoff_ns = stale ? now - 3 * WINDOW_NS : now - NSEC_PER_MSEC;
	rec->gap_avg_ns = 200 * NSEC_PER_USEC;
	rec->share = kworker ? SUGOV_INV_CHAIN_SHARE_ONE / 4 :
			       SUGOV_INV_CHAIN_SHARE_ONE - 8;
}

static void chain_links(struct kunit *test)
{
	const struct chain_link_case *c = test->param_value;
	struct sugov_inv_chain a, b;
	u64 now = T0_NS;

	chain_record(&a, c->a_target, c->a_stale, false, now);
	chain_record(&b, c->b_target, c->b_stale, c->b_kworker, now);
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_linked(&a, 0, &b, c->b_cpu, now,
						     WINDOW_NS),
			c->want);
}

struct chain_util_case {
	const char *name;
	u32 own, own_busy, partner_busy, want;
};

static const struct chain_util_case chain_util_cases[] = {
	{
		.name = "two halves: full",
		.own = 512, .own_busy = 512, .partner_busy = 512, .want = 1024,
	}, {
		.name = "over full: capped at 1024",
		.own = 700, .own_busy = 700, .partner_busy = 600, .want = 1024,
	}, {
		.name = "the sum, under full",
		.own = 300, .own_busy = 300, .partner_busy = 200, .want = 500,
	}, {
		.name = "own util above the busy sum (boost): own",
		.own = 900, .own_busy = 400, .partner_busy = 300, .want = 900,
	}, {
		.name = "partner unknown or stale (0): own",
		.own = 250, .own_busy = 300, .partner_busy = 0, .want = 250,
	}, {
		.name = "invariant util below busy: the busy sum",
		.own = 200, .own_busy = 400, .partner_busy = 400, .want = 800,
	}, {
		.name = "largest inputs: no overflow",
		.own = 1024, .own_busy = U32_MAX, .partner_busy = U32_MAX,
		.want = 1024,
	},
};

KUNIT_ARRAY_PARAM_DESC(chain_util, chain_util_cases, name);

static void chain_combines(struct kunit *test)
{
	const struct chain_util_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, sugov_inv_chain_util(c->own, c->own_busy,
						   c->partner_busy),
			c->want);
}

/* A partner's estimate counts up to period + SUGOV_INV_STALE_NS old */
static void chain_partner_freshness(struct kunit *test)
{
	u64 end = T0_NS, period = WINDOW_NS;

	KUNIT_EXPECT_EQ(test, sugov_inv_chain_fresh_busy(500, end, end, period),
			500U);
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_fresh_busy(500,
							 end + period + SUGOV_INV_STALE_NS,
							 end, period), 500U);
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_fresh_busy(500,
							 end + period + SUGOV_INV_STALE_NS + 1,
							 end, period), 0U);
	/* A window that ended after now (another CPU's clock): current */
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_fresh_busy(500, end - 1000, end,
							 period), 500U);
}

/*
 * Group membership: hands off at least every other idle entry, the last
 * time within 4 windows; no gap test.
 */
static void chain_group_member(struct kunit *test)
{
	struct sugov_inv_chain c;
	u64 now = T0_NS;

	chain_record(&c, 1, false, false, now);
	c.gap_avg_ns = 3 * WINDOW_NS;	/* too slow for a pair's link */
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_live(&c, now, WINDOW_NS));
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_member(&c, now, WINDOW_NS));
	c.handoff_ns = now - 4 * WINDOW_NS;
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_member(&c, now, WINDOW_NS));
	c.handoff_ns = now - 4 * WINDOW_NS - 1;
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_member(&c, now, WINDOW_NS));
	c.handoff_ns = now;
	c.share = SUGOV_INV_CHAIN_SHARE_MIN - 1;
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_member(&c, now, WINDOW_NS));
	c.share = SUGOV_INV_CHAIN_SHARE_MIN;
	KUNIT_EXPECT_TRUE(test, sugov_inv_chain_member(&c, now, WINDOW_NS));
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_member(&c, now, 0));
	c.target_cpu = SUGOV_INV_CHAIN_NO_CPU;
	KUNIT_EXPECT_FALSE(test, sugov_inv_chain_member(&c, now, WINDOW_NS));
}

/* Members as a mask, targets (-1: none), the CPU looked from, its group */
struct chain_group_case {
	const char *name;
	u64 members;
	s8 target[8];
	unsigned int self;
	u64 want;
};

static const struct chain_group_case chain_group_cases[] = {
	{
		.name = "tbench's two clients and servers on 4 CPUs: one group",
		.members = 0xf, .target = { 3, 2, 0, 1 }, .self = 0,
		.want = 0xf,
	}, {
		.name = "a ring 0 -> 1 -> 2 -> 0: one group from any CPU",
		.members = 0x7, .target = { 1, 2, 0 }, .self = 2,
		.want = 0x7,
	}, {
		.name = "two rings, 0-1-2 and 3-4-5: each its own group",
		.members = 0x3f, .target = { 1, 2, 0, 4, 5, 3 }, .self = 4,
		.want = 0x38,
	}, {
		.name = "joined against the targets: 2 -> 1 -> 0, looked from 0",
		.members = 0x7, .target = { -1, 0, 1 }, .self = 0,
		.want = 0x7,
	}, {
		.name = "a chain through a non-member is cut: 0 -> 1 (not a member) <- 2",
		.members = 0x5, .target = { 1, 0, 1 }, .self = 0,
		.want = 0x1,
	}, {
		.name = "a target in another block (-1) joins nothing",
		.members = 0x3, .target = { -1, -1 }, .self = 1,
		.want = 0x2,
	}, {
		.name = "not a member: no group",
		.members = 0x6, .target = { 1, 2, 1 }, .self = 0,
		.want = 0,
	}, {
		.name = "a long path, 7 -> 6 -> ... -> 0, looked from 7",
		.members = 0xff, .target = { -1, 0, 1, 2, 3, 4, 5, 6 }, .self = 7,
		.want = 0xff,
	},
};

KUNIT_ARRAY_PARAM_DESC(chain_group, chain_group_cases, name);

static void chain_groups(struct kunit *test)
{
	const struct chain_group_case *c = test->param_value;
	s8 target[SUGOV_INV_CHAIN_GROUP_CPUS];

	memset(target, 0xff, sizeof(target));
	memcpy(target, c->target, sizeof(c->target));
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_component(c->members, target,
							c->self),
			c->want);
}

/* The last CPU of a block: its bit is the top one of the mask */
static void chain_group_cpu63(struct kunit *test)
{
	s8 target[SUGOV_INV_CHAIN_GROUP_CPUS];

	memset(target, 0xff, sizeof(target));
	target[63] = 62;
	target[62] = 63;
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_component(BIT_ULL(62) | BIT_ULL(63),
							target, 63),
			BIT_ULL(62) | BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, sugov_inv_chain_component(BIT_ULL(63), target,
							SUGOV_INV_CHAIN_GROUP_CPUS),
			0ULL);
}

static struct kunit_case sugov_inv_chain_test_cases[] = {
	KUNIT_CASE_PARAM(chain_detects, chain_detect_gen_params),
	KUNIT_CASE(chain_off),
	KUNIT_CASE(chain_expires),
	KUNIT_CASE(chain_idle_judges_once),
	KUNIT_CASE_PARAM(chain_links, chain_link_gen_params),
	KUNIT_CASE_PARAM(chain_combines, chain_util_gen_params),
	KUNIT_CASE(chain_partner_freshness),
	KUNIT_CASE(chain_group_member),
	KUNIT_CASE_PARAM(chain_groups, chain_group_gen_params),
	KUNIT_CASE(chain_group_cpu63),
	{}
};

static struct kunit_suite sugov_inv_chain_test_suite = {
	.name = "sugov_inv_chain",
	.test_cases = sugov_inv_chain_test_cases,
};

kunit_test_suites(&sugov_inv_chain_test_suite);
