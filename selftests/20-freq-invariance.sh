#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# freq_invariance.ko in a VM (no ACPI CPPC, no APERF/MPERF under TCG):
# the fallbacks and their load line, the sysfs report, the overrides, bad
# parameters, hotplug, load/unload cycles, and the sampling API against
# the frequency vcpufreq was set to.  Expected values are written here
# from the public tables (see 10-vcpufreq.sh) and the rules in
# Documentation/design.rst, "The reference and the kernel's ratios",
# never read back from the module.  Each case says which broken module it catches.
. "$(dirname "$0")/ktap.sh"

FI_KO=${FREQ_INV_KO:-/sugov/freq_invariance.ko}
VC_KO=${VCPUFREQ_KO:-/sugov/selftests/vcpufreq.ko}
SYS=/sys/kernel/freq_invariance
DELIVERED=/sys/kernel/debug/freq_invariance/delivered
CPUFREQ=/sys/devices/system/cpu/cpufreq
# 20 load/unload cycles: a cpuN kobject never put grows kmalloc-64 by 50
# objects a half (4 vCPUs) against a threshold of 10; at 10 cycles the
# first half grew by 6 against 5 once (the caches still settling).
CYCLES=${FI_CYCLES:-20}
NOTES=$(mktemp)
trap 'rm -f "$NOTES"' EXIT

online_cpus() {
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		c=${d##*cpu}
		if [ ! -f "$d/online" ] || [ "$(cat "$d/online")" = 1 ]; then
			echo "$c"
		fi
	done | sort -n
}

NCPU=$(online_cpus | wc -l)
VENDOR=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
if grep -qw aperfmperf /proc/cpuinfo; then HAVE_AMPERF=1; else HAVE_AMPERF=0; fi

fi_loaded() { [ -d /sys/module/freq_invariance ]; }
fi_unload() { ! fi_loaded || rmmod freq_invariance; }
vc_unload() { [ ! -d /sys/module/vcpufreq ] || rmmod vcpufreq; }

mark() { MARK=$(dmesg | wc -l); }

# Diagnostics from inside a check (ktap_check runs it in a subshell and
# shows its output only on failure): note now, print after the result.
note() { echo "$*" >> "$NOTES"; }
check() {
	: > "$NOTES"
	ktap_check "$@"
	while IFS= read -r _l; do ktap_diag "$_l"; done < "$NOTES"
}
since_mark() { dmesg | tail -n +"$((MARK + 1))" | sed 's/^\[[^]]*\] //'; }

# Wait up to ~3 s for "cat FILE" to print WANT (policy changes are applied
# by a work item after the cpufreq notifier).
wait_for() {
	_i=0
	while [ "$(cat "$1" 2>/dev/null)" != "$2" ] && [ $_i -lt 30 ]; do
		sleep 0.1 2>/dev/null || sleep 1
		_i=$((_i + 1))
	done
	[ "$(cat "$1" 2>/dev/null)" = "$2" ]
}

# expect_all FILE VALUE: every online CPU's cpuN/FILE reads VALUE
expect_all() {
	for c in $(online_cpus); do
		v=$(cat "$SYS/cpu$c/$1" 2>&1)
		[ "$v" = "$2" ] || { echo "cpu$c/$1 = '$v', expected '$2'"; return 1; }
	done
}

# expect_caps SOURCE MAX_P MAX_BOOST: the three plus the midpoint
expect_caps() {
	expect_all source "$1" && expect_all max_p_khz "$2" &&
		expect_all max_boost_khz "$3" &&
		expect_all midpoint_khz "$((($2 + $3) / 2))"
}

# The cpuN directories are exactly the online CPUs
expect_dirs() {
	got=$(ls -d "$SYS"/cpu* 2>/dev/null | sed 's,.*/cpu,,' | sort -n | tr '\n' ' ')
	want=$(online_cpus | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "cpu dirs '$got', online '$want'"; return 1; }
}

# load_line: the summary lines logged since the mark
load_lines() { since_mark | grep '^freq_invariance: [0-9]* CPUs, source '; }

# The load line, exactly one, naming SOURCE on every online CPU
expect_load_line() {
	n=$(load_lines | wc -l)
	[ "$n" = 1 ] || { echo "$n load lines:"; load_lines; return 1; }
	load_lines | grep -q "source $1 x$NCPU;" || { load_lines; return 1; }
}

# refused ARGS...: the load fails with EINVAL, leaves nothing loaded, and
# logs one distinct line naming the first word of $WHAT.  busybox insmod
# retries with init_module() after finit_module() fails, so the same line
# may appear once per attempt; two different lines are a failure.
refused() {
	mark
	if insmod "$FI_KO" "$@" 2>/dev/null; then
		echo "insmod $* succeeded"
		fi_unload
		return 1
	fi
	fi_loaded && { echo "module left loaded"; fi_unload; return 1; }
	lines=$(since_mark | grep '^freq_invariance: ' |
		grep -v 'taints kernel\|verification failed' | sort -u)
	n=$(echo "$lines" | grep -c .)
	[ "$n" = 1 ] || { echo "$n distinct lines:"; echo "$lines"; return 1; }
	echo "$lines" | grep -q -- "$WHAT" || { echo "line does not name $WHAT: $lines"; return 1; }
	note "refused: $lines"
}

set_all_policies() {
	for p in "$CPUFREQ"/policy*; do
		echo "$2" > "$p/$1" || return 1
	done
}

ktap_plan 26
ktap_dmesg_mark
fi_unload
vc_unload

# --- no cpufreq driver: the last fallback --------------------------------

# Catches: a load that fails without hardware or cpufreq.
mark
check "load without hardware data or a cpufreq driver" insmod "$FI_KO"
# Catches: no summary, one line per CPU, or a wrong source in it.
check "one load line naming the fallback: none" expect_load_line none
# Catches: a made-up max_P without any source, a wrong source name.
check "sysfs: source none, max_P = max_boost = 0 on every CPU" \
	expect_caps none 0 0
# Catches: directories for offline/absent CPUs, or missing ones.
check "sysfs: one cpuN directory per online CPU" expect_dirs
# Catches: a reference file without the choice list or the brackets.
check "reference file lists all choices with [kernel] active" \
	test "$(cat $SYS/reference)" = "[kernel] max_boost midpoint max_P"

# Catches: a garbage number where nothing can answer.
check_enodata() {
	out=$(cat $DELIVERED) || return 1
	note "$(echo "$out" | tr '\n' ' ')"
	[ "$(echo "$out" | grep -c '^cpu[0-9]* error -61$')" = "$NCPU" ]
}
if [ $HAVE_AMPERF = 1 ]; then
	ktap_skip "sampling API without counters or cpufreq: ENODATA" "CPU has APERF/MPERF"
else
	check "sampling API without counters or cpufreq: ENODATA" check_enodata
fi

# --- a cpufreq driver appears and goes away under the module -------------

# Xeon E5-2687W v3 table: 3.1 GHz base, 3.5 GHz turbo listed as a boost
# entry.  Catches: no policy notifier, taking the boost entry as max_P.
check_late_policy() {
	insmod "$VC_KO" preset=xeon-e5-2687w-v3 || return 1
	wait_for "$SYS/cpu0/source" cpufreq ||
		{ echo "cpu0 source $(cat $SYS/cpu0/source)"; return 1; }
	expect_caps cpufreq 3100000 3500000 && expect_all kernel_ratio 1024
}
check "policy created after load: source cpufreq, table max_P/boost" check_late_policy

# Catches: ignoring cpufreq's boost switch.
check_boost_off() {
	echo 0 > $CPUFREQ/boost || return 1
	expect_caps cpufreq 3100000 3100000 || { echo 1 > $CPUFREQ/boost; return 1; }
	echo 1 > $CPUFREQ/boost || return 1
	expect_caps cpufreq 3100000 3500000
}
check "boost off in cpufreq: max_boost = max_P, back on when enabled" check_boost_off

# Catches: stale caps (or a use-after-free) after the policy is removed.
check_policy_gone() {
	rmmod vcpufreq || return 1
	wait_for "$SYS/cpu0/source" none || return 1
	expect_caps none 0 0
}
check "policy removed: source back to none" check_policy_gone

# Catches: leftover sysfs or a failing exit.
check_unload() {
	rmmod freq_invariance && [ ! -e $SYS ] &&
		[ ! -e /sys/kernel/debug/freq_invariance ]
}
check "unload removes sysfs and debugfs" check_unload

# --- vcpufreq first: the cpufreq-table fallback --------------------------

# EPYC 7742 as acpi-cpufreq shows it: P0..P2 2250/2000/1500 MHz, the
# 3.4 GHz boost hidden.  Catches: a wrong table scan, no load line.
check_table() {
	insmod "$VC_KO" preset=epyc-7742 || return 1
	mark
	insmod "$FI_KO" || return 1
	expect_load_line cpufreq && expect_caps cpufreq 2250000 2250000 &&
		expect_all kernel_ratio 1024 && expect_all reference_khz 2250000
}
check "vcpufreq loaded first: one line, source cpufreq, max_P 2250000" check_table

# Each CPU set to its own P-state under userspace; the sampling API run on
# each CPU must report it.  Catches: reading another CPU's policy, a stale
# or made-up frequency, a broken smp_call path.
check_delivered() {
	modprobe cpufreq_userspace 2>/dev/null
	set_all_policies scaling_governor userspace || return 1
	for round in 0 1 2; do
		for c in $(online_cpus); do
			i=$(((c + round) % 3))
			f=$(echo 2250000 2000000 1500000 | cut -d' ' -f$((i + 1)))
			echo "$f" > "$CPUFREQ/policy$c/scaling_setspeed" || return 1
			eval "want_$c=$f"
		done
		out=$(cat $DELIVERED) || return 1
		for c in $(online_cpus); do
			eval "f=\$want_$c"
			echo "$out" | grep -qx "cpu$c $f cpufreq" ||
				{ echo "cpu$c: want $f:"; echo "$out"; return 1; }
		done
	done
	note "last round: $(echo "$out" | tr '\n' ' ')"
}
DESC="sampling API reports the frequency vcpufreq is set to"
if [ $HAVE_AMPERF = 1 ]; then
	ktap_skip "$DESC" "CPU has APERF/MPERF: delivered is measured, not set"
elif [ "$(ls -d $CPUFREQ/policy* 2>/dev/null | wc -l)" != "$NCPU" ]; then
	ktap_skip "$DESC" "needs per-CPU vcpufreq policies"
else
	check "$DESC" check_delivered
fi

# Catches: kobjects not removed/re-added on hotplug, stale caps after it.
check_hotplug() {
	h=$(online_cpus | tail -n 1)
	echo 0 > /sys/devices/system/cpu/cpu$h/online || return 1
	if [ -e "$SYS/cpu$h" ]; then
		echo 1 > /sys/devices/system/cpu/cpu$h/online
		echo "cpu$h still listed while offline"
		return 1
	fi
	expect_dirs || return 1
	echo 1 > /sys/devices/system/cpu/cpu$h/online || return 1
	expect_dirs && expect_caps cpufreq 2250000 2250000
}
LAST_CPU=$(online_cpus | tail -n 1)
if [ "$NCPU" -gt 1 ] && [ -f "/sys/devices/system/cpu/cpu$LAST_CPU/online" ]; then
	check "CPU offline removes cpuN, online restores it" check_hotplug
else
	ktap_skip "CPU offline removes cpuN, online restores it" "needs a second, hot-pluggable CPU"
fi

check "unload with the cpufreq driver loaded" check_unload

# --- overrides -----------------------------------------------------------

# The EPYC 7742 emulation the VM tests use.  Catches: overrides ignored
# or applied to max_P only, the table winning over them.
check_override_table() {
	insmod "$FI_KO" max_p_khz=2250000 max_boost_khz=3400000 &&
		expect_caps override 2250000 3400000
}
check "overrides with vcpufreq: exactly 2250000/3400000, source override" \
	check_override_table

# Catches: an override that ignores the boost switch.
check_override_boost() {
	echo 0 > $CPUFREQ/boost || return 1
	expect_caps override 2250000 2250000 || { echo 1 > $CPUFREQ/boost; return 1; }
	echo 1 > $CPUFREQ/boost && expect_caps override 2250000 3400000
}
check "overrides follow cpufreq's boost switch" check_override_boost
fi_unload
vc_unload

# No hardware answers in the VM, so the ratio is the vendor's rule (the
# same in Linux 6.1 and 6.12) on the given frequencies (ABI doc, kernel_ratio: override).  Catches: a
# ratio below 1024, the midpoint on Intel, or reference_khz not derived
# from it.
check_override_ratio() {
	insmod "$FI_KO" max_p_khz=2250000 max_boost_khz=3400000 || return 1
	expect_caps override 2250000 3400000 || return 1
	boost=$((3400000 * 1024 / 2250000))
	case $VENDOR in
	AuthenticAMD) ratio=$(((boost + 1024) / 2)) ;;
	GenuineIntel) ratio=$boost ;;
	*) ratio=1024 ;;
	esac
	note "$VENDOR: kernel_ratio $(cat $SYS/cpu0/kernel_ratio), expected $ratio"
	expect_all kernel_ratio $ratio &&
		expect_all reference_khz $((2250000 * ratio / 1024))
}
check "overrides without hardware: kernel_ratio by the vendor's rule" check_override_ratio
fi_unload

# Catches: reference= parsed but not applied, or the wrong field used.
check_references() {
	for r in max_boost:3400000 midpoint:2825000 max_P:2250000; do
		name=${r%%:*} khz=${r#*:}
		insmod "$FI_KO" reference=$name max_p_khz=2250000 max_boost_khz=3400000 || return 1
		expect_all reference_khz $khz || { fi_unload; return 1; }
		grep -q "\[$name\]" $SYS/reference || { cat $SYS/reference; fi_unload; return 1; }
		[ "$(cat /sys/module/freq_invariance/parameters/reference)" = "$name" ] || { fi_unload; return 1; }
		fi_unload || return 1
	done
}
check "reference=max_boost|midpoint|max_P select that frequency" check_references

# --- bad parameters: refused, one clear line -----------------------------

WHAT=max_boost_khz
check "refused: max_boost_khz below max_p_khz" refused max_p_khz=2250000 max_boost_khz=2000000
WHAT=max_p_khz
check "refused: max_p_khz=0" refused max_p_khz=0 max_boost_khz=3400000
WHAT=max_boost_khz
check "refused: max_boost_khz above 10 GHz" refused max_p_khz=2250000 max_boost_khz=10000001
WHAT=reference
check "refused: unknown reference" refused reference=max_p
WHAT=max_boost_khz
check "refused: max_p_khz without max_boost_khz" refused max_p_khz=2250000
WHAT=max_p_khz
check "refused: max_p_khz not a number" refused max_p_khz=2.25GHz max_boost_khz=3400000

# --- lifetime --------------------------------------------------------------

# "kmalloc-N live_objects" per kmalloc cache.  SLUB counts free objects
# parked on per-CPU lists as active, so shrink each cache first, and
# RCU-deferred frees need a grace period: without both a correct module
# shows hundreds of phantom objects.
kmalloc_snap() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
	for c in /sys/kernel/slab/kmalloc-[0-9]*; do
		[ -f "$c/shrink" ] && echo 1 > "$c/shrink"
	done
	awk '/^kmalloc-[0-9]/ { print $1, $2 }' /proc/slabinfo
}

# cycles N: load, read every report, unload, N times
cycles() {
	_i=0
	while [ $_i -lt "$1" ]; do
		insmod "$FI_KO" || { echo "load $_i failed"; return 1; }
		cat $SYS/cpu0/* $SYS/reference $DELIVERED > /dev/null || return 1
		rmmod freq_invariance || { echo "unload $_i failed"; return 1; }
		_i=$((_i + 1))
	done
}

# steady_growth T SNAP0 SNAP1 SNAP2: the caches that grew by T or more
# in both intervals, the second's growth at least half the first's.
steady_growth() {
	printf '%s\n--\n%s\n--\n%s\n' "$2" "$3" "$4" |
		awk -v t="$1" '
			BEGIN { k = 0 }
			$1 == "--" { k++; next }
			{ v[k, $1] = $2; seen[$1] = 1 }
			END {
				for (n in seen)
					if (v[1, n] - v[0, n] >= t && v[2, n] - v[1, n] >= t &&
					    2 * (v[2, n] - v[1, n]) >= v[1, n] - v[0, n])
						print n ": " v[0, n] " -> " v[1, n] " -> " v[2, n]
			}'
}

# Catches: kobjects, work or notifiers left behind by unload (a later
# load or unload fails), and memory leaked per load.  A leak of one
# object per CPU per load grows its kmalloc cache by NCPU * CYCLES / 2 in
# each half of the run; once settled, a correct module's caches move by
# a few dozen objects, once, or (KASAN's quarantine on the debug kernel)
# by a couple of hundred that then level off.  A cache leaks when it
# grows in both halves by a quarter of that rate and steadily: the second
# half's growth at least half the first's.  Small caches shared with the
# rest of the kernel (kmalloc-8 holds kernfs and kobject names) have
# been seen to pass that mark by chance once on the stock kernel, so a
# suspect is measured over a third half: a leak grows there again.
check_cycles() {
	insmod "$VC_KO" preset=generic || return 1
	cycles 20 || return 1
	s0=$(kmalloc_snap)
	cycles $((CYCLES / 2)) || return 1
	s1=$(kmalloc_snap)
	cycles $((CYCLES - CYCLES / 2)) || return 1
	s2=$(kmalloc_snap)
	t=$((NCPU * CYCLES / 8))
	leaks=$(steady_growth $t "$s0" "$s1" "$s2")
	if [ -n "$leaks" ]; then
		note "suspect after $CYCLES cycles: $leaks"
		cycles $((CYCLES / 2)) || return 1
		s3=$(kmalloc_snap)
		suspects=$(echo "$leaks" | cut -d: -f1 | sed 's/$/:/')
		leaks=$(steady_growth $t "$s1" "$s2" "$s3" | grep -F "$suspects")
	fi
	rmmod vcpufreq || return 1
	total() { echo "$1" | awk '{ n += $2 } END { print n }'; }
	note "$CYCLES cycles, kmalloc objects: $(total "$s0") -> $(total "$s2")"
	[ -z "$leaks" ] || { echo "growing in three halves: $leaks"; return 1; }
	if [ -f /sys/kernel/debug/kmemleak ]; then
		echo scan > /sys/kernel/debug/kmemleak
		! grep -q freq_inv /sys/kernel/debug/kmemleak ||
			{ head -n 30 /sys/kernel/debug/kmemleak; return 1; }
	fi
}
check "$CYCLES load/unload cycles with a cpufreq driver" check_cycles

ktap_dmesg_clean "no kernel warnings, lockdep reports or leaks logged"
ktap_finish
