# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: running the plan and recording each run as it ends.

On a real machine each run is one call of run-one.sh in a session of its
own; in the guest, one boot of tools/vm/run runs guest.sh, which calls
run-one.sh per run.  Either way run-one.sh's lines are parsed as they
stream, and every finished run is appended to results.jsonl at once, so a
plan that stops (a signal, a results directory that can no longer be
written, a guest that dies) keeps every run it finished.
"""

import json
import os
import signal
import subprocess
import threading
import time
from types import FrameType
from typing import Any, Callable, Iterator, Optional, Sequence
from contextlib import contextmanager

from compare_model import Meta, PlannedRun, RawRun, RunResult, finish_result, parse_lines
from compare_plan import plan_line

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
RUN_ONE = os.path.join(HERE, 'run-one.sh')


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived; signum says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class ResultsUnwritable(Exception):
    """results.jsonl could not be appended to."""


@contextmanager
def signals_raise() -> Iterator[None]:
    """Within the block the first SIGINT or SIGTERM raises Interrupted,
    so that the caller stops the current run and puts the machine back;
    later ones are ignored while it does.  The previous handlers come
    back afterwards."""
    seen: list[int] = []

    def handler(signum: int, _frame: Optional[FrameType]) -> None:
        if not seen:
            seen.append(signum)
            if _held['on']:
                _held['pending'] = signum
                return
            raise Interrupted(signum)
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        _held.update(on=False, pending=None)
        for s, h in old.items():
            signal.signal(s, h)


# A signal that arrives between a child's start and the try block that
# stops it would leave the child running and its last line (the
# interrupted run's result) unread: spawn() holds it back, armed(),
# first in that block, raises it.  A workload that signals the tool
# itself (test_compare.py's Interrupted tests) does so within
# milliseconds of the start.
_held: dict[str, Any] = {'on': False, 'pending': None}


def spawn(cmd: Sequence[str], **kw: Any) -> 'subprocess.Popen[str]':
    """subprocess.Popen(cmd, **kw), SIGINT and SIGTERM held until armed()."""
    _held['on'] = True
    try:
        return subprocess.Popen(list(cmd), **kw)
    except BaseException:
        _held['on'] = False
        raise


def armed() -> None:
    """Signals raise Interrupted again; one held since spawn() raises now."""
    _held['on'] = False
    signum, _held['pending'] = _held['pending'], None
    if signum is not None:
        raise Interrupted(signum)


def _proc_children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open(f'/proc/{d}/stat') as f:
                st = f.read()
        except OSError:
            continue
        ppid = int(st[st.rindex(')') + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(d))
    return kids


def process_tree(pid: int) -> list[int]:
    """pid's descendants (not pid), parents before children."""
    kids = _proc_children()
    out: list[int] = []
    todo = list(kids.get(pid, []))
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo += kids.get(p, [])
    return out


def _signal_all(pids: Sequence[int], sig: int) -> None:
    for p in pids:
        try:
            os.kill(p, sig)
        except OSError:
            pass


def stop_process(p: 'subprocess.Popen[str]', whom: str, grace_s: float = 10.0) -> None:
    """Stop a child we started and everything under it.  whom='top':
    TERM the child alone (run-one.sh: its trap stops the workload and
    puts the machine back); whom='below': TERM its descendants
    (tools/vm/run: QEMU goes, the script then cleans up and exits).
    Whatever is left after grace_s gets KILL."""
    if p.poll() is not None:
        return
    tree = process_tree(p.pid)
    _signal_all([p.pid] if whom == 'top' else tree or [p.pid], signal.SIGTERM)
    try:
        p.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        _signal_all([p.pid] + tree, signal.SIGKILL)
        p.wait()
    _signal_all([q for q in tree if os.path.exists(f'/proc/{q}')], signal.SIGKILL)


class Recorder:
    """Turns run-one.sh's lines into RunResults and appends each to
    results.jsonl when it ends (the file opened and closed per run)."""

    def __init__(self, outdir: str, meta: Meta, echo: Callable[[str], None]):
        self.path = os.path.join(outdir, 'results.jsonl')
        self.meta = meta
        self.by_id = {r.id: r for r in meta.plan}
        self.pending: dict[int, RawRun] = {}
        self.results: list[RunResult] = []
        self.echo = echo

    def use_plan(self, plan: Sequence[PlannedRun]) -> None:
        """The plan changed before any run (calibrated sizes)."""
        self.by_id = {r.id: r for r in plan}

    def feed(self, line: str) -> Optional[RunResult]:
        """One line of output; the run's result when this line ended it.
        Raises ResultsUnwritable when the result could not be stored."""
        if not line.startswith('COMPARE_'):
            return None
        done = None
        for rid, raw in parse_lines([line]).items():
            p = self.pending.setdefault(rid, RawRun())
            p.merge(raw)
            if 'status' in raw.fields and rid in self.by_id:
                run = self.by_id[rid]
                done = finish_result(run, self.pending.pop(rid), self.meta.workload(run.workload))
                self.store(done)
        return done

    def store(self, rec: RunResult) -> None:
        try:
            with open(self.path, 'a') as f:
                f.write(json.dumps(rec.to_json()) + '\n')
        except OSError as e:
            raise ResultsUnwritable(f'cannot write {self.path}: {e.strerror}') from None
        self.results.append(rec)
        fig = '' if rec.figure is None else f' {rec.figure:.3f}'
        pw = '' if rec.power_w is None else f' {rec.power_w:.2f} W'
        note = f' ({rec.note})' if rec.note else ''
        self.echo(f'compare: run {rec.run.id + 1}/{len(self.by_id)} {rec.run.config} '
                  f'{rec.run.workload}{rec.run.op} rep {rec.run.rep + 1}: '
                  f'{rec.status}{note}{fig}{pw}')

    def finished(self) -> int:
        """How many runs ended on their own (not stopped by a signal)."""
        return sum(1 for r in self.results if r.status != 'interrupted')

    def done(self, rid: int) -> bool:
        return any(r.run.id == rid for r in self.results)


def run_one(rec: Recorder, run: PlannedRun, env: dict[str, str], limit_s: float) -> None:
    """One run of run-one.sh on this machine.  limit_s bounds the runner
    itself (run-one.sh bounds the workload): past it the runner is
    stopped and the run recorded as failed."""
    p = spawn(['sh', RUN_ONE, str(run.id), run.config, run.kind, *run.args],
              stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
    fired = threading.Event()

    def expire() -> None:
        fired.set()
        stop_process(p, 'top')
    timer = threading.Timer(limit_s, expire)
    assert p.stdout is not None
    try:
        armed()
        timer.start()
        for line in p.stdout:
            rec.feed(line)
        rc = p.wait()
    except ResultsUnwritable:
        # The run has ended (its result line comes last): let run-one.sh
        # finish its clean-up.
        p.communicate()
        raise
    except BaseException:
        stop_process(p, 'top')
        # Its last words: the interrupted run's line.
        try:
            for line in p.stdout:
                rec.feed(line)
        except ResultsUnwritable:
            pass
        raise
    finally:
        timer.cancel()
        p.stdout.close()
    if rec.done(run.id):
        return
    if rc == 2:
        rec.feed(f'COMPARE_RESULT {run.id} status=refused rc=2')
    elif fired.is_set():
        rec.feed(f'COMPARE_RESULT {run.id} status=failed rc=124 timeout_s={limit_s:g}')
    else:
        rec.feed(f'COMPARE_RESULT {run.id} status=missing rc={rc}')


def run_host(rec: Recorder, plan: Sequence[PlannedRun], env: dict[str, str],
             run_timeout_s: int, settle_s: float) -> None:
    """The plan on this machine, one run-one.sh per run."""
    env = dict(env, RUN_TIMEOUT_S=str(run_timeout_s))
    # The runner gets the workload's limit plus its own set-up, settle
    # and tear-down.
    limit = run_timeout_s + settle_s + 60 if run_timeout_s else 10 ** 7
    for run in plan:
        run_one(rec, run, env, limit)


def guest_command(args_name: str, smp: int, timeout_s: int, icount: bool, cppc: Optional[str],
                  kernel_version: Optional[str], guest_env: dict[str, str],
                  pin_vcpus: bool, guest_args: Sequence[str],
                  plan: Sequence[PlannedRun]) -> list[str]:
    """tools/vm/run's command line for one boot that runs the plan."""
    cmd = [os.path.join(TOP, 'tools/vm/run'), '--name', args_name, '--smp', str(smp),
           '--timeout', str(timeout_s)]
    if icount:
        # One vCPU: sleep=off, so an idle gap lasts exactly until the
        # next guest timer, not as long as the host took to wake QEMU
        # (Documentation/bench.rst, "Repeatability under instruction
        # counting").  Several: tools/vm/run's variant that boots
        # maxcpus=1; QEMU 7.2 shares its instruction clock unfairly.
        cmd += ['--icount=smp' if smp > 1 else '--icount=shift=3,sleep=off']
    if cppc:
        cmd += ['--cppc', cppc]
    if pin_vcpus:
        cmd += ['--pin-vcpus']
    if kernel_version:
        # Unset: tools/vm/run's own default (VM_KERNEL_VERSION or 6.1).
        cmd += ['--kernel-version', kernel_version]
    cmd += ['--', 'env'] + [f'{k}={v}' for k, v in guest_env.items()]
    cmd += ['sh', 'tools/compare/guest.sh', *guest_args, '\n'.join(plan_line(r) for r in plan)]
    return cmd


def run_guest(rec: Recorder, cmd: Sequence[str], on_line: Callable[[str], None]) -> int:
    """One boot; the console is parsed while it streams.  Returns
    tools/vm/run's exit status; an interrupt or an unwritable results
    file stops the guest (QEMU first, so the script cleans up) and
    propagates."""
    p = spawn(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
              text=True, errors='replace', start_new_session=True)
    try:
        armed()
        assert p.stdout is not None
        for ln in p.stdout:
            ln = ln.rstrip('\r\n')
            on_line(ln)
            rec.feed(ln)
        return p.wait()
    except BaseException:
        stop_process(p, 'below')
        raise
    finally:
        if p.stdout:
            p.stdout.close()


def calibrate(run: PlannedRun, env: dict[str, str], limit_s: float) -> Optional[float]:
    """Seconds one probe run of run-one.sh took (its elapsed_ns), None
    when it failed or outlived limit_s; nothing is recorded.  An
    interrupt stops the runner as run_one does."""
    p = spawn(['sh', RUN_ONE, str(run.id), run.config, run.kind, *run.args],
              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
              env=env, start_new_session=True)
    try:
        armed()
        text, _ = p.communicate(timeout=limit_s)
    except BaseException as e:
        stop_process(p, 'top')
        p.communicate()
        if isinstance(e, subprocess.TimeoutExpired):
            return None
        raise
    raw = parse_lines(text.splitlines()).get(run.id)
    if raw is None or raw.fields.get('status') != 'ok' or \
            not raw.fields.get('elapsed_ns', '').isdigit():
        return None
    return int(raw.fields['elapsed_ns']) / 1e9


def now_utc() -> str:
    return time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())
