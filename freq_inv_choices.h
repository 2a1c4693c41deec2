/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_inv_choices: the one printer of a sysfs choice list, shared by
 * freq_invariance (reference) and sugov_inv (freq_max_policy).  The
 * kernel habit (scaling_available_governors, /sys/power/mem_sleep):
 * every choice, the active one in brackets, e.g.
 * "max_P midpoint [max_boost] overutil-detect noinv".
 */
#ifndef _FREQ_INV_CHOICES_H
#define _FREQ_INV_CHOICES_H

#include <linux/sysfs.h>
#include <linux/types.h>

/**
 * freq_inv_emit_choices() - print a choice list into a sysfs buffer
 * @buf: the show() buffer (a page)
 * @names: the choices, in the order shown
 * @nr: number of @names
 * @active: index of the active choice (none bracketed when >= @nr)
 *
 * Context: a sysfs show() callback.
 * Return: bytes written, newline included.
 */
static inline ssize_t freq_inv_emit_choices(char *buf,
					    const char * const *names,
					    unsigned int nr, unsigned int active)
{
	ssize_t len = 0;
	unsigned int i;

	for (i = 0; i < nr; i++)
		len += sysfs_emit_at(buf, len, i == active ? "%s[%s]" : "%s%s",
				     i ? " " : "", names[i]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

#endif /* _FREQ_INV_CHOICES_H */
