#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make demo: Debian's stock 6.1 kernel in QEMU on vcpufreq's epyc-7742
# preset; each sugov_inv freq_max policy through the same load sequence;
# a side-by-side table from vcpufreq's record, and a PNG of frequency
# over time (build/demo/demo.png) when gnuplot is installed.
#
# Usage: tools/demo.sh [PHASE_SECONDS (default 3)]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
phase_s=${1:-3}

"$top/tools/deps.sh" --quiet
mkdir -p "$build/demo"
echo "demo: booting Debian's 6.1 kernel in QEMU (2 vCPUs); 5 policies x 6 phases x ${phase_s}s"
# Only the phase markers reach the terminal; the whole console is in the
# log.  A log left by an earlier run must not pass for this one's.
log=$build/vm/demo.log
rm -f "$log"
"$top/tools/vm/run" --name demo --smp 2 --timeout 600 -- \
	sh tools/demo/guest.sh "$phase_s" | grep --line-buffered -E '^DEMO_PHASE|^vm:' || true
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
