// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite vcpufreq_energy: the emulated machine's arithmetic in
 * selftests/vcpufreq_energy.h.  vcpufreq_em_busy() against P_busy =
 * a V^2 f + b V worked out by hand from the model tables of
 * Documentation/bench.rst (V interpolated linearly between the curve's
 * points, flat outside), vcpufreq_emu_step() against the stall that
 * t x (f_top/f - 1) owes, and vcpufreq_em_nj().
 *
 * Mutations this suite catches (each tried: a case failed with it):
 *  - V linear in f outside the curve instead of flat (4.0 GHz case)
 *  - P linear in V (a V f + b V)
 *  - the leakage term dropped
 *  - debt owing t x f_top/f instead of t x (f_top/f - 1)
 *  - the stall not capped at the budget
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "selftests/vcpufreq_energy.h"

/* The epyc-7742 and xeon-e5-2687w-v3 models (Documentation/bench.rst). */
static const struct vcpufreq_em_point epyc_curve[] = {
	{ 1500000,  900 }, { 2000000, 1000 }, { 2250000, 1100 },
	{ 3400000, 1350 },
};

static const struct vcpufreq_em_model epyc = {
	.curve = epyc_curve, .nr_points = ARRAY_SIZE(epyc_curve),
	.a_uw_per_v2ghz = 700000, .b_uw_per_v = 250000,
	.idle_uw = 100000, .uncore_uw_per_core = 1000000,
};

static const struct vcpufreq_em_point xeon_curve[] = {
	{ 1200000,  800 }, { 3500000, 1200 },
};

static const struct vcpufreq_em_model xeon = {
	.curve = xeon_curve, .nr_points = ARRAY_SIZE(xeon_curve),
	.a_uw_per_v2ghz = 2400000, .b_uw_per_v = 1000000,
	.idle_uw = 500000, .uncore_uw_per_core = 4000000,
};

struct em_case {
	const char *name;
	const struct vcpufreq_em_model *model;
	u32 khz;
	u32 mv;
	u32 busy_uw;
};

/* P = 0.7 W x V^2 x GHz + 0.25 W x V (EPYC), 2.4 and 1.0 (Xeon). */
static const struct em_case em_cases[] = {
	/* 0.7 x 0.81 x 1.5 + 0.225 = 1.0755 W */
	{ "epyc P2 1500 MHz 0.900 V", &epyc, 1500000,  900, 1075500 },
	/* 0.7 x 1.00 x 2.0 + 0.25 = 1.65 W */
	{ "epyc P1 2000 MHz 1.000 V", &epyc, 2000000, 1000, 1650000 },
	/* 0.7 x 1.21 x 2.25 + 0.275 = 2.18075 W */
	{ "epyc P0 2250 MHz 1.100 V", &epyc, 2250000, 1100, 2180750 },
	/* 0.7 x 1.8225 x 3.4 + 0.3375 = 4.67505 W */
	{ "epyc boost 3400 MHz 1.350 V", &epyc, 3400000, 1350, 4675050 },
	/* between P0 and boost: 1100 + 250 x 550/1150 = 1219 mV */
	{ "epyc 2800 MHz interpolated", &epyc, 2800000, 1219, 3217233 },
	/* below the curve: V flat at 0.900 V */
	{ "epyc 1000 MHz below the curve", &epyc, 1000000,  900,  792000 },
	/* above the curve: V flat at 1.350 V */
	{ "epyc 4000 MHz above the curve", &epyc, 4000000, 1350, 5440500 },
	/* 2.4 x 0.64 x 1.2 + 0.8 = 2.6432 W */
	{ "xeon 1200 MHz 0.800 V", &xeon, 1200000,  800, 2643200 },
	/* 800 + 400 x 1900/2300 = 1130 mV: 2.4 x 1.2769 x 3.1 + 1.13 */
	{ "xeon base 3100 MHz", &xeon, 3100000, 1130, 10630136 },
	/* 2.4 x 1.44 x 3.5 + 1.2 = 13.296 W */
	{ "xeon turbo 3500 MHz 1.200 V", &xeon, 3500000, 1200, 13296000 },
};

static void em_case_desc(const struct em_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(em, em_cases, em_case_desc);

static void vcpufreq_em_busy_test(struct kunit *test)
{
	const struct em_case *c = test->param_value;
	struct vcpufreq_em_in in = { .model = c->model, .khz = c->khz };
	struct vcpufreq_em_out out;

	vcpufreq_em_busy(&in, &out);
	KUNIT_EXPECT_EQ(test, out.mv, c->mv);
	KUNIT_EXPECT_EQ(test, out.busy_uw, c->busy_uw);
}

struct step_case {
	const char *name;
	struct vcpufreq_emu_in in;
	u64 debt_ns;
	u64 spin_ns;
};

/* Budget 900 us: 90 % of the default 1 ms period. */
static const struct step_case step_cases[] = {
	/* 450 us at 1500 of 3400 MHz owe 450 x 1.9/1.5 = 570 us */
	{ "1500 of 3400 MHz: 450 us owe 570 us",
	  { 450000, 0, 1500000, 3400000, 900000 }, 570000, 570000 },
	/* 1 ms owes 1266.666 us, 900 us of it now */
	{ "1500 of 3400 MHz: over the budget, the rest stays owed",
	  { 1000000, 0, 1500000, 3400000, 900000 }, 1266666, 900000 },
	{ "earlier debt is added",
	  { 100000, 366666, 1500000, 3400000, 900000 }, 493332, 493332 },
	{ "at f_top nothing is owed",
	  { 1000000, 0, 3400000, 3400000, 900000 }, 0, 0 },
	{ "at f_top an old debt is still paid",
	  { 1000000, 200000, 3400000, 3400000, 900000 }, 200000, 200000 },
	/* boost off: 2250 of 3400 MHz, 1 ms owes 511.111 us */
	{ "2250 of 3400 MHz (boost off)",
	  { 1000000, 0, 2250000, 3400000, 900000 }, 511111, 511111 },
	{ "no work, no debt",
	  { 0, 0, 1500000, 3400000, 900000 }, 0, 0 },
};

static void step_case_desc(const struct step_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(step, step_cases, step_case_desc);

static void vcpufreq_emu_step_test(struct kunit *test)
{
	const struct step_case *c = test->param_value;
	struct vcpufreq_emu_out out;

	vcpufreq_emu_step(&c->in, &out);
	KUNIT_EXPECT_EQ(test, out.debt_ns, c->debt_ns);
	KUNIT_EXPECT_EQ(test, out.spin_ns, c->spin_ns);
}

static void vcpufreq_em_nj_test(struct kunit *test)
{
	/*
	 * 1 W for 1 s is 1 J; 4.67505 W for 2 ms is 9350.1 uJ.  (Not 1 ms:
	 * x86's mul_u64_u32_div() asm lets GCC put two equal constant
	 * operands, here ns and the divisor 1000000, in one register, and
	 * then returns 1.  The driver's ns are never compile-time
	 * constants.)
	 */
	KUNIT_EXPECT_EQ(test, vcpufreq_em_nj(1000000000ULL, 1000000), 1000000000ULL);
	KUNIT_EXPECT_EQ(test, vcpufreq_em_nj(2000000, 4675050), 9350100ULL);
	/* A day at 100 W: no overflow in the intermediate product. */
	KUNIT_EXPECT_EQ(test, vcpufreq_em_nj(86400ULL * 1000000000ULL, 100000000),
			8640000ULL * 1000000000ULL);
	KUNIT_EXPECT_EQ(test, vcpufreq_em_nj(999, 1000), 0ULL);
}

static struct kunit_case vcpufreq_energy_cases[] = {
	KUNIT_CASE_PARAM(vcpufreq_em_busy_test, em_gen_params),
	KUNIT_CASE_PARAM(vcpufreq_emu_step_test, step_gen_params),
	KUNIT_CASE(vcpufreq_em_nj_test),
	{}
};

static struct kunit_suite vcpufreq_energy_suite = {
	.name = "vcpufreq_energy",
	.test_cases = vcpufreq_energy_cases,
};

kunit_test_suites(&vcpufreq_energy_suite);
