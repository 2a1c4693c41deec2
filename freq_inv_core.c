// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: per-CPU max_P, max_boost, midpoint and Linux 6.1's
 * invariance ratio, and the frequency each CPU delivered, for sugov_inv.
 *
 * Where the numbers come from, per CPU, first that answers:
 *   1. hardware, through the vendor backend chosen once at load: ACPI CPPC
 *      capabilities on AMD (cppc_get_perf_caps()), the turbo-ratio MSRs on
 *      Intel (rdmsrq_safe_on_cpu()); decoded by the pure decoders in
 *      amd_cppc_ratio.c and intel_ratio.c;
 *   2. the frequency table of the CPU's cpufreq policy: the highest
 *      non-boost entry is max_P, the highest CPUFREQ_BOOST_FREQ entry
 *      max_boost;
 *   3. nothing: max_P = max_boost = the policy's cpuinfo.max_freq (0
 *      without a policy), ratio 1024.
 * The max_p_khz= and max_boost_khz= parameters replace the frequencies of
 * every CPU.  Caps are re-read when a CPU comes online and when a cpufreq
 * policy appears or goes away (the cpufreq driver may load after us).
 *
 * Readers are lockless: the governor reads caps from its update_util hook
 * with the rq lock held and IRQs off, so each CPU's caps sit behind a
 * seqcount whose writers are serialized by freq_inv_lock.  Nothing here
 * touches the kernel's own invariance state (arch_set_max_freq_ratio()).
 *
 * The reports: /sys/kernel/freq_invariance/ (ABI in
 * Documentation/ABI/testing/sysfs-kernel-freq_invariance) and, for tests,
 * /sys/kernel/debug/freq_invariance/delivered.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include <acpi/cppc_acpi.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "compat.h"
#include "freq_invariance.h"
#include "amd_cppc_ratio.h"
#include "freq_inv_cppc_ctrs.h"
#include "intel_ratio.h"

/* Highest frequency a parameter or a hardware answer may claim: 10 GHz */
#define FREQ_INV_MAX_KHZ	10000000U

/*
 * Largest max_boost/max_P accepted: the ratio of two 8-bit P-state ratios
 * (Intel MSR_TURBO_RATIO_LIMIT bytes over MSR_PLATFORM_INFO bits 15:8,
 * AMD CPPC highest_perf over nominal_perf), so no hardware exceeds it.
 * It keeps every ratio times SCHED_CAPACITY_SCALE well inside 32 bits.
 */
#define FREQ_INV_MAX_BOOST_RATIO	255U

/*
 * APERF runs at most max_boost/max_P faster than MPERF (3.8x on the
 * largest ratio published, an i3-1220P).  A window where it ran more than
 * 16x faster is a counter reset or a hypervisor artefact, not a frequency;
 * the bound also keeps max_P * dAPERF / dMPERF inside 64 bits.
 */
#define FREQ_INV_APERF_MAX_SHIFT	4

/* Window the debugfs delivered file measures over, ms */
#define FREQ_INV_DBG_WINDOW_MS	20

/**
 * struct freq_inv_stored - one CPU's caps as published to readers
 * @max_p_khz: highest non-boost P-state, kHz
 * @max_boost_khz: highest boost frequency with boost on, kHz
 * @kernel_ratio: Linux 6.1's invariance ratio, x1024
 * @source: where @max_p_khz and @max_boost_khz came from
 * @efficient_khz: the hardware's efficient frequency, kHz (0: unknown)
 * @boost_switch: the cpufreq driver of the CPU's policy has a global boost
 *	switch (/sys/devices/system/cpu/cpufreq/boost) at the last refresh
 * @valid: the CPU has been probed at least once
 *
 * Boost-dependent values (max_boost while boost is off, midpoint,
 * reference) are derived at read time: the boost switch has no notifier.
 */
struct freq_inv_stored {
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 kernel_ratio;
	enum freq_inv_source source;
	u32 efficient_khz;
	bool boost_switch;
	bool valid;
};

/**
 * struct freq_inv_cpu - per-CPU state
 * @seq: orders lockless readers of @st against freq_inv_publish()
 * @st: the published caps
 * @online: our hotplug callback has run for the CPU; under freq_inv_lock
 * @hw_err: why the hardware backend did not answer at the last refresh
 *	(0 when it did); under freq_inv_lock
 * @kobj: /sys/kernel/freq_invariance/cpuN, NULL while the CPU is offline;
 *	under freq_inv_lock
 */
struct freq_inv_cpu {
	seqcount_t seq;
	struct freq_inv_stored st;
	bool online;
	int hw_err;
	struct kobject *kobj;
};

static DEFINE_PER_CPU(struct freq_inv_cpu, freq_inv_cpus);

/*
 * Serializes every writer of per-CPU state: hotplug callbacks, the policy
 * refresh work and module init/exit.  Taken before a policy's rwsem, never
 * inside one (the policy notifier only queues work for that reason).
 */
static DEFINE_MUTEX(freq_inv_lock);

/**
 * struct freq_inv_hw - what a hardware backend decoded for one CPU
 * @max_p_khz: max_P, kHz
 * @max_boost_khz: max_boost, kHz
 * @kernel_ratio: Linux 6.1's invariance ratio, x1024
 * @efficient_khz: the efficient frequency (CPPC LowestNonlinearPerformance),
 *	0 if unknown
 */
struct freq_inv_hw {
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 kernel_ratio;
	u32 efficient_khz;
};

/**
 * struct freq_inv_backend - a vendor's way to read max_P and max_boost
 * @name: for the load message
 * @source: the source its answers are reported as
 * @init: once at load, may fail (no CPPC, ...); NULL if nothing to do
 * @read: read and decode one CPU, process context; @p0_khz is the highest
 *	non-boost entry of the CPU's cpufreq table (0 if none), for firmware
 *	that leaves a frequency out
 * @override_ratio: Linux 6.1's ratio rule applied to the max_p_khz= and
 *	max_boost_khz= frequencies, for CPUs whose hardware did not answer
 *
 * Chosen once at load from the boot CPU's vendor; the sampling hot path
 * never looks at it.
 */
struct freq_inv_backend {
	const char *name;
	enum freq_inv_source source;
	int (*init)(void);
	int (*read)(unsigned int cpu, u32 p0_khz, struct freq_inv_hw *hw);
	u32 (*override_ratio)(u32 max_p_khz, u32 max_boost_khz);
};

static const struct freq_inv_backend *freq_inv_backend;

/* Why the backend's init failed (0 if it did not); read-only after load */
static int freq_inv_backend_err;

/* ---------------------------------------------------------------------- */
/* Module parameters                                                      */
/* ---------------------------------------------------------------------- */

static const char * const freq_inv_ref_names[] = {
	[FREQ_INV_REF_KERNEL]		= "kernel",
	[FREQ_INV_REF_MAX_BOOST]	= "max_boost",
	[FREQ_INV_REF_MIDPOINT]		= "midpoint",
	[FREQ_INV_REF_MAX_P]		= "max_P",
};

/*
 * Parameters are only parsed by their ops; freq_inv_check_params() judges
 * them at init so that a bad value gives exactly one message of ours (an
 * error from an op would add the kernel's generic "invalid for parameter"
 * line).  All are 0444: they cannot change under a running governor.
 */

/* Index into freq_inv_ref_names, or a negative errno for an unknown name */
static int freq_inv_reference = FREQ_INV_REF_KERNEL;
/* The unknown name, for the message */
static char freq_inv_reference_bad[24];

static int freq_inv_reference_set(const char *val,
				  const struct kernel_param *kp)
{
	freq_inv_reference = sysfs_match_string(freq_inv_ref_names, val);
	if (freq_inv_reference < 0)
		strscpy(freq_inv_reference_bad, val,
			sizeof(freq_inv_reference_bad));
	return 0;
}

static int freq_inv_reference_get(char *buf, const struct kernel_param *kp)
{
	if (freq_inv_reference < 0)
		return scnprintf(buf, PAGE_SIZE, "(invalid)\n");
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 freq_inv_ref_names[freq_inv_reference]);
}

static const struct kernel_param_ops freq_inv_reference_ops = {
	.set = freq_inv_reference_set,
	.get = freq_inv_reference_get,
};
module_param_cb(reference, &freq_inv_reference_ops, NULL, 0444);
MODULE_PARM_DESC(reference,
		 "What capacity 1024 stands for: kernel (default: Linux 6.1's ratio on this CPU), max_boost, midpoint or max_P");

/**
 * struct freq_inv_khz_param - a frequency override parameter
 * @khz: the value, kHz; 0 while not given
 * @err: kstrtouint()'s error for a value that is not a number
 * @given: the parameter was set
 * @raw: the text given, for the message
 */
struct freq_inv_khz_param {
	unsigned int khz;
	int err;
	bool given;
	char raw[16];
};

static struct freq_inv_khz_param freq_inv_max_p;
static struct freq_inv_khz_param freq_inv_max_boost;

static int freq_inv_khz_set(const char *val, const struct kernel_param *kp)
{
	struct freq_inv_khz_param *p = kp->arg;

	p->given = true;
	strscpy(p->raw, val, sizeof(p->raw));
	p->err = kstrtouint(val, 10, &p->khz);
	return 0;
}

static int freq_inv_khz_get(char *buf, const struct kernel_param *kp)
{
	const struct freq_inv_khz_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%u\n", p->err ? 0 : p->khz);
}

static const struct kernel_param_ops freq_inv_khz_ops = {
	.set = freq_inv_khz_set,
	.get = freq_inv_khz_get,
};
module_param_cb(max_p_khz, &freq_inv_khz_ops, &freq_inv_max_p, 0444);
MODULE_PARM_DESC(max_p_khz,
		 "Override max_P of every CPU, kHz (1..10000000; with max_boost_khz; default: from hardware)");
module_param_cb(max_boost_khz, &freq_inv_khz_ops, &freq_inv_max_boost, 0444);
MODULE_PARM_DESC(max_boost_khz,
		 "Override max_boost of every CPU, kHz (max_p_khz..10000000, at most 255 x max_p_khz; with max_p_khz; default: from hardware)");

static int freq_inv_check_khz(const char *name,
			      const struct freq_inv_khz_param *p, u32 min)
{
	if (p->err || p->khz < min || p->khz > FREQ_INV_MAX_KHZ) {
		pr_err("%s=%s: not a frequency in %u..%u kHz\n",
		       name, p->raw, min, FREQ_INV_MAX_KHZ);
		return -EINVAL;
	}
	return 0;
}

/*
 * One message and -EINVAL for the first bad parameter (-ERANGE for a
 * boost ratio beyond FREQ_INV_MAX_BOOST_RATIO); 0 when all fit
 */
static int freq_inv_check_params(void)
{
	int err;

	if (freq_inv_reference < 0) {
		pr_err("reference=%s: unknown, expected one of: kernel max_boost midpoint max_P\n",
		       freq_inv_reference_bad);
		return -EINVAL;
	}
	if (freq_inv_max_p.given != freq_inv_max_boost.given) {
		pr_err("max_p_khz= and max_boost_khz= override together: give both or neither\n");
		return -EINVAL;
	}
	if (!freq_inv_max_p.given)
		return 0;

	err = freq_inv_check_khz("max_p_khz", &freq_inv_max_p, 1);
	if (err)
		return err;
	/* max_boost below max_P is no boost at all: refuse, never swap */
	if (!freq_inv_max_boost.err && freq_inv_max_boost.khz &&
	    freq_inv_max_boost.khz < freq_inv_max_p.khz) {
		pr_err("max_boost_khz=%u is below max_p_khz=%u\n",
		       freq_inv_max_boost.khz, freq_inv_max_p.khz);
		return -EINVAL;
	}
	err = freq_inv_check_khz("max_boost_khz", &freq_inv_max_boost,
				 freq_inv_max_p.khz);
	if (err)
		return err;
	if (freq_inv_max_boost.khz / freq_inv_max_p.khz >
	    FREQ_INV_MAX_BOOST_RATIO) {
		pr_err("max_boost_khz=%u is more than %u times max_p_khz=%u\n",
		       freq_inv_max_boost.khz, FREQ_INV_MAX_BOOST_RATIO,
		       freq_inv_max_p.khz);
		return -ERANGE;
	}
	return 0;
}

static bool freq_inv_overridden(void)
{
	return freq_inv_max_p.given;
}

/* ---------------------------------------------------------------------- */
/* Hardware backends                                                      */
/* ---------------------------------------------------------------------- */

/* x * 1024 / y for y != 0, saturated: the ratios of two kHz values */
static u32 freq_inv_ratio(u32 x, u32 y)
{
	u64 r = div_u64((u64)x << SCHED_CAPACITY_SHIFT, y);

	return min_t(u64, r, U32_MAX);
}

#if IS_ENABLED(CONFIG_ACPI_CPPC_LIB)

/* Every CPU reports the same highest_perf (see amd_cppc_ratio.h) */
static bool freq_inv_amd_uniform;

/*
 * The decoder's max_boost rule needs every CPU's highest_perf at once:
 * gather it over the present CPUs (CPPC data exists for offline ones too).
 */
static int freq_inv_amd_init(void)
{
	struct cppc_perf_caps caps;
	unsigned int cpu, nr = 0;
	u32 *highest;
	int err;

	if (!acpi_cpc_valid())
		return -ENODEV;

	highest = kcalloc(nr_cpu_ids, sizeof(*highest), GFP_KERNEL);
	if (!highest)
		return -ENOMEM;

	for_each_present_cpu(cpu) {
		if (!cppc_get_perf_caps(cpu, &caps))
			highest[nr++] = caps.highest_perf;
	}
	err = nr ? amd_cppc_ratio_highest_uniform(highest, nr,
						  &freq_inv_amd_uniform) :
		   -ENODEV;
	kfree(highest);
	return err;
}

/* ACPI CPPC HighestPerformance/NominalPerformance/... of @cpu, decoded */
static int freq_inv_amd_read(unsigned int cpu, u32 p0_khz,
			     struct freq_inv_hw *hw)
{
	struct amd_cppc_ratio_result res;
	struct cppc_perf_caps caps;
	struct amd_cppc_raw raw = {
		.family = boot_cpu_data.x86,
		.model = boot_cpu_data.x86_model,
		.highest_perf_uniform = freq_inv_amd_uniform,
	};
	int err;

	err = cppc_get_perf_caps(cpu, &caps);
	if (err)
		return err;

	raw.highest_perf = caps.highest_perf;
	raw.nominal_perf = caps.nominal_perf;
	raw.lowest_nonlinear_perf = caps.lowest_nonlinear_perf;
	raw.lowest_perf = caps.lowest_perf;
	/* CPPC before v3 has no NominalFrequency: _PSS P0, as acpi-cpufreq */
	raw.nominal_freq_mhz = caps.nominal_freq ?: p0_khz / 1000;
	raw.lowest_freq_mhz = caps.lowest_freq;

	err = amd_cppc_ratio_decode(&raw, &res);
	if (err)
		return err;

	hw->max_p_khz = res.max_p_khz;
	hw->max_boost_khz = res.max_boost_khz;
	hw->kernel_ratio = res.kernel_ratio;
	hw->efficient_khz = res.efficient_khz;
	return 0;
}

/* 6.1's AMD rule (the midpoint of the boost ratio and 1024) on kHz values */
static u32 freq_inv_amd_override_ratio(u32 max_p_khz, u32 max_boost_khz)
{
	return (freq_inv_ratio(max_boost_khz, max_p_khz) +
		SCHED_CAPACITY_SCALE) >> 1;
}

static const struct freq_inv_backend freq_inv_amd_backend = {
	.name = "amd-cppc",
	.source = FREQ_INV_SRC_CPPC,
	.init = freq_inv_amd_init,
	.read = freq_inv_amd_read,
	.override_ratio = freq_inv_amd_override_ratio,
};

#endif /* CONFIG_ACPI_CPPC_LIB */

/* Read one MSR of @cpu; a #GP (MSR absent) leaves its @have bit clear */
static void freq_inv_rdmsr(unsigned int cpu, u32 msr, u64 *val, u32 bit,
			   u32 *have)
{
	if (!rdmsrq_safe_on_cpu(cpu, msr, val))
		*have |= bit;
}

/*
 * MSR_PLATFORM_INFO, MSR_TURBO_RATIO_LIMIT(1), MSR_IA32_MISC_ENABLE and
 * the Atom MSR_ATOM_CORE_(TURBO_)RATIOS of @cpu, decoded.  Linux 6.1 picks
 * its rule by which MSRs read (it tries the Atom pair first on every
 * part), so all are read and the decoder chooses.
 */
static int freq_inv_intel_read(unsigned int cpu, u32 p0_khz,
			       struct freq_inv_hw *hw)
{
	struct intel_ratio_result res;
	struct intel_ratio_raw raw = {
		.family = boot_cpu_data.x86,
		.model = boot_cpu_data.x86_model,
	};
	u64 fsb;
	int err;

	freq_inv_rdmsr(cpu, MSR_PLATFORM_INFO, &raw.platform_info,
		       INTEL_RATIO_HAVE_PLATFORM_INFO, &raw.have);
	freq_inv_rdmsr(cpu, MSR_TURBO_RATIO_LIMIT, &raw.turbo_ratio_limit,
		       INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT, &raw.have);
	freq_inv_rdmsr(cpu, MSR_TURBO_RATIO_LIMIT1, &raw.turbo_ratio_limit1,
		       INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1, &raw.have);
	freq_inv_rdmsr(cpu, MSR_IA32_MISC_ENABLE, &raw.misc_enable,
		       INTEL_RATIO_HAVE_MISC_ENABLE, &raw.have);
	freq_inv_rdmsr(cpu, MSR_ATOM_CORE_RATIOS, &raw.atom_core_ratios,
		       INTEL_RATIO_HAVE_ATOM_CORE_RATIOS, &raw.have);
	freq_inv_rdmsr(cpu, MSR_ATOM_CORE_TURBO_RATIOS,
		       &raw.atom_core_turbo_ratios,
		       INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS, &raw.have);
	if (!raw.have)
		return -ENODEV;

	/* Only Silvermont/Airmont need MSR_FSB_FREQ for their bus clock */
	if (raw.model == INTEL_RATIO_MODEL_ATOM_SILVERMONT ||
	    raw.model == INTEL_RATIO_MODEL_ATOM_AIRMONT)
		err = intel_ratio_bus_khz(raw.family, raw.model,
					  rdmsrq_safe_on_cpu(cpu, MSR_FSB_FREQ,
							     &fsb) ? NULL : &fsb,
					  &raw.bus_khz);
	else
		err = intel_ratio_bus_khz(raw.family, raw.model, NULL,
					  &raw.bus_khz);
	if (err)
		return err;

	err = intel_ratio_decode(&raw, &res);
	if (err)
		return err;

	hw->max_p_khz = res.max_p_khz;
	hw->max_boost_khz = res.max_boost_khz;
	hw->kernel_ratio = res.kernel_ratio;
	return 0;
}

/* 6.1's Intel rule (turbo/base) with the 1-core turbo the override gives */
static u32 freq_inv_intel_override_ratio(u32 max_p_khz, u32 max_boost_khz)
{
	return freq_inv_ratio(max_boost_khz, max_p_khz);
}

static const struct freq_inv_backend freq_inv_intel_backend = {
	.name = "intel-msr",
	.source = FREQ_INV_SRC_MSR,
	.read = freq_inv_intel_read,
	.override_ratio = freq_inv_intel_override_ratio,
};

/* Pick the backend of the boot CPU's vendor and initialize it */
static void freq_inv_backend_select(void)
{
	switch (boot_cpu_data.x86_vendor) {
#if IS_ENABLED(CONFIG_ACPI_CPPC_LIB)
	case X86_VENDOR_AMD:
		freq_inv_backend = &freq_inv_amd_backend;
		break;
#endif
	case X86_VENDOR_INTEL:
		freq_inv_backend = &freq_inv_intel_backend;
		break;
	default:
		pr_debug("no hardware backend for CPU vendor %u\n",
			 boot_cpu_data.x86_vendor);
		freq_inv_backend_err = -EOPNOTSUPP;
		return;
	}

	if (freq_inv_backend->init)
		freq_inv_backend_err = freq_inv_backend->init();
	if (freq_inv_backend_err)
		pr_debug("%s: unavailable (%pe)\n", freq_inv_backend->name,
			 ERR_PTR(freq_inv_backend_err));
}

/* ---------------------------------------------------------------------- */
/* Probing and publishing                                                 */
/* ---------------------------------------------------------------------- */

/**
 * struct freq_inv_policy_info - what the CPU's cpufreq policy tells
 * @boost_switch: its driver has the global boost switch
 * @max_p_khz: highest non-boost table entry, 0 without a table
 * @max_boost_khz: highest CPUFREQ_BOOST_FREQ table entry, 0 if none
 * @cpuinfo_max_khz: the policy's cpuinfo.max_freq
 */
struct freq_inv_policy_info {
	bool boost_switch;
	u32 max_p_khz;
	u32 max_boost_khz;
	u32 cpuinfo_max_khz;
};

/*
 * Fill @info from @cpu's policy; false when the policy's rwsem is taken.
 * Never waits for it: a scaling_governor store holds it while the
 * kernel's modprobe loads the governor's module
 * (request_module("cpufreq_sugov_inv")), whose dependency is this
 * module, whose init waits in cpuhp_setup_state() for the hotplug
 * callback and then for freq_inv_lock, which the refresh work holds
 * while it probes: a deadlock, were either to sleep here.  Callers try
 * a busy policy again later.
 */
static bool freq_inv_read_policy(unsigned int cpu,
				 struct freq_inv_policy_info *info)
{
	struct cpufreq_frequency_table *pos;
	struct cpufreq_policy *policy;
	struct kernfs_node *kn;

	memset(info, 0, sizeof(*info));
	policy = cpufreq_cpu_get(cpu);
	if (!policy)
		return true;

	/* The driver's ->exit() frees freq_table under a write lock of it */
	if (!down_read_trylock(&policy->rwsem)) {
		cpufreq_cpu_put(policy);
		return false;
	}
	if (!cpumask_test_cpu(cpu, policy->cpus))
		goto out;

	info->cpuinfo_max_khz = policy->cpuinfo.max_freq;
	if (policy->freq_table) {
		cpufreq_for_each_valid_entry(pos, policy->freq_table) {
			if (pos->flags & CPUFREQ_BOOST_FREQ)
				info->max_boost_khz = max(info->max_boost_khz,
							  pos->frequency);
			else
				info->max_p_khz = max(info->max_p_khz,
						      pos->frequency);
		}
	}

	/*
	 * cpufreq_boost_enabled() only means something for drivers with a
	 * boost switch (intel_pstate has none and is always "off"), and 6.1
	 * exports no test for one: the switch's sysfs file exists exactly
	 * when the driver has it, next to the policy directories.
	 */
	if (policy->kobj.parent) {
		kn = sysfs_get_dirent(policy->kobj.parent->sd, "boost");
		info->boost_switch = !!kn;
		sysfs_put(kn);
	}
out:
	up_read(&policy->rwsem);
	cpufreq_cpu_put(policy);
	return true;
}

static bool freq_inv_hw_sane(const struct freq_inv_hw *hw)
{
	return hw->max_p_khz && hw->max_p_khz <= hw->max_boost_khz &&
	       hw->max_boost_khz <= FREQ_INV_MAX_KHZ &&
	       hw->max_boost_khz / hw->max_p_khz <= FREQ_INV_MAX_BOOST_RATIO &&
	       hw->kernel_ratio >= SCHED_CAPACITY_SCALE;
}

/*
 * Work out @cpu's caps from scratch: hardware, then its cpufreq table,
 * then nothing; the overrides replace the frequencies.  Sleeps (IPIs for
 * MSRs, CPPC mailboxes).  False, with @st unset, when the policy is
 * busy (see freq_inv_read_policy()).
 */
static bool freq_inv_resolve(unsigned int cpu, struct freq_inv_stored *st)
{
	struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	struct freq_inv_policy_info pol;
	struct freq_inv_hw hw = { };
	int err = freq_inv_backend_err;

	lockdep_assert_held(&freq_inv_lock);
	if (!freq_inv_read_policy(cpu, &pol))
		return false;

	if (!err)
		err = freq_inv_backend->read(cpu, pol.max_p_khz, &hw);
	if (!err && !freq_inv_hw_sane(&hw)) {
		pr_warn_once("cpu%u: firmware reports max_P %u kHz, max_boost %u kHz, ratio %u: ignored\n",
			     cpu, hw.max_p_khz, hw.max_boost_khz,
			     hw.kernel_ratio);
		err = -ERANGE;
	}
	if (err && err != fc->hw_err)
		pr_debug("cpu%u: no hardware frequencies (%pe)\n", cpu,
			 ERR_PTR(err));
	fc->hw_err = err;

	memset(st, 0, sizeof(*st));
	st->valid = true;
	st->boost_switch = pol.boost_switch;
	st->kernel_ratio = SCHED_CAPACITY_SCALE;
	/* A platform fact, whoever gives max_P and max_boost */
	if (!err)
		st->efficient_khz = hw.efficient_khz;

	if (freq_inv_overridden()) {
		st->source = FREQ_INV_SRC_OVERRIDE;
		st->max_p_khz = freq_inv_max_p.khz;
		st->max_boost_khz = freq_inv_max_boost.khz;
		/*
		 * Firmware reporting wrong frequencies does not change the
		 * ratio Linux computed from it; without hardware, apply the
		 * vendor's 6.1 rule to the given frequencies.
		 */
		if (!err)
			st->kernel_ratio = hw.kernel_ratio;
		else if (freq_inv_backend)
			st->kernel_ratio = freq_inv_backend->override_ratio(st->max_p_khz,
									    st->max_boost_khz);
	} else if (!err) {
		st->source = freq_inv_backend->source;
		st->max_p_khz = hw.max_p_khz;
		st->max_boost_khz = hw.max_boost_khz;
		st->kernel_ratio = hw.kernel_ratio;
	} else if (pol.max_p_khz) {
		/* Linux 6.1 has no invariance without CPPC/MSRs: ratio 1024 */
		st->source = FREQ_INV_SRC_CPUFREQ;
		st->max_p_khz = pol.max_p_khz;
		st->max_boost_khz = max(pol.max_boost_khz, pol.max_p_khz);
	} else {
		st->source = FREQ_INV_SRC_NONE;
		st->max_p_khz = pol.cpuinfo_max_khz;
		st->max_boost_khz = pol.cpuinfo_max_khz;
	}
	return true;
}

static void freq_inv_publish(unsigned int cpu,
			     const struct freq_inv_stored *st)
{
	struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	unsigned long flags;

	lockdep_assert_held(&freq_inv_lock);
	/*
	 * IRQs off: a reader in an interrupt on this CPU (the scheduler
	 * tick's update_util hook) would otherwise spin on a half-written
	 * sequence forever.  Pairs with read_seqcount_begin/retry in
	 * freq_inv_load().
	 */
	local_irq_save(flags);
	write_seqcount_begin(&fc->seq);
	fc->st = *st;
	write_seqcount_end(&fc->seq);
	local_irq_restore(flags);
}

/* Re-probe and publish @cpu; false (nothing published) if its policy is busy */
static bool freq_inv_refresh_cpu(unsigned int cpu)
{
	struct freq_inv_stored st;

	if (!freq_inv_resolve(cpu, &st))
		return false;
	freq_inv_publish(cpu, &st);
	return true;
}

/*
 * A policy appeared or went away: re-probe every online CPU.  One work
 * item coalesces the notifications of a driver registering many
 * policies.
 */
static void freq_inv_refresh_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(freq_inv_refresh_work, freq_inv_refresh_fn);

/* Retries of a CPU whose policy is not back yet: 50 x 20 ms */
#define FREQ_INV_RETRY_MAX	50
#define FREQ_INV_RETRY_MS	20
static unsigned int freq_inv_retries;

/*
 * A CPU coming online may be probed here before cpufreq's own online
 * callback re-activated its policy (both are CPUHP_AP_ONLINE_DYN states,
 * ordered by registration).  While a driver is registered, such a CPU
 * keeps the caps it learned from the cpufreq table and is tried again a
 * little later, instead of dropping to "none" for good.
 */
static bool freq_inv_load(unsigned int cpu, struct freq_inv_stored *st);

static bool freq_inv_policy_pending(unsigned int cpu)
{
	struct freq_inv_stored st;

	return freq_inv_load(cpu, &st) && st.source == FREQ_INV_SRC_CPUFREQ &&
	       !cpufreq_cpu_get_raw(cpu) && cpufreq_get_current_driver();
}

/*
 * Never waits for a policy's rwsem while holding freq_inv_lock: module
 * init takes freq_inv_lock after cpuhp_setup_state(), and may run under
 * a scaling_governor store that holds the rwsem (see
 * freq_inv_read_policy()).  A busy policy is tried again a period later,
 * for as long as it stays busy.
 */
static void freq_inv_refresh_fn(struct work_struct *work)
{
	unsigned int cpu;
	bool retry = false, busy = false;

	mutex_lock(&freq_inv_lock);
	for_each_possible_cpu(cpu) {
		if (!per_cpu_ptr(&freq_inv_cpus, cpu)->online)
			continue;
		if (freq_inv_policy_pending(cpu) &&
		    freq_inv_retries < FREQ_INV_RETRY_MAX) {
			retry = true;
			continue;
		}
		if (!freq_inv_refresh_cpu(cpu))
			busy = true;
	}
	freq_inv_retries = retry ? freq_inv_retries + 1 : 0;
	mutex_unlock(&freq_inv_lock);
	if (retry || busy)
		schedule_delayed_work(&freq_inv_refresh_work,
				      msecs_to_jiffies(FREQ_INV_RETRY_MS));
}

/*
 * cpufreq_online() sends CPUFREQ_CREATE_POLICY with the policy's rwsem
 * held, which the refresh takes after freq_inv_lock: queue, never probe
 * here.  A policy notifier costs nothing on the frequency-change path
 * (unlike a transition notifier, which disables fast switch).
 */
static int freq_inv_policy_notify(struct notifier_block *nb,
				  unsigned long event, void *data)
{
	if (event == CPUFREQ_CREATE_POLICY || event == CPUFREQ_REMOVE_POLICY)
		mod_delayed_work(system_wq, &freq_inv_refresh_work, 0);
	return NOTIFY_OK;
}

static struct notifier_block freq_inv_policy_nb = {
	.notifier_call = freq_inv_policy_notify,
};

/* ---------------------------------------------------------------------- */
/* Readers                                                                */
/* ---------------------------------------------------------------------- */

/* Lockless snapshot of @cpu's published caps; false if never probed */
static bool freq_inv_load(unsigned int cpu, struct freq_inv_stored *st)
{
	const struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&fc->seq);
		*st = fc->st;
	} while (read_seqcount_retry(&fc->seq, seq));
	return st->valid;
}

/*
 * Is boost off in cpufreq for @policy's CPU?  With a boost switch, its
 * state; without one (intel_pstate), whether the policy's top frequency
 * still reaches above max_P (no_turbo lowers cpuinfo.max_freq to base).
 * The caller keeps @policy alive, which keeps its driver registered.
 */
static bool freq_inv_boost_off(const struct cpufreq_policy *policy,
			       const struct freq_inv_stored *st)
{
	if (st->boost_switch)
		return !cpufreq_boost_enabled();
	return READ_ONCE(policy->cpuinfo.max_freq) <= st->max_p_khz;
}

static void freq_inv_derive(const struct freq_inv_stored *st, bool boost_off,
			    struct freq_inv_caps *caps)
{
	u32 max_boost = boost_off ? st->max_p_khz : st->max_boost_khz;
	u64 kref;

	caps->max_p_khz = st->max_p_khz;
	caps->max_boost_khz = max_boost;
	caps->midpoint_khz = freq_ratio_midpoint_khz(st->max_p_khz, max_boost);
	caps->kernel_ratio = st->kernel_ratio;
	caps->source = st->source;
	caps->efficient_khz = st->efficient_khz;

	switch (freq_inv_reference) {
	case FREQ_INV_REF_MAX_BOOST:
		caps->reference_khz = max_boost;
		break;
	case FREQ_INV_REF_MIDPOINT:
		caps->reference_khz = caps->midpoint_khz;
		break;
	case FREQ_INV_REF_MAX_P:
		caps->reference_khz = st->max_p_khz;
		break;
	default:
		/* Linux keeps its ratio when acpi-cpufreq turns boost off */
		kref = ((u64)st->max_p_khz * st->kernel_ratio) >>
		       SCHED_CAPACITY_SHIFT;
		caps->reference_khz = min_t(u64, kref, U32_MAX);
		break;
	}
}

/**
 * freq_inv_get_caps() - a CPU's max_P, max_boost, midpoint and reference
 * @cpu: the CPU
 * @caps: filled on success, untouched on error
 *
 * Frequencies in kHz: @caps->max_p_khz is the highest non-boost P-state
 * (AMD: CPPC NominalFrequency, or _PSS P0; Intel: MSR_PLATFORM_INFO bits
 * 15:8 times the bus clock; else the cpufreq table or the parameters);
 * @caps->max_boost_khz the highest boost frequency (AMD: CPPC
 * HighestPerformance / NominalPerformance times max_P; Intel: the 1-core
 * turbo of MSR_TURBO_RATIO_LIMIT or its family's encoding), equal to
 * max_P while boost is off in cpufreq; @caps->reference_khz what capacity
 * 1024 stands for under the reference= parameter; @caps->kernel_ratio
 * Linux 6.1's arch_max_freq_ratio for the CPU, x1024.  An offline CPU
 * keeps the caps it had.
 *
 * Context: any, including the update_util hook (rq lock held, IRQs off):
 * lockless.  The boost state is read from the cpufreq driver: a caller
 * other than the CPU's governor must hold a reference on the CPU's policy
 * (cpufreq_cpu_get()) while one may exist.
 * Return: 0; -EINVAL for @cpu >= nr_cpu_ids or a NULL @caps; -ENODEV when
 * nothing is known about the CPU yet (never probed, or no hardware, no
 * override and no cpufreq policy: max_P 0).
 */
int freq_inv_get_caps(unsigned int cpu, struct freq_inv_caps *caps)
{
	struct cpufreq_policy *policy;
	struct freq_inv_stored st;

	if (!caps || cpu >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_possible(cpu) || !freq_inv_load(cpu, &st) || !st.max_p_khz)
		return -ENODEV;

	policy = cpufreq_cpu_get_raw(cpu);
	freq_inv_derive(&st, policy && freq_inv_boost_off(policy, &st), caps);
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_get_caps);

/* Process-context read for the reports: pins the policy itself */
static int freq_inv_report_caps(unsigned int cpu, struct freq_inv_caps *caps)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);
	struct freq_inv_stored st;
	bool valid = freq_inv_load(cpu, &st);

	if (valid)
		freq_inv_derive(&st, policy && freq_inv_boost_off(policy, &st),
				caps);
	if (policy)
		cpufreq_cpu_put(policy);
	return valid ? 0 : -ENODEV;
}

/**
 * freq_inv_source_name() - name of a caps source, as sysfs shows it
 * @source: the source
 *
 * Context: any.
 * Return: "none", "cppc", "msr", "cpufreq" or "override"; "unknown" for a
 * value outside enum freq_inv_source.
 */
const char *freq_inv_source_name(enum freq_inv_source source)
{
	static const char * const names[] = {
		[FREQ_INV_SRC_NONE]	= "none",
		[FREQ_INV_SRC_CPPC]	= "cppc",
		[FREQ_INV_SRC_MSR]	= "msr",
		[FREQ_INV_SRC_CPUFREQ]	= "cpufreq",
		[FREQ_INV_SRC_OVERRIDE]	= "override",
	};

	if ((unsigned int)source >= ARRAY_SIZE(names))
		return "unknown";
	return names[source];
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_source_name);

/**
 * freq_inv_deliv_source_name() - name of a delivered-frequency source
 * @src: the source
 *
 * Context: any.
 * Return: "aperfmperf", "cppc" or "cpufreq" (as in
 * /sys/kernel/freq_invariance/cpuN/delivered_source); "unknown" for a
 * value outside the enum.
 */
const char *freq_inv_deliv_source_name(enum freq_inv_deliv_source src)
{
	static const char * const names[] = {
		[FREQ_INV_DELIV_APERFMPERF]	= "aperfmperf",
		[FREQ_INV_DELIV_CPUFREQ]	= "cpufreq",
		[FREQ_INV_DELIV_CPPC]		= "cppc",
	};

	if ((unsigned int)src >= ARRAY_SIZE(names))
		return "unknown";
	return names[src];
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_deliv_source_name);

/* Which source answers @cpu's delivered-frequency queries */
static enum freq_inv_deliv_source freq_inv_deliv_source_of(unsigned int cpu)
{
	if (cpu_feature_enabled(X86_FEATURE_APERFMPERF))
		return FREQ_INV_DELIV_APERFMPERF;
	if (freq_inv_cppc_ctrs_active())
		return FREQ_INV_DELIV_CPPC;
	return FREQ_INV_DELIV_CPUFREQ;
}

/* ---------------------------------------------------------------------- */
/* Delivered-frequency sampling                                           */
/* ---------------------------------------------------------------------- */

/**
 * freq_inv_sample_prepare() - snapshot a CPU's counters to start a window
 * @sample: the caller's sample; @sample->cpu must be the current CPU
 *
 * Reads IA32_APERF (MSR 0xe8) and IA32_MPERF (MSR 0xe7) of the current
 * CPU when it has X86_FEATURE_APERFMPERF; else, when the ACPI CPPC
 * feedback counters are in use, takes the totals their sampler published
 * (never the counters themselves: they may need to sleep); else there is
 * nothing to snapshot and freq_inv_delivered_khz() answers from cpufreq.
 *
 * Context: on @sample->cpu with preemption or IRQs disabled (the
 * update_util hook, or an smp_call_function_single() callback).
 * Return: 0; -EINVAL for a NULL @sample or a call on another CPU than
 * @sample->cpu (the sample is left unchanged).
 */
int freq_inv_sample_prepare(struct freq_inv_sample *sample)
{
	if (!sample || sample->cpu != smp_processor_id())
		return -EINVAL;

	if (cpu_feature_enabled(X86_FEATURE_APERFMPERF)) {
		rdmsrq(MSR_IA32_APERF, sample->aperf);
		rdmsrq(MSR_IA32_MPERF, sample->mperf);
	} else if (freq_inv_cppc_ctrs_active()) {
		freq_inv_cppc_ctrs_snapshot(sample->cpu, &sample->cppc_delivered,
					    &sample->cppc_reference);
	}
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_sample_prepare);

/* cpufreq's idea of @cpu's frequency: the last one its driver set */
static int freq_inv_cpufreq_khz(unsigned int cpu, u32 *khz,
				enum freq_inv_deliv_source *src)
{
	/* No cpufreq_quick_get(): it takes locks the rq lock may not nest */
	struct cpufreq_policy *policy = cpufreq_cpu_get_raw(cpu);
	unsigned int cur;

	if (!policy)
		return -ENODATA;
	cur = READ_ONCE(policy->cur);
	if (!cur)
		return -ENODATA;

	*khz = cur;
	*src = FREQ_INV_DELIV_CPUFREQ;
	return 0;
}

/**
 * freq_inv_delivered_khz() - average frequency a CPU delivered in a window
 * @sample: the sample freq_inv_sample_prepare() or the previous call of
 *	this function filled; @sample->cpu must be the current CPU
 * @khz: set to the average delivered frequency, kHz
 * @src: set to who answered; NULL when the caller does not need it
 *
 * With X86_FEATURE_APERFMPERF: max_P * dAPERF / dMPERF over the window
 * since the previous snapshot (IA32_MPERF, MSR 0xe7, ticks at the max_P
 * rate: Intel's base, AMD's P0; IA32_APERF, MSR 0xe8, at the actual
 * rate, both only while the CPU is in C0).  u64 differences survive a
 * counter wrap; a window with no MPERF ticks (spent idle), no APERF
 * ticks, or APERF more than 16 times faster than MPERF (a reset, not a
 * frequency) answers as a CPU without counters does: cpufreq's current
 * frequency for the CPU, READ_ONCE(policy->cur).  Without APERF/MPERF
 * but with the ACPI CPPC feedback counters in use: the reference
 * frequency times d(delivered) / d(reference) of the totals their
 * sampler published since the snapshot, or of its last period in which
 * the CPU ran when the window saw none (freq_inv_cppc_ctrs.c).  Then
 * re-snapshots, so the next call measures the next window.
 *
 * Context: on @sample->cpu with IRQs disabled (the update_util hook, or
 * an smp_call_function_single() callback), with the CPU's policy kept
 * alive (its governor, or a cpufreq_cpu_get() reference).
 * Return: 0 with @khz (and @src) set; -EINVAL for a NULL @sample or @khz
 * or a call on another CPU than @sample->cpu (nothing is changed); -ENODATA when
 * the counters cannot answer and the CPU has no cpufreq policy or its
 * current frequency is unknown.
 */
int freq_inv_delivered_khz(struct freq_inv_sample *sample, u32 *khz,
			   enum freq_inv_deliv_source *src)
{
	enum freq_inv_deliv_source unused;
	struct freq_inv_stored st;
	u64 aperf, mperf, da, dm;
	unsigned int cpu;

	if (!sample || !khz)
		return -EINVAL;
	if (!src)
		src = &unused;
	cpu = smp_processor_id();
	if (sample->cpu != cpu)
		return -EINVAL;

	if (!cpu_feature_enabled(X86_FEATURE_APERFMPERF)) {
		if (freq_inv_cppc_ctrs_active() &&
		    !freq_inv_cppc_ctrs_khz(cpu, &sample->cppc_delivered,
					    &sample->cppc_reference, khz)) {
			*src = FREQ_INV_DELIV_CPPC;
			return 0;
		}
		return freq_inv_cpufreq_khz(cpu, khz, src);
	}

	rdmsrq(MSR_IA32_APERF, aperf);
	rdmsrq(MSR_IA32_MPERF, mperf);
	/* Unsigned differences are right across a 64-bit wrap */
	da = aperf - sample->aperf;
	dm = mperf - sample->mperf;
	sample->aperf = aperf;
	sample->mperf = mperf;

	if (!da || !dm || (da >> FREQ_INV_APERF_MAX_SHIFT) > dm ||
	    !freq_inv_load(cpu, &st) || !st.max_p_khz)
		return freq_inv_cpufreq_khz(cpu, khz, src);

	/*
	 * da <= 16 * dm bounds the quotient by 16 * max_P < 2^32: the
	 * 128-bit intermediate of mul_u64_u64_div_u64() cannot overflow its
	 * 64-bit quotient (a #DE on x86-64).
	 */
	*khz = mul_u64_u64_div_u64(st.max_p_khz, da, dm);
	*src = FREQ_INV_DELIV_APERFMPERF;
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_delivered_khz);

/* ---------------------------------------------------------------------- */
/* sysfs: /sys/kernel/freq_invariance                                     */
/* ---------------------------------------------------------------------- */

static struct kobject *freq_inv_kobj;

static ssize_t reference_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	ssize_t len = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(freq_inv_ref_names); i++)
		len += sysfs_emit_at(buf, len,
				     i == freq_inv_reference ? "%s[%s]" : "%s%s",
				     i ? " " : "", freq_inv_ref_names[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static struct kobj_attribute freq_inv_reference_attr = __ATTR_RO(reference);

/* The caps of the CPU a cpuN directory is named after */
static int freq_inv_kobj_caps(struct kobject *kobj, struct freq_inv_caps *caps)
{
	unsigned int cpu;

	if (kstrtouint(kobject_name(kobj) + strlen("cpu"), 10, &cpu) ||
	    cpu >= nr_cpu_ids)
		return -ENODEV;
	return freq_inv_report_caps(cpu, caps);
}

/*
 * One read-only file per u32 caps field (kHz or a ratio); each read takes
 * the caps in one seqcount section, so a file never mixes two updates.
 */
struct freq_inv_field_attr {
	struct kobj_attribute kattr;
	size_t offset;
};

static ssize_t freq_inv_field_show(struct kobject *kobj,
				   struct kobj_attribute *kattr, char *buf)
{
	const struct freq_inv_field_attr *fattr =
		container_of(kattr, struct freq_inv_field_attr, kattr);
	struct freq_inv_caps caps;
	int err;

	err = freq_inv_kobj_caps(kobj, &caps);
	if (err)
		return err;
	return sysfs_emit(buf, "%u\n", *(u32 *)((char *)&caps + fattr->offset));
}

#define FREQ_INV_FIELD_ATTR(field)					\
static struct freq_inv_field_attr freq_inv_##field##_attr = {		\
	.kattr = {							\
		.attr = { .name = __stringify(field), .mode = 0444 },	\
		.show = freq_inv_field_show,				\
	},								\
	.offset = offsetof(struct freq_inv_caps, field),		\
}

FREQ_INV_FIELD_ATTR(max_p_khz);
FREQ_INV_FIELD_ATTR(max_boost_khz);
FREQ_INV_FIELD_ATTR(midpoint_khz);
FREQ_INV_FIELD_ATTR(reference_khz);
FREQ_INV_FIELD_ATTR(kernel_ratio);

static ssize_t source_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct freq_inv_caps caps;
	int err;

	err = freq_inv_kobj_caps(kobj, &caps);
	if (err)
		return err;
	return sysfs_emit(buf, "%s\n", freq_inv_source_name(caps.source));
}

static struct kobj_attribute freq_inv_source_attr = __ATTR_RO(source);

static ssize_t delivered_source_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	unsigned int cpu;

	if (kstrtouint(kobject_name(kobj) + strlen("cpu"), 10, &cpu) ||
	    cpu >= nr_cpu_ids)
		return -ENODEV;
	return sysfs_emit(buf, "%s\n",
			  freq_inv_deliv_source_name(freq_inv_deliv_source_of(cpu)));
}

static struct kobj_attribute freq_inv_delivered_source_attr =
	__ATTR_RO(delivered_source);

static struct attribute *freq_inv_cpu_attrs[] = {
	&freq_inv_max_p_khz_attr.kattr.attr,
	&freq_inv_max_boost_khz_attr.kattr.attr,
	&freq_inv_midpoint_khz_attr.kattr.attr,
	&freq_inv_reference_khz_attr.kattr.attr,
	&freq_inv_kernel_ratio_attr.kattr.attr,
	&freq_inv_source_attr.attr,
	&freq_inv_delivered_source_attr.attr,
	NULL,
};

static const struct attribute_group freq_inv_cpu_group = {
	.attrs = freq_inv_cpu_attrs,
};

/*
 * The cpuN directories are plain dynamic kobjects: their release is the
 * kernel's kfree, never code of this module, so a release that runs late
 * (CONFIG_DEBUG_KOBJECT_RELEASE) cannot outlive the module's text.  The
 * CPU number is in the name.
 */
static int freq_inv_cpu_kobj_add(unsigned int cpu)
{
	struct kobject *kobj;
	char name[16];
	int err;

	lockdep_assert_held(&freq_inv_lock);
	snprintf(name, sizeof(name), "cpu%u", cpu);
	kobj = kobject_create_and_add(name, freq_inv_kobj);
	if (!kobj)
		return -ENOMEM;
	err = sysfs_create_group(kobj, &freq_inv_cpu_group);
	if (err) {
		kobject_put(kobj);
		return err;
	}
	per_cpu_ptr(&freq_inv_cpus, cpu)->kobj = kobj;
	return 0;
}

/* Remove the directory now (and wait for its readers), free it later */
static void freq_inv_kobj_remove(struct kobject *kobj)
{
	kobject_del(kobj);
	kobject_put(kobj);
}

/* ---------------------------------------------------------------------- */
/* CPU hotplug                                                            */
/* ---------------------------------------------------------------------- */

static enum cpuhp_state freq_inv_cpuhp_state;

/*
 * cpufreq's own online callback lives in CPUHP_AP_ONLINE_DYN too, at the
 * slot taken when the driver registered: it runs after this one when the
 * driver came after us, and the CPU's policy is then not active yet here.
 * So probe now only what can be read now (a CPU never probed, or whose
 * policy is already up), keep the last caps otherwise, and re-probe from
 * the work item, which runs once the bring-up is complete.
 */
static int freq_inv_cpu_online(unsigned int cpu)
{
	struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	struct freq_inv_stored st;
	int err;

	mutex_lock(&freq_inv_lock);
	/*
	 * Never wait for the policy here (see freq_inv_read_policy()): a
	 * busy one keeps the caps it had, or none yet, until the refresh
	 * queued below re-probes it from a work item.
	 */
	if (!freq_inv_load(cpu, &st) || cpufreq_cpu_get_raw(cpu))
		freq_inv_refresh_cpu(cpu);
	fc->online = true;
	/* A missing report must not fail the CPU's bring-up */
	err = freq_inv_cpu_kobj_add(cpu);
	if (err)
		pr_warn("cpu%u: no sysfs report (%pe)\n", cpu, ERR_PTR(err));
	mutex_unlock(&freq_inv_lock);
	mod_delayed_work(system_wq, &freq_inv_refresh_work, 0);
	return 0;
}

static int freq_inv_cpu_offline(unsigned int cpu)
{
	struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	struct kobject *kobj;

	mutex_lock(&freq_inv_lock);
	fc->online = false;
	kobj = fc->kobj;
	fc->kobj = NULL;
	mutex_unlock(&freq_inv_lock);

	/* Waits for readers of its files; they do not take freq_inv_lock */
	if (kobj)
		freq_inv_kobj_remove(kobj);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* debugfs: /sys/kernel/debug/freq_invariance/delivered                   */
/* ---------------------------------------------------------------------- */

static struct dentry *freq_inv_debugfs;

/**
 * struct freq_inv_dbg_sample - one CPU's measurement for debugfs
 * @sample: the sampling API's state
 * @policy: reference held on the CPU's policy across the window
 * @khz: the answer
 * @src: who answered
 * @err: the sampling API's return value
 */
struct freq_inv_dbg_sample {
	struct freq_inv_sample sample;
	struct cpufreq_policy *policy;
	u32 khz;
	enum freq_inv_deliv_source src;
	int err;
};

/* smp_call_function_single() callbacks: on the sampled CPU, IRQs off */
static void freq_inv_dbg_prepare(void *arg)
{
	struct freq_inv_dbg_sample *ds = arg;

	ds->err = freq_inv_sample_prepare(&ds->sample);
}

static void freq_inv_dbg_deliver(void *arg)
{
	struct freq_inv_dbg_sample *ds = arg;

	ds->err = freq_inv_delivered_khz(&ds->sample, &ds->khz, &ds->src);
}

/*
 * "cpuN <khz> <aperfmperf|cppc|cpufreq>" per online CPU, or "cpuN error
 * <errno>": runs the exported sampling API on each CPU over one shared
 * FREQ_INV_DBG_WINDOW_MS window, exactly as the governor would.
 */
static int freq_inv_delivered_show(struct seq_file *m, void *unused)
{
	struct freq_inv_dbg_sample *ds;
	unsigned int cpu;
	int err;

	ds = kcalloc(nr_cpu_ids, sizeof(*ds), GFP_KERNEL);
	if (!ds)
		return -ENOMEM;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		/* The sampler reads policy->cur: keep the policy alive */
		ds[cpu].policy = cpufreq_cpu_get(cpu);
		ds[cpu].sample.cpu = cpu;
		err = smp_call_function_single(cpu, freq_inv_dbg_prepare,
					       &ds[cpu], 1);
		if (err)
			ds[cpu].err = err;
	}
	msleep(FREQ_INV_DBG_WINDOW_MS);
	for_each_online_cpu(cpu) {
		if (!ds[cpu].err) {
			err = smp_call_function_single(cpu,
						       freq_inv_dbg_deliver,
						       &ds[cpu], 1);
			if (err)
				ds[cpu].err = err;
		}
		if (ds[cpu].policy)
			cpufreq_cpu_put(ds[cpu].policy);

		if (ds[cpu].err)
			seq_printf(m, "cpu%u error %d\n", cpu, ds[cpu].err);
		else
			seq_printf(m, "cpu%u %u %s\n", cpu, ds[cpu].khz,
				   freq_inv_deliv_source_name(ds[cpu].src));
	}
	cpus_read_unlock();
	kfree(ds);
	return 0;
}

static int freq_inv_delivered_open(struct inode *inode, struct file *file)
{
	/* One line of at most ~32 bytes per CPU, in one pass */
	return single_open_size(file, freq_inv_delivered_show, NULL,
				32 * nr_cpu_ids + PAGE_SIZE);
}

static const struct file_operations freq_inv_delivered_fops = {
	.owner		= THIS_MODULE,
	.open		= freq_inv_delivered_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* ---------------------------------------------------------------------- */
/* Module init and exit                                                   */
/* ---------------------------------------------------------------------- */

/* The one load message: which sources answered, and why hardware did not */
static void freq_inv_log_summary(void)
{
	unsigned int count[FREQ_INV_SRC_OVERRIDE + 1] = { };
	unsigned int cpu, nr = 0, nr_hw_err = 0, src;
	struct freq_inv_stored st;
	char srcs[96] = "";
	char hw[80] = "";
	size_t len = 0;
	int hw_err = 0;

	mutex_lock(&freq_inv_lock);
	for_each_online_cpu(cpu) {
		if (!freq_inv_load(cpu, &st))
			continue;
		count[st.source]++;
		nr++;
		if (per_cpu_ptr(&freq_inv_cpus, cpu)->hw_err) {
			hw_err = hw_err ?: per_cpu_ptr(&freq_inv_cpus, cpu)->hw_err;
			nr_hw_err++;
		}
	}
	mutex_unlock(&freq_inv_lock);

	for (src = 0; src < ARRAY_SIZE(count); src++) {
		if (count[src])
			len += scnprintf(srcs + len, sizeof(srcs) - len,
					 "%s%s x%u", len ? ", " : "",
					 freq_inv_source_name(src),
					 count[src]);
	}

	if (!freq_inv_backend)
		scnprintf(hw, sizeof(hw), "no backend for this CPU vendor");
	else if (freq_inv_backend_err)
		scnprintf(hw, sizeof(hw), "%s unavailable (%pe)",
			  freq_inv_backend->name,
			  ERR_PTR(freq_inv_backend_err));
	else if (nr_hw_err)
		scnprintf(hw, sizeof(hw), "%s failed on %u (%pe)",
			  freq_inv_backend->name, nr_hw_err, ERR_PTR(hw_err));
	else
		scnprintf(hw, sizeof(hw), "%s", freq_inv_backend->name);

	pr_info("%u CPUs, source %s; hardware: %s; reference=%s; delivered: %s\n",
		nr, nr ? srcs : "-", hw, freq_inv_ref_names[freq_inv_reference],
		freq_inv_deliv_source_name(freq_inv_deliv_source_of(0)));
}

static int __init freq_inv_init(void)
{
	unsigned int cpu;
	int err;

	err = freq_inv_check_params();
	if (err)
		return err;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&freq_inv_cpus, cpu)->seq);

	freq_inv_backend_select();
	/* Without APERF/MPERF, the CPPC counters if they work (one line if not) */
	freq_inv_cppc_ctrs_start();

	freq_inv_kobj = kobject_create_and_add(KBUILD_MODNAME, kernel_kobj);
	if (!freq_inv_kobj) {
		freq_inv_cppc_ctrs_stop();
		return -ENOMEM;
	}
	err = sysfs_create_file(freq_inv_kobj, &freq_inv_reference_attr.attr);
	if (err)
		goto err_kobj;

	/* Before the CPUs: a policy that appears meanwhile is not missed */
	err = cpufreq_register_notifier(&freq_inv_policy_nb,
					CPUFREQ_POLICY_NOTIFIER);
	if (err)
		goto err_kobj;

	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "freq_invariance:online",
				freq_inv_cpu_online, freq_inv_cpu_offline);
	if (err < 0)
		goto err_notifier;
	freq_inv_cpuhp_state = err;

	/* debugfs is a test aid: the module works without it */
	freq_inv_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("delivered", 0444, freq_inv_debugfs, NULL,
			    &freq_inv_delivered_fops);

	freq_inv_log_summary();
	return 0;

err_notifier:
	cpufreq_unregister_notifier(&freq_inv_policy_nb,
				    CPUFREQ_POLICY_NOTIFIER);
	cancel_delayed_work_sync(&freq_inv_refresh_work);
err_kobj:
	freq_inv_kobj_remove(freq_inv_kobj);
	freq_inv_cppc_ctrs_stop();
	return err;
}
module_init(freq_inv_init);

static void __exit freq_inv_exit(void)
{
	/* Waits for readers of the delivered file */
	debugfs_remove_recursive(freq_inv_debugfs);
	cpufreq_unregister_notifier(&freq_inv_policy_nb,
				    CPUFREQ_POLICY_NOTIFIER);
	/* Runs freq_inv_cpu_offline() on each CPU: removes the cpuN dirs */
	cpuhp_remove_state(freq_inv_cpuhp_state);
	/*
	 * Only now: until the state is gone, a CPU coming online queues the
	 * refresh again, and it would run after the module is freed.
	 */
	cancel_delayed_work_sync(&freq_inv_refresh_work);
	freq_inv_kobj_remove(freq_inv_kobj);
	freq_inv_cppc_ctrs_stop();
}
module_exit(freq_inv_exit);

MODULE_DESCRIPTION("Per-CPU max_P/max_boost and delivered frequency for sugov_inv");
MODULE_LICENSE("GPL");
MODULE_VERSION(SUGOV_INV_VERSION);
