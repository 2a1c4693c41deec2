#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make deps: idempotent set-up of a fresh Debian 12 machine for sugov_inv.
# Installs the Debian packages the project needs, then downloads and
# unpacks (never installs) Debian's linux-image-amd64 of the same version
# as linux-headers-amd64 into build/debian/, for the QEMU guest.
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
PKGS="
linux-headers-amd64:/usr/share/doc/linux-headers-amd64
linux-source-6.1:/usr/src/linux-source-6.1.tar.xz
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
