#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Many CPUs: the life of a policy on a guest with MANY_MIN_CPUS (8) or
# more vCPUs (tools/vm/run --smp 16, 32, 64), for per-CPU policies and
# for one policy shared by every CPU: selecting sugov_inv everywhere, a
# write to every tunable, half the CPUs offline and back (the shared
# policy's governor restarts at each one), and afterwards sugov_inv on
# every policy, following a load on the first and the last CPU.
#
# Skips on a guest with fewer CPUs.  Runtime grows with the CPU count:
# about a minute with 16 vCPUs under TCG on 2 host cores.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

MIN=${MANY_MIN_CPUS:-8}
NCPU=$(online_cpus | wc -l)
TOP=2250000

ktap_plan 9
if [ "$NCPU" -lt "$MIN" ]; then
	while [ "$KTAP_TESTNO" -lt 9 ]; do ktap_skip "many CPUs" "$NCPU CPUs online, fewer than $MIN"; done
	ktap_finish
fi
unload_all
ktap_dmesg_mark
ktap_diag "$NCPU CPUs"

hotplug_ok() {
	[ -z "$bad" ] || { echo "hotplug failed:$bad"; return 1; }
	every_policy_runs sugov_inv
}
drives_both() { drives "$1" && drives "$2"; }

# The halves: every other hotplug CPU goes offline.
HALF=$(hotplug_cpus | awk 'NR % 2 == 1')

insmod $FI_KO && insmod $SG_KO || ktap_diag "modules do not load"

for cfg in "per-CPU policies:" "one shared policy:shared=1"; do
	tag=${cfg%%:*}
	# shellcheck disable=SC2086
	epyc_load "$tag" 4 ${cfg#*:} || continue
	ktap_diag "$tag: $(active_policies | wc -l) policies"
	# From another governor that runs a kthread per policy too
	set_all scaling_governor schedutil
	set_all scaling_governor sugov_inv
	ktap_check "$tag: sugov_inv on every policy" every_policy_runs sugov_inv

	tun=$(tunables_of $CPUFREQ/policy0)
	bad=
	for kv in rate_limit_us=5000 freq_max_policy=overutil-detect \
		  overutil_threshold_pct=90 idle_restore_us=30000; do
		echo "${kv#*=}" > "$tun/${kv%%=*}" || bad="$bad ${kv%%=*}"
		v=$(cat "$tun/${kv%%=*}")
		case $v in *"[${kv#*=}]"*|"${kv#*=}") ;; *) bad="$bad ${kv%%=*}=$v" ;; esac
	done
	[ -n "$bad" ] && ktap_diag "tunables:$bad"
	ktap_result "$tag: every tunable written and read back" $([ -z "$bad" ]; echo $?)

	# Half the CPUs offline and back, under a load of two workers: one
	# per CPU starves the vCPUs of a TCG guest with more vCPUs than the
	# host has cores (soft lockups, hotplug taking minutes)
	load_start --cpu 2
	t0=$(cut -d' ' -f1 /proc/uptime)
	bad=
	for c in $HALF; do cpu_set "$c" 0 || bad="$bad off$c"; done
	for c in $HALF; do cpu_set "$c" 1 || bad="$bad on$c"; done
	t1=$(cut -d' ' -f1 /proc/uptime)
	load_stop
	ktap_diag "$tag: $(echo $HALF | wc -w) CPUs offline and back in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s${bad:+, failed:$bad}"
	ktap_check "$tag: half the CPUs offline and back: sugov_inv on every policy" \
		hotplug_ok

	reset_record
	first=$(online_cpus | head -n 1)
	last=$(online_cpus | tail -n 1)
	ktap_check "$tag: sugov_inv follows a load on cpu$first and cpu$last" \
		drives_both "$first" "$last"
	set_all scaling_governor performance
	rmmod vcpufreq
done

unload_all
ktap_dmesg_clean "no WARN, BUG, lockdep or other kernel report"
ktap_finish
