#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# STRESS_S seconds (default 120: two minutes) of everything at
# once while sugov_inv governs vcpufreq's Xeon E5-2687W v3 preset: a
# stress-ng load, governor
# switches on random policies, random writes (valid and bad) to every
# tunable, CPU hotplug, scaling_min/max_freq and boost writes, readers of
# every sysfs and debugfs file of ours, and now and then the driver
# unloaded under the running governor and the stack reloaded with random
# parameters (shared or per-CPU policies, global or per-policy tunables,
# fast switch offered or not).
#
# It must end with every worker done, every CPU back, the governor
# driving every CPU, every module unloadable, no WARN, BUG, lockdep,
# KASAN or UBSAN report, and (on a kernel with kmemleak) no leak of ours.
# Runtime STRESS_S + about 10 s; 50..80 take about 5 minutes in all on
# the shared 2-core host under TCG (STRESS_S=60 saves one).
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

DURATION=${STRESS_S:-120}
NCPU=$(online_cpus | wc -l)
HP=$(hotplug_cpus)
STOP=/tmp/sgt-80-stop
W=/tmp/sgt-80
PRESET_ARGS="preset=xeon-e5-2687w-v3"
TABLE="1200000 1500000 2000000 2500000 3000000 3100000 3500000"

ktap_plan 9
unload_all
rm -rf $W $STOP
mkdir -p $W
ktap_dmesg_mark

pick() { # WORDS...: one of them at random
	[ $# -gt 0 ] || return 0
	shift $((RANDOM % $#))
	echo "$1"
}

# Each worker loops until $STOP appears and leaves its operation count
# (and its count of failures that must not happen) in $W/NAME.
worker_governors() {
	n=0
	while [ ! -e $STOP ]; do
		p=$(pick $(policies) none)
		# Not schedutil: its SCHED_DEADLINE kthread, created while a
		# CPU goes through hotplug, can be bound from a root domain
		# with no active CPU, where Debian's 6.1 divides by
		# dl_bw_cpus() = 0 in set_cpus_allowed_dl() with the domain's
		# bandwidth lock held (kthread_bind_mask() from sugov_init(),
		# in a make check of e87861f): the guest
		# wedges on that lock.  The kernel's race, not ours; the
		# other governors still switch beside sugov_inv here.
		g=$(pick $(sed 's/schedutil//' $CPUFREQ/policy0/scaling_available_governors 2>/dev/null) sugov_inv sugov_inv)
		# Policies come and go with hotplug and reloads: errors expected
		[ -d "$p" ] && echo "$g" > "$p/scaling_governor" 2>/dev/null
		n=$((n + 1))
		sleep 0.1
	done
	echo "$n 0" > $W/governors
}

worker_tunables() {
	n=0
	while [ ! -e $STOP ]; do
		d=$(pick $CPUFREQ/sugov_inv $CPUFREQ/policy*/sugov_inv)
		t=$(pick $TUNABLES)
		v=$(pick 0 1 100 125 400 401 80 99 1000 1001 32 10000 1000000 1000001 \
			-1 abc 4294967296 "" max_P midpoint max_boost overutil-detect noinv max_p)
		[ -d "$d" ] && echo "$v" > "$d/$t" 2>/dev/null
		n=$((n + 1))
		sleep 0.02
	done
	echo "$n 0" > $W/tunables
}

worker_hotplug() {
	n=0 bad=0
	while [ ! -e $STOP ]; do
		c=$(pick $HP)
		if echo 0 > $CPUSYS/cpu$c/online 2>/dev/null; then
			sleep 0.$((RANDOM % 5))
			# A CPU that cannot come back is a failure
			echo 1 > $CPUSYS/cpu$c/online || bad=$((bad + 1))
		fi
		n=$((n + 1))
		sleep 0.2
	done
	echo "$n $bad" > $W/hotplug
}

worker_limits() {
	n=0
	while [ ! -e $STOP ]; do
		p=$(pick $(policies))
		case $((RANDOM % 4)) in
		0) [ -d "$p" ] && echo "$(pick $TABLE)" > "$p/scaling_max_freq" 2>/dev/null ;;
		1) [ -d "$p" ] && echo "$(pick $TABLE)" > "$p/scaling_min_freq" 2>/dev/null ;;
		2) [ -d "$p" ] && echo 1200000 > "$p/scaling_min_freq" 2>/dev/null &&
			echo 3500000 > "$p/scaling_max_freq" 2>/dev/null ;;
		3) if mkdir $W/driver-lock 2>/dev/null; then
			echo $((RANDOM % 2)) > $CPUFREQ/boost 2>/dev/null
			rmdir $W/driver-lock
		   fi ;;
		esac
		n=$((n + 1))
		sleep 0.1
	done
	echo "$n 0" > $W/limits
}

worker_readers() {
	n=0
	while [ ! -e $STOP ]; do
		cat $SGDBG $FISYS/reference $FISYS/cpu*/* $CPUFREQ/sugov_inv/* \
			$CPUFREQ/policy*/sugov_inv/* $CPUFREQ/policy*/scaling_cur_freq \
			$VCF/stats $VCF/cur >/dev/null 2>&1
		[ $((n % 20)) = 0 ] && cat /sys/kernel/debug/freq_invariance/delivered >/dev/null 2>&1
		n=$((n + 1))
		sleep 0.05
	done
	echo "$n 0" > $W/readers
}

# unload MODULE: rmmod, retried for up to 10 s: a reader of one of the
# module's debugfs files (or a governor switch through sysfs) holds a
# module reference while it runs (EAGAIN), as it would for any user; on
# a loaded TCG host such a reader can be descheduled for seconds.
unload() {
	_i=0
	until rmmod "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -ge 100 ] && { rmmod "$1"; return; }
		sleep 0.1
	done
}

# The driver goes away under the running governor, sometimes the
# governor and freq_invariance too, and all come back with random
# parameters.  A load that fails with good parameters is a failure.
#
# Never while cpufreq's boost file is being written: Linux 6.1's
# cpufreq_unregister_driver() holds the CPU hotplug lock for reading
# while it waits for the boost file's writers, and store_boost() takes
# that lock for reading too; with a CPU offline queued as a writer in
# between, neither gets it and the machine hangs (seen here: rmmod in
# kernfs_drain, store_boost in cpus_read_lock, the offline in
# percpu_down_write).  A cpufreq core limitation, not ours.
worker_reload() {
	n=0 bad=0
	# try CMD...: run it; a failure counts and is logged with its error
	try() {
		_e=$("$@" 2>&1) && return 0
		bad=$((bad + 1))
		echo "$*: $_e" | cut -c1-160 >> $W/reload.log
		return 1
	}
	while [ ! -e $STOP ]; do
		# DURATION/8 between reloads, in steps that notice the end
		_s=0
		while [ $_s -le $((DURATION / 8)) ] && [ ! -e $STOP ]; do
			sleep 1
			_s=$((_s + 1))
		done
		[ -e $STOP ] && break
		until mkdir $W/driver-lock 2>/dev/null; do sleep 0.05; done
		is_loaded vcpufreq && try unload vcpufreq
		if [ $((RANDOM % 2)) = 0 ] && ! is_loaded vcpufreq; then
			try unload sugov_inv
			try unload freq_invariance
			try insmod $FI_KO reference=$(pick kernel max_boost midpoint max_P)
			try insmod $SG_KO freq_max_policy=$(pick max_P midpoint max_boost overutil-detect noinv)
		fi
		is_loaded vcpufreq || try insmod $VC_KO preset=$(pick epyc-7742 xeon-e5-2687w-v3 generic) \
			shared=$((RANDOM % 2)) per_policy_tunables=$((RANDOM % 2)) \
			fast_switch=$((RANDOM % 2))
		set_all scaling_governor sugov_inv 2>/dev/null
		rmdir $W/driver-lock
		n=$((n + 1))
	done
	echo "$n $bad" > $W/reload
}

# --- the storm ------------------------------------------------------------------
modprobe_governors
load_stack $PRESET_ARGS || ktap_diag "the stack does not load"
kmemleak_clear
ktap_diag "${DURATION}s with $NCPU CPUs, hotplug on cpu $(echo $HP), governors: $(cat $CPUFREQ/policy0/scaling_available_governors)"
load_start --cpu "$NCPU" --cpu-load 70 --timeout $((DURATION + 30))
pids=
i=1
for w in governors tunables hotplug limits readers reload; do
	# A seed of its own, or every worker draws the same sequence.  No
	# output: a worker stuck in the kernel would hold run.sh's pipe open
	# and the whole run would wait for it.
	(RANDOM=$((i * 7919 + $$)); worker_$w) >/dev/null 2>&1 </dev/null &
	pids="$pids $!"
	i=$((i + 1))
done
sleep "$DURATION"
touch $STOP
load_stop

# Catches: a deadlock or a task stuck in the governor (a stop() waiting
# for a kthread that waits for the hotplug lock, a limits() taking a lock
# the hook holds, an rmmod that never returns).
waited=0
while :; do
	alive=
	for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
	[ -z "$alive" ] && break
	[ $waited -ge "${STUCK_S:-30}" ] && break
	sleep 1
	waited=$((waited + 1))
done
if [ -n "$alive" ]; then
	for p in $alive; do
		ktap_diag "stuck: $(cat /proc/$p/cmdline 2>/dev/null | tr '\0' ' ') in $(cat /proc/$p/wchan 2>/dev/null)"
	done
	# Every blocked task's stack, into the log and here
	mark=$(log_mark)
	echo w > /proc/sysrq-trigger
	sleep 1
	log_since "$mark" |
		grep -v '^ *\(R[A-Z][A-Z]\|\? \)' | head -n 300 | sed 's/^/# /'
	ktap_fail "every worker stops within ${STUCK_S:-30} s of the end"
	# The machine is wedged: nothing after this can run
	for i in 2 3 4 5 6 7 8 9; do ktap_skip "case $i" "a worker is stuck"; done
	ktap_finish
fi
ktap_ok "every worker stops within ${STUCK_S:-30} s of the end (${waited}s)"

# Catches: a worker that made no progress at all (stuck from the start)
summary=
prog=0
for w in governors tunables hotplug limits readers reload; do
	read -r n bad < $W/$w 2>/dev/null || { n=0; bad=0; }
	summary="$summary $w=$n"
	[ "${n:-0}" -ge 1 ] || prog=1
	eval "bad_$w=${bad:-0}"
done
ktap_diag "operations:$summary"
ktap_result "every worker made progress" $prog
# Catches: a CPU that cannot come back online (a governor or
# freq_invariance online step failing the bring-up)
ktap_result "every offlined CPU came back online ($bad_hotplug failures)" $bad_hotplug
# Catches: a module that cannot be unloaded or loaded again under load
# (a reference leaked, a name left registered)
[ -s $W/reload.log ] && sed 's/^/# /' $W/reload.log
ktap_result "every driver unload and module reload succeeded ($bad_reload failures)" $bad_reload

# --- afterwards -------------------------------------------------------------------
all_online
is_loaded freq_invariance || insmod $FI_KO
is_loaded sugov_inv || insmod $SG_KO
is_loaded vcpufreq || insmod $VC_KO $PRESET_ARGS
set_all scaling_governor sugov_inv
# Catches: a store that raced into an out-of-range value, a list with
# no or two active entries.
tunables_sane() {
	for d in $CPUFREQ/sugov_inv $CPUFREQ/policy*/sugov_inv; do
		[ -d "$d" ] || continue
		r=$(cat $d/rate_limit_us)
		o=$(cat $d/overutil_threshold_pct) l=$(cat $d/idle_restore_us)
		[ "$r" -le 1000000 ] &&
			[ "$o" -ge 1 ] && [ "$o" -le 100 ] && [ "$l" -le 1000000 ] ||
			{ echo "$d: $r $o $l"; return 1; }
		[ "$(tr -cd '[' < $d/freq_max_policy | wc -c)" = 1 ] ||
			{ echo "$d: $(cat $d/freq_max_policy)"; return 1; }
	done
}
ktap_check "afterwards every tunable set reads in range" tunables_sane

# Catches: hooks or per-CPU state left broken by the storm
set_all scaling_governor performance
rmmod vcpufreq
insmod $VC_KO $PRESET_ARGS && echo 1 > $CPUFREQ/boost && set_all scaling_governor sugov_inv
reset_record
if why=$(drives_all); then
	ktap_ok "afterwards sugov_inv drives every CPU (record)"
else
	echo "$why" | sed 's/^/# /'
	ktap_diag "module parameters: $(cat /sys/module/sugov_inv/parameters/freq_max_policy) $(cat /sys/module/freq_invariance/parameters/reference)"
	ktap_diag "tunables: $(for t in $TUNABLES; do printf '%s=%s ' $t "$(cat $CPUFREQ/sugov_inv/$t 2>/dev/null)"; done)"
	sed 's/^/# /' $SGDBG
	ktap_diag "record: $(tail -n 8 $VCF/requests | tr '\n' ' ')"
	ktap_fail "afterwards sugov_inv drives every CPU (record)"
fi

# Catches: a module reference leaked by the governor or freq_invariance
unload_ok() {
	set_all scaling_governor performance
	rmmod vcpufreq && rmmod sugov_inv && rmmod freq_invariance
}
ktap_check "afterwards vcpufreq, sugov_inv and freq_invariance unload" unload_ok

kmemleak_result
unload_all
ktap_dmesg_clean "no WARN, BUG, lockdep, KASAN or other splat in dmesg"
rm -rf $W $STOP
ktap_finish
