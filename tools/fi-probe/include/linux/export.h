/* SPDX-License-Identifier: GPL-2.0-only */
/* fi-probe user-space stand-in for the kernel's <linux/export.h>: no-op */
#ifndef _FI_PROBE_LINUX_EXPORT_H
#define _FI_PROBE_LINUX_EXPORT_H

/* A harmless declaration keeps the trailing ';' valid at file scope */
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	\
	extern int fi_probe_no_export

#endif /* _FI_PROBE_LINUX_EXPORT_H */
