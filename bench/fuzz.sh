#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the libFuzzer targets of fuzz/, one after another (one process at a
# time), each for SECONDS, and prints per target the executions, their rate
# and whether anything was found.
#   usage: bench/fuzz.sh SECONDS [TARGET...]    (no TARGET: all of them)
# Builds build-fuzz with clang, ASan and UBSan first when needed. New inputs
# go to build-fuzz/corpus/TARGET (the seeds in fuzz/corpus and fuzz/repro
# are read, never written); a crash, leak, timeout or failed property is
# saved under $FUZZ_FINDINGS/TARGET/ (default build-fuzz/findings) and its
# log kept in build-fuzz/logs/TARGET.log. Exit status 1 when anything was
# found. $FUZZ_TIMEOUT (default 10) is the seconds one input may take;
# $FUZZ_MAX_LEN, the longest input, overrides each target's own (below);
# with $FUZZ_RUNS a target stops after that many executions if sooner;
# $FUZZ_ENTROPIC (0 or 1) overrides each target's scheduling (below).
# $FUZZ_JOBS (default 1) runs that many processes of each target at once, on
# one corpus, each with its own random seed and log (TARGET.N.log); their
# executions and rates are added up. A process does not reread the corpus
# from disk (-reload=0; with 33,000 inputs kept, scan_split spent 17% of
# its time in stat()), so the jobs see each other's finds on the next run.
set -u
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/fuzz.sh SECONDS [TARGET...]" >&2; exit 2; }
secs=$1
shift
jobs=${FUZZ_JOBS:-1}
case $jobs in
'' | *[!0-9]* | 0) echo "bench/fuzz.sh: FUZZ_JOBS must be a positive count" >&2; exit 2 ;;
esac
build=build-fuzz
if [ ! -d "$build" ]; then
	CC=clang meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false >/dev/null || exit 2
fi
meson compile -C "$build" >/dev/null || { meson compile -C "$build"; exit 2; }
if [ $# -eq 0 ]; then
	set -- $(cd fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
fi
findings=${FUZZ_FINDINGS:-$build/findings}
mkdir -p "$build/logs"
# Any sanitizer report is a finding: stop at once, with a stack. Freed
# memory stays with the process (allocator_release_to_os_interval_ms=-1):
# handing it back cost scan_split 8% of its time in madvise and the TLB
# flushes after it; the RSS limit below still holds.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_release_to_os_interval_ms=-1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
# The longest input each target is given. An input costs about its length
# (scan_split scans it three times), and libFuzzer would otherwise take the
# longest seed's (10 KiB); these are longer than any property needs.
max_len() {
	case $1 in
	keys) echo 512 ;;
	rules) echo 4096 ;;
	*) echo 1024 ;;
	esac
}
# libFuzzer's entropic schedule weighs every feature of every run against
# its rarest ones: on the targets that run the whole scanner (tens of
# thousands of features) that bookkeeping was 60-65% of the time, and
# scan_split read its corpus at 175 inputs a second against 594 without.
# Those run with the plain schedule, still guided by coverage.
entropic() {
	case $1 in
	scan_split | eval) echo 0 ;;
	*) echo 1 ;;
	esac
}
# Job j's log: TARGET.log, or TARGET.j.log with more than one job.
log_of() {
	if [ "$jobs" = 1 ]; then echo "$build/logs/$1.log"; else echo "$build/logs/$1.$2.log"; fi
}
status=0
printf '%-12s %8s %12s %10s  %s\n' target seconds execs execs/s result
for t in "$@"; do
	bin=$build/fuzz/fuzz-$t
	[ -x "$bin" ] || { echo "$t: no such target ($bin)" >&2; status=2; continue; }
	mkdir -p "$build/corpus/$t" "$findings/$t"
	start=$(date +%s)
	j=1
	while [ $j -le "$jobs" ]; do
		log=$(log_of "$t" $j)
		(
			"$bin" "$build/corpus/$t" "fuzz/corpus/$t" \
				$( [ -d "fuzz/repro/$t" ] && echo "fuzz/repro/$t") \
				-max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
				-max_len="${FUZZ_MAX_LEN:-$(max_len "$t")}" -runs="${FUZZ_RUNS:--1}" \
				-entropic="${FUZZ_ENTROPIC:-$(entropic "$t")}" -reload=0 \
				-print_final_stats=1 -artifact_prefix="$findings/$t/" >"$log" 2>&1
			echo $? >"$log.rc"
		) &
		j=$((j + 1))
	done
	wait
	took=$(($(date +%s) - start))
	# The jobs' executions and rates add up; the first job that found
	# something is the one reported.
	execs=0 rate=0 result="nothing found" leaks=no
	j=1
	while [ $j -le "$jobs" ]; do
		log=$(log_of "$t" $j)
		rc=$(cat "$log.rc")
		rm -f "$log.rc"
		e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
		execs=$((execs + ${e:-0}))
		rate=$((rate + ${r:-0}))
		if [ "$rc" != 0 ] && [ "$result" = "nothing found" ]; then
			status=1
			art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
			why=$(grep -m1 -E '^==[0-9]+==ERROR|property failed|SUMMARY|ALARM|runtime error' "$log" |
				sed 's/^==[0-9]*==//' | cut -c1-100)
			result="FOUND: ${why:-exit status $rc} -> ${art:-see $log}"
		fi
		# After 1,000 inputs that leak, libFuzzer checks for leaks only at exit.
		grep -q 'disabled leak detection after every mutation' "$log" && leaks=yes
		j=$((j + 1))
	done
	[ $leaks = no ] || result="$result (leaks checked at exit only)"
	printf '%-12s %8s %12s %10s  %s\n' "$t" "$took" "$execs" "$rate" "$result"
done
exit $status
