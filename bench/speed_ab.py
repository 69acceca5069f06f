#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two halluscan binaries on the same corpus, side by side in one run.

    python3 bench/speed_ab.py A B [--size 64M] [--repeats 7] [--spans 0]

The corpus is bench/gencorpus output (seeded assistant markdown; --spans
puts that share of its bytes in tool spans). The runs alternate A, B, A,
B, ... so that load on a shared machine falls on both alike; each is
`A < corpus > /dev/null`, timed as wall clock and as the child's CPU time.
Prints the median MB/s of each, their ratio, and the findings each wrote
(they should be equal unless the rules differ). Made to check that a
change costs plain text no more than a few percent (issue 12: at most 5%).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, corpus):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(corpus, "rb") as f:
        p = subprocess.run([binary, "--fail-on", "never"], stdin=f, stdout=subprocess.PIPE, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout.count(b'"type":"finding"')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--size", default="64M")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--spans", default="0")
    ap.add_argument("--gencorpus", default=os.path.join(HERE, "..", "build", "bench", "gencorpus"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus.md")
        with open(corpus, "wb") as f:
            subprocess.run([a.gencorpus, "--size", a.size, "--spans", a.spans], stdout=f, check=True)
        mb = os.path.getsize(corpus) / 1e6
        res = {a.a: [], a.b: []}
        found = {}
        run(a.a, corpus)  # warm the page cache
        for _ in range(a.repeats):
            for b in (a.a, a.b):
                wall, cpu, n = run(b, corpus)
                res[b].append((wall, cpu))
                found[b] = n
    print("corpus: gencorpus --size %s --spans %s (%.1f MB), %d runs each, alternating\n"
          % (a.size, a.spans, mb, a.repeats))
    print("| binary | MB/s wall (median) | MB/s per CPU-second (median) | findings |")
    print("|---|---:|---:|---:|")
    med = {}
    for b in (a.a, a.b):
        w = statistics.median(mb / x[0] for x in res[b])
        c = statistics.median(mb / x[1] for x in res[b])
        med[b] = (w, c)
        print("| %s | %.1f | %.1f | %d |" % (b, w, c, found[b]))
    print("\nB / A: wall %.3f, CPU %.3f" % (med[a.b][0] / med[a.a][0], med[a.b][1] / med[a.a][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
