# SPDX-License-Identifier: MIT
"""How a Python test counts its checks and ends: one way for all of them.

    from checks import check, finish
    check(ok, "what was checked", detail)   # prints "ok   what" or "FAIL what" (+ detail)
    ...
    finish()                                 # "N passed, N failed"; exit 1 when any failed
    tmp = scratch("halluscan-x-")            # a folder removed when the test exits

meson reads the exit status; the lines are for the person reading the log.
"""
import atexit
import shutil
import sys
import tempfile

_passed = 0
_failed = []


def check(ok, what, detail=""):
    """Count one check; print it, and the detail when it failed. Returns ok."""
    global _passed
    print(("ok   " if ok else "FAIL ") + what)
    if ok:
        _passed += 1
    else:
        _failed.append(what)
        if detail:
            print(detail)
    return bool(ok)


def failed():
    """How many checks have failed so far."""
    return len(_failed)


def finish():
    """End the test: a count line, and status 1 when any check failed."""
    print("%d passed, %d failed" % (_passed, len(_failed)))
    sys.exit(1 if _failed else 0)


def scratch(prefix):
    """A new folder for the test's files, removed with all it holds when the
    test exits, passed or failed (one test's inputs and outputs run to
    hundreds of MB: left behind, a few hundred runs fill a disk)."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path
