#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Issue 31, items 7 and 8: what hostile input cannot make the output do.

 - Output is UTF-8 JSON a strict reader takes: with --records, invalid
   UTF-8 and lone surrogate escapes inside a record are replaced (U+FFFD)
   and counted, not echoed; an error record carries no lone surrogate.
 - A folder walk follows no symbolic link: not out of the tree, not round
   a loop.
 - Credentials in a URL (user:token@host) are redacted in every format,
   the fingerprint and the baseline; the message names the host.
    usage: security_test.py HALLUSCAN SRCDIR
"""
import json
import os
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, SRC = os.path.abspath(sys.argv[1]), sys.argv[2]


def run(args, data=b"", cwd=None, timeout=60):
    return subprocess.run([BIN, "--no-config"] + args, input=data, capture_output=True,
                          cwd=cwd, timeout=timeout)


def strict(line):
    """The line as a strict reader takes it: UTF-8, JSON, no lone surrogate
    anywhere in it (re-encoding every string as UTF-8 raises on one)."""
    try:
        v = json.loads(line.decode("utf-8", errors="strict"))
        json.dumps(v, ensure_ascii=False).encode("utf-8", errors="strict")
        return v
    except (UnicodeError, ValueError):
        return None


def all_strict(out, what):
    lines = out.splitlines()
    bad = [ln for ln in lines if strict(ln) is None]
    check(lines and not bad, what + ": every line strict UTF-8 JSON" +
          (" (not: %r)" % bad[0][:120] if bad else ""))
    return [strict(ln) for ln in lines if not bad]


# ---- item 7: records ----

def records():
    cases = [
        # invalid UTF-8 in the scanned field and in another member
        (b'{"id":"a\xff","response":"See https://docs.example.com/x\xc3 now, 73.4% of it."}',
         "invalid UTF-8 bytes"),
        # a lone low surrogate escape that the reader takes (surrogateescape)
        (b'{"id":"\\udc80","response":"It grew 73.4%. \\udcff"}', "lone \\udcXX escape"),
        # a pair stays a pair: it is a character
        (b'{"id":"\\ud83d\\ude00","response":"fine"}', "surrogate pair"),
    ]
    for rec, what in cases:
        r = run(["--records", "--field", "response"], rec + b"\n")
        out = all_strict(r.stdout, "records, " + what)
        if not out:
            continue
        h = out[0].get("halluscan", {})
        if what == "surrogate pair":
            check(out[0]["id"] == "\U0001F600" and "replaced" not in h,
                  "records, a surrogate pair is one character, nothing replaced")
            check(r.stdout.startswith(rec[:-1]),
                  "records, a valid record is echoed byte for byte")
            continue
        check(h.get("replaced", 0) >= 2, "records, %s: the replacements counted (%r)" %
              (what, h.get("replaced")))
        check("\ufffd" in out[0]["id"], "records, %s: U+FFFD stands in the id" % what)
        check(h.get("verdict") in ("warn", "block") and h.get("findings"),
              "records, %s: the record is still scanned" % what)
        check(b"replaced" in r.stderr, "records, %s: said on standard error (%r)" %
              (what, r.stderr[:200]))
    # error records: a line that is not JSON, holding bytes that are not UTF-8
    for line, what in [(b'not json \xff\xfe here', "not JSON"),
                       (b'[1, "\xc3"]', "not an object"),
                       (b'{"a":"\\ud800"}', "a lone high surrogate escape")]:
        r = run(["--records", "--field", "response"], line + b"\n")
        out = all_strict(r.stdout, "records error, " + what)
        check(r.returncode == 2, "records error, %s: exit 2" % what)
        if out:
            check("error" in out[0].get("halluscan", {}) and "input" in out[0],
                  "records error, %s: an error member and the input" % what)
    # -j 2 gives the same bytes
    data = b'{"id":"a\xff","response":"73.4% \\udc80"}\n{"response":"ok"}\n\xff\n'
    one = run(["--records", "--field", "response"], data)
    two = run(["--records", "--field", "response", "-j", "2"], data)
    check(one.stdout == two.stdout, "records, -j 2 writes the same lines")


# ---- item 8: symbolic links ----

def symlinks():
    with tempfile.TemporaryDirectory() as tmp:
        outside = os.path.join(tmp, "outside")
        tree = os.path.join(tmp, "tree")
        os.makedirs(outside)
        os.makedirs(os.path.join(tree, "docs"))
        with open(os.path.join(outside, "secret.md"), "w") as f:
            f.write("The secret grew 73.4% at https://secret.example.com/leak.\n")
        with open(os.path.join(tree, "docs", "a.md"), "w") as f:
            f.write("Nothing here.\n")
        os.symlink(os.path.join(outside, "secret.md"), os.path.join(tree, "docs", "link.md"))
        os.symlink(outside, os.path.join(tree, "docs", "out"))
        os.symlink("..", os.path.join(tree, "docs", "loop"))
        os.symlink("self.md", os.path.join(tree, "docs", "self.md"))
        try:
            r = run([tree], timeout=20)
        except subprocess.TimeoutExpired:
            check(False, "walk: a link loop ends")
            return
        paths = {json.loads(ln)["path"] for ln in r.stdout.splitlines()}
        check(paths == {os.path.join(tree, "docs", "a.md")},
              "walk: no link followed, to a file or a folder out of the tree (%r)" % paths)
        check(b"secret" not in r.stdout, "walk: nothing of the file outside is written")
        check(r.returncode == 0, "walk: exit 0 (%d, %r)" % (r.returncode, r.stderr[:200]))
        # A file named on the command line is read through its link.
        r = run([os.path.join(tree, "docs", "link.md")])
        check(b"secret.example.com" in r.stdout, "walk: a link named as a FILE is read")


# ---- item 8: credentials in URLs ----

CRED = b"hunter2tok"


def credentials():
    doc = (b"Clone https://alice:" + CRED + b"@git.example.com:8443/team/repo.git now.\n"
           b"Or http://" + CRED + b":p@ss@10.0.0.1/x and https://bob@host.example.org/p?q=1.\n")
    hosts = ["git.example.com", "10.0.0.1", "host.example.org"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "doc.md")
        with open(path, "wb") as f:
            f.write(doc)
        for fmt in ["jsonl", "text", "sarif", "github"]:
            extra = ["--show-recovery"] if fmt == "text" else []
            r = run(["-f", fmt] + extra + ["doc.md"], cwd=tmp)
            check(r.returncode in (0, 1) and CRED not in r.stdout and b"alice" not in r.stdout
                  and b"bob@" not in r.stdout,
                  "urls, %s: no credential written (%r)" % (fmt, r.stdout[:300]))
            for h in hosts:
                check(("URL on %s " % h).encode() in r.stdout,
                      "urls, %s: the message names the host %s" % (fmt, h))
        r = run(["doc.md"], cwd=tmp)
        found = [json.loads(ln) for ln in r.stdout.splitlines()]
        texts = [f["text"] for f in found if f.get("type") == "finding"]
        check(texts == ["https://REDACTED@git.example.com:8443/team/repo.git",
                        "http://REDACTED@10.0.0.1/x",
                        "https://REDACTED@host.example.org/p?q=1"],
              "urls, jsonl: the text keeps all but the userinfo (%r)" % texts)
        # columns still say where the URL is: github's endColumn counts the input's code points
        r = run(["-f", "github", "doc.md"], cwd=tmp)
        first = r.stdout.splitlines()[0].decode()
        url = "https://alice:%s@git.example.com:8443/team/repo.git" % CRED.decode()
        check("col=7,endColumn=%d" % (7 + len(url)) in first,
              "urls, github: the columns are the input's (%s)" % first[:90])
        # claims quote the sentence: redacted too
        r = run(["--claims", "doc.md"], cwd=tmp)
        check(CRED not in r.stdout and b"alice" not in r.stdout, "urls, claims: redacted")
        # records: the annotation is redacted (the record itself is the caller's)
        rec = json.dumps({"response": doc.decode()}).encode() + b"\n"
        r = run(["--records", "--field", "response"], rec)
        ann = json.dumps(json.loads(r.stdout)["halluscan"]).encode()
        check(CRED not in ann and b"alice" not in ann, "urls, records: the annotation is redacted")
        # a baseline holds no credential and matches the next run, and a
        # rotated token keeps the same fingerprint
        base = os.path.join(tmp, "base.jsonl")
        r = run(["--write-baseline", base, "doc.md"], cwd=tmp)
        with open(base, "rb") as f:
            held = f.read()
        check(held and CRED not in held and b"alice" not in held,
              "urls, baseline: no credential in the file")
        fps = [json.loads(ln)["fingerprint"] for ln in run(["doc.md"], cwd=tmp).stdout.splitlines()
               if b'"finding"' in ln]
        with open(path, "wb") as f:
            f.write(doc.replace(CRED, b"rotated9999"))
        r = run(["--baseline", base, "doc.md"], cwd=tmp)
        check(r.returncode == 0 and b'"finding"' not in r.stdout,
              "urls, baseline: matches after the token is rotated")
        fps2 = [json.loads(ln)["fingerprint"] for ln in run(["doc.md"], cwd=tmp).stdout.splitlines()
                if b'"finding"' in ln]
        check(fps and fps == fps2, "urls: the fingerprint does not depend on the credential")


records()
symlinks()
credentials()
finish()
