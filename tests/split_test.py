# SPDX-License-Identifier: MIT
"""scripts/split.py on a small stage of its own: what moves, what is shared, what it refuses.

The real table is run on the tree once (its commit); this test holds the rules the
coordinator relies on when running it again: a listed function moves with its comment
and the helpers only it uses; a small helper both files use goes to the private header
inline, a larger one loses static and is declared there; the result compiles; a second
run changes nothing; a missing name is refused (exit 2) with nothing changed.
    usage: split_test.py SRCROOT
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

ROOT = sys.argv[1]
spec = importlib.util.spec_from_file_location("split", os.path.join(ROOT, "scripts", "split.py"))
split = importlib.util.module_from_spec(spec)
spec.loader.exec_module(split)

A_H = """/* SPDX-License-Identifier: MIT */
#ifndef ST_A_H
#define ST_A_H
int a_run(int x);
int b_run(int x);
#endif
"""
A_C = """// SPDX-License-Identifier: MIT
/* Both jobs. */
#include "a.h"

#include <string.h>

#define LIMIT 4

struct box {
	int v[LIMIT];
};

/* Doubles x: both jobs use it. */
static int twice(int x)
{
	return 2 * x;
}

/* Long enough to be declared, not inlined. */
static int slow(struct box *b, int x)
{
	int i, s = 0;

	for (i = 0; i < LIMIT; i++)
		b->v[i] = x + i;
	for (i = 0; i < LIMIT; i++)
		s += b->v[i];
	for (i = 0; i < LIMIT; i++)
		s -= i;
	if (s < 0)
		s = -s;
	if (s > 1000)
		s = 1000;
	if (s == 7)
		s = 8;
	return s;
}

/* ---- the second job ---- */

static const int steps[] = {1, 2, 3};

/* Only b_run() uses it. */
static int step_sum(void)
{
	return steps[0] + steps[1] + steps[2];
}

/* The second job. */
int b_run(int x)
{
	struct box b;

	return twice(x) + slow(&b, x) + step_sum();
}

int a_run(int x)
{
	struct box b;

	memset(&b, 0, sizeof(b));
	return twice(x) + slow(&b, x) + b_run(x);
}
"""
MESON = "core_src = files(\n  'src/st/a.c',\n)\n"
TABLE = {"src/st/a.c": ("src/st/a_int.h", "The first job.", [
    ("src/st/b.c", "The second job.", ["b_run"])])}


def tree(tmp, c=A_C):
    os.makedirs(os.path.join(tmp, "src", "st"))
    for path, text in (("src/st/a.c", c), ("src/st/a.h", A_H), ("meson.build", MESON)):
        with open(os.path.join(tmp, path), "w", encoding="utf-8") as fh:
            fh.write(text)


def run(tmp):
    """split.py's main() on tmp with TABLE: its exit status and stderr."""
    split.SPLITS, split.INLINE = TABLE, {}
    argv, sys.argv = sys.argv, ["split.py", tmp]
    cwd = os.getcwd()
    status = 0
    try:
        status = split.main() or 0
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 2
    finally:
        sys.argv = argv
        os.chdir(cwd)
    return status


def read(tmp, path):
    p = os.path.join(tmp, path)
    if not os.path.exists(p):
        return None
    with open(p, encoding="utf-8") as fh:
        return fh.read()


def snapshot(tmp):
    out = {}
    for d, _, fs in os.walk(tmp):
        for f in fs:
            p = os.path.join(d, f)
            out[os.path.relpath(p, tmp)] = read(tmp, os.path.relpath(p, tmp))
    return out


tmp = tempfile.mkdtemp(prefix="split-test-")
try:
    tree(tmp)
    check(run(tmp) == 0, "split.py cuts a file by a table")
    a, b, h = read(tmp, "src/st/a.c"), read(tmp, "src/st/b.c"), read(tmp, "src/st/a_int.h")
    check(b is not None and "int b_run(int x)" in b and "/* The second job. */" in b,
          "the listed function moves with its comment", b)
    check(a is not None and "b_run(int x)\n{" not in a and "int a_run(int x)" in a,
          "and leaves its file", a)
    check(b and "static int step_sum(void)" in b and "static const int steps[]" in b and
          a and "step_sum" not in a, "a helper and a table only it uses go with it, static", b)
    check(b and "/* ---- the second job ---- */" in b, "the section's heading goes with it", b)
    check(h and "static inline int twice(int x)" in h, "a small shared helper is inlined from "
          "the private header", h)
    check(h and "int slow(struct box *b, int x);" in h and "static int slow" not in (a or ""),
          "a larger one loses static and is declared there", h)
    check(h and "struct box {" in h and "#define LIMIT 4" in h, "the type and macro both use "
          "are in the header", h)
    check(a and a.startswith("// SPDX-License-Identifier: MIT\n/* The first job. */\n"
                             "#include \"a.h\"\n#include \"a_int.h\"\n"),
          "the source says its job and includes the header after its own", a)
    check("'src/st/b.c'," in read(tmp, "meson.build"), "meson.build lists the new file")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc:
        p = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", "-o", os.devnull,
                            "src/st/a.c"], cwd=tmp, capture_output=True, text=True)
        q = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-c", "-o", os.devnull,
                            "src/st/b.c"], cwd=tmp, capture_output=True, text=True)
        check(p.returncode == 0 and q.returncode == 0, "both files compile without a warning",
              p.stderr + q.stderr)
    before = snapshot(tmp)
    check(run(tmp) == 0 and snapshot(tmp) == before, "a second run changes nothing")
finally:
    shutil.rmtree(tmp)

tmp = tempfile.mkdtemp(prefix="split-test-")
try:
    tree(tmp, A_C.replace("b_run", "b_start"))
    before = snapshot(tmp)
    check(run(tmp) == 2 and snapshot(tmp) == before,
          "a listed name that is not there is refused (exit 2), nothing changed")
finally:
    shutil.rmtree(tmp)
finish()
