# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: the plan, which run comes when and how long it is.

Every repetition runs every configuration on every workload point, in an
order shuffled from a printed seed; the run lengths come from a matrix
tuned for the instruction-counted guest or, on a real machine, from a
target duration per run.
"""

import random
import shlex
from dataclasses import dataclass
from typing import Sequence

from compare_model import Config, Lengths, PlannedRun, Workload


@dataclass(frozen=True)
class Matrix:
    """A default matrix: workloads, repetitions, run lengths, and the
    target duration of one run on a real machine (seconds)."""
    workloads: tuple[str, ...]
    reps: int
    lengths: Lengths
    duration_s: int


MATRICES = {
    # make compare: the ten configurations in the 1-vCPU guest under
    # instruction counting; first the workloads where they differ (work
    # that arrives after idle gaps, periodic tasks), then tbench and
    # forkexec, where a busy CPU makes every dynamic governor alike.
    # 240 runs, about 9 minutes of QEMU's CPU time.
    'quick': Matrix(('burst:10,100', 'periodic:20,50,80', 'ramp', 'tbench:1', 'forkexec'), 3,
                    Lengths(seconds=3, loops=30, cpu_ops=100, forkexec=60, bursts=40), 10),
    # --full: sweeps to 2x the CPUs, 5 repetitions, as the published
    # EPYC 7742 tables (Linux commit 976df7e5730e).
    'full': Matrix(('tbench:1,2,4,8', 'dbench:1,2,4', 'hackbench:1,2,4,8', 'cpu:1,2,4',
                    'forkexec'), 5,
                   Lengths(seconds=10, loops=100, cpu_ops=300, forkexec=300, bursts=100), 30),
}


def make_plan(configs: Sequence[Config], workloads: Sequence[Workload], reps: int,
              seed: int) -> list[PlannedRun]:
    """Every (configuration, workload point) once per repetition; within a
    repetition the configurations run in an order shuffled from seed (one
    permutation per repetition), each running every workload before the
    next, so slow drift of the machine spreads over all."""
    rng = random.Random(seed)
    plan: list[PlannedRun] = []
    for rep in range(reps):
        order = list(range(len(configs)))
        rng.shuffle(order)
        for ci in order:
            for w in workloads:
                for oi, op in enumerate(w.ops):
                    plan.append(PlannedRun(len(plan), rep, configs[ci].spec, w.name, op.label,
                                           oi, w.kind, op.args))
    return plan


def plan_line(run: PlannedRun) -> str:
    """One line of guest.sh's plan: ID CONFIG KIND ARG..., sh-quoted."""
    return ' '.join(shlex.quote(str(x)) for x in (run.id, run.config, run.kind) + run.args)


def resize(workload: Workload, size: int) -> Workload:
    """The workload with every point's size argument (the last) set to
    size; tbench and dbench take seconds there, the others a count."""
    ops = tuple(type(op)(op.label, op.args[:-1] + (str(size),)) for op in workload.ops)
    return type(workload)(workload.kind, workload.name, ops, workload.title, workload.param,
                          workload.unit, workload.higher, workload.work, workload.pattern)


def scaled_size(probe_size: int, probe_s: float, target_s: float) -> int:
    """A workload size that should take target_s, from a probe of
    probe_size that took probe_s (work proportional to size); at least 1."""
    if probe_s <= 0:
        return probe_size
    return max(1, round(probe_size * target_s / probe_s))
