#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest side of tools/react/react: the emulated machine of tools/compare
# (vcpufreq with emulation, freq_invariance told its max_P and boost,
# sugov_inv), then REPS rounds of every configuration, each a run of
# COMMAND through tools/compare/run-one.sh (which selects the
# configuration and its tunables and puts the governors back).
#
# Usage: sh tools/react/guest.sh PRESET PIN REPS COMMAND CONFIG...
#   PIN      1: keep this harness on CPU 0 (the measured CPU is another)
#   COMMAND  tools/react/once.sh or trace-once.sh with its arguments
# Prints REACT_BOOT, then per run "REACT_RUN REP CONFIG" followed by
# COMMAND's lines (prefixed by run-one.sh with COMPARE_OUT REP).
preset=$1 pin=$2 reps=$3 cmd=$4
shift 4

. tools/compare/vcpufreq-caps.sh
# shellcheck disable=SC2046
insmod selftests/vcpufreq.ko preset="$preset" emulate=1 $(vcpufreq_one_thread) || exit 2
vcpufreq_caps
insmod freq_invariance.ko max_p_khz="$max_p" max_boost_khz="$boost" || exit 2
insmod sugov_inv.ko || exit 2
for g in conservative ondemand powersave; do
	modprobe "cpufreq_$g" 2>/dev/null
done
[ "$pin" = 1 ] && { taskset -p 1 $$ > /dev/null || exit 2; }
echo "REACT_BOOT cpus=$(nproc) preset=$preset command=$cmd"

r=1
while [ "$r" -le "$reps" ]; do
	for c in "$@"; do
		echo "REACT_RUN $r $c"
		SETTLE_S=0 SAMPLE_S=0 sh tools/compare/run-one.sh "$r" "$c" cmd "$cmd" < /dev/null
	done
	r=$((r + 1))
done
echo "REACT_DONE"
