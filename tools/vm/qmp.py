# SPDX-License-Identifier: GPL-2.0-only
"""A minimal QMP client for the scripts beside QEMU in tools/vm/run.

One session on QEMU's QMP socket (docs/interop/qmp-spec.rst in QEMU's
source): the greeting, capabilities negotiation, commands and their
replies, with the asynchronous events in between counted rather than
lost.  Used by wakeup-watchdog.py, hang-watchdog.py and pin-vcpus.py,
each on its own socket (QEMU serves one client per -qmp socket).
"""

import json
import socket
import time


def connect(path, wait_s):
    """The QMP socket once QEMU has created it, or None after wait_s."""
    end = time.monotonic() + wait_s
    while time.monotonic() < end:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.2)
    return None


class Qmp:
    """One QMP session: commands and their replies; events counted."""

    def __init__(self, sock):
        self.f = sock.makefile('rw', encoding='utf-8', newline='\n')
        self.events = {}
        self.shutdown = None
        self.reply()                    # the greeting
        self.cmd('qmp_capabilities')

    def reply(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError
            msg = json.loads(line)
            if 'event' not in msg:
                return msg
            name = msg['event']
            self.events[name] = self.events.get(name, 0) + 1
            if name == 'SHUTDOWN':
                self.shutdown = msg.get('data', {}).get('reason', '?')

    def drain(self):
        """Read events until QEMU closes the socket."""
        try:
            self.reply()
        except (EOFError, OSError, ValueError):
            pass

    def summary(self):
        """One line: the guest's end as QMP's events told it."""
        ev = self.events
        return (f'qmp: shutdown reason {self.shutdown or "none"}; '
                f'{ev.get("SUSPEND", 0)} suspends, {ev.get("WAKEUP", 0)} '
                f'wake-ups, {ev.get("RESET", 0)} resets')

    def cmd(self, name, arguments=None):
        msg = {'execute': name}
        if arguments:
            msg['arguments'] = arguments
        self.f.write(json.dumps(msg) + '\n')
        self.f.flush()
        return self.reply()
