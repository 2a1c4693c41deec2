/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the governor's vocabulary, shared by its units, its pure
 * layers (sugov_inv_est.h, sugov_inv_iowait.h, sugov_inv_rules.h), the
 * tracepoint and KUnit: units, the freq_max choices, the reasons a
 * frequency is chosen, and the tunables' ranges and defaults.
 *
 * Units: frequencies in kHz; utilization, busy fractions and boosts in
 * capacity units (SCHED_CAPACITY_SCALE = 1024 = 100 %); times in ns unless a
 * name says _us or _ms; percentages as plain integers (125 = 1.25).
 *
 * "policy" is the cpufreq policy only; the freq_max_policy tunable keeps
 * its name, but what it picks is the freq_max choice (enum sugov_inv_fmax).
 */
#ifndef _SUGOV_INV_H
#define _SUGOV_INV_H

#include <linux/sched.h>
#include <linux/types.h>

/* Full capacity: what a CPU running all the time at the reference does. */
#define SUGOV_INV_CAP			((u32)SCHED_CAPACITY_SCALE)

/*
 * The formula's headroom, percent: schedutil's 1.25 (map_util_freq(), its
 * tipping point at util = 80 %)
 */
#define SUGOV_INV_HEADROOM_PCT		125U
/* The util average's half-life: PELT's, 32 ms (y^32 = 0.5, 1 ms periods) */
#define SUGOV_INV_HALFLIFE_MS		32U

/* Tunable ranges and defaults */
/*
 * overutil_threshold_pct: schedutil's tipping point, where 1.25 headroom
 * asks for freq_max, is 80 % util
 */
#define SUGOV_INV_THRESHOLD_DEFAULT_PCT	80U
#define SUGOV_INV_THRESHOLD_MIN_PCT	1U
#define SUGOV_INV_THRESHOLD_MAX_PCT	100U
/* rate_limit_us above one second would make the governor look frozen */
#define SUGOV_INV_RATE_LIMIT_MAX_US	1000000U
/*
 * idle_restore_us, the memory for work that arrives on an idle CPU
 * (Documentation/design.rst, "Work that arrives on an idle CPU"): the
 * idle time in one window that makes a long idle stretch; 20 ms is
 * ondemand's "two sampling periods" at a 10 ms rate limit, and longer than
 * the idle part of a periodic load of a 16 ms period.  Up to one second,
 * 0 = off.
 */
#define SUGOV_INV_IDLE_RESTORE_DEFAULT_US	20000
/*
 * chain_window_us, the chain rule's window (Documentation/design.rst,
 * "Chains of CPUs"): how soon after waking another CPU's task an idle
 * entry counts as a hand-off, the longest average gap between hand-offs
 * of a live link, and half its life after the last one.  Not the rate
 * limit: traced on the rig (tbench with one client, 2 vCPUs), a link was
 * live 96 % of the time with a 10 ms window and 25 % with 1 ms, as the
 * client and server sometimes run for milliseconds between hand-offs.
 * Up to one second, 0 = off.
 */
#define SUGOV_INV_CHAIN_WINDOW_DEFAULT_US	10000
#define SUGOV_INV_RULE_MAX_US		1000000U

/**
 * enum sugov_inv_fmax - which frequency stands for freq_max in the formula
 * @SUGOV_INV_MAX_P: the highest non-boost P-state
 * @SUGOV_INV_MIDPOINT: (max_P + max_boost) / 2
 * @SUGOV_INV_MAX_BOOST: the highest reachable frequency
 * @SUGOV_INV_OVERUTIL: the reference, but the policy's highest frequency
 *	while the CPU is over-utilized: the fix Giovanni Gherdovich proposed
 *	for schedutil on LKML in January 2021 (quoted by Phoronix on
 *	27 January 2021), in no kernel
 * @SUGOV_INV_NOINV: the current frequency, util not scaled (schedutil
 *	without frequency invariance)
 * @SUGOV_INV_NR_FMAX: number of choices
 *
 * The freq_max_policy tunable and module parameter pick one.  The first
 * three and noinv are the configurations of Gherdovich's AMD EPYC
 * measurements (commit 976df7e5730e: sugov-P0, sugov-mid, sugov-max,
 * sugov-noinv).  The order is the order sysfs lists them in.
 */
enum sugov_inv_fmax {
	SUGOV_INV_MAX_P,
	SUGOV_INV_MIDPOINT,
	SUGOV_INV_MAX_BOOST,
	SUGOV_INV_OVERUTIL,
	SUGOV_INV_NOINV,
	SUGOV_INV_NR_FMAX,
};

/**
 * enum sugov_inv_reason - why a frequency was chosen (tracepoint, debugfs)
 * @SUGOV_INV_REASON_FORMULA: headroom * freq_max * util / 1024
 * @SUGOV_INV_REASON_OVERUTIL: over-utilized: the policy's highest frequency
 * @SUGOV_INV_REASON_IOWAIT: the iowait boost exceeded util and set it
 * @SUGOV_INV_REASON_HOLD: a lower request was held: the CPU did not idle
 * @SUGOV_INV_REASON_LIMITS: evaluated because scaling_min/max_freq changed
 * @SUGOV_INV_REASON_WAKE: a CPU that just left a long idle stretch kept
 *	the frequency it idled at (up to what its util before the stretch
 *	asks for)
 * @SUGOV_INV_NR_REASONS: number of reasons
 */
enum sugov_inv_reason {
	SUGOV_INV_REASON_FORMULA,
	SUGOV_INV_REASON_OVERUTIL,
	SUGOV_INV_REASON_IOWAIT,
	SUGOV_INV_REASON_HOLD,
	SUGOV_INV_REASON_LIMITS,
	SUGOV_INV_REASON_WAKE,
	SUGOV_INV_NR_REASONS,
};

#endif /* _SUGOV_INV_H */
