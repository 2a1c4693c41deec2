/* SPDX-License-Identifier: GPL-2.0-only */
/* fi-probe user-space stand-in for the kernel's <linux/math64.h> */
#ifndef _FI_PROBE_LINUX_MATH64_H
#define _FI_PROBE_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* a * b / c with a 128-bit intermediate, as the kernel's */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (unsigned __int128)a * b / c;
}

#endif /* _FI_PROBE_LINUX_MATH64_H */
