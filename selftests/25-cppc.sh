#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# freq_invariance on the kernel's own ACPI CPPC code.  Runs in a guest
# booted with tools/vm/run --cppc PRESET, whose SSDT gives every CPU a
# _CPC package from tools/vm/cppc/presets; skips anywhere else.
#
# Expectations come from the preset line (the same file the SSDT was
# generated from) and from the running kernel's rules, written out here
# (Documentation/published-cpus.rst has them with their commits):
#   - the numerator: Linux 6.1's amd_get_highest_perf()
#     (arch/x86/kernel/cpu/amd.c): 166 for family 17h models 30h-3Fh/
#     70h-7Fh and 19h models 20h-2Fh/40h-6Fh, else 255; Linux 6.12's
#     amd_get_boost_ratio_numerator() (arch/x86/kernel/acpi/cppc.c): the
#     HighestPerformance itself when every CPU reports the same, else 196
#     for family 19h models 70h-7Fh and 166 for the rest;
#   - the invariance ratio (arch/x86/kernel/acpi/cppc.c, both kernels):
#     ((numerator * 1024 / nominal_perf) + 1024) >> 1;
#   - max_P = NominalFrequency; max_boost = max_P * ratio >> 10 with
#     ratio = HighestPerformance * 1024 / nominal_perf when every CPU
#     reports the same HighestPerformance, else the numerator (a per-core
#     ranking overstates the boost); Documentation/design.rst, "The
#     reference and the kernel's ratios".
# The delivered/reference counters are written with busybox devmem at the
# addresses tools/vm/cppc/mkssdt.py documents, and read back through the
# kernel's acpi_cppc/feedback_ctrs: a wrong register address or a swapped
# counter pair in the SSDT fails there.
. "$(dirname "$0")/ktap.sh"

FI_KO=${FREQ_INV_KO:-/sugov/freq_invariance.ko}
VC_KO=${VCPUFREQ_KO:-/sugov/selftests/vcpufreq.ko}
PRESETS=$(dirname "$0")/../tools/vm/cppc/presets
FIPROBE=$(dirname "$0")/../tools/fi-probe/fi-probe
SYS=/sys/kernel/freq_invariance
CPUS=/sys/devices/system/cpu
# mkssdt.py's register page (tools/vm/run --cppc) and its per-CPU layout
CPPC_BASE=$((0x20000000))
CPU_STRIDE=64
REF_CTR_OFF=16
DEL_CTR_OFF=24

preset=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^sugov_cppc_preset=//p')
if [ -z "$preset" ]; then
	ktap_plan 1
	ktap_skip "ACPI CPPC preset" "not booted with tools/vm/run --cppc"
	ktap_finish
fi

# field NAME: column NAME of this preset's line
field() {
	awk -v p="$preset" -v c="$1" '
		/^#/ || NF == 0 { next }
		{ sub(/[ \t]*#.*/, "") }
		$1 == p {
			split("name family model osc highest nominal lnl lowest nom_mhz low_mhz vpreset source", n, " ")
			for (i = 1; i <= 12; i++) if (n[i] == c) print $i
		}' "$PRESETS"
}

# deliv_mismatch SOURCE: " cpuN=GOT" for each CPU whose
# delivered_source is not SOURCE (nothing when all are)
deliv_mismatch() {
	for c in $cpus; do
		got=$(cat "$SYS/cpu$c/delivered_source" 2>/dev/null)
		[ "$got" = "$1" ] || printf ' cpu%s=%s' "$c" "$got"
	done
}

# highest_of CPU: the preset's HighestPerformance of CPU (the last listed
# value repeats)
highest_of() {
	echo "$(field highest)" | awk -F, -v c="$1" '{ print (c + 1 <= NF) ? $(c + 1) : $NF }'
}

family=$(($(field family)))
model=$(($(field model)))
nominal=$(field nominal)
lnl=$(field lnl)
lowest=$(field lowest)
nom_mhz=$(field nom_mhz)
low_mhz=$(field low_mhz)
vpreset=$(field vpreset)
cpus=$(ls -d $CPUS/cpu[0-9]* | sed 's/.*cpu//' | sort -n)
ncpu=$(echo "$cpus" | wc -l)
broken=0
[ "$nominal" -eq 0 ] && broken=1

ktap_plan 18
ktap_diag "preset $preset: family $family model $model, $ncpu CPUs, nominal_perf $nominal"

# 1. the kernel parsed our _CPC: acpi_cppc/ of every CPU holds the preset
bad=
for c in $cpus; do
	d=$CPUS/cpu$c/acpi_cppc
	for kv in "highest_perf $(highest_of "$c")" "nominal_perf $nominal" \
		  "lowest_nonlinear_perf $lnl" "lowest_perf $lowest" \
		  "nominal_freq $nom_mhz" "lowest_freq $low_mhz"; do
		set -- $kv
		got=$(cat "$d/$1" 2>/dev/null)
		[ "$got" = "$2" ] || bad="$bad cpu$c/$1=$got(want $2)"
	done
done
if [ "$broken" = 1 ]; then
	# The show functions call cppc_get_perf_caps(), which refuses a
	# zero level (-EFAULT): every capability file must fail to read
	bad=
	for c in $cpus; do
		for f in highest_perf nominal_perf lowest_perf nominal_freq; do
			cat "$CPUS/cpu$c/acpi_cppc/$f" >/dev/null 2>&1 && bad="$bad cpu$c/$f"
		done
	done
	[ -n "$bad" ] && ktap_diag "readable:$bad"
	ktap_result "broken _CPC: the kernel refuses every acpi_cppc/ capability read" "$([ -z "$bad" ]; echo $?)"
else
	[ -n "$bad" ] && ktap_diag "$bad"
	ktap_result "acpi_cppc/ of every CPU holds the preset's capabilities" "$([ -z "$bad" ]; echo $?)"
fi

# 2. the counters are where the SSDT says, in the right order
bad=
[ "$broken" = 1 ] || for c in $cpus; do
	base=$((CPPC_BASE + c * CPU_STRIDE))
	ref=$((1000000 + c * 1000 + 7))
	del=$((3000000 + c * 1000 + 3))
	devmem $((base + REF_CTR_OFF)) 64 $ref
	devmem $((base + DEL_CTR_OFF)) 64 $del
	got=$(cat "$CPUS/cpu$c/acpi_cppc/feedback_ctrs" 2>/dev/null)
	[ "$got" = "ref:$ref del:$del" ] || bad="$bad cpu$c: '$got' (want 'ref:$ref del:$del')"
done
[ -n "$bad" ] && ktap_diag "$bad"
if [ "$broken" = 1 ]; then
	ktap_skip "feedback counters at the SSDT's addresses" "nominal_perf 0: the kernel refuses to read them"
else
	ktap_result "feedback counters at the SSDT's addresses, reference then delivered" "$([ -z "$bad" ]; echo $?)"
fi

# 3. ReferencePerformance is the nominal level
bad=
for c in $cpus; do
	got=$(cat "$CPUS/cpu$c/acpi_cppc/reference_perf" 2>/dev/null)
	[ "$got" = "$nominal" ] || bad="$bad cpu$c=$got"
done
if [ "$broken" = 1 ]; then
	ktap_skip "reference_perf is nominal_perf" "nominal_perf 0"
else
	ktap_result "reference_perf is nominal_perf on every CPU" "$([ -z "$bad" ]; echo $?)"
fi

# The expectations, from the rules above, by the running kernel's
uniform=1
h0=$(highest_of 0)
for c in $cpus; do [ "$(highest_of "$c")" = "$h0" ] || uniform=0; done
rel=$(uname -r)
major=${rel%%.*}
minor=${rel#*.}
minor=${minor%%[!0-9]*}
if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 12 ]; }; then
	rules=6.12
	k_highest=166
	if [ "$uniform" = 1 ]; then
		k_highest=$h0
	elif [ "$family" -eq $((0x19)) ] && [ "$model" -ge $((0x70)) ] && [ "$model" -lt $((0x80)) ]; then
		k_highest=196
	fi
else
	rules=6.1
	k_highest=255
	if [ "$family" -eq $((0x17)) ] && { { [ "$model" -ge $((0x30)) ] && [ "$model" -lt $((0x40)) ]; } ||
		{ [ "$model" -ge $((0x70)) ] && [ "$model" -lt $((0x80)) ]; }; }; then
		k_highest=166
	fi
	if [ "$family" -eq $((0x19)) ] && { { [ "$model" -ge $((0x20)) ] && [ "$model" -lt $((0x30)) ]; } ||
		{ [ "$model" -ge $((0x40)) ] && [ "$model" -lt $((0x70)) ]; }; }; then
		k_highest=166
	fi
fi
boost_perf=$k_highest
[ "$uniform" = 1 ] && boost_perf=$h0
max_p=$((nom_mhz * 1000))
if [ "$broken" = 0 ]; then
	ratio=$((boost_perf * 1024 / nominal))
	max_boost=$((max_p * ratio >> 10))
	k_ratio=$(((k_highest * 1024 / nominal + 1024) >> 1))
	want_src=cppc
else
	# The fallback: the cpufreq table, whose top is max_P and max_boost
	max_p=$((nom_mhz * 1000))
	max_boost=$max_p
	k_ratio=1024
	want_src=cpufreq
fi
midpoint=$((max_p / 2 + max_boost / 2 + (max_p & max_boost & 1)))
ktap_diag "Linux $rel, $rules rules: numerator $k_highest, uniform $uniform: want max_P $max_p max_boost $max_boost midpoint $midpoint kernel_ratio $k_ratio source $want_src"

ktap_dmesg_mark
mark=$KTAP_DMESG_MARK
insmod "$VC_KO" preset="$vpreset"
avail=$(cat $CPUS/cpu0/cpufreq/scaling_available_frequencies 2>/dev/null)
top=$(echo $avail | tr ' ' '\n' | sort -n | tail -n 1)
low=$(echo $avail | tr ' ' '\n' | sort -n | head -n 1)
ktap_diag "vcpufreq $vpreset: $avail"
ktap_result "vcpufreq's $vpreset table fits the _CPC: top = NominalFrequency, none below LowestFrequency" \
	"$([ "$top" = $((nom_mhz * 1000)) ] && [ "$low" -ge $((low_mhz * 1000)) ]; echo $?)"
insmod "$FI_KO"
ktap_result "freq_invariance loads" $?

# 6. source and caps per CPU
bad=
for c in $cpus; do
	d=$SYS/cpu$c
	for kv in "source $want_src" "max_p_khz $max_p" "max_boost_khz $max_boost" \
		  "midpoint_khz $midpoint" "kernel_ratio $k_ratio"; do
		set -- $kv
		got=$(cat "$d/$1" 2>/dev/null)
		[ "$got" = "$2" ] || bad="$bad cpu$c/$1=$got(want $2)"
	done
done
[ -n "$bad" ] && ktap_diag "$bad"
ktap_result "every CPU: source $want_src and the caps the $rules rules give" "$([ -z "$bad" ]; echo $?)"

# 7. the load line names the source; a broken _CPC gets one line saying so
lines=$(log_since "$mark" | grep '^freq_invariance: ')
echo "$lines" | sed 's/^/# /'
if [ "$broken" = 1 ]; then
	n=$(echo "$lines" | grep -ci 'cppc')
	ktap_result "broken _CPC: one freq_invariance line names CPPC and the fallback" \
		"$([ "$n" -eq 1 ] && echo "$lines" | grep -q 'source cpufreq'; echo $?)"
else
	ktap_result "the load line says source cppc for every CPU" \
		"$(echo "$lines" | grep -q "source cppc x$ncpu"; echo $?)"
fi

# 8. fi-probe reads the same acpi_cppc/ files and agrees with the module
bad=
if [ ! -x "$FIPROBE" ]; then
	bad=" no fi-probe"
else
	for c in $cpus; do
		out=$("$FIPROBE" --cpu "$c" 2>&1)
		rc=$?
		for k in source max_p_khz max_boost_khz midpoint_khz kernel_ratio; do
			want=$(cat "$SYS/cpu$c/$k")
			got=$(echo "$out" | sed -n "s/^$k=//p" | head -n 1)
			[ "$got" = "$want" ] || bad="$bad cpu$c/$k: fi-probe '$got', module $want (rc $rc)"
		done
	done
fi
[ -n "$bad" ] && ktap_diag "$bad"
ktap_result "fi-probe on the guest's acpi_cppc/ agrees with the module" "$([ -z "$bad" ]; echo $?)"

# 9. fi-probe --check: agrees as loaded, and a wrong override is caught
out=$("$FIPROBE" --check 2>&1)
rc=$?
[ $rc -eq 0 ] || echo "$out" | grep 'fi-probe:' | sed 's/^/# /'
ktap_result "fi-probe --check agrees with the loaded module" $rc
out=$("$FIPROBE" --check --max-p-khz 2250000 --max-boost-khz 3400000 2>&1)
rc=$?
echo "$out" | grep 'fi-probe:' | head -n 3 | sed 's/^/# /'
ktap_result "fi-probe --check with a wrong override exits 4" "$([ $rc -eq 4 ]; echo $?)"

# 10. a per-core highest_perf is seen per core by fi-probe's cppc_ fields
if [ "$uniform" = 1 ] || [ "$broken" = 1 ]; then
	ktap_skip "per-core highest_perf reported per core" "this preset's cores report one highest_perf"
else
	bad=
	for c in $cpus; do
		h=$(highest_of "$c")
		want=$((max_p * (h * 1024 / nominal) >> 10))
		got=$("$FIPROBE" --cpu "$c" 2>/dev/null | sed -n 's/^cppc_max_boost_khz=//p')
		[ "$got" = "$want" ] || bad="$bad cpu$c: $got (want $want)"
	done
	[ -n "$bad" ] && ktap_diag "$bad"
	ktap_result "per-core highest_perf reported per core (cppc_max_boost_khz)" "$([ -z "$bad" ]; echo $?)"
fi

# 11. counters that do not move (only devmem wrote them): the cpufreq
# source, and one line saying why
bad=$(deliv_mismatch cpufreq)
n=$(echo "$lines" | grep -c 'CPPC feedback counters')
[ -n "$bad" ] && ktap_diag "delivered_source:$bad"
if [ "$broken" = 1 ]; then
	ktap_result "broken _CPC: delivered_source cpufreq, no second line" \
		"$([ -z "$bad" ] && [ "$n" -eq 0 ]; echo $?)"
else
	ktap_result "static counters: delivered_source cpufreq and one line saying so" \
		"$([ -z "$bad" ] && [ "$n" -eq 1 ] && echo "$lines" | grep -q 'do not advance'; echo $?)"
fi

rmmod freq_invariance
ktap_result "freq_invariance unloads" $?
rmmod vcpufreq

# 13-16. vcpufreq's emulation advances the counters: freq_invariance
# measures the delivered frequency through them, boost included, which
# cpufreq's current frequency (the requested P-state) cannot show.
#
# deliv_khz CPU: median of three 20 ms measurements of the debugfs file
deliv_khz() {
	for _i in 1 2 3; do
		sed -n "s/^cpu$1 \([0-9]*\) .*/\1/p" /sys/kernel/debug/freq_invariance/delivered
	done | sort -n | sed -n 2p
}
# within PCT WANT GOT: GOT within PCT % of WANT
within() { [ $(( ($3 - $2) * 100 / $2 )) -le "$1" ] && [ $(( ($2 - $3) * 100 / $2 )) -le "$1" ]; }
hidden=0
if [ "$broken" = 1 ]; then
	for t in "delivered_source cppc" "busy at max_P, boost on" "boost off" "at the lowest P-state"; do
		ktap_skip "counter source: $t" "nominal_perf 0: no CPPC counter source"
	done
elif ! insmod "$VC_KO" preset="$vpreset" emulate=1 cppc_page=$CPPC_BASE; then
	for t in "delivered_source cppc" "busy at max_P, boost on" "boost off" "at the lowest P-state"; do
		ktap_fail "counter source: $t (vcpufreq emulate=1 cppc_page= refused)"
	done
else
	hidden=$(sed -n 's/^hidden_boost_khz //p' /sys/kernel/debug/vcpufreq/config)
	mark2=$(log_mark)
	insmod "$FI_KO"
	bad=$(deliv_mismatch cppc)
	log_since "$mark2" | grep '^freq_invariance' | sed 's/^/# /'
	ktap_result "counter source: delivered_source cppc on every CPU" "$([ -z "$bad" ]; echo $?)"

	last=$(echo "$cpus" | tail -n 1)
	modprobe cpufreq_userspace 2>/dev/null
	pol=$CPUS/cpu$last/cpufreq
	echo userspace > "$pol/scaling_governor"
	echo $((nom_mhz * 1000)) > "$pol/scaling_setspeed"
	taskset -c "$last" sh -c 'while :; do :; done' &
	spin=$!
	sleep 1
	got=$(deliv_khz "$last")
	ktap_diag "cpu$last busy at max_P $((nom_mhz * 1000)) kHz, boost on: delivered $got kHz (hidden boost $hidden)"
	ktap_result "counter source: busy at max_P with boost on delivers the boost frequency (2 %)" \
		"$(within 2 "$hidden" "${got:-0}"; echo $?)"
	echo 0 > $CPUS/cpufreq/boost
	sleep 1
	got=$(deliv_khz "$last")
	ktap_diag "boost off: delivered $got kHz"
	ktap_result "counter source: boost off delivers max_P (2 %)" \
		"$(within 2 $((nom_mhz * 1000)) "${got:-0}"; echo $?)"
	echo "$low" > "$pol/scaling_setspeed"
	sleep 1
	got=$(deliv_khz "$last")
	ktap_diag "at $low kHz: delivered $got kHz"
	ktap_result "counter source: the lowest P-state delivers its frequency (2 %)" \
		"$(within 2 "$low" "${got:-0}"; echo $?)"
	kill "$spin"
	wait "$spin" 2>/dev/null
	echo 1 > $CPUS/cpufreq/boost
	rmmod freq_invariance
	rmmod vcpufreq
fi
ktap_dmesg_clean "no kernel report (WARN, BUG, KASAN...) during the test"
ktap_finish
