#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: cost of the update_util hook of sugov_inv (rate-limited
# early return, full evaluation) next to schedutil, ondemand and
# performance, in one guest boot under QEMU's instruction counting, so
# the numbers repeat on a noisy host.  Prints numbers; asserts nothing.
#
# Usage: tools/bench.sh [ROUNDS (3)] [CALLS (10000)]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/deps.sh" --quiet
# One vCPU, Intel model with constant_tsc so fast switch is on, as on the
# machines the hook cost matters for.
log=$build/vm/bench.log
rm -f "$log"
"$top/tools/vm/run" --name bench --icount --smp 1 --timeout 1800 \
	--cpu qemu64,vendor=GenuineIntel,family=6,model=63 \
	-- sh tools/bench/guest.sh "${1:-3}" "${2:-10000}" | grep --line-buffered -E '^BENCH|^vm:' || true
if [ ! -s "$log" ]; then
	echo "bench: the guest did not start (tools/vm/run stopped before booting it: its message is above)" >&2
	exit 1
fi
"$top/tools/bench/report.py" "$log" | tee "$build/vm/bench.txt"
