// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite freq_inv_sampling: freq_invariance.ko's delivered-frequency
 * sampling (freq_inv_sample_prepare(), freq_inv_delivered_khz()) on the
 * CPU the test runs on, against the contract in freq_invariance.h.
 *
 * The measurement itself needs IA32_APERF/IA32_MPERF: without
 * X86_FEATURE_APERFMPERF (QEMU TCG has none) that case is skipped with
 * the reason, and the fallback the contract gives for such CPUs (cpufreq's
 * current frequency, or -ENODATA without a policy) is tested instead.
 * The argument checks need no hardware and run everywhere (the wrong-CPU
 * case needs a second online CPU).
 *
 * Mutations this suite catches (each tried: tools/kunit/run.sh reported a
 * failure with the mutation in place and none without it):
 *  - the wrong-CPU check dropped from prepare, or from delivered
 *  - delivered writing its output although it rejects the call
 *  - the no-counters fallback answering 0 kHz with success without a policy
 *  - delivered accepting a NULL sample (an oops, which ends the run)
 *  - freq_inv_get_caps() accepting cpu >= nr_cpu_ids (a KASAN-caught
 *    out-of-bounds read, which ends the run)
 */
#include <kunit/test.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/cpufeature.h>

#include "freq_invariance.h"

/* Marks outputs a rejected call must leave alone */
#define POISON_KHZ	0xdeadbeefU
#define POISON_SRC	((enum freq_inv_deliv_source)0x5a)

/* Busy time of one measured window: long enough for MPERF to tick a lot */
#define WINDOW_US	2000

/* A sample bound to @cpu, counters poisoned to spot unwanted writes */
static void poisoned_sample(struct freq_inv_sample *s, unsigned int cpu)
{
	memset(s, 0x6b, sizeof(*s));
	s->cpu = cpu;
}

/* Run on one CPU, ask for another: both calls refuse and change nothing */
static void other_cpu_rejected(struct kunit *test)
{
	enum freq_inv_deliv_source src = POISON_SRC;
	struct freq_inv_sample s, before;
	unsigned int this, other;
	u32 khz = POISON_KHZ;
	int ret_prep, ret_deliv;
	unsigned long flags;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second online CPU");

	local_irq_save(flags);
	this = smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, this);
	poisoned_sample(&s, other);
	before = s;
	ret_prep = freq_inv_sample_prepare(&s);
	ret_deliv = freq_inv_delivered_khz(&s, &khz, &src);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, ret_prep, -EINVAL);
	KUNIT_EXPECT_EQ(test, ret_deliv, -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&s, &before, sizeof(s)), 0);
	KUNIT_EXPECT_EQ(test, khz, POISON_KHZ);
	KUNIT_EXPECT_EQ(test, src, POISON_SRC);
}

/* NULL pointers are refused, not dereferenced */
static void null_arguments_rejected(struct kunit *test)
{
	enum freq_inv_deliv_source src = POISON_SRC;
	struct freq_inv_sample s;
	u32 khz = POISON_KHZ;
	unsigned long flags;

	local_irq_save(flags);
	poisoned_sample(&s, smp_processor_id());
	KUNIT_EXPECT_EQ(test, freq_inv_sample_prepare(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, freq_inv_delivered_khz(NULL, &khz, &src), -EINVAL);
	KUNIT_EXPECT_EQ(test, freq_inv_delivered_khz(&s, NULL, &src), -EINVAL);
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ(test, khz, POISON_KHZ);
	KUNIT_EXPECT_EQ(test, src, POISON_SRC);
}

/* freq_inv_get_caps(): CPU numbers beyond nr_cpu_ids and NULL refused */
static void caps_bad_arguments_rejected(struct kunit *test)
{
	struct freq_inv_caps caps;

	KUNIT_EXPECT_EQ(test, freq_inv_get_caps(nr_cpu_ids, &caps), -EINVAL);
	KUNIT_EXPECT_EQ(test, freq_inv_get_caps(UINT_MAX, &caps), -EINVAL);
	KUNIT_EXPECT_EQ(test, freq_inv_get_caps(0, NULL), -EINVAL);
}

/*
 * Two busy windows on this CPU with the counters: each answers from
 * APERF/MPERF with a frequency above 0 and, when the caps are known, not
 * above max_boost (+5 % for the counters read a few cycles apart).
 */
static void delivered_from_counters(struct kunit *test)
{
	enum freq_inv_deliv_source src[2];
	struct freq_inv_caps caps;
	struct freq_inv_sample s;
	unsigned long flags;
	int ret[3], i;
	bool have_caps;
	u32 khz[2];

	if (!boot_cpu_has(X86_FEATURE_APERFMPERF))
		kunit_skip(test, "no APERF/MPERF on this CPU (a VM without them?)");

	local_irq_save(flags);
	s.cpu = smp_processor_id();
	have_caps = !freq_inv_get_caps(s.cpu, &caps);
	ret[0] = freq_inv_sample_prepare(&s);
	for (i = 0; i < 2; i++) {
		udelay(WINDOW_US);
		ret[i + 1] = freq_inv_delivered_khz(&s, &khz[i], &src[i]);
	}
	local_irq_restore(flags);

	KUNIT_ASSERT_EQ(test, ret[0], 0);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ_MSG(test, ret[i + 1], 0, "window %d", i);
		KUNIT_EXPECT_EQ(test, src[i], FREQ_INV_DELIV_APERFMPERF);
		KUNIT_EXPECT_GT(test, khz[i], 0U);
		if (have_caps)
			KUNIT_EXPECT_LE_MSG(test, khz[i],
					    caps.max_boost_khz / 20 * 21,
					    "window %d, max_boost %u kHz", i,
					    caps.max_boost_khz);
	}
}

/*
 * Without counters the contract is cpufreq's current frequency for the
 * CPU, or -ENODATA when the CPU has no policy (a VM without a cpufreq
 * driver) or the policy does not know its frequency.
 */
static void delivered_without_counters(struct kunit *test)
{
	struct cpufreq_policy *policy;
	enum freq_inv_deliv_source src = POISON_SRC;
	struct freq_inv_sample s;
	u32 khz = POISON_KHZ;
	unsigned int cpu, cur = 0;
	unsigned long flags;
	int ret[2];

	if (boot_cpu_has(X86_FEATURE_APERFMPERF))
		kunit_skip(test, "this CPU has APERF/MPERF: see delivered_from_counters");

	cpu = get_cpu();
	/* Pinned: the policy of this CPU cannot go away under the reads */
	policy = cpufreq_cpu_get(cpu);
	if (policy)
		cur = READ_ONCE(policy->cur);
	local_irq_save(flags);
	s.cpu = cpu;
	ret[0] = freq_inv_sample_prepare(&s);
	ret[1] = freq_inv_delivered_khz(&s, &khz, &src);
	local_irq_restore(flags);
	if (policy)
		cpufreq_cpu_put(policy);
	put_cpu();

	KUNIT_EXPECT_EQ(test, ret[0], 0);
	if (!cur) {
		KUNIT_EXPECT_EQ(test, ret[1], -ENODATA);
		return;
	}
	KUNIT_EXPECT_EQ(test, ret[1], 0);
	KUNIT_EXPECT_EQ(test, src, FREQ_INV_DELIV_CPUFREQ);
	KUNIT_EXPECT_EQ(test, khz, cur);
}

static struct kunit_case freq_inv_sampling_test_cases[] = {
	KUNIT_CASE(other_cpu_rejected),
	KUNIT_CASE(null_arguments_rejected),
	KUNIT_CASE(caps_bad_arguments_rejected),
	KUNIT_CASE(delivered_from_counters),
	KUNIT_CASE(delivered_without_counters),
	{}
};

static struct kunit_suite freq_inv_sampling_test_suite = {
	.name = "freq_inv_sampling",
	.test_cases = freq_inv_sampling_test_cases,
};

kunit_test_suites(&freq_inv_sampling_test_suite);
