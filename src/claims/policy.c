// SPDX-License-Identifier: MIT
/* Severity under contexts, and recoveries made specific to a match. */
#include "policy.h"

#include <math.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/url.h"
#include "match/template.h"

struct policy {
	const struct ruleset *rs;
	bool *escalated; /* per signal index */
	const struct trigger **raised; /* per signal index: the first trigger that raises it */
};

struct policy *policy_new(const struct ruleset *rs)
{
	struct policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->rs = rs;
	p->escalated = calloc(rs->n_signals ? rs->n_signals : 1, sizeof(bool));
	p->raised = calloc(rs->n_signals ? rs->n_signals : 1, sizeof(*p->raised));
	if (!p->escalated || !p->raised) {
		policy_free(p);
		return NULL;
	}
	return p;
}

void policy_free(struct policy *p)
{
	if (!p)
		return;
	free(p->escalated);
	free(p->raised);
	free(p);
}

int policy_add_context(struct policy *p, const char *name)
{
	const struct context *c = ruleset_context(p->rs, name);
	size_t i;

	if (!c)
		return -ENOENT;
	for (i = 0; i < c->n_escalate; i++) {
		int k = ruleset_signal_index(p->rs, c->escalate[i]);

		if (k >= 0)
			p->escalated[k] = true;
	}
	return 0;
}

enum severity policy_severity(const struct policy *p, const struct rule *r, size_t signal)
{
	if (signal < p->rs->n_signals && p->escalated[signal])
		return SEV_BLOCK;
	return r->severity;
}

void policy_raise(struct policy *p, const struct trigger *t)
{
	size_t i;

	for (i = 0; i < t->n_escalate; i++) {
		int k = ruleset_signal_index(p->rs, t->escalate[i]);

		if (k >= 0 && !p->raised[k])
			p->raised[k] = t;
	}
}

void policy_lower(struct policy *p)
{
	memset(p->raised, 0, (p->rs->n_signals ? p->rs->n_signals : 1) * sizeof(*p->raised));
}

enum severity policy_severity_why(const struct policy *p, const struct rule *r, size_t signal,
				  const char **trigger)
{
	enum severity sev = policy_severity(p, r, signal);

	/* One step: warn becomes block; what blocks already has no step left. */
	if (sev < SEV_BLOCK && signal < p->rs->n_signals && p->raised[signal]) {
		*trigger = p->raised[signal]->name;
		return sev + 1;
	}
	return sev;
}

bool policy_can_block(const struct policy *p)
{
	size_t i;

	for (i = 0; i < p->rs->n_signals; i++)
		if (p->escalated[i] || p->raised[i])
			return true;
	for (i = 0; i < p->rs->n_rules; i++)
		if (p->rs->rules[i].severity >= SEV_BLOCK)
			return true;
	return false;
}

void policy_claims(const uint64_t counts[CLAIM_LABELS], double max_ratio,
		   struct claims_verdict *out)
{
	out->checked = counts[CLAIM_SUPPORTED] + counts[CLAIM_PARTIAL] + counts[CLAIM_UNSUPPORTED];
	if (out->checked == 0) {
		/* Nothing was checked: no figure of trust, and nothing insufficient. */
		out->unsupported_ratio = 0;
		out->trust = NAN;
	} else {
		out->unsupported_ratio = (double)counts[CLAIM_UNSUPPORTED] / (double)out->checked;
		out->trust = (double)counts[CLAIM_SUPPORTED] / (double)out->checked;
	}
	out->sufficient = out->unsupported_ratio <= max_ratio;
}

enum disposition policy_disposition(const struct disposition_rule *rule,
				    const struct disposition_counts *n, const char **why)
{
	uint64_t kept = n->total > n->fails ? n->total - n->fails : 0;

	if (n->stuck) {
		*why = "what fails could not be dropped whole (see stuck)";
		return DISPOSITION_HOLD;
	}
	if (n->total && (double)n->partial / (double)n->total > rule->partial_allowance) {
		*why = "partial support above the allowance";
		return DISPOSITION_HOLD;
	}
	if (kept && (double)n->supports / (double)kept < rule->min_support) {
		*why = "support rate below the threshold";
		return DISPOSITION_HOLD;
	}
	if (n->fails) {
		*why = "failing claims dropped";
		return DISPOSITION_QUARANTINE;
	}
	*why = n->total ? "support rate at or above the threshold, nothing failing"
			: "nothing failing";
	return DISPOSITION_SHIP;
}

const char *disposition_name(enum disposition d)
{
	return d == DISPOSITION_SHIP ? "ship" : d == DISPOSITION_QUARANTINE ? "quarantine" : "hold";
}

/* ---- recovery templates ---- */

/* The host, never the userinfo of "https://user:token@host" taken for it. */
static int put_host(struct buf *out, const char *t, size_t n)
{
	const char *s = memmem(t, n, "://", 3);
	size_t from, to;

	if (!s)
		return buf_add(out, t, n);
	s += 3;
	url_host(s, (size_t)(t + n - s), &from, &to);
	for (; from < to; from++) {
		int err = buf_addc(out, (char)tolower((unsigned char)s[from]));

		if (err < 0)
			return err;
	}
	return 0;
}

/* "73.4%" -> "about 73%", "2.7x" -> "about 3x", "0.4%" -> "under 1%". */
static int put_round(struct buf *out, const char *t, size_t n)
{
	size_t i = 0, j, k, m = 0;
	const char *sp;
	char num[64];
	double v;
	long r;

	while (i < n && !isdigit((unsigned char)t[i]))
		i++;
	for (j = i; j < n && (isdigit((unsigned char)t[j]) || t[j] == '.' || t[j] == ','); j++)
		;
	if (i == n || j - i >= sizeof(num))
		return buf_add(out, t, n);
	for (k = i; k < j; k++)
		if (t[k] != ',')
			num[m++] = t[k];
	num[m] = '\0';
	v = strtod(num, NULL);
	/* Past what a long holds the cast is undefined; such a figure is no
	 * statistic to round anyway. */
	if (!(v < 1e15))
		return buf_add(out, t, n);
	r = (long)(v + 0.5);
	/* The unit is what follows the number, without the space before it. */
	while (j < n && (t[j] == ' ' || t[j] == '\t'))
		j++;
	/* A word unit keeps its space: "about 13 percent", "about 3x". */
	sp = n - j > 1 && isalpha((unsigned char)t[j]) ? " " : "";
	if (r == 0)
		return buf_addf(out, "under 1%s%.*s", sp, (int)(n - j), t + j);
	return buf_addf(out, "about %ld%s%.*s", r, sp, (int)(n - j), t + j);
}

static bool word_at(const char *t, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && strncasecmp(t, w, k) == 0 && (n == k || !isalpha((unsigned char)t[k]));
}

/* "will definitely ship" -> "may ship"; "will ship by May" -> "is expected to
 * ship by May"; "is guaranteed to" -> "is expected to". */
static int put_hedged(struct buf *out, const char *t, size_t n)
{
	static const char *const adverbs[] = {
		"definitely", "certainly", "absolutely", "surely", "undoubtedly", "guaranteed",
	};
	const char *g;
	size_t i;

	if (word_at(t, n, "will")) {
		const char *rest = t + 4;
		size_t rn = n - 4;

		while (rn > 0 && *rest == ' ')
			rest++, rn--;
		for (i = 0; i < ARRAY_SIZE(adverbs); i++) {
			if (word_at(rest, rn, adverbs[i])) {
				size_t k = strlen(adverbs[i]);

				rest += k, rn -= k;
				while (rn > 0 && *rest == ' ')
					rest++, rn--;
				if (rn == 0)
					return buf_add(out, "may", 3);
				return buf_addf(out, "may %.*s", (int)rn, rest);
			}
		}
		return buf_addf(out, "is expected to %.*s", (int)rn, rest);
	}
	g = memmem(t, n, "guaranteed to", 13);
	if (g) {
		int err = buf_add(out, t, (size_t)(g - t));

		if (err < 0)
			return err;
		return buf_addf(out, "expected to%.*s", (int)(n - (size_t)(g - t) - 13), g + 13);
	}
	return buf_add(out, t, n);
}

static int put_text(struct buf *out, const char *t, size_t n)
{
	return buf_add(out, t, n);
}

static const struct {
	const char *name;
	int (*put)(struct buf *, const char *, size_t);
} placeholders[] = {
	{"text", put_text},
	{"host", put_host},
	{"round", put_round},
	{"hedged", put_hedged},
	{"source", NULL}, /* the caller's source text */
};

/* The placeholder at t (just after '{'), or -1. */
static int placeholder(const char *t, size_t *len)
{
	return template_placeholder(t, placeholders, ARRAY_SIZE(placeholders),
				    sizeof(placeholders[0]), len);
}

int policy_render(const char *tmpl, const char *text, size_t len, const char *source,
		  struct buf *out)
{
	const char *t = tmpl;
	int err = 0;

	out->len = 0;
	if (grow(&out->data, &out->cap, 1, 1) < 0)
		return -ENOMEM;
	out->data[0] = '\0';
	while (*t && err == 0) {
		const char *brace = strpbrk(t, "{}");
		size_t k;
		int ph;

		if (!brace)
			return buf_add(out, t, strlen(t));
		err = buf_add(out, t, (size_t)(brace - t));
		if (err < 0)
			return err;
		if (brace[0] == brace[1]) { /* {{ or }} */
			err = buf_addc(out, brace[0]);
			t = brace + 2;
			continue;
		}
		ph = brace[0] == '{' ? placeholder(brace + 1, &k) : -1;
		if (ph < 0) {
			err = buf_addc(out, brace[0]);
			t = brace + 1;
			continue;
		}
		if (placeholders[ph].put)
			err = placeholders[ph].put(out, text, len);
		else
			err = buf_add(out, source ? source : "?", strlen(source ? source : "?"));
		t = brace + k;
	}
	return err;
}

int policy_check_template(const char *tmpl, const char **bad)
{
	return template_check_names(tmpl, placeholders, ARRAY_SIZE(placeholders),
				    sizeof(placeholders[0]), bad);
}
