#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Splits the library's long files by job (docs/design.md, issue 33).

A file that holds several jobs (sentence assembly and the day check of opening
hours; a reader and a matcher) is cut by a table (SPLITS below): for each
source, its private header and the job left to it; for each new file, its
job and the top-level definitions (functions, static tables, "struct tag"s)
it takes, by NAME. The code is moved, never rewritten, so the script can be
run again on a tree where the files have changed since (after merging other
branches): it finds each definition anew.

What it does:
  - reads each source into top-level items (a function with its body, found
    by brace matching over C's tokens; a declaration or table up to its `;`;
    a struct, union or enum; a #define), each with the comment block right
    above it (or one blank line above a definition that has none); a comment
    that heads a section goes with the section's first definition, and an
    #if ... #endif at the top level goes whole or not at all;
  - gives each item a home: the new file that lists it; else the one new file
    that alone uses it (a helper, table, type or macro that only moved code
    uses goes with it, to a fixed point); else it stays; a forward declaration
    follows its definition;
  - what more than one file uses goes to the stage's private header (e.g.
    claims/claims_int.h), which every file of the cut includes right after
    its own header: types and macros; a static function of at most SMALL
    lines as `static inline` (a hot helper stays inlined); a static const
    table of at most SMALL_TABLE lines, or whose size another file takes, as
    a copy; any other static function or table loses `static` and is
    declared there. What one file alone uses stays static;
  - writes each new file (SPDX line, a comment saying its job, the source's
    includes), rewrites the source's opening comment to say the job left to
    it, and lists each new file in meson.build after its source.
It refuses (exit 2, naming the culprit, changing nothing) when a listed name
is missing or defined twice; when an #if block would be cut between files;
when something used by two files cannot be declared (a table of a type with
no name, or one whose size the other file takes, too big to copy); when a
name that loses static is another file's global too; or when some new files
of a cut are there and others not. Run on a tree it has split, it changes
nothing. It commits nothing: build, test, read `git status`/`git diff`, then
commit. The new files carry all of their source's includes (unused ones are
harmless; prune by hand if wanted).
    usage: scripts/split.py [--dry-run] [--verbose] [ROOT]
"""
import argparse
import glob
import textwrap
import os
import re
import sys

# source file -> (private header, [(new file, job, [names])]).
# A name is a function's or a table's (or a macro's, or "struct tag").
SPLITS = {
    "src/claims/claims.c": ("src/claims/claims_int.h",
        "Sentence assembly: matches held until their sentence ends (abbreviations, "
        "marks, line breaks), the decisions a whole sentence makes (the checks are "
        "the claims_*.c beside it), and one claim and one finding per stretch of text "
        "per signal.", [
        ("src/claims/claims_days.c",
         "Days, dates and the clock in a sentence: opening hours and the days they are "
         "said of, weekdays and relative dates against the grounded days, years, and "
         "times of the clock worked out.",
         ["days_clause", "opening_words", "days_said", "opening_time", "clock_reading",
          "days_a_week_held", "date_ahead", "since_said", "year_of_other_role",
          "date_of_year", "date_year_changed", "year_of_day", "day_grounded", "shifted_to",
          "ordinal_days", "relative_date", "weekday_day", "week_said", "clock_held",
          "duration_held", "hours_before", "minutes_after", "clock_arith", "clock_keep",
          "clock_format", "upcoming_weekday", "nights_range", "length_minutes",
          "clock_gap_after"]),
        ("src/claims/claims_totals.c",
         "Counts and totals: what a sum of money is (a charge, a refund, a rate), a "
         "total or a count read against the items and the tools' figures, and the "
         "ledger of the reply's own figures that a total, net or average is read against.",
         ["counts_results", "count_filler", "word_ending", "role_words", "claims_self_check",
          "role_of_words",
          "money_role", "per_span_total", "rate_of_time", "total_fig", "span_product",
          "party_product", "results_total", "items_sum_text", "items_sum", "is_item",
          "report_total", "party_of", "check_total_stated", "check_party_total",
          "check_total_computed", "near_items_total", "group_counted", "total_flow",
          "received_total", "ledger_at", "ledger_unit", "ledger_repeat", "ledger_quoted",
          "ledger_part", "ledger_total", "ledger_pair", "ledger_average", "ledger_bare",
          "count_product", "count_per_span", "bracketed_count", "received_after",
          "ledger_add", "urls_listed"]),
        ("src/claims/claims_said.c",
         "Figures the reply works out in words: a price times the counts its sentence "
         "names, a share of a total, an amount updated by a figure, a total under the "
         "list it sums, a tool list's total, a range's midpoint, and the sum of the two "
         "figures said just before.",
         ["words_product", "share_of", "updated_amount", "sum_of_said", "block_total",
          "range_midpoint", "tool_list_total", "last_two_sum", "ranges_keep"]),
        ("src/claims/claims_arith.c",
         "The reply's own arithmetic: the terms and results a sentence writes out, "
         "worked out again from grounded terms (numbers/arith.c reads them).",
         ["arith_op", "written_term", "same_result", "worked_out", "halving",
          "report_worked", "arith_sentence", "first_worked"]),
        ("src/claims/claims_exempt.c",
         "Exemptions: a rule's unless_sentence/unless_before/unless_after patterns "
         "compiled, stored with the ruleset and matched around a held match, and the "
         "replies that propose, plan, assess or branch rather than report.",
         ["under_heading", "item_title", "proposing", "says_proposing", "title_held",
          "proposed", "assessing", "names_assessment", "self_assessed", "opens_with",
          "branch_plan", "compile", "uses_start_offset", "n_exemptions", "compile_codes",
          "get_u32", "put_u32", "claims_serialize_exemptions", "decode_codes",
          "compile_exemptions", "claims_check_rules", "before_matches", "after_search",
          "after_pass", "exempt"]),
        ("src/claims/claims_numbers.c",
         "The number check: a sentence's quantities lexed, held with the matches and "
         "judged against the grounding (stated, derived, a range, a code, a name).",
         ["range_other", "range_held", "percent_as_fraction", "only_stated",
          "check_quantity", "name_before", "in_match", "open_phrase", "on_lexed",
          "label_inline_items", "on_attr", "merge_held", "hold_code", "lex_sentence",
          "street_as_number", "ident_held"]),
        ("src/claims/claims_queue.c",
         "The queue: findings and claims held, in order and bounded, until their "
         "sentence, reference line or list is decided, then passed on in order (a "
         "number check's finding inside an entry of the line read last taken off it). "
         "The checks beside it hold and release through it, never through claims.c.",
         ["entry_figure_rule", "off_entries", "claim_off_entries", "waiting_bytes",
          "release", "hold_item"]),
        ("src/claims/claims_refs.c",
         "References in a list: its entries read line by line, each checked against "
         "the user's bibliography and the tools' records.",
         ["struct ref_ground", "ref_key_held", "refs_in_list", "claims_set_bib", "refs_bib",
          "names_record", "refs_report", "refs_list_records", "refs_list_end",
          "refs_entry", "refs_value_held", "refs_list_field", "refs_list_add", "has_text",
          "line_opens", "may_open_item", "refs_item_kind", "refs_read_line",
          "refs_line"]),
    ]),
    "src/ground/ground.c": ("src/ground/ground_int.h",
        "The grounded set: normalized items of tool output (quantities in bins by "
        "value and unit, words of context, attributes), bounded, oldest evicted "
        "first; kept in step across turns and merged.", [
        ("src/ground/ground_judge.c",
         "The search: a figure of the reply judged against the grounded quantities "
         "(its bin, a range, a near value, its unit, the lexer's flags), and the "
         "swap walks that tell a figure said of the wrong thing.",
         ["struct qsearch", "older_than_stated", "closeness", "same_figure", "judge_figure",
          "keeps_bound", "count_noun", "names_noun", "other_measure", "month_holds",
          "judge", "judge_bin", "judge_range", "bin_low", "judge_near", "judge_candidates",
          "judge_unit", "judge_lexed", "find_swap", "swap_may_be_close", "superseded",
          "swap_outranks_prompt", "match", "ground_match_quantity",
          "ground_stated_quantity", "ground_swapped_bare", "ground_compared_only",
          "says_otherwise", "ground_said_otherwise", "ground_figure_held",
          "ground_range_held"]),
        ("src/ground/ground_days.c",
         "Days and dates in the grounding: the days and hours a tool gives, weekdays, "
         "relative dates (\"in 3 days\"), today, and the year a date is of.",
         ["day_word", "dash_at", "seven_before", "ground_days", "ground_day_name",
          "zero_clock", "closed_day", "ground_check_days", "ground_days_held",
          "ground_day_time", "rel_count", "rel_unit", "rel_is", "rel_set", "rel_token",
          "rel_may_end", "ground_relative_of", "ground_note_relative", "ground_relatives",
          "civil_days", "civil_of", "ground_shift_day", "ground_today",
          "ground_newest_day", "weekday_year", "ground_weekday_day", "year_beside",
          "year_of_slot", "ground_date_year", "ground_newest_list", "ground_day_run"]),
        ("src/ground/ground_keys.c",
         "Codes and keys: what a URL, a number, a citation, an IBAN, a hash or an "
         "identifier is matched by, and the groups of a code said in parts.",
         ["groups_alloc", "group_hash", "group_add", "ground_group_add", "group_value",
          "ground_group_pair_add", "said_as_words", "ground_group_said",
          "ground_group_pair_said", "url_key", "number_key", "is_name", "citation_key",
          "is_hex_digit", "is_hash", "upper_byte", "upper_or_digit", "iban_at",
          "ground_is_iban", "ground_is_code", "code_byte", "blank_byte", "word_is_address",
          "ground_next_code", "ground_code_key", "ground_is_underscored",
          "ground_ident_key", "code_key", "ground_hash_prefixes", "ground_key"]),
        ("src/ground/ground_derive.c",
         "Derivations: a total, a product or a share worked out from the tools' "
         "figures, and the items, parties and spans of time a sum of money is said of.",
         ["money_words", "said_as_money", "derive_terms", "derive_factors", "fig",
          "to_the_cent", "derived_as", "said_of", "ground_derive", "item_words",
          "sum_words", "payment_words", "party_words", "ctx_says", "start_words",
          "end_words", "ground_time_span", "money_walk", "count_keys", "ground_item_price",
          "ground_party_noun", "ground_party", "halved_or_doubled", "ground_charged"]),
    ]),
    # src/scan/scan.c was cut here into the driver and scan_ground.c, the glue to grounding;
    # that glue is now the grounding stage's own (src/ground/ground_unit.c, issue 33's
    # seventh stop): moved by hand behind an interface, not a cut to run again.
    "src/ground/refs.c": ("src/ground/refs_int.h",
        "Bibliography entries: the reader. One line in, its entries and their fields "
        "out (BibTeX, quoted titles, author-date, Vancouver).", [
        ("src/ground/refs_ids.c",
         "Identifiers in a reference: the DOIs, arXiv ids, ISBNs, URLs and years found "
         "in its text.",
         ["token_end", "after_doi_word", "find_doi", "old_yymm", "find_arxiv", "find_isbn",
          "placeholder_host", "find_url", "year_at", "find_year", "may_at", "may_hold",
          "find_ids", "prose_ids"]),
        ("src/ground/refs_match.c",
         "The matcher's side of references: where a list's entry starts, its label, "
         "its cue and its parenthesized year, and the keys a title and an entry's fields "
         "are matched by.",
         ["word_byte", "cap_word", "bracket_number", "bullet_quote", "quote_closes",
          "year_digits", "cue_at", "refs_line_cue", "names_start", "refs_paren_year",
          "number_word", "refs_item_start", "refs_item_maybe", "refs_item_label",
          "refs_field_label", "refs_heading", "fold", "refs_title_key", "refs_keys",
          "part_break", "label_value_key", "refs_segment_keys"]),
    ]),
    "src/match/rules.c": ("src/match/rules_int.h",
        "Rule packs: YAML -> rules, with every error located at file:line:col.", [
        ("src/match/rules_yaml.c",
         "A pack's YAML composed from libyaml's events within limits (size, nesting, "
         "anchors, aliases, nodes, text), refused at the event that passes one.",
         ["struct anchor", "struct frame", "struct loader", "fail_at", "count",
          "find_anchor", "attach", "compose_alias", "compose_node", "compose_end",
          "load_document", "loader_new", "loader_free"]),
        ("src/match/rules_codec.c",
         "A ruleset's binary form, which the program loads without YAML or hashing "
         "(written at build time), and the digest of its packs.",
         ["digest_str", "digest_examples", "compute_digest", "ruleset_check_digest",
          "struct codec", "codec_fail", "codec_put", "codec_take", "codec_u32",
          "codec_unsigned", "codec_double", "codec_count", "trusted_string",
          "general_string", "codec_string", "codec_str", "codec_opt_str", "codec_str_v",
          "codec_array", "codec_where", "codec_example", "codec_example_arrays",
          "decode_lazy", "codec_rule_examples", "codec_near", "codec_rule", "codec_span",
          "codec_context", "codec_trigger", "codec_wordlist", "codec_digest",
          "codec_ruleset", "ruleset_serialize", "move_items", "room", "ruleset_take",
          "add_serialized", "ruleset_add_serialized", "ruleset_add_serialized_static",
          "ruleset_add_serialized_builtin", "ruleset_load_examples"]),
    ]),
    "src/match/engine.c": ("src/match/engine_int.h",
        "Hyperscan and PCRE2 behind one streaming interface with one match semantics: "
        "the stream (sentence marks, matches folded leftmost-longest and delivered in "
        "order behind a watermark).", [
        ("src/match/engine_compile.c",
         "An engine built: patterns checked (no empty match, no line break) and "
         "compiled for Hyperscan and PCRE2, literals found, and the databases "
         "serialized, loaded and described.",
         ["compile_pcre2", "matches_empty", "matches_line_break", "check_expr",
          "engine_check_pattern", "engine_free", "engine_alloc", "literal_of",
          "finish_pcre2", "hs_expr", "struct hs_exprs", "hs_exprs_free", "hs_exprs_make",
          "compile_set", "compile_hs", "engine_compile", "put_db", "get_db",
          "engine_serialize", "engine_load", "engine_get_info", "engine_is_pcre2"]),
    ]),
    "src/numbers/arith.c": ("src/numbers/arith_int.h",
        "Arithmetic written out in a sentence, read: its figures, operators, relation "
        "words and the parts a sentence names, into chains of sides and results.", [
        ("src/numbers/arith_eval.c",
         "Arithmetic worked out and said back: exact rationals, a chain evaluated from "
         "its figures, whether a written result states a value at its precision, and "
         "the working written out in words.",
         ["gcd64", "q_make", "q_add", "q_mul", "q_cmp", "arith_double", "q_round",
          "arith_states", "prec", "apply", "arith_eval", "put", "puts_", "put_value",
          "put_fig", "arith_how", "arith_format"]),
    ]),
    "src/numbers/numlex.c": ("src/numbers/numlex_int.h",
        "The number lexer's pass: a text read 64 bytes at a time for the words and "
        "digits that may start an item, each read where it starts, the items handed "
        "on in batches.", [
        ("src/numbers/shapes.c",
         "The shapes a figure is read in before it is an expression: versions, hex "
         "numbers, dates with slashes and ISO dates, phone numbers, street addresses, "
         "bracketed references, names that hold a number.",
         ["read_version", "hex_digit", "lex_hex_number", "lex_version", "lex_slashed",
          "lex_phone", "street_word", "lex_street", "date_digits", "lex_iso_date",
          "lex_bracket_refs", "lex_references", "lex_named_number", "lex_hyphen_name"]),
    ]),
}


# Shared helpers on a hot path (per byte, per word): inlined from the header whatever
# their size, as they were when one file held them and its callers.
INLINE = {
    "src/ground/ground.c": ["word_hash"],  # every word of context, in ground.c and beside it
}


def die(msg):
    print("split: " + msg, file=sys.stderr)
    sys.exit(2)


# --- reading C into top-level items -------------------------------------------------------

TOKEN = re.compile(r"""
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<pp>^[ \t]*\#(?:[^\n\\]|\\.)*(?:\\\n(?:[^\n\\]|\\.)*)*)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eEpP][+-])*)
  | (?P<ws>\s+)
  | (?P<punct>\#\#|\#|->|\+\+|--|<<=|>>=|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=]=?|\.\.\.|[][(){};,.?:])
""", re.S | re.M | re.X)

KEYWORDS = set("""auto break case char const continue default do double else enum extern float for
goto if inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while _Bool _Static_assert static_assert bool true false
__attribute__ __typeof__ typeof _Alignof alignof _Thread_local""".split())


def tokens(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            die("cannot read C at offset %d: %r" % (pos, text[pos:pos + 40]))
        out.append((m.lastgroup, m.group(), m.start(), m.end()))
        pos = m.end()
    return out


class Item:
    """One top-level definition or declaration, with the comment above it."""

    def __init__(self, kind, start, end, code_start, names, refs, cond, static, text):
        self.kind = kind            # func, proto, var, type, typedef, macro, undef, pp, other
        self.start = start          # where its comment block starts
        self.end = end              # past its last line's newline
        self.code_start = code_start
        self.names = names          # what it defines: "name" or "struct tag"
        self.refs = refs            # the names it uses
        self.cond = cond            # inside #if: the index of the outermost #if item
        self.static = static
        self.text = text
        self.inline = False
        self.home = None

    def __repr__(self):
        return "Item(%s %s)" % (self.kind, self.names)


def refs_of(toks):
    """The names a run of tokens uses (no member after . or ->)."""
    out, prev = set(), None
    for kind, s, _, _ in toks:
        if kind in ("ws", "comment"):
            continue
        if kind == "pp":
            # a macro's body, or #undef/#if: its identifiers
            for t in tokens(re.sub(r"^\s*#\s*\w+", "", s.replace("\\\n", " "), count=1)):
                if t[0] == "id" and t[1] not in KEYWORDS:
                    out.add(t[1])
            prev = s
            continue
        if kind == "id" and s not in KEYWORDS and prev not in (".", "->"):
            out.add(("%s %s" % (prev, s)) if prev in ("struct", "union", "enum") else s)
        prev = s
    return out


def line_start(text, pos):
    return text.rfind("\n", 0, pos) + 1


def line_end(text, pos):
    e = text.find("\n", pos)
    return len(text) if e < 0 else e + 1


def declared_names(sig):
    """Names a declaration without a body defines: (kind, names, is_proto)."""
    code = [t for t in sig if t[0] not in ("ws", "comment")]
    words = [t[1] for t in code]
    if words and words[0] == "typedef":
        # typedef ... name;  or  typedef ret (*name)(...);
        depth, names = 0, []
        for i, w in enumerate(words):
            if w == "(" and i + 2 < len(words) and words[i + 1] == "*" and depth == 0:
                names.append(words[i + 2])
                break
            depth += w in "([{" and len(w) == 1
            depth -= w in ")]}" and len(w) == 1
        if not names:
            ids = [w for w, t in zip(words, code) if t[0] == "id" and w not in KEYWORDS]
            names = ids[-1:]
        tags = tag_defs(words)
        return "typedef", names + tags, False
    # struct/union/enum definition with no declarator: a type
    tags = tag_defs(words)
    depth, names, cur, is_proto = 0, [], None, False
    enumerators = enum_names(words)
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("(", "[", "{"):
            if w == "(" and depth == 0 and cur is not None:
                is_proto = True
            depth += 1
        elif w in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and code[i][0] == "id" and w not in KEYWORDS:
            if not (i > 0 and words[i - 1] in ("struct", "union", "enum")):
                cur = w
        elif depth == 0 and w in (",", "=", ";"):
            if cur is not None and cur not in names:
                names.append(cur)
            cur = None
            if w == "=":
                # skip the initializer to the next , or ; at depth 0
                d = 0
                while i + 1 < len(words):
                    n = words[i + 1]
                    if n in ("(", "[", "{"):
                        d += 1
                    elif n in (")", "]", "}"):
                        d -= 1
                    elif d == 0 and n in (",", ";"):
                        break
                    i += 1
        i += 1
    if not names and (tags or enumerators):
        return "type", tags + enumerators, False
    if is_proto:
        first = None
        for k, w in enumerate(words):
            if w == "(":
                first = words[k - 1] if k else None
                break
        return "proto", [first] if first else names, True
    return "var", names + tags + enumerators, False


def tag_defs(words):
    out = []
    for i, w in enumerate(words):
        if w in ("struct", "union", "enum") and i + 2 < len(words) and words[i + 2] == "{":
            out.append("%s %s" % (w, words[i + 1]))
    return out


def enum_names(words):
    out = []
    for i, w in enumerate(words):
        if w != "enum":
            continue
        j = i + 1
        while j < len(words) and words[j] != "{":
            if words[j] in (";", "("):
                break
            j += 1
        if j >= len(words) or words[j] != "{":
            continue
        depth, expect = 0, True
        for k in range(j, len(words)):
            x = words[k]
            if x in ("(", "[", "{"):
                depth += 1
                if depth == 1:
                    expect = True
                continue
            if x in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    break
                continue
            if depth == 1:
                if x == ",":
                    expect = True
                elif expect and re.match(r"[A-Za-z_]\w*$", x):
                    out.append(x)
                    expect = False
                else:
                    expect = False
    return out


def read_items(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    toks = tokens(text)
    items, i, cond, group = [], 0, 0, None
    n = len(toks)

    def comment_start(code_pos):
        """Where the comment block right above code_pos starts (no blank line between)."""
        ls = line_start(text, code_pos)
        start = ls
        # walk back over whole lines that are comments
        while True:
            prev_end = start - 1
            if prev_end <= 0:
                break
            pls = line_start(text, prev_end)
            line = text[pls:prev_end]
            if not line.strip():
                break
            stripped = line.strip()
            if stripped.startswith("//"):
                start = pls
                continue
            if stripped.endswith("*/"):
                # find the opening of this block comment
                o = text.rfind("/*", 0, prev_end)
                if o < 0:
                    break
                ols = line_start(text, o)
                if text[ols:o].strip():
                    break  # code before the comment on its line
                start = ols
                continue
            break
        return start

    while i < n:
        kind, s, a, b = toks[i]
        if kind in ("ws", "comment"):
            i += 1
            continue
        if kind == "pp":
            d = re.match(r"\s*#\s*(\w+)\s*(\w*)", s)
            word = d.group(1) if d else ""
            if word in ("if", "ifdef", "ifndef"):
                if cond == 0:
                    group = len(items)
                cond += 1
            here = group if cond > 0 else None
            if word == "endif":
                cond -= 1
            if word == "define":
                mk, names = "macro", [d.group(2)]
                refs = refs_of([(kind, s, a, b)]) - {d.group(2)}
            elif word == "undef":
                mk, names, refs = "undef", [d.group(2)], set()
            else:
                mk, names, refs = "pp", [], set()
            cs = comment_start(a) if mk == "macro" else line_start(text, a)
            item = Item(mk, cs, line_end(text, b - 1) if b > a else b, a, names, refs,
                        here, False, None)
            items.append(item)
            i += 1
            continue
        # a declaration or definition: up to ; at depth 0, or a function body's }
        j, depth, body_open = i, 0, None
        prev_sig = None
        while j < n:
            k2, s2, _, _ = toks[j]
            if k2 == "pp" and depth == 0:
                die("%s: a preprocessor line inside the declaration at line %d" %
                    (path, text.count("\n", 0, a) + 1))
            if k2 == "punct":
                if s2 in ("(", "["):
                    depth += 1
                elif s2 in (")", "]"):
                    depth -= 1
                elif s2 == "{":
                    if depth == 0 and prev_sig == ")" and body_open is None:
                        body_open = j
                    depth += 1
                elif s2 == "}":
                    depth -= 1
                    if depth == 0 and body_open is not None:
                        break
                elif s2 == ";" and depth == 0:
                    break
            if k2 not in ("ws", "comment"):
                prev_sig = s2
            j += 1
        if j >= n:
            die("%s: unterminated declaration at line %d" % (path, text.count("\n", 0, a) + 1))
        end_off = toks[j][3]
        sig = toks[i:body_open] if body_open is not None else toks[i:j + 1]
        words = [t[1] for t in sig if t[0] not in ("ws", "comment")]
        static = "static" in words[:3]
        if body_open is not None:
            # the function's name: the identifier before the first ( at depth 0
            # the function's name: the identifier before the first ( at depth 0
            # that does not open an __attribute__((...))
            name, last, d, skip = None, None, 0, False
            for t in sig:
                if t[0] in ("ws", "comment"):
                    continue
                if t[1] == "(":
                    if d == 0 and not skip and last != "__attribute__":
                        name = last
                        break
                    if d == 0 and last == "__attribute__":
                        skip = True
                    d += 1
                elif t[1] == ")":
                    d -= 1
                    if d == 0:
                        skip = False
                elif t[0] == "id" and d == 0:
                    last = t[1]
            mk, names = "func", [name]
        else:
            mk, names, _ = declared_names(sig)
        refs = refs_of(toks[i:j + 1]) - set(names)
        cs = comment_start(a)
        item = Item(mk, cs, line_end(text, end_off - 1), a, names, refs,
                    group if cond > 0 else None, static, None)
        item.inline = "inline" in words[:4]
        items.append(item)
        i = j + 1
    for it in items:
        it.text = text[it.start:it.end]
    # spans must not overlap: a comment block claimed by two items goes to the first
    for p, q in zip(items, items[1:]):
        if q.start < p.end:
            q.start = p.end
            q.text = text[q.start:q.end]
    # the comments between items: one a blank line above a definition that has none
    # of its own is that definition's; the others head a section (notes)
    out, coded = [], False
    for k, it in enumerate(items):
        prev_end = items[k - 1].end if k else 0
        gap = text[prev_end:it.start]
        blocks = list(re.finditer(r"^[ \t]*(/\*.*?\*/|//[^\n]*)[ \t]*\n", gap, re.S | re.M))
        if coded and blocks:
            last = blocks[-1]
            if it.kind in ("func", "var", "type", "typedef", "proto") and \
                    it.start == line_start(text, it.code_start) and \
                    not gap[last.end():].strip("\n") and gap[last.end():].count("\n") <= 1:
                it.start = prev_end + last.start()
                it.text = text[it.start:it.end]
                blocks = blocks[:-1]
            for b in blocks:
                note = Item("note", prev_end + b.start(), prev_end + b.end(), prev_end + b.start(),
                            [], set(), None, False, None)
                note.text = text[note.start:note.end]
                out.append(note)
        out.append(it)
        coded = coded or it.kind not in ("pp",)
    return text, out


# --- planning ------------------------------------------------------------------------------

MOVABLE = ("func", "proto", "var", "type", "typedef", "macro", "undef")


def plan(src, header, parts, verbose):
    """Homes for each item of src: src itself, a new file, or the private header."""
    text, items = read_items(src)
    defs = {}
    for it in items:
        if it.kind in ("func", "var", "type", "typedef", "macro"):
            for nm in it.names:
                defs.setdefault(nm, []).append(it)
    protos = {}
    for it in items:
        if it.kind in ("proto", "undef"):
            for nm in it.names:
                protos.setdefault(nm, []).append(it)
    problems = []
    for new, _, names in parts:
        for nm in names:
            d = defs.get(nm, [])
            if not d:
                problems.append("%s: no top-level definition of %s (for %s)" % (src, nm, new))
            elif len(d) > 1:
                problems.append("%s: %s is defined %d times (lines %s): which one goes to %s?" % (
                    src, nm, len(d), ", ".join(str(text.count("\n", 0, x.code_start) + 1) for x in d),
                    new))
    for nm in INLINE.get(src, ()):
        d = defs.get(nm, [])
        if len(d) != 1 or d[0].kind != "func":
            problems.append("%s: INLINE names %s, which is not one function there" % (src, nm))
    if problems:
        die("\n  ".join(["refusing, nothing changed:"] + problems))

    for it in items:
        it.home = src
    for new, _, names in parts:
        for nm in names:
            defs[nm][0].home = new

    def owner(nm):
        d = defs.get(nm)
        return d[0] if d and len(d) == 1 else None

    # users of each item (by the items that name it)
    def users_of():
        u = {id(it): set() for it in items}
        for it in items:
            if it.kind in ("pp",) or it.kind in ("proto", "undef"):
                continue
            for r in it.refs:
                o = owner(r)
                if o is not None and o is not it:
                    u[id(o)].add(it.home)
        return u

    followed = []
    while True:
        u = users_of()
        changed = False
        for it in items:
            if it.home != src or it.kind not in ("func", "var", "type", "typedef", "macro"):
                continue
            if it.kind == "func" and not it.static:
                continue
            homes = u[id(it)]
            if len(homes) == 1 and src not in homes:
                it.home = next(iter(homes))
                followed.append(it)
                changed = True
        if not changed:
            break
    u = users_of()
    # what is used across files: types, macros and small static functions go to the
    # header (a function as static inline, so a hot helper stays inlined); other
    # static functions and tables are declared there, without static
    public = public_names(src)
    shared = set()
    declared = []
    work = [it for it in items if it.kind in ("func", "var", "type", "typedef", "macro")
            and u[id(it)] - {it.home}]
    while work:
        it = work.pop()
        if id(it) in shared:
            continue
        if it.kind == "func" and not it.static and it.names[0] in public:
            continue  # a stage's header declares it
        shared.add(id(it))
        if it.kind in ("type", "typedef", "macro") or (it.kind == "func" and it.static and (
                it.inline or code_lines(it) <= SMALL or it.names[0] in INLINE.get(src, ()))) or (
                it.kind == "var" and it.static and const_table(it) and (
                    code_lines(it) <= SMALL_TABLE or sized_elsewhere(it, items))):
            it.home = header
            need = it.refs
        else:
            if it.cond is not None:
                die("refusing, nothing changed: %s: %s stands inside #if and is used by more "
                    "than one file: move its users together or the block by hand" % (
                        src, " ".join(it.names)))
            if it.kind == "var":
                head = it.text[it.code_start - it.start:].split("=")[0]
                if re.search(r"\b(struct|union|enum)\s*\{", head):
                    die("refusing, nothing changed: %s: %s, of a type with no name, is used by "
                        "more than one file (%s): move it with all its users, or name its type"
                        % (src, it.names[0], ", ".join(sorted(u[id(it)] | {it.home}))))
                for other in sized_elsewhere(it, items):
                    die("refusing, nothing changed: %s: %s (%s) takes the size of %s, which "
                        "goes to %s: move them together" % (
                            src, " ".join(other.names), other.home, it.names[0], it.home))
            declared.append(it)
            need = prototype_refs(it, text)
        for r in need:
            o = owner(r)
            if o is None or o.home == header or id(o) in shared:
                continue
            # a type names no function or table: a field of its is only a namesake
            if it.kind in ("type", "typedef") and o.kind in ("func", "var"):
                continue
            if o.kind in ("type", "typedef", "macro", "func", "var"):
                work.append(o)
    # what has no name (a _Static_assert) goes where all it names went
    for it in items:
        if it.kind in ("var", "other") and not it.names and it.home == src:
            homes = {owner(r).home for r in it.refs if owner(r) is not None}
            if homes and src not in homes and len(homes) == 1:
                it.home = homes.pop()
    # forward declarations follow their definition, or go when the header declares it
    decl_names = {nm for it in declared for nm in it.names}
    for it in items:
        if it.kind in ("proto", "undef"):
            o = owner(it.names[0]) if it.names else None
            if o is None:
                continue
            if it.kind == "proto" and it.names[0] in decl_names and o.static:
                it.home = None  # dropped
            elif o.home == header:
                it.home = None if it.kind == "undef" else header
            else:
                it.home = o.home
    # an #if group goes whole where all it holds goes; split across files, it is refused
    groups = {}
    for it in items:
        if it.cond is not None:
            groups.setdefault(it.cond, []).append(it)
    for g, members in sorted(groups.items()):
        homes = {it.home for it in members if it.kind not in ("pp",) and it.home is not None}
        if len(homes) > 1:
            die("refusing, nothing changed: %s: the #if at line %d holds %s, which would go to "
                "%s: move them together or move the block by hand" % (
                    src, text.count("\n", 0, items[g].code_start) + 1,
                    ", ".join(" ".join(it.names) for it in members if it.names),
                    ", ".join(sorted(homes))))
        if homes:
            h = homes.pop()
            for it in members:
                if it.kind == "pp":
                    it.home = h
    # a note heading a section goes with the section's first definition
    for k, it in enumerate(items):
        if it.kind != "note":
            continue
        for o in items[k + 1:]:
            if o.kind == "note":
                break
            if o.kind not in ("pp",) and o.home not in (header, None):
                it.home = o.home
                break
    if verbose:
        for it in followed:
            print("  %s: %s follows to %s" % (src, " ".join(it.names), it.home))
    return text, items, declared, [it for it in items if it.home == header]


SMALL = 15  # lines of code: a static function shared this small is inlined from the header


SMALL_TABLE = 24  # lines: a static const table shared this small is copied, not declared


def const_table(it):
    head = it.text[it.code_start - it.start:].split("=")[0]
    return re.match(r"static\s+const\b", head) is not None and "=" in it.text


def sized_elsewhere(it, items):
    """The items of other files that take the size of it (ARRAY_SIZE, sizeof)."""
    pat = re.compile(r"\b(ARRAY_SIZE|sizeof)\s*\(?\s*%s\b" % re.escape(it.names[0]))
    return [o for o in items if o.home != it.home and o.kind in ("func", "var", "macro")
            and pat.search(o.text)]


def code_lines(it):
    return it.text[it.code_start - it.start:].count("\n")


def public_names(src):
    """Names that a header of src's folder (or of src/) declares."""
    out = set()
    for root, _, files in os.walk("src"):
        for f in files:
            if f.endswith(".h"):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    out |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", fh.read()))
    return out


def prototype_refs(it, text):
    if it.kind == "func":
        body = it.text.find("{", it.code_start - it.start)
        sig = it.text[:body]
    else:
        sig = it.text.split("=")[0]
    return refs_of(tokens(sig))


def unstatic(s):
    return re.sub(r"^static\s+", "", s, count=1)


def declaration(it):
    """What the header says of a function or table that loses static."""
    code = it.text[it.code_start - it.start:]
    if it.kind == "func":
        sig = code[:code.index("{")].rstrip()
        return unstatic(sig) + ";"
    head = code.split("=")[0].rstrip().rstrip(";").rstrip()
    return "extern " + unstatic(head) + ";"


def make_public(it):
    """The item's text without static, when other files use it."""
    off = it.code_start - it.start
    code = it.text[off:]
    return it.text[:off] + unstatic(code)


def make_inline(it):
    off = it.code_start - it.start
    code = it.text[off:]
    if not re.match(r"static\s+(\w+\s+)?inline\b", code):
        code = re.sub(r"^static\s+", "static inline ", code, count=1)
    return it.text[:off] + code


# --- writing -------------------------------------------------------------------------------

GUARD = "HALLUSCAN_%s_H"


def include_block(text):
    """The source's includes as it writes them, before its first line of code: each
    include, a #define that belongs to one (PCRE2's), and an #if group of includes
    (kept whole, as one entry)."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"\s*#\s*include\b", line):
            out.append(line)
        elif re.match(r"\s*#\s*define\s+PCRE2_CODE_UNIT_WIDTH\b", line):
            out.append(line)
        elif re.match(r"\s*#\s*if", line):
            j = i + 1
            while j < len(lines) and not re.match(r"\s*#\s*endif", lines[j]):
                j += 1
            group = lines[i:j + 1]
            if all(re.match(r"\s*(#\s*(include|if|else|elif|endif)\b|$)", x) for x in group):
                out.append("\n".join(group))
            i = j
        elif re.match(r"\s*(#|//|/\*|\*|$)", line):
            pass
        else:
            break
        i += 1
    return out


def render_includes(lines, own):
    """Groups: the quoted headers, the system's, PCRE2's, then #if groups."""
    groups = [x for x in lines if "\n" in x]
    lines = [x for x in lines if "\n" not in x]
    quoted = [x for x in lines if '"' in x and (own is None or x.split('"')[1] != own)]
    pcre = [x for x in lines if "PCRE2_CODE_UNIT_WIDTH" in x]
    system = [x for x in lines if '"' not in x and "include" in x and "pcre2.h" not in x]
    out = []
    if quoted:
        out += sorted(set(quoted), key=lambda x: x.split('"')[1]) + [""]
    if system:
        out += sorted(set(system)) + [""]
    if pcre:
        out += pcre + ["#include <pcre2.h>", ""]
    for g in groups:
        out += [g, ""]
    return out


def join_items(pairs):
    """Items' texts, a blank line between two, none inside an #if's lines."""
    out = []
    for k, (it, t) in enumerate(pairs):
        t = t.strip("\n") + "\n"
        if out:
            prev = pairs[k - 1][0]
            opens = prev.kind == "pp" and re.match(r"\s*#\s*(if|else|elif)", prev.text.strip())
            closes = it.kind == "pp" and re.match(r"\s*#\s*(else|elif|endif)", it.text.strip())
            if not (opens or closes):
                out.append("\n")
        out.append(t)
    return "".join(out) + "\n"


def comment_block(text):
    lines = textwrap.wrap(text, 92)
    if len(lines) == 1 and len(lines[0]) <= 92:
        return "/* %s */\n" % lines[0]
    return "/*\n" + "".join((" * " + x).rstrip() + "\n" for x in lines) + " */\n"


def tidy(s):
    s = re.sub(r"\n{3,}", "\n\n", s)
    return s.rstrip("\n") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="print the plan, change nothing")
    ap.add_argument("--verbose", action="store_true", help="say which helpers follow")
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    os.chdir(a.root)

    writes = {}
    exposed = {}  # a name that loses static -> its file; two of one name do not link
    for path in sorted(glob.glob("src/**/*.c", recursive=True)):
        if path in SPLITS or any(path == p[0] for _, _, ps in SPLITS.values() for p in ps):
            continue
        for it in read_items(path)[1]:
            if it.kind in ("func", "var") and not it.static:
                for nm in it.names:
                    exposed[nm] = path
    for src, (header, src_job, parts) in SPLITS.items():
        if not os.path.isfile(src):
            die("refusing, nothing changed: %s is not there" % src)
        done = [p for p in parts if os.path.exists(p[0])]
        if done:
            with open(src, encoding="utf-8") as fh:
                text = fh.read()
            _, items = read_items(src)
            left = {nm for it in items if it.kind in ("func", "var", "type", "typedef", "macro")
                    for nm in it.names}
            still = [nm for new, _, names in parts for nm in names if nm in left]
            if len(done) == len(parts) and not still:
                print("split: %s is split already" % src)
                continue
            die("refusing, nothing changed: %s is there but %s still defines %s" % (
                ", ".join(p[0] for p in done), src, ", ".join(still) or "(none)"))
        text, items, declared, in_header = plan(src, header, parts, a.verbose)
        for it in declared:
            for nm in it.names:
                if nm in exposed and exposed[nm] != src:
                    die("refusing, nothing changed: %s: %s loses static to be shared, but %s "
                        "defines a %s for the whole library too: give one of them a name of "
                        "its own" % (src, nm, exposed[nm], nm))
        for it in items:
            if it.kind in ("func", "var") and (not it.static or it in declared) and \
                    it.home is not None:
                for nm in it.names:
                    exposed.setdefault(nm, src)
        inc_lines = include_block(text)
        hname = os.path.basename(header)
        decl_names = {nm for it in declared for nm in it.names}
        out = {}
        for new, job, _ in parts:
            body = []
            for it in items:
                if it.home != new:
                    continue
                t = it.text
                if it.kind in ("func", "var") and set(it.names) & decl_names:
                    t = make_public(it)
                body.append((it, t))
            body = [join_items(body)]
            head = ["// SPDX-License-Identifier: MIT", comment_block(
                job + " (Split from %s by scripts/split.py.)" % os.path.basename(src)).rstrip()]
            own = os.path.splitext(os.path.basename(src))[0] + ".h"
            incs = render_includes(inc_lines, own)
            head += ['#include "%s"' % own, '#include "%s"' % hname, ""] + incs
            out[new] = tidy("\n".join(head) + "\n" + "\n".join(body))
        # the source without what went
        pieces, pos = [], 0
        for it in items:
            pieces.append(text[pos:it.start])
            if it.home == src:
                t = it.text
                if it.kind in ("func", "var") and set(it.names) & decl_names:
                    t = make_public(it)
                pieces.append(t)
            pos = it.end
        pieces.append(text[pos:])
        rest = tidy("".join(pieces))
        # the source includes the header after its last include
        # the source's comment says the job left to it
        first = re.match(r"(//[^\n]*SPDX[^\n]*\n)/\*.*?\*/\n", rest, re.S)
        if not first:
            die("refusing, nothing changed: %s does not open with its SPDX line and a "
                "comment saying its job" % src)
        rest = first.group(1) + comment_block(src_job) + rest[first.end():]
        # the source includes the header right after its own
        own_h = os.path.splitext(os.path.basename(src))[0] + ".h"
        incs = list(re.finditer(r'^[ \t]*#[ \t]*include[ \t]*"%s"[^\n]*\n' % re.escape(own_h),
                                rest, re.M)) or \
            list(re.finditer(r"^[ \t]*#[ \t]*include[^\n]*\n", rest, re.M))
        if in_header or declared:
            at = incs[0].end() if incs else 0
            rest = rest[:at] + '#include "%s"\n' % hname + rest[at:]
        out[src] = rest
        # the private header
        if in_header or declared:
            g = GUARD % re.sub(r"\W", "_", os.path.relpath(header, "src")[:-2]).upper()
            files = ", ".join(os.path.basename(f) for f in [src] + [p[0] for p in parts])
            h = ["/* SPDX-License-Identifier: MIT */", "/*"]
            h += [(" * " + x).rstrip() for x in textwrap.wrap(
                "What %s share and nothing else includes: the types and macros more than "
                "one of them uses, the small helpers they share (inline), and the "
                "functions and tables one of them defines for another. Written by "
                "scripts/split.py; not an interface." % files, 92)]
            h += [" */",
                 "#ifndef %s" % g, "#define %s" % g, ""]
            h += render_includes(inc_lines, None)
            # types and macros, then declarations, then the inline functions (with
            # the #if groups that hold one)
            ordered = [it for it in items if it.home == header]
            with_func = {it.cond for it in ordered if it.kind == "func" and it.cond is not None}
            late = [it for it in ordered if it.kind == "func" or
                    (it.cond is not None and it.cond in with_func)]
            h.append(join_items([(it, it.text) for it in ordered if it not in late]))
            h += [declaration(it) for it in items if it in declared] + [""]
            h.append(join_items([(it, make_inline(it) if it.kind == "func" else it.text)
                                 for it in late]))
            h.append("#endif")
            out[header] = tidy("\n".join(h))
        elif os.path.exists(header):
            die("refusing, nothing changed: %s is there already" % header)
        for f, t in out.items():
            writes[f] = t
        if a.dry_run:
            for new, job, _ in parts:
                print("%s -> %s: %d lines (%s)" % (src, new, out[new].count("\n"), job))
            print("%s stays: %d lines; %s: %d shared items, %d declared" % (
                src, rest.count("\n"), header, len(in_header), len(declared)))

    if a.dry_run or not writes:
        if not writes:
            print("split: nothing to do")
        return 0
    # meson.build: each new file after its source in the library's list
    with open("meson.build", encoding="utf-8") as fh:
        meson = fh.read()
    for src, (header, src_job, parts) in SPLITS.items():
        if src not in writes:
            continue
        line = re.search(r"^([ \t]*)'%s',\n" % re.escape(src), meson, re.M)
        if not line:
            die("refusing, nothing changed: meson.build does not list '%s'" % src)
        add = "".join("%s'%s',\n" % (line.group(1), p[0]) for p in parts
                      if "'%s'" % p[0] not in meson)
        meson = meson[:line.end()] + add + meson[line.end():]
    writes["meson.build"] = meson
    for f, t in sorted(writes.items()):
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(t)
    print("split: %d files written; build, test, read `git diff --stat`, then commit" % len(writes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
