// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite vcpufreq_energy: the emulated machine's arithmetic in
 * selftests/vcpufreq_energy.h.  vcpufreq_em_busy() against P_busy =
 * a V^2 f + b V worked out by hand from the model tables of
 * Documentation/bench.rst (V interpolated linearly between the curve's
 * points, flat outside), vcpufreq_emu_step() against the stall that
 * t x (f_top/f - 1) owes, sequences of the emulator's events (work,
 * frequency changes, timer callbacks) against the stall they add up to,
 * vcpufreq_em_static() (slice or whole package) against the uncore and
 * idle cores it must pay, and vcpufreq_em_nj().
 *
 * Mutations this suite catches (each tried: a case failed with it):
 *  - V linear in f outside the curve instead of flat (4.0 GHz case)
 *  - P linear in V (a V f + b V)
 *  - the leakage term dropped
 *  - debt owing t x f_top/f instead of t x (f_top/f - 1)
 *  - the stall not capped at the budget
 *  - a frequency change that does not settle the work done before it
 *    (vcpufreq_emu_retune() only setting the frequency)
 *  - a kicked callback forgiving twice its lateness, as before
 *  - the entry estimate learnt from kicked callbacks too
 *  - the whole package paying the guest's CPUs as idle cores too
 *  - the uncore of the package paid per guest CPU (the slice's)
 *  - no check of the package's core count against the guest's CPUs
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "compat.h"
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

KUNIT_ARRAY_PARAM_DESC(em, em_cases, name);

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
	struct vcpufreq_emu_work work;
	struct vcpufreq_emu_fire fire;
	u64 debt_ns;
	u64 spin_ns;
	u64 entry_ns;
	u64 entry_est_ns;
};

#define US(x)	((x) * 1000ULL)

/* Budget 900 us: 90 % of the default 1 ms period. */
static const struct step_case step_cases[] = {
	/* 450 us at 1500 of 3400 MHz owe 450 x 1.9/1.5 = 570 us */
	{ "1500 of 3400 MHz: 450 us owe 570 us",
	  { US(450), 0, 0, 1500000 }, { 0, false, 3400000, US(900) },
	  US(570), US(570), 0, 0 },
	/* 1 ms owes 1266.666 us, 900 us of it now */
	{ "1500 of 3400 MHz: over the budget, the rest stays owed",
	  { US(1000), 0, 0, 1500000 }, { 0, false, 3400000, US(900) },
	  1266666, US(900), 0, 0 },
	{ "earlier debt is added",
	  { US(100), 366666, 0, 1500000 }, { 0, false, 3400000, US(900) },
	  493332, 493332, 0, 0 },
	{ "at f_top nothing is owed",
	  { US(1000), 0, 0, 3400000 }, { 0, false, 3400000, US(900) },
	  0, 0, 0, 0 },
	{ "at f_top an old debt is still paid",
	  { US(1000), US(200), 0, 3400000 }, { 0, false, 3400000, US(900) },
	  US(200), US(200), 0, 0 },
	/* boost off: 2250 of 3400 MHz, 1 ms owes 511.111 us */
	{ "2250 of 3400 MHz (boost off)",
	  { US(1000), 0, 0, 2250000 }, { 0, false, 3400000, US(900) },
	  511111, 511111, 0, 0 },
	{ "no work, no debt",
	  { 0, 0, 0, 1500000 }, { 0, false, 3400000, US(900) }, 0, 0, 0, 0 },
	/*
	 * A periodic callback 5 us late: 10 us of entry and exit out of
	 * the work (990 us owe 1254 us), and an eighth of it learnt.
	 */
	{ "periodic callback: twice its lateness is entry, and learnt",
	  { US(1000), 0, 0, 1500000 }, { US(5), false, 3400000, US(900) },
	  1254000, US(900), US(10), 1250 },
	{ "periodic callback: lateness over 25 us is not entry",
	  { US(1000), 0, US(9), 1500000 }, { US(100), false, 3400000, US(900) },
	  1203333, US(900), US(50), 7875 + 6250 },
	/*
	 * A kicked callback, 40 us late (the rest of the context switch):
	 * the estimate (9 us) is entry, not 80 us, and is not moved.
	 */
	{ "kicked callback: the estimate is entry, not its lateness",
	  { US(100), 0, US(9), 1500000 }, { US(40), true, 3400000, US(900) },
	  115266, 115266, US(9), US(9) },
	{ "entry never exceeds the work",
	  { US(4), 0, US(9), 1500000 }, { US(40), true, 3400000, US(900) },
	  0, 0, US(4), US(9) },
};

KUNIT_ARRAY_PARAM_DESC(step, step_cases, name);

static void vcpufreq_emu_step_test(struct kunit *test)
{
	const struct step_case *c = test->param_value;
	struct vcpufreq_emu_work w = c->work;
	u64 spin, entry;

	spin = vcpufreq_emu_step(&w, &c->fire, &entry);
	KUNIT_EXPECT_EQ(test, w.debt_ns, c->debt_ns);
	KUNIT_EXPECT_EQ(test, spin, c->spin_ns);
	KUNIT_EXPECT_EQ(test, entry, c->entry_ns);
	KUNIT_EXPECT_EQ(test, w.entry_est_ns, c->entry_est_ns);
	KUNIT_EXPECT_EQ(test, w.useful_ns, 0ULL);
}

/*
 * Sequences of what the driver does to one CPU, each ending in the stall
 * the next timer callback spins: busy time, frequency changes (at the
 * driver's ->target_index or ->fast_switch), callbacks, stalls paid.
 */
enum emu_event_kind { EMU_END, EMU_RUN, EMU_RETUNE, EMU_FIRE, EMU_KICK };

struct emu_event {
	enum emu_event_kind kind;
	u64 ns;		/* EMU_RUN: busy time; EMU_FIRE, EMU_KICK: lateness */
	u32 khz;	/* EMU_RETUNE: the new frequency */
};

struct seq_case {
	const char *name;
	u32 eff_khz;
	u64 entry_est_ns;
	struct emu_event ev[6];
	u64 spin_ns;	/* the stalls of every callback, paid in full */
	u64 debt_ns;	/* owed at the end */
};

static const struct seq_case seq_cases[] = {
	/*
	 * Work done at one frequency owes that frequency's stall, whatever
	 * the frequency when the timer fires.  Before, the timer converted
	 * all of it at the new one: 450 us at 1500 MHz owed nothing once
	 * the CPU was set to f_top, and 450 us at f_top owed 570 us once
	 * set to 1500 MHz.
	 */
	{ "450 us at 1500 MHz, then f_top: the stall is still owed",
	  1500000, 0,
	  { { EMU_RUN, US(450) }, { EMU_RETUNE, 0, 3400000 },
	    { EMU_FIRE, 0 } }, US(570), 0 },
	{ "450 us at f_top, then 1500 MHz: no stall for it",
	  3400000, 0,
	  { { EMU_RUN, US(450) }, { EMU_RETUNE, 0, 1500000 },
	    { EMU_FIRE, 0 } }, 0, 0 },
	{ "250 us at 1500, 250 us at 2000 MHz: each at its own rate",
	  1500000, 0,
	  { { EMU_RUN, US(250) }, { EMU_RETUNE, 0, 2000000 },
	    { EMU_RUN, US(250) }, { EMU_FIRE, 0 } },
	  316666 + 175000, 0 },
	/*
	 * A wake-up callback's lateness is the rest of the context switch:
	 * before, twice it (up to 50 us) went unslowed at every wake-up
	 * with a stall owed.  Now only the estimate (9 us) does.
	 */
	{ "wake-up after 100 us owed: 40 us late forgives 9 us, not 50",
	  1500000, US(9),
	  { { EMU_RUN, US(100) }, { EMU_KICK, US(40) } }, 115266, 0 },
	/*
	 * A spell shorter than a period ends owing its stall; the next
	 * spell pays it first (kept: the reason is in
	 * Documentation/bench.rst, "Fidelity across workloads").
	 */
	{ "a 300 us spell's stall is paid when the next spell starts",
	  1500000, 0,
	  { { EMU_RUN, US(300) }, { EMU_KICK, 0 }, { EMU_RUN, US(300) } },
	  US(380), US(380) },
	/* Over the budget: 900 us now, the rest at the next callback. */
	{ "2 ms at 1500 MHz: 900 us a callback until it is paid",
	  1500000, 0,
	  { { EMU_RUN, US(2000) }, { EMU_FIRE, 0 }, { EMU_FIRE, 0 },
	    { EMU_FIRE, 0 } }, 2533333, 0 },
};

KUNIT_ARRAY_PARAM_DESC(seq, seq_cases, name);

static void vcpufreq_emu_seq_test(struct kunit *test)
{
	const struct seq_case *c = test->param_value;
	struct vcpufreq_emu_work w = {
		.eff_khz = c->eff_khz, .entry_est_ns = c->entry_est_ns,
	};
	struct vcpufreq_emu_fire f = { .top_khz = 3400000, .budget_ns = US(900) };
	const struct emu_event *e;
	u64 spin, total = 0, entry;

	for (e = c->ev; e < c->ev + ARRAY_SIZE(c->ev) && e->kind; e++) {
		switch (e->kind) {
		case EMU_RUN:
			w.useful_ns += e->ns;
			break;
		case EMU_RETUNE:
			vcpufreq_emu_retune(&w, e->khz, f.top_khz);
			break;
		default:
			f.late_ns = e->ns;
			f.kicked = e->kind == EMU_KICK;
			spin = vcpufreq_emu_step(&w, &f, &entry);
			vcpufreq_emu_paid(&w, spin);
			total += spin;
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, total, c->spin_ns);
	KUNIT_EXPECT_EQ(test, w.debt_ns + vcpufreq_emu_owed_ns(w.useful_ns,
							       w.eff_khz,
							       f.top_khz),
			c->debt_ns);
}

struct static_case {
	const char *name;
	struct vcpufreq_em_static_in in;
	int ret;
	struct vcpufreq_em_static_out out;
};

/* Uncore 1 W a core, idle 0.1 W (EPYC); 4 W and 0.5 W (Xeon). */
static const struct static_case static_cases[] = {
	{ "epyc slice, 1 CPU: 1 W of uncore, no other core",
	  { &epyc, VCPUFREQ_EM_SLICE, 1, 0 }, 0, { 1000000, 0, 0 } },
	{ "epyc slice, 2 CPUs: package_cores ignored",
	  { &epyc, VCPUFREQ_EM_SLICE, 2, 64 }, 0, { 2000000, 0, 0 } },
	{ "epyc package of 64, 1 CPU: 64 W and 63 idle cores",
	  { &epyc, VCPUFREQ_EM_PACKAGE, 1, 64 }, 0, { 64000000, 63, 6300000 } },
	{ "epyc 2 sockets (128 cores), 2 CPUs",
	  { &epyc, VCPUFREQ_EM_PACKAGE, 2, 128 }, 0,
	  { 128000000, 126, 12600000 } },
	{ "xeon package of 10, 4 CPUs",
	  { &xeon, VCPUFREQ_EM_PACKAGE, 4, 10 }, 0, { 40000000, 6, 3000000 } },
	{ "package of exactly the guest's CPUs",
	  { &epyc, VCPUFREQ_EM_PACKAGE, 4, 4 }, 0, { 4000000, 0, 0 } },
	{ "package smaller than the guest",
	  { &epyc, VCPUFREQ_EM_PACKAGE, 2, 1 }, -ERANGE, { 7, 7, 7 } },
	{ "more than 1024 cores",
	  { &epyc, VCPUFREQ_EM_PACKAGE, 1, 1025 }, -ERANGE, { 7, 7, 7 } },
	/* 1024 x 4 W + 1023 x 0.5 W = 4607.5 W, above U32_MAX uW */
	{ "above 4294 W besides the guest",
	  { &xeon, VCPUFREQ_EM_PACKAGE, 1, 1024 }, -ERANGE, { 7, 7, 7 } },
	{ "unknown scope",
	  { &epyc, VCPUFREQ_EM_SCOPE_NR, 1, 64 }, -EINVAL, { 7, 7, 7 } },
};

KUNIT_ARRAY_PARAM_DESC(static, static_cases, name);

/* On error the output is left as it was (7s here). */
static void vcpufreq_em_static_test(struct kunit *test)
{
	const struct static_case *c = test->param_value;
	struct vcpufreq_em_static_out out = { 7, 7, 7 };

	KUNIT_EXPECT_EQ(test, vcpufreq_em_static(&c->in, &out), c->ret);
	KUNIT_EXPECT_EQ(test, out.uncore_uw, c->out.uncore_uw);
	KUNIT_EXPECT_EQ(test, out.idle_cores, c->out.idle_cores);
	KUNIT_EXPECT_EQ(test, out.idle_cores_uw, c->out.idle_cores_uw);
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
	KUNIT_CASE_PARAM(vcpufreq_emu_seq_test, seq_gen_params),
	KUNIT_CASE_PARAM(vcpufreq_em_static_test, static_gen_params),
	KUNIT_CASE(vcpufreq_em_nj_test),
	{}
};

static struct kunit_suite vcpufreq_energy_suite = {
	.name = "vcpufreq_energy",
	.test_cases = vcpufreq_energy_cases,
};

kunit_test_suites(&vcpufreq_energy_suite);
