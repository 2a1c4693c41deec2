#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Unpack Debian 12's backported QEMU (bookworm-backports, 10.0 at the
# time of writing) under build/qemu-bpo without installing it, and
# write a qemu-system-x86_64 there that runs it with its own firmware:
#
#   tools/vm/qemu-backports.sh
#   PATH=$PWD/build/qemu-bpo/bin:$PATH tools/compare/compare --smp 4 --icount ...
#
# Why: Debian 12's QEMU 7.2 runs the vCPUs of an --icount guest in one
# thread without the fair share QEMU 8.1 added (qemu-devel,
# "accel/tcg/tcg-accel-ops-rr: ensure fairness with icount",
# Message-Id 20230427020925.51003-3-quic_jiles@quicinc.com): the vCPU
# that runs first after a timer runs up to the next one, so of two busy
# CPUs one can get nearly all of the time (Documentation/bench.rst,
# "QEMU's share of the host thread").  make check keeps
# Debian 12's own QEMU; this is for tools/compare's tables on several
# vCPUs.  The package lists go to the output directory, not to apt's
# own sources: the machine's apt setup is not changed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${BUILD_DIR:-$top/build}/qemu-bpo}
# apt reads relative Dir:: paths under its own directories: absolute here
mkdir -p "$out"
out=$(cd "$out" && pwd)
lists=$out/lists
mkdir -p "$lists/partial" "$out/cache/archives/partial" "$out/debs" "$out/bin"
for fw in /usr/share/seabios/bios-256k.bin /usr/share/qemu/kvmvapic.bin; do
	[ -f "$fw" ] || {
		echo "qemu-backports: $fw is missing: install Debian 12's qemu-system-x86 first (make deps)" >&2
		exit 1
	}
done
echo "deb http://deb.debian.org/debian bookworm-backports main" > "$out/sources.list"
set -- -o "Dir::Etc::sourcelist=$out/sources.list" -o Dir::Etc::sourceparts=- \
	-o "Dir::State::Lists=$lists" -o "Dir::Cache=$out/cache" -o APT::Sandbox::User=root
apt-get "$@" update -q --error-on=any >/dev/null || {
	echo "qemu-backports: apt-get update of bookworm-backports failed" >&2
	exit 1
}
(cd "$out/debs" && rm -f ./*.deb &&
	apt-get "$@" download qemu-system-x86 qemu-system-data qemu-system-common >/dev/null) || {
	echo "qemu-backports: bookworm-backports has no qemu-system-x86 to download" >&2
	exit 1
}
rm -rf "$out/root"
for deb in "$out"/debs/*.deb; do
	dpkg-deb -x "$deb" "$out/root"
done
missing=$(ldd "$out/root/usr/bin/qemu-system-x86_64" | grep 'not found' || true)
if [ -n "$missing" ]; then
	rm -f "$out/bin/qemu-system-x86_64"
	echo "qemu-backports: the backport needs libraries this machine lacks:" >&2
	echo "$missing" >&2
	exit 1
fi
# Its own firmware first, then Debian 12's seabios and QEMU data, which
# the backport's packages point to rather than ship.
cat > "$out/bin/qemu-system-x86_64" <<EOF
#!/bin/sh
exec "$out/root/usr/bin/qemu-system-x86_64" -L "$out/root/usr/share/qemu" \
	-L /usr/share/seabios -L /usr/share/qemu "\$@"
EOF
chmod +x "$out/bin/qemu-system-x86_64"
"$out/bin/qemu-system-x86_64" --version | head -n 1
echo "qemu-backports: PATH=$out/bin:\$PATH runs it"
