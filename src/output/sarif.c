// SPDX-License-Identifier: MIT
/*
 * SARIF 2.1.0, the log code scanning reads: one run whose driver lists
 * every loaded rule, then a result per finding, streamed as they come,
 * then the invocation. Locations are URIs relative to the working folder
 * (%SRCROOT%) where the path is under it, columns in code points. A
 * transcript's result is on its record's line, and its properties say
 * which message and where in its text.
 */
#include "formats.h"

#include <errno.h>
#include <string.h>

#include "common/emit.h"

#define SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

static const char *level(enum halluscan_severity s)
{
	return s >= HALLUSCAN_BLOCK ? "error" : s == HALLUSCAN_WARN ? "warning" : "note";
}

static int str(struct buf *b, const char *s)
{
	return emit_json_string(b, s, strlen(s));
}

/* Text quoted from the input: a URL's credentials redacted. */
static int quote(struct buf *b, const char *s)
{
	return emit_json_quote(b, s, strlen(s));
}

/* RFC 3986: unreserved characters and '/' as they are, every other byte %XX. */
static int uri_path(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	int err = 0;

	for (; *s && err == 0; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-._~/", c))
			err = buf_addc(b, (char)c);
		else
			err = buf_addc(b, '%') | buf_addc(b, hex[c >> 4]) | buf_addc(b, hex[c & 15]);
	}
	return err;
}

/* A JSON string holding path as a URI. */
static int uri(struct buf *b, const char *path)
{
	struct buf u = {0};
	int err = uri_path(&u, path);

	err = err ? err : emit_json_string(b, u.data ? u.data : "", u.len);
	buf_free(&u);
	return err;
}

static const char *relative(const char *path, const char *cwd)
{
	size_t n = cwd ? strlen(cwd) : 0;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (n > 0 && strncmp(path, cwd, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

/*
 * An artifactLocation: relative to %SRCROOT% where the file is under it;
 * index, when not negative, is its place in run.artifacts.
 */
static int location(struct buf *b, const struct sarif *s, const char *path, int index)
{
	const char *rel = relative(path, s->cwd);
	int err = BUF_LIT(b, "{\"uri\":") | uri(b, rel);

	if (rel[0] != '/')
		err |= BUF_LIT(b, ",\"uriBaseId\":\"%SRCROOT%\"");
	if (index >= 0)
		err |= buf_addf(b, ",\"index\":%d", index);
	return err | buf_addc(b, '}');
}

int sarif_begin(struct jsonl *w, struct sarif *s, const struct sarif_rule *rules,
		size_t n_rules)
{
	struct buf *b = &w->b;
	size_t i;
	int err = 0;

	err |= BUF_LIT(b, "{\"$schema\":\"" SCHEMA "\",\"version\":\"2.1.0\",\"runs\":[{");
	err |= BUF_LIT(b, "\"tool\":{\"driver\":{\"name\":\"halluscan\",\"version\":");
	err |= str(b, halluscan_version());
	err |= BUF_LIT(b, ",\"semanticVersion\":");
	err |= str(b, halluscan_version());
	err |= BUF_LIT(b, ",\"rules\":[");
	for (i = 0; i < n_rules; i++) {
		const struct sarif_rule *r = &rules[i];

		err |= BUF_LIT(b, "{\"id\":") | str(b, r->id);
		err |= BUF_LIT(b, ",\"shortDescription\":{\"text\":") | str(b, r->description);
		err |= BUF_LIT(b, "},\"help\":{\"text\":") | str(b, r->help);
		err |= buf_addf(b, "},\"defaultConfiguration\":{\"level\":\"%s\"}", level(r->level));
		err |= BUF_LIT(b, ",\"properties\":{\"tags\":[") | str(b, r->signal);
		err |= BUF_LIT(b, "]}}");
		if (i + 1 < n_rules)
			err |= buf_addc(b, ',');
	}
	err |= BUF_LIT(b, "]}},\"columnKind\":\"unicodeCodePoints\"");
	if (s->cwd && s->cwd[0] == '/') {
		err |= BUF_LIT(b, ",\"originalUriBaseIds\":{\"%SRCROOT%\":{\"uri\":\"file://");
		err |= uri_path(b, s->cwd);
		err |= BUF_LIT(b, "/\"}}");
	}
	if (s->config)
		err |= BUF_LIT(b, ",\"artifacts\":[{\"location\":") | location(b, s, s->config, -1) |
		       BUF_LIT(b, ",\"roles\":[\"userSpecifiedConfiguration\"]}]");
	err |= BUF_LIT(b, ",\"results\":[");
	return err ? -ENOMEM : jsonl_flush(w);
}

int sarif_result(struct jsonl *w, struct sarif *s, const struct halluscan_finding *f,
		 size_t rule_index, const char *fingerprint)
{
	struct buf *b = &w->b;
	size_t i, cps = 0;
	int err = 0;

	for (i = 0; i < f->text_len; i++)
		cps += ((unsigned char)f->text[i] & 0xC0) != 0x80;
	err |= s->results++ ? buf_addc(b, ',') : 0;
	err |= BUF_LIT(b, "{\"ruleId\":") | str(b, f->rule);
	/* A repeat of tool output (--show-grounded) is a passed check, not a problem. */
	if (f->grounded)
		err |= buf_addf(b, ",\"ruleIndex\":%zu,\"kind\":\"pass\",\"level\":\"none\"",
				rule_index);
	else
		err |= buf_addf(b, ",\"ruleIndex\":%zu,\"level\":\"%s\"", rule_index,
				level(f->severity));
	err |= BUF_LIT(b, ",\"message\":{\"text\":") | quote(b, f->message);
	err |= BUF_LIT(b, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":");
	err |= location(b, s, w->path, -1);
	if (w->message)
		/* A transcript: the record's line; a column of the message's
		 * text is none of the file's (the properties say where in it). */
		err |= buf_addf(b, ",\"region\":{\"startLine\":%llu",
				(unsigned long long)w->message->record);
	else
		err |= buf_addf(b, ",\"region\":{\"startLine\":%llu,\"startColumn\":%llu",
				(unsigned long long)f->line, (unsigned long long)f->column);
	if (!w->message && !f->text_truncated && !memchr(f->text, '\n', f->text_len))
		err |= buf_addf(b, ",\"endColumn\":%llu", (unsigned long long)(f->column + cps));
	err |= BUF_LIT(b, ",\"snippet\":{\"text\":");
	err |= emit_json_quote(b, f->text, f->text_len);
	err |= BUF_LIT(b, "}}}}]");
	if (fingerprint)
		err |= BUF_LIT(b, ",\"partialFingerprints\":{\"halluscan/v1\":") | str(b, fingerprint) |
		       buf_addc(b, '}');
	err |= BUF_LIT(b, ",\"properties\":{\"signal\":") | str(b, f->signal);
	if (w->message) {
		err |= buf_addf(b, ",\"record\":%llu,\"message_index\":%llu,\"role\":",
				(unsigned long long)w->message->record,
				(unsigned long long)w->message->index);
		err |= emit_json_string_utf8(b, w->message->role, strlen(w->message->role), NULL);
		err |= buf_addf(b, ",\"message_line\":%llu,\"message_column\":%llu",
				(unsigned long long)f->line, (unsigned long long)f->column);
	}
	if (f->n_also) {
		err |= BUF_LIT(b, ",\"also\":[");
		for (i = 0; i < f->n_also; i++)
			err |= (i ? buf_addc(b, ',') : 0) | str(b, f->also[i]);
		err |= buf_addc(b, ']');
	}
	if (f->trigger)
		err |= BUF_LIT(b, ",\"trigger\":") | str(b, f->trigger);
	err |= BUF_LIT(b, ",\"recovery\":") | quote(b, f->recovery);
	err |= BUF_LIT(b, "}}");
	return err ? -ENOMEM : jsonl_flush(w);
}

int sarif_end(struct jsonl *w, struct sarif *s, const char *const *errors, size_t n_errors)
{
	struct buf *b = &w->b;
	size_t i;
	int err = 0;

	err |= buf_addf(b, "],\"invocations\":[{\"executionSuccessful\":%s",
			n_errors ? "false" : "true");
	if (s->config) {
		/* What stderr said, and where: the file is artifact 0. */
		struct buf m = {0};

		err |= buf_addf(&m, "using configuration %s", s->config);
		err |= BUF_LIT(b, ",\"toolConfigurationNotifications\":[{\"level\":\"note\","
			       "\"message\":{\"text\":");
		err |= emit_json_string(b, m.data ? m.data : "", m.len);
		err |= BUF_LIT(b, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":");
		err |= location(b, s, s->config, 0) | BUF_LIT(b, "}}]}]");
		buf_free(&m);
	}
	if (n_errors) {
		err |= BUF_LIT(b, ",\"toolExecutionNotifications\":[");
		for (i = 0; i < n_errors; i++)
			err |= (i ? BUF_LIT(b, ",") : 0) | BUF_LIT(b, "{\"level\":\"error\",\"message\":{\"text\":") |
			       str(b, errors[i]) | BUF_LIT(b, "}}");
		err |= buf_addc(b, ']');
	}
	err |= BUF_LIT(b, "}]}]}\n");
	s->results = 0;
	return err ? -ENOMEM : jsonl_flush(w);
}
