#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Keeping a choice at boot, and installed modules:
#   - the modules carry the version of VERSION (modinfo), and
#     INSTALL_EXPECT_VERSION, when given, is that version;
#   - modprobe finds them through modules.dep and modules.alias once
#     installed under /lib/modules/RELEASE/updates and depmod has run;
#   - writing sugov_inv to scaling_governor loads sugov_inv itself: the
#     cpufreq core asks for "cpufreq_sugov_inv" (request_module() in
#     cpufreq_parse_governor()), the module's alias;
#   - booted with cpufreq.default_governor=sugov_inv, loading the modules
#     of the example modules-load.d file and then a cpufreq driver module
#     gives every policy sugov_inv with no write to scaling_governor (the
#     core takes its default only from registered governors);
#   - every tunable's module parameter is the initial value of new
#     tunables, global and per policy; boundaries load; a bad value
#     refuses the load with one log line naming the parameter.
# INSTALL_KO_DIR: where freq_invariance.ko and sugov_inv.ko come from
# (default: the ones tools/vm/run built; make check's install part gives
# the DKMS-built ones).  INSTALL_EXAMPLES: the examples/ directory.
# Runtime about 10 s under TCG with 2 vCPUs (2 cases skip unless booted
# with cpufreq.default_governor=sugov_inv, as make check's install part
# does).  Mutations it was checked against (each then fails the cases
# named): no MODULE_VERSION in freq_inv_core.c (1); no MODULE_ALIAS (3,
# 4); the modules-load.d example emptied (5); tunables_alloc ignoring
# overutil_threshold_pct= (8, 9); the parameters' range check bypassed
# (12-14); a given parameter not recorded as given (7-9, 12-15).
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

KO_DIR=${INSTALL_KO_DIR:-$SUGOV}
EXAMPLES=${INSTALL_EXAMPLES:-$SUGOV/examples}
REL=$(uname -r)
UPD=/lib/modules/$REL/updates/sugov-inv-test
NOTES=/tmp/sgt-65-notes
note() { echo "$*" | cut -c1-200 >> $NOTES; }
notes_out() {
	if [ -s $NOTES ]; then head -n 12 $NOTES | sed 's/^/# /'; rm -f $NOTES; return 1; fi
	return 0
}

ktap_plan 15
unload_all
ktap_dmesg_mark

# 1-2: the version
want=${INSTALL_EXPECT_VERSION:-}
for m in freq_invariance sugov_inv; do
	v=$(modinfo -F version "$KO_DIR/$m.ko" 2>/dev/null)
	if [ -n "$v" ] && { [ -z "$want" ] || [ "$v" = "$want" ]; }; then
		ktap_ok "modinfo $m.ko: version $v${want:+ (expected $want)}"
	else
		ktap_fail "modinfo $m.ko: version '$v'${want:+, expected $want}"
	fi
done

# Install as a package would (modules.dep and modules.alias by depmod);
# the busybox of the guest has no /sbin/modprobe, which the kernel runs.
mkdir -p "$UPD"
cp "$KO_DIR/freq_invariance.ko" "$KO_DIR/sugov_inv.ko" "$VC_KO" "$UPD/"
depmod -a
[ -x /sbin/modprobe ] || echo /bin/modprobe > /proc/sys/kernel/modprobe

# 3: modules.dep and modules.alias
if grep -q "^alias cpufreq_sugov_inv sugov_inv$" /lib/modules/$REL/modules.alias &&
	grep -q "sugov_inv.ko:.*freq_invariance.ko" /lib/modules/$REL/modules.dep; then
	ktap_ok "depmod: sugov_inv has the alias cpufreq_sugov_inv and depends on freq_invariance"
else
	ktap_fail "depmod: sugov_inv has the alias cpufreq_sugov_inv and depends on freq_invariance"
fi

# 4: the alias, with neither module loaded: the write loads sugov_inv
# and, as its dependency, freq_invariance, whose init runs while the
# store holds the policy's rwsem (the hotplug callback and the refresh
# work must not wait for it; they once did, and the guest hung).  The
# write runs in the background and gets 60 s: a hang fails the test
# instead of the whole run.
modprobe vcpufreq preset=epyc-7742
ok=0
( set_all scaling_governor sugov_inv 2>/dev/null; echo "rc=$?" > /tmp/sgt-65-write ) &
writer=$!
i=0
while [ ! -s /tmp/sgt-65-write ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
hung=0
if [ ! -s /tmp/sgt-65-write ]; then
	ok=1
	hung=1
	ktap_diag "the write to scaling_governor still hangs after 60 s (a deadlock with the module loads)"
	echo w > /proc/sysrq-trigger 2>/dev/null
elif ! grep -q '^rc=0$' /tmp/sgt-65-write; then
	ok=1
	ktap_diag "writing sugov_inv to scaling_governor failed"
fi
rm -f /tmp/sgt-65-write
if [ $ok = 0 ]; then
	is_loaded sugov_inv || { ok=1; ktap_diag "sugov_inv was not loaded by the write"; }
	is_loaded freq_invariance || { ok=1; ktap_diag "freq_invariance was not loaded with it"; }
	out=$(every_policy_runs sugov_inv) || { ok=1; ktap_diag "$out"; }
	# The busy policies are probed by the refresh work, soon after
	sleep 1
	for d in /sys/kernel/freq_invariance/cpu[0-9]*; do
		[ "$(cat "$d/max_p_khz" 2>/dev/null)" = 2250000 ] ||
			{ ok=1; ktap_diag "${d##*/}: max_p_khz '$(cat "$d/max_p_khz" 2>/dev/null)' after the load, want 2250000"; }
	done
fi
ktap_result "echo sugov_inv > scaling_governor, nothing loaded: loads both modules through the alias, no deadlock" $ok
[ $hung = 1 ] || unload_all

# 5-6: cpufreq.default_governor=sugov_inv
if grep -qw "cpufreq.default_governor=sugov_inv" /proc/cmdline; then
	list=sugov_inv
	[ -f "$EXAMPLES/modules-load.d/sugov-inv.conf" ] &&
		list=$(grep -v '^#' "$EXAMPLES/modules-load.d/sugov-inv.conf")
	ok=0
	for m in $list; do modprobe "$m" || { ok=1; ktap_diag "modprobe $m failed"; }; done
	modprobe vcpufreq preset=epyc-7742 || ok=1
	out=$(every_policy_runs sugov_inv) || { ok=1; ktap_diag "$out"; }
	ktap_result "default_governor=sugov_inv, modules-load.d ($list), then a driver: every policy runs sugov_inv" $ok
	unload_all
	# Per-CPU policies (shared=0): each policy gets it, hotplug included
	modprobe sugov_inv && modprobe vcpufreq preset=xeon-e5-2687w-v3 per_policy_tunables=1
	ok=0
	out=$(every_policy_runs sugov_inv) || { ok=1; ktap_diag "$out"; }
	[ -d "$(ls -d $CPUFREQ/policy0)/sugov_inv" ] || { ok=1; ktap_diag "policy0 has no sugov_inv tunables"; }
	ktap_result "default_governor=sugov_inv with per-policy tunables: every policy runs it" $ok
	unload_all
else
	ktap_skip "default_governor=sugov_inv then a driver: every policy runs sugov_inv" \
		"booted without cpufreq.default_governor=sugov_inv (make check's install part boots with it)"
	ktap_skip "default_governor=sugov_inv with per-policy tunables" "booted without it"
fi

# 7-9: parameters are the initial tunables
PARAMS="freq_max_policy=midpoint rate_limit_us=3000 overutil_threshold_pct=70 idle_restore_us=30000"
# check_tunables DIR: DIR's tunables are those of $PARAMS
check_tunables() {
	[ "$(cat "$1/rate_limit_us")" = 3000 ] || echo "$1/rate_limit_us: $(cat "$1/rate_limit_us")"
	[ "$(cat "$1/overutil_threshold_pct")" = 70 ] || echo "$1/overutil_threshold_pct: $(cat "$1/overutil_threshold_pct")"
	[ "$(cat "$1/idle_restore_us")" = 30000 ] || echo "$1/idle_restore_us: $(cat "$1/idle_restore_us")"
	case " $(cat "$1/freq_max_policy") " in *" [midpoint] "*) ;; *) echo "$1/freq_max_policy: $(cat "$1/freq_max_policy")" ;; esac
}
# shellcheck disable=SC2086
modprobe sugov_inv $PARAMS
ok=0
for kv in $PARAMS; do
	got=$(cat /sys/module/sugov_inv/parameters/${kv%%=*} 2>/dev/null)
	[ "$got" = "${kv#*=}" ] || { ok=1; ktap_diag "parameters/${kv%%=*} reads '$got'"; }
done
ktap_result "/sys/module/sugov_inv/parameters show the values given" $ok
modprobe vcpufreq preset=epyc-7742 && set_all scaling_governor sugov_inv
out=$(check_tunables $CPUFREQ/sugov_inv)
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
ktap_result "global tunables start with the module parameters" "$([ -z "$out" ]; echo $?)"
set_all scaling_governor performance
rmmod vcpufreq
modprobe vcpufreq preset=epyc-7742 per_policy_tunables=1 && set_all scaling_governor sugov_inv
out=
for p in $(active_policies); do out="$out$(check_tunables "$p/sugov_inv")"; done
[ -z "$out" ] || echo "$out" | sed 's/^/# /'
ktap_result "per-policy tunables start with the module parameters" "$([ -z "$out" ]; echo $?)"
unload_all

# 10: without rate_limit_us=, new tunables take the driver's delay (-1)
modprobe sugov_inv && modprobe vcpufreq preset=epyc-7742 && set_all scaling_governor sugov_inv
got=$(cat /sys/module/sugov_inv/parameters/rate_limit_us)
t=$(cat $CPUFREQ/sugov_inv/rate_limit_us 2>/dev/null)
if [ "$got" = -1 ] && [ -n "$t" ] && [ "$t" != 3000 ] &&
	[ "$(cat /sys/module/sugov_inv/parameters/overutil_threshold_pct)" = 80 ]; then
	ktap_ok "no parameter: rate_limit_us reads -1, tunables take the driver's delay ($t us), threshold 80"
else
	ktap_fail "no parameter: rate_limit_us reads '$got', tunable '$t'"
fi
unload_all
modprobe freq_invariance

# 11: boundaries load
ok=0
for kv in rate_limit_us=0 rate_limit_us=1000000 \
	overutil_threshold_pct=1 overutil_threshold_pct=100 idle_restore_us=0 \
	idle_restore_us=1000000 overutil_threshold_pct=+50; do
	if insmod "$UPD/sugov_inv.ko" "$kv"; then
		rmmod sugov_inv
	else
		ok=1; ktap_diag "$kv: refused"
	fi
done
ktap_result "each range's boundaries (and kstrtouint's '+') load" $ok

# 12-16: bad values refused, the module not loaded, one log line that
# names the parameter
# refused ARG: insmod sugov_inv ARG fails with one line naming it
refused() {
	mark=$(log_mark)
	if insmod "$UPD/sugov_inv.ko" "$1" 2>/dev/null; then
		note "sugov_inv $1: loaded"
		rmmod sugov_inv
		return
	fi
	is_loaded sugov_inv && note "sugov_inv $1: still there after a refused load"
	lines=$(log_since "$mark" | sort -u)
	n=$(echo "$lines" | grep -c .)
	if [ "$n" != 1 ]; then
		note "sugov_inv $(echo "$1" | cut -c1-40): $n distinct log lines:"
		echo "$lines" | cut -c1-150 | while IFS= read -r l; do note "   $l"; done
	else
		case $lines in *"${1%%=*}="*) ;; *) note "sugov_inv $1: the line names no parameter: $lines" ;; esac
	fi
}
for kv in rate_limit_us=1000001 rate_limit_us=-1 rate_limit_us=1e3 rate_limit_us=; do refused $kv; done
notes_out
ktap_result "rate_limit_us=: above 1000000, negative, 1e3, empty refused, one log line each" $?
for kv in overutil_threshold_pct=0 overutil_threshold_pct=101 overutil_threshold_pct=4294967296 \
	overutil_threshold_pct=abc overutil_threshold_pct=50x overutil_threshold_pct=0x32; do refused $kv; done
notes_out
ktap_result "overutil_threshold_pct=: 0, 101, 2^32, abc, 50x, 0x32 refused, one log line each" $?
for kv in idle_restore_us=1000001 idle_restore_us=-1 'idle_restore_us="20000 "'; do refused "$kv"; done
notes_out
ktap_result "idle_restore_us=: 1000001, negative, trailing space refused, one log line each" $?
refused "overutil_threshold_pct=$(head -c 600 /dev/zero | tr '\0' 1)"
notes_out
ktap_result "overutil_threshold_pct= with 600 digits refused, one log line" $?

unload_all
rm -rf "$UPD"
depmod -a
ktap_diag "kernel reports since the start:"
out=$(ktap_dmesg_splats)
[ -n "$out" ] && echo "$out" | head -n 10 | sed 's/^/# /'
ktap_finish
