// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpufreq's request record and its debugfs files: every frequency the
 * cpufreq core and its governors ask the driver for, kept in a ring that
 * any context can append to (the scheduler's update_util hook included),
 * and /sys/kernel/debug/vcpufreq/, where the tests read it.
 *
 * /sys/kernel/debug/vcpufreq/:
 *   requests  one line per request, oldest first, the last 65536 kept:
 *             "<time_ns> <cpu> <khz> <fast|slow>", time_ns from
 *             ktime_get_ns() (CLOCK_MONOTONIC), cpu = policy->cpu of the
 *             policy changed, khz = the table entry set (with
 *             target_step_khz=, the rounded frequency set).  The core
 *             calls ->target_index or ->target only when the requested
 *             frequency differs from policy->cur, so slow-path records are
 *             requests for another frequency than the CPU runs; fast-path
 *             ones are every call.
 *   stats     "fast N", "slow N", "total N", "dropped N", "buffered N",
 *             "cpu <cpu> N" per possible CPU, "freq <khz> N" per table entry
 *   cur       "<cpu> <khz>" per possible CPU: the P-state it was last set to
 *   config    "<key> <value>" lines: the table and parameters in effect
 *   reset     write anything: empties the record and zeroes the counters
 *   fail_khz  write a table frequency: the next ->target_index for it
 *             fails (with target_step_khz=, the next ->target asking for
 *             that frequency)
 *   energy    with emulate=1 only: per CPU energy and residency, uncore and
 *             package energy (see vcpufreq_energy_show())
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "vcpufreq.h"

/* Records kept: 64 Ki x 16 bytes = 1 MiB; the oldest are overwritten. */
#define VCPUFREQ_RING_ENTRIES	65536U
/* Slots are sequence numbers masked with (size - 1). */
static_assert((VCPUFREQ_RING_ENTRIES & (VCPUFREQ_RING_ENTRIES - 1)) == 0);

/**
 * struct vcpufreq_record - one frequency request, as stored in the ring
 * @time_ns:	ktime_get_ns() when the driver was called
 * @khz:	frequency the CPUs were set to (a table entry, or the rounded
 *		frequency with target_step_khz=)
 * @cpu:	policy->cpu of the policy that was changed
 * @fast:	1 when it came through ->fast_switch, 0 for ->target_index
 */
struct vcpufreq_record {
	u64 time_ns;
	u32 khz;
	u32 cpu : 31;
	u32 fast : 1;
};

/**
 * struct vcpufreq_log - the request record and its counters
 * @lock:	protects every other field.  A raw spinlock, taken with IRQs
 *		off, because ->fast_switch runs in the scheduler's update_util
 *		hook with the runqueue lock (itself raw) held and IRQs off.
 * @ring:	VCPUFREQ_RING_ENTRIES records, slot = sequence number modulo size
 * @head:	sequence number the next record gets
 * @tail:	oldest sequence number still readable (head - tail <= size)
 * @dropped:	records overwritten before anyone reset the log
 * @nr_fast:	requests through ->fast_switch since the last reset
 * @nr_slow:	requests through ->target_index since the last reset
 * @cpu_count:	requests per policy->cpu, nr_cpu_ids counters
 * @state_count: requests per table entry, in table order
 */
struct vcpufreq_log {
	raw_spinlock_t lock;
	struct vcpufreq_record *ring;
	u64 head;
	u64 tail;
	u64 dropped;
	u64 nr_fast;
	u64 nr_slow;
	u64 *cpu_count;
	u64 state_count[VCPUFREQ_MAX_STATES];
};

static struct vcpufreq_log vcpufreq_log = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(vcpufreq_log.lock),
};

/**
 * vcpufreq_log_alloc() - allocate the request record
 *
 * Context: process context, module init.
 * Return: 0 or -ENOMEM (nothing left allocated).
 */
int vcpufreq_log_alloc(void)
{
	struct vcpufreq_log *log = &vcpufreq_log;

	log->ring = vmalloc(array_size(VCPUFREQ_RING_ENTRIES,
				       sizeof(*log->ring)));
	log->cpu_count = kcalloc(nr_cpu_ids, sizeof(*log->cpu_count),
				 GFP_KERNEL);
	if (!log->ring || !log->cpu_count) {
		vcpufreq_log_free();
		return -ENOMEM;
	}
	return 0;
}

/**
 * vcpufreq_log_free() - free the request record
 *
 * Context: process context, once nothing records any more.
 */
void vcpufreq_log_free(void)
{
	vfree(vcpufreq_log.ring);
	kfree(vcpufreq_log.cpu_count);
	vcpufreq_log.ring = NULL;
	vcpufreq_log.cpu_count = NULL;
}

/**
 * vcpufreq_record() - append one request to the record and count it
 * @cpu:	policy->cpu of the policy that was changed
 * @khz:	the frequency set
 * @idx:	the table entry set, or -1 without a table (target_step_khz=)
 * @fast:	true for ->fast_switch, false for ->target_index or ->target
 *
 * No allocation, a raw spinlock only.
 *
 * Context: any, including the scheduler's update_util hook with IRQs off.
 */
void vcpufreq_record(unsigned int cpu, unsigned int khz, int idx, bool fast)
{
	struct vcpufreq_log *log = &vcpufreq_log;
	struct vcpufreq_record *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&log->lock, flags);
	/* Stamped under the lock so the record is in time order. */
	rec = &log->ring[log->head & (VCPUFREQ_RING_ENTRIES - 1)];
	rec->time_ns = ktime_get_ns();
	rec->khz = khz;
	rec->cpu = cpu;
	rec->fast = fast;

	/* A full ring loses its oldest record to the new one. */
	if (log->head - log->tail == VCPUFREQ_RING_ENTRIES) {
		log->tail++;
		log->dropped++;
	}
	log->head++;

	if (fast)
		log->nr_fast++;
	else
		log->nr_slow++;
	log->cpu_count[cpu]++;
	if (idx >= 0)
		log->state_count[idx]++;
	raw_spin_unlock_irqrestore(&log->lock, flags);
}

/**
 * struct vcpufreq_reader - one open "requests" file
 * @end:	head when the file was opened: a reader sees a snapshot and
 *		always reaches the end, however fast records arrive
 * @rec:	copy of the record being shown, taken under the lock
 */
struct vcpufreq_reader {
	u64 end;
	struct vcpufreq_record rec;
};

/*
 * Copy record number *@pos (a sequence number) into the reader, skipping
 * forward over records overwritten or reset since the file was opened.
 */
static void *vcpufreq_req_fetch(struct seq_file *m, loff_t *pos)
{
	struct vcpufreq_reader *r = m->private;
	struct vcpufreq_log *log = &vcpufreq_log;
	void *ret = NULL;
	u64 seq = *pos;

	raw_spin_lock_irq(&log->lock);
	if (seq < log->tail)
		seq = log->tail;
	if (seq < r->end && seq < log->head) {
		r->rec = log->ring[seq & (VCPUFREQ_RING_ENTRIES - 1)];
		ret = &r->rec;
	}
	raw_spin_unlock_irq(&log->lock);

	*pos = seq;
	return ret;
}

static void *vcpufreq_req_start(struct seq_file *m, loff_t *pos)
{
	return vcpufreq_req_fetch(m, pos);
}

static void *vcpufreq_req_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return vcpufreq_req_fetch(m, pos);
}

static void vcpufreq_req_stop(struct seq_file *m, void *v)
{
}

static int vcpufreq_req_show(struct seq_file *m, void *v)
{
	const struct vcpufreq_record *rec = v;

	seq_printf(m, "%llu %u %u %s\n", rec->time_ns, rec->cpu, rec->khz,
		   rec->fast ? "fast" : "slow");
	return 0;
}

static const struct seq_operations vcpufreq_req_sops = {
	.start	= vcpufreq_req_start,
	.next	= vcpufreq_req_next,
	.stop	= vcpufreq_req_stop,
	.show	= vcpufreq_req_show,
};

/*
 * The seq_file position is the record's sequence number, so it starts at
 * the tail: a reader that opened before a reset or an overwrite simply
 * skips what is gone.
 */
static int vcpufreq_req_open(struct inode *inode, struct file *file)
{
	struct vcpufreq_reader *r;

	r = __seq_open_private(file, &vcpufreq_req_sops, sizeof(*r));
	if (!r)
		return -ENOMEM;

	raw_spin_lock_irq(&vcpufreq_log.lock);
	r->end = vcpufreq_log.head;
	raw_spin_unlock_irq(&vcpufreq_log.lock);
	return 0;
}

static const struct file_operations vcpufreq_req_fops = {
	.owner		= THIS_MODULE,
	.open		= vcpufreq_req_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

/* The counters, copied under the lock and printed outside it. */
static int vcpufreq_stats_show(struct seq_file *m, void *v)
{
	struct vcpufreq_log *log = &vcpufreq_log;
	u64 state_count[VCPUFREQ_MAX_STATES];
	u64 fast, slow, dropped, buffered;
	unsigned int cpu, i;
	u64 *cpu_count;

	cpu_count = kcalloc(nr_cpu_ids, sizeof(*cpu_count), GFP_KERNEL);
	if (!cpu_count)
		return -ENOMEM;

	raw_spin_lock_irq(&log->lock);
	fast = log->nr_fast;
	slow = log->nr_slow;
	dropped = log->dropped;
	buffered = log->head - log->tail;
	memcpy(cpu_count, log->cpu_count, nr_cpu_ids * sizeof(*cpu_count));
	memcpy(state_count, log->state_count, sizeof(state_count));
	raw_spin_unlock_irq(&log->lock);

	seq_printf(m, "fast %llu\nslow %llu\ntotal %llu\n", fast, slow,
		   fast + slow);
	seq_printf(m, "dropped %llu\nbuffered %llu\n", dropped, buffered);
	for_each_possible_cpu(cpu)
		seq_printf(m, "cpu %u %llu\n", cpu, cpu_count[cpu]);
	for (i = 0; i < vcpufreq_table.nr; i++)
		seq_printf(m, "freq %u %llu\n",
			   vcpufreq_table.entries[i].frequency, state_count[i]);
	seq_printf(m, "resumes %u\nresume_ns %llu\n", READ_ONCE(vcpufreq_resumes),
		   READ_ONCE(vcpufreq_resume_ns));

	kfree(cpu_count);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_stats);

static int vcpufreq_cur_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "%u %u\n", cpu, vcpufreq_get(cpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_cur);

/* The emulated machine's constants, for the config file. */
static void vcpufreq_config_emu_show(struct seq_file *m)
{
	const struct vcpufreq_machine *mc = &vcpufreq_machine;
	unsigned int i;

	seq_printf(m, "emulate_boost %d\nemulate_one_thread %d\nemulate_period_us %u\n",
		   vcpufreq_emulate_boost, vcpufreq_emulate_one_thread,
		   vcpufreq_emulate_period_us);
	seq_printf(m, "top_khz %u\nboost_khz %u\nenergy_range_uj %lu\n",
		   mc->top_khz, mc->boost_khz, vcpufreq_energy_range_uj);
	for (i = 0; i < VCPUFREQ_EMU_SLOTS; i++) {
		if (mc->slot_khz[i])
			seq_printf(m, "busy_uw %u %u\n", mc->slot_khz[i],
				   mc->slot_uw[i]);
	}
	seq_printf(m, "idle_uw %u\nuncore_uw %u\n", vcpufreq_em->idle_uw,
		   mc->uncore_uw);
	seq_printf(m, "energy_scope %s\n", vcpufreq_em_scope_names[mc->scope]);
	if (mc->scope == VCPUFREQ_EM_PACKAGE)
		seq_printf(m, "package_cores %u\nidle_cores_uw %u\n",
			   mc->package_cores, mc->idle_cores_uw);
}

/* What was loaded, so a test needs no second copy of the presets. */
static int vcpufreq_config_show(struct seq_file *m, void *v)
{
	const struct vcpufreq_table *t = &vcpufreq_table;
	unsigned int i;

	seq_printf(m, "preset %s\n",
		   vcpufreq_preset ? vcpufreq_preset->name : "custom");
	seq_puts(m, "table_khz ");
	for (i = 0; i < t->nr; i++)
		seq_printf(m, "%s%u%s", i ? "," : "", t->entries[i].frequency,
			   t->entries[i].flags & CPUFREQ_BOOST_FREQ ? "b" : "");
	seq_printf(m, "\nmax_p_khz %u\n", t->max_p_khz);
	seq_printf(m, "max_boost_khz %u\n", t->max_boost_khz);
	seq_printf(m, "hidden_boost_khz %u\n",
		   vcpufreq_preset ? vcpufreq_preset->hidden_boost_khz : 0);
	seq_printf(m, "boost %d\nfast_switch %d\nshared %d\n", vcpufreq_boost,
		   vcpufreq_fast_switch_param, vcpufreq_shared);
	seq_printf(m, "per_policy_tunables %d\ntransition_latency_ns %u\n",
		   vcpufreq_per_policy_tunables,
		   vcpufreq_transition_latency_ns);
	seq_printf(m, "ring_entries %u\n", VCPUFREQ_RING_ENTRIES);
	seq_printf(m, "target_step_khz %u\n", vcpufreq_target_step_khz);
	seq_printf(m, "emulate %d\n", vcpufreq_emulate);
	if (vcpufreq_emulate)
		vcpufreq_config_emu_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_config);

/*
 * The emulated machine's integrals, brought up to the moment of reading:
 *   cpu <cpu> khz <f> energy_uj <n> busy_ns <n> idle_ns <n> stall_ns <n> fires <n> entry_ns <n>
 *   residency <cpu> <khz> <busy ns at khz>     one per slot that ran
 *   uncore energy_uj <n> power_uw <n>
 *   idle_cores energy_uj <n> power_uw <n> count <n>   (whole package only)
 *   package energy_uj <n>                      (not wrapped)
 * busy_ns includes stall_ns; fires counts stall timer callbacks.  The
 * package is the CPUs as shown plus the uncore and idle cores up to the
 * end of the reading, so the parts add up to it (to the rounding to uJ).
 */
static int vcpufreq_energy_show(struct seq_file *m, void *v)
{
	const struct vcpufreq_machine *mc = &vcpufreq_machine;
	struct vcpufreq_emu_package pkg;
	struct vcpufreq_emu_snap snap;
	unsigned int cpu, i;
	u64 cpus_nj = 0;

	for_each_possible_cpu(cpu) {
		vcpufreq_emu_read(cpu, &snap);
		cpus_nj += snap.energy_nj;
		seq_printf(m, "cpu %u khz %u energy_uj %llu busy_ns %llu idle_ns %llu stall_ns %llu fires %llu entry_ns %llu debt_ns %llu\n",
			   cpu, snap.eff_khz, div_u64(snap.energy_nj, 1000),
			   snap.busy_ns, snap.idle_ns, snap.stall_ns,
			   snap.fires, snap.entry_ns, snap.debt_ns);
		for (i = 0; i < VCPUFREQ_EMU_SLOTS; i++) {
			if (mc->slot_khz[i] && snap.slot_ns[i])
				seq_printf(m, "residency %u %u %llu\n", cpu,
					   mc->slot_khz[i], snap.slot_ns[i]);
		}
	}
	vcpufreq_emu_package_of(&pkg, cpus_nj, ktime_get_ns());
	seq_printf(m, "uncore energy_uj %llu power_uw %u\n",
		   div_u64(pkg.uncore_nj, 1000), mc->uncore_uw);
	if (mc->scope == VCPUFREQ_EM_PACKAGE)
		seq_printf(m, "idle_cores energy_uj %llu power_uw %u count %u\n",
			   div_u64(pkg.idle_cores_nj, 1000), mc->idle_cores_uw,
			   mc->idle_cores);
	seq_printf(m, "package energy_uj %llu\n", div_u64(pkg.total_nj, 1000));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_energy);

/* Any write empties the record and zeroes every counter. */
static ssize_t vcpufreq_reset_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	struct vcpufreq_log *log = &vcpufreq_log;

	raw_spin_lock_irq(&log->lock);
	log->tail = log->head;
	log->dropped = 0;
	log->nr_fast = 0;
	log->nr_slow = 0;
	memset(log->cpu_count, 0, nr_cpu_ids * sizeof(*log->cpu_count));
	memset(log->state_count, 0, sizeof(log->state_count));
	raw_spin_unlock_irq(&log->lock);
	return count;
}

static const struct file_operations vcpufreq_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= vcpufreq_reset_write,
	.llseek	= noop_llseek,
};

/*
 * fail_khz: write a table frequency, and the next ->target_index call for
 * it leaves the P-state as it is and fails (-EAGAIN); reads back 0 once
 * that happened.  The core then restores policy->cur, so the CPU runs
 * another frequency than the governor's kthread asked for: what Linux
 * 6.1's __cpufreq_driver_target() does when an update_util hook's
 * cpufreq_driver_resolve_freq() overwrites policy->cached_resolved_idx
 * between its resolve and its ->target_index call, made deterministic for
 * the governor's resync test (selftests/45-resync.sh).
 */
static u32 vcpufreq_fail_khz;

/**
 * vcpufreq_target_fails() - is this the request fail_khz names?
 * @khz:	the frequency ->target_index is about to set
 *
 * Consumes the knob when it is.
 *
 * Context: process context (->target_index).
 * Return: true when the request must fail.
 */
bool vcpufreq_target_fails(unsigned int khz)
{
	return READ_ONCE(vcpufreq_fail_khz) &&
	       cmpxchg(&vcpufreq_fail_khz, khz, 0) == khz;
}

static struct dentry *vcpufreq_debugfs;

/**
 * vcpufreq_debugfs_init() - create /sys/kernel/debug/vcpufreq/
 *
 * Description: debugfs failures are not fatal: the driver works without
 * its record.  Called before the driver registers, since governors start,
 * and ask, during registration.
 *
 * Context: process context, module init, after vcpufreq_log_alloc().
 */
void vcpufreq_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir(KBUILD_MODNAME, NULL);

	debugfs_create_file("requests", 0444, dir, NULL, &vcpufreq_req_fops);
	debugfs_create_file("stats", 0444, dir, NULL, &vcpufreq_stats_fops);
	debugfs_create_file("cur", 0444, dir, NULL, &vcpufreq_cur_fops);
	debugfs_create_file("config", 0444, dir, NULL, &vcpufreq_config_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &vcpufreq_reset_fops);
	debugfs_create_u32("fail_khz", 0600, dir, &vcpufreq_fail_khz);
	if (vcpufreq_emulate)
		debugfs_create_file("energy", 0444, dir, NULL,
				    &vcpufreq_energy_fops);
	vcpufreq_debugfs = dir;
}

/**
 * vcpufreq_debugfs_exit() - remove /sys/kernel/debug/vcpufreq/
 *
 * Description: Waits for open files to leave their handlers.
 *
 * Context: process context.
 */
void vcpufreq_debugfs_exit(void)
{
	debugfs_remove_recursive(vcpufreq_debugfs);
	vcpufreq_debugfs = NULL;
}
