#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What --pressure costs and buys, against the labels, beside a naive check.

Context pressure (the spec's context-health "compact zone or beyond")
makes halluscan report round statistics and dated predictions it leaves
alone otherwise, and drops the hedge exemption of dated releases. This runs
`halluscan eval` on every shared corpus (read in place; each record's source
as grounding) without and with --pressure, and on the same records the
naive aggressive check a reviewer might write instead: a response is
flagged when it holds any percentage, any multiplier ("3x"), or "will"
followed within five words by a year.

For each: responses flagged, true and false positives against the labels
(has_hallucination), specificity (the false-positive cost) and precision,
with 95% Wilson intervals.

  python3 bench/pressure.py [--halluscan build/halluscan] [--corpus DIR] [--json OUT]

Exit status: 0 (also "skipped: no corpus"), 2 on errors.
"""
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

NAIVE = re.compile(
    rb"\d(?:[ \t]?%|[ \t]percent\b)|\b\d{1,3}(?:\.\d+)?[xX\xc3\x97]\b|"
    rb"\bwill\b(?:\W+\w+){0,5}?\W+(?:19|20)\d\d\b")


def wilson(k, n):
    if n == 0:
        return (float("nan"),) * 3
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, c - h, c + h


def counts(tp, fp, fn, tn):
    return {"flagged": tp + fp, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "specificity": wilson(tn, tn + fp), "precision": wilson(tp, tp + fp)}


def run_eval(binary, files, pressure):
    args = [binary, "eval", "--format", "json"] + (["--pressure"] if pressure else []) + files
    p = subprocess.run(args, capture_output=True, check=True)
    d = json.loads(p.stdout)
    out = {"overall": d["overall"]["any"]}
    for name, ds in d["datasets"].items():
        out[name] = ds["any"]
    return {k: counts(v["tp"], v["fp"], v["fn"], v["tn"]) for k, v in out.items()}


def run_naive(files):
    per = {}
    for path in files:
        for line in open(path, "rb"):
            r = json.loads(line)
            if "response" not in r or "has_hallucination" not in r:
                continue
            name = r.get("dataset") or os.path.basename(path).rsplit(".", 1)[0]
            flag = bool(NAIVE.search(r["response"].encode()))
            pos = bool(r["has_hallucination"])
            for key in (name, "overall"):
                c = per.setdefault(key, [0, 0, 0, 0])
                c[0 if flag and pos else 1 if flag else 2 if pos else 3] += 1
    return {k: counts(*v) for k, v in per.items()}


def cell(c):
    s, p = c["specificity"], c["precision"]
    return "%d TP %d FP, spec %.3f [%.3f, %.3f], prec %.3f" % (
        c["tp"], c["fp"], s[0], s[1], s[2], p[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--halluscan", default="build/halluscan")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                     "shared", "corpus"))
    ap.add_argument("--json")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.corpus, "*.jsonl")))
    if not files:
        print("skipped: no corpus at", a.corpus)
        return 0
    res = {"without": run_eval(a.halluscan, files, False),
           "pressure": run_eval(a.halluscan, files, True),
           "naive": run_naive(files)}
    print("%-24s %-52s %-52s %s" % ("corpus", "halluscan", "halluscan --pressure", "naive check"))
    for name in ["overall"] + sorted(k for k in res["without"] if k != "overall"):
        print("%-24s %-52s %-52s %s" % (name, cell(res["without"][name]),
                                        cell(res["pressure"][name]), cell(res["naive"][name])))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
