/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-version differences of sugov_inv and freq_invariance, in one place.
 *
 * The sources are written against the newest API (Linux 6.18); this
 * header maps it onto older kernels, down to 6.1 LTS, the minimum.  It
 * tests for the feature itself where a macro shows it, and for the version
 * only where nothing else can tell (a macro argument's form, a renamed
 * function).  No other file tests LINUX_VERSION_CODE, and tools/lint.sh
 * fails on a raw EXPORT_SYMBOL_NS*, MODULE_IMPORT_NS or rdmsrl* outside
 * this file, so a new use cannot bypass it.
 *
 * Compiled and tested: 6.1 and 6.12, Debian 12's two LTS kernels (make
 * check builds against both and runs the tests on both).  Read about, not
 * compiled here: the changes after 6.12 listed below, up to 6.18.
 */
#ifndef _SUGOV_INV_COMPAT_H
#define _SUGOV_INV_COMPAT_H

#ifdef __KERNEL__

#include <linux/export.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/version.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#endif

/*
 * 6.13 made symbol namespaces string literals:
 * EXPORT_SYMBOL_NS_GPL(sym, "NS") and MODULE_IMPORT_NS("NS"), where
 * earlier kernels stringify a bare token, EXPORT_SYMBOL_NS_GPL(sym, NS).
 * Both store the same string, so modules built either way link together.
 */
#define FREQ_INV_NS "FREQ_INVARIANCE"
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define EXPORT_SYMBOL_FREQ_INV(sym) EXPORT_SYMBOL_NS_GPL(sym, FREQ_INV_NS)
#define FREQ_INV_IMPORT_NS() MODULE_IMPORT_NS(FREQ_INV_NS)
#else
#define EXPORT_SYMBOL_FREQ_INV(sym) EXPORT_SYMBOL_NS_GPL(sym, FREQ_INVARIANCE)
#define FREQ_INV_IMPORT_NS() MODULE_IMPORT_NS(FREQ_INVARIANCE)
#endif

/*
 * 6.16 renamed the 64-bit MSR accessors rdmsrl*() to rdmsrq*()
 * (x86/msr: "Rename 'rdmsrl()' to 'rdmsrq()'" and its _safe/_on_cpu
 * siblings) and dropped the old names.  rdmsrq is a macro from 6.16 on;
 * rdmsrq_safe_on_cpu() is a function, hence the version test.
 */
#ifdef CONFIG_X86
#ifndef rdmsrq
#define rdmsrq(msr, val) rdmsrl(msr, val)
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define rdmsrq_safe_on_cpu(cpu, msr, q) rdmsrl_safe_on_cpu(cpu, msr, q)
#endif
#endif

/*
 * 6.14 split worker creation: kthread_create_worker() leaves the thread
 * asleep and the new macro kthread_run_worker() creates and wakes it.
 * Before 6.14, kthread_create_worker() already woke the thread, so it is
 * the kthread_run_worker() of those kernels.
 */
#ifndef kthread_run_worker
#define kthread_run_worker(flags, namefmt, ...) \
	kthread_create_worker(flags, namefmt, ##__VA_ARGS__)
#endif

/*
 * 6.13 added hrtimer_setup(), which takes the timer's callback with its
 * clock and mode, and 6.15 removed hrtimer_init().  Before 6.13 it is
 * hrtimer_init() and an assignment of the callback.  Used by the
 * test-only vcpufreq.ko (selftests/vcpufreq_emu.c).
 */
#include <linux/hrtimer.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * KUNIT_ARRAY_PARAM_DESC(): a parameter generator that names each case
 * by a string member of its struct, in 6.12's include/kunit/test.h and
 * not in 6.1's.  For 6.1, the same on KUNIT_ARRAY_PARAM() with a
 * describer per array.  The KUnit files include this header after
 * <kunit/test.h>, so the test sees the kernel's own macro where it has
 * one (later kernels changed the generator's signature inside it).
 */
#if defined(_KUNIT_TEST_H) && !defined(KUNIT_ARRAY_PARAM_DESC)
#include <linux/string.h>
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)		\
	static void name##_param_desc(typeof(&(array)[0]) c, char *desc) \
	{								\
		strscpy(desc, c->desc_member, KUNIT_PARAM_DESC_SIZE);	\
	}								\
	KUNIT_ARRAY_PARAM(name, array, name##_param_desc)
#endif

/*
 * Whose frequency-invariance rules reference=kernel reproduces: the
 * running kernel's (enum freq_ratio_rules, freq_ratio.h).  Linux 6.12
 * replaced AMD's numerator, 6.1's amd_get_highest_perf() model list, with
 * amd_get_boost_ratio_numerator() (commits 6c09e3b445a1, 279f838a61f9,
 * ad4caad58d91, merged for v6.12-rc1); Intel's rules did not change.
 * Kernels after 6.12 get 6.12's set: checked against 6.12 only.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define FREQ_RATIO_RULES_RUNNING	FREQ_RATIO_RULES_6_12
#else
#define FREQ_RATIO_RULES_RUNNING	FREQ_RATIO_RULES_6_1
#endif

/*
 * Checked and unchanged from 6.1 to 6.18, so nothing to map (recorded so
 * the next port does not have to look again): cpufreq_driver_resolve_freq(),
 * gov_attr_set_init/get/put() and struct governor_attr,
 * cpufreq_add_update_util_hook(), cpufreq_policy_transition_delay_us()
 * (its prototype: its result changed by 6.12, see below),
 * cppc_get_perf_caps() and struct cppc_perf_caps, get_cpu_idle_time_us(),
 * TRACE_EVENT with __field/__entry only (6.10 changed __assign_str(), which
 * sugov_inv_trace.h does not use).  Not used by the two modules, so not
 * mapped: del_timer() (timer_delete() from 6.2, the old name removed in
 * 6.15), from_timer() (timer_container_of() in 6.16).
 */

/*
 * Checked against Debian's 6.12.117 sources (linux-source-6.12): the
 * mappings above take their pre-6.13 branch there, as on 6.1
 * (EXPORT_SYMBOL_NS_GPL() stringifies a bare token, the rdmsrl*() names
 * exist, kthread_create_worker() wakes its thread, hrtimer_setup() does
 * not exist).  Same prototypes,
 * other behaviour, which the modules follow instead of mapping it:
 * cpufreq_policy_transition_delay_us(), the default rate_limit_us of
 * schedutil and sugov_inv, is 1.5 x the transition latency (1 ms without
 * one) where 6.1.192 gives min(latency x 1000, 10 ms);
 * get_cpu_idle_time_us() reads its sums under a seqcount instead of
 * updating them first, with the same result.  struct cppc_perf_caps
 * gained fields nothing here reads.  Outside C: kbuild installs external
 * modules in updates/ (extra/ in 6.1), compressed as the kernel's own
 * (the Makefile's modules_install).
 */

#else /* !__KERNEL__: fi-probe builds the decoders in user space */

/* User space exports nothing: the symbol is ignored (hence no name). */
#define EXPORT_SYMBOL_FREQ_INV(...) extern int fi_probe_no_export

#endif /* __KERNEL__ */

#endif /* _SUGOV_INV_COMPAT_H */
