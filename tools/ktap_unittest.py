# SPDX-License-Identifier: GPL-2.0
"""Runs a module's stdlib unittest cases and prints them as KTAP.

One "ok"/"not ok" line per test, the failure's traceback as "#" lines,
skips as "# SKIP reason" (Documentation/dev-tools/ktap.rst), so that
tools/check.sh counts the host-side unit tests as it counts the guests'.
"""

import io
import sys
import unittest
from typing import Any


class Ktap(unittest.TextTestResult):
    """Prints one KTAP line per test."""

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, **k)
        self.n = 0

    def line(self, test: unittest.TestCase, ok: bool, directive: str = '') -> None:
        self.n += 1
        name = f'{type(test).__name__}.{test._testMethodName}'
        print(f'{"ok" if ok else "not ok"} {self.n} {name}{directive}', flush=True)

    def addSuccess(self, test: unittest.TestCase) -> None:
        super().addSuccess(test)
        self.line(test, True)

    def _failed(self, test: unittest.TestCase, err: Any) -> None:
        self.line(test, False)
        print('# ' + self._exc_info_to_string(err, test).replace(  # type: ignore[attr-defined]
            '\n', '\n# '))

    def addFailure(self, test: unittest.TestCase, err: Any) -> None:
        super().addFailure(test, err)
        self._failed(test, err)

    def addError(self, test: unittest.TestCase, err: Any) -> None:
        super().addError(test, err)
        self._failed(test, err)

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        super().addSkip(test, reason)
        self.line(test, True, f' # SKIP {reason}')


def main(module_name: str) -> int:
    """Runs every test case of the module named module_name; 0 if all passed."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[module_name])
    print('KTAP version 1')
    print(f'1..{suite.countTestCases()}')
    res = unittest.TextTestRunner(stream=io.StringIO(), resultclass=Ktap).run(suite)
    return 0 if res.wasSuccessful() else 1
