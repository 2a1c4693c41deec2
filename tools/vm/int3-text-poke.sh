#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest side of a reproducer of QEMU 7.2's stale int3 under
# multi-threaded TCG (tools/vm/triage.py's tcg-int3-text-poke): N
# (default 300) rounds of enabling and disabling the sched_switch and
# sched_waking events and of loading and unloading vcpufreq, whose
# sched_switch probe patches the same site, while CPU 1 forks.  With
# "events" after N, no module is loaded: the kernel's own events only.
# Each toggle patches __schedule's tracepoint with text_poke_bp(); on
# Debian's 6.12 (2 vCPUs, 2026-12-07) 8 guests of 9 died in an "int3"
# Oops at __schedule+0x339 whose Code: bytes show the nop or jump back
# in memory.  Run it with:
#
#   tools/vm/run --name int3 --kernel-version 6.12 --smp 2 --cpu max \
#	--add tools/vm/int3-text-poke.sh:int3.sh -- sh /sugov/int3.sh 300
#
# then judge the guest as make check would:
#   tools/vm/triage.py --status 125 --console build/vm/int3.log --kmsg build/vm/int3.kmsg
n=${1:-300}
ev=/sys/kernel/tracing/events/sched
mount -t tracefs none /sys/kernel/tracing 2>/dev/null
taskset -c 1 sh -c 'while :; do true | cat > /dev/null; done' &
fork=$!
i=0
while [ $i -lt "$n" ]; do
	echo 1 > $ev/sched_switch/enable
	echo 1 > $ev/sched_waking/enable
	echo 0 > $ev/sched_switch/enable
	echo 0 > $ev/sched_waking/enable
	[ "$2" = events ] ||
		{ insmod /sugov/selftests/vcpufreq.ko preset=epyc-7742 && rmmod vcpufreq; }
	i=$((i + 1))
done
kill $fork
echo "int3-text-poke: $i rounds${2:+ ($2)} without a stale int3"
