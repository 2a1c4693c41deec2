/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcpufreq's P-state table: parsing table_khz= and checking a table, as
 * pure functions over a struct vcpufreq_table passed in.  They read no
 * parameter, touch no global and log nothing: on bad input they return
 * -EINVAL and write the reason to a buffer, which the driver logs as its
 * one line and the KUnit suite vcpufreq_table compares with the case.
 *
 * Header inlines, as the project's other pure layers: the KUnit module
 * cannot link vcpufreq.ko, whose init registers a cpufreq driver.
 */
#ifndef VCPUFREQ_TABLE_H
#define VCPUFREQ_TABLE_H

#include <linux/cpufreq.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/types.h>

/* At most this many P-states; acpi-cpufreq tables are 3 to ~20 entries. */
#define VCPUFREQ_MAX_STATES	32

/*
 * Highest accepted table value, kHz (100 GHz).  Far above any CPU, and low
 * enough that every frequency stays a valid freq QoS value (an s32).
 */
#define VCPUFREQ_MAX_KHZ	100000000U

/* Longest reason a table function writes, terminating NUL included. */
#define VCPUFREQ_WHY_LEN	96

/*
 * Longest table_khz= entry taken, NUL included: a kHz value has at most
 * 9 digits (VCPUFREQ_MAX_KHZ); the room left covers a sign, leading
 * zeros and the 'b'.  A longer entry is "not a number of kHz".
 */
#define VCPUFREQ_ENTRY_LEN	24

/**
 * struct vcpufreq_table - a P-state table and what the driver derives from it
 * @entries:	the table in the order given (acpi-cpufreq lists highest
 *		first; cpufreq handles unsorted tables), boost entries flagged
 *		CPUFREQ_BOOST_FREQ, driver_data the index, terminated by
 *		CPUFREQ_TABLE_END
 * @nr:		entries before the terminator
 * @max_p_khz:	highest non-boost entry, kHz ("max_P")
 * @max_p_idx:	its index in @entries
 * @max_boost_khz: highest boost entry, kHz, or 0 without one
 */
struct vcpufreq_table {
	struct cpufreq_frequency_table entries[VCPUFREQ_MAX_STATES + 1];
	unsigned int nr;
	unsigned int max_p_khz;
	unsigned int max_p_idx;
	unsigned int max_boost_khz;
};

/**
 * vcpufreq_table_check() - check and terminate the first @n entries of a table
 * @t:		the table, @n entries filled in (frequency and flags)
 * @n:		entries, at most VCPUFREQ_MAX_STATES
 * @why:	the reason on failure
 * @why_len:	size of @why
 *
 * The same checks for presets and table_khz=: every entry 1..
 * VCPUFREQ_MAX_KHZ, none twice, at least one non-boost entry (with boost
 * off the core would be left with no frequency) and no boost entry below
 * the highest non-boost one (boost means above max_P on every CPU this
 * models; a lower one would make max_boost < max_P).
 *
 * Context: any.
 * Return: 0 with @t complete; -EINVAL with @why set and @t->nr 0.
 */
static inline int vcpufreq_table_check(struct vcpufreq_table *t,
				       unsigned int n, char *why,
				       size_t why_len)
{
	unsigned int i, j, khz, max_p = 0, max_p_idx = 0, max_boost = 0;

	t->nr = 0;
	for (i = 0; i < n; i++) {
		khz = t->entries[i].frequency;
		if (!khz || khz > VCPUFREQ_MAX_KHZ) {
			snprintf(why, why_len, "entry %u is %u kHz, must be 1..%u",
				 i + 1, khz, VCPUFREQ_MAX_KHZ);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (t->entries[j].frequency == khz) {
				snprintf(why, why_len,
					 "%u kHz is listed twice", khz);
				return -EINVAL;
			}
		}
		if (t->entries[i].flags & CPUFREQ_BOOST_FREQ) {
			max_boost = max(max_boost, khz);
		} else if (khz > max_p) {
			max_p = khz;
			max_p_idx = i;
		}
	}
	if (!max_p) {
		snprintf(why, why_len, "every entry is a boost entry");
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		khz = t->entries[i].frequency;
		if ((t->entries[i].flags & CPUFREQ_BOOST_FREQ) && khz < max_p) {
			snprintf(why, why_len,
				 "boost entry %u kHz is below the highest non-boost entry %u kHz",
				 khz, max_p);
			return -EINVAL;
		}
	}

	/* driver_data is the index, for the record and the counters. */
	for (i = 0; i < n; i++)
		t->entries[i].driver_data = i;
	t->entries[n].frequency = CPUFREQ_TABLE_END;
	t->nr = n;
	t->max_p_khz = max_p;
	t->max_p_idx = max_p_idx;
	t->max_boost_khz = max_boost;
	return 0;
}

/**
 * vcpufreq_table_fill() - a table from a list of frequencies
 * @t:		the table to fill
 * @khz:	frequencies, kHz, in table order
 * @n:		entries in @khz, at most VCPUFREQ_MAX_STATES
 * @nr_boost:	how many leading entries of @khz are boost states
 * @why:	the reason on failure
 * @why_len:	size of @why
 *
 * Context: any.
 * Return: as vcpufreq_table_check(); -EINVAL also for @n too large.
 */
static inline int vcpufreq_table_fill(struct vcpufreq_table *t,
				      const unsigned int *khz, unsigned int n,
				      unsigned int nr_boost, char *why,
				      size_t why_len)
{
	unsigned int i;

	t->nr = 0;
	if (n > VCPUFREQ_MAX_STATES) {
		snprintf(why, why_len, "more than %u entries",
			 VCPUFREQ_MAX_STATES);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		t->entries[i].frequency = khz[i];
		t->entries[i].flags = i < nr_boost ? CPUFREQ_BOOST_FREQ : 0;
	}
	return vcpufreq_table_check(t, n, why, why_len);
}

/**
 * vcpufreq_table_parse() - a table from table_khz=
 * @t:		the table to fill
 * @spec:	kHz values separated by commas, boost ones ending in 'b',
 *		e.g. "3400000b,2250000,2000000,1500000"
 * @why:	the reason on failure
 * @why_len:	size of @why
 *
 * Each entry is read by kstrtouint(), which rejects an empty string,
 * spaces, a '-' and anything after the number but one newline.
 *
 * Context: any.
 * Return: as vcpufreq_table_check(); -EINVAL also for an empty @spec, an
 * empty entry, one that is not a number and more than VCPUFREQ_MAX_STATES
 * entries.
 */
static inline int vcpufreq_table_parse(struct vcpufreq_table *t,
				       const char *spec, char *why,
				       size_t why_len)
{
	char tok[VCPUFREQ_ENTRY_LEN];
	const char *cur = spec, *end;
	unsigned int n = 0, khz;
	size_t len;

	t->nr = 0;
	if (!*spec) {
		snprintf(why, why_len, "empty table");
		return -EINVAL;
	}
	for (;;) {
		end = strchrnul(cur, ',');
		len = end - cur;
		if (n == VCPUFREQ_MAX_STATES) {
			snprintf(why, why_len, "more than %u entries",
				 VCPUFREQ_MAX_STATES);
			return -EINVAL;
		}
		if (!len) {
			snprintf(why, why_len, "entry %u is empty", n + 1);
			return -EINVAL;
		}
		t->entries[n].flags = 0;
		if (cur[len - 1] == 'b') {
			t->entries[n].flags = CPUFREQ_BOOST_FREQ;
			len--;
		}
		if (len >= sizeof(tok))
			goto not_khz;
		memcpy(tok, cur, len);
		tok[len] = '\0';
		if (kstrtouint(tok, 10, &khz))
			goto not_khz;
		t->entries[n++].frequency = khz;
		if (!*end)
			break;
		cur = end + 1;
	}
	return vcpufreq_table_check(t, n, why, why_len);

not_khz:
	snprintf(why, why_len, "entry %u is not a number of kHz", n + 1);
	return -EINVAL;
}

#endif /* VCPUFREQ_TABLE_H */
