#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest side of a reproducer without any module of ours: N (default 60)
# suspend-to-RAM cycles, each woken by the CMOS RTC alarm 5 s later,
# with a busy loop pinned to every CPU as selftests/77-suspend.sh pins
# its load.  On Debian's 6.12 in QEMU 7.2 (MTTCG, 4 vCPUs) a CPU coming
# back from S3 crashed in its cpuhp thread at the 3rd sleep (see
# Documentation/development.rst, "Suspend on 6.12").  Run it with:
#
#   tools/vm/run --kernel-version 6.12 --timeout 900 \
#	--append "no_console_suspend ignore_loglevel" \
#	--cpu qemu64,vendor=GenuineIntel,family=6,model=63 \
#	--add tools/vm/s3-pinned-load.sh:s3.sh -- sh /sugov/s3.sh 60
n=${1:-60}
alarm=/sys/class/rtc/rtc0/wakealarm
for c in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$c" sh -c 'while :; do :; done' &
done
i=0 ok=0
while [ $i -lt "$n" ]; do
	# A pending alarm cannot be overwritten: clear it first
	echo 0 > $alarm
	echo +5 > $alarm
	echo mem > /sys/power/state && ok=$((ok + 1))
	i=$((i + 1))
	sleep 1
done
echo "s3-pinned-load: $ok of $n sleeps resumed; modules loaded: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
dmesg | grep -E 'WARNING|BUG|Oops' | head -n 5
