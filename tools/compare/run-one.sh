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
#            burst GAP_MS COUNT | cmd 'SHELL COMMAND'
# Environment: SYSFS (default /sys; tests point it at a fake tree),
#   SETTLE_S (default 1), SAMPLE_S (frequency sample period, default 0.2,
#   0 = none), COMPARE_TMP (dbench's directory, default /tmp).
# Exit status: 0 measured, 1 the workload failed, 2 bad input or the
# configuration could not be selected (nothing was run).

SYSFS=${SYSFS:-/sys}
CPUFREQ=$SYSFS/devices/system/cpu/cpufreq
PSTATE=$SYSFS/devices/system/cpu/intel_pstate/status
POWERCAP=$SYSFS/class/powercap
SETTLE_S=${SETTLE_S:-1}
SAMPLE_S=${SAMPLE_S:-0.2}
TMPD=${COMPARE_TMP:-/tmp}

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

srv=
start_workload() {
	case $kind in
	tbench)
		command -v tbench_srv > /dev/null || die2 "tbench_srv is not installed"
		tbench_srv > /dev/null 2>&1 &
		srv=$!
		;;
	esac
}

run_workload() {
	case $kind in
	tbench) tbench -t "$2" "$1" 127.0.0.1 ;;
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
cmd) [ $# -eq 1 ] || die2 "cmd takes one shell command" ;;
*) die2 "unknown workload $kind" ;;
esac
case $kind in
tbench) prog=tbench ;; dbench) prog=dbench ;; hackbench) prog=hackbench ;;
cpu) prog=stress-ng ;; *) prog='sh' ;;
esac
command -v "$prog" > /dev/null || die2 "$prog is not installed"
ls "$CPUFREQ"/policy*/scaling_governor > /dev/null 2>&1 || die2 "no cpufreq policy under $CPUFREQ"

save
trap 'restore; [ -n "$srv" ] && kill "$srv" 2>/dev/null; exit 130' INT TERM
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
