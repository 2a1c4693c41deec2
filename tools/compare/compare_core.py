# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: governors x workloads x repetitions, the seeds' tables.

The plan runs on this machine (root, a real cpufreq driver and RAPL) or in
the test guest (--guest PRESET: Debian's 6.1 kernel under QEMU's
instruction counting with vcpufreq's emulated machine).  Either way each
run is one call of run-one.sh, a POSIX sh runner, so the same code
measures both.  The statistics follow mmtests (bin/lib/MMTests/Stat.pm,
Compare.pm): Hmean for higher-is-better figures, Amean otherwise, the
CoeffVar of the matching standard deviation, and a difference marked
significant when it exceeds the sum of the two 95 % intervals.
"""

import argparse
import csv
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
RUN_ONE = os.path.join(HERE, 'run-one.sh')

# The ten configurations of make compare, in the seeds' column order.
DEFAULT_CONFIGS = [
    'ondemand', 'performance', 'powersave', 'conservative', 'schedutil',
    'sugov_inv:noinv', 'sugov_inv:max_boost', 'sugov_inv:midpoint',
    'sugov_inv:max_P', 'sugov_inv:overutil-detect',
]
# Column names as in seed 001 (sugov-P0 is freq_max = max_P, ...).
SHORT_NAMES = {
    'performance': 'perfgov',
    'sugov_inv:noinv': 'sugov-noinv',
    'sugov_inv:max_boost': 'sugov-max',
    'sugov_inv:midpoint': 'sugov-mid',
    'sugov_inv:max_P': 'sugov-P0',
    'sugov_inv:overutil-detect': 'sugov-odet',
}
GOVERNORS = ('performance', 'powersave', 'ondemand', 'conservative',
             'schedutil', 'userspace', 'sugov_inv')
PSTATE_GOVERNORS = ('intel_pstate/performance', 'intel_pstate/powersave')
FREQ_MAX_POLICIES = ('max_P', 'midpoint', 'max_boost', 'overutil-detect',
                     'noinv')
SUGOV_INV_TUNABLES = ('rate_limit_us', 'headroom_pct',
                      'overutil_threshold_pct', 'util_halflife_ms')
PRESETS = ('epyc-7742', 'xeon-e5-2687w-v3')
# Programs each workload runs; the guest initramfs carries all of them.
PROGRAMS = {'tbench': ('tbench', 'tbench_srv'), 'dbench': ('dbench',),
            'hackbench': ('hackbench',), 'cpu': ('stress-ng',),
            'forkexec': ('sh', 'sed', 'grep'), 'burst': ('sh', 'awk'), 'cmd': ('sh',),
            'periodic': ('rt-app',), 'ramp': ('rt-app',), 'pingpong': ('rt-app',)}
# rt-app's profiles (run-one.sh): periodic-DUTY.json, ramp.json, pingpong.json.
RTAPP_DIR = os.path.join(HERE, 'rt-app')
Z95 = 1.959963984540054   # qnorm(0.975): mmtests' alpha = 0.05 intervals


class BadInput(Exception):
    """Input refused before anything runs: one line, exit status 2."""


# ---------------------------------------------------------------------------
# Statistics (mmtests' definitions, our own code)

def amean(xs):
    """Arithmetic mean."""
    return sum(xs) / len(xs)


def hmean(xs):
    """Harmonic mean; NaN when a value is not positive (as mmtests)."""
    if any(x <= 0 for x in xs):
        return math.nan
    return len(xs) / sum(1.0 / x for x in xs)


def stddev(xs, mean_name):
    """Standard deviation matching the mean: the sample deviation for
    amean; for hmean the delta-method deviation of the harmonic mean,
    sqrt(sum((1/x - 1/H)^2) * H^4 / n), as Stat.pm's calc_stddev.
    NaN with fewer than two values."""
    n = len(xs)
    if n <= 1:
        return math.nan
    if mean_name == 'amean':
        m = amean(xs)
        return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = hmean(xs)
    if math.isnan(h):
        return math.nan
    return math.sqrt(sum((1.0 / x - 1.0 / h) ** 2 for x in xs) * h ** 4 / n)


def coeffvar(xs, mean_name):
    """CoeffVar in percent: stddev * 100 / mean (0 where undefined)."""
    m = amean(xs) if mean_name == 'amean' else hmean(xs)
    s = stddev(xs, mean_name)
    if math.isnan(s):
        s = 0.0
    if math.isnan(m) or m == 0:
        return 0.0
    return s * 100.0 / m


def pct_diff(new, base, higher):
    """The (x%) column: positive is better in both directions (mmtests'
    pdiff for higher-is-better, pndiff for lower-is-better)."""
    if new == base:
        return 0.0
    if higher:
        if new == 0:
            return 0.0
        if base == 0:
            return 100.0
        return new * 100.0 / base - 100.0
    if new == 0:
        return 100.0
    if base == 0:
        return -99.0
    return 100.0 - new * 100.0 / base


def significant(base_mean, base_sd, new_mean, new_sd):
    """mmtests' mark: the difference of the means over the sum of the
    inner halves of their 95 % intervals (mean -+ 1.96 sd) exceeds 1.
    With no interval (a single run) nothing is marked."""
    if math.isnan(base_sd) or math.isnan(new_sd):
        return False
    cisum = Z95 * (base_sd + new_sd)
    diff = base_mean - new_mean
    ratio = diff if cisum == 0 else diff / cisum
    return abs(ratio) > 1


def geomean(xs):
    """Geometric mean of positive ratios."""
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def energy_delta_uj(before, after, max_range_uj):
    """Energy between two energy_uj reads; the counter wraps to 0 after
    max_energy_range_uj (as RAPL's does), at most once per run."""
    d = after - before
    if d < 0:
        d += max_range_uj
    return d


# ---------------------------------------------------------------------------
# Configurations and workloads

class Config:
    """GOVERNOR[:FREQ_MAX_POLICY][,TUNABLE=VALUE...] or intel_pstate/GOV."""

    def __init__(self, spec):
        self.spec = spec
        head, _, rest = spec.partition(',')
        self.governor, _, self.policy = head.partition(':')
        self.tunables = []
        for tv in filter(None, rest.split(',')):
            name, eq, value = tv.partition('=')
            if not eq or not name or not value:
                raise BadInput(f'configuration {spec}: tunable "{tv}" is not NAME=VALUE')
            self.tunables.append((name, value))
        if self.governor in PSTATE_GOVERNORS:
            if self.policy or self.tunables:
                raise BadInput(f'configuration {spec}: intel_pstate\'s active mode has no tunables here')
        elif self.governor not in GOVERNORS:
            raise BadInput(f'configuration {spec}: unknown governor "{self.governor}" '
                           f'(known: {" ".join(GOVERNORS + PSTATE_GOVERNORS)})')
        if self.policy and self.governor != 'sugov_inv':
            raise BadInput(f'configuration {spec}: only sugov_inv has a freq_max policy')
        if self.policy and self.policy not in FREQ_MAX_POLICIES:
            raise BadInput(f'configuration {spec}: unknown freq_max policy "{self.policy}" '
                           f'(known: {" ".join(FREQ_MAX_POLICIES)})')
        if self.governor == 'sugov_inv':
            for name, _ in self.tunables:
                if name not in SUGOV_INV_TUNABLES:
                    raise BadInput(f'configuration {spec}: sugov_inv has no tunable "{name}" '
                                   f'(known: freq_max_policy {" ".join(SUGOV_INV_TUNABLES)})')
        self.name = SHORT_NAMES.get(spec, spec.replace('sugov_inv:', 'sugov-'))


class Workload:
    """One benchmark: a kind, its swept operations and how to read it.

    ops is a list of (label, runner arguments); label is the varying
    parameter's value (client count, groups) or '' for none."""

    KINDS = {
        # kind: (title, varying parameter, unit, higher is better)
        'tbench': ('tbench4 (dbench4 over loopback)', 'number of clients', 'MB/sec', True),
        'dbench': ('dbench (average latency of its operations)', 'number of clients', 'ms', False),
        'hackbench': ('hackbench (sockets, process groups)', 'number of groups', 'seconds', False),
        'cpu': ('cpubound (fixed stress-ng --cpu-ops, kernbench-like)', 'number of workers', 'seconds', False),
        'forkexec': ('forkexec (chain of short shells, gitsource-like)', 'none', 'seconds', False),
        'burst': ('burst (fixed shell loops after idle gaps; busy time = elapsed - gaps)',
                  'idle gap (ms)', 'seconds', False),
        'periodic': ('periodic (rt-app: fixed work every 16 ms; busy time per activation)',
                     'duty cycle at the top frequency (%)', 'ms', False),
        'ramp': ('ramp (rt-app: 16 ms period, duty 10 % to 90 %; busy time per activation)',
                 'none', 'ms', False),
        'pingpong': ('pingpong (rt-app: two tasks on CPUs 0 and 1 hand a token on; round trip)',
                     'none', 'ms', False),
    }
    # Kinds that take no parameter.
    FIXED = ('forkexec', 'ramp', 'pingpong')

    def __init__(self, kind, name, ops, title, param, unit, higher, pattern=None):
        self.kind, self.name, self.ops = kind, name, ops
        self.title, self.param, self.unit, self.higher = title, param, unit, higher
        self.pattern = pattern

    def to_json(self):
        return {'kind': self.kind, 'name': self.name, 'ops': self.ops,
                'title': self.title, 'param': self.param, 'unit': self.unit,
                'higher': self.higher, 'pattern': self.pattern}

    @classmethod
    def from_json(cls, d):
        return cls(d['kind'], d['name'], [tuple(o) for o in d['ops']], d['title'],
                   d['param'], d['unit'], d['higher'], d.get('pattern'))


def parse_workload(spec, lengths):
    """KIND[:N,N...] with KIND one of Workload.KINDS; N the swept parameter
    (none for Workload.FIXED); lengths the run lengths (seconds, loops,
    ops)."""
    kind, _, sweep = spec.partition(':')
    if kind not in Workload.KINDS:
        raise BadInput(f'workload {spec}: unknown (known: {" ".join(Workload.KINDS)}, or --cmd)')
    title, param, unit, higher = Workload.KINDS[kind]
    counts = []
    if sweep:
        if kind in Workload.FIXED:
            raise BadInput(f'workload {spec}: {kind} has no parameter to sweep')
        for c in sweep.split(','):
            if not c.isdigit() or int(c) < 1:
                raise BadInput(f'workload {spec}: "{c}" is not a positive count')
            counts.append(int(c))
    elif kind == 'burst':
        counts = [50]
    elif kind == 'periodic':
        counts = [20, 50, 80]
    elif kind not in Workload.FIXED:
        counts = [1]
    for c in counts if kind == 'periodic' else []:
        if not os.path.exists(os.path.join(RTAPP_DIR, f'periodic-{c}.json')):
            have = sorted(int(f[9:-5]) for f in os.listdir(RTAPP_DIR)
                          if re.fullmatch(r'periodic-\d+\.json', f))
            raise BadInput(f'workload {spec}: no rt-app profile for a {c} % duty cycle '
                           f'(have: {",".join(map(str, have))})')
    if kind == 'tbench' or kind == 'dbench':
        ops = [(str(c), [str(c), str(lengths['seconds'])]) for c in counts]
    elif kind == 'hackbench':
        ops = [(str(c), [str(c), str(lengths['loops'])]) for c in counts]
    elif kind == 'cpu':
        ops = [(str(c), [str(c), str(lengths['cpu_ops'])]) for c in counts]
    elif kind == 'burst':
        ops = [(str(c), [str(c), str(lengths['bursts'])]) for c in counts]
    elif kind == 'periodic':
        ops = [(str(c), [str(c)]) for c in counts]
    elif kind in ('ramp', 'pingpong'):
        ops = [('', [])]
    else:
        ops = [('', [str(lengths['forkexec'])])]
    return Workload(kind, kind, ops, title, param, unit, higher)


def parse_cmd(name, command, figure):
    """A user command: figure None = its elapsed time (lower is better),
    else (REGEX with one group, 'higher'|'lower')."""
    if not re.fullmatch(r'[A-Za-z0-9_.-]+', name):
        raise BadInput(f'--cmd {name}: a name is letters, digits, _ . -')
    pattern, higher, unit = None, False, 'seconds'
    if figure:
        pattern, direction = figure
        if direction not in ('higher', 'lower'):
            raise BadInput(f'--cmd-figure {name}: direction is higher or lower, not {direction}')
        try:
            if re.compile(pattern).groups != 1:
                raise BadInput(f'--cmd-figure {name}: the pattern needs exactly one (group)')
        except re.error as e:
            raise BadInput(f'--cmd-figure {name}: bad pattern: {e}') from None
        higher, unit = direction == 'higher', 'as printed'
    return Workload('cmd', name, [('', [command])], f'{name} (user command)', 'none',
                    unit, higher, pattern)


def extract_figure(workload, lines, elapsed_s):
    """The run's figure of merit from its output lines, or None."""
    text = '\n'.join(lines)
    if workload.kind == 'tbench':
        m = re.findall(r'Throughput\s+([0-9.]+)\s+MB/sec', text)
        return float(m[-1]) if m else None
    if workload.kind == 'dbench':
        # Count-weighted mean of the per-operation average latencies.
        rows = re.findall(r'^\s*([A-Za-z]+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s*$', text, re.M)
        n = sum(int(r[1]) for r in rows)
        if n:
            return sum(int(r[1]) * float(r[2]) for r in rows) / n
        m = re.findall(r'max_latency=([0-9.]+) ms', text)
        return float(m[-1]) if m else None
    if workload.kind == 'hackbench':
        m = re.findall(r'^Time:\s*([0-9.]+)', text, re.M)
        return float(m[-1]) if m else None
    if workload.kind == 'burst':
        # The gaps are sleeps every configuration spends alike: the
        # figure is the time the bursts themselves took.
        m = re.findall(r'^burst (\d+) x gap (\d+) ms done', text, re.M)
        if not m or elapsed_s is None:
            return None
        return elapsed_s - int(m[-1][0]) * int(m[-1][1]) / 1000.0
    if workload.kind in ('periodic', 'ramp', 'pingpong'):
        # run-one.sh's summary of rt-app's log: the busy time per
        # activation of the one task, or ping's round trip.
        if not re.search(rf'^rtapp \S+ done', text, re.M):
            return None
        tasks = {t: (float(b), float(p)) for t, b, p in re.findall(
            r'^rtapp task (\S+) loops \d+ busy_ms ([0-9.]+) period_ms ([0-9.]+)', text, re.M)}
        if workload.kind == 'pingpong':
            return tasks['ping'][1] if 'ping' in tasks else None
        return next(iter(tasks.values()))[0] if len(tasks) == 1 else None
    if workload.kind == 'cmd' and workload.pattern:
        m = re.findall(workload.pattern, text)
        try:
            return float(m[-1]) if m else None
        except ValueError:
            return None
    return elapsed_s


# ---------------------------------------------------------------------------
# The plan

def make_plan(configs, workloads, reps, seed):
    """Every (configuration, workload operation) once per repetition;
    within a repetition the configurations run in an order shuffled from
    seed (one permutation per repetition), each running every workload
    before the next, so slow drift of the machine spreads over all."""
    rng = random.Random(seed)
    plan = []
    for rep in range(reps):
        order = list(range(len(configs)))
        rng.shuffle(order)
        for ci in order:
            for wi, w in enumerate(workloads):
                for oi, (label, args) in enumerate(w.ops):
                    plan.append({'id': len(plan), 'rep': rep, 'config': configs[ci].spec,
                                 'workload': w.name, 'op': label, 'op_index': oi,
                                 'kind': w.kind, 'args': args})
    return plan


def plan_line(run):
    """One line of guest.sh's plan: ID CONFIG KIND ARG..., sh-quoted."""
    return ' '.join(shlex.quote(str(x)) for x in
                    [run['id'], run['config'], run['kind']] + run['args'])


# ---------------------------------------------------------------------------
# Reading run-one.sh's lines

def parse_lines(lines):
    """COMPARE_* lines -> {id: {'out': [...], 'freq': [...], fields...}}."""
    res = {}
    for raw in lines:
        line = raw.rstrip('\r\n')
        m = re.match(r'^(COMPARE_OUT|COMPARE_FREQ|COMPARE_RESULT) (\d+) ?(.*)$', line)
        if not m:
            continue
        tag, rid, rest = m.group(1), int(m.group(2)), m.group(3)
        r = res.setdefault(rid, {'out': [], 'freq': []})
        if tag == 'COMPARE_OUT':
            r['out'].append(rest)
        elif tag == 'COMPARE_FREQ':
            for p in filter(None, rest.split(',')):
                t, _, f = p.partition(':')
                if t.isdigit() and f.isdigit():
                    r['freq'].append((int(t), int(f)))
        else:
            for kv in rest.split():
                k, _, v = kv.partition('=')
                r[k] = v
    return res


def finish_result(run, raw, workload):
    """A plan entry and its parsed lines -> the stored result record."""
    rec = dict(run)
    rec['status'] = raw.get('status', 'missing')
    elapsed = int(raw['elapsed_ns']) / 1e9 if raw.get('elapsed_ns', '').isdigit() else None
    rec['elapsed_s'] = elapsed
    energy = None
    if raw.get('energy') not in (None, '', '-'):
        energy = 0
        for z in raw['energy'].split(';'):
            parts = z.partition('=')[2].split(':')
            if len(parts) != 3 or not all(p.isdigit() for p in parts):
                energy = None
                break
            energy += energy_delta_uj(int(parts[0]), int(parts[1]), int(parts[2]))
    rec['energy_j'] = energy / 1e6 if energy is not None else None
    rec['power_w'] = (rec['energy_j'] / elapsed
                      if rec['energy_j'] is not None and elapsed else None)
    tis = {}
    if raw.get('tis') not in (None, '', '-'):
        for p in raw['tis'].split(','):
            f, _, t = p.partition(':')
            if f.isdigit() and t.isdigit():
                tis[f] = int(t) * 10
    rec['time_in_state_ms'] = tis
    rec['freq_samples'] = raw.get('freq', [])
    rec['figure'] = None
    if rec['status'] == 'ok':
        rec['figure'] = extract_figure(workload, raw.get('out', []), elapsed)
        if rec['figure'] is None:
            rec['status'] = 'no-figure'
    rec['output_tail'] = raw.get('out', [])[-8:]
    return rec


# ---------------------------------------------------------------------------
# Tables

def summarise(results, workloads, config_specs):
    """{(workload, op, config): values} of the runs that gave a figure."""
    vals = {}
    for r in results:
        if r['status'] == 'ok' and r['figure'] is not None:
            vals.setdefault((r['workload'], r['op'], r['config']), []).append(r['figure'])
    return vals


def op_stats(xs, higher):
    """(mean, sd, coeffvar) with Hmean for higher, Amean for lower."""
    name = 'hmean' if higher else 'amean'
    m = hmean(xs) if higher else amean(xs)
    return m, stddev(xs, name), coeffvar(xs, name)


def power_of(results, workload, config):
    """Average W over a benchmark's runs: total energy / total time; with
    the per-run powers for the significance test."""
    e = t = 0.0
    ps = []
    for r in results:
        if (r['workload'] == workload and r['config'] == config and r['status'] == 'ok'
                and r['energy_j'] is not None and r['elapsed_s']):
            e += r['energy_j']
            t += r['elapsed_s']
            ps.append(r['power_w'])
    return (e / t if t else None), ps


def ratios(results, workloads, configs, baseline):
    """Per workload and configuration: (perf ratio, perf ~, perf/W, perf/W ~,
    avg W).  The perf ratio is the geometric mean over the operations of
    mean / baseline mean, as mmtests' ratio table; ~ when no operation
    differs significantly (and some point has two runs a side, else
    nothing can be judged).  perf/W = perf ratio turned higher-is-better
    over the ratio of average powers; ~ when, further, the power does not
    differ significantly."""
    vals = summarise(results, workloads, configs)
    out = {}
    for w in workloads:
        bpow, bps = power_of(results, w.name, baseline)
        for c in configs:
            rs, sig, judged = [], False, False
            for label, _ in w.ops:
                b = vals.get((w.name, label, baseline))
                x = vals.get((w.name, label, c))
                if not b or not x:
                    continue
                bm, bsd, _ = op_stats(b, w.higher)
                xm, xsd, _ = op_stats(x, w.higher)
                if bm > 0 and xm > 0:
                    rs.append(xm / bm)
                    sig = sig or significant(bm, bsd, xm, xsd)
                    judged = judged or (len(b) > 1 and len(x) > 1)
            # With a single run on a side there is no interval: no ~.
            sig = sig or not judged
            perf = geomean(rs) if rs else None
            cpow, cps = power_of(results, w.name, c)
            ppw = None
            psig = sig
            if perf is not None and bpow and cpow:
                hi = perf if w.higher else 1.0 / perf
                ppw = hi / (cpow / bpow)
                if len(bps) > 1 and len(cps) > 1:
                    psig = sig or significant(amean(bps), stddev(bps, 'amean'),
                                              amean(cps), stddev(cps, 'amean'))
                else:
                    psig = True
            out[(w.name, c)] = (perf, not sig and c != baseline,
                                ppw, not psig and c != baseline, cpow)
    return out


def fmt_ratio(v, tilde):
    if v is None:
        return '-'
    return '~' if tilde else f'{v:.2f}'


def render(meta, results):
    """The report text in seed 001's layout."""
    configs = [Config(s) for s in meta['configs']]
    specs = [c.spec for c in configs]
    names = {c.spec: c.name for c in configs}
    base = meta['baseline']
    order = [base] + [s for s in specs if s != base]
    workloads = [Workload.from_json(w) for w in meta['workloads']]
    rt = ratios(results, workloads, order, base)
    have_energy = any(r.get('energy_j') is not None for r in results)
    L = []
    L.append('1. SUMMARY')
    L.append('==========')
    for s in order:
        L.append(f'{names[s]} : {s}' + (' (BASELINE)' if s == base else ''))
    for k in ('machine', 'command', 'commit', 'seed', 'reps'):
        if k in meta:
            L.append(f'{k} : {meta[k]}')
    done = sum(1 for r in results if r['status'] == 'ok')
    L.append(f'runs : {done} measured of {len(meta["plan"])} planned')
    L.append('Tilde (~) means the value is the same as baseline (within noise).')
    w0 = max([len(w.name) for w in workloads] + [11])
    cw = max([len(names[s]) for s in order] + [6]) + 1
    head = ' ' * w0 + ''.join(f'{names[s]:>{cw}}' for s in order) + '  better if'
    bar = '-' * len(head)
    L += [bar, head, bar, 'PERFORMANCE RATIOS']
    for w in workloads:
        L.append(f'{w.name:<{w0}}' + ''.join(
            f'{fmt_ratio(rt[(w.name, s)][0], rt[(w.name, s)][1]):>{cw}}' for s in order)
            + ('  higher' if w.higher else '  lower'))
    if have_energy:
        L += [bar, 'PERFORMANCE-PER-WATT RATIOS']
        for w in workloads:
            L.append(f'{w.name:<{w0}}' + ''.join(
                f'{fmt_ratio(rt[(w.name, s)][2], rt[(w.name, s)][3]):>{cw}}' for s in order)
                + '  higher')
    L.append(bar)
    L.append('2. DETAILED PERFORMANCE TABLES')
    L.append('==============================')
    vals = summarise(results, workloads, specs)
    for w in workloads:
        L.append(f'Benchmark : {w.title}')
        L.append(f'Varying parameter : {w.param}')
        L.append(f'Unit : {w.unit} ({"higher" if w.higher else "lower"} is better)')
        stat = 'Hmean' if w.higher else 'Amean'
        for g in range(0, len(order), 3):
            group = order[g:g + 3]
            L.append(''.join(f'{(names[s] + (" (BASELINE)" if s == base else "")):>33}'
                             for s in group).rstrip().rjust(14 + 33 * len(group)))
            L.append('- ' * (7 + 17 * len(group)))
            for label, _ in w.ops:
                row = f'{stat:<7}{label:>6} '
                b = vals.get((w.name, label, base))
                bm = op_stats(b, w.higher) if b else None
                for s in group:
                    x = vals.get((w.name, label, s))
                    if not x:
                        row += f'{"-":>33}'
                        continue
                    m, sd, cv = op_stats(x, w.higher)
                    if s == base or not bm:
                        mark = '(        )'
                    else:
                        d = pct_diff(m, bm[0], w.higher)
                        if significant(bm[0], bm[1], m, sd):
                            mark = f'*{d:7.2f}%*'
                        else:
                            mark = f'({d:7.2f}%)'
                    row += f' {m:10.2f} +-{cv:6.2f}% {mark}'
                L.append(row)
    if have_energy:
        L.append('3. POWER CONSUMPTION TABLE')
        L.append('==========================')
        L.append('Average power consumption (watts).')
        L += [bar, ' ' * w0 + ''.join(f'{names[s]:>{cw}}' for s in order), bar]
        for w in workloads:
            L.append(f'{w.name:<{w0}}' + ''.join(
                f'{rt[(w.name, s)][4]:>{cw}.2f}' if rt[(w.name, s)][4] else f'{"-":>{cw}}'
                for s in order))
    bad = [r for r in results if r['status'] != 'ok']
    if bad:
        L.append(f'# {len(bad)} runs gave no figure: ' + ', '.join(
            f'{r["id"]} {r["config"]} {r["workload"]}{r["op"]}: {r["status"]}' for r in bad[:8]))
    return '\n'.join(L) + '\n'


# ---------------------------------------------------------------------------
# Output files and plots

def write_outputs(outdir, meta, results):
    """results.json, results.csv, report.txt and the PNG plots."""
    with open(os.path.join(outdir, 'results.json'), 'w') as f:
        json.dump({'meta': meta, 'results': results}, f, indent=1)
    cols = ['id', 'rep', 'config', 'workload', 'op', 'status', 'figure',
            'elapsed_s', 'energy_j', 'power_w']
    with open(os.path.join(outdir, 'results.csv'), 'w', newline='') as f:
        wr = csv.writer(f)
        wr.writerow(cols + ['time_in_state_ms'])
        for r in results:
            wr.writerow([r.get(c) for c in cols] +
                        [' '.join(f'{k}:{v}' for k, v in sorted(
                            r.get('time_in_state_ms', {}).items(), key=lambda kv: int(kv[0])))])
    text = render(meta, results)
    with open(os.path.join(outdir, 'report.txt'), 'w') as f:
        f.write(text)
    plot(outdir, meta, results)
    return text


def plot(outdir, meta, results):
    """freq.png: mean frequency over time, one panel per configuration, in
    the first repetition of the workload with the longest runs;
    perf-energy.png: one point per configuration, the geometric mean of
    the performance ratios (higher is better) against the mean energy per
    run.  Skipped without gnuplot."""
    gp = shutil.which('gnuplot')
    if not gp or not results:
        return
    configs = [Config(s) for s in meta['configs']]
    workloads = [Workload.from_json(w) for w in meta['workloads']]
    base = meta['baseline']
    dat = os.path.join(outdir, 'plot')
    os.makedirs(dat, exist_ok=True)
    ok = [r for r in results if r['status'] == 'ok' and r['freq_samples']]
    series = []
    if ok:
        wl = max({r['workload'] for r in ok},
                 key=lambda n: amean([len(r['freq_samples']) for r in ok if r['workload'] == n]))
        for c in configs:
            runs = [r for r in ok if r['config'] == c.spec and r['workload'] == wl]
            if not runs:
                continue
            first = min(runs, key=lambda r: (r['rep'], r['op_index'], r['id']))
            fn = os.path.join(dat, f'freq-{len(series)}.dat')
            with open(fn, 'w') as f:
                for t, khz in first['freq_samples']:
                    f.write(f'{t / 1000:.3f} {khz / 1000:.0f}\n')
            series.append((fn, c.name, f'{first["workload"]} {first["op"]}'.strip()))
    rt = ratios(results, workloads, [c.spec for c in configs], base)
    points = []
    for c in configs:
        perf, en = [], []
        for w in workloads:
            p = rt.get((w.name, c.spec), (None,))[0]
            if p:
                perf.append(p if w.higher else 1.0 / p)
            es = [r['energy_j'] for r in results if r['config'] == c.spec and
                  r['workload'] == w.name and r['energy_j'] is not None and r['status'] == 'ok']
            if es and amean(es) > 0:
                en.append(amean(es))
        if perf and en:
            points.append(f'{geomean(perf):.4f} {geomean(en):.4f} "{c.name}"')
    script = ['set terminal png size 1000,700', 'set termoption noenhanced', 'set grid']
    if series:
        rows = (len(series) + 1) // 2
        khz = [k for r in ok for _, k in r['freq_samples']]
        lo, hi = min(khz) / 1000, max(khz) / 1000
        step = max(100, round((hi - lo) / 2 / 100) * 100)
        script += [f'set yrange [{lo - step / 2:.0f}:{hi + step / 2:.0f}]', f'set ytics {step}',
                   f'set output "{os.path.join(outdir, "freq.png")}"',
                   f'set multiplot layout {rows},2 title "mean scaling_cur_freq (MHz) '
                   f'over time (s): {series[0][2]}, first repetition"', 'unset key']
        for fn, name, _ in series:
            script += [f'set title "{name}"', f'plot "{fn}" using 1:2 with steps']
        script += ['unset multiplot']
    if points:
        script += ['set autoscale y', 'set ytics autofreq']
        pts = os.path.join(dat, 'perf-energy.dat')
        with open(pts, 'w') as f:
            f.write('\n'.join(points) + '\n')
        script += ['set size 1,1', 'set title "performance against energy"',
                   f'set output "{os.path.join(outdir, "perf-energy.png")}"',
                   'set xlabel "mean energy per run, geometric mean over benchmarks (J)"',
                   f'set ylabel "performance ratio vs {Config(base).name} (higher is better)"',
                   'unset key',
                   f'plot "{pts}" using 2:1 with points pt 7, "" using 2:1:3 with labels offset 1,1']
    if series or points:
        subprocess.run([gp], input='\n'.join(script) + '\n', text=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


# ---------------------------------------------------------------------------
# Running

def host_checks(configs, workloads, need_energy, sysfs):
    """Refuse, before anything runs, what the host cannot do."""
    cpufreq = os.path.join(sysfs, 'devices/system/cpu/cpufreq')
    pol = os.path.join(cpufreq, 'policy0')
    if not os.path.isdir(pol):
        raise BadInput(f'no cpufreq policy in {cpufreq}: this machine has no cpufreq driver')
    driver = open(os.path.join(pol, 'scaling_driver')).read().strip() \
        if os.path.exists(os.path.join(pol, 'scaling_driver')) else '?'
    pstate = os.path.join(sysfs, 'devices/system/cpu/intel_pstate/status')
    wants_gov = [c for c in configs if c.governor not in PSTATE_GOVERNORS]
    if wants_gov and driver in ('amd-pstate-epp', 'intel_pstate') and not os.path.exists(pstate):
        raise BadInput(f'the {driver} driver takes no governor: boot with amd_pstate=passive '
                       f'or intel_pstate=passive')
    if driver == 'amd-pstate-epp' and wants_gov:
        raise BadInput('the amd-pstate-epp driver takes no governor: '
                       'echo passive > /sys/devices/system/cpu/amd_pstate/status first')
    for c in configs:
        if c.governor in PSTATE_GOVERNORS and not os.path.exists(pstate):
            raise BadInput(f'configuration {c.spec}: this machine has no intel_pstate')
    avail = open(os.path.join(pol, 'scaling_available_governors')).read().split() \
        if os.path.exists(os.path.join(pol, 'scaling_available_governors')) else []
    rel = os.uname().release
    for c in configs:
        g = c.governor
        if g in avail or g in PSTATE_GOVERNORS:
            continue
        if g == 'sugov_inv':
            ko = os.path.join(TOP, 'sugov_inv.ko')
            if not os.path.exists(ko):
                raise BadInput('sugov_inv is not loaded and not built here: run make')
            vm = subprocess.run(['modinfo', '-F', 'vermagic', ko], capture_output=True,
                                text=True, check=False).stdout.split()
            if not vm or vm[0] != rel:
                raise BadInput(f'sugov_inv.ko was built for {vm[0] if vm else "?"}, this kernel '
                               f'is {rel}: make KDIR=/lib/modules/{rel}/build (never loaded '
                               f'into another kernel)')
        elif not os.path.exists(f'/lib/modules/{rel}/kernel/drivers/cpufreq') or \
                subprocess.run(['modprobe', '-n', f'cpufreq_{g}'], capture_output=True,
                               check=False).returncode != 0:
            raise BadInput(f'governor {g} is not available here (have: {" ".join(avail)})')
    for w in workloads:
        for p in PROGRAMS[w.kind]:
            if not shutil.which(p):
                raise BadInput(f'workload {w.name}: {p} is not installed')
    if need_energy:
        z = os.path.join(sysfs, 'class/powercap/intel-rapl:0/energy_uj')
        if not os.access(z, os.R_OK):
            raise BadInput(f'{z} is not there or not readable: no RAPL energy '
                           f'(modprobe intel_rapl_msr; or run with --no-energy)')


def host_prepare(configs):
    """Load sugov_inv (built for this very kernel, checked) and stock
    governor modules when a configuration needs them."""
    avail = open('/sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors').read()
    for c in configs:
        if c.governor in avail.split() or c.governor in PSTATE_GOVERNORS:
            continue
        if c.governor == 'sugov_inv':
            for m in ('freq_invariance.ko', 'sugov_inv.ko'):
                subprocess.run(['insmod', os.path.join(TOP, m)], check=False)
        else:
            subprocess.run(['modprobe', f'cpufreq_{c.governor}'], check=False)
        avail = open('/sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors').read()


def commit_id():
    r = subprocess.run(['git', '-C', TOP, 'describe', '--always', '--dirty'],
                       capture_output=True, text=True, check=False)
    return r.stdout.strip() or 'unknown'


class Recorder:
    """Appends each finished run to results.jsonl as it arrives, so an
    interrupted run keeps what it measured."""

    def __init__(self, outdir, meta):
        self.outdir, self.meta = outdir, meta
        self.by_id = {r['id']: r for r in meta['plan']}
        self.wl = {w['name']: Workload.from_json(w) for w in meta['workloads']}
        self.pending = {}
        self.results = []
        self.f = open(os.path.join(outdir, 'results.jsonl'), 'a')

    def feed(self, line):
        if not line.startswith('COMPARE_'):
            return
        for rid, raw in parse_lines([line]).items():
            p = self.pending.setdefault(rid, {'out': [], 'freq': []})
            p['out'] += raw.pop('out')
            p['freq'] += raw.pop('freq')
            p.update(raw)
            if 'status' in raw and rid in self.by_id:
                run = self.by_id[rid]
                rec = finish_result(run, self.pending.pop(rid), self.wl[run['workload']])
                self.results.append(rec)
                self.f.write(json.dumps(rec) + '\n')
                self.f.flush()
                fig = '' if rec['figure'] is None else f"{rec['figure']:.3f}"
                pw = '' if rec['power_w'] is None else f" {rec['power_w']:.2f} W"
                print(f"compare: run {rid + 1}/{len(self.by_id)} {run['config']} "
                      f"{run['workload']}{run['op']} rep {run['rep'] + 1}: "
                      f"{rec['status']} {fig}{pw}", flush=True)


def run_host(rec, plan, settle_s):
    env = dict(os.environ, SETTLE_S=str(settle_s))
    for run in plan:
        p = subprocess.Popen(['sh', RUN_ONE, str(run['id']), run['config'], run['kind']] +
                             run['args'], stdout=subprocess.PIPE, text=True, env=env)
        for line in p.stdout:
            rec.feed(line)
        if p.wait() == 2:
            rec.feed(f'COMPARE_RESULT {run["id"]} status=refused rc=2')


def run_guest(rec, meta, plan, args):
    """One boot of the stock 6.1 guest under instruction counting; the
    console is parsed while it streams."""
    line = '\n'.join(plan_line(r) for r in plan)
    timeout = args.timeout or max(2400, 20 * len(plan))
    cmd = [os.path.join(TOP, 'tools/vm/run'), '--name', args.name, '--smp', str(args.smp),
           '--timeout', str(timeout)]
    if args.icount:
        # One vCPU: sleep=off, so an idle gap lasts exactly until the
        # next guest timer, not as long as the host took to wake QEMU
        # (Documentation/bench.rst, "Repeatability under instruction
        # counting").  Several: tools/vm/run's variant that boots
        # maxcpus=1; QEMU 7.2 shares its instruction clock unfairly.
        cmd += ['--icount=smp' if args.smp > 1 else '--icount=shift=3,sleep=off']
    cmd += ['--', 'env', f'SETTLE_S={args.settle:g}', 'sh', 'tools/compare/guest.sh', args.guest,
            '1' if args.boost else '0', '0' if args.no_energy else '1', line]
    boot = None
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors='replace')
    for ln in p.stdout:
        ln = ln.rstrip('\r\n')
        if ln.startswith('COMPARE_BOOT'):
            boot = ln
            meta['guest'] = ln.split(' ', 1)[1]
            print(f'compare: guest up: {meta["guest"]}', flush=True)
        elif ln.startswith('compare:') or ln.startswith('run-one:') or ln.startswith('vm:'):
            print(ln, flush=True)
        rec.feed(ln)
    rc = p.wait()
    if boot is None:
        print(f'compare: the guest did not set up the machine (tools/vm/run exit {rc}; '
              f'log build/vm/{args.name}.log)', flush=True)
        return 2 if rc == 2 else 1
    return 0


DEFAULTS = {
    # make compare: the ten configurations in the 1-vCPU guest under
    # instruction counting; first the workloads where they differ (work
    # that arrives after idle gaps, periodic tasks), then tbench and
    # forkexec, where a busy CPU makes every dynamic governor alike.
    'quick': {'workloads': ['burst:10,100', 'periodic:20,50,80', 'ramp', 'tbench:1', 'forkexec'],
              'reps': 3, 'seconds': 3, 'loops': 30, 'cpu_ops': 100, 'forkexec': 60,
              'bursts': 40},
    # --full: a seed-size matrix (sweeps to 2x the CPUs, 5 repetitions).
    'full': {'workloads': ['tbench:1,2,4,8', 'dbench:1,2,4', 'hackbench:1,2,4,8', 'cpu:1,2,4',
                           'forkexec'],
             'reps': 5, 'seconds': 10, 'loops': 100, 'cpu_ops': 300, 'forkexec': 300,
             'bursts': 100},
}


def build_parser():
    ap = argparse.ArgumentParser(
        prog='tools/compare/compare',
        description='Run configurations x workloads x repetitions and print the '
                    'seeds\' tables (PERFORMANCE and PERFORMANCE-PER-WATT RATIOS, '
                    'Hmean/Amean with CoeffVar, POWER CONSUMPTION).')
    ap.add_argument('-c', '--config', action='append', metavar='SPEC',
                    help='GOVERNOR[:FREQ_MAX_POLICY][,TUNABLE=VALUE...] or '
                         'intel_pstate/{performance,powersave}; repeat (default: the ten)')
    ap.add_argument('-b', '--baseline', default=None, help='baseline configuration '
                    '(default ondemand, else the first)')
    ap.add_argument('-w', '--workload', action='append', metavar='KIND[:N,...]',
                    help='tbench:CLIENTS,.. dbench:CLIENTS,.. hackbench:GROUPS,.. '
                         'cpu:WORKERS,.. forkexec burst:GAP_MS,.. periodic:DUTY_PCT,.. '
                         'ramp pingpong; repeat')
    ap.add_argument('--cmd', action='append', nargs=2, metavar=('NAME', 'COMMAND'),
                    default=[], help='a user command as a workload (figure: elapsed s)')
    ap.add_argument('--cmd-figure', action='append', nargs=3, default=[],
                    metavar=('NAME', 'REGEX', 'higher|lower'),
                    help='the figure of --cmd NAME: the last match of REGEX\'s group')
    ap.add_argument('-r', '--reps', type=int, help='repetitions')
    ap.add_argument('--seed', type=int, help='shuffle seed (default: from the clock, printed)')
    ap.add_argument('--seconds', type=int, help='tbench/dbench run time (s)')
    ap.add_argument('--loops', type=int, help='hackbench loops')
    ap.add_argument('--cpu-ops', type=int, help='stress-ng --cpu-ops per run')
    ap.add_argument('--forkexec', type=int, help='forkexec chain length')
    ap.add_argument('--bursts', type=int, help='burst: bursts per run')
    ap.add_argument('--settle', type=float, default=1.0, help='pause before each run (s)')
    ap.add_argument('--full', action='store_true', help='the seed-size matrix')
    ap.add_argument('--guest', metavar='PRESET', help='run in the QEMU guest on a vcpufreq '
                    'preset: ' + ', '.join(PRESETS))
    ap.add_argument('--no-boost', dest='boost', action='store_false',
                    help='guest: emulate no boost above P0')
    ap.add_argument('--icount', dest='icount', action='store_true', default=None,
                    help='guest: instruction counting (the default with 1 vCPU)')
    ap.add_argument('--no-icount', dest='icount', action='store_false',
                    help='guest: no instruction counting, one host thread per vCPU '
                         '(MTTCG; the default with several vCPUs)')
    ap.add_argument('--smp', type=int, default=1,
                    help='guest vCPUs (default 1; with more the guest runs without '
                         'instruction counting: see Documentation/bench.rst)')
    ap.add_argument('--timeout', type=int, help='guest time limit (s; default 20 s a run, '
                    'at least 2400: a loaded host slows the guest several times)')
    ap.add_argument('--no-energy', action='store_true',
                    help='no powercap zone: no power tables')
    ap.add_argument('-o', '--out', help='output directory (default build/compare/DATE)')
    ap.add_argument('--report', metavar='DIR', help='re-render DIR without running')
    ap.add_argument('--dry-run', action='store_true', help='print the plan, run nothing')
    ap.add_argument('--diff', nargs=2, metavar=('DIR1', 'DIR2'),
                    help='repeatability: how far two runs\' ratios lie apart')
    return ap


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        if args.report:
            return report(args.report)
        if args.diff:
            return diff(*args.diff)
        return run(args)
    except BadInput as e:
        print(f'compare: {e}', file=sys.stderr)
        return 2


def report(outdir):
    meta, results = load(outdir)
    sys.stdout.write(write_outputs(outdir, meta, results))
    return 0


def load(outdir):
    """(meta, results) of an output directory, from results.jsonl."""
    pj = os.path.join(outdir, 'plan.json')
    if not os.path.exists(pj):
        raise BadInput(f'{outdir}: no plan.json (not a tools/compare output directory)')
    with open(pj) as f:
        meta = json.load(f)
    results = {}
    jl = os.path.join(outdir, 'results.jsonl')
    if os.path.exists(jl):
        with open(jl) as f:
            for ln in f:
                try:
                    r = json.loads(ln)
                except json.JSONDecodeError:
                    continue   # a line cut by an interrupt
                results[r['id']] = r
    return meta, sorted(results.values(), key=lambda r: r['id'])


def diff(dir1, dir2):
    """Per benchmark and configuration, the two runs' performance and
    performance-per-watt ratios and their relative difference; the
    largest last.  Exit 0 (it measures, it does not judge)."""
    tabs = []
    for d in (dir1, dir2):
        meta, results = load(d)
        ws = [Workload.from_json(w) for w in meta['workloads']]
        tabs.append((meta, ws, ratios(results, ws, meta['configs'], meta['baseline'])))
    (m1, ws, r1), (_, _, r2) = tabs
    worst = {'perf': 0.0, 'perf/W': 0.0}
    print(f'{"benchmark":<12}{"config":<28}{"perf 1":>8}{"perf 2":>8}{"diff":>8}'
          f'{"p/W 1":>8}{"p/W 2":>8}{"diff":>8}')
    for w in ws:
        for c in m1['configs']:
            if c == m1['baseline'] or (w.name, c) not in r2:
                continue
            a, b = r1[(w.name, c)], r2[(w.name, c)]
            row = f'{w.name:<12}{c:<28}'
            for i, k in ((0, 'perf'), (2, 'perf/W')):
                if a[i] and b[i]:
                    d = abs(b[i] / a[i] - 1) * 100
                    worst[k] = max(worst[k], d)
                    row += f'{a[i]:8.3f}{b[i]:8.3f}{d:7.2f}%'
                else:
                    row += f'{"-":>8}{"-":>8}{"-":>8}'
            print(row)
    print(f'largest difference: performance ratios {worst["perf"]:.2f} %, '
          f'performance-per-watt ratios {worst["perf/W"]:.2f} %')
    return 0


def run(args):
    mode = DEFAULTS['full' if args.full else 'quick']
    lengths = {k: getattr(args, k) or mode[k]
               for k in ('seconds', 'loops', 'cpu_ops', 'forkexec', 'bursts')}
    reps = args.reps or mode['reps']
    if reps < 1 or any(v < 1 for v in lengths.values()):
        raise BadInput('repetitions and run lengths are positive')
    specs = args.config or DEFAULT_CONFIGS
    if len(set(specs)) != len(specs):
        raise BadInput('a configuration is given twice')
    configs = [Config(s) for s in specs]
    baseline = args.baseline or ('ondemand' if 'ondemand' in specs else specs[0])
    if baseline not in specs:
        raise BadInput(f'baseline {baseline} is not one of the configurations')
    wspecs = args.workload if args.workload is not None else ([] if args.cmd else mode['workloads'])
    workloads = [parse_workload(s, lengths) for s in wspecs]
    figs = {n: (rx, d) for n, rx, d in args.cmd_figure}
    for n in figs:
        if n not in [c[0] for c in args.cmd]:
            raise BadInput(f'--cmd-figure {n}: no --cmd {n}')
    workloads += [parse_cmd(n, c, figs.get(n)) for n, c in args.cmd]
    if not workloads:
        raise BadInput('no workload')
    if len({w.name for w in workloads}) != len(workloads):
        raise BadInput('a workload is given twice: sweep with KIND:N,N instead')
    if args.guest and args.guest not in PRESETS:
        raise BadInput(f'--guest {args.guest}: unknown preset (known: {" ".join(PRESETS)})')
    if args.guest:
        gov_pstate = [c.spec for c in configs if c.governor in PSTATE_GOVERNORS]
        if gov_pstate:
            raise BadInput(f'configuration {gov_pstate[0]}: the guest has no intel_pstate')
        if args.smp < 1:
            raise BadInput('--smp is at least 1')
        if args.smp < 2 and any(w.kind == 'pingpong' for w in workloads):
            raise BadInput('workload pingpong needs two CPUs: --smp 2')
    elif not args.dry_run:
        if os.geteuid() != 0 and not os.environ.get('COMPARE_SYSFS'):
            raise BadInput('on a real machine run as root (it switches governors); '
                           'or --guest PRESET')
        host_checks(configs, workloads, not args.no_energy,
                    os.environ.get('COMPARE_SYSFS', '/sys'))
    if args.icount is None:
        args.icount = args.smp == 1
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    plan = make_plan(configs, workloads, reps, seed)
    where = f'guest {args.guest}, boost {"on" if args.boost else "off"}, ' \
        f'{args.smp} vCPUs{", icount" if args.icount else ""}' if args.guest else \
        f'host {os.uname().nodename} {os.uname().release}'
    meta = {'configs': specs, 'baseline': baseline, 'workloads': [w.to_json() for w in workloads],
            'reps': reps, 'seed': seed, 'lengths': lengths, 'machine': where,
            'command': ' '.join(shlex.quote(a) for a in sys.argv),
            'commit': commit_id(), 'started': time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime()),
            'plan': plan}
    print(f'compare: {len(plan)} runs ({len(configs)} configurations x '
          f'{sum(len(w.ops) for w in workloads)} workload points x {reps} repetitions), '
          f'seed {seed}, {where}', flush=True)
    if args.dry_run:
        for r in plan:
            print(plan_line(r))
        return 0
    outdir = args.out or os.path.join(os.environ.get('BUILD_DIR', os.path.join(TOP, 'build')),
                                      'compare', time.strftime('%Y%m%d-%H%M%S'))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'plan.json'), 'w') as f:
        json.dump(meta, f, indent=1)
    rec = Recorder(outdir, meta)
    rc = 0
    try:
        if args.guest:
            args.name = 'compare-' + os.path.basename(outdir.rstrip('/'))
            rc = run_guest(rec, meta, plan, args)
            with open(os.path.join(outdir, 'plan.json'), 'w') as f:
                json.dump(meta, f, indent=1)
        else:
            host_prepare(configs)
            run_host(rec, plan, args.settle)
    except KeyboardInterrupt:
        print(f'compare: interrupted; kept {len(rec.results)} runs in {outdir}', flush=True)
        rc = 130
    sys.stdout.write(write_outputs(outdir, meta, rec.results))
    print(f'compare: results in {outdir} (re-render: tools/compare/compare --report {outdir})')
    if rc == 0 and len(rec.results) < len(plan):
        print(f'compare: only {len(rec.results)} of {len(plan)} runs reported', flush=True)
        rc = 1
    return rc

