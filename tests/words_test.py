#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The word lists' generator (tools/words.c, docs/words.md): the lists of
words/ make the tables, an extension lands in them, and each kind of
malformed or duplicate entry is refused with status 1 and its file and
line, which fails the build.

usage: words_test.py WORDS SRCDIR
"""
import os
import re
import subprocess
import sys
import tempfile

from checks import check, finish

GEN, SRC = os.path.abspath(sys.argv[1]), sys.argv[2]
with open(os.path.join(SRC, "words", "numbers.txt"), encoding="ascii") as f:
    NUMBERS = f.read()
with open(os.path.join(SRC, "words", "pairs.txt"), encoding="ascii") as f:
    PAIRS = f.read()
with open(os.path.join(SRC, "words", "ground.txt"), encoding="ascii") as f:
    GROUND = f.read()
with open(os.path.join(SRC, "words", "claims.txt"), encoding="ascii") as f:
    CLAIMS = f.read()


def run(numbers=NUMBERS, pairs=PAIRS, extra=None, ground=GROUND, claims=CLAIMS):
    """The generator over the lists (edited): (status, stderr, the C it wrote)."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        lists = (("numbers.txt", numbers), ("pairs.txt", pairs), ("ground.txt", ground),
                 ("claims.txt", claims))
        for name, text in lists + (extra or ()):
            paths.append(os.path.join(d, name))
            with open(paths[-1], "wb") as f:
                f.write(text.encode("latin-1"))
        c, h = os.path.join(d, "out.c"), os.path.join(d, "out.h")
        p = subprocess.run([GEN, c, h] + paths, capture_output=True, text=True, timeout=60)
        out = ""
        if p.returncode == 0:
            with open(c, encoding="ascii") as f:
                out = f.read()
        return p.returncode, p.stderr.replace(d + "/", ""), out


def after(section, line, text=NUMBERS):
    """text with line added right after the header of [section]."""
    head = "\n[%s]\n" % section
    assert head in text, section
    return text.replace(head, head + line + "\n", 1)


def line_of(text, needle):
    return text[:text.index(needle)].count("\n") + 1


def vocab(c_text):
    """The vocabulary as generated: [(word, roles text, number, unit)]."""
    return [(w, roles, num, unit) for w, unit, roles, num in
            re.findall(r'\t\{"([a-z]+)", \d+, (U_\w+), ([^,]+), ([^,]+)\},', c_text)]


# The lists as they are.
rc, err, out = run()
words = vocab(out)
check(rc == 0 and err == "", "words/ makes its tables", err)
check(len(words) > 600 and [w[0] for w in words] == sorted(w[0] for w in words),
      "the vocabulary is sorted, every word once", "%d words" % len(words))
check(("second", "R_ORD", "2", "U_SECOND") in words, "a word's roles, number and unit merge")
check(("million", "R_CARD", "1000000", "U_MILLION") in words, "a scale: its value and its unit")
check('const char *const words_not_so[4] = {\n\t"only",\n\t"just",' in out,
      "a plain list keeps its order")

# An extension lands in the tables, where the lookup finds it.
rc, err, out = run(numbers=after("product", "nextcloud"), pairs=after("stop", "whereby", PAIRS))
check(rc == 0 and ("nextcloud", "R_PRODUCT", "0", "U_NONE") in vocab(out),
      "a word added to [product] is in the vocabulary", err)
check(rc == 0 and [w[0] for w in vocab(out)] == sorted(w[0] for w in vocab(out)),
      "an added word takes its place in the order")
check(rc == 0 and re.search(r'words_pairs_stop\[\d+\] = \{[^}]*"whereby"', out),
      "a word added to [stop] of pairs.txt is in its list")
rc, err, out = run(numbers=after("approx-pair", "north of above"))
check(rc == 0 and '{"north", "of", NUMLEX_ABOVE},' in out and ("of", "R_WEAKDATE | R_STOP | "
      "R_APPROX2", "0", "U_NONE") in vocab(out), "a pair added: in the pairs, and its second word "
      "ends an approximation", err)
rc, err, out = run(numbers=after("approx-pair", "shy of below"))
check(rc == 0 and ("shy", "0", "0", "U_NONE") not in vocab(out), "a pair's first word is not "
      "looked up (no entry of its own)", err)

# words/ground.txt: each list as written, an extension lands in it.
check(rc == 0 and 'const char *const words_item[5] = {\n\t"fare",\n\t"fares",' in run()[2],
      "a list of ground.txt is made into its array, in its order")
rc, err, out = run(ground=after("party", "pax", GROUND))
check(rc == 0 and re.search(r'words_party\[14\] = \{[^}]*"pax"', out),
      "a word added to [party] of ground.txt is in its list", err)

rc, err, out = run(ground=after("money", "tip", GROUND))
check(rc == 0 and 'words_money[18] = {\n\t"tip",\n\t"amount",' in out,
      "a word added to [money] is in its list", err)
rc, err, out = run(ground=after("not-name", "Mr", GROUND))
check(rc == 0 and 'words_not_names[9] = {\n\t"Mr",\n\t"According",' in out,
      "a capitalized word added to [not-name] is in its list, as written", err)

# words/claims.txt: [abbreviation] is sorted by the build (the program
# searches it by halves), wherever a word is added; the others keep their order.
rc, err, out = run(claims=after("abbreviation", "viz ave", CLAIMS))
m = re.search(r'words_abbreviations\[(\d+)\] = \{([^}]*)\}', out)
abbrevs = re.findall(r'"(\w+)"', m.group(2)) if m else []
check(rc == 0 and "viz" in abbrevs and "ave" in abbrevs and abbrevs == sorted(abbrevs) and
      int(m.group(1)) == len(abbrevs), "words added to [abbreviation] land in order", err)
check('const char *const words_works[18] = {\n\t"analyses",\n\t"analysis",' in run()[2],
      "[work] of claims.txt is made into its array, in its order")
rc, err, out = run(claims=after("assessing", "grade", CLAIMS))
check(rc == 0 and 'words_assessing[8] = {\n\t"grade",\n\t"quality",' in out,
      "a stem added to [assessing] is in its list", err)
rc, err, out = run(claims=after("party", "diners", CLAIMS))
check(rc == 0 and 'words_claims_party[8] = {\n\t"diners",\n\t"people",' in out and
      'words_party[13] = {' in out, "[party] of claims.txt is its own list, apart from ground.txt's",
      err)
rc, err, out = run(claims=after("day-join", "thru", CLAIMS))
check(rc == 1 and 'duplicate "thru" in [day-join]' in err, "a duplicate in [day-join] is refused",
      err)
rc, err, out = run(claims=after("rate-unit", "fortnight", CLAIMS))
check(rc == 0 and 'words_rate_unit[8] = {\n\t"fortnight",\n\t"day",' in out,
      "a unit of 9 letters added to [rate-unit] is in its list", err)
rc, err, out = run(claims=after("weekday-lead", "coming", CLAIMS))
check(rc == 1 and 'duplicate "coming" in [weekday-lead]' in err,
      "a duplicate in [weekday-lead] is refused", err)
rc, err, out = run(claims=after("opening", "welcomes", CLAIMS))
check(rc == 0 and 'words_opening[16] = {\n\t"welcomes",' in out and
      'words_time_join[11] = {\n\t"am",' in out, "a word added to [opening] is in its list", err)

# Each malformed list: refused, with the file, the line and the reason.
CASES = [
    ("a duplicate in a section", after("cardinal", "five 5"),
     PAIRS, 'duplicate "five" in [cardinal] (first at numbers.txt:%d)'
     % (line_of(NUMBERS, "\n[cardinal]\n") + 2)),
    ("a duplicate in a plain list", NUMBERS, after("negation", "not", PAIRS),
     'duplicate "not" in [negation]'),
    ("two numbers for a word", after("cardinal", "second 2"), PAIRS,
     '"second" has a number in [cardinal] already'),
    ("a word twice in [unit]", after("unit", "hours minute"), PAIRS,
     'duplicate "hours" in [unit]'),
    ("an unknown section", NUMBERS + "[cardinals]\n", PAIRS, "unknown section [cardinals]"),
    ("a section twice", NUMBERS + "[street]\nalley\n", PAIRS, "section [street] again"),
    ("a missing section", re.sub(r"\[street\]\n[^\[]*", "", NUMBERS), PAIRS,
     "no section [street] in numbers.txt"),
    ("an empty list", NUMBERS, PAIRS.replace("only just merely simply", ""),
     "section [not-so] of pairs.txt is empty"),
    ("an unknown unit", after("unit", "furlong furlong"), PAIRS, 'unknown unit "furlong"'),
    ("no number", after("cardinal", "googol"), PAIRS, '"googol" in [cardinal]: a line is one word and its number'),
    ("not a number", after("cardinal", "googol lots"), PAIRS, '"lots" is not a whole number'),
    ("a fraction", after("cardinal", "googol 1.5"), PAIRS, '"1.5" is not a whole number'),
    ("a third field", after("cardinal", "googol 100 200"), PAIRS, "takes one word and its number"),
    ("a month out of range", after("month", "smarch 13"), PAIRS, "13 is outside 1..12"),
    ("a capital", after("stop", "Hence"), PAIRS, '"Hence" in [stop]: lowercase letters a-z only'),
    ("a digit", after("product", "gpt4"), PAIRS, '"gpt4" in [product]: lowercase letters'),
    ("a byte past ASCII", after("stop", "na\xefve"), PAIRS, "a byte other than printable ASCII"),
    ("a word too long", after("stop", "a" * 17), PAIRS, "longer than 16 letters"),
    ("a glued unit too long", after("glued-unit", "Gigabit"), PAIRS, "",),
    ("a glued unit of eight", after("glued-unit", "Gigabits"), PAIRS, "longer than 7 letters"),
    ("a function word of four letters", NUMBERS, after("function-word", "with", PAIRS),
     '"with" in [function-word]: longer than 3 letters'),
    ("a pair without its bound", after("approx-pair", "north of"), PAIRS,
     '"north" in [approx-pair]: a line is two words and a bound'),
    ("a pair's unknown bound", after("approx-pair", "north of over"), PAIRS,
     'the bound is above, below or none, not "over"'),
    ("a pair twice", after("approx-pair", "at least below"), PAIRS,
     'duplicate "at least" in [approx-pair]'),
    ("a trigger of two letters", after("cardinal", "ii 2"), PAIRS,
     "needs three letters or more"),
    ("a word before any section", "stray\n" + NUMBERS, PAIRS, '"stray" before any section'),
    ("a section's line with more on it", NUMBERS.replace("[street]", "[street] ave"), PAIRS,
     '"[name]" alone on its line'),
    ("an unknown list", NUMBERS, PAIRS, "unknown list", (("extra.txt", "[stop]\nx\n"),)),
    ("a line too long", after("stop", "ab " * 400), PAIRS, "line longer than 1024 bytes"),
    ("a duplicate in ground.txt", NUMBERS, PAIRS, 'duplicate "fare" in [item] (first at '
     'ground.txt:%d)' % (line_of(GROUND, "\n[item]\n") + 2), None, after("item", "fare", GROUND)),
    ("a section of ground.txt missing", NUMBERS, PAIRS, "no section [end] in ground.txt", None,
     re.sub(r"\[end\]\n[^\[]*", "", GROUND)),
    ("a section of ground.txt empty", NUMBERS, PAIRS, "section [start] of ground.txt is empty",
     None, GROUND.replace("begin begins from start starts", "")),
    ("a capital in ground.txt", NUMBERS, PAIRS, '"Total" in [sum]: lowercase letters a-z only',
     None, after("sum", "Total", GROUND)),
    ("a not-name in lowercase", NUMBERS, PAIRS, '"the" in [not-name]: a capital A-Z and '
     'lowercase letters a-z only', None, after("not-name", "the", GROUND)),
    ("a not-name in capitals", NUMBERS, PAIRS, '"THE" in [not-name]: a capital', None,
     after("not-name", "THE", GROUND)),
    ("a not-name of one letter", NUMBERS, PAIRS, '"A" in [not-name]: shorter than 2 letters',
     None, after("not-name", "A", GROUND)),
    ("a section of another list", NUMBERS, PAIRS, "unknown section [cardinal] in ground.txt",
     None, GROUND + "[cardinal]\nfive 5\n"),
    ("a duplicate in claims.txt", NUMBERS, PAIRS, 'duplicate "dr" in [abbreviation]', None,
     GROUND, after("abbreviation", "dr", CLAIMS)),
    ("an abbreviation of one letter", NUMBERS, PAIRS,
     '"x" in [abbreviation]: shorter than 2 letters', None, GROUND,
     after("abbreviation", "x", CLAIMS)),
    ("an abbreviation the search cannot see", NUMBERS, PAIRS,
     '"abbreviationwxyz" in [abbreviation]: longer than 15 letters', None, GROUND,
     after("abbreviation", "abbreviationwxyz", CLAIMS)),
    ("a work the reader cannot see", NUMBERS, PAIRS, '"monographs" in [work]: longer than 9 '
     'letters', None, GROUND, after("work", "monographs", CLAIMS)),
    ("a work of nine letters", NUMBERS, PAIRS, "", None, GROUND, after("work", "monograph", CLAIMS)),
    ("a rate's unit the reader cannot see", NUMBERS, PAIRS, '"semiannually" in [rate-unit]: '
     'longer than 11 letters', None, GROUND, after("rate-unit", "semiannually", CLAIMS)),
    ("a filler the reader cannot see", NUMBERS, PAIRS, '"incontrovertibly" in [count-filler]: '
     'longer than 15 letters', None, GROUND, after("count-filler", "incontrovertibly", CLAIMS)),
    ("a section of claims.txt missing", NUMBERS, PAIRS, "no section [received] in claims.txt",
     None, GROUND, re.sub(r"\[received\]\n[^\[]*", "", CLAIMS)),
    ("a word twice in [spent]", NUMBERS, PAIRS, 'duplicate "spent" in [spent]', None, GROUND,
     after("spent", "spent", CLAIMS)),
]
for case in CASES:
    what, numbers, pairs, want = case[:4]
    extra = case[4] if len(case) > 4 else None
    ground = case[5] if len(case) > 5 else GROUND
    claims = case[6] if len(case) > 6 else CLAIMS
    rc, err, _ = run(numbers, pairs, extra, ground, claims)
    if not want:  # (a control: seven letters are allowed)
        check(rc == 0, "refused only past the limit: " + what, err)
        continue
    where = r"words: " if "no section" in want else r"words: \w+\.txt:\d+: "
    check(rc == 1 and want in err and re.match(where, err),
          "refused with its file and line: " + what, "status %d: %s" % (rc, err))

finish()
