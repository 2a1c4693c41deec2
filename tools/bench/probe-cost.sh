#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The chain rule's probe cost (Documentation/design.rst, "Chains of
# CPUs"): ns per call of the sched_waking and sched_switch probes, in a
# guest boot of two vCPUs under QEMU's instruction counting, so the
# numbers repeat on a noisy host.  tools/bench/probe-guest.sh runs the
# loops; this prints, per event, the median over rounds of each
# configuration's loop minus performance's (no probe registered) in the
# same round, per call, and the same in instructions (--icount=smp is
# shift=3: 8 ns of guest time per instruction).  Prints numbers;
# asserts nothing.
#
# Usage: tools/bench/probe-cost.sh [ROUNDS (5)] [CALLS (100000)]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/build}
rounds=${1:-5} calls=${2:-100000}
log=$build/vm/probe-cost.log
"$top/tools/deps.sh" --quiet
rm -f "$log"
"$top/tools/vm/run" --name probe-cost --icount=smp --smp 2 --timeout 1800 \
	--cpu qemu64,vendor=GenuineIntel,family=6,model=63 \
	-- sh tools/bench/probe-guest.sh "$rounds" "$calls" |
	grep --line-buffered -E '^PROBE|^vm:|probe-guest:' || true
grep -q '^PROBE ' "$log" || { echo "probe-cost: no PROBE lines in $log" >&2; exit 1; }
awk '
	$1 == "PROBE_SETUP" { print "#", $0; next }
	$1 != "PROBE" { next }
	{ ns[$2, $3, $4] = $5; calls = $6; ev[$4] = 1; cf[$3] = 1; if ($2 > nr) nr = $2 }
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		printf "%-12s %14s %14s %14s %9s %9s\n", "event", "empty, ns", "chain-off, ns", "chain-on, ns", "off, ins", "on, ins"
		n = split("waking switch_idle switch_task", evs, " ")
		for (k = 1; k <= n; k++) {
			e = evs[k]
			if (!(e in ev)) continue
			delete b; delete o; delete c
			for (r = 1; r <= nr; r++) {
				b[r] = ns[r, "performance", e] / calls
				o[r] = (ns[r, "chain-off", e] - ns[r, "performance", e]) / calls
				c[r] = (ns[r, "chain-on", e] - ns[r, "performance", e]) / calls
			}
			mo = median(o, nr); mc = median(c, nr)
			printf "%-12s %14.1f %+14.1f %+14.1f %+9.0f %+9.0f\n", e, median(b, nr), mo, mc, mo / 8, mc / 8
		}
		print "# empty: the iterator with no probe, per call; the others: more than that"
	}' "$log" | tee "$build/vm/probe-cost.txt"
