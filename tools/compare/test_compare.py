#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of tools/compare (stdlib unittest), printed as KTAP.

The statistics are checked against values computed by hand (and, for the
(x%) column, against the EPYC 7742 tables of Linux commit 976df7e5730e);
run-one.sh and the whole tool run here on a fake sysfs tree, so governor
switching, putting the machine back (after a run, a signal, a hung
workload, an unwritable results directory) and the energy reads are
tested without a cpufreq driver.

Usage: tools/compare/test_compare.py [-v]   (exit 0 when all pass)
"""

import atexit
import contextlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Any, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import ktap_unittest  # noqa: E402
import compare_cli as cli  # noqa: E402
import compare_plan as cplan  # noqa: E402
import compare_plot as cplot  # noqa: E402
import compare_report as creport  # noqa: E402
import compare_stats as st  # noqa: E402
from compare_host import MachineState  # noqa: E402
from compare_model import (Config, Lengths, Meta, PlannedRun, RunResult, finish_result,  # noqa: E402
                           parse_cmd, parse_energy, parse_lines, parse_workload,
                           extract_figure)

COMPARE = os.path.join(HERE, 'compare')
LEN = Lengths(seconds=1, loops=1, cpu_ops=1, forkexec=1, bursts=1)
NOBODY = 65534


def approx(test: unittest.TestCase, got: Optional[float], want: float, tol: float = 1e-4) -> None:
    test.assertIsNotNone(got)
    assert got is not None
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

    def test_amean(self) -> None:
        approx(self, st.amean(self.xs), 2.333333)

    def test_hmean(self) -> None:
        approx(self, st.hmean(self.xs), 1.714286)

    def test_hmean_nonpositive_is_nan(self) -> None:
        self.assertTrue(math.isnan(st.hmean([1.0, 0.0])))

    def test_stddev_amean(self) -> None:
        approx(self, st.stddev(self.xs, False), 1.527525)

    def test_stddev_hmean(self) -> None:
        approx(self, st.stddev(self.xs, True), 0.916324)

    def test_coeffvar_amean(self) -> None:
        approx(self, st.coeffvar(self.xs, False), 65.4654, 1e-3)

    def test_coeffvar_hmean(self) -> None:
        approx(self, st.coeffvar(self.xs, True), 53.4522, 1e-3)

    def test_coeffvar_single_run_is_zero(self) -> None:
        self.assertEqual(st.coeffvar([5.0], False), 0.0)

    def test_pct_higher_matches_published(self) -> None:
        # tbench 1 client: ondemand 427.19, perfgov 778.35 -> 82.20 %
        approx(self, st.pct_diff(778.35, 427.19, True), 82.20, 0.005)

    def test_pct_lower_matches_published(self) -> None:
        # dbench 1 client: ondemand 98.79, perfgov 83.36 -> 15.62 %
        approx(self, st.pct_diff(83.36, 98.79, False), 15.62, 0.005)

    def test_significant(self) -> None:
        # base 10 +- 0.1, new 11 +- 0.1: |1| / (1.96 * 0.2) = 2.55 > 1
        self.assertTrue(st.significant(10.0, 0.1, 11.0, 0.1))

    def test_not_significant(self) -> None:
        # 0.3 / 0.392 = 0.77 < 1
        self.assertFalse(st.significant(10.0, 0.1, 10.3, 0.1))

    def test_significance_edge(self) -> None:
        half = st.Z95 * 0.2
        self.assertTrue(st.significant(10.0, 0.1, 10.0 + half * 1.01, 0.1))
        self.assertFalse(st.significant(10.0, 0.1, 10.0 + half * 0.99, 0.1))

    def test_significance_zero_spread(self) -> None:
        # no spread: the difference itself is compared with 1 (Stat.pm)
        self.assertTrue(st.significant(10.0, 0.0, 11.5, 0.0))
        self.assertFalse(st.significant(10.0, 0.0, 10.5, 0.0))

    def test_single_run_never_significant(self) -> None:
        self.assertFalse(st.significant(10.0, math.nan, 20.0, math.nan))

    def test_geomean(self) -> None:
        approx(self, st.geomean([0.5, 2.0, 4.0]), 4 ** (1 / 3), 1e-9)

    def test_t_quantiles_match_the_table(self) -> None:
        # Student's t, 0.975 quantile (any statistics table)
        for df, want in ((1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764),
                         (10, 2.2281), (30, 2.0423), (1000, 1.9623)):
            approx(self, st.t_quantile(0.975, df), want, 1e-4)

    def test_t_quantile_between_integers(self) -> None:
        t = st.t_quantile(0.975, 3.5)
        self.assertTrue(2.7764 < t < 3.1824, t)
        approx(self, st.t_cdf(t, 3.5), 0.975, 1e-9)

    def test_log_mean_amean_and_hmean(self) -> None:
        # amean of 9, 10, 11: 10, se 1/sqrt(3); (se/m)^2 = 1/300
        lm = st.log_mean([9.0, 10.0, 11.0], False)
        assert lm is not None
        approx(self, lm.log, math.log(10.0), 1e-12)
        approx(self, lm.var, 1 / 300, 1e-12)
        self.assertEqual(lm.df, 2)
        # hmean of 1, 2, 4 = 12/7; 1/x = 1, .5, .25: sample sd 0.381881;
        # se(H) = H^2 0.381881 / sqrt(3) = 0.647917; (se/H)^2 = 0.142857
        lm = st.log_mean([1.0, 2.0, 4.0], True)
        assert lm is not None
        approx(self, lm.log, math.log(12 / 7), 1e-12)
        approx(self, lm.var, 0.142857, 1e-5)

    def test_ratio_interval_by_hand(self) -> None:
        # base 9, 10, 11 and new 18, 20, 22: ratio 2; each side's
        # relative variance (se/m)^2 = 1/300, sum 1/150, se 0.0816497;
        # Welch df = (2/300)^2 / (2 (1/300)^2 / 2) = 4, t = 2.776445:
        # 2 exp(-+0.226696) = [1.594326, 2.508896]
        b, n = st.log_mean([9.0, 10.0, 11.0], False), st.log_mean([18.0, 20.0, 22.0], False)
        assert b and n
        ci = st.ratio_interval([(b, n)])
        assert ci is not None
        approx(self, ci.low, 1.594326, 1e-5)
        approx(self, ci.high, 2.508896, 1e-5)

    def test_ratio_interval_geomean_of_two_points(self) -> None:
        # The same point twice: centre 2, variance (4 x 1/300) / 2^2 =
        # 1/300, se 0.0577350; df (1/300)^2 / (4 (1/1200)^2 / 2) = 8,
        # t 2.306004: 2 exp(-+0.133137) = [1.750690, 2.284813]
        b, n = st.log_mean([9.0, 10.0, 11.0], False), st.log_mean([18.0, 20.0, 22.0], False)
        assert b and n
        ci = st.ratio_interval([(b, n), (b, n)])
        assert ci is not None
        approx(self, ci.low, 1.750690, 1e-5)
        approx(self, ci.high, 2.284813, 1e-5)


class Energy(unittest.TestCase):
    def test_no_wrap(self) -> None:
        self.assertEqual(st.energy_delta_uj(1000, 4000, 10 ** 9), 3000)

    def test_wrap(self) -> None:
        # 1000 uJ before the top, 500 after 0: 1500 uJ
        self.assertEqual(st.energy_delta_uj(262143328850 - 1000, 500, 262143328850), 1500)

    def test_every_wrap_counted(self) -> None:
        # 900 -> 100 (wrap: 200), -> 600 (500), -> 50 (wrap: 450),
        # -> 400 (350): 1500 uJ; the first and last reads alone give 500
        self.assertEqual(st.energy_accumulated_uj([900, 100, 600, 50, 400], 1000), 1500)

    def test_result_accumulates_reads(self) -> None:
        # The same reads through run-one.sh's fields: AFTER 400 at the
        # run's end, one more read 420 after the poller stopped, taken
        # off again: 1500 uJ
        f = {'energy': 'intel-rapl:0=900:400:1000',
             'energy_reads': 'intel-rapl:0=900:100:600:50:400:420'}
        approx(self, parse_energy(f), 1500e-6, 1e-12)

    def test_result_without_reads(self) -> None:
        approx(self, parse_energy({'energy': 'intel-rapl:0=900:400:1000'}), 500e-6, 1e-12)
        self.assertIsNone(parse_energy({'energy': '-'}))

    def test_result_sums_zones_and_wraps(self) -> None:
        w = parse_workload('forkexec', Lengths(1, 1, 1, 3, 1))
        raw = parse_lines(['COMPARE_RESULT 0 status=ok elapsed_ns=2000000000 '
                           'energy=intel-rapl:0=999000:1000:1000000;intel-rapl:1=10:3000010:9999999 '
                           'tis=1500000:100,2250000:50 tunables=- energy_skipped=psys'])[0]
        run = PlannedRun(0, 0, 'ondemand', 'forkexec', '', 0, 'forkexec', ('3',))
        rec = finish_result(run, raw, w)
        approx(self, rec.energy_j, (2000 + 3000000) / 1e6, 1e-12)
        approx(self, rec.power_w, 3.002 / 2, 1e-12)
        self.assertEqual(rec.time_in_state_ms, {'1500000': 1000, '2250000': 500})
        self.assertEqual(rec.tunables, {})
        self.assertEqual(rec.energy_skipped, ['psys'])
        approx(self, rec.figure, 2.0, 1e-12)


def result(rid: int, config: str, workload: str, op: str, figure: float, energy_j: float,
           elapsed_s: float = 10.0, rep: int = 0) -> RunResult:
    run = PlannedRun(rid, rep, config, workload, op, 0, workload, ())
    return RunResult(run, 'ok', 0, elapsed_s, energy_j, figure)


def noisy(values: list[float], pct: float) -> list[float]:
    """Three runs per value: -pct %, exact, +pct %."""
    return [v * (1 + k * pct / 100) for v in values for k in (-1, 0, 1)]


class Ratios(unittest.TestCase):
    def test_perf_and_perf_per_watt_lower(self) -> None:
        # dbench-like (latency: energy per unit of work = power x
        # latency): 91 vs 100 ms at 159.75 W vs 150 W:
        # perf 0.91; perf/W = (100 x 150) / (91 x 159.75) = 1.031818
        w = parse_workload('dbench:1', LEN)
        rs = [result(i, 'ondemand', 'dbench', '1', 100.0 + d, 1500.0)
              for i, d in enumerate((-0.1, 0, 0.1))]
        rs += [result(3 + i, 'performance', 'dbench', '1', 91.0 + d, 1597.5)
               for i, d in enumerate((-0.1, 0, 0.1))]
        c = creport.compare(rs, [w], ['ondemand', 'performance'], 'ondemand')[
            ('dbench', 'performance')]
        approx(self, c.perf.value, 0.91, 1e-4)
        approx(self, c.perf_per_watt.value, 1.031818, 1e-4)
        approx(self, c.power_w, 159.75, 1e-9)
        self.assertFalse(c.perf.same)
        self.assertFalse(c.perf_per_watt.same)

    def test_perf_per_watt_rate_and_geomean_over_ops(self) -> None:
        # tbench-like (rate: energy / (MB/s x s)): ratios 2 and 0.5 over
        # two client counts -> 1.0; energy per MB 200/2000 vs 100/1000
        # at 1 client (1.0), 200/500 vs 100/1000 at 2 (0.25) -> 0.5
        w = parse_workload('tbench:1,2', LEN)
        rs = [result(0, 'a', 'tbench', '1', 100.0, 100.0), result(1, 'a', 'tbench', '2', 100.0, 100.0),
              result(2, 'b', 'tbench', '1', 200.0, 200.0), result(3, 'b', 'tbench', '2', 50.0, 200.0)]
        c = creport.compare(rs, [w], ['a', 'b'], 'a')[('tbench', 'b')]
        approx(self, c.perf.value, 1.0, 1e-12)
        approx(self, c.perf_per_watt.value, 0.5, 1e-12)

    def test_less_power_per_point_is_significant(self) -> None:
        # Equal performance, 10 % less power, 0.5 % noise, on a sweep
        # whose two points draw 10 and 20 W: per point the energy
        # (fixed work) is 100 +- 0.5 vs 90 +- 0.45 J: |10| / (1.96 x 0.95)
        # = 5.4 > 1, significant; perf/W = 1/0.9 = 1.11.  Pooled over the
        # points (10 and 20 W together) the spread hid it: marked ~.
        w = parse_workload('cpu:1,2', LEN)
        rs: list[RunResult] = []
        for cfg, k in (('a', 1.0), ('b', 0.9)):
            for op, e in (('1', 100.0), ('2', 200.0)):
                for f, en in zip(noisy([10.0], 0.5), noisy([e * k], 0.5)):
                    rs.append(result(len(rs), cfg, 'cpu', op, f, en, elapsed_s=f))
        c = creport.compare(rs, [w], ['a', 'b'], 'a')[('cpu', 'b')]
        self.assertTrue(c.perf.same)
        approx(self, c.perf_per_watt.value, 1 / 0.9, 1e-9)
        self.assertFalse(c.perf_per_watt.same)
        self.assertEqual(creport.fmt_ratio(c.perf_per_watt), '1.11')

    def test_significant_perf_with_same_perf_per_watt(self) -> None:
        # As kernbench sugov-P0 in Linux commit 976df7e5730e: performance
        # 0.97 (3 % faster, noise 0.2 %: significant) while energy per
        # run is the same within 1 % noise: perf/W ~.
        w = parse_workload('cpu:1', LEN)
        rs: list[RunResult] = []
        for cfg, t in (('a', 10.0), ('b', 9.7)):
            for f, en in zip(noisy([t], 0.2), noisy([100.0], 1.0)):
                rs.append(result(len(rs), cfg, 'cpu', '1', f, en, elapsed_s=f))
        c = creport.compare(rs, [w], ['a', 'b'], 'a')[('cpu', 'b')]
        approx(self, c.perf.value, 0.97, 1e-9)
        self.assertFalse(c.perf.same)
        self.assertTrue(c.perf_per_watt.same)

    def test_interval_beside_the_mark(self) -> None:
        # One point, the by-hand example of Stats: ratio 2 in
        # [1.594326, 2.508896]
        w = parse_workload('cpu:1', LEN)
        rs = [result(i, 'a', 'cpu', '1', f, 100.0) for i, f in enumerate((9.0, 10.0, 11.0))]
        rs += [result(3 + i, 'b', 'cpu', '1', f, 100.0) for i, f in enumerate((18.0, 20.0, 22.0))]
        c = creport.compare(rs, [w], ['a', 'b'], 'a')[('cpu', 'b')]
        assert c.perf.ci is not None
        approx(self, c.perf.ci.low, 1.594326, 1e-5)
        approx(self, c.perf.ci.high, 2.508896, 1e-5)
        self.assertEqual(creport.fmt_ci(c.perf), '[1.59,2.51]')

    def test_tilde_within_noise(self) -> None:
        w = parse_workload('hackbench:1', LEN)
        rs = [result(i, 'a', 'hackbench', '1', 1.0 + 0.1 * (i % 3), 100.0) for i in range(3)]
        rs += [result(3 + i, 'b', 'hackbench', '1', 1.01 + 0.1 * (i % 3), 100.0 + i)
               for i in range(3)]
        c = creport.compare(rs, [w], ['a', 'b'], 'a')[('hackbench', 'b')]
        self.assertTrue(c.perf.same)
        self.assertTrue(c.perf_per_watt.same)
        self.assertEqual(creport.fmt_ratio(c.perf), '~')

    def test_no_tilde_from_single_runs(self) -> None:
        # One run a side: no interval, so a ratio is printed, never ~.
        w = parse_workload('hackbench:1', LEN)
        rs = [result(0, 'a', 'hackbench', '1', 1.0, 100.0),
              result(1, 'b', 'hackbench', '1', 1.001, 100.0)]
        c = creport.compare(rs, [w], ['a', 'b'], 'a')[('hackbench', 'b')]
        self.assertFalse(c.perf.same)
        self.assertFalse(c.perf_per_watt.same)
        self.assertIsNone(c.perf.ci)


class Parsing(unittest.TestCase):
    def test_tbench(self) -> None:
        w = parse_workload('tbench:2', LEN)
        out = ['   2     12   21.3 MB/sec  execute   1 sec  latency 3.1 ms',
               'Throughput 21.3626 MB/sec  2 clients  2 procs  max_latency=9.2 ms']
        approx(self, extract_figure(w, out, 3.0), 21.3626, 1e-9)

    def test_dbench_weighted_latency(self) -> None:
        # (10 * 0.5 + 30 * 1.0) / 40 = 0.875 ms
        w = parse_workload('dbench:1', LEN)
        out = [' Operation      Count    AvgLat    MaxLat', ' ------------',
               ' NTCreateX         10     0.500     1.242', ' ReadX             30     1.000     2.0',
               'Throughput 428.834 MB/sec  1 clients  1 procs  max_latency=1.429 ms']
        approx(self, extract_figure(w, out, 3.0), 0.875, 1e-9)

    def test_hackbench(self) -> None:
        w = parse_workload('hackbench:1', LEN)
        out = ['Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)',
               'Each sender will pass 20 messages of 100 bytes', 'Time: 0.665']
        approx(self, extract_figure(w, out, 1.0), 0.665, 1e-9)

    def test_burst_figure_is_elapsed_minus_gaps(self) -> None:
        w = parse_workload('burst:50', Lengths(1, 1, 1, 1, 20))
        self.assertEqual([(o.label, o.args) for o in w.ops], [('50', ('50', '20'))])
        approx(self, extract_figure(w, ['burst 20 x gap 50 ms done'], 3.0), 2.0, 1e-12)
        self.assertIsNone(extract_figure(w, ['killed'], 3.0))

    def test_rtapp_figures(self) -> None:
        # periodic and ramp: the one task's busy ms per activation;
        # pingpong: ping's period (the round trip); none without "done".
        one = ['rtapp task periodic loops 100 busy_ms 3.3912 period_ms 16.0010 slack_ms 12.6 missed 0',
               'rtapp periodic-20 done']
        two = ['rtapp task ping loops 250 busy_ms 2.2 period_ms 4.5120 slack_ms 0.0 missed 0',
               'rtapp task pong loops 250 busy_ms 2.1 period_ms 4.5118 slack_ms 0.0 missed 0',
               'rtapp pingpong done']
        w = parse_workload('periodic:20', LEN)
        self.assertEqual([(o.label, o.args) for o in w.ops], [('20', ('20',))])
        self.assertEqual(w.work, 'run')
        approx(self, extract_figure(w, one, 9.0), 3.3912, 1e-12)
        self.assertIsNone(extract_figure(w, one[:1], 9.0))
        self.assertIsNone(extract_figure(w, two, 9.0))
        self.assertEqual([o.label for o in parse_workload('periodic', LEN).ops],
                         ['20', '50', '80'])
        w = parse_workload('pingpong', LEN)
        self.assertEqual([(o.label, o.args) for o in w.ops], [('', ())])
        approx(self, extract_figure(w, two, 9.0), 4.512, 1e-12)
        # ring: ring0_0's period (a round), whichever task is listed first.
        ring = ['rtapp task ring0_1 loops 200 busy_ms 2.1 period_ms 6.7010 slack_ms 0.0 missed 0',
                'rtapp task ring0_0 loops 200 busy_ms 2.2 period_ms 6.7020 slack_ms 0.0 missed 0',
                'rtapp task ring0_2 loops 200 busy_ms 2.1 period_ms 6.7000 slack_ms 0.0 missed 0',
                'rtapp ring-1 done']
        w = parse_workload('ring', LEN)
        self.assertEqual([(o.label, o.args) for o in w.ops], [('1', ('1',))])
        approx(self, extract_figure(w, ring, 9.0), 6.702, 1e-12)
        self.assertIsNone(extract_figure(w, ring[:3], 9.0))
        self.assertIsNone(extract_figure(w, two, 9.0))
        self.assertEqual([o.label for o in parse_workload('ring:1,2', LEN).ops], ['1', '2'])
        with self.assertRaisesRegex(cli.BadInput, 'no rt-app profile for 3 rings'):
            parse_workload('ring:3', LEN)

    def test_cmd_pattern_and_elapsed(self) -> None:
        w = parse_cmd('x', 'true', ('score ([0-9.]+)', 'higher'))
        self.assertEqual(extract_figure(w, ['score 1', 'score 2.5'], 9.0), 2.5)
        self.assertIsNone(extract_figure(w, ['nothing'], 9.0))
        w = parse_cmd('y', 'true', None)
        self.assertEqual(extract_figure(w, ['x'], 9.0), 9.0)
        self.assertFalse(w.higher)

    def test_lines(self) -> None:
        r = parse_lines(['COMPARE_OUT 3 Time: 1.5', 'noise', 'COMPARE_FREQ 3 0:1500000,200:2250000',
                         'COMPARE_RESULT 3 status=ok rc=0 elapsed_ns=5 energy=- tis=-\r\n'])
        self.assertEqual(r[3].out, ['Time: 1.5'])
        self.assertEqual(r[3].freq, [(0, 1500000), (200, 2250000)])
        self.assertEqual(r[3].fields['status'], 'ok')
        self.assertEqual(r[3].fields['tis'], '-')

    def test_old_results_still_load(self) -> None:
        # A results.jsonl line as tools/compare wrote it before the
        # records were typed (no rc, tunables, work...).
        d = {'id': 4, 'rep': 1, 'config': 'ondemand', 'workload': 'cpu', 'op': '2',
             'op_index': 0, 'kind': 'cpu', 'args': ['2', '100'], 'status': 'ok',
             'elapsed_s': 5.0, 'energy_j': 25.0, 'power_w': 5.0,
             'time_in_state_ms': {'2250000': 5000}, 'freq_samples': [[0, 2250000]],
             'figure': 5.0, 'output_tail': []}
        r = RunResult.from_json(d)
        self.assertEqual((r.run.id, r.run.args, r.figure, r.power_w), (4, ('2', '100'), 5.0, 5.0))
        self.assertEqual(r.freq_samples, [(0, 2250000)])


class Plan(unittest.TestCase):
    def plan(self, seed: int, reps: int = 4) -> list[PlannedRun]:
        cfgs = [Config.parse(s) for s in ('ondemand', 'performance', 'sugov_inv:max_P', 'schedutil')]
        wls = [parse_workload('tbench:1,2', LEN), parse_workload('forkexec', LEN)]
        return cplan.make_plan(cfgs, wls, reps, seed)

    def test_same_seed_same_plan(self) -> None:
        self.assertEqual(self.plan(7), self.plan(7))

    def test_every_pair_once_per_rep(self) -> None:
        p = self.plan(7)
        self.assertEqual(len(p), 4 * 3 * 4)
        for rep in range(4):
            pairs = sorted((r.config, r.workload, r.op) for r in p if r.rep == rep)
            self.assertEqual(len(pairs), 12)
            self.assertEqual(len(set(pairs)), 12)

    def test_order_is_the_seeded_permutation(self) -> None:
        # Each repetition's configuration order is random.Random(seed)'s
        # shuffle of the configuration list, drawn once per repetition.
        import random
        rng = random.Random(11)
        names = ['ondemand', 'performance', 'sugov_inv:max_P', 'schedutil']
        p = self.plan(11)
        for rep in range(4):
            order = list(range(4))
            rng.shuffle(order)
            seen: list[str] = []
            for r in p:
                if r.rep == rep and r.config not in seen:
                    seen.append(r.config)
            self.assertEqual(seen, [names[i] for i in order])

    def test_orders_differ_between_reps(self) -> None:
        p = self.plan(3, reps=6)
        orders = {tuple(dict.fromkeys(r.config for r in p if r.rep == k)) for k in range(6)}
        self.assertGreater(len(orders), 1)

    def test_plan_line_quotes(self) -> None:
        w = parse_cmd('u', "echo 'a b'; true", None)
        p = cplan.make_plan([Config.parse('ondemand')], [w], 1, 0)
        self.assertEqual(cplan.plan_line(p[0]), "0 ondemand cmd 'echo '\"'\"'a b'\"'\"'; true'")

    def test_scaled_size(self) -> None:
        # 30 loops took 0.6 s; 10 s wants 30 * 10 / 0.6 = 500
        self.assertEqual(cplan.scaled_size(30, 0.6, 10.0), 500)
        self.assertEqual(cplan.scaled_size(30, 600.0, 1.0), 1)

    def test_resize_sets_every_points_size(self) -> None:
        w = cplan.resize(parse_workload('cpu:1,4', LEN), 777)
        self.assertEqual([o.args for o in w.ops], [('1', '777'), ('4', '777')])


class Plot(unittest.TestCase):
    def test_pareto_front(self) -> None:
        # f is beaten by b (cheaper and faster), e by c and d; the front
        # by rising energy: b, a, d, c
        P = cplot.Point
        pts = [P(1.0, 1.0, 'a'), P(0.9, 0.95, 'b'), P(1.1, 1.2, 'c'), P(1.05, 1.1, 'd'),
               P(1.2, 1.1, 'e'), P(0.95, 0.9, 'f')]
        self.assertEqual([p.config for p in cplot.pareto_front(pts)], ['b', 'a', 'd', 'c'])

    def test_points_are_per_unit_of_work_and_higher_is_better(self) -> None:
        # lower-is-better perf ratio 0.8 -> 1.25 up; perf/W 1.25 ->
        # energy per unit of work 0.8
        w = parse_workload('cpu:1', LEN)
        r = creport.Ratio
        rt = {('cpu', 'b'): creport.Comparison(r(0.8, False, None), r(1.25, False, None), 3.0)}
        self.assertEqual(cplot.benchmark_points(w, ['a', 'b'], rt),
                         [cplot.Point(0.8, 1.25, 'b')])


def fake_sysfs(root: str, zone: bool = True, driver: str = 'acpi-cpufreq',
               governor: str = 'schedutil', pstate: Optional[str] = None) -> None:
    """Two policies, sugov_inv's tunable directory, a package zone."""
    def put(rel: str, v: str) -> None:
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), 'w') as fh:
            fh.write(v + '\n')
    for n in (0, 1):
        p = f'devices/system/cpu/cpufreq/policy{n}'
        for f, v in (('scaling_governor', governor), ('scaling_driver', driver),
                     ('scaling_cur_freq', '2250000'),
                     ('scaling_available_governors', 'ondemand performance schedutil sugov_inv'),
                     ('stats/time_in_state', '2250000 100\n1500000 50'),
                     ('sugov_inv/freq_max_policy', 'max_P midpoint [max_boost] overutil-detect noinv'),
                     ('sugov_inv/rate_limit_us', '5000')):
            put(f'{p}/{f}', v)
    if pstate:
        put('devices/system/cpu/intel_pstate/status', pstate)
    if zone:
        for z, name, uj in (('intel-rapl:0', 'package-0', '999990'),
                            ('intel-rapl:0:0', 'core', '10'), ('intel-rapl:0:1', 'dram', '10'),
                            ('intel-rapl:1', 'psys', '5000')):
            put(f'class/powercap/{z}/name', name)
            put(f'class/powercap/{z}/energy_uj', uj)
            put(f'class/powercap/{z}/max_energy_range_uj', '1000000')


def _nobody(cmd: list[str]) -> list[str]:
    return ['setpriv', f'--reuid={NOBODY}', f'--regid={NOBODY}', '--clear-groups'] + cmd


_compare_for_nobody: Optional[str] = None


def compare_for_nobody() -> str:
    """A tools/compare/compare that the unprivileged user can run: this
    one, or, when the checkout is out of its reach (a clone in root's
    home, mode 0700), a copy of tools/compare in a temporary tree it can
    read, removed at exit."""
    global _compare_for_nobody
    if _compare_for_nobody is None:
        r = subprocess.run(_nobody(['test', '-r', COMPARE, '-a', '-x', HERE]), check=False)
        if r.returncode == 0:
            _compare_for_nobody = COMPARE
        else:
            top = tempfile.mkdtemp(prefix='compare-nobody-')
            atexit.register(shutil.rmtree, top, True)
            os.chmod(top, 0o755)
            shutil.copytree(HERE, os.path.join(top, 'tools', 'compare'),
                            ignore=shutil.ignore_patterns('__pycache__'))
            for d, _, _ in os.walk(top):
                os.chmod(d, 0o755)
            _compare_for_nobody = os.path.join(top, 'tools', 'compare', 'compare')
    return _compare_for_nobody


def as_nobody(cmd: list[str]) -> Optional[list[str]]:
    """cmd as an unprivileged user: as is when we are one, under setpriv
    when root (tools/compare/compare in it replaced by a copy that user
    can read, compare_for_nobody()); None when that cannot be done."""
    if os.geteuid() != 0:
        return cmd
    if not shutil.which('setpriv'):
        return None
    return _nobody([compare_for_nobody() if c == COMPARE else c for c in cmd])


class BadInput(unittest.TestCase):
    """Each refused before anything runs: exit 2, one line on stderr."""

    def main(self, *argv: str, env: Optional[dict[str, str]] = None) -> tuple[int, str]:
        err = io.StringIO()
        old = dict(os.environ)
        os.environ.update(env or {})
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = cli.main(list(argv))
        finally:
            os.environ.clear()
            os.environ.update(old)
        return rc, err.getvalue()

    def check(self, *argv: str, env: Optional[dict[str, str]] = None,
              want: Optional[str] = None) -> None:
        rc, err = self.main(*argv, env=env)
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        if want:
            self.assertIn(want, err)

    def test_unknown_governor(self) -> None:
        self.check('--guest', 'epyc-7742', '-c', 'turbo', want='unknown governor')

    def test_unknown_freq_max(self) -> None:
        self.check('--guest', 'epyc-7742', '-c', 'sugov_inv:max_Q', want='freq_max choice')

    def test_unknown_tunable(self) -> None:
        self.check('--guest', 'epyc-7742', '-c', 'sugov_inv,speed=9', want='no tunable')

    def test_freq_max_policy_as_tunable(self) -> None:
        # The freq_max choice has a syntax of its own: the error says
        # which, and does not list freq_max_policy among the tunables.
        rc, err = self.main('--guest', 'epyc-7742', '-c',
                            'sugov_inv,freq_max_policy=overutil-detect')
        self.assertEqual(rc, 2, err)
        self.assertIn('given as sugov_inv:CHOICE', err)
        self.assertNotIn('known: freq_max_policy', err)

    def test_unknown_preset(self) -> None:
        self.check('--guest', 'epyc-7743', want='unknown preset')

    def test_unknown_cppc_preset(self) -> None:
        self.check('run', '--cppc', 'epyc-9999', want='unknown preset')

    def test_cppc_preset_mismatch(self) -> None:
        self.check('run', '--cppc', 'epyc-7702', '--guest', 'epyc-7742',
                   want='emulates vcpufreq preset epyc-7702')

    def test_unknown_workload(self) -> None:
        self.check('--guest', 'epyc-7742', '-w', 'kernbench', want='workload kernbench')

    def test_baseline_not_a_config(self) -> None:
        self.check('--guest', 'epyc-7742', '-c', 'schedutil', '-b', 'ondemand', want='baseline')

    def test_duration_in_the_guest(self) -> None:
        self.check('run', '--guest', 'epyc-7742', '--duration', '5', want='real machine')

    def test_rtapp_profile_missing(self) -> None:
        self.check('--guest', 'epyc-7742', '-w', 'periodic:30', want='no rt-app profile for a 30 %')

    def test_rtapp_fixed_kinds_take_no_sweep(self) -> None:
        self.check('--guest', 'epyc-7742', '-w', 'ramp:2', want='ramp has no parameter')

    def test_kernel_version(self) -> None:
        # A series tools/vm/run cannot boot, and any series without a guest.
        self.check('--guest', 'epyc-7742', '--kernel-version', '6.6',
                   want='--kernel-version 6.6: the guest boots 6.1 or 6.12')
        self.check('-c', 'ondemand', '--kernel-version', '6.12', want='are for the guest')

    def test_pingpong_needs_two_cpus(self) -> None:
        self.check('--guest', 'epyc-7742', '-w', 'pingpong', want='--smp 2')

    def test_ring_needs_three_cpus_a_ring(self) -> None:
        self.check('--guest', 'epyc-7742', '--smp', '2', '-w', 'ring', want='--smp 3')
        self.check('--guest', 'epyc-7742', '--smp', '4', '-w', 'ring:1,2', want='--smp 6')

    def test_report_not_an_output_dir(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            self.check('--report', d, want='plan.json')
            self.check('report', d, want='plan.json')

    def test_zone_absent(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            fake_sysfs(d, zone=False)
            self.check('-c', 'ondemand', '-w', 'forkexec', env={'COMPARE_SYSFS': d},
                       want='intel-rapl:0/energy_uj')

    def test_workload_not_installed(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            fake_sysfs(d)
            self.check('-c', 'ondemand', '-w', 'tbench', env={'COMPARE_SYSFS': d, 'PATH': d},
                       want='tbench is not installed')

    def test_driver_takes_no_governor(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            fake_sysfs(d, driver='amd-pstate-epp')
            self.check('-c', 'ondemand', '-w', 'forkexec', env={'COMPARE_SYSFS': d},
                       want='takes no governor')

    def test_governor_missing_on_host(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            fake_sysfs(d)
            self.check('-c', 'conservative', '-w', 'forkexec', env={'COMPARE_SYSFS': d},
                       want='not available')

    def test_not_root_on_a_real_machine(self) -> None:
        cmd = as_nobody([COMPARE, '-c', 'ondemand', '-w', 'forkexec', '-r', '1'])
        if cmd is None:
            self.skipTest('root without setpriv: cannot run as another user')
        env = {k: v for k, v in os.environ.items() if k != 'COMPARE_SYSFS'}
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn('run as root', r.stderr)
        self.assertEqual(r.stdout, '')


class GuestCommand(unittest.TestCase):
    """What tools/vm/run is asked to boot."""

    def command(self, *argv: str) -> list[str]:
        args = cli.parse_args(['run', '-c', 'ondemand', '-w', 'cpu:1', *argv])
        req = cli.resolve(args)
        return cli.guest_command(args, req, 'n', cplan.make_plan(req.configs, req.workloads,
                                                                 1, 0))

    def test_cppc_preset(self) -> None:
        # --cppc epyc-7702: tools/vm/run --cppc, vcpufreq's epyc-7702 and
        # the register page for its counters.
        cmd = self.command('--cppc', 'epyc-7702')
        self.assertEqual(cmd[cmd.index('--cppc') + 1], 'epyc-7702')
        self.assertIn('CPPC_PAGE=0x20000000', cmd)
        gi = cmd.index('tools/compare/guest.sh')
        self.assertEqual(cmd[gi + 1:gi + 4], ['epyc-7702', '1', '1'])

    def test_no_cppc_by_default(self) -> None:
        cmd = self.command('--guest', 'epyc-7742', '--no-boost', '--smp', '2')
        self.assertNotIn('--cppc', cmd)
        self.assertFalse([a for a in cmd if a.startswith('CPPC_PAGE')])
        # Several vCPUs: MTTCG, no instruction counting, unless asked.
        self.assertFalse([a for a in cmd if a.startswith('--icount')])
        gi = cmd.index('tools/compare/guest.sh')
        self.assertEqual(cmd[gi + 1:gi + 4], ['epyc-7742', '0', '1'])
        self.assertEqual(cmd[-1], '0 ondemand cpu 1 100')

    def test_icount_and_time_limit(self) -> None:
        # One vCPU: sleep=off; --smp 2 --icount: the maxcpus=1 variant;
        # the guest's time limit grows with the plan, at least 2400 s.
        cmd = self.command('--guest', 'epyc-7742')
        self.assertIn('--icount=shift=3,sleep=off', cmd)
        self.assertEqual(cmd[cmd.index('--timeout') + 1], '2400')
        self.assertIn('--icount=smp', self.command('--guest', 'epyc-7742', '--smp', '2',
                                                   '--icount'))
        args = cli.parse_args(['run', '--guest', 'epyc-7742', '-w', 'cpu:1', '-r', '30'])
        req = cli.resolve(args)
        cmd = cli.guest_command(args, req, 'n', cplan.make_plan(req.configs, req.workloads,
                                                                30, 0))
        self.assertEqual(cmd[cmd.index('--timeout') + 1], str(20 * 300))

    def test_no_sampler_with_several_vcpus_under_icount(self) -> None:
        # --smp 2 --icount: the frequency sampler is off unless asked;
        # one vCPU, or several without icount, keep run-one.sh's default.
        self.assertIn('SAMPLE_S=0', self.command('--guest', 'epyc-7742', '--smp', '2',
                                                 '--icount'))
        self.assertIn('SAMPLE_S=0.2', self.command('--guest', 'epyc-7742', '--smp', '2',
                                                   '--icount', '--freq-sample', '0.2'))
        for extra in ([], ['--smp', '2']):
            cmd = self.command('--guest', 'epyc-7742', *extra)
            self.assertFalse([a for a in cmd if a.startswith('SAMPLE_S')])

    def test_pin_vcpus(self) -> None:
        # --pin-vcpus reaches tools/vm/run before the guest command, only
        # when asked, and is refused with instruction counting (one host
        # thread runs every vCPU there: nothing to pin).
        cmd = self.command('--guest', 'epyc-7742', '--smp', '2', '--pin-vcpus')
        self.assertLess(cmd.index('--pin-vcpus'), cmd.index('--'))
        self.assertNotIn('--pin-vcpus', self.command('--guest', 'epyc-7742', '--smp', '2'))
        with self.assertRaises(cli.BadInput):
            self.command('--guest', 'epyc-7742', '--smp', '2', '--icount', '--pin-vcpus')

    def test_kernel_version(self) -> None:
        # --kernel-version 6.12 boots 6.12 (with --cppc too); unset,
        # tools/vm/run's own default (VM_KERNEL_VERSION or 6.1) stands.
        for extra in (['--guest', 'epyc-7742'], ['--cppc', 'epyc-7702']):
            cmd = self.command(*extra, '--kernel-version', '6.12')
            self.assertEqual(cmd[cmd.index('--kernel-version') + 1], '6.12')
            self.assertLess(cmd.index('--kernel-version'), cmd.index('--'))
        self.assertNotIn('--kernel-version', self.command('--guest', 'epyc-7742'))

    def test_settings_reach_the_runner(self) -> None:
        cmd = self.command('--guest', 'epyc-7742', '--freq-sample', '0', '--run-timeout', '7',
                           '--energy-poll', '2', '--guest-setup', 'echo hi')
        for kv in ('SAMPLE_S=0', 'RUN_TIMEOUT_S=7', 'ENERGY_S=2', 'GUEST_SETUP=echo hi'):
            self.assertIn(kv, cmd)


class QemuVersion(unittest.TestCase):
    """The QEMU version that decides the --icount fairness warning."""

    def test_parse(self) -> None:
        from compare_host import QEMU_ICOUNT_FAIR, qemu_version
        deb12 = 'QEMU emulator version 7.2.19 (Debian 1:7.2+dfsg-7+deb12u18+b3)\nCopyright'
        bpo = 'QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)'
        self.assertEqual(qemu_version(deb12), (7, 2))
        self.assertLess(qemu_version(deb12), QEMU_ICOUNT_FAIR)
        self.assertEqual(qemu_version(bpo), (10, 0))
        self.assertGreaterEqual(qemu_version(bpo), QEMU_ICOUNT_FAIR)
        self.assertEqual(qemu_version('QEMU emulator version 8.1.0'), (8, 1))
        for bad in ('', 'unknown', 'qemu-system-x86_64: not found', 'QEMU emulator version x.y'):
            self.assertIsNone(qemu_version(bad), bad)


class State(unittest.TestCase):
    """MachineState: what the tool puts back itself when a runner could
    not (killed)."""

    def test_capture_and_restore(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            fake_sysfs(d, governor='sugov_inv', pstate='passive')
            st = MachineState.capture(d)
            self.assertEqual(st.tunables['devices/system/cpu/cpufreq/policy1/sugov_inv/'
                                         'freq_max_policy'], 'max_boost')
            pol = os.path.join(d, 'devices/system/cpu/cpufreq/policy1')
            for f, v in (('scaling_governor', 'performance'), ('sugov_inv/rate_limit_us', '2000'),
                         ('sugov_inv/freq_max_policy', 'max_P')):
                with open(os.path.join(pol, f), 'w') as fh:
                    fh.write(v + '\n')
            with open(os.path.join(d, 'devices/system/cpu/intel_pstate/status'), 'w') as fh:
                fh.write('active\n')
            self.assertEqual(len(st.differences(d)), 4)
            self.assertEqual(len(st.restore(d)), 4)
            self.assertEqual(st.differences(d), [])
            self.assertEqual(st.restore(d), [])


class Calibration(unittest.TestCase):
    def test_sized_by_a_probe(self) -> None:
        # forkexec sized for 0.3 s from a probe that took at least 1 s
        # (60 links, ten times more until then); the plan uses the size.
        with tempfile.TemporaryDirectory() as top:
            sysfs, out = os.path.join(top, 'sys'), os.path.join(top, 'out')
            fake_sysfs(sysfs)
            r = subprocess.run([COMPARE, 'run', '-c', 'performance', '-w', 'forkexec', '-r', '1',
                                '--duration', '0.3', '--settle', '0', '-o', out],
                               capture_output=True, text=True, timeout=600, check=False,
                               env=dict(os.environ, COMPARE_SYSFS=sysfs, COMPARE_TMP=top))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with open(os.path.join(out, 'plan.json')) as f:
                meta = json.load(f)
        cal = meta['calibration'][0]
        self.assertGreaterEqual(cal['probe_s'], 1.0)
        self.assertEqual(cal['size'], cplan.scaled_size(cal['probe_size'], cal['probe_s'], 0.3))
        self.assertEqual(meta['plan'][0]['args'], [str(cal['size'])])


class Runner(unittest.TestCase):
    """run-one.sh on a fake sysfs tree, with the host's sh (dash)."""

    shell = ['sh']
    pol = 'devices/system/cpu/cpufreq/policy1'
    zone = 'class/powercap/intel-rapl:0/energy_uj'

    def setUp(self) -> None:
        self.d = tempfile.mkdtemp()
        fake_sysfs(self.d)

    def tearDown(self) -> None:
        shutil.rmtree(self.d)

    def run_one(self, config: str, *wl: str, env: Optional[dict[str, str]] = None,
                timeout: int = 120) -> 'subprocess.CompletedProcess[str]':
        e = dict(os.environ, SYSFS=self.d, SETTLE_S='0', SAMPLE_S='0', COMPARE_TMP=self.d)
        e.update(env or {})
        return subprocess.run(self.shell + [os.path.join(HERE, 'run-one.sh'), '5', config] +
                              list(wl), capture_output=True, text=True, env=e, check=False,
                              timeout=timeout)

    def read(self, rel: str) -> str:
        with open(os.path.join(self.d, rel)) as f:
            return f.read().strip()

    def write(self, rel: str, v: str) -> None:
        with open(os.path.join(self.d, rel), 'w') as f:
            f.write(v + '\n')

    def result(self, r: 'subprocess.CompletedProcess[str]', cmd: str = 'true') -> RunResult:
        run = PlannedRun(5, 0, 'x', 'u', '', 0, 'cmd', (cmd,))
        return finish_result(run, parse_lines(r.stdout.splitlines())[5], parse_cmd('u', cmd, None))

    def test_selects_measures_and_restores(self) -> None:
        cmd = (f'cat $SYSFS/{self.pol}/scaling_governor $SYSFS/{self.pol}/sugov_inv/freq_max_policy; '
               f'echo 15 > $SYSFS/{self.zone}; echo "2250000 300" > $SYSFS/{self.pol}/stats/time_in_state')
        r = self.run_one('sugov_inv:max_P', 'cmd', cmd)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertIn('COMPARE_OUT 5 sugov_inv', lines)
        self.assertIn('COMPARE_OUT 5 max_P', lines)
        res = parse_lines(lines)[5]
        self.assertEqual(res.fields['energy'], 'intel-rapl:0=999990:15:1000000')
        self.assertEqual(res.fields['tis'], '2250000:200')
        approx(self, self.result(r, cmd).energy_j, 25e-6, 1e-12)   # wrapped
        self.assertEqual(self.read(f'{self.pol}/scaling_governor'), 'schedutil')

    def test_every_wrap_during_the_run_counted(self) -> None:
        # 999990 -> 500000 (wrap: 500010) -> 400000 (wrap: 900000) ->
        # 450000 (50000): 1450010 uJ; the reads before and after alone
        # give 450010.  Each value stays 1 s, the counters are read every
        # 0.1 s.
        cmd = (f'for v in 500000 400000 450000; do echo $v > $SYSFS/{self.zone}; sleep 1; done')
        r = self.run_one('ondemand', 'cmd', cmd, env={'ENERGY_S': '0.1'})
        self.assertEqual(r.returncode, 0, r.stderr)
        approx(self, self.result(r, cmd).energy_j, 1450010e-6, 1e-12)

    def test_package_zones_only(self) -> None:
        # psys (Intel client parts: it contains the package) and the
        # dram sub-zone are left out, and said to be.
        cmd = ('echo 999995 > $SYSFS/class/powercap/intel-rapl:0/energy_uj; '
               'echo 9000 > $SYSFS/class/powercap/intel-rapl:1/energy_uj')
        r = self.run_one('ondemand', 'cmd', cmd)
        rec = self.result(r, cmd)
        approx(self, rec.energy_j, 5e-6, 1e-12)
        self.assertEqual(rec.energy_skipped, ['dram', 'psys'])

    def test_energy_and_time_windows_aligned(self) -> None:
        # A cat that spends 1000 uJ whenever it reads time_in_state (a
        # slow pipeline at a low frequency): outside the energy window,
        # so a run that spends nothing measures 0.
        bindir = os.path.join(self.d, 'bin')
        os.mkdir(bindir)
        real = shutil.which('cat')
        with open(os.path.join(bindir, 'cat'), 'w') as f:
            f.write(f'#!/bin/sh\ncase "$*" in *time_in_state*)\n'
                    f'  read -r v < "$SYSFS/{self.zone}"; echo $((v + 1000)) > "$SYSFS/{self.zone}";;\n'
                    f'esac\nexec {real} "$@"\n')
        os.chmod(os.path.join(bindir, 'cat'), 0o755)
        r = self.run_one('ondemand', 'cmd', 'true',
                         env={'PATH': bindir + os.pathsep + os.environ['PATH']})
        self.assertEqual(r.returncode, 0, r.stderr)
        approx(self, self.result(r).energy_j, 0.0, 1e-12)

    def test_tunables_restored_and_recorded(self) -> None:
        # The machine runs sugov_inv with rate_limit_us 5000 and
        # freq_max_policy max_boost; the run's own 2000 and max_P must
        # not stay behind (writing the governor back would not reset
        # them), and are recorded.
        for n in (0, 1):
            self.write(f'devices/system/cpu/cpufreq/policy{n}/scaling_governor', 'sugov_inv')
        r = self.run_one('sugov_inv:max_P,rate_limit_us=2000', 'cmd', 'true')
        self.assertEqual(r.returncode, 0, r.stderr)
        for n in (0, 1):
            p = f'devices/system/cpu/cpufreq/policy{n}'
            self.assertEqual(self.read(f'{p}/scaling_governor'), 'sugov_inv')
            self.assertEqual(self.read(f'{p}/sugov_inv/rate_limit_us'), '5000')
            self.assertEqual(self.read(f'{p}/sugov_inv/freq_max_policy'), 'max_boost')
        self.assertEqual(self.result(r).tunables,
                         {'freq_max_policy': 'max_P', 'rate_limit_us': '2000'})

    def test_no_frequency_sampler_in_burst(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != 'SAMPLE_S'}
        r = subprocess.run(self.shell + [os.path.join(HERE, 'run-one.sh'), '5', 'ondemand',
                                         'burst', '1', '2'], capture_output=True, text=True,
                           env=dict(env, SYSFS=self.d, SETTLE_S='0', COMPARE_TMP=self.d),
                           check=False, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn('COMPARE_FREQ', r.stdout)
        self.assertIn('burst 2 x gap 1 ms done', r.stdout)

    def test_hung_workload_stopped(self) -> None:
        t0 = time.monotonic()
        r = self.run_one('sugov_inv:max_P', 'cmd', 'sleep 60', env={'RUN_TIMEOUT_S': '1'})
        self.assertLess(time.monotonic() - t0, 30)
        self.assertEqual(r.returncode, 1)
        rec = self.result(r, 'sleep 60')
        self.assertEqual((rec.status, rec.rc, rec.note), ('failed', 124, 'time limit 1 s'))
        self.assertEqual(self.read(f'{self.pol}/scaling_governor'), 'schedutil')

    def test_signal_restores(self) -> None:
        # The workload signals run-one.sh itself (its parent's parent).
        cmd = 'read -r _ _ _ r _ < /proc/$PPID/stat; kill -TERM $r; sleep 30'
        r = self.run_one('sugov_inv:max_P', 'cmd', cmd)
        self.assertEqual(r.returncode, 130, r.stderr)
        self.assertIn('COMPARE_RESULT 5 status=interrupted', r.stdout)
        self.assertEqual(self.read(f'{self.pol}/scaling_governor'), 'schedutil')

    def test_refused_tunable_exits_2_and_restores(self) -> None:
        # A directory in the tunable's place refuses the write, even
        # for root.
        p = 'devices/system/cpu/cpufreq/policy0'
        f = os.path.join(self.d, p, 'sugov_inv/freq_max_policy')
        os.remove(f)
        os.mkdir(f)
        r = self.run_one('sugov_inv:max_P', 'cmd', 'true')
        self.assertEqual(r.returncode, 2)
        self.assertIn('refused freq_max_policy=max_P', r.stderr)
        self.assertNotIn('COMPARE_RESULT', r.stdout)
        self.assertEqual(self.read(f'{p}/scaling_governor'), 'schedutil')

    def test_bad_workload_args(self) -> None:
        r = self.run_one('ondemand', 'hackbench', 'x', '1')
        self.assertEqual(r.returncode, 2)
        self.assertEqual(self.read('devices/system/cpu/cpufreq/policy0/scaling_governor'), 'schedutil')

    def test_failed_workload(self) -> None:
        r = self.run_one('ondemand', 'cmd', 'exit 3')
        self.assertEqual(r.returncode, 1)
        self.assertIn('status=failed rc=3', r.stdout)

    @unittest.skipUnless(shutil.which('rt-app'), 'no rt-app on this host')
    def test_rtapp_calibrates_once_under_performance(self) -> None:
        # The calibration selects performance on every policy first; the
        # configuration and the original governor follow as for any run.
        p = 'devices/system/cpu/cpufreq/policy0'
        cache = os.path.join(self.d, 'compare-rtapp-ns-per-loop')
        # run-one.sh allows its three calibrations 60 s each: on a loaded
        # host (rt-app pins them to CPU 0) they took 12 s apiece here.
        r = self.run_one('ondemand', 'periodic', '20', timeout=240)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(cache) as f:
            ns = int(f.read())
        self.assertGreater(ns, 0)
        self.assertIn(f'COMPARE_OUT 5 rtapp calibration {ns} ns per loop', r.stdout.splitlines())
        outl = [ln.split(' ', 2)[2] for ln in r.stdout.splitlines()
                if ln.startswith('COMPARE_OUT 5 ')]
        self.assertIsNotNone(extract_figure(parse_workload('periodic:20', LEN), outl, 1.0),
                             r.stdout)
        self.assertEqual(self.read(f'{p}/scaling_governor'), 'schedutil')
        # A second run takes the kept value.
        self.write('compare-rtapp-ns-per-loop', '123456')
        r = self.run_one('ondemand', 'periodic', '20')
        self.assertIn('COMPARE_OUT 5 rtapp calibration 123456 ns per loop', r.stdout.splitlines())

    def test_rtapp_bad_args(self) -> None:
        for wl in (['periodic', '2x'], ['periodic', '33'], ['ramp', '1']):
            r = self.run_one('ondemand', *wl)
            self.assertEqual(r.returncode, 2, wl)
            self.assertEqual(self.read('devices/system/cpu/cpufreq/policy0/scaling_governor'),
                             'schedutil')

    def test_raw_output_trace_and_turbostat(self) -> None:
        # Stand-ins for trace-cmd (records its arguments, writes the file
        # when interrupted) and turbostat (runs the command, writes a
        # summary as turbostat --quiet --Summary does).
        bindir = os.path.join(self.d, 'bin')
        raw = os.path.join(self.d, 'raw')
        os.mkdir(bindir)
        os.mkdir(raw)
        os.makedirs(os.path.join(self.d, 'kernel/tracing/events/sugov_inv/sugov_inv_decision'))
        scripts = {
            # (python: a shell started in the background ignores SIGINT
            # for good, trace-cmd and python catch it)
            'trace-cmd': '#!/usr/bin/python3\nimport os, signal, sys, time\n'
                         'open(os.environ["COMPARE_TMP"] + "/trace-args", "w").write('
                         '" ".join(sys.argv[1:]))\n'
                         'def done(*_):\n    open(sys.argv[sys.argv.index("-o") + 1], "w")'
                         '.write("trace\\n")\n    sys.exit(0)\n'
                         'signal.signal(signal.SIGINT, done)\nwhile True:\n    time.sleep(0.1)\n',
            'turbostat': '#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in --out) o=$2; shift 2;;\n'
                         '-*) shift;; *) break;; esac; done\n"$@"; rc=$?\n'
                         'printf "Avg_MHz\\tBusy%%\\tBzy_MHz\\tTSC_MHz\\tCPU%%c6\\n'
                         '1234\\t50.00\\t2468\\t2000\\t45.50\\n0.100 sec\\n" > "$o"\nexit $rc\n'}
        for name, text in scripts.items():
            with open(os.path.join(bindir, name), 'w') as f:
                f.write(text)
            os.chmod(os.path.join(bindir, name), 0o755)
        r = self.run_one('ondemand', 'cmd', 'echo hello; echo world',
                         env={'PATH': bindir + os.pathsep + os.environ['PATH'],
                              'COMPARE_RAW_DIR': raw, 'COMPARE_TRACE': '1',
                              'COMPARE_TURBOSTAT': '1', 'SETTLE_S': '0.3'})
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(raw, '5.out')) as f:
            self.assertEqual(f.read(), 'hello\nworld\n')
        with open(os.path.join(raw, '5.dat')) as f:
            self.assertEqual(f.read(), 'trace\n')
        with open(os.path.join(self.d, 'trace-args')) as f:
            args = f.read().split()
        for ev in ('sched:sched_switch', 'power:cpu_frequency', 'sugov_inv:sugov_inv_decision'):
            self.assertIn(ev, args)
        self.assertEqual(self.result(r).turbostat,
                         {'Avg_MHz': 1234.0, 'Busy%': 50.0, 'Bzy_MHz': 2468.0,
                          'TSC_MHz': 2000.0, 'CPU%c6': 45.5})


@unittest.skipUnless(shutil.which('busybox'), 'no busybox on this host')
class RunnerBusybox(Runner):
    """The same with busybox ash, the guest's shell."""

    shell = ['busybox', 'sh']


class Interrupted(unittest.TestCase):
    """The whole tool on a fake sysfs: whatever stops a plan, the machine
    is as found (governors, tunables, intel_pstate mode) and every
    finished run is kept for report."""

    def setUp(self) -> None:
        self.top = tempfile.mkdtemp()
        self.sys = os.path.join(self.top, 'sys')
        self.out = os.path.join(self.top, 'out')
        fake_sysfs(self.sys, governor='sugov_inv', pstate='active')
        self.before = MachineState.capture(self.sys)

    def tearDown(self) -> None:
        shutil.rmtree(self.top)

    def compare(self, *argv: str, user: bool = False) -> 'subprocess.CompletedProcess[str]':
        cmd: Optional[list[str]] = [COMPARE, '-c', 'performance',
                                    '-c', 'sugov_inv:max_P,rate_limit_us=2000', '-b',
                                    'performance', '-r', '1', '--seed', '1', '--settle', '0',
                                    '--freq-sample', '0', '-o', self.out, *argv]
        if user:
            cmd = as_nobody(cmd or [])
            if cmd is None:
                self.skipTest('root without setpriv: cannot run as another user')
            subprocess.run(['chown', '-R', f'{NOBODY}:{NOBODY}', self.top], check=True)
        env = dict(os.environ, COMPARE_SYSFS=self.sys, COMPARE_TMP=self.top)
        assert cmd is not None
        return subprocess.run(cmd, capture_output=True, text=True, env=env, check=False,
                              timeout=300)

    def kept(self) -> list[dict[str, Any]]:
        with open(os.path.join(self.out, 'results.jsonl')) as f:
            return [json.loads(ln) for ln in f]

    def assert_as_found(self, r: 'subprocess.CompletedProcess[str]') -> None:
        # run-one.sh put everything back itself: the tool had nothing
        # left to put back.
        self.assertNotIn('compare: put back', r.stdout)
        self.assertEqual(self.before.differences(self.sys), [])
        self.assertEqual(MachineState.capture(self.sys).tunables['devices/system/cpu/cpufreq/'
                                                                'policy0/sugov_inv/rate_limit_us'],
                         '5000')

    def rerender(self, want: str) -> None:
        with contextlib.redirect_stdout(io.StringIO()) as o:
            self.assertEqual(cli.main(['report', self.out]), 0)
        self.assertIn(want, o.getvalue())

    # The second workload signals the tool: its process is the parent of
    # run-one.sh, the parent of the workload's shell.
    SIGNAL = ('read -r _ _ _ r _ < /proc/$PPID/stat; read -r _ _ _ p _ < /proc/$r/stat; '
              'kill -{} $p; sleep 30')

    def check_signal(self, sig: str, rc: int) -> None:
        r = self.compare('--cmd', 'a', 'true', '--cmd', 'b', self.SIGNAL.format(sig))
        self.assertEqual(r.returncode, rc, r.stdout + r.stderr)
        self.assertIn(f'SIG{sig}: stopped; kept 1 finished runs', r.stdout)
        kept = self.kept()
        self.assertEqual([(k['workload'], k['status']) for k in kept],
                         [('a', 'ok'), ('b', 'interrupted')])
        self.assert_as_found(r)
        self.rerender('runs : 1 measured of 4 planned')

    def test_sigint(self) -> None:
        self.check_signal('INT', 130)

    def test_sigterm(self) -> None:
        self.check_signal('TERM', 143)

    def test_hung_workload(self) -> None:
        # Each configuration runs a (hangs) then b: two failed runs, the
        # plan goes on and measures both b.
        r = self.compare('--cmd', 'a', 'sleep 60', '--cmd', 'b', 'true', '--run-timeout', '1')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        kept = self.kept()
        self.assertEqual(sorted((k['workload'], k['status'], k['rc']) for k in kept),
                         [('a', 'failed', 124)] * 2 + [('b', 'ok', 0)] * 2)
        self.assert_as_found(r)
        self.rerender('a: failed (time limit 1 s)')

    def test_results_unwritable(self) -> None:
        # As an unprivileged user (root writes anyway): the second run
        # takes the write permission of results.jsonl away, so recording
        # it fails; the tool stops there and keeps the first.
        jl = os.path.join(self.out, 'results.jsonl')
        r = self.compare('--cmd', 'a', 'true', '--cmd', 'b', f'chmod a-w {jl}', user=True)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('Permission denied; stopped after 1 runs', r.stdout)
        self.assertEqual([k['workload'] for k in self.kept()], ['a'])
        self.assert_as_found(r)
        os.chmod(jl, 0o644)
        self.rerender('runs : 1 measured of 4 planned')

    def test_subcommands_and_old_flags_plan_alike(self) -> None:
        argv = ['-c', 'ondemand', '-c', 'performance', '-w', 'cpu:1,2', '--guest', 'epyc-7742',
                '--seed', '5']
        a = subprocess.run([COMPARE, 'plan'] + argv, capture_output=True, text=True, check=True)
        b = subprocess.run([COMPARE, '--dry-run'] + argv, capture_output=True, text=True,
                           check=True)
        self.assertEqual(a.stdout, b.stdout)
        self.assertEqual(len(a.stdout.splitlines()), 1 + 2 * 2 * 3)


class Report(unittest.TestCase):
    def write_dir(self, d: str, cfgs: list[str], wspec: str, results: list[RunResult],
                  cut: bool = False) -> Meta:
        w = parse_workload(wspec, LEN)
        plan = cplan.make_plan([Config.parse(c) for c in cfgs], [w], 3, 1)
        meta = Meta(cfgs, cfgs[0], [w], 3, 1, plan)
        with open(os.path.join(d, 'plan.json'), 'w') as f:
            json.dump(meta.to_json(), f)
        with open(os.path.join(d, 'results.jsonl'), 'w') as f:
            for r in results:
                f.write(json.dumps(r.to_json()) + '\n')
            if cut:
                f.write('{"id": 5, "cut by an inter')
        return meta

    def test_render_and_rerender_interrupted(self) -> None:
        w = parse_workload('hackbench:1', LEN)
        plan = cplan.make_plan([Config.parse(c) for c in ('ondemand', 'performance')], [w], 3, 1)
        rs = []
        for r in plan[:5]:
            base = r.config == 'ondemand'
            rs.append(RunResult(r, 'ok', 0, 10.0, 100.0 if base else 150.0,
                                (2.0 if base else 1.0) + 0.01 * r.rep))
        with tempfile.TemporaryDirectory() as d:
            self.write_dir(d, ['ondemand', 'performance'], 'hackbench:1', rs, cut=True)
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(cli.main(['--report', d]), 0)
            text = out.getvalue()
            for want in ('PERFORMANCE RATIOS', 'PERFORMANCE-PER-WATT RATIOS', '  95% CI',
                         'POWER CONSUMPTION', 'not counted: nothing',
                         'runs : 5 measured of 6 planned', '*  50.00%*'):
                self.assertIn(want, text)
            for f in ('results.csv', 'results.json', 'report.txt'):
                self.assertTrue(os.path.exists(os.path.join(d, f)), f)
            if shutil.which('gnuplot'):
                self.assertTrue(os.path.getsize(os.path.join(d, 'perf-energy.png')) > 0)

    def test_names_the_guest_kernel(self) -> None:
        # The guest's uname -r, first on its COMPARE_BOOT line, is printed
        # under the machine; a real machine's run has no such line.
        w = parse_workload('hackbench:1', LEN)
        plan = cplan.make_plan([Config.parse('ondemand')], [w], 1, 1)
        meta = Meta(['ondemand'], 'ondemand', [w], 1, 1, plan,
                    {'machine': 'guest epyc-7742',
                     'guest': 'kernel=6.12.117+deb12-amd64 cpus=1 preset=epyc-7742'})
        rs = [RunResult(plan[0], 'ok', 0, 10.0, 100.0, 2.0)]
        self.assertIn('machine : guest epyc-7742\nkernel : 6.12.117+deb12-amd64\n',
                      creport.render(meta, rs))
        del meta.extra['guest']
        self.assertNotIn('kernel :', creport.render(meta, rs))

    def test_diff_of_two_runs(self) -> None:
        # performance ratio 1.25 in one run, 1.25 * 1.02 in the other
        dirs = []
        with tempfile.TemporaryDirectory() as top:
            for k, fig in ((1, 125.0), (2, 127.5)):
                d = os.path.join(top, str(k))
                os.mkdir(d)
                self.write_dir(d, ['ondemand', 'performance'], 'tbench:1',
                               [result(0, 'ondemand', 'tbench', '1', 100.0, 100.0),
                                result(1, 'performance', 'tbench', '1', fig, 100.0)])
                dirs.append(d)
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(cli.main(['diff'] + dirs), 0)
            with contextlib.redirect_stdout(io.StringIO()) as out2:
                self.assertEqual(cli.main(['--diff'] + dirs), 0)
        self.assertIn('performance ratios 2.00 %', out.getvalue())
        self.assertEqual(out.getvalue(), out2.getvalue())


if __name__ == '__main__':
    sys.exit(ktap_unittest.main(__name__))
