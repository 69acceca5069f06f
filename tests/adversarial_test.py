#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile text for every built-in rule: long runs of what a rule's pattern
repeats or backtracks over, and sentences packed with findings. Each case
is a line, made one long line at three sizes (past the engine's window for
long lines), then 32 lines at three lengths up to the longest sentence
(16 KiB, where work per sentence shows). At every size: no PCRE2 match
limit is reached, Hyperscan and PCRE2 give the same output (where the
build has both), and the time grows linearly (CPU seconds: doubling the
input four times must not cost more than eight times as much, with a
little slack for start-up: linear work is 4x, quadratic 16x; a ratio past
that is measured again, the least of three runs at both sizes, so that one
slow run on a loaded machine is not a failure).

The rules for context pressure run under --pressure (a case's fourth
item: extra arguments); the trigger requests run over hostile prompts of
three sizes (--prompt), which must cost linear time too.

In a sanitizer build (SANITIZE, meson's b_sanitize, is not "none") each
case runs at its largest size only, for memory errors, and time is not
measured: a sanitizer's own cost distorts it, and the other two builds
measure the growth. That was 150 of the sanitizer build's 440 test-seconds.

usage: adversarial_test.py HALLUSCAN [SANITIZE]
"""
import json
import os
import resource
import subprocess
import sys

from checks import check, finish, scratch

BIN = sys.argv[1]
SANITIZED = len(sys.argv) > 2 and sys.argv[2] not in ("", "none")
# (line length, lines) at three sizes: one long line, then sentence-sized lines.
SHAPES = (((128 << 10, 1), (256 << 10, 1), (512 << 10, 1)),
          ((4 << 10, 32), (8 << 10, 32), ((16 << 10) - 16, 32)))
SLACK = 0.05  # CPU seconds: start-up and noise on tiny runs
TOOL = "<tool_output>1</tool_output>"  # wakes the number checks

# name: (head, repeated filler, tail); each becomes one line of about SIZE bytes.
CASES = {
    # url.http: runs its repeats cover, groups, and what ends a URL
    "url-dots": ("https://a", ".", " https://evil.example.com/x"),
    "url-parens": ("https://a", "(a)", " https://evil.example.com/x"),
    "url-parens-dot": ("https://a", "(b).", " x"),
    "url-open-paren": ("https://a(", "b", " https://evil.example.com/x"),
    "url-long": ("https://a", "b", " https://evil.example.com/x"),
    "url-punct": ("https://a", ".,;:!?*_~", " https://evil.example.com/x"),
    "url-many": ("", "(https://a.b) ", ""),
    "url-schemes": ("", "https://", " x"),
    # stat.decimal_percent, stat.decimal_multiplier (and their exemptions)
    "stat-digits": ("", "1.1111111 ", ""),
    "stat-per": ("It rose ", "1.1 per ", "cent."),
    "stat-sentence": ("It grew ", "73.4% ", "ok."),
    "stat-computed": ("x ", "= 1.5% ", "ok."),
    "stat-cited": ("It grew ", "73.4% ", "(Source: survey)."),
    "mult-product": ("", "1.1 x ", "ok."),
    "mult-blanks": ("1.5x", " ", "7"),
    # cite.*
    "cite-names": ("According to ", "Aaaa, ", " et al"),
    "cite-dr": ("", "According to Dr. ", ""),
    "cite-caps": ("", "Aaaaaaaaaaaaaaaaaaaa", ""),
    "cite-etal": ("", "Smith et al ", ""),
    "cite-law": ("", "according to Ohm's law ", ""),
    "cite-shown": ("", "As shown by ", ""),
    "cite-study": ("", "A 2024 study by ", ""),
    # future.*
    "fut-will": ("", "will ", ""),
    "fut-ship": ("It will ship ", "x ", "by May 2027"),
    "fut-hedged": ("If approved, ", "it will ship in May 2027 and ", "ok."),
    "fut-rel": ("", "will be released on ", ""),
    "fut-guar": ("", "is guaranteed ", ""),
    # number.* (after a tool span)
    "num-commas": (TOOL, "$1,000,", ""),
    "num-digits": (TOOL, "1", ""),
    "num-words": (TOOL, "twenty-", ""),
    "num-thousand": (TOOL, "1 thousand ", ""),
    "num-quarter": (TOOL, "first quarter ", ""),
    "num-percent": (TOOL, "12.5% ", ""),
    # arithmetic written out (src/numbers/arith.c, read where the lexer holds figures)
    "arith-plus": (TOOL + "Total: ", "1 + ", "1 = 9"),
    "arith-parens": (TOOL, "(", "1 + 1) * 2 = 4"),
    "arith-average": (TOOL + "The average of ", "$1, ", "$2 is $3."),
    # directive.inline: on standard input directives are honoured, each
    # found by the rule and confirmed; under a nonce each is a finding
    "dir-off": ("", "<!-- halluscan:off --> halluscan:on ", "https://a.example/x"),
    "dir-ignore": ("See https://a.example/x ", "halluscan:ignore ", "ok."),
    "dir-names": ("See https://a.example/x ", "halluscan:ignore a, ", "ok."),
    "dir-spans": ("See https://a.example/x ", "<tool_output>halluscan:ignore</tool_output> ",
                  "ok."),
    "dir-nonce": ("", "<!-- halluscan:off --> ", "https://a.example/x",
                  ["--span-nonce", "n0nce-adversarial"]),
    # under context pressure: stat.round_*, future.will_dated, and
    # future.dated_release without its hedge exemption
    "press-round": ("", "70% of ", "ok.", ["--pressure"]),
    "press-hedged": ("", "about 70% ", "ok.", ["--pressure"]),
    "press-mult": ("", "3x ", "ok.", ["--pressure"]),
    "press-algebra": ("x", " - 2x", " = 1.", ["--pressure"]),
    "press-will": ("It will ", "go ", "by 2030.", ["--pressure"]),
    "press-dated": ("", "will run out by 2030 and ", "ok.", ["--pressure"]),
    "press-hedged-rel": ("If approved, ", "it will ship in May 2027 and ", "ok.", ["--pressure"]),
}


def run(engine, data, args=()):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([BIN, "--engine", engine, "--fail-on", "never"] + list(args), input=data,
                       capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, cpu


has_hyperscan = b"hyperscan" in subprocess.run([BIN, "--version"], capture_output=True).stdout
engines = ("hyperscan", "pcre2") if has_hyperscan else ("pcre2",)
for name, (head, fill, tail, *more) in CASES.items():
    args = more[0] if more else []
    line = name
    for shape in SHAPES:
        times = {e: [] for e in engines}
        inputs = []
        for size, lines in shape[2:] if SANITIZED else shape:
            one = head + fill * ((size - len(head) - len(tail)) // len(fill)) + tail + "\n"
            data = (one * lines).encode()
            inputs.append(data)
            what = "%s %dx%d" % (name, lines, size)
            outs = {}
            for e in engines:
                p, cpu = run(e, data, args)
                times[e].append(cpu)
                outs[e] = p.stdout
                summary = json.loads(p.stdout.decode().splitlines()[-1]) if p.stdout else {}
                check(p.returncode == 0 and summary.get("bytes") == len(data),
                      "%s %s: exit %d" % (what, e, p.returncode))
                check("match_limit_hits" not in summary, "%s %s: %s match limit hit(s)"
                      % (what, e, summary.get("match_limit_hits")))
            # (url-schemes past ENGINE_MAX_MATCH: the same since url.http's
            # end is found by url_end(), not by either engine.)
            if len(outs) == 2:
                check(outs["hyperscan"] == outs["pcre2"], "%s: the engines differ" % what)
        for e in engines:
            t = times[e]
            line += "  %s %s" % (e, " ".join("%.3f" % x for x in t))
            if SANITIZED:
                continue
            # Over the whole 4x span: linear work gives 4x, quadratic 16x. The
            # bound sits between with room for a loaded machine (one pairwise
            # 3x bound failed on a CI run of a linear case under ASan).
            if t[2] > 8 * t[0] + SLACK:
                for j in (0, 2):
                    t[j] = min([t[j]] + [run(e, inputs[j], args)[1] for _ in range(2)])
            check(t[2] <= 8 * t[0] + SLACK,
                  "%s %s: %.3fs for %dx%d bytes after %.3fs for %dx%d: grows faster than "
                  "linearly" % (name, e, t[2], shape[2][1], shape[2][0], t[0],
                                shape[0][1], shape[0][0]))
    print(line, flush=True)
# Trigger requests: hostile prompts of 1, 2 and 4 MiB, each filler what a
# trigger pattern repeats or backtracks over, then a short answer.
PROMPTS = {
    "trig-exact": "give me the exact ",
    "trig-sources": "find me 10 peer-reviewed ",
    "trig-top": "list the top ",
    "trig-will": "what will ",
    "trig-url": "what's the ",
    "trig-cite": "cite your ",
    "trig-words": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ",
}
tmp = scratch("halluscan-adv-")
for name, fill in PROMPTS.items():
    times, paths = [], []
    for k, size in enumerate((4 << 20,) if SANITIZED else (1 << 20, 2 << 20, 4 << 20)):
        paths.append(os.path.join(tmp, "prompt-%d" % k))
        with open(paths[k], "w") as f:
            f.write(fill * (size // len(fill)) + "\n")
        p, cpu = run(engines[0], b"It grew 73.4%.\n", ["--prompt", paths[k]])
        times.append(cpu)
        check(p.returncode == 0, "%s %d: exit %d" % (name, size, p.returncode))
    if SANITIZED:
        print("%s  %s" % (name, " ".join("%.3f" % x for x in times)), flush=True)
        continue
    # As above: past the bound, the least of three runs at both ends.
    if times[2] > 8 * times[0] + SLACK:
        for j in (0, 2):
            times[j] = min([times[j]] + [run(engines[0], b"It grew 73.4%.\n",
                                             ["--prompt", paths[j]])[1] for _ in range(2)])
    check(times[2] <= 8 * times[0] + SLACK,
          "%s: %.3fs for a 4 MiB prompt after %.3fs for 1 MiB: grows faster than linearly"
          % (name, times[2], times[0]))
    print("%s  %s" % (name, " ".join("%.3f" % x for x in times)), flush=True)
finish()
