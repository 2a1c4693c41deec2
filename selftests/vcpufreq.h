/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the units of vcpufreq.ko share: the table in effect, the module
 * parameters, and each unit's entry points.  The units:
 *
 *   vcpufreq_driver.c   the cpufreq driver ops, the parameters, init/exit
 *   vcpufreq_presets.c  the real CPUs' P-state tables and energy models
 *   vcpufreq_table.h    table_khz= parsing and table checks (pure)
 *   vcpufreq_emu.c      the emulated machine (emulate=1): speed, energy,
 *                       CPPC feedback counters
 *   vcpufreq_energy.h   the emulated machine's arithmetic (pure)
 *   vcpufreq_powercap.c the package energy as an intel-rapl powercap zone
 *   vcpufreq_debugfs.c  the request record and /sys/kernel/debug/vcpufreq/
 */
#ifndef VCPUFREQ_H
#define VCPUFREQ_H

#include <linux/cpufreq.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#include "vcpufreq_energy.h"
#include "vcpufreq_table.h"

/* Every preset, for the parameter's description and the error message */
#define VCPUFREQ_PRESET_NAMES \
	"epyc-7742, xeon-e5-2687w-v3, epyc-7702, ryzen-7840hs or generic"

/**
 * struct vcpufreq_preset - the P-state table of one real CPU
 * @name:	value of the preset= parameter
 * @khz:	the table in kHz, in the order acpi-cpufreq lists it (highest
 *		first)
 * @nr:		entries in @khz
 * @nr_boost:	how many leading entries of @khz are boost states
 * @hidden_boost_khz: highest boost frequency the part reaches that the
 *		table does not list (0: none); with emulate=1 what max_P runs
 *		at while boost is on
 * @em:		energy model, used with emulate=1 (also for table_khz=)
 * @cores:	cores of one package: what energy_scope=package pays the
 *		uncore and the idle cores of, unless package_cores= says
 */
struct vcpufreq_preset {
	const char *name;
	const unsigned int *khz;
	unsigned int nr;
	unsigned int nr_boost;
	unsigned int hidden_boost_khz;
	const struct vcpufreq_em_model *em;
	unsigned int cores;
};

/*
 * Residency slots of the emulated machine: one per table entry, and one
 * more for the hidden boost (EPYC's 3.4 GHz, which no entry stands for).
 */
#define VCPUFREQ_EMU_SLOTS		(VCPUFREQ_MAX_STATES + 1)
#define VCPUFREQ_EMU_BOOST_SLOT		VCPUFREQ_MAX_STATES

/**
 * struct vcpufreq_machine - the emulated machine's constants
 * @top_khz:	f_top, the frequency the host's speed stands for
 * @boost_khz:	what max_P runs at with boost on (the hidden boost), or 0
 * @slot_khz:	frequency of each residency slot, 0 for an unused one
 * @slot_uw:	P_busy at @slot_khz, uW
 * @uncore_uw:	the uncore power the guest pays, uW
 * @scope:	energy_scope=: a slice of the package, or the whole package
 * @package_cores: with the whole package: its cores
 * @idle_cores:	with the whole package: its cores that are not the
 *		guest's CPUs, idle all the time
 * @idle_cores_uw: their power, uW
 * @period_ns:	the stall timer's period
 *
 * Set by vcpufreq_emu_check() at load, read-only afterwards.
 */
struct vcpufreq_machine {
	u32 top_khz;
	u32 boost_khz;
	u32 slot_khz[VCPUFREQ_EMU_SLOTS];
	u32 slot_uw[VCPUFREQ_EMU_SLOTS];
	u32 uncore_uw;
	enum vcpufreq_em_scope scope;
	u32 package_cores;
	u32 idle_cores;
	u32 idle_cores_uw;
	u64 period_ns;
};

/**
 * struct vcpufreq_emu_package - the package energy since load, by part
 * @total_nj:	every CPU, the uncore and the idle cores
 * @uncore_nj:	the uncore's part
 * @idle_cores_nj: the idle cores' part (the whole package only)
 */
struct vcpufreq_emu_package {
	u64 total_nj;
	u64 uncore_nj;
	u64 idle_cores_nj;
};

/**
 * struct vcpufreq_emu_snap - one emulated CPU's integrals, for debugfs
 * @eff_khz:	frequency it runs at, kHz
 * @energy_nj:	energy since load, nJ
 * @busy_ns:	busy time since load (useful work and stalls)
 * @idle_ns:	idle time since load
 * @stall_ns:	stall time since load (part of @busy_ns)
 * @fires:	stall timer callbacks since load
 * @entry_ns:	the timer's interrupt entry and exit since load (estimated)
 * @debt_ns:	stall owed and not yet spun
 * @slot_ns:	busy time at each residency slot
 */
struct vcpufreq_emu_snap {
	u32 eff_khz;
	u64 energy_nj;
	u64 busy_ns;
	u64 idle_ns;
	u64 stall_ns;
	u64 fires;
	u64 entry_ns;
	u64 debt_ns;
	u64 slot_ns[VCPUFREQ_EMU_SLOTS];
};

/* vcpufreq_driver.c: parameters (read-only once loaded) and the table */
extern bool vcpufreq_fast_switch_param;
extern bool vcpufreq_shared;
extern bool vcpufreq_per_policy_tunables;
extern unsigned int vcpufreq_transition_latency_ns;
extern bool vcpufreq_boost;
extern bool vcpufreq_emulate;
extern unsigned int vcpufreq_target_step_khz;
extern struct vcpufreq_table vcpufreq_table;
extern const struct vcpufreq_preset *vcpufreq_preset;
extern const struct vcpufreq_em_model *vcpufreq_em;
extern unsigned int vcpufreq_em_cores;
/* the last resume from a system sleep (ktime_get_ns()) and their count */
extern u64 vcpufreq_resume_ns;
extern unsigned int vcpufreq_resumes;
unsigned int vcpufreq_get(unsigned int cpu);

/* vcpufreq_presets.c */
const struct vcpufreq_preset *vcpufreq_preset_find(const char *name);

/* vcpufreq_emu.c: parameters, the machine, its life cycle and readers */
extern bool vcpufreq_emulate_boost;
extern bool vcpufreq_emulate_one_thread;
extern unsigned int vcpufreq_emulate_period_us;
extern struct vcpufreq_machine vcpufreq_machine;
int vcpufreq_emu_check(void);
int vcpufreq_emu_start(void);
void vcpufreq_emu_stop(void);
void vcpufreq_emu_set(unsigned int cpu, int idx, bool boost_on);
void vcpufreq_emu_package(struct vcpufreq_emu_package *pkg);
void vcpufreq_emu_package_of(struct vcpufreq_emu_package *pkg, u64 cpus_nj,
			     u64 now_ns);
extern const char * const vcpufreq_em_scope_names[];
void vcpufreq_emu_read(unsigned int cpu, struct vcpufreq_emu_snap *snap);

/* vcpufreq_powercap.c */
extern unsigned long vcpufreq_energy_range_uj;
int vcpufreq_pcap_check(void);
void vcpufreq_pcap_init(void);
void vcpufreq_pcap_exit(void);

/* vcpufreq_debugfs.c: the request record and the debugfs files */
int vcpufreq_log_alloc(void);
void vcpufreq_log_free(void);
void vcpufreq_record(unsigned int cpu, unsigned int khz, int idx, bool fast);
bool vcpufreq_target_fails(unsigned int khz);
void vcpufreq_debugfs_init(void);
void vcpufreq_debugfs_exit(void);

#endif /* VCPUFREQ_H */
