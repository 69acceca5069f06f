#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The formats and the review tools of issue 13, end to end.

SARIF validates against the official 2.1.0 schema (tests/sarif/); colour
follows --color and NO_COLOR; a baseline written today still holds after
lines are added above its findings; every input that cannot be read is
one error record. Transcripts (--input chat) give in text, SARIF and github
the findings JSONL gives, each saying its record, message and role.
    usage: formats_test.py HALLUSCAN SRCDIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, SRC = os.path.abspath(sys.argv[1]), sys.argv[2]


def run(args, text=b"", cwd=None, env=None):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.update(env or {})
    return subprocess.run([BIN, "--no-config"] + args, input=text, capture_output=True,
                          cwd=cwd, env=e)


DOC = (b"See https://docs.example.com/x. It grew 73.4%.\n"
       b"According to Smith et al. (2023), it will definitely ship by March 2027.\n")


def sarif():
    try:
        import jsonschema
    except ImportError:
        print("skip SARIF schema: python3-jsonschema is not installed")
        return
    with open(os.path.join(SRC, "tests", "sarif", "sarif-schema-2.1.0.json")) as f:
        schema = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "a b.md"), "wb") as f:
            f.write(DOC)
        with open(os.path.join(tmp, "grounded.md"), "wb") as f:
            f.write(b"<tool_output>See https://help.example.com/refunds</tool_output>\n"
                    b"See https://help.example.com/refunds.\n")
        os.mkdir(os.path.join(tmp, "docs"))
        with open(os.path.join(tmp, "docs", "c.md"), "wb") as f:
            f.write(b"Nothing to see.\n")
        cases = {
            "findings": ["-f", "sarif", "--context", "research", "a b.md", "docs"],
            "absolute path": ["-f", "sarif", os.path.join(tmp, "a b.md")],
            "nothing": ["-f", "sarif", "docs"],
            "a missing file": ["-f", "sarif", "a b.md", "missing.md"],
            "grounded repeats": ["-f", "sarif", "--show-grounded", "grounded.md"],
        }
        for name, args in cases.items():
            p = run(args, cwd=tmp)
            try:
                log = json.loads(p.stdout)
                jsonschema.validate(log, schema)
                valid = True
            except Exception as e:  # noqa: BLE001 - any failure is the test's
                print(e)
                valid = False
            check(valid, "SARIF validates against the 2.1.0 schema: " + name)
        log = json.loads(run(cases["findings"], cwd=tmp).stdout)
        run0 = log["runs"][0]
        res = run0["results"]
        check(len(res) == 4, "SARIF: one result per finding (%d)" % len(res))
        rules = run0["tool"]["driver"]["rules"]
        check(all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in res),
              "SARIF: ruleIndex points at ruleId")
        check(run0["columnKind"] == "unicodeCodePoints", "SARIF: columnKind said")
        loc = res[0]["locations"][0]["physicalLocation"]
        check(loc["artifactLocation"]["uri"] == "a%20b.md", "SARIF: uri relative and encoded")
        check(sorted(r["level"] for r in res) == ["error", "warning", "warning", "warning"],
              "SARIF: block is error, warn is warning")
        check(all(len(r["partialFingerprints"]["halluscan/v1"]) == 16 for r in res),
              "SARIF: partialFingerprints")
        p = run(cases["a missing file"], cwd=tmp)
        inv = json.loads(p.stdout)["runs"][0]["invocations"][0]
        check(p.returncode == 2 and not inv["executionSuccessful"] and
              "missing.md" in inv["toolExecutionNotifications"][0]["message"]["text"],
              "SARIF: an unreadable input is a notification, and exit 2")


def colour():
    plain = run(["-f", "text"], DOC)
    check(b"\033[" not in plain.stdout, "text: no colour off a terminal")
    forced = run(["-f", "text", "--color=always"], DOC, env={"NO_COLOR": "1"})
    check(b"\033[" in forced.stdout, "text: --color=always wins over NO_COLOR")
    bare = run(["-f", "text", "--color"], DOC)
    check(b"\033[" in bare.stdout, "text: --color alone is always")
    try:
        import pty
        for env, want in (({}, True), ({"NO_COLOR": "1"}, False)):
            pid, fd = pty.fork()
            if pid == 0:
                e = dict(os.environ)
                e.pop("NO_COLOR", None)
                e.update(env)
                r, w = os.pipe()
                os.write(w, DOC)
                os.close(w)
                os.dup2(r, 0)
                os.execve(BIN, [BIN, "--no-config", "-f", "text"], e)
            out = b""
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            os.waitpid(pid, 0)
            check((b"\033[" in out) == want, "text on a terminal: colour %s with %r" %
                  ("on" if want else "off", env))
    except (ImportError, OSError) as e:
        print("skip terminal colour: %s" % e)


def baseline():
    with tempfile.TemporaryDirectory() as tmp:
        doc = os.path.join(tmp, "doc.md")
        base = os.path.join(tmp, "base.jsonl")
        with open(doc, "wb") as f:
            f.write(DOC)
        w = run(["--write-baseline", base, "--context", "research", "doc.md"], cwd=tmp)
        check(w.returncode == 0, "--write-baseline exits 0 though a finding blocks")
        with open(base) as f:
            recs = [json.loads(line) for line in f]
        check(len(recs) == 4 and all(r["path"] == "doc.md" for r in recs),
              "the baseline holds every finding")
        with open(doc, "wb") as f:
            f.write(b"# A heading added\n\nAnd a paragraph with https://new.example/page.\n\n" + DOC)
        p = run(["--baseline", base, "doc.md"], cwd=tmp)
        found = [json.loads(line) for line in p.stdout.splitlines()]
        texts = [r["text"] for r in found if r["type"] == "finding"]
        check(texts == ["https://new.example/page"], "a baseline survives lines added above (%r)"
              % texts)
        check(found[-1].get("suppressed", {}).get("baseline") == 4, "baselined findings counted")
        # Text and github output write no fingerprint, but a baseline still
        # reads them: written and read in those formats, it holds the same.
        for fmt in ("text", "github"):
            b2 = os.path.join(tmp, "base-%s.jsonl" % fmt)
            with open(doc, "wb") as f:
                f.write(DOC)
            w = run(["-f", fmt, "--write-baseline", b2, "--context", "research", "doc.md"],
                    cwd=tmp)
            with open(b2, "rb") as f:
                check(w.returncode == 0 and f.read() == open(base, "rb").read(),
                      "-f %s --write-baseline writes what JSONL's run wrote" % fmt)
            with open(doc, "wb") as f:
                f.write(b"And a paragraph with https://new.example/page.\n\n" + DOC)
            p = run(["-f", fmt, "--baseline", b2, "doc.md"], cwd=tmp)
            check(p.stdout.count(b"example.com") == 0 and p.stdout.count(b"new.example") == 1 and
                  len(p.stdout.splitlines()) == 1,
                  "-f %s --baseline drops the baselined findings (%r)" % (fmt, p.stdout))
        # A finding a directive suppresses still counts as an occurrence of
        # its text: the next one's fingerprint is the second's.
        rep = b"See https://a.example/x.\nSee https://a.example/x.\n"
        ign = b"See https://a.example/x. <!-- halluscan:ignore -->\nSee https://a.example/x.\n"
        fps = []
        for text in (rep, ign):
            p = run(["--stdin-name", "r.md"], text)
            fps.append([json.loads(x)["fingerprint"] for x in p.stdout.splitlines()
                        if b'"finding"' in x])
        check(len(fps[0]) == 2 and fps[1] == fps[0][1:],
              "a suppressed finding keeps its occurrence (%r)" % fps)
        p = run(["--baseline", os.path.join(tmp, "doc.md"), "doc.md"], cwd=tmp)
        check(p.returncode == 2 and b"doc.md:1: not a baseline record" in p.stderr,
              "a file that is not a baseline is an error naming its line")


def errors():
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "empty"))
        with open(os.path.join(tmp, "u16.txt"), "wb") as f:
            f.write("hello world, this is text".encode("utf-16-le"))
        p = run(["missing.md", "u16.txt", "/dev/null"], cwd=tmp)
        recs = [json.loads(line) for line in p.stdout.splitlines()]
        errs = [r for r in recs if r["type"] == "error"]
        check([sorted(r) for r in errs] == [["error", "path", "type"]] * 2 and
              [r["path"] for r in errs] == ["missing.md", "u16.txt"],
              "every input that could not be read is one error record of one shape")
        check(p.returncode == 2, "and the exit status is 2")


def split_reads():
    """A directive and a code span cut across reads still cover their line."""
    import time
    text = (b"One https://a.example/1 and `https://b.example/2` here. <!-- halluscan:ignore -->\n"
            b"Two https://c.example/3.\n")
    cuts = [10, 30, 60, 75]
    p = subprocess.Popen([BIN, "--no-config", "--line-buffered"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    last = 0
    for c in cuts + [len(text)]:
        p.stdin.write(text[last:c])
        p.stdin.flush()
        time.sleep(0.05)
        last = c
    p.stdin.close()
    recs = [json.loads(line) for line in p.stdout.read().splitlines()]
    p.wait()
    texts = [r["text"] for r in recs if r["type"] == "finding"]
    check(texts == ["https://c.example/3"] and
          recs[-1].get("suppressed") == {"inline": 1, "baseline": 0, "code": 1},
          "a directive and a code span cut across reads (%r, %r)" % (texts, recs[-1].get("suppressed")))


def transcripts():
    """--input chat in every format: the findings of JSONL, each with its message."""
    fixtures = os.path.join(SRC, "tests", "fixtures", "chat")
    names = sorted(n for n in os.listdir(fixtures) if n.endswith(".jsonl"))
    schema = None
    try:
        import jsonschema
        with open(os.path.join(SRC, "tests", "sarif", "sarif-schema-2.1.0.json")) as f:
            schema = json.load(f)
    except ImportError:
        print("skip SARIF schema of transcripts: python3-jsonschema is not installed")
    total = 0
    for name in names:
        args = ["--input", "chat", "--fail-on", "warn", name]
        j = run(args, cwd=fixtures)
        want = [(r["record"], r["message_index"], r["role"], r["line"], r["column"], r["signal"])
                for r in map(json.loads, j.stdout.splitlines()) if r["type"] == "finding"]
        total += len(want)
        t = run(["-f", "text"] + args, cwd=fixtures)
        got = [(int(m[1]), int(m[2]), m[3], int(m[4]), int(m[5]), m[6]) for m in
               (re.match(r"^%s:(\d+): message (\d+) \((\w+)\) (\d+):(\d+): \w+: .* \[([a-z_]+)[a-z_,]*\]$"
                         % re.escape(name), line) for line in t.stdout.decode().splitlines())
               if m]
        check(t.returncode == j.returncode and got == want and
              len(t.stdout.splitlines()) == len(want),
              "text: %s's %d findings, each at its record and message" % (name, len(want)))
        g = run(["-f", "github"] + args, cwd=fixtures)
        got = [(int(m[1]), int(m[3]), m[4], int(m[5]), int(m[6]), m[2]) for m in
               (re.match(r"^::(?:warning|error) file=%s,line=(\d+),title=([a-z_]+)[a-z_%%2C]* in message "
                         r"(\d+) \((\w+)\) at (\d+)%%3A(\d+)::" % re.escape(name), line)
                for line in g.stdout.decode().splitlines()) if m]
        check(g.returncode == j.returncode and got == want and
              len(g.stdout.splitlines()) == len(want),
              "github: %s's %d findings, titled with their message" % (name, len(want)))
        for jobs in ("1", "2"):
            s = run(["-f", "sarif", "-j", jobs] + args, cwd=fixtures)
            log = json.loads(s.stdout)
            res = log["runs"][0]["results"]
            got = [(r["locations"][0]["physicalLocation"]["region"]["startLine"],
                    r["properties"]["message_index"], r["properties"]["role"],
                    r["properties"]["message_line"], r["properties"]["message_column"],
                    r["properties"]["signal"]) for r in res]
            check(s.returncode == j.returncode and got == want and
                  all(r["properties"]["record"] == r["locations"][0]["physicalLocation"]
                      ["region"]["startLine"] for r in res),
                  "sarif -j %s: %s's %d findings, on their record's line" % (jobs, name, len(want)))
            if schema is not None and jobs == "1":
                try:
                    jsonschema.validate(log, schema)
                    valid = True
                except Exception as e:  # noqa: BLE001 - any failure is the test's
                    print(e)
                    valid = False
                check(valid, "SARIF of a transcript validates against the 2.1.0 schema: " + name)
    check(total >= 5, "the fixtures hold findings to compare (%d)" % total)
    # --claims writes claim records in JSONL only; an unreadable line is said in the format's way.
    convo = (b'{"messages":[{"role":"user","content":"Hi"},'
             b'{"role":"assistant","content":"It grew 4.53% last year."}]}\n'
             b'{"role":"assistant","content":\n')
    p = run(["--input", "chat", "--claims", "-f", "text"], text=convo)
    out = p.stdout.decode()
    check(p.returncode == 2 and out == "-:1: message 1 (assistant) 1:9: warn: precise statistic "
          "4.53% with no source in its sentence [unsourced_statistic,ungrounded_number]\n"
          and b"halluscan: -:2: not JSON" in p.stderr,
          "text: no claim records, an unreadable line on stderr (%r %r)" % (out, p.stderr))
    p = run(["--input", "chat", "-f", "github"], text=convo)
    check(p.returncode == 2 and p.stdout.decode().splitlines()[-1].startswith(
          "::error file=-,line=2,title=halluscan::not JSON"), "github: an unreadable line is an error annotation")
    p = run(["--input", "chat", "-f", "sarif"], text=convo)
    inv = json.loads(p.stdout)["runs"][0]["invocations"][0]
    check(p.returncode == 2 and not inv["executionSuccessful"] and
          inv["toolExecutionNotifications"][0]["message"]["text"].startswith("-:2: not JSON"),
          "sarif: an unreadable line is a notification")
    p = run(["--input", "chat", "--records", "-f", "text"], text=convo)
    check(p.returncode == 2 and b"--records writes JSONL" in p.stderr,
          "--records stays JSONL")


sarif()
transcripts()
split_reads()
colour()
baseline()
errors()
finish()
