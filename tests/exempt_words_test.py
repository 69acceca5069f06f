#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Exemptions decided with the words their patterns need (claims_exempt.c,
literals.c) as without them: past LIT_AFTER questions a rule's sentence,
before and after patterns are asked of PCRE2 only where the text holds one
of their words, and each probe must come out as it does on its own.

usage: exempt_words_test.py HALLUSCAN
"""
import json
import subprocess
import sys

from checks import check, finish

BIN = sys.argv[1]
SPAN = "<tool_output>The hotel has 4 rooms and costs $120.</tool_output>\n"
# (sentence, its figure's text when it is a finding, else None)
PROBES = [
    ("Suppose there were 12 rooms.", None),            # unless_sentence
    ("Hypothetically 41 rooms fit.", None),
    ("Would you like 6 rooms?", None),
    ("Let me fetch the next 5 rooms.", None),
    ("For example, say there were 14 rooms.", None),   # unless_before
    ("It lists 50 (the default) rooms.", None),        # unless_after
    ("They have 9 rooms by default.", None),
    ("I will say we saw 21 rooms.", "21 rooms"),       # a word, and no match
    ("We imagined 31 rooms.", "31 rooms"),
    ("The default was 23 rooms.", "23 rooms"),
    ("We had 27 rooms, not the default.", "27 rooms"),
    ("Source: 43 rooms.", "43 rooms"),                 # no word at all
]
# Enough findings of the same rules before them that the words are read.
FILLED = ["%d rooms" % n for n in range(100, 140)]
FILLER = "".join("We saw %s.\n" % t for t in FILLED)


def findings(text):
    p = subprocess.run([BIN, "--fail-on", "never"], input=text.encode(), capture_output=True)
    check(p.returncode == 0, "halluscan ran", p.stderr.decode())
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def probe_texts(records):
    return sorted(r["text"] for r in records if r["type"] == "finding" and r["text"] not in FILLED)


body = "".join(s + "\n" for s, _ in PROBES)
want = sorted(t for _, t in PROBES if t)
alone = probe_texts(findings(SPAN + body))
after = findings(SPAN + FILLER + body)
check(alone == want, "the probes on their own: the findings expected", repr(alone))
check(probe_texts(after) == want, "the probes after 40 findings: the same", repr(probe_texts(after)))
check(sum(r["type"] == "finding" and r["text"] in FILLED for r in after) == 40,
      "the filler's 40 findings")
finish()
