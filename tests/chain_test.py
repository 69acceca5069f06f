#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Chain integration, from the spec's own words ("Chain Integration",
"Common Hallucination Triggers", context-health's "compact zone or beyond").

--scratchpad: "Reads execution.result"; "Writes hallucination_detector.
fabricated_urls / unsourced_stats / suspect_claims"; "never overwrite another
skill's subkey" (every other byte stays, numbers as written); "Report failure
via its own subkey (hallucination_detector.error) rather than raising"; a
malformed scratchpad is left as it is; the file keeps its mode; two writers
at once (halluscan and another skill taking the same lock) lose nothing.

usage: chain_test.py HALLUSCAN SRCDIR
"""
import fcntl
import json
import os
import subprocess
import sys
import time

from checks import check, finish, scratch

BIN, SRC = sys.argv[1], sys.argv[2]
KEY = '"hallucination_detector"'


def run(args, stdin=b""):
    p = subprocess.run([BIN, "--no-config"] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def member_span(text):
    """The bytes of the hallucination_detector value: [start, end)."""
    k = text.rindex(KEY)
    start = text.index("{", k)
    depth, i, in_str = 0, start, False
    while True:
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return start, i + 1
        i += 1


# Other skills' keys, laid out by hand: indentation, a number with a
# trailing zero, one past 2^64, an exponent, unicode escapes, key order.
SCRATCHPAD = """{
  "supervisor": {"chain": ["researcher", "hallucination_detector"], "step": 2},
  "constitutional_ai": {"rules": [8], "no_hallucination": "Never fabricate URLs, citations, or statistics."},
  "execution": {
    "result": "See https://docs.example.com/api/v3. Adoption grew 73.4% last year. According to Dr. Smith, it will definitely ship by March 2027.",
    "cost_usd": 1.50, "tokens": 18446744073709551616, "ratio": 1e-3, "note": "caf\\u00e9 \\ud83d\\ude00"
  },
  "completion_enforcer": {"gaps": [], "score": 0.90}
}
"""

tmp = scratch("halluscan-chain-")
pad = os.path.join(tmp, "context.json")

# 1. Reads execution.result (standard input is not read), writes the three
#    lists, and every other byte stays where and as it was.
with open(pad, "w") as f:
    f.write(SCRATCHPAD)
os.chmod(pad, 0o640)
rc, out, err = run(["--scratchpad", pad], stdin=b"https://stdin.example/ must not be read\n")
check(rc == 0, f"a warn-only result exits 0, not {rc}: {err}")
check("stdin.example" not in out, "standard input was scanned")
new = open(pad).read()
s, e = member_span(new)
at = SCRATCHPAD.rindex("\n}")
check(new[:at] == SCRATCHPAD[:at] and new[e:] == SCRATCHPAD[at:],
      "the bytes around the new member changed")
check(new[at:s] == ',\n  "hallucination_detector": ',
      f"the new member is not laid out as its neighbours: {new[at:s]!r}")
hd = json.loads(new)["hallucination_detector"]
check([x["text"] for x in hd["fabricated_urls"]] == ["https://docs.example.com/api/v3"],
      f"fabricated_urls: {hd['fabricated_urls']}")
check([x["text"] for x in hd["unsourced_stats"]] == ["73.4%"], f"unsourced_stats: {hd['unsourced_stats']}")
check(sorted(x["signal"] for x in hd["suspect_claims"]) == ["fabricated_citation", "future_certainty"],
      f"suspect_claims: {hd['suspect_claims']}")
res = json.loads(SCRATCHPAD)["execution"]["result"]
for x in hd["fabricated_urls"] + hd["unsourced_stats"] + hd["suspect_claims"]:
    check(res.encode()[x["start"]:x["end"]].decode() == x["text"],
          f"offsets of {x['text']!r} do not point at it in execution.result")
    check(x["path"] == "execution.result", "a finding's path")
check(hd["error"] is None and hd["verdict"] == "warn" and hd["findings"] == 4, f"member: {hd}")
check(os.stat(pad).st_mode & 0o777 == 0o640, "the file's mode changed")
check(not [n for n in os.listdir(tmp) if n != "context.json"], "a temporary file was left")

# A second run replaces only the member's value.
before = new
rc, out, err = run(["--scratchpad", pad])
again = open(pad).read()
s2, e2 = member_span(again)
check(again[:s2] == before[:s] and again[e2:] == before[e:], "a second run touched other bytes")
check(json.loads(again)["hallucination_detector"] == hd, "a second run wrote something else")

# With files, they are scanned and recorded instead.
doc = os.path.join(tmp, "answer.md")
with open(doc, "w") as f:
    f.write("It is 12.5% cheaper.\n")
rc, out, err = run(["--scratchpad", pad, doc])
hd = json.loads(open(pad).read())["hallucination_detector"]
check([(x["text"], x["path"]) for x in hd["unsourced_stats"]] == [("12.5%", doc)] and
      not hd["fabricated_urls"], f"files given: {hd}")

# --fail-on and the verdict: a block finding fails the step and is recorded.
rc, out, err = run(["--scratchpad", pad, "--context", "user-facing"])
hd = json.loads(open(pad).read())["hallucination_detector"]
check(rc == 1 and hd["verdict"] == "block" and hd["error"] is None,
      f"user-facing: exit {rc}, {hd['verdict']}")

# A scratchpad reached through a symbolic link: the file is replaced, the link stays.
real = os.path.join(tmp, "real.json")
link = os.path.join(tmp, "link.json")
with open(real, "w") as f:
    f.write('{"execution": {"result": "It is 12.5%."}}')
os.symlink("real.json", link)
rc, out, err = run(["--scratchpad", link])
check(os.path.islink(link) and json.loads(open(real).read())["hallucination_detector"]["findings"] == 1,
      f"through a symbolic link: {rc} {err!r}")
os.unlink(link)
os.unlink(real)

# 2. A malformed scratchpad: an error, and the file as it was, byte for byte.
for bad in ['{"execution": {"result": "x"}', '[1, 2]', '{"a": 1} {"b": 2}', '',
            '{"a": tru}', '\ufeff{"a": 1}']:
    with open(pad, "w") as f:
        f.write(bad)
    st = os.stat(pad)
    time.sleep(0.01)
    rc, out, err = run(["--scratchpad", pad])
    check(rc == 2 and "not a scratchpad" in err, f"malformed {bad!r}: exit {rc}, {err!r}")
    check(open(pad).read() == bad and os.stat(pad).st_mtime_ns == st.st_mtime_ns,
          f"malformed {bad!r} was touched")

# A missing file is an error, and none is made.
rc, out, err = run(["--scratchpad", os.path.join(tmp, "none.json")])
check(rc == 2 and not os.path.exists(os.path.join(tmp, "none.json")), "a missing scratchpad")

# 3. Failure goes into hallucination_detector.error (and the exit status),
#    never by losing the file: no execution.result, one that is not a string,
#    an input that cannot be read, a rule pack that does not load.
for pad_text, args, what in [
        ('{"supervisor": {"step": 1}}', [], "no \"execution\""),
        ('{"execution": {"status": "done"}}', [], "no \"execution.result\""),
        ('{"execution": {"result": ["a"]}}', [], "not a string"),
        ('{"execution": {"result": "ok"}}', [os.path.join(tmp, "missing.md")], "could not be read"),
        ('{"execution": {"result": "ok"}}', ["--rules", os.path.join(tmp, "missing.yaml")],
         "missing.yaml")]:
    with open(pad, "w") as f:
        f.write(pad_text)
    rc, out, err = run(["--scratchpad", pad] + args)
    doc_after = open(pad).read()
    try:
        parsed = json.loads(doc_after)
    except ValueError:
        parsed = {}
    hd = parsed.get("hallucination_detector", {})
    check(rc == 2, f"{what}: exit {rc}")
    check(isinstance(hd.get("error"), str) and what in hd["error"], f"{what}: error is {hd.get('error')!r}")
    check(doc_after.startswith(pad_text[:-1]), f"{what}: the other keys changed")

# 4. context_health in the compact zone or beyond applies pressure.
for health, want in [('"healthy"', False), ('"compact"', True), ('{"zone": "critical"}', True),
                     ('"mauve"', True)]:
    with open(pad, "w") as f:
        f.write('{"context_health": %s, "execution": {"result": "ok"}}' % health)
    rc, out, err = run(["--scratchpad", pad])
    hd = json.loads(open(pad).read())["hallucination_detector"]
    check(hd["pressure"] is want, f"context_health {health}: pressure {hd['pressure']}")
    check(("no zone halluscan knows" in err) == (health == '"mauve"'), f"{health}: {err!r}")

# 5. Two writers at once lose nothing: halluscan and another skill that
#    takes the same lock (flock on the file, check the inode, rename).
WRITER = r"""
import fcntl, json, os, sys, tempfile
path, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(n):
    while True:
        fd = os.open(path, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    d = json.loads(os.read(fd, 1 << 20).decode())
    d.setdefault(name, []).append(i)
    t = tempfile.NamedTemporaryFile("w", dir=os.path.dirname(path), delete=False)
    json.dump(d, t)
    t.flush()
    os.fsync(t.fileno())
    t.close()
    os.rename(t.name, path)
    os.close(fd)
"""
with open(pad, "w") as f:
    f.write('{"execution": {"result": "It grew 41.7%. See https://x.example/a."}, "other": []}')
ROUNDS = 25
procs = [subprocess.Popen([sys.executable, "-c", WRITER, pad, "skill_%d" % k, str(ROUNDS)])
         for k in range(2)]
hs = []
for i in range(ROUNDS):
    hs.append(subprocess.Popen([BIN, "--no-config", "--scratchpad", pad],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
for p in hs:
    p.wait()
    check(p.returncode == 0, f"a concurrent halluscan failed: {p.stderr.read().decode()}")
for p in procs:
    p.wait()
    check(p.returncode == 0, "a concurrent writer failed")
final = json.loads(open(pad).read())
for k in range(2):
    check(final.get("skill_%d" % k) == list(range(ROUNDS)),
          f"skill_{k} lost writes: {final.get('skill_%d' % k)}")
check(final["hallucination_detector"]["findings"] == 2, "halluscan's member after the race")
check(not [n for n in os.listdir(tmp) if n.startswith(".")], "temporary files were left")

# A writer that holds the lock too long: halluscan waits, then says so
# (exit 2) rather than hang the chain; the file is as it was.
holder = os.open(pad, os.O_RDONLY)
fcntl.flock(holder, fcntl.LOCK_EX)
held = open(pad).read()
t0 = time.monotonic()
rc, out, err = run(["--scratchpad", pad])
check(rc == 2 and "locked by another writer" in err and time.monotonic() - t0 < 30,
      f"a held lock: exit {rc}, {err!r}")
check(open(pad).read() == held, "a held lock: the file changed")
os.close(holder)


# ---- trigger requests ("Common Hallucination Triggers") ----
# Each row: the spec's request, completed; an answer with the signal its
# "why" names; the signal; the trigger's name.
TRIGGERS = [
    ("Give me the exact statistics on remote work adoption.",
     "Remote work grew 37.2% in 2023.", "unsourced_statistic", "exact-statistics"),
    ("Find me 10 sources for the claim that sleep improves memory.",
     "See Walker et al. (2017) on sleep and memory.", "fabricated_citation", "find-sources"),
    ("What's the current data on EV adoption in Norway?",
     "EV adoption in Norway is 82.4% of new sales.", "unsourced_statistic", "current-data"),
    ("List the top 10 tools for log analysis.",
     "1. LogLens (https://loglens.example.com) leads.", "fabricated_url", "top-list"),
    ("According to research, what is the best way to learn a language?",
     "As shown by Krashen, input matters most.", "fabricated_citation", "according-to-research"),
    ("What will happen when the Fed cuts rates again?",
     "Stocks will definitely rise.", "future_certainty", "future-outcome"),
    ("Give me a comprehensive list of vector databases.",
     "Milvus (https://milvus.example.org) is one.", "fabricated_url", "comprehensive-list"),
    ("What\u2019s the URL for the Kubernetes API reference?",
     "It is https://kubernetes.example/docs/api.", "fabricated_url", "url-request"),
    ("Cite your sources.",
     "According to Dr. Lee, the effect is real.", "fabricated_citation", "cite-sources"),
]


def findings(out):
    return [json.loads(l) for l in out.splitlines() if l.startswith('{"type":"finding"')]


prompt = os.path.join(tmp, "prompt.txt")
for request, answer, signal, name in TRIGGERS:
    with open(prompt, "w") as f:
        f.write(request + "\n")
    rc, out, err = run(["--prompt", prompt], stdin=answer.encode() + b"\n")
    got = [(f["signal"], f["severity"], f.get("trigger")) for f in findings(out)]
    check((signal, "block", name) in got and rc == 1,
          f"trigger {name}: {request!r} -> {answer!r}: exit {rc}, {got}")
    rc, out, err = run([], stdin=answer.encode() + b"\n")
    got = [(f["signal"], f["severity"], f.get("trigger")) for f in findings(out)]
    check((signal, "warn", None) in got and rc == 0, f"without the prompt, {name}: {got}")

# A trigger raises only its own signals, and a prompt with none raises nothing.
for request in ["What's the URL for the pricing page?", "Summarize this thread for me."]:
    with open(prompt, "w") as f:
        f.write(request)
    rc, out, err = run(["--prompt", prompt], stdin=b"Churn fell to 3.7% last quarter.\n")
    got = [(f["signal"], f["severity"], f.get("trigger")) for f in findings(out)]
    check(got == [("unsourced_statistic", "warn", None)], f"{request!r} raised {got}")

# A trigger cut across the prompt's 64 KiB window is still found.
with open(prompt, "w") as f:
    f.write("x" * (65536 - 12) + " give me the exact statistics on churn\n")
rc, out, err = run(["--prompt", prompt], stdin=b"Churn is 3.7%.\n")
check([f.get("trigger") for f in findings(out)] == ["exact-statistics"],
      f"a trigger across the window: {findings(out)}")

# In a transcript, the user's message is the prompt, for that turn's answer only.
turns = {"messages": [
    {"role": "user", "content": "Give me the exact statistics on churn."},
    {"role": "assistant", "content": "Churn is 3.7%."},
    {"role": "user", "content": "Thanks. And retention?"},
    {"role": "assistant", "content": "Retention is 91.2%."}]}
rc, out, err = run(["--input", "chat"], stdin=json.dumps(turns).encode() + b"\n")
got = [(f["message_index"], f["severity"], f.get("trigger")) for f in findings(out)]
check(got == [(1, "block", "exact-statistics"), (3, "warn", None)], f"transcript turns: {got}")

# --records with --prompt-field, and the scratchpad's lists, say it too.
rec = {"q": "Cite your sources.", "a": "According to Dr. Lee, it works."}
rc, out, err = run(["--records", "--field", "a", "--prompt-field", "q"],
                   stdin=json.dumps(rec).encode() + b"\n")
ann = json.loads(out)["halluscan"]
check(ann["verdict"] == "block" and ann["findings"][0].get("trigger") == "cite-sources",
      f"--prompt-field: {ann}")
with open(pad, "w") as f:
    f.write('{"execution": {"result": "See https://kubernetes.example/docs/api."}}')
with open(prompt, "w") as f:
    f.write("What's the URL for the Kubernetes API reference?")
rc, out, err = run(["--scratchpad", pad, "--prompt", prompt])
hd = json.loads(open(pad).read())["hallucination_detector"]
check([(x["severity"], x.get("trigger")) for x in hd["fabricated_urls"]] == [("block", "url-request")]
      and hd["verdict"] == "block" and rc == 1, f"scratchpad trigger: {hd}")

# Trigger packs are checked like rule packs: file:line:col, examples run.
BASE = ("rules:\n  - {id: a, signal: s, severity: warn, pattern: 'zz', message: m, recovery: r,"
        " examples: [zz], negative_examples: [y]}\n")
for body, want in [
        ("  - {name: t, pattern: 'exact', escalate: [nope], examples: [exact], negative_examples: [x]}",
         "escalates unknown signal \"nope\""),
        ("  - {name: t, pattern: 'exact', escalate: [s], examples: [inexact?, nothing], negative_examples: [x]}",
         "example does not match: \"nothing\""),
        ("  - {name: t, pattern: 'exact', escalate: [s], examples: [exact], negative_examples: [exactly]}",
         "negative example matches"),
        ("  - {name: t, pattern: 'ex(act', escalate: [s], examples: [exact], negative_examples: [x]}",
         "trigger \"t\": pattern:"),
        ("  - {name: t, pattern: 'exact', escalate: [s]}", "needs pattern, escalate, examples")]:
    pack = os.path.join(tmp, "t.yaml")
    with open(pack, "w") as f:
        f.write(BASE + "triggers:\n" + body + "\n")
    rc, out, err = run(["--no-builtin-rules", "--rules", pack, "--check-rules", "--no-cache"])
    check(rc == 2 and want in err and "t.yaml:" in err, f"trigger pack {body!r}: {rc} {err!r}")
# Trigger patterns are compiled when a prompt first comes, but a pack's are
# checked with its examples when it is read: a bad one stops a plain run too.
with open(pack, "w") as f:
    f.write(BASE + "triggers:\n  - {name: t, pattern: 'ex(act', escalate: [s], examples: [exact],"
            " negative_examples: [x]}\n")
rc, out, err = run(["--no-builtin-rules", "--rules", pack, "--no-cache"], stdin=b"zz\n")
check(rc == 2 and "t.yaml:" in err and "trigger \"t\": pattern:" in err,
      f"a bad trigger pattern without a prompt: {rc} {err!r}")

# ---- context pressure (context-health's "compact zone or beyond") ----
PRESSED = ("70% of teams deploy daily. Builds are 3x faster. If approved, it will ship in "
           "May 2027. Demand will double by 2030. About 60% agree. Adoption grew 41.5%.\n")
rc, out, err = run([], stdin=PRESSED.encode())
calm = [(f["rule"], f["text"]) for f in findings(out)]
check(calm == [("stat.decimal_percent", "41.5%")], f"without pressure: {calm}")
rc, out, err = run(["--pressure"], stdin=PRESSED.encode())
got = [(f["rule"], f["text"]) for f in findings(out)]
check(got == [("stat.round_percent", "70%"), ("stat.round_multiplier", "3x"),
              ("future.dated_release", "will ship in May 2027"),
              ("future.will_dated", "will double by 2030"), ("stat.decimal_percent", "41.5%")],
      f"--pressure: {got}")
check('"pressure":true' in out.splitlines()[-1], "the summary says pressure")

# Pressure only adds: the bundled transcript's findings stay, and only the
# rules marked for pressure add to them.
example = os.path.join(SRC, "examples", "transcript.txt")
_, out0, _ = run([example])
_, out1, _ = run(["--pressure", example])
f0 = {(f["rule"], f["start"]) for f in findings(out0)}
f1 = {(f["rule"], f["start"]) for f in findings(out1)}
check(f0 <= f1 and all(r.startswith(("stat.round", "future.will_dated", "future.dated_release"))
                       for r, _ in f1 - f0), f"pressure on the example: {sorted(f1 - f0)}")

# The scratchpad's context_health and a transcript's metadata say it too.
for health, want in [('"compact"', 4), ('"healthy"', 0)]:
    with open(pad, "w") as f:
        f.write('{"context_health": %s, "execution": {"result": %s}}' % (health, json.dumps(PRESSED)))
    run(["--scratchpad", pad])
    hd = json.loads(open(pad).read())["hallucination_detector"]
    n = len(hd["unsourced_stats"]) + len(hd["suspect_claims"]) - 1
    check(n == want, f"context_health {health}: {n} findings past the one without pressure")
convs = [{"context_health": "compact", "messages": [{"role": "assistant", "content": PRESSED}]},
         {"messages": [{"role": "assistant", "content": PRESSED}]},
         {"metadata": {"context_health": {"zone": "critical"}},
          "messages": [{"role": "assistant", "content": PRESSED}]}]
rc, out, err = run(["--input", "chat"], stdin=b"".join(json.dumps(c).encode() + b"\n" for c in convs))
per = {}
for f in findings(out):
    per[f["record"]] = per.get(f["record"], 0) + 1
sums = [json.loads(l) for l in out.splitlines() if '"type":"summary"' in l]
check(per == {1: 5, 2: 1, 3: 5} and [s.get("pressure", False) for s in sums] == [True, False, True],
      f"transcript context_health: {per}, {[s.get('pressure') for s in sums]}")

finish()
