"""``contextualize=llm``: a chat model writes, for each child, a short note placing it in its
document (Anthropic's "contextual retrieval"); the note goes into the child's ``embedText`` after
the heading path (``skills.chunking.with_note``) and comes back as the child's ``context``.

The prompt is laid out for Azure OpenAI's automatic prompt caching, which serves a repeated prefix
of at least 1,024 tokens at a discount (learn.microsoft.com/azure/ai-foundry/openai/how-to/
prompt-caching): the instructions, then the document (past ``CONTEXT_DOCUMENT_MAX_TOKENS``, its
heading outline and the child's parent section instead), identical for every child of it; the
child comes last. The first child is asked alone, so that its prompt is cached before the others
are sent together, at most ``CONTEXT_CONCURRENCY`` at a time.

Cost and time are bounded: a child is asked only while the record's and the batch's token budgets
(``CONTEXT_RECORD_MAX_TOKENS``, ``CONTEXT_BATCH_MAX_TOKENS``: input plus output, estimated before
the call and settled from the service's count after) and the skill's time budget allow it. A child
that gets no note (over budget, throttled, out of time, a service error) keeps its heading path,
and the record gets one warning saying how many and why: never an error, never a timeout.

Settings: ``AZURE_OPENAI_ENDPOINT`` and ``AZURE_OPENAI_CHAT_DEPLOYMENT`` turn it on (optional
``AZURE_OPENAI_API_VERSION``, ``AZURE_OPENAI_API_KEY``); the note cache is in
:mod:`skills.llm.note_cache`.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from skills.chunking import PATH_SEPARATOR, Chunk, Chunking, count_tokens, with_note
from skills.llm.chat import ChatFailure, ChatModel, ChatTarget, Usage, azure_client
from skills.llm.note_cache import NoteCache, document_hash, note_key

#: The share of the skill's time budget that notes never take: the records after them are planned
#: at the speed measured so far, and a slower one must still find the budget unspent.
NOTE_RESERVE = 0.1
#: Part of every cache key: a change of the prompt's words must not reuse the old notes.
PROMPT_VERSION = "context-note-1"
#: reasoning parameters (``max_completion_tokens``, ``reasoning_effort``) need 2025-04-01-preview
#: or later on Azure OpenAI (skills/llm/chat.py)
DEFAULT_API_VERSION = "2025-04-01-preview"
#: gpt-5.2 thinks not at all with ``none``: the note's room is all note
DEFAULT_REASONING_EFFORT = "none"
ENDPOINT = "AZURE_OPENAI_ENDPOINT"
DEPLOYMENT = "AZURE_OPENAI_CHAT_DEPLOYMENT"
API_VERSION = "AZURE_OPENAI_API_VERSION"
API_KEY = "AZURE_OPENAI_API_KEY"
#: The outline sent with a section, when the document is too long to send whole, is cut here.
OUTLINE_MAX_TOKENS = 1_000
#: Tokens the model may write beyond the note's room: its tokenizer is not ``cl100k_base``, and a
#: note cut at a word is better than one cut off by the service.
OUTPUT_MARGIN_TOKENS = 16

INSTRUCTIONS = (
    "You write a short note that situates one chunk of a document within the whole document, "
    "to improve search retrieval of the chunk. Say what the document is and what the chunk is "
    "about within it, using the document's own names for things. Answer with the note only, "
    "in the document's language, in at most {words} words, without a preamble."
)


@dataclass(frozen=True)
class ContextSettings:
    """The app settings of ``contextualize=llm``; a malformed number keeps its default."""

    target: ChatTarget
    concurrency: int = 8
    record_max_tokens: int = 400_000
    batch_max_tokens: int = 2_000_000
    document_max_tokens: int = 8_000
    request_timeout: float = 10.0
    max_retries: int = 3
    #: ``CONTEXT_REASONING_EFFORT``: empty sends none (a model without reasoning)
    reasoning_effort: str = DEFAULT_REASONING_EFFORT

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ContextSettings | None:
        """None when no chat deployment is configured."""
        endpoint, deployment = env.get(ENDPOINT, "").strip(), env.get(DEPLOYMENT, "").strip()
        if not endpoint or not deployment:
            return None
        target = ChatTarget(
            endpoint,
            deployment,
            env.get(API_VERSION, "").strip() or DEFAULT_API_VERSION,
            env.get(API_KEY, "").strip(),
        )
        return cls(
            target,
            concurrency=_number(env, "CONTEXT_CONCURRENCY", cls.concurrency, 1, 64),
            record_max_tokens=_number(env, "CONTEXT_RECORD_MAX_TOKENS", cls.record_max_tokens),
            batch_max_tokens=_number(env, "CONTEXT_BATCH_MAX_TOKENS", cls.batch_max_tokens),
            document_max_tokens=_number(
                env, "CONTEXT_DOCUMENT_MAX_TOKENS", cls.document_max_tokens
            ),
            request_timeout=float(
                _number(env, "CONTEXT_REQUEST_TIMEOUT_SECONDS", int(cls.request_timeout), 1, 230)
            ),
            max_retries=_number(env, "CONTEXT_MAX_RETRIES", cls.max_retries, 0, 10),
            reasoning_effort=env.get("CONTEXT_REASONING_EFFORT", DEFAULT_REASONING_EFFORT).strip(),
        )

    def model(self) -> ChatModel:
        """The deployment, through the process's one client."""
        return ChatModel(
            azure_client(self.target),
            self.target.deployment,
            max_retries=self.max_retries,
            request_timeout=self.request_timeout,
            reasoning_effort=self.reasoning_effort,
        )


class Ledger:
    """Tokens one batch (or one record, inside its batch) may still spend; thread-safe.

    A call reserves its estimate first and is made only when every ledger up the chain has room;
    the service's count replaces the estimate afterwards.
    """

    def __init__(self, limit: int, parent: Ledger | None = None) -> None:
        self.limit = limit
        self.parent = parent
        self.spent = 0
        self.usage = Usage()
        self._lock: threading.RLock = parent._lock if parent is not None else threading.RLock()

    def reserve(self, tokens: int) -> bool:
        with self._lock:
            if not self._has_room(tokens):
                return False
            self._add(tokens)
            return True

    def settle(self, reserved: int, usage: Usage | None) -> None:
        """Replace a reservation by what the service counted (None: the call gave nothing)."""
        with self._lock:
            used = usage.prompt + usage.completion if usage is not None else 0
            self._add(used - reserved, usage)

    def _has_room(self, tokens: int) -> bool:
        if self.spent + tokens > self.limit:
            return False
        return self.parent is None or self.parent._has_room(tokens)

    def _add(self, tokens: int, usage: Usage | None = None) -> None:
        self.spent += tokens
        if usage is not None:
            self.usage += usage
        if self.parent is not None:
            self.parent._add(tokens, usage)


@dataclass
class NoteStats:
    """What the notes of one record cost and gave; children add to it from several threads."""

    notes: int = 0
    cache_hits: int = 0
    cache_errors: int = 0
    missing: Counter[str] = field(default_factory=Counter)
    usage: Usage = field(default_factory=Usage)  # what the service counted for this record's calls
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count(self, what: str) -> None:
        """One more note, cache hit or cache error (``what`` names the field)."""
        with self._lock:
            setattr(self, what, getattr(self, what) + 1)

    def miss(self, reason: str) -> None:
        with self._lock:
            self.missing[reason] += 1


@dataclass(frozen=True, slots=True)
class Prompts:
    """The messages of one document's children: instructions, the document (or its outline and
    the child's parent section), then the child, the order that lets every child of a document
    (or of a section) share a cached prefix."""

    head: dict[str, str]  # the instructions
    whole: dict[str, str] | None  # the document, when it is sent whole
    outline: str  # else its outline, sent with the child's parent section
    parents: Mapping[str, Chunk]

    @classmethod
    def of(
        cls, chunked: Chunking, text: str, title: str | None, note_tokens: int, max_tokens: int
    ) -> Prompts:
        """``max_tokens``: the most a document may have to be sent whole."""
        whole = count_tokens(text) <= max_tokens
        words = max(8, note_tokens * 3 // 4)
        return cls(
            head={"role": "system", "content": INSTRUCTIONS.format(words=words)},
            whole=_document_message(text, title) if whole else None,
            outline="" if whole else _outline(chunked),
            parents={parent.id: parent for parent in chunked.parents},
        )

    def messages(self, leaf: Chunk) -> list[dict[str, str]]:
        context = self.whole or _section_message(
            self.outline, self.parents.get(leaf.parent_id or "", leaf)
        )
        return [self.head, context, _child_message(leaf.text)]


def output_tokens(note_tokens: int) -> int:
    """The ``max_tokens`` of a note's call."""
    return max(note_tokens, 8) + OUTPUT_MARGIN_TOKENS


@dataclass(frozen=True, slots=True)
class _Job:
    """One record's notes: what every child's call shares."""

    model: ChatModel
    cache: NoteCache | None
    ledger: Ledger
    deadline: float
    max_tokens: int
    document: str  # the text's hash, for the cache keys
    prompts: Prompts
    stop: list[str] = field(default_factory=list)  # why asking the others is pointless now
    cache_down: list[bool] = field(default_factory=list)  # set once the cache has failed


def contextualize(
    chunked: Chunking,
    text: str,
    title: str | None,
    limit: int,
    note_tokens: int,
    settings: ContextSettings,
    model: ChatModel,
    cache: NoteCache | None,
    batch: Ledger,
    deadline: float,
) -> tuple[Chunking, NoteStats]:
    """``chunked`` with a note in every child the budgets allow, and what that took.

    ``limit`` is the child's token cap and ``note_tokens`` the room kept for the note;
    ``deadline`` is on ``time.monotonic``'s clock.
    """
    stats = NoteStats()
    if not chunked.leaves:
        return chunked, stats
    job = _Job(
        model=model,
        cache=cache,
        ledger=Ledger(settings.record_max_tokens, batch),
        deadline=deadline,
        max_tokens=output_tokens(note_tokens),
        document=document_hash(text),
        prompts=Prompts.of(chunked, text, title, note_tokens, settings.document_max_tokens),
    )
    leaves = list(chunked.leaves)
    notes = [_note(job, leaves[0], stats)]  # alone: its prompt is cached before others share it
    if len(leaves) > 1:
        with ThreadPoolExecutor(max_workers=settings.concurrency) as pool:
            notes.extend(pool.map(lambda leaf: _note(job, leaf, stats), leaves[1:]))
    noted = tuple(
        with_note(leaf, note, limit) if note else leaf
        for leaf, note in zip(leaves, notes, strict=True)
    )
    stats.usage = job.ledger.usage
    return replace(chunked, leaves=noted), stats


def missing_warning(stats: NoteStats, children: int) -> str | None:
    """The record's one warning about children without a note, or None when all have one."""
    missing = sum(stats.missing.values())
    if not missing:
        return None
    reasons = ", ".join(
        f"{count} {_REASONS.get(reason, reason)}" for reason, count in stats.missing.most_common()
    )
    return (
        f"context notes missing for {missing} of {children} children ({reasons}): they keep "
        "the heading path only"
    )


_REASONS = {
    "budget": "over the token budget (CONTEXT_RECORD_MAX_TOKENS / CONTEXT_BATCH_MAX_TOKENS)",
    "throttled": "throttled by the chat deployment (429)",
    "time": "out of the skill's time budget",
    "service": "chat deployment errors",
    "empty": "empty answers",
}


def _note(job: _Job, leaf: Chunk, stats: NoteStats) -> str:
    """The child's note ('' when it gets none; the reason is counted in ``stats``)."""
    key = note_key(job.document, leaf.start, leaf.end, job.model.model, PROMPT_VERSION)
    cached = _cached(job, key, stats)
    if cached is not None:
        stats.count("cache_hits")
        stats.count("notes")
        return cached
    answer = _ask(job, leaf)
    if isinstance(answer, _Missing):
        stats.miss(answer.reason)
        return ""
    if job.cache is not None and not job.cache_down:
        try:
            job.cache.put(key, answer)
        except Exception:  # a cache outage costs money later, not this record
            job.cache_down.append(True)
            stats.count("cache_errors")
    stats.count("notes")
    return answer


@dataclass(frozen=True, slots=True)
class _Missing:
    reason: str


def _ask(job: _Job, leaf: Chunk) -> str | _Missing:
    if job.stop:
        return _Missing(job.stop[0])
    if time.monotonic() >= job.deadline:
        job.stop.append("time")
        return _Missing("time")
    messages = job.prompts.messages(leaf)
    estimate = sum(count_tokens(message["content"]) for message in messages) + job.max_tokens
    if not job.ledger.reserve(estimate):
        return _Missing("budget")
    try:
        reply = job.model.complete(messages, job.max_tokens, job.deadline)
    except ChatFailure as failure:
        job.ledger.settle(estimate, None)
        if failure.reason in ("throttled", "time"):
            job.stop.append(failure.reason)
        return _Missing(failure.reason)
    job.ledger.settle(estimate, reply.usage)
    return reply.text or _Missing("empty")


def _cached(job: _Job, key: str, stats: NoteStats) -> str | None:
    if job.cache is None or job.cache_down:
        return None
    try:
        return job.cache.get(key)
    except Exception:  # unreachable storage: ask the model instead, and stop asking the cache
        job.cache_down.append(True)
        stats.count("cache_errors")
        return None


def _document_message(text: str, title: str | None) -> dict[str, str]:
    named = f' title="{title}"' if title else ""
    return {"role": "user", "content": f"<document{named}>\n{text}\n</document>"}


def _section_message(outline: str, section: Chunk) -> dict[str, str]:
    path = PATH_SEPARATOR.join(section.headings)
    return {
        "role": "user",
        "content": (
            f"The document is too long to show whole. Its outline:\n<outline>\n{outline}\n"
            f"</outline>\nThe section that holds the chunk ({path or 'its start'}):\n"
            f"<section>\n{section.text}\n</section>"
        ),
    }


def _child_message(text: str) -> dict[str, str]:
    return {
        "role": "user",
        "content": f"The chunk to situate:\n<chunk>\n{text}\n</chunk>",
    }


def _outline(chunked: Chunking) -> str:
    """The document's heading paths in order, each once, cut at ``OUTLINE_MAX_TOKENS``."""
    lines: list[str] = []
    seen: set[tuple[str, ...]] = set()
    used = 0
    for chunk in chunked.leaves:  # the finest paths: a parent may hold several sections
        if chunk.headings and chunk.headings not in seen:
            seen.add(chunk.headings)
            line = PATH_SEPARATOR.join(chunk.headings)
            used += count_tokens(line) + 1
            if used > OUTLINE_MAX_TOKENS:
                break
            lines.append(line)
    return "\n".join(lines)


def _number(
    env: Mapping[str, str], name: str, default: int, low: int = 1, high: int = 10**9
) -> int:
    raw = env.get(name, "").strip()
    return int(raw) if raw.isdigit() and low <= int(raw) <= high else default
