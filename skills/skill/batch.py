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
from skills.skill.boundaries import boundary_model
from skills.skill.budget import Plan, TimeBudget
from skills.skill.contextual import ContextSettings, Ledger, contextualize, missing_warning
from skills.skill.contract import InputRecord
from skills.skill.inputs import InputError, RecordInputs, read_inputs, unknown_query_names
from skills.skill.note_cache import note_cache
from skills.skill.options import Contextualize
from skills.skill.settings import SkillSettings
from skills.skill.shape import record_data

#: The strategy used when a batch runs short of time: the engine's cheapest (no section tree).
FAST_STRATEGY = Strategy.FIXED
_MAX_REASON = 300

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
    context_notes: int = 0  # children given a context note (contextualize=llm), cached ones too
    context_cache_hits: int = 0
    context_cache_errors: int = 0
    context_missing: int = 0  # children of contextualize=llm records left without a note
    context_input_tokens: int = 0
    context_cached_tokens: int = 0  # of the input tokens, those the service served from its cache
    context_output_tokens: int = 0


@dataclass
class BatchResult:
    """The response records, in request order, with the stats and the failures to log."""

    values: list[dict[str, Any]]
    stats: BatchStats
    failures: list[tuple[str, str]]  # (recordId, reason)


def run_batch(
    records: Sequence[InputRecord],
    query: Mapping[str, str],
    env: Mapping[str, str],
    settings: SkillSettings,
    budget: TimeBudget,
) -> BatchResult:
    """One output record per input record, in the same order."""
    result = BatchResult(values=[], stats=BatchStats(records=len(records)), failures=[])
    unknown = unknown_query_names(query)
    remaining = _suffix_sums([_text_length(record.data) for record in records])
    context = _Context(query, env, settings, budget)
    for index, record in enumerate(records):
        if unknown:
            _fail(result, record.record_id, _unknown_query_message(unknown))
            continue
        plan = budget.plan(min(remaining[index], settings.max_text_chars * (len(records) - index)))
        answered = len(result.values)
        later = remaining[index + 1] if index + 1 < len(records) else 0
        try:
            _run_record(result, record, context, plan, later)
        except Exception as exc:  # a bug must cost one record, not the batch
            logger.exception("chunk record crashed recordId=%s", record.record_id)
            del result.values[answered:]  # never answer a recordId twice
            _fail(result, record.record_id, f"internal error while chunking ({type(exc).__name__})")
    return result


@dataclass(slots=True)
class _Context:
    query: Mapping[str, str]
    env: Mapping[str, str]
    settings: SkillSettings
    budget: TimeBudget
    notes: _NoteRun | None = None  # made on the batch's first contextualize=llm record

    def note_run(self) -> _NoteRun | None:
        """The batch's chat deployment, cache and token ledger; None when none is configured."""
        if self.notes is None:
            settings = ContextSettings.from_env(self.env)
            if settings is None:
                return None
            self.notes = _NoteRun(settings, Ledger(settings.batch_max_tokens))
        return self.notes


@dataclass(frozen=True, slots=True)
class _NoteRun:
    settings: ContextSettings
    ledger: Ledger


def _run_record(
    result: BatchResult, record: InputRecord, context: _Context, plan: Plan, later: int
) -> None:
    """``later``: the characters of the records after this one, which the budget must keep
    time for."""
    budget = context.budget
    if plan is Plan.SKIP:
        result.stats.skipped += 1
        _fail(result, record.record_id, _skip_message(budget.seconds))
        return
    started = time.perf_counter()
    try:
        inputs = read_inputs(
            record.data, context.query, context.env, context.settings.max_text_chars
        )
    except InputError as exc:
        _fail(result, record.record_id, str(exc))
        return
    warnings = list(inputs.warnings)
    options = inputs.options
    if plan is Plan.FAST and options.strategy is not FAST_STRATEGY:
        options = _fast(options)
        result.stats.fallbacks += 1
        warnings.append(_fallback_message(inputs.options.strategy, budget.seconds))
    try:
        chunked = _chunk(inputs, options, context.env, warnings)
    except ChunkingError as exc:
        _fail(result, record.record_id, str(exc))
        return
    noting = time.perf_counter()
    if inputs.contextualize is Contextualize.LLM:
        chunked = _notes(result, inputs, options, chunked, context, plan, later, warnings)
    noted = time.perf_counter() - noting  # not chunking: kept out of the speed estimate
    _succeed(result, record.record_id, inputs, options, chunked, warnings)
    if plan is Plan.FULL:
        budget.measured(len(inputs.text), time.perf_counter() - started - noted)


def _chunk(
    inputs: RecordInputs, options: ChunkOptions, env: Mapping[str, str], warnings: list[str]
) -> Chunking:
    """The engine's chunks; ``semantic`` with the configured embeddings. When the embedding call
    fails the record is chunked without topic shifts (as ``hierarchical``) and says why: a model
    outage costs quality, not data."""
    model = boundary_model(env) if options.strategy is Strategy.SEMANTIC else None
    guarded = _Guarded(model) if model is not None else None
    chunked = _engine(inputs, options, guarded)
    if guarded is not None and guarded.failure is not None:
        name = type(guarded.failure).__name__
        logger.warning("semantic boundaries failed: %s", name)
        warnings.append(f"semantic boundaries failed ({name}): used hierarchical chunking instead")
    return chunked


def _notes(
    result: BatchResult,
    inputs: RecordInputs,
    options: ChunkOptions,
    chunked: Chunking,
    context: _Context,
    plan: Plan,
    later: int,
    warnings: list[str],
) -> Chunking:
    """The children with their context notes, as far as the deployment, the token budgets and
    the time budget allow; every shortfall is one warning, never an error."""
    run = context.note_run()
    if run is None:
        warnings.append(
            "contextualize=llm ignored: no chat deployment is configured (AZURE_OPENAI_ENDPOINT "
            "and AZURE_OPENAI_CHAT_DEPLOYMENT); children keep the heading path only"
        )
        return chunked
    if plan is not Plan.FULL:  # the batch is already short of time
        deadline = time.monotonic()
    else:
        deadline = time.monotonic() + context.budget.spare(later)
    noted, notes = contextualize(
        chunked,
        inputs.text,
        inputs.title,
        options.child_max_tokens,
        options.note_tokens,
        run.settings,
        run.settings.model(),
        note_cache(context.env),
        run.ledger,
        deadline,
    )
    warning = missing_warning(notes, len(chunked.leaves))
    if warning:
        warnings.append(warning)
    stats = result.stats
    stats.context_notes += notes.notes
    stats.context_cache_hits += notes.cache_hits
    stats.context_cache_errors += notes.cache_errors
    stats.context_missing += sum(notes.missing.values())
    stats.context_input_tokens += notes.usage.prompt
    stats.context_cached_tokens += notes.usage.cached
    stats.context_output_tokens += notes.usage.completion
    return noted


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


def _succeed(
    result: BatchResult,
    record_id: str,
    inputs: RecordInputs,
    options: ChunkOptions,
    chunked: Chunking,
    warnings: list[str],
) -> None:
    warnings.extend(chunked.warnings)
    if not chunked.leaves:
        warnings.append("text is empty or whitespace only: no chunks")
    data = record_data(chunked, inputs.document_key)
    stats = result.stats
    stats.characters += len(inputs.text)
    stats.tokens += sum(leaf.tokens for leaf in chunked.leaves)
    stats.parents += len(data["parents"])
    stats.children += len(chunked.leaves)
    stats.strategies[options.strategy.value] += 1
    stats.warnings += len(warnings)
    result.values.append(
        {
            "recordId": record_id,
            "data": data,
            "errors": None,
            "warnings": [{"message": warning} for warning in warnings] or None,
        }
    )


def _fail(result: BatchResult, record_id: str, reason: str) -> None:
    reason = reason if len(reason) <= _MAX_REASON else reason[: _MAX_REASON - 3] + "..."
    result.stats.errors += 1
    result.failures.append((record_id, reason))
    result.values.append(
        {"recordId": record_id, "data": {}, "errors": [{"message": reason}], "warnings": None}
    )


def _fast(options: ChunkOptions) -> ChunkOptions:
    values = options.model_dump()
    values["strategy"] = FAST_STRATEGY
    return ChunkOptions.model_validate(values)


def _text_length(data: Any) -> int:
    text = data.get("text") if isinstance(data, dict) else None
    return len(text) if isinstance(text, str) else 0


def _suffix_sums(lengths: list[int]) -> list[int]:
    """``out[i] = sum(lengths[i:])``: the characters still to chunk from record ``i`` on."""
    out = [0] * len(lengths)
    total = 0
    for index in range(len(lengths) - 1, -1, -1):
        total += lengths[index]
        out[index] = total
    return out


def _unknown_query_message(names: list[str]) -> str:
    return (
        f"unknown query-string option {', '.join(repr(n[:40]) for n in names[:5])} in the skill's "
        "uri; allowed: the chunking options, contextualize, format, timeBudgetSeconds and code"
    )


def _skip_message(seconds: float) -> str:
    return (
        f"not chunked: the batch used up its time budget ({seconds:g} s) before this record; "
        "lower the skill's batchSize, or raise its timeout and SKILL_TIME_BUDGET_SECONDS"
    )


def _fallback_message(requested: Strategy, seconds: float) -> str:
    return (
        f"chunked with strategy '{FAST_STRATEGY.value}' instead of '{requested.value}': the batch "
        f"would have run past its time budget ({seconds:g} s); lower the skill's batchSize"
    )
