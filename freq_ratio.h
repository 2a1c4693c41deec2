/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_ratio: the helpers both pure decoders (amd_cppc_ratio.c,
 * intel_ratio.c) share, in one place.  Builds in the kernel and in user
 * space (tools/fi-probe supplies <linux/types.h>).
 */
#ifndef _FREQ_RATIO_H
#define _FREQ_RATIO_H

#include <linux/types.h>

/**
 * freq_ratio_midpoint_khz() - midpoint of two frequencies, no overflow
 * @max_p_khz: highest non-boost frequency, kHz
 * @max_boost_khz: highest boost frequency, kHz
 *
 * Context: any.
 * Return: (@max_p_khz + @max_boost_khz) / 2 rounded down, in kHz.
 */
static inline u32 freq_ratio_midpoint_khz(u32 max_p_khz, u32 max_boost_khz)
{
	/* Halve first so two values near U32_MAX cannot wrap */
	return max_p_khz / 2 + max_boost_khz / 2 + (max_p_khz & max_boost_khz & 1);
}

/**
 * freq_ratio_fail() - record why a decode failed
 * @reason: where the caller wants the reason (may be NULL)
 * @err: the negative errno to return
 * @why: a short static string, for the caller's one log line
 *
 * Context: any.
 * Return: @err.
 */
static inline int freq_ratio_fail(const char **reason, int err,
				  const char *why)
{
	if (reason)
		*reason = why;
	return err;
}

#endif /* _FREQ_RATIO_H */
