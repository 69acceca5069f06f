#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds and tests the three configurations CI runs: Hyperscan, PCRE2 only,
# and Hyperscan under AddressSanitizer and UndefinedBehaviorSanitizer.
# Ends with the line "N passed, N failed" over all of them.
set -u
cd "$(dirname "$0")"
scripts/deps.sh || exit 2
passed=0 failed=0
run() {
	dir=$1
	shift
	log=$(mktemp)
	if [ ! -d "$dir" ] && ! meson setup "$dir" "$@" >"$log" 2>&1; then
		cat "$log"
		failed=$((failed + 1))
		return
	fi
	if ! meson compile -C "$dir" >"$log" 2>&1; then
		cat "$log"
		failed=$((failed + 1))
		return
	fi
	echo "== $dir: meson test"
	meson test -C "$dir" --print-errorlogs >"$log" 2>&1
	grep -E '^ *[0-9]+/[0-9]+ ' "$log" | grep -vE ' OK ' || true
	ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log")
	bad=$(sed -n 's/^\(Fail\|Timeout\|Unexpected Pass\): *\([0-9]*\).*/\2/p' "$log" | awk '{s+=$1} END {print s+0}')
	[ -n "$ok" ] || { cat "$log"; bad=$((bad + 1)); ok=0; }
	[ "$bad" = 0 ] || grep -A40 -E '(FAIL|TIMEOUT)' "$log" | head -200
	rm -f "$log"
	echo "   $ok passed, $bad failed"
	passed=$((passed + ok))
	failed=$((failed + bad))
}
run build
run build-pcre2 -Dhyperscan=disabled
run build-san -Db_sanitize=address,undefined -Db_lundef=false
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
