#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# No drop under load when the governor (re)starts or the limits change.
# With every CPU flat out at the top P-state (performance first), none of
#  - switching the policy to sugov_inv,
#  - a CPU going offline and coming back in a shared policy (the cpufreq
#    core stops and starts the governor each time),
#  - a scaling_min_freq write (the core calls ->limits()),
# may produce a request below the frequency the CPUs ran at, judged from
# every request in vcpufreq's record.  A governor that evaluates right
# after its start with an estimate of nothing asks for the policy
# minimum (1500000 here) and takes a few util half-lives to climb back.
#
# vcpufreq's epyc-7742 preset, one shared policy, fast switch offered and
# not (with -cpu max the guest has no constant_tsc, so only the slow
# path runs either way; with an Intel model the first round is fast).
# Runtime about 20 s under TCG with 4 vCPUs.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

TOP=2250000
MIDF=2000000
LOW=1500000
NCPU=$(online_cpus | wc -l)
HP=$(hotplug_cpus | awk '{ c = $1 } END { print c }')
# How long to watch after each step, s: several rate-limit periods and
# longer than the 1 ms first window on a slow kernel
WATCH_S=${NO_DROP_WATCH_S:-1.5}

ktap_plan 9
unload_all
ktap_dmesg_mark

# below T0 KHZ: the requests after T0 (ns) below KHZ, "cpu:khz" each
below() {
	awk -v t0="$1" -v k="$2" '$1 >= t0 && $3 < k { printf "cpu%s:%s ", $2, $3 }' $VCF/requests
}

# step DESC CMD...: with every CPU at the top, run CMD, watch WATCH_S,
# and pass when no request went below TOP.  Skips (precondition) when
# the CPUs are not at the top before CMD.
step() {
	d=$1
	shift
	if ! why=$(at_top $TOP); then
		ktap_skip "$d" "$why"
		return
	fi
	reset_record
	t=$(now_ns)
	if ! "$@"; then
		ktap_fail "$d (the step itself failed)"
		return
	fi
	sleep "$WATCH_S"
	b=$(below "$t" $TOP)
	if [ -n "$b" ]; then
		ktap_diag "requests below $TOP: $b"
		ktap_diag "$(head -n 3 $SGDBG | cut -c1-200 | tr '\n' '|')"
		ktap_fail "$d"
	else
		ktap_diag "$(awk -v t0="$t" '$1 >= t0' $VCF/requests | wc -l) requests, none below $TOP"
		ktap_ok "$d"
	fi
}

hotplug_cycle() {
	cpu_set "$HP" 0 && sleep 0.3 && cpu_set "$HP" 1
}

insmod $FI_KO && insmod $SG_KO || ktap_diag "modules do not load"
for fs in 1 0; do
	tag="fast_switch=$fs"
	epyc_load "$tag" 4 shared=1 fast_switch=$fs || continue
	set_all scaling_governor performance
	load_start --cpu "$NCPU"
	# Catches: start() zeroing the estimate and the first hook call
	# evaluating it (or the limits call that follows start)
	step "$tag: switching performance -> sugov_inv under load asks for nothing below $TOP" \
		set_all scaling_governor sugov_inv
	ktap_diag "$tag: request paths: $(grep -E '^(fast|slow) ' $VCF/stats | tr '\n' ' ')"
	# Catches: the restart on hotplug dropping the estimates of the CPUs
	# that stay, or the returning CPU's empty estimate deciding alone
	if [ -n "$HP" ]; then
		step "$tag: cpu$HP offline and online again in the shared policy under load: nothing below $TOP" \
			hotplug_cycle
	else
		ktap_skip "$tag: offline/online under load" "no CPU can go offline"
	fi
	# Catches: a limits change evaluated with an estimate it reset
	step "$tag: scaling_min_freq raised to $MIDF under load: nothing below $TOP" \
		set_all scaling_min_freq $MIDF
	step "$tag: scaling_min_freq lowered back to $LOW under load: nothing below $TOP" \
		set_all scaling_min_freq $LOW
	load_stop
	all_online
	set_all scaling_governor performance
	rmmod vcpufreq
done

unload_all
ktap_dmesg_clean "no WARN, BUG, lockdep or other splat in dmesg"
ktap_finish
