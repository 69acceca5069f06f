#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Python binding (bindings/python/halluscan.py) against the build's
libhalluscan.so.0: rules, scanners, grounding, claims, errors, threads,
the gate helper, and the same findings as the program on the same input.

usage: python_binding_test.py LIBRARY SRCDIR HALLUSCAN
"""
import errno
import json
import os
import subprocess
import sys
import threading
import unittest

LIBRARY, SRCDIR, PROGRAM = sys.argv[1:4]
del sys.argv[1:4]
os.environ["HALLUSCAN_LIBRARY"] = LIBRARY
sys.path.insert(0, os.path.join(SRCDIR, "bindings", "python"))
import halluscan  # noqa: E402

ISSUE = "See https://docs.example.com/x. It grew 73.4%.\n"
POLICY = "Refunds within 14 days; members save 10%.\n"
REPLY = "You have 30 days to return it and save 12%.\n"
TODO_PACK = """rules:
  - id: todo.marker
    signal: unfinished
    severity: block
    pattern: "\\\\bTODO\\\\b"
    message: "unfinished text: {text}"
    recovery: finish it
    examples: ["a TODO here"]
    negative_examples: ["TODOS", "todo"]
"""


def brief(findings):
    return [(f.signal, f.text, f.start) for f in findings]


class RulesTest(unittest.TestCase):
    def test_builtin(self):
        rules = halluscan.Rules()
        self.assertEqual(len(rules.digest), 64)
        self.assertIn(rules.engine, ("hyperscan", "pcre2"))
        self.assertEqual(rules.rules[0]["id"], "url.http")
        self.assertEqual(rules.rules[0]["file"], "patterns/urls.yaml")
        self.assertEqual(rules.signals[-2:], ["unterminated_span", "spoofed_span"])
        self.assertIn("user-facing", rules.contexts)
        self.assertEqual(halluscan.version(), self.program_version())
        rules.close()
        rules.close()

    def program_version(self):
        out = subprocess.run([PROGRAM, "--version"], capture_output=True, text=True).stdout
        return out.split()[1]

    def test_listing_is_the_programs(self):
        listing = subprocess.run([PROGRAM, "--list-rules"], capture_output=True,
                                 text=True).stdout.splitlines()
        rules = halluscan.Rules()
        self.assertEqual(listing, ["%s\t%s\t%s\t%s\t%s:%d" % (r["id"], r["signal"], r["severity"],
                                                            r["engine"], r["file"], r["line"])
                                   for r in rules.rules])

    def test_packs(self):
        with halluscan.Rules(packs={"todo.yaml": TODO_PACK}) as rules:
            self.assertEqual([r["id"] for r in rules.rules], ["todo.marker"])
            ship, found, summary = halluscan.Scanner(rules).check("a TODO here\n")
            self.assertFalse(ship)
            self.assertEqual(brief(found), [("unfinished", "TODO", 2)])
        both = halluscan.Rules(packs={"todo.yaml": TODO_PACK}, builtin=True)
        self.assertEqual(both.rules[-1]["id"], "todo.marker")
        self.assertGreater(len(both.rules), 10)
        pcre2 = halluscan.Rules(pcre2=True)
        self.assertEqual(pcre2.engine, "pcre2")

    def test_no_compiler_library(self):
        # The library loads Hyperscan's compiler on first use; without it a
        # pack runs on PCRE2 and says why (the static program holds the
        # compiler: io_test.py). Its own process: the load is tried once.
        if halluscan.Rules().engine != "hyperscan":
            self.skipTest("this build has no Hyperscan")
        code = ("import json, halluscan\n"
                "r = halluscan.Rules(packs={'todo.yaml': %r})\n"
                "print(json.dumps([r.engine, r.degraded, halluscan.Scanner(r).check('a TODO here\\n')[0]]))"
                % TODO_PACK)
        env = dict(os.environ, HALLUSCAN_HS_LIBRARY="/nonexistent/libhs.so",
                   PYTHONPATH=os.path.join(SRCDIR, "bindings", "python"))
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        engine, degraded, ship = json.loads(p.stdout)
        self.assertEqual((engine, ship), ("pcre2", False))
        self.assertIn("Hyperscan compiler is unavailable", degraded or "")

    def test_errors(self):
        with self.assertRaises(halluscan.HalluscanError) as cm:
            halluscan.Rules(packs={"bad.yaml": "rules:\n  - id: x\n    sgnal: y\n"})
        self.assertEqual(cm.exception.code, -errno.EINVAL)
        self.assertTrue(str(cm.exception).startswith("[Errno %d] bad.yaml:3:5:" % errno.EINVAL))
        with self.assertRaises(halluscan.HalluscanError) as cm:
            halluscan.Rules(paths=["/nonexistent.yaml"])
        self.assertIn("/nonexistent.yaml", str(cm.exception))
        with self.assertRaises(halluscan.HalluscanError) as cm:
            halluscan.Scanner(contexts=["nope"])
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn('unknown context "nope"', cm.exception.strerror)
        with self.assertRaises(halluscan.HalluscanError):
            halluscan.Scanner(span_nonce="short")
        with self.assertRaises(ValueError):
            halluscan.Scanner(fail_on="sometimes")


class ScannerTest(unittest.TestCase):
    def test_check(self):
        sc = halluscan.Scanner()
        ship, found, summary = sc.check(ISSUE)
        self.assertTrue(ship)
        self.assertEqual(brief(found), [("fabricated_url", "https://docs.example.com/x", 4),
                                        ("unsourced_statistic", "73.4%", 40)])
        f = found[0]
        self.assertEqual((f.rule, f.severity, f.end, f.line, f.column), ("url.http", "warn", 30, 1, 5))
        self.assertIn("URL not verified", f.recovery)
        self.assertEqual(f.as_dict()["signal"], "fabricated_url")
        self.assertEqual((summary.bytes, summary.findings, summary.verdict), (len(ISSUE), 2, "warn"))
        self.assertEqual(summary.signals["fabricated_url"], 1)
        self.assertIsNone(summary.claims)

    def test_fail_on_and_contexts(self):
        self.assertFalse(halluscan.Scanner(contexts=["user-facing"]).check(ISSUE)[0])
        self.assertFalse(halluscan.Scanner(fail_on="warn").check(ISSUE)[0])
        ship, _, summary = halluscan.Scanner(contexts=["user-facing"], fail_on="never").check(ISSUE)
        self.assertTrue(ship)
        self.assertEqual(summary.verdict, "block")

    def test_pieces_and_bytes(self):
        sc = halluscan.Scanner()
        data = ISSUE.encode()
        found = []
        for i in range(len(data)):
            found += sc.feed(data[i:i + 1])
        last, summary = sc.end()
        self.assertEqual(brief(found + last), brief(sc.check(ISSUE)[1]))
        # Bytes that are not UTF-8 come back as they were (surrogateescape).
        _, found, _ = sc.check(b"See https://x.example/\xff\xfe ok\n")
        self.assertEqual(found[0].text.encode("utf-8", "surrogateescape"), b"https://x.example/\xff\xfe")

    def test_grounding(self):
        sc = halluscan.Scanner()
        self.assertEqual(sc.check(REPLY)[1], [])
        for kind in ("tool", "source", "prompt"):
            sc.reset()
            sc.add_grounding(POLICY, kind)
            _, found, _ = sc.check(REPLY)
            self.assertEqual(brief(found), [("altered_number", "30 days", 9),
                                            ("altered_number", "12%", 39)])
            self.assertEqual((found[1].source, found[1].source_at), ("10%", 37))
        sc.reset(keep_grounding=True)
        self.assertEqual(len(sc.check(REPLY)[1]), 2)
        sc.reset()
        self.assertEqual(sc.check(REPLY)[1], [])
        sc.feed("half an input")
        with self.assertRaises(halluscan.HalluscanError) as cm:
            sc.add_grounding(POLICY)
        self.assertEqual(cm.exception.code, -errno.EBUSY)

    def test_callbacks(self):
        seen = []
        sc = halluscan.Scanner(on_finding=seen.append)
        ship, found, _ = sc.check(ISSUE)
        self.assertEqual((found, brief(seen)[0][0]), ([], "fabricated_url"))

        class Enough(Exception):
            pass

        stops = [2]

        def stop_twice(f):
            if stops[0]:
                stops[0] -= 1
                raise Enough(f.signal)
            seen.append(f)

        seen = []
        sc = halluscan.Scanner(on_finding=stop_twice)
        with self.assertRaises(Enough):
            sc.check(ISSUE)
        with self.assertRaises(Enough):
            sc.feed(ISSUE)
            sc.end()
        # The input was dropped: the scanner goes on as new.
        self.assertTrue(sc.check(ISSUE)[0])
        self.assertEqual(brief(seen), brief(halluscan.Scanner().check(ISSUE)[1]))

    def test_claims(self):
        sc = halluscan.Scanner(claims=True)
        sc.add_grounding(POLICY, "source")
        ship, found, summary = sc.check("Members save 10%. You have 30 days. Thanks for asking.\n")
        self.assertFalse(ship)
        claims = sc.claims()
        self.assertEqual([c.label for c in claims], ["supported", "unsupported", "unchecked"])
        self.assertEqual([(i.text, i.grounded) for i in claims[0].items], [("10%", True)])
        self.assertEqual(summary.claims, {"supported": 1, "partial": 0, "unsupported": 1,
                                          "unchecked": 1})
        self.assertEqual((summary.unsupported_ratio, summary.trust, summary.claims_sufficient),
                         (0.5, 0.5, False))

    def test_sentences(self):
        # Issue 34: where each sentence is, as --quarantine cuts, with no claims verdict.
        text = "See https://a.example/x now. It grew 73.4%.\nDone.\n"
        sc = halluscan.Scanner(sentences=True)
        ship, found, summary = sc.check(text)
        self.assertTrue(ship)
        self.assertIsNone(summary.claims)
        sentences = sc.claims()
        self.assertEqual([(c.start, c.end, c.cut) for c in sentences],
                         [(0, 28, False), (29, 43, False), (44, 49, False)])
        self.assertEqual([text.encode()[c.start:c.end].decode() for c in sentences],
                         ["See https://a.example/x now.", "It grew 73.4%.", "Done."])

    def test_spans(self):
        sc = halluscan.Scanner(span_nonce="abcdefgh12")
        ship, found, _ = sc.check("x <tool_output>https://a.example/</tool_output>\n")
        self.assertFalse(ship)
        self.assertEqual([f.signal for f in found], ["spoofed_span", "fabricated_url", "spoofed_span"])
        sc = halluscan.Scanner(show_grounded=True)
        _, found, summary = sc.check("<tool_output>https://a.example/</tool_output> https://a.example/\n")
        self.assertEqual([(f.grounded, f.grounded_at) for f in found], [(True, 13)])
        self.assertEqual(summary.findings, 0)

    def test_same_as_program(self):
        """The library is the program's engine: the same findings on the transcript."""
        path = os.path.join(SRCDIR, "examples", "transcript.txt")
        for args, opts in (([], {}), (["--context", "research"], {"contexts": ["research"]})):
            out = subprocess.run([PROGRAM] + args + [path], capture_output=True, text=True).stdout
            records = [json.loads(line) for line in out.splitlines()]
            want = [(r["signal"], r["rule"], r["severity"], r["start"], r["end"], r["line"],
                     r["column"], r["text"], r["message"], r["recovery"])
                    for r in records if r["type"] == "finding"]
            with open(path, "rb") as f:
                _, found, summary = halluscan.Scanner(**opts).check(f.read())
            got = [(f.signal, f.rule, f.severity, f.start, f.end, f.line, f.column, f.text,
                    f.message, f.recovery) for f in found]
            self.assertEqual(got, want)
            self.assertEqual(summary.verdict, records[-1]["verdict"])
            self.assertEqual(summary.signals, records[-1]["signals"])


class GateTest(unittest.TestCase):
    def test_gate(self):
        gate = halluscan.Gate(contexts=["financial"])
        v = gate.check(REPLY, sources=[POLICY])
        self.assertFalse(v.ship)
        self.assertEqual([(f.signal, f.severity) for f in v.findings],
                         [("altered_number", "block"), ("altered_number", "block")])
        # Each check has its own grounding.
        v = gate.check("Members save 10% on returns within 14 days.\n", sources=[POLICY])
        self.assertTrue(v.ship)
        self.assertEqual(v.findings, [])
        self.assertTrue(gate.check(REPLY).ship)  # nothing to check numbers against

    def test_threads(self):
        """One Rules, a scanner per thread: each gets what one thread alone gets."""
        gate = halluscan.Gate(contexts=["user-facing"])
        texts = [ISSUE, REPLY, "Nothing here.\n", "According to Smith et al. (2023), it works.\n"]
        want = [brief(gate.check(t, sources=[POLICY]).findings) for t in texts]
        errors = []

        def work():
            try:
                for _ in range(50):
                    for t, w in zip(texts, want):
                        if brief(gate.check(t, sources=[POLICY]).findings) != w:
                            errors.append(t)
            except Exception as e:  # reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])

    def test_trigger_and_pressure(self):
        """The spec's "Cite your sources" raises citations a step, and says so;
        pressure reports a round figure and says so in the summary."""
        with halluscan.Scanner() as sc:
            sc.add_grounding("Cite your sources.", "prompt")
            _, fs, s = sc.check("According to Dr. Lee, it works.\n")
            self.assertEqual([(f.signal, f.severity, f.trigger) for f in fs],
                             [("fabricated_citation", "block", "cite-sources")])
            self.assertFalse(s.pressure)
        with halluscan.Scanner(pressure=True) as sc:
            _, fs, s = sc.check("70% of teams deploy daily.\n")
            self.assertEqual([(f.rule, f.text, f.trigger) for f in fs],
                             [("stat.round_percent", "70%", None)])
            self.assertTrue(s.pressure)
        with halluscan.Scanner() as sc:
            _, fs, s = sc.check("70% of teams deploy daily.\n")
            self.assertEqual(fs, [])


# A service's gate, as a module holds it: at exit the interpreter finalizes
# the module's objects in no particular order, its rules often before the
# scanner that uses them.
EXIT_SCRIPT = """
import sys
sys.path.insert(0, %(bindings)r)
import halluscan

SOURCE = '{"plan": "basic", "price": "$10", "seats": 3}'
gate = halluscan.Gate(%(gate_args)s)


def ship(reply):
    verdict = gate.check(reply, sources=[SOURCE])
    return verdict.ship, [(f.signal, f.text) for f in verdict.findings]


print(ship("The plan costs $12 and has 3 seats.\\n"))
"""


class FixTest(unittest.TestCase):
    """Gate.fix and Scanner.fix: halluscan --fix in process (issue 34)."""

    def test_gate_fix(self):
        gate = halluscan.Gate()
        reply = "According to Smith, it grew 73.4%. It will definitely ship by May 2027.\n"
        fixed = gate.fix(reply)
        self.assertEqual(fixed.text, "Research in this area suggests that it grew approximately "
                         "70%. It may ship by May 2027.\n")
        self.assertEqual(fixed.repairs, 3)
        self.assertEqual(fixed.findings, [])
        self.assertEqual(fixed.summary.verdict, "pass")
        # The program writes the same text.
        out = subprocess.run([PROGRAM, "--no-config", "--fix"], input=reply.encode(),
                             capture_output=True).stdout
        self.assertEqual(out.decode(), fixed.text)

    def test_fix_grounded(self):
        gate = halluscan.Gate()
        fixed = gate.fix("Members save 12% on $1.3 billion.\n",
                         tools=["Members save 10% on $1.2 billion."])
        self.assertEqual(fixed.text, "Members save 10% on $1.2 billion.\n")
        self.assertEqual(fixed.repairs, 2)
        # Bytes in, bytes out; nothing to repair, the same bytes back.
        sc = halluscan.Scanner()
        same = sc.fix(b"caf\xc3\xa9 \xff plain\n")
        self.assertEqual((same.text, same.repairs), (b"caf\xc3\xa9 \xff plain\n", 0))
        # Still ungrounded after the repair, as it was: no worse, it stays.
        sc.add_grounding("The rate is 12.5%.", "tool")
        kept = sc.fix("The rate is 17.3%.\n")
        self.assertEqual(kept.text, "The rate is approximately 20%.\n")
        self.assertEqual([f.signal for f in kept.findings], ["ungrounded_number"])

    def test_code_is_never_rewritten(self):
        # The library reports what is in Markdown code; it repairs none of it.
        text = ("```\nhttps://fenced.example/guide/setup 73.4%\n```\n"
                "Run `https://inline.example/guide/setup` now.\nIt grew 73.4%.\n")
        fixed = halluscan.Scanner().fix(text)
        self.assertEqual(fixed.text, text.replace("It grew 73.4%", "It grew approximately 70%"))
        self.assertEqual(fixed.repairs, 1)
        self.assertEqual(sorted(f.text for f in fixed.findings),
                         ["https://fenced.example/guide/setup",
                          "https://inline.example/guide/setup"])

    def test_a_repair_that_is_a_finding_is_taken_back(self):
        pack = TODO_PACK + "    fix: 'see https://todo.example/done'\n"
        with halluscan.Rules(packs={"todo.yaml": pack}, builtin=True) as rules:
            fixed = halluscan.Scanner(rules).fix("A TODO here.\n")
        self.assertEqual((fixed.text, fixed.repairs), ("A TODO here.\n", 0))
        self.assertEqual([f.signal for f in fixed.findings], ["unfinished"])


class OwnershipTest(unittest.TestCase):
    def run_script(self, gate_args):
        script = EXIT_SCRIPT % {"bindings": os.path.join(SRCDIR, "bindings", "python"),
                                "gate_args": gate_args}
        # Freed memory filled with garbage: a read of it goes wrong without ASan too.
        env = dict(os.environ, MALLOC_PERTURB_="165")
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=env, timeout=60)

    def test_module_gate_at_exit(self):
        """A module-level gate that checked a reply against a JSON source exits
        cleanly, on either engine: status 0, nothing on stderr (no ASan report,
        no exception ignored in a finalizer)."""
        for rules, gate_args in (
                ("built-in", ""), ("pcre2", "rules=halluscan.Rules(pcre2=True)"),
                ("compiled", "rules=halluscan.Rules(packs={'todo.yaml': %r}, builtin=True)"
                 % TODO_PACK)):
            with self.subTest(rules=rules):
                p = self.run_script(gate_args)
                self.assertEqual(p.stderr, "")
                self.assertEqual(p.returncode, 0)
                self.assertEqual(p.stdout, "(True, [('altered_number', '$12')])\n")

    def test_rules_closed_first(self):
        """Closing rules lets go of them; their scanners go on and free them last."""
        for pcre2 in (False, True):
            rules = halluscan.Rules(pcre2=pcre2)
            sc, idle = halluscan.Scanner(rules), halluscan.Scanner(rules)
            sc.add_grounding(POLICY, "source")
            want = brief(sc.check(REPLY)[1])
            rules.close()
            idle.close()
            self.assertEqual(brief(sc.check(REPLY)[1]), want)
            self.assertEqual(want, [("altered_number", "30 days", 9),
                                    ("altered_number", "12%", 39)])
            sc.reset()
            self.assertEqual(brief(sc.check(ISSUE)[1]),
                             [("fabricated_url", "https://docs.example.com/x", 4),
                              ("unsourced_statistic", "73.4%", 40)])
            with self.assertRaises(ValueError):
                halluscan.Scanner(rules)
            sc.close()
            sc.close()
            with self.assertRaises(ValueError):
                sc.check(REPLY)


if __name__ == "__main__":
    unittest.main(verbosity=2)
