// SPDX-License-Identifier: GPL-2.0-only
/*
 * amd_cppc_ratio: AMD ACPI CPPC capabilities -> max_P, max_boost, midpoint
 * and Linux 6.1's frequency-invariance ratio.  Pure functions, no hardware
 * access: the same file is linked into freq_invariance.ko and fi-probe.
 *
 * Linux 6.1 arithmetic this reproduces:
 *  - arch/x86/kernel/acpi/cppc.c amd_set_max_freq_ratio():
 *	ratio = amd_get_highest_perf() * 1024 / nominal_perf;
 *	arch_max_freq_ratio = (ratio + 1024) >> 1
 *  - drivers/cpufreq/acpi-cpufreq.c get_max_boost_ratio() and
 *    acpi_cpufreq_cpu_init(): cpuinfo.max_freq = nominal_freq * ratio >> 10
 *  - arch/x86/kernel/cpu/amd.c amd_get_highest_perf(): 166 or 255
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/stddef.h>

#include "compat.h"
#include "amd_cppc_ratio.h"

/*
 * amd_get_highest_perf() of Linux 6.1 returns this for the models below
 * and AMD_CPPC_RATIO_HIGHEST_OTHER for every other part.  On those Zen 2
 * and Zen 3 parts CPPC highest_perf is a preferred-core ranking, and 166
 * is AMD's estimate of the all-core boost level.
 */
#define AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED	166U
#define AMD_CPPC_RATIO_HIGHEST_OTHER		255U

/**
 * struct amd_cppc_ratio_models - a model range of one family
 * @family: CPUID family
 * @first: first model of the range
 * @last: last model of the range, inclusive
 * @name: the parts in the range, for reviewers
 */
struct amd_cppc_ratio_models {
	u32 family;
	u32 first;
	u32 last;
	const char *name;
};

/* Ranges of amd_get_highest_perf() in 6.1 arch/x86/kernel/cpu/amd.c */
static const struct amd_cppc_ratio_models amd_cppc_ratio_ranked[] = {
	{ 0x17, 0x30, 0x3f, "Zen 2: Rome (EPYC 7002), Castle Peak" },
	{ 0x17, 0x70, 0x7f, "Zen 2: Matisse (Ryzen 3000)" },
	{ 0x19, 0x20, 0x2f, "Zen 3: Vermeer (Ryzen 5000)" },
	{ 0x19, 0x40, 0x6f, "Zen 3+/Zen 3/Zen 4: Rembrandt, Cezanne, Raphael" },
	{ }	/* sentinel: name == NULL */
};

/**
 * amd_cppc_ratio_kernel_highest_perf() - Linux 6.1's amd_get_highest_perf()
 * @family: CPUID family
 * @model: CPUID model
 *
 * The numerator Linux 6.1 uses for AMD's boost and invariance ratios,
 * whatever CPPC highest_perf the CPU reports.
 *
 * Context: any.
 * Return: 166 for family 17h models 30h-3Fh and 70h-7Fh and family 19h
 * models 20h-2Fh and 40h-6Fh; 255 for every other part.
 */
u32 amd_cppc_ratio_kernel_highest_perf(u32 family, u32 model)
{
	const struct amd_cppc_ratio_models *m;

	for (m = amd_cppc_ratio_ranked; m->name; m++) {
		if (family == m->family && model >= m->first && model <= m->last)
			return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;
	}
	return AMD_CPPC_RATIO_HIGHEST_OTHER;
}
EXPORT_SYMBOL_FREQ_INV(amd_cppc_ratio_kernel_highest_perf);

/**
 * amd_cppc_ratio_highest_uniform() - do all CPUs report one highest_perf?
 * @highest_perf: ACPI CPPC HighestPerformance of each CPU
 * @nr: number of entries in @highest_perf
 * @uniform: set to true when every entry is equal
 *
 * Different values mean highest_perf is a preferred-core ranking rather
 * than the part's top performance level (amd-pstate's preferred core).
 *
 * Context: any.
 * Return: 0 with @uniform set; -EINVAL for a NULL pointer or @nr == 0;
 * -ENODATA when a CPU reports 0 (highest_perf missing).
 */
int amd_cppc_ratio_highest_uniform(const u32 *highest_perf, unsigned int nr,
				   bool *uniform)
{
	bool same = true;
	unsigned int i;

	if (!highest_perf || !uniform || !nr)
		return -EINVAL;

	for (i = 0; i < nr; i++) {
		if (!highest_perf[i])
			return -ENODATA;
		if (highest_perf[i] != highest_perf[0])
			same = false;
	}
	*uniform = same;
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(amd_cppc_ratio_highest_uniform);

/*
 * perf * 1024 / nominal, truncated as Linux does.  Callers guarantee
 * nominal != 0; 64-bit math cannot overflow for 32-bit inputs, but the
 * quotient must still fit the u32 result.
 */
static int amd_cppc_ratio_of(u32 perf, u32 nominal, u32 *ratio)
{
	u64 r = div_u64((u64)perf << AMD_CPPC_RATIO_SHIFT, nominal);

	if (!r || r > U32_MAX)
		return -ERANGE;
	*ratio = r;
	return 0;
}

/* khz * ratio >> 10, as acpi-cpufreq scales cpuinfo.max_freq */
static int amd_cppc_ratio_scale_khz(u32 khz, u32 ratio, u32 *out)
{
	u64 f = ((u64)khz * ratio) >> AMD_CPPC_RATIO_SHIFT;

	if (f > U32_MAX)
		return -ERANGE;
	*out = f;
	return 0;
}

/* The ACPI CPPC ordering lowest <= lowest_nonlinear <= nominal, where known */
static bool amd_cppc_ratio_levels_ok(const struct amd_cppc_raw *raw)
{
	if (raw->lowest_perf && raw->lowest_nonlinear_perf &&
	    raw->lowest_perf > raw->lowest_nonlinear_perf)
		return false;
	if (raw->lowest_nonlinear_perf > raw->nominal_perf ||
	    raw->lowest_perf > raw->nominal_perf)
		return false;
	return raw->lowest_freq_mhz <= raw->nominal_freq_mhz;
}

/**
 * amd_cppc_ratio_decode_reason() - decode one CPU's CPPC capabilities
 * @raw: raw values: ACPI CPPC HighestPerformance, NominalPerformance,
 *	LowestNonlinearPerformance, LowestPerformance, NominalFrequency and
 *	LowestFrequency (MHz), CPUID family/model, and whether every CPU
 *	reports the same HighestPerformance
 * @res: filled on success only; left untouched on error
 * @reason: if not NULL, set on error to a static string naming the
 *	offending value (for one log line); untouched on success
 *
 * max_P is the nominal frequency.  max_boost is nominal frequency scaled by
 * highest/nominal, with highest taken from CPPC when every CPU reports the
 * same value and from Linux 6.1's amd_get_highest_perf() when they differ
 * (a ranking).  The kernel ratio always uses amd_get_highest_perf(), as
 * 6.1 does.  Sanity checks of Linux (zero highest or nominal, highest below
 * nominal, a ratio rounding to zero) are errors here, and so is a 6.1
 * numerator below nominal_perf, which 6.1 would turn into a ratio below
 * 1024.
 *
 * Context: any; no locks, no allocation, no hardware access.
 * Return: 0 on success; -EINVAL for NULL pointers, highest_perf below
 * nominal_perf, or an inconsistent lowest level/frequency; -ENODATA when
 * highest_perf, nominal_perf or nominal_freq_mhz is 0; -ERANGE when a
 * ratio rounds to zero or a frequency overflows u32 kHz; -EOPNOTSUPP for
 * a family before 17h, which has no CPPC.
 */
int amd_cppc_ratio_decode_reason(const struct amd_cppc_raw *raw,
				 struct amd_cppc_ratio_result *res,
				 const char **reason)
{
	struct amd_cppc_ratio_result r = { };
	u32 lnl_ratio;
	int ret;

	if (!raw || !res)
		return freq_ratio_fail(reason, -EINVAL, "NULL argument");
	if (raw->family < AMD_CPPC_RATIO_MIN_FAMILY)
		return freq_ratio_fail(reason, -EOPNOTSUPP,
					   "family before 17h has no CPPC");

	/* Linux: "Could not retrieve highest or nominal performance" */
	if (!raw->highest_perf)
		return freq_ratio_fail(reason, -ENODATA,
					   "highest_perf missing (0)");
	if (!raw->nominal_perf)
		return freq_ratio_fail(reason, -ENODATA,
					   "nominal_perf missing (0)");
	if (!raw->nominal_freq_mhz)
		return freq_ratio_fail(reason, -ENODATA,
					   "nominal_freq missing (0)");
	/* acpi-cpufreq: "nominal performance above highest" */
	if (raw->highest_perf < raw->nominal_perf)
		return freq_ratio_fail(reason, -EINVAL,
					   "highest_perf below nominal_perf");
	if (!amd_cppc_ratio_levels_ok(raw))
		return freq_ratio_fail(reason, -EINVAL,
					   "lowest_perf, lowest_nonlinear_perf or lowest_freq above nominal or out of order");

	if (check_mul_overflow(raw->nominal_freq_mhz, 1000U, &r.max_p_khz) ||
	    check_mul_overflow(raw->lowest_freq_mhz, 1000U, &r.lowest_freq_khz))
		return freq_ratio_fail(reason, -ERANGE,
					   "frequency overflows 32-bit kHz");

	/* The 6.1 numerator, and the ratios it gives (cppc.c, acpi-cpufreq) */
	r.kernel_highest_perf = amd_cppc_ratio_kernel_highest_perf(raw->family,
								   raw->model);
	/* Would be a ratio below 1024: refused, max_P would exceed max_boost */
	if (r.kernel_highest_perf < raw->nominal_perf)
		return freq_ratio_fail(reason, -EINVAL,
					   "Linux 6.1 numerator below nominal_perf (ratio below 1024)");
	ret = amd_cppc_ratio_of(r.kernel_highest_perf, raw->nominal_perf,
				&r.kernel_boost_ratio);
	if (ret)
		goto range;
	ret = amd_cppc_ratio_scale_khz(r.max_p_khz, r.kernel_boost_ratio,
				       &r.kernel_max_freq_khz);
	if (ret)
		goto range;
	/* Midpoint of max_boost and max_P; fits: boost ratio <= U32_MAX */
	r.kernel_ratio = ((u64)r.kernel_boost_ratio + AMD_CPPC_RATIO_SCALE) >> 1;
	ret = amd_cppc_ratio_scale_khz(r.max_p_khz, r.kernel_ratio,
				       &r.kernel_reference_khz);
	if (ret)
		goto range;

	/* What this CPU's own CPPC highest_perf says */
	ret = amd_cppc_ratio_of(raw->highest_perf, raw->nominal_perf,
				&r.cppc_boost_ratio);
	if (ret)
		goto range;
	ret = amd_cppc_ratio_scale_khz(r.max_p_khz, r.cppc_boost_ratio,
				       &r.cppc_max_boost_khz);
	if (ret)
		goto range;

	/* A uniform highest_perf is real; a ranking overstates the boost */
	if (raw->highest_perf_uniform) {
		r.max_boost_rule = AMD_CPPC_BOOST_CPPC_HIGHEST;
		r.max_boost_perf = raw->highest_perf;
		r.boost_ratio = r.cppc_boost_ratio;
		r.max_boost_khz = r.cppc_max_boost_khz;
	} else {
		r.max_boost_rule = AMD_CPPC_BOOST_KERNEL_NUMERATOR;
		r.max_boost_perf = r.kernel_highest_perf;
		r.boost_ratio = r.kernel_boost_ratio;
		r.max_boost_khz = r.kernel_max_freq_khz;
	}
	r.midpoint_khz = freq_ratio_midpoint_khz(r.max_p_khz, r.max_boost_khz);

	/* amd_get_lowest_nonlinear_freq() of 6.1's amd-pstate; below nominal */
	if (raw->lowest_nonlinear_perf) {
		ret = amd_cppc_ratio_of(raw->lowest_nonlinear_perf,
					raw->nominal_perf, &lnl_ratio);
		if (ret)
			goto range;
		r.efficient_khz = ((u64)r.max_p_khz * lnl_ratio) >>
				  AMD_CPPC_RATIO_SHIFT;
	}

	*res = r;
	return 0;

range:
	return freq_ratio_fail(reason, ret,
				   "ratio rounds to 0 or exceeds 32 bits, or frequency overflows 32-bit kHz");
}
EXPORT_SYMBOL_FREQ_INV(amd_cppc_ratio_decode_reason);

/**
 * amd_cppc_ratio_decode() - decode one CPU's CPPC capabilities
 * @raw: raw values, as for amd_cppc_ratio_decode_reason()
 * @res: filled on success only; left untouched on error
 *
 * amd_cppc_ratio_decode_reason() without the reason.
 *
 * Context: any; no locks, no allocation, no hardware access.
 * Return: as amd_cppc_ratio_decode_reason().
 */
int amd_cppc_ratio_decode(const struct amd_cppc_raw *raw,
			  struct amd_cppc_ratio_result *res)
{
	return amd_cppc_ratio_decode_reason(raw, res, NULL);
}
EXPORT_SYMBOL_FREQ_INV(amd_cppc_ratio_decode);

/**
 * amd_cppc_ratio_rule_name() - name of a max_boost rule, for reports
 * @rule: the rule
 *
 * Context: any.
 * Return: "cppc_highest", "kernel_numerator", or "unknown".
 */
const char *amd_cppc_ratio_rule_name(enum amd_cppc_boost_rule rule)
{
	switch (rule) {
	case AMD_CPPC_BOOST_CPPC_HIGHEST:
		return "cppc_highest";
	case AMD_CPPC_BOOST_KERNEL_NUMERATOR:
		return "kernel_numerator";
	}
	return "unknown";
}
EXPORT_SYMBOL_FREQ_INV(amd_cppc_ratio_rule_name);
