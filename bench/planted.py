#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Planted fabrications in real agent replies: halluscan beside a naive check.

For every assistant reply of the corpus (bench/agents/*.jsonl, one
conversation a line, read by halluscan --input chat), plant one fabrication
at a time: change a value a tool result grounds (price, date, time, id,
other figure), or add a made-up URL, a made-up statistic or a wrong total.
Each planted copy is its conversation cut after the changed reply, so only
what came before can ground it.  Then report

  recall            planted fabrications found: a finding on the changed
                    reply that overlaps the planted span
  unchanged flagged share of the unchanged replies with any finding

for halluscan (--input chat) and for a naive check computed here: a figure
in the reply that appears verbatim in no earlier tool, user or system
message, and a URL likewise.  Deterministic for a seed.

With the hand verdicts of bench/agents/judged.jsonl (or --judged FILE),
the findings on unchanged replies judged right, in all, by source (agentdojo
by model) and by rule, and those no verdict covers.

  bench/planted.py [--halluscan build/halluscan] [--sample N] [--seed S]
                   [--findings FILE] [--missed FILE] [--judged FILE] [--json]
                   [CORPUS.jsonl ...]
"""
import argparse
import datetime
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

NUM = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")
# the naive check's figure: a run of digits (with inner , or .), whatever
# follows it ("16th", "5pm", "$329")
FIGURE = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)*")
URL = re.compile(r"https?://[^\s<>\"')\]]+")
PRICE = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")
ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
SPOKEN_DATE = re.compile(r"\b(" + "|".join(m.capitalize() for m in MONTHS) +
                         r")\s+(\d{1,2})(st|nd|rd|th)?\b")
TIME = re.compile(r"(?<![\d:])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?|(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])",
                  re.I)
IDTOK = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z-])[A-Za-z0-9][\w-]{3,}[A-Za-z0-9](?![\w-])")
KINDS = ["price", "date", "time", "id", "number", "url", "statistic", "total"]
# Wrong arithmetic on correct tool figures (issue 36's class 3), planted
# with their own random numbers so that the kinds above stay as they were.
ARITH = ["total_item", "total_short", "charge_half"]
PARTY = re.compile(r'"(?:passengers|travelers|travellers|guests|adults|number_of_seats)"\s*:\s*"?([2-9])\b')
SUM_KEY = re.compile(r'"\w*(?:total|amount|charge|charged|paid|payment|refund|balance)\w*"\s*:\s*"?(\d[\d,]*(?:\.\d+)?)')


def fnum(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return None


def text_of(m):
    c = m.get("content")
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "\n".join(p.get("text", "") for p in c if isinstance(p, dict))
    return ""


class Ground:
    """What came before a reply: tool text, and tool + user + system text."""

    def __init__(self, tool, prompt):
        self.tool = tool
        self.all = tool + "\n" + prompt
        self.tool_nums = {fnum(x) for x in NUM.findall(tool)} - {None}
        self.tool_times = set()
        for m in re.finditer(r"(?<!\d)(\d{1,2}):(\d{2})(?::\d{2})?(?!\d)", tool):
            self.tool_times.add((int(m.group(1)), int(m.group(2))))
        self.tool_dates = {(int(y), int(mo), int(d)) for y, mo, d in ISO_DATE.findall(tool)}
        # the party a tool record counts (the newest), and its figures keyed as sums
        parties = PARTY.findall(tool)
        self.party = int(parties[-1]) if parties else 0
        self.sum_nums = {fnum(x) for x in SUM_KEY.findall(tool)} - {None}

    def naive_has(self, fig):
        return re.search(r"(?<![\d])" + re.escape(fig) + r"(?![\d])", self.all) is not None


def naive_findings(reply, g):
    """The naive check: (start, end) in bytes of each figure or URL the
    earlier tool, user and system text lacks verbatim."""
    out = []
    urls = [(m.start(), m.end()) for m in URL.finditer(reply)]
    for s, e in urls:
        u = reply[s:e].rstrip(".,;:")
        if u not in g.all:
            out.append((s, s + len(u)))
    for m in FIGURE.finditer(reply):
        if any(s <= m.start() < e for s, e in urls):
            continue
        fig = m.group(0)
        if not g.naive_has(fig):
            out.append((m.start(), m.start() + len(fig)))
    return [bspan(reply, s, e) for s, e in out]


def to24(h, mi, ap):
    if ap:
        h = h % 12 + (12 if ap.lower() == "p" else 0)
    return h, mi


def candidates(reply, g):
    """Values of the reply a tool result grounds, by kind: (kind, start, end, new)."""
    taken = []
    cands = defaultdict(list)

    def free(s, e):
        return not any(s < te and ts < e for ts, te in taken)

    for m in ISO_DATE.finditer(reply):
        y, mo, d = (int(x) for x in m.groups())
        if (y, mo, d) in g.tool_dates:
            try:
                nd = datetime.date(y, mo, d) + datetime.timedelta(days=3)
            except ValueError:
                continue
            cands["date"].append((m.start(), m.end(), nd.isoformat()))
            taken.append((m.start(), m.end()))
    for m in SPOKEN_DATE.finditer(reply):
        mo = MONTHS.index(m.group(1).lower()) + 1
        d = int(m.group(2))
        if (mo, d) in {(x[1], x[2]) for x in g.tool_dates} and free(m.start(), m.end()):
            nd = (d + 3 - 1) % 28 + 1
            cands["date"].append((m.start(2), m.end(2), str(nd)))
            taken.append((m.start(), m.end()))
    for m in TIME.finditer(reply):
        if m.group(4):
            h, mi, ap = int(m.group(4)), int(m.group(5)), None
        else:
            h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
        if h > 24 or mi > 59 or not free(m.start(), m.end()):
            continue
        if to24(h, mi, ap) in g.tool_times:
            hs = m.start(4) if m.group(4) else m.start(1)
            he = m.end(4) if m.group(4) else m.end(1)
            nh = (h + 2 - 1) % 12 + 1 if ap else (h + 2) % 24
            cands["time"].append((hs, he, str(nh)))
            taken.append((m.start(), m.end()))
    for m in PRICE.finditer(reply):
        v = fnum(m.group(1))
        if v is not None and v in g.tool_nums and free(m.start(1), m.end(1)):
            cands["price"].append((m.start(1), m.end(1), bump(m.group(1), g)))
            taken.append((m.start(), m.end()))
    for m in IDTOK.finditer(reply):
        tok = m.group(0)
        if not re.search(r"\d", tok) or not free(m.start(), m.end()):
            continue
        if re.search(r"(?<![\w-])" + re.escape(tok) + r"(?![\w-])", g.tool):
            digits = [i for i, c in enumerate(tok) if c.isdigit()]
            i = digits[-1]
            nt = tok[:i] + str((int(tok[i]) + 3) % 10) + tok[i + 1:]
            if nt in g.tool:
                nt = tok[:i] + str((int(tok[i]) + 5) % 10) + tok[i + 1:]
            cands["id"].append((m.start(), m.end(), nt))
            taken.append((m.start(), m.end()))
    for m in NUM.finditer(reply):
        if not free(m.start(), m.end()):
            continue
        fig = m.group(0).rstrip(",")
        v = fnum(fig)
        # a lone small integer is a count or an ordinal more often than a value
        if v is not None and v in g.tool_nums and (v >= 10 or "." in fig):
            cands["number"].append((m.start(), m.start() + len(fig), bump(fig, g)))
    return cands


def bump(fig, g):
    """Another figure of the same form, one no tool result holds."""
    dec = len(fig.split(".")[1]) if "." in fig else 0
    v = fnum(fig)
    for step in (0.13, 0.29, 0.41, 0.57):
        nv = v + max(abs(v) * step, 3 if dec == 0 else 0.7)
        s = ("%." + str(dec) + "f") % nv
        if "," in fig:
            s = "{:,.{}f}".format(nv, dec)
        if fnum(s) not in g.tool_nums:
            return s
    return s


HOSTS = ["www.travel-deals-central.com", "support.acme-bookings.com", "help.flyworld.net",
         "docs.servicehub.io", "www.bestratesguide.org", "info.citylistings.com"]
STATS = ["{p}% of customers choose this option.", "About {p}% of bookings like this one are changed later.",
         "This is rated highly by {p}% of users."]


def plant(reply, kind, cands, rng, g):
    """(new reply, start char, end char) for one fabrication of kind, or None."""
    if kind in ("price", "date", "time", "id", "number"):
        if not cands.get(kind):
            return None
        s, e, new = rng.choice(cands[kind])
        return reply[:s] + new + reply[e:], s, s + len(new)
    sep = "" if reply.endswith((" ", "\n")) else " "
    if kind == "url":
        u = "https://%s/%s/%d" % (rng.choice(HOSTS), rng.choice(["details", "info", "offers"]),
                                 rng.randrange(1000, 99999))
        add = "More details are at %s" % u
        s = len(reply) + len(sep) + add.index("https")
        return reply + sep + add + " .", s, s + len(u)
    if kind == "statistic":
        p = "%d.%d" % (rng.randrange(12, 96), rng.randrange(1, 10))
        tmpl = rng.choice(STATS)
        add = tmpl.format(p=p)
        s = len(reply) + len(sep) + add.index(p)
        return reply + sep + add, s, s + len(p) + 1
    if kind == "total":
        prices = [(s, e) for s, e, _ in cands.get("price", [])]
        vals = [fnum(reply[s:e]) for s, e in prices]
        if not vals:
            return None
        if len(vals) >= 2:
            tot = sum(vals) + rng.choice([-1, 1]) * rng.randrange(7, 60)
            add = "That comes to $%s in total." % fmt(tot, reply[prices[0][0]:prices[0][1]])
        else:
            tot = vals[0] * 2 + rng.choice([-1, 1]) * rng.randrange(7, 60)
            add = "For two, that comes to $%s in total." % fmt(tot, reply[prices[0][0]:prices[0][1]])
        fig = add[add.index("$") + 1:add.index(" in total")]
        s = len(reply) + len(sep) + add.index("$")
        return reply + sep + add, s, s + 1 + len(fig)
    return None


def plant_arith(reply, kind, cands, rng, g):
    """(new reply, start char, end char) for one wrong computation of kind,
    built from the reply's own prices, or None where the reply has no such
    pattern: total_item, a total that is one item's price (the reply lists
    two or more prices, or the tool record counts a party of two or more);
    total_short, a total of three or more listed prices that leaves one
    out (or, of one fare for a party of three or more, one traveller);
    charge_half, a price the tool keys as a sum (total, amount,
    charge, refund...) halved or doubled where the reply states it."""
    prices = [(s, e) for s, e, _ in cands.get("price", [])]
    vals = [fnum(reply[s:e]) for s, e in prices]
    distinct = sorted(set(vals))
    sep = "" if reply.endswith((" ", "\n")) else " "
    if kind == "total_item":
        if not (len(distinct) >= 2 or (g.party >= 2 and distinct)):
            return None
        k = rng.randrange(len(prices))
        fig = reply[prices[k][0]:prices[k][1]].rstrip(",")
    elif kind == "total_short":
        # three or more prices; or two (legs) for a party the tool counts,
        # the total for the party leaving one leg out
        if len(distinct) >= 3:
            tot = sum(distinct) - rng.choice(distinct)
        elif len(distinct) == 2 and g.party >= 2:
            tot = (sum(distinct) - rng.choice(distinct)) * g.party
        elif len(distinct) == 1 and g.party >= 3:
            # one fare for a party of three or more, one traveller left out
            tot = distinct[0] * (g.party - 1)
        else:
            return None
        fig = fmt(tot, reply[prices[0][0]:prices[0][1]].rstrip(","))
    elif kind == "charge_half":
        sums = [(s, e) for (s, e), v in zip(prices, vals) if v in g.sum_nums]
        if not sums:
            return None
        s, e = rng.choice(sums)
        v = fnum(reply[s:e])
        for nv in rng.sample([v / 2, v * 2], 2):
            new = fmt(nv, reply[s:e] if "." in reply[s:e] or nv == int(nv) else reply[s:e] + ".00")
            if fnum(new) not in g.tool_nums:
                return reply[:s] + new + reply[e:], s - 1, s + len(new)
        return None
    else:
        return None
    add = "That comes to $%s in total." % fig
    st = len(reply) + len(sep) + add.index("$")
    return reply + sep + add, st, st + 1 + len(fig)


def fmt(v, like):
    dec = len(like.split(".")[1]) if "." in like else 0
    return ("{:,.%df}" % dec).format(v) if "," in like else ("%." + str(dec) + "f") % v


def bspan(text, s, e):
    return len(text[:s].encode()), len(text[:e].encode())


def load(paths, sample, seed):
    convs = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    convs.append(json.loads(line))
    if sample and sample < len(convs):
        rng = random.Random(seed)
        convs = sorted(rng.sample(convs, sample), key=lambda c: c["id"])
    return convs


def replies(conv):
    """(index, text, Ground) of every assistant reply with text."""
    tool, prompt = [], []
    for i, m in enumerate(conv["messages"]):
        t = text_of(m)
        if m["role"] in ("tool", "function"):
            tool.append(t)
        elif m["role"] in ("user", "system", "developer"):
            prompt.append(t)
        elif m["role"] == "assistant" and t.strip():
            yield i, t, Ground("\n".join(tool), "\n".join(prompt))


def run_halluscan(binary, convs, extra=()):
    """Findings of halluscan --input chat, by (line number, message index)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for c in convs:
            f.write(json.dumps({"messages": c["messages"]}, ensure_ascii=False) + "\n")
        name = f.name
    try:
        r = subprocess.run([binary, "--input", "chat", "--fail-on", "never", *extra, name],
                           capture_output=True)
    finally:
        os.unlink(name)
    if r.returncode != 0:
        sys.exit("planted: %s exited %d: %s" % (binary, r.returncode, r.stderr.decode()[:300]))
    out = defaultdict(list)
    for line in r.stdout.decode().splitlines():
        d = json.loads(line)
        if d.get("type") == "finding":
            out[(d["record"], d.get("message_index"))].append(d)
    return out


def overlaps(f, s, e):
    return f[0] < e and s < f[1]


def coincidences(binary, convs, seed, per_reply=5):
    """Random sums of money appended to every reply that states a price ("That
    comes to $R.", R 0.3 to 3 times one of its prices, written as it is): how
    many halluscan takes as grounded, by a figure stated (as the naive check
    would) or by a computation of grounded figures (a total that is wrong
    passing by luck). Returns (plants, naive grounded, halluscan stated,
    halluscan derived)."""
    rng = random.Random(seed + 1)
    planted, spans, naive = [], [], 0
    for c in convs:
        for i, t, g in replies(c):
            prices = candidates(t, g).get("price") or []
            for _ in range(per_reply if prices else 0):
                s, e, _ = rng.choice(prices)
                fig = fmt(fnum(t[s:e]) * rng.uniform(0.3, 3.0), t[s:e])
                nt = t + (" That comes to $%s." % fig)
                st = len(nt) - len(fig) - 2
                bs, be = bspan(nt, st, st + 1 + len(fig))
                planted.append({"id": c["id"], "messages": c["messages"][:i] +
                                [dict(c["messages"][i], content=nt)]})
                spans.append((i, bs, be))
                naive += not any(overlaps(f, bs, be) for f in naive_findings(nt, g))
    found = run_halluscan(binary, planted, ["--show-grounded"])
    stated = derived = 0
    for k, (i, bs, be) in enumerate(spans):
        hit = [f for f in found.get((k + 1, i), []) if overlaps((f["start"], f["end"]), bs, be)]
        if hit and all(f.get("grounded") for f in hit):
            derived += any(f.get("source") for f in hit)
            stated += not any(f.get("source") for f in hit)
    return len(spans), naive, stated, derived


def turn_list(conv, i):
    """How many results the last tool result of reply i's turn (since the
    user last spoke) lists: a JSON array, or an object's one array member;
    None when it lists none."""
    for m in reversed(conv["messages"][:i]):
        if m["role"] in ("user", "system", "developer"):
            return None
        if m["role"] not in ("tool", "function"):
            continue
        try:
            v = json.loads(text_of(m))
        except ValueError:
            continue
        if isinstance(v, dict):
            lists = [x for x in v.values() if isinstance(x, list)]
            v = lists[0] if len(lists) == 1 else None
        if isinstance(v, list):
            return len(v)
    return None


def count_coincidences(binary, convs, seed, per_reply=2):
    """Bare counts of results appended to every reply after a tool result
    ("I found N."): N the length of the list the turn's last tool result
    returned (right), or N from 1 to 12 other than it (wrong). Returns
    (wrong plants, wrong ones halluscan takes as grounded, right plants,
    right ones grounded): how often a wrong count of results passes by
    luck (a figure said elsewhere, another list's length), and how often
    a right one is grounded."""
    rng = random.Random(seed + 2)
    planted, spans = [], []
    for c in convs:
        for i, t, g in replies(c):
            if not g.tool.strip():
                continue
            n = turn_list(c, i)
            figs = [rng.choice([x for x in range(1, 13) if x != n]) for _ in range(per_reply)]
            if n is not None:
                figs.append(n)
            for fig in figs:
                nt = t.rstrip() + " I found %d." % fig
                st = len(nt) - len(str(fig)) - 1
                bs, be = bspan(nt, st, st + len(str(fig)))
                planted.append({"id": c["id"], "messages": c["messages"][:i] +
                                [dict(c["messages"][i], content=nt)]})
                spans.append((i, bs, be, fig == n))
    found = run_halluscan(binary, planted, ["--show-grounded"])
    res = [0, 0, 0, 0]
    for k, (i, bs, be, right) in enumerate(spans):
        hit = [f for f in found.get((k + 1, i), []) if overlaps((f["start"], f["end"]), bs, be)]
        res[2 if right else 0] += 1
        res[3 if right else 1] += bool(hit) and all(f.get("grounded") for f in hit)
    return tuple(res)


def judged_figures(path, findings, group_of):
    """The hand verdicts of judged.jsonl held against the findings on
    unchanged replies: each finding takes the verdict judged for its
    conversation, reply, start and text (or, when the span moved, for its
    conversation, reply and text).  Returns right, judged and unjudged
    counts in all, by group (source; agentdojo by model) and by rule."""
    exact, loose = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            exact[(d["conversation"], d["reply_index"], d.get("start"), d["text"])] = d["verdict"]
            loose.setdefault((d["conversation"], d["reply_index"], d["text"]), d["verdict"])
    tally = defaultdict(lambda: [0, 0, 0])  # right, judged, unjudged
    unjudged = []
    for u in findings:
        v = exact.get((u["conversation"], u["reply_index"], u["start"], u["text"]),
                      loose.get((u["conversation"], u["reply_index"], u["text"])))
        for key in ("all", "source " + group_of(u["conversation"]), "rule " + u["rule"]):
            if v is None:
                tally[key][2] += 1
            else:
                tally[key][1] += 1
                tally[key][0] += v == "right"
        if v is None:
            unjudged.append({k: u[k] for k in ("conversation", "reply_index", "rule", "text")})
    out = {"file": path, "unjudged_findings": unjudged}
    for key, (r, j, n) in sorted(tally.items()):
        what = {"right": r, "judged": j, "unjudged": n, "precision": r / j if j else None}
        if key == "all":
            out.update(what)
        else:
            kind, name = key.split(" ", 1)
            out.setdefault("by_" + kind, {})[name] = what
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="*",
                    help="default: bench/agents/*.jsonl but judged.jsonl")
    ap.add_argument("--halluscan", default=os.path.join(ROOT, "build", "halluscan"))
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--sample", type=int, default=0, help="conversations to take (0: all)")
    ap.add_argument("--findings", help="write halluscan's findings on unchanged replies here (JSONL)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--judged", metavar="FILE",
                    help="hand verdicts (JSONL) to hold the findings on unchanged replies against; "
                    "default: bench/agents/judged.jsonl with the default corpus")
    ap.add_argument("--missed", metavar="FILE",
                    help="write the plants halluscan missed here (JSONL: kind, conversation, "
                    "reply, the planted span, the changed reply and the findings on it)")
    ap.add_argument("--show-plants", type=int, default=0, metavar="N",
                    help="print N planted replies of each kind (to read the plants)")
    a = ap.parse_args()
    # judged.jsonl beside the transcripts holds judgements, not conversations
    paths = a.corpus or sorted(p for p in glob.glob(os.path.join(HERE, "agents", "*.jsonl"))
                               if os.path.basename(p) != "judged.jsonl")
    if not paths:
        sys.exit("planted: no corpus (bench/agents/*.jsonl)")
    judged = a.judged
    if judged is None and not a.corpus and os.path.exists(os.path.join(HERE, "agents", "judged.jsonl")):
        judged = os.path.join(HERE, "agents", "judged.jsonl")
    if not os.access(a.halluscan, os.X_OK):
        sys.exit("planted: no executable %s (build first, or --halluscan PATH)" % a.halluscan)
    t0 = time.monotonic()
    convs = load(paths, a.sample, a.seed)
    rng = random.Random(a.seed)
    arng = random.Random(a.seed + 2)

    unchanged = []   # (conv, index, text, naive)
    planted = []     # conversation copies
    plants = []      # (kind, conv id, index, bstart, bend, naive)
    for c in convs:
        for i, t, g in replies(c):
            unchanged.append((c, i, t, naive_findings(t, g)))
            cands = candidates(t, g)
            if not any(cands.values()):
                continue
            for kind in KINDS + ARITH:
                p = plant(t, kind, cands, rng, g) if kind in KINDS else \
                    plant_arith(t, kind, cands, arng, g)
                if p is None:
                    continue
                nt, s, e = p
                bs, be = bspan(nt, s, e)
                msgs = c["messages"][:i] + [dict(c["messages"][i], content=nt)]
                planted.append({"id": c["id"], "messages": msgs})
                plants.append((kind, c["id"], i, bs, be, naive_findings(nt, g), nt))

    found_u = run_halluscan(a.halluscan, convs)
    found_p = run_halluscan(a.halluscan, planted)

    res = {"conversations": len(convs), "replies": len(unchanged), "plants": len(plants)}
    flagged = 0
    naive_flagged = 0
    by_rule_unchanged = Counter()
    by_source = defaultdict(lambda: [0, 0, 0])  # replies, halluscan flagged, naive flagged
    unchanged_findings = []
    rec_of = {id(c): k + 1 for k, c in enumerate(convs)}
    for c, i, t, nv in unchanged:
        fs = found_u.get((rec_of[id(c)], i), [])
        src = c.get("source") or c["id"].split("/")[0]
        by_source[src][0] += 1
        if fs:
            flagged += 1
            by_source[src][1] += 1
        if nv:
            naive_flagged += 1
            by_source[src][2] += 1
        for f in fs:
            by_rule_unchanged[f["rule"]] += 1
            unchanged_findings.append({"conversation": c["id"], "reply_index": i,
                                       "signal": f["signal"], "rule": f["rule"],
                                       "text": f["text"], "start": f["start"], "end": f["end"],
                                       "message": f["message"], "reply": t})
    res["unchanged_flagged"] = {"halluscan": flagged / max(1, len(unchanged)),
                                "naive": naive_flagged / max(1, len(unchanged)),
                                "halluscan_replies": flagged, "naive_replies": naive_flagged}
    res["unchanged_findings_by_rule"] = dict(by_rule_unchanged.most_common())
    res["unchanged_flagged_by_source"] = {k: {"replies": v[0], "halluscan": v[1] / v[0],
                                              "naive": v[2] / v[0]}
                                          for k, v in sorted(by_source.items())}
    kinds = defaultdict(lambda: [0, 0, 0, 0])  # plants, halluscan hits, naive hits, altered_number
    plant_src = defaultdict(lambda: [0, 0, 0])
    src_of = {c["id"]: c.get("source") or c["id"].split("/")[0] for c in convs}
    caught_by = Counter()
    missed = []
    for k, (kind, cid, i, bs, be, nv, nt) in enumerate(plants):
        fs = found_p.get((k + 1, i), [])
        hit = [f for f in fs if overlaps((f["start"], f["end"]), bs, be)]
        if not hit:
            missed.append({"kind": kind, "conversation": cid, "reply_index": i, "start": bs,
                           "end": be, "text": nt.encode()[bs:be].decode(errors="replace"),
                           "reply": nt, "findings": [{x: f.get(x) for x in
                                                      ("rule", "text", "start", "message")}
                                                     for f in fs]})
        naive_hit = any(overlaps(f, bs, be) for f in nv)
        for tally in (kinds[kind], plant_src[src_of[cid]]):
            tally[0] += 1
            tally[1] += bool(hit)
            tally[2] += naive_hit
        if hit:
            caught_by[hit[0]["signal"]] += 1
            kinds[kind][3] += any(f["signal"] == "altered_number" for f in hit)
    # recall over the kinds planted since the start (comparable across
    # versions), and with the wrong computations too
    tot = [sum(v[j] for k, v in kinds.items() if k in KINDS) for j in range(3)]
    res["recall"] = {"halluscan": tot[1] / max(1, tot[0]), "naive": tot[2] / max(1, tot[0])}
    tot = [sum(v[j] for v in kinds.values()) for j in range(3)]
    res["recall_with_arithmetic"] = {"halluscan": tot[1] / max(1, tot[0]),
                                     "naive": tot[2] / max(1, tot[0])}
    res["by_kind"] = {k: {"plants": v[0], "halluscan": v[1] / v[0], "naive": v[2] / v[0],
                          "altered": v[3] / v[0]}
                      for k, v in sorted(kinds.items())}
    res["recall_by_source"] = {k: {"plants": v[0], "halluscan": v[1] / v[0], "naive": v[2] / v[0]}
                               for k, v in sorted(plant_src.items())}
    res["plants_caught_by_signal"] = dict(caught_by.most_common())
    n, naive_c, stated_c, derived_c = coincidences(a.halluscan, convs, a.seed)
    res["random_totals"] = {"plants": n, "naive_grounded": naive_c / max(1, n),
                            "halluscan_stated": stated_c / max(1, n),
                            "halluscan_derived": derived_c / max(1, n)}
    wn, wg, rn, rg = count_coincidences(a.halluscan, convs, a.seed)
    res["random_counts"] = {"wrong": wn, "wrong_grounded": wg / max(1, wn),
                            "right": rn, "right_grounded": rg / max(1, rn)}
    if judged:
        model = {c["id"]: c.get("model") for c in convs}

        def group_of(cid):
            # agentdojo's runs by the model that wrote them
            src = src_of[cid]
            return "%s/%s" % (src, cid.split("/")[1]) if model.get(cid) else src
        res["judged"] = judged_figures(judged, unchanged_findings, group_of)
    res["seconds"] = round(time.monotonic() - t0, 2)
    if a.show_plants:
        shown = Counter()
        for k, (kind, cid, i, bs, be, nv, nt) in enumerate(plants):
            if shown[kind] < a.show_plants:
                shown[kind] += 1
                b = nt.encode()
                hit = any(overlaps((f["start"], f["end"]), bs, be) for f in found_p.get((k + 1, i), []))
                print("%s %s#%d [%s] %s" % (kind, cid, i, "found" if hit else "MISSED",
                      (b[:bs] + b"[[" + b[bs:be] + b"]]" + b[be:]).decode().replace("\n", " ")[:300]),
                      file=sys.stderr)

    if a.missed:
        with open(a.missed, "w", encoding="utf-8") as f:
            for m in missed:
                f.write(json.dumps(m, ensure_ascii=False) + "\n")
    if a.findings:
        with open(a.findings, "w", encoding="utf-8") as f:
            for u in unchanged_findings:
                f.write(json.dumps(u, ensure_ascii=False) + "\n")
    if a.json:
        print(json.dumps(res, indent=1))
        return
    print("corpus: %d conversations, %d assistant replies, %d plants (seed %d)"
          % (res["conversations"], res["replies"], res["plants"], a.seed))
    print("%-28s %10s %10s" % ("", "naive", "halluscan"))
    print("%-28s %10.3f %10.3f" % ("planted recall", res["recall"]["naive"],
                                   res["recall"]["halluscan"]))
    print("%-28s %10.3f %10.3f" % ("... with wrong computations", res["recall_with_arithmetic"]["naive"],
                                   res["recall_with_arithmetic"]["halluscan"]))
    print("%-28s %10.3f %10.3f" % ("unchanged replies flagged", res["unchanged_flagged"]["naive"],
                                   res["unchanged_flagged"]["halluscan"]))
    print("unchanged replies flagged, by source:")
    for k, v in res["unchanged_flagged_by_source"].items():
        print("  %-26s %10.3f %10.3f   (%d replies)" % (k, v["naive"], v["halluscan"], v["replies"]))
    print("planted recall, by source:")
    for k, v in res["recall_by_source"].items():
        print("  %-26s %10.3f %10.3f   (%d plants)" % (k, v["naive"], v["halluscan"], v["plants"]))
    print("planted recall, by plant kind:")
    for k, v in res["by_kind"].items():
        print("  %-26s %10.3f %10.3f   (%d plants, %.3f as altered_number)"
              % (k, v["naive"], v["halluscan"], v["plants"], v["altered"]))
    rt = res["random_totals"]
    print("random totals grounded by coincidence (%d): naive %.3f, halluscan %.3f stated + %.3f derived"
          % (rt["plants"], rt["naive_grounded"], rt["halluscan_stated"], rt["halluscan_derived"]))
    rc = res["random_counts"]
    print("counts of results (\"I found N.\") grounded: wrong %.3f (%d), right %.3f (%d)"
          % (rc["wrong_grounded"], rc["wrong"], rc["right_grounded"], rc["right"]))
    print("plants caught, by signal: " + ", ".join("%s %d" % kv for kv in caught_by.most_common()))
    print("findings on unchanged replies, by rule: " +
          ", ".join("%s %d" % kv for kv in by_rule_unchanged.most_common()))
    if "judged" in res:
        jd = res["judged"]

        def share(v):
            return "%d/%d = %.3f" % (v["right"], v["judged"], v["precision"]) if v["judged"] else "none judged"
        print("findings on unchanged replies judged right (%s): %s, %d unjudged"
              % (os.path.relpath(jd["file"]), share(jd) if "judged" in jd else "none judged",
                 jd.get("unjudged", 0)))
        for kind in ("source", "rule"):
            print("  by %s: " % kind + ", ".join(
                "%s %s%s" % (k, share(v), " (+%d unjudged)" % v["unjudged"] if v["unjudged"] else "")
                for k, v in jd.get("by_" + kind, {}).items()))
    print("%.2f s" % res["seconds"])


if __name__ == "__main__":
    main()
