// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_inv_caps: resolve one CPU's caps from its hardware, its cpufreq
 * policy and the overrides, and derive what a reader sees from them.
 * Pure functions, no hardware access: the same file is linked into
 * freq_invariance.ko and tools/fi-probe, which must report what the
 * module reports.  Documentation/design.rst, "The reference and the
 * kernel's ratios", states the rules in prose.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/stddef.h>

#include "compat.h"
#include "freq_inv_caps.h"

/**
 * freq_inv_caps_check_override() - judge a max_P/max_boost override
 * @max_p_khz: max_P given, kHz
 * @max_boost_khz: max_boost given, kHz (0 stands for a value that did not
 *	parse)
 *
 * max_P must be a frequency (1..FREQ_INV_MAX_KHZ kHz), max_boost one no
 * lower than max_P (below it is no boost: refused, never swapped) and at
 * most FREQ_INV_MAX_BOOST_RATIO times max_P.  The first rule broken, in
 * that order, is the answer: each front end words its own message.
 *
 * Context: any.
 * Return: FREQ_INV_OVERRIDE_OK, or the first fault.
 */
enum freq_inv_override_fault freq_inv_caps_check_override(u32 max_p_khz,
							  u32 max_boost_khz)
{
	if (!max_p_khz || max_p_khz > FREQ_INV_MAX_KHZ)
		return FREQ_INV_OVERRIDE_MAX_P_RANGE;
	if (max_boost_khz && max_boost_khz < max_p_khz)
		return FREQ_INV_OVERRIDE_BELOW;
	if (!max_boost_khz || max_boost_khz > FREQ_INV_MAX_KHZ)
		return FREQ_INV_OVERRIDE_MAX_BOOST_RANGE;
	if (max_boost_khz / max_p_khz > FREQ_INV_MAX_BOOST_RATIO)
		return FREQ_INV_OVERRIDE_RATIO;
	return FREQ_INV_OVERRIDE_OK;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_caps_check_override);

/**
 * freq_inv_caps_check_hw() - is a hardware answer one to believe?
 * @hw: max_P, max_boost (kHz) and ratio a backend decoded
 *
 * Firmware can report anything; the decoders refuse what the kernel would
 * refuse, and this the rest: a zero max_P, max_boost below max_P or above
 * FREQ_INV_MAX_KHZ, a boost ratio above FREQ_INV_MAX_BOOST_RATIO, a
 * kernel ratio below 1024.
 *
 * Context: any.
 * Return: 0 when sane; -ERANGE otherwise.
 */
static int freq_inv_caps_check_hw(const struct freq_inv_hw *hw)
{
	if (hw->max_p_khz && hw->max_p_khz <= hw->max_boost_khz &&
	    hw->max_boost_khz <= FREQ_INV_MAX_KHZ &&
	    hw->max_boost_khz / hw->max_p_khz <= FREQ_INV_MAX_BOOST_RATIO &&
	    hw->kernel_ratio >= FREQ_RATIO_SCALE)
		return 0;
	return -ERANGE;
}

/* The vendor's invariance rule applied to max_P and max_boost in kHz */
static u32 freq_inv_caps_override_ratio(const struct freq_inv_caps_in *in)
{
	u32 boost_ratio;

	/* Checked overrides: 1 <= max_boost / max_P <= 255, so this fits */
	if (in->vendor == FREQ_INV_VENDOR_OTHER ||
	    freq_ratio_of(in->override.max_boost_khz, in->override.max_p_khz,
			  &boost_ratio))
		return FREQ_RATIO_SCALE;
	if (in->vendor == FREQ_INV_VENDOR_AMD)
		return freq_ratio_amd_midpoint(boost_ratio);
	return boost_ratio;
}

/**
 * freq_inv_caps_resolve() - one CPU's caps, first source that answers
 * @in: the hardware's answer (or why there is none), the CPU's cpufreq
 *	policy, the overrides and the vendor
 * @res: set to the caps to publish
 *
 * The sources, in order: the hardware (when it answered and
 * freq_inv_caps_check_hw() believes it); the cpufreq table (max_P its
 * highest non-boost entry, max_boost its highest boost entry or max_P,
 * ratio 1024: the kernel has no invariance without CPPC or the MSRs);
 * nothing (max_P = max_boost = cpuinfo.max_freq, 0 without a policy,
 * ratio 1024).  Overrides replace the frequencies whatever answered; the
 * ratio stays the hardware's when it answered (wrong firmware frequencies
 * do not change what Linux computed from its registers), else it is the
 * vendor's rule applied to the given frequencies.
 *
 * Context: any.
 * Return: 0 when the hardware's answer was used; else why not: @in->hw_err,
 * or -ERANGE when freq_inv_caps_check_hw() refused the answer.
 */
int freq_inv_caps_resolve(const struct freq_inv_caps_in *in,
			  struct freq_inv_resolved *res)
{
	const struct freq_inv_policy_info *pol = &in->policy;
	int hw_err = in->hw_err ?: freq_inv_caps_check_hw(&in->hw);

	*res = (struct freq_inv_resolved) {
		.valid = true,
		.boost_switch = pol->boost_switch,
		.kernel_ratio = FREQ_RATIO_SCALE,
	};

	if (in->override.given) {
		res->source = FREQ_INV_SRC_OVERRIDE;
		res->max_p_khz = in->override.max_p_khz;
		res->max_boost_khz = in->override.max_boost_khz;
		res->kernel_ratio = hw_err ? freq_inv_caps_override_ratio(in) :
				    in->hw.kernel_ratio;
	} else if (!hw_err) {
		res->source = in->hw_source;
		res->max_p_khz = in->hw.max_p_khz;
		res->max_boost_khz = in->hw.max_boost_khz;
		res->kernel_ratio = in->hw.kernel_ratio;
	} else if (pol->max_p_khz) {
		res->source = FREQ_INV_SRC_CPUFREQ;
		res->max_p_khz = pol->max_p_khz;
		res->max_boost_khz = pol->max_boost_khz > pol->max_p_khz ?
				     pol->max_boost_khz : pol->max_p_khz;
	} else {
		res->source = FREQ_INV_SRC_NONE;
		res->max_p_khz = pol->cpuinfo_max_khz;
		res->max_boost_khz = pol->cpuinfo_max_khz;
	}
	return hw_err;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_caps_resolve);

/**
 * freq_inv_caps_boost_off() - is boost off in cpufreq for this CPU?
 * @res: the CPU's caps
 * @boost_enabled: the global boost switch's state (cpufreq_boost_enabled(),
 *	or /sys/devices/system/cpu/cpufreq/boost)
 * @cpuinfo_max_khz: the policy's cpuinfo.max_freq now
 *
 * With a boost switch, its state; without one (intel_pstate), whether the
 * policy's top frequency no longer reaches above max_P (no_turbo lowers
 * cpuinfo.max_freq to base).  Only meaningful for a CPU that has a policy.
 *
 * Context: any.
 * Return: true when boost is off.
 */
bool freq_inv_caps_boost_off(const struct freq_inv_resolved *res,
			     bool boost_enabled, u32 cpuinfo_max_khz)
{
	if (res->boost_switch)
		return !boost_enabled;
	return cpuinfo_max_khz <= res->max_p_khz;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_caps_boost_off);

/**
 * freq_inv_caps_derive() - the caps a reader sees
 * @res: the CPU's caps
 * @boost_off: boost is off in cpufreq (freq_inv_caps_boost_off())
 * @ref: the reference= choice
 * @caps: filled
 *
 * max_boost reads as max_P while boost is off; the midpoint follows it.
 * The reference is what @ref names; for FREQ_INV_REF_KERNEL max_P times
 * the kernel ratio, which does not follow the boost switch (Linux keeps
 * its ratio when acpi-cpufreq turns boost off).
 *
 * Context: any.
 */
void freq_inv_caps_derive(const struct freq_inv_resolved *res, bool boost_off,
			  enum freq_inv_reference ref,
			  struct freq_inv_caps *caps)
{
	u32 max_boost = boost_off ? res->max_p_khz : res->max_boost_khz;

	caps->max_p_khz = res->max_p_khz;
	caps->max_boost_khz = max_boost;
	caps->midpoint_khz = freq_ratio_midpoint_khz(res->max_p_khz, max_boost);
	caps->kernel_ratio = res->kernel_ratio;
	caps->source = res->source;

	switch (ref) {
	case FREQ_INV_REF_MAX_BOOST:
		caps->reference_khz = max_boost;
		break;
	case FREQ_INV_REF_MIDPOINT:
		caps->reference_khz = caps->midpoint_khz;
		break;
	case FREQ_INV_REF_MAX_P:
		caps->reference_khz = res->max_p_khz;
		break;
	default:
		/* A ratio that overflows saturates: still above max_boost */
		if (freq_ratio_scale_khz(res->max_p_khz, res->kernel_ratio,
					 &caps->reference_khz))
			caps->reference_khz = U32_MAX;
		break;
	}
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_caps_derive);

/**
 * freq_inv_source_name() - name of a caps source, as sysfs shows it
 * @source: the source
 *
 * Context: any.
 * Return: "none", "cppc", "msr", "cpufreq" or "override"; "unknown" for a
 * value outside enum freq_inv_source.
 */
const char *freq_inv_source_name(enum freq_inv_source source)
{
	switch (source) {
	case FREQ_INV_SRC_NONE:
		return "none";
	case FREQ_INV_SRC_CPPC:
		return "cppc";
	case FREQ_INV_SRC_MSR:
		return "msr";
	case FREQ_INV_SRC_CPUFREQ:
		return "cpufreq";
	case FREQ_INV_SRC_OVERRIDE:
		return "override";
	default:
		return "unknown";
	}
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_source_name);
