#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`halluscan hook claude-code` as Claude Code calls it.

The payloads are those the hooks reference documents (code.claude.com/docs/
en/hooks, "Hook input": session_id, transcript_path, cwd, permission_mode,
hook_event_name, and stop_hook_active for Stop and SubagentStop; tool_name,
tool_input, tool_response and tool_use_id for PostToolUse), and the
transcripts are session logs in Claude Code's format (tests/fixtures/hook/,
see SOURCE there). The answers are the protocol's: exit 0 and nothing for a
pass; exit 0 and {"decision":"block","reason":...} for a block; exit 0 and
{"systemMessage":...} for a stop let through; exit 2 and standard error
for an error the agent is told; exit 1 for an event halluscan does not
handle.

usage: hook_test.py HALLUSCAN SRCDIR SANITIZE
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import documents
from checks import check, finish

BIN, SRC, SANITIZE = sys.argv[1], sys.argv[2], sys.argv[3]
FIX = os.path.join(SRC, "tests", "fixtures", "hook")
TMP = tempfile.mkdtemp(prefix="halluscan-hook-")
STATE = os.path.join(TMP, "state")


def hook(payload, *opts, raw=None, env=None, timeout=60):
    data = raw if raw is not None else json.dumps(payload).encode()
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([BIN, "hook", "claude-code", "--state-dir", STATE] + list(opts),
                       input=data, capture_output=True, timeout=timeout, env=e)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def stop(path, active=False, session="5b1f3c9e-0d2a-4c41-9a43-2f0c6a1d7e11", **more):
    p = {"session_id": session, "transcript_path": path, "cwd": "/work/app",
         "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": active}
    p.update(more)
    return p


def block_reason(out):
    """The reason of a block answer, or None when out is not exactly one."""
    try:
        a = json.loads(out)
    except ValueError:
        return None
    if set(a) != {"decision", "reason"} or a["decision"] != "block":
        return None
    return a["reason"]


def states():
    return os.listdir(STATE) if os.path.isdir(STATE) else []


def fixture_copy(name):
    dst = os.path.join(TMP, name)
    shutil.copy(os.path.join(FIX, name), dst)
    return dst


def append(path, *records):
    with open(path, "a") as f:
        for r in records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


def assistant(text, uuid, sidechain=False):
    return {"parentUuid": None, "isSidechain": sidechain, "type": "assistant",
            "sessionId": "5b1f3c9e-0d2a-4c41-9a43-2f0c6a1d7e11", "uuid": uuid,
            "message": {"id": "msg_" + uuid, "type": "message", "role": "assistant",
                        "content": [{"type": "text", "text": text}]}}


def feedback(uuid, text="Stop hook feedback:\n[halluscan hook claude-code]: see the reason"):
    # How Claude Code records a Stop hook's block: a user line marked isMeta.
    return {"parentUuid": None, "isSidechain": False, "type": "user", "isMeta": True,
            "sessionId": "5b1f3c9e-0d2a-4c41-9a43-2f0c6a1d7e11", "uuid": uuid,
            "message": {"role": "user", "content": text}}


SESSION = fixture_copy("session.jsonl")
CLEAN = fixture_copy("clean.jsonl")
SUB = fixture_copy("subagent.jsonl")

# ---- pass: nothing on stdout or stderr, exit 0 ----
rc, out, err = hook(stop(CLEAN))
check(rc == 0 and out == "" and err == "", f"pass: exit {rc}, out {out!r}, err {err!r}")

# ---- block: each finding of the last reply with its recovery ----
rc, out, err = hook(stop(SESSION))
reason = block_reason(out)
check(rc == 0 and reason is not None, f"block: exit {rc}, out {out!r}, err {err!r}")
reason = reason or ""
for text, signal in (("https://redis.invented.example/docs/lru-tuning", "fabricated_url"),
                     ("will definitely", "future_certainty"), ("17.9%", "altered_number")):
    check(f'{signal} (warn) "{text}"' in reason, f"block: {signal} {text} not in the reason")
check(reason.count("Recovery: ") == 3, f"block: {reason.count('Recovery: ')} recoveries, not 3")
check("(63.2%)" in reason, "block: the altered number's recovery names the grounded figure")
# Grounded by the turn's tool result and by the person's prompts; the earlier
# turn and the subagent's sidechain lines are no part of the reply.
quoted = re.findall(r'^\d+\. \w+ \(\w+\) "(.*)": ', reason, re.M)
check(sorted(quoted) == sorted(["https://redis.invented.example/docs/lru-tuning",
                                "will definitely", "17.9%"]),
      f"block: the findings quoted are {quoted}")

# ---- --fail-on: warn findings pass under --fail-on block; a context escalates ----
rc, out, err = hook(stop(SESSION, session="fail-on"), "--fail-on", "block")
check(rc == 0 and out == "", f"--fail-on block: exit {rc}, out {out!r}")
rc, out, err = hook(stop(SESSION, session="fail-on"), "--fail-on", "block",
                    "--context", "user-facing")
r = block_reason(out) or ""
check(rc == 0 and "fabricated_url (block)" in r and "future_certainty" not in r,
      f"--fail-on block --context user-facing: exit {rc}, {out!r}")
rc, out, err = hook(stop(SESSION, session="fail-on"), "--fail-on", "never")
check(rc == 0 and out == "", f"--fail-on never: exit {rc}, out {out!r}")

# ---- loops: stop_hook_active ----
loop = os.path.join(TMP, "loop.jsonl")
shutil.copy(os.path.join(FIX, "session.jsonl"), loop)
rc, out, _ = hook(stop(loop, session="loop"))
check(block_reason(out) is not None, "loop: the first stop is blocked")
# The agent answers the block with the same claims: let through, and said.
append(loop, feedback("fb1"),
       assistant("Redis documents the eviction policy at "
                 "https://redis.invented.example/docs/lru-tuning, and the miss rate will "
                 "definitely drop to 17.9% next sprint.", "again"))
n_state = len(states())
rc, out, err = hook(stop(loop, active=True, session="loop"))
try:
    msg = json.loads(out)
except ValueError:
    msg = {}
check(rc == 0 and list(msg) == ["systemMessage"] and "same 3 findings" in msg["systemMessage"],
      f"loop: same findings: exit {rc}, out {out!r}")
check("let through" in err and "same 3 findings" in err, f"loop: stderr says nothing: {err!r}")
check(n_state > 0 and len(states()) == n_state - 1, "loop: the session's state is left")
# A repaired reply after the feedback passes, and leaves no state behind.
rep = os.path.join(TMP, "repaired.jsonl")
shutil.copy(os.path.join(FIX, "session.jsonl"), rep)
rc, out, _ = hook(stop(rep, session="repaired"))
check(block_reason(out) is not None, "repaired: the first stop is blocked")
n_state = len(states())
append(rep, feedback("fb2"),
       assistant("Redis documents its eviction policies in its own manual (URL not verified); "
                 "the miss rate may drop next sprint.", "fixed"))
rc, out, err = hook(stop(rep, active=True, session="repaired"))
check(rc == 0 and out == "" and err == "", f"repaired: exit {rc}, out {out!r}, err {err!r}")
check(n_state > 0 and len(states()) == n_state - 1, "repaired: the session's state is not removed")
# Other findings each time: blocked again, up to --max-blocks in a row.
alt = os.path.join(TMP, "alternating.jsonl")
shutil.copy(os.path.join(FIX, "session.jsonl"), alt)
answers = []
for i in range(4):
    rc, out, err = hook(stop(alt, active=i > 0, session="alt"), "--max-blocks", "3")
    answers.append("block" if block_reason(out) else "through" if "systemMessage" in out
                   else f"{rc}:{out}")
    append(alt, feedback(f"fba{i}"), assistant(f"See https://try{i}.invented.example/x.", f"t{i}"))
check(answers == ["block", "block", "block", "through"], f"--max-blocks 3: {answers}")
# A block answered by no new reply at all: let through, said.
quiet = os.path.join(TMP, "quiet.jsonl")
shutil.copy(os.path.join(FIX, "session.jsonl"), quiet)
hook(stop(quiet, session="quiet"))
rc, out, err = hook(stop(quiet, active=True, session="quiet"))
check(rc == 0 and "no new reply" in out, f"no new reply: exit {rc}, out {out!r}")
# No folder for the state: under stop_hook_active the stop is let through at once.
rc, out, err = hook(stop(SESSION, active=True, session="nostate"), "--state-dir",
                    "/proc/version/nope")
check(rc == 0 and "systemMessage" in out and "no state folder" in out,
      f"no state folder: exit {rc}, out {out!r}")

# ---- last_assistant_message: the harness's copy, when the log lags behind ----
rc, out, _ = hook(stop(CLEAN, session="lam", last_assistant_message=
                       "Also, according to Henderson et al. (2023) startup got faster."))
check("fabricated_citation" in (block_reason(out) or ""), f"last_assistant_message: {out!r}")
# ... and not twice when the log has it.
rc, out, _ = hook(stop(SESSION, session="lam2", last_assistant_message="Redis documents the "
                       "eviction policy at https://redis.invented.example/docs/lru-tuning, and "
                       "the miss rate will definitely drop to 17.9% next sprint."))
check((block_reason(out) or "").count("Recovery: ") == 3, f"last_assistant_message twice: {out!r}")

# ---- SubagentStop: the subagent's own log, or its sidechain lines ----
sub = {"session_id": "5b1f3c9e-0d2a-4c41-9a43-2f0c6a1d7e11", "transcript_path": SESSION,
       "cwd": "/work/app", "permission_mode": "default", "hook_event_name": "SubagentStop",
       "stop_hook_active": False, "agent_id": "a81c2f", "agent_type": "Explore",
       "agent_transcript_path": SUB}
rc, out, _ = hook(sub)
check("according to Henderson et al. (2023)" in (block_reason(out) or ""),
      f"SubagentStop, own log: {out!r}")
del sub["agent_transcript_path"]
rc, out, _ = hook(sub)
r = block_reason(out) or ""
check("subagent.invented.example" in r and "redis.invented" not in r,
      f"SubagentStop, sidechain lines: {out!r}")

# ---- Codex: its Stop payload (codex-rs/hooks/schema, stop.command.input) and rollout ----
ROLLOUT = fixture_copy("codex-rollout.jsonl")
REPLY = ("p99 is 187 ms, well under the 250 ms SLO; p50 is 41 ms "
         "(https://grafana.example.com/d/api-latency). A 2025 study by Okafor found 92.4% of "
         "such gains hold.")


def codex_stop(path, reply=REPLY, active=False, session="0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"):
    return {"cwd": "/work/app", "hook_event_name": "Stop", "last_assistant_message": reply,
            "model": "gpt-5.2-codex", "permission_mode": "default", "session_id": session,
            "stop_hook_active": active, "transcript_path": path, "turn_id": "turn-3"}


def codex(payload, *opts):
    p = subprocess.run([BIN, "hook", "codex", "--state-dir", STATE] + list(opts),
                       input=json.dumps(payload).encode(), capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


rc, out, err = codex(codex_stop(ROLLOUT))
r = block_reason(out) or ""
quoted = re.findall(r'^\d+\. \w+ \(\w+\) "(.*)": ', r, re.M)
check(rc == 0 and sorted(quoted) == sorted(["A 2025 study by Okafor", "92.4%"]),
      f"codex: exit {rc}, quoted {quoted}, err {err!r}")
clean_rollout = os.path.join(TMP, "codex-clean.jsonl")
with open(clean_rollout, "w") as f:
    f.write(open(ROLLOUT).read().replace(REPLY, "p99 is 187 ms, under the 250 ms SLO."))
rc, out, err = codex(codex_stop(clean_rollout, reply="p99 is 187 ms, under the 250 ms SLO.",
                                session="codex-clean"))
check(rc == 0 and out == "" and err == "", f"codex clean: exit {rc}, {out!r} {err!r}")
# No rollout (transcript_path null): the reply alone, with nothing to ground it.
rc, out, err = codex(codex_stop(None, reply="See https://grafana.example.com/d/api-latency.",
                                session="codex-null"))
check(rc == 0 and "grafana.example.com" in (block_reason(out) or ""),
      f"codex without a rollout: exit {rc}, {out!r}")
rc, out, err = hook(codex_stop(None, session="claude-null"))
check(rc == 2 and "transcript_path" in err, f"claude-code with a null transcript_path: {rc}")
# A Claude Code log is no Codex rollout, and the other way round.
rc, out, err = codex(codex_stop(CLEAN, session="codex-wrong"))
check(rc == 2 and "Codex response item" in err, f"codex on a Claude Code log: {rc} {err!r}")
rc, out, err = hook(stop(ROLLOUT, session="claude-wrong"))
check(rc == 2 and "Claude Code" in err, f"claude-code on a rollout: {rc} {err!r}")
# The block's reason, recorded as a user message, never grounds the retry.
again = os.path.join(TMP, "codex-again.jsonl")
shutil.copy(ROLLOUT, again)
rc, out, _ = codex(codex_stop(again, session="codex-loop"))
append(again, {"type": "response_item", "payload": {"type": "message", "role": "user",
               "content": [{"type": "input_text", "text": block_reason(out) or "x"}]}})
# The agent answers with the same reply: were the reason grounding, its quotes would pass.
append(again, {"type": "response_item", "payload": {"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": REPLY}]}})
rc, out, err = codex(codex_stop(again, active=True, session="codex-loop"))
try:
    msg = json.loads(out)
except ValueError:
    msg = {}
check(rc == 0 and "same 2 findings" in msg.get("systemMessage", ""),
      f"codex: the reason grounded the retry, or no let-through: {out!r}")

# ---- PostToolUse on a written document ----
doc = os.path.join(TMP, "REPORT.md")
with open(doc, "w") as f:
    f.write("# Cache report\n\nThe hit rate is high.\nSee https://made-up.invented.example/cache "
            "for details.\n\n```\ncurl https://in-code.invented.example/x\n```\n")


def post(path, tool="Write", **more):
    p = {"session_id": "5b1f3c9e", "transcript_path": SESSION, "cwd": TMP,
         "permission_mode": "acceptEdits", "hook_event_name": "PostToolUse", "tool_name": tool,
         "tool_input": {"file_path": path, "content": "..."},
         "tool_response": {"filePath": path, "success": True}, "tool_use_id": "toolu_01ABC123"}
    p.update(more)
    return p


rc, out, err = hook(post(doc))
r = block_reason(out) or ""
check(rc == 0 and "line 4, column 5: fabricated_url" in r and "in-code" not in r,
      f"PostToolUse Write: exit {rc}, out {out!r}, err {err!r}")
check("REPORT.md, which you just wrote" in r, "PostToolUse: the reason names the file")
rc, out, _ = hook(post("REPORT.md", tool="Edit"))  # relative: from the payload's cwd
check(block_reason(out) is not None, f"PostToolUse Edit, relative path: {out!r}")
rc, out, _ = hook(post(doc, tool="MultiEdit"))
check(block_reason(out) is not None, f"PostToolUse MultiEdit: {out!r}")
clean_doc = os.path.join(TMP, "NOTES.md")
with open(clean_doc, "w") as f:
    f.write("# Notes\n\nNothing to see.\n")
rc, out, err = hook(post(clean_doc))
check(rc == 0 and out == "" and err == "", f"PostToolUse clean: exit {rc}, {out!r} {err!r}")
code = os.path.join(TMP, "tool.py")
with open(code, "w") as f:
    f.write("# see https://code.invented.example/\n")
rc, out, _ = hook(post(code))
check(rc == 0 and out == "", f"PostToolUse on code: exit {rc}, {out!r}")
rc, out, _ = hook(post(code), "--all-files")
check(block_reason(out) is not None, f"PostToolUse --all-files: {out!r}")
rc, out, _ = hook(post(doc, tool="Bash"))
check(rc == 0 and out == "", f"PostToolUse Bash: exit {rc}, {out!r}")
rc, out, err = hook(post(os.path.join(TMP, "gone.md")))
check(rc == 2 and out == "" and "gone.md" in err, f"PostToolUse missing file: {rc} {err!r}")
fifo = os.path.join(TMP, "pipe.md")
os.mkfifo(fifo)
t = time.monotonic()
rc, out, err = hook(post(fifo), timeout=30)
check(rc == 2 and "not a regular file" in err and time.monotonic() - t < 10,
      f"PostToolUse FIFO: {rc} {err!r}")

# ---- an unreadable transcript: exit 2, said; then let through, said ----
missing = os.path.join(TMP, "missing.jsonl")
rc, out, err = hook(stop(missing, session="missing"))
check(rc == 2 and out == "" and "missing.jsonl" in err and "not checked" in err,
      f"missing transcript: exit {rc}, out {out!r}, err {err!r}")
rc, out, err = hook(stop(missing, active=True, session="missing"))
check(rc == 0 and "systemMessage" in out and "same error" in out,
      f"missing transcript twice: exit {rc}, out {out!r}")
rc, out, err = hook(stop(TMP, session="dir"))
check(rc == 2 and "not a regular file" in err, f"a folder as transcript: {rc} {err!r}")
rc, out, err = hook(stop(fifo, session="fifo"), timeout=30)
check(rc == 2 and "not a regular file" in err, f"a FIFO as transcript: {rc} {err!r}")
broken = os.path.join(TMP, "broken.jsonl")
shutil.copy(os.path.join(FIX, "clean.jsonl"), broken)
with open(broken, "a") as f:
    f.write('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",\n')
    f.write(json.dumps(assistant("Done.", "z")) + "\n")
rc, out, err = hook(stop(broken, session="broken"))
check(rc == 2 and "not JSON" in err, f"a reply line that is not JSON: {rc} {err!r}")
# A log of another format holds no reply to pass; an empty one (no turn yet) has nothing to say.
rc, out, err = hook(stop(os.path.join(SRC, "tests", "fixtures", "chat", "responses.jsonl"),
                         session="other"))
check(rc == 2 and "no line of it is a Claude Code" in err, f"another format: {rc} {err!r}")
empty = os.path.join(TMP, "empty.jsonl")
open(empty, "w").close()
rc, out, err = hook(stop(empty, session="empty"))
check(rc == 0 and out == "", f"an empty log: {rc} {out!r} {err!r}")
# A last line still being written (no newline, cut short) is not there yet.
partial = os.path.join(TMP, "partial.jsonl")
shutil.copy(os.path.join(FIX, "clean.jsonl"), partial)
with open(partial, "a") as f:
    f.write('{"type":"assistant","message":{"role":"assistant","content":[{"type":"te')
rc, out, err = hook(stop(partial, session="partial"))
check(rc == 0 and out == "", f"a partial last line: {rc} {out!r} {err!r}")
# A reply part of a type the reader does not know: the reply cannot be read.
odd = os.path.join(TMP, "odd.jsonl")
shutil.copy(os.path.join(FIX, "clean.jsonl"), odd)
append(odd, {"type": "assistant", "message": {"role": "assistant",
                                              "content": [{"type": "hologram", "x": 1}]}})
rc, out, err = hook(stop(odd, session="odd"))
check(rc == 2 and "hologram" in err, f"an unknown reply part: {rc} {err!r}")
# A reply line longer than the reader's buffer chunks: read whole.
big = os.path.join(TMP, "big.jsonl")
shutil.copy(os.path.join(FIX, "clean.jsonl"), big)
append(big, assistant("Fine. " * 400000 + "See https://at-the-end.invented.example/.", "big"))
rc, out, err = hook(stop(big, session="big"))
check("at-the-end.invented.example" in (block_reason(out) or ""), f"a 2.4 MB reply: {rc} {err!r}")

# ---- hostile payloads: exit 2 with a clear message, never a pass ----
for raw, why in ((b"", "not JSON"), (b"nonsense", "not JSON"), (b"[1,2]", "not a JSON object"),
                 (b'{"hook_event_name":"Stop"}', "transcript_path"),
                 (b'{"transcript_path":"/x"}', "hook_event_name"),
                 (b'{"hook_event_name":7}', "hook_event_name"),
                 (b'{"hook_event_name":"Stop","transcript_path":"/x","stop_hook_active":"yes"}',
                  "stop_hook_active"),
                 (b'{"hook_event_name":"Stop","transcript_path":"/etc/passwd\\u0000.jsonl"}',
                  "NUL"),
                 (b'{"hook_event_name":"Stop","transcript_path":""}', "empty"),
                 (b'{"hook_event_name":"Stop","transcript_path":"/x",'
                  b'"last_assistant_message":{"a":1}}', "last_assistant_message"),
                 (b'{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":"x"}',
                  "tool_input"),
                 (b'{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{}}',
                  "file_path"),
                 (b"[" * 100000, "not JSON"),
                 (b'{"hook_event_name":"Stop","transcript_path":"' + b"a" * (17 << 20) + b'"}',
                  "cannot be read")):
    rc, out, err = hook(None, raw=raw)
    check(rc == 2 and out == "" and why in err,
          f"hostile payload {raw[:60]!r}: exit {rc}, out {out!r}, err {err[:200]!r}")
rc, out, err = hook({"hook_event_name": "UserPromptSubmit", "prompt": "hi"})
check(rc == 1 and out == "" and "UserPromptSubmit" in err, f"an unhandled event: {rc} {err!r}")
# A payload that never ends: the time limit ends the run, as an error.
p = subprocess.Popen([BIN, "hook", "claude-code", "--time-limit", "1"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
t = time.monotonic()
try:
    p.wait(timeout=20)  # standard input is left open
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
e = p.stderr.read()
p.stdin.close()
check(p.returncode == 2 and b"time limit" in e and time.monotonic() - t < 10,
      f"a payload that never ends: exit {p.returncode}, {e!r}")
# Usage errors are halluscan's: exit 2.
for args in (["hook"], ["hook", "codex"], ["hook", "claude-code", "--fail-on", "often"],
             ["hook", "claude-code", "file.json"]):
    q = subprocess.run([BIN] + args, input=b"{}", capture_output=True)
    check(q.returncode == 2 and q.stderr.startswith(b"halluscan: "), f"usage {args}: {q}")

# ---- the README's .claude/settings.json, run as written ----
readme = documents.text(SRC)  # README.md and docs/*.md
blocks = [b for b in re.findall(r"```json\n(.*?)```", readme, re.S) if '"hooks"' in b]
check(len(blocks) == 1, f"README: {len(blocks)} settings snippets")
settings = json.loads(blocks[0]) if blocks else {"hooks": {}}
env = {"PATH": os.path.dirname(os.path.abspath(BIN)) + os.pathsep + os.environ["PATH"],
       "HALLUSCAN_STATE_DIR": os.path.join(TMP, "readme-state")}
events = {"Stop": stop(SESSION, session="readme"), "SubagentStop": sub,
          "PostToolUse": post(doc)}
sub["agent_transcript_path"] = SUB
for event, payload in events.items():
    entries = settings["hooks"].get(event, [])
    check(len(entries) == 1, f"README: {event} has {len(entries)} entries")
    for e in entries:
        check(event != "PostToolUse" or re.fullmatch(e.get("matcher", ""), "MultiEdit"),
              f"README: {event}'s matcher misses MultiEdit")
        for h in e["hooks"]:
            check(h["type"] == "command", f"README: {event}: {h}")
            q = subprocess.run(["sh", "-c", h["command"]], input=json.dumps(payload).encode(),
                               capture_output=True, env=dict(os.environ, **env))
            check(q.returncode == 0 and block_reason(q.stdout.decode()),
                  f"README: {event}: {h['command']}: exit {q.returncode}, {q.stdout!r}")

# ---- cost: a 50 MB session costs what a short one does (not under sanitizers) ----
if SANITIZE == "none":
    sys.path.insert(0, os.path.join(SRC, "bench"))
    import hook_latency
    short, long_ = os.path.join(TMP, "short.jsonl"), os.path.join(TMP, "long.jsonl")
    hook_latency.write_session(short, 0)
    hook_latency.write_session(long_, 50_000_000)
    res = {}
    for name, path in (("short", short), ("long", long_)):
        _, _, cpu, out = hook_latency.measure(BIN, path, 15, STATE)
        res[name] = (cpu, out)
    check(res["short"][1] == res["long"][1], "cost: the long session's answer differs")
    check(res["long"][0] < 3 * res["short"][0] + 3,
          f"cost: {res['long'][0]:.2f} ms of CPU for 50 MB, {res['short'][0]:.2f} ms short")

shutil.rmtree(TMP, ignore_errors=True)
finish()
