#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: Debian's stock 6.1 kernel in QEMU on vcpufreq's emulated
# EPYC 7742 (one vCPU, instruction-counted: a P-state sets the CPU's
# speed and power, and the numbers repeat); each sugov_inv freq_max
# policy through the same load sequence, then the time and energy of a
# bursty and a steady load under it, with performance and powersave as
# the bounds; the tables, and a PNG of the frequency requests over time
# beside the loads' time-energy plane (build/demo/demo.png) when gnuplot
# is installed.
#
# Usage: tools/demo.sh [PHASE_SECONDS (default 3)]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
phase_s=${1:-3}

"$top/tools/deps.sh" --quiet
mkdir -p "$build/demo"
echo "demo: booting Debian's 6.1 kernel in QEMU (1 vCPU, instruction-counted); 5 policies x 5 phases x ${phase_s}s, then a bursty and a steady load each"
# Only the phase markers reach the terminal; the whole console is in the
# log.  A log left by an earlier run must not pass for this one's.
log=$build/vm/demo.log
rm -f "$log"
# sleep=off: an idle guest's clock jumps to its next timer, so the idle
# phases and gaps cost no host time and do not depend on the host's load.
"$top/tools/vm/run" --name demo --smp 1 --icount=shift=3,sleep=off --timeout 900 -- \
	sh tools/demo/guest.sh "$phase_s" | grep --line-buffered -E '^DEMO_PHASE|^DEMO_RESULT|^vm:' |
	sed -u 's/ status=ok.*//' || true
if [ ! -s "$log" ]; then
	echo "demo: the guest did not start (tools/vm/run stopped before booting it: its message is above)" >&2
	exit 1
fi
if ! grep -q '^DEMO_PHASE' "$log"; then
	echo "demo: the guest ran no demo phase (console log: ${log#"$top"/})" >&2
	exit 1
fi
"$top/tools/demo/report.py" "$log" --png "$build/demo/demo.png" \
	--json "$build/demo/demo.json"
