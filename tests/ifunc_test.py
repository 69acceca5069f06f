#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The program has the loader resolve none of Hyperscan's calls that only a database
compiled in the run needs (writing it out, its stream size): each call of
the runtime is chosen for the processor at start-up by a resolver that
runs cpuid, about 2 us apiece in a virtual machine, as soon as the
program links it (src/match/hscompiler.h; issue 35). Those calls come with the
compiler, loaded when a pack is compiled; where meson wraps the others
(src/match/hsdispatch.c), the loader resolves none.

usage: ifunc_test.py PROGRAM [plain|wrapped|dispatched]
"""
import subprocess
import sys

program = sys.argv[1]


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


# The IFUNCs the loader resolves: the IRELATIVE relocations' targets, by name.
ifuncs = {}
for line in run("nm", program).splitlines():
    f = line.split()
    if len(f) == 3 and f[1] == "i":
        ifuncs.setdefault(int(f[0], 16), set()).add(f[2])
resolved = set()
for line in run("readelf", "-r", "-W", program).splitlines():
    f = line.split()
    if len(f) >= 4 and f[2].endswith("IRELATIVE"):
        resolved |= ifuncs.get(int(f[3], 16), set())
failed = 0
for call in ("hs_serialize_database", "hs_serialized_database_size",
             "hs_deserialize_database_at", "hs_stream_size"):
    ok = call not in resolved
    failed += not ok
    print(("ok:   " if ok else "FAIL: ") + f"{call} is {'not ' if ok else ''}resolved at start-up")
mode = sys.argv[2] if len(sys.argv) > 2 else "plain"
symbols = {line.split()[-1] for line in run("nm", program).splitlines() if line.strip()}
if mode == "dispatched":
    # The runtime's calls go to the build chosen from what glibc knows of the
    # processor (src/match/hsdispatch.c): the loader resolves none of Hyperscan's.
    # A static program resolves libc's own at start (no cpuid: glibc has read
    # the processor by then), and the compiler linked into it one internal
    # call whose builds' copies are local symbols, out of the linker's reach.
    static = "(NEEDED)" not in run("readelf", "-d", "-W", program)
    ours = {name for name in resolved if not static or name.startswith("hs_") or
            name == "dbIsValid"}
    ok = not ours
    failed += not ok
    print(("ok:   " if ok else "FAIL: ") + "no Hyperscan call is resolved at start-up (%s)" %
          ", ".join(sorted(ours)))
    # The test reads the right symbols: the calls are there, as each build's.
    for call in ("avx2_hs_scan_stream", "__wrap_hs_scan_stream"):
        ok = call in symbols
        failed += not ok
        print(("ok:   " if ok else "FAIL: ") + f"{call} is in the program")
else:
    # The calls a run makes are: the test reads the right relocations.
    for call in ("hs_scan_stream", "hs_open_stream"):
        ok = call in resolved
        failed += not ok
        print(("ok:   " if ok else "FAIL: ") + f"{call} is resolved at start-up")
# hs_alloc_scratch() checks the built-in database's header, not the CRC of
# its bytes (src/scan/hsimage.c), where meson found the call to wrap.
if mode in ("wrapped", "dispatched"):
    ok = "__wrap_dbIsValid" in symbols
    failed += not ok
    print(("ok:   " if ok else "FAIL: ") + "the runtime's database check is wrapped for the "
          "built-in database")
# Nor does it load libm (src/common/fmath.h): the loader mapped and searched it at
# every start for a dozen calls.
needed = [line.split()[-1] for line in run("readelf", "-d", "-W", program).splitlines()
          if "(NEEDED)" in line]
ok = not any(n.startswith("[libm.") for n in needed)
failed += not ok
print(("ok:   " if ok else "FAIL: ") + "the program loads no libm (%s)" % " ".join(needed))
sys.exit(1 if failed else 0)
