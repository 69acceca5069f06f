// SPDX-License-Identifier: MIT
/*
 * Build tool: parses the built-in packs, compiles them, runs every rule
 * example (a failing example fails the build), and writes as C arrays the
 * serialized ruleset and, with Hyperscan, the serialized database, for the
 * program to load at start-up with neither libyaml nor a compiler.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "config.h"
#include "ground/attrs.h"
#include "ground/refs.h"
#include "match/rules.h"
#include "scan/db.h"
#include "scan/scan.h"

static void write_array(FILE *out, const char *decl, const char *name,
			const unsigned char *data, size_t len)
{
	size_t i;

	fprintf(out, "%s %s[] = {", decl, name);
	for (i = 0; i < len; i++)
		fprintf(out, "%s%u,", i % 16 ? "" : "\n\t", data[i]);
	if (len == 0)
		fprintf(out, "\n\t0, /* none: C has no empty array */");
	fprintf(out, "\n};\n\nconst size_t %s_len = %zu;\n", name, len);
}

/*
 * The blob loaded back must give the same bytes and, recomputed, the digest
 * of the YAML it came from: a field the codec forgot fails the build here.
 */
static int check_round_trip(const struct buf *blob)
{
	struct ruleset *rs = ruleset_new();
	struct buf again = {0};
	struct diag d = {""};
	int err = -ENOMEM;

	if (!rs)
		return err;
	err = ruleset_add_serialized(rs, blob->data, blob->len, &d);
	if (err == 0)
		err = ruleset_finish(rs, &d);
	if (err == 0)
		err = ruleset_check_digest(rs);
	if (err == 0)
		err = ruleset_serialize(rs, &again);
	if (err == 0 && (again.len != blob->len || memcmp(again.data, blob->data, blob->len) != 0))
		err = -EBADMSG;
	if (err < 0)
		fprintf(stderr, "mkdb: the serialized ruleset does not load back as written%s%s\n",
			d.msg[0] ? ": " : "", d.msg);
	buf_free(&again);
	ruleset_free(rs);
	return err;
}

/* Where s lies in data, as C: a pointer into builtin_rules, or NULL. */
static void write_place(FILE *out, const struct buf *blob, const char *s)
{
	if (!s)
		fprintf(out, "NULL");
	else
		fprintf(out, "(char *)builtin_rules + %zu", (size_t)(s - (const char *)blob->data));
}

/* The C of the image's writer: the blob, and the strv and examples arrays it fills. */
struct image {
	FILE *out;
	const struct buf *blob;
	struct buf strv, examples; /* C text of their items */
	size_t n_strv, n_examples;
};

static void put(struct image *im, const char *s)
{
	write_place(im->out, im->blob, s);
}

/* One entry of a side table, written to mem: a string of strv, an example. */
typedef void put_entry_fn(FILE *mem, const struct buf *blob, const void *v, size_t i);

static void strv_entry(FILE *mem, const struct buf *blob, const void *v, size_t i)
{
	fprintf(mem, "\n\t");
	write_place(mem, blob, ((char *const *)v)[i]);
	fprintf(mem, ",");
}

static void example_entry(FILE *mem, const struct buf *blob, const void *v, size_t i)
{
	const struct example *e = (const struct example *)v + i;

	fprintf(mem, "\n\t{");
	write_place(mem, blob, e->text);
	fprintf(mem, ", ");
	write_place(mem, blob, e->match);
	fprintf(mem, ", {");
	write_place(mem, blob, e->at.file);
	fprintf(mem, ", %u, %u}},", e->at.line, e->at.col);
}

/*
 * n entries of v as a slice of the side table named table (its text
 * gathered in side, *count entries so far): the slice's C expression
 * written to out, NULL for none.
 */
static int put_slice(struct image *im, const char *table, struct buf *side, size_t *count,
		     put_entry_fn *entry, const void *v, size_t n)
{
	FILE *mem;
	char *text = NULL;
	size_t len = 0, i;

	if (n == 0) {
		fprintf(im->out, "NULL");
		return 0;
	}
	fprintf(im->out, "%s + %zu", table, *count);
	mem = open_memstream(&text, &len);
	if (!mem)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		entry(mem, im->blob, v, i);
	if (fclose(mem) != 0 || buf_add(side, text, len) < 0) {
		free(text);
		return -ENOMEM;
	}
	free(text);
	*count += n;
	return 0;
}

/* Strings of the blob as a slice of strv: its C expression written to out. */
static int put_strv(struct image *im, char *const *v, size_t n)
{
	return put_slice(im, "builtin_image_strv", &im->strv, &im->n_strv, strv_entry, v, n);
}

static int put_examples(struct image *im, const struct example *e, size_t n)
{
	return put_slice(im, "builtin_image_examples", &im->examples, &im->n_examples,
			 example_entry, e, n);
}

static void put_where(struct image *im, const char *field, struct where w)
{
	fprintf(im->out, " .%s = {", field);
	put(im, w.file);
	fprintf(im->out, ", %u, %u},", w.line, w.col);
}

#define STR(im, r, f)                                   \
	do {                                            \
		fprintf((im)->out, " ." #f " = ");      \
		put((im), (r)->f);                      \
		fprintf((im)->out, ",");                \
	} while (0)

/*
 * The ruleset as ruleset_add_serialized_static() decodes the blob (struct
 * ruleset_image), every field the codec reads: a field forgotten here
 * makes the unit test's ruleset_serialize() of the built-in rules differ
 * from builtin_rules.
 */
static int write_ruleset_image(FILE *out, const struct buf *blob, const struct ruleset *rs)
{
	struct image im = {.out = out, .blob = blob};
	size_t i;
	int err = 0;

	fprintf(out, "\n/* The ruleset decoded (struct ruleset_image), its strings in builtin_rules. */\n"
		     "static char *const builtin_image_files[] = {");
	for (i = 0; i < rs->n_files; i++) {
		fprintf(out, "\n\t");
		put(&im, rs->files[i]);
		fprintf(out, ",");
	}
	fprintf(out, "%s\n};\n", rs->n_files ? "" : "\n\tNULL,");
	/* The strv and examples arrays are referred to before they are defined. */
	fprintf(out, "static char *builtin_image_strv[];\nstatic struct example builtin_image_examples[];\n");
	fprintf(out, "static const struct rule builtin_image_rules[] = {");
	for (i = 0; i < rs->n_rules && err == 0; i++) {
		const struct rule *r = &rs->rules[i];

		fprintf(out, "\n\t{");
		STR(&im, r, id);
		STR(&im, r, signal);
		STR(&im, r, pattern);
		fprintf(out, " .quantities = %uu, .alternatives = ", r->quantities);
		err |= put_strv(&im, r->alternatives, r->n_alternatives);
		fprintf(out, ", .n_alternatives = %zu, .caseless = %d, .severity = %d,",
			r->n_alternatives, r->caseless, (int)r->severity);
		STR(&im, r, message);
		STR(&im, r, recovery);
		fprintf(out, " .fix = ");
		err |= put_strv(&im, r->fix, r->n_fix);
		fprintf(out, ", .n_fix = %zu, .unless_sentence = ", r->n_fix);
		err |= put_strv(&im, r->unless_sentence, r->n_unless_sentence);
		fprintf(out, ", .n_unless_sentence = %zu,", r->n_unless_sentence);
		STR(&im, r, unless_before);
		STR(&im, r, unless_after);
		fprintf(out, " .grounding = %d, .near = {.signal = ", (int)r->grounding);
		put(&im, r->near.signal);
		fprintf(out, ", .message = ");
		put(&im, r->near.message);
		fprintf(out, ", .recovery = ");
		put(&im, r->near.recovery);
		fprintf(out, ", .tolerance = %a, .fix = ", r->near.tolerance);
		err |= put_strv(&im, r->near.fix, r->near.n_fix);
		fprintf(out, ", .n_fix = %zu, .signal_index = %zu}, .pressure = %d, .extend = %d,",
			r->near.n_fix, r->near.signal_index, (int)r->pressure, (int)r->extend);
		fprintf(out, " .signal_index = %zu,", r->signal_index);
		STR(&im, r, wake_on);
		if (r->examples || r->negatives || r->fix_examples)
			err = -EINVAL; /* decoded: the image keeps them lazy */
		if (r->lazy.at)
			fprintf(out, " .lazy = {(const unsigned char *)builtin_rules + %zu, %zu, 0, "
				     "{%zu, %zu, %zu}},",
				(size_t)(r->lazy.at - (const unsigned char *)blob->data), r->lazy.len,
				r->lazy.n[0], r->lazy.n[1], r->lazy.n[2]);
		put_where(&im, "at", r->at);
		put_where(&im, "pattern_at", r->pattern_at);
		fprintf(out, "},");
	}
	fprintf(out, "%s\n};\nstatic const struct span_delim builtin_image_spans[] = {",
		rs->n_rules ? "" : "\n\t{0},");
	for (i = 0; i < rs->n_spans; i++) {
		fprintf(out, "\n\t{");
		STR(&im, &rs->spans[i], name);
		STR(&im, &rs->spans[i], open);
		STR(&im, &rs->spans[i], close);
		put_where(&im, "at", rs->spans[i].at);
		fprintf(out, "},");
	}
	fprintf(out, "%s\n};\nstatic const struct context builtin_image_contexts[] = {",
		rs->n_spans ? "" : "\n\t{0},");
	for (i = 0; i < rs->n_contexts && err == 0; i++) {
		const struct context *x = &rs->contexts[i];

		fprintf(out, "\n\t{");
		STR(&im, x, name);
		STR(&im, x, description);
		fprintf(out, " .escalate = ");
		err |= put_strv(&im, x->escalate, x->n_escalate);
		fprintf(out, ", .n_escalate = %zu,", x->n_escalate);
		put_where(&im, "at", x->at);
		fprintf(out, "},");
	}
	fprintf(out, "%s\n};\nstatic const struct trigger builtin_image_triggers[] = {",
		rs->n_contexts ? "" : "\n\t{0},");
	for (i = 0; i < rs->n_triggers && err == 0; i++) {
		const struct trigger *t = &rs->triggers[i];

		fprintf(out, "\n\t{");
		STR(&im, t, name);
		STR(&im, t, description);
		STR(&im, t, pattern);
		fprintf(out, " .escalate = ");
		err |= put_strv(&im, t->escalate, t->n_escalate);
		fprintf(out, ", .n_escalate = %zu, .examples = ", t->n_escalate);
		err |= put_examples(&im, t->examples, t->n_examples);
		fprintf(out, ", .negatives = ");
		err |= put_examples(&im, t->negatives, t->n_negatives);
		fprintf(out, ", .n_examples = %zu, .n_negatives = %zu,", t->n_examples, t->n_negatives);
		put_where(&im, "at", t->at);
		put_where(&im, "pattern_at", t->pattern_at);
		fprintf(out, "},");
	}
	fprintf(out, "%s\n};\n", rs->n_triggers ? "" : "\n\t{0},");
	fprintf(out, "#define BUILTIN_IMAGE_SIGNALS ");
	err |= put_strv(&im, rs->signals, rs->n_signals);
	fprintf(out, "\n");
	fprintf(out, "static char *builtin_image_strv[] = {%.*s%s\n};\n", (int)im.strv.len,
		im.strv.data ? (const char *)im.strv.data : "", im.n_strv ? "" : "\n\tNULL,");
	fprintf(out, "static struct example builtin_image_examples[] = {%.*s%s\n};\n",
		(int)im.examples.len, im.examples.data ? (const char *)im.examples.data : "",
		im.n_examples ? "" : "\n\t{0},");
	fprintf(out, "const struct ruleset_image builtin_ruleset_image = {\n"
		     "\tbuiltin_image_files, %zu, builtin_image_rules, %zu, builtin_image_spans, %zu,\n"
		     "\tbuiltin_image_contexts, %zu, builtin_image_triggers, %zu,\n"
		     "\tbuiltin_image_strv, %zu, builtin_image_examples, %zu, \"%s\",\n"
		     "\tBUILTIN_IMAGE_SIGNALS, %zu,\n};\n",
		rs->n_files, rs->n_rules, rs->n_spans, rs->n_contexts, rs->n_triggers, im.n_strv,
		im.n_examples, rs->digest, rs->n_signals);
	buf_free(&im.strv);
	buf_free(&im.examples);
	if (err)
		fprintf(stderr, "mkdb: cannot write the ruleset's image\n");
	return err ? -EINVAL : ferror(out) ? -EIO : 0;
}

/*
 * The lists as ruleset_add_serialized_static() decodes them from the blob,
 * their strings where they lie in it (struct lists_image): the program
 * copies a table instead of decoding a thousand words.
 */
static int write_lists_image(FILE *out, const struct buf *blob, size_t at)
{
	struct ruleset *rs = ruleset_new();
	struct diag d = {""};
	size_t i, j, k = 0;
	int err = -ENOMEM;

	if (!rs)
		return err;
	err = ruleset_add_serialized_static(rs, blob->data, blob->len, &d);
	if (err < 0) {
		fprintf(stderr, "mkdb: the serialized ruleset does not load: %s\n", d.msg);
		ruleset_free(rs);
		return err;
	}
	fprintf(out, "\n/* The lists decoded (struct lists_image), their strings in builtin_rules. */\n"
		     "static char *builtin_list_words[] = {");
	for (i = 0; i < rs->n_lists; i++)
		for (j = 0; j < rs->lists[i].n_words; j++, k++) {
			fprintf(out, "\n\t");
			write_place(out, blob, rs->lists[i].words[j]);
			fprintf(out, ",");
		}
	if (k == 0)
		fprintf(out, "\n\tNULL, /* none: C has no empty array */");
	fprintf(out, "\n};\n\nstatic const struct wordlist builtin_list_table[] = {");
	for (i = 0, k = 0; i < rs->n_lists; i++) {
		const struct wordlist *l = &rs->lists[i];

		fprintf(out, "\n\t{");
		write_place(out, blob, l->name);
		if (l->n_words)
			fprintf(out, ", builtin_list_words + %zu, %zu, {", k, l->n_words);
		else
			fprintf(out, ", NULL, 0, {");
		write_place(out, blob, l->at.file);
		fprintf(out, ", %u, %u}},", l->at.line, l->at.col);
		k += l->n_words;
	}
	if (rs->n_lists == 0)
		fprintf(out, "\n\t{0}, /* none: C has no empty array */");
	fprintf(out, "\n};\n\nconst struct lists_image builtin_lists_image = {\n"
		     "\tbuiltin_list_table, %zu, builtin_list_words, %zu, %zu, %zu,\n};\n",
		rs->n_lists, k, at, blob->len - 64);
	/* With its signals and the rules' indexes into them, as a start would make them. */
	err = ruleset_finish(rs, &d);
	if (err == 0)
		err = write_ruleset_image(out, blob, rs);
	ruleset_free(rs);
	return err < 0 ? err : ferror(out) ? -EIO : 0;
}

int main(int argc, char **argv)
{
	struct ruleset *rs = ruleset_new();
	unsigned char *data = NULL;
	struct buf blob = {0}, exempt = {0};
	struct db *db = NULL;
	struct diag d = {""};
	size_t len = 0, lists_at = 0;
	FILE *out = NULL;
	int status = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: mkdb OUTPUT.c\n");
		status = 2;
		goto out;
	}
	if (!rs || ruleset_add_builtin_yaml(rs, &d) < 0 || ruleset_finish(rs, &d) < 0 ||
	    db_compile(rs, ENGINE_AUTO, &db, &d) < 0 || scan_check_examples(db, &d) < 0) {
		fprintf(stderr, "mkdb: %s\n", d.msg[0] ? d.msg : "out of memory");
		goto out;
	}
	/* Without Hyperscan the patterns compile at start-up: no database. */
	if (HAVE_HYPERSCAN && db_serialize(db, true, &data, &len) < 0) {
		fprintf(stderr, "mkdb: cannot serialize the database\n");
		goto out;
	}
	if (ruleset_serialize_at(rs, &blob, &lists_at) < 0) {
		fprintf(stderr, "mkdb: cannot serialize the ruleset\n");
		goto out;
	}
	if (check_round_trip(&blob) < 0)
		goto out;
	if (claims_serialize_exemptions(rs, &exempt) < 0) {
		fprintf(stderr, "mkdb: cannot serialize the exemption patterns\n");
		goto out;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		goto out;
	}
	fprintf(out, "/* Generated by tools/mkdb.c: the built-in packs, checked and compiled. */\n"
		     "#include \"scan/db.h\"\n"
		     "#include \"match/rules.h\"\n"
		     "#include \"ground/attrs_int.h\"\n"
		     "#include \"ground/refs_int.h\"\n\n"
		     "/* Aligned: the Hyperscan database is used where it lies. */\n");
	write_array(out, "__attribute__((aligned(ENGINE_IMAGE_ALIGN))) const unsigned char",
		    "builtin_db", data, len);
	fprintf(out, "\n/* For ruleset_add_serialized(): no YAML to parse, no digest to compute. */\n");
	write_array(out, "const unsigned char", "builtin_rules", (const unsigned char *)blob.data,
		    blob.len);
	fprintf(out, "\n/* For the claims: the rules' exemption patterns compiled (PCRE2's\n"
		     " * serialized form), each rule's at a multiple of 8. */\n");
	write_array(out, "__attribute__((aligned(8))) const unsigned char", "builtin_exempt",
		    (const unsigned char *)exempt.data, exempt.len);
	fprintf(out, "\n/* The word lists of the reference and attribute checks, made of the\n"
		     " * packs' lists as a run would make them (db.c points at them). */\n");
	if (write_lists_image(out, &blob, lists_at) < 0 ||
	    refs_write_c(db->refs, out, "builtin_ref_lists") < 0 ||
	    attrs_write_c(db->attrs, out, "builtin_attr_lists") < 0) {
		perror(argv[1]);
		goto out;
	}
	if (fclose(out) != 0) {
		perror(argv[1]);
		goto out;
	}
	status = 0;
out:
	free(data);
	buf_free(&blob);
	buf_free(&exempt);
	db_free(db);
	ruleset_free(rs);
	return status;
}
