#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two halluscan commands on the same corpus, side by side in one run.

    python3 bench/speed_ab.py A B [--size 64M] [--repeats 21] [--spans 0]
    python3 bench/speed_ab.py --without references.yaml [BINARY] [--size 64M] ...

A and B are commands (a binary, or a quoted command line with options).
With --without PACK, A is BINARY (default build/halluscan) with the packs
of patterns/ less PACK (--no-builtin-rules --rules; the signals only PACK
defined are dropped from triggers.yaml's lists too) and B is BINARY with
all of them: what one pack costs (issue 12: references.yaml, at most 5%).

The corpus is bench/gencorpus output (seeded assistant markdown; --spans
puts that share of its bytes in tool spans). Each round runs both in a
shuffled order after one throwaway run (on a shared VM the first run of a
round is often the slow one, and a fixed order would bias one side); each
run is `CMD < corpus > FILE` (a file in the temporary folder, read back
after the clock stops), timed as wall clock and as the child's CPU time. Prints the median MB/s of each, their ratio, the median of the
rounds' own ratios (paired) with a 95% interval, and the findings each
wrote (equal unless the rules differ).
"""

import argparse
import os
import random
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, corpus, out):
    """One run, its output to the file out (read after the clock stops:
    through a pipe, this script's own reading of 10 MB was timed with the
    command, and it cost one side ~40 ms more than the other)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(corpus, "rb") as f, open(out, "wb") as o:
        subprocess.run(shlex.split(cmd) + ["--fail-on", "never"], stdin=f, stdout=o, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(out, "rb") as o:
        return wall, cpu, o.read().count(b'"type":"finding"')


def packs_without(pack, tmp):
    """patterns/ less pack, in tmp; the signals only pack defined leave triggers.yaml's lists."""
    src = os.path.join(HERE, "..", "patterns")
    dst = os.path.join(tmp, "packs")
    os.mkdir(dst)
    mine, others = set(), set()
    for name in sorted(os.listdir(src)):
        with open(os.path.join(src, name), encoding="utf-8") as f:
            text = f.read()
        (mine if name == pack else others).update(re.findall(r"^\s*signal: (\w+)", text, re.M))
    if not mine:
        sys.exit("speed_ab: no pack %s with signals in patterns/" % pack)
    gone = mine - others
    for name in sorted(os.listdir(src)):
        if name == pack:
            continue
        with open(os.path.join(src, name), encoding="utf-8") as f:
            text = f.read()
        for sig in gone:
            text = re.sub(r",\s*%s\b|\b%s,\s*" % (sig, sig), "", text)
        with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
            f.write(text)
    return dst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", nargs="?")
    ap.add_argument("b", nargs="?")
    ap.add_argument("--without", metavar="PACK")
    ap.add_argument("--size", default="64M")
    # A shared VM's runs move by more than a few percent: many rounds, and the median.
    ap.add_argument("--repeats", type=int, default=21)
    ap.add_argument("--spans", default="0")
    ap.add_argument("--gencorpus", default=os.path.join(HERE, "..", "build", "bench", "gencorpus"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if a.without:
            if a.b:
                ap.error("--without takes one binary")
            binary = os.path.join(tmp, "halluscan")
            shutil.copy(a.a or os.path.join(HERE, "..", "build", "halluscan"), binary)
            full = os.path.join(HERE, "..", "patterns")
            a.a = "%s --no-builtin-rules --rules %s" % (binary, packs_without(a.without, tmp))
            a.b = "%s --no-builtin-rules --rules %s" % (binary, full)
        elif not a.b:
            ap.error("two commands, or --without PACK")
        corpus = os.path.join(tmp, "corpus.md")
        with open(corpus, "wb") as f:
            subprocess.run([a.gencorpus, "--size", a.size, "--spans", a.spans], stdout=f, check=True)
        mb = os.path.getsize(corpus) / 1e6
        res = {a.a: [], a.b: []}
        found = {}
        out = os.path.join(tmp, "out.jsonl")
        for b in (a.a, a.b):
            run(b, corpus, out)  # the page cache, and each one's compiled-rules cache
        rng = random.Random(1)
        for _ in range(a.repeats):
            order = [a.a, a.b]
            rng.shuffle(order)
            run(order[-1], corpus, out)  # the round's first run, thrown away
            for b in order:
                wall, cpu, n = run(b, corpus, out)
                res[b].append((wall, cpu))
                found[b] = n
    print("corpus: gencorpus --size %s --spans %s (%.1f MB), %d runs each, shuffled\n"
          % (a.size, a.spans, mb, a.repeats))
    label = {a.a: "A: " + a.a, a.b: "B: " + a.b}
    if a.without:
        label = {a.a: "A: the packs less " + a.without, a.b: "B: all the packs"}
    print("| command | MB/s wall (median) | MB/s per CPU-second (median) | findings |")
    print("|---|---:|---:|---:|")
    med = {}
    for b in (a.a, a.b):
        w = statistics.median(mb / x[0] for x in res[b])
        c = statistics.median(mb / x[1] for x in res[b])
        med[b] = (w, c)
        print("| %s | %.1f | %.1f | %d |" % (label[b], w, c, found[b]))
    print("\nB / A: wall %.3f, CPU %.3f" % (med[a.b][0] / med[a.a][0], med[a.b][1] / med[a.a][1]))
    # Paired: each round's two runs shared the machine's state of the moment.
    for i, what in ((0, "wall"), (1, "CPU")):
        lo, m, hi = median_ci([x[i] / y[i] for x, y in zip(res[a.a], res[a.b])])
        print("B / A %s, per round (paired): median %.3f, 95%% CI [%.3f, %.3f]" % (what, m, lo, hi))
    return 0


def median_ci(xs):
    """The median and a distribution-free 95% interval for it (binomial order statistics)."""
    xs = sorted(xs)
    n = len(xs)
    k = max(0, int((n - 1.96 * n ** 0.5) / 2))
    return xs[k], statistics.median(xs), xs[n - 1 - k]


if __name__ == "__main__":
    sys.exit(main())
