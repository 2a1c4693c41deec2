/* SPDX-License-Identifier: GPL-2.0-only */
/* fi-probe user-space stand-in for the kernel's <linux/limits.h> */
#ifndef _FI_PROBE_LINUX_LIMITS_H
#define _FI_PROBE_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <stdint.h>

#define U8_MAX		UINT8_MAX
#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX

#endif /* _FI_PROBE_LINUX_LIMITS_H */
