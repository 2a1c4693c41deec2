#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The emulated machine (vcpufreq emulate=1) on two CPUs at once, in a
# guest without instruction counting (QEMU's MTTCG: one host thread per
# vCPU, the mode tools/compare uses with --smp 2): each CPU runs at the
# speed and draws the power of its own P-state.  Every timing check runs
# the two CPUs side by side at different P-states over the same window
# and judges the ratio of what they did, so a host that runs other work
# slows both alike; each pair also runs swapped, which cancels what
# differs between the two vCPUs (CPU 0 takes the console and the shell).
# Documentation/bench.rst, "Several CPUs", has the measured numbers.
#
# Needs EMU_SMP=1 and two CPUs (tools/check.sh's "emulation-smp" part:
# tools/vm/run --smp 2); skips otherwise.  Not under instruction
# counting (tools/vm/run --icount=smp): there one instruction clock
# serves every vCPU, so a CPU's speed depends on the other's load, and
# QEMU 7.2 shares that clock unevenly (Documentation/bench.rst).
. "$(dirname "$0")/ktap.sh"

KO=${VCPUFREQ_KO:-/sugov/selftests/vcpufreq.ko}
DBG=/sys/kernel/debug/vcpufreq
CPUFREQ=/sys/devices/system/cpu/cpufreq
NCPU=$(nproc)
# Seconds per side-by-side window; the tolerance of a ratio, in %.
WINDOW_S=${EMU_SMP_WINDOW_S:-3}
TOL=${EMU_SMP_TOL:-5}
CHECKS=5

# P_busy at a frequency and P_idle, uW, from the driver's own table
# (debugfs config): 15-emulation checks that table against the model
# computed independently; here what counts is that each CPU integrates
# the power of its own P-state.
busy_uw() { awk -v k="$1" '$1 == "busy_uw" && $2 == k { print $3 }' $DBG/config; }
idle_uw() { awk '$1 == "idle_uw" { print $2 }' $DBG/config; }

# busybox awk has no math library: a square root by Newton's method, for
# geometric means of two and four ratios.
AWK_SQRT='function sqrt_(x,  y, k) { y = x > 1 ? x : 1; for (k = 0; k < 60; k++) y = (y + x / y) / 2; return y }'

set_policy() { echo "$3" > "$CPUFREQ/policy$1/$2"; }
unload() {
	[ -d /sys/module/vcpufreq ] || return 0
	for p in "$CPUFREQ"/policy*; do echo performance > "$p/scaling_governor"; done
	rmmod vcpufreq
}

# snap: sets SNAP to "T cpu energy_uj idle cpu energy_uj idle": uptime
# (s), vcpufreq's per-CPU energy, and the kernel's own idle accounting
# (/proc/stat idle + iowait, USER_HZ = 100), independent of vcpufreq.
# Shell builtins only, and taken again when the uptime moved by more
# than 20 ms across the readings: a busy host can stop a vCPU between
# two of them for longer than that.
snap() {
	for _try in 1 2 3 4 5; do
		read -r _t0 _ < /proc/uptime
		_e=
		while read -r _k _c _ _ _ _v _; do
			[ "$_k" = cpu ] && _e="$_e $_c:$_v"
		done < $DBG/energy
		SNAP=
		while read -r _c _u _n _s _i _w _; do
			case $_c in cpu[0-9]*) ;; *) continue ;; esac
			_c=${_c#cpu}
			for _x in $_e; do
				[ "${_x%%:*}" = "$_c" ] && SNAP="$SNAP $_c ${_x#*:} $((_i + _w))"
			done
		done < /proc/stat
		read -r _t1 _ < /proc/uptime
		# Centiseconds: uptime has two decimals.
		_d=$((${_t1%.*}${_t1#*.} - ${_t0%.*}${_t0#*.}))
		[ $_d -le 2 ] && break
	done
	SNAP="$_t0$SNAP"
}

# Work counters: one awk per CPU doing fixed chunks of work and appending
# the chunk count to a file as one line after each (one write(), so a
# reader sees whole lines).  Rewriting the file in place instead lets
# the shell's byte-wise read meet a truncation half way and return a
# torn number (a window of 162 -> 8 chunks).
COUNTERS=
count_start() { # CPU FILE
	taskset -c "$1" awk -v f="$2" 'BEGIN { for (;;) { for (i = 0; i < 300; i++) s += i; print ++n >> f; fflush(f) } }' &
	COUNTERS="$COUNTERS $!"
}
count_read() { # FILE VAR: the last line, once the counter has written one
	_cnt=
	read -r _now _ < /proc/uptime
	_end=$((${_now%.*} + 10))
	while :; do
		_cnt=$(tail -n 1 "$1" 2>/dev/null)
		case $_cnt in ''|*[!0-9]*) ;; *) break ;; esac
		read -r _now _ < /proc/uptime
		if [ "${_now%.*}" -ge $_end ]; then
			echo "# no chunk count in $1 after 10 s" >> /tmp/emu-smp-windows
			_cnt=0
			break
		fi
	done
	eval "$2=\$_cnt"
}
count_stop() {
	for p in $COUNTERS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	COUNTERS=
}

# side_by_side BOOST KHZ0 KHZ1: both CPUs flat out for WINDOW_S, CPU 0 at
# KHZ0 and CPU 1 at KHZ1 (userspace governor); sets SBS to "work0 work1
# SNAP_BEFORE | SNAP_AFTER".
# Each window's counters write files of their own, so that nothing a
# counter of an earlier window might still write can reach them.
WINDOW=0
side_by_side() {
	echo "$1" > $CPUFREQ/boost
	set_policy 0 scaling_setspeed "$2" && set_policy 1 scaling_setspeed "$3" || return 1
	WINDOW=$((WINDOW + 1))
	c0=/tmp/emu-smp-c0.$WINDOW c1=/tmp/emu-smp-c1.$WINDOW
	count_start 0 $c0
	count_start 1 $c1
	sleep 0.5
	count_read $c0 a0
	count_read $c1 a1
	snap
	s0=$SNAP
	sleep "$WINDOW_S"
	count_read $c0 b0
	count_read $c1 b1
	snap
	count_stop
	rm -f $c0 $c1
	echo "# window $WINDOW: cpu0 $a0 -> $b0, cpu1 $a1 -> $b1 chunks" >> /tmp/emu-smp-windows
	SBS="$((b0 - a0)) $((b1 - a1)) $s0 | $SNAP"
}

ktap_plan $CHECKS
modprobe cpufreq_userspace 2>/dev/null
why=
[ "${EMU_SMP:-0}" = 1 ] || why="side-by-side checks run with EMU_SMP=1 (tools/check.sh part emulation-smp)"
[ -z "$why" ] && [ "$NCPU" -lt 2 ] && why="needs two CPUs (tools/vm/run --smp 2)"
[ -z "$why" ] && [ ! -f "$KO" ] && why="no $KO"
[ -z "$why" ] && [ -d $CPUFREQ/policy0 ] && [ ! -d /sys/module/vcpufreq ] && why="another cpufreq driver is registered"
if [ -n "$why" ]; then
	for i in $(seq $CHECKS); do ktap_skip "emulation on two CPUs $i" "$why"; done
	ktap_finish
fi
ktap_dmesg_mark
rm -f /tmp/emu-smp-windows
unload
insmod "$KO" preset=epyc-7742 emulate=1 || {
	for i in $(seq $CHECKS); do ktap_fail "emulation on two CPUs $i: vcpufreq emulate=1 did not load"; done
	ktap_finish
}
for p in "$CPUFREQ"/policy*; do echo userspace > "$p/scaling_governor"; done

# --- is the host quiet enough for wall-clock timing? -------------------------
# Without instruction counting a vCPU runs as fast as the host lets its
# thread run.  Two CPUs at one P-state side by side must do the same work;
# when a busy host runs them unevenly, ratios of work mean nothing and the
# timing checks skip with the measured difference.  The control windows
# come before and after the measured ones (control), and each measured
# configuration runs twice in each order, so a host whose load changed
# during the measurement shows as two runs of one configuration that
# disagree (host_steady): a bug of ours gives the same wrong ratio twice.
RESULTS= CTRL=
control() {
	for rep in 1 2; do
		side_by_side 1 1500000 1500000 || return 1
		CTRL="$CTRL ${SBS%% *}:$(echo "$SBS" | cut -d' ' -f2)"
		RESULTS="${RESULTS}1500000 1500000 0 $SBS
"
	done
}
control
host_report() {
	echo "$CTRL" | tr ' ' '\n' | awk -F: 'NF == 2 {
		printf "cpu0 and cpu1 at 1500 MHz side by side: %d and %d chunks of work (%.3f)\n", $1, $2, ($2 > 0 ? $1 / $2 : 0) }'
}
host_quiet() {
	echo "$CTRL" | tr ' ' '\n' | awk -F: -v tol="$TOL" 'NF == 2 { n++
		if ($1 <= 0 || $2 <= 0) { bad = 1; next }
		r = $1 / $2; if (r < 1 - tol / 100 || r > 1 + tol / 100) bad = 1 }
		END { exit bad || n < 2 }'
}
# host_steady: prints, and fails on, a configuration whose two windows
# in the same order did work in ratios more than TOL apart.
host_steady() {
	printf '%s' "$RESULTS" | awk -v tol="$TOL" '
		$1 != $2 { r = $4 / $5; k = $1 " " $2 " " $3
		  if (!(k in lo) || r < lo[k]) lo[k] = r
		  if (!(k in hi) || r > hi[k]) hi[k] = r }
		END { for (k in lo) if (hi[k] > lo[k] * (1 + tol / 100)) {
			split(k, f, " ")
			printf "%d vs %d kHz, fast on cpu%d: work ratios %.3f and %.3f in two windows;", f[1], f[2], f[3], lo[k], hi[k]
			bad = 1 }
		  exit bad }'
}

# --- speed and power, side by side ------------------------------------------
# "boost khz_fast khz_slow f_fast f_slow": the fast CPU at f_top (max_P
# boosted to 3400 MHz), or at 2250 MHz with boost off.  Each pair runs
# twice in each order (fast CPU on CPU 0, then on CPU 1).
PAIRS="1:2250000:2000000:3400000:2000000 1:2250000:1500000:3400000:1500000 0:2250000:1500000:2250000:1500000"
for pr in $PAIRS; do
	IFS=: read -r b kf ks ff fs <<EOF
$pr
EOF
	for order in 0 1 0 1; do
		if [ $order = 0 ]; then side_by_side "$b" "$kf" "$ks"; else side_by_side "$b" "$ks" "$kf"; fi || { RESULTS=; break 2; }
		RESULTS="$RESULTS$ff $fs $order $SBS
"
	done
done
[ -n "$RESULTS" ] && control
echo 1 > $CPUFREQ/boost
cat /tmp/emu-smp-windows
HOST=$(host_report)
echo "$HOST" | sed 's/^/# /'
printf '%s' "$RESULTS" | awk '$1 != $2 { printf "# fast %d kHz, slow %d kHz, fast on cpu%d: work %d and %d chunks\n", $1, $2, $3, $4, $5 }'

# The fast CPU's work over the slow one's, geometric mean of the four
# windows (two in each order: a fourth root by two square roots),
# against f_fast/f_slow.
check_speed() {
	[ -n "$RESULTS" ] || return 1
	printf '%s' "$RESULTS" | awk -v tol="$TOL" "$AWK_SQRT"'
		$1 != $2 { r = $3 == 0 ? $4 / $5 : $5 / $4; key = $1 " " $2
		  if (!(key in prod)) { prod[key] = 1; order[++n] = key }
		  prod[key] *= r }
		END { for (i = 1; i <= n; i++) { k = order[i]; split(k, f, " ")
			got = sqrt_(sqrt_(prod[k])); want = f[1] / f[2]
			printf "%d vs %d kHz side by side: %.3f x the work, model %.3f (%+.1f %%)\n", f[1], f[2], got, want, 100 * (got / want - 1)
			if (got < want * (1 - tol / 100) || got > want * (1 + tol / 100)) bad = 1 }
		  exit bad }'
}
if ! host_quiet; then
	ktap_skip "two CPUs at two P-states side by side: work in the ratio of the frequencies ($TOL %)" \
		"the host runs the vCPUs unevenly, timing needs a quieter host: $(echo "$HOST" | tr '\n' ';')"
elif ! unsteady=$(host_steady); then
	ktap_skip "two CPUs at two P-states side by side: work in the ratio of the frequencies ($TOL %)" \
		"the host's load changed during the windows, timing needs a quieter host: $unsteady"
else
	ktap_check_v "two CPUs at two P-states side by side: work in the ratio of the frequencies ($TOL %)" check_speed
fi

# Each CPU's energy over the window against P_busy(f) x its busy time +
# P_idle x its idle time, busy and idle from the kernel's accounting.
check_energy() {
	[ -n "$RESULTS" ] || return 1
	printf '%s' "$RESULTS" | while read -r ff fs order w0 w1 rest; do
		s0=${rest%%|*} s1=${rest#*|}
		if [ "$order" = 0 ]; then f0=$ff f1=$fs; else f0=$fs f1=$ff; fi
		echo "$s0 | $s1" | awk -v p0="$(busy_uw "$f0")" -v p1="$(busy_uw "$f1")" \
			-v f0="$f0" -v f1="$f1" -v idle_uw="$(idle_uw)" -v tol=3 '{
			t0 = $1; i = 2
			while ($i != "|") { e0[$i] = $(i + 1); d0[$i] = $(i + 2); i += 3 }
			t1 = $(++i); i++
			while (i <= NF) { e1[$i] = $(i + 1); d1[$i] = $(i + 2); i += 3 }
			dt = t1 - t0; p[0] = p0; p[1] = p1; f[0] = f0; f[1] = f1
			for (c = 0; c <= 1; c++) {
				idle = (d1[c] - d0[c]) / 100; busy = dt - idle
				want = p[c] * busy + idle_uw * idle; got = e1[c] - e0[c]
				printf "cpu%d at %d kHz: %.0f uJ in %.2f s (busy %.2f s), model %.0f uJ (%+.2f %%)\n", c, f[c], got, dt, busy, want, 100 * (got / want - 1)
				if (got < want * (1 - tol / 100) || got > want * (1 + tol / 100)) bad = 1 }
			exit bad }' || return 1
	done
}
ktap_check_v "each CPU's energy = model x its busy/idle time, two P-states side by side (3 %)" check_energy

# --- a fixed-rate load on both CPUs -----------------------------------------
# Ten rounds of fixed work and a 0.1 s sleep on each CPU, one at f_top and
# one at 1500 MHz, side by side: the slow CPU's busy time is f_top/f of
# the fast one's, each CPU stalling on its own as it goes idle and wakes.
rate_load() { # CPU
	taskset -c "$1" awk 'BEGIN { for (r = 0; r < 10; r++) { for (i = 0; i < 20000; i++) s += i; system("sleep 0.1") } }'
}
busy_pair() { # KHZ0 KHZ1: "busy0 busy1" in seconds
	set_policy 0 scaling_setspeed "$1" && set_policy 1 scaling_setspeed "$2" || return 1
	sleep 0.2
	awk '$1 ~ /^cpu[0-9]/ { print substr($1, 4), $5 + $6 }' /proc/stat > /tmp/emu-smp-i0
	read -r t0 _ < /proc/uptime
	rate_load 0 & p0=$!
	rate_load 1 & p1=$!
	wait $p0 $p1
	read -r t1 _ < /proc/uptime
	awk '$1 ~ /^cpu[0-9]/ { print substr($1, 4), $5 + $6 }' /proc/stat > /tmp/emu-smp-i1
	{ cat /tmp/emu-smp-i0; echo --; cat /tmp/emu-smp-i1; } | awk -v dt="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '
		$1 == "--" { s = 1; next }
		!s { i0[$1] = $2; next }
		$1 <= 1 { busy[$1] = dt - ($2 - i0[$1]) / 100 }
		END { printf "%.3f %.3f\n", busy[0], busy[1] }'
}
check_busy() {
	set -- $(busy_pair 2250000 1500000) $(busy_pair 1500000 2250000)
	[ $# = 4 ] || return 1
	awk -v a0="$1" -v a1="$2" -v b0="$3" -v b1="$4" -v tol="$TOL" "$AWK_SQRT"'BEGIN {
		printf "cpu0 at 3400 MHz busy %.2f s, cpu1 at 1500 MHz %.2f s; swapped: %.2f s and %.2f s\n", a0, a1, b0, b1
		got = sqrt_(a1 / a0 * b0 / b1); want = 3400 / 1500
		printf "busy time at 1500 MHz = %.3f x at 3400 MHz, model %.3f (%+.1f %%)\n", got, want, 100 * (got / want - 1)
		exit !(got >= want * (1 - tol / 100) && got <= want * (1 + tol / 100)) }'
}
# It needs what check 1 needs, a quiet and steady host, from before the
# check to after it: control windows after it judge the host again (a
# host that got busy during it read 1.955 against the model's 2.267).
BUSY_DESC="a fixed-rate load on both CPUs: busy time grows f_top/f on each ($TOL %)"
busy_measured() { [ -n "$busy_out" ] && echo "$busy_out"; return "$busy_st"; }
if ! host_quiet || ! host_steady > /dev/null; then
	ktap_skip "$BUSY_DESC" "the host runs the vCPUs unevenly or its load changed (see check 1)"
else
	busy_out=$(check_busy 2>&1)
	busy_st=$?
	CTRL=
	control
	if host_quiet; then
		ktap_check_v "$BUSY_DESC" busy_measured
	else
		ktap_skip "$BUSY_DESC" \
			"the host runs the vCPUs unevenly after the check, timing needs a quieter host: $(host_report | tr '\n' ';')"
	fi
fi

# --- the other CPU's stall timer stops when it idles ------------------------
# CPU 1 idles while CPU 0 runs flat out: its timer must not keep firing
# (5000 times in 5 s at the 1 ms period if it did).
check_idle_timer() {
	set_policy 0 scaling_setspeed 1500000 && set_policy 1 scaling_setspeed 1500000 || return 1
	count_start 0 /tmp/emu-smp-c0
	sleep 0.5
	n0=$(awk '$1 == "cpu" && $2 == 1 { print $14 }' $DBG/energy)
	sleep 5
	n1=$(awk '$1 == "cpu" && $2 == 1 { print $14 }' $DBG/energy)
	count_stop
	echo "cpu1 idle beside a busy cpu0: its stall timer fired $((n1 - n0)) times in 5 s"
	[ $((n1 - n0)) -lt 2500 ]
}
ktap_check_v "an idle CPU's stall timer stops while the other CPU is busy" check_idle_timer

unload
ktap_dmesg_clean "no kernel warning during the two-CPU checks"
ktap_finish
