#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Which difference between schedutil and sugov_inv's noinv makes a burst
# after an idle gap slower under sugov_inv (Documentation/bench.rst,
# "The schedutil and noinv configurations"): the same 40 bursts after
# 100 ms gaps under each governor, with the scheduler's UTIL_EST feature
# on and off, three times.  Prints "UTILEST rep= feat= gov= busy_s=".
# In the guest, from /sugov:
#   tools/vm/run --icount --smp 1 -- sh tools/compare/util-est-guest.sh
insmod selftests/vcpufreq.ko preset=epyc-7742 emulate=1 || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 && insmod sugov_inv.ko || exit 1
modprobe cpufreq_schedutil 2>/dev/null
P=/sys/devices/system/cpu/cpufreq/policy0
burst() { i=0; while [ $i -lt 40 ]; do sleep 0.1; j=0; while [ $j -lt 300 ]; do j=$((j + 1)); done; i=$((i + 1)); done; }
for rep in 1 2 3; do
for feat in UTIL_EST NO_UTIL_EST; do
	echo $feat > /sys/kernel/debug/sched/features || echo "no sched features"
	for gov in schedutil noinv; do
		if [ $gov = noinv ]; then echo sugov_inv > $P/scaling_governor; echo noinv > /sys/devices/system/cpu/cpufreq/sugov_inv/freq_max_policy; else echo schedutil > $P/scaling_governor; fi
		sleep 1
		t0=$(cut -d' ' -f1 /proc/uptime); burst; t1=$(cut -d' ' -f1 /proc/uptime)
		echo "UTILEST rep=$rep feat=$feat gov=$gov busy_s=$(echo "$t1 $t0" | awk '{ printf "%.3f", $1 - $2 - 4.0 }')"
	done
done
done
