// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpufreq's emulated machine (emulate=1): a CPU set to f runs f/f_top as
 * fast as at the top frequency f_top, uses the energy of the preset's
 * model, and advances its ACPI CPPC feedback counters while busy.
 *
 * One pinned hard-IRQ hrtimer per CPU stalls the CPU while it is busy
 * (the stall arithmetic is vcpufreq_emu_step() in vcpufreq_energy.h); a
 * sched_switch tracepoint probe integrates time and energy at every idle
 * transition and keeps idle CPUs tickless; CPU hotplug callbacks start and
 * stop the timers.  Documentation/bench.rst, "The emulated machine",
 * describes the mechanism and the model.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#ifdef CONFIG_X86
#include <asm/cpufeature.h>
#endif

#include "compat.h"
#include "vcpufreq.h"

bool vcpufreq_emulate_boost = true;
module_param_named(emulate_boost, vcpufreq_emulate_boost, bool, 0444);
MODULE_PARM_DESC(emulate_boost,
		 "With emulate=1 and boost on: max_P runs at the preset's hidden boost frequency (default 1)");

/*
 * One host thread runs every vCPU (QEMU's -accel tcg,thread=single, and
 * every -icount guest), so guest time is the sum of what all vCPUs
 * executed: a CPU that stalls by spinning takes that time from every
 * other busy CPU, which then counted it as its own work and owed a stall
 * for it in turn.  On two vCPUs at 1500 of 3400 MHz (a stall of 1.27 ns
 * per ns of work) that fed back until every busy CPU stalled 90 % of each
 * period: a job on one CPU, the other waking every 10 ms, took 13.8
 * times as long as at 3400 MHz against the model's 2.27
 * (selftests/17-emulation-one-thread.sh).  With this set, a stall counts
 * only the CPU's own spinning (the clock reads of its loop), and a busy
 * CPU's work leaves out what the others spun meanwhile and a timer's
 * late wait.  Set by the guest scripts (tools/compare/vcpufreq-caps.sh)
 * on a guest of several CPUs whose command line says so (tools/vm/run).
 */
bool vcpufreq_emulate_one_thread;
module_param_named(emulate_one_thread, vcpufreq_emulate_one_thread, bool, 0444);
MODULE_PARM_DESC(emulate_one_thread,
		 "With emulate=1: one host thread runs every vCPU (QEMU thread=single): count stalls in each CPU's own time (default 0)");

unsigned int vcpufreq_emulate_period_us = 1000;
module_param_named(emulate_period_us, vcpufreq_emulate_period_us, uint, 0444);
MODULE_PARM_DESC(emulate_period_us,
		 "With emulate=1: period of the per-CPU stall timer, us, 100..100000 (default 1000)");

const char * const vcpufreq_em_scope_names[] = {
	[VCPUFREQ_EM_SLICE]	= "slice",
	[VCPUFREQ_EM_PACKAGE]	= "package",
};

/*
 * How much of the package the guest pays for (vcpufreq_em_static()):
 * "slice" matches the guest's energy to its share of the package,
 * "package" to a whole machine with a few busy cores, where the uncore
 * and the idle cores dominate.
 */
static char *energy_scope = "slice";
module_param(energy_scope, charp, 0444);
MODULE_PARM_DESC(energy_scope,
		 "With emulate=1: slice (default: the guest is a slice of the package, as many cores as CPUs, with their share of the uncore) or package (its CPUs are some of the package's cores, the others idle, the whole uncore paid)");

static unsigned int package_cores;
module_param(package_cores, uint, 0444);
MODULE_PARM_DESC(package_cores,
		 "With energy_scope=package: the package's cores, the guest's CPUs..1024 (default 0: the preset's, e.g. 64 for epyc-7742; 128 models the two sockets of a 2-socket EPYC 7742)");

/*
 * The guest's ACPI CPPC register page (tools/vm/cppc/mkssdt.py lays it
 * out: VCPUFREQ_CPPC_STRIDE bytes per CPU, the Reference and Delivered
 * Performance Counters at +16 and +24), whose counters the emulation
 * advances while a CPU is busy.
 */
static unsigned long cppc_page;
module_param(cppc_page, ulong, 0444);
MODULE_PARM_DESC(cppc_page,
		 "With emulate=1: physical address of the guest's ACPI CPPC register page, whose feedback counters then advance (default 0: none)");

/* A stall takes at most this share of a period, in tenths. */
#define VCPUFREQ_EMU_BUDGET_TENTHS	9
/*
 * Reads of one unchanged ktime_get_ns() after which a stall stops: with
 * a clocksource that advances only with the tick (refined-jiffies), a
 * spin in hard IRQ would wait for ever, and on the CPU that does the
 * timekeeping, stop every CPU's clock with it (a stock 6.1 guest went
 * silent in 15-emulation and took no SysRq key; cause not found).
 * About half a second of reads under TCG, and no clocksource here holds
 * one value that long.
 */
#define VCPUFREQ_EMU_STILL_READS	BIT(20)

/*
 * Slowest emulated frequency, as a fraction of f_top: with 90 % of each
 * period spent stalling the CPU still does a tenth of its work.
 */
#define VCPUFREQ_EMU_MAX_SLOWDOWN	10

/*
 * With emulate_one_thread, the longest step between two clock reads of a
 * stall's loop that is the loop's own: a longer one is another vCPU that
 * QEMU ran meanwhile (one read takes well under a microsecond of guest
 * time under TCG, with or without instruction counting).
 */
#define VCPUFREQ_EMU_OWN_STEP_NS	(10 * NSEC_PER_USEC)

/**
 * struct vcpufreq_emu_cpu - one CPU of the emulated machine
 * @lock:	protects every field up to @timer.  Raw, taken with IRQs off:
 *		the hrtimer callback (hard IRQ), the sched_switch probe
 *		(runqueue lock held) and ->fast_switch take it.  Remote CPUs
 *		take it to change the frequency or to read the energy.
 * @last_ns:	ktime_get_ns() up to which the fields below are integrated
 * @online:	the CPU is online and integrated; offline CPUs use no energy
 * @busy:	a task other than the idle task runs
 * @stalling:	the timer is spinning: busy time that is not useful work
 * @idx:	table index the CPU is set to
 * @slot:	residency slot of the frequency it runs at (@idx, or the
 *		hidden boost slot)
 * @work:	work done, stall owed and the frequency it runs at
 *		(work.eff_khz): what vcpufreq_energy.h's arithmetic updates
 * @busy_uw:	P_busy(work.eff_khz), uW
 * @energy_nj:	energy used since load, nJ
 * @busy_ns:	busy time since load (useful work and stalls)
 * @idle_ns:	idle time since load
 * @stall_ns:	stall time since load (part of @busy_ns)
 * @slot_ns:	busy time at each residency slot
 * @fires:	timer callbacks since load
 * @entry_ns:	interrupt entry and exit of the timer since load, estimated
 *		as twice the time from expiry to callback: busy, but not
 *		work that is slowed down
 * @cppc_ctrs:	the CPU's ACPI CPPC Reference and Delivered Performance
 *		Counters in the register page, or NULL (cppc_page= not given)
 * @cppc_reference: reference counter: busy time at the nominal frequency
 *		(max_P), in cycles
 * @cppc_delivered: delivered counter: busy time at work.eff_khz, in
 *		cycles
 * @others_spun_ns: with emulate_one_thread, the other CPUs' @spun_ns
 *		summed when @last_ns was integrated
 * @lost_ns:	with emulate_one_thread, busy time left out of the work as
 *		the other CPUs' stalls since the last timer callback
 * @timer:	the stall timer, pinned to the CPU
 * @armed:	@timer is queued; only the CPU itself, with IRQs off, reads
 *		or writes it
 * @kicked:	@timer was started to expire at once on leaving idle with a
 *		stall owed; the same rule as @armed
 * @spun_ns:	with emulate_one_thread, the stalls this CPU spun since
 *		load, in its own time.  Not under @lock: written by the CPU
 *		itself only, during its stall, read by the others with
 *		READ_ONCE() (a 64-bit load, as the CPPC counters' writeq());
 *		it only grows, so a reader's sum never goes back.
 */
struct vcpufreq_emu_cpu {
	raw_spinlock_t lock;
	u64 last_ns;
	bool online;
	bool busy;
	bool stalling;
	unsigned int idx;
	unsigned int slot;
	struct vcpufreq_emu_work work;
	u32 busy_uw;
	u64 energy_nj;
	u64 busy_ns;
	u64 idle_ns;
	u64 stall_ns;
	u64 slot_ns[VCPUFREQ_EMU_SLOTS];
	u64 fires;
	u64 entry_ns;
	void __iomem *cppc_ctrs;
	u64 cppc_reference;
	u64 cppc_delivered;
	u64 others_spun_ns;
	u64 lost_ns;
	struct hrtimer timer;
	bool armed;
	bool kicked;
	u64 spun_ns;
};

static DEFINE_PER_CPU(struct vcpufreq_emu_cpu, vcpufreq_emu);

/* Set by vcpufreq_emu_check() at load, then read-only. */
struct vcpufreq_machine vcpufreq_machine;

static u64 vcpufreq_emu_t0_ns;	/* ktime_get_ns() at load: uncore origin */
static enum cpuhp_state vcpufreq_emu_hp;
static struct tracepoint *vcpufreq_tp_switch;

/* Layout of mkssdt.py's register page, per CPU */
#define VCPUFREQ_CPPC_STRIDE		64
#define VCPUFREQ_CPPC_REF_CTR_OFF	16
#define VCPUFREQ_CPPC_DEL_CTR_OFF	24

static void __iomem *vcpufreq_cppc_regs;

/*
 * ACPI CPPC feedback counters (ACPI 6.5 section 8.4.6.1.2.2): both count
 * only while the CPU is active, the reference one at the reference level
 * (the nominal frequency: mkssdt.py sets ReferencePerformance to
 * NominalPerformance), the delivered one at the frequency the CPU runs at,
 * boost included, as the hardware's counters would.  A stall is busy
 * time at the CPU's frequency, like any other.
 */
static void vcpufreq_cppc_advance(struct vcpufreq_emu_cpu *ec, u64 delta_ns)
{
	lockdep_assert_held(&ec->lock);
	ec->cppc_reference += div_u64(delta_ns * vcpufreq_table.max_p_khz,
				      USEC_PER_SEC);
	ec->cppc_delivered += div_u64(delta_ns * ec->work.eff_khz,
				      USEC_PER_SEC);
	writeq(ec->cppc_reference, ec->cppc_ctrs + VCPUFREQ_CPPC_REF_CTR_OFF);
	writeq(ec->cppc_delivered, ec->cppc_ctrs + VCPUFREQ_CPPC_DEL_CTR_OFF);
}

/* With emulate_one_thread: what every CPU but @ec spun since load, ns */
static u64 vcpufreq_emu_others_spun(const struct vcpufreq_emu_cpu *ec)
{
	const struct vcpufreq_emu_cpu *other;
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu) {
		other = per_cpu_ptr(&vcpufreq_emu, cpu);
		if (other != ec)
			sum += READ_ONCE(other->spun_ns);
	}
	return sum;
}

/*
 * Bring @ec's integrals up to @now at its present state.  @now may be a
 * little behind @ec->last_ns when two CPUs read the clock in turn: never
 * go back.
 *
 * Every time here is ktime_get_ns(), not local_clock(): where
 * sched_clock is unstable (a TCG guest has no constant_tsc), local_clock()
 * never runs more than a tick past the last tick's time, so in a hard IRQ
 * that holds the tick off, a spin on it can wait for ever; and it differs
 * between CPUs, which remote readers would see.
 *
 * With emulate_one_thread, busy time during which other CPUs spun their
 * stalls is not this CPU's work (one host thread ran them instead): it
 * goes to @ec->lost_ns.
 */
static void vcpufreq_emu_account(struct vcpufreq_emu_cpu *ec, u64 now)
{
	u64 delta, others, lost = 0;

	lockdep_assert_held(&ec->lock);
	if (now <= ec->last_ns)
		return;
	delta = now - ec->last_ns;
	ec->last_ns = now;
	if (vcpufreq_emulate_one_thread) {
		others = vcpufreq_emu_others_spun(ec);
		lost = others - ec->others_spun_ns;
		ec->others_spun_ns = others;
	}
	if (!ec->online)
		return;

	if (ec->busy) {
		ec->busy_ns += delta;
		ec->slot_ns[ec->slot] += delta;
		ec->energy_nj += vcpufreq_em_nj(delta, ec->busy_uw);
		if (ec->stalling) {
			ec->stall_ns += delta;
		} else {
			lost = min(delta, lost);
			ec->work.useful_ns += delta - lost;
			ec->lost_ns += lost;
		}
		if (ec->cppc_ctrs)
			vcpufreq_cppc_advance(ec, delta);
	} else {
		ec->idle_ns += delta;
		ec->energy_nj += vcpufreq_em_nj(delta, vcpufreq_em->idle_uw);
	}
}

/* The slot table entry @idx runs at, boost being @boost_on. */
static unsigned int vcpufreq_emu_slot(unsigned int idx, bool boost_on)
{
	if (boost_on && vcpufreq_machine.boost_khz &&
	    idx == vcpufreq_table.max_p_idx)
		return VCPUFREQ_EMU_BOOST_SLOT;
	return idx;
}

/**
 * vcpufreq_emu_set() - change the frequency an emulated CPU runs at
 * @cpu:	the CPU
 * @idx:	table entry it is set to, or -1 for the entry it is at
 * @boost_on:	cpufreq's boost switch: max_P runs at the hidden boost
 *
 * Integrates @cpu up to now at the old frequency first, and settles the
 * work done at it (vcpufreq_emu_retune()).
 *
 * Context: any; takes the CPU's raw lock with IRQs saved.
 */
void vcpufreq_emu_set(unsigned int cpu, int idx, bool boost_on)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);
	unsigned long flags;
	unsigned int slot;

	raw_spin_lock_irqsave(&ec->lock, flags);
	vcpufreq_emu_account(ec, ktime_get_ns());
	if (idx >= 0)
		ec->idx = idx;
	slot = vcpufreq_emu_slot(ec->idx, boost_on);
	ec->slot = slot;
	vcpufreq_emu_retune(&ec->work, vcpufreq_machine.slot_khz[slot],
			    vcpufreq_machine.top_khz);
	ec->busy_uw = vcpufreq_machine.slot_uw[slot];
	raw_spin_unlock_irqrestore(&ec->lock, flags);
}

/*
 * The stall timer.  Work done since the last call, at eff_khz, owes
 * (f_top / eff - 1) of its time in stall; spin that off (up to 90 % of a
 * period) in hard-IRQ context, where the interrupted task can neither run
 * nor be migrated, and which Debian's 6.1 (no IRQ_TIME_ACCOUNTING) counts
 * as the task's own busy time.
 */
static enum hrtimer_restart vcpufreq_emu_timer(struct hrtimer *timer)
{
	struct vcpufreq_emu_cpu *ec = container_of(timer,
						   struct vcpufreq_emu_cpu,
						   timer);
	struct vcpufreq_emu_fire fire;
	u64 start, now, last, spin, spun = 0, entry, expires_ns, wait;
	unsigned int still = 0;

	raw_spin_lock(&ec->lock);
	ec->fires++;
	/* An idle CPU stays tickless: the probe re-arms on the way out. */
	if (!ec->online || is_idle_task(current)) {
		raw_spin_unlock(&ec->lock);
		ec->armed = false;
		return HRTIMER_NORESTART;
	}
	start = ktime_get_ns();
	vcpufreq_emu_account(ec, start);
	/*
	 * The interrupt's own entry and exit are not work to slow down:
	 * counted as work, they made every stall too long by ~2 % of a 1 ms
	 * period per (f_top/f - 1) in a TCG guest (vcpufreq_emu_entry_ns()).
	 */
	expires_ns = ktime_to_ns(hrtimer_get_expires(timer));
	fire.late_ns = start > expires_ns ? start - expires_ns : 0;
	fire.kicked = ec->kicked;
	/*
	 * With one host thread, a periodic callback later than an interrupt
	 * entry takes (and than the other CPUs' stalls since the last
	 * callback, left out already) is mostly a CPU that QEMU did not run
	 * meanwhile: its task was runnable but did no work.  A kernel thread
	 * woken on a CPU while another CPU ran a job counted 31 ms as work
	 * for 0.3 ms done, and owed a stall that slowed the job.  It may
	 * also be an IRQs-off section of the CPU's own, real work this
	 * leaves out; rare and short in these guests.  The entry is then
	 * taken as the estimate, which the wait must not move.
	 */
	if (vcpufreq_emulate_one_thread && !fire.kicked) {
		wait = fire.late_ns - min(fire.late_ns, ec->lost_ns);
		if (wait > VCPUFREQ_EMU_MAX_ENTRY_NS) {
			ec->work.useful_ns -= min(ec->work.useful_ns, wait);
			fire.late_ns = ec->work.entry_est_ns / 2;
		}
	}
	ec->lost_ns = 0;
	fire.top_khz = vcpufreq_machine.top_khz;
	fire.budget_ns = div_u64(vcpufreq_machine.period_ns *
				 VCPUFREQ_EMU_BUDGET_TENTHS, 10);
	ec->kicked = false;
	spin = vcpufreq_emu_step(&ec->work, &fire, &entry);
	ec->entry_ns += entry;
	ec->stalling = spin != 0;
	raw_spin_unlock(&ec->lock);

	if (spin) {
		/*
		 * No cpu_relax(): under TCG, PAUSE ends the vCPU's time slice
		 * and hands the host thread to another vCPU, which would make
		 * the stall cost this CPU nothing.
		 */
		last = start;
		do {
			now = ktime_get_ns();
			if (now != last) {
				if (!vcpufreq_emulate_one_thread) {
					spun = now - start;
				} else if (now - last <= VCPUFREQ_EMU_OWN_STEP_NS) {
					spun += now - last;
					/* The others' accounting leaves it out */
					WRITE_ONCE(ec->spun_ns,
						   ec->spun_ns + now - last);
				}
				last = now;
				still = 0;
			} else if (++still > VCPUFREQ_EMU_STILL_READS) {
				pr_warn_once("cpu%d: clock stood still in a stall (clocksource ticks with jiffies?): stall cut short\n",
					     smp_processor_id());
				break;
			}
			/*
			 * Own time counts only steps of the loop: a clock
			 * that moves in ticks would never end the stall.
			 */
			if (now - start > VCPUFREQ_EMU_MAX_SLOWDOWN * spin) {
				pr_warn_once("cpu%d: a stall's own time did not reach %llu ns in %llu ns (clock steps over %lu ns?): stall cut short\n",
					     smp_processor_id(), spin, now - start,
					     VCPUFREQ_EMU_OWN_STEP_NS);
				break;
			}
		} while (spun < spin);

		raw_spin_lock(&ec->lock);
		vcpufreq_emu_account(ec, now);
		ec->stalling = false;
		vcpufreq_emu_paid(&ec->work, spun);
		raw_spin_unlock(&ec->lock);
	}

	hrtimer_forward_now(timer, ns_to_ktime(vcpufreq_machine.period_ns));
	return HRTIMER_RESTART;
}

/*
 * sched_switch probe: integrate at every idle transition, stop the timer
 * when the CPU goes idle and start it when it leaves idle, right away if
 * the last busy spell left a debt (a spell shorter than a period would
 * otherwise never stall).  Runs on the switching CPU, runqueue lock held,
 * IRQs off; hrtick starts its hrtimer from the same place.
 */
static void vcpufreq_emu_switch(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	struct vcpufreq_emu_cpu *ec = this_cpu_ptr(&vcpufreq_emu);
	bool to_idle = is_idle_task(next);
	bool owed;

	if (is_idle_task(prev) == to_idle)
		return;

	raw_spin_lock(&ec->lock);
	if (!ec->online) {
		raw_spin_unlock(&ec->lock);
		return;
	}
	vcpufreq_emu_account(ec, ktime_get_ns());
	ec->busy = !to_idle;
	owed = ec->work.debt_ns || ec->work.useful_ns;
	raw_spin_unlock(&ec->lock);

	if (to_idle) {
		/* A pinned timer's callback cannot run now on this CPU. */
		if (ec->armed && hrtimer_try_to_cancel(&ec->timer) >= 0)
			ec->armed = false;
	} else if (!ec->armed) {
		hrtimer_start(&ec->timer,
			      owed ? 0 :
			      ns_to_ktime(vcpufreq_machine.period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
		ec->armed = true;
		ec->kicked = owed;
	}
}

/* CPU hotplug, on the CPU itself (CPUHP_AP_ONLINE_DYN): start integrating. */
static int vcpufreq_emu_online(unsigned int cpu)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);

	raw_spin_lock_irq(&ec->lock);
	ec->last_ns = ktime_get_ns();
	if (vcpufreq_emulate_one_thread)
		ec->others_spun_ns = vcpufreq_emu_others_spun(ec);
	ec->lost_ns = 0;
	ec->online = true;
	/* The hotplug thread runs: busy. */
	ec->busy = true;
	ec->stalling = false;
	ec->work.useful_ns = 0;
	ec->work.debt_ns = 0;
	if (!ec->armed) {
		hrtimer_start(&ec->timer,
			      ns_to_ktime(vcpufreq_machine.period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
		ec->armed = true;
		ec->kicked = false;
	}
	raw_spin_unlock_irq(&ec->lock);
	return 0;
}

/*
 * Before the CPU goes (or at unload): stop the timer, which hotplug would
 * otherwise migrate to another CPU, and stop integrating.
 */
static int vcpufreq_emu_offline(unsigned int cpu)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);

	raw_spin_lock_irq(&ec->lock);
	vcpufreq_emu_account(ec, ktime_get_ns());
	ec->online = false;
	ec->armed = false;
	raw_spin_unlock_irq(&ec->lock);
	/* The callback sees !online and does not re-arm; wait for it. */
	hrtimer_cancel(&ec->timer);
	return 0;
}

/*
 * The parts emulated here have constant TSCs, and so has the guest in
 * fact (its TSC follows the host's clock, not the requested frequency),
 * but a TCG guest CPU of AMD's vendor cannot say so (QEMU's TCG offers no
 * CPUID invtsc bit), so x86 registers time_cpufreq_notifier
 * (arch/x86/kernel/tsc.c) for it.  On one online CPU that rescales the
 * TSC's cycles-to-ns factor, and with it sched_clock, by f_ref / f at
 * every frequency change, as a TSC that slowed with the clock would need:
 * at 1500 MHz after 2250 MHz the scheduler's clock ran 1.5 times too
 * fast, and every time slice, vruntime and PELT period with it.  On
 * several CPUs it marks the TSC unstable.  A notifier ahead of it stops
 * the chain (the cpufreq core itself updates policy->cur, the statistics
 * and the tracepoint outside the chain).  Registered only where the TSC
 * notifier is, which has already ruled out fast switching.
 */
#ifdef CONFIG_X86
static int vcpufreq_emu_tsc_notifier(struct notifier_block *nb,
				     unsigned long val, void *data)
{
	return NOTIFY_STOP;
}

static struct notifier_block vcpufreq_emu_tsc_nb = {
	.notifier_call	= vcpufreq_emu_tsc_notifier,
	.priority	= INT_MAX,
};

static bool vcpufreq_emu_tsc_nb_registered;

static int vcpufreq_emu_tsc_hide(void)
{
	int ret;

	if (!boot_cpu_has(X86_FEATURE_TSC) ||
	    boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		return 0;
	ret = cpufreq_register_notifier(&vcpufreq_emu_tsc_nb,
					CPUFREQ_TRANSITION_NOTIFIER);
	if (ret) {
		pr_err("emulate=1: transition notifier: %d\n", ret);
		return ret;
	}
	vcpufreq_emu_tsc_nb_registered = true;
	return 0;
}

static void vcpufreq_emu_tsc_unhide(void)
{
	if (vcpufreq_emu_tsc_nb_registered)
		cpufreq_unregister_notifier(&vcpufreq_emu_tsc_nb,
					    CPUFREQ_TRANSITION_NOTIFIER);
	vcpufreq_emu_tsc_nb_registered = false;
}
#else
static int vcpufreq_emu_tsc_hide(void)
{
	return 0;
}

static void vcpufreq_emu_tsc_unhide(void)
{
}
#endif

static void vcpufreq_emu_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		*(struct tracepoint **)priv = tp;
}

/**
 * vcpufreq_emu_package_of() - the package energy, given its CPUs' part
 * @pkg:	set to the total and its uncore and idle-core parts, nJ
 * @cpus_nj:	the emulated CPUs' energy since load, nJ
 * @now_ns:	CLOCK_MONOTONIC time the uncore and idle cores run to
 *
 * The uncore and the package's other cores (energy_scope=package) use
 * constant power since load.  A reader that also shows each CPU passes
 * the sum of the CPUs it read, so that the parts it shows add up to the
 * total it shows.
 *
 * Context: any.
 */
void vcpufreq_emu_package_of(struct vcpufreq_emu_package *pkg, u64 cpus_nj,
			     u64 now_ns)
{
	pkg->uncore_nj = vcpufreq_em_nj(now_ns - vcpufreq_emu_t0_ns,
					vcpufreq_machine.uncore_uw);
	pkg->idle_cores_nj = vcpufreq_em_nj(now_ns - vcpufreq_emu_t0_ns,
					    vcpufreq_machine.idle_cores_uw);
	pkg->total_nj = cpus_nj + pkg->uncore_nj + pkg->idle_cores_nj;
}

/**
 * vcpufreq_emu_package() - the package energy since load
 * @pkg:	set to the total and its uncore and idle-core parts, nJ
 *
 * Every CPU is integrated up to now first.
 *
 * Context: any; takes each CPU's raw lock with IRQs saved.
 */
void vcpufreq_emu_package(struct vcpufreq_emu_package *pkg)
{
	u64 now = ktime_get_ns(), total = 0;
	struct vcpufreq_emu_cpu *ec;
	unsigned long flags;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		ec = per_cpu_ptr(&vcpufreq_emu, cpu);
		raw_spin_lock_irqsave(&ec->lock, flags);
		vcpufreq_emu_account(ec, now);
		total += ec->energy_nj;
		raw_spin_unlock_irqrestore(&ec->lock, flags);
	}
	vcpufreq_emu_package_of(pkg, total, now);
}

/**
 * vcpufreq_emu_read() - one emulated CPU's integrals, up to now
 * @cpu:	the CPU
 * @snap:	filled with its frequency, energy, times and residency
 *
 * Context: process context; takes the CPU's raw lock with IRQs off.
 */
void vcpufreq_emu_read(unsigned int cpu, struct vcpufreq_emu_snap *snap)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);
	u64 now = ktime_get_ns();

	raw_spin_lock_irq(&ec->lock);
	vcpufreq_emu_account(ec, now);
	snap->eff_khz = ec->work.eff_khz;
	snap->energy_nj = ec->energy_nj;
	snap->busy_ns = ec->busy_ns;
	snap->idle_ns = ec->idle_ns;
	snap->stall_ns = ec->stall_ns;
	snap->fires = ec->fires;
	snap->entry_ns = ec->entry_ns;
	snap->debt_ns = ec->work.debt_ns;
	memcpy(snap->slot_ns, ec->slot_ns, sizeof(snap->slot_ns));
	raw_spin_unlock_irq(&ec->lock);
}

/* cppc_page= needs emulate=1, page alignment and room for every CPU. */
static int vcpufreq_cppc_check(void)
{
	if (!cppc_page)
		return 0;
	if (!vcpufreq_emulate) {
		pr_err("cppc_page= needs emulate=1: only the emulation advances the counters\n");
		return -EINVAL;
	}
	if (!PAGE_ALIGNED(cppc_page) ||
	    nr_cpu_ids * VCPUFREQ_CPPC_STRIDE > PAGE_SIZE) {
		pr_err("cppc_page=%#lx: not page aligned, or too many CPUs for one page\n",
		       cppc_page);
		return -EINVAL;
	}
	return 0;
}

/*
 * energy_scope= and package_cores=, and the power the guest pays beside
 * its CPUs.  One log line on bad input.
 */
static int vcpufreq_em_scope_check(void)
{
	struct vcpufreq_em_static_in in = {
		.model = vcpufreq_em, .nr_cpus = num_possible_cpus(),
	};
	struct vcpufreq_machine *mc = &vcpufreq_machine;
	struct vcpufreq_em_static_out out;
	int scope;

	scope = match_string(vcpufreq_em_scope_names, VCPUFREQ_EM_SCOPE_NR,
			     energy_scope);
	if (scope < 0) {
		pr_err("energy_scope=%s is unknown: use slice or package\n",
		       energy_scope ? energy_scope : "");
		return -EINVAL;
	}
	if (package_cores && scope != VCPUFREQ_EM_PACKAGE) {
		pr_err("package_cores= needs energy_scope=package\n");
		return -EINVAL;
	}
	if (scope != VCPUFREQ_EM_SLICE && !vcpufreq_emulate) {
		pr_err("energy_scope=%s needs emulate=1\n", energy_scope);
		return -EINVAL;
	}
	in.scope = scope;
	in.package_cores = package_cores ? package_cores : vcpufreq_em_cores;
	if (vcpufreq_emulate && vcpufreq_em_static(&in, &out)) {
		pr_err("package_cores=%u: the package needs %u..%u cores, and at most %u W besides its busy CPUs\n",
		       in.package_cores, in.nr_cpus, VCPUFREQ_EM_MAX_CORES,
		       U32_MAX / 1000000);
		return -ERANGE;
	}
	mc->scope = scope;
	mc->package_cores = scope == VCPUFREQ_EM_PACKAGE ? in.package_cores : 0;
	mc->uncore_uw = out.uncore_uw;
	mc->idle_cores = out.idle_cores;
	mc->idle_cores_uw = out.idle_cores_uw;
	return 0;
}

/**
 * vcpufreq_emu_check() - check the emulation's parameters, fill the machine
 *
 * Description: Fills vcpufreq_machine from the table in effect and the energy
 * model; touches nothing else, so a failed load has nothing to undo.  Called
 * whatever emulate= is, to refuse cppc_page= without it.
 *
 * Context: process context, module init, after the table is set up.
 * Return: 0; -ERANGE for a period out of range, a table slower than
 * f_top / VCPUFREQ_EMU_MAX_SLOWDOWN or a package_cores= out of range,
 * -EINVAL for a bad cppc_page= or energy_scope=, each with one log line.
 */
int vcpufreq_emu_check(void)
{
	struct vcpufreq_machine *mc = &vcpufreq_machine;
	const struct vcpufreq_table *t = &vcpufreq_table;
	struct vcpufreq_em_in in = { .model = vcpufreq_em };
	unsigned int i, min_khz = UINT_MAX;
	struct vcpufreq_em_out out;
	int ret;

	ret = vcpufreq_cppc_check();
	if (!ret)
		ret = vcpufreq_em_scope_check();
	if (ret || !vcpufreq_emulate)
		return ret;
	if (vcpufreq_emulate_period_us < 100 ||
	    vcpufreq_emulate_period_us > 100000) {
		pr_err("emulate_period_us=%u is out of range 100..100000\n",
		       vcpufreq_emulate_period_us);
		return -ERANGE;
	}

	/* Boost entries only count where cpufreq can switch boost on. */
	mc->top_khz = t->max_p_khz;
	if (vcpufreq_boost && t->max_boost_khz)
		mc->top_khz = t->max_boost_khz;
	mc->boost_khz = 0;
	if (vcpufreq_boost && vcpufreq_emulate_boost && vcpufreq_preset &&
	    vcpufreq_preset->hidden_boost_khz > t->max_p_khz)
		mc->boost_khz = vcpufreq_preset->hidden_boost_khz;
	mc->top_khz = max(mc->top_khz, mc->boost_khz);

	for (i = 0; i < t->nr; i++) {
		mc->slot_khz[i] = t->entries[i].frequency;
		min_khz = min(min_khz, mc->slot_khz[i]);
	}
	mc->slot_khz[VCPUFREQ_EMU_BOOST_SLOT] = mc->boost_khz;
	if ((u64)min_khz * VCPUFREQ_EMU_MAX_SLOWDOWN < mc->top_khz) {
		pr_err("emulate=1: %u kHz is more than %u times slower than the top %u kHz\n",
		       min_khz, VCPUFREQ_EMU_MAX_SLOWDOWN, mc->top_khz);
		return -ERANGE;
	}
	for (i = 0; i < VCPUFREQ_EMU_SLOTS; i++) {
		if (!mc->slot_khz[i])
			continue;
		in.khz = mc->slot_khz[i];
		vcpufreq_em_busy(&in, &out);
		mc->slot_uw[i] = out.busy_uw;
	}
	mc->period_ns = (u64)vcpufreq_emulate_period_us * NSEC_PER_USEC;
	return 0;
}

/*
 * Map cppc_page=, where the guest's ACPI tables put the counters.  Not
 * memremap(): the kernel's cppc_acpi ioremap()s the same registers, and
 * two mappings of one page must agree on the (uncached) memory type.
 */
static int vcpufreq_cppc_map(void)
{
	if (!cppc_page)
		return 0;
	vcpufreq_cppc_regs = ioremap(cppc_page, PAGE_SIZE);
	if (!vcpufreq_cppc_regs) {
		pr_err("cppc_page=%#lx: cannot map it (RAM? boot with memmap=4K$addr)\n",
		       cppc_page);
		return -EINVAL;
	}
	return 0;
}

static void vcpufreq_cppc_unmap(void)
{
	if (vcpufreq_cppc_regs)
		iounmap(vcpufreq_cppc_regs);
	vcpufreq_cppc_regs = NULL;
}

/* Every CPU at max_P, as vcpufreq_cpu_init() sets it, counters at 1. */
static void vcpufreq_emu_init_cpus(void)
{
	bool boost_on = vcpufreq_boost;	/* the core's state at registration */
	struct vcpufreq_emu_cpu *ec;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		ec = per_cpu_ptr(&vcpufreq_emu, cpu);
		memset(ec, 0, sizeof(*ec));
		raw_spin_lock_init(&ec->lock);
		hrtimer_setup(&ec->timer, vcpufreq_emu_timer, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_HARD);
		if (vcpufreq_cppc_regs) {
			/* 6.1 refuses counters that read 0: start at 1 */
			ec->cppc_ctrs = vcpufreq_cppc_regs +
					cpu * VCPUFREQ_CPPC_STRIDE;
			ec->cppc_reference = 1;
			ec->cppc_delivered = 1;
			writeq(1, ec->cppc_ctrs + VCPUFREQ_CPPC_REF_CTR_OFF);
			writeq(1, ec->cppc_ctrs + VCPUFREQ_CPPC_DEL_CTR_OFF);
		}
		vcpufreq_emu_set(cpu, vcpufreq_table.max_p_idx, boost_on);
	}
	vcpufreq_emu_t0_ns = ktime_get_ns();
}

/**
 * vcpufreq_emu_start() - start the emulated machine
 *
 * Description: Maps the CPPC page, sets every CPU at max_P, then takes idle
 * transitions from the sched_switch tracepoint, starts the timers from
 * the hotplug callbacks and keeps x86's TSC code from rescaling the
 * scheduler's clock.  The emulated CPUs exist before the driver registers
 * and sets the first frequency.
 *
 * Context: process context, module init, after vcpufreq_emu_check().
 * Return: 0, or a negative errno with nothing left running or mapped.
 */
int vcpufreq_emu_start(void)
{
	int ret;

	ret = vcpufreq_cppc_map();
	if (ret)
		return ret;
	vcpufreq_emu_init_cpus();

	for_each_kernel_tracepoint(vcpufreq_emu_find_tp, &vcpufreq_tp_switch);
	if (!vcpufreq_tp_switch) {
		pr_err("emulate=1: no sched_switch tracepoint\n");
		ret = -ENODEV;
		goto err_unmap;
	}
	ret = tracepoint_probe_register(vcpufreq_tp_switch,
					vcpufreq_emu_switch, NULL);
	if (ret) {
		pr_err("emulate=1: sched_switch probe: %d\n", ret);
		goto err_unmap;
	}

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "cpufreq/vcpufreq:emu",
				vcpufreq_emu_online, vcpufreq_emu_offline);
	if (ret < 0) {
		pr_err("emulate=1: hotplug state: %d\n", ret);
		goto err_probe;
	}
	vcpufreq_emu_hp = ret;

	ret = vcpufreq_emu_tsc_hide();
	if (ret)
		goto err_hotplug;
	return 0;

err_hotplug:
	cpuhp_remove_state(vcpufreq_emu_hp);
err_probe:
	tracepoint_probe_unregister(vcpufreq_tp_switch, vcpufreq_emu_switch,
				    NULL);
	tracepoint_synchronize_unregister();
err_unmap:
	vcpufreq_cppc_unmap();
	return ret;
}

/**
 * vcpufreq_emu_stop() - stop every timer and the probe, unmap the counters
 *
 * Description: Nothing of the emulation runs once this returns.
 *
 * Context: process context, after the driver is unregistered.
 */
void vcpufreq_emu_stop(void)
{
	vcpufreq_emu_tsc_unhide();
	/* The offline callback, on each CPU, cancels its timer. */
	cpuhp_remove_state(vcpufreq_emu_hp);
	tracepoint_probe_unregister(vcpufreq_tp_switch, vcpufreq_emu_switch,
				    NULL);
	/* Waits for a probe still running on another CPU. */
	tracepoint_synchronize_unregister();
	/* No timer or probe writes the counters any more */
	vcpufreq_cppc_unmap();
}
