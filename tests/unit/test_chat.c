// SPDX-License-Identifier: MIT
/* The transcript reader: what each format's parts are, and how lines are told apart. */
#include <string.h>

#include "input/chat.h"
#include "test.h"

struct seen {
	char out[2048];
};

/* Each part as "kind:index:role:text|". */
static int collect(void *ctx, const struct chat_part *p)
{
	struct seen *s = ctx;
	static const char kinds[] = "STP";
	size_t n = strlen(s->out);

	snprintf(s->out + n, sizeof(s->out) - n, "%c:%d:%s:%.*s|", kinds[p->kind],
		 p->message == (size_t)-1 ? -1 : (int)p->message, p->role, (int)p->len, p->text);
	return 0;
}

static const char *walk(const char *line, enum chat_line want)
{
	static struct seen s;
	struct json_value *v = NULL;
	const struct json_value *m;
	struct buf scratch = {0};
	const char *why;
	size_t n = 0;

	memset(&s, 0, sizeof(s));
	CHECK(json_parse(line, strlen(line), &v, NULL) == 0);
	CHECK(chat_classify(v, &m, &why) == want);
	if (want == CHAT_CONVERSATION)
		CHECK(chat_conversation(v, &scratch, collect, &s, &n) == 0);
	else if (want == CHAT_MESSAGE)
		CHECK(chat_message(m, 7, &scratch, collect, &s) == 0);
	json_free(v);
	buf_free(&scratch);
	return s.out;
}

TEST(chat_openai)
{
	CHECK_STR(walk("{\"messages\":[{\"role\":\"system\",\"content\":\"S\"},"
		       "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c\"}]},"
		       "{\"role\":\"tool\",\"content\":[{\"type\":\"text\",\"text\":\"T\"}]},"
		       "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
		       "{\"type\":\"image_url\"},{\"type\":\"text\",\"text\":\"b\"}]}],"
		       "\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"c\"}}]}",
		       CHAT_CONVERSATION),
		  "P:0:system:S|T:2:tool:T|S:3:assistant:a\nb|S:4:assistant:c|");
}

TEST(chat_anthropic)
{
	CHECK_STR(walk("{\"system\":[{\"type\":\"text\",\"text\":\"Y\"}],\"messages\":["
		       "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"content\":\"R\"},"
		       "{\"type\":\"text\",\"text\":\"U\"}]},"
		       "{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"x\"},"
		       "{\"type\":\"tool_use\",\"input\":{}},{\"type\":\"text\",\"text\":\"A\"}]}]}",
		       CHAT_CONVERSATION),
		  "P:-1:system:Y|T:0:user:R|P:0:user:U|S:1:assistant:A|");
}

TEST(chat_responses)
{
	CHECK_STR(walk("{\"instructions\":\"I\",\"input\":\"Q\",\"output\":["
		       "{\"type\":\"function_call\",\"arguments\":\"{}\"},"
		       "{\"type\":\"reasoning\",\"summary\":[]},"
		       "{\"type\":\"message\",\"role\":\"assistant\",\"content\":["
		       "{\"type\":\"output_text\",\"text\":\"O\"},{\"type\":\"refusal\",\"refusal\":\"N\"}]}]}",
		       CHAT_CONVERSATION),
		  "P:-1:system:I|P:0:user:Q|S:3:assistant:O\nN|");
	CHECK_STR(walk("{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":\"F\"}", CHAT_MESSAGE),
		  "T:7:tool:F|");
}

TEST(chat_run_logs)
{
	struct json_value *v = NULL;
	size_t from, to;
	const char *line = "{\"type\":\"user\",\"sessionId\":\"s1\",\"message\":{\"role\":\"user\","
			   "\"content\":[{\"type\":\"tool_result\",\"content\":[{\"type\":\"text\",\"text\":\"R\"}]}]}}";

	CHECK_STR(walk(line, CHAT_MESSAGE), "T:7:user:R|");
	CHECK(json_parse(line, strlen(line), &v, NULL) == 0);
	CHECK(chat_conversation_key(v, &from, &to));
	CHECK(to - from == 4 && memcmp(line + from, "\"s1\"", 4) == 0);
	json_free(v);
	CHECK_STR(walk("{\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"assistant\","
		       "\"content\":[{\"type\":\"output_text\",\"text\":\"A\"}]}}", CHAT_MESSAGE),
		  "S:7:assistant:A|");
	/* Events hold no message; an event's message is not scanned twice. */
	walk("{\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\"x\"}}", CHAT_EVENT);
	walk("{\"type\":\"summary\",\"summary\":\"x\"}", CHAT_EVENT);
	walk("{\"text\":\"x\"}", CHAT_INVALID);
	walk("[1]", CHAT_INVALID);
	/* A role the reader does not know is neither scanned nor grounding. */
	CHECK_STR(walk("{\"role\":\"critic\",\"content\":\"x\"}", CHAT_MESSAGE), "");
}
