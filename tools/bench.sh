#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: cost of the update_util hook of sugov_inv (rate-limited
# early return, full evaluation) next to schedutil, ondemand and
# performance, in guest boots under QEMU's instruction counting, so
# the numbers repeat on a noisy host.  Prints numbers; asserts nothing.
#
# Two boots: one vCPU (single-CPU policy), then four vCPUs sharing one
# policy with the loop on CPU 0 and three idle siblings.  Then the
# scaling boots: a full evaluation of sugov_inv and of schedutil with N
# CPUs in one shared policy, N in BENCH_SCALE (default "1 4 16"; empty
# to skip), each a boot of its own with N vCPUs; one table
# (tools/bench/scale.py).
# BENCH_HOOK=0 skips the first two boots (the scaling table alone).
# Last, the memory a governor's start takes (tools/bench/mem.sh): one
# boot per CPU count in BENCH_MEM (default "4 16"; empty to skip),
# without instruction counting (slab counts do not depend on time).
#
# Usage: tools/bench.sh [ROUNDS (3)] [CALLS (10000)]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
"$top/tools/deps.sh" --quiet
# bench_guest NAME SMP ICOUNT [shared]: one guest boot, its BENCH lines
# echoed, its table in build/vm/NAME.txt.  Extra environment for the
# guest in guest_env.  Intel model with constant_tsc
# so fast switch is on, as on the machines the hook cost matters for.
bench_guest() {
	local name=$1 smp=$2 icount=$3 log=$build/vm/$1.log
	rm -f "$log"
	"$top/tools/vm/run" --name "$name" "$icount" --smp "$smp" --mem "${BENCH_VM_MEM:-2048}" --timeout 3600 \
		--cpu qemu64,vendor=GenuineIntel,family=6,model=63 \
		-- env ${guest_env[@]+"${guest_env[@]}"} sh tools/bench/guest.sh "$rounds" "$calls" ${4:-} |
		grep --line-buffered -E '^BENCH|^vm:' || true
	if [ ! -s "$log" ]; then
		echo "bench: the guest did not start (tools/vm/run stopped before booting it: its message is above)" >&2
		exit 1
	fi
	"$top/tools/bench/report.py" "$log" | tee "$build/vm/$name.txt"
}

rounds=${1:-3} calls=${2:-10000}
guest_env=()
if [ "${BENCH_HOOK:-1}" = 1 ]; then
	# One vCPU: single-CPU policies, guest time on the instruction
	# counter.
	bench_guest bench 1 --icount
	# Four vCPUs in one shared policy, three of them idle: what an
	# evaluation pays per idle sibling (--icount=smp: the instruction
	# counter with several vCPUs; see tools/vm/run).
	bench_guest bench-shared 4 --icount=smp shared
fi

# The scaling boots.  Memory: 256 MB per 16 vCPUs on top of 2 GB
# (per-CPU areas, one idle task and stack each).
scale=${BENCH_SCALE-1 4 16}
logs=()
for n in $scale; do
	guest_env=("BENCH_CONFIGS=performance schedutil-rl0 sugov_inv-rl0")
	start=$(date +%s)
	if [ "$n" = 1 ]; then
		bench_guest "bench-n$n" 1 --icount shared >/dev/null
	else
		BENCH_VM_MEM=$((2048 + n * 16)) bench_guest "bench-n$n" "$n" --icount=smp shared >/dev/null
	fi
	echo "bench: N=$n took $(($(date +%s) - start)) s"
	logs+=("$build/vm/bench-n$n.log")
done
[ ${#logs[@]} = 0 ] || "$top/tools/bench/scale.py" "${logs[@]}" | tee "$build/vm/bench-scale.txt"

for n in ${BENCH_MEM-4 16}; do
	"$top/tools/vm/run" --name "bench-mem-n$n" --smp "$n" --mem $((2048 + n * 16)) --timeout 1800 \
		--cpu qemu64,vendor=GenuineIntel,family=6,model=63 -- sh tools/bench/mem.sh |
		grep --line-buffered '^MEM' || true
done
