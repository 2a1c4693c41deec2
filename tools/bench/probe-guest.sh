#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/bench/probe-cost.sh, guest side: the chain rule's tracepoint
# probes, per call (selftests/probebench.ko calls the sched_waking or
# sched_switch probes in a loop on CPU 0).  Three configurations, each
# in every round (round-robin, so drift hits all alike):
#   performance   no probe registered: the iterator walks an empty list
#   chain-off     sugov_inv with chain_window_us=0: the probes are
#                 removed, so this should read as performance
#   chain-on      sugov_inv with its default chain_window_us
# Prints "PROBE ROUND CONFIG EVENT NS CALLS" lines.
#
# Usage: sh tools/bench/probe-guest.sh [ROUNDS] [CALLS]
rounds=${1:-5}
calls=${2:-100000}
P=/sys/module/probebench/parameters
. selftests/sugov-lib.sh

insmod selftests/vcpufreq.ko preset=epyc-7742 fast_switch=1 || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 || exit 1
insmod sugov_inv.ko || exit 1
insmod selftests/probebench.ko || exit 1
window=$(cat /sys/module/sugov_inv/parameters/chain_window_us 2>/dev/null)

config() {
	case $1 in
	performance) set_all scaling_governor performance ;;
	chain-off) set_all scaling_governor sugov_inv && echo 0 > $CPUFREQ/sugov_inv/chain_window_us ;;
	chain-on) set_all scaling_governor sugov_inv && echo "${window:-10000}" > $CPUFREQ/sugov_inv/chain_window_us ;;
	esac
}

echo "PROBE_SETUP rounds=$rounds calls=$calls cpus=$(nproc) chain_window_us=${window:-?}"
taskset -p 1 $$ >/dev/null || exit 1
r=1
while [ $r -le "$rounds" ]; do
	for c in performance chain-off chain-on; do
		config "$c" || { echo "probe-guest: configuration $c not set" >&2; exit 1; }
		# The probes follow the governor and the window from a work
		# item (sugov_inv_chain_sync()): the state the configuration wants
		if [ $c = chain-on ]; then want=registered; else want=off; fi
		probes_are $want >&2 || exit 1
		for e in waking switch_idle switch_task; do
			echo $e > $P/event || exit 1
			echo "$calls" > $P/run || exit 1
			echo "PROBE $r $c $e $(cat $P/result_ns) $calls"
		done
	done
	r=$((r + 1))
done
set_all scaling_governor performance || exit 1
