#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the layers of src/ as its #include lines make them (docs/design.md).

A module is a .c file with its .h (src/scan/scan.c and src/scan/scan.h are "scan").
An include is resolved as the compiler's -I options do here: beside the
file, then under src/, then under include/. A module's floor is 1 above the
highest module it includes, so every include runs downhill except those of
a circle, which are listed. Then the calls between files: a .c calling a
function another .c defines without `static` (read from the text, with
comments, strings and character literals taken out), and the circles they
make. Last the calls up through function pointers: a function a file hands
(its own, or one of its stage's) to a function another file defines, as an
argument of a function-pointer type, for that file to call (a callback), counted per pointer type (a
typedef, or a parameter's own `int (*fn)(...)` named after its function);
a pointer stored in a struct by assignment is not seen. --check fails on
an include, folder or call circle (meson test `layers`).
    usage: scripts/layers.py [--check] [SRCDIR]
"""
import collections
import glob
import os
import re
import sys

args = sys.argv[1:]
check = "--check" in args
args = [a for a in args if a != "--check"]
root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
os.chdir(root)
files = sorted(glob.glob("src/**/*.[ch]", recursive=True)) + ["include/halluscan.h"]
lines = collections.Counter()
edges = collections.defaultdict(set)
for f in files:
    m = f[:-2]
    with open(f, encoding="utf-8") as fh:
        text = fh.read()
    lines[m] += text.count("\n")
    for inc in re.findall(r'^#include "([^"]+)"', text, re.M):
        for cand in (os.path.join(os.path.dirname(f), inc), os.path.join("src", inc),
                     os.path.join("include", inc)):
            if os.path.exists(cand):
                t = os.path.normpath(cand)[:-2]
                if t != m:
                    edges[m].add(t)
                break  # one not found is generated (config.h) or the system's
# A module's inside: a header with no .c of its own, in a loop with one module.
for h in sorted(m for m in lines if not os.path.exists(m + ".c") and m.startswith("src/")):
    hosts = [m for m in edges[h] if h in edges[m] and os.path.exists(m + ".c")]
    if len(hosts) == 1:
        host = hosts[0]
        lines[host] += lines.pop(h)
        edges[host] |= edges.pop(h)
        edges[host] -= {h, host}
        for m in edges:
            if h in edges[m]:
                edges[m].discard(h)
                if m != host:
                    edges[m].add(host)
mods = sorted(lines)

# Circles: strongly connected modules (Tarjan), then floors over them.
sys.setrecursionlimit(10000)


def strongly_connected(nodes, arrows):
    """The groups of more than one node that reach one another."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(arrows[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in nodes:
        if v not in index:
            connect(v)
    return found


circles = strongly_connected(mods, edges)
circle_of = {v: tuple(c) for c in circles for v in c}
floor = {}


def floor_of(v):
    if v not in floor:
        floor[v] = 0  # inside a circle: its members share a floor
        below = [floor_of(w) for w in edges[v] if circle_of.get(w) is None or circle_of.get(w) != circle_of.get(v)]
        floor[v] = 1 + max(below, default=0)
        for w in circle_of.get(v, ()):
            floor[w] = floor[v]
    return floor[v]


for v in mods:
    floor_of(v)
out = []
by = collections.defaultdict(list)
for v in mods:
    by[floor[v]].append(v)
out.append("floor  modules (lines, .c and .h together); each includes only floors below it")
for k in sorted(by, reverse=True):
    out.append("%5d  %s" % (k, ", ".join("%s %d" % (v.replace("src/", ""), lines[v]) for v in by[k])))
out.append("include circles: %s" % ("; ".join(" <-> ".join(c) for c in circles) or "none"))
big = [(v, lines[v]) for v in mods if lines[v] > 1500]
out.append("modules over 1,500 lines: %s" % ", ".join("%s %d" % b for b in sorted(big, key=lambda b: -b[1])))
# Issue 33 asks it of files: a module's count holds its headers (the private one too).
flen = {f: open(f, encoding="utf-8").read().count("\n") for f in files if f.startswith("src/")}
out.append("files over 1,500 lines: %s" % (", ".join(
    "%s %d" % (f.replace("src/", ""), n) for f, n in sorted(flen.items(), key=lambda x: -x[1])
    if n > 1500) or "none"))

# The folders of src/ (the stages): an arrow where a module of one includes one of the other.
def folder(m):
    parts = m.split("/")
    return parts[1] if parts[0] == "src" and len(parts) > 2 else parts[0]


fedges = collections.defaultdict(set)
flines = collections.Counter()
for m in mods:
    flines[folder(m)] += lines[m]
    for w in edges[m]:
        if folder(w) != folder(m):
            fedges[folder(m)].add(folder(w))
up = {}


def fdepth(f, seen=()):
    if f in seen:
        return 0
    if f not in up:
        up[f] = 1 + max((fdepth(w, seen + (f,)) for w in fedges[f]), default=0)
    return up[f]


out.append("")
out.append("folder (lines)      includes modules of")
for f in sorted(flines, key=lambda f: (-fdepth(f), f)):
    out.append("%-19s %s" % ("%s %d" % (f, flines[f]), ", ".join(sorted(fedges[f])) or "-"))
floops = sorted({tuple(sorted((f, w))) for f in fedges for w in fedges[f] if f in fedges[w]})
out.append("folder circles: %s" % ("; ".join(" <-> ".join(c) for c in floops) or "none"))

# Calls between files: who calls a function that another file defines for the library.
def code_of(path):
    with open(path, encoding="utf-8") as fh:
        t = fh.read()
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    t = re.sub(r"//[^\n]*", " ", t)
    t = re.sub(r"'(\\.|[^'\\])'", "0", t)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', t)


cfiles = [f for f in files if f.endswith(".c")]
code = {f: code_of(f) for f in cfiles}
defined = {}
for f in cfiles:
    for m in re.finditer(r"^(?!static\b)[a-z][\w \*]*?\b([a-z_]\w*)\((?=[^;{]*\)\s*$|[^;]*$)",
                         code[f], re.M):
        defined.setdefault(m.group(1), f)
calls = collections.defaultdict(set)
called = collections.defaultdict(set)
for f in cfiles:
    for name in set(re.findall(r"\b([a-z_]\w*)\s*\(", code[f])):
        g = defined.get(name)
        if g and g != f:
            calls[f].add(g)
            called[(f, g)].add(name)
call_circles = strongly_connected(cfiles, calls)
out.append("call circles: %s" % ("; ".join(
    ", ".join("%s -> %s (%s)" % (a, b, ", ".join(sorted(called[(a, b)])))
              for a in c for b in sorted(calls[a] & set(c)))
    for c in call_circles) or "none"))


# Calls up through function pointers: the pointer types, the parameters of them, then
# the calls that pass a function of the caller's own file at that place.
def top_split(t):
    """t split at its commas outside parentheses, brackets and braces."""
    parts, depth, cur = [], 0, ""
    for ch in t:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def args_at(text, i):
    """The text between the parenthesis at text[i] and its match, or None."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
    return None


hcode = {f: code_of(f) for f in files if f.endswith(".h")}
fntypes = {}
for f, t in hcode.items():
    for m in re.finditer(r"typedef\s[^;(]*\(\s*\*\s*(\w+)\s*\)\s*\(", t):
        fntypes[m.group(1)] = f
takes = {}  # function -> {parameter index: pointer type}
for f, t in list(hcode.items()) + list(code.items()):
    for m in re.finditer(r"\b([a-z_]\w*)\s*\(", t):
        if m.group(1) in ("if", "while", "for", "switch", "return", "sizeof"):
            continue
        inner = args_at(t, m.end() - 1)
        if inner is None or not re.match(r"\s*[;{]", t[m.end() + len(inner) + 1:]):
            continue  # not a declaration or definition
        for k, par in enumerate(top_split(inner)):
            own = re.match(r"\s*(?:const\s+)?\w+\s*\(\s*\*\s*(\w+)\s*\)\s*\(", par)
            name = re.match(r"\s*(?:const\s+)?(\w+)\s+\**\s*\w+\s*$", par)
            if own:
                takes.setdefault(m.group(1), {})[k] = "%s()'s %s" % (m.group(1), own.group(1))
            elif name and name.group(1) in fntypes:
                takes.setdefault(m.group(1), {})[k] = name.group(1)
local = {f: set(re.findall(r"^(?:static\s+)?(?:inline\s+)?[a-z][\w \*]*?\b([a-z_]\w*)\(",
                           code[f], re.M)) for f in cfiles}
named = set().union(*local.values())
ups = collections.defaultdict(set)  # pointer type -> {(caller, callback, callee file)}
for f in cfiles:
    for m in re.finditer(r"\b([a-z_]\w*)\s*\(", code[f]):
        g = defined.get(m.group(1))
        if m.group(1) not in takes or g is None or g == f:
            continue
        inner = args_at(code[f], m.end() - 1)
        parts = top_split(inner) if inner is not None else []
        for k, typ in takes[m.group(1)].items():
            a = parts[k].strip() if k < len(parts) else ""
            if a in named and a not in local[g]:
                ups[typ].add((f, a, g))
out.append("calls up through function pointers: %d (pointer type, then the callers' files "
           "and the functions they hand down)" % sum(len(v) for v in ups.values()))
for typ in sorted(ups, key=lambda t: (-len(ups[t]), t)):
    out.append("  %-26s %d  %s" % (typ, len(ups[typ]), ", ".join(
        "%s %s" % (f.replace("src/", ""), cb) for f, cb, _ in sorted(ups[typ]))))
if not check:
    print("\n".join(out))
elif circles or floops or call_circles:
    sys.exit("layers: circles: %s" % "; ".join(" <-> ".join(c) for c in circles + floops
                                                 + call_circles))
