#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Installed where users are: pip and pre-commit build halluscan from the tree.

pip:        the README's `pip install --no-build-isolation .` block, run as
            written in a copy of the tree (tracked and new files, no build
            directory): the virtualenv gets the program, which scans, and
            the binding, which loads the library installed beside it.
pre-commit: the README's .pre-commit-config.yaml snippet, its `rev:` the tag
            of this version, pointed at a bare clone of that copy (file://),
            and the README's `pre-commit install --install-hooks` line: Debian's
            pre-commit builds the `halluscan` hook itself, with no halluscan
            on the PATH; a staged fake URL blocks the commit, a clean file
            passes. Then the snippet with a commit's sha as its rev (what
            the README says to pin until a tag is published) and the
            halluscan-system hook, the program pre-commit built on the PATH.
No index is asked (PIP_NO_INDEX=1): Debian's python3-mesonpy builds it.
Exits 77 (skip) when git, pre-commit or an interpreter with venv and
meson-python is missing, unless HALLUSCAN_REQUIRE_TOOLS is set (CI sets it:
there a skip is a failure).
    usage: wheel_test.py pip|pre-commit SRCDIR VERSION
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import documents
from checks import check, finish

MODE, SRC, VERSION = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
FAKE = "See https://docs.fake.example/setup for the steps.\n"
CLEAN = "Nothing here cites anything.\n"


def skip(why):
    if os.environ.get("HALLUSCAN_REQUIRE_TOOLS"):
        print("FAIL (HALLUSCAN_REQUIRE_TOOLS is set): " + why)
        sys.exit(1)
    print("skip: " + why)
    sys.exit(77)


def has_modules(python, *modules):
    if not python or not os.path.exists(python):
        return False
    p = subprocess.run([python, "-c", "import " + ", ".join(modules)], capture_output=True)
    return p.returncode == 0


def readme_block(marker, lang):
    """The fenced block that follows the HTML comment starting with marker."""
    readme = documents.text(SRC)  # README.md and docs/*.md
    m = re.search(re.escape(marker) + r"[^\n]*-->\n```%s\n(.*?)```" % lang, readme, re.S)
    check(m is not None, "README: the block after %r is there" % marker)
    if not m:
        sys.exit(1)
    return m.group(1)


if not shutil.which("git"):
    skip("no git")
tmp = tempfile.mkdtemp()
env = {k: v for k, v in os.environ.items()
       if not k.startswith(("PIP_", "VIRTUALENV_", "PRE_COMMIT", "GIT_", "HALLUSCAN_"))
       and k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "LD_LIBRARY_PATH", "LD_PRELOAD")}
env.update(HOME=tmp, PRE_COMMIT_HOME=os.path.join(tmp, "pre-commit-cache"),
           PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
           HALLUSCAN_CACHE_DIR=os.path.join(tmp, "cache"),
           GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1")
# No halluscan on the PATH: whatever runs was built here.
env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "/usr/bin:/bin").split(os.pathsep)
                              if d and not os.access(os.path.join(d, "halluscan"), os.X_OK))


def run(cmd, cwd, extra=None, timeout=900):
    e = dict(env, **(extra or {}))
    p = subprocess.run(cmd, cwd=cwd, env=e, capture_output=True, timeout=timeout)
    return p.returncode, (p.stdout + p.stderr).decode(errors="replace")


def git(repo, *args):
    rc, out = run(["git", "-C", repo] + list(args), cwd=tmp)
    if rc != 0:
        raise SystemExit("git %s: %s" % (args, out))
    return out


def copy_tree():
    """The tree as it would be committed: tracked and new files, nothing ignored."""
    rc, out = run(["git", "-C", SRC, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                  cwd=tmp)
    if rc != 0:
        skip("%s is not a git checkout" % SRC)
    dst = os.path.join(tmp, "halluscan")
    for rel in sorted(set(filter(None, out.split("\0")))):
        src = os.path.join(SRC, rel)
        if not os.path.lexists(src):
            continue  # deleted in the working tree
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel), follow_symlinks=False)
    return dst


def pip_mode():
    # The README's `python3` must have venv and meson-python (Debian's);
    # where the first on the PATH does not (pyenv), Debian's is used.
    python = next((p for p in (shutil.which("python3", path=env["PATH"]), "/usr/bin/python3")
                   if has_modules(p, "venv", "ensurepip", "mesonpy")), None)
    if not python:
        skip("no python3 with venv, ensurepip and mesonpy (python3-venv, python3-mesonpy)")
    shim = os.path.join(tmp, "shim")
    os.mkdir(shim)
    os.symlink(python, os.path.join(shim, "python3"))
    env["PATH"] = shim + os.pathsep + env["PATH"]
    block = readme_block("<!-- tests/wheel_test.py runs this block", "sh")
    tree = copy_tree()
    rc, out = run(["sh", "-ex", "-c", block], cwd=tree)
    check(rc == 0 and ("halluscan %s " % VERSION) in out and ("\n%s\n" % VERSION) in out,
          "README: pip install --no-build-isolation . in a venv, and both print %s" % VERSION, out)
    if rc != 0:
        return
    venv = os.path.realpath(os.path.join(tree, "venv"))
    prog = os.path.join(venv, "bin", "halluscan")
    for name, text, want in (("fake.md", FAKE, 1), ("clean.md", CLEAN, 0)):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
        rc, out = run([prog, "-f", "text", "--fail-on", "warn", name], cwd=tmp)
        check(rc == want and (want == 0 or "fake.md:1:5: warn:" in out),
              "the venv's halluscan on %s: exit %d" % (name, want), out)
    # From outside the tree: the binding is the installed one, and so is its library.
    probe = ("import halluscan, os\n"
             "print(os.path.realpath(halluscan.__file__))\n"
             "print(os.path.realpath(halluscan._lib._name))\n"
             "g = halluscan.Gate(contexts=['user-facing'])\n"
             "print(g.check(%r).ship, g.check(%r).ship)\n" % (FAKE, CLEAN))
    rc, out = run([os.path.join(venv, "bin", "python3"), "-c", probe], cwd=tmp)
    lines = out.split("\n")
    check(rc == 0 and len(lines) >= 3 and lines[0].startswith(venv + os.sep)
          and lines[1] == os.path.join(os.path.dirname(lines[0]), "libhalluscan.so")
          and lines[2] == "False True",
          "the venv's binding loads the library installed beside it, and gates", out)


def pre_commit_mode():
    pc = shutil.which("pre-commit", path=env["PATH"])
    if not pc:
        skip("no pre-commit")
    with open(pc, "rb") as f:
        shebang = f.readline().decode(errors="replace")
    python = shebang[2:].strip().split()[0] if shebang.startswith("#!") else None
    if python and python.endswith("/env"):
        python = shutil.which(shebang[2:].split()[1], path=env["PATH"])
    if not has_modules(python, "virtualenv", "mesonpy"):
        skip("pre-commit's interpreter %s has no virtualenv or mesonpy (python3-mesonpy)" % python)
    readme = documents.text(SRC)
    snippets = re.findall(r"```yaml\n(repos:\n.*?)```", readme, re.S)
    check(len(snippets) == 1, "README: one .pre-commit-config.yaml snippet")
    if len(snippets) != 1:
        return
    snippet = snippets[0]
    rev = re.search(r"^\s*rev:\s*(\S+)", snippet, re.M)
    check(rev is not None and rev.group(1) == "v" + VERSION,
          "README: the snippet's rev is this version's tag, v" + VERSION, snippet)
    if rev is None:
        return
    line = readme_block("<!-- tests/wheel_test.py runs this line", "sh")

    tree = copy_tree()
    git(tree, "init", "-q", "-b", "main")
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", "halluscan")
    git(tree, "tag", rev.group(1))
    bare = os.path.join(tmp, "halluscan.git")
    git(tmp, "clone", "-q", "--bare", tree, bare)
    shutil.rmtree(tree)
    config = re.sub(r"(repo:\s*)\S+", lambda m: m.group(1) + "file://" + bare, snippet, count=1)

    project = os.path.join(tmp, "project")
    os.mkdir(project)
    git(project, "init", "-q", "-b", "main")
    with open(os.path.join(project, ".pre-commit-config.yaml"), "w") as f:
        f.write(config)
    git(project, "add", ".pre-commit-config.yaml")
    check(shutil.which("halluscan", path=env["PATH"]) is None, "no halluscan on the PATH")
    rc, out = run(["sh", "-ex", "-c", line], cwd=project)
    check(rc == 0, "README: pre-commit install --install-hooks builds the hook from the clone", out)
    if rc != 0:
        return

    def commit(name, text, msg):
        with open(os.path.join(project, name), "w") as f:
            f.write(text)
        git(project, "add", name)
        return run(["git", "commit", "-q", "-m", msg], cwd=project)

    rc, out = commit("notes.md", FAKE, "fake url")
    check(rc != 0 and "notes.md:1:5: warn:" in out and "docs.fake.example" in out,
          "the built hook: a staged fake URL blocks the commit and is shown", out)
    rc, out = commit("notes.md", CLEAN, "clean")
    check(rc == 0, "the built hook: a clean file passes", out)

    # Until a tag is published, the README pins a commit: rev takes its
    # full sha. The rev is resolved as for any hook; halluscan-system, with
    # the program pre-commit just built on the PATH, spares a second build.
    sha = git(bare, "rev-parse", "HEAD").strip()
    built = [os.path.dirname(p) for p in glob.glob(os.path.join(
        env["PRE_COMMIT_HOME"], "*", "*", "bin", "halluscan"))]
    check(len(built) == 1, "pre-commit's build of halluscan is in its store", repr(built))
    if len(built) != 1:
        return
    by_sha = re.sub(r"(rev:\s*)\S+", lambda m: m.group(1) + sha, config, count=1)
    by_sha = re.sub(r"(id:\s*)halluscan\b", lambda m: m.group(1) + "halluscan-system", by_sha)
    with open(os.path.join(project, ".pre-commit-config.yaml"), "w") as f:
        f.write(by_sha)
    git(project, "add", ".pre-commit-config.yaml")
    path = {"PATH": built[0] + os.pathsep + env["PATH"]}
    rc, out = run(["sh", "-ex", "-c", line], cwd=project, extra=path)
    check(rc == 0 and "rev: " + sha in by_sha,
          "README: the snippet with a commit's sha as its rev installs from the clone", out)
    with open(os.path.join(project, "notes.md"), "w") as f:
        f.write(FAKE)
    git(project, "add", "notes.md")
    e = dict(env, **path)
    p = subprocess.run(["git", "commit", "-q", "-m", "fake url"], cwd=project, env=e,
                       capture_output=True)
    out = (p.stdout + p.stderr).decode(errors="replace")
    check(p.returncode != 0 and "notes.md:1:5: warn:" in out,
          "the hook at a sha: a staged fake URL blocks the commit", out)


try:
    {"pip": pip_mode, "pre-commit": pre_commit_mode}[MODE]()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
