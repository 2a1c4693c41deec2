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
# Only the phase markers reach the terminal; the whole console is in the log.
"$top/tools/vm/run" --name demo --smp 2 --timeout 600 -- \
	sh tools/demo/guest.sh "$phase_s" | grep --line-buffered -E '^DEMO_PHASE|^vm:' || true
"$top/tools/demo/report.py" "$build/vm/demo.log" --png "$build/demo/demo.png" \
	--json "$build/demo/demo.json"
