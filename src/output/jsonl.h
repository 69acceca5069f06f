/* SPDX-License-Identifier: MIT */
/*
 * The JSONL writer: one record per finding, claim and input summary, as
 * the manual's OUTPUT section says, from what the library reports (it
 * sees findings, never the scanner). Records are built in w->b and
 * written to w->f by jsonl_flush(), or held until w->hold bytes are; the
 * first write error is kept and returned from then on, so a closed pipe
 * ends the run with every record found before it written.
 *
 * The caller owns struct jsonl: zero it, set f and rules, and
 * jsonl_fini() it at the end. No function keeps a pointer to a record.
 */
#ifndef HALLUSCAN_OUTPUT_JSONL_H
#define HALLUSCAN_OUTPUT_JSONL_H

#include <stdint.h>
#include <stdio.h>

#include "halluscan.h"

#include "common/util.h"

/* Where in a transcript a finding is (--input chat), for the writers besides JSONL. */
struct out_message {
	uint64_t record;   /* the input line that holds the message, 1-based */
	uint64_t index;    /* the message's place in its conversation, 0-based */
	const char *role;  /* as the transcript wrote it */
};

struct jsonl {
	FILE *f;
	const struct halluscan_rules *rules; /* for signal names and the digest */
	const char *path;  /* the input the records are about ("-": standard input) */
	/* Members written after path in every record, or NULL: where in a
	 * transcript the record is (",\"record\":3,..."), as JSON. */
	const char *where;
	size_t where_len;
	/* The same for the text, SARIF and github writers, or NULL: their line
	 * is then the record's, the message's own line and column are said
	 * beside it. */
	const struct out_message *message;
	struct buf b;      /* records not yet written */
	int err;           /* errno of the first write error */
	/* Bytes of whole records b may hold before jsonl_flush() writes them
	 * (under 64 KiB): 0, each record as it is made. Where nothing reads
	 * the stream before it is synced, more saves a call to fwrite() a
	 * record. held is those at the start of b, kept back (fewer than hold). */
	uint16_t hold, held;
};

/*
 * What the program's own output holds back (struct jsonl's hold): some
 * five findings' records a call to fwrite() take most of the saving, and
 * glibc copies a write of 4 KiB or more with rep movsb (valgrind counts
 * it an instruction a byte).
 */
#define JSONL_HOLD 2048

/* How an input was read, for its summary. */
struct jsonl_input {
	const char *encoding; /* decoded from, or NULL: read as bytes */
	uint64_t replaced;    /* code units that became U+FFFD */
	const char *error;    /* why it was not read to its end, or NULL */
	/* Findings not reported: a halluscan:ignore or :off covered them, the
	 * baseline held them, or they were prose signals in Markdown code. */
	uint64_t suppressed_inline, suppressed_baseline, suppressed_code;
};

/* Each appends one record and writes it (jsonl_flush): 0 or a negative errno. */
/* A finding, with its fingerprint when that is not NULL. */
int jsonl_finding(struct jsonl *w, const struct halluscan_finding *f, const char *fingerprint);
/* Appends ,"also":[...] for the signals a finding carries (nothing when none). */
int jsonl_also(struct buf *b, const struct halluscan_finding *f);
int jsonl_claim(struct jsonl *w, const struct halluscan_claim *c);
/* The claim's record appended to w->b, not written. */
int jsonl_claim_add(struct jsonl *w, const struct halluscan_claim *c);
/* The summary, last for each input; claims fields when s->claims is set. */
int jsonl_summary(struct jsonl *w, const struct halluscan_summary *s,
		  const struct jsonl_input *in);
/*
 * Writes what w->b holds to w->f's buffer, once that is w->hold bytes or
 * more; jsonl_sync() writes it whatever its length and flushes w->f, and
 * jsonl_fini() writes the records held back before it frees them (a run
 * that fails after them still writes them, as stdio did).
 */
int jsonl_flush(struct jsonl *w);
int jsonl_sync(struct jsonl *w);
void jsonl_fini(struct jsonl *w);

#endif
