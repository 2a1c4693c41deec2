#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of tools/compare --guest: loads vcpufreq with the
# emulated machine (frequency, boost, energy model, powercap zone),
# freq_invariance told the preset's max_P and boost, and sugov_inv, then
# runs the plan with run-one.sh, the same runner a real machine uses.
#
# Usage: sh tools/compare/guest.sh PRESET EMULATE_BOOST ENERGY PLAN
#   PRESET         a vcpufreq preset (epyc-7742, xeon-e5-2687w-v3)
#   EMULATE_BOOST  1 or 0
#   ENERGY         1: the powercap zone must be there; 0: run without
#   PLAN           lines "ID CONFIG WORKLOAD ARG...", quoted for sh
# Environment (besides run-one.sh's, passed on): CPPC_PAGE, the physical
# address of the ACPI CPPC register page of tools/vm/run --cppc:
# vcpufreq's emulation then advances its feedback counters and
# freq_invariance learns max_P, boost and the delivered frequency from
# them (not told the preset's values); GUEST_SETUP, a shell command run
# after the modules are loaded and before the plan (e.g. a governor and
# tunables to start from, which every run must put back).
# Prints COMPARE_* lines (see run-one.sh), COMPARE_BOOT at the start
# (the guest's uname -r first, so a table names the kernel it came from),
# COMPARE_STATE before=... and after=... (every policy's governor and
# that governor's tunables, around the plan) and COMPARE_DONE at the end;
# exits 2 when the machine cannot be set up.
preset=$1 emulate_boost=$2 need_energy=$3 plan=$4
CPUFREQ=/sys/devices/system/cpu/cpufreq
here=$(dirname "$0")

# tools/vm/run --icount=smp boots with maxcpus=1 (the others would
# starve the boot CPU under a fixed icount shift): bring them up now.
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
	read -r on < "$c"
	[ "$on" = 1 ] || echo 1 > "$c"
done

cppc=
[ -n "${CPPC_PAGE:-}" ] && cppc="cppc_page=$CPPC_PAGE"
. "$here/vcpufreq-caps.sh"
one_thread=$(vcpufreq_one_thread)
# VCPUFREQ_ENERGY: energy_scope= and package_cores= (tools/compare --energy-scope)
# shellcheck disable=SC2086
if ! insmod selftests/vcpufreq.ko preset="$preset" emulate=1 emulate_boost="$emulate_boost" ${cppc:+"$cppc"} $one_thread ${VCPUFREQ_ENERGY:-}; then
	# Without energy the harness can still be exercised on a vcpufreq
	# that has no emulation (requests then change no speed).
	if [ "$need_energy" = 1 ] || ! insmod selftests/vcpufreq.ko preset="$preset"; then
		echo "compare: vcpufreq refused preset=$preset emulate=1 emulate_boost=$emulate_boost"
		exit 2
	fi
	echo "compare: vcpufreq has no emulate=1: requests change no speed here"
fi
vcpufreq_caps
if [ -n "$cppc" ]; then
	insmod freq_invariance.ko || exit 2
	fidir=/sys/kernel/freq_invariance/cpu0
	max_p=$(cat $fidir/max_p_khz) boost=$(cat $fidir/max_boost_khz)
	cppc="$cppc delivered_source=$(cat $fidir/delivered_source)"
else
	insmod freq_invariance.ko max_p_khz="$max_p" max_boost_khz="$boost" || exit 2
fi
insmod sugov_inv.ko || exit 2
for g in conservative ondemand userspace powersave; do
	modprobe "cpufreq_$g" 2>/dev/null
done
zone=/sys/class/powercap/intel-rapl:0/energy_uj
if [ "$need_energy" = 1 ] && [ ! -r $zone ]; then
	echo "compare: $zone is not there (vcpufreq without the energy model?)"
	exit 2
fi
if [ -n "${GUEST_SETUP:-}" ]; then
	sh -c "$GUEST_SETUP" || { echo "compare: GUEST_SETUP failed: $GUEST_SETUP"; exit 2; }
fi
echo "COMPARE_BOOT kernel=$(uname -r) cpus=$(nproc) preset=$preset emulate_boost=$emulate_boost max_p_khz=$max_p max_boost_khz=$boost${cppc:+ $cppc} governors=$(tr ' ' ',' < $CPUFREQ/policy0/scaling_available_governors | sed 's/,$//')"

# state: every policy's governor and that governor's tunables, one word.
state() {
	for p in "$CPUFREQ"/policy*; do
		read -r g < "$p/scaling_governor"
		printf '%s=%s' "${p##*/}" "$g"
		for f in "$CPUFREQ/$g"/* "$p/$g"/*; do
			[ -f "$f" ] && printf ',%s=%s' "${f##*/}" "$(tr ' ' _ < "$f")"
		done
		printf ';'
	done
}
echo "COMPARE_STATE before=$(state)"

# With several CPUs tbench's server runs on the last one and its clients
# on the others: one client and its server then always ping-pong across
# two CPUs, as on the seeds' machines, instead of landing on one CPU in
# some runs and on two in others.
[ "$(nproc)" -gt 1 ] && export COMPARE_PIN=1

echo "$plan" | while read -r line; do
	[ -n "$line" ] || continue
	eval "set -- $line"
	sh "$here/run-one.sh" "$@" < /dev/null
	rc=$?
	[ $rc = 2 ] && echo "COMPARE_RESULT $1 status=refused rc=2"
done
echo "COMPARE_STATE after=$(state)"
echo "COMPARE_DONE"
