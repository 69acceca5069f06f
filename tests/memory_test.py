#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Memory and threads of --records, --input chat, -j N and --baseline.

- A record dense in findings (a URL every 20 bytes) is annotated in memory
  a small multiple of its size, not ~50 times it, with every finding listed
  in order (the findings past what is held come from a second scan).
- --input chat -j 2 over files writes each file as its turn comes: memory
  stays bounded by what is held for files not yet at their turn, not the
  sum of all the files' output; the bytes are those of -j 1.
- When memory runs out, the run stops with exit 2 and "FILE:LINE: out of
  memory", everything before that line written.
- A baseline that does not end (/dev/zero) is refused at its bound, quickly.
- -j N whose threads cannot be created runs on those that were, and says so.

Memory limits: RLIMIT_AS where there is no sanitizer; under ASan (which maps
terabytes of shadow) malloc is made to fail on large blocks instead.

usage: memory_test.py HALLUSCAN SANITIZE MAXRSS
"""
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

from checks import check, finish

BIN, SANITIZE, MAXRSS = sys.argv[1], sys.argv[2], sys.argv[3]
SAN = SANITIZE not in ("", "none")
tmp = tempfile.mkdtemp(prefix="halluscan-memory-")
os.chmod(tmp, 0o755)


def path(name):
    return os.path.join(tmp, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)
    os.chmod(path(name), 0o644)
    return path(name)


def rec(text):
    return json.dumps({"text": text}).encode() + b"\n"


def asan_env(extra):
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":" + extra
    return env


def measured(args, **kw):
    """Runs under MAXRSS; returns (status, stdout's sha256, stdout's length or
    bytes when keep, stderr, peak RSS in MB)."""
    keep = kw.pop("keep", False)
    # ASan's quarantine holds freed blocks (256 MB of them by default): kept
    # small, what is measured is what the program holds, plus ASan's own.
    p = subprocess.Popen([MAXRSS, BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=asan_env("quarantine_size_mb=4"), **kw)
    h, n, chunks = hashlib.sha256(), 0, []
    while True:
        c = p.stdout.read(1 << 20)
        if not c:
            break
        h.update(c)
        n += len(c)
        if keep:
            chunks.append(c)
    err = p.stderr.read().decode()
    p.wait()
    m = re.search(r"maxrss_kib (\d+)", err)
    rss = int(m.group(1)) / 1024 if m else 1e9
    return p.returncode, h.hexdigest(), b"".join(chunks) if keep else n, err, rss


# ---- a record dense in findings ----

def dense_record():
    n_urls = (4 << 20) // 20
    name = write("dense.jsonl", rec("https://a.example/x " * n_urls))
    size_mb = os.path.getsize(name) / (1 << 20)
    st, digest, out, err, rss = measured(["--records", "--field", "text", name], keep=True)
    check(st == 0, "dense record: exit %d, %s" % (st, err))
    check(out.count(b"\n") == 1 and out.endswith(b"}}\n"), "dense record: one line out")
    starts = [int(m) for m in re.findall(rb'"start":(\d+)', out)]
    check(starts == list(range(0, 20 * n_urls, 20)),
          "dense record: %d findings listed, want every one of %d in order"
          % (len(starts), n_urls))
    check(('"signals":{"fabricated_url":%d}' % n_urls).encode() in out,
          "dense record: the count of findings")
    # The bound: the line, its decoded text and what is held, ~2-3 times the
    # record (main: ~50 times); ASan adds its shadow and the rules' start-up.
    slack = 64 if SAN else 24
    check(rss < 4 * size_mb + slack, "dense record: peak RSS %.0f MB for a %.1f MB record"
          % (rss, size_mb))
    print("dense record: %.1f MB record, %.0f MB peak RSS" % (size_mb, rss))
    st2, digest2, _, err2, rss2 = measured(["-j", "2", "--records", "--field", "text", name])
    check(st2 == 0 and digest2 == digest, "dense record: -j 2 writes what -j 1 writes")
    check(rss2 < 4 * size_mb + slack + 16, "dense record -j 2: peak RSS %.0f MB" % rss2)


# ---- --input chat -j 2 over files ----

def chat_files():
    line = json.dumps({"role": "assistant", "content": "See https://a.example/x " * 40}).encode()
    line += b"\n"
    names = [write("chat%d.jsonl" % i, line * ((4 << 20) // len(line))) for i in range(2)]
    st1, d1, n1, err1, _ = measured(["--input", "chat"] + names)
    st2, d2, n2, err2, rss = measured(["--input", "chat", "-j", "2"] + names)
    check(st1 == 0 and st2 == 0, "chat -j 2: exit %d/%d %s %s" % (st1, st2, err1, err2))
    check(d1 == d2 and n1 == n2 and n1 > 0, "chat -j 2: the bytes of -j 1 (%d, %d)" % (n1, n2))
    # The output is ~90 MB a file; at most 32 MiB of it is held (main: all of it).
    check(rss < (120 if SAN else 80), "chat -j 2: peak RSS %.0f MB for %d MB of output"
          % (rss, n2 >> 20))
    print("chat -j 2: %d MB out, %.0f MB peak RSS" % (n2 >> 20, rss))


# ---- out of memory ----

def vm_peak_kib():
    """The address space of a run that has read one record, as it waits for more."""
    p = subprocess.Popen([BIN, "--line-buffered", "--records", "--field", "text"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    p.stdin.write(rec("https://a.example/x"))
    p.stdin.flush()
    p.stdout.readline()
    with open("/proc/%d/status" % p.pid) as f:
        peak = [int(l.split()[1]) for l in f if l.startswith("VmPeak")][0]
    p.stdin.close()
    p.wait()
    return peak


def limited(args, limit_mb_over, asan_max_mb):
    """Runs with memory short: RLIMIT_AS this much over an idle run's, or
    under ASan, malloc failing on blocks larger than asan_max_mb."""
    if SAN:
        env = asan_env("allocator_may_return_null=1:max_allocation_size_mb=%d" % asan_max_mb)
        return subprocess.run([BIN] + args, capture_output=True, env=env, timeout=120)
    lim = (vm_peak_kib() + limit_mb_over * 1024) * 1024

    def pre():
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    return subprocess.run([BIN] + args, capture_output=True, preexec_fn=pre, timeout=120)


def out_of_memory():
    first = rec("see https://ok.example/a")
    big = rec("word " * ((60 << 20) // 5))  # under the 64 MiB a record may be
    name = write("big.jsonl", first + big + rec("https://c.example/c"))
    head = write("head.jsonl", first)
    chat_first = json.dumps({"role": "assistant", "content": "see https://ok.example/a"}).encode()
    chat_first += b"\n"
    chat = write("bigchat.jsonl", chat_first + big + chat_first)
    chat_head = write("chathead.jsonl", chat_first)
    small = write("small.jsonl", chat_first)
    cases = [
        (["--records", "--field", "text"], name, head, []),
        (["-j", "2", "--records", "--field", "text"], name, head, []),
        (["--input", "chat"], chat, chat_head, []),
        (["--input", "chat", "-j", "2"], chat, chat_head, [small]),
    ]
    for opts, big_file, head_file, more in cases:
        want = subprocess.run([BIN] + opts + [head_file], capture_output=True).stdout
        want = want.replace(head_file.encode(), big_file.encode())
        if "chat" in opts:
            # The conversation did not end: its findings are written, no summary.
            want = b"".join(l for l in want.splitlines(True) if b'"type":"summary"' not in l)
        p = limited(opts + [big_file] + more, 120, 40)
        err = p.stderr.decode()
        what = "out of memory (%s)" % " ".join(opts)
        check(p.returncode == 2, "%s: exit %d" % (what, p.returncode))
        check("%s:2: out of memory" % big_file in err, "%s: says where: %r" % (what, err))
        check(p.stdout == want, "%s: what came before is written, nothing after: %r"
              % (what, p.stdout[:300]))


# ---- --baseline ----

def baseline_zero():
    args = ["--baseline", "/dev/zero", write("b.txt", b"nothing\n")]
    try:
        if SAN:
            env = asan_env("allocator_may_return_null=1:max_allocation_size_mb=1024")
            p = subprocess.run([BIN] + args, capture_output=True, env=env, timeout=60)
        else:
            def pre():
                resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
            p = subprocess.run([BIN] + args, capture_output=True, preexec_fn=pre, timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "--baseline /dev/zero: still reading after 60 s")
        return
    err = p.stderr.decode()
    check(p.returncode == 2 and "/dev/zero: larger than a baseline may be (64 MiB)" in err,
          "--baseline /dev/zero: exit %d, %r" % (p.returncode, err))


# ---- -j N without its threads ----

def no_threads():
    name = write("few.jsonl", rec("see https://a.example/x and 12.5% more") + rec("ok"))
    args = ["--no-cache", "--records", "--field", "text", name]
    want = subprocess.run([BIN] + args, capture_output=True).stdout

    def pre():
        # Threads count against RLIMIT_NPROC, which root is not held to:
        # the run is nobody's, with room for no thread but its own.
        resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))
        if os.getuid() == 0:
            os.setgid(65534)
            os.setuid(65534)
    env = asan_env("detect_leaks=0")  # LeakSanitizer needs a thread of its own
    env["HOME"] = tmp
    p = subprocess.run([BIN, "-j", "4"] + args, capture_output=True, preexec_fn=pre, env=env,
                       timeout=60)
    err = p.stderr.decode()
    check(p.returncode == 0, "-j 4 without threads: exit %d, %r" % (p.returncode, err))
    check("-j 4: 3 thread(s) could not be created" in err and "running on 1" in err,
          "-j 4 without threads: says so: %r" % err)
    check(p.stdout == want, "-j 4 without threads: the output of -j 1")


try:
    dense_record()
    chat_files()
    out_of_memory()
    baseline_zero()
    no_threads()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
