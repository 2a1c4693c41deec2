#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One measured run of tools/compare on the machine it runs on (a real
# machine as root, or the test guest: POSIX sh, busybox ash is enough).
# Selects CONFIG on every cpufreq policy (from the governor's defaults),
# waits SETTLE_S, reads cpufreq's time_in_state, the clock and the package
# powercap energy counters, runs WORKLOAD (reading the counters every
# ENERGY_S meanwhile), reads them again, puts back what it found (every
# policy's governor, that governor's tunables, the intel_pstate mode) and
# prints machine-readable lines for tools/compare:
#   COMPARE_OUT ID LINE          the last lines of the workload's output
#   COMPARE_FREQ ID T_MS:KHZ,... mean scaling_cur_freq over the policies
#   COMPARE_RESULT ID status=ok|failed|interrupted rc=N elapsed_ns=N
#       energy=ZONE=BEFORE:AFTER:MAX;...  energy_reads=ZONE=UJ:UJ:...;...
#       energy_skipped=NAME,... tis=KHZ:10MS,... tunables=NAME=VALUE,...
#       [timeout_s=N] [turbostat=COLUMN:VALUE,...]
# energy_reads are every read in time order, the last one after the
# poller stopped (past AFTER); the figure of merit is parsed from
# COMPARE_OUT by tools/compare, so the parsing is tested on the host.
#
# Usage: run-one.sh ID CONFIG WORKLOAD [ARG...]
#   CONFIG   GOVERNOR[:FREQ_MAX][,TUNABLE=VALUE...] or
#            intel_pstate/performance, intel_pstate/powersave (active mode)
#   WORKLOAD tbench CLIENTS SECONDS | dbench CLIENTS SECONDS |
#            hackbench GROUPS LOOPS | cpu WORKERS OPS | forkexec COUNT |
#            burst GAP_MS COUNT | periodic DUTY_PCT | ramp | pingpong |
#            ring RINGS |
#            cmd 'SHELL COMMAND' (run as this user: root on a real machine)
#            periodic, ramp, pingpong and ring run rt-app on the profiles
#            in rt-app/ (periodic-DUTY_PCT.json, ramp.json, pingpong.json,
#            ring-RINGS.json)
#            and print one line per task:
#   rtapp task NAME loops N busy_ms B period_ms P slack_ms S missed M
#            (means per loop of a phase that runs work; missed: loops
#            whose slack was negative, a deadline missed)
# Environment: SYSFS (default /sys; tests point it at a fake tree),
#   SETTLE_S (default 1), SAMPLE_S (frequency sample period, 0 = none;
#   default 0.2, 0 for burst, whose idle gaps a 5 Hz sampler would fill),
#   ENERGY_S (energy read period, default 10: well inside the shortest
#   counter wrap, AMD's 65.5 kJ at 500 W), RUN_TIMEOUT_S (the workload's
#   time limit, 0 = none: then status=failed rc=124 timeout_s=N),
#   COMPARE_TMP (scratch and dbench's directory, default /tmp),
#   COMPARE_RAW_DIR (keep the whole output there as ID.out, and with
#   COMPARE_TRACE=1 a trace-cmd record of cpu_frequency, sched_switch and
#   sugov_inv_decision as ID.dat), COMPARE_TURBOSTAT=1 (run the workload
#   under turbostat: delivered MHz and C-state residency from APERF/MPERF),
#   COMPARE_PIN (1: tbench's server on the last CPU, its clients on the
#   others, so a ping-pong crosses CPUs; default 0), RTAPP_NS_PER_LOOP
#   (rt-app's calibration: ns per loop of its work at the top frequency;
#   default: measured once under the performance governor and kept in
#   COMPARE_TMP/compare-rtapp-ns-per-loop).
# Exit status: 0 measured, 1 the workload failed or timed out, 2 bad input
# or the configuration could not be selected (nothing was run), 130 a
# signal stopped it (the machine put back first).

SYSFS=${SYSFS:-/sys}
CPUFREQ=$SYSFS/devices/system/cpu/cpufreq
PSTATE=$SYSFS/devices/system/cpu/intel_pstate/status
POWERCAP=$SYSFS/class/powercap
SETTLE_S=${SETTLE_S:-1}
ENERGY_S=${ENERGY_S:-10}
RUN_TIMEOUT_S=${RUN_TIMEOUT_S:-0}
TMPD=${COMPARE_TMP:-/tmp}
PIN=${COMPARE_PIN:-0}
RTAPP_DIR=$(dirname "$0")/rt-app

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

# run_rtapp PROFILE: rt-app on rt-app/PROFILE.json with the calibration
# in RTAPP_NS_PER_LOOP, then one summary line per task from its logs
# (columns: idx perf run period start end rel_st slack c_duration
# c_period wu_lat, times in us).  Loops of phases without work
# (c_duration 0: the ping-pong's start and end) are left out.
run_rtapp() {
	_d=$TMPD/compare-rtapp.$$
	rm -rf "$_d"
	mkdir -p "$_d"
	sed -e "s/\"calibration\" : \"CPU0\"/\"calibration\" : $RTAPP_NS_PER_LOOP/" \
		-e "s|\"logdir\" : \"/tmp\"|\"logdir\" : \"$_d\"|" \
		"$RTAPP_DIR/$1.json" > "$_d/profile.json"
	rt-app "$_d/profile.json" || { rm -rf "$_d"; return 1; }
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
	echo "rtapp calibration $RTAPP_NS_PER_LOOP ns per loop"
	echo "rtapp $1 done"
}

# run_workload ARG...: the workload $kind, run as root on a real machine;
# its output is what tools/compare parses (compare_model.py: KINDS,
# extract_figure).  A new kind needs a case here, one in the argument
# check below and one in KINDS.
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
	ring) run_rtapp "ring-$1" ;;
	ramp | pingpong) run_rtapp "$kind" ;;
	cmd) sh -c "$1" ;;
	esac
}

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

# tunable_value FILE: the value to write back; sugov_inv's
# freq_max_policy lists the choices with [the one in effect].
tunable_value() {
	read -r _v < "$1" || return 1
	case $_v in *\[*\]*) _v=${_v#*\[}; _v=${_v%%\]*} ;; esac
	echo "$_v"
}

# gov_files GOVERNOR: its tunable files, global and per policy.
gov_files() {
	for _f in "$CPUFREQ/$1"/* "$CPUFREQ"/policy*/"$1"/*; do
		[ -f "$_f" ] && echo "$_f"
	done
}

# What is changed, to put back afterwards: one governor per policy, the
# tunables of the governors in effect, and the intel_pstate mode.  A
# governor keeps its tunables while any policy runs it, so writing back
# the governor alone would leave a run's tunables in place.
saved_govs=
saved_pstate=
saved_tun=$TMPD/compare-tunables.$$
save() {
	: > "$saved_tun"
	for p in "$CPUFREQ"/policy*; do
		[ -f "$p/scaling_governor" ] || continue
		read -r g < "$p/scaling_governor"
		case " $saved_govs " in
		*"=$g "*) ;;
		*) for f in $(gov_files "$g"); do
			v=$(tunable_value "$f") && printf '%s\t%s\n' "$f" "$v" >> "$saved_tun"
		   done ;;
		esac
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
		read -r cur < "$CPUFREQ/${pg%%=*}/scaling_governor"
		[ "$cur" = "${pg#*=}" ] || echo "${pg#*=}" > "$CPUFREQ/${pg%%=*}/scaling_governor" 2>/dev/null
	done
	saved_govs=
	# Twice: a value can be refused until another is back (conservative's
	# down_threshold below up_threshold).
	[ -s "$saved_tun" ] && for _ in 1 2; do
		while IFS='	' read -r f v; do
			[ -e "$f" ] && [ "$(tunable_value "$f")" != "$v" ] &&
				{ echo "$v" > "$f"; } 2>/dev/null
		done < "$saved_tun"
	done
	rm -f "$saved_tun"
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

# tunables_in_effect GOVERNOR: NAME=VALUE,... (VALUE/VALUE... where the
# policies differ).
tunables_in_effect() {
	for f in $(gov_files "$1"); do
		echo "${f##*/}=$(tunable_value "$f" | tr ' ,' '__')"
	done | awk -F= '!seen[$0]++ {
			if ($1 in v) v[$1] = v[$1] "/" $2; else { v[$1] = $2; k[n++] = $1 }
		}
		END { for (i = 0; i < n; i++) printf "%s%s=%s", (i ? "," : ""), k[i], v[k[i]] }'
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
	# Every run starts from the governor's defaults: one that already
	# runs (with the tunables someone set) is left first.
	case " $saved_govs " in
	*"=$gov "*)
		if [ -n "$(gov_files "$gov")" ]; then
			other=performance
			[ "$gov" = performance ] && other=powersave
			set_gov "$other" || die2 "$config: cannot leave $gov to reset its tunables"
		fi ;;
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

# energy: ZONE=UJ:MAX_RANGE for every package zone, by name
# (package-N: not psys, which on Intel client parts contains the
# package, nor the dram, core and uncore sub-zones), separated by ';'.
# energy_skipped: the zones left out.
energy() {
	_e=
	for z in "$POWERCAP"/intel-rapl:*; do
		case ${z##*/} in intel-rapl:*:*) continue ;; esac
		read -r _n < "$z/name" 2>/dev/null || continue
		case $_n in package-*) ;; *) continue ;; esac
		read -r uj < "$z/energy_uj" 2>/dev/null || continue
		read -r mx < "$z/max_energy_range_uj" || continue
		_e="$_e${_e:+;}${z##*/}=$uj:$mx"
	done
	echo "$_e"
}
energy_skipped() {
	for z in "$POWERCAP"/intel-rapl:*; do
		read -r _n < "$z/name" 2>/dev/null || _n=${z##*/}
		case ${z##*/}:$_n in intel-rapl:*:*:dram | intel-rapl:[0-9]*:psys) echo "$_n" ;;
		intel-rapl:[0-9]*:package-*) ;; intel-rapl:*:*:*) ;; *) echo "$_n" ;; esac
	done | sort -u | tr '\n' ',' | sed 's/,$//'
}

# time_in_state summed over the policies: KHZ:10MS lines.
tis() {
	cat "$CPUFREQ"/policy*/stats/time_in_state 2>/dev/null |
		awk '{ t[$1] += $2 } END { for (f in t) print f ":" t[f] }' | sort -n
}

# Background helpers stop on TERM without leaving their sleep behind.
# poll_energy: the counters every ENERGY_S, so that every wrap is seen.
poll_energy() {
	trap 'kill $_s 2>/dev/null; exit 0' TERM
	while :; do
		sleep "$ENERGY_S" & _s=$!
		wait $_s
		energy
	done
}
# The mean scaling_cur_freq over the policies every SAMPLE_S, timed by
# /proc/uptime (10 ms steps), with shell builtins only but sleep.
uptime_ms() {
	read -r _up _ < /proc/uptime
	_s=${_up%.*} _c=${_up#*.}
	echo $((_s * 1000 + ${_c#0} * 10))
}
sampler() {
	trap 'kill $_s 2>/dev/null; exit 0' TERM
	t0=$(uptime_ms)
	while :; do
		s=0 n=0
		for f in "$CPUFREQ"/policy*/scaling_cur_freq; do
			read -r v < "$f" && s=$((s + v)) && n=$((n + 1))
		done
		[ $n -gt 0 ] && echo "$(($(uptime_ms) - t0)):$((s / n))"
		sleep "$SAMPLE_S" & _s=$!
		wait $_s
	done
}
# watchdog PID: TERM the workload's session after RUN_TIMEOUT_S, KILL it
# 5 s later; the mark file says it fired.
watchdog() {
	trap 'kill $_s 2>/dev/null; exit 0' TERM
	sleep "$RUN_TIMEOUT_S" & _s=$!
	wait $_s
	: > "$tmark"
	kill -TERM -"$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null
	sleep 5 & _s=$!
	wait $_s
	kill -KILL -"$1" 2>/dev/null
}

srv='' wpid='' spid='' epid='' dpid='' tpid=''
# stop PID...: TERM each helper and wait for it.
stop() {
	for _p in "$@"; do
		[ -n "$_p" ] && kill "$_p" 2>/dev/null && wait "$_p" 2>/dev/null
	done
	return 0
}

# The workload runs in its own session (setsid: busybox and util-linux
# both have it), so a time limit or a signal stops all its processes.
start_workload() {
	_ts=
	[ "${COMPARE_TURBOSTAT:-0}" = 1 ] &&
		_ts="turbostat --quiet --Summary --out $TMPD/compare-turbostat.$$"
	if command -v setsid > /dev/null; then
		# shellcheck disable=SC2086
		setsid $_ts sh "$0" --workload "$kind" "$@" > "$out" 2>&1 &
	else
		# shellcheck disable=SC2086
		$_ts sh "$0" --workload "$kind" "$@" > "$out" 2>&1 &
	fi
	wpid=$!
}

# A signal puts the machine back and says so; tools/compare keeps the
# runs that finished before.
# shellcheck disable=SC2317
on_signal() {
	trap '' INT TERM
	if [ -n "$wpid" ]; then
		kill -TERM -"$wpid" 2>/dev/null || kill -TERM "$wpid" 2>/dev/null
		wait "$wpid" 2>/dev/null
	fi
	[ -n "$srv" ] && kill "$srv" 2>/dev/null
	[ -n "$tpid" ] && kill -INT "$tpid" 2>/dev/null
	stop "$dpid" "$spid" "$epid"
	restore
	echo "COMPARE_RESULT $id status=interrupted rc=130"
	rm -f "$out" "$freqf" "$epoll" "$tmark" "$TMPD/compare-turbostat.$$"
	exit 130
}

# The workload itself runs in a session of its own (see start_workload):
# run-one.sh --workload KIND ARG...
if [ "${1:-}" = --workload ]; then
	kind=$2
	shift 2
	run_workload "$@"
	exit
fi

id=$1 config=$2 kind=$3
[ $# -ge 3 ] || { echo "run-one: usage: run-one.sh ID CONFIG WORKLOAD [ARG...]" >&2; exit 2; }
shift 3
[ -n "${SAMPLE_S:-}" ] || case $kind in burst) SAMPLE_S=0 ;; *) SAMPLE_S=0.2 ;; esac

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
ring)
	[ $# -eq 1 ] || die2 "ring takes one number of rings"
	case "$1" in *[!0-9]* | '') die2 "ring takes a number of rings: $1" ;; esac
	[ -f "$RTAPP_DIR/ring-$1.json" ] || die2 "ring $1: no profile $RTAPP_DIR/ring-$1.json"
	[ "$last_cpu" -ge $((3 * $1 - 1)) ] || die2 "ring $1 needs $((3 * $1)) CPUs" ;;
cmd) [ $# -eq 1 ] || die2 "cmd takes one shell command" ;;
*) die2 "unknown workload $kind" ;;
esac
case $kind in
tbench) prog=tbench ;; dbench) prog=dbench ;; hackbench) prog=hackbench ;;
cpu) prog=stress-ng ;; periodic | ramp | pingpong | ring) prog=rt-app ;; *) prog='sh' ;;
esac
command -v "$prog" > /dev/null || die2 "$prog is not installed"
ls "$CPUFREQ"/policy*/scaling_governor > /dev/null 2>&1 || die2 "no cpufreq policy under $CPUFREQ"
case $RUN_TIMEOUT_S in *[!0-9]* | '') die2 "RUN_TIMEOUT_S is a number of seconds: $RUN_TIMEOUT_S" ;; esac

out=$TMPD/compare-out.$$
freqf=$TMPD/compare-freq.$$
epoll=$TMPD/compare-energy.$$
tmark=$TMPD/compare-timeout.$$
save
trap on_signal INT TERM
# rt-app's calibration, before the configuration is selected; the
# workload's own shell (start_workload) reads it from the environment.
case $kind in
periodic | ramp | pingpong | ring)
	RTAPP_NS_PER_LOOP=$(rtapp_ns_per_loop) || die2 "rt-app's calibration failed"
	export RTAPP_NS_PER_LOOP ;;
esac
apply_config
set_tunables=$(tunables_in_effect "$gov")
case $kind in
tbench)
	command -v tbench_srv > /dev/null || die2 "tbench_srv is not installed"
	pinned "$last_cpu" tbench_srv > /dev/null 2>&1 &
	srv=$!
	;;
esac
raw=${COMPARE_RAW_DIR:-}
if [ -n "$raw" ] && [ "${COMPARE_TRACE:-0}" = 1 ]; then
	ev="-e sched:sched_switch -e power:cpu_frequency"
	for d in "$SYSFS/kernel/tracing" "$SYSFS/kernel/debug/tracing"; do
		[ -d "$d/events/sugov_inv/sugov_inv_decision" ] &&
			ev="$ev -e sugov_inv:sugov_inv_decision" && break
	done
	# shellcheck disable=SC2086
	trace-cmd record -q -o "$raw/$id.dat" $ev > "$raw/$id.trace.log" 2>&1 &
	tpid=$!
fi
sleep "$SETTLE_S"

if [ "$SAMPLE_S" != 0 ]; then
	sampler > "$freqf" &
	spid=$!
fi
# The time and energy windows are the same: time_in_state (a pipeline,
# slow at a low frequency) is read outside both.
s0=$(tis)
poll_energy > "$epoll" &
epid=$!
t0=$(now_ns)
e0=$(energy)
start_workload "$@"
[ "$RUN_TIMEOUT_S" -gt 0 ] && { watchdog "$wpid" > /dev/null 2>&1 & dpid=$!; }
wait "$wpid"
rc=$?
e1=$(energy)
t1=$(now_ns)
stop "$epid"
e2=$(energy)
s1=$(tis)
stop "$dpid" "$spid"
[ -n "$tpid" ] && kill -INT "$tpid" 2>/dev/null && wait "$tpid" 2>/dev/null
[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
trap - INT TERM
restore

tail -n 40 "$out" | tr -d '\r' | sed "s/^/COMPARE_OUT $id /"
[ -n "$raw" ] && cp "$out" "$raw/$id.out"
if [ -n "$spid" ]; then
	echo "COMPARE_FREQ $id $(tr '\n' ',' < "$freqf" | sed 's/,$//')"
fi

# Energy before and after, per zone: ZONE=BEFORE:AFTER:MAX, and every
# read in time order: ZONE=E0:POLLS...:E2.
en='' reads=''
for a in $(echo "$e0" | tr ';' ' '); do
	z=${a%%=*}
	b=$(echo "$e1" | tr ';' '\n' | sed -n "s/^$z=\([0-9]*\):.*/\1/p")
	r=${a#*=}
	en="$en${en:+;}$z=${r%%:*}:$b:${r#*:}"
	ser=$( (echo "$e0"; cat "$epoll"; echo "$e2") | tr ';' '\n' |
		sed -n "s/^$z=\([0-9]*\):.*/\1/p" | tr '\n' ':' | sed 's/:$//')
	reads="$reads${reads:+;}$z=$ser"
done
# Residency during the run per frequency (10 ms units).
td=$( (echo "$s0" | sed 's/^/a /'; echo "$s1" | sed 's/^/b /') |
	awk -F'[ :]' 'NF == 3 { if ($1 == "a") t[$2] -= $3; else t[$2] += $3 }
		END { for (f in t) if (t[f] > 0) printf "%s:%d\n", f, t[f] }' |
	sort -n | tr '\n' ',' | sed 's/,$//')
# turbostat's summary: a header line and a line of values.
ts=
if [ -s "$TMPD/compare-turbostat.$$" ]; then
	ts=$(awk '/Avg_MHz|Busy%/ && !h { for (i = 1; i <= NF; i++) n[i] = $i; h = NF; next }
		h && NF == h { for (i = 1; i <= NF; i++) printf "%s%s:%s", (i > 1 ? "," : ""), n[i], $i; exit }' \
		"$TMPD/compare-turbostat.$$")
fi
status=ok
[ $rc = 0 ] || status=failed
limit=
[ -e "$tmark" ] && { rc=124; status=failed; limit=" timeout_s=$RUN_TIMEOUT_S"; }
skipped=$(energy_skipped)
echo "COMPARE_RESULT $id status=$status rc=$rc elapsed_ns=$((t1 - t0)) energy=${en:--}" \
	"energy_reads=${reads:--} energy_skipped=${skipped:--} tis=${td:--}" \
	"tunables=${set_tunables:--}$limit${ts:+ turbostat=$ts}"
rm -f "$out" "$freqf" "$epoll" "$tmark" "$TMPD/compare-turbostat.$$"
[ $rc = 0 ] || exit 1
exit 0
