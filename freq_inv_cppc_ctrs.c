// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: delivered frequency from the ACPI CPPC feedback
 * counters, for CPUs without APERF/MPERF.
 *
 * ACPI 6.5 section 8.4.6.1.2: the Reference Performance Counter counts at
 * the ReferencePerformance level (the nominal level when the register is
 * absent) and the Delivered Performance Counter at the level the CPU
 * actually ran, both only while it is active, so over a window
 *   delivered kHz = ref_khz * d(delivered) / d(reference)
 * with ref_khz = NominalFrequency * ReferencePerformance / NominalPerformance.
 * This is how cppc_cpufreq reads the current frequency on arm64 servers.
 *
 * cppc_get_perf_ctrs() may sleep: counters in PCC space take the PCC
 * channel's rw_semaphore and wait for the platform's doorbell, FFH
 * counters are MSRs read with an IPI (cpc_read_ffh()), and 6.1
 * exports no way to tell a CPU's register space from a module.  Only
 * SystemMemory and SystemIO registers could be read with IRQs off.  So
 * the counters are never read from the governor's update_util hook: a
 * periodic work item reads every online CPU's counters every
 * FREQ_INV_CPPC_PERIOD_MS and publishes running totals behind a
 * seqcount; the hook only takes differences of those totals.  A window
 * shorter than the period, or one the CPU spent idle, answers with the
 * frequency of the last period in which the CPU ran.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <acpi/cppc_acpi.h>

#include "freq_inv_cppc_ctrs.h"

/* Sampling period of the counters, ms: below schedutil's 10 ms windows */
#define FREQ_INV_CPPC_PERIOD_MS	4

/* A busy CPU's counters must move within this long at load, ns */
#define FREQ_INV_CPPC_PROBE_NS	(5 * NSEC_PER_MSEC)

/**
 * struct freq_inv_cppc_cpu - one CPU's feedback counters
 * @seq: orders the hook's lockless reads against the sampler's update
 * @delivered: running total of Delivered Performance Counter ticks
 * @reference: running total of Reference Performance Counter ticks
 * @last_khz: delivered frequency over the last period in which the CPU
 *	ran, kHz; 0 until there was one
 * @raw_delivered: the counter's last raw value (sampler only)
 * @raw_reference: the counter's last raw value (sampler only)
 * @ref_khz: the frequency the reference counter counts at, kHz; 0 when
 *	the CPU's counters are unusable
 *
 * @delivered, @reference and @last_khz are written by the sampler work
 * only (one work item never runs concurrently with itself).
 */
struct freq_inv_cppc_cpu {
	seqcount_t seq;
	u64 delivered;
	u64 reference;
	u32 last_khz;
	u64 raw_delivered;
	u64 raw_reference;
	u32 ref_khz;
};

static DEFINE_PER_CPU(struct freq_inv_cppc_cpu, freq_inv_cppc_cpus);

/* The sampler runs: set once at load, cleared at unload */
static bool freq_inv_cppc_ctrs_on;

static void freq_inv_cppc_sample_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(freq_inv_cppc_work, freq_inv_cppc_sample_fn);

/*
 * The frequency @cpu's reference counter counts at, kHz, into @khz.
 * -ENODEV when the _CPC has no usable nominal level or frequency (the
 * caps backend reports that already), -ENODATA when its counters are
 * unreadable.
 */
static int freq_inv_cppc_ref_khz(unsigned int cpu, u32 *khz)
{
	struct cppc_perf_fb_ctrs ctrs;
	struct cppc_perf_caps caps;
	u64 ref;

	if (cppc_get_perf_caps(cpu, &caps) || !caps.nominal_perf ||
	    !caps.nominal_freq)
		return -ENODEV;
	if (cppc_get_perf_ctrs(cpu, &ctrs) || !ctrs.reference_perf)
		return -ENODATA;
	ref = div64_u64((u64)caps.nominal_freq * 1000 * ctrs.reference_perf,
			caps.nominal_perf);
	if (!ref || ref > U32_MAX)
		return -ENODATA;
	*khz = ref;
	return 0;
}

/*
 * work_on_cpu() callback: do @cpu's counters move while it is busy?
 * Spins without cpu_relax(): under TCG a PAUSE hands the time slice to
 * another vCPU, and this CPU must stay busy for the counters to run.
 */
static long freq_inv_cppc_probe_cpu(void *arg)
{
	unsigned int cpu = smp_processor_id();
	struct cppc_perf_fb_ctrs a, b;
	u64 end;

	if (cppc_get_perf_ctrs(cpu, &a))
		return -EFAULT;
	end = local_clock() + FREQ_INV_CPPC_PROBE_NS;
	while (local_clock() < end)
		barrier();
	if (cppc_get_perf_ctrs(cpu, &b))
		return -EFAULT;
	return a.reference != b.reference && a.delivered != b.delivered ?
	       0 : -ENODATA;
}

/* Read one CPU's counters and publish their increments */
static void freq_inv_cppc_sample_cpu(unsigned int cpu)
{
	struct freq_inv_cppc_cpu *cc = per_cpu_ptr(&freq_inv_cppc_cpus, cpu);
	struct cppc_perf_fb_ctrs ctrs;
	unsigned long flags;
	u64 dd, dr;
	u32 khz = 0;

	if (!cc->ref_khz || cppc_get_perf_ctrs(cpu, &ctrs))
		return;
	/* Unsigned differences are right across a 64-bit wrap */
	dd = ctrs.delivered - cc->raw_delivered;
	dr = ctrs.reference - cc->raw_reference;
	cc->raw_delivered = ctrs.delivered;
	cc->raw_reference = ctrs.reference;
	/* A CPU that did not run, or a reset: no ticks, not a frequency */
	if (freq_ratio_delta_khz(cc->ref_khz, dd, dr, &khz)) {
		dd = 0;
		dr = 0;
	}

	/*
	 * IRQs off: the update_util hook runs in IRQs on this CPU and
	 * would spin on a half-written sequence.  Pairs with
	 * read_seqcount_begin/retry in freq_inv_cppc_load().
	 */
	local_irq_save(flags);
	write_seqcount_begin(&cc->seq);
	cc->delivered += dd;
	cc->reference += dr;
	if (khz)
		cc->last_khz = khz;
	write_seqcount_end(&cc->seq);
	local_irq_restore(flags);
}

static void freq_inv_cppc_sample_fn(struct work_struct *work)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		freq_inv_cppc_sample_cpu(cpu);
	queue_delayed_work(system_unbound_wq, &freq_inv_cppc_work,
			   msecs_to_jiffies(FREQ_INV_CPPC_PERIOD_MS));
}

/* Lockless snapshot of @cpu's totals */
static void freq_inv_cppc_load(unsigned int cpu, u64 *delivered,
			       u64 *reference, u32 *last_khz)
{
	const struct freq_inv_cppc_cpu *cc = per_cpu_ptr(&freq_inv_cppc_cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&cc->seq);
		*delivered = cc->delivered;
		*reference = cc->reference;
		*last_khz = cc->last_khz;
	} while (read_seqcount_retry(&cc->seq, seq));
}

/* freq_inv_sample_prepare() for the counters: start a window, no hardware */
static void freq_inv_cppc_snapshot(struct freq_inv_sample *sample)
{
	u32 last;

	freq_inv_cppc_load(sample->cpu, &sample->cppc_delivered,
			   &sample->cppc_reference, &last);
}

/*
 * freq_inv_delivered_khz() for the counters: over the window when the
 * sampler published ticks in it, else the last period in which the CPU
 * ran; -ENODATA before it ran in any sampled period.  No hardware access.
 */
static int freq_inv_cppc_khz(struct freq_inv_sample *sample, u32 *khz)
{
	unsigned int cpu = sample->cpu;
	u64 d, r, dd, dr;
	u32 last;

	freq_inv_cppc_load(cpu, &d, &r, &last);
	dd = d - sample->cppc_delivered;
	dr = r - sample->cppc_reference;
	sample->cppc_delivered = d;
	sample->cppc_reference = r;
	if (!freq_ratio_delta_khz(per_cpu_ptr(&freq_inv_cppc_cpus, cpu)->ref_khz,
				  dd, dr, khz))
		return 0;
	if (!last)
		return -ENODATA;
	*khz = last;
	return 0;
}

static const struct freq_inv_deliv_ops freq_inv_cppc_ops = {
	.source = FREQ_INV_DELIV_CPPC,
	.snapshot = freq_inv_cppc_snapshot,
	.khz = freq_inv_cppc_khz,
};

/**
 * freq_inv_cppc_ctrs_start() - use the CPPC feedback counters if they work
 *
 * Description: Chooses the counters as the delivered-frequency source when the
 * CPU has no APERF/MPERF, every present CPU has a _CPC with a nominal level and
 * frequency (ACPI CPPC NominalPerformance, NominalFrequency) and readable
 * counters, and every online CPU's counters move while it spins for
 * FREQ_INV_CPPC_PROBE_NS; then starts the sampler.  One log line when a _CPC
 * exists but its counters cannot be used.
 *
 * Context: process context, may sleep (work_on_cpu(), PCC mailboxes).
 * Return: the counters' ops, for freq_inv_deliv_select(); NULL when the
 * CPU has APERF/MPERF, without _CPC or without a nominal level and
 * frequency in it (no line: the load message says CPPC is unavailable),
 * or when a CPU's counters are unreadable or do not move.
 */
const struct freq_inv_deliv_ops *freq_inv_cppc_ctrs_start(void)
{
	unsigned int cpu;
	long err = 0;

	if (boot_cpu_has(X86_FEATURE_APERFMPERF) || !acpi_cpc_valid())
		return NULL;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&freq_inv_cppc_cpus, cpu)->seq);

	for_each_present_cpu(cpu) {
		struct freq_inv_cppc_cpu *cc = per_cpu_ptr(&freq_inv_cppc_cpus, cpu);

		err = freq_inv_cppc_ref_khz(cpu, &cc->ref_khz);
		if (err == -ENODATA)
			pr_info("CPPC feedback counters of cpu%u unreadable: delivered frequency from cpufreq\n",
				cpu);
		if (err)
			return NULL;
	}

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		err = work_on_cpu(cpu, freq_inv_cppc_probe_cpu, NULL);
		if (err)
			break;
	}
	cpus_read_unlock();
	if (err) {
		pr_info("CPPC feedback counters of cpu%u do not advance: delivered frequency from cpufreq\n",
			cpu);
		return NULL;
	}

	/* The sampler's first pass takes the raw values as its base */
	for_each_online_cpu(cpu)
		freq_inv_cppc_sample_cpu(cpu);
	for_each_present_cpu(cpu) {
		struct freq_inv_cppc_cpu *cc = per_cpu_ptr(&freq_inv_cppc_cpus, cpu);

		cc->delivered = 0;
		cc->reference = 0;
		cc->last_khz = 0;
	}
	freq_inv_cppc_ctrs_on = true;
	queue_delayed_work(system_unbound_wq, &freq_inv_cppc_work,
			   msecs_to_jiffies(FREQ_INV_CPPC_PERIOD_MS));
	return &freq_inv_cppc_ops;
}

/**
 * freq_inv_cppc_ctrs_stop() - stop the sampler
 *
 * Context: process context, may sleep; after the last reader (the
 * governor holds a reference on this module while it samples).
 */
void freq_inv_cppc_ctrs_stop(void)
{
	if (!freq_inv_cppc_ctrs_on)
		return;
	/* Also waits for and stops a pass that re-queues itself */
	cancel_delayed_work_sync(&freq_inv_cppc_work);
	freq_inv_cppc_ctrs_on = false;
}

