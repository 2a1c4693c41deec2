# SPDX-License-Identifier: GPL-2.0-only
"""tools/compare: the machine it runs on, probed and put back.

What a real machine can run is checked before anything runs (root, a
cpufreq driver that takes governors, the governors, the workloads'
programs, RAPL, APERF/MPERF for turbostat, trace-cmd), and its cpufreq
state (every policy's governor, that governor's tunables, the intel_pstate
mode) is captured at the start and put back at the end, whatever stopped
the plan.  COMPARE_SYSFS points it at a fake tree for the tests.
"""

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from compare_model import KINDS, PSTATE_GOVERNORS, BadInput, Config, Workload

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


def sysfs_root() -> str:
    """/sys, or the fake tree of COMPARE_SYSFS."""
    return os.environ.get('COMPARE_SYSFS', '/sys')


def read_text(path: str) -> Optional[str]:
    """A sysfs file's content without the newline, None if unreadable."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def write_text(path: str, value: str) -> bool:
    """Write a sysfs file; False when it refuses."""
    try:
        with open(path, 'w') as f:
            f.write(value + '\n')
        return True
    except OSError:
        return False


def tunable_value(text: str) -> str:
    """The value to write back: sugov_inv's freq_max_policy lists the
    choices with [the one in effect]."""
    if '[' in text and ']' in text:
        return text[text.index('[') + 1:text.index(']')]
    return text


def require_root() -> None:
    """A real machine: only root may switch governors (and --cmd runs as
    root); raises BadInput otherwise."""
    if os.geteuid() != 0 and 'COMPARE_SYSFS' not in os.environ:
        raise BadInput('on a real machine run as root (it switches governors and runs '
                       'the workloads, --cmd too, as root); or --guest PRESET')


@dataclass
class MachineState:
    """Every policy's governor, the tunables of the governors in effect
    (file -> value) and the intel_pstate mode."""
    governors: dict[str, str] = field(default_factory=dict)
    tunables: dict[str, str] = field(default_factory=dict)
    pstate: Optional[str] = None

    @classmethod
    def capture(cls, sysfs: str) -> 'MachineState':
        st = cls()
        cpufreq = os.path.join(sysfs, 'devices/system/cpu/cpufreq')
        pols = sorted(p for p in _listdir(cpufreq) if p.startswith('policy'))
        for p in pols:
            g = read_text(os.path.join(cpufreq, p, 'scaling_governor'))
            if g is not None:
                st.governors[p] = g
        for g in sorted(set(st.governors.values())):
            for d in [os.path.join(cpufreq, g)] + [os.path.join(cpufreq, p, g) for p in pols]:
                for name in sorted(_listdir(d)):
                    v = read_text(os.path.join(d, name))
                    if v is not None:
                        st.tunables[os.path.relpath(os.path.join(d, name), sysfs)] = tunable_value(v)
        st.pstate = read_text(os.path.join(sysfs, 'devices/system/cpu/intel_pstate/status'))
        return st

    def differences(self, sysfs: str) -> list[str]:
        """What differs now from this state, as 'FILE: NOW (was THEN)'."""
        now = MachineState.capture(sysfs)
        out = [f'{p}/scaling_governor: {now.governors.get(p)} (was {g})'
               for p, g in self.governors.items() if now.governors.get(p) != g]
        out += [f'{f}: {now.tunables.get(f)} (was {v})'
                for f, v in self.tunables.items() if now.tunables.get(f) != v]
        if now.pstate != self.pstate:
            out.append(f'intel_pstate/status: {now.pstate} (was {self.pstate})')
        return out

    def restore(self, sysfs: str) -> list[str]:
        """Put this state back; returns what had to be put back (empty
        when nothing differed), each with ' (refused)' when it stayed
        different."""
        changed = self.differences(sysfs)
        if not changed:
            return []
        cpu = os.path.join(sysfs, 'devices/system/cpu')
        if self.pstate is not None and read_text(os.path.join(cpu, 'intel_pstate/status')) != self.pstate:
            write_text(os.path.join(cpu, 'intel_pstate/status'), self.pstate)
        for p, g in self.governors.items():
            f = os.path.join(cpu, 'cpufreq', p, 'scaling_governor')
            if read_text(f) != g:
                write_text(f, g)
        # Twice: a value can be refused until another one is back.
        for _ in range(2):
            for rel, v in self.tunables.items():
                f = os.path.join(sysfs, rel)
                now = read_text(f)
                if now is not None and tunable_value(now) != v:
                    write_text(f, v)
        left = set(self.differences(sysfs))
        return [c + (' (refused)' if c in left else '') for c in changed]

    def to_json(self) -> dict[str, Any]:
        return {'governors': self.governors, 'tunables': self.tunables, 'pstate': self.pstate}


def _listdir(d: str) -> list[str]:
    try:
        return os.listdir(d)
    except OSError:
        return []


def has_aperfmperf(cpuinfo: str = '/proc/cpuinfo') -> bool:
    """The CPU counts delivered cycles (the aperfmperf flag)."""
    text = read_text(cpuinfo) or ''
    return any(ln.startswith('flags') and ' aperfmperf' in ln for ln in text.splitlines())


def turbostat_usable() -> bool:
    """turbostat (Debian's linux-cpupower) is installed and has APERF and
    MPERF to read."""
    return shutil.which('turbostat') is not None and has_aperfmperf()


def host_checks(configs: Sequence[Config], workloads: Iterable[Workload], need_energy: bool,
                sysfs: str, trace: bool) -> None:
    """Refuse, before anything runs, what the machine cannot do; raises
    BadInput."""
    cpufreq = os.path.join(sysfs, 'devices/system/cpu/cpufreq')
    pol = os.path.join(cpufreq, 'policy0')
    if not os.path.isdir(pol):
        raise BadInput(f'no cpufreq policy in {cpufreq}: this machine has no cpufreq driver')
    driver = read_text(os.path.join(pol, 'scaling_driver')) or '?'
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
    avail = (read_text(os.path.join(pol, 'scaling_available_governors')) or '').split()
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
        for p in KINDS[w.kind].programs if w.kind in KINDS else ('sh',):
            if not shutil.which(p):
                raise BadInput(f'workload {w.name}: {p} is not installed')
    if need_energy:
        zones = [z for z in _listdir(os.path.join(sysfs, 'class/powercap'))
                 if z.startswith('intel-rapl:') and z.count(':') == 1 and
                 (read_text(os.path.join(sysfs, 'class/powercap', z, 'name')) or '')
                 .startswith('package-')]
        z = os.path.join(sysfs, 'class/powercap/intel-rapl:0/energy_uj')
        if not zones or not os.access(z, os.R_OK):
            raise BadInput(f'{z} is not there or not readable: no RAPL package energy '
                           f'(modprobe intel_rapl_msr; or run with --no-energy)')
    if trace and not shutil.which('trace-cmd'):
        raise BadInput('--trace needs trace-cmd (apt-get install trace-cmd)')


def host_prepare(configs: Sequence[Config], sysfs: str) -> None:
    """Load sugov_inv (built for this very kernel, checked) and stock
    governor modules when a configuration needs them."""
    avail_f = os.path.join(sysfs, 'devices/system/cpu/cpufreq/policy0/scaling_available_governors')
    for c in configs:
        if c.governor in (read_text(avail_f) or '').split() or c.governor in PSTATE_GOVERNORS:
            continue
        if c.governor == 'sugov_inv':
            for m in ('freq_invariance.ko', 'sugov_inv.ko'):
                subprocess.run(['insmod', os.path.join(TOP, m)], check=False)
        else:
            subprocess.run(['modprobe', f'cpufreq_{c.governor}'], check=False)


# QEMU 8.1 shares an --icount guest's instructions among its vCPUs (the
# qemu-devel patch "accel/tcg/tcg-accel-ops-rr: ensure fairness with
# icount", Message-Id 20230427020925.51003-3-quic_jiles@quicinc.com).
# Before it, the vCPU that runs first after a timer runs up to the next
# timer: of two busy CPUs one can get nearly all of the time
# (Documentation/bench.rst, "QEMU's share of the host thread").
QEMU_ICOUNT_FAIR = (8, 1)


def qemu_version(text: str) -> Optional[tuple[int, int]]:
    """(major, minor) from the first line of qemu-system-x86_64 --version."""
    words = text.split('\n', 1)[0].split()
    if len(words) < 4 or words[:3] != ['QEMU', 'emulator', 'version']:
        return None
    parts = words[3].split('.')
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1])


def qemu_icount_fair(line: str) -> bool:
    """Whether a QEMU, by its --version line, shares an --icount guest's
    instructions among its vCPUs; False when the line names no version."""
    return (qemu_version(line) or (0, 0)) >= QEMU_ICOUNT_FAIR


def qemu_version_line() -> str:
    """The first line of the --version of the QEMU that tools/vm/run starts."""
    try:
        r = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                           text=True, errors='replace', check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return 'QEMU (version unknown)'
    return r.stdout.split('\n', 1)[0].strip() or 'QEMU (version unknown)'


def commit_id() -> str:
    """git describe of the tree the tool runs from."""
    r = subprocess.run(['git', '-C', TOP, 'describe', '--always', '--dirty'],
                       capture_output=True, text=True, check=False)
    return r.stdout.strip() or 'unknown'
