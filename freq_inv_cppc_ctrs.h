/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * freq_invariance internal: the ACPI CPPC feedback-counter source of the
 * delivered frequency (freq_inv_cppc_ctrs.c), for CPUs without
 * APERF/MPERF.  Without CONFIG_ACPI_CPPC_LIB the stubs say "not in use".
 */
#ifndef _FREQ_INV_CPPC_CTRS_H
#define _FREQ_INV_CPPC_CTRS_H

#include "freq_inv_internal.h"

#if IS_ENABLED(CONFIG_ACPI_CPPC_LIB)
const struct freq_inv_deliv_ops *freq_inv_cppc_ctrs_start(void);
void freq_inv_cppc_ctrs_stop(void);
#else
static inline const struct freq_inv_deliv_ops *freq_inv_cppc_ctrs_start(void)
{
	return NULL;
}

static inline void freq_inv_cppc_ctrs_stop(void) { }
#endif

#endif /* _FREQ_INV_CPPC_CTRS_H */
