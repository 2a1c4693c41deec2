#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo's guest side, on vcpufreq's emulated EPYC 7742 (emulate=1: a
# CPU set to f runs f/3400 MHz as fast and draws the model's power),
# with freq_invariance told the 3.4 GHz boost that acpi-cpufreq hides on
# Rome.  For every freq_max policy of sugov_inv:
#   1. the same load sequence (idle, flat out, 50 %, 90 %, idle), with
#      phase boundaries printed (CLOCK_BOOTTIME seconds, the clock of
#      vcpufreq's request record in a guest that never suspends);
#   2. the consequences, measured by tools/compare/run-one.sh: a bursty
#      load (fixed shell loops, each after 100 ms of idle) and a steady
#      one (rt-app, fixed work every 16 ms, 50 % of the period at the top
#      frequency), each with its time and energy;
# then the consequences for performance and powersave as the bounds,
# and the whole request record, for tools/demo/report.py.
#
# Usage: sh tools/demo/guest.sh [PHASE_SECONDS] [POLICIES...]
phase_s=${1:-3}
[ $# -gt 0 ] && shift
policies=${*:-"max_P midpoint max_boost overutil-detect noinv"}
ncpu=$(nproc)
last=$((ncpu - 1))
CPUFREQ=/sys/devices/system/cpu/cpufreq
RUN_ONE=tools/compare/run-one.sh

now() { cut -d' ' -f1 /proc/uptime; }

set_tunable() {
	ok=1
	for f in $CPUFREQ/sugov_inv/$1 $CPUFREQ/policy*/sugov_inv/$1; do
		[ -f "$f" ] && { echo "$2" > "$f" || ok=0; }
	done
	[ $ok = 1 ]
}

# phase NAME COMMAND...: run COMMAND for one phase and mark its bounds.
phase() {
	name=$1
	shift
	start=$(now)
	"$@" >/dev/null 2>&1
	echo "DEMO_PHASE $policy $name $start $(now)"
}

# The loads run on the last CPU; report.py reads that CPU's requests.
idle() { sleep "$phase_s"; }
flat() { taskset -c $last stress-ng --cpu 1 --timeout "$phase_s" --quiet; }
half() { taskset -c $last stress-ng --cpu 1 --cpu-load 50 --timeout "$phase_s" --quiet; }
busy90() { taskset -c $last stress-ng --cpu 1 --cpu-load 90 --timeout "$phase_s" --quiet; }

# consequences CONFIG NAME: the bursty and the steady load under CONFIG,
# as DEMO_RESULT lines (run-one.sh's COMPARE_RESULT and its output), and
# their span as a DEMO_PHASE "loads".
consequences() {
	start=$(now)
	SETTLE_S=0.5 SAMPLE_S=0 sh $RUN_ONE 1 "$1" burst 100 20 < /dev/null |
		sed -n "s/^COMPARE_RESULT 1 /DEMO_RESULT $2 bursty /p"
	SETTLE_S=0.5 SAMPLE_S=0 sh $RUN_ONE 2 "$1" periodic 50 < /dev/null |
		sed -n -e "s/^COMPARE_RESULT 2 /DEMO_RESULT $2 steady /p" \
			-e "s/^COMPARE_OUT 2 rtapp task periodic /DEMO_RTAPP $2 /p"
	echo "DEMO_PHASE $2 loads $start $(now)"
}

insmod selftests/vcpufreq.ko preset=epyc-7742 emulate=1 || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 || exit 1
insmod sugov_inv.ko || exit 1
modprobe cpufreq_powersave 2>/dev/null
for p in $CPUFREQ/policy*; do
	echo sugov_inv > "$p/scaling_governor" || exit 1
done
echo "DEMO_CPUS $ncpu $phase_s"
for f in /sys/kernel/freq_invariance/cpu0/*; do
	echo "DEMO_CAPS $(basename "$f") $(cat "$f")"
done

for policy in $policies; do
	set_tunable freq_max_policy "$policy" || { echo "cannot select $policy"; exit 1; }
	phase idle idle
	phase flat flat
	phase half half
	phase busy90 busy90
	phase idle_again idle
	# run-one.sh puts back the governor and its tunables as it found them.
	consequences "sugov_inv:$policy" "$policy"
done
consequences performance performance
consequences powersave powersave

echo "DEMO_RECORD_BEGIN"
cat /sys/kernel/debug/vcpufreq/requests
echo "DEMO_RECORD_END"
for p in $CPUFREQ/policy*; do
	echo performance > "$p/scaling_governor"
done
rmmod sugov_inv && rmmod freq_invariance && rmmod vcpufreq
