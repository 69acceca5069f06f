#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pre-commit hooks as users install them, in throwaway repositories.

1. .pre-commit-hooks.yaml's halluscan-system hook with the real pre-commit (Debian's package),
   the program on the PATH (the halluscan hook, built by pre-commit: precommit_clone_test.py):
   a staged fake URL blocks the commit and is shown; a clean file passes;
   a file with a space in its name works.
2. The README's plain git hook (.git/hooks/pre-commit): it checks what is
   staged, not the working tree, shows the findings, and handles spaces.
Skips (77) what needs a missing git or pre-commit.
    usage: precommit_test.py HALLUSCAN SRCDIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import documents
from checks import check, finish

BIN, SRC = os.path.abspath(sys.argv[1]), sys.argv[2]


if not shutil.which("git"):
    print("skip: no git")
    sys.exit(77)

tmp = tempfile.mkdtemp()
env = dict(os.environ)
env["PATH"] = os.path.dirname(BIN) + os.pathsep + env.get("PATH", "")
env["HOME"] = tmp
env["PRE_COMMIT_HOME"] = os.path.join(tmp, "pre-commit-cache")
env["HALLUSCAN_CACHE_DIR"] = os.path.join(tmp, "cache")
for k in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "NO_COLOR", "HALLUSCAN_CONFIG"):
    env.pop(k, None)
env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1")


def git(repo, *args, check_rc=True):
    p = subprocess.run(["git", "-C", repo] + list(args), capture_output=True, env=env)
    if check_rc and p.returncode != 0:
        raise SystemExit("git %s: %s" % (args, p.stderr.decode()))
    return p


def new_repo(name):
    repo = os.path.join(tmp, name)
    os.mkdir(repo)
    git(repo, "init", "-q", "-b", "main")
    return repo


def write(repo, path, text):
    with open(os.path.join(repo, path), "w") as f:
        f.write(text)


def commit(repo, msg):
    p = git(repo, "commit", "-q", "-m", msg, check_rc=False)
    return p.returncode, (p.stdout + p.stderr).decode()


FAKE = "See https://docs.fake.example/setup for the steps.\n"
CLEAN = "Nothing here cites anything.\n"


def with_pre_commit():
    if not shutil.which("pre-commit"):
        print("skip pre-commit: not installed")
        return
    hooks = new_repo("hooks")
    shutil.copy(os.path.join(SRC, ".pre-commit-hooks.yaml"), hooks)
    git(hooks, "add", ".")
    git(hooks, "commit", "-q", "-m", "hooks")
    rev = git(hooks, "rev-parse", "HEAD").stdout.decode().strip()
    repo = new_repo("project")
    write(repo, ".pre-commit-config.yaml",
          "repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: halluscan-system\n" % (hooks, rev))
    git(repo, "add", ".pre-commit-config.yaml")
    p = subprocess.run(["pre-commit", "install"], cwd=repo, capture_output=True, env=env)
    check(p.returncode == 0, "pre-commit install", p.stderr.decode())
    rc, out = commit(repo, "config")
    check(rc == 0, "pre-commit: a commit with no text file passes", out)
    write(repo, "notes.md", FAKE)
    git(repo, "add", "notes.md")
    rc, out = commit(repo, "fake url")
    check(rc != 0 and "notes.md:1:5: warn:" in out and "docs.fake.example" in out,
          "pre-commit: a staged fake URL blocks the commit and is shown", out)
    write(repo, "notes.md", CLEAN)
    git(repo, "add", "notes.md")
    rc, out = commit(repo, "clean")
    check(rc == 0, "pre-commit: a clean file passes", out)
    write(repo, "my notes.txt", FAKE)
    git(repo, "add", "my notes.txt")
    rc, out = commit(repo, "space")
    check(rc != 0 and "my notes.txt:1:5: warn:" in out,
          "pre-commit: a file with a space in its name is checked", out)
    write(repo, "my notes.txt", CLEAN)
    git(repo, "add", "my notes.txt")
    rc, out = commit(repo, "space, clean")
    check(rc == 0, "pre-commit: ... and passes once clean", out)


def readme_hook():
    readme = documents.text(SRC)  # README.md and docs/*.md
    m = re.search(r"```sh\n(#!/bin/sh\n# \.git/hooks/pre-commit.*?)```", readme, re.S)
    check(m is not None, "README: the git hook is there")
    if not m:
        return
    repo = new_repo("plain")
    hook = os.path.join(repo, ".git", "hooks", "pre-commit")
    with open(hook, "w") as f:
        f.write(m.group(1))
    os.chmod(hook, 0o755)
    write(repo, "a doc.md", FAKE)
    git(repo, "add", "a doc.md")
    write(repo, "a doc.md", CLEAN)  # the working tree is clean, the index is not
    rc, out = commit(repo, "staged fake")
    check(rc != 0 and "a doc.md:1:5: warn:" in out,
          "README hook: the staged content is checked, and shown", out)
    git(repo, "add", "a doc.md")
    rc, out = commit(repo, "clean")
    check(rc == 0, "README hook: a clean file passes", out)
    git(repo, "mv", "a doc.md", "renamed doc.md")
    write(repo, "renamed doc.md", FAKE)
    git(repo, "add", "renamed doc.md")
    rc, out = commit(repo, "renamed")
    check(rc != 0 and "renamed doc.md:1:5" in out, "README hook: a renamed file is checked", out)


try:
    with_pre_commit()
    readme_hook()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
