# SPDX-License-Identifier: GPL-2.0-only
#
# KTAP output helpers for the sugov_inv selftests (POSIX sh, busybox ash).
# Source it, call ktap_plan, report each case with ktap_ok / ktap_fail /
# ktap_skip (or ktap_result / ktap_check), then ktap_finish, which exits
# with the kselftest codes: 0 all passed, 1 a failure, 4 all skipped.
#
# Format: Documentation/dev-tools/ktap.rst (KTAP version 1).

KTAP_TESTNO=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0
KTAP_PLANNED=

ktap_plan() {
	KTAP_PLANNED=$1
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_diag() {
	echo "# $*"
}

ktap_ok() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	echo "ok $KTAP_TESTNO $*"
}

ktap_fail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	echo "not ok $KTAP_TESTNO $*"
}

# ktap_skip DESC WHY
ktap_skip() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "ok $KTAP_TESTNO $1 # SKIP $2"
}

# ktap_result DESC STATUS: ok when STATUS is 0.
ktap_result() {
	if [ "$2" -eq 0 ]; then ktap_ok "$1"; else ktap_fail "$1"; fi
}

# ktap_check DESC CMD...: run CMD, ok when it succeeds; its output is
# shown as diagnostics when it fails.
ktap_check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		ktap_ok "$_desc"
	else
		[ -n "$_out" ] && echo "$_out" | sed 's/^/# /' | head -n 20
		ktap_fail "$_desc"
	fi
}

# ktap_check_v DESC CMD...: ktap_check that shows CMD's output (the
# measured numbers) whether it passes or fails.
ktap_check_v() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then _st=0; else _st=1; fi
	[ -n "$_out" ] && echo "$_out" | sed 's/^/# /' | head -n 20
	ktap_result "$_desc" $_st
}

# ktap_finish: totals, and the exit status run.sh and kselftest expect.
ktap_finish() {
	if [ -n "$KTAP_PLANNED" ] && [ "$KTAP_TESTNO" -ne "$KTAP_PLANNED" ]; then
		ktap_diag "planned $KTAP_PLANNED tests but ran $KTAP_TESTNO"
		KTAP_FAIL=$((KTAP_FAIL + 1))
	fi
	echo "# Totals: pass:$KTAP_PASS fail:$KTAP_FAIL xfail:0 xpass:0 skip:$KTAP_SKIP error:0"
	[ "$KTAP_FAIL" -gt 0 ] && exit 1
	[ "$KTAP_PASS" -eq 0 ] && [ "$KTAP_SKIP" -gt 0 ] && exit 4
	exit 0
}

# Kernel log checks shared by every suite: ktap_dmesg_mark before the
# scenario, ktap_dmesg_clean after it (fails on WARN, BUG, oops, lockdep,
# KASAN, UBSAN, a hung task or a kmemleak report printed since the mark).
#
# Marks survive a full ring buffer: counting lines stops working once the
# buffer wraps (the count stays put while old lines go, so "lines after
# N" misses new ones; 50-lifecycle alone fills Debian's 256 kB buffer).
# A marker written to /dev/kmsg is found wherever it is; when it has
# scrolled out, the whole buffer is newer than the mark.
log_mark() {
	_mark="ktap-selftest-mark $$ $(cut -d' ' -f1 /proc/uptime)"
	echo "$_mark" > /dev/kmsg
	echo "$_mark"
}

# log_since MARK: kernel messages after MARK, without timestamps.
log_since() {
	dmesg | sed 's/^\[[^]]*\] //' | awk -v m="$1" '
		{ line[NR] = $0 }
		$0 == m { start = NR }
		END { for (i = start + 1; i <= NR; i++) print line[i] }'
}

ktap_dmesg_mark() {
	KTAP_DMESG_MARK=$(log_mark)
}

# known_reports: the kernel log on stdin without the reports of a known
# kernel bug, which no module of ours causes.  Linux 6.12's
# sched_cpu_dying() (kernel/sched/core.c) checks rq->nr_running before
# it stops the CPU's fair server, whose enqueued deadline entity counts
# in nr_running (inc_dl_tasks(), kernel/sched/deadline.c): "Dying CPU
# not properly vacated!" with 2 tasks counted and only the CPU's stopper
# listed.  Seen on Debian's 6.12.117 with no module loaded (33 rounds of
# offline/online of 3 CPUs under stress-ng); 6.1 has no fair server.
# Such a report is dropped on a 6.12 kernel only, and only when the list
# names nothing but migration/N: a task of ours left behind still fails.
known_reports() {
	case $(uname -r) in 6.12.*) ;; *) cat; return ;; esac
	awk '
	function flush(i) { for (i = 1; i <= n; i++) print buf[i]; n = 0; st = 0 }
	st == 0 && /^-+\[ cut here \]-+$/ { st = 1 }
	st == 0 { print; next }
	{ buf[++n] = $0 }
	st == 1 && /^---\[ end trace/ { st = 2; next }
	st == 1 { if ($0 == "Dying CPU not properly vacated!") dying = 1; next }
	st == 2 && /^CPU[0-9]+ enqueued tasks \(2 total\):$/ { st = 3; next }
	st == 3 && /^[ \t]*pid: [0-9]+, name: migration\/[0-9]+$/ { st = 4; next }
	st == 4 && !/^[ \t]*pid: / && dying { last = buf[n]; n = 0; st = 0; dying = 0; print last; next }
	st >= 2 { dying = 0; flush() }
	END { if (st == 4 && dying) n = 0; flush() }'
}

# log_splats MARK: the lines of kernel reports (WARN, BUG, oops, lockdep,
# KASAN, UBSAN, kmemleak, hung task) logged after MARK.
log_splats() {
	log_since "$1" | known_reports |
		grep -E 'WARNING:|DEBUG_LOCKS_WARN_ON|BUG:|Oops|general protection|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU|KASAN:|UBSAN:|unreferenced object|sleeping function called from invalid context|Call Trace:|INFO: task .* blocked'
}

ktap_dmesg_splats() {
	log_splats "$KTAP_DMESG_MARK"
}

ktap_dmesg_clean() {
	_splat=$(ktap_dmesg_splats)
	if [ -n "$_splat" ]; then
		echo "$_splat" | head -n 20 | sed 's/^/# /'
		ktap_fail "$1"
	else
		ktap_ok "$1"
	fi
}
