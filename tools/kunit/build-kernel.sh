#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (or reuse) the sugov_inv KUnit test kernel.
#
# Unpacks Debian's linux-source-6.1 tarball into the user's cache,
# ~/.cache/sugov-inv/kunit/ (6.12's into kunit-6.12/ beside it, with
# KUNIT_SERIES=6.12), configures it
# from alldefconfig + tools/kunit/sugov_inv.config (merge_config.sh, as
# kunit.py does) and builds bzImage and the tree state that out-of-tree
# modules need (Module.symvers, scripts, generated headers), so that
#   make -C ~/.cache/sugov-inv/kunit/linux-source-6.1 M=... modules
# works against it.
#
# The result is cached outside the checkout, so that every clone on the
# machine (a fresh one included) shares one build: a stamp holds a hash
# of the config fragment, the tarball, the compiler version and this
# script; while it matches, nothing is rebuilt.
# A changed fragment reconfigures and rebuilds incrementally; a changed
# tarball unpacks afresh.  A lock keeps two callers from building at once.
#
# Usage: build-kernel.sh [-q]
#   -q        print only the kernel directory on stdout (for scripts)
# Environment:
#   KUNIT_SERIES   kernel series, 6.1 (default) or 6.12: Debian 12's two LTS
#   KUNIT_SRC_TAR  linux-source tarball (/usr/src/linux-source-SERIES.tar.xz)
#   KUNIT_BUILD    build tree of 6.1 (SUGOV_INV_CACHE/kunit); another
#                  series builds beside it, in KUNIT_BUILD-SERIES
#   SUGOV_INV_CACHE  the project's cache (XDG_CACHE_HOME/sugov-inv, that
#                  is ~/.cache/sugov-inv)
#   KUNIT_JOBS     make -j value (2: the machine is shared)
#
# Prints the kernel tree path as the last stdout line.  Exit status 0 on
# success, 1 on any failure (with the make log tail on stderr).

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FRAG="$ROOT/tools/kunit/sugov_inv.config"
SERIES=${KUNIT_SERIES:-6.1}
TAR=${KUNIT_SRC_TAR:-/usr/src/linux-source-$SERIES.tar.xz}
CACHE=${SUGOV_INV_CACHE:-${XDG_CACHE_HOME:-${HOME:-$ROOT/build}/.cache}/sugov-inv}
BUILD=${KUNIT_BUILD:-$CACHE/kunit}
[ "$SERIES" = 6.1 ] || BUILD=$BUILD-$SERIES
JOBS=${KUNIT_JOBS:-2}
QUIET=0
[ "${1:-}" = "-q" ] && QUIET=1

say() {
	if [ "$QUIET" = 1 ]; then
		echo "$*" >&2
	else
		echo "$*"
	fi
}

die() {
	echo "build-kernel: $*" >&2
	exit 1
}

[ -r "$TAR" ] || die "no kernel source tarball at $TAR (apt-get install linux-source-$SERIES, or make deps)"
[ -r "$FRAG" ] || die "no config fragment at $FRAG"

# The tarball holds one top directory (linux-source-6.1); read its name
# from the first entry instead of assuming it.
mkdir -p "$BUILD"
exec 9>"$BUILD/.lock"
flock 9 || die "cannot lock $BUILD/.lock"

src_id=$(sha256sum "$TAR" | cut -d' ' -f1)
top=$(cat "$BUILD/.src-top" 2>/dev/null || true)
if [ "$(cat "$BUILD/.src-stamp" 2>/dev/null || true)" != "$src_id" ] ||
   [ -z "$top" ] || [ ! -f "$BUILD/$top/Makefile" ]; then
	top=$(tar -tJf "$TAR" | head -n 1 | cut -d/ -f1)
	[ -n "$top" ] || die "cannot read the top directory of $TAR"
	say "kunit: unpacking $TAR into $BUILD/$top"
	rm -rf "${BUILD:?}/$top" "$BUILD/.src-stamp" "$BUILD/.stamp"
	tar -xJf "$TAR" -C "$BUILD"
	echo "$top" >"$BUILD/.src-top"
	echo "$src_id" >"$BUILD/.src-stamp"
fi
KDIR="$BUILD/$top"

# Everything that changes the binary: fragment, source, compiler.
cc_id=$(${CC:-gcc} --version | head -n 1)
stamp=$(printf '%s\n%s\n' "$src_id" "$cc_id" | cat - "$FRAG" "$0" | sha256sum |
	cut -d' ' -f1)
if [ "$(cat "$BUILD/.stamp" 2>/dev/null || true)" = "$stamp" ] &&
   [ -f "$KDIR/arch/x86/boot/bzImage" ] && [ -f "$KDIR/Module.symvers" ]; then
	say "kunit: test kernel up to date ($KDIR)"
	echo "$KDIR"
	exit 0
fi

say "kunit: configuring $KDIR from $(basename "$FRAG")"
rm -f "$BUILD/.stamp"
log="$BUILD/build.log"
# merge_config.sh over alldefconfig with the fragment as the only input:
# the result depends on the fragment alone, never on a previous .config.
(
	cd "$KDIR"
	ARCH=x86_64 scripts/kconfig/merge_config.sh "$FRAG"
) >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "merge_config.sh failed"; }

# merge_config.sh only warns when a value was dropped (unmet dependency,
# misspelt symbol); a test kernel silently missing lockdep or KASAN would
# pass everything, so treat any mismatch as an error.  The exception: a
# symbol a newer kernel removed because what it selected became the
# default, named here with the release that removed it:
#   UBSAN_SANITIZE_ALL  6.9, "ubsan: Remove CONFIG_UBSAN_SANITIZE_ALL"
#                       (UBSAN now instruments the whole kernel)
removed="UBSAN_SANITIZE_ALL"
missing=0
grep -E '^CONFIG_[A-Z0-9_]+=' "$FRAG" | while IFS= read -r line; do
	sym=${line%%=*}
	sym=${sym#CONFIG_}
	case " $removed " in *" $sym "*)
		grep -rqx --include='Kconfig*' "config $sym" "$KDIR" || {
			echo "build-kernel: CONFIG_$sym is gone from this kernel (its default now)" >&2
			continue
		} ;;
	esac
	grep -qxF "$line" "$KDIR/.config" || {
		echo "build-kernel: $line did not survive into .config" >&2
		exit 1
	}
done || missing=1
[ "$missing" = 0 ] || die "config fragment not satisfied (see above)"

say "kunit: building $KDIR with -j$JOBS (log: $log)"
start=$(date +%s)
make -C "$KDIR" ARCH=x86_64 -j"$JOBS" all >>"$log" 2>&1 ||
	{ tail -n 40 "$log" >&2; die "kernel build failed"; }
end=$(date +%s)
echo "$((end - start))" >"$BUILD/build-seconds"
say "kunit: test kernel built in $((end - start)) s"
echo "$stamp" >"$BUILD/.stamp"
echo "$KDIR"
