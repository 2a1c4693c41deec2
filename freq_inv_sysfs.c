// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: its reports -- /sys/kernel/freq_invariance/ (the
 * reference choice and one cpuN directory per online CPU, ABI in
 * Documentation/ABI/testing/sysfs-kernel-freq_invariance) and, as a test
 * aid, /sys/kernel/debug/freq_invariance/delivered, which runs the
 * exported sampling API on every CPU as the governor would.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "freq_inv_choices.h"
#include "freq_inv_internal.h"

/* Window the debugfs delivered file measures over, ms */
#define FREQ_INV_DBG_WINDOW_MS	20

static struct kobject *freq_inv_kobj;
static struct dentry *freq_inv_debugfs;

static ssize_t reference_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return freq_inv_emit_choices(buf, freq_inv_ref_names, FREQ_INV_REF_NR,
				     freq_inv_param_reference());
}

static struct kobj_attribute freq_inv_reference_attr = __ATTR_RO(reference);

/* The CPU a cpuN directory is named after */
static int freq_inv_kobj_cpu(struct kobject *kobj, unsigned int *cpu)
{
	if (kstrtouint(kobject_name(kobj) + strlen("cpu"), 10, cpu) ||
	    *cpu >= nr_cpu_ids)
		return -ENODEV;
	return 0;
}

/* The caps of the CPU a cpuN directory is named after */
static int freq_inv_kobj_caps(struct kobject *kobj, struct freq_inv_caps *caps)
{
	unsigned int cpu;

	return freq_inv_kobj_cpu(kobj, &cpu) ?: freq_inv_report_caps(cpu, caps);
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

	if (freq_inv_kobj_cpu(kobj, &cpu))
		return -ENODEV;
	return sysfs_emit(buf, "%s\n",
			  freq_inv_deliv_source_name(freq_inv_deliv_source()));
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

/**
 * freq_inv_sysfs_cpu_add() - create /sys/kernel/freq_invariance/cpuN
 * @cpu: the CPU, named in the directory (its files find their CPU there)
 *
 * The cpuN directories are plain dynamic kobjects: their release is the
 * kernel's kfree, never code of this module, so a release that runs late
 * (CONFIG_DEBUG_KOBJECT_RELEASE) cannot outlive the module's text.
 *
 * Context: process context, freq_inv_lock held (by the caller, who keeps
 * the pointer).
 * Return: the directory; ERR_PTR(-ENOMEM) or another errno on failure.
 */
struct kobject *freq_inv_sysfs_cpu_add(unsigned int cpu)
{
	struct kobject *kobj;
	char name[16];
	int err;

	snprintf(name, sizeof(name), "cpu%u", cpu);
	kobj = kobject_create_and_add(name, freq_inv_kobj);
	if (!kobj)
		return ERR_PTR(-ENOMEM);
	err = sysfs_create_group(kobj, &freq_inv_cpu_group);
	if (err) {
		kobject_put(kobj);
		return ERR_PTR(err);
	}
	return kobj;
}

/**
 * freq_inv_kobj_remove() - remove a directory now, free it later
 * @kobj: a directory of this module
 *
 * Context: process context, may sleep: waits for readers of its files
 * (they do not take freq_inv_lock).
 */
void freq_inv_kobj_remove(struct kobject *kobj)
{
	kobject_del(kobj);
	kobject_put(kobj);
}

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

/**
 * freq_inv_sysfs_init() - create /sys/kernel/freq_invariance and debugfs
 *
 * Context: module init, before the first cpuN directory.
 * Return: 0; -ENOMEM or the error of sysfs_create_file().  debugfs is a
 * test aid: the module works without it, so its errors are not.
 */
int __init freq_inv_sysfs_init(void)
{
	int err;

	freq_inv_kobj = kobject_create_and_add(KBUILD_MODNAME, kernel_kobj);
	if (!freq_inv_kobj)
		return -ENOMEM;
	err = sysfs_create_file(freq_inv_kobj, &freq_inv_reference_attr.attr);
	if (err) {
		freq_inv_kobj_remove(freq_inv_kobj);
		return err;
	}

	freq_inv_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("delivered", 0444, freq_inv_debugfs, NULL,
			    &freq_inv_delivered_fops);
	return 0;
}

/**
 * freq_inv_sysfs_exit() - remove what freq_inv_sysfs_init() created
 *
 * Context: module exit or init's unwinding, after every cpuN directory is
 * gone; waits for readers of the delivered file.
 */
void freq_inv_sysfs_exit(void)
{
	debugfs_remove_recursive(freq_inv_debugfs);
	freq_inv_kobj_remove(freq_inv_kobj);
}
