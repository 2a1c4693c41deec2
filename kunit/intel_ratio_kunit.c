// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite intel_ratio: the Intel MSR decoder (intel_ratio.c) against
 * the kernel's intel_set_max_freq_ratio() (arch/x86/kernel/cpu/
 * aperfmperf.c, the same in Linux 6.1 and 6.12: every case runs by both
 * rule sets and must give the same), with real CPUs' published MSR
 * values (Documentation/published-cpus-intel.csv, sources there), the
 * Xeon E5-2687W v3's frequencies (Phoronix's Linux 4.4 governor tests),
 * synthetic rows for each path and fallback to the next rule, the bus
 * clocks of intel_ratio_bus_khz(), and every malformed input.
 *
 * Each row carries the raw MSRs and the fields they hold (base =
 * MSR_PLATFORM_INFO bits 15:8, 1C/4C = MSR_TURBO_RATIO_LIMIT bytes 0/3,
 * ...); the test derives every ratio and frequency from those with the
 * rule (turbo * 1024 / base, base * bus, ...), and checks the rule
 * against the ratio the data file derives for the real CPUs.
 *
 * Mutations tried, each caught (the decoder broken in a scratch copy, the
 * suite run on the KUnit kernel; tools/fi-probe/mutations.sh runs these
 * and more against fi-probe's test.sh):
 *  - 1C used where 4C belongs: 13 cases fail
 *  - group rule >= flipped to >: 3 cases fail
 *  - turbo-disable bit ignored: 3 cases fail
 *  - base zero check dropped: the guest oopses (divide error)
 * Also meant to catch, by construction: no 1C fallback, SKX group size 1,
 * a KNL delta in byte 7 used, Atom MSRs tried only on Atom models, max_boost
 * kept above max_P with turbo disabled, a ratio below 1024 accepted, the
 * bus clock ignored, and a result written on error (the poison check).
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "compat.h"
#include "../intel_ratio.h"

#define HAVE_CORE	(INTEL_RATIO_HAVE_PLATFORM_INFO | \
			 INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT)
#define HAVE_GROUP	(HAVE_CORE | INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1)
#define HAVE_ATOM	(INTEL_RATIO_HAVE_ATOM_CORE_RATIOS | \
			 INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS)
#define HAVE_MISC	INTEL_RATIO_HAVE_MISC_ENABLE

/* MSR_IA32_MISC_ENABLE bit 38, turbo disable (SDM vol. 4) */
#define MISC_TURBO_OFF	BIT_ULL(38)

/**
 * struct intel_case - one decoder case
 * @name: what is tested
 * @family: CPUID family
 * @model: CPUID model
 * @have: INTEL_RATIO_HAVE_* of the MSRs given
 * @pi: MSR_PLATFORM_INFO
 * @trl: MSR_TURBO_RATIO_LIMIT
 * @trl1: MSR_TURBO_RATIO_LIMIT1
 * @misc: MSR_IA32_MISC_ENABLE
 * @acr: MSR_ATOM_CORE_RATIOS
 * @actr: MSR_ATOM_CORE_TURBO_RATIOS
 * @bus_khz: bus clock given to the decoder (0 = its 100 MHz default)
 * @err: expected return of intel_ratio_decode()
 * @path: expected kernel path
 * @base: max non-turbo ratio read out of the MSRs
 * @turbo_1c: 1-core turbo ratio read out of the MSRs
 * @kernel_turbo: the turbo ratio the kernel's rule picks
 * @disabled: turbo disabled by @misc
 * @published_ratio: the data file's arch_max_freq_ratio, 0 if none
 * @published_max_p: published base frequency, kHz, 0 if none
 * @published_max_boost: published max turbo frequency, kHz, 0 if none
 */
struct intel_case {
	const char *name;
	u32 family, model, have;
	u64 pi, trl, trl1, misc, acr, actr;
	u32 bus_khz;
	int err;
	enum intel_ratio_path path;
	u32 base, turbo_1c, kernel_turbo;
	bool disabled;
	u32 published_ratio;
	u32 published_max_p, published_max_boost;
};

static const struct intel_case intel_cases[] = {
	{
		/* InstLatx64 GenuineIntel00206A7_SandyBridge2_CPUID.txt */
		.name = "i7-2600K 06_2a core 4C: 35*1024/34",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x100070012200, .trl = 0x23242526,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 34, .turbo_1c = 38, .kernel_turbo = 35,
		.published_ratio = 1054,
	},
	{
		/*
		 * LKML 2020-04-22, turbostat posted by Dave Kleikamp
		 * (lore 5b9531e1-e0ae-cf5d-84f2-6bbb5c2cd089@oracle.com):
		 * ThinkPad T410, 2 cores, 4C byte 0, bus 133.33 MHz
		 */
		.name = "T410 Westmere 06_25 1C fallback: 22*1024/18",
		.family = 6, .model = 0x25, .have = HAVE_CORE,
		.pi = 0x90020011200, .trl = 0x00001416, .bus_khz = 133333,
		.path = INTEL_RATIO_PATH_CORE_1C,
		.base = 18, .turbo_1c = 22, .kernel_turbo = 22,
		.published_ratio = 1251,
	},
	{
		/* InstLatx64 GenuineIntel00306F2_HaswellEP2_CPUID.txt */
		.name = "E5-2660 v3 06_3f core 4C: 30*1024/26",
		.family = 6, .model = 0x3f, .have = HAVE_GROUP,
		.pi = 0x80c33fb811a00, .trl = 0x1d1d1d1d1e1f2121,
		.trl1 = 0x1d1d1d1d1d1d1d1d,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 26, .turbo_1c = 33, .kernel_turbo = 30,
		.published_ratio = 1181,
	},
	{
		/* Same dump: its MSR_IA32_MISC_ENABLE has bit 38 set */
		.name = "E5-2660 v3 06_3f turbo disabled: 1024",
		.family = 6, .model = 0x3f, .have = HAVE_GROUP | HAVE_MISC,
		.pi = 0x80c33fb811a00, .trl = 0x1d1d1d1d1e1f2121,
		.trl1 = 0x1d1d1d1d1d1d1d1d, .misc = MISC_TURBO_OFF,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 26, .turbo_1c = 33, .kernel_turbo = 30,
		.disabled = true, .published_ratio = 1024,
	},
	{
		/*
		 * InstLatx64 GenuineIntel0050654_SkylakeXeon_CPUID6.txt:
		 * groups of 2/4/8/... cores; first with >= 4 is byte 1, 36
		 */
		.name = "Platinum 8180 06_55 SKX group of 4: 36*1024/25",
		.family = 6, .model = 0x55, .have = HAVE_GROUP,
		.pi = 0x70a2cbb811900, .trl = 0x2021232323232426,
		.trl1 = 0x1c1814100c080402,
		.path = INTEL_RATIO_PATH_SKX,
		.base = 25, .turbo_1c = 38, .kernel_turbo = 36,
		.published_ratio = 1474,
	},
	{
		/*
		 * InstLatx64 GenuineIntel0050671_KnightsLanding_CPUID.txt:
		 * top ratio byte 1 = 15, first delta (byte 2 bits 7:5) = 1
		 */
		.name = "Xeon Phi 7210 06_57 KNL delta: (15-1)*1024/13",
		.family = 6, .model = 0x57, .have = HAVE_CORE,
		.pi = 0x80a2bf1800d00, .trl = 0x2c021e3e0f04,
		.path = INTEL_RATIO_PATH_KNL,
		.base = 13, .turbo_1c = 15, .kernel_turbo = 14,
		.published_ratio = 1102,
	},
	{
		/*
		 * InstLatx64 GenuineIntel0030673_Silvermont3_CPUID.txt;
		 * MISC_ENABLE 0x4000850089 has bit 38 set.  Bus: base 2.0 GHz
		 * at ratio 24 is MSR_FSB_FREQ index 0, 83.3 MHz.
		 */
		.name = "Celeron J1900 06_37 Silvermont, turbo disabled",
		.family = 6, .model = 0x37,
		.have = HAVE_ATOM | HAVE_MISC | INTEL_RATIO_HAVE_PLATFORM_INFO,
		.pi = 0x100000001800, .acr = 0x181002, .actr = 0x1D1D1D1D,
		.misc = 0x4000850089, .bus_khz = 83300,
		.path = INTEL_RATIO_PATH_SLM,
		.base = 24, .turbo_1c = 29, .kernel_turbo = 29,
		.disabled = true, .published_ratio = 1024,
	},
	{
		.name = "Celeron J1900 06_37 Silvermont: 29*1024/24",
		.family = 6, .model = 0x37,
		.have = HAVE_ATOM | HAVE_MISC | INTEL_RATIO_HAVE_PLATFORM_INFO,
		.pi = 0x100000001800, .acr = 0x181002, .actr = 0x1D1D1D1D,
		.misc = 0x4000850089 & ~MISC_TURBO_OFF, .bus_khz = 83300,
		.path = INTEL_RATIO_PATH_SLM,
		.base = 24, .turbo_1c = 29, .kernel_turbo = 29,
		.published_ratio = 1237,
	},
	{
		/* InstLatx64 GenuineIntel00906A4_AlderLakeP_00_CPUID.txt */
		.name = "i3-1220P 06_9a hybrid core 4C: 38*1024/10",
		.family = 6, .model = 0x9a, .have = HAVE_CORE,
		.pi = 0x4043df9810a00, .trl = 0x262626262626262c,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 10, .turbo_1c = 44, .kernel_turbo = 38,
		.published_ratio = 3891,
	},
	{
		/*
		 * Xeon E5-2687W v3: only 3.1 GHz base and 3.5 GHz turbo
		 * are published; MSRs synthesised from them (31, 1C 35)
		 */
		.name = "E5-2687W v3 3.1/3.5 GHz (synthetic MSRs)",
		.family = 6, .model = 0x3f, .have = HAVE_CORE,
		.pi = 0x1f00, .trl = 0x23,
		.path = INTEL_RATIO_PATH_CORE_1C,
		.base = 31, .turbo_1c = 35, .kernel_turbo = 35,
		.published_max_p = 3100000, .published_max_boost = 3500000,
	},
	/* ---- synthetic: each path, and each rule that defers to the next ---- */
	{
		.name = "Goldmont 06_5c group rule, group 0 empty",
		.family = 6, .model = 0x5c, .have = HAVE_GROUP,
		.pi = 0x1000, .trl = 0x181a00, .trl1 = 0x040200,
		.path = INTEL_RATIO_PATH_GLM,
		.base = 16, .turbo_1c = 26, .kernel_turbo = 26,
	},
	{
		.name = "Goldmont 06_5c no groups: falls to core 4C",
		.family = 6, .model = 0x5c, .have = HAVE_GROUP,
		.pi = 0x1000, .trl = 0x18191a1b, .trl1 = 0,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 16, .turbo_1c = 27, .kernel_turbo = 24,
	},
	{
		.name = "Skylake-X 06_55 no group of 4: falls to core 4C",
		.family = 6, .model = 0x55, .have = HAVE_GROUP,
		.pi = 0x1900, .trl = 0x20212426, .trl1 = 0x0302010100,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 25, .turbo_1c = 38, .kernel_turbo = 32,
	},
	{
		.name = "Skylake-X 06_55 LIMIT1 unreadable: core 4C",
		.family = 6, .model = 0x55, .have = HAVE_CORE,
		.pi = 0x1900, .trl = 0x20212426, .trl1 = 0x0404040404040404,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 25, .turbo_1c = 38, .kernel_turbo = 32,
	},
	{
		.name = "Skylake-X 06_55 group 0 already has 4 cores",
		.family = 6, .model = 0x55, .have = HAVE_GROUP,
		.pi = 0x1900, .trl = 0x2224, .trl1 = 0x0804,
		.path = INTEL_RATIO_PATH_SKX,
		.base = 25, .turbo_1c = 36, .kernel_turbo = 36,
	},
	{
		/* Only the second delta (byte 3) is set: 15 - 2 */
		.name = "KNL 06_57 first delta in byte 3",
		.family = 6, .model = 0x57, .have = HAVE_CORE,
		.pi = 0xd00, .trl = 0x40000f04,
		.path = INTEL_RATIO_PATH_KNL,
		.base = 13, .turbo_1c = 15, .kernel_turbo = 13,
	},
	{
		/* Two deltas: only the first counts (num_delta_fratio = 1) */
		.name = "KNM 06_85 two deltas: first only",
		.family = 6, .model = 0x85, .have = HAVE_CORE,
		.pi = 0xd00, .trl = 0x6020100f04,
		.path = INTEL_RATIO_PATH_KNL,
		.base = 13, .turbo_1c = 15, .kernel_turbo = 14,
	},
	{
		.name = "Airmont 06_4c at 87.5 MHz bus",
		.family = 6, .model = 0x4c, .have = HAVE_ATOM,
		.acr = 0x100000, .actr = 0x18, .bus_khz = 87500,
		.path = INTEL_RATIO_PATH_SLM,
		.base = 16, .turbo_1c = 24, .kernel_turbo = 24,
	},
	{
		/* Linux tries the Atom MSRs first on every model */
		.name = "Atom MSRs readable on 06_2a: Silvermont rule first",
		.family = 6, .model = 0x2a, .have = HAVE_ATOM | HAVE_CORE,
		.pi = 0x2200, .trl = 0x23242526, .acr = 0x100000, .actr = 0x18,
		.path = INTEL_RATIO_PATH_SLM,
		.base = 16, .turbo_1c = 24, .kernel_turbo = 24,
	},
	{
		.name = "one Atom MSR unreadable: core rule",
		.family = 6, .model = 0x37,
		.have = INTEL_RATIO_HAVE_ATOM_CORE_RATIOS | HAVE_CORE,
		.pi = 0x1800, .trl = 0x1d, .acr = 0x181002,
		.path = INTEL_RATIO_PATH_CORE_1C,
		.base = 24, .turbo_1c = 29, .kernel_turbo = 29,
	},
	{
		.name = "turbo-off bit but MISC_ENABLE unreadable: enabled",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x100070012200, .trl = 0x23242526, .misc = MISC_TURBO_OFF,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 34, .turbo_1c = 38, .kernel_turbo = 35,
	},
	{
		.name = "turbo == base: ratio exactly 1024",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0x22222222,
		.path = INTEL_RATIO_PATH_CORE_4C,
		.base = 34, .turbo_1c = 34, .kernel_turbo = 34,
	},
	/* ---- malformed: every sanity check is a defined error ---- */
	{
		.name = "base ratio 0",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0, .trl = 0x23242526, .err = -EINVAL,
	},
	{
		.name = "empty turbo bytes",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0, .err = -EINVAL,
	},
	{
		.name = "1C byte empty with 4C set",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0x23000000, .err = -EINVAL,
	},
	{
		/* 32 * 1024 / 34 = 963: the kernel would accept it */
		.name = "turbo below base: ratio below 1024",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0x20202020, .err = -EINVAL,
	},
	{
		.name = "1C below 4C",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0x26000024, .err = -EINVAL,
	},
	{
		/* The kernel leaves turbo_freq uninitialised and uses it */
		.name = "KNL with no deltas",
		.family = 6, .model = 0x57, .have = HAVE_CORE,
		.pi = 0xd00, .trl = 0x0f04, .err = -EINVAL,
	},
	{
		/* The kernel finds this delta after its last check: unset again */
		.name = "KNL delta only in byte 7",
		.family = 6, .model = 0x57, .have = HAVE_CORE,
		.pi = 0xd00, .trl = 0x2000000000000f04, .err = -EINVAL,
	},
	{
		.name = "KNL delta takes the ratio to 0",
		.family = 6, .model = 0x57, .have = HAVE_CORE,
		.pi = 0xd00, .trl = 0x200104, .err = -EINVAL,
	},
	{
		/* 1 - 7 < 0: the kernel would store a wrapped u64 */
		.name = "KNL delta takes the ratio below 0",
		.family = 6, .model = 0x57, .have = HAVE_CORE,
		.pi = 0xd00, .trl = 0xe00104, .err = -EINVAL,
	},
	{
		.name = "SKX: chosen group's ratio byte 0",
		.family = 6, .model = 0x55, .have = HAVE_GROUP,
		.pi = 0x1900, .trl = 0x002600, .trl1 = 0x040102,
		.err = -EINVAL,
	},
	{
		.name = "Silvermont turbo ratio 0",
		.family = 6, .model = 0x37, .have = HAVE_ATOM,
		.acr = 0x181002, .actr = 0, .err = -EINVAL,
	},
	{
		.name = "Silvermont base ratio 0",
		.family = 6, .model = 0x37, .have = HAVE_ATOM,
		.acr = 0x001002, .actr = 0x1d, .err = -EINVAL,
	},
	{
		.name = "no MSR readable",
		.family = 6, .model = 0x2a, .have = 0, .err = -ENODATA,
	},
	{
		.name = "MSR_TURBO_RATIO_LIMIT unreadable",
		.family = 6, .model = 0x2a,
		.have = INTEL_RATIO_HAVE_PLATFORM_INFO,
		.pi = 0x2200, .err = -ENODATA,
	},
	{
		.name = "family 15: no rule in the kernel",
		.family = 15, .model = 4, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0x23242526, .err = -EOPNOTSUPP,
	},
	{
		.name = "bus clock overflows u32 kHz",
		.family = 6, .model = 0x2a, .have = HAVE_CORE,
		.pi = 0x2200, .trl = 0x23242526, .bus_khz = U32_MAX,
		.err = -ERANGE,
	},
};

KUNIT_ARRAY_PARAM_DESC(intel_decode, intel_cases, name);

/* One case by one rule set: Intel's rules are the same in both */
static void intel_decode_one(struct kunit *test, const struct intel_case *c,
			     enum freq_ratio_rules rules)
{
	const char *set = freq_ratio_rules_name(rules);
	const struct intel_ratio_raw raw = {
		.rules = rules,
		.family = c->family, .model = c->model, .have = c->have,
		.platform_info = c->pi, .turbo_ratio_limit = c->trl,
		.turbo_ratio_limit1 = c->trl1, .misc_enable = c->misc,
		.atom_core_ratios = c->acr, .atom_core_turbo_ratios = c->actr,
		.bus_khz = c->bus_khz,
	};
	struct intel_ratio_result res, poison;
	u32 bus, tratio, kratio, max_p, max_boost;
	const char *why = NULL;
	int ret;

	memset(&poison, 0xa5, sizeof(poison));
	res = poison;
	ret = intel_ratio_decode_reason(&raw, &res, &why);
	KUNIT_ASSERT_EQ_MSG(test, ret, c->err, "rules %s", set);
	if (c->err) {
		/* Nothing written on error, and a reason for the log line */
		KUNIT_EXPECT_EQ(test, 0, memcmp(&res, &poison, sizeof(res)));
		KUNIT_EXPECT_NOT_ERR_OR_NULL(test, why);
		KUNIT_EXPECT_EQ(test, ret, intel_ratio_decode(&raw, &res));
		return;
	}

	/* The rule: turbo * 1024 / base, 1024 with turbo disabled */
	bus = c->bus_khz ? c->bus_khz : 100000;
	tratio = c->kernel_turbo * 1024 / c->base;
	kratio = c->disabled ? 1024 : tratio;
	max_p = c->base * bus;
	max_boost = (c->disabled ? c->base : c->turbo_1c) * bus;

	/* The rule here must reproduce the data file's derived ratio */
	if (c->published_ratio)
		KUNIT_EXPECT_EQ(test, kratio, c->published_ratio);
	if (c->published_max_p)
		KUNIT_EXPECT_EQ(test, max_p, c->published_max_p);
	if (c->published_max_boost)
		KUNIT_EXPECT_EQ(test, max_boost, c->published_max_boost);

	KUNIT_EXPECT_STREQ_MSG(test, intel_ratio_path_name(res.path),
			       intel_ratio_path_name(c->path), "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.bus_khz, bus, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.base, c->base, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.turbo_1c, c->turbo_1c, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_turbo, c->kernel_turbo,
			    "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.turbo_disabled, c->disabled,
			    "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.turbo_freq_ratio, tratio, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_ratio, kratio, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.boost_ratio, c->turbo_1c * 1024 / c->base,
			    "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.max_p_khz, max_p, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.max_boost_khz, max_boost, "rules %s", set);
	KUNIT_EXPECT_EQ(test, res.kernel_reference_khz,
			(u32)(((u64)max_p * kratio) >> 10));
	KUNIT_EXPECT_GE(test, res.kernel_ratio, 1024U);
}

static void intel_decode_test(struct kunit *test)
{
	const struct intel_case *c = test->param_value;
	enum freq_ratio_rules rules;

	for (rules = 0; rules < FREQ_RATIO_RULES_NR; rules++)
		intel_decode_one(test, c, rules);
}

/**
 * struct intel_bus_case - one call of intel_ratio_bus_khz()
 * @name: what is tested
 * @family: CPUID family
 * @model: CPUID model
 * @fsb: MSR_FSB_FREQ value
 * @have_fsb: pass @fsb (else NULL: MSR not read)
 * @err: expected return
 * @bus_khz: expected bus clock, kHz
 */
struct intel_bus_case {
	const char *name;
	u32 family, model;
	u64 fsb;
	bool have_fsb;
	int err;
	u32 bus_khz;
};

/*
 * intel_pstate's silvermont_get_scaling()/airmont_get_scaling() tables
 * (SDM Table 35-10, Sept 2015); turbostat's 133.33 MHz for Nehalem and
 * Westmere; 100 MHz from Sandy Bridge on.
 */
static const struct intel_bus_case intel_bus_cases[] = {
	{ "Silvermont FSB 0: 83.3 MHz", 6, 0x37, 0, true, 0, 83300 },
	{ "Silvermont FSB 1: 100 MHz", 6, 0x37, 1, true, 0, 100000 },
	{ "Silvermont FSB 2: 133.3 MHz", 6, 0x37, 2, true, 0, 133300 },
	{ "Silvermont FSB 3: 116.7 MHz", 6, 0x37, 3, true, 0, 116700 },
	{ "Silvermont FSB 4: 80 MHz", 6, 0x37, 4, true, 0, 80000 },
	{ "Silvermont FSB 5: outside table", 6, 0x37, 5, true, -EINVAL, 0 },
	{ "Silvermont FSB upper bits ignored", 6, 0x37, 0xf8, true, 0, 83300 },
	{ "Silvermont FSB unread", 6, 0x37, 0, false, -ENODATA, 0 },
	{ "Airmont FSB 5: 93.3 MHz", 6, 0x4c, 5, true, 0, 93300 },
	{ "Airmont FSB 8: 87.5 MHz", 6, 0x4c, 8, true, 0, 87500 },
	{ "Airmont FSB 9: outside table", 6, 0x4c, 9, true, -EINVAL, 0 },
	{ "Westmere 06_25: 133.33 MHz", 6, 0x25, 0, false, 0, 133333 },
	{ "Nehalem 06_1a: 133.33 MHz", 6, 0x1a, 0, false, 0, 133333 },
	{ "Sandy Bridge 06_2a: 100 MHz", 6, 0x2a, 0, false, 0, 100000 },
	{ "Haswell-EP 06_3f, FSB ignored", 6, 0x3f, 3, true, 0, 100000 },
	{ "family 15", 15, 4, 0, false, -EOPNOTSUPP, 0 },
};

KUNIT_ARRAY_PARAM_DESC(intel_bus, intel_bus_cases, name);

static void intel_bus_test(struct kunit *test)
{
	const struct intel_bus_case *c = test->param_value;
	u32 bus = 0xa5a5a5a5;
	int ret;

	ret = intel_ratio_bus_khz(c->family, c->model,
				  c->have_fsb ? &c->fsb : NULL, &bus);
	KUNIT_ASSERT_EQ(test, ret, c->err);
	KUNIT_EXPECT_EQ(test, bus, c->err ? 0xa5a5a5a5 : c->bus_khz);
}

static void intel_null_test(struct kunit *test)
{
	struct intel_ratio_result res;
	struct intel_ratio_raw raw = { .family = 6 };
	struct intel_ratio_raw bad_rules = {
		.rules = FREQ_RATIO_RULES_NR, .family = 6, .model = 0x2a,
		.have = HAVE_CORE, .platform_info = 0x2200,
		.turbo_ratio_limit = 0x23242526,
	};

	KUNIT_EXPECT_EQ(test, -EINVAL, intel_ratio_decode(&bad_rules, &res));
	KUNIT_EXPECT_EQ(test, -EINVAL, intel_ratio_decode(NULL, &res));
	KUNIT_EXPECT_EQ(test, -EINVAL, intel_ratio_decode(&raw, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, intel_ratio_bus_khz(6, 0x2a, NULL, NULL));
	KUNIT_EXPECT_STREQ(test, "unknown", intel_ratio_path_name(99));
}

static struct kunit_case intel_ratio_test_cases[] = {
	KUNIT_CASE_PARAM(intel_decode_test, intel_decode_gen_params),
	KUNIT_CASE_PARAM(intel_bus_test, intel_bus_gen_params),
	KUNIT_CASE(intel_null_test),
	{ }
};

static struct kunit_suite intel_ratio_test_suite = {
	.name = "intel_ratio",
	.test_cases = intel_ratio_test_cases,
};

kunit_test_suites(&intel_ratio_test_suite);
