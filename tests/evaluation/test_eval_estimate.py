"""The evaluation says how long it will take before it starts (skills/evaluation/estimate.py)."""

from __future__ import annotations

from collections.abc import Sequence

from skills.chunking import count_tokens
from skills.evaluation.dataset import Dataset
from skills.evaluation.estimate import PREFIX_AND_OVERLAP, Estimate, estimate, sample
from skills.evaluation.grid import Candidate


class Counting:
    """An embedder that counts what it is asked to embed."""

    dimensions = 2

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        return [[1.0, 0.0] for _ in texts]


def _dataset(*texts: str) -> Dataset:
    return Dataset({f"d{i}.md": text for i, text in enumerate(texts)}, (), {})


def test_chunk_sets_are_counted_once_and_the_rate_is_measured_on_the_documents() -> None:
    data = _dataset("word " * 2000, "other " * 1000)
    candidates = [
        Candidate("a", "engine", {"child_max_tokens": 64}, "child"),
        Candidate("b", "engine", {"child_max_tokens": 64}, "parent"),  # same chunks as a
        Candidate("c", "fixed", {"size": 16, "overlap": 4}, "child"),
    ]
    embedder = Counting()
    found = estimate(data, candidates, embedder)
    tokens = sum(count_tokens(text) for text in data.documents.values())
    assert found.chunk_sets == 2
    assert found.tokens == int(2 * tokens * PREFIX_AND_OVERLAP)
    assert embedder.calls[0] == 1 and embedder.calls[1] == len(sample(data)) > 1  # warm, then timed
    assert found.tokens_per_second > 0


def test_the_sentence_says_minutes_from_tokens_and_rate() -> None:
    assert Estimate(3, 600_000, 1_000.0).seconds == 600
    assert "about 10 minutes" in Estimate(3, 600_000, 1_000.0).sentence()
    assert "a minute or less" in Estimate(1, 1_000, 1_000.0).sentence()
    assert "600,000 tokens" in Estimate(3, 600_000, 1_000.0).sentence()


def test_an_empty_set_has_nothing_to_sample() -> None:
    assert sample(_dataset("", " ")) == []
    assert estimate(_dataset(""), [], Counting()).seconds == 0.0
