// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the module parameters, the defaults of every new tunables
 * set, each named as the tunable it sets (freq_max_policy=,
 * rate_limit_us=, overutil_threshold_pct=, idle_restore_us=,
 * chain_window_us=).  Each is
 * recorded as given and judged once, in module init, by the parser and
 * ranges of the sysfs stores (sugov_inv_sysfs.c): a bad value refuses the
 * load with one log line.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/moduleparam.h>
#include <linux/stringify.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "sugov_inv_internal.h"

/*
 * What a new tunables set starts with, once module init has judged the
 * parameters.  A rate limit of UINT_MAX (none given) means the driver's
 * transition delay, as in schedutil.
 */
static unsigned int sugov_inv_default_fmax = SUGOV_INV_MAX_BOOST;
static unsigned int sugov_inv_default_rate_limit_us = UINT_MAX;
static unsigned int sugov_inv_default_threshold_pct = SUGOV_INV_THRESHOLD_DEFAULT_PCT;
/* The memory for work that arrives on an idle CPU (Documentation/design.rst) */
static unsigned int sugov_inv_default_idle_restore_us = SUGOV_INV_IDLE_RESTORE_DEFAULT_US;
/* The chain rule's window (Documentation/design.rst, "Chains of CPUs") */
static unsigned int sugov_inv_default_chain_window_us = SUGOV_INV_CHAIN_WINDOW_DEFAULT_US;

/**
 * struct sugov_inv_param - one module parameter, as given
 * @given_as: the name it was given under (NULL: not given)
 * @arg: the value as given, truncated to fit
 * @truncated: it did not fit
 * @names: the names a value may take, indexed by the value; NULL for a
 *	number
 * @min: smallest number, or 0 for a name
 * @max: largest number, or the last name's index
 * @val: the default it sets, once judged
 *
 * A parameter is only recorded when set, and judged in module init
 * (sugov_inv_check_params()): a set() that fails makes the kernel log the
 * whole value ("`...' invalid for parameter"), which would be a second log
 * line, and one as long as whatever was passed.  A value that does not fit
 * is refused.
 */
struct sugov_inv_param {
	const char *given_as;
	char arg[24];
	bool truncated;
	const char * const *names;
	unsigned int min, max;
	unsigned int *val;
};

static int sugov_inv_param_set(const char *val, const struct kernel_param *kp)
{
	struct sugov_inv_param *p = kp->arg;

	p->given_as = kp->name;
	p->truncated = strscpy(p->arg, val, sizeof(p->arg)) < 0;
	return 0;
}

/* The value new tunables get: a name, a number, or -1 (the driver's delay) */
static int sugov_inv_param_get(char *buf, const struct kernel_param *kp)
{
	const struct sugov_inv_param *p = kp->arg;

	if (p->names)
		return sysfs_emit(buf, "%s\n", p->names[*p->val]);
	if (*p->val == UINT_MAX)
		return sysfs_emit(buf, "-1\n");
	return sysfs_emit(buf, "%u\n", *p->val);
}

static const struct kernel_param_ops sugov_inv_param_ops = {
	.set = sugov_inv_param_set,
	.get = sugov_inv_param_get,
};

#define SUGOV_INV_PARAM(_name, _names, _min, _max, _val)			\
	static struct sugov_inv_param sugov_inv_param_##_name = {		\
		.names = (_names), .min = (_min), .max = (_max),		\
		.val = (_val) };						\
	module_param_cb(_name, &sugov_inv_param_ops,				\
			&sugov_inv_param_##_name, 0444)

SUGOV_INV_PARAM(freq_max_policy, sugov_inv_fmax_names, 0,
		SUGOV_INV_NR_FMAX - 1, &sugov_inv_default_fmax);
MODULE_PARM_DESC(freq_max_policy,
		 "freq_max_policy of new tunables: max_P, midpoint, max_boost (default), overutil-detect or noinv");
SUGOV_INV_PARAM(rate_limit_us, NULL, 0, SUGOV_INV_RATE_LIMIT_MAX_US,
		&sugov_inv_default_rate_limit_us);
MODULE_PARM_DESC(rate_limit_us,
		 "rate_limit_us of new tunables, 0..1000000 (default: the driver's transition delay)");
SUGOV_INV_PARAM(overutil_threshold_pct, NULL, SUGOV_INV_THRESHOLD_MIN_PCT,
		SUGOV_INV_THRESHOLD_MAX_PCT, &sugov_inv_default_threshold_pct);
MODULE_PARM_DESC(overutil_threshold_pct,
		 "overutil_threshold_pct of new tunables, 1..100 (default 80)");
SUGOV_INV_PARAM(idle_restore_us, NULL, 0, SUGOV_INV_RULE_MAX_US,
		&sugov_inv_default_idle_restore_us);
MODULE_PARM_DESC(idle_restore_us,
		 "idle_restore_us of new tunables, 0 (off)..1000000 (default "
		 __stringify(SUGOV_INV_IDLE_RESTORE_DEFAULT_US) ")");
SUGOV_INV_PARAM(chain_window_us, NULL, 0, SUGOV_INV_RULE_MAX_US,
		&sugov_inv_default_chain_window_us);
MODULE_PARM_DESC(chain_window_us,
		 "chain_window_us of new tunables, 0 (off)..1000000 (default "
		 __stringify(SUGOV_INV_CHAIN_WINDOW_DEFAULT_US) ")");

static struct sugov_inv_param *const sugov_inv_params[] __initconst = {
	&sugov_inv_param_freq_max_policy,
	&sugov_inv_param_rate_limit_us,
	&sugov_inv_param_overutil_threshold_pct,
	&sugov_inv_param_idle_restore_us,
	&sugov_inv_param_chain_window_us,
};

/* Set the default from a given parameter: 0, -EINVAL or -ERANGE */
static int __init sugov_inv_param_judge(struct sugov_inv_param *p)
{
	int ret;

	if (p->truncated)
		return -EINVAL;
	if (!p->names)
		return sugov_inv_parse_uint(p->arg, strlen(p->arg), p->min,
					    p->max, p->val);
	ret = __sysfs_match_string(p->names, p->max + 1, p->arg);
	if (ret < 0)
		return ret;
	*p->val = ret;
	return 0;
}

/**
 * sugov_inv_check_params() - judge every parameter given at load
 *
 * Description: Sets the defaults of new tunables from the parameters given,
 * with the parser and ranges of the sysfs stores; logs one line for the first
 * bad one, and then changes nothing.
 *
 * Context: module init.
 * Return: 0, or the first bad parameter's error (-EINVAL, -ERANGE).
 */
int __init sugov_inv_check_params(void)
{
	struct sugov_inv_param *p;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(sugov_inv_params); i++) {
		p = sugov_inv_params[i];
		if (!p->given_as)
			continue;
		ret = sugov_inv_param_judge(p);
		if (!ret)
			continue;
		if (p->names)
			pr_err("%s=%s%s: not one of max_P midpoint max_boost overutil-detect noinv\n",
			       p->given_as, p->arg, p->truncated ? "..." : "");
		else
			pr_err("%s=%s%s: not a number in %u..%u\n", p->given_as,
			       p->arg, p->truncated ? "..." : "", p->min, p->max);
		return ret;
	}
	return 0;
}

/**
 * sugov_inv_tunables_defaults() - fill a new tunables set
 * @tunables: the set
 * @policy: the policy it is created for (its driver's transition delay is
 *	the default rate limit)
 *
 * Context: process (governor init).
 */
void sugov_inv_tunables_defaults(struct sugov_inv_tunables *tunables,
				 struct cpufreq_policy *policy)
{
	unsigned int rate_limit_us = sugov_inv_default_rate_limit_us;

	if (rate_limit_us == UINT_MAX)
		rate_limit_us = cpufreq_policy_transition_delay_us(policy);
	tunables->rate_limit_us = rate_limit_us;
	tunables->freq_max_policy = sugov_inv_default_fmax;
	tunables->overutil_threshold_pct = sugov_inv_default_threshold_pct;
	tunables->idle_restore_us = sugov_inv_default_idle_restore_us;
	tunables->chain_window_us = sugov_inv_default_chain_window_us;
}
