#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Graft the project into a kernel source tree, the way an in-tree driver
# sits there, so that the kernel's own KUnit runner finds the suites:
#
#   tools/kunit/graft.sh ~/linux
#   cd ~/linux
#   ./tools/testing/kunit/kunit.py run --arch=x86_64 \
#           --kunitconfig=drivers/cpufreq/sugov_inv
#
# drivers/cpufreq/sugov_inv becomes a symbolic link to this tree (edits
# here are what the next kunit.py run builds); drivers/cpufreq/Kconfig
# sources its Kconfig and drivers/cpufreq/Makefile descends into it.
# Idempotent: a second run changes nothing.  --remove undoes all three.
#
# Usage: tools/kunit/graft.sh [--remove] KERNEL_TREE
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
remove=0
[ "${1:-}" = --remove ] && { remove=1; shift; }
[ $# = 1 ] || { echo "usage: $0 [--remove] KERNEL_TREE" >&2; exit 2; }
ktree=$(cd "$1" && pwd)
[ -f "$ktree/drivers/cpufreq/Kconfig" ] && [ -x "$ktree/tools/testing/kunit/kunit.py" ] ||
	{ echo "graft: $ktree is not a kernel source tree with KUnit" >&2; exit 2; }

link=$ktree/drivers/cpufreq/sugov_inv
kconfig=$ktree/drivers/cpufreq/Kconfig
makefile=$ktree/drivers/cpufreq/Makefile
kline='source "drivers/cpufreq/sugov_inv/Kconfig"'
mline='obj-y += sugov_inv/'

if [ "$remove" = 1 ]; then
	[ -L "$link" ] && rm "$link"
	sed -i "\\|^$kline\$|d" "$kconfig"
	sed -i "\\|^$mline\$|d" "$makefile"
	echo "graft: removed from $ktree"
	exit 0
fi

if [ -e "$link" ] && [ ! -L "$link" ]; then
	echo "graft: $link exists and is not our link" >&2
	exit 1
fi
ln -sfn "$top" "$link"
# The symbols depend on CPU_FREQ themselves: outside its if-block is fine.
grep -qxF "$kline" "$kconfig" || echo "$kline" >> "$kconfig"
grep -qxF "$mline" "$makefile" || echo "$mline" >> "$makefile"
echo "graft: $link -> $top"
echo "graft: now: cd $ktree && ./tools/testing/kunit/kunit.py run --arch=x86_64 --kunitconfig=drivers/cpufreq/sugov_inv"
