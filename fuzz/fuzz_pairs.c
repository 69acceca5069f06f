// SPDX-License-Identifier: MIT
/*
 * --pairs records. An input that starts with '{' is JSONL, each line taken
 * the way the program takes it (json_parse, the "claim" and "passage"
 * strings, pairs_judge); any other input is one raw pair, its first byte
 * saying where the rest splits into claim and passage. For every verdict:
 *  - the label is one of the three, and follows the rules the manual gives:
 *    a changed number is does_not_support, else an absence the passage
 *    contradicts (it states what the claim says it lacks) is, else a
 *    contrast whose set-aside words the passage says is, else a negation
 *    the passage does not hold is, else a direction word the passage
 *    reverses is, a claim that is only absences supports,
 *    else all / some (no figure missing) / none of the
 *    checkable items grounded, else coverage 0.80 and 0.50; a name the
 *    passage does not give makes supports partially_supports;
 *  - grounded <= items, negations_held <= negations, names_held <= names,
 *    directions_reversed <= directions,
 *    coverage within [0, 1];
 *  - absences_stated <= absences; an absence's or a contrast's reason
 *    quotes the claim's own words, and the passage sentence quoted
 *    stating the thing is not empty;
 *  - a negation's reason quotes the claim's own words; a reversed
 *    direction's, the claim's word and the quoted passage sentence's; a missing name's
 *    reason names a word of the claim that the passage does not hold as a
 *    word, in any case;
 *  - the quote lies inside the passage, and the passage figure a changed
 *    number is compared with is the passage's own text (a day's hours
 *    then name the day: "9:00-17:00 on Monday"; a figure of another
 *    period the period, "$1.30 in Q4 2020"; a bound its side, "at least
 *    50");
 *  - the reason is a terminated string;
 *  - a verdict depends on its pair alone: the first pair judged again after
 *    the others gets the same verdict.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "claims/policy.h"
#include "common/json.h"
#include "eval/pairs.h"
#include "fuzz.h"

/* The manual's thresholds (halluscan(1), --pairs). */
#define COVER_SUPPORTS 0.80
#define COVER_PARTIAL 0.50
#define MAX_PAIRS 8

#define ALTERED_SAYS " where the passage says "
#define NEGATION_SAYS "the claim says \""
#define NAME_MISSING "the passage does not name \""
#define DIRECTION_SAYS "\" where the passage sentences nearest it say \""
#define ABSENCE_STATED "the claim says the passage lacks what it states: \""
#define ABSENCE_ONLY "the claim only says what the passage does not state, and it does not: \""
#define CITES_PART "the claim cites part "
#define CONTRAST_SAYS "the claim sets aside \""
/* The longest name a reason quotes whole (pairs.c: a longer one by its head). */
#define NAME_QUOTED 256

struct pair {
	const char *claim, *passage;
	size_t claim_len, passage_len;
};

static struct pairs *judge(void)
{
	static struct pairs *pj;
	static struct policy *pol;

	if (!pj) {
		pol = policy_new(fuzz_builtin()->rs);
		FUZZ_CHECK(pol != NULL);
		FUZZ_CHECK(pairs_new(fuzz_builtin(), pol, &pj) == 0);
	}
	return pj;
}

/*
 * The length of the " in Q3 2020" (a reporting period as
 * quantity_period_text() writes it: "Q3 2020", "Q3" or "2020"; or " said
 * of the prior year", of the prior quarter) that ends s[0, n), or 0.
 */
static size_t period_named(const char *s, size_t n)
{
	static const char *const prior[] = {" said of the prior year",
					    " said of the prior quarter"};
	size_t i = n, digits = 0, k, len;

	for (k = 0; k < 2; k++) {
		len = strlen(prior[k]);
		if (n >= len && memcmp(s + n - len, prior[k], len) == 0)
			return len;
	}

	while (i > 0 && isdigit((unsigned char)s[i - 1]) && digits < 5)
		i--, digits++;
	if (digits == 1 && i >= 1 && s[i - 1] == 'Q')
		i--; /* "Q3" */
	else if (digits == 4 && i >= 3 && s[i - 1] == ' ' && s[i - 2] >= '1' && s[i - 2] <= '4' &&
		 s[i - 3] == 'Q')
		i -= 3; /* "Q3 2020" */
	else if (digits != 4)
		return 0; /* (a year alone: "2020") */
	return i >= 4 && memcmp(s + i - 4, " in ", 4) == 0 ? n - i + 4 : 0;
}

/* Whether t[0, n) holds the word w[0, k) (ASCII letters and digits), in any case. */
static bool holds_word(const char *t, size_t n, const char *w, size_t k)
{
	size_t i;

	for (i = 0; i + k <= n; i++)
		if (strncasecmp(t + i, w, k) == 0 && (i == 0 || !isalnum((unsigned char)t[i - 1])) &&
		    (i + k == n || !isalnum((unsigned char)t[i + k])))
			return true;
	return false;
}

/*
 * Whether says[0, k) is a quarter and year as quantity_period_text() names
 * one ("Q3 2020") that t[0, n) names in words of its own: the year, and
 * the quarter as "Q3", "3Q" or "third". A quarter the passage reports on,
 * where the claim's is one it only compares with, is named so.
 */
static bool quarter_said(const char *t, size_t n, const char *says, size_t k)
{
	static const char *const ordinal[] = {"first", "second", "third", "fourth"};
	char q[3];
	int d;

	if (k != 7 || says[0] != 'Q' || says[1] < '1' || says[1] > '4' || says[2] != ' ' ||
	    !isdigit((unsigned char)says[3]) || !isdigit((unsigned char)says[6]))
		return false;
	d = says[1] - '1';
	if (!holds_word(t, n, says + 3, 4))
		return false;
	q[0] = says[1];
	q[1] = 'Q';
	q[2] = '\0';
	return holds_word(t, n, says, 2) || holds_word(t, n, q, 2) ||
	       holds_word(t, n, ordinal[d], strlen(ordinal[d]));
}

/* The length of the " on Monday" (a day of the week) that ends s[0, n), or 0. */
static size_t day_named(const char *s, size_t n)
{
	static const char *const days[] = {"Monday", "Tuesday", "Wednesday", "Thursday",
					   "Friday", "Saturday", "Sunday"};
	size_t i, k;

	for (i = 0; i < sizeof(days) / sizeof(days[0]); i++) {
		k = strlen(days[i]) + 4;
		if (n > k && memcmp(s + n - k, " on ", 4) == 0 &&
		    memcmp(s + n - k + 4, days[i], k - 4) == 0)
			return k;
	}
	return 0;
}

/* Whether t[0, n) holds s[0, k) anywhere, in any case. */
static bool holds_ci(const char *t, size_t n, const char *s, size_t k)
{
	size_t i;

	for (i = 0; i + k <= n; i++)
		if (strncasecmp(t + i, s, k) == 0)
			return true;
	return false;
}

/*
 * A record's yes/no attribute as attrs.c writes it for a reason: its key's
 * words, ": " and the value's text, printable ASCII, cut at 63 bytes
 * ("business parking validated: false"). The passage holds each key word,
 * in any case and inside an identifier too ("BusinessParking"), but for a
 * word the cut shortened, one with a byte written '?', or where the passage
 * has escapes that may spell it; and a JSON literal value as it is.
 */
static bool attribute_said(const char *t, size_t n, const char *says, size_t k)
{
	const char *colon = NULL, *end = says + k, *p, *w, *e;
	bool cut = k >= 63;

	for (p = says; p + 1 < end; p++)
		if (p[0] == ':' && p[1] == ' ')
			colon = p;
	if (!colon && !cut)
		return false;
	if (cut) {
		/* the last word may be cut short: only those before it */
		for (e = end; e > says && e[-1] != ' '; e--)
			;
		end = e > says ? e - 1 : says;
	}
	if (memchr(t, '\\', n))
		return true;
	for (w = says; w < (colon ? colon : end); w = e + 1) {
		e = memchr(w, ' ', (size_t)((colon ? colon : end) - w));
		if (!e)
			e = colon ? colon : end;
		if (e > w && !memchr(w, '?', (size_t)(e - w)) && !holds_ci(t, n, w, (size_t)(e - w)))
			return false;
	}
	if (colon && !cut && (strncmp(colon + 2, "true", 4) == 0 || strncmp(colon + 2, "false", 5) == 0) &&
	    (size_t)(end - colon - 2) == (colon[2] == 't' ? 4u : 5u))
		return memmem(t, n, colon + 2, (size_t)(end - colon - 2)) != NULL;
	return true;
}

/*
 * The reason, after its prefix, quotes the claim between double quotes (at
 * most 120 bytes of it): that text is the claim's.
 */
static void quoted_from_claim(const struct pair *pr, const char *reason, const char *prefix)
{
	const char *said = reason + strlen(prefix), *q = strrchr(reason, '"');

	FUZZ_CHECK(strncmp(reason, prefix, strlen(prefix)) == 0 && q != NULL && q >= said,
		   "reason \"%s\"", reason);
	FUZZ_CHECK(memmem(pr->claim, pr->claim_len, said, (size_t)(q - said)) != NULL,
		   "the claim does not say \"%.*s\"", (int)(q - said), said);
}

static void check_verdict(const struct pair *pr, const struct pair_verdict *v)
{
	size_t rlen = strnlen(v->reason, sizeof(v->reason));

	FUZZ_CHECK(rlen < sizeof(v->reason), "the reason is not terminated");
	FUZZ_CHECK(v->label == PAIR_SUPPORTS || v->label == PAIR_PARTIALLY_SUPPORTS ||
		   v->label == PAIR_DOES_NOT_SUPPORT, "label %d", (int)v->label);
	FUZZ_CHECK(v->quote_start <= v->quote_end && v->quote_end <= pr->passage_len,
		   "quote [%zu, %zu) in a passage of %zu bytes", v->quote_start, v->quote_end,
		   pr->passage_len);
	FUZZ_CHECK(v->grounded <= v->items, "%zu of %zu items grounded", v->grounded, v->items);
	FUZZ_CHECK(v->negations_held <= v->negations, "%zu of %zu negations held",
		   v->negations_held, v->negations);
	FUZZ_CHECK(v->names_held <= v->names, "%zu of %zu names held", v->names_held, v->names);
	FUZZ_CHECK(v->absences_stated <= v->absences, "%zu of %zu absences stated",
		   v->absences_stated, v->absences);
	FUZZ_CHECK(v->directions_reversed <= v->directions, "%zu of %zu directions reversed",
		   v->directions_reversed, v->directions);
	FUZZ_CHECK(v->coverage >= 0 && v->coverage <= 1, "coverage %g", v->coverage);
	if (v->altered > 0) {
		const char *says = NULL, *p;

		FUZZ_CHECK(v->label == PAIR_DOES_NOT_SUPPORT, "a changed number, label %s",
			   pair_label_name(v->label));
		size_t n;

		/* The last one: the claim's text before it may hold the phrase too. */
		for (p = v->reason; (p = strstr(p, ALTERED_SAYS)); p++)
			says = p + strlen(ALTERED_SAYS);
		FUZZ_CHECK(says != NULL, "reason \"%s\"", v->reason);
		/* How the passage says its figure is named beside it: a day's
		 * hours name their day ("9:00-17:00 on Monday"), a figure said
		 * for another period names it ("$1.30 in Q4 2020"), one said as
		 * a bound its side ("at least 50"). */
		if (strncmp(says, "at least ", 9) == 0 || strncmp(says, "at most ", 8) == 0)
			says += says[3] == 'l' ? 9 : 8;
		n = strlen(says);
		n -= period_named(says, n);
		n -= day_named(says, n);
		/* (a record's yes/no attribute is said as its key and value, a
		 * quarter reported on by its name) */
		FUZZ_CHECK(memmem(pr->passage, pr->passage_len, says, n) != NULL ||
				   attribute_said(pr->passage, pr->passage_len, says, n) ||
				   quarter_said(pr->passage, pr->passage_len, says, n),
			   "the passage does not say \"%.*s\"", (int)n, says);
	} else if (v->absences_stated > 0) {
		FUZZ_CHECK(v->label == PAIR_DOES_NOT_SUPPORT, "an absence stated, label %s",
			   pair_label_name(v->label));
		FUZZ_CHECK(v->quote_end > v->quote_start, "an absence stated, nothing quoted");
		quoted_from_claim(pr, v->reason, ABSENCE_STATED);
	} else if (strncmp(v->reason, CONTRAST_SAYS, strlen(CONTRAST_SAYS)) == 0) {
		FUZZ_CHECK(v->label == PAIR_DOES_NOT_SUPPORT, "a contrast reversed, label %s",
			   pair_label_name(v->label));
		FUZZ_CHECK(v->quote_end > v->quote_start, "a contrast reversed, nothing quoted");
		quoted_from_claim(pr, v->reason, CONTRAST_SAYS);
	} else if (v->negations_held < v->negations) {
		const char *said = v->reason + strlen(NEGATION_SAYS), *q;

		FUZZ_CHECK(v->label == PAIR_DOES_NOT_SUPPORT, "a negation not held, label %s",
			   pair_label_name(v->label));
		FUZZ_CHECK(strncmp(v->reason, NEGATION_SAYS, strlen(NEGATION_SAYS)) == 0 &&
				   (q = strchr(said, '"')) != NULL,
			   "reason \"%s\"", v->reason);
		FUZZ_CHECK(memmem(pr->claim, pr->claim_len, said, (size_t)(q - said)) != NULL,
			   "the claim does not say \"%.*s\"", (int)(q - said), said);
	} else if (v->directions_reversed > 0) {
		const char *said = v->reason + strlen(NEGATION_SAYS), *q, *says, *r;

		FUZZ_CHECK(v->label == PAIR_DOES_NOT_SUPPORT, "a direction reversed, label %s",
			   pair_label_name(v->label));
		FUZZ_CHECK(strncmp(v->reason, NEGATION_SAYS, strlen(NEGATION_SAYS)) == 0 &&
				   (q = strstr(said, DIRECTION_SAYS)) != NULL && q > said,
			   "reason \"%s\"", v->reason);
		says = q + strlen(DIRECTION_SAYS);
		r = strchr(says, '"');
		FUZZ_CHECK(r != NULL && r > says, "reason \"%s\"", v->reason);
		FUZZ_CHECK(holds_word(pr->claim, pr->claim_len, said, (size_t)(q - said)),
			   "the claim does not say \"%.*s\"", (int)(q - said), said);
		/* the passage's word, in the sentence quoted */
		FUZZ_CHECK(holds_word(pr->passage + v->quote_start, v->quote_end - v->quote_start, says,
				      (size_t)(r - says)),
			   "the quote does not say \"%.*s\"", (int)(r - says), says);
	} else {
		/* A figure of the claim that the passage does not hold is the claim's own. */
		enum pair_label want = v->items == 0 ? (v->coverage >= COVER_SUPPORTS ? PAIR_SUPPORTS
							: v->coverage >= COVER_PARTIAL ? PAIR_PARTIALLY_SUPPORTS
										   : PAIR_DOES_NOT_SUPPORT)
				       : v->grounded == v->items ? PAIR_SUPPORTS
				       : v->grounded && !v->figure_missing ? PAIR_PARTIALLY_SUPPORTS
									   : PAIR_DOES_NOT_SUPPORT;

		/* A sentence citing a part of the passage the others hold it
		 * against ("According to passage 2") names the wrong source. */
		if (strncmp(v->reason, CITES_PART, strlen(CITES_PART)) == 0) {
			char prefix[64];
			unsigned num = 0;

			FUZZ_CHECK(v->label == PAIR_DOES_NOT_SUPPORT &&
					   sscanf(v->reason + strlen(CITES_PART), "%u", &num) == 1,
				   "a part cited, label %s: %s", pair_label_name(v->label), v->reason);
			snprintf(prefix, sizeof(prefix), CITES_PART "%u of the passage for \"", num);
			quoted_from_claim(pr, v->reason, prefix);
			return;
		}
		/* A claim of absences alone, none stated, is supported. */
		if (strncmp(v->reason, ABSENCE_ONLY, strlen(ABSENCE_ONLY)) == 0) {
			FUZZ_CHECK(v->absences > 0 && v->items == 0 && v->coverage == 0,
				   "only absences: %zu absences, %zu items, coverage %g", v->absences,
				   v->items, v->coverage);
			quoted_from_claim(pr, v->reason, ABSENCE_ONLY);
			want = PAIR_SUPPORTS;
		}
		/* ... and a name it does not give makes support partial, the
		 * reason naming it (after what else it says). */
		if (v->names_held < v->names) {
			const char *said = strstr(v->reason, NAME_MISSING), *q = NULL;

			if (want == PAIR_SUPPORTS)
				want = PAIR_PARTIALLY_SUPPORTS;
			FUZZ_CHECK(said != NULL && (q = strchr(said += strlen(NAME_MISSING), '"')) != NULL &&
					   q > said,
				   "reason \"%s\"", v->reason);
			FUZZ_CHECK(q - said == NAME_QUOTED
					   ? memmem(pr->claim, pr->claim_len, said, NAME_QUOTED) != NULL
					   : holds_word(pr->claim, pr->claim_len, said, (size_t)(q - said)),
				   "the claim does not say \"%.*s\"", (int)(q - said), said);
			FUZZ_CHECK(q - said == NAME_QUOTED ||
					   !holds_word(pr->passage, pr->passage_len, said, (size_t)(q - said)),
				   "the passage names \"%.*s\"", (int)(q - said), said);
		}
		FUZZ_CHECK(v->label == want, "%zu of %zu grounded%s, coverage %g, %zu of %zu names: %s",
			   v->grounded, v->items, v->figure_missing ? ", a figure missing" : "",
			   v->coverage, v->names_held, v->names, pair_label_name(v->label));
	}
}

static void judge_pair(const struct pair *pr, struct pair_verdict *v)
{
	int err = pairs_judge(judge(), pr->claim, pr->claim_len, pr->passage, pr->passage_len, v);

	FUZZ_CHECK(err == 0, "pairs_judge: %s", strerror(-err));
	check_verdict(pr, v);
}

static void same_verdict(const struct pair_verdict *a, const struct pair_verdict *b)
{
	FUZZ_CHECK(a->label == b->label && a->quote_start == b->quote_start &&
		   a->quote_end == b->quote_end && a->items == b->items &&
		   a->grounded == b->grounded && a->altered == b->altered &&
		   a->coverage == b->coverage && a->negations == b->negations &&
		   a->negations_held == b->negations_held && a->directions == b->directions &&
		   a->directions_reversed == b->directions_reversed && a->names == b->names &&
		   a->names_held == b->names_held && a->absences == b->absences &&
		   a->absences_stated == b->absences_stated && strcmp(a->reason, b->reason) == 0,
		   "one pair, two verdicts: \"%s\" and \"%s\"", a->reason, b->reason);
}

/* The judge (the built-in packs compiled) before the first input, outside its timeout. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	judge();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *p = text, *end = text + size;
	struct json_value *recs[MAX_PAIRS] = {NULL};
	struct pair pairs[MAX_PAIRS];
	struct pair_verdict first, v;
	size_t n = 0, i;

	if (size == 0)
		return 0;
	if (text[0] != '{') {
		size_t split = size > 1 ? (size_t)data[0] * (size - 1) / 255 : 0;

		pairs[0] = (struct pair){text + 1, text + 1 + split, split, size - 1 - split};
		n = 1;
	}
	/* JSONL: the lines the program would judge (blank and malformed ones are not). */
	while (text[0] == '{' && p < end && n < MAX_PAIRS) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t len = eol ? (size_t)(eol + 1 - p) : (size_t)(end - p);
		struct json_value *rec = NULL;
		struct json_error jerr;
		struct pair *pr = &pairs[n];
		int err = json_parse(p, len, &rec, &jerr);

		p += len;
		FUZZ_CHECK(err == 0 || err == -EINVAL);
		if (err)
			continue;
		pr->claim = json_string(json_get(rec, "claim"), &pr->claim_len);
		pr->passage = json_string(json_get(rec, "passage"), &pr->passage_len);
		if (!pr->claim || !pr->passage) {
			json_free(rec);
			continue;
		}
		recs[n++] = rec;
	}
	for (i = 0; i < n; i++) {
		judge_pair(&pairs[i], i ? &v : &first);
		if (i == 0 && n == 1) {
			judge_pair(&pairs[0], &v);
			same_verdict(&first, &v);
		}
	}
	if (n > 1) {
		judge_pair(&pairs[0], &v);
		same_verdict(&first, &v);
	}
	for (i = 0; i < n; i++)
		json_free(recs[i]);
	return 0;
}
