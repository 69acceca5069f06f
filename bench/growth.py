#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Time and memory against input size, for every way halluscan takes input.

Each shape is one kind of input fed at scale: a transcript of many messages
or of one huge message, JSONL records, --claims, each output format, many
--source files or one big JSON source, a long --prompt, inline directives,
code fences, reference lists and a --bib, --pairs, a baseline, eval, a rule
pack of many rules, a directory walk. Each runs at three sizes four times
apart; linear work costs 4x a step, quadratic 16x. Prints per shape the CPU
seconds (user + system, the least of --repeats runs: other load only ever
adds), the ratio of each step, the peak RSS (tools/maxrss: the child alone)
and the output's size.

A step is flagged when its CPU time grows more than 8x while the larger run
takes at least 0.05 s (below that, start-up and noise decide), or its peak
RSS more than 8x while the larger is above 64 MB. Memory that grows with
the input where the input is held whole (a JSON transcript is parsed as one
document; a --source, a --bib and a --pairs line are read whole: see the
manual's LIMITS) shows as a linear step, not a flag.

    python3 bench/growth.py [--halluscan build/halluscan] [--maxrss build/maxrss]
                            [--only SHAPE,...] [--repeats 3] [--scale 1]

--scale multiplies every size (0.25 for a quick look). Exit status 1 when a
step is flagged, 2 on errors (a run that exits other than 0 or 1 is one).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
STEP = 4
FLAG_RATIO = 8.0
MIN_CPU = 0.05
MIN_RSS_MB = 64


def url_lines(n):
    return b"".join(b"See https://x%d.example.com/p for it.\n" % i for i in range(n))


def chat(messages):
    return json.dumps({"messages": messages}).encode()


def role(i):
    return ("user", "tool", "assistant")[i % 3]


def pack(n):
    out = ["rules:"]
    for i in range(n):
        out += ["  - id: custom.r%d" % i,
                "    signal: fabricated_citation",
                "    severity: warn",
                "    pattern: '\\bword%dx[a-z]{2,8}\\b'" % i,
                "    message: 'custom {text}'",
                "    recovery: 'fix it'",
                "    examples:",
                "      - text: 'see word%dxabc here'" % i,
                "        match: 'word%dxabc'" % i,
                "    negative_examples:",
                "      - 'see word%dx here'" % i]
    return ("\n".join(out) + "\n").encode()


def bib(n):
    return b"".join(b"@article{k%d,\n  title = {A study of things number %d and more},\n"
                    b"  author = {Smith, John and Lee, Kim},\n  year = {2019},\n"
                    b"  journal = {Journal of Stuff}\n}\n" % (i, i) for i in range(n))


def refs(n):
    return b"## References\n\n" + b"".join(
        b"%d. Smith, J. (2019). A study of things number %d. Journal of Stuff, 12(3), 45-67. "
        b"https://doi.org/10.1234/abc.%d\n" % (i + 1, i, i) for i in range(n))


# name: (sizes, what a size is, size -> (args, stdin, {file: bytes}, {dir: {file: bytes}}))
SHAPES = {
    "text-findings": ((5000, 20000, 80000), "lines", lambda n: (
        [], b"".join(b"It grew 73.4%% (https://x%d.example.com). According to Smith (2019), "
                     b"it will definitely ship by March 2027.\n" % i for i in range(n)), {}, {})),
    "chat-messages": ((4000, 16000, 64000), "messages", lambda n: (
        ["--input", "chat"], chat([{"role": role(i), "content": "It grew 73.4%% in %d. See https://x%d.example.com/a"
                                    % (2000 + i % 30, i)} for i in range(n)]), {}, {})),
    "chat-one-message": ((1 << 18, 1 << 20, 1 << 22), "bytes", lambda n: (
        ["--input", "chat"], chat([{"role": "tool", "content": "Revenue was $%d million. " % 5 * (n // 25)},
                                   {"role": "assistant", "content": "Revenue was $%d million. " % 6 * (n // 25)}]),
        {}, {})),
    "chat-recurring-figure": ((1 << 17, 1 << 19, 1 << 21), "bytes", lambda n: (
        ["--input", "chat"], chat([{"role": r, "content": "Revenue was $5 million. " * (n // 25)}
                                   for r in ("user", "assistant")]), {}, {})),
    "records": ((4000, 16000, 64000), "records", lambda n: (
        ["--records", "--field", "a", "--source-field", "s"],
        b"".join(json.dumps({"a": "It grew 73.4%% to $%d million in 2021." % i,
                             "s": "Revenue was $%d million." % i}).encode() + b"\n" for i in range(n)), {}, {})),
    "claims": ((4000, 16000, 64000), "sentences", lambda n: (
        ["--claims", "--source", "s.txt"], b"Revenue grew 12% to $5 million in 2021. " * n,
        {"s.txt": b"Revenue grew 12% to $5 million in 2021.\n"}, {})),
    "format-text": ((5000, 20000, 80000), "findings", lambda n: (
        ["-f", "text", "--show-recovery"], url_lines(n), {}, {})),
    "format-sarif": ((5000, 20000, 80000), "findings", lambda n: (["-f", "sarif"], url_lines(n), {}, {})),
    "format-github": ((5000, 20000, 80000), "findings", lambda n: (["-f", "github"], url_lines(n), {}, {})),
    "write-baseline": ((5000, 20000, 80000), "findings", lambda n: (
        ["--write-baseline", "b.jsonl"], url_lines(n), {}, {})),
    "baseline": ((10000, 40000, 160000), "fingerprints", lambda n: (
        ["--baseline", "b.jsonl"], url_lines(2000),
        {"b.jsonl": b"".join(b'{"fingerprint":"%016x","path":"-"}\n' % (i * 2654435761 % (1 << 64))
                             for i in range(n))}, {})),
    "sources-many": ((100, 400, 1600), "files", lambda n: (
        sum((["--source", "s%d.txt" % i] for i in range(n)), []), b"It grew 73.4% to $5 million. " * 100,
        {"s%d.txt" % i: b"It grew %d%% to $%d million.\n" % (i, i) for i in range(n)}, {})),
    "source-json": ((1 << 18, 1 << 20, 1 << 22), "bytes", lambda n: (
        ["--source", "s.json"], b"Revenue was $17 million and 4.5 stars. " * 200,
        {"s.json": json.dumps([{"id": i, "stars": i % 5 + 0.5, "revenue": "$%d million" % i}
                               for i in range(n // 50)]).encode()}, {})),
    # Records of yes/no attributes (each a key of its own: none held twice), and an answer
    # that mentions some: the attribute check's set and its sentence reads.
    "source-yes-no": ((1 << 18, 1 << 20, 1 << 22), "bytes", lambda n: (
        ["--source", "s.json"], b"It has outdoor seating and no Wi-Fi; Feature7 parking is not offered. " * 200,
        {"s.json": json.dumps([{"attributes": {"Feature%dParking" % i: i % 2 == 0, "OutdoorSeating": False,
                                               "WiFi": "u'free'"}}
                               for i in range(n // 90)]).encode()}, {})),
    "prompt": ((1 << 18, 1 << 20, 1 << 22), "bytes", lambda n: (
        ["--prompt", "p.txt"], b"It grew 73.4% to $5 million. https://a.example.com " * 100,
        {"p.txt": b"Please cite your sources. $5 million in 2021, see https://a.example.com. " * (n // 72)}, {})),
    "directives": ((5000, 20000, 80000), "lines", lambda n: (
        [], b"".join(b"See https://x%d.example.com/p now. <!-- halluscan:ignore -->\n" % i for i in range(n)), {}, {})),
    "off-ranges": ((5000, 20000, 80000), "ranges", lambda n: (
        [], b"".join(b"<!-- halluscan:off -->\nSee https://x%d.example.com/p.\n<!-- halluscan:on -->\n" % i
                     for i in range(n)), {}, {})),
    "code-fences": ((5000, 20000, 80000), "fences", lambda n: (
        [], b"".join(b"```\nx = 'https://x%d.example.com'\n```\nSee https://y%d.example.com/p now.\n" % (i, i)
                     for i in range(n)), {}, {})),
    "reference-list": ((2000, 8000, 32000), "entries", lambda n: ([], refs(n), {}, {})),
    "title-list": ((2000, 8000, 32000), "items", lambda n: (
        [], b"## Further reading\n\n" + b"".join(b"- Deep Learning for Computer Vision Volume %d\n" % i
                                                for i in range(n)), {}, {})),
    "bib": ((2000, 8000, 32000), "entries", lambda n: (["--bib", "r.bib"], refs(500), {"r.bib": bib(n)}, {})),
    "pairs": ((2000, 8000, 32000), "pairs", lambda n: (
        ["--pairs"], b"".join(json.dumps({"id": str(i), "claim": "Revenue grew 12% to $5 million.",
                                          "passage": "Revenue grew 12%% to $%d million.\nIt was red." % i}).encode()
                              + b"\n" for i in range(n)), {}, {})),
    "pairs-long-passage": ((1 << 16, 1 << 18, 1 << 20), "bytes", lambda n: (
        ["--pairs"], json.dumps({"id": "a", "claim": "Revenue grew 12% to $5 million in 2021.",
                                 "passage": "Sales rose in 2021 and revenue grew. " * (n // 36)}).encode() + b"\n",
        {}, {})),
    # The claim's 64 negated sentences (all that are held) share words with
    # every passage sentence: each passage word counts for all 64.
    "pairs-negated": ((1 << 16, 1 << 18, 1 << 20), "bytes", lambda n: (
        ["--pairs"], json.dumps({"id": "a", "claim": "Revenue did not grow in 2021. " * 64,
                                 "passage": "Sales rose in 2021 and revenue grew. " * (n // 36)}).encode() + b"\n",
        {}, {})),
    # The claim's 64 direction words (all that are held): every passage word
    # is stemmed and looked up, and counts for all 64 sentences.
    "pairs-directions": ((1 << 16, 1 << 18, 1 << 20), "bytes", lambda n: (
        ["--pairs"], json.dumps({"id": "a", "claim": "Revenue decreased in 2021. " * 64,
                                 "passage": "Sales rose in 2021 and revenue increased. " * (n // 41)}).encode()
        + b"\n", {}, {})),
    "eval": ((2000, 8000, 32000), "records", lambda n: (
        ["eval"], b"".join(json.dumps({"id": str(i), "dataset": "d%d" % (i % 50),
                                       "text": "It grew 73.4%% at https://a%d.example.com" % i,
                                       "has_hallucination": i % 2 == 0}).encode() + b"\n" for i in range(n)), {}, {})),
    "rule-pack": ((50, 200, 800), "rules", lambda n: (
        ["--rules", "p.yaml", "--no-cache", "--check-rules"], b"", {"p.yaml": pack(n)}, {})),
    "dir-walk": ((500, 2000, 8000), "files", lambda n: (
        ["d"], b"", {}, {"d": {"%d/f%d.md" % (i % 50, i): b"See https://x%d.example.com/p now.\n" % i * 20
                              for i in range(n)}})),
    "numbers-line": ((1 << 16, 1 << 18, 1 << 20), "bytes", lambda n: (
        [], b"<tool_output>1</tool_output>\nIt was " + b", ".join(b"$%d.%d million" % (i, i % 10)
                                                                   for i in range(n // 14)) + b".\n", {}, {})),
    "sentence-long": ((1 << 18, 1 << 20, 1 << 22), "bytes", lambda n: (
        ["--source", "s.txt"], b"<tool_output>x</tool_output>" + b"and revenue grew 12% to $5 million " * (n // 36)
        + b".\n", {"s.txt": b"Revenue grew 12% to $5 million.\n"}, {})),
}


def run(a, tmp, args, stdin, files, dirs):
    """One run in tmp: (CPU seconds, peak RSS in KiB, output bytes)."""
    for name, data in files.items():
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(data)
    for d, tree in dirs.items():
        for name, data in tree.items():
            path = os.path.join(tmp, d, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
    inp, out, errf = (os.path.join(tmp, n) for n in ("stdin", "stdout", "stderr"))
    with open(inp, "wb") as f:
        f.write(stdin)
    cmd = [a.maxrss, a.halluscan] + args + ([] if args[:1] == ["eval"] else ["--fail-on", "never"])
    # Both outputs to files: a pipe read only after the wait would block a child that writes much.
    with open(inp, "rb") as i, open(out, "wb") as o, open(errf, "wb") as e:
        p = subprocess.Popen(cmd, stdin=i, stdout=o, stderr=e, cwd=tmp)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(errf, "rb") as f:
        err = f.read().decode("utf-8", "replace")
    code = p.returncode
    if code not in (0, 1):
        raise RuntimeError("%s exited %d: %s" % (" ".join(args[:4]), code, err.strip()[-300:]))
    rss = [int(l.split()[1]) for l in err.splitlines() if l.startswith("maxrss_kib ")]
    return ru.ru_utime + ru.ru_stime, rss[-1] if rss else 0, os.path.getsize(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--halluscan", default=os.path.join(TOP, "build", "halluscan"))
    ap.add_argument("--maxrss", default=os.path.join(TOP, "build", "maxrss"))
    ap.add_argument("--only", default="")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0)
    a = ap.parse_args()
    a.halluscan, a.maxrss = os.path.abspath(a.halluscan), os.path.abspath(a.maxrss)
    only = [s for s in a.only.split(",") if s]
    for s in only:
        if s not in SHAPES:
            sys.exit("growth.py: no shape %s (%s)" % (s, ", ".join(SHAPES)))
    print("| shape | sizes | CPU s | x per 4x step | peak RSS MB | output MB |")
    print("|---|---|---|---|---|---|")
    flagged = 0
    for name, (sizes, unit, make) in SHAPES.items():
        if only and name not in only:
            continue
        sizes = [max(1, int(s * a.scale)) for s in sizes]
        res = []
        for n in sizes:
            tmp = tempfile.mkdtemp(prefix="growth-")
            try:
                args, stdin, files, dirs = make(n)
                best = None
                for _ in range(a.repeats):
                    r = run(a, tmp, args, stdin, files, dirs)
                    best = r if best is None or r[0] < best[0] else best
                res.append(best)
            except RuntimeError as e:
                print("growth.py: %s at %d %s: %s" % (name, n, unit, e), file=sys.stderr)
                return 2
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        marks = []
        for k in (1, 2):
            (c0, r0, _), (c1, r1, _) = res[k - 1], res[k]
            cx = c1 / max(c0, 1e-3)
            rx = r1 / max(r0, 1)
            flag = (cx > FLAG_RATIO and c1 >= MIN_CPU) or (rx > FLAG_RATIO and r1 / 1024 > MIN_RSS_MB)
            flagged += flag
            marks.append("%.1f%s" % (cx, " **FLAG**" if flag else ""))
        print("| %s | %s %s | %s | %s | %s | %s |" % (
            name, " / ".join(str(n) for n in sizes), unit, " / ".join("%.3f" % r[0] for r in res),
            ", ".join(marks), " / ".join("%.0f" % (r[1] / 1024) for r in res),
            " / ".join("%.1f" % (r[2] / 1e6) for r in res)), flush=True)
    if flagged:
        print("\n%d step(s) flagged: more than %gx the CPU or memory for %dx the input" % (flagged, FLAG_RATIO, STEP))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
