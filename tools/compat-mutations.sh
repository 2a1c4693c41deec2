#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation check of compat.h against the two kernels compiled here: each
# mutation below moves one entry's version boundary in a scratch copy of
# the tree.  An API entry moved onto 6.12 (a change of 6.13 or later
# applied one release early) must fail the build against Debian's 6.12
# headers and pass the 6.1 one: a mistake only the 6.12 build can catch.
# The frequency-invariance rule set moved off 6.12 builds everywhere, so
# a 6.12 guest with an ACPI CPPC preset must catch it (25-cppc: the
# kernel_ratio of reference=kernel).  The working tree is never touched.
# Exit 1 if a mutation survives, fails to apply or breaks the 6.1 build.
#
# Usage: tools/compat-mutations.sh [NAME-SUBSTRING]
#   (two module builds per API mutation, about a minute on an idle
#   machine; the guest one a few minutes)
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
	scratch_tree "$name" "$expr" || return
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

# scratch_tree NAME SED-EXPR: a copy of the tree with compat.h broken
# in $scratch/tree; fails (and says so) when the expression changed
# nothing.
scratch_tree() {
	local t=$scratch/tree

	rm -rf "$t"
	mkdir -p "$t"
	(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$t")
	sed -i "$2" "$t/compat.h"
	if cmp -s "$t/compat.h" "$src/compat.h"; then
		echo "NOT APPLIED: $1"; bad=1; return 1
	fi
}

# guest_one NAME SED-EXPR PRESET: break compat.h, run 25-cppc in a 6.12
# guest with the ACPI CPPC preset; it must fail there.
guest_one() {
	local name=$1 t=$scratch/tree log nf

	[ -z "$only" ] || [[ $name == *"$only"* ]] || return 0
	scratch_tree "$name" "$2" || return
	# The guest kernels and base initramfs are shared, read only.
	mkdir -p "$t/build/vm"
	ln -s "$build/debian" "$t/build/debian"
	cp "$build"/vm/base-*.cpio.gz "$t/build/vm/" 2>/dev/null
	BUILD_DIR=$t/build "$t/tools/vm/run" --name mutant --timeout 600 \
		--kernel-version 6.12 --smp 2 --cppc "$3" \
		-- sh selftests/run.sh '25-*.sh' > /dev/null 2> "$scratch/vm.err"
	log=$t/build/vm/mutant.log
	if ! grep -q '^ok \|^not ok ' "$log" 2>/dev/null; then
		echo "NO RESULT: $name"
		grep -m 3 'error' "$scratch/vm.err" | sed 's/^/#   /'
		bad=1; return
	fi
	nf=$(grep -c '^ *not ok' "$log")
	if [ "$nf" -gt 0 ]; then
		echo "caught by 25-cppc on 6.12, preset $3 ($nf not ok): $name"
		grep '^ *not ok' "$log" | grep -v '^not ok [0-9]* 25-cppc' |
			head -n 3 | sed 's/^ */#   /'
	else
		echo "SURVIVED 25-cppc on 6.12: $name"; bad=1
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
# 6.12's AMD numerator (amd_get_boost_ratio_numerator()) for reference=
# kernel: taken one release late, a 6.12 guest gets 6.1's model list, 166
# for the EPYC 7702's family 17h model 31h where 6.12 uses its uniform
# HighestPerformance, 255.
guest_one "6.12's frequency-invariance rules from 6.13 instead of 6.12" \
	's/^#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)$/#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)/' \
	epyc-7702

exit $bad
