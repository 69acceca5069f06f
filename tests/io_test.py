#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the program does when its surroundings misbehave: a closed pipe, a
full disk, a live token stream, a huge line, a cache that goes bad.

usage: io_test.py HALLUSCAN SRCDIR SANITIZE MAXRSS
  SANITIZE is meson's b_sanitize; MAXRSS the helper that measures peak RSS.
"""
import json
import os
import select
import threading
import subprocess
import sys
import tempfile
import time

from checks import check, finish, scratch

BIN, SRC, SANITIZE, MAXRSS = sys.argv[1:5]


def records(out):
    return [json.loads(line) for line in out.decode().splitlines()]


def closed_pipe():
    # The reader goes away after a few bytes: exit 2 with a message.
    data = b"See https://x.example/a and 12.5% more.\n" * 200000
    with tempfile.TemporaryFile() as f:
        f.write(data)
        f.seek(0)
        p = subprocess.Popen([BIN], stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.read(100)
        p.stdout.close()
        err = p.stderr.read().decode()
    rc = p.wait()
    check(rc == 2, "closed pipe: exit status 2 (got %d)" % rc)
    check("write error: Broken pipe" in err, "closed pipe: says so: %r" % err.strip())


def full_disk():
    with open("/dev/full", "wb") as full:
        p = subprocess.run([BIN, os.path.join(SRC, "examples/transcript.txt")],
                           stdout=full, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    check(p.returncode == 2, "full disk: exit status 2 (got %d)" % p.returncode)
    check("No space left on device" in err, "full disk: says so: %r" % err.strip())


def line_buffered():
    # A finding comes out as soon as its line is complete, before input ends.
    p = subprocess.Popen([BIN, "--line-buffered"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for token in [b"It ", b"grew ", b"73", b".4", b"% ", b"today", b".\n"]:
        p.stdin.write(token)
        p.stdin.flush()
        time.sleep(0.01)
    ready, _, _ = select.select([p.stdout], [], [], 10)
    line = p.stdout.readline() if ready else b""
    check(b'"text":"73.4%"' in line, "line-buffered: finding before end of input")
    p.stdin.write(b"And https://y.example/\n")
    p.stdin.flush()
    ready, _, _ = select.select([p.stdout], [], [], 10)
    line = p.stdout.readline() if ready else b""
    check(b'"text":"https://y.example/"' in line, "line-buffered: second line flushed too")
    p.stdin.close()
    rest = records(p.stdout.read())
    p.wait()
    check(len(rest) == 1 and rest[0]["type"] == "summary" and rest[0]["findings"] == 2,
          "line-buffered: summary at the end")


def line_buffered_references():
    # With grounding, a bibliography entry's figures wait for its line to
    # end (it is then known to be an entry, and they are dropped), and
    # every finding of a line is still out when its newline arrives.
    with tempfile.NamedTemporaryFile(suffix=".txt") as src:
        src.write(b"Results: the model hit 94.2% accuracy.\n")
        src.flush()
        p = subprocess.Popen([BIN, "--no-config", "--line-buffered", "--source", src.name],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        def send(data):
            p.stdin.write(data)
            p.stdin.flush()

        def next_record(timeout):
            ready, _, _ = select.select([p.stdout], [], [], timeout)
            return json.loads(p.stdout.readline()) if ready else None

        send(b"The model reached 91.3% accuracy.\n")
        r = next_record(10)
        check(r is not None and r["signal"] == "altered_number" and r["text"] == "91.3%",
              "line-buffered references: a prose line's number at its newline")
        send(b"References:\n")
        for token in [b"1. Smith, J. A., & Lee, K. (2019). ", b"Deep learning for feline health. ",
                      b"Journal of Veterinary Informatics, 12(3), 45-67."]:
            send(token)
            time.sleep(0.05)
        check(next_record(0.5) is None,
              "line-buffered references: an entry's year waits for its line to end")
        send(b"\n")
        r = next_record(10)
        check(r is not None and r["signal"] == "fabricated_reference" and r["line"] == 3,
              "line-buffered references: the entry at its newline, its figures dropped")
        send(b"It scored 93.1% later.\n")
        r = next_record(10)
        check(r is not None and r["signal"] == "altered_number" and r["text"] == "93.1%",
              "line-buffered references: the next prose line's number at its newline")
        p.stdin.close()
        rest = records(p.stdout.read())
        p.wait()
    check(len(rest) == 1 and rest[0]["type"] == "summary" and rest[0]["findings"] == 3,
          "line-buffered references: summary at the end, nothing else held")


def huge_line():
    # 256 MiB without a line break, a finding at each end: memory stays flat.
    size = 256 << 20
    head = b"It is 12.5% now "
    tail = b" see https://end.example/z"
    p = subprocess.Popen([MAXRSS, BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    chunk = b"lorem ipsum dolor " * 58254

    def feed():
        p.stdin.write(head)
        left = size - len(head) - len(tail)
        while left > 0:
            n = min(left, len(chunk))
            p.stdin.write(chunk[:n])
            left -= n
        p.stdin.write(tail)
        p.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    out = records(p.stdout.read())
    writer.join()
    err = p.stderr.read().decode()
    p.wait()
    texts = [r.get("text") for r in out if r["type"] == "finding"]
    check(texts == ["12.5%", "https://end.example/z"], "huge line: both findings (%r)" % texts)
    check(out[-1]["bytes"] == size, "huge line: every byte counted")
    rss_mb = int(err.split("maxrss_kib ")[1]) / 1024 if "maxrss_kib " in err else 1e9
    if SANITIZE in ("", "none"):
        check(rss_mb < 12, "huge line: peak RSS %.1f MB < 12 MB" % rss_mb)
    else:
        print("skip huge line RSS under sanitizers (%.1f MB)" % rss_mb)


def distinct_findings():
    # Every finding distinct (their fingerprints counted per input), three
    # sizes: peak RSS must not grow with the count past the table's bound.
    rss = []
    for n in (50000, 200000, 800000):
        data = b"".join(b"See https://h%d.example/p. " % i for i in range(n)) + b"\n"
        p = subprocess.run([MAXRSS, BIN, "--fail-on", "never"], input=data, capture_output=True)
        err = p.stderr.decode()
        out = p.stdout.rsplit(b"\n", 2)[-2]
        check(json.loads(out).get("findings") == n, "distinct findings: %d reported" % n)
        rss.append(int(err.split("maxrss_kib ")[1]) / 1024 if "maxrss_kib " in err else 1e9)
    if SANITIZE in ("", "none"):
        check(rss[2] < rss[0] + 2, "distinct findings: peak RSS %s MB stays flat" %
              ", ".join("%.1f" % r for r in rss))
    else:
        print("skip distinct-findings RSS under sanitizers (%s MB)" % rss)


def rules_cache():
    # User packs are compiled once, then loaded; a damaged cache is rebuilt.
    pack = os.path.join(SRC, "tests/cli/cases/user-rules/rules")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, HALLUSCAN_CACHE_DIR=cache)
        text = b"a TODO here\n"
        first = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack], input=text, capture_output=True, env=env)
        files = os.listdir(cache)
        # Only a Hyperscan database can be serialized; PCRE2 compiles in microseconds.
        hyperscan = b"hyperscan" in subprocess.run([BIN, "--version"], capture_output=True).stdout
        check(first.returncode == 1 and len(files) == (1 if hyperscan else 0),
              "cache: written on first use with Hyperscan (%r)" % files)
        second = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack], input=text, capture_output=True, env=env)
        check(second.stdout == first.stdout and second.returncode == 1, "cache: same output when loaded")
        if files:
            with open(os.path.join(cache, files[0]), "r+b") as f:
                f.seek(100)
                f.write(b"\xde\xad\xbe\xef" * 64)
        third = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack], input=text, capture_output=True, env=env)
        check(third.stdout == first.stdout and third.returncode == 1, "cache: damaged entry recompiled")
        nocache = subprocess.run([BIN, "--no-cache", "--no-builtin-rules", "--rules", pack], input=text,
                                 capture_output=True, env=dict(env, HALLUSCAN_CACHE_DIR=cache + "/x"))
        check(nocache.stdout == first.stdout and not os.path.exists(cache + "/x"),
              "cache: --no-cache writes nothing")


def no_compiler_library():
    # Without the Hyperscan compiler library a pack still runs, on PCRE2: same
    # output, a warning, nothing cached.
    hyperscan = b"hyperscan" in subprocess.run([BIN, "--version"], capture_output=True).stdout
    if not hyperscan:
        print("skip no compiler library: this build has no Hyperscan")
        return
    pack = os.path.join(SRC, "patterns")
    text = b"See https://x.example/a. It grew 73.4%. Smith et al. (2021) agree.\n"
    if os.environ.get("HALLUSCAN_TEST_STATIC") == "1":
        # A static program holds the compiler (meson.build) and loads no
        # library: the variable changes nothing. (The library's fallback to
        # PCRE2 is python_binding_test.py's.)
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, HALLUSCAN_CACHE_DIR=cache, HALLUSCAN_HS_LIBRARY="/nonexistent/libhs.so")
            good = subprocess.run([BIN, "--no-cache", "--no-builtin-rules", "--rules", pack], input=text,
                                  capture_output=True)
            run = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack], input=text,
                                 capture_output=True, env=env)
            check(run.stdout == good.stdout and run.returncode == good.returncode and
                  good.stdout.count(b'"type":"finding"') == 3 and run.stderr == b"",
                  "static program: compiles a pack with no compiler library (%r)" % run.stderr)
            check(len(os.listdir(cache)) == 1, "static program: the compiled pack is cached")
            listing = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack, "--list-rules"],
                                     capture_output=True, env=env)
            check(any(row.split(b"\t")[3] == b"hyperscan" for row in listing.stdout.splitlines()),
                  "static program: --list-rules shows Hyperscan")
        return
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, HALLUSCAN_CACHE_DIR=cache)
        good = subprocess.run([BIN, "--no-cache", "--no-builtin-rules", "--rules", pack], input=text, capture_output=True)
        bad = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack], input=text, capture_output=True,
                             env=dict(env, HALLUSCAN_HS_LIBRARY="/nonexistent/libhs.so"))
        check(bad.stdout == good.stdout and bad.returncode == good.returncode and
              good.stdout.count(b'"type":"finding"') == 3,
              "no compiler library: the same findings on PCRE2")
        check(b"Hyperscan compiler is unavailable" in bad.stderr and b"PCRE2" in bad.stderr,
              "no compiler library: says so (%r)" % bad.stderr.decode().strip())
        check(os.listdir(cache) == [], "no compiler library: nothing cached")
        listing = subprocess.run([BIN, "--no-builtin-rules", "--rules", pack, "--list-rules"], capture_output=True,
                                 env=dict(env, HALLUSCAN_HS_LIBRARY="/nonexistent/libhs.so"))
        check(all(row.split(b"\t")[3] in (b"pcre2", b"lexer", b"recognizer", b"records")
                  for row in listing.stdout.splitlines()),
              "no compiler library: --list-rules shows PCRE2")


def list_and_check_rules():
    p = subprocess.run([BIN, "--list-rules"], capture_output=True)
    rows = [line.split("\t") for line in p.stdout.decode().splitlines()]
    check(p.returncode == 0 and len(rows) >= 8 and all(len(r) == 5 for r in rows),
          "--list-rules: one tab-separated row per rule")
    check({r[1] for r in rows} >= {"fabricated_url", "unsourced_statistic",
                                   "fabricated_citation", "future_certainty"},
          "--list-rules: the four signals of the spec")
    for engine in (["--engine", "pcre2"], []):
        p = subprocess.run([BIN, "--check-rules"] + engine, capture_output=True)
        check(p.returncode == 0 and b"pass" in p.stdout, "--check-rules %s" % " ".join(engine))


def nul_and_binary():
    data = bytes(range(256)) * 64 + b"\x00https://x.example/\x00\n 7.5%\n"
    p = subprocess.run([BIN], input=data, capture_output=True)
    out = records(p.stdout)
    check(p.returncode == 0 and out[-1]["bytes"] == len(data), "binary input: read to the end")
    check([r["text"] for r in out if r["type"] == "finding"] == ["https://x.example/", "7.5%"],
          "binary input: findings after NULs")


def split_reads():
    # Several windows' worth of text with findings all through it, read
    # whole from a file, from a pipe in pieces of every size, and as
    # UTF-16 (decoded, then fed by copy): the same findings each way.
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    paras = []
    for i in range(20000):
        w = words[i % len(words)]
        paras.append(
            "Revenue grew %d.%d%% in %d, per https://r%d.example/%s. " % (i % 97, i % 10, 1990 + i % 30, i, w)
            + "See Smith et al. (%d) for the %s case! Was it %d? " % (2000 + i % 20, w, i)
            + ("It rose by %d users.\n" % (i * 7) if i % 3 else "\n\n- Item %d: `code %d`\n" % (i, i)))
    data = "".join(paras).encode()
    path = os.path.join(scratch("halluscan-split-"), "in.txt")
    with open(path, "wb") as f:
        f.write(data)
    whole = subprocess.run([BIN, "--fail-on", "never", path], capture_output=True)
    p = subprocess.Popen([BIN, "--fail-on", "never"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed():
        at, k = 0, 1
        while at < len(data):
            k = (k * 7919 + 13) % 70001 + 1
            p.stdin.write(data[at:at + k])
            p.stdin.flush()
            at += k
        p.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    piped = p.stdout.read()
    writer.join()
    p.wait()
    utf16 = subprocess.run([BIN, "--fail-on", "never"], input=b"\xff\xfe" + data.decode().encode("utf-16-le"),
                           capture_output=True)

    # (a finding's fingerprint holds its path)
    def findings(out):
        return [dict(r, path="", fingerprint="") for r in records(out) if r["type"] == "finding"]

    want = findings(whole.stdout)
    check(whole.returncode == 0 and len(want) > 1000 and len(data) > 3 * 768 * 1024,
          "split reads: %d findings in %d bytes read from a file" % (len(want), len(data)))
    check(p.returncode == 0 and findings(piped) == want, "split reads: the same findings through a pipe")
    check(utf16.returncode == 0 and findings(utf16.stdout) == want,
          "split reads: the same findings from UTF-16, decoded and copied")


for test in (closed_pipe, full_disk, line_buffered, line_buffered_references, huge_line, distinct_findings, rules_cache,
             no_compiler_library, list_and_check_rules, nul_and_binary, split_reads):
    test()
finish()
