// SPDX-License-Identifier: MIT
/* .halluscan.yaml: found, read with libyaml's events, checked key by key. */
#include "configfile.h"

#include <errno.h>
#include <fcntl.h>
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

/* dir/name, or /name at the root; false when it does not fit. */
static bool join(char *out, size_t n, const char *dir, const char *name)
{
	return (size_t)snprintf(out, n, "%s/%s", strcmp(dir, "/") ? dir : "", name) < n;
}

/* An entry of that name, whatever it is (a dangling link too): 1, 0, or -errno. */
static int has(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (!join(path, sizeof(path), dir, name))
		return -ENAMETOOLONG;
	if (lstat(path, &st) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

/* Others may create entries in it: nothing there is the project's. */
static bool anyone_writes(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && (st.st_mode & S_IWOTH);
}

static void up(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/* Where config_find() looks: each PATH_MAX long. */
struct where {
	char start[PATH_MAX], top[PATH_MAX], dir[PATH_MAX], home[PATH_MAX], path[PATH_MAX];
};

static int find(struct where *w, const char *h, char **out, struct diag *d)
{
	char *start = w->start, *top = w->top, *dir = w->dir, *home = w->home, *path = w->path;
	bool have_home;
	int r;

	if (!getcwd(start, PATH_MAX)) {
		r = errno;
		return diag_set(d, -r, "the working folder, where .halluscan.yaml is looked for: "
				"%s (--config FILE or --no-config says which)", strerror(r));
	}
	/* getcwd() gives no links, so neither may home; a home of / bounds nothing. */
	have_home = h && *h && realpath(h, home) && strcmp(home, "/") != 0;
	/* The top: the first folder up from start that holds .git or is home; else start. */
	memcpy(top, start, strlen(start) + 1);
	memcpy(dir, start, strlen(start) + 1);
	for (;;) {
		if (strcmp(dir, start) != 0 && anyone_writes(dir))
			break;
		r = has(dir, ".git");
		if (r < 0)
			return diag_set(d, r, "%s/.git: %s", dir, strerror(-r));
		if (r > 0 || (have_home && strcmp(dir, home) == 0)) {
			memcpy(top, dir, strlen(dir) + 1);
			break;
		}
		if (strcmp(dir, "/") == 0)
			break;
		up(dir);
	}
	memcpy(dir, start, strlen(start) + 1);
	for (;;) {
		if (!join(path, PATH_MAX, dir, CONFIG_NAME))
			return diag_set(d, -ENAMETOOLONG, "%s/%s: %s", dir, CONFIG_NAME,
					strerror(ENAMETOOLONG));
		r = has(dir, CONFIG_NAME);
		if (r < 0)
			return diag_set(d, r, "%s: %s", path, strerror(-r));
		/* Only start can be such a folder: the climb stopped below any other. */
		if (r > 0 && anyone_writes(dir))
			return diag_set(d, -EPERM, "%s: not read: anyone may write its folder "
					"(--config FILE reads it, --no-config reads none)", path);
		if (r > 0)
			return (*out = xstrndup(path, strlen(path))) ? 0 : -ENOMEM;
		if (strcmp(dir, top) == 0)
			return 0;
		up(dir);
	}
}

int config_find(char **out, struct diag *d)
{
	const char *env = getenv("HALLUSCAN_CONFIG"), *h = getenv("HOME");
	struct where *w;
	int r;

	*out = NULL;
	if (env && *env)
		return (*out = xstrndup(env, strlen(env))) ? 0 : -ENOMEM;
	/*
	 * On the heap, not the stack: 20 KB of stack, touched at every start
	 * and by nothing after, were pages faulted in for each run (issue 35);
	 * the heap's are used again by what is allocated next.
	 */
	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	r = find(w, h, out, d);
	free(w);
	return r;
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

static const char *kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a folder" : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a file";
}

/*
 * A regular file, checked before it is opened (opening a FIFO waits for
 * a writer; a device's open may do something) and again on what was
 * opened, in case the name changed in between.
 */
static int read_config(const char *path, char **data, size_t *len, struct diag *d)
{
	struct stat st;
	int fd, err;

	if (stat(path, &st) < 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		goto not_file;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		goto not_file;
	}
	err = read_fd_max(fd, CONFIG_MAX + 1, data, len);
	close(fd);
	if (err)
		return err == -ENOMEM ? err : -err;
	if (*len > CONFIG_MAX) {
		free(*data);
		return diag_set(d, -EINVAL, "%s: larger than %d bytes", path, CONFIG_MAX);
	}
	return 0;
not_file:
	return diag_set(d, -EINVAL, "%s: %s, not a regular file: not read", path, kind(st.st_mode));
}

int config_load(struct config *c, const char *path, struct diag *d)
{
	struct parser p = {.path = path, .d = d};
	yaml_mark_t km = {0};
	char *data = NULL, *key = NULL, *base = NULL, *slash;
	size_t len;
	int err;

	c->skip_code = -1;
	err = read_config(path, &data, &len, d);
	if (err)
		return err;
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
