#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo's guest side: every freq_max policy of sugov_inv through the
# same load sequence on vcpufreq's epyc-7742 preset, with freq_invariance
# told the 3.4 GHz boost that acpi-cpufreq hides on Rome.  Prints phase
# boundaries (CLOCK_BOOTTIME seconds, the clock of vcpufreq's record in
# a guest that never suspends) and then the whole request record, for
# tools/demo/report.py.  Also used by the governor's selftest.
#
# Usage: sh tools/demo/guest.sh [PHASE_SECONDS] [POLICIES...]
phase_s=${1:-3}
[ $# -gt 0 ] && shift
policies=${*:-"max_P midpoint max_boost overutil-detect noinv"}
ncpu=$(nproc)
CPUFREQ=/sys/devices/system/cpu/cpufreq

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

idle() { sleep "$phase_s"; }
one_busy() { taskset -c 1 stress-ng --cpu 1 --timeout "$phase_s" --quiet; }
half_busy() { taskset -c 1 stress-ng --cpu 1 --cpu-load 50 --timeout "$phase_s" --quiet; }
all_90() { stress-ng --cpu "$ncpu" --cpu-load 90 --timeout "$phase_s" --quiet; }
all_flat() { stress-ng --cpu "$ncpu" --timeout "$phase_s" --quiet; }

insmod selftests/vcpufreq.ko preset=epyc-7742 || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 || exit 1
insmod sugov_inv.ko || exit 1
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
	phase one_busy one_busy
	phase half_busy half_busy
	phase all_90 all_90
	phase all_flat all_flat
	phase idle_again idle
done

echo "DEMO_RECORD_BEGIN"
cat /sys/kernel/debug/vcpufreq/requests
echo "DEMO_RECORD_END"
for p in $CPUFREQ/policy*; do
	echo performance > "$p/scaling_governor"
done
rmmod sugov_inv && rmmod freq_invariance && rmmod vcpufreq
