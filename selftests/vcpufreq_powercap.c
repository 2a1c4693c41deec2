// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpufreq's package energy as RAPL shows it: a powercap control type
 * "intel-rapl" with one zone "package-0" (/sys/class/powercap/
 * intel-rapl:0/, the names intel_rapl_common gives), whose energy_uj is
 * the emulated package energy modulo max_energy_range_uj.  No
 * constraints.  Registered with emulate=1 only.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/powercap.h>

#include "vcpufreq.h"

/* intel-rapl's max_energy_range_uj on most parts: 2^32 x 61.035 uJ. */
unsigned long vcpufreq_energy_range_uj = 262143328850UL;
module_param_named(energy_range_uj, vcpufreq_energy_range_uj, ulong, 0444);
MODULE_PARM_DESC(energy_range_uj,
		 "With emulate=1: energy_uj wraps to 0 at this value, uJ, >= 1000 (default 262143328850)");

/**
 * vcpufreq_pcap_check() - check energy_range_uj=
 *
 * Context: process context, module init.
 * Return: 0, or -ERANGE below 1000 uJ with one log line.
 */
int vcpufreq_pcap_check(void)
{
	if (vcpufreq_energy_range_uj < 1000) {
		pr_err("energy_range_uj=%lu is out of range: at least 1000\n",
		       vcpufreq_energy_range_uj);
		return -ERANGE;
	}
	return 0;
}

#if IS_ENABLED(CONFIG_POWERCAP)
static struct powercap_control_type *vcpufreq_pcap_type;
static struct powercap_zone *vcpufreq_pcap_zone;

static int vcpufreq_pcap_energy(struct powercap_zone *zone, u64 *energy_uj)
{
	struct vcpufreq_emu_package pkg;
	u64 rem;

	vcpufreq_emu_package(&pkg);
	div64_u64_rem(div_u64(pkg.total_nj, 1000), vcpufreq_energy_range_uj,
		      &rem);
	*energy_uj = rem;
	return 0;
}

static int vcpufreq_pcap_range(struct powercap_zone *zone, u64 *range_uj)
{
	*range_uj = vcpufreq_energy_range_uj;
	return 0;
}

static const struct powercap_zone_ops vcpufreq_pcap_ops = {
	.get_energy_uj		 = vcpufreq_pcap_energy,
	.get_max_energy_range_uj = vcpufreq_pcap_range,
};

/* No constraints; the framework wants the ops all the same. */
static int vcpufreq_pcap_get_u64(struct powercap_zone *zone, int id,
				 u64 *val)
{
	return -EOPNOTSUPP;
}

static int vcpufreq_pcap_set_u64(struct powercap_zone *zone, int id, u64 val)
{
	return -EOPNOTSUPP;
}

static const struct powercap_zone_constraint_ops vcpufreq_pcap_const_ops = {
	.get_power_limit_uw	= vcpufreq_pcap_get_u64,
	.set_power_limit_uw	= vcpufreq_pcap_set_u64,
	.get_time_window_us	= vcpufreq_pcap_get_u64,
	.set_time_window_us	= vcpufreq_pcap_set_u64,
};

/**
 * vcpufreq_pcap_init() - register the package zone
 *
 * Description: Named as intel_rapl_common names it, so a tool reads the guest
 * as it reads RAPL.  Not where a real intel-rapl exists (the name would clash,
 * and its figures are the real ones).  Failure only costs the zone.
 *
 * Context: process context, module init, the emulation running.
 */
void vcpufreq_pcap_init(void)
{
	struct powercap_zone *zone;
	struct path path;

	if (!kern_path("/sys/class/powercap/intel-rapl", 0, &path)) {
		path_put(&path);
		pr_info("emulate=1: intel-rapl is present, no powercap zone\n");
		return;
	}
	vcpufreq_pcap_type = powercap_register_control_type(NULL, "intel-rapl",
							    NULL);
	if (IS_ERR(vcpufreq_pcap_type)) {
		pr_warn("emulate=1: powercap control type: %ld\n",
			PTR_ERR(vcpufreq_pcap_type));
		vcpufreq_pcap_type = NULL;
		return;
	}
	zone = powercap_register_zone(NULL, vcpufreq_pcap_type, "package-0",
				      NULL, &vcpufreq_pcap_ops, 0,
				      &vcpufreq_pcap_const_ops);
	if (IS_ERR(zone)) {
		pr_warn("emulate=1: powercap zone: %ld\n", PTR_ERR(zone));
		powercap_unregister_control_type(vcpufreq_pcap_type);
		vcpufreq_pcap_type = NULL;
		return;
	}
	vcpufreq_pcap_zone = zone;
}

/**
 * vcpufreq_pcap_exit() - unregister the package zone, if registered
 *
 * Description: No energy_uj reader is left once this returns.
 *
 * Context: process context.
 */
void vcpufreq_pcap_exit(void)
{
	if (!vcpufreq_pcap_type)
		return;
	/* Removes the files and waits for their readers. */
	powercap_unregister_zone(vcpufreq_pcap_type, vcpufreq_pcap_zone);
	powercap_unregister_control_type(vcpufreq_pcap_type);
	vcpufreq_pcap_type = NULL;
}
#else
void vcpufreq_pcap_init(void)
{
	pr_info("emulate=1: kernel without CONFIG_POWERCAP, no powercap zone\n");
}

void vcpufreq_pcap_exit(void)
{
}
#endif
