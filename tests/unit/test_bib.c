// SPDX-License-Identifier: MIT
/* The user's bibliography: BibTeX and CSL-JSON readers, matching. */
#include <errno.h>
#include <stdlib.h>

#include "ground/bib.h"
#include "ground/refs.h"
#include "match/rules.h"
#include "test.h"

static struct ruleset *rs;
static struct refs *refs;

static struct bib *fresh(void)
{
	struct diag d = {""};
	struct bib *b = NULL;

	if (!refs) {
		rs = ruleset_new();
		CHECK_EQ(ruleset_add_builtin_yaml(rs, &d), 0);
		CHECK_EQ(ruleset_finish(rs, &d), 0);
		CHECK_EQ(refs_new(rs, &refs, &d), 0);
	}
	CHECK_EQ(bib_new(refs, &b), 0);
	return b;
}

/* A call in a variable, so that CHECK_EQ does not quote the long literal. */
#define ADD(b, text, d) add_ok(b, text, d)
static int add(struct bib *b, const char *text, struct diag *d)
{
	int err = bib_add(b, "my.bib", text, strlen(text), d);

	return err;
}

static int add_ok(struct bib *b, const char *text, struct diag *d)
{
	int err = add(b, text, d);

	if (err)
		fprintf(stderr, "  %s\n", d->msg);
	return err;
}

/* The verdict on the first entry of line, and the bibliography entry's key. */
static const char *why;
static enum bib_verdict judge(struct bib *b, const char *line, const char **key)
{
	struct ref_entry e[REFS_PER_LINE];
	const struct bib_entry *x = NULL;
	enum bib_verdict v;

	CHECK(refs_parse(refs, line, strlen(line), 202612, e, REFS_PER_LINE) >= 1);
	v = bib_match(b, &e[0], line + e[0].from, 0.75, &x, &why);
	*key = x ? x->key : "";
	return v;
}

static const char bibtex[] =
	"% comment\n@string{nips = {NeurIPS}}\n@comment{anything {here}}\n"
	"@InProceedings{vaswani2017,\n  title = {Attention Is {All} You Need},\n"
	"  author = {Vaswani, Ashish and Shazeer, Noam},\n  booktitle = nips,\n"
	"  year = 2017, eprint = {1706.03762v5}, archivePrefix = {arXiv}\n}\n"
	"@article(he2016, title=\"Deep Residual Learning for Image Recognition\", "
	"author=\"Kaiming He and Xiangyu Zhang\", date={2016-06-27}, doi={10.1109/CVPR.2016.90})\n"
	"@misc{m\\\"uller, title = {{\\\"U}ber die Grenzen} # { der Modelle}, author = {M{\\\"u}ller, J.}}\n";

TEST(bib_bibtex)
{
	struct bib *b = fresh();
	struct diag d = {""};
	const char *key;

	CHECK_EQ(ADD(b, bibtex, &d), 0);
	CHECK_EQ(bib_count(b), 3);
	CHECK_EQ(judge(b, "Vaswani, A., & Shazeer, N. (2017). Attention is all you need. NeurIPS.", &key),
		 BIB_MATCH);
	CHECK_STR(key, "vaswani2017");
	CHECK_EQ(judge(b, "Vaswani, A. (2019). Attention is all you need. NeurIPS.", &key), BIB_ALTERED);
	CHECK_STR(why, "another year");
	CHECK_EQ(judge(b, "Smith, J. (2017). Attention is all you need. NeurIPS.", &key), BIB_ALTERED);
	CHECK_STR(why, "another first author");
	CHECK_EQ(judge(b, "Lee, K. (2021). Transformers for everything. arXiv:1706.03762v2", &key), BIB_ALTERED);
	CHECK_STR(why, "its identifier on another title");
	CHECK_EQ(judge(b, "See arXiv:1706.03762 and more.", &key), BIB_MATCH);
	CHECK_EQ(judge(b, "He, K., & Zhang, X. (2016). Deep residual learning for image recognition. CVPR.", &key),
		 BIB_MATCH);
	CHECK_STR(key, "he2016");
	CHECK_EQ(judge(b, "See doi:10.1109/cvpr.2016.90 for it.", &key), BIB_MATCH);
	CHECK_EQ(judge(b, "Kim, J. (2020). Unrelated work on sparse attention. ICML.", &key), BIB_NONE);
	/* accents and LaTeX: "{\"U}ber" is "Uber", the family name "M{\"u}ller" is "muller" */
	CHECK_EQ(judge(b, "Müller, J. (2020). Über die Grenzen der Modelle. Springer.", &key), BIB_MATCH);
	bib_free(b);
}

static const char csl[] =
	"[{\"id\": \"v17\", \"title\": \"Attention Is All You Need\", \"author\": "
	"[{\"family\": \"Vaswani\", \"given\": \"Ashish\"}], \"issued\": {\"date-parts\": [[2017, 12]]}, "
	"\"URL\": \"https://arxiv.org/abs/1706.03762v5\"}, {\"id\": \"who\", \"title\": \"Obesity and "
	"overweight\", \"author\": [{\"literal\": \"World Health Organization\"}], \"issued\": "
	"{\"raw\": \"2021\"}, \"DOI\": \"10.1000/WHO.1\"}]";

TEST(bib_csl_json)
{
	struct bib *b = fresh();
	struct diag d = {""};
	const char *key;

	CHECK_EQ(ADD(b, csl, &d), 0);
	CHECK_EQ(bib_count(b), 2);
	CHECK_EQ(judge(b, "Vaswani, A. (2017). Attention is all you need. NeurIPS.", &key), BIB_MATCH);
	CHECK_STR(key, "v17");
	CHECK_EQ(judge(b, "See arXiv:1706.03762 too.", &key), BIB_MATCH);
	CHECK_EQ(judge(b, "World Health Organization. (2021). Obesity and overweight. Retrieved from "
			  "https://www.who.int/x", &key), BIB_MATCH);
	CHECK_EQ(judge(b, "World Health Organization. (2020). Obesity and overweight. WHO.", &key), BIB_ALTERED);
	/* one item alone is a bibliography too */
	CHECK_EQ(ADD(b, " {\"id\": \"one\", \"title\": \"A single item\"}", &d), 0);
	CHECK_EQ(bib_count(b), 3);
	bib_free(b);
}

TEST(bib_refuses)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"@article{x, title = {Unclosed\n", "my.bib:1:21: a value that is never closed"},
		{"@article{x, title = \"a}\"}", "my.bib:1:23: an unbalanced \"}\" in a quoted value"},
		{"@article{x,\n title {T}}", "my.bib:2:8: a field name is not followed by \"=\""},
		{"@ {x}", "my.bib:1:1: \"@\" is not followed by an entry type"},
		{"@article x", "my.bib:1:10: an entry type is not followed by \"{\" or \"(\""},
		{"@article{x, title = }", "my.bib:1:21: a field's value is missing"},
		{"@comment{never closed", "my.bib:1:1: an entry that is never closed"},
		{"[{\"title\": \"T\"}, 3]", "my.bib:1:18: a CSL-JSON item must be an object"},
		{"[{\"title\": \"T\"", "my.bib:1:"},
		{"\"a string\"", "my.bib: holds no entry with a title, DOI or arXiv id"},
		{"@string{x = {y}}\n@comment{z}", "my.bib: holds no entry"},
		{"", "my.bib: holds no entry"},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct bib *b = fresh();
		struct diag d = {""};

		CHECK_EQ(ADD(b, "@article{ok, title = {Kept before}}", &d), 0);
		CHECK_EQ(ADD(b, bad[i].text, &d), -EINVAL);
		if (strncmp(d.msg, bad[i].msg, strlen(bad[i].msg)) != 0) {
			fprintf(stderr, "  case %zu: \"%s\", want \"%s\"\n", i, d.msg, bad[i].msg);
			CHECK(!"a bibliography refused otherwise");
		}
		CHECK_EQ(bib_count(b), 1); /* what the refused file held is gone, the rest stays */
		bib_free(b);
	}
}

TEST(bib_similarity_and_names)
{
	struct buf a = {0};

	CHECK(bib_title_similarity("deep residual learning image recognition",
				   "deep residual learning image recognition") == 1.0);
	CHECK(bib_title_similarity("deep residual networks image recognition",
				   "deep residual learning image recognition") == 0.8);
	CHECK(bib_title_similarity("a b", "c d") == 0.0);
	CHECK(bib_title_similarity("", "") == 0.0);
#define FIRST(in, want)                                                       \
	do {                                                                  \
		a.len = 0;                                                    \
		CHECK_EQ(bib_first_author(in, strlen(in), &a), 0);            \
		buf_addc(&a, '\0');                                           \
		CHECK_STR(a.data, want);                                      \
	} while (0)
	FIRST("Smith, J. A., & Lee, K.", "smith");
	FIRST("M. Jockers and D. Witten", "jockers");
	FIRST("Halpern SD, Ubel PA, Caplan AL", "halpern");
	FIRST("Francisco Ramalho, Meng Liu, and Etienne Mathieu", "ramalho");
	FIRST("Kaiming He and Xiangyu Zhang", "he");
	FIRST("Müller, J.", "muller");
	FIRST("", "");
#undef FIRST
	buf_free(&a);
}

static unsigned bib_rand(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

/* A title of few words from a small vocabulary: many titles share words. */
static void random_title(unsigned *seed, char *out, size_t cap)
{
	static const char *const words[] = {"graph", "neural", "networks", "traffic", "learning",
					    "deep", "attention", "models", "sparse", "robust",
					    "forecasting", "survey"};
	size_t n = bib_rand(seed) % 8 + 1, k = 0, i;

	out[0] = '\0';
	for (i = 0; i < n; i++)
		k += (size_t)snprintf(out + k, cap - k, "%s%s", i ? " " : "",
				      words[bib_rand(seed) % ARRAY_SIZE(words)]);
	out[0] = (char)(out[0] - 'a' + 'A');
}

/*
 * bib_match through its indexes finds the entry a walk over every entry
 * finds: the first of the most alike titles when it reaches the bound,
 * else the first entry of the DOI or arXiv id.
 */
TEST(bib_match_is_the_walk)
{
	static const double bounds[] = {0.75, 0.4, 0};
	struct bib *b = fresh();
	struct buf text = {0}, k = {0};
	struct diag d = {""};
	unsigned seed = 3;
	size_t i, j, q, matched = 0, by_id = 0, checked = 0;

	if (!b)
		return;
	for (i = 0; i < 400; i++) {
		char title[160];

		random_title(&seed, title, sizeof(title));
		buf_addf(&text, "@article{k%zu, title = {%s}, author = {Lee, Kim}, year = {%u}", i, title,
			 2015 + bib_rand(&seed) % 5);
		if (bib_rand(&seed) % 3 == 0)
			buf_addf(&text, ", doi = {10.1000/d%u}", bib_rand(&seed) % 40);
		if (bib_rand(&seed) % 4 == 0)
			buf_addf(&text, ", eprint = {2001.%05u}, archivePrefix = {arXiv}", bib_rand(&seed) % 40);
		buf_adds(&text, "}\n");
	}
	buf_addc(&text, '\0');
	CHECK_EQ(ADD(b, text.data, &d), 0);
	for (q = 0; q < 300; q++) {
		struct ref_entry e[REFS_PER_LINE];
		char title[160], line[400];
		unsigned r = bib_rand(&seed);

		random_title(&seed, title, sizeof(title));
		snprintf(line, sizeof(line), "Lee, K. (2017). %s. Journal of Things, 3(2), 1-10.%s", title,
			 r % 2 ? "" : r % 4 ? " https://doi.org/10.1000/d7" : " arXiv:2001.00011");
		if (refs_parse(refs, line, strlen(line), 202612, e, REFS_PER_LINE) < 1)
			continue;
		for (j = 0; j < ARRAY_SIZE(bounds); j++) {
			const struct bib_entry *got = NULL, *want = NULL, *id = NULL;
			const char *why_not;
			double best = 0;
			size_t x;

			bib_match(b, &e[0], line + e[0].from, bounds[j], &got, &why_not);
			k.len = 0;
			if (e[0].title.len)
				CHECK_EQ(refs_title_key(refs, line + e[0].from + e[0].title.off, e[0].title.len, &k), 0);
			buf_addc(&k, '\0');
			for (x = 0; x < bib_count(b); x++) {
				const struct bib_entry *be = bib_at(b, x);
				double sim = k.len > 1 && be->title_key[0] ? bib_title_similarity(k.data, be->title_key) : 0;

				if (sim > best) {
					best = sim;
					want = be;
				}
				if (!id && ((r % 4 == 2 && strcmp(be->doi, "10.1000/d7") == 0) ||
					    (r % 4 == 0 && strcmp(be->arxiv, "2001.00011") == 0)))
					id = be;
			}
			if (!(want && best >= bounds[j]))
				want = id;
			checked++;
			matched += want != NULL;
			by_id += want && want == id;
			if (got != want) {
				fprintf(stderr, "  \"%s\" at %.2f: want %s, got %s\n", line, bounds[j],
					want ? want->key : "none", got ? got->key : "none");
				CHECK(!"the indexed match differs from the walk");
				q = 300;
				break;
			}
		}
	}
	/* Matches of both kinds, and misses: the comparison proves something. */
	CHECK(matched > checked / 3 && matched < checked && by_id > 10);
	buf_free(&text);
	buf_free(&k);
	bib_free(b);
}
