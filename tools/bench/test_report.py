#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of tools/bench/report.py: python3 tools/bench/test_report.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

LOG = """\
BENCH_SETUP rounds=2 loops=20 cpus=1 hooks=x
BENCH 1 performance 1000000 0
BENCH 1 ondemand 1010000 100
BENCH 2 performance 2000000 0
BENCH 2 ondemand 2030000 100
noise line
""".splitlines()


class ReportTest(unittest.TestCase):
    def test_parse(self):
        runs, setup = report.parse(LOG)
        self.assertEqual(setup, "rounds=2 loops=20 cpus=1 hooks=x")
        self.assertEqual(runs["ondemand"][2], (2030000, 100))

    def test_cost_is_against_the_same_round(self):
        runs, _ = report.parse(LOG)
        # round 1: 10000 ns / 100 calls; round 2: 30000 / 100
        self.assertEqual(report.costs(runs)["ondemand"], [100.0, 300.0])

    def test_no_calls_no_cost(self):
        runs, _ = report.parse(LOG + ["BENCH 1 x 5000000 0"])
        self.assertEqual(report.costs(runs)["x"], [])


if __name__ == "__main__":
    unittest.main()
