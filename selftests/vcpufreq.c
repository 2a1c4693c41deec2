// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcpufreq: a test-only cpufreq driver that gives a CPU without one (a QEMU
 * guest) the P-state table of a real CPU, and records every frequency the
 * cpufreq core and its governors ask it for.
 *
 * It exists so that the governor and the kernel's own governors can be
 * driven in a virtual machine exactly as on the machines the project is
 * about, and so that tests can assert on what was requested, not on what
 * sysfs happens to show afterwards.  Nothing here touches hardware: a
 * "frequency change" stores a number.
 *
 * Parameters (read-only after load, visible in /sys/module/vcpufreq/parameters):
 *   preset=NAME           epyc-7742 | xeon-e5-2687w-v3 | generic (default)
 *   table_khz=LIST        custom table, overrides preset: kHz values separated
 *                         by commas, boost entries end in 'b'
 *   fast_switch=BOOL      implement ->fast_switch (default 1)
 *   shared=BOOL           one policy for all CPUs (default 0: one per CPU)
 *   per_policy_tunables=BOOL  set CPUFREQ_HAVE_GOVERNOR_PER_POLICY (default 0)
 *   transition_latency_ns=UINT  cpuinfo_transition_latency (default 10000)
 *   boost=BOOL            boost supported and initially on (default 1)
 *   emulate=BOOL          emulate the frequency and the energy (default 0)
 *   emulate_boost=BOOL    with emulate=1: the preset's boost when boost is on
 *                         and max_P is requested (default 1)
 *   emulate_period_us=UINT  the emulator's timer period (default 1000)
 *   energy_range_uj=ULONG   energy_uj wraps to 0 here (default 262143328850,
 *                         what intel-rapl reports on most parts)
 *   cppc_page=ADDR        with emulate=1: the guest's ACPI CPPC register
 *                         page (tools/vm/run --cppc), whose delivered and
 *                         reference counters then advance while busy
 *
 * debugfs, /sys/kernel/debug/vcpufreq/:
 *   requests  one line per request, oldest first, the last 65536 kept:
 *             "<time_ns> <cpu> <khz> <fast|slow>", time_ns from
 *             ktime_get_ns() (CLOCK_MONOTONIC), cpu = policy->cpu of the
 *             policy changed, khz = the table entry set.  The core calls
 *             ->target_index only when the frequency changes, so slow-path
 *             records are changes; fast-path ones are every call.
 *   stats     "fast N", "slow N", "total N", "dropped N", "buffered N",
 *             "cpu <cpu> N" per possible CPU, "freq <khz> N" per table entry
 *   cur       "<cpu> <khz>" per possible CPU: the P-state it was last set to
 *   config    "<key> <value>" lines: the table and parameters in effect
 *   reset     write anything: empties the record and zeroes the counters
 *   energy    with emulate=1 only: per CPU energy and residency, uncore and
 *             package energy (see vcpufreq_energy_show())
 *
 * With emulate=1 a CPU set to f runs f/f_top as fast as at the top
 * frequency f_top (one pinned hard-IRQ hrtimer per CPU stalls it while it
 * is busy), every CPU's energy is integrated from the preset's energy
 * model, and the package energy is a powercap zone, intel-rapl:0, as RAPL
 * shows it (Documentation/bench.rst, "The emulated machine").
 *
 * Model: mainline drivers/cpufreq/virtual-cpufreq.c (a guest driver with a
 * table, verify, target_index and fast_switch), with the table and boost
 * habits of acpi-cpufreq and cpufreq-dt; no platform or OF parts.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/powercap.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "vcpufreq_energy.h"

/* At most this many P-states; acpi-cpufreq tables are 3 to ~20 entries. */
#define VCPUFREQ_MAX_STATES	32

/*
 * Highest accepted table value, kHz (100 GHz).  Far above any CPU, and low
 * enough that every frequency stays a valid freq QoS value (an s32).
 */
#define VCPUFREQ_MAX_KHZ	100000000U

/* Records kept: 64 Ki x 16 bytes = 1 MiB; the oldest are overwritten. */
#define VCPUFREQ_RING_ENTRIES	65536U
/* Slots are sequence numbers masked with (size - 1). */
static_assert((VCPUFREQ_RING_ENTRIES & (VCPUFREQ_RING_ENTRIES - 1)) == 0);

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
 */
struct vcpufreq_preset {
	const char *name;
	const unsigned int *khz;
	unsigned int nr;
	unsigned int nr_boost;
	unsigned int hidden_boost_khz;
	const struct vcpufreq_em_model *em;
};

/*
 * AMD EPYC 7742 (Zen 2 "Rome", family 17h model 31h) under acpi-cpufreq:
 * _PSS has the three hardware P-states P0..P2 (the P-state MSRs
 * C001_0064..66 dumped by AIDA64 in InstLatx64
 * AuthenticAMD0830F10_K17_Rome_CPUID.txt; the same values in LKML
 * 20210121003223.20257-1-ggherdovich@suse.cz).  Boost (Core Performance
 * Boost) reaches 3400 MHz (AMD's product page: base 2.25 GHz, max boost
 * 3.4 GHz) but is not a P-state, so acpi-cpufreq lists no entry for it:
 * cpuinfo_max_freq is 2250000 and the global boost file only flips CPB.
 * (That is a Rome BIOS without ACPI _CPC; with _CPC, 6.1's acpi-cpufreq
 * raises cpuinfo_max_freq to nominal x highest_perf / nominal_perf.)
 */
static const unsigned int vcpufreq_epyc_7742_khz[] = {
	2250000,	/* P0, base ("max_P") */
	2000000,	/* P1 */
	1500000,	/* P2 */
};

/*
 * Intel Xeon E5-2687W v3 (Haswell-EP, family 6 model 3Fh): base 3.10 GHz,
 * max turbo 3.50 GHz (Intel ARK), lowest 1.2 GHz (MSR_PLATFORM_INFO[47:40]
 * = 12 in the dump of the same die, InstLatx64
 * GenuineIntel00306F2_HaswellEP2_CPUID.txt), 100 MHz bus-ratio steps.
 * The turbo entry is listed at its real value and flagged
 * CPUFREQ_BOOST_FREQ, the way cpufreq-dt lists boost OPPs, so boost on/off
 * moves cpuinfo_max_freq.  acpi-cpufreq itself would show the turbo state
 * as base + 1 MHz (3101000), unflagged, and fewer _PSS steps (an i7-4770K
 * shows "3501000 3500000 3300000 ...", zenstep.com.ar); table_khz= can
 * reproduce that view.
 */
static const unsigned int vcpufreq_xeon_e5_2687w_v3_khz[] = {
	3500000,	/* max turbo: boost */
	3100000,	/* base ("max_P") */
	3000000, 2900000, 2800000, 2700000, 2600000, 2500000, 2400000,
	2300000, 2200000, 2100000, 2000000, 1900000, 1800000, 1700000,
	1600000, 1500000, 1400000, 1300000,
	1200000,	/* lowest (maximum efficiency ratio 12) */
};

/*
 * AMD EPYC 7702 (Rome, 17h/31h) as an ACPI CPPC platform
 * (tools/vm/run --cppc epyc-7702): nominal 2000 MHz (CPPC NominalFrequency,
 * published with highest/nominal/lowest nonlinear/lowest perf
 * 255/152/115/31), boost to 3350 MHz (AMD's product page; CPPC gives
 * 2000 x 255 / 152 = 3355 MHz), hidden as on the 7742.  P1 1800 MHz is
 * assumed; P2 1500 MHz sits at the lowest nonlinear level (115/152 x 2000
 * = 1513 MHz).  Energy: the 7742's model (same die; assumed).
 */
static const unsigned int vcpufreq_epyc_7702_khz[] = {
	2000000,	/* nominal ("max_P") */
	1800000,	/* assumed */
	1500000,
};

/*
 * AMD Ryzen 7 7840HS (Phoenix, 19h/74h) as an ACPI CPPC platform
 * (tools/vm/run --cppc ryzen-7840hs): nominal 3800 MHz (CPPC
 * NominalFrequency, nominal_perf 145), boost to 5100 MHz (AMD's product
 * page), hidden.  The other P-states are assumed; energy: the generic
 * model (assumed).
 */
static const unsigned int vcpufreq_ryzen_7840hs_khz[] = {
	3800000,	/* nominal ("max_P") */
	2200000,	/* assumed */
	1600000,	/* assumed */
};

/* Not a real part: a small table with one listed boost state. */
static const unsigned int vcpufreq_generic_khz[] = {
	3000000,	/* boost */
	2400000, 1600000, 800000,
};

/*
 * Energy models (emulate=1), P_busy(f) = a V(f)^2 f + b V(f) per core.
 * Every number and its source is in Documentation/bench.rst, "The
 * emulated machine"; keep the two tables identical, and selftests/
 * 15-emulation.sh's copy, which predicts energy from them.
 *
 * EPYC 7742: V at P0..P2 from the P-state MSRs C001_0064..66 in InstLatx64
 * AuthenticAMD0830F10_K17_Rome_CPUID.txt (VID 72/88/104, V = 1.55 -
 * 0.00625 x VID).  Assumed: the boost voltage; a and b, chosen so that
 * 64 cores at P0 plus the uncore stay within the 225 W TDP (64 x 2.18 W
 * + 64 W); idle (a halted core in CC6, 0.1 W); the uncore (the I/O die,
 * 64 W, 1 W per core).
 */
static const struct vcpufreq_em_point vcpufreq_epyc_7742_curve[] = {
	{ 1500000,  900 },	/* P2, VID 104 (MSR) */
	{ 2000000, 1000 },	/* P1, VID 88 (MSR) */
	{ 2250000, 1100 },	/* P0, VID 72 (MSR) */
	{ 3400000, 1350 },	/* boost: assumed */
};

static const struct vcpufreq_em_model vcpufreq_epyc_7742_em = {
	.curve = vcpufreq_epyc_7742_curve,
	.nr_points = ARRAY_SIZE(vcpufreq_epyc_7742_curve),
	.a_uw_per_v2ghz = 700000,	/* assumed */
	.b_uw_per_v = 250000,		/* assumed */
	.idle_uw = 100000,		/* assumed */
	.uncore_uw_per_core = 1000000,	/* assumed */
};

/*
 * Xeon E5-2687W v3: 10 cores, 160 W TDP (Intel ARK).  Assumed: the whole
 * curve (Haswell-EP VIDs run about 0.8 V at the 1.2 GHz minimum to 1.2 V
 * at full turbo; linear between), a and b (10 x 10.6 W at base plus the
 * uncore under the TDP), idle 0.5 W, uncore 40 W (4 W per core).
 */
static const struct vcpufreq_em_point vcpufreq_xeon_e5_2687w_v3_curve[] = {
	{ 1200000,  800 },	/* assumed */
	{ 3500000, 1200 },	/* assumed */
};

static const struct vcpufreq_em_model vcpufreq_xeon_e5_2687w_v3_em = {
	.curve = vcpufreq_xeon_e5_2687w_v3_curve,
	.nr_points = ARRAY_SIZE(vcpufreq_xeon_e5_2687w_v3_curve),
	.a_uw_per_v2ghz = 2400000,	/* assumed */
	.b_uw_per_v = 1000000,		/* assumed */
	.idle_uw = 500000,		/* assumed */
	.uncore_uw_per_core = 4000000,	/* assumed */
};

/* Not a real part: EPYC-like coefficients on a 0.75..1.25 V curve. */
static const struct vcpufreq_em_point vcpufreq_generic_curve[] = {
	{  800000,  750 },
	{ 3000000, 1250 },
};

static const struct vcpufreq_em_model vcpufreq_generic_em = {
	.curve = vcpufreq_generic_curve,
	.nr_points = ARRAY_SIZE(vcpufreq_generic_curve),
	.a_uw_per_v2ghz = 700000,
	.b_uw_per_v = 250000,
	.idle_uw = 100000,
	.uncore_uw_per_core = 1000000,
};

static const struct vcpufreq_preset vcpufreq_presets[] = {
	{ "epyc-7742", vcpufreq_epyc_7742_khz,
	  ARRAY_SIZE(vcpufreq_epyc_7742_khz), 0, 3400000,
	  &vcpufreq_epyc_7742_em },
	{ "xeon-e5-2687w-v3", vcpufreq_xeon_e5_2687w_v3_khz,
	  ARRAY_SIZE(vcpufreq_xeon_e5_2687w_v3_khz), 1, 0,
	  &vcpufreq_xeon_e5_2687w_v3_em },
	{ "epyc-7702", vcpufreq_epyc_7702_khz,
	  ARRAY_SIZE(vcpufreq_epyc_7702_khz), 0, 3350000,
	  &vcpufreq_epyc_7742_em },
	{ "ryzen-7840hs", vcpufreq_ryzen_7840hs_khz,
	  ARRAY_SIZE(vcpufreq_ryzen_7840hs_khz), 0, 5100000,
	  &vcpufreq_generic_em },
	{ "generic", vcpufreq_generic_khz,
	  ARRAY_SIZE(vcpufreq_generic_khz), 1, 0,
	  &vcpufreq_generic_em },
};

/* Module parameters: read-only once loaded, validated in vcpufreq_init(). */
static char *preset = "generic";
module_param(preset, charp, 0444);
MODULE_PARM_DESC(preset,
		 "P-state table of a real CPU: epyc-7742, xeon-e5-2687w-v3, epyc-7702, ryzen-7840hs or generic (default)");

static char *table_khz;
module_param(table_khz, charp, 0444);
MODULE_PARM_DESC(table_khz,
		 "Custom table, overrides preset: kHz values separated by commas, boost ones end in 'b' (e.g. 3400000b,2250000,2000000,1500000)");

static bool fast_switch = true;
module_param(fast_switch, bool, 0444);
MODULE_PARM_DESC(fast_switch, "Offer fast frequency switching (default 1)");

static bool shared;
module_param(shared, bool, 0444);
MODULE_PARM_DESC(shared, "One policy for all CPUs instead of one per CPU (default 0)");

static bool per_policy_tunables;
module_param(per_policy_tunables, bool, 0444);
MODULE_PARM_DESC(per_policy_tunables,
		 "Governor tunables per policy (CPUFREQ_HAVE_GOVERNOR_PER_POLICY, default 0)");

/*
 * acpi-cpufreq takes the largest _PSS TransitionLatency (us) x 1000 and
 * caps it at 20 us for MSR-driven P-states; 10 us is what Intel and AMD
 * server firmware commonly lists.  It sets schedutil's default
 * rate_limit_us and ondemand's sampling_rate (1000 x latency, capped at
 * 10 ms).
 */
static unsigned int transition_latency_ns = 10000;
module_param(transition_latency_ns, uint, 0444);
MODULE_PARM_DESC(transition_latency_ns,
		 "cpuinfo_transition_latency in ns (default 10000)");

static bool boost = true;
module_param(boost, bool, 0444);
MODULE_PARM_DESC(boost,
		 "Boost supported, initially on, and toggled by cpufreq's global boost file (default 1)");

static bool emulate;
module_param(emulate, bool, 0444);
MODULE_PARM_DESC(emulate,
		 "Emulate the frequency (a CPU at f runs f/f_top as fast) and the energy, with a powercap zone intel-rapl:0 (default 0)");

static bool emulate_boost = true;
module_param(emulate_boost, bool, 0444);
MODULE_PARM_DESC(emulate_boost,
		 "With emulate=1 and boost on: max_P runs at the preset's hidden boost frequency (default 1)");

static unsigned int emulate_period_us = 1000;
module_param(emulate_period_us, uint, 0444);
MODULE_PARM_DESC(emulate_period_us,
		 "With emulate=1: period of the per-CPU stall timer, us, 100..100000 (default 1000)");

/*
 * The guest's ACPI CPPC register page (tools/vm/cppc/mkssdt.py lays it
 * out: VCPUFREQ_CPPC_STRIDE bytes per CPU, the Reference and Delivered
 * Performance Counters at +16 and +24), whose counters the emulation
 * advances while a CPU is busy.
 */
static unsigned long cppc_page;
module_param(cppc_page, ulong, 0444);
MODULE_PARM_DESC(cppc_page,
		 "With emulate=1: physical address of the guest's ACPI CPPC register page, whose feedback counters then advance (default 0: none)");

/* intel-rapl's max_energy_range_uj on most parts: 2^32 x 61.035 uJ. */
static unsigned long energy_range_uj = 262143328850UL;
module_param(energy_range_uj, ulong, 0444);
MODULE_PARM_DESC(energy_range_uj,
		 "With emulate=1: energy_uj wraps to 0 at this value, uJ, >= 1000 (default 262143328850)");

/*
 * The table in effect, terminated by CPUFREQ_TABLE_END.  Written once at
 * load, then shared read-only by every policy (the core only reads it).
 */
static struct cpufreq_frequency_table vcpufreq_table[VCPUFREQ_MAX_STATES + 1];
static unsigned int vcpufreq_nr_states;
static unsigned int vcpufreq_max_p_khz;		/* highest non-boost entry */
static unsigned int vcpufreq_max_p_idx;		/* its index */
static unsigned int vcpufreq_max_boost_khz;	/* highest boost entry, or 0 */
static const struct vcpufreq_preset *vcpufreq_preset;	/* NULL: table_khz */
static const struct vcpufreq_em_model *vcpufreq_em;	/* from preset= */

/*
 * The emulated hardware: the frequency each CPU was last set to, in kHz.
 * Written by ->target_index/->fast_switch of the CPU's policy, read by
 * ->get and debugfs; plain word accesses, so READ_ONCE/WRITE_ONCE.
 */
static DEFINE_PER_CPU(unsigned int, vcpufreq_cur_khz);

/**
 * struct vcpufreq_record - one frequency request, as stored in the ring
 * @time_ns:	ktime_get_ns() when the driver was called
 * @khz:	frequency the CPUs were set to (a table entry)
 * @cpu:	policy->cpu of the policy that was changed
 * @fast:	1 when it came through ->fast_switch, 0 for ->target_index
 */
struct vcpufreq_record {
	u64 time_ns;
	u32 khz;
	u32 cpu : 31;
	u32 fast : 1;
};

/**
 * struct vcpufreq_log - the request record and its counters
 * @lock:	protects every other field.  A raw spinlock, taken with IRQs
 *		off, because ->fast_switch runs in the scheduler's update_util
 *		hook with the runqueue lock (itself raw) held and IRQs off.
 * @ring:	VCPUFREQ_RING_ENTRIES records, slot = sequence number modulo size
 * @head:	sequence number the next record gets
 * @tail:	oldest sequence number still readable (head - tail <= size)
 * @dropped:	records overwritten before anyone reset the log
 * @nr_fast:	requests through ->fast_switch since the last reset
 * @nr_slow:	requests through ->target_index since the last reset
 * @cpu_count:	requests per policy->cpu, nr_cpu_ids counters
 * @state_count: requests per table entry, in table order
 */
struct vcpufreq_log {
	raw_spinlock_t lock;
	struct vcpufreq_record *ring;
	u64 head;
	u64 tail;
	u64 dropped;
	u64 nr_fast;
	u64 nr_slow;
	u64 *cpu_count;
	u64 state_count[VCPUFREQ_MAX_STATES];
};

static struct vcpufreq_log vcpufreq_log = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(vcpufreq_log.lock),
};

static struct dentry *vcpufreq_debugfs;

/* ------------------------------------------------------------------ */
/* Table parsing                                                       */
/* ------------------------------------------------------------------ */

/*
 * Parse one "khz[b]" token into table slot @n.  Returns 0 or -EINVAL with
 * the reason logged: each failed load prints exactly one line, from here
 * or from vcpufreq_check_table().
 */
static int vcpufreq_parse_entry(char *tok, unsigned int n)
{
	size_t len = strlen(tok);
	bool is_boost = false;
	unsigned int khz;

	if (!len) {
		pr_err("table_khz: entry %u is empty\n", n + 1);
		return -EINVAL;
	}
	if (tok[len - 1] == 'b') {
		is_boost = true;
		tok[len - 1] = '\0';
	}
	/* kstrtouint() rejects "", spaces, signs other than '+' and junk. */
	if (kstrtouint(tok, 10, &khz)) {
		pr_err("table_khz: entry %u is not a number of kHz\n", n + 1);
		return -EINVAL;
	}

	vcpufreq_table[n].frequency = khz;
	vcpufreq_table[n].flags = is_boost ? CPUFREQ_BOOST_FREQ : 0;
	return 0;
}

/*
 * Check the @n entries now in vcpufreq_table, the same way for presets
 * and table_khz=, and terminate the table.  One log line on failure.
 */
static int vcpufreq_check_table(unsigned int n)
{
	unsigned int i, j, khz, max_p = 0, max_boost = 0;

	for (i = 0; i < n; i++) {
		khz = vcpufreq_table[i].frequency;
		if (!khz || khz > VCPUFREQ_MAX_KHZ) {
			pr_err("table_khz: entry %u is %u kHz, must be 1..%u\n",
			       i + 1, khz, VCPUFREQ_MAX_KHZ);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (vcpufreq_table[j].frequency == khz) {
				pr_err("table_khz: %u kHz is listed twice\n",
				       khz);
				return -EINVAL;
			}
		}
		if (vcpufreq_table[i].flags & CPUFREQ_BOOST_FREQ) {
			max_boost = max(max_boost, khz);
		} else if (khz > max_p) {
			max_p = khz;
			vcpufreq_max_p_idx = i;
		}
	}
	/* With boost off, the core would be left with no frequency at all. */
	if (!max_p) {
		pr_err("table_khz: every entry is a boost entry\n");
		return -EINVAL;
	}
	/*
	 * Boost means above the highest P-state (max_P) on every CPU this
	 * models; a lower "boost" entry would make max_boost < max_P.
	 */
	for (i = 0; i < n; i++) {
		khz = vcpufreq_table[i].frequency;
		if ((vcpufreq_table[i].flags & CPUFREQ_BOOST_FREQ) &&
		    khz < max_p) {
			pr_err("table_khz: boost entry %u kHz is below the highest non-boost entry %u kHz\n",
			       khz, max_p);
			return -EINVAL;
		}
	}

	/* driver_data is the index, for the record and the counters. */
	for (i = 0; i < n; i++)
		vcpufreq_table[i].driver_data = i;
	vcpufreq_table[n].frequency = CPUFREQ_TABLE_END;
	vcpufreq_nr_states = n;
	vcpufreq_max_p_khz = max_p;
	vcpufreq_max_boost_khz = max_boost;
	return 0;
}

/*
 * Fill vcpufreq_table from @spec ("2250000,2000000" or "3400000b,..."),
 * in the given order: cpufreq handles unsorted tables, and acpi-cpufreq
 * lists highest first.
 */
static int vcpufreq_parse_table(const char *spec)
{
	char *buf, *cur, *tok;
	unsigned int n = 0;
	int ret = 0;

	if (!*spec) {
		pr_err("table_khz: empty table\n");
		return -EINVAL;
	}
	buf = kstrdup(spec, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	cur = buf;
	while ((tok = strsep(&cur, ",")) != NULL) {
		if (n == VCPUFREQ_MAX_STATES) {
			pr_err("table_khz: more than %u entries\n",
			       VCPUFREQ_MAX_STATES);
			ret = -EINVAL;
			break;
		}
		ret = vcpufreq_parse_entry(tok, n);
		if (ret)
			break;
		n++;
	}
	kfree(buf);

	return ret ? ret : vcpufreq_check_table(n);
}

/* Pick the preset or the custom table; one log line on bad input. */
static int vcpufreq_setup_table(void)
{
	const struct vcpufreq_preset *p = NULL;
	unsigned int i;

	/* preset= is checked even when table_khz= overrides it. */
	for (i = 0; i < ARRAY_SIZE(vcpufreq_presets); i++) {
		if (preset && !strcmp(preset, vcpufreq_presets[i].name))
			p = &vcpufreq_presets[i];
	}
	if (!p) {
		pr_err("preset=%s is unknown: use epyc-7742, xeon-e5-2687w-v3 or generic, or table_khz=\n",
		       preset ? preset : "");
		return -EINVAL;
	}

	/* A custom table takes its energy model from preset=. */
	vcpufreq_em = p->em;
	if (table_khz)
		return vcpufreq_parse_table(table_khz);

	for (i = 0; i < p->nr; i++) {
		vcpufreq_table[i].frequency = p->khz[i];
		vcpufreq_table[i].flags = i < p->nr_boost ?
					  CPUFREQ_BOOST_FREQ : 0;
	}
	vcpufreq_preset = p;
	return vcpufreq_check_table(p->nr);
}

/* ------------------------------------------------------------------ */
/* Emulated frequency and energy (emulate=1)                           */
/* ------------------------------------------------------------------ */

/*
 * Residency slots: one per table entry, and one more for the hidden boost
 * (EPYC's 3.4 GHz, which no table entry stands for).
 */
#define VCPUFREQ_EMU_SLOTS	(VCPUFREQ_MAX_STATES + 1)

/* A stall takes at most this share of a period, in tenths. */
#define VCPUFREQ_EMU_BUDGET_TENTHS	9

/*
 * Slowest emulated frequency, as a fraction of f_top: with 90 % of each
 * period spent stalling the CPU still does a tenth of its work.
 */
#define VCPUFREQ_EMU_MAX_SLOWDOWN	10

/* More than this from expiry to callback is not interrupt entry. */
#define VCPUFREQ_EMU_MAX_ENTRY_NS	(50 * NSEC_PER_USEC)

/**
 * struct vcpufreq_emu_cpu - one CPU of the emulated machine
 * @lock:	protects every field up to @timer.  Raw, taken with IRQs off:
 *		the hrtimer callback (hard IRQ), the sched_switch probe
 *		(runqueue lock held) and ->fast_switch take it.  Remote CPUs
 *		take it to change the frequency or to read the energy.
 * @last_ns:	ktime_get_ns() up to which the fields below are integrated
 * @online:	the CPU is online and integrated; offline CPUs use no energy
 * @busy:	a task other than the idle task runs
 * @stalling:	the timer is spinning: busy time that is not useful work
 * @idx:	table index the CPU is set to
 * @slot:	residency slot of the frequency it runs at (@idx, or the
 *		hidden boost slot)
 * @eff_khz:	frequency it runs at, kHz
 * @busy_uw:	P_busy(@eff_khz), uW
 * @useful_ns:	useful busy time not yet turned into debt by the timer
 * @debt_ns:	stall time owed
 * @energy_nj:	energy used since load, nJ
 * @busy_ns:	busy time since load (useful work and stalls)
 * @idle_ns:	idle time since load
 * @stall_ns:	stall time since load (part of @busy_ns)
 * @slot_ns:	busy time at each residency slot
 * @fires:	timer callbacks since load
 * @entry_ns:	interrupt entry and exit of the timer since load, estimated
 *		as twice the time from expiry to callback: busy, but not
 *		work that is slowed down
 * @cppc_ctrs:	the CPU's ACPI CPPC Reference and Delivered Performance
 *		Counters in the register page, or NULL (cppc_page= not given)
 * @cppc_reference: reference counter: busy time at the nominal frequency
 *		(max_P), in cycles
 * @cppc_delivered: delivered counter: busy time at @eff_khz, in cycles
 * @timer:	the stall timer, pinned to the CPU
 * @armed:	@timer is queued; only the CPU itself, with IRQs off, reads
 *		or writes it
 */
struct vcpufreq_emu_cpu {
	raw_spinlock_t lock;
	u64 last_ns;
	bool online;
	bool busy;
	bool stalling;
	unsigned int idx;
	unsigned int slot;
	u32 eff_khz;
	u32 busy_uw;
	u64 useful_ns;
	u64 debt_ns;
	u64 energy_nj;
	u64 busy_ns;
	u64 idle_ns;
	u64 stall_ns;
	u64 slot_ns[VCPUFREQ_EMU_SLOTS];
	u64 fires;
	u64 entry_ns;
	void __iomem *cppc_ctrs;
	u64 cppc_reference;
	u64 cppc_delivered;
	struct hrtimer timer;
	bool armed;
};

static DEFINE_PER_CPU(struct vcpufreq_emu_cpu, vcpufreq_emu);

/* Set once at load, then read-only. */
static u32 vcpufreq_top_khz;	/* f_top: the host's speed stands for it */
static u32 vcpufreq_boost_khz;	/* max_P's frequency with boost on, or 0 */
static u32 vcpufreq_slot_khz[VCPUFREQ_EMU_SLOTS];
static u32 vcpufreq_slot_uw[VCPUFREQ_EMU_SLOTS];
static u32 vcpufreq_uncore_uw;	/* the package's uncore share */
static u64 vcpufreq_emu_t0_ns;	/* ktime_get_ns() at load: uncore origin */
static u64 vcpufreq_period_ns;
static enum cpuhp_state vcpufreq_emu_hp;
static struct tracepoint *vcpufreq_tp_switch;

/* Layout of mkssdt.py's register page, per CPU */
#define VCPUFREQ_CPPC_STRIDE		64
#define VCPUFREQ_CPPC_REF_CTR_OFF	16
#define VCPUFREQ_CPPC_DEL_CTR_OFF	24

static void __iomem *vcpufreq_cppc_regs;

/*
 * ACPI CPPC feedback counters (ACPI 6.5 section 8.4.6.1.2.2): both count
 * only while the CPU is active, the reference one at the reference level
 * (the nominal frequency: mkssdt.py sets ReferencePerformance to
 * NominalPerformance), the delivered one at the frequency the CPU runs at,
 * boost included, as the hardware's counters would.  A stall is busy
 * time at @ec->eff_khz, like any other.
 */
static void vcpufreq_cppc_advance(struct vcpufreq_emu_cpu *ec, u64 delta_ns)
{
	lockdep_assert_held(&ec->lock);
	ec->cppc_reference += div_u64(delta_ns * vcpufreq_max_p_khz,
				      USEC_PER_SEC);
	ec->cppc_delivered += div_u64(delta_ns * ec->eff_khz, USEC_PER_SEC);
	writeq(ec->cppc_reference, ec->cppc_ctrs + VCPUFREQ_CPPC_REF_CTR_OFF);
	writeq(ec->cppc_delivered, ec->cppc_ctrs + VCPUFREQ_CPPC_DEL_CTR_OFF);
}

/*
 * Bring @ec's integrals up to @now at its present state.  @now may be a
 * little behind @ec->last_ns when two CPUs read the clock in turn: never
 * go back.
 *
 * Every time here is ktime_get_ns(), not local_clock(): where
 * sched_clock is unstable (a TCG guest has no constant_tsc), local_clock()
 * never runs more than a tick past the last tick's time, so in a hard IRQ
 * that holds the tick off, a spin on it can wait for ever; and it differs
 * between CPUs, which remote readers would see.
 */
static void vcpufreq_emu_account(struct vcpufreq_emu_cpu *ec, u64 now)
{
	u64 delta;

	lockdep_assert_held(&ec->lock);
	if (now <= ec->last_ns)
		return;
	delta = now - ec->last_ns;
	ec->last_ns = now;
	if (!ec->online)
		return;

	if (ec->busy) {
		ec->busy_ns += delta;
		ec->slot_ns[ec->slot] += delta;
		ec->energy_nj += vcpufreq_em_nj(delta, ec->busy_uw);
		if (ec->stalling)
			ec->stall_ns += delta;
		else
			ec->useful_ns += delta;
		if (ec->cppc_ctrs)
			vcpufreq_cppc_advance(ec, delta);
	} else {
		ec->idle_ns += delta;
		ec->energy_nj += vcpufreq_em_nj(delta, vcpufreq_em->idle_uw);
	}
}

/* The slot table entry @idx runs at, boost being @boost_on. */
static unsigned int vcpufreq_emu_slot(unsigned int idx, bool boost_on)
{
	if (boost_on && vcpufreq_boost_khz && idx == vcpufreq_max_p_idx)
		return VCPUFREQ_MAX_STATES;
	return idx;
}

/*
 * Integrate @cpu up to now, then run it at table entry @idx (-1: the
 * entry it is at) with boost @boost_on.
 */
static void vcpufreq_emu_set(unsigned int cpu, int idx, bool boost_on)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);
	unsigned long flags;
	unsigned int slot;

	raw_spin_lock_irqsave(&ec->lock, flags);
	vcpufreq_emu_account(ec, ktime_get_ns());
	if (idx >= 0)
		ec->idx = idx;
	slot = vcpufreq_emu_slot(ec->idx, boost_on);
	ec->slot = slot;
	ec->eff_khz = vcpufreq_slot_khz[slot];
	ec->busy_uw = vcpufreq_slot_uw[slot];
	raw_spin_unlock_irqrestore(&ec->lock, flags);
}

/*
 * The stall timer.  Work done since the last call, at eff_khz, owes
 * (f_top / eff - 1) of its time in stall; spin that off (up to 90 % of a
 * period) in hard-IRQ context, where the interrupted task can neither run
 * nor be migrated, and which Debian's 6.1 (no IRQ_TIME_ACCOUNTING) counts
 * as the task's own busy time.
 */
static enum hrtimer_restart vcpufreq_emu_timer(struct hrtimer *timer)
{
	struct vcpufreq_emu_cpu *ec = container_of(timer,
						   struct vcpufreq_emu_cpu,
						   timer);
	struct vcpufreq_emu_in in;
	struct vcpufreq_emu_out out;
	u64 start, now, late, expires_ns;

	raw_spin_lock(&ec->lock);
	ec->fires++;
	/* An idle CPU stays tickless: the probe re-arms on the way out. */
	if (!ec->online || is_idle_task(current)) {
		raw_spin_unlock(&ec->lock);
		ec->armed = false;
		return HRTIMER_NORESTART;
	}
	start = ktime_get_ns();
	vcpufreq_emu_account(ec, start);
	/*
	 * From the expiry to here the CPU ran the interrupt entry, and after
	 * the spin it runs the exit, which a real CPU at eff_khz would not
	 * run at all: not work to slow down.  Counted as work, they made
	 * every stall too long by ~2 % of a 1 ms period per (f_top/f - 1)
	 * in a TCG guest.  The exit cannot be timed from here: take it to
	 * cost what the entry did.
	 */
	expires_ns = ktime_to_ns(hrtimer_get_expires(timer));
	late = start > expires_ns ? start - expires_ns : 0;
	late = min3(2 * late, ec->useful_ns, (u64)VCPUFREQ_EMU_MAX_ENTRY_NS);
	ec->useful_ns -= late;
	ec->entry_ns += late;
	in.useful_ns = ec->useful_ns;
	in.debt_ns = ec->debt_ns;
	in.eff_khz = ec->eff_khz;
	in.top_khz = vcpufreq_top_khz;
	in.budget_ns = div_u64(vcpufreq_period_ns * VCPUFREQ_EMU_BUDGET_TENTHS,
			       10);
	vcpufreq_emu_step(&in, &out);
	ec->useful_ns = 0;
	ec->debt_ns = out.debt_ns;
	ec->stalling = out.spin_ns != 0;
	raw_spin_unlock(&ec->lock);

	if (out.spin_ns) {
		/*
		 * No cpu_relax(): under TCG, PAUSE ends the vCPU's time slice
		 * and hands the host thread to another vCPU, which would make
		 * the stall cost this CPU nothing.
		 */
		do {
			now = ktime_get_ns();
		} while (now - start < out.spin_ns);

		raw_spin_lock(&ec->lock);
		vcpufreq_emu_account(ec, now);
		ec->stalling = false;
		ec->debt_ns -= min(ec->debt_ns, now - start);
		raw_spin_unlock(&ec->lock);
	}

	hrtimer_forward_now(timer, ns_to_ktime(vcpufreq_period_ns));
	return HRTIMER_RESTART;
}

/*
 * sched_switch probe: integrate at every idle transition, stop the timer
 * when the CPU goes idle and start it when it leaves idle, right away if
 * the last busy spell left a debt (a spell shorter than a period would
 * otherwise never stall).  Runs on the switching CPU, runqueue lock held,
 * IRQs off; hrtick starts its hrtimer from the same place.
 */
static void vcpufreq_emu_switch(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	struct vcpufreq_emu_cpu *ec = this_cpu_ptr(&vcpufreq_emu);
	bool to_idle = is_idle_task(next);
	bool owed;

	if (is_idle_task(prev) == to_idle)
		return;

	raw_spin_lock(&ec->lock);
	if (!ec->online) {
		raw_spin_unlock(&ec->lock);
		return;
	}
	vcpufreq_emu_account(ec, ktime_get_ns());
	ec->busy = !to_idle;
	owed = ec->debt_ns || ec->useful_ns;
	raw_spin_unlock(&ec->lock);

	if (to_idle) {
		/* A pinned timer's callback cannot run now on this CPU. */
		if (ec->armed && hrtimer_try_to_cancel(&ec->timer) >= 0)
			ec->armed = false;
	} else if (!ec->armed) {
		hrtimer_start(&ec->timer,
			      owed ? 0 : ns_to_ktime(vcpufreq_period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
		ec->armed = true;
	}
}

/* CPU hotplug, on the CPU itself (CPUHP_AP_ONLINE_DYN): start integrating. */
static int vcpufreq_emu_online(unsigned int cpu)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);

	raw_spin_lock_irq(&ec->lock);
	ec->last_ns = ktime_get_ns();
	ec->online = true;
	/* The hotplug thread runs: busy. */
	ec->busy = true;
	ec->stalling = false;
	ec->useful_ns = 0;
	ec->debt_ns = 0;
	if (!ec->armed) {
		hrtimer_start(&ec->timer, ns_to_ktime(vcpufreq_period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
		ec->armed = true;
	}
	raw_spin_unlock_irq(&ec->lock);
	return 0;
}

/*
 * Before the CPU goes (or at unload): stop the timer, which hotplug would
 * otherwise migrate to another CPU, and stop integrating.
 */
static int vcpufreq_emu_offline(unsigned int cpu)
{
	struct vcpufreq_emu_cpu *ec = per_cpu_ptr(&vcpufreq_emu, cpu);

	raw_spin_lock_irq(&ec->lock);
	vcpufreq_emu_account(ec, ktime_get_ns());
	ec->online = false;
	ec->armed = false;
	raw_spin_unlock_irq(&ec->lock);
	/* The callback sees !online and does not re-arm; wait for it. */
	hrtimer_cancel(&ec->timer);
	return 0;
}

static void vcpufreq_emu_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		*(struct tracepoint **)priv = tp;
}

/* The package energy since load, in nJ: every CPU plus the uncore. */
static u64 vcpufreq_emu_package_nj(u64 *uncore_nj)
{
	u64 now = ktime_get_ns(), total = 0;
	struct vcpufreq_emu_cpu *ec;
	unsigned long flags;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		ec = per_cpu_ptr(&vcpufreq_emu, cpu);
		raw_spin_lock_irqsave(&ec->lock, flags);
		vcpufreq_emu_account(ec, now);
		total += ec->energy_nj;
		raw_spin_unlock_irqrestore(&ec->lock, flags);
	}
	*uncore_nj = vcpufreq_em_nj(now - vcpufreq_emu_t0_ns,
				    vcpufreq_uncore_uw);
	return total + *uncore_nj;
}

/*
 * Map cppc_page=, where the guest's ACPI tables put the counters.  Not
 * memremap(): the kernel's cppc_acpi ioremap()s the same registers, and
 * two mappings of one page must agree on the (uncached) memory type.
 */
static int vcpufreq_cppc_map(void)
{
	if (!cppc_page)
		return 0;
	if (!PAGE_ALIGNED(cppc_page) ||
	    nr_cpu_ids * VCPUFREQ_CPPC_STRIDE > PAGE_SIZE) {
		pr_err("cppc_page=%#lx: not page aligned, or too many CPUs for one page\n",
		       cppc_page);
		return -EINVAL;
	}
	vcpufreq_cppc_regs = ioremap(cppc_page, PAGE_SIZE);
	if (!vcpufreq_cppc_regs) {
		pr_err("cppc_page=%#lx: cannot map it (RAM? boot with memmap=4K$addr)\n",
		       cppc_page);
		return -EINVAL;
	}
	return 0;
}

static void vcpufreq_cppc_unmap(void)
{
	if (vcpufreq_cppc_regs)
		iounmap(vcpufreq_cppc_regs);
	vcpufreq_cppc_regs = NULL;
}

/*
 * Check the emulation parameters and fill the slot tables.  One log line
 * on bad input.
 */
static int vcpufreq_emu_setup(void)
{
	struct vcpufreq_em_in in = { .model = vcpufreq_em };
	struct vcpufreq_em_out out;
	unsigned int i, min_khz = UINT_MAX;

	if (emulate_period_us < 100 || emulate_period_us > 100000) {
		pr_err("emulate_period_us=%u is out of range 100..100000\n",
		       emulate_period_us);
		return -ERANGE;
	}
	if (energy_range_uj < 1000) {
		pr_err("energy_range_uj=%lu is out of range: at least 1000\n",
		       energy_range_uj);
		return -ERANGE;
	}

	/* Boost entries only count where cpufreq can switch boost on. */
	vcpufreq_top_khz = vcpufreq_max_p_khz;
	if (boost && vcpufreq_max_boost_khz)
		vcpufreq_top_khz = vcpufreq_max_boost_khz;
	vcpufreq_boost_khz = 0;
	if (boost && emulate_boost && vcpufreq_preset &&
	    vcpufreq_preset->hidden_boost_khz > vcpufreq_max_p_khz)
		vcpufreq_boost_khz = vcpufreq_preset->hidden_boost_khz;
	vcpufreq_top_khz = max(vcpufreq_top_khz, vcpufreq_boost_khz);

	for (i = 0; i < vcpufreq_nr_states; i++) {
		vcpufreq_slot_khz[i] = vcpufreq_table[i].frequency;
		min_khz = min(min_khz, vcpufreq_slot_khz[i]);
	}
	vcpufreq_slot_khz[VCPUFREQ_MAX_STATES] = vcpufreq_boost_khz;
	if ((u64)min_khz * VCPUFREQ_EMU_MAX_SLOWDOWN < vcpufreq_top_khz) {
		pr_err("emulate=1: %u kHz is more than %u times slower than the top %u kHz\n",
		       min_khz, VCPUFREQ_EMU_MAX_SLOWDOWN, vcpufreq_top_khz);
		return -ERANGE;
	}
	for (i = 0; i < VCPUFREQ_EMU_SLOTS; i++) {
		if (!vcpufreq_slot_khz[i])
			continue;
		in.khz = vcpufreq_slot_khz[i];
		vcpufreq_em_busy(&in, &out);
		vcpufreq_slot_uw[i] = out.busy_uw;
	}
	vcpufreq_uncore_uw = vcpufreq_em->uncore_uw_per_core *
			     num_possible_cpus();
	vcpufreq_period_ns = (u64)emulate_period_us * NSEC_PER_USEC;
	return vcpufreq_cppc_map();
}

/*
 * Start the emulated machine: every CPU at max_P (as vcpufreq_cpu_init()
 * sets it), timers from the hotplug callbacks, idle transitions from the
 * sched_switch tracepoint.
 */
static int vcpufreq_emu_start(void)
{
	bool boost_on = boost;	/* the core's initial state, set in init */
	struct vcpufreq_emu_cpu *ec;
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		ec = per_cpu_ptr(&vcpufreq_emu, cpu);
		memset(ec, 0, sizeof(*ec));
		raw_spin_lock_init(&ec->lock);
		hrtimer_init(&ec->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		ec->timer.function = vcpufreq_emu_timer;
		if (vcpufreq_cppc_regs) {
			/* 6.1 refuses counters that read 0: start at 1 */
			ec->cppc_ctrs = vcpufreq_cppc_regs +
					cpu * VCPUFREQ_CPPC_STRIDE;
			ec->cppc_reference = 1;
			ec->cppc_delivered = 1;
			writeq(1, ec->cppc_ctrs + VCPUFREQ_CPPC_REF_CTR_OFF);
			writeq(1, ec->cppc_ctrs + VCPUFREQ_CPPC_DEL_CTR_OFF);
		}
		vcpufreq_emu_set(cpu, vcpufreq_max_p_idx, boost_on);
	}
	vcpufreq_emu_t0_ns = ktime_get_ns();

	for_each_kernel_tracepoint(vcpufreq_emu_find_tp, &vcpufreq_tp_switch);
	if (!vcpufreq_tp_switch) {
		pr_err("emulate=1: no sched_switch tracepoint\n");
		return -ENODEV;
	}
	ret = tracepoint_probe_register(vcpufreq_tp_switch,
					vcpufreq_emu_switch, NULL);
	if (ret) {
		pr_err("emulate=1: sched_switch probe: %d\n", ret);
		return ret;
	}

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "cpufreq/vcpufreq:emu",
				vcpufreq_emu_online, vcpufreq_emu_offline);
	if (ret < 0) {
		pr_err("emulate=1: hotplug state: %d\n", ret);
		tracepoint_probe_unregister(vcpufreq_tp_switch,
					    vcpufreq_emu_switch, NULL);
		tracepoint_synchronize_unregister();
		return ret;
	}
	vcpufreq_emu_hp = ret;
	return 0;
}

/* Stop every timer and the probe; nothing of ours runs afterwards. */
static void vcpufreq_emu_stop(void)
{
	/* The offline callback, on each CPU, cancels its timer. */
	cpuhp_remove_state(vcpufreq_emu_hp);
	tracepoint_probe_unregister(vcpufreq_tp_switch, vcpufreq_emu_switch,
				    NULL);
	/* Waits for a probe still running on another CPU. */
	tracepoint_synchronize_unregister();
}

#if IS_ENABLED(CONFIG_POWERCAP)
static struct powercap_control_type *vcpufreq_pcap_type;
static struct powercap_zone *vcpufreq_pcap_zone;

static int vcpufreq_pcap_energy(struct powercap_zone *zone, u64 *energy_uj)
{
	u64 uncore_nj, rem;

	div64_u64_rem(div_u64(vcpufreq_emu_package_nj(&uncore_nj), 1000),
		      energy_range_uj, &rem);
	*energy_uj = rem;
	return 0;
}

static int vcpufreq_pcap_range(struct powercap_zone *zone, u64 *range_uj)
{
	*range_uj = energy_range_uj;
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

/*
 * The package zone, named as intel_rapl_common names it, so a tool reads
 * the guest as it reads RAPL.  Not where a real intel-rapl exists (the
 * name would clash, and its figures are the real ones).  Failure only
 * costs the zone.
 */
static void vcpufreq_pcap_init(void)
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

static void vcpufreq_pcap_exit(void)
{
	if (!vcpufreq_pcap_type)
		return;
	/* Removes the files and waits for their readers. */
	powercap_unregister_zone(vcpufreq_pcap_type, vcpufreq_pcap_zone);
	powercap_unregister_control_type(vcpufreq_pcap_type);
}
#else
static void vcpufreq_pcap_init(void)
{
	pr_info("emulate=1: kernel without CONFIG_POWERCAP, no powercap zone\n");
}

static void vcpufreq_pcap_exit(void)
{
}
#endif

/* ------------------------------------------------------------------ */
/* Recording                                                           */
/* ------------------------------------------------------------------ */

/*
 * Append one record and count it.  Any context, including the scheduler's
 * update_util hook with IRQs off: no allocation, a raw spinlock only.
 */
static void vcpufreq_record(unsigned int cpu, unsigned int idx, bool fast)
{
	struct vcpufreq_log *log = &vcpufreq_log;
	struct vcpufreq_record *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&log->lock, flags);
	/* Stamped under the lock so the record is in time order. */
	rec = &log->ring[log->head & (VCPUFREQ_RING_ENTRIES - 1)];
	rec->time_ns = ktime_get_ns();
	rec->khz = vcpufreq_table[idx].frequency;
	rec->cpu = cpu;
	rec->fast = fast;

	/* A full ring loses its oldest record to the new one. */
	if (log->head - log->tail == VCPUFREQ_RING_ENTRIES) {
		log->tail++;
		log->dropped++;
	}
	log->head++;

	if (fast)
		log->nr_fast++;
	else
		log->nr_slow++;
	log->cpu_count[cpu]++;
	log->state_count[idx]++;
	raw_spin_unlock_irqrestore(&log->lock, flags);
}

/*
 * "Program" table entry @idx on every CPU of @policy and record it.  All
 * related CPUs, online or not, share one clock domain in a shared policy,
 * as the CPUs of an ACPI _PSD domain of type ANY do.
 */
static unsigned int vcpufreq_set(struct cpufreq_policy *policy,
				 unsigned int idx, bool fast)
{
	unsigned int khz = vcpufreq_table[idx].frequency;
	unsigned int cpu;

	for_each_cpu(cpu, policy->related_cpus) {
		WRITE_ONCE(per_cpu(vcpufreq_cur_khz, cpu), khz);
		if (emulate)
			vcpufreq_emu_set(cpu, idx, cpufreq_boost_enabled());
	}

	vcpufreq_record(policy->cpu, idx, fast);
	return khz;
}

/* ------------------------------------------------------------------ */
/* cpufreq driver                                                      */
/* ------------------------------------------------------------------ */

/* The fail_khz knob, near the end of the file */
static bool vcpufreq_target_fails(unsigned int khz);

/**
 * vcpufreq_target_index() - slow path: set a policy's CPUs to a table entry
 * @policy: the policy, its rwsem held for writing by the core
 * @index: index in policy->freq_table, already resolved and limited
 *
 * The core sends the transition notifications (PRECHANGE/POSTCHANGE)
 * around this call; it skips the call when the frequency is policy->cur.
 *
 * Context: process context (governor work, sysfs store, kthread).
 * Return: 0.
 */
static int vcpufreq_target_index(struct cpufreq_policy *policy,
				 unsigned int index)
{
	/* The fail_khz knob (below): leave the P-state as it is */
	if (vcpufreq_target_fails(vcpufreq_table[index].frequency))
		return -EAGAIN;
	vcpufreq_set(policy, index, false);
	return 0;
}

/**
 * vcpufreq_fast_switch() - fast path: set a policy's CPUs from the scheduler
 * @policy: the policy
 * @target_freq: requested frequency in kHz, clamped to policy->min..max
 *
 * Resolves @target_freq to the lowest table entry at or above it within the
 * policy limits (as acpi-cpufreq does), every time: a driver must not rely
 * on the governor having resolved it first.
 *
 * Context: scheduler update_util hook, runqueue lock held, IRQs off.
 * Return: the frequency set, in kHz; 0 (no change) if nothing fits.
 */
static unsigned int vcpufreq_fast_switch(struct cpufreq_policy *policy,
					 unsigned int target_freq)
{
	int idx;

	idx = cpufreq_frequency_table_target(policy, target_freq, policy->min,
					     policy->max, CPUFREQ_RELATION_L);
	if (idx < 0 || idx >= (int)vcpufreq_nr_states)
		return 0;

	return vcpufreq_set(policy, idx, true);
}

/**
 * vcpufreq_get() - current frequency of a CPU
 * @cpu: the CPU
 *
 * Context: any.
 * Return: the frequency @cpu was last set to, in kHz; 0 before its policy
 * was initialized.
 */
static unsigned int vcpufreq_get(unsigned int cpu)
{
	return READ_ONCE(per_cpu(vcpufreq_cur_khz, cpu));
}

/**
 * vcpufreq_cpu_init() - set up a new policy
 * @policy: the policy, policy->cpus holding only policy->cpu
 *
 * Every CPU starts at max_P, the highest non-boost entry: firmware hands
 * over at P0 and acpi-cpufreq reads that back from the hardware.
 *
 * Context: process context, CPU hotplug lock held.
 * Return: 0.
 */
static int vcpufreq_cpu_init(struct cpufreq_policy *policy)
{
	unsigned int cpu;

	if (shared) {
		/*
		 * One policy for every possible CPU; the core keeps offline
		 * ones in related_cpus and removes them from policy->cpus.
		 */
		cpumask_copy(policy->cpus, cpu_possible_mask);
		policy->shared_type = CPUFREQ_SHARED_TYPE_ANY;
	} else {
		policy->shared_type = CPUFREQ_SHARED_TYPE_NONE;
	}

	policy->freq_table = vcpufreq_table;
	policy->cpuinfo.transition_latency = transition_latency_ns;
	/*
	 * Let the core compute cpuinfo from the table: it keeps a larger
	 * cpuinfo.max_freq it finds here, which a policy re-initialized after
	 * its CPUs went offline would still carry from an earlier boost state.
	 */
	policy->cpuinfo.max_freq = 0;
	policy->fast_switch_possible = fast_switch;

	for_each_cpu(cpu, policy->cpus) {
		WRITE_ONCE(per_cpu(vcpufreq_cur_khz, cpu), vcpufreq_max_p_khz);
		if (emulate)
			vcpufreq_emu_set(cpu, vcpufreq_max_p_idx,
					 cpufreq_boost_enabled());
	}

	return 0;
}

/**
 * vcpufreq_set_boost() - apply a new global boost state to one policy
 * @policy: an active policy
 * @state: 1 boost on, 0 off (already stored in the driver by the core)
 *
 * With boost entries in the table, cpuinfo_max_freq moves to the highest
 * boost entry or back to max_P, and the policy limits are re-evaluated
 * right away.  A user's scaling_max_freq cap survives the toggle (the
 * core's own helper for cpufreq-dt overwrites it).  Without boost entries
 * (epyc-7742) nothing cpufreq sees changes, as with acpi-cpufreq's CPB;
 * with emulate=1 the CPUs at max_P move to or from the hidden boost.
 *
 * Context: process context, CPU hotplug lock held, no policy lock held.
 * Return: 0.
 */
static int vcpufreq_set_boost(struct cpufreq_policy *policy, int state)
{
	unsigned int cpu;

	if (emulate) {
		for_each_cpu(cpu, policy->related_cpus)
			vcpufreq_emu_set(cpu, -1, state);
	}
	if (!vcpufreq_max_boost_khz)
		return 0;

	down_write(&policy->rwsem);
	policy->cpuinfo.max_freq = state ? vcpufreq_max_boost_khz :
					   vcpufreq_max_p_khz;
	/* Applies qos limits clamped to the new cpuinfo, then the governor. */
	refresh_frequency_limits(policy);
	up_write(&policy->rwsem);
	return 0;
}

/*
 * System sleep: cpufreq_suspend() stops each policy's governor and then
 * calls ->suspend; cpufreq_resume() calls ->resume and then starts the
 * governor again.  The first ->resume after a suspend therefore marks the
 * moment from which every request comes from a restarted governor: the
 * stats file shows it as resume_ns (the record's clock) for
 * selftests/77-suspend.sh.  Written from the PM core's thread only.
 */
static bool vcpufreq_suspended;
static u64 vcpufreq_resume_ns;
static unsigned int vcpufreq_resumes;

static int vcpufreq_suspend(struct cpufreq_policy *policy)
{
	vcpufreq_suspended = true;
	return 0;
}

static int vcpufreq_resume(struct cpufreq_policy *policy)
{
	if (vcpufreq_suspended) {
		vcpufreq_suspended = false;
		WRITE_ONCE(vcpufreq_resume_ns, ktime_get_ns());
		WRITE_ONCE(vcpufreq_resumes, vcpufreq_resumes + 1);
	}
	return 0;
}

/* scaling_available_frequencies, plus scaling_boost_frequencies if listed. */
static struct freq_attr *vcpufreq_attrs[3];

static struct cpufreq_driver vcpufreq_driver = {
	.name		= "vcpufreq",
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= vcpufreq_target_index,
	.get		= vcpufreq_get,
	.init		= vcpufreq_cpu_init,
	.suspend	= vcpufreq_suspend,
	.resume		= vcpufreq_resume,
	.attr		= vcpufreq_attrs,
	/* Set from the parameters in vcpufreq_init(): */
	.fast_switch	= NULL,
	.set_boost	= NULL,
};

/* ------------------------------------------------------------------ */
/* debugfs                                                             */
/* ------------------------------------------------------------------ */

/**
 * struct vcpufreq_reader - one open "requests" file
 * @end:	head when the file was opened: a reader sees a snapshot and
 *		always reaches the end, however fast records arrive
 * @rec:	copy of the record being shown, taken under the lock
 */
struct vcpufreq_reader {
	u64 end;
	struct vcpufreq_record rec;
};

/*
 * Copy record number *@pos (a sequence number) into the reader, skipping
 * forward over records overwritten or reset since the file was opened.
 */
static void *vcpufreq_req_fetch(struct seq_file *m, loff_t *pos)
{
	struct vcpufreq_reader *r = m->private;
	struct vcpufreq_log *log = &vcpufreq_log;
	void *ret = NULL;
	u64 seq = *pos;

	raw_spin_lock_irq(&log->lock);
	if (seq < log->tail)
		seq = log->tail;
	if (seq < r->end && seq < log->head) {
		r->rec = log->ring[seq & (VCPUFREQ_RING_ENTRIES - 1)];
		ret = &r->rec;
	}
	raw_spin_unlock_irq(&log->lock);

	*pos = seq;
	return ret;
}

static void *vcpufreq_req_start(struct seq_file *m, loff_t *pos)
{
	return vcpufreq_req_fetch(m, pos);
}

static void *vcpufreq_req_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return vcpufreq_req_fetch(m, pos);
}

static void vcpufreq_req_stop(struct seq_file *m, void *v)
{
}

static int vcpufreq_req_show(struct seq_file *m, void *v)
{
	const struct vcpufreq_record *rec = v;

	seq_printf(m, "%llu %u %u %s\n", rec->time_ns, rec->cpu, rec->khz,
		   rec->fast ? "fast" : "slow");
	return 0;
}

static const struct seq_operations vcpufreq_req_sops = {
	.start	= vcpufreq_req_start,
	.next	= vcpufreq_req_next,
	.stop	= vcpufreq_req_stop,
	.show	= vcpufreq_req_show,
};

/*
 * The seq_file position is the record's sequence number, so it starts at
 * the tail: a reader that opened before a reset or an overwrite simply
 * skips what is gone.
 */
static int vcpufreq_req_open(struct inode *inode, struct file *file)
{
	struct vcpufreq_reader *r;

	r = __seq_open_private(file, &vcpufreq_req_sops, sizeof(*r));
	if (!r)
		return -ENOMEM;

	raw_spin_lock_irq(&vcpufreq_log.lock);
	r->end = vcpufreq_log.head;
	raw_spin_unlock_irq(&vcpufreq_log.lock);
	return 0;
}

static const struct file_operations vcpufreq_req_fops = {
	.owner		= THIS_MODULE,
	.open		= vcpufreq_req_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

/* The counters, copied under the lock and printed outside it. */
static int vcpufreq_stats_show(struct seq_file *m, void *v)
{
	struct vcpufreq_log *log = &vcpufreq_log;
	u64 state_count[VCPUFREQ_MAX_STATES];
	u64 fast, slow, dropped, buffered;
	unsigned int cpu, i;
	u64 *cpu_count;

	cpu_count = kcalloc(nr_cpu_ids, sizeof(*cpu_count), GFP_KERNEL);
	if (!cpu_count)
		return -ENOMEM;

	raw_spin_lock_irq(&log->lock);
	fast = log->nr_fast;
	slow = log->nr_slow;
	dropped = log->dropped;
	buffered = log->head - log->tail;
	memcpy(cpu_count, log->cpu_count, nr_cpu_ids * sizeof(*cpu_count));
	memcpy(state_count, log->state_count, sizeof(state_count));
	raw_spin_unlock_irq(&log->lock);

	seq_printf(m, "fast %llu\nslow %llu\ntotal %llu\n", fast, slow,
		   fast + slow);
	seq_printf(m, "dropped %llu\nbuffered %llu\n", dropped, buffered);
	for_each_possible_cpu(cpu)
		seq_printf(m, "cpu %u %llu\n", cpu, cpu_count[cpu]);
	for (i = 0; i < vcpufreq_nr_states; i++)
		seq_printf(m, "freq %u %llu\n", vcpufreq_table[i].frequency,
			   state_count[i]);
	seq_printf(m, "resumes %u\nresume_ns %llu\n", READ_ONCE(vcpufreq_resumes),
		   READ_ONCE(vcpufreq_resume_ns));

	kfree(cpu_count);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_stats);

static int vcpufreq_cur_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		seq_printf(m, "%u %u\n", cpu, vcpufreq_get(cpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_cur);

/* What was loaded, so a test needs no second copy of the presets. */
static int vcpufreq_config_show(struct seq_file *m, void *v)
{
	unsigned int i;

	seq_printf(m, "preset %s\n",
		   vcpufreq_preset ? vcpufreq_preset->name : "custom");
	seq_puts(m, "table_khz ");
	for (i = 0; i < vcpufreq_nr_states; i++)
		seq_printf(m, "%s%u%s", i ? "," : "",
			   vcpufreq_table[i].frequency,
			   vcpufreq_table[i].flags & CPUFREQ_BOOST_FREQ ?
			   "b" : "");
	seq_printf(m, "\nmax_p_khz %u\n", vcpufreq_max_p_khz);
	seq_printf(m, "max_boost_khz %u\n", vcpufreq_max_boost_khz);
	seq_printf(m, "hidden_boost_khz %u\n",
		   vcpufreq_preset ? vcpufreq_preset->hidden_boost_khz : 0);
	seq_printf(m, "boost %d\nfast_switch %d\nshared %d\n", boost,
		   fast_switch, shared);
	seq_printf(m, "per_policy_tunables %d\ntransition_latency_ns %u\n",
		   per_policy_tunables, transition_latency_ns);
	seq_printf(m, "ring_entries %u\n", VCPUFREQ_RING_ENTRIES);
	seq_printf(m, "emulate %d\n", emulate);
	if (!emulate)
		return 0;
	seq_printf(m, "emulate_boost %d\nemulate_period_us %u\n",
		   emulate_boost, emulate_period_us);
	seq_printf(m, "top_khz %u\nboost_khz %u\nenergy_range_uj %lu\n",
		   vcpufreq_top_khz, vcpufreq_boost_khz, energy_range_uj);
	for (i = 0; i < VCPUFREQ_EMU_SLOTS; i++) {
		if (vcpufreq_slot_khz[i])
			seq_printf(m, "busy_uw %u %u\n", vcpufreq_slot_khz[i],
				   vcpufreq_slot_uw[i]);
	}
	seq_printf(m, "idle_uw %u\nuncore_uw %u\n", vcpufreq_em->idle_uw,
		   vcpufreq_uncore_uw);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_config);

/*
 * The emulated machine's integrals, brought up to the moment of reading:
 *   cpu <cpu> khz <f> energy_uj <n> busy_ns <n> idle_ns <n> stall_ns <n> fires <n>
 *   residency <cpu> <khz> <busy ns at khz>     one per slot that ran
 *   uncore energy_uj <n> power_uw <n>
 *   package energy_uj <n>                      (not wrapped)
 * busy_ns includes stall_ns; fires counts stall timer callbacks.
 */
static int vcpufreq_energy_show(struct seq_file *m, void *v)
{
	struct vcpufreq_emu_cpu *ec, snap;
	u64 now, uncore_nj, total_nj;
	unsigned int cpu, i;

	total_nj = vcpufreq_emu_package_nj(&uncore_nj);
	for_each_possible_cpu(cpu) {
		ec = per_cpu_ptr(&vcpufreq_emu, cpu);
		now = ktime_get_ns();
		raw_spin_lock_irq(&ec->lock);
		vcpufreq_emu_account(ec, now);
		snap.eff_khz = ec->eff_khz;
		snap.energy_nj = ec->energy_nj;
		snap.busy_ns = ec->busy_ns;
		snap.idle_ns = ec->idle_ns;
		snap.stall_ns = ec->stall_ns;
		snap.fires = ec->fires;
		snap.entry_ns = ec->entry_ns;
		memcpy(snap.slot_ns, ec->slot_ns, sizeof(snap.slot_ns));
		raw_spin_unlock_irq(&ec->lock);

		seq_printf(m, "cpu %u khz %u energy_uj %llu busy_ns %llu idle_ns %llu stall_ns %llu fires %llu entry_ns %llu\n",
			   cpu, snap.eff_khz, div_u64(snap.energy_nj, 1000),
			   snap.busy_ns, snap.idle_ns, snap.stall_ns,
			   snap.fires, snap.entry_ns);
		for (i = 0; i < VCPUFREQ_EMU_SLOTS; i++) {
			if (vcpufreq_slot_khz[i] && snap.slot_ns[i])
				seq_printf(m, "residency %u %u %llu\n", cpu,
					   vcpufreq_slot_khz[i],
					   snap.slot_ns[i]);
		}
	}
	seq_printf(m, "uncore energy_uj %llu power_uw %u\n",
		   div_u64(uncore_nj, 1000), vcpufreq_uncore_uw);
	seq_printf(m, "package energy_uj %llu\n", div_u64(total_nj, 1000));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vcpufreq_energy);

/* Any write empties the record and zeroes every counter. */
static ssize_t vcpufreq_reset_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	struct vcpufreq_log *log = &vcpufreq_log;

	raw_spin_lock_irq(&log->lock);
	log->tail = log->head;
	log->dropped = 0;
	log->nr_fast = 0;
	log->nr_slow = 0;
	memset(log->cpu_count, 0, nr_cpu_ids * sizeof(*log->cpu_count));
	memset(log->state_count, 0, sizeof(log->state_count));
	raw_spin_unlock_irq(&log->lock);
	return count;
}

static const struct file_operations vcpufreq_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= vcpufreq_reset_write,
	.llseek	= noop_llseek,
};

/* ------------------------------------------------------------------ */
/* fail_khz: make the slow path program another frequency than meant   */
/* ------------------------------------------------------------------ */

/*
 * debugfs fail_khz: write a table frequency, and the next ->target_index
 * call for it leaves the P-state as it is and fails (-EAGAIN); reads
 * back 0 once that happened.  The core then restores policy->cur, so the
 * CPU runs another frequency than the governor's kthread asked for: what
 * Linux 6.1's __cpufreq_driver_target() does when an update_util hook's
 * cpufreq_driver_resolve_freq() overwrites policy->cached_resolved_idx
 * between its resolve and its ->target_index call, made deterministic
 * for the governor's resync test (selftests/40-resync.sh).
 */
static u32 vcpufreq_fail_khz;

/* Is this the request fail_khz names?  Consumes the knob when it is. */
static bool vcpufreq_target_fails(unsigned int khz)
{
	return READ_ONCE(vcpufreq_fail_khz) &&
	       cmpxchg(&vcpufreq_fail_khz, khz, 0) == khz;
}

static void vcpufreq_fail_debugfs_init(struct dentry *dir)
{
	debugfs_create_u32("fail_khz", 0600, dir, &vcpufreq_fail_khz);
}

/* debugfs failures are not fatal: the driver works without its record. */
static void vcpufreq_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir(KBUILD_MODNAME, NULL);

	debugfs_create_file("requests", 0444, dir, NULL, &vcpufreq_req_fops);
	debugfs_create_file("stats", 0444, dir, NULL, &vcpufreq_stats_fops);
	debugfs_create_file("cur", 0444, dir, NULL, &vcpufreq_cur_fops);
	debugfs_create_file("config", 0444, dir, NULL, &vcpufreq_config_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &vcpufreq_reset_fops);
	vcpufreq_fail_debugfs_init(dir);
	if (emulate)
		debugfs_create_file("energy", 0444, dir, NULL,
				    &vcpufreq_energy_fops);
	vcpufreq_debugfs = dir;
}

/* ------------------------------------------------------------------ */
/* Module                                                              */
/* ------------------------------------------------------------------ */

/* For the load message: how boost looks to cpufreq. */
static const char *vcpufreq_boost_name(void)
{
	if (!boost)
		return "unsupported";
	return vcpufreq_max_boost_khz ? "listed, on" : "hidden, on";
}

static void vcpufreq_log_free(void)
{
	vfree(vcpufreq_log.ring);
	kfree(vcpufreq_log.cpu_count);
}

static int __init vcpufreq_init(void)
{
	struct vcpufreq_log *log = &vcpufreq_log;
	const char *other;
	int ret;

	ret = vcpufreq_setup_table();
	if (ret)
		return ret;
	if (cppc_page && !emulate) {
		pr_err("cppc_page= needs emulate=1: only the emulation advances the counters\n");
		return -EINVAL;
	}
	if (emulate) {
		ret = vcpufreq_emu_setup();
		if (ret)
			return ret;
	}

	/* Never displace a real driver; the core would refuse us anyway. */
	other = cpufreq_get_current_driver();
	if (other) {
		pr_err("cpufreq driver %s is already registered; vcpufreq is for machines without one\n",
		       other);
		vcpufreq_cppc_unmap();
		return -EEXIST;
	}

	log->ring = vmalloc(array_size(VCPUFREQ_RING_ENTRIES,
				       sizeof(*log->ring)));
	log->cpu_count = kcalloc(nr_cpu_ids, sizeof(*log->cpu_count),
				 GFP_KERNEL);
	if (!log->ring || !log->cpu_count) {
		vcpufreq_log_free();
		vcpufreq_cppc_unmap();
		return -ENOMEM;
	}

	vcpufreq_attrs[0] = &cpufreq_freq_attr_scaling_available_freqs;
	if (vcpufreq_max_boost_khz)
		vcpufreq_attrs[1] = &cpufreq_freq_attr_scaling_boost_freqs;
	if (fast_switch)
		vcpufreq_driver.fast_switch = vcpufreq_fast_switch;
	if (per_policy_tunables)
		vcpufreq_driver.flags |= CPUFREQ_HAVE_GOVERNOR_PER_POLICY;
	/* A ->set_boost is what makes the core create the boost file. */
	if (boost) {
		vcpufreq_driver.set_boost = vcpufreq_set_boost;
		vcpufreq_driver.boost_enabled = true;
	}

	/* The emulated CPUs exist before the first frequency is set. */
	if (emulate) {
		ret = vcpufreq_emu_start();
		if (ret) {
			vcpufreq_log_free();
			vcpufreq_cppc_unmap();
			return ret;
		}
	}

	/* Before registering: governors start, and ask, during registration. */
	vcpufreq_debugfs_init();

	ret = cpufreq_register_driver(&vcpufreq_driver);
	if (ret) {
		if (ret == -EEXIST)
			pr_err("another cpufreq driver registered first; vcpufreq is for machines without one\n");
		else
			pr_err("cpufreq_register_driver() failed: %d\n", ret);
		debugfs_remove_recursive(vcpufreq_debugfs);
		if (emulate)
			vcpufreq_emu_stop();
		vcpufreq_log_free();
		vcpufreq_cppc_unmap();
		return ret;
	}
	if (emulate)
		vcpufreq_pcap_init();

	pr_info("%s: %u P-states, max_P %u kHz, boost %s, %s, %s policies\n",
		vcpufreq_preset ? vcpufreq_preset->name : "custom table",
		vcpufreq_nr_states, vcpufreq_max_p_khz, vcpufreq_boost_name(),
		fast_switch ? "fast switch" : "slow path only",
		shared ? "one shared" : "per-CPU");
	if (emulate)
		pr_info("emulating: top %u kHz, boost %u kHz, period %u us\n",
			vcpufreq_top_khz, vcpufreq_boost_khz,
			emulate_period_us);
	return 0;
}
module_init(vcpufreq_init);

static void __exit vcpufreq_exit(void)
{
	/* No energy_uj reader is left once this returns. */
	if (emulate)
		vcpufreq_pcap_exit();
	/* Stops the governors first: no callback runs after this. */
	cpufreq_unregister_driver(&vcpufreq_driver);
	/* Waits for open debugfs files to leave their handlers. */
	debugfs_remove_recursive(vcpufreq_debugfs);
	if (emulate)
		vcpufreq_emu_stop();
	/* No timer or probe writes the counters any more */
	vcpufreq_cppc_unmap();
	vcpufreq_log_free();
}
module_exit(vcpufreq_exit);

MODULE_DESCRIPTION("Test-only virtual cpufreq driver with P-state tables of real CPUs");
MODULE_LICENSE("GPL");
