"""Chunk every record of a batch, each on its own: one bad record never fails the others.

Per record the outcome is one of: data (maybe with warnings), or an error with an empty ``data``
(the indexer throws away the data of a record with errors and fails its document, so errors are kept
for records where nothing useful can be returned). The batch time budget decides, record by record,
between the requested strategy, the fastest one, and skipping.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skills.chunking import (
    BoundaryModel,
    Chunking,
    ChunkingError,
    ChunkOptions,
    Strategy,
    chunk_document,
)
from skills.formats.conversion import Limits
from skills.llm import NOTE_RESERVE, NoteRun, NoteStats, boundary_model, note_cache
from skills.skill.answer import Answer
from skills.skill.budget import Plan, TimeBudget
from skills.skill.contract import InputRecord
from skills.skill.hangup import client_gone
from skills.skill.inputs import (
    DOCUMENT_INPUTS,
    InputError,
    RecordInputs,
    read_inputs,
    unknown_query_names,
)
from skills.skill.note_warnings import NO_DEPLOYMENT, missing_warning
from skills.skill.options import Contextualize
from skills.skill.settings import BUDGET_SETTING, SkillSettings
from skills.skill.shape import streamed_record_data

#: The strategy used when a batch runs short of time: the engine's cheapest (no section tree).
FAST_STRATEGY = Strategy.FIXED
_MAX_REASON = 300
_ABANDONED = "not chunked: the client hung up before this record"

logger = logging.getLogger("skills.skill")


@dataclass
class BatchStats:
    """What one batch did, for the batch log line (counts only, never document text)."""

    records: int = 0
    characters: int = 0
    tokens: int = 0
    parents: int = 0
    children: int = 0
    strategies: Counter[str] = field(default_factory=Counter)
    warnings: int = 0
    errors: int = 0
    fallbacks: int = 0
    skipped: int = 0
    abandoned: int = 0
    context_notes: int = 0  # children given a context note (contextualize=llm), cached ones too
    context_cache_hits: int = 0
    context_cache_errors: int = 0
    context_missing: int = 0  # children of contextualize=llm records left without a note
    context_input_tokens: int = 0
    context_cached_tokens: int = 0  # of the input tokens, those the service served from its cache
    context_output_tokens: int = 0
    context_seconds: float = 0.0  # waiting for notes: not chunking, kept out of the speeds

    def add_notes(self, notes: NoteStats) -> None:
        """What one record's notes gave and cost."""
        self.context_notes += notes.notes
        self.context_cache_hits += notes.cache_hits
        self.context_cache_errors += notes.cache_errors
        self.context_missing += sum(notes.missing.values())
        self.context_input_tokens += notes.usage.prompt
        self.context_cached_tokens += notes.usage.cached
        self.context_output_tokens += notes.usage.completion


@dataclass
class BatchResult:
    """The answer, written in request order, with the stats and the failures to log."""

    answer: Answer
    stats: BatchStats
    failures: list[tuple[str, str]]  # (recordId, reason)


def run_batch(
    records: Sequence[InputRecord],
    query: Mapping[str, str],
    settings: SkillSettings,
    budget: TimeBudget,
) -> BatchResult:
    """One output record per input record, in the same order.

    Each record's ``data`` is let go as soon as the record is answered (the request's parsed text
    need not outlive its chunks), and its answer is serialised at once (:mod:`answer`).
    """
    result = BatchResult(answer=Answer(), stats=BatchStats(records=len(records)), failures=[])
    unknown = unknown_query_names(query)
    lengths = [min(_text_length(record.data), settings.max_text_chars) for record in records]
    rest = _suffix_sums(lengths)
    batch = _Batch(query, settings, budget, result)
    for index, record in enumerate(records):
        data, record.data = record.data, None
        if client_gone():
            result.stats.abandoned += 1
            result.answer.add(_fail(result, record.record_id, _ABANDONED))
            continue
        if unknown:
            result.answer.add(_fail(result, record.record_id, _unknown_query_message(unknown)))
            continue
        work = _Work(lengths[index], rest[index + 1], len(records), rest[0])
        left = budget.left()
        plan = budget.plan(work.chars, work.rest_chars)
        started, noting = time.perf_counter(), result.stats.context_seconds
        try:
            outcome = _run_record(batch, record.record_id, data, plan, work)
        except Exception as exc:  # a bug must cost one record, not the batch
            outcome = _crashed(result, record.record_id, exc)
        del data
        output, tally = (
            (outcome.record, outcome.tally) if isinstance(outcome, _Chunked) else (outcome, None)
        )
        plan = outcome.plan if isinstance(outcome, _Chunked) else plan
        try:  # a record's parents are shaped as they are written (streamed_record_data)
            size = result.answer.add(output)
        except Exception as exc:  # the answer keeps nothing of the record, nor do the stats
            size = result.answer.add(_crashed(result, record.record_id, exc))
        else:
            if tally is not None:
                tally.add_to(result.stats)
        noted = result.stats.context_seconds - noting
        budget.measured(plan, work.chars, time.perf_counter() - started - noted, size)
        spent = _Slowest(left - budget.left(), record.record_id, work.chars)  # sending included
        batch.slowest = max(batch.slowest, spent)
    return result


@dataclass(slots=True)
class _Batch:
    """What the records of one batch share: the request's query string, the settings, the time
    budget and the answer so far; the batch's notes (started on its first ``contextualize=llm``
    record) and its slowest record so far, which the messages of an overrun name."""

    query: Mapping[str, str]
    settings: SkillSettings
    budget: TimeBudget
    result: BatchResult
    notes: NoteRun | None = None
    slowest: _Slowest = field(default_factory=lambda: _Slowest(0.0, "", 0))

    def note_run(self) -> NoteRun | None:
        """The batch's chat deployment, note cache and token ledger; None when no chat
        deployment is configured."""
        if self.notes is None and self.settings.notes is not None:
            self.notes = NoteRun.start(self.settings.notes, note_cache(self.settings.note_store))
        return self.notes


@dataclass(frozen=True, slots=True, order=True)
class _Slowest:
    """The batch's slowest record so far: what the messages of an overrun name."""

    seconds: float
    record_id: str
    chars: int


@dataclass(frozen=True, slots=True)
class _Work:
    """One record's characters, those after it, and the batch's, for plans and messages."""

    chars: int
    rest_chars: int
    batch_records: int
    batch_chars: int


@dataclass(slots=True)
class _Record:
    """One record on its way: its id, its checked inputs, the options it is chunked with (the
    fast strategy's when the budget says so), its plan, and its warnings so far."""

    id: str
    inputs: RecordInputs
    options: ChunkOptions
    plan: Plan
    warnings: list[str]


def _run_record(
    batch: _Batch, record_id: str, data: Any, plan: Plan, work: _Work
) -> dict[str, Any] | _Chunked:
    """A failed record's answer, or a chunked one's with what it adds to the stats."""
    budget, result = batch.budget, batch.result
    if plan is Plan.SKIP:
        result.stats.skipped += 1
        return _fail(result, record_id, _skip_message(budget.seconds, work, batch.slowest))
    try:
        inputs = read_inputs(
            data, batch.query, batch.settings,
            Limits(deadline=time.monotonic() + budget.conversion_seconds()),
        )  # fmt: skip
    except InputError as exc:
        return _fail(result, record_id, str(exc))
    record = _Record(record_id, inputs, inputs.options, plan, list(inputs.warnings))
    _replan(batch, record, work)
    deadline = time.monotonic() + max(0.0, budget.allowance(work.chars, work.rest_chars))
    try:
        chunked = _chunk(batch.settings, record, deadline)
    except ChunkingError as exc:
        return _fail(result, record_id, str(exc))
    if inputs.contextualize is Contextualize.LLM:
        noting = time.perf_counter()
        reserve = budget.seconds * NOTE_RESERVE
        notes_by = deadline - reserve if record.plan is Plan.FULL else time.monotonic()
        chunked = _notes(batch, record, chunked, notes_by)
        result.stats.context_seconds += time.perf_counter() - noting
    return _succeed(result, record, chunked)


def _replan(batch: _Batch, record: _Record, work: _Work) -> None:
    """The fast strategy for a record the budget cannot give the requested one, with a warning
    saying why; a file's text is known only now, so its plan is made again."""
    budget = batch.budget
    if record.plan is Plan.FULL and len(record.inputs.text) > work.chars:
        fits = budget.allowance(len(record.inputs.text), work.rest_chars) > 0
        record.plan = Plan.FULL if fits else Plan.FAST
    requested = record.options.strategy
    if record.plan in (Plan.FAST, Plan.LATE) and requested is not FAST_STRATEGY:
        record.options = _fast(record.options)
        batch.result.stats.fallbacks += 1
        record.warnings.append(
            _late_message(requested, budget.seconds, batch.slowest)
            if record.plan is Plan.LATE
            else _fallback_message(requested, budget.seconds)
        )


def _notes(batch: _Batch, record: _Record, chunked: Chunking, deadline: float) -> Chunking:
    """The children with their context notes, as far as the deployment, the token budgets and
    ``deadline`` allow; every shortfall is one warning, never an error."""
    run = batch.note_run()
    if run is None:
        record.warnings.append(NO_DEPLOYMENT)
        return chunked
    inputs = record.inputs
    noted, notes = run.write(chunked, inputs.text, inputs.title, record.options, deadline)
    warning = missing_warning(notes, len(chunked.leaves))
    if warning:
        record.warnings.append(warning)
    batch.result.stats.add_notes(notes)
    return noted


def _chunk(settings: SkillSettings, record: _Record, deadline: float) -> Chunking:
    """The engine's chunks; ``semantic`` with the configured embeddings, which must answer by
    ``deadline`` (the record's share of the budget). When the embedding call fails or runs out of
    time the record is chunked without topic shifts (as ``hierarchical``) and says why: a model
    outage costs quality, not data."""
    semantic = record.options.strategy is Strategy.SEMANTIC
    model = boundary_model(settings.embeddings, deadline) if semantic else None
    guarded = _Guarded(model) if model is not None else None
    chunked = _engine(record.inputs, record.options, guarded)
    if guarded is not None and guarded.failure is not None:
        name = type(guarded.failure).__name__
        logger.warning("semantic boundaries failed: %s", name)
        record.warnings.append(
            f"semantic boundaries failed ({name}): used hierarchical chunking instead"
        )
    return chunked


class _Guarded:
    """A boundary model whose failure is kept, not raised: no shifts is hierarchical chunking."""

    def __init__(self, model: BoundaryModel) -> None:
        self.model = model
        self.failure: Exception | None = None

    def topic_shifts(self, text: str, candidates: list[int]) -> list[int]:
        try:
            return self.model.topic_shifts(text, candidates)
        except Exception as exc:  # network, auth, quota: whatever the embedder raises
            self.failure = exc
            return []


def _engine(inputs: RecordInputs, options: ChunkOptions, model: BoundaryModel | None) -> Chunking:
    return chunk_document(
        inputs.text,
        title=inputs.title,
        format=inputs.format,
        document_key=inputs.document_key,
        options=options,
        boundary_model=model,
    )


def _succeed(result: BatchResult, record: _Record, chunked: Chunking) -> _Chunked:
    warnings = record.warnings
    warnings.extend(chunked.warnings)
    data = streamed_record_data(chunked, record.inputs.document_key)
    tally = _Tally(
        characters=len(record.inputs.text),
        tokens=sum(leaf.tokens for leaf in chunked.leaves),
        parents=len(data["parents"]),
        children=len(chunked.leaves),
        strategy=record.options.strategy.value,
        warnings=len(warnings),
    )
    answer = {
        "recordId": record.id,
        "data": data,
        "errors": None,
        "warnings": [{"message": warning} for warning in warnings] or None,
    }
    return _Chunked(answer, tally, record.plan)


@dataclass(frozen=True, slots=True)
class _Tally:
    """What a chunked record adds to the batch's stats once its answer is written: a record
    whose parents fail while they are shaped is counted as an error only."""

    characters: int
    tokens: int
    parents: int
    children: int
    strategy: str
    warnings: int

    def add_to(self, stats: BatchStats) -> None:
        stats.characters += self.characters
        stats.tokens += self.tokens
        stats.parents += self.parents
        stats.children += self.children
        stats.strategies[self.strategy] += 1
        stats.warnings += self.warnings


@dataclass(frozen=True, slots=True)
class _Chunked:
    """A chunked record's answer, its tally, and the plan it was chunked by (a file whose text
    is longer than its bytes promised may be re-planned once converted)."""

    record: dict[str, Any]
    tally: _Tally
    plan: Plan


def _crashed(result: BatchResult, record_id: str, exc: Exception) -> dict[str, Any]:
    logger.exception("chunk record crashed recordId=%s", record_id)
    return _fail(result, record_id, f"internal error while chunking ({type(exc).__name__})")


def _fail(result: BatchResult, record_id: str, reason: str) -> dict[str, Any]:
    reason = reason if len(reason) <= _MAX_REASON else reason[: _MAX_REASON - 3] + "..."
    result.stats.errors += 1
    result.failures.append((record_id, reason))
    return {"recordId": record_id, "data": {}, "errors": [{"message": reason}], "warnings": None}


def _fast(options: ChunkOptions) -> ChunkOptions:
    values = options.model_dump()
    values["strategy"] = FAST_STRATEGY
    return ChunkOptions.model_validate(values)


def _text_length(data: Any) -> int:
    """A record's characters to chunk; a file's base64 length stands in for its text's (a
    converted file's text is rarely longer than its bytes)."""
    text = data.get("text") if isinstance(data, dict) else None
    if isinstance(data, dict) and isinstance(data.get("file_data"), dict):
        text = data["file_data"].get("data")
    return len(text) if isinstance(text, str) else 0


def _suffix_sums(lengths: list[int]) -> list[int]:
    """``out[i] = sum(lengths[i:])``: the characters still to chunk from record ``i`` on (one
    more entry than ``lengths``, the last one 0)."""
    out = [0] * (len(lengths) + 1)
    total = 0
    for index in range(len(lengths) - 1, -1, -1):
        total += lengths[index]
        out[index] = total
    return out


def _unknown_query_message(names: list[str]) -> str:
    shown = ", ".join(repr(name[:40]) for name in names[:5])
    per_record = [name for name in names if name in DOCUMENT_INPUTS]
    hint = (
        f"; {', '.join(per_record)} must come from the record (the skill's inputs), not the uri"
        if per_record
        else ""
    )
    return (
        f"unknown query-string option {shown} in the skill's uri; allowed: the chunking options, "
        f"contextualize, format, timeBudgetSeconds and code{hint}"
    )


def _skip_message(seconds: float, work: _Work, slowest: _Slowest) -> str:
    return (
        f"not chunked: this batch ({work.batch_records} records, {work.batch_chars} characters) "
        f"ran past its time budget ({seconds:g} s) before this record, and even the fastest "
        f"strategy would end too late; {_slowest(slowest)}; lower the skill's batchSize (or the "
        f"Function App's perInstanceConcurrency), or raise the skill's timeout and "
        f"{BUDGET_SETTING}"
    )


def _late_message(requested: Strategy, seconds: float, slowest: _Slowest) -> str:
    return (
        f"chunked with strategy '{FAST_STRATEGY.value}' instead of '{requested.value}': the "
        f"batch ran past its time budget ({seconds:g} s) before this record; {_slowest(slowest)}"
    )


def _slowest(slowest: _Slowest) -> str:
    return (
        f"its slowest record, {slowest.record_id[:60]!r}, took {slowest.seconds:.1f} s for "
        f"{slowest.chars} characters"
    )


def _fallback_message(requested: Strategy, seconds: float) -> str:
    return (
        f"chunked with strategy '{FAST_STRATEGY.value}' instead of '{requested.value}': the full "
        f"strategy would have left too little of the batch's time budget ({seconds:g} s) for the "
        "records after this one; lower the skill's batchSize"
    )
