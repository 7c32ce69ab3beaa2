"""The neighbour fetch gets every sibling, however many: a search answers at most ``top``
(1,000) results and gives no next page past it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from skills.search import query
from skills.search.local_index import LocalIndex, LocalSearcher
from skills.search.query import SearchRequest, fetch_siblings

INDEX = {
    "name": "children",
    "fields": [
        {"name": "id", "type": "Edm.String", "key": True},
        {"name": "parentChunkId", "type": "Edm.String", "searchable": False},
        {"name": "ordinal", "type": "Edm.Int32"},
        {"name": "start", "type": "Edm.Int32"},
        {"name": "end", "type": "Edm.Int32"},
        {"name": "prefix", "type": "Edm.String", "searchable": False},
    ],
}


class NoEmbedder:
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("a filter-only search embeds nothing")


class CountingSearcher(LocalSearcher):
    """The simulation's searcher, counting requests."""

    def __init__(self, children: dict[str, int]) -> None:
        docs = [
            {"id": f"{parent}-{n}", "parentChunkId": parent, "ordinal": n, "start": 10 * n,
             "end": 10 * n + 9, "prefix": ""}
            for parent, count in children.items() for n in range(count)
        ]  # fmt: skip
        super().__init__({"children": LocalIndex(INDEX, docs)}, NoEmbedder())  # type: ignore[arg-type]
        self.seen: list[SearchRequest] = []

    def search(self, request: SearchRequest) -> list[dict[str, object]]:
        self.seen.append(request)
        return super().search(request)


@pytest.fixture(autouse=True)
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(query, "MAX_TOP", 5)  # the service's 1,000, small enough to pass


def test_siblings_past_one_page_are_all_fetched() -> None:
    children = {"a": 3, "b": 4, "c": 2, "d": 4}  # 13: more than two full pages
    searcher = CountingSearcher(children)
    siblings = fetch_siblings(searcher, "children", list(children))
    assert {parent: len(spans) for parent, spans in siblings.items()} == children
    assert all(r.top == 5 for r in searcher.seen)


def test_one_parent_with_more_children_than_a_page_is_paged_by_ordinal() -> None:
    searcher = CountingSearcher({"big": 12, "small": 1})
    siblings = fetch_siblings(searcher, "children", ["big", "small"])
    assert [span.ordinal for span in siblings["big"]] == list(range(12))
    paged = [r for r in searcher.seen if r.order_by]
    assert [r.skip for r in paged] == [0, 5, 10] and paged[0].order_by == ("ordinal",)


def test_a_page_that_is_not_full_needs_no_second_request() -> None:
    searcher = CountingSearcher({"a": 2, "b": 2})
    fetch_siblings(searcher, "children", ["a", "b"])
    assert len(searcher.seen) == 1
