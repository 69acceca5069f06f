#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# pyscan.py: the "pure regex" alternative to halluscan, in plain Python re, for bench/run.py.
"""Usage: pyscan.py PATTERNS.tsv < input

PATTERNS.tsv is the output of `halluscan --export-patterns`: id, signal,
flags ("i" or "-") and regex, tab-separated. Every regex is compiled as a
bytes pattern (so \\b, \\d and \\s are ASCII and \\xC3 is a byte, as in
halluscan), with re.IGNORECASE for flag "i". The input is read one line at a
time, and each rule's matches on that line are counted with finditer: matches
never cross a line break, as in halluscan.

This is deliberately the straightforward implementation: raw regex matches,
no tool spans, no sentence exemptions, no overlap merging, and Python's
leftmost-first (backtracking) semantics rather than halluscan's
leftmost-longest. Prints one JSON object: {"rules": {id: count}, "total": N}.
"""

import json
import re
import sys


def load(path):
    """Returns [(id, compiled bytes regex)] from an --export-patterns file."""
    rules = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            rid, _signal, flags, regex = line.split("\t", 3)
            rules.append((rid, re.compile(regex.encode("utf-8"),
                                          re.IGNORECASE if flags == "i" else 0)))
    return rules


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[0])
    rules = load(sys.argv[1])
    counts = [0] * len(rules)
    for line in sys.stdin.buffer:
        for i, (_rid, rx) in enumerate(rules):
            for _m in rx.finditer(line):
                counts[i] += 1
    json.dump({"rules": {rid: n for (rid, _), n in zip(rules, counts)},
               "total": sum(counts)}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
