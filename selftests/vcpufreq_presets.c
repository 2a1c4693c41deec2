// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpufreq's presets: the P-state tables of real CPUs, as acpi-cpufreq
 * (or cpufreq-dt, for boost entries) would list them, and the energy
 * model of each part for emulate=1, every number with its source.
 *
 * Presets: epyc-7742, xeon-e5-2687w-v3, epyc-7702, ryzen-7840hs and
 * generic (VCPUFREQ_PRESET_NAMES; the last is not a real part).
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "vcpufreq.h"

/*
 * AMD EPYC 7742 (Zen 2 "Rome", family 17h model 31h) under acpi-cpufreq:
 * _PSS has the three hardware P-states P0..P2 (the P-state MSRs
 * C001_0064..66 dumped by AIDA64 in InstLatx64
 * AuthenticAMD0830F10_K17_Rome_CPUID.txt; the same values in LKML
 * 20210121003223.20257-1-ggherdovich@suse.cz).  Boost (Core Performance
 * Boost) reaches 3400 MHz (AMD's product page: base 2.25 GHz, max boost
 * 3.4 GHz) but is not a P-state, so acpi-cpufreq lists no entry for it:
 * cpuinfo_max_freq is 2250000 and the global boost file only flips CPB.
 * (That is a Rome BIOS without ACPI _CPC; with _CPC, 6.1's acpi-cpufreq
 * raises cpuinfo_max_freq to nominal x highest_perf / nominal_perf.)
 */
static const unsigned int vcpufreq_epyc_7742_khz[] = {
	2250000,	/* P0, base ("max_P") */
	2000000,	/* P1 */
	1500000,	/* P2 */
};

/*
 * Intel Xeon E5-2687W v3 (Haswell-EP, family 6 model 3Fh): base 3.10 GHz,
 * max turbo 3.50 GHz (Intel ARK), lowest 1.2 GHz (MSR_PLATFORM_INFO[47:40]
 * = 12 in the dump of the same die, InstLatx64
 * GenuineIntel00306F2_HaswellEP2_CPUID.txt), 100 MHz bus-ratio steps.
 * The turbo entry is listed at its real value and flagged
 * CPUFREQ_BOOST_FREQ, the way cpufreq-dt lists boost OPPs, so boost on/off
 * moves cpuinfo_max_freq.  acpi-cpufreq itself would show the turbo state
 * as base + 1 MHz (3101000), unflagged, and fewer _PSS steps (an i7-4770K
 * shows "3501000 3500000 3300000 ...", zenstep.com.ar); table_khz= can
 * reproduce that view.
 */
static const unsigned int vcpufreq_xeon_e5_2687w_v3_khz[] = {
	3500000,	/* max turbo: boost */
	3100000,	/* base ("max_P") */
	3000000, 2900000, 2800000, 2700000, 2600000, 2500000, 2400000,
	2300000, 2200000, 2100000, 2000000, 1900000, 1800000, 1700000,
	1600000, 1500000, 1400000, 1300000,
	1200000,	/* lowest (maximum efficiency ratio 12) */
};

/*
 * AMD EPYC 7702 (Rome, 17h/31h) as an ACPI CPPC platform
 * (tools/vm/run --cppc epyc-7702): nominal 2000 MHz (CPPC NominalFrequency,
 * published with highest/nominal/lowest nonlinear/lowest perf
 * 255/152/115/31), boost to 3350 MHz (AMD's product page; CPPC gives
 * 2000 x 255 / 152 = 3355 MHz), hidden as on the 7742.  P1 1800 MHz is
 * assumed; P2 1500 MHz sits at the lowest nonlinear level (115/152 x 2000
 * = 1513 MHz).  Energy: the 7742's model (same die; assumed).
 */
static const unsigned int vcpufreq_epyc_7702_khz[] = {
	2000000,	/* nominal ("max_P") */
	1800000,	/* assumed */
	1500000,
};

/*
 * AMD Ryzen 7 7840HS (Phoenix, 19h/74h) as an ACPI CPPC platform
 * (tools/vm/run --cppc ryzen-7840hs): nominal 3800 MHz (CPPC
 * NominalFrequency, nominal_perf 145), boost to 5100 MHz (AMD's product
 * page), hidden.  The other P-states are assumed; energy: the generic
 * model (assumed).
 */
static const unsigned int vcpufreq_ryzen_7840hs_khz[] = {
	3800000,	/* nominal ("max_P") */
	2200000,	/* assumed */
	1600000,	/* assumed */
};

/* Not a real part: a small table with one listed boost state. */
static const unsigned int vcpufreq_generic_khz[] = {
	3000000,	/* boost */
	2400000, 1600000, 800000,
};

/*
 * Energy models (emulate=1), P_busy(f) = a V(f)^2 f + b V(f) per core.
 * Every number and its source is in Documentation/bench.rst, "The
 * emulated machine"; keep the two tables identical, and selftests/
 * 15-emulation.sh's copy, which predicts energy from them.
 *
 * EPYC 7742: V at P0..P2 from the P-state MSRs C001_0064..66 in InstLatx64
 * AuthenticAMD0830F10_K17_Rome_CPUID.txt (VID 72/88/104, V = 1.55 -
 * 0.00625 x VID).  Assumed: the boost voltage; a and b, chosen so that
 * 64 cores at P0 plus the uncore stay within the 225 W TDP (64 x 2.18 W
 * + 64 W); idle (a halted core in CC6, 0.1 W); the uncore (the I/O die,
 * 64 W, 1 W per core).
 */
static const struct vcpufreq_em_point vcpufreq_epyc_7742_curve[] = {
	{ 1500000,  900 },	/* P2, VID 104 (MSR) */
	{ 2000000, 1000 },	/* P1, VID 88 (MSR) */
	{ 2250000, 1100 },	/* P0, VID 72 (MSR) */
	{ 3400000, 1350 },	/* boost: assumed */
};

static const struct vcpufreq_em_model vcpufreq_epyc_7742_em = {
	.curve = vcpufreq_epyc_7742_curve,
	.nr_points = ARRAY_SIZE(vcpufreq_epyc_7742_curve),
	.a_uw_per_v2ghz = 700000,	/* assumed */
	.b_uw_per_v = 250000,		/* assumed */
	.idle_uw = 100000,		/* assumed */
	.uncore_uw_per_core = 1000000,	/* assumed */
};

/*
 * Xeon E5-2687W v3: 10 cores, 160 W TDP (Intel ARK).  Assumed: the whole
 * curve (Haswell-EP VIDs run about 0.8 V at the 1.2 GHz minimum to 1.2 V
 * at full turbo; linear between), a and b (10 x 10.6 W at base plus the
 * uncore under the TDP), idle 0.5 W, uncore 40 W (4 W per core).
 */
static const struct vcpufreq_em_point vcpufreq_xeon_e5_2687w_v3_curve[] = {
	{ 1200000,  800 },	/* assumed */
	{ 3500000, 1200 },	/* assumed */
};

static const struct vcpufreq_em_model vcpufreq_xeon_e5_2687w_v3_em = {
	.curve = vcpufreq_xeon_e5_2687w_v3_curve,
	.nr_points = ARRAY_SIZE(vcpufreq_xeon_e5_2687w_v3_curve),
	.a_uw_per_v2ghz = 2400000,	/* assumed */
	.b_uw_per_v = 1000000,		/* assumed */
	.idle_uw = 500000,		/* assumed */
	.uncore_uw_per_core = 4000000,	/* assumed */
};

/* Not a real part: EPYC-like coefficients on a 0.75..1.25 V curve. */
static const struct vcpufreq_em_point vcpufreq_generic_curve[] = {
	{  800000,  750 },
	{ 3000000, 1250 },
};

static const struct vcpufreq_em_model vcpufreq_generic_em = {
	.curve = vcpufreq_generic_curve,
	.nr_points = ARRAY_SIZE(vcpufreq_generic_curve),
	.a_uw_per_v2ghz = 700000,
	.b_uw_per_v = 250000,
	.idle_uw = 100000,
	.uncore_uw_per_core = 1000000,
};

static const struct vcpufreq_preset vcpufreq_presets[] = {
	{ "epyc-7742", vcpufreq_epyc_7742_khz,
	  ARRAY_SIZE(vcpufreq_epyc_7742_khz), 0, 3400000,
	  &vcpufreq_epyc_7742_em, 64 },	/* 64 cores: AMD's product page */
	{ "xeon-e5-2687w-v3", vcpufreq_xeon_e5_2687w_v3_khz,
	  ARRAY_SIZE(vcpufreq_xeon_e5_2687w_v3_khz), 1, 0,
	  &vcpufreq_xeon_e5_2687w_v3_em, 10 },	/* 10 cores: Intel ARK */
	{ "epyc-7702", vcpufreq_epyc_7702_khz,
	  ARRAY_SIZE(vcpufreq_epyc_7702_khz), 0, 3350000,
	  &vcpufreq_epyc_7742_em, 64 },	/* 64 cores: AMD's product page */
	{ "ryzen-7840hs", vcpufreq_ryzen_7840hs_khz,
	  ARRAY_SIZE(vcpufreq_ryzen_7840hs_khz), 0, 5100000,
	  &vcpufreq_generic_em, 8 },	/* 8 cores: AMD's product page */
	{ "generic", vcpufreq_generic_khz,
	  ARRAY_SIZE(vcpufreq_generic_khz), 1, 0,
	  &vcpufreq_generic_em, 8 },
};

/**
 * vcpufreq_preset_find() - look a preset up by name
 * @name:	value of the preset= parameter, or NULL
 *
 * Context: any.
 * Return: the preset, or NULL for an unknown name or NULL @name.
 */
const struct vcpufreq_preset *vcpufreq_preset_find(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < ARRAY_SIZE(vcpufreq_presets); i++) {
		if (!strcmp(name, vcpufreq_presets[i].name))
			return &vcpufreq_presets[i];
	}
	return NULL;
}
