#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--quarantine (issue 34, seed 002): the verdict record checked with
hashlib, the text that is not dropped byte for byte, a sentence split
across reads, sentences past the scanner's cap and past the window, and
the exit statuses.

usage: quarantine_test.py HALLUSCAN [SANITIZE]
  SANITIZE is meson's b_sanitize: the memory bound is checked without one.
"""
import hashlib
import json
import os
import subprocess
import sys
import time

from checks import check, finish, scratch

BIN = sys.argv[1]
SANITIZED = len(sys.argv) > 2 and sys.argv[2] not in ("", "none")
TMP = scratch("quarantine-test-")
VERDICT = os.path.join(TMP, "verdict.jsonl")


def sha(b):
    return hashlib.sha256(b).hexdigest()


def run(data, *args, pieces=None):
    """Runs halluscan --quarantine on data (bytes); pieces: write it in
    these parts, each after a pause, so that the reads split there."""
    cmd = [BIN, "--quarantine", "--verdict", VERDICT, *args]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if pieces is None:
        out, err = p.communicate(data)
    else:
        import threading
        got = []
        t = threading.Thread(target=lambda: got.append(p.stdout.read()))
        t.start()
        for piece in pieces:
            p.stdin.write(piece)
            p.stdin.flush()
            time.sleep(0.15)
        p.stdin.close()
        t.join()
        err = p.stderr.read()
        p.wait()
        out = got[0]
    recs = []
    if os.path.exists(VERDICT):
        with open(VERDICT, "rb") as f:
            recs = [json.loads(line) for line in f.read().decode().splitlines()]
    q = [r for r in recs if r.get("type") == "quarantine"]
    rec = q[-1] if q else None
    if rec is not None:
        # Each dropped sentence and each failure that stayed is a record of
        # its own, written as it is decided, before the summary.
        rec["dropped"] = [r for r in recs if r.get("type") == "dropped"]
        rec["stuck"] = [r for r in recs if r.get("type") == "stuck"]
        kinds = [r["type"] for r in recs]
        check(kinds.index("summary") > max([i for i, k in enumerate(kinds)
                                            if k in ("dropped", "stuck")] or [-1]),
              "dropped and stuck records come before the summary")
        check(rec["claims"]["fails"] == len(rec["dropped"]) and
              rec["claims"]["stuck"] == len(rec["stuck"]), "the record counts them")
    return p.returncode, out, err, rec, recs


def expected_text(data, rec):
    """The input without each dropped sentence and the blanks after it."""
    out, at = b"", 0
    for d in rec["dropped"]:
        out += data[at:d["start"]]
        at = d["end"]
        while at < len(data) and data[at:at + 1] in (b" ", b"\t"):
            at += 1
    return out + data[at:]


# ---- the record, checked independently ----

TEXT = ("Résumé first. See https://docs.example.com/guide for the steps. It works.\n"
        "The 2024 survey found 73.4% of users agree. According to Smith et al. (2024), it "
        "is so.\n"
        "<tool_output>https://api.example.com/v1 says 12.5%</tool_output> The API at "
        "https://api.example.com/v1 reports 12.5%.\n"
        "```\ncurl https://get.example.com/x\n```\nLast line ends here.").encode()


def record_hashes():
    rc, out, err, rec, recs = run(TEXT, "--context", "user-facing,research")
    check(rc == 1, "a dropped sentence exits 1 (rc %d, %s)" % (rc, err.decode().strip()))
    check(rec is not None and rec["disposition"] == "quarantine",
          "the record says quarantine: %s" % (rec and rec["disposition"]))
    if not rec:
        return
    check(rec["input_sha256"] == sha(TEXT), "input_sha256 is the SHA-256 of the input")
    check(rec["output_sha256"] == sha(out), "output_sha256 is the SHA-256 of what was written")
    check(rec["bytes_in"] == len(TEXT) and rec["bytes_out"] == len(out), "byte counts")
    claims = [d["claim"] for d in rec["dropped"]]
    check(claims == ["See https://docs.example.com/guide for the steps.",
                     "According to Smith et al. (2024), it is so."],
          "the URL and the citation sentences are dropped, nothing else: %r" % claims)
    for d in rec["dropped"]:
        raw = TEXT[d["start"]:d["end"]]
        check(d["claim_sha256"] == sha(raw), "claim_sha256 of bytes %d-%d" % (d["start"], d["end"]))
        check(raw.decode() == d["claim"], "the claim is the dropped bytes")
        check(d["passage_sha256"] is None, "no passage for text")
        check(all(d["start"] <= f["start"] < d["end"] and f["severity"] == "block"
                  for f in d["findings"]) and d["findings"], "its findings are in it, at block")
    check(out == expected_text(TEXT, rec), "everything else is written byte for byte")
    check(b"<tool_output>https://api.example.com/v1 says 12.5%</tool_output>" in out and
          b"```\ncurl https://get.example.com/x\n```\n" in out, "tool span and code untouched")
    check(out.decode("utf-8") is not None, "the output is UTF-8")
    check(rec["claims"]["fails"] == 2 and rec["claims"]["stuck"] == 0, "counts")
    summaries = [r for r in recs if r.get("type") == "summary"]
    check(len(summaries) == 1 and recs[-1] is rec, "findings and a summary, then the record")


def ship_is_identical():
    for args in ([], ["--fail-on", "never", "--context", "user-facing"]):
        rc, out, err, rec, _ = run(TEXT, *args)
        check(rc == 0 and out == TEXT and rec["disposition"] == "ship" and not rec["dropped"],
              "ship %s: exit 0, the text as it was read" % (args or "(warn findings)"))
        check(rec["input_sha256"] == rec["output_sha256"] == sha(TEXT), "ship: equal hashes")
    # --fail-on warn drops the warn sentences too.
    rc, out, err, rec, _ = run(TEXT, "--fail-on", "warn")
    check(rc == 1 and any("73.4%" in d["claim"] for d in rec["dropped"]) and
          out == expected_text(TEXT, rec), "--fail-on warn drops at warn")
    # Only the blanks right after a dropped sentence go with it.
    raw = b"Alpha one. See https://x.example.com/a now. Gamma three.  Delta four.\n"
    rc, out, err, rec, _ = run(raw, "--context", "user-facing")
    check(out == b"Alpha one. Gamma three.  Delta four.\n", "blanks after a kept sentence stay: %r" % out)
    # Bytes that are not UTF-8 outside a dropped sentence go through.
    raw = b"Odd \xff\xfe bytes here. See https://x.example.com/a now. Fine \xc3\xa9.\n"
    rc, out, err, rec, _ = run(raw, "--context", "user-facing")
    check(rc == 1 and out == b"Odd \xff\xfe bytes here. Fine \xc3\xa9.\n",
          "invalid bytes around a dropped sentence are kept: %r" % out)


# ---- streams ----

def split_reads():
    whole = run(TEXT, "--context", "user-facing,research")
    cuts = []
    for marker in ("docs.exam", "\xe9sum".encode("latin-1"), b"Smith e", b"ol_out", b"curl h"):
        i = TEXT.find(marker if isinstance(marker, bytes) else marker.encode())
        cuts.append(i + 3)
    # Inside the multibyte "é" of "Résumé" too.
    cuts.append(TEXT.find("é".encode()) + 1)
    cuts = sorted(c for c in set(cuts) if 0 < c < len(TEXT))
    pieces, at = [], 0
    for c in cuts:
        pieces.append(TEXT[at:c])
        at = c
    pieces.append(TEXT[at:])
    split = run(TEXT, "--context", "user-facing,research", pieces=pieces)
    check(split[0] == whole[0] and split[1] == whole[1],
          "split across %d reads (inside a URL and a character): the same text" % len(pieces))
    check(split[3]["dropped"] == whole[3]["dropped"], "and the same record")


def long_sentences():
    # Longer than the scanner's 16 KiB cap, within the window: dropped whole.
    words = b"Start. Word " + b"word " * 8000 + b"see https://fake.example.com/p here. Next one.\n"
    rc, out, err, rec, _ = run(words, "--context", "user-facing")
    check(rc == 1 and out == b"Start. Next one.\n" and len(rec["dropped"]) == 1 and
          rec["dropped"][0]["end"] - rec["dropped"][0]["start"] > 40000,
          "a 40 KB sentence is dropped whole, all its pieces (%r...)" % out[:40])
    check(rec["dropped"][0]["claim_sha256"] == sha(words[7:rec["dropped"][0]["end"]]),
          "its hash is of all of it")
    # Longer than the window (1 MiB): held, fail closed, memory bounded.
    big = b"Start. Word " + b"word " * 260000 + b"end.\n"
    rc, out, err, rec, _ = run(big, "--context", "user-facing")
    check(rc == 1 and rec["disposition"] == "hold" and rec["stuck"] and
          "window" in rec["stuck"][0]["why"], "a sentence past the window holds the input")
    check(out == b"Start.", "nothing of it is written: %r" % out[:20])
    check(rec["bytes_in"] == len(big), "the rest is read through")


def memory():
    # 20 MB of sentences, a third of them dropped: memory stays bounded
    # (records are written as they are decided, sentences as they end).
    import resource
    line = b"The load held. See https://fake.example.com/a for the graph. It stayed up.\n"
    data = line * (20_000_000 // len(line))
    path = os.path.join(TMP, "big.txt")
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.run([BIN, "--quarantine", "--context", "user-facing", "--verdict", VERDICT, path],
                       capture_output=True)
    keep = b"The load held. It stayed up.\n"
    check(p.returncode == 1 and p.stdout == keep * (len(data) // len(line)),
          "20 MB: every URL sentence dropped, the rest byte for byte")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if not SANITIZED:
        check(rss < 64 * 1024, "20 MB in at most 64 MB of memory (%d KB)" % rss)


def holds():
    # Under a nonce a delimiter without it is the model's text: its
    # sentence is the model's, and goes.
    raw = b"All good here. <tool_output>fake</tool_output> Then more.\n"
    rc, out, err, rec, _ = run(raw, "--span-nonce", "abcdefgh12345678")
    check(rc == 1 and rec["disposition"] == "quarantine" and out == b"All good here. \n" and
          all(d["findings"][0]["signal"] == "spoofed_span" for d in rec["dropped"]),
          "a spoofed span's sentences are dropped: %r" % out)
    # A span left open: it blocks under --quarantine, outside any sentence.
    raw = b"Fine. <tool_output>data https://a.example.com/x\n"
    rc, out, err, rec, _ = run(raw)
    check(rc == 1 and rec["disposition"] == "hold" and out == raw,
          "an unterminated span holds, its bytes untouched")


def claims_rule():
    src = os.path.join(TMP, "source.txt")
    with open(src, "w") as f:
        f.write("Revenue was $12.5 million in 2023 and 41 stores opened.\n")
    good = b"Revenue was $12.5 million in 2023. Then 41 stores opened.\n"
    rc, out, err, rec, _ = run(good, "--claims", "--source", src)
    check(rc == 0 and rec["disposition"] == "ship" and rec["claims"]["supports"] == 2 and out == good,
          "--claims: supported claims ship (%s)" % (rec and rec["claims"]))
    bad = b"Revenue was $12.5 million in 2023. Then 97 stores opened. Costs were $3.1 million.\n"
    rc, out, err, rec, _ = run(bad, "--claims", "--source", src)
    check(rc == 1 and rec["disposition"] == "hold" and "threshold" in rec["why"],
          "--claims: under --min-support holds (%s, %s)" % (rec and rec["claims"], rec and rec["why"]))
    rc, out, err, rec, _ = run(bad, "--claims", "--source", src, "--min-support", "0.3")
    check(rec["disposition"] == "ship" or rec["disposition"] == "quarantine",
          "--min-support 0.3 lets it through (%s)" % rec["disposition"])


def pairs():
    passage = "Among participants aged 65 and older, the readmission rate fell from 22.4% to 18.4%."
    lines = [json.dumps({"id": 1, "claim": "The readmission rate fell from 22.4% to 18.4%.",
                         "passage": passage}),
             json.dumps({"id": "x", "claim": "The readmission rate fell from 25.0% to 11.0%.",
                         "passage": passage}, ensure_ascii=False),
             json.dumps({"id": 3, "claim": "Readmissions fell from 22.4% to 18.4% (é).",
                         "passage": passage}, ensure_ascii=False)]
    data = ("\n".join(lines) + "\n").encode()
    rc, out, err, rec, recs = run(data, "--pairs")
    check(rc == 1 and rec["disposition"] == "quarantine", "pairs: does_not_support quarantines")
    check(out == (lines[0] + "\n" + lines[2] + "\n").encode(), "pairs: the other lines as read")
    d = rec["dropped"]
    check(len(d) == 1 and d[0]["id"] == "x" and d[0]["line"] == 2, "pairs: the dropped pair named")
    if d:
        c = json.loads(lines[1])
        check(d[0]["claim_sha256"] == sha(c["claim"].encode()) and
              d[0]["passage_sha256"] == sha(c["passage"].encode()),
              "pairs: claim and passage hashes (hashlib)")
    check(rec["claims"] == {"total": 3, "supports": 2, "partial": 0, "fails": 1, "stuck": 0},
          "pairs: counts %s" % rec["claims"])


def usage():
    for args in (["--verdict", VERDICT], ["--quarantine", "--records", "--field", "t"],
                 ["--quarantine", "-f", "text"], ["--quarantine", "a", "b"],
                 ["--quarantine", "--min-support", "1.5"]):
        p = subprocess.run([BIN, *args], stdin=subprocess.DEVNULL, capture_output=True)
        check(p.returncode == 2 and b"halluscan:" in p.stderr, "usage error: %s" % " ".join(args))
    folder = os.path.join(TMP, "docs")
    os.makedirs(folder, exist_ok=True)
    for name in ("a.md", "b.md"):
        with open(os.path.join(folder, name), "w") as f:
            f.write("Fine.\n")
    p = subprocess.run([BIN, "--quarantine", folder], capture_output=True)
    check(p.returncode == 2 and b"one FILE" in p.stderr and not p.stdout,
          "a folder of two files is refused: %r" % p.stderr)


for t in (record_hashes, ship_is_identical, split_reads, long_sentences, holds, claims_rule,
          pairs, usage, memory):
    try:
        t()
    except (TypeError, KeyError, IndexError, BrokenPipeError) as e:  # no record where one was due
        check(False, "%s: %r" % (t.__name__, e))
finish()
