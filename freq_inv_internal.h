/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_invariance internal: what the units of the composite module share
 * with each other (sugov_inv sees freq_invariance.h only).
 *
 *   freq_inv_core.c       per-CPU caps store, probing, hotplug, init/exit
 *   freq_inv_caps.c       pure caps resolver (shared with tools/fi-probe)
 *   freq_inv_hw.c         hardware backends (AMD CPPC, Intel MSRs)
 *   freq_inv_params.c     module parameters
 *   freq_inv_deliv.c      delivered-frequency sources and sampling API
 *   freq_inv_cppc_ctrs.c  the ACPI CPPC feedback-counter source
 *   freq_inv_sysfs.c      /sys/kernel/freq_invariance, debugfs
 */
#ifndef _FREQ_INV_INTERNAL_H
#define _FREQ_INV_INTERNAL_H

#include <linux/types.h>

#include "freq_inv_caps.h"
#include "freq_invariance.h"

struct kobject;

/**
 * struct freq_inv_deliv_ops - a source of delivered frequencies
 * @source: what freq_inv_delivered_khz() reports when @khz answers
 * @snapshot: start a window on the current CPU (@sample->cpu); IRQs or
 *	preemption off, never sleeps
 * @khz: the frequency over the window since the last snapshot or call,
 *	and start the next window; IRQs off, never sleeps; 0 or -ENODATA
 *	when the window measures nothing (the caller then asks cpufreq)
 *
 * One is chosen at load (freq_inv_deliv_select()).
 */
struct freq_inv_deliv_ops {
	enum freq_inv_deliv_source source;
	void (*snapshot)(struct freq_inv_sample *sample);
	int (*khz)(struct freq_inv_sample *sample, u32 *khz);
};

/* freq_inv_core.c */
bool freq_inv_load(unsigned int cpu, struct freq_inv_resolved *res);
int freq_inv_report_caps(unsigned int cpu, struct freq_inv_caps *caps);

/* freq_inv_params.c */
extern const char * const freq_inv_ref_names[FREQ_INV_REF_NR];
int freq_inv_params_check(void);
enum freq_inv_reference freq_inv_param_reference(void);
void freq_inv_param_override(struct freq_inv_override *o);

/* freq_inv_hw.c */
void freq_inv_hw_select(void);
void freq_inv_hw_in(unsigned int cpu, struct freq_inv_caps_in *in);
void freq_inv_hw_describe(char *buf, size_t len, unsigned int nr_failed,
			  int err);

/* freq_inv_deliv.c */
void freq_inv_deliv_select(void);
void freq_inv_deliv_stop(void);
enum freq_inv_deliv_source freq_inv_deliv_source(void);
const char *freq_inv_deliv_source_name(enum freq_inv_deliv_source src);

/* freq_inv_sysfs.c */
int freq_inv_sysfs_init(void);
void freq_inv_sysfs_exit(void);
struct kobject *freq_inv_sysfs_cpu_add(unsigned int cpu);
void freq_inv_kobj_remove(struct kobject *kobj);

#endif /* _FREQ_INV_INTERNAL_H */
