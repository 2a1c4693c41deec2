#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, guest side: the cost of each governor's update_util hook.
# selftests/hookbench.ko calls the hook the governor installed on this
# CPU N times in a loop, IRQs off, with a fresh local_clock() as the
# time (the scheduler's conditions), and no tracer anywhere; under
# -icount guest time follows executed instructions.  performance
# installs no hook: its loop (the clock reads alone) is the baseline
# tools/bench/report.py subtracts, per round.  (Timing hackbench per
# governor against performance was tried first: with about 700 hook
# calls per run the hooks add about 0.5 ms to a run whose own time
# varies by 40 ms from run to run.)  Every configuration runs in every
# round (round-robin, so drift hits all alike).  Prints BENCH lines.
#
# With SHARED (third argument "shared") vcpufreq makes one policy of all
# CPUs: the loop runs on CPU 0 while the others idle, so an evaluation
# also gathers every idle sibling (bench.sh boots 4 vCPUs for it).
#
# BENCH_CONFIGS (environment) narrows the configurations, e.g. to
# "performance schedutil-rl0 sugov_inv-rl0" for the CPU-count scaling
# runs of bench.sh (performance, the baseline, must stay).
#
# Usage: sh tools/bench/guest.sh [ROUNDS] [CALLS] [shared]
rounds=${1:-3}
calls=${2:-10000}
shared=0
[ "${3:-}" = shared ] && shared=1
CPUFREQ=/sys/devices/system/cpu/cpufreq

insmod selftests/vcpufreq.ko preset=epyc-7742 fast_switch=1 shared=$shared || exit 1
insmod freq_invariance.ko max_p_khz=2250000 max_boost_khz=3400000 || exit 1
insmod sugov_inv.ko || exit 1
modprobe cpufreq_ondemand || exit 1

set_gov() {
	for p in $CPUFREQ/policy*; do echo "$1" > "$p/scaling_governor" || exit 1; done
}

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
	sugov_inv-norules-rl0)
		# The full evaluation without the memory for work that arrives
		# on an idle CPU, nor the chain rule (its probes removed)
		set_gov sugov_inv; echo 0 > $CPUFREQ/sugov_inv/rate_limit_us
		echo 0 > $CPUFREQ/sugov_inv/idle_restore_us
		echo 0 > $CPUFREQ/sugov_inv/chain_window_us ;;
	sugov_inv-nochain-rl0)
		# The full evaluation without the chain rule (its probes removed)
		set_gov sugov_inv; echo 0 > $CPUFREQ/sugov_inv/rate_limit_us
		echo 0 > $CPUFREQ/sugov_inv/chain_window_us ;;
	esac
}

insmod selftests/hookbench.ko || exit 1
H=/sys/module/hookbench/parameters
echo "BENCH_SETUP rounds=$rounds calls=$calls cpus=$(nproc) shared=$shared"
# The loop runs on CPU 0, the CPU whose hook it calls
taskset -p 1 $$ >/dev/null || exit 1

configs=${BENCH_CONFIGS:-performance ondemand schedutil-rl0 schedutil-rl1s sugov_inv-rl0 sugov_inv-rl1s sugov_inv-default
sugov_inv-nochain-rl0 sugov_inv-norules-rl0}
r=1
while [ $r -le "$rounds" ]; do
	for c in $configs; do
		config "$c"
		# A little load first, so the governor's state is a live one
		hackbench -g 1 -l 5 >/dev/null
		echo "$calls" > $H/run || exit 1
		echo "BENCH $r $c $(cat $H/result_ns) $(cat $H/calls)"
		set_gov performance
	done
	r=$((r + 1))
done
