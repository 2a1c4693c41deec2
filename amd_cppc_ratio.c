// SPDX-License-Identifier: GPL-2.0-only
/*
 * amd_cppc_ratio: AMD ACPI CPPC capabilities -> max_P, max_boost and the
 * kernel's frequency-invariance ratio, by Linux 6.1's or 6.12's rules.
 * Pure functions, no hardware access: the same file is linked into
 * freq_invariance.ko and fi-probe.
 *
 * The arithmetic, the same in both kernels (freq_ratio.h):
 *  - arch/x86/kernel/acpi/cppc.c amd_set_max_freq_ratio():
 *	ratio = numerator * 1024 / nominal_perf;
 *	arch_max_freq_ratio = (ratio + 1024) >> 1
 *  - drivers/cpufreq/acpi-cpufreq.c get_max_boost_ratio() and
 *    acpi_cpufreq_cpu_init(): cpuinfo.max_freq = nominal_freq * ratio >> 10
 * What changed is the numerator (amd_cppc_ratio_kernel_highest_perf()):
 *  - 6.1: amd_get_highest_perf() in arch/x86/kernel/cpu/amd.c, 166 or 255
 *    by CPUID model, whatever the CPU reports;
 *  - 6.12: amd_get_boost_ratio_numerator() in arch/x86/kernel/acpi/cppc.c:
 *    without preferred cores (every CPU reports the same highest_perf) the
 *    CPPC highest_perf itself (commit 279f838a61f9, "x86/amd: Detect
 *    preferred cores in amd_get_boost_ratio_numerator()"); with them 166,
 *    or 196 on Zen 4 models 70h-7Fh (commit bf202e654bfa, "cpufreq:
 *    amd-pstate: fix the highest frequency issue which limits
 *    performance", moved here by commit ad4caad58d91).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/stddef.h>

#include "compat.h"
#include "amd_cppc_ratio.h"

/*
 * Linux 6.1's amd_get_highest_perf() returns this for the models below
 * and AMD_CPPC_RATIO_HIGHEST_OTHER for every other part.  On those Zen 2
 * and Zen 3 parts CPPC highest_perf is a preferred-core ranking, and 166
 * is AMD's estimate of the all-core boost level.  6.12 keeps 166
 * (CPPC_HIGHEST_PERF_PREFCORE) for every part with preferred cores.
 */
#define AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED	166U
#define AMD_CPPC_RATIO_HIGHEST_OTHER		255U
/* 6.12's CPPC_HIGHEST_PERF_PERFORMANCE: ranked Zen 4 models 70h-7Fh */
#define AMD_CPPC_RATIO_HIGHEST_ZEN4_PHOENIX	196U

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

/*
 * amd_get_boost_ratio_numerator() of 6.12 with preferred cores: 196 when
 * X86_FEATURE_ZEN4 and model 70h-7Fh; 6.12 sets ZEN4 on family 19h only
 * (bsp_init_amd()), so the range is a family 19h one.
 */
static const struct amd_cppc_ratio_models amd_cppc_ratio_zen4_196[] = {
	{ 0x19, 0x70, 0x7f, "Zen 4: Phoenix, Hawk Point (Ryzen 7040/8040)" },
	{ }	/* sentinel */
};

static bool amd_cppc_ratio_model_in(const struct amd_cppc_ratio_models *m,
				    u32 family, u32 model)
{
	for (; m->name; m++) {
		if (family == m->family && model >= m->first && model <= m->last)
			return true;
	}
	return false;
}

/**
 * amd_cppc_ratio_kernel_highest_perf() - the kernel's boost-ratio numerator
 * @raw: @raw->rules, CPUID @raw->family and @raw->model, and for 6.12
 *	@raw->highest_perf and @raw->highest_perf_uniform
 *
 * The numerator the kernel divides by nominal_perf for AMD's boost and
 * invariance ratios.  Linux 6.1 (amd_get_highest_perf()): 166 for family
 * 17h models 30h-3Fh and 70h-7Fh and family 19h models 20h-2Fh and
 * 40h-6Fh, 255 for every other part, whatever CPPC reports.  Linux 6.12
 * (amd_get_boost_ratio_numerator()): @raw->highest_perf when every CPU
 * reports the same, else 196 for family 19h models 70h-7Fh and 166 for
 * every other part.
 *
 * Context: any.
 * Return: the numerator; 0 for an unknown rule set.
 */
u32 amd_cppc_ratio_kernel_highest_perf(const struct amd_cppc_raw *raw)
{
	switch (raw->rules) {
	case FREQ_RATIO_RULES_6_1:
		if (amd_cppc_ratio_model_in(amd_cppc_ratio_ranked, raw->family,
					    raw->model))
			return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;
		return AMD_CPPC_RATIO_HIGHEST_OTHER;
	case FREQ_RATIO_RULES_6_12:
		if (raw->highest_perf_uniform)
			return raw->highest_perf;
		if (amd_cppc_ratio_model_in(amd_cppc_ratio_zen4_196, raw->family,
					    raw->model))
			return AMD_CPPC_RATIO_HIGHEST_ZEN4_PHOENIX;
		return AMD_CPPC_RATIO_HIGHEST_ZEN_RANKED;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_FREQ_INV(amd_cppc_ratio_kernel_highest_perf);

/**
 * amd_cppc_ratio_highest_uniform() - do all CPUs report one highest_perf?
 * @highest_perf: ACPI CPPC HighestPerformance of each CPU
 * @nr: number of entries in @highest_perf
 * @uniform: set to true when every entry is equal
 *
 * Different values mean highest_perf is a preferred-core ranking rather
 * than the part's top performance level (amd-pstate's preferred core;
 * 6.12's amd_detect_prefcore() asks the same question).
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
 * same value and from the kernel's numerator when they differ (a
 * ranking).  The kernel ratio uses the numerator of @raw->rules (see
 * amd_cppc_ratio_kernel_highest_perf()).  Sanity checks of Linux (zero
 * highest or nominal, highest below nominal, a ratio rounding to zero)
 * are errors here, and so is a numerator below nominal_perf, which the
 * kernel would turn into a ratio below 1024.
 *
 * Context: any; no locks, no allocation, no hardware access.
 * Return: 0 on success; -EINVAL for NULL pointers, an unknown rule set,
 * highest_perf below nominal_perf, or an inconsistent lowest
 * level/frequency; -ENODATA when
 * highest_perf, nominal_perf or nominal_freq_mhz is 0; -ERANGE when a
 * ratio rounds to zero or a frequency overflows u32 kHz; -EOPNOTSUPP for
 * a family before 17h, which has no CPPC.
 */
int amd_cppc_ratio_decode_reason(const struct amd_cppc_raw *raw,
				 struct amd_cppc_ratio_result *res,
				 const char **reason)
{
	struct amd_cppc_ratio_result r = { };
	int ret;

	if (!raw || !res)
		return freq_ratio_fail(reason, -EINVAL, "NULL argument");
	if ((unsigned int)raw->rules >= FREQ_RATIO_RULES_NR)
		return freq_ratio_fail(reason, -EINVAL, "unknown rule set");
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

	/* The kernel's numerator and the ratios it gives (cppc.c, acpi-cpufreq) */
	r.kernel_highest_perf = amd_cppc_ratio_kernel_highest_perf(raw);
	/* Would be a ratio below 1024: refused, max_P would exceed max_boost */
	if (r.kernel_highest_perf < raw->nominal_perf)
		return freq_ratio_fail(reason, -EINVAL,
				       "kernel numerator below nominal_perf (ratio below 1024)");
	ret = freq_ratio_of(r.kernel_highest_perf, raw->nominal_perf,
			    &r.kernel_boost_ratio);
	if (!ret)
		ret = freq_ratio_scale_khz(r.max_p_khz, r.kernel_boost_ratio,
					   &r.kernel_max_freq_khz);
	r.kernel_ratio = freq_ratio_amd_midpoint(r.kernel_boost_ratio);
	if (!ret)
		ret = freq_ratio_scale_khz(r.max_p_khz, r.kernel_ratio,
					   &r.kernel_reference_khz);

	/* What this CPU's own CPPC highest_perf says */
	if (!ret)
		ret = freq_ratio_of(raw->highest_perf, raw->nominal_perf,
				    &r.cppc_boost_ratio);
	if (!ret)
		ret = freq_ratio_scale_khz(r.max_p_khz, r.cppc_boost_ratio,
					   &r.cppc_max_boost_khz);
	if (ret)
		return freq_ratio_fail(reason, ret,
				       "ratio rounds to 0 or exceeds 32 bits, or frequency overflows 32-bit kHz");

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

	*res = r;
	return 0;
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
