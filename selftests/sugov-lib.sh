# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers shared by the governor's selftests (40-sugov-inv, 45-resync,
# 50-lifecycle, 60-tunables, 70-hotplug, 75-no-drop, 80-stress;
# tools/bench/probe-guest.sh): loading the module stack, walking the policies,
# reading vcpufreq's request record, background loads, CPU hotplug and
# kmemleak.  POSIX sh (busybox ash); source it after ktap.sh.

SUGOV=${SUGOV_DIR:-/sugov}
FI_KO=$SUGOV/freq_invariance.ko
SG_KO=$SUGOV/sugov_inv.ko
VC_KO=$SUGOV/selftests/vcpufreq.ko
CPUFREQ=/sys/devices/system/cpu/cpufreq
CPUSYS=/sys/devices/system/cpu
VCF=/sys/kernel/debug/vcpufreq
FISYS=/sys/kernel/freq_invariance
SGDBG=/sys/kernel/debug/sugov_inv/summary
SGCHAIN=/sys/kernel/debug/sugov_inv/chain
KMEMLEAK=/sys/kernel/debug/kmemleak
TUNABLES="rate_limit_us freq_max_policy overutil_threshold_pct idle_restore_us chain_window_us"

# Guest CLOCK_BOOTTIME in ns at /proc/uptime's 10 ms resolution: the clock
# of vcpufreq's record (ktime_get_ns) in a guest that never suspends.
now_ns() { awk '{ printf "%.0f\n", $1 * 1000000000 }' /proc/uptime; }

policies() { ls -d $CPUFREQ/policy[0-9]* 2>/dev/null; }

# Policies with at least one online CPU (an offlined per-CPU policy stays
# in sysfs, inactive, with an empty affected_cpus).
active_policies() {
	for p in $(policies); do
		[ -n "$(cat "$p/affected_cpus" 2>/dev/null)" ] && echo "$p"
	done
}

# idle_memory_off: idle_restore_us 0 wherever sugov_inv's tunables are
# (the global directory, or each policy's with per-policy tunables), for
# checks that judge how the governor follows a load, not its memory
# across idle stretches.  On the debug kernel under TCG an idle CPU still
# runs a tick or more every few tens of ms; before the memory was renewed
# only through work (Documentation/design.rst, idle_restore_us), it kept
# a shared policy up for seconds after its load there.
idle_memory_off() {
	for _t in $CPUFREQ/sugov_inv/idle_restore_us $CPUFREQ/policy*/sugov_inv/idle_restore_us; do
		[ -w "$_t" ] && echo 0 > "$_t"
	done
	return 0
}

# set_all FILE VALUE: write VALUE to FILE of every active policy.
set_all() {
	for p in $(active_policies); do
		echo "$2" > "$p/$1" || return 1
	done
}

# probes_are STATE: sugov_inv/chain's first line says "probes STATE"
# within 2 s (the probes follow the governor from sugov_inv's worker).
probes_are() {
	n=0
	while [ $n -lt 20 ]; do
		grep -q "^# probes $1 " $SGCHAIN && return 0
		sleep 0.1
		n=$((n + 1))
	done
	echo "sugov_inv/chain says \"$(head -n 1 $SGCHAIN)\" after 2 s, not probes $1"
	return 1
}

# every_policy_runs GOV: every active policy reads back GOV.
every_policy_runs() {
	for p in $(active_policies); do
		[ "$(cat "$p/scaling_governor")" = "$1" ] ||
			{ echo "${p##*/} runs $(cat "$p/scaling_governor"), not $1"; return 1; }
	done
}

online_cpus() {
	for d in $CPUSYS/cpu[0-9]*; do
		if [ ! -f "$d/online" ] || [ "$(cat "$d/online")" = 1 ]; then
			echo "${d##*cpu}"
		fi
	done | sort -n
}

# epyc_load TAG N ARGS...: vcpufreq with the epyc-7742 preset and ARGS;
# when it does not load, the N checks of TAG's layout fail, and so does
# the call (the caller skips to its next layout).
epyc_load() {
	_tag=$1 _n=$2
	shift 2
	insmod $VC_KO preset=epyc-7742 "$@" && return 0
	while [ "$_n" -gt 0 ]; do
		ktap_fail "$_tag: vcpufreq loads"
		_n=$((_n - 1))
	done
	return 1
}

# CPUs that can be taken offline (x86 keeps the boot CPU: no online file).
hotplug_cpus() {
	for d in $CPUSYS/cpu[0-9]*; do
		[ -f "$d/online" ] && echo "${d##*cpu}"
	done | sort -n
}

cpu_set() { # cpu 0|1
	[ "$(cat $CPUSYS/cpu$1/online)" = "$2" ] || echo "$2" > $CPUSYS/cpu$1/online
}

all_online() {
	for c in $(hotplug_cpus); do cpu_set "$c" 1 2>/dev/null; done
}

# policy_of CPU: the policy directory that has CPU in related_cpus.
policy_of() {
	for p in $(policies); do
		case " $(cat "$p/related_cpus") " in *" $1 "*) echo "$p"; return 0 ;; esac
	done
	return 1
}

# Where the tunables of policy POLICY live: one global set on x86, one per
# policy when the driver asks for governor-per-policy.
tunables_of() {
	if [ -d "$1/sugov_inv" ]; then echo "$1/sugov_inv"; else echo "$CPUFREQ/sugov_inv"; fi
}

is_loaded() { [ -d "/sys/module/$1" ]; }

# Everything back to nothing, whatever state a test left (never fails).
unload_all() {
	all_online
	set_all scaling_governor performance 2>/dev/null
	is_loaded vcpufreq && rmmod vcpufreq 2>/dev/null
	is_loaded sugov_inv && rmmod sugov_inv 2>/dev/null
	is_loaded freq_invariance && rmmod freq_invariance 2>/dev/null
	return 0
}

# load_stack VCPUFREQ-ARGS...: freq_invariance, sugov_inv and vcpufreq
# (with the given parameters), sugov_inv selected on every policy.
load_stack() {
	{ is_loaded freq_invariance || insmod $FI_KO; } &&
		{ is_loaded sugov_inv || insmod $SG_KO; } &&
		insmod $VC_KO "$@" &&
		set_all scaling_governor sugov_inv
}

modprobe_governors() {
	for m in cpufreq_powersave cpufreq_userspace cpufreq_ondemand cpufreq_conservative; do
		modprobe "$m" 2>/dev/null
	done
	return 0
}

reset_record() { echo 1 > $VCF/reset; }

# rec_cpus POLICY: the CPUs a policy's requests can be recorded under
# (vcpufreq records the policy's lead CPU, which hotplug can move).
rec_cpus() { cat "$1/related_cpus"; }

# requests_after T0 CPUS...: the kHz of every request recorded for one of
# CPUS after T0 (ns), oldest first.
requests_after() {
	_t0=$1
	shift
	awk -v t0="$_t0" -v cpus=" $* " '$1 >= t0 && index(cpus, " " $2 " ") { print $3 }' $VCF/requests
}

# The polling helpers below take the same arguments first: CMP (ge, le,
# lt, gt, eq), KHZ, and the longest wait in ms; then what they watch.

# khz_cmp CMP A B: A compares with B (shell builtins only)
khz_cmp() {
	case $1 in
	ge) [ "${2:-0}" -ge "$3" ] ;;
	le) [ "${2:-0}" -le "$3" ] ;;
	lt) [ "${2:-0}" -lt "$3" ] ;;
	gt) [ "${2:-0}" -gt "$3" ] ;;
	eq) [ "${2:-0}" -eq "$3" ] ;;
	*) return 1 ;;
	esac
}

# wait_request CMP KHZ MS T0 CPUS...: wait up to MS until a request for one
# of CPUS after T0 (ns) compares with KHZ; 0 when seen.
wait_request() {
	_cmp=$1 _khz=$2 _ms=$3 _t0=$4
	shift 4
	_waited=0
	while :; do
		if awk -v t0="$_t0" -v c="$_cmp" -v k="$_khz" -v cpus=" $* " '
			$1 >= t0 && index(cpus, " " $2 " ") {
				if ((c == "ge" && $3 >= k) || (c == "le" && $3 <= k) ||
				    (c == "lt" && $3 < k) || (c == "gt" && $3 > k) ||
				    (c == "eq" && $3 == k)) { found = 1; exit }
			}
			END { exit !found }' $VCF/requests; then
			return 0
		fi
		[ "$_waited" -ge "$_ms" ] && return 1
		sleep 0.05
		_waited=$((_waited + 50))
	done
}

# bg_stop PID: stop a background job of this shell by its PID (none: "")
bg_stop() {
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# Background load, stopped by its PID only.
LOAD_PID=
load_start() { # stress-ng arguments
	stress-ng "$@" -q >/dev/null 2>&1 &
	LOAD_PID=$!
}
load_stop() { bg_stop "$LOAD_PID"; LOAD_PID=; }

# A busy loop pinned to CPU $1 (sh, no fork per iteration), by its PID.
spin_start() {
	taskset -c "$1" sh -c 'while :; do :; done' &
	SPIN_PID=$!
}
spin_stop() { bg_stop "$SPIN_PID"; SPIN_PID=; }

# cur_khz CPU: the frequency vcpufreq last set on CPU.
cur_khz() { awk -v c="$1" '$1 == c { print $2 }' $VCF/cur; }

# wait_all_cur CMP KHZ MS: wait up to MS until every online CPU's
# frequency (vcpufreq's cur) compares with KHZ; 0 when it does.
wait_all_cur() {
	_w=0
	while :; do
		_ok=1
		for _c in $(online_cpus); do
			khz_cmp "$1" "$(cur_khz "$_c")" "$2" || _ok=0
		done
		[ $_ok = 1 ] && return 0
		[ $_w -ge "$3" ] && return 1
		sleep 0.1
		_w=$((_w + 100))
	done
}

# wait_cur CMP KHZ MS CPU: wait up to MS until CPU's frequency (vcpufreq's
# cur, the last request it took) compares with KHZ; 0 when it does.
# Shell builtins only, polled every 100 ms: under TCG a poller that forks
# awk every few ms keeps its own CPU busy and so the governor up, which on
# a shared policy is the policy itself.
wait_cur() {
	_w=0
	while :; do
		_f=
		while read -r _c _k; do
			[ "$_c" = "$4" ] && _f=$_k && break
		done < $VCF/cur
		khz_cmp "$1" "$_f" "$2" && return 0
		[ "$_w" -ge "$3" ] && return 1
		sleep 0.1
		_w=$((_w + 100))
	done
}

# idle_ticks: "cpuN idle+iowait" of every CPU from /proc/stat
idle_ticks() { awk '/^cpu[0-9]/ { print $1, $5 + $6 }' /proc/stat; }

# all_busy: no online CPU idled more than 5 % of 0.5 s (a load runs
# everywhere), else which did
all_busy() {
	idle_ticks > /tmp/sgt-lib-idle
	sleep 0.5
	idle_ticks | awk -v hz=100 'FNR == NR { a[$1] = $2; next }
		($1 in a) && $2 - a[$1] > 0.05 * 0.5 * hz { printf "%s idled %d%% ", $1, ($2 - a[$1]) * 2; bad = 1 }
		END { exit bad }' /tmp/sgt-lib-idle -
}

# at_top KHZ: every online CPU busy and at KHZ (vcpufreq's cur) or
# above, else why not
at_top() {
	wait_all_cur ge "$1" 3000 ||
		{ echo "not every CPU at $1 under load: $(awk '{ print $1 ":" $2 }' $VCF/cur | tr '\n' ' ')"; return 1; }
	_w=0
	until _b=$(all_busy); do
		_w=$((_w + 1))
		[ $_w -ge 6 ] && { echo "not every CPU busy under load: $_b"; return 1; }
	done
	return 0
}

# drives CPU: sugov_inv follows a load on CPU.  Idle first, CPU must run
# below its policy's maximum within IDLE_SETTLE_MS (default 3000); a busy
# loop pinned to CPU must then bring it to the maximum within
# BUSY_SETTLE_MS (default 2000); idle again, below it within
# IDLE_SETTLE_MS.  With every other CPU idle, only CPU's own update_util
# hook explains the rise (for a shared policy too: the idle CPUs' stale
# util is ignored).  Prints why on failure.  The debug kernel (KASAN and
# lockdep under TCG, 2 vCPUs: this shell shares the CPU it waits on) and
# the 16-vCPU guest (eight vCPUs per host core) get longer windows from
# tools/check.sh.
IDLE_SETTLE_MS=${IDLE_SETTLE_MS:-3000}
BUSY_SETTLE_MS=${BUSY_SETTLE_MS:-2000}
drives() {
	_p=$(policy_of "$1") || { echo "cpu$1: no policy"; return 1; }
	_max=$(cat "$_p/scaling_max_freq")
	wait_cur lt "$_max" "$IDLE_SETTLE_MS" "$1" ||
		{ echo "cpu$1 idle: ${_p##*/} stays at $(cur_khz "$1") kHz for ${IDLE_SETTLE_MS} ms"; return 1; }
	_t=$(now_ns)
	spin_start "$1"
	wait_cur ge "$_max" "$BUSY_SETTLE_MS" "$1"
	_up=$?
	spin_stop
	if [ "$_up" != 0 ]; then
		# shellcheck disable=SC2046
		echo "cpu$1 busy: ${_p##*/} not at ${_max} kHz in ${BUSY_SETTLE_MS} ms (requests: $(requests_after "$_t" $(rec_cpus "$_p") | tr '\n' ' '))"
		return 1
	fi
	wait_cur lt "$_max" "$IDLE_SETTLE_MS" "$1" ||
		{ echo "cpu$1 idle again: ${_p##*/} still at $(cur_khz "$1") kHz after ${IDLE_SETTLE_MS} ms"; return 1; }
	return 0
}

# drives_all: drives for every online CPU, reasons on stdout.
drives_all() {
	_rc=0
	for _c in $(online_cpus); do drives "$_c" || _rc=1; done
	return $_rc
}

# Slab memory the kernel cannot reclaim, kB.
sunreclaim_kb() { awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo; }

# slab_snapshot FILE: "cache active_objects" of every slab cache, a second
# after the call, and after SLUB's per-CPU slabs are flushed (writing a cache's shrink file), so
# that the counts are exact rather than rounded to a slab per CPU.
# The shrink files stay open in a background reader from the first
# snapshot until slab_release: kernfs allocates a file's open node
# (struct kernfs_open_node, 72 bytes on 6.1: kmalloc-96) at its first
# open and frees it through kfree_rcu() at its last close
# (fs/kernfs/file.c), so one write to each of some 250 shrink files left
# as many nodes waiting for a grace period when /proc/slabinfo was read.
# Measured with slub_debug=U,kmalloc-96 (alloc_traces): 255, 216 and 255
# nodes from kernfs_fop_open in three snapshots of one 50-lifecycle run,
# the only kmalloc-96 call site that moved; in a gate of 32653d1
# kmalloc-96 "grew" by 38 objects per half.
SLAB_HOLDER=
slab_snapshot() {
	if [ -z "$SLAB_HOLDER" ]; then
		tail -q -f -s 100000 /sys/kernel/slab/*/shrink > /dev/null 2>&1 &
		SLAB_HOLDER=$!
		# Until it holds them all (its fds: 0-2 and one a file), 5 s.
		_n=$(ls /sys/kernel/slab | wc -l) _t=0
		while [ "$(ls /proc/$SLAB_HOLDER/fd 2>/dev/null | wc -l)" -lt $((_n + 3)) ] && [ $_t -lt 50 ]; do
			sleep 0.1
			_t=$((_t + 1))
		done
		[ $_t -lt 50 ] || ktap_diag "slab_snapshot: the reader holds $(ls /proc/$SLAB_HOLDER/fd 2>/dev/null | wc -l) fds, not all $_n shrink files and 3 after 5 s"
	fi
	sync
	# Objects freed through RCU (kfree_rcu) count as allocated until a
	# grace period and the batch after it: on a loaded TCG host both lag,
	# and a backlog that grows with the load rate read as steady growth
	# of kmalloc-8 in a CI run.  A second lets them drain.
	sleep 1
	echo 3 > /proc/sys/vm/drop_caches
	for _s in /sys/kernel/slab/*/shrink; do echo 1 > "$_s" 2>/dev/null; done
	awk 'NR > 2 { print $1, $2 }' /proc/slabinfo > "$1"
}

# slab_settle CACHE...: wait until the caches' object counts (after SLUB's
# per-CPU slabs are flushed) have not fallen for 2 s in a row, 20 s at
# most.  Objects freed through call_rcu() and call_srcu() count as
# allocated until both grace periods and their callbacks have passed: a
# tracepoint's probe array (kernel/tracepoint.c, release_probes(): 64
# bytes for one probe, kmalloc-64) waits for both, and the chain rule
# frees two a cycle.  A backlog drains once the cycles stop; a leak does
# not.  (kmalloc-64 grew by 26 objects in one half of 50-lifecycle's
# cycles and by 4 in the next two in a make check of d43a499, kmemleak
# on the debug kernel finding nothing: such a backlog is one
# explanation, not one measured.)
slab_settle() {
	_prev= _flat=0 _t=0
	while [ $_flat -lt 2 ] && [ $_t -lt 20 ]; do
		for _c in "$@"; do echo 1 > "/sys/kernel/slab/$_c/shrink" 2>/dev/null; done
		_n=$(awk -v s=" $* " 'NR > 2 && index(s, " " $1 " ") { n += $2 } END { print n + 0 }' /proc/slabinfo)
		if [ -n "$_prev" ] && [ "$_n" -ge "$_prev" ]; then
			_flat=$((_flat + 1))
		else
			_flat=0
		fi
		_prev=$_n
		sleep 1
		_t=$((_t + 1))
	done
	[ $_flat -ge 2 ] || ktap_diag "slab_settle: $* still falling after 20 s ($_n objects)"
	return 0
}

# slab_release: close the shrink files slab_snapshot holds open.
slab_release() {
	[ -n "$SLAB_HOLDER" ] && kill "$SLAB_HOLDER" 2>/dev/null
	SLAB_HOLDER=
	return 0
}

# slab_steady_growth S0 S1 S2: "cache g" for every cache that grew in both
# intervals S0..S1 and S1..S2, g the smaller growth, largest first.  A
# leak grows one cache steadily; the rest of the kernel grows some cache
# or other by tens of objects now and then (files, dentries, pids).
# The inode and dentry caches (inode_cache, *_inode_cache, lsm_inode_cache,
# dentry) are left out: drop_caches frees their objects through RCU, so a
# snapshot counts a few slabs more or less at random (lsm_inode_cache read
# 11008..11397 here across snapshots of an unchanged system, three rising
# in a row).  Our modules allocate none of them themselves; a sysfs or
# debugfs entry they leave behind is caught by name instead (50's cycle
# wants every one of them gone after rmmod) and in kernfs_node_cache,
# which is exact.  kmalloc-8 is left out too: it holds kernfs and module
# names, freed partly through RCU, and grew past 50-lifecycle's limit in
# both halves in fresh-clone runs (118 and 284 objects on 6.1, 133 over
# two halves on 6.12) while kmemleak on the debug kernel found nothing.
# No object of ours fits in 8 bytes: a leaked name goes with the leaked
# kobject or structure that holds it, which a larger cache shows.  filp
# (struct file) is left out for the same reason as the inode caches: a
# closed file is freed through call_rcu() (file_free(), fs/file_table.c),
# and the test's own shells and readers open hundreds a cycle; it grew
# by one slab (16 objects) in each half of 50-lifecycle's 10 cycles on a
# loaded host.  No module of ours creates a file.  vmap_area is left out
# because it counts the vmalloc space's free fragments as well as its
# areas (mm/vmalloc.c splits a free vmap_area node on each allocation)
# and the areas vfree() has not yet purged ("unpurged vm_area" in
# /proc/vmallocinfo): module loads and unloads move both, and it grew by
# 14 objects per 5 cycles in both halves of one fresh-clone run and by
# none in the next.  Our modules vmalloc nothing; a kthread they leave
# running shows in task_struct.  kmemleak's own caches (kmemleak_object,
# kmemleak_scan_area; the debug kernel) are left out: one object per
# object tracked, freed through RCU, so they shadow every other cache's
# churn (kmemleak_object 20 objects per half, then 8 over 10 drained
# cycles, in a make check of ab25d4c), and kmemleak itself reports what
# they track.
slab_steady_growth() {
	awk 'FILENAME == ARGV[1] { a[$1] = $2; next }
	     FILENAME == ARGV[2] { b[$1] = $2; next }
	     $1 ~ /(^|_)inode_cache$|^dentry$|^filp$|^kmalloc-8$|^vmap_area$|^kmemleak_/ { next }
	     ($1 in a) && ($1 in b) {
		g1 = b[$1] - a[$1]; g2 = $2 - b[$1]
		g = g1 < g2 ? g1 : g2
		if (g > 0) print $1, g
	     }' "$1" "$2" "$3" | sort -k2 -n -r
}

# vmalloc_unpurged: how many areas vfree() has freed but not yet purged
# (see slab_steady_growth), for the diagnostics
vmalloc_unpurged() { grep -c 'unpurged vm_area$' /proc/vmallocinfo; }

# kmemleak (debug kernel only): clear, then after the scenario scan and
# print the reports that name our modules, or show a bare address in a
# backtrace ("[<hash>] 0xffffffffc00e8e32": code no longer in kallsyms,
# a module unloaded since: ours in these tests).
have_kmemleak() { [ -w $KMEMLEAK ]; }
kmemleak_clear() { have_kmemleak && echo clear > $KMEMLEAK; return 0; }
kmemleak_ours() {
	have_kmemleak || return 0
	# Objects must be older than kmemleak's minimum age (5 s) and be
	# seen unreferenced by two scans before they are reported.
	sleep 5
	echo scan > $KMEMLEAK
	echo scan > $KMEMLEAK
	awk '
		/^unreferenced object/ { if (ours) print blk; blk = $0; ours = 0; next }
		{ blk = blk "\n" $0 }
		/sugov_inv|freq_inv|vcpufreq|\] 0x[0-9a-f]+$/ { ours = 1 }
		END { if (ours) print blk }' $KMEMLEAK
}

# kmemleak_result: the KTAP result "no leak from our modules" (skipped on
# a kernel without kmemleak), the reports shown as diagnostics
kmemleak_result() {
	if have_kmemleak; then
		_leaks=$(kmemleak_ours)
		[ -n "$_leaks" ] && echo "$_leaks" | head -n 30 | sed 's/^/# /'
		ktap_result "kmemleak: no leak from our modules" $([ -z "$_leaks" ]; echo $?)
	else
		ktap_skip "kmemleak: no leak from our modules" "kernel without kmemleak"
	fi
}
