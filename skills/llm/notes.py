"""``contextualize=llm``: a chat model writes, for each child, a short note placing it in its
document (Anthropic's "contextual retrieval"); the note goes into the child's ``embedText`` after
the heading path (``skills.chunking.with_note``) and comes back as the child's ``context``.

The prompt is laid out for Azure OpenAI's automatic prompt caching, which serves a repeated prefix
of at least 1,024 tokens at a discount (learn.microsoft.com/azure/ai-foundry/openai/how-to/
prompt-caching): the instructions, then the document (past ``document_max_tokens``, its heading
outline and the child's parent section instead), identical for every child of it; the child comes
last. The first child is asked alone, so that its prompt is cached before the others are sent
together, at most ``concurrency`` at a time (:class:`NoteSettings`).

Cost and time are bounded: a child is asked only while the record's and the batch's token budgets
(input plus output, estimated before the call and settled from the service's count after) and the
skill's time budget allow it. A child that gets no note (over budget, throttled, out of time, a
service error) keeps its heading path, and :class:`NoteStats` counts why (the skill turns that
into one warning a record): never an error, never a timeout.

The app settings that fill :class:`NoteSettings` are read by :mod:`skills.skill.settings`; the
note cache is :mod:`skills.llm.note_cache`.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Protocol

from skills.chunking import (
    PATH_SEPARATOR,
    Chunk,
    Chunking,
    ChunkOptions,
    count_tokens,
    with_note,
)
from skills.llm.chat import (
    CallPolicy,
    ChatFailure,
    ChatModel,
    ChatTarget,
    Reply,
    Usage,
    azure_client,
)
from skills.llm.note_cache import NoteCache, document_hash, note_key

#: The share of the skill's time budget that notes never take: the records after them are planned
#: at the speed measured so far, and a slower one must still find the budget unspent.
NOTE_RESERVE = 0.1
#: Part of every cache key: a change of the prompt's words must not reuse the old notes.
PROMPT_VERSION = "context-note-1"
#: gpt-5.2 thinks not at all with ``none``: the note's room is all note
DEFAULT_REASONING_EFFORT = "none"
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


@dataclass(frozen=True, slots=True)
class NoteSettings:
    """What ``contextualize=llm`` may spend and how it calls: the deployment, how many children
    are asked at once, the token budgets (a record's, a batch's; a document longer than
    ``document_max_tokens`` is sent as its outline and the child's section), and each call's
    retries, timeout and reasoning effort."""

    target: ChatTarget
    concurrency: int = 8
    record_max_tokens: int = 400_000
    batch_max_tokens: int = 2_000_000
    document_max_tokens: int = 8_000
    calls: CallPolicy = field(
        default_factory=lambda: CallPolicy(reasoning_effort=DEFAULT_REASONING_EFFORT)
    )

    def model(self) -> ChatModel:
        """The deployment, through the process's one client."""
        return ChatModel(azure_client(self.target), self.target.deployment, self.calls)


class Completes(Protocol):
    """What the notes need of a chat model (:class:`ChatModel`, or a test's stand-in)."""

    model: str

    def complete(
        self, messages: Sequence[Mapping[str, str]], max_tokens: int, deadline: float
    ) -> Reply: ...


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

    model: Completes
    cache: NoteCache | None
    ledger: Ledger
    deadline: float
    max_tokens: int
    document: str  # the text's hash, for the cache keys
    prompts: Prompts
    stop: list[str] = field(default_factory=list)  # why asking the others is pointless now
    cache_down: list[bool] = field(default_factory=list)  # set once the cache has failed


@dataclass(frozen=True, slots=True)
class NoteRun:
    """The notes of one batch (or one evaluation run): the deployment's settings, the model, the
    note cache, and the token ledger every record's own ledger draws on."""

    settings: NoteSettings
    model: Completes
    cache: NoteCache | None
    ledger: Ledger

    @classmethod
    def start(cls, settings: NoteSettings, cache: NoteCache | None = None) -> NoteRun:
        """A run with the deployment's model and a fresh batch ledger."""
        return cls(settings, settings.model(), cache, Ledger(settings.batch_max_tokens))

    def write(
        self,
        chunked: Chunking,
        text: str,
        title: str | None,
        options: ChunkOptions,
        deadline: float,
    ) -> tuple[Chunking, NoteStats]:
        """``chunked`` (of ``text``, titled ``title``) with a note in every child the budgets
        allow, and what that took. Each note is fitted in the child's ``note_tokens`` under its
        ``child_max_tokens``; ``deadline`` is on ``time.monotonic``'s clock."""
        stats = NoteStats()
        if not chunked.leaves:
            return chunked, stats
        settings = self.settings
        job = _Job(
            model=self.model,
            cache=self.cache,
            ledger=Ledger(settings.record_max_tokens, self.ledger),
            deadline=deadline,
            max_tokens=output_tokens(options.note_tokens),
            document=document_hash(text),
            prompts=Prompts.of(
                chunked, text, title, options.note_tokens, settings.document_max_tokens
            ),
        )
        leaves = list(chunked.leaves)
        notes = [_note(job, leaves[0], stats)]  # alone: its prompt is cached before others share
        if len(leaves) > 1:
            with ThreadPoolExecutor(max_workers=settings.concurrency) as pool:
                notes.extend(pool.map(lambda leaf: _note(job, leaf, stats), leaves[1:]))
        noted = tuple(
            with_note(leaf, note, options.child_max_tokens) if note else leaf
            for leaf, note in zip(leaves, notes, strict=True)
        )
        stats.usage = job.ledger.usage
        return replace(chunked, leaves=noted), stats


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
