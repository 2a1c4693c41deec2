#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build every module of the project (product and test) for one kernel, in
# an object tree of its own under build/obj/, so builds for the Debian
# kernel and for the KUnit debug kernel never clobber each other or the
# source tree.
#
# Usage: tools/vm/build-modules.sh [--copy-only] KDIR OBJDIR
#   --copy-only: bring OBJDIR's sources up to date and build nothing
#   (make lint's W=1 C=2 build does its own)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
copy_only=0
[ "$1" = --copy-only ] && { copy_only=1; shift; }
kdir=$1
mkdir -p "$2"; obj=$(cd "$2" && pwd)

[ -d "$kdir" ] || { echo "build-modules: no kernel build tree at $kdir" >&2; exit 1; }
# make check runs guests of one kernel from two lanes at once: one
# build per object tree at a time, the second finding nothing to do.
exec 9>"$obj/.lock"
flock 9

# Copy the sources (not build/ or .git), only those whose content
# differs, so make rebuilds what changed and nothing else (comparing
# mtimes would miss a source restored with an older one).
(cd "$top" && find . \( -path ./build -o -path ./.git \) -prune -o \
	\( -name '*.[ch]' -o -name Kbuild -o -name Kconfig -o -name VERSION -o -name '*.sh' \) -print0 |
	while IFS= read -r -d '' f; do
		cmp -s "$f" "$obj/$f" || cp --parents "$f" "$obj"
	done)
# Sources deleted upstream must not linger in the copy.
(cd "$obj" && find . \( -name '*.[ch]' -o -name Kbuild \) ! -name '*.mod.c' -print0 |
	while IFS= read -r -d '' f; do [ -e "$top/$f" ] || rm -f "$f"; done)
[ "$copy_only" = 1 ] && exit 0
# MODULE_CONFIG narrows the set, e.g. to build while a part is broken.
# shellcheck disable=SC2086
make -s -C "$kdir" M="$obj" -j"$(nproc)" ${MODULE_CONFIG:-CONFIG_FREQ_INVARIANCE=m \
	CONFIG_SUGOV_INV=m CONFIG_SUGOV_INV_VCPUFREQ=m CONFIG_SUGOV_INV_KUNIT_TEST=m} modules 2>&1 |
	{ grep -v 'Skipping BTF generation' || true; }
# (header packages have no vmlinux, so BTF is always skipped: not news)
