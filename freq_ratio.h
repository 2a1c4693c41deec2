/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_ratio: the one math layer of freq_invariance -- fixed-point ratios
 * of two frequencies or performance levels, frequencies scaled by them,
 * the frequency two counters' deltas give, and the kernel rule sets the
 * decoders follow.  Pure inline functions: the decoders
 * (amd_cppc_ratio.c, intel_ratio.c), the caps resolver (freq_inv_caps.c),
 * the delivered-frequency sources and tools/fi-probe all compute here.
 * Builds in the kernel and in user space (tools/fi-probe supplies the
 * <linux/...> headers).
 */
#ifndef _FREQ_RATIO_H
#define _FREQ_RATIO_H

#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/types.h>

/*
 * Fixed-point one of every ratio: SCHED_CAPACITY_SCALE, the unit Linux
 * keeps arch_max_freq_ratio in (kept here so fi-probe builds without
 * <linux/sched.h>; freq_inv_core.c asserts the two agree).
 */
#define FREQ_RATIO_SHIFT	10
#define FREQ_RATIO_SCALE	1024U	/* 1 << FREQ_RATIO_SHIFT */

/*
 * A counter runs at most max_boost/max_P faster than its reference
 * counter (3.8x on the largest ratio published, an i3-1220P, see
 * Documentation/published-cpus.rst).  A window where it ran more than
 * 16x faster is a counter reset or a hypervisor artefact, not a
 * frequency; the bound also keeps ref_khz * delta / ref_delta below 2^32.
 */
#define FREQ_RATIO_DELTA_MAX_SHIFT	4

/**
 * enum freq_ratio_rules - whose frequency-invariance rules a decoder follows
 * @FREQ_RATIO_RULES_6_1: Linux 6.1 (to 6.11): AMD's numerator from
 *	amd_get_highest_perf() in arch/x86/kernel/cpu/amd.c, 166 on a list
 *	of Zen 2/3 models and 255 on every other part
 * @FREQ_RATIO_RULES_6_12: Linux 6.12: AMD's numerator from
 *	amd_get_boost_ratio_numerator() in arch/x86/kernel/acpi/cppc.c
 *	(commits 6c09e3b445a1, 279f838a61f9, ad4caad58d91): the CPPC
 *	highest_perf itself when every CPU reports the same, else 166, or 196
 *	on family 19h models 70h-7Fh (commit bf202e654bfa)
 * @FREQ_RATIO_RULES_NR: number of rule sets
 *
 * Intel's rules (arch/x86/kernel/cpu/aperfmperf.c) are the same in both.
 * Which set the module follows is the running kernel's: compat.h,
 * FREQ_RATIO_RULES_RUNNING.
 */
enum freq_ratio_rules {
	FREQ_RATIO_RULES_6_1,
	FREQ_RATIO_RULES_6_12,
	FREQ_RATIO_RULES_NR,
};

/**
 * freq_ratio_rules_name() - a rule set's name, as fi-probe's --rules takes it
 * @rules: the rule set
 *
 * Context: any.
 * Return: "6.1", "6.12", or "unknown" outside enum freq_ratio_rules.
 */
static inline const char *freq_ratio_rules_name(enum freq_ratio_rules rules)
{
	switch (rules) {
	case FREQ_RATIO_RULES_6_1:
		return "6.1";
	case FREQ_RATIO_RULES_6_12:
		return "6.12";
	default:
		return "unknown";
	}
}

/**
 * freq_ratio_of() - @num * 1024 / @den, truncated as Linux computes it
 * @num: numerator: a frequency or a performance level
 * @den: denominator, in the unit of @num
 * @ratio: set to the ratio, x1024
 *
 * Context: any.
 * Return: 0 with @ratio set; -EINVAL when @den is 0; -ERANGE when the
 * ratio rounds to 0 or does not fit 32 bits (@ratio untouched).
 */
static inline int freq_ratio_of(u32 num, u32 den, u32 *ratio)
{
	u64 r;

	if (!den)
		return -EINVAL;
	r = div_u64((u64)num << FREQ_RATIO_SHIFT, den);
	if (!r || r > U32_MAX)
		return -ERANGE;
	*ratio = r;
	return 0;
}

/**
 * freq_ratio_scale_khz() - @khz * @ratio >> 10, as acpi-cpufreq scales
 *	cpuinfo.max_freq and Linux turns a ratio into a frequency
 * @khz: a frequency, kHz
 * @ratio: a ratio, x1024
 * @out: set to the scaled frequency, kHz, truncated
 *
 * Context: any.
 * Return: 0 with @out set; -ERANGE when it does not fit 32 bits.
 */
static inline int freq_ratio_scale_khz(u32 khz, u32 ratio, u32 *out)
{
	u64 f = ((u64)khz * ratio) >> FREQ_RATIO_SHIFT;

	if (f > U32_MAX)
		return -ERANGE;
	/* Masked: sparse folds a constant @khz into this dead truncation. */
	*out = f & U32_MAX;
	return 0;
}

/**
 * freq_ratio_amd_midpoint() - AMD's invariance ratio from its boost ratio
 * @boost_ratio: highest/nominal (or max_boost/max_P), x1024
 *
 * (@boost_ratio + 1024) >> 1: the midpoint of the max_boost and max_P
 * ratios, arch/x86/kernel/acpi/cppc.c amd_set_max_freq_ratio() since
 * commit 976df7e5730e (Linux 5.11), unchanged in 6.1 and 6.12.
 *
 * Context: any.
 * Return: the ratio, x1024; fits 32 bits for any 32-bit @boost_ratio.
 */
static inline u32 freq_ratio_amd_midpoint(u32 boost_ratio)
{
	return ((u64)boost_ratio + FREQ_RATIO_SCALE) >> 1;
}

/**
 * freq_ratio_midpoint_khz() - midpoint of two frequencies, no overflow
 * @max_p_khz: highest non-boost frequency, kHz
 * @max_boost_khz: highest boost frequency, kHz
 *
 * Context: any.
 * Return: (@max_p_khz + @max_boost_khz) / 2 rounded down, in kHz.
 */
static inline u32 freq_ratio_midpoint_khz(u32 max_p_khz, u32 max_boost_khz)
{
	/* Halve first so two values near U32_MAX cannot wrap */
	return max_p_khz / 2 + max_boost_khz / 2 + (max_p_khz & max_boost_khz & 1);
}

/**
 * freq_ratio_delta_khz() - frequency from two counters' deltas in a window
 * @ref_khz: the frequency the reference counter counts at, kHz (max_P
 *	for IA32_MPERF; the CPPC reference level for the CPPC counters)
 * @delta: ticks of the counter that runs at the delivered frequency
 *	(IA32_APERF, CPPC Delivered Performance Counter)
 * @ref_delta: ticks of the reference counter (IA32_MPERF, CPPC Reference
 *	Performance Counter) over the same window
 * @khz: set to @ref_khz * @delta / @ref_delta, kHz
 *
 * Callers take u64 differences of the raw counters, which are right
 * across a 64-bit wrap.  No reference ticks (a window spent idle), no
 * delivered ticks, @delta more than 2^FREQ_RATIO_DELTA_MAX_SHIFT times
 * @ref_delta (a reset, not a frequency), or no @ref_khz (max_P unknown)
 * measure nothing.
 *
 * Context: any, IRQs off included.
 * Return: 0 with @khz set; -ENODATA when the window measures nothing
 * (@khz untouched).
 */
static inline int freq_ratio_delta_khz(u32 ref_khz, u64 delta, u64 ref_delta,
				       u32 *khz)
{
	if (!ref_khz || !delta || !ref_delta ||
	    (delta >> FREQ_RATIO_DELTA_MAX_SHIFT) > ref_delta)
		return -ENODATA;
	/*
	 * delta <= 16 * ref_delta bounds the quotient by 16 * ref_khz: the
	 * 128-bit intermediate of mul_u64_u64_div_u64() cannot overflow its
	 * 64-bit quotient (a #DE on x86-64), and the result fits 32 bits for
	 * any ref_khz below 268 GHz (freq_invariance caps max_P at 10 GHz).
	 */
	*khz = mul_u64_u64_div_u64(ref_khz, delta, ref_delta);
	return 0;
}

/**
 * freq_ratio_fail() - record why a decode failed
 * @reason: where the caller wants the reason (may be NULL)
 * @err: the negative errno to return
 * @why: a short static string, for the caller's one log line
 *
 * Context: any.
 * Return: @err.
 */
static inline int freq_ratio_fail(const char **reason, int err,
				  const char *why)
{
	if (reason)
		*reason = why;
	return err;
}

#endif /* _FREQ_RATIO_H */
