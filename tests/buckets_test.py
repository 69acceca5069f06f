#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The grounded set's verdicts do not depend on how many hash buckets it has.

The set files quantities in hash lists by unit, by value and by the figure
as written (src/ground/ground_int.h, BUCKETS). A search over a list must
compare each candidate's full unit hash and value: one that trusts the
bucket judges whatever else happens to share it, and a finding then turns
on whether two unrelated figures of the tool output collide, 1 in 8,192.
HALLUSCAN_FEW is the program built with 4 buckets (GROUND_BUCKET_BITS=2),
where every list mixes many units and values: run on the same input it
must give byte for byte the findings the program with 8,192 gives.

  1. Constructed conversations (below) whose figures collide in 4
     buckets: a year of the reply near an old year of the tool output
     (which the year's walk of its newest 32 does not reach) and bare
     numbers and durations written otherwise.
  2. Two identifiers whose values collide in the real 8,192 buckets: the
     finding of one must not name the other (the program alone).
  3. Every golden CLI case (tests/cli/cases), both programs, same output.
  4. A seeded sample of the agents corpus (bench/planted.py --findings):
     the same findings on unchanged replies and the same figures.

usage: buckets_test.py HALLUSCAN HALLUSCAN_FEW SRCDIR
"""
import glob
import json
import os
import shlex
import struct
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, FEW, SRC = (os.path.abspath(x) for x in sys.argv[1:4])


def run(binary, args, stdin=b"", cwd=None, env=None):
    p = subprocess.run([binary] + args, input=stdin, capture_output=True, cwd=cwd, env=env,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr


def same(args, stdin, what, cwd=None, env=None):
    a = run(BIN, args, stdin, cwd, env)
    b = run(FEW, args, stdin, cwd, env)
    check(a == b, what, "8,192 buckets and 4 differ:\n--- 8192 (exit %d)\n%s\n--- 4 (exit %d)\n%s"
          % (a[0], a[1].decode(errors="replace")[:3000], b[0], b[1].decode(errors="replace")[:3000]))
    return a


def chat(tool, reply):
    return (json.dumps({"messages": [
        {"role": "user", "content": "What do the records say?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": tool},
        {"role": "assistant", "content": reply}]}) + "\n").encode()


# 1. Years: an old year near the reply's, then more than SWAP_WALK (128)
# newer ones of other values and words. The walk of a year's unit reads the
# newest 32, the swap walk the newest 128: the old one is reached only by
# value, and is judged only where it is the reply's value. In 4 buckets a
# quarter of the replies' years share 1921's list; before the fix those
# were "1915 differs from the grounded 1921", the others passed.
events = ["In %d the museum added wing %d." % (1500 + 2 * k, k) for k in range(140)]
tool = "The archive was founded in 1921. " + " ".join(events)
for year in range(1914, 1930):
    same(["--input", "chat"], chat(tool, "The archive was founded in %d." % year), "year %d" % year)

# Bare numbers as a year, an ordinal of years or a temperature is written,
# and durations: in 4 buckets the lists of other values hold them.
tool = ("Readings: " + ", ".join(str(30 + k) for k in range(60)) +
        ". The reunion marks the 41st anniversary. The peak was 98 F. It ran for 44 years.")
for reply in ("It was the 42nd anniversary.", "The peak was 97 F.", "It was the 40th anniversary.",
              "It has been 43 years since then.", "It ran for 45 years."):
    same(["--input", "chat"], chat(tool, reply), "bare numbers: " + reply)


# 2. A collision in the real table (8,192 buckets), by the set's own hash
# (val_of() in src/ground/ground_int.h: a double's bits, mixed). Two
# identifiers a unit apart whose values share a bucket: the first record's
# id X, then 40 newer ids far off (the walk of the newest 32 of the unit
# holds only those). The reply's id Y is no record's: its finding names the
# nearest of the newest, as for Y + 1 (another bucket). Before the fix the
# by-value search judged X because it shares Y's bucket: "Y differs from
# the grounded X", and Y + 1 "differs from the grounded 900056".
def val_of(v, buckets=8192):
    h = struct.unpack("<Q", struct.pack("<d", float(v)))[0]
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & (2**64 - 1)
    h ^= h >> 33
    return h & (buckets - 1)


x = next(v for v in range(40000, 50000) if val_of(v) == val_of(v + 1) and val_of(v + 2) != val_of(v))
records = ["- filename: report.txt\n  id_: '%d'" % x] + [
    "- filename: f%d.txt\n  id_: '%d'" % (k, 900000 + 7 * k) for k in range(40)]
tool = "\n".join(records)
sources = {}
for y in (x + 1, x + 2):
    out = same(["--input", "chat"], chat(tool, "The report is the file with ID: %d." % y),
               "identifier %d" % y)
    found = [json.loads(line) for line in out[1].splitlines()]
    sources[y] = [f.get("source") for f in found if f["type"] == "finding"]
check(sources[x + 1] == sources[x + 2] == ["900056"],
      "id %d (its bucket %d's, as %d) and %d: the same grounded source" % (x + 1, val_of(x + 1), x, x + 2),
      "sources: %s" % sources)

# 3. The golden CLI cases, both ways.
cases = sorted(glob.glob(os.path.join(SRC, "tests", "cli", "cases", "*", "cmd")))
check(len(cases) > 100, "golden CLI cases found (%d)" % len(cases))
with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, SRC=SRC, HALLUSCAN_CACHE_DIR=os.path.join(tmp, "cache"))
    for cmd in cases:
        d = os.path.dirname(cmd)
        with open(cmd) as f:
            args = shlex.split(os.path.expandvars(f.read().replace("$SRC", SRC)))
        stdin = b""
        if os.path.exists(os.path.join(d, "stdin")):
            with open(os.path.join(d, "stdin"), "rb") as f:
                stdin = f.read()
        same(args, stdin, "case " + os.path.basename(d), cwd=d, env=env)

    # 4. A seeded sample of the agents corpus.
    if glob.glob(os.path.join(SRC, "bench", "agents", "*.jsonl")):
        script = os.path.join(SRC, "bench", "planted.py")
        out = {}
        for name, binary in (("8192", BIN), ("4", FEW)):
            found = os.path.join(tmp, "findings-%s.jsonl" % name)
            p = subprocess.run([sys.executable, script, "--halluscan", binary, "--json",
                                "--sample", "120", "--findings", found],
                               capture_output=True, timeout=600)
            check(p.returncode == 0, "planted.py with %s buckets" % name,
                  "exit %d: %s" % (p.returncode, p.stderr.decode()[:500]))
            with open(found) as f:
                figures = json.loads(p.stdout) if p.returncode == 0 else {}
                figures.pop("seconds", None)  # (the run's time)
                out[name] = (figures, f.read())
        check(out["8192"][0] == out["4"][0], "agents sample: the same figures", "%s\n%s"
              % (out["8192"][0], out["4"][0]))
        a, b = out["8192"][1].splitlines(), out["4"][1].splitlines()
        check(a == b, "agents sample: the same findings (%d)" % len(a), "8192 only: %s\n4 only: %s"
              % ([x for x in a if x not in b][:5], [x for x in b if x not in a][:5]))
finish()
