#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Wake a QEMU guest that stays in ACPI S3 longer than it asked for.

tools/vm/run starts this beside QEMU with a QMP socket.  A guest test
that suspends to RAM (selftests/77-suspend.sh) is woken by the CMOS RTC
alarm it sets a few seconds ahead; when the alarm fires before the
guest has reached S3 (a slow suspend entry on a loaded TCG host), QEMU
drops the wake event (qemu_system_wakeup_request() ignores it while the
guest runs) and nothing else would ever wake it: the guest sleeps until
the time limit kills it, and every test after it is lost.  This process
polls QMP's query-status and, once the guest has been "suspended" for
--after seconds, issues system_wakeup (the same as the ACPI power
button's wake), and says so on stderr.  With --report FILE it also
writes, when QEMU exits, one line of what QMP's events said about the
guest's end: how many times it suspended and woke, and the SHUTDOWN
event's reason ("guest-shutdown" is a power-off the guest asked for,
"guest-reset" a reset or triple fault that -no-reboot turned into an
exit, "guest-panic" a panic QEMU was told about).  The commands and
events are QEMU's own: docs/interop/qmp-spec.rst and
qapi/run-state.json in QEMU's source.

Usage: wakeup-watchdog.py SOCKET [--after S] [--report FILE]
"""

import argparse
import sys
import time

from qmp import Qmp, connect


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('socket')
    ap.add_argument('--after', type=float, default=30.0, metavar='S',
                    help='seconds in S3 before the guest is woken (default 30)')
    ap.add_argument('--poll', type=float, default=1.0, metavar='S')
    ap.add_argument('--report', metavar='FILE',
                    help='write the summary of QMP events here when QEMU exits')
    a = ap.parse_args()
    sock = connect(a.socket, 60.0)
    if sock is None:
        print(f'vm: wakeup watchdog: no QMP socket at {a.socket}', file=sys.stderr)
        return 1
    woken = 0
    qmp = None
    try:
        qmp = Qmp(sock)
        since = None
        while True:
            status = qmp.cmd('query-status').get('return', {}).get('status')
            now = time.monotonic()
            if status != 'suspended':
                since = None
            elif since is None:
                since = now
            elif now - since >= a.after:
                qmp.cmd('system_wakeup')
                woken += 1
                print(f'vm: the guest stayed suspended {now - since:.0f} s '
                      f'(its wake alarm was missed): woken through QMP '
                      f'system_wakeup ({woken} so far)', file=sys.stderr)
                since = None
            time.sleep(a.poll)
    except (EOFError, OSError, ValueError):
        pass                            # QEMU has exited
    if qmp is not None and a.report:
        qmp.drain()
        with open(a.report, 'w', encoding='utf-8') as f:
            print(qmp.summary(), file=f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
