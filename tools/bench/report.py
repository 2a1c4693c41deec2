#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise make bench: per configuration, the cost of one call of the
governor's update_util hook: the guest time of selftests/hookbench.ko's
loop of hook calls, less that of the same loop under performance (no
hook: the clock reads alone) in the same round, divided by the calls;
the median over the rounds, its spread (max - min) and the calls.

Usage: report.py CONSOLE_LOG

Guest time runs on QEMU's instruction counter (-icount shift=3): one
guest ns is 1/8 of an instruction, so costs are instruction counts in
disguise, independent of the host's load.  No tracer runs, so the
figures hold the hook and its callees and nothing else.
"""
import re
import statistics
import sys

LINE = re.compile(r"^BENCH (\d+) (\S+) (\d+) (\d+)$")


def parse(lines):
    """Return ({config: {round: (ns, calls)}}, setup string)."""
    runs, setup = {}, ""
    for line in lines:
        line = line.strip()
        m = LINE.match(line)
        if m:
            runs.setdefault(m[2], {})[int(m[1])] = (int(m[3]), int(m[4]))
        elif line.startswith("BENCH_SETUP"):
            setup = line.split(" ", 1)[1]
    return runs, setup


def costs(runs, base="performance"):
    """Per configuration, the per-round cost of one hook call in guest
    ns: (ns - base's ns in that round) / calls.  Rounds without calls
    or without a base run are left out."""
    ref = runs.get(base, {})
    out = {}
    for name, rounds in runs.items():
        if name == base:
            continue
        out[name] = [(ns - ref[r][0]) / n for r, (ns, n) in sorted(rounds.items())
                     if n and r in ref]
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    with open(sys.argv[1], errors="replace") as f:
        runs, setup = parse(f)
    if "performance" not in runs:
        print("bench: no results in the log")
        return 1
    per = costs(runs)
    cpus = re.search(r"cpus=(\d+)", setup)
    shared = "shared=1" in setup
    print(f"hookbench loop, -icount shift=3, {cpus[1] if cpus else '?'} vCPU"
          f"{', one shared policy' if shared else ''}, time over "
          f"performance / hook calls ({setup})")
    print(f"{'config':<20}{'ns/call':>9}{'insn/call':>11}{'spread insn':>13}"
          f"{'calls/run':>11}{'loop ms':>9}")
    for name, rounds in runs.items():
        calls = statistics.median(n for _, n in rounds.values())
        tmed = statistics.median(t for t, _ in rounds.values()) / 1e6
        v = per.get(name)
        if v:
            med = statistics.median(v)
            print(f"{name:<20}{med:>9.0f}{med / 8:>11.0f}"
                  f"{(max(v) - min(v)) / 8:>13.0f}{calls:>11.0f}{tmed:>9.1f}")
        else:
            print(f"{name:<20}{'-':>9}{'-':>11}{'-':>13}{calls:>11.0f}"
                  f"{tmed:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
