/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * amd_cppc_ratio: pure decoder from AMD ACPI CPPC capabilities to max_P,
 * max_boost and the frequency-invariance ratio the kernel uses
 * (arch/x86/kernel/acpi/cppc.c, amd_set_max_freq_ratio()), by the rules
 * of Linux 6.1 or 6.12 (enum freq_ratio_rules).
 *
 * Nothing here reads hardware: callers fill struct amd_cppc_raw from
 * cppc_get_perf_caps() (kernel) or /sys/devices/system/cpu/cpuN/acpi_cppc/
 * (fi-probe).  Builds in the kernel and in user space (tools/fi-probe
 * supplies the few <linux/...> headers this needs).
 *
 * Errors (every function; on error no output field is meaningful):
 *   -EINVAL     malformed: a zero or inconsistent value, highest_perf below
 *               nominal_perf, a ratio below 1024, an unknown rule set
 *   -ERANGE     arithmetic overflow, or a ratio that rounds to zero
 *   -ENODATA    a value the decoder needs is missing (reported as 0)
 *   -EOPNOTSUPP a family the kernel has no CPPC rule for (before 17h)
 * No function returns 0 with an output left unset.
 */
#ifndef _AMD_CPPC_RATIO_H
#define _AMD_CPPC_RATIO_H

#include <linux/types.h>

#include "freq_ratio.h"

/* First family with ACPI CPPC on AMD (Zen, family 17h) */
#define AMD_CPPC_RATIO_MIN_FAMILY	0x17U

/**
 * enum amd_cppc_boost_rule - which highest_perf value max_boost comes from
 * @AMD_CPPC_BOOST_CPPC_HIGHEST: every CPU reports the same CPPC
 *	highest_perf, so it is the part's real top performance level (an
 *	EPYC 7702 reports 255 with nominal 152: 3.35 GHz at 2000 MHz nominal)
 * @AMD_CPPC_BOOST_KERNEL_NUMERATOR: CPUs report different highest_perf
 *	values; they are a preferred-core ranking, the best core's value
 *	overstates the boost, so the kernel's numerator is used (6.1: 166 or
 *	255; 6.12: 166 or 196)
 */
enum amd_cppc_boost_rule {
	AMD_CPPC_BOOST_CPPC_HIGHEST,
	AMD_CPPC_BOOST_KERNEL_NUMERATOR,
};

/**
 * struct amd_cppc_raw - raw CPPC capabilities of one CPU
 * @rules: whose rules to follow, Linux 6.1's or 6.12's
 * @family: CPUID family (boot_cpu_data.x86), e.g. 0x17
 * @model: CPUID model (boot_cpu_data.x86_model), e.g. 0x31
 * @highest_perf: ACPI CPPC HighestPerformance of this CPU (abstract units)
 * @highest_perf_uniform: true when every CPU reports the same
 *	@highest_perf; compute it with amd_cppc_ratio_highest_uniform()
 * @nominal_perf: ACPI CPPC NominalPerformance (the max_P level)
 * @lowest_nonlinear_perf: ACPI CPPC LowestNonlinearPerformance, 0 if unknown
 * @lowest_perf: ACPI CPPC LowestPerformance, 0 if unknown
 * @nominal_freq_mhz: ACPI CPPC NominalFrequency in MHz (CPPC v3); callers
 *	without it may pass the _PSS P0 frequency, as acpi-cpufreq does
 * @lowest_freq_mhz: ACPI CPPC LowestFrequency in MHz, 0 if unknown
 */
struct amd_cppc_raw {
	enum freq_ratio_rules rules;
	u32 family;
	u32 model;
	u32 highest_perf;
	bool highest_perf_uniform;
	u32 nominal_perf;
	u32 lowest_nonlinear_perf;
	u32 lowest_perf;
	u32 nominal_freq_mhz;
	u32 lowest_freq_mhz;
};

/**
 * struct amd_cppc_ratio_result - decoded frequencies and ratios of one CPU
 * @max_p_khz: max_P, the nominal frequency (@nominal_freq_mhz * 1000)
 * @max_boost_khz: max_boost: @max_p_khz * @boost_ratio >> 10, the way
 *	acpi-cpufreq computes cpuinfo.max_freq
 * @max_boost_rule: which highest_perf @max_boost_khz used
 * @max_boost_perf: that highest_perf value
 * @boost_ratio: @max_boost_perf * 1024 / nominal_perf
 * @cppc_boost_ratio: this CPU's CPPC highest_perf * 1024 / nominal_perf
 * @cppc_max_boost_khz: @max_p_khz * @cppc_boost_ratio >> 10
 * @kernel_highest_perf: the kernel's numerator (amd_cppc_ratio_kernel_highest_perf())
 * @kernel_boost_ratio: @kernel_highest_perf * 1024 / nominal_perf
 *	(acpi-cpufreq's max_boost_ratio)
 * @kernel_max_freq_khz: @max_p_khz * @kernel_boost_ratio >> 10
 *	(acpi-cpufreq's cpuinfo.max_freq)
 * @kernel_ratio: the kernel's arch_max_freq_ratio on this CPU:
 *	(@kernel_boost_ratio + 1024) >> 1, the midpoint of max_boost and max_P
 * @kernel_reference_khz: the frequency capacity 1024 stands for in the
 *	kernel: @max_p_khz * @kernel_ratio >> 10
 * @lowest_freq_khz: @lowest_freq_mhz * 1000 (0 if unknown)
 */
struct amd_cppc_ratio_result {
	u32 max_p_khz;
	u32 max_boost_khz;
	enum amd_cppc_boost_rule max_boost_rule;
	u32 max_boost_perf;
	u32 boost_ratio;
	u32 cppc_boost_ratio;
	u32 cppc_max_boost_khz;
	u32 kernel_highest_perf;
	u32 kernel_boost_ratio;
	u32 kernel_max_freq_khz;
	u32 kernel_ratio;
	u32 kernel_reference_khz;
	u32 lowest_freq_khz;
};

int amd_cppc_ratio_highest_uniform(const u32 *highest_perf, unsigned int nr,
				   bool *uniform);
u32 amd_cppc_ratio_kernel_highest_perf(const struct amd_cppc_raw *raw);
int amd_cppc_ratio_decode(const struct amd_cppc_raw *raw,
			  struct amd_cppc_ratio_result *res);
int amd_cppc_ratio_decode_reason(const struct amd_cppc_raw *raw,
				 struct amd_cppc_ratio_result *res,
				 const char **reason);
const char *amd_cppc_ratio_rule_name(enum amd_cppc_boost_rule rule);

#endif /* _AMD_CPPC_RATIO_H */
