#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--pairs, eval and --source against hostile input: a live pipe, a record
line past the bound, a large source, and bytes that must not reach a
terminal or a JSONL reader raw.

usage: pairs_io_test.py HALLUSCAN SANITIZE MAXRSS
  SANITIZE is meson's b_sanitize; MAXRSS the helper that measures peak RSS.
"""
import json
import os
import select
import subprocess
import sys
import tempfile
import threading

from checks import check, finish

BIN, SANITIZE, MAXRSS = sys.argv[1:4]
SANITIZED = SANITIZE not in ("", "none")
RECORD_MAX = 64 << 20


def records(out):
    return [json.loads(line) for line in out.decode().splitlines()]


def read_line(p, timeout=30):
    ready, _, _ = select.select([p.stdout], [], [], timeout)
    return p.stdout.readline() if ready else b""


def pairs_line_buffered():
    # One verdict per record as it arrives: the input pipe stays open.
    p = subprocess.Popen([BIN, "--pairs", "--line-buffered"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pairs = [
        {"id": 1, "claim": "It is red.", "passage": "It is red."},
        {"id": 2, "claim": "Revenue was $12 million.", "passage": "Heading\nRevenue: $9 million"},
        "not json",
    ]
    got = []
    for rec in pairs:
        p.stdin.write((rec if isinstance(rec, str) else json.dumps(rec)).encode() + b"\n")
        p.stdin.flush()
        got.append(read_line(p))
    check(json.loads(got[0] or b"{}").get("verdict") == "supports",
          "pairs --line-buffered: first verdict before the second record (%r)" % got[0][:80])
    check(json.loads(got[1] or b"{}").get("verdict") == "does_not_support",
          "pairs --line-buffered: second verdict before the third record (%r)" % got[1][:80])
    check(json.loads(got[2] or b"{}").get("type") == "error",
          "pairs --line-buffered: an error record as soon as its line is read")
    p.stdin.close()
    rest = records(p.stdout.read())
    rc = p.wait()
    check(len(rest) == 1 and rest[0]["type"] == "summary" and rest[0]["pairs"] == 2,
          "pairs --line-buffered: summary at the end")
    check(rc == 2, "pairs --line-buffered: a malformed line makes exit 2 (got %d)" % rc)


def feed(p, parts):
    def run():
        for part in parts:
            if callable(part):
                part(p.stdin)
            else:
                p.stdin.write(part)
        p.stdin.close()
    t = threading.Thread(target=run)
    t.start()
    return t


def long_passage(size):
    def write(f):
        f.write(b'{"id":2,"claim":"It is red.","passage":"')
        chunk = b"It is red. " * 100000
        left = size
        while left > 0:
            f.write(chunk[:min(left, len(chunk))])
            left -= len(chunk)
        f.write(b'"}\n')
    return write


def pairs_record_bound():
    # A line past the bound is an error record naming it; memory stays
    # under the bound's, and the records after it are judged.
    good = b'{"id":1,"claim":"It is red.","passage":"It is red."}\n'
    p = subprocess.Popen([MAXRSS, BIN, "--pairs"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t = feed(p, [good, long_passage(2 * RECORD_MAX), good])
    out = records(p.stdout.read())
    t.join()
    err = p.stderr.read().decode()
    rc = p.wait()
    kinds = [(r["type"], r.get("line")) for r in out]
    check(kinds == [("pair", 1), ("error", 2), ("pair", 3), ("summary", None)],
          "pairs bound: pair, error, pair, summary (%r)" % kinds)
    msg = out[1].get("message", "") if len(out) > 1 else ""
    check("longer than the 64 MiB" in msg, "pairs bound: the error says why (%r)" % msg)
    check(rc == 2 and "1 malformed line(s)" in err, "pairs bound: exit 2 (got %d, %r)" % (rc, err))
    rss_mb = int(err.split("maxrss_kib ")[1]) / 1024 if "maxrss_kib " in err else 1e9
    if SANITIZED:
        print("skip pairs bound RSS under sanitizers (%.1f MB)" % rss_mb)
    else:
        check(rss_mb < 100, "pairs bound: peak RSS %.1f MB < 100 MB for a 128 MiB line" % rss_mb)

    # Just under the bound is judged.
    p = subprocess.Popen([BIN, "--pairs"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    under = RECORD_MAX - len(b'{"id":2,"claim":"It is red.","passage":""}')
    t = feed(p, [long_passage(under)])
    out = records(p.stdout.read())
    t.join()
    rc = p.wait()
    check([r["type"] for r in out] == ["pair", "summary"] and rc == 0,
          "pairs bound: a line of exactly 64 MiB is judged (rc %d)" % rc)


def eval_record_bound():
    # In eval a line past the bound is a malformed record, named on stderr.
    p = subprocess.Popen([BIN, "eval", "--format", "json"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    good = b'{"claim":"It is red.","passage":"It is red.","label":"supports"}\n'
    t = feed(p, [good, long_passage(RECORD_MAX + 1), good])
    out = p.stdout.read()
    t.join()
    err = p.stderr.read().decode()
    rc = p.wait()
    rep = json.loads(out or b"{}")
    check(rep.get("malformed") == 1 and rep.get("pairs", {}).get("records") == 2,
          "eval bound: one malformed, two pairs judged")
    check("-:2: the line is" in err and "longer than the 64 MiB" in err,
          "eval bound: named on stderr (%r)" % err[:200])
    check(rc == 0, "eval bound: exit 0 as for any malformed record (got %d)" % rc)

    # 16 MiB of tiny values: refused past a million values, not a tree 50x its size.
    tiny = b'{"response":"x","has_hallucination":true,"spans":[' + b"1," * (8 << 20) + b"1]}\n"
    p = subprocess.run([MAXRSS, BIN, "eval"], input=tiny, capture_output=True)
    err = p.stderr.decode()
    check("more than 1000000 values" in err, "eval values: refused (%r)" % err[:120])
    rss_mb = int(err.split("maxrss_kib ")[1]) / 1024 if "maxrss_kib " in err else 1e9
    if SANITIZED:
        print("skip eval values RSS under sanitizers (%.1f MB)" % rss_mb)
    else:
        check(rss_mb < 160, "eval values: peak RSS %.1f MB < 160 MB (a tree of 8M values: ~900)" % rss_mb)


def source_streamed():
    # A --source file is read in pieces: memory does not grow with it, and
    # a figure at its very end still grounds.
    size = 128 << 20
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "source.txt")
        with open(path, "wb") as f:
            f.write(b"Revenue was $12 million in 2023.\n")
            chunk = b"lorem ipsum dolor sit amet, consectetur. " * 25000
            left = size
            while left > 0:
                f.write(chunk[:min(left, len(chunk))])
                left -= len(chunk)
            f.write(b"\nThe fund holds $770 million.\n")
        text = b"Revenue was $12 million; the fund holds $780 million.\n"
        p = subprocess.run([MAXRSS, BIN, "--source", path], input=text, capture_output=True)
    out = records(p.stdout)
    found = [(r["signal"], r["text"], r.get("source")) for r in out if r["type"] == "finding"]
    check(found == [("altered_number", "$780 million", "$770 million")],
          "large source: grounds from both ends (%r)" % found)
    err = p.stderr.decode()
    rss_mb = int(err.split("maxrss_kib ")[1]) / 1024 if "maxrss_kib " in err else 1e9
    if SANITIZED:
        print("skip large source RSS under sanitizers (%.1f MB)" % rss_mb)
    else:
        check(rss_mb < 32, "large source: peak RSS %.1f MB < 32 MB for 128 MiB" % rss_mb)


for test in (pairs_line_buffered, pairs_record_bound, eval_record_bound, source_streamed):
    test()
finish()
