// SPDX-License-Identifier: GPL-2.0-only
/*
 * fi-probe: print max_P, max_boost, their midpoint and Linux 6.1's
 * frequency-invariance ratio, from this machine's AMD CPPC or Intel MSRs
 * or from raw values on the command line.  It links the kernel module's
 * own decoders (../../amd_cppc_ratio.c, ../../intel_ratio.c), so it shows
 * exactly what freq_invariance.ko computes, without loading anything.
 *
 * Output: key=value lines.  Exit status: 0 success; 2 missing, malformed
 * or rejected values (one line on stderr saying which); 1 other errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <unistd.h>

#include "amd_cppc_ratio.h"
#include "intel_ratio.h"

#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

#define EXIT_BAD_INPUT	2
#define MAX_CPUS	8192
#define SYS_CPU		"/sys/devices/system/cpu"

static const char *prog = "fi-probe";

/* One line on stderr, then exit: every failure path of the tool */
static noreturn void die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/*
 * FI_PROBE_ROOT, when set, prefixes /proc, /sys and /dev paths, so that
 * test.sh can exercise machine mode on a fake tree (MSR files are read
 * with pread at the MSR's offset, as /dev/cpu/N/msr is).
 */
static const char *root = "";

/* root + path into buf; paths here are short, truncation is an error */
static const char *rooted(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(root);
	va_list ap;
	int m;

	if (n >= len)
		die(1, "path too long under FI_PROBE_ROOT");
	memcpy(buf, root, n);
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - n)
		die(1, "path too long under FI_PROBE_ROOT");
	return buf;
}

static void show_help(FILE *f)
{
	fprintf(f,
		"Usage: %s [--cpu N]                      (this machine)\n"
		"       %s --vendor amd --family F --model M --highest-perf N[,N...]\n"
		"          --nominal-perf N [--lowest-nonlinear-perf N --lowest-perf N]\n"
		"          --nominal-freq-mhz N [--lowest-freq-mhz N]\n"
		"       %s --vendor intel --family F --model M --platform-info X\n"
		"          --turbo-ratio-limit X [--turbo-ratio-limit1 X] [--misc-enable X]\n"
		"          [--atom-core-ratios X --atom-core-turbo-ratios X]\n"
		"          [--bus-khz N | --fsb-freq X]\n"
		"Numbers are decimal or 0x-prefixed hex.  Prints key=value lines.\n",
		prog, prog, prog);
}

/* Whole-string unsigned parse; malformed or out of range exits 2 */
static uint64_t parse_u64(const char *opt, const char *s, uint64_t max)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		die(EXIT_BAD_INPUT, "--%s: malformed value '%s'", opt, s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s)
		die(EXIT_BAD_INPUT, "--%s: malformed value '%s'", opt, s);
	if (v > max)
		die(EXIT_BAD_INPUT, "--%s: value '%s' above %llu", opt, s,
		    (unsigned long long)max);
	return v;
}

static const char *err_name(int err)
{
	switch (err) {
	case -EINVAL:
		return "EINVAL";
	case -ERANGE:
		return "ERANGE";
	case -ENODATA:
		return "ENODATA";
	case -EOPNOTSUPP:
		return "EOPNOTSUPP";
	}
	return "unknown error";
}

/* ---- AMD ---------------------------------------------------------------- */

struct amd_input {
	struct amd_cppc_raw raw;
	u32 *highest;		/* one highest_perf per CPU */
	unsigned int nr;
};

static void amd_print(const struct amd_cppc_raw *raw,
		      const struct amd_cppc_ratio_result *r)
{
	printf("vendor=amd\nfamily=0x%x\nmodel=0x%x\n", raw->family, raw->model);
	printf("source=cppc\n");
	printf("max_p_khz=%u\n", r->max_p_khz);
	printf("max_boost_khz=%u\n", r->max_boost_khz);
	printf("midpoint_khz=%u\n", r->midpoint_khz);
	printf("kernel_ratio=%u\n", r->kernel_ratio);
	printf("kernel_reference_khz=%u\n", r->kernel_reference_khz);
	printf("max_boost_rule=%s\n", amd_cppc_ratio_rule_name(r->max_boost_rule));
	printf("max_boost_perf=%u\n", r->max_boost_perf);
	printf("boost_ratio=%u\n", r->boost_ratio);
	printf("highest_perf=%u\n", raw->highest_perf);
	printf("highest_perf_uniform=%d\n", raw->highest_perf_uniform);
	printf("nominal_perf=%u\n", raw->nominal_perf);
	printf("cppc_boost_ratio=%u\n", r->cppc_boost_ratio);
	printf("cppc_max_boost_khz=%u\n", r->cppc_max_boost_khz);
	printf("kernel_highest_perf=%u\n", r->kernel_highest_perf);
	printf("kernel_boost_ratio=%u\n", r->kernel_boost_ratio);
	printf("kernel_max_freq_khz=%u\n", r->kernel_max_freq_khz);
	printf("lowest_freq_khz=%u\n", r->lowest_freq_khz);
}

static void amd_decode_print(const char *where, const struct amd_cppc_raw *raw)
{
	struct amd_cppc_ratio_result r;
	const char *why = "";
	int err = amd_cppc_ratio_decode_reason(raw, &r, &why);

	if (err)
		die(EXIT_BAD_INPUT, "%s%s (%s)", where, why, err_name(err));
	amd_print(raw, &r);
}

/* "N[,N...]": one highest_perf per CPU */
static void parse_highest_list(struct amd_input *in, const char *s)
{
	char *copy, *tok, *save = NULL;

	copy = strdup(s);
	if (!copy)
		die(1, "out of memory");
	in->highest = calloc(MAX_CPUS, sizeof(*in->highest));
	if (!in->highest)
		die(1, "out of memory");
	if (!*s || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		die(EXIT_BAD_INPUT, "--highest-perf: malformed list '%s'", s);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (in->nr == MAX_CPUS)
			die(EXIT_BAD_INPUT, "--highest-perf: more than %d values",
			    MAX_CPUS);
		in->highest[in->nr++] = parse_u64("highest-perf", tok, UINT32_MAX);
	}
	free(copy);
}

static void amd_from_args(struct amd_input *in)
{
	unsigned int i;
	bool uniform;
	int err;

	if (!in->nr)
		die(EXIT_BAD_INPUT, "missing --highest-perf");
	/* One value is trivially uniform; the decoder then judges a zero */
	uniform = true;
	err = in->nr > 1 ?
	      amd_cppc_ratio_highest_uniform(in->highest, in->nr, &uniform) : 0;
	if (err)
		die(EXIT_BAD_INPUT, "--highest-perf: a CPU reports 0 (%s)",
		    err_name(err));
	in->raw.highest_perf_uniform = uniform;
	/* cppc_* report the best-ranked CPU: what a naive reader would use */
	in->raw.highest_perf = 0;
	for (i = 0; i < in->nr; i++)
		if (in->highest[i] > in->raw.highest_perf)
			in->raw.highest_perf = in->highest[i];
	amd_decode_print("", &in->raw);
}

/* ---- Intel -------------------------------------------------------------- */

static void intel_print(const struct intel_ratio_raw *raw,
			const struct intel_ratio_result *r)
{
	printf("vendor=intel\nfamily=0x%x\nmodel=0x%x\n", raw->family, raw->model);
	printf("source=msr\n");
	printf("max_p_khz=%u\n", r->max_p_khz);
	printf("max_boost_khz=%u\n", r->max_boost_khz);
	printf("midpoint_khz=%u\n", r->midpoint_khz);
	printf("kernel_ratio=%u\n", r->kernel_ratio);
	printf("kernel_reference_khz=%u\n", r->kernel_reference_khz);
	printf("path=%s\n", intel_ratio_path_name(r->path));
	printf("bus_khz=%u\n", r->bus_khz);
	printf("base_ratio=%u\n", r->base);
	printf("turbo_1c_ratio=%u\n", r->turbo_1c);
	printf("kernel_turbo_ratio=%u\n", r->kernel_turbo);
	printf("turbo_disabled=%d\n", r->turbo_disabled);
	printf("boost_ratio=%u\n", r->boost_ratio);
	printf("turbo_freq_ratio=%u\n", r->turbo_freq_ratio);
}

static void intel_decode_print(const char *where, struct intel_ratio_raw *raw,
			       const u64 *fsb)
{
	struct intel_ratio_result r;
	const char *why = "";
	int err;

	if (!raw->bus_khz) {
		err = intel_ratio_bus_khz(raw->family, raw->model, fsb,
					  &raw->bus_khz);
		if (err == -ENODATA)
			die(EXIT_BAD_INPUT,
			    "%sSilvermont/Airmont bus clock needs MSR_FSB_FREQ (--fsb-freq or --bus-khz) (ENODATA)",
			    where);
		if (err)
			die(EXIT_BAD_INPUT, "%sbus clock: %s (%s)", where,
			    err == -EINVAL ? "MSR_FSB_FREQ index outside the table" :
			    "not a family 6 part; Linux 6.1 has no rule for it",
			    err_name(err));
	}
	err = intel_ratio_decode_reason(raw, &r, &why);
	if (err)
		die(EXIT_BAD_INPUT, "%s%s (%s)", where, why, err_name(err));
	intel_print(raw, &r);
}

/* ---- this machine --------------------------------------------------------- */

struct cpu_id {
	char vendor[32];
	u32 family, model;
};

static void read_cpuinfo(struct cpu_id *id)
{
	char line[512];
	const char *path = rooted(line, sizeof(line), "/proc/cpuinfo");
	FILE *f = fopen(path, "r");
	bool fam = false, mod = false;

	if (!f)
		die(1, "%s: %s", path, strerror(errno));
	memset(id, 0, sizeof(*id));
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = 0;
		if (!id->vendor[0] && !strncmp(line, "vendor_id", 9)) {
			snprintf(id->vendor, sizeof(id->vendor), "%s", v);
		} else if (!fam && !strncmp(line, "cpu family", 10)) {
			id->family = strtoul(v, NULL, 10);
			fam = true;
		} else if (!mod && !strncmp(line, "model\t", 6)) {
			id->model = strtoul(v, NULL, 10);
			mod = true;
		}
		if (id->vendor[0] && fam && mod)
			break;
	}
	fclose(f);
	if (!id->vendor[0] || !fam || !mod)
		die(1, "/proc/cpuinfo: no vendor_id/cpu family/model (not x86?)");
}

/* Parse the kernel's cpulist ("0-3,6") of online CPUs */
static unsigned int online_cpus(unsigned int *cpus)
{
	char buf[4096], *tok, *save = NULL;
	FILE *f = fopen(rooted(buf, sizeof(buf), SYS_CPU "/online"), "r");
	unsigned int n = 0, a, b;

	if (!f || !fgets(buf, sizeof(buf), f))
		die(1, SYS_CPU "/online: unreadable");
	fclose(f);
	for (tok = strtok_r(buf, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save)) {
		char *end;

		a = strtoul(tok, &end, 10);
		b = a;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (end == tok || *end)
			die(1, SYS_CPU "/online: malformed");
		for (; a <= b && n < MAX_CPUS; a++)
			cpus[n++] = a;
	}
	return n;
}

/* One acpi_cppc file; 0 when absent (the field is optional in ACPI) */
static u32 read_cppc(unsigned int cpu, const char *name, bool required)
{
	char path[256], buf[64];
	unsigned long long v;
	char *end;
	FILE *f;

	rooted(path, sizeof(path), SYS_CPU "/cpu%u/acpi_cppc/%s", cpu, name);
	f = fopen(path, "r");
	if (!f) {
		if (!required)
			return 0;
		die(EXIT_BAD_INPUT, "%s: %s (no ACPI CPPC on this machine or kernel)",
		    path, strerror(errno));
	}
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		die(EXIT_BAD_INPUT, "%s: unreadable", path);
	}
	fclose(f);
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n') || v > UINT32_MAX)
		die(EXIT_BAD_INPUT, "%s: malformed value '%s'", path, buf);
	return v;
}

static void amd_machine(const struct cpu_id *id, unsigned int *cpus,
			unsigned int n, int only)
{
	struct amd_cppc_raw raw = { .family = id->family, .model = id->model };
	u32 *highest = calloc(n, sizeof(*highest));
	char where[32];
	unsigned int i;
	bool uniform;

	if (!highest)
		die(1, "out of memory");
	/* The all-CPUs-equal rule needs every online CPU's highest_perf */
	for (i = 0; i < n; i++)
		highest[i] = read_cppc(cpus[i], "highest_perf", true);
	if (amd_cppc_ratio_highest_uniform(highest, n, &uniform))
		die(EXIT_BAD_INPUT, "a CPU reports highest_perf 0");
	raw.highest_perf_uniform = uniform;

	for (i = 0; i < n; i++) {
		unsigned int c = cpus[i];

		if (only >= 0 && c != (unsigned int)only)
			continue;
		raw.highest_perf = highest[i];
		raw.nominal_perf = read_cppc(c, "nominal_perf", true);
		raw.lowest_nonlinear_perf =
			read_cppc(c, "lowest_nonlinear_perf", false);
		raw.lowest_perf = read_cppc(c, "lowest_perf", false);
		raw.nominal_freq_mhz = read_cppc(c, "nominal_freq", false);
		raw.lowest_freq_mhz = read_cppc(c, "lowest_freq", false);
		snprintf(where, sizeof(where), "cpu%u: ", c);
		printf("cpu=%u\n", c);
		amd_decode_print(where, &raw);
	}
	free(highest);
}

/*
 * pread of one MSR; false when the CPU faults on it (EIO), or, in a fake
 * FI_PROBE_ROOT tree, when the file ends before it
 */
static bool read_msr(int fd, unsigned int cpu, u32 msr, u64 *val)
{
	ssize_t r = pread(fd, val, sizeof(*val), msr);

	if (r == (ssize_t)sizeof(*val))
		return true;
	if (r < 0 && errno != EIO)
		die(1, "/dev/cpu/%u/msr: MSR 0x%x: %s", cpu, msr, strerror(errno));
	return false;
}

static void intel_machine(const struct cpu_id *id, unsigned int *cpus,
			  unsigned int n, int only)
{
	static const struct {
		u32 msr, bit;
		size_t off;
	} regs[] = {
		{ INTEL_RATIO_MSR_PLATFORM_INFO, INTEL_RATIO_HAVE_PLATFORM_INFO,
		  offsetof(struct intel_ratio_raw, platform_info) },
		{ INTEL_RATIO_MSR_TURBO_RATIO_LIMIT,
		  INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT,
		  offsetof(struct intel_ratio_raw, turbo_ratio_limit) },
		{ INTEL_RATIO_MSR_TURBO_RATIO_LIMIT1,
		  INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1,
		  offsetof(struct intel_ratio_raw, turbo_ratio_limit1) },
		{ INTEL_RATIO_MSR_IA32_MISC_ENABLE, INTEL_RATIO_HAVE_MISC_ENABLE,
		  offsetof(struct intel_ratio_raw, misc_enable) },
		{ INTEL_RATIO_MSR_ATOM_CORE_RATIOS,
		  INTEL_RATIO_HAVE_ATOM_CORE_RATIOS,
		  offsetof(struct intel_ratio_raw, atom_core_ratios) },
		{ INTEL_RATIO_MSR_ATOM_CORE_TURBO_RATIOS,
		  INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS,
		  offsetof(struct intel_ratio_raw, atom_core_turbo_ratios) },
	};
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		struct intel_ratio_raw raw = {
			.family = id->family, .model = id->model,
		};
		unsigned int c = cpus[i];
		char path[256], where[32];
		u64 fsb;
		bool have_fsb;
		int fd;

		if (only >= 0 && c != (unsigned int)only)
			continue;
		rooted(path, sizeof(path), "/dev/cpu/%u/msr", c);
		fd = open(path, O_RDONLY);
		if (fd < 0 && errno == ENOENT)
			die(EXIT_BAD_INPUT, "%s missing: load the msr module (modprobe msr)",
			    path);
		if (fd < 0 && (errno == EACCES || errno == EPERM))
			die(EXIT_BAD_INPUT,
			    "%s: permission denied (run as root: needs CAP_SYS_RAWIO)",
			    path);
		if (fd < 0)
			die(1, "%s: %s", path, strerror(errno));
		for (j = 0; j < ARRAY_SIZE(regs); j++) {
			u64 *dst = (u64 *)((char *)&raw + regs[j].off);

			if (read_msr(fd, c, regs[j].msr, dst))
				raw.have |= regs[j].bit;
		}
		have_fsb = read_msr(fd, c, INTEL_RATIO_MSR_FSB_FREQ, &fsb);
		close(fd);
		snprintf(where, sizeof(where), "cpu%u: ", c);
		printf("cpu=%u\n", c);
		intel_decode_print(where, &raw, have_fsb ? &fsb : NULL);
	}
}

static int machine(int only)
{
	unsigned int *cpus = calloc(MAX_CPUS, sizeof(*cpus));
	struct cpu_id id;
	unsigned int n;

	if (!cpus)
		die(1, "out of memory");
	read_cpuinfo(&id);
	n = online_cpus(cpus);
	if (!n)
		die(1, "no online CPUs");
	if (only >= 0) {
		unsigned int i;

		for (i = 0; i < n && cpus[i] != (unsigned int)only; i++)
			;
		if (i == n)
			die(EXIT_BAD_INPUT, "--cpu %d: not an online CPU", only);
	}
	if (!strcmp(id.vendor, "AuthenticAMD"))
		amd_machine(&id, cpus, n, only);
	else if (!strcmp(id.vendor, "GenuineIntel"))
		intel_machine(&id, cpus, n, only);
	else
		die(EXIT_BAD_INPUT, "vendor %s: only AuthenticAMD and GenuineIntel are decoded",
		    id.vendor);
	free(cpus);
	return 0;
}

/* ---- command line ----------------------------------------------------------- */

enum {
	OPT_VENDOR = 256, OPT_FAMILY, OPT_MODEL, OPT_CPU,
	OPT_HIGHEST, OPT_NOMINAL, OPT_LNL, OPT_LOWEST, OPT_NOM_MHZ, OPT_LOW_MHZ,
	OPT_PI, OPT_TRL, OPT_TRL1, OPT_MISC, OPT_ACR, OPT_ACTR, OPT_BUS, OPT_FSB,
};

static const struct option opts[] = {
	{ "vendor", required_argument, NULL, OPT_VENDOR },
	{ "family", required_argument, NULL, OPT_FAMILY },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "highest-perf", required_argument, NULL, OPT_HIGHEST },
	{ "nominal-perf", required_argument, NULL, OPT_NOMINAL },
	{ "lowest-nonlinear-perf", required_argument, NULL, OPT_LNL },
	{ "lowest-perf", required_argument, NULL, OPT_LOWEST },
	{ "nominal-freq-mhz", required_argument, NULL, OPT_NOM_MHZ },
	{ "lowest-freq-mhz", required_argument, NULL, OPT_LOW_MHZ },
	{ "platform-info", required_argument, NULL, OPT_PI },
	{ "turbo-ratio-limit", required_argument, NULL, OPT_TRL },
	{ "turbo-ratio-limit1", required_argument, NULL, OPT_TRL1 },
	{ "misc-enable", required_argument, NULL, OPT_MISC },
	{ "atom-core-ratios", required_argument, NULL, OPT_ACR },
	{ "atom-core-turbo-ratios", required_argument, NULL, OPT_ACTR },
	{ "bus-khz", required_argument, NULL, OPT_BUS },
	{ "fsb-freq", required_argument, NULL, OPT_FSB },
	{ "help", no_argument, NULL, 'h' },
	{ }
};

/* Options that belong to one vendor only; used to reject mixtures */
#define AMD_OPTS	((1ULL << (OPT_HIGHEST - 256)) | (1ULL << (OPT_NOMINAL - 256)) | \
			 (1ULL << (OPT_LNL - 256)) | (1ULL << (OPT_LOWEST - 256)) | \
			 (1ULL << (OPT_NOM_MHZ - 256)) | (1ULL << (OPT_LOW_MHZ - 256)))
#define INTEL_OPTS	((1ULL << (OPT_PI - 256)) | (1ULL << (OPT_TRL - 256)) | \
			 (1ULL << (OPT_TRL1 - 256)) | (1ULL << (OPT_MISC - 256)) | \
			 (1ULL << (OPT_ACR - 256)) | (1ULL << (OPT_ACTR - 256)) | \
			 (1ULL << (OPT_BUS - 256)) | (1ULL << (OPT_FSB - 256)))
#define SEEN(o)		(seen & (1ULL << ((o) - 256)))

int main(int argc, char **argv)
{
	struct amd_input amd = { };
	struct intel_ratio_raw intel = { };
	const char *vendor = NULL;
	u64 fsb = 0, seen = 0;
	int only = -1, c;
	u32 family = 0, model = 0;

	if (getenv("FI_PROBE_ROOT"))
		root = getenv("FI_PROBE_ROOT");
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		const char *name = c >= 256 ? opts[c - 256].name : "";

		if (c >= 256) {
			if (SEEN(c))
				die(EXIT_BAD_INPUT, "--%s given twice", name);
			seen |= 1ULL << (c - 256);
		}
		switch (c) {
		case OPT_VENDOR:
			vendor = optarg;
			break;
		case OPT_FAMILY:
			family = parse_u64(name, optarg, 0xffff);
			break;
		case OPT_MODEL:
			model = parse_u64(name, optarg, 0xff);
			break;
		case OPT_CPU:
			only = parse_u64(name, optarg, MAX_CPUS - 1);
			break;
		case OPT_HIGHEST:
			parse_highest_list(&amd, optarg);
			break;
		case OPT_NOMINAL:
			amd.raw.nominal_perf = parse_u64(name, optarg, UINT32_MAX);
			break;
		case OPT_LNL:
			amd.raw.lowest_nonlinear_perf =
				parse_u64(name, optarg, UINT32_MAX);
			break;
		case OPT_LOWEST:
			amd.raw.lowest_perf = parse_u64(name, optarg, UINT32_MAX);
			break;
		case OPT_NOM_MHZ:
			amd.raw.nominal_freq_mhz = parse_u64(name, optarg, UINT32_MAX);
			break;
		case OPT_LOW_MHZ:
			amd.raw.lowest_freq_mhz = parse_u64(name, optarg, UINT32_MAX);
			break;
		case OPT_PI:
			intel.platform_info = parse_u64(name, optarg, UINT64_MAX);
			intel.have |= INTEL_RATIO_HAVE_PLATFORM_INFO;
			break;
		case OPT_TRL:
			intel.turbo_ratio_limit = parse_u64(name, optarg, UINT64_MAX);
			intel.have |= INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT;
			break;
		case OPT_TRL1:
			intel.turbo_ratio_limit1 = parse_u64(name, optarg, UINT64_MAX);
			intel.have |= INTEL_RATIO_HAVE_TURBO_RATIO_LIMIT1;
			break;
		case OPT_MISC:
			intel.misc_enable = parse_u64(name, optarg, UINT64_MAX);
			intel.have |= INTEL_RATIO_HAVE_MISC_ENABLE;
			break;
		case OPT_ACR:
			intel.atom_core_ratios = parse_u64(name, optarg, UINT64_MAX);
			intel.have |= INTEL_RATIO_HAVE_ATOM_CORE_RATIOS;
			break;
		case OPT_ACTR:
			intel.atom_core_turbo_ratios =
				parse_u64(name, optarg, UINT64_MAX);
			intel.have |= INTEL_RATIO_HAVE_ATOM_CORE_TURBO_RATIOS;
			break;
		case OPT_BUS:
			intel.bus_khz = parse_u64(name, optarg, UINT32_MAX);
			if (!intel.bus_khz)
				die(EXIT_BAD_INPUT, "--bus-khz: must be above 0");
			break;
		case OPT_FSB:
			fsb = parse_u64(name, optarg, UINT64_MAX);
			break;
		case 'h':
			show_help(stdout);
			return 0;
		default:
			show_help(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind < argc)
		die(EXIT_BAD_INPUT, "unexpected argument '%s'", argv[optind]);

	if (!vendor) {
		if (seen & ~(1ULL << (OPT_CPU - 256)))
			die(EXIT_BAD_INPUT, "raw values need --vendor amd|intel");
		return machine(only);
	}
	if (SEEN(OPT_CPU))
		die(EXIT_BAD_INPUT, "--cpu applies to this machine only, not with --vendor");
	if (!SEEN(OPT_FAMILY))
		die(EXIT_BAD_INPUT, "missing --family");
	if (!SEEN(OPT_MODEL))
		die(EXIT_BAD_INPUT, "missing --model");

	if (!strcmp(vendor, "amd")) {
		if (seen & INTEL_OPTS)
			die(EXIT_BAD_INPUT, "Intel MSR options given with --vendor amd");
		if (!SEEN(OPT_NOMINAL))
			die(EXIT_BAD_INPUT, "missing --nominal-perf");
		if (!SEEN(OPT_NOM_MHZ))
			die(EXIT_BAD_INPUT, "missing --nominal-freq-mhz");
		amd.raw.family = family;
		amd.raw.model = model;
		amd_from_args(&amd);
		free(amd.highest);
		return 0;
	}
	if (!strcmp(vendor, "intel")) {
		if (seen & AMD_OPTS)
			die(EXIT_BAD_INPUT, "AMD CPPC options given with --vendor intel");
		if (!SEEN(OPT_ACR) != !SEEN(OPT_ACTR))
			die(EXIT_BAD_INPUT,
			    "--atom-core-ratios and --atom-core-turbo-ratios go together");
		if (!SEEN(OPT_ACR)) {
			if (!SEEN(OPT_PI))
				die(EXIT_BAD_INPUT, "missing --platform-info");
			if (!SEEN(OPT_TRL))
				die(EXIT_BAD_INPUT, "missing --turbo-ratio-limit");
		}
		if (SEEN(OPT_BUS) && SEEN(OPT_FSB))
			die(EXIT_BAD_INPUT, "--bus-khz and --fsb-freq exclude each other");
		intel.family = family;
		intel.model = model;
		intel_decode_print("", &intel, SEEN(OPT_FSB) ? &fsb : NULL);
		return 0;
	}
	die(EXIT_BAD_INPUT, "--vendor: '%s' is neither amd nor intel", vendor);
}
