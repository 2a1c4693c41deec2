// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the module parameters, the defaults of every new tunables
 * set (default_policy=, rate_limit_us=, headroom_pct=,
 * overutil_threshold_pct=, util_halflife_ms=).  Each is recorded as given
 * and judged once, in module init, by the parser and ranges of the sysfs
 * stores (sugov_inv_sysfs.c): a bad value refuses the load with one log
 * line.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "sugov_inv_internal.h"

/*
 * What a new tunables set starts with, once module init has judged the
 * parameters.  A rate limit of UINT_MAX (none given) means the driver's
 * transition delay, as in schedutil.
 */
static unsigned int sugov_inv_default_policy = SUGOV_INV_MAX_BOOST;
static unsigned int sugov_inv_default_rate_limit_us = UINT_MAX;
static unsigned int sugov_inv_default_headroom_pct = SUGOV_INV_HEADROOM_DEFAULT;
static unsigned int sugov_inv_default_overutil_pct = SUGOV_INV_THRESHOLD_DEFAULT_PCT;
static unsigned int sugov_inv_default_halflife_ms = SUGOV_INV_HALFLIFE_DEFAULT_MS;

/*
 * default_policy= is only recorded when set and judged in module init: a
 * parameter's set() that fails makes the kernel log the whole value
 * ("`...' invalid for parameter"), which would be a second log line, and
 * one as long as whatever was passed.  The copy is truncated; a value that
 * did not fit is invalid anyway, since every policy name is short.
 */
static char default_policy_arg[24] = "max_boost";
static bool default_policy_truncated;

static int sugov_inv_default_policy_set(const char *val,
					const struct kernel_param *kp)
{
	default_policy_truncated =
		strscpy(default_policy_arg, val, sizeof(default_policy_arg)) < 0;
	return 0;
}

static int sugov_inv_default_policy_get(char *buf,
					const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", default_policy_arg);
}

static const struct kernel_param_ops sugov_inv_default_policy_ops = {
	.set = sugov_inv_default_policy_set,
	.get = sugov_inv_default_policy_get,
};
module_param_cb(default_policy, &sugov_inv_default_policy_ops, NULL, 0444);
MODULE_PARM_DESC(default_policy,
		 "freq_max_policy of new tunables: max_P, midpoint, max_boost (default), overutil-detect or noinv");

/*
 * The numeric defaults, recorded the same way (one log line on a bad
 * value, from init) and judged by the sysfs stores' own parser and ranges.
 */
struct sugov_inv_uint_param {
	const char *name;
	char arg[16];		/* as given */
	bool given, truncated;
	unsigned int min, max;
	unsigned int *val;
};

#define SUGOV_INV_UINT_PARAM(_name, _min, _max, _val)			\
	static struct sugov_inv_uint_param sugov_inv_param_##_name = {	\
		.name = #_name, .min = (_min), .max = (_max), .val = (_val) }; \
	module_param_cb(_name, &sugov_inv_uint_param_ops,		\
			&sugov_inv_param_##_name, 0444)

static int sugov_inv_uint_param_set(const char *val,
				    const struct kernel_param *kp)
{
	struct sugov_inv_uint_param *p = kp->arg;

	p->given = true;
	p->truncated = strscpy(p->arg, val, sizeof(p->arg)) < 0;
	return 0;
}

/* The value new tunables get; -1 for the driver's rate limit */
static int sugov_inv_uint_param_get(char *buf, const struct kernel_param *kp)
{
	const struct sugov_inv_uint_param *p = kp->arg;

	if (*p->val == UINT_MAX)
		return sysfs_emit(buf, "-1\n");
	return sysfs_emit(buf, "%u\n", *p->val);
}

static const struct kernel_param_ops sugov_inv_uint_param_ops = {
	.set = sugov_inv_uint_param_set,
	.get = sugov_inv_uint_param_get,
};

SUGOV_INV_UINT_PARAM(rate_limit_us, 0, SUGOV_INV_RATE_LIMIT_MAX_US,
		     &sugov_inv_default_rate_limit_us);
MODULE_PARM_DESC(rate_limit_us,
		 "rate_limit_us of new tunables, 0..1000000 (default: the driver's transition delay)");
SUGOV_INV_UINT_PARAM(headroom_pct, SUGOV_INV_HEADROOM_MIN,
		     SUGOV_INV_HEADROOM_MAX, &sugov_inv_default_headroom_pct);
MODULE_PARM_DESC(headroom_pct, "headroom_pct of new tunables, 100..400 (default 125)");
SUGOV_INV_UINT_PARAM(overutil_threshold_pct, SUGOV_INV_THRESHOLD_MIN_PCT,
		     SUGOV_INV_THRESHOLD_MAX_PCT, &sugov_inv_default_overutil_pct);
MODULE_PARM_DESC(overutil_threshold_pct,
		 "overutil_threshold_pct of new tunables, 1..100 (default 80)");
SUGOV_INV_UINT_PARAM(util_halflife_ms, SUGOV_INV_HALFLIFE_MIN_MS,
		     SUGOV_INV_HALFLIFE_MAX_MS, &sugov_inv_default_halflife_ms);
MODULE_PARM_DESC(util_halflife_ms, "util_halflife_ms of new tunables, 1..1000 (default 32)");

static struct sugov_inv_uint_param *const sugov_inv_uint_params[] __initconst = {
	&sugov_inv_param_rate_limit_us,
	&sugov_inv_param_headroom_pct,
	&sugov_inv_param_overutil_threshold_pct,
	&sugov_inv_param_util_halflife_ms,
};

/**
 * sugov_inv_check_params() - judge every parameter given at load
 *
 * Sets the defaults of new tunables from the valid ones; logs one line
 * for the first bad one.
 *
 * Context: module init.
 * Return: 0, or the first bad parameter's error (-EINVAL, -ERANGE).
 */
int __init sugov_inv_check_params(void)
{
	struct sugov_inv_uint_param *p;
	unsigned int i;
	int ret;

	ret = sysfs_match_string(sugov_inv_fmax_names, default_policy_arg);
	if (ret < 0 || default_policy_truncated) {
		pr_err("default_policy=%s%s: not one of max_P midpoint max_boost overutil-detect noinv\n",
		       default_policy_arg,
		       default_policy_truncated ? "..." : "");
		return -EINVAL;
	}
	sugov_inv_default_policy = ret;

	for (i = 0; i < ARRAY_SIZE(sugov_inv_uint_params); i++) {
		p = sugov_inv_uint_params[i];
		if (!p->given)
			continue;
		ret = p->truncated ? -EINVAL :
			sugov_inv_parse_uint(p->arg, strlen(p->arg), p->min,
					     p->max, p->val);
		if (ret) {
			pr_err("%s=%s%s: not a number in %u..%u\n", p->name,
			       p->arg, p->truncated ? "..." : "", p->min, p->max);
			return ret;
		}
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
	tunables->rate_limit_us = sugov_inv_default_rate_limit_us != UINT_MAX ?
		sugov_inv_default_rate_limit_us :
		cpufreq_policy_transition_delay_us(policy);
	tunables->freq_max_policy = sugov_inv_default_policy;
	tunables->headroom_pct = sugov_inv_default_headroom_pct;
	tunables->overutil_threshold_pct = sugov_inv_default_overutil_pct;
	tunables->util_halflife_ms = sugov_inv_default_halflife_ms;
}
