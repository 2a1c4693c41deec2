#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make kunit: run the project's KUnit suites on the debug test kernel.
#
#   1. build or reuse the cached test kernel (tools/kunit/build-kernel.sh)
#   2. build freq_invariance.ko, sugov_inv.ko, vcpufreq.ko and
#      sugov_inv_kunit.ko against it in build/kunit/obj (a copy of the
#      sources, so the Debian-kernel build in the tree is left alone)
#   3. boot it in QEMU (TCG) with a busybox initramfs whose /init loads
#      freq_invariance.ko, then sugov_inv_kunit.ko (KUnit runs the suites
#      at load and prints KTAP to the kernel log), scans for leaks and
#      powers off
#   4. parse the kernel log with the kernel's own tools/testing/kunit
#      kunit.py parse, and check the log for lockdep, KASAN, kmemleak,
#      WARN and BUG reports, which fail the run even when every case passed
#
# Output: kunit.py's result tree and summary, then one line
#   kunit: N passed, N failed, N skipped
# counting every leaf case (each row of a parameterized test is a case)
# plus one case for the guest's own checks (modules loaded, log clean).
# The KTAP document is left in build/kunit/results.ktap for make check;
# the logs in build/kunit/{console,dmesg}.log.
#
# Exit status: 0 when nothing failed, 1 when a case or a check failed or
# the run could not complete.  Never read from insmod's exit status: a
# KUnit module loads fine whatever its results.
#
# Environment:
#   KUNIT_SERIES    kernel series of the test kernel: 6.1 (default) or 6.12
#   KUNIT_BUILD     kernel cache (tools/kunit/build-kernel.sh: by default
#                   ~/.cache/sugov-inv/kunit, shared by every clone)
#   KUNIT_OUT       results, logs, initramfs (<tree>/build/kunit, or
#                   <tree>/build/kunit-6.12)
#   KUNIT_OBJ       module object dir ($KUNIT_OUT/obj)
#   KUNIT_KMEMLEAK  0: skip the leak scan (saves ~15 s)
#   KUNIT_TIMEOUT   guest time limit, s (240)
#   KUNIT_SMP       vCPUs (2)
#   KUNIT_MEM       guest memory, MB (512: kmemleak scans all of it)
#   KUNIT_CPU       QEMU -cpu (max)
#   VM_TCG_THREAD   single: every vCPU on one host thread, as make check
#                   runs it (tools/check.sh says why); multi (default)
#   KUNIT_VERBOSE   1: echo the guest console
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERIES=${KUNIT_SERIES:-6.1}
sfx=
[ "$SERIES" = 6.1 ] || sfx=-$SERIES
OUT=${KUNIT_OUT:-$ROOT/build/kunit$sfx}
OBJ=${KUNIT_OBJ:-$OUT/obj}
TIMEOUT=${KUNIT_TIMEOUT:-240}
SMP=${KUNIT_SMP:-2}
MEM=${KUNIT_MEM:-512}
CPU=${KUNIT_CPU:-max}
RESULTS=$OUT/results.ktap
CONSOLE=$OUT/console.log
DMESG=$OUT/dmesg.log
INITRD=$OUT/initramfs.cpio.gz
# Modules the guest loads, in order
LOAD="freq_invariance kunit/sugov_inv_kunit"

mkdir -p "$OUT"
# A stale result must never be counted for this run
rm -f "$RESULTS"

die() {
	echo "kunit: $*" >&2
	echo "kunit: 0 passed, 1 failed, 0 skipped"
	exit 1
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t_start=$(now)
KDIR=$("$ROOT/tools/kunit/build-kernel.sh" -q) || die "test kernel build failed"
KDIR=$(echo "$KDIR" | tail -n 1)
BZIMAGE=$KDIR/arch/x86/boot/bzImage
[ -f "$BZIMAGE" ] || die "no bzImage in $KDIR"

t_mod=$(now)
"$ROOT/tools/vm/build-modules.sh" "$KDIR" "$OBJ" >&2 ||
	die "module build against $KDIR failed"
for m in $LOAD; do
	[ -f "$OBJ/$m.ko" ] || die "$m.ko was not built (is $m's source in the tree?)"
done
echo "kunit: modules built in $(since "$t_mod") s"

# Initramfs: busybox, /init, the modules and the order to load them in.
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,modules}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
cp "$ROOT/tools/kunit/init" "$root/init"
chmod +x "$root/init"
for m in $LOAD; do
	cp "$OBJ/$m.ko" "$root/modules/"
	basename "$m" >> "$root/modules/order"
done
[ "${KUNIT_KMEMLEAK:-1}" = 0 ] && : > "$root/modules/no-kmemleak"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) |
	gzip -1 > "$INITRD"

# qboot (QEMU's minimal firmware, as kunit.py uses) saves a second of
# SeaBIOS; -nodefaults and two serial ports: console, then the kernel log.
bios=
[ -f /usr/share/qemu/qboot.rom ] && bios="-bios /usr/share/qemu/qboot.rom"
# The kernel reports the guest's checks look for: what lockdep, KASAN,
# UBSAN, DEBUG_ATOMIC_SLEEP, DEBUG_PREEMPT, WARN() and oopses print;
# kmemleak's count comes from init.
splat='^(BUG: |WARNING: |INFO: (possible|task|rcu)|UBSAN: |general protection'
splat="$splat|divide error|Oops|Kernel panic|kunit-guest: load failed"
splat="$splat|kunit-guest: kmemleak: [1-9])"

# kernel_log: $log without printk timestamps and carriage returns
kernel_log() { sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//' "$log"; }

# guest_once: boot the guest, and set log, ktap, nsuites, reports and
# problems from what it printed.
guest_once() {
	t_vm=$(now)
	: > "$CONSOLE"
	: > "$DMESG"
	# oops=panic: a crashing case ends the run at once (KUnit would wait 300 s
	# for the dead case); loglevel=7 puts KUnit's output on the console too.
	CMDLINE="console=ttyS0 rdinit=/init panic=-1 oops=panic loglevel=7"
	# no_timer_check: see tools/vm/run.
	CMDLINE="$CMDLINE tsc=nowatchdog no_timer_check 8250.nr_uarts=2"
	# shellcheck disable=SC2086
	timeout -k 5 "$TIMEOUT" qemu-system-x86_64 $bios \
		-accel "tcg,thread=${VM_TCG_THREAD:-multi}" -cpu "$CPU" -smp "$SMP" -m "$MEM" \
		-kernel "$BZIMAGE" -initrd "$INITRD" \
		-append "$CMDLINE" \
		-display none -monitor none -no-reboot -nodefaults \
		-serial "file:$CONSOLE" -serial "file:$DMESG" </dev/null
	qrc=$?
	[ "${KUNIT_VERBOSE:-0}" = 1 ] && cat "$CONSOLE"
	echo "kunit: guest ran in $(since "$t_vm") s"

	# The kernel log: complete from ttyS1 when the guest got to the end;
	# otherwise (an oops panics the guest at once: oops=panic) what reached
	# the console, which loglevel=7 makes everything KUnit printed.
	problems=
	log=$DMESG
	if ! grep -q 'kunit-guest: done' "$DMESG"; then
		log=$CONSOLE
		if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
			problems="guest killed after the ${TIMEOUT}s limit"
		else
			problems="guest did not finish (qemu exit $qrc): crashed?"
		fi
		tail -n 40 "$CONSOLE" >&2
	fi

	# KTAP from the kernel log: drop the printk timestamps, keep from the
	# first suite on, leave out everything else the kernel printed.  KUnit's
	# module path prints each suite as a subtest without a top-level plan, so
	# add the header and plan kunit.py and other KTAP readers expect.
	ktap=$(kernel_log |
		awk '/^    (KTAP version|# Subtest:)/ { on = 1 }
		     /^kunit-guest: loaded sugov_inv_kunit/ { on = 0 }
		     on && /^( *(K?TAP version|# |[0-9]+\.\.[0-9]+|(not )?ok [0-9]+)|    )/')
	nsuites=$(printf '%s\n' "$ktap" | grep -cE '^(not )?ok [0-9]+ ')
	[ -n "$ktap" ] || [ -n "$problems" ] ||
		problems="no KTAP in the kernel log (did the test module load?)"

	# The guest's own checks: every module loaded, and no kernel report.
	reports=$(kernel_log | grep -E "$splat" | head -n 20)
	problems=$(printf '%s\n%s' "$problems" "$reports" | sed '/^$/d')
}

# A kernel report printed before /init's first line comes from the boot
# itself, before any module of ours exists, and a KASAN report turns
# lock debugging off for the rest of the run ("Disabling lock debugging
# due to kernel taint"): one such boot is run again, and the results say
# so.  Seen once (2026-12-02, a fresh clone of c8a688c): KASAN
# "wild-memory-access in rcu_is_watching" from an interrupt taken in
# identify_cpu() during start_kernel(), 6.1.192 under MTTCG.  A second
# such boot counts as it is.
boot_reports() {
	kernel_log | awk '/^kunit-guest: up:/ { exit } { print }' | grep -E "$splat"
}
retried=
guest_once
if [ -n "$problems" ] && grep -q 'kunit-guest: done' "$DMESG" &&
   [ "$(boot_reports | head -n 20)" = "$reports" ]; then
	retried="a kernel report at boot, before /init: $(boot_reports | head -n 1); booted again"
	cp "$DMESG" "$DMESG.first"
	retried="$retried (the first boot's log: $DMESG.first)"
	echo "kunit: $retried" >&2
	guest_once
fi

{
	echo "KTAP version 1"
	echo "1..$((nsuites + 1))"
	[ -n "$retried" ] && echo "# $retried"
	[ -n "$ktap" ] && printf '%s\n' "$ktap"
	if [ -z "$problems" ]; then
		echo "ok $((nsuites + 1)) kunit_guest_checks"
	else
		printf '%s\n' "$problems" | sed 's/^/# /'
		echo "not ok $((nsuites + 1)) kunit_guest_checks"
	fi
} > "$RESULTS"

parser=$KDIR/tools/testing/kunit/kunit.py
summary=$(python3 "$parser" parse "$RESULTS" 2>&1)
printf '%s\n' "$summary" | sed -e 's/\x1b\[[0-9;]*m//g'
if [ -n "$problems" ]; then
	echo "kunit: the guest reported problems (full log: $log):"
	printf '%s\n' "$problems" | sed 's/^/  /'
	grep -q '^unreferenced object' "$log" &&
		sed -n '/^unreferenced object/,$p' "$log" | head -n 40
fi

# Counts over the leaves of the KTAP tree, from kunit.py's own summary
line=$(printf '%s\n' "$summary" | sed -e 's/\x1b\[[0-9;]*m//g' |
	grep -E 'Ran [0-9]+ tests' | tail -n 1)
[ -n "$line" ] || die "kunit.py parse found no results (log: $log)"
passed=$(echo "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
failed=$(echo "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
skipped=$(echo "$line" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
errors=$(echo "$line" | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
failed=$((${failed:-0} + ${errors:-0}))
# kunit.py's summary names a skipped case without the reason the test gave
grep -E '^ *(not )?ok [0-9]+ .* # SKIP' "$RESULTS" |
	sed -E 's/^ *(not )?ok [0-9]+ /kunit: skipped: /'
echo "kunit: run took $(since "$t_start") s in all"
echo "kunit: ${passed:-0} passed, $failed failed, ${skipped:-0} skipped"
[ "$failed" = 0 ] && [ "${passed:-0}" -gt 0 ]
