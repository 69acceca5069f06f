#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The documents tell the truth about the program.

- Every option the program accepts (src/cli/main.c's long_options and its
  short options) is in --help and in the manual.
- In README.md and every docs/*.md, every code fence is closed, and an
  opening fence carries at most one word (a fence with prose after it
  swallows what follows).
- Every example in them runs as written: in a ```sh or ```console block, a
  line "$ COMMAND" (continued on the next line when it ends in "|", "\\",
  "&&" or "||") is run with sh, and the lines after it, up to the next "$ "
  or the fence, are what it must print (its standard output, then its
  standard error). The examples of one document run in order in one scratch
  folder, which holds build/ (this build), examples/ and patterns/; the
  program is on PATH. Without jq they are skipped, except where
  HALLUSCAN_REQUIRE_TOOLS is set (CI), where that is a failure.
- Every link from one of them to a file of the tree leads to a file that is
  there, and to a heading of it when it names one (#anchor, as GitHub makes
  them from the heading's words).
    usage: docs_test.py HALLUSCAN SRCDIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import documents
from checks import check, finish

BIN, SRC = sys.argv[1], os.path.abspath(sys.argv[2])


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

DOCS = documents.paths(SRC)
print("the documents: %s" % ", ".join(os.path.relpath(d, SRC) for d in DOCS))


def fences(doc, lines):
    """Checks the fences; returns the examples, (line number, command, expected)."""
    name = os.path.relpath(doc, SRC)
    examples, fence, current = [], None, None
    for n, line in enumerate(lines, 1):
        m = re.match(r"^ {0,3}(`{3,}|~{3,})(.*)$", line)
        if m and fence is None:
            fence = (m.group(1), n, m.group(2).strip())
            check(len(m.group(2).split()) <= 1, "%s:%d: a fence opens with at most one word" % (name, n))
            continue
        if m and m.group(1)[0] == fence[0][0] and len(m.group(1)) >= len(fence[0]):
            check(not m.group(2).strip(), "%s:%d: a closing fence has nothing after it" % (name, n))
            fence, current = None, None
            continue
        if fence is None or fence[2] not in ("sh", "console"):
            continue
        if current is not None and not current[2] and re.search(r"(\\|\||&&)\s*$", current[1]):
            current[1] += "\n" + line
        elif line.startswith("$ "):
            current = [n, line[2:], []]
            examples.append(current)
        elif current is not None:
            current[2].append(line)
    check(fence is None, "%s: every code fence is closed%s" %
          (name, "" if fence is None else " (the one at line %d is not)" % fence[1]))
    return examples


def anchors(path):
    """The anchors GitHub gives a Markdown file's headings."""
    out = set()
    with open(path, encoding="utf-8") as f:
        inside = False
        for line in f:
            if re.match(r"^ {0,3}(`{3,}|~{3,})", line):
                inside = not inside
            m = None if inside else re.match(r"^#{1,6} +(.*?)\s*$", line)
            if m:
                out.add(re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-"))
    return out


for doc in DOCS:
    name = os.path.relpath(doc, SRC)
    with open(doc, encoding="utf-8") as f:
        text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        ok = os.path.exists(full) and (not anchor or (full.endswith(".md") and anchor in anchors(full)))
        check(ok, "%s: the link %s leads somewhere" % (name, target))


env = {k: v for k, v in os.environ.items() if not k.startswith("HALLUSCAN_") and k != "NO_COLOR"}
env.update(PATH=os.path.dirname(os.path.abspath(BIN)) + os.pathsep + os.environ["PATH"], LC_ALL="C.UTF-8")
have_jq = shutil.which("jq") is not None
for doc in DOCS:
    name = os.path.relpath(doc, SRC)
    with open(doc, encoding="utf-8") as f:
        examples = fences(doc, f.read().split("\n"))
    if not have_jq:
        check(not os.environ.get("HALLUSCAN_REQUIRE_TOOLS"), "%s: %d examples, skipped: no jq" % (name, len(examples)))
        continue
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.dirname(os.path.abspath(BIN)), os.path.join(tmp, "build"))
        for d in ("examples", "patterns"):
            os.symlink(os.path.join(SRC, d), os.path.join(tmp, d))
        env.update(HOME=tmp, XDG_RUNTIME_DIR=tmp, XDG_CACHE_HOME=tmp)
        for n, cmd, expected in examples:
            p = subprocess.run(["sh", "-c", cmd], cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=120)
            got = [ln for out in (p.stdout, p.stderr) if out for ln in out.rstrip("\n").split("\n")]
            ok = got == expected
            check(ok, "%s:%d: $ %s" % (name, n, cmd.split("\n")[0][:100]))
            if not ok:
                print("  expected: %r\n  got:      %r" % (expected, got))
finish()
