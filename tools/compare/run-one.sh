#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One measured run of tools/compare on the machine it runs on (a real
# machine as root, or the test guest: POSIX sh, busybox ash is enough).
# Selects CONFIG on every cpufreq policy, waits SETTLE_S, reads the
# powercap energy counters and cpufreq's time_in_state, runs WORKLOAD,
# reads them again, puts the original governors (and intel_pstate mode)
# back and prints machine-readable lines for tools/compare:
#   COMPARE_OUT ID LINE          the last lines of the workload's output
#   COMPARE_FREQ ID T_MS:KHZ,... mean scaling_cur_freq over the policies
#   COMPARE_RESULT ID status=ok elapsed_ns=N energy=ZONE=B:A:MAX;... tis=KHZ:10MS,...
# The figure of merit is parsed from COMPARE_OUT by tools/compare, so the
# parsing is tested on the host.
#
# Usage: run-one.sh ID CONFIG WORKLOAD [ARG...]
#   CONFIG   GOVERNOR[:FREQ_MAX_POLICY][,TUNABLE=VALUE...] or
#            intel_pstate/performance, intel_pstate/powersave (active mode)
#   WORKLOAD tbench CLIENTS SECONDS | dbench CLIENTS SECONDS |
#            hackbench GROUPS LOOPS | cpu WORKERS OPS | forkexec COUNT |
#            burst GAP_MS COUNT | periodic DUTY_PCT | ramp | pingpong |
#            cmd 'SHELL COMMAND'
#            periodic, ramp and pingpong run rt-app on the profiles in
#            rt-app/ (periodic-DUTY_PCT.json, ramp.json, pingpong.json)
#            and print one line per task:
#   rtapp task NAME loops N busy_ms B period_ms P slack_ms S missed M
#            (means per loop of a phase that runs work; missed: loops
#            whose slack was negative, a deadline missed)
# Environment: SYSFS (default /sys; tests point it at a fake tree),
#   SETTLE_S (default 1), SAMPLE_S (frequency sample period, default 0.2,
#   0 = none), COMPARE_TMP (dbench's directory, default /tmp),
#   COMPARE_PIN (1: tbench's server on the last CPU, its clients on the
#   others, so a ping-pong crosses CPUs; default 0),
#   RTAPP_NS_PER_LOOP (rt-app's calibration: ns per loop of its work at
#   the top frequency; default: measured once under the performance
#   governor and kept in COMPARE_TMP/compare-rtapp-ns-per-loop).
# Exit status: 0 measured, 1 the workload failed, 2 bad input or the
# configuration could not be selected (nothing was run).

SYSFS=${SYSFS:-/sys}
CPUFREQ=$SYSFS/devices/system/cpu/cpufreq
PSTATE=$SYSFS/devices/system/cpu/intel_pstate/status
POWERCAP=$SYSFS/class/powercap
SETTLE_S=${SETTLE_S:-1}
SAMPLE_S=${SAMPLE_S:-0.2}
TMPD=${COMPARE_TMP:-/tmp}
PIN=${COMPARE_PIN:-0}
RTAPP_DIR=$(dirname "$0")/rt-app

id=$1 config=$2 kind=$3
[ $# -ge 3 ] || { echo "run-one: usage: run-one.sh ID CONFIG WORKLOAD [ARG...]" >&2; exit 2; }
shift 3

die2() { echo "run-one: $*" >&2; restore; exit 2; }

# Nanoseconds of a monotonic clock: GNU date on a real machine; in the
# guest busybox date has no %N, but /proc/timer_list prints ktime_get().
now_ns() {
	_t=$(date +%s%N 2>/dev/null)
	case $_t in
	*[!0-9]* | '') sed -n 's/^now at \([0-9]*\) nsecs$/\1/p' /proc/timer_list 2>/dev/null | head -n 1 ;;
	*) echo "$_t" ;;
	esac
}

# What is changed, to put back afterwards: one governor per policy, and
# the intel_pstate mode.
saved_govs=
saved_pstate=
save() {
	for p in "$CPUFREQ"/policy*; do
		[ -f "$p/scaling_governor" ] || continue
		read -r g < "$p/scaling_governor"
		saved_govs="$saved_govs ${p##*/}=$g"
	done
	[ -f "$PSTATE" ] && read -r saved_pstate < "$PSTATE"
}
restore() {
	if [ -n "$saved_pstate" ]; then
		read -r cur < "$PSTATE"
		[ "$cur" = "$saved_pstate" ] || echo "$saved_pstate" > "$PSTATE" 2>/dev/null
	fi
	for pg in $saved_govs; do
		echo "${pg#*=}" > "$CPUFREQ/${pg%%=*}/scaling_governor" 2>/dev/null
	done
	saved_govs=
}

# set_gov GOVERNOR: on every policy; fails when one refuses it.
set_gov() {
	n=0
	for p in "$CPUFREQ"/policy*; do
		[ -f "$p/scaling_governor" ] || continue
		echo "$1" > "$p/scaling_governor" 2>/dev/null || return 1
		n=$((n + 1))
	done
	[ $n -gt 0 ]
}

# set_tunable GOVERNOR NAME VALUE: the governor's tunable, global or
# per policy, whichever the driver gives.
set_tunable() {
	_ok=0
	for f in "$CPUFREQ/$1/$2" "$CPUFREQ"/policy*/"$1/$2"; do
		[ -e "$f" ] || continue
		echo "$3" > "$f" 2>/dev/null || return 1
		_ok=1
	done
	[ $_ok = 1 ]
}

apply_config() {
	gov=${config%%,*}
	rest=
	case $config in *,*) rest=${config#*,} ;; esac
	fmp=
	case $gov in *:*) fmp=${gov#*:}; gov=${gov%%:*} ;; esac
	case $gov in
	intel_pstate/*)
		[ -f "$PSTATE" ] || die2 "$config: no intel_pstate on this machine"
		echo active > "$PSTATE" 2>/dev/null
		gov=${gov#intel_pstate/}
		;;
	*)
		# intel_pstate's active mode takes no governor: passive
		# (intel_cpufreq) does.
		if [ -f "$PSTATE" ]; then
			read -r cur < "$PSTATE"
			[ "$cur" = passive ] || echo passive > "$PSTATE" 2>/dev/null ||
				die2 "$config: cannot switch intel_pstate to passive mode"
		fi
		;;
	esac
	set_gov "$gov" || die2 "$config: a policy refused governor $gov (available: $(cat "$CPUFREQ"/policy0/scaling_available_governors 2>/dev/null))"
	if [ -n "$fmp" ]; then
		set_tunable "$gov" freq_max_policy "$fmp" || die2 "$config: $gov refused freq_max_policy=$fmp"
	fi
	old_ifs=$IFS
	IFS=,
	for tv in $rest; do
		IFS=$old_ifs
		set_tunable "$gov" "${tv%%=*}" "${tv#*=}" || die2 "$config: $gov refused ${tv%%=*}=${tv#*=}"
	done
	IFS=$old_ifs
}

# energy: ZONE=UJ:MAX_RANGE for every package-level powercap zone
# (intel-rapl:N, not its sub-zones), separated by ';'.
energy() {
	_e=
	for z in "$POWERCAP"/intel-rapl:*; do
		case ${z##*/} in intel-rapl:*:*) continue ;; esac
		[ -r "$z/energy_uj" ] || continue
		read -r uj < "$z/energy_uj"
		read -r mx < "$z/max_energy_range_uj"
		_e="$_e${_e:+;}${z##*/}=$uj:$mx"
	done
	echo "$_e"
}

# time_in_state summed over the policies: KHZ:10MS lines.
tis() {
	cat "$CPUFREQ"/policy*/stats/time_in_state 2>/dev/null |
		awk '{ t[$1] += $2 } END { for (f in t) print f ":" t[f] }' | sort -n
}

# The mean scaling_cur_freq over the policies every SAMPLE_S, timed by
# /proc/uptime (10 ms steps), with shell builtins only but sleep, so the
# sampler itself costs little.
uptime_ms() {
	read -r _up _ < /proc/uptime
	_s=${_up%.*} _c=${_up#*.}
	echo $((_s * 1000 + ${_c#0} * 10))
}
sampler() {
	t0=$(uptime_ms)
	while :; do
		s=0 n=0
		for f in "$CPUFREQ"/policy*/scaling_cur_freq; do
			read -r v < "$f" && s=$((s + v)) && n=$((n + 1))
		done
		[ $n -gt 0 ] && echo "$(($(uptime_ms) - t0)):$((s / n))"
		sleep "$SAMPLE_S"
	done
}

# CPU lists for COMPARE_PIN: the last online CPU for tbench's server,
# the others for its clients.
last_cpu=$(($(nproc) - 1))
client_cpus=0
[ "$last_cpu" -gt 1 ] && client_cpus=0-$((last_cpu - 1))
pinned() { # CPUS COMMAND...: COMMAND on CPUS when pinning, else as is
	_cpus=$1
	shift
	if [ "$PIN" = 1 ] && [ "$last_cpu" -gt 0 ]; then
		taskset -c "$_cpus" "$@"
	else
		"$@"
	fi
}

srv=
start_workload() {
	case $kind in
	tbench)
		command -v tbench_srv > /dev/null || die2 "tbench_srv is not installed"
		pinned "$last_cpu" tbench_srv > /dev/null 2>&1 &
		srv=$!
		;;
	esac
}

# rt-app's ns per loop of its work at the top frequency, measured once
# under the performance governor (fastest of three calibrations, the
# least disturbed), so that a profile's "run" is the same work in every
# configuration.
rtapp_ns_per_loop() {
	if [ -n "${RTAPP_NS_PER_LOOP:-}" ]; then
		echo "$RTAPP_NS_PER_LOOP"
		return
	fi
	_cache=$TMPD/compare-rtapp-ns-per-loop
	if [ ! -s "$_cache" ]; then
		set_gov performance || return 1
		sleep 0.5
		printf '{ "global" : { "calibration" : "CPU0", "logdir" : "%s", "log_basename" : "rtapp-calib" },\n  "tasks" : { "calib" : { "loop" : 1, "phases" : { "once" : { "loop" : 1, "run" : 1000 } } } } }\n' \
			"$TMPD" > "$TMPD/rtapp-calib.json"
		for _i in 1 2 3; do
			timeout 60 rt-app "$TMPD/rtapp-calib.json" 2>&1 | sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p'
		done | sort -n | head -n 1 > "$_cache"
		rm -f "$TMPD/rtapp-calib.json" "$TMPD"/rtapp-calib-*.log
	fi
	read -r _ns < "$_cache"
	case $_ns in '' | *[!0-9]* | 0) rm -f "$_cache"; return 1 ;; esac
	echo "$_ns"
}

# run_rtapp PROFILE: rt-app on rt-app/PROFILE.json with this machine's
# calibration, then one summary line per task from its logs (columns:
# idx perf run period start end rel_st slack c_duration c_period wu_lat,
# times in us).  Loops of phases without work (c_duration 0: the
# ping-pong's start and end) are left out.
run_rtapp() {
	_d=$TMPD/compare-rtapp.$$
	rm -rf "$_d"
	mkdir -p "$_d"
	sed -e "s/\"calibration\" : \"CPU0\"/\"calibration\" : $ns_per_loop/" \
		-e "s|\"logdir\" : \"/tmp\"|\"logdir\" : \"$_d\"|" \
		"$RTAPP_DIR/$1.json" > "$_d/profile.json"
	# A profile that deadlocks must not hang the whole plan.
	timeout 600 rt-app "$_d/profile.json" || { rm -rf "$_d"; return 1; }
	for _log in "$_d"/rtapp-*.log; do
		_task=${_log##*/rtapp-}
		awk -v task="${_task%-*.log}" '$1 !~ /^#/ && $9 > 0 {
				n++; run += $3; per += $4; slack += $8; if ($8 < 0) miss++ }
			END { if (!n) exit 1
				printf "rtapp task %s loops %d busy_ms %.4f period_ms %.4f slack_ms %.4f missed %d\n",
					task, n, run / n / 1000, per / n / 1000, slack / n / 1000, miss }' "$_log" ||
			{ rm -rf "$_d"; return 1; }
	done
	rm -rf "$_d"
	echo "rtapp calibration $ns_per_loop ns per loop"
	echo "rtapp $1 done"
}

run_workload() {
	case $kind in
	tbench) pinned "$client_cpus" tbench -t "$2" "$1" 127.0.0.1 ;;
	dbench) dbench -t "$2" -D "$TMPD" "$1" ;;
	hackbench) hackbench -g "$1" -l "$2" ;;
	cpu) stress-ng --cpu "$1" --cpu-ops "$2" --quiet ;;
	forkexec)
		# gitsource-like: a long chain of short-lived processes, each
		# a shell with a pipe, as a shell test suite spawns them.
		i=0
		while [ $i -lt "$1" ]; do
			sh -c 'echo x | sed s/x/y/ | grep -q y' || return 1
			i=$((i + 1))
		done
		echo "forkexec $1 done"
		;;
	burst)
		# COUNT bursts of a fixed shell loop, each after GAP_MS of
		# idle: work that arrives on a CPU its governor let slow down.
		gap=$(echo "$1" | awk '{ printf "%.3f", $1 / 1000 }')
		i=0
		while [ $i -lt "$2" ]; do
			sleep "$gap"
			j=0
			while [ $j -lt 300 ]; do j=$((j + 1)); done
			i=$((i + 1))
		done
		echo "burst $2 x gap $1 ms done"
		;;
	periodic) run_rtapp "periodic-$1" ;;
	ramp | pingpong) run_rtapp "$kind" ;;
	cmd) sh -c "$1" ;;
	esac
}

case $kind in
tbench | dbench | hackbench | cpu | burst)
	[ $# -eq 2 ] || die2 "$kind takes two numbers"
	case "$1$2" in *[!0-9]* | '') die2 "$kind takes two numbers: $1 $2" ;; esac ;;
forkexec)
	[ $# -eq 1 ] || die2 "forkexec takes one number"
	case "$1" in *[!0-9]* | '') die2 "forkexec takes one number: $1" ;; esac ;;
periodic)
	[ $# -eq 1 ] || die2 "periodic takes one duty cycle (%)"
	case "$1" in *[!0-9]* | '') die2 "periodic takes a duty cycle in %: $1" ;; esac
	[ -f "$RTAPP_DIR/periodic-$1.json" ] || die2 "periodic $1: no profile $RTAPP_DIR/periodic-$1.json" ;;
ramp) [ $# -eq 0 ] || die2 "ramp takes no argument" ;;
pingpong)
	[ $# -eq 0 ] || die2 "pingpong takes no argument"
	[ "$last_cpu" -gt 0 ] || die2 "pingpong needs two CPUs (0 and 1)" ;;
cmd) [ $# -eq 1 ] || die2 "cmd takes one shell command" ;;
*) die2 "unknown workload $kind" ;;
esac
case $kind in
tbench) prog=tbench ;; dbench) prog=dbench ;; hackbench) prog=hackbench ;;
cpu) prog=stress-ng ;; periodic | ramp | pingpong) prog=rt-app ;; *) prog='sh' ;;
esac
command -v "$prog" > /dev/null || die2 "$prog is not installed"
ls "$CPUFREQ"/policy*/scaling_governor > /dev/null 2>&1 || die2 "no cpufreq policy under $CPUFREQ"

save
trap 'restore; [ -n "$srv" ] && kill "$srv" 2>/dev/null; exit 130' INT TERM
case $kind in
periodic | ramp | pingpong)
	ns_per_loop=$(rtapp_ns_per_loop) || die2 "rt-app's calibration failed" ;;
esac
apply_config
start_workload
sleep "$SETTLE_S"

out=$TMPD/compare-out.$$
freqf=$TMPD/compare-freq.$$
spid=
if [ "$SAMPLE_S" != 0 ]; then
	sampler > "$freqf" &
	spid=$!
fi
e0=$(energy)
s0=$(tis)
t0=$(now_ns)
run_workload "$@" > "$out" 2>&1
rc=$?
t1=$(now_ns)
e1=$(energy)
s1=$(tis)
[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
restore

tail -n 40 "$out" | tr -d '\r' | sed "s/^/COMPARE_OUT $id /"
if [ -n "$spid" ]; then
	echo "COMPARE_FREQ $id $(tr '\n' ',' < "$freqf" | sed 's/,$//')"
fi
rm -f "$out" "$freqf"

# Energy before and after, per zone: ZONE=BEFORE:AFTER:MAX.
en=
for a in $(echo "$e0" | tr ';' ' '); do
	z=${a%%=*}
	b=$(echo "$e1" | tr ';' '\n' | sed -n "s/^$z=\([0-9]*\):.*/\1/p")
	r=${a#*=}
	en="$en${en:+;}$z=${r%%:*}:$b:${r#*:}"
done
# Residency during the run per frequency (10 ms units).
td=$( (echo "$s0" | sed 's/^/a /'; echo "$s1" | sed 's/^/b /') |
	awk -F'[ :]' 'NF == 3 { if ($1 == "a") t[$2] -= $3; else t[$2] += $3 }
		END { for (f in t) if (t[f] > 0) printf "%s:%d\n", f, t[f] }' |
	sort -n | tr '\n' ',' | sed 's/,$//')
status=ok
[ $rc = 0 ] || status=failed
echo "COMPARE_RESULT $id status=$status rc=$rc elapsed_ns=$((t1 - t0)) energy=${en:--} tis=${td:--}"
[ $rc = 0 ] || exit 1
exit 0
