/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-version differences of the sugov_inv governor, in one place.
 *
 * sugov_inv.c is written against the newest API; this header maps it onto
 * older kernels (down to 6.1 LTS, the minimum) by testing for the feature
 * itself rather than for a version number, so no file tests
 * LINUX_VERSION_CODE.
 */
#ifndef _SUGOV_INV_COMPAT_H
#define _SUGOV_INV_COMPAT_H

#include <linux/kthread.h>
#include <linux/module.h>

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
 * 6.13 made symbol namespaces string literals: MODULE_IMPORT_NS("NS"),
 * where 6.1 stringifies a bare token, MODULE_IMPORT_NS(NS).  Both expand
 * to the same modinfo string, which can be written directly and then means
 * the same on every kernel.
 */
#define SUGOV_INV_IMPORT_NS_FREQ_INVARIANCE() \
	MODULE_INFO(import_ns, "FREQ_INVARIANCE")

#endif /* _SUGOV_INV_COMPAT_H */
