# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: from measured runs to mmtests-style ratio tables.

Per benchmark and configuration a Comparison against the baseline: the
performance ratio and the performance-per-watt ratio (energy per unit of
work), each judged per workload point with mmtests' mark and given a 95 %
confidence interval, and the average power.  Rendered in the layout of the
ratio tables in Linux commit 976df7e5730e's message (SUMMARY, DETAILED
PERFORMANCE TABLES, POWER CONSUMPTION), and written as report.txt,
results.json and results.csv beside the plots.
"""

import csv
import json
import math
import os
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from compare_model import (BadInput, Config, Meta, RunResult, Workload, energy_per_work)
from compare_stats import (Interval, LogMean, coeffvar, geomean, log_mean, mean_of,
                           pct_diff, ratio_interval, significant, stddev)


@dataclass(frozen=True)
class Ratio:
    """One cell of a ratio table: the geometric mean over the benchmark's
    points of a configuration's mean over the baseline's, whether mmtests
    would mark it '~' (no point differs significantly), and its 95 %
    interval (None below two runs a side)."""
    value: Optional[float]
    same: bool
    ci: Optional[Interval]


NO_RATIO = Ratio(None, False, None)


@dataclass(frozen=True)
class Comparison:
    """A configuration against the baseline on one benchmark.  perf is
    raw (below 1 is better where lower is better); perf_per_watt is the
    baseline's energy per unit of work over this one's (above 1 is
    better); power_w the average power, total energy over total time."""
    perf: Ratio
    perf_per_watt: Ratio
    power_w: Optional[float]


def samples(results: Sequence[RunResult], workload: Workload
            ) -> dict[tuple[str, str], list[RunResult]]:
    """{(point label, configuration): the runs that gave a figure}."""
    out: dict[tuple[str, str], list[RunResult]] = {}
    for r in results:
        if r.ok and r.run.workload == workload.name:
            out.setdefault((r.run.op, r.run.config), []).append(r)
    return out


def _judge(points: Sequence[tuple[list[float], list[float]]], higher: bool,
           invert: bool) -> Ratio:
    """A Ratio over points, each (baseline values, new values) of a
    figure whose mean is mean_of(., higher); invert gives base/new
    instead of new/base."""
    rs: list[float] = []
    logs: list[tuple[LogMean, LogMean]] = []
    sig = judged = False
    for b, x in points:
        bm, xm = mean_of(b, higher), mean_of(x, higher)
        if not (bm > 0 and xm > 0):
            continue
        rs.append(bm / xm if invert else xm / bm)
        sig = sig or significant(bm, stddev(b, higher), xm, stddev(x, higher))
        judged = judged or (len(b) > 1 and len(x) > 1)
        lb, lx = log_mean(b, higher), log_mean(x, higher)
        if lb and lx:
            logs.append((lx, lb) if invert else (lb, lx))
    if not rs:
        return NO_RATIO
    ci = ratio_interval(logs) if len(logs) == len(rs) else None
    # With a single run on a side there is no interval: no ~.
    return Ratio(geomean(rs), judged and not sig, ci)


def compare(results: Sequence[RunResult], workloads: Sequence[Workload],
            configs: Sequence[str], baseline: str) -> dict[tuple[str, str], Comparison]:
    """{(benchmark, configuration): Comparison}.  Each ratio is judged
    per point on its own figure: performance on the benchmark's figure,
    performance per watt on energy per unit of work (Amean), so that a
    sweep's spread between points hides nothing and either can be
    significant while the other is '~'."""
    out: dict[tuple[str, str], Comparison] = {}
    for w in workloads:
        s = samples(results, w)
        for c in configs:
            perf_pts, epw_pts = [], []
            for op in w.ops:
                b, x = s.get((op.label, baseline)), s.get((op.label, c))
                if not b or not x:
                    continue
                perf_pts.append(([r.figure for r in b if r.figure is not None],
                                 [r.figure for r in x if r.figure is not None]))
                eb = [e for e in (energy_per_work(r, w) for r in b) if e]
                ex = [e for e in (energy_per_work(r, w) for r in x) if e]
                if eb and ex:
                    epw_pts.append((eb, ex))
            perf = _judge(perf_pts, w.higher, False)
            ppw = _judge(epw_pts, False, True) if len(epw_pts) == len(perf_pts) else NO_RATIO
            if c == baseline:
                perf = Ratio(perf.value, False, None)
                ppw = Ratio(ppw.value, False, None)
            e_j = t_s = 0.0
            for r in (r for pts in s.values() for r in pts if r.run.config == c):
                if r.energy_j is not None and r.elapsed_s:
                    e_j += r.energy_j
                    t_s += r.elapsed_s
            power = e_j / t_s if t_s else None
            out[(w.name, c)] = Comparison(perf, ppw, power)
    return out


def fmt_ratio(r: Ratio) -> str:
    if r.value is None:
        return '-'
    return '~' if r.same else f'{r.value:.2f}'


def fmt_ci(r: Ratio) -> str:
    if r.ci is None:
        return '-'
    return f'[{r.ci.low:.2f},{r.ci.high:.2f}]'


def _perf(c: Comparison) -> Ratio:
    return c.perf


def _perf_per_watt(c: Comparison) -> Ratio:
    return c.perf_per_watt


def render(meta: Meta, results: Sequence[RunResult]) -> str:
    """The report text: mmtests-style ratio tables with their intervals,
    detailed tables, power and, when measured, turbostat's frequency."""
    configs = [Config.parse(s) for s in meta.configs]
    names = {c.spec: c.name for c in configs}
    base = meta.baseline
    order = [base] + [c.spec for c in configs if c.spec != base]
    workloads = meta.workloads
    rt = compare(results, workloads, order, base)
    have_energy = any(r.energy_j is not None for r in results)
    L = ['1. SUMMARY', '==========']
    for s in order:
        L.append(f'{names[s]} : {s}' + (' (BASELINE)' if s == base else ''))
    # The guest's uname -r: the first field of guest.sh's COMPARE_BOOT line.
    boot = str(meta.extra.get('guest', '')).split()[:1]
    heads = {**meta.extra, **{'kernel': b[7:] for b in boot if b.startswith('kernel=')}}
    for k in ('machine', 'kernel', 'qemu', 'command', 'commit'):
        if k in heads:
            L.append(f'{k} : {heads[k]}')
    L += [f'seed : {meta.seed}', f'reps : {meta.reps}']
    done = sum(1 for r in results if r.ok)
    L.append(f'runs : {done} measured of {len(meta.plan)} planned')
    L += _tunables_lines(results, order, names)
    L.append('Tilde (~) means the value is the same as baseline (within noise: mmtests\' '
             'mark, per point).')
    L.append('[low,high]: 95 % confidence interval of the ratio (Student\'s t on the '
             'standard errors of the means).')
    w0 = max([len(w.name) for w in workloads] + [11])
    cw = max([len(names[s]) for s in order] + [13]) + 1
    head = ' ' * w0 + ''.join(f'{names[s]:>{cw}}' for s in order) + '  better if'
    bar = '-' * len(head)
    L += [bar, head, bar]
    tables: list[tuple[str, Callable[[Comparison], Ratio], Optional[str]]] = [
        ('PERFORMANCE RATIOS', _perf, None)]
    if have_energy:
        tables.append(('PERFORMANCE-PER-WATT RATIOS', _perf_per_watt, 'higher'))
    for title, pick, better in tables:
        L.append(title)
        for w in workloads:
            L.append(f'{w.name:<{w0}}' + ''.join(
                f'{fmt_ratio(pick(rt[(w.name, s)])):>{cw}}' for s in order)
                + '  ' + (better or ('higher' if w.higher else 'lower')))
        for w in workloads:
            L.append(f'{"  95% CI":<{w0}}' + ''.join(
                f'{fmt_ci(pick(rt[(w.name, s)])):>{cw}}' for s in order) + f'  {w.name}')
        L.append(bar)
    L += _detailed(meta, results, order, names)
    if have_energy:
        L += ['3. POWER CONSUMPTION TABLE', '==========================',
              'Average power consumption (watts): package zones (RAPL package-N); '
              'not counted: ' + (_skipped(results) or 'nothing') + '.',
              bar, ' ' * w0 + ''.join(f'{names[s]:>{cw}}' for s in order), bar]
        for w in workloads:
            L.append(f'{w.name:<{w0}}' + ''.join(
                f'{rt[(w.name, s)].power_w:>{cw}.2f}' if rt[(w.name, s)].power_w
                else f'{"-":>{cw}}' for s in order))
    L += _turbostat(results, workloads, order, names, w0, cw)
    bad = [r for r in results if not r.ok]
    if bad:
        L.append(f'# {len(bad)} runs gave no figure: ' + ', '.join(
            f'{r.run.id} {r.run.config} {r.run.workload}{r.run.op}: {r.status}'
            + (f' ({r.note})' if r.note else '') for r in bad[:8]))
    return '\n'.join(L) + '\n'


def _tunables_lines(results: Sequence[RunResult], order: Sequence[str],
                    names: dict[str, str]) -> list[str]:
    """The tunables each configuration ran with, flagged where its runs
    did not all see the same."""
    out = []
    for s in order:
        seen = {tuple(sorted(r.tunables.items())) for r in results
                if r.run.config == s and r.tunables}
        if not seen:
            continue
        first = min(seen)
        line = f'{names[s]} tunables : ' + ' '.join(f'{k}={v}' for k, v in first)
        if len(seen) > 1:
            line += f' (and {len(seen) - 1} other set(s) in other runs)'
        out.append(line)
    return out


def _skipped(results: Sequence[RunResult]) -> str:
    names = sorted({z for r in results for z in r.energy_skipped})
    return ', '.join(names)


def _detailed(meta: Meta, results: Sequence[RunResult], order: Sequence[str],
              names: dict[str, str]) -> list[str]:
    """mmtests' per-benchmark tables: the mean, CoeffVar and (x%) against
    the baseline, '*' where significant."""
    base = meta.baseline
    L = ['2. DETAILED PERFORMANCE TABLES', '==============================']
    for w in meta.workloads:
        s = samples(results, w)
        L.append(f'Benchmark : {w.title}')
        L.append(f'Varying parameter : {w.param}')
        L.append(f'Unit : {w.unit} ({"higher" if w.higher else "lower"} is better)')
        stat = 'Hmean' if w.higher else 'Amean'
        for g in range(0, len(order), 3):
            group = order[g:g + 3]
            L.append(''.join(f'{(names[c] + (" (BASELINE)" if c == base else "")):>33}'
                             for c in group).rstrip().rjust(14 + 33 * len(group)))
            L.append('- ' * (7 + 17 * len(group)))
            for op in w.ops:
                row = f'{stat:<7}{op.label:>6} '
                b = [r.figure for r in s.get((op.label, base), []) if r.figure is not None]
                bm = mean_of(b, w.higher) if b else math.nan
                bsd = stddev(b, w.higher) if b else math.nan
                for c in group:
                    x = [r.figure for r in s.get((op.label, c), []) if r.figure is not None]
                    if not x:
                        row += f'{"-":>33}'
                        continue
                    m = mean_of(x, w.higher)
                    if c == base or not b:
                        mark = '(        )'
                    else:
                        d = pct_diff(m, bm, w.higher)
                        if significant(bm, bsd, m, stddev(x, w.higher)):
                            mark = f'*{d:7.2f}%*'
                        else:
                            mark = f'({d:7.2f}%)'
                    row += f' {m:10.2f} +-{coeffvar(x, w.higher):6.2f}% {mark}'
                L.append(row)
    return L


def _turbostat(results: Sequence[RunResult], workloads: Sequence[Workload],
               order: Sequence[str], names: dict[str, str], w0: int, cw: int) -> list[str]:
    """Mean delivered frequency while busy (turbostat's Bzy_MHz) per
    benchmark and configuration, where turbostat ran."""
    if not any('Bzy_MHz' in r.turbostat for r in results):
        return []
    L = ['4. DELIVERED FREQUENCY (turbostat Bzy_MHz, APERF/MPERF)',
         '=======================================================']
    for w in workloads:
        row = f'{w.name:<{w0}}'
        for c in order:
            v = [r.turbostat['Bzy_MHz'] for r in results if r.ok and r.run.config == c
                 and r.run.workload == w.name and 'Bzy_MHz' in r.turbostat]
            row += f'{sum(v) / len(v):>{cw}.0f}' if v else f'{"-":>{cw}}'
        L.append(row)
    return L


def write_files(outdir: str, meta: Meta, results: Sequence[RunResult], text: str) -> None:
    """results.json, results.csv and report.txt (text); raises OSError
    when the directory cannot be written."""
    with open(os.path.join(outdir, 'results.json'), 'w') as f:
        json.dump({'meta': meta.to_json(), 'results': [r.to_json() for r in results]},
                  f, indent=1)
    cols = ['id', 'rep', 'config', 'workload', 'op', 'status', 'figure',
            'elapsed_s', 'energy_j', 'power_w']
    with open(os.path.join(outdir, 'results.csv'), 'w', newline='') as f:
        wr = csv.writer(f)
        wr.writerow(cols + ['time_in_state_ms', 'tunables'])
        for r in results:
            d = r.to_json()
            wr.writerow([d.get(c) for c in cols] +
                        [' '.join(f'{k}:{v}' for k, v in sorted(
                            r.time_in_state_ms.items(), key=lambda kv: int(kv[0]))),
                         ' '.join(f'{k}={v}' for k, v in sorted(r.tunables.items()))])
    with open(os.path.join(outdir, 'report.txt'), 'w') as f:
        f.write(text)


def load(outdir: str) -> tuple[Meta, list[RunResult]]:
    """(meta, results) of an output directory, from results.jsonl; the
    last record of a run wins, a line cut by an interrupt is skipped.
    Raises BadInput for a directory that is not one."""
    pj = os.path.join(outdir, 'plan.json')
    if not os.path.exists(pj):
        raise BadInput(f'{outdir}: no plan.json (not a tools/compare output directory)')
    with open(pj) as f:
        meta = Meta.from_json(json.load(f))
    results: dict[int, RunResult] = {}
    jl = os.path.join(outdir, 'results.jsonl')
    if os.path.exists(jl):
        with open(jl) as f:
            for ln in f:
                try:
                    r = RunResult.from_json(json.loads(ln))
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue
                results[r.run.id] = r
    return meta, sorted(results.values(), key=lambda r: r.run.id)


def diff(dir1: str, dir2: str) -> str:
    """Per benchmark and configuration, two output directories'
    performance and performance-per-watt ratios and their relative
    difference; the largest last.  It measures, it does not judge."""
    (m1, r1), (m2, r2) = load(dir1), load(dir2)
    c1 = compare(r1, m1.workloads, m1.configs, m1.baseline)
    c2 = compare(r2, m2.workloads, m2.configs, m2.baseline)
    worst = {'perf': 0.0, 'perf/W': 0.0}
    L = [f'{"benchmark":<12}{"config":<28}{"perf 1":>8}{"perf 2":>8}{"diff":>8}'
         f'{"p/W 1":>8}{"p/W 2":>8}{"diff":>8}']
    for w in m1.workloads:
        for c in m1.configs:
            if c == m1.baseline or (w.name, c) not in c2:
                continue
            a, b = c1[(w.name, c)], c2[(w.name, c)]
            row = f'{w.name:<12}{c:<28}'
            for key, x, y in (('perf', a.perf, b.perf), ('perf/W', a.perf_per_watt,
                                                         b.perf_per_watt)):
                if x.value and y.value:
                    d = abs(y.value / x.value - 1) * 100
                    worst[key] = max(worst[key], d)
                    row += f'{x.value:8.3f}{y.value:8.3f}{d:7.2f}%'
                else:
                    row += f'{"-":>8}{"-":>8}{"-":>8}'
            L.append(row)
    L.append(f'largest difference: performance ratios {worst["perf"]:.2f} %, '
             f'performance-per-watt ratios {worst["perf/W"]:.2f} %')
    return '\n'.join(L) + '\n'
