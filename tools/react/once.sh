#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One reaction measurement, run by tools/compare/run-one.sh as a "cmd"
# workload under the configuration it selected: CPU idles, then one
# thread runs flat out on it; prints how long after the thread first ran
# on the CPU the governor first asked vcpufreq for the top of the table.
#
# Usage: sh tools/react/once.sh CPU RUN_MS
# Prints "REACT ms=M first_khz=K start_khz=S" (ms=none: no request for
# the top within RUN_MS; S: the CPU's frequency when the thread started) and "REACT_REQ T_MS:KHZ,..." (every request for the CPU
# from the thread's start, ms relative to it).
#
# The thread's start is its first sched_switch onto CPU (ftrace, mono
# clock: the clock of vcpufreq's request record, ktime_get_ns()).  Before
# it the CPU is woken a few times, briefly, then left idle for a second,
# so the governor has a history and nothing to remember from it, and the
# CPU is brought to the bottom of the table through scaling_max_freq (a
# governor may leave an idle CPU anywhere: nothing evaluates it), so every
# configuration starts from the same place.
cpu=$1 run_ms=$2
T=/sys/kernel/tracing
V=/sys/kernel/debug/vcpufreq
P=/sys/devices/system/cpu/cpu$cpu/cpufreq
top=$(cat $P/cpuinfo_max_freq)
bottom=$(cat $P/cpuinfo_min_freq)

# The wake-ups are a shell builtin's timeouts (read -t on a FIFO no one
# writes), not forks of sleep: under TCG a fork and exec keeps the CPU
# busy for a tick or more, which a governor would remember as load.
taskset -c "$cpu" sh -c 'f=/tmp/react-fifo.$$; mkfifo $f; exec 3<> $f; rm $f
	i=0; while [ $i -lt 10 ]; do read -t 0.05 x <&3; i=$((i + 1)); done'
echo "$bottom" > $P/scaling_max_freq
sleep 0.05
echo "$top" > $P/scaling_max_freq
sleep 1
start_khz=$(cat $P/scaling_cur_freq)

echo 0 > $T/tracing_on
echo mono > $T/trace_clock
echo > $T/trace
echo 1 > $T/events/sched/sched_switch/enable
echo 1 > $V/reset
echo 1 > $T/tracing_on
taskset -c "$cpu" sh -c 'while :; do :; done' &
pid=$!
sleep "$(echo "$run_ms" | awk '{ printf "%.3f", $1 / 1000 }')"
kill "$pid"
wait "$pid" 2>/dev/null
echo 0 > $T/tracing_on
echo 0 > $T/events/sched/sched_switch/enable

# "  sh-123   [001] d..2.  45.678901: sched_switch: ... next_pid=123 ..."
t0_us=$(grep "\[$(printf %03d "$cpu")\]" $T/trace | grep " next_pid=$pid " | head -n 1 |
	sed -n 's/.* \([0-9]*\)\.\([0-9]*\): sched_switch.*/\1\2/p')
if [ -z "$t0_us" ]; then
	echo "REACT ms=error (the thread never ran on CPU $cpu)"
	exit 1
fi
awk -v cpu="$cpu" -v top="$top" -v t0="$t0_us" -v start="$start_khz" '
	$2 == cpu && $1 / 1000 >= t0 {
		ms = ($1 / 1000 - t0) / 1000
		req = req sep sprintf("%.1f:%d", ms, $3); sep = ","
		if (first == "") first = $3
		if ($3 == top && hit == "") hit = sprintf("%.1f", ms)
	}
	END {
		printf "REACT ms=%s first_khz=%s start_khz=%s\n", hit == "" ? "none" : hit, first == "" ? "none" : first, start
		printf "REACT_REQ %s\n", req == "" ? "-" : req
	}' $V/requests
