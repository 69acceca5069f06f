// SPDX-License-Identifier: MIT
/* .halluscan.yaml: found, read with libyaml's events, checked key by key. */
#include "configfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#define CONFIG_NAME ".halluscan.yaml"
#define CONFIG_MAX (64 * 1024)

int strv_add(struct strv *v, const char *s, size_t n)
{
	char **nv = realloc(v->v, (v->n + 2) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	v->v = nv;
	if (!(nv[v->n] = xstrndup(s, n)))
		return -ENOMEM;
	nv[++v->n] = NULL;
	return 0;
}

void strv_free(struct strv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	*v = (struct strv){0};
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

char *config_find(void)
{
	const char *env = getenv("HALLUSCAN_CONFIG");
	char dir[PATH_MAX], path[PATH_MAX + sizeof(CONFIG_NAME) + 1];

	if (env && *env)
		return xstrndup(env, strlen(env));
	if (!getcwd(dir, sizeof(dir)))
		return NULL;
	for (;;) {
		char *slash;

		snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "", CONFIG_NAME);
		if (exists(path))
			return xstrndup(path, strlen(path));
		snprintf(path, sizeof(path), "%s/.git", strcmp(dir, "/") ? dir : "");
		if (exists(path) || strcmp(dir, "/") == 0)
			return NULL;
		slash = strrchr(dir, '/');
		if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
	}
}

struct parser {
	yaml_parser_t y;
	yaml_event_t ev;
	const char *path;
	struct diag *d;
};

static int fail_at(struct parser *p, const yaml_mark_t *m, const char *msg, const char *arg)
{
	return diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s%s%s%s", p->path, m->line + 1, m->column + 1,
			msg, arg ? " \"" : "", arg ? arg : "", arg ? "\"" : "");
}

static int next(struct parser *p)
{
	yaml_event_delete(&p->ev);
	if (!yaml_parser_parse(&p->y, &p->ev)) {
		p->ev.type = YAML_NO_EVENT;
		return diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s", p->path,
				p->y.problem_mark.line + 1, p->y.problem_mark.column + 1,
				p->y.problem ? p->y.problem : "not YAML");
	}
	return 0;
}

static const char *scalar(struct parser *p)
{
	return (const char *)p->ev.data.scalar.value;
}

/* A value that is a string, or a list of strings: added to v, made relative to base. */
static int strings(struct parser *p, const char *key, struct strv *v, const char *base)
{
	bool list = p->ev.type == YAML_SEQUENCE_START_EVENT;
	int err = 0;

	v->set = true;
	if (list)
		err = next(p);
	while (err == 0) {
		if (list && p->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (p->ev.type != YAML_SCALAR_EVENT || p->ev.data.scalar.length == 0)
			return fail_at(p, &p->ev.start_mark, key,
				       list ? " takes a list of non-empty strings" : " takes a string or a list of them");
		if (base && scalar(p)[0] != '/') {
			struct buf b = {0};

			err = buf_addf(&b, "%s/%s", base, scalar(p));
			err = err ? err : strv_add(v, b.data, b.len);
			buf_free(&b);
		} else {
			err = strv_add(v, scalar(p), p->ev.data.scalar.length);
		}
		if (!list || err)
			return err;
		err = next(p);
	}
	return err;
}

static int one_of(struct parser *p, const char *key, const char *const *words, char **out)
{
	size_t i;

	if (p->ev.type == YAML_SCALAR_EVENT)
		for (i = 0; words[i]; i++)
			if (strcmp(scalar(p), words[i]) == 0) {
				free(*out);
				*out = xstrndup(words[i], strlen(words[i]));
				return *out ? 0 : -ENOMEM;
			}
	{
		struct buf b = {0};
		int err;

		for (i = 0; words[i]; i++)
			if (buf_addf(&b, "%s%s", i ? (words[i + 1] ? ", " : " or ") : "", words[i]) < 0) {
				buf_free(&b);
				return -ENOMEM;
			}
		err = diag_set(p->d, -EINVAL, "%s:%zu:%zu: %s takes %s", p->path,
			       p->ev.start_mark.line + 1, p->ev.start_mark.column + 1, key, b.data);
		buf_free(&b);
		return err;
	}
}

static int pair(struct parser *p, struct config *c, const char *key, const yaml_mark_t *km,
		const char *base)
{
	static const char *const fail_on[] = {"warn", "block", "never", NULL};
	static const char *const formats[] = {"jsonl", "text", "sarif", "github", NULL};

	if (strcmp(key, "context") == 0)
		return strings(p, "context", &c->context, NULL);
	if (strcmp(key, "rules") == 0)
		return strings(p, "rules", &c->rules, base);
	if (strcmp(key, "select") == 0)
		return strings(p, "select", &c->select, NULL);
	if (strcmp(key, "ignore") == 0)
		return strings(p, "ignore", &c->ignore, NULL);
	if (strcmp(key, "exclude") == 0)
		return strings(p, "exclude", &c->exclude, NULL);
	if (strcmp(key, "fail_on") == 0)
		return one_of(p, "fail_on", fail_on, &c->fail_on);
	if (strcmp(key, "format") == 0)
		return one_of(p, "format", formats, &c->format);
	if (strcmp(key, "skip_code") == 0) {
		if (p->ev.type == YAML_SCALAR_EVENT && strcmp(scalar(p), "true") == 0)
			c->skip_code = 1;
		else if (p->ev.type == YAML_SCALAR_EVENT && strcmp(scalar(p), "false") == 0)
			c->skip_code = 0;
		else
			return fail_at(p, &p->ev.start_mark, "skip_code takes true or false", NULL);
		return 0;
	}
	return fail_at(p, km, "unknown key", key);
}

int config_load(struct config *c, const char *path, struct diag *d)
{
	struct parser p = {.path = path, .d = d};
	yaml_mark_t km = {0};
	char *data = NULL, *key = NULL, *base = NULL, *slash;
	size_t len;
	int err;

	c->skip_code = -1;
	err = read_file_max(path, CONFIG_MAX + 1, &data, &len);
	if (err)
		return -err;
	if (len > CONFIG_MAX) {
		free(data);
		return diag_set(d, -EINVAL, "%s: larger than %d bytes", path, CONFIG_MAX);
	}
	c->path = xstrndup(path, strlen(path));
	slash = strrchr(path, '/');
	base = slash ? xstrndup(path, (size_t)(slash - path)) : NULL;
	if (!c->path || (slash && !base)) {
		err = -ENOMEM;
		goto out;
	}
	yaml_parser_initialize(&p.y);
	yaml_parser_set_input_string(&p.y, (const unsigned char *)data, len);
	p.ev.type = YAML_NO_EVENT;
	/* stream start, then a document (or none: an empty file) */
	err = next(&p);
	err = err ? err : next(&p);
	if (err == 0 && p.ev.type == YAML_DOCUMENT_START_EVENT) {
		err = next(&p);
		if (err == 0 && p.ev.type == YAML_SCALAR_EVENT && p.ev.data.scalar.length == 0)
			goto done; /* a document of comments */
		if (err == 0 && p.ev.type != YAML_MAPPING_START_EVENT)
			err = fail_at(&p, &p.ev.start_mark, "a mapping of keys is expected", NULL);
		while (err == 0 && (err = next(&p)) == 0 && p.ev.type != YAML_MAPPING_END_EVENT) {
			if (p.ev.type != YAML_SCALAR_EVENT) {
				err = fail_at(&p, &p.ev.start_mark, "a key is expected", NULL);
				break;
			}
			free(key);
			km = p.ev.start_mark;
			key = xstrndup(scalar(&p), p.ev.data.scalar.length);
			if (!key) {
				err = -ENOMEM;
				break;
			}
			err = next(&p);
			err = err ? err : pair(&p, c, key, &km, base);
		}
	}
done:
	yaml_event_delete(&p.ev);
	yaml_parser_delete(&p.y);
out:
	free(key);
	free(base);
	free(data);
	return err;
}

void config_free(struct config *c)
{
	free(c->path);
	strv_free(&c->context);
	strv_free(&c->rules);
	strv_free(&c->select);
	strv_free(&c->ignore);
	strv_free(&c->exclude);
	free(c->fail_on);
	free(c->format);
}
