#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How closely the emulated machine (vcpufreq emulate=1) slows real
# workloads: tools/compare's default workloads under the userspace
# governor at each P-state of the epyc-7742 preset, in one
# instruction-counted 1-vCPU guest, against the model (a CPU at f does
# f/f_top of the work per second).  Prints the table of
# tools/fidelity/report.py; asserts nothing (Documentation/bench.rst,
# "Fidelity across workloads", has the results).
#
# Usage: tools/fidelity.sh [REPS (2)] [VCPUFREQ_ARGS...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/deps.sh" --quiet
reps=${1:-2}
shift || true
name=fidelity-$$
"$top/tools/vm/run" --name "$name" --icount --smp 1 --timeout 5400 \
	-- sh tools/fidelity/guest.sh "$reps" "$@" |
	grep --line-buffered -E '^FIDELITY|^vm:' || true
log=$build/vm/$name.log
[ -s "$log" ] || { echo "fidelity: the guest did not start" >&2; exit 1; }
"$top/tools/fidelity/report.py" "$log" | tee "$build/vm/$name.txt"
