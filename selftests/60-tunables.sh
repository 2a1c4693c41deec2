#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every sugov_inv tunable and every module parameter of sugov_inv and
# freq_invariance with valid, boundary and bad values, for the global
# tunables (x86's default) and per-policy ones (vcpufreq
# per_policy_tunables=1); then each vcpufreq preset x fast/slow x
# per-CPU/shared x global/per-policy tunables loads, selects sugov_inv and
# has its tunables where they belong.
#
# The rule under test: a bad value gives EINVAL or ERANGE (or
# E2BIG from sysfs itself for a write longer than a page), changes
# nothing, and a refused module load logs one clear line.  Valid values
# round-trip.  Ranges are written here from the documentation, not read
# from the module.  Runtime about 40 s under TCG with 4 vCPUs.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

ktap_plan 57
unload_all
ktap_dmesg_mark

LONG4K=$(head -c 4000 /dev/zero | tr '\0' 1)
LONG5K=$(head -c 5000 /dev/zero | tr '\0' 1)
LONGNAME=$(head -c 4100 /dev/zero | tr '\0' x)
NOTES=/tmp/sgt-60-notes

note() { echo "$*" | cut -c1-200 >> $NOTES; }
# notes_out: print the notes as diagnostics; 1 when there were any.
notes_out() {
	if [ -s $NOTES ]; then head -n 12 $NOTES | sed 's/^/# /'; rm -f $NOTES; return 1; fi
	return 0
}

# wr FILE TOKEN: write TOKEN's value the way a script would.  Tokens:
# <nl> a lone newline, <empty> a zero-byte write, <2nl>V V and two
# newlines, <raw>V V without a newline, <long4k> <long5k> <longname>
# long strings; anything else is echoed with its newline.
wr() {
	case $2 in
	"<nl>") echo > "$1" ;;
	"<empty>") printf '' > "$1" ;;
	"<2nl>"*) echo -e "${2#<2nl>}\n" > "$1" ;;
	"<raw>"*) echo -n "${2#<raw>}" > "$1" ;;
	"<nul>"*)
		# One write(); dd, unlike the printf builtin, names the error
		printf '%s\000junk' "${2#<nul>}" > /tmp/sgt-nul
		dd if=/tmp/sgt-nul of="$1" bs=4096 2> /tmp/sgt-dd
		_rc=$?
		grep -v -e records -e bytes /tmp/sgt-dd >&2
		return $_rc ;;
	"<long4k>") echo "$LONG4K" > "$1" ;;
	"<long5k>") echo "$LONG5K" > "$1" ;;
	"<longname>") echo "$LONGNAME" > "$1" ;;
	*) echo "$2" > "$1" ;;
	esac
}

# expect_bad FILE TOKEN: the write fails with EINVAL/ERANGE (E2BIG for a
# write above a page) and FILE reads as before.
expect_bad() {
	before=$(cat "$1")
	if err=$( { wr "$1" "$2"; } 2>&1 ); then
		note "${1##*/} '$2': accepted, now $(cat "$1")"
	else
		case $err in
		*"Invalid argument"*|*"Numerical result out of range"*) ;;
		*"Argument list too long"*) [ "$2" = "<long5k>" ] || note "${1##*/} '$2': $err" ;;
		*) note "${1##*/} '$2': unexpected error: $err" ;;
		esac
	fi
	[ "$(cat "$1")" = "$before" ] || note "${1##*/} '$2' changed it: $before -> $(cat "$1")"
}

# expect_value FILE TOKEN WANT: the write succeeds and FILE reads WANT
# (for freq_max_policy: WANT is the bracketed entry).
expect_value() {
	if ! err=$( { wr "$1" "$2"; } 2>&1 ); then
		note "${1##*/} '$2': refused: $err"
		return
	fi
	got=$(cat "$1")
	case ${1##*/} in
	freq_max_policy)
		case " $got " in *" [$3] "*) ;; *) note "${1##*/} '$2' reads '$got', expected [$3]" ;; esac
		[ "$(echo "$got" | tr -cd '[' | wc -c)" = 1 ] || note "${1##*/}: '$got' does not bracket exactly one" ;;
	*) [ "$got" = "$3" ] || note "${1##*/} '$2' reads '$got', expected $3" ;;
	esac
}

# Ranges and defaults from Documentation/admin-guide.rst.
range_of() {
	case $1 in
	rate_limit_us) echo "0 1000000" ;;
	overutil_threshold_pct) echo "1 100" ;;
	idle_restore_us) echo "0 1000000" ;;
	chain_window_us) echo "0 1000000" ;;
	esac
}
NUMERIC="rate_limit_us overutil_threshold_pct idle_restore_us chain_window_us"

# numeric_valid DIR NAME: boundaries, neighbours, a middle value, with and
# without the newline, decimal with leading zeros; the old value back.
numeric_valid() {
	f=$1/$2
	set -- $(range_of "$2")
	lo=$1 hi=$2 old=$(cat "$f")
	mid=$(((lo + hi) / 2))
	for v in $lo $((lo + 1)) $mid $((hi - 1)) $hi; do
		expect_value "$f" "$v" "$v"
		expect_value "$f" "<raw>$v" "$v"
	done
	# Decimal only: "0150" is 150, not octal 104 (kstrtouint base 0 would)
	expect_value "$f" "0$mid" "$mid"
	expect_value "$f" "$old" "$old"
}

# numeric_bad DIR NAME: non-numbers, signs, out of range by one, 32- and
# 64-bit overflow, empty, a lone newline, long strings, trailing and
# leading garbage, a valid number followed by a NUL and junk.
numeric_bad() {
	f=$1/$2
	set -- $(range_of "$2")
	lo=$1 hi=$2
	[ "$lo" -gt 0 ] && expect_bad "$f" $((lo - 1))
	expect_bad "$f" $((hi + 1))
	while IFS= read -r v; do
		expect_bad "$f" "$v"
	done <<EOF
abc
-1
-0
4294967295
4294967296
99999999999999999999
<nl>
<long4k>
<long5k>
10abc
1 0
 $hi
$hi 
<2nl>$hi
<nul>$hi
<nul>$lo
0x10
1e2
1.5
$hi,$hi
EOF
	# A zero-byte write never reaches the store: it must change nothing
	before=$(cat "$f")
	wr "$f" "<empty>" 2>/dev/null
	[ "$(cat "$f")" = "$before" ] || note "${f##*/}: an empty write changed it"
}

NAMES="max_P midpoint max_boost overutil-detect noinv"

policy_valid() {
	f=$1/freq_max_policy
	old=$(sed 's/.*\[\(.*\)\].*/\1/' "$f")
	for n in $NAMES; do
		expect_value "$f" "$n" "$n"
		expect_value "$f" "<raw>$n" "$n"
	done
	expect_value "$f" "$old" "$old"
}

# Exact names only, as sysfs_match_string() takes them (one trailing
# newline allowed): no prefixes, no case folding, no spaces.
policy_bad() {
	f=$1/freq_max_policy
	while IFS= read -r v; do
		expect_bad "$f" "$v"
	done <<EOF
<nl>
max_p
MAX_P
Max_Boost
NOINV
max_P 
 max_P
<2nl>max_P
<nul>max_P
<nul>noinv
max
overutil
overutil-detect-
noinv1
max_P max_boost
max_P,noinv
schedutil
0
<long4k>
<long5k>
<longname>
EOF
	before=$(cat "$f")
	wr "$f" "<empty>" 2>/dev/null
	[ "$(cat "$f")" = "$before" ] || note "freq_max_policy: an empty write changed it"
}

# all_tunables DIR TAG: every tunable of one set, one KTAP line per
# tunable for the valid values and one for the bad ones.
all_tunables() {
	for t in $NUMERIC; do
		# Catches: a range bound off by one, a store that parses but does
		# not store, a show of another field, a base-0 (octal) parse.
		numeric_valid "$1" $t
		notes_out
		ktap_result "$2 $t: $(range_of $t | tr ' ' '-'), the neighbours, leading zeros round-trip" $?
		# Catches: clamping instead of rejecting (ondemand's habit), an
		# ignored kstrtouint() error, a silently truncated number, an
		# error other than EINVAL/ERANGE, a value changed by a failed write.
		numeric_bad "$1" $t
		notes_out
		ktap_result "$2 $t: every bad value fails with EINVAL/ERANGE, nothing changes" $?
	done
	# Catches: a list without every name, brackets on the wrong entry
	policy_valid "$1"
	notes_out
	ktap_result "$2 freq_max_policy: all five names round-trip, bracketed" $?
	# Catches: prefix or case-insensitive matching, trailing space accepted
	policy_bad "$1"
	notes_out
	ktap_result "$2 freq_max_policy: every bad name fails with EINVAL, nothing changes" $?
}

# --- global tunables ---------------------------------------------------------
rm -f $NOTES
load_stack preset=epyc-7742
all_tunables $CPUFREQ/sugov_inv "global"

# --- per-policy tunables -------------------------------------------------------
set_all scaling_governor performance
rmmod vcpufreq
insmod $VC_KO preset=epyc-7742 per_policy_tunables=1 && set_all scaling_governor sugov_inv
# Catches: one global set although the driver asks for governor-per-policy
# (or the reverse), a set missing on some policy.
placement() { # want: global|per-policy
	for p in $(policies); do
		if [ "$1" = per-policy ]; then
			for t in $TUNABLES; do
				[ -f "$p/sugov_inv/$t" ] || { echo "no ${p##*/}/sugov_inv/$t"; return 1; }
			done
		else
			[ -e "$p/sugov_inv" ] && { echo "${p##*/}/sugov_inv exists"; return 1; }
		fi
	done
	if [ "$1" = per-policy ]; then
		[ -e $CPUFREQ/sugov_inv ] && { echo "global sugov_inv exists too"; return 1; }
	else
		for t in $TUNABLES; do
			[ -f "$CPUFREQ/sugov_inv/$t" ] || { echo "no global $t"; return 1; }
		done
	fi
	return 0
}
ktap_check "per_policy_tunables=1: one set per policy, no global set" placement per-policy
all_tunables $CPUFREQ/policy0/sugov_inv "policy0"
# Catches: per-policy sets that share storage (one write changes all).
isolated() {
	echo 30 > $CPUFREQ/policy1/sugov_inv/overutil_threshold_pct &&
		echo noinv > $CPUFREQ/policy1/sugov_inv/freq_max_policy || return 1
	for p in $(policies); do
		[ "$p" = $CPUFREQ/policy1 ] && continue
		h=$(cat $p/sugov_inv/overutil_threshold_pct)
		[ "$h" = 80 ] || { echo "${p##*/} overutil_threshold_pct $h after writing policy1"; return 1; }
		grep -q '\[max_boost\]' $p/sugov_inv/freq_max_policy ||
			{ echo "${p##*/}: $(cat $p/sugov_inv/freq_max_policy)"; return 1; }
	done
	[ "$(cat $CPUFREQ/policy1/sugov_inv/overutil_threshold_pct)" = 30 ]
}
ktap_check "per-policy sets are independent (policy1 written, the others keep their values)" isolated
unload_all

# --- module parameters -----------------------------------------------------------

# refused MODULE-PATH NAME ARGS...: the load fails, the module is not
# there, and the log has exactly one distinct line (busybox insmod tries
# twice: the same line twice is one message), naming the parameter.
refused() {
	ko=$1 mod=$2
	shift 2
	mark=$(log_mark)
	if insmod "$ko" "$@" 2>/dev/null; then
		note "$mod $*: loaded"
		rmmod "$mod"
		return
	fi
	is_loaded "$mod" && note "$mod $*: still there after a refused load"
	lines=$(log_since "$mark" | sort -u)
	n=$(echo "$lines" | grep -c .)
	if [ "$n" != 1 ]; then
		note "$mod $(echo "$*" | cut -c1-40): $n distinct log lines:"
		echo "$lines" | cut -c1-150 | while IFS= read -r l; do note "   $l"; done
	else
		named=0
		for a in "$@"; do
			case $lines in *"${a%%=*}"*) named=1 ;; esac
		done
		[ $named = 1 ] || note "$mod $*: the line names no parameter: $lines"
	fi
}

# sugov_inv freq_max_policy=
insmod $FI_KO
# Catches: an unchecked freq_max_policy (a bad name would index past the
# names), prefix or case-insensitive matching.
while IFS= read -r v; do
	refused $SG_KO sugov_inv "freq_max_policy=$v"
done <<EOF
fastest
max_p
MAX_P
Max_Boost
max
overutil
noinv1
max_P,noinv
0

EOF
notes_out
ktap_result "freq_max_policy=: 10 bad names refused, one log line each" $?
refused $SG_KO sugov_inv "freq_max_policy=\"max_P \""
notes_out
ktap_result "freq_max_policy=\"max_P \" (trailing space) refused, one log line" $?
# A 4100-character name: more than a charp parameter takes (1024).
refused $SG_KO sugov_inv "freq_max_policy=$LONGNAME"
notes_out
ktap_result "freq_max_policy= with 4100 characters refused, one log line" $?
# Catches: a freq_max_policy= that is parsed but not used for new tunables.
insmod $VC_KO preset=epyc-7742
ok=0
for n in $NAMES; do
	insmod $SG_KO freq_max_policy=$n && set_all scaling_governor sugov_inv || { ok=1; ktap_diag "freq_max_policy=$n: load failed"; }
	got=$(cat $CPUFREQ/sugov_inv/freq_max_policy 2>/dev/null)
	case " $got " in *" [$n] "*) ;; *) ok=1; ktap_diag "freq_max_policy=$n: the tunable reads '$got'" ;; esac
	set_all scaling_governor performance
	rmmod sugov_inv
done
ktap_result "freq_max_policy= takes each of the five names as the initial choice" $ok

# idle_restore_us=, the parameter of the memory for work that arrives on
# an idle CPU, as the tunable it sets.  Catches: a parameter not judged
# at load (a bad value loaded, or refused without its line), a range
# bound off by one, a parameter that does not reach new tunables.
param_bad_all() {
	set -- $(range_of idle_restore_us)
	for v in $(($2 + 1)) -1 abc 10x ""; do
		refused $SG_KO sugov_inv "idle_restore_us=$v"
	done
}
param_bad_all
notes_out
ktap_result "idle_restore_us=: above the range, negative, garbage and empty refused, one log line each" $?
param_valid_all() {
	insmod $SG_KO rate_limit_us=3000 idle_restore_us=50000 &&
		set_all scaling_governor sugov_inv || { echo "load refused"; return 1; }
	got="$(cat $CPUFREQ/sugov_inv/rate_limit_us) $(cat $CPUFREQ/sugov_inv/idle_restore_us)"
	set_all scaling_governor performance
	rmmod sugov_inv
	[ "$got" = "3000 50000" ] || { echo "tunables read $got"; return 1; }
}
ktap_check "rate_limit_us= and idle_restore_us= set the initial tunables" param_valid_all
rmmod vcpufreq
rmmod freq_invariance

# freq_invariance reference=, max_p_khz=, max_boost_khz=
# Catches: an unknown reference accepted (or matched by prefix or case).
for v in bogus KERNEL max_p Max_Boost mid "" '"max_P "'; do
	refused $FI_KO freq_invariance "reference=$v"
done
refused $FI_KO freq_invariance "reference=$LONGNAME"
notes_out
ktap_result "reference=: 8 bad names (empty, case, prefix, trailing space, 4100 chars) refused, one log line each" $?

# Catches: kstrtouint errors ignored, 0 or above 10 GHz accepted, a
# 32-bit wrap (4294967296 -> 0), max_boost below max_P swapped or
# accepted, one override without the other, a boost ratio above 255
# (its kernel ratio would not fit 32 bits: reference_khz came out wrong).
while IFS='|' read -r a b; do
	# shellcheck disable=SC2086
	refused $FI_KO freq_invariance $a $b
done <<EOF
max_p_khz=abc|max_boost_khz=3400000
max_p_khz=-1|max_boost_khz=3400000
max_p_khz=0|max_boost_khz=3400000
max_p_khz=|max_boost_khz=3400000
max_p_khz=2250000x|max_boost_khz=3400000
max_p_khz=4294967296|max_boost_khz=4294967296
max_p_khz=99999999999999999999|max_boost_khz=3400000
max_p_khz=10000001|max_boost_khz=10000001
max_p_khz=2250000|max_boost_khz=10000001
max_p_khz=2250000|max_boost_khz=abc
max_p_khz=2250000|max_boost_khz=0
max_p_khz=2250000|max_boost_khz=-3400000
max_p_khz=3400000|max_boost_khz=2250000
max_p_khz=2250000|
max_boost_khz=3400000|
max_p_khz=$LONG4K|max_boost_khz=3400000
max_p_khz=1|max_boost_khz=10000000
max_p_khz=10000|max_boost_khz=2560000
EOF
notes_out
ktap_result "max_p_khz=/max_boost_khz=: 18 bad combinations refused, one log line each" $?

# Catches: a bound off by one or an override that is not applied.
# fi_valid P B PARAMS...: cpu0's caps are max_P P and max_boost B, and
# the kernel's reference lies between the midpoint (AMD's rule) and
# max_boost (Intel's), give or take the ratio's rounding.
fi_valid() {
	want_p=$1 want_b=$2
	shift 2
	insmod $FI_KO "$@" || { echo "$*: refused"; return 1; }
	p=$(cat $FISYS/cpu0/max_p_khz) b=$(cat $FISYS/cpu0/max_boost_khz)
	m=$(cat $FISYS/cpu0/midpoint_khz) r=$(cat $FISYS/cpu0/reference_khz)
	rmmod freq_invariance
	[ "$p $b" = "$want_p $want_b" ] || { echo "$*: caps $p $b"; return 1; }
	awk -v p="$p" -v b="$b" -v m="$m" -v r="$r" \
		'BEGIN { exit !(r >= m - 2 * p / 1024 - 1 && r <= b) }' ||
		{ echo "$*: reference_khz $r outside midpoint $m .. max_boost $b"; return 1; }
}
fi_valid_all() {
	fi_valid 1 1 max_p_khz=1 max_boost_khz=1 &&
		fi_valid 10000000 10000000 max_p_khz=10000000 max_boost_khz=10000000 &&
		fi_valid 10000 2559999 max_p_khz=10000 max_boost_khz=2559999 &&
		fi_valid 2250000 3400000 max_p_khz=2250000 max_boost_khz=3400000 &&
		fi_valid 2250000 3400000 max_p_khz=02250000 max_boost_khz=3400000
}
ktap_check "max_p_khz=/max_boost_khz=: 1, 10000000, a boost ratio just under 256 and a real pair are taken and applied" fi_valid_all
ref_valid() {
	for r in kernel max_boost midpoint max_P; do
		insmod $FI_KO reference=$r || { echo "reference=$r refused"; return 1; }
		got=$(cat $FISYS/reference)
		rmmod freq_invariance
		case " $got " in *" [$r] "*) ;; *) echo "reference=$r reads '$got'"; return 1 ;; esac
	done
}
ktap_check "reference=: each of the four names is taken and shown bracketed" ref_valid

# --- the vcpufreq matrix ------------------------------------------------------------
insmod $FI_KO
insmod $SG_KO
# matrix_case PRESET FAST SHARED PERPOL: loads, sugov_inv selected on
# every policy, tunables where they belong with their defaults, and the
# requests take the path the driver and the guest allow (fast only with
# fast_switch=1 on a guest with constant_tsc).
# Catches: a governor that fails to start on some table or topology,
# tunables put in the wrong place, fast switch not enabled (or used
# when the driver does not offer it).
matrix_case() {
	insmod $VC_KO preset=$1 fast_switch=$2 shared=$3 per_policy_tunables=$4 ||
		{ echo "vcpufreq refused"; return 1; }
	set_all scaling_governor performance || return 1
	reset_record
	set_all scaling_governor sugov_inv && every_policy_runs sugov_inv || return 1
	if [ "$4" = 1 ]; then placement per-policy; else placement global; fi || return 1
	for p in $(policies); do
		d=$(tunables_of "$p")
		[ "$(cat $d/overutil_threshold_pct) $(cat $d/idle_restore_us)" = "80 20000" ] ||
			{ echo "${p##*/}: defaults $(cat $d/overutil_threshold_pct) $(cat $d/idle_restore_us)"; return 1; }
	done
	# From performance (the top) at idle the governor must ask for less
	want=slow
	[ "$2" = 1 ] && grep -qw constant_tsc /proc/cpuinfo && want=fast
	t=0
	while [ "$(wc -l < $VCF/requests)" = 0 ] && [ $t -lt 40 ]; do sleep 0.05; t=$((t + 1)); done
	paths=$(awk '{ print $4 }' $VCF/requests | sort -u | tr '\n' ' ')
	[ "$paths" = "$want " ] || { echo "request paths '$paths', expected $want"; return 1; }
	set_all scaling_governor performance
	rmmod vcpufreq
}
for preset in epyc-7742 xeon-e5-2687w-v3 generic; do
	for fast in 0 1; do
		for shared in 0 1; do
			for pp in 0 1; do
				ktap_check "$preset fast_switch=$fast shared=$shared per_policy_tunables=$pp: sugov_inv runs, tunables in place, $( [ $fast = 1 ] && grep -qw constant_tsc /proc/cpuinfo && echo fast || echo slow) path" \
					matrix_case $preset $fast $shared $pp
				is_loaded vcpufreq && { set_all scaling_governor performance; rmmod vcpufreq; }
			done
		done
	done
done

unload_all
ktap_dmesg_clean "no WARN, BUG, lockdep or other splat in dmesg"
ktap_finish
