#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rule packs made to cost: each is refused with its file:line:col, at once
and in bounded memory (peak RSS from the MAXRSS helper), never loaded.

usage: packs_test.py HALLUSCAN SANITIZE MAXRSS
  SANITIZE is meson's b_sanitize; RSS is checked only without sanitizers.
"""
import os
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, MAXRSS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[3])
SANITIZE = sys.argv[2]
RSS_MB = 32  # a refused pack measured 2.7-19 MB; the first bomb below took 236 MB


def rule(anchor=""):
    return ("rules:\n  - %s\n    id: a\n    signal: s\n    pattern: x\n    severity: warn\n"
            "    message: m\n    recovery: r\n    examples: [x]\n    negative_examples: [y]\n" % anchor)


def aliases():
    # The 76 KB: 4,000 aliases of a 60 KB scalar (236 MB of copies).
    return ("description: &a '%s'\nrules:\n  - id: x\n    unless_sentence: [%s]\n"
            % ("a" * 60000, ", ".join(["*a"] * 4000)))


def aliases_of_aliases():
    # 38 KB: 5,000 aliases of a rule that names a 2 KB scalar 100 times (1 GB of copies).
    return ("description: &a '%s'\n" % ("x" * 2000) + rule("&r")
            + "    unless_sentence: [%s]\n" % ", ".join(["*a"] * 100) + "  - *r\n" * 5000)


def deep():
    return "rules: " + "[" * 100000 + "]" * 100000 + "\n"


def large():
    line = "# " + "x" * 77 + "\n"
    return "description: d\n" + line * ((8 << 20) // len(line))


def nodes():
    return "description: [" + "a," * 500000 + "a]\nrules: []\n"


def anchors():
    return "description:\n" + "".join("  - &a%05d x\n" % i for i in range(50000)) + "rules: []\n"


CASES = [
    ("aliases.yaml", aliases, "aliases.yaml:4:295: a rule pack may hold at most 4194304 bytes of text"),
    ("nested.yaml", aliases_of_aliases, "nested.yaml:13:5: a rule pack may hold at most 100 aliases"),
    ("deep.yaml", deep, "deep.yaml:1:71: a rule pack may nest at most 64 levels"),
    ("large.yaml", large, "large.yaml:13109:2: a rule pack may be at most 1048576 bytes"),
    ("nodes.yaml", nodes, "nodes.yaml:1:200009: a rule pack may hold at most 100000 nodes"),
    ("anchors.yaml", anchors, "anchors.yaml:102:5: a rule pack may hold at most 100 anchors"),
]


def run(args, cwd, stdin=subprocess.DEVNULL):
    p = subprocess.Popen([MAXRSS, BIN] + args, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    out, err = p.communicate()
    err = err.decode()
    rss = int(err.split("maxrss_kib ")[1]) / 1024 if "maxrss_kib " in err else 1e9
    return p.returncode, out, err.split("maxrss_kib ")[0].strip(), rss


def refused(name, rc, out, err, rss, want):
    check(rc == 2 and out == b"" and err.startswith("halluscan: " + want),
          "%s: refused with %r (%d: %r)" % (name, want, rc, err[:200]))
    if SANITIZE in ("", "none"):
        check(rss < RSS_MB, "%s: peak RSS %.1f MB < %d MB" % (name, rss, RSS_MB))
    else:
        print("skip %s: RSS under sanitizers (%.1f MB)" % (name, rss))


with tempfile.TemporaryDirectory() as tmp:
    for name, make, want in CASES:
        with open(os.path.join(tmp, name), "w") as f:
            f.write(make())
        rc, out, err, rss = run(["--no-cache", "--check-rules", "--no-builtin-rules", "--rules", name], tmp)
        refused(name, rc, out, err, rss, want)

    # A pack on a pipe that never ends: read up to the limit, not to the end.
    # Lines of 80 bytes: byte 1 MiB is on line 13108, column 17.
    endless = subprocess.Popen(["yes", "# " + "x" * 77], stdout=subprocess.PIPE)
    rc, out, err, rss = run(["--no-cache", "--check-rules", "--no-builtin-rules", "--rules", "/dev/stdin"], tmp,
                            stdin=endless.stdout)
    endless.stdout.close()
    endless.kill()
    endless.wait()
    refused("endless pipe", rc, out, err, rss,
            "/dev/stdin:13108:17: a rule pack may be at most 1048576 bytes")

finish()
