#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--input chat and --records as a harness relies on them.

Each transcript format (tests/fixtures/chat/, derived from public samples:
see SOURCE there): what a tool returned grounds the reply, what the user
said grounds it as the prompt, and delimiters an assistant wrote are
reported as spoofed_span with the text they enclose checked. Then record
mode's contract: one line out per line in, the same bytes under GNU
parallel --pipe and under -j 2 as from one process on one thread.

usage: chat_test.py HALLUSCAN SRCDIR SANITIZE
"""
import json
import os
import shutil
import subprocess
import sys

from checks import check, finish

BIN, SRC, SANITIZE = sys.argv[1], sys.argv[2], sys.argv[3]
FIX = os.path.join(SRC, "tests", "fixtures", "chat")


def run(args, stdin=None):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode()


def transcript(name):
    rc, out, err = run(["--input", "chat", os.path.join(FIX, name)])
    recs = [json.loads(l) for l in out.splitlines()]
    return rc, recs, err


def texts(recs, record, signal=None):
    return [r["text"] for r in recs if r["type"] == "finding" and r["record"] == record
            and (signal is None or r["signal"] == signal)]


# Per format: (file, record of the reply, what a tool returned and the reply
# repeats, what the user said and the reply repeats, the URL inside spoofed tags).
CASES = [
    ("openai-chat.jsonl", 1, ["18.5%", "https://forecast.example.gov/sf"], ["62.5%"],
     "https://weather.example.co.uk/glasgow"),
    ("openai-chat.jsonl", 2, ["41.2%"], ["https://docs.example.org/release-notes"], None),
    ("anthropic.jsonl", 1, ["64.5%", "https://api.weather.example/sf"], ["71.5f"],
     "https://made-up.example/sf-history"),
    ("anthropic.jsonl", 2, ["12.5%"], ["https://www.boston.example.gov/weather"], None),
    ("responses.jsonl", 1, ["87.5%"], ["https://faq.example.com/course"],
     "https://certificates.example.com/free"),
    ("responses.jsonl", 2, ["https://meteo.example.fr/paris"], ["4.2%"], None),
    ("run-logs.jsonl", 8, ["https://wiki.homelab.example/plan"], ["99.9%"],
     "https://guide.example.net/migrate"),
    ("run-logs.jsonl", 13, ["https://spec.example.org/math"], ["81.5%"],
     "https://ci.example.org/run/1"),
]

for name, record, tool, prompt, spoofed in CASES:
    rc, recs, err = transcript(name)
    check(rc in (0, 1) and err == "", f"{name}: exit {rc}, stderr {err!r}")
    found = texts(recs, record)
    for t in tool:
        check(t not in found, f"{name} record {record}: {t} repeats a tool result, reported")
    for t in prompt:
        check(t not in found, f"{name} record {record}: {t} repeats the prompt, reported")
    summaries = [r for r in recs if r["type"] == "summary"]
    check(any(s["repeats"] >= len(tool) + len(prompt) for s in summaries),
          f"{name}: no summary counts the repeats")
    for r in recs:
        if r["type"] == "finding":
            check(r["role"] == "assistant" and isinstance(r["message_index"], int),
                  f"{name}: finding without role/message_index: {r}")
    if spoofed:
        check(spoofed in texts(recs, record, "fabricated_url"),
              f"{name} record {record}: the URL inside spoofed tags is not reported")
        spoofs = [r for r in recs if r["type"] == "finding" and r["record"] == record
                  and r["signal"] == "spoofed_span"]
        check(len(spoofs) == 2 and all(s["severity"] == "block" for s in spoofs),
              f"{name} record {record}: spoofed tags not reported at block: {spoofs}")

# ATIF trajectories (Harbor's Agent Trajectory Interchange Format): an agent
# step's message is scanned, a user or system step's and the observation
# results ground what follows them; reasoning and tool calls are not text.
rc, recs, err = transcript("atif.jsonl")
check(rc == 1 and err == "", f"atif: exit {rc}, stderr {err!r}")
check(sorted((r["record"], r["message_index"], r["role"], r["signal"], r["text"]) for r in recs
             if r["type"] == "finding") ==
      sorted([(1, 3, "agent", "fabricated_citation", "According to Nakamura et al. (2024)"),
              (1, 3, "agent", "spoofed_span", "<tool_output>"),
              (1, 3, "agent", "fabricated_url", "https://benchmarks.invented.example/layout"),
              (1, 3, "agent", "spoofed_span", "</tool_output>"),
              (2, 2, "agent", "future_certainty", "will definitely")]),
      f"atif: findings {[(r.get('record'), r.get('text')) for r in recs]}")
check([(s["record"], s["messages"]) for s in recs if s["type"] == "summary"] == [(1, 4), (2, 3)],
      "atif: a trajectory is not one conversation of its steps")
for bad, why in (({"source": "robot", "message": "x"}, "robot"),
                 ({"source": "agent", "message": 7}, "not text")):
    line = json.dumps({"schema_version": "ATIF-v1.4", "session_id": "s",
                       "agent": {"name": "a", "version": "1"}, "steps": [dict(step_id=1, **bad)]})
    rc, out, err = run(["--input", "chat"], (line + "\n").encode())
    check(rc == 2 and why in out.decode(), f"atif: a step {bad}: exit {rc}, {out!r}")
rc, out, _ = run(["--input", "chat"], (json.dumps({"schema_version": "ATIF-v2.0", "agent": {},
                                                   "steps": []}) + "\n").encode())
check(rc == 2 and b"ATIF-v2.0" in out, f"atif: an unknown major version: exit {rc}, {out!r}")

# Offsets are inside the message's text: what they cut out is the text.
rc, recs, _ = transcript("anthropic.jsonl")
line = open(os.path.join(FIX, "anthropic.jsonl"), encoding="utf-8").read().splitlines()[0]
reply = json.loads(line)["messages"][3]["content"][0]["text"].encode()
for r in (r for r in recs if r["type"] == "finding" and r["record"] == 1):
    check(reply[r["start"]:r["end"]].decode() == r["text"],
          f"offsets {r['start']}:{r['end']} do not cut out {r['text']!r}")

# Run logs: events are no messages, a blank line or a new session ends a
# conversation, and nothing grounds across conversations.
rc, recs, _ = transcript("run-logs.jsonl")
check([(s["record"], s["messages"]) for s in recs if s["type"] == "summary"]
      == [(2, 4), (10, 4), (15, 2)], "run-logs: conversations cut wrongly")
check("https://dup.example/not-scanned" not in str(recs), "run-logs: an event was scanned")
check(texts(recs, 16) == ["https://spec.example.org/math"],
      "run-logs: grounding leaked from one session into the next")

# Records: one line out per line in, errors inside, exit 2.
lines = [
    '{"id":1,"response":"See https://x.example/a. It grew 12.5%.","ctx":"It grew 12.5%."}',
    "",
    "not json",
    "[1]",
    '{"id":2}',
    '{"response":"fine"}',
]
rc, out, err = run(["--records", "--field", "response", "--source-field", "ctx"],
                   ("\n".join(lines) + "\n").encode())
outl = out.decode().split("\n")[:-1]
check(rc == 2 and "4 malformed" not in err and "3 malformed" in err, f"records: exit {rc}, {err!r}")
check(len(outl) == len(lines), f"records: {len(outl)} lines out for {len(lines)} in")
check(outl[0].startswith(lines[0][:-1] + ',"halluscan":{'), "records: line 1 not kept as it was")
a = json.loads(outl[0])["halluscan"]
check([f["text"] for f in a["findings"]] == ["https://x.example/a"] and a["verdict"] == "warn",
      f"records: line 1 annotated {a}")
check(outl[1] == "", "records: a blank line is not kept")
check(json.loads(outl[2]) == {"halluscan": {"error": "not JSON: expected a value at byte 0"},
                              "input": "not json"}, f"records: {outl[2]}")
check(json.loads(outl[4])["halluscan"]["error"].startswith("no string"), outl[4])
check(json.loads(outl[5])["halluscan"]["verdict"] == "pass", outl[5])

# --input chat --records: the transcript lines annotated, message by message.
src = open(os.path.join(FIX, "openai-chat.jsonl"), "rb").read()
rc, out, _ = run(["--input", "chat", "--records"], src)
ann = [json.loads(l)["halluscan"] for l in out.splitlines()]
check(len(ann) == 3 and ann[0]["verdict"] == "block" and ann[0]["messages"] == 5,
      f"chat records: {ann[:1]}")
check(all(f["message_index"] == 4 and f["role"] == "assistant" for f in ann[0]["findings"]),
      "chat records: findings without message_index and role")

# What could be the model's text is read, or refused: never a silent pass.
# Records: a role spelled "ai" is scanned; content that is a number and a
# line of an unknown type are errors inside their records; a run log's
# event passes.
lines = [
    '{"messages":[{"role":"ai","content":"See https://ai.example/r"}]}',
    '{"messages":[{"role":"assistant","content":42}]}',
    '{"type":"agent_reply","content":"See https://hidden.example/r"}',
    '{"type":"summary","summary":"a title"}',
]
rc, out, err = run(["--input", "chat", "--records"], ("\n".join(lines) + "\n").encode())
ann = [json.loads(l)["halluscan"] for l in out.splitlines()]
check(rc == 2 and "2 malformed" in err, f"chat records unreadable: exit {rc}, {err!r}")
check(len(ann) == 4 and [f["text"] for f in ann[0].get("findings", [])] == ["https://ai.example/r"],
      f"chat records: role ai not scanned: {ann[:1]}")
check(len(ann) == 4 and "content is a number" in ann[1].get("error", ""),
      f"chat records: content 42 not refused: {ann[1:2]}")
check(len(ann) == 4 and "agent_reply" in ann[2].get("error", ""),
      f"chat records: an unknown line type not refused: {ann[2:3]}")
check(len(ann) == 4 and ann[3].get("verdict") == "pass", f"chat records: an event: {ann[3:]}")

# A run log: a line of an unknown type is an error naming it, and the lines
# around it are read as one conversation still.
log = [
    {"type": "user", "sessionId": "s", "message": {"role": "user", "content": "Rate? It was 12.5%."}},
    {"type": "assistant_v9", "sessionId": "s", "body": "See https://v9.example/x"},
    {"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "https://thought.example/t"},
        {"type": "text", "text": {"value": "It is 12.5%, see https://reply.example/y"}}]}},
]
rc, out, err = run(["--input", "chat"], ("\n".join(json.dumps(l) for l in log) + "\n").encode())
recs = [json.loads(l) for l in out.splitlines()]
errors = [r for r in recs if r["type"] == "error"]
check(rc == 2 and len(errors) == 1 and errors[0]["record"] == 2
      and "assistant_v9" in errors[0]["message"], f"run log unknown line: exit {rc}, {errors}")
check([r["text"] for r in recs if r["type"] == "finding"] == ["https://reply.example/y"],
      f"run log: the reply's text.value not read, or thinking scanned: {recs}")
check([(r["record"], r["messages"]) for r in recs if r["type"] == "summary"] == [(1, 2)],
      f"run log: conversation cut by the bad line: {recs}")

# codex exec --json: the agent's message is scanned, a command's output
# grounds it, an item still in progress is not read twice.
stream = [
    {"type": "thread.started", "thread_id": "th_1"},
    {"type": "turn.started"},
    {"type": "item.completed", "item": {"id": "item_0", "type": "command_execution", "command": "cat README",
                                        "aggregated_output": "Docs: https://docs.example/a\n", "exit_code": 0,
                                        "status": "completed"}},
    {"type": "item.updated", "item": {"id": "item_1", "type": "agent_message", "text": "https://partial.example"}},
    {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message",
                                        "text": "Docs at https://docs.example/a and https://made-up.example/b"}},
    {"type": "turn.completed", "usage": {"input_tokens": 1, "cached_input_tokens": 0, "output_tokens": 1}},
]
rc, out, err = run(["--input", "chat"], ("\n".join(json.dumps(l) for l in stream) + "\n").encode())
recs = [json.loads(l) for l in out.splitlines()]
check(rc == 0 and [r["text"] for r in recs if r["type"] == "finding"] == ["https://made-up.example/b"],
      f"codex exec: exit {rc}, {recs}")

# Scale-out: the same bytes from one process, -j 2, and GNU parallel --pipe.
n = 10000 if SANITIZE not in ("", "none") else 100000
recs = []
for i in range(n):
    if i % 997 == 0:
        recs.append("{broken %d" % i)
    elif i % 5 == 0:
        recs.append(json.dumps({"id": i, "messages": [
            {"role": "user", "content": f"Order {i} costs ${i}.50"},
            {"role": "assistant", "content": f"Order {i} costs ${i}.50; see https://shop.example/{i}"}]}))
    else:
        recs.append(json.dumps({"id": i, "messages": [
            {"role": "tool", "content": f"growth {i % 90}.5%"},
            {"role": "assistant", "content": f"It grew {i % 90}.5%, or {i % 70}.25% by 2027."}]}))
data = ("\n".join(recs) + "\n").encode()
base = ["--input", "chat", "--records", "--fail-on", "never"]
rc1, one, _ = run(base, data)
check(rc1 == 2 and len(one.splitlines()) == n, f"scale: exit {rc1}, {len(one.splitlines())} lines")
rc2, two, _ = run(base + ["-j", "2"], data)
check(rc2 == rc1 and two == one, "scale: -j 2 differs from -j 1")
if shutil.which("parallel"):
    p = subprocess.run(["parallel", "--will-cite", "--pipe", "--keep-order", "--block", "200k",
                        "-j", "2", BIN] + base, input=data, capture_output=True)
    check(p.stdout == one, "scale: GNU parallel --pipe differs from one process")
else:
    print("skipped: GNU parallel is not installed (Debian package parallel)")
# -j over transcript files: each file's output whole, in order.
files = [os.path.join(FIX, f) for f in sorted(os.listdir(FIX)) if f.endswith(".jsonl")]
_, seq, _ = run(["--input", "chat"] + files)
_, par, _ = run(["--input", "chat", "-j", "2"] + files)
check(seq == par, "-j 2 over files differs from one thread")

finish()
