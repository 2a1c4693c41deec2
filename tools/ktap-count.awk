# SPDX-License-Identifier: GPL-2.0-only
#
# Count the leaf results of a (possibly nested) KTAP document, as printed
# by selftests/run.sh, tools/fi-probe/test.sh or KUnit, amid console noise.
# Prints "PASSED FAILED SKIPPED".  A parent whose result is "not ok"
# without a failed child (a test program that crashed or timed out)
# counts as one failure, and so does every planned top-level test that
# never reported.
#
# With -v names=PART it first prints, for the first eight failed results
# (parents too), "# PART: NAME" and the last two diagnostic lines before
# it (the test's own reason), then "# PART: N planned tests never
# reported" if a guest stopped early; the counts stay the last line.
#
# Usage: awk [-v names=PART] -f tools/ktap-count.awk FILE...
{
	sub(/\r$/, "")
	if (!match($0, /^ *(not ok|ok) [0-9]+/)) {
		if (match($0, /^ *1\.\.[0-9]+$/)) {
			d = index($0, "1") - 1
			if (d == 0) { split($0, a, "\\.\\."); planned += a[2] }
		} else if ($0 ~ /^ *# / && $0 !~ /# (Subtest|Totals):/) {
			diag2 = diag1
			diag1 = $0
			sub(/^ *# */, "", diag1)
		}
		next
	}
	d = match($0, /[^ ]/) - 1
	notok = ($0 ~ /^ *not ok/)
	skip = ($0 ~ /# *SKIP/)
	if (d == 0) top++
	if (names != "" && notok && !skip && named < 8) {
		name = $0
		sub(/^ *not ok [0-9]+ */, "", name)
		printf "# %s: %s\n", names, name
		if (diag2 != "") printf "#     %s\n", substr(diag2, 1, 200)
		if (diag1 != "") printf "#     %s\n", substr(diag1, 1, 200)
		named++
	}
	diag1 = diag2 = ""
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
	if (planned > top) {
		failed += planned - top
		if (names != "")
			printf "# %s: %d planned tests never reported\n", names, planned - top
	}
	printf "%d %d %d\n", passed, failed, skipped
}
