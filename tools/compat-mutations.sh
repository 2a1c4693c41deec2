#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation check of compat.h against the two kernels compiled here: each
# mutation below takes one entry's version boundary onto 6.12 (a change
# of 6.13 or later applied one release early) in a scratch copy of the
# tree, builds every module against Debian's 6.1 and 6.12 headers, and
# expects the 6.12 build to fail and the 6.1 build to pass: a mistake
# only the 6.12 build can catch.  The working tree is never touched.
# Exit 1 if a mutation survives, fails to apply or breaks the 6.1 build.
#
# Usage: tools/compat-mutations.sh [NAME-SUBSTRING]
#   (two module builds per mutation, about a minute on an idle machine)
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$src/build}
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
only=${1:-}
bad=0

"$src/tools/deps.sh" --quiet || exit 1

# build_one NAME SED-EXPR: break compat.h, build against each series.
build_one() {
	local name=$1 expr=$2 t=$scratch/tree s k err
	local -A rc

	[ -z "$only" ] || [[ $name == *"$only"* ]] || return 0
	rm -rf "$t"
	mkdir -p "$t"
	(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$t")
	sed -i "$expr" "$t/compat.h"
	if cmp -s "$t/compat.h" "$src/compat.h"; then
		echo "NOT APPLIED: $name"; bad=1; return
	fi
	for s in 6.1 6.12; do
		k=$(readlink "$build/debian/$s")
		"$t/tools/vm/build-modules.sh" "/usr/src/linux-headers-$k" "$scratch/obj-$s" \
			> "$scratch/build-$s.log" 2>&1
		rc[$s]=$?
		rm -rf "$scratch/obj-$s"
	done
	err=$(grep -m 1 'error:' "$scratch/build-6.12.log" | sed "s|$scratch/obj-6.12/||")
	if [ "${rc[6.1]}" != 0 ]; then
		echo "BREAKS 6.1 TOO: $name"
		grep -m 3 'error:' "$scratch/build-6.1.log" | sed 's/^/#   /'
		bad=1
	elif [ "${rc[6.12]}" != 0 ]; then
		echo "caught by the 6.12 build (6.1 builds): $name"
		echo "#   $err"
	else
		echo "SURVIVED both builds: $name"; bad=1
	fi
}

# The string symbol namespaces of 6.13 (EXPORT_SYMBOL_NS_GPL(sym, "NS")):
# on 6.12 the quoted name is stringified again, and modpost's generated
# .mod.c no longer compiles.
build_one "string namespaces from 6.12 instead of 6.13" \
	's/^#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)$/#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)/'
# The rdmsrq*() names of 6.16: 6.12 has no rdmsrq_safe_on_cpu().
build_one "rdmsrq_safe_on_cpu() mapped only before 6.12 instead of 6.16" \
	's/^#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)$/#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)/'

exit $bad
