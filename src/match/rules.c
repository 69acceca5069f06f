// SPDX-License-Identifier: MIT
/*
 * Rule packs: YAML -> rules, with every error located at file:line:col;
 * and a ruleset's binary form, which the program loads without either.
 */
#include "rules.h"
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

/* The state of one pack being parsed. */
struct pack {
	struct ruleset *rs;
	const char *file;
	yaml_document_t doc;
	struct diag *d;
};

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

static const char *const grounding_names[] = {
	[GROUNDING_EXACT] = "exact",
	[GROUNDING_URL] = "url",
	[GROUNDING_NUMBER] = "number",
	[GROUNDING_CITATION] = "citation",
	[GROUNDING_NONE] = "none",
	[GROUNDING_QUANTITY] = "quantity",
	[GROUNDING_REFERENCE] = "reference",
	[GROUNDING_ATTRIBUTE] = "attribute",
	[GROUNDING_CODE] = "code",
};

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

static yaml_node_t *node(struct pack *p, int idx)
{
	return yaml_document_get_node(&p->doc, idx);
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

/* Frees a string of rs (NULL: of none) unless one of its arenas holds it. */
static void str_free(const struct ruleset *rs, char *p)
{
	uintptr_t u = (uintptr_t)p;
	size_t i;

	for (i = 0; rs && i < rs->n_arenas; i++)
		if (u >= (uintptr_t)rs->arenas[i].data &&
		    u < (uintptr_t)rs->arenas[i].data + rs->arenas[i].len)
			return;
	free(p);
}

static void free_strings(const struct ruleset *rs, char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		str_free(rs, v[i]);
	free(v);
}

static void free_examples(const struct ruleset *rs, struct example *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		str_free(rs, e[i].text);
		str_free(rs, e[i].match);
	}
	free(e);
}

static void free_example_arrays(const struct ruleset *rs, struct rule *r)
{
	free_examples(rs, r->examples, r->n_examples);
	free_examples(rs, r->negatives, r->n_negatives);
	free_examples(rs, r->fix_examples, r->n_fix_examples);
	r->examples = r->negatives = r->fix_examples = NULL;
	r->n_examples = r->n_negatives = r->n_fix_examples = 0;
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

/*
 * ---- the document, composed from libyaml's events within limits ----
 *
 * libyaml's loader shares an aliased node, but the walk above copies it at
 * every use: 76 KB of aliases made 236 MB of copies, 38 KB of aliases of
 * a rule that holds aliases 1 GB. Its scanner is quadratic in nesting
 * (100k levels of '[': 22 s), its loader in anchors (50k: 18 s), and a
 * loaded node costs about 160 bytes. So the document is composed here, from the events,
 * counting as it goes what the walk will do, and a pack stops at the
 * event that passes a limit: a hostile pack costs what its first
 * PACK_MAX_* events cost. (A first pass over the events before
 * yaml_parser_load() would parse every pack twice.)
 */
struct anchor {
	char *name;
	int node;
	yaml_mark_t at;
	size_t nodes, text; /* what an alias of it stands for, once it is closed */
	bool open;          /* a collection not yet ended: an alias of it is a cycle */
};

/* A collection being composed. */
struct frame {
	int node;
	int key;            /* a mapping's key waiting for its value, or 0 */
	bool mapping;
	size_t anchor;      /* index + 1, or 0 */
	size_t nodes, text; /* the counts before it */
};

/* A parse: the counts run over every document of the pack. */
struct loader {
	yaml_parser_t parser;
	struct anchor anchor[PACK_MAX_ANCHORS];
	size_t n_anchors, first; /* first: the current document's first anchor */
	size_t n_aliases, nodes, text, depth;
	struct frame open[PACK_MAX_DEPTH];
};

static int fail_at(const struct pack *p, yaml_mark_t m, const char *fmt, ...) PRINTF_LIKE(3, 4);

static int fail_at(const struct pack *p, yaml_mark_t m, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s", p->file, m.line + 1, m.column + 1, what);
}

/* Counts nodes and text at mark m; -EINVAL past a limit. */
static int count(const struct pack *p, struct loader *ld, yaml_mark_t m, size_t nodes, size_t text)
{
	ld->nodes += nodes;
	ld->text += text;
	if (ld->nodes > PACK_MAX_NODES)
		return fail_at(p, m, "a rule pack may hold at most %u nodes, an alias counted as what it names",
			       PACK_MAX_NODES);
	if (ld->text > PACK_MAX_TEXT)
		return fail_at(p, m, "a rule pack may hold at most %u bytes of text, an alias counted as what it names",
			       PACK_MAX_TEXT);
	return 0;
}

/* The current document's anchor of that name, or NULL. */
static struct anchor *find_anchor(struct loader *ld, const yaml_char_t *name)
{
	size_t i;

	for (i = ld->first; i < ld->n_anchors; i++)
		if (strcmp(ld->anchor[i].name, (const char *)name) == 0)
			return &ld->anchor[i];
	return NULL;
}

/* Puts node id in the open collection (the first node is the root). */
static int attach(struct pack *p, struct loader *ld, int id)
{
	struct frame *f;
	int ok;

	if (ld->depth == 0)
		return 0;
	f = &ld->open[ld->depth - 1];
	if (f->mapping && !f->key) {
		f->key = id;
		return 0;
	}
	if (f->mapping) {
		ok = yaml_document_append_mapping_pair(&p->doc, f->node, f->key, id);
		f->key = 0;
	} else {
		ok = yaml_document_append_sequence_item(&p->doc, f->node, id);
	}
	return ok ? 0 : -ENOMEM;
}

static int compose_alias(struct pack *p, struct loader *ld, const yaml_event_t *ev)
{
	struct anchor *a = find_anchor(ld, ev->data.alias.anchor);
	int err;

	if (++ld->n_aliases > PACK_MAX_ALIASES)
		return fail_at(p, ev->start_mark, "a rule pack may hold at most %u aliases", PACK_MAX_ALIASES);
	if (!a)
		return fail_at(p, ev->start_mark, "found undefined alias");
	if (a->open)
		return fail_at(p, ev->start_mark, "alias \"%s\" names a node that holds it", a->name);
	err = count(p, ld, ev->start_mark, a->nodes, a->text);
	if (err < 0)
		return err;
	return attach(p, ld, a->node);
}

/* A scalar, or the start of a list or a mapping: counted, made, put in place and named. */
static int compose_node(struct pack *p, struct loader *ld, const yaml_event_t *ev)
{
	size_t nodes = ld->nodes, text = ld->text, len = 0;
	const yaml_char_t *name;
	struct anchor *a;
	yaml_node_t *n;
	bool collection = ev->type != YAML_SCALAR_EVENT;
	int id, err;

	if (ev->type == YAML_SCALAR_EVENT) {
		name = ev->data.scalar.anchor;
		len = ev->data.scalar.length;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		name = ev->data.sequence_start.anchor;
	} else {
		name = ev->data.mapping_start.anchor;
	}
	err = count(p, ld, ev->start_mark, 1, len);
	if (err < 0)
		return err;
	if (collection && ld->depth == PACK_MAX_DEPTH)
		return fail_at(p, ev->start_mark, "a rule pack may nest at most %u levels", PACK_MAX_DEPTH);
	if (name && ld->n_anchors == PACK_MAX_ANCHORS)
		return fail_at(p, ev->start_mark, "a rule pack may hold at most %u anchors", PACK_MAX_ANCHORS);
	if (name && (a = find_anchor(ld, name)))
		return fail_at(p, ev->start_mark, "anchor \"%s\" is already defined at %s:%zu:%zu", a->name,
			       p->file, a->at.line + 1, a->at.column + 1);
	/* Node sizes are ints in libyaml: the limits keep them far below. */
	if (ev->type == YAML_SCALAR_EVENT)
		id = yaml_document_add_scalar(&p->doc, ev->data.scalar.tag, ev->data.scalar.value,
					      (int)len, ev->data.scalar.style);
	else if (ev->type == YAML_SEQUENCE_START_EVENT)
		id = yaml_document_add_sequence(&p->doc, ev->data.sequence_start.tag,
						ev->data.sequence_start.style);
	else
		id = yaml_document_add_mapping(&p->doc, ev->data.mapping_start.tag,
					       ev->data.mapping_start.style);
	if (!id)
		return -ENOMEM;
	n = yaml_document_get_node(&p->doc, id);
	n->start_mark = ev->start_mark;
	n->end_mark = ev->end_mark;
	err = attach(p, ld, id);
	if (err < 0)
		return err;
	if (name) {
		a = &ld->anchor[ld->n_anchors];
		a->name = strdup((const char *)name);
		if (!a->name)
			return -ENOMEM;
		ld->n_anchors++;
		a->node = id;
		a->at = ev->start_mark;
		a->nodes = 1;
		a->text = len;
		a->open = collection;
	}
	if (collection)
		ld->open[ld->depth++] = (struct frame){
			.node = id,
			.mapping = ev->type == YAML_MAPPING_START_EVENT,
			.anchor = name ? ld->n_anchors : 0,
			.nodes = nodes,
			.text = text,
		};
	return 0;
}

static void compose_end(struct loader *ld)
{
	struct frame *f;

	if (ld->depth == 0)
		return;
	f = &ld->open[--ld->depth];
	if (f->anchor) {
		struct anchor *a = &ld->anchor[f->anchor - 1];

		a->nodes = ld->nodes - f->nodes;
		a->text = ld->text - f->text;
		a->open = false;
	}
}

/*
 * Composes the next document into p->doc, which the caller deletes after
 * a success; at the end of the stream it is empty (no root node).
 */
static int load_document(struct pack *p, struct loader *ld)
{
	yaml_parser_t *parser = &ld->parser;
	bool started = false, done = false;
	yaml_event_t ev;
	int err = 0;

	while (!done && err == 0) {
		if (!yaml_parser_parse(parser, &ev)) {
			err = diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s%s%s", p->file,
				       parser->problem_mark.line + 1, parser->problem_mark.column + 1,
				       parser->problem ? parser->problem : "invalid YAML",
				       parser->context ? " " : "", parser->context ? parser->context : "");
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (!yaml_document_initialize(&p->doc, NULL, NULL, NULL, 1, 1))
				err = -ENOMEM;
			started = err == 0;
			ld->first = ld->n_anchors; /* an anchor names nodes of its own document */
			ld->depth = 0;
			break;
		case YAML_ALIAS_EVENT:
			err = compose_alias(p, ld, &ev);
			break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			err = compose_node(p, ld, &ev);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			compose_end(ld);
			break;
		case YAML_DOCUMENT_END_EVENT:
			done = true;
			break;
		default: /* the end of the stream (also when asked past it): no root */
			if (!started && !yaml_document_initialize(&p->doc, NULL, NULL, NULL, 1, 1))
				err = -ENOMEM;
			started = err == 0;
			done = true;
			break;
		}
		yaml_event_delete(&ev);
	}
	if (err < 0 && started)
		yaml_document_delete(&p->doc);
	return err;
}

static struct loader *loader_new(const char *data, size_t len)
{
	struct loader *ld = calloc(1, sizeof(*ld));

	if (!ld)
		return NULL;
	if (!yaml_parser_initialize(&ld->parser)) {
		free(ld);
		return NULL;
	}
	yaml_parser_set_input_string(&ld->parser, (const unsigned char *)data, len);
	return ld;
}

static void loader_free(struct loader *ld)
{
	size_t i;

	if (!ld)
		return;
	yaml_parser_delete(&ld->parser);
	for (i = 0; i < ld->n_anchors; i++)
		free(ld->anchor[i].name);
	free(ld);
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

static void digest_str(struct sha256 *h, const char *s)
{
	/* Length-prefixed so that field boundaries cannot be forged. */
	uint64_t n = s ? strlen(s) + 1 : 0;

	sha256_update(h, &n, sizeof(n));
	if (s)
		sha256_update(h, s, n - 1);
}

static void digest_examples(struct sha256 *h, const struct example *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		digest_str(h, e[i].text);
		digest_str(h, e[i].match);
	}
}

static void compute_digest(const struct ruleset *rs, char out_hex[65])
{
	unsigned char out[32];
	struct sha256 h;
	size_t i, j;

	sha256_init(&h);
	digest_str(&h, "halluscan-ruleset-1");
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		digest_str(&h, r->id);
		digest_str(&h, r->signal);
		digest_str(&h, r->pattern);
		/* A list compiles otherwise than its alternation written out. */
		for (j = 0; j < r->n_alternatives; j++)
			digest_str(&h, r->alternatives[j]);
		digest_str(&h, r->caseless ? "caseless" : "");
		digest_str(&h, severity_name(r->severity));
		digest_str(&h, r->message);
		digest_str(&h, r->recovery);
		digest_str(&h, r->unless_before);
		digest_str(&h, r->unless_after);
		digest_str(&h, grounding_name(r->grounding));
		for (j = 0; j < QC_CLASSES; j++)
			if (r->quantities & (1u << j))
				digest_str(&h, quantity_class_name((enum quantity_class)j));
		if (r->near.signal) {
			char tol[32];

			snprintf(tol, sizeof(tol), "%.17g", r->near.tolerance);
			digest_str(&h, r->near.signal);
			digest_str(&h, r->near.message);
			digest_str(&h, r->near.recovery);
			digest_str(&h, tol);
			for (j = 0; j < r->near.n_fix; j++)
				digest_str(&h, r->near.fix[j]);
		}
		for (j = 0; j < r->n_fix; j++)
			digest_str(&h, r->fix[j]);
		for (j = 0; j < r->n_unless_sentence; j++)
			digest_str(&h, r->unless_sentence[j]);
		if (r->pressure)
			digest_str(&h, pressure_name(r->pressure));
		if (r->extend)
			digest_str(&h, "extend: url");
		if (r->wake_on) {
			digest_str(&h, "wake_on");
			digest_str(&h, r->wake_on);
		}
		digest_str(&h, "examples");
		digest_examples(&h, r->examples, r->n_examples);
		digest_str(&h, "negatives");
		digest_examples(&h, r->negatives, r->n_negatives);
		if (r->n_fix_examples) {
			digest_str(&h, "fix_examples");
			digest_examples(&h, r->fix_examples, r->n_fix_examples);
		}
	}
	for (i = 0; i < rs->n_spans; i++) {
		digest_str(&h, rs->spans[i].name);
		digest_str(&h, rs->spans[i].open);
		digest_str(&h, rs->spans[i].close);
	}
	for (i = 0; i < rs->n_contexts; i++) {
		digest_str(&h, rs->contexts[i].name);
		for (j = 0; j < rs->contexts[i].n_escalate; j++)
			digest_str(&h, rs->contexts[i].escalate[j]);
	}
	for (i = 0; i < rs->n_triggers; i++) {
		const struct trigger *t = &rs->triggers[i];

		digest_str(&h, "trigger");
		digest_str(&h, t->name);
		digest_str(&h, t->pattern);
		for (j = 0; j < t->n_escalate; j++)
			digest_str(&h, t->escalate[j]);
		digest_examples(&h, t->examples, t->n_examples);
		digest_str(&h, "negatives");
		digest_examples(&h, t->negatives, t->n_negatives);
	}
	/* Absent from a ruleset without lists: its digest is the one it had before lists. */
	for (i = 0; i < rs->n_lists; i++) {
		digest_str(&h, "list");
		digest_str(&h, rs->lists[i].name);
		for (j = 0; j < rs->lists[i].n_words; j++)
			digest_str(&h, rs->lists[i].words[j]);
	}
	sha256_final(&h, out);
	sha256_hex(out, out_hex);
}

int ruleset_check_digest(const struct ruleset *rs)
{
	char hex[65];

	compute_digest(rs, hex);
	return strcmp(hex, rs->digest) == 0 ? 0 : -EBADMSG;
}

int ruleset_finish(struct ruleset *rs, struct diag *d)
{
	/* The program's own rules were checked by the build that made them (mkdb). */
	bool check = !rs->built_checked;
	size_t i, j;

	if (rs->n_rules == 0)
		return diag_set(d, -EINVAL, "no rules loaded");
	for (i = 0; i < rs->n_rules; i++) {
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
	/* A start-up cost worth skipping: the build hashed the same content. */
	if (!rs->digest_loaded) {
		int err = ruleset_load_examples(rs);

		if (err < 0)
			return diag_set(d, err, "serialized ruleset: damaged examples");
		compute_digest(rs, rs->digest);
	}
	return 0;
}

/*
 * The binary form. codec_ruleset() is the one field list, walked both to
 * write and to read, so that the two cannot drift apart; a field added to
 * the structs goes there, with RULES_BLOB_VERSION raised.
 *
 * A u32 is four bytes little-endian, a double its IEEE-754 bits as two
 * u32, a string its length + 1 (0: NULL) and then its bytes and NUL, a where its
 * file's index + 1 in the files table (0: none), line and column. Reading
 * checks each length against the bytes left and each count, enum and index
 * against its range; the first error stops the walk.
 */
#define RULES_BLOB_MAGIC 0x52534c48u /* "HLSR" */
#define RULES_BLOB_VERSION 9u

struct codec {
	bool writing;
	struct buf *out;                   /* writing */
	const unsigned char *at, *end;     /* reading */
	struct ruleset *rs;                /* its files table serves codec_where() */
	char *arena;                       /* reading: where the strings go, */
	size_t arena_used, arena_len;      /* each with its NUL */
	bool lazy;                         /* reading: leave the rules' examples in the data, */
	bool borrow;                       /* and point the strings into it */
	bool trusted;                      /* reading the built-in data: see trusted_string() */
	size_t files_base;                 /* reading: the data's files table in rs->files */
	int err;
	const char *why;                   /* for -EINVAL */
};

static void codec_fail(struct codec *c, int err, const char *why)
{
	if (c->err == 0) {
		c->err = err;
		c->why = why;
	}
}

static void codec_put(struct codec *c, const void *p, size_t n)
{
	if (c->err == 0 && buf_add(c->out, p, n) < 0)
		codec_fail(c, -ENOMEM, "out of memory");
}

/* The next n bytes read, or NULL after an error or when fewer are left. */
static const unsigned char *codec_take(struct codec *c, size_t n)
{
	const unsigned char *p = c->at;

	if (c->err)
		return NULL;
	if ((size_t)(c->end - c->at) < n) {
		codec_fail(c, -EINVAL, "truncated");
		return NULL;
	}
	c->at += n;
	return p;
}

static inline void codec_u32(struct codec *c, uint32_t *v)
{
	const unsigned char *p;

	if (c->writing) {
		unsigned char b[4] = {(unsigned char)*v, (unsigned char)(*v >> 8),
				      (unsigned char)(*v >> 16), (unsigned char)(*v >> 24)};

		codec_put(c, b, sizeof(b));
		return;
	}
	/* Reading: inline, as it is asked for every field of every rule. */
	if (c->err == 0 && c->end - c->at >= 4) {
		p = c->at;
		c->at += 4;
		*v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		return;
	}
	p = codec_take(c, 4);
	if (p)
		*v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Bools and enums: stored only when reading, and only when at most max. */
#define CODEC_ENUM(c, field, max)                                              \
	do {                                                                   \
		uint32_t v_ = (uint32_t)(field);                               \
		codec_u32((c), &v_);                                           \
		if (!(c)->writing && (c)->err == 0) {                          \
			if (v_ > (uint32_t)(max))                              \
				codec_fail((c), -EINVAL, "value out of range"); \
			else                                                   \
				(field) = v_;                                  \
		}                                                              \
	} while (0)

static void codec_unsigned(struct codec *c, unsigned *v)
{
	uint32_t u = *v;

	codec_u32(c, &u);
	if (!c->writing)
		*v = u;
}

static void codec_double(struct codec *c, double *v)
{
	uint64_t bits;
	uint32_t lo, hi;

	memcpy(&bits, v, sizeof(bits));
	lo = (uint32_t)bits;
	hi = (uint32_t)(bits >> 32);
	codec_u32(c, &lo);
	codec_u32(c, &hi);
	if (!c->writing) {
		bits = (uint64_t)hi << 32 | lo;
		memcpy(v, &bits, sizeof(bits));
	}
}

/*
 * A count of items that each take at least a byte, so that reading can
 * refuse one larger than the bytes left before it allocates for it.
 */
static void codec_count(struct codec *c, size_t *n)
{
	uint32_t v = (uint32_t)*n;

	if (c->writing && *n > UINT32_MAX)
		codec_fail(c, -EINVAL, "too many items");
	codec_u32(c, &v);
	if (c->writing || c->err)
		return;
	if (v > (size_t)(c->end - c->at))
		codec_fail(c, -EINVAL, "count past the end");
	else
		*n = v;
}

/*
 * A string of the built-in data, where it lies. mkdb read that data back
 * through every check of codec_string() before it wrote it into the
 * program (check_round_trip()), and the unit tests read it so; here the
 * lengths and the closing NUL are still checked, so that nothing is read
 * outside the data, but no string is searched for a NUL inside it: that
 * search, a call for each of the 1,300 strings, and the general path were
 * half of the decoding, a seventh of a 4 KB message's instructions.
 */
static void trusted_string(struct codec *c, char **s, bool required)
{
	const unsigned char *p = c->at;
	uint32_t n;

	if (c->err || c->end - p < 4) {
		codec_fail(c, -EINVAL, "truncated");
		return;
	}
	n = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	p += 4;
	if (n == 0) {
		c->at = p;
		if (required)
			codec_fail(c, -EINVAL, "a required string is missing");
		return;
	}
	if ((size_t)(c->end - p) < n) {
		codec_fail(c, -EINVAL, "truncated");
		return;
	}
	if (p[n - 1] != '\0') {
		codec_fail(c, -EINVAL, "a string holds a NUL or lacks its own");
		return;
	}
	*s = (char *)(uintptr_t)p;
	c->at = p + n;
}

static void general_string(struct codec *c, char **s, bool required)
{
	size_t len = c->writing && *s ? strlen(*s) : 0;
	uint32_t n = c->writing && *s ? (uint32_t)len + 1 : 0;
	const unsigned char *p;

	if (c->writing && len >= UINT32_MAX)
		codec_fail(c, -EINVAL, "string too long");
	codec_u32(c, &n);
	if (n == 0) {
		if (required)
			codec_fail(c, -EINVAL, "a required string is missing");
		return;
	}
	if (c->writing) {
		codec_put(c, *s, n); /* with its NUL */
		return;
	}
	p = codec_take(c, n);
	if (!p)
		return;
	if (p[n - 1] != '\0' || memchr(p, '\0', n - 1)) {
		codec_fail(c, -EINVAL, "a string holds a NUL or lacks its own");
		return;
	}
	/* Data that outlives the ruleset holds the string as it is. */
	if (c->borrow) {
		*s = (char *)(uintptr_t)p;
		return;
	}
	/* The arena has room: a string of n bytes took n + 4 of the input. */
	if (c->arena && c->arena_len - c->arena_used >= n) {
		*s = c->arena + c->arena_used;
		memcpy(*s, p, n);
		c->arena_used += n;
		return;
	}
	*s = xstrndup((const char *)p, n - 1);
	if (!*s)
		codec_fail(c, -ENOMEM, "out of memory");
}

/* required: NULL is refused both ways, so a reader need not check for it. */
static inline void codec_string(struct codec *c, char **s, bool required)
{
	if (c->trusted)
		trusted_string(c, s, required);
	else
		general_string(c, s, required);
}

static void codec_str(struct codec *c, char **s)
{
	codec_string(c, s, true);
}

static void codec_opt_str(struct codec *c, char **s)
{
	codec_string(c, s, false);
}

/* For codec_array() of strings. */
static void codec_str_v(struct codec *c, void *s)
{
	codec_str(c, s);
}

/*
 * An array of *n items of elem bytes, each walked by fn. Reading allocates
 * it zeroed and sets *n first, so that ruleset_free() frees a partial read.
 */
static void codec_array(struct codec *c, void *arr, size_t *n, size_t elem,
			void (*fn)(struct codec *, void *))
{
	char **base = arr;
	size_t i;

	codec_count(c, n);
	if (!c->writing && c->err == 0 && *n > 0) {
		*base = calloc(*n, elem);
		if (!*base) {
			*n = 0;
			codec_fail(c, -ENOMEM, "out of memory");
		}
	}
	/* The built-in word lists: a thousand strings, without a call each. */
	if (c->trusted && fn == codec_str_v) {
		for (i = 0; i < *n && c->err == 0; i++)
			trusted_string(c, (char **)(void *)(*base + i * elem), true);
		return;
	}
	for (i = 0; i < *n && c->err == 0; i++)
		fn(c, *base + i * elem);
}

static void codec_where(struct codec *c, struct where *w)
{
	const struct ruleset *rs = c->rs;
	uint32_t file = 0;
	size_t i;

	if (c->writing && w->file) {
		for (i = 0; i < rs->n_files && rs->files[i] != w->file; i++)
			;
		if (i == rs->n_files)
			codec_fail(c, -EINVAL, "a location outside the files table");
		file = (uint32_t)i + 1;
	}
	codec_u32(c, &file);
	codec_unsigned(c, &w->line);
	codec_unsigned(c, &w->col);
	if (c->writing || c->err || file == 0)
		return;
	if (file > rs->n_files - c->files_base)
		codec_fail(c, -EINVAL, "a location outside the files table");
	else
		w->file = rs->files[c->files_base + file - 1];
}

static void codec_example(struct codec *c, void *p)
{
	struct example *e = p;

	codec_str(c, &e->text);
	codec_opt_str(c, &e->match);
	codec_where(c, &e->at);
}

static void codec_example_arrays(struct codec *c, struct rule *r)
{
	codec_array(c, &r->examples, &r->n_examples, sizeof(struct example), codec_example);
	codec_array(c, &r->negatives, &r->n_negatives, sizeof(struct example), codec_example);
	codec_array(c, &r->fix_examples, &r->n_fix_examples, sizeof(struct example), codec_example);
}

/*
 * Decodes a rule's lazy examples into its arrays, their strings as parent
 * reads strings (its arena, or borrowed), and leaves nothing lazy. The
 * strings of a failed decode are freed by what holds them (str_free()).
 */
static int decode_lazy(const struct ruleset *rs, struct rule *r, struct codec *parent)
{
	struct codec c = {.at = r->lazy.at, .end = r->lazy.at + r->lazy.len,
			  .rs = (struct ruleset *)rs, .arena = parent->arena,
			  .arena_used = parent->arena_used, .arena_len = parent->arena_len,
			  .borrow = parent->borrow, .files_base = r->lazy.files_base};

	codec_example_arrays(&c, r);
	if (c.err == 0 && (c.at != c.end || r->n_examples != r->lazy.n[0] ||
			   r->n_negatives != r->lazy.n[1] || r->n_fix_examples != r->lazy.n[2]))
		codec_fail(&c, -EINVAL, "examples other than their counts");
	if (c.err) {
		free_example_arrays(rs, r);
		return c.err;
	}
	parent->arena_used = c.arena_used;
	memset(&r->lazy, 0, sizeof(r->lazy));
	return 0;
}

/*
 * A rule's examples: their three counts, their bytes' length, then the
 * three arrays, so that a reader that keeps the data (c->lazy) skips them
 * at the cost of a length (a start-up decoded them for nothing: a fifth
 * of the built-in rules' bytes, issue 35).
 */
static void codec_rule_examples(struct codec *c, struct rule *r)
{
	uint32_t n[3], len = 0;
	const unsigned char *p;
	size_t at, i;

	if (c->writing && r->lazy.at) {
		/* Undecoded: decoded aside, so that its locations name this
		 * ruleset's files table, which need not be the data's. */
		struct rule tmp = *r;
		struct codec how = {.borrow = true}; /* lazy: the data outlives rs */
		int err = decode_lazy(c->rs, &tmp, &how);

		if (err < 0) {
			codec_fail(c, err, "damaged examples");
			return;
		}
		codec_rule_examples(c, &tmp);
		free_example_arrays(c->rs, &tmp);
		return;
	}
	if (c->writing) {
		size_t v[3] = {r->n_examples, r->n_negatives, r->n_fix_examples};

		for (i = 0; i < 3; i++)
			codec_count(c, &v[i]);
		at = c->out->len;
		codec_u32(c, &len);
		codec_example_arrays(c, r);
		if (c->err == 0) {
			len = (uint32_t)(c->out->len - at - 4);
			for (i = 0; i < 4; i++)
				((unsigned char *)c->out->data)[at + i] = (unsigned char)(len >> (8 * i));
		}
		return;
	}
	for (i = 0; i < 3; i++) {
		size_t v = 0;

		codec_count(c, &v);
		n[i] = (uint32_t)v;
	}
	codec_u32(c, &len);
	p = codec_take(c, len);
	if (!p)
		return;
	r->lazy.at = p;
	r->lazy.len = len;
	r->lazy.files_base = c->files_base;
	for (i = 0; i < 3; i++)
		r->lazy.n[i] = n[i];
	if (c->lazy) {
		c->rs->examples_pending = true;
		return;
	}
	{
		int err = decode_lazy(c->rs, r, c);

		if (err < 0)
			codec_fail(c, err, "damaged examples");
	}
}

static void codec_near(struct codec *c, struct near *nr)
{
	codec_opt_str(c, &nr->signal);
	if (!nr->signal)
		return; /* no second verdict: the rest is unset */
	codec_str(c, &nr->message);
	codec_str(c, &nr->recovery);
	codec_double(c, &nr->tolerance);
	codec_array(c, &nr->fix, &nr->n_fix, sizeof(char *), codec_str_v);
}

static void codec_rule(struct codec *c, void *p)
{
	struct rule *r = p;

	codec_str(c, &r->id);
	codec_str(c, &r->signal);
	codec_opt_str(c, &r->pattern);
	CODEC_ENUM(c, r->quantities, (1u << QC_CLASSES) - 1);
	codec_array(c, &r->alternatives, &r->n_alternatives, sizeof(char *), codec_str_v);
	CODEC_ENUM(c, r->caseless, 1);
	CODEC_ENUM(c, r->severity, SEV_BLOCK);
	codec_str(c, &r->message);
	codec_str(c, &r->recovery);
	codec_array(c, &r->fix, &r->n_fix, sizeof(char *), codec_str_v);
	codec_array(c, &r->unless_sentence, &r->n_unless_sentence, sizeof(char *), codec_str_v);
	codec_opt_str(c, &r->unless_before);
	codec_opt_str(c, &r->unless_after);
	CODEC_ENUM(c, r->grounding, ARRAY_SIZE(grounding_names) - 1);
	codec_near(c, &r->near);
	CODEC_ENUM(c, r->pressure, PRESSURE_ONLY);
	CODEC_ENUM(c, r->extend, EXTEND_URL);
	codec_opt_str(c, &r->wake_on);
	codec_rule_examples(c, r);
	codec_where(c, &r->at);
	codec_where(c, &r->pattern_at);
}

static void codec_span(struct codec *c, void *p)
{
	struct span_delim *s = p;

	codec_str(c, &s->name);
	codec_str(c, &s->open);
	codec_str(c, &s->close);
	codec_where(c, &s->at);
}

static void codec_context(struct codec *c, void *p)
{
	struct context *x = p;

	codec_str(c, &x->name);
	codec_opt_str(c, &x->description);
	codec_array(c, &x->escalate, &x->n_escalate, sizeof(char *), codec_str_v);
	codec_where(c, &x->at);
}

static void codec_trigger(struct codec *c, void *p)
{
	struct trigger *t = p;

	codec_str(c, &t->name);
	codec_opt_str(c, &t->description);
	codec_str(c, &t->pattern);
	codec_array(c, &t->escalate, &t->n_escalate, sizeof(char *), codec_str_v);
	codec_array(c, &t->examples, &t->n_examples, sizeof(struct example), codec_example);
	codec_array(c, &t->negatives, &t->n_negatives, sizeof(struct example), codec_example);
	codec_where(c, &t->at);
	codec_where(c, &t->pattern_at);
}

static void codec_wordlist(struct codec *c, void *p)
{
	struct wordlist *l = p;

	codec_str(c, &l->name);
	codec_array(c, &l->words, &l->n_words, sizeof(char *), codec_str_v);
	codec_where(c, &l->at);
}

static void codec_digest(struct codec *c, char digest[65])
{
	const unsigned char *p;

	if (c->writing) {
		codec_put(c, digest, 64);
		return;
	}
	p = codec_take(c, 64);
	if (!p)
		return;
	memcpy(digest, p, 64);
	digest[64] = '\0';
	if (strspn(digest, "0123456789abcdef") != 64)
		codec_fail(c, -EINVAL, "a damaged digest");
}

static void codec_ruleset(struct codec *c, struct ruleset *rs)
{
	uint32_t magic = RULES_BLOB_MAGIC, version = RULES_BLOB_VERSION;

	codec_u32(c, &magic);
	if (c->err == 0 && magic != RULES_BLOB_MAGIC)
		codec_fail(c, -EINVAL, "not a serialized ruleset");
	codec_u32(c, &version);
	if (c->err == 0 && version != RULES_BLOB_VERSION)
		codec_fail(c, -EINVAL, "another version of the format");
	/* Files first: every location after them points into the table. */
	codec_array(c, &rs->files, &rs->n_files, sizeof(char *), codec_str_v);
	codec_array(c, &rs->rules, &rs->n_rules, sizeof(struct rule), codec_rule);
	codec_array(c, &rs->spans, &rs->n_spans, sizeof(struct span_delim), codec_span);
	codec_array(c, &rs->contexts, &rs->n_contexts, sizeof(struct context), codec_context);
	codec_array(c, &rs->triggers, &rs->n_triggers, sizeof(struct trigger), codec_trigger);
	codec_array(c, &rs->lists, &rs->n_lists, sizeof(struct wordlist), codec_wordlist);
	codec_digest(c, rs->digest);
}

int ruleset_serialize(const struct ruleset *rs, struct buf *out)
{
	/* Writing reads the ruleset and never stores into it. */
	struct codec c = {.writing = true, .out = out, .rs = (struct ruleset *)rs};

	if (strlen(rs->digest) != 64)
		return -EINVAL; /* not finished */
	codec_ruleset(&c, c.rs);
	return c.err;
}

/*
 * Moves n items of src's array to the end of dst's, which has room for
 * them, or, when dst holds none, hands src's block over (decoded exactly
 * *src_n long): the built-in rules are not copied at each start (issue 35).
 */
static void move_items(void *dst, size_t *n, size_t *cap, void *src, size_t *src_n, size_t elem)
{
	void **d = dst, **s = src;

	if (*n == 0 && *src_n > 0) {
		free(*d);
		*d = *s;
		*s = NULL;
		*cap = *src_n;
	} else if (*src_n) {
		memcpy((char *)*d + *n * elem, *s, *src_n * elem);
	}
	*n += *src_n;
	*src_n = 0;
}

/* Room in dst for what move_items() adds, where it copies. */
static int room(void *dst, size_t n, size_t *cap, size_t src_n, size_t elem)
{
	return n == 0 ? 0 : grow(dst, cap, n + src_n, elem);
}

/*
 * Appends src's content to rs. Room is made for all of it first, so that
 * on -ENOMEM nothing has moved; where.file pointers stay valid since the
 * strings of the files table move with it, not their bytes.
 */
static int ruleset_take(struct ruleset *rs, struct ruleset *src)
{
	if (room(&rs->files, rs->n_files, &rs->cap_files, src->n_files, sizeof(char *)) < 0 ||
	    room(&rs->rules, rs->n_rules, &rs->cap_rules, src->n_rules, sizeof(struct rule)) < 0 ||
	    room(&rs->spans, rs->n_spans, &rs->cap_spans, src->n_spans,
		 sizeof(struct span_delim)) < 0 ||
	    room(&rs->contexts, rs->n_contexts, &rs->cap_contexts, src->n_contexts,
		 sizeof(struct context)) < 0 ||
	    room(&rs->triggers, rs->n_triggers, &rs->cap_triggers, src->n_triggers,
		 sizeof(struct trigger)) < 0 ||
	    room(&rs->lists, rs->n_lists, &rs->cap_lists, src->n_lists,
		 sizeof(struct wordlist)) < 0 ||
	    room(&rs->arenas, rs->n_arenas, &rs->cap_arenas, src->n_arenas,
		 sizeof(struct rules_arena)) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < src->n_rules; i++)
		if (src->rules[i].lazy.at)
			src->rules[i].lazy.files_base += rs->n_files;
	rs->examples_pending |= src->examples_pending;
	move_items(&rs->files, &rs->n_files, &rs->cap_files, &src->files, &src->n_files,
		   sizeof(char *));
	move_items(&rs->rules, &rs->n_rules, &rs->cap_rules, &src->rules, &src->n_rules,
		   sizeof(struct rule));
	move_items(&rs->spans, &rs->n_spans, &rs->cap_spans, &src->spans, &src->n_spans,
		   sizeof(struct span_delim));
	move_items(&rs->contexts, &rs->n_contexts, &rs->cap_contexts, &src->contexts,
		   &src->n_contexts, sizeof(struct context));
	move_items(&rs->triggers, &rs->n_triggers, &rs->cap_triggers, &src->triggers,
		   &src->n_triggers, sizeof(struct trigger));
	move_items(&rs->lists, &rs->n_lists, &rs->cap_lists, &src->lists, &src->n_lists,
		   sizeof(struct wordlist));
	move_items(&rs->arenas, &rs->n_arenas, &rs->cap_arenas, &src->arenas, &src->n_arenas,
		   sizeof(struct rules_arena));
	return 0;
}

static int add_serialized(struct ruleset *rs, const void *data, size_t len, bool lazy,
			  bool trusted, struct diag *d)
{
	bool whole = rs->n_files == 0 && rs->n_rules == 0 && rs->n_spans == 0 &&
		     rs->n_contexts == 0 && rs->n_triggers == 0 && rs->n_lists == 0;
	struct ruleset *tmp = ruleset_new();
	struct codec c = {.at = data, .end = (const unsigned char *)data + len, .rs = tmp,
			  .lazy = lazy, .trusted = trusted};
	int err;

	if (!tmp)
		return -ENOMEM;
	/*
	 * The strings go to one block, not a malloc() each: the built-in
	 * rules' thousand strings were a tenth of a 4 KB message's
	 * instructions (issue 35). No string outgrows it (see codec_string()).
	 */
	if (lazy) {
		/* Or none: the strings stay in data, NUL and all. */
		if (grow(&tmp->arenas, &tmp->cap_arenas, 1, sizeof(struct rules_arena)) < 0) {
			ruleset_free(tmp);
			return -ENOMEM;
		}
		tmp->arenas[tmp->n_arenas++] =
			(struct rules_arena){(char *)(uintptr_t)data, len, true};
		c.borrow = true;
	} else if (len > 0 &&
		   grow(&tmp->arenas, &tmp->cap_arenas, 1, sizeof(struct rules_arena)) == 0 &&
		   (c.arena = malloc(len))) {
		c.arena_len = len;
		tmp->arenas[tmp->n_arenas++] = (struct rules_arena){c.arena, len, false};
	}
	codec_ruleset(&c, tmp);
	if (c.err == 0 && c.at != c.end)
		codec_fail(&c, -EINVAL, "bytes after the end");
	err = c.err;
	if (err == -EINVAL)
		err = diag_set(d, err, "serialized ruleset: %s", c.why);
	if (err == 0)
		err = ruleset_take(rs, tmp);
	if (err == 0) {
		/* Anything added before or after: ruleset_finish() hashes it all. */
		rs->digest_loaded = whole;
		rs->built_checked = false; /* ruleset_add_builtin() says when */
		if (whole)
			memcpy(rs->digest, tmp->digest, sizeof(rs->digest));
	}
	ruleset_free(tmp);
	return err;
}

int ruleset_add_serialized(struct ruleset *rs, const void *data, size_t len, struct diag *d)
{
	return add_serialized(rs, data, len, false, false, d);
}

int ruleset_add_serialized_static(struct ruleset *rs, const void *data, size_t len,
				  struct diag *d)
{
	return add_serialized(rs, data, len, true, false, d);
}

int ruleset_add_serialized_builtin(struct ruleset *rs, const void *data, size_t len,
				   struct diag *d)
{
	return add_serialized(rs, data, len, true, true, d);
}

int ruleset_load_examples(struct ruleset *rs)
{
	struct codec how = {.borrow = true}; /* lazy: the data outlives rs */
	size_t i;
	int err = 0;

	if (!rs->examples_pending)
		return 0;
	for (i = 0; i < rs->n_rules && err == 0; i++)
		if (rs->rules[i].lazy.at)
			err = decode_lazy(rs, &rs->rules[i], &how);
	if (err == 0)
		rs->examples_pending = false;
	return err;
}
