/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcpufreq's emulated machine: the arithmetic of the energy model and of
 * the frequency emulator, as pure functions of one input struct into one
 * output struct (the shape of sugov_inv_decide()), so that a KUnit suite
 * can drive them with tables and the driver holds no arithmetic of its own.
 *
 * Units: kHz, mV, uW, ns, nJ.  Integer only: this runs in hard-IRQ
 * context and in the scheduler's sched_switch tracepoint.
 */
#ifndef VCPUFREQ_ENERGY_H
#define VCPUFREQ_ENERGY_H

#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/types.h>

/* Highest voltage a model may give, mV: keeps mV^2 x kHz inside a u64. */
#define VCPUFREQ_EM_MAX_MV	2000U

/**
 * struct vcpufreq_em_point - one point of a part's voltage/frequency curve
 * @khz:	core clock, kHz
 * @mv:		core voltage at @khz, mV
 */
struct vcpufreq_em_point {
	u32 khz;
	u32 mv;
};

/**
 * struct vcpufreq_em_model - power model of one core and its package share
 * @curve:	V(f) points in increasing @khz order; V is linear between
 *		points and flat outside them
 * @nr_points:	entries in @curve, at least 1
 * @a_uw_per_v2ghz: dynamic term, uW per V^2 per GHz (the switched
 *		capacitance C of P = C V^2 f)
 * @b_uw_per_v:	static (leakage) term, uW per V
 * @idle_uw:	power of an idle (halted) core, uW
 * @uncore_uw_per_core: the package's uncore power (I/O die, LLC, memory
 *		controllers) divided by its core count, uW (what the guest
 *		pays of it: vcpufreq_em_static())
 *
 * Per core, P_busy(f) = a V(f)^2 f + b V(f).
 */
struct vcpufreq_em_model {
	const struct vcpufreq_em_point *curve;
	unsigned int nr_points;
	u32 a_uw_per_v2ghz;
	u32 b_uw_per_v;
	u32 idle_uw;
	u32 uncore_uw_per_core;
};

/**
 * struct vcpufreq_em_in - input of vcpufreq_em_busy()
 * @model:	the part's model
 * @khz:	the frequency the core runs at, kHz
 */
struct vcpufreq_em_in {
	const struct vcpufreq_em_model *model;
	u32 khz;
};

/**
 * struct vcpufreq_em_out - output of vcpufreq_em_busy()
 * @mv:		V(@khz), mV, capped at VCPUFREQ_EM_MAX_MV
 * @busy_uw:	P_busy(@khz), uW
 */
struct vcpufreq_em_out {
	u32 mv;
	u32 busy_uw;
};

/**
 * enum vcpufreq_em_scope - how much of the package the guest pays for
 * @VCPUFREQ_EM_SLICE:	a slice of the package with as many cores as the
 *			guest has CPUs: the uncore's share of those cores
 * @VCPUFREQ_EM_PACKAGE: the whole package: the guest's CPUs are some of
 *			its cores, the others idle, and all of the uncore
 * @VCPUFREQ_EM_SCOPE_NR: number of scopes
 */
enum vcpufreq_em_scope {
	VCPUFREQ_EM_SLICE,
	VCPUFREQ_EM_PACKAGE,
	VCPUFREQ_EM_SCOPE_NR
};

/* Most cores a package (or the packages modelled) may have. */
#define VCPUFREQ_EM_MAX_CORES	1024U

/**
 * struct vcpufreq_em_static_in - input of vcpufreq_em_static()
 * @model:	the part's model
 * @scope:	slice or whole package
 * @nr_cpus:	the guest's CPUs, at least 1
 * @package_cores: cores of the package(s) modelled (VCPUFREQ_EM_PACKAGE
 *		only), @nr_cpus..VCPUFREQ_EM_MAX_CORES
 */
struct vcpufreq_em_static_in {
	const struct vcpufreq_em_model *model;
	enum vcpufreq_em_scope scope;
	u32 nr_cpus;
	u32 package_cores;
};

/**
 * struct vcpufreq_em_static_out - output of vcpufreq_em_static()
 * @uncore_uw:	the uncore power the guest pays, uW
 * @idle_cores:	cores of the package that are not the guest's CPUs
 * @idle_cores_uw: their power, idle all the time, uW
 */
struct vcpufreq_em_static_out {
	u32 uncore_uw;
	u32 idle_cores;
	u32 idle_cores_uw;
};

/**
 * vcpufreq_em_static() - the power the guest pays beside its own CPUs'
 * @in:		model, scope, the guest's CPUs and the package's cores
 * @out:	the uncore's power and the other cores' idle power
 *
 * A slice pays uncore_uw_per_core x @nr_cpus and has no other core.  The
 * whole package pays uncore_uw_per_core x @package_cores, and its
 * (@package_cores - @nr_cpus) other cores idle at idle_uw each: with one
 * or two busy CPUs of an EPYC 7742, 64 W of I/O die and 62 idle cores
 * beside them, as on the real part, rather than 2 W.
 *
 * Context: any.
 * Return: 0; -ERANGE (@out untouched) for a package with fewer cores than
 * @nr_cpus or more than VCPUFREQ_EM_MAX_CORES, or a power above
 * U32_MAX uW; -EINVAL for an unknown scope.
 */
static inline int vcpufreq_em_static(const struct vcpufreq_em_static_in *in,
				     struct vcpufreq_em_static_out *out)
{
	const struct vcpufreq_em_model *m = in->model;
	u32 cores, others;
	u64 uncore, idle;

	switch (in->scope) {
	case VCPUFREQ_EM_SLICE:
		cores = in->nr_cpus;
		break;
	case VCPUFREQ_EM_PACKAGE:
		cores = in->package_cores;
		if (cores < in->nr_cpus || cores > VCPUFREQ_EM_MAX_CORES)
			return -ERANGE;
		break;
	default:
		return -EINVAL;
	}
	others = cores - in->nr_cpus;
	uncore = (u64)m->uncore_uw_per_core * cores;
	idle = (u64)m->idle_uw * others;
	if (uncore + idle > U32_MAX)
		return -ERANGE;
	out->uncore_uw = uncore;
	out->idle_cores = others;
	out->idle_cores_uw = idle;
	return 0;
}

/**
 * vcpufreq_em_mv() - the core voltage of a model at a frequency
 * @m:		the model, @m->nr_points >= 1
 * @khz:	frequency, kHz
 *
 * Context: any.
 * Return: V(@khz) in mV, interpolated linearly between the model's points.
 */
static inline u32 vcpufreq_em_mv(const struct vcpufreq_em_model *m, u32 khz)
{
	const struct vcpufreq_em_point *lo, *hi;
	unsigned int i;
	u32 mv;

	if (khz <= m->curve[0].khz)
		return min(m->curve[0].mv, VCPUFREQ_EM_MAX_MV);
	for (i = 1; i < m->nr_points; i++) {
		lo = &m->curve[i - 1];
		hi = &m->curve[i];
		if (khz > hi->khz)
			continue;
		/* Both slopes: a curve may only rise, but do not assume it. */
		if (hi->mv >= lo->mv)
			mv = lo->mv + div_u64((u64)(hi->mv - lo->mv) *
					      (khz - lo->khz),
					      hi->khz - lo->khz);
		else
			mv = lo->mv - div_u64((u64)(lo->mv - hi->mv) *
					      (khz - lo->khz),
					      hi->khz - lo->khz);
		return min(mv, VCPUFREQ_EM_MAX_MV);
	}
	return min(m->curve[m->nr_points - 1].mv, VCPUFREQ_EM_MAX_MV);
}

/**
 * vcpufreq_em_busy() - busy power of one core at a frequency
 * @in:		model and frequency
 * @out:	voltage and P_busy = a V^2 f + b V
 *
 * a V^2 f: mV^2 <= 4e6 and kHz <= 1e8 give at most 4e14, so the product
 * fits a u64 before mul_u64_u32_div() scales it by a (uW/(V^2 GHz)) over
 * 1e6 (mV^2 -> V^2 is 1e-6) and the last division by 1e6 (kHz -> GHz).
 *
 * Context: any.
 */
static inline void vcpufreq_em_busy(const struct vcpufreq_em_in *in,
				    struct vcpufreq_em_out *out)
{
	const struct vcpufreq_em_model *m = in->model;
	u32 mv = vcpufreq_em_mv(m, in->khz);
	u64 dyn_uw, leak_uw;

	dyn_uw = div_u64(mul_u64_u32_div((u64)mv * mv * in->khz,
					 m->a_uw_per_v2ghz, 1000000),
			 1000000);
	leak_uw = div_u64((u64)m->b_uw_per_v * mv, 1000);
	out->mv = mv;
	out->busy_uw = min_t(u64, dyn_uw + leak_uw, U32_MAX);
}

/**
 * vcpufreq_em_nj() - energy of a constant power over an interval
 * @ns:		interval, ns
 * @uw:		power, uW
 *
 * Truncates below 1 nJ per call: at a few thousand calls per second and
 * CPU that is under 1e-8 of a watt-level figure.
 *
 * Context: any.
 * Return: @ns x @uw in nJ.
 */
static inline u64 vcpufreq_em_nj(u64 ns, u32 uw)
{
	return mul_u64_u32_div(ns, uw, 1000000);
}

/* More than this from expiry to callback is not interrupt entry. */
#define VCPUFREQ_EMU_MAX_ENTRY_NS	(50 * NSEC_PER_USEC)

/*
 * Weight of the newest periodic callback in the entry estimate: 1/8, so
 * that one callback delayed by a long IRQ-off section moves it little.
 */
#define VCPUFREQ_EMU_ENTRY_SHIFT	3

/**
 * struct vcpufreq_emu_work - what an emulated CPU owes for the work it did
 * @useful_ns:	busy time spent on work (not stalls) since it was last
 *		settled, all of it at @eff_khz
 * @debt_ns:	stall time owed for work already settled
 * @entry_est_ns: the stall timer's own interrupt entry and exit, as
 *		periodic callbacks measured it (a running average)
 * @eff_khz:	the frequency the CPU is emulated at, kHz
 *
 * The state the emulator's arithmetic needs, and nothing else: the
 * driver adds busy time to @useful_ns and calls vcpufreq_emu_retune() and
 * vcpufreq_emu_step(), which KUnit drives through whole sequences.
 */
struct vcpufreq_emu_work {
	u64 useful_ns;
	u64 debt_ns;
	u64 entry_est_ns;
	u32 eff_khz;
};

/**
 * struct vcpufreq_emu_fire - one callback of the stall timer
 * @late_ns:	time from the timer's expiry to the callback
 * @kicked:	the timer was started to expire at once when the CPU left
 *		idle owing a stall, rather than at the end of a period
 * @top_khz:	the frequency the host's speed stands for, kHz
 *		(>= every @eff_khz)
 * @budget_ns:	most a single stall may take (a share of the period)
 */
struct vcpufreq_emu_fire {
	u64 late_ns;
	bool kicked;
	u32 top_khz;
	u64 budget_ns;
};

/**
 * vcpufreq_emu_owed_ns() - the stall that work done at a frequency owes
 * @useful_ns:	the work's time at full speed (the host's), ns
 * @eff_khz:	the frequency it was done at, kHz
 * @top_khz:	the frequency the host's speed stands for, kHz
 *
 * Work that takes t at @top_khz takes t x top / eff at @eff_khz, so each
 * ns of it owes (top / eff - 1) ns of stall.
 *
 * Context: any.
 * Return: the stall owed, ns; 0 at or above @top_khz and for @eff_khz 0.
 */
static inline u64 vcpufreq_emu_owed_ns(u64 useful_ns, u32 eff_khz,
				       u32 top_khz)
{
	if (!eff_khz || eff_khz >= top_khz)
		return 0;
	return mul_u64_u32_div(useful_ns, top_khz - eff_khz, eff_khz);
}

/**
 * vcpufreq_emu_retune() - change an emulated CPU's frequency
 * @w:		the CPU's work and debt
 * @eff_khz:	the new frequency, kHz
 * @top_khz:	the frequency the host's speed stands for, kHz
 *
 * The work done since the last settlement ran at the old frequency: it
 * owes the old frequency's stall, whatever the frequency is when the
 * timer next fires.
 *
 * Context: any.
 */
static inline void vcpufreq_emu_retune(struct vcpufreq_emu_work *w,
				       u32 eff_khz, u32 top_khz)
{
	w->debt_ns += vcpufreq_emu_owed_ns(w->useful_ns, w->eff_khz, top_khz);
	w->useful_ns = 0;
	w->eff_khz = eff_khz;
}

/**
 * vcpufreq_emu_entry_ns() - the timer's own cost in a callback's busy time
 * @w:		the CPU's work, with its entry estimate
 * @f:		the callback
 *
 * From the expiry to the callback the CPU ran the interrupt entry, and
 * after the stall it runs the exit, which a real CPU at eff_khz would not
 * run at all: not work to slow down.  A periodic callback measures the
 * entry (the exit is taken to cost as much), at most
 * VCPUFREQ_EMU_MAX_ENTRY_NS.  A kicked callback does not: its timer was
 * started inside the scheduler with IRQs off, so its lateness is the rest
 * of the context switch, real work; it is charged the estimate instead.
 *
 * Context: any.
 * Return: the time to take out of @w->useful_ns, ns (at most all of it).
 */
static inline u64 vcpufreq_emu_entry_ns(const struct vcpufreq_emu_work *w,
					const struct vcpufreq_emu_fire *f)
{
	u64 entry = f->kicked ? w->entry_est_ns :
		    min_t(u64, 2 * f->late_ns, VCPUFREQ_EMU_MAX_ENTRY_NS);

	return min(entry, w->useful_ns);
}

/**
 * vcpufreq_emu_step() - settle a CPU's work at a timer callback
 * @w:		the CPU's work and debt; on return the work is settled
 * @f:		the callback
 * @entry_ns:	set to the timer's own cost taken out of the work, ns
 *
 * Takes the timer's entry and exit out of the work, turns the rest into
 * debt at @w->eff_khz, and learns the entry cost from periodic callbacks.
 * What does not fit the budget stays owed for the next callback; the
 * caller passes the stall it really spun to vcpufreq_emu_paid().
 *
 * Context: any.
 * Return: how long to stall now, ns.
 */
static inline u64 vcpufreq_emu_step(struct vcpufreq_emu_work *w,
				    const struct vcpufreq_emu_fire *f,
				    u64 *entry_ns)
{
	u64 entry = vcpufreq_emu_entry_ns(w, f), sample;

	if (!f->kicked) {
		sample = min_t(u64, 2 * f->late_ns, VCPUFREQ_EMU_MAX_ENTRY_NS);
		w->entry_est_ns += (sample >> VCPUFREQ_EMU_ENTRY_SHIFT) -
				   (w->entry_est_ns >> VCPUFREQ_EMU_ENTRY_SHIFT);
	}
	w->debt_ns += vcpufreq_emu_owed_ns(w->useful_ns - entry, w->eff_khz,
					   f->top_khz);
	w->useful_ns = 0;
	*entry_ns = entry;
	return min(w->debt_ns, f->budget_ns);
}

/**
 * vcpufreq_emu_paid() - a stall was spun
 * @w:		the CPU's work and debt
 * @spun_ns:	how long the CPU stalled, ns
 *
 * Context: any.
 */
static inline void vcpufreq_emu_paid(struct vcpufreq_emu_work *w, u64 spun_ns)
{
	w->debt_ns -= min(w->debt_ns, spun_ns);
}

#endif /* VCPUFREQ_ENERGY_H */
