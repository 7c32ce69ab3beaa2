"""Semantic boundaries: where embeddings drift apart, and the engine keeping every rule anyway."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_documents import markdown_document
from test_invariants import check_invariants

from skills.chunking import ChunkOptions, chunk_document
from skills.chunking.semantic import PASSAGE_CHARS, EmbeddingBoundaries

TOPICS = ("penguin", "volcano", "invoice")


class Topics:
    """One dimension per topic word: a passage points at the topics it mentions."""

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return [[float(text.count(word)) for word in TOPICS] for text in texts]


def paragraphs(topic: str, count: int) -> list[str]:
    return [f"The {topic} paragraph number {i} says a {topic} is a {topic}." for i in range(count)]


def test_the_shift_is_found_between_two_topics() -> None:
    parts = paragraphs("penguin", 4) + paragraphs("volcano", 4)
    text = "\n\n".join(parts)
    candidates = [text.index(part) for part in parts[1:]]
    shifts = EmbeddingBoundaries(Topics(), window=2, percentile=80).topic_shifts(text, candidates)
    assert shifts == [text.index(parts[4])]


def test_few_passages_have_no_shift_and_the_embedder_is_not_called() -> None:
    embedder = Topics()
    model = EmbeddingBoundaries(embedder)
    assert model.topic_shifts("one\n\ntwo", [5]) == []
    assert model.topic_shifts("one", []) == []
    assert embedder.calls == 0


def test_passages_without_a_vector_do_not_break_it() -> None:
    text = "\n\n".join(["nothing here", "penguin", "still nothing", "volcano", "blank"])
    candidates = [i + 2 for i, c in enumerate(text) if text[i : i + 2] == "\n\n"]
    shifts = EmbeddingBoundaries(Topics(), window=1).topic_shifts(text, candidates)
    assert set(shifts) <= set(candidates)


def test_candidates_out_of_range_repeated_or_unordered_are_tolerated() -> None:
    parts = paragraphs("penguin", 4) + paragraphs("volcano", 4)
    text = "\n\n".join(parts)
    good = [text.index(part) for part in parts[1:]]
    hostile = [-5, 0, len(text), len(text) + 9, *reversed(good), *good]
    model = EmbeddingBoundaries(Topics(), window=2, percentile=80)
    assert model.topic_shifts(text, hostile) == model.topic_shifts(text, good)


def test_a_huge_passage_is_embedded_by_its_opening_only() -> None:
    seen: list[int] = []

    class Lengths(Topics):
        def embed(self, texts: Sequence[str]) -> list[list[float]]:
            seen.extend(len(text) for text in texts)
            return super().embed(texts)

    parts = ["penguin " * 50_000, "volcano", "invoice", "penguin"]
    text = "\n\n".join(parts)
    candidates = [text.index(part, 1) for part in parts[1:]]
    EmbeddingBoundaries(Lengths()).topic_shifts(text, candidates)
    assert max(seen) == PASSAGE_CHARS


@pytest.mark.parametrize(("window", "percentile"), [(0, 90), (2, 0), (2, 100)])
def test_bad_settings_fail_loud(window: int, percentile: float) -> None:
    with pytest.raises(ValueError):
        EmbeddingBoundaries(Topics(), window=window, percentile=percentile)


def test_plain_text_is_cut_where_the_topic_changes() -> None:
    """Without headings, the packer prefers the topic shift to any paragraph boundary."""
    parts = paragraphs("penguin", 11) + paragraphs("invoice", 7)
    text = "\n\n".join(parts)
    options = ChunkOptions(strategy="semantic", parent_max_tokens=200, child_max_tokens=64)
    plain = chunk_document(text, format="text", options=options.model_copy())
    semantic = chunk_document(
        text,
        format="text",
        options=options,
        boundary_model=EmbeddingBoundaries(Topics(), window=2, percentile=85),
    )
    shift = text.index(parts[11])
    assert [p.start for p in semantic.parents] == [0, shift]
    assert shift not in {p.start for p in plain.parents}  # balanced halves cut elsewhere
    assert not semantic.warnings and plain.warnings  # plain: no model, fell back
    check_invariants(text, semantic, options, None)


class Arbitrary:
    """Shifts anywhere among the candidates: the engine's rules must hold whatever a model says."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def topic_shifts(self, text: str, candidates: list[int]) -> list[int]:
        return sorted(self.random.sample(candidates, k=len(candidates) // 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(markdown_document, st.integers(0, 2**16))
def test_every_rule_holds_with_any_topic_shifts(source: str, seed: int) -> None:
    options = ChunkOptions(
        strategy="semantic", parent_max_tokens=256, child_max_tokens=64, child_overlap_tokens=16
    )
    result = chunk_document(source, options=options, boundary_model=Arbitrary(seed))
    check_invariants(source, result, options, None)
