#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# End-to-end test of tools/compare in the guest: powersave and
# performance x one short CPU-bound run x 2 repetitions on the epyc-7742
# preset under instruction counting (1 vCPU), printed as KTAP.  Checks
# that the plan ran, that the tables are there, that each governor held
# the frequency it stands for (time_in_state), and, with the emulated
# machine, that the slower P-state took longer and drew less power.
#
# Usage: tools/compare/test_guest.sh [OUTDIR]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/build}
out=${1:-$build/compare/check-e2e}
rm -rf "$out"

n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
check() { # DESC CMD...
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}

echo "KTAP version 1"
echo "1..8"
# Before vcpufreq has its emulated machine, the harness still runs.
energy=
grep -qs 'module_param[_a-z]*(emulate,' "$top"/selftests/vcpufreq*.c || energy=--no-energy
t0=$(date +%s)
mkdir -p "$(dirname "$out")"
"$top/tools/compare/compare" --guest epyc-7742 -c powersave -c performance -b powersave \
	-w cpu:1 --cpu-ops 60 -r 2 --seed 1 --settle 0.5 --timeout 900 $energy -o "$out" \
	> "$out.log" 2>&1
rc=$?
echo "# compare exited $rc after $(($(date +%s) - t0)) s (log: $out.log)"
sed 's/^/# /' "$out.log" | grep -E '^# compare:|^# vm:' | head -n 12
check "compare ran the plan and exited 0" [ "$rc" = 0 ]

# q EXPR: evaluate a Python expression over results.json (r = results,
# m = meta); prints it and exits 0 when it is true.
q() {
	python3 - "$out/results.json" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r, m = d['results'], d['meta']
ok = [x for x in r if x['status'] == 'ok']
def runs(c):
    return [x for x in ok if x['config'] == c]
def share(c, pick):
    t = {}
    for x in runs(c):
        for f, ms in x['time_in_state_ms'].items():
            t[int(f)] = t.get(int(f), 0) + ms
    return t.get(pick(t), 0) / max(1, sum(t.values())) if t else 0
def mean(xs):
    return sum(xs) / len(xs) if xs else float('nan')
v = eval(sys.argv[2])
print('#', sys.argv[2], '->', v)
sys.exit(0 if v else 1)
EOF
}

if [ ! -s "$out/results.json" ]; then
	for d in "4 runs measured" "the report has the three kinds of table" \
		"powersave held the lowest P-state" "performance held the highest P-state" \
		"--report re-renders the same tables" "powersave's run took longer" \
		"powersave drew less power"; do
		nok "$d"
	done
	echo "# 0 passed, $fails failed"
	exit 1
fi

check "4 runs measured" q 'len(ok) == 4'
tables() {
	grep -q '^PERFORMANCE RATIOS' "$out/report.txt" &&
		grep -q '^2. DETAILED PERFORMANCE TABLES' "$out/report.txt" &&
		grep -q '^Amean ' "$out/report.txt" || return 1
	[ -n "$energy" ] || { grep -q '^PERFORMANCE-PER-WATT RATIOS' "$out/report.txt" &&
		grep -q '^3. POWER CONSUMPTION TABLE' "$out/report.txt"; }
}
check "the report has the three kinds of table" tables
check "powersave held the lowest P-state (>= 90 % of time_in_state)" \
	q "share('powersave', min) >= 0.9"
check "performance held the highest P-state (>= 90 % of time_in_state)" \
	q "share('performance', max) >= 0.9"
cp "$out/report.txt" "$out/report.first"
"$top/tools/compare/compare" --report "$out" > /dev/null 2>&1
check "--report re-renders the same tables" cmp -s "$out/report.txt" "$out/report.first"

if grep -q 'POWER CONSUMPTION' "$out/report.txt"; then
	# 1500 vs 2250 MHz (3400 with boost): at least 1.3x the time.
	check "powersave's run took longer (emulated frequency)" \
		q "mean([x['figure'] for x in runs('powersave')]) > 1.3 * mean([x['figure'] for x in runs('performance')])"
	check "powersave drew less power (energy model)" \
		q "mean([x['power_w'] for x in runs('powersave')]) < mean([x['power_w'] for x in runs('performance')])"
else
	skip "powersave's run took longer (emulated frequency)" "no powercap zone: vcpufreq without emulation"
	skip "powersave drew less power (energy model)" "no powercap zone: vcpufreq without emulation"
fi
echo "# $((n - fails)) passed, $fails failed"
[ "$fails" = 0 ]
