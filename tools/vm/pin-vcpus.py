#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Pin each vCPU thread of a multi-threaded TCG guest to its own host CPU.

Without instruction counting (MTTCG) every vCPU is a host thread, and
the host scheduler may run two of them on one host CPU for a while,
which stretches the guest's round trips between them by a time slice:
the spread of a two-CPU ping-pong then comes from the host, not from the
governor under test.  tools/vm/run --pin-vcpus starts this beside QEMU
on a QMP socket of its own; it asks QMP's query-cpus-fast for each
vCPU's host thread id (qapi/machine.json in QEMU's source) and sets
vCPU i's affinity to the i-th CPU this process may run on (wrapping
around when there are fewer host CPUs than vCPUs).  QEMU's other
threads (main loop, I/O) stay free to run anywhere.  It says what it
did in one line on stderr.

Usage: pin-vcpus.py SOCKET --vcpus N
"""

import argparse
import os
import sys
import time

from qmp import Qmp, connect


def vcpu_threads(qmp, want, wait_s):
    """{cpu-index: thread-id} once all @want vCPU threads exist, else None."""
    end = time.monotonic() + wait_s
    while time.monotonic() < end:
        cpus = qmp.cmd('query-cpus-fast').get('return', [])
        tids = {c['cpu-index']: c.get('thread-id', 0) for c in cpus}
        if len(tids) >= want and all(tids.values()):
            return tids
        time.sleep(0.2)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('socket')
    ap.add_argument('--vcpus', type=int, required=True)
    a = ap.parse_args()
    sock = connect(a.socket, 60.0)
    if sock is None:
        print(f'vm: pin-vcpus: no QMP socket at {a.socket}', file=sys.stderr)
        return 1
    try:
        qmp = Qmp(sock)
        tids = vcpu_threads(qmp, a.vcpus, 30.0)
    except (EOFError, OSError, ValueError):
        tids = None
    finally:
        sock.close()
    if tids is None:
        print('vm: pin-vcpus: QEMU did not report every vCPU thread; '
              'left unpinned', file=sys.stderr)
        return 1
    host = sorted(os.sched_getaffinity(0))
    done = []
    for idx, tid in sorted(tids.items()):
        cpu = host[idx % len(host)]
        try:
            os.sched_setaffinity(tid, {cpu})
        except OSError as e:
            print(f'vm: pin-vcpus: vCPU {idx} (thread {tid}): {e}',
                  file=sys.stderr)
            return 1
        done.append(f'vCPU {idx} -> host CPU {cpu}')
    print('vm: pinned ' + ', '.join(done), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
