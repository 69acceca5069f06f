#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/gate.c, built against the library, decides as the program does:
# ship (0) or hold (1), with the findings; 2 for an error.
#   usage: gate_test.sh GATE
set -u
gate=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
expect() { # NAME STATUS FIRST-LINE [ARGS...] < reply
	name=$1 want_status=$2 want_line=$3
	shift 3
	"$gate" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	line=$(head -n 1 "$tmp/out")
	if [ "$status" = "$want_status" ] && [ "$line" = "$want_line" ]; then
		pass=$((pass + 1))
	else
		echo "$name: status $status, first line \"$line\"; wanted $want_status, \"$want_line\""
		cat "$tmp/out" "$tmp/err"
		fail=$((fail + 1))
	fi
}
echo 'Refunds within 14 days; members save 10%.' >"$tmp/policy.txt"
printf 'Docs: https://docs.example.com/setup\n' >"$tmp/url.txt"
echo 'You have 30 days to return it and save 12%.' >"$tmp/numbers.txt"
echo 'Members save 10% on returns within 14 days.' >"$tmp/faithful.txt"

expect url-warns 0 "ship: 1 finding(s), verdict warn" <"$tmp/url.txt"
expect url-user-facing 1 "hold: 1 finding(s), verdict block" --context user-facing <"$tmp/url.txt"
grep -q '^block fabricated_url at 1:7: https://docs.example.com/setup$' "$tmp/out" ||
	{ echo "url-user-facing: no finding line"; fail=$((fail + 1)); }
expect numbers 0 "ship: 2 finding(s), verdict warn" --source "$tmp/policy.txt" <"$tmp/numbers.txt"
expect numbers-financial 1 "hold: 2 finding(s), verdict block" --context financial \
	--source "$tmp/policy.txt" <"$tmp/numbers.txt"
grep -q '^  12% differs from the grounded figure 10%$' "$tmp/out" ||
	{ echo "numbers-financial: no altered_number"; fail=$((fail + 1)); }
expect faithful 0 "ship: 0 finding(s), verdict pass" --context financial \
	--source "$tmp/policy.txt" <"$tmp/faithful.txt"
expect empty 0 "ship: 0 finding(s), verdict pass" </dev/null
expect bad-context 2 "" --context nope <"$tmp/url.txt"
grep -q '^gate: unknown context "nope" (the packs define: ' "$tmp/err" ||
	{ echo "bad-context: no message"; fail=$((fail + 1)); }
expect missing-source 2 "" --source "$tmp/none" <"$tmp/url.txt"
expect usage 2 "" --frobnicate <"$tmp/url.txt"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
