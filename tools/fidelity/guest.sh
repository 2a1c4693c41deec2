#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/fidelity.sh, guest side: tools/compare's default workloads under
# the userspace governor at each P-state of the emulated epyc-7742, run
# by tools/compare/run-one.sh (the runner of every compare run), with
# the emulator's own counters around each run.  Prints one FIDELITY line
# per run:
#   FIDELITY rep=R khz=F_EFF workload=W figure=X elapsed_ns=N
#            busy_ns=N stall_ns=N fires=N entry_ns=N ctxt=N
# where the figure is what tools/compare takes from that workload's
# output (tbench MB/s, dbench count-weighted AvgLat ms, hackbench Time s,
# else the elapsed seconds), and the counters are CPU 0's deltas from
# /sys/kernel/debug/vcpufreq/energy, and the context switches of the
# whole machine (/proc/stat ctxt).
#
# Usage: sh tools/fidelity/guest.sh REPS [VCPUFREQ_ARGS...]
reps=${1:-2}
shift
CPUFREQ=/sys/devices/system/cpu/cpufreq
DBG=/sys/kernel/debug/vcpufreq
here=$(dirname "$0")

insmod selftests/vcpufreq.ko preset=epyc-7742 emulate=1 "$@" || exit 1
modprobe cpufreq_userspace || exit 1
for p in "$CPUFREQ"/policy*; do echo userspace > "$p/scaling_governor" || exit 1; done

# STATE boost:request:effective; the first is f_top (3400 MHz: P0 boosted).
STATES=${STATES:-"1:2250000:3400000 1:2000000:2000000 1:1500000:1500000 0:2250000:2250000"}
# tools/compare's default matrix: 3 s runs, hackbench 30 loops, 100
# stress-ng ops, 60 forkexec shells.
WORKLOADS="tbench:1:3 tbench:2:3 dbench:1:3 hackbench:2:30 cpu:2:100 forkexec:60"

# emu: CPU 0's "busy_ns stall_ns fires entry_ns", and ctxt, now.
emu() {
	while read -r k c _ _ _ _ _ b _ _ _ s _ f _ e _; do
		[ "$k" = cpu ] && [ "$c" = 0 ] && printf '%s %s %s %s ' "$b" "$s" "$f" "$e"
	done < $DBG/energy
	while read -r k n; do [ "$k" = ctxt ] && echo "$n"; done < /proc/stat
}

# figure KIND: from run-one.sh's COMPARE_OUT lines on stdin.
figure() {
	awk -v kind="$1" '
	$1 == "COMPARE_OUT" { $1 = ""; $2 = ""; line = substr($0, 3)
		if (kind == "tbench" && match(line, /Throughput [0-9.]+ MB\/sec/)) {
			split(substr(line, RSTART, RLENGTH), w, " "); fig = w[2] }
		if (kind == "hackbench" && line ~ /^Time:/) { sub(/^Time: */, "", line); fig = line + 0 }
		if (kind == "dbench" && line ~ /^ *[A-Za-z]+ +[0-9]+ +[0-9.]+ +[0-9.]+ *$/) {
			split(line, w, " "); n += w[2]; s += w[2] * w[3] } }
	$1 == "COMPARE_RESULT" { for (i = 3; i <= NF; i++) if ($i ~ /^elapsed_ns=/) { sub(/elapsed_ns=/, "", $i); el = $i } }
	END { if (kind == "dbench" && n) fig = s / n
		if (fig == "") fig = el / 1e9
		printf "%s %s\n", fig, el }'
}

r=1
while [ "$r" -le "$reps" ]; do
	for st in $STATES; do
		b=${st%%:*} x=${st#*:}
		req=${x%%:*} eff=${x#*:}
		[ -w $CPUFREQ/boost ] && echo "$b" > $CPUFREQ/boost
		for p in "$CPUFREQ"/policy*; do echo "$req" > "$p/scaling_setspeed"; done
		for w in $WORKLOADS; do
			kind=${w%%:*}
			args=$(echo "${w#*:}" | tr ':' ' ')
			# shellcheck disable=SC2046 # five numbers
			set -- $(emu)
			# shellcheck disable=SC2086
			res=$(SAMPLE_S=0 sh "$here/../compare/run-one.sh" 0 userspace "$kind" $args < /dev/null | figure "$kind")
			# shellcheck disable=SC2046
			set -- $(emu) "$@"
			echo "FIDELITY rep=$r khz=$eff workload=${kind}:${w#*:} figure=${res% *} elapsed_ns=${res#* } busy_ns=$(($1 - $6)) stall_ns=$(($2 - $7)) fires=$(($3 - $8)) entry_ns=$(($4 - $9)) ctxt=$(($5 - ${10}))"
		done
	done
	r=$((r + 1))
done
[ -w $CPUFREQ/boost ] && echo 1 > $CPUFREQ/boost
echo FIDELITY_DONE
