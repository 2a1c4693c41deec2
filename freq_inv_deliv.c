// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: the frequency each CPU delivered over a window, for
 * the governor's update_util hook (freq_inv_sample_prepare(),
 * freq_inv_delivered_khz()).
 *
 * The source is chosen once at load, an ops struct, and its functions
 * installed as static calls, as drivers/cpufreq/amd-pstate.c installs
 * its MSR or shared-memory functions once: IA32_APERF/MPERF when the CPU
 * has them, else the ACPI CPPC feedback counters when they work
 * (freq_inv_cppc_ctrs.c), else nothing is measured.  The hook pays a
 * direct call, no retpoline and no test of the source.  A window the
 * source cannot measure (spent idle, a counter reset) answers with
 * cpufreq's current frequency, as a CPU without counters does.  The
 * arithmetic is freq_ratio.h's freq_ratio_delta_khz().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/smp.h>
#include <linux/static_call.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>

#include "compat.h"
#include "freq_inv_cppc_ctrs.h"
#include "freq_inv_internal.h"

/* APERF/MPERF: both counters of the current CPU, from its C0 time only */
static void freq_inv_amperf_snapshot(struct freq_inv_sample *sample)
{
	rdmsrq(MSR_IA32_APERF, sample->aperf);
	rdmsrq(MSR_IA32_MPERF, sample->mperf);
}

/* IA32_MPERF ticks at the max_P rate (Intel's base, AMD's P0) */
static int freq_inv_amperf_khz(struct freq_inv_sample *sample, u32 *khz)
{
	struct freq_inv_resolved res;
	u64 aperf, mperf, da, dm;

	rdmsrq(MSR_IA32_APERF, aperf);
	rdmsrq(MSR_IA32_MPERF, mperf);
	/* Unsigned differences are right across a 64-bit wrap */
	da = aperf - sample->aperf;
	dm = mperf - sample->mperf;
	sample->aperf = aperf;
	sample->mperf = mperf;

	if (!freq_inv_load(sample->cpu, &res))
		return -ENODATA;
	return freq_ratio_delta_khz(res.max_p_khz, da, dm, khz);
}

static const struct freq_inv_deliv_ops freq_inv_amperf_ops = {
	.source = FREQ_INV_DELIV_APERFMPERF,
	.snapshot = freq_inv_amperf_snapshot,
	.khz = freq_inv_amperf_khz,
};

/* No counters: nothing to snapshot, nothing measured */
static void freq_inv_none_snapshot(struct freq_inv_sample *sample)
{
}

static int freq_inv_none_khz(struct freq_inv_sample *sample, u32 *khz)
{
	return -ENODATA;
}

static const struct freq_inv_deliv_ops freq_inv_cpufreq_ops = {
	.source = FREQ_INV_DELIV_CPUFREQ,
	.snapshot = freq_inv_none_snapshot,
	.khz = freq_inv_none_khz,
};

/* The source, set once by freq_inv_deliv_select(), and its functions */
static const struct freq_inv_deliv_ops *freq_inv_deliv __ro_after_init =
	&freq_inv_cpufreq_ops;
DEFINE_STATIC_CALL(freq_inv_deliv_snapshot, freq_inv_none_snapshot);
DEFINE_STATIC_CALL(freq_inv_deliv_khz, freq_inv_none_khz);

/**
 * freq_inv_deliv_select() - choose the delivered-frequency source, once
 *
 * Description: APERF/MPERF if the CPU has them; else the ACPI CPPC feedback
 * counters if they work (freq_inv_cppc_ctrs_start() logs one line when a _CPC
 * has counters that do not); else cpufreq's current frequency.
 *
 * Context: module init, process context.
 */
void __init freq_inv_deliv_select(void)
{
	const struct freq_inv_deliv_ops *ops = NULL;

	if (cpu_feature_enabled(X86_FEATURE_APERFMPERF))
		ops = &freq_inv_amperf_ops;
	else
		ops = freq_inv_cppc_ctrs_start();
	freq_inv_deliv = ops ?: &freq_inv_cpufreq_ops;
	static_call_update(freq_inv_deliv_snapshot, freq_inv_deliv->snapshot);
	static_call_update(freq_inv_deliv_khz, freq_inv_deliv->khz);
}

/**
 * freq_inv_deliv_stop() - stop the source's background work, if any
 *
 * Context: process context, may sleep; after the last reader.
 */
void freq_inv_deliv_stop(void)
{
	freq_inv_cppc_ctrs_stop();
}

/**
 * freq_inv_deliv_source() - the source chosen at load
 *
 * Context: any.
 * Return: who answers delivered-frequency queries when the window measures
 * something (a window that does not answers from cpufreq).
 */
enum freq_inv_deliv_source freq_inv_deliv_source(void)
{
	return freq_inv_deliv->source;
}

/**
 * freq_inv_deliv_source_name() - name of a delivered-frequency source
 * @src: the source
 *
 * Context: any.
 * Return: "aperfmperf", "cppc" or "cpufreq" (as in
 * /sys/kernel/freq_invariance/cpuN/delivered_source); "unknown" for a
 * value outside the enum.
 */
const char *freq_inv_deliv_source_name(enum freq_inv_deliv_source src)
{
	switch (src) {
	case FREQ_INV_DELIV_APERFMPERF:
		return "aperfmperf";
	case FREQ_INV_DELIV_CPUFREQ:
		return "cpufreq";
	case FREQ_INV_DELIV_CPPC:
		return "cppc";
	default:
		return "unknown";
	}
}

/**
 * freq_inv_sample_prepare() - snapshot a CPU's counters to start a window
 * @sample: the caller's sample; @sample->cpu must be the current CPU
 *
 * Reads IA32_APERF (MSR 0xe8) and IA32_MPERF (MSR 0xe7) of the current
 * CPU when it has X86_FEATURE_APERFMPERF; else, when the ACPI CPPC
 * feedback counters are in use, takes the totals their sampler published
 * (never the counters themselves: they may need to sleep); else there is
 * nothing to snapshot and freq_inv_delivered_khz() answers from cpufreq.
 *
 * Context: on @sample->cpu with preemption or IRQs disabled (the
 * update_util hook, or an smp_call_function_single() callback).
 * Return: 0; -EINVAL for a NULL @sample or a call on another CPU than
 * @sample->cpu (the sample is left unchanged).
 */
int freq_inv_sample_prepare(struct freq_inv_sample *sample)
{
	if (!sample || sample->cpu != smp_processor_id())
		return -EINVAL;

	static_call(freq_inv_deliv_snapshot)(sample);
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_sample_prepare);

/* cpufreq's idea of @cpu's frequency: the last one its driver set */
static int freq_inv_cpufreq_khz(unsigned int cpu, u32 *khz,
				enum freq_inv_deliv_source *src)
{
	/* No cpufreq_quick_get(): it takes locks the rq lock may not nest */
	struct cpufreq_policy *policy = cpufreq_cpu_get_raw(cpu);
	unsigned int cur;

	if (!policy)
		return -ENODATA;
	cur = READ_ONCE(policy->cur);
	if (!cur)
		return -ENODATA;

	*khz = cur;
	*src = FREQ_INV_DELIV_CPUFREQ;
	return 0;
}

/**
 * freq_inv_delivered_khz() - average frequency a CPU delivered in a window
 * @sample: the sample freq_inv_sample_prepare() or the previous call of
 *	this function filled; @sample->cpu must be the current CPU
 * @khz: set to the average delivered frequency, kHz
 * @src: set to who answered; NULL when the caller does not need it
 *
 * With X86_FEATURE_APERFMPERF: max_P * dAPERF / dMPERF over the window
 * since the previous snapshot (IA32_MPERF, MSR 0xe7, ticks at the max_P
 * rate: Intel's base, AMD's P0; IA32_APERF, MSR 0xe8, at the actual
 * rate, both only while the CPU is in C0).  u64 differences survive a
 * counter wrap; a window with no MPERF ticks (spent idle), no APERF
 * ticks, or APERF more than 16 times faster than MPERF (a reset, not a
 * frequency) answers as a CPU without counters does: cpufreq's current
 * frequency for the CPU, READ_ONCE(policy->cur).  Without APERF/MPERF
 * but with the ACPI CPPC feedback counters in use: the reference
 * frequency times d(delivered) / d(reference) of the totals their
 * sampler published since the snapshot, or of its last period in which
 * the CPU ran when the window saw none (freq_inv_cppc_ctrs.c).  Then
 * re-snapshots, so the next call measures the next window.
 *
 * Context: on @sample->cpu with IRQs disabled (the update_util hook, or
 * an smp_call_function_single() callback), with the CPU's policy kept
 * alive (its governor, or a cpufreq_cpu_get() reference).
 * Return: 0 with @khz (and @src) set; -EINVAL for a NULL @sample or @khz
 * or a call on another CPU than @sample->cpu (nothing is changed);
 * -ENODATA when the counters cannot answer and the CPU has no cpufreq
 * policy or its current frequency is unknown.
 */
int freq_inv_delivered_khz(struct freq_inv_sample *sample, u32 *khz,
			   enum freq_inv_deliv_source *src)
{
	enum freq_inv_deliv_source unused;

	if (!sample || !khz)
		return -EINVAL;
	if (!src)
		src = &unused;
	if (sample->cpu != smp_processor_id())
		return -EINVAL;

	if (!static_call(freq_inv_deliv_khz)(sample, khz)) {
		*src = freq_inv_deliv->source;
		return 0;
	}
	return freq_inv_cpufreq_khz(sample->cpu, khz, src);
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_delivered_khz);
