// SPDX-License-Identifier: MIT
/* Rule packs: YAML -> rules, with every error located at file:line:col. */
#include "rules.h"
#include "rules_int.h"
#include "template.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "common/sha256.h"

const char *severity_name(enum severity s)
{
	switch (s) {
	case SEV_BLOCK:
		return "block";
	case SEV_WARN:
		return "warn";
	default:
		return "pass";
	}
}

int severity_parse(const char *name, enum severity *out)
{
	if (strcmp(name, "warn") == 0)
		*out = SEV_WARN;
	else if (strcmp(name, "block") == 0)
		*out = SEV_BLOCK;
	else
		return -EINVAL;
	return 0;
}

const char *grounding_name(enum grounding g)
{
	return grounding_names[g];
}

const char *pressure_name(enum pressure p)
{
	return p == PRESSURE_ONLY ? "only" : p == PRESSURE_STRICT ? "strict" : "always";
}

static struct where where_of(const struct pack *p, const yaml_node_t *n)
{
	return (struct where){
		.file = p->file,
		.line = (unsigned)n->start_mark.line + 1,
		.col = (unsigned)n->start_mark.column + 1,
	};
}

static int fail(const struct pack *p, const yaml_node_t *n, const char *what)
{
	struct where w = where_of(p, n);

	return diag_set(p->d, -EINVAL, "%s:%u:%u: %s", w.file, w.line, w.col, what);
}

static int failf(const struct pack *p, const yaml_node_t *n, const char *fmt, ...) PRINTF_LIKE(3, 4);

static int failf(const struct pack *p, const yaml_node_t *n, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return fail(p, n, what);
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/*
 * Scalars only; *out is a fresh copy owned by the caller, or NULL when the
 * getter fails (so that a refused pack leaves nothing half-kept).
 */
static int get_string(struct pack *p, yaml_node_t *n, const char *key, char **out)
{
	*out = NULL;
	if (n->type != YAML_SCALAR_NODE)
		return failf(p, n, "\"%s\" must be a string", key);
	*out = xstrndup(scalar(n), n->data.scalar.length);
	if (!*out)
		return -ENOMEM;
	if (strlen(*out) != n->data.scalar.length) {
		free(*out);
		*out = NULL;
		return failf(p, n, "\"%s\" contains a NUL character", key);
	}
	return 0;
}

static int get_nonempty(struct pack *p, yaml_node_t *n, const char *key, char **out)
{
	int err = get_string(p, n, key, out);

	if (err == 0 && (*out)[0] == '\0') {
		free(*out);
		*out = NULL;
		return failf(p, n, "\"%s\" must not be empty", key);
	}
	return err;
}

static int get_bool(struct pack *p, yaml_node_t *n, const char *key, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on"};
	static const char *const no[] = {"false", "no", "off"};
	size_t i;

	if (n->type != YAML_SCALAR_NODE)
		return failf(p, n, "\"%s\" must be true or false", key);
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcmp(scalar(n), yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(scalar(n), no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return failf(p, n, "\"%s\" must be true or false", key);
}

static int get_string_list(struct pack *p, yaml_node_t *n, const char *key,
			   char ***out, size_t *count)
{
	yaml_node_item_t *it;
	size_t cap = 0;
	int err;

	if (n->type == YAML_SCALAR_NODE) {
		if (grow(out, &cap, 1, sizeof(**out)) < 0)
			return -ENOMEM;
		*count = 1;
		return get_nonempty(p, n, key, &(*out)[0]);
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return failf(p, n, "\"%s\" must be a list of strings", key);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		if (grow(out, &cap, *count + 1, sizeof(**out)) < 0)
			return -ENOMEM;
		err = get_nonempty(p, node(p, *it), key, &(*out)[*count]);
		if (err < 0)
			return err;
		(*count)++;
	}
	return 0;
}

/*
 * A pattern written as a list of alternatives: r->pattern is their
 * alternation, (?:A)|(?:B)|..., and the engine compiles each one apart.
 */
static int get_alternatives(struct pack *p, yaml_node_t *n, struct rule *r)
{
	struct buf b = {0};
	size_t i;
	int err;

	err = get_string_list(p, n, "pattern", &r->alternatives, &r->n_alternatives);
	if (err < 0)
		return err;
	if (r->n_alternatives == 0)
		return fail(p, n, "\"pattern\" must not be an empty list");
	for (i = 0; i < r->n_alternatives && err == 0; i++)
		err = buf_addf(&b, "%s(?:%s)", i ? "|" : "", r->alternatives[i]);
	if (err < 0 || buf_addc(&b, '\0') < 0) {
		buf_free(&b);
		return -ENOMEM;
	}
	r->pattern = b.data;
	return 0;
}

/* One quantity class of a rule's "quantity" list. */
static int get_quantity(struct pack *p, yaml_node_t *v, struct rule *r)
{
	int k = v->type == YAML_SCALAR_NODE ? quantity_class_parse(scalar(v)) : -1;

	if (k >= 0) {
		r->quantities |= 1u << k;
		return 0;
	}
	if (v->type != YAML_SCALAR_NODE)
		return fail(p, v, "a quantity class must be a string");
	return failf(p, v, "a quantity class is one of money, percent, duration, quarter, count, "
		     "number, year, date, time, temperature, ordinal or identifier, not \"%s\"",
		     scalar(v));
}

/* "quantity: [money, percent]": the classes a number check reports. */
static int get_quantities(struct pack *p, yaml_node_t *n, struct rule *r)
{
	yaml_node_item_t *it;
	int err;

	if (n->type == YAML_SCALAR_NODE)
		return get_quantity(p, n, r);
	if (n->type != YAML_SEQUENCE_NODE)
		return fail(p, n, "\"quantity\" must be a list of quantity classes");
	if (n->data.sequence.items.top == n->data.sequence.items.start)
		return fail(p, n, "\"quantity\" must not be an empty list");
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		err = get_quantity(p, node(p, *it), r);
		if (err < 0)
			return err;
	}
	return 0;
}

static int get_examples(struct pack *p, yaml_node_t *n, const char *key,
			struct example **out, size_t *count)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *pr;
	size_t cap = 0;
	int err;

	if (n->type != YAML_SEQUENCE_NODE)
		return failf(p, n, "\"%s\" must be a list", key);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = node(p, *it);
		struct example *ex;

		if (grow(out, &cap, *count + 1, sizeof(**out)) < 0)
			return -ENOMEM;
		ex = &(*out)[*count];
		memset(ex, 0, sizeof(*ex));
		(*count)++;
		ex->at = where_of(p, e);
		if (e->type == YAML_SCALAR_NODE) {
			err = get_nonempty(p, e, key, &ex->text);
			if (err < 0)
				return err;
			continue;
		}
		if (e->type != YAML_MAPPING_NODE)
			return failf(p, e, "each of \"%s\" must be a string or {text, match}", key);
		for (pr = e->data.mapping.pairs.start; pr < e->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);

			if (k->type != YAML_SCALAR_NODE)
				return fail(p, k, "keys must be strings");
			if (strcmp(scalar(k), "text") == 0 && !ex->text)
				err = get_nonempty(p, v, "text", &ex->text);
			else if (strcmp(scalar(k), "match") == 0 && !ex->match)
				err = get_nonempty(p, v, "match", &ex->match);
			else
				err = failf(p, k, "unknown or repeated key \"%s\" in an example", scalar(k));
			if (err < 0)
				return err;
		}
		if (!ex->text)
			return fail(p, e, "an example needs \"text\"");
	}
	return 0;
}

/* "fix": a template or a list of them, checked here so that a bad one names its place. */
static int get_fix(struct pack *p, yaml_node_t *n, char ***out, size_t *count)
{
	const char *bad;
	size_t i;
	int err;

	if (n->type != YAML_SCALAR_NODE && n->type != YAML_SEQUENCE_NODE)
		return fail(p, n, "\"fix\" must be a template or a list of templates");
	err = get_string_list(p, n, "fix", out, count);
	for (i = 0; i < *count && err == 0; i++)
		if (template_check((*out)[i], &bad) < 0)
			err = failf(p, n->type == YAML_SEQUENCE_NODE ?
					       node(p, n->data.sequence.items.start[i]) : n,
				    "fix: %s at \"%.20s\" (known: {text} {approx} {may} {source} "
				    "{topic} {link_text} {drop_comma} {{ }})",
				    *bad == '\n' || *bad == '\r' ? "a line break" : "unknown placeholder",
				    bad);
	return err;
}

/* "fix_examples": a list of {text, fixed}. */
static int get_fix_examples(struct pack *p, yaml_node_t *n, struct example **out, size_t *count)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *pr;
	size_t cap = 0;
	int err = 0;

	if (n->type != YAML_SEQUENCE_NODE)
		return fail(p, n, "\"fix_examples\" must be a list of {text, fixed}");
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = node(p, *it);
		struct example *ex;

		if (grow(out, &cap, *count + 1, sizeof(**out)) < 0)
			return -ENOMEM;
		ex = &(*out)[(*count)++];
		memset(ex, 0, sizeof(*ex));
		ex->at = where_of(p, e);
		if (e->type != YAML_MAPPING_NODE)
			return fail(p, e, "each of \"fix_examples\" must be {text, fixed}");
		for (pr = e->data.mapping.pairs.start; pr < e->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);

			if (k->type != YAML_SCALAR_NODE)
				return fail(p, k, "keys must be strings");
			if (strcmp(scalar(k), "text") == 0 && !ex->text)
				err = get_nonempty(p, v, "text", &ex->text);
			else if (strcmp(scalar(k), "fixed") == 0 && !ex->match && v->type == YAML_SCALAR_NODE)
				err = (ex->match = xstrndup(scalar(v), strlen(scalar(v)))) ? 0 : -ENOMEM;
			else
				err = failf(p, k, "unknown or repeated key \"%s\" in a fix example", scalar(k));
			if (err < 0)
				return err;
		}
		if (!ex->text || !ex->match)
			return fail(p, e, "a fix example needs text and fixed");
	}
	return 0;
}

static int parse_near(struct pack *p, yaml_node_t *n, struct near *nr)
{
	yaml_node_pair_t *pr;
	char *tol = NULL, *end;
	int err = 0;

	if (n->type != YAML_MAPPING_NODE)
		return fail(p, n, "\"near\" must be a mapping of signal, tolerance, message and recovery");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
		char **field;

		if (k->type != YAML_SCALAR_NODE) {
			err = fail(p, k, "keys must be strings");
			goto out;
		}
		if (strcmp(scalar(k), "fix") == 0) {
			if (nr->fix) {
				err = fail(p, k, "key \"fix\" given twice");
				goto out;
			}
			err = get_fix(p, v, &nr->fix, &nr->n_fix);
			continue;
		}
		if (strcmp(scalar(k), "signal") == 0)
			field = &nr->signal;
		else if (strcmp(scalar(k), "message") == 0)
			field = &nr->message;
		else if (strcmp(scalar(k), "recovery") == 0)
			field = &nr->recovery;
		else if (strcmp(scalar(k), "tolerance") == 0)
			field = &tol;
		else {
			err = failf(p, k, "unknown key \"%s\" in \"near\"", scalar(k));
			goto out;
		}
		if (*field) {
			err = failf(p, k, "key \"%s\" given twice", scalar(k));
			goto out;
		}
		err = get_nonempty(p, v, scalar(k), field);
		if (err == 0 && field == &tol) {
			nr->tolerance = strtod(tol, &end);
			if (*end || !(nr->tolerance > 0 && nr->tolerance <= 1))
				err = failf(p, v, "tolerance must be a number above 0 and at most 1, not \"%s\"", tol);
		}
	}
	if (err == 0 && (!nr->signal || !nr->message || !nr->recovery || nr->tolerance == 0))
		err = fail(p, n, "\"near\" needs signal, tolerance, message and recovery");
out:
	free(tol);
	return err;
}

static int parse_rule(struct pack *p, yaml_node_t *n, struct rule *r)
{
	yaml_node_pair_t *pr;
	char *sev = NULL;
	bool have_neg = false, have_ex = false;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->at = where_of(p, n);
	if (n->type != YAML_MAPPING_NODE)
		return fail(p, n, "a rule must be a mapping");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
		const char *key;

		if (k->type != YAML_SCALAR_NODE) {
			err = fail(p, k, "keys must be strings");
			goto out;
		}
		key = scalar(k);
#define ONCE(field)                                                             \
	if (field) {                                                            \
		err = failf(p, k, "key \"%s\" given twice", key);              \
		goto out;                                                       \
	}
		if (strcmp(key, "id") == 0) {
			ONCE(r->id);
			err = get_nonempty(p, v, key, &r->id);
			if (err == 0 && strspn(r->id, "abcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(r->id))
				err = failf(p, v, "rule id \"%s\" may hold only a-z, 0-9, '.', '_' and '-'", r->id);
		} else if (strcmp(key, "signal") == 0) {
			ONCE(r->signal);
			err = get_nonempty(p, v, key, &r->signal);
			if (err == 0 && strspn(r->signal, "abcdefghijklmnopqrstuvwxyz_") != strlen(r->signal))
				err = failf(p, v, "signal \"%s\" may hold only a-z and '_'", r->signal);
		} else if (strcmp(key, "pattern") == 0) {
			ONCE(r->pattern);
			r->pattern_at = where_of(p, v);
			if (v->type == YAML_SEQUENCE_NODE)
				err = get_alternatives(p, v, r);
			else
				err = get_nonempty(p, v, key, &r->pattern);
		} else if (strcmp(key, "severity") == 0) {
			ONCE(sev);
			err = get_nonempty(p, v, key, &sev);
			if (err == 0 && severity_parse(sev, &r->severity) < 0)
				err = failf(p, v, "severity must be warn or block, not \"%s\"", sev);
		} else if (strcmp(key, "message") == 0) {
			ONCE(r->message);
			err = get_nonempty(p, v, key, &r->message);
		} else if (strcmp(key, "recovery") == 0) {
			ONCE(r->recovery);
			err = get_nonempty(p, v, key, &r->recovery);
		} else if (strcmp(key, "fix") == 0) {
			ONCE(r->fix);
			err = get_fix(p, v, &r->fix, &r->n_fix);
		} else if (strcmp(key, "fix_examples") == 0) {
			ONCE(r->fix_examples);
			err = get_fix_examples(p, v, &r->fix_examples, &r->n_fix_examples);
		} else if (strcmp(key, "caseless") == 0) {
			err = get_bool(p, v, key, &r->caseless);
		} else if (strcmp(key, "unless_sentence") == 0) {
			ONCE(r->unless_sentence);
			err = get_string_list(p, v, key, &r->unless_sentence, &r->n_unless_sentence);
		} else if (strcmp(key, "unless_before") == 0) {
			ONCE(r->unless_before);
			err = get_nonempty(p, v, key, &r->unless_before);
		} else if (strcmp(key, "unless_after") == 0) {
			ONCE(r->unless_after);
			err = get_nonempty(p, v, key, &r->unless_after);
		} else if (strcmp(key, "grounding") == 0) {
			size_t g;

			if (v->type != YAML_SCALAR_NODE) {
				err = fail(p, v, "grounding must be exact, url, number, citation, quantity, reference or none");
				goto out;
			}
			for (g = 0; g < ARRAY_SIZE(grounding_names); g++)
				if (strcmp(scalar(v), grounding_names[g]) == 0)
					break;
			if (g == ARRAY_SIZE(grounding_names)) {
				err = failf(p, v, "grounding must be exact, url, number, citation, quantity, reference or "
					    "none, not \"%s\"",
					    scalar(v));
				goto out;
			}
			r->grounding = (enum grounding)g;
		} else if (strcmp(key, "quantity") == 0) {
			ONCE(r->quantities);
			err = get_quantities(p, v, r);
		} else if (strcmp(key, "near") == 0) {
			ONCE(r->near.signal);
			err = parse_near(p, v, &r->near);
		} else if (strcmp(key, "examples") == 0) {
			ONCE(have_ex);
			have_ex = true;
			err = get_examples(p, v, key, &r->examples, &r->n_examples);
		} else if (strcmp(key, "negative_examples") == 0) {
			ONCE(have_neg);
			have_neg = true;
			err = get_examples(p, v, key, &r->negatives, &r->n_negatives);
		} else if (strcmp(key, "pressure") == 0) {
			ONCE(r->pressure);
			if (v->type == YAML_SCALAR_NODE && strcmp(scalar(v), "strict") == 0)
				r->pressure = PRESSURE_STRICT;
			else if (v->type == YAML_SCALAR_NODE && strcmp(scalar(v), "only") == 0)
				r->pressure = PRESSURE_ONLY;
			else
				err = fail(p, v, "pressure must be strict (no exemptions under pressure) "
					   "or only (reported only under pressure)");
		} else if (strcmp(key, "wake_on") == 0) {
			ONCE(r->wake_on);
			if (v->type != YAML_SCALAR_NODE || !*scalar(v) ||
			    strlen(scalar(v)) > RULE_WAKE_MAX)
				err = fail(p, v, "wake_on must be a literal of 1 to 15 bytes that every "
					   "match starts with");
			else
				err = (r->wake_on = xstrndup(scalar(v), strlen(scalar(v)))) ? 0 : -ENOMEM;
		} else if (strcmp(key, "extend") == 0) {
			if (v->type == YAML_SCALAR_NODE && strcmp(scalar(v), "url") == 0)
				r->extend = EXTEND_URL;
			else
				err = fail(p, v, "extend must be url (the match runs to the end of "
					   "the URL that starts there)");
		} else if (strcmp(key, "description") == 0) {
			if (v->type != YAML_SCALAR_NODE)
				err = fail(p, v, "\"description\" must be a string");
		} else {
			err = failf(p, k, "unknown key \"%s\" in a rule", key);
		}
#undef ONCE
	}
	if (err < 0)
		goto out;
	if (!r->id) {
		err = fail(p, n, "a rule needs \"id\"");
		goto out;
	}
#define NEED(field, name)                                                          \
	if (!(field)) {                                                            \
		err = failf(p, n, "rule \"%s\" needs \"" name "\"", r->id);    \
		goto out;                                                          \
	}
	NEED(r->signal, "signal");
	if (r->grounding == GROUNDING_QUANTITY) {
		NEED(r->quantities, "quantity");
		if (r->pattern) {
			err = failf(p, n, "rule \"%s\": a number check has no \"pattern\": the number "
				    "lexer finds quantities, \"quantity\" says which", r->id);
			goto out;
		}
	} else {
		/* A reference rule may have none: the recognizer reads list items
		 * at a line's start itself (claims_check_rules says which may). */
		if (r->grounding == GROUNDING_ATTRIBUTE && r->pattern) {
			err = failf(p, n, "rule \"%s\": an attribute check has no \"pattern\": the "
				    "words of the records' keys are what it looks for", r->id);
			goto out;
		}
		if (r->grounding == GROUNDING_CODE && r->pattern) {
			err = failf(p, n, "rule \"%s\": a code check has no \"pattern\": the codes "
				    "are found where numbers are (ground_next_code())", r->id);
			goto out;
		}
		if (r->grounding != GROUNDING_REFERENCE && r->grounding != GROUNDING_ATTRIBUTE &&
		    r->grounding != GROUNDING_CODE) {
			NEED(r->pattern, "pattern");
		}
		if (r->quantities) {
			err = failf(p, n, "rule \"%s\": \"quantity\" goes with grounding: quantity", r->id);
			goto out;
		}
	}
	NEED(r->severity, "severity");
	NEED(r->message, "message");
	NEED(r->recovery, "recovery");
	NEED(r->n_examples, "examples");
	NEED(have_neg, "negative_examples");
	if (r->n_fix_examples && !r->n_fix && !r->near.n_fix) {
		err = failf(p, n, "rule \"%s\": \"fix_examples\" need \"fix\"", r->id);
		goto out;
	}
#undef NEED
	if (r->extend && !r->pattern)
		err = failf(p, n, "rule \"%s\": \"extend\" needs a \"pattern\" to find the starts", r->id);
	if (r->near.signal && r->grounding != GROUNDING_QUANTITY && r->grounding != GROUNDING_REFERENCE)
		err = failf(p, n, "rule \"%s\": \"near\" goes with grounding: quantity or reference", r->id);
	if (r->pressure == PRESSURE_STRICT && !r->unless_before && !r->unless_after &&
	    !r->n_unless_sentence)
		err = failf(p, n, "rule \"%s\": pressure: strict turns exemptions off, and it has none",
			    r->id);
out:
	free(sev);
	return err;
}

static int parse_span(struct pack *p, yaml_node_t *n, struct span_delim *s)
{
	yaml_node_pair_t *pr;
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->at = where_of(p, n);
	if (n->type != YAML_MAPPING_NODE)
		return fail(p, n, "a span must be a mapping of name, open and close");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
		char **field = NULL;

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "keys must be strings");
		if (strcmp(scalar(k), "name") == 0)
			field = &s->name;
		else if (strcmp(scalar(k), "open") == 0)
			field = &s->open;
		else if (strcmp(scalar(k), "close") == 0)
			field = &s->close;
		else if (strcmp(scalar(k), "description") == 0)
			continue;
		else
			return failf(p, k, "unknown key \"%s\" in a span", scalar(k));
		if (*field)
			return failf(p, k, "key \"%s\" given twice", scalar(k));
		err = get_nonempty(p, v, scalar(k), field);
		if (err == 0 && field != &s->name && strpbrk(*field, "\r\n"))
			err = fail(p, v, "a span delimiter may not hold a line break");
	}
	if (err < 0)
		return err;
	if (!s->name || !s->open || !s->close)
		return fail(p, n, "a span needs name, open and close");
	return 0;
}

/* A named list of words: data a decision in C reads (refs.h names them). */
static int parse_wordlist(struct pack *p, yaml_node_t *n, struct wordlist *l)
{
	yaml_node_pair_t *pr;
	int err = 0;

	memset(l, 0, sizeof(*l));
	l->at = where_of(p, n);
	if (n->type != YAML_MAPPING_NODE)
		return fail(p, n, "a list must be a mapping of name and words");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "keys must be strings");
		if (strcmp(scalar(k), "name") == 0 && !l->name)
			err = get_nonempty(p, v, "name", &l->name);
		else if (strcmp(scalar(k), "words") == 0 && !l->words)
			err = get_string_list(p, v, "words", &l->words, &l->n_words);
		else if (strcmp(scalar(k), "description") != 0)
			return failf(p, k, "unknown or repeated key \"%s\" in a list", scalar(k));
	}
	if (err < 0)
		return err;
	if (!l->name)
		return fail(p, n, "a list needs \"name\"");
	if (!l->words)
		return failf(p, n, "list \"%s\" needs \"words\"", l->name);
	return 0;
}

static int parse_context(struct pack *p, yaml_node_t *n, struct context *c)
{
	yaml_node_pair_t *pr;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->at = where_of(p, n);
	if (n->type != YAML_MAPPING_NODE)
		return fail(p, n, "a context must be a mapping of name and escalate");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "keys must be strings");
		if (strcmp(scalar(k), "name") == 0 && !c->name)
			err = get_nonempty(p, v, "name", &c->name);
		else if (strcmp(scalar(k), "description") == 0 && !c->description)
			err = get_string(p, v, "description", &c->description);
		else if (strcmp(scalar(k), "escalate") == 0 && !c->escalate) {
			if (v->type == YAML_SEQUENCE_NODE && v->data.sequence.items.start == v->data.sequence.items.top)
				continue; /* an explicit empty list: the context escalates nothing */
			err = get_string_list(p, v, "escalate", &c->escalate, &c->n_escalate);
		} else
			return failf(p, k, "unknown or repeated key \"%s\" in a context", scalar(k));
	}
	if (err < 0)
		return err;
	if (!c->name)
		return fail(p, n, "a context needs \"name\"");
	return 0;
}

/* A pattern or a list of them, as their alternation. */
static int get_pattern(struct pack *p, yaml_node_t *n, char **out)
{
	struct buf b = {0};
	char **alt = NULL;
	size_t n_alt = 0, i;
	int err;

	if (n->type != YAML_SEQUENCE_NODE)
		return get_nonempty(p, n, "pattern", out);
	err = get_string_list(p, n, "pattern", &alt, &n_alt);
	if (err == 0 && n_alt == 0)
		err = fail(p, n, "\"pattern\" must not be an empty list");
	for (i = 0; i < n_alt && err == 0; i++)
		err = buf_addf(&b, "%s(?:%s)", i ? "|" : "", alt[i]);
	if (err == 0 && buf_addc(&b, '\0') < 0)
		err = -ENOMEM;
	for (i = 0; i < n_alt; i++)
		free(alt[i]);
	free(alt);
	if (err < 0) {
		buf_free(&b);
		return err;
	}
	*out = b.data;
	return 0;
}

static int parse_trigger(struct pack *p, yaml_node_t *n, struct trigger *t)
{
	yaml_node_pair_t *pr;
	bool have_neg = false, have_ex = false;
	int err = 0;

	memset(t, 0, sizeof(*t));
	t->at = where_of(p, n);
	if (n->type != YAML_MAPPING_NODE)
		return fail(p, n, "a trigger must be a mapping of name, pattern, escalate and examples");
	for (pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
		const char *key;

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "keys must be strings");
		key = scalar(k);
		if (strcmp(key, "name") == 0 && !t->name) {
			err = get_nonempty(p, v, key, &t->name);
			if (err == 0 && strspn(t->name, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
						strlen(t->name))
				err = failf(p, v, "trigger name \"%s\" may hold only a-z, 0-9, '_' and '-'",
					    t->name);
		} else if (strcmp(key, "description") == 0 && !t->description) {
			err = get_string(p, v, key, &t->description);
		} else if (strcmp(key, "pattern") == 0 && !t->pattern) {
			t->pattern_at = where_of(p, v);
			err = get_pattern(p, v, &t->pattern);
		} else if (strcmp(key, "escalate") == 0 && !t->escalate) {
			err = get_string_list(p, v, key, &t->escalate, &t->n_escalate);
		} else if (strcmp(key, "examples") == 0 && !have_ex) {
			have_ex = true;
			err = get_examples(p, v, key, &t->examples, &t->n_examples);
		} else if (strcmp(key, "negative_examples") == 0 && !have_neg) {
			have_neg = true;
			err = get_examples(p, v, key, &t->negatives, &t->n_negatives);
		} else {
			return failf(p, k, "unknown or repeated key \"%s\" in a trigger", key);
		}
	}
	if (err < 0)
		return err;
	if (!t->name)
		return fail(p, n, "a trigger needs \"name\"");
	if (!t->pattern || !t->n_escalate || !t->n_examples || !have_neg)
		return failf(p, n, "trigger \"%s\" needs pattern, escalate, examples and "
			     "negative_examples", t->name);
	return 0;
}

static int parse_trigger_v(struct pack *p, yaml_node_t *n, void *out)
{
	return parse_trigger(p, n, out);
}

/* Applies parse to every item of a top-level list, appending to *arr. */
static int parse_list(struct pack *p, yaml_node_t *n, const char *key, void *arr,
		      size_t *count, size_t *cap, size_t elem,
		      int (*parse)(struct pack *, yaml_node_t *, void *))
{
	yaml_node_item_t *it;
	char **base = arr;
	int err;

	if (n->type != YAML_SEQUENCE_NODE)
		return failf(p, n, "\"%s\" must be a list", key);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		if (grow(arr, cap, *count + 1, elem) < 0)
			return -ENOMEM;
		err = parse(p, node(p, *it), *base + *count * elem);
		(*count)++; /* counted even on failure, so that ruleset_free frees it */
		if (err < 0)
			return err;
	}
	return 0;
}

static int parse_rule_v(struct pack *p, yaml_node_t *n, void *out)
{
	return parse_rule(p, n, out);
}

static int parse_span_v(struct pack *p, yaml_node_t *n, void *out)
{
	return parse_span(p, n, out);
}

static int parse_context_v(struct pack *p, yaml_node_t *n, void *out)
{
	return parse_context(p, n, out);
}

static int parse_wordlist_v(struct pack *p, yaml_node_t *n, void *out)
{
	return parse_wordlist(p, n, out);
}

static int parse_pack(struct pack *p)
{
	struct ruleset *rs = p->rs;
	yaml_node_t *root = yaml_document_get_root_node(&p->doc);
	yaml_node_pair_t *pr;
	int err = 0;

	if (!root)
		return diag_set(p->d, -EINVAL, "%s: empty rule pack", p->file);
	if (root->type != YAML_MAPPING_NODE)
		return fail(p, root, "a rule pack must be a mapping with rules, spans, contexts or triggers");
	for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top && err == 0; pr++) {
		yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);

		if (k->type != YAML_SCALAR_NODE)
			return fail(p, k, "keys must be strings");
		if (strcmp(scalar(k), "rules") == 0)
			err = parse_list(p, v, "rules", &rs->rules, &rs->n_rules, &rs->cap_rules,
					 sizeof(struct rule), parse_rule_v);
		else if (strcmp(scalar(k), "spans") == 0)
			err = parse_list(p, v, "spans", &rs->spans, &rs->n_spans, &rs->cap_spans,
					 sizeof(struct span_delim), parse_span_v);
		else if (strcmp(scalar(k), "contexts") == 0)
			err = parse_list(p, v, "contexts", &rs->contexts, &rs->n_contexts,
					 &rs->cap_contexts, sizeof(struct context), parse_context_v);
		else if (strcmp(scalar(k), "triggers") == 0)
			err = parse_list(p, v, "triggers", &rs->triggers, &rs->n_triggers,
					 &rs->cap_triggers, sizeof(struct trigger), parse_trigger_v);
		else if (strcmp(scalar(k), "lists") == 0)
			err = parse_list(p, v, "lists", &rs->lists, &rs->n_lists, &rs->cap_lists,
					 sizeof(struct wordlist), parse_wordlist_v);
		else if (strcmp(scalar(k), "description") != 0)
			err = failf(p, k, "unknown key \"%s\" (a pack holds rules, spans, contexts, "
				    "triggers and lists)", scalar(k));
	}
	return err;
}

struct ruleset *ruleset_new(void)
{
	return calloc(1, sizeof(struct ruleset));
}

static void free_strings(const struct ruleset *rs, char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		str_free(rs, v[i]);
	str_free(rs, (char *)v); /* the built-in lists' words lie in an arena too */
}

void ruleset_free(struct ruleset *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; i < rs->n_rules; i++) {
		struct rule *r = &rs->rules[i];

		str_free(rs, r->id);
		str_free(rs, r->signal);
		str_free(rs, r->pattern);
		free_strings(rs, r->alternatives, r->n_alternatives);
		str_free(rs, r->message);
		str_free(rs, r->recovery);
		str_free(rs, r->unless_before);
		str_free(rs, r->wake_on);
		str_free(rs, r->unless_after);
		str_free(rs, r->near.signal);
		str_free(rs, r->near.message);
		str_free(rs, r->near.recovery);
		free_strings(rs, r->fix, r->n_fix);
		free_strings(rs, r->near.fix, r->near.n_fix);
		free_strings(rs, r->unless_sentence, r->n_unless_sentence);
		free_example_arrays(rs, r);
	}
	for (i = 0; i < rs->n_spans; i++) {
		str_free(rs, rs->spans[i].name);
		str_free(rs, rs->spans[i].open);
		str_free(rs, rs->spans[i].close);
	}
	for (i = 0; i < rs->n_contexts; i++) {
		str_free(rs, rs->contexts[i].name);
		str_free(rs, rs->contexts[i].description);
		free_strings(rs, rs->contexts[i].escalate, rs->contexts[i].n_escalate);
	}
	for (i = 0; i < rs->n_triggers; i++) {
		struct trigger *t = &rs->triggers[i];

		str_free(rs, t->name);
		str_free(rs, t->description);
		str_free(rs, t->pattern);
		free_strings(rs, t->escalate, t->n_escalate);
		free_examples(rs, t->examples, t->n_examples);
		free_examples(rs, t->negatives, t->n_negatives);
	}
	for (i = 0; i < rs->n_lists; i++) {
		str_free(rs, rs->lists[i].name);
		free_strings(rs, rs->lists[i].words, rs->lists[i].n_words);
	}
	free(rs->rules);
	free(rs->spans);
	free(rs->contexts);
	free(rs->triggers);
	free(rs->lists);
	free(rs->signals); /* the strings belong to the rules */
	free_strings(rs, rs->files, rs->n_files);
	for (i = 0; i < rs->n_arenas; i++)
		if (!rs->arenas[i].borrowed)
			free(rs->arenas[i].data);
	free(rs->arenas);
	free(rs);
}

/* The place of byte off, as libyaml counts: lines from 1, columns in characters from 1. */
static yaml_mark_t mark_of(const char *data, size_t off)
{
	yaml_mark_t m = {.index = off};
	size_t i;

	for (i = 0; i < off; i++) {
		if (data[i] == '\n') {
			m.line++;
			m.column = 0;
		} else if (((unsigned char)data[i] & 0xc0) != 0x80) {
			m.column++;
		}
	}
	return m;
}

int ruleset_add_buffer(struct ruleset *rs, const char *name, const char *data,
		       size_t len, struct diag *d)
{
	struct pack p = {.rs = rs, .d = d};
	struct loader *ld = NULL;
	yaml_node_t *extra;
	char *file;
	int err = 0;

	rs->digest_loaded = rs->built_checked = false;
	if (grow(&rs->files, &rs->cap_files, rs->n_files + 1, sizeof(char *)) < 0)
		return -ENOMEM;
	file = strdup(name);
	if (!file)
		return -ENOMEM;
	rs->files[rs->n_files++] = file;
	p.file = file;

	if (len > PACK_MAX_BYTES)
		return fail_at(&p, mark_of(data, PACK_MAX_BYTES), "a rule pack may be at most %u bytes",
			       PACK_MAX_BYTES);
	ld = loader_new(data, len);
	if (!ld)
		return -ENOMEM;
	err = load_document(&p, ld);
	if (err < 0)
		goto out;
	err = parse_pack(&p);
	yaml_document_delete(&p.doc);
	if (err < 0)
		goto out;
	/* A second document in one pack is almost always a mistake. */
	err = load_document(&p, ld);
	if (err < 0)
		goto out;
	extra = yaml_document_get_root_node(&p.doc);
	if (extra)
		err = fail(&p, extra, "a rule pack holds one YAML document");
	yaml_document_delete(&p.doc);
out:
	loader_free(ld);
	return err;
}

static int is_pack_name(const char *n)
{
	size_t len = strlen(n);

	if (n[0] == '.')
		return 0;
	return (len > 5 && strcmp(n + len - 5, ".yaml") == 0) ||
	       (len > 4 && strcmp(n + len - 4, ".yml") == 0);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(struct ruleset *rs, const char *path, struct diag *d)
{
	char *data;
	size_t len;
	int err;

	/* One byte past the limit is enough to refuse it. */
	err = read_file_max(path, PACK_MAX_BYTES + 1, &data, &len);
	if (err < 0)
		return diag_set(d, err, "%s: %s", path, strerror(-err));
	err = ruleset_add_buffer(rs, path, data, len, d);
	free(data);
	return err;
}

int ruleset_add_path(struct ruleset *rs, const char *path, struct diag *d)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	DIR *dir;
	int err = 0;

	if (stat(path, &st) < 0)
		return diag_set(d, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return add_file(rs, path, d);
	dir = opendir(path);
	if (!dir)
		return diag_set(d, -errno, "%s: %s", path, strerror(errno));
	while ((de = readdir(dir))) {
		if (!is_pack_name(de->d_name))
			continue;
		if (grow(&names, &cap, n + 1, sizeof(*names)) < 0) {
			err = -ENOMEM;
			goto out;
		}
		if (asprintf(&names[n], "%s/%s", path, de->d_name) < 0) {
			err = -ENOMEM;
			goto out;
		}
		n++;
	}
	if (n == 0) {
		err = diag_set(d, -ENOENT, "%s: no *.yaml rule packs in this directory", path);
		goto out;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n && err == 0; i++)
		err = add_file(rs, names[i], d);
out:
	closedir(dir);
	free_strings(NULL, names, n);
	return err;
}

int ruleset_add_builtin_yaml(struct ruleset *rs, struct diag *d)
{
	size_t i;
	int err;

	for (i = 0; i < builtin_packs_count; i++) {
		err = ruleset_add_buffer(rs, builtin_packs[i].name, builtin_packs[i].data,
					 builtin_packs[i].len, d);
		if (err < 0)
			return err;
	}
	return 0;
}

const struct wordlist *ruleset_list(const struct ruleset *rs, const char *name)
{
	size_t i;

	for (i = 0; i < rs->n_lists; i++)
		if (strcmp(rs->lists[i].name, name) == 0)
			return &rs->lists[i];
	return NULL;
}

const struct context *ruleset_context(const struct ruleset *rs, const char *name)
{
	size_t i;

	for (i = 0; i < rs->n_contexts; i++)
		if (strcmp(rs->contexts[i].name, name) == 0)
			return &rs->contexts[i];
	return NULL;
}

int ruleset_signal_index(const struct ruleset *rs, const char *signal)
{
	size_t i;

	for (i = 0; i < rs->n_signals; i++)
		if (strcmp(rs->signals[i], signal) == 0)
			return (int)i;
	return -1;
}

/* ruleset_finish() less the digest, which rules_codec.c makes (it hashes the binary form). */
int ruleset_check(struct ruleset *rs, struct diag *d)
{
	/* The program's own rules were checked by the build that made them (mkdb). */
	bool check = !rs->built_checked;
	/* Their image came with its signals and the rules' indexes into them
	 * (ruleset_add_builtin_image()), as this loop makes them: a strcmp()
	 * of each rule's signal with those before was 4% of a 4 KB message. */
	bool indexed = rs->built_checked && rs->n_signals > 0;
	size_t i, j;

	if (rs->n_rules == 0)
		return diag_set(d, -EINVAL, "no rules loaded");
	for (i = 0; i < rs->n_rules && !indexed; i++) {
		const struct rule *r = &rs->rules[i];

		for (j = 0; check && j < i; j++)
			if (strcmp(rs->rules[j].id, r->id) == 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: rule id \"%s\" is already defined at %s:%u:%u",
						r->at.file, r->at.line, r->at.col, r->id,
						rs->rules[j].at.file, rs->rules[j].at.line, rs->rules[j].at.col);
		for (j = 0; j < 2; j++) {
			char *sig = j == 0 ? r->signal : r->near.signal;

			if (!sig || ruleset_signal_index(rs, sig) >= 0)
				continue;
			if (grow(&rs->signals, &rs->cap_signals, rs->n_signals + 1, sizeof(char *)) < 0)
				return -ENOMEM;
			rs->signals[rs->n_signals++] = sig;
		}
		rs->rules[i].signal_index = (size_t)ruleset_signal_index(rs, r->signal);
		if (r->near.signal)
			rs->rules[i].near.signal_index = (size_t)ruleset_signal_index(rs, r->near.signal);
	}
	for (i = 0; i < rs->n_spans; i++)
		for (j = 0; check && j < i; j++)
			if (strcmp(rs->spans[i].open, rs->spans[j].open) == 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: span opener \"%s\" is already defined",
						rs->spans[i].at.file, rs->spans[i].at.line,
						rs->spans[i].at.col, rs->spans[i].open);
	for (i = 0; i < rs->n_contexts; i++) {
		const struct context *c = &rs->contexts[i];

		for (j = 0; check && j < i; j++)
			if (strcmp(rs->contexts[j].name, c->name) == 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: context \"%s\" is already defined",
						c->at.file, c->at.line, c->at.col, c->name);
		for (j = 0; check && j < c->n_escalate; j++)
			if (ruleset_signal_index(rs, c->escalate[j]) < 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: context \"%s\" escalates unknown signal \"%s\"",
						c->at.file, c->at.line, c->at.col, c->name, c->escalate[j]);
	}
	for (i = 0; i < rs->n_triggers; i++) {
		const struct trigger *t = &rs->triggers[i];

		for (j = 0; check && j < i; j++)
			if (strcmp(rs->triggers[j].name, t->name) == 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: trigger \"%s\" is already defined",
						t->at.file, t->at.line, t->at.col, t->name);
		for (j = 0; check && j < t->n_escalate; j++)
			if (ruleset_signal_index(rs, t->escalate[j]) < 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: trigger \"%s\" escalates unknown signal \"%s\"",
						t->at.file, t->at.line, t->at.col, t->name, t->escalate[j]);
	}
	for (i = 0; i < rs->n_lists; i++)
		for (j = 0; check && j < i; j++)
			if (strcmp(rs->lists[j].name, rs->lists[i].name) == 0)
				return diag_set(d, -EINVAL, "%s:%u:%u: list \"%s\" is already defined at %s:%u:%u",
						rs->lists[i].at.file, rs->lists[i].at.line,
						rs->lists[i].at.col, rs->lists[i].name, rs->lists[j].at.file,
						rs->lists[j].at.line, rs->lists[j].at.col);
	return 0;
}
