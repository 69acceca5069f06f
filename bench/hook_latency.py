#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Latency of `halluscan hook claude-code` per Stop call, the process included.

Writes Claude Code session logs (the format of tests/fixtures/hook/) of a
short session and of a long one (many turns of tool calls and results, to
--mb megabytes), each ending in the same last turn, then runs the hook on
a Stop payload for each, --runs times, and prints the median and the 90th
percentile wall time of a call (fork and exec included, as the harness
pays it).

usage: hook_latency.py [--halluscan PATH] [--mb 50] [--runs 200] [--keep DIR]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

SESSION = "5b1f3c9e-0d2a-4c41-9a43-2f0c6a1d7e11"


def line(kind, content, uuid, parent, sidechain=False, meta=False):
    rec = {"parentUuid": parent, "isSidechain": sidechain, "userType": "external",
           "cwd": "/work/app", "sessionId": SESSION, "version": "2.1.30", "type": kind,
           "message": {"role": kind, "content": content}, "uuid": uuid,
           "timestamp": "2026-12-01T09:00:00.000Z"}
    if kind == "assistant":
        rec["message"].update({"id": "msg_" + uuid, "type": "message",
                               "model": "claude-sonnet-4-5"})
    if meta:
        rec["isMeta"] = True
    return json.dumps(rec, separators=(",", ":")) + "\n"


def turn(i):
    """One turn of a working session: a prompt, a Read of a file, a reply."""
    body = "".join(f"{k:6d}\u2192    value_{i}_{k} = compute({k}) / 3.5  # see docs\n"
                   for k in range(120))
    u = f"u{i}"
    return (line("user", f"Turn {i}: look at module {i} and tell me what it computes.", u,
                 None) +
            line("assistant", [{"type": "tool_use", "id": f"toolu_{i}", "name": "Read",
                                "input": {"file_path": f"/work/app/mod{i}.py"}}], f"a{i}", u) +
            line("user", [{"tool_use_id": f"toolu_{i}", "type": "tool_result",
                           "content": body}], f"r{i}", f"a{i}") +
            line("assistant", [{"type": "text", "text": f"Module {i} computes value_{i}_k "
                                "for 120 keys, each divided by 3.5."}], f"b{i}", f"r{i}"))


LAST = (line("user", "Benchmark the cache and give me the hit rate.", "ulast", None) +
        line("assistant", [{"type": "tool_use", "id": "toolu_last", "name": "Bash",
                            "input": {"command": "./bench cache"}}], "alast", "ulast") +
        line("user", [{"tool_use_id": "toolu_last", "type": "tool_result",
                       "content": "hit rate 63.2% over 10000 requests; "
                                  "report at https://ci.example.org/bench/881"}],
             "rlast", "alast") +
        line("assistant", [{"type": "text", "text": "The hit rate is 63.2% "
                            "(https://ci.example.org/bench/881); Redis explains it at "
                            "https://redis.invented.example/lru and it will definitely "
                            "reach 71.4% next week."}], "blast", "rlast"))


def write_session(path, size):
    """A session log of about size bytes, ending with LAST."""
    with open(path, "w") as f:
        n, i = 0, 0
        while n < size:
            t = turn(i)
            f.write(t)
            n += len(t.encode())
            i += 1
        f.write(LAST)


def measure(binary, path, runs, state):
    payload = json.dumps({"session_id": SESSION, "transcript_path": path, "cwd": "/work/app",
                          "permission_mode": "default", "hook_event_name": "Stop",
                          "stop_hook_active": False}).encode()
    times, cpu = [], []
    out = b""
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run([binary, "hook", "claude-code", "--state-dir", state],
                           input=payload, capture_output=True)
        times.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        out = p.stdout
        assert p.returncode == 0 and b'"decision":"block"' in out, (p.returncode, p.stderr)
    times.sort()
    return (statistics.median(times) * 1e3, times[int(len(times) * 0.9)] * 1e3,
            statistics.median(cpu) * 1e3, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--halluscan", default=os.path.join(here, "..", "build", "halluscan"))
    ap.add_argument("--mb", type=float, default=50)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--keep", help="write the logs here and keep them")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = a.keep or tmp
        os.makedirs(d, exist_ok=True)
        short, long_ = os.path.join(d, "short.jsonl"), os.path.join(d, "long.jsonl")
        write_session(short, 0)
        write_session(long_, int(a.mb * 1e6))
        outs = []
        for name, path in (("short", short), ("long", long_)):
            med, p90, cpu, out = measure(a.halluscan, path, a.runs,
                                         os.path.join(tmp, "state"))
            outs.append(out)
            print(f"{name:5s} {os.path.getsize(path) / 1e6:8.2f} MB  wall median {med:6.2f} ms"
                  f"  p90 {p90:6.2f} ms  cpu median {cpu:6.2f} ms  ({a.runs} runs)")
        # The same last turn gives the same answer, however long the session.
        assert outs[0] == outs[1], "the long session's answer differs from the short one's"


if __name__ == "__main__":
    main()
