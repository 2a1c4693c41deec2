#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the base initramfs of the test guest: busybox-static, the Debian
# workloads the tests run (stress-ng, hackbench, dbench/tbench, cyclictest,
# rt-app, trace-cmd) with the shared libraries they need, and, when given, the
# guest kernel's own modules (cpufreq governors, msr).  The per-run part
# (our modules, the tests, the command) is a second archive that
# tools/vm/run appends: the kernel unpacks concatenated cpio archives.
#
# Usage: tools/vm/mkinitramfs.sh OUT.cpio.gz [KMOD_DIR KERNEL_RELEASE]
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
kmods=${2:-}
krel=${3:-}

# depmod lives in /usr/sbin, which only root's PATH has.
[ "$(id -u)" = 0 ] || PATH=$PATH:/usr/sbin:/sbin
for c in depmod ldd cpio gzip xz; do
	command -v "$c" >/dev/null || { echo "mkinitramfs: $c not found: run make deps (tools/deps.sh --check names the package)" >&2; exit 1; }
done

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,lib,lib64,mnt}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# Copy a program and the libraries ldd names for it, keeping paths.
copy_prog() {
	local prog lib
	prog=$(command -v "$1") || { echo "mkinitramfs: $1 not found (run make deps)" >&2; exit 1; }
	# A PATH of symlinks (tools/deps-test.sh) must not put the program
	# where the guest cannot see it (/tmp is a tmpfs there).
	case $prog in /usr/*|/bin/*|/sbin/*) ;; *) prog=$(readlink -f "$prog") ;; esac
	cp --parents -L "$prog" "$root"
	for lib in $(ldd "$prog" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || cp --parents -L "$lib" "$root"
	done
}
for p in stress-ng hackbench cyclictest dbench tbench tbench_srv trace-cmd \
	 rt-app taskset chrt nproc timeout; do
	copy_prog "$p"
done
# glibc loads libgcc_s at run time (no ldd line) for pthread_exit and
# pthread_cancel, which rt-app's threads call.
for lib in /lib/x86_64-linux-gnu/libgcc_s.so.1 /usr/lib/x86_64-linux-gnu/libgcc_s.so.1; do
	[ -e "$lib" ] && { cp --parents -L "$lib" "$root"; break; }
done
# dbench's default client load file.
if [ -d /usr/share/dbench ]; then
	cp -r --parents /usr/share/dbench "$root"
fi
# trace-cmd loads its plugins from here; absent plugins only warn.
for d in /usr/lib/x86_64-linux-gnu/traceevent /usr/lib/x86_64-linux-gnu/trace-cmd; do
	[ -d "$d" ] && cp -r --parents "$d" "$root"
done

echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
echo '127.0.0.1 localhost' > "$root/etc/hosts"

# Guest kernel modules the tests use: the governors Debian builds as
# modules, msr for fi-probe, null_blk (and configfs) as a block device
# whose I/O waits give the governors SCHED_CPUFREQ_IOWAIT wake-ups.  modules.dep lets busybox modprobe work.
if [ -n "$kmods" ]; then
	dst=$root/lib/modules/$krel
	mkdir -p "$dst"
	(cd "$kmods" && for m in $(find . -name 'cpufreq_*.ko*' -o -name 'msr.ko*' \
			-o -name 'null_blk.ko*' -o -name 'configfs.ko*'); do
		cp --parents "$m" "$dst"
	done)
	# Debian's 6.12 modules are xz-compressed, which busybox modprobe
	# cannot load: store them plain (depmod then indexes the .ko).
	find "$dst" -name '*.ko.xz' -exec xz -d {} +
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		[ -f "$kmods/$f" ] && cp "$kmods/$f" "$dst"
	done
	# A kernel package carries no modules.dep (depmod makes it at install).
	depmod -b "$root" "$krel"
fi

cp "$top/tools/vm/init" "$root/init"
chmod +x "$root/init"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.$$.tmp"
mv "$out.$$.tmp" "$out"
