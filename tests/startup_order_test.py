#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The static program linked by lld has the functions a start runs side by
side (tools/startup.order, meson.build; issue 35), and stays a PIE with
RELRO and packed relocations.

usage: startup_order_test.py PROGRAM ORDER_FILE
"""
import subprocess
import sys

from checks import check, finish

program, order = sys.argv[1:3]


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


where = {}
for line in run("nm", program).splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "tTiW":
        where.setdefault(f[2], int(f[0], 16))
listed = open(order).read().split()
found = [name for name in listed if name in where]
# A renamed or removed function leaves a stale line, which the linker skips;
# many of them and the list no longer says what a start runs.
check(len(found) >= 0.9 * len(listed),
      f"the program holds most of the order's functions ({len(found)} of {len(listed)})",
      "remake it: scripts/startup_order.py PROGRAM GENCORPUS > tools/startup.order")
start = ["main", "halluscan_rules_open", "db_load", "scan_new", "claims_new", "plain_scan",
         "report_finding", "_dl_relocate_static_pie"]
at = {name: where.get(name) for name in start}
have = [a for a in at.values() if a is not None]
span = max(have) - min(have) if len(have) == len(start) else None
# Linked in the archives' order they lie megabytes apart (11 MB at 72c3f27).
check(span is not None and span < 1 << 20,
      f"a start's functions lie within 1 MiB of one another ({span} bytes)",
      "\n".join(f"  {name}: {a if a is None else hex(a)}" for name, a in at.items()))
header = run("readelf", "-h", "-l", "-d", "-W", program)
check("DYN (Position-Independent Executable file)" in header, "the program is a PIE")
check("GNU_RELRO" in header, "its relocated data is read-only after the start (RELRO)")
check("(RELR)" in header, "its relative relocations are packed (RELR)")
finish()
