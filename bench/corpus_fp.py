#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""False-positive picture of the rule packs on real third-party LLM output.

Reads the shared corpus in place (never copies it into the repository):

  halueval_general.jsonl  every response (natural-rate chatbot answers)
  summedits.jsonl         only the consistent summaries (has_hallucination
                          false): anything flagged there is suspect

For each corpus the responses are joined into one temporary file, separated
by a blank line, and halluscan runs once over it; every finding is mapped
back to its response by its byte offset. halluscan ends a sentence at every
line break and no rule matches across one, so responses cannot interact
(--verify K re-runs K responses one by one and checks exactly that).
Responses holding a tool-span delimiter, which would open a span across the
separator, are scanned on their own.

Prints, per corpus, findings per 1,000 responses by signal and by rule and
the share of responses with any finding, then a seeded random sample of
findings with their context, for a person to judge against the spec.

  python3 bench/corpus_fp.py [--halluscan build/halluscan] [--corpus DIR]
      [--rules PATH] [--sample 50] [--seed 1] [--json OUT] [--verify K]
      [--ground-input] [--cache]

--ground-input scans each record as its own input with its prompt and source
in a tool span first, so that what the response copies from them counts as
grounded: the false positives left are the ones a grounded run would still see.

Exit status: 0 (also when the corpus is absent: "skipped: no corpus"),
1 when --verify finds a difference, 2 on errors.
"""

import argparse
import bisect
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNALS = ("fabricated_url", "unsourced_statistic", "fabricated_citation", "future_certainty")
SEP = b"\n\n"
CONTEXT = 150

CORPORA = (
    # name, file, selection, description of the selection
    ("halueval_general", "halueval_general.jsonl", lambda r: True, "all responses"),
    ("summedits", "summedits.jsonl", lambda r: not r.get("has_hallucination"),
     "consistent summaries only (has_hallucination false)"),
)


def die(msg):
    print("corpus_fp: " + msg, file=sys.stderr)
    sys.exit(2)


def halluscan_cmd(args, *extra):
    cmd = [args.halluscan, "--fail-on", "never"]
    if args.no_cache:
        cmd.append("--no-cache")
    for r in args.rules or ():
        cmd += ["--no-builtin-rules", "--rules", r]
    return cmd + list(extra)


def run(args, *extra, stdin=None):
    p = subprocess.run(halluscan_cmd(args, *extra), input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        die("halluscan failed (exit %d): %s" % (p.returncode, p.stderr.decode(errors="replace").strip()))
    return p.stdout.decode()


def list_rules(args):
    """(rule id, signal) of every loaded rule, in pack order."""
    rules = []
    for line in run(args, "--list-rules").splitlines():
        f = line.split("\t")
        if len(f) >= 2:
            rules.append((f[0], f[1]))
    return rules


def span_delimiters(args):
    """Literal open/close strings of the tool spans, from the packs in use
    (--rules, else the repository's patterns/, which the built-in packs are
    generated from). A rough reader: enough for `open: "..."` lines."""
    paths = args.rules or [os.path.join(ROOT, "patterns")]
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, f) for f in sorted(os.listdir(p)) if f.endswith((".yaml", ".yml"))]
        elif os.path.isfile(p):
            files.append(p)
    delims = set()
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = re.match(r"""\s*(?:-\s*)?(?:open|close)\s*:\s*(?:"([^"]*)"|'([^']*)'|(\S+))""", line)
                if m:
                    d = next(g for g in m.groups() if g is not None)
                    if d:
                        delims.add(d.encode())
    return delims


def parse_jsonl(text):
    findings, summaries = [], []
    for line in text.splitlines():
        if not line.strip():
            continue
        o = json.loads(line)
        if o.get("type") == "finding":
            findings.append(o)
        elif o.get("type") == "summary":
            summaries.append(o)
    return findings, summaries


def scan_batch(args, blobs):
    """Scans the responses (bytes) in one halluscan run; returns one list of
    findings per response, offsets relative to the response."""
    starts, ends = [], []
    with tempfile.NamedTemporaryFile(prefix="corpus_fp.", suffix=".txt", delete=False) as tf:
        pos = 0
        for b in blobs:
            starts.append(pos)
            ends.append(pos + len(b))
            tf.write(b)
            tf.write(SEP)
            pos += len(b) + len(SEP)
        path = tf.name
    try:
        findings, summaries = parse_jsonl(run(args, path))
    finally:
        os.unlink(path)
    if summaries and (summaries[-1].get("spans") or summaries[-1].get("unterminated_spans")):
        print("warning: the batch opened %s tool span(s) that the delimiter check missed; "
              "results may be wrong" % summaries[-1].get("spans"), file=sys.stderr)
    out = [[] for _ in blobs]
    for f in findings:
        i = bisect.bisect_right(starts, f["start"]) - 1
        if i < 0 or f["end"] > ends[i]:
            die("finding at bytes %d-%d falls outside every response" % (f["start"], f["end"]))
        f = dict(f)
        f["start"] -= starts[i]
        f["end"] -= starts[i]
        out[i].append(f)
    return out


def scan_one(args, blob):
    findings, _ = parse_jsonl(run(args, "-", stdin=blob))
    return findings


def scan_grounded(args, recs, blobs, delims, chunk=1000):
    """--ground-input: each record becomes its own input, its prompt and source
    first inside a tool span (grounded, and grounding what the response
    repeats from them), then the response. Inputs are scanned a chunk of
    files per halluscan run; the grounded set resets per input."""
    if not delims:
        die("--ground-input needs a tool-span delimiter in the rule packs")
    opening, closing = span_pair(args)
    out = [[] for _ in blobs]
    with tempfile.TemporaryDirectory(prefix="corpus_fp.") as tmp:
        paths, offsets = [], []
        for i, (r, b) in enumerate(zip(recs, blobs)):
            given = "\n".join(x for x in (r.get("prompt") or "", r.get("source") or "") if x.strip())
            pre = (opening + given + closing).encode() + SEP if given else b""
            path = os.path.join(tmp, "%06d.txt" % i)
            with open(path, "wb") as fh:
                fh.write(pre + b + b"\n")
            paths.append(path)
            offsets.append(len(pre))
        index = {p: i for i, p in enumerate(paths)}
        for k in range(0, len(paths), chunk):
            findings, _ = parse_jsonl(run(args, *paths[k:k + chunk]))
            for f in findings:
                i = index[f["path"]]
                f = dict(f)
                f["start"] -= offsets[i]
                f["end"] -= offsets[i]
                if f["start"] < 0 or f["end"] > len(blobs[i]):
                    die("finding at %s:%d falls outside the response" % (f["path"], f["start"]))
                out[i].append(f)
    return out


def span_pair(args):
    """The first open/close pair of the tool spans in the packs in use."""
    paths = args.rules or [os.path.join(ROOT, "patterns")]
    for p in paths:
        f = os.path.join(p, "spans.yaml") if os.path.isdir(p) else p
        if not os.path.isfile(f):
            continue
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        m = re.search(r"""open\s*:\s*["']([^"']+)["']\s*\n\s*close\s*:\s*["']([^"']+)["']""", text)
        if m:
            return m.group(1), m.group(2)
    return "<tool_output>", "</tool_output>"


def key(f):
    return (f["rule"], f["start"], f["end"], f["text"])


def context(blob, start, end, width=CONTEXT):
    """The response around [start, end), the finding marked with »...«."""
    lo, hi = max(0, start - width), min(len(blob), end + width)

    def dec(b):
        return b.decode("utf-8", errors="replace").replace("\n", " ⏎ ")

    return ("…" if lo > 0 else "") + dec(blob[lo:start]) + "»" + dec(blob[start:end]) + "«" + \
        dec(blob[end:hi]) + ("…" if hi < len(blob) else "")


def input_hint(rec, text):
    """Which of the record's inputs holds text verbatim ("prompt", "source"), or ""."""
    where = [k for k in ("prompt", "source") if text and text in (rec.get(k) or "")]
    return "+".join(where)


def per_k(n, total):
    return 1000.0 * n / total if total else 0.0


def analyse(args, name, fname, select, what, rules, delims, rng):
    path = os.path.join(args.corpus, fname)
    if not os.path.isfile(path):
        print("%s: skipped: %s not found" % (name, path))
        return None
    recs = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                r = json.loads(line)
                if select(r):
                    recs.append(r)
    blobs = [r["response"].encode("utf-8") for r in recs]

    if args.ground_input:
        alone, batch_idx = [], []
        per_resp = scan_grounded(args, recs, blobs, delims)
    else:
        # Responses holding a span delimiter are scanned alone; the rest in one run.
        alone = [i for i, b in enumerate(blobs) if any(d in b for d in delims)]
        alone_set = set(alone)
        batch_idx = [i for i in range(len(blobs)) if i not in alone_set]
        per_resp = [None] * len(blobs)
        for i, fs in zip(batch_idx, scan_batch(args, [blobs[i] for i in batch_idx])):
            per_resp[i] = fs
        for i in alone:
            per_resp[i] = scan_one(args, blobs[i])

    mismatches, verify_msg = [], None
    if args.verify and not args.ground_input:
        vr = random.Random(args.seed)
        flagged = [i for i in batch_idx if per_resp[i]]
        clean = [i for i in batch_idx if not per_resp[i]]
        # Half from responses with findings, half from the others.
        pick = vr.sample(flagged, min(len(flagged), args.verify // 2))
        pick += vr.sample(clean, min(len(clean), args.verify - len(pick)))
        for i in pick:
            a = sorted(key(f) for f in per_resp[i])
            b = sorted(key(f) for f in scan_one(args, blobs[i]))
            if a != b:
                mismatches.append({"id": recs[i]["id"], "batch": a, "alone": b})
        verify_msg = "--verify: %d responses re-scanned one by one, %d differ from the batch run" % (
            len(pick), len(mismatches))

    n = len(recs)
    by_signal, by_rule = collections.Counter(), collections.Counter()
    resp_signal = collections.Counter()
    any_finding = 0
    distinct_any, distinct = set(), set()
    # SummEdits edits one seed summary many times: count seeds, not just edits.
    groups, groups_any = set(), set()
    in_labelled = collections.Counter()
    labelled = sum(1 for r in recs if r.get("has_hallucination"))
    all_findings = []
    # Where the finding's text is copied from the response's own input (the
    # prompt, or the document a summary is grounded in): a hint for judging.
    in_input = collections.Counter()
    distinct_texts = collections.defaultdict(set)
    for i, (r, fs) in enumerate(zip(recs, per_resp)):
        distinct.add(r["response"])
        g = (r.get("meta") or {}).get("original_summary") or r["response"]
        groups.add(g)
        if fs:
            any_finding += 1
            distinct_any.add(r["response"])
            groups_any.add(g)
        for s in {f["signal"] for f in fs}:
            resp_signal[s] += 1
        for f in fs:
            by_signal[f["signal"]] += 1
            by_rule[f["rule"]] += 1
            if r.get("has_hallucination"):
                in_labelled[f["signal"]] += 1
            f["in_input"] = input_hint(r, f["text"])
            if f["in_input"]:
                in_input[f["rule"]] += 1
            distinct_texts[f["rule"]].add(f["text"])
            all_findings.append((i, f))

    signals = list(SIGNALS) + sorted(set(by_signal) - set(SIGNALS))
    rule_ids = [rid for rid, _ in rules] + sorted(set(by_rule) - {rid for rid, _ in rules})
    rule_sig = dict(rules)

    res = {
        "corpus": name, "file": path, "selection": what,
        "responses": n, "distinct_responses": len(distinct),
        "labelled_hallucinated": labelled,
        "findings": len(all_findings),
        "responses_with_finding": any_finding,
        "share_with_finding": any_finding / n if n else 0.0,
        "distinct_with_finding": len(distinct_any),
        "share_distinct_with_finding": len(distinct_any) / len(distinct) if distinct else 0.0,
        "seed_groups": len(groups), "seed_groups_with_finding": len(groups_any),
        "scanned_alone": len(alone),
        "by_signal": {s: {"findings": by_signal[s], "per_1000": per_k(by_signal[s], n),
                          "responses": resp_signal[s], "share": resp_signal[s] / n if n else 0.0,
                          "in_labelled_hallucinated": in_labelled[s]} for s in signals},
        "by_rule": {rid: {"signal": rule_sig.get(rid, "?"), "findings": by_rule[rid],
                          "per_1000": per_k(by_rule[rid], n),
                          "distinct_texts": len(distinct_texts[rid]),
                          "text_in_input": in_input[rid]} for rid in rule_ids},
        "verify_mismatches": mismatches,
    }

    # Report.
    print()
    print("=" * 78)
    print("%s — %s%s" % (name, what, ", prompt and source given as tool output" if args.ground_input else ""))
    print("=" * 78)
    print("responses %d (distinct %d, labelled hallucinated %d), findings %d"
          % (n, len(distinct), labelled, len(all_findings)))
    if verify_msg:
        print(verify_msg)
    if alone:
        print("%d response(s) held a tool-span delimiter and were scanned alone" % len(alone))
    print("responses with any finding: %d = %.2f%%   (distinct texts: %d/%d = %.2f%%)"
          % (any_finding, 100.0 * res["share_with_finding"], len(distinct_any), len(distinct),
             100.0 * res["share_distinct_with_finding"]))
    if name == "summedits":
        print("consistent summaries with any finding: %.2f%%" % (100.0 * res["share_with_finding"]))
    if len(groups) < len(distinct):
        print("seed summaries (edits grouped by meta.original_summary) with any finding: %d/%d = %.2f%%"
              % (len(groups_any), len(groups), 100.0 * len(groups_any) / len(groups)))
    print()
    print("  %-22s %8s %10s %10s %10s" % ("signal", "findings", "per 1,000", "responses", "share"))
    for s in signals:
        d = res["by_signal"][s]
        print("  %-22s %8d %10.2f %10d %9.2f%%" % (s, d["findings"], d["per_1000"], d["responses"], 100 * d["share"]))
    print()
    print("  %-24s %-20s %8s %10s %9s %9s" % ("rule", "signal", "findings", "per 1,000", "distinct", "in input"))
    for rid in rule_ids:
        d = res["by_rule"][rid]
        print("  %-24s %-20s %8d %10.2f %9d %9d" % (rid, d["signal"], d["findings"], d["per_1000"],
                                                   d["distinct_texts"], d["text_in_input"]))
    print("  (distinct: different finding texts; in input: finding text occurs verbatim in the")
    print("   record's prompt or source document, i.e. copied from the input, not invented)")

    # Sample.
    sample = rng.sample(all_findings, min(args.sample, len(all_findings)))
    sample.sort(key=lambda t: (rule_ids.index(t[1]["rule"]) if t[1]["rule"] in rule_ids else 99, t[0], t[1]["start"]))
    print()
    print("sample: %d of %d findings (seed %s), the finding marked »…«, ±%d bytes"
          % (len(sample), len(all_findings), args.seed, CONTEXT))
    res["sample"] = []
    for k, (i, f) in enumerate(sample, 1):
        ctx = context(blobs[i], f["start"], f["end"])
        print()
        print("[%s #%d] %s (%s)  %s  bytes %d-%d%s%s"
              % (name, k, f["rule"], f["signal"], recs[i]["id"], f["start"], f["end"],
                 "  [labelled hallucinated]" if recs[i].get("has_hallucination") else "",
                 "  [text in %s]" % f["in_input"] if f["in_input"] else ""))
        print("  text:    %s" % f["text"])
        print("  context: %s" % ctx)
        res["sample"].append({"n": k, "id": recs[i]["id"], "rule": f["rule"], "signal": f["signal"],
                              "start": f["start"], "end": f["end"], "text": f["text"], "context": ctx,
                              "has_hallucination": bool(recs[i].get("has_hallucination")),
                              "text_in_input": f["in_input"]})
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--halluscan", default=os.path.join("build", "halluscan"),
                    help="the binary (default build/halluscan, relative to the current "
                         "directory, else to the source root)")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"),
                    help="corpus directory (default ../shared/corpus from the source root)")
    ap.add_argument("--rules", action="append", metavar="PATH",
                    help="rule pack file or directory, passed to halluscan (repeatable)")
    ap.add_argument("--sample", type=int, default=50, help="findings to sample per corpus (default 50)")
    ap.add_argument("--seed", default="1", help="random seed for the sample (default 1)")
    ap.add_argument("--json", metavar="OUT", help="write machine-readable results here")
    ap.add_argument("--verify", type=int, default=0, metavar="K",
                    help="re-scan K responses per corpus one by one and compare")
    ap.add_argument("--ground-input", action="store_true",
                    help="put each record's prompt and source in a tool span before its response, "
                         "so that what the response repeats from them counts as grounded "
                         "(needs a halluscan that grounds repeats of tool output)")
    ap.add_argument("--cache", dest="no_cache", action="store_false",
                    help="let halluscan use its compiled-rules cache (default: --no-cache)")
    args = ap.parse_args()

    if not os.path.isdir(args.corpus):
        print("skipped: no corpus")
        return 0
    if not os.path.exists(args.halluscan) and not os.path.isabs(args.halluscan):
        alt = os.path.join(ROOT, args.halluscan)
        if os.path.exists(alt):
            args.halluscan = alt
    if not os.access(args.halluscan, os.X_OK):
        die("no halluscan binary at %s (build it: meson setup build; ninja -C build)" % args.halluscan)

    if args.ground_input and "--show-grounded" not in run(args, "--help"):
        die("--ground-input: this halluscan does not ground repeats of tool output")
    rules = list_rules(args)
    # Signal order, then pack order: the table reads the same whatever the load order.
    rules.sort(key=lambda r: SIGNALS.index(r[1]) if r[1] in SIGNALS else len(SIGNALS))
    delims = span_delimiters(args)
    rng = random.Random(args.seed)
    results = []
    for name, fname, select, what in CORPORA:
        r = analyse(args, name, fname, select, what, rules, delims, rng)
        if r is not None:
            results.append(r)

    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"halluscan": args.halluscan, "rules": args.rules, "corpus": os.path.abspath(args.corpus),
                       "sample": args.sample, "seed": args.seed, "corpora": results}, fh, indent=1)
            fh.write("\n")
    return 1 if any(r["verify_mismatches"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
