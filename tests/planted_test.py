#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/planted.py runs on the agents corpus and computes both columns.

A small sample of bench/agents/ (seeded, so the same every run): the
script must exit 0 and give recall and the unchanged-flagged share for
halluscan and for the naive check, each a share in [0, 1], plants of the
value kinds, and a findings file.  Then a two-reply corpus whose answers
are known by hand: the naive check must flag the reply whose figure no
tool gave and only that one, find a changed price, and halluscan must find
the made-up URL.  Not a timed test.  Exit 77 (skipped) without the corpus.

usage: planted_test.py HALLUSCAN SRCDIR
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, SRC = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(SRC, "bench", "planted.py")


def planted(args):
    p = subprocess.run([sys.executable, SCRIPT, "--halluscan", BIN, "--json"] + args,
                       capture_output=True, timeout=120)
    check(p.returncode == 0, "planted.py %s exited %d: %s" % (args, p.returncode,
                                                              p.stderr.decode()[:500]))
    return json.loads(p.stdout) if p.returncode == 0 else None


def share(x):
    return isinstance(x, float) and 0.0 <= x <= 1.0


corpus = sorted(glob.glob(os.path.join(SRC, "bench", "agents", "*.jsonl")))
if not corpus:
    print("skipped: no corpus in bench/agents/")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    found = os.path.join(tmp, "findings.jsonl")
    missed = os.path.join(tmp, "missed.jsonl")
    r = planted(["--sample", "40", "--findings", found, "--missed", missed])
    if r:
        check(r["conversations"] == 40, "sample of 40 conversations, got %d" % r["conversations"])
        check(r["replies"] > 100 and r["plants"] > 50, "replies and plants: %s" % r)
        for who in ("halluscan", "naive"):
            check(share(r["recall"][who]), "recall of %s: %r" % (who, r["recall"][who]))
            check(share(r["unchanged_flagged"][who]),
                  "unchanged flagged by %s: %r" % (who, r["unchanged_flagged"][who]))
        kinds = set(r["by_kind"])
        check({"price", "time", "url", "statistic", "total"} <= kinds, "plant kinds: %s" % kinds)
        check(os.path.exists(found), "no findings file")
        n = sum(1 for _ in open(found))
        check(n == sum(r["unchanged_findings_by_rule"].values()),
              "findings file has %d lines, counts say %s" % (n, r["unchanged_findings_by_rule"]))
        # every plant missed, once, with its kind and its planted text
        ms = [json.loads(line) for line in open(missed)]
        want = round(sum(v["plants"] * (1 - v["halluscan"]) for v in r["by_kind"].values()))
        check(len(ms) == want, "missed file has %d lines, recall says %d" % (len(ms), want))
        check(all(m["kind"] in r["by_kind"] and m["text"] and
                  m["reply"].encode()[m["start"]:m["end"]].decode(errors="replace") == m["text"]
                  for m in ms), "missed plants: %s" % ms[:2])

    # Two replies whose answers are known: the first says the tool's price,
    # the second a figure nobody gave.
    mini = os.path.join(tmp, "mini.jsonl")
    conv = {"id": "mini/1", "messages": [
        {"role": "user", "content": "How much is the room?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "quote", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"room\": \"Deluxe\", \"price\": 329}"},
        {"role": "assistant", "content": "The Deluxe room is $329 a night."},
        {"role": "user", "content": "Thanks."},
        {"role": "assistant", "content": "It sleeps 7 guests."}]}
    with open(mini, "w") as f:
        f.write(json.dumps(conv) + "\n")
    r = planted([mini])
    if r:
        check(r["replies"] == 2, "two replies, got %d" % r["replies"])
        check(r["unchanged_flagged"]["naive_replies"] == 1,
              "naive flags the reply with 7 and only it: %s" % r["unchanged_flagged"])
        check(r["by_kind"].get("price", {}).get("naive") == 1.0,
              "naive finds the changed price: %s" % r["by_kind"])
        check(r["by_kind"].get("url", {}).get("halluscan") == 1.0,
              "halluscan finds the made-up URL: %s" % r["by_kind"])

    # Hand verdicts held against the findings (--judged): "7 guests" is
    # no figure anyone gave, judged right; a verdict for a span no finding
    # has counts for nothing; a file without its line leaves it unjudged.
    minif = os.path.join(tmp, "mini-findings.jsonl")
    r = planted(["--findings", minif, mini])
    fs = [json.loads(line) for line in open(minif)] if r else []
    check(any(f["text"] == "7 guests" for f in fs), "halluscan flags '7 guests': %s" % fs)
    verdicts = os.path.join(tmp, "judged.jsonl")
    with open(verdicts, "w") as f:
        for u in fs:
            f.write(json.dumps({"conversation": u["conversation"], "reply_index": u["reply_index"],
                                "start": u["start"], "text": u["text"],
                                "verdict": "right" if u["text"] == "7 guests" else "wrong"}) + "\n")
        f.write(json.dumps({"conversation": "mini/1", "reply_index": 3, "start": 19,
                            "text": "$329", "verdict": "wrong"}) + "\n")
    r = planted(["--judged", verdicts, mini])
    if r:
        jd = r.get("judged", {})
        check(jd.get("judged") == len(fs) and jd.get("unjudged") == 0 and jd.get("right") == 1,
              "every finding judged, one right: %s" % jd)
        check(jd.get("by_rule", {}).get("number.count", {}).get("right") == 1
              and jd.get("by_source", {}).get("mini", {}).get("judged") == len(fs),
              "verdicts by rule and by source: %s" % jd)
    empty = os.path.join(tmp, "none.jsonl")
    open(empty, "w").close()
    r = planted(["--judged", empty, mini])
    if r:
        jd = r.get("judged", {})
        check(jd.get("unjudged") == len(fs) and jd.get("judged") == 0
              and [u["text"] for u in jd.get("unjudged_findings", [])] == [u["text"] for u in fs],
              "no verdicts: every finding unjudged and listed: %s" % jd)

finish()
