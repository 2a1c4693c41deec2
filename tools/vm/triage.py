#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Whether a guest that died or hung may boot once more (--retry-foreign).

tools/vm/run asks this after a guest ended with 125 (died), 123 (hung:
its console silent) or 122 (its boot stopped making progress), giving
the console log (loglevel 4: no WARNING, lockdep or KASAN report shows
there) and the whole kernel log that /init streams to ttyS1 from its
start (NAME.kmsg, /dev/kmsg's records "PRIO,SEQ,USEC,FLAGS;TEXT").  The
two are merged by their printk timestamps, so a report is judged from
whichever log has it.

A guest boots once more only
  (a) for a known QEMU fault: the first kernel report after a module of
      ours was loaded (or the first at all, when none was) matches one
      of QEMU_FAULTS below, each with where it was seen; or
  (b) when it died or hung before any module of ours was loaded;
and never when any log shows a stack frame of ours ("fn+0x1c/0x90
[sugov_inv]") outside a stale int3's report (below), nor when a module
of ours was loaded and the first report after it (WARNING, BUG, Oops,
lockdep, KASAN, UBSAN, an RCU stall, a soft lockup, a panic) is not a
known QEMU fault, nor when a module of ours was loaded and the guest
then died or hung with no report at all.

A stale int3 is an "int3" Oops whose "Code:" line shows that the byte
the CPU trapped on does not hold an int3 (0xcc): the trap leaves RIP
after the int3, and show_opcodes() (arch/x86/kernel/dumpstack.c) prints
the 42 bytes before RIP, then RIP's own in <>, read from memory when
the Oops is printed.  The CPU executed an instruction that memory no
longer holds, which no code of ours can make it do: the frames of its
stack, ours among them (vcpufreq's init registering its sched_switch
probe, which patches __schedule), are what the CPU was running, not a
cause.  An int3 whose trapped byte is an int3 in memory is not the
QEMU fault.

A module of ours was loaded when the kernel log says "loading
out-of-tree module taints kernel" (printed once, at the first: every
module of the guest kernel's own is in-tree), names one of ours in
"Modules linked in:" or as a message prefix (pr_fmt's "sugov_inv: "),
or a report's "Tainted:" flags hold O.  Our modules: freq_invariance,
sugov_inv, vcpufreq, hookbench and the KUnit test modules (*_kunit).
/init writes "sugov-vm: command starts" to the kernel log (and "vm:
guest up:" to the console) just before the command, which is the first
thing that can load one; a guest whose console shows that marker but
whose kernel log stream is missing counts as having loaded one.

Prints one line, "retry: REASON" or "keep: REASON", and exits 0 for
retry, 1 for keep.  --faults lists the known QEMU faults with their
sources.  tools/vm/test_triage.py checks the rules on excerpts of logs.

Usage: triage.py --status RC --console LOG [--kmsg KMSG]
       triage.py --faults
"""

import argparse
import re
import sys

# The modules of ours, as the kernel names them in frames and lists.
OURS = r'(?:freq_invariance|sugov_inv|vcpufreq|hookbench|[a-z0-9_]+_kunit)'
FRAME_OURS = re.compile(r'\+0x[0-9a-f]+/0x[0-9a-f]+ \[' + OURS + r'\]')
LOADED_OURS = (
    re.compile(r'loading out-of-tree module taints kernel'),
    re.compile(r'^Modules linked in:.*(?:^|\s)' + OURS + r'(?:\(|\s|$)'),
    re.compile(r'^' + OURS + r': '),
)
# "CPU: 1 PID: 9 Comm: sh Tainted: G           O       6.1.0 #1" (6.1),
# "CPU: 1 UID: 0 PID: 9 Comm: sh Tainted: G O 6.12.1 #1" (6.12).
TAINTED = re.compile(r'Tainted: ([A-Z ]+?)\s+\d+\.\d+')

# The first line of a kernel report.
REPORT = re.compile(
    r'^(?:WARNING: |BUG: |watchdog: BUG: |kernel BUG at |Oops: |UBSAN: |'
    r'general protection fault|[a-z0-9 ]+: 0000 \[#\d+\]|'
    r'Kernel panic - not syncing|INFO: task .* blocked for more than|'
    r'rcu: INFO: .*detected stalls|rcu: .* kthread starved|'
    r'.*self-detected stall on CPU|DEBUG_LOCKS_WARN_ON)')

# A boot that stopped making progress: what the kernel prints while it
# is stuck (tools/vm/hang-watchdog.py ends the guest with 122 when it
# sees these before the command started).
BOOT_STALL = re.compile(
    r'rcu: INFO: rcu_\w+ (?:self-)?detected stalls|'
    r'rcu: INFO: rcu_\w+ self-detected stall|'
    r'rcu_\w+ kthread (?:timer wakeup didn\'t happen|starved)|'
    r'watchdog: BUG: soft lockup')


INT3 = re.compile(r'^(?:Oops: )?int3: 0000 \[#\d+\]')
# "Code: 0f 95 c2 e9 70 03 00 00 0f <1f> 44 00 00 48 8b ..."
CODE = re.compile(r'Code: ((?:[0-9a-f]{2} )*)<[0-9a-f]{2}>')


def int3_trapped_byte(report_lines):
    """The byte an int3 Oops trapped on, as memory holds it, or None."""
    if not INT3.match(report_lines[0]):
        return None
    for l in report_lines:
        m = CODE.search(l)
        if m and m.group(1):
            return m.group(1).split()[-1]
    return None


def stale_int3(report_lines):
    """An int3 Oops on a byte that memory does not hold as an int3."""
    byte = int3_trapped_byte(report_lines)
    return byte is not None and byte != 'cc'


def reserved_eflags(line):
    """A register dump's EFLAGS with bits 22 to 31 set, which x86 reserves."""
    m = re.search(r'EFLAGS: ([0-9a-f]{8})', line)
    return bool(m) and int(m.group(1), 16) & 0xffc00000 != 0


# Known QEMU faults: a name, what the report's lines show (a test on
# the list of them, header first), and where it was seen.  A boot-only fault
# counts only before any module of ours was loaded.
QEMU_FAULTS = (
    ('tcg-int3-text-poke',
     lambda r: INT3.match(r[0]) is not None and int3_trapped_byte(r) != 'cc',
     'an int3 trap in kernel text being patched, QEMU 7.2 multi-threaded '
     'TCG executing the breakpoint after the kernel had finished the patch '
     '(6.12): in __schedule() while vcpufreq loaded (fresh clone of '
     '4ab6869), in sched_clock_cpu() at 2.4 s into a cppc guest\'s boot '
     'before any module (93696b5) and at 3.8 s into the install part\'s '
     'guest (0314a5f); tools/check.sh above guest_run, commit 8686d9c. '
     'Provoked in a 2-vCPU 6.12 guest that toggles the sched_switch and '
     'sched_waking events and loads vcpufreq while the other CPU forks '
     '(8 guests of 9): __schedule+0x339 or ttwu_do_activate+0x8d, "Code: ... 0f <1f> 44 00 '
     '00" or "e9 <3a> 02 00 00", the tracepoint\'s jump back in memory',
     False),
    ('tcg-s3-eflags',
     lambda r: any(reserved_eflags(l) or re.search(
         r'^WARNING: .* exc_debug_kernel|^RIP: 0010:exc_debug_kernel', l) is not None
         for l in r),
     'a CPU back from S3 under QEMU 7.2 multi-threaded TCG with reserved '
     'EFLAGS bits 22-31 set (fff86f7a, 418c3422, 81f6c2bb), a WARN in '
     'exc_debug_kernel() or a double fault in its cpuhp thread (6.12; also '
     'with no module loaded); Documentation/development.rst, "Suspend on 6.12"',
     False),
    ('boot-livelock',
     lambda r: any(BOOT_STALL.search(l) for l in r),
     'a boot that stopped making progress before the command started: RCU\'s '
     'grace-period kthread starved for 68,000 jiffies and migration/N soft '
     'lockups on most CPUs of a 16-vCPU guest of Debian\'s 6.1, no module '
     'loaded (check-many-cpus); tools/vm/hang-watchdog.py --boot-stall',
     True),
)

STAMP = re.compile(r'^\[ *(\d+)\.(\d+)\] ?(.*)$')
KMSG = re.compile(r'^(\d+),(\d+),(\d+),[^;]*;(.*)$')


def read_lines(path):
    try:
        with open(path, 'rb') as f:
            return f.read().decode('utf-8', 'replace').replace('\r', '').split('\n')
    except OSError:
        return None


def console_events(lines):
    """(usec, text) of the console's kernel lines; whether the command started."""
    ev, started = [], False
    for l in lines or ():
        if l.startswith('vm: guest up:'):
            started = True
        m = STAMP.match(l)
        if m:
            ev.append((int(m.group(1)) * 1000000 + int(m.group(2).ljust(6, '0')[:6]),
                       m.group(3)))
    return ev, started


def kmsg_events(lines):
    """(usec, text) of the kernel log's records (dictionary lines skipped)."""
    ev = []
    for l in lines or ():
        m = KMSG.match(l)
        if m:
            ev.append((int(m.group(3)), m.group(4).replace('\\x0a', ' ')))
    return ev


def reports(events):
    """[(usec, header, [lines], index)]: each report from its header to the
    next; index is where its header is in events, its lines follow it."""
    out = []
    for i, (t, text) in enumerate(events):
        if REPORT.match(text):
            out.append((t, text, [text], i))
        elif out:
            out[-1][2].append(text)
    return out


def tainted_ours(text):
    m = TAINTED.search(text)
    return bool(m) and 'O' in m.group(1)


def fault_of(report, after_load):
    for name, match, _, boot_only in QEMU_FAULTS:
        if boot_only and after_load:
            continue
        if match(report[2]):
            return name
    return None


def judge(status, console, kmsg):
    """('retry'|'keep', reason) for a guest's exit status and logs (line lists)."""
    if status not in (122, 123, 125):
        return 'keep', f'exit status {status} is not a death or a hang'
    cev, started = console_events(console)
    kev = kmsg_events(kmsg)
    # A record in both logs counts once, so that a report is whole
    events = list(dict.fromkeys(sorted(cev + kev, key=lambda e: e[0])))
    reps = reports(events)
    # The lines of stale int3s' reports, whatever stack they show
    stale = {i for r in reps if stale_int3(r[2])
             for i in range(r[3], r[3] + len(r[2]))}
    for i, (_, text) in enumerate(events):
        if FRAME_OURS.search(text) and i not in stale:
            return 'keep', f'a frame of ours: {text.strip()[:120]}'
    for l in console or ():
        if not STAMP.match(l) and FRAME_OURS.search(l):
            return 'keep', f'a frame of ours: {l.strip()[:120]}'
    load = None
    for t, text in events:
        if any(p.search(text) for p in LOADED_OURS) or tainted_ours(text):
            load = t
            break
    if load is None and started and not kev:
        load = 0
        why_load = 'the command started and the kernel log stream is missing'
    else:
        why_load = 'a module of ours was loaded'
    if load is not None:
        after = [r for r in reps
                 if r[0] >= load or any(tainted_ours(l) for l in r[2])]
        if not after:
            return 'keep', (f'{why_load}, then the guest died or hung '
                            f'with no kernel report of a known QEMU fault')
        fault = fault_of(after[0], True)
        if fault is None:
            return 'keep', f'{why_load}, then: {after[0][1][:120]}'
        return 'retry', f'known QEMU fault {fault}: {after[0][1][:120]}'
    if status == 122:
        # hang-watchdog.py saw a stall line before the command started.
        stall = next((t for _, t in events if BOOT_STALL.search(t)), '')
        return 'retry', f'known QEMU fault boot-livelock: {stall[:120]}'
    if reps:
        fault = fault_of(reps[0], False)
        if fault is not None:
            return 'retry', f'known QEMU fault {fault}: {reps[0][1][:120]}'
        return 'retry', f'before any module of ours was loaded: {reps[0][1][:120]}'
    last = next((l for l in reversed(console or []) if l.startswith('vm: ')), '')
    return 'retry', ('before any module of ours was loaded'
                     + (f' ({last[4:124]})' if last else ''))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--status', type=int)
    ap.add_argument('--console', metavar='LOG')
    ap.add_argument('--kmsg', metavar='KMSG')
    ap.add_argument('--faults', action='store_true',
                    help='list the known QEMU faults and where each was seen')
    a = ap.parse_args()
    if a.faults:
        for name, _, source, boot_only in QEMU_FAULTS:
            print(f'{name}{" (before any module of ours)" if boot_only else ""}: {source}')
        return 0
    if a.status is None or a.console is None:
        ap.error('--status and --console are needed')
    verdict, reason = judge(a.status, read_lines(a.console),
                            read_lines(a.kmsg) if a.kmsg else None)
    print(f'{verdict}: {reason}')
    return 0 if verdict == 'retry' else 1


if __name__ == '__main__':
    sys.exit(main())
