#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds halluscan and runs it on the bundled agent transcript.
set -eu
cd "$(dirname "$0")"
scripts/deps.sh
[ -d build ] || meson setup build >/dev/null
meson compile -C build >/dev/null
# One line per finding, then the summary; the full records are JSON objects.
build/halluscan examples/transcript.txt |
	jq -c 'if .type == "finding" then {line, column, signal, severity, text}
	       else {summary: .path, verdict, findings, signals} end'
