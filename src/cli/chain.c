// SPDX-License-Identifier: MIT
/* --scratchpad: lock, read, and atomically replace a chain's shared JSON file. */
#include "cli/chain.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/emit.h"

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * An exclusive lock on the file the path names now. A writer that renamed
 * a new file over the path while we waited leaves us holding the lock of
 * a file nobody reads: then start over on the new one. Waits at most
 * CHAIN_LOCK_WAIT_MS in all (a hung writer must not hang the chain).
 */
static int lock_path(struct chain *c)
{
	long waited = 0, step = 1;

	for (;;) {
		struct stat now;
		/* Not blocking: opening a FIFO would wait for a writer forever. */
		int fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

		if (fd < 0)
			return errno;
		if (fstat(fd, &c->st) < 0) {
			int e = errno;

			close(fd);
			return e;
		}
		if (!S_ISREG(c->st.st_mode)) {
			close(fd);
			return -1; /* c->st says what it is */
		}
		while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;

			if (e != EWOULDBLOCK && e != EINTR) {
				close(fd);
				return e;
			}
			if (waited >= CHAIN_LOCK_WAIT_MS) {
				close(fd);
				return ETIMEDOUT;
			}
			nap_ms(step);
			waited += step;
			step = step < 64 ? step * 2 : 64;
		}
		if (fstat(fd, &c->st) < 0 || stat(c->path, &now) < 0) {
			int e = errno;

			close(fd);
			if (e == ENOENT && waited < CHAIN_LOCK_WAIT_MS)
				continue; /* between a writer's unlink and rename: look again */
			return e;
		}
		if (now.st_dev == c->st.st_dev && now.st_ino == c->st.st_ino) {
			c->fd = fd;
			return 0;
		}
		close(fd);
	}
}

/* The whole file, at most SCRATCHPAD_MAX_BYTES of it. */
static int read_all(struct chain *c)
{
	size_t cap = 0;

	if (c->st.st_size > (off_t)SCRATCHPAD_MAX_BYTES)
		return EFBIG;
	for (;;) {
		ssize_t n;

		if (c->len + 1 >= cap) {
			char *p;

			if (cap > SCRATCHPAD_MAX_BYTES)
				return EFBIG;
			cap = cap ? cap * 2 : (size_t)c->st.st_size + 4096;
			p = realloc(c->text, cap);
			if (!p)
				return ENOMEM;
			c->text = p;
		}
		n = read(c->fd, c->text + c->len, cap - c->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			break;
		c->len += (size_t)n;
	}
	c->text[c->len] = '\0';
	return 0;
}

static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m)   ? "a FIFO"
	       : S_ISDIR(m)  ? "a folder"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a regular file";
}

/* Room in the file for the three lists, the rest of the file as it is. */
static size_t list_room(const struct chain *c)
{
	/* The key, colon, comma and indentation of a new member, and the
	 * member's other fields (an error is a struct diag at most, escaped). */
	size_t fixed = sizeof(SCRATCHPAD_KEY) + c->sp.lead_len + c->sp.colon_len + 8 + 6 * 1024 +
		       256;
	size_t rest = c->len - (c->sp.end - c->sp.at);

	if (rest + fixed >= SCRATCHPAD_MAX_BYTES)
		return 0;
	return MIN((size_t)CHAIN_LISTS_MAX_BYTES, SCRATCHPAD_MAX_BYTES - rest - fixed);
}

int chain_open(struct chain *c, const char *path, struct diag *d)
{
	struct json_error je = {0};
	int err;

	c->fd = -1;
	c->path = realpath(path, NULL);
	if (!c->path)
		return errno;
	err = lock_path(c);
	if (err < 0)
		return diag_set(d, -EINVAL,
				"%s: %s: a scratchpad must be a regular file (it is read whole and "
				"replaced by renaming a new file over it); left as it is",
				path, kind_of(c->st.st_mode));
	if (err == 0)
		err = read_all(c);
	if (err)
		return err;
	err = scratchpad_parse(&c->sp, c->text, c->len, &je);
	if (err == -EINVAL)
		return diag_set(d, err, "%s: not a scratchpad (left as it is): %s at byte %zu", path,
				je.msg, je.offset);
	if (err < 0)
		return err;
	c->parsed = true;
	c->room = list_room(c);
	return 0;
}

static enum chain_list list_of(const char *signal)
{
	if (strcmp(signal, "fabricated_url") == 0)
		return CHAIN_URLS;
	if (strcmp(signal, "unsourced_statistic") == 0 || strcmp(signal, "ungrounded_number") == 0 ||
	    strcmp(signal, "altered_number") == 0)
		return CHAIN_STATS;
	return CHAIN_CLAIMS;
}

static int add_str(struct buf *b, const char *key, const char *s, size_t n)
{
	int err = buf_addf(b, ",\"%s\":", key);

	return err ? err : emit_json_string(b, s, n);
}

int chain_finding(void *ctx, const char *path, const struct halluscan_finding *f)
{
	struct chain *c = ctx;
	struct buf *b = &c->list[list_of(f->signal)];
	size_t i, was = b->len;
	int err = 0;

	if (f->grounded)
		return 0;
	c->findings++;
	if (f->severity > c->verdict)
		c->verdict = f->severity;
	/* The first findings, in order, while they fit; then only counted. */
	if (c->truncated) {
		c->truncated++;
		return 0;
	}
	err |= buf_adds(b, b->len ? ",{\"text\":" : "{\"text\":");
	err |= emit_json_string(b, f->text, f->text_len);
	err |= add_str(b, "signal", f->signal, strlen(f->signal));
	if (f->n_also) {
		err |= BUF_LIT(b, ",\"also\":[");
		for (i = 0; i < f->n_also; i++)
			err |= (i ? buf_addc(b, ',') : 0) |
			       emit_json_string(b, f->also[i], strlen(f->also[i]));
		err |= buf_addc(b, ']');
	}
	err |= add_str(b, "rule", f->rule, strlen(f->rule));
	err |= buf_addf(b, ",\"severity\":\"%s\"", halluscan_severity_name(f->severity));
	if (f->trigger)
		err |= add_str(b, "trigger", f->trigger, strlen(f->trigger));
	err |= add_str(b, "path", path, strlen(path));
	err |= buf_addf(b, ",\"start\":%llu,\"end\":%llu,\"line\":%llu,\"column\":%llu}",
			(unsigned long long)f->start, (unsigned long long)f->end,
			(unsigned long long)f->line, (unsigned long long)f->column);
	if (err)
		return -ENOMEM;
	if (c->listed + (b->len - was) > c->room) {
		b->len = was;
		c->truncated++;
		return 0;
	}
	c->listed += b->len - was;
	return 0;
}

/* The member's value: one line of JSON. */
static int member(const struct chain *c, const char *error, struct buf *b)
{
	static const char *const names[CHAIN_LISTS] = {
		[CHAIN_URLS] = "fabricated_urls",
		[CHAIN_STATS] = "unsourced_stats",
		[CHAIN_CLAIMS] = "suspect_claims",
	};
	size_t i;
	int err = 0;

	err |= BUF_LIT(b, "{");
	for (i = 0; i < CHAIN_LISTS; i++) {
		err |= buf_addf(b, "%s\"%s\":[", i ? "," : "", names[i]);
		err |= buf_add(b, c->list[i].data, c->list[i].len);
		err |= buf_addc(b, ']');
	}
	/* A run that failed passes nothing: its verdict says so, whatever it
	 * found before it stopped. */
	err |= buf_addf(b, ",\"findings\":%llu,\"truncated\":%llu,\"verdict\":\"%s\","
			"\"pressure\":%s",
			(unsigned long long)c->findings, (unsigned long long)c->truncated,
			error ? "error" : halluscan_severity_name(c->verdict),
			c->pressure ? "true" : "false");
	err |= buf_addf(b, ",\"suppressed\":{\"inline\":%llu,\"baseline\":%llu,\"code\":%llu}",
			(unsigned long long)c->sup_inline, (unsigned long long)c->sup_baseline,
			(unsigned long long)c->sup_code);
	err |= BUF_LIT(b, ",\"error\":");
	err |= error ? emit_json_string(b, error, strlen(error)) : BUF_LIT(b, "null");
	err |= buf_addf(b, ",\"version\":\"%s\"}", halluscan_version());
	return err ? ENOMEM : 0;
}

int chain_commit(struct chain *c, const char *error)
{
	struct buf value = {0}, out = {0};
	int err;

	if (!c->parsed)
		return EINVAL;
	err = member(c, error, &value);
	if (err == 0 && scratchpad_splice(&c->sp, value.data ? value.data : "", value.len, &out) < 0)
		err = ENOMEM;
	/* What the next step could not read is not written (list_room()
	 * leaves room; a file already at the limit has none). */
	if (err == 0 && out.len > SCRATCHPAD_MAX_BYTES)
		err = EFBIG;
	if (err == 0)
		err = cli_replace_file(c->path, &c->st, out.data, out.len, false);
	buf_free(&value);
	buf_free(&out);
	return err;
}

void chain_close(struct chain *c)
{
	size_t i;

	if (c->fd >= 0)
		close(c->fd); /* and with it the lock */
	c->fd = -1;
	scratchpad_fini(&c->sp);
	free(c->path);
	c->path = NULL;
	free(c->text);
	c->text = NULL;
	for (i = 0; i < CHAIN_LISTS; i++)
		buf_free(&c->list[i]);
}
