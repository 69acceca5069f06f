#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpora of fuzz/corpus/ from what the tree already holds:
the built-in packs and their examples, the golden CLI cases' inputs and a
few short synthetic records, the transcript fixtures and transcript shapes. Run from anywhere; it replaces the generated
seeds (named seed-*) and leaves other files (inputs a fuzzer found and that
were kept on purpose) alone. Serialized rulesets (the rules target's *.blob)
are written by the rules target itself: see fuzz_rules.c (FUZZ_WRITE_BLOBS).

    fuzz/seeds.py
"""
import hashlib
import json
import os
import re
import struct
import sys

import yaml

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(TOP, 'fuzz', 'corpus')
CASES = os.path.join(TOP, 'tests', 'cli', 'cases')

# Option bytes of scan_split: bit 0 --claims, 1 --show-grounded, 2 a source,
# 3 PCRE2 too, bits 4-6 a context, 7 the span nonce NONCE.
CLAIMS, GROUNDED, SOURCE, PCRE2, NONCE_FLAG = 1, 2, 4, 8, 0x80
NONCE = 'fuzz-nonce-0123'  # as fuzz_scan_split.c has it


def read(*path):
    with open(os.path.join(TOP, *path), 'rb') as f:
        return f.read()


def packs():
    d = os.path.join(TOP, 'patterns')
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith('.yaml'))


def rules():
    for p in packs():
        with open(p, encoding='utf-8') as f:
            for r in (yaml.safe_load(f) or {}).get('rules', []):
                yield r


def text_of(ex):
    return ex['text'] if isinstance(ex, dict) else ex


def case_inputs():
    """(name, stdin, source) of every CLI case that feeds text."""
    for name in sorted(os.listdir(CASES)):
        d = os.path.join(CASES, name)
        stdin = os.path.join(d, 'stdin')
        if not os.path.exists(stdin) or os.path.getsize(stdin) == 0:
            continue
        src = os.path.join(d, 'policy.txt')
        yield (name, open(stdin, 'rb').read(),
               open(src, 'rb').read() if os.path.exists(src) else None)


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'seed-' + name), 'wb') as f:
        f.write(data)


def clean(target):
    d = os.path.join(CORPUS, target)
    if os.path.isdir(d):
        for n in os.listdir(d):
            if n.startswith('seed-'):
                os.remove(os.path.join(d, n))


def scan_split_seed(flags, text, source=None, seed=0x1234567, piece=7):
    head = bytes([flags]) + struct.pack('>I', seed) + bytes([piece - 1])
    if source is None:
        return head + text
    share = round(255 * len(source) / (len(source) + len(text))) if text else 255
    # The harness cuts len(rest) * share // 255 bytes of source: make it exact.
    rest = source + text
    while share < 255 and len(rest) * share // 255 < len(source):
        share += 1
    cut = len(rest) * share // 255
    return head + bytes([share]) + source[:cut] + (source[cut:] + text)


def seeds_scan_split():
    n = 0
    for name, stdin, source in case_inputs():
        write('scan_split', name, scan_split_seed(0, stdin))
        write('scan_split', name + '-claims', scan_split_seed(CLAIMS | PCRE2 | 0x20, stdin,
                                                              seed=n + 1, piece=3))
        if source:
            write('scan_split', name + '-source',
                  scan_split_seed(SOURCE | CLAIMS | GROUNDED, stdin, source, piece=11))
        n += 1
    write('scan_split', 'transcript',
          scan_split_seed(GROUNDED | PCRE2 | 0x40, read('examples', 'transcript.txt'), piece=64))
    # Spans in the nonce form, spoofed ones and one left open.
    nonced = ('Before <tool_output nonce="%s">Revenue was $1.2 billion, see https://a.example/x'
              '</tool_output nonce="%s"> It was $1.3 billion.\n<tool_output>Growth was 73.4%%.'
              '</tool_output> Growth was 73.4%%.\n<tool_result nonce="%s">open\n' % (NONCE, NONCE, NONCE))
    write('scan_split', 'nonce', scan_split_seed(NONCE_FLAG | CLAIMS | PCRE2, nonced.encode(), piece=9))
    # A source whose lines repeat but for a leading number (a list of lines).
    write('scan_split', 'line-run-source',
          scan_split_seed(SOURCE | CLAIMS | GROUNDED,
                          read('tests', 'cli', 'cases', 'number-line-run', 'stdin'),
                          read('tests', 'cli', 'cases', 'number-line-run', 'source.txt'), piece=11))
    # A source whose lines' labels are numbered (a list of items), one folded as YAML folds it.
    labels = (b'Offsite plan\n\nSession 1: Kickoff\n  - Room: B2\nSession 2: Roadmap\n'
              b'content: "Intro\\n\\nActivity 1: Map\\n  - Date: 2025-04-02\\n\\nActivity\\\n'
              b'    \\ 2: Rope\\nActivity 3: Quiz\\n"\nSession 3: Retro\nSession 5: Out of turn\n')
    write('scan_split', 'numbered-labels-source',
          scan_split_seed(SOURCE | CLAIMS | GROUNDED,
                          b'The plan has 3 sessions and 3 activities; Activity 2 is on 2025-04-02.\n',
                          labels, piece=5))
    # Every rule's examples and negative examples, one rule a seed.
    for r in rules():
        texts = [text_of(e) for e in r.get('examples', []) + r.get('negative_examples', [])]
        write('scan_split', 'rule-' + r['id'],
              scan_split_seed(CLAIMS | PCRE2, '\n'.join(texts).encode(), piece=5))


def pair_files():
    """(name, bytes) of every JSONL file of the CLI cases that use --pairs."""
    for name in sorted(os.listdir(CASES)):
        d = os.path.join(CASES, name)
        if b'--pairs' not in open(os.path.join(d, 'cmd'), 'rb').read():
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith('.jsonl') or f == 'stdin':
                yield name, open(os.path.join(d, f), 'rb').read()


def seeds_pairs():
    for name, data in pair_files():
        for i, line in enumerate(data.splitlines()):
            if line.startswith(b'{'):
                write('pairs', '%s-%d' % (name, i), line + b'\n')
        write('pairs', name + '-all', data)
    # Raw pairs: the first byte splits claim from passage.
    claim = b'Members get 12% off and $1.3 billion in Q3 2024 per https://x.example/a.'
    passage = b'Members get 10% off. Revenue was $1.2 billion in the third quarter.'
    write('pairs', 'raw', bytes([round(255 * len(claim) / (len(claim) + len(passage)))]) +
          claim + passage)
    for name, stdin, source in case_inputs():
        if source:
            rec = {'id': name, 'claim': stdin.decode('utf-8', 'replace'),
                   'passage': source.decode('utf-8', 'replace')}
            write('pairs', 'case-' + name, json.dumps(rec).encode() + b'\n')


def span_of(response, needle, label=None):
    raw = response.encode()
    at = raw.find(needle.encode())
    s = {'byte_start': at, 'byte_end': at + len(needle.encode()), 'text': needle}
    if label:
        s['label'] = label
    return s


def seeds_eval():
    recs = []
    resp = 'See https://docs.example.com/x. It grew 73.4% last year.'
    recs.append({'id': 'r1', 'dataset': 'synthetic', 'response': resp, 'has_hallucination': True,
                 'spans': [span_of(resp, '73.4%', 'statistic')]})
    recs.append({'id': 2, 'dataset': 'synthetic', 'response': 'The sky is blue.',
                 'has_hallucination': False})
    recs.append({'dataset': 'numbers', 'response': 'You have 30 days to return it and save 12%.',
                 'source': 'Refunds within 14 days; members save 10%.', 'has_hallucination': True})
    recs.append({'claim': 'Revenue was $1.3 billion.', 'passage': 'Revenue was $1.2 billion.',
                 'label': 'does_not_support'})
    recs.append({'id': 'p2', 'claim': 'Members save 10%.', 'passage': 'Members save 10%.',
                 'label': 'supports'})
    lines = [json.dumps(r, ensure_ascii=False).encode() for r in recs]
    malformed = [b'not json', b'{"response": 5, "has_hallucination": true}',
                 b'{"response": "x", "has_hallucination": true, "spans": [{"byte_start": 0,'
                 b' "byte_end": 9}]}', b'{"claim": "x", "passage": "y", "label": "maybe"}']
    # byte 0: bit 0 --sweep, bit 1 text, bit 2 --misjudgments
    write('eval', 'records-json', b'\x04' + b'\n'.join(lines) + b'\n')
    write('eval', 'records-sweep', b'\x05' + b'\n'.join(lines + malformed) + b'\n\n')
    write('eval', 'records-text', b'\x03' + b'\n'.join(lines[:3] + malformed[:1]) + b'\n')
    # Control bytes in a dataset name and in a malformed line, for the text report and err.
    rec = {'id': 'c', 'dataset': '\x1b]0;x\x07\u009b\x7f', 'response': 'It is 73.4%.',
           'has_hallucination': True}
    write('eval', 'records-controls', b'\x02' + json.dumps(rec).encode() + b'\nnot json \x1b[31m\xc2\x9b\n')
    for name, stdin, source in case_inputs():
        rec = {'id': name, 'dataset': 'cli', 'response': stdin.decode('utf-8', 'replace'),
               'has_hallucination': name.startswith('spec-')}
        if source:
            rec['source'] = source.decode('utf-8', 'replace')
        write('eval', 'case-' + name, b'\x04' + json.dumps(rec).encode() + b'\n')


def seeds_keys():
    # byte 0 is the tolerance (percent); the rest is text, and as lines
    # "context TAB quantity" the quantity search.
    # Numbered within each rule, so that a change to one rule renames no other seed.
    for r in rules():
        for k, e in enumerate(r.get('examples', [])):
            if isinstance(e, dict) and 'match' in e:
                write('keys', 'match-%s-%d' % (r['id'], k), bytes([25]) + e['match'].encode())
    lines = ['Revenue was\t$1.2 billion', 'revenue\t$1.3 billion', 'members save\t10%',
             'members\t12 percent', 'the refund window\t14 days', 'refunds\ttwo weeks',
             'headcount\t140 employees', 'employees\t120', 'in\tQ3', 'the\tthird quarter',
             'price\t€300k', 'cost\t£1,200.50', 'up\ttwenty-one', 'old\t0.13']
    write('keys', 'search', bytes([25]) + '\n'.join(lines).encode())
    write('keys', 'search-exact', bytes([0]) + '\n'.join(lines[4:] + lines[:4]).encode())
    write('keys', 'url', bytes([100]) + b'HTTPS://Docs.Example.COM:443/a/b/?q=1#frag')
    write('keys', 'citation', bytes([50]) + b'According to Dr. Williams et al. (2024)')
    write('keys', 'number', bytes([1]) + b'18.30 %')
    # IBANs, together and in groups of four (one code, its key without blanks)
    write('keys', 'iban', bytes([25]) + b'Paid CH9300762011623852957 and GB29 NWBK 6016 1331 9268 19, '
          b'not DE89370400440532013000 nor AB12 3456 or NL91 ABNA 0417 1643 00 2024')
    write('keys', 'iban-grouped', bytes([25]) + b'GB29 NWBK 6016 1331 9268 19')
    # days said relative to another or to today
    write('keys', 'relative-days', bytes([25]) + b'May 27th, the day before the 28th; tomorrow, in 3 days, '
          b'two weeks later, a week ago, the day after tomorrow, the next day, 40 days later')


def seeds_json():
    for i, line in enumerate(read('tests', 'cli', 'cases', 'pairs', 'pairs.jsonl').splitlines()):
        write('json', 'pairs-%d' % i, line)
    write('json', 'escapes', b'["\\u00e9\\ud83d\\ude00\\udc80\\u0000\\"\\\\\\/\\b\\f\\n\\r\\t",'
                             b'"\xc3\xa9\xff"]')
    write('json', 'numbers', b'[0,-0,1e308,-1e-400,9223372036854775807,-9223372036854775808,'
                             b'9223372036854775808,1.5E+3,true,false,null]')
    write('json', 'nested', b'{"a":{"b":[{"c":[[[]]]},{}]},"a":1}')
    # --records' strict copy: bytes that are no UTF-8, lone and paired surrogates
    write('json', 'strict-utf8', b'{"id\xff":"a\xc3 \xed\xa0\x80 \xf4\x90\x80\x80",'
                                 b'"s":"\\udc80\\uDCff\\ud800\\udc80 \\udcc3","k":[1,"\\u00e9\xe9"]}')
    # credentials in URLs, for url_redact()
    write('json', 'url-userinfo', b'["https://alice:tok@git.example.com:8443/r.git",'
                                  b'"http://p@ss@10.0.0.1/x a://x@b://y@c https://@h ftp://u@[::1]:21/"]')
    # Past json_parse()'s 64 levels: json_scan_object() reads it, or refuses
    # the trailing comma deep inside.
    deep = b'[' * 200 + b']' * 200
    write('json', 'deep-object',
          b'{"a":' + deep + b',"b":{"c":' + b'{"d":' * 80 + b'null' + b'}' * 80 + b'}}')
    write('json', 'deep-trailing-comma', b'{"a":' + b'[' * 100 + b'1,' + b']' * 100 + b'}')
    for name, stdin, _ in case_inputs():
        rec = {'response': stdin.decode('utf-8', 'replace'), 'has_hallucination': False}
        write('json', 'case-' + name, json.dumps(rec).encode())


def seeds_rules():
    for p in packs():
        write('rules', 'pack-' + os.path.basename(p), open(p, 'rb').read())
    for name in ('broken-example', 'broken-rules', 'user-rules'):
        d = os.path.join(CASES, name)
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith('.yaml'):
                    write('rules', 'case-%s-%s' % (name, f), open(os.path.join(root, f), 'rb').read())
    write('rules', 'small.yaml', b'''rules:
  - id: t.alt
    signal: test_signal
    severity: block
    caseless: yes
    pattern: [ 'foo\\d{1,3}', 'bar(?:baz)?' ]
    unless_sentence: 'never'
    unless_before: '\\bno\\b'
    unless_after: 'ok'
    grounding: exact
    message: 'found {text}'
    recovery: 'hedge {hedged}, round {round}, {{literal}}'
    examples: [ 'a foo12 b', { text: 'x bar y', match: 'bar' } ]
    negative_examples: [ 'nothing', 'no foo1' ]
  - id: t.num
    signal: ungrounded_number
    severity: warn
    grounding: quantity
    pattern: '\\$\\d{1,6}'
    near: { signal: altered_number, tolerance: 0.5, message: '{text} vs {source}', recovery: 'use {source}' }
    message: 'm'
    recovery: 'r'
    examples: [ { text: '<t>$10</t> it is $12', match: '$12' } ]
    negative_examples: [ '<t>$10</t> it is $10' ]
spans:
  - { name: t, open: '<t>', close: '</t>' }
contexts:
  - { name: strict, description: all, escalate: [ test_signal, altered_number ] }
  - { name: none, escalate: [] }
''')


def seeds_decode():
    # byte 0 a mark to put first (0 none, 1 UTF-8, 2 UTF-16LE, 3 UTF-16BE,
    # 4 UTF-32LE, 5 UTF-32BE), bytes 1-4 the pieces' seed, byte 5 the largest.
    def head(mark, piece=7):
        return bytes([mark]) + struct.pack('>I', 0x2468ace) + bytes([piece - 1])
    for name in ('encodings', 'encoding-no-bom'):
        d = os.path.join(CASES, name)
        for f in sorted(os.listdir(d)):
            if f.endswith('.txt'):
                write('decode', '%s-%s' % (name, f[:-4]), head(0) + read(d, f))
    text = 'Revenue was $1.2 billion (\u20ac1,1 Mrd.), see https://a.example/\u00e9 \U0001f600.\n'
    for mark, enc in ((2, 'utf-16-le'), (3, 'utf-16-be'), (4, 'utf-32-le'), (5, 'utf-32-be')):
        raw = text.encode(enc)
        write('decode', 'mark-' + enc, head(mark, piece=3) + raw)
        write('decode', 'nomark-' + enc, head(0, piece=5) + raw)
        write('decode', 'cut-' + enc, head(mark, piece=2) + raw[:-1])
    # Unpaired surrogates both ways, a pair split by the read, and past U+10FFFF.
    write('decode', 'surrogates-16le', head(2, piece=1) + b'\x00\xd8a\x00\x00\xdc\x3d\xd8\x00\xde\x00\xd8')
    write('decode', 'beyond-32be', head(5, piece=3) + b'\x00\x11\x00\x00\x00\x00\xd8\x00\x00\x00\x00a')


def tool_spans():
    """(name, bytes) of the text inside every tool span of the CLI cases."""
    for name, stdin, _ in case_inputs():
        for i, m in enumerate(re.finditer(rb'<(tool_output|tool_result)[^>]*>(.*?)</\1[^>]*>', stdin,
                                          re.S)):
            yield '%s-%d' % (name, i), m.group(2)


def seeds_record():
    # byte 0 how often the rest repeats (1 + byte % 4; 17 + byte % 16 with the
    # top 3 bits set), bytes 1-4 the pieces' seed, byte 5 the largest piece.
    def head(times=1, piece=9):
        rep = times - 1 if times <= 4 else 0xe0 | (times - 17)
        return bytes([rep]) + struct.pack('>I', 0x1357bdf) + bytes([piece - 1])
    for name, text in tool_spans():
        write('record', 'span-' + name, head() + text)
    for name, _, source in case_inputs():
        if source:
            write('record', 'source-' + name, head(piece=40) + source)
    write('record', 'pairs-jsonl', head(piece=17) + read('tests', 'cli', 'cases', 'pairs', 'pairs.jsonl'))
    rec = {'business': {'name': 'Caf\u00e9 \"Z\"', 'stars': 4.5, 'reviewCount': 1203, 'open': True,
                        'hours': [{'day': 'Mon', 'from': '9:00'}, None], 'price_range': '$$'},
           'ratio': -1.25e-3, 'note': 'Revenue was $1.2 billion.\nUp 12% (\ud83d\ude00).'}
    write('record', 'json-nested', head(piece=5) + json.dumps(rec).encode())
    write('record', 'json-escapes', head(piece=3) + b'["\\u00e9\\ud83d\\ude00\\udc80 \\n\\t\\"\\\\ \\x", 1e400, '
          b'123456789012345678901234567890123456789012345678901234567890123456789, tru]')
    write('record', 'jsonl-bad-line', head(piece=6) + b'{"a": 1}\n{"b": [1, 2,, 3]} then prose 14 days\n'
          b'{"c": "resumes"}\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]\n')
    write('record', 'text-keys', head(piece=4) + b'\xef\xbb\xbfRefund window: 14 days\r\n- Price = $40\n'
          b'  * Support hours: 24/7\nhttps://x.example/a: no key\n10:30 is no key\nPlain prose line.')
    # A long string and a long line, repeated past the chunk bound.
    write('record', 'long-string', head(times=32, piece=255) + b'["' + b'Sales rose 4% to $9.1 million. ' * 17)
    write('record', 'long-line', head(times=32, piece=200) + b'Revenue was $1.2 billion and margins ' * 14)
    # Escapes where a chunk is cut (a repeated text cannot hold one long string):
    # the two U+FFFD of a lone high surrogate and a short \u, and the code point
    # after a lone high surrogate with the text ending there, each decoded in the
    # step that cuts the chunk (the rest moves down at the reader's resume).
    filler = b'a' * 12286 + b'. ' + b'a' * 4094
    write('record', 'long-escapes-bound', head(piece=255) + b'["' + filler + b'\\ud800\\u12Gz", 7]')
    write('record', 'long-escapes-cut-off', head(piece=64) + b'["' + filler + b'\\ud800\\u0041')


# Transcript shapes beyond the fixtures: each one read (roles, nested
# texts) or refused (what could be the model's and is not read).
CHAT_SHAPES = {
    'role-spellings': {'messages': [{'role': 'AI', 'content': 'a'}, {'role': 'Assistant', 'content': 'b'},
                                    {'role': 'CHATBOT', 'message': 'c'}, {'role': 'USER', 'content': 'u'}]},
    'message-text': {'role': 'assistant', 'text': 'https://t.example', 'audio': {'transcript': 'v'}},
    'audio-transcript': {'role': 'assistant', 'content': None, 'audio': {'transcript': 'Said 12.5%.'}},
    'assistants-value': {'object': 'thread.message', 'role': 'assistant', 'content': [
        {'type': 'text', 'text': {'value': 'V 41.5%', 'annotations': []}},
        {'type': 'image_file', 'image_file': {'file_id': 'f'}}]},
    'gemini': {'systemInstruction': {'parts': [{'text': 'Y'}]}, 'contents': [
        {'parts': [{'text': 'Q'}]},
        {'role': 'model', 'parts': [{'text': 'why', 'thought': True}, {'functionCall': {'name': 'f'}},
                                    {'text': 'A https://g.example'},
                                    {'codeExecutionResult': {'outcome': 'OUTCOME_OK', 'output': 'O'}}]},
        {'role': 'user', 'parts': [{'functionResponse': {'name': 'f', 'response': {}}}]}]},
    'gemini-candidates': {'candidates': [{'content': {'role': 'model', 'parts': [{'text': 'C'}]}},
                                         {'finishReason': 'SAFETY'}]},
    'langchain': {'messages': [{'type': 'human', 'content': 'H'},
                               {'type': 'ai', 'content': [{'type': 'text', 'text': 'A'}], 'tool_calls': []},
                               {'type': 'tool', 'content': 'T', 'tool_call_id': 'c'},
                               {'type': 'AIMessageChunk', 'content': 'B'}]},
    'langchain-dict': {'type': 'ai', 'data': {'content': 'D', 'type': 'ai'}},
    'langchain-dumpd': {'lc': 1, 'type': 'constructor', 'id': ['langchain', 'schema', 'messages', 'AIMessage'],
                        'kwargs': {'content': 'K'}},
    'legacy-choice': {'choices': [{'text': 'X', 'index': 0}]},
    'server-tool-result': {'role': 'assistant', 'content': [
        {'type': 'server_tool_use', 'name': 'web_search', 'input': {}},
        {'type': 'web_search_tool_result', 'content': [{'type': 'web_search_result', 'url': 'https://w.example'}]},
        {'type': 'mcp_tool_result', 'content': [{'type': 'text', 'text': 'M'}]},
        {'type': 'text', 'text': 'R'}]},
    'codex-exec-message': {'type': 'item.completed', 'item': {'id': 'i', 'type': 'agent_message', 'text': 'A'}},
    'codex-exec-command': {'type': 'item.completed', 'item': {
        'type': 'command_execution', 'command': 'ls', 'aggregated_output': 'O', 'exit_code': 0}},
    'codex-exec-mcp': {'type': 'item.completed', 'item': {
        'type': 'mcp_tool_call', 'result': {'content': [{'type': 'text', 'text': 'M'}]}}},
    'bad-codex-item': {'type': 'item.completed', 'item': {'type': 'collab_call', 'text': 'x'}},
    'claude-events': {'type': 'system', 'subtype': 'init', 'session_id': 's', 'content': 'x'},
    'bad-content-object': {'messages': [{'role': 'assistant', 'content': {'kind': 'weird', 'body': 'x'}}]},
    'bad-content-number': {'messages': [{'role': 'assistant', 'content': 42}]},
    'bad-part-type': {'role': 'assistant', 'content': [{'type': 'text', 'text': 'a'}, {'type': 'markdown'}]},
    'bad-text-object': {'role': 'assistant', 'content': [{'type': 'text', 'text': {'v': 1}}]},
    'bad-role': {'role': 'critic', 'content': 'x'},
    'bad-role-type': {'role': 5, 'content': 'x'},
    'bad-no-role': {'messages': [{'content': 'x'}, 7]},
    'bad-item-type': {'output': [{'type': 'agent_note', 'text': 'x'}]},
    'bad-line-type': {'type': 'agent_reply', 'text': 'x'},
    'bad-delta': {'choices': [{'delta': {'content': 'x'}}]},
    # Tool calls and their results (who said it): kept, answered, refused.
    'calls-chat': {'messages': [
        {'role': 'assistant', 'content': None, 'tool_calls': [
            {'id': 'c1', 'function': {'arguments': '{"time": "11:00:00"}'}},
            {'id': 'c2', 'function': {'arguments': {'n': [1, 2.5, True, None]}}},
            {'id': 'c3', 'args': {'u': 'https://a.example'}}, {'id': 7}, 'x']},
        {'role': 'tool', 'tool_call_id': 'c1', 'content': '{"error": null, "id": 1}'},
        {'role': 'tool', 'tool_call_id': 'c2', 'content': '{"metadata": {"exit_code": 1}}'},
        {'role': 'tool', 'tool_call_id': 'c3', 'status': 'error', 'content': 'Exit code: 0'},
        {'role': 'tool', 'tool_call_id': 'c1', 'content': '[{"a": 1}]'},
        {'role': 'assistant', 'content': 'At 11 am.'}]},
    'calls-anthropic': {'messages': [
        {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 't', 'input': {'a': {'b': []}}},
                                          {'type': 'server_tool_use', 'id': 's', 'input': 'q'}]},
        {'role': 'user', 'content': [
            {'type': 'tool_result', 'tool_use_id': 't', 'is_error': True, 'content': 'x'},
            {'type': 'web_search_tool_result', 'tool_use_id': 's',
             'content': {'type': 'web_search_tool_result_error', 'error_code': 'x'}}]}]},
    'calls-items': {'input': [
        {'type': 'function_call', 'call_id': 'f', 'arguments': '{}'},
        {'type': 'local_shell_call', 'call_id': 'l', 'action': {'command': ['ls', '-l']}},
        {'type': 'custom_tool_call', 'call_id': 'k', 'input': 'patch'},
        {'type': 'function_call_output', 'call_id': 'l', 'output': 'Traceback (most recent call last)'},
        {'type': 'custom_tool_call_output', 'call_id': 'k', 'output': [{'type': 'input_text', 'text': 'ok'}]},
        {'type': 'mcp_call', 'arguments': '{"q": 1}', 'output': 'done', 'error': None}]},
    'calls-codex-exec': {'type': 'item.completed', 'item': {
        'type': 'command_execution', 'command': 'curl https://a.example', 'aggregated_output': '',
        'exit_code': 0}},
    'calls-codex-mcp': {'type': 'item.completed', 'item': {
        'type': 'mcp_tool_call', 'arguments': {'q': 'x'}, 'result': {'content': [{'type': 'text', 'text': 'r'}]},
        'error': None, 'status': 'completed'}},
    'compact-summary': {'type': 'user', 'isCompactSummary': True,
                        'message': {'role': 'user', 'content': 'summary https://a.example'}},
}


def seeds_chat():
    # The last byte is where the callback stops the walk (fuzz_chat.c): 3.
    fix = os.path.join(TOP, 'tests', 'fixtures', 'chat')
    k = 0
    # (ATIF trajectories came later: numbered apart, so the others keep their names.)
    for name in sorted(n for n in os.listdir(fix) if n.endswith('.jsonl') and n != 'atif.jsonl'):
        for line in open(os.path.join(fix, name), 'rb').read().split(b'\n'):
            if line.strip():
                k += 1
                write('chat', '%s-%d' % (name[:-len('.jsonl')], k), line + b'\x03')
    for i, line in enumerate(read('tests', 'fixtures', 'chat', 'atif.jsonl').splitlines()):
        write('chat', 'atif-%d' % (i + 1), line + b'\x03')
        write('chat', 'atif-%d-stop' % (i + 1), line + b'\x01')
    for name, v in CHAT_SHAPES.items():
        write('chat', 'shape-' + name, json.dumps(v).encode() + b'\x03')
        write('chat', 'shape-' + name + '-stop', json.dumps(v).encode() + b'\x01')


def seeds_numlex():
    # byte 0: bit 0 the text starts a line, bits 1-7 repeats; byte 1 the item to stop at.
    for name, stdin, source in case_inputs():
        write('numlex', 'case-' + name, bytes([1, 0]) + stdin)
        if source:
            write('numlex', 'source-' + name, bytes([1, 3]) + source)
    for r in rules():
        if r.get('grounding') == 'quantity':
            texts = [text_of(e) for e in r.get('examples', []) + r.get('negative_examples', [])]
            write('numlex', 'rule-' + r['id'], bytes([0, 0]) + '\n'.join(texts).encode())
    lines = [
        '## 3. Results: revenue rose 12.5% to $1.2 billion in Q3 2021 (3Q21), up from \u20ac980 million.',
        '7. Preheat to 350 \u00b0F (175 \u00b0C) for 25-30 minutes, between 4 and 5 pm on March 26, 2024.',
        'About 1,200 employees, more than two dozen sites, twenty-five people; the 3rd floor; 24/7 support.',
        'Here are 5 tips in a 68-word summary; see Passage 2, Table 4 and [1, 3].',
        'Python 3.11.2 on iOS 17.2, v2.3.1, 192.168.0.1, SARS-CoV-2, COVID-19, user_42, a1b2c3.',
        'Call +1 (415) 555 0100 at 11 am to 11 pm; 2013-09-08T17:30:24Z; $15 to $25; 3-5%; ~40; 100+.',
        'One of the first, no one, one by one, seven days a week, 365 days a year, 24 hours a day.',
        'date: 2022-0 3-04, 2022-03-0 4T10:00, 2022-0 3-0 4, 2022-0 3-041, 2022-1 3-04, 2022-0 3',
    ]
    write('numlex', 'sentences', bytes([1, 0]) + '\n'.join(lines).encode())
    write('numlex', 'sentences-stop', bytes([1 | 2 * 3, 7]) + lines[0].encode() + b' ')
    # phone numbers and house numbers in every layout the lexer reads, and near misses
    write('numlex', 'phones', bytes([1 | 2 * 1, 0]) + (
        b'At 1234 Main St., 55 Fifth Avenue, 9 Martin Luther King Jr Blvd, 12 Street, $12 Main St; '
        b'Call 408-247-8880, (408) 247-8880, 408.247.8880, +1 408 247 8880, 1-408-247-8880 or '
        b'+14082478880; London +44 20 7946 0958; not 555-0100, 1 408 247 8880, 500-1000, '
        b'+1 (415) 555-0100 x12, 123-04 Roosevelt Ave, +123456789012345678.\n'))
    write('numlex', 'digits-repeated', bytes([2 * 3, 0]) + b'1 1-9 9 12345678901234567890 ' * 8)


def seeds_arith():
    # byte 0: repeats (1 + byte % 4); byte 1: the size of the buffers written into.
    for name, stdin, _ in case_inputs():
        if name.startswith('chat-a'):
            write('arith', 'case-' + name, bytes([0, 95]) + stdin)
    lines = [
        '- Room: $95.0 * 4 = $380.0 (lowest rate); 4 nights x \u20ac120 = \u20ac480',
        'Food: (25 + 35) * 2 * 4 + (15 + 20) * 2 * 2 = \u20ac480 + \u20ac200 = \u20ac680',
        'Net: $2,450.00 - $35.00 = $2,415.00; New amount: 1450.00 (1400.00 + 50.00)',
        'Hotel: \u20ac440 (4 nights at \u20ac110/night); 4 nights at maximum 90 EUR per night = 360 EUR',
        'The average of $90, $110 and $160 is $120; $600 split between 4 people is $150 each.',
        '$100 / 3 = $33.33, 3 x 7 is about 20, 3 x 7 \u2248 21, $240 * 15% = $36, 0.1 + 0.2 = 0.3',
        'A tip of 18% of $85.00 comes to $15.30; 20% of $150 is $25; 3 of 4 = 0.75',
        '10:00 - 13:00 on 2024-05-26, 10-20 people, v1.2.3, $1.2 million + $300,000 = $1.5 million',
        '$100 / 0 = $5; 999999999999 * 999999999999 * 999999999999 = 1; \u00a359 \u00d7 4 = \u20ac236',
        '$30 per person per meal * 2 meals/day * 3 days = $180; $5 per per per a b c d x 2 = $10',
        'Food: 110.0 (Pizza party: 100.0, Sushi dinner: 10.0); \u20ac765 (\u20ac285 for 3 nights + \u20ac480)',
        '\u20ac285 (95 x 3) + \u20ac480 (40.0 x 2 x 2 x 3) = \u20ac765; (3 x \u20ac30) = \u20ac90 (it\'s cash-only)',
        '9 (a: 1, b: (2), c: 3 x 2); 9 (a: 1 + b: 8%; 7 (1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8',
        '3 nights at 180 per night = 540; 6 meals at 12 each = 72; 3 days at the lowest rate of 35 per day = 105',
        '3 nights at Lac Hotel at 240 per night = 740; 2 meals at Caf\u00e9 Ros\u00e9 at \u20ac15 = \u20ac30; at A B C D E at',
        'at the a b c d of 5; 3 nights at the of 2 = 6; (2 nights at the maximum price of 330.0/night = 660.0)',
        '((20 + 30) * 2 = 100); (1 = (2)); 22 \\* 2 meals/day \\* 4 days = 176; a \\ 4 \\',
    ]
    write('arith', 'sentences', bytes([0, 255]) + '\n'.join(lines).encode())
    write('arith', 'sentences-short-buffers', bytes([1, 6]) + lines[1].encode() + b' ')
    write('arith', 'plus-repeated', bytes([3, 40]) + b'1+' * 2000 + b'1 = 9')
    write('arith', 'parens-deep', bytes([3, 40]) + b'(' * 500 + b'1 + 1 = 2 ((((((1 + 1)))))) * 2 = 4')
    write('arith', 'results-many', bytes([3, 80]) + b'1 + 1 = 2 ' * 100)


def seeds_prescan():
    """Directives and Markdown: the golden cases that hold either, and decoys."""
    for name, stdin, _ in case_inputs():
        if b'halluscan:' in stdin or b'`' in stdin or b'    ' in stdin:
            write('prescan', name, bytes([len(name) % 97]) + stdin)
    page = os.path.join(CASES, 'directive-tool-span', 'page.md')
    if os.path.exists(page):
        write('prescan', 'directive-tool-span', bytes([5]) + open(page, 'rb').read())
    write('prescan', 'decoys', bytes([8]) + (
        b'hxxxxxxxx: halluscan;HALLUSCAN:off halluscan :off halluscan:offA halluscan:off.\n'
        b'a halluscan:ignore fabricated_url, url.http-->\n```\nhalluscan:off\n```\n'
        b'b halluscan:on `x` halluscan:ignore\n    code https://a.b\n') * 3)


def seeds_hook():
    """Payloads as the hooks reference documents them (byte 0 even), and the
    hook fixtures' session logs with each option byte (byte 0 odd)."""
    stop = {"session_id": "abc123", "transcript_path": "/tmp/s.jsonl", "cwd": "/work",
            "permission_mode": "default", "hook_event_name": "Stop", "stop_hook_active": True}
    payloads = {
        'stop': stop,
        'stop-last-message': dict(stop, last_assistant_message="See https://x.example/a."),
        'subagent-stop': dict(stop, hook_event_name="SubagentStop", agent_id="a1",
                              agent_type="Explore", agent_transcript_path="/tmp/a.jsonl"),
        'post-tool-use': {"session_id": "abc123", "transcript_path": "/tmp/s.jsonl",
                          "cwd": "/work", "hook_event_name": "PostToolUse", "tool_name": "Write",
                          "tool_input": {"file_path": "/work/README.md", "content": "x"},
                          "tool_response": {"filePath": "/work/README.md", "success": True},
                          "tool_use_id": "toolu_01ABC123"},
        'post-tool-use-bash': {"hook_event_name": "PostToolUse", "tool_name": "Bash",
                               "tool_input": {"command": "ls"}},
        'other-event': {"hook_event_name": "UserPromptSubmit", "prompt": "hi"},
    }
    codex_stop = {"cwd": "/work", "hook_event_name": "Stop", "last_assistant_message": None,
                  "model": "gpt-5.2-codex", "permission_mode": "default", "session_id": "s",
                  "stop_hook_active": False, "transcript_path": None, "turn_id": "t1"}
    # Byte 1 is the harness: 0 Claude Code, 1 Codex.
    for name, p in payloads.items():
        write('hook', 'payload-' + name, b'\x00\x00' + json.dumps(p).encode())
    write('hook', 'payload-codex-stop', b'\x00\x01' + json.dumps(codex_stop).encode())
    write('hook', 'payload-codex-stop-as-claude', b'\x00\x00' + json.dumps(codex_stop).encode())
    for name, raw in (('bad-type', b'{"hook_event_name":"Stop","transcript_path":"/x",'
                                   b'"stop_hook_active":"yes"}'),
                      ('nul-path', b'{"hook_event_name":"Stop","transcript_path":"/a\\u0000b"}'),
                      ('not-json', b'{"hook_event_name":')):
        write('hook', 'payload-' + name, b'\x00\x00' + raw)
    d = os.path.join(TOP, 'tests', 'fixtures', 'hook')
    for f in sorted(os.listdir(d)):
        if not f.endswith('.jsonl'):
            continue
        log = read('tests', 'fixtures', 'hook', f)
        # Bit 6 of the option byte reads it as a Codex rollout.
        for opt in (0, 1, 2, 0x09, 0x19, 0x21, 0x3a, 0x40, 0x49):
            write('hook', 'log-%s-%02x' % (f[:-6], opt), b'\x01' + bytes([opt]) + log)
    write('hook', 'log-partial', b'\x01\x01' + read('tests', 'fixtures', 'hook', 'clean.jsonl') +
          b'{"type":"assistant","message":{"role":"assi')


def main():
    for t in ('scan_split', 'pairs', 'eval', 'keys', 'json', 'rules', 'decode', 'record', 'numlex',
              'chat', 'prescan', 'hook', 'arith'):
        clean(t)
    seeds_scan_split()
    seeds_pairs()
    seeds_eval()
    seeds_keys()
    seeds_json()
    seeds_rules()
    seeds_decode()
    seeds_record()
    seeds_numlex()
    seeds_arith()
    seeds_chat()
    seeds_prescan()
    seeds_hook()
    total = sum(len(os.listdir(os.path.join(CORPUS, t))) for t in os.listdir(CORPUS))
    print('%d seeds in %s' % (total, CORPUS))


if __name__ == '__main__':
    sys.exit(main())
