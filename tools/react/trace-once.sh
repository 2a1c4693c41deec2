#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The mechanism behind a burst after an idle gap, run by
# tools/compare/run-one.sh as a "cmd" workload under the configuration it
# selected: BURSTS bursts of tools/compare's burst loop (300 shell loop
# iterations, about 35 ms at the top) after GAP_MS of idle each, with
# sugov_inv_decision (when sugov_inv runs) and power:cpu_frequency
# recorded; prints the events of the last burst, from the start of its
# gap to the end of the burst, in ms relative to the gap's end (the shell
# forks "sleep" before the gap and reaps it after: that work is part of
# the burst's busy time in tools/compare).
#
# Usage: sh tools/react/trace-once.sh GAP_MS BURSTS
# Prints "TRACE <ms> <event>: <fields>" lines, "TRACE_BURST <ms>" (the
# last burst's length) and "TRACE_BUSY <ms>,..." (every burst's busy
# time as tools/compare counts it: gap start to burst end, less the gap).
gap_ms=$1 bursts=$2
T=/sys/kernel/tracing
gap=$(echo "$gap_ms" | awk '{ printf "%.3f", $1 / 1000 }')

echo 0 > $T/tracing_on
echo mono > $T/trace_clock
echo 4096 > $T/buffer_size_kb
echo > $T/trace
echo 1 > $T/events/power/cpu_frequency/enable
[ -d $T/events/sugov_inv ] && echo 1 > $T/events/sugov_inv/enable
echo 1 > $T/tracing_on
i=1
while [ $i -le "$bursts" ]; do
	echo "gap_start" > $T/trace_marker
	sleep "$gap"
	echo "burst_start" > $T/trace_marker
	j=0
	while [ $j -lt 300 ]; do j=$((j + 1)); done
	echo "burst_end" > $T/trace_marker
	i=$((i + 1))
done
sleep "$gap"
echo 0 > $T/tracing_on
echo 0 > $T/events/power/cpu_frequency/enable
[ -d $T/events/sugov_inv ] && echo 0 > $T/events/sugov_inv/enable

# "<task>-<pid> [cpu] flags <s>.<us>: <event>: <fields>", from the last
# gap's start marker on, times relative to the burst's start.
awk -v gap="$gap_ms" '
	/^#/ { next }
	{
		for (k = 1; k <= NF; k++) if ($k ~ /^[0-9]+\.[0-9]+:$/) break
		if (k > NF) next
		n++; t[n] = substr($k, 1, length($k) - 1) * 1000
		ev = $(k + 1); rest = ""
		for (m = k + 2; m <= NF; m++) rest = rest " " $m
		line[n] = ev rest
		if (rest ~ /gap_start/) { first = n; tg = t[n] }
		if (rest ~ /burst_start/) t0 = t[n]
		if (rest ~ /burst_end/) {
			last = n
			busy = busy sep sprintf("%.1f", t[n] - tg - gap); sep = ","
		}
	}
	END {
		printf "TRACE_BUSY %s\n", busy
		for (i = first; i <= last; i++)
			printf "TRACE %.1f %s\n", t[i] - t0, line[i]
		printf "TRACE_BURST %.1f\n", t[last] - t0
	}' $T/trace | { # the last burst's events, then the summary lines
	awk '/^TRACE_BUSY/ { s = $0; next } { print } END { print s }'; }
