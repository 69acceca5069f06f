#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fabricated_reference measured beside a naive check (issue 12), on the
shared corpora read in place (skips cleanly when ../shared is absent).

    python3 bench/references.py [--halluscan build/halluscan] [--sample N]

The naive check is "a line with a year in parentheses", the usual first
regex for a reference; for plausibility, "a year after this one anywhere".

 1. hallucinated_references (600 GPT answers listing 5 titles; 499 with a
    title search did not find): response-level sensitivity and specificity
    of "any fabricated_reference finding" (no --bib: by the spec every entry
    the model wrote from memory is unverified, so a real title is flagged
    too), entries recognized (a finding whose title is one of the record's
    titles, normalized) and span right (the finding's text is the line
    without its list marker).
 2. hallmark_citations (451 references, 279 fabricated, one per record):
    entries recognized (one finding whose text is the whole response), and
    the offline plausibility checks alone (a finding at block) as a
    detector of fabricated against real, precision and recall with 95%
    Wilson intervals.
 3. halueval_general (4,507 chatbot answers, no reference task): responses
    with a fabricated_reference finding, per 1,000 (the false alarms a
    general deployment sees), beside the naive check's.
 4. --bib, for each near tolerance of the reference rules (the title
    threshold is 1 - tolerance; the packs are copied to a temporary folder
    with the tolerance changed and loaded with --rules):
     a. hallucinated_references with a CSL-JSON bibliography of every title
        the dataset marks real (found by search): precision and recall of
        the findings left (fabricated_reference or altered_reference) over
        the titles marked fabricated, and at response level;
     b. hallmark_citations with a BibTeX bibliography of the 172 real
        references (title, author, year, journal): how the 279 fabricated
        ones come out (altered_reference, fabricated_reference, grounded)
        and how many real ones are still reported.

--sample N prints N random recognized entries of each corpus (seeded) for
reading by hand.
"""

import argparse
import glob
import json
import shutil
import tempfile
import math
import os
import random
import re
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "corpus"))
YEAR_PAREN = re.compile(r"\((?:1[5-9]|20)\d\d[a-z]?\)")
MARKER = re.compile(r"^\s*(?:\[\d{1,3}\]|\(\d{1,3}\)|\d{1,3}[.)]|[-*+]|\u2022)\s+")

sys.path.insert(0, HERE)
from grounding import wilson  # noqa: E402  (one interval for every bench script)


def ratio(k, n):
    if n == 0:
        return "n/a"
    lo, hi = wilson(k, n)
    return "%d/%d = %.3f [%.3f, %.3f]" % (k, n, k / n, lo, hi)


def norm_title(t):
    t = unicodedata.normalize("NFKD", t)
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    return " ".join(re.findall(r"[a-z0-9]+", t))


def load(name):
    path = os.path.join(CORPUS, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def scan(binary, text, extra=()):
    """The fabricated_reference findings of text."""
    p = subprocess.run([binary, "--select", "fabricated_reference", *extra], input=text.encode(),
                       capture_output=True, check=False)
    if p.returncode not in (0, 1):
        sys.exit("halluscan failed: %s" % p.stderr.decode())
    out = []
    for line in p.stdout.decode().splitlines():
        r = json.loads(line)
        if r.get("type") == "finding" and r["signal"] == "fabricated_reference":
            out.append(r)
    return out


def naive_entry(text):
    return any(YEAR_PAREN.search(line) for line in text.splitlines())


def naive_future(text, year):
    return any(int(y) > year for y in re.findall(r"\b((?:1[5-9]|2[0-9])\d\d)\b", text))


def table(rows, head):
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    print()


def hallucinated_references(binary, sample, rng):
    rs = load("hallucinated_references.jsonl")
    if rs is None:
        print("hallucinated_references.jsonl: absent, skipped\n")
        return
    tp = fn = fp = tn = ntp = nfn = nfp = ntn = 0
    titles = found = span_ok = findings = 0
    picked = []
    for r in rs:
        fs = scan(binary, r["response"])
        pos, naive = bool(fs), naive_entry(r["response"])
        if r["has_hallucination"]:
            tp += pos
            fn += not pos
            ntp += naive
            nfn += not naive
        else:
            fp += pos
            tn += not pos
            nfp += naive
            ntn += not naive
        want = {norm_title(t["title"]) for t in r["meta"]["titles"]}
        lines = {MARKER.sub("", l).strip() for l in r["response"].splitlines() if l.strip()}
        titles += len(want)
        got = set()
        for f in fs:
            findings += 1
            t = norm_title(f.get("reference", {}).get("title", ""))
            if t in want:
                got.add(t)
            span_ok += f["text"].strip() in lines
            picked.append((r["id"], f["text"], f["reference"].get("style")))
        found += len(got)
    print("## hallucinated_references (%d responses, %d with a fabricated title)\n" % (len(rs), tp + fn))
    table([
        ["responses flagged, fabricated (sensitivity)", ratio(ntp, ntp + nfn), ratio(tp, tp + fn)],
        ["responses flagged, all titles found (1 - specificity)", ratio(nfp, nfp + ntn), ratio(fp, fp + tn)],
        ["titles recognized as entries", "n/a (no year in these lists)", ratio(found, titles)],
        ["findings whose span is the whole item", "", ratio(span_ok, findings)],
    ], ["measure", "naive: a line with (YYYY)", "halluscan"])
    show(picked, sample, rng, "hallucinated_references")


def hallmark(binary, sample, rng, year):
    rs = load("hallmark_citations.jsonl")
    if rs is None:
        print("hallmark_citations.jsonl: absent, skipped\n")
        return
    rec = whole = 0
    tp = fp = fn = tn = 0
    ntp = nfp = nfn = ntn = 0
    naive_rec = 0
    picked = []
    by_problem = {}
    for r in rs:
        text = r["response"]
        fs = scan(binary, text)
        rec += bool(fs)
        whole += len(fs) == 1 and fs[0]["text"] == text.strip()
        naive_rec += naive_entry(text)
        block = any(f["severity"] == "block" for f in fs)
        naive = naive_future(text, year)
        fab = r["has_hallucination"]
        tp += block and fab
        fp += block and not fab
        fn += (not block) and fab
        tn += (not block) and not fab
        ntp += naive and fab
        nfp += naive and not fab
        nfn += (not naive) and fab
        ntn += (not naive) and not fab
        for f in fs:
            for p in f.get("reference", {}).get("problems", []):
                by_problem.setdefault(p, [0, 0])[0 if fab else 1] += 1
            picked.append((r["id"], f["text"], f["reference"].get("style")))
    print("## hallmark_citations (%d references, %d fabricated)\n" % (len(rs), tp + fn))
    table([
        ["entries recognized", ratio(naive_rec, len(rs)), ratio(rec, len(rs))],
        ["... as one finding spanning the whole entry", "", ratio(whole, len(rs))],
        ["plausibility alone: precision (flagged that are fabricated)", ratio(ntp, ntp + nfp), ratio(tp, tp + fp)],
        ["plausibility alone: recall (fabricated flagged)", ratio(ntp, ntp + nfn), ratio(tp, tp + fn)],
        ["plausibility alone: real ones flagged", ratio(nfp, nfp + ntn), ratio(fp, fp + tn)],
    ], ["measure", "naive: (YYYY) / a year after %d" % year, "halluscan"])
    if by_problem:
        table([[p, c[0], c[1]] for p, c in sorted(by_problem.items())],
              ["problem", "on fabricated", "on real"])
    show(picked, sample, rng, "hallmark_citations")


def general(binary, name):
    rs = load(name)
    if rs is None:
        print("%s: absent, skipped\n" % name)
        return
    flagged = naive = findings = 0
    styles = {}
    for r in rs:
        fs = scan(binary, r["response"])
        flagged += bool(fs)
        findings += len(fs)
        naive += naive_entry(r["response"])
        for f in fs:
            s = f["reference"]["style"]
            styles[s] = styles.get(s, 0) + 1
    print("## %s (%d responses, no reference task)\n" % (name, len(rs)))
    table([
        ["responses flagged per 1,000", "%.1f" % (1000 * naive / len(rs)), "%.1f" % (1000 * flagged / len(rs))],
        ["findings", "", "%d (%s)" % (findings, ", ".join("%s %d" % kv for kv in sorted(styles.items())))],
    ], ["measure", "naive: a line with (YYYY)", "halluscan"])


def show(picked, n, rng, name):
    if not n or not picked:
        return
    print("### a sample of %d entries recognized in %s (read by hand)\n" % (min(n, len(picked)), name))
    for rid, text, style in rng.sample(picked, min(n, len(picked))):
        print("- `%s` %s: %s" % (rid, style, text.replace("\n", " ")[:200]))
    print()


def scan_all(binary, text, extra):
    """Every reference finding (fabricated or altered) of text."""
    p = subprocess.run([binary, "--select", "fabricated_reference,altered_reference", *extra],
                       input=text.encode(), capture_output=True, check=False)
    if p.returncode not in (0, 1):
        sys.exit("halluscan failed: %s" % p.stderr.decode())
    return [r for r in map(json.loads, p.stdout.decode().splitlines()) if r.get("type") == "finding"]


def packs_with_tolerance(tmp, tol):
    d = os.path.join(tmp, "packs-%s" % tol)
    os.makedirs(d, exist_ok=True)
    for f in glob.glob(os.path.join(HERE, "..", "patterns", "*.yaml")):
        text = open(f, encoding="utf-8").read()
        if os.path.basename(f) == "references.yaml":
            text = re.sub(r"tolerance: [0-9.]+", "tolerance: %s" % tol, text)
        with open(os.path.join(d, os.path.basename(f)), "w", encoding="utf-8") as out:
            out.write(text)
    return d


def bib_escape(s):
    return s.replace("{", "").replace("}", "")


def with_bib(binary, tolerances):
    refs = load("hallucinated_references.jsonl")
    mark = load("hallmark_citations.jsonl")
    if refs is None or mark is None:
        print("--bib: a corpus is absent, skipped\n")
        return
    tmp = tempfile.mkdtemp(prefix="halluscan-bib-")
    try:
        real = [{"id": "r%d" % i, "title": t["title"]}
                for i, t in enumerate(t for r in refs for t in r["meta"]["titles"] if t["bing_found"])]
        csl = os.path.join(tmp, "real.json")
        with open(csl, "w", encoding="utf-8") as f:
            json.dump(real, f)
        bib = os.path.join(tmp, "real.bib")
        with open(bib, "w", encoding="utf-8") as f:
            for r in mark:
                if r["has_hallucination"]:
                    continue
                m = r["meta"]["fields"]
                f.write("@article{%s,\n" % r["id"].replace(",", "_"))
                for k in ("title", "author", "year", "journal", "booktitle"):
                    if m.get(k):
                        f.write("  %s = {%s},\n" % (k, bib_escape(str(m[k]))))
                f.write("}\n")
        rows_a, rows_b = [], []
        for tol in tolerances:
            env_rules = ["--no-builtin-rules", "--rules", packs_with_tolerance(tmp, tol)]
            fab_titles = rep_fab = rep_real = 0
            rtp = rfp = rfn = rtn = 0
            for r in refs:
                fs = scan_all(binary, r["response"], env_rules + ["--bib", csl])
                fake = {norm_title(t["title"]) for t in r["meta"]["titles"] if not t["bing_found"]}
                fab_titles += len(fake)
                got = {norm_title(f.get("reference", {}).get("title", "")) for f in fs}
                rep_fab += len(got & fake)
                rep_real += len(fs) - len([f for f in fs if norm_title(f.get("reference", {}).get("title", "")) in fake])
                pos = bool(fs)
                rtp += pos and r["has_hallucination"]
                rfp += pos and not r["has_hallucination"]
                rfn += (not pos) and r["has_hallucination"]
                rtn += (not pos) and not r["has_hallucination"]
            rows_a.append(["%.2f" % (1 - float(tol)), ratio(rep_fab, rep_fab + rep_real), ratio(rep_fab, fab_titles),
                           ratio(rtp, rtp + rfp), ratio(rtp, rtp + rfn)])
            alt = fab = grounded = real_flagged = 0
            for r in mark:
                fs = scan_all(binary, r["response"], env_rules + ["--bib", bib])
                if not r["has_hallucination"]:
                    real_flagged += bool(fs)
                    continue
                sig = {f["signal"] for f in fs}
                if "altered_reference" in sig:
                    alt += 1
                elif "fabricated_reference" in sig:
                    fab += 1
                else:
                    grounded += 1
            rows_b.append(["%.2f" % (1 - float(tol)), alt, fab, grounded, ratio(real_flagged, 172)])
        print("## --bib\n")
        print("hallucinated_references, --bib of the %d titles marked real (CSL-JSON, titles only):\n" % len(real))
        table(rows_a, ["title threshold", "findings on fabricated titles (precision)",
                       "fabricated titles reported (recall)", "response precision", "response recall"])
        print("hallmark_citations, --bib of the 172 real references (BibTeX): the 279 fabricated ones\n")
        table(rows_b, ["title threshold", "altered_reference", "fabricated_reference", "grounded (missed)",
                       "real ones still reported"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--halluscan", default=os.path.join(HERE, "..", "build", "halluscan"))
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--year", type=int, default=2026, help="this year, for the naive future check")
    ap.add_argument("--only", default="refs,hallmark,general,bib")
    ap.add_argument("--tolerances", default="0.01,0.1,0.25,0.4",
                    help="near tolerances of the reference rules to measure --bib with")
    a = ap.parse_args()
    if not os.path.isdir(CORPUS):
        print("%s: absent, nothing measured" % CORPUS)
        return 0
    os.environ.setdefault("HALLUSCAN_TODAY", "%d12" % a.year)
    rng = random.Random(12)
    only = a.only.split(",")
    if "refs" in only:
        hallucinated_references(a.halluscan, a.sample, rng)
    if "hallmark" in only:
        hallmark(a.halluscan, a.sample, rng, a.year)
    if "general" in only:
        general(a.halluscan, "halueval_general.jsonl")
    if "bib" in only:
        with_bib(a.halluscan, a.tolerances.split(","))
    return 0


if __name__ == "__main__":
    sys.exit(main())
