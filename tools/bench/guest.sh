#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, guest side: the cost of the governors' update_util hooks
# under hackbench, every configuration in every round (round-robin, so
# drift hits all alike).  Run under -icount (guest time follows executed
# instructions) on one vCPU; prints BENCH lines for tools/bench/report.py.
#
# Usage: sh tools/bench/guest.sh [ROUNDS] [HACKBENCH_LOOPS]
rounds=${1:-5}
loops=${2:-40}
CPUFREQ=/sys/devices/system/cpu/cpufreq
SUMMARY=/sys/kernel/debug/sugov_inv/summary

insmod selftests/vcpufreq.ko preset=epyc-7742 fast_switch=1 || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 || exit 1
insmod sugov_inv.ko || exit 1
modprobe cpufreq_ondemand || exit 1

set_gov() {
	for p in $CPUFREQ/policy*; do echo "$1" > "$p/scaling_governor" || exit 1; done
}

# Hook calls of sugov_inv so far: evaluations + rate-limited returns.
sugov_calls() {
	awk '!/^#/ { n += $3 + $4 } END { printf "%.0f\n", n }' $SUMMARY
}

# config NAME: select it.  performance installs no hook: the floor.
# rl0 evaluates on every hook call (full evaluation); rl1s returns early
# on the rate limit on nearly every call.
config() {
	case $1 in
	performance) set_gov performance ;;
	ondemand) set_gov ondemand ;;
	schedutil-rl0) set_gov schedutil; echo 0 > $CPUFREQ/schedutil/rate_limit_us ;;
	schedutil-rl1s) set_gov schedutil; echo 1000000 > $CPUFREQ/schedutil/rate_limit_us ;;
	sugov_inv-rl0) set_gov sugov_inv; echo 0 > $CPUFREQ/sugov_inv/rate_limit_us ;;
	sugov_inv-rl1s) set_gov sugov_inv; echo 1000000 > $CPUFREQ/sugov_inv/rate_limit_us ;;
	sugov_inv-default) set_gov sugov_inv ;;
	esac
}

configs="performance ondemand schedutil-rl0 schedutil-rl1s sugov_inv-rl0 sugov_inv-rl1s sugov_inv-default"
echo "BENCH_SETUP rounds=$rounds loops=$loops cpus=$(nproc)"
# Warm-up: page cache, slab caches.
hackbench -g 1 -l "$loops" >/dev/null
r=1
while [ $r -le "$rounds" ]; do
	for c in $configs; do
		config "$c"
		sleep 0.2
		before=0
		case $c in sugov_inv*) before=$(sugov_calls) ;; esac
		t=$(hackbench -g 1 -l "$loops" | awk '/^Time:/ { print $2 }')
		calls=0
		case $c in sugov_inv*) calls=$(($(sugov_calls) - before)) ;; esac
		echo "BENCH $r $c $t $calls"
		# Reset the rate limits to their defaults between rounds.
		set_gov performance
	done
	r=$((r + 1))
done
