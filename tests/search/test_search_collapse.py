"""Child hits become the top N distinct parents in rank order, with passages and citations."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.search.collapse import (
    ChildHit,
    Expand,
    ParentDoc,
    Span,
    collapse,
    group_by_parent,
    merge_spans,
    section_order,
)
from skills.search.query import (
    QueryOptions,
    SearchRequest,
    fetch_siblings,
    query_parents,
    search_in,
)

#: A document with one parent [0, 30) holding three children, and a second parent [30, 40).
SOURCE = "aaaaaaaaa bbbbbbbbb ccccccccc ddddddddd"
PARENT_1 = ParentDoc("p1", SOURCE[0:30], 0, 30, ("H",), (), "doc.md")
PARENT_2 = ParentDoc("p2", SOURCE[30:40], 30, 40, ("I",), (), "doc.md")
CHILDREN = {
    "c0": Span(0, 0, 10),
    "c1": Span(1, 10, 20),
    "c2": Span(2, 20, 30),
}


def hit(
    chunk_id: str, parent: str, score: float, start: int, end: int, ordinal: int = 0
) -> ChildHit:
    return ChildHit(chunk_id, parent, score, SOURCE[start:end], start, end, ordinal, ("H",))


def test_parents_come_in_the_rank_of_their_best_child() -> None:
    hits = [hit("x", "p2", 0.5, 30, 40), hit("c1", "p1", 0.9, 10, 20), hit("c2", "p1", 0.1, 20, 30)]
    assert [parent for parent, _ in group_by_parent(hits, top=5)] == ["p1", "p2"]


def test_only_top_n_distinct_parents_are_kept() -> None:
    hits = [ChildHit(f"c{i}", f"p{i}", 1.0 - i / 10, f"<{i}>", 0, 3, 0) for i in range(6)]
    assert [parent for parent, _ in group_by_parent(hits, top=3)] == ["p0", "p1", "p2"]


def test_later_children_of_a_kept_parent_are_kept_as_matches() -> None:
    hits = [hit("c1", "p1", 0.9, 10, 20), hit("x", "p2", 0.8, 30, 40), hit("c0", "p1", 0.7, 0, 10)]
    groups = dict(group_by_parent(hits, top=1))
    assert [h.chunk_id for h in groups["p1"]] == ["c1", "c0"]


def test_a_hit_whose_text_an_earlier_hit_holds_opens_no_parent() -> None:
    # The same option described on two commands' pages, and a third page quoting a line of it.
    option = "* Default: false\n* Type: Boolean\n\nIf true, npm does not exit with an error."
    hits = [
        ChildHit("run", "p-run", 0.9, option, 0, 80, 3),
        ChildHit("cfg", "p-config", 0.8, option.replace("\n\n", "\n"), 0, 80, 9),
        ChildHit("ci", "p-ci", 0.7, "* Type: Boolean", 0, 15, 2),
        ChildHit("other", "p-other", 0.6, "Runs the install scripts.", 0, 25, 1),
        ChildHit("run-2", "p-run", 0.5, option, 100, 180, 4),  # a kept parent keeps its hits
    ]
    groups = group_by_parent(hits, top=2)
    assert [(parent, [h.chunk_id for h in group]) for parent, group in groups] == [
        ("p-run", ["run", "run-2"]),
        ("p-other", ["other"]),
    ]


def test_a_repeating_hit_is_cited_under_the_result_that_holds_its_text() -> None:
    option = "If true, npm will not exit with an error code for a missing script."
    hits = [
        ChildHit("cfg", "p-config", 0.9, option, 0, 68, 1, title="config.md"),
        ChildHit("other", "p-other", 0.8, "Runs the install scripts.", 0, 25, 1),
        ChildHit("run", "p-run", 0.7, option.replace(" a ", "  a\n"), 10, 79, 4, title="run.md"),
    ]
    results = collapse(hits, {}, top=5)
    assert [r.parent_chunk_id for r in results] == ["p-config", "p-other"]
    assert [c.chunk_id for c in results[0].repeated_in] == ["run"]
    assert (results[0].repeated_in[0].title, results[0].repeated_in[0].start) == ("run.md", 10)
    assert results[1].repeated_in == ()


def test_equal_scores_keep_the_service_order() -> None:
    hits = [hit("a", "p2", 0.5, 30, 40), hit("b", "p1", 0.5, 0, 10)]
    assert [parent for parent, _ in group_by_parent(hits, top=5)] == ["p2", "p1"]


def test_expand_parent_returns_the_whole_parent() -> None:
    results = collapse(
        [hit("c1", "p1", 0.9, 10, 20)], {"p1": PARENT_1}, top=5, expand=Expand.PARENT
    )
    assert results[0].passage == SOURCE[0:30]


def test_expand_merge_returns_the_parent_when_its_top_hits_cover_half_of_it() -> None:
    hits = [hit("c0", "p1", 0.9, 0, 10), hit("c1", "p1", 0.8, 10, 20)]  # 20 of 30 characters
    results = collapse(hits, {"p1": PARENT_1}, top=5, expand=Expand.MERGE)
    assert results[0].passage == SOURCE[0:30]


def test_expand_merge_returns_the_children_when_too_little_of_the_parent_was_hit() -> None:
    hits = [hit("c1", "p1", 0.9, 10, 20)]  # 10 of 30 characters
    results = collapse(hits, {"p1": PARENT_1}, top=5, expand=Expand.MERGE)
    assert results[0].passage == SOURCE[10:20]


def test_expand_merge_counts_only_the_top_hits() -> None:
    others = [hit(f"o{i}", f"q{i}", 0.8 - i / 100, 30, 40) for i in range(10)]
    hits = [hit("c1", "p1", 0.9, 10, 20), *others, hit("c0", "p1", 0.1, 0, 10)]
    parents = {"p1": PARENT_1, **{f"q{i}": PARENT_2 for i in range(10)}}
    results = collapse(hits, parents, top=1, expand=Expand.MERGE)
    # c0 ranks 12th: it is returned as a matched child but does not count towards merging
    assert results[0].passage == SOURCE[0:20]


def test_expand_top_parent_returns_the_first_parent_whole_and_the_others_matched_children() -> None:
    hits = [hit("x", "p2", 0.95, 30, 35), hit("c1", "p1", 0.9, 10, 20)]
    results = collapse(hits, {"p1": PARENT_1, "p2": PARENT_2}, top=5, expand=Expand.TOP_PARENT)
    assert [r.passage for r in results] == [SOURCE[30:40], SOURCE[10:20]]


def test_top_parent_is_the_default() -> None:
    hits = [hit("c1", "p1", 0.9, 10, 20), hit("x", "p2", 0.8, 30, 35)]
    results = collapse(hits, {"p1": PARENT_1, "p2": PARENT_2}, top=5)
    assert [r.passage for r in results] == [SOURCE[0:30], SOURCE[30:35]]


def test_expand_children_merges_matched_children_without_repeating_overlap() -> None:
    hits = [hit("c1", "p1", 0.9, 10, 20), hit("c1b", "p1", 0.8, 15, 25)]
    results = collapse(hits, {"p1": PARENT_1}, top=5, expand=Expand.CHILDREN)
    assert results[0].passage == SOURCE[10:25]


def test_expand_children_keeps_separate_matches_apart() -> None:
    hits = [hit("c0", "p1", 0.9, 0, 10), hit("c2", "p1", 0.8, 20, 30)]
    results = collapse(hits, {"p1": PARENT_1}, top=5, expand=Expand.CHILDREN)
    assert results[0].passage == SOURCE[0:10] + "\n\n" + SOURCE[20:30]


def test_expand_neighbours_adds_the_adjacent_siblings() -> None:
    siblings = {"p1": list(CHILDREN.values())}
    results = collapse(
        [hit("c0", "p1", 0.9, 0, 10, ordinal=0)], {"p1": PARENT_1}, top=5,
        expand=Expand.NEIGHBOURS, siblings=siblings,
    )  # fmt: skip
    assert results[0].passage == SOURCE[0:20]


def test_without_the_parent_the_children_texts_are_returned() -> None:
    hits = [hit("c2", "p1", 0.9, 20, 30), hit("c0", "p1", 0.8, 0, 10)]
    results = collapse(hits, {}, top=5)
    assert results[0].passage == SOURCE[0:10] + "\n\n" + SOURCE[20:30]
    assert results[0].parent is None


def test_citations_name_document_offsets_and_headings_of_each_matched_child() -> None:
    results = collapse(
        [hit("c1", "p1", 0.9, 10, 20)], {"p1": PARENT_1}, top=5, expand=Expand.PARENT
    )
    citation = results[0].citations[0]
    assert (citation.chunk_id, citation.start, citation.end, citation.headings) == (
        "c1", 10, 20, ("H",),
    )  # fmt: skip


def test_merge_spans_joins_touching_and_overlapping() -> None:
    assert merge_spans([(10, 20), (0, 5), (5, 8), (15, 30)]) == [(0, 8), (10, 30)]


hit_lists = st.lists(
    st.tuples(st.integers(0, 7), st.floats(0, 1, allow_nan=False), st.integers(0, 30)),
    max_size=40,
)


@given(hit_lists, st.integers(1, 6))
def test_collapse_properties(raw: list[tuple[int, float, int]], top: int) -> None:
    hits = [  # distinct texts: a hit repeating another's text is the test above
        ChildHit(f"c{i}", f"p{p}", score, f"<{i}>", start, start + 5, 0)
        for i, (p, score, start) in enumerate(raw)
    ]
    results = collapse(hits, {}, top=top)
    parents = [r.parent_chunk_id for r in results]
    assert len(parents) == len(set(parents)) == min(top, len({h.parent_chunk_id for h in hits}))
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    best: dict[str, float] = {}
    for h in hits:
        best[h.parent_chunk_id] = max(best.get(h.parent_chunk_id, -1.0), h.score)
    assert all(r.score == best[r.parent_chunk_id] for r in results)
    for r in results:
        assert len(r.children) == sum(1 for h in hits if h.parent_chunk_id == r.parent_chunk_id)


def test_search_in_escapes_quotes_and_uses_a_pipe() -> None:
    assert search_in("f", ["a b", "c,d", "o'k"]) == "search.in(f, 'a b|c,d|o''k', '|')"


def test_search_in_refuses_ids_with_the_delimiter() -> None:
    with pytest.raises(ValueError, match="'\\|'"):
        search_in("f", ["a|b"])


class RecordingSearcher:
    """Answers the children query with fixed hits and parent lookups from a table."""

    def __init__(
        self,
        children: list[dict[str, Any]],
        parents: list[dict[str, Any]],
        siblings: list[dict[str, Any]] | None = None,
    ) -> None:
        self.children = children
        self.parents = parents
        self.siblings = siblings
        self.calls: list[dict[str, Any]] = []

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        self.calls.append(
            {"index": request.index, "text": request.text, "filter": request.filter,
             "vector_k": request.vector_k}
        )  # fmt: skip
        if request.index == "children":
            if request.filter and self.siblings is not None:
                return self.siblings
            return self.children[: request.top]
        filter = request.filter
        wanted = filter.split("'")[1].split("|") if filter else []
        return [p for p in self.parents if p["parentChunkId"] in wanted]


def child_doc(chunk: str, parent: str, score: float, start: int, end: int) -> dict[str, Any]:
    return {
        "chunkId": chunk, "parentChunkId": parent, "@search.score": score,
        "text": SOURCE[start:end], "start": start, "end": end, "ordinal": 0,
        "headings": ["H"], "pages": [],
        "title": "doc.md", "sourcePath": "https://x/doc.md", "documentKey": "k",
    }  # fmt: skip


def test_reference_mode_fetches_all_parents_in_one_search_in_request() -> None:
    children = [child_doc("c1", "p1", 0.9, 10, 20), child_doc("x", "p2", 0.8, 30, 40)]
    parents = [
        {"parentChunkId": p.parent_chunk_id, "text": p.text, "start": p.start, "end": p.end}
        for p in (PARENT_2, PARENT_1)
    ]
    searcher = RecordingSearcher(children, parents)
    results = query_parents(
        searcher, "question", children_index="children", parents_index="parents",
        options=QueryOptions(mode="reference", parents=2, children=10, expand=Expand.PARENT),
    )  # fmt: skip
    assert [r.passage for r in results] == [SOURCE[0:30], SOURCE[30:40]]
    lookups = [c for c in searcher.calls if c["index"] == "parents"]
    assert lookups == [
        {"index": "parents", "text": "*", "filter": "search.in(parentChunkId, 'p1|p2', '|')",
         "vector_k": None}
    ]  # fmt: skip
    # hybrid: the vector query over-fetches too (sent with the halves' one-result requests, at
    # the same time: in any order)
    assert sorted(str(c["vector_k"]) for c in searcher.calls if c["index"] == "children") == [
        "1", "10", "None"
    ]  # fmt: skip


def test_embedded_mode_reads_the_parent_from_the_child_and_sends_one_request() -> None:
    doc = {**child_doc("c1", "p1", 0.9, 10, 20), "parentText": SOURCE[0:30], "parentStart": 0,
           "parentEnd": 30}  # fmt: skip
    searcher = RecordingSearcher([doc], [])
    options = QueryOptions(expand=Expand.PARENT, halves_first=False)
    results = query_parents(searcher, "q", children_index="children", options=options)
    assert results[0].passage == SOURCE[0:30]
    assert len(searcher.calls) == 1
    # each half's first is asked of the children index too: still no parents request
    lifted = RecordingSearcher([doc], [])
    query_parents(
        lifted, "q", children_index="children", options=replace(options, halves_first=True)
    )
    assert {call["index"] for call in lifted.calls} == {"children"}


def test_query_options_refuse_fewer_children_than_parents() -> None:
    with pytest.raises(ValueError, match="over-fetched"):
        QueryOptions(parents=10, children=5)


def test_section_evidence_ranks_a_parent_by_several_of_its_hits() -> None:
    """A lone hit of p2 ranked first loses the first place to p1, three of whose hits rank
    second to fourth; without section evidence p2 stays first. Where the best hit and the
    section agree, nothing moves. With evidence a result's score is its evidence score."""
    children = [
        child_doc("c0", "p1", 0.9, 0, 10), child_doc("x", "p2", 0.8, 30, 40),
        child_doc("c1", "p1", 0.7, 10, 20), child_doc("c2", "p1", 0.6, 20, 30),
        child_doc("y", "p3", 0.5, 30, 40),
    ]  # fmt: skip
    parents = [
        {"parentChunkId": p.parent_chunk_id, "text": p.text, "start": p.start, "end": p.end}
        for p in (PARENT_1, PARENT_2)
    ] + [{"parentChunkId": "p3", "text": SOURCE[30:40], "start": 30, "end": 40}]

    def ranked(weight: float) -> list[tuple[str, list[str]]]:
        options = QueryOptions(mode="reference", parents=2, children=5, expand=Expand.CHILDREN,
                               section_weight=weight)  # fmt: skip
        results = query_parents(RecordingSearcher(children, parents), "q",
                                children_index="children", parents_index="parents",
                                options=options)  # fmt: skip
        return [(r.parent_chunk_id, [c.chunk_id for c in r.children]) for r in results]

    assert ranked(0.0) == [("p1", ["c0", "c1", "c2"]), ("p2", ["x"])]
    assert ranked(0.5) == [("p1", ["c0", "c1", "c2"]), ("p2", ["x"])]
    # a lone hit ranked first loses to a section with three hits below it
    lone_first = [child_doc("x", "p2", 0.95, 30, 40), children[0], children[2], children[3]]
    options = QueryOptions(mode="reference", parents=1, children=4, expand=Expand.CHILDREN,
                           section_weight=0.5)  # fmt: skip
    searcher = RecordingSearcher(lone_first, parents)
    [first] = query_parents(searcher, "q", children_index="children", parents_index="parents",
                            options=options)  # fmt: skip
    assert first.parent_chunk_id == "p1"
    assert first.score > 1 / 61  # its evidence score, not the service's 0.9
    [plain] = query_parents(searcher, "q", children_index="children", parents_index="parents",
                            options=replace(options, section_weight=0.0))  # fmt: skip
    assert plain.parent_chunk_id == "p2"


@pytest.mark.parametrize("weight", [-0.5, float("nan"), float("inf")])
def test_query_options_refuse_a_section_weight_that_is_negative_or_not_finite(
    weight: float,
) -> None:
    with pytest.raises(ValueError, match="section weight"):
        QueryOptions(section_weight=weight)
    with pytest.raises(ValueError, match="finite weight"):
        section_order(["a"], weight)


def test_section_order_keeps_the_ranking_at_weight_zero_and_refuses_nonsense() -> None:
    groups = ["a", "b", "a", "c", "b", "a"]
    assert [rank for rank, _ in section_order(groups, 0.0)] == list(range(6))
    scores = [score for _, score in section_order(groups, 2.0)]
    assert scores == sorted(scores, reverse=True)
    with pytest.raises(ValueError, match="weight"):
        section_order(groups, -1.0)
    with pytest.raises(ValueError, match="hits"):
        section_order(groups, 1.0, hits=0)


class FakeSearchClient:
    def __init__(self) -> None:
        self.kwargs: dict[str, Any] = {}

    def search(self, **kwargs: Any) -> list[dict[str, Any]]:
        self.kwargs = kwargs
        return [{"chunkId": "c", "@search.score": 1.0}]


def test_azure_searcher_sends_a_hybrid_query_with_the_vectorizer_and_optional_semantic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from azure.search.documents.models import VectorizableTextQuery

    from skills.search.azure import AzureSearcher

    searcher = AzureSearcher("https://x.search.windows.net", credential=None)
    fake = FakeSearchClient()
    monkeypatch.setattr(searcher, "_client", lambda index: fake)
    results = searcher.search(
        SearchRequest("children", "q", ("chunkId",), 50, vector_k=50, semantic=True)
    )
    assert results == [{"chunkId": "c", "@search.score": 1.0}]
    (vector,) = fake.kwargs["vector_queries"]
    assert isinstance(vector, VectorizableTextQuery)
    assert (vector.text, vector.k_nearest_neighbors, vector.fields) == ("q", 50, "vector")
    assert fake.kwargs["query_type"] == "semantic"
    assert fake.kwargs["semantic_configuration_name"] == "children"
    searcher.search(SearchRequest("children", "*", ("chunkId",), 3, filter="f"))
    assert "vector_queries" not in fake.kwargs and "query_type" not in fake.kwargs
    assert (fake.kwargs["search_text"], fake.kwargs["filter"], fake.kwargs["top"]) == ("*", "f", 3)


def test_azure_searcher_sends_the_vector_weight_only_when_it_is_not_the_services_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from skills.search.azure import AzureSearcher

    searcher = AzureSearcher("https://x.search.windows.net", credential=None)
    fake = FakeSearchClient()
    monkeypatch.setattr(searcher, "_client", lambda index: fake)
    searcher.search(SearchRequest("children", "q", ("chunkId",), 50, vector_k=50))
    assert "weight" not in fake.kwargs["vector_queries"][0].as_dict()
    searcher.search(SearchRequest("children", "q", ("chunkId",), 50, vector_k=50, vector_weight=2))
    assert fake.kwargs["vector_queries"][0].as_dict()["weight"] == 2


def test_azure_searcher_keeps_a_client_per_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The query's requests are sent from several threads at once, and azure-core's synchronous
    transport is not thread-safe: each thread searches through a client of its own, kept."""
    import azure.search.documents as documents

    from skills.search.azure import AzureSearcher

    made: list[tuple[int, str]] = []

    class Client(FakeSearchClient):
        def __init__(self, endpoint: str, index: str, credential: Any) -> None:
            super().__init__()
            made.append((threading.get_ident(), index))

    monkeypatch.setattr(documents, "SearchClient", Client)
    searcher = AzureSearcher("https://x.search.windows.net", credential=None)
    request = SearchRequest("children", "q", ("chunkId",), 1)
    searcher.search(request)
    searcher.search(request)
    other = threading.Thread(target=searcher.search, args=(request,))
    other.start()
    other.join()
    assert [index for _, index in made] == ["children", "children"]
    assert made[0][0] == threading.get_ident() != made[1][0]


def test_the_query_passes_its_vector_weight_and_refuses_one_of_zero() -> None:
    requests: list[SearchRequest] = []

    class Keeping(RecordingSearcher):
        def search(self, request: SearchRequest) -> list[dict[str, Any]]:
            requests.append(request)
            return super().search(request)

    searcher = Keeping([child_doc("c1", "p1", 0.9, 10, 20)], [])
    query_parents(searcher, "q", children_index="children",
                  options=QueryOptions(mode="embedded", vector_weight=1.5))  # fmt: skip
    assert requests[0].vector_weight == 1.5
    for weight in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="vector weight"):
            QueryOptions(vector_weight=weight)


def test_a_budget_fills_the_prompt_with_prefixed_passages_and_fetches_more_children_for_it() -> (
    None
):
    doc = {**child_doc("c1", "p1", 0.9, 10, 20), "prefix": "H\n\n", "parentText": SOURCE[0:30],
           "parentStart": 0, "parentEnd": 30, "parentPrefix": "H\n\n"}  # fmt: skip
    other = {**child_doc("x", "p2", 0.8, 30, 40), "prefix": "I\n\n"}
    searcher = RecordingSearcher([doc, other], [])
    options = QueryOptions(budget=8000)
    results = query_parents(searcher, "q", children_index="children", options=options)
    assert [r.passage for r in results] == ["H\n\n" + SOURCE[0:30], "I\n\n" + SOURCE[30:40]]
    assert [(p.start, p.end, p.whole) for p in results[0].passages] == [(0, 30, True)]
    # one child per 20 tokens of the budget (the halves ask for one, the siblings for none)
    assert [c["vector_k"] for c in searcher.calls if c["vector_k"] not in (None, 1)] == [400]
    assert results[1].citations[0].start == 30


def test_a_budget_too_small_for_a_passage_returns_nothing_rather_than_a_cut() -> None:
    searcher = RecordingSearcher([{**child_doc("c1", "p1", 0.9, 10, 20), "prefix": "H\n\n"}], [])
    options = QueryOptions(budget=1)
    assert query_parents(searcher, "q", children_index="children", options=options) == []


def test_a_budget_grows_a_hit_passage_by_its_fetched_sibling() -> None:
    first = {**child_doc("c1", "p1", 0.9, 0, 10), "prefix": "H\n\n", "parentText": SOURCE[0:10],
             "parentStart": 0, "parentEnd": 10, "parentPrefix": "H\n\n"}  # fmt: skip
    hit = {**child_doc("c3", "p2", 0.8, 20, 30), "prefix": "I\n\n", "parentText": SOURCE[10:39],
           "parentStart": 10, "parentEnd": 39, "parentPrefix": "I\n\n"}  # fmt: skip
    siblings = [
        {"parentChunkId": "p2", "ordinal": n, "start": start, "end": end, "prefix": "I\n\n"}
        for n, (start, end) in enumerate(((10, 20), (20, 30), (30, 39)))
    ] + [{"parentChunkId": "p1", "ordinal": 0, "start": 0, "end": 10, "prefix": "H\n\n"}]
    searcher = RecordingSearcher([first, hit], [], siblings)
    budget = len("H\n\n" + SOURCE[0:10]) + len("I\n\n" + SOURCE[20:39])  # one token a character
    hits = [ChildHit.from_result(doc) for doc in (first, hit)]
    parents = {p.parent_chunk_id: p for p in map(ParentDoc.from_child, hits) if p is not None}
    siblings_of = fetch_siblings(searcher, "children", ["p1", "p2"])
    results = collapse(hits, parents, 2, siblings=siblings_of, budget=(budget, len))
    assert [(p.start, p.end) for p in results[1].passages] == [(20, 39)]
    assert results[1].passage == "I\n\n" + SOURCE[20:39]
