#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Side-by-side table of what each sugov_inv freq_max policy chose in each
demo phase, from vcpufreq's request record in a guest console log.

Usage: report.py CONSOLE_LOG [--png OUT.png] [--json OUT.json]

A cell is the time-weighted mean frequency (MHz) over the second half of
the load (phase start + PHASE_SECONDS/2 to phase start + PHASE_SECONDS,
so stress-ng's start-up and exit are left out), when the governor has
settled: of CPU 1 for the one-thread phases (the thread is pinned there),
of all CPUs otherwise.
"""
import json
import re
import shutil
import subprocess
import sys

PHASES = ["idle", "one_busy", "half_busy", "all_90", "all_flat", "idle_again"]
HEADS = {"idle": "idle", "one_busy": "1 busy", "half_busy": "1 @50%",
         "all_90": "all @90%", "all_flat": "all 100%", "idle_again": "idle"}


def parse(path):
    phases, record, caps, ncpu, phase_s = [], [], {}, 0, 0
    in_rec = False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip("\r\n")
            if line == "DEMO_RECORD_BEGIN":
                in_rec = True
                continue
            if line == "DEMO_RECORD_END":
                in_rec = False
                continue
            if in_rec:
                m = re.match(r"^(\d+) (\d+) (\d+) (\w+)$", line)
                if m:
                    record.append((int(m[1]) / 1e9, int(m[2]), int(m[3]), m[4]))
                continue
            m = re.match(r"^DEMO_PHASE (\S+) (\S+) ([\d.]+) ([\d.]+)$", line)
            if m:
                phases.append((m[1], m[2], float(m[3]), float(m[4])))
            m = re.match(r"^DEMO_CAPS (\S+) (.*)$", line)
            if m:
                caps[m[1]] = m[2]
            m = re.match(r"^DEMO_CPUS (\d+)(?: (\d+))?$", line)
            if m:
                ncpu, phase_s = int(m[1]), int(m[2] or 0)
    return phases, record, caps, ncpu, phase_s


def freq_at(events, t, start_khz):
    """Frequency in effect at time t from a CPU's sorted (time, khz) list."""
    cur = start_khz
    for when, khz in events:
        if when > t:
            break
        cur = khz
    return cur


def mean_khz(events, t0, t1, start_khz):
    """Time-weighted mean frequency of one CPU over [t0, t1]."""
    if t1 <= t0:
        return freq_at(events, t0, start_khz)
    cur = freq_at(events, t0, start_khz)
    acc, last = 0.0, t0
    for when, khz in events:
        if when <= t0:
            continue
        if when >= t1:
            break
        acc += cur * (when - last)
        cur, last = khz, when
    acc += cur * (t1 - last)
    return acc / (t1 - t0)


def settled(phases, record, ncpu, phase_s, start_khz=2250000):
    per_cpu = {c: sorted((t, k) for t, cpu, k, _ in record if cpu == c)
               for c in range(ncpu)}
    table = {}
    for pol, ph, t0, t1 in phases:
        if phase_s:
            t1 = min(t1, t0 + phase_s)
        mid = (t0 + t1) / 2
        cpus = [1 % ncpu] if ph in ("one_busy", "half_busy") else range(ncpu)
        vals = [mean_khz(per_cpu[c], mid, t1, start_khz) for c in cpus]
        table.setdefault(pol, {})[ph] = sum(vals) / len(vals)
    return table


def print_table(table, caps):
    if caps:
        print("freq_invariance cpu0: " + ", ".join(
            f"{k}={v}" for k, v in sorted(caps.items())))
    print("settled frequency per phase, MHz (CPU 1 for the one-thread "
          "phases, mean of all CPUs otherwise)")
    w = 10
    print(f"{'policy':<16}" + "".join(f"{HEADS[p]:>{w}}" for p in PHASES))
    for pol, row in table.items():
        print(f"{pol:<16}" + "".join(
            f"{row[p] / 1000:>{w}.0f}" if p in row else f"{'-':>{w}}"
            for p in PHASES))


def plot(phases, record, ncpu, out):
    if not shutil.which("gnuplot") or not phases:
        print("report: gnuplot not found, no PNG (apt-get install gnuplot-nox)")
        return
    t_base = phases[0][2]
    data = out + ".dat"
    with open(data, "w") as f:
        for c in range(ncpu):
            f.write(f"# cpu {c}\n")
            for t, cpu, khz, _ in record:
                if cpu == c and t >= t_base:
                    f.write(f"{t - t_base:.3f} {khz / 1000:.0f}\n")
            f.write("\n\n")
    labels = ["set xrange [0:*]\n"]
    for pol, ph, t0, t1 in phases:
        labels.append(f'set arrow from {t0 - t_base:.2f}, graph 0 to '
                      f'{t0 - t_base:.2f}, graph 0.04 nohead lc rgb "gray"\n')
        if ph == "idle":
            labels.append(f'set arrow from {t0 - t_base:.2f}, graph 0 to '
                          f'{t0 - t_base:.2f}, graph 1 nohead lc rgb "gray"\n'
                          f'set label "{pol}" at {t0 - t_base + 0.3:.2f}, '
                          f'graph 0.95 font ",9"\n')
    plots = ", ".join(
        f'"{data}" index {c} using 1:2 with steps title "cpu{c}"'
        for c in range(ncpu))
    script = (f'set terminal png size 1400,500 noenhanced\n'
              f'set output "{out}"\nset key outside right\n'
              'set xlabel "time since the first phase began (s)"\nset ylabel "requested MHz"\n'
              'set title "sugov_inv on vcpufreq epyc-7742: frequency over '
              'time, policy by policy"\n' + "".join(labels) +
              f"plot {plots}\n")
    subprocess.run(["gnuplot"], input=script, text=True, check=False)
    print(f"report: wrote {out}")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    phases, record, caps, ncpu, phase_s = parse(sys.argv[1])
    if not phases or not record or not ncpu:
        print("report: no demo phases or request record in the log")
        return 1
    table = settled(phases, record, ncpu, phase_s)
    print_table(table, caps)
    args = sys.argv[2:]
    if "--png" in args:
        plot(phases, record, ncpu, args[args.index("--png") + 1])
    if "--json" in args:
        with open(args[args.index("--json") + 1], "w") as f:
            json.dump(table, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
