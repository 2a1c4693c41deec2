// SPDX-License-Identifier: GPL-2.0-only
/*
 * sugov_inv: the tunables.  Their sysfs directory (rate_limit_us,
 * freq_max_policy, overutil_threshold_pct, idle_restore_us,
 * chain_window_us; documented in
 * Documentation/ABI/testing/), the parser the stores and the module
 * parameters share, and the tunables' lifetime: one set shared by every
 * policy on x86 (no governor per policy), attached at governor init and
 * freed by the kobject release.
 *
 * Model: drivers/cpufreq/cpufreq_governor_attr_set.c and schedutil's
 * rate_limit_us_store(); unlike ondemand, a store rejects a value out of
 * range rather than clamp it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "freq_inv_choices.h"
#include "sugov_inv_internal.h"

/* The one tunables set of a system without governor-per-policy (x86) */
static struct sugov_inv_tunables *global_tunables;
/* Protects global_tunables and the tunables' policy lists in init/exit */
static DEFINE_MUTEX(global_tunables_lock);

/* sysfs and module-parameter spelling; indexed by enum sugov_inv_fmax */
const char * const sugov_inv_fmax_names[SUGOV_INV_NR_FMAX] = {
	[SUGOV_INV_MAX_P]	= "max_P",
	[SUGOV_INV_MIDPOINT]	= "midpoint",
	[SUGOV_INV_MAX_BOOST]	= "max_boost",
	[SUGOV_INV_OVERUTIL]	= "overutil-detect",
	[SUGOV_INV_NOINV]	= "noinv",
};

static inline struct sugov_inv_tunables *
to_sugov_inv_tunables(struct gov_attr_set *attr_set)
{
	return container_of(attr_set, struct sugov_inv_tunables, attr_set);
}

/*
 * sysfs hands the store all @count bytes written, NUL-terminated after
 * them; kstrtouint() and sysfs_match_string() stop at the first NUL, so
 * "150\0junk" would pass as "150".  Refuse a write with a NUL inside.
 */
static bool sugov_inv_embedded_nul(const char *buf, size_t count)
{
	return strnlen(buf, count) != count;
}

/**
 * sugov_inv_parse_uint() - parse an unsigned tunable or parameter value
 * @buf: the text, NUL-terminated after @count bytes
 * @count: its length
 * @min: smallest value accepted
 * @max: largest value accepted
 * @val: the value, set only on success
 *
 * kstrtouint()'s syntax: decimal, an optional '+', one trailing newline.
 *
 * Context: any (no lock, no sleep).
 * Return: 0; -EINVAL for garbage (a NUL inside @count included); -ERANGE
 * for a number outside [@min, @max].
 */
int sugov_inv_parse_uint(const char *buf, size_t count, unsigned int min,
			 unsigned int max, unsigned int *val)
{
	unsigned int v;

	if (sugov_inv_embedded_nul(buf, count) || kstrtouint(buf, 10, &v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

/* The unsigned tunable at @offset in the set of @attr_set */
static unsigned int *sugov_inv_uint_field(struct gov_attr_set *attr_set,
					  size_t offset)
{
	return (unsigned int *)((char *)to_sugov_inv_tunables(attr_set) +
				offset);
}

static ssize_t sugov_inv_show_uint(struct gov_attr_set *attr_set, char *buf,
				   size_t offset)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(*sugov_inv_uint_field(attr_set, offset)));
}

/*
 * Store an unsigned tunable after checking its range; the value is left
 * as it was on any error.  governor_sysfs_ops holds update_lock around
 * every store; it also keeps policy_list stable.
 */
static ssize_t sugov_inv_store_uint(struct gov_attr_set *attr_set,
				    const char *buf, size_t count,
				    unsigned int min, unsigned int max,
				    size_t offset)
{
	unsigned int val;
	int ret;

	lockdep_assert_held(&attr_set->update_lock);

	ret = sugov_inv_parse_uint(buf, count, min, max, &val);
	if (ret)
		return ret;
	WRITE_ONCE(*sugov_inv_uint_field(attr_set, offset), val);
	return count;
}

/* show of the unsigned tunable _name (file and field have one name) */
#define SUGOV_INV_SHOW_UINT(_name)						\
static ssize_t _name##_show(struct gov_attr_set *attr_set, char *buf)		\
{										\
	return sugov_inv_show_uint(attr_set, buf,				\
				   offsetof(struct sugov_inv_tunables, _name));	\
}

/* store of the unsigned tunable _name, range min..max */
#define SUGOV_INV_STORE_UINT(_name, min, max)					\
static ssize_t _name##_store(struct gov_attr_set *attr_set,			\
			     const char *buf, size_t count)			\
{										\
	return sugov_inv_store_uint(attr_set, buf, count, min, max,		\
				    offsetof(struct sugov_inv_tunables, _name));\
}

SUGOV_INV_SHOW_UINT(rate_limit_us)

/*
 * As schedutil's rate_limit_us_store(): every policy using the set
 * applies the new limit from its next hook call.
 */
static ssize_t rate_limit_us_store(struct gov_attr_set *attr_set,
				   const char *buf, size_t count)
{
	struct sugov_inv_tunables *tunables = to_sugov_inv_tunables(attr_set);
	struct sugov_inv_policy_data *sgp;
	ssize_t ret;

	ret = sugov_inv_store_uint(attr_set, buf, count, 0,
				   SUGOV_INV_RATE_LIMIT_MAX_US,
				   offsetof(struct sugov_inv_tunables,
					    rate_limit_us));
	if (ret < 0)
		return ret;

	list_for_each_entry(sgp, &attr_set->policy_list, tunables_hook)
		sugov_inv_set_rate_limit(sgp, tunables);
	return count;
}

SUGOV_INV_SHOW_UINT(idle_restore_us)
SUGOV_INV_STORE_UINT(idle_restore_us, 0, SUGOV_INV_RULE_MAX_US)

SUGOV_INV_SHOW_UINT(chain_window_us)

/* The probes read the window from sugov_inv_chain.c, not the tunables */
static ssize_t chain_window_us_store(struct gov_attr_set *attr_set,
				     const char *buf, size_t count)
{
	ssize_t ret;

	ret = sugov_inv_store_uint(attr_set, buf, count, 0,
				   SUGOV_INV_RULE_MAX_US,
				   offsetof(struct sugov_inv_tunables,
					    chain_window_us));
	if (ret < 0)
		return ret;
	sugov_inv_chain_set_window(to_sugov_inv_tunables(attr_set)->chain_window_us);
	return count;
}

SUGOV_INV_SHOW_UINT(overutil_threshold_pct)
SUGOV_INV_STORE_UINT(overutil_threshold_pct, SUGOV_INV_THRESHOLD_MIN_PCT,
		     SUGOV_INV_THRESHOLD_MAX_PCT)

static ssize_t freq_max_policy_show(struct gov_attr_set *attr_set, char *buf)
{
	unsigned int active = READ_ONCE(to_sugov_inv_tunables(attr_set)->freq_max_policy);

	return freq_inv_emit_choices(buf, sugov_inv_fmax_names,
				     SUGOV_INV_NR_FMAX, active);
}

static ssize_t freq_max_policy_store(struct gov_attr_set *attr_set,
				     const char *buf, size_t count)
{
	struct sugov_inv_tunables *tunables = to_sugov_inv_tunables(attr_set);
	int i;

	lockdep_assert_held(&attr_set->update_lock);

	/* Exact names only (a trailing newline is allowed) */
	if (sugov_inv_embedded_nul(buf, count))
		return -EINVAL;
	i = sysfs_match_string(sugov_inv_fmax_names, buf);
	if (i < 0)
		return i;

	/* The next evaluation of each policy uses it */
	WRITE_ONCE(tunables->freq_max_policy, i);
	return count;
}

static struct governor_attr rate_limit_us = __ATTR_RW(rate_limit_us);
static struct governor_attr freq_max_policy = __ATTR_RW(freq_max_policy);
static struct governor_attr overutil_threshold_pct =
	__ATTR_RW(overutil_threshold_pct);
static struct governor_attr idle_restore_us = __ATTR_RW(idle_restore_us);
static struct governor_attr chain_window_us = __ATTR_RW(chain_window_us);

static struct attribute *sugov_inv_attrs[] = {
	&rate_limit_us.attr,
	&freq_max_policy.attr,
	&overutil_threshold_pct.attr,
	&idle_restore_us.attr,
	&chain_window_us.attr,
	NULL
};
ATTRIBUTE_GROUPS(sugov_inv);

/*
 * kobject release: the only place the tunables are freed.  It runs when
 * the last reference goes, after gov_attr_set_put() dropped the governor's
 * and after any sysfs reader or writer still inside a show/store.
 */
static void sugov_inv_tunables_free(struct kobject *kobj)
{
	kfree(to_sugov_inv_tunables(to_gov_attr_set(kobj)));
}

static const struct kobj_type sugov_inv_tunables_ktype = {
	.default_groups = sugov_inv_groups,
	.sysfs_ops = &governor_sysfs_ops,
	.release = sugov_inv_tunables_free,
};

/**
 * sugov_inv_tunables_attach() - give a policy its tunables
 * @sgp: the policy's data, not yet published in policy->governor_data
 *
 * Without governor per policy (x86) every policy shares one set: the
 * first attach allocates it with the module parameters' defaults and
 * creates its directory, the others take a reference.
 *
 * Context: process (governor init, the policy's rwsem held); sleeps.
 * Return: 0 with @sgp->tunables set; -ENOMEM, or kobject_init_and_add()'s
 * error, with nothing changed.
 */
int sugov_inv_tunables_attach(struct sugov_inv_policy_data *sgp)
{
	struct cpufreq_policy *policy = sgp->policy;
	struct sugov_inv_tunables *tunables;
	int ret = 0;

	mutex_lock(&global_tunables_lock);

	if (global_tunables) {
		if (WARN_ON(have_governor_per_policy())) {
			ret = -EINVAL;
			goto out;
		}
		gov_attr_set_get(&global_tunables->attr_set,
				 &sgp->tunables_hook);
		sgp->tunables = global_tunables;
		goto out;
	}

	tunables = kzalloc(sizeof(*tunables), GFP_KERNEL);
	if (!tunables) {
		ret = -ENOMEM;
		goto out;
	}
	gov_attr_set_init(&tunables->attr_set, &sgp->tunables_hook);
	sugov_inv_tunables_defaults(tunables, policy);
	sgp->tunables = tunables;

	ret = kobject_init_and_add(&tunables->attr_set.kobj,
				   &sugov_inv_tunables_ktype,
				   get_governor_parent_kobj(policy), "%s",
				   sugov_inv_gov.name);
	if (ret) {
		/* Frees the tunables through sugov_inv_tunables_free() */
		kobject_put(&tunables->attr_set.kobj);
		sgp->tunables = NULL;
		goto out;
	}
	if (!have_governor_per_policy())
		global_tunables = tunables;
out:
	mutex_unlock(&global_tunables_lock);
	return ret;
}

/**
 * sugov_inv_tunables_detach() - drop a policy's reference on its tunables
 * @sgp: the policy's data
 *
 * The last user removes the directory; the kobject release frees the set
 * once no sysfs reader or writer is left inside a show or store.
 *
 * Context: process (governor exit, the policy's rwsem held); sleeps.
 */
void sugov_inv_tunables_detach(struct sugov_inv_policy_data *sgp)
{
	struct sugov_inv_tunables *tunables = sgp->tunables;
	unsigned int count;

	mutex_lock(&global_tunables_lock);
	/*
	 * Linux 6.1's gov_attr_set_put() destroys update_lock before its
	 * kobject_put() removes the files, so a store already inside
	 * governor_store() would lock a destroyed mutex.  The last user
	 * removes the files first, which waits for such stores; usage_count
	 * only changes under global_tunables_lock here.
	 */
	if (tunables->attr_set.usage_count == 1)
		kobject_del(&tunables->attr_set.kobj);
	/* Drops our reference; the last one frees through the release */
	count = gov_attr_set_put(&tunables->attr_set, &sgp->tunables_hook);
	if (!count && !have_governor_per_policy())
		global_tunables = NULL;
	mutex_unlock(&global_tunables_lock);
}
