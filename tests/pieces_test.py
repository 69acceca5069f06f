#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A scan's findings and summary do not depend on where the reads cut the input.

A tool span whose bytes are about to leave the scanner's window has its held
events decided early, and what they ground is set aside until the span
closes; the rest are decided at the close. Whether a span is cut so depends
on the sizes of the pieces the input came in. The grounded set is bounded
(oldest evicted), so the order things enter it decides what it still holds
and what it evicts: the summary's ground_evictions differed with the piece
size (16,783 whole, 16,765 in pieces of 4,097 bytes, 16,800 in pieces of
100, on the corpus below), and a span's reference lines ended before the
cut were not read at all. A gate gives the same answer however it is fed.

PIECES_FEED (tests/pieces_feed.c) feeds a file through the public API in
pieces of a given size and prints every finding (shown grounded ones too)
and the summary; every piece size must print the same bytes.
    usage: pieces_test.py PIECES_FEED GENCORPUS
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, scratch  # noqa: E402

FEED, GEN = (os.path.abspath(x) for x in sys.argv[1:3])
tmp = scratch("halluscan-pieces-")

# Tool spans in 40% of the text, and more figures than the set holds (4,096),
# past the window (768 KiB) three times.
corpus = subprocess.run([GEN, "--seed", "1", "--spans", "40", "--size", "3M"],
                        capture_output=True, check=True).stdout[:2625000]
path = os.path.join(tmp, "spans40.txt")
with open(path, "wb") as f:
    f.write(corpus)

runs = {}
for piece in (1 << 20, 65536, 4096, 4097, 100, 7):
    p = subprocess.run([FEED, path, str(piece)], capture_output=True, timeout=600)
    check(p.returncode == 0, "pieces of %d: scanned" % piece, p.stderr.decode(errors="replace"))
    runs[piece] = p.stdout

whole = runs[1 << 20]
summary = [ln for ln in whole.splitlines() if ln.startswith(b"summary ")]
check(len(summary) == 1 and b" ground_evictions 0" not in summary[0]
      and b" spans 0 " not in summary[0],
      "the corpus fills the grounded set and has spans", repr(summary))
for piece, out in runs.items():
    if piece == 1 << 20:
        continue
    a, b = whole.splitlines(), out.splitlines()
    diff = [(x, y) for x, y in zip(a, b) if x != y][:5]
    check(out == whole, "pieces of %d give what pieces of 1 MiB give" % piece,
          "%d lines vs %d; first differences: %r" % (len(a), len(b), diff))
finish()
