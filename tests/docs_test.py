#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The documents tell the truth about the program.

- Every option the program accepts (src/cli/main.c's long_options and its
  short options) is in --help and in the manual.
- Every code fence in README.md is closed, and an opening fence carries at
  most one word (a fence with prose after it swallows what follows).
    usage: docs_test.py HALLUSCAN SRCDIR
"""
import re
import subprocess
import sys

BIN, SRC = sys.argv[1], sys.argv[2]
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1


with open(SRC + "/src/cli/main.c") as f:
    main_c = f.read()
longs = re.findall(r'\{"([a-z0-9-]+)", (?:no|required|optional)_argument', main_c)
shorts = re.findall(r"getopt_long\(argc, argv, \":([^\"]*)\"", main_c)
shorts = [c for c in (shorts[0] if shorts else "") if c != ":"]
check(len(longs) > 20 and shorts, "options found in main.c (%d long, %r short)" % (len(longs), shorts))
help_text = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
with open(SRC + "/man/halluscan.1") as f:
    man = f.read().replace("\\-", "-")
for o in longs:
    check(re.search(r"--%s\b" % re.escape(o), help_text) is not None, "--help says --" + o)
    check(re.search(r"--%s\b" % re.escape(o), man) is not None, "the manual says --" + o)
for c in shorts:
    check(re.search(r"(^|[\s\[|])-%s\b" % c, help_text, re.M) is not None, "--help says -" + c)
    check(re.search(r"-%s\b" % c, man) is not None, "the manual says -" + c)

with open(SRC + "/README.md") as f:
    lines = f.read().split("\n")
fence = None
for n, line in enumerate(lines, 1):
    m = re.match(r"^ {0,3}(`{3,}|~{3,})(.*)$", line)
    if not m:
        continue
    if fence is None:
        fence = (m.group(1), n)
        check(len(m.group(2).split()) <= 1, "README.md:%d: a fence opens with at most one word" % n)
    elif m.group(1)[0] == fence[0][0] and len(m.group(1)) >= len(fence[0]):
        check(not m.group(2).strip(), "README.md:%d: a closing fence has nothing after it" % n)
        fence = None
check(fence is None, "README.md: every code fence is closed%s" %
      ("" if fence is None else " (the one at line %d is not)" % fence[1]))
sys.exit(1 if failures else 0)
