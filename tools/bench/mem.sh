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
# and kernel stacks (/proc/meminfo KernelStack), with performance (no
# governor data) as the base: each governor is selected on every policy
# and dropped again REPS times, and each cache's median change printed.
# The inode and dentry caches, which drop_caches stirs by tens of kB, are
# left out.  schedutil runs beside sugov_inv for scale.  The static
# per-CPU data of a module (its .data..percpu section for every possible
# CPU) is taken at insmod and is not counted here.
# Prints MEM lines; asserts nothing.
#
# Usage: sh tools/bench/mem.sh [REPS (3)]
. "$(dirname "$0")/../../selftests/ktap.sh"
. "$(dirname "$0")/../../selftests/sugov-lib.sh"
reps=${1:-3}
tmp=/tmp/mem.$$
mkdir -p $tmp

meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# snap FILE: "cache active_objects object_size" of those caches, and
# "KernelStack bytes 1" (its change printed as bytes(bytes)).
snap() {
	slab_snapshot "$1.all"
	awk 'NR > 2 && $1 ~ /^(kmalloc-|kernfs_|task_struct$|pid$|signal_cache$|sighand_cache$)/ {
		print $1, $2, $4 }' /proc/slabinfo >"$1"
	echo "KernelStack $(($(meminfo_kb KernelStack) * 1024)) 1" >>"$1"
}

# delta A B: "cache bytes objects" for every cache that changed.
delta() {
	awk 'FILENAME == ARGV[1] { a[$1] = $2; next }
	     ($1 in a) && $2 != a[$1] { print $1, ($2 - a[$1]) * $3, $2 - a[$1] }' "$1" "$2"
}

# The median over the repetitions (a cache missing from one moved by 0)
# of each cache's change, the caches whose median is not 0, and their sum:
# what moved every time, not a shell's or drop_caches' passing objects.
medians() { # reps files...
	awk -v n="$1" '{ v[$1] = v[$1] " " $2; o[$1] = o[$1] " " $3 }
	     function med(s,   a, k, i, j, t) {
		k = split(s, a, " ")
		for (; k < n; k++) a[k + 1] = 0
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return a[int((n + 1) / 2)]
	     }
	     END {
		for (c in v) {
			b = med(v[c]); if (b == 0) continue
			sum += b; out = out sprintf(" %s:%d(%+d)", c, b, med(o[c]))
		}
		printf "total=%d%s\n", sum, out
	     }' $(shift; echo "$@")
}

run() { # tag
	ncpu=$(online_cpus | wc -l)
	npol=$(active_policies | wc -l)
	for gov in schedutil sugov_inv; do
		i=1
		while [ $i -le "$reps" ]; do
			set_all scaling_governor performance
			snap $tmp/a
			set_all scaling_governor $gov
			snap $tmp/b
			delta $tmp/a $tmp/b >$tmp/d.$i
			i=$((i + 1))
		done
		echo "MEM $1 gov=$gov cpus=$ncpu policies=$npol bytes(objects):" \
			"$(medians "$reps" $tmp/d.*)"
		rm -f $tmp/d.*
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
