// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite sugov_inv_keep: sugov_inv_keep.h, which CPUs keep their
 * estimate across a restart of the governor.  Each case plays a sequence
 * of governor stops and starts on a policy of four CPUs, as the cpufreq
 * core calls them for CPU hotplug and governor switches, and checks the
 * CPUs a start keeps.  A start resets the stamp of a CPU it does not keep,
 * as sugov_inv_start() clears the CPU's whole state.
 *
 * A policy data freed at a governor switch and a new one allocated at the
 * next are the same variable here, zeroed: kzalloc() may return the
 * address kfree() just released, and a stamp must then still tell the
 * two apart.
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - a stamp of the policy data's address and its own count of stops,
 *    which a new policy data at a freed one's address repeats
 *    (keep_new_policy_data_at_old_address keeps cpu1)
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/string.h>

#include "sugov_inv_keep.h"

#define NR_CPUS_POLICY	4
#define ALL_CPUS	0xfUL

struct keep_rig {
	atomic64_t gens;
	struct sugov_inv_keep policy;
	struct sugov_inv_keep cpu[NR_CPUS_POLICY];
};

/* sugov_inv_stop() on the CPUs in @cpus */
static void rig_stop(struct keep_rig *r, unsigned long cpus)
{
	unsigned int c;

	sugov_inv_keep_stop(&r->policy, &r->gens);
	for_each_set_bit(c, &cpus, NR_CPUS_POLICY)
		sugov_inv_keep_mark(&r->cpu[c], &r->policy);
}

/* sugov_inv_start() on the CPUs in @cpus: the mask of those it keeps */
static unsigned long rig_start(struct keep_rig *r, unsigned long cpus)
{
	unsigned long kept = 0;
	unsigned int c;

	for_each_set_bit(c, &cpus, NR_CPUS_POLICY) {
		if (sugov_inv_keep_match(&r->cpu[c], &r->policy))
			kept |= BIT(c);
		else
			memset(&r->cpu[c], 0, sizeof(r->cpu[c]));
	}
	return kept;
}

/* sugov_inv_exit() then sugov_inv_init(): a new policy data, same address */
static void rig_switch(struct keep_rig *r)
{
	memset(&r->policy, 0, sizeof(r->policy));
}

static void keep_first_start_keeps_nothing(struct kunit *test)
{
	struct keep_rig r = { .gens = ATOMIC64_INIT(0) };

	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS), 0UL);
}

static void keep_hotplug_restart_keeps_staying_cpus(struct kunit *test)
{
	struct keep_rig r = { .gens = ATOMIC64_INIT(0) };

	rig_start(&r, ALL_CPUS);
	/* cpu1 goes offline: the core stops and starts the policy */
	rig_stop(&r, ALL_CPUS);
	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS & ~BIT(1)),
			ALL_CPUS & ~BIT(1));
	/* cpu1 comes back: its stamp is from the earlier stop */
	rig_stop(&r, ALL_CPUS & ~BIT(1));
	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS), ALL_CPUS & ~BIT(1));
	/* and the next restart keeps all four */
	rig_stop(&r, ALL_CPUS);
	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS), ALL_CPUS);
}

/*
 * cpu1 offline, the governor switched away and back (a new policy data
 * at the freed one's address), cpu1 online: cpu1's state is from the old
 * policy data's first stop, and the new one's first stop must not match
 * it.  Kept, it would measure its first window across its offline time,
 * with an idle clock restarted at its online: all busy.
 */
static void keep_new_policy_data_at_old_address(struct kunit *test)
{
	struct keep_rig r = { .gens = ATOMIC64_INIT(0) };

	rig_start(&r, ALL_CPUS);
	rig_stop(&r, ALL_CPUS);
	rig_start(&r, ALL_CPUS & ~BIT(1));
	/* switched away, and back */
	rig_stop(&r, ALL_CPUS & ~BIT(1));
	rig_switch(&r);
	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS & ~BIT(1)), 0UL);
	/* cpu1 online */
	rig_stop(&r, ALL_CPUS & ~BIT(1));
	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS), ALL_CPUS & ~BIT(1));
}

/* Two policies stopping in turn (one counter of stops for all of them) */
static void keep_other_policy_stops_in_between(struct kunit *test)
{
	struct keep_rig r = { .gens = ATOMIC64_INIT(0) };
	struct sugov_inv_keep other = { }, other_cpu = { };

	rig_start(&r, ALL_CPUS);
	rig_stop(&r, ALL_CPUS);
	sugov_inv_keep_stop(&other, &r.gens);
	sugov_inv_keep_mark(&other_cpu, &other);
	KUNIT_EXPECT_EQ(test, rig_start(&r, ALL_CPUS), ALL_CPUS);
	KUNIT_EXPECT_TRUE(test, sugov_inv_keep_match(&other_cpu, &other));
	KUNIT_EXPECT_FALSE(test, sugov_inv_keep_match(&other_cpu, &r.policy));
	KUNIT_EXPECT_FALSE(test, sugov_inv_keep_match(&r.cpu[0], &other));
}

static struct kunit_case sugov_inv_keep_cases[] = {
	KUNIT_CASE(keep_first_start_keeps_nothing),
	KUNIT_CASE(keep_hotplug_restart_keeps_staying_cpus),
	KUNIT_CASE(keep_new_policy_data_at_old_address),
	KUNIT_CASE(keep_other_policy_stops_in_between),
	{}
};

static struct kunit_suite sugov_inv_keep_suite = {
	.name = "sugov_inv_keep",
	.test_cases = sugov_inv_keep_cases,
};

kunit_test_suites(&sugov_inv_keep_suite);
