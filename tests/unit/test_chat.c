// SPDX-License-Identifier: MIT
/* The transcript reader: what each format's parts are, and how lines are told apart. */
#include <errno.h>
#include <stdio.h>
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
	struct chat_error e;
	size_t n = 0;

	memset(&s, 0, sizeof(s));
	CHECK(json_parse(line, strlen(line), &v, NULL) == 0);
	CHECK(chat_classify(v, &m, &e) == want);
	if (want == CHAT_CONVERSATION)
		CHECK(chat_conversation(v, &scratch, collect, &s, &n, &e) == 0);
	else if (want == CHAT_MESSAGE)
		CHECK(chat_message(m, 7, &scratch, NULL, collect, &s, &e) == 0);
	json_free(v);
	buf_free(&scratch);
	return s.out;
}

/* A line the reader must refuse: classified as want, then an error whose reason holds said. */
static void refused(const char *line, enum chat_line want, const char *said)
{
	struct seen s = {{0}};
	struct json_value *v = NULL;
	const struct json_value *m;
	struct buf scratch = {0};
	struct chat_error e;
	size_t n = 0;
	int err = 0;

	CHECK(json_parse(line, strlen(line), &v, NULL) == 0);
	CHECK(chat_classify(v, &m, &e) == want);
	if (want == CHAT_CONVERSATION)
		err = chat_conversation(v, &scratch, collect, &s, &n, &e);
	else if (want == CHAT_MESSAGE)
		err = chat_message(m, 7, &scratch, NULL, collect, &s, &e);
	CHECK(want == CHAT_INVALID || err == -EBADMSG);
	if (!strstr(e.why, said)) {
		fprintf(stderr, "  %s: \"%s\" does not say \"%s\"\n", line, e.why, said);
		CHECK(!"the reason names what is wrong");
	}
	json_free(v);
	buf_free(&scratch);
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
	/* A role the reader does not know may be the model's: an error. */
	refused("{\"role\":\"critic\",\"content\":\"x\"}", CHAT_MESSAGE, "role \"critic\"");
	/* So is a line of a type no run log writes: it may hold the model's text. */
	refused("{\"type\":\"agent_reply\",\"text\":\"x\"}", CHAT_INVALID, "type \"agent_reply\"");
	refused("{\"type\":\"assistant\",\"uuid\":\"a\"}", CHAT_INVALID, "type \"assistant\"");
	/* Claude Code's other lines are no messages: a system notice, the final result. */
	walk("{\"type\":\"system\",\"subtype\":\"init\",\"content\":\"x\"}", CHAT_EVENT);
	walk("{\"type\":\"result\",\"subtype\":\"success\",\"result\":\"x\"}", CHAT_EVENT);
	walk("{\"type\":\"file-history-snapshot\",\"snapshot\":{}}", CHAT_EVENT);
	/* codex exec --json: a completed item is a message, the rest are events. */
	CHECK_STR(walk("{\"type\":\"item.completed\",\"item\":{\"id\":\"i\",\"type\":\"agent_message\","
		       "\"text\":\"A\"}}", CHAT_MESSAGE), "S:7:assistant:A|");
	CHECK_STR(walk("{\"type\":\"item.completed\",\"item\":{\"type\":\"command_execution\","
		       "\"command\":\"ls\",\"aggregated_output\":\"O\"}}", CHAT_MESSAGE), "T:7:tool:O|");
	CHECK_STR(walk("{\"type\":\"item.completed\",\"item\":{\"type\":\"mcp_tool_call\",\"result\":"
		       "{\"content\":[{\"type\":\"text\",\"text\":\"M\"}]}}}", CHAT_MESSAGE), "T:7:tool:M|");
	CHECK_STR(walk("{\"type\":\"item.completed\",\"item\":{\"type\":\"reasoning\",\"text\":\"R\"}}",
		       CHAT_MESSAGE), "");
	walk("{\"type\":\"item.updated\",\"item\":{\"type\":\"agent_message\",\"text\":\"A\"}}",
	     CHAT_EVENT);
	refused("{\"type\":\"item.completed\",\"item\":{\"type\":\"collab_call\",\"text\":\"x\"}}",
		CHAT_MESSAGE, "type \"collab_call\"");
}

/* Roles in the spellings APIs and frameworks write. */
TEST(chat_roles)
{
	CHECK_STR(walk("{\"messages\":[{\"role\":\"Assistant\",\"content\":\"a\"},"
		       "{\"role\":\"AI\",\"content\":\"b\"},{\"role\":\"ai\",\"content\":\"c\"},"
		       "{\"role\":\"CHATBOT\",\"message\":\"d\"},{\"role\":\"bot\",\"content\":\"e\"},"
		       "{\"role\":\"USER\",\"content\":\"U\"},{\"role\":\"TOOL\",\"content\":\"T\"}]}",
		       CHAT_CONVERSATION),
		  "S:0:Assistant:a|S:1:AI:b|S:2:ai:c|S:3:CHATBOT:d|S:4:bot:e|P:5:USER:U|T:6:TOOL:T|");
	/* Message-level text, and Chat Completions' spoken reply. */
	CHECK_STR(walk("{\"role\":\"assistant\",\"text\":\"t\"}", CHAT_MESSAGE), "S:7:assistant:t|");
	CHECK_STR(walk("{\"role\":\"assistant\",\"content\":null,\"audio\":{\"transcript\":\"v\"}}",
		       CHAT_MESSAGE), "S:7:assistant:v|");
}

/* LangChain: its message types stand for roles, bare or serialized. */
TEST(chat_langchain)
{
	CHECK_STR(walk("{\"messages\":[{\"type\":\"human\",\"content\":\"H\"},"
		       "{\"type\":\"ai\",\"content\":[{\"type\":\"text\",\"text\":\"A\"},"
		       "{\"type\":\"tool_use\",\"input\":{}}],\"tool_calls\":[]},"
		       "{\"type\":\"tool\",\"content\":\"T\",\"tool_call_id\":\"c\"},"
		       "{\"type\":\"AIMessageChunk\",\"content\":\"B\"}]}", CHAT_CONVERSATION),
		  "P:0:human:H|S:1:ai:A|T:2:tool:T|S:3:AIMessageChunk:B|");
	/* message_to_dict() */
	CHECK_STR(walk("{\"type\":\"ai\",\"data\":{\"content\":\"D\",\"type\":\"ai\"}}", CHAT_MESSAGE),
		  "S:7:ai:D|");
	/* dumpd(): the class names the role when kwargs do not */
	CHECK_STR(walk("{\"lc\":1,\"type\":\"constructor\",\"id\":[\"langchain\",\"schema\","
		       "\"messages\",\"AIMessage\"],\"kwargs\":{\"content\":\"K\"}}", CHAT_MESSAGE),
		  "S:7:ai:K|");
	CHECK_STR(walk("{\"type\":\"ai\",\"content\":\"L\"}", CHAT_MESSAGE), "S:7:ai:L|");
	refused("{\"lc\":1,\"type\":\"constructor\",\"id\":[\"langchain\",\"Document\"],"
		"\"kwargs\":{\"page_content\":\"x\"}}", CHAT_INVALID, "type \"constructor\"");
}

/* Gemini: contents (a missing role is the user's), parts, candidates. */
TEST(chat_gemini)
{
	CHECK_STR(walk("{\"systemInstruction\":{\"parts\":[{\"text\":\"Y\"}]},\"contents\":["
		       "{\"parts\":[{\"text\":\"Q\"}]},"
		       "{\"role\":\"model\",\"parts\":[{\"text\":\"why\",\"thought\":true},"
		       "{\"functionCall\":{\"name\":\"f\",\"args\":{}}},{\"text\":\"a\"},"
		       "{\"codeExecutionResult\":{\"outcome\":\"OUTCOME_OK\",\"output\":\"O\"}}]},"
		       "{\"role\":\"user\",\"parts\":[{\"functionResponse\":{\"name\":\"f\"}}]}]}",
		       CHAT_CONVERSATION),
		  "P:-1:system:Y|P:0:user:Q|T:1:model:O|S:1:model:a|");
	CHECK_STR(walk("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"C\"}],\"role\":\"model\"}},"
		       "{\"finishReason\":\"SAFETY\"}]}", CHAT_CONVERSATION),
		  "S:0:model:C|");
	refused("{\"contents\":[{\"role\":\"model\",\"parts\":[{\"blob\":1}]}]}", CHAT_CONVERSATION,
		"content part 0 is an object");
}

/* The Assistants API: text is {"value": ...}; legacy completions: a choice's text. */
TEST(chat_assistants)
{
	CHECK_STR(walk("{\"id\":\"msg_1\",\"object\":\"thread.message\",\"role\":\"assistant\","
		       "\"content\":[{\"type\":\"text\",\"text\":{\"value\":\"V\",\"annotations\":[]}},"
		       "{\"type\":\"image_file\",\"image_file\":{\"file_id\":\"f\"}}]}", CHAT_MESSAGE),
		  "S:7:assistant:V|");
	CHECK_STR(walk("{\"choices\":[{\"text\":\"X\",\"index\":0}]}", CHAT_CONVERSATION), "S:0:assistant:X|");
}

/* What could be the model's text and is not read is an error naming the message. */
TEST(chat_unreadable)
{
	refused("{\"messages\":[{\"role\":\"user\",\"content\":\"q\"},"
		"{\"role\":\"assistant\",\"content\":{\"kind\":\"weird\",\"body\":\"x\"}}]}",
		CHAT_CONVERSATION, "message_index 1 (assistant): content part 0 is an object");
	refused("{\"messages\":[{\"role\":\"assistant\",\"content\":42}]}", CHAT_CONVERSATION,
		"content is a number");
	refused("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
		"{\"type\":\"markdown\",\"md\":\"x\"}]}", CHAT_MESSAGE,
		"content part 1 is of type \"markdown\"");
	refused("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":{\"v\":1}}]}",
		CHAT_MESSAGE, "content part 0 is of type \"text\"");
	refused("{\"messages\":[{\"content\":\"x\"}]}", CHAT_CONVERSATION, "message_index 0 has no role");
	refused("{\"messages\":[7]}", CHAT_CONVERSATION, "message_index 0 is a number");
	refused("{\"output\":[{\"type\":\"agent_note\",\"text\":\"x\"}]}", CHAT_CONVERSATION,
		"type \"agent_note\"");
	refused("{\"role\":5,\"content\":\"x\"}", CHAT_MESSAGE, "role is a number");
	refused("{\"choices\":[{\"delta\":{\"content\":\"x\"}}]}", CHAT_CONVERSATION, "delta");
	/* What is not the model's is read as far as it can be, never an error. */
	CHECK_STR(walk("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"sticker\"},7,"
		       "{\"type\":\"text\",\"text\":\"U\"}]},{\"role\":\"tool\",\"content\":42}]}",
		       CHAT_CONVERSATION), "P:0:user:U|");
}
