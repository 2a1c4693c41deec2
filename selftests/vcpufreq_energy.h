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

#include <linux/math64.h>
#include <linux/minmax.h>
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
 *		controllers) divided by its core count, uW: the guest is a
 *		slice of the package with as many cores as it has CPUs
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

/**
 * struct vcpufreq_emu_in - input of vcpufreq_emu_step()
 * @useful_ns:	busy time the CPU ran work (not stalls) since the last step
 * @debt_ns:	stall time owed from earlier steps
 * @eff_khz:	the frequency the CPU is emulated at, kHz, > 0
 * @top_khz:	the frequency the host's speed stands for, kHz (>= @eff_khz)
 * @budget_ns:	most a single stall may take (a share of the period)
 */
struct vcpufreq_emu_in {
	u64 useful_ns;
	u64 debt_ns;
	u32 eff_khz;
	u32 top_khz;
	u64 budget_ns;
};

/**
 * struct vcpufreq_emu_out - output of vcpufreq_emu_step()
 * @debt_ns:	stall time owed, including this step's work
 * @spin_ns:	how long to stall now
 */
struct vcpufreq_emu_out {
	u64 debt_ns;
	u64 spin_ns;
};

/**
 * vcpufreq_emu_step() - how long a CPU must stall to run at eff_khz
 * @in:		work done, debt, frequencies and the stall budget
 * @out:	new debt and the stall to spin now
 *
 * Work that takes t at @top_khz takes t x top / eff at @eff_khz, so each
 * ns of useful work owes (top / eff - 1) ns of stall.  What does not fit
 * the budget stays owed for the next step.  The caller subtracts the stall
 * it really spun from @out->debt_ns.
 *
 * Context: any.
 */
static inline void vcpufreq_emu_step(const struct vcpufreq_emu_in *in,
				     struct vcpufreq_emu_out *out)
{
	u64 debt = in->debt_ns;

	if (in->eff_khz && in->eff_khz < in->top_khz)
		debt += mul_u64_u32_div(in->useful_ns,
					in->top_khz - in->eff_khz,
					in->eff_khz);
	out->debt_ns = debt;
	out->spin_ns = min(debt, in->budget_ns);
}

#endif /* VCPUFREQ_ENERGY_H */
