#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the Markdown code context changes on real LLM output.

Each response of each corpus (read in place from ../shared/corpus) is
written to a file of its own, so that a fence left open in one cannot
swallow the next, and halluscan runs over the folder twice: with the
default (prose signals skipped in code) and with --no-skip-code. Prints
the findings per signal both ways, and the findings the code context
drops, for a person to judge.

  python3 bench/code_context.py [--halluscan build/halluscan] [--corpus DIR] [--show N]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
here = os.path.dirname(os.path.abspath(__file__))
ap.add_argument("--halluscan", default=os.path.join(here, "..", "build", "halluscan"))
ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
ap.add_argument("--show", type=int, default=10)
a = ap.parse_args()
if not os.path.isdir(a.corpus):
    print("skipped: no corpus")
    sys.exit(0)


def findings(folder, extra):
    p = subprocess.run([a.halluscan, "--no-config", "--fail-on", "never"] + extra + [folder],
                       capture_output=True)
    return [json.loads(line) for line in p.stdout.splitlines()
            if line.startswith(b'{"type":"finding"')]


total = collections.Counter()
for name in sorted(os.listdir(a.corpus)):
    if not name.endswith(".jsonl"):
        continue
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        with open(os.path.join(a.corpus, name), encoding="utf-8") as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                text = r.get("response") if isinstance(r, dict) else None
                if not isinstance(text, str):
                    continue
                with open(os.path.join(tmp, "%06d.md" % n), "w", encoding="utf-8") as out:
                    out.write(text)
                n += 1
        if n == 0:
            continue
        on = findings(tmp, [])
        off = findings(tmp, ["--no-skip-code"])
    c_on = collections.Counter(x["signal"] for x in on)
    c_off = collections.Counter(x["signal"] for x in off)
    kept = {(x["path"], x["start"], x["rule"]) for x in on}
    dropped = [x for x in off if (x["path"], x["start"], x["rule"]) not in kept]
    print("%s: %d responses; findings %d -> %d (%d dropped in code)" %
          (name, n, len(off), len(on), len(dropped)))
    for s in sorted(c_off):
        print("  %-22s %5d -> %5d" % (s, c_off[s], c_on[s]))
    for x in dropped[:a.show]:
        print("    dropped %s %s %r" % (os.path.basename(x["path"]), x["signal"], x["text"][:80]))
    total["responses"] += n
    total["before"] += len(off)
    total["after"] += len(on)
print("all: %d responses; findings %d -> %d" % (total["responses"], total["before"], total["after"]))
