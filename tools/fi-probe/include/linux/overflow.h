/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fi-probe user-space stand-in for the kernel's <linux/overflow.h>: the
 * kernel implements these with the same compiler builtins.
 */
#ifndef _FI_PROBE_LINUX_OVERFLOW_H
#define _FI_PROBE_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

#endif /* _FI_PROBE_LINUX_OVERFLOW_H */
