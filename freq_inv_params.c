// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: its module parameters, reference=, max_p_khz= and
 * max_boost_khz=.  As sugov_inv's: the ops only parse and record, one
 * __init check judges every value at load (so a bad one gives exactly one
 * message of ours, not the kernel's generic "invalid for parameter" line
 * too), and the get ops use sysfs_emit().  All are 0444: they cannot
 * change under a running governor.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "freq_inv_internal.h"

const char * const freq_inv_ref_names[FREQ_INV_REF_NR] = {
	[FREQ_INV_REF_KERNEL]		= "kernel",
	[FREQ_INV_REF_MAX_BOOST]	= "max_boost",
	[FREQ_INV_REF_MIDPOINT]		= "midpoint",
	[FREQ_INV_REF_MAX_P]		= "max_P",
};

/* Index into freq_inv_ref_names, or a negative errno for an unknown name */
static int freq_inv_reference = FREQ_INV_REF_KERNEL;
/* The unknown name, for the message */
static char freq_inv_reference_bad[24];

static int freq_inv_reference_set(const char *val,
				  const struct kernel_param *kp)
{
	freq_inv_reference = sysfs_match_string(freq_inv_ref_names, val);
	if (freq_inv_reference < 0)
		strscpy(freq_inv_reference_bad, val,
			sizeof(freq_inv_reference_bad));
	return 0;
}

static int freq_inv_reference_get(char *buf, const struct kernel_param *kp)
{
	if (freq_inv_reference < 0)
		return sysfs_emit(buf, "(invalid)\n");
	return sysfs_emit(buf, "%s\n", freq_inv_ref_names[freq_inv_reference]);
}

static const struct kernel_param_ops freq_inv_reference_ops = {
	.set = freq_inv_reference_set,
	.get = freq_inv_reference_get,
};
module_param_cb(reference, &freq_inv_reference_ops, NULL, 0444);
MODULE_PARM_DESC(reference,
		 "What capacity 1024 stands for: kernel (default: the running kernel's ratio on this CPU), max_boost, midpoint or max_P");

/**
 * struct freq_inv_khz_param - a frequency override parameter
 * @khz: the value, kHz; 0 while not given
 * @err: kstrtouint()'s error for a value that is not a number
 * @given: the parameter was set
 * @raw: the text given, for the message
 */
struct freq_inv_khz_param {
	unsigned int khz;
	int err;
	bool given;
	char raw[16];
};

static struct freq_inv_khz_param freq_inv_max_p;
static struct freq_inv_khz_param freq_inv_max_boost;

static int freq_inv_khz_set(const char *val, const struct kernel_param *kp)
{
	struct freq_inv_khz_param *p = kp->arg;

	p->given = true;
	strscpy(p->raw, val, sizeof(p->raw));
	p->err = kstrtouint(val, 10, &p->khz);
	return 0;
}

static int freq_inv_khz_get(char *buf, const struct kernel_param *kp)
{
	const struct freq_inv_khz_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", p->err ? 0 : p->khz);
}

static const struct kernel_param_ops freq_inv_khz_ops = {
	.set = freq_inv_khz_set,
	.get = freq_inv_khz_get,
};
module_param_cb(max_p_khz, &freq_inv_khz_ops, &freq_inv_max_p, 0444);
MODULE_PARM_DESC(max_p_khz,
		 "Override max_P of every CPU, kHz (1..10000000; with max_boost_khz; default: from hardware)");
module_param_cb(max_boost_khz, &freq_inv_khz_ops, &freq_inv_max_boost, 0444);
MODULE_PARM_DESC(max_boost_khz,
		 "Override max_boost of every CPU, kHz (max_p_khz..10000000, less than 256 x max_p_khz; with max_p_khz; default: from hardware)");

static int __init freq_inv_bad_khz(const char *name,
				   const struct freq_inv_khz_param *p, u32 min)
{
	pr_err("%s=%s: not a frequency in %u..%u kHz\n", name, p->raw, min,
	       FREQ_INV_MAX_KHZ);
	return -EINVAL;
}

/**
 * freq_inv_params_check() - judge the parameters given at load
 *
 * Description: The override's rules are freq_inv_caps_check_override()'s
 * (fi-probe's --max-p-khz/--max-boost-khz follow the same); a value that is not
 * a number counts as out of range.
 *
 * Context: module init.
 * Return: 0 when all fit; -EINVAL for the first bad parameter, -ERANGE
 * for a boost ratio above FREQ_INV_MAX_BOOST_RATIO, with one message.
 */
int __init freq_inv_params_check(void)
{
	u32 max_p = freq_inv_max_p.err ? 0 : freq_inv_max_p.khz;
	u32 max_boost = freq_inv_max_boost.err ? 0 : freq_inv_max_boost.khz;

	if (freq_inv_reference < 0) {
		pr_err("reference=%s: unknown, expected one of: kernel max_boost midpoint max_P\n",
		       freq_inv_reference_bad);
		return -EINVAL;
	}
	if (freq_inv_max_p.given != freq_inv_max_boost.given) {
		pr_err("max_p_khz= and max_boost_khz= override together: give both or neither\n");
		return -EINVAL;
	}
	if (!freq_inv_max_p.given)
		return 0;

	switch (freq_inv_caps_check_override(max_p, max_boost)) {
	case FREQ_INV_OVERRIDE_OK:
		return 0;
	case FREQ_INV_OVERRIDE_MAX_P_RANGE:
		return freq_inv_bad_khz("max_p_khz", &freq_inv_max_p, 1);
	case FREQ_INV_OVERRIDE_BELOW:
		pr_err("max_boost_khz=%u is below max_p_khz=%u\n", max_boost,
		       max_p);
		return -EINVAL;
	case FREQ_INV_OVERRIDE_MAX_BOOST_RANGE:
		return freq_inv_bad_khz("max_boost_khz", &freq_inv_max_boost,
					max_p);
	case FREQ_INV_OVERRIDE_RATIO:
	default:
		pr_err("max_boost_khz=%u is more than %u times max_p_khz=%u\n",
		       max_boost, FREQ_INV_MAX_BOOST_RATIO, max_p);
		return -ERANGE;
	}
}

/**
 * freq_inv_param_reference() - the reference= choice
 *
 * Context: any, after freq_inv_params_check() passed.
 * Return: the choice.
 */
enum freq_inv_reference freq_inv_param_reference(void)
{
	return freq_inv_reference;
}

/**
 * freq_inv_param_override() - the max_p_khz= / max_boost_khz= override
 * @o: filled; @o->given false when there is none
 *
 * Context: any, after freq_inv_params_check() passed.
 */
void freq_inv_param_override(struct freq_inv_override *o)
{
	o->given = freq_inv_max_p.given;
	o->max_p_khz = freq_inv_max_p.khz;
	o->max_boost_khz = freq_inv_max_boost.khz;
}
