// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite amd_cppc_ratio: the AMD CPPC decoder (amd_cppc_ratio.c)
 * against the kernel's arithmetic by both rule sets, Linux 6.1's and
 * 6.12's (enum freq_ratio_rules), with real CPUs' published CPPC values
 * (Documentation/published-cpus-amd.csv, sources there), the model edges
 * of 6.1's amd_get_highest_perf() and of 6.12's
 * amd_get_boost_ratio_numerator(), and every malformed input.
 *
 * Expectations are written in the tables as the rule itself, e.g.
 * RATIO(166, 152) for 166 * 1024 / 152, never as the decoder's output;
 * the data file's derived results are checked against the same
 * expressions (published_* fields), so a rule typed wrong here fails too.
 * Every case runs under both rule sets, with the numerator and the error
 * each set gives.
 *
 * Mutations tried, each caught (the decoder broken in a scratch copy, the
 * suite run on the KUnit kernel; tools/fi-probe/mutations.sh runs these
 * and more against fi-probe's test.sh):
 *  - 166 rule forgotten (always 255): 18 cases fail
 *  - highest < nominal flipped to <=: 2 cases fail (highest == nominal)
 *  - uniform/ranked rule swapped: 6 cases fail
 *  - nominal_perf zero check dropped: the guest oopses (divide error)
 * Also meant to catch, by construction: a 166 or 196 range edge off by
 * one (the model table rows), 6.12's uniform numerator replaced by 166,
 * the (ratio + 1024) >> 1 midpoint dropped, a numerator below nominal
 * accepted, MHz -> kHz overflow unchecked, and a result written on error
 * (the poison check).
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "compat.h"
#include "../amd_cppc_ratio.h"

/* The rules as the kernel states them: highest * 1024 / nominal ... */
#define RATIO(h, n)		((u32)div_u64((u64)(h) * 1024, (n)))
/* ... acpi-cpufreq's cpuinfo.max_freq = nominal_freq * ratio >> 10 ... */
#define SCALE(khz, r)		((u32)(((u64)(khz) * (r)) >> 10))
/* ... and cppc.c's arch_max_freq_ratio = (ratio + 1024) >> 1 */
#define MID_RATIO(r)		(((r) + 1024) >> 1)

#define MAX_CPUS_IN_CASE	8

/**
 * struct amd_case - one decoder case
 * @name: what is tested
 * @family: CPUID family
 * @model: CPUID model
 * @hp: CPPC highest_perf of each CPU (@nr entries)
 * @nr: CPUs in @hp
 * @nominal: CPPC nominal_perf
 * @lnl: CPPC lowest_nonlinear_perf
 * @lowest: CPPC lowest_perf
 * @nom_mhz: CPPC nominal_freq, MHz
 * @low_mhz: CPPC lowest_freq, MHz
 * @err: expected return of amd_cppc_ratio_decode(), per rule set (every
 *	per-set field is { 6.1's, 6.12's })
 * @rule: expected max_boost rule (uniform or ranked highest_perf)
 * @numerator: the kernel's numerator per rule set (6.1:
 *	amd_get_highest_perf(); 6.12: amd_get_boost_ratio_numerator())
 * @published_kernel_ratio: the data file's invariance ratio per rule set,
 *	0 if none
 * @published_max_freq: the data file's acpi-cpufreq max_freq per rule
 *	set, kHz, 0 if none
 */
struct amd_case {
	const char *name;
	u32 family, model;
	u32 hp[MAX_CPUS_IN_CASE];
	unsigned int nr;
	u32 nominal, lnl, lowest, nom_mhz, low_mhz;
	int err[FREQ_RATIO_RULES_NR];
	enum amd_cppc_boost_rule rule;
	u32 numerator[FREQ_RATIO_RULES_NR];
	u32 published_kernel_ratio[FREQ_RATIO_RULES_NR];
	u32 published_max_freq[FREQ_RATIO_RULES_NR];
};

static const struct amd_case amd_cases[] = {
	{
		/*
		 * linux-pm thread "cpufreq/amd-pstate: Fix the scaling_max_freq
		 * setting on shared memory CPPC systems", 2024-09: every core
		 * 255/152/115/31, nominal 2000 MHz, lowest 400 MHz.  The data
		 * file: 6.1 ratio 1071, max_freq 2183593 (166); 6.12 ratio
		 * 1370, max_freq 3353515 (its own 255).
		 */
		.name = "EPYC 7702 17h/31h uniform 255: real boost",
		.family = 0x17, .model = 0x31,
		.hp = { 255, 255, 255, 255 }, .nr = 4,
		.nominal = 152, .lnl = 115, .lowest = 31,
		.nom_mhz = 2000, .low_mhz = 400,
		.rule = AMD_CPPC_BOOST_CPPC_HIGHEST,
		.numerator = { 166, 255 },
		.published_kernel_ratio = { 1071, 1370 },
		.published_max_freq = { 2183593, 3353515 },
	},
	{
		/* Same values with cores ranked (synthetic ranks): 166 in both */
		.name = "EPYC 7702 17h/31h ranked: max_boost from 166",
		.family = 0x17, .model = 0x31,
		.hp = { 255, 250, 245, 240 }, .nr = 4,
		.nominal = 152, .lnl = 115, .lowest = 31,
		.nom_mhz = 2000, .low_mhz = 400,
		.rule = AMD_CPPC_BOOST_KERNEL_NUMERATOR,
		.numerator = { 166, 166 },
		.published_kernel_ratio = { 1071, 1071 },
		.published_max_freq = { 2183593, 2183593 },
	},
	{
		/*
		 * github.com/nokyan/resources/issues/314: per-core ranking up
		 * to 232 (lower ranks here illustrative), 145/42/16,
		 * 3800/400 MHz.  The data file: 6.1 takes 255 (ratio 1412,
		 * max_freq 6679687), 6.12 196 (ratio 1204, max_freq 5135937).
		 */
		.name = "Ryzen 7 7840HS 19h/74h ranked: 255, then 196",
		.family = 0x19, .model = 0x74,
		.hp = { 232, 232, 227, 222, 217, 212, 207, 202 }, .nr = 8,
		.nominal = 145, .lnl = 42, .lowest = 16,
		.nom_mhz = 3800, .low_mhz = 400,
		.rule = AMD_CPPC_BOOST_KERNEL_NUMERATOR,
		.numerator = { 255, 196 },
		.published_kernel_ratio = { 1412, 1204 },
		.published_max_freq = { 6679687, 5135937 },
	},
	{
		/* One CPU is trivially uniform: its own value, 7840HS-like */
		.name = "single CPU 19h/74h: CPPC highest 232",
		.family = 0x19, .model = 0x74,
		.hp = { 232 }, .nr = 1,
		.nominal = 145, .nom_mhz = 3800,
		.rule = AMD_CPPC_BOOST_CPPC_HIGHEST,
		.numerator = { 255, 232 },
	},
	{
		/* Synthetic: highest == nominal, no boost at all */
		.name = "highest == nominal: boost ratio 1024",
		.family = 0x17, .model = 0x01,
		.hp = { 120, 120 }, .nr = 2,
		.nominal = 120, .nom_mhz = 3000,
		.rule = AMD_CPPC_BOOST_CPPC_HIGHEST,
		.numerator = { 255, 120 },
	},
	{
		/* Synthetic: ranked Zen 4 outside 70h-7Fh keeps 6.12's 166 */
		.name = "19h/61h Raphael ranked: 166 in both",
		.family = 0x19, .model = 0x61,
		.hp = { 220, 210 }, .nr = 2,
		.nominal = 150, .nom_mhz = 4500,
		.rule = AMD_CPPC_BOOST_KERNEL_NUMERATOR,
		.numerator = { 166, 166 },
	},
	/* ---- malformed: every sanity check is a defined error ---- */
	{
		.name = "highest_perf 0",
		.family = 0x17, .model = 0x31, .hp = { 0 }, .nr = 1,
		.nominal = 152, .nom_mhz = 2000, .err = { -ENODATA, -ENODATA },
	},
	{
		.name = "nominal_perf 0",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 0, .nom_mhz = 2000, .err = { -ENODATA, -ENODATA },
	},
	{
		.name = "nominal_freq 0",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 152, .nom_mhz = 0, .err = { -ENODATA, -ENODATA },
	},
	{
		.name = "highest < nominal",
		.family = 0x19, .model = 0x74, .hp = { 144 }, .nr = 1,
		.nominal = 145, .nom_mhz = 3800, .err = { -EINVAL, -EINVAL },
	},
	{
		/*
		 * 166 * 1024 / 170 = 1000: a kernel ratio below 1024 on 6.1;
		 * 6.12 takes the uniform 255 and is fine
		 */
		.name = "6.1 numerator 166 below nominal: ratio below 1024",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 170, .nom_mhz = 2000, .err = { -EINVAL, 0 },
		.rule = AMD_CPPC_BOOST_CPPC_HIGHEST,
		.numerator = { 166, 255 },
	},
	{
		/* 196 * 1024 / 200 = 1003: ranked on 6.12 only is refused */
		.name = "6.12 numerator 196 below nominal: ratio below 1024",
		.family = 0x19, .model = 0x74, .hp = { 232, 227 }, .nr = 2,
		.nominal = 200, .nom_mhz = 3000, .err = { 0, -EINVAL },
		.rule = AMD_CPPC_BOOST_KERNEL_NUMERATOR,
		.numerator = { 255, 196 },
	},
	{
		.name = "lowest_perf above lowest_nonlinear_perf",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 152, .lnl = 31, .lowest = 115, .nom_mhz = 2000,
		.err = { -EINVAL, -EINVAL },
	},
	{
		.name = "lowest_nonlinear_perf above nominal",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 152, .lnl = 153, .nom_mhz = 2000,
		.err = { -EINVAL, -EINVAL },
	},
	{
		.name = "lowest_freq above nominal_freq",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 152, .nom_mhz = 2000, .low_mhz = 2001,
		.err = { -EINVAL, -EINVAL },
	},
	{
		.name = "family 15h: no CPPC",
		.family = 0x15, .model = 0x02, .hp = { 255 }, .nr = 1,
		.nominal = 152, .nom_mhz = 2000, .err = { -EOPNOTSUPP, -EOPNOTSUPP },
	},
	{
		/* 5,000,000 MHz * 1000 does not fit u32 kHz */
		.name = "nominal_freq MHz -> kHz overflow",
		.family = 0x17, .model = 0x31, .hp = { 255 }, .nr = 1,
		.nominal = 152, .nom_mhz = 5000000, .err = { -ERANGE, -ERANGE },
	},
	{
		/* U32_MAX * 1024 / 1 does not fit a u32 ratio */
		.name = "highest U32_MAX over nominal 1: ratio overflow",
		.family = 0x1a, .model = 0x02, .hp = { U32_MAX }, .nr = 1,
		.nominal = 1, .nom_mhz = 1, .err = { -ERANGE, -ERANGE },
	},
};

KUNIT_ARRAY_PARAM_DESC(amd_decode, amd_cases, name);

static void amd_fill_raw(const struct amd_case *c, enum freq_ratio_rules rules,
			 bool uniform, struct amd_cppc_raw *raw)
{
	unsigned int i;

	memset(raw, 0, sizeof(*raw));
	raw->rules = rules;
	raw->family = c->family;
	raw->model = c->model;
	/* This CPU: the best-ranked one, the value a naive reader would take */
	for (i = 0; i < c->nr; i++)
		raw->highest_perf = max(raw->highest_perf, c->hp[i]);
	raw->highest_perf_uniform = uniform;
	raw->nominal_perf = c->nominal;
	raw->lowest_nonlinear_perf = c->lnl;
	raw->lowest_perf = c->lowest;
	raw->nominal_freq_mhz = c->nom_mhz;
	raw->lowest_freq_mhz = c->low_mhz;
}

/* One case by one rule set */
static void amd_decode_one(struct kunit *test, const struct amd_case *c,
			   enum freq_ratio_rules rules, bool uniform)
{
	const char *set = freq_ratio_rules_name(rules);
	struct amd_cppc_ratio_result res, poison;
	u32 max_p, kboost, kmax, kratio, boost_perf, boost_ratio, max_boost;
	struct amd_cppc_raw raw;
	const char *why = NULL;
	int ret;

	amd_fill_raw(c, rules, uniform, &raw);
	memset(&poison, 0xa5, sizeof(poison));
	res = poison;
	ret = amd_cppc_ratio_decode_reason(&raw, &res, &why);
	KUNIT_ASSERT_EQ_MSG(test, ret, c->err[rules], "rules %s", set);
	if (ret) {
		/* Nothing written on error, and a reason for the log line */
		KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(&res, &poison, sizeof(res)),
				    "rules %s", set);
		KUNIT_EXPECT_NOT_ERR_OR_NULL(test, why);
		KUNIT_EXPECT_EQ(test, ret, amd_cppc_ratio_decode(&raw, &res));
		return;
	}

	max_p = c->nom_mhz * 1000;
	kboost = RATIO(c->numerator[rules], c->nominal);
	kmax = SCALE(max_p, kboost);
	kratio = MID_RATIO(kboost);
	/* A uniform highest_perf is the boost; a ranking gets the numerator */
	boost_perf = c->rule == AMD_CPPC_BOOST_CPPC_HIGHEST ?
		     raw.highest_perf : c->numerator[rules];
	boost_ratio = RATIO(boost_perf, c->nominal);
	max_boost = SCALE(max_p, boost_ratio);

	/* The rule here must reproduce the data file's derived values */
	if (c->published_kernel_ratio[rules])
		KUNIT_EXPECT_EQ_MSG(test, kratio, c->published_kernel_ratio[rules],
				    "rules %s", set);
	if (c->published_max_freq[rules])
		KUNIT_EXPECT_EQ_MSG(test, kmax, c->published_max_freq[rules],
				    "rules %s", set);

	KUNIT_EXPECT_EQ_MSG(test, res.max_p_khz, max_p, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.max_boost_rule, c->rule, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.max_boost_perf, boost_perf, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.boost_ratio, boost_ratio, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.max_boost_khz, max_boost, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_highest_perf, c->numerator[rules],
			    "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_boost_ratio, kboost, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_max_freq_khz, kmax, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_ratio, kratio, "rules %s", set);
	KUNIT_EXPECT_EQ_MSG(test, res.kernel_reference_khz, SCALE(max_p, kratio),
			    "rules %s", set);
	KUNIT_EXPECT_EQ(test, res.cppc_boost_ratio,
			RATIO(raw.highest_perf, c->nominal));
	KUNIT_EXPECT_EQ(test, res.cppc_max_boost_khz,
			SCALE(max_p, RATIO(raw.highest_perf, c->nominal)));
	KUNIT_EXPECT_EQ(test, res.lowest_freq_khz, c->low_mhz * 1000);
	/* The kernel's invariance never goes below 1024 on a valid part */
	KUNIT_EXPECT_GE(test, res.kernel_ratio, 1024U);
	KUNIT_EXPECT_LE(test, res.max_p_khz, res.max_boost_khz);
}

static void amd_decode_test(struct kunit *test)
{
	const struct amd_case *c = test->param_value;
	enum freq_ratio_rules rules;
	bool uniform = true;
	int ret;

	/* A zero among several CPUs is the helper's to refuse */
	if (c->nr > 1) {
		ret = amd_cppc_ratio_highest_uniform(c->hp, c->nr, &uniform);
		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	for (rules = 0; rules < FREQ_RATIO_RULES_NR; rules++)
		amd_decode_one(test, c, rules, uniform);
}

/**
 * struct amd_model_case - one model edge of the kernels' numerators
 * @name: what is tested
 * @family: CPUID family
 * @model: CPUID model
 * @highest_6_1: 166 or 255, as 6.1's amd_get_highest_perf() returns
 * @ranked_6_12: 166 or 196, as 6.12's amd_get_boost_ratio_numerator()
 *	returns when the CPUs rank themselves (preferred cores)
 */
struct amd_model_case {
	const char *name;
	u32 family, model, highest_6_1, ranked_6_12;
};

/* Every first/last model of each range and its neighbours */
static const struct amd_model_case amd_model_cases[] = {
	{ "17h/2fh before Rome", 0x17, 0x2f, 255, 166 },
	{ "17h/30h first of 30h-3fh", 0x17, 0x30, 166, 166 },
	{ "17h/31h Rome (EPYC 7002)", 0x17, 0x31, 166, 166 },
	{ "17h/3fh last of 30h-3fh", 0x17, 0x3f, 166, 166 },
	{ "17h/40h after 30h-3fh", 0x17, 0x40, 255, 166 },
	{ "17h/6fh before Matisse", 0x17, 0x6f, 255, 166 },
	{ "17h/70h first of 70h-7fh", 0x17, 0x70, 166, 166 },
	{ "17h/71h Matisse (Ryzen 3000)", 0x17, 0x71, 166, 166 },
	{ "17h/7fh last of 70h-7fh", 0x17, 0x7f, 166, 166 },
	{ "17h/80h after 70h-7fh", 0x17, 0x80, 255, 166 },
	{ "17h/01h Naples (Zen 1)", 0x17, 0x01, 255, 166 },
	{ "19h/01h Milan", 0x19, 0x01, 255, 166 },
	{ "19h/1fh before Vermeer", 0x19, 0x1f, 255, 166 },
	{ "19h/20h first of 20h-2fh", 0x19, 0x20, 166, 166 },
	{ "19h/21h Vermeer (Ryzen 5000)", 0x19, 0x21, 166, 166 },
	{ "19h/2fh last of 20h-2fh", 0x19, 0x2f, 166, 166 },
	{ "19h/30h after 20h-2fh", 0x19, 0x30, 255, 166 },
	{ "19h/3fh before 40h-6fh", 0x19, 0x3f, 255, 166 },
	{ "19h/40h first of 40h-6fh", 0x19, 0x40, 166, 166 },
	{ "19h/50h Cezanne", 0x19, 0x50, 166, 166 },
	{ "19h/61h Raphael", 0x19, 0x61, 166, 166 },
	{ "19h/6fh last of 40h-6fh", 0x19, 0x6f, 166, 166 },
	{ "19h/70h after 40h-6fh, first Zen 4 of 6.12's 196", 0x19, 0x70, 255, 196 },
	{ "19h/74h Phoenix", 0x19, 0x74, 255, 196 },
	{ "19h/7fh last of 70h-7fh", 0x19, 0x7f, 255, 196 },
	{ "19h/80h after 70h-7fh", 0x19, 0x80, 255, 166 },
	{ "18h/31h Hygon: same model, other family", 0x18, 0x31, 255, 166 },
	{ "18h/74h Hygon: Phoenix's model, other family", 0x18, 0x74, 255, 166 },
	{ "1ah/02h Zen 5", 0x1a, 0x02, 255, 166 },
	{ "1ah/74h Zen 5: Phoenix's model number", 0x1a, 0x74, 255, 166 },
};

KUNIT_ARRAY_PARAM_DESC(amd_model, amd_model_cases, name);

static void amd_kernel_highest_test(struct kunit *test)
{
	const struct amd_model_case *c = test->param_value;
	struct amd_cppc_raw raw = {
		.family = c->family, .model = c->model, .highest_perf = 232,
	};

	/* 6.1 ignores what CPPC says, uniform or ranked */
	raw.rules = FREQ_RATIO_RULES_6_1;
	KUNIT_EXPECT_EQ(test, c->highest_6_1,
			amd_cppc_ratio_kernel_highest_perf(&raw));
	raw.highest_perf_uniform = true;
	KUNIT_EXPECT_EQ(test, c->highest_6_1,
			amd_cppc_ratio_kernel_highest_perf(&raw));
	/* 6.12: the uniform value itself, a fixed one for a ranking */
	raw.rules = FREQ_RATIO_RULES_6_12;
	KUNIT_EXPECT_EQ(test, 232U, amd_cppc_ratio_kernel_highest_perf(&raw));
	raw.highest_perf_uniform = false;
	KUNIT_EXPECT_EQ(test, c->ranked_6_12,
			amd_cppc_ratio_kernel_highest_perf(&raw));
}

/**
 * struct amd_uniform_case - one call of amd_cppc_ratio_highest_uniform()
 * @name: what is tested
 * @hp: highest_perf of each CPU
 * @nr: entries of @hp passed
 * @err: expected return
 * @uniform: expected result when @err is 0
 */
struct amd_uniform_case {
	const char *name;
	u32 hp[4];
	unsigned int nr;
	int err;
	bool uniform;
};

static const struct amd_uniform_case amd_uniform_cases[] = {
	{ "one CPU", { 255 }, 1, 0, true },
	{ "all equal (EPYC 7702)", { 255, 255, 255, 255 }, 4, 0, true },
	{ "last differs", { 232, 232, 232, 227 }, 4, 0, false },
	{ "first differs", { 227, 232, 232, 232 }, 4, 0, false },
	{ "a CPU reports 0", { 255, 0, 255, 255 }, 4, -ENODATA, false },
	{ "no CPUs", { 255 }, 0, -EINVAL, false },
};

KUNIT_ARRAY_PARAM_DESC(amd_uniform, amd_uniform_cases, name);

static void amd_uniform_test(struct kunit *test)
{
	const struct amd_uniform_case *c = test->param_value;
	bool uniform = !c->uniform;
	int ret;

	ret = amd_cppc_ratio_highest_uniform(c->hp, c->nr, &uniform);
	KUNIT_ASSERT_EQ(test, ret, c->err);
	if (!ret)
		KUNIT_EXPECT_EQ(test, uniform, c->uniform);
}

static void amd_null_test(struct kunit *test)
{
	struct amd_cppc_ratio_result res;
	struct amd_cppc_raw raw = { };
	struct amd_cppc_raw bad_rules = {
		.rules = FREQ_RATIO_RULES_NR, .family = 0x17, .model = 0x31,
		.highest_perf = 255, .nominal_perf = 152, .nominal_freq_mhz = 2000,
	};
	bool uniform;
	u32 hp = 255;

	KUNIT_EXPECT_EQ(test, -EINVAL, amd_cppc_ratio_decode(&bad_rules, &res));
	KUNIT_EXPECT_EQ(test, 0U, amd_cppc_ratio_kernel_highest_perf(&bad_rules));
	KUNIT_EXPECT_EQ(test, -EINVAL, amd_cppc_ratio_decode(NULL, &res));
	KUNIT_EXPECT_EQ(test, -EINVAL, amd_cppc_ratio_decode(&raw, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			amd_cppc_ratio_highest_uniform(NULL, 1, &uniform));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			amd_cppc_ratio_highest_uniform(&hp, 1, NULL));
	KUNIT_EXPECT_STREQ(test, "unknown", amd_cppc_ratio_rule_name(99));
}

static struct kunit_case amd_cppc_ratio_test_cases[] = {
	KUNIT_CASE_PARAM(amd_decode_test, amd_decode_gen_params),
	KUNIT_CASE_PARAM(amd_kernel_highest_test, amd_model_gen_params),
	KUNIT_CASE_PARAM(amd_uniform_test, amd_uniform_gen_params),
	KUNIT_CASE(amd_null_test),
	{ }
};

static struct kunit_suite amd_cppc_ratio_test_suite = {
	.name = "amd_cppc_ratio",
	.test_cases = amd_cppc_ratio_test_cases,
};

kunit_test_suites(&amd_cppc_ratio_test_suite);
