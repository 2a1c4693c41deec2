/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_invariance internal: the ACPI CPPC feedback-counter source of the
 * delivered frequency (freq_inv_cppc_ctrs.c), for CPUs without
 * APERF/MPERF.  Without CONFIG_ACPI_CPPC_LIB the stubs say "not in use".
 */
#ifndef _FREQ_INV_CPPC_CTRS_H
#define _FREQ_INV_CPPC_CTRS_H

#include <linux/errno.h>
#include <linux/types.h>

#if IS_ENABLED(CONFIG_ACPI_CPPC_LIB)
int freq_inv_cppc_ctrs_start(void);
void freq_inv_cppc_ctrs_stop(void);
bool freq_inv_cppc_ctrs_active(void);
void freq_inv_cppc_ctrs_snapshot(unsigned int cpu, u64 *delivered,
				 u64 *reference);
int freq_inv_cppc_ctrs_khz(unsigned int cpu, u64 *delivered, u64 *reference,
			   u32 *khz);
#else
static inline int freq_inv_cppc_ctrs_start(void) { return -ENODEV; }
static inline void freq_inv_cppc_ctrs_stop(void) { }
static inline bool freq_inv_cppc_ctrs_active(void) { return false; }
static inline void freq_inv_cppc_ctrs_snapshot(unsigned int cpu,
					       u64 *delivered, u64 *reference)
{
}

static inline int freq_inv_cppc_ctrs_khz(unsigned int cpu, u64 *delivered,
					 u64 *reference, u32 *khz)
{
	return -ENODATA;
}
#endif

#endif /* _FREQ_INV_CPPC_CTRS_H */
