// SPDX-License-Identifier: GPL-2.0-only
/*
 * intel_ratio: Intel MSR values -> max_P, max_boost and the kernel's
 * frequency-invariance ratio.  Pure functions, no hardware
 * access: the same file is linked into freq_invariance.ko and fi-probe.
 *
 * The path is chosen as intel_set_max_freq_ratio() chooses it
 * (arch/x86/kernel/cpu/aperfmperf.c; Linux 6.1 and 6.12 agree: 6.12
 * changed only the CPU-match macros, to X86_MATCH_VFM), in this order:
 *  1. Silvermont/Airmont: any part on which MSR_ATOM_CORE_RATIOS and
 *     MSR_ATOM_CORE_TURBO_RATIOS both read; 1-core turbo (Atoms favour
 *     efficiency, so Linux takes their highest turbo level).
 *  2. Goldmont (0x5c, 0x5f, 0x7a): first MSR_TURBO_RATIO_LIMIT1 group of
 *     at least 1 core; without one, the next rule is tried.
 *  3. Knights Landing/Mill (0x57, 0x85): top ratio minus the first
 *     non-zero 3-bit delta.
 *  4. Skylake-X (0x55): first group of at least 4 cores, else the next rule.
 *  5. Everything else: the 4-core turbo, or the 1-core turbo when the
 *     4-core byte is 0 (fewer than 4 cores).
 * Then ratio = turbo * 1024 / base, and 1024 when MSR_IA32_MISC_ENABLE
 * bit 38 disables turbo.  Where the kernel leaves the turbo ratio unset
 * (KNL without a usable delta) or accepts an odd value (turbo below base,
 * so a ratio below 1024) this file returns an error instead.
 *
 * Not modelled: Linux 6.12's hybrid capacity scaling (commit 929ebc93ccaa,
 * "cpufreq: intel_pstate: Set asymmetric CPU capacity on hybrid
 * systems"), with which intel_pstate gives each CPU of a hybrid part
 * without SMT its own ratio from MSR_HWP_CAPABILITIES; with SMT (the
 * i3-1220P of Documentation/published-cpus.rst) the ratio below holds.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/stddef.h>

#include "compat.h"
#include "intel_ratio.h"

/* Every part aperfmperf.c (6.1, 6.12) knows is CPUID family 6 */
#define INTEL_RATIO_FAMILY		6U

/* MSR_IA32_MISC_ENABLE bit 38: turbo (IDA) disabled by firmware or OS */
#define INTEL_RATIO_MISC_TURBO_DISABLE	BIT_ULL(38)

/**
 * struct intel_ratio_model - one family 6 model
 * @model: CPUID model
 * @name: the parts, for reviewers
 */
struct intel_ratio_model {
	u32 model;
	const char *name;
};

/* has_glm_turbo_ratio_limits[] of 6.1: group rule, groups of >= 1 core */
static const struct intel_ratio_model intel_ratio_glm_models[] = {
	{ INTEL_RATIO_MODEL_ATOM_GOLDMONT, "Goldmont: Apollo Lake" },
	{ INTEL_RATIO_MODEL_ATOM_GOLDMONT_D, "Goldmont: Denverton" },
	{ INTEL_RATIO_MODEL_ATOM_GOLDMONT_PLUS, "Goldmont Plus: Gemini Lake" },
	{ }	/* sentinel */
};

/* has_knl_turbo_ratio_limits[] of 6.1: delta rule, first delta */
static const struct intel_ratio_model intel_ratio_knl_models[] = {
	{ INTEL_RATIO_MODEL_XEON_PHI_KNL, "Xeon Phi: Knights Landing" },
	{ INTEL_RATIO_MODEL_XEON_PHI_KNM, "Xeon Phi: Knights Mill" },
	{ }	/* sentinel */
};

/* has_skx_turbo_ratio_limits[] of 6.1: group rule, groups of >= 4 cores */
static const struct intel_ratio_model intel_ratio_skx_models[] = {
	{ INTEL_RATIO_MODEL_SKYLAKE_X, "Skylake-X, Cascade Lake, Cooper Lake" },
	{ }	/* sentinel */
};

/*
 * Nehalem and Westmere run a 133.33 MHz bus clock (turbostat's
 * discover_bclk() agrees); Sandy Bridge and later 100 MHz.
 */
static const struct intel_ratio_model intel_ratio_nhm_bus[] = {
	{ 0x1a, "Nehalem-EP: Bloomfield, Gainestown" },
	{ 0x1e, "Nehalem: Lynnfield, Clarksfield" },
	{ 0x1f, "Nehalem: Auburndale, Havendale" },
	{ 0x2e, "Nehalem-EX: Beckton" },
	{ 0x25, "Westmere: Arrandale, Clarkdale" },
	{ 0x2c, "Westmere-EP: Gulftown, Westmere-EP" },
	{ 0x2f, "Westmere-EX" },
	{ }	/* sentinel */
};

/*
 * MSR_FSB_FREQ bits 2:0 (Silvermont) and 3:0 (Airmont) index these bus
 * clocks, kHz; values of intel_pstate's silvermont_get_scaling() and
 * airmont_get_scaling() (SDM Table 35-10, Sept 2015).
 */
static const u32 intel_ratio_slm_bus_khz[] = {
	83300, 100000, 133300, 116700, 80000,
};

static const u32 intel_ratio_amt_bus_khz[] = {
	83300, 100000, 133300, 116700, 80000, 93300, 90000, 88900, 87500,
};

static bool intel_ratio_model_in(const struct intel_ratio_model *t, u32 model)
{
	for (; t->name; t++) {
		if (t->model == model)
			return true;
	}
	return false;
}

static bool intel_ratio_has(const struct intel_ratio_raw *raw, u32 bits)
{
	return (raw->have & bits) == bits;
}

/* Byte @i (0 = bits 7:0) of an MSR value */
static u32 intel_ratio_byte(u64 msr, unsigned int i)
{
	return (msr >> (8 * i)) & 0xff;
}

/**
 * intel_ratio_bus_khz() - the bus clock ratios multiply
 * @family: CPUID family
 * @model: CPUID model
 * @fsb_freq: MSR_FSB_FREQ (0xcd) value, or NULL when it was not read; only
 *	Silvermont (0x37) and Airmont (0x4c) need it
 * @bus_khz: set to the bus clock, kHz
 *
 * Silvermont (Bay Trail, 0x37) encodes 83.3/100/133.3/116.7/80 MHz in
 * MSR_FSB_FREQ bits 2:0; Airmont (Cherry Trail/Braswell, 0x4c) adds
 * 93.3/90/88.9/87.5 MHz in bits 3:0.  Nehalem and Westmere run at
 * 133.33 MHz; every other family 6 part at 100 MHz.
 *
 * Context: any.
 * Return: 0 with @bus_khz set; -EINVAL for a NULL @bus_khz or an
 * MSR_FSB_FREQ index outside the table; -ENODATA when Silvermont/Airmont
 * come without @fsb_freq; -EOPNOTSUPP for a family other than 6.
 */
int intel_ratio_bus_khz(u32 family, u32 model, const u64 *fsb_freq,
			u32 *bus_khz)
{
	const u32 *table;
	unsigned int idx, n;

	if (!bus_khz)
		return -EINVAL;
	if (family != INTEL_RATIO_FAMILY)
		return -EOPNOTSUPP;

	if (model == INTEL_RATIO_MODEL_ATOM_SILVERMONT) {
		table = intel_ratio_slm_bus_khz;
		n = sizeof(intel_ratio_slm_bus_khz) / sizeof(u32);
		idx = fsb_freq ? *fsb_freq & 0x7 : 0;
	} else if (model == INTEL_RATIO_MODEL_ATOM_AIRMONT) {
		table = intel_ratio_amt_bus_khz;
		n = sizeof(intel_ratio_amt_bus_khz) / sizeof(u32);
		idx = fsb_freq ? *fsb_freq & 0xf : 0;
	} else {
		*bus_khz = intel_ratio_model_in(intel_ratio_nhm_bus, model) ?
			   INTEL_RATIO_BUS_KHZ_NEHALEM :
			   INTEL_RATIO_BUS_KHZ_DEFAULT;
		return 0;
	}

	if (!fsb_freq)
		return -ENODATA;
	/* intel_pstate WARNs and reads past its table here */
	if (idx >= n)
		return -EINVAL;
	*bus_khz = table[idx];
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(intel_ratio_bus_khz);

/*
 * 6.1's skx_set_max_freq_ratio(): the ratio of the first group whose core
 * count (MSR_TURBO_RATIO_LIMIT1 byte) is at least @size.  Returns false
 * when no group qualifies, and Linux then tries the next rule.
 */
static bool intel_ratio_group(const struct intel_ratio_raw *raw,
			      u32 size, u32 *turbo)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		if (intel_ratio_byte(raw->turbo_ratio_limit1, i) >= size) {
			*turbo = intel_ratio_byte(raw->turbo_ratio_limit, i);
			return true;
		}
	}
	return false;
}

/*
 * 6.1's knl_set_max_freq_ratio() with num_delta_fratio = 1: bits 15:8
 * hold the top ratio; bits 7:5 of each following byte the drop to the
 * next group.  The answer is the top ratio minus the first non-zero delta.
 * Linux checks for it only at the top of its loop, so a sole delta in
 * bits 63:61 is found but never used, and without any delta the turbo
 * ratio is left uninitialised: both are -EINVAL here, as is a delta that
 * takes the ratio to 0 or below (Linux: 0 rejected, negative wraps).
 */
static int intel_ratio_knl(const struct intel_ratio_raw *raw, u32 *turbo)
{
	int fratio = intel_ratio_byte(raw->turbo_ratio_limit, 1);
	unsigned int i;
	int delta;

	for (i = 2; i < 7; i++) {
		delta = intel_ratio_byte(raw->turbo_ratio_limit, i) >> 5;
		if (delta) {
			fratio -= delta;
			if (fratio <= 0)
				return -EINVAL;
			*turbo = fratio;
			return 0;
		}
	}
	return -EINVAL;
}

/* ratio * bus, kHz, without wrapping u32 */
static int intel_ratio_khz(u32 ratio, u32 bus_khz, u32 *khz)
{
	if (check_mul_overflow(ratio, bus_khz, khz))
		return -ERANGE;
	return 0;
}

/*
 * Pick base, 1-core turbo and the kernel's turbo ratio as Linux does;
 * sanity checks follow in intel_ratio_decode_reason().
 */
static int intel_ratio_pick(const struct intel_ratio_raw *raw,
			    struct intel_ratio_result *r, const char **reason)
{
	const u32 group = INTEL_RATIO_HAVE_PLATFORM_INFO |
			  INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT |
			  INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1;
	const u32 core = INTEL_RATIO_HAVE_PLATFORM_INFO |
			 INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT;
	u64 trl = raw->turbo_ratio_limit;

	/* 6.1 tries the Atom MSRs first, on any model: they exist or fault */
	if (intel_ratio_has(raw, INTEL_RATIO_HAVE_ATOM_CORE_RATIOS |
			    INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS)) {
		r->path = INTEL_RATIO_PATH_SLM;
		r->base = (raw->atom_core_ratios >> 16) & 0x3f;
		r->turbo_1c = raw->atom_core_turbo_ratios & 0x3f;
		r->kernel_turbo = r->turbo_1c;
		return 0;
	}

	/* The first non-empty group has the fewest cores: the 1-core turbo */
	if (intel_ratio_model_in(intel_ratio_glm_models, raw->model) &&
	    intel_ratio_has(raw, group) &&
	    intel_ratio_group(raw, 1, &r->kernel_turbo)) {
		r->path = INTEL_RATIO_PATH_GLM;
		r->turbo_1c = r->kernel_turbo;
		goto base;
	}

	if (intel_ratio_model_in(intel_ratio_knl_models, raw->model) &&
	    intel_ratio_has(raw, core)) {
		r->path = INTEL_RATIO_PATH_KNL;
		r->turbo_1c = intel_ratio_byte(trl, 1);
		/* 6.1 never tries another rule here: it returns true */
		if (intel_ratio_knl(raw, &r->kernel_turbo))
			return freq_ratio_fail(reason, -EINVAL,
						"KNL: no usable turbo ratio delta");
		goto base;
	}

	if (intel_ratio_model_in(intel_ratio_skx_models, raw->model) &&
	    intel_ratio_has(raw, group) &&
	    intel_ratio_group(raw, 4, &r->kernel_turbo)) {
		r->path = INTEL_RATIO_PATH_SKX;
		/* A group of >= 4 exists, so one of >= 1 does too */
		intel_ratio_group(raw, 1, &r->turbo_1c);
		goto base;
	}

	/* core_set_max_freq_ratio(): both MSRs or no invariance at all */
	if (!intel_ratio_has(raw, core))
		return freq_ratio_fail(reason, -ENODATA,
					"MSR_PLATFORM_INFO or MSR_TURBO_RATIO_LIMIT unreadable");
	r->turbo_1c = intel_ratio_byte(trl, 0);
	r->kernel_turbo = intel_ratio_byte(trl, 3);
	r->path = INTEL_RATIO_PATH_CORE_4C;
	/* The CPU may have fewer than 4 cores: 6.1 then takes the 1C byte */
	if (!r->kernel_turbo) {
		r->kernel_turbo = r->turbo_1c;
		r->path = INTEL_RATIO_PATH_CORE_1C;
	}
base:
	r->base = intel_ratio_byte(raw->platform_info, 1);
	return 0;
}

/**
 * intel_ratio_decode_reason() - decode one CPU's MSR values
 * @raw: raw values: MSR_PLATFORM_INFO, MSR_TURBO_RATIO_LIMIT(1),
 *	MSR_IA32_MISC_ENABLE, MSR_ATOM_CORE_(TURBO_)RATIOS, which of them
 *	read, CPUID family/model and the bus clock (kHz, 0 for 100 MHz)
 * @res: filled on success only; left untouched on error
 * @reason: if not NULL, set on error to a static string naming the
 *	offending value (for one log line); untouched on success
 *
 * max_P is the max non-turbo ratio times the bus clock, max_boost the
 * 1-core turbo ratio times the bus clock (max_P when turbo is disabled),
 * and the kernel ratio the kernel's arch_max_freq_ratio (see the file
 * comment for the rule of each family).
 *
 * Context: any; no locks, no allocation, no hardware access.
 * Return: 0 on success; -EINVAL for NULL pointers, an unknown rule set, a
 * zero base or turbo ratio, a turbo ratio below base (ratio below 1024)
 * or above the 1-core turbo, or KNL without a usable delta; -ENODATA when
 * MSR_PLATFORM_INFO or MSR_TURBO_RATIO_LIMIT was not readable and no Atom
 * MSRs were either; -ERANGE when a frequency overflows u32 kHz or the
 * ratio rounds to zero; -EOPNOTSUPP for a family other than 6.
 */
int intel_ratio_decode_reason(const struct intel_ratio_raw *raw,
			      struct intel_ratio_result *res,
			      const char **reason)
{
	struct intel_ratio_result r = { };
	int ret;

	if (!raw || !res)
		return freq_ratio_fail(reason, -EINVAL, "NULL argument");
	if ((unsigned int)raw->rules >= FREQ_RATIO_RULES_NR)
		return freq_ratio_fail(reason, -EINVAL, "unknown rule set");
	if (raw->family != INTEL_RATIO_FAMILY)
		return freq_ratio_fail(reason, -EOPNOTSUPP,
				       "not family 6: the kernel has no rule");

	ret = intel_ratio_pick(raw, &r, reason);
	if (ret)
		return ret;

	/* Linux: "Couldn't determine cpu base or turbo frequency" */
	if (!r.base)
		return freq_ratio_fail(reason, -EINVAL, "base ratio is 0");
	if (!r.kernel_turbo)
		return freq_ratio_fail(reason, -EINVAL,
				       "turbo ratio byte Linux uses is 0");
	if (!r.turbo_1c)
		return freq_ratio_fail(reason, -EINVAL,
				       "1-core turbo ratio is 0");
	/* Linux accepts these; a ratio below 1024 would make max_P > max_boost */
	if (r.kernel_turbo < r.base)
		return freq_ratio_fail(reason, -EINVAL,
				       "turbo ratio below base (ratio below 1024)");
	if (r.turbo_1c < r.kernel_turbo)
		return freq_ratio_fail(reason, -EINVAL,
				       "1-core turbo below the turbo ratio Linux uses");

	/*
	 * 8-bit ratios over a non-zero base: neither can round to 0 or
	 * overflow (Linux: "Non-zero turbo and base frequencies led to a 0
	 * ratio"), but a decoder never trusts that.
	 */
	if (freq_ratio_of(r.kernel_turbo, r.base, &r.turbo_freq_ratio) ||
	    freq_ratio_of(r.turbo_1c, r.base, &r.boost_ratio))
		return freq_ratio_fail(reason, -ERANGE, "ratio rounds to 0");

	/* arch_set_max_freq_ratio(turbo_disabled()); unreadable = enabled */
	r.turbo_disabled = intel_ratio_has(raw, INTEL_RATIO_HAVE_MISC_ENABLE) &&
			   (raw->misc_enable & INTEL_RATIO_MISC_TURBO_DISABLE);
	r.kernel_ratio = r.turbo_disabled ? FREQ_RATIO_SCALE :
			 r.turbo_freq_ratio;

	r.bus_khz = raw->bus_khz ? raw->bus_khz : INTEL_RATIO_BUS_KHZ_DEFAULT;
	ret = intel_ratio_khz(r.base, r.bus_khz, &r.max_p_khz);
	/* With turbo disabled the part cannot go above max_P */
	if (!ret)
		ret = intel_ratio_khz(r.turbo_disabled ? r.base : r.turbo_1c, r.bus_khz,
				      &r.max_boost_khz);
	if (!ret)
		ret = freq_ratio_scale_khz(r.max_p_khz, r.kernel_ratio,
					   &r.kernel_reference_khz);
	if (ret)
		return freq_ratio_fail(reason, ret, "frequency overflows 32-bit kHz");

	*res = r;
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(intel_ratio_decode_reason);

/**
 * intel_ratio_decode() - decode one CPU's MSR values
 * @raw: raw values, as for intel_ratio_decode_reason()
 * @res: filled on success only; left untouched on error
 *
 * intel_ratio_decode_reason() without the reason.
 *
 * Context: any; no locks, no allocation, no hardware access.
 * Return: as intel_ratio_decode_reason().
 */
int intel_ratio_decode(const struct intel_ratio_raw *raw,
		       struct intel_ratio_result *res)
{
	return intel_ratio_decode_reason(raw, res, NULL);
}
EXPORT_SYMBOL_FREQ_INV(intel_ratio_decode);

/**
 * intel_ratio_path_name() - name of a kernel rule's path, for reports
 * @path: the path
 *
 * Context: any.
 * Return: "slm", "glm", "knl", "skx", "core_4c", "core_1c" or "unknown".
 */
const char *intel_ratio_path_name(enum intel_ratio_path path)
{
	switch (path) {
	case INTEL_RATIO_PATH_SLM:
		return "slm";
	case INTEL_RATIO_PATH_GLM:
		return "glm";
	case INTEL_RATIO_PATH_KNL:
		return "knl";
	case INTEL_RATIO_PATH_SKX:
		return "skx";
	case INTEL_RATIO_PATH_CORE_4C:
		return "core_4c";
	case INTEL_RATIO_PATH_CORE_1C:
		return "core_1c";
	}
	return "unknown";
}
EXPORT_SYMBOL_FREQ_INV(intel_ratio_path_name);
