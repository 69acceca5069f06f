# SPDX-License-Identifier: MIT
"""The documents whose examples the tests run: README.md and docs/*.md.

A test that runs a snippet looks for it in all of them, so that a snippet
can move between the README and docs/ without its test losing it (the test
still fails when the snippet is gone, or is there twice).
"""
import glob
import os


def paths(src):
    """README.md, then docs/*.md in name order."""
    return [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))


def text(src):
    """The documents' text, one after another."""
    out = []
    for p in paths(src):
        with open(p, encoding="utf-8") as f:
            out.append(f.read())
    return "\n".join(out)
