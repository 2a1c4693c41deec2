#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, guest side: the cost of each governor's update_util hook
# under hackbench.  The function_graph tracer times every call of the
# hook functions (depth 2: each call with its direct callees, whose
# own tracing cost is included, alike for every governor); under -icount guest time follows executed instructions, so
# the durations do not depend on the host's load.  Every configuration
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
# kernel) and ours.  Only those that exist are traced.
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

echo function_graph > $T/current_tracer || { echo "BENCH_ERROR no function_graph tracer"; exit 1; }
: > $T/set_graph_function
for h in $hooks; do
	grep -qw "^$h" $T/available_filter_functions && echo "$h" >> $T/set_graph_function
done
# Depth 2: the hook and its direct callees.  With depth 1 the tracer
# drops most calls made from interrupts (seen on 6.1: 31 of 390 hook
# calls recorded, against 298 of 306 with depth 2).
echo 2 > $T/max_graph_depth
echo 16384 > $T/buffer_size_kb
# Name the function on its closing line, which carries the duration.
echo funcgraph-tail > $T/trace_options
echo "BENCH_SETUP rounds=$rounds loops=$loops cpus=$(nproc) hooks=$(tr '\n' ' ' < $T/set_graph_function)"

configs="performance ondemand schedutil-rl0 schedutil-rl1s sugov_inv-rl0 sugov_inv-rl1s sugov_inv-default"
hackbench -g 1 -l "$loops" >/dev/null
r=1
while [ $r -le "$rounds" ]; do
	for c in $configs; do
		config "$c"
		sleep 0.2
		# The tracer is started for each run: with tracing_on toggled
		# under a running function_graph, most hook calls went missing.
		echo function_graph > $T/current_tracer
		echo > $T/trace
		t=$(hackbench -g 1 -l "$loops" | awk '/^Time:/ { print $2 }')
		echo 0 > $T/tracing_on
		# " 0)   0.880 us    |  sugov_update_single_freq();"
		# Only the hook functions: the tracer also shows the returns of
		# functions that were running when tracing started.
		awk -v r=$r -v c=$c -v t="$t" -v hooks="$hooks" '
			BEGIN { split(hooks, h); for (i in h) hook[h[i]] = 1 }
			{
				# A call without traced callees: "name();"; with them,
				# its last line: "} /* name */"; module functions
				# carry " [module]".  Both lines hold the duration.
				f = $0
				sub(/^.*\|[ ]*/, "", f)
				sub(/ \[[a-z_]+\]/, "", f)
				if (!sub(/\(\);$/, "", f) && !(sub(/^} \/\* /, "", f) && sub(/ \*\/$/, "", f)))
					next
				if (!(f in hook)) next
				for (i = 1; i <= NF; i++) if ($i == "us") { d = $(i - 1); break }
				gsub(/[^0-9.]/, "", d)
				n++; sum += d; v[n] = d
			}
			END { printf "BENCH %d %s %s %d %.3f\n", r, c, t, n, n ? sum / n : 0 }' $T/trace
		echo nop > $T/current_tracer
		echo 1 > $T/tracing_on
		set_gov performance
	done
	r=$((r + 1))
done
echo nop > $T/current_tracer
