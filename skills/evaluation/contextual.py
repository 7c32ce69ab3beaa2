"""Context notes measured: retrieval with and without them, paired, and what they cost.

``python -m skills.evaluation.contextual`` runs a question set at the default sizes: ``plain``
(the heading path only, the default), ``room`` (no note, but children cut with the note's room
kept free, ``noteTokens`` 32: what the room alone costs), ``free`` (a note the document itself
gives: its front-matter title and description and the first sentence of the child's section)
and, when a chat deployment is configured, ``llm`` (``contextualize=llm``'s notes, through the
same code as the skill). Each variant is compared with ``plain`` question by question (won /
lost and the exact sign test of ``versus``). Without ``AZURE_OPENAI_ENDPOINT`` and
``AZURE_OPENAI_CHAT_DEPLOYMENT`` the ``llm`` variant is skipped, and the command says so.

``--count`` calls no model: it counts, with ``cl100k_base``, the input tokens the ``llm`` notes
of the set would send (prompt caching not counted) and the output they may write, per document
and per 1,000 documents: the numbers ``docs/deploy.md`` prices.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from skills.chunking import (
    Chunking,
    ChunkOptions,
    chunk_document,
    count_tokens,
    sentence_starts,
    with_note,
)
from skills.evaluation.chunksets import ChunkSet, Leaf, concatenate
from skills.evaluation.dataset import DEFAULT_DEV_SET, Dataset, load_dataset
from skills.evaluation.grid import Candidate
from skills.evaluation.spans import Span
from skills.skill import LLM_NOTE_TOKENS, SkillSettings

NoteWriter = Callable[[str, str, Chunking, ChunkOptions], Chunking]
_FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)
_FIELD = re.compile(r"^(?P<name>title|description):\s*(?P<value>.+)$", re.MULTILINE)
_HEADING_LINE = re.compile(r"\A(?:\s*#{1,6} [^\n]*\n|\s*[^\n]+\n[=~^\"'`#*+-]{3,}\n)+")


def room_only(doc: str, text: str, chunked: Chunking, options: ChunkOptions) -> Chunking:
    """No note, but children cut with the note's room kept: what the room alone costs."""
    return chunked


def free_notes(doc: str, text: str, chunked: Chunking, options: ChunkOptions) -> Chunking:
    """Notes from what the document says of itself: front-matter title and description, then
    the first sentence of the child's parent section."""
    about = _front_matter(text)
    parents = {parent.id: parent for parent in chunked.parents}
    leaves = []
    for leaf in chunked.leaves:
        parent = parents.get(leaf.parent_id or "")
        first = _first_sentence(parent.text) if parent is not None else ""
        note = " ".join(part for part in (about, first) if part and part not in leaf.text)
        leaves.append(with_note(leaf, note, options.child_max_tokens))
    return replace(chunked, leaves=tuple(leaves))


def llm_notes(env: Mapping[str, str]) -> tuple[NoteWriter, dict[str, int]]:
    """A writer of ``contextualize=llm`` notes (no cache, budgets as configured, an hour per
    document, each document a batch of its own) and the token totals it adds to."""
    from skills.llm import NoteRun

    settings = SkillSettings.from_env(env).notes
    if settings is None:
        raise LookupError("no chat deployment")
    totals = {"input": 0, "cached": 0, "output": 0, "notes": 0, "missing": 0}

    def write(doc: str, text: str, chunked: Chunking, options: ChunkOptions) -> Chunking:
        run = NoteRun.start(settings)
        noted, stats = run.write(chunked, text, None, options, time.monotonic() + 3600)
        totals["input"] += stats.usage.prompt
        totals["cached"] += stats.usage.cached
        totals["output"] += stats.usage.completion
        totals["notes"] += stats.notes
        totals["missing"] += sum(stats.missing.values())
        return noted

    return write, totals


def noted_chunk_set(dataset: Dataset, writer: NoteWriter | None) -> ChunkSet:
    """Every document at the default sizes (with the note room when there is a writer)."""
    options = ChunkOptions(note_tokens=LLM_NOTE_TOKENS if writer else 0)
    parts = {}
    for doc, text in dataset.documents.items():
        chunked = chunk_document(
            text, title=dataset.titles.get(doc), document_key=doc, options=options
        )
        if writer is not None:
            chunked = writer(doc, text, chunked, options)
        parent_index = {parent.id: index for index, parent in enumerate(chunked.parents)}
        leaves = tuple(
            Leaf(
                Span(doc, leaf.start, leaf.end),
                leaf.embed_text,
                parent_index.get(leaf.parent_id or ""),
            )
            for leaf in chunked.leaves
        )
        parents = tuple(Span(doc, p.start, p.end) for p in chunked.parents)
        parts[doc] = ChunkSet(leaves, parents, chunked.warnings)
    return concatenate(parts)


def count_costs(dataset: Dataset, env: Mapping[str, str]) -> dict[str, float]:
    """Input and output tokens the ``llm`` notes of ``dataset`` would take, by ``cl100k_base``."""
    from skills.llm import ChatTarget, NoteSettings, Prompts, output_tokens

    settings = SkillSettings.from_env(env).notes or NoteSettings(ChatTarget("", "", ""))
    options = ChunkOptions(note_tokens=LLM_NOTE_TOKENS)
    children = prompt_tokens = 0
    for doc, text in dataset.documents.items():
        title = dataset.titles.get(doc)
        chunked = chunk_document(text, title=title, document_key=doc, options=options)
        prompts = Prompts.of(
            chunked, text, title, options.note_tokens, settings.document_max_tokens
        )
        for leaf in chunked.leaves:
            messages = prompts.messages(leaf)
            prompt_tokens += sum(count_tokens(message["content"]) for message in messages)
            children += 1
    documents = len(dataset.documents)
    output = children * output_tokens(LLM_NOTE_TOKENS)
    return {
        "documents": documents,
        "characters": sum(len(text) for text in dataset.documents.values()),
        "children": children,
        "inputTokens": prompt_tokens,
        "maxOutputTokens": output,
        "inputTokensPer1000Documents": prompt_tokens * 1000 / documents,
        "maxOutputTokensPer1000Documents": output * 1000 / documents,
    }


def main(argv: list[str] | None = None) -> int:
    import os

    args = _parser().parse_args(argv)
    dataset = load_dataset(args.docs, args.questions)
    if args.count:
        for name, value in count_costs(dataset, os.environ).items():
            print(f"{name}: {value:,.0f}")
        return 0
    variants: dict[str, NoteWriter | None] = {"plain": None, "room": room_only, "free": free_notes}
    totals: dict[str, int] = {}
    try:
        variants["llm"], totals = llm_notes(os.environ)
    except LookupError:
        print(
            "llm variant skipped: set AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_CHAT_DEPLOYMENT "
            "(and AZURE_OPENAI_API_KEY where keys are allowed; keyless otherwise) to run it",
            file=sys.stderr,
        )
    results = _evaluate(dataset, variants, args.cache)
    _print(results, totals)
    return 0


def _evaluate(
    dataset: Dataset, variants: Mapping[str, NoteWriter | None], cache: Path | None
) -> list[Any]:
    from skills.embeddings import default_embedder
    from skills.evaluation.run import evaluate

    sets = {name: noted_chunk_set(dataset, writer) for name, writer in variants.items()}
    candidates = [
        Candidate(name, "engine", {"variant": name}, "parent", baseline=(name == "plain"))
        for name in variants
    ]
    return evaluate(
        dataset,
        candidates,
        default_embedder(cache),
        build=lambda candidate, _dataset, _model: sets[candidate.name],
    )


def _print(results: list[Any], totals: Mapping[str, int]) -> None:
    from skills.evaluation import report
    from skills.evaluation.versus import versus_best_baseline, versus_table

    print(report.table(results))
    comparisons = versus_best_baseline(results)
    if comparisons:
        print()
        print(versus_table(comparisons))
    if totals:
        print("\nllm tokens: " + ", ".join(f"{k} {v:,}" for k, v in totals.items()))


def _front_matter(text: str) -> str:
    match = _FRONT_MATTER.match(text)
    if match is None:
        return ""
    found = {m["name"]: m["value"].strip().strip("'\"") for m in _FIELD.finditer(match["body"])}
    return ". ".join(value.rstrip(".") for value in found.values() if value) + (
        "." if found else ""
    )


def _first_sentence(section: str) -> str:
    body = _HEADING_LINE.sub("", _FRONT_MATTER.sub("", section.lstrip(), count=1), count=1).strip()
    starts = sentence_starts(body) if body else []
    first = body[: starts[0]] if starts else body
    return " ".join(first.split()[:40])  # a run-on first "sentence" (a code block) is cut


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m skills.evaluation.contextual", description=__doc__.split("\n")[0]
    )
    p.add_argument("--docs", type=Path, default=DEFAULT_DEV_SET / "docs")
    p.add_argument("--questions", type=Path, default=DEFAULT_DEV_SET / "questions.jsonl")
    p.add_argument("--cache", type=Path, help="embedding cache folder")
    p.add_argument("--count", action="store_true", help="count the llm notes' tokens, call nothing")
    return p


if __name__ == "__main__":
    sys.exit(main())
