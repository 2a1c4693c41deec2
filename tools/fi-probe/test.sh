#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of fi-probe, in KTAP.  For every CPU of the published-values
# tables (Documentation/published-cpus-intel.csv and -amd.csv, described
# in Documentation/published-cpus.rst), by both rule sets (--rules 6.1 and
# 6.12), and for every malformed input it runs fi-probe and compares each
# printed number with an expectation this script computes itself, in shell
# arithmetic, straight from the kernels' rules (arch/x86/kernel/cpu/
# aperfmperf.c, arch/x86/kernel/acpi/cppc.c, 6.1's arch/x86/kernel/cpu/
# amd.c, drivers/cpufreq/acpi-cpufreq.c).  It never asks the decoder what
# to expect; the tables' derived columns are checked against the script's
# own rule too, so a wrong rule here cannot hide a wrong decoder.
#
# Usage: tools/fi-probe/test.sh [path/to/fi-probe]
# Exit: 0 when every case passes, 1 otherwise.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
probe=${1:-$here/fi-probe}
if [ ! -x "$probe" ]; then
	make -s -C "$here" fi-probe >&2 || { echo "Bail out! cannot build fi-probe"; exit 1; }
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
results=$tmp/results

ok() { n=$((n + 1)); echo "ok $n $1" >>"$results"; }
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	shift_diag=$2
	printf '%s\n' "$shift_diag" | sed 's/^/# /' >>"$results"
	echo "not ok $n $1" >>"$results"
}

# Value of KEY in fi-probe's key=value output file $tmp/out
val() { sed -n "s/^$1=//p" "$tmp/out" | head -n 1; }

# Byte I (0 = bits 7:0) of a 64-bit value
byte() { echo $(( ($1 >> ($2 * 8)) & 255 )); }

# ---------------------------------------------------------------------------
# Expectations: Intel (aperfmperf.c intel_set_max_freq_ratio() and helpers)
#
# Sets: e_base e_turbo e_1c e_path e_err (1 when Linux would have no ratio
# or leaves it unset, or the ratio is below 1024)
intel_rule() {
	e_err=0
	e_path=
	# 1. Silvermont/Airmont MSRs present: base bits 21:16, 1C turbo 5:0
	if [ -n "$acr" ] && [ -n "$actr" ]; then
		e_path=slm
		e_base=$(( (acr >> 16) & 63 ))
		e_turbo=$(( actr & 63 ))
		e_1c=$e_turbo
		return
	fi
	e_base=$(byte "${pi:-0}" 1)
	# 2./4. group rule: first MSR_TURBO_RATIO_LIMIT1 count >= size
	size=
	case $model in
	92|95|122) size=1; gpath=glm ;;	# 0x5c 0x5f 0x7a Goldmont (Plus)
	85) size=4; gpath=skx ;;		# 0x55 Skylake-X
	esac
	if [ -n "$size" ] && [ -n "$trl1" ]; then
		i=0
		while [ $i -lt 8 ]; do
			if [ "$(byte "$trl1" $i)" -ge "$size" ]; then
				e_path=$gpath
				e_turbo=$(byte "$trl" $i)
				# the 1C turbo: ratio of the first non-empty group
				j=0
				while [ "$(byte "$trl1" $j)" -lt 1 ]; do j=$((j + 1)); done
				e_1c=$(byte "$trl" $j)
				break
			fi
			i=$((i + 1))
		done
		[ -n "$e_path" ] && return
	fi
	# 3. KNL/KNM (0x57, 0x85): top ratio byte 1 minus the first non-zero
	# delta (bits 7:5 of bytes 2..); Linux's loop exits before it uses a
	# delta found in byte 7, and leaves the ratio unset without one.
	if [ "$model" -eq 87 ] || [ "$model" -eq 133 ]; then
		e_path=knl
		e_1c=$(byte "$trl" 1)
		e_turbo=
		i=2
		while [ $i -le 6 ]; do
			d=$(( $(byte "$trl" $i) >> 5 ))
			if [ $d -ne 0 ]; then
				e_turbo=$((e_1c - d))
				break
			fi
			i=$((i + 1))
		done
		if [ -z "$e_turbo" ] || [ "$e_turbo" -le 0 ]; then e_err=1; fi
		return
	fi
	# 5. core: 4C byte 3, or 1C byte 0 when byte 3 is 0 (< 4 cores)
	e_1c=$(byte "$trl" 0)
	e_turbo=$(byte "$trl" 3)
	e_path=core_4c
	if [ "$e_turbo" -eq 0 ]; then e_turbo=$e_1c; e_path=core_1c; fi
}

# intel_case NAME RULES PUBLISHED_RATIO|- BUS_KHZ -- fi-probe args: the
# Intel rules are the same in 6.1 and 6.12, so RULES changes nothing but
# the rules= line fi-probe prints
intel_case() {
	name="$1 [$2]" rules=$2 published=$3 bus=$4
	shift 5
	pi='' trl='' trl1='' misc='' acr='' actr='' model=''
	a=
	for arg in "$@"; do
		case $a in
		--model) model=$((arg)) ;;
		--platform-info) pi=$arg ;;
		--turbo-ratio-limit) trl=$arg ;;
		--turbo-ratio-limit1) trl1=$arg ;;
		--misc-enable) misc=$arg ;;
		--atom-core-ratios) acr=$arg ;;
		--atom-core-turbo-ratios) actr=$arg ;;
		esac
		a=$arg
	done
	intel_rule
	msg=
	if [ $e_err -eq 0 ] && { [ "$e_base" -eq 0 ] || [ "$e_turbo" -eq 0 ] ||
	     [ "$e_turbo" -lt "$e_base" ]; }; then
		e_err=1
	fi
	if [ $e_err -ne 0 ]; then
		msg="rule expects a valid case, got an error path"
		not_ok "$name" "$msg"
		return
	fi
	e_tratio=$(( e_turbo * 1024 / e_base ))
	e_ratio=$e_tratio
	e_dis=0
	if [ -n "$misc" ] && [ $(( (misc >> 38) & 1 )) -eq 1 ]; then
		e_ratio=1024
		e_dis=1
	fi
	e_maxp=$(( e_base * bus ))
	e_boost=$(( e_1c * bus ))
	[ $e_dis -eq 1 ] && e_boost=$e_maxp
	e_mid=$(( (e_maxp + e_boost) / 2 ))
	e_ref=$(( e_maxp * e_ratio / 1024 ))

	# The rule above must reproduce the data file's derived ratio
	if [ "$published" != - ] && [ "$published" -ne "$e_ratio" ]; then
		not_ok "$name" "test rule gives $e_ratio, the data file says $published"
		return
	fi
	"$probe" --rules "$rules" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "$name" "fi-probe exit $rc: $(cat "$tmp/err")"
		return
	fi
	for kv in rules=$rules source=msr path=$e_path max_p_khz=$e_maxp \
		  max_boost_khz=$e_boost midpoint_khz=$e_mid \
		  kernel_ratio=$e_ratio kernel_reference_khz=$e_ref \
		  turbo_freq_ratio=$e_tratio turbo_disabled=$e_dis \
		  base_ratio=$e_base kernel_turbo_ratio=$e_turbo bus_khz=$bus; do
		k=${kv%%=*}
		got=$(val "$k")
		[ "$got" = "${kv#*=}" ] || msg="$msg$k: expected ${kv#*=}, got '$got'; "
	done
	if [ -z "$msg" ]; then ok "$name"; else not_ok "$name" "$msg"; fi
}

# ---------------------------------------------------------------------------
# Expectations: AMD (cppc.c amd_set_max_freq_ratio(), acpi-cpufreq
# get_max_boost_ratio(); the numerator from 6.1's amd.c
# amd_get_highest_perf() or 6.12's cppc.c amd_get_boost_ratio_numerator())

# amd_numerator RULES FAMILY MODEL UNIFORM HIGHEST
amd_numerator() {
	f=$(($2)) m=$(($3))
	if [ "$1" = 6.12 ]; then
		# the CPPC value itself unless the CPUs rank themselves; then
		# 196 on Zen 4 models 70h-7Fh (family 19h), else 166
		if [ "$4" -eq 1 ]; then
			echo "$5"
		elif [ $f -eq 25 ] && [ $m -ge 112 ] && [ $m -le 127 ]; then
			echo 196
		else
			echo 166
		fi
	# 6.1: 166 on family 17h models 30h-3Fh, 70h-7Fh and family 19h
	# models 20h-2Fh, 40h-6Fh; 255 elsewhere
	elif [ $f -eq 23 ] && { { [ $m -ge 48 ] && [ $m -le 63 ]; } ||
				{ [ $m -ge 112 ] && [ $m -le 127 ]; }; }; then
		echo 166
	elif [ $f -eq 25 ] && { { [ $m -ge 32 ] && [ $m -le 47 ]; } ||
				{ [ $m -ge 64 ] && [ $m -le 111 ]; }; }; then
		echo 166
	else
		echo 255
	fi
}

# amd_case NAME RULES PUBLISHED_RATIO|- PUBLISHED_MAX_FREQ|- -- fi-probe args
amd_case() {
	name="$1 [$2]" rules=$2 published=$3 pubfreq=$4
	shift 5
	fam='' model='' hp='' nom='' mhz=''
	a=
	for arg in "$@"; do
		case $a in
		--family) fam=$arg ;;
		--model) model=$arg ;;
		--highest-perf) hp=$arg ;;
		--nominal-perf) nom=$arg ;;
		--nominal-freq-mhz) mhz=$arg ;;
		esac
		a=$arg
	done
	# uniform when every listed value equals the first
	first=${hp%%,*}
	uniform=1
	best=0
	for h in $(echo "$hp" | tr , ' '); do
		[ "$h" -ne "$first" ] && uniform=0
		[ "$h" -gt "$best" ] && best=$h
	done
	num=$(amd_numerator "$rules" "$fam" "$model" $uniform "$first")
	e_maxp=$(( mhz * 1000 ))
	e_kboost=$(( num * 1024 / nom ))		# acpi-cpufreq max_boost_ratio
	e_kmax=$(( e_maxp * e_kboost >> 10 ))		# its cpuinfo.max_freq
	e_ratio=$(( (e_kboost + 1024) >> 1 ))		# arch_max_freq_ratio
	e_ref=$(( e_maxp * e_ratio >> 10 ))
	if [ $uniform -eq 1 ]; then
		e_rule=cppc_highest
		e_boost=$(( e_maxp * (first * 1024 / nom) >> 10 ))
	else
		e_rule=kernel_numerator
		e_boost=$e_kmax
	fi
	e_mid=$(( (e_maxp + e_boost) / 2 ))
	e_cppc=$(( e_maxp * (best * 1024 / nom) >> 10 ))

	if [ "$published" != - ] && [ "$published" -ne "$e_ratio" ]; then
		not_ok "$name" "test rule gives $e_ratio, the data file says $published"
		return
	fi
	if [ "$pubfreq" != - ] && [ "$pubfreq" -ne "$e_kmax" ]; then
		not_ok "$name" "test rule gives max_freq $e_kmax, the data file says $pubfreq"
		return
	fi
	"$probe" --rules "$rules" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "$name" "fi-probe exit $rc: $(cat "$tmp/err")"
		return
	fi
	msg=
	for kv in rules=$rules source=cppc max_p_khz=$e_maxp max_boost_khz=$e_boost \
		  midpoint_khz=$e_mid kernel_ratio=$e_ratio \
		  kernel_reference_khz=$e_ref max_boost_rule=$e_rule \
		  kernel_highest_perf=$num kernel_boost_ratio=$e_kboost \
		  kernel_max_freq_khz=$e_kmax cppc_max_boost_khz=$e_cppc \
		  highest_perf_uniform=$uniform; do
		k=${kv%%=*}
		got=$(val "$k")
		[ "$got" = "${kv#*=}" ] || msg="$msg$k: expected ${kv#*=}, got '$got'; "
	done
	if [ -z "$msg" ]; then ok "$name"; else not_ok "$name" "$msg"; fi
}

# bad_case NAME WORD -- fi-probe args: exit 2, empty stdout, exactly one
# stderr line, and that line names WORD (what was wrong)
bad_case() {
	name=$1 word=$2
	shift 3
	"$probe" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$lines" -eq 1 ] &&
	   grep -q -- "$word" "$tmp/err"; then
		ok "$name"
	else
		not_ok "$name" "expected exit 2 and one line naming '$word'; got exit $rc, $lines stderr lines: $(cat "$tmp/err") stdout: $(head -c 200 "$tmp/out")"
	fi
}

# ---------------------------------------------------------------------------
# The published CPUs: every row of the data files, by both rule sets

data=$top/Documentation
# csv_rows FILE: the rows after the header, fields joined by '|' (the
# files quote fields with commas in them; no field has a '|')
csv_rows() {
	python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
for r in rows[1:]:
    print("|".join(r))' "$1"
}

# opt NAME VALUE: "--NAME VALUE" when VALUE is not empty
opt() { [ -z "$2" ] || printf -- '--%s %s ' "$1" "$2"; }

I=intel
csv_rows "$data/published-cpus-intel.csv" >"$tmp/intel.rows" ||
	echo "Bail out! cannot read $data/published-cpus-intel.csv"
while IFS='|' read -r cpu fam model pi trl trl1 misc acr actr fsb bus path r61 r612 src; do
	for rules in 6.1 6.12; do
		[ $rules = 6.1 ] && pub=$r61 || pub=$r612
		# shellcheck disable=SC2046
		intel_case "$cpu" $rules "$pub" "$bus" -- --vendor $I --family "$fam" \
			--model "$model" $(opt platform-info "$pi") \
			$(opt turbo-ratio-limit "$trl") $(opt turbo-ratio-limit1 "$trl1") \
			$(opt misc-enable "$misc") $(opt atom-core-ratios "$acr") \
			$(opt atom-core-turbo-ratios "$actr") $(opt fsb-freq "$fsb")
		grep -q "^path=$path\$" "$tmp/out" 2>/dev/null ||
			not_ok "$cpu [$rules]: path" "the data file says $path: $(grep '^path=' "$tmp/out")"
	done
	# The KUnit suite must carry the row too (its comments cite the file)
	if grep -qi -- "$pi" "$top/kunit/intel_ratio_kunit.c"; then
		ok "$cpu: in kunit/intel_ratio_kunit.c"
	else
		not_ok "$cpu: in kunit/intel_ratio_kunit.c" "no row with MSR_PLATFORM_INFO $pi"
	fi
done <"$tmp/intel.rows"

A=amd
csv_rows "$data/published-cpus-amd.csv" >"$tmp/amd.rows" ||
	echo "Bail out! cannot read $data/published-cpus-amd.csv"
while IFS='|' read -r cpu fam model hp nom lnl low mhz lmhz n61 f61 r61 n612 f612 r612 src; do
	for rules in 6.1 6.12; do
		if [ $rules = 6.1 ]; then num=$n61 pub=$r61 pubf=$f61; else num=$n612 pub=$r612 pubf=$f612; fi
		# shellcheck disable=SC2046
		amd_case "$cpu" $rules "$pub" "$pubf" -- --vendor $A --family "$fam" \
			--model "$model" --highest-perf "$(echo "$hp" | tr ' ' ,)" \
			--nominal-perf "$nom" $(opt lowest-nonlinear-perf "$lnl") \
			$(opt lowest-perf "$low") --nominal-freq-mhz "$mhz" \
			$(opt lowest-freq-mhz "$lmhz")
		grep -q "^kernel_highest_perf=$num\$" "$tmp/out" 2>/dev/null ||
			not_ok "$cpu [$rules]: numerator" "the data file says $num: $(grep '^kernel_highest_perf=' "$tmp/out")"
	done
	if grep -q "\.nominal = $nom, .*nom_mhz = $mhz\|\.nominal = $nom,.*\.nom_mhz = $mhz" "$top/kunit/amd_cppc_ratio_kunit.c" ||
	   grep -A1 "\.nominal = $nom" "$top/kunit/amd_cppc_ratio_kunit.c" | grep -q "nom_mhz = $mhz"; then
		ok "$cpu: in kunit/amd_cppc_ratio_kunit.c"
	else
		not_ok "$cpu: in kunit/amd_cppc_ratio_kunit.c" "no case with nominal_perf $nom at $mhz MHz"
	fi
done <"$tmp/amd.rows"

# ---------------------------------------------------------------------------
# Synthetic Intel rows: every path and fallback, by both rule sets

for rules in 6.1 6.12; do
# The Xeon E5-2687W v3 (Phoronix's Linux 4.4 governor tests): only 3.1 GHz
# base / 3.5 GHz turbo are published; MSRs made from them (ratio 31, 1C 35)
intel_case "E5-2687W v3 3.1/3.5 GHz (synthetic MSRs)" $rules - 100000 -- \
	--vendor $I --family 6 --model 0x3f --platform-info 0x1f00 \
	--turbo-ratio-limit 0x23
# Goldmont group rule (first group >= 1 core, group 0 empty); Skylake-X
# with no group of 4 falls through to core 4C
intel_case "Goldmont 06_5c group rule, empty group 0 (synthetic)" $rules - 100000 -- \
	--vendor $I --family 6 --model 0x5c --platform-info 0x1000 \
	--turbo-ratio-limit 0x181a00 --turbo-ratio-limit1 0x040200
intel_case "Skylake-X 06_55 no group of 4 -> core 4C (synthetic)" $rules - 100000 -- \
	--vendor $I --family 6 --model 0x55 --platform-info 0x1900 \
	--turbo-ratio-limit 0x20212426 --turbo-ratio-limit1 0x0302010100
intel_case "Airmont 06_4c FSB index 5 = 93.3 MHz (synthetic)" $rules - 93300 -- \
	--vendor $I --family 6 --model 0x4c --atom-core-ratios 0x100000 \
	--atom-core-turbo-ratios 0x18 --fsb-freq 5
# Linux tries the Atom MSRs first on any model (they exist or fault)
intel_case "Atom MSRs readable on 06_2a: Silvermont rule first (synthetic)" \
	$rules - 100000 -- --vendor $I --family 6 --model 0x2a --platform-info 0x2200 \
	--turbo-ratio-limit 0x23242526 --atom-core-ratios 0x100000 \
	--atom-core-turbo-ratios 0x18
intel_case "KNM 06_85 two deltas: only the first counts (synthetic)" $rules - 100000 \
	-- --vendor $I --family 6 --model 0x85 --platform-info 0xd00 \
	--turbo-ratio-limit 0x6020100f04
intel_case "Skylake-X 06_55 group 0 has 4 cores (synthetic)" $rules - 100000 -- \
	--vendor $I --family 6 --model 0x55 --platform-info 0x1900 \
	--turbo-ratio-limit 0x2224 --turbo-ratio-limit1 0x0804
intel_case "turbo == base: ratio exactly 1024 (synthetic)" $rules - 100000 -- \
	--vendor $I --family 6 --model 0x2a --platform-info 0x2200 \
	--turbo-ratio-limit 0x22222222
done

# ---------------------------------------------------------------------------
# Synthetic AMD rows, by both rule sets: the edges of 6.1's 166 table and
# of 6.12's 196 range, on CPUs that rank themselves (7702-like values, so
# every numerator is above nominal_perf)

amd_edge() { # NAME FAMILY MODEL
	for rules in 6.1 6.12; do
		amd_case "$1" $rules - - -- --vendor $A --family "$2" --model "$3" \
			--highest-perf 200,190 --nominal-perf 152 --nominal-freq-mhz 2000
	done
}
amd_edge "17h/2fh just below Rome range" 0x17 0x2f
amd_edge "17h/30h first of 30h-3Fh" 0x17 0x30
amd_edge "17h/3fh last of 30h-3Fh" 0x17 0x3f
amd_edge "17h/40h after 30h-3Fh" 0x17 0x40
amd_edge "17h/70h first of 70h-7Fh" 0x17 0x70
amd_edge "17h/7fh last Matisse model" 0x17 0x7f
amd_edge "17h/80h after 70h-7Fh" 0x17 0x80
amd_edge "18h/31h Hygon: Rome's model, other family" 0x18 0x31
amd_edge "18h/74h Hygon: Phoenix's model, other family" 0x18 0x74
amd_edge "19h/20h first of 20h-2Fh" 0x19 0x20
amd_edge "19h/2fh last of 20h-2Fh" 0x19 0x2f
amd_edge "19h/30h after 20h-2Fh" 0x19 0x30
amd_edge "19h/40h first of 40h-6Fh" 0x19 0x40
amd_edge "19h/6fh last of 40h-6Fh" 0x19 0x6f
amd_edge "19h/70h first of Zen 4 70h-7Fh" 0x19 0x70
amd_edge "19h/7fh last of Zen 4 70h-7Fh" 0x19 0x7f
amd_edge "19h/80h after 70h-7Fh" 0x19 0x80
amd_edge "1ah/74h Zen 5, Phoenix's model number" 0x1a 0x74

for rules in 6.1 6.12; do
# Same EPYC 7702 values if cores ranked
amd_case "EPYC 7702 17h/31h if ranked" $rules - - -- \
	--vendor $A --family 0x17 --model 0x31 --highest-perf 255,250 \
	--nominal-perf 152 --nominal-freq-mhz 2000
amd_case "19h/21h Vermeer, uniform 166" $rules - - -- --vendor $A \
	--family 0x19 --model 0x21 --highest-perf 166 --nominal-perf 120 \
	--nominal-freq-mhz 3700
amd_case "1ah/02h Turin-class, uniform 196" $rules - - -- --vendor $A \
	--family 0x1a --model 0x02 --highest-perf 196 --nominal-perf 120 \
	--nominal-freq-mhz 2400
amd_case "highest == nominal: no boost (synthetic)" $rules - - -- --vendor $A \
	--family 0x17 --model 0x01 --highest-perf 120,120 --nominal-perf 120 \
	--nominal-freq-mhz 3000
done

# ---------------------------------------------------------------------------
# Malformed and missing values: exit 2 with one line saying which

bad_case "amd highest_perf 0" "highest_perf missing.*ENODATA" -- --vendor $A --family 0x17 \
	--model 0x31 --highest-perf 0 --nominal-perf 152 --nominal-freq-mhz 2000
bad_case "amd one CPU's highest_perf 0" "highest-perf.*ENODATA" -- --vendor $A \
	--family 0x17 --model 0x31 --highest-perf 255,0 --nominal-perf 152 \
	--nominal-freq-mhz 2000
bad_case "amd nominal_perf 0" "nominal_perf missing.*ENODATA" -- --vendor $A --family 0x17 \
	--model 0x31 --highest-perf 255 --nominal-perf 0 --nominal-freq-mhz 2000
bad_case "amd nominal_freq 0" "nominal_freq missing.*ENODATA" -- --vendor $A --family 0x17 \
	--model 0x31 --highest-perf 255 --nominal-perf 152 --nominal-freq-mhz 0
bad_case "amd highest < nominal" "highest_perf below nominal.*EINVAL" -- --vendor $A \
	--family 0x17 --model 0x31 --highest-perf 150 --nominal-perf 152 \
	--nominal-freq-mhz 2000
bad_case "amd 6.1's 166 below nominal: ratio below 1024" "below 1024.*EINVAL" -- \
	--rules 6.1 --vendor $A --family 0x17 --model 0x31 --highest-perf 255 \
	--nominal-perf 170 --nominal-freq-mhz 2000
bad_case "amd 6.12's 196 below nominal (ranked): ratio below 1024" \
	"below 1024.*EINVAL" -- --rules 6.12 --vendor $A --family 0x19 \
	--model 0x74 --highest-perf 232,227 --nominal-perf 200 \
	--nominal-freq-mhz 3000
bad_case "--rules: an unknown rule set" "rules.*6.5" -- --rules 6.5 \
	--vendor $A --family 0x17 --model 0x31 --highest-perf 255 \
	--nominal-perf 152 --nominal-freq-mhz 2000
bad_case "amd lowest_perf above lowest_nonlinear" "lowest.*EINVAL" -- --vendor $A \
	--family 0x17 --model 0x31 --highest-perf 255 --nominal-perf 152 \
	--lowest-nonlinear-perf 31 --lowest-perf 115 --nominal-freq-mhz 2000
bad_case "amd family 15h has no CPPC" "family.*EOPNOTSUPP" -- --vendor $A --family 0x15 \
	--model 0x02 --highest-perf 255 --nominal-perf 152 --nominal-freq-mhz 2000
bad_case "amd nominal_freq overflows kHz" "overflow.*ERANGE" -- --vendor $A \
	--family 0x17 --model 0x31 --highest-perf 255 --nominal-perf 152 \
	--nominal-freq-mhz 5000000
bad_case "amd malformed number" "nominal-perf" -- --vendor $A --family 0x17 \
	--model 0x31 --highest-perf 255 --nominal-perf 15x --nominal-freq-mhz 2000
bad_case "amd malformed list" "highest-perf" -- --vendor $A --family 0x17 \
	--model 0x31 --highest-perf 255,,255 --nominal-perf 152 \
	--nominal-freq-mhz 2000
bad_case "amd missing --nominal-perf" "nominal-perf" -- --vendor $A \
	--family 0x17 --model 0x31 --highest-perf 255 --nominal-freq-mhz 2000
bad_case "amd missing --highest-perf" "highest-perf" -- --vendor $A \
	--family 0x17 --model 0x31 --nominal-perf 152 --nominal-freq-mhz 2000
bad_case "intel base ratio 0" "base ratio is 0.*EINVAL" -- --vendor $I --family 6 --model 0x2a \
	--platform-info 0x0 --turbo-ratio-limit 0x23242526
bad_case "intel empty turbo bytes" "turbo ratio byte Linux uses is 0.*EINVAL" -- --vendor $I --family 6 \
	--model 0x2a --platform-info 0x2200 --turbo-ratio-limit 0
bad_case "intel 1C byte empty, 4C set" "1-core turbo ratio is 0.*EINVAL" -- --vendor $I --family 6 \
	--model 0x2a --platform-info 0x2200 --turbo-ratio-limit 0x23000000
bad_case "intel turbo below base: ratio below 1024" "below 1024.*EINVAL" -- \
	--vendor $I --family 6 --model 0x2a --platform-info 0x2200 \
	--turbo-ratio-limit 0x20202020
bad_case "intel KNL with no deltas" "KNL.*EINVAL" -- --vendor $I --family 6 \
	--model 0x57 --platform-info 0xd00 --turbo-ratio-limit 0x0f04
bad_case "intel KNL delta only in byte 7 (Linux leaves it unset)" "KNL.*EINVAL" -- \
	--vendor $I --family 6 --model 0x57 --platform-info 0xd00 \
	--turbo-ratio-limit 0x2000000000000f04
bad_case "intel KNL delta down to 0" "KNL.*EINVAL" -- --vendor $I --family 6 \
	--model 0x57 --platform-info 0xd00 --turbo-ratio-limit 0xe00104
bad_case "intel SKX chosen group's ratio byte 0" \
	"turbo ratio byte Linux uses is 0.*EINVAL" -- --vendor $I --family 6 \
	--model 0x55 --platform-info 0x1900 --turbo-ratio-limit 0x002600 \
	--turbo-ratio-limit1 0x040102
bad_case "intel SKX 1C group's ratio byte 0" "1-core.*EINVAL" -- \
	--vendor $I --family 6 --model 0x55 --platform-info 0x1900 \
	--turbo-ratio-limit 0x2600 --turbo-ratio-limit1 0x0402
bad_case "intel missing --turbo-ratio-limit" "turbo-ratio-limit" -- \
	--vendor $I --family 6 --model 0x2a --platform-info 0x2200
bad_case "intel Atom ratios without turbo ratios" "atom-core" -- \
	--vendor $I --family 6 --model 0x37 --atom-core-ratios 0x181002
# A Silvermont without MSR_FSB_FREQ: no bus clock, so no kHz, but the
# ratios and the kernel's invariance ratio are defined (29 * 1024 / 24)
"$probe" --vendor $I --family 6 --model 0x37 --atom-core-ratios 0x181002 \
	--atom-core-turbo-ratios 0x1d >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && [ "$(val kernel_ratio)" = $(( 29 * 1024 / 24 )) ] &&
   [ "$(val base_ratio)" = 24 ] && [ "$(val max_p_khz)" = unknown ] &&
   [ "$(val bus_khz)" = unknown ] && [ ! -s "$tmp/err" ]; then
	ok "intel Silvermont without MSR_FSB_FREQ: ratios, kHz unknown, exit 3"
else
	not_ok "intel Silvermont without MSR_FSB_FREQ: ratios, kHz unknown, exit 3" \
		"exit $rc, kernel_ratio $(val kernel_ratio) max_p_khz $(val max_p_khz): $(cat "$tmp/err")"
fi
bad_case "intel Silvermont FSB index outside table" "FSB.*EINVAL" -- --vendor $I \
	--family 6 --model 0x37 --atom-core-ratios 0x181002 \
	--atom-core-turbo-ratios 0x1d --fsb-freq 5
bad_case "intel family 15" "family.*EOPNOTSUPP" -- --vendor $I --family 15 --model 4 \
	--platform-info 0x2200 --turbo-ratio-limit 0x23242526
bad_case "intel malformed hex" "platform-info" -- --vendor $I --family 6 \
	--model 0x2a --platform-info 0xzz --turbo-ratio-limit 0x23242526
# Firmware frequencies the module would not believe (max_boost far above
# 10 GHz) leave nothing without an override
bad_case "amd 1275 GHz max_boost: the module ignores it" "out of range.*ERANGE" -- \
	--rules 6.1 --vendor $A --family 0x1a --model 0x02 --highest-perf 255 \
	--nominal-perf 1 --nominal-freq-mhz 5000
# Raw values and overrides: the given kHz (odd, so the midpoint's half
# counts), the hardware's own ratio (EPYC 7702, 6.1: 1071)
"$probe" --rules 6.1 --vendor $A --family 0x17 --model 0x31 --highest-perf 255 \
	--nominal-perf 152 --nominal-freq-mhz 2000 --max-p-khz 2250001 \
	--max-boost-khz 3400001 >"$tmp/out" 2>"$tmp/err"
rc=$?
msg=
for kv in source=override max_p_khz=2250001 max_boost_khz=3400001 \
	  midpoint_khz=2825001 kernel_ratio=$(( (166 * 1024 / 152 + 1024) >> 1 )); do
	[ "$(val "${kv%%=*}")" = "${kv#*=}" ] || msg="$msg${kv%%=*}: '$(val "${kv%%=*}")', expected ${kv#*=}; "
done
if [ $rc -eq 0 ] && [ -z "$msg" ]; then
	ok "raw values overridden: the given kHz, the hardware's ratio"
else
	not_ok "raw values overridden: the given kHz, the hardware's ratio" "exit $rc: $msg$(cat "$tmp/err")"
fi
bad_case "unknown vendor" "vendor" -- --vendor via --family 6 --model 0x0f
bad_case "raw values without --vendor" "vendor" -- --family 6 --model 0x2a
bad_case "mixed vendor options" "vendor" -- --vendor amd --family 0x17 \
	--model 0x31 --highest-perf 255 --nominal-perf 152 \
	--nominal-freq-mhz 2000 --platform-info 0x2200

# ---------------------------------------------------------------------------
# Machine mode on fake trees (FI_PROBE_ROOT prefixes /proc, /sys and /dev):
# the same rules, read from acpi_cppc files and /dev/cpu/N/msr.

# fake_cpuinfo DIR VENDOR FAMILY MODEL NCPUS
fake_cpuinfo() {
	mkdir -p "$1/proc" "$1/sys/devices/system/cpu"
	: >"$1/proc/cpuinfo"
	c=0
	while [ $c -lt "$5" ]; do
		printf 'processor\t: %d\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n\n' \
			$c "$2" $(($3)) $(($4)) >>"$1/proc/cpuinfo"
		c=$((c + 1))
	done
	echo "0-$(($5 - 1))" >"$1/sys/devices/system/cpu/online"
}

# fake_cppc DIR CPU HIGHEST NOMINAL NOMINAL_MHZ
fake_cppc() {
	d=$1/sys/devices/system/cpu/cpu$2/acpi_cppc
	mkdir -p "$d"
	echo "$3" >"$d/highest_perf"
	echo "$4" >"$d/nominal_perf"
	echo "$5" >"$d/nominal_freq"
}

# fake_msr FILE MSR VALUE: 8 little-endian bytes at offset MSR, as the
# msr driver serves them
fake_msr() {
	b=0
	bytes=
	while [ $b -lt 8 ]; do
		bytes="$bytes\\$(printf %o $(( ($3 >> (b * 8)) & 255 )))"
		b=$((b + 1))
	done
	# shellcheck disable=SC2059
	printf "$bytes" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc 2>/dev/null
}

# machine_case NAME DIR NCPUS KEY=VALUE...: fi-probe on DIR prints one
# block per CPU, and every block has each KEY=VALUE
machine_case() {
	name=$1 dir=$2 ncpu=$3
	shift 3
	FI_PROBE_ROOT=$dir "$probe" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	msg=
	[ $rc -eq 0 ] || msg="exit $rc: $(cat "$tmp/err"); "
	got=$(grep -c '^max_p_khz=' "$tmp/out")
	[ "$got" -eq "$ncpu" ] || msg="$msg$got CPU blocks, expected $ncpu; "
	for kv in "$@"; do
		got=$(grep -c "^$kv\$" "$tmp/out")
		[ "$got" -eq "$ncpu" ] || msg="$msg$kv in $got of $ncpu blocks; "
	done
	if [ -z "$msg" ]; then ok "$name"; else not_ok "$name" "$msg"; fi
}

# machine_bad NAME DIR WORD: exit 2 with one line naming WORD
machine_bad() {
	FI_PROBE_ROOT=$2 "$probe" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$3" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1" "expected exit 2 naming '$3'; got exit $rc: $(cat "$tmp/err")"
	fi
}

# fake_release DIR RELEASE: the running kernel fi-probe's default --rules
# follows (/proc/sys/kernel/osrelease)
fake_release() {
	mkdir -p "$1/proc/sys/kernel"
	echo "$2" >"$1/proc/sys/kernel/osrelease"
}

# EPYC 7702 values on two CPUs (the data file's row), on a 6.1 kernel and
# on a 6.12 one: the default rule set is the running kernel's
m=$tmp/m-7702
fake_cpuinfo "$m" AuthenticAMD 0x17 0x31 2
fake_cppc "$m" 0 255 152 2000
fake_cppc "$m" 1 255 152 2000
mp=2000000
bo=$(( mp * (255 * 1024 / 152) >> 10 ))
fake_release "$m" 6.1.0-57-amd64
kr=$(( (166 * 1024 / 152 + 1024) >> 1 ))
machine_case "machine: EPYC 7702 acpi_cppc, uniform, Linux 6.1: 166" "$m" 2 \
	rules=6.1 source=cppc max_p_khz=$mp max_boost_khz=$bo \
	midpoint_khz=$(( (mp + bo) / 2 )) kernel_ratio=$kr \
	kernel_reference_khz=$(( mp * kr >> 10 )) max_boost_rule=cppc_highest
fake_release "$m" 6.12.117+deb12-amd64
kr=$(( (255 * 1024 / 152 + 1024) >> 1 ))
machine_case "machine: EPYC 7702 acpi_cppc, uniform, Linux 6.12: its own 255" "$m" 2 \
	rules=6.12 source=cppc max_p_khz=$mp max_boost_khz=$bo kernel_ratio=$kr \
	kernel_reference_khz=$(( mp * kr >> 10 )) max_boost_rule=cppc_highest

# 7840HS-like ranking across CPUs (the data file's row); no osrelease:
# the default is 6.1's rules, then 6.12's 196 asked for
m=$tmp/m-7840
fake_cpuinfo "$m" AuthenticAMD 0x19 0x74 2
fake_cppc "$m" 0 232 145 3800
fake_cppc "$m" 1 227 145 3800
mp=3800000
kb=$(( 255 * 1024 / 145 ))
machine_case "machine: Ryzen 7840HS acpi_cppc, ranked, release unknown: 6.1's 255" "$m" 2 \
	rules=6.1 max_boost_rule=kernel_numerator max_boost_khz=$(( mp * kb >> 10 )) \
	kernel_ratio=$(( (kb + 1024) >> 1 ))
fake_release "$m" 7.0.1
kb=$(( 196 * 1024 / 145 ))
machine_case "machine: Ryzen 7840HS acpi_cppc, ranked, Linux 7.0: 6.12's 196" "$m" 2 \
	rules=6.12 max_boost_rule=kernel_numerator max_boost_khz=$(( mp * kb >> 10 )) \
	kernel_ratio=$(( (kb + 1024) >> 1 ))
FI_PROBE_ROOT=$m "$probe" --rules 6.1 >"$tmp/out" 2>"$tmp/err"
if [ "$(val rules)" = 6.1 ] && [ "$(val kernel_highest_perf)" = 255 ]; then
	ok "machine: --rules 6.1 overrides a 6.12 kernel's default"
else
	not_ok "machine: --rules 6.1 overrides a 6.12 kernel's default" \
		"rules $(val rules), numerator $(val kernel_highest_perf): $(cat "$tmp/err")"
fi

m=$tmp/m-nocppc
fake_cpuinfo "$m" AuthenticAMD 0x17 0x31 1
machine_bad "machine: AMD without acpi_cppc or cpufreq" "$m" "acpi_cppc"

# fake_cpufreq DIR CPU "AVAILABLE" "BOOST" CPUINFO_MAX: a cpufreq policy
fake_cpufreq() {
	d=$1/sys/devices/system/cpu/cpu$2/cpufreq
	mkdir -p "$d"
	[ -n "$3" ] && echo "$3 " >"$d/scaling_available_frequencies"
	[ -n "$4" ] && echo "$4 " >"$d/scaling_boost_frequencies"
	echo "$5" >"$d/cpuinfo_max_freq"
}

# EPYC 7742 under acpi-cpufreq without _CPC: P-states 2250/2000/1500 MHz,
# boost hidden; the module's rule: the table's top, ratio 1024
m=$tmp/m-7742
fake_cpuinfo "$m" AuthenticAMD 0x17 0x31 2
fake_cpufreq "$m" 0 "2250000 2000000 1500000" "" 2250000
fake_cpufreq "$m" 1 "2250000 2000000 1500000" "" 2250000
machine_case "machine: EPYC 7742 without _CPC falls back on cpufreq" "$m" 2 \
	source=cpufreq max_p_khz=2250000 max_boost_khz=2250000 kernel_ratio=1024 \
	hardware_error=ENOENT

# ... with the module's overrides: AMD's rule on the given kHz (the same
# in 6.1 and 6.12), ((3400000 * 1024 / 2250000) + 1024) >> 1
r=$(( (3400000 * 1024 / 2250000 + 1024) >> 1 ))
FI_PROBE_ROOT=$m "$probe" --max-p-khz 2250000 --max-boost-khz 3400000 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^source=override$' "$tmp/out")" = 2 ] &&
   [ "$(val kernel_ratio)" = $r ] && [ "$(val max_boost_khz)" = 3400000 ] &&
   [ "$(val midpoint_khz)" = 2825000 ]; then
	ok "machine: overrides as the module's (source override, AMD rule $r)"
else
	not_ok "machine: overrides as the module's" "exit $rc: $(cat "$tmp/err") kernel_ratio $(val kernel_ratio)"
fi

# Intel: a boost entry in the table (the E5-2687W v3 of Phoronix's Linux
# 4.4 governor tests, under acpi-cpufreq), boost switched off: max_boost
# as the module reports it
m=$tmp/m-2687
fake_cpuinfo "$m" GenuineIntel 6 0x3f 1
fake_cpufreq "$m" 0 "3100000 2000000 1200000" "3500000" 3500000
mkdir -p "$m/dev/cpu/0"
: >"$m/dev/cpu/0/msr"
mkdir -p "$m/sys/devices/system/cpu/cpufreq"
echo 0 >"$m/sys/devices/system/cpu/cpufreq/boost"
machine_case "machine: MSRs that fault fall back on the table, boost off" "$m" 1 \
	source=cpufreq max_p_khz=3100000 max_boost_khz=3500000 \
	cpufreq_boost=off effective_max_boost_khz=3100000

# --check against a fake module report
fake_fi() { # DIR CPU SOURCE MAX_P MAX_BOOST MIDPOINT RATIO
	d=$1/sys/kernel/freq_invariance/cpu$2
	mkdir -p "$d"
	echo "$3" >"$d/source"
	echo "$4" >"$d/max_p_khz"
	echo "$5" >"$d/max_boost_khz"
	echo "$6" >"$d/midpoint_khz"
	echo "$7" >"$d/kernel_ratio"
}
fake_fi "$m" 0 cpufreq 3100000 3100000 3100000 1024
FI_PROBE_ROOT=$m "$probe" --check >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(val check)" = ok ]; then
	ok "--check: agrees with a matching module report"
else
	not_ok "--check: agrees with a matching module report" "exit $rc: $(cat "$tmp/err")"
fi
fake_fi "$m" 0 cpufreq 3100000 3500000 3300000 1024
FI_PROBE_ROOT=$m "$probe" --check >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 4 ] && [ "$(val check)" = differs ] &&
   [ "$(grep -c 'cpu0 max_boost_khz: fi-probe 3100000, module 3500000' "$tmp/err")" = 1 ] &&
   [ "$(wc -l <"$tmp/err")" = 2 ]; then
	ok "--check: exit 4 and one line per difference"
else
	not_ok "--check: exit 4 and one line per difference" "exit $rc: $(cat "$tmp/err")"
fi
rm -r "$m/sys/kernel"
FI_PROBE_ROOT=$m "$probe" --check >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'freq_invariance loaded' "$tmp/err"; then
	ok "--check without the module: exit 2 naming it"
else
	not_ok "--check without the module: exit 2 naming it" "exit $rc: $(cat "$tmp/err")"
fi
bad_case "--check with raw values" "machine only" -- --check --vendor amd \
	--family 0x17 --model 0x31 --highest-perf 255 --nominal-perf 152 \
	--nominal-freq-mhz 2000
bad_case "--max-p-khz alone" "together" -- --max-p-khz 2250000
bad_case "--max-boost-khz below --max-p-khz" "below" -- --max-p-khz 2250000 \
	--max-boost-khz 2000000
bad_case "--max-boost-khz over 255 x --max-p-khz" "255 times" -- --max-p-khz 1000 \
	--max-boost-khz 300000

# --json: one object per CPU, the same values as the key=value output
FI_PROBE_ROOT=$tmp/m-7702 "$probe" --json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d) == 2 and [r["cpu"] for r in d] == [0, 1], d
assert all(r["source"] == "cppc" and r["max_boost_khz"] == int(sys.argv[2]) for r in d), d
' "$tmp/out" $(( 2000000 * (255 * 1024 / 152) >> 10 )) 2>>"$tmp/err"; then
	ok "--json: one object per CPU with the decoded values"
else
	not_ok "--json: one object per CPU with the decoded values" "exit $rc: $(cat "$tmp/err")"
fi
"$probe" --version >"$tmp/out" 2>&1
if [ $? -eq 0 ] && grep -q '^fi-probe [0-9a-z]' "$tmp/out"; then
	ok "--version: $(cat "$tmp/out")"
else
	not_ok "--version" "$(cat "$tmp/out")"
fi

# i7-2600K MSRs (InstLatx64 SandyBridge2 dump) in /dev/cpu/N/msr
m=$tmp/m-2600k
fake_cpuinfo "$m" GenuineIntel 6 0x2a 2
for c in 0 1; do
	mkdir -p "$m/dev/cpu/$c"
	fake_msr "$m/dev/cpu/$c/msr" 0xce 0x100070012200
	fake_msr "$m/dev/cpu/$c/msr" 0x1ad 0x23242526
done
machine_case "machine: i7-2600K /dev/cpu/N/msr" "$m" 2 source=msr \
	path=core_4c max_p_khz=3400000 max_boost_khz=3800000 \
	kernel_ratio=$(( 35 * 1024 / 34 ))

# E5-2660 v3 with MSR_IA32_MISC_ENABLE bit 38 set (InstLatx64 HaswellEP2)
m=$tmp/m-2660
fake_cpuinfo "$m" GenuineIntel 6 0x3f 1
mkdir -p "$m/dev/cpu/0"
fake_msr "$m/dev/cpu/0/msr" 0xce 0x80c33fb811a00
fake_msr "$m/dev/cpu/0/msr" 0x1a0 0x4000000000
fake_msr "$m/dev/cpu/0/msr" 0x1ad 0x1d1d1d1d1e1f2121
machine_case "machine: E5-2660 v3 turbo disabled via msr" "$m" 1 \
	turbo_disabled=1 kernel_ratio=1024 max_boost_khz=2600000

m=$tmp/m-nomsr
fake_cpuinfo "$m" GenuineIntel 6 0x2a 1
machine_bad "machine: Intel without /dev/cpu/N/msr" "$m" "modprobe msr"

# ---------------------------------------------------------------------------
# This machine: numbers (exit 0), or one clear line (exit 2) when CPPC, the
# msr module or permission is missing.  Either is a pass; a crash is not.
"$probe" >"$tmp/out" 2>"$tmp/err"
rc=$?
lines=$(wc -l <"$tmp/err")
if [ $rc -eq 0 ] && grep -q '^max_p_khz=' "$tmp/out"; then
	ok "this machine: decoded"
elif [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/out" ]; then
	echo "# this machine: $(cat "$tmp/err")" >>"$results"
	ok "this machine: one-line refusal"
else
	not_ok "this machine" "exit $rc, $lines stderr lines: $(head -n 3 "$tmp/err")"
fi

echo "KTAP version 1"
echo "1..$n"
cat "$results"
echo "# fi-probe: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
