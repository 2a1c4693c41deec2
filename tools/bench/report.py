#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise make bench: per configuration, the mean duration of one call
of the governor's update_util hook (function_graph, callees included)
over the rounds, its spread, the number of calls, and hackbench's time.

Usage: report.py CONSOLE_LOG

Guest time runs on QEMU's instruction counter (-icount shift=3): one
guest ns is 1/8 of an instruction, so costs are instruction counts in
disguise, independent of the host's load.  The tracer's own entry and
exit cost is in every number alike; performance installs no hook and
shows 0 calls.
"""
import re
import statistics
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    runs, setup = {}, ""
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            line = line.strip()
            m = re.match(r"^BENCH (\d+) (\S+) ([\d.]+) (\d+) ([\d.]+)$", line)
            if m:
                runs.setdefault(m[2], []).append(
                    (float(m[3]), int(m[4]), float(m[5]) * 1000))
            elif line.startswith("BENCH_SETUP"):
                setup = line.split(" ", 1)[1]
    if not runs:
        print("bench: no results in the log")
        return 1
    print(f"hackbench -g 1, -icount shift=3, 1 vCPU, function_graph "
          f"depth 2 ({setup})")
    print(f"{'config':<20}{'ns/call':>9}{'insn/call':>11}{'spread %':>10}"
          f"{'calls/run':>11}{'hackbench s':>13}")
    for name, v in runs.items():
        per = [p for _, n, p in v if n]
        calls = statistics.median(n for _, n, _ in v)
        tmed = statistics.median(t for t, _, _ in v)
        if per:
            med = statistics.median(per)
            spread = (max(per) - min(per)) / med * 100 if med else 0
            print(f"{name:<20}{med:>9.0f}{med / 8:>11.0f}{spread:>10.1f}"
                  f"{calls:>11.0f}{tmed:>13.3f}")
        else:
            print(f"{name:<20}{'-':>9}{'-':>11}{'-':>10}{calls:>11.0f}"
                  f"{tmed:>13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
