#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the EXAMPLES of the manual and compares their output, so that the
manual never lies. An example is a line "$ COMMAND" inside .EX/.EE; the
lines after it, up to the next "$ " or .EE, are its expected output.

usage: man_examples.py MANPAGE BUILDDIR SRCDIR
"""
import os
import re
import subprocess
import sys

man, builddir, srcdir = sys.argv[1:4]


def unroff(line):
    """The text a reader sees for a line of roff inside .EX."""
    line = line.replace("\\-", "-").replace("\\(aq", "'").replace("\\(mu", "\u00d7")
    return line.replace("\\e", "\\")


examples, current, inside = [], None, False
section = None
with open(man, encoding="utf-8") as f:
    for raw in f:
        raw = raw.rstrip("\n")
        if raw.startswith(".SH "):
            section = raw[4:].strip()
        if section != "EXAMPLES":
            continue
        if raw == ".EX":
            inside = True
        elif raw == ".EE":
            inside, current = False, None
        elif inside:
            line = unroff(raw)
            if line.startswith("$ "):
                current = [line[2:], []]
                examples.append(current)
            elif current is not None:
                current[1].append(line)

env = dict(os.environ, PATH=builddir + os.pathsep + os.environ["PATH"], LC_ALL="C.UTF-8")
failed = 0
for cmd, expected in examples:
    p = subprocess.run(["sh", "-c", cmd], cwd=srcdir, env=env, capture_output=True, text=True)
    got = p.stdout.rstrip("\n").split("\n") if p.stdout else []
    if got != expected:
        failed += 1
        print("FAIL: $ %s\n  expected: %r\n  got:      %r\n  stderr: %s" % (cmd, expected, got, p.stderr))
    else:
        print("ok:   $ %s" % cmd)
# Every option the program's help names is in the manual.
with open(man, encoding="utf-8") as f:
    manual = unroff(f.read())
for args in (["--help"], ["eval", "--help"]):
    helptext = subprocess.run(["halluscan"] + args, env=env, capture_output=True, text=True).stdout
    for opt in sorted(set(re.findall(r"--[a-z][a-z-]+", helptext))):
        if opt not in manual:
            failed += 1
            print("FAIL: %s (halluscan %s) is not in the manual" % (opt, " ".join(args)))
print("%d examples, %d failed" % (len(examples), failed))
sys.exit(1 if failed or not examples else 0)
