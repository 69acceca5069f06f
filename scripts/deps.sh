#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what the build needs from Debian's packages, if it is missing:
# meson, ninja, pkg-config, a C compiler, libyaml, PCRE2 and Hyperscan
# (Vectorscan where Hyperscan is not packaged, as on arm64), lld (the
# linker that lays out the functions a start runs side by side; the build
# links with the default one without it), plus jq for the examples. Does
# nothing when everything is there.
set -eu
need=0
for pc in libhs libpcre2-8 yaml-0.1; do
	pkg-config --exists "$pc" 2>/dev/null || need=1
done
for cmd in meson ninja cc ld.lld jq; do
	command -v "$cmd" >/dev/null 2>&1 || need=1
done
[ "$need" = 0 ] && exit 0
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
hs=libhyperscan-dev
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || hs=libvectorscan-dev
# The two provide the same libhs and conflict: keep one already installed.
dpkg -s libvectorscan-dev >/dev/null 2>&1 && hs=libvectorscan-dev
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
	build-essential meson ninja-build pkg-config \
	libyaml-dev libpcre2-dev "$hs" lld jq >/dev/null
