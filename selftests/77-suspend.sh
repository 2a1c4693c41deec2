#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# System sleep under load.  cpufreq stops every governor before the
# devices suspend and starts it again when they resume
# (cpufreq_suspend()/cpufreq_resume()); suspend to RAM also takes every
# CPU but the boot CPU offline and back.  With sugov_inv on every policy,
# non-default tunables and every CPU flat out at the top P-state,
# SUSPEND_CYCLES (default 20) cycles of suspend to RAM (ACPI S3) woken by
# the CMOS RTC alarm a few seconds later (what "rtcwake -m mem -s 4" does;
# busybox has no rtcwake) must each leave
#  - sugov_inv on every policy, with the tunables and the freq_max choice
#    as they were,
#  - no request below the frequency the CPUs ran at before the sleep,
#    from the governor's start (vcpufreq's ->resume, just before it) to
#    RESUME_WATCH_S after the resume, judged from every request in
#    vcpufreq's record (the no-drop rule of 75-no-drop: the load is still
#    there when the tasks thaw),
#  - and no kernel report (WARN, BUG, lockdep, KASAN).
# For per-CPU policies and for one shared policy (vcpufreq's epyc-7742
# preset).  Runtime 6 to 8 minutes for 20 cycles under TCG with 2
# vCPUs on a loaded 2-core host (354 to 508 s measured).
#
# Why S3 and not suspend-to-idle ("rtcwake -m freeze"): QEMU raises the
# RTC alarm's wake event only for a guest in S3 (qemu_system_wakeup_request()
# ignores it while the guest runs), and on an ACPI machine Linux 6.1's
# rtc-cmos arms that ACPI event for the alarm, not its interrupt
# (cmos_suspend(): cmos->wake_on), so nothing ever ends an s2idle guest's
# sleep.  The governor's side is the same in both: cpufreq_suspend() and
# cpufreq_resume() stop and start it around the devices' suspend.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

CYCLES=${SUSPEND_CYCLES:-20}
# The alarm's delay, s, at least.  "rtcwake -s 2" races with a slow
# suspend: the RTC counts whole seconds (+2 is 1 to 2 s away), a loaded
# TCG host took up to 2.6 s from the write to the CPUs going down, and
# an alarm that fires before the guest is in S3 never wakes it.  Each
# cycle's delay is also at least 2 s plus twice the longest suspend
# entry seen so far (from the kernel log).
WAKE_S=${SUSPEND_WAKE_S:-4}
wake_s=$WAKE_S
# Another governor for comparison (its own tunables then)
GOV=${SUSPEND_GOV:-sugov_inv}
WATCH_S=${RESUME_WATCH_S:-1}
TOP=2250000
NCPU=$(online_cpus | wc -l)
ALARM=/sys/class/rtc/rtc0/wakealarm
# Non-default values for every tunable, which a resume must keep
SET="rate_limit_us=4000 freq_max_policy=midpoint overutil_threshold_pct=85 idle_restore_us=30000"

ktap_plan 9

why_not=
grep -qw mem /sys/power/state 2>/dev/null && grep -qw deep /sys/power/mem_sleep 2>/dev/null ||
	why_not="no suspend to RAM (/sys/power/state: $(cat /sys/power/state 2>/dev/null), mem_sleep: $(cat /sys/power/mem_sleep 2>/dev/null))"
[ -z "$why_not" ] && [ ! -w $ALARM ] && why_not="no RTC wake alarm ($ALARM)"
if [ -n "$why_not" ]; then
	while [ "$KTAP_TESTNO" -lt 9 ]; do ktap_skip "suspend to RAM" "$why_not"; done
	ktap_finish
fi

unload_all
ktap_dmesg_mark
NOTES=/tmp/sgt-77-notes

# tunables: "name=value ..." of the tunables the policies use
tunables() {
	d=$(tunables_of $CPUFREQ/policy0 | sed "s/sugov_inv\$/$GOV/")
	for t in $TUNABLES; do
		[ -f "$d/$t" ] || continue
		v=$(cat "$d/$t")
		case $v in *"["*) v=${v#*[}; v=${v%%]*} ;; esac
		printf '%s=%s ' "$t" "$v"
	done
}

# sleep_once: suspend to RAM, woken by the RTC wake_s later.  The alarm
# is cleared first: a pending one cannot be overwritten.  Then wake_s
# is raised if this entry, from "PM: suspend entry" to the last CPU
# going down ("Disabling non-boot CPUs" onwards), took long.
sleep_once() {
	_m=$(log_mark)
	echo deep > /sys/power/mem_sleep &&
		echo 0 > $ALARM && echo "+$wake_s" > $ALARM && echo mem > /sys/power/state || return 1
	_entry=$(dmesg | awk -v m="$_m" '
		index($0, m) { on = 1; next }
		!on { next }
		{ t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
		/PM: suspend entry/ { t0 = t }
		/Low-level resume complete|ACPI: PM: Waking up/ { if (t0 != "") { print t - t0; exit } }')
	[ -n "$_entry" ] && wake_s=$(awk -v w="$wake_s" -v e="$_entry" 'BEGIN {
		n = int(2 + 2 * e + 0.999); print (n > w) ? n : w }')
	return 0
}

# The load: a busy loop pinned to each CPU.  Pinned, because suspend to
# RAM takes CPU 1 down with its tasks frozen: they wake on their own CPU
# after the thaw, where an unpinned load may wait for the balancer to
# come back (and that CPU's policy rightly goes down meanwhile).
SPINS=
spin_all_start() {
	for c in $(online_cpus); do
		taskset -c "$c" sh -c 'while :; do :; done' &
		SPINS="$SPINS $!"
	done
}
spin_all_stop() {
	for p in $SPINS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	SPINS=
}

# cycles TAG: the cycles of one configuration, four results.
cycles() {
	rm -f $NOTES
	resumes=$(awk '$1 == "resumes" { print $2 }' $VCF/stats)
	slept=0
	i=0
	while [ $i -lt "$CYCLES" ]; do
		i=$((i + 1))
		# Every CPU busy and at the top before each sleep: the load
		# that comes back, and the frequency the resume must not drop
		# below.
		if ! why=$(at_top $TOP); then
			echo "cycle $i: $why" >> $NOTES
			continue
		fi
		reset_record
		if ! err=$(sleep_once 2>&1); then
			echo "cycle $i: the sleep failed: $err" >> $NOTES
			continue
		fi
		slept=$((slept + 1))
		sleep "$WATCH_S"
		# From vcpufreq's ->resume, right before the governors start
		r=$(awk '$1 == "resumes" { print $2 }' $VCF/stats)
		t0=$(awk '$1 == "resume_ns" { print $2 }' $VCF/stats)
		[ "$r" = "$resumes" ] && echo "cycle $i: no cpufreq resume seen" >> $NOTES.drop
		resumes=$r
		b=$(awk -v k=$TOP -v t0="$t0" '$1 >= t0 && $3 < k { printf "cpu%s:%s@%+.0fms ", $2, $3, ($1 - t0) / 1e6 }' $VCF/requests)
		[ -n "$b" ] && echo "cycle $i: requests below $TOP: $b" >> $NOTES.drop
		g=$(every_policy_runs $GOV) || echo "cycle $i: $g" >> $NOTES.gov
		now=$(tunables)
		[ "$now" = "$want" ] || echo "cycle $i: tunables $now" >> $NOTES.tun
	done
	ktap_diag "$1: $slept of $CYCLES sleeps completed; suspend_stats/success $(cat /sys/power/suspend_stats/success 2>/dev/null); the alarm now ${wake_s} s ahead"
	[ -s $NOTES ] && head -n 5 $NOTES | sed 's/^/# /'
	ktap_result "$1: $CYCLES suspend-to-RAM cycles under load, each slept and resumed" \
		$([ "$slept" = "$CYCLES" ]; echo $?)
	[ -s $NOTES.gov ] && head -n 5 $NOTES.gov | sed 's/^/# /'
	ktap_result "$1: sugov_inv on every policy after each resume" $([ ! -s $NOTES.gov ]; echo $?)
	[ -s $NOTES.tun ] && { ktap_diag "set: $want"; head -n 5 $NOTES.tun | sed 's/^/# /'; }
	ktap_result "$1: tunables and the freq_max choice kept across each resume" $([ ! -s $NOTES.tun ]; echo $?)
	[ -s $NOTES.drop ] && head -n 5 $NOTES.drop | sed 's/^/# /'
	ktap_result "$1: no request below $TOP from the governor's start to ${WATCH_S} s after each resume" \
		$([ "$slept" -gt 0 ] && [ ! -s $NOTES.drop ]; echo $?)
	rm -f $NOTES $NOTES.drop $NOTES.gov $NOTES.tun
}

insmod $FI_KO && insmod $SG_KO || ktap_diag "modules do not load"
for cfg in "per-CPU policies:" "one shared policy:shared=1"; do
	tag=${cfg%%:*}
	# shellcheck disable=SC2086
	epyc_load "$tag" 4 ${cfg#*:} || continue
	set_all scaling_governor $GOV
	d=$(tunables_of $CPUFREQ/policy0)
	[ "$GOV" = sugov_inv ] && for kv in $SET; do echo "${kv#*=}" > "$d/${kv%%=*}"; done
	want=$(tunables)
	spin_all_start
	cycles "$tag"
	spin_all_stop
	set_all scaling_governor performance
	rmmod vcpufreq
done

unload_all
ktap_dmesg_clean "no WARN, BUG, lockdep or other kernel report across the sleeps"
ktap_finish
