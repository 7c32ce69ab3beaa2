"""Each half's first child stays in reach: the query lifts the keyword half's and the vector
half's first result to just after the fused first, and the evaluation's mirror ranks the same."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from bench.stand_in_search import Halves, Hanging
from skills.evaluation.retrieval import hybrid_rankings, normalized
from skills.ranking import halves_first
from skills.search.query import (
    HALF_NAMES,
    QueryOptions,
    SearchRequest,
    query_parents,
    searched_together,
)


def parents_sent(options: QueryOptions) -> tuple[list[str], list[SearchRequest]]:
    searcher = Halves()
    results = query_parents(searcher, "q", children_index="children", options=options)
    return [result.parent_chunk_id for result in results], searcher.requests


def test_the_query_lifts_each_halfs_first_child_to_just_after_the_fused_first() -> None:
    order, requests = parents_sent(QueryOptions(parents=5, children=5, halves_first=True))
    assert order == ["p-a", "p-d", "p-e", "p-b", "p-c"]
    children = [(r.top, r.vector_k, r.keywords) for r in requests if r.filter is None]
    assert len(children) == 3  # (sent at the same time: in any order)
    assert set(children) == {(5, 5, True), (1, None, True), (1, 1, False)}


def test_without_halves_first_the_query_keeps_the_services_order_in_one_request() -> None:
    order, requests = parents_sent(QueryOptions(parents=5, children=5, halves_first=False))
    assert order == ["p-a", "p-b", "p-c", "p-d", "p-e"]
    assert len([r for r in requests if r.filter is None]) == 1


def test_a_half_whose_first_is_the_fused_first_lifts_nothing() -> None:
    assert halves_first([3, 2, 1], keyword_first=3, vector_first=None) == [3, 2, 1]
    assert halves_first([3, 2, 1], keyword_first=1, vector_first=1) == [3, 1, 2]
    assert halves_first([], keyword_first=1, vector_first=2) == [1, 2]


def test_the_mirror_lifts_the_same_children_the_query_does() -> None:
    # leaf 0 is the vectors' first and has no keyword; leaves 1-8 hold the word in both
    # halves; leaf 9 holds it three times (the keywords' first) and is the vectors' last
    texts = ["nothing here", *["timeout once more" for _ in range(8)], "timeout timeout timeout"]
    angles = np.linspace(0.0, 1.2, len(texts))
    leaves = normalized(np.stack([np.cos(angles), np.sin(angles)], axis=1))
    question = normalized([[1.0, 0.0]])
    plain = hybrid_rankings(["timeout"], question, texts, leaves, 10, (5,))[5][0]
    lifted = hybrid_rankings(["timeout"], question, texts, leaves, 10, (5,), halves=True)[5][0]
    keyword_first = 9
    assert plain.index(keyword_first) > 2 and plain[0] != 0
    assert lifted == halves_first(plain, keyword_first, 0)
    assert lifted[:3] == [plain[0], keyword_first, 0]


class Together(Halves):
    """Answers a request of the children index only once all three have arrived, each in its own
    thread: one after another, the first would wait for the others until the barrier's
    timeout and the query would fail."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = threading.Barrier(3, timeout=10)
        self.threads: set[int] = set()

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        if not request.filter:
            self.threads.add(threading.get_ident())
            self.arrived.wait()
        return super().search(request)


def test_the_halves_requests_are_sent_at_the_same_time_as_the_hybrid_request() -> None:
    searcher = Together()
    results = query_parents(
        searcher, "q", children_index="children", options=QueryOptions(parents=5, children=5)
    )
    assert [result.parent_chunk_id for result in results] == ["p-a", "p-d", "p-e", "p-b", "p-c"]
    assert len(searcher.threads) == 3


class Failing(Halves):
    """A service that fails the requests of one kind: the hybrid one, or a half's."""

    def __init__(self, failing: str) -> None:
        super().__init__()
        self.failing = failing

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        kind = "keyword" if request.vector_k is None else "hybrid" if request.keywords else "vector"
        if not request.filter and kind in self.failing:
            raise RuntimeError(f"{kind} request failed")
        return super().search(request)


@pytest.mark.parametrize(
    ("failing", "raised"),
    [
        ("hybrid", "hybrid"),
        ("keyword", "keyword"),
        ("vector", "vector"),
        ("keyword vector", "keyword"),
        ("hybrid keyword vector", "hybrid"),
    ],
)
def test_a_failed_request_fails_the_query_with_the_error_sent_one_by_one_would_raise(
    failing: str, raised: str
) -> None:
    """As when the three requests ran one after another: the hybrid request's error first, then
    the keyword half's, then the vector half's; the error as the service gave it, with a note
    naming the request, since a user asked one query and does not know of the halves'."""
    with pytest.raises(RuntimeError) as error:
        query_parents(Failing(failing), "q", children_index="children")
    assert str(error.value) == f"{raised} request failed"
    assert error.value.__notes__ == [f"raised by the {HALF_NAMES[KINDS.index(raised)]}"]


KINDS = ("hybrid", "keyword", "vector")


def test_searched_together_keeps_the_requests_order_in_its_answers() -> None:
    searcher = Halves()
    requests = [
        SearchRequest("children", "q", ("chunkId",), 1, vector_k=None),
        SearchRequest("children", "q", ("chunkId",), 5, vector_k=5),
        SearchRequest("children", "q", ("chunkId",), 1, vector_k=1, keywords=False),
    ]
    answers = searched_together(searcher, requests)
    assert [[doc["chunkId"] for doc in answer] for answer in answers] == [
        ["d"], ["a", "b", "c", "d", "e"], ["e"]
    ]  # fmt: skip


def test_a_query_waits_for_no_other_querys_hanging_requests() -> None:
    """Four queries whose halves hang hold the eight threads the halves are sent on; a query to
    a service that answers (another index, another service) is answered meanwhile: its halves
    go from its own thread when no thread is free, instead of queueing behind the hung ones."""
    hanging = Hanging()

    def hung_query() -> None:
        query_parents(hanging, "q", children_index="slow")

    stuck = [threading.Thread(target=hung_query, daemon=True) for _ in range(4)]
    for thread in stuck:
        thread.start()
    try:
        for _ in range(8):
            assert hanging.arrived.acquire(timeout=10), "the hung halves hold every thread"
        answered: list[list[str]] = []
        other = threading.Thread(
            target=lambda: answered.append(parents_sent(QueryOptions(parents=5, children=5))[0]),
            daemon=True,
        )
        other.start()
        other.join(timeout=10)
        assert answered == [["p-a", "p-d", "p-e", "p-b", "p-c"]]
    finally:
        hanging.released.set()
        for thread in stuck:
            thread.join(timeout=10)
