#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make lint: our C files against the kernel's own checks, as KTAP:
# a W=1 + sparse (C=2) build with no warning from our files against each
# of Debian 12's two LTS kernels, 6.1 and 6.12: Debian's headers (the
# product modules, vcpufreq, hookbench, probebench) and the debug test
# kernels of tools/kunit/build-kernel.sh (the same, and the KUnit
# module, which needs CONFIG_KUNIT; built here if not cached, as make
# check's kunit part would; 6.12's only with CHECK_DEBUG_6_12=1, as
# make check runs that kernel only then), and checkpatch.pl --strict from
# linux-source-6.12 (the newer of the two: its rules are a superset for
# our files) on each file.
# Distribution header packages carry no checkpatch.pl, so the script
# (and its data files) is unpacked from the linux-source tarball.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
[ -L "$build/debian/6.1" ] && [ -L "$build/debian/6.12" ] || "$top/tools/deps.sh" --quiet
kver61=$(readlink "$build/debian/6.1")
kver612=$(readlink "$build/debian/6.12")
cp_dir=$build/checkpatch-6.12

if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$cp_dir" --strip-components=1 \
		linux-source-6.12/scripts/checkpatch.pl linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch
fi

mapfile -t files < <(cd "$top" && git ls-files '*.c' '*.h' 2>/dev/null ||
	find . \( -path ./build -prune \) -o \( -name '*.[ch]' ! -name '*.mod.c' -print \))
# fi-probe's userspace shim headers imitate kernel ones; checkpatch's
# kernel rules do not apply to them.
mapfile -t kfiles < <(printf '%s\n' "${files[@]}" | grep -v '^tools/fi-probe/')
mapfile -t rst < <(cd "$top" && find Documentation -name '*.rst' 2>/dev/null | sort)

echo "KTAP version 1"
debug_series=6.1
[ "${CHECK_DEBUG_6_12:-0}" = 1 ] && debug_series="6.1 6.12"
echo "1..$((5 + $(wc -w <<< "$debug_series") + ${#kfiles[@]} + ${#rst[@]}))"
n=0
# wbuild NAME KDIR OBJ [MODULE...]: a W=1 C=2 build of every module in
# OBJ against KDIR, without a warning from our files, and with each
# MODULE (relative .ko path) built: Kbuild leaves the KUnit module out
# silently when the kernel has no CONFIG_KUNIT.
wbuild() {
	local name=$1 kdir=$2 obj=$3 warn m
	shift 3
	n=$((n + 1))
	if [ ! -d "$kdir" ]; then
		echo "not ok $n W=1 C=2 build against $name: no tree at $kdir"
		return
	fi
	"$top/tools/vm/build-modules.sh" --copy-only "$kdir" "$obj" >/dev/null 2>&1
	find "$obj" -name '*.c' -exec touch {} +
	warn=$(make -C "$kdir" M="$obj" -j"$(nproc)" W=1 C=2 CONFIG_FREQ_INVARIANCE=m CONFIG_SUGOV_INV=m \
		CONFIG_SUGOV_INV_VCPUFREQ=m CONFIG_SUGOV_INV_KUNIT_TEST=m modules 2>&1 |
		grep -E "^$obj/.*(warning|error)" | sed "s|$obj/||")
	for m in freq_invariance.ko sugov_inv.ko selftests/vcpufreq.ko selftests/hookbench.ko selftests/probebench.ko "$@"; do
		[ -f "$obj/$m" ] || warn="$warn${warn:+$'\n'}$m was not built"
	done
	if [ -z "$warn" ]; then
		echo "ok $n W=1 C=2 build against $name: no warning from our files"
	else
		echo "$warn" | head -n 30 | sed 's/^/# /'
		echo "not ok $n W=1 C=2 build against $name: no warning from our files"
	fi
}
wbuild "Debian $kver61 headers" "${KDIR:-/usr/src/linux-headers-$kver61}" "$build/obj/lint"
wbuild "Debian $kver612 headers" "/usr/src/linux-headers-$kver612" "$build/obj/lint-6.12"
for series in $debug_series; do
	if kdir=$(KUNIT_SERIES=$series "$top/tools/kunit/build-kernel.sh" -q 2>/dev/null | tail -n 1); then
		wbuild "the $series debug test kernel" "$kdir" "$build/obj/lint-debug-$series" kunit/sugov_inv_kunit.ko
	else
		n=$((n + 1))
		echo "not ok $n W=1 C=2 build against the $series debug test kernel: it did not build"
	fi
done
# Kernel APIs that changed after 6.1 go through compat.h only; the check
# itself must fail on a planted raw use (in a scratch copy of the tree).
n=$((n + 1))
if res=$("$top/tools/compat-check.sh" "$top" 2>&1); then
	echo "ok $n compat-check: no raw EXPORT_SYMBOL_NS*/MODULE_IMPORT_NS/rdmsrl* outside compat.h"
else
	echo "$res" | head -n 10 | sed 's/^/# /'
	echo "not ok $n compat-check: no raw EXPORT_SYMBOL_NS*/MODULE_IMPORT_NS/rdmsrl* outside compat.h"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# plant NAME LINE: copy the tree, append LINE to freq_inv_core.c, and
# expect compat-check to fail naming that file and line.
plant() {
	local want
	n=$((n + 1))
	rm -rf "${scratch:?}"/*
	(cd "$top" && cp --parents -- *.c *.h "$scratch"/)
	echo "$2" >> "$scratch/freq_inv_core.c"
	want="freq_inv_core.c:$(wc -l < "$scratch/freq_inv_core.c"):"
	if res=$("$top/tools/compat-check.sh" "$scratch" 2>&1); then
		echo "# compat-check passed a tree with: $2"
		echo "not ok $n compat-check fails on a planted $1"
	elif ! grep -qF "$want" <<< "$res"; then
		echo "$res" | head -n 5 | sed 's/^/# /'
		echo "not ok $n compat-check fails on a planted $1 and names $want"
	else
		echo "# ${res%%$'\n'*}"
		echo "ok $n compat-check fails on a planted $1"
	fi
}
plant "raw EXPORT_SYMBOL_NS_GPL" "EXPORT_SYMBOL_NS_GPL(freq_inv_get_caps, FREQ_INVARIANCE);"
plant "raw rdmsrl" "static inline u64 f(void) { u64 v; rdmsrl(0xe7, v); return v; }"
for f in "${kfiles[@]}"; do
	n=$((n + 1))
	# compat.h is the one place allowed to test the kernel version and
	# to define export macros (compat-check keeps it so), and it gives
	# old kernels macros of newer ones in their shape, arguments reused
	# and all (KUNIT_ARRAY_PARAM_DESC()'s array and struct member).
	ign=
	[ "$f" = compat.h ] && ign="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON,EXPORT_SYMBOL,MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE"
	# shellcheck disable=SC2086
	res=$(cd "$top" && perl "$cp_dir/scripts/checkpatch.pl" --no-tree --strict --terse --quiet \
		$ign -f "$f" 2>&1 | grep -E ': (ERROR|WARNING|CHECK):')
	if [ -z "$res" ]; then
		echo "ok $n checkpatch --strict $f"
	else
		echo "$res" | head -n 10 | sed 's/^/# /'
		echo "not ok $n checkpatch --strict $f"
	fi
done
# The documentation builds with Debian's docutils without a warning.
for f in "${rst[@]}"; do
	n=$((n + 1))
	res=$(cd "$top" && rst2html --halt=warning --report=warning "$f" 2>&1 >/dev/null)
	if [ -z "$res" ]; then
		echo "ok $n docutils $f"
	else
		echo "$res" | head -n 10 | sed 's/^/# /'
		echo "not ok $n docutils $f"
	fi
done
