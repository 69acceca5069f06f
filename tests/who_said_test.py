#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""--input chat: who said a value decides whether it grounds (issue 36, class 5).

 - the arguments of a tool call ground the reply once the tool answered
   the call without an error (Chat Completions, Anthropic, Responses items,
   Claude Code and Codex run logs, codex exec, LangChain); a call that
   failed, one still unanswered, and a search whose answer lists records
   ground nothing;
 - a compaction summary the model wrote grounds nothing;
 - a figure said where an earlier message said another is held to it only
   while the newer texts still say that other figure (a date the user
   moved, which the newest search gives, is grounded);
 - --records refuses a log written one message per line (exit 2, a reason
   on every such line and one on stderr saying how to run it).

Every fixture here is written for this test.

usage: who_said_test.py HALLUSCAN
"""
import json
import subprocess
import sys
import time

from checks import check, finish

BIN = sys.argv[1]

URL = "https://files.example.net/q3/report.pdf"
SYSTEM = "You are a helpful assistant. Current time: 2023-09-08 09:00:00."
ASK = "Wake me up in two hours, and fetch the Q3 report."
REPLY = f"Done: your alarm is set for 11 am, and the report at {URL} is fetched."


def run(args, lines):
    data = "".join(json.dumps(l) + "\n" for l in lines).encode()
    p = subprocess.run([BIN] + args, input=data, capture_output=True)
    return p.returncode, [json.loads(l) for l in p.stdout.splitlines() if l.strip()], \
        p.stderr.decode()


def findings(lines):
    rc, recs, err = run(["--input", "chat", "--fail-on", "never"], lines)
    check(rc == 0 and err == "", f"exit {rc}, stderr {err!r}")
    return sorted(r["text"] for r in recs if r["type"] == "finding")


# ---- Chat Completions: an alarm set and a page fetched by the agent ----
def chat(result_alarm, result_fetch):
    return {"messages": [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": ASK},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function",
             "function": {"name": "AddAlarm", "arguments": json.dumps({"time": "11:00:00"})}},
            {"id": "c2", "type": "function",
             "function": {"name": "Fetch", "arguments": json.dumps({"url": URL})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": result_alarm},
        {"role": "tool", "tool_call_id": "c2", "content": result_fetch},
        {"role": "assistant", "content": REPLY}]}


OK_ALARM, OK_FETCH = json.dumps({"alarm_id": "a-17"}), "Revenue rose in the third quarter."
BOTH = ["11 am", URL]
check(findings([chat(OK_ALARM, OK_FETCH)]) == [], "chat: accepted calls' arguments do not ground")
for bad in [json.dumps({"error": "alarm limit reached", "alarm_id": None}),
            json.dumps({"status": "failed"}), json.dumps({"success": False}),
            "Error: the alarm service is down", "ERROR 503",
            json.dumps({"output": "", "metadata": {"exit_code": 1}}),
            "Exit code: 2\nWall time: 0.1 seconds", "Traceback (most recent call last):\n  x",
            json.dumps({"alarms": [{"id": "a-3", "time": "08:00:00"}]})]:
    check(findings([chat(bad, OK_FETCH)]) == ["11 am"], f"chat: grounded after result {bad!r}")
# What is no failure: an "error" member that is null, a zero exit code, a word "error" later on.
for good in [json.dumps({"error": None, "alarm_id": "a-17"}), json.dumps({"exit_code": 0}),
             "Alarm set; no error.", json.dumps({"alarms": []})]:
    check(findings([chat(good, OK_FETCH)]) == [], f"chat: not grounded after result {good!r}")
# A call with no result, or a result for another call, grounds nothing.
unanswered = chat(OK_ALARM, OK_FETCH)
del unanswered["messages"][4]
check(findings([unanswered]) == [URL], "chat: an unanswered call grounded")
other = chat(OK_ALARM, OK_FETCH)
other["messages"][4]["tool_call_id"] = "c9"
check(findings([other]) == [URL], "chat: a result for another call grounded")
# Calls do not ground across conversations.
first = chat(OK_ALARM, OK_FETCH)
second = chat(OK_ALARM, OK_FETCH)
second["messages"][2]["tool_calls"] = []
del second["messages"][3:5]
check(findings([first, second]) == BOTH, "chat: a call grounded the next conversation")

# At most 256 calls await their results: a newer one pushes out the oldest,
# whose result then grounds nothing; every result looks through 256 at most.
many = [{"id": f"m{k}", "type": "function",
         "function": {"name": "Fetch", "arguments": json.dumps({"url": f"{URL}?p={k}"})}}
        for k in range(300)]
pushed = {"messages": [
    {"role": "user", "content": ASK},
    {"role": "assistant", "content": None, "tool_calls": many},
    {"role": "tool", "tool_call_id": "m0", "content": "ok"},
    {"role": "tool", "tool_call_id": "m299", "content": "ok"},
    {"role": "assistant", "content": f"Fetched {URL}?p=0 and {URL}?p=299."}]}
check(findings([pushed]) == [f"{URL}?p=0"], "chat: the oldest of 300 pending calls grounded")
t0 = time.monotonic()
flood = {"messages": [{"role": "assistant", "content": None, "tool_calls": [
    {"id": f"f{k}", "function": {"arguments": "{}"}} for k in range(20000)]}] +
    [{"role": "tool", "tool_call_id": f"x{k}", "content": "ok"} for k in range(20000)] +
    [{"role": "assistant", "content": "Done."}]}
check(findings([flood]) == [] and time.monotonic() - t0 < 60,
      f"chat: 20000 calls and unmatched results took {time.monotonic() - t0:.1f} s")

# ---- LangChain: a ToolMessage with status "error" ----
lc = {"messages": [
    {"type": "human", "data": {"type": "human", "content": ASK}},
    {"type": "ai", "data": {"type": "ai", "content": "", "tool_calls": [
        {"name": "Fetch", "args": {"url": URL}, "id": "t1"}]}},
    {"type": "tool", "data": {"type": "tool", "content": "fetched", "tool_call_id": "t1",
                              "status": "success"}},
    {"type": "ai", "data": {"type": "ai", "content": f"The report is at {URL}."}}]}
check(findings([lc]) == [], "langchain: args of an answered call do not ground")
lc["messages"][2]["data"]["status"] = "error"
check(findings([lc]) == [URL], "langchain: a failed call grounded")


# ---- Anthropic: tool_use input and tool_result, is_error ----
def anthropic(is_error, content="alarm a-17 created"):
    result = {"type": "tool_result", "tool_use_id": "tu1", "content": content}
    if is_error is not None:
        result["is_error"] = is_error
    return {"system": SYSTEM, "messages": [
        {"role": "user", "content": ASK},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Setting it."},
            {"type": "tool_use", "id": "tu1", "name": "AddAlarm",
             "input": {"time": "11:00:00", "note": URL, "repeat": False, "n": 1.5}}]},
        {"role": "user", "content": [result]},
        {"role": "assistant", "content": [{"type": "text", "text": REPLY}]}]}


check(findings([anthropic(None)]) == [], "anthropic: accepted tool_use input does not ground")
check(findings([anthropic(False)]) == [], "anthropic: is_error false kept the input from grounding")
check(findings([anthropic(True)]) == BOTH, "anthropic: is_error true grounded the input")
check(findings([anthropic(None, [{"type": "text", "text": "Error: no such clock"}])]) == BOTH,
      "anthropic: an Error result grounded the input")

# ---- Responses items: function_call and its output ----
resp = {"input": [
    {"role": "user", "content": ASK},
    {"type": "function_call", "call_id": "call_a", "name": "Fetch",
     "arguments": json.dumps({"url": URL})},
    {"type": "function_call_output", "call_id": "call_a", "output": "Revenue rose."}],
    "output": [{"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": f"Fetched {URL}: revenue rose."}]}]}
check(findings([resp]) == [], "responses: function_call arguments do not ground")
resp["input"][2]["output"] = json.dumps({"error": "404 Not Found"})
check(findings([resp]) == [URL], "responses: a failed function_call grounded")

# ---- Run logs, one message a line: Claude Code and Codex ----
cc = [
    {"type": "user", "sessionId": "s1", "message": {"role": "user", "content": ASK}},
    {"type": "assistant", "sessionId": "s1", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "WebFetch", "input": {"url": URL}}]}},
    {"type": "user", "sessionId": "s1", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Revenue rose."}]}},
    {"type": "assistant", "sessionId": "s1", "message": {"role": "assistant", "content": [
        {"type": "text", "text": f"The report ({URL}) says revenue rose."}]}}]
check(findings(cc) == [], "claude code log: a fetched URL does not ground the reply")
cc[2]["message"]["content"][0]["is_error"] = True
check(findings(cc) == [URL], "claude code log: a failed fetch grounded the reply")

codex = [
    {"type": "session_meta", "payload": {"id": "x"}},
    {"type": "response_item", "payload": {"type": "message", "role": "user",
                                          "content": [{"type": "input_text", "text": ASK}]}},
    {"type": "response_item", "payload": {"type": "local_shell_call", "call_id": "sh1",
                                          "action": {"type": "exec",
                                                     "command": ["curl", "-sO", URL]}}},
    {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "sh1",
                                          "output": json.dumps({"output": "",
                                                                "metadata": {"exit_code": 0}})}},
    {"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [
        {"type": "output_text", "text": f"Downloaded {URL}."}]}}]
check(findings(codex) == [], "codex log: a command that ran does not ground the reply")
codex[3]["payload"]["output"] = json.dumps({"output": "curl: (6)", "metadata": {"exit_code": 6}})
check(findings(codex) == [URL], "codex log: a command that failed grounded the reply")


# codex exec --json: the command and its exit code in one item.
def codex_exec(code):
    return [{"type": "item.completed", "item": {
        "id": "i0", "type": "command_execution", "command": f"curl -sO {URL}",
        "aggregated_output": "", "exit_code": code, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "i1", "type": "agent_message",
                                            "text": f"Downloaded {URL}."}}]


check(findings(codex_exec(0)) == [], "codex exec: a command that ran does not ground the reply")
check(findings(codex_exec(1)) == [URL], "codex exec: a command that failed grounded the reply")

# ---- A compaction summary is the model's own text: it grounds nothing ----
summary = (f"This session is being continued from a previous conversation. Summary: the "
           f"user asked for the Q3 report, which is at {URL}.")
compacted = [
    {"type": "summary", "summary": f"Q3 report at {URL}", "leafUuid": "u0"},
    {"type": "user", "sessionId": "s2", "isCompactSummary": True,
     "message": {"role": "user", "content": summary}},
    {"type": "user", "sessionId": "s2", "message": {"role": "user", "content": "Where was it?"}},
    {"type": "assistant", "sessionId": "s2", "message": {"role": "assistant", "content": [
        {"type": "text", "text": f"It is at {URL}."}]}}]
check(findings(compacted) == [URL], "claude code: a compaction summary grounded the reply")
codex_compacted = [
    {"type": "compacted", "payload": {"message": summary}},
    {"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [
        {"type": "output_text", "text": f"It is at {URL}."}]}}]
check(findings(codex_compacted) == [URL], "codex: a compacted summary grounded the reply")

# ---- A figure is held to what was said last, not to what a later text left behind ----
def trip(second_result):
    return {"messages": [
        {"role": "user", "content": "I am leaving from Denver to Boise on May 3rd."},
        {"role": "tool", "content": json.dumps([{"fare": "41", "from_location": "Denver",
                                                 "leaving_date": "2019-05-03", "to_location": "Boise"}])},
        {"role": "user", "content": "Anything a day later instead?"},
        {"role": "tool", "content": json.dumps(second_result)},
        {"role": "assistant", "content": "Please confirm: a ticket from Denver on May 4th to Boise."}]}


moved = [{"fare": "44", "from_location": "Denver", "leaving_date": "2019-05-04",
          "to_location": "Boise"}]
check(findings([trip(moved)]) == [], "a date moved by a newer search is held to the older one")
# A value the newest result still says is not left behind: the pickup
# date said as the dropoff's is still held to the pickup date.
car = {"messages": [
    {"role": "user", "content": "I want to pick up the car in Denver on May 4th and return it on May 9th."},
    {"role": "tool", "content": json.dumps([{"car": "Camry", "pickup_date": "2019-05-04",
                                             "dropoff_date": "2019-05-09", "pickup_city": "Denver"}])},
    {"role": "assistant", "content": "A Camry is available to pick up in Denver on May 9th."}]}
check(findings([car]) == ["May 9th"], "a pickup date given the dropoff's is grounded")

# ---- --records and a log of one message a line ----
cc[2]["message"]["content"][0].pop("is_error")
rc, recs, err = run(["--input", "chat", "--records"], cc + [chat(OK_ALARM, OK_FETCH)])
check(rc == 2, f"records: a message-a-line log exits {rc}")
check(len(recs) == 5, f"records: {len(recs)} lines out for 5 in")
check(all("without --records" in r["halluscan"].get("error", "") for r in recs[:4]),
      f"records: message lines not refused: {[r['halluscan'] for r in recs[:4]]}")
check(recs[4]["halluscan"].get("verdict") == "pass",
      f"records: the whole conversation line was not scanned: {recs[4]['halluscan']}")
check("4 line(s) are single messages" in err and "halluscan --input chat" in err,
      f"records: stderr {err!r}")
check(not any(f.get("signal") == "fabricated_url" for r in recs
              for f in r["halluscan"].get("findings", [])),
      "records: a message line was scanned alone")

finish()
