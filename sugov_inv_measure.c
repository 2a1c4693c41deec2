// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: measuring each CPU's utilization.  A CPU closes a window of
 * its own from its idle clock and the frequency it delivered, and folds
 * it into its PELT-like estimate (sugov_inv_est.h); another CPU of a
 * shared policy projects a stale CPU's estimate from that CPU's idle
 * clock.  The scheduler's PELT util is not exported to modules on 6.1,
 * so this is where the governor's util comes from.
 *
 * The functions here are called out of line from the hooks
 * (sugov_inv_gov.c), and only once a window is due: inlined, their stack
 * frame (caps, saved registers, the stack protector) would make every
 * hook call pay for them, the rate-limited return included.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel_stat.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/tick.h>

#include "sugov_inv_measure.h"

/*
 * Read @cpu's idle clock: idle + iowait time and the wall clock, both in
 * us.  I/O wait counts as idle: the CPU runs nothing, exactly as PELT sees
 * it.
 *
 * The local CPU in its hook (@local) takes the wall clock from the idle
 * time's own ktime_get() (a non-NULL last_update_time): one clock read
 * less, and wall and idle from the same instant.  That call also folds a
 * running idle period into the statistics, which only the CPU itself may
 * do: on 6.1 it does so without any protection.  Another CPU of a shared
 * policy (sugov_inv_project()) reads with a NULL last_update_time, as
 * /proc/stat does, and the wall clock separately.
 *
 * With NOHZ inactive (nohz=off) get_cpu_idle_time_us() returns -1; then
 * get_cpu_idle_time() answers from the tick's cputime accounting
 * (kcpustat, no vtime without NOHZ), with wall and idle in jiffy
 * resolution: busy fractions are then coarse (one tick = 4 ms at HZ=250)
 * but unbiased, and the util average smooths them.
 */
static void sugov_inv_read_idle(unsigned int cpu, bool local, u64 *wall_us,
				u64 *idle_us)
{
	u64 idle = get_cpu_idle_time_us(cpu, local ? wall_us : NULL);

	if (likely(idle != -1ULL)) {
		*idle_us = idle + get_cpu_iowait_time_us(cpu, NULL);
		if (!local)
			*wall_us = ktime_to_us(ktime_get());
		return;
	}
	*idle_us = get_cpu_idle_time(cpu, wall_us, 0);
}

/**
 * sugov_inv_measure() - close the local CPU's current window
 * @sgc: the local CPU's state
 * @time: hook time (rq clock, ns)
 * @win: the previous window (sgc->win itself, or on a shared policy a
 *	copy made outside update_lock); the new one on return
 *
 * Reads the local CPU's idle clock, delivered frequency and caps, and
 * folds the window into the estimate in @win.  Touches nothing another
 * CPU reads: the caller publishes @win (sugov_inv_publish()).
 *
 * Context: the local CPU's update_util hook (rq lock held, IRQs off).
 * Return: true when a window was measured, false when this was the first
 * snapshot.
 */
bool sugov_inv_measure(struct sugov_inv_cpu *sgc, u64 time,
		       struct sugov_inv_window *win)
{
	struct sugov_inv_policy_data *sgp = sgc->sgp;
	struct cpufreq_policy *policy = sgp->policy;
	unsigned int pm_seq = READ_ONCE(sugov_inv_pm_seq);
	struct sugov_inv_wake_window fold;
	u64 wall_us, idle_us, halflife_ns;
	enum freq_inv_deliv_source src;
	u32 khz;

	sugov_inv_read_idle(sgc->cpu, true, &wall_us, &idle_us);

	if (!sgc->sampled || unlikely(win->pm_seq != pm_seq)) {
		win->pm_seq = pm_seq;
		sgc->sample.cpu = sgc->cpu;
		freq_inv_sample_prepare(&sgc->sample);
		sugov_inv_get_caps(sgc->cpu, policy, &win->caps);
		win->time = time;
		win->wall_us = wall_us;
		win->idle_us = idle_us;
		return false;
	}

	/*
	 * Average delivered frequency while busy; it also re-arms the
	 * counters for the next window.  No answer at all (no policy seen
	 * by freq_invariance): the current frequency is the best guess.
	 */
	if (freq_inv_delivered_khz(&sgc->sample, &khz, &src) || !khz) {
		khz = READ_ONCE(policy->cur);
		src = FREQ_INV_DELIV_CPUFREQ;
	}
	win->deliv_khz = khz;
	win->deliv_counted = src == FREQ_INV_DELIV_APERFMPERF;

	sugov_inv_get_caps(sgc->cpu, policy, &win->caps);
	halflife_ns = (u64)SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC;

	/*
	 * The first window after a fresh start sets the estimate to what it
	 * measured (a zero half-life keeps no memory): blending it into an
	 * estimate of 0 would ask for the policy minimum, and a CPU that was
	 * busy at the top would drop and take a few half-lives to climb back.
	 * schedutil keeps PELT util across a start; this is the nearest a
	 * governor measuring its own util gets.
	 */
	if (!sgc->measured)
		halflife_ns = 0;

	/*
	 * A clock read out of order (idle ahead of wall) gives busy 0.  Work
	 * that arrives on an idle CPU: the estimate a long idle stretch began
	 * with is remembered and given back once the CPU has run a tick.
	 */
	fold = (struct sugov_inv_wake_window){
		.now_ns = time,
		.wall_us = sugov_inv_since(wall_us, win->wall_us),
		.idle_us = sugov_inv_since(idle_us, win->idle_us),
		.deliv_khz = khz,
		.ref_khz = win->caps.reference_khz,
		.halflife_ns = halflife_ns,
		.restore_us = READ_ONCE(sgp->tunables->idle_restore_us),
		.guard_ns = TICK_NSEC,
	};
	sugov_inv_wake_fold(&sgc->wake, &win->est, &fold);

	sgc->samples_since_eval++;
	if (idle_us != win->idle_us)
		sgc->idled_since_eval = true;
	sugov_inv_stat_inc(&sgc->stats.samples);

	win->time = time;
	win->wall_us = wall_us;
	win->idle_us = idle_us;
	return true;
}

/**
 * sugov_inv_project() - bring a stale CPU's estimate up to date
 * @j_sgc: a CPU of a shared policy that has not closed a window for a while
 *	(sugov_inv_gather_shared() says when)
 * @est: the projected estimate (the CPU's own state is left to the CPU)
 *
 * The time since the CPU's last window is folded in as a window of its
 * own, with the idle time its idle clock shows (sugov_inv_read_idle(), the
 * same clock and the same nohz=off fallback its own windows use).  A CPU
 * idle all along then decays as PELT's blocked util does, one that ran all
 * along (a tickless or host-starved CPU) keeps its util.
 *
 * The common case, a CPU idle since its last window (to within 1/64 of
 * the stretch: the reads are a few us apart, and the window closed a
 * little before the idle period began), costs one decay step
 * (sugov_inv_est_decay(): no frequency divisions, no caps).  Anything
 * else takes the full update, with the CPU's caps read now.  A reading
 * that went backwards counts as no idle; a CPU that never sampled has
 * nothing to project.
 *
 * Context: the evaluating CPU's hook, the policy's update_lock held.
 */
void sugov_inv_project(struct sugov_inv_cpu *j_sgc, struct sugov_inv_est *est)
{
	struct sugov_inv_policy_data *sgp = j_sgc->sgp;
	const struct sugov_inv_window *win = &j_sgc->win;
	u64 idle_us, wall_us, halflife_ns;
	struct freq_inv_caps caps;

	lockdep_assert_held(&sgp->update_lock);

	*est = win->est;
	/* Nothing to project from, or only across a system sleep */
	if (!j_sgc->sampled || win->pm_seq != READ_ONCE(sugov_inv_pm_seq))
		return;

	halflife_ns = (u64)SUGOV_INV_HALFLIFE_MS * NSEC_PER_MSEC;
	sugov_inv_read_idle(j_sgc->cpu, false, &wall_us, &idle_us);
	wall_us = sugov_inv_since(wall_us, win->wall_us);
	idle_us = sugov_inv_since(idle_us, win->idle_us);

	if (idle_us >= wall_us - (wall_us >> 6)) {
		sugov_inv_est_decay(est, wall_us * NSEC_PER_USEC, halflife_ns);
		return;
	}

	sugov_inv_get_caps(j_sgc->cpu, sgp->policy, &caps);
	sugov_inv_est_update(est, wall_us, idle_us,
			     win->deliv_khz ?: READ_ONCE(sgp->policy->cur),
			     caps.reference_khz, halflife_ns);
}
