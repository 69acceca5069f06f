// SPDX-License-Identifier: MIT
/* Inline directives and Markdown code, read a line at a time. */
#include "prescan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define DIRECTIVE PRESCAN_DIRECTIVE
#define DIRECTIVE_LEN PRESCAN_DIRECTIVE_LEN
/* The longest list of names a halluscan:ignore is read for. */
#define NAMES_MAX 256

/* The first "halluscan:" in s[0, n), or NULL: every piece of input is searched. */
static const char *find_directive(const char *s, size_t n)
{
	return find_literal(s, n, DIRECTIVE, DIRECTIVE_LEN);
}

void prescan_begin(struct prescan *p)
{
	size_t i;

	for (i = 0; i < p->n_ignores; i++)
		free(p->ignores[i].names);
	p->off = p->lines_done = p->line_start = p->dir_clear = 0;
	p->dir_hit = false;
	p->dir_tail_len = 0;
	p->look_due = 0;
	p->look_dir = UINT64_MAX;
	p->n_code = p->n_off = p->n_ignores = p->line_len = 0;
	p->n_marks = p->marks_done = p->n_seen = 0;
	p->off_open = p->in_fence = p->in_indented = p->in_list = false;
	p->prev_blank = true;
}

static int add_range(struct prescan *p, uint64_t start, uint64_t end)
{
	if (p->n_code > 0 && p->code_ranges[p->n_code - 1].end == start) {
		p->code_ranges[p->n_code - 1].end = end;
		return 0;
	}
	if (p->n_code >= PRESCAN_RANGES_MAX) {
		/* Only a span left open reports findings this far back. */
		size_t half = p->n_code / 2;

		memmove(p->code_ranges, p->code_ranges + half,
			(p->n_code - half) * sizeof(*p->code_ranges));
		p->n_code -= half;
	}
	if (grow(&p->code_ranges, &p->cap_code, p->n_code + 1, sizeof(*p->code_ranges)) < 0)
		return -ENOMEM;
	p->code_ranges[p->n_code++] = (struct prescan_range){start, end};
	return 0;
}

static bool is_name_start(char c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_name(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* halluscan:ignore [a[, b]...] at s[i..n), i just after "ignore"; the directive starts at at. */
static int add_ignore(struct prescan *p, const char *s, size_t i, size_t n, uint64_t at)
{
	struct buf names = {0};
	int err = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (i < n && is_name_start(s[i]) && names.len < NAMES_MAX) {
		size_t j = i;

		while (j < n && is_name(s[j]))
			j++;
		/* "-->" after a name is the comment's end, not part of it. */
		while (j > i && s[j - 1] == '-')
			j--;
		err |= names.len ? buf_addc(&names, ',') : 0;
		err |= buf_add(&names, s + i, j - i);
		i = j;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= n || s[i] != ',')
			break;
		i++;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	err |= names.len ? buf_addc(&names, '\0') : 0;
	err |= grow(&p->ignores, &p->cap_ignores, p->n_ignores + 1, sizeof(*p->ignores));
	if (err) {
		buf_free(&names);
		return -ENOMEM;
	}
	p->ignores[p->n_ignores++] = (struct prescan_ignore){p->lines_done + 1, at, names.data};
	return 0;
}

/*
 * The word w at s[i], ending where no letter, digit, '_' or '.' follows
 * ("halluscan:off-->" is one): the rule that reports directives in model
 * output (patterns/directives.yaml) finds every one of these.
 */
static bool word_at(const char *s, size_t i, size_t n, const char *w)
{
	size_t k = strlen(w);
	char c = i + k < n ? s[i + k] : ' ';

	return n - i >= k && memcmp(s + i, w, k) == 0 &&
	       ((!is_name(c) && !(c >= 'A' && c <= 'Z')) || c == '-');
}

/* Off at at (on: on), applied: an off while off and an on while on do nothing. */
static int apply_mark(struct prescan *p, uint64_t at, bool on)
{
	if (!on && !p->off_open) {
		if (grow(&p->off_ranges, &p->cap_off, p->n_off + 1, sizeof(*p->off_ranges)) < 0)
			return -ENOMEM;
		p->off_ranges[p->n_off++] = (struct prescan_range){at, UINT64_MAX};
		p->off_open = true;
	} else if (on && p->off_open) {
		p->off_ranges[p->n_off - 1].end = at;
		p->off_open = false;
	}
	return 0;
}

static int add_mark(struct prescan *p, uint64_t at, bool on)
{
	if (!p->confirm)
		return apply_mark(p, at, on);
	if (grow(&p->marks, &p->cap_marks, p->n_marks + 1, sizeof(*p->marks)) < 0)
		return -ENOMEM;
	p->marks[p->n_marks++] = (struct prescan_mark){at, on};
	return 0;
}

static int directives(struct prescan *p, const char *s, size_t n)
{
	const char *q = s;
	int err = 0;

	while (err == 0 && (q = find_directive(q, n - (size_t)(q - s)))) {
		size_t i = (size_t)(q - s) + DIRECTIVE_LEN;
		uint64_t at = p->line_start + (uint64_t)(q - s);

		if (word_at(s, i, n, "ignore"))
			err = add_ignore(p, s, i + 6, n, at);
		else if (word_at(s, i, n, "off"))
			err = add_mark(p, at, false);
		else if (word_at(s, i, n, "on"))
			err = add_mark(p, at, true);
		q += DIRECTIVE_LEN;
	}
	return err;
}

/* Inline code spans: a run of backticks up to the next run of the same length. The line's
 * first backtick is at s[i]: the caller found it. */
static int code_spans(struct prescan *p, const char *s, size_t n, size_t i)
{
	size_t open_len = 0, open_at = 0;
	const char *q;

	while (i < n && (q = memchr(s + i, '`', n - i))) {
		size_t j = (size_t)(q - s), r = 0;

		while (j + r < n && s[j + r] == '`')
			r++;
		if (open_len == 0) {
			if (j > 0 && s[j - 1] == '\\') {
				/* An escaped backtick is a character; the run goes on after it. */
				i = j + 1;
				continue;
			}
			open_len = r;
			open_at = j;
		} else if (r == open_len) {
			if (add_range(p, p->line_start + open_at, p->line_start + j + r) < 0)
				return -ENOMEM;
			open_len = 0;
		}
		i = j + r;
	}
	return 0;
}

/* "- ", "* ", "+ ", "1. ", "1) " */
static bool list_marker(const char *s, size_t n)
{
	size_t i = 0;

	if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t'))
		return true;
	while (i < n && i < 9 && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > 0 && i + 1 < n && (s[i] == '.' || s[i] == ')') && (s[i + 1] == ' ' || s[i + 1] == '\t');
}

/* The Markdown block a line is in: is it code? */
static bool code_line(struct prescan *p, const char *s, size_t n)
{
	size_t i = 0, col = 0, r = 0;
	bool blank;

	while (i < n && (s[i] == ' ' || s[i] == '\t')) {
		col = s[i] == '\t' ? (col + 4) & ~(size_t)3 : col + 1;
		i++;
	}
	blank = i == n || (i + 1 == n && s[i] == '\r');
	if (p->in_fence) {
		while (i + r < n && s[i + r] == p->fence_char)
			r++;
		if (col <= 3 && r >= p->fence_len) {
			size_t k = i + r;

			while (k < n && is_blank(s[k]))
				k++;
			if (k == n)
				p->in_fence = false;
		}
		p->prev_blank = blank;
		return true;
	}
	if (!blank && col <= 3 && (s[i] == '`' || s[i] == '~')) {
		while (i + r < n && s[i + r] == s[i])
			r++;
		if (r >= 3 && (s[i] == '~' || !memchr(s + i + r, '`', n - i - r))) {
			p->in_fence = true;
			p->fence_char = s[i];
			p->fence_len = r;
			p->in_indented = false;
			p->prev_blank = false;
			return true;
		}
	}
	if (!blank && col >= 4 && (p->prev_blank || p->in_indented) && !p->in_list &&
	    !list_marker(s + i, n - i)) {
		p->in_indented = true;
		p->prev_blank = false;
		return true;
	}
	if (!blank) {
		p->in_indented = false;
		if (col < 4 && list_marker(s + i, n - i))
			p->in_list = true;
		else if (col == 0 && p->prev_blank)
			p->in_list = false;
	}
	p->prev_blank = blank;
	return false;
}

/*
 * A line outside a fence that is empty or opens in its first column with
 * a byte no code starts with (no blank, '`' or '~': a letter, nearly
 * always, or a list item's marker) is no code: plain_line() does what
 * code_line() would with it, at a fraction of the cost, and nearly every
 * line is one.
 */
static inline bool plain_byte(unsigned char c)
{
	return c > ' ' && c != '`' && c != '~';
}

/* Whether a list marker can start with c ("- ", "* ", "+ ", "1. ", "1) "). */
static inline bool marker_byte(unsigned char c)
{
	return c == '-' || c == '*' || c == '+' || (c >= '0' && c <= '9');
}

static inline bool is_plain(const struct prescan *p, const char *s, size_t n)
{
	return !p->in_fence && (n == 0 || plain_byte((unsigned char)s[0]));
}

/* Whether a plain line s[0, n) is a list item's, or goes on a list (code_line()'s rule). */
static inline bool list_goes_on(bool in_list, bool prev_blank, const char *s, size_t n)
{
	return (marker_byte((unsigned char)s[0]) && list_marker(s, n)) || (in_list && !prev_blank);
}

static inline bool plain_line(struct prescan *p, const char *s, size_t n)
{
	if (n > 0) {
		p->in_indented = false;
		p->in_list = list_goes_on(p->in_list, p->prev_blank, s, n);
	}
	p->prev_blank = n == 0;
	return false;
}

/* What a line may hold, found for a whole piece at once (not per line). */
enum { MAY_DIRECTIVE = 1, MAY_BACKTICK = 2, MAY_ALL = 3 };

/*
 * s[0, n) is the line (or its first PRESCAN_LINE_MAX bytes); it ended at
 * p->off. may says what the line may hold: the caller looked.
 */
static int line_done(struct prescan *p, const char *s, size_t n, unsigned may)
{
	const char *tick;
	int err = 0;

	if (p->directives && (may & MAY_DIRECTIVE))
		err = directives(p, s, n);
	if (err == 0 && p->code) {
		if (is_plain(p, s, n) ? plain_line(p, s, n) : code_line(p, s, n))
			err = add_range(p, p->line_start, p->off);
		else if ((may & MAY_BACKTICK) && (tick = memchr(s, '`', n)))
			err = code_spans(p, s, n, (size_t)(tick - s));
	}
	p->lines_done++;
	p->line_start = p->off;
	p->line_len = 0;
	return err;
}

/*
 * The piece text[0, len), read from p->off on, whose first directive is
 * dir: keeps dir_clear and dir_hit, until the input's first directive.
 */
static void first_directive(struct prescan *p, const char *text, size_t len, const char *dir)
{
	const size_t keep = DIRECTIVE_LEN - 1;
	char join[2 * (DIRECTIVE_LEN - 1)];
	size_t head = MIN(len, keep), t = p->dir_tail_len;
	const char *hit;

	/* One that starts in the bytes before the piece and ends in it. */
	memcpy(join, p->dir_tail, t);
	memcpy(join + t, text, head);
	hit = find_directive(join, t + head);
	if (hit || dir) {
		p->dir_clear = hit ? p->off - t + (uint64_t)(hit - join) : p->off + (uint64_t)(dir - text);
		p->dir_hit = true;
		return;
	}
	p->dir_clear = p->off + len >= keep ? p->off + len - keep : 0;
	if (len >= keep) {
		memcpy(p->dir_tail, text + len - keep, keep);
		p->dir_tail_len = keep;
	} else {
		size_t old = MIN(t, keep - len);

		memmove(p->dir_tail, p->dir_tail + t - old, old);
		memcpy(p->dir_tail + old, text, len);
		p->dir_tail_len = old + len;
	}
}

/* The rest of a line begun in an earlier piece, up to nl (NULL: the piece's end). */
static int line_rest(struct prescan *p, const char *text, const char *end, const char *nl)
{
	size_t seg = (size_t)((nl ? nl : end) - text), take = MIN(seg, PRESCAN_LINE_MAX - p->line_len);

	memcpy(p->line + p->line_len, text, take);
	p->line_len += take;
	p->off += seg + (nl ? 1 : 0);
	return nl ? line_done(p, p->line, p->line_len, MAY_ALL) : 0;
}

/*
 * A line inside a fence that cannot close it (after its blanks, a byte
 * other than the fence's, or a fourth column): what code_line() says of
 * it, and nearly every line of a fence is one. *blank as code_line() has it.
 */
static inline bool fence_body(const struct prescan *p, const char *s, size_t n, bool *blank)
{
	size_t i = 0;

	if (!p->in_fence)
		return false;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	*blank = i == n || (i + 1 == n && s[i] == '\r');
	return i == n || i >= 4 || s[i] != p->fence_char;
}

/*
 * The whole line text[0, nl) (nl: its line break) of a piece that ends at
 * end. *dir and *tick: the piece's next directive and backtick at or after
 * where the search last stood (NULL: none to end), searched on as passed.
 */
static inline __attribute__((always_inline)) int whole_line(struct prescan *p, const char *text,
							      const char *nl, const char *end,
							      const char **dir, const char **tick)
{
	/* Of a longer line only the first PRESCAN_LINE_MAX bytes, as of one
	 * read across pieces: what counts is the same whatever the reads. */
	size_t len = (size_t)(nl - text), seg = MIN(len, PRESCAN_LINE_MAX);
	unsigned may = 0;
	bool blank;
	int err = 0;

	if (*tick && *tick < text)
		*tick = memchr(text, '`', (size_t)(end - text));
	if (*tick && *tick < text + seg)
		may |= MAY_BACKTICK;
	p->off += len + 1;
	if (*dir && *dir < text)
		*dir = find_directive(text, (size_t)(end - text));
	if (*dir && *dir < text + seg) {
		err = line_done(p, text, seg, may | MAY_DIRECTIVE);
	} else if (p->code && is_plain(p, text, seg)) {
		/* line_done() of most lines, without the call */
		plain_line(p, text, seg);
		if (may)
			err = code_spans(p, text, seg, (size_t)(*tick - text));
		p->lines_done++;
		p->line_start = p->off;
	} else if (p->code && fence_body(p, text, seg, &blank)) {
		/* line_done() of a fence's lines, without code_line() */
		p->prev_blank = blank;
		err = add_range(p, p->line_start, p->off);
		p->lines_done++;
		p->line_start = p->off;
	} else {
		err = line_done(p, text, seg, may);
	}
	return err;
}

int prescan_feed(struct prescan *p, const char *text, size_t len)
{
	const char *end = text + len, *nl;
	int err = 0;

	if (!p->line && !(p->line = malloc(PRESCAN_LINE_MAX)))
		return -ENOMEM;
	/* The next directive and backtick of the piece: a line before them
	 * holds neither (searching each line costs more than the rest). The
	 * piece is searched whole at once, for the scanner too. */
	const char *dir = NULL, *tick = text;

	if (p->directives) {
		dir = find_directive(text, len);
		if (!p->dir_hit)
			first_directive(p, text, len, dir);
	}
	if (p->line_len > 0) {
		nl = memchr(text, '\n', len);
		err = line_rest(p, text, end, nl);
		text = nl ? nl + 1 : end;
	}
	/* Whole lines, read in place. */
	while (text < end && err == 0 && (nl = memchr(text, '\n', (size_t)(end - text)))) {
		err = whole_line(p, text, nl, end, &dir, &tick);
		text = nl + 1;
	}
	return err == 0 && text < end ? line_rest(p, text, end, NULL) : err;
}

int prescan_look(struct prescan *p, const char *text, size_t len)
{
	const char *dir;

	if (!p->line && !(p->line = malloc(PRESCAN_LINE_MAX)))
		return -ENOMEM;
	if (!p->directives)
		return 0;
	dir = find_directive(text, len);
	p->look_dir = dir ? p->off + p->look_due + (uint64_t)(dir - text) : UINT64_MAX;
	if (!p->dir_hit) {
		/* first_directive() reads from p->off: the bytes looked at are next */
		uint64_t off = p->off;

		p->off += p->look_due;
		first_directive(p, text, len, dir);
		p->off = off;
	}
	p->look_due += len;
	return 0;
}

/*
 * whole_line() of the lines nl[i, n) of the piece at start (stream offset
 * base) from *text on, as long as each ends before stop and is plain: then
 * nothing but plain_line() and the counts can happen to it (outside a
 * fence, with no backtick or directive in it, whole_line() takes its plain
 * branch with nothing for code_spans()). One loop with the state in
 * locals, where most lines of prose come. Returns the first line not
 * taken; *text is its start.
 */
static size_t plain_lines(struct prescan *p, const char *start, uint64_t base, const uint64_t *nl,
			  size_t i, size_t n, const char **text, const char *stop)
{
	const char *t = *text;
	bool prev_blank = p->prev_blank, in_list = p->in_list, in_indented = p->in_indented;
	uint64_t off = p->off, done = 0;

	for (; i < n; i++) {
		const char *q = start + (nl[i] - base);

		if (q >= stop)
			break;
		if (q > t) {
			if (!plain_byte((unsigned char)t[0]))
				break;
			in_indented = false;
			in_list = list_goes_on(in_list, prev_blank, t, MIN((size_t)(q - t), PRESCAN_LINE_MAX));
			prev_blank = false;
		} else {
			prev_blank = true;
		}
		off += (uint64_t)(q - t) + 1;
		done++;
		t = q + 1;
	}
	if (done) {
		p->prev_blank = prev_blank;
		p->in_list = in_list;
		p->in_indented = in_indented;
		p->off = off;
		p->lines_done += done;
		p->line_start = off;
		*text = t;
	}
	return i;
}

/*
 * whole_line() of the lines nl[i, n) inside a fence from *text on, as long
 * as each ends before stop (the next directive) and cannot close the fence
 * (fence_body()), and the code range before them ends where they start:
 * each then only extends that range over itself (add_range()) and sets
 * prev_blank. Returns the first line not taken; *text is its start.
 */
static size_t fence_lines(struct prescan *p, const char *start, uint64_t base, const uint64_t *nl,
			  size_t i, size_t n, const char **text, const char *stop)
{
	struct prescan_range *last = p->n_code ? &p->code_ranges[p->n_code - 1] : NULL;
	const char *t = *text;
	uint64_t off = p->off, done = 0;
	bool blank = p->prev_blank, b;

	if (!last || last->end != p->line_start)
		return i;
	for (; i < n; i++) {
		const char *q = start + (nl[i] - base);
		size_t len = (size_t)(q - t);

		if (q >= stop || !fence_body(p, t, MIN(len, PRESCAN_LINE_MAX), &b))
			break;
		blank = b;
		off += len + 1;
		done++;
		t = q + 1;
	}
	if (done) {
		p->prev_blank = blank;
		last->end = off;
		p->off = off;
		p->lines_done += done;
		p->line_start = off;
		*text = t;
	}
	return i;
}

int prescan_lines(struct prescan *p, const char *text, size_t len, uint64_t base,
		  const uint64_t *nl, size_t n)
{
	const char *start = text, *end = text + len, *dir = NULL, *tick = text, *q;
	size_t i = 0;
	int err = 0;

	if (p->directives) {
		if (p->look_dir == UINT64_MAX || p->look_dir >= p->off + len)
			dir = NULL; /* none in the piece: the look found none before */
		else if (p->look_dir >= p->off)
			dir = text + (p->look_dir - p->off);
		else
			dir = find_directive(text, len);
	}
	p->look_due = len <= p->look_due ? p->look_due - len : 0;
	if (p->line_len > 0) {
		q = n ? start + (nl[0] - base) : NULL;
		err = line_rest(p, text, end, q);
		text = q ? q + 1 : end;
		i = q ? 1 : 0;
	}
	for (; i < n && err == 0; i++) {
		q = start + (nl[i] - base);
		if (p->code && !p->in_fence) {
			const char *stop;

			/* the searches whole_line() would make here, made first */
			if (tick && tick < text)
				tick = memchr(text, '`', (size_t)(end - text));
			if (dir && dir < text)
				dir = find_directive(text, (size_t)(end - text));
			stop = MIN(tick ? tick : end, dir ? dir : end);
			if (q < stop && (q == text || plain_byte((unsigned char)text[0]))) {
				i = plain_lines(p, start, base, nl, i, n, &text, stop);
				if (i == n)
					break;
				q = start + (nl[i] - base);
			}
		} else if (p->code) {
			/* (a backtick is nothing to a fence's line: only where it
			 * stands is searched again, by whole_line() as ever) */
			if (dir && dir < text)
				dir = find_directive(text, (size_t)(end - text));
			i = fence_lines(p, start, base, nl, i, n, &text, dir ? dir : end);
			if (i == n)
				break;
			q = start + (nl[i] - base);
		}
		err = whole_line(p, text, q, end, &dir, &tick);
		text = q + 1;
	}
	return err == 0 && text < end ? line_rest(p, text, end, NULL) : err;
}

int prescan_end(struct prescan *p)
{
	int err = 0;

	if (p->line_len > 0 || p->off > p->line_start)
		err = line_done(p, p->line ? p->line : "", p->line_len, MAY_ALL);
	p->lines_done = UINT64_MAX;
	return err;
}

void prescan_fini(struct prescan *p)
{
	prescan_begin(p);
	free(p->code_ranges);
	free(p->off_ranges);
	free(p->ignores);
	free(p->marks);
	free(p->seen);
	free(p->line);
}

static bool in_ranges(const struct prescan_range *r, size_t n, uint64_t offset)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].end <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && r[lo].start <= offset;
}

bool prescan_in_code(const struct prescan *p, uint64_t offset)
{
	return in_ranges(p->code_ranges, p->n_code, offset);
}

static bool names_has(const char *names, const char *name)
{
	size_t k = strlen(name);
	const char *s = names;

	while (s && *s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == k && memcmp(s, name, k) == 0)
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

static bool seen(const struct prescan *p, uint64_t at)
{
	size_t lo = 0, hi = p->n_seen;

	if (!p->confirm)
		return true;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->seen[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n_seen && p->seen[lo] == at;
}

int prescan_confirm(struct prescan *p, uint64_t at)
{
	size_t k = p->n_seen;

	if (seen(p, at))
		return 0;
	if (grow(&p->seen, &p->cap_seen, p->n_seen + 1, sizeof(*p->seen)) < 0)
		return -ENOMEM;
	/* In order of offset, as findings come; one out of order still counts. */
	while (k > 0 && p->seen[k - 1] > at)
		k--;
	memmove(p->seen + k + 1, p->seen + k, (p->n_seen - k) * sizeof(*p->seen));
	p->seen[k] = at;
	p->n_seen++;
	return 0;
}

int prescan_ignored(struct prescan *p, uint64_t offset, uint64_t line, const char *signal,
		    const char *rule, uint64_t seen_to, uint64_t *wait)
{
	size_t lo = 0, hi = p->n_ignores;
	bool pending = false;

	/* The offs and ons before seen_to are settled: confirmed, or a tool's. */
	for (; p->marks_done < p->n_marks && p->marks[p->marks_done].at < seen_to; p->marks_done++)
		if (seen(p, p->marks[p->marks_done].at) &&
		    apply_mark(p, p->marks[p->marks_done].at, p->marks[p->marks_done].on) < 0)
			return 0; /* no memory for the range: the finding is reported */
	if (in_ranges(p->off_ranges, p->n_off, offset))
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ignores[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n_ignores && p->ignores[lo].line == line; lo++) {
		const char *names = p->ignores[lo].names;

		if (names && !names_has(names, signal) && !names_has(names, rule))
			continue;
		if (seen(p, p->ignores[lo].at))
			return 1;
		if (!pending && p->ignores[lo].at >= seen_to) {
			pending = true;
			*wait = p->ignores[lo].at;
		}
	}
	return pending ? -1 : 0;
}
