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

With --report FILE this also writes the longest console silence seen,
so that a run that passed shows how close it came to --silence.

Usage: hang-watchdog.py SOCKET --console LOG [--silence S] [--dump-at S]
                        [--report FILE]
"""

import argparse
import os
import sys
import time

from qmp import Qmp, connect

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
    for key, taken in SYSRQ_KEYS:
        for _ in range(3):
            mark = console_size(console)
            qmp.cmd('human-monitor-command',
                    {'command-line': f'sendkey alt-sysrq-{key}'})
            if console_shows(console, mark, taken, 3.0):
                break
    time.sleep(DUMP_WAIT_S)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('socket')
    ap.add_argument('--console', required=True, metavar='LOG',
                    help='the guest console log that tools/vm/run writes')
    ap.add_argument('--silence', type=float, default=0.0, metavar='S',
                    help='end a guest silent this long (0: never)')
    ap.add_argument('--dump-at', type=float, default=0.0, metavar='S',
                    help='dump the guest\'s state this long into the run (0: never)')
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
