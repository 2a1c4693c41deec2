#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# KTAP: tools/deps.sh on a machine where a command is missing.  Hides
# kmod's commands (depmod, modinfo...) behind a PATH of symlinks to every
# other program of this machine, then checks that
#   1. deps.sh --check passes on this machine as it is;
#   2. with depmod hidden, deps.sh --check fails and names depmod and
#      the Debian package kmod;
#   3. tools/vm/mkinitramfs.sh stops with one line naming depmod instead
#      of failing in the middle;
#   4. deps.sh (make deps) installs kmod: a stand-in apt-get in that PATH
#      records what it is asked to install and "installs" kmod by linking
#      its commands back in; deps.sh then passes its own check;
#   5. mkinitramfs.sh then builds the guest's initramfs with modules.dep
#      (what make demo needed and, before, did not get on a fresh machine).
# Usage: tools/deps-test.sh   (about 20 s; root, as make deps)
#   tools/deps-test.sh --fake-path DIR   only set up DIR (for a manual
#   "PATH=DIR make demo" with kmod hidden) and print it
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}

# Commands of a package (those in a bin directory)
pkg_cmds() { dpkg -L "$1" 2>/dev/null | grep -E '^(/usr)?/s?bin/[^/]+$' | xargs -r -n1 basename | sort -u; }

# fake_path DIR PKG: DIR gets a symlink to every program in the real PATH
# directories except PKG's, and an apt-get that "installs" PKG by linking
# its commands into DIR and logs its arguments to DIR/apt.log.
fake_path() {
	local dir=$1 pkg=$2 d f hide
	hide=$(pkg_cmds "$pkg")
	mkdir -p "$dir"
	for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			f=${f##*/}
			[ -e "$dir/$f" ] && continue
			grep -qxF -- "$f" <<< "$hide" && continue
			ln -s "$d/$f" "$dir/$f"
		done
	done
	rm -f "$dir/apt-get"
	{
		echo '#!/bin/sh'
		echo "echo \"\$*\" >> '$dir/apt.log'"
		echo 'case " $* " in *" install "*) ;; *) exit 0 ;; esac'
		echo "case \" \$* \" in *' $pkg '*) ;; *) exit 0 ;; esac"
		for f in $hide; do
			echo "ln -sf '$(command -v "$f")' '$dir/$f'"
		done
	} > "$dir/apt-get"
	chmod +x "$dir/apt-get"
}

if [ "${1:-}" = --fake-path ]; then
	fake_path "$2" kmod
	echo "$2"
	exit 0
fi

echo "KTAP version 1"
echo "1..5"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if out=$("$top/tools/deps.sh" --check 2>&1); then
	echo "ok 1 deps.sh --check passes on this machine"
else
	echo "$out" | head -n 10 | sed 's/^/# /'
	echo "not ok 1 deps.sh --check passes on this machine"
fi

if [ -z "$(pkg_cmds kmod)" ] || ! command -v depmod >/dev/null; then
	for i in 2 3 4 5; do echo "ok $i # SKIP kmod is not installed here: nothing to hide"; done
	exit 0
fi
fake=$tmp/path
fake_path "$fake" kmod

out=$(PATH=$fake "$top/tools/deps.sh" --check 2>&1)
rc=$?
echo "$out" | head -n 5 | sed 's/^/# /'
if [ "$rc" != 0 ] && grep -q 'depmod.*Debian package kmod' <<< "$out"; then
	echo "ok 2 deps.sh --check with depmod hidden fails and names kmod"
else
	echo "not ok 2 deps.sh --check with depmod hidden fails and names kmod (exit $rc)"
fi

kmods=$build/debian/current/modules
krel=$(cat "$build/debian/kver" 2>/dev/null)
out=$(PATH=$fake "$top/tools/vm/mkinitramfs.sh" "$tmp/a.cpio.gz" "$kmods" "$krel" 2>&1)
rc=$?
echo "$out" | head -n 3 | sed 's/^/# /'
if [ "$rc" != 0 ] && [ "$(wc -l <<< "$out")" = 1 ] && grep -q depmod <<< "$out"; then
	echo "ok 3 mkinitramfs.sh with depmod hidden stops with one line naming it"
else
	echo "not ok 3 mkinitramfs.sh with depmod hidden stops with one line naming it (exit $rc)"
fi

if [ "$(id -u)" != 0 ]; then
	echo "ok 4 # SKIP not root: deps.sh would ask sudo to install"
	echo "ok 5 # SKIP not root"
	exit 0
fi
out=$(PATH=$fake "$top/tools/deps.sh" 2>&1)
rc=$?
echo "$out" | head -n 5 | sed 's/^/# /'
sed 's/^/# apt-get /' "$fake/apt.log" 2>/dev/null
if [ "$rc" = 0 ] && grep -qE '(^| )install .* kmod( |$)' "$fake/apt.log" 2>/dev/null &&
	[ -e "$fake/depmod" ]; then
	echo "ok 4 deps.sh installs kmod when depmod is missing, then passes its check"
else
	echo "not ok 4 deps.sh installs kmod when depmod is missing, then passes its check (exit $rc)"
fi

out=$(PATH=$fake "$top/tools/vm/mkinitramfs.sh" "$tmp/b.cpio.gz" "$kmods" "$krel" 2>&1)
rc=$?
echo "$out" | head -n 3 | sed 's/^/# /'
list=$(gzip -dc "$tmp/b.cpio.gz" 2>/dev/null | cpio -t --quiet 2>/dev/null)
if [ "$rc" = 0 ] && grep -q "lib/modules/$krel/modules.dep$" <<< "$list"; then
	echo "ok 5 mkinitramfs.sh after that builds the initramfs with modules.dep"
else
	echo "not ok 5 mkinitramfs.sh after that builds the initramfs with modules.dep (exit $rc)"
fi
