#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make a guest that hangs say where, and end it before its time limit.

tools/vm/run starts this beside QEMU with a QMP socket of its own and
the guest's console log.  A guest whose console stays silent for
--silence seconds, or that is --dump-at seconds into its run (shortly
before tools/vm/run's time limit kills it), is asked for its state
through the keyboard's magic SysRq (the guest boots with
sysrq_always_enabled): '8' raises the console log level so that what
follows is printed, 'l' prints a backtrace of every CPU (through NMIs,
so a CPU spinning with interrupts off shows too) and 'w' the tasks
blocked in uninterruptible sleep (Documentation/admin-guide/sysrq.rst
in the kernel's source).  The keys go in through QMP's
human-monitor-command "sendkey" (QEMU's docs/interop/qmp-spec.rst and
hmp-commands.hx).  After a silence the guest is then ended with QMP's
"quit", and the file given with --report says so; tools/vm/run turns
that into its exit status 123.  A guest whose kernel no longer answers
the keys prints nothing more, which says as much.

A boot that stops making progress keeps printing (RCU stall reports,
soft lockups on most CPUs: a 16-vCPU guest of Debian's 6.1 did so for
half an hour), so no silence ends it.  With --boot-stall S, such a line
(tools/vm/triage.py's BOOT_STALL) in the console or in the kernel log
(--kmsg, streamed by /init) before the console shows /init's marker
"vm: guest up:" (printed just before the command) ends the guest if the
marker has still not come S seconds later, after the same backtraces,
and the report says "boot stalled"; tools/vm/run turns that into its
exit status 122.

With --report FILE this also writes the longest console silence seen,
so that a run that passed shows how close it came to --silence.

Usage: hang-watchdog.py SOCKET --console LOG [--silence S] [--dump-at S]
                        [--kmsg KMSG] [--boot-stall S] [--report FILE]
"""

import argparse
import os
import re
import sys
import time

from qmp import Qmp, connect
from triage import BOOT_STALL

# The keys, each with what the kernel prints when it has taken it.
SYSRQ_KEYS = (('8', 'Loglevel set to 8'),
              ('l', 'Show backtrace of all active CPUs'),
              ('w', 'Show Blocked State'))
# Seconds for the NMI backtraces and the blocked-task list to reach a
# serial console of a TCG guest on a loaded host.
DUMP_WAIT_S = 20.0


def console_size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return -1


def console_shows(path, offset, text, wait_s):
    """Whether text appears in the console after offset within wait_s."""
    end = time.monotonic() + wait_s
    while True:
        try:
            with open(path, 'rb') as f:
                f.seek(max(offset, 0))
                if text in f.read().decode('utf-8', 'replace'):
                    return True
        except OSError:
            pass
        if time.monotonic() >= end:
            return False
        time.sleep(0.2)


def vcpu_pcs(qmp, samples=2, gap_s=2.0):
    """Each vCPU's instruction pointer and halt state, a few times.

    A kernel that takes no SysRq key prints nothing, which alone does
    not tell a guest looping with interrupts off from vCPUs that QEMU
    no longer runs: RIPs that move between samples say the guest runs,
    RIPs that stay on CPUs not halted say it does not (HMP "info
    registers -a", hmp-commands-info.hx; RIP and HLT as
    target/i386/cpu-dump.c prints them).
    """
    for i in range(samples):
        if i:
            time.sleep(gap_s)
        reply = qmp.cmd('human-monitor-command',
                        {'command-line': 'info registers -a'})
        text = reply.get('return', '') if isinstance(reply, dict) else ''
        cpus = []
        for m in re.finditer(r'CPU#(\d+).*?RIP=([0-9a-f]+).*?HLT=(\d)', text, re.S):
            cpus.append(f'cpu{m.group(1)} RIP {m.group(2)}'
                        + (' halted' if m.group(3) == '1' else ''))
        print(f'vm: vCPUs (sample {i + 1} of {samples}): '
              + ('; '.join(cpus) or 'no answer'), file=sys.stderr)


def dump(qmp, console, why):
    """SysRq 8, l, w; a key the guest did not take is sent again.

    The first key after a quiet stretch was lost in a 16-vCPU guest
    (its "Loglevel set to 8" never came, and the backtraces went
    unprinted), so each key is sent until the kernel says it took it,
    three times at most.
    """
    print(f'vm: {why}: asking the guest for its CPUs\' backtraces and '
          f'blocked tasks (SysRq {" ".join(k for k, _ in SYSRQ_KEYS)})',
          file=sys.stderr)
    vcpu_pcs(qmp)
    for key, taken in SYSRQ_KEYS:
        for _ in range(3):
            mark = console_size(console)
            qmp.cmd('human-monitor-command',
                    {'command-line': f'sendkey alt-sysrq-{key}'})
            if console_shows(console, mark, taken, 3.0):
                break
    time.sleep(DUMP_WAIT_S)


# /init's line on the console just before it starts the command.
COMMAND_MARK = 'vm: guest up:'


class BootWatch:
    """The first boot-stall line, and whether the command has started.

    Reads what was appended to the console and the kernel log since the
    last call, whole lines only.  A stall line in the kernel log counts
    only if its record precedes /init's "sugov-vm: command starts".
    """

    def __init__(self, paths):
        self.offsets = {p: 0 for p in paths}
        self.rest = {p: b'' for p in paths}
        self.started = False
        self.stall = None

    def lines(self, path):
        try:
            with open(path, 'rb') as f:
                f.seek(self.offsets[path])
                data = f.read()
        except OSError:
            return []
        self.offsets[path] += len(data)
        data = self.rest[path] + data
        *whole, self.rest[path] = data.split(b'\n')
        return [l.decode('utf-8', 'replace').rstrip('\r') for l in whole]

    def poll(self):
        """The stall line seen before the command started, else None."""
        for path in self.offsets:
            for line in self.lines(path):
                if self.started:
                    break
                if line.startswith(COMMAND_MARK) or 'sugov-vm: command starts' in line:
                    self.started = True
                elif self.stall is None and BOOT_STALL.search(line):
                    self.stall = line.split(';', 1)[-1].strip()
        return None if self.started else self.stall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('socket')
    ap.add_argument('--console', required=True, metavar='LOG',
                    help='the guest console log that tools/vm/run writes')
    ap.add_argument('--silence', type=float, default=0.0, metavar='S',
                    help='end a guest silent this long (0: never)')
    ap.add_argument('--dump-at', type=float, default=0.0, metavar='S',
                    help='dump the guest\'s state this long into the run (0: never)')
    ap.add_argument('--kmsg', metavar='KMSG',
                    help='the whole kernel log, streamed by /init to ttyS1')
    ap.add_argument('--boot-stall', type=float, default=0.0, metavar='S',
                    help='end a guest whose boot printed a stall line and '
                    'has not started the command S seconds later (0: never)')
    ap.add_argument('--report', metavar='FILE')
    ap.add_argument('--poll', type=float, default=1.0, metavar='S')
    a = ap.parse_args()
    sock = connect(a.socket, 60.0)
    if sock is None:
        print(f'vm: hang watchdog: no QMP socket at {a.socket}', file=sys.stderr)
        return 1
    start = last_change = time.monotonic()
    size = console_size(a.console)
    longest = 0.0
    verdict = ''
    dumped = False
    boot = BootWatch([a.console] + ([a.kmsg] if a.kmsg else []))
    stall_seen = None
    try:
        qmp = Qmp(sock)
        while True:
            time.sleep(a.poll)
            qmp.cmd('query-status')     # EOFError once QEMU has exited
            now = time.monotonic()
            new = console_size(a.console)
            if new != size:
                size, last_change = new, now
            quiet = now - last_change
            longest = max(longest, quiet)
            if a.silence and quiet >= a.silence:
                dump(qmp, a.console, f'the console was silent for {quiet:.0f} s')
                verdict = f'silent {quiet:.0f} s'
                qmp.cmd('quit')
                break
            stall = boot.poll() if a.boot_stall and not boot.started else None
            if stall and stall_seen is None:
                stall_seen = now
                print(f'vm: boot stall before the command: {stall[:160]}; '
                      f'ending the guest if the command has not started in '
                      f'{a.boot_stall:.0f} s', file=sys.stderr)
            if stall and now - stall_seen >= a.boot_stall:
                dump(qmp, a.console, f'the boot stalled {now - stall_seen:.0f} s ago '
                     f'and the command has not started')
                verdict = f'boot stalled: {stall[:200]}'
                qmp.cmd('quit')
                break
            if a.dump_at and not dumped and now - start >= a.dump_at:
                dump(qmp, a.console, f'{now - start:.0f} s into the run, near its time limit')
                dumped = True
    except (EOFError, OSError, ValueError):
        pass                            # QEMU has exited
    if a.report:
        with open(a.report, 'w', encoding='utf-8') as f:
            print(f'longest console silence {longest:.0f} s', file=f)
            if verdict:
                print(verdict, file=f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
