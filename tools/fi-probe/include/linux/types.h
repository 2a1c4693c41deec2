/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fi-probe user-space stand-in for the kernel's <linux/types.h>: the
 * kernel-internal integer names the decoders use, on top of the UAPI one.
 */
#ifndef _FI_PROBE_LINUX_TYPES_H
#define _FI_PROBE_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#endif /* _FI_PROBE_LINUX_TYPES_H */
