#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/fidelity.sh, host side: the FIDELITY lines of guest logs as
tables.

    report.py LOG                 each workload's figure per emulated
                                  frequency against the model
    report.py --pair EMU REAL     the emulated half speed against a CPU
                                  really half as fast

The model: a CPU at f does f/f_top of the work per second, so a time or a
latency grows f_top/f times and a throughput falls to f/f_top of its value
at f_top (the first frequency a log ran).  The pair separates the
emulator's departures from the model from the workload's own: EMU ran
f_top and f_top/2 under the emulation, REAL ran f_top in a guest whose
every instruction takes twice as long (icount shift one higher)."""

import argparse
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
    stall_s: float = 0.0
    busy_s: float = 0.0
    ctxt: List[int] = field(default_factory=list)

    def mean(self) -> float:
        return statistics.mean(self.figures)

    def cv(self) -> float:
        m = self.mean()
        return 100 * statistics.stdev(self.figures) / m if len(self.figures) > 1 and m else 0.0


@dataclass
class Log:
    """One guest's runs: cells by (workload, kHz), in the order they ran."""
    cells: Dict[Tuple[str, int], Cell] = field(default_factory=dict)
    freqs: List[int] = field(default_factory=list)
    works: List[str] = field(default_factory=list)


def parse(path: str) -> Log:
    log = Log()
    with open(path, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            if not line.startswith('FIDELITY '):
                continue
            kv = dict(re.findall(r'(\w+)=(\S+)', line))
            khz, work = int(kv['khz']), kv['workload']
            if khz not in log.freqs:
                log.freqs.append(khz)
            if work not in log.works:
                log.works.append(work)
            c = log.cells.setdefault((work, khz), Cell())
            c.figures.append(float(kv['figure']))
            c.stall_s += int(kv['stall_ns']) / 1e9
            c.busy_s += int(kv['busy_ns']) / 1e9
            c.ctxt.append(int(kv.get('ctxt', 0)))
    return log


def model(work: str, khz: int, top: int) -> float:
    """The figure's ratio to its value at top, for a CPU at khz."""
    return khz / top if work.split(':')[0] in HIGHER else top / khz


def table(log: Log) -> str:
    top = log.freqs[0]
    out = [f'{"workload":<16}{"MHz":>6}{"figure":>10}{"cv %":>6}{"ratio":>8}'
           f'{"model":>8}{"error":>8}{"stall/busy":>11}{"ctxt":>8}']
    for w in log.works:
        base = log.cells[(w, top)].mean()
        for f in log.freqs:
            c = log.cells.get((w, f))
            if not c:
                continue
            ratio = c.mean() / base
            err = 100 * (ratio / model(w, f, top) - 1)
            sb = c.stall_s / c.busy_s if c.busy_s else 0.0
            out.append(f'{w:<16}{f // 1000:>6}{c.mean():>10.3f}{c.cv():>6.1f}{ratio:>8.3f}'
                       f'{model(w, f, top):>8.3f}{err:>+7.1f}%{sb:>11.3f}'
                       f'{statistics.mean(c.ctxt):>8.0f}')
    return '\n'.join(out) + '\n'


def pair(emu: Log, real: Log) -> str:
    top, half = emu.freqs[0], emu.freqs[-1]
    out = [f'{"workload":<16}{"f_top":>9}{"model":>9}{"emulated":>10}{"real":>9}'
           f'{"emu/real":>9}{"real/model":>11}{"ctxt emu":>9}{"real":>7}']
    for w in emu.works:
        t, e = emu.cells.get((w, top)), emu.cells.get((w, half))
        r = real.cells.get((w, real.freqs[0])) if real.freqs else None
        if not (t and e and r):
            continue
        m = t.mean() * model(w, half, top)
        out.append(f'{w:<16}{t.mean():>9.3f}{m:>9.3f}{e.mean():>10.3f}{r.mean():>9.3f}'
                   f'{100 * (e.mean() / r.mean() - 1):>+8.1f}%{100 * (r.mean() / m - 1):>+10.1f}%'
                   f'{statistics.mean(e.ctxt):>9.0f}{statistics.mean(r.ctxt):>7.0f}')
    return '\n'.join(out) + '\n'


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('log', nargs='?', help='a guest log with FIDELITY lines')
    ap.add_argument('--pair', nargs=2, metavar=('EMU', 'REAL'),
                    help='the emulated half speed against a really slower CPU')
    args = ap.parse_args(argv)
    if args.log:
        log = parse(args.log)
        if not log.freqs:
            print(f'fidelity: no FIDELITY lines in {args.log}', file=sys.stderr)
            return 1
        sys.stdout.write(table(log))
    if args.pair:
        emu, real = parse(args.pair[0]), parse(args.pair[1])
        if not emu.freqs or not real.freqs:
            print('fidelity: no FIDELITY lines in the pair', file=sys.stderr)
            return 1
        sys.stdout.write(pair(emu, real))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
