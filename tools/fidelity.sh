#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How closely the emulated machine (vcpufreq emulate=1) slows real
# workloads: tools/compare's default workloads under the userspace
# governor, in instruction-counted 1-vCPU guests (-cpu max, as
# tools/compare's guest).  Three boots:
#   1. the epyc-7742 preset at each P-state, against the model (a CPU at
#      f does f/f_top of the work per second);
#   2. a 3000/1500 MHz table at both P-states, and
#   3. the same at 3000 MHz in a guest whose every instruction takes
#      twice as long (-icount shift=4 instead of 3): a CPU really half as
#      fast, with no emulation, which tells the workloads' own departures
#      from the model (fixed-time runs, scheduling) from the emulator's.
# Prints the tables of tools/fidelity/report.py (kept with the logs in
# build/vm/fidelity-*.txt); asserts nothing.  Documentation/bench.rst,
# "Fidelity across workloads", has the results.  About an hour here.
#
# Usage: tools/fidelity.sh [REPS (2)] [VCPUFREQ_ARGS...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/deps.sh" --quiet
reps=${1:-2}
shift || true
pair="table_khz=3000000,1500000 boost=0"

# boot NAME ICOUNT STATES VCPUFREQ_ARGS...: one guest (STATES empty: the
# epyc-7742 P-states), its FIDELITY lines in build/vm/NAME.log.
boot() {
	local name=$1 icount=$2 envs=(env)
	[ -n "$3" ] && envs+=("STATES=$3")
	shift 3
	rm -f "$build/vm/$name.log"
	"$top/tools/vm/run" --name "$name" "$icount" --smp 1 --timeout 5400 \
		-- "${envs[@]}" sh tools/fidelity/guest.sh "$reps" "$@" |
		grep --line-buffered -E '^FIDELITY |^vm:' || true
	[ -s "$build/vm/$name.log" ] || { echo "fidelity: guest $name did not start" >&2; exit 1; }
}

boot fidelity-epyc --icount "" "$@"
# shellcheck disable=SC2086
boot fidelity-pair --icount "0:3000000:3000000 0:1500000:1500000" $pair "$@"
# shellcheck disable=SC2086
boot fidelity-real --icount=shift=4,sleep=on "0:3000000:3000000" $pair "$@"
{
	echo "epyc-7742, userspace governor at each P-state:"
	"$top/tools/fidelity/report.py" "$build/vm/fidelity-epyc.log"
	echo
	echo "half speed, emulated (3000 -> 1500 MHz) and real (-icount shift=4):"
	"$top/tools/fidelity/report.py" --pair "$build/vm/fidelity-pair.log" "$build/vm/fidelity-real.log"
} | tee "$build/vm/fidelity.txt"
