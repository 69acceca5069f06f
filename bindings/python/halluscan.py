# SPDX-License-Identifier: MIT
"""halluscan for Python: libhalluscan.so.0 through ctypes, standard library only.

Finds the signals that hallucinated content leaves in a model's reply --
fabricated URLs, unsourced statistics, fabricated citations, certainty
about the future, numbers that differ from their grounding -- in process,
in microseconds, with no model call.

    import halluscan
    gate = halluscan.Gate(contexts=["user-facing"])
    verdict = gate.check(reply, sources=[policy_text])
    if not verdict.ship:
        hold(reply, verdict.findings)

Rules are opened once and shared by every thread; a Scanner (or a Gate)
belongs to one thread at a time. A scanner keeps its rules alive, so they
may be closed or collected in any order, at interpreter exit too. Scans
run outside the GIL, so threads scan in parallel. Offsets are byte
offsets into the UTF-8 text; text is decoded with surrogateescape, so
bytes that are not UTF-8 survive.

The library is found at $HALLUSCAN_LIBRARY, else beside this file
(libhalluscan.so, as `pip install .` puts it), else in this file's source
tree's build (../../build), else as libhalluscan.so.0 on the loader's path.
"""
import ctypes
import dataclasses
import errno
import os
import threading
import weakref
from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char, c_char_p, c_double, c_int,
                    c_size_t, c_uint, c_uint64, c_void_p)

__all__ = ["Rules", "Scanner", "Gate", "Finding", "Claim", "ClaimItem", "Summary", "Verdict",
           "HalluscanError", "version", "engine_version"]


def _load():
    path = os.environ.get("HALLUSCAN_LIBRARY")
    if not path:
        here = os.path.dirname(os.path.abspath(__file__))
        # A wheel's copy is the one built with this file: it comes first.
        for path in (os.path.join(here, "libhalluscan.so"),
                     os.path.join(here, "..", "..", "build", "libhalluscan.so.0"),
                     "libhalluscan.so.0"):
            if os.path.exists(path):
                break
    return ctypes.CDLL(path)


_lib = _load()

# ---- the C structures, as include/halluscan.h lays them out ----


class _Error(Structure):
    _fields_ = [("code", c_int), ("message", c_char * 1024)]


class _Pack(Structure):
    _fields_ = [("name", c_char_p), ("data", c_void_p), ("len", c_size_t)]


class _RulesOptions(Structure):
    _fields_ = [("size", c_size_t), ("flags", c_uint),
                ("paths", POINTER(c_char_p)), ("n_paths", c_size_t),
                ("packs", POINTER(_Pack)), ("n_packs", c_size_t),
                ("cache_dir", c_char_p)]


class _RulesInfo(Structure):
    _fields_ = [("digest", c_char_p), ("engine", c_char_p), ("degraded", c_char_p),
                ("n_rules", c_size_t), ("n_signals", c_size_t), ("n_contexts", c_size_t),
                ("n_spans", c_size_t), ("n_examples", c_size_t),
                ("n_negative_examples", c_size_t), ("n_triggers", c_size_t),
                ("n_trigger_examples", c_size_t), ("n_trigger_negative_examples", c_size_t)]


class _Rule(Structure):
    _fields_ = [("id", c_char_p), ("signal", c_char_p), ("pattern", c_char_p),
                ("severity", c_int), ("flags", c_uint), ("file", c_char_p), ("line", c_uint),
                ("n_examples", c_size_t), ("n_negative_examples", c_size_t)]


class _Finding(Structure):
    _fields_ = [("signal", c_char_p), ("signal_index", c_size_t), ("rule", c_char_p),
                ("severity", c_int), ("start", c_uint64), ("end", c_uint64),
                ("line", c_uint64), ("column", c_uint64),
                ("text", POINTER(c_char)), ("text_len", c_size_t), ("text_truncated", c_bool),
                ("message", c_char_p), ("recovery", c_char_p),
                ("grounded", c_bool), ("grounded_at", c_uint64),
                ("source", c_char_p), ("source_at", c_uint64),
                ("also", POINTER(c_char_p)), ("also_index", POINTER(c_size_t)),
                ("n_also", c_size_t), ("trigger", c_char_p)]


class _ClaimItem(Structure):
    _fields_ = [("rule", c_char_p), ("start", c_uint64), ("end", c_uint64),
                ("text", POINTER(c_char)), ("text_len", c_size_t),
                ("grounded", c_bool), ("grounded_at", c_uint64)]


class _Claim(Structure):
    _fields_ = [("start", c_uint64), ("end", c_uint64),
                ("text", POINTER(c_char)), ("text_len", c_size_t), ("label", c_int),
                ("items", POINTER(POINTER(_ClaimItem))), ("n_items", c_size_t),
                ("cut", c_bool)]


_FINDING_FN = CFUNCTYPE(c_int, c_void_p, POINTER(_Finding))
_CLAIM_FN = CFUNCTYPE(c_int, c_void_p, POINTER(_Claim))


class _ScannerOptions(Structure):
    _fields_ = [("size", c_size_t), ("flags", c_uint),
                ("contexts", POINTER(c_char_p)), ("n_contexts", c_size_t),
                ("fail_on", c_int), ("span_nonce", c_char_p),
                ("max_unsupported_ratio", c_double), ("on_claim", _CLAIM_FN)]


class _Summary(Structure):
    _fields_ = [("bytes", c_uint64), ("findings", c_uint64), ("verdict", c_int),
                ("failed", c_bool), ("n_signals", c_size_t),
                ("signal_counts", POINTER(c_uint64)),
                ("exempted", c_uint64), ("grounded", c_uint64), ("repeats", c_uint64),
                ("ground_evictions", c_uint64), ("spans", c_uint64),
                ("unterminated_spans", c_uint64), ("match_limit_hits", c_uint64),
                ("claims", POINTER(c_uint64)), ("claims_checked", c_uint64),
                ("unsupported_ratio", c_double), ("trust", c_double),
                ("claims_sufficient", c_bool), ("pressure", c_bool)]


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_version = _fn("halluscan_version", c_char_p)
_engine_version = _fn("halluscan_engine_version", c_char_p)
_strerror = _fn("halluscan_strerror", c_char_p, c_int)
_severity_name = _fn("halluscan_severity_name", c_char_p, c_int)
_claim_label_name = _fn("halluscan_claim_label_name", c_char_p, c_int)
_rules_open = _fn("halluscan_rules_open", c_int, POINTER(_RulesOptions), POINTER(c_void_p),
                  POINTER(_Error))
_rules_free = _fn("halluscan_rules_free", None, c_void_p)
_rules_info = _fn("halluscan_rules_info", POINTER(_RulesInfo), c_void_p)
_rules_rule = _fn("halluscan_rules_rule", POINTER(_Rule), c_void_p, c_size_t)
_rules_signal = _fn("halluscan_rules_signal", c_char_p, c_void_p, c_size_t)
_rules_context = _fn("halluscan_rules_context", c_char_p, c_void_p, c_size_t)
_scanner_new = _fn("halluscan_scanner_new", c_int, c_void_p, POINTER(_ScannerOptions),
                   _FINDING_FN, c_void_p, POINTER(c_void_p), POINTER(_Error))
_scanner_free = _fn("halluscan_scanner_free", None, c_void_p)
_add_grounding = _fn("halluscan_scanner_add_grounding", c_int, c_void_p, c_int, c_char_p,
                     c_size_t)
_feed = _fn("halluscan_scanner_feed", c_int, c_void_p, c_char_p, c_size_t)
_end = _fn("halluscan_scanner_end", c_int, c_void_p, POINTER(POINTER(_Summary)))
_reset = _fn("halluscan_scanner_reset", c_int, c_void_p, c_uint)
_check = _fn("halluscan_check", c_int, c_void_p, c_char_p, c_size_t, POINTER(POINTER(_Summary)))
_fix = _fn("halluscan_fix", c_int, c_void_p, c_char_p, c_size_t, POINTER(POINTER(ctypes.c_char)),
           POINTER(c_size_t), POINTER(POINTER(_Summary)))

_RULES_BUILTIN, _RULES_PCRE2, _RULES_CHECK = 1, 2, 4
_RULE_CASELESS, _RULE_PCRE2, _RULE_LEXER, _RULE_RECOGNIZER, _RULE_RECORDS = 1, 2, 4, 8, 16
_SCAN_SHOW_GROUNDED, _SCAN_CLAIMS, _SCAN_PRESSURE, _SCAN_SENTENCES = 1, 2, 4, 8
_RESET_KEEP_GROUNDING = 1
_FAIL_ON = {"block": 0, "warn": 1, "never": 2}
_GROUNDING = {"tool": 0, "source": 1, "prompt": 2}
_MAX_UNSUPPORTED_RATIO = 0.30


def version():
    """The library's version, "0.1.0"."""
    return _version().decode()


def engine_version():
    """The engines it scans with: "hyperscan 5.4.0 ...; pcre2 10.42 ..."."""
    return _engine_version().decode()


class HalluscanError(OSError):
    """A call failed: errno (positive, as OSError has it) and the library's words."""

    def __init__(self, code, message=""):
        words = message or _strerror(code).decode()
        super().__init__(-code, words)
        self.code = code


def _raise(code, err=None):
    message = err.message.decode("utf-8", "replace") if err is not None else ""
    raise HalluscanError(code, message)


def _bytes(text):
    return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)


def _str(ptr, n):
    return ctypes.string_at(ptr, n).decode("utf-8", "surrogateescape") if n else ""


def _cstr(p):
    return p.decode("utf-8", "surrogateescape") if p is not None else None


# ---- what the library reports ----

@dataclasses.dataclass(frozen=True)
class Finding:
    signal: str          # "fabricated_url", ..., "unterminated_span", "spoofed_span"
    rule: str            # "url.http"
    severity: str        # "warn" or "block"
    start: int           # byte offsets, end exclusive
    end: int
    line: int            # 1-based; column in code points
    column: int
    text: str
    message: str
    recovery: str
    text_truncated: bool = False
    grounded: bool = False
    grounded_at: int = None
    source: str = None   # altered_number: the grounded figure
    source_at: int = None
    also: tuple = ()     # other signals found on exactly this text, carried here
    trigger: str = None  # the prompt's trigger request that raised severity a step

    def as_dict(self):
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class ClaimItem:
    rule: str
    start: int
    end: int
    text: str
    grounded: bool
    grounded_at: int = None


@dataclasses.dataclass(frozen=True)
class Claim:
    start: int
    end: int
    text: str
    label: str           # "supported", "partial", "unsupported" or "unchecked"
    items: tuple
    cut: bool = False    # the sentence goes on in the next claim (cut at 16 KiB)


@dataclasses.dataclass(frozen=True)
class Summary:
    bytes: int
    findings: int
    verdict: str         # "pass", "warn" or "block"
    failed: bool         # at or above fail_on, or insufficient claims
    signals: dict        # findings per signal
    exempted: int
    grounded: int
    repeats: int
    ground_evictions: int
    spans: int
    unterminated_spans: int
    match_limit_hits: int
    # With claims=True (else None): claims per label, and the verdict on them.
    claims: dict = None
    claims_checked: int = None
    unsupported_ratio: float = None
    trust: float = None
    claims_sufficient: bool = None
    pressure: bool = False  # scanned under context pressure


@dataclasses.dataclass(frozen=True)
class Fixed:
    """What --fix made of a reply: the text repaired, how many repairs, and the
    findings and Summary of the repaired text (those no repair could settle)."""
    text: str
    repairs: int
    findings: list
    summary: Summary


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a gate decided for one reply."""
    ship: bool
    findings: list
    summary: Summary
    claims: list = dataclasses.field(default_factory=list)


def _finding(f):
    return Finding(
        signal=f.signal.decode(), rule=f.rule.decode(),
        severity=_severity_name(f.severity).decode(),
        start=f.start, end=f.end, line=f.line, column=f.column,
        text=_str(f.text, f.text_len), message=_cstr(f.message), recovery=_cstr(f.recovery),
        text_truncated=bool(f.text_truncated), grounded=bool(f.grounded),
        grounded_at=f.grounded_at if f.grounded else None,
        source=_cstr(f.source), source_at=f.source_at if f.source is not None else None,
        also=tuple(f.also[i].decode() for i in range(f.n_also)), trigger=_cstr(f.trigger))


def _claim(c):
    items = []
    for i in range(c.n_items):
        it = c.items[i].contents
        items.append(ClaimItem(rule=it.rule.decode(), start=it.start, end=it.end,
                               text=_str(it.text, it.text_len), grounded=bool(it.grounded),
                               grounded_at=it.grounded_at if it.grounded else None))
    return Claim(start=c.start, end=c.end, text=_str(c.text, c.text_len),
                 label=_claim_label_name(c.label).decode(), items=tuple(items), cut=bool(c.cut))


# ---- rules ----

class Rules:
    """Rule packs, loaded and compiled once; shared by scanners on any thread.

    With no paths or packs, the built-in packs (loaded in microseconds).
    paths: YAML files or directories of them; packs: {name: yaml_text}.
    builtin=True keeps the built-in packs beside paths and packs. pcre2:
    every rule on PCRE2. check: compile afresh and run every rule's
    examples. cache_dir: where compiled packs are kept between runs.
    """

    def __init__(self, paths=(), packs=None, builtin=False, pcre2=False, check=False,
                 cache_dir=None):
        self._ptr = None
        o = _RulesOptions(size=ctypes.sizeof(_RulesOptions))
        o.flags = (_RULES_BUILTIN if builtin else 0) | (_RULES_PCRE2 if pcre2 else 0) | \
            (_RULES_CHECK if check else 0)
        keep = []  # what the options point to, alive until the call returns
        if paths:
            enc = [os.fsencode(p) for p in paths]
            arr = (c_char_p * len(enc))(*enc)
            keep.append(arr)
            o.paths, o.n_paths = ctypes.cast(arr, POINTER(c_char_p)), len(enc)
        if packs:
            items = list(packs.items())
            arr = (_Pack * len(items))()
            for i, (name, text) in enumerate(items):
                data = _bytes(text)
                keep.append(data)
                arr[i] = _Pack(name.encode(), ctypes.cast(c_char_p(data), c_void_p), len(data))
            keep.append(arr)
            o.packs, o.n_packs = arr, len(items)
        if cache_dir is not None:
            o.cache_dir = os.fsencode(cache_dir)
        ptr, err = c_void_p(), _Error()
        rc = _rules_open(ctypes.byref(o), ctypes.byref(ptr), ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        self._ptr = ptr
        info = _rules_info(ptr).contents
        self.digest = info.digest.decode()
        self.engine = info.engine.decode()
        self.degraded = _cstr(info.degraded)
        self.signals = [_rules_signal(ptr, i).decode() for i in range(info.n_signals)]
        self.contexts = [_rules_context(ptr, i).decode() for i in range(info.n_contexts)]
        self.n_spans = info.n_spans
        self.rules = []
        for i in range(info.n_rules):
            r = _rules_rule(ptr, i).contents
            self.rules.append({
                "id": r.id.decode(), "signal": r.signal.decode(), "pattern": _cstr(r.pattern),
                "severity": _severity_name(r.severity).decode(),
                "caseless": bool(r.flags & _RULE_CASELESS),
                "engine": ("lexer" if r.flags & _RULE_LEXER
                           else "recognizer" if r.flags & _RULE_RECOGNIZER
                           else "records" if r.flags & _RULE_RECORDS
                           else "pcre2" if r.flags & _RULE_PCRE2 else "hyperscan"),
                "file": _cstr(r.file), "line": r.line,
                "examples": r.n_examples, "negative_examples": r.n_negative_examples})

    # The library's free, reached through the class: at interpreter exit
    # this module's globals may be None before the last object is finalized.
    _free = _rules_free

    def close(self):
        """Lets go of the rules: scanners made from them keep them until they close."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            self._free(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


_default_rules = None
_default_lock = threading.Lock()


def _builtin_rules():
    global _default_rules
    with _default_lock:
        if _default_rules is None:
            _default_rules = Rules()
        return _default_rules


# ---- scanners ----

class Scanner:
    """One input at a time, findings as soon as they are decided; one thread's.

    contexts escalate signals to block ("medical", "user-facing", ...);
    fail_on is "block", "warn" or "never"; span_nonce marks the harness's
    own tool spans; claims judges each sentence against the grounding;
    sentences gives each sentence as a Claim (start, end, cut) without
    judging the input by them (what halluscan --quarantine cuts by);
    show_grounded reports repeats of grounding too, marked; pressure
    detects more aggressively (the compact zone of context health or beyond,
    as halluscan --pressure). on_finding and
    on_claim, when given, are called with each Finding and Claim as it is
    decided; else they are collected and returned by feed() and end().
    An exception a callback raises stops the scan and is raised again by
    the call that ran it; the input is then dropped (grounding kept).
    """

    def __init__(self, rules=None, contexts=(), fail_on="block", span_nonce=None, claims=False,
                 show_grounded=False, max_unsupported_ratio=_MAX_UNSUPPORTED_RATIO,
                 on_finding=None, on_claim=None, pressure=False, sentences=False):
        self._ptr = None
        self.rules = rules if rules is not None else _builtin_rules()
        if not self.rules._ptr:
            raise ValueError("the rules are closed")
        if fail_on not in _FAIL_ON:
            raise ValueError("fail_on is block, warn or never, not %r" % (fail_on,))
        self._on_finding, self._on_claim = on_finding, on_claim
        self._findings, self._claims, self._raised = [], [], None
        # The C callbacks reach the scanner through a weak reference: it is
        # freed as soon as its last user lets go, not at the next collection.
        me = weakref.ref(self)
        self._finding_fn = _FINDING_FN(lambda ctx, f: me()._finding_cb(f) if me() else 0)
        self._claim_fn = _CLAIM_FN(lambda ctx, c: me()._claim_cb(c) if me() else 0)
        o = _ScannerOptions(size=ctypes.sizeof(_ScannerOptions))
        o.flags = ((_SCAN_CLAIMS if claims else 0) | (_SCAN_SHOW_GROUNDED if show_grounded else 0) |
                   (_SCAN_PRESSURE if pressure else 0) | (_SCAN_SENTENCES if sentences else 0))
        ctx = [c.encode() for c in contexts]
        arr = (c_char_p * max(len(ctx), 1))(*ctx)
        o.contexts, o.n_contexts = ctypes.cast(arr, POINTER(c_char_p)), len(ctx)
        o.fail_on = _FAIL_ON[fail_on]
        o.span_nonce = span_nonce.encode() if span_nonce is not None else None
        o.max_unsupported_ratio = max_unsupported_ratio
        o.on_claim = self._claim_fn
        ptr, err = c_void_p(), _Error()
        rc = _scanner_new(self.rules._ptr, ctypes.byref(o), self._finding_fn, None,
                          ctypes.byref(ptr), ctypes.byref(err))
        if rc < 0:
            _raise(rc, err)
        self._ptr = ptr

    def _finding_cb(self, f):
        try:
            finding = _finding(f.contents)
            if self._on_finding:
                self._on_finding(finding)
            else:
                self._findings.append(finding)
            return 0
        except BaseException as e:  # raised again by the call that scanned
            self._raised = e
            return -errno.ECANCELED

    def _claim_cb(self, c):
        try:
            claim = _claim(c.contents)
            if self._on_claim:
                self._on_claim(claim)
            else:
                self._claims.append(claim)
            return 0
        except BaseException as e:
            self._raised = e
            return -errno.ECANCELED

    def _done(self, rc):
        """Raises what stopped a call; else the findings it decided, taken."""
        if rc < 0:
            raised, self._raised = self._raised, None
            self._findings, self._claims = [], []
            if rc != -errno.EBUSY:
                _reset(self._ptr, _RESET_KEEP_GROUNDING)
            if raised is not None:
                raise raised
            _raise(rc)
        found, self._findings = self._findings, []
        return found

    def add_grounding(self, text, kind="tool"):
        """Grounds every later input on text: "tool" output, a "source", or the "prompt"
        (for now as a source)."""
        data = _bytes(text)
        rc = _add_grounding(self._handle(), _GROUNDING[kind], data, len(data))
        if rc < 0:
            _raise(rc)

    def feed(self, data):
        """Scans the next bytes of the input; returns the findings decided so far."""
        data = _bytes(data)
        return self._done(_feed(self._handle(), data, len(data)))

    def end(self):
        """Ends the input: (the last findings, its Summary)."""
        sp = POINTER(_Summary)()
        found = self._done(_end(self._handle(), ctypes.byref(sp)))
        return found, self._summary(sp.contents)

    def check(self, text):
        """Scans text whole: (ship, findings, Summary); a gate's one call."""
        sp, data = POINTER(_Summary)(), _bytes(text)
        rc = _check(self._handle(), data, len(data), ctypes.byref(sp))
        found = self._done(min(rc, 0))
        return rc == 0, found, self._summary(sp.contents)

    def fix(self, text):
        """The spec's recoveries applied to text, as halluscan --fix: a Fixed
        (str in, str out; bytes in, bytes out)."""
        sp, data = POINTER(_Summary)(), _bytes(text)
        out, n = POINTER(ctypes.c_char)(), c_size_t()
        rc = _fix(self._handle(), data, len(data), ctypes.byref(out), ctypes.byref(n),
                  ctypes.byref(sp))
        found = self._done(min(rc, 0))
        fixed = ctypes.string_at(out, n.value)
        if isinstance(text, str):
            fixed = fixed.decode("utf-8", "surrogateescape")
        return Fixed(text=fixed, repairs=rc, findings=found, summary=self._summary(sp.contents))

    def claims(self):
        """The claims collected since the last call (with claims=True, no on_claim)."""
        out, self._claims = self._claims, []
        return out

    def reset(self, keep_grounding=False):
        """Drops the input in progress, and the grounding unless keep_grounding."""
        self._findings, self._claims, self._raised = [], [], None
        rc = _reset(self._handle(), _RESET_KEEP_GROUNDING if keep_grounding else 0)
        if rc < 0:
            _raise(rc)

    def _summary(self, s):
        judged = {}
        if s.claims:
            judged = dict(
                claims={_claim_label_name(i).decode(): s.claims[i] for i in range(4)},
                claims_checked=s.claims_checked, unsupported_ratio=s.unsupported_ratio,
                trust=s.trust, claims_sufficient=bool(s.claims_sufficient))
        return Summary(
            bytes=s.bytes, findings=s.findings, verdict=_severity_name(s.verdict).decode(),
            failed=bool(s.failed),
            signals={self.rules.signals[i]: s.signal_counts[i] for i in range(s.n_signals)},
            exempted=s.exempted, grounded=s.grounded, repeats=s.repeats,
            ground_evictions=s.ground_evictions, spans=s.spans,
            unterminated_spans=s.unterminated_spans, match_limit_hits=s.match_limit_hits,
            pressure=bool(s.pressure), **judged)

    def _handle(self):
        if not self._ptr:
            raise ValueError("the scanner is closed")
        return self._ptr

    _free = _scanner_free  # as Rules._free

    def close(self):
        """Frees the scanner (and its rules, when it held them last)."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            self._free(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class Gate:
    """Ship or hold a reply: a scanner per thread over shared rules.

        gate = Gate(contexts=["user-facing"])
        v = gate.check(reply, sources=[doc], tools=[tool_output])
        v.ship, v.findings, v.summary

    The keyword arguments are Scanner's. Each check starts afresh: the
    grounding is the one given to that call.
    """

    def __init__(self, rules=None, **options):
        self.rules = rules if rules is not None else _builtin_rules()
        self._options = options
        self._local = threading.local()

    def _scanner(self):
        sc = getattr(self._local, "scanner", None)
        if sc is None:
            sc = self._local.scanner = Scanner(self.rules, **self._options)
        return sc

    def _grounded(self, sources, tools, prompt):
        """This thread's scanner, reset and grounded by the tools, sources and prompt."""
        sc = self._scanner()
        sc.reset()
        for text in tools:
            sc.add_grounding(text, "tool")
        for text in sources:
            sc.add_grounding(text, "source")
        if prompt is not None:
            sc.add_grounding(prompt, "prompt")
        return sc

    def check(self, reply, sources=(), tools=(), prompt=None):
        sc = self._grounded(sources, tools, prompt)
        ship, findings, summary = sc.check(reply)
        return Verdict(ship=ship, findings=findings, summary=summary, claims=sc.claims())

    def fix(self, reply, sources=(), tools=(), prompt=None):
        """The reply repaired (Scanner.fix), grounded as check() grounds it."""
        return self._grounded(sources, tools, prompt).fix(reply)
