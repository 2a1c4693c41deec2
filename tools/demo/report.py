#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The demo's report, from the guest console log of tools/demo/guest.sh:
per sugov_inv freq_max policy, the frequency it settled at in each phase
and what that cost, time and energy, on a bursty and a steady load (with
performance and powersave as the bounds); a PNG of every frequency
request over time beside the time-energy plane of the two loads.

Usage: report.py CONSOLE_LOG [--png OUT.png] [--json OUT.json]

A frequency cell is the time-weighted mean frequency (MHz) over the
second half of the load (phase start + PHASE_SECONDS/2 to phase start +
PHASE_SECONDS, so stress-ng's start-up and exit are left out), when the
governor has settled: of the last CPU, where the load is pinned, in the
load phases, of all CPUs in the idle ones.

The bursty load is 20 fixed shell loops, each after 100 ms of idle; its
time is the run's time less the idle gaps.  The steady load is rt-app
running fixed work every 16 ms (50 % of the period at the top frequency)
100 times; its time is the busy time per activation.  Energy is the
emulated package's (energy_uj) over the run.
"""
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

PHASES = ["idle", "flat", "half", "busy90", "idle_again"]
HEADS = {"idle": "idle", "flat": "100%", "half": "50%", "busy90": "90%",
         "idle_again": "idle"}
LOAD_PHASES = ("flat", "half", "busy90")
# burst 100 20 in guest.sh: 20 gaps of 100 ms.
BURST_GAPS_S = 20 * 0.1


@dataclass
class Phase:
    policy: str
    name: str
    start_s: float
    end_s: float


@dataclass
class Request:
    time_s: float
    cpu: int
    khz: int


@dataclass
class Cost:
    """Time and energy of one load under one configuration."""
    time: float        # bursty: busy seconds; steady: ms per activation
    energy_j: float
    missed: int = 0


@dataclass
class Demo:
    phases: list = field(default_factory=list)
    record: list = field(default_factory=list)
    caps: dict = field(default_factory=dict)
    costs: dict = field(default_factory=dict)     # (config, load) -> Cost
    ncpu: int = 0
    phase_s: int = 0


def energy_j(spec):
    """ZONE=BEFORE:AFTER:MAX;... of run-one.sh -> joules (wrap-safe)."""
    total = 0
    for z in spec.split(";"):
        before, after, rng = (int(x) for x in z.partition("=")[2].split(":"))
        total += after - before if after >= before else after - before + rng
    return total / 1e6


def parse(path):
    d = Demo()
    rtapp = {}
    in_rec = False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip("\r\n")
            if line in ("DEMO_RECORD_BEGIN", "DEMO_RECORD_END"):
                in_rec = line == "DEMO_RECORD_BEGIN"
                continue
            if in_rec:
                m = re.match(r"^(\d+) (\d+) (\d+) (\w+)$", line)
                if m:
                    d.record.append(Request(int(m[1]) / 1e9, int(m[2]), int(m[3])))
                continue
            m = re.match(r"^DEMO_PHASE (\S+) (\S+) ([\d.]+) ([\d.]+)$", line)
            if m:
                d.phases.append(Phase(m[1], m[2], float(m[3]), float(m[4])))
            m = re.match(r"^DEMO_CAPS (\S+) (.*)$", line)
            if m:
                d.caps[m[1]] = m[2]
            m = re.match(r"^DEMO_CPUS (\d+)(?: (\d+))?$", line)
            if m:
                d.ncpu, d.phase_s = int(m[1]), int(m[2] or 0)
            m = re.match(r"^DEMO_RTAPP (\S+) loops \d+ busy_ms ([\d.]+) .* missed (\d+)$", line)
            if m:
                rtapp[m[1]] = (float(m[2]), int(m[3]))
            m = re.match(r"^DEMO_RESULT (\S+) (bursty|steady) status=ok .*"
                         r"elapsed_ns=(\d+) energy=(\S+)", line)
            if m and m[4] != "-":
                d.costs[(m[1], m[2])] = Cost(int(m[3]) / 1e9, energy_j(m[4]))
    for (cfg, load), c in d.costs.items():
        if load == "bursty":
            c.time -= BURST_GAPS_S
        elif cfg in rtapp:
            c.time, c.missed = rtapp[cfg]
    return d


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


def settled(d, start_khz=2250000):
    per_cpu = {c: sorted((r.time_s, r.khz) for r in d.record if r.cpu == c)
               for c in range(d.ncpu)}
    table = {}
    for p in d.phases:
        if p.name not in PHASES:
            continue
        t1 = min(p.end_s, p.start_s + d.phase_s) if d.phase_s else p.end_s
        mid = (p.start_s + t1) / 2
        cpus = [d.ncpu - 1] if p.name in LOAD_PHASES else range(d.ncpu)
        vals = [mean_khz(per_cpu[c], mid, t1, start_khz) for c in cpus]
        table.setdefault(p.policy, {})[p.name] = sum(vals) / len(vals)
    return table


def print_tables(d, table):
    if d.caps:
        print("freq_invariance cpu0: " + ", ".join(
            f"{k}={v}" for k, v in sorted(d.caps.items())))
    print(f"settled frequency per phase, MHz (the loaded CPU, cpu{d.ncpu - 1}, in "
          "the load phases)")
    w = 8
    print(f"{'policy':<16}" + "".join(f"{HEADS[p]:>{w}}" for p in PHASES))
    for pol, row in table.items():
        print(f"{pol:<16}" + "".join(
            f"{row[p] / 1000:>{w}.0f}" if p in row else f"{'-':>{w}}" for p in PHASES))
    print()
    print("what it costs: the same work under each configuration")
    print(f"{'':<16}{'bursty (20 loops after 100 ms idle)':>38}"
          f"{'steady (rt-app, 50 % of 16 ms, x100)':>44}")
    print(f"{'configuration':<16}{'busy time (s)':>19}{'energy (J)':>19}"
          f"{'ms per activation':>22}{'missed':>8}{'energy (J)':>14}")
    configs = list(table) + [c for c in ("performance", "powersave")
                             if any(k[0] == c for k in d.costs)]
    for cfg in configs:
        b, s = d.costs.get((cfg, "bursty")), d.costs.get((cfg, "steady"))
        row = f"{cfg:<16}"
        row += f"{b.time:>19.2f}{b.energy_j:>19.2f}" if b else f"{'-':>19}{'-':>19}"
        row += (f"{s.time:>22.2f}{s.missed:>8d}{s.energy_j:>14.2f}" if s
                else f"{'-':>22}{'-':>8}{'-':>14}")
        print(row)


def plot(d, out):
    """Frequency requests over time (top), and each load's configurations
    in the time-energy plane (bottom: lower left is better)."""
    if not shutil.which("gnuplot") or not d.phases:
        print("report: gnuplot not found, no PNG (apt-get install gnuplot-nox)")
        return
    t_base = d.phases[0].start_s
    data = out + ".dat"
    with open(data, "w") as f:
        for c in range(d.ncpu):
            f.write(f"# cpu {c}\n")
            for r in d.record:
                if r.cpu == c and r.time_s >= t_base:
                    f.write(f"{r.time_s - t_base:.3f} {r.khz / 1000:.0f}\n")
            f.write("\n\n")
    costs = out + ".costs.dat"
    with open(costs, "w") as f:
        for load in ("bursty", "steady"):
            f.write(f"# {load}: energy, time, label y, name\n")
            pts = sorted((c.energy_j, c.time, cfg) for (cfg, ld), c in d.costs.items()
                         if ld == load)
            span = (max(p[1] for p in pts) - min(p[1] for p in pts)) if pts else 0
            # Neighbours in energy take their labels above and below in
            # turn, so that close points keep legible labels.
            for i, (e, t, cfg) in enumerate(pts):
                dy = (0.06 if i % 2 == 0 else -0.06) * (span or 1)
                f.write(f'{e:.3f} {t:.3f} {t + dy:.3f} "{cfg}"\n')
            f.write("\n\n")
    labels = ["set xrange [0:*]\n"]
    for p in d.phases:
        x = p.start_s - t_base
        if p.name == "idle":
            labels.append(f'set arrow from {x:.2f}, graph 0 to {x:.2f}, graph 1 '
                          f'nohead lc rgb "gray"\n'
                          f'set label "{p.policy}" at {x + 0.3:.2f}, graph 0.95 font ",9"\n')
        elif p.name == "loads":
            labels.append(f'set object rect from {x:.2f}, graph 0 to '
                          f'{p.end_s - t_base:.2f}, graph 1 fc rgb "#eeeeee" '
                          f'fs solid noborder behind\n')
            if p.policy in ("performance", "powersave"):
                labels.append(f'set label "{p.policy}" at {x + 0.3:.2f}, graph 0.88 '
                              f'font ",9"\n')
    plots = ", ".join(f'"{data}" index {c} using 1:2 with steps title "cpu{c}"'
                      for c in range(d.ncpu))
    script = (
        'set terminal png size 1400,900 noenhanced\n'
        f'set output "{out}"\n'
        'set multiplot\n'
        'set size 1,0.5\nset origin 0,0.5\nset key outside right\n'
        'set xlabel "time since the first phase began (s); each policy: '
        'idle, 100%, 50%, 90%, idle, then the two loads (shaded)"\n'
        'set ylabel "requested MHz"\n'
        'set title "sugov_inv on the emulated EPYC 7742: frequency requests, '
        'policy by policy"\n' + "".join(labels) + f"plot {plots}\n"
        'unset arrow\nunset label\nunset object\nunset key\nset autoscale x\n'
        'set size 0.5,0.5\nset origin 0,0\n'
        'set offsets graph 0.08, graph 0.08, graph 0.12, graph 0.12\n'
        'set title "bursty load: busy time against energy (lower left is better)"\n'
        'set xlabel "energy (J)"\nset ylabel "busy time (s)"\n'
        f'plot "{costs}" index 0 using 1:2 with points pt 7, '
        '"" index 0 using 1:3:4 with labels font ",9"\n'
        'set origin 0.5,0\n'
        'set title "steady load: time per activation against energy"\n'
        'set xlabel "energy (J)"\nset ylabel "busy ms per activation"\n'
        f'plot "{costs}" index 1 using 1:2 with points pt 7, '
        '"" index 1 using 1:3:4 with labels font ",9"\n'
        'unset multiplot\n')
    subprocess.run(["gnuplot"], input=script, text=True, check=False)
    print(f"report: wrote {out}")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    d = parse(sys.argv[1])
    if not d.phases or not d.record or not d.ncpu:
        print("report: no demo phases or request record in the log")
        return 1
    table = settled(d)
    print_tables(d, table)
    args = sys.argv[2:]
    if "--png" in args:
        plot(d, args[args.index("--png") + 1])
    if "--json" in args:
        with open(args[args.index("--json") + 1], "w") as f:
            json.dump({"settled_khz": table,
                       "costs": {f"{c} {ld}": vars(v) for (c, ld), v in d.costs.items()}},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
