# SPDX-License-Identifier: GPL-2.0-only
#
# Count the leaf results of a (possibly nested) KTAP document, as printed
# by selftests/run.sh, tools/fi-probe/test.sh or KUnit, amid console noise.
# Prints "PASSED FAILED SKIPPED".  A parent whose result is "not ok"
# without a failed child (a test program that crashed or timed out)
# counts as one failure, and so does every planned top-level test that
# never reported.
#
# Usage: awk -f tools/ktap-count.awk FILE...
{
	sub(/\r$/, "")
	if (!match($0, /^ *(not ok|ok) [0-9]+/)) {
		if (match($0, /^ *1\.\.[0-9]+$/)) {
			d = index($0, "1") - 1
			if (d == 0) { split($0, a, "\\.\\."); planned += a[2] }
		}
		next
	}
	d = match($0, /[^ ]/) - 1
	notok = ($0 ~ /^ *not ok/)
	skip = ($0 ~ /# *SKIP/)
	if (d == 0) top++
	if (children[d + 4] > 0) {
		# A parent: its children were counted already.
		if (notok && childfail[d + 4] == 0) { failed++; childfail[d]++ }
		else if (notok) childfail[d]++
		children[d + 4] = 0
		childfail[d + 4] = 0
	} else if (skip) {
		skipped++
	} else if (notok) {
		failed++
		childfail[d]++
	} else {
		passed++
	}
	children[d]++
}
END {
	if (planned > top) failed += planned - top
	printf "%d %d %d\n", passed, failed, skipped
}
