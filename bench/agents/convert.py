#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derive the bench/agents fixtures from pinned upstream commits.

Each source is read with `git show COMMIT:PATH` from a clone (or a bare
mirror) of its repository, so the fixtures can be rebuilt byte for byte:

  python3 bench/agents/convert.py --tooltalk DIR --sgd DIR --toolbench DIR \\
      --sweagent DIR --agentdojo DIR

writes bench/agents/{tooltalk,sgd,toolbench,sweagent,agentdojo}.jsonl, one conversation a line
in the OpenAI Chat Completions form halluscan's --input chat reads
({"id": ..., "source": ..., "messages": [...]}): a tool call is an
assistant message with tool_calls, its result a "tool" message, and the
assistant's words to the user a message of their own after the results
they rest on.  Only a selection is kept (see SELECT below); see README.md
for the licences.  sierra-research/tau-bench is held out: nothing here
reads it or a copy of it.
"""
import argparse
import json
import os
import re
import subprocess
import sys

TOOLTALK_COMMIT = "e05f4ce6132c80ed33392b81535b077d56ab28fd"
SGD_COMMIT = "e852981ae34990f4358979625854259302feaa78"
TOOLBENCH_COMMIT = "d56fdd89faf8c91fa135090b212bb9057ee5cfc2"
SWEAGENT_COMMIT = "3ea751c087f32b16e039a2233dd6eefecef325d5"
# ethz-spylab/agentdojo (MIT): the last upstream commit before its runs/
# were deleted; a fork such as sequrity-ai/agentdojo carries it in history.
AGENTDOJO_COMMIT = "b3177d5a65e1578e52568989e73d80909e3eae49"

# SWE-agent: its GPT-4 test runs and the CTF demonstrations (one run per
# task; the human-written and replayed demonstrations are left out).
SWEAGENT_DIRS = ["tests/test_data/trajectories", "trajectories/demonstrations/ctf"]

# SGD: the first dialogues (file order) of each service domain that call a
# service, from the dev split; a customer-service mix of bookings and quotes.
SGD_FILES = ["dev/dialogues_%03d.json" % i for i in range(1, 15)]
SGD_DOMAINS = ["Flights", "Hotels", "Restaurants", "RentalCars", "Banks",
               "Buses", "Events", "Trains", "Homes", "Payment"]
SGD_PER_DOMAIN = 10


# AgentDojo: runs without an attack (none/none.json: the injection slots
# hold their benign defaults) of sixteen models of five vendors, 2024 to
# 2025 (OpenAI, Anthropic, Google, Meta, Cohere; list below), over every
# suite; only the
# conversations whose last reply lists what the tools returned (a line
# opening with "- ", "* " or "1. ", or two "Label: value" lines): the
# itineraries, transaction lists and field summaries the other sources lack.
ALL_SUITES = ("banking", "slack", "travel", "workspace")
AGENTDOJO_RUNS = [("gpt-4o-2024-05-13", "gpt-4o", ALL_SUITES),
                  ("claude-3-5-sonnet-20241022", "claude-3.5-sonnet", ALL_SUITES),
                  ("claude-3-7-sonnet-20250219", "claude-3.7-sonnet", ALL_SUITES),
                  ("gpt-4o-mini-2024-07-18", "gpt-4o-mini", ALL_SUITES),
                  ("gemini-1.5-pro-002", "gemini-1.5-pro", ALL_SUITES),
                  ("meta-llama_Llama-3-70b-chat-hf", "llama-3-70b", ALL_SUITES),
                  ("command-r-plus", "command-r-plus", ALL_SUITES),
                  # issue 36's sample of 100: every other model of the
                  # mirror that is no defence variant (-repeat_user_prompt,
                  # -spotlighting_*, -tool_filter, -*pi_detector) and is no
                  # older build of a model taken above (Claude 3 Sonnet,
                  # Gemini 1.5 Pro 001 and Flash 001, Gemini 2.0 Flash exp)
                  ("gpt-4-turbo-2024-04-09", "gpt-4-turbo", ALL_SUITES),
                  ("gpt-4-0125-preview", "gpt-4-0125", ALL_SUITES),
                  ("gpt-3.5-turbo-0125", "gpt-3.5-turbo", ALL_SUITES),
                  ("claude-3-opus-20240229", "claude-3-opus", ALL_SUITES),
                  ("claude-3-haiku-20240307", "claude-3-haiku", ALL_SUITES),
                  ("claude-3-5-sonnet-20240620", "claude-3.5-sonnet-0620", ALL_SUITES),
                  ("gemini-2.0-flash-001", "gemini-2.0-flash", ALL_SUITES),
                  ("gemini-1.5-flash-002", "gemini-1.5-flash", ALL_SUITES),
                  ("command-r", "command-r", ALL_SUITES)]
LIST_LINE = re.compile(r"(?m)^[ \t]*(?:[-*]|\d+\.)[ \t]")
FIELD_LINE = re.compile(r"(?m)^[ \t]*(?:[-*]|\d+\.)?[ \t]*\**[A-Z][\w ]{1,30}:\**[ \t]+\S")


def lists(text):
    return bool(LIST_LINE.search(text)) or len(FIELD_LINE.findall(text)) >= 2


def git_show(repo, commit, path):
    return subprocess.run(["git", "-C", repo, "show", "%s:%s" % (commit, path)],
                          check=True, capture_output=True).stdout


def git_ls(repo, commit, under):
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only",
                          commit, under], check=True, capture_output=True)
    return sorted(out.stdout.decode().split())


def call(cid, name, args):
    return {"id": cid, "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}


def tooltalk(repo):
    convs = []
    for sub in ("data/easy", "data/tooltalk"):
        for path in git_ls(repo, TOOLTALK_COMMIT, sub):
            if not path.endswith(".json"):
                continue
            d = json.loads(git_show(repo, TOOLTALK_COMMIT, path))
            meta = d.get("metadata", {})
            # ToolTalk's harness tells the model the time and place.
            msgs = [{"role": "system", "content":
                     "You are a helpful assistant. Current time: %s. Location: %s."
                     % (meta.get("timestamp", ""), meta.get("location", ""))}]
            n = 0
            for turn in d["conversation"]:
                if turn["role"] == "user":
                    msgs.append({"role": "user", "content": turn["text"]})
                    continue
                for api in turn.get("apis", []):
                    n += 1
                    cid = "call_%d" % n
                    req = api["request"]
                    msgs.append({"role": "assistant", "content": None, "tool_calls":
                                 [call(cid, req["api_name"], req.get("parameters", {}))]})
                    res = api.get("response")
                    if api.get("exception"):
                        res = {"error": api["exception"]}
                    msgs.append({"role": "tool", "tool_call_id": cid,
                                 "content": json.dumps(res, ensure_ascii=False)})
                msgs.append({"role": "assistant", "content": turn["text"]})
            convs.append({"id": "tooltalk/" + d["name"], "source": "tooltalk",
                          "messages": msgs})
    return convs


def sgd(repo):
    picked = {dom: [] for dom in SGD_DOMAINS}
    for path in SGD_FILES:
        for d in json.loads(git_show(repo, SGD_COMMIT, path)):
            dom = d["services"][0].split("_")[0]
            if dom not in picked or len(picked[dom]) >= SGD_PER_DOMAIN:
                continue
            if len(d["services"]) != 1:
                continue
            if not any("service_results" in f for t in d["turns"] for f in t["frames"]):
                continue
            picked[dom].append(d)
    convs = []
    for dom in SGD_DOMAINS:
        for d in picked[dom]:
            msgs = []
            n = 0
            for t in d["turns"]:
                if t["speaker"] == "USER":
                    msgs.append({"role": "user", "content": t["utterance"]})
                    continue
                for f in t["frames"]:
                    if "service_call" not in f:
                        continue
                    n += 1
                    cid = "call_%d" % n
                    sc = f["service_call"]
                    msgs.append({"role": "assistant", "content": None, "tool_calls":
                                 [call(cid, sc["method"], sc["parameters"])]})
                    msgs.append({"role": "tool", "tool_call_id": cid,
                                 "content": json.dumps(f.get("service_results", []),
                                                       ensure_ascii=False)})
                msgs.append({"role": "assistant", "content": t["utterance"]})
            convs.append({"id": "sgd/" + d["dialogue_id"], "source": "sgd",
                          "domain": d["services"][0], "messages": msgs})
    return convs


def toolbench(repo):
    convs = []
    for path in git_ls(repo, TOOLBENCH_COMMIT, "data_example/answer"):
        if not path.endswith(".json"):
            continue
        d = json.loads(git_show(repo, TOOLBENCH_COMMIT, path))
        tm = d.get("answer_generation", {}).get("train_messages")
        if not tm:
            continue
        chain = tm[-1]
        msgs = []
        n = 0
        for m in chain:
            role = m["role"]
            if role == "system":
                continue  # the tool catalogue: long, and not the user's words
            if role == "user":
                msgs.append({"role": "user", "content": m["content"].strip()})
            elif role == "assistant":
                fc = m.get("function_call")
                if m.get("content"):
                    # the model's thought before a call: it shows it in the log
                    msgs.append({"role": "assistant", "content": m["content"]})
                if not fc:
                    continue
                try:
                    args = json.loads(fc["arguments"])
                except ValueError:
                    args = {"raw": fc["arguments"]}
                if fc["name"] == "Finish":
                    ans = args.get("final_answer") if isinstance(args, dict) else None
                    if ans:
                        msgs.append({"role": "assistant", "content": ans})
                    continue
                n += 1
                cid = "call_%d" % n
                msgs.append({"role": "assistant", "content": None,
                             "tool_calls": [call(cid, fc["name"], args)]})
            elif role in ("function", "tool"):
                msgs.append({"role": "tool", "tool_call_id": "call_%d" % n,
                             "content": m["content"]})
        if not any(m["role"] == "assistant" and m.get("content") for m in msgs):
            continue
        name = path.split("/")[-2] + "/" + path.split("/")[-1][:-5]
        convs.append({"id": "toolbench/" + name, "source": "toolbench", "messages": msgs})
    return convs


def sweagent(repo):
    convs = []
    for sub in SWEAGENT_DIRS:
        for path in git_ls(repo, SWEAGENT_COMMIT, sub):
            if not path.endswith(".traj"):
                continue
            d = json.loads(git_show(repo, SWEAGENT_COMMIT, path))
            msgs = []
            n = 0
            task = False
            for m in d.get("history", []):
                if m.get("is_demo") or m["role"] == "system":
                    continue
                c = m.get("content")
                if isinstance(c, list):
                    c = "\n".join(p.get("text", "") for p in c if isinstance(p, dict))
                if m["role"] == "assistant":
                    if m.get("thought", "").strip():
                        msgs.append({"role": "assistant", "content": m["thought"].strip()})
                    if m.get("action", "").strip():
                        n += 1
                        msgs.append({"role": "assistant", "content": None, "tool_calls":
                                     [call("call_%d" % n, "bash", {"command": m["action"]})]})
                elif m["role"] in ("user", "tool"):
                    if not task:
                        # the first: the task as the user gave it
                        msgs.append({"role": "user", "content": c})
                        task = True
                    else:
                        # every later one is the environment's observation
                        msgs.append({"role": "tool", "tool_call_id": "call_%d" % n, "content": c})
            name = path.split("/")[-1][:-5]
            convs.append({"id": "sweagent/" + name, "source": "sweagent", "messages": msgs})
    return convs


def agentdojo(repo):
    convs = []
    for model, short, suites in AGENTDOJO_RUNS:
        for suite in suites:
            for path in git_ls(repo, AGENTDOJO_COMMIT, "runs/%s/%s" % (model, suite)):
                # injection_task_N/none: an attacker's goal run as the user's task
                if not path.endswith("/none/none.json") or "/user_task_" not in path:
                    continue
                d = json.loads(git_show(repo, AGENTDOJO_COMMIT, path))
                if d.get("injection_task_id") or d.get("attack_type") or d.get("injections"):
                    continue
                msgs = agentdojo_messages(d["messages"])
                said = [m["content"] for m in msgs if m["role"] == "assistant" and m["content"]]
                if not said or not lists(said[-1]):
                    continue
                convs.append({"id": "agentdojo/%s/%s/%s" % (short, suite, d["user_task_id"]),
                              "source": "agentdojo", "domain": suite, "model": model,
                              "messages": msgs})
    return convs


def agentdojo_messages(log):
    msgs = []
    # Some pipelines log calls without ids (Cohere: none; Gemini: ""): the
    # harness answers a turn's calls in order, so the n-th call made and not
    # yet answered gets "call_n" and the next result without an id takes it.
    n = 0
    waiting = []
    for m in log:
        role = m["role"]
        text = m.get("content")
        if role in ("system", "user"):
            msgs.append({"role": role, "content": text})
        elif role == "assistant":
            if text and text.strip():
                msgs.append({"role": "assistant", "content": text})
            if m.get("tool_calls"):
                calls = []
                for tc in m["tool_calls"]:
                    n += 1
                    cid = tc.get("id") or "call_%d" % n
                    if not tc.get("id"):
                        waiting.append(cid)
                    calls.append(call(cid, tc["function"], tc.get("args", {})))
                msgs.append({"role": "assistant", "content": None, "tool_calls": calls})
        elif role == "tool":
            cid = m.get("tool_call_id") or (waiting.pop(0) if waiting else "call_0")
            # the harness shows the model the error in place of the content
            msgs.append({"role": "tool", "tool_call_id": cid,
                         "content": m.get("error") or text or ""})
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tooltalk", required=True, help="git dir of microsoft/ToolTalk")
    ap.add_argument("--sgd", required=True,
                    help="git dir of google-research-datasets/dstc8-schema-guided-dialogue")
    ap.add_argument("--toolbench", required=True, help="git dir of OpenBMB/ToolBench")
    ap.add_argument("--sweagent", required=True, help="git dir of SWE-agent/SWE-agent")
    ap.add_argument("--agentdojo", required=True,
                    help="git dir of ethz-spylab/agentdojo (or a fork holding %s)"
                    % AGENTDOJO_COMMIT[:12])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    for name, fn, repo in (("tooltalk", tooltalk, a.tooltalk), ("sgd", sgd, a.sgd),
                           ("toolbench", toolbench, a.toolbench),
                           ("sweagent", sweagent, a.sweagent),
                           ("agentdojo", agentdojo, a.agentdojo)):
        convs = fn(repo)
        with open(os.path.join(a.out, name + ".jsonl"), "w", encoding="utf-8") as f:
            for c in convs:
                f.write(json.dumps(c, ensure_ascii=False, sort_keys=False) + "\n")
        replies = sum(1 for c in convs for m in c["messages"]
                      if m["role"] == "assistant" and m.get("content"))
        print("%s: %d conversations, %d assistant replies" % (name, len(convs), replies),
              file=sys.stderr)


if __name__ == "__main__":
    main()
