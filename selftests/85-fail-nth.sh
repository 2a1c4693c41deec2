#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every allocation failure, one at a time, in the operations an
# administrator performs: loading each module with its parameters,
# selecting sugov_inv on per-CPU and shared policies (the first policy,
# which creates the tunables, and a second one, which joins them; and
# selecting it again), each tunable write, and a CPU going offline and
# coming back.  The sweep is syzkaller's (Documentation/fault-injection/
# fault-injection.rst, /proc/<pid>/fail-nth): for N = 1, 2, ... arm the
# Nth injection point of a task, run the operation, and stop at the
# first N the operation no longer reaches; its count of points is what
# each line reports.  selftests/fail-nth (built with the guest's
# archive) arms the task and runs the operation.
#
# A module load passes a few hundred points in the kernel's module
# loader (the image, its sections, symbols and sysfs) before the
# module's init runs, each taking a whole load on the debug kernel under
# TCG (seconds): too many to fail one by one in make check, and the
# loader's, not ours.  Those are counted and reported, and the sweep of
# a load starts a few points before the first one of the init, located
# in the trace of a load (from_init()).
#
# Each failure must give the caller a clean error and leave the state it
# found (modules, policies and their governors, the tunables and their
# values, sysfs and debugfs directories, online CPUs: one snapshot
# compared before and after), and an operation that reports success
# although a point failed (a failure the module tolerates by design,
# such as a debugfs file) must have done its job.  Every operation must
# print no kernel report (WARN, BUG, lockdep, KASAN, UBSAN; the kernel's
# own "page allocation failure" notes are not reports), and kmemleak
# must find nothing of ours after the sweep.
#
# Needs a kernel with CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
# CONFIG_FAIL_PAGE_ALLOC and their debugfs (the project's debug test
# kernel, tools/kunit/sugov_inv.config); skips elsewhere.  Slab and page
# allocations that may sleep are failed too (ignore-gfp-wait=N); the
# pages behind vmalloc() (__GFP_HIGHMEM, hundreds per module image) are
# not, as the kernel's default: vmalloc() unwinds them itself, and its
# own bookkeeping allocations are still failed.
#
# The CPU online/offline callbacks of cpufreq and of our modules run in
# the CPU's hotplug thread (cpuhp/N), not in the writer: that thread is
# the one armed for them, and for the per-CPU part of freq_invariance's
# load (its probe of the CPU and the CPU's sysfs report).  Likewise the
# chain rule's probes are registered and removed by sugov_inv's kthread
# worker (sugov_inv_chain), after the write of chain_window_us returned:
# that thread is armed, and its count read once it is idle again.
#
# FAILNTH_OPS selects groups: "all" (default), or some of probe
# (freq_invariance's load; alone in a guest booted with tools/vm/run
# --cppc, where the AMD CPPC backend probes), load (sugov_inv's and
# vcpufreq's), gov (governor switches and tunables), hotplug, shared
# (a shared policy's switches and hotplug).  FAILNTH_MAX bounds N
# (default 2000).  FAILNTH_ONLY, a shell pattern, runs only the sweeps
# whose description it matches (the others report SKIP), e.g.
# FAILNTH_OPS=probe FAILNTH_ONLY="*cpu1's hotplug thread*" for the
# per-CPU part of freq_invariance's load alone.  Runtime on the debug kernel with 2 vCPUs under TCG:
# some 10 s of wall time per failed point, an hour or more for all
# groups (Documentation/development.rst, "Failure paths").
. "$(dirname "$0")/ktap.sh"
. "$(dirname "$0")/sugov-lib.sh"

FN=$(dirname "$0")/fail-nth
OPS=${FAILNTH_OPS:-all}
MAXN=${FAILNTH_MAX:-2000}
ONLY=${FAILNTH_ONLY:-*}
# FAILNTH_FULL=1 fails every point; otherwise a subset of each operation
# (the one make check and selftests/mutations.sh both fail): its first
# FAILNTH_FIRST (1) points one by one (the allocations an init starts
# with, whose unwind is the shortest), then evenly spaced ones to at
# most FAILNTH_EACH (3), and always the last (whose failure unwinds
# everything before it).  Deterministic, so a mutation is caught or not
# the same way each run.
FULL=${FAILNTH_FULL:-0}
# FAILNTH_BUDGET_S (0: none): seconds of guest time from here after
# which no point is failed any more and the sweeps left report SKIP with
# what they covered, so that a caller with a hard limit (make check in
# CI) gets the sweep's results rather than a killed guest.  Guest time
# runs ahead of the wall clock in a loaded host's TCG guest, never
# behind, so the budget ends early rather than late.
BUDGET_S=${FAILNTH_BUDGET_S:-0}
# One sweep's deadline: a sweep that has not ended after SWEEP_S seconds
# fails with the point it was at, rather than running into the guest's
# silence watchdog with nothing said (a subset sweep takes at most a
# minute or two on the debug kernel; 0 is none, the default of
# FAILNTH_FULL=1, whose sweeps fail every point).
SWEEP_S=600
[ "$FULL" = 1 ] && SWEEP_S=0
SWEEP_S=${FAILNTH_SWEEP_S:-$SWEEP_S}
uptime_s() { read -r _up _ < /proc/uptime; echo "${_up%.*}"; }
END_S=$(($(uptime_s) + BUDGET_S))
# out_of_time: the budget is spent
out_of_time() { [ "$BUDGET_S" -gt 0 ] && [ "$(uptime_s)" -ge "$END_S" ]; }
FIRST=${FAILNTH_FIRST:-1}
EACH=${FAILNTH_EACH:-3}
[ "$EACH" -gt "$FIRST" ] || EACH=$((FIRST + 1))
DBG=/sys/kernel/debug
FI_ARGS=reference=midpoint
SG_ARGS="freq_max_policy=overutil-detect rate_limit_us=2000"
# One policy for both CPUs: the cpufreq core's policy creation (its
# points are most of this load's) runs once
VC_ARGS="preset=epyc-7742 emulate=1 shared=1"
NOTES=/tmp/fn-notes

# Groups and their test counts; two more for the whole run's kernel
# log and kmemleak
[ "$OPS" = all ] && OPS="probe load gov hotplug shared"
GROUPS= plan=2
for g in $OPS; do
	case $g in
	probe|load) plan=$((plan + 2)) ;;
	hotplug) plan=$((plan + 3)) ;;
	gov) plan=$((plan + 10)) ;;
	shared) plan=$((plan + 5)) ;;
	*) echo "85-fail-nth: unknown group $g in FAILNTH_OPS" >&2; exit 2 ;;
	esac
	GROUPS="$GROUPS $g"
done
ktap_plan $plan

why_not=
[ -e /proc/self/fail-nth ] || why_not="kernel without CONFIG_FAULT_INJECTION (/proc/self/fail-nth)"
[ -z "$why_not" ] && { [ -w $DBG/failslab/ignore-gfp-wait ] && [ -w $DBG/fail_page_alloc/min-order ]; } ||
	why_not=${why_not:-"no failslab/fail_page_alloc in debugfs (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)"}
[ -z "$why_not" ] && [ ! -x "$FN" ] && why_not="no selftests/fail-nth (built by tools/vm/run)"
if [ -n "$why_not" ]; then
	while [ "$KTAP_TESTNO" -lt "$KTAP_PLANNED" ]; do ktap_skip "fail-nth sweep" "$why_not"; done
	ktap_finish
fi

unload_all
# Fail sleeping allocations and order-0 pages too; no log line or stack
# dump per injected failure (thousands of them).
for f in failslab fail_page_alloc; do
	echo N > $DBG/$f/ignore-gfp-wait
	echo 0 > $DBG/$f/verbose
done
echo 0 > $DBG/fail_page_alloc/min-order
# kmemleak allocates its own record of each allocation from its own
# cache, a second point that it survives by design (a pool stands in):
# booted with slub_debug=A;-,kmemleak_object,... (every cache but
# kmemleak's flagged for failslab), the cache filter leaves it out and
# halves the sweep.
if grep -q 'slub_debug=A;-,kmemleak_object' /proc/cmdline; then
	echo Y > $DBG/failslab/cache-filter
	ktap_diag "failslab: every cache but kmemleak's (slub_debug=A)"
fi
kmemleak_clear
ktap_dmesg_mark

# --- the state an operation must leave as it found it -------------------------
# Shell builtins only (no fork per file): it is read after every run.
rd() { _v=; read -r _v < "$1" 2>/dev/null; printf '%s' "$_v"; }
state() {
	for m in freq_invariance sugov_inv vcpufreq; do
		is_loaded $m && echo "module $m"
	done
	for d in $CPUSYS/cpu[0-9]*; do
		[ -f "$d/online" ] && echo "${d##*/} online $(rd "$d/online") state $(rd "$d/hotplug/state")"
	done
	for p in $CPUFREQ/policy[0-9]*; do
		[ -d "$p" ] || continue
		echo "${p##*/} $(rd "$p/scaling_governor") [$(rd "$p/affected_cpus")]" \
			"$(rd "$p/scaling_min_freq")-$(rd "$p/scaling_max_freq")"
	done
	for f in $TUNABLES; do
		[ -f "$CPUFREQ/sugov_inv/$f" ] && echo "$f $(rd "$CPUFREQ/sugov_inv/$f")"
	done
	for d in $DBG/sugov_inv $DBG/freq_invariance $DBG/vcpufreq $FISYS \
		 $FISYS/cpu[0-9]* /sys/class/powercap/intel-rapl:0; do
		[ -e "$d" ] && echo "dir $d"
	done
}

# kthread_pid COMM: the PID of the kthread named COMM in its stat
kthread_pid() {
	for s in /proc/[0-9]*/stat; do
		read -r _pid _comm _rest < "$s" 2>/dev/null
		[ "$_comm" = "($1)" ] && { echo "$_pid"; return 0; }
	done
	return 1
}
# A hotplug thread's PID: cpuhp/N
cpuhp_pid() { kthread_pid "cpuhp/$1"; }

# Kernel reports since MARK, without the kernel's notes on a failed
# allocation (warn_alloc(): "page allocation failure", "vmalloc error",
# with a stack dump that is not a report).
reports_since() {
	log_since "$1" | awk '
		/page allocation failure: order:|vmalloc error: size|allocation failed, mode:/ { skip = 1 }
		skip { if (/<\/TASK>/) skip = 0; next }
		{ print }' |
		grep -E 'WARNING:|DEBUG_LOCKS_WARN_ON|BUG:|Oops|general protection|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU|KASAN:|UBSAN:|sleeping function called from invalid context|Call Trace:|INFO: task .* blocked'
}

no_reports() {
	_rep=$(reports_since "$KTAP_DMESG_MARK")
	[ -n "$_rep" ] && echo "$_rep" | head -n 20 | sed 's/^/# /'
	ktap_result "no kernel report over the whole sweep" $([ -z "$_rep" ]; echo $?)
}

# init_points MODULE.ko PARAMS: the number of points a load of the
# module passes in its init and after (the module's own, the part worth
# failing).  Counted in one load with nothing failed, from the trace: a
# kprobe event on should_fail_ex() (every point, the one function
# fail-nth counts in) and the initcall_start event, both of fail-nth's own
# task.
TR=/sys/kernel/tracing
init_points() {
	[ -w $TR/kprobe_events ] || { echo 0; return; }
	echo 'p:failnth/point should_fail_ex' >> $TR/kprobe_events 2>/dev/null
	echo 'p:failnth/load __x64_sys_init_module' >> $TR/kprobe_events 2>/dev/null
	# Every task's allocations pass there: only fail-nth's are kept
	echo 'comm == "fail-nth"' > $TR/events/failnth/point/filter
	echo 1 > $TR/events/failnth/enable
	echo 1 > $TR/events/initcall/initcall_start/enable
	echo > $TR/trace
	"$FN" 1000000 insmod "$1" "$2" > /dev/null
	echo 0 > $TR/events/failnth/enable
	echo 0 > $TR/events/initcall/initcall_start/enable
	# From the syscall on (fail-nth reads the image and opens files
	# before it, unarmed), in task context (the third flag: an
	# interrupt on fail-nth's time is not its to count)
	awk '$1 !~ /^fail-nth-/ { next }
	     / load:/ { on = 1; next }
	     on && / initcall_start:/ { init = 1; next }
	     init && / point:/ && substr($3, 3, 1) == "." { n++ }
	     END { print n + 0 }' $TR/trace
	# Removing the events empties the buffer: after reading it
	echo '-:failnth/point' >> $TR/kprobe_events
	echo '-:failnth/load' >> $TR/kprobe_events
	_m=${1##*/}
	is_loaded "${_m%.ko}" && rmmod "${_m%.ko}"
}

# from_init MODULE.ko PARAMS: where a load's sweep starts.  The loader's
# count of points moves by a dozen or more between loads (page tables
# for the module's vmalloc() area, percpu chunks, KASAN's stack depot),
# the init's does not: so the start is counted back from the end of an
# unarmed load, the init's points and FROM_MARGIN (8) more.
FROM_MARGIN=8
from_init() {
	_after=$(init_points "$1" "$2")
	_line=$("$FN" 1000000 insmod "$1" "$2")
	_m=${1##*/}
	is_loaded "${_m%.ko}" && rmmod "${_m%.ko}"
	_all=${_line#*points=}
	_all=${_all%% *}
	_p=$((_all - _after - FROM_MARGIN))
	[ "$_after" -gt 0 ] && [ "$_p" -gt 1 ] && echo "$_p" || echo 1
}

# sweep DESC [-t TID [-w WCHAN]] [-f FROM] OP ARGS...: the operation's
# sweep, one KTAP line; -t and -w are fail-nth's (TID armed; its count
# read once it sleeps in WCHAN); with -f, N starts at FROM (the points
# before it are counted, not failed).
# Hooks, set by the caller: op_ok (after a run that returned success:
# check that the operation did its job, undo it, print why not), and
# op_check (after every run; by default the state must be what it was
# before the operation).
op_check() {
	_now=$(state)
	[ "$_now" = "$before" ] && return 0
	echo "state changed:"
	printf '%s\n' "$before" > /tmp/fn-before
	printf '%s\n' "$_now" | diff /tmp/fn-before - | grep '^[-+][^-+]' | head -n 6
}
# op_judge: _r, what is wrong after a run that returned success: what
# op_ok printed, whatever its exit status (most op_ok end with an undo
# that succeeds), else the state's difference from before
op_judge() {
	_r=$(op_ok 2>&1) || _r=${_r:-"op_ok failed"}
	[ -n "$_r" ] || _r=$(op_check 2>&1)
}
# run_nth N: the operation once with its Nth point armed (fail-nth's line)
run_nth() {
	if [ -n "$_wchan" ]; then
		"$FN" -t "$_tid" -w "$_wchan" "$@" 2>&1
	elif [ -n "$_tid" ]; then
		"$FN" -t "$_tid" "$@" 2>&1
	else
		"$FN" "$@" 2>&1
	fi
}
# subset_count OP ARGS...: a subset sweep's plan, from one run with
# nothing failed: _count (the operation's points) and _step (the stride
# after the first FIRST points, so that at most EACH are failed).  Empty
# _count, and _why set, when that run fails or changes the state.
subset_count() {
	_count= _step=1
	_line=$(run_nth 1000000 "$@")
	case $_line in
	n=*" injected=0 points="*" rc=0") op_judge ;;
	*) _r="fail-nth with nothing failed: $_line" ;;
	esac
	[ -n "$_r" ] && { _why="nothing failed: $(echo "$_r" | head -n 6 | tr '\n' ';')"; return; }
	_count=${_line#*points=}
	_count=${_count%% *}
	_rest=$((_count - _from - FIRST + 1))
	[ "$_rest" -gt $((EACH - FIRST)) ] &&
		_step=$(((_rest + EACH - FIRST - 1) / (EACH - FIRST)))
}
# subset_next: the N after _n in a subset sweep: the first FIRST points
# one by one, then every _step-th, and the last point (whose failure
# unwinds the most) always; past the last, MAXN + 1 (the end).
subset_next() {
	if [ "$_n" -ge "$_count" ]; then
		_points=$_count
		_n=$((MAXN + 1))
	elif [ "$_n" -lt $((_from + FIRST - 1)) ]; then
		_n=$((_n + 1))
	else
		_n=$((_n + _step))
		[ "$_n" -gt "$_count" ] && _n=$_count
	fi
}
sweep() {
	_desc=$1 _tid= _wchan= _from=1
	shift
	[ "$1" = -t ] && { _tid=$2; shift 2; }
	[ "$1" = -w ] && { _wchan=$2; shift 2; }
	[ "$1" = -f ] && { _from=$2; shift 2; }
	# shellcheck disable=SC2254
	case $_desc in
	$ONLY) ;;
	*) ktap_skip "$_desc" "not selected by FAILNTH_ONLY"; return ;;
	esac
	if out_of_time; then
		ktap_skip "$_desc" "FAILNTH_BUDGET_S=$BUDGET_S spent before this sweep"
		return
	fi
	before=$(state)
	_mark=$(log_mark)
	_t0=$(cut -d' ' -f1 /proc/uptime)
	_n=$_from _points= _errs= _tol=0 _why= _retry=0 _failed=0 _count= _late=
	rm -f $NOTES
	[ "$FULL" = 1 ] || subset_count "$@"
	[ -n "$_why" ] && _n=$((MAXN + 1))
	_deadline=$(($(uptime_s) + SWEEP_S))
	while [ "$_n" -le "$MAXN" ]; do
		out_of_time && { _late=1; break; }
		if [ "$SWEEP_S" -gt 0 ] && [ "$(uptime_s)" -ge "$_deadline" ]; then
			_why="sweep not ended after FAILNTH_SWEEP_S=$SWEEP_S s, at N=$_n of ${_count:-?} points, $_failed failed"
			break
		fi
		_line=$(run_nth "$_n" "$@")
		case $_line in
		n=*" injected=0 "*) _inj=0 ;;
		n=*" injected=1 "*) _inj=1 ;;
		*) _why="fail-nth: $_line"; break ;;
		esac
		_rc=${_line##*rc=}
		if [ "$_rc" = 0 ]; then
			op_judge
			[ "$_inj" = 1 ] && _tol=$((_tol + 1))
		else
			_r=$(op_check 2>&1)
			case " $_errs " in *" $_rc "*) ;; *) _errs="$_errs $_rc" ;; esac
		fi
		if [ -n "$_r" ]; then
			_why="n=$_n, $_rc: $(echo "$_r" | head -n 6 | tr '\n' ';')"
			break
		fi
		if [ "$_inj" = 0 ] && [ "$_from" -gt 1 ] && [ "$_retry" -lt 2 ]; then
			# A load's count moves: the end only when two
			# more runs at this N agree
			_retry=$((_retry + 1))
			continue
		fi
		if [ "$_inj" = 0 ]; then
			_points=${_line#*points=}
			_points=${_points%% *}
			break
		fi
		_retry=0
		_failed=$((_failed + 1))
		if [ "$FULL" = 1 ]; then
			_n=$((_n + 1))
		else
			subset_next
		fi
	done
	[ -z "$_points" ] && [ -z "$_why" ] && [ -z "$_late" ] && _why="still failing at N=$MAXN"
	_rep=$(reports_since "$_mark")
	[ -n "$_rep" ] && _why="${_why:+$_why; }kernel report: $(echo "$_rep" | head -n 3 | tr '\n' ';')"
	_t1=$(cut -d' ' -f1 /proc/uptime)
	_which="in turn"
	[ "$FULL" = 1 ] || [ "$_failed" -ge "${_points:-0}" ] ||
		_which="(the first $FIRST, then one in $_step, and the last)"
	[ "$_from" -gt 1 ] && _desc="$_desc: points 1-$((_from - 1)) in the module loader"
	ktap_diag "$_desc: $_points points, $_failed failed $_which; errors:${_errs:- none}; $_tol tolerated; $(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.0f", b - a }') s"
	if [ -n "$_why" ]; then
		echo "$_why" | sed 's/^/# /'
		ktap_fail "$_desc, every other failure clean"
	elif [ -n "$_late" ]; then
		ktap_skip "$_desc" "FAILNTH_BUDGET_S=$BUDGET_S spent after $_failed points failed cleanly"
	elif [ "$FULL" != 1 ]; then
		ktap_ok "$_desc: $_failed of its $_points points failed cleanly"
	elif [ "$_from" -gt 1 ]; then
		ktap_ok "$_desc, each of the other $_failed of $_points failed cleanly"
	else
		ktap_ok "$_desc: each of its $_points points failed cleanly"
	fi
}

# --- freq_invariance's load: backend probe (MSR or CPPC), sysfs, debugfs ------
group_probe() {
	VC_PROBE="preset=epyc-7742"
	cppc=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^sugov_cppc_preset=//p')
	[ -n "$cppc" ] && VC_PROBE="$VC_PROBE emulate=1 cppc_page=$((0x20000000))"
	insmod $VC_KO $VC_PROBE
	ktap_diag "probing with vcpufreq $VC_PROBE; $(grep -m1 -o 'vendor_id.*' /proc/cpuinfo)"
	op_ok() {
		is_loaded freq_invariance || { echo "insmod succeeded, module absent"; return 1; }
		[ -r $FISYS/cpu0/max_p_khz ] || echo "no $FISYS/cpu0 report"
		rmmod freq_invariance || echo "rmmod freq_invariance failed"
	}
	sweep "insmod freq_invariance $FI_ARGS" -f "$(from_init $FI_KO "$FI_ARGS")" \
		insmod $FI_KO "$FI_ARGS"
	# The per-CPU part (probe, report) runs in cpu1's hotplug thread
	if [ -n "$HP1" ]; then
		sweep "insmod freq_invariance $FI_ARGS, cpu1's hotplug thread" -t "$HP1" \
			insmod $FI_KO "$FI_ARGS"
	else
		ktap_skip "insmod freq_invariance, cpu1's hotplug thread" "no cpuhp/1 thread"
	fi
	unload_all
}

# --- sugov_inv's and vcpufreq's loads -------------------------------------------
group_load() {
	insmod $FI_KO
	insmod $VC_KO preset=epyc-7742
	op_ok() {
		is_loaded sugov_inv || { echo "insmod succeeded, module absent"; return 1; }
		grep -qw sugov_inv $CPUFREQ/policy0/scaling_available_governors ||
			echo "sugov_inv not listed"
		rmmod sugov_inv || echo "rmmod sugov_inv failed"
	}
	sweep "insmod sugov_inv $SG_ARGS" -f "$(from_init $SG_KO "$SG_ARGS")" \
		insmod $SG_KO "$SG_ARGS"
	rmmod vcpufreq
	insmod $SG_KO
	op_ok() {
		is_loaded vcpufreq || { echo "insmod succeeded, module absent"; return 1; }
		for c in $(online_cpus); do
			policy_of "$c" > /dev/null || echo "cpu$c: no policy"
		done
		rmmod vcpufreq || echo "rmmod vcpufreq failed"
	}
	sweep "insmod vcpufreq $VC_ARGS" -f "$(from_init $VC_KO "$VC_ARGS")" \
		insmod $VC_KO "$VC_ARGS"
	unload_all
}

# --- selecting sugov_inv, and the tunables, per-CPU policies --------------------------
# gov_switched POLICY: POLICY runs sugov_inv with its tunables; back to
# performance.
gov_switched() {
	[ "$(rd "$1/scaling_governor")" = sugov_inv ] || echo "${1##*/} runs $(rd "$1/scaling_governor")"
	[ -r "$(tunables_of "$1")/rate_limit_us" ] || echo "no tunables"
	echo performance > "$1/scaling_governor" || echo "back to performance failed"
}
# still_governs CPU: sugov_inv's debugfs says it governs CPU.
still_governs() {
	[ "$(awk -v c="$1" '$1 == c { print $2 }' $SGDBG)" = 1 ] && return 0
	echo "cpu$1 no longer governed by sugov_inv"
	return 1
}
P0=$CPUFREQ/policy0
group_gov() {
	load_stack preset=epyc-7742
	P1=$(policy_of 1)
	set_all scaling_governor performance
	op_ok() { gov_switched $P0; }
	sweep "policy0 performance -> sugov_inv, first policy (creates the tunables)" \
		write $P0/scaling_governor sugov_inv
	echo sugov_inv > "$P1/scaling_governor"
	op_ok() { gov_switched $P0; still_governs 1; }
	sweep "policy0 performance -> sugov_inv, second policy (joins the tunables)" \
		write $P0/scaling_governor sugov_inv
	echo sugov_inv > $P0/scaling_governor
	op_ok() { still_governs 0; }
	sweep "policy0 sugov_inv -> sugov_inv again" write $P0/scaling_governor sugov_inv

	# One valid new value each; a failed write keeps the old one
	for t in rate_limit_us:5000 freq_max_policy:max_P \
		 overutil_threshold_pct:90 idle_restore_us:30000; do
		f=$CPUFREQ/sugov_inv/${t%%:*} v=${t#*:}
		old=$(rd "$f")
		case $old in *"["*) old=${old#*[}; old=${old%%]*} ;; esac
		op_ok() {
			_got=$(rd "$f")
			case $_got in *"[$v]"*|"$v") ;; *) echo "${f##*/} reads '$_got' after writing $v" ;; esac
			echo "$old" > "$f" || echo "restoring ${f##*/} failed"
		}
		sweep "write ${t%%:*} = $v" write "$f" "$v"
	done
	chain_sweeps
	unload_all
}

# --- the chain rule's probes, by the sugov_inv_chain worker ----------------------
# With sugov_inv running, chain_window_us 0 -> 10000 has the worker
# register the probes on sched_waking and sched_switch, and 10000 -> 0
# remove them.  The write itself always succeeds: a failed registration
# must leave the rule off cleanly (sugov_inv/chain: probes off), say so
# in one pr_err, and be tried again at the next toggle; a removal must
# leave no probe whatever fails (the tracepoint core tolerates a failed
# allocation there, leaving a stub in the probe's place).  Registered
# alone, the probes' first registration flips the tracepoints' static
# keys; beside another probe (the sched_waking and sched_switch trace
# events, as on a traced system) a removal allocates the smaller probe
# array, where alone it allocates nothing.  2 points each on the debug
# kernel (one probe array per tracepoint; the unwind of the waking probe
# allocates too beside the events, but only after a point has failed).
CHAIN_ERR="chain rule off: no sched_waking and sched_switch probes"
CHAIN_MARK=/tmp/fn-chain-mark
# chain_errs: the pr_err lines since CHAIN_MARK's mark, then "-12" ones
chain_errs() {
	log_since "$(cat $CHAIN_MARK)" | grep "$CHAIN_ERR" > /tmp/fn-chain-errs
	echo "$(grep -c . /tmp/fn-chain-errs) $(grep -c ": -12\$" /tmp/fn-chain-errs)"
}
# chain_judged CHECKS: run CHECKS (a function that prints what is
# wrong), then mark the log for the next run
chain_judged() {
	$1
	log_mark > $CHAIN_MARK
}
# sched_events 0|1: the sched_waking and sched_switch trace events
sched_events() {
	for _e in sched_waking sched_switch; do
		echo "$1" > $TR/events/sched/$_e/enable || return 1
	done
	[ "$1" = 1 ] || echo > $TR/trace
}
chain_sweeps() {
	W=$CPUFREQ/sugov_inv/chain_window_us
	_cw=$(kthread_pid sugov_inv_chain)
	if [ -z "$_cw" ] || [ ! -w "$W" ]; then
		for _d in "rule alone" "beside the trace events" "removal, beside the trace events"; do
			ktap_skip "chain rule's probes, $_d" "no sugov_inv_chain kthread or chain_window_us"
		done
		return
	fi
	_w0=$(rd $W)
	echo 0 > $W && probes_are off | sed "s/^/# /"
	# A write that turns the rule on
	chain_on_checks() {
		set -- $(chain_errs)
		if grep -q "^# probes registered " $SGCHAIN; then
			[ "$1" = 0 ] || echo "probes registered, but $1 \"$CHAIN_ERR\" said"
		else
			[ "$1" = 1 ] && [ "$2" = 1 ] ||
				echo "probes off with $1 \"$CHAIN_ERR\" said ($2 of -ENOMEM), not one"
			echo 0 > $W && echo 10000 > $W && probes_are registered ||
				echo "a failed registration not tried again at the next toggle"
		fi
		echo 0 > $W && probes_are off || echo "the rule off again: probes still registered"
	}
	op_ok() { chain_judged chain_on_checks; }
	log_mark > $CHAIN_MARK
	sweep "chain rule's probes, rule alone: chain_window_us 0 -> 10000 (the sugov_inv_chain worker)" \
		-t "$_cw" -w kthread_worker_fn write $W 10000
	if ! sched_events 1; then
		ktap_skip "chain rule's probes, beside the trace events" "no sched_waking and sched_switch events in $TR"
		ktap_skip "chain rule's probes, removal, beside the trace events" "no sched events"
		echo "$_w0" > $W
		return
	fi
	log_mark > $CHAIN_MARK
	sweep "chain rule's probes, beside the trace events: chain_window_us 0 -> 10000 (the sugov_inv_chain worker)" \
		-t "$_cw" -w kthread_worker_fn write $W 10000
	# A write that turns it off: nothing to report, no probe left
	echo 10000 > $W && probes_are registered | sed "s/^/# /"
	chain_off_checks() {
		set -- $(chain_errs)
		grep -q "^# probes off " $SGCHAIN || echo "probes still registered after the rule went off"
		[ "$1" = 0 ] || echo "$1 \"$CHAIN_ERR\" said"
		echo 10000 > $W && probes_are registered || echo "not registered again at the next toggle"
	}
	op_ok() { chain_judged chain_off_checks; }
	log_mark > $CHAIN_MARK
	sweep "chain rule's probes, removal, beside the trace events: chain_window_us 10000 -> 0 (the sugov_inv_chain worker)" \
		-t "$_cw" -w kthread_worker_fn write $W 0
	sched_events 0
	echo "$_w0" > $W
}

# --- CPU hotplug ------------------------------------------------------------------
# cpu1's hotplug thread runs some 600 allocations coming online (the
# scheduler's domains, workqueues, ...) and about 100 going offline, all
# but a few dozen the kernel's.  With CONFIG_CPU_HOTPLUG_STATE_CONTROL
# the CPU can stop at any state (hotplug/target): the sweep steps it
# across exactly the states of cpufreq and our modules (cpufreq:online,
# freq_invariance:online, vcpufreq's emulation), from the named state
# below them to the highest of them and back.
HPSTATES=$CPUSYS/hotplug/states
TARGET=$CPUSYS/cpu1/hotplug/target
# state_of NAME: the hotplug state number of NAME
state_of() { awk -v n="$1" '{ i = index($0, ":"); s = substr($0, i + 2) } s == n { print $1 + 0 }' $HPSTATES; }
# our_states: "LOW HIGH", the range of cpufreq's and our states
our_states() {
	for n in cpufreq:online freq_invariance:online cpufreq/vcpufreq:emu; do state_of "$n"; done |
		sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) print lo, hi }'
}
# step_to STATE: cpu1 to STATE, else to the next stoppable state below it
# (some states cannot be stopped at: the write is refused); prints where
step_to() {
	for _s in $(awk -v m="$1" '$1 + 0 <= m { print $1 + 0 }' $HPSTATES | sort -rn); do
		echo "$_s" > $TARGET 2>/dev/null && { echo "$_s"; return 0; }
	done
	return 1
}
ONLINE=
[ -w "$TARGET" ] && ONLINE=$(state_of online)
# hotplug_sweeps TAG: cpu1 up across our states and down again
hotplug_sweeps() {
	_tag=$1
	set -- $(our_states)
	_hi=${2:-}
	if [ -z "$ONLINE" ] || [ -z "$HP1" ] || [ -z "$_hi" ]; then
		ktap_skip "$_tag: cpu1 up through cpufreq's and our states" "no hotplug/target (CONFIG_CPU_HOTPLUG_STATE_CONTROL) or cpuhp/1"
		ktap_skip "$_tag: cpu1 down through them" "no hotplug/target or cpuhp/1"
		return
	fi
	_below=$(step_to $(($1 - 1)))
	ktap_diag "$_tag: states $1-$_hi of cpu1 (from $_below); $(grep -E 'cpufreq|freq_inv' $HPSTATES | tr -s ' ' | tr '\n' ';')"
	op_ok() {
		[ "$(rd $CPUSYS/cpu1/hotplug/state)" = "$_hi" ] || echo "cpu1 at state $(rd $CPUSYS/cpu1/hotplug/state), not $_hi"
		echo "$_below" > $TARGET || echo "cpu1 back to $_below failed"
		# A failed cpufreq_online() is ignored by the hotplug core, and
		# frees the policy, new or inactive (Linux 6.1: its
		# out_free_policy; the governor's init failing is one way
		# there): the next online creates it afresh with the driver's
		# default governor.  The core's rule, not a defect: the policy
		# is put back as found.
		if [ -n "${P1:-}" ] && [ ! -d "$P1" ]; then
			echo "$ONLINE" > $TARGET && echo sugov_inv > "$P1/scaling_governor" &&
				echo "$_below" > $TARGET || echo "${P1##*/} not re-created"
			# op_ok runs in a subshell: counted in a file
			echo x >> /tmp/fn-recreated
		fi
	}
	rm -f /tmp/fn-recreated
	sweep "$_tag: cpu1 up through cpufreq's and our online states (cpu1's hotplug thread)" \
		-t "$HP1" write $TARGET "$_hi"
	ktap_diag "$_tag: ${P1##*/} re-created after a failed online $(cat /tmp/fn-recreated 2>/dev/null | wc -l) times"
	echo "$_hi" > $TARGET
	op_ok() {
		[ "$(rd $CPUSYS/cpu1/hotplug/state)" = "$_below" ] || echo "cpu1 at state $(rd $CPUSYS/cpu1/hotplug/state), not $_below"
		echo "$_hi" > $TARGET || echo "cpu1 back to $_hi failed"
	}
	sweep "$_tag: cpu1 down through them (cpu1's hotplug thread)" \
		-t "$HP1" write $TARGET "$_below"
	echo "$ONLINE" > $TARGET
}
group_hotplug() {
	load_stack preset=epyc-7742
	P1=$(policy_of 1)
	hotplug_sweeps "per-CPU policies"
	ktap_check "per-CPU policies: after the hotplug sweeps, sugov_inv governs cpu1" still_governs 1
	unload_all
}

# --- a shared policy ---------------------------------------------------------------
group_shared() {
	load_stack preset=epyc-7742 shared=1
	P1=$(policy_of 1)
	set_all scaling_governor performance
	op_ok() { gov_switched $P0; }
	sweep "shared policy performance -> sugov_inv" write $P0/scaling_governor sugov_inv
	echo sugov_inv > $P0/scaling_governor
	op_ok() { still_governs 0; still_governs 1; }
	sweep "shared policy sugov_inv -> sugov_inv again" write $P0/scaling_governor sugov_inv
	hotplug_sweeps "shared policy"
	# Everything still works: the governor follows a load on cpu1
	reset_record
	ktap_check "after the sweep: sugov_inv still drives the shared policy" drives 1
	unload_all
}

HP1=$(cpuhp_pid 1)
for g in $GROUPS; do
	group_$g
done
no_reports
leak=$(kmemleak_ours)
[ -n "$leak" ] && echo "$leak" | head -n 20 | sed 's/^/# /'
ktap_result "kmemleak: nothing of ours unreferenced after the sweep" $([ -z "$leak" ]; echo $?)
ktap_finish
