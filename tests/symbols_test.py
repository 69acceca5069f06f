#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libhalluscan.so exports the public API and nothing else: every function
the header declares, each under the version node HALLUSCAN_0.1, no other
symbol (Hyperscan, PCRE2, libyaml and the internals are linked in, hidden);
its SONAME is libhalluscan.so.0; it needs only the C library (and the
sanitizers' runtimes in a sanitizer build); it has no text relocations.

usage: symbols_test.py LIBRARY HEADER SANITIZE
"""
import re
import subprocess
import sys

from checks import check, finish

lib, header, sanitize = sys.argv[1:4]


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


with open(header, encoding="utf-8") as f:
    text = f.read()
declared = set(re.findall(r"HALLUSCAN_API[^;{]*?\b(halluscan_[a-z_]+)\s*\(", text, re.S))
check(len(declared) >= 20, "the header declares the API (%d functions)" % len(declared))

exported, other = set(), []
for line in run("nm", "-D", "--defined-only", lib).splitlines():
    parts = line.split()
    if len(parts) < 3:
        continue
    kind, name = parts[1], parts[2]
    if kind == "A" and name == "HALLUSCAN_0.1":
        continue  # the version node itself
    m = re.fullmatch(r"(halluscan_[a-z_]+)@@HALLUSCAN_0\.1", name)
    if m and kind == "T":
        exported.add(m.group(1))
    else:
        other.append(line)
check(not other, "nothing but the API is exported%s" % ("" if not other else ": " + "; ".join(other[:10])))
check(exported == declared, "every declared function is exported, and only those (missing %s, extra %s)"
      % (sorted(declared - exported), sorted(exported - declared)))

dynamic = run("readelf", "-d", lib)
soname = re.findall(r"Library soname: \[(.*?)\]", dynamic)
check(soname == ["libhalluscan.so.0"], "SONAME libhalluscan.so.0 (%s)" % soname)
needed = set(re.findall(r"Shared library: \[(.*?)\]", dynamic))
allowed = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0"}
if sanitize != "none":
    allowed |= {n for n in needed if re.match(r"lib(asan|ubsan|stdc\+\+|gcc_s)\b", n)}
check(needed <= allowed, "needs only the C library: %s" % sorted(needed))
check("TEXTREL" not in dynamic, "no text relocations")
finish()
