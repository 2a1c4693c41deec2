/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fi-probe user-space stand-in for the kernel's <linux/errno.h>: the UAPI
 * header has the same values (EINVAL, ERANGE, ENODATA, EOPNOTSUPP).  libc's
 * <errno.h> comes back here through <bits/errno.h>, hence include_next.
 */
#ifndef _FI_PROBE_LINUX_ERRNO_H
#define _FI_PROBE_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif /* _FI_PROBE_LINUX_ERRNO_H */
