#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the program takes from around it (issue 31, items 3 and 10).

- .halluscan.yaml is looked for no higher than the repository root or
  $HOME, in the working folder only when there is neither, and never in or
  above a folder anyone may write; only a regular file is read (a FIFO is
  refused at once, not waited on); the file applied is said once on stderr
  and recorded in SARIF's run (artifact and invocation).
- The nonce: the README's streaming example hands it over in
  HALLUSCAN_SPAN_NONCE, not on a command line every user can read in
  /proc, and the example works as written.
Every run has a timeout: a regression that hangs fails here, it does not
hang the suite.
    usage: trust_test.py HALLUSCAN SRCDIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import documents
from checks import check, finish

BIN, SRC = os.path.abspath(sys.argv[1]), sys.argv[2]
URL = b"See https://x.example/a.\n"
QUIET = "ignore: [fabricated_url]\n"  # a configuration that silences the finding


def run(args, cwd, home, text=URL, env=None):
    e = {k: v for k, v in os.environ.items()
         if k not in ("HALLUSCAN_CONFIG", "HALLUSCAN_SPAN_NONCE", "NO_COLOR")}
    e["HOME"] = home
    e["HALLUSCAN_CACHE_DIR"] = os.path.join(home, "cache")
    e.update(env or {})
    try:
        p = subprocess.run([BIN] + args, input=text, capture_output=True, cwd=cwd, env=e,
                           timeout=20)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", ""


def flagged(out):
    return b'"signal":"fabricated_url"' in out


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def using(err):
    return re.findall(r"^halluscan: using configuration (.*)$", err, re.M)


def discovery(t):
    home = os.path.join(t, "home")
    os.makedirs(home)

    # Neither a repository nor home above: the working folder only.
    write(os.path.join(t, "outside", ".halluscan.yaml"), QUIET)
    inner = os.path.join(t, "outside", "inner")
    os.makedirs(inner)
    rc, out, err = run([], inner, home)
    check(rc == 0 and flagged(out) and not using(err),
          "a parent's .halluscan.yaml outside any repository or home is not read (%r)" % rc)
    rc, out, err = run([], os.path.join(t, "outside"), home)
    check(rc == 0 and not flagged(out) and using(err) == [os.path.join(t, "outside", ".halluscan.yaml")],
          "the working folder's own .halluscan.yaml is read there")

    # Under home, not in a repository: up to home, and no higher.
    notes = os.path.join(home, "notes", "day")
    os.makedirs(notes)
    write(os.path.join(t, ".halluscan.yaml"), QUIET)  # above home
    rc, out, err = run([], notes, home)
    check(rc == 0 and flagged(out) and not using(err),
          "a .halluscan.yaml above $HOME is not read (%r)" % rc)
    write(os.path.join(home, ".halluscan.yaml"), QUIET)
    rc, out, err = run([], notes, home)
    check(not flagged(out) and using(err) == [os.path.join(home, ".halluscan.yaml")],
          "$HOME's .halluscan.yaml is read below it, and said on stderr once: %r" % using(err))
    # A home given through a link is the same folder.
    os.symlink(home, os.path.join(t, "home-link"))
    rc, out, err = run([], notes, os.path.join(t, "home-link"))
    check(not flagged(out) and len(using(err)) == 1, "$HOME through a symbolic link bounds the search")
    os.remove(os.path.join(home, ".halluscan.yaml"))

    # In a repository (below home or not): up to its root, whose .git may be a file.
    for git_file in (False, True):
        repo = os.path.join(home if git_file else t, "repo-%d" % git_file)
        sub = os.path.join(repo, "a", "b")
        os.makedirs(sub)
        if git_file:
            write(os.path.join(repo, ".git"), "gitdir: /elsewhere\n")
            write(os.path.join(home, ".halluscan.yaml"), QUIET)  # home is above the root
        else:
            os.mkdir(os.path.join(repo, ".git"))
        rc, out, err = run([], sub, home)
        check(flagged(out) and not using(err),
              "nothing above the repository root is read (.git a %s)" % ("file" if git_file else "folder"))
        write(os.path.join(repo, ".halluscan.yaml"), QUIET)
        rc, out, err = run([], sub, home)
        check(not flagged(out) and using(err) == [os.path.join(repo, ".halluscan.yaml")],
              "the root's .halluscan.yaml is read from below it (.git a %s)" % ("file" if git_file else "folder"))
    os.remove(os.path.join(home, ".halluscan.yaml"))

    # A folder anyone may write (a /tmp) is not climbed into, even with a .git planted in it.
    shared = os.path.join(t, "shared")
    os.makedirs(os.path.join(shared, ".git"))
    write(os.path.join(shared, ".halluscan.yaml"), QUIET)
    os.chmod(shared, 0o1777)
    mine = os.path.join(shared, "mine")
    os.mkdir(mine, 0o755)
    os.chmod(mine, 0o755)
    rc, out, err = run([], mine, home)
    check(rc == 0 and flagged(out) and not using(err),
          "a .git and .halluscan.yaml planted in a folder anyone may write are not used (%r)" % rc)
    rc, out, err = run([], shared, home)
    check(rc == 2 and "anyone may write" in err and os.path.join(shared, ".halluscan.yaml") in err,
          "in such a folder itself, its .halluscan.yaml is refused, exit 2: %r" % err.strip())
    rc, out, err = run(["--config", os.path.join(shared, ".halluscan.yaml")], shared, home)
    check(not flagged(out) and len(using(err)) == 1, "--config reads it there all the same")

    # The working folder gone: exit 2, not "no configuration".
    gone = os.path.join(t, "gone")
    os.mkdir(gone)
    try:
        p = subprocess.run(["sh", "-c", 'cd "$1" && rmdir "$1" && exec "$2"', "sh", gone, BIN],
                           input=URL, capture_output=True, timeout=20,
                           env={"PATH": os.environ.get("PATH", ""), "HOME": home})
        rc, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    check(rc == 2 and "working folder" in err, "a working folder that is gone is exit 2: %r" % err.strip())
    rc, out, err = run(["--no-config"], t, home)
    check(rc == 0 and flagged(out) and not using(err), "--no-config reads none and says nothing")


def not_files(t):
    home = os.path.join(t, "home")
    os.makedirs(home)
    cases = []
    fifo_dir = os.path.join(t, "fifo")
    os.mkdir(fifo_dir)
    os.mkfifo(os.path.join(fifo_dir, ".halluscan.yaml"))
    cases.append(("a FIFO found by the search", [], fifo_dir, {}, os.path.join(fifo_dir, ".halluscan.yaml"), "FIFO"))
    os.mkfifo(os.path.join(t, "pipe"))
    cases.append(("a FIFO named by --config", ["--config", os.path.join(t, "pipe")], t, {},
                  os.path.join(t, "pipe"), "FIFO"))
    cases.append(("a FIFO named by HALLUSCAN_CONFIG", [], t, {"HALLUSCAN_CONFIG": os.path.join(t, "pipe")},
                  os.path.join(t, "pipe"), "FIFO"))
    dir_dir = os.path.join(t, "dir")
    os.makedirs(os.path.join(dir_dir, ".halluscan.yaml"))
    cases.append(("a folder of that name", [], dir_dir, {}, os.path.join(dir_dir, ".halluscan.yaml"), "folder"))
    cases.append(("a device named by --config", ["--config", "/dev/zero"], t, {}, "/dev/zero", "device"))
    dangling = os.path.join(t, "dangling")
    os.mkdir(dangling)
    os.symlink("nowhere.yaml", os.path.join(dangling, ".halluscan.yaml"))
    cases.append(("a dangling link of that name (not skipped for a parent's)", [], dangling, {},
                  os.path.join(dangling, ".halluscan.yaml"), "No such file"))
    for what, args, cwd, env, path, says in cases:
        rc, out, err = run(args, cwd, home, env=env)
        check(rc == 2 and path in err and says in err and not out,
              "%s: exit 2 at once, naming it (%r, %r)" % (what, rc, err.strip()))

    # A link to a regular file is read; a file over 64 KiB is refused.
    linked = os.path.join(t, "linked")
    write(os.path.join(t, "shared.yaml"), QUIET)
    os.mkdir(linked)
    os.symlink(os.path.join(t, "shared.yaml"), os.path.join(linked, ".halluscan.yaml"))
    rc, out, err = run([], linked, home)
    check(not flagged(out) and using(err) == [os.path.join(linked, ".halluscan.yaml")],
          "a link to a regular file is read")
    big = os.path.join(t, "big")
    write(os.path.join(big, ".halluscan.yaml"), "# " + "x" * 70000 + "\n")
    rc, out, err = run([], big, home)
    check(rc == 2 and "larger than" in err, "a .halluscan.yaml over 64 KiB is exit 2")
    rc, out, err = run(["--config", "/dev/null"], t, home)
    check(rc == 0 and flagged(out) and not using(err), "--config /dev/null reads none, as --no-config")


def sarif(t):
    home = os.path.join(t, "home")
    repo = os.path.join(t, "repo")
    os.makedirs(os.path.join(repo, ".git"))
    os.makedirs(home)
    write(os.path.join(repo, ".halluscan.yaml"), "context: [research]\n")
    os.mkdir(os.path.join(repo, "docs"))
    doc = b"According to Smith et al. (2023), it grew 73.4%.\n"
    for cwd, uri in ((repo, ".halluscan.yaml"), (os.path.join(repo, "docs"), None)):
        rc, out, err = run(["-f", "sarif"], cwd, home, text=doc)
        try:
            run_ = json.loads(out)["runs"][0]
        except (ValueError, KeyError, IndexError):
            check(False, "SARIF is written (%r)" % err)
            continue
        path = os.path.join(repo, ".halluscan.yaml")
        want = {"uri": uri, "uriBaseId": "%SRCROOT%"} if uri else {"uri": path}
        arts = run_.get("artifacts", [])
        check(len(arts) == 1 and arts[0]["location"] == want and
              arts[0]["roles"] == ["userSpecifiedConfiguration"],
              "SARIF from %s: the configuration is an artifact of role userSpecifiedConfiguration: %r"
              % (os.path.relpath(cwd, repo), arts))
        inv = run_.get("invocations", [{}])[0]
        notes = inv.get("toolConfigurationNotifications", [])
        check(len(notes) == 1 and notes[0]["level"] == "note" and
              notes[0]["message"]["text"] == "using configuration " + path and
              notes[0]["locations"][0]["physicalLocation"]["artifactLocation"] == dict(want, index=0),
              "SARIF from %s: the invocation says which configuration was applied: %r"
              % (os.path.relpath(cwd, repo), notes))
        check(using(err) == [path], "SARIF from %s: stderr says it too" % os.path.relpath(cwd, repo))
        try:
            import jsonschema
        except ImportError:
            continue
        with open(os.path.join(SRC, "tests", "sarif", "sarif-schema-2.1.0.json")) as f:
            schema = json.load(f)
        try:
            jsonschema.validate(json.loads(out), schema)
            check(True, "SARIF with a configuration is valid 2.1.0")
        except jsonschema.ValidationError as e:
            check(False, "SARIF with a configuration is valid 2.1.0: %s" % e.message)
    rc, out, err = run(["-f", "sarif", "--no-config"], repo, home, text=doc)
    run_ = json.loads(out)["runs"][0]
    check("artifacts" not in run_ and "toolConfigurationNotifications" not in run_["invocations"][0],
          "SARIF without a configuration names none")


def nonce(t):
    """The README's streaming example, run as written with the harness's parts stubbed."""
    readme = documents.text(SRC)  # README.md and docs/*.md
    blocks = [b for b in re.findall(r"```sh\n(.*?)```", readme, re.S) if "nonce=" in b]
    check(len(blocks) == 1, "README.md and docs/ have one streaming example with a nonce")
    if not blocks:
        return
    block = blocks[0]
    check("--span-nonce" not in block and "HALLUSCAN_SPAN_NONCE" in block,
          "the example hands the nonce over in HALLUSCAN_SPAN_NONCE, not on the command line")
    bindir = os.path.join(t, "bin")
    os.mkdir(bindir)
    os.symlink(BIN, os.path.join(bindir, "halluscan"))
    # The harness wraps the tool's output in its nonce; the model spoofs a span.
    script = ('agent_transcript() { printf \'<tool_output nonce="%s">https://a.example/x'
              '</tool_output nonce="%s">\\n<tool_output>https://b.example/y</tool_output>\\n\' '
              '"$nonce" "$nonce"; }\nhold_response() { echo HELD; }\n' + block)
    env = {"PATH": bindir + ":" + os.environ.get("PATH", ""), "HOME": t}
    try:
        p = subprocess.run(["sh", "-c", script], capture_output=True, cwd=t, env=env, timeout=20)
        out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        out, err = "", "timeout"
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    found = [(r["signal"], r["text"]) for r in records if r.get("type") == "finding"]
    check(("spoofed_span", "<tool_output>") in found and
          not any(s == "fabricated_url" and "a.example" in x for s, x in found) and
          out.rstrip().endswith("HELD"),
          "the example runs: the harness's span grounds, the model's is spoofed, the reply is held "
          "(%r %r)" % (found, err.strip()))
    with open(os.path.join(SRC, "man", "halluscan.1")) as f:
        man = f.read()
    check("/proc" in man and "HALLUSCAN_SPAN_NONCE" in man,
          "the manual says why the nonce goes in HALLUSCAN_SPAN_NONCE")


for part in (discovery, not_files, sarif, nonce):
    with tempfile.TemporaryDirectory() as tmp:
        try:
            part(os.path.realpath(tmp))
        finally:
            for root, dirs, _ in os.walk(tmp):
                for d in dirs:  # a 1777 folder is removed all the same; 0700 ones too
                    os.chmod(os.path.join(root, d), 0o755)
finish()
