#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Moves the library's files into folders by stage (docs/design.md, issue 33).

The library was 30 files side by side in src/. The folders say the stages a
byte passes through, from the bottom up: common/ (helpers every stage uses),
numbers/ (the number lexer, quantities, arithmetic), match/ (decoding,
Markdown code and directives, the rule packs and the engine that runs
them), ground/ (what tools, records and bibliographies said), claims/
(sentences, severity, repairs), scan/ (the pipeline that drives the
stages) and eval/ (claim/passage pairs and halluscan eval, which run the
pipeline over labelled sets). api/, cli/, input/ and output/ stay; the
chain's scratchpad, which only the program uses, joins cli/.

What it does, in a clean git tree:
  - `git mv` each file of TABLE (old path -> new path);
  - rewrites each #include "..." that no longer finds the header it found
    before (in src/, tools/, tests/, fuzz/, bench/, examples/): a header of
    src/ is then named from src/ ("numbers/numlex.h"), which the compiler
    finds through meson's include_directories('.', 'include', 'src'); an
    include that still finds its file (one beside it, say) is left alone,
    so a header of the same folder keeps its bare name; and so the includes
    that tools/embed.c and tools/mkdb.c write into the C they generate;
  - rewrites the paths TABLE names wherever the tree names them (meson.build
    source lists, scripts, comments, docs/, the manual); dated logs
    (bench/HISTORY.md) and test data are left as they were written.
It is idempotent: a file already at its new path is passed over, and a
second run changes nothing. It refuses, changing nothing, on a dirty tree,
on a file of TABLE that is at neither path (or at both), and on a library
file left at the top of src/ that TABLE does not place: add it to TABLE.
It commits nothing: read `git status` and `git diff --cached`, then commit.
    usage: scripts/restage.py [--dry-run] [ROOT]
"""
import argparse
import os
import re
import subprocess
import sys

FOLDERS = {
    "common": ["util.c", "util.h", "json.c", "json.h", "emit.c", "emit.h", "sha256.c", "sha256.h",
               "url.c", "url.h", "window.h", "fmath.h"],
    # (split from numlex.c: vocab.c, the lexer's vocabulary over
    # words/numbers.txt; periods.c, the reporting periods of its items;
    # operand.c and expression.c, with lex.h their inside)
    "numbers": ["numlex.c", "numlex.h", "lex.h", "operand.c", "expression.c", "vocab.c",
                "vocab.h", "periods.c", "quantity.c", "quantity.h", "arith.c", "arith.h"],
    "match": ["decode.c", "decode.h", "input/prescan.c", "input/prescan.h", "rules.c", "rules.h",
              "template.c", "template.h", "builtin.c", "triggers.c", "triggers.h", "engine.c",
              "engine.h", "hscompiler.h", "hscompiler_dlopen.c", "hscompiler_linked.c",
              "hsdispatch.c", "hsdispatch.h"],
    "ground": ["ground.c", "ground.h", "record.c", "record.h", "attrs.c", "attrs.h", "refs.c",
               "refs.h", "bib.c", "bib.h", "spans.c", "spans.h"],
    "claims": ["claims.c", "claims.h", "policy.c", "policy.h", "fix.c", "fix.h"],
    # (hsimage.c: Hyperscan's check of the built-in database db.c loads)
    "scan": ["db.c", "db.h", "hsimage.c", "scan.c", "scan.h", "scan_json.c", "scan_json.h"],
    "eval": ["pairs.c", "pairs.h", "eval.c", "eval.h", "stats.c", "stats.h"],
    # The chain's scratchpad is the program's alone (cli/chain.c).
    "cli": ["scratchpad.c", "scratchpad.h"],
}
TABLE = {"src/" + f: "src/%s/%s" % (d, os.path.basename(f))
         for d, fs in FOLDERS.items() for f in fs}

# Where C files are, and where the compiler looks for a quoted include after
# the includer's own folder (meson.build: include_directories('.', 'include',
# 'src'); tests/meson.build adds '..' and 'unit' for the API's tests, which
# the includer's folder and '.' cover).
C_TREES = ("src/", "tools/", "tests/", "fuzz/", "bench/", "examples/", "include/")
INCLUDE_DIRS = ("", "include", "src")
# Text that names paths: rewritten. Test data and dated logs: not.
TEXT_SUFFIXES = (".c", ".h", ".py", ".sh", ".md", ".1", ".yaml", ".toml", ".map", ".txt")
TEXT_NAMES = ("meson.build",)
LEAVE = ("fuzz/corpus/", "fuzz/repro/", "tests/fixtures/", "tests/cli/cases/", "bench/HISTORY.md",
         "bench/agents/judged.jsonl", "scripts/restage.py")
INCLUDE = re.compile(r'^(\s*#\s*include\s+")([^"]+)(")', re.M)
# An include that a build tool writes into the C it generates (tools/embed.c,
# tools/mkdb.c): the generated file is compiled in the build folder's root.
WRITTEN = re.compile(r'(#include \\")([^"\\]+)(\\")')
GENERATED = "generated.c"


def die(msg):
    sys.exit("restage: " + msg)


def git(*args):
    return subprocess.run(("git",) + args, check=True, capture_output=True,
                          text=True).stdout


def resolve(includer, name, exists):
    """The file an #include "name" in includer finds, as the compiler would, or None."""
    for d in (os.path.dirname(includer),) + INCLUDE_DIRS:
        cand = os.path.normpath(os.path.join(d, name))
        if exists(cand):
            return cand
    return None


def spelled(includer, target, exists):
    """How includer, at its new place, names target at its new place."""
    if target.startswith("src/"):
        return target[len("src/"):]
    return os.path.relpath(target, os.path.dirname(includer))


def sort_blocks(text, was, path):
    """Keeps a run of quoted includes that a rewrite touched in order by name.

    The tree's habit: a file's own header first, alone, then runs sorted
    by name; a run holding the file's own header is left as it stands.
    """
    own = os.path.splitext(os.path.basename(path))[0] + ".h"
    lines, old = text.split("\n"), was.split("\n")
    if len(lines) != len(old):
        return text
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and INCLUDE.match(lines[j]):
            j += 1
        if j - i > 1 and lines[i:j] != old[i:j]:
            names = [INCLUDE.match(x).group(2) for x in lines[i:j]]
            if not any(os.path.basename(n) == own for n in names):
                lines[i:j] = sorted(lines[i:j], key=lambda x: INCLUDE.match(x).group(2))
        i = j + 1
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="print the moves, change nothing")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    os.chdir(a.root)
    os.chdir(git("rev-parse", "--show-toplevel").strip())

    tracked = set(git("ls-files").splitlines())
    moves, missing = [], []
    for old, new in sorted(TABLE.items()):
        if old in tracked and new in tracked:
            die("%s and %s are both there: which is the file? Mend TABLE or the tree." % (old, new))
        if old in tracked:
            moves.append((old, new))
        elif new not in tracked:
            missing.append(old)
    if missing:
        die("not in the tree at its old path nor at its new one (mend TABLE): " +
            ", ".join(missing))
    placed = set(TABLE) | set(TABLE.values())
    unplaced = sorted(f for f in tracked if re.fullmatch(r"src/[^/]+\.[ch]", f) and f not in placed)
    if unplaced:
        die("library files at the top of src/ that TABLE does not place (add them to "
            "FOLDERS in scripts/restage.py): " + ", ".join(unplaced))
    if not moves:
        print("restage: every file of TABLE is in its folder already; nothing to do")
        return 0
    if a.dry_run:
        for old, new in moves:
            print("%s -> %s" % (old, new))
        return 0
    if git("status", "--porcelain", "--untracked-files=no").strip():
        die("the tree has changes that are not committed: commit or stash them first")

    # Every quoted include, resolved in the tree as it stands.
    after = {old: new for old, new in moves}
    before = {}
    for f in sorted(tracked):
        if f.startswith(C_TREES) and f.endswith((".c", ".h")):
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
            for m in INCLUDE.finditer(text):
                t = resolve(f, m.group(2), os.path.isfile)
                if t is not None:
                    before[(f, m.group(2))] = t
            for m in WRITTEN.finditer(text):
                t = resolve(GENERATED, m.group(2), os.path.isfile)
                if t is not None:
                    before[(GENERATED, m.group(2))] = t

    for old, new in moves:
        os.makedirs(os.path.dirname(new), exist_ok=True)
        git("mv", old, new)
    now = {after.get(f, f) for f in tracked}

    def exists_now(p):
        return p in now or (p not in tracked and os.path.isfile(p))

    changed = set()
    for f in sorted(tracked):
        if not (f.startswith(C_TREES) and f.endswith((".c", ".h"))):
            continue
        at = after.get(f, f)

        def fixer(includer, at):
            def fix(m):
                t = before.get((includer, m.group(2)))
                if t is None:
                    return m.group(0)
                t = after.get(t, t)
                if resolve(at, m.group(2), exists_now) == t:
                    return m.group(0)
                return m.group(1) + spelled(at, t, exists_now) + m.group(3)
            return fix
        with open(at, encoding="utf-8") as fh:
            text = fh.read()
        new_text = sort_blocks(INCLUDE.sub(fixer(f, at), text), text, at)
        new_text = WRITTEN.sub(fixer(GENERATED, GENERATED), new_text)
        if new_text != text:
            with open(at, "w", encoding="utf-8") as fh:
                fh.write(new_text)
            changed.add(at)

    # The paths themselves, wherever the tree's own text names them
    # ('src/numlex.c', '../src/input/prescan.c', `src/numlex.h`).
    names = sorted((old[len("src/"):] for old, _ in moves), key=len, reverse=True)
    path = re.compile(r"(?<![\w./-])((?:\.\./)*src/)(%s)(?![\w/-]|\.\w)" %
                      "|".join(re.escape(n) for n in names))
    for f in sorted(now):
        if f.startswith(LEAVE) or not (f.endswith(TEXT_SUFFIXES) or
                                       os.path.basename(f) in TEXT_NAMES):
            continue
        try:
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
        except UnicodeDecodeError:
            continue
        new_text = path.sub(lambda m: m.group(1) + after["src/" + m.group(2)][len("src/"):],
                            text)
        if new_text != text:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(new_text)
            changed.add(f)

    if changed:
        git("add", "--", *sorted(changed))
    print("restage: %d files moved into %d folders, %d files rewritten; "
          "read `git diff --cached --stat -M`, then commit" %
          (len(moves), len({os.path.dirname(n) for _, n in moves}), len(changed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
