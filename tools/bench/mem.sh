#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench, guest side: the memory a governor takes when it starts on
# every policy, for per-CPU policies and for one policy shared by all
# CPUs, with fast switch (no thread) and without (a worker thread per
# policy).  Slab bytes (active objects x object size, after
# selftests/sugov-lib.sh's slab_snapshot flushes SLUB's per-CPU slabs) of
# the caches a governor's start allocates from -- kmalloc (the policy
# data, the tunables, the kthread worker), kernfs nodes (the tunables'
# sysfs directory) and a kernel thread's task, pid, signal and sighand --
# and kernel stacks and the per-CPU allocator (/proc/meminfo KernelStack,
# Percpu), with performance (no governor data) as the base: each
# governor is selected on every policy and dropped again REPS times, the
# median delta printed.  The inode and dentry caches, which drop_caches
# stirs by tens of kB, are left out.  schedutil runs beside sugov_inv for
# scale.  The static per-CPU data of a module (its .data..percpu section
# for every possible CPU) is taken at insmod and is not counted here.
# Prints MEM lines; asserts nothing.
#
# Usage: sh tools/bench/mem.sh [REPS (3)]
. "$(dirname "$0")/../../selftests/ktap.sh"
. "$(dirname "$0")/../../selftests/sugov-lib.sh"
reps=${1:-3}
tmp=/tmp/mem.$$
mkdir -p $tmp

meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# snap FILE: slab bytes, KernelStack and Percpu in bytes, one line.
snap() {
	slab_snapshot "$1.slab"
	awk 'NR > 2 && $1 ~ /^(kmalloc-|kernfs_|task_struct$|pid$|signal_cache$|sighand_cache$)/ {
		print $1, $2, $4 }' /proc/slabinfo >"$1.slab.full"
	awk '$2 ~ /^[0-9]+$/ { s += $2 * $3 } END { printf "%d ", s }' \
		"$1.slab.full" >"$1"
	echo "$(($(meminfo_kb KernelStack) * 1024)) $(($(meminfo_kb Percpu) * 1024))" >>"$1"
}

# The caches that grew, "name:bytes", largest first (one repetition).
grown() {
	awk 'FILENAME == ARGV[1] { a[$1] = $2; next }
	     ($1 in a) && $2 > a[$1] { printf "%s:%d\n", $1, ($2 - a[$1]) * $3 }' \
		"$1.slab.full" "$2.slab.full" | sort -t: -k2 -n -r | head -n 6 | tr '\n' ' '
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

run() { # tag
	ncpu=$(online_cpus | wc -l)
	npol=$(active_policies | wc -l)
	for gov in schedutil sugov_inv; do
		: >$tmp/d
		i=1
		while [ $i -le "$reps" ]; do
			set_all scaling_governor performance
			snap $tmp/a
			set_all scaling_governor $gov
			snap $tmp/b
			paste -d' ' $tmp/a $tmp/b |
				awk '{ print $4 - $1, $5 - $2, $6 - $3 }' >>$tmp/d
			[ $i = 1 ] && top=$(grown $tmp/a $tmp/b)
			i=$((i + 1))
		done
		slab=$(cut -d' ' -f1 $tmp/d | median)
		stack=$(cut -d' ' -f2 $tmp/d | median)
		pcpu=$(cut -d' ' -f3 $tmp/d | median)
		echo "MEM $1 gov=$gov cpus=$ncpu policies=$npol slab=$slab stack=$stack percpu=$pcpu" \
			"per_policy=$(((slab + stack + pcpu) / npol)) grew: $top"
	done
	set_all scaling_governor performance
}

unload_all
insmod $FI_KO && insmod $SG_KO || exit 1
for cfg in "per-cpu:" "shared:shared=1" "per-cpu,thread:fast_switch=0" \
	   "shared,thread:shared=1 fast_switch=0"; do
	# shellcheck disable=SC2086
	insmod $VC_KO preset=epyc-7742 ${cfg#*:} || exit 1
	run "${cfg%%:*}"
	rmmod vcpufreq
done
unload_all
rm -rf $tmp
