/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sugov_inv: the part of measuring that the update_util hooks inline: is
 * a window due, publish a measured one, and gather a shared policy's
 * utilization inputs over its CPUs.  The out-of-line part, reading a
 * CPU's clocks and folding a window into its estimate, is
 * sugov_inv_measure.c.
 */
#ifndef _SUGOV_INV_MEASURE_H
#define _SUGOV_INV_MEASURE_H

#include <linux/cpumask.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "sugov_inv_internal.h"
#include "sugov_inv_rules.h"

bool sugov_inv_measure(struct sugov_inv_cpu *sgc, u64 time,
		       struct sugov_inv_window *win);
void sugov_inv_project(struct sugov_inv_cpu *j_sgc, struct sugov_inv_est *est);

/*
 * Is a new window due on the local CPU?  Right before an evaluation
 * (@due) as soon as SUGOV_INV_MIN_WINDOW_NS passed, so decisions use
 * fresh data, and otherwise once per rate-limit period, so the CPUs of a
 * shared policy that do not evaluate keep their estimates current.  The
 * first window is short: the CPU evaluates only after it.  Before the
 * first snapshot sgc->win.time is 0 (sugov_inv_start()), and the
 * difference is the whole uptime.
 */
static inline bool sugov_inv_window_due(const struct sugov_inv_cpu *sgc,
					u64 time, bool due)
{
	s64 window = SUGOV_INV_MIN_WINDOW_NS;

	if (!due && likely(sgc->measured))
		window = READ_ONCE(sgc->sgp->sample_period_ns);
	return (s64)(time - sgc->win.time) >= window;
}

/* The fields of a measurement other CPUs read (update_lock when shared) */
static inline void sugov_inv_publish(struct sugov_inv_cpu *sgc, bool closed)
{
	sgc->sampled = true;
	if (closed)
		sgc->measured = true;
}

/*
 * Utilization inputs of a shared policy: the highest util, busy fraction
 * and iowait boost over its CPUs.  Returns the CPU whose util won, for the
 * delivered frequency in the tracepoint.
 *
 * A CPU whose last window of its own ended more than SUGOV_INV_STALE_NS
 * past its sampling period (the rate limit) ago is stale: its stored util
 * is brought up to date from its idle clock (sugov_inv_project()) before
 * it counts.  A CPU that runs anything gets a hook call at least every
 * tick (task_tick_fair() -> update_load_avg() -> cpufreq_update_util())
 * and closes a window at the first one after its period, so three ticks
 * later it is idle without a tick (NOHZ), running without one
 * (nohz_full), or a vCPU its host has not scheduled.  The test is keyed
 * on the CPU's last window, which only the CPU itself closes, not on its
 * last hook call: remote wake-ups call an idle CPU's hook from another CPU
 * without sampling it, and would otherwise keep an estimate from before
 * it idled current forever.  Only the CPU running this hook is current by
 * construction (it measured before the lock); the hook's own CPU is
 * projected like any other when the call is a remote one for an idle CPU.
 */
static inline struct sugov_inv_cpu *
sugov_inv_gather_shared(struct sugov_inv_cpu *sgc, u64 time,
			struct sugov_inv_in *in)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct sugov_inv_cpu *top = sgc, *j_sgc;
	u64 delay_ns = max_t(s64, READ_ONCE(sgp->freq_update_delay_ns), 0);
	unsigned int this_cpu = smp_processor_id();

	lockdep_assert_held(&sgp->update_lock);

	/* policy->cpus, without a bitmap search per CPU */
	for (j_sgc = sgp->first_cpu; j_sgc; j_sgc = j_sgc->next_in_policy) {
		const struct sugov_inv_est *use = &j_sgc->win.est;
		u32 boost, util;
		u64 since;

		/* Decays (or drops, after a tick of silence) every boost */
		since = sugov_inv_since(time, READ_ONCE(j_sgc->last_update));
		boost = sugov_inv_iowait_apply(&j_sgc->iowait, since);

		if (j_sgc->cpu != this_cpu &&
		    sugov_inv_stale(time, j_sgc->win.time + delay_ns)) {
			/*
			 * Evaluations closer together than a window reuse the
			 * last projection: an idle CPU then costs a compare,
			 * however often its policy evaluates.  A new window of
			 * its own makes it project afresh.
			 */
			if (j_sgc->proj_base != j_sgc->win.time ||
			    sugov_inv_since(time, j_sgc->proj_time) >=
			    SUGOV_INV_MIN_WINDOW_NS) {
				sugov_inv_project(j_sgc, &j_sgc->proj_est);
				j_sgc->proj_time = time;
				j_sgc->proj_base = j_sgc->win.time;
			}
			use = &j_sgc->proj_est;
		}

		util = sugov_inv_est_util(use);
		if (util > in->util_inv) {
			in->util_inv = util;
			top = j_sgc;
		}
		in->util_raw = max(in->util_raw, sugov_inv_est_busy(use));
		in->boost = max(in->boost, boost);
	}
	return top;
}

#endif /* _SUGOV_INV_MEASURE_H */
