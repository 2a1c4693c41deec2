// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpufreq: a test-only cpufreq driver that gives a CPU without one (a QEMU
 * guest) the P-state table of a real CPU, and records every frequency the
 * cpufreq core and its governors ask it for.  This file is the driver
 * itself: its parameters, its cpufreq ops and the module's init and exit;
 * vcpufreq.h lists the other units.
 *
 * It exists so that the governor and the kernel's own governors can be
 * driven in a virtual machine exactly as on the machines the project is
 * about, and so that tests can assert on what was requested, not on what
 * sysfs happens to show afterwards.  Nothing here touches hardware: a
 * "frequency change" stores a number.
 *
 * Parameters (read-only after load, visible in /sys/module/vcpufreq/parameters):
 *   preset=NAME           epyc-7742 | xeon-e5-2687w-v3 | epyc-7702 |
 *                         ryzen-7840hs | generic (default)
 *   table_khz=LIST        custom table, overrides preset: kHz values separated
 *                         by commas, boost entries end in 'b'
 *   fast_switch=BOOL      implement ->fast_switch (default 1)
 *   shared=BOOL           one policy for all CPUs (default 0: one per CPU)
 *   per_policy_tunables=BOOL  set CPUFREQ_HAVE_GOVERNOR_PER_POLICY (default 0)
 *   transition_latency_ns=UINT  cpuinfo_transition_latency (default 10000)
 *   boost=BOOL            boost supported and initially on (default 1)
 *   target_step_khz=UINT  no table: ->target sets the request rounded to a
 *                         multiple of this step (default 0: table and
 *                         ->target_index)
 *   emulate=BOOL          emulate the frequency and the energy (default 0)
 *   emulate_boost=BOOL    with emulate=1: the preset's boost when boost is on
 *                         and max_P is requested (default 1)
 *   emulate_period_us=UINT  the emulator's timer period (default 1000)
 *   energy_range_uj=ULONG   energy_uj wraps to 0 here (default 262143328850,
 *                         what intel-rapl reports on most parts)
 *   cppc_page=ADDR        with emulate=1: the guest's ACPI CPPC register
 *                         page (tools/vm/run --cppc), whose delivered and
 *                         reference counters then advance while busy
 *
 * The record is in /sys/kernel/debug/vcpufreq/ (vcpufreq_debugfs.c).
 * With emulate=1 a CPU set to f runs f/f_top as fast as at the top
 * frequency f_top, every CPU's energy is integrated from the preset's
 * energy model, and the package energy is a powercap zone, intel-rapl:0,
 * as RAPL shows it (vcpufreq_emu.c, vcpufreq_powercap.c;
 * Documentation/bench.rst, "The emulated machine").
 *
 * Model: mainline drivers/cpufreq/virtual-cpufreq.c (a guest driver with a
 * table, verify, target_index and fast_switch), with the table and boost
 * habits of acpi-cpufreq and cpufreq-dt; no platform or OF parts.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "vcpufreq.h"

/* Module parameters: read-only once loaded, validated in vcpufreq_init(). */
static char *preset = "generic";
module_param(preset, charp, 0444);
MODULE_PARM_DESC(preset,
		 "P-state table of a real CPU: " VCPUFREQ_PRESET_NAMES " (default)");

static char *table_khz;
module_param(table_khz, charp, 0444);
MODULE_PARM_DESC(table_khz,
		 "Custom table, overrides preset: kHz values separated by commas, boost ones end in 'b' (e.g. 3400000b,2250000,2000000,1500000)");

bool vcpufreq_fast_switch_param = true;
module_param_named(fast_switch, vcpufreq_fast_switch_param, bool, 0444);
MODULE_PARM_DESC(fast_switch, "Offer fast frequency switching (default 1)");

bool vcpufreq_shared;
module_param_named(shared, vcpufreq_shared, bool, 0444);
MODULE_PARM_DESC(shared, "One policy for all CPUs instead of one per CPU (default 0)");

bool vcpufreq_per_policy_tunables;
module_param_named(per_policy_tunables, vcpufreq_per_policy_tunables, bool,
		   0444);
MODULE_PARM_DESC(per_policy_tunables,
		 "Governor tunables per policy (CPUFREQ_HAVE_GOVERNOR_PER_POLICY, default 0)");

/*
 * acpi-cpufreq takes the largest _PSS TransitionLatency (us) x 1000 and
 * caps it at 20 us for MSR-driven P-states; 10 us is what Intel and AMD
 * server firmware commonly lists.  It sets schedutil's default
 * rate_limit_us and ondemand's sampling_rate (1000 x latency, capped at
 * 10 ms).
 */
unsigned int vcpufreq_transition_latency_ns = 10000;
module_param_named(transition_latency_ns, vcpufreq_transition_latency_ns,
		   uint, 0444);
MODULE_PARM_DESC(transition_latency_ns,
		 "cpuinfo_transition_latency in ns (default 10000)");

bool vcpufreq_boost = true;
module_param_named(boost, vcpufreq_boost, bool, 0444);
MODULE_PARM_DESC(boost,
		 "Boost supported, initially on, and toggled by cpufreq's global boost file (default 1)");

/*
 * intel_cpufreq (intel_pstate in passive mode) has no frequency table: its
 * ->target turns the request into a P-state ratio (DIV_ROUND_UP for
 * CPUFREQ_RELATION_L) within the policy limits and sets ratio x 100 MHz,
 * so policy->cur may differ from a request that succeeded
 * (drivers/cpufreq/intel_pstate.c, intel_cpufreq_target()).  This mode
 * does the same with a step of its own, between the table's lowest entry
 * and its max_P.
 */
unsigned int vcpufreq_target_step_khz;
module_param_named(target_step_khz, vcpufreq_target_step_khz, uint, 0444);
MODULE_PARM_DESC(target_step_khz,
		 "No frequency table: offer ->target, which sets the request rounded to a multiple of this step in kHz, as intel_cpufreq rounds to ratio x 100 MHz; needs fast_switch=0 and emulate=0, at most the table's lowest entry (default 0: the table and ->target_index)");

bool vcpufreq_emulate;
module_param_named(emulate, vcpufreq_emulate, bool, 0444);
MODULE_PARM_DESC(emulate,
		 "Emulate the frequency (a CPU at f runs f/f_top as fast) and the energy, with a powercap zone intel-rapl:0 (default 0)");

/*
 * The table in effect.  Written once at load, then shared read-only by
 * every policy (the core only reads it) and the other units.
 */
struct vcpufreq_table vcpufreq_table;
const struct vcpufreq_preset *vcpufreq_preset;	/* NULL: table_khz */
const struct vcpufreq_em_model *vcpufreq_em;	/* from preset= */
unsigned int vcpufreq_em_cores;			/* from preset= */

/*
 * The emulated hardware: the frequency each CPU was last set to, in kHz.
 * Written by ->target_index/->fast_switch of the CPU's policy, read by
 * ->get and debugfs; plain word accesses, so READ_ONCE/WRITE_ONCE.
 */
static DEFINE_PER_CPU(unsigned int, vcpufreq_cur_khz);

/* Pick the preset or the custom table; one log line on bad input. */
static int vcpufreq_setup_table(void)
{
	const struct vcpufreq_preset *p = vcpufreq_preset_find(preset);
	char why[VCPUFREQ_WHY_LEN];
	int ret;

	/* preset= is checked even when table_khz= overrides it. */
	if (!p) {
		pr_err("preset=%s is unknown: use " VCPUFREQ_PRESET_NAMES ", or table_khz=\n",
		       preset ? preset : "");
		return -EINVAL;
	}

	/* A custom table takes its energy model from preset=. */
	vcpufreq_em = p->em;
	vcpufreq_em_cores = p->cores;
	if (table_khz) {
		ret = vcpufreq_table_parse(&vcpufreq_table, table_khz, why,
					   sizeof(why));
		if (ret)
			pr_err("table_khz: %s\n", why);
		return ret;
	}
	ret = vcpufreq_table_fill(&vcpufreq_table, p->khz, p->nr, p->nr_boost,
				  why, sizeof(why));
	if (ret) {
		pr_err("preset=%s: %s\n", p->name, why);
		return ret;
	}
	vcpufreq_preset = p;
	return 0;
}

/*
 * "Program" table entry @idx on every CPU of @policy and record it.  All
 * related CPUs, online or not, share one clock domain in a shared policy,
 * as the CPUs of an ACPI _PSD domain of type ANY do.
 */
static unsigned int vcpufreq_set(struct cpufreq_policy *policy,
				 unsigned int idx, bool fast)
{
	unsigned int khz = vcpufreq_table.entries[idx].frequency;
	unsigned int cpu;

	for_each_cpu(cpu, policy->related_cpus) {
		WRITE_ONCE(per_cpu(vcpufreq_cur_khz, cpu), khz);
		if (vcpufreq_emulate)
			vcpufreq_emu_set(cpu, idx, cpufreq_boost_enabled());
	}

	vcpufreq_record(policy->cpu, khz, idx, fast);
	return khz;
}

/* The lowest non-boost entry of the table, kHz */
static unsigned int vcpufreq_table_min_khz(void)
{
	unsigned int i, khz = vcpufreq_table.max_p_khz;

	for (i = 0; i < vcpufreq_table.nr; i++) {
		if (!(vcpufreq_table.entries[i].flags & CPUFREQ_BOOST_FREQ))
			khz = min(khz, vcpufreq_table.entries[i].frequency);
	}
	return khz;
}

/**
 * vcpufreq_target_index() - slow path: set a policy's CPUs to a table entry
 * @policy: the policy, its rwsem held for writing by the core
 * @index: index in policy->freq_table, already resolved and limited
 *
 * The core sends the transition notifications (PRECHANGE/POSTCHANGE)
 * around this call; it skips the call when the frequency is policy->cur.
 *
 * Context: process context (governor work, sysfs store, kthread).
 * Return: 0.
 */
static int vcpufreq_target_index(struct cpufreq_policy *policy,
				 unsigned int index)
{
	/* debugfs fail_khz (vcpufreq_debugfs.c): leave the P-state as it is */
	if (vcpufreq_target_fails(vcpufreq_table.entries[index].frequency))
		return -EAGAIN;
	vcpufreq_set(policy, index, false);
	return 0;
}

/**
 * vcpufreq_target() - slow path without a table (target_step_khz=)
 * @policy: the policy, its rwsem held for writing by the core
 * @target_freq: requested frequency in kHz, clamped to policy->min..max
 * @relation: CPUFREQ_RELATION_L (round up), _H (round down), else nearest
 *
 * Rounds @target_freq to a multiple of the step, within the multiples
 * inside the policy limits (the lower bound giving way to the upper one,
 * as intel_pstate's min_perf_ratio gives way to max_perf_ratio), and sets
 * that, with the transition notifications a ->target driver sends itself.
 *
 * Context: process context (governor work, sysfs store, kthread).
 * Return: 0, or -EAGAIN when debugfs fail_khz names @target_freq.
 */
static int vcpufreq_target(struct cpufreq_policy *policy,
			   unsigned int target_freq, unsigned int relation)
{
	unsigned int step = vcpufreq_target_step_khz;
	unsigned int hi = rounddown(policy->max, step);
	unsigned int lo = min(roundup(policy->min, step), hi);
	struct cpufreq_freqs freqs = { .old = policy->cur };
	unsigned int khz, cpu;

	if (vcpufreq_target_fails(target_freq))
		return -EAGAIN;

	switch (relation & ~CPUFREQ_RELATION_E) {
	case CPUFREQ_RELATION_L:
		khz = roundup(target_freq, step);
		break;
	case CPUFREQ_RELATION_H:
		khz = rounddown(target_freq, step);
		break;
	default:
		khz = DIV_ROUND_CLOSEST(target_freq, step) * step;
		break;
	}
	freqs.new = clamp(khz, lo, hi);

	cpufreq_freq_transition_begin(policy, &freqs);
	for_each_cpu(cpu, policy->related_cpus)
		WRITE_ONCE(per_cpu(vcpufreq_cur_khz, cpu), freqs.new);
	vcpufreq_record(policy->cpu, freqs.new, -1, false);
	cpufreq_freq_transition_end(policy, &freqs, false);
	return 0;
}

/* Without a table: the limits within cpuinfo, as intel_cpufreq's verify */
static int vcpufreq_verify(struct cpufreq_policy_data *policy)
{
	cpufreq_verify_within_cpu_limits(policy);
	return 0;
}

/**
 * vcpufreq_fast_switch() - fast path: set a policy's CPUs from the scheduler
 * @policy: the policy
 * @target_freq: requested frequency in kHz, clamped to policy->min..max
 *
 * Resolves @target_freq to the lowest table entry at or above it within the
 * policy limits (as acpi-cpufreq does), every time: a driver must not rely
 * on the governor having resolved it first.
 *
 * Context: scheduler update_util hook, runqueue lock held, IRQs off.
 * Return: the frequency set, in kHz; 0 (no change) if nothing fits.
 */
static unsigned int vcpufreq_fast_switch(struct cpufreq_policy *policy,
					 unsigned int target_freq)
{
	int idx;

	idx = cpufreq_frequency_table_target(policy, target_freq, policy->min,
					     policy->max, CPUFREQ_RELATION_L);
	if (idx < 0 || idx >= (int)vcpufreq_table.nr)
		return 0;

	return vcpufreq_set(policy, idx, true);
}

/**
 * vcpufreq_get() - current frequency of a CPU
 * @cpu: the CPU
 *
 * Context: any.
 * Return: the frequency @cpu was last set to, in kHz; 0 before its policy
 * was initialized.
 */
unsigned int vcpufreq_get(unsigned int cpu)
{
	return READ_ONCE(per_cpu(vcpufreq_cur_khz, cpu));
}

/**
 * vcpufreq_cpu_init() - set up a new policy
 * @policy: the policy, policy->cpus holding only policy->cpu
 *
 * Every CPU starts at max_P, the highest non-boost entry: firmware hands
 * over at P0 and acpi-cpufreq reads that back from the hardware.
 *
 * Context: process context, CPU hotplug lock held.
 * Return: 0.
 */
static int vcpufreq_cpu_init(struct cpufreq_policy *policy)
{
	unsigned int cpu;

	if (vcpufreq_shared) {
		/*
		 * One policy for every possible CPU; the core keeps offline
		 * ones in related_cpus and removes them from policy->cpus.
		 */
		cpumask_copy(policy->cpus, cpu_possible_mask);
		policy->shared_type = CPUFREQ_SHARED_TYPE_ANY;
	} else {
		policy->shared_type = CPUFREQ_SHARED_TYPE_NONE;
	}

	policy->cpuinfo.transition_latency = vcpufreq_transition_latency_ns;
	if (vcpufreq_target_step_khz) {
		/* No table: cpuinfo is the driver's to give, as intel_cpufreq's */
		policy->freq_table = NULL;
		policy->cpuinfo.min_freq = vcpufreq_table_min_khz();
		policy->cpuinfo.max_freq = vcpufreq_table.max_boost_khz &&
					   cpufreq_boost_enabled() ?
					   vcpufreq_table.max_boost_khz :
					   vcpufreq_table.max_p_khz;
	} else {
		policy->freq_table = vcpufreq_table.entries;
		/*
		 * Let the core compute cpuinfo from the table: it keeps a
		 * larger cpuinfo.max_freq it finds here, which a policy
		 * re-initialized after its CPUs went offline would still
		 * carry from an earlier boost state.
		 */
		policy->cpuinfo.max_freq = 0;
	}
	policy->fast_switch_possible = vcpufreq_fast_switch_param;

	for_each_cpu(cpu, policy->cpus) {
		WRITE_ONCE(per_cpu(vcpufreq_cur_khz, cpu),
			   vcpufreq_table.max_p_khz);
		if (vcpufreq_emulate)
			vcpufreq_emu_set(cpu, vcpufreq_table.max_p_idx,
					 cpufreq_boost_enabled());
	}

	return 0;
}

/**
 * vcpufreq_set_boost() - apply a new global boost state to one policy
 * @policy: an active policy
 * @state: 1 boost on, 0 off (already stored in the driver by the core)
 *
 * With boost entries in the table, cpuinfo_max_freq moves to the highest
 * boost entry or back to max_P, and the policy limits are re-evaluated
 * right away.  A user's scaling_max_freq cap survives the toggle (the
 * core's own helper for cpufreq-dt overwrites it).  Without boost entries
 * (epyc-7742) nothing cpufreq sees changes, as with acpi-cpufreq's CPB;
 * with emulate=1 the CPUs at max_P move to or from the hidden boost.
 *
 * Context: process context, CPU hotplug lock held, no policy lock held.
 * Return: 0.
 */
static int vcpufreq_set_boost(struct cpufreq_policy *policy, int state)
{
	unsigned int cpu;

	if (vcpufreq_emulate) {
		for_each_cpu(cpu, policy->related_cpus)
			vcpufreq_emu_set(cpu, -1, state);
	}
	if (!vcpufreq_table.max_boost_khz)
		return 0;

	down_write(&policy->rwsem);
	policy->cpuinfo.max_freq = state ? vcpufreq_table.max_boost_khz :
					   vcpufreq_table.max_p_khz;
	/* Applies qos limits clamped to the new cpuinfo, then the governor. */
	refresh_frequency_limits(policy);
	up_write(&policy->rwsem);
	return 0;
}

/*
 * System sleep: cpufreq_suspend() stops each policy's governor and then
 * calls ->suspend; cpufreq_resume() calls ->resume and then starts the
 * governor again.  The first ->resume after a suspend therefore marks the
 * moment from which every request comes from a restarted governor: the
 * stats file shows it as resume_ns (the record's clock) for
 * selftests/77-suspend.sh.  Written from the PM core's thread only.
 */
static bool vcpufreq_suspended;
u64 vcpufreq_resume_ns;
unsigned int vcpufreq_resumes;

static int vcpufreq_suspend(struct cpufreq_policy *policy)
{
	vcpufreq_suspended = true;
	return 0;
}

static int vcpufreq_resume(struct cpufreq_policy *policy)
{
	if (vcpufreq_suspended) {
		vcpufreq_suspended = false;
		WRITE_ONCE(vcpufreq_resume_ns, ktime_get_ns());
		WRITE_ONCE(vcpufreq_resumes, vcpufreq_resumes + 1);
	}
	return 0;
}

/* scaling_available_frequencies, plus scaling_boost_frequencies if listed. */
static struct freq_attr *vcpufreq_attrs[3];

static struct cpufreq_driver vcpufreq_driver = {
	.name		= "vcpufreq",
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= vcpufreq_target_index,
	.get		= vcpufreq_get,
	.init		= vcpufreq_cpu_init,
	.suspend	= vcpufreq_suspend,
	.resume		= vcpufreq_resume,
	.attr		= vcpufreq_attrs,
	/* Set from the parameters in vcpufreq_init(): */
	.fast_switch	= NULL,
	.set_boost	= NULL,
};

/* For the load message: how boost looks to cpufreq. */
static const char *vcpufreq_boost_name(void)
{
	if (!vcpufreq_boost)
		return "unsupported";
	return vcpufreq_table.max_boost_khz ? "listed, on" : "hidden, on";
}

/* The driver's optional ops and flags, from the parameters. */
static void vcpufreq_driver_setup(void)
{
	if (vcpufreq_target_step_khz) {
		/* No table to list */
		vcpufreq_driver.target_index = NULL;
		vcpufreq_driver.target = vcpufreq_target;
		vcpufreq_driver.verify = vcpufreq_verify;
	} else {
		vcpufreq_attrs[0] = &cpufreq_freq_attr_scaling_available_freqs;
		if (vcpufreq_table.max_boost_khz)
			vcpufreq_attrs[1] =
				&cpufreq_freq_attr_scaling_boost_freqs;
	}
	if (vcpufreq_fast_switch_param)
		vcpufreq_driver.fast_switch = vcpufreq_fast_switch;
	if (vcpufreq_per_policy_tunables)
		vcpufreq_driver.flags |= CPUFREQ_HAVE_GOVERNOR_PER_POLICY;
	/* A ->set_boost is what makes the core create the boost file. */
	if (vcpufreq_boost) {
		vcpufreq_driver.set_boost = vcpufreq_set_boost;
		vcpufreq_driver.boost_enabled = true;
	}
}

/* target_step_khz= leaves out the table, fast switch and the emulation */
static int vcpufreq_step_check(void)
{
	unsigned int step = vcpufreq_target_step_khz;

	if (!step)
		return 0;
	if (vcpufreq_fast_switch_param || vcpufreq_emulate) {
		pr_err("target_step_khz= needs fast_switch=0 and emulate=0: both set table entries\n");
		return -EINVAL;
	}
	if (step > vcpufreq_table_min_khz()) {
		pr_err("target_step_khz=%u is above the table's lowest entry, %u kHz\n",
		       step, vcpufreq_table_min_khz());
		return -EINVAL;
	}
	return 0;
}

/*
 * Every parameter is checked before anything is allocated, mapped or
 * registered, and the check for another driver comes before the first
 * resource too: a refused load has nothing to undo.
 */
static int __init vcpufreq_init(void)
{
	const char *other;
	int ret;

	ret = vcpufreq_setup_table();
	if (ret)
		return ret;
	ret = vcpufreq_emu_check();
	if (ret)
		return ret;
	ret = vcpufreq_step_check();
	if (ret)
		return ret;
	if (vcpufreq_emulate) {
		ret = vcpufreq_pcap_check();
		if (ret)
			return ret;
	}

	/* Never displace a real driver; the core would refuse us anyway. */
	other = cpufreq_get_current_driver();
	if (other) {
		pr_err("cpufreq driver %s is already registered; vcpufreq is for machines without one\n",
		       other);
		return -EEXIST;
	}

	ret = vcpufreq_log_alloc();
	if (ret)
		return ret;
	vcpufreq_driver_setup();

	/* The emulated CPUs exist before the first frequency is set. */
	if (vcpufreq_emulate) {
		ret = vcpufreq_emu_start();
		if (ret)
			goto err_log;
	}

	/* Before registering: governors start, and ask, during registration. */
	vcpufreq_debugfs_init();

	ret = cpufreq_register_driver(&vcpufreq_driver);
	if (ret) {
		if (ret == -EEXIST)
			pr_err("another cpufreq driver registered first; vcpufreq is for machines without one\n");
		else
			pr_err("cpufreq_register_driver() failed: %d\n", ret);
		goto err_debugfs;
	}
	if (vcpufreq_emulate)
		vcpufreq_pcap_init();

	pr_info("%s: %u P-states, max_P %u kHz, boost %s, %s, %s policies\n",
		vcpufreq_preset ? vcpufreq_preset->name : "custom table",
		vcpufreq_table.nr, vcpufreq_table.max_p_khz,
		vcpufreq_boost_name(),
		vcpufreq_target_step_khz ? "->target, no table" :
		vcpufreq_fast_switch_param ? "fast switch" : "slow path only",
		vcpufreq_shared ? "one shared" : "per-CPU");
	if (vcpufreq_emulate)
		pr_info("emulating: top %u kHz, boost %u kHz, period %u us%s\n",
			vcpufreq_machine.top_khz, vcpufreq_machine.boost_khz,
			vcpufreq_emulate_period_us,
			vcpufreq_emulate_one_thread ?
			", one host thread for every CPU" : "");
	return 0;

err_debugfs:
	vcpufreq_debugfs_exit();
	if (vcpufreq_emulate)
		vcpufreq_emu_stop();
err_log:
	vcpufreq_log_free();
	return ret;
}
module_init(vcpufreq_init);

/* vcpufreq_init()'s steps undone in reverse order. */
static void __exit vcpufreq_exit(void)
{
	/* No energy_uj reader is left once this returns. */
	if (vcpufreq_emulate)
		vcpufreq_pcap_exit();
	/* Stops the governors first: no callback runs after this. */
	cpufreq_unregister_driver(&vcpufreq_driver);
	vcpufreq_debugfs_exit();
	if (vcpufreq_emulate)
		vcpufreq_emu_stop();
	vcpufreq_log_free();
}
module_exit(vcpufreq_exit);

MODULE_DESCRIPTION("Test-only virtual cpufreq driver with P-state tables of real CPUs");
MODULE_LICENSE("GPL");
