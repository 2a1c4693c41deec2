/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the decision rules.  What to ask for (the formula, the
 * freq_max choices, the over-utilization test, and the wake-up hold for
 * work that arrives on an idle CPU: sugov_inv_decide()), when to evaluate
 * (the rate limit, sugov_inv_eval_due()), when to send
 * (sugov_inv_update_next()), and when to keep the last request (the
 * resolve cache and the busy-CPU hold, sugov_inv_settle()).
 *
 * Pure: static inlines of their arguments only, checked by KUnit
 * (kunit/sugov_inv_formula_kunit.c, sugov_inv_ratelimit_kunit.c,
 * sugov_inv_settle_kunit.c) and called from the update_util hooks.  The
 * order one evaluation applies them in is listed in sugov_inv_gov.c,
 * above sugov_inv_gather_wake().
 */
#ifndef _SUGOV_INV_RULES_H
#define _SUGOV_INV_RULES_H

#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "sugov_inv.h"

struct cpufreq_policy;

/**
 * sugov_inv_formula() - headroom * freq_max * util / 1024
 * @headroom_pct: headroom in percent (125 = 1.25)
 * @freq_max_khz: freq_max of the active choice
 * @util: capacity units; values above 1024 count as 1024
 *
 * Return: the raw target in kHz (before resolving to a table entry),
 * rounded down, saturated at UINT_MAX.
 */
static inline u32 sugov_inv_formula(u32 headroom_pct, u32 freq_max_khz,
				    u32 util)
{
	u64 khz;

	util = min(util, SUGOV_INV_CAP);
	/* u32 * u32 fits in u64; the 96-bit product goes via mul_u64_u32_div */
	khz = mul_u64_u32_div((u64)headroom_pct * freq_max_khz, util,
			      100 * SUGOV_INV_CAP);
	return (u32)min_t(u64, khz, U32_MAX);
}

/**
 * sugov_inv_overutilized() - is a busy fraction at or over the threshold?
 * @busy: busy fraction not scaled by frequency, capacity units
 * @threshold_pct: threshold in percent (1..100)
 *
 * Return: true when busy / 1024 >= threshold / 100.
 */
static inline bool sugov_inv_overutilized(u32 busy, u32 threshold_pct)
{
	return (u64)busy * 100 >= (u64)threshold_pct * SUGOV_INV_CAP;
}

/**
 * struct sugov_inv_in - everything one decision depends on
 * @fmax: the active freq_max choice (the freq_max_policy tunable)
 * @util_inv: smoothed invariant util (max over the policy's CPUs)
 * @util_raw: smoothed busy fraction, not scaled (max over the CPUs)
 * @boost: iowait boost (max over the CPUs), capacity units
 * @cur_khz: the policy's current frequency
 * @cpu_max_khz: the policy's highest frequency (cpuinfo.max_freq)
 * @max_p_khz: freq_inv caps: highest non-boost P-state
 * @mid_khz: freq_inv caps: midpoint
 * @max_boost_khz: freq_inv caps: highest reachable frequency
 * @ref_khz: freq_inv caps: what capacity 1024 stands for
 * @overutil_pct: over-utilization threshold tunable
 * @wake_hold: the evaluating CPU just left a long idle stretch and has not
 *	run for a tick yet (sugov_inv_wake_holding())
 * @pre_util_inv: @util_inv before that stretch (struct sugov_inv_wake)
 * @pre_util_raw: @util_raw before that stretch
 * @last_khz: the frequency last requested (the policy's next_freq)
 */
struct sugov_inv_in {
	enum sugov_inv_fmax fmax;
	u32 util_inv;
	u32 util_raw;
	u32 boost;
	u32 cur_khz;
	u32 cpu_max_khz;
	u32 max_p_khz;
	u32 mid_khz;
	u32 max_boost_khz;
	u32 ref_khz;
	u32 overutil_pct;
	bool wake_hold;
	u32 pre_util_inv;
	u32 pre_util_raw;
	u32 last_khz;
};

/**
 * struct sugov_inv_out - one decision before the driver resolves it
 * @util: the util fed to the formula (after the iowait boost)
 * @freq_max_khz: freq_max the choice gave
 * @raw_khz: the raw target, kHz (before resolve and clamping)
 * @reason: SUGOV_INV_REASON_FORMULA, _OVERUTIL, _IOWAIT or _WAKE
 */
struct sugov_inv_out {
	u32 util;
	u32 freq_max_khz;
	u32 raw_khz;
	enum sugov_inv_reason reason;
};

/**
 * sugov_inv_fmax_khz() - freq_max of the active choice in the formula
 * @in: the decision inputs
 *
 * Return: kHz; for overutil-detect the reference (its value while not
 * over-utilized).  An unknown choice behaves as max_boost.
 */
static inline u32 sugov_inv_fmax_khz(const struct sugov_inv_in *in)
{
	switch (in->fmax) {
	case SUGOV_INV_MAX_P:
		return in->max_p_khz;
	case SUGOV_INV_MIDPOINT:
		return in->mid_khz;
	case SUGOV_INV_OVERUTIL:
		return in->ref_khz;
	case SUGOV_INV_NOINV:
		return in->cur_khz;
	case SUGOV_INV_MAX_BOOST:
	default:
		return in->max_boost_khz;
	}
}

/* headroom * freq_max * util for @util_inv and @util_raw as @in's choice */
static inline u32 sugov_inv_target(const struct sugov_inv_in *in,
				   u32 util_inv, u32 util_raw)
{
	return sugov_inv_formula(SUGOV_INV_HEADROOM_PCT, sugov_inv_fmax_khz(in),
				 in->fmax == SUGOV_INV_NOINV ? util_raw :
							       util_inv);
}

/**
 * sugov_inv_decide() - the freq_max choices and the rules after them
 * @in: the decision inputs
 * @out: the decision
 *
 * The table of Documentation/design.rst, "The formula and the freq_max
 * policies".  noinv: cur * headroom * busy (util not scaled); the three
 * fixed choices: their freq_max * headroom * invariant util;
 * overutil-detect: the reference * headroom * invariant util, or the
 * policy's highest frequency irrespective of util while the unscaled busy
 * fraction is at or above the threshold.  The iowait boost raises util as
 * in schedutil.
 *
 * Then the rule of "Work that arrives on an idle CPU": a CPU that just
 * left a long idle stretch (@in->wake_hold) keeps the frequency it idled
 * at, up to what its util before the stretch asks for, until it has run a
 * tick.  It raises the raw target, never lowers it.
 */
static inline void sugov_inv_decide(const struct sugov_inv_in *in,
				    struct sugov_inv_out *out)
{
	u32 util = in->fmax == SUGOV_INV_NOINV ? in->util_raw : in->util_inv;
	u32 hold_khz;

	out->reason = SUGOV_INV_REASON_FORMULA;
	if (in->boost > util) {
		util = min(in->boost, SUGOV_INV_CAP);
		out->reason = SUGOV_INV_REASON_IOWAIT;
	}
	out->util = util;
	out->freq_max_khz = sugov_inv_fmax_khz(in);

	if (in->fmax == SUGOV_INV_OVERUTIL &&
	    sugov_inv_overutilized(in->util_raw, in->overutil_pct)) {
		/* cpuinfo.max_freq unknown (0): the caps' highest instead */
		out->freq_max_khz = in->cpu_max_khz ?: in->max_boost_khz;
		out->raw_khz = out->freq_max_khz;
		out->reason = SUGOV_INV_REASON_OVERUTIL;
	} else {
		out->raw_khz = sugov_inv_formula(SUGOV_INV_HEADROOM_PCT,
						 out->freq_max_khz, util);
	}

	if (in->wake_hold) {
		hold_khz = min(in->last_khz,
			       sugov_inv_target(in, in->pre_util_inv,
						in->pre_util_raw));
		if (hold_khz > out->raw_khz) {
			out->raw_khz = hold_khz;
			out->reason = SUGOV_INV_REASON_WAKE;
		}
	}
}

/**
 * sugov_inv_eval_due() - schedutil's rate limit, with its limits bypass
 * @now_ns: hook time, ns (rq clock)
 * @last_freq_update_ns: when the policy's frequency last changed, ns
 *	(see sugov_inv_update_next())
 * @delay_ns: rate_limit_us in ns
 * @limits_changed: scaling_min/max_freq changed since the last evaluation
 *
 * A limits change is applied at the next hook call whatever the rate
 * limit; otherwise at most one evaluation per @delay_ns.  The signed
 * difference keeps a clock that went backwards (another CPU's rq clock,
 * slightly behind) from reading as a huge delay.
 *
 * Context: any.
 * Return: true when the policy should be evaluated now.
 */
static inline bool sugov_inv_eval_due(u64 now_ns, u64 last_freq_update_ns,
				      s64 delay_ns, bool limits_changed)
{
	return limits_changed ||
	       (s64)(now_ns - last_freq_update_ns) >= delay_ns;
}

/**
 * sugov_inv_update_next() - schedutil's sugov_update_next_freq() rule
 * @next_khz: the frequency this evaluation settled on
 * @last_khz: the frequency last requested from the driver
 * @force: a limits change is pending: send even when unchanged
 *
 * Only a request restarts the rate limit: the caller records its time as
 * the policy's last frequency update.  An evaluation that changes nothing
 * neither sends nor restarts it, so a load step after it is acted on at
 * the next hook call once rate_limit_us has passed since the last change,
 * not since the last evaluation.
 *
 * Context: any.
 * Return: true when @next_khz must be sent to the driver.
 */
static inline bool sugov_inv_update_next(u32 next_khz, u32 last_khz,
					 bool force)
{
	return next_khz != last_khz || force;
}

/**
 * struct sugov_inv_settle - what sugov_inv_settle() works on
 * @raw_khz: in: this evaluation's raw target (struct sugov_inv_out)
 * @last_khz: in: the frequency last requested (the policy's next_freq)
 * @cached_raw_khz: in: the raw target @last_khz was resolved from (0: none);
 *	out: the raw target @next_khz was resolved from
 * @force: in: a limits change is pending: resolve afresh, never hold
 * @may_hold: in: the busy-CPU hold applies: a single-CPU policy whose CPU
 *	has not idled in any window since its last evaluation
 * @next_khz: out: the frequency to request
 * @held: out: @next_khz is @last_khz, kept against a lower target
 */
struct sugov_inv_settle {
	u32 raw_khz;
	u32 last_khz;
	u32 cached_raw_khz;
	bool force;
	bool may_hold;
	u32 next_khz;
	bool held;
};

/**
 * sugov_inv_settle() - the resolve cache and the busy-CPU hold
 * @s: inputs and outputs
 * @policy: passed to @resolve only
 * @resolve: the driver's resolution: the lowest table entry at or above a
 *	target, within the policy limits (cpufreq_driver_resolve_freq(); KUnit
 *	passes a table of its own)
 *
 * The resolve cache, as schedutil's get_next_freq(): an unchanged raw
 * target reuses @s->last_khz without resolving again (which also makes
 * the race with __cpufreq_driver_target() told at sugov_inv_work() rarer).
 *
 * The busy-CPU hold, as schedutil's sugov_cpu_is_busy() rule: a CPU that
 * ran through keeps its frequency rather than lose it to a util average
 * that is still catching up.  The kept frequency did not come from this
 * raw target, so the cache keeps the old one, and the next evaluation
 * resolves again.  A limits change must apply, so @s->force neither
 * reuses nor holds.
 *
 * Always inlined, so that @resolve, a constant at the governor's one call,
 * is a direct call there.
 *
 * Context: any (the hooks' callers hold the rq lock, IRQs off).
 */
static __always_inline void
sugov_inv_settle(struct sugov_inv_settle *s, struct cpufreq_policy *policy,
		 unsigned int (*resolve)(struct cpufreq_policy *policy,
					 unsigned int target_freq))
{
	s->held = false;
	if (s->raw_khz == s->cached_raw_khz && !s->force) {
		s->next_khz = s->last_khz;
		return;
	}

	s->next_khz = resolve(policy, s->raw_khz);
	if (!s->force && s->next_khz < s->last_khz && s->may_hold) {
		s->held = true;
		s->next_khz = s->last_khz;
		return;
	}
	s->cached_raw_khz = s->raw_khz;
}

#endif /* _SUGOV_INV_RULES_H */
