#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the functions a start of the program runs, one a line, for the
static program's link (tools/startup.order, meson.build): lld places them
side by side at the head of the code, so that a 4 KB message faults in a
few runs of pages instead of pages scattered over 11 MB (issue 35).

The names are callgrind's, unmangled, of one run on gencorpus's 4 KB
message (seed 2: it holds findings) and one on no input. Valgrind shows
the program a processor without AVX-512, so Hyperscan and glibc choose
their AVX2 builds under it: each such name is written for every build the
program holds, a build's names together, so that whichever build a
processor runs lies in one stretch. A name the program holds twice (a
static function of Hyperscan's builds, or of two of our files) is left
out: the linker would move every copy. A name the link does not find is
skipped by it, so the file only has to be close, not exact.
    usage: scripts/startup_order.py PROGRAM GENCORPUS > tools/startup.order
"""
import os
import re
import subprocess
import sys
import tempfile

program, gencorpus = sys.argv[1:3]
names = set()
with tempfile.TemporaryDirectory() as tmp:
    message = os.path.join(tmp, "message.txt")
    with open(message, "wb") as f:
        subprocess.run([gencorpus, "--seed", "2", "--message"], stdout=f, check=True)
    for stdin in (message, os.devnull):
        out = os.path.join(tmp, "callgrind.out")
        with open(stdin, "rb") as f:
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                            "--callgrind-out-file=" + out, program, "--fail-on", "never"],
                           stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=True)
        with open(out) as f:
            for line in f:
                # "fn=(12) name" names a function the first time ("'2": recursion;
                # "(below main)" has a blank, and an address no name).
                m = re.match(r"c?fn=\(\d+\) (\S+?)(?:'\d+)?$", line)
                if m and not m.group(1).startswith("0x"):
                    names.add(m.group(1))

held = {}
for line in subprocess.run(["nm", program], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    name = line.split()[-1]
    held[name] = held.get(name, 0) + 1
# Hyperscan's builds are prefixes (avx2_hs_scan_stream), glibc's infixes
# (__strlen_avx2, __memset_avx2_unaligned_erms); the fastest first.
HS = re.compile(r"^(avx512vbmi|avx512|avx2|corei7|core2)_")
LIBC = re.compile(r"^(__\w+?)_(evex512|evex|avx512|avx2_rtm|avx2|avx|sse4_2|ssse3|sse2)(?=_|$)")
builds = {"": set()}
for name in names:
    if HS.match(name):
        for b in ("avx512vbmi", "avx512", "avx2", "corei7", "core2"):
            builds.setdefault("hs " + b, set()).add(HS.sub(b + "_", name))
    elif LIBC.match(name):
        for b in ("evex512", "evex", "avx512", "avx2_rtm", "avx2", "avx", "sse4_2", "ssse3",
                  "sse2"):
            builds.setdefault("libc " + b, set()).add(LIBC.sub(r"\1_" + b, name))
    else:
        builds[""].add(name)
for key in builds:
    for name in sorted(builds[key]):
        if held.get(name) == 1:
            print(name)
