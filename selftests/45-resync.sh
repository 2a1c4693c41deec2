#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Slow-path resync: when the driver ends up at another frequency than the
# governor's kthread asked for, the next evaluation sends its request
# again instead of skipping it as unchanged.
#
# On Linux 6.1 __cpufreq_driver_target() resolves into
# policy->cached_resolved_idx and uses that index a moment later; an
# update_util hook's cpufreq_driver_resolve_freq() in between overwrites
# it, and the driver programs another frequency than the kthread meant.
# That race cannot be timed from a test, so vcpufreq's fail_khz knob
# makes its effect deterministic: the next ->target_index call for that
# frequency leaves the P-state where it was (and the core restores
# policy->cur).  A governor whose next_freq still claims the failed
# frequency never asks for it again while util stays where it is.
#
# vcpufreq's epyc-7742 preset (2250/2000/1500 MHz), slow path only, one
# shared policy; a busy loop on CPU 1 drives it to the top, and the
# request for the top fails once.
#
# And no resync where the driver only rounds: a ->target driver without
# a table (intel_cpufreq with fast switch refused) sets another frequency
# than a request that succeeded, and a governor that takes that for a
# failure sends the request again at every evaluation, waking its kthread
# once per rate limit in a steady state.  vcpufreq's target_step_khz=
# makes such a driver (50 MHz steps), per-CPU policies; cpu1's limit of
# 2175 MHz lies between two steps, so a busy loop there asks for 2175 MHz
# and gets 2150 MHz.  Runtime about 20 s under TCG.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

TOP=2250000
LOW=1500000
FAIL=$VCF/fail_khz

ktap_plan 5
unload_all
ktap_dmesg_mark

resync() {
	[ -w $FAIL ] || { echo "SKIP vcpufreq has no fail_khz knob"; return 0; }
	wait_cur lt $TOP 5000 1 || { echo "SKIP cpu1 does not leave $TOP while idle"; return 0; }
	echo $TOP > $FAIL
	reset_record
	spin_start 1
	w=0
	while [ "$(cat $FAIL)" != 0 ]; do
		[ $w -ge 3000 ] && break
		sleep 0.05
		w=$((w + 50))
	done
	if [ "$(cat $FAIL)" != 0 ]; then
		spin_stop
		echo 0 > $FAIL
		echo "SKIP no request for $TOP reached the driver in 3 s under a busy loop: $(awk '$1 != "#" { printf "cpu%s util %s busy %s next %s; ", $1, $(NF - 5), $(NF - 4), $NF }' $SGDBG)"
		return 0
	fi
	t=$(now_ns)
	wait_cur ge $TOP 1000 1
	up=$?
	spin_stop
	[ $up = 0 ] && return 0
	echo "the request for $TOP failed once; cpu1 stays at $(cur_khz 1) kHz for 1 s under a busy loop"
	echo "requests since: $(requests_after "$t" $(rec_cpus $CPUFREQ/policy0) | tr '\n' ' ')"
	cat $SGDBG
	return 1
}

# judge FN NAME: run FN (prints "SKIP why" to skip, else its findings),
# report NAME with its status and the first 12 lines of what it printed
judge() {
	out=$($1)
	rc=$?
	case $out in
	SKIP*) ktap_skip "$2" "${out#SKIP }" ;;
	*) [ -n "$out" ] && echo "$out" | head -n 12 | sed 's/^/# /'
	   ktap_result "$2" $rc ;;
	esac
}

insmod $FI_KO && insmod $SG_KO && insmod $VC_KO preset=epyc-7742 shared=1 fast_switch=0 &&
	set_all scaling_governor sugov_inv
ktap_result "modules load, sugov_inv on the shared slow-path policy" $?

# Catches: sugov_inv_work() not setting next_freq back to policy->cur
# after the driver ended elsewhere (or the cached raw target kept, so the
# next evaluation reuses the stale next_freq without resolving)
judge resync "after a failed slow-path request the next evaluation asks again"

unload_all

STEP=50000
CAP=2175000
STEADY_S=${RESYNC_STEADY_S:-3}
# Requests in STEADY_S s that still pass for steady: the first windows
# after the cap settle, a TCG host may starve the loop for a moment.
# Re-sending at every rate limit (10 ms here) makes hundreds.
MAX_REQ=3

# cpu1's requests in vcpufreq's counters since the last reset
cpu_requests() { awk -v c="$1" '$1 == "cpu" && $2 == c { print $3 }' $VCF/stats; }

steady() {
	p=$(policy_of 1) || { echo "SKIP no policy holds cpu1"; return 0; }
	echo $CAP > "$p/scaling_max_freq" || { echo "scaling_max_freq $CAP refused"; return 1; }
	spin_start 1
	if ! wait_cur eq $((CAP / STEP * STEP)) 3000 1; then
		spin_stop
		echo "SKIP cpu1 not at $((CAP / STEP * STEP)) kHz after 3 s under a busy loop: cur $(cur_khz 1)"
		return 0
	fi
	sleep 0.5
	reset_record
	sleep "$STEADY_S"
	n=$(cpu_requests 1)
	c=$(cur_khz 1)
	spin_stop
	echo "$n requests for cpu1 in $STEADY_S s at cur $c kHz"
	[ "$n" -le $MAX_REQ ] && return 0
	echo "last: $(awk '$2 == 1 { printf "%s ", $3 }' $VCF/requests | tail -c 120)"
	cat $SGDBG
	return 1
}

insmod $FI_KO && insmod $SG_KO && insmod $VC_KO preset=epyc-7742 fast_switch=0 target_step_khz=$STEP &&
	set_all scaling_governor sugov_inv
ktap_result "modules load, sugov_inv on per-CPU policies of a ->target driver without a table" $?

# Catches: sugov_inv_work() resyncing next_freq to policy->cur after a
# request that succeeded on a driver that rounds (no table): every
# evaluation then finds the target changed and sends it again
judge steady "a rounding ->target driver in a steady state gets no request per rate limit"

unload_all
ktap_dmesg_clean "no WARN, BUG, lockdep or other splat in dmesg"
ktap_finish
