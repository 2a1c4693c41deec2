#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make deps: idempotent set-up of a fresh Debian 12 machine for sugov_inv.
# Installs the Debian packages the project needs, then downloads and
# unpacks (never installs) Debian's linux-image-amd64 of the same version
# as linux-headers-amd64 into build/debian/, for the QEMU guest.
#
# Usage: tools/deps.sh [--quiet]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
quiet=0
[ "${1:-}" = --quiet ] && quiet=1

say() { [ "$quiet" = 1 ] || echo "deps: $*"; }

SUDO=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "deps: not root and no sudo: run as root" >&2; exit 1; }
	SUDO=sudo
fi

# Package -> a file it provides, so an installed package is skipped
# without asking apt.
PKGS="
linux-headers-amd64:/usr/share/doc/linux-headers-amd64
linux-source-6.1:/usr/src/linux-source-6.1.tar.xz
qemu-system-x86:/usr/bin/qemu-system-x86_64
busybox-static:/bin/busybox
cpio:/usr/bin/cpio
flex:/usr/bin/flex
bison:/usr/bin/bison
libelf-dev:/usr/include/libelf.h
libssl-dev:/usr/include/openssl/ssl.h
bc:/usr/bin/bc
sparse:/usr/bin/sparse
gcc:/usr/bin/gcc
make:/usr/bin/make
xz-utils:/usr/bin/xz
python3:/usr/bin/python3
stress-ng:/usr/bin/stress-ng
dbench:/usr/bin/dbench
rt-tests:/usr/bin/hackbench
trace-cmd:/usr/bin/trace-cmd
python3-docutils:/usr/bin/rst2html
gnuplot-nox:/usr/bin/gnuplot
acpica-tools:/usr/bin/iasl
"

missing=
for p in $PKGS; do
	pkg=${p%%:*}
	file=${p#*:}
	[ -e "$file" ] || missing="$missing $pkg"
done

if [ -n "$missing" ]; then
	say "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	$SUDO apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
else
	say "Debian packages already installed"
fi

# The headers' version decides the guest kernel: modules built against
# linux-headers-amd64 must load into exactly that vmlinuz.
kver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 |
	sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
[ -n "$kver" ] || { echo "deps: cannot tell the version of linux-headers-amd64" >&2; exit 1; }
img=$build/debian/$kver
if [ -s "$img/vmlinuz" ]; then
	say "Debian kernel $kver already unpacked in ${img#"$top"/}"
else
	say "downloading linux-image-$kver (unpacked into ${img#"$top"/}, not installed)"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -q "linux-image-$kver" >/dev/null 2>&1 ||
		{ $SUDO apt-get update -q >/dev/null && apt-get download -q "linux-image-$kver" >/dev/null 2>&1; })
	deb=$(ls "$tmp"/linux-image-*.deb)
	mkdir -p "$tmp/x"
	dpkg-deb -x "$deb" "$tmp/x"
	rm -rf "$img.new"
	mkdir -p "$img.new"
	cp "$tmp/x/boot/vmlinuz-$kver" "$img.new/vmlinuz"
	cp "$tmp/x/boot/config-$kver" "$img.new/config"
	cp -a "$tmp/x/lib/modules/$kver" "$img.new/modules"
	rm -rf "$img"
	mv "$img.new" "$img"
fi
ln -sfn "$kver" "$build/debian/current"
echo "$kver" > "$build/debian/kver"
say "guest kernel: ${img#"$top"/}/vmlinuz, headers: /usr/src/linux-headers-$kver"
