#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Records per second through --records and --input chat --records, at -j 1 and -j 2.

Generates N records (a ~300-byte reply with a statistic, a URL and a
release date, its 40-byte grounding) and N transcript lines (user, tool and
assistant messages, ~290 bytes), runs each mode REPEATS times per -j, and
prints the best wall time as records/s. The figure per core at -j 1 is what
a cluster's arithmetic starts from. A third mode reads long agent runs: N
tool/assistant turns in conversations of TURNS turns (each turn's tool
output grounds the rest of its conversation), counted in turns per second.

usage: records.py HALLUSCAN [N] [REPEATS]
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TURNS = 500


def write_text(path, n):
    """n records of a ~300-byte reply (a statistic, a URL, a release date)
    with its 40-byte grounding in "context": --records --field response
    --source-field context (bench/run.py --against reads them too)."""
    with open(path, "w") as f:
        for i in range(n):
            f.write(json.dumps({"id": i, "response": f"Revenue grew {i % 90}.5% last year, see "
                                f"https://x.example/{i}. The next release will ship in March 2027, "
                                f"and support costs fell to ${i % 900}.25 per seat according to "
                                "the finance team's internal dashboard for the quarter.",
                                "context": f"Revenue grew {i % 90}.5% last year."}) + "\n")


TEXT_ARGS = ["--records", "--field", "response", "--source-field", "context"]


def main():
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    tmp = tempfile.mkdtemp(prefix="halluscan-records-")
    atexit.register(shutil.rmtree, tmp, True)
    text, chat = os.path.join(tmp, "text.jsonl"), os.path.join(tmp, "chat.jsonl")
    runs = os.path.join(tmp, "runs.jsonl")
    write_text(text, n)
    with open(chat, "w") as f:
        for i in range(n):
            f.write(json.dumps({"id": i, "messages": [
                {"role": "user", "content": f"Order {i} costs ${i}.50"},
                {"role": "tool", "content": f"growth {i % 90}.5% per https://data.example/{i}"},
                {"role": "assistant", "content": f"It grew {i % 90}.5% (https://data.example/{i}), "
                 f"or {i % 70}.25% by 2027. Order {i} costs ${i}.50."}]}) + "\n")
    with open(runs, "w") as f:
        for c in range(max(1, n // TURNS)):
            msgs = [{"role": "user", "content": "Summarize the units' figures."}]
            for t in range(TURNS):
                i = c * TURNS + t
                msgs.append({"role": "tool", "content": f"Unit {i}: revenue ${i % 900}.{i % 10} million "
                             f"in Q{i % 4 + 1} 2024, margin {i % 40}.{i % 10}%."})
                msgs.append({"role": "assistant", "content": f"Unit {i} made ${i % 900}.{i % 10} "
                             f"million, a margin of {i % 40}.{(i + 1) % 10}%."})
            f.write(json.dumps({"id": c, "messages": msgs}) + "\n")

    modes = {
        "--records --field response --source-field context": (text, TEXT_ARGS),
        "--input chat --records": (chat, ["--input", "chat", "--records"]),
        "--input chat, %d-turn conversations (turns/s)" % TURNS: (runs, ["--input", "chat"]),
    }
    for name, (path, args) in modes.items():
        size = os.path.getsize(path)
        for j in (1, 2):
            best = None
            for _ in range(repeats):
                with open(path, "rb") as inp:
                    t = time.perf_counter()
                    subprocess.run([binary, "--fail-on", "never", "-j", str(j)] + args, stdin=inp,
                                   stdout=subprocess.DEVNULL, check=True)
                    dt = time.perf_counter() - t
                best = dt if best is None else min(best, dt)
            print(f"{name:52} -j {j}: {n / best:9,.0f} records/s ({size / best / 1e6:5.1f} MB/s, "
                  f"best of {repeats}: {best:.2f} s)")


if __name__ == "__main__":
    main()
