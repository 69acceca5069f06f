// SPDX-License-Identifier: MIT
/*
 * --pairs: claim/passage pairs judged by pairs.c. It works below the
 * public API (the rules' database and a policy, through api.h): a pair is
 * judged by scanning its claim against its passage as grounding and
 * weighing the items found, which the API's findings do not carry.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"
#include "cli.h"
#include "config.h"
#include "common/emit.h"
#include "common/json.h"
#include "eval/pairs.h"
#include "common/sha256.h"


static void hex_digest(const char *s, size_t n, char out[65])
{
	unsigned char d[32];
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, s, n);
	sha256_final(&h, d);
	sha256_hex(d, out);
}

/* One verdict record; id is the id's JSON (see pair_id). */
static int emit_pair(struct buf *b, const char *path, size_t line, const char *id, size_t id_len,
		     const char *claim, size_t cn, const char *passage, size_t pn,
		     const struct pair_verdict *v, const struct ruleset *rs)
{
	char hc[65], hp[65];
	int err = 0;

	hex_digest(claim, cn, hc);
	hex_digest(passage, pn, hp);
	err |= BUF_LIT(b, "{\"type\":\"pair\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"line\":%zu,\"id\":", line);
	err |= buf_add(b, id, id_len);
	err |= buf_addf(b, ",\"verdict\":\"%s\",\"reason\":", pair_label_name(v->label));
	err |= emit_json_string(b, v->reason, strlen(v->reason));
	err |= buf_addf(b, ",\"quote\":{\"start\":%zu,\"end\":%zu,\"text\":", v->quote_start, v->quote_end);
	err |= emit_json_quote(b, passage + v->quote_start, v->quote_end - v->quote_start);
	err |= buf_addf(b, "},\"items\":%zu,\"grounded\":%zu,\"altered\":%zu,\"negations\":%zu,"
			"\"negations_held\":%zu,\"directions\":%zu,\"directions_reversed\":%zu,"
			"\"names\":%zu,\"names_held\":%zu,\"absences\":%zu,\"absences_stated\":%zu,"
			"\"coverage\":%.3f,"
			"\"claim_sha256\":\"%s\",\"passage_sha256\":\"%s\",\"ruleset\":\"%.16s\","
			"\"version\":\"%s\"}\n",
			v->items, v->grounded, v->altered, v->negations, v->negations_held,
			v->directions, v->directions_reversed, v->names, v->names_held, v->absences,
			v->absences_stated, v->coverage, hc,
			hp, rs->digest, HALLUSCAN_VERSION);
	return err ? -ENOMEM : 0;
}

/* A line that is not a pair: an error record naming it; the run goes on. */
static int emit_bad_pair(struct buf *b, const char *path, size_t line, const char *why)
{
	int err = 0;

	err |= BUF_LIT(b, "{\"type\":\"error\",\"path\":");
	err |= emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"line\":%zu,\"message\":", line);
	err |= emit_json_string(b, why, strlen(why));
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

/*
 * The JSON written for a record's id into out: a string re-encoded (our
 * writer's output is valid UTF-8 with every control escaped, whatever the
 * input held), a number, true, false or null as the input wrote it (their
 * grammar is ASCII), an absent id as null. Returns 0, 1 when the id is an
 * array or object, or -ENOMEM.
 */
static int pair_id(const struct json_value *id, const char *line, struct buf *out)
{
	size_t is, ie, n;
	const char *str;

	out->len = 0;
	switch (json_type(id)) {
	case JSON_NONE:
		return BUF_LIT(out, "null");
	case JSON_STRING:
		str = json_string(id, &n);
		return emit_json_string(out, str, n);
	case JSON_ARRAY:
	case JSON_OBJECT:
		return 1;
	default:
		json_span(id, &is, &ie);
		return buf_add(out, line + is, ie - is);
	}
}

/* --quarantine: a line kept is written as it was read, with its newline. */
static int keep_line(const struct pairs_quarantine *pq, const char *line, size_t n)
{
	if (fwrite(line, 1, n, pq->text) != n || putc('\n', pq->text) == EOF)
		return -(errno ? errno : EIO);
	return 0;
}

/* A pair the passage does not support: a "dropped" record after the pair's. */
static int drop_pair(struct buf *b, const char *path, size_t line, const char *id, size_t id_len,
		     const char *claim, size_t cn, const char *passage, size_t pn,
		     const struct pair_verdict *v)
{
	char hc[65], hp[65];
	int err = 0;

	hex_digest(claim, cn, hc);
	hex_digest(passage, pn, hp);
	err |= BUF_LIT(b, "{\"type\":\"dropped\",\"path\":") | emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"line\":%zu,\"id\":", line) | buf_add(b, id, id_len);
	err |= buf_addf(b, ",\"claim_sha256\":\"%s\",\"passage_sha256\":\"%s\",\"claim\":", hc, hp);
	err |= emit_json_quote(b, claim, cn);
	err |= BUF_LIT(b, ",\"reason\":") | emit_json_string(b, v->reason, strlen(v->reason));
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

/* The input's disposition under seed 002's rule (policy_disposition()). */
static int quarantine_record(struct buf *b, const char *path, const struct pairs_quarantine *pq,
			     const size_t counts[3], bool *shipped)
{
	struct disposition_counts n = {
		.total = counts[0] + counts[1] + counts[2], .supports = counts[PAIR_SUPPORTS],
		.partial = counts[PAIR_PARTIALLY_SUPPORTS],
		.fails = pq->drop ? counts[PAIR_DOES_NOT_SUPPORT] : 0,
	};
	enum disposition d;
	const char *why;
	int err = 0;

	d = policy_disposition(&pq->rule, &n, &why);
	*shipped = d == DISPOSITION_SHIP;
	err |= BUF_LIT(b, "{\"type\":\"quarantine\",\"path\":") | emit_json_string(b, path, strlen(path));
	err |= buf_addf(b, ",\"disposition\":\"%s\",\"why\":\"%s\"", disposition_name(d), why);
	err |= buf_addf(b, ",\"rule\":{\"drop_at\":\"does_not_support\",\"min_support\":%g,"
			"\"partial_allowance\":%g}", pq->rule.min_support, pq->rule.partial_allowance);
	err |= buf_addf(b, ",\"claims\":{\"total\":%llu,\"supports\":%llu,\"partial\":%llu,"
			"\"fails\":%llu,\"stuck\":0}", (unsigned long long)n.total,
			(unsigned long long)n.supports, (unsigned long long)n.partial,
			(unsigned long long)n.fails);
	err |= BUF_LIT(b, ",\"support_rate\":");
	err |= n.total ? buf_addf(b, "%.4f", (double)n.supports / (double)n.total) : BUF_LIT(b, "null");
	err |= BUF_LIT(b, "}\n");
	return err ? -ENOMEM : 0;
}

/*
 * Judges every pair of one input. *bad counts malformed lines, *fails
 * pairs that the passage does not support. With --line-buffered each
 * record is written as soon as its line is judged.
 */
static int pairs_input(struct pairs *pj, const struct ruleset *rs, const char *name,
		       struct jsonl *out, bool line_buffered, size_t *bad, size_t *fails,
		       int *read_err, const struct pairs_quarantine *pq, bool *shipped)
{
	size_t counts[3] = {0}, line_no = 0, malformed = 0, n;
	struct buf idj = {0};
	struct lines *lines = NULL;
	const char *label = name, *line;
	bool too_long;
	int fd, rc = 0, err = 0;

	*read_err = 0;
	fd = strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*read_err = errno;
		return 0;
	}
	err = lines_new(fd, RECORD_MAX, &lines);
	while (err == 0 && (rc = lines_next(lines, &line, &n, &too_long)) > 0) {
		const struct json_value *claim, *passage;
		struct json_value *rec = NULL;
		struct json_error jerr;
		struct pair_verdict v;
		const char *c, *p, *why = NULL;
		size_t cn = 0, pn = 0;
		char msg[160];

		line_no++;
		if (too_long) {
			snprintf(msg, sizeof(msg), "the line is %zu bytes, longer than the %zu MiB "
				 "a record may be", n, RECORD_MAX >> 20);
			why = msg;
		} else if (strspn(line, " \t\r") == n) {
			/* A blank line is no record (and, quarantined, goes through). */
			if (pq)
				err = keep_line(pq, line, n);
			continue;
		} else if (json_parse(line, n, &rec, &jerr) < 0) {
			snprintf(msg, sizeof(msg), "not JSON: %s at byte %zu", jerr.msg, jerr.offset);
			why = msg;
		} else {
			int id = pair_id(json_get(rec, "id"), line, &idj);

			claim = json_get(rec, "claim");
			passage = json_get(rec, "passage");
			c = json_string(claim, &cn);
			p = json_string(passage, &pn);
			if (id < 0)
				err = id;
			else if (!c || !p)
				why = "a pair needs \"claim\" and \"passage\" strings";
			else if (id > 0)
				why = "\"id\" must be a string, a number, true, false or null";
		}
		if (err == 0 && why) {
			malformed++;
			err = emit_bad_pair(&out->b, label, line_no, why);
			/* Not a pair: nothing to judge, and the run fails (exit 2). */
			if (err == 0 && pq && line)
				err = keep_line(pq, line, n);
		} else if (err == 0) {
			err = pairs_judge(pj, c, cn, p, pn, &v);
			if (!err) {
				counts[v.label]++;
				err = emit_pair(&out->b, label, line_no, idj.data, idj.len, c, cn, p,
						pn, &v, rs);
			}
			if (!err && pq && pq->drop && v.label == PAIR_DOES_NOT_SUPPORT)
				err = drop_pair(&out->b, label, line_no, idj.data, idj.len, c, cn, p,
						pn, &v);
			else if (!err && pq)
				err = keep_line(pq, line, n);
		}
		json_free(rec);
		if (!err)
			err = jsonl_flush(out);
		if (!err && line_buffered)
			err = jsonl_sync(out);
	}
	if (err == 0 && rc < 0)
		*read_err = -rc;
	lines_free(lines);
	buf_free(&idj);
	if (fd != STDIN_FILENO)
		close(fd);
	if (err == 0 && pq && fflush(pq->text) != 0)
		err = -errno;
	if (err)
		return err;
	err = BUF_LIT(&out->b, "{\"type\":\"summary\",\"path\":") |
	      emit_json_string(&out->b, label, strlen(label)) |
	      buf_addf(&out->b, ",\"pairs\":%zu,\"supports\":%zu,\"partially_supports\":%zu,"
		       "\"does_not_support\":%zu,\"malformed\":%zu,\"ruleset\":\"%.16s\",\"version\":\"%s\"}\n",
		       counts[0] + counts[1] + counts[2], counts[PAIR_SUPPORTS],
		       counts[PAIR_PARTIALLY_SUPPORTS], counts[PAIR_DOES_NOT_SUPPORT], malformed,
		       rs->digest, HALLUSCAN_VERSION);
	if (err == 0 && pq)
		err = quarantine_record(&out->b, label, pq, counts, shipped);
	if (err)
		return -ENOMEM;
	*bad += malformed;
	*fails += counts[PAIR_DOES_NOT_SUPPORT];
	err = jsonl_flush(out);
	return err ? err : jsonl_sync(out);
}

int cli_pairs(const struct halluscan_rules *rules, const char *const *contexts,
	      size_t n_contexts, char *const *files, size_t n_files, bool fail_never,
	      bool line_buffered, struct jsonl *out, const struct pairs_quarantine *pq)
{
	bool held = false;
	const struct db *db = api_rules_db(rules);
	struct policy *pol = NULL;
	struct pairs *pj = NULL;
	size_t bad = 0, fails = 0, i;
	struct diag d = {""};
	bool io_error = false;
	int status = EXIT_ERROR, err;

	err = api_policy_new(db->rs, contexts, n_contexts, &pol, &d);
	if (err == 0)
		err = pairs_new(db, pol, &pj);
	if (err < 0) {
		cli_warn("%s", err == -ENOMEM ? "out of memory"
			       : d.msg[0] ? d.msg
			       : err == -EINVAL ? "a word of the pairs.* lists is malformed (a kind is "
						  "word=class|class..., an abbreviation "
						  "abbreviation=word|word..., a phrase or participle at "
						  "most 24 bytes)"
			       : strerror(-err));
		goto out;
	}
	for (i = 0; i < n_files || (i == 0 && n_files == 0); i++) {
		const char *name = i < n_files ? files[i] : "-";
		int read_err;
		bool shipped = true;

		out->path = name;
		err = pairs_input(pj, db->rs, name, out, line_buffered, &bad, &fails, &read_err, pq,
				  &shipped);
		held |= !shipped;
		if (read_err) {
			cli_warn("%s: %s", name, strerror(read_err));
			io_error = true;
		}
		if (err)
			break;
	}
	if (err) {
		cli_warn(out->err ? "write error: %s" : "%s", strerror(out->err ? out->err : -err));
		goto out;
	}
	if (bad)
		cli_warn("%zu malformed line(s); see the error records", bad);
	status = io_error || bad ? EXIT_ERROR
		 : !fail_never && (fails || held) ? EXIT_FAIL : EXIT_PASS;
out:
	pairs_free(pj);
	policy_free(pol);
	return status;
}
