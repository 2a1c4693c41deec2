// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: per-CPU max_P, max_boost, midpoint and the running
 * kernel's invariance ratio, and the frequency each CPU delivered, for
 * sugov_inv.  This unit keeps the per-CPU caps and decides when to probe
 * them; the composite module's other units (freq_inv_internal.h) read
 * hardware, resolve, sample, report and parse parameters.
 *
 * Where the numbers come from, per CPU, first that answers
 * (freq_inv_caps_resolve()):
 *   1. hardware, through the vendor backend chosen once at load
 *      (freq_inv_hw.c): ACPI CPPC on AMD, the turbo-ratio MSRs on Intel;
 *   2. the frequency table of the CPU's cpufreq policy;
 *   3. nothing: max_P = max_boost = the policy's cpuinfo.max_freq.
 * The max_p_khz= and max_boost_khz= parameters replace the frequencies of
 * every CPU.  Caps are re-read when a CPU comes online and when a cpufreq
 * policy appears or goes away (the cpufreq driver may load after us).
 *
 * Readers are lockless: the governor reads caps from its update_util hook
 * with the rq lock held and IRQs off, so each CPU's caps sit behind a
 * seqcount whose writers are serialized by freq_inv_lock.  Nothing here
 * touches the kernel's own invariance state (arch_set_max_freq_ratio()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "freq_inv_internal.h"

static_assert(FREQ_RATIO_SCALE == SCHED_CAPACITY_SCALE);

/**
 * struct freq_inv_cpu - per-CPU state
 * @seq: orders lockless readers of @res against freq_inv_publish()
 * @res: the published caps
 * @online: our hotplug callback has run for the CPU; under freq_inv_lock
 * @hw_err: why the hardware backend did not answer at the last refresh
 *	(0 when it did); under freq_inv_lock
 * @kobj: /sys/kernel/freq_invariance/cpuN, NULL while the CPU is offline;
 *	under freq_inv_lock
 */
struct freq_inv_cpu {
	seqcount_t seq;
	struct freq_inv_resolved res;
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

/* ---------------------------------------------------------------------- */
/* Probing and publishing                                                 */
/* ---------------------------------------------------------------------- */

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

/*
 * Work out @cpu's caps from scratch (freq_inv_caps_resolve()).  Sleeps
 * (IPIs for MSRs, CPPC mailboxes).  False, with @res unset, when the
 * policy is busy (see freq_inv_read_policy()).
 */
static bool freq_inv_probe(unsigned int cpu, struct freq_inv_resolved *res)
{
	struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	struct freq_inv_caps_in in = { };
	int err;

	lockdep_assert_held(&freq_inv_lock);
	if (!freq_inv_read_policy(cpu, &in.policy))
		return false;
	freq_inv_hw_in(cpu, &in);
	freq_inv_param_override(&in.override);

	err = freq_inv_caps_resolve(&in, res);
	if (err == -ERANGE && !in.hw_err)
		pr_warn_once("cpu%u: firmware reports max_P %u kHz, max_boost %u kHz, ratio %u: ignored\n",
			     cpu, in.hw.max_p_khz, in.hw.max_boost_khz,
			     in.hw.kernel_ratio);
	if (err && err != fc->hw_err)
		pr_debug("cpu%u: no hardware frequencies (%pe)\n", cpu,
			 ERR_PTR(err));
	fc->hw_err = err;
	return true;
}

static void freq_inv_publish(unsigned int cpu,
			     const struct freq_inv_resolved *res)
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
	fc->res = *res;
	write_seqcount_end(&fc->seq);
	local_irq_restore(flags);
}

/* Re-probe and publish @cpu; false (nothing published) if its policy is busy */
static bool freq_inv_refresh_cpu(unsigned int cpu)
{
	struct freq_inv_resolved res;

	if (!freq_inv_probe(cpu, &res))
		return false;
	freq_inv_publish(cpu, &res);
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
static bool freq_inv_policy_pending(unsigned int cpu)
{
	struct freq_inv_resolved res;

	return freq_inv_load(cpu, &res) && res.source == FREQ_INV_SRC_CPUFREQ &&
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

/**
 * freq_inv_load() - lockless snapshot of a CPU's published caps
 * @cpu: the CPU, below nr_cpu_ids
 * @res: filled
 *
 * Context: any, IRQs off included.
 * Return: true; false when the CPU was never probed (@res then invalid).
 */
bool freq_inv_load(unsigned int cpu, struct freq_inv_resolved *res)
{
	const struct freq_inv_cpu *fc = per_cpu_ptr(&freq_inv_cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&fc->seq);
		*res = fc->res;
	} while (read_seqcount_retry(&fc->seq, seq));
	return res->valid;
}

/* Caps as read through @policy (NULL: none, boost counts as on) */
static void freq_inv_derive(const struct cpufreq_policy *policy,
			    const struct freq_inv_resolved *res,
			    struct freq_inv_caps *caps)
{
	bool boost_off = policy &&
		freq_inv_caps_boost_off(res, cpufreq_boost_enabled(),
					READ_ONCE(policy->cpuinfo.max_freq));

	freq_inv_caps_derive(res, boost_off, freq_inv_param_reference(), caps);
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
 * the running kernel's arch_max_freq_ratio for the CPU, x1024 (Linux
 * 6.1's or 6.12's rules, compat.h).  An offline CPU keeps the caps it had.
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
	struct freq_inv_resolved res;

	if (!caps || cpu >= nr_cpu_ids)
		return -EINVAL;
	if (!cpu_possible(cpu) || !freq_inv_load(cpu, &res) || !res.max_p_khz)
		return -ENODEV;

	freq_inv_derive(cpufreq_cpu_get_raw(cpu), &res, caps);
	return 0;
}
EXPORT_SYMBOL_FREQ_INV(freq_inv_get_caps);

/**
 * freq_inv_report_caps() - a CPU's caps for the reports
 * @cpu: the CPU, below nr_cpu_ids
 * @caps: filled on success
 *
 * freq_inv_get_caps() for process context: pins the policy itself, and
 * answers for a CPU whose max_P is 0 too.
 *
 * Context: process context.
 * Return: 0; -ENODEV when the CPU was never probed.
 */
int freq_inv_report_caps(unsigned int cpu, struct freq_inv_caps *caps)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);
	struct freq_inv_resolved res;
	bool valid = freq_inv_load(cpu, &res);

	if (valid)
		freq_inv_derive(policy, &res, caps);
	if (policy)
		cpufreq_cpu_put(policy);
	return valid ? 0 : -ENODEV;
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
	struct freq_inv_resolved res;
	struct kobject *kobj;

	mutex_lock(&freq_inv_lock);
	/*
	 * Never wait for the policy here (see freq_inv_read_policy()): a
	 * busy one keeps the caps it had, or none yet, until the refresh
	 * queued below re-probes it from a work item.
	 */
	if (!freq_inv_load(cpu, &res) || cpufreq_cpu_get_raw(cpu))
		freq_inv_refresh_cpu(cpu);
	fc->online = true;
	/* A missing report must not fail the CPU's bring-up */
	kobj = freq_inv_sysfs_cpu_add(cpu);
	if (IS_ERR(kobj))
		pr_warn("cpu%u: no sysfs report (%pe)\n", cpu, kobj);
	else
		fc->kobj = kobj;
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
/* Module init and exit                                                   */
/* ---------------------------------------------------------------------- */

/* The one load message: which sources answered, and why hardware did not */
static void freq_inv_log_summary(void)
{
	unsigned int count[FREQ_INV_SRC_NR] = { };
	unsigned int cpu, nr = 0, nr_hw_err = 0, src;
	struct freq_inv_resolved res;
	char srcs[96] = "";
	char hw[80];
	size_t len = 0;
	int hw_err = 0;

	mutex_lock(&freq_inv_lock);
	for_each_online_cpu(cpu) {
		if (!freq_inv_load(cpu, &res))
			continue;
		count[res.source]++;
		nr++;
		if (per_cpu_ptr(&freq_inv_cpus, cpu)->hw_err) {
			hw_err = hw_err ?: per_cpu_ptr(&freq_inv_cpus, cpu)->hw_err;
			nr_hw_err++;
		}
	}
	mutex_unlock(&freq_inv_lock);

	for (src = 0; src < FREQ_INV_SRC_NR; src++) {
		if (count[src])
			len += scnprintf(srcs + len, sizeof(srcs) - len,
					 "%s%s x%u", len ? ", " : "",
					 freq_inv_source_name(src),
					 count[src]);
	}
	freq_inv_hw_describe(hw, sizeof(hw), nr_hw_err, hw_err);

	pr_info("%u CPUs, source %s; hardware: %s; reference=%s; delivered: %s\n",
		nr, nr ? srcs : "-", hw,
		freq_inv_ref_names[freq_inv_param_reference()],
		freq_inv_deliv_source_name(freq_inv_deliv_source()));
}

static int __init freq_inv_init(void)
{
	unsigned int cpu;
	int err;

	err = freq_inv_params_check();
	if (err)
		return err;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&freq_inv_cpus, cpu)->seq);

	freq_inv_hw_select();
	freq_inv_deliv_select();

	err = freq_inv_sysfs_init();
	if (err)
		goto err_deliv;

	/* Before the CPUs: a policy that appears meanwhile is not missed */
	err = cpufreq_register_notifier(&freq_inv_policy_nb,
					CPUFREQ_POLICY_NOTIFIER);
	if (err)
		goto err_sysfs;

	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "freq_invariance:online",
				freq_inv_cpu_online, freq_inv_cpu_offline);
	if (err < 0)
		goto err_notifier;
	freq_inv_cpuhp_state = err;

	freq_inv_log_summary();
	return 0;

err_notifier:
	cpufreq_unregister_notifier(&freq_inv_policy_nb,
				    CPUFREQ_POLICY_NOTIFIER);
	cancel_delayed_work_sync(&freq_inv_refresh_work);
err_sysfs:
	freq_inv_sysfs_exit();
err_deliv:
	freq_inv_deliv_stop();
	return err;
}
module_init(freq_inv_init);

static void __exit freq_inv_exit(void)
{
	cpufreq_unregister_notifier(&freq_inv_policy_nb,
				    CPUFREQ_POLICY_NOTIFIER);
	/* Runs freq_inv_cpu_offline() on each CPU: removes the cpuN dirs */
	cpuhp_remove_state(freq_inv_cpuhp_state);
	/*
	 * Only now: until the state is gone, a CPU coming online queues the
	 * refresh again, and it would run after the module is freed.
	 */
	cancel_delayed_work_sync(&freq_inv_refresh_work);
	/* Waits for readers of the delivered file */
	freq_inv_sysfs_exit();
	freq_inv_deliv_stop();
}
module_exit(freq_inv_exit);

MODULE_DESCRIPTION("Per-CPU max_P/max_boost and delivered frequency for sugov_inv");
MODULE_LICENSE("GPL");
MODULE_VERSION(SUGOV_INV_VERSION);
