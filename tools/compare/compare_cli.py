# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: the command line (run, report, diff, plan).

    tools/compare/compare run [options]      run a plan, print the tables
    tools/compare/compare plan [options]     print the plan, run nothing
    tools/compare/compare report DIR         re-render DIR's tables
    tools/compare/compare diff DIR1 DIR2     two runs' ratios side by side

Without a subcommand the options of run are taken as before the
subcommands existed, with --report DIR, --diff DIR1 DIR2 and --dry-run
selecting report, diff and plan.  Bad input is refused before anything
runs with one line and exit status 2.
"""

import argparse
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import compare_host as host
import compare_runner as runner
from compare_model import (DEFAULT_CONFIGS, KINDS, PSTATE_GOVERNORS, BadInput, Config,
                           Lengths, Meta, PlannedRun, RunResult, Workload, parse_cmd,
                           parse_workload)
from compare_plan import MATRICES, make_plan, plan_line, resize, scaled_size
from compare_report import compare, diff, load, render

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
# vcpufreq presets the guest can emulate; --cppc takes the ACPI CPPC
# presets of tools/vm/cppc/presets, each naming its vcpufreq preset.
PRESETS = ('epyc-7742', 'xeon-e5-2687w-v3', 'epyc-7702', 'ryzen-7840hs')
CPPC_PRESETS = os.path.join(TOP, 'tools/vm/cppc/presets')
CPPC_PAGE = '0x20000000'    # tools/vm/run's register page (memmap=)
# Debian 12's stock kernels, which tools/vm/run --kernel-version boots.
KERNEL_SERIES = ('6.1', '6.12')
SUBCOMMANDS = ('run', 'report', 'diff', 'plan')


def out(line: str) -> None:
    print(line, flush=True)


def add_run_opts(ap: argparse.ArgumentParser) -> None:
    """The options of run and plan."""
    ap.add_argument('-c', '--config', action='append', metavar='SPEC',
                    help='GOVERNOR[:FREQ_MAX][,TUNABLE=VALUE...] or '
                         'intel_pstate/{performance,powersave}; repeat (default: the ten)')
    ap.add_argument('-b', '--baseline', default=None, help='baseline configuration '
                    '(default ondemand, else the first)')
    ap.add_argument('-w', '--workload', action='append', metavar='KIND[:N,...]',
                    help='tbench:CLIENTS,.. dbench:CLIENTS,.. hackbench:GROUPS,.. '
                         'cpu:WORKERS,.. forkexec burst:GAP_MS,.. periodic:DUTY_PCT,.. '
                         'ramp pingpong ring:RINGS,..; repeat')
    ap.add_argument('--cmd', action='append', nargs=2, metavar=('NAME', 'COMMAND'),
                    default=[], help='a shell command as a workload (figure: elapsed s); '
                    'on a real machine it runs as root, like every workload')
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
    ap.add_argument('--duration', type=float, metavar='S',
                    help='real machine: size every run to take about S seconds (a probe '
                         'run per workload under the baseline; default 10, --full 30); '
                         'the guest uses fixed sizes tuned for TCG')
    ap.add_argument('--settle', type=float, default=1.0, help='pause before each run (s)')
    ap.add_argument('--run-timeout', type=int, default=600, metavar='S',
                    help='a run\'s workload gets S seconds, then it is stopped and '
                         'recorded as failed and the plan goes on (0: no limit)')
    ap.add_argument('--freq-sample', type=float, metavar='S',
                    help='sample scaling_cur_freq every S seconds (0: never; default 0.2, '
                         'never for burst, whose idle gaps it would fill, nor in a '
                         'guest of several vCPUs under instruction counting)')
    ap.add_argument('--energy-poll', type=float, default=10.0, metavar='S',
                    help='read the energy counters every S seconds during a run, so that '
                         'every wrap is counted (default 10)')
    ap.add_argument('--full', action='store_true',
                    help='the larger matrix (sweeps to 8, 5 repetitions)')
    ap.add_argument('--guest', metavar='PRESET', help='run in the QEMU guest on a vcpufreq '
                    'preset: ' + ', '.join(PRESETS))
    ap.add_argument('--cppc', metavar='PRESET',
                    help='guest: give it ACPI CPPC (tools/vm/run --cppc PRESET, e.g. '
                         'epyc-7702) whose feedback counters the emulation advances, so '
                         'freq_invariance sees the boost; implies --guest with the '
                         'preset\'s vcpufreq preset')
    ap.add_argument('--kernel-version', metavar='SERIES',
                    help='guest: boot Debian 12\'s stock kernel of that series, '
                         f'{" or ".join(KERNEL_SERIES)} (tools/vm/run --kernel-version; '
                         'default its own, 6.1)')
    ap.add_argument('--no-boost', dest='boost', action='store_false',
                    help='guest: emulate no boost above P0')
    ap.add_argument('--icount', dest='icount', action='store_true', default=None,
                    help='guest: instruction counting (the default with 1 vCPU)')
    ap.add_argument('--no-icount', dest='icount', action='store_false',
                    help='guest: no instruction counting, one host thread per vCPU '
                         '(MTTCG; the default with several vCPUs)')
    ap.add_argument('--pin-vcpus', action='store_true',
                    help='guest without instruction counting: pin vCPU i\'s host thread '
                         'to host CPU i (tools/vm/run --pin-vcpus)')
    ap.add_argument('--skip-idle', action='store_true',
                    help='accepted for recorded commands: one vCPU under instruction '
                         'counting always skips idle time now (sleep=off)')
    ap.add_argument('--smp', type=int, default=1,
                    help='guest vCPUs (default 1; with more the guest runs without '
                         'instruction counting: see Documentation/bench.rst)')
    ap.add_argument('--timeout', type=int, help='guest time limit (s; default 20 s a run, '
                    'at least 2400: a loaded host slows the guest several times)')
    ap.add_argument('--guest-setup', metavar='CMD',
                    help='guest: a shell command run after the modules are loaded and '
                         'before the plan (a governor and tunables to start from)')
    ap.add_argument('--no-energy', action='store_true',
                    help='no powercap zone: no power tables')
    ap.add_argument('--energy-scope', choices=('slice', 'package'), default='slice',
                    help='guest: the energy of a slice of the package (default) or of '
                         'the whole package, its other cores idle (vcpufreq energy_scope=)')
    ap.add_argument('--package-cores', type=int, default=0, metavar='N',
                    help='guest, --energy-scope package: the package\'s cores (default: '
                         'the preset\'s; 128: two EPYC 7742 sockets)')
    ap.add_argument('--trace', action='store_true',
                    help='real machine: keep every run\'s whole output and a trace-cmd '
                         'record (cpu_frequency, sched_switch, sugov_inv_decision) in '
                         'DIR/raw/')
    ap.add_argument('--no-turbostat', dest='turbostat', action='store_false',
                    help='real machine: do not run the workloads under turbostat (used by '
                         'default where the CPU has APERF/MPERF)')
    ap.add_argument('-o', '--out', help='output directory (default build/compare/DATE)')


def build_parser() -> argparse.ArgumentParser:
    """The parser of the subcommands."""
    ap = argparse.ArgumentParser(
        prog='tools/compare/compare',
        description='Run configurations x workloads x repetitions and print mmtests-style '
                    'ratio tables (PERFORMANCE and PERFORMANCE-PER-WATT RATIOS with 95 % '
                    'intervals, Hmean/Amean with CoeffVar, POWER CONSUMPTION), as in the '
                    'EPYC 7742 tables of Linux commit 976df7e5730e (Giovanni Gherdovich, '
                    '"x86, sched: Use midpoint of max_boost and max_P for frequency '
                    'invariance on AMD EPYC", January 2021).  On a real machine it runs as '
                    'root, and so do the workloads (--cmd too).',
        epilog='Without a subcommand: the options of run, or --report DIR, --diff DIR1 '
               'DIR2, --dry-run (see Documentation/bench.rst).')
    sub = ap.add_subparsers(dest='subcommand', metavar='{run,plan,report,diff}')
    add_run_opts(sub.add_parser('run', help='run the plan and print the tables'))
    add_run_opts(sub.add_parser('plan', help='print the plan, run nothing'))
    rp = sub.add_parser('report', help='re-render a results directory, run nothing')
    rp.add_argument('dir')
    dp = sub.add_parser('diff', help='repeatability: how far two runs\' ratios lie apart')
    dp.add_argument('dir1')
    dp.add_argument('dir2')
    return ap


def build_legacy_parser() -> argparse.ArgumentParser:
    """The options as they were before the subcommands."""
    ap = argparse.ArgumentParser(prog='tools/compare/compare', add_help=False)
    add_run_opts(ap)
    ap.add_argument('--report', metavar='DIR')
    ap.add_argument('--dry-run', action='store_true')
    ap.add_argument('--diff', nargs=2, metavar=('DIR1', 'DIR2'))
    return ap


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Subcommand syntax, or the old flags mapped onto it."""
    if argv and (argv[0] in SUBCOMMANDS or argv[0] in ('-h', '--help')):
        args = build_parser().parse_args(argv)
        if args.subcommand is None:
            build_parser().print_help()
            sys.exit(2)
        return args
    args = build_legacy_parser().parse_args(argv)
    if args.report:
        return argparse.Namespace(subcommand='report', dir=args.report)
    if args.diff:
        return argparse.Namespace(subcommand='diff', dir1=args.diff[0], dir2=args.diff[1])
    args.subcommand = 'plan' if args.dry_run else 'run'
    return args


@dataclass
class Request:
    """A run request with every default resolved and every input checked."""
    configs: list[Config]
    baseline: str
    workloads: list[Workload]
    reps: int
    seed: int
    lengths: Lengths
    calibrate: list[str]          # workloads sized by a probe run
    duration_s: Optional[float]
    guest: Optional[str]


def cppc_vpreset(name: str) -> str:
    """The vcpufreq preset of an ACPI CPPC preset; raises BadInput."""
    with open(CPPC_PRESETS) as f:
        for ln in f:
            cols = ln.split('#', 1)[0].split()
            if len(cols) >= 11 and cols[0] == name:
                return cols[10]
    raise BadInput(f'--cppc {name}: unknown preset (see {os.path.relpath(CPPC_PRESETS, TOP)})')


def resolve(args: argparse.Namespace) -> Request:
    """Check the run options and fill in the defaults; raises BadInput."""
    matrix = MATRICES['full' if args.full else 'quick']
    guest = args.guest
    if args.cppc:
        vp = cppc_vpreset(args.cppc)
        if guest and guest != vp:
            raise BadInput(f'--cppc {args.cppc} emulates vcpufreq preset {vp}, '
                           f'not --guest {guest}')
        guest = vp
    if guest and guest not in PRESETS:
        raise BadInput(f'--guest {guest}: unknown preset (known: {" ".join(PRESETS)})')
    if guest and (args.trace or args.duration is not None):
        raise BadInput('--trace and --duration are for a real machine (the guest\'s sizes '
                       'are tuned for TCG, its files end with it)')
    if not guest and (args.guest_setup or args.smp != 1 or args.kernel_version):
        raise BadInput('--guest-setup, --smp and --kernel-version are for the guest '
                       '(--guest PRESET)')
    if args.kernel_version and args.kernel_version not in KERNEL_SERIES:
        raise BadInput(f'--kernel-version {args.kernel_version}: the guest boots '
                       f'{" or ".join(KERNEL_SERIES)}')
    if args.duration is not None and args.duration <= 0:
        raise BadInput('--duration is a positive number of seconds')
    if args.run_timeout < 0 or args.energy_poll <= 0 or args.settle < 0 or \
            (args.freq_sample is not None and args.freq_sample < 0):
        raise BadInput('--run-timeout, --settle and --freq-sample are >= 0, --energy-poll > 0')
    given = {k: getattr(args, k) for k in ('seconds', 'loops', 'cpu_ops', 'forkexec', 'bursts')}
    duration = None if guest else (args.duration or float(matrix.duration_s))
    if duration is not None and given['seconds'] is None:
        given['seconds'] = max(1, round(duration))
    lengths = Lengths(**{k: v if v is not None else getattr(matrix.lengths, k)
                         for k, v in given.items()})
    reps = args.reps or matrix.reps
    if reps < 1 or any(v < 1 for v in lengths.to_json().values()):
        raise BadInput('repetitions and run lengths are positive')
    specs = args.config or list(DEFAULT_CONFIGS)
    if len(set(specs)) != len(specs):
        raise BadInput('a configuration is given twice')
    configs = [Config.parse(s) for s in specs]
    baseline = args.baseline or ('ondemand' if 'ondemand' in specs else specs[0])
    if baseline not in specs:
        raise BadInput(f'baseline {baseline} is not one of the configurations')
    wspecs = args.workload if args.workload is not None else \
        ([] if args.cmd else list(matrix.workloads))
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
    if guest:
        pst = [c.spec for c in configs if c.governor in PSTATE_GOVERNORS]
        if pst:
            raise BadInput(f'configuration {pst[0]}: the guest has no intel_pstate')
        if args.smp < 1:
            raise BadInput('--smp is at least 1')
        if args.package_cores and args.energy_scope != 'package':
            raise BadInput('--package-cores needs --energy-scope package')
        if args.smp < 2 and any(w.kind == 'pingpong' for w in workloads):
            raise BadInput('workload pingpong needs two CPUs: --smp 2')
        rings = max((int(o.label) for w in workloads if w.kind == 'ring' for o in w.ops),
                    default=0)
        if args.smp < 3 * rings:
            raise BadInput(f'workload ring:{rings} needs {3 * rings} CPUs: --smp {3 * rings}')
        # Several vCPUs run without instruction counting unless told.
        if args.icount is None:
            args.icount = args.smp == 1
        if args.pin_vcpus and args.icount:
            raise BadInput('--pin-vcpus is for a guest without instruction counting')
        # Several vCPUs under instruction counting: the 5 Hz sampler
        # more than doubled the 2-CPU ping-pong's round trip at 1500 MHz
        # and spread it (Documentation/bench.rst, "Several CPUs").
        if args.icount and args.smp > 1 and args.freq_sample is None:
            args.freq_sample = 0.0
    # On a real machine the sizes the user did not give come from a
    # probe run (tbench and dbench take the duration itself).
    calib = [] if guest else [
        w.name for w in workloads if w.kind in KINDS and KINDS[w.kind].size not in
        (None, 'seconds') and given[KINDS[w.kind].size or ''] is None]
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    return Request(configs, baseline, workloads, reps, seed, lengths, calib,
                   duration, guest)


def describe(req: Request, args: argparse.Namespace) -> str:
    if req.guest:
        return (f'guest {req.guest}'
                f'{", Linux " + args.kernel_version if args.kernel_version else ""}, boost {"on" if args.boost else "off"}, {args.smp} vCPUs'
                f'{", icount" if args.icount else ""}'
                f'{", vCPUs pinned" if args.pin_vcpus else ""}'
                f'{", CPPC " + args.cppc if args.cppc else ""}, energy {args.energy_scope}'
                f'{f" of {args.package_cores} cores" if args.package_cores else ""}')
    return f'host {os.uname().nodename} {os.uname().release}'


def run_env(args: argparse.Namespace, sysfs: str, outdir: str) -> dict[str, str]:
    """run-one.sh's environment on a real machine."""
    env = dict(os.environ, SYSFS=sysfs, SETTLE_S=f'{args.settle:g}',
               ENERGY_S=f'{args.energy_poll:g}', RUN_TIMEOUT_S=str(args.run_timeout))
    if args.freq_sample is not None:
        env['SAMPLE_S'] = f'{args.freq_sample:g}'
    if args.trace:
        env.update(COMPARE_RAW_DIR=os.path.join(outdir, 'raw'), COMPARE_TRACE='1')
    if args.turbostat and 'COMPARE_SYSFS' not in os.environ and host.turbostat_usable():
        env['COMPARE_TURBOSTAT'] = '1'
    return env


def calibrate(req: Request, env: dict[str, str], limit_s: float
              ) -> tuple[list[Workload], list[dict[str, Any]]]:
    """Size each workload of req.calibrate to take req.duration_s: probe
    runs under the baseline, ten times longer until one takes a second;
    raises BadInput when a probe fails."""
    assert req.duration_s is not None
    done: list[dict[str, Any]] = []
    sized = []
    for w in req.workloads:
        if w.name not in req.calibrate:
            sized.append(w)
            continue
        size = int(w.ops[0].args[-1])
        took: Optional[float] = None
        for _ in range(6):
            op = w.ops[0]
            probe = PlannedRun(0, 0, req.baseline, w.name, op.label, 0, w.kind,
                               op.args[:-1] + (str(size),))
            took = runner.calibrate(probe, env, limit_s)
            if took is None:
                raise BadInput(f'workload {w.name}: its probe run failed under {req.baseline} '
                               f'(run-one.sh {w.kind} {" ".join(probe.args)})')
            if took >= 1.0:
                break
            size *= 10
        assert took is not None
        # Sized from the probe time as plan.json records it (ms), so that
        # the record reproduces the size: from the unrounded time a size
        # near a .5 boundary came out one off (113 against 112 recomputed)
        took = round(took, 3)
        new = scaled_size(size, took, req.duration_s)
        done.append({'workload': w.name, 'probe_size': size, 'probe_s': took,
                     'size': new})
        out(f'compare: {w.name}: size {new} for {req.duration_s:g} s '
            f'(probe: {size} took {took:.2f} s)')
        sized.append(resize(w, new))
    return sized, done


def write_outputs(outdir: str, meta: Meta, results: Sequence[RunResult]) -> str:
    """results.json, results.csv, report.txt and the plots; returns the
    report.  Raises OSError when the directory cannot be written."""
    from compare_plot import plot   # after the text: gnuplot is optional
    from compare_report import write_files
    text = render(meta, results)
    write_files(outdir, meta, results, text)
    plot(outdir, meta, results, compare(results, meta.workloads, meta.configs, meta.baseline))
    return text


def save_meta(outdir: str, meta: Meta) -> None:
    with open(os.path.join(outdir, 'plan.json'), 'w') as f:
        json.dump(meta.to_json(), f, indent=1)


def finish(outdir: str, meta: Meta, rec: runner.Recorder, rc: int) -> int:
    """Print (and write, where it can) the report of the runs kept."""
    try:
        text = write_outputs(outdir, meta, rec.results)
    except OSError as e:
        text = render(meta, rec.results)
        out(f'compare: cannot write the report files in {outdir}: {e.strerror}')
    sys.stdout.write(text)
    out(f'compare: results in {outdir} (re-render: tools/compare/compare report {outdir})')
    if rc == 0 and len(rec.results) < len(meta.plan):
        out(f'compare: only {len(rec.results)} of {len(meta.plan)} runs reported')
        rc = 1
    return rc


def guest_command(args: argparse.Namespace, req: Request, name: str,
                  plan: Sequence[PlannedRun]) -> list[str]:
    """tools/vm/run's command line: guest.sh with run-one.sh's settings
    in its environment."""
    env = {'SETTLE_S': f'{args.settle:g}', 'ENERGY_S': f'{args.energy_poll:g}',
           'RUN_TIMEOUT_S': str(args.run_timeout)}
    if args.freq_sample is not None:
        env['SAMPLE_S'] = f'{args.freq_sample:g}'
    if args.cppc:
        env['CPPC_PAGE'] = CPPC_PAGE
    if args.guest_setup:
        env['GUEST_SETUP'] = args.guest_setup
    env['VCPUFREQ_ENERGY'] = f'energy_scope={args.energy_scope}' + (
        f' package_cores={args.package_cores}' if args.package_cores else '')
    assert req.guest is not None
    timeout = args.timeout or max(2400, 20 * len(plan))
    return runner.guest_command(name, args.smp, timeout, args.icount, args.cppc,
                                args.kernel_version, env, args.pin_vcpus,
                                [req.guest, '1' if args.boost else '0',
                                 '0' if args.no_energy else '1'], plan)


def run_on_guest(args: argparse.Namespace, req: Request, meta: Meta, outdir: str,
                 rec: runner.Recorder) -> int:
    """The plan in one boot of the guest; 0, or 1/2 when it did not come
    up, 1 when a run left the cpufreq state changed."""
    name = 'compare-' + os.path.basename(outdir.rstrip('/'))
    cmd = guest_command(args, req, name, meta.plan)

    def on_line(ln: str) -> None:
        if ln.startswith('COMPARE_BOOT '):
            meta.extra['guest'] = ln.split(' ', 1)[1]
            out(f'compare: guest up: {meta.extra["guest"]}')
        elif ln.startswith('COMPARE_STATE '):
            k, _, v = ln.split(' ', 1)[1].partition('=')
            meta.extra[f'guest_state_{k}'] = v
        elif ln.startswith(('compare:', 'run-one:', 'vm:')):
            out(ln)
    rc = runner.run_guest(rec, cmd, on_line)
    try:
        save_meta(outdir, meta)     # with the guest's boot line and states
    except OSError as e:
        raise runner.ResultsUnwritable(f'cannot write {outdir}/plan.json: {e.strerror}')
    if 'guest' not in meta.extra:
        out(f'compare: the guest did not set up the machine (tools/vm/run exit {rc}; '
            f'log build/vm/{name}.log)')
        return 2 if rc == 2 else 1
    before, after = meta.extra.get('guest_state_before'), meta.extra.get('guest_state_after')
    if before and after and before != after:
        out(f'compare: the guest\'s cpufreq state changed over the plan: {before} -> {after}')
        return 1
    return 0


def run_on_host(args: argparse.Namespace, req: Request, meta: Meta, outdir: str,
                rec: runner.Recorder, env: dict[str, str]) -> None:
    """The plan on this machine (calibrated first when asked)."""
    if req.calibrate:
        ws, cal = calibrate(req, env, args.run_timeout + args.settle + 60)
        meta.workloads = ws
        meta.plan = make_plan(req.configs, ws, req.reps, req.seed)
        meta.extra['calibration'] = cal
        rec.use_plan(meta.plan)
        try:
            save_meta(outdir, meta)
        except OSError as e:
            raise runner.ResultsUnwritable(f'cannot write {outdir}/plan.json: {e.strerror}')
    runner.run_host(rec, meta.plan, env, args.run_timeout, args.settle)


def run_handler(args: argparse.Namespace) -> int:
    req = resolve(args)
    sysfs = host.sysfs_root()
    if not req.guest and args.subcommand == 'run':
        host.require_root()
        host.host_checks(req.configs, req.workloads, not args.no_energy, sysfs, args.trace)
    plan = make_plan(req.configs, req.workloads, req.reps, req.seed)
    where = describe(req, args)
    npoints = sum(len(w.ops) for w in req.workloads)
    out(f'compare: {len(plan)} runs ({len(req.configs)} configurations x {npoints} workload '
        f'points x {req.reps} repetitions), seed {req.seed}, {where}')
    if args.subcommand == 'plan':
        if req.calibrate:
            out(f'compare: sizes of {", ".join(req.calibrate)} are set by a probe run '
                f'({req.duration_s:g} s a run)')
        for r in plan:
            out(plan_line(r))
        return 0
    qemu = host.qemu_version_line() if req.guest else None
    if qemu and args.icount and args.smp > 1 and not host.qemu_icount_fair(qemu):
        out(f'compare: warning: {qemu} runs an --icount guest\'s vCPUs without the fair '
            f'share of QEMU 8.1: two CPUs busy at once can get very unequal shares '
            f'(Documentation/bench.rst, "QEMU\'s share of the host thread"; '
            f'tools/vm/qemu-backports.sh unpacks a newer QEMU)')
    outdir = args.out or os.path.join(os.environ.get('BUILD_DIR', os.path.join(TOP, 'build')),
                                      'compare', time.strftime('%Y%m%d-%H%M%S'))
    meta = Meta([c.spec for c in req.configs], req.baseline, req.workloads, req.reps,
                req.seed, plan,
                {'lengths': req.lengths.to_json(), 'machine': where,
                 'command': ' '.join(shlex.quote(a) for a in sys.argv),
                 'commit': host.commit_id(), 'started': runner.now_utc(),
                 **({'qemu': qemu} if qemu else {}),
                 'settings': {'settle_s': args.settle, 'run_timeout_s': args.run_timeout,
                              'freq_sample_s': args.freq_sample,
                              'energy_poll_s': args.energy_poll,
                              'duration_s': req.duration_s, 'trace': args.trace}})
    try:
        os.makedirs(outdir, exist_ok=True)
        save_meta(outdir, meta)
    except OSError as e:
        raise BadInput(f'cannot write {outdir}: {e.strerror}') from None
    rec = runner.Recorder(outdir, meta, out)
    rc = 0
    state: Optional[host.MachineState] = None
    with runner.signals_raise():
        try:
            if req.guest:
                rc = run_on_guest(args, req, meta, outdir, rec)
            else:
                state = host.MachineState.capture(sysfs)
                meta.extra['machine_state'] = state.to_json()
                env = run_env(args, sysfs, outdir)
                if args.trace:
                    os.makedirs(env['COMPARE_RAW_DIR'], exist_ok=True)
                host.host_prepare(req.configs, sysfs)
                run_on_host(args, req, meta, outdir, rec, env)
        except runner.Interrupted as e:
            out(f'compare: {e}: stopped; kept {rec.finished()} finished runs in {outdir}')
            rc = 128 + e.signum
        except runner.ResultsUnwritable as e:
            out(f'compare: {e}; stopped after {rec.finished()} runs')
            rc = 1
        finally:
            if state is not None:
                for c in state.restore(sysfs):
                    out(f'compare: put back {c}')
    return finish(outdir, meta, rec, rc)


def report_handler(args: argparse.Namespace) -> int:
    meta, results = load(args.dir)
    try:
        text = write_outputs(args.dir, meta, results)
    except OSError as e:
        text = render(meta, results)
        out(f'compare: cannot write the report files in {args.dir}: {e.strerror}')
    sys.stdout.write(text)
    return 0


def diff_handler(args: argparse.Namespace) -> int:
    sys.stdout.write(diff(args.dir1, args.dir2))
    return 0


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    'run': run_handler, 'plan': run_handler, 'report': report_handler, 'diff': diff_handler}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The tool; returns its exit status (2: bad input, refused before
    anything ran; 128 + N: stopped by signal N, the machine put back)."""
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        return HANDLERS[args.subcommand](args)
    except BadInput as e:
        print(f'compare: {e}', file=sys.stderr)
        return 2
