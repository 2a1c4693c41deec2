// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite freq_inv_caps: the caps resolver freq_invariance.ko and
 * tools/fi-probe share (freq_inv_caps.c) -- which source a CPU's caps come
 * from, what the overrides do to them, when a hardware answer is refused,
 * the boost state, what each reference= choice reads -- against the rules
 * of Documentation/design.rst, with the EPYC 7742's and the Xeon
 * E5-2687W v3's frequencies (Documentation/published-cpus.rst).
 *
 * Expectations are the rule written out (e.g. the AMD rule on kHz,
 * (3400000 * 1024 / 2250000 + 1024) >> 1), never the resolver's output.
 *
 * Mutations tried, each caught by this suite (run on the KUnit kernel)
 * and by tools/fi-probe/test.sh (tools/fi-probe/mutations.sh, "caps:"):
 *  - the cpufreq fallback ignoring the table's boost entries
 *    ("pol->max_boost_khz : pol->max_p_khz" made "pol->max_p_khz :
 *    pol->max_p_khz"): the 4 cases here that fall back on a table with a
 *    boost entry fail, and fi-probe's "MSRs that fault fall back on the
 *    table, boost off"
 * Also meant to catch, by construction: overrides on AMD given Intel's
 * ratio rule, overrides dropping the hardware's ratio, the boost switch's
 * state inverted, no bound on max_boost / max_P, insane hardware answers
 * believed (each also in tools/fi-probe/mutations.sh).
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "compat.h"
#include "../freq_inv_caps.h"

/* EPYC 7742: P0 2250 MHz, boost 3400 MHz */
#define EPYC_P		2250000U
#define EPYC_BOOST	3400000U
/* Xeon E5-2687W v3: base 3.1 GHz, turbo 3.5 GHz */
#define XEON_P		3100000U
#define XEON_BOOST	3500000U
/* The rules, written out: AMD's midpoint and Intel's turbo/base */
#define AMD_RULE(p, b)	((((b) * 1024ULL / (p)) + 1024) >> 1)
#define INTEL_RULE(p, b) ((u32)((b) * 1024ULL / (p)))

/**
 * struct caps_case - one call of freq_inv_caps_resolve()
 * @name: what is tested
 * @in: the inputs
 * @ret: expected return (why the hardware was not used, 0 if it was)
 * @source: expected source
 * @max_p_khz: expected max_P
 * @max_boost_khz: expected max_boost
 * @kernel_ratio: expected ratio
 */
struct caps_case {
	const char *name;
	struct freq_inv_caps_in in;
	int ret;
	enum freq_inv_source source;
	u32 max_p_khz, max_boost_khz, kernel_ratio;
};

/* A sane AMD CPPC answer for the EPYC 7742 (ratio 1285) */
#define HW_EPYC	{ .max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST, \
		  .kernel_ratio = 1285 }
/* acpi-cpufreq's table on the E5-2687W v3: boost entry listed */
#define POL_XEON { .boost_switch = true, .max_p_khz = XEON_P, \
		   .max_boost_khz = XEON_BOOST, .cpuinfo_max_khz = XEON_BOOST }
#define OVR_EPYC { .given = true, .max_p_khz = EPYC_P, \
		   .max_boost_khz = EPYC_BOOST }

static const struct caps_case caps_cases[] = {
	{
		.name = "hardware answers: its caps",
		.in = { .hw = HW_EPYC, .hw_source = FREQ_INV_SRC_CPPC,
			.vendor = FREQ_INV_VENDOR_AMD, .policy = POL_XEON },
		.source = FREQ_INV_SRC_CPPC, .max_p_khz = EPYC_P,
		.max_boost_khz = EPYC_BOOST, .kernel_ratio = 1285,
	},
	{
		/* A backend that failed may have filled part of its answer */
		.name = "hardware failed: nothing from its partial answer",
		.in = { .hw_err = -EIO, .hw = HW_EPYC, .policy = POL_XEON },
		.ret = -EIO, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = XEON_P, .max_boost_khz = XEON_BOOST,
		.kernel_ratio = 1024,
	},
	{
		/* Wrong firmware frequencies do not change Linux's ratio */
		.name = "hardware answers, overridden: given kHz, its ratio",
		.in = { .hw = { .max_p_khz = 2000000, .max_boost_khz = 3000000,
				.kernel_ratio = 1300 },
			.hw_source = FREQ_INV_SRC_CPPC,
			.vendor = FREQ_INV_VENDOR_AMD, .override = OVR_EPYC },
		.source = FREQ_INV_SRC_OVERRIDE, .max_p_khz = EPYC_P,
		.max_boost_khz = EPYC_BOOST, .kernel_ratio = 1300,
	},
	{
		.name = "no hardware, overridden on AMD: the midpoint rule",
		.in = { .hw_err = -ENODEV, .vendor = FREQ_INV_VENDOR_AMD,
			.override = OVR_EPYC },
		.ret = -ENODEV, .source = FREQ_INV_SRC_OVERRIDE,
		.max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST,
		.kernel_ratio = AMD_RULE(EPYC_P, EPYC_BOOST),
	},
	{
		.name = "no hardware, overridden on Intel: turbo over base",
		.in = { .hw_err = -ENODATA, .vendor = FREQ_INV_VENDOR_INTEL,
			.override = OVR_EPYC },
		.ret = -ENODATA, .source = FREQ_INV_SRC_OVERRIDE,
		.max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST,
		.kernel_ratio = INTEL_RULE(EPYC_P, EPYC_BOOST),
	},
	{
		.name = "no hardware, overridden, other vendor: 1024",
		.in = { .hw_err = -EOPNOTSUPP, .override = OVR_EPYC },
		.ret = -EOPNOTSUPP, .source = FREQ_INV_SRC_OVERRIDE,
		.max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST,
		.kernel_ratio = 1024,
	},
	{
		.name = "no hardware: the table, its boost entry as max_boost",
		.in = { .hw_err = -EIO, .policy = POL_XEON },
		.ret = -EIO, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = XEON_P, .max_boost_khz = XEON_BOOST,
		.kernel_ratio = 1024,
	},
	{
		/* acpi-cpufreq hides the boost P-state on EPYC */
		.name = "no hardware: a table without boost entries",
		.in = { .hw_err = -ENODEV,
			.policy = { .max_p_khz = EPYC_P,
				    .cpuinfo_max_khz = EPYC_P } },
		.ret = -ENODEV, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = EPYC_P, .max_boost_khz = EPYC_P,
		.kernel_ratio = 1024,
	},
	{
		.name = "no hardware: a boost entry below max_P is no boost",
		.in = { .hw_err = -ENODEV,
			.policy = { .max_p_khz = XEON_P, .max_boost_khz = 2000000,
				    .cpuinfo_max_khz = XEON_P } },
		.ret = -ENODEV, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = XEON_P, .max_boost_khz = XEON_P,
		.kernel_ratio = 1024,
	},
	{
		/* intel_cpufreq: a policy without a table */
		.name = "no hardware, no table: cpuinfo.max_freq, source none",
		.in = { .hw_err = -ENODEV,
			.policy = { .cpuinfo_max_khz = XEON_BOOST } },
		.ret = -ENODEV, .source = FREQ_INV_SRC_NONE,
		.max_p_khz = XEON_BOOST, .max_boost_khz = XEON_BOOST,
		.kernel_ratio = 1024,
	},
	{
		.name = "no hardware, no policy: nothing known",
		.in = { .hw_err = -ENODEV },
		.ret = -ENODEV, .source = FREQ_INV_SRC_NONE,
		.kernel_ratio = 1024,
	},
	{
		.name = "hardware claims 11 GHz: refused, the table instead",
		.in = { .hw = { .max_p_khz = EPYC_P, .max_boost_khz = 11000000,
				.kernel_ratio = 1285 },
			.hw_source = FREQ_INV_SRC_CPPC, .policy = POL_XEON },
		.ret = -ERANGE, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = XEON_P, .max_boost_khz = XEON_BOOST,
		.kernel_ratio = 1024,
	},
	{
		.name = "hardware ratio below 1024: refused",
		.in = { .hw = { .max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST,
				.kernel_ratio = 1023 },
			.hw_source = FREQ_INV_SRC_MSR, .policy = POL_XEON },
		.ret = -ERANGE, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = XEON_P, .max_boost_khz = XEON_BOOST,
		.kernel_ratio = 1024,
	},
	{
		.name = "hardware max_boost below max_P: refused",
		.in = { .hw = { .max_p_khz = EPYC_BOOST, .max_boost_khz = EPYC_P,
				.kernel_ratio = 1285 },
			.hw_source = FREQ_INV_SRC_CPPC, .policy = POL_XEON },
		.ret = -ERANGE, .source = FREQ_INV_SRC_CPUFREQ,
		.max_p_khz = XEON_P, .max_boost_khz = XEON_BOOST,
		.kernel_ratio = 1024,
	},
	{
		.name = "hardware boost ratio 256: refused",
		.in = { .hw = { .max_p_khz = 1000, .max_boost_khz = 256000,
				.kernel_ratio = 1024 },
			.hw_source = FREQ_INV_SRC_CPPC },
		.ret = -ERANGE, .source = FREQ_INV_SRC_NONE,
		.kernel_ratio = 1024,
	},
	{
		.name = "hardware max_P 0: refused, overridden by AMD rule",
		.in = { .hw = { .max_boost_khz = EPYC_BOOST, .kernel_ratio = 1285 },
			.hw_source = FREQ_INV_SRC_CPPC,
			.vendor = FREQ_INV_VENDOR_AMD, .override = OVR_EPYC },
		.ret = -ERANGE, .source = FREQ_INV_SRC_OVERRIDE,
		.max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST,
		.kernel_ratio = AMD_RULE(EPYC_P, EPYC_BOOST),
	},
};

KUNIT_ARRAY_PARAM_DESC(caps_resolve, caps_cases, name);

static void caps_resolve_test(struct kunit *test)
{
	const struct caps_case *c = test->param_value;
	struct freq_inv_resolved res;

	memset(&res, 0xa5, sizeof(res));
	KUNIT_EXPECT_EQ(test, c->ret, freq_inv_caps_resolve(&c->in, &res));
	KUNIT_EXPECT_TRUE(test, res.valid);
	KUNIT_EXPECT_EQ(test, res.boost_switch, c->in.policy.boost_switch);
	KUNIT_EXPECT_STREQ(test, freq_inv_source_name(res.source),
			   freq_inv_source_name(c->source));
	KUNIT_EXPECT_EQ(test, res.max_p_khz, c->max_p_khz);
	KUNIT_EXPECT_EQ(test, res.max_boost_khz, c->max_boost_khz);
	KUNIT_EXPECT_EQ(test, res.kernel_ratio, c->kernel_ratio);
}

/**
 * struct caps_read_case - boost state and reference of resolved caps
 * @name: what is tested
 * @boost_switch: the driver has cpufreq's boost switch
 * @boost_enabled: its state
 * @cpuinfo_max_khz: the policy's cpuinfo.max_freq
 * @ref: the reference= choice
 * @off: expected freq_inv_caps_boost_off()
 * @max_boost_khz: expected max_boost as read
 * @reference_khz: expected reference
 */
struct caps_read_case {
	const char *name;
	bool boost_switch, boost_enabled;
	u32 cpuinfo_max_khz;
	enum freq_inv_reference ref;
	bool off;
	u32 max_boost_khz, reference_khz;
};

/* Over the EPYC 7742 resolved from CPPC, ratio 1285: kernel ref 2823486 */
static const struct caps_read_case caps_read_cases[] = {
	{ "switch on, reference kernel", true, true, EPYC_P, FREQ_INV_REF_KERNEL,
	  false, EPYC_BOOST, (u32)(EPYC_P * 1285ULL >> 10) },
	{ "switch off: max_boost reads max_P, kernel ref kept", true, false,
	  EPYC_BOOST, FREQ_INV_REF_KERNEL, true, EPYC_P,
	  (u32)(EPYC_P * 1285ULL >> 10) },
	{ "switch on, reference max_boost", true, true, EPYC_P,
	  FREQ_INV_REF_MAX_BOOST, false, EPYC_BOOST, EPYC_BOOST },
	{ "switch off, reference max_boost: max_P", true, false, EPYC_P,
	  FREQ_INV_REF_MAX_BOOST, true, EPYC_P, EPYC_P },
	{ "switch on, reference midpoint", true, true, EPYC_P,
	  FREQ_INV_REF_MIDPOINT, false, EPYC_BOOST, (EPYC_P + EPYC_BOOST) / 2 },
	{ "switch off, reference midpoint: max_P", true, false, EPYC_P,
	  FREQ_INV_REF_MIDPOINT, true, EPYC_P, EPYC_P },
	{ "reference max_P", true, true, EPYC_P, FREQ_INV_REF_MAX_P, false,
	  EPYC_BOOST, EPYC_P },
	/* intel_pstate: no switch; no_turbo lowers cpuinfo.max_freq */
	{ "no switch, top above max_P: on", false, false, EPYC_BOOST,
	  FREQ_INV_REF_MAX_BOOST, false, EPYC_BOOST, EPYC_BOOST },
	{ "no switch, top at max_P (no_turbo): off", false, true, EPYC_P,
	  FREQ_INV_REF_MAX_BOOST, true, EPYC_P, EPYC_P },
};

KUNIT_ARRAY_PARAM_DESC(caps_read, caps_read_cases, name);

static void caps_read_test(struct kunit *test)
{
	const struct caps_read_case *c = test->param_value;
	const struct freq_inv_resolved res = {
		.max_p_khz = EPYC_P, .max_boost_khz = EPYC_BOOST,
		.kernel_ratio = 1285, .source = FREQ_INV_SRC_CPPC,
		.boost_switch = c->boost_switch, .valid = true,
	};
	struct freq_inv_caps caps;
	bool off;

	off = freq_inv_caps_boost_off(&res, c->boost_enabled, c->cpuinfo_max_khz);
	KUNIT_EXPECT_EQ(test, off, c->off);
	freq_inv_caps_derive(&res, off, c->ref, &caps);
	KUNIT_EXPECT_EQ(test, caps.max_p_khz, EPYC_P);
	KUNIT_EXPECT_EQ(test, caps.max_boost_khz, c->max_boost_khz);
	KUNIT_EXPECT_EQ(test, caps.midpoint_khz,
			(EPYC_P + c->max_boost_khz) / 2);
	KUNIT_EXPECT_EQ(test, caps.reference_khz, c->reference_khz);
	KUNIT_EXPECT_EQ(test, caps.kernel_ratio, 1285U);
	KUNIT_EXPECT_EQ(test, caps.source, FREQ_INV_SRC_CPPC);
}

/* A kernel reference that overflows 32 bits saturates */
static void caps_reference_saturates_test(struct kunit *test)
{
	const struct freq_inv_resolved res = {
		.max_p_khz = U32_MAX / 2, .max_boost_khz = U32_MAX,
		.kernel_ratio = 4096, .valid = true,
	};
	struct freq_inv_caps caps;

	freq_inv_caps_derive(&res, false, FREQ_INV_REF_KERNEL, &caps);
	KUNIT_EXPECT_EQ(test, caps.reference_khz, U32_MAX);
}

/**
 * struct caps_override_case - one call of freq_inv_caps_check_override()
 * @name: what is tested
 * @max_p_khz: max_p_khz= given
 * @max_boost_khz: max_boost_khz= given (0: did not parse)
 * @fault: expected answer
 */
struct caps_override_case {
	const char *name;
	u32 max_p_khz, max_boost_khz;
	enum freq_inv_override_fault fault;
};

static const struct caps_override_case caps_override_cases[] = {
	{ "EPYC 7742 2250/3400 MHz", EPYC_P, EPYC_BOOST, FREQ_INV_OVERRIDE_OK },
	{ "no boost: equal", EPYC_P, EPYC_P, FREQ_INV_OVERRIDE_OK },
	{ "10 GHz both: the top", 10000000, 10000000, FREQ_INV_OVERRIDE_OK },
	{ "boost exactly 255 x", 1000, 255000, FREQ_INV_OVERRIDE_OK },
	{ "boost 255 x and a bit (integer ratio 255)", 1000, 255999,
	  FREQ_INV_OVERRIDE_OK },
	{ "max_P 0", 0, EPYC_BOOST, FREQ_INV_OVERRIDE_MAX_P_RANGE },
	{ "max_P above 10 GHz", 10000001, 10000001,
	  FREQ_INV_OVERRIDE_MAX_P_RANGE },
	{ "max_boost below max_P", EPYC_P, 2000000, FREQ_INV_OVERRIDE_BELOW },
	{ "max_boost 0 (did not parse)", EPYC_P, 0,
	  FREQ_INV_OVERRIDE_MAX_BOOST_RANGE },
	{ "max_boost above 10 GHz", EPYC_P, 10000001,
	  FREQ_INV_OVERRIDE_MAX_BOOST_RANGE },
	{ "boost 256 x", 1000, 256000, FREQ_INV_OVERRIDE_RATIO },
};

KUNIT_ARRAY_PARAM_DESC(caps_override, caps_override_cases, name);

static void caps_override_test(struct kunit *test)
{
	const struct caps_override_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->fault,
			freq_inv_caps_check_override(c->max_p_khz,
						     c->max_boost_khz));
}

static void caps_source_name_test(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, "none", freq_inv_source_name(FREQ_INV_SRC_NONE));
	KUNIT_EXPECT_STREQ(test, "cppc", freq_inv_source_name(FREQ_INV_SRC_CPPC));
	KUNIT_EXPECT_STREQ(test, "msr", freq_inv_source_name(FREQ_INV_SRC_MSR));
	KUNIT_EXPECT_STREQ(test, "cpufreq",
			   freq_inv_source_name(FREQ_INV_SRC_CPUFREQ));
	KUNIT_EXPECT_STREQ(test, "override",
			   freq_inv_source_name(FREQ_INV_SRC_OVERRIDE));
	KUNIT_EXPECT_STREQ(test, "unknown", freq_inv_source_name(FREQ_INV_SRC_NR));
}

static struct kunit_case freq_inv_caps_test_cases[] = {
	KUNIT_CASE_PARAM(caps_resolve_test, caps_resolve_gen_params),
	KUNIT_CASE_PARAM(caps_read_test, caps_read_gen_params),
	KUNIT_CASE(caps_reference_saturates_test),
	KUNIT_CASE_PARAM(caps_override_test, caps_override_gen_params),
	KUNIT_CASE(caps_source_name_test),
	{ }
};

static struct kunit_suite freq_inv_caps_test_suite = {
	.name = "freq_inv_caps",
	.test_cases = freq_inv_caps_test_cases,
};

kunit_test_suites(&freq_inv_caps_test_suite);
