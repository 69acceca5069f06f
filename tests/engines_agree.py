#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hyperscan and PCRE2 give the same findings, byte for byte, on real LLM
output: a slice of the shared corpus (responses joined by blank lines, with
their sources as tool spans so that the number checks run too).

usage: engines_agree.py HALLUSCAN CORPUSDIR [RECORDS_PER_FILE]
Exit 77 (skipped) without the corpus or without Hyperscan in the build.
"""
import json
import os
import subprocess
import sys
import tempfile

binary, corpus = sys.argv[1], sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 400
if not os.path.isdir(corpus):
    print("skipped: no corpus at %s" % corpus)
    sys.exit(77)
if b"hyperscan" not in subprocess.run([binary, "--version"], capture_output=True).stdout:
    print("skipped: this build has no Hyperscan")
    sys.exit(77)
parts = []
for name in sorted(os.listdir(corpus)):
    if not name.endswith(".jsonl"):
        continue
    with open(os.path.join(corpus, name), encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i == limit:
                break
            r = json.loads(line)
            if r.get("source"):
                parts.append("<tool_output>\n%s\n</tool_output>\n" % r["source"])
            parts.append(r["response"] + "\n\n")
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
    f.write("".join(parts))
    path = f.name
try:
    outs = [subprocess.run([binary, "--engine", e, "--claims", "--fail-on", "never", path],
                           capture_output=True) for e in ("hyperscan", "pcre2")]
finally:
    os.unlink(path)
a, b = (o.stdout.decode().splitlines() for o in outs)
findings = sum(1 for line in a if '"type":"finding"' in line)
print("%d bytes, %d records: hyperscan %d lines, pcre2 %d lines, %d findings"
      % (len("".join(parts).encode()), len(parts), len(a), len(b), findings))
if a != b or any(o.returncode != 0 for o in outs):
    for x, y in zip(a, b):
        if x != y:
            print("first difference:\n  hyperscan: %s\n  pcre2:     %s" % (x[:300], y[:300]))
            break
    sys.exit(1)
print("identical")
