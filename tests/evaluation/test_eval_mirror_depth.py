"""The evaluation's hybrid mirror asks, at every prompt budget, what the query asks the service:
the same ``top`` and vector ``k`` (one function decides both, ``query.fetch_depth``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from skills.evaluation import run
from skills.evaluation.dataset import Dataset, Question
from skills.evaluation.grid import Candidate
from skills.evaluation.metrics import BUDGETS, SEARCH_DEPTH
from skills.evaluation.retrieval import Rankings, fetch_depths, hybrid_rank, normalized
from skills.evaluation.run import rank_leaves
from skills.evaluation.spans import Span
from skills.ranking import DEFAULT_ANALYZER
from skills.search.query import QueryOptions, SearchRequest, fetch_depth, query_parents

LEAVES = 500
QUESTION = "why does the request time out"


class Recorder:
    """A searcher that answers nothing and keeps what it was asked."""

    def __init__(self) -> None:
        self.requests: list[SearchRequest] = []

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        self.requests.append(request)
        return []


def asked(budget: int | None) -> SearchRequest:
    """The children-index request of the query for a prompt of ``budget`` tokens."""
    recorder = Recorder()
    query_parents(
        recorder, QUESTION, children_index="children", options=QueryOptions(budget=budget)
    )
    # the hybrid request (not the one-result vector-alone one of ``halves_first``)
    [request] = [r for r in recorder.requests if r.vector_k is not None and r.keywords]
    return request


def corpus() -> tuple[list[str], np.ndarray, np.ndarray]:
    """Leaf i's vector a little further from the question's than leaf i - 1's; leaves 80-399
    alone hold the question's keywords, so how many of them the vectors reach (none with a k of
    50, 20 with 100, 120 with 200, all with 400) changes the fused order."""
    angles = np.linspace(0.0, math.pi / 2, LEAVES)
    leaf_vectors = normalized(np.stack([np.cos(angles), np.sin(angles)], axis=1))
    texts = [
        "the request timed out" if 80 <= i < 400 else f"other words {i}" for i in range(LEAVES)
    ]
    return texts, normalized([[1.0, 0.0]]), leaf_vectors


def test_the_query_asks_for_as_many_children_as_its_vector_k_at_every_budget() -> None:
    for budget in (None, *BUDGETS):
        request = asked(budget)
        assert request.vector_k == request.top, budget
    deeper, shallower = asked(4000).vector_k, asked(2000).vector_k
    assert deeper is not None and shallower is not None
    assert deeper > shallower, "a larger budget fetches deeper"


@pytest.mark.parametrize("budget", [None, *BUDGETS])
def test_the_mirror_fuses_with_the_k_the_query_sends_at_that_budget(budget: int | None) -> None:
    texts, question_vectors, leaf_vectors = corpus()
    mirror = rank_leaves(
        "hybrid", [QUESTION], question_vectors, texts, leaf_vectors, DEFAULT_ANALYZER
    )
    k = asked(budget).vector_k
    assert k is not None and k in fetch_depths()
    expected = hybrid_rank([QUESTION], question_vectors, texts, leaf_vectors, SEARCH_DEPTH, k,
                           DEFAULT_ANALYZER)  # fmt: skip
    assert mirror.at(budget) == expected


def test_the_depths_of_this_corpus_fuse_differently() -> None:
    """Without it the test above could not fail: each k gives its own order here."""
    texts, question_vectors, leaf_vectors = corpus()
    orders = [
        hybrid_rank([QUESTION], question_vectors, texts, leaf_vectors, SEARCH_DEPTH, k)[0]
        for k in fetch_depths()
    ]
    assert len({tuple(order) for order in orders}) == len(orders)


def test_vector_retrieval_is_one_order_at_every_depth() -> None:
    texts, question_vectors, leaf_vectors = corpus()
    ranked = rank_leaves(
        "vector", [QUESTION], question_vectors, texts, leaf_vectors, DEFAULT_ANALYZER
    )
    assert all(ranked.at(budget) == [list(range(SEARCH_DEPTH))] for budget in (None, *BUDGETS))


SECTIONS = [
    "Penguins waddle across cold ice and dive for krill.",
    "Volcanoes erupt molten lava when magma pressure rises.",
    "Glaciers carve deep valleys over thousands of years.",
    "Mushrooms spread hidden threads through damp forest soil.",
]


class Flat:
    """One vector for every text: the rankings below are all that decides."""

    dimensions = 4

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0, 0.0, 0.0] for _ in texts]


@pytest.mark.parametrize("returns", ["budget", "child"])
def test_each_budget_is_scored_on_the_ranking_of_the_query_for_that_budget(
    monkeypatch: pytest.MonkeyPatch, returns: str
) -> None:
    """A ranking that reaches the answer only from the depth of the 4,000-token query on is a
    hit from 4,000 tokens up and a miss below, for the assembled prompt (the engine's) and for
    the filled one (the baselines')."""
    text = "# Nature\n\n" + "".join(f"## S{n}\n\n{body}\n\n" for n, body in enumerate(SECTIONS))
    answer = "hidden threads through damp forest soil."
    start = text.index(answer)
    question = Question("q", "Where do mushrooms spread?", "d.md", "prose",
                        (Span("d.md", start, start + len(answer)),))  # fmt: skip
    dataset = Dataset({"d.md": text}, (question,))

    def fake_rank_leaves(retrieval: str, questions: Sequence[str], question_vectors: Any,
                         texts: Sequence[str], *rest: Any) -> Rankings:  # fmt: skip
        leaf = next(n for n, t in enumerate(texts) if "hidden threads" in t)
        shallow, deep = [[0]], [[leaf]]
        return Rankings({d: deep if d >= fetch_depth(4000) else shallow for d in fetch_depths()})

    monkeypatch.setattr(run, "rank_leaves", fake_rank_leaves)
    candidate = Candidate("hier", "engine", {"strategy": "hierarchical", "parentMaxTokens": 24,
                                             "childMaxTokens": 16}, returns)  # fmt: skip
    [result] = run.evaluate(dataset, [candidate], Flat(), retrieval="hybrid")
    hits = {budget: result.summary[f"hit@B{budget}"] for budget in BUDGETS}
    assert hits == {500: 0.0, 1000: 0.0, 2000: 0.0, 4000: 100.0, 8000: 100.0}
