#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest (tools/vm/run --smp 2 --icount=smp -- sh tools/compare/chain-guest.sh):
# does the chain rule fire where it should, and only there?  Loads the
# modules as tools/compare/guest.sh does, then runs each workload once
# (run-one.sh), shows sugov_inv/chain during it and the debugfs summary
# after it (its "chained" column: evaluations the rule raised), and the
# frequency changes during it.  The last two: two CPUs each half busy
# with a task of its own, where the rule must not fire (design.rst).
# Documentation/chain-results.txt shows a run.
cd /sugov || exit 2
mount -t debugfs none /sys/kernel/debug 2>/dev/null
CPUFREQ=/sys/devices/system/cpu/cpufreq
. tools/compare/vcpufreq-caps.sh
# shellcheck disable=SC2046
insmod selftests/vcpufreq.ko preset=epyc-7742 emulate=1 emulate_boost=1 $(vcpufreq_one_thread) || exit 2
vcpufreq_caps
insmod freq_invariance.ko max_p_khz="$max_p" max_boost_khz="$boost" || exit 2
insmod sugov_inv.ko || exit 2
D=/sys/kernel/debug/sugov_inv
total_trans() { cat $CPUFREQ/policy*/stats/total_trans | awk '{ s += $1 } END { print s + 0 }'; }
n=0
while IFS='|' read -r c mid w; do
	n=$((n + 1))
	for p in $CPUFREQ/policy*; do echo performance > $p/scaling_governor; done
	echo "### $c | $w (chain file at ${mid}s)"
	t0=$(total_trans)
	eval "SAMPLE_S=0 sh tools/compare/run-one.sh $n '$c' $w" > /tmp/out.$n 2>&1 &
	sleep "$mid"
	cat $D/chain
	wait
	echo "### frequency changes during it (stats/total_trans, every policy): $(($(total_trans) - t0))"
	grep -E "COMPARE_RESULT" /tmp/out.$n | cut -c1-120
	grep -E "COMPARE_OUT" /tmp/out.$n | tail -n 2 | cut -c1-160
	cat $D/summary
done <<'PLAN'
sugov_inv|1.5|pingpong
sugov_inv,chain_window_us=0|1.5|pingpong
sugov_inv|2.5|tbench 1 4
sugov_inv|1|periodic 50
sugov_inv|2|forkexec 60
sugov_inv|3|cmd 'sleep 5'
sugov_inv|1.5|cmd 'stress-ng --cpu 1 --cpu-load 50 --taskset 0 -t 3 & stress-ng --cpu 1 --cpu-load 50 --taskset 1 -t 3; wait'
sugov_inv,chain_window_us=0|1.5|cmd 'stress-ng --cpu 1 --cpu-load 50 --taskset 0 -t 3 & stress-ng --cpu 1 --cpu-load 50 --taskset 1 -t 3; wait'
PLAN
cat $D/chain
dmesg | grep -iE "sugov|bug|warn|lockdep|circular" | tail -n 20
