#!/bin/sh
# SPDX-License-Identifier: MIT
# `meson install` into a DESTDIR puts the program, the header, the shared
# library with its links, halluscan.pc, the manual and the packs in place;
# examples/gate.c then builds against the installed tree with pkg-config
# alone and runs.
#   usage: install_test.sh MESON BUILDDIR SRCDIR SANITIZE
set -u
meson=$1 build=$2 src=$3 sanitize=$4
# A user's build needs pkg-config and a C compiler: skip (77) without them,
# unless CI says they are there (HALLUSCAN_REQUIRE_TOOLS).
for tool in pkg-config cc readelf; do
	command -v "$tool" >/dev/null 2>&1 && continue
	[ -n "${HALLUSCAN_REQUIRE_TOOLS-}" ] && { echo "FAIL: no $tool"; exit 1; }
	echo "skip: no $tool"
	exit 77
done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

$meson install -C "$build" --destdir "$tmp/dest" --no-rebuild --quiet >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; bad "meson install"; exit 1; }
pc=$(find "$tmp/dest" -name halluscan.pc)
[ -n "$pc" ] || { bad "no halluscan.pc"; exit 1; }
# The tree's root: the .pc lies in <root>/<libdir>/pkgconfig.
prefix=$(sed -n 's/^prefix=//p' "$pc")
root=$tmp/dest$prefix
libdir=$(dirname "$(dirname "$pc")")
for f in bin/halluscan include/halluscan.h share/man/man1/halluscan.1; do
	[ -f "$root/$f" ] || bad "missing $f"
done
for f in contexts spans urls statistics citations future numbers; do
	[ -f "$root/share/halluscan/patterns/$f.yaml" ] || bad "missing pack $f.yaml"
done
[ -f "$libdir/libhalluscan.so.0.1.0" ] || bad "missing libhalluscan.so.0.1.0"
[ "$(readlink "$libdir/libhalluscan.so.0")" = libhalluscan.so.0.1.0 ] || bad "libhalluscan.so.0 link"
[ "$(readlink "$libdir/libhalluscan.so")" = libhalluscan.so.0 ] || bad "libhalluscan.so link"

pkg() { PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$root" "$@" halluscan; }
[ "$(pkg --modversion)" = "$($root/bin/halluscan --version | cut -d' ' -f2)" ] || bad "pkg-config version"
packs=$(pkg --variable=packsdir)
printf 'Docs: https://docs.example.com/setup\n' >"$tmp/reply"
"$root/bin/halluscan" --no-cache -f text --fail-on warn "$tmp/reply" >"$tmp/scan" 2>&1
status=$?
[ "$status" = 1 ] && grep -q ':1:7: warn: .*\[fabricated_url\]' "$tmp/scan" ||
	{ cat "$tmp/scan"; bad "installed halluscan: status $status"; }
"$root/bin/halluscan" --no-cache --check-rules --no-builtin-rules --rules "$packs" >"$tmp/check" 2>&1 ||
	{ cat "$tmp/check"; bad "installed packs do not check"; }

# A user's build: the installed header and library, nothing of the source tree.
cflags=
[ "$sanitize" = none ] || cflags="-fsanitize=$sanitize"
cc -std=c11 -Wall -Werror $cflags -o "$tmp/gate" "$src/examples/gate.c" $(pkg --cflags --libs) ||
	{ bad "gate.c does not build against the installed tree"; exit 1; }
readelf -d "$tmp/gate" | grep -q 'NEEDED.*\[libhalluscan.so.0\]' || bad "gate does not need libhalluscan.so.0"
LD_LIBRARY_PATH=$libdir "$tmp/gate" --context user-facing <"$tmp/reply" >"$tmp/out" 2>&1
status=$?
[ "$status" = 1 ] && [ "$(head -n 1 "$tmp/out")" = "hold: 1 finding(s), verdict block" ] ||
	{ cat "$tmp/out"; bad "installed gate: status $status"; }
LD_LIBRARY_PATH=$libdir "$tmp/gate" </dev/null >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; bad "installed gate on an empty reply"; }
[ "$fail" = 0 ] && echo "install: ok"
[ "$fail" = 0 ]
