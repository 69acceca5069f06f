#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README's Dask snippet, run as written: byte for byte one process.

The block after "<!-- tests/dask_test.py runs this block" in README.md is
run by an interpreter that has dask (Debian's python3-dask), in a folder
holding an eval.jsonl of records larger than the snippet's blocksize (so
the bag has several partitions), with this build's halluscan first on the
PATH. annotated/*.jsonl, concatenated, must be what one halluscan writes
for the whole file: records with findings and without, non-ASCII text,
U+2028, a blank line, bytes that are no UTF-8. Then a line that is not
JSON must fail the job, as the README says.
Exits 77 (skip) when no interpreter has dask, unless HALLUSCAN_REQUIRE_TOOLS
is set (CI sets it: there a skip is a failure).
    usage: dask_test.py HALLUSCAN SRCDIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import documents
from checks import check, finish

BIN, SRC = os.path.abspath(sys.argv[1]), sys.argv[2]


def has_dask(python):
    return python and os.path.exists(python) and subprocess.run(
        [python, "-c", "import dask.bag"], capture_output=True).returncode == 0


python = next((p for p in (sys.executable, shutil.which("python3"), "/usr/bin/python3")
               if has_dask(p)), None)
if not python:
    if os.environ.get("HALLUSCAN_REQUIRE_TOOLS"):
        print("FAIL (HALLUSCAN_REQUIRE_TOOLS is set): no python3 with dask (python3-dask)")
        sys.exit(1)
    print("skip: no python3 with dask (python3-dask)")
    sys.exit(77)

m = re.search(r"<!-- tests/dask_test\.py runs this block[^\n]*-->\n```python\n(.*?)```",
              documents.text(SRC), re.S)
check(m is not None, "README.md or docs/: the Dask block is there")
if not m:
    sys.exit(1)
snippet = m.group(1)

# Records of the kinds a log holds, some long. Dask cuts a file into
# size // blocksize blocks: with the snippet's 10 MB, 21 MB makes two.
KINDS = [
    b'{"id":%d,"response":"See https://docs.example.com/setup for the steps; it grew 73.4%% last year.",'
    b'"context":"' + b"padding " * 120 + b'"}\n',
    b'{"id":%d,"response":"Nothing here cites anything, and nothing here needs a source at all.",'
    b'"note":"caf\xc3\xa9 \xe2\x80\xa8 line separator, and \\u00e9 escaped"}\n',
    b'{"id":%d,"response":"According to Smith et al. (2021), it will definitely ship by March 2027."}\n',
    b'{"id":%d,"response":"Bytes that are no UTF-8: \xff\xfe here, and a price of 12.50 EUR."}\n',
]
size = 21 << 20
tmp = tempfile.mkdtemp()
try:
    chunks, n, i = [], 0, 0
    while n < size:
        rec = KINDS[i % len(KINDS)] % i
        if i == 1000:
            rec += b"\n"  # a blank line comes back blank
        chunks.append(rec)
        n += len(rec)
        i += 1
    data = b"".join(chunks)
    with open(os.path.join(tmp, "eval.jsonl"), "wb") as f:
        f.write(data)
    env = dict(os.environ, PATH=os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""),
               HALLUSCAN_CACHE_DIR=os.path.join(tmp, "cache"))
    with open(os.path.join(tmp, "snippet.py"), "w") as f:
        f.write(snippet)
    p = subprocess.run([python, "snippet.py"], cwd=tmp, env=env, capture_output=True, timeout=600)
    check(p.returncode == 0, "the snippet runs (%d records, %d bytes)" % (i, len(data)),
          p.stderr.decode(errors="replace")[-3000:])
    parts = sorted(glob.glob(os.path.join(tmp, "annotated", "*.jsonl")))
    check(len(parts) >= 2, "the bag had several partitions (%d files)" % len(parts))
    got = b"".join(open(q, "rb").read() for q in parts)
    one = subprocess.run([BIN, "--records", "--field", "response", "--fail-on", "never"],
                         input=data, capture_output=True, env=env)
    check(one.returncode == 0 and one.stdout.count(b"\n") == data.count(b"\n"),
          "one process: a line per line, exit 0")
    check(got == one.stdout, "annotated/*.jsonl, concatenated, is byte for byte one process's "
          "output (%d and %d bytes)" % (len(got), len(one.stdout)))
    check(b'"halluscan":{"verdict":"warn"' in got and b'"halluscan":{"verdict":"pass"' in got
          and b"\n\n" in got, "the output holds findings, passes and the blank line")

    # A line that is not JSON is annotated with its error, and fails the job.
    shutil.rmtree(os.path.join(tmp, "annotated"))
    with open(os.path.join(tmp, "eval.jsonl"), "wb") as f:
        f.write(KINDS[0] % 1 + b"not json\n")
    p = subprocess.run([python, "snippet.py"], cwd=tmp, env=env, capture_output=True, timeout=600)
    check(p.returncode != 0 and b"CalledProcessError" in p.stderr,
          "a line that is not JSON fails the job", p.stderr.decode(errors="replace")[-2000:])
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
