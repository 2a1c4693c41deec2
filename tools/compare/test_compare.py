#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of tools/compare (stdlib unittest), printed as KTAP.

The statistics are checked against values computed by hand (and, for
the (x%) column, against seed 001's own numbers); run-one.sh runs here
on a fake sysfs tree, so the runner's governor switching, restore and
energy reads are tested without root or a cpufreq driver.

Usage: tools/compare/test_compare.py [-v]   (exit 0 when all pass)
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_core as cc  # noqa: E402


def approx(test, got, want, tol=1e-4):
    test.assertAlmostEqual(got, want, delta=tol, msg=f'{got} != {want}')


class Stats(unittest.TestCase):
    # xs = 1, 2, 4 by hand:
    #   amean = 7/3 = 2.333333; sample sd = sqrt(4.666667 / 2) = 1.527525
    #   CoeffVar(amean) = 1.527525 / 2.333333 = 65.4654 %
    #   hmean = 3 / (1 + 1/2 + 1/4) = 1.714286
    #   sum (1/x - 1/H)^2 = 0.416667^2 + 0.083333^2 + 0.333333^2 = 0.291667
    #   sd(hmean) = sqrt(0.291667 * 1.714286^4 / 3) = 0.916324
    #   CoeffVar(hmean) = 0.916324 / 1.714286 = 53.4522 %
    xs = [1.0, 2.0, 4.0]

    def test_amean(self):
        approx(self, cc.amean(self.xs), 2.333333)

    def test_hmean(self):
        approx(self, cc.hmean(self.xs), 1.714286)

    def test_hmean_nonpositive_is_nan(self):
        self.assertTrue(cc.hmean([1.0, 0.0]) != cc.hmean([1.0, 0.0]))

    def test_stddev_amean(self):
        approx(self, cc.stddev(self.xs, 'amean'), 1.527525)

    def test_stddev_hmean(self):
        approx(self, cc.stddev(self.xs, 'hmean'), 0.916324)

    def test_coeffvar_amean(self):
        approx(self, cc.coeffvar(self.xs, 'amean'), 65.4654, 1e-3)

    def test_coeffvar_hmean(self):
        approx(self, cc.coeffvar(self.xs, 'hmean'), 53.4522, 1e-3)

    def test_coeffvar_single_run_is_zero(self):
        self.assertEqual(cc.coeffvar([5.0], 'amean'), 0.0)

    def test_pct_higher_matches_seed001(self):
        # tbench 1 client: ondemand 427.19, perfgov 778.35 -> 82.20 %
        approx(self, cc.pct_diff(778.35, 427.19, True), 82.20, 0.005)

    def test_pct_lower_matches_seed001(self):
        # dbench 1 client: ondemand 98.79, perfgov 83.36 -> 15.62 %
        approx(self, cc.pct_diff(83.36, 98.79, False), 15.62, 0.005)

    def test_significant(self):
        # base 10 +- 0.1, new 11 +- 0.1: |1| / (1.96 * 0.2) = 2.55 > 1
        self.assertTrue(cc.significant(10.0, 0.1, 11.0, 0.1))

    def test_not_significant(self):
        # 0.3 / 0.392 = 0.77 < 1
        self.assertFalse(cc.significant(10.0, 0.1, 10.3, 0.1))

    def test_significance_edge(self):
        # just above and below the sum of the two interval halves
        half = cc.Z95 * 0.2
        self.assertTrue(cc.significant(10.0, 0.1, 10.0 + half * 1.01, 0.1))
        self.assertFalse(cc.significant(10.0, 0.1, 10.0 + half * 0.99, 0.1))

    def test_significance_zero_spread(self):
        # no spread: the difference itself is compared with 1 (Stat.pm)
        self.assertTrue(cc.significant(10.0, 0.0, 11.5, 0.0))
        self.assertFalse(cc.significant(10.0, 0.0, 10.5, 0.0))

    def test_single_run_never_significant(self):
        self.assertFalse(cc.significant(10.0, float('nan'), 20.0, float('nan')))

    def test_geomean(self):
        approx(self, cc.geomean([0.5, 2.0, 4.0]), 4 ** (1 / 3), 1e-9)


class Energy(unittest.TestCase):
    def test_no_wrap(self):
        self.assertEqual(cc.energy_delta_uj(1000, 4000, 10 ** 9), 3000)

    def test_wrap(self):
        # 1000 uJ before the top, 500 after 0: 1500 uJ
        self.assertEqual(cc.energy_delta_uj(262143328850 - 1000, 500, 262143328850), 1500)

    def test_result_sums_zones_and_wraps(self):
        w = cc.parse_workload('forkexec', {'seconds': 1, 'loops': 1, 'cpu_ops': 1, 'forkexec': 3})
        raw = {'status': 'ok', 'elapsed_ns': '2000000000',
               'energy': 'intel-rapl:0=999000:1000:1000000;intel-rapl:1=10:3000010:9999999',
               'tis': '1500000:100,2250000:50', 'out': [], 'freq': []}
        rec = cc.finish_result({'id': 0, 'workload': 'forkexec'}, raw, w)
        approx(self, rec['energy_j'], (2000 + 3000000) / 1e6, 1e-12)
        approx(self, rec['power_w'], 3.002 / 2, 1e-12)
        self.assertEqual(rec['time_in_state_ms'], {'1500000': 1000, '2250000': 500})
        approx(self, rec['figure'], 2.0, 1e-12)


def result(rid, config, workload, op, figure, energy_j, elapsed_s=10.0):
    return {'id': rid, 'rep': 0, 'config': config, 'workload': workload, 'op': op,
            'status': 'ok', 'figure': figure, 'energy_j': energy_j, 'elapsed_s': elapsed_s,
            'power_w': energy_j / elapsed_s, 'freq_samples': [], 'time_in_state_ms': {}}


class Ratios(unittest.TestCase):
    lengths = {'seconds': 1, 'loops': 1, 'cpu_ops': 1, 'forkexec': 1}

    def test_perf_and_perf_per_watt_lower(self):
        # dbench-like, lower is better: 91 vs 100 at 159.75 W vs 150 W:
        # perf 0.91; perf/W = (1 / 0.91) / (159.75 / 150) = 1.031818
        w = cc.parse_workload('dbench:1', self.lengths)
        rs = [result(i, 'ondemand', 'dbench', '1', 100.0 + d, 1500.0)
              for i, d in enumerate((-0.1, 0, 0.1))]
        rs += [result(3 + i, 'performance', 'dbench', '1', 91.0 + d, 1597.5)
               for i, d in enumerate((-0.1, 0, 0.1))]
        rt = cc.ratios(rs, [w], ['ondemand', 'performance'], 'ondemand')
        perf, ptilde, ppw, wtilde, watts = rt[('dbench', 'performance')]
        approx(self, perf, 0.91, 1e-4)
        approx(self, ppw, 1.031818, 1e-4)
        approx(self, watts, 159.75, 1e-9)
        self.assertFalse(ptilde)
        self.assertFalse(wtilde)

    def test_perf_per_watt_higher_and_geomean_over_ops(self):
        # tbench-like: ratios 2 and 0.5 over two client counts -> 1.0;
        # power 2x -> perf/W 0.5
        w = cc.parse_workload('tbench:1,2', self.lengths)
        rs = [result(0, 'a', 'tbench', '1', 100.0, 100.0), result(1, 'a', 'tbench', '2', 100.0, 100.0),
              result(2, 'b', 'tbench', '1', 200.0, 200.0), result(3, 'b', 'tbench', '2', 50.0, 200.0)]
        rt = cc.ratios(rs, [w], ['a', 'b'], 'a')
        approx(self, rt[('tbench', 'b')][0], 1.0, 1e-12)
        approx(self, rt[('tbench', 'b')][2], 0.5, 1e-12)

    def test_tilde_within_noise(self):
        w = cc.parse_workload('hackbench:1', self.lengths)
        rs = [result(i, 'a', 'hackbench', '1', 1.0 + 0.1 * (i % 3), 100.0) for i in range(3)]
        rs += [result(3 + i, 'b', 'hackbench', '1', 1.01 + 0.1 * (i % 3), 100.0 + i) for i in range(3)]
        rt = cc.ratios(rs, [w], ['a', 'b'], 'a')
        self.assertTrue(rt[('hackbench', 'b')][1])
        self.assertTrue(rt[('hackbench', 'b')][3])
        self.assertEqual(cc.fmt_ratio(rt[('hackbench', 'b')][0], rt[('hackbench', 'b')][1]), '~')

    def test_no_tilde_from_single_runs(self):
        # One run a side: no interval, so a ratio is printed, never ~.
        w = cc.parse_workload('hackbench:1', self.lengths)
        rs = [result(0, 'a', 'hackbench', '1', 1.0, 100.0),
              result(1, 'b', 'hackbench', '1', 1.001, 100.0)]
        rt = cc.ratios(rs, [w], ['a', 'b'], 'a')
        self.assertFalse(rt[('hackbench', 'b')][1])
        self.assertFalse(rt[('hackbench', 'b')][3])


class Parsing(unittest.TestCase):
    lengths = {'seconds': 1, 'loops': 1, 'cpu_ops': 1, 'forkexec': 1}

    def test_tbench(self):
        w = cc.parse_workload('tbench:2', self.lengths)
        out = ['   2     12   21.3 MB/sec  execute   1 sec  latency 3.1 ms',
               'Throughput 21.3626 MB/sec  2 clients  2 procs  max_latency=9.2 ms']
        approx(self, cc.extract_figure(w, out, 3.0), 21.3626, 1e-9)

    def test_dbench_weighted_latency(self):
        # (10 * 0.5 + 30 * 1.0) / 40 = 0.875 ms
        w = cc.parse_workload('dbench:1', self.lengths)
        out = [' Operation      Count    AvgLat    MaxLat', ' ------------',
               ' NTCreateX         10     0.500     1.242', ' ReadX             30     1.000     2.0',
               'Throughput 428.834 MB/sec  1 clients  1 procs  max_latency=1.429 ms']
        approx(self, cc.extract_figure(w, out, 3.0), 0.875, 1e-9)

    def test_hackbench(self):
        w = cc.parse_workload('hackbench:1', self.lengths)
        out = ['Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)',
               'Each sender will pass 20 messages of 100 bytes', 'Time: 0.665']
        approx(self, cc.extract_figure(w, out, 1.0), 0.665, 1e-9)

    def test_burst_figure_is_elapsed_minus_gaps(self):
        w = cc.parse_workload('burst:50', dict(self.lengths, bursts=20))
        self.assertEqual(w.ops, [('50', ['50', '20'])])
        approx(self, cc.extract_figure(w, ['burst 20 x gap 50 ms done'], 3.0), 2.0, 1e-12)
        self.assertIsNone(cc.extract_figure(w, ['killed'], 3.0))

    def test_rtapp_figures(self):
        # periodic and ramp: the one task's busy ms per activation;
        # pingpong: ping's period (the round trip); none without "done".
        one = ['rtapp task periodic loops 100 busy_ms 3.3912 period_ms 16.0010 slack_ms 12.6 missed 0',
               'rtapp periodic-20 done']
        two = ['rtapp task ping loops 250 busy_ms 2.2 period_ms 4.5120 slack_ms 0.0 missed 0',
               'rtapp task pong loops 250 busy_ms 2.1 period_ms 4.5118 slack_ms 0.0 missed 0',
               'rtapp pingpong done']
        w = cc.parse_workload('periodic:20', self.lengths)
        self.assertEqual(w.ops, [('20', ['20'])])
        approx(self, cc.extract_figure(w, one, 9.0), 3.3912, 1e-12)
        self.assertIsNone(cc.extract_figure(w, one[:1], 9.0))
        self.assertIsNone(cc.extract_figure(w, two, 9.0))
        self.assertEqual([o[0] for o in cc.parse_workload('periodic', self.lengths).ops],
                         ['20', '50', '80'])
        w = cc.parse_workload('pingpong', self.lengths)
        self.assertEqual(w.ops, [('', [])])
        approx(self, cc.extract_figure(w, two, 9.0), 4.512, 1e-12)

    def test_cmd_pattern_and_elapsed(self):
        w = cc.parse_cmd('x', 'true', ('score ([0-9.]+)', 'higher'))
        self.assertEqual(cc.extract_figure(w, ['score 1', 'score 2.5'], 9.0), 2.5)
        self.assertIsNone(cc.extract_figure(w, ['nothing'], 9.0))
        w = cc.parse_cmd('y', 'true', None)
        self.assertEqual(cc.extract_figure(w, ['x'], 9.0), 9.0)
        self.assertFalse(w.higher)

    def test_lines(self):
        r = cc.parse_lines(['COMPARE_OUT 3 Time: 1.5', 'noise', 'COMPARE_FREQ 3 0:1500000,200:2250000',
                            'COMPARE_RESULT 3 status=ok rc=0 elapsed_ns=5 energy=- tis=-\r\n'])
        self.assertEqual(r[3]['out'], ['Time: 1.5'])
        self.assertEqual(r[3]['freq'], [(0, 1500000), (200, 2250000)])
        self.assertEqual(r[3]['status'], 'ok')
        self.assertEqual(r[3]['tis'], '-')


class Plan(unittest.TestCase):
    lengths = {'seconds': 1, 'loops': 1, 'cpu_ops': 1, 'forkexec': 1}

    def plan(self, seed, reps=4):
        cfgs = [cc.Config(s) for s in ('ondemand', 'performance', 'sugov_inv:max_P', 'schedutil')]
        wls = [cc.parse_workload('tbench:1,2', self.lengths), cc.parse_workload('forkexec', self.lengths)]
        return cc.make_plan(cfgs, wls, reps, seed)

    def test_same_seed_same_plan(self):
        self.assertEqual(self.plan(7), self.plan(7))

    def test_every_pair_once_per_rep(self):
        p = self.plan(7)
        self.assertEqual(len(p), 4 * 3 * 4)
        for rep in range(4):
            pairs = sorted((r['config'], r['workload'], r['op']) for r in p if r['rep'] == rep)
            self.assertEqual(len(pairs), 12)
            self.assertEqual(len(set(pairs)), 12)

    def test_order_is_the_seeded_permutation(self):
        # Each repetition's configuration order is random.Random(seed)'s
        # shuffle of the configuration list, drawn once per repetition.
        import random
        rng = random.Random(11)
        names = ['ondemand', 'performance', 'sugov_inv:max_P', 'schedutil']
        p = self.plan(11)
        for rep in range(4):
            order = list(range(4))
            rng.shuffle(order)
            seen = []
            for r in p:
                if r['rep'] == rep and r['config'] not in seen:
                    seen.append(r['config'])
            self.assertEqual(seen, [names[i] for i in order])

    def test_orders_differ_between_reps(self):
        p = self.plan(3, reps=6)
        orders = {tuple(dict.fromkeys(r['config'] for r in p if r['rep'] == k)) for k in range(6)}
        self.assertGreater(len(orders), 1)

    def test_plan_line_quotes(self):
        w = cc.parse_cmd('u', "echo 'a b'; true", None)
        p = cc.make_plan([cc.Config('ondemand')], [w], 1, 0)
        self.assertEqual(cc.plan_line(p[0]), "0 ondemand cmd 'echo '\"'\"'a b'\"'\"'; true'")


class BadInput(unittest.TestCase):
    """Each refused before anything runs: exit 2, one line on stderr."""

    def main(self, *argv, env=None):
        err = io.StringIO()
        old = dict(os.environ)
        os.environ.update(env or {})
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = cc.main(list(argv))
        finally:
            os.environ.clear()
            os.environ.update(old)
        return rc, err.getvalue()

    def check(self, *argv, env=None, want=None):
        rc, err = self.main(*argv, env=env)
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        if want:
            self.assertIn(want, err)

    def test_unknown_governor(self):
        self.check('--guest', 'epyc-7742', '-c', 'turbo', want='unknown governor')

    def test_unknown_policy(self):
        self.check('--guest', 'epyc-7742', '-c', 'sugov_inv:max_Q', want='freq_max policy')

    def test_unknown_tunable(self):
        self.check('--guest', 'epyc-7742', '-c', 'sugov_inv,speed=9', want='no tunable')

    def test_unknown_preset(self):
        self.check('--guest', 'epyc-7743', want='unknown preset')

    def test_unknown_workload(self):
        self.check('--guest', 'epyc-7742', '-w', 'kernbench', want='workload kernbench')

    def test_baseline_not_a_config(self):
        self.check('--guest', 'epyc-7742', '-c', 'schedutil', '-b', 'ondemand', want='baseline')

    def test_rtapp_profile_missing(self):
        self.check('--guest', 'epyc-7742', '-w', 'periodic:30', want='no rt-app profile for a 30 %')

    def test_rtapp_fixed_kinds_take_no_sweep(self):
        self.check('--guest', 'epyc-7742', '-w', 'ramp:2', want='ramp has no parameter')

    def test_pingpong_needs_two_cpus(self):
        self.check('--guest', 'epyc-7742', '-w', 'pingpong', want='--smp 2')

    def test_report_not_an_output_dir(self):
        with tempfile.TemporaryDirectory() as d:
            self.check('--report', d, want='plan.json')

    def fake_sysfs(self, root, zone=True, driver='acpi-cpufreq'):
        for n in (0, 1):
            p = os.path.join(root, f'devices/system/cpu/cpufreq/policy{n}')
            os.makedirs(os.path.join(p, 'stats'))
            for f, v in (('scaling_governor', 'schedutil'), ('scaling_driver', driver),
                         ('scaling_cur_freq', '2250000'),
                         ('scaling_available_governors', 'ondemand performance schedutil sugov_inv'),
                         ('stats/time_in_state', '2250000 100\n1500000 50')):
                with open(os.path.join(p, f), 'w') as fh:
                    fh.write(v + '\n')
            os.makedirs(os.path.join(p, 'sugov_inv'))
            with open(os.path.join(p, 'sugov_inv/freq_max_policy'), 'w') as fh:
                fh.write('max_boost\n')
        if zone:
            z = os.path.join(root, 'class/powercap/intel-rapl:0')
            os.makedirs(z)
            with open(os.path.join(z, 'energy_uj'), 'w') as fh:
                fh.write('999990\n')
            with open(os.path.join(z, 'max_energy_range_uj'), 'w') as fh:
                fh.write('1000000\n')

    def test_zone_absent(self):
        with tempfile.TemporaryDirectory() as d:
            self.fake_sysfs(d, zone=False)
            self.check('-c', 'ondemand', '-w', 'forkexec', env={'COMPARE_SYSFS': d},
                       want='intel-rapl:0/energy_uj')

    def test_workload_not_installed(self):
        with tempfile.TemporaryDirectory() as d:
            self.fake_sysfs(d)
            self.check('-c', 'ondemand', '-w', 'tbench', env={'COMPARE_SYSFS': d, 'PATH': d},
                       want='tbench is not installed')

    def test_driver_takes_no_governor(self):
        with tempfile.TemporaryDirectory() as d:
            self.fake_sysfs(d, driver='amd-pstate-epp')
            self.check('-c', 'ondemand', '-w', 'forkexec', env={'COMPARE_SYSFS': d},
                       want='takes no governor')

    def test_governor_missing_on_host(self):
        with tempfile.TemporaryDirectory() as d:
            self.fake_sysfs(d)
            self.check('-c', 'conservative', '-w', 'forkexec', env={'COMPARE_SYSFS': d},
                       want='not available')


class Runner(unittest.TestCase):
    """run-one.sh on a fake sysfs tree, with the host's sh (dash)."""

    shell = ['sh']

    def setUp(self):
        self.d = tempfile.mkdtemp()
        BadInput.fake_sysfs(None, self.d)

    def tearDown(self):
        shutil.rmtree(self.d)

    def run_one(self, config, *wl):
        env = dict(os.environ, SYSFS=self.d, SETTLE_S='0', SAMPLE_S='0', COMPARE_TMP=self.d)
        return subprocess.run(self.shell + [os.path.join(HERE, 'run-one.sh'), '5', config] + list(wl),
                              capture_output=True, text=True, env=env, check=False)

    def read(self, rel):
        with open(os.path.join(self.d, rel)) as f:
            return f.read().strip()

    def test_selects_measures_and_restores(self):
        pol = 'devices/system/cpu/cpufreq/policy1'
        zone = 'class/powercap/intel-rapl:0/energy_uj'
        cmd = (f'cat $SYSFS/{pol}/scaling_governor $SYSFS/{pol}/sugov_inv/freq_max_policy; '
               f'echo 15 > $SYSFS/{zone}; echo "2250000 300" > $SYSFS/{pol}/stats/time_in_state')
        r = self.run_one('sugov_inv:max_P', 'cmd', cmd)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn('COMPARE_OUT 5 sugov_inv', lines)
        self.assertIn('COMPARE_OUT 5 max_P', lines)
        res = cc.parse_lines(lines)[5]
        self.assertEqual(res['energy'], 'intel-rapl:0=999990:15:1000000')
        self.assertEqual(res['tis'], '2250000:200')
        rec = cc.finish_result({'id': 5, 'workload': 'u'}, res, cc.parse_cmd('u', cmd, None))
        approx(self, rec['energy_j'], 25e-6, 1e-12)   # wrapped
        self.assertEqual(self.read(f'{pol}/scaling_governor'), 'schedutil')

    def test_refused_tunable_exits_2_and_restores(self):
        # A directory in the tunable's place refuses the write, even
        # for root.
        pol = 'devices/system/cpu/cpufreq/policy0'
        f = os.path.join(self.d, pol, 'sugov_inv/freq_max_policy')
        os.remove(f)
        os.mkdir(f)
        r = self.run_one('sugov_inv:max_P', 'cmd', 'true')
        self.assertEqual(r.returncode, 2)
        self.assertIn('refused freq_max_policy=max_P', r.stderr)
        self.assertNotIn('COMPARE_RESULT', r.stdout)
        self.assertEqual(self.read(f'{pol}/scaling_governor'), 'schedutil')

    def test_bad_workload_args(self):
        r = self.run_one('ondemand', 'hackbench', 'x', '1')
        self.assertEqual(r.returncode, 2)
        self.assertEqual(self.read('devices/system/cpu/cpufreq/policy0/scaling_governor'), 'schedutil')

    def test_failed_workload(self):
        r = self.run_one('ondemand', 'cmd', 'exit 3')
        self.assertEqual(r.returncode, 1)
        self.assertIn('status=failed rc=3', r.stdout)

    @unittest.skipUnless(shutil.which('rt-app'), 'no rt-app on this host')
    def test_rtapp_calibrates_once_under_performance(self):
        # The calibration selects performance on every policy first; the
        # configuration and the original governor follow as for any run.
        pol = 'devices/system/cpu/cpufreq/policy0'
        cache = os.path.join(self.d, 'compare-rtapp-ns-per-loop')
        r = self.run_one('ondemand', 'periodic', '20')
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(cache) as f:
            ns = int(f.read())
        self.assertGreater(ns, 0)
        self.assertIn(f'COMPARE_OUT 5 rtapp calibration {ns} ns per loop', r.stdout.splitlines())
        fig = cc.extract_figure(cc.parse_workload('periodic:20', {}), [
            ln.split(' ', 2)[2] for ln in r.stdout.splitlines() if ln.startswith('COMPARE_OUT 5 ')], 1.0)
        self.assertIsNotNone(fig, r.stdout)
        self.assertEqual(self.read(f'{pol}/scaling_governor'), 'schedutil')
        # A second run takes the kept value.
        with open(cache, 'w') as f:
            f.write('123456\n')
        r = self.run_one('ondemand', 'periodic', '20')
        self.assertIn('COMPARE_OUT 5 rtapp calibration 123456 ns per loop', r.stdout.splitlines())

    def test_rtapp_bad_args(self):
        for wl in (['periodic', '2x'], ['periodic', '33'], ['ramp', '1']):
            r = self.run_one('ondemand', *wl)
            self.assertEqual(r.returncode, 2, wl)
            self.assertEqual(self.read('devices/system/cpu/cpufreq/policy0/scaling_governor'),
                             'schedutil')


@unittest.skipUnless(shutil.which('busybox'), 'no busybox on this host')
class RunnerBusybox(Runner):
    """The same with busybox ash, the guest's shell."""

    shell = ['busybox', 'sh']


class Report(unittest.TestCase):
    def test_render_and_rerender_interrupted(self):
        lengths = {'seconds': 1, 'loops': 1, 'cpu_ops': 1, 'forkexec': 1}
        w = cc.parse_workload('hackbench:1', lengths)
        cfgs = ['ondemand', 'performance']
        plan = cc.make_plan([cc.Config(c) for c in cfgs], [w], 3, 1)
        meta = {'configs': cfgs, 'baseline': 'ondemand', 'workloads': [w.to_json()], 'reps': 3,
                'seed': 1, 'plan': plan}
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'plan.json'), 'w') as f:
                json.dump(meta, f)
            with open(os.path.join(d, 'results.jsonl'), 'w') as f:
                for r in plan[:5]:
                    base = r['config'] == 'ondemand'
                    fig = (2.0 if base else 1.0) + 0.01 * r['rep']
                    f.write(json.dumps(result(r['id'], r['config'], 'hackbench', '1', fig,
                                              100.0 if base else 150.0)) + '\n')
                f.write('{"id": 5, "cut by an inter')
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(cc.main(['--report', d]), 0)
            text = out.getvalue()
            for want in ('PERFORMANCE RATIOS', 'PERFORMANCE-PER-WATT RATIOS',
                         'POWER CONSUMPTION', 'runs : 5 measured of 6 planned', '*  50.00%*'):
                self.assertIn(want, text)
            self.assertTrue(os.path.exists(os.path.join(d, 'results.csv')))


    def test_diff_of_two_runs(self):
        # performance ratio 1.25 in one run, 1.25 * 1.02 in the other
        lengths = {'seconds': 1, 'loops': 1, 'cpu_ops': 1, 'forkexec': 1}
        w = cc.parse_workload('tbench:1', lengths)
        meta = {'configs': ['a', 'b'], 'baseline': 'a', 'workloads': [w.to_json()], 'plan': []}
        dirs = []
        with tempfile.TemporaryDirectory() as top:
            for k, fig in ((1, 125.0), (2, 127.5)):
                d = os.path.join(top, str(k))
                os.mkdir(d)
                with open(os.path.join(d, 'plan.json'), 'w') as f:
                    json.dump(meta, f)
                with open(os.path.join(d, 'results.jsonl'), 'w') as f:
                    f.write(json.dumps(result(0, 'a', 'tbench', '1', 100.0, 100.0)) + '\n')
                    f.write(json.dumps(result(1, 'b', 'tbench', '1', fig, 100.0)) + '\n')
                dirs.append(d)
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(cc.main(['--diff'] + dirs), 0)
        self.assertIn('performance ratios 2.00 %', out.getvalue())


class Ktap(unittest.TextTestResult):
    """Prints one KTAP line per test."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.n = 0

    def line(self, test, ok, directive=''):
        self.n += 1
        name = f'{type(test).__name__}.{test._testMethodName}'
        print(f'{"ok" if ok else "not ok"} {self.n} {name}{directive}', flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.line(test, False)
        print('# ' + self._exc_info_to_string(err, test).replace('\n', '\n# '))

    def addError(self, test, err):
        super().addError(test, err)
        self.line(test, False)
        print('# ' + self._exc_info_to_string(err, test).replace('\n', '\n# '))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.line(test, True, f' # SKIP {reason}')


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    print('KTAP version 1')
    print(f'1..{suite.countTestCases()}')
    res = unittest.TextTestRunner(stream=io.StringIO(), resultclass=Ktap).run(suite)
    return 0 if res.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main())
