# SPDX-License-Identifier: MIT
"""How a Python test counts its checks and ends: one way for all of them.

    from checks import check, finish
    check(ok, "what was checked", detail)   # prints "ok   what" or "FAIL what" (+ detail)
    ...
    finish()                                 # "N passed, N failed"; exit 1 when any failed

meson reads the exit status; the lines are for the person reading the log.
"""
import sys

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
