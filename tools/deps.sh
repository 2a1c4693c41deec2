#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make deps: idempotent set-up of a fresh Debian 12 machine for sugov_inv.
# Installs the Debian packages the project needs, then, for each of
# Debian 12's two LTS kernels, 6.1 (linux-headers-amd64) and 6.12
# (linux-headers-6.12-amd64, from bookworm-security), downloads Debian's
# linux-image of the same version as the headers and unpacks it into
# build/debian/<release>/ for the QEMU guest (build/debian/6.1 and
# build/debian/6.12 point there).  The guest boots those unpacked copies.
#
# Usage: tools/deps.sh [--quiet] [--check]
#   --check   install nothing: resolve every command the host-side scripts
#             run (and the files they need) and name the Debian package of
#             each one missing; exit 1 when one is.  make check runs it
#             first.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
quiet=0 check=0
for a in "$@"; do
	case $a in
	--quiet) quiet=1 ;;
	--check) check=1 ;;
	*) echo "deps: unknown option $a (usage: tools/deps.sh [--quiet] [--check])" >&2; exit 2 ;;
	esac
done

say() { [ "$quiet" = 1 ] || echo "deps: $*"; }

# Root's PATH on Debian has the sbin directories (depmod, dkms); a user's
# does not, so add them for a user only: root's PATH is taken as given,
# which is what lets a test hide a command.
[ "$(id -u)" = 0 ] || PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

SUDO=
if [ "$(id -u)" != 0 ] && [ "$check" = 0 ]; then
	command -v sudo >/dev/null || { echo "deps: not root and no sudo: run as root" >&2; exit 1; }
	SUDO=sudo
fi

# package:file, where file is an absolute path the package installs or a
# command name looked up in PATH.  Every external command of tools/,
# the host-side selftests/ scripts, the Makefile and .ci/run is listed,
# the Essential ones too (a minimal image or a container may lack them;
# apt-get then says they are installed).  A new command in a script
# needs its line here: tools/deps.sh --check is what make check runs
# first.
# linux-headers-6.12-amd64 depends on Debian's linux-image of the same
# version (or its -unsigned twin), so apt installs that 6.12 image on
# this machine too: /boot/vmlinuz-6.12.*, its modules and an initramfs,
# and on a machine with GRUB a new boot entry, the default as the newest.
# Nothing here boots or loads it; DKMS builds for it, as for any kernel.
PKGS="
linux-headers-amd64:/usr/share/doc/linux-headers-amd64
linux-headers-6.12-amd64:/usr/share/doc/linux-headers-6.12-amd64
linux-source-6.1:/usr/src/linux-source-6.1.tar.xz
linux-source-6.12:/usr/src/linux-source-6.12.tar.xz
lintian:lintian
qemu-system-x86:qemu-system-x86_64
busybox-static:/bin/busybox
cpio:cpio
kmod:depmod
kmod:modinfo
flex:flex
bison:bison
libelf-dev:/usr/include/libelf.h
libssl-dev:/usr/include/openssl/ssl.h
bc:bc
sparse:sparse
gcc:gcc
make:make
xz-utils:xz
python3:python3
perl:/usr/share/doc/perl
git:git
stress-ng:stress-ng
dbench:dbench
dbench:tbench
rt-tests:hackbench
rt-tests:cyclictest
rt-app:rt-app
libgcc-s1:/lib/x86_64-linux-gnu/libgcc_s.so.1
trace-cmd:trace-cmd
python3-docutils:rst2html
gnuplot-nox:gnuplot
acpica-tools:iasl
dkms:dkms
dh-dkms:dh_dkms
debhelper:dh
dpkg-dev:dpkg-buildpackage
dpkg-dev:dpkg-parsechangelog
fakeroot:fakeroot
dpkg:dpkg
dpkg:dpkg-deb
dpkg:dpkg-query
apt:apt-get
libc-bin:ldd
util-linux:flock
bsdutils:renice
util-linux:taskset
util-linux:chrt
util-linux:setsid
util-linux:setpriv
linux-cpupower:turbostat
coreutils:chown
diffutils:cmp
findutils:find
findutils:xargs
tar:tar
gzip:gzip
sed:sed
grep:grep
mawk:awk
coreutils:timeout
coreutils:md5sum
coreutils:sha256sum
coreutils:nproc
coreutils:mktemp
coreutils:dd
"

# have FILE: FILE (absolute) exists, or the command FILE is in PATH.
have() {
	case $1 in
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

if [ "$check" = 1 ]; then
	bad=0
	for p in $PKGS; do
		pkg=${p%%:*}
		file=${p#*:}
		have "$file" && continue
		case $file in
		/*) echo "deps: missing $file (Debian package $pkg): run make deps" ;;
		*) echo "deps: missing command $file (Debian package $pkg): run make deps" ;;
		esac
		bad=1
	done
	[ "$bad" = 0 ] && say "every command and file the scripts use is there"
	exit "$bad"
fi

missing=
for p in $PKGS; do
	pkg=${p%%:*}
	file=${p#*:}
	have "$file" || case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
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
# What apt did not bring (a package that installs no such file, a PATH
# that does not reach it) is named now, not discovered in the middle of
# a test run.
"$0" --check --quiet || exit 1

# unpack SERIES META: the headers' version decides the guest kernel
# (modules built against META's headers must load into exactly that
# vmlinuz): download that linux-image (apt's cache has it when apt just
# installed it) and unpack it into build/debian/<release>, never install
# it; build/debian/SERIES points there.
tmp=
trap 'rm -rf "$tmp"' EXIT
unpack() {
	local series=$1 meta=$2 kver img deb
	kver=$(dpkg-query -W -f='${Depends}' "$meta" |
		sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
	[ -n "$kver" ] || { echo "deps: cannot tell the version of $meta" >&2; exit 1; }
	img=$build/debian/$kver
	mkdir -p "$build/debian"
	if [ -s "$img/vmlinuz" ]; then
		say "Debian $series kernel $kver already unpacked in ${img#"$top"/}"
	else
		say "unpacking linux-image-$kver (from apt's cache or downloaded) into ${img#"$top"/}, not installing it"
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		deb=$(ls /var/cache/apt/archives/"linux-image-${kver}_$(dpkg-query -W -f='${Version}' "linux-headers-$kver" | sed 's/:/%3a/')_amd64.deb" 2>/dev/null) ||
			{ (cd "$tmp" && apt-get download -q "linux-image-$kver" >/dev/null 2>&1 ||
				{ $SUDO apt-get update -q >/dev/null && apt-get download -q "linux-image-$kver" >/dev/null 2>&1; }) &&
			deb=$(ls "$tmp"/linux-image-*.deb); } ||
			{ echo "deps: cannot download linux-image-$kver" >&2; exit 1; }
		mkdir -p "$tmp/x"
		dpkg-deb -x "$deb" "$tmp/x"
		rm -rf "$img.new"
		mkdir -p "$img.new"
		cp "$tmp/x/boot/vmlinuz-$kver" "$img.new/vmlinuz"
		cp "$tmp/x/boot/config-$kver" "$img.new/config"
		cp -a "$tmp/x/lib/modules/$kver" "$img.new/modules"
		rm -rf "$img" "$tmp"
		mv "$img.new" "$img"
	fi
	ln -sfn "$kver" "$build/debian/$series"
	say "guest kernel $series: ${img#"$top"/}/vmlinuz, headers: /usr/src/linux-headers-$kver"
}
unpack 6.1 linux-headers-amd64
unpack 6.12 linux-headers-6.12-amd64
# The default guest, 6.1, under the names the scripts used before 6.12.
ln -sfn "$(readlink "$build/debian/6.1")" "$build/debian/current"
readlink "$build/debian/6.1" > "$build/debian/kver"
