#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The CPU-count scaling table of make bench: for each guest log (one
boot with N vCPUs in one shared policy, tools/bench.sh), the cost of one
full evaluation (rate_limit_us 0) of sugov_inv and of schedutil in
instructions (report.py's method: the hook loop's time over
performance's, per call, median over the rounds) and their growth per
added CPU, between consecutive N and as one least-squares line.

Usage: scale.py CONSOLE_LOG...
"""
import dataclasses
import re
import statistics
import sys

import report

@dataclasses.dataclass
class Row:
    """One boot's figures."""
    cpus: int
    insn: dict[str, float]


def read_row(path: str) -> Row | None:
    """The figures of one console log; None without a bench run in it."""
    with open(path, errors="replace") as f:
        lines = [line.strip() for line in f]
    runs, setup = report.parse(lines)
    if "performance" not in runs:
        return None
    cpus = re.search(r"cpus=(\d+)", setup)
    insn = {name: statistics.median(v) / 8
            for name, v in report.costs(runs).items() if v}
    return Row(int(cpus[1]) if cpus else 0, insn)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    rows = [r for r in map(read_row, sys.argv[1:]) if r]
    if not rows:
        print("bench: no results in the logs")
        return 1
    rows.sort(key=lambda r: r.cpus)
    govs = ("sugov_inv-rl0", "schedutil-rl0")
    print("full evaluation, one shared policy of N CPUs (hook on CPU 0, the"
          " others idle), instructions per call")
    print(f"{'N':>4}{'sugov_inv':>11}{'schedutil':>11}{'ratio':>7}")
    for r in rows:
        a, b = (r.insn.get(g) for g in govs)
        ratio = f"{a / b:.2f}" if a and b else "-"
        print(f"{r.cpus:>4}{a or 0:>11.0f}{b or 0:>11.0f}{ratio:>7}")
    # Growth per added CPU between consecutive N: flat means linear
    for g in govs:
        steps = []
        for lo, hi in zip(rows, rows[1:]):
            x, y = lo.insn.get(g), hi.insn.get(g)
            if x and y and hi.cpus > lo.cpus:
                steps.append(f"{lo.cpus}->{hi.cpus}: "
                             f"{(y - x) / (hi.cpus - lo.cpus):.0f}")
        print(f"{g.split('-')[0]} per added CPU: {', '.join(steps) or '-'}")
    # The line over the shared policies only: with N = 1 the policy is
    # a single-CPU one, whose hook takes another path (no gather, no lock)
    for g in govs:
        print(fit(g, [(r.cpus, r.insn[g]) for r in rows
                      if r.cpus > 1 and r.insn.get(g)]))
    return 0


def fit(name: str, points: list[tuple[int, float]]) -> str:
    """Least-squares line a + b * N over the points, and its worst miss.

    A cost linear in N misses by about the rounds' spread at every N; a
    quadratic one bends away from the line, most at the ends.
    """
    gov = name.split('-')[0]
    if len(points) < 3:
        return f"{gov} fit: fewer than 3 CPU counts above 1"
    xs, ys = zip(*points)
    b, a = statistics.linear_regression(xs, ys)
    miss = max(abs(y - (a + b * x)) / y for x, y in points)
    return (f"{gov} fit: {a:.0f} + {b:.1f} * N instructions,"
            f" worst miss {100 * miss:.0f} %")


if __name__ == "__main__":
    sys.exit(main())
