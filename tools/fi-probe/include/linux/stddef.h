/* SPDX-License-Identifier: GPL-2.0-only */
/* fi-probe user-space stand-in for the kernel's <linux/stddef.h>: NULL */
#ifndef _FI_PROBE_LINUX_STDDEF_H
#define _FI_PROBE_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#endif /* _FI_PROBE_LINUX_STDDEF_H */
