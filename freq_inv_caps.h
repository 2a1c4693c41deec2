/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_inv_caps: the pure rules that turn what a CPU's hardware, its
 * cpufreq policy and the max_p_khz=/max_boost_khz= overrides say into the
 * caps freq_invariance publishes, and those into what a reader sees
 * (cpufreq's boost state, the reference= choice).  Nothing here reads
 * hardware or takes a lock: freq_inv_caps.c is linked into
 * freq_invariance.ko and tools/fi-probe, so both answer alike, and KUnit
 * drives it with tables.
 */
#ifndef _FREQ_INV_CAPS_H
#define _FREQ_INV_CAPS_H

#include <linux/types.h>

#include "freq_invariance.h"
#include "freq_ratio.h"

/* Highest frequency an override or a hardware answer may claim: 10 GHz */
#define FREQ_INV_MAX_KHZ	10000000U

/*
 * Largest max_boost/max_P accepted: the ratio of two 8-bit P-state ratios
 * (Intel MSR_TURBO_RATIO_LIMIT bytes over MSR_PLATFORM_INFO bits 15:8,
 * AMD CPPC highest_perf over nominal_perf), so no hardware exceeds it.
 * It keeps every ratio times FREQ_RATIO_SCALE well inside 32 bits.
 */
#define FREQ_INV_MAX_BOOST_RATIO	255U

/**
 * enum freq_inv_vendor - whose invariance rule applies to overrides
 * @FREQ_INV_VENDOR_OTHER: no rule: ratio 1024
 * @FREQ_INV_VENDOR_AMD: the midpoint of the boost ratio and 1024
 * @FREQ_INV_VENDOR_INTEL: the boost ratio itself (turbo over base)
 */
enum freq_inv_vendor {
	FREQ_INV_VENDOR_OTHER,
	FREQ_INV_VENDOR_AMD,
	FREQ_INV_VENDOR_INTEL,
};

/**
 * struct freq_inv_hw - what a hardware backend decoded for one CPU
 * @max_p_khz: max_P, kHz
 * @max_boost_khz: max_boost, kHz
 * @kernel_ratio: the running kernel's invariance ratio, x1024
 */
struct freq_inv_hw {
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 kernel_ratio;
};

/**
 * struct freq_inv_policy_info - what the CPU's cpufreq policy tells
 * @boost_switch: its driver has the global boost switch
 *	(/sys/devices/system/cpu/cpufreq/boost)
 * @max_p_khz: highest non-boost table entry, 0 without a table
 * @max_boost_khz: highest CPUFREQ_BOOST_FREQ table entry, 0 if none
 * @cpuinfo_max_khz: the policy's cpuinfo.max_freq, 0 without a policy
 */
struct freq_inv_policy_info {
	bool boost_switch;
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 cpuinfo_max_khz;
};

/**
 * struct freq_inv_override - the max_p_khz= / max_boost_khz= parameters
 * @given: both were given (and passed freq_inv_caps_check_override())
 * @max_p_khz: max_P for every CPU, kHz
 * @max_boost_khz: max_boost for every CPU, kHz
 */
struct freq_inv_override {
	bool given;
	u32 max_p_khz;
	u32 max_boost_khz;
};

/**
 * struct freq_inv_caps_in - everything one CPU's caps are resolved from
 * @hw_err: 0 when @hw holds the hardware backend's answer, else why not
 * @hw: the backend's answer
 * @hw_source: the source that answer is reported as (cppc or msr)
 * @vendor: whose rule gives the ratio of overridden frequencies
 * @policy: the CPU's cpufreq policy, all 0 without one
 * @override: the overrides
 */
struct freq_inv_caps_in {
	int hw_err;
	struct freq_inv_hw hw;
	enum freq_inv_source hw_source;
	enum freq_inv_vendor vendor;
	struct freq_inv_policy_info policy;
	struct freq_inv_override override;
};

/**
 * struct freq_inv_resolved - one CPU's caps as freq_invariance stores them
 * @max_p_khz: highest non-boost P-state, kHz
 * @max_boost_khz: highest boost frequency with boost on, kHz
 * @kernel_ratio: the running kernel's invariance ratio, x1024
 * @source: where @max_p_khz and @max_boost_khz came from
 * @boost_switch: the CPU's cpufreq driver had a global boost switch
 * @valid: resolved at least once (a zero-filled struct is not)
 *
 * Boost-dependent values (max_boost while boost is off, midpoint,
 * reference) are derived when read, by freq_inv_caps_derive(): the boost
 * switch has no notifier.
 */
struct freq_inv_resolved {
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 kernel_ratio;
	enum freq_inv_source source;
	bool boost_switch;
	bool valid;
};

/**
 * enum freq_inv_override_fault - what is wrong with an override
 * @FREQ_INV_OVERRIDE_OK: nothing
 * @FREQ_INV_OVERRIDE_MAX_P_RANGE: max_P is 0 or above FREQ_INV_MAX_KHZ
 * @FREQ_INV_OVERRIDE_BELOW: max_boost is below max_P (and not 0)
 * @FREQ_INV_OVERRIDE_MAX_BOOST_RANGE: max_boost is 0 or above
 *	FREQ_INV_MAX_KHZ
 * @FREQ_INV_OVERRIDE_RATIO: max_boost is more than
 *	FREQ_INV_MAX_BOOST_RATIO times max_P
 */
enum freq_inv_override_fault {
	FREQ_INV_OVERRIDE_OK,
	FREQ_INV_OVERRIDE_MAX_P_RANGE,
	FREQ_INV_OVERRIDE_BELOW,
	FREQ_INV_OVERRIDE_MAX_BOOST_RANGE,
	FREQ_INV_OVERRIDE_RATIO,
};

enum freq_inv_override_fault freq_inv_caps_check_override(u32 max_p_khz,
							  u32 max_boost_khz);
int freq_inv_caps_resolve(const struct freq_inv_caps_in *in,
			  struct freq_inv_resolved *res);
bool freq_inv_caps_boost_off(const struct freq_inv_resolved *res,
			     bool boost_enabled, u32 cpuinfo_max_khz);
void freq_inv_caps_derive(const struct freq_inv_resolved *res, bool boost_off,
			  enum freq_inv_reference ref,
			  struct freq_inv_caps *caps);

#endif /* _FREQ_INV_CAPS_H */
