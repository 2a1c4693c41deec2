// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: system sleep.  A PM notifier marks the stretch from suspend
 * (or hibernation) preparation to its end, so that the hooks neither
 * measure nor evaluate the frozen CPUs' idle time and a window begun
 * before the sleep is not measured across it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/notifier.h>
#include <linux/suspend.h>

#include "sugov_inv_internal.h"

/*
 * System sleep.  From the PM core's PM_SUSPEND_PREPARE (or hibernation's)
 * to its PM_POST_SUSPEND the tasks are being frozen, are frozen, or are
 * not thawed yet: cpufreq_resume() restarts the governors before the
 * thaw.  The CPUs' idle time then says nothing about the load that comes
 * back, and an estimate that folded it in asks for the policy minimum
 * just as the load returns.  So, while @sugov_inv_pm_sleep is set, the
 * hooks neither measure nor evaluate (the frequency stays where the load
 * left it), a governor restart keeps the estimates however long the
 * sleep lasted, and a window begun before the sleep (its pm_seq older
 * than @sugov_inv_pm_seq, advanced at the end) is not measured: the CPU
 * takes a new snapshot and decides on its estimate from before the sleep
 * until a window after the thaw closes.  Written by the PM notifier,
 * read by the hooks (sugov_inv_measure.c too).
 */
bool sugov_inv_pm_sleep;
unsigned int sugov_inv_pm_seq;

/* See sugov_inv_pm_sleep */
static int sugov_inv_pm_notify(struct notifier_block *nb, unsigned long event,
			       void *unused)
{
	switch (event) {
	case PM_SUSPEND_PREPARE:
	case PM_HIBERNATION_PREPARE:
	case PM_RESTORE_PREPARE:
		WRITE_ONCE(sugov_inv_pm_sleep, true);
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		WRITE_ONCE(sugov_inv_pm_seq, sugov_inv_pm_seq + 1);
		/*
		 * A hook that sees the sleep over sees the windows from
		 * before it as such.  Pairs with the smp_rmb() in the hooks'
		 * slow paths.
		 */
		smp_wmb();
		WRITE_ONCE(sugov_inv_pm_sleep, false);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block sugov_inv_pm_nb = {
	.notifier_call = sugov_inv_pm_notify,
};

/**
 * sugov_inv_pm_init() - start following system sleep
 *
 * Description: Called before the governor is registered, so that no governor
 * start misses a sleep.
 *
 * Return: 0, or the error of register_pm_notifier().
 */
int __init sugov_inv_pm_init(void)
{
	return register_pm_notifier(&sugov_inv_pm_nb);
}

/**
 * sugov_inv_pm_exit() - stop following system sleep
 *
 * Called after the governor is unregistered (or init's unwind).
 */
void sugov_inv_pm_exit(void)
{
	unregister_pm_notifier(&sugov_inv_pm_nb);
}
