#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, guest side: the cost of each governor's update_util hook
# under hackbench.  Under -icount guest time follows executed
# instructions, so the extra guest time a governor's hook adds to the
# same hackbench run, against performance (which installs no hook), is
# the hook's cost in instructions, with no tracer in the timed run.  A
# separate, untimed run of the same workload counts the hook calls with
# the function profiler (trace_stat hit counts, the hook functions
# only); the report divides the one by the other.  Every configuration
# runs in every round (round-robin, so drift hits all alike).  Prints
# BENCH lines for tools/bench/report.py.
#
# Usage: sh tools/bench/guest.sh [ROUNDS] [HACKBENCH_LOOPS]
rounds=${1:-3}
loops=${2:-20}
CPUFREQ=/sys/devices/system/cpu/cpufreq
T=/sys/kernel/tracing

insmod selftests/vcpufreq.ko preset=epyc-7742 fast_switch=1 || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 || exit 1
insmod sugov_inv.ko || exit 1
modprobe cpufreq_ondemand || exit 1

set_gov() {
	for p in $CPUFREQ/policy*; do echo "$1" > "$p/scaling_governor" || exit 1; done
}

# The hook functions: schedutil's and ondemand's (built into Debian's
# kernel) and ours.  Only those that exist are counted.
hooks="sugov_inv_update_single sugov_inv_update_shared sugov_update_single_freq
sugov_update_single_perf sugov_update_shared dbs_update_util_handler"

# config NAME: select it.  rl0 evaluates on every hook call (the full
# evaluation); rl1s returns early on the rate limit on nearly every call.
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

[ -e $T/function_profile_enabled ] || { echo "BENCH_ERROR no function profiler"; exit 1; }
echo nop > $T/current_tracer
: > $T/set_ftrace_filter
for h in $hooks; do
	grep -qw "^$h" $T/available_filter_functions && echo "$h" >> $T/set_ftrace_filter
done
echo "BENCH_SETUP rounds=$rounds loops=$loops cpus=$(nproc) hooks=$(tr '\n' ' ' < $T/set_ftrace_filter)"

# Guest ns of one hackbench run, process start included (alike for all).
timed() {
	s=$(date +%s%N)
	hackbench -g 1 -l "$loops" >/dev/null
	e=$(date +%s%N)
	echo $((e - s))
}

# Hook calls in one untimed run: the profiler's hit counts, summed over
# the hook functions and the CPUs.
counted() {
	echo 0 > $T/function_profile_enabled
	echo 1 > $T/function_profile_enabled
	hackbench -g 1 -l "$loops" >/dev/null
	echo 0 > $T/function_profile_enabled
	cat $T/trace_stat/function* | awk -v hooks="$hooks" '
		BEGIN { split(hooks, h); for (i in h) hook[h[i]] = 1 }
		$1 in hook { n += $2 }
		END { print n + 0 }'
}

configs="performance ondemand schedutil-rl0 schedutil-rl1s sugov_inv-rl0 sugov_inv-rl1s sugov_inv-default"
hackbench -g 1 -l "$loops" >/dev/null
r=1
while [ $r -le "$rounds" ]; do
	for c in $configs; do
		config "$c"
		sleep 0.2
		t=$(timed)
		n=$(counted)
		echo "BENCH $r $c $t $n"
		set_gov performance
	done
	r=$((r + 1))
done
