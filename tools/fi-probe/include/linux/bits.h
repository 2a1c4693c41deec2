/* SPDX-License-Identifier: GPL-2.0-only */
/* fi-probe user-space stand-in for the kernel's <linux/bits.h> */
#ifndef _FI_PROBE_LINUX_BITS_H
#define _FI_PROBE_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

#endif /* _FI_PROBE_LINUX_BITS_H */
