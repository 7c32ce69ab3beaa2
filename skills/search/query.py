"""Parent-child retrieval: hybrid query on the children, collapse to parents, fetch parents once.

The flow, the same against Azure and against the local simulation (only the :class:`Searcher`
differs):

1. one hybrid query on the children index (BM25 text + the vector of the query text, which the
   index's vectorizer computes; semantic reranking optional), over-fetching ``k`` children so that
   enough distinct parents remain after collapsing;
2. :func:`skills.search.collapse.group_by_parent` keeps the top N parents in rank order;
3. mode ``embedded``: each child already carries its parent's text; mode ``reference``: one
   ``search.in(parentChunkId, ...)`` filter on the parents index fetches all N parents;
4. with ``expand=neighbours``, one more ``search.in`` on the children index fetches the siblings'
   offsets;
   with ``halves_first``, two one-result queries (the keywords alone, the vector alone) find each
   half's first child, lifted to just after the fused first (:func:`skills.ranking.halves_first`);
   they are sent with step 1's, at the same time (:func:`searched_together`);
5. :func:`skills.search.collapse.collapse` builds passages and citations.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol

from skills.chunking import count_tokens
from skills.ranking import HALVES_FIRST, SERVICE_VECTOR_WEIGHT, VECTOR_WEIGHT, halves_first
from skills.search.collapse import (
    SECTION_WEIGHT,
    ChildHit,
    Expand,
    ParentDoc,
    ParentResult,
    Span,
    by_section,
    collapse,
    group_by_parent,
)
from skills.search.settings import QUERY_TIMEOUT_SECONDS, Mode, parents_in_children

CHILD_FIELDS = (
    "chunkId", "parentChunkId", "ordinal", "start", "end", "text", "prefix", "headings", "pages",
    "title", "sourcePath", "documentKey",
)  # fmt: skip
EMBEDDED_PARENT_FIELDS = ("parentText", "parentStart", "parentEnd", "parentPrefix")
PARENT_FIELDS = (
    "parentChunkId", "start", "end", "text", "prefix", "headings", "pages", "title",
    "sourcePath", "documentKey",
)  # fmt: skip
SIBLING_FIELDS = ("parentChunkId", "ordinal", "start", "end", "prefix")
#: Page size cap of the search API.
MAX_TOP = 1000


@dataclass(frozen=True)
class SearchRequest:
    """One search on one index: hybrid when ``vector_k`` is set, ``text="*"`` to filter only."""

    index: str
    text: str
    select: tuple[str, ...]
    top: int
    filter: str | None = None
    vector_k: int | None = None
    #: the vector query's weight in the fusion (REST ``vectorQueries[].weight``)
    vector_weight: float = SERVICE_VECTOR_WEIGHT
    semantic: bool = False
    #: results to pass over (paging), and the sortable fields that make pages stable
    skip: int = 0
    order_by: tuple[str, ...] = ()
    #: whether ``text`` is searched as keywords; False: only vectorized (a vector query alone)
    keywords: bool = True
    #: seconds the request may take, retries included (None: the client's own timeouts); what
    #: is left of its query's time (:class:`Deadline`)
    timeout: float | None = None


class QueryTimeout(TimeoutError):
    """A query's time (:attr:`QueryOptions.timeout`) was spent before the service answered."""


@dataclass(frozen=True)
class Deadline:
    """When a query's time ends (``at``, ``time.monotonic()``; None: never), and how long it
    was (``seconds``), for the error that says so.

    >>> Deadline.after(None).left() is None, 0 < Deadline.after(30).left() <= 30
    (True, True)
    """

    at: float | None
    seconds: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        return cls(None if seconds is None else time.monotonic() + seconds, seconds)

    def left(self) -> float | None:
        """Seconds left (None: no bound); :class:`QueryTimeout` when none are."""
        if self.at is None:
            return None
        left = self.at - time.monotonic()
        if left <= 0:
            raise self.spent()
        return left

    def spent(self) -> QueryTimeout:
        return QueryTimeout(
            f"the search service did not answer the query within {self.seconds:.3g} s (its "
            "time: AZURE_SEARCH_QUERY_TIMEOUT_SECONDS, QueryOptions.timeout); check the "
            "service's health in the portal, or allow more time"
        )


#: No bound: a query's requests take the search client's own timeouts.
NO_DEADLINE = Deadline(None)


class Searcher(Protocol):
    """Runs a :class:`SearchRequest`: Azure's ``SearchClient.search`` or the local simulation."""

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        """Results in rank order, each with ``@search.score`` (and ``@search.rerankerScore``)."""
        ...


#: Children fetched per query before they are grouped into parents (over-fetching, since several
#: children of one parent may rank high).
FETCHED_CHILDREN = 50
#: With a prompt budget, one fetched child at least per this many tokens of it: 50 children reach
#: about 20 parents, fewer than an 8,000-token prompt holds, and a reference past them is never
#: sent however large the budget (every set's B4000 and B8000 were equal before). 20, not 40:
#: a prompt sends one child per 100 to 140 tokens, so it reaches rank 15 to 20 of 2,000 tokens'
#: children and the answer's child often ranks 50th to 100th; fetching five times what is sent
#: lets the vector half fuse that deep and the assembly pick among them (issue 34's fifth pass,
#: ``docs/evaluation.md``: +10 -0 within 2,000 tokens, +2 -0 within 4,000 on ten sets, chosen
#: leave-one-set-out).
TOKENS_PER_FETCHED_CHILD = 20


def children_for_budget(budget: int, children: int = FETCHED_CHILDREN) -> int:
    """Children to fetch for a prompt of ``budget`` tokens: ``children``, or more for a large
    budget, at most the API's page size.

    >>> children_for_budget(1000), children_for_budget(8000), children_for_budget(10**6)
    (50, 400, 1000)
    """
    return min(MAX_TOP, max(children, budget // TOKENS_PER_FETCHED_CHILD))


def fetch_depth(budget: int | None, children: int = FETCHED_CHILDREN) -> int:
    """What the query asks the children index for: its ``top`` and its vector query's ``k``,
    both this many. ``children`` without a prompt budget, :func:`children_for_budget` with one.
    The evaluation's hybrid mirror fuses with the same ``k`` at each budget
    (``skills.evaluation.retrieval.Rankings``), so this is the one place that decides it.

    >>> fetch_depth(None), fetch_depth(1000), fetch_depth(2000), fetch_depth(8000)
    (50, 50, 100, 400)
    """
    return children if budget is None else children_for_budget(budget, children)


@dataclass(frozen=True)
class QueryOptions:
    """How many parents to return, how many children to over-fetch, and what a hit returns.

    ``budget`` (prompt tokens) fills that prompt instead: every parent of the fetched children
    may send something, whole or as its hit children, each passage with its prefix
    (:mod:`skills.search.assembly`); ``parents`` and ``expand`` are then not used.
    ``vector_weight`` weights the vector query in the hybrid query's fusion
    (:data:`skills.ranking.VECTOR_WEIGHT`). ``section_weight`` above 0 reorders the fetched
    children by their sections' evidence before they are grouped
    (:func:`skills.search.collapse.section_order`). ``halves_first`` lifts each half's first
    child to just after the fused first (two one-result queries more; not with ``semantic``,
    whose reranker orders the children itself). ``timeout``: seconds the query may take, all
    its requests together (None: the search client's own timeouts), else
    :class:`QueryTimeout`."""

    mode: Mode = "embedded"
    parents: int = 5
    children: int = FETCHED_CHILDREN
    semantic: bool = False
    expand: Expand = Expand.TOP_PARENT
    budget: int | None = None
    section_weight: float = SECTION_WEIGHT
    vector_weight: float = VECTOR_WEIGHT
    halves_first: bool = HALVES_FIRST
    timeout: float | None = QUERY_TIMEOUT_SECONDS

    def __post_init__(self) -> None:
        if not 1 <= self.parents <= self.children <= MAX_TOP:
            raise ValueError("need 1 <= parents <= children <= 1000 (children are over-fetched)")
        if self.budget is not None and self.budget < 1:
            raise ValueError("a prompt budget is a positive number of tokens")
        if not 0 < self.vector_weight < math.inf:
            raise ValueError("a vector weight is a finite number above 0")
        if not 0 <= self.section_weight < math.inf:
            raise ValueError("a section weight is 0 (off) or a finite number above it")
        if self.timeout is not None and not 0 < self.timeout < math.inf:
            raise ValueError("a query's timeout is a finite number of seconds above 0, or None")


def search_in(field: str, values: Sequence[str]) -> str:
    """An OData ``search.in`` filter with ``|`` as delimiter (ids may contain spaces or commas).

    >>> search_in("parentChunkId", ["a#p0", "it's"])
    "search.in(parentChunkId, 'a#p0|it''s', '|')"
    """
    if any("|" in value for value in values):
        raise ValueError("ids containing '|' cannot be used with the '|' delimiter")
    joined = "|".join(value.replace("'", "''") for value in values)
    return f"search.in({field}, '{joined}', '|')"


def query_parents(
    searcher: Searcher,
    question: str,
    *,
    children_index: str,
    parents_index: str | None = None,
    options: QueryOptions | None = None,
) -> list[ParentResult]:
    """The top parents for ``question``, best first (see the module docstring for the steps)."""
    opts = options or QueryOptions()
    deadline = Deadline.after(opts.timeout)
    select = CHILD_FIELDS + (EMBEDDED_PARENT_FIELDS if parents_in_children(opts.mode) else ())
    fetched = fetch_depth(opts.budget, opts.children)
    request = SearchRequest(
        children_index,
        question,
        select,
        fetched,
        vector_k=fetched,
        vector_weight=opts.vector_weight,
        semantic=opts.semantic,
        timeout=deadline.left(),
    )
    if opts.halves_first and not opts.semantic:
        keyword_half = replace(request, top=1, vector_k=None)
        vector_half = replace(request, top=1, vector_k=1, keywords=False)
        raw, keyword, vector = searched_together(
            searcher, [request, keyword_half, vector_half], HALF_NAMES, deadline
        )
        raw = _halves_lifted(raw, keyword, vector)
    else:
        raw = searcher.search(request)
    hits = by_section([ChildHit.from_result(doc) for doc in raw], opts.section_weight)
    top = opts.parents if opts.budget is None else fetched
    parent_ids = [parent_id for parent_id, _ in group_by_parent(hits, top)]
    if parents_in_children(opts.mode):
        parents = _parents_from_children(hits)
    else:
        if parents_index is None:
            raise ValueError("mode 'reference' needs the parents index name")
        parents = fetch_parents(searcher, parents_index, parent_ids, deadline)
    siblings = (
        fetch_siblings(searcher, children_index, parent_ids, deadline)
        if opts.expand is Expand.NEIGHBOURS or opts.budget is not None
        else None
    )
    if opts.budget is not None:
        return collapse(hits, parents, top, siblings=siblings, budget=(opts.budget, count_tokens))
    return collapse(hits, parents, opts.parents, opts.expand, siblings)


#: Threads the extra requests of :func:`searched_together` run on. Kept from one query to the
#: next, so that a searcher that keeps a client per thread (:class:`skills.search.azure.
#: AzureSearcher`) keeps its connections open; eight serve four queries at once.
SEARCH_THREADS = 8
_threads: ThreadPoolExecutor | None = None
_threads_made = threading.Lock()
_threads_free = threading.BoundedSemaphore(SEARCH_THREADS)


def _search_threads() -> ThreadPoolExecutor:
    global _threads
    with _threads_made:
        if _threads is None:
            _threads = ThreadPoolExecutor(SEARCH_THREADS, thread_name_prefix="search")
        return _threads


#: What each request of a query with ``halves_first`` is, as its error names it: a user who
#: asked one hybrid query does not know of the two others.
HALF_NAMES = (
    "hybrid query",
    "keyword half: the one-result query of the keywords alone (QueryOptions.halves_first)",
    "vector half: the one-result query of the vector alone (QueryOptions.halves_first)",
)


def searched_together(
    searcher: Searcher,
    requests: Sequence[SearchRequest],
    names: Sequence[str] = (),
    deadline: Deadline = NO_DEADLINE,
) -> list[list[dict[str, Any]]]:
    """Each request's results, in order, the requests sent at the same time: the first in this
    thread, the others on :data:`SEARCH_THREADS` threads (the hybrid query and its halves' two
    one-result queries took three round trips one after another; now the longest of the three).
    A failure raises what sending them one after another raised: the first request's error,
    else the next failed one's (a request still under way then ends on its own, unread), with
    a note naming the request (``names``). Each request runs in a copy of this thread's context
    (``contextvars``: a trace's span). A request no thread is free for is sent from this thread
    after the first (:func:`_sent_aside`). Waiting for one stops at ``deadline``
    (:class:`QueryTimeout`), even from a searcher that does not honour its request's timeout."""
    others = [_sent_aside(searcher, request) for request in requests[1:]]
    answers = [_named(names, 0, lambda: searcher.search(requests[0]))]
    for number, (other, request) in enumerate(zip(others, requests[1:], strict=True), start=1):
        if other is None:
            answers.append(_named(names, number, partial(searcher.search, request)))
        else:
            answers.append(_named(names, number, partial(_waited, other, deadline)))
    return answers


def _named(
    names: Sequence[str], number: int, answer: Callable[[], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """``answer()``; its error, raised as it came, notes which request it is (``names``)."""
    try:
        return answer()
    except Exception as error:
        if number < len(names):
            error.add_note(f"raised by the {names[number]}")
        raise


def _waited(sent: Future[list[dict[str, Any]]], deadline: Deadline) -> list[dict[str, Any]]:
    try:
        return sent.result(timeout=deadline.left())
    except TimeoutError as error:
        if sent.done():  # the request's own timeout, raised by the searcher
            raise
        raise deadline.spent() from error


def _sent_aside(searcher: Searcher, request: SearchRequest) -> Future[list[dict[str, Any]]] | None:
    """``request`` sent on a free thread of :data:`SEARCH_THREADS`, or None when all are busy:
    the threads are shared by every query of the process, and a request that hangs holds its
    thread until the service's timeout; queued behind eight such, another query's halves (to
    another index or service, answering at once) waited as long."""
    if not _threads_free.acquire(blocking=False):
        return None
    try:
        sent = _search_threads().submit(contextvars.copy_context().run, searcher.search, request)
    except RuntimeError:  # (the interpreter is shutting down)
        _threads_free.release()
        return None
    sent.add_done_callback(lambda _: _threads_free.release())
    return sent


def _halves_lifted(
    fused: list[dict[str, Any]], keyword: list[dict[str, Any]], vector: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """``fused`` with the keyword half's and the vector half's first child just after its first
    (:func:`skills.ranking.halves_first`), each found by a one-result query of that half alone
    (``keyword``, ``vector``); a lifted child scores as the fused first, so that grouping, which
    sorts by score and keeps ties in order, keeps the lifted order."""
    found = {doc["chunkId"]: doc for doc in [*vector[:1], *keyword[:1], *fused]}
    firsts = [
        found_first[0]["chunkId"] if found_first else None for found_first in (keyword, vector)
    ]
    order = halves_first([doc["chunkId"] for doc in fused], *firsts)
    lifted = set(firsts) - {fused[0]["chunkId"] if fused else None}
    top = fused[0].get("@search.score", 0.0) if fused else 0.0
    return [
        {**found[chunk], "@search.score": top} if chunk in lifted else found[chunk]
        for chunk in order
    ]


def _parents_from_children(hits: Sequence[ChildHit]) -> dict[str, ParentDoc]:
    parents: dict[str, ParentDoc] = {}
    for hit in hits:
        parent = ParentDoc.from_child(hit)
        if parent is not None:
            parents.setdefault(hit.parent_chunk_id, parent)
    return parents


def fetch_parents(
    searcher: Searcher, index: str, parent_ids: Sequence[str], deadline: Deadline = NO_DEADLINE
) -> dict[str, ParentDoc]:
    """All parents in one filtered request (no get-by-key: projected keys are generated)."""
    if not parent_ids:
        return {}
    filter = search_in("parentChunkId", parent_ids)
    docs = searcher.search(
        SearchRequest(index, "*", PARENT_FIELDS, len(parent_ids), filter, timeout=deadline.left())
    )
    return {doc["parentChunkId"]: ParentDoc.from_result(doc) for doc in docs}


def fetch_siblings(
    searcher: Searcher, index: str, parent_ids: Sequence[str], deadline: Deadline = NO_DEADLINE
) -> dict[str, list[Span]]:
    """Every child's offsets and prefix under the given parents, for ``expand=neighbours`` and
    for what a passage assembled for a budget grows by."""
    siblings: dict[str, list[Span]] = {}
    for doc in _sibling_docs(searcher, index, list(parent_ids), deadline):
        span = Span(
            int(doc["ordinal"]), int(doc["start"]), int(doc["end"]), doc.get("prefix") or ""
        )
        siblings.setdefault(doc["parentChunkId"], []).append(span)
    return siblings


def _sibling_docs(
    searcher: Searcher, index: str, parent_ids: list[str], deadline: Deadline
) -> list[dict[str, Any]]:
    """Every child of ``parent_ids``, however many: a search returns at most :data:`MAX_TOP`
    results and offers no next page past ``top``, so a full answer is asked again in halves,
    and one parent's children past it are paged through by ``ordinal`` (unique within a
    document, so the pages neither overlap nor miss)."""
    if not parent_ids:
        return []
    filter = search_in("parentChunkId", parent_ids)
    docs = searcher.search(
        SearchRequest(index, "*", SIBLING_FIELDS, MAX_TOP, filter, timeout=deadline.left())
    )
    if len(docs) < MAX_TOP:
        return docs
    if len(parent_ids) > 1:
        half = len(parent_ids) // 2
        return _sibling_docs(searcher, index, parent_ids[:half], deadline) + _sibling_docs(
            searcher, index, parent_ids[half:], deadline
        )
    found: list[dict[str, Any]] = []
    while True:
        page = searcher.search(SearchRequest(index, "*", SIBLING_FIELDS, MAX_TOP, filter,
                                             skip=len(found), order_by=("ordinal",),
                                             timeout=deadline.left()))  # fmt: skip
        found += page
        if len(page) < MAX_TOP:
            return found
