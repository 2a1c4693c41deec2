#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/fidelity.sh, host side: the FIDELITY lines of a guest log as a
table of each workload's figure per emulated frequency against the
model.  The model: a CPU at f does f/f_top of the work per second, so a
time or a latency grows f_top/f times and a throughput shrinks to
f/f_top of what it is at f_top (the first state the guest ran)."""

import re
import statistics
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

# Figures where higher is better (a throughput): tbench's MB/s.
HIGHER = ('tbench',)


@dataclass
class Cell:
    """Every repetition of one workload at one frequency."""
    figures: List[float] = field(default_factory=list)
    stall_s: List[float] = field(default_factory=list)
    busy_s: List[float] = field(default_factory=list)


def parse(lines: List[str]) -> Tuple[Dict[Tuple[str, int], Cell], List[int], List[str]]:
    cells: Dict[Tuple[str, int], Cell] = {}
    freqs: List[int] = []
    works: List[str] = []
    for line in lines:
        if not line.startswith('FIDELITY '):
            continue
        kv = dict(re.findall(r'(\w+)=(\S+)', line))
        khz, work = int(kv['khz']), kv['workload']
        if khz not in freqs:
            freqs.append(khz)
        if work not in works:
            works.append(work)
        c = cells.setdefault((work, khz), Cell())
        c.figures.append(float(kv['figure']))
        c.stall_s.append(int(kv['stall_ns']) / 1e9)
        c.busy_s.append(int(kv['busy_ns']) / 1e9)
    return cells, freqs, works


def report(lines: List[str]) -> str:
    cells, freqs, works = parse(lines)
    if not freqs:
        return 'fidelity: no FIDELITY lines\n'
    top = freqs[0]
    out = [f'{"workload":<16}{"MHz":>6}{"figure":>10}{"cv %":>6}'
           f'{"ratio":>8}{"model":>8}{"error":>8}{"stall/busy":>11}']
    for w in works:
        base = statistics.mean(cells[(w, top)].figures)
        higher = w.split(':')[0] in HIGHER
        for f in freqs:
            c = cells.get((w, f))
            if not c:
                continue
            m = statistics.mean(c.figures)
            cv = 100 * statistics.stdev(c.figures) / m if len(c.figures) > 1 and m else 0.0
            ratio = m / base if base else float('nan')
            model = f / top if higher else top / f
            err = 100 * (ratio / model - 1)
            sb = sum(c.stall_s) / sum(c.busy_s) if sum(c.busy_s) else 0.0
            out.append(f'{w:<16}{f // 1000:>6}{m:>10.3f}{cv:>6.1f}'
                       f'{ratio:>8.3f}{model:>8.3f}{err:>+7.1f}%{sb:>11.3f}')
    return '\n'.join(out) + '\n'


if __name__ == '__main__':
    with open(sys.argv[1], encoding='utf-8', errors='replace') as fh:
        sys.stdout.write(report(fh.read().splitlines()))
