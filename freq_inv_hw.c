// SPDX-License-Identifier: GPL-2.0-only
/*
 * freq_invariance: the hardware backends -- read one CPU's raw frequency
 * registers and decode them with the pure decoders: ACPI CPPC
 * capabilities on AMD (cppc_get_perf_caps(), amd_cppc_ratio.c), the
 * turbo-ratio MSRs on Intel (rdmsrq_safe_on_cpu(), intel_ratio.c), by
 * the running kernel's rules (compat.h, FREQ_RATIO_RULES_RUNNING).
 *
 * The backend is chosen once at load from the boot CPU's vendor, as
 * drivers/cpufreq/amd-pstate.c picks its MSR or shared-memory functions
 * once; probing then never looks at the vendor again, and the sampling
 * hot path never looks at the backend at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/slab.h>

#include <acpi/cppc_acpi.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "compat.h"
#include "amd_cppc_ratio.h"
#include "freq_inv_internal.h"
#include "intel_ratio.h"

/**
 * struct freq_inv_backend - a vendor's way to read max_P and max_boost
 * @name: for the load message
 * @source: the source its answers are reported as
 * @vendor: whose ratio rule applies to overridden frequencies
 * @init: once at load, may fail (no CPPC, ...); NULL if nothing to do
 * @read: read and decode one CPU, process context; @p0_khz is the highest
 *	non-boost entry of the CPU's cpufreq table (0 if none), for firmware
 *	that leaves a frequency out
 */
struct freq_inv_backend {
	const char *name;
	enum freq_inv_source source;
	enum freq_inv_vendor vendor;
	int (*init)(void);
	int (*read)(unsigned int cpu, u32 p0_khz, struct freq_inv_hw *hw);
};

static const struct freq_inv_backend *freq_inv_backend __ro_after_init;

/* Why the backend's init failed (0 if it did not) */
static int freq_inv_backend_err __ro_after_init;

#if IS_ENABLED(CONFIG_ACPI_CPPC_LIB)

/* Every CPU reports the same highest_perf (see amd_cppc_ratio.h) */
static bool freq_inv_amd_uniform __ro_after_init;

/*
 * The decoder's max_boost rule, and 6.12's numerator, need every CPU's
 * highest_perf at once: gather it over the present CPUs (CPPC data exists
 * for offline ones too).
 */
static int __init freq_inv_amd_init(void)
{
	struct cppc_perf_caps caps;
	unsigned int cpu, nr = 0;
	u32 *highest;
	int err;

	if (!acpi_cpc_valid())
		return -ENODEV;

	highest = kcalloc(nr_cpu_ids, sizeof(*highest), GFP_KERNEL);
	if (!highest)
		return -ENOMEM;

	for_each_present_cpu(cpu) {
		if (!cppc_get_perf_caps(cpu, &caps))
			highest[nr++] = caps.highest_perf;
	}
	err = nr ? amd_cppc_ratio_highest_uniform(highest, nr,
						  &freq_inv_amd_uniform) :
		   -ENODEV;
	kfree(highest);
	return err;
}

/* ACPI CPPC HighestPerformance/NominalPerformance/... of @cpu, decoded */
static int freq_inv_amd_read(unsigned int cpu, u32 p0_khz,
			     struct freq_inv_hw *hw)
{
	struct amd_cppc_ratio_result res;
	struct cppc_perf_caps caps;
	struct amd_cppc_raw raw = {
		.rules = FREQ_RATIO_RULES_RUNNING,
		.family = boot_cpu_data.x86,
		.model = boot_cpu_data.x86_model,
		.highest_perf_uniform = freq_inv_amd_uniform,
	};
	int err;

	err = cppc_get_perf_caps(cpu, &caps);
	if (err)
		return err;

	raw.highest_perf = caps.highest_perf;
	raw.nominal_perf = caps.nominal_perf;
	raw.lowest_nonlinear_perf = caps.lowest_nonlinear_perf;
	raw.lowest_perf = caps.lowest_perf;
	/* CPPC before v3 has no NominalFrequency: _PSS P0, as acpi-cpufreq */
	raw.nominal_freq_mhz = caps.nominal_freq ?: p0_khz / 1000;
	raw.lowest_freq_mhz = caps.lowest_freq;

	err = amd_cppc_ratio_decode(&raw, &res);
	if (!err)
		*hw = (struct freq_inv_hw){ res.max_p_khz, res.max_boost_khz,
					    res.kernel_ratio };
	return err;
}

static const struct freq_inv_backend freq_inv_amd_backend = {
	.name = "amd-cppc",
	.source = FREQ_INV_SRC_CPPC,
	.vendor = FREQ_INV_VENDOR_AMD,
	.init = freq_inv_amd_init,
	.read = freq_inv_amd_read,
};

#endif /* CONFIG_ACPI_CPPC_LIB */

/* Read one MSR of @cpu; a #GP (MSR absent) leaves its @have bit clear */
static void freq_inv_rdmsr(unsigned int cpu, u32 msr, u64 *val, u32 bit,
			   u32 *have)
{
	if (!rdmsrq_safe_on_cpu(cpu, msr, val))
		*have |= bit;
}

/*
 * MSR_PLATFORM_INFO, MSR_TURBO_RATIO_LIMIT(1), MSR_IA32_MISC_ENABLE and
 * the Atom MSR_ATOM_CORE_(TURBO_)RATIOS of @cpu, decoded.  Linux picks
 * its rule by which MSRs read (it tries the Atom pair first on every
 * part), so all are read and the decoder chooses.
 */
static int freq_inv_intel_read(unsigned int cpu, u32 p0_khz,
			       struct freq_inv_hw *hw)
{
	struct intel_ratio_result res;
	struct intel_ratio_raw raw = {
		.rules = FREQ_RATIO_RULES_RUNNING,
		.family = boot_cpu_data.x86,
		.model = boot_cpu_data.x86_model,
	};
	u64 fsb;
	int err;

	freq_inv_rdmsr(cpu, MSR_PLATFORM_INFO, &raw.platform_info,
		       INTEL_RATIO_HAVE_PLATFORM_INFO, &raw.have);
	freq_inv_rdmsr(cpu, MSR_TURBO_RATIO_LIMIT, &raw.turbo_ratio_limit,
		       INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT, &raw.have);
	freq_inv_rdmsr(cpu, MSR_TURBO_RATIO_LIMIT1, &raw.turbo_ratio_limit1,
		       INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1, &raw.have);
	freq_inv_rdmsr(cpu, MSR_IA32_MISC_ENABLE, &raw.misc_enable,
		       INTEL_RATIO_HAVE_MISC_ENABLE, &raw.have);
	freq_inv_rdmsr(cpu, MSR_ATOM_CORE_RATIOS, &raw.atom_core_ratios,
		       INTEL_RATIO_HAVE_ATOM_CORE_RATIOS, &raw.have);
	freq_inv_rdmsr(cpu, MSR_ATOM_CORE_TURBO_RATIOS,
		       &raw.atom_core_turbo_ratios,
		       INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS, &raw.have);
	if (!raw.have)
		return -ENODEV;

	/* Only Silvermont/Airmont need MSR_FSB_FREQ for their bus clock */
	if (raw.model == INTEL_RATIO_MODEL_ATOM_SILVERMONT ||
	    raw.model == INTEL_RATIO_MODEL_ATOM_AIRMONT)
		err = intel_ratio_bus_khz(raw.family, raw.model,
					  rdmsrq_safe_on_cpu(cpu, MSR_FSB_FREQ,
							     &fsb) ? NULL : &fsb,
					  &raw.bus_khz);
	else
		err = intel_ratio_bus_khz(raw.family, raw.model, NULL,
					  &raw.bus_khz);
	if (err)
		return err;

	err = intel_ratio_decode(&raw, &res);
	if (!err)
		*hw = (struct freq_inv_hw){ res.max_p_khz, res.max_boost_khz,
					    res.kernel_ratio };
	return err;
}

static const struct freq_inv_backend freq_inv_intel_backend = {
	.name = "intel-msr",
	.source = FREQ_INV_SRC_MSR,
	.vendor = FREQ_INV_VENDOR_INTEL,
	.read = freq_inv_intel_read,
};

/**
 * freq_inv_hw_select() - pick the boot CPU's vendor's backend, once
 *
 * Context: module init, process context (the AMD backend reads every
 * present CPU's CPPC capabilities).
 */
void __init freq_inv_hw_select(void)
{
	switch (boot_cpu_data.x86_vendor) {
#if IS_ENABLED(CONFIG_ACPI_CPPC_LIB)
	case X86_VENDOR_AMD:
		freq_inv_backend = &freq_inv_amd_backend;
		break;
#endif
	case X86_VENDOR_INTEL:
		freq_inv_backend = &freq_inv_intel_backend;
		break;
	default:
		pr_debug("no hardware backend for CPU vendor %u\n",
			 boot_cpu_data.x86_vendor);
		freq_inv_backend_err = -EOPNOTSUPP;
		return;
	}

	if (freq_inv_backend->init)
		freq_inv_backend_err = freq_inv_backend->init();
	if (freq_inv_backend_err)
		pr_debug("%s: unavailable (%pe)\n", freq_inv_backend->name,
			 ERR_PTR(freq_inv_backend_err));
}

/**
 * freq_inv_hw_in() - ask the backend about one CPU
 * @cpu: the CPU
 * @in: @in->policy must be filled; sets @in->hw_err, @in->hw,
 *	@in->hw_source and @in->vendor for freq_inv_caps_resolve()
 *
 * Context: process context, may sleep (IPIs for MSRs, CPPC mailboxes).
 */
void freq_inv_hw_in(unsigned int cpu, struct freq_inv_caps_in *in)
{
	in->hw_err = freq_inv_backend_err;
	if (!freq_inv_backend)
		return;
	in->hw_source = freq_inv_backend->source;
	in->vendor = freq_inv_backend->vendor;
	if (!in->hw_err)
		in->hw_err = freq_inv_backend->read(cpu, in->policy.max_p_khz,
						    &in->hw);
}

/**
 * freq_inv_hw_describe() - the backend, for the load message
 * @buf: set to its name and state
 * @len: size of @buf
 * @nr_failed: CPUs whose hardware did not answer at their last probe
 * @err: the first of their errors
 *
 * Context: any.
 */
void freq_inv_hw_describe(char *buf, size_t len, unsigned int nr_failed,
			  int err)
{
	if (!freq_inv_backend)
		scnprintf(buf, len, "no backend for this CPU vendor");
	else if (freq_inv_backend_err)
		scnprintf(buf, len, "%s unavailable (%pe)",
			  freq_inv_backend->name,
			  ERR_PTR(freq_inv_backend_err));
	else if (nr_failed)
		scnprintf(buf, len, "%s failed on %u (%pe)",
			  freq_inv_backend->name, nr_failed, ERR_PTR(err));
	else
		scnprintf(buf, len, "%s", freq_inv_backend->name);
}
