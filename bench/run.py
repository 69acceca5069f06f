#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# run.py: halluscan side by side with cat, grep, ripgrep and Python re on the same bytes (issue 6).
"""Runs the whole comparison and prints one report of tables (medians).

    python3 bench/run.py [--size 256M] [--repeats 5] [--quick] [--out FILE.md]
                         [--only SECTION,...] [--wait-quiet SECONDS]

Sections (--only picks some; all by default):
  throughput  cat corpus | TOOL > out, timed as a whole pipeline, on a plain
              corpus: cat | cat (the pipe's ceiling), halluscan (Hyperscan
              build and PCRE2-only build), ripgrep (PCRE2 and its default
              engine), GNU grep -P (LC_ALL=C and UTF-8) with the patterns
              halluscan exports, and Python re (bench/pyscan.py). MB/s
              median, ratio to cat | cat, MB per CPU-second, findings, peak
              RSS (build/maxrss).
  spans       tool spans against plain: 40% of the bytes (gencorpus --spans 40)
              and 1% of the sentences (--spans 1), where the number checks
              judge every figure after the first span.
  rules       each rule alone (a one-rule pack, halluscan --no-cache --rules;
              and bench/hsrule, Hyperscan alone): MB/s, matches on both
              engines and in Python re, callbacks per match, and the whole
              set's speed without the rule.
  counts      where halluscan's findings and the other tools' raw regex
              matches part: overlaps, tool spans, exemptions, grounding.
  startup     a 4 KB message end to end, next to /bin/true.
  streaming   the 4 KB message written 4 bytes at a time (--line-buffered):
              CPU (user + sys) of the halluscan process per message.
  memory      peak RSS on 1 GB of input and on a 100 MB single line.
Then the issue's targets, met or missed and by how much.

Now against then (issue 35):

    python3 bench/run.py --against REV [--size 64M] [--repeats 7]
                         [--identical] [--callgrind] [--no-timing]

builds the git revision REV beside the tree (git archive into
build/bench-against/COMMIT, meson setup and compile there, once per commit)
and runs --halluscan (now) and REV's build (then) on the same inputs in one
interleaved run, now and then alternating first round by round: plain text
in MB per CPU-second and per wall second, against ripgrep's default engine
on the same patterns (when rg is installed) and against cat | cat; tool
spans in 1% of the sentences and in 40% of the bytes against plain;
--records with a source per record, records per CPU-second; one 4 KB
message as a process against /bin/true; the library on a 4 KB reply with a
4 KB JSON source (bench/libbench, when the revision has it); peak RSS with
spans. Medians, and now / then ratios of CPU and wall time both.
--identical first checks that both write byte-identical output on every
bench corpus (exit 1 when not): a speed change must not change findings.
--callgrind counts instructions (valgrind) per byte for both on small
inputs (--callgrind-size) and the 4 KB message: the one figure a loaded
machine does not move. bench/HISTORY.md keeps the log of these runs.

Every section notes how much CPU other processes took meanwhile: on a shared
machine wall-clock numbers move with it (CPU-second figures much less).

Binaries come from the arguments, with defaults for a run by hand from the
source root: build/halluscan, build-pcre2/halluscan, build/bench/gencorpus,
build/maxrss, build/bench/hsrule (gencorpus, maxrss and hsrule are compiled
into the temporary directory with cc when absent). The halluscan binaries are
copied first, so a rebuild during the run changes nothing. --halluscan-pcre2
engine uses `halluscan --engine pcre2` of the Hyperscan build instead of a
PCRE2-only build. MB is 10^6 bytes; sizes such as 256M are powers of 1024
(as gencorpus reads them).
"""

import argparse
import array
import fcntl
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
# Report sections in order (--only NAME,...), and the methods that make them.
SECTIONS = [("throughput", "throughput"), ("spans", "spans_section"), ("rules", "per_rule"),
            ("counts", "counts_section"), ("startup", "startup"), ("streaming", "streaming"),
            ("memory", "memory")]
BENCH = Path(__file__).resolve().parent
MIB = 1024 * 1024

# ---------------------------------------------------------------- helpers


def parse_size(text):
    """'256M' -> bytes; K, M and G are powers of 1024, as in gencorpus."""
    m = re.fullmatch(r"(\d+)([KMG]?)", text.strip().upper())
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {text!r} (e.g. 256M, 1G)")
    return int(m.group(1)) * {"": 1, "K": 1024, "M": MIB, "G": 1024 * MIB}[m.group(2)]


def human_size(n):
    for unit, div in (("G", 1024 * MIB), ("M", MIB), ("K", 1024)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def median(values):
    return statistics.median(values) if values else None


def fmt(x, digits=1):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:,.{digits}f}"


def spread(values):
    """'min-max' of a list of MB/s, to show how noisy the machine was."""
    if len(values) < 2:
        return "-"
    return f"{min(values):,.0f}-{max(values):,.0f}"


class Table:
    """A titled table, printed aligned on the terminal and as Markdown."""

    def __init__(self, title, columns, intro=None):
        self.title, self.columns, self.intro = title, columns, intro
        self.rows, self.notes = [], []

    def add(self, *cells):
        self.rows.append([fmt(c) if not isinstance(c, str) else c for c in cells])

    def text(self):
        widths = [max(len(str(r[i])) for r in [self.columns] + self.rows)
                  for i in range(len(self.columns))]
        out = [f"== {self.title}"]
        if self.intro:
            out.append(self.intro)
        for j, row in enumerate([self.columns] + self.rows):
            out.append("  ".join((c.ljust(w) if i == 0 else c.rjust(w))
                                 for i, (c, w) in enumerate(zip(row, widths))).rstrip())
            if j == 0:
                out.append("  ".join("-" * w for w in widths))
        out += [f"  note: {n}" for n in self.notes]
        return "\n".join(out)

    def markdown(self):
        out = [f"### {self.title}", ""]
        if self.intro:
            out += [self.intro, ""]
        out.append("| " + " | ".join(self.columns) + " |")
        out.append("|" + "|".join(["---"] + ["---:"] * (len(self.columns) - 1)) + "|")
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in self.rows]
        if self.notes:
            out.append("")
            out += [f"- {n}" for n in self.notes]
        return "\n".join(out)


# ------------------------------------------------- regexes for the other tools


def utf8_mode_regex(rx):
    """Rewrites UTF-8 byte escapes as code points, for a regex run in UTF-8
    mode (grep -P in a UTF-8 locale), where \\xC3 means U+00C3, not a byte.
    Returns (regex, untranslated): untranslated is True when a non-ASCII byte
    escape is left that has no code-point equivalent."""
    def cls(m):
        lo, hi = int(m.group(1), 16), int(m.group(2), 16)
        return "[\\x{%X}-\\x{%X}]" % ((lo & 0x1F) << 6, ((hi & 0x1F) << 6) | 0x3F)

    def pair(m):
        return "\\x{%X}" % (((int(m.group(1), 16) & 0x1F) << 6) | (int(m.group(2), 16) & 0x3F))

    def triple(m):
        b = [int(m.group(i), 16) for i in (1, 2, 3)]
        return "\\x{%X}" % (((b[0] & 0x0F) << 12) | ((b[1] & 0x3F) << 6) | (b[2] & 0x3F))

    cont = r"\\x([89ABab][0-9A-Fa-f])"
    rx = re.sub(r"\[\\x([CDcd][0-9A-Fa-f])-\\x([CDcd][0-9A-Fa-f])\]\[\\x80-\\x[Bb][Ff]\]", cls, rx)
    rx = re.sub(r"\\x([Ee][0-9A-Fa-f])" + cont + cont, triple, rx)
    rx = re.sub(r"\\x([CDcd][0-9A-Fa-f])" + cont, pair, rx)
    return rx, re.search(r"\\x[89A-Fa-f][0-9A-Fa-f]", rx) is not None


def alternation(rules, utf8=False):
    """One PCRE pattern for all rules: (?:r1)|(?i:r2)|... The caseless flag is
    scoped to its own rule: ripgrep joins the lines of -f FILE without groups,
    so a leading (?i) on one line would leak into the lines after it."""
    parts = []
    for r in rules:
        rx = utf8_mode_regex(r["regex"])[0] if utf8 else r["regex"]
        parts.append(("(?i:%s)" if r["caseless"] else "(?:%s)") % rx)
    return "|".join(parts) + "\n"


# ------------------------------------------------------------------ the bench


class Bench:
    def __init__(self, args):
        self.a = args
        self.tmp = Path(tempfile.mkdtemp(prefix="halluscan-bench-", dir=args.tmpdir))
        self.tables = []
        self.notes = []          # notes for the whole report
        self.results = {}        # numbers the targets section reads
        self.main = {}           # throughput runs on the plain corpus, by label
        self.spans_runs = {}     # runs on the spans-40 corpus, by label
        self.rule_keys = []      # every rule's raw matches, for union_count
        self.env = dict(os.environ)

    # ---- binaries

    def build_c(self, name, sources, flags=()):
        """Compiles a helper into the temporary directory when its build is absent."""
        out = self.tmp / name
        cc = os.environ.get("CC", "cc")
        cmd = [cc, "-O2", "-std=c11", "-D_GNU_SOURCE", "-o", str(out)] + [str(s) for s in sources]
        cmd += list(flags)
        log("compiling " + " ".join(cmd))
        subprocess.run(cmd, check=True)
        return str(out)

    def resolve(self):
        a = self.a
        self.hal = a.halluscan if a.halluscan and Path(a.halluscan).exists() else None
        if self.hal and "hyperscan" not in self.version(self.hal):
            self.notes.append(f"{self.hal} is a PCRE2-only build: no Hyperscan rows.")
            self.hal_pcre2_cmd = [self.hal]
            self.hal_pcre2_label = "halluscan (PCRE2 build)"
            self.hal = None
        elif a.halluscan_pcre2 != "engine" and Path(a.halluscan_pcre2).exists():
            self.hal_pcre2_cmd = [a.halluscan_pcre2]
            self.hal_pcre2_label = "halluscan (PCRE2 build)"
        elif self.hal:
            self.hal_pcre2_cmd = [self.hal, "--engine", "pcre2"]
            self.hal_pcre2_label = "halluscan --engine pcre2"
            self.notes.append("No PCRE2-only build given: the PCRE2 rows run the Hyperscan "
                              "build with --engine pcre2 (same scanner, libhs still loaded).")
        else:
            sys.exit(f"run.py: no halluscan at {a.halluscan} or {a.halluscan_pcre2}")
        # Snapshot the programs under test: a rebuild during the run must not
        # change them half-way.
        if self.hal:
            self.hal = self.snapshot(self.hal, "halluscan-hs")
        self.hal_pcre2_cmd[0] = self.snapshot(self.hal_pcre2_cmd[0], "halluscan-pcre2")
        self.any_hal = self.hal or self.hal_pcre2_cmd[0]

        self.gencorpus = a.gencorpus if Path(a.gencorpus).exists() else \
            self.build_c("gencorpus", [BENCH / "gencorpus.c"])
        self.maxrss = a.maxrss if Path(a.maxrss).exists() else \
            self.build_c("maxrss", [ROOT / "tools" / "maxrss.c"])
        self.hsrule = a.hsrule if a.hsrule and Path(a.hsrule).exists() else None
        if not self.hsrule and self.hal and shutil.which("pkg-config") and \
                subprocess.run(["pkg-config", "--exists", "libhs"]).returncode == 0:
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libhs"], check=True,
                                   capture_output=True, text=True).stdout.split()
            self.hsrule = self.build_c("hsrule", [BENCH / "hsrule.c"], flags)
        self.rg = shutil.which("rg")
        self.grep = shutil.which("grep")
        locales = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split()
        self.utf8_locale = next((loc for loc in ("C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8")
                                 if loc in locales), None)

    def snapshot(self, binary, name):
        dest = self.tmp / name
        if not dest.exists():
            shutil.copy2(binary, dest)
            log(f"testing a copy of {binary} (built {time.ctime(Path(binary).stat().st_mtime)})")
        return str(dest)

    def check_builds(self):
        """Notes when the two builds do not carry the same rules."""
        if not self.hal or self.hal_pcre2_cmd[0] == self.hal:
            return
        digests = []
        for argv in ([self.hal], self.hal_pcre2_cmd):
            p = subprocess.run(argv + ["--fail-on", "never"], input=b"", capture_output=True)
            last = p.stdout.splitlines()[-1] if p.stdout else b"{}"
            digests.append(json.loads(last).get("ruleset"))
        if digests[0] != digests[1]:
            self.notes.append(f"The Hyperscan and PCRE2 builds load different rule sets "
                              f"({digests[0]} vs {digests[1]}): one of them is stale, so "
                              "their counts may differ.")

    @staticmethod
    def version(binary):
        r = subprocess.run([binary, "--version"], capture_output=True, text=True)
        return r.stdout.strip()

    # ---- inputs

    def gen(self, name, *gen_args, size=None):
        path = self.tmp / name
        cmd = [self.gencorpus, "--seed", str(self.a.seed)] + list(gen_args)
        if size is not None:
            cmd += ["--size", str(size)]
        with open(path, "wb") as f:
            subprocess.run(cmd, stdout=f, check=True)
        return path

    def single_line(self, name, size):
        """size bytes of corpus with every newline removed: one long line."""
        path = self.tmp / name
        p = subprocess.Popen([self.gencorpus, "--seed", str(self.a.seed), "--size",
                              str(size + size // 8)], stdout=subprocess.PIPE)
        left = size
        with open(path, "wb") as f:
            while left > 0:
                chunk = p.stdout.read(1 << 20)
                if not chunk:
                    break
                chunk = chunk.replace(b"\n", b" ")[:left]
                f.write(chunk)
                left -= len(chunk)
        p.stdout.close()
        p.wait()
        if left:
            sys.exit("run.py: gencorpus produced too little for the single line")
        return path

    def pick_message(self):
        """The 4 KB message of the first seed from --seed on whose message
        holds at least one finding, so that the start-up and streaming runs
        also emit (seed 1's message happens to hold none)."""
        for seed in range(self.a.seed, self.a.seed + 50):
            path = self.tmp / "message.txt"
            with open(path, "wb") as f:
                subprocess.run([self.gencorpus, "--seed", str(seed), "--message"], stdout=f,
                               check=True)
            p = subprocess.run([self.any_hal, "--fail-on", "never"], stdin=open(path, "rb"),
                               capture_output=True)
            if b'{"type":"finding"' in p.stdout:
                break
        self.message_seed = seed
        return path

    def prepare(self):
        a = self.a
        log(f"temporary directory {self.tmp}")
        log(f"generating corpora: plain and spans-40 of {human_size(a.size)}, "
            f"a 4 KB message, a {human_size(a.line_size)} single line")
        need = a.only
        self.plain = self.gen("plain.txt", size=a.size) \
            if need & {"throughput", "rules", "counts"} else None
        self.spans = self.gen("spans40.txt", "--spans", "40", size=a.size) \
            if need & {"spans", "counts"} else None
        # Tool spans in 1% of the sentences: the number checks wake at the
        # first one and judge every figure after it (issue 14's second case).
        self.spans1 = self.gen("spans1.txt", "--spans", "1", size=a.size) \
            if "spans" in need else None
        self.message = self.pick_message()
        self.line = self.single_line("line.txt", a.line_size) if "memory" in need else None

        # The rules, as halluscan exports them.
        out = subprocess.run([self.any_hal, "--export-patterns"], check=True,
                             capture_output=True, text=True).stdout
        self.rules = []
        for row in out.splitlines():
            rid, signal, flags, regex = row.split("\t", 3)
            self.rules.append({"id": rid, "signal": signal, "caseless": flags == "i",
                               "regex": regex})
        (self.tmp / "patterns.tsv").write_text(out)
        self.write_hs_tsv(self.tmp / "hs-patterns.tsv", self.rules)
        listing = subprocess.run([self.any_hal, "--list-rules"], check=True,
                                 capture_output=True, text=True).stdout
        self.rule_engine = {ln.split("\t")[0]: ln.split("\t")[3] for ln in listing.splitlines()}
        self.prepare_packs()

    def prepare_packs(self):
        """One-rule packs and raw packs (no exemptions, no spans) from patterns/*.yaml."""
        self.packs = {}
        pdir = Path(self.a.patterns)
        if not pdir.is_dir():
            self.notes.append(f"No rule packs at {pdir}: per-rule and count sections skipped.")
            return
        yaml_rules, spans = {}, []
        for f in sorted(pdir.glob("*.yaml")):
            doc = yaml.safe_load(f.read_text()) or {}
            for r in doc.get("rules") or []:
                yaml_rules[r["id"]] = r
            spans += doc.get("spans") or []
        def joined(pattern):
            # A pattern written as a list is exported as its alternation.
            if isinstance(pattern, list):
                return "|".join(f"(?:{p})" for p in pattern)
            return pattern

        # A rule with extend: exports the regex of its whole match, not its pattern.
        stale = [r["id"] for r in self.rules
                 if r["id"] not in yaml_rules or (joined(yaml_rules[r["id"]].get("pattern")) != r["regex"]
                                                  and not yaml_rules[r["id"]].get("extend"))]
        # Hyperscan gets a list's alternatives apart, as halluscan compiles them.
        for r in self.rules:
            pat = yaml_rules.get(r["id"], {}).get("pattern")
            r["alts"] = pat if isinstance(pat, list) and r["id"] not in stale else [r["regex"]]
        self.write_hs_tsv(self.tmp / "hs-patterns.tsv", self.rules)
        if stale:
            self.notes.append("The YAML packs and the binary's exported patterns differ for "
                              f"{', '.join(stale)} (stale build?): per-rule packs use the YAML.")

        def raw(rule):
            # The regex alone: no exemptions (unless_*, and pressure, which
            # only turns them off), no grounding (grounding, near). Then a
            # rule may match its negative examples, which halluscan checks
            # at load: drop them; and an example's exact match may be what
            # the rule's logic makes of a match (a reference entry read
            # whole from its trigger): keep only that it matches. Its
            # fix_examples are repaired by the whole rule, exemptions
            # included, and checked at load: drop them too.
            r = {k: v for k, v in rule.items()
                 if not k.startswith("unless_")
                 and k not in ("grounding", "near", "pressure", "fix_examples")}
            r["examples"] = [e["text"] if isinstance(e, dict) else e
                             for e in rule.get("examples") or []]
            r["negative_examples"] = []
            return r

        def write(name, doc):
            path = self.tmp / name
            with open(path, "w") as f:
                yaml.safe_dump(doc, f, allow_unicode=True, sort_keys=False)
            return str(path)

        ids = [r["id"] for r in self.rules if r["id"] in yaml_rules]
        for rid in ids:
            self.packs[rid] = write(f"rule-{rid}.yaml", {"rules": [raw(yaml_rules[rid])]})
        self.packs["@raw"] = write("raw.yaml", {"rules": [raw(yaml_rules[i]) for i in ids]})
        self.packs["@raw+spans"] = write("raw-spans.yaml", {
            "rules": [raw(yaml_rules[i]) for i in ids], "spans": spans})

    @staticmethod
    def write_hs_tsv(path, rules):
        """An hsrule --all file: a line per expression halluscan gives Hyperscan."""
        Path(path).write_text("".join(
            f"{q['id']}\t{q['signal']}\t{'i' if q['caseless'] else '-'}\t{alt}\n"
            for q in rules for alt in q.get("alts", [q["regex"]])))

    # ---- running

    def pipeline(self, producer, argv, out, env=None):
        """producer | maxrss argv > out. Returns (seconds, peak RSS KiB, exit
        status, stderr text, CPU seconds): the time is the whole pipeline's,
        the CPU time (user + sys) the tool's, which other work on the
        machine disturbs far less than the wall clock."""
        with open(out, "wb") as fo, open(self.tmp / "stderr.txt", "w+b") as fe:
            t0 = time.perf_counter()
            prod = subprocess.Popen(producer, stdout=subprocess.PIPE)
            tool = subprocess.Popen([self.maxrss] + argv, stdin=prod.stdout, stdout=fo,
                                    stderr=fe, env=env)
            prod.stdout.close()
            # wait4 on maxrss: its usage includes the tool, which it waited for.
            _, status, ru = os.wait4(tool.pid, 0)
            tool.returncode = rc = os.waitstatus_to_exitcode(status)
            prod.wait()
            dt = time.perf_counter() - t0
            fe.seek(0)
            err = fe.read().decode(errors="replace")
        m = re.findall(r"^maxrss_kib (\d+)$", err, re.M)
        rss = int(m[-1]) if m else None
        err = re.sub(r"^maxrss_kib \d+\n?", "", err, flags=re.M).strip()
        return dt, rss, rc, err, ru.ru_utime + ru.ru_stime

    @staticmethod
    def summary(out):
        """The last summary record of halluscan's output."""
        last = None
        with open(out, "rb") as f:
            for line in f:
                if line.startswith(b'{"type":"summary"'):
                    last = line
        return json.loads(last) if last else None

    def halluscan_tool(self, label, cmd, extra=()):
        def count(out):
            s = self.summary(out)
            return (s["findings"], s) if s else (None, None)
        return {"label": label, "argv": list(cmd) + ["--fail-on", "never"] + list(extra),
                "count": count, "ok": (0,)}

    def line_count_tool(self, label, argv, env=None):
        def count(out):
            with open(out, "rb") as f:
                return sum(1 for _ in f), None
        return {"label": label, "argv": argv, "count": count, "ok": (0, 1), "env": env}

    def measure(self, tools, corpus, repeats):
        """Runs every tool repeats times, round robin, on corpus, but a slow
        tool only as often as fits in --tool-budget seconds (at least once):
        its median moves little, and the whole run has a time budget. Fills
        each tool's mbps and cpu_mbps (lists), rss (max), findings, extra."""
        size = corpus.stat().st_size
        for t in tools:
            t.update(mbps=[], cpu_mbps=[], rss=None, findings=None, extra=None, error=None)
            t.setdefault("repeats", repeats)
        i = 0
        while any(i < t["repeats"] and not t["error"] for t in tools):
            for t in tools:
                if i >= t["repeats"] or t["error"]:
                    continue
                log(f"{t['label']}: run {i + 1}/{t['repeats']} on {corpus.name}")
                out = self.tmp / "out.txt" if t.get("count") else Path(os.devnull)
                dt, rss, rc, err, cpu = self.pipeline(["cat", str(corpus)], t["argv"], out,
                                                      t.get("env"))
                if rc not in t.get("ok", (0,)):
                    t["error"] = f"exit {rc}: {err[:200]}"
                    log(f"  {t['label']} failed: {t['error']}")
                    continue
                t["mbps"].append(size / 1e6 / dt)
                t["cpu_mbps"].append(size / 1e6 / max(cpu, 1e-6))
                t["rss"] = max(t["rss"] or 0, rss or 0)
                if t.get("count") and t["findings"] is None:
                    t["findings"], t["extra"] = t["count"](out)
                if i == 0:
                    # Each tool gets about --tool-budget seconds of runs.
                    t["repeats"] = max(1, min(t["repeats"], int(self.a.tool_budget // dt)))
            i += 1
        for t in tools:
            t["median"] = median(t["mbps"])
            t["cpu_median"] = median(t["cpu_mbps"])

    # ---- sections

    def usable_rules(self, check):
        """Rules a tool accepts, and the notes for those it rejects."""
        ok, bad = [], []
        for r in self.rules:
            (ok if check(r) else bad).append(r)
        return ok, [r["id"] for r in bad]

    def grep_accepts(self, r, utf8=False):
        rx = utf8_mode_regex(r["regex"])[0] if utf8 else r["regex"]
        env = dict(self.env, LC_ALL=self.utf8_locale if utf8 else "C")
        p = subprocess.run([self.grep, "-P", "-e", ("(?i)" if r["caseless"] else "") + rx],
                           stdin=subprocess.DEVNULL, capture_output=True, env=env)
        return p.returncode == 1

    def rg_accepts(self, r, pcre2):
        # "-" and a pipe: with no path and stdin not a pipe, rg searches "./".
        p = subprocess.run([self.rg, "--no-unicode"] + (["-P"] if pcre2 else []) +
                           ["-e", ("(?i)" if r["caseless"] else "") + r["regex"], "-"],
                           input=b"", capture_output=True)
        return p.returncode == 1

    @staticmethod
    def python_accepts(r):
        try:
            re.compile(r["regex"].encode())
            return True
        except re.error:
            return False

    def other_tools(self):
        """ripgrep, grep and Python re rows, each with the rules it can run."""
        tools, notes = [], []
        n = len(self.rules)

        def add(label, accept, build):
            ok, bad = self.usable_rules(accept)
            if bad:
                notes.append(f"{label} rejects {', '.join(bad)}: those rules are left out "
                             f"of its row ({len(ok)} of {n} rules).")
            if ok:
                tools.append(build(ok))
            else:
                tools.append({"label": label, "skip": "accepts no rule"})

        if self.rg and subprocess.run([self.rg, "--pcre2-version"],
                                      capture_output=True).returncode == 0:
            def rg_pcre2(ok):
                f = self.tmp / "rg-pcre2.pat"
                f.write_text(alternation(ok))
                return self.line_count_tool("ripgrep -P (PCRE2 JIT)", [
                    self.rg, "-a", "--no-unicode", "-P", "-o", "-f", str(f)])
            add("ripgrep -P", lambda r: self.rg_accepts(r, True), rg_pcre2)
        if self.rg:
            def rg_default(ok):
                f = self.tmp / "rg-default.pat"
                f.write_text(alternation(ok))
                return self.line_count_tool("ripgrep (default engine)", [
                    self.rg, "-a", "--no-unicode", "-o", "-f", str(f)])
            add("ripgrep (Rust regex)", lambda r: self.rg_accepts(r, False), rg_default)
        else:
            tools.append({"label": "ripgrep", "skip": "not installed"})
        grep_p = self.grep and subprocess.run(
            [self.grep, "-P", "x"], stdin=subprocess.DEVNULL, capture_output=True).returncode == 1
        if grep_p:
            def grep_c(ok):
                f = self.tmp / "grep-c.pat"
                f.write_text(alternation(ok))
                return self.line_count_tool("grep -P, LC_ALL=C", [
                    self.grep, "-a", "-P", "-o", "-f", str(f)], dict(self.env, LC_ALL="C"))
            add("grep -P (LC_ALL=C)", lambda r: self.grep_accepts(r), grep_c)
            if self.utf8_locale:
                def grep_u(ok):
                    f = self.tmp / "grep-utf8.pat"
                    f.write_text(alternation(ok, utf8=True))
                    return self.line_count_tool(f"grep -P, LC_ALL={self.utf8_locale}", [
                        self.grep, "-a", "-P", "-o", "-f", str(f)],
                        dict(self.env, LC_ALL=self.utf8_locale))
                add("grep -P (UTF-8)", lambda r: self.grep_accepts(r, True), grep_u)
                moved = [r["id"] for r in self.rules
                         if utf8_mode_regex(r["regex"])[0] != r["regex"]]
                left = [r["id"] for r in self.rules if utf8_mode_regex(r["regex"])[1]]
                if moved:
                    notes.append(f"grep -P in a UTF-8 locale reads \\xC3 as U+00C3, not a byte: "
                                 f"the UTF-8 byte classes of {', '.join(moved)} are rewritten as "
                                 "code-point ranges ([\\xC3-\\xC5][\\x80-\\xBF] -> "
                                 "[\\x{C0}-\\x{17F}], \\xC3\\x97 -> \\x{D7}, \\xE2\\x82\\xAC -> "
                                 "\\x{20AC}).")
                if left:
                    notes.append(f"{', '.join(left)}: non-ASCII byte escapes left that have "
                                 "no code-point form; in grep's UTF-8 row they match code "
                                 "points, not bytes.")
            else:
                tools.append({"label": "grep -P, UTF-8", "skip": "no UTF-8 locale"})
        else:
            tools.append({"label": "grep -P", "skip": "grep without PCRE"})

        def py(ok):
            f = self.tmp / "python.tsv"
            f.write_text("".join(f"{r['id']}\t{r['signal']}\t{'i' if r['caseless'] else '-'}"
                                 f"\t{r['regex']}\n" for r in ok))

            def count(out):
                d = json.loads(Path(out).read_text())
                return d["total"], d["rules"]
            return {"label": "Python re (bench/pyscan.py)", "count": count, "ok": (0,),
                    "argv": [sys.executable, str(BENCH / "pyscan.py"), str(f)],
                    "repeats": self.a.python_repeats}
        add("Python re", self.python_accepts, py)
        return tools, notes

    def throughput(self):
        a = self.a
        cat = {"label": "cat | cat", "argv": ["cat"], "count": None}
        hal = []
        if self.hal:
            hal.append(self.halluscan_tool("halluscan (Hyperscan)", [self.hal]))
        hal.append(self.halluscan_tool(self.hal_pcre2_label, self.hal_pcre2_cmd))
        others, notes = self.other_tools()
        tools = [cat] + hal + others
        self.measure([t for t in tools if not t.get("skip")], self.plain, a.repeats)

        ceiling = cat["median"]
        ref = hal[0]["median"]
        tab = Table(f"Throughput: {human_size(a.size)} plain corpus through a pipe "
                    f"(MB/s: median of the runs)",
                    ["tool", "MB/s", "runs", "min-max", "x cat|cat", "halluscan is x faster",
                     "MB per CPU-s", "findings / matches", "peak RSS KiB"])
        for t in tools:
            if t.get("skip"):
                tab.add(t["label"], t["skip"], *["-"] * 7)
                continue
            if t["error"] or t["median"] is None:
                tab.add(t["label"], "failed", *["-"] * 7)
                tab.notes.append(f"{t['label']}: {t['error']}")
                continue
            tab.add(t["label"], t["median"], str(len(t["mbps"])), spread(t["mbps"]),
                    f"{t['median'] / ceiling:.2f}",
                    "-" if t is cat or t is hal[0] else f"{ref / t['median']:.1f}",
                    t["cpu_median"], t["findings"] if t["findings"] is not None else "-",
                    t["rss"])
        tab.notes.append(f"Round robin, up to {a.repeats} rounds; a slow tool runs as often as "
                         f"fits in {a.tool_budget:g} s (Python re: {a.python_repeats}). MB per "
                         "CPU-s: bytes over the tool's own user + sys time (for cat | cat, the "
                         "second cat's), steadier than MB/s on a shared machine.")
        tab.notes += notes
        tab.notes.append(
            "halluscan counts findings (spans, sentence exemptions, one finding per stretch "
            "per signal); grep and ripgrep count raw -o matches of one alternation of all "
            "rules (leftmost-first, one match per stretch whatever the rule); Python re counts "
            "raw matches per rule (a stretch two rules match counts twice). See the counts "
            "table for where the numbers part.")
        tab.notes.append("ripgrep and grep run in byte mode (rg --no-unicode; grep LC_ALL=C) "
                         "where \\b, \\d, \\s are ASCII as in halluscan; grep's UTF-8 row adds "
                         "the locale's cost. ripgrep reads the pipe, not the file (no mmap).")
        self.tables.append(tab)
        self.main = {t["label"]: t for t in tools}
        self.results.update(cat=ceiling, hs=self.hal and hal[0], pcre2=hal[-1], others=others)

    def spans_section(self):
        a = self.a
        hal = []
        if self.hal:
            hal.append(self.halluscan_tool("halluscan (Hyperscan)", [self.hal]))
        hal.append(self.halluscan_tool(self.hal_pcre2_label, self.hal_pcre2_cmd))
        self.measure(hal, self.spans, a.repeats)
        self.spans_runs = {t["label"]: dict(t) for t in hal}
        self.measure(hal, self.spans1, a.repeats)
        spans1_runs = {t["label"]: dict(t) for t in hal}
        tab = Table(f"Tool spans: gencorpus --spans 40 (40% of the bytes) and --spans 1 (1% of "
                    f"the sentences), {human_size(a.size)} each (MB/s: median of the runs)",
                    ["build", "corpus", "plain MB/s", "spans MB/s", "runs", "spans / plain",
                     "findings", "tool spans", "peak RSS KiB"])
        for name, runs in (("spans-40", self.spans_runs), ("spans-1", spans1_runs)):
            for t in runs.values():
                plain = self.main.get(t["label"], {}).get("median")
                s = t["extra"] or {}
                tab.add(t["label"], name, plain, t["median"], str(len(t["mbps"])),
                        f"{t['median'] / plain:.2f}" if t["median"] and plain else "-",
                        t["findings"], s.get("spans", "-"), t["rss"])
        self.tables.append(tab)
        first = hal[0]["label"]
        plain = self.main.get(first, {}).get("median")
        s40, s1 = self.spans_runs[first].get("median"), spans1_runs[first].get("median")
        self.results["spans_ratio"] = s40 / plain if s40 and plain else None
        self.results["spans40_mbps"] = s40
        self.results["spans1_ratio"] = s1 / plain if s1 and plain else None

    def counts_section(self):
        """halluscan with layers of its semantics removed, so that each step
        from raw regex matches to findings is one number."""
        if "@raw" not in self.packs:
            return
        binary = [self.hal] if self.hal else self.hal_pcre2_cmd
        label = "halluscan (Hyperscan)" if self.hal else self.hal_pcre2_label
        rows = []
        for corpus, full in ((self.plain, self.main), (self.spans, self.spans_runs)):
            got = {}
            for key in ("@raw", "@raw+spans"):
                log(f"counts: {key} on {corpus.name}")
                out = self.tmp / "out.txt"
                _, _, rc, err, _ = self.pipeline(["cat", str(corpus)], binary + [
                    "--no-cache", "--fail-on", "never", "--no-builtin-rules", "--rules", self.packs[key]], out)
                got[key] = (self.summary(out) if rc == 0 else None) or {
                    "findings": "failed", "error": err}
                if rc:
                    self.notes.append(f"counts, {key} pack: {err[:300]}")
            if label in full:
                got["@builtin"] = full[label]["extra"] or {"findings": "failed"}
            else:   # --only: the throughput runs did not happen
                out = self.tmp / "out.txt"
                self.pipeline(["cat", str(corpus)], binary + ["--fail-on", "never"], out)
                got["@builtin"] = self.summary(out) or {"findings": "failed"}
            rows.append((corpus.name, got))
        tab = Table(f"Counts: from raw regex matches to halluscan's findings ({label})",
                    ["input", "each rule alone (sum)", "all rules as one (like -o)",
                     "all rules, raw", "+ tool spans", "built-in packs = findings",
                     "exempted", "grounded"])
        per_rule = getattr(self, "per_rule_sum", None)
        union = getattr(self, "union", None)
        for name, got in rows:
            b = got["@builtin"]
            first = name == self.plain.name
            tab.add(name, per_rule if first and per_rule is not None else "-",
                    union if first and union is not None else "-", got["@raw"]["findings"],
                    got["@raw+spans"]["findings"], b["findings"],
                    b.get("exempted", "-"), b.get("grounded", "-"))
        tab.notes.append(
            "Each rule alone: the raw regex matches (one-rule packs without exemptions, "
            "grounding or spans; leftmost-longest, non-overlapping, within a line), the number "
            "Python re counts. All rules as one: those matches, one per stretch whatever the "
            "rule (leftmost, then longest), as one alternation under grep -o or rg -o counts "
            "them (leftmost-first there). All rules, "
            "raw: one finding per stretch per signal. + tool spans: matches in spans dropped. "
            "Built-in packs: sentence exemptions (unless_*), grounding and the rest of the "
            "rule logic on top.")
        for t in self.results.get("others", []):
            if t.get("findings") is None:
                continue
            ref, what = (per_rule, "each rule alone (sum)") if t["label"].startswith(
                "Python") else (union, "all rules as one")
            diff = (f": {t['findings'] - ref:+,} against \"{what}\"" if ref is not None
                    else "")
            tab.notes.append(f"{t['label']} counts {t['findings']:,} on {self.plain.name}"
                             f"{diff}.")
        self.tables.append(tab)

        # Per signal: which layer removes what.
        signals = []
        for _, got in rows:
            for key in ("@raw+spans", "@builtin"):
                for sig in (got[key].get("signals") or {}):
                    if sig not in signals:
                        signals.append(sig)
        cols = ["signal"]
        for name, _ in rows:
            cols += [f"{name}: raw + spans", f"{name}: findings"]
        tab = Table("Counts per signal: raw rules with spans vs the built-in packs", cols)
        for sig in signals:
            cells = [sig]
            for _, got in rows:
                for key in ("@raw+spans", "@builtin"):
                    cells.append((got[key].get("signals") or {}).get(sig, "-"))
            tab.add(*cells)
        self.tables.append(tab)

    def collect_matches(self, out):
        """Count function for the one-rule runs: also keeps every match as one
        sortable integer, start << 14 | (16383 - length), for union_count."""
        keys = array.array("Q")
        pos = re.compile(rb'"start":(\d+),"end":(\d+)')
        with open(out, "rb") as f:
            for line in f:
                m = pos.search(line)
                if m and line.startswith(b'{"type":"finding"'):
                    start, end = int(m.group(1)), int(m.group(2))
                    keys.append(start << 14 | (16383 - min(end - start, 16383)))
        self.rule_keys.append(keys)
        s = self.summary(out)
        return (s["findings"], s) if s else (None, None)

    def union_count(self):
        """How many matches of all rules together survive when each stretch
        keeps one, the leftmost and then the longest, whatever its rule."""
        keys = sorted(k for ks in self.rule_keys for k in ks)
        self.rule_keys = []
        count, last_end = 0, 0
        for k in keys:
            start = k >> 14
            if start >= last_end:
                count += 1
                last_end = start + 16383 - (k & 16383)
        return count

    def per_rule(self):
        a = self.a
        if not self.hal or not any(not k.startswith("@") for k in self.packs):
            if not self.hal:
                self.notes.append("Per-rule section needs the Hyperscan build: skipped.")
            return
        repeats = a.rule_repeats
        py = self.main.get("Python re (bench/pyscan.py)", {}).get("extra") or {}
        tab = Table(f"Per rule: each rule alone over the {human_size(a.size)} plain corpus "
                    f"(median of {repeats})",
                    ["rule", "engine", "halluscan MB/s", "hsrule MB/s", "matches (halluscan)",
                     "--engine pcre2", "Python re", "hsrule callbacks", "callbacks / match",
                     "hsrule, all but this rule"])
        total = 0
        engines_differ, semantics_differ = [], []
        for r in self.rules:
            rid = r["id"]
            if rid not in self.packs:
                continue
            t = self.halluscan_tool(rid, [self.hal], ["--no-cache", "--no-builtin-rules", "--rules", self.packs[rid]])
            t["count"] = self.collect_matches
            self.measure([t], self.plain, repeats)
            found = t["findings"]
            if t["error"]:
                tab.notes.append(f"{rid}: halluscan failed on its one-rule pack: {t['error']}")
                total = None
            elif total is not None:
                total += found
            # The same rule on halluscan's PCRE2 engine (same binary, one run):
            # where it and Python re agree and Hyperscan does not, the
            # difference is halluscan's, not leftmost-longest vs leftmost-first.
            pc = None
            if a.rule_pcre2:
                out = self.tmp / "out.txt"
                _, _, rc, err, _ = self.pipeline(["cat", str(self.plain)], [
                    self.hal, "--engine", "pcre2", "--no-cache", "--fail-on", "never",
                    "--no-builtin-rules", "--rules", self.packs[rid]], out)
                pc = (self.summary(out) or {}).get("findings") if rc == 0 else None
            if found is not None and pc is not None and pc != found:
                engines_differ.append(f"{rid} (Hyperscan {found:,}, PCRE2 {pc:,}, "
                                      f"Python re {py.get(rid, '-'):,})")
            elif py and found is not None and py.get(rid) != found:
                semantics_differ.append(f"{rid} ({found:,} vs {py.get(rid, '-'):,})")
            hs_mbps, callbacks = [], None
            if self.hsrule:
                one = self.tmp / "one.tsv"
                self.write_hs_tsv(one, [r])
                for _ in range(repeats):
                    argv = ([self.hsrule] + (["-i"] if r["caseless"] else []) +
                            [r["regex"], str(self.plain)]) if len(r.get("alts", [])) <= 1 else \
                        [self.hsrule, "--all", str(one), str(self.plain)]
                    p = subprocess.run(argv, capture_output=True, text=True)
                    m = re.search(r"callbacks (\d+) .* mbps ([\d.]+)", p.stdout)
                    if not m:
                        callbacks = "rejected"
                        break
                    callbacks = int(m.group(1))
                    hs_mbps.append(float(m.group(2)))
            ratio = (f"{callbacks / found:.2f}" if isinstance(callbacks, int) and found
                     else "-")
            # What the whole set runs at without this rule: the rule that
            # slows the set down stands out here, not in its own column.
            without = []
            if self.hsrule:
                rest = self.tmp / "rest.tsv"
                self.write_hs_tsv(rest, [q for q in self.rules if q is not r])
                for _ in range(a.without_repeats):
                    p = subprocess.run([self.hsrule, "--all", str(rest), str(self.plain)],
                                       capture_output=True, text=True)
                    m = re.search(r"mbps ([\d.]+)", p.stdout)
                    if m:
                        without.append(float(m.group(1)))
            tab.add(rid, self.rule_engine.get(rid, "?"), t["median"], median(hs_mbps),
                    found, pc if pc is not None else "-", py.get(rid, "-"),
                    callbacks if callbacks is not None else "-", ratio, median(without))
        self.per_rule_sum = total
        self.union = self.union_count() if total is not None else None
        if engines_differ:
            tab.notes.append("halluscan's two engines disagree on the same rule and bytes "
                             "(the design promises one match semantics): " +
                             "; ".join(engines_differ) + ".")
        if py:
            tab.notes.append("halluscan and Python re find the same raw matches for every "
                             "other rule." if not semantics_differ else
                             "halluscan (leftmost-longest) and Python re (leftmost-first) "
                             "differ for " + ", ".join(semantics_differ) + ".")
        if self.hsrule:
            for flags, what in (([], "generic target, as halluscan"),
                                (["--native"], "compiled for this CPU")):
                mbps, callbacks = [], None
                for _ in range(repeats):
                    p = subprocess.run([self.hsrule] + flags + [
                        "--all", str(self.tmp / "hs-patterns.tsv"), str(self.plain)],
                        capture_output=True, text=True)
                    m = re.search(r"callbacks (\d+) .* mbps ([\d.]+)", p.stdout)
                    if m:
                        callbacks = int(m.group(1))
                        mbps.append(float(m.group(2)))
                if mbps:
                    tab.notes.append(
                        f"hsrule --all, every rule in one database, Hyperscan alone in memory "
                        f"({what}): {median(mbps):,.1f} MB/s (median of {len(mbps)}), "
                        f"{callbacks:,} callbacks.")
                    self.results.setdefault("hs_all", median(mbps))
        tab.notes.append("halluscan MB/s: one-rule pack without exemptions or spans, through "
                         "a pipe, compile included (--no-cache). hsrule MB/s: Hyperscan alone "
                         "on the file in memory, 64 KiB stream writes, start of match on.")
        tab.notes.append("callbacks / match: Hyperscan reports every end of every match; "
                         "halluscan keeps the leftmost-longest. Far above 1: an open tail. "
                         "All but this rule: hsrule --all without it (median of "
                         f"{a.without_repeats}), against the full set's figure below.")
        self.tables.append(tab)

    def spawn_timed(self, argv, stdin_path):
        """argv < stdin_path > /dev/null: (wall seconds, CPU seconds). Spawned
        with posix_spawn and reaped with wait4, so that the harness adds as
        little of its own as it can."""
        fin = os.open(stdin_path, os.O_RDONLY)
        fout = os.open(os.devnull, os.O_WRONLY)
        try:
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, self.env,
                                 file_actions=[(os.POSIX_SPAWN_DUP2, fin, 0),
                                               (os.POSIX_SPAWN_DUP2, fout, 1)])
            _, _, ru = os.wait4(pid, 0)
            wall = time.perf_counter() - t0
        finally:
            os.close(fin)
            os.close(fout)
        return wall, ru.ru_utime + ru.ru_stime

    def startup(self):
        a = self.a
        cmds = [("/bin/true", ["/bin/true"])]
        if self.hal:
            cmds.append(("halluscan (Hyperscan)", [self.hal]))
        cmds.append((self.hal_pcre2_label, self.hal_pcre2_cmd))
        walls = {label: [] for label, _ in cmds}
        cpus = {label: [] for label, _ in cmds}
        log(f"start-up: {a.e2e_runs} runs each")
        for _ in range(a.e2e_runs):
            for label, argv in cmds:
                wall, cpu = self.spawn_timed(argv, self.message)
                walls[label].append(wall)
                cpus[label].append(cpu)
        base = median(walls["/bin/true"])
        tab = Table(f"Start-up: one {self.message.stat().st_size}-byte message (gencorpus "
                    f"--message --seed {self.message_seed}), process start to exit (median of "
                    f"{a.e2e_runs}, interleaved)",
                    ["command", "median ms", "p10 ms", "p90 ms", "x /bin/true", "CPU ms"])
        for label, _ in cmds:
            v = sorted(walls[label])
            tab.add(label, median(v) * 1e3, v[len(v) // 10] * 1e3, v[len(v) * 9 // 10] * 1e3,
                    f"{median(v) / base:.2f}", median(cpus[label]) * 1e3)
        tab.notes.append("Wall time from posix_spawn to wait4 in the harness; CPU: the "
                         "process's user + sys. halluscan < message > /dev/null.")
        self.tables.append(tab)
        self.results["e2e"] = {label: median(v) for label, v in walls.items()}

    def stream_cpu(self, argv, payload, step):
        """Feeds payload to argv through a pipe, step bytes per write, and
        waits after each write until the reader has taken it (FIONREAD), so
        every read() sees one token. Returns (CPU seconds, findings)."""
        r, w = os.pipe()
        out = self.tmp / "stream.jsonl"
        with open(out, "wb") as fo:
            pid = os.posix_spawn(argv[0], argv, self.env,
                                 file_actions=[(os.POSIX_SPAWN_DUP2, r, 0),
                                               (os.POSIX_SPAWN_DUP2, fo.fileno(), 1)])
        buf = bytearray(4)
        for i in range(0, len(payload), step):
            os.write(w, payload[i:i + step])
            spins = 0
            while True:
                fcntl.ioctl(r, termios.FIONREAD, buf)
                if struct.unpack("i", buf)[0] == 0:
                    break
                spins += 1
                # A reader that died would leave us spinning for ever.
                if spins % 100000 == 0 and os.waitid(
                        os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                    break
        os.close(w)
        _, status, ru = os.wait4(pid, 0)
        os.close(r)
        findings = sum(1 for ln in open(out, "rb") if ln.startswith(b'{"type":"finding"'))
        return ru.ru_utime + ru.ru_stime, findings, os.waitstatus_to_exitcode(status)

    def streaming(self):
        a = self.a
        msg = self.message.read_bytes()
        builds = []
        if self.hal:
            builds.append(("halluscan (Hyperscan)", [self.hal]))
        builds.append((self.hal_pcre2_label, self.hal_pcre2_cmd))
        k = a.stream_messages
        tab = Table(f"Token streaming: the {len(msg)}-byte message, --line-buffered, "
                    f"CPU (user + sys) of the halluscan process",
                    ["build", "one write: ms/msg", "4 B writes: ms/msg", "streaming cost ms",
                     f"{k} msgs, one process: ms/msg", "findings (1 write / 4 B)"])
        for label, argv in builds:
            argv = [shutil.which(argv[0]) or argv[0]] + argv[1:] + ["--line-buffered",
                                                                      "--fail-on", "never"]
            log(f"streaming: {label}, {a.stream_runs} processes x 2, {k}-message stream")
            whole, tokens, long_run = [], [], []
            f_whole = f_tok = None
            for _ in range(a.stream_runs):
                cpu, f_whole, _ = self.stream_cpu(argv, msg, len(msg))
                whole.append(cpu)
                cpu, f_tok, _ = self.stream_cpu(argv, msg, 4)
                tokens.append(cpu)
            for _ in range(3):
                cpu, _, _ = self.stream_cpu(argv, msg * k, 4)
                long_run.append(cpu / k)
            tab.add(label, median(whole) * 1e3, median(tokens) * 1e3,
                    (median(tokens) - median(whole)) * 1e3, median(long_run) * 1e3,
                    f"{f_whole} / {f_tok}")
            self.results.setdefault("stream", {})[label] = median(tokens)
        tab.notes.append(f"Each write of 4 bytes waits until halluscan has read the previous "
                         f"one, so it makes {(len(msg) + 3) // 4} reads per message (the "
                         f"writer spins on FIONREAD). Medians of {a.stream_runs} processes; "
                         f"the long stream: median of 3, per message. Streaming cost = 4 B "
                         f"writes - one write.")
        self.tables.append(tab)

    def memory(self):
        a = self.a
        builds = []
        if self.hal:
            builds.append(self.halluscan_tool("halluscan (Hyperscan)", [self.hal]))
        builds.append(self.halluscan_tool(self.hal_pcre2_label, self.hal_pcre2_cmd))
        tab = Table("Peak RSS (KiB) whatever the input size",
                    ["build", f"{human_size(a.size)} plain", f"{human_size(a.size)} spans-40",
                     f"{human_size(a.rss_size)} (gencorpus | halluscan)",
                     f"{human_size(a.line_size)} single line", "single line MB/s"])
        worst = 0
        for t in builds:
            log(f"memory: {t['label']} on {human_size(a.rss_size)} and the single line")
            out = self.tmp / "out.txt"
            _, big, rc1, _, _ = self.pipeline([self.gencorpus, "--seed", str(a.seed), "--size",
                                            str(a.rss_size)], t["argv"], out)
            big_findings = self.summary(out)
            dt, line, rc2, _, _ = self.pipeline(["cat", str(self.line)], t["argv"], out)
            line_s = self.summary(out)
            plain = self.main.get(t["label"], {}).get("rss")
            spans = self.spans_runs.get(t["label"], {}).get("rss")
            tab.add(t["label"], plain or "-", spans or "-",
                    big if rc1 == 0 and big_findings else f"failed ({rc1})",
                    line if rc2 == 0 and line_s else f"failed ({rc2})",
                    a.line_size / 1e6 / dt)
            if t["label"] == "halluscan (Hyperscan)" or not self.hal:
                worst = max(x for x in (plain, spans, big, line) if isinstance(x, int))
        self.tables.append(tab)
        self.results["rss"] = worst

    def targets(self):
        """The issue's targets, for each measurement this run made."""
        res = self.results
        hs = res.get("hs") or res.get("pcre2")
        label = hs["label"] if hs else ("halluscan (Hyperscan)" if self.hal
                                        else self.hal_pcre2_label)
        tab = Table(f"Targets ({label})", ["target", "goal", "measured", "met", "margin"])

        def row(name, goal, measured, met, margin):
            tab.add(name, goal, measured, "yes" if met else "NO", margin)

        if hs and hs.get("median") and res.get("cat"):
            ratio = hs["median"] / res["cat"]
            row("throughput vs cat | cat", ">= 0.70", f"{ratio:.2f}", ratio >= 0.70,
                f"{ratio / 0.70:.2f}x of the goal")
            for t in res.get("others", []):
                if t.get("skip") or not t.get("median") or t["label"].startswith("Python"):
                    continue
                r = hs["median"] / t["median"]
                row(f"ahead of {t['label']}", "> 1.00x", f"{r:.2f}x", r > 1.0,
                    f"{'ahead' if r > 1 else 'behind'} by {abs(r - 1) * 100:.0f}%")
            py = next((t for t in res.get("others", []) if t["label"].startswith("Python")
                       and t.get("median")), None)
            if py:
                r = hs["median"] / py["median"]
                row("Python re slower by", ">= 100x", f"{r:.0f}x", r >= 100,
                    f"{r / 100:.2f}x of the goal")
        if res.get("e2e"):
            e2e = res["e2e"][label] * 1e3
            true = res["e2e"]["/bin/true"] * 1e3
            row("4 KB message end to end", "<= 1.0 ms", f"{e2e:.2f} ms", e2e <= 1.0,
                f"{e2e - 1.0:+.2f} ms")
            row("  ... next to /bin/true", "~1.6x", f"{e2e / true:.2f}x ({true:.2f} ms)",
                e2e / true <= 1.6, f"{e2e / true - 1.6:+.2f}x")
        if res.get("rss"):
            row("peak RSS, any input", "<= 8 MiB", f"{res['rss'] / 1024:.1f} MiB",
                res["rss"] <= 8192, f"{(8192 - res['rss']) / 1024:+.1f} MiB headroom")
        if res.get("spans_ratio"):
            r = res["spans_ratio"]
            row("span-heavy vs plain", ">= 0.80", f"{r:.2f}", r >= 0.80, f"{r - 0.80:+.2f}")
        # Issue 14: the number checks on every figure, with tool output about.
        if res.get("spans40_mbps"):
            m = res["spans40_mbps"]
            row("40% spans (issue 14)", ">= 61 MB/s", f"{m:.1f} MB/s", m >= 61,
                f"{m / 61:.2f}x of the goal")
        if res.get("spans1_ratio"):
            r = res["spans1_ratio"]
            row("1% spans vs plain (issue 14)", ">= 0.50", f"{r:.2f}", r >= 0.50,
                f"{r / 0.5:.2f}x of the goal")
        if tab.rows:
            self.tables.append(tab)

    # ---- report

    def report(self):
        a = self.a
        head = [f"# halluscan benchmark ({time.strftime('%Y-%m-%d %H:%M')})", "",
                f"- machine: {os.cpu_count()} CPUs, {platform_name()}",
                f"- halluscan: {self.version(self.any_hal)}",
                f"- corpus: gencorpus --seed {a.seed} --size {human_size(a.size)} "
                f"(plain; and --spans 40), repeats {a.repeats}",
                f"- tools: {tool_versions(self)}",
                f"- command: {' '.join(sys.argv)}"]
        head += [f"- note: {n}" for n in self.notes]
        text = "\n".join(head) + "\n\n" + "\n\n".join(t.text() for t in self.tables)
        print(text)
        if a.out:
            md = "\n".join(head) + "\n\n" + "\n\n".join(t.markdown() for t in self.tables)
            Path(a.out).write_text(md + "\n")
            log(f"wrote {a.out}")

    def section(self, fn):
        """Runs one section and notes how much CPU other processes took
        meanwhile: everything here competes with them for the same cores."""
        n = len(self.tables)
        busy0, ours0, t0 = busy_seconds(), own_cpu_seconds(), time.monotonic()
        fn()
        wall = time.monotonic() - t0
        foreign = max(0.0, (busy_seconds() - busy0) - (own_cpu_seconds() - ours0))
        cores = foreign / wall if wall > 0 else 0.0
        self.contention.append((fn.__name__, wall, cores))
        for tab in self.tables[n:]:
            tab.notes.append(f"Other processes used {cores:.2f} CPUs on average during this "
                             f"section ({wall:.0f} s).")

    def run(self):
        self.contention = []
        try:
            idle = wait_quiet(self.a.wait_quiet)
            self.notes.append(f"CPU idle before the run: {idle:.0%}; load average at the "
                              f"start: {os.getloadavg()[0]:.2f}")
            self.resolve()
            self.check_builds()
            self.prepare()
            for name, fn in SECTIONS:
                if name in self.a.only:
                    self.section(getattr(self, fn))
            self.targets()
            worst = max(self.contention, key=lambda c: c[2])
            self.notes.append(f"Other processes' CPU use, worst section: {worst[2]:.2f} CPUs "
                              f"({worst[0]}); total run time "
                              f"{sum(c[1] for c in self.contention):.0f} s. Above ~0.1, "
                              "this report measures a shared machine.")
            self.report()
        finally:
            if self.a.keep:
                log(f"kept {self.tmp}")
            else:
                shutil.rmtree(self.tmp, ignore_errors=True)


# ------------------------------------------------ now against then (--against)


def git(*argv):
    return subprocess.run(["git", "-C", str(ROOT)] + list(argv), check=True,
                          capture_output=True, text=True).stdout.strip()


def build_rev(rev, setup_args=()):
    """Builds the git revision rev beside the tree, once per commit: its
    files (git archive, the work tree untouched) under
    build/bench-against/COMMIT/src, a meson build in .../build. Returns that
    build directory."""
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    base = ROOT / "build" / "bench-against" / sha
    build, done = base / "build", base / "built"
    if done.exists() and (build / "halluscan").exists():
        log(f"--against {rev}: cached build of {sha[:12]} in {build}")
        return sha, build
    shutil.rmtree(base, ignore_errors=True)
    (base / "src").mkdir(parents=True)
    log(f"--against {rev}: building {sha[:12]} in {base} (once per commit)")
    arch = subprocess.Popen(["git", "-C", str(ROOT), "archive", sha], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(base / "src")], stdin=arch.stdout, check=True)
    if arch.wait():
        sys.exit(f"run.py: git archive {sha} failed")
    subprocess.run(["meson", "setup", str(build), str(base / "src")] + list(setup_args),
                   check=True, stdout=subprocess.DEVNULL)
    # The program and the library's benchmark only: not the tests.
    targets = ["halluscan:executable"]
    if (base / "src" / "bench" / "libbench.c").exists():
        targets.append("bench/libbench")
    subprocess.run(["nice", "meson", "compile", "-C", str(build)] + targets, check=True,
                   stdout=subprocess.DEVNULL)
    done.write_text(sha + "\n")
    return sha, build


def callgrind_instructions(argv, stdin_path):
    """Instructions the program executes on stdin_path (callgrind's
    'Collected'): the same count on a loaded machine as on a quiet one."""
    with open(stdin_path, "rb") as f:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] +
                           argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m:
        sys.exit(f"run.py: no count from callgrind for {argv[0]}: {p.stderr[-500:]}")
    return int(m.group(1))


def json_source(path, size=4096):
    """About size bytes of a tool's JSON answer: figures with keys, dates,
    percentages and URLs, as a search or database tool returns them."""
    items, i = [], 0
    while True:
        items.append({"name": f"Unit {i}", "revenue_musd": round(17.5 + i * 13.25, 2),
                      "growth": f"{(i * 7) % 40}.{i % 10}%", "employees": 120 + i * 37,
                      "reported": f"2024-{i % 12 + 1:02d}-{i % 27 + 1:02d}",
                      "url": f"https://data.example/units/{i}"})
        text = json.dumps({"query": "units by revenue", "results": items}, indent=1)
        if len(text) >= size:
            break
        i += 1
    Path(path).write_text(text + "\n")
    return path


class Against(Bench):
    """Now (the tree's build) against then (--against REV, built beside it):
    the figures of issue 35's table for both, from one interleaved run."""

    def resolve(self):
        a = self.a
        if not Path(a.halluscan).exists():
            sys.exit(f"run.py: no halluscan at {a.halluscan}")
        self.sha, self.then_build = build_rev(a.against, a.against_setup.split())
        self.now = self.snapshot(a.halluscan, "halluscan-now")
        self.then = self.snapshot(str(self.then_build / "halluscan"), "halluscan-then")
        self.hal, self.any_hal = self.now, self.now
        self.libbench = {"now": a.libbench, "then": str(self.then_build / "bench" / "libbench")}
        self.gencorpus = a.gencorpus if Path(a.gencorpus).exists() else \
            self.build_c("gencorpus", [BENCH / "gencorpus.c"])
        self.maxrss = a.maxrss if Path(a.maxrss).exists() else \
            self.build_c("maxrss", [ROOT / "tools" / "maxrss.c"])
        self.rg = shutil.which("rg")
        self.grep = shutil.which("grep")
        self.notes.append(f"now: {self.version(self.now)} ({a.halluscan}); then: "
                          f"{self.version(self.then)} ({a.against} = {self.sha[:12]}, built in "
                          f"{self.then_build})")

    def prepare(self):
        a = self.a
        log(f"temporary directory {self.tmp}; corpora of {human_size(a.size)}")
        self.plain = self.gen("plain.txt", size=a.size)
        self.spans1 = self.gen("spans1.txt", "--spans", "1", size=a.size)
        self.spans = self.gen("spans40.txt", "--spans", "40", size=a.size)
        self.message = self.pick_message()
        sys.path.insert(0, str(BENCH))
        import records
        self.records = self.tmp / "records.jsonl"
        records.write_text(self.records, a.records)
        self.records_args = records.TEXT_ARGS
        self.reply = self.tmp / "reply-4k.txt"
        with open(self.reply, "wb") as f:
            subprocess.run([self.gencorpus, "--seed", "9", "--message"], stdout=f, check=True)
        self.source = json_source(self.tmp / "source-4k.json")
        self.rules = []
        if self.rg:
            out = subprocess.run([self.now, "--export-patterns"], check=True,
                                 capture_output=True, text=True).stdout
            for row in out.splitlines():
                rid, signal, flags, regex = row.split("\t", 3)
                self.rules.append({"id": rid, "signal": signal, "caseless": flags == "i",
                                   "regex": regex})

    def corpora(self):
        """The bench corpora: (name, path, extra arguments)."""
        return [("plain", self.plain, []), ("spans-1", self.spans1, []),
                ("spans-40", self.spans, []), ("4 KB message", self.message, []),
                ("records", self.records, self.records_args)]

    def identical(self):
        """Findings byte for byte, now against then, on every bench corpus:
        a speed change must not change what halluscan says."""
        tab = Table("Findings, now against then, byte for byte",
                    ["corpus", "bytes", "findings now", "findings then", "identical"])
        self.differ = []
        for name, path, extra in self.corpora():
            outs = {}
            for side, binary in (("now", self.now), ("then", self.then)):
                out = self.tmp / f"identical-{side}.jsonl"
                with open(path, "rb") as fi, open(out, "wb") as fo:
                    subprocess.run([binary, "--fail-on", "never"] + extra, stdin=fi, stdout=fo,
                                   check=True)
                outs[side] = out.read_bytes()
            count = {k: v.count(b'{"type":"finding"') for k, v in outs.items()}
            # The ruleset's digest names the packs: a change to a rule that
            # keeps every finding (url.http's extend: url) changes it alone.
            norm = {k: re.sub(rb'"ruleset":"[0-9a-f]+"', b'"ruleset":"-"', v)
                    for k, v in outs.items()}
            same = norm["now"] == norm["then"]
            if same and outs["now"] != outs["then"]:
                tab.notes.append(f"{name}: identical but for the ruleset's digest")
            if not same:
                a_lines, b_lines = norm["now"].splitlines(), norm["then"].splitlines()
                line = next((i for i, (x, y) in enumerate(zip(a_lines, b_lines)) if x != y),
                            min(len(a_lines), len(b_lines)))
                self.differ.append(name)
                tab.notes.append(f"{name}: first difference on output line {line + 1}")
            tab.add(name, path.stat().st_size, count["now"], count["then"],
                    "yes" if same else "NO")
        self.tables.append(tab)

    def callgrind(self):
        """Instructions (callgrind) per byte for now and then on small inputs."""
        a = self.a
        small = {"plain": self.gen("cg-plain.txt", size=a.callgrind_size),
                 "spans-1": self.gen("cg-spans1.txt", "--spans", "1", size=a.callgrind_size),
                 "spans-40": self.gen("cg-spans40.txt", "--spans", "40", size=a.callgrind_size)}
        tab = Table(f"Instructions (valgrind --tool=callgrind), {human_size(a.callgrind_size)} "
                    "inputs and the 4 KB message",
                    ["input", "then", "now", "then / byte", "now / byte", "now / then"])
        self.cg = {}
        rows = [("4 KB message (one process)", self.message, [])]
        rows += [(k, v, []) for k, v in small.items()]
        for name, path, extra in rows:
            got = {}
            for side, binary in (("then", self.then), ("now", self.now)):
                log(f"callgrind: {side} on {name}")
                got[side] = callgrind_instructions([binary, "--fail-on", "never"] + extra, path)
            size = path.stat().st_size
            self.cg[name] = got
            tab.add(name, got["then"], got["now"], got["then"] / size, got["now"] / size,
                    f"{got['now'] / got['then']:.3f}")
        # A process's fixed cost apart: instructions per byte beyond the message's.
        base = self.cg["4 KB message (one process)"]
        for name, path in small.items():
            size = path.stat().st_size - self.message.stat().st_size
            per = {k: (self.cg[name][k] - base[k]) / size for k in ("then", "now")}
            tab.notes.append(f"{name}, less one process's start-up (the message's count): "
                             f"{per['then']:.1f} -> {per['now']:.1f} instructions per byte "
                             f"({per['now'] / per['then']:.3f})")
        # --records: per record, a small file's count less the message's start-up.
        import records
        n_rec = max(1, self.a.records // 10)
        rec_path = self.tmp / "cg-records.jsonl"
        records.write_text(rec_path, n_rec)
        got = {}
        for side, binary in (("then", self.then), ("now", self.now)):
            log(f"callgrind: {side} on {n_rec} records")
            got[side] = callgrind_instructions([binary, "--fail-on", "never"] + self.records_args,
                                               rec_path)
        # (a build without --records stops at once: no figure for it)
        per = {k: (got[k] - base[k]) / n_rec if got[k] > base[k] else None for k in got}
        tab.add(f"--records, {n_rec} records (per record, less start-up)", got["then"], got["now"],
                per["then"], per["now"],
                f"{per['now'] / per['then']:.3f}" if per["now"] and per["then"] else "-")
        # The library: bench/libbench's three checks of the 4 KB reply (warm;
        # warm with the 4 KB JSON source; its own source each time), counted
        # at two iteration counts so that opening the rules and the one spawn
        # cancel out: instructions per round of the three.
        lib = {}
        for side in ("then", "now"):
            prog = self.libbench[side]
            if not Path(prog).exists():
                continue
            c = []
            for iters in (20, 60):
                log(f"callgrind: {side} libbench, {iters} iterations")
                c.append(callgrind_instructions(
                    [prog, str(self.reply), self.now if side == "now" else self.then, "--source",
                     str(self.source), "--iterations", str(iters), "--spawns", "1"], os.devnull))
            lib[side] = (c[1] - c[0]) / 40
        if lib:
            tab.add("library, one round of libbench's three checks (4 KB reply, 4 KB source)",
                    lib.get("then"), lib.get("now"), "", "",
                    f"{lib['now'] / lib['then']:.3f}" if len(lib) == 2 else "-")
        tab.notes.append("Counts are of one run each: callgrind's count moves by well under "
                         "0.1% from run to run, whatever else the machine does (SHA-256 runs "
                         "its portable code under valgrind).")
        self.tables.append(tab)
        # Peak RSS does not move with the machine's load either: one run each.
        rt = Table(f"Peak RSS (one run each, {human_size(a.size)} corpora), KiB",
                   ["input", "then", "now", "now / then"])
        for name, path, extra in self.corpora():
            got = {}
            for side, binary in (("then", self.then), ("now", self.now)):
                _, rss, rc, _, _ = self.pipeline(["cat", str(path)],
                                                 [binary, "--fail-on", "never"] + extra,
                                                 os.devnull)
                got[side] = rss if rc == 0 else None
            rt.add(name, got["then"], got["now"],
                   f"{got['now'] / got['then']:.3f}" if got["then"] and got["now"] else "-")
        rt.notes.append("The goal (issue 35): at most 8 MiB (8,192 KiB) with spans.")
        self.tables.append(rt)

    def run_pair(self, key, producer, extra, store):
        """One round: now and then on the same input, the order alternating
        by round. store[key][side] gets (wall, cpu, rss) tuples."""
        sides = [("now", self.now), ("then", self.then)]
        if self.round % 2:
            sides.reverse()
        for side, binary in sides:
            if (key, side) in self.failed:
                continue
            out = self.tmp / f"out-{side}.txt"
            dt, rss, rc, err, cpu = self.pipeline(producer, [binary, "--fail-on", "never"] +
                                                  extra, out)
            if rc != 0:
                # An older build may lack what the figure needs (--records):
                # its cell stays empty, the rest of the run goes on.
                self.failed[(key, side)] = err.splitlines()[0][:200] if err else f"exit {rc}"
                log(f"  {side} failed on {key}: {self.failed[(key, side)]}")
                continue
            store.setdefault(key, {}).setdefault(side, []).append((dt, cpu, rss))

    def lib_round(self, store):
        for side in (("now", "then") if self.round % 2 == 0 else ("then", "now")):
            prog = self.libbench[side]
            if not Path(prog).exists():
                continue
            p = subprocess.run([prog, str(self.reply), self.now if side == "now" else self.then,
                                "--source", str(self.source), "--iterations",
                                str(self.a.lib_iterations), "--spawns", "1"],
                               capture_output=True, text=True)
            for key, label in (("lib", "library: warm, with a source"),
                               ("lib-each", "library: its own source per reply")):
                m = re.search(r"^%s\s+\d+\s+([\d.]+)" % re.escape(label), p.stdout, re.M)
                if m:
                    store.setdefault(key, {}).setdefault(side, []).append(float(m.group(1)))

    def rounds(self):
        a = self.a
        store = {}
        rg = None
        if self.rg and self.rules:
            ok = [r for r in self.rules if self.rg_accepts(r, False)]
            f = self.tmp / "rg-default.pat"
            f.write_text(alternation(ok))
            rg = [self.rg, "-a", "--no-unicode", "-o", "-f", str(f)]
            self.notes.append(f"ripgrep's default engine runs {len(ok)} of the "
                              f"{len(self.rules)} exported patterns (now's).")
        spawns = max(1, a.e2e_runs // a.repeats)
        self.failed = {}
        for self.round in range(a.repeats):
            log(f"round {self.round + 1}/{a.repeats}")
            for key, path in (("plain", self.plain), ("spans-1", self.spans1),
                              ("spans-40", self.spans)):
                self.run_pair(key, ["cat", str(path)], [], store)
            dt, rss, _, _, cpu = self.pipeline(["cat", str(self.plain)], ["cat"], os.devnull)
            store.setdefault("cat", {}).setdefault("cat", []).append((dt, cpu, rss))
            if rg:
                dt, rss, rc, err, cpu = self.pipeline(["cat", str(self.plain)], rg, os.devnull)
                store.setdefault("rg", {}).setdefault("rg", []).append((dt, cpu, rss))
            self.run_pair("records", ["cat", str(self.records)], self.records_args, store)
            for _ in range(spawns):
                for side, argv in (("true", ["/bin/true"]), ("now", [self.now]),
                                   ("then", [self.then])):
                    wall, cpu = self.spawn_timed(argv, self.message)
                    store.setdefault("start", {}).setdefault(side, []).append((wall, cpu, None))
            self.lib_round(store)
        self.store = store

    def ratio_table(self):
        a, st = self.a, self.store
        size = self.plain.stat().st_size

        def med(key, side, i):
            v = [x[i] for x in st.get(key, {}).get(side, [])]
            return median(v)

        def mbps(key, side, i):
            t = med(key, side, i)
            return size / 1e6 / t if t else None

        tab = Table(f"Now against then ({a.against} = {self.sha[:12]}): medians of "
                    f"{a.repeats} interleaved rounds, {human_size(a.size)} corpora",
                    ["measure", "then", "now", "now / then", "goal (issue 35)"])

        def r(x, y):
            return f"{x / y:.2f}" if x and y else "-"

        for what, i in (("CPU", 1), ("wall", 0)):
            p_now, p_then = mbps("plain", "now", i), mbps("plain", "then", i)
            unit = "MB per CPU-second" if i else "MB/s, wall"
            tab.add(f"plain text, {unit}", p_then, p_now, r(p_now, p_then), "")
            if "rg" in st:
                rgv = mbps("rg", "rg", i)
                tab.add(f"  against ripgrep's default engine ({fmt(rgv, 0)}), {what}",
                        r(p_then, rgv) + "x", r(p_now, rgv) + "x", "",
                        ">= 1.5x" if i else "")
            cat = mbps("cat", "cat", 0)
            if i == 0:
                tab.add(f"  against cat | cat ({fmt(cat, 0)} MB/s), wall", r(p_then, cat) + "x",
                        r(p_now, cat) + "x", "", ">= 0.30x")
            for key, goal in (("spans-1", ">= 0.30x"), ("spans-40", ">= 0.25x")):
                s_now, s_then = mbps(key, "now", i), mbps(key, "then", i)
                tab.add(f"  {key} against plain, {what} ({fmt(s_then)} -> {fmt(s_now)} MB/s)",
                        r(s_then, p_then) + "x", r(s_now, p_now) + "x",
                        r(s_now, s_then), goal if i else "")
        n = a.records
        for what, i in (("CPU", 1), ("wall", 0)):
            rec_now, rec_then = med("records", "now", i), med("records", "then", i)
            unit = "per CPU-second" if i else "per second, wall"
            tab.add(f"--records with a source per record, records {unit}",
                    n / rec_then if rec_then else None, n / rec_now if rec_now else None,
                    r(rec_then, rec_now), ">= 60,000" if i else "")
        true = {i: med("start", "true", i) for i in (0, 1)}
        for what, i in (("wall", 0), ("CPU", 1)):
            s_now, s_then = med("start", "now", i), med("start", "then", i)
            tab.add(f"one 4 KB message as a process, {what} ms "
                    f"(/bin/true {true[i] * 1e3:.2f})", s_then and s_then * 1e3,
                    s_now and s_now * 1e3, r(s_now, s_then), "")
            tab.add(f"  against /bin/true, {what}", r(s_then, true[i]) + "x",
                    r(s_now, true[i]) + "x", "", "<= 1.5x" if i == 0 else "")
        for key, label in (("lib", "library, 4 KB reply, a 4 KB JSON source (warm), us"),
                           ("lib-each", "  the source given again with each reply, us")):
            v = st.get(key, {})
            tab.add(label, median(v.get("then", [])), median(v.get("now", [])),
                    r(median(v.get("now", [])), median(v.get("then", []))),
                    "<= 15 us" if key == "lib" else "")
        rss = {side: max((x[2] or 0 for key in ("spans-1", "spans-40")
                          for x in st.get(key, {}).get(side, [])), default=0) / 1024 or None
               for side in ("now", "then")}
        tab.add("peak RSS with spans, MiB", rss["then"], rss["now"], r(rss["now"], rss["then"]),
                "<= 8 MiB")
        for (key, side), err in self.failed.items():
            tab.notes.append(f"{side} failed on {key}: {err}")
        tab.notes.append("now / then: of the figures themselves (for times, lower is better; "
                         "for MB/s and records, higher). CPU time is the process's user + sys "
                         "(wait4), which other load moves far less than the wall clock.")
        if not Path(self.libbench["then"]).exists():
            tab.notes.append(f"then has no bench/libbench: no library figure for it.")
        self.tables.append(tab)

    def run(self):
        self.contention = []
        try:
            self.resolve()
            self.prepare()
            if self.a.identical:
                self.section(self.identical)
            if self.a.callgrind:
                self.section(self.callgrind)
            if not self.a.no_timing:
                self.section(self.rounds)
                self.ratio_table()
            self.report()
        finally:
            if self.a.keep:
                log(f"kept {self.tmp}")
            else:
                shutil.rmtree(self.tmp, ignore_errors=True)
        return 1 if getattr(self, "differ", None) else 0


def busy_seconds():
    """CPU seconds all CPUs have spent busy since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    """CPU seconds of this process and its waited-for children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def cpu_idle(seconds):
    """The share of all CPUs' time that was idle over the next few seconds."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return v[3] + v[4], sum(v)   # idle + iowait, total
    i0, t0 = sample()
    time.sleep(seconds)
    i1, t1 = sample()
    return (i1 - i0) / max(1, t1 - t0)


def wait_quiet(limit):
    """Waits (at most limit seconds) until the machine is at least 90% idle:
    other work on the same cores shows up directly in every number here."""
    start = time.monotonic()
    while True:
        idle = cpu_idle(3)
        if idle >= 0.90 or time.monotonic() - start > limit:
            return idle
        log(f"machine only {idle:.0%} idle: waiting for it to quieten")


def platform_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return os.uname().machine


def tool_versions(b):
    out = []
    for name, argv in (("ripgrep", [b.rg, "--version"]), ("grep", [b.grep, "--version"]),
                       ("python", [sys.executable, "--version"])):
        if argv[0]:
            v = subprocess.run(argv, capture_output=True, text=True).stdout.splitlines()
            out.append(v[0] if v else name)
    return "; ".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[2:]))
    ap.add_argument("--size", type=parse_size, help="plain and spans-40 corpus size "
                    "(default 256M; 1G allowed)")
    ap.add_argument("--repeats", type=int, help="runs per tool, medians reported (default 5)")
    ap.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    ap.add_argument("--out", help="also write the report as Markdown to this file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rss-size", type=parse_size, help="input for the RSS check (default 1G)")
    ap.add_argument("--line-size", type=parse_size, help="single-line input (default 100M)")
    ap.add_argument("--python-repeats", type=int, help="Python re runs (default 1: it is slow)")
    ap.add_argument("--rule-repeats", type=int,
                    help="runs per rule (default: --repeats, at most 3)")
    ap.add_argument("--tool-budget", type=float, default=40.0, metavar="SECONDS",
                    help="a slow tool runs only as often as fits in this (default 40)")
    ap.add_argument("--without-repeats", type=int, default=1,
                    help="runs of hsrule --all without each rule (default 1)")
    ap.add_argument("--no-rule-pcre2", dest="rule_pcre2", action="store_false",
                    help="skip each rule's match count on halluscan --engine pcre2")
    ap.add_argument("--e2e-runs", type=int, help="start-up runs per command (default 200)")
    ap.add_argument("--stream-runs", type=int, help="streaming processes per build (default 30)")
    ap.add_argument("--stream-messages", type=int, default=20,
                    help="messages in the long token stream (default 20)")
    ap.add_argument("--halluscan", default=str(ROOT / "build" / "halluscan"))
    ap.add_argument("--halluscan-pcre2", default=str(ROOT / "build-pcre2" / "halluscan"),
                    help="PCRE2-only build, or 'engine' for halluscan --engine pcre2")
    ap.add_argument("--gencorpus", default=str(ROOT / "build" / "bench" / "gencorpus"))
    ap.add_argument("--maxrss", default=str(ROOT / "build" / "maxrss"))
    ap.add_argument("--hsrule", default=str(ROOT / "build" / "bench" / "hsrule"))
    ap.add_argument("--patterns", default=str(ROOT / "patterns"),
                    help="the YAML packs the one-rule packs are cut from")
    ap.add_argument("--tmpdir", help="where the corpora go (default: $TMPDIR)")
    ap.add_argument("--only", default=",".join(n for n, _ in SECTIONS),
                    help="comma-separated sections to run (default all): " +
                    ", ".join(n for n, _ in SECTIONS))
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                    help="first wait up to this long for the CPUs to be 90%% idle")
    g = ap.add_argument_group("now against then (issue 35)")
    g.add_argument("--against", metavar="REV",
                   help="build the git revision REV beside the tree (cached under "
                   "build/bench-against/COMMIT) and print issue 35's figures for --halluscan "
                   "(now) and REV (then) from one interleaved run, with now / then ratios")
    g.add_argument("--against-setup", default="", metavar="ARGS",
                   help="extra `meson setup` arguments for REV's build")
    g.add_argument("--identical", action="store_true",
                   help="with --against: check that now and then write byte-identical output "
                   "on the bench corpora (exit 1 when not)")
    g.add_argument("--callgrind", action="store_true",
                   help="with --against: instructions per byte (valgrind --tool=callgrind) of "
                   "now and then on small inputs, stable on a loaded machine")
    g.add_argument("--callgrind-size", type=parse_size, default=MIB,
                   help="input size for --callgrind (default 1M)")
    g.add_argument("--no-timing", action="store_true",
                   help="with --against: skip the timed rounds (just --identical/--callgrind)")
    g.add_argument("--records", type=int, help="records in the --records input (default "
                   "20000; --quick 2000)")
    g.add_argument("--lib-iterations", type=int, default=2000,
                   help="checks per round of bench/libbench (default 2000)")
    g.add_argument("--libbench", default=str(ROOT / "build" / "bench" / "libbench"))
    a = ap.parse_args()

    quick = a.quick
    if a.against:
        for k, v in dict(size=4 * MIB if quick else 64 * MIB, repeats=2 if quick else 7,
                         e2e_runs=20 if quick else 140,
                         records=2000 if quick else 20000).items():
            if getattr(a, k) is None:
                setattr(a, k, v)
        sys.exit(Against(a).run())
    if a.identical or a.callgrind or a.no_timing:
        ap.error("--identical, --callgrind and --no-timing go with --against REV")
    defaults = dict(size=16 * MIB if quick else 256 * MIB, repeats=2 if quick else 5,
                    rss_size=64 * MIB if quick else 1024 * MIB,
                    line_size=8 * MIB if quick else 100 * MIB, python_repeats=1,
                    e2e_runs=30 if quick else 200, stream_runs=5 if quick else 30)
    for k, v in defaults.items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    a.only = set(a.only.split(","))
    unknown = a.only - {n for n, _ in SECTIONS}
    if unknown:
        ap.error(f"unknown section {', '.join(sorted(unknown))}")
    if a.rule_repeats is None:
        a.rule_repeats = min(a.repeats, 3)
    Bench(a).run()


if __name__ == "__main__":
    main()
