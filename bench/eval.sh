#!/bin/sh
# SPDX-License-Identifier: MIT
# Reproduces docs/accuracy.md's numbers from the shared
# corpora, read in place; skips cleanly where ../shared is absent.
#   usage: bench/eval.sh [BUILDDIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
corpus=$top/../shared/corpus
if [ ! -d "$corpus" ]; then
	echo "skipped: no corpus at $corpus"
	exit 0
fi
echo "== halluscan eval (each record's source as grounding), with the claims sweep"
"$build/halluscan" eval --sweep --misjudgments "${TMPDIR:-/tmp}/halluscan-misjudgments.jsonl" "$corpus"/*.jsonl
echo "   misjudgments: ${TMPDIR:-/tmp}/halluscan-misjudgments.jsonl"
echo
echo "== findings per 1,000 responses, and a sample to judge"
python3 "$top/bench/corpus_fp.py" --halluscan "$build/halluscan" --corpus "$corpus" --sample 20
echo
echo "== number checks on SummEdits"
python3 "$top/bench/summedits_numbers.py" --halluscan "$build/halluscan" --corpus "$corpus/summedits.jsonl" --misses 5
echo
echo "== grounding: the naive check beside halluscan on every grounding measure"
echo "   (bench/grounding.py; --breakdown adds the classes of misses and false alarms)"
python3 "$top/bench/grounding.py" --halluscan "$build/halluscan" --corpus "$corpus" \
	--json "${TMPDIR:-/tmp}/halluscan-grounding.json"
echo "   every figure as JSON: ${TMPDIR:-/tmp}/halluscan-grounding.json"
