#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Many CPUs: the life of a policy on a guest with MANY_MIN_CPUS (8) or
# more vCPUs (tools/vm/run --smp 16, 32, 64), for per-CPU policies and
# for one policy shared by every CPU: selecting sugov_inv everywhere, a
# write to every tunable, half the CPUs offline and back (the shared
# policy's governor restarts at each one), and afterwards sugov_inv on
# every policy, following a load on the first and the last CPU.  The
# memory each policy and each CPU costs is printed: slab growth
# (/proc/slabinfo, exact after a shrink) when every policy switches from
# performance to sugov_inv and to schedutil, and sugov_inv's static
# per-CPU area (/proc/meminfo Percpu at insmod).
#
# Skips on a guest with fewer CPUs.  Runtime grows with the CPU count:
# about 4 minutes with 16 vCPUs under TCG on 2 host cores.
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

percpu_kb() { awk '/^Percpu:/ { print $2 }' /proc/meminfo; }

# slab_kb_delta S0 S1: total slab growth in kB ("cache objects size"
# snapshots), and the three caches that grew most.
slab_snap() {
	sync
	sleep 1
	for _s in /sys/kernel/slab/*/shrink; do echo 1 > "$_s" 2>/dev/null; done
	awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo > "$1"
}
slab_delta() {
	awk 'FILENAME == ARGV[1] { n[$1] = $2; next }
	     { d = ($2 - n[$1]) * $3; if (d) { tot += d; g[$1] = d } }
	     END {
		printf "%.1f kB:", tot / 1024
		for (k = 0; k < 3; k++) {
			best = ""; for (c in g) if (best == "" || g[c] > g[best]) best = c
			if (best == "") break
			printf " %s %+d B", best, g[best]; delete g[best]
		}
		printf "\n" }' "$1" "$2"
}

hotplug_ok() {
	[ -z "$bad" ] || { echo "hotplug failed:$bad"; return 1; }
	every_policy_runs sugov_inv
}
drives_both() { drives "$1" && drives "$2"; }

# The halves: every other hotplug CPU goes offline.
HALF=$(hotplug_cpus | awk 'NR % 2 == 1')

# switch_cost GOV: slab growth when every policy moves from performance
# to GOV, per policy.
switch_cost() {
	set_all scaling_governor performance
	slab_snap /tmp/mc-s0
	set_all scaling_governor "$1"
	slab_snap /tmp/mc-s1
	echo "$(slab_delta /tmp/mc-s0 /tmp/mc-s1) for $(active_policies | wc -l) policies"
}

p0=$(percpu_kb)
insmod $FI_KO && insmod $SG_KO || ktap_diag "modules do not load"
ktap_diag "Percpu at insmod of freq_invariance and sugov_inv: +$(($(percpu_kb) - p0)) kB for $(ls -d $CPUSYS/cpu[0-9]* | wc -l) possible CPUs"

for cfg in "per-CPU policies:" "one shared policy:shared=1"; do
	tag=${cfg%%:*}
	if ! insmod $VC_KO preset=epyc-7742 ${cfg#*:}; then
		for i in 1 2 3 4; do ktap_fail "$tag: vcpufreq loads"; done
		continue
	fi
	ktap_diag "$tag: $(active_policies | wc -l) policies"
	ktap_diag "$tag: schedutil: $(switch_cost schedutil)"
	ktap_diag "$tag: sugov_inv: $(switch_cost sugov_inv)"
	ktap_check "$tag: sugov_inv on every policy" every_policy_runs sugov_inv

	tun=$(tunables_of $CPUFREQ/policy0)
	bad=
	for kv in rate_limit_us=5000 freq_max_policy=overutil-detect headroom_pct=140 \
		  overutil_threshold_pct=90 util_halflife_ms=16; do
		echo "${kv#*=}" > "$tun/${kv%%=*}" || bad="$bad ${kv%%=*}"
		v=$(cat "$tun/${kv%%=*}")
		case $v in *"[${kv#*=}]"*|"${kv#*=}") ;; *) bad="$bad ${kv%%=*}=$v" ;; esac
	done
	[ -n "$bad" ] && ktap_diag "tunables:$bad"
	ktap_result "$tag: every tunable written and read back" $([ -z "$bad" ]; echo $?)

	# Half the CPUs offline and back, under a load on every CPU
	load_start --cpu "$NCPU"
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
