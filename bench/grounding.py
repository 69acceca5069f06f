#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Grounding measured beside a naive check, on the shared corpora read in place.

Every figure stands next to the naive check's figure on the same records,
computed by the same code, so that no change can make halluscan worse than
the naive check without this report showing it.

Measures (one table each, columns "naive | halluscan"):

 1. RAGTruth dev (../shared/corpus/ragtruth_dev.jsonl): each response
    scanned with its `source` as --source. Per task (Summary, QA, Data2txt)
    and overall:
      a. digit-span recall: labelled spans whose text holds a digit that a
         number finding overlaps (byte offsets);
      b. number-finding precision: number findings that overlap a labelled
         span (any span);
      c. response level: "any number finding" against has_hallucination,
         precision, recall and Cohen's kappa.
    halluscan's number findings are altered_number and ungrounded_number.
 2. SummEdits numbers (summedits.jsonl): recall over summaries with a
    changed number (a labelled span holds a digit; the test is
    summedits_numbers.number_changed), and over those of them whose number
    tokens are not the unedited summary's (numbers_edited), false-positive
    rate over consistent summaries; the issue's target is recall >= 0.90 at
    FPR <= 0.05.
 3. Pairs on SummEdits: each summary as the claim, its source as the
    passage, through `halluscan --pairs`; gold: consistent = supports,
    inconsistent = does_not_support. halluscan's 3x2 table against gold,
    binary kappa with partially_supports counted as supports and as
    does_not_support; the naive pair check's 2x2 table and kappa.
 4. Pairs on the finscope analyses (../shared/seed-sources/finscope): the
    claim/passage set described at finscope_pairs().
 5. Our own claim/passage sets (tests/pairs/dev.jsonl, the development set,
    and tests/pairs/heldout.jsonl, written after the changes it measures):
    each record's claim, passage and label (the gold: supports or
    does_not_support; `halluscan eval FILE` prints its 3x3 table too) and
    its class (absence, abbrev, contrast, attribution, plain); the same
    tables as 3., and per class the pairs judged as gold.
 6. halluscan eval per corpus (all signals, and number signals only), with
    the naive check's response-level figures where a record has a source to
    check against (elsewhere "no source": the naive check means nothing).

The naive checks, exactly:
  number token   a maximal run of ASCII digits with single "," or "." between
                 digits (NUMBER_RE: "1,234.5", "3.5", "2013", the "2" of "Q2";
                 a trailing full stop is not part of it); normalized by dropping
                 commas, leading zeros of the integer part and trailing zeros of
                 a single fractional part ("4.0" = "4", "08" = "8",
                 "1,000" = "1000"); a token with two or more dots (a version)
                 keeps its dots.
  naive finding  each number token of the response whose normalized form is
                 not among the normalized number tokens of the source; one
                 finding per token, with its byte offsets.
  content word   a maximal run of letters (str.isalpha) of four or more,
                 case-folded, not in STOPWORDS (halluscan's own short list);
                 the claim's coverage is the share of its content-word
                 occurrences that occur as words in the passage (1 when it has
                 none).
  naive pair     supports when every number token of the claim is in the
                 passage and coverage >= 0.5; otherwise does_not_support.
  --naive-raw compares number tokens as written instead (the RAGTruth tables
  show the other definition's overall figure, to show how much it matters).

--breakdown adds the classes of halluscan's misses and false alarms (and the
naive check's false alarms) on RAGTruth and SummEdits: the class of the number
from the text around it (self-count "in 94 words", clock time, date, year,
quarter, range, rating, list marker, identifier, money, ...; see
surface_class), whether the source holds the same value or spells it in
words, counts of records (SummEdits: seed summaries, whose edits share their
errors) and a few examples; and, for the pairs, what decided each verdict.

Proportions carry 95% Wilson intervals; kappa its large-sample interval
(Cohen 1960). Output is deterministic. Passages for --pairs keep their line
breaks, as users send them, with a timeout per batch and then per record (a
pair that times out is counted and reported). --flatten-passages turns line
breaks into spaces first, as this script did while halluscan looped forever
on some multi-line passages (issue 10; fixed, and the two give the same
figures within one pair); it then probes a few passages of that shape
unflattened, each with a timeout, and says whether the hang is back.

  python3 bench/grounding.py [--halluscan build/halluscan] [--corpus DIR]
      [--finscope DIR] [--measures LIST] [--limit N] [--jobs 2] [--json OUT]
      [--markdown] [--breakdown] [--examples 3] [--check] [--naive-raw]
      [--flatten-passages] [--finscope-derived-labels]

--check exits 1 unless halluscan is at least as good as the naive check on
every measure run (and meets the SummEdits target); exit 77 when the corpus
is absent (meson's "skipped"). Otherwise exit 0, or 2 on errors.
"""

import argparse
import collections
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from summedits_numbers import number_changed, numbers_edited  # noqa: E402  (one definition for both scripts)

NUMBER_SIGNALS = ("altered_number", "ungrounded_number")
TASKS = ("Summary", "QA", "Data2txt")
MEASURES = ("ragtruth", "attributes", "numbers", "pairs", "ragtruth-pairs", "finscope", "own-pairs", "eval")
# Our own claim/passage sets (tests/pairs/): the classes of issue 32 in text
# written for them, gold by hand. dev.jsonl was written with the changes it
# measures; heldout.jsonl after them, and not tuned to.
OWN_PAIRS = (("dev", "dev.jsonl"), ("held out", "heldout.jsonl"))
Z95 = 1.959963984540054

NUMBER_RE = re.compile(rb"[0-9]+(?:[.,][0-9]+)*")
WORD_RE = re.compile(r"[^\W\d_]+")
# halluscan's pair stop list (src/eval/pairs.c), so that coverage means the same on both sides.
STOPWORDS = frozenset((
    "about", "after", "also", "been", "being", "from", "have", "into", "more", "that",
    "their", "them", "then", "there", "these", "they", "this", "those", "were", "what",
    "when", "which", "while", "will", "with", "would", "your",
    "aren", "cannot", "couldn", "didn", "doesn", "hadn", "hasn", "haven", "neither",
    "never", "none", "shouldn", "wasn", "weren", "without", "wouldn"))
# The shape the brief names for today's --pairs hang: a line break after a
# line that does not end in . ! ?
HANG_RE = re.compile(r"[^.!?\s][ \t]*\n")


class Failure(Exception):
    pass


# ---------------------------------------------------------------- the naive checks

def norm_number(tok):
    """The normalized string of a number token (bytes)."""
    t = tok.decode("ascii").replace(",", "")
    if t.count(".") == 1:
        whole, frac = t.split(".")
        whole = whole.lstrip("0") or "0"
        frac = frac.rstrip("0")
        return whole + "." + frac if frac else whole
    if "." in t:
        return t
    return t.lstrip("0") or "0"


def raw_number(tok):
    """--naive-raw: the token's bytes as written, nothing normalized."""
    return tok.decode("ascii")


NORMALIZE = norm_number


def number_tokens(b, normalize=None):
    """[(start, end, token bytes, normalized)] of the number tokens of bytes b."""
    f = normalize or NORMALIZE
    return [(m.start(), m.end(), m.group(), f(m.group())) for m in NUMBER_RE.finditer(b)]


def number_set(b, normalize=None):
    return {t[3] for t in number_tokens(b, normalize)}


def naive_findings(response_b, source_numbers, normalize=None):
    """One finding per number token of the response not among the source's."""
    return [{"start": s, "end": e, "text": tok.decode("ascii"), "norm": n}
            for s, e, tok, n in number_tokens(response_b, normalize) if n not in source_numbers]


def content_words(text):
    return [w for w in (x.casefold() for x in WORD_RE.findall(text))
            if len(w) >= 4 and w not in STOPWORDS]


def naive_pair(claim, passage):
    """(verdict, missing numbers, coverage) of the naive pair check."""
    missing = sorted(number_set(claim.encode()) - number_set(passage.encode()))
    words = content_words(claim)
    held = set(x.casefold() for x in WORD_RE.findall(passage))
    cov = sum(1 for w in words if w in held) / len(words) if words else 1.0
    verdict = "supports" if not missing and cov >= 0.5 else "does_not_support"
    return verdict, missing, cov


# ---------------------------------------------------------------- statistics

def wilson(k, n, z=Z95):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def prop(k, n):
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "p": (k / n) if n else None, "low": lo, "high": hi}


def kappa_table(table, labels):
    """Cohen's kappa of a square agreement table {(rater_a, rater_b): count}."""
    n = sum(table.values())
    if n == 0:
        return {"kappa": None, "se": None, "low": None, "high": None, "n": 0}
    po = sum(table.get((x, x), 0) for x in labels) / n
    pe = sum(sum(table.get((x, y), 0) for y in labels) * sum(table.get((y, x), 0) for y in labels)
             for x in labels) / (n * n)
    if pe >= 1:
        return {"kappa": None, "se": None, "low": None, "high": None, "n": n, "po": po, "pe": pe}
    k = (po - pe) / (1 - pe)
    se = math.sqrt(po * (1 - po) / (n * (1 - pe) ** 2))
    return {"kappa": k, "se": se, "low": k - Z95 * se, "high": k + Z95 * se, "n": n, "po": po, "pe": pe}


def binary(tp, fp, fn, tn):
    t = {(True, True): tp, (True, False): fp, (False, True): fn, (False, False): tn}
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": prop(tp, tp + fp), "recall": prop(tp, tp + fn),
            "specificity": prop(tn, tn + fp), "accuracy": prop(tp + tn, tp + fp + fn + tn),
            "kappa": kappa_table(t, (True, False))}


def fp_(d):
    """A proportion as text: k/n = p [low, high]."""
    if not d["n"]:
        return "0/0 = n/a"
    return "%d/%d = %.3f [%.3f, %.3f]" % (d["k"], d["n"], d["p"], d["low"], d["high"])


def fk(d):
    if d.get("kappa") is None:
        return "n/a"
    return "%.3f [%.3f, %.3f]" % (d["kappa"], d["low"], d["high"])


# ---------------------------------------------------------------- running halluscan

def run(cmd, stdin=None, timeout=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode not in (0, 1):
        raise Failure("%s failed (exit %d): %s" % (" ".join(cmd[:3]), p.returncode,
                                                    p.stderr.decode(errors="replace").strip()[:500]))
    return p.stdout.decode("utf-8", errors="surrogateescape")


def scan_grounded(binary_, response, source, tmpdir, key):
    """halluscan's number findings on the response with the source as --source
    (one process per record: --source grounds every input of a process)."""
    path = os.path.join(tmpdir, "%s.src" % key)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    try:
        out = run([binary_, "--fail-on", "never", "--source", path], stdin=response.encode("utf-8"))
    finally:
        os.unlink(path)
    found = []
    for line in out.splitlines():
        o = json.loads(line)
        # A finding counts when it leads with a number signal or carries one.
        if o.get("type") == "finding" and ({o.get("signal")} | set(o.get("also", ()))) & set(NUMBER_SIGNALS):
            found.append(o)
    return found


def scan_many(args, pool, tmpdir, tag, records):
    return list(pool.map(lambda ir: scan_grounded(args.halluscan, ir[1]["response"], ir[1]["source"],
                                                  tmpdir, "%s-%d" % (tag, ir[0])),
                         enumerate(records)))


def flatten(text):
    return re.sub(r"[ \t]*(?:\r\n|\r|\n)[ \t]*", " ", text)


def parse_pairs(out):
    got = {}
    for line in out.splitlines():
        o = json.loads(line)
        if o.get("type") == "pair":
            got[o["id"]] = o
        elif o.get("type") == "error":
            raise Failure("--pairs error: %s" % line[:300])
    return got


def run_pairs(args, pool, tmpdir, tag, items):
    """items: [(claim, passage)]. Returns one pair record per item (a dict with
    at least "verdict"; "timeout" where halluscan did not answer in time)."""
    jobs = max(1, args.jobs)
    size = max(1, math.ceil(len(items) / jobs))
    chunks = [list(range(k, min(k + size, len(items)))) for k in range(0, len(items), size)]

    def write(path, idx):
        with open(path, "w", encoding="utf-8") as f:
            for i in idx:
                f.write(json.dumps({"id": str(i), "claim": items[i][0], "passage": items[i][1]}) + "\n")

    def one_chunk(ci):
        idx = chunks[ci]
        path = os.path.join(tmpdir, "%s-pairs-%d.jsonl" % (tag, ci))
        write(path, idx)
        try:
            out = run([args.halluscan, "--pairs", "--fail-on", "never", path],
                      timeout=args.batch_timeout)
        finally:
            os.unlink(path)
        if out is not None:
            return parse_pairs(out)
        # A batch that timed out (a hang): each record alone, with its own timeout.
        got = {}
        for i in idx:
            p1 = os.path.join(tmpdir, "%s-pair-%d.jsonl" % (tag, i))
            write(p1, [i])
            try:
                o = run([args.halluscan, "--pairs", "--fail-on", "never", p1], timeout=args.pair_timeout)
            finally:
                os.unlink(p1)
            got.update(parse_pairs(o) if o is not None else {str(i): {"verdict": "timeout"}})
        return got

    got = {}
    for g in pool.map(one_chunk, range(len(chunks))):
        got.update(g)
    missing = [i for i in range(len(items)) if str(i) not in got]
    if missing:
        raise Failure("--pairs gave no verdict for %d of %d records" % (len(missing), len(items)))
    return [got[str(i)] for i in range(len(items))]


def hang_probe(args, pool, tmpdir, passages, k=4, timeout=2.0):
    """Runs up to k passages of the hanging shape unflattened, each alone with
    a timeout: how many still hang."""
    pick = sorted({p for p in passages if HANG_RE.search(p)}, key=passages.index)[:k]

    def one(ip):
        i, p = ip
        path = os.path.join(tmpdir, "probe-%d.jsonl" % i)
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"id": "probe", "claim": "The probe claim.", "passage": p}) + "\n")
        try:
            return run([args.halluscan, "--pairs", "--fail-on", "never", path], timeout=timeout) is None
        finally:
            os.unlink(path)

    hung = sum(pool.map(one, enumerate(pick)))
    return {"probed": len(pick), "hung": hung, "timeout_s": timeout}


# ---------------------------------------------------------------- corpora

def read_jsonl(path, limit=0):
    recs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                recs.append(json.loads(line))
                if limit and len(recs) == limit:
                    break
    return recs


def overlaps(f, s):
    return f["start"] < s["byte_end"] and s["byte_start"] < f["end"]


def tally(c, r, fs):
    """Counts a record's findings fs into c: on a labelled span, and the response's cell."""
    c["findings"] += len(fs)
    c["on_span"] += sum(1 for f in fs if any(overlaps(f, s) for s in r["spans"]))
    pos, gold = bool(fs), bool(r["has_hallucination"])
    c["tp"] += pos and gold
    c["fp"] += pos and not gold
    c["fn"] += gold and not pos
    c["tn"] += not pos and not gold


def has_digit(text):
    return re.search(r"[0-9]", text) is not None


# ---------------------------------------------------------------- 1. RAGTruth

def measure_ragtruth(args, pool, tmpdir):
    path = os.path.join(args.corpus, "ragtruth_dev.jsonl")
    recs = read_jsonl(path, args.limit)
    hs = scan_many(args, pool, tmpdir, "rt", recs)
    nv = [naive_findings(r["response"].encode("utf-8"), number_set(r["source"].encode("utf-8"))) for r in recs]
    res = {"file": path, "records": len(recs), "tasks": {}}
    for det, found in (("naive", nv), ("halluscan", hs)):
        acc = collections.defaultdict(lambda: collections.Counter())
        for r, fs in zip(recs, found):
            for t in (r["task"], "overall"):
                c = acc[t]
                c["records"] += 1
                for s in r["spans"]:
                    if has_digit(s["text"]):
                        c["digit_spans"] += 1
                        c["digit_caught"] += any(overlaps(f, s) for f in fs)
                tally(c, r, fs)
        for t, c in acc.items():
            res["tasks"].setdefault(t, {})[det] = {
                "records": c["records"],
                "digit_span_recall": prop(c["digit_caught"], c["digit_spans"]),
                "finding_precision": prop(c["on_span"], c["findings"]),
                "response": binary(c["tp"], c["fp"], c["fn"], c["tn"]),
            }
    order = [t for t in TASKS if t in res["tasks"]] + ["overall"]
    res["tasks"] = {t: res["tasks"][t] for t in order}
    # How much the naive figures depend on the normalization: the other definition, overall.
    other = norm_number if NORMALIZE is raw_number else raw_number
    caught = spans = on = total = 0
    for r in recs:
        fs = naive_findings(r["response"].encode("utf-8"), number_set(r["source"].encode("utf-8"), other), other)
        for s in r["spans"]:
            if has_digit(s["text"]):
                spans += 1
                caught += any(overlaps(f, s) for f in fs)
        total += len(fs)
        on += sum(1 for f in fs if any(overlaps(f, s) for s in r["spans"]))
    res["naive_other_normalization"] = {"normalization": "raw" if other is raw_number else "normalized",
                                        "digit_span_recall": prop(caught, spans), "finding_precision": prop(on, total)}
    return res, recs, hs, nv


def report_ragtruth(rep, res):
    tasks = res["tasks"]
    title = "RAGTruth dev (%d answers; source as --source)" % res["records"]
    alt = res["naive_other_normalization"]
    how = ("naive with number tokens compared as written (--naive-raw)" if alt["normalization"] == "raw"
           else "naive with normalized number tokens (the default)")
    rep.table(title + ": (a) digit-span recall — labelled spans with a digit that a number finding overlaps",
              ["task", "answers", "naive", "halluscan"],
              [[t, d["naive"]["records"], fp_(d["naive"]["digit_span_recall"]),
                fp_(d["halluscan"]["digit_span_recall"])] for t, d in tasks.items()],
              notes=["%s, overall: %s" % (how, fp_(alt["digit_span_recall"]))])
    rep.table(title + ": (b) number-finding precision — findings on a labelled span",
              ["task", "answers", "naive", "halluscan"],
              [[t, d["naive"]["records"], fp_(d["naive"]["finding_precision"]),
                fp_(d["halluscan"]["finding_precision"])] for t, d in tasks.items()],
              notes=["%s, overall: %s" % (how, fp_(alt["finding_precision"]))])
    rows = []
    for t, d in tasks.items():
        for m in ("precision", "recall"):
            rows.append([t, m, fp_(d["naive"]["response"][m]), fp_(d["halluscan"]["response"][m])])
        rows.append([t, "kappa", fk(d["naive"]["response"]["kappa"]), fk(d["halluscan"]["response"]["kappa"])])
        rows.append([t, "TP FP FN TN", "%(tp)d %(fp)d %(fn)d %(tn)d" % d["naive"]["response"],
                     "%(tp)d %(fp)d %(fn)d %(tn)d" % d["halluscan"]["response"]])
    rep.table(title + ": (c) response level — any number finding vs has_hallucination",
              ["task", "measure", "naive", "halluscan"], rows)


# ---------------------------------------------------------------- 1b. RAGTruth attributes

def camel_words(key):
    return [w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z]?[a-z]+|[0-9]+", key)]


def yes_no(v):
    """True or False when a record's value says yes or no, else None (as attrs.c reads it)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        t = v.strip()
        if t[:2] in ("u'", 'u"'):
            t = t[1:]
        t = t.strip("'\"").lower()
        if t in ("true", "yes", "free", "paid"):
            return True
        if t in ("false", "no", "none"):
            return False
    return None


def record_yes_no(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)):
                yield from record_yes_no(v, path + (k,))
            else:
                t = yes_no(v)
                if t is not None:
                    yield path + (k,), t
    elif isinstance(obj, list):
        for v in obj:
            yield from record_yes_no(v, path)


def naive_attribute_findings(response, source):
    """The naive check: a sentence that names a key whose value is false (every word of the key,
    'attributes' left out, anywhere in it, any case) is a finding, at the key's last word."""
    try:
        rec = json.loads(source)
    except ValueError:
        return []
    b = response.encode("utf-8")
    found = []
    for m in re.finditer(rb"[^.!?\n]+", b):
        low = m.group(0).lower()
        for path, truth in record_yes_no(rec):
            if truth:
                continue
            words = [w for k in path for w in camel_words(k) if w != "attributes"]
            if not words or not all(w.encode() in low for w in words):
                continue
            at = low.find(words[-1].encode())
            found.append({"start": m.start() + at, "end": m.start() + at + len(words[-1])})
    return found


def scan_attributes(binary_, response, source, tmpdir, key):
    path = os.path.join(tmpdir, "%s.src" % key)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    try:
        out = run([binary_, "--fail-on", "never", "--select", "contradicted_attribute", "--source", path],
                  stdin=response.encode("utf-8"))
    finally:
        os.unlink(path)
    return [o for o in map(json.loads, out.splitlines()) if o.get("type") == "finding"]


def attribute_span(r, s):
    """A labelled span that names a yes/no the record states (one of its keys' last words)."""
    try:
        rec = json.loads(r["source"])
    except ValueError:
        return False
    low = s["text"].lower()
    return any(camel_words(p[-1]) and camel_words(p[-1])[-1] in low for p, _ in record_yes_no(rec))


def measure_attributes(args, pool, tmpdir):
    """RAGTruth's structured-data answers: contradicted_attribute against the naive check."""
    path = os.path.join(args.corpus, "ragtruth_dev.jsonl")
    recs = [r for r in read_jsonl(path, args.limit) if r["task"] == "Data2txt"]
    hs = list(pool.map(lambda ir: scan_attributes(args.halluscan, ir[1]["response"], ir[1]["source"],
                                                  tmpdir, "at-%d" % ir[0]), enumerate(recs)))
    nv = [naive_attribute_findings(r["response"], r["source"]) for r in recs]
    res = {"file": path, "records": len(recs)}
    for det, found in (("naive", nv), ("halluscan", hs)):
        c = collections.Counter()
        for r, fs in zip(recs, found):
            for s in r["spans"]:
                if attribute_span(r, s):
                    c["spans"] += 1
                    c["caught"] += any(overlaps(f, s) for f in fs)
            tally(c, r, fs)
        res[det] = {"span_recall": prop(c["caught"], c["spans"]),
                    "finding_precision": prop(c["on_span"], c["findings"]),
                    "response": binary(c["tp"], c["fp"], c["fn"], c["tn"])}
    return res


def report_attributes(rep, res):
    n, h = res["naive"], res["halluscan"]
    rows = [["labelled spans naming a record's yes/no that a finding overlaps",
             fp_(n["span_recall"]), fp_(h["span_recall"])],
            ["findings on a labelled span", fp_(n["finding_precision"]), fp_(h["finding_precision"])]]
    for m in ("precision", "recall"):
        rows.append(["response " + m, fp_(n["response"][m]), fp_(h["response"][m])])
    rows.append(["response kappa", fk(n["response"]["kappa"]), fk(h["response"]["kappa"])])
    rep.table("RAGTruth dev, structured-data answers (%d): yes/no attributes — contradicted_attribute "
              "vs naive (a sentence naming a key whose value is false)" % res["records"],
              ["measure", "naive", "halluscan"], rows)


# ---------------------------------------------------------------- 2. SummEdits numbers

def measure_numbers(args, pool, tmpdir):
    path = os.path.join(args.corpus, "summedits.jsonl")
    recs = read_jsonl(path, args.limit)
    changed = [r for r in recs if number_changed(r)]
    consistent = [r for r in recs if not r["has_hallucination"]]
    hs_ch = scan_many(args, pool, tmpdir, "sec", changed)
    hs_co = scan_many(args, pool, tmpdir, "seo", consistent)

    def naive(rs):
        return [naive_findings(r["response"].encode("utf-8"), number_set(r["source"].encode("utf-8"))) for r in rs]

    nv_ch, nv_co = naive(changed), naive(consistent)
    res = {"file": path, "records": len(recs), "changed": len(changed), "consistent": len(consistent),
           "target": {"recall": 0.90, "fpr": 0.05}, "overall": {}, "domains": {}}
    edited = [bool(numbers_edited(r)) for r in changed]
    res["edited"] = sum(edited)
    for det, ch, co in (("naive", nv_ch, nv_co), ("halluscan", hs_ch, hs_co)):
        res["overall"][det] = {"recall": prop(sum(1 for g in ch if g), len(ch)),
                               "recall_edited": prop(sum(1 for g, e in zip(ch, edited) if g and e),
                                                     sum(edited)),
                               "fpr": prop(sum(1 for g in co if g), len(co))}
        if det == "halluscan":
            res["overall"][det]["as_altered"] = sum(
                1 for g in ch if any(f["signal"] == "altered_number" for f in g))
        for dom in sorted({r["task"] for r in changed + consistent}):
            a = [bool(g) for r, g in zip(changed, ch) if r["task"] == dom]
            b = [bool(g) for r, g in zip(consistent, co) if r["task"] == dom]
            res["domains"].setdefault(dom, {})[det] = {"recall": prop(sum(a), len(a)), "fpr": prop(sum(b), len(b))}
    return res, changed, consistent, (hs_ch, hs_co), (nv_ch, nv_co)


def report_numbers(rep, res):
    o = res["overall"]
    rep.table("SummEdits numbers (%d records): recall over %d summaries with a changed number, "
              "false-positive rate over %d consistent summaries (target: recall >= %.2f at FPR <= %.2f)"
              % (res["records"], res["changed"], res["consistent"], res["target"]["recall"], res["target"]["fpr"]),
              ["measure", "naive", "halluscan"],
              [["recall", fp_(o["naive"]["recall"]), fp_(o["halluscan"]["recall"])],
               ["recall, numbers edited", fp_(o["naive"]["recall_edited"]),
                fp_(o["halluscan"]["recall_edited"])],
               ["FPR", fp_(o["naive"]["fpr"]), fp_(o["halluscan"]["fpr"])]],
              notes=["halluscan: %d of the caught as altered_number" % o["halluscan"]["as_altered"],
                     "numbers edited: the %d of the %d whose number tokens, in order, are not the "
                     "unedited summary's (the spans are a token diff against it; the other %d hold "
                     "a digit the edit left alone)" % (res["edited"], res["changed"],
                                                       res["changed"] - res["edited"])])
    rows = []
    for dom, d in res["domains"].items():
        rows.append([dom.replace("summedits-", ""), fp_(d["naive"]["recall"]), fp_(d["halluscan"]["recall"]),
                     fp_(d["naive"]["fpr"]), fp_(d["halluscan"]["fpr"])])
    rep.table("SummEdits numbers per domain", ["domain", "recall naive", "recall halluscan",
                                                "FPR naive", "FPR halluscan"], rows)


# ---------------------------------------------------------------- 3./4. pairs

PAIR3 = ("supports", "partially_supports", "does_not_support")
GOLD2 = ("supports", "does_not_support")


def pair_metrics(gold, hs, nv):
    """gold: supports/does_not_support; hs: halluscan's verdicts (3 classes, or
    timeout); nv: the naive check's (2 classes)."""
    t3 = collections.Counter(zip(hs, gold))
    t2 = collections.Counter(zip(nv, gold))
    out = {"n": len(gold), "gold": dict(collections.Counter(gold)),
           "halluscan_table": {v: {g: t3[(v, g)] for g in GOLD2} for v in PAIR3 + ("timeout",) if
                               v != "timeout" or any(t3[(v, g)] for g in GOLD2)},
           "naive_table": {v: {g: t2[(v, g)] for g in GOLD2} for v in GOLD2}}

    def summarize(pred):
        tab = collections.Counter(zip(pred, gold))
        # does_not_support is the positive class: what a grounding check must find.
        tp, fp = tab[("does_not_support", "does_not_support")], tab[("does_not_support", "supports")]
        fn, tn = tab[("supports", "does_not_support")], tab[("supports", "supports")]
        b = binary(tp, fp, fn, tn)
        return {"kappa": kappa_table(tab, GOLD2), "accuracy": b["accuracy"],
                "dns_precision": b["precision"], "dns_recall": b["recall"]}

    # A timeout is no verdict: counted as supports (nothing found), as a gate would pass it.
    lenient = ["supports" if v in ("partially_supports", "timeout") else v for v in hs]
    strict = ["does_not_support" if v == "partially_supports" else ("supports" if v == "timeout" else v) for v in hs]
    out["halluscan_partial_as_supports"] = summarize(lenient)
    out["halluscan_partial_as_dns"] = summarize(strict)
    out["naive"] = summarize(nv)
    return out


def report_pairs(rep, title, m, notes=()):
    rows = []
    for v, row in m["halluscan_table"].items():
        rows.append(["halluscan", v] + [row[g] for g in GOLD2])
    for v, row in m["naive_table"].items():
        rows.append(["naive", v] + [row[g] for g in GOLD2])
    rep.table(title + ": verdicts (rows) against gold (columns)",
              ["check", "verdict", "gold supports", "gold does_not_support"], rows)
    rows = []
    for name, d in (("naive", m["naive"]), ("halluscan, partial = supports", m["halluscan_partial_as_supports"]),
                    ("halluscan, partial = does_not_support", m["halluscan_partial_as_dns"])):
        rows.append([name, fk(d["kappa"]), fp_(d["accuracy"]), fp_(d["dns_precision"]), fp_(d["dns_recall"])])
    rep.table(title + ": binary agreement (%d pairs)" % m["n"],
              ["check", "kappa", "accuracy", "does_not_support precision", "does_not_support recall"], rows,
              notes=list(notes))


def measure_pairs(args, pool, tmpdir):
    path = os.path.join(args.corpus, "summedits.jsonl")
    recs = read_jsonl(path, args.limit)
    prep = flatten if args.flatten_passages else (lambda s: s)
    items = [(prep(r["response"]), prep(r["source"])) for r in recs]
    gold = ["does_not_support" if r["has_hallucination"] else "supports" for r in recs]
    probe = hang_probe(args, pool, tmpdir, [r["source"] for r in recs]) if args.flatten_passages else None
    got = run_pairs(args, pool, tmpdir, "sp", items)
    nvd = [naive_pair(c, p) for c, p in items]
    m = pair_metrics(gold, [g["verdict"] for g in got], [v for v, _, _ in nvd])
    multi = sum(1 for r in recs if "\n" in r["source"])
    m.update({"file": path, "records": len(recs), "passages_with_line_breaks": multi,
              "flattened": args.flatten_passages, "hang_probe": probe})
    return m, recs, items, got, nvd


def measure_ragtruth_pairs(args, pool, tmpdir):
    """RAGTruth dev answers as pairs: the whole answer as the claim, its
    sources as the passage; gold does_not_support where the answer is
    labelled with a hallucination. Real model output, where SummEdits'
    edits are made by hand: a rule that only fits the edits shows here."""
    path = os.path.join(args.corpus, "ragtruth_dev.jsonl")
    recs = read_jsonl(path, args.limit)
    items = [(r["response"], r["source"]) for r in recs]
    gold = ["does_not_support" if r["has_hallucination"] else "supports" for r in recs]
    got = run_pairs(args, pool, tmpdir, "rp", items)
    nvd = [naive_pair(c, p) for c, p in items]
    m = pair_metrics(gold, [g["verdict"] for g in got], [v for v, _, _ in nvd])
    m.update({"file": path, "records": len(recs), "passages_with_line_breaks": 0,
              "flattened": False, "hang_probe": None})
    return m, recs, items, got, nvd


def pair_notes(m):
    notes = []
    if m["flattened"]:
        notes.append("%d of %d passages had line breaks; all were flattened to spaces before --pairs"
                     % (m["passages_with_line_breaks"], m["records"]))
        p = m.get("hang_probe")
        if p and p["probed"]:
            notes.append("hang probe: %d of %d unflattened passages of the hanging shape timed out (%.0f s each)%s"
                         % (p["hung"], p["probed"], p["timeout_s"],
                            "" if p["hung"] else " — no hang: the default (unflattened) run measures them as sent"))
    t = sum(m["halluscan_table"].get("timeout", {}).values())
    if t:
        notes.append("%d pairs timed out (no verdict; counted as supports)" % t)
    return notes


def finscope_pairs(dirpath, fixed_labels=True):
    """The fairest claim/passage set the finscope material allows.

    The source chunks the analyses were written from were not saved
    (PROVENANCE.md). The nine clean analyses were written "citing a specific
    number or fact directly from the excerpts", so their claims stand in for
    the excerpts: the passage of a claim is every claim line of the clean
    analyses except those of the claim's own analysis (leave one analysis
    out, so that no claim is judged against itself), joined by spaces.
    "(Source: ...)" parentheticals are dropped from claims and passages: they
    name the filing, they state nothing of it. The claims and their labels
    are derived/claims.jsonl (presumed_grounded = supports,
    fabricated_or_altered = does_not_support), with two corrections: four
    claims still hold the generator's inline note ("[ALT: originally 29,000]");
    the note is removed from the claim (it gives the answer away). Two notes
    name the figure they replaced ("originally 6% to 70%", "originally
    29,000"), and the clean analyses state that figure: those two claims are
    labelled fabricated_or_altered, by the marker rule PROVENANCE.md states.
    The other two notes assert an "actual" figure (6% to 55%; 32,000) that no
    clean analysis states, while the claim states the figure every clean
    analysis does: those keep their derived label, presumed_grounded.
    Returns [(case_id, case_type, claim, passage, gold, note)]."""
    cases = json.load(open(os.path.join(dirpath, "critic_eval_cases.json"), encoding="utf-8"))
    claims = read_jsonl(os.path.join(dirpath, "derived", "claims.jsonl"))
    cite = re.compile(r"\s*\(Source:[^()]*(?:\([^()]*\)[^()]*)*\)")
    note = re.compile(r"\s*\[(?:ALT|FAB)(?::([^\]]*))?\]")
    clean = {}
    for c in cases:
        if c["type"] == "clean":
            lines = [re.sub(r"^\s*\d+\.\s+", "", ln) for ln in c["analysis"].split("\n")
                     if re.match(r"\s*\d+\.\s", ln)]
            clean[c["id"]] = [cite.sub("", ln).strip() for ln in lines]
    out = []
    for cl in claims:
        text = cite.sub("", cl["claim_text"]).strip()
        gold = "does_not_support" if cl["claim_label"] == "fabricated_or_altered" else "supports"
        why = ""
        m = note.search(text)
        if m:
            text = note.sub("", text).strip()
            why = "inline note removed: %s" % m.group(0).strip()
            if fixed_labels and (m.group(1) or "").strip().startswith("originally"):
                gold = "does_not_support"
                why += "; labelled does_not_support (the note names the replaced figure)"
        passage = " ".join(ln for cid in sorted(clean) if cid != cl["case_id"] for ln in clean[cid])
        out.append((cl["case_id"], cl["case_type"], text, passage, gold, why))
    return out


def measure_finscope(args, pool, tmpdir):
    rows = finscope_pairs(args.finscope, not args.finscope_derived_labels)
    items = [(c, p) for _, _, c, p, _, _ in rows]
    gold = [g for *_, g, _ in rows]
    got = run_pairs(args, pool, tmpdir, "fs", items)
    nvd = [naive_pair(c, p) for c, p in items]
    hsv = [g["verdict"] for g in got]
    m = pair_metrics(gold, hsv, [v for v, _, _ in nvd])
    by_type = {}
    for (cid, ctype, *_), g, h, (nv, _, _) in zip(rows, gold, hsv, nvd):
        d = by_type.setdefault(ctype, collections.Counter())
        d["n"] += 1
        d["gold_dns"] += g == "does_not_support"
        d["naive_right"] += nv == g
        d["halluscan_right_lenient"] += ("supports" if h == "partially_supports" else h) == g
        d["halluscan_right_strict"] += ("does_not_support" if h == "partially_supports" else h) == g
    m.update({"dir": args.finscope, "claims": len(rows), "by_case_type": {k: dict(v) for k, v in by_type.items()},
              "notes": [(r[0], r[5]) for r in rows if r[5]],
              "flattened": False, "passages_with_line_breaks": 0})
    return m, rows, got, nvd


def report_finscope(rep, m):
    notes = ["passage: the claim lines of the clean analyses other than the claim's own (see finscope_pairs)"]
    notes += ["%s: %s" % n for n in m["notes"]]
    report_pairs(rep, "finscope pairs (%d claims of 18 analyses)" % m["claims"], m, notes)
    rows = []
    for t in ("clean", "hallucinated_obvious", "hallucinated_subtle", "borderline"):
        d = m["by_case_type"].get(t)
        if d:
            rows.append([t, d["n"], d["gold_dns"], "%d/%d" % (d["naive_right"], d["n"]),
                         "%d/%d" % (d["halluscan_right_lenient"], d["n"]),
                         "%d/%d" % (d["halluscan_right_strict"], d["n"])])
    rep.table("finscope pairs per analysis type: claims judged as gold",
              ["type", "claims", "gold does_not_support", "naive", "halluscan (partial = supports)",
               "halluscan (partial = dns)"], rows)


def measure_own_pairs(args, pool, tmpdir):
    """Our own sets of tests/pairs/, each as the pairs measures."""
    out = {}
    for name, fn in OWN_PAIRS:
        path = os.path.join(TOP, "tests", "pairs", fn)
        if not os.path.isfile(path):
            continue
        recs = read_jsonl(path)
        items = [(r["claim"], r["passage"]) for r in recs]
        got = run_pairs(args, pool, tmpdir, "own-" + fn.split(".")[0], items)
        nvd = [naive_pair(c, p) for c, p in items]
        hsv = [g["verdict"] for g in got]
        m = pair_metrics([r["label"] for r in recs], hsv, [v for v, _, _ in nvd])
        by = {}
        for r, h, (nv, _, _) in zip(recs, hsv, nvd):
            d = by.setdefault(r["class"], collections.Counter())
            d["n"] += 1
            d["gold_dns"] += r["label"] == "does_not_support"
            d["naive_right"] += nv == r["label"]
            d["halluscan_right_lenient"] += ("supports" if h == "partially_supports" else h) == r["label"]
            d["halluscan_right_strict"] += ("does_not_support" if h == "partially_supports" else h) == r["label"]
        m.update({"file": path, "records": len(recs), "by_class": {k: dict(v) for k, v in by.items()},
                  "flattened": False, "passages_with_line_breaks": 0, "hang_probe": None})
        out[name] = m
    return out


def report_own_pairs(rep, res):
    for name, m in res.items():
        report_pairs(rep, "own pairs, %s set (%s)" % (name, os.path.relpath(m["file"], TOP)), m, pair_notes(m))
        rows = []
        for c in ("absence", "abbrev", "contrast", "attribution", "plain"):
            d = m["by_class"].get(c)
            if d:
                rows.append([c, d["n"], d["gold_dns"], "%d/%d" % (d["naive_right"], d["n"]),
                             "%d/%d" % (d["halluscan_right_lenient"], d["n"]),
                             "%d/%d" % (d["halluscan_right_strict"], d["n"])])
        rep.table("own pairs, %s set, per class: pairs judged as gold" % name,
                  ["class", "pairs", "gold does_not_support", "naive", "halluscan (partial = supports)",
                   "halluscan (partial = dns)"], rows)


# ---------------------------------------------------------------- 5. halluscan eval beside naive

def measure_eval(args):
    files = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus) if f.endswith(".jsonl"))
    res = {"files": [os.path.basename(f) for f in files], "datasets": {}}
    for key, extra in (("all_signals", []), ("number_signals", ["--signals", ",".join(NUMBER_SIGNALS)])):
        d = json.loads(run([args.halluscan, "eval", "--format", "json"] + extra + files))
        for name, ds in d["datasets"].items():
            a = ds["any"]
            res["datasets"].setdefault(name, {})[key] = binary(a["tp"], a["fp"], a["fn"], a["tn"])
            res["datasets"][name]["records"] = ds["records"]
    # The naive check where every record has a source to hold numbers against.
    for f in files:
        acc = collections.defaultdict(collections.Counter)
        nosrc = set()
        for r in read_jsonl(f):
            name = r.get("dataset") or os.path.basename(f)[:-6]
            if not (r.get("source") or "").strip():
                nosrc.add(name)
                continue
            pos = bool(naive_findings(r["response"].encode("utf-8"), number_set(r["source"].encode("utf-8"))))
            gold = bool(r["has_hallucination"])
            acc[name][(pos, gold)] += 1
        for name, c in acc.items():
            if name in nosrc or name not in res["datasets"]:
                continue
            res["datasets"][name]["naive"] = binary(c[(True, True)], c[(True, False)], c[(False, True)],
                                                    c[(False, False)])
    return res


def report_eval(rep, res):
    rows = []
    for name in sorted(res["datasets"]):
        d = res["datasets"][name]
        for key, label in (("naive", "naive (number not in source)"), ("number_signals", "halluscan, number signals"),
                           ("all_signals", "halluscan, all signals")):
            b = d.get(key)
            if b is None:
                rows.append([name, d["records"], label, "no source", "", "", "", ""])
                continue
            rows.append([name, d["records"], label, "%(tp)d %(fp)d %(fn)d %(tn)d" % b, fp_(b["recall"]),
                         fp_(b["specificity"]), fp_(b["precision"]), fk(b["kappa"])])
    notes = ["naive: 'no source' where records have no source to hold numbers against (the check means nothing there)"]
    if "ragtruth_cross_check" in res:
        notes.append("cross-check: RAGTruth response-level counts from the per-record --source scans %s halluscan eval's"
                     % ("equal" if res["ragtruth_cross_check"] else "DIFFER FROM"))
    rep.table("halluscan eval per corpus (each record's source as grounding), beside the naive check",
              ["dataset", "n", "check", "TP FP FN TN", "sensitivity", "specificity", "precision", "kappa"], rows, notes)


# ---------------------------------------------------------------- classes of errors

UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
         "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
MONTH = (rb"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
         rb"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
UNIT_WORDS = rb"(?:month|year|day|week|hour|minute|second|mile|km|foot|feet|inch|meter|metre|person|man|member|word|page|point|game|seat|room|step|item|piece|part|star)s?"


def word_forms(norm):
    """Ways a source may spell the integer norm in words ("25": "twenty five", "twenty-five")."""
    if not norm.isdigit():
        return []
    v = int(norm)
    if v < 20:
        return [UNITS[v]]
    if v < 100:
        t, u = divmod(v, 10)
        return [TENS[t]] if u == 0 else [TENS[t] + sep + UNITS[u] for sep in (" ", "-", "")]
    if v < 1000 and v % 100 == 0:
        return [UNITS[v // 100] + " hundred"]
    if v < 20000 and v % 1000 == 0:
        return [UNITS[v // 1000] + " thousand"]
    return []


def word_value(text):
    """The value of a number written in words at the start of text, or None."""
    w = re.findall(r"[a-z]+", text.lower())
    if not w:
        return None
    if w[0] in UNITS:
        return str(UNITS.index(w[0]))
    if w[0] in TENS[2:]:
        v = TENS.index(w[0]) * 10
        if len(w) > 1 and w[1] in UNITS[1:10]:
            v += UNITS.index(w[1])
        return str(v)
    return {"dozen": "12", "a dozen": "12", "hundred": "100", "thousand": "1000"}.get(w[0])


def in_words(source_lower, norm):
    return any(re.search(r"\b%s\b" % re.escape(f), source_lower) for f in word_forms(norm))


def surface_class(b, s, e):
    """The class of the number written at b[s:e] (bytes of the answer), from
    the text around it. The first rule that applies wins."""
    tok = b[s:e]
    before, after = b[max(0, s - 24):s].lower(), b[e:e + 24].lower()
    line_start = b.rfind(b"\n", 0, s) + 1
    if not re.search(rb"[0-9]", tok):
        return "number in words"
    if re.match(rb"\s*-?\s*words?\b", after) or re.match(rb"\s*words?\b", b[s:e].lower().lstrip(b"0123456789")):
        return "self-count of the answer ('in 94 words')"
    if re.fullmatch(rb"[ \t*#>-]*", b[line_start:s]) and re.match(rb"[.)]\s", after):
        return "list marker ('3)', '1.')"
    if (re.match(rb"\s*:[0-9]{2}", after) or re.search(rb"[0-9]:$", before) or
            re.match(rb"(?::[0-9]{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])", after) or re.match(rb"\s*o'clock", after)):
        return "clock time / opening hours ('9:00 pm')"
    if (re.search(rb"\b" + MONTH + rb"\s*$", before) or re.match(rb"(?:st|nd|rd|th)?,?\s*(?:of\s+)?" + MONTH + rb"\b", after)
            or re.search(rb"[0-9]{4}-[0-9]{2}-$", before) or re.match(rb"-[0-9]{2}-[0-9]{2}", after)):
        return "date ('August 28th', '2013-09-08')"
    if re.search(rb"\bq$", before) or re.match(rb"q\b", after) or re.match(rb"(?:st|nd|rd|th)?\s+(?:fiscal\s+)?quarter", after):
        return "quarter ('Q3', '4Q')"
    if re.fullmatch(rb"(?:19|20)[0-9]{2}", tok) and not re.search(rb"(?:\$|\xe2\x82\xac|\xc2\xa3)\s*$", before) \
            and not re.match(rb"\s*(?:%|percent\b)", after):
        return "year ('in 2019')"
    if (re.search(rb"[0-9]\s*%?\s*(?:-|\xe2\x80\x93|to)\s*[$\xe2\x82\xac\xc2\xa3]?$", before) or
            re.match(rb"\s*%?\s*(?:-|\xe2\x80\x93)\s*[$\xe2\x82\xac\xc2\xa3]?[0-9]", after) or
            re.match(rb"\s*%?\s*to\s+[$\xe2\x82\xac\xc2\xa3]?[0-9]", after)):
        return "range ('4-7%', '$15 to $25')"
    if re.match(rb"\s*(?:-\s*)?stars?\b", after) or re.search(rb"out of\s*$", before) or re.match(rb"\s*(?:out of|/)\s*(?:5|10)\b", after):
        return "rating / scale ('4.5 stars', 'out of 5')"
    if re.match(rb"-" + UNIT_WORDS + rb"\b", after):
        return "hyphenated unit ('6-month', '30-day')"
    if re.search(rb"[a-z]-?$", before) or re.match(rb"[a-z](?<!s)", after) and not re.match(rb"(?:st|nd|rd|th|s|k|m|bn|b)\b", after):
        return "identifier with digits ('COVID-19', '3D', 'Sims 3')"
    if re.match(rb"(?:st|nd|rd|th)\b", after):
        return "ordinal ('2nd', '31st')"
    if re.match(rb"\s*(?:%|percent\b|per cent\b|pct\b)", after):
        return "percentage"
    if re.search(rb"(?:\$|\xe2\x82\xac|\xc2\xa3)\s*$", before) or \
            re.match(rb"\s*(?:[mkb]n?|million|billion|thousand)?\s*(?:dollars?|euros?|usd|eur|pounds?)\b", after):
        return "money"
    if re.match(rb"s\b", after) or re.match(rb"[- ]years?[- ]old", after) or re.search(rb"(?:age of|aged|over|under)\s*$", before):
        return "age or threshold ('over 75', 'in their 70s')"
    if re.match(rb"\s*[a-z]", after):
        return "count or measure with a unit ('94 points', '80 km')"
    return "bare number"


def relation(source_b, source_numbers, tok_text):
    """Where the source has the number: 'same value in source', 'in source in
    words', or 'not in source'."""
    toks = number_tokens(tok_text)
    norms = [t[3] for t in toks] or [v for v in (word_value(tok_text.decode("utf-8", "replace")),) if v]
    if not norms:
        return "not in source"
    if all(n in source_numbers for n in norms):
        return "same value in source"
    low = source_b.decode("utf-8", "replace").lower()
    if all(n in source_numbers or in_words(low, n) for n in norms):
        return "in source in words"
    return "not in source"


def snippet(b, s, e, width=36):
    lo, hi = max(0, s - width), min(len(b), e + width)

    def dec(x):
        return x.decode("utf-8", errors="replace").replace("\n", " ⏎ ")

    return ("…" if lo else "") + dec(b[lo:s]) + "»" + dec(b[s:e]) + "«" + dec(b[e:hi]) + ("…" if hi < len(b) else "")


class Classes:
    """Counts of (class, relation), the distinct groups (a SummEdits seed
    summary and its edits are one group) and a few examples from distinct
    groups."""

    def __init__(self, examples):
        self.k = examples
        self.count = collections.Counter()
        self.rel = collections.defaultdict(collections.Counter)
        self.other = collections.Counter()
        self.groups = collections.defaultdict(set)
        self.ex = collections.defaultdict(list)

    def add(self, cls, rel, rid, group, text, other=False):
        self.count[cls] += 1
        self.rel[cls][rel] += 1
        self.other[cls] += bool(other)
        ex = self.ex[cls]
        if len(ex) < self.k and group not in self.groups[cls]:
            ex.append((rid, text))
        self.groups[cls].add(group)

    def to_json(self):
        return [{"class": c, "count": n, "groups": len(self.groups[c]), "relations": dict(self.rel[c]),
                 "other_check": self.other[c], "examples": [{"id": r, "text": t} for r, t in self.ex[c]]}
                for c, n in sorted(self.count.items(), key=lambda x: (-x[1], x[0]))]

    def report(self, rep, title, other_label, rel_labels, group_label="records"):
        rows, notes = [], []
        total = sum(self.count.values())
        for d in self.to_json():
            rows.append([d["class"], d["count"], d["groups"]] + [d["relations"].get(r, 0) for r in rel_labels] +
                        ([d["other_check"]] if other_label else []))
            notes.append("%s:" % d["class"])
            for e in d["examples"]:
                notes.append("    %s: %s" % (e["id"], e["text"]))
        rep.table("%s (%d)" % (title, total), ["class", "count", group_label] + list(rel_labels) +
                  ([other_label] if other_label else []), rows, notes)


REL = ("same value in source", "in source in words", "not in source")


def seed(r):
    """A SummEdits record's group: its seed summary (edits of one seed share their errors)."""
    return (r.get("meta") or {}).get("original_summary") or r["response"]


def pick_token(b, span_s, span_e, source_numbers, avoid=()):
    """The number token of b[span_s:span_e] to classify: the first not in the
    source (nor in avoid), else the first. (start, end) in b, or None."""
    toks = [(span_s + t[0], span_s + t[1], t[3]) for t in number_tokens(b[span_s:span_e])]
    if not toks:
        return None
    for s, e, n in toks:
        if n not in source_numbers and n not in avoid:
            return s, e
    return toks[0][0], toks[0][1]


def breakdown(rep, detail, k):
    out = {}
    rep.text("")
    rep.text("== error classes (what engineers improving grounding should look at)")
    rep.text("  class: from the text around the number in the answer (first rule that applies, see surface_class);")
    rep.text("  relation: whether the source holds the same value (normalized), or spells it in words.")
    if "ragtruth" in detail:
        recs, hs, nv = detail["ragtruth"]
        miss, fa, nfa = Classes(k), Classes(k), Classes(k)
        for r, fs, ns in zip(recs, hs, nv):
            b, src = r["response"].encode("utf-8"), r["source"].encode("utf-8")
            srcn = number_set(src)
            for sp in r["spans"]:
                if not has_digit(sp["text"]) or any(overlaps(f, sp) for f in fs):
                    continue
                se = pick_token(b, sp["byte_start"], sp["byte_end"], srcn)
                toks = b[sp["byte_start"]:sp["byte_end"]]
                allin = all(t[3] in srcn for t in number_tokens(toks))
                miss.add(surface_class(b, *se), "numbers all in source" if allin else "a number not in source",
                         r["id"], r["id"], snippet(b, sp["byte_start"], sp["byte_end"], 24),
                         other=any(overlaps(f, sp) for f in ns))
            for f in fs:
                if not any(overlaps(f, sp) for sp in r["spans"]):
                    se = pick_token(b, f["start"], f["end"], srcn) or (f["start"], f["end"])
                    fa.add(surface_class(b, *se), relation(src, srcn, b[f["start"]:f["end"]]), r["id"], r["id"],
                           "%s %s" % (f["signal"], snippet(b, f["start"], f["end"])),
                           other=any(n["start"] < f["end"] and f["start"] < n["end"] for n in ns))
            for f in ns:
                if not any(overlaps(f, sp) for sp in r["spans"]):
                    nfa.add(surface_class(b, f["start"], f["end"]), relation(src, srcn, b[f["start"]:f["end"]]),
                            r["id"], r["id"], snippet(b, f["start"], f["end"]))
        miss.report(rep, "RAGTruth: labelled digit spans halluscan misses", "naive catches",
                    ("numbers all in source", "a number not in source"))
        fa.report(rep, "RAGTruth: halluscan number findings on no labelled span (false alarms)", "naive flags too", REL)
        nfa.report(rep, "RAGTruth: naive findings on no labelled span (for comparison)", None, REL)
        out["ragtruth"] = {"halluscan_misses": miss.to_json(), "halluscan_false_alarms": fa.to_json(),
                           "naive_false_alarms": nfa.to_json()}
    if "numbers" in detail:
        changed, consistent, (hch, hco), (nch, nco) = detail["numbers"]
        miss, fa, nfa = Classes(k), Classes(k), Classes(k)
        for r, fs, ns in zip(changed, hch, nch):
            if fs:
                continue
            b, src = r["response"].encode("utf-8"), r["source"].encode("utf-8")
            srcn = number_set(src)
            sp = [x for x in r["spans"] if has_digit(x["text"])][0]
            was = number_set((sp.get("was") or "").encode("utf-8"))
            se = pick_token(b, sp["byte_start"], sp["byte_end"], set(), avoid=was) or (sp["byte_start"], sp["byte_end"])
            rel = "new figure also in source" if norm_number(NUMBER_RE.search(b[se[0]:se[1]]).group()) in srcn \
                else "new figure not in source"
            miss.add(surface_class(b, *se), rel, r["id"], seed(r),
                     "%s (was %r)" % (snippet(b, sp["byte_start"], sp["byte_end"], 24), sp.get("was")), other=bool(ns))
        for r, fs, ns in zip(consistent, hco, nco):
            b, src = r["response"].encode("utf-8"), r["source"].encode("utf-8")
            srcn = number_set(src)
            for f in fs:
                se = pick_token(b, f["start"], f["end"], srcn) or (f["start"], f["end"])
                fa.add(surface_class(b, *se), relation(src, srcn, b[f["start"]:f["end"]]), r["id"], seed(r),
                       "%s %s (source: %s)" % (f["signal"], snippet(b, f["start"], f["end"]), f.get("source")),
                       other=any(n["start"] < f["end"] and f["start"] < n["end"] for n in ns))
            for f in ns:
                nfa.add(surface_class(b, f["start"], f["end"]), relation(src, srcn, b[f["start"]:f["end"]]),
                        r["id"], seed(r), snippet(b, f["start"], f["end"]))
        miss.report(rep, "SummEdits: number-changed summaries halluscan misses (class of the changed number)",
                    "naive catches", ("new figure also in source", "new figure not in source"), "seeds")
        fa.report(rep, "SummEdits: halluscan number findings on consistent summaries", "naive flags too", REL, "seeds")
        nfa.report(rep, "SummEdits: naive findings on consistent summaries (for comparison)", None, REL, "seeds")
        out["summedits_numbers"] = {"halluscan_misses": miss.to_json(), "halluscan_false_alarms": fa.to_json(),
                                    "naive_false_alarms": nfa.to_json()}
    for key, name in (("pairs", "SummEdits pairs"), ("finscope", "finscope pairs")):
        if key not in detail:
            continue
        if key == "pairs":
            recs, items, got, nvd = detail[key]
            gold = ["does_not_support" if r["has_hallucination"] else "supports" for r in recs]
        else:
            rows, got, nvd = detail[key]
            gold = [x[4] for x in rows]
        t = collections.Counter()
        for g, h, (nv, miss_n, cov) in zip(gold, got, nvd):
            reason = h.get("reason", "timeout")
            kind = ("negation not held" if reason.startswith('the claim says "') else
                    "name not in passage" if reason.startswith("the passage does not name") else
                    "altered number" if reason.startswith("the claim says") else
                    "nothing checkable: coverage" if reason.startswith("nothing checkable") else
                    "checkable items" if "checkable item" in reason else "other")
            t[("halluscan", kind, h["verdict"], g)] += 1
            nk = ("number not in passage" if miss_n else "coverage < 0.5" if cov < 0.5 else "numbers in, coverage >= 0.5")
            t[("naive", nk, nv, g)] += 1
        rows_ = [[c, kind, v, n1, t[(c, kind, v, "does_not_support")]] for (c, kind, v, gg), n1 in
                 sorted(t.items()) if gg == "supports"]
        seen = {(r[0], r[1], r[2]) for r in rows_}
        rows_ += [[c, kind, v, 0, n] for (c, kind, v, gg), n in sorted(t.items())
                  if gg == "does_not_support" and (c, kind, v) not in seen]
        rows_.sort(key=lambda r: (r[0] != "naive", r[1], r[2]))
        rep.table("%s: what decided each verdict" % name,
                  ["check", "decided by", "verdict", "gold supports", "gold does_not_support"], rows_)
        out[key] = [{"check": r[0], "decided_by": r[1], "verdict": r[2], "gold_supports": r[3],
                     "gold_does_not_support": r[4]} for r in rows_]
    return out


# ---------------------------------------------------------------- the report

class Report:
    def __init__(self, markdown=False):
        self.markdown = markdown
        self.parts = []

    def table(self, title, header, rows, notes=()):
        self.parts.append((title, header, [[str(c) for c in r] for r in rows], list(notes)))

    def text(self, line):
        self.parts.append(line)

    def render(self):
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
                continue
            title, header, rows, notes = p
            out.append("")
            if self.markdown:
                out.append("**%s**" % title)
                out.append("")
                out.append("| " + " | ".join(header) + " |")
                out.append("|" + "---|" * len(header))
                for r in rows:
                    out.append("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
                for n in notes:
                    out.append("")
                    out.append("- " + n)
            else:
                out.append("== " + title)
                w = [max(len(x) for x in col) for col in zip(header, *rows)]
                for r in [header] + rows:
                    out.append("  " + "  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())
                for n in notes:
                    out.append("  " + n)
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the guard

def guards(results):
    """(name, naive, halluscan, ok) for every comparison --check makes."""
    g = []

    def ge(name, nv, hs, better_high=True, strict=False):
        if nv is None or hs is None:
            return
        ok = (hs > nv if better_high else hs < nv) if strict else (hs >= nv if better_high else hs <= nv)
        g.append((name, nv, hs, ok))

    rt = results.get("ragtruth")
    if rt:
        o = rt["tasks"]["overall"]
        ge("RAGTruth digit-span recall", o["naive"]["digit_span_recall"]["p"], o["halluscan"]["digit_span_recall"]["p"])
        ge("RAGTruth number-finding precision", o["naive"]["finding_precision"]["p"],
           o["halluscan"]["finding_precision"]["p"])
        for m in ("precision", "recall"):
            ge("RAGTruth response %s" % m, o["naive"]["response"][m]["p"], o["halluscan"]["response"][m]["p"])
        ge("RAGTruth response kappa", o["naive"]["response"]["kappa"]["kappa"],
           o["halluscan"]["response"]["kappa"]["kappa"])
    nu = results.get("numbers")
    if nu:
        o = nu["overall"]
        ge("SummEdits numbers recall", o["naive"]["recall"]["p"], o["halluscan"]["recall"]["p"])
        ge("SummEdits numbers FPR", o["naive"]["fpr"]["p"], o["halluscan"]["fpr"]["p"], better_high=False)
        ge("SummEdits numbers recall target", nu["target"]["recall"], o["halluscan"]["recall"]["p"])
        ge("SummEdits numbers FPR target", nu["target"]["fpr"], o["halluscan"]["fpr"]["p"], better_high=False)
    own = results.get("own-pairs") or {}
    for key, name, m in [(k, n, results.get(k)) for k, n in (
            ("pairs", "SummEdits pairs"), ("ragtruth-pairs", "RAGTruth pairs"), ("finscope", "finscope pairs"))] + \
            [("own-pairs", "own pairs (%s)" % k, v) for k, v in own.items()]:
        if m:
            for how in ("halluscan_partial_as_supports", "halluscan_partial_as_dns"):
                # The issue: pairs kappa *above* the naive check's.
                ge("%s kappa (%s)" % (name, how.replace("halluscan_", "").replace("_", " ")),
                   m["naive"]["kappa"]["kappa"], m[how]["kappa"]["kappa"], strict=True)
    return g


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--halluscan", default=os.path.join(TOP, "build", "halluscan"))
    ap.add_argument("--corpus", default=os.path.join(TOP, "..", "shared", "corpus"))
    ap.add_argument("--finscope", default=os.path.join(TOP, "..", "shared", "seed-sources", "finscope"))
    ap.add_argument("--measures", default=",".join(MEASURES),
                    help="comma-separated subset of %s (default: all)" % ",".join(MEASURES))
    ap.add_argument("--limit", type=int, default=0, help="the first N records of each corpus only")
    ap.add_argument("--jobs", type=int, default=2, help="halluscan processes at once (default 2)")
    ap.add_argument("--json", metavar="OUT", help="write every figure as JSON here ('-': standard output)")
    ap.add_argument("--markdown", action="store_true", help="tables as markdown, for docs/accuracy.md")
    ap.add_argument("--breakdown", action="store_true", help="classes of misses and false alarms")
    ap.add_argument("--examples", type=int, default=3, help="examples per class in --breakdown")
    ap.add_argument("--flatten-passages", action="store_true",
                    help="line breaks of the --pairs passages turned into spaces (with a probe for the old hang)")
    ap.add_argument("--batch-timeout", type=float, default=300.0, help="seconds per --pairs batch")
    ap.add_argument("--pair-timeout", type=float, default=5.0, help="seconds per --pairs record after a batch timed out")
    ap.add_argument("--naive-raw", action="store_true",
                    help="the naive checks compare number tokens as written, without normalizing them")
    ap.add_argument("--finscope-derived-labels", action="store_true",
                    help="use derived/claims.jsonl's labels unchanged (inline notes are still removed)")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless halluscan is at least as good as the naive check on every measure run")
    args = ap.parse_args()

    global NORMALIZE
    if args.naive_raw:
        NORMALIZE = raw_number
    want = [m.strip() for m in args.measures.split(",") if m.strip()]
    bad = [m for m in want if m not in MEASURES]
    if bad:
        ap.error("unknown measure(s): %s" % ", ".join(bad))
    if not os.path.isdir(args.corpus):
        print("skipped: no corpus at %s" % args.corpus)
        return 77 if args.check else 0
    if not os.access(args.halluscan, os.X_OK):
        print("grounding: no halluscan binary at %s" % args.halluscan, file=sys.stderr)
        return 2

    rep = Report(args.markdown)
    version = run([args.halluscan, "--version"]).splitlines()[0]
    rep.text("grounding measures: %s%s; naive vs halluscan, 95%% Wilson intervals, kappa [95%% interval]"
             % (version, ", first %d records per corpus" % args.limit if args.limit else ""))
    results = {"halluscan": args.halluscan, "version": version, "limit": args.limit}
    detail = {}
    with tempfile.TemporaryDirectory(prefix="grounding.") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        if "ragtruth" in want and os.path.isfile(os.path.join(args.corpus, "ragtruth_dev.jsonl")):
            res, *detail["ragtruth"] = measure_ragtruth(args, pool, tmp)
            results["ragtruth"] = res
            report_ragtruth(rep, res)
        if "attributes" in want and os.path.isfile(os.path.join(args.corpus, "ragtruth_dev.jsonl")):
            res = measure_attributes(args, pool, tmp)
            results["attributes"] = res
            report_attributes(rep, res)
        if "numbers" in want and os.path.isfile(os.path.join(args.corpus, "summedits.jsonl")):
            res, *detail["numbers"] = measure_numbers(args, pool, tmp)
            results["numbers"] = res
            report_numbers(rep, res)
        if "pairs" in want and os.path.isfile(os.path.join(args.corpus, "summedits.jsonl")):
            res, *detail["pairs"] = measure_pairs(args, pool, tmp)
            results["pairs"] = res
            report_pairs(rep, "SummEdits pairs (summary as claim, source as passage)", res, pair_notes(res))
        if "ragtruth-pairs" in want and os.path.isfile(os.path.join(args.corpus, "ragtruth_dev.jsonl")):
            res, *detail["ragtruth-pairs"] = measure_ragtruth_pairs(args, pool, tmp)
            results["ragtruth-pairs"] = res
            report_pairs(rep, "RAGTruth dev pairs (answer as claim, sources as passage)", res, pair_notes(res))
        if "finscope" in want and os.path.isfile(os.path.join(args.finscope, "derived", "claims.jsonl")):
            res, *detail["finscope"] = measure_finscope(args, pool, tmp)
            results["finscope"] = res
            report_finscope(rep, res)
        if "own-pairs" in want:
            res = measure_own_pairs(args, pool, tmp)
            results["own-pairs"] = res
            report_own_pairs(rep, res)
        if "eval" in want:
            res = measure_eval(args)
            results["eval"] = res
            if "ragtruth" in results:
                # The per-record --source scans and halluscan eval must agree on the counts.
                a = results["ragtruth"]["tasks"]["overall"]["halluscan"]["response"]
                b = res["datasets"].get("ragtruth", {}).get("number_signals")
                res["ragtruth_cross_check"] = bool(b) and all(a[x] == b[x] for x in ("tp", "fp", "fn", "tn"))
            report_eval(rep, res)

    if args.breakdown:
        results["breakdown"] = breakdown(rep, detail, args.examples)

    status = 0
    if args.check:
        rep.text("")
        rep.text("== --check: halluscan against the naive check (point estimates)")
        for name, nv, hs, ok in guards(results):
            rep.text("  %-4s %-48s %-6s %.3f  halluscan %.3f"
                     % ("ok" if ok else "FAIL", name, "target" if "target" in name else "naive", nv, hs))
            status |= 0 if ok else 1
    results["check"] = [{"measure": n, "naive": a, "halluscan": b, "ok": ok} for n, a, b, ok in guards(results)]

    text = rep.render()
    if args.json == "-":
        json.dump(results, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(results, f, indent=1, sort_keys=True)
                f.write("\n")
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print("grounding: %s" % e, file=sys.stderr)
        sys.exit(2)
