# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: the PNG plots, drawn by gnuplot when it is installed.

freq.png: the mean frequency over time, one panel per configuration, in the
first repetition of the workload with the most samples.  perf-energy.png:
one panel per benchmark, each configuration's performance against its
energy per unit of work, both relative to the baseline, with the Pareto
front (no other configuration is both faster and cheaper) drawn; every
configuration has its own marker, named once in a key panel, so points
that fall on each other stay readable.
"""

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Sequence

from compare_model import Config, Meta, RunResult, Workload
from compare_report import Comparison
from compare_stats import amean

# gnuplot point types that differ in shape, and colours that differ in
# hue: a configuration keeps its marker across panels.
POINT_TYPES = (7, 5, 9, 11, 13, 1, 2, 3, 4, 6, 8, 10, 12, 14)
COLOURS = ('#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b',
           '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#000000', '#aec7e8')


@dataclass(frozen=True)
class Point:
    """A configuration on one benchmark: energy per unit of work and
    performance, both over the baseline's (performance turned
    higher-is-better)."""
    energy: float
    perf: float
    config: str


def pareto_front(points: Sequence[Point]) -> list[Point]:
    """The points no other point beats on both axes (less or equal energy
    and more or equal performance, one strictly), by rising energy."""
    front: list[Point] = []
    for p in sorted(points, key=lambda p: (p.energy, -p.perf)):
        if not front or p.perf > front[-1].perf:
            front.append(p)
    return front


def benchmark_points(workload: Workload, configs: Sequence[str],
                     rt: dict[tuple[str, str], Comparison]) -> list[Point]:
    """The points of one benchmark's panel."""
    out = []
    for c in configs:
        cmp = rt.get((workload.name, c))
        if cmp is None or not cmp.perf.value or not cmp.perf_per_watt.value:
            continue
        perf = cmp.perf.value if workload.higher else 1.0 / cmp.perf.value
        out.append(Point(1.0 / cmp.perf_per_watt.value, perf, c))
    return out


def _freq_script(outdir: str, dat: str, configs: Sequence[Config],
                 results: Sequence[RunResult]) -> list[str]:
    ok = [r for r in results if r.status == 'ok' and r.freq_samples]
    if not ok:
        return []
    wl = max({r.run.workload for r in ok},
             key=lambda n: amean([len(r.freq_samples) for r in ok if r.run.workload == n]))
    series: list[tuple[str, str, str]] = []
    for c in configs:
        runs = [r for r in ok if r.run.config == c.spec and r.run.workload == wl]
        if not runs:
            continue
        first = min(runs, key=lambda r: (r.run.rep, r.run.op_index, r.run.id))
        fn = os.path.join(dat, f'freq-{len(series)}.dat')
        with open(fn, 'w') as f:
            for t_ms, f_khz in first.freq_samples:
                f.write(f'{t_ms / 1000:.3f} {f_khz / 1000:.0f}\n')
        series.append((fn, c.name, f'{first.run.workload} {first.run.op}'.strip()))
    khz = [k for r in ok for _, k in r.freq_samples]
    lo, hi = min(khz) / 1000, max(khz) / 1000
    step = max(100, round((hi - lo) / 2 / 100) * 100)
    rows = (len(series) + 1) // 2
    s = ['set terminal pngcairo size 1000,%d font ",10"' % (180 * rows + 60),
         f'set yrange [{lo - step / 2:.0f}:{hi + step / 2:.0f}]', f'set ytics {step}',
         f'set output "{os.path.join(outdir, "freq.png")}"',
         f'set multiplot layout {rows},2 title "mean scaling_cur_freq (MHz) '
         f'over time (s): {series[0][2]}, first repetition"', 'unset key']
    for fn, name, _ in series:
        s += [f'set title "{name}"', f'plot "{fn}" using 1:2 with steps']
    return s + ['unset multiplot', 'unset output', 'reset']


def _perf_energy_script(outdir: str, dat: str, meta: Meta, configs: Sequence[Config],
                        rt: dict[tuple[str, str], Comparison]) -> list[str]:
    panels = [(w, benchmark_points(w, meta.configs, rt)) for w in meta.workloads]
    panels = [(w, pts) for w, pts in panels if pts]
    if not panels:
        return []
    style = {c.spec: (POINT_TYPES[i % len(POINT_TYPES)], COLOURS[i % len(COLOURS)])
             for i, c in enumerate(configs)}
    names = {c.spec: c.name for c in configs}
    cols = 3 if len(panels) >= 5 else 2
    rows = (len(panels) + 1 + cols - 1) // cols
    base = Config.parse(meta.baseline).name
    s = [f'set terminal pngcairo size {430 * cols},{380 * rows} font ",10"',
         f'set output "{os.path.join(outdir, "perf-energy.png")}"',
         f'set multiplot layout {rows},{cols} title "performance against energy per unit of '
         f'work, both over {base}\'s: up and left is better; line: Pareto front" '
         'font ",12"', 'set grid', 'unset key', 'set offsets graph 0.08, graph 0.08, '
         'graph 0.08, graph 0.08']
    for w, pts in panels:
        fn = os.path.join(dat, f'perf-energy-{w.name}.dat')
        front = pareto_front(pts)
        with open(fn, 'w') as f:
            for p in pts:
                f.write(f'{p.energy:.5f} {p.perf:.5f}\n\n\n')
            f.write('\n'.join(f'{p.energy:.5f} {p.perf:.5f}' for p in front) + '\n')
        ops = ','.join(op.label for op in w.ops if op.label)
        s += [f'set title "{w.name}{" " + ops if ops else ""}"',
              'set xlabel "energy per unit of work"',
              'set ylabel "performance (higher is better)"']
        plots = [f'"{fn}" index {len(pts)} using 1:2 with lines lc "#888888" dt 2 notitle']
        for i, p in enumerate(pts):
            pt, lc = style[p.config]
            plots.append(f'"{fn}" index {i} using 1:2 with points pt {pt} ps 1.8 lc "{lc}" '
                         f'title "{names[p.config]}"')
        s.append('plot ' + ', '.join(plots))
    # The key: every configuration's marker and name, once.
    s += ['unset title', 'unset xlabel', 'unset ylabel', 'unset border', 'unset tics',
          'unset grid', 'set offsets 0, 0, 0, 0', 'set xrange [0:1]', 'set yrange [0:1]',
          'set key center center box spacing 1.3 font ",11"']
    s.append('plot ' + ', '.join(
        f'2 with points pt {style[c.spec][0]} ps 1.8 lc "{style[c.spec][1]}" '
        f'title "{c.name}"' for c in configs))
    return s + ['unset multiplot', 'unset output']


def plot(outdir: str, meta: Meta, results: Sequence[RunResult],
         rt: dict[tuple[str, str], Comparison]) -> None:
    """freq.png and perf-energy.png in outdir; nothing without gnuplot
    or results."""
    gp = shutil.which('gnuplot')
    if not gp or not results:
        return
    configs = [Config.parse(s) for s in meta.configs]
    dat = os.path.join(outdir, 'plot')
    os.makedirs(dat, exist_ok=True)
    script = _freq_script(outdir, dat, configs, results)
    script += _perf_energy_script(outdir, dat, meta, configs, rt)
    if script:
        subprocess.run([gp], input='\n'.join(script) + '\n', text=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
