// SPDX-License-Identifier: MIT
/* Files and standard input, read in pieces into a scanner. */
#include "plain.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"

static int feed(struct plain *p, struct halluscan_scanner *sc, const char *text, size_t len)
{
	int err = p->on_text ? p->on_text(p->text_ctx, text, len) : 0;

	return err ? err : halluscan_scanner_feed(sc, text, len);
}

static int open_input(const char *name)
{
	return strcmp(name, "-") == 0 ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
}

int plain_scan(struct plain *p, struct halluscan_scanner *sc, const char *name,
	       plain_line_fn on_line, void *ctx)
{
	const char *text;
	size_t len;
	int fd, err = 0;

	p->skipped = p->read_err = 0;
	fd = open_input(name);
	if (fd < 0) {
		p->skipped = errno;
		return 0;
	}
	decode_init(&p->dec);
	for (;;) {
		/* Bytes that pass through as they are go straight into the
		 * scanner's window, not copied there from buf. */
		char *room = NULL;
		size_t want = p->dec.enc == DECODE_BYTES || p->dec.enc == DECODE_UTF8_BOM
				      ? api_scanner_room(sc, &room, sizeof(p->buf))
				      : 0;
		ssize_t n = read(fd, want ? room : p->buf, want ? want : sizeof(p->buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			p->read_err = errno;
			break;
		}
		if (n == 0)
			break;
		if (want) {
			text = room;
			len = (size_t)n;
			err = p->on_text ? p->on_text(p->text_ctx, text, len) : 0;
			err = err ? err : api_scanner_feed_room(sc, len);
		} else {
			err = decode_feed(&p->dec, p->buf, (size_t)n, &text, &len);
			if (err == 0 && len > 0)
				err = feed(p, sc, text, len);
		}
		if (err)
			break;
		if (on_line && len > 0 && memchr(text, '\n', len)) {
			err = on_line(ctx);
			if (err)
				break;
		}
	}
	if (err == 0) {
		err = decode_end(&p->dec, &text, &len);
		if (err == 0 && len > 0)
			err = feed(p, sc, text, len);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (err == -EILSEQ) {
		/* Nothing was scanned: the decoder holds the first bytes until it knows. */
		p->skipped = EILSEQ;
		p->read_err = 0;
		return 0;
	}
	return err;
}

int plain_ground(struct plain *p, struct halluscan_scanner *sc, enum halluscan_grounding kind,
		 const char *path)
{
	int fd, err, end, read_err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	err = halluscan_scanner_grounding_begin(sc, kind);
	while (err == 0) {
		ssize_t n = read(fd, p->buf, sizeof(p->buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			read_err = errno;
		if (n <= 0)
			break;
		err = halluscan_scanner_grounding_feed(sc, p->buf, (size_t)n);
	}
	end = err ? 0 : halluscan_scanner_grounding_end(sc);
	close(fd);
	return err ? err : end ? end : read_err;
}

void plain_fini(struct plain *p)
{
	decode_free(&p->dec);
}
