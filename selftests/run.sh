#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every selftests/NN-name.sh in the guest and nest their KTAP output
# as subtests of one KTAP document.  Each test program is killed after
# its `settings` timeout (kselftest's file format: timeout=SECONDS).
#
# Usage (in the guest, from /sugov): sh selftests/run.sh [NAME-GLOB...]
# (every test matching one of the globs, in the order of their numbers)
dir=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- '[0-9][0-9]-*.sh'

timeout_s=300
[ -f "$dir/settings" ] && . "$dir/settings" && timeout_s=${timeout:-300}

tests=$(for glob in "$@"; do
	for t in "$dir"/$glob; do
		[ -f "$t" ] && echo "$t"
	done
done | sort -u)
n=0
for t in $tests; do n=$((n + 1)); done

# kmemleak's periodic scan (every 10 minutes; seconds of CPU on a KASAN
# kernel under TCG) would make an idle CPU busy at a random moment of a
# timing check; the suites scan when they check for leaks.
[ -w /sys/kernel/debug/kmemleak ] && echo scan=off > /sys/kernel/debug/kmemleak

echo "KTAP version 1"
echo "1..$n"
i=0
failed=0
for t in $tests; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	echo "    # Subtest: $name"
	start=$(date +%s)
	# Indent the subtest's KTAP by four spaces; keep its status.
	{ timeout "$timeout_s" sh "$t" 2>&1; echo "rc=$?" > /tmp/ktap-rc; } |
		sed 's/^/    /'
	rc=$(sed -n 's/^rc=//p' /tmp/ktap-rc)
	took=$(($(date +%s) - start))
	case $rc in
	0) echo "    # $name took ${took}s"
	   echo "ok $i $name" ;;
	4) echo "ok $i $name # SKIP" ;;
	124|143) echo "    # $name: killed after ${timeout_s}s"
	     echo "not ok $i $name"; failed=1 ;;
	*) echo "not ok $i $name # exit $rc"; failed=1 ;;
	esac
done
exit $failed
