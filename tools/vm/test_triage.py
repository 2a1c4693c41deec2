#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/vm/triage.py's retry rules and hang-watchdog.py's boot-stall
lines, on excerpts shaped like the logs of Debian's 6.1 and 6.12 guests.

Usage: python3 tools/vm/test_triage.py [-v]
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triage  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import ktap_unittest  # noqa: E402
import importlib.util  # noqa: E402
import tempfile  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    'hang_watchdog', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'hang-watchdog.py'))
hang_watchdog = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hang_watchdog)

BOOT = """\
5,0,0,-;Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)
6,1,0,-;Command line: console=ttyS0 rdinit=/init panic=-1 loglevel=4
6,300,2100000,-;Freeing unused kernel image (initmem) memory: 2912K
13,369,7346668,-;sugov-vm: command starts
"""
LOAD = """\
4,380,8000000,-;vcpufreq: loading out-of-tree module taints kernel.
4,381,8000100,-;vcpufreq: module verification failed: signature and/or required key missing - tainting kernel
6,382,8100000,-;vcpufreq: registered 4 CPUs (preset xeon-e5-2680v3)
"""
WARN_OURS = """\
4,400,9000000,-;------------[ cut here ]------------
4,401,9000010,-;WARNING: CPU: 1 PID: 210 at kernel/sched/core.c:123 something+0x10/0x20
4,402,9000020,-;Modules linked in: sugov_inv(OE) freq_invariance(OE) vcpufreq(OE) msr
4,403,9000030,-;CPU: 1 PID: 210 Comm: sh Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3
"""
CONSOLE_UP = """\
[    0.000000] Linux version 6.1.0-57-amd64
vm: guest up: 6.1.0-57-amd64, 4 CPUs
KTAP version 1
1..1
"""
PANIC_TAINTED = """\
[    9.500000] Kernel panic - not syncing: sysrq triggered crash
[    9.500100] CPU: 0 PID: 215 Comm: sh Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3
[    9.500200] Call Trace:
"""
PANIC_CLEAN = """\
[    9.500000] Kernel panic - not syncing: sysrq triggered crash
[    9.500100] CPU: 0 PID: 215 Comm: sh Not tainted 6.1.0-57-amd64 #1  Debian 6.1.192-3
[    9.500200] Call Trace:
"""
INT3_612 = """\
[    2.400000] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[    2.400100] CPU: 3 UID: 0 PID: 0 Comm: swapper/3 Not tainted 6.12.118+deb12-amd64 #1  Debian 6.12.118-1~deb12u1
[    2.400200] RIP: 0010:sched_clock_cpu+0x5/0x1b0
[    2.400300] Kernel panic - not syncing: Attempted to kill the idle task!
"""
INT3_LOADED = """\
[   30.000000] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[   30.000100] CPU: 2 UID: 0 PID: 1 Comm: sh Tainted: G           OE      6.12.118+deb12-amd64 #1
[   30.000200] RIP: 0010:__schedule+0x1/0x9e0
[   30.000300] Call Trace:
[   30.000400]  schedule+0x27/0xf0
"""
# A real 6.12 guest's console (2 vCPUs, the sched_switch event toggled
# while the other CPU forks): the CPU patching __schedule's tracepoint
# trapped on the int3 it had already replaced ("0f <1f> 44 00 00": the
# nop is back in memory).
INT3_STALE_HEAD = """\
[    8.978892] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[    8.979302] CPU: 0 UID: 0 PID: 153 Comm: sh Tainted: G           OE      6.12.118+deb12-amd64 #1  Debian 6.12.118-1~deb12u1
[    8.979655] RIP: 0010:__schedule+0x339/0xbf0
[    8.979791] Code: bc 48 89 45 b8 0f 85 42 07 00 00 41 83 7d 68 01 ba 01 00 00 00 75 0d 31 d2 41 80 bd d1 00 00 00 00 0f 95 c2 e9 70 03 00 00 0f <1f> 44 00 00 48 8b 83 88 0a 00 00 49 39 c5 74 4e 83 bb a8 0a 00 00
[    8.980312] Call Trace:
[    8.981350]  __cond_resched+0x48/0x70
[    8.981413]  mutex_lock+0x12/0x30
[    8.981435]  arch_static_call_transform+0x26/0xa0
[    8.981451]  __static_call_update+0x17a/0x230
"""
# The same trap when the patching is vcpufreq's probe registration at
# its load (the shape of CI's failure at fd33ecf: a cppc guest of 6.12
# that died as vcpufreq loaded)
INT3_STALE_OURS = INT3_STALE_HEAD + """\
[    8.981492]  tracepoint_probe_register+0x1aa/0x390
[    8.981512]  vcpufreq_emu_start+0x5d/0x80 [vcpufreq]
[    8.981523]  vcpufreq_init+0x1ce/0x230 [vcpufreq]
"""
# An int3 that memory holds ("cc <1f>"): not the QEMU fault
INT3_REAL_OURS = INT3_STALE_OURS.replace('0f <1f>', 'cc <1f>')
S3_612 = """\
4,900,40000000,-;WARNING: CPU: 2 PID: 24 at arch/x86/kernel/traps.c:1041 exc_debug_kernel+0x1a5/0x1c0
4,901,40000010,-;Modules linked in: sugov_inv(OE) vcpufreq(OE) msr
4,902,40000020,-;CPU: 2 UID: 0 PID: 24 Comm: cpuhp/2 Tainted: G           OE      6.12.118+deb12-amd64 #1
4,903,40000030,-;RIP: 0010:exc_debug_kernel+0x1a5/0x1c0
4,904,40000040,-;RSP: 0018:ffffb3c1c0143f08 EFLAGS: fff86f7a
"""
STALL = """\
[   45.000000] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:
[   45.000100] rcu: \t1-...!: (0 ticks this GP) idle=8bc/0/0x0 softirq=0/0 fqs=0
[   66.000000] rcu: rcu_sched kthread starved for 68000 jiffies! g-1175 f0x0 RCU_GP_WAIT_FQS(5) ->state=0x0 ->cpu=3
[   70.000000] watchdog: BUG: soft lockup - CPU#5 stuck for 22s! [migration/5:40]
"""
FRAME = """\
[   12.000000] BUG: unable to handle page fault for address: 0000000000000008
[   12.000100]  sugov_inv_update+0x1c/0x90 [sugov_inv]
"""


def lines(*parts):
    return ''.join(parts).split('\n')


class Rules(unittest.TestCase):
    def judge(self, status, console, kmsg):
        return triage.judge(status, lines(*console), lines(*kmsg) if kmsg is not None else None)

    def test_passed_guest_is_kept(self):
        self.assertEqual(self.judge(0, [CONSOLE_UP], [BOOT])[0], 'keep')
        self.assertEqual(self.judge(124, [CONSOLE_UP], [BOOT])[0], 'keep')

    def test_hang_after_warn_of_ours_not_retried(self):
        # The WARN is only in the kernel log: the console never saw it.
        v, why = self.judge(123, [CONSOLE_UP, 'vm: console silent 60 s, ended through QMP\n'],
                            [BOOT, LOAD, WARN_OURS])
        self.assertEqual(v, 'keep')
        self.assertIn('WARNING: CPU: 1', why)

    def test_hang_after_load_without_report_not_retried(self):
        v, why = self.judge(123, [CONSOLE_UP], [BOOT, LOAD])
        self.assertEqual(v, 'keep')
        self.assertIn('no kernel report', why)

    def test_crash_after_insmod_not_retried(self):
        v, _ = self.judge(125, [CONSOLE_UP, PANIC_TAINTED], [BOOT, LOAD])
        self.assertEqual(v, 'keep')

    def test_crash_after_insmod_lost_from_kmsg_not_retried(self):
        # The stream missed the taint line; the panic's "Tainted: ... O" says it.
        v, _ = self.judge(125, [CONSOLE_UP, PANIC_TAINTED], [BOOT])
        self.assertEqual(v, 'keep')

    def test_crash_before_insmod_retried(self):
        v, why = self.judge(125, [CONSOLE_UP, PANIC_CLEAN], [BOOT])
        self.assertEqual(v, 'retry')
        self.assertIn('before any module of ours', why)

    def test_missing_kmsg_after_command_start_not_retried(self):
        v, _ = self.judge(125, [CONSOLE_UP, PANIC_CLEAN], None)
        self.assertEqual(v, 'keep')

    def test_death_before_init_retried(self):
        v, _ = self.judge(125, ['[    0.000000] Linux version 6.12\n', INT3_612], None)
        self.assertEqual(v, 'retry')

    def test_int3_at_boot_is_known_fault(self):
        v, why = self.judge(125, ['[    0.000000] Linux version 6.12\n', INT3_612], [])
        self.assertEqual(v, 'retry')
        self.assertIn('tcg-int3-text-poke', why)

    def test_int3_after_load_is_known_fault(self):
        v, why = self.judge(125, [CONSOLE_UP, INT3_LOADED], [BOOT, LOAD])
        self.assertEqual((v, 'tcg-int3-text-poke' in why), ('retry', True))

    def test_stale_int3_retried_with_frames_of_ours(self):
        v, why = self.judge(125, [CONSOLE_UP, INT3_STALE_OURS], [BOOT, LOAD])
        self.assertEqual((v, 'tcg-int3-text-poke' in why), ('retry', True))
        # The same lines streamed to the kernel log too count once
        kmsg = ''.join(f'4,{500 + i},{int(float(l[1:13]) * 1e6)},-;{l[15:]}\n'
                       for i, l in enumerate(INT3_STALE_OURS.splitlines()))
        self.assertEqual(self.judge(125, [CONSOLE_UP, INT3_STALE_OURS], [BOOT, LOAD, kmsg])[0], 'retry')

    def test_int3_held_in_memory_not_retried(self):
        texts = [l[15:] for l in INT3_REAL_OURS.splitlines()]
        self.assertEqual(triage.int3_trapped_byte(texts), 'cc')
        self.assertEqual(self.judge(125, [CONSOLE_UP, INT3_REAL_OURS], [BOOT, LOAD])[0], 'keep')
        no_frame = INT3_STALE_HEAD.replace('0f <1f>', 'cc <1f>')
        self.assertEqual(self.judge(125, [CONSOLE_UP, no_frame], [BOOT, LOAD])[0], 'keep')

    def test_frame_of_ours_outside_stale_int3_not_retried(self):
        # A WARN of ours before it is the first report after the load
        self.assertEqual(self.judge(125, [CONSOLE_UP, FRAME, INT3_STALE_OURS], [BOOT, LOAD])[0], 'keep')

    def test_s3_eflags_after_load_is_known_fault(self):
        v, why = self.judge(125, [CONSOLE_UP], [BOOT, LOAD, S3_612])
        self.assertEqual((v, 'tcg-s3-eflags' in why), ('retry', True))

    def test_frame_of_ours_never_retried(self):
        self.assertEqual(self.judge(125, [CONSOLE_UP, INT3_LOADED, FRAME], [BOOT])[0], 'keep')
        self.assertEqual(self.judge(125, ['[    0.0] x\n'],
                                    ['4,1,1,-;x+0x1/0x2 [freq_invariance]\n'])[0], 'keep')

    def test_kunit_module_is_ours(self):
        k = '4,1,5,-;Modules linked in: sugov_inv_main_kunit(N) kunit\n4,2,6,-;BUG: kernel NULL pointer dereference\n'
        self.assertEqual(self.judge(125, [CONSOLE_UP], [BOOT, k])[0], 'keep')

    def test_boot_livelock_retried(self):
        v, why = self.judge(122, ['[    0.000000] Linux version 6.1\n', STALL], [BOOT.split('13,369')[0]])
        self.assertEqual((v, 'boot-livelock' in why), ('retry', True))

    def test_stall_after_load_not_retried(self):
        v, _ = self.judge(123, [CONSOLE_UP, STALL], [BOOT, LOAD])
        self.assertEqual(v, 'keep')

    def test_other_report_after_load_wins_over_later_fault(self):
        self.assertEqual(self.judge(125, [CONSOLE_UP, INT3_LOADED], [BOOT, LOAD, WARN_OURS])[0], 'keep')


class BootStall(unittest.TestCase):
    def test_lines(self):
        for l in STALL.splitlines():
            if 'rcu: \t' not in l:
                self.assertTrue(triage.BOOT_STALL.search(l), l)
        for l in ('rcu: INFO: rcu_preempt self-detected stall on CPU',
                  '6,1,2,-;rcu: rcu_preempt kthread timer wakeup didn\'t happen for 2000 jiffies'):
            self.assertTrue(triage.BOOT_STALL.search(l), l)
        for l in ('rcu: Hierarchical RCU implementation.', 'watchdog: Watchdog detected hard LOCKUP on cpu 1' '',
                  'NMI backtrace for cpu 3', 'sysrq: Show backtrace of all active CPUs'):
            self.assertFalse(triage.BOOT_STALL.search(l), l)


class BootWatchOnLogs(unittest.TestCase):
    """hang-watchdog.py's BootWatch on logs written as a guest writes them."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.console = os.path.join(self.dir.name, 'console')
        self.kmsg = os.path.join(self.dir.name, 'kmsg')
        for p in (self.console, self.kmsg):
            open(p, 'w').close()
        self.w = hang_watchdog.BootWatch([self.console, self.kmsg])

    def tearDown(self):
        self.dir.cleanup()

    def append(self, path, text):
        with open(path, 'a', encoding='utf-8') as f:
            f.write(text)

    def test_stall_on_console_before_marker(self):
        self.append(self.console, '[    0.000000] Linux version 6.1\r\n')
        self.assertIsNone(self.w.poll())
        self.append(self.console, STALL[:40])          # half a line
        self.assertIsNone(self.w.poll())
        self.append(self.console, STALL[40:])
        self.assertIn('rcu_sched detected stalls', self.w.poll())
        self.assertFalse(self.w.started)

    def test_stall_in_kmsg_before_marker(self):
        self.append(self.kmsg, BOOT.split('13,369')[0] +
                    '4,310,66000000,-;rcu: rcu_sched kthread starved for 68000 jiffies!\n')
        self.assertIn('kthread starved', self.w.poll())

    def test_stall_after_marker_ignored(self):
        self.append(self.console, CONSOLE_UP)
        self.assertIsNone(self.w.poll())
        self.append(self.console, STALL)
        self.append(self.kmsg, BOOT + '4,400,90000000,-;watchdog: BUG: soft lockup - CPU#1 stuck for 22s!\n')
        self.assertIsNone(self.w.poll())
        self.assertTrue(self.w.started)

    def test_marker_later_in_same_poll_wins(self):
        self.append(self.kmsg, '4,300,6000000,-;watchdog: BUG: soft lockup - CPU#1 stuck for 22s!\n'
                    '13,369,7346668,-;sugov-vm: command starts\n')
        self.assertIsNone(self.w.poll())


if __name__ == '__main__':
    sys.exit(ktap_unittest.main(__name__))
