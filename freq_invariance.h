/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_invariance: per-CPU frequency capabilities and delivered-frequency
 * sampling, exported to the sugov_inv governor.
 *
 * All frequencies are in kHz; ratios are scaled by SCHED_CAPACITY_SCALE
 * (1024 = 1.0).  Symbols live in the FREQ_INVARIANCE namespace.
 */
#ifndef _FREQ_INVARIANCE_H
#define _FREQ_INVARIANCE_H

#include <linux/types.h>

/**
 * enum freq_inv_source - where a CPU's max_P/max_boost came from
 * @FREQ_INV_SRC_NONE: nothing known; max_boost = max_P, ratio 1024
 * @FREQ_INV_SRC_CPPC: ACPI CPPC highest_perf/nominal_perf (AMD)
 * @FREQ_INV_SRC_MSR: Intel MSR_PLATFORM_INFO / MSR_TURBO_RATIO_LIMIT*
 * @FREQ_INV_SRC_CPUFREQ: the cpufreq frequency table of the CPU's policy
 * @FREQ_INV_SRC_OVERRIDE: the max_p_khz= / max_boost_khz= module parameters
 * @FREQ_INV_SRC_NR: number of sources
 */
enum freq_inv_source {
	FREQ_INV_SRC_NONE,
	FREQ_INV_SRC_CPPC,
	FREQ_INV_SRC_MSR,
	FREQ_INV_SRC_CPUFREQ,
	FREQ_INV_SRC_OVERRIDE,
	FREQ_INV_SRC_NR,
};

/**
 * enum freq_inv_reference - what capacity 1024 stands for
 * @FREQ_INV_REF_KERNEL: the ratio the running kernel itself uses on this
 *	CPU (Linux 6.1's or 6.12's rules, enum freq_ratio_rules)
 * @FREQ_INV_REF_MAX_BOOST: the highest frequency the part reaches
 * @FREQ_INV_REF_MIDPOINT: (max_P + max_boost) / 2
 * @FREQ_INV_REF_MAX_P: the highest non-boost P-state (nominal/base)
 * @FREQ_INV_REF_NR: number of references
 */
enum freq_inv_reference {
	FREQ_INV_REF_KERNEL,
	FREQ_INV_REF_MAX_BOOST,
	FREQ_INV_REF_MIDPOINT,
	FREQ_INV_REF_MAX_P,
	FREQ_INV_REF_NR,
};

/**
 * struct freq_inv_caps - one CPU's frequencies, as the governor sees them
 * @max_p_khz: highest non-boost P-state
 * @max_boost_khz: highest reachable frequency; equals @max_p_khz while
 *	cpufreq boost is off
 * @midpoint_khz: (@max_p_khz + @max_boost_khz) / 2
 * @reference_khz: the frequency capacity 1024 stands for, per the
 *	reference= parameter
 * @kernel_ratio: the running kernel's invariance ratio for this CPU,
 *	x1024 (arch_max_freq_ratio), never below 1024
 * @source: where @max_p_khz and @max_boost_khz came from
 */
struct freq_inv_caps {
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 midpoint_khz;
	u32 reference_khz;
	u32 kernel_ratio;
	enum freq_inv_source source;
};

/**
 * enum freq_inv_deliv_source - who answered a delivered-frequency query
 * @FREQ_INV_DELIV_APERFMPERF: APERF/MPERF deltas scaled by max_P
 * @FREQ_INV_DELIV_CPUFREQ: the policy's current frequency (no counters)
 * @FREQ_INV_DELIV_CPPC: ACPI CPPC delivered/reference performance
 *	counter deltas scaled by the reference frequency (no APERF/MPERF)
 * @FREQ_INV_DELIV_NR: number of sources
 */
enum freq_inv_deliv_source {
	FREQ_INV_DELIV_APERFMPERF,
	FREQ_INV_DELIV_CPUFREQ,
	FREQ_INV_DELIV_CPPC,
	FREQ_INV_DELIV_NR,
};

/**
 * struct freq_inv_sample - counter snapshot of one CPU
 * @cpu: the CPU the snapshot belongs to
 * @aperf: IA32_APERF at the snapshot
 * @mperf: IA32_MPERF at the snapshot
 * @cppc_delivered: running total of ACPI CPPC delivered-counter ticks
 * @cppc_reference: running total of ACPI CPPC reference-counter ticks
 *
 * Owned by the caller (one per CPU); opaque apart from @cpu.
 */
struct freq_inv_sample {
	unsigned int cpu;
	u64 aperf;
	u64 mperf;
	u64 cppc_delivered;
	u64 cppc_reference;
};

int freq_inv_get_caps(unsigned int cpu, struct freq_inv_caps *caps);
int freq_inv_sample_prepare(struct freq_inv_sample *sample);
int freq_inv_delivered_khz(struct freq_inv_sample *sample, u32 *khz,
			   enum freq_inv_deliv_source *src);
const char *freq_inv_source_name(enum freq_inv_source source);

#endif /* _FREQ_INVARIANCE_H */
