#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--fix as a pre-commit hook and a filter rely on it (issue 34, part 2):
files rewritten atomically with their permissions, links never followed,
exit 1 on a change, --diff that patch(1) applies to the same text, and
the property that a repaired text scanned again holds no finding of a
repaired kind but where a repair was taken back, with every byte outside
the repairs as it was: over the bundled transcript and samples of the
corpora (../shared, skipped where absent).

usage: fix_test.py HALLUSCAN SRCDIR
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

PROGRAM, SRCDIR = sys.argv[1:3]
del sys.argv[1:3]
CORPUS = os.path.join(SRCDIR, "..", "shared", "corpus")
AGENTS = os.path.join(SRCDIR, "bench", "agents")

DOC = ("# Notes\n\nIt grew 73.4% last year, according to Smith.\n"
       "See https://docs.python.org/3/library/asyncio-task.html.\n"
       "It will definitely ship by March 2027.\n")
# The rules whose findings --fix repairs (the packs' fix: keys).
FIXED_RULES = {"url.http", "stat.decimal_percent", "stat.decimal_multiplier",
               "cite.according_to", "cite.attribution_verb", "cite.et_al_year",
               "cite.study_by", "future.certain", "future.guaranteed",
               "future.dated_release", "future.will_dated"}


def run(args, data=None, cwd=None):
    return subprocess.run([PROGRAM, "--no-config", *args], input=data, capture_output=True,
                          cwd=cwd, timeout=120)


def slurp(path):
    with open(path) as f:
        return f.read()


def records(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


class FileMode(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "doc.md")
        with open(self.path, "w") as f:
            f.write(DOC)
        os.chmod(self.path, 0o640)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def read(self, path=None):
        with open(path or self.path, "rb") as f:
            return f.read()

    def test_rewritten_in_place_with_its_mode(self):
        ino = os.stat(self.path).st_ino
        r = run(["--fix", self.path])
        self.assertEqual(r.returncode, 1, r.stderr)
        text = self.read().decode()
        self.assertIn("approximately 70%", text)
        self.assertIn("may ship by March 2027", text)
        self.assertIn("Search for: python library asyncio task", text)
        self.assertNotIn("according to Smith", text)
        self.assertEqual(stat.S_IMODE(os.stat(self.path).st_mode), 0o640)
        # Atomic: a new inode renamed over the old, nothing left beside it.
        self.assertNotEqual(os.stat(self.path).st_ino, ino)
        self.assertEqual(os.listdir(self.dir), ["doc.md"])
        self.assertIn(b"4 repairs", r.stderr)
        # Fixed is fixed: a second run changes nothing and passes.
        r = run(["--fix", self.path])
        self.assertEqual((r.returncode, r.stdout), (0, b""), r.stderr)
        self.assertEqual(self.read().decode(), text)

    def test_diff_rewrites_nothing_and_patch_applies_it(self):
        r = run(["--fix", "--diff", self.path])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(self.read().decode(), DOC)
        self.assertTrue(r.stdout.startswith(b"--- " + self.path.encode()))
        fixed = run(["--fix"], DOC.encode()).stdout
        if not shutil.which("patch"):
            self.skipTest("no patch(1)")
        out = os.path.join(self.dir, "patched")
        p = subprocess.run(["patch", "-s", "-o", out, self.path], input=r.stdout,
                           capture_output=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.read(out), fixed)
        # Nothing to repair: no diff, exit 0.
        clean = os.path.join(self.dir, "clean.md")
        with open(clean, "w") as f:
            f.write("Nothing to see.\n")
        r = run(["--fix", "--diff", clean])
        self.assertEqual((r.returncode, r.stdout), (0, b""))

    def test_a_link_is_never_followed(self):
        outside = tempfile.mkdtemp()
        try:
            target = os.path.join(outside, "secret.md")
            with open(target, "w") as f:
                f.write(DOC)
            link = os.path.join(self.dir, "link.md")
            os.symlink(target, link)
            r = run(["--fix", link])
            self.assertEqual(r.returncode, 2)
            self.assertIn(b"symbolic link", r.stderr)
            self.assertTrue(os.path.islink(link))
            self.assertEqual(self.read(target).decode(), DOC)
            # A folder walked skips links as a scan does; the file in it is repaired.
            r = run(["--fix", self.dir])
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(self.read(target).decode(), DOC)
            self.assertNotEqual(self.read().decode(), DOC)
        finally:
            shutil.rmtree(outside)

    def test_text_that_is_not_utf8_is_refused(self):
        with open(self.path, "wb") as f:
            f.write(DOC.encode("utf-16"))
        before = self.read()
        r = run(["--fix", self.path])
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"not UTF-8", r.stderr)
        self.assertEqual(self.read(), before)

    def test_a_utf8_mark_is_kept(self):
        with open(self.path, "wb") as f:
            f.write(b"\xef\xbb\xbf" + DOC.encode())
        r = run(["--fix", self.path])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertTrue(self.read().startswith(b"\xef\xbb\xbf# Notes\n"))

    def test_report_file(self):
        rep = os.path.join(self.dir, "report.jsonl")
        r = run(["--fix", "--report", rep], DOC.encode())
        self.assertEqual(r.returncode, 1)
        recs = records(slurp(rep))
        fixes = [x for x in recs if x["type"] == "fix"]
        self.assertEqual([x["rule"] for x in fixes],
                         ["stat.decimal_percent", "cite.according_to", "url.http",
                          "future.dated_release"])
        self.assertTrue(all(x["applied"] for x in fixes))
        self.assertEqual(recs[-1]["type"], "summary")
        self.assertEqual(recs[-1]["findings"], 0)
        # Standard output holds the text only.
        self.assertEqual(r.stdout.count(b"\n"), DOC.count("\n"))


class Redaction(unittest.TestCase):
    def test_credentials_stay_out_of_the_report(self):
        with tempfile.TemporaryDirectory() as d:
            rep = os.path.join(d, "rep")
            r = run(["--fix", "--report", rep],
                    b"See https://bob:s3cr3t@docs.example.com/guide/setup-steps now.\n")
            self.assertEqual(r.returncode, 1)
            self.assertEqual(r.stdout, b"See Search for: example guide setup steps now.\n")
            report = slurp(rep)
            self.assertNotIn("s3cr3t", report)
            self.assertIn("https://REDACTED@docs.example.com/guide/setup-steps", report)


def samples():
    """(name, text, source or None): the bundled transcript, then corpus replies."""
    with open(os.path.join(SRCDIR, "examples", "transcript.txt")) as f:
        yield "examples/transcript.txt", f.read(), None
    for name in ("halueval_general.jsonl", "ragtruth_dev.jsonl", "delucionqa.jsonl",
                 "hallmark_citations.jsonl"):
        path = os.path.join(CORPUS, name)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for i, line in zip(range(40), f):
                rec = json.loads(line)
                text = rec.get("response") or rec.get("text") or ""
                if isinstance(text, str) and text:
                    yield "%s:%d" % (name, i + 1), text, rec.get("source") or None
    for name in ("toolbench.jsonl", "sweagent.jsonl", "agentdojo.jsonl"):
        path = os.path.join(AGENTS, name)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for i, line in zip(range(15), f):
                for m in json.loads(line).get("messages", []):
                    if m.get("role") == "assistant" and isinstance(m.get("content"), str) \
                            and m["content"]:
                        yield "%s:%d" % (name, i + 1), m["content"], None


class Packs(unittest.TestCase):
    def test_fix_examples_pass(self):
        # --check-rules compiles afresh and repairs every fix example of the packs,
        # the built-in ones and a pack of one's own.
        r = run(["--no-cache", "--check-rules"])
        self.assertEqual(r.returncode, 0, r.stderr)
        with tempfile.TemporaryDirectory() as d:
            pack = os.path.join(d, "todo.yaml")
            with open(pack, "w") as f:
                f.write("rules:\n  - id: todo.marker\n    signal: unfinished\n"
                        "    severity: warn\n    pattern: '\\bTODO\\b'\n"
                        "    message: 'unfinished: {text}'\n    recovery: finish it\n"
                        "    fix: 'DONE'\n    fix_examples:\n"
                        "      - {text: 'a TODO here', fixed: 'a DONE here'}\n"
                        "    examples: ['a TODO here']\n    negative_examples: ['todo']\n")
            r = run(["--no-cache", "--rules", pack, "--check-rules"])
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run(["--no-cache", "--rules", pack, "--fix"], b"One TODO left.\n")
            self.assertEqual((r.returncode, r.stdout), (1, b"One DONE left.\n"))


class Rescan(unittest.TestCase):
    def test_repaired_text_holds_no_finding_of_a_repaired_kind(self):
        tmp = tempfile.mkdtemp()
        seen = repaired = 0
        try:
            for name, text, source in samples():
                args = ["--fix", "--report", os.path.join(tmp, "rep")]
                scan = []
                if source:
                    with open(os.path.join(tmp, "src"), "w") as f:
                        f.write(source)
                    args += ["--source", os.path.join(tmp, "src")]
                    scan = ["--source", os.path.join(tmp, "src")]
                data = text.encode()
                r = run(args, data)
                self.assertIn(r.returncode, (0, 1), (name, r.stderr))
                out = r.stdout
                recs = records(slurp(os.path.join(tmp, "rep")))
                fixes = [x for x in recs if x["type"] == "fix"]
                seen += 1
                # Every byte outside the repairs is as it was.
                rebuilt, at = b"", 0
                for x in fixes:
                    if not x["applied"]:
                        continue
                    rebuilt += data[at:x["start"]] + x["fixed"].encode()
                    at = x["end"]
                    repaired += 1
                rebuilt += data[at:]
                self.assertEqual(out, rebuilt, name)
                # Scanned again: a finding of a repaired rule is one whose repair was taken back.
                taken_back = {x["text"] for x in fixes if not x["applied"]}
                again = records(run(scan, out).stdout.decode())
                for f in again:
                    if f["type"] == "finding" and f["rule"] in FIXED_RULES:
                        self.assertIn(f["text"], taken_back, (name, f))
                # The report is of the text given back.
                self.assertEqual([f for f in recs if f["type"] == "finding"],
                                 [f for f in again if f["type"] == "finding"], name)
        finally:
            shutil.rmtree(tmp)
        self.assertGreater(repaired, 5)
        print("rescan: %d texts, %d repairs" % (seen, repaired), file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
