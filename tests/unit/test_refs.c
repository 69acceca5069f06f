// SPDX-License-Identifier: MIT
/* Bibliography entries: the recognizer's fields, the plausibility checks, the keys. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "ground/refs.h"
#include "ground/refs_int.h"
#include "match/rules.h"
#include "test.h"

static struct ruleset *rs;
static struct refs *refs;

static void setup(void)
{
	struct diag d = {""};

	if (refs)
		return;
	rs = ruleset_new();
	CHECK_EQ(ruleset_add_builtin_yaml(rs, &d), 0);
	CHECK_EQ(ruleset_finish(rs, &d), 0);
	CHECK_EQ(refs_new(rs, &refs, &d), 0);
}

/* Parses line with today = December 2026; the first entry's field f as a string. */
static struct ref_entry one;
static char field_buf[512];
static const char *line_text;

static size_t parse(const char *line)
{
	struct ref_entry out[REFS_PER_LINE];
	size_t k;

	setup();
	line_text = line;
	k = refs_parse(refs, line, strlen(line), 202612, out, REFS_PER_LINE);
	memset(&one, 0, sizeof(one));
	if (k)
		one = out[0];
	return k;
}

static const char *field(struct ref_span sp)
{
	snprintf(field_buf, sizeof(field_buf), "%.*s", (int)sp.len, line_text + one.from + sp.off);
	return field_buf;
}

static const char *entry(void)
{
	snprintf(field_buf, sizeof(field_buf), "%.*s", (int)(one.to - one.from), line_text + one.from);
	return field_buf;
}

/* Today's month without the time zone file: gmtime_r()'s, to the second (issue 35). */
TEST(refs_month_of_is_gmtime)
{
	long long t, bad = 0, seen = 0;
	unsigned long long x = 88172645463325252ull;
	struct tm tm;
	int i;

	for (i = 0; i < 200000; i++) {
		time_t tt;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* any second of 1901-2446, or one near a month's turn in 2000-2108 */
		t = i % 2 ? (long long)(x % 17179869184ull) - 2147483648ll
			  : 946684800ll + (long long)(i / 2 % 1300) * 2629746ll -
				    (long long)(x % 3) * 43200;
		tt = (time_t)t;
		if (!gmtime_r(&tt, &tm))
			continue;
		seen++;
		bad += refs_month_of(t) !=
		       (unsigned)(tm.tm_year + 1900) * 100 + (unsigned)(tm.tm_mon + 1);
	}
	/* The seconds on either side of a month's turn. */
	for (t = 946684800ll; t < 4102444800ll; t += 86400) {
		time_t tt = (time_t)t, before = (time_t)(t - 1);
		struct tm b;

		if (!gmtime_r(&tt, &tm) || !gmtime_r(&before, &b))
			continue;
		seen++;
		bad += refs_month_of(t) != (unsigned)(tm.tm_year + 1900) * 100 + (unsigned)(tm.tm_mon + 1);
		bad += refs_month_of(t - 1) != (unsigned)(b.tm_year + 1900) * 100 + (unsigned)(b.tm_mon + 1);
	}
	CHECK(seen > 200000);
	CHECK_EQ(bad, 0);
	CHECK_EQ(refs_month_of(0), 197001);
	CHECK_EQ(refs_month_of(-1), 196912);
	CHECK_EQ(refs_month_of(951782400), 200002); /* 2000-02-29 00:00 */
	CHECK_EQ(refs_month_of(951868800), 200003);
}

TEST(refs_styles)
{
	/* APA */
	CHECK_EQ(parse("Smith, J. A., & Lee, K. (2019). Deep learning for feline health. "
		       "Journal of Veterinary Informatics, 12(3), 45-67. https://doi.org/10.1234/jvi.2019.045"), 1);
	CHECK_STR(ref_style_name(one.style), "author-date");
	CHECK_STR(field(one.authors), "Smith, J. A., & Lee, K.");
	CHECK_STR(field(one.title), "Deep learning for feline health");
	CHECK_STR(field(one.venue), "Journal of Veterinary Informatics, 12(3), 45-67");
	CHECK_STR(field(one.doi), "10.1234/jvi.2019.045");
	CHECK_EQ(one.year, 2019);
	CHECK_EQ(one.problems, 0);
	/* MLA */
	CHECK_EQ(parse("Smith, John. \"The Ethics of Data Mining.\" Journal of Applied Ethics, vol. 12, "
		       "no. 3, 2018, pp. 45-67."), 1);
	CHECK_STR(ref_style_name(one.style), "quoted-title");
	CHECK_STR(field(one.authors), "Smith, John.");
	CHECK_STR(field(one.title), "The Ethics of Data Mining");
	CHECK_STR(field(one.venue), "Journal of Applied Ethics, vol. 12, no. 3");
	CHECK_EQ(one.year, 2018);
	/* IEEE, numbered: the marker is not part of the entry */
	CHECK_EQ(parse("[4] A. Vaswani and N. Shazeer, \xe2\x80\x9c" "Attention is all you need,\xe2\x80\x9d "
		       "in Proc. NeurIPS, 2017, pp. 5998-6008."), 1);
	CHECK_STR(ref_style_name(one.style), "quoted-title");
	CHECK_STR(field(one.title), "Attention is all you need");
	CHECK_STR(field(one.authors), "A. Vaswani and N. Shazeer");
	CHECK_STR(field(one.venue), "Proc. NeurIPS");
	CHECK_EQ(one.year, 2017);
	CHECK(strncmp(entry(), "A. Vaswani", 10) == 0);
	/* Chicago, a book in emphasis */
	CHECK_EQ(parse("Kahneman, Daniel. *Thinking, Fast and Slow*. New York: Farrar, Straus and Giroux, 2011."), 1);
	CHECK_STR(field(one.title), "Thinking, Fast and Slow");
	CHECK_EQ(one.year, 2011);
	/* Harvard */
	CHECK_EQ(parse("Brown, A. and Green, T. 2015. Urban heat islands revisited. Climate Research, 40(2), pp. 100-115."), 1);
	CHECK_STR(ref_style_name(one.style), "author-date");
	CHECK_STR(field(one.authors), "Brown, A. and Green, T");
	CHECK_STR(field(one.title), "Urban heat islands revisited");
	CHECK_STR(field(one.venue), "Climate Research, 40(2), pp. 100-115");
	/* Vancouver */
	CHECK_EQ(parse("Halpern SD, Ubel PA, Caplan AL. Solid-organ transplantation in HIV-infected patients. "
		       "N Engl J Med. 2002;347(4):284-7."), 1);
	CHECK_STR(ref_style_name(one.style), "vancouver");
	CHECK_STR(field(one.authors), "Halpern SD, Ubel PA, Caplan AL");
	CHECK_STR(field(one.title), "Solid-organ transplantation in HIV-infected patients");
	CHECK_STR(field(one.venue), "N Engl J Med");
	CHECK_EQ(one.year, 2002);
	/* BibTeX on one line */
	CHECK_EQ(parse("@inproceedings{he2016, title={Deep Residual Learning for Image Recognition}, "
		       "author={He, Kaiming and Zhang, Xiangyu}, booktitle={CVPR}, year={2016}, eprint={1512.03385}, "
		       "archivePrefix={arXiv}}"), 1);
	CHECK_STR(ref_style_name(one.style), "bibtex");
	CHECK_STR(field(one.title), "Deep Residual Learning for Image Recognition");
	CHECK_STR(field(one.authors), "He, Kaiming and Zhang, Xiangyu");
	CHECK_STR(field(one.venue), "CVPR");
	CHECK_EQ(one.year, 2016);
	/* Retrieved from */
	CHECK_EQ(parse("World Health Organization. (2021). Obesity and overweight. Retrieved from "
		       "https://www.who.int/news-room/fact-sheets/detail/obesity"), 1);
	CHECK_STR(ref_style_name(one.style), "web");
	CHECK_STR(field(one.url), "https://www.who.int/news-room/fact-sheets/detail/obesity");
	CHECK_STR(field(one.title), "Obesity and overweight");
	/* a question with a subtitle is one title; a question before the venue ends it */
	CHECK_EQ(parse("T. Berger and C. Chen (2018). Drivers of disruption? Estimating the Uber effect. "
		       "European Economic Review."), 1);
	CHECK_STR(field(one.title), "Drivers of disruption? Estimating the Uber effect");
	CHECK_STR(field(one.venue), "European Economic Review");
	CHECK_EQ(parse("M. Parker Pearson (2009). Who was buried at Stonehenge?. Antiquity."), 1);
	CHECK_STR(field(one.title), "Who was buried at Stonehenge?");
	CHECK_STR(field(one.venue), "Antiquity");
	/* a list item that is a title, and one with its author */
	CHECK_EQ(parse("1. Distributed Systems: Concepts and Design"), 1);
	CHECK_STR(ref_style_name(one.style), "title-list");
	CHECK(one.strong);
	CHECK_EQ(parse("2. Galactic Dynamics"), 1);
	CHECK(!one.strong); /* maybe a title, maybe a name: the list decides */
	CHECK_EQ(parse("3. \"The Alchemist\" by Paulo Coelho"), 1);
	CHECK_STR(ref_style_name(one.style), "quoted-title");
	CHECK_STR(field(one.authors), "Paulo Coelho");
}

TEST(refs_not_entries)
{
	CHECK_EQ(parse("1. Install the dependencies with npm install."), 0);
	CHECK_EQ(parse("1. **Speed**: the cache makes reads faster."), 0);
	CHECK_EQ(parse("Sales grew in the year (2020) by a wide margin, the report says."), 0);
	CHECK_EQ(parse("1. The server restarts. Then it reads the configuration again."), 0);
	CHECK_EQ(parse("- Squats: 3 sets of 12 repetitions"), 1);
	CHECK(!one.strong);
	CHECK_EQ(parse("Press \"Shift + Alt + F\" on Windows, 2021."), 0);
	CHECK_EQ(parse("Version 10.2 of the tool fixed it, and 10.5/2 is a ratio."), 0);
	CHECK_EQ(parse(""), 0);
	CHECK_EQ(parse("   "), 0);
}

TEST(refs_item_starts)
{
	setup();
	CHECK_EQ(refs_item_start("1. Introduction to Topology", 27, false), 1);
	CHECK_EQ(refs_item_start("  12) Distributed Systems", 25, false), 1);
	CHECK_EQ(refs_item_start("- \"Random graphs\"", 18, false), 2);
	CHECK_EQ(refs_item_start("\xe2\x80\xa2 Graph Theory", 16, false), 2);
	CHECK_EQ(refs_item_start("* **Graph Theory** by Bondy", 27, false), 2);
	CHECK_EQ(refs_item_start("1. Install the dependencies", 27, false), 0);
	CHECK_EQ(refs_item_start("1. Install the dependencies", 27, true), 1);
	CHECK_EQ(refs_item_start("1.Introduction to Topology", 26, false), 0);
	CHECK_EQ(refs_item_start("1234. Introduction to Topology", 30, false), 0);
	CHECK_EQ(refs_item_start("Introduction to Topology", 24, false), 0);
	CHECK_EQ(refs_item_start("- **Cons:** If Oura", 19, false), 0);
	CHECK_EQ(refs_item_start("", 0, true), 0);
	CHECK(refs_item_maybe(refs, "1. Distributed Systems: Concepts and Design", 43));
	CHECK(refs_item_maybe(refs, "1. Lee, K. (2021). Some title. Venue.", 37));
	CHECK(refs_item_maybe(refs, "2. Halpern SD. Title. N Engl J Med. 2002;347(4):284-7.", 54));
	CHECK(!refs_item_maybe(refs, "1. Phoenix and Spring Boot take different approaches here, and neither is better.", 82));
	CHECK(!refs_item_maybe(refs, "1. **Speed**: the cache makes reads faster.", 43));
	/* "[1] " is a reference's number whatever follows it (IEEE: "A. Name, ..."). */
	CHECK_EQ(refs_item_start("[1] A. Vaswani, \"Attention\"", 27, false), 1);
	CHECK_EQ(refs_item_start("   [12]\tK. He", 14, false), 1);
	CHECK_EQ(refs_item_start("[1234] K. He", 12, false), 0);
	CHECK_EQ(refs_item_start("[] K. He", 8, false), 0);
	CHECK_EQ(refs_item_start("[1]K. He", 8, false), 0);
	CHECK_EQ(refs_item_start("[1]", 3, false), 0);
	/* A number may stand second in a title: "The 4-Hour Workweek", "The 7 Habits". */
	CHECK_EQ(refs_item_start("1. The 4-Hour Workweek", 22, false), 1);
	CHECK_EQ(refs_item_start("2. The 7 Habits of Highly Effective People", 42, false), 1);
	CHECK_EQ(refs_item_start("1. The 1234 rules", 17, false), 0);
	CHECK_EQ(refs_item_start("1. The 4-hour rule", 18, false), 0);
	CHECK_EQ(refs_item_start("1. The 4", 8, false), 0);
	{
		const char *ieee = "[3] A. Vaswani, N. Shazeer, \"Attention is all you need,\" in Proc. NeurIPS, 2017.";

		CHECK(refs_item_maybe(refs, ieee, strlen(ieee)));
	}
}

/* A line and what a test of it should say. */
struct line_case {
	const char *line;
	bool yes;
};

/* Checks fn on each line; name is fn's, for the message. */
static void check_lines(bool (*fn)(const char *, size_t), const char *name,
			const struct line_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fn(cases[i].line, strlen(cases[i].line)) != cases[i].yes) {
			char m[160];

			snprintf(m, sizeof(m), "%s(\"%s\") is not %d", name, cases[i].line, cases[i].yes);
			test_fail(__FILE__, __LINE__, m);
		}
}

/* The forms Hyperscan leaves to the recognizer, exactly as the regexes they replace. */
TEST(refs_line_cues)
{
	static const struct line_case cases[] = {
		/* \[\d{1,3}\][ \t] anywhere */
		{"See [1] A. Vaswani", true}, {"[123]\tx", true}, {"[1234] x", false}, {"[1]x", false},
		{"a [] b", false}, {"ends in [1]", false},
		/* (?:[-*+]|•)[ \t]{1,4}(?:"|“) */
		{"- \"Random graphs\"", true}, {"x *\t\"T\"", true}, {"+    \"T\"", true},
		{"-     \"five blanks\"", false}, {"\xe2\x80\xa2 \xe2\x80\x9cGraph\xe2\x80\x9d", true},
		{"- Random", false}, {"-\"no blank\"", false},
		/* \.[ \t](?:1[5-9]|20)\d\d[.;] */
		{"Green, T. 2015. Urban", true}, {"Med. 2002;347", true}, {"In 1499. No", false},
		{"x. 1500.", true}, {"x. 2099;", true}, {"x. 2100.", false}, {"x. 2015", false},
		{"x. 2015,", false}, {"x.  2015.", false},
		/* [.,](?:"|”)[ \t] */
		{"Mining.\" Journal", true}, {"need,\" in Proc", true}, {"need,\"in", false},
		{"Title.\xe2\x80\x9d Journal", true}, {"Title,\xe2\x80\x9d\tin", true},
		{"Title.\xe2\x80\x9c Journal", false}, {"say \"hi\" now", false},
		/* \*\.[ \t] */
		{"*Thinking, Fast and Slow*. New York", true}, {"*.x", false},
		/* \((?:1[5-9]|20)\d\d[a-z]?[),] */
		{"Lee, K. (2019). Title", true}, {"(2019a)", true}, {"(2019, May 3)", true},
		{"(1500)", true}, {"(1499)", false}, {"(2100)", false}, {"(2019", false},
		{"(2019a", false}, {"(2019ab)", false}, {"(20195)", false}, {"(2019A)", false},
		{"", false}, {"plain prose, with a period. And another.", false},
	};

	check_lines(refs_line_cue, "refs_line_cue", cases, sizeof(cases) / sizeof(cases[0]));
}

/* Authors and a year in parentheses at a line's start, with no sentence end beside the year. */
TEST(refs_paren_years)
{
	static const struct line_case cases[] = {
		{"Smith J (2020) Deep learning for feline health. J Vet Inf 12:45-67.", true},
		{"Smith, J. (2020) Deep learning", true},
		{"World Health Organization (2020) Global report", true},
		{"Smith and Lee (2019) Deep learning", true},
		{"Smith & Lee (2019) Deep learning", true},
		{"Smith et al (2019) Deep learning", true},
		{"OECD (2021), Education at a Glance", true},
		{"M\xc3\xbc" "ller K (2018) \xc3\x9c" "ber die Modellierung", true},
		/* a cue, not a verdict: refs_parse() reads this one and finds no entry */
		{"Vanguard (2018) reported strong growth.", true},
		/* prose, and names without a year in parentheses */
		{"The fund grew (2019) by a wide margin.", false},
		{"Smith J wrote it in 2020. Then more.", false},
		{"Smith J (1499) Deep learning", false},
		{"Smith J", false}, {"", false},
		/* the first word is longer than a name */
		{"Internationalisations (2019) Deep learning", false},
	};

	check_lines(refs_paren_year, "refs_paren_year", cases, sizeof(cases) / sizeof(cases[0]));
}

TEST(refs_ids_in_prose)
{
	struct ref_entry out[REFS_PER_LINE];
	const char *s = "See arXiv:1706.03762v5, doi:10.1145/3290605.3300300 and arXiv:hep-th/9901001.";

	setup();
	CHECK_EQ(refs_parse(refs, s, strlen(s), 202612, out, REFS_PER_LINE), 3);
	CHECK_STR(ref_style_name(out[0].style), "id");
	CHECK_EQ(out[0].to - out[0].from, strlen("1706.03762v5"));
	CHECK_EQ(out[0].arxiv.len, strlen("1706.03762v5"));
	CHECK_EQ(out[1].doi.len, strlen("10.1145/3290605.3300300"));
	CHECK_EQ(out[2].arxiv.len, strlen("hep-th/9901001"));
	CHECK_EQ(out[0].problems | out[1].problems | out[2].problems, 0);
	/* at most max */
	CHECK_EQ(refs_parse(refs, s, strlen(s), 202612, out, 1), 1);
}

static unsigned problems_of(const char *line)
{
	CHECK(parse(line) >= 1);
	return one.problems;
}

TEST(refs_plausibility)
{
	/* arXiv: month 13, before April 2007, after today, 4 digits after 2015, 5 before */
	CHECK_EQ(problems_of("arXiv:2113.01234"), 1u << REF_ARXIV_MONTH);
	CHECK_EQ(problems_of("arXiv:0612.1234"), 1u << REF_ARXIV_MONTH);
	CHECK_EQ(problems_of("arXiv:2701.01234"), 1u << REF_ARXIV_FUTURE);
	CHECK_EQ(problems_of("arXiv:2612.01234"), 0);
	CHECK_EQ(problems_of("arXiv:1706.0376"), 1u << REF_ARXIV_WIDTH);
	CHECK_EQ(problems_of("arXiv:1412.12345"), 1u << REF_ARXIV_WIDTH);
	CHECK_EQ(problems_of("arXiv:1412.1234"), 0);
	CHECK_EQ(problems_of("arXiv:hep-th/0801001"), 1u << REF_ARXIV_MONTH); /* old ids ended in 2007 */
	CHECK_EQ(problems_of("arXiv:hep-th/9113001"), 1u << REF_ARXIV_MONTH);
	/* DOI: a prefix of 10. and 4-9 digits, when "doi" says it is one */
	CHECK_EQ(problems_of("doi: 10.123/abc"), 1u << REF_DOI_PREFIX);
	CHECK_EQ(problems_of("doi:11.1234/abc"), 1u << REF_DOI_PREFIX);
	CHECK_EQ(problems_of("https://doi.org/10.1038/nature14539"), 0);
	/* ISBN check digits: 10 (mod 11, X) and 13 (mod 10) */
	CHECK_EQ(problems_of("Knuth, D. (1997). The art of computer programming. Addison-Wesley. ISBN 0-201-89683-4."), 0);
	CHECK_EQ(problems_of("Knuth, D. (1997). The art of computer programming. Addison-Wesley. ISBN 0-201-89683-5."),
		 1u << REF_ISBN_CHECKSUM);
	CHECK_EQ(problems_of("Hunt, A. (1999). The pragmatic programmer. Addison-Wesley. ISBN-13: 978-0-201-61622-4."), 0);
	CHECK_EQ(problems_of("Hunt, A. (1999). The pragmatic programmer. Addison-Wesley. ISBN-13: 978-0-201-61622-3."),
		 1u << REF_ISBN_CHECKSUM);
	CHECK_EQ(problems_of("Hunt, A. (1999). The pragmatic programmer. Addison-Wesley. ISBN 0-8044-2957-X."), 0);
	/* a year after this one; a placeholder host */
	CHECK_EQ(problems_of("Lee, K. (2031). Quantum advantage in logistics. Nature, 12, 1-9."), 1u << REF_YEAR_FUTURE);
	CHECK_EQ(problems_of("Lee, K. (2021). Quantum advantage in logistics. Retrieved from https://www.example.com/q"),
		 1u << REF_PLACEHOLDER_HOST);
	CHECK_EQ(problems_of("Lee, K. (2021). Quantum advantage in logistics. Retrieved from https://docs.site.test/q"),
		 1u << REF_PLACEHOLDER_HOST);
	CHECK_EQ(problems_of("Lee, K. (2021). Quantum advantage in logistics. Retrieved from https://notexample.com/q"), 0);
}

/* Appends a key to b past its "ref\x1f", and a "|". */
static void collect(struct buf *b, const struct buf *key)
{
	buf_add(b, key->data + 4, key->len - 4);
	buf_addc(b, '|');
}

/* The keys of the entry one, in the order refs_key_next() gives them. */
static void entry_keys(struct buf *out)
{
	struct buf key = {0};
	unsigned at = 0;
	int rc;

	while ((rc = refs_key_next(refs, &one, line_text + one.from, &at, &key)) > 0)
		collect(out, &key);
	CHECK_EQ(rc, 0);
	CHECK_EQ(refs_key_next(refs, &one, line_text + one.from, &at, &key), 0);
	buf_addc(out, '\0');
	buf_free(&key);
}

/* The keys of the parts of a line, in the order refs_segment_key_next() gives them. */
static void segment_keys(const char *line, struct buf *out)
{
	struct refs_segments parts = {0};
	struct buf key = {0};
	int rc;

	out->len = 0;
	while ((rc = refs_segment_key_next(refs, line, strlen(line), &parts, &key)) > 0)
		collect(out, &key);
	CHECK_EQ(rc, 0);
	CHECK_EQ(refs_segment_key_next(refs, line, strlen(line), &parts, &key), 0);
	buf_addc(out, '\0');
	buf_free(&key);
}

TEST(refs_keys_normalize)
{
	struct buf k = {0};

	CHECK_EQ(parse("Müller, J. (2020). The Design of Résumé Parsers: A Survey. doi:10.1000/ABC.1 arXiv:2001.01234v3"), 1);
	entry_keys(&k);
	CHECK_STR(k.data, "t:design resume parsers survey|d:10.1000/abc.1|a:2001.01234|");
	/* no title: the ids alone */
	k.len = 0;
	CHECK_EQ(parse("See doi:10.1000/XY.2 for the data."), 1);
	entry_keys(&k);
	CHECK_STR(k.data, "d:10.1000/xy.2|");
	k.len = 0;
	{
		const char *t = "\xe2\x80\x9cTHE design, of RESUME parsers\xe2\x80\x9d: a survey!";

		CHECK_EQ(refs_title_key(refs, t, strlen(t), &k), 0);
	}
	buf_addc(&k, '\0');
	CHECK_STR(k.data, "design resume parsers survey");
	buf_free(&k);
}

/*
 * A line of tool output: each part of two words or more, then the value of
 * a part "Label: value"; one word, or a label of more than eight words,
 * grounds nothing.
 */
TEST(refs_segment_keys)
{
	struct buf k = {0};

	segment_keys("Bike shops in Lyon: Rhone Cycles | Velo Garage - Lyon", &k);
	CHECK_STR(k.data, "t:bike shops lyon rhone cycles|t:rhone cycles|t:velo garage|");
	segment_keys("\"Deep Residual Learning\" (He et al.). Results: none", &k);
	CHECK_STR(k.data, "t:deep residual learning|t:he et al|t:results none|");
	segment_keys("one two three four five six seven eight nine: Big Title", &k);
	CHECK_STR(k.data, "t:one two three four five six seven eight nine big title|");
	segment_keys("Lyon", &k);
	CHECK_STR(k.data, "");
	segment_keys("", &k);
	CHECK_STR(k.data, "");
	buf_free(&k);
}

/* ---- the keys' normalizer against the one it replaced (issue 35) ---- */

static const char old_fold[] = "AAAAAAACEEEEIIIIDNOOOOO OUUUUYTsaaaaaaaceeeeiiiidnooooo ouuuuyty"
			       "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjJjKkkLlLlLlL"
			       "lLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

/* refs_title_key() as of ed2c9cd, a byte at a time: what the faster one must give. */
static int old_title_key(const struct refs *r, const char *t, size_t n, struct buf *out)
{
	size_t i = 0, word = out->len;
	int err = 0;

	while (i < n && err == 0) {
		unsigned char c = (unsigned char)t[i];
		char a = 0;
		size_t len = 1;

		if (c < 0x80) {
			a = is_alnum((char)c) ? lower((char)c) : 0;
		} else if ((c == 0xC3 || c == 0xC4 || c == 0xC5) && i + 1 < n &&
			   ((unsigned char)t[i + 1] & 0xC0) == 0x80) {
			unsigned cp = ((c & 0x1Fu) << 6) | ((unsigned char)t[i + 1] & 0x3Fu);

			len = 2;
			a = cp >= 0xC0 && cp - 0xC0 < sizeof(old_fold) - 1 ? lower(old_fold[cp - 0xC0]) : 0;
			if (a == ' ')
				a = 0;
		} else {
			size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

			for (len = 1; len < want && i + len < n && ((unsigned char)t[i + len] & 0xC0) == 0x80; len++)
				;
			if (!(c == 0xE2 && i + 1 < n && ((unsigned char)t[i + 1] & 0xFC) == 0x80)) {
				err = buf_add(out, t + i, len);
				i += len;
				continue;
			}
		}
		i += len;
		if (a) {
			err = buf_addc(out, a);
			continue;
		}
		if (r && out->len > word && in_words(&r->stop, out->data + word, out->len - word))
			out->len = word;
		if (out->len > word)
			err = buf_addc(out, ' ');
		word = out->len;
	}
	if (err == 0 && r && out->len > word && in_words(&r->stop, out->data + word, out->len - word))
		out->len = word;
	while (out->len > 0 && out->data[out->len - 1] == ' ')
		out->len--;
	return err;
}

static uint64_t gen_state;

static unsigned gen_next(unsigned bound)
{
	gen_state ^= gen_state << 13;
	gen_state ^= gen_state >> 7;
	gen_state ^= gen_state << 17;
	return (unsigned)(gen_state % bound);
}

/* A line of tool output made of pieces a title or a search result holds, and the bytes that trouble a normalizer. */
static void gen_line(struct buf *b)
{
	static const char *const pieces[] = {
		"The", "the", "THE", "of", "Of", "and", "a", "A", "an", "in", "on", "to", "for", "with",
		"from", "into", "via", "vs", "is", "be", "this", "that", "their", "between", "without",
		"towards", "nor", "but", "Design", "résumé", "Résumé", "Müller", "ŁÓDŹ", "Straße", "naïve",
		"Ærø", "×", "÷", "Ā", "ſ", "Deep", "Residual", "Learning", "42", "2019", "v2", "x86_64",
		"Dora's", "O'Brien", "“", "”", "—", "–", "…", "•", "中文", "😀", "\xc3", "\x80", "\xe2\x80",
		"\xe2", "\xf0\x9f", "\xc5\xbf", "\xc4", ". ", ", ", ": ", "; ", "!", "?", "\"", "'", " - ",
		" | ", "|", "-", "[", "]", "(", ")", "\\n", "\\t", "\\", "\t", "  ", " ", " ", " ", "://",
		"Rhone", "Cycles", "Bike", "shops", "Lyon", "Results", "none", "e.g.", "U.S.", "3.5",
	};
	size_t k = gen_next(24), i;

	b->len = 0;
	for (i = 0; i < k; i++) {
		unsigned p = gen_next(ARRAY_SIZE(pieces) + 4);

		if (p >= ARRAY_SIZE(pieces)) {
			/* a long word, over the longest stop word and the 32 bytes in_words() reads */
			size_t w = 5 + gen_next(40), j;

			for (j = 0; j < w; j++)
				buf_addc(b, (char)((gen_next(2) ? 'a' : 'A') + gen_next(26)));
		} else {
			buf_add(b, pieces[p], strlen(pieces[p]));
		}
		if (gen_next(3))
			buf_addc(b, ' ');
	}
}

/*
 * On many generated lines, with and without stop words and after a key
 * already in the buffer (it appends, and trims a blank it ends with), the
 * normalizer gives the bytes the one it replaced gave.
 */
TEST(refs_title_key_differential)
{
	struct buf line = {0}, want = {0}, got = {0};
	unsigned round, diffs = 0;

	setup();
	gen_state = 0x9E3779B97F4A7C15ull;
	for (round = 0; round < 40000; round++) {
		const struct refs *r = round % 5 == 4 ? NULL : refs;
		const char *before = round % 7 == 0 ? "ref\x1ft:" : round % 7 == 1 ? "keep " : "";
		size_t cut;

		gen_line(&line);
		/* and every length of some lines: a multi-byte letter cut short */
		cut = round % 3 == 0 && line.len ? gen_next((unsigned)line.len + 1) : line.len;
		want.len = got.len = 0;
		buf_add(&want, before, strlen(before));
		buf_add(&got, before, strlen(before));
		CHECK_EQ(old_title_key(r, line.data ? line.data : "", cut, &want), 0);
		CHECK_EQ(refs_title_key(r, line.data ? line.data : "", cut, &got), 0);
		if (want.len != got.len || (want.len && memcmp(want.data, got.data, want.len) != 0)) {
			if (diffs++ < 3)
				fprintf(stderr, "line \"%.*s\": want \"%.*s\", got \"%.*s\"\n", (int)cut,
					line.data, (int)want.len, want.data, (int)got.len, got.data);
		}
	}
	CHECK_EQ(diffs, 0);
	buf_free(&line);
	buf_free(&want);
	buf_free(&got);
}

/* refs_segment_key_next()'s parts as of ed2c9cd: the break a byte at a time, each key normalized alone. */
static size_t old_part_break(const char *s, size_t i, size_t n)
{
	if (s[i] == '"' || s[i] == '\t' || s[i] == '|' || s[i] == '[' || s[i] == ']')
		return 1;
	if (s[i] == '\\' && i + 1 < n && (s[i + 1] == 'n' || s[i + 1] == 't' || s[i + 1] == 'r'))
		return 2;
	if (s[i] == '\'' && !(i > 0 && is_alpha(s[i - 1]) && i + 1 < n && is_alpha(s[i + 1])))
		return 1;
	if ((s[i] == '.' || s[i] == '?' || s[i] == '!') && (i + 1 == n || s[i + 1] == ' '))
		return 1;
	if (s[i] == ' ' && i + 2 < n && (s[i + 1] == '-' || s[i + 1] == '|') && s[i + 2] == ' ')
		return 3;
	if (i + 2 < n && s[i] == (char)0xE2 && s[i + 1] == (char)0x80 &&
	    ((unsigned char)s[i + 2] >= 0x93 && (unsigned char)s[i + 2] <= 0x9D))
		return 3;
	return 0;
}

/* Appends each key of the line's parts as the old code made them, with a "|" after each. */
static void old_segment_keys(const char *line, size_t n, struct buf *out)
{
	struct buf key = {0};
	size_t from = 0, to, brk = 0, i, spaces;

	while (n <= REFS_LINE_MAX && from < n) {
		for (to = from; to < n && !(brk = old_part_break(line, to, n)); to++)
			;
		if (to == n)
			brk = 0;
		key.len = 0;
		buf_add(&key, "ref\x1ft:", 6);
		CHECK_EQ(old_title_key(refs, line + from, to - from, &key), 0);
		if (memchr(key.data + 6, ' ', key.len - 6))
			collect(out, &key);
		for (i = from, spaces = 0; i + 1 < to && !(line[i] == ':' && line[i + 1] == ' '); i++)
			if (line[i] == ' ' && i > from && line[i - 1] != ' ' && ++spaces > 7)
				break;
		if (i + 1 < to && spaces <= 7) {
			key.len = 0;
			buf_add(&key, "ref\x1ft:", 6);
			CHECK_EQ(old_title_key(refs, line + i + 2, to - i - 2, &key), 0);
			if (memchr(key.data + 6, ' ', key.len - 6))
				collect(out, &key);
		}
		from = to + (brk ? brk : 1);
	}
	buf_free(&key);
}

/* The parts' keys of many generated lines, labels and breaks among them, are the old code's. */
TEST(refs_segment_keys_differential)
{
	static const char *const labels[] = {"Bike shops in Lyon: ", "Title: ", "a b c d e f g h: ",
					     "a b c d e f g h i: ", " - ", " | ", "-", "|", ": ", ":"};
	struct buf line = {0}, want = {0}, got = {0};
	unsigned round, diffs = 0;

	setup();
	gen_state = 0xD1B54A32D192ED03ull;
	for (round = 0; round < 20000; round++) {
		size_t j;

		gen_line(&line);
		/* labels and breaks at random places, and lines past 16 bytes' blocks */
		for (j = gen_next(4); j > 0; j--) {
			const char *l = labels[gen_next(ARRAY_SIZE(labels))];
			size_t at = line.len ? gen_next((unsigned)line.len + 1) : 0, k = strlen(l);

			buf_add(&line, l, k);
			memmove(line.data + at + k, line.data + at, line.len - k - at);
			memcpy(line.data + at, l, k);
		}
		want.len = 0;
		old_segment_keys(line.data ? line.data : "", line.len, &want);
		buf_addc(&want, '\0');
		line.len = line.data ? line.len : 0;
		buf_addc(&line, '\0');
		segment_keys(line.data, &got);
		if (strcmp(want.data, got.data) != 0 && diffs++ < 3)
			fprintf(stderr, "line \"%s\":\n want %s\n got  %s\n", line.data, want.data, got.data);
	}
	CHECK_EQ(diffs, 0);
	buf_free(&line);
	buf_free(&want);
	buf_free(&got);
}

TEST(refs_packs_data)
{
	struct ruleset *bad = ruleset_new();
	struct refs *r = NULL;
	struct diag d = {""};
	const char *yaml = "lists:\n  - name: ref.arxiv\n    words: [first=0799]\n";

	CHECK_EQ(ruleset_add_buffer(bad, "p.yaml", yaml, strlen(yaml), &d), 0);
	CHECK_EQ(refs_new(bad, &r, &d), -EINVAL);
	CHECK(strstr(d.msg, "p.yaml:2:5: list \"ref.arxiv\": \"first=0799\"") != NULL);
	ruleset_free(bad);
	refs_free(r);
}
