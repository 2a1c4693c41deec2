/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * intel_ratio: pure decoder from Intel MSR values to max_P, max_boost and
 * the frequency-invariance ratio the kernel uses
 * (arch/x86/kernel/cpu/aperfmperf.c, intel_set_max_freq_ratio()), the
 * same in Linux 6.1 and 6.12.
 *
 * Nothing here reads hardware: callers fill struct intel_ratio_raw with
 * rdmsrq_safe_on_cpu() (kernel) or /dev/cpu/N/msr (fi-probe) and mark
 * which reads succeeded in @have, because Linux picks its path by which
 * MSRs exist.  Builds in the kernel and in user space.
 *
 * Errors (every function; on error no output field is meaningful):
 *   -EINVAL     malformed: a zero ratio, no turbo ratio where the rule
 *               needs one (empty turbo bytes, KNL with no deltas), turbo
 *               below base (a ratio below 1024), bus clock index unknown,
 *               an unknown rule set
 *   -ERANGE     arithmetic overflow, or a ratio that rounds to zero
 *   -ENODATA    an MSR the rule needs was not readable
 *   -EOPNOTSUPP not an Intel family 6 part (the kernel has no rule for it)
 * No function returns 0 with an output left unset.
 */
#ifndef _INTEL_RATIO_H
#define _INTEL_RATIO_H

#include <linux/bits.h>
#include <linux/types.h>

#include "freq_ratio.h"

/*
 * Bus clock, kHz: 100 MHz from Sandy Bridge on; 133.33 MHz on Nehalem and
 * Westmere; Silvermont (0x37) and Airmont (0x4c) read MSR_FSB_FREQ
 * (intel_ratio_bus_khz()).
 */
#define INTEL_RATIO_BUS_KHZ_DEFAULT	100000U
#define INTEL_RATIO_BUS_KHZ_NEHALEM	133333U

/* MSR addresses (arch/x86/include/asm/msr-index.h); fi-probe reads them */
#define INTEL_RATIO_MSR_FSB_FREQ		0x0cdU
#define INTEL_RATIO_MSR_PLATFORM_INFO		0x0ceU
#define INTEL_RATIO_MSR_IA32_MISC_ENABLE	0x1a0U
#define INTEL_RATIO_MSR_TURBO_RATIO_LIMIT	0x1adU
#define INTEL_RATIO_MSR_TURBO_RATIO_LIMIT1	0x1aeU
#define INTEL_RATIO_MSR_ATOM_CORE_RATIOS	0x66aU
#define INTEL_RATIO_MSR_ATOM_CORE_TURBO_RATIOS	0x66cU

/* Bits of struct intel_ratio_raw.have: that MSR was read successfully */
#define INTEL_RATIO_HAVE_PLATFORM_INFO		BIT(0)
#define INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT	BIT(1)
#define INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1	BIT(2)
#define INTEL_RATIO_HAVE_MISC_ENABLE		BIT(3)
#define INTEL_RATIO_HAVE_ATOM_CORE_RATIOS	BIT(4)
#define INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS	BIT(5)

/* CPUID models (family 6) with their own rule, as asm/intel-family.h */
#define INTEL_RATIO_MODEL_SKYLAKE_X		0x55U
#define INTEL_RATIO_MODEL_XEON_PHI_KNL		0x57U
#define INTEL_RATIO_MODEL_XEON_PHI_KNM		0x85U
#define INTEL_RATIO_MODEL_ATOM_SILVERMONT	0x37U
#define INTEL_RATIO_MODEL_ATOM_AIRMONT		0x4cU
#define INTEL_RATIO_MODEL_ATOM_GOLDMONT		0x5cU
#define INTEL_RATIO_MODEL_ATOM_GOLDMONT_D	0x5fU
#define INTEL_RATIO_MODEL_ATOM_GOLDMONT_PLUS	0x7aU

/**
 * enum intel_ratio_path - which kernel rule chose the turbo ratio
 * @INTEL_RATIO_PATH_SLM: Silvermont/Airmont MSR_ATOM_CORE_(TURBO_)RATIOS,
 *	1-core turbo (tried first on any part where both MSRs read)
 * @INTEL_RATIO_PATH_GLM: Goldmont group rule: first group of >= 1 core
 * @INTEL_RATIO_PATH_KNL: Knights Landing/Mill delta rule: top ratio minus
 *	the first non-zero delta
 * @INTEL_RATIO_PATH_SKX: Skylake-X group rule: first group of >= 4 cores
 * @INTEL_RATIO_PATH_CORE_4C: core parts: 4-core turbo, byte 3
 * @INTEL_RATIO_PATH_CORE_1C: core parts with fewer than 4 cores (byte 3
 *	is zero): 1-core turbo, byte 0
 */
enum intel_ratio_path {
	INTEL_RATIO_PATH_SLM,
	INTEL_RATIO_PATH_GLM,
	INTEL_RATIO_PATH_KNL,
	INTEL_RATIO_PATH_SKX,
	INTEL_RATIO_PATH_CORE_4C,
	INTEL_RATIO_PATH_CORE_1C,
};

/**
 * struct intel_ratio_raw - raw MSR values of one CPU
 * @rules: whose rules to follow: 6.1's and 6.12's Intel rules are the
 *	same (aperfmperf.c changed only its CPU-match macros), so this only
 *	has to be a known rule set
 * @family: CPUID family (boot_cpu_data.x86), 6 for every part the kernel
 *	handles
 * @model: CPUID model (boot_cpu_data.x86_model)
 * @have: INTEL_RATIO_HAVE_* bits: which MSRs below were readable
 * @platform_info: MSR_PLATFORM_INFO (0xce); bits 15:8 max non-turbo ratio
 * @turbo_ratio_limit: MSR_TURBO_RATIO_LIMIT (0x1ad); byte N = ratio for
 *	N+1 active cores (core), for group N (SKX/GLM), or the KNL encoding
 * @turbo_ratio_limit1: MSR_TURBO_RATIO_LIMIT1 (0x1ae); on SKX/GLM byte N
 *	is the core count of group N
 * @misc_enable: MSR_IA32_MISC_ENABLE (0x1a0); bit 38 turbo disable
 * @atom_core_ratios: MSR_ATOM_CORE_RATIOS (0x66a); bits 21:16 max
 *	non-turbo ratio (Silvermont/Airmont)
 * @atom_core_turbo_ratios: MSR_ATOM_CORE_TURBO_RATIOS (0x66c); bits 5:0
 *	1-core turbo ratio (Silvermont/Airmont)
 * @bus_khz: bus clock in kHz; 0 means INTEL_RATIO_BUS_KHZ_DEFAULT.  See
 *	intel_ratio_bus_khz() for the parts that differ (Nehalem, Westmere,
 *	Silvermont, Airmont)
 */
struct intel_ratio_raw {
	enum freq_ratio_rules rules;
	u32 family;
	u32 model;
	u32 have;
	u64 platform_info;
	u64 turbo_ratio_limit;
	u64 turbo_ratio_limit1;
	u64 misc_enable;
	u64 atom_core_ratios;
	u64 atom_core_turbo_ratios;
	u32 bus_khz;
};

/**
 * struct intel_ratio_result - decoded frequencies and ratios of one CPU
 * @path: the kernel's rule that chose @kernel_turbo
 * @bus_khz: bus clock used, kHz
 * @base: max non-turbo ratio (max_P / bus clock)
 * @turbo_1c: 1-core turbo ratio (max_boost / bus clock)
 * @kernel_turbo: the turbo ratio the kernel divides by @base
 * @turbo_disabled: MSR_IA32_MISC_ENABLE bit 38 was set
 * @max_p_khz: @base * @bus_khz
 * @max_boost_khz: @turbo_1c * @bus_khz; @max_p_khz when turbo is disabled
 * @boost_ratio: @turbo_1c * 1024 / @base
 * @turbo_freq_ratio: @kernel_turbo * 1024 / @base (arch_turbo_freq_ratio)
 * @kernel_ratio: the kernel's arch_max_freq_ratio: @turbo_freq_ratio, or
 *	1024 when turbo is disabled
 * @kernel_reference_khz: the frequency capacity 1024 stands for in the
 *	kernel: @max_p_khz * @kernel_ratio >> 10
 */
struct intel_ratio_result {
	enum intel_ratio_path path;
	u32 bus_khz;
	u32 base;
	u32 turbo_1c;
	u32 kernel_turbo;
	bool turbo_disabled;
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 boost_ratio;
	u32 turbo_freq_ratio;
	u32 kernel_ratio;
	u32 kernel_reference_khz;
};

int intel_ratio_bus_khz(u32 family, u32 model, const u64 *fsb_freq,
			u32 *bus_khz);
int intel_ratio_decode(const struct intel_ratio_raw *raw,
		       struct intel_ratio_result *res);
int intel_ratio_decode_reason(const struct intel_ratio_raw *raw,
			      struct intel_ratio_result *res,
			      const char **reason);
const char *intel_ratio_path_name(enum intel_ratio_path path);

#endif /* _INTEL_RATIO_H */
