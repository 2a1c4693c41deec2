#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarise make bench: per configuration, the median hackbench time and
its spread over the rounds, the overhead against performance (no hook),
and, where sugov_inv counted its hook calls, the cost per call.

Usage: report.py CONSOLE_LOG

Guest time runs on QEMU's instruction counter (-icount shift=3): one
guest ns is 1/8 of an instruction, so costs are in instruction units,
independent of the host's load.
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
            m = re.match(r"^BENCH (\d+) (\S+) ([\d.]+) (\d+)$", line)
            if m:
                runs.setdefault(m[2], []).append((float(m[3]), int(m[4])))
            elif line.startswith("BENCH_SETUP"):
                setup = line.split(" ", 1)[1]
    if "performance" not in runs:
        print("bench: no results in the log")
        return 1
    floor = statistics.median(t for t, _ in runs["performance"])
    sugov_calls = [c for k, v in runs.items() if k.startswith("sugov_inv")
                   for _, c in v if c]
    calls_est = statistics.median(sugov_calls) if sugov_calls else 0
    print(f"hackbench -g 1 under -icount shift=3, 1 vCPU ({setup})")
    print(f"{'config':<20}{'median s':>10}{'spread %':>10}{'vs perf %':>11}"
          f"{'hook calls':>12}{'ns/call':>9}{'insn/call':>11}")
    for name, v in runs.items():
        times = [t for t, _ in v]
        med = statistics.median(times)
        spread = (max(times) - min(times)) / med * 100
        calls = statistics.median(c for _, c in v) if any(c for _, c in v) else 0
        # Governors without counters see the same scheduler events: use
        # sugov_inv's count for them, marked with '~'.
        est = "" if calls else "~"
        n = calls or calls_est
        over = (med - floor) * 1e9
        per = over / n if n and name != "performance" else 0
        print(f"{name:<20}{med:>10.3f}{spread:>10.1f}"
              f"{(med / floor - 1) * 100:>11.2f}"
              f"{est + str(int(n)) if n else '-':>12}"
              f"{per:>9.0f}{per / 8:>11.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
