# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: the records it works on and how they are read.

Configurations (GOVERNOR[:FREQ_MAX][,TUNABLE=VALUE...]), workloads and
their swept points, planned runs and measured runs as small typed records,
with their JSON forms (plan.json, results.jsonl) and the parsing of
run-one.sh's COMPARE_* lines and of each workload's figure of merit.
"""

import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from compare_stats import energy_accumulated_uj, energy_delta_uj

# The ten configurations of make compare, in the column order of the
# ratio tables in Linux commit 976df7e5730e's message.
DEFAULT_CONFIGS = (
    'ondemand', 'performance', 'powersave', 'conservative', 'schedutil',
    'sugov_inv:noinv', 'sugov_inv:max_boost', 'sugov_inv:midpoint',
    'sugov_inv:max_P', 'sugov_inv:overutil-detect',
)
# Column names as in that message (sugov-P0 is freq_max = max_P, ...).
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
FREQ_MAX_CHOICES = ('max_P', 'midpoint', 'max_boost', 'overutil-detect', 'noinv')
SUGOV_INV_TUNABLES = ('rate_limit_us',
                      'overutil_threshold_pct',
                      'idle_restore_us',
                      'chain_window_us')


class BadInput(Exception):
    """Input refused before anything runs: one line, exit status 2."""


@dataclass(frozen=True)
class Config:
    """One configuration: a governor, sugov_inv's freq_max choice and
    tunables, or intel_pstate's active mode."""
    spec: str
    governor: str
    freq_max: str
    tunables: tuple[tuple[str, str], ...]
    name: str

    @classmethod
    def parse(cls, spec: str) -> 'Config':
        """GOVERNOR[:FREQ_MAX][,TUNABLE=VALUE...] or intel_pstate/GOV;
        raises BadInput."""
        head, _, rest = spec.partition(',')
        governor, _, freq_max = head.partition(':')
        tunables = []
        for tv in filter(None, rest.split(',')):
            name, eq, value = tv.partition('=')
            if not eq or not name or not value:
                raise BadInput(f'configuration {spec}: tunable "{tv}" is not NAME=VALUE')
            tunables.append((name, value))
        if governor in PSTATE_GOVERNORS:
            if freq_max or tunables:
                raise BadInput(f'configuration {spec}: intel_pstate\'s active mode has no tunables here')
        elif governor not in GOVERNORS:
            raise BadInput(f'configuration {spec}: unknown governor "{governor}" '
                           f'(known: {" ".join(GOVERNORS + PSTATE_GOVERNORS)})')
        if freq_max and governor != 'sugov_inv':
            raise BadInput(f'configuration {spec}: only sugov_inv has a freq_max choice')
        if freq_max and freq_max not in FREQ_MAX_CHOICES:
            raise BadInput(f'configuration {spec}: unknown freq_max choice "{freq_max}" '
                           f'(known: {" ".join(FREQ_MAX_CHOICES)})')
        if governor == 'sugov_inv':
            for name, _ in tunables:
                if name not in SUGOV_INV_TUNABLES:
                    hint = ('; the freq_max choice is given as sugov_inv:CHOICE'
                            if name == 'freq_max_policy' else '')
                    raise BadInput(f'configuration {spec}: sugov_inv has no tunable "{name}" '
                                   f'(known: {" ".join(SUGOV_INV_TUNABLES)}{hint})')
        return cls(spec, governor, freq_max, tuple(tunables),
                   SHORT_NAMES.get(spec, spec.replace('sugov_inv:', 'sugov-')))


@dataclass(frozen=True)
class Lengths:
    """Run lengths: tbench/dbench seconds, hackbench loops, stress-ng
    --cpu-ops, forkexec chain length, burst count."""
    seconds: int
    loops: int
    cpu_ops: int
    forkexec: int
    bursts: int

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> 'Lengths':
        return cls(d.get('seconds', 1), d.get('loops', 1), d.get('cpu_ops', 1),
                   d.get('forkexec', 1), d.get('bursts', 1))


@dataclass(frozen=True)
class Kind:
    """What a workload kind measures.  work says what one unit of work is,
    for the energy per unit of work: 'run' (each run does a fixed amount:
    the run's energy), 'rate' (the figure is work per second: energy over
    figure x elapsed) or 'latency' (the figure is a time per operation:
    power x figure)."""
    title: str
    param: str
    unit: str
    higher: bool
    work: str
    programs: tuple[str, ...]
    size: Optional[str]          # the Lengths field that sizes a run
    default_sweep: tuple[int, ...]


KINDS = {
    'tbench': Kind('tbench4 (dbench4 over loopback)', 'number of clients', 'MB/sec',
                   True, 'rate', ('tbench', 'tbench_srv'), 'seconds', (1,)),
    'dbench': Kind('dbench (average latency of its operations)', 'number of clients', 'ms',
                   False, 'latency', ('dbench',), 'seconds', (1,)),
    'hackbench': Kind('hackbench (sockets, process groups)', 'number of groups', 'seconds',
                      False, 'run', ('hackbench',), 'loops', (1,)),
    'cpu': Kind('cpubound (fixed stress-ng --cpu-ops, kernbench-like)', 'number of workers',
                'seconds', False, 'run', ('stress-ng',), 'cpu_ops', (1,)),
    'forkexec': Kind('forkexec (chain of short shells, gitsource-like)', 'none', 'seconds',
                     False, 'run', ('sh', 'sed', 'grep'), 'forkexec', ()),
    'burst': Kind('burst (fixed shell loops after idle gaps; busy time = elapsed - gaps)',
                  'idle gap (ms)', 'seconds', False, 'run', ('sh', 'awk'), 'bursts', (50,)),
    # rt-app's profiles (tools/compare/rt-app/): a fixed number of
    # periods or rounds per run, so the run's energy is per unit of work.
    'periodic': Kind('periodic (rt-app: fixed work every 16 ms; busy time per activation)',
                     'duty cycle at the top frequency (%)', 'ms', False, 'run', ('rt-app',),
                     None, (20, 50, 80)),
    'ramp': Kind('ramp (rt-app: 16 ms period, duty 10 % to 90 %; busy time per activation)',
                 'none', 'ms', False, 'run', ('rt-app',), None, ()),
    'pingpong': Kind('pingpong (rt-app: two tasks on CPUs 0 and 1 hand a token on; round trip)',
                     'none', 'ms', False, 'run', ('rt-app',), None, ()),
    'ring': Kind('ring (rt-app: three tasks on three CPUs pass a token round; round trip)',
                 'rings, three CPUs each', 'ms', False, 'run', ('rt-app',), None, (1,)),
}
RTAPP_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rt-app')


@dataclass(frozen=True)
class Op:
    """One point of a workload's sweep: its label (the swept value, or ''
    for none) and run-one.sh's arguments."""
    label: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Workload:
    """One benchmark: a kind, its swept points and how to read it."""
    kind: str
    name: str
    ops: tuple[Op, ...]
    title: str
    param: str
    unit: str
    higher: bool
    work: str
    pattern: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        return {'kind': self.kind, 'name': self.name,
                'ops': [[o.label, list(o.args)] for o in self.ops],
                'title': self.title, 'param': self.param, 'unit': self.unit,
                'higher': self.higher, 'work': self.work, 'pattern': self.pattern}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> 'Workload':
        # Directories written before 'work' existed: the kind's, and a
        # user command's from its direction.
        kind = KINDS.get(d['kind'])
        work = d.get('work') or (kind.work if kind else
                                 'rate' if d['higher'] else 'latency' if d.get('pattern') else 'run')
        return cls(d['kind'], d['name'], tuple(Op(o[0], tuple(o[1])) for o in d['ops']),
                   d['title'], d['param'], d['unit'], d['higher'], work, d.get('pattern'))


def parse_workload(spec: str, lengths: Lengths) -> Workload:
    """KIND[:N,N...], N the swept parameter; raises BadInput."""
    name, _, sweep = spec.partition(':')
    kind = KINDS.get(name)
    if kind is None:
        raise BadInput(f'workload {spec}: unknown (known: {" ".join(KINDS)}, or --cmd)')
    counts: list[int] = []
    if sweep:
        if not kind.default_sweep:
            raise BadInput(f'workload {spec}: {name} has no parameter to sweep')
        for c in sweep.split(','):
            if not c.isdigit() or int(c) < 1:
                raise BadInput(f'workload {spec}: "{c}" is not a positive count')
            counts.append(int(c))
    else:
        counts = list(kind.default_sweep)
    if name == 'ring':
        for c in counts:
            if not os.path.exists(os.path.join(RTAPP_DIR, f'ring-{c}.json')):
                raise BadInput(f'workload {spec}: no rt-app profile for {c} rings (have: 1,2)')
    if name == 'periodic':
        for c in counts:
            if not os.path.exists(os.path.join(RTAPP_DIR, f'periodic-{c}.json')):
                have = sorted(int(f[9:-5]) for f in os.listdir(RTAPP_DIR)
                              if re.fullmatch(r'periodic-\d+\.json', f))
                raise BadInput(f'workload {spec}: no rt-app profile for a {c} % duty cycle '
                               f'(have: {",".join(map(str, have))})')
    # The rt-app kinds have no size: their profile sets the run's length.
    size = (str(getattr(lengths, kind.size)),) if kind.size else ()
    if counts:
        ops = tuple(Op(str(c), (str(c),) + size) for c in counts)
    else:
        ops = (Op('', size),)
    return Workload(name, name, ops, kind.title, kind.param, kind.unit, kind.higher, kind.work)


def parse_cmd(name: str, command: str, figure: Optional[tuple[str, str]]) -> Workload:
    """A user command: figure None = its elapsed time (lower is better),
    else (REGEX with one group, 'higher'|'lower'); raises BadInput."""
    if not re.fullmatch(r'[A-Za-z0-9_.-]+', name):
        raise BadInput(f'--cmd {name}: a name is letters, digits, _ . -')
    pattern, higher, unit, work = None, False, 'seconds', 'run'
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
        work = 'rate' if higher else 'latency'
    return Workload('cmd', name, (Op('', (command,)),), f'{name} (user command)', 'none',
                    unit, higher, work, pattern)


def _last_float(pattern: str, text: str, flags: int = 0) -> Optional[float]:
    m = re.findall(pattern, text, flags)
    try:
        return float(m[-1]) if m else None
    except ValueError:
        return None


def extract_figure(workload: Workload, lines: Sequence[str],
                   elapsed_s: Optional[float]) -> Optional[float]:
    """The run's figure of merit from its output lines, or None."""
    text = '\n'.join(lines)
    if workload.kind == 'tbench':
        return _last_float(r'Throughput\s+([0-9.]+)\s+MB/sec', text)
    if workload.kind == 'dbench':
        # Count-weighted mean of the per-operation average latencies.
        rows = re.findall(r'^\s*([A-Za-z]+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s*$', text, re.M)
        n = sum(int(r[1]) for r in rows)
        if n:
            return sum(int(r[1]) * float(r[2]) for r in rows) / n
        return _last_float(r'max_latency=([0-9.]+) ms', text)
    if workload.kind == 'hackbench':
        return _last_float(r'^Time:\s*([0-9.]+)', text, re.M)
    if workload.kind == 'burst':
        # The gaps are sleeps every configuration spends alike: the
        # figure is the time the bursts themselves took.
        m = re.findall(r'^burst (\d+) x gap (\d+) ms done', text, re.M)
        if not m or elapsed_s is None:
            return None
        return elapsed_s - int(m[-1][0]) * int(m[-1][1]) / 1000.0
    if workload.kind in ('periodic', 'ramp', 'pingpong', 'ring'):
        # run-one.sh's summary of rt-app's logs: the busy time per
        # activation of the one task, or ping's or ring0_0's round trip.
        if not re.search(r'^rtapp \S+ done', text, re.M):
            return None
        tasks = {t: (float(b), float(p)) for t, b, p in re.findall(
            r'^rtapp task (\S+) loops \d+ busy_ms ([0-9.]+) period_ms ([0-9.]+)', text, re.M)}
        if workload.kind == 'pingpong':
            return tasks['ping'][1] if 'ping' in tasks else None
        if workload.kind == 'ring':
            return tasks['ring0_0'][1] if 'ring0_0' in tasks else None
        return next(iter(tasks.values()))[0] if len(tasks) == 1 else None
    if workload.kind == 'cmd' and workload.pattern:
        return _last_float(workload.pattern, text)
    return elapsed_s


@dataclass(frozen=True)
class PlannedRun:
    """One entry of the plan: configuration x workload point x repetition."""
    id: int
    rep: int
    config: str
    workload: str
    op: str
    op_index: int
    kind: str
    args: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {'id': self.id, 'rep': self.rep, 'config': self.config,
                'workload': self.workload, 'op': self.op, 'op_index': self.op_index,
                'kind': self.kind, 'args': list(self.args)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> 'PlannedRun':
        return cls(d['id'], d['rep'], d['config'], d['workload'], d['op'],
                   d.get('op_index', 0), d.get('kind', ''), tuple(d.get('args', ())))


@dataclass
class RawRun:
    """run-one.sh's lines of one run: the output's tail, the frequency
    samples and the COMPARE_RESULT fields."""
    out: list[str] = field(default_factory=list)
    freq: list[tuple[int, int]] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)

    def merge(self, other: 'RawRun') -> None:
        self.out += other.out
        self.freq += other.freq
        self.fields.update(other.fields)


_LINE = re.compile(r'^(COMPARE_OUT|COMPARE_FREQ|COMPARE_RESULT) (\d+) ?(.*)$')


def parse_lines(lines: Sequence[str]) -> dict[int, RawRun]:
    """COMPARE_* lines -> {run id: RawRun}; other lines are ignored."""
    res: dict[int, RawRun] = {}
    for raw in lines:
        m = _LINE.match(raw.rstrip('\r\n'))
        if not m:
            continue
        tag, rest = m.group(1), m.group(3)
        r = res.setdefault(int(m.group(2)), RawRun())
        if tag == 'COMPARE_OUT':
            r.out.append(rest)
        elif tag == 'COMPARE_FREQ':
            for p in filter(None, rest.split(',')):
                t, _, f = p.partition(':')
                if t.isdigit() and f.isdigit():
                    r.freq.append((int(t), int(f)))
        else:
            for kv in rest.split():
                k, _, v = kv.partition('=')
                r.fields[k] = v
    return res


@dataclass
class RunResult:
    """One measured run as stored in results.jsonl."""
    run: PlannedRun
    status: str
    rc: Optional[int] = None
    elapsed_s: Optional[float] = None
    energy_j: Optional[float] = None
    figure: Optional[float] = None
    time_in_state_ms: dict[str, int] = field(default_factory=dict)
    freq_samples: list[tuple[int, int]] = field(default_factory=list)
    tunables: dict[str, str] = field(default_factory=dict)
    turbostat: dict[str, float] = field(default_factory=dict)
    output_tail: list[str] = field(default_factory=list)
    note: str = ''
    energy_skipped: list[str] = field(default_factory=list)

    @property
    def power_w(self) -> Optional[float]:
        """Average power of the run (W)."""
        if self.energy_j is None or not self.elapsed_s:
            return None
        return self.energy_j / self.elapsed_s

    @property
    def ok(self) -> bool:
        return self.status == 'ok' and self.figure is not None

    def to_json(self) -> dict[str, Any]:
        d = self.run.to_json()
        d.update({'status': self.status, 'rc': self.rc, 'elapsed_s': self.elapsed_s,
                  'energy_j': self.energy_j, 'power_w': self.power_w, 'figure': self.figure,
                  'time_in_state_ms': self.time_in_state_ms,
                  'freq_samples': [list(s) for s in self.freq_samples],
                  'tunables': self.tunables, 'turbostat': self.turbostat,
                  'output_tail': self.output_tail, 'note': self.note,
                  'energy_skipped': self.energy_skipped})
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> 'RunResult':
        rc = d.get('rc')
        return cls(PlannedRun.from_json(d), d.get('status', 'missing'),
                   int(rc) if rc is not None and str(rc).lstrip('-').isdigit() else None,
                   d.get('elapsed_s'), d.get('energy_j'), d.get('figure'),
                   dict(d.get('time_in_state_ms') or {}),
                   [(int(t), int(f)) for t, f in d.get('freq_samples') or []],
                   dict(d.get('tunables') or {}), dict(d.get('turbostat') or {}),
                   list(d.get('output_tail') or []), d.get('note', ''),
                   list(d.get('energy_skipped') or []))


def _field(fields: dict[str, str], key: str) -> str:
    """A COMPARE_RESULT field; run-one.sh prints '-' for an empty one."""
    v = fields.get(key, '')
    return '' if v == '-' else v


def parse_energy(fields: dict[str, str]) -> Optional[float]:
    """The run's energy (J) over every zone run-one.sh read: from
    energy_reads (every read in time order, the last one after the
    poller stopped; the stretch after the run's end, energy's AFTER, is
    taken off) or else energy's BEFORE:AFTER alone.  None when absent or
    malformed."""
    spec = _field(fields, 'energy')
    if not spec:
        return None
    reads: dict[str, list[int]] = {}
    for z in filter(None, _field(fields, 'energy_reads').split(';')):
        name, _, vals = z.partition('=')
        if not all(v.isdigit() for v in vals.split(':')):
            return None
        reads[name] = [int(v) for v in vals.split(':')]
    total = 0
    for z in spec.split(';'):
        name, _, vals = z.partition('=')
        parts = vals.split(':')
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            return None
        before, after, max_uj = (int(p) for p in parts)
        series = reads.get(name)
        if series and len(series) >= 2 and series[0] == before:
            total += energy_accumulated_uj(series, max_uj) - \
                energy_delta_uj(after, series[-1], max_uj)
        else:
            total += energy_delta_uj(before, after, max_uj)
    return total / 1e6


def parse_turbostat(spec: str) -> dict[str, float]:
    """turbostat=COL:VALUE,... -> {column: value} (numbers only)."""
    out: dict[str, float] = {}
    for kv in filter(None, spec.split(',')):
        k, _, v = kv.rpartition(':')
        try:
            out[k] = float(v)
        except ValueError:
            continue
    return out


def finish_result(run: PlannedRun, raw: RawRun, workload: Workload) -> RunResult:
    """A planned run and its parsed lines -> the stored result record."""
    f = raw.fields
    elapsed = int(f['elapsed_ns']) / 1e9 if f.get('elapsed_ns', '').isdigit() else None
    rc = f.get('rc', '')
    rec = RunResult(run, f.get('status', 'missing'),
                    int(rc) if rc.lstrip('-').isdigit() else None, elapsed, parse_energy(f))
    for p in filter(None, _field(f, 'tis').split(',')):
        k, _, t = p.partition(':')
        if k.isdigit() and t.isdigit():
            rec.time_in_state_ms[k] = int(t) * 10
    rec.freq_samples = list(raw.freq)
    for kv in filter(None, _field(f, 'tunables').split(',')):
        k, _, v = kv.partition('=')
        rec.tunables[k] = v
    rec.turbostat = parse_turbostat(_field(f, 'turbostat'))
    rec.energy_skipped = [z for z in _field(f, 'energy_skipped').split(',') if z]
    if f.get('timeout_s'):
        rec.note = f'time limit {f["timeout_s"]} s'
    if rec.status == 'ok':
        rec.figure = extract_figure(workload, raw.out, elapsed)
        if rec.figure is None:
            rec.status = 'no-figure'
    rec.output_tail = raw.out[-8:]
    return rec


def energy_per_work(r: RunResult, workload: Workload) -> Optional[float]:
    """Energy per unit of the workload's work (see Kind.work), or None
    without energy or figure."""
    if r.energy_j is None or r.figure is None or not r.elapsed_s or r.figure <= 0:
        return None
    if workload.work == 'rate':
        return r.energy_j / (r.figure * r.elapsed_s)
    if workload.work == 'latency':
        return r.energy_j / r.elapsed_s * r.figure
    return r.energy_j


@dataclass
class Meta:
    """plan.json: what was asked, where, and the plan.  extra keeps what
    this version does not interpret (the guest's boot line, the machine
    state found, calibrations...)."""
    configs: list[str]
    baseline: str
    workloads: list[Workload]
    reps: int
    seed: int
    plan: list[PlannedRun]
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        d = dict(self.extra)
        d.update({'configs': self.configs, 'baseline': self.baseline,
                  'workloads': [w.to_json() for w in self.workloads], 'reps': self.reps,
                  'seed': self.seed, 'plan': [p.to_json() for p in self.plan]})
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> 'Meta':
        known = ('configs', 'baseline', 'workloads', 'reps', 'seed', 'plan')
        return cls(list(d['configs']), d['baseline'],
                   [Workload.from_json(w) for w in d['workloads']], d.get('reps', 0),
                   d.get('seed', 0), [PlannedRun.from_json(p) for p in d.get('plan', [])],
                   {k: v for k, v in d.items() if k not in known})

    def workload(self, name: str) -> Workload:
        return next(w for w in self.workloads if w.name == name)
