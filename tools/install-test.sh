#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# KTAP, make check's "install" part: the Debian package end to end on
# this machine, for both of Debian 12's LTS kernels (6.1 and 6.12, whose
# headers make deps installs), and make modules_install / make uninstall
# in a staging root.
#   1. dpkg-buildpackage -b -us -uc builds sugov-inv-dkms_VERSION_all.deb
#      whose dkms.conf carries VERSION, with the example files;
#   2. a VERSION that disagrees with debian/changelog fails that build;
#   3. lintian finds no error and no warning in the .deb, and the error
#      planted in a copy (bogus-mail-host);
#   4. apt-get install ./the.deb succeeds: DKMS builds for every kernel
#      with headers, and a running kernel without headers does not fail
#      the install;
#   5-6. for 6.1, then 6.12: the two modules, and only they, are in
#      /lib/modules/<release>/updates/dkms/, modinfo shows VERSION;
#   7-8. a guest of each kernel loads those very files, with
#      cpufreq.default_governor=sugov_inv (selftests/65-install.sh, its
#      results nested here);
#   9. dpkg --purge removes the modules of both, the sources and DKMS's
#      tree;
#   10. the machine is left as found: nothing new under
#      /lib/modules/<6.1 and 6.12 releases> or /var/lib/dkms (depmod's
#      files included);
#   11-12. make modules_install then make uninstall, against each
#      kernel's headers, in a staging root leave no module behind.
# Needs root (skips otherwise).  A package left installed by an aborted
# run is purged first; whatever happens, an EXIT trap purges it and
# removes what the run added, from a snapshot kept across runs in
# /var/tmp until a run has cleaned up.  About 6-8 minutes here.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
pkg=sugov-inv-dkms
ver=$(cat "$top/VERSION")
series="6.1 6.12"
krels=
for s in $series; do
	krels="$krels $(readlink "$build/debian/$s" 2>/dev/null)"
done
krels=${krels# }
# The snapshot names the kernels it covers: one taken for other kernels
# (an older run's) must not make this run delete a module tree.
snap=/var/tmp/sugov-inv-install-test-$(echo "$krels" | md5sum | cut -c1-8).before

echo "KTAP version 1"
echo "1..12"
skip_all() {
	for i in $(seq 1 12); do echo "ok $i # SKIP $1"; done
	exit 0
}
[ "$(id -u)" = 0 ] || skip_all "not root: installing a package needs root"
for k in $krels; do
	[ -d "/usr/src/linux-headers-$k" ] && continue
	skip_all "no Debian headers for $k (run make deps)"
done
[ "$(echo "$krels" | wc -w)" = 2 ] || skip_all "no Debian 6.1 and 6.12 kernels in build/debian (run make deps)"
# krel SERIES: the release of Debian's kernel of that series
krel() { readlink "$build/debian/$1"; }

work=$(mktemp -d)
chmod 755 "$work"

state() {
	local k
	{
		for k in $krels; do find "/lib/modules/$k" -xdev; done
		find /var/lib/dkms -xdev
	} 2>/dev/null | sort
}
installed() { dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null | grep -qv '^not-installed$'; }
cleanup() {
	installed && dpkg --purge "$pkg" > "$work/purge-trap.log" 2>&1
	rm -rf "/usr/src/sugov-inv-$ver" /var/lib/dkms/sugov-inv
	if [ -s "$snap" ]; then
		# What the run added (depmod's modules.* files, updates/):
		# files first, then the directories left empty, deepest first.
		state | comm -13 "$snap" - | sort -r | while IFS= read -r f; do
			if [ -d "$f" ]; then rmdir "$f" 2>/dev/null; else rm -f "$f"; fi
		done
		[ -z "$(state | comm -13 "$snap" -)" ] && rm -f "$snap"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if installed; then
	echo "# $pkg is installed (an earlier run aborted?): purging it first"
	dpkg --purge "$pkg" > /dev/null 2>&1
fi
# The snapshot of an aborted run is older, hence the state to go back to.
[ -s "$snap" ] || state > "$snap"

# 1. the package
mkdir -p "$work/src"
(cd "$top" && git ls-files -z 2>/dev/null | xargs -0 -r cp --parents -t "$work/src") ||
	cp -r "$top"/. "$work/src"
cp -r "$work/src" "$work/bad"
deb=$work/${pkg}_${ver}_all.deb
t0=$(date +%s)
(cd "$work/src" && dpkg-buildpackage -b -us -uc) > "$work/build.log" 2>&1
rc=$?
conf=$(dpkg-deb --fsys-tarfile "$deb" 2>/dev/null | tar -xO "./usr/src/sugov-inv-$ver/dkms.conf" 2>/dev/null)
list=$(dpkg-deb -c "$deb" 2>/dev/null | awk '{ print $NF }')
ex=/usr/share/doc/$pkg/examples
missing=
for f in "$ex/modules-load.d/sugov-inv.conf" "$ex/modprobe.d/sugov-inv.conf" \
	"$ex/systemd/sugov-inv-governor.service" "/usr/src/sugov-inv-$ver/VERSION"; do
	grep -qx ".$f" <<< "$list" || missing="$missing $f"
done
[ -z "$missing" ] || echo "# not in the package:$missing"
if [ "$rc" = 0 ] && [ -s "$deb" ] && grep -qx "PACKAGE_VERSION=\"$ver\"" <<< "$conf" && [ -z "$missing" ]; then
	echo "# built ${deb##*/} in $(($(date +%s) - t0)) s"
	echo "ok 1 dpkg-buildpackage builds ${deb##*/}: dkms.conf says $ver, the examples are in $ex"
else
	tail -n 15 "$work/build.log" | sed 's/^/# /'
	echo "not ok 1 dpkg-buildpackage builds ${pkg}_${ver}_all.deb (exit $rc)"
fi

# 2. one version
echo 9.9.9 > "$work/bad/VERSION"
if ! out=$(cd "$work/bad" && dpkg-buildpackage -b -us -uc 2>&1) && grep -q 'VERSION says 9.9.9 but debian/changelog says' <<< "$out"; then
	echo "ok 2 a VERSION that disagrees with debian/changelog fails the build"
else
	echo "$out" | tail -n 5 | sed 's/^/# /'
	echo "not ok 2 a VERSION that disagrees with debian/changelog fails the build"
fi

# 3. lintian, as Debian's archive runs it: an error or a warning fails.
# Precondition: lintian runs, and it reports an error planted in a copy
# of the package (a Maintainer address at localhost, bogus-mail-host, the
# error the package once had), so a missing or silent lintian cannot pass.
# lint_tags DEB: lintian's E:/W: lines for DEB, or "lintian failed".
lint_tags() {
	local out rc
	out=$(lintian "$1" 2>&1)
	rc=$?
	# lintian exits 2 on an error it reports, and on one of its own
	grep -E '^[EW]: ' <<< "$out" ||
		{ [ "$rc" = 0 ] || echo "lintian failed (exit $rc): ${out##*$'\n'}"; }
}
t0=$(date +%s)
lout=
pout="no package to plant an error in"
if ! command -v lintian >/dev/null; then
	lout="lintian is not installed (Debian package lintian: make deps)"
elif [ -s "$deb" ]; then
	lout=$(lint_tags "$deb")
	rm -rf "$work/planted"
	dpkg-deb -R "$deb" "$work/planted" &&
		sed -i 's/^Maintainer: .*/Maintainer: planted <planted@localhost>/' "$work/planted/DEBIAN/control" &&
		dpkg-deb --root-owner-group -b "$work/planted" "$work/planted.deb" > /dev/null &&
		pout=$(lint_tags "$work/planted.deb")
fi
[ -z "$lout" ] || echo "$lout" | head -n 10 | sed 's/^/# /'
echo "# planted Maintainer planted@localhost: ${pout:-lintian reported nothing}" | head -n 3
if [ -s "$deb" ] && [ -z "$lout" ] && grep -q '^E: .*bogus-mail-host' <<< "$pout"; then
	echo "# lintian took $(($(date +%s) - t0)) s (the package and the planted copy)"
	echo "ok 3 lintian ${deb##*/}: no error, no warning (a planted error is reported)"
else
	echo "not ok 3 lintian ${deb##*/}: no error, no warning (a planted error is reported)"
fi

# 4. install
t0=$(date +%s)
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" > "$work/install.log" 2>&1
rc=$?
grep -iE 'building for|skipped|headers|error' "$work/install.log" | head -n 8 | sed 's/^/# /'
if [ "$rc" = 0 ] && installed; then
	echo "# installed in $(($(date +%s) - t0)) s; running kernel $(uname -r): $([ -d "/lib/modules/$(uname -r)/build" ] && echo has headers || echo no headers)"
	echo "ok 4 apt-get install ./${deb##*/}"
else
	tail -n 15 "$work/install.log" | sed 's/^/# /'
	echo "not ok 4 apt-get install ./${deb##*/} (exit $rc)"
fi
# DKMS's postinst builds for every kernel in /lib/modules only when the
# running one is not installed (a container, this machine); otherwise
# for the running and the newest kernel.  What it left out is what a
# kernel package's own hook (/etc/kernel/postinst.d/dkms) would build.
for s in $series; do
	k=$(krel "$s")
	installed && ! dkms status -m sugov-inv -v "$ver" -k "$k" 2>/dev/null | grep -q ': installed' || continue
	echo "# DKMS's postinst did not build for $k: dkms install -k $k"
	dkms install -m sugov-inv -v "$ver" -k "$k" >> "$work/install.log" 2>&1
done

# 5-6. what DKMS installed, per kernel.  DKMS compresses a module as the
# kernel's own are: plain for Debian's 6.1, xz for its 6.12
# (CONFIG_MODULE_COMPRESS_XZ).
# ko_ext SERIES: the extension of that kernel's modules
ko_ext() {
	grep -q '^CONFIG_MODULE_COMPRESS_XZ=y' "$build/debian/$1/config" && echo .ko.xz || echo .ko
}
n=5
for s in $series; do
	dest=/lib/modules/$(krel "$s")/updates/dkms
	x=$(ko_ext "$s")
	ok=0
	have=$(cd "$dest" 2>/dev/null && ls | tr '\n' ' ')
	[ "$have" = "freq_invariance$x sugov_inv$x " ] || { ok=1; echo "# $dest holds: $have"; }
	for m in freq_invariance sugov_inv; do
		v=$(modinfo -F version "$dest/$m$x" 2>/dev/null)
		[ "$v" = "$ver" ] || { ok=1; echo "# modinfo -F version $dest/$m$x: '$v'"; }
	done
	echo "$([ $ok = 0 ] && echo ok || echo not ok) $n $s: $dest holds freq_invariance$x and sugov_inv$x, modinfo version $ver"
	n=$((n + 1))
done
dkms status sugov-inv 2>/dev/null | sed 's/^/# dkms status: /'

# 7-8. those files in a guest of each kernel; an xz-compressed module is
# unpacked first, as busybox's insmod and modprobe cannot read xz.
for s in $series; do
	dest=/lib/modules/$(krel "$s")/updates/dkms
	x=$(ko_ext "$s")
	mkdir -p "$work/ko-$s"
	for m in freq_invariance sugov_inv; do
		rm -f "$work/ko-$s/$m.ko"
		case $x in
		.ko.xz) xz -dc "$dest/$m$x" > "$work/ko-$s/$m.ko" 2>/dev/null || rm -f "$work/ko-$s/$m.ko" ;;
		*) cp "$dest/$m$x" "$work/ko-$s/$m.ko" 2>/dev/null ;;
		esac
	done
	if [ ! -s "$work/ko-$s/freq_invariance.ko" ] || [ ! -s "$work/ko-$s/sugov_inv.ko" ]; then
		echo "not ok $n a $s guest loads the DKMS-built modules: nothing to load"
		n=$((n + 1))
		continue
	fi
	log=$build/vm/install-$s.log
	rm -f "$log"
	"$top/tools/vm/run" --kernel-version "$s" --name "install-$s" --smp 2 --timeout 600 --retry-foreign \
		--add "$work/ko-$s/freq_invariance.ko:dkms/freq_invariance.ko" \
		--add "$work/ko-$s/sugov_inv.ko:dkms/sugov_inv.ko" \
		--add "$top/examples:examples" \
		--append "cpufreq.default_governor=sugov_inv" \
		-- env INSTALL_KO_DIR=/sugov/dkms INSTALL_EXPECT_VERSION="$ver" \
		sh selftests/run.sh '65-*' > "$work/vm.out" 2>&1
	rc=$?
	if [ -s "$log" ]; then
		# The guest's KTAP, nested; not the kernel's console lines
		tr -d '\r' < "$log" | sed -n '/^KTAP version/,$p' |
			grep -v -e '^SUGOV_VM_EXIT' -e '^\[ *[0-9]*\.[0-9]*\]' | sed 's/^/    /'
	else
		tail -n 5 "$work/vm.out" | sed 's/^/# /'
		echo "# the guest did not start"
	fi
	# tools/vm/run --retry-foreign says so when a QEMU crash outside our
	# modules made it boot the guest twice
	head -n 1 "$log" 2>/dev/null | grep '^# [^ ]* ran twice: '
	echo "$([ $rc = 0 ] && echo ok || echo not ok) $n a $s guest loads the DKMS-built modules (exit $rc)"
	n=$((n + 1))
done

# 9. purge
dpkg --purge "$pkg" > "$work/purge.log" 2>&1
rc=$?
left=
for k in $krels; do
	left="$left$(ls -d "/lib/modules/$k/updates/dkms"/freq_invariance.ko* "/lib/modules/$k/updates/dkms"/sugov_inv.ko* 2>/dev/null)"
done
left="$left$(ls -d "/usr/src/sugov-inv-$ver" /var/lib/dkms/sugov-inv 2>/dev/null)"
if [ "$rc" = 0 ] && ! installed && [ -z "$left" ]; then
	echo "ok 9 dpkg --purge removes the modules of both kernels, /usr/src/sugov-inv-$ver and /var/lib/dkms/sugov-inv"
else
	tail -n 5 "$work/purge.log" | sed 's/^/# /'
	[ -n "$left" ] && echo "# left: $left"
	echo "not ok 9 dpkg --purge removes the modules, the sources and DKMS's tree (exit $rc)"
fi

# 10. as found
before=$(cat "$snap")
trap - EXIT
cleanup
extra=$(state | comm -13 <(echo "$before") -)
gone=$(state | comm -23 <(echo "$before") -)
if [ -z "$extra" ] && [ -z "$gone" ]; then
	echo "ok 10 /lib/modules/{${krels// /,}} and /var/lib/dkms are as found"
else
	echo "$extra" | head -n 5 | sed 's/^/# added: /'
	echo "$gone" | head -n 5 | sed 's/^/# removed: /'
	echo "not ok 10 /lib/modules/{${krels// /,}} and /var/lib/dkms are as found"
fi

# 11-12. make modules_install / make uninstall against each kernel's
# headers, in a staging root and a copy of the tree (kbuild writes its
# objects next to the sources)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
(cd "$top" && git ls-files -z 2>/dev/null | xargs -0 -r cp --parents -t "$work/src")
[ -f "$work/src/Makefile" ] || cp -r "$top"/*.c "$top"/*.h "$top"/Kbuild "$top"/Makefile "$top"/VERSION "$top"/tools "$work/src"/
n=11
for s in $series; do
	k=$(krel "$s")
	root=$work/root-$s
	mkdir -p "$root"
	make -s -C "$work/src" clean > /dev/null 2>&1
	make -s -C "$work/src" KDIR="/usr/src/linux-headers-$k" INSTALL_MOD_PATH="$root" modules_install > "$work/mi.log" 2>&1
	rc1=$?
	n1=$(find "$root" -name '*.ko*' | wc -l)
	make -s -C "$work/src" KDIR="/usr/src/linux-headers-$k" INSTALL_MOD_PATH="$root" uninstall > "$work/un.log" 2>&1
	rc2=$?
	n2=$(find "$root" -name '*.ko*' | wc -l)
	dep=$(cat "$root/lib/modules/$k/modules.dep" 2>/dev/null)
	if [ "$rc1" = 0 ] && [ "$n1" = 2 ] && [ "$rc2" = 0 ] && [ "$n2" = 0 ] && [ -f "$root/lib/modules/$k/modules.dep" ] &&
		! grep -q sugov_inv <<< "$dep"; then
		echo "ok $n $s: make modules_install puts 2 modules in a staging root, make uninstall removes them and re-runs depmod"
	else
		tail -n 5 "$work/mi.log" "$work/un.log" | sed 's/^/# /'
		echo "not ok $n $s: make modules_install then make uninstall (exit $rc1/$rc2, $n1 then $n2 modules)"
	fi
	n=$((n + 1))
done
