#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs golden CLI cases: each folder under cases/ holds `cmd` (the arguments,
# shell-quoted; $SRC is the source tree), optionally `stdin`, and the
# expected `stdout`, `status` and (when present) `stderr`. The summary's
# ruleset digest and version are masked (stdout and stderr) so that a rule change does not
# rewrite every case. With --update the expectations are rewritten: read
# the diff before committing it.
#   usage: run.sh HALLUSCAN SRCDIR [--update] CASE...
set -u
bin=$1 SRC=$2
shift 2
update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
export SRC
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
mask() { sed -e 's/"ruleset":"[0-9a-f]*"/"ruleset":"@"/' -e 's/"version":"[^"]*"/"version":"@"/'; }
for name in "$@"; do
	case_dir=$here/cases/$name
	[ -f "$case_dir/cmd" ] || { echo "$name: no such case"; fail=$((fail + 1)); continue; }
	eval "set -- $(cat "$case_dir/cmd")"
	in=/dev/null
	[ -f "$case_dir/stdin" ] && in=$case_dir/stdin
	(cd "$case_dir" && HALLUSCAN_CACHE_DIR="$tmp/cache" "$bin" "$@" <"$in" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/status")
	mask <"$tmp/out" | sed "s|$SRC|\$SRC|g" >"$tmp/stdout"
	mask <"$tmp/err" | sed "s|$SRC|\$SRC|g" >"$tmp/stderr"
	if [ $update = 1 ]; then
		cp "$tmp/stdout" "$case_dir/stdout"
		cp "$tmp/status" "$case_dir/status"
		if [ -s "$tmp/stderr" ] || [ -f "$case_dir/stderr" ]; then cp "$tmp/stderr" "$case_dir/stderr"; fi
		echo "$name: updated"
		continue
	fi
	ok=1
	cmp -s "$tmp/status" "$case_dir/status" || { echo "$name: exit status $(cat "$tmp/status"), expected $(cat "$case_dir/status")"; ok=0; }
	diff -u "$case_dir/stdout" "$tmp/stdout" >"$tmp/diff" || { echo "$name: stdout differs"; cat "$tmp/diff"; ok=0; }
	if [ -f "$case_dir/stderr" ]; then
		diff -u "$case_dir/stderr" "$tmp/stderr" >"$tmp/diff" || { echo "$name: stderr differs"; cat "$tmp/diff"; ok=0; }
	fi
	if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
[ $update = 1 ] && exit 0
echo "$pass passed, $fail failed"
[ $fail = 0 ]
