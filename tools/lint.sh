#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make lint: our C files against the kernel's own checks, as KTAP:
# a W=1 + sparse (C=2) build against Debian's headers with no warning
# from our files, and checkpatch.pl --strict from linux-source-6.1 on
# each file.  Distribution header packages carry no checkpatch.pl, so the
# script (and its data files) is unpacked from the linux-source tarball.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
kver=$(cat "$build/debian/kver" 2>/dev/null) || { "$top/tools/deps.sh" --quiet; kver=$(cat "$build/debian/kver"); }
kdir=${KDIR:-/usr/src/linux-headers-$kver}
cp_dir=$build/checkpatch

if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$cp_dir" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

mapfile -t files < <(cd "$top" && git ls-files '*.c' '*.h' 2>/dev/null ||
	find . \( -path ./build -prune \) -o \( -name '*.[ch]' ! -name '*.mod.c' -print \))
# fi-probe's userspace shim headers imitate kernel ones; checkpatch's
# kernel rules do not apply to them.
mapfile -t kfiles < <(printf '%s\n' "${files[@]}" | grep -v '^tools/fi-probe/')
mapfile -t rst < <(cd "$top" && find Documentation -name '*.rst' 2>/dev/null | sort)

echo "KTAP version 1"
echo "1..$((1 + ${#kfiles[@]} + ${#rst[@]}))"
n=1
obj=$build/obj/lint
"$top/tools/vm/build-modules.sh" "$kdir" "$obj" >/dev/null 2>&1
touch_all() { find "$obj" -name '*.c' -exec touch {} +; }
touch_all
warn=$(make -C "$kdir" M="$obj" W=1 C=2 CONFIG_FREQ_INVARIANCE=m CONFIG_SUGOV_INV=m \
	CONFIG_SUGOV_INV_VCPUFREQ=m CONFIG_SUGOV_INV_KUNIT_TEST=m modules 2>&1 |
	grep -E "^$obj/.*(warning|error)" | sed "s|$obj/||")
if [ -z "$warn" ]; then
	echo "ok $n W=1 C=2 build: no warning from our files"
else
	echo "$warn" | head -n 30 | sed 's/^/# /'
	echo "not ok $n W=1 C=2 build: no warning from our files"
fi
for f in "${kfiles[@]}"; do
	n=$((n + 1))
	res=$(cd "$top" && perl "$cp_dir/scripts/checkpatch.pl" --no-tree --strict --terse --quiet \
		-f "$f" 2>&1 | grep -E ': (ERROR|WARNING|CHECK):')
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
