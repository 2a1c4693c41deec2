// SPDX-License-Identifier: GPL-2.0-only
/*
 * fi-probe: print max_P, max_boost, their midpoint and the kernel's
 * frequency-invariance ratio (Linux 6.1's or 6.12's rules, --rules), from
 * this machine's AMD CPPC or Intel MSRs or from raw values on the command
 * line.  It links the kernel module's own decoders (../../amd_cppc_ratio.c,
 * ../../intel_ratio.c) and caps resolver (../../freq_inv_caps.c), so it
 * shows exactly what freq_invariance.ko computes, without loading
 * anything.
 *
 * On a machine it takes the same fallbacks and overrides as the module
 * (freq_inv_caps_resolve()): the hardware (ACPI CPPC or MSRs), else the
 * cpufreq table (source cpufreq), and --max-p-khz/--max-boost-khz (source
 * override); --check compares the answer with the loaded module's
 * /sys/kernel/freq_invariance/.
 *
 * Output: key=value lines, or JSON with --json.  Exit status (also in
 * --help): 0 success; 1 other errors; 2 missing, malformed or rejected
 * values (one line on stderr saying which); 3 partial: the ratios are
 * known but a kHz value is not (printed as "unknown"); 4 --check found a
 * difference from the module (one stderr line per difference).
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
#include "freq_inv_caps.h"
#include "intel_ratio.h"

#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

#define EXIT_BAD_INPUT	2
#define EXIT_PARTIAL	3
#define EXIT_MISMATCH	4

#ifndef FI_PROBE_VERSION
#define FI_PROBE_VERSION "unknown"
#endif
#define MAX_CPUS	8192
#define SYS_CPU		"/sys/devices/system/cpu"

static const char *prog = "fi-probe";

/*
 * Output: "key=value" lines, or with --json one array of objects, one
 * object per record (a CPU in machine mode, the decode of raw values
 * otherwise).  Keys and values never need escaping (names and numbers).
 */
static bool json;
static bool rec_open;
static unsigned int nr_recs, nr_fields;

static void rec_end(void)
{
	if (json && rec_open)
		fputs("}", stdout);
	rec_open = false;
}

/* Start a new record: the "cpu" key in machine mode does */
static void rec_begin(void)
{
	rec_end();
	if (json) {
		fputs(nr_recs ? ",\n {" : "[{", stdout);
		rec_open = true;
		nr_fields = 0;
	}
	nr_recs++;
}

static void kv(const char *key, bool number, const char *fmt, ...)
{
	va_list ap;

	if (json) {
		if (!rec_open)
			rec_begin();
		printf("%s\"%s\": %s", nr_fields++ ? ", " : "", key,
		       number ? "" : "\"");
	} else {
		printf("%s=", key);
	}
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputs(json ? (number ? "" : "\"") : "\n", stdout);
}

#define kv_u(key, v)	kv(key, true, "%llu", (unsigned long long)(v))
#define kv_x(key, v)	kv(key, false, "0x%llx", (unsigned long long)(v))
#define kv_s(key, v)	kv(key, false, "%s", v)

/* kHz values a partial decode does not know print as "unknown" */
static bool khz_unknown;
/* Some record was partial: exit 3 */
static bool partial_seen;

static void kv_khz(const char *key, u32 khz)
{
	if (khz_unknown)
		kv_s(key, "unknown");
	else
		kv_u(key, khz);
}

static void out_finish(void)
{
	rec_end();
	if (json)
		puts(nr_recs ? "]" : "[]");
	fflush(stdout);
}

/* One line on stderr, then exit: every failure path of the tool */
static noreturn void die(int status, const char *fmt, ...)
{
	va_list ap;

	out_finish();

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
		"Usage: %s [--cpu N] [--check]            (this machine)\n"
		"       %s --vendor amd --family F --model M --highest-perf N[,N...]\n"
		"          --nominal-perf N [--lowest-nonlinear-perf N --lowest-perf N]\n"
		"          --nominal-freq-mhz N [--lowest-freq-mhz N]\n"
		"       %s --vendor intel --family F --model M --platform-info X\n"
		"          --turbo-ratio-limit X [--turbo-ratio-limit1 X] [--misc-enable X]\n"
		"          [--atom-core-ratios X --atom-core-turbo-ratios X]\n"
		"          [--bus-khz N | --fsb-freq X]\n"
		"Every form: [--rules 6.1|6.12] [--max-p-khz N --max-boost-khz N] [--json]\n"
		"  --rules: whose ratio rules (default: the running kernel's, else 6.1's)\n"
		"Numbers are decimal or 0x-prefixed hex.  Prints key=value lines.\n"
		"Exit: 0 ok, 1 error, 2 bad or missing values, 3 ratios known but a kHz\n"
		"value not, 4 --check found a difference from the module.\n",
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
	case -ENOENT:
		return "ENOENT";
	case -EIO:
		return "EIO";
	}
	return "unknown error";
}

/* ---- one decode, printed ---------------------------------------------------- */

/* --rules: whose ratio rules the decoders follow */
static enum freq_ratio_rules rules = FREQ_RATIO_RULES_6_1;

/* --max-p-khz / --max-boost-khz, as the module's parameters */
static struct freq_inv_override override;

/*
 * What fi-probe found for one CPU (or one set of raw values): the caps
 * the module would publish (@res, from freq_inv_caps_resolve()), then the
 * hardware decode's details when there was one.
 */
struct probe {
	const char *vendor;		/* "amd" or "intel" */
	u32 family, model;
	struct freq_inv_caps_in in;	/* what the caps are resolved from */
	struct freq_inv_resolved res;
	bool have_amd, have_intel;	/* which details below are set */
	struct amd_cppc_raw amd_raw;
	struct amd_cppc_ratio_result amd;
	struct intel_ratio_raw intel_raw;
	struct intel_ratio_result intel;
};

/* A probe of @vendor's part, before anything is known */
static void probe_init(struct probe *p, const char *vendor, u32 family,
		       u32 model)
{
	memset(p, 0, sizeof(*p));
	p->vendor = vendor;
	p->family = family;
	p->model = model;
	p->in.override = override;
	if (!strcmp(vendor, "amd")) {
		p->in.vendor = FREQ_INV_VENDOR_AMD;
		p->in.hw_source = FREQ_INV_SRC_CPPC;
	} else {
		p->in.vendor = FREQ_INV_VENDOR_INTEL;
		p->in.hw_source = FREQ_INV_SRC_MSR;
	}
}

/* The hardware decode's answer (@err 0) or why there is none */
static void probe_hw(struct probe *p, int err, u32 max_p_khz,
		     u32 max_boost_khz, u32 kernel_ratio)
{
	p->in.hw_err = err;
	p->in.hw.max_p_khz = max_p_khz;
	p->in.hw.max_boost_khz = max_boost_khz;
	p->in.hw.kernel_ratio = kernel_ratio;
}

/* The module's rules: @p->res from @p->in; 0 or why the hardware was not used */
static int probe_resolve(struct probe *p)
{
	return freq_inv_caps_resolve(&p->in, &p->res);
}

static void print_probe(const struct probe *p)
{
	const struct amd_cppc_ratio_result *a = &p->amd;
	const struct intel_ratio_result *r = &p->intel;
	bool partial = khz_unknown;

	if (partial && !override.given)
		partial_seen = true;
	kv_s("vendor", p->vendor);
	kv_x("family", p->family);
	kv_x("model", p->model);
	kv_s("rules", freq_ratio_rules_name(rules));
	kv_s("source", freq_inv_source_name(p->res.source));
	/* Overridden frequencies are known even where the bus clock is not */
	if (override.given)
		khz_unknown = false;
	kv_khz("max_p_khz", p->res.max_p_khz);
	kv_khz("max_boost_khz", p->res.max_boost_khz);
	kv_khz("midpoint_khz",
	       freq_ratio_midpoint_khz(p->res.max_p_khz, p->res.max_boost_khz));
	khz_unknown = partial;
	kv_u("kernel_ratio", p->res.kernel_ratio);
	if (p->have_amd) {
		kv_u("kernel_reference_khz", a->kernel_reference_khz);
		kv_s("max_boost_rule", amd_cppc_ratio_rule_name(a->max_boost_rule));
		kv_u("max_boost_perf", a->max_boost_perf);
		kv_u("boost_ratio", a->boost_ratio);
		kv_u("highest_perf", p->amd_raw.highest_perf);
		kv_u("highest_perf_uniform", p->amd_raw.highest_perf_uniform);
		kv_u("nominal_perf", p->amd_raw.nominal_perf);
		kv_u("cppc_boost_ratio", a->cppc_boost_ratio);
		kv_u("cppc_max_boost_khz", a->cppc_max_boost_khz);
		kv_u("kernel_highest_perf", a->kernel_highest_perf);
		kv_u("kernel_boost_ratio", a->kernel_boost_ratio);
		kv_u("kernel_max_freq_khz", a->kernel_max_freq_khz);
		kv_u("lowest_freq_khz", a->lowest_freq_khz);
	}
	if (p->have_intel) {
		kv_khz("kernel_reference_khz", r->kernel_reference_khz);
		kv_s("path", intel_ratio_path_name(r->path));
		kv_khz("bus_khz", r->bus_khz);
		kv_u("base_ratio", r->base);
		kv_u("turbo_1c_ratio", r->turbo_1c);
		kv_u("kernel_turbo_ratio", r->kernel_turbo);
		kv_u("turbo_disabled", r->turbo_disabled);
		kv_u("boost_ratio", r->boost_ratio);
		kv_u("turbo_freq_ratio", r->turbo_freq_ratio);
	}
}

/*
 * Raw values: the module would ignore what the hardware says only when
 * it cannot be believed; without an override that leaves nothing.
 */
static void raw_finish(struct probe *p, const char *why)
{
	int err = probe_resolve(p);

	if (err && !override.given)
		die(EXIT_BAD_INPUT, "%s (%s)",
		    p->in.hw_err ? why : "frequencies or ratio out of range: the module ignores them",
		    err_name(err));
	print_probe(p);
}

/* ---- AMD ---------------------------------------------------------------- */

struct amd_input {
	struct amd_cppc_raw raw;
	u32 *highest;		/* one highest_perf per CPU */
	unsigned int nr;
};

/* Decode @raw into @p's hardware answer; 0 or the decoder's error with @why set */
static int amd_decode(const struct amd_cppc_raw *raw, struct probe *p,
		      const char **why)
{
	int err = amd_cppc_ratio_decode_reason(raw, &p->amd, why);

	if (!err) {
		p->have_amd = true;
		p->amd_raw = *raw;
	}
	probe_hw(p, err, p->amd.max_p_khz, p->amd.max_boost_khz,
		 p->amd.kernel_ratio);
	return err;
}

static void amd_decode_print(const struct amd_cppc_raw *raw)
{
	struct probe p;
	const char *why = "";

	probe_init(&p, "amd", raw->family, raw->model);
	amd_decode(raw, &p, &why);
	raw_finish(&p, why);
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
	amd_decode_print(&in->raw);
}

/* ---- Intel -------------------------------------------------------------- */

/*
 * Decode @raw into @p's hardware answer.  A Silvermont/Airmont without
 * MSR_FSB_FREQ has no bus clock, but its ratios, and so the kernel's
 * invariance ratio, are defined: decode them with a 1 kHz bus and mark
 * every kHz value unknown (exit 3) instead of refusing the whole part.
 */
static int intel_decode(struct intel_ratio_raw *raw, const u64 *fsb,
			struct probe *p, const char **why)
{
	int err = 0;

	if (!raw->bus_khz) {
		err = intel_ratio_bus_khz(raw->family, raw->model, fsb,
					  &raw->bus_khz);
		if (err == -ENODATA) {
			raw->bus_khz = 1;
			khz_unknown = true;
			err = 0;
		} else if (err) {
			*why = err == -EINVAL ?
			       "bus clock: MSR_FSB_FREQ index outside the table" :
			       "bus clock: not a family 6 part; the kernel has no rule for it";
		}
	}
	if (!err)
		err = intel_ratio_decode_reason(raw, &p->intel, why);
	if (err) {
		khz_unknown = false;
	} else {
		p->have_intel = true;
		p->intel_raw = *raw;
	}
	probe_hw(p, err, p->intel.max_p_khz, p->intel.max_boost_khz,
		 p->intel.kernel_ratio);
	return err;
}

static void intel_decode_print(struct intel_ratio_raw *raw, const u64 *fsb)
{
	struct probe p;
	const char *why = "";

	probe_init(&p, "intel", raw->family, raw->model);
	intel_decode(raw, fsb, &p, &why);
	raw_finish(&p, why);
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

/* Why the hardware path failed, for the one line a fallback-less CPU gets */
static char hw_why[320];

/*
 * One unsigned number from a sysfs file under the root; 0 on success,
 * -ENOENT when absent, -EIO when unreadable (6.1's acpi_cppc files fail
 * with EFAULT on a zero level), -EINVAL when malformed; @hw_why says which.
 */
static int read_sys_u32(const char *path, u32 *val)
{
	char buf[64];
	unsigned long long v;
	char *end;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(hw_why, sizeof(hw_why), "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	if (!fgets(buf, sizeof(buf), f)) {
		snprintf(hw_why, sizeof(hw_why), "%s: unreadable (%s)", path,
			 strerror(errno));
		fclose(f);
		return -EIO;
	}
	fclose(f);
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n') || v > UINT32_MAX) {
		buf[strcspn(buf, "\n")] = 0;
		snprintf(hw_why, sizeof(hw_why), "%s: malformed value '%s'", path, buf);
		return -EINVAL;
	}
	*val = v;
	return 0;
}

/* One acpi_cppc file; an absent optional one reads as 0 */
static int read_cppc(unsigned int cpu, const char *name, bool required, u32 *val)
{
	char path[256];
	int err;

	rooted(path, sizeof(path), SYS_CPU "/cpu%u/acpi_cppc/%s", cpu, name);
	*val = 0;
	err = read_sys_u32(path, val);
	if (err == -ENOENT && !required)
		return 0;
	return err;
}

/* The largest number of a whitespace-separated list file; *found if any */
#define LIST_SEPS "\n\t "
static u32 max_in_list(const char *path, bool *found)
{
	char buf[4096], *tok, *save = NULL;
	FILE *f = fopen(path, "r");
	u32 best = 0;

	*found = false;
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		for (tok = strtok_r(buf, LIST_SEPS, &save); tok;
		     tok = strtok_r(NULL, LIST_SEPS, &save)) {
			unsigned long v = strtoul(tok, NULL, 10);

			if (v && v <= UINT32_MAX && v > best)
				best = v;
		}
	}
	fclose(f);
	*found = best != 0;
	return best;
}

/*
 * What @cpu's cpufreq policy tells, as freq_invariance reads it from the
 * policy: the table's top non-boost entry (scaling_available_frequencies),
 * its top boost entry (scaling_boost_frequencies), cpuinfo_max_freq (0
 * without a policy) and whether the driver has the global boost switch.
 */
static void read_policy(unsigned int cpu, struct freq_inv_policy_info *pol)
{
	char path[256];
	bool found;

	memset(pol, 0, sizeof(*pol));
	pol->max_p_khz = max_in_list(rooted(path, sizeof(path), SYS_CPU
					    "/cpu%u/cpufreq/scaling_available_frequencies", cpu),
				     &found);
	pol->max_boost_khz = max_in_list(rooted(path, sizeof(path), SYS_CPU
						"/cpu%u/cpufreq/scaling_boost_frequencies", cpu),
					 &found);
	if (read_sys_u32(rooted(path, sizeof(path), SYS_CPU
				"/cpu%u/cpufreq/cpuinfo_max_freq", cpu),
			 &pol->cpuinfo_max_khz))
		pol->cpuinfo_max_khz = 0;
	pol->boost_switch = !access(rooted(path, sizeof(path), SYS_CPU
					   "/cpufreq/boost"), F_OK);
}

/*
 * Is boost off in cpufreq for @cpu, as the module judges it
 * (freq_inv_caps_boost_off())?  Only a CPU with a policy can be.
 */
static bool boost_off(const struct probe *p)
{
	char path[256];
	u32 on = 1;

	if (!p->in.policy.cpuinfo_max_khz)
		return false;
	if (p->res.boost_switch &&
	    read_sys_u32(rooted(path, sizeof(path), SYS_CPU "/cpufreq/boost"), &on))
		on = 1;
	return freq_inv_caps_boost_off(&p->res, on, p->in.policy.cpuinfo_max_khz);
}

/*
 * --check: the module's report of @cpu against @caps, one stderr line per
 * difference.  Returns the number of differences.
 */
static unsigned int check_module(unsigned int cpu, const struct freq_inv_caps *caps)
{
	static const char *const fields[] = {
		"max_p_khz", "max_boost_khz", "midpoint_khz", "kernel_ratio",
	};
	u32 want[] = { caps->max_p_khz, caps->max_boost_khz,
		       caps->midpoint_khz, caps->kernel_ratio };
	const char *source = freq_inv_source_name(caps->source);
	unsigned int i, diffs = 0;
	char path[256], src[32] = "";
	FILE *f;
	u32 got;

	rooted(path, sizeof(path), "/sys/kernel/freq_invariance/cpu%u/source", cpu);
	f = fopen(path, "r");
	if (!f)
		die(EXIT_BAD_INPUT, "--check: %s: %s (is freq_invariance loaded?)",
		    path, strerror(errno));
	if (!fgets(src, sizeof(src), f))
		src[0] = 0;
	fclose(f);
	src[strcspn(src, "\n")] = 0;
	if (strcmp(src, source)) {
		fprintf(stderr, "%s: cpu%u source: fi-probe %s, module %s\n",
			prog, cpu, source, src);
		diffs++;
	}
	/* A partial decode knows no kHz: only the ratio can be compared */
	for (i = khz_unknown && !override.given ? 3 : 0; i < ARRAY_SIZE(fields); i++) {
		rooted(path, sizeof(path), "/sys/kernel/freq_invariance/cpu%u/%s",
		       cpu, fields[i]);
		if (read_sys_u32(path, &got))
			die(1, "--check: %s", hw_why);
		if (got != want[i]) {
			fprintf(stderr, "%s: cpu%u %s: fi-probe %u, module %u\n",
				prog, cpu, fields[i], want[i], got);
			diffs++;
		}
	}
	return diffs;
}

static bool check_mode;
static unsigned int check_diffs;

/*
 * The rest of every machine-mode CPU, once the hardware was asked: the
 * module's rules (the cpufreq fallback, the overrides), the boost state,
 * the record, and --check.
 */
static void machine_finish(unsigned int cpu, struct probe *p)
{
	char why[sizeof(hw_why)];
	struct freq_inv_caps caps;
	int hw_err;
	bool off;

	/* Reading the policy overwrites hw_why */
	memcpy(why, hw_why, sizeof(why));
	read_policy(cpu, &p->in.policy);
	hw_err = probe_resolve(p);
	if (!p->res.max_p_khz)
		die(EXIT_BAD_INPUT, "cpu%u: %s (%s), and no cpufreq policy to fall back on",
		    cpu, p->in.hw_err ? why : "frequencies or ratio out of range",
		    err_name(hw_err));
	rec_begin();
	kv_u("cpu", cpu);
	print_probe(p);
	if (hw_err)
		kv_s("hardware_error", err_name(hw_err));
	/* What a reader of the module's cpuN files sees: reference=kernel */
	off = boost_off(p);
	freq_inv_caps_derive(&p->res, off, FREQ_INV_REF_KERNEL, &caps);
	kv_s("cpufreq_boost", off ? "off" : "on");
	if (override.given)
		khz_unknown = false;
	kv_khz("effective_max_boost_khz", caps.max_boost_khz);
	kv_khz("effective_midpoint_khz", caps.midpoint_khz);
	if (check_mode) {
		unsigned int d = check_module(cpu, &caps);

		kv_s("check", d ? "differs" : "ok");
		check_diffs += d;
	}
}

static void amd_machine(const struct cpu_id *id, unsigned int *cpus,
			unsigned int n, int only)
{
	struct amd_cppc_raw raw = {
		.rules = rules, .family = id->family, .model = id->model,
	};
	u32 *highest = calloc(n, sizeof(*highest));
	unsigned int i;
	bool uniform = false;
	int err = 0;

	if (!highest)
		die(1, "out of memory");
	/* The all-CPUs-equal rule needs every online CPU's highest_perf */
	for (i = 0; i < n && !err; i++)
		err = read_cppc(cpus[i], "highest_perf", true, &highest[i]);
	if (!err && amd_cppc_ratio_highest_uniform(highest, n, &uniform)) {
		snprintf(hw_why, sizeof(hw_why), "a CPU reports highest_perf 0");
		err = -EINVAL;
	}
	raw.highest_perf_uniform = uniform;

	for (i = 0; i < n; i++) {
		struct probe p;
		unsigned int c = cpus[i];
		const char *why = "";
		int cerr = err;

		if (only >= 0 && c != (unsigned int)only)
			continue;
		probe_init(&p, "amd", id->family, id->model);
		raw.highest_perf = highest[i];
		if (!cerr)
			cerr = read_cppc(c, "nominal_perf", true, &raw.nominal_perf);
		if (!cerr)
			cerr = read_cppc(c, "lowest_nonlinear_perf", false,
					 &raw.lowest_nonlinear_perf);
		if (!cerr)
			cerr = read_cppc(c, "lowest_perf", false, &raw.lowest_perf);
		if (!cerr)
			cerr = read_cppc(c, "nominal_freq", false, &raw.nominal_freq_mhz);
		if (!cerr)
			cerr = read_cppc(c, "lowest_freq", false, &raw.lowest_freq_mhz);
		if (!cerr) {
			cerr = amd_decode(&raw, &p, &why);
			if (cerr)
				snprintf(hw_why, sizeof(hw_why), "%s", why);
		}
		p.in.hw_err = cerr;
		machine_finish(c, &p);
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
			.rules = rules, .family = id->family, .model = id->model,
		};
		struct probe p;
		unsigned int c = cpus[i];
		const char *why = "";
		char path[256];
		u64 fsb;
		bool have_fsb;
		int fd, err;

		if (only >= 0 && c != (unsigned int)only)
			continue;
		probe_init(&p, "intel", id->family, id->model);
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
		khz_unknown = false;
		err = intel_decode(&raw, have_fsb ? &fsb : NULL, &p, &why);
		if (err)
			snprintf(hw_why, sizeof(hw_why), "%s", why);
		machine_finish(c, &p);
	}
}

static int exit_status(void)
{
	out_finish();
	if (check_diffs)
		return EXIT_MISMATCH;
	return partial_seen ? EXIT_PARTIAL : 0;
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
	return exit_status();
}

/* ---- rule sets and overrides ------------------------------------------------ */

static enum freq_ratio_rules parse_rules(const char *s)
{
	enum freq_ratio_rules r;

	for (r = 0; r < FREQ_RATIO_RULES_NR; r++)
		if (!strcmp(s, freq_ratio_rules_name(r)))
			return r;
	die(EXIT_BAD_INPUT, "--rules: '%s' is neither 6.1 nor 6.12", s);
}

/*
 * The running kernel's rule set, as compat.h picks the module's: 6.12's
 * from Linux 6.12 on, else 6.1's -- also when the release cannot be read
 * (/proc/sys/kernel/osrelease, under FI_PROBE_ROOT for the tests).
 */
static enum freq_ratio_rules running_rules(void)
{
	char buf[256];
	unsigned int major, minor;
	FILE *f = fopen(rooted(buf, sizeof(buf), "/proc/sys/kernel/osrelease"), "r");
	bool ok = f && fgets(buf, sizeof(buf), f) &&
		  sscanf(buf, "%u.%u", &major, &minor) == 2;

	if (f)
		fclose(f);
	if (ok && (major > 6 || (major == 6 && minor >= 12)))
		return FREQ_RATIO_RULES_6_12;
	return FREQ_RATIO_RULES_6_1;
}

/* --max-p-khz/--max-boost-khz by the module's own rules, or exit 2 */
static void check_override(void)
{
	u32 p = override.max_p_khz, b = override.max_boost_khz;

	switch (freq_inv_caps_check_override(p, b)) {
	case FREQ_INV_OVERRIDE_OK:
		override.given = true;
		return;
	case FREQ_INV_OVERRIDE_MAX_P_RANGE:
		die(EXIT_BAD_INPUT, "--max-p-khz: must be above 0");
	case FREQ_INV_OVERRIDE_BELOW:
		die(EXIT_BAD_INPUT, "--max-boost-khz %u is below --max-p-khz %u", b, p);
	case FREQ_INV_OVERRIDE_MAX_BOOST_RANGE:
		die(EXIT_BAD_INPUT, "--max-boost-khz: must be above 0");
	case FREQ_INV_OVERRIDE_RATIO:
	default:
		die(EXIT_BAD_INPUT, "--max-boost-khz %u is more than %u times --max-p-khz %u",
		    b, FREQ_INV_MAX_BOOST_RATIO, p);
	}
}

/* ---- command line ----------------------------------------------------------- */

enum {
	OPT_VENDOR = 256, OPT_FAMILY, OPT_MODEL, OPT_CPU,
	OPT_HIGHEST, OPT_NOMINAL, OPT_LNL, OPT_LOWEST, OPT_NOM_MHZ, OPT_LOW_MHZ,
	OPT_PI, OPT_TRL, OPT_TRL1, OPT_MISC, OPT_ACR, OPT_ACTR, OPT_BUS, OPT_FSB,
	OPT_MAX_P, OPT_MAX_BOOST, OPT_CHECK, OPT_JSON, OPT_VERSION, OPT_RULES,
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
	{ "max-p-khz", required_argument, NULL, OPT_MAX_P },
	{ "max-boost-khz", required_argument, NULL, OPT_MAX_BOOST },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "rules", required_argument, NULL, OPT_RULES },
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
		case OPT_MAX_P:
			override.max_p_khz = parse_u64(name, optarg, FREQ_INV_MAX_KHZ);
			break;
		case OPT_MAX_BOOST:
			override.max_boost_khz = parse_u64(name, optarg,
							   FREQ_INV_MAX_KHZ);
			break;
		case OPT_RULES:
			rules = parse_rules(optarg);
			break;
		case OPT_CHECK:
			check_mode = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_VERSION:
			printf("fi-probe %s\n", FI_PROBE_VERSION);
			return 0;
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

	/* The module's own rules for its max_p_khz=/max_boost_khz= */
	if (!SEEN(OPT_MAX_P) != !SEEN(OPT_MAX_BOOST))
		die(EXIT_BAD_INPUT,
		    "--max-p-khz and --max-boost-khz override together: give both or neither");
	if (SEEN(OPT_MAX_P))
		check_override();
	if (!SEEN(OPT_RULES))
		rules = running_rules();
#define MACHINE_OPTS	((1ULL << (OPT_CPU - 256)) | (1ULL << (OPT_MAX_P - 256)) | \
			 (1ULL << (OPT_MAX_BOOST - 256)) | (1ULL << (OPT_CHECK - 256)) | \
			 (1ULL << (OPT_JSON - 256)) | (1ULL << (OPT_RULES - 256)))
	if (!vendor) {
		if (seen & ~MACHINE_OPTS)
			die(EXIT_BAD_INPUT, "raw values need --vendor amd|intel");
		return machine(only);
	}
	if (check_mode)
		die(EXIT_BAD_INPUT, "--check applies to this machine only, not with --vendor");
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
		amd.raw.rules = rules;
		amd.raw.family = family;
		amd.raw.model = model;
		amd_from_args(&amd);
		free(amd.highest);
		return exit_status();
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
		intel.rules = rules;
		intel.family = family;
		intel.model = model;
		intel_decode_print(&intel, SEEN(OPT_FSB) ? &fsb : NULL);
		return exit_status();
	}
	die(EXIT_BAD_INPUT, "--vendor: '%s' is neither amd nor intel", vendor);
}
