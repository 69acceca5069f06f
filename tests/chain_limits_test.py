#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--scratchpad when things go wrong (issue 31, item 4), and every file
halluscan writes under a file-size limit:

 - a run that could not scan (a bad --baseline, --prompt, --bib, an input
   that cannot be read, a full disk) never writes verdict "pass": the member
   says "error" and why;
 - a valid scratchpad deeper than the JSON reader's 64 levels, or with more
   than 10^6 values, is read and its member written, never left with the
   previous step's "pass";
 - the member is bounded: an 8 MB result lists the first findings and counts
   the rest, and the file stays readable by the next step (under 64 MiB);
 - a FIFO, folder or device is refused at once, with a message;
 - a file-size limit (ulimit -f, SIGXFSZ) is exit 2 with a message and no
   temporary file left behind, for the scratchpad, --write-baseline,
   eval --misjudgments and standard output redirected to a file (each
   format, --records, --input chat).

usage: chain_limits_test.py HALLUSCAN SRCDIR
"""
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, SRC = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="halluscan-chain-limits-")
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))


def run(args, stdin=b"", stdout=subprocess.PIPE, fsize=None, timeout=60):
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    # restore_signals (the default) gives the child SIGXFSZ's default
    # action, as a shell would: Python itself ignores it.
    p = subprocess.run([BIN, "--no-config"] + args, input=stdin, stdout=stdout,
                       stderr=subprocess.PIPE, timeout=timeout, env=ENV,
                       preexec_fn=limit if fsize is not None else None)
    out = p.stdout.decode(errors="replace") if p.stdout is not None else ""
    return p.returncode, out, p.stderr.decode(errors="replace")


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def leftovers(folder, stem):
    return [n for n in os.listdir(folder) if n.startswith(stem) and n != stem]


STALE = '{"verdict":"pass","findings":0,"error":null}'
RESULT = "See https://docs.example.com/api/v3. Adoption grew 73.4% last year."


def pad(extra="", result=RESULT):
    return ('{%s"execution":{"result":%s},"hallucination_detector":%s}'
            % (extra, json.dumps(result), STALE))


# 1. A run that could not scan writes verdict "error" and why, never "pass".
p = os.path.join(tmp, "fail.json")
for what, args in [
    ("--baseline that does not exist", ["--baseline", os.path.join(tmp, "none.jsonl")]),
    ("--prompt that does not exist", ["--prompt", os.path.join(tmp, "none.txt")]),
    ("--bib that does not exist", ["--bib", os.path.join(tmp, "none.bib")]),
    ("an input that cannot be read", [os.path.join(tmp, "none.md")]),
]:
    write(p, pad())
    rc, _, err = run(["--scratchpad", p] + args)
    m = json.loads(read(p))["hallucination_detector"]
    check(rc == 2 and "halluscan: " in err, f"{what}: exit {rc}, {err!r}")
    check(m.get("verdict") == "error", f"{what}: verdict {m.get('verdict')!r}, not \"error\"")
    check(isinstance(m.get("error"), str) and m["error"], f"{what}: error {m.get('error')!r}")
# Standard output that cannot be written: the findings were not delivered.
if os.path.exists("/dev/full"):
    write(p, pad())
    with open("/dev/full", "wb") as full:
        rc, _, err = run(["--scratchpad", p], stdout=full)
    m = json.loads(read(p))["hallucination_detector"]
    check(rc == 2 and "write error" in err, f"stdout full: exit {rc}, {err!r}")
    check(m.get("verdict") == "error" and m.get("error"), f"stdout full: member {m}")

# 2. Deeper than 64 levels, or more than 10^6 values, elsewhere in the file:
#    read, scanned, and the member written.
deep = "[" * 200 + "]" * 200
for what, text in [
    ("200 levels deep in another member", pad('"other":' + deep + ",")),
    ("200 levels deep inside execution",
     '{"execution":{"trace":%s,"result":%s},"hallucination_detector":%s}'
     % (deep, json.dumps(RESULT), STALE)),
    ("1,100,000 values", pad('"other":[' + ",".join(["0"] * 1100000) + "],")),
]:
    p = os.path.join(tmp, "deep.json")
    write(p, text)
    rc, out, err = run(["--scratchpad", p])
    after = read(p)
    m = json.loads(after)["hallucination_detector"]
    check(rc == 0 and m.get("verdict") == "warn" and m.get("findings") == 2,
          f"{what}: exit {rc}, {err!r}, member {m}")
    check(after.startswith(text[:text.rindex('"hallucination_detector"')]),
          f"{what}: the other members changed")
# A deep context_health is read too: its zone puts the run under pressure.
p = os.path.join(tmp, "health.json")
write(p, pad('"context_health":{"trend":' + deep + ',"zone":"compact"},'))
rc, _, err = run(["--scratchpad", p])
m = json.loads(read(p))["hallucination_detector"]
check(rc in (0, 1) and m.get("pressure") is True, f"deep context_health: {rc}, {err!r}, {m}")
# Not JSON deep down is still not a scratchpad: left as it is.
bad = pad('"other":' + "[" * 200 + "]" * 199 + ",")
write(p, bad)
rc, _, err = run(["--scratchpad", p])
check(rc == 2 and "not a scratchpad" in err and read(p) == bad, f"deep and broken: {rc}, {err!r}")

# 3. The member is bounded: 8 MB of URLs (about 400,000 findings) list the
#    first that fit in 1 MiB and count the others; the next step reads it.
result = "".join(f"https://h{i}.example/p " for i in range(400000))
check(len(result) > 8_000_000, "the big result is 8 MB")
p = os.path.join(tmp, "big.json")
write(p, pad(result=result))
before = os.path.getsize(p)
rc, _, err = run(["--scratchpad", p], stdout=subprocess.DEVNULL, timeout=300)
size = os.path.getsize(p)
m = json.loads(read(p))["hallucination_detector"]
listed = len(m["fabricated_urls"]) + len(m["unsourced_stats"]) + len(m["suspect_claims"])
check(rc == 0, f"8 MB result: exit {rc}, {err!r}")
check(size - before < (1 << 20) + 8192, f"8 MB result: the file grew by {size - before} bytes")
check(m.get("findings") == 400000 and listed > 0 and m.get("truncated") == 400000 - listed,
      f"8 MB result: findings {m.get('findings')}, listed {listed}, truncated {m.get('truncated')}")
check(m["fabricated_urls"][0]["text"] == "https://h0.example/p", "the first findings are listed")
rc, _, err = run(["--scratchpad", p], stdout=subprocess.DEVNULL, timeout=300)
check(rc == 0, f"the next step cannot read what the last one wrote: {rc}, {err!r}")
# A file with no room left under 64 MiB for even the member is not written.
p = os.path.join(tmp, "full.json")
filler = "x" * ((64 << 20) - 200)
write(p, '{"filler":"%s","execution":{"result":"It grew 73.4%%."}}' % filler)
before = read(p)
rc, _, err = run(["--scratchpad", p])
check(rc == 2 and "not updated" in err and read(p) == before, f"no room: {rc}, {err!r}")
del filler, before, result

# 4. A FIFO, a folder, a device: refused at once, by name, left as they are.
fifo = os.path.join(tmp, "fifo")
os.mkfifo(fifo)
for path, kind in [(fifo, "a FIFO"), (tmp, "a folder"), ("/dev/null", "a character device")]:
    try:
        rc, _, err = run(["--scratchpad", path], timeout=5)
    except subprocess.TimeoutExpired:
        rc, err = None, "hung"
    check(rc == 2 and kind in err and "regular file" in err, f"{kind}: exit {rc}, {err!r}")
check(stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO stays")

# 5. A file-size limit: exit 2 with a message, no temporary file left.
LIMIT = 4096
p = os.path.join(tmp, "xfsz.json")
text = pad(result=" ".join(f"https://h{i}.example/p" for i in range(60)))
check(len(text) < LIMIT, "the scratchpad itself is under the limit")
write(p, text)
rc, _, err = run(["--no-cache", "--scratchpad", p], stdout=subprocess.DEVNULL, fsize=LIMIT)
check(rc == 2 and "File too large" in err, f"scratchpad past ulimit -f: exit {rc}, {err!r}")
check(read(p) == text, "scratchpad past ulimit -f: the file changed")
check(leftovers(tmp, ".xfsz.json") == [] and not [n for n in os.listdir(tmp) if "halluscan-" in n],
      f"scratchpad past ulimit -f: left {os.listdir(tmp)}")

doc = os.path.join(tmp, "doc.md")
write(doc, "".join(f"See https://h{i}.example/p now.\n" for i in range(200)))
bl = os.path.join(tmp, "base.jsonl")
rc, _, err = run(["--no-cache", "--write-baseline", bl, doc], stdout=subprocess.DEVNULL,
                 fsize=LIMIT)
check(rc == 2 and "File too large" in err and bl in err,
      f"--write-baseline past ulimit -f: exit {rc}, {err!r}")
check(not os.path.exists(bl) and leftovers(tmp, "base.jsonl") == [],
      f"--write-baseline past ulimit -f: left {sorted(os.listdir(tmp))}")

outp = os.path.join(tmp, "out.jsonl")
for fmt in ["jsonl", "text", "sarif", "github"]:
    with open(outp, "wb") as f:
        rc, _, err = run(["--no-cache", "--format", fmt, doc], stdout=f, fsize=LIMIT)
    check(rc == 2 and "write error" in err and "File too large" in err,
          f"standard output ({fmt}) past ulimit -f: exit {rc}, {err!r}")

recs = os.path.join(tmp, "recs.jsonl")
write(recs, "".join(json.dumps({"id": f"r{i}", "dataset": "d",
                                "text": f"See https://h{i}.example/p.",
                                "response": f"See https://h{i}.example/p, it grew 73.4%.",
                                "has_hallucination": False}) + "\n" for i in range(300)))
for what, args in [("--records", ["--records", "--field", "text", recs]),
                   ("--input chat", ["--input", "chat", recs])]:
    with open(outp, "wb") as f:
        rc, _, err = run(["--no-cache"] + args, stdout=f, fsize=LIMIT)
    check(rc == 2 and "write error: File too large" in err,
          f"standard output ({what}) past ulimit -f: exit {rc}, {err!r}")
mis = os.path.join(tmp, "mis.jsonl")
with open(outp, "wb") as f:
    p = subprocess.run([BIN, "eval", "--misjudgments", mis, recs], stdout=f,
                       stderr=subprocess.PIPE, env=ENV, timeout=60,
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT)))
err = p.stderr.decode()
check(p.returncode == 2 and "misjudgments: write error: File too large" in err,
      f"eval --misjudgments past ulimit -f: exit {p.returncode}, {err!r}")

shutil.rmtree(tmp)
finish()
