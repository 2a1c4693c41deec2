#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# End-to-end test of tools/compare in the guest: powersave and
# performance x (one short CPU-bound run, a command that hangs once, a
# command that signals its runner) x 2 repetitions on the epyc-7742
# preset under instruction counting (1 vCPU), printed as KTAP.  The guest
# starts from sugov_inv with tunables of its own (--guest-setup).  Checks
# that the plan ran, that the tables are there, that each governor held
# the frequency it stands for (time_in_state), with the emulated machine
# that the slower P-state took longer and drew less power, that the hung
# run was stopped at its time limit and recorded as failed, that the
# signalled runs were recorded as interrupted, that the plan went on
# after both, and that the cpufreq state (governors and tunables) after
# the plan is the one found before it.
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
echo "1..11"
# Before vcpufreq has its emulated machine, the harness still runs.
energy=
grep -qs 'module_param[_a-z]*(emulate,' "$top"/selftests/vcpufreq*.c || energy=--no-energy
t0=$(date +%s)
mkdir -p "$(dirname "$out")"
cf=/sys/devices/system/cpu/cpufreq
setup="for p in $cf/policy*; do echo sugov_inv > \$p/scaling_governor; done;
	for d in $cf/sugov_inv $cf/policy*/sugov_inv; do [ -d \$d ] || continue;
	echo 5000 > \$d/rate_limit_us; echo midpoint > \$d/freq_max_policy; done"
hang='[ -e /tmp/compare-hung ] || { : > /tmp/compare-hung; sleep 600; }'
# The workload's shell -> run-one.sh --workload -> run-one.sh.
# shellcheck disable=SC2016
selfterm='read -r _ _ _ r _ < /proc/$PPID/stat; kill -TERM $r; sleep 30'
"$top/tools/compare/compare" --guest epyc-7742 -c powersave -c performance -b powersave \
	-w cpu:1 --cpu-ops 60 --cmd hang "$hang" --cmd selfterm "$selfterm" -r 2 --seed 1 \
	--settle 0.5 --run-timeout 15 --guest-setup "$setup" --timeout 900 $energy -o "$out" \
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
    return [x for x in ok if x['config'] == c and x['workload'] == 'cpu']
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
	for d in "4 CPU-bound runs measured" "the report has the three kinds of table" \
		"powersave held the lowest P-state" "performance held the highest P-state" \
		"--report re-renders the same tables" "powersave's run took longer" \
		"powersave drew less power" "the hung run: stopped at its limit, failed" \
		"the signalled runs: interrupted" "the cpufreq state is as found"; do
		nok "$d"
	done
	echo "# 0 passed, $fails failed"
	exit 1
fi

check "4 CPU-bound runs measured" q "len(runs('powersave') + runs('performance')) == 4"
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
check "the hung run: stopped at its 15 s limit, recorded failed; the plan went on" \
	q "[(x['status'], x['rc'], x['note']) for x in r if x['workload'] == 'hang' and x['status'] != 'ok'] == [('failed', 124, 'time limit 15 s')] and len(r) == len(m['plan'])"
check "the runs that signalled their runner: recorded interrupted, the plan went on" \
	q "[x['status'] for x in r if x['workload'] == 'selfterm'] == ['interrupted'] * 4"
check "the cpufreq state after the plan is as found (sugov_inv, rate_limit_us 5000, midpoint)" \
	q "m['guest_state_before'] == m['guest_state_after'] and 'rate_limit_us=5000' in m['guest_state_before'] and '[midpoint]' in m['guest_state_before'] and m['guest_state_before'].count('policy') >= 1"
echo "# $((n - fails)) passed, $fails failed"
[ "$fails" = 0 ]
