#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Nobody else gets in: a user without privileges (uid 65534, through
# busybox su, which drops every capability) can change nothing of
# sugov_inv or freq_invariance and read nothing that cpufreq's own files
# do not already show.
#  - sysfs tunables (global and per-policy): writes refused, values
#    unchanged, modes those of the kernel's own schedutil (0644);
#  - /sys/kernel/freq_invariance and both modules' parameters: 0444,
#    writes refused (max_P, max_boost and the ratio are what cpufreq's
#    cpuinfo_max_freq, base_frequency and acpi_cppc/ files show anyone);
#  - debugfs: nothing readable or writable through the root-only mount;
#    mounted world-readable, still nothing writable, and the file that
#    reads hardware on every CPU (freq_invariance's delivered: an IPI to
#    each CPU and a 10 ms window per read) is root-only (0400), as
#    cpufreq's own cpuinfo_cur_freq;
#  - fi-probe: as the user it names the msr device and the privilege it
#    needs (exit 2), and it opens that device read-only (a read-only copy
#    is enough for it).
# Runtime about 20 s under TCG.
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

FIPROBE=$(cd "$(dirname "$0")/.." && pwd)/tools/fi-probe/fi-probe
DBG=/sys/kernel/debug
USER=nobody
NOTES=/tmp/sgt-55-notes

ktap_plan 12
unload_all
ktap_dmesg_mark
rm -f $NOTES
note() { echo "$*" >> $NOTES; }
notes_result() {
	[ -s $NOTES ] && head -n 8 $NOTES | sed 's/^/# /'
	ktap_result "$1" $([ ! -s $NOTES ]; echo $?)
	rm -f $NOTES
}

# The user: busybox's initramfs has only root; su from root asks no
# password.
grep -q "^$USER:" /etc/passwd || echo "$USER:x:65534:65534:$USER:/:/bin/sh" >> /etc/passwd
grep -q "^nogroup:" /etc/group || echo "nogroup:x:65534:" >> /etc/group
as_user() { su -s /bin/sh "$USER" -c "$1"; }
who=$(as_user 'id -u' 2>&1)
if [ "$who" != 65534 ]; then
	while [ "$KTAP_TESTNO" -lt 12 ]; do ktap_skip "as an unprivileged user" "su does not work here: $who"; done
	ktap_finish
fi
caps=$(as_user 'grep CapEff /proc/self/status' | awk '{ print $2 }')
ktap_diag "su $USER: uid $who, CapEff $caps"
ktap_result "su gives a user without privileges (uid 65534, no capability)" \
	$([ "$caps" = 0000000000000000 ]; echo $?)

# mode FILE: its permission bits, octal
mode() { stat -c %a "$1"; }

# refused FILE: the user cannot write FILE, which keeps its content
refused() {
	_b=$(cat "$1" 2>/dev/null)
	write_refused "$1"
	[ "$(cat "$1" 2>/dev/null)" = "$_b" ] || note "${1#/sys/}: changed to $(cat "$1")"
}

# write_refused FILE: the user's write to FILE fails (for files whose
# content moves by itself: debugfs counters)
write_refused() {
	as_user "echo 1 > '$1'" 2>/dev/null && note "${1#/sys/}: written by the user"
	return 0
}

insmod $FI_KO && insmod $SG_KO || ktap_diag "modules do not load"

# --- tunables, global and per policy -----------------------------------------
modprobe_governors
for cfg in "global:" "per-policy:per_policy_tunables=1"; do
	insmod $VC_KO preset=epyc-7742 ${cfg#*:}
	set_all scaling_governor sugov_inv
	d=$(tunables_of $CPUFREQ/policy0)
	for t in $TUNABLES; do
		[ -f "$d/$t" ] || note "no $d/$t"
		refused "$d/$t"
	done
	notes_result "${cfg%%:*} tunables: every write by the user refused, values unchanged"
	# The kernel's own schedutil, on the last policy, sets the modes
	last=$(policies | tail -n 1)
	echo schedutil > "$last/scaling_governor"
	sdir=$CPUFREQ/schedutil
	[ -d "$last/schedutil" ] && sdir=$last/schedutil
	ref=$(mode "$sdir/rate_limit_us")
	for t in $TUNABLES; do
		[ "$(mode "$d/$t")" = "$ref" ] || note "$t: mode $(mode "$d/$t"), schedutil's rate_limit_us $ref"
	done
	notes_result "${cfg%%:*} tunables: mode $ref, schedutil's"
	set_all scaling_governor performance
	rmmod vcpufreq
done

# --- freq_invariance's report and the module parameters ----------------------------
insmod $VC_KO preset=epyc-7742
set_all scaling_governor sugov_inv
for f in $FISYS/reference $FISYS/cpu*/* /sys/module/sugov_inv/parameters/* \
	 /sys/module/freq_invariance/parameters/*; do
	[ -f "$f" ] || continue
	[ "$(mode "$f")" = 444 ] || note "${f#/sys/}: mode $(mode "$f"), not 444"
	refused "$f"
done
notes_result "freq_invariance's sysfs report and both modules' parameters: 0444, writes refused"

# --- debugfs -------------------------------------------------------------------
OURS="$DBG/sugov_inv $DBG/freq_invariance"
for d in $OURS; do
	[ -d "$d" ] || note "no $d"
	for f in "$d"/*; do
		as_user "cat '$f'" >/dev/null 2>&1 && note "${f#$DBG/}: read by the user"
		write_refused "$f"
	done
done
notes_result "debugfs (root-only mount): nothing of ours readable or writable by the user"

# World-readable debugfs, as some distributions mount it: still nothing
# writable, and the hardware-reading file root-only.
dmode=$(mode $DBG)
mount -o remount,mode=0755 $DBG
for d in $OURS; do
	for f in "$d"/*; do
		case $(mode "$f") in
		*[2367]?|*[2367]) note "${f#$DBG/}: mode $(mode "$f"), writable by group or others" ;;
		esac
		write_refused "$f"
	done
done
notes_result "debugfs mounted world-readable: no file of ours writable by the user"
cur=$(mode $CPUFREQ/policy0/cpuinfo_cur_freq 2>/dev/null)
dm=$(mode $DBG/freq_invariance/delivered 2>/dev/null)
out=$(as_user "cat $DBG/freq_invariance/delivered" 2>&1)
rc=$?
ktap_diag "cpufreq's cpuinfo_cur_freq: $cur; freq_invariance/delivered: $dm; the user's read: exit $rc: $(echo "$out" | head -n 1)"
ktap_result "freq_invariance/delivered (IPIs and a window per read) root-only as cpuinfo_cur_freq ($cur)" \
	$([ "$dm" = 400 ] && [ "$cur" = 400 ] && [ $rc != 0 ]; echo $?)
mount -o remount,mode=0$dmode $DBG

# --- fi-probe ---------------------------------------------------------------------
vendor=$(sed -n 's/^vendor_id[^:]*: //p' /proc/cpuinfo | head -n 1)
modprobe msr 2>/dev/null
if [ "$vendor" != GenuineIntel ]; then
	ktap_skip "fi-probe as the user: the msr device denied" "$vendor guest: fi-probe reads acpi_cppc, not MSRs"
elif [ ! -e /dev/cpu/0/msr ]; then
	ktap_skip "fi-probe as the user: the msr device denied" "no /dev/cpu/0/msr (msr module)"
else
	out=$(as_user "$FIPROBE" 2>&1)
	rc=$?
	ktap_diag "fi-probe as $USER: exit $rc: $out"
	ktap_result "fi-probe as the user: one line naming /dev/cpu/N/msr and the privilege it needs, exit 2" \
		$([ $rc = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] &&
		  echo "$out" | grep -q '/dev/cpu/[0-9]*/msr: permission denied.*CAP_SYS_RAWIO'; echo $?)
fi
# A copy of the registers that only root may write, readable by all: a
# fi-probe that opened the device for writing would be refused.  Sandy
# Bridge values (MSR_PLATFORM_INFO ratio 34, MSR_TURBO_RATIO_LIMIT
# 38/37/36/35), as tools/fi-probe/test.sh's Core i7-2600K case.
fake=/tmp/sgt-55-root
rm -rf $fake
mkdir -p $fake/proc $fake/sys/devices/system/cpu $fake/dev/cpu/0
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 42\n\n' > $fake/proc/cpuinfo
echo 0 > $fake/sys/devices/system/cpu/online
: > $fake/dev/cpu/0/msr
# le64 OFFSET BYTES...: little-endian bytes at OFFSET of the fake msr
le64() { _o=$1; shift; printf "$*" | dd of=$fake/dev/cpu/0/msr bs=1 seek="$_o" conv=notrunc 2>/dev/null; }
le64 $((0xce)) '\000\042\000\000\000\000\000\000'
le64 $((0x1ad)) '\046\045\044\043\000\000\000\000'
chmod -R a+rX $fake
chmod 0444 $fake/dev/cpu/0/msr
out=$(as_user "FI_PROBE_ROOT=$fake $FIPROBE" 2>&1)
rc=$?
ktap_diag "fi-probe as $USER on a read-only msr copy: exit $rc: $(echo "$out" | grep -E 'max_p_khz|max_boost_khz|denied' | tr '\n' ' ')"
ktap_result "fi-probe opens the msr device read-only: it decodes a read-only copy as the user (max_P 3400000 kHz)" \
	$(echo "$out" | grep -q '^max_p_khz=3400000$'; echo $?)
rm -rf $fake

set_all scaling_governor performance
unload_all
ktap_dmesg_clean "no WARN, BUG or other kernel report"
ktap_finish
