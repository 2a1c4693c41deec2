#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The sugov_inv governor in the guest, asserted from what vcpufreq was
# asked for (its request record) and from the governor's own tracepoint.
#
# vcpufreq plays an AMD EPYC 7742 under acpi-cpufreq (P-states 2250, 2000,
# 1500 MHz, the 3.4 GHz boost hidden) and freq_invariance is told that
# boost (max_p_khz=2250000 max_boost_khz=3400000), as on the EPYC of
# Gherdovich's measurements (commit 976df7e5730e).  vcpufreq does not
# change how fast the guest runs, so a busy fraction does not depend on
# the frequency here, and with ref the reference freq_invariance reports
# (2823 MHz on this setup) a busy fraction b settles each freq_max choice
# where the lowest table entry at or above 1.25 x freq_max x b x f / ref
# is f itself: max_P sinks first, max_boost last, overutil-detect holds
# the top from b >= 80 %.
#
# The choices are compared side by side: with per-policy tunables each
# CPU's policy runs another choice under the same stress-ng load at the
# same time, so the host's scheduling noise (TCG vCPUs descheduled for
# tens of ms) hits all of them alike.  One check_* function per case,
# each naming the mutation it catches; CASES lists them in order.
# Runtime about 2 minutes under TCG with 4 vCPUs.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

TUN=$CPUFREQ/sugov_inv
TRACE=/sys/kernel/tracing
NCPU=$(nproc)
TOP=2250000
MID_P=2000000
LOW=1500000
FMAX_NAMES="max_P midpoint max_boost overutil-detect noinv"
# Phase lengths, s; the last SETTLE_PCT % of each phase is "settled"
FLAT_S=4
PART_S=5
SETTLE_PCT=50
# stress-ng's duty cycles of the partial loads; the last is "about 90 %
# busy": a loaded TCG host wakes idle vCPUs late, so the guest sees a few
# percent less than asked for.
HIGH_LOAD=${SGI_HIGH_LOAD:-93}
PART_LOADS="60 75 $HIGH_LOAD"
# The freq_max choice each CPU's policy runs side by side, by CPU number
SIDE="max_P midpoint max_boost overutil-detect"

# Every case, in order: a check_* function, with its argument after a
# colon.  Each reports exactly one KTAP result, so the plan is their
# number.
CASES="
check_load
check_registered
check_rmmod_refused
check_defaults
check_fmax_list
check_round_trip
check_bad_writes
check_erange
check_noinv_climb
check_iowait
check_fmax_switch
check_limits
check_debugfs
check_side_tunables
check_side_flat_out:max_P
check_side_flat_out:midpoint
check_side_flat_out:max_boost
check_side_flat_out:overutil-detect
check_side_order
check_side_max_p_lower
check_side_overutil_below
check_side_overutil_holds
check_side_raw_order
check_side_driver_trace
check_formula
check_shared_top
check_shared_overutil
check_shared_idle
check_param_refused
check_param_initial
check_unload
check_dmesg
"

# The EPYC 7742 table with extra vcpufreq parameters, sugov_inv on every
# policy (freq_invariance and sugov_inv loaded already)
load_vcpufreq() {
	insmod $VC_KO preset=epyc-7742 "$@" &&
		set_all scaling_governor sugov_inv
}

# ---------------------------------------------------------------------------
# Phases: a load, then what vcpufreq recorded and the tracepoint saw

# Phase bookkeeping: cur per CPU at the start, record and trace emptied
phase_begin() {
	awk '{ print $1, $2 }' $VCF/cur > /tmp/sgi-cur0
	reset_record
	echo > $TRACE/trace
	PH_TS=
	PH_T0=$(now_ns)
}

phase_end() {
	PH_T1=$(now_ns)
	cp $VCF/requests /tmp/sgi-req
	grep sugov_inv_decision $TRACE/trace > /tmp/sgi-trace
}

# trace_field NAME REGEX: the value of field NAME (as in "NAME=VALUE") of
# each decision of the last phase whose line matches REGEX, one a line.
trace_field() {
	awk -v k="$1=" -v re="$2" '$0 ~ re { for (i = 1; i <= NF; i++)
		if (index($i, k) == 1) print substr($i, length(k) + 1) }' /tmp/sgi-trace
}

# Time-weighted frequency of each CPU over the settled part of the phase,
# from vcpufreq's record: "avg_khz top_fraction" averaged over the CPUs
# (over CPU $1 only when given).
settled_freq() {
	awk -v t0="$PH_T0" -v t1="$PH_T1" -v pct=$SETTLE_PCT -v top=$TOP -v only="${1:-}" -v pts="$PH_TS" '
	FILENAME ~ /cur0/ { if (only == "" || $1 == only) { f[$1] = $2; cpus[$1] = 1 }; next }
	{ n++; ev_t[n] = $1; ev_c[n] = $2; ev_f[n] = $3 }
	END {
		ts = pts != "" ? pts : t1 - (t1 - t0) * pct / 100
		for (c in cpus) { cur = f[c]; last = ts; sum = 0; attop = 0
			for (i = 1; i <= n; i++) {
				if (ev_c[i] != c) continue
				if (ev_t[i] <= ts) { cur = ev_f[i]; continue }
				if (ev_t[i] > t1) break
				sum += cur * (ev_t[i] - last)
				if (cur == top) attop += ev_t[i] - last
				last = ev_t[i]; cur = ev_f[i]
			}
			sum += cur * (t1 - last); if (cur == top) attop += t1 - last
			tot += sum / (t1 - ts); tf += attop / (t1 - ts); nc++
		}
		printf "%d %.3f\n", tot / nc, tf / nc
	}' /tmp/sgi-cur0 /tmp/sgi-req
}

# The tracepoint's decisions in the settled part of the phase, up to its
# end: the load's, not those of the tail that phase_end's own commands
# run in while the estimates decay (in two stock 6.12 guests, 41 of 41
# and 46 of 55 of check 27's off-rule decisions came in that tail; it
# failed e5e8edc's gate).
settled_decisions() {
	awk -v t0="$PH_T0" -v t1="$PH_T1" -v pct=$SETTLE_PCT -v pts="$PH_TS" '
	BEGIN { ts = pts != "" ? pts : t1 - (t1 - t0) * pct / 100 }
	{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+:$/) t = substr($i, 1, length($i) - 1) * 1e9
	  if (t >= ts && t <= t1) print }' /tmp/sgi-trace
}

# Means over the settled part of the phase, from the tracepoint, of CPU
# $1's decisions: "raw_khz busy_pct".
settled_trace() {
	settled_decisions | awk -v c="$1" '
	{ delete v; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) v[kv[1]] = kv[2]
	  if (v["cpu"] != c) next
	  r += v["raw_khz"]; b += v["busy"]; n++ }
	END { if (n) printf "%d %d\n", r / n, b * 100 / n / 1024; else print "0 0" }'
}

# Every decision of the phase against the formula: freq_max from the
# choice and freq_invariance's caps, raw = headroom * freq_max * util /
# 1024 (overutil: the policy maximum), next = the lowest table entry at
# or above raw within the limits (hold: not below it).  The wake-up
# hold for work that arrives on an idle CPU only raises raw above the
# formula.  Prints
# "decisions mismatches first-mismatch".
formula_check() {
	p0=$CPUFREQ/policy0
	awk -v tbl="$(cat $p0/scaling_available_frequencies)" \
	    -v lo="$(cat $p0/scaling_min_freq)" -v hi="$(cat $p0/scaling_max_freq)" \
	    -v cmax="$(cat $p0/cpuinfo_max_freq)" -v hr=125 \
	    -v mp="$MAXP" -v md="$MIDK" -v mb="$MAXB" -v ref="$REF" '
	function resolve(k,   i, best) {
		if (k < lo) k = lo; if (k > hi) k = hi; best = 0
		for (i = 1; i <= nt; i++) if (T[i] >= k && (!best || T[i] < best)) best = T[i]
		return best ? best : hi
	}
	BEGIN { nt = split(tbl, T, " ") }
	{ delete v; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) v[kv[1]] = kv[2]
	  n++; bad = ""
	  p = v["freq_max_policy"]; fm = v["freq_max_khz"]
	  if (v["reason"] == "overutil") {
		if (p != "overutil-detect" || fm != cmax || v["raw_khz"] != cmax) bad = "overutil"
	  } else {
		want = (p == "max_P") ? mp : (p == "midpoint") ? md : (p == "max_boost") ? mb : (p == "overutil-detect") ? ref : fm
		if (fm != want) bad = "freq_max"
		f = int(hr * fm * v["util"] / 102400)
		if (v["reason"] == "wake") {
			if (v["raw_khz"] <= f) bad = "wake"
		} else if (v["raw_khz"] != f) bad = "raw"
	  }
	  r = resolve(v["raw_khz"])
	  if (v["reason"] == "hold") { if (v["next_khz"] < r) bad = "hold" }
	  else if (v["next_khz"] != r) bad = "next"
	  if (bad != "") { m++; if (first == "") first = bad ": " $0 }
	}
	END { printf "%d %d %s\n", n, m, first }' /tmp/sgi-trace
}

# noinv's climb on each CPU: the requests of the phase, in order, as
# "cpu: khz khz ...", one line per CPU.
climb_paths() {
	awk '{ p[$2] = p[$2] " " $3 } END { for (c in p) print c ":" p[c] }' /tmp/sgi-req
}

# ge A B: A >= B for decimal numbers
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

run_load() { # seconds load-percent (100 = flat out)
	if [ "$2" = 100 ]; then
		stress-ng --cpu "$NCPU" -t "$1" -q
	else
		stress-ng --cpu "$NCPU" --cpu-load "$2" --cpu-load-slice ${SGI_SLICE:-50} -t "$1" -q
	fi
}

# Start stress-ng on every CPU, one worker pinned to each: the same load
# on each CPU at the same time (load percent 100 = flat out).  They run
# until stop_pinned; PINNED holds their pids.
start_pinned() { # load-percent
	PINNED=
	for c in $(seq 0 $((NCPU - 1))); do
		if [ "$1" = 100 ]; then
			stress-ng --cpu 1 --taskset $c -t 600 -q &
		else
			stress-ng --cpu 1 --taskset $c --cpu-load "$1" \
				--cpu-load-slice ${SGI_SLICE:-50} -t 600 -q &
		fi
		PINNED="$PINNED $!"
	done
}

stop_pinned() {
	kill -INT $PINNED 2>/dev/null
	wait
}

# Per-CPU "cpu idle total" from /proc/stat (USER_HZ units)
stat_cpus() { awk '/^cpu[0-9]/ { print substr($1, 4), $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }

# A pinned-load phase whose settled part (the last SETTLE_PCT %) is also
# measured by /proc/stat: settled_busy CPU then gives its busy percent.
# The workers are stopped at the end of the settled part, so it holds load
# only however late each of them started.
phase_pinned() { # seconds load-percent
	phase_begin
	start_pinned "$2"
	sleep $(awk -v d="$1" -v p=$SETTLE_PCT 'BEGIN { print d * (100 - p) / 100 }')
	PH_TS=$(now_ns)
	stat_cpus > /tmp/sgi-stat0
	sleep $(awk -v d="$1" -v p=$SETTLE_PCT 'BEGIN { print d * p / 100 }')
	stat_cpus > /tmp/sgi-stat1
	phase_end
	stop_pinned
}

# Busy percent of CPU $1 over the settled part: its idle time (/proc/stat
# takes it from the NOHZ idle clock, exact) against the wall clock.  Not
# against /proc/stat's total: user and system time are sampled by the
# tick, which a vCPU the host starves of time misses.
settled_busy() { # cpu
	awk -v c="$1" -v w="$((PH_T1 - PH_TS))" 'FILENAME ~ /stat0/ { if ($1 == c) i = $2; next }
		$1 == c { b = 100 - ($2 - i) * 1e9 / w; printf "%d\n", b < 0 ? 0 : b }' /tmp/sgi-stat0 /tmp/sgi-stat1
}

# formula_phase NAME: the phase's decisions against the formula, counted
# for check_formula
FORMULA_BAD=0
FORMULA_N=0
formula_phase() {
	set -- "$1" $(formula_check)
	if [ "$3" != 0 ] || [ "$2" -eq 0 ]; then
		FORMULA_BAD=1
		ktap_diag "$1: $2 decisions, $3 off the formula; first: $4 $5 $6 $7 $8 $9"
	fi
	FORMULA_N=$((FORMULA_N + $2))
}

# ---------------------------------------------------------------------------
# Set-up and registration

# Catches: a module that does not load, or a governor that does not start.
# Every later case skips when this one fails.
check_load() {
	if insmod $FI_KO max_p_khz=2250000 max_boost_khz=3400000 &&
	   insmod $SG_KO && load_vcpufreq; then
		ktap_ok "modules load and sugov_inv is selected on every policy"
	else
		ktap_fail "modules load and sugov_inv is selected on every policy"
		ABORT="modules did not load"
		return
	fi
	C0=$FISYS/cpu0
	MAXP=$(cat $C0/max_p_khz) MAXB=$(cat $C0/max_boost_khz)
	MIDK=$(cat $C0/midpoint_khz) REF=$(cat $C0/reference_khz)
	ktap_diag "caps: max_P $MAXP midpoint $MIDK max_boost $MAXB reference $REF"
	# The table's step below the top
	STEP=$(tr ' ' '\n' < $CPUFREQ/policy0/scaling_available_frequencies | grep . | sort -n | tail -n 2 | head -n 1)
	# Every decision from now on, for the phases' checks
	echo mono > $TRACE/trace_clock
	echo 4096 > $TRACE/buffer_size_kb
	echo 1 > $TRACE/events/sugov_inv/sugov_inv_decision/enable
}

# Catches: the governor not registered or not started on some policy.
check_registered() {
	_ok=0
	every_policy_runs sugov_inv >/dev/null || _ok=1
	grep -qw sugov_inv $CPUFREQ/policy0/scaling_available_governors || _ok=1
	ktap_result "sugov_inv is listed and active on all $(policies | wc -l) policies" $_ok
}

# Catches: a governor without .owner (the core then takes no module
# reference and rmmod would pull the code from under the policies).
check_rmmod_refused() {
	if rmmod sugov_inv 2>/dev/null; then
		ktap_fail "rmmod sugov_inv is refused while policies use it"
		insmod $SG_KO && set_all scaling_governor sugov_inv
	else
		ktap_ok "rmmod sugov_inv is refused while policies use it"
	fi
}

# ---------------------------------------------------------------------------
# Tunables (one global set: x86 has no governor-per-policy)

# Catches: a wrong default (schedutil's 80 % tipping point; the driver's
# transition delay, which the running kernel computes: for vcpufreq's
# 10 us latency, 10 ms on 6.1 (x 1000, at most 10 ms), 15 us on 6.12
# (x 1.5), so it is read from schedutil's default on these policies).
check_defaults() {
	set_all scaling_governor schedutil &&
		_su_rate=$(cat $CPUFREQ/schedutil/rate_limit_us)
	set_all scaling_governor sugov_inv
	_want="rate_limit_us=${_su_rate:-?} overutil_threshold_pct=80 idle_restore_us=20000"
	_got=
	for _kv in $_want; do _got="$_got ${_kv%%=*}=$(cat $TUN/${_kv%%=*})"; done
	ktap_result "tunables start at their defaults:$_got" \
		$([ "$_got" = " $_want" ]; echo $?)
}

# Catches: a list without every name or without the active one bracketed.
check_fmax_list() {
	_l=$(cat $TUN/freq_max_policy)
	ktap_result "freq_max_policy lists all five, the default bracketed: $_l" \
		$([ "$_l" = "max_P midpoint [max_boost] overutil-detect noinv" ]; echo $?)
}

# Catches: a store that parses but does not store, or a show of another
# field.
check_round_trip() {
	_rt=0
	for _kv in rate_limit_us=20000 overutil_threshold_pct=90 idle_restore_us=30000; do
		_f=${_kv%%=*} _v=${_kv#*=}
		_old=$(cat $TUN/$_f)
		echo "$_v" > $TUN/$_f && [ "$(cat $TUN/$_f)" = "$_v" ] ||
			{ ktap_diag "$_f: wrote $_v, read $(cat $TUN/$_f)"; _rt=1; }
		echo "$_old" > $TUN/$_f
	done
	for _n in $FMAX_NAMES; do
		echo "$_n" > $TUN/freq_max_policy && grep -q "\[$_n\]" $TUN/freq_max_policy ||
			{ ktap_diag "freq_max_policy $_n did not stick"; _rt=1; }
	done
	ktap_result "every tunable round-trips (three numbers, five freq_max names)" $_rt
}

# try_bad FILE VALUE: a write (with a newline, as echo does) that must
# fail and change nothing; sets BAD otherwise.
try_bad() {
	_before=$(cat $TUN/$1)
	if printf '%s\n' "$2" > $TUN/$1 2>/dev/null; then
		ktap_diag "$1: '$2' accepted"; BAD=1
	fi
	[ "$(cat $TUN/$1)" = "$_before" ] || { ktap_diag "$1 changed by '$2'"; BAD=1; }
}

# Catches: clamping instead of rejecting, kstrtouint's errors ignored,
# prefix matching of freq_max names, or a value changed by a failed write.
check_bad_writes() {
	BAD=0
	for _v in abc "" -1 1000001 4294967296 "10 0"; do try_bad rate_limit_us "$_v"; done
	for _v in 0 101 -5 x 1.25; do try_bad overutil_threshold_pct "$_v"; done
	for _v in 1000001 -1 us; do try_bad idle_restore_us "$_v"; done
	for _v in max_p MAX_P max overutil "" "max_P max_boost" schedutil; do try_bad freq_max_policy "$_v"; done
	ktap_result "bad writes fail and change nothing (21 cases)" $BAD
}

# Catches: an out-of-range number failing with a parse error or not at all.
check_erange() {
	_err=$(sh -c "echo 101 > $TUN/overutil_threshold_pct" 2>&1)
	ktap_diag "overutil_threshold_pct=101: ${_err##*: }"
	case $_err in *"out of range"*) _e=0 ;; *) _e=1 ;; esac
	ktap_result "an out-of-range number fails with ERANGE" $_e
}

# ---------------------------------------------------------------------------
# Decisions under load, from the tracepoint and the request record

# Catches: resolving 1.25 x cur down (RELATION_H) or util scaled for noinv:
# a fully busy CPU would stay at the lowest P-state, as a 6.8 kernel once
# did.  From 1500 MHz the only way up is 2000 then 2250.
# Preconditions, per CPU: it starts at 1500 MHz (waited for up to
# IDLE_SETTLE_MS), and the load keeps it flat out: one worker pinned to
# each CPU, its busy fraction measured from the NOHZ idle clock
# (/proc/stat).  On the debug kernel under TCG an unpinned stress-ng left
# each CPU 11-17 % idle in the guest's own accounting, in stretches of a
# few hundred ms (workers starting, exiting, sharing a CPU), and noinv,
# whose util is the busy fraction, fell back through the table in each:
# the load, not the estimator.  A CPU whose precondition fails is not
# judged, and says why.
check_noinv_climb() {
	echo noinv > $TUN/freq_max_policy
	wait_all_cur le $LOW "$IDLE_SETTLE_MS"
	phase_begin
	PH_TS=$PH_T0
	stat_cpus > /tmp/sgi-stat0
	start_pinned 100
	sleep $FLAT_S
	stat_cpus > /tmp/sgi-stat1
	phase_end
	stop_pinned
	PH_TS=
	formula_phase "noinv flat out"
	_bad=0 _judged=0 _why=
	for _c in $(seq 0 $((NCPU - 1))); do
		_start=$(awk -v c=$_c '$1 == c { print $2 }' /tmp/sgi-cur0)
		_path=$(climb_paths | sed -n "s/^$_c: *//p")
		_busy=$(settled_busy $_c)
		if [ "$_start" != $LOW ]; then
			_why="$_why cpu$_c at $_start when the load began;"
			continue
		fi
		case "$_start: $_path " in
		"$LOW:"*" $MID_P"*" $TOP"*) _judged=$((_judged + 1)) ;;
		*)	if [ "$_busy" -lt 90 ]; then
				_why="$_why cpu$_c only $_busy % busy under the load;"
			else
				_bad=1 _judged=$((_judged + 1))
				ktap_diag "cpu$_c noinv from $_start at $_busy % busy: $_path"
			fi ;;
		esac
	done
	[ -n "$_why" ] && ktap_diag "not judged:$_why"
	if [ $_bad = 0 ] && [ $_judged = 0 ]; then
		ktap_skip "flat out: noinv climbs $LOW -> $MID_P -> $TOP on every CPU" "no CPU met the preconditions:$_why"
	else
		ktap_result "flat out: noinv climbs $LOW -> $MID_P -> $TOP on every CPU ($_judged judged)" $_bad
	fi
	ktap_diag "driver path: $(grep -E '^(fast|slow) ' $VCF/stats | tr '\n' ' ')"
}

# Catches: SCHED_CPUFREQ_IOWAIT ignored, or a boost that does not double
# per I/O-wait wake-up (schedutil's 1/8, 1/4, 1/2, full).  null_blk with
# timer completions makes a reader sleep in io_schedule() for each block;
# it is a module in Debian's kernel and built in, set up from the command
# line (null_blk.irqmode=2), in the debug test kernel; skipped without
# either.  A tick without a wake-up restarts the boost, a loaded TCG host
# delays completions, and a decision is marked "iowait" only when the
# boost, not the formula, set its request, so the steps seen are a subset
# of 1/8, 1/4, 1/2, full: required are a step below 1/2 and then 1/2 or
# more (it grew), every step a power of two times 1/8 (the debug kernel
# once showed only two, 1/4 and 1/2, where three were asked before).
# kunit/sugov_inv_iowait_kunit.c checks each step of the rule itself.
# The preconditions: the reader slept on its I/O (CPU 1's iowait time in
# /proc/stat grew), and its own util (the median of CPU 1's decisions
# that the formula set; util as traced includes the boost) is below 1/2,
# so that a boost of 1/2 can set a request at all; below 1/4 the step
# under 1/2 is required too.  The completions come after 200 us: with
# 1 ms the stock kernel's CPU idled between reads, and each hook call
# between two I/O-wait wake-ups is an evaluation that halves the boost
# (schedutil's rule: with the request unchanged no rate limit applies):
# it went 1/8, 1/4, 1/8, ... (2234 decisions, none at 1/2).  On the
# KASAN/lockdep kernel the reader's work per read rivals the wait (its
# median util 281 to 437): make check sets SGI_IOWAIT_JUDGE=0 there, and
# the read runs for the splat checks only.
nullb_timer() { [ "$(cat /sys/module/null_blk/parameters/irqmode 2>/dev/null)" = 2 ]; }
cpu1_iowait() { awk '$1 == "cpu1" { print $6 }' /proc/stat; }
check_iowait() {
	nullb_loaded=0
	if ! nullb_timer && modprobe null_blk irqmode=2 completion_nsec=200000 2>/dev/null; then
		nullb_loaded=1
	fi
	if nullb_timer && [ -b /dev/nullb0 ]; then
		echo max_P > $TUN/freq_max_policy
		_io0=$(cpu1_iowait)
		phase_begin
		taskset 2 dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=3000 2>/dev/null
		phase_end
		_io1=$(cpu1_iowait)
		formula_phase "iowait"
		set -- $(trace_field util 'reason=iowait' | awk '{ u = $1 + 0
			n++; if (u > max) max = u; if (n == 1 || u < min) min = u
			if (n <= 8) first = first (n > 1 ? "," : "") u
			if (u != 128 && u != 256 && u != 512 && u != 1024) odd++ }
			END { print n + 0, min + 0, max + 0, odd + 0, (first == "" ? "-" : first) }')
		_umed=$(trace_field util ' cpu=1 .*reason=formula' | sort -n |
			awk '{ u[NR] = $1 } END { print NR ? u[int((NR + 1) / 2)] + 0 : 0 }')
		ktap_diag "iowait: $1 decisions boosted (first: $5), lowest boost $2, highest $3, $4 not a power-of-two step of 128; cpu1 iowait $((_io1 - _io0)) ticks, median util $_umed"
		if [ "${SGI_IOWAIT_JUDGE:-1}" = 0 ]; then
			ktap_skip "I/O-wait wake-ups boost util from 1/8, doubling (at least to 1/2)" "not judged on this kernel (SGI_IOWAIT_JUDGE=0): the reader's work per read rivals the wait"
		elif [ "$1" = 0 ] && [ "$_io1" = "$_io0" ]; then
			ktap_skip "I/O-wait wake-ups boost util from 1/8, doubling (at least to 1/2)" "the reader never slept on I/O (no iowait time on cpu1)"
		elif [ "$_umed" -ge 512 ]; then
			ktap_skip "I/O-wait wake-ups boost util from 1/8, doubling (at least to 1/2)" "the reader's own util (median $_umed) is 1/2 or more: no boost below full can set a request"
		else
			ktap_result "I/O-wait wake-ups boost util from 1/8, doubling (at least to 1/2)" \
				$([ "$1" -ge 1 ] && [ "$3" -ge 512 ] && [ "$4" = 0 ] &&
				  { [ "$_umed" -ge 256 ] || [ "$2" -lt 512 ]; }; echo $?)
		fi
		[ $nullb_loaded = 0 ] || rmmod null_blk
	else
		ktap_skip "I/O-wait wake-ups boost util from 1/8, doubling (at least to 1/2)" "no null_blk in the guest with irqmode=2"
	fi
}

# Catches: a freq_max choice cached at start (or per window) instead of
# read at each evaluation.  Under a flat-out load the hooks run at least
# every tick, so with rate_limit_us=50000 every CPU evaluates within 50 ms
# + a tick of the write, and that evaluation must use the new choice: no
# evaluation after the write may use the old one.  The bound on the delay
# allows another 50 ms for a vCPU the TCG host has not scheduled.
check_fmax_switch() {
	echo max_P > $TUN/freq_max_policy
	echo 50000 > $TUN/rate_limit_us
	phase_begin
	run_load 4 100 &
	sleep 2
	echo max_boost > $TUN/freq_max_policy
	echo sgi-switch > $TRACE/trace_marker
	wait
	phase_end
	echo 10000 > $TUN/rate_limit_us
	formula_phase "freq_max switch"
	grep -E 'sgi-switch|sugov_inv_decision' $TRACE/trace > /tmp/sgi-sw
	set -- $(awk '
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+:$/) t = substr($i, 1, length($i) - 1) }
		/sgi-switch/ { ts = t; next }
		ts == "" { next }
		{ for (i = 1; i <= NF; i++) { if ($i ~ /^cpu=/) c = substr($i, 5); if ($i ~ /^freq_max_policy=/) p = substr($i, 17) } }
		{ if (p != "max_boost") old++
		  if (!(c in first)) { first[c] = t; nf++; d = t - ts; if (d > worst) worst = d } }
		END { printf "%d %d %.0f\n", nf, old + 0, worst * 1000 }' /tmp/sgi-sw)
	ktap_diag "after the switch: $1 CPUs evaluated, $2 decisions with the old choice, the last CPU $3 ms after the write (rate limit 50 ms)"
	ktap_result "a freq_max_policy change applies at the next evaluation, within one rate-limit period" \
		$([ "$1" = "$NCPU" ] && [ "$2" = 0 ] && [ "$3" -le 125 ]; echo $?)
}

# Catches: limits applied only after the rate limit or not at all (the
# limits_changed/need_freq_update path), or a target above scaling_max_freq.
# Precondition: CPUs above the new maximum when it is written.  They
# climb under the 10 ms rate limit first (up to 4 s: a debug kernel
# under TCG is slow), and only then does the 1 s rate limit go on.
check_limits() {
	echo max_boost > $TUN/freq_max_policy
	: > /tmp/sgi-lim
	phase_begin
	run_load 7 100 &
	wait_all_cur gt $MID_P 4000
	echo 1000000 > $TUN/rate_limit_us
	sleep 0.3
	# One limit write per policy, timed: "cpu before_ns after_ns khz_before"
	for p in $(policies); do
		c=${p##*policy}
		was=$(awk -v c=$c '$1 == c { print $2 }' $VCF/cur)
		t=$(now_ns)
		echo $MID_P > $p/scaling_max_freq
		echo "$c $t $(now_ns) $was" >> /tmp/sgi-lim
	done
	sleep 1
	cp $VCF/requests /tmp/sgi-limreq
	under=$(awk -v mid=$MID_P '$2 <= mid { n++ } END { print n + 0 }' $VCF/cur)
	set_all scaling_max_freq $TOP
	wait
	phase_end
	echo 10000 > $TUN/rate_limit_us
	# Per CPU above the new maximum at its write: a request at or below it
	# within 100 ms (10 ms before for the resolution of /proc/uptime); on any
	# CPU, no request above it from 20 ms after the write.
	set -- $(awk -v mid=$MID_P '
		FILENAME ~ /sgi-lim$/ { t[$1] = $2; u[$1] = $3; if ($4 > mid) { need[$1] = 1; k++ }; next }
		!($2 in t) { next }
		($2 in need) && $1 >= t[$2] - 10000000 && $1 <= u[$2] + 100000000 && $3 <= mid { delete need[$2]; got++ }
		$1 > u[$2] + 20000000 && $3 > mid { above++; if (ex == "") ex = $0 }
		END { print k + 0, got + 0, above + 0, ex }' /tmp/sgi-lim /tmp/sgi-limreq)
	need=$1 got=$2 above=$3; shift 3
	[ -n "$*" ] && ktap_diag "first request above the limit: $*"
	ktap_diag "with rate_limit_us=1000000: $need CPUs above $MID_P at the write, $got lowered within 100 ms, $above requests above it later, $under of $NCPU at or below it after 1 s"
	if [ "$need" = 0 ]; then
		ktap_skip "scaling_max_freq applies at once, rate limit or not" "no CPU above $MID_P under load after 4 s (precondition)"
	else
		ktap_result "scaling_max_freq applies at once, rate limit or not" \
			$([ "$got" = "$need" ] && [ "$above" = 0 ] && [ "$under" = "$NCPU" ]; echo $?)
	fi
}

# Catches: counters not kept per CPU, or an unreadable summary.
check_debugfs() {
	ok=$(awk '!/^#/ { n++; if ($2 == 1 && $3 > 0 && $6 + $7 + $8 + $10 <= $3) g++ } END { print (n == '$NCPU' && g == n) ? 0 : 1 }' /sys/kernel/debug/sugov_inv/summary)
	head -n 2 /sys/kernel/debug/sugov_inv/summary | sed 's/^/# /'
	ktap_result "debugfs summary has per-CPU counters consistent with the evaluations" $ok
}

# ---------------------------------------------------------------------------
# Side by side: one freq_max choice per CPU (per-policy tunables), CPU c
# running the c-th of SIDE.  The flat-out phase runs before the first
# flat-out case, the partial loads before the first case that reads them.

SIDE_WHY=
SIDE_FLAT=
SIDE_PART=

# side_skip DESC: report DESC skipped when the side-by-side set-up failed
side_skip() {
	[ -n "$SIDE_WHY" ] || return 1
	ktap_skip "side by side: $1" "$SIDE_WHY"
}

# side_cpu NAME: the CPU whose policy runs freq_max choice NAME
side_cpu() {
	_i=0
	for _n in $SIDE; do
		[ "$_n" = "$1" ] && { echo $_i; return; }
		_i=$((_i + 1))
	done
}

# col FILE CPU K: field K of CPU's line of a phase table
col() { awk -v c="$2" -v k="$3" '$1 == c { print $k }' "$1"; }

# inrange FILE LO HI CPU...: every CPU's measured busy within [LO, HI]
inrange() {
	_f=$1 _lo=$2 _hi=$3; shift 3
	for _c in "$@"; do
		_b=$(col $_f $_c 6)
		[ "$_b" -ge "$_lo" ] && [ "$_b" -le "$_hi" ] || return 1
	done
}

# The flat-out phase: /tmp/sgi-side, "cpu avg_khz top_frac busy_pct"
side_flat_phase() {
	SIDE_FLAT=1
	sleep 1.5
	phase_pinned $FLAT_S 100
	formula_phase "side by side, flat out"
	: > /tmp/sgi-side
	for c in 0 1 2 3; do echo "$c $(settled_freq $c) $(settled_busy $c)" >> /tmp/sgi-side; done
}

# The partial loads: /tmp/sgi-pLOAD, "cpu avg_khz top_frac mean_raw_khz
# decision_busy_pct busy_pct" per stress-ng load
side_partial_phases() {
	SIDE_PART=1
	# The formula's partial-load answers: idle_restore_us would restore
	# each run's util after idle parts that TCG delivers in lumps of 20 ms
	# and more (decisions then saw 92-96 % busy at 67-71 % measured)
	idle_memory_off
	for l in $PART_LOADS; do
		phase_pinned $PART_S $l
		formula_phase "side by side, $l % load"
		: > /tmp/sgi-p$l
		for c in 0 1 2 3; do echo "$c $(settled_freq $c) $(settled_trace $c) $(settled_busy $c)" >> /tmp/sgi-p$l; done
	done
	ktap_diag "cpu freq_max: avg_khz top_frac mean_raw_khz decision_busy_pct busy_pct (settled), per stress-ng load: $PART_LOADS %"
	c=0
	for p in $SIDE; do
		line=
		for l in $PART_LOADS; do line="$line| $(sed -n "s/^$c //p" /tmp/sgi-p$l) "; done
		ktap_diag "cpu$c $p: $line"
		c=$((c + 1))
	done
}

# Catches: tunables shared although the driver asks for one set per policy.
check_side_tunables() {
	set_all scaling_governor performance
	rmmod vcpufreq
	if [ "$NCPU" -lt 4 ] || ! load_vcpufreq per_policy_tunables=1; then
		SIDE_WHY="needs 4 CPUs and per_policy_tunables"
		side_skip "per-policy tunables"
		return
	fi
	c=0
	for p in $SIDE; do echo $p > $CPUFREQ/policy$c/sugov_inv/freq_max_policy; c=$((c + 1)); done
	ok=0
	[ -d $TUN ] && ok=1
	c=0
	for p in $SIDE; do grep -q "\[$p\]" $CPUFREQ/policy$c/sugov_inv/freq_max_policy || ok=1; c=$((c + 1)); done
	ktap_result "per-policy tunables: policy0..3 run $SIDE" $ok
}

# Catches: a util estimate that scales a CPU that never idles by
# frequency: it would stay below full util, and max_P below the top.
check_side_flat_out() { # freq_max choice
	_n=$1
	side_skip "flat out: $_n reaches the top" && return
	[ -n "$SIDE_FLAT" ] || side_flat_phase
	set -- $(sed -n "s/^$(side_cpu $_n) //p" /tmp/sgi-side)
	ktap_result "flat out ($3 % busy): $_n reaches the top ($2 of the settled time at $TOP)" \
		$(ge "$2" 0.8; echo $?)
}

# With the same busy fraction the choice with the higher freq_max never
# asks for less (higher f, higher invariant util, higher target), so the
# order of the mean raw targets holds between any two CPUs whose loads
# came out within 5 points of each other; 5 % allows for the rest of the
# difference.  The mean request is no judge at low loads: with raw
# targets under the lowest P-state it counts only how often a target
# crosses a table step (6.12 guest, 60 % load: midpoint's raw mean
# 1301 MHz under max_boost's 1581, its mean request 1759 MHz over 1667).
# Catches: freq_max of two choices swapped, or max_P above max_boost.
check_side_order() {
	side_skip "partial loads: raw targets max_P <= midpoint <= max_boost" && return
	[ -n "$SIDE_PART" ] || side_partial_phases
	bad= n=0
	for l in $PART_LOADS; do
		f=/tmp/sgi-p$l
		for pair in "0 1" "1 2" "0 2"; do
			set -- $pair
			d=$(($(col $f $1 6) - $(col $f $2 6)))
			[ "$d" -le 5 ] && [ "$d" -ge -5 ] || continue
			n=$((n + 1))
			[ "$(col $f $1 4)" -le $(($(col $f $2 4) * 105 / 100)) ] ||
				bad="$bad $l%:cpu$1>cpu$2"
		done
	done
	if [ "$n" = 0 ]; then
		ktap_skip "partial loads: raw targets max_P <= midpoint <= max_boost" "no two CPUs measured within 5 points of busy"
	else
		ktap_result "partial loads: raw targets max_P <= midpoint <= max_boost ($n comparisons${bad:+, not at$bad})" \
			$([ -z "$bad" ]; echo $?)
	fi
}

# A busy fraction b separates max_P from max_boost when max_P cannot hold
# the top (1.25 x max_P x b x 2250 / ref <= 2000) while max_boost can
# (1.25 x max_boost x b x 2250 / ref > 2000), with 3 to 4 points of
# margin; the measured busy fraction decides which phases count (a
# loaded TCG host wakes idle vCPUs late, so stress-ng's duty cycle comes
# out lower than asked).
# With boost, max_P at the top runs at the boost frequency, and the
# util it measures there can hold the top: a spell of stolen host time
# (busy to a TCG guest) can leave it there, though the formula asks for
# less on average (a loaded host: 82 % measured, 0.67 of the time at the
# top, mean raw target 1.89 GHz; max_boost 0.05 GHz higher).  So when the
# settled frequencies are not apart while max_P's mean raw target is
# under the step below the top and max_boost's over it, the formula did
# its part and the host decided: the phase does not count.  Nor does a
# phase measured above 94 % busy: there the stolen time alone lifts
# max_P's mean raw target over the step (a make check of 368d1aa beside
# three other guests: 95 % measured on both CPUs, max_P's mean raw
# target 2.31 GHz, settled 2094 against 2154 MHz; the runs that pass
# measure 93 and 94 %).  Below that, on a host busy with other guests,
# the stolen time can still lift max_P's own mean raw target to the step
# (a fresh-clone make check beside tools/compare runs, 6.12: 93 % busy,
# 2.04 GHz, settled 2046 against 2124 MHz): the formula then asked max_P
# for the top itself, and the phase counts only as far as the raw
# targets go, which must stay apart by 1.2 times (max_boost / max_P is
# 1.51 on this table; one shared freq_max makes it 1).
# Catches: max_P and max_boost sharing one freq_max (sugov-P0's loss in
# commit 976df7e5730e's tables would not reproduce).
check_side_max_p_lower() {
	side_skip "partial load: max_P settles lower than max_boost" && return
	[ -n "$SIDE_PART" ] || side_partial_phases
	lo=$(awk -v r=$REF -v mb=$MAXB 'BEGIN { printf "%d", 100 * 2000 * r / (1.25 * mb * 2250) + 4 }')
	hi=$(awk -v r=$REF -v mp=$MAXP 'BEGIN { h = 100 * 2000 * r / (1.25 * mp * 2250) - 3; printf "%d", (h > 94) ? 94 : h }')
	st=skip why="no phase measured $lo..$hi % busy on cpu0 and cpu2 within 5 points of each other"
	for l in $PART_LOADS; do
		f=/tmp/sgi-p$l
		inrange $f $lo $hi 0 2 || continue
		# stress-ng's duty cycle is in time, the same on both CPUs
		# whatever their frequency: a gap of more than 5 points is
		# the host's doing, and the two means are not comparable.
		# Per CPU: settled kHz, mean raw target kHz, % busy
		a=$(col $f 0 2) b=$(col $f 2 2)
		ra=$(col $f 0 4) rb=$(col $f 2 4)
		ba=$(col $f 0 6) bb=$(col $f 2 6)
		d=$((ba - bb))
		[ "$d" -le 5 ] && [ "$d" -ge -5 ] || continue
		[ "$st" = fail ] && continue
		if [ $((a + 100000)) -le "$b" ]; then
			st=ok
		elif [ "$ra" -lt "$STEP" ] && [ "$rb" -gt "$STEP" ]; then
			[ "$st" = skip ] && why="the host's: $a and $b kHz at $ba and $bb % busy, though the mean raw targets $ra and $rb kHz lie either side of $STEP"
			continue
		elif [ "$ra" -ge "$STEP" ] && [ $((ra * 6 / 5)) -le "$rb" ]; then
			[ "$st" = skip ] && why="max_P's own mean raw target reached the step ($ra kHz >= $STEP at $ba % busy: stolen host time), max_boost's at least 1.2 times max_P's ($rb kHz)"
			continue
		else
			st=fail
		fi
		why="$a < $b kHz at $ba and $bb % busy"
	done
	case $st in
	ok) ktap_ok "partial load: max_P settles lower than max_boost ($why)" ;;
	fail) ktap_fail "partial load: max_P settles lower than max_boost ($why)" ;;
	*) ktap_skip "partial load: max_P settles lower than max_boost" "$why" ;;
	esac
}

# Catches: overutil asking for the maximum below the threshold (at most
# 72 % busy: the formula with the reference keeps it below 2250 except
# for short bursts).  (Not over-utilized its target is 1.25 x b x f
# whatever the reference: at most 68 % busy it cannot hold 2250.)
check_side_overutil_below() {
	side_skip "below the threshold overutil-detect follows the formula" && return
	[ -n "$SIDE_PART" ] || side_partial_phases
	o=$(col /tmp/sgi-p${PART_LOADS%% *} 3 2) ob=$(col /tmp/sgi-p${PART_LOADS%% *} 3 6)
	if [ "$ob" -le 68 ]; then
		ktap_result "below the threshold ($ob % busy) overutil-detect follows the formula ($o kHz)" \
			$([ "$o" -lt 2200000 ]; echo $?)
	else
		ktap_skip "below the threshold overutil-detect follows the formula" "the ${PART_LOADS%% *} % load measured $ob % busy"
	fi
}

# Catches: overutil-detect never detecting (busy scaled by frequency, or
# the threshold compared the wrong way round).
check_side_overutil_holds() {
	side_skip "~90 % busy: overutil-detect holds the top" && return
	[ -n "$SIDE_PART" ] || side_partial_phases
	o=$(col /tmp/sgi-p$HIGH_LOAD 3 3) ob=$(col /tmp/sgi-p$HIGH_LOAD 3 6)
	if [ "$ob" -ge 84 ]; then
		ktap_result "~90 % busy ($ob % measured): overutil-detect holds the top ($o of the settled time)" \
			$(ge "$o" 0.8; echo $?)
	else
		ktap_skip "~90 % busy: overutil-detect holds the top" "the load measured only $ob % busy (threshold 80 %)"
	fi
}

# Catches: any freq_max mix-up between the three fixed choices.  From 82 %
# busy midpoint and max_boost hold the top and max_P cannot.
check_side_raw_order() {
	side_skip "~90 % busy: raw targets order max_P < midpoint < max_boost" && return
	[ -n "$SIDE_PART" ] || side_partial_phases
	x=$(col /tmp/sgi-p$HIGH_LOAD 0 4) y=$(col /tmp/sgi-p$HIGH_LOAD 1 4) z=$(col /tmp/sgi-p$HIGH_LOAD 2 4)
	if inrange /tmp/sgi-p$HIGH_LOAD 82 100 0 1 2; then
		ktap_result "~90 % busy: raw targets order max_P < midpoint < max_boost ($x < $y < $z kHz)" \
			$([ "$x" -lt "$y" ] && [ "$y" -lt "$z" ]; echo $?)
	else
		ktap_skip "~90 % busy: raw targets order max_P < midpoint < max_boost" \
			"cpu0..2 measured $(col /tmp/sgi-p$HIGH_LOAD 0 6) $(col /tmp/sgi-p$HIGH_LOAD 1 6) $(col /tmp/sgi-p$HIGH_LOAD 2 6) % busy, not all >= 82"
	fi
}

# Catches: a tracepoint decision that never reaches the driver, or a
# request the tracepoint did not announce (the last phase's).
check_side_driver_trace() {
	side_skip "the driver got exactly the frequencies the tracepoint requested" && return
	[ -n "$SIDE_PART" ] || side_partial_phases
	set -- $(trace_field next_khz 'request=1' | sort -u | tr '\n' ' ')
	tr_set="$*"
	set -- $(awk '{ print $3 }' /tmp/sgi-req | sort -u | tr '\n' ' ')
	ktap_result "last phase: the driver got exactly the frequencies the tracepoint requested ($*)" \
		$([ "$tr_set" = "$*" ] && [ -n "$*" ]; echo $?)
}

# ---------------------------------------------------------------------------
# Every decision so far, a shared policy, the module parameter, teardown

# Catches: any deviation from the formula, the resolution or the clamp, in
# the decisions of every phase before this one.
check_formula() {
	ktap_result "all $FORMULA_N decisions match the formula, the table and the limits" $FORMULA_BAD
}

# Catches: a shared policy taking another CPU's util than the highest (one
# busy thread must drive the whole policy to the top).
check_shared_top() {
	SHARED_LOADED=
	set_all scaling_governor performance
	is_loaded vcpufreq && rmmod vcpufreq
	if ! load_vcpufreq shared=1; then
		ktap_fail "shared policy: one busy CPU takes it to the top"
		return
	fi
	SHARED_LOADED=1
	echo max_P > $TUN/freq_max_policy
	# The policy's choice among its CPUs, without the idle memory: it
	# held the policy at 2000 MHz for 5 s after the load on the debug
	# kernel (CI of 8409ec2, a fresh clone of 7169a7f).
	idle_memory_off
	sleep 1
	# Pinned: util does not follow a migrating task (see Documentation)
	phase_begin; stress-ng --cpu 1 --taskset 1 -t 3 -q; phase_end
	set -- $(settled_freq 0); one_top=$2
	set -- $(formula_check); shared_formula="$1 decisions, $2 off the formula"
	ktap_diag "shared: $(policies | wc -l) policy; one thread: $one_top of the time at the top; $shared_formula"
	ktap_result "shared policy: one busy CPU takes it to the top" $(ge "$one_top" 0.8; echo $?)
}

# Catches: a rule of a shared policy fed by the evaluating CPU alone
# (overutil-detect's busy fraction; the memory across idle stretches is
# on here): with one CPU flat out, the decisions of the other CPUs'
# hooks would fall back to the formula, and the target flip between the
# rule and the formula with the CPU whose hook evaluates.  Passes when
# at most half of the other CPUs' decisions of the settled half are off
# the rule, or no more than a quarter more of them than of the busy
# CPU's own: the load's last window, as stress-ng exits before the
# phase's end is read, decays below the threshold for every CPU's
# decisions alike.  Until the settled half ended at the phase's end it
# counted the tail after it too, where the busy fraction decays as it
# should: 7 % to 54 % off (the failure of e5e8edc's gate), 87 of the 96
# off decisions of two guests in that tail.  Up to the end (stock 6.12,
# one guest each):
# 0 of 67 and 9 of 108 off, the 9 in stress-ng's last 15 ms.  Fewer
# than 5 decisions of the other CPUs say nothing.
check_shared_overutil() {
	d="shared policy, overutil-detect: the other CPUs' decisions see the busy CPU"
	if [ -z "$SHARED_LOADED" ]; then
		ktap_fail "$d"
		return
	fi
	echo overutil-detect > $TUN/freq_max_policy
	cat /sys/module/sugov_inv/parameters/idle_restore_us > $TUN/idle_restore_us
	sleep 1
	phase_begin; stress-ng --cpu 1 --taskset 1 -t 3 -q; phase_end
	set -- $(settled_decisions | awk '
		{ delete v; for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) v[kv[1]] = kv[2]
		  if (v["cpu"] == 1) { nb++; if (v["reason"] != "overutil") ob++ }
		  else { no++; if (v["reason"] != "overutil") oo++ } }
		END { printf "%d %d %d %d\n", no, oo, nb, ob }')
	ktap_diag "shared, overutil-detect: other CPUs $1 decisions, $2 off the rule; busy cpu1 $3, $4 off it"
	echo max_P > $TUN/freq_max_policy
	idle_memory_off
	if [ "$1" -lt 5 ]; then
		ktap_skip "$d" "$1 decisions of the other CPUs in the settled half"
		return
	fi
	ktap_result "$d" $(awk -v no="$1" -v oo="$2" -v nb="$3" -v ob="$4" 'BEGIN {
		exit !(2 * oo <= no || (nb && oo / no <= ob / nb + 0.25)) }'; echo $?)
}

# Catches: stale CPUs keeping a shared policy up once idle.  Waits up to
# IDLE_SETTLE_MS for the policy to come down (the slow path needs a
# wake-up somewhere to evaluate, then its kthread to run).
check_shared_idle() {
	if [ -z "$SHARED_LOADED" ]; then
		ktap_fail "shared policy: back to the lowest P-state once idle"
		return
	fi
	wait_all_cur le $LOW "$IDLE_SETTLE_MS"
	low=$(awk '{ print $2 }' $VCF/cur | sort -u | tr '\n' ' ')
	ktap_diag "shared: idle after the load: $low"
	ktap_result "shared policy: back to the lowest P-state once idle" $([ "$low" = "$LOW " ]; echo $?)
}

# sugov_reload PARAMS...: sugov_inv again with PARAMS, selected on every
# policy; the freq_max_policy list it starts with in FMAX_LIST
sugov_reload() {
	set_all scaling_governor performance
	rmmod sugov_inv
	insmod $SG_KO "$@" && set_all scaling_governor sugov_inv
	FMAX_LIST=$(cat $TUN/freq_max_policy 2>/dev/null)
}

# Catches: an unchecked module parameter (a bad name must refuse the load).
check_param_refused() {
	echo 0 > $TRACE/events/sugov_inv/sugov_inv_decision/enable
	set_all scaling_governor performance
	rmmod sugov_inv
	if insmod $SG_KO freq_max_policy=fastest 2>/dev/null; then
		ktap_fail "freq_max_policy=fastest refuses the load"
		rmmod sugov_inv
	else
		ktap_ok "freq_max_policy=fastest refuses the load"
	fi
	insmod $SG_KO
}

# Catches: a freq_max_policy= that is parsed but not used for new tunables.
check_param_initial() {
	sugov_reload freq_max_policy=overutil-detect
	ktap_result "freq_max_policy=overutil-detect is the initial choice: $FMAX_LIST" \
		$([ "$FMAX_LIST" = "max_P midpoint max_boost [overutil-detect] noinv" ]; echo $?)
}

# Catches: a module that cannot be unloaded once unused.
check_unload() {
	unload_all
	ok=0
	lsmod | grep -q '^sugov_inv' && ok=1
	ktap_result "switching away and rmmod succeed once unused" $ok
}

check_dmesg() {
	ktap_dmesg_clean "no WARN, BUG, lockdep or other splat in dmesg"
}

# ---------------------------------------------------------------------------
ktap_plan $(echo $CASES | wc -w)
unload_all
ktap_dmesg_mark
ABORT=
for _case in $CASES; do
	_fn=${_case%%:*}
	_arg=${_case#"$_fn"}
	if [ -n "$ABORT" ]; then
		ktap_skip "$_case" "$ABORT"
		continue
	fi
	$_fn ${_arg#:}
done
unload_all
ktap_finish
