"""In-memory indexes that answer the query path's searches, standing in for the service's ranking.

Hybrid like the service: a BM25 ranking over the index's searchable string fields and a cosine
ranking over the vector field (the query text embedded by the same embedder as the children),
fused with Reciprocal Rank Fusion (k = 60, as documented for hybrid queries), the keyword ranking
cut at the service's default text recall (1,000 results). Filters: only the
``search.in(field, 'a|b', '|')`` form that :func:`skills.search.query.search_in` writes, so the
simulation evaluates exactly the filter string the Azure path sends. The semantic ranker has no
local equivalent and is ignored. Keywords are split by the mirror (:mod:`skills.ranking`) of the
analyzer the index's searchable text fields name (Azure's default, ``standard.lucene``, where they
name none).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from skills.embeddings import Embedder
from skills.ranking import ANALYZERS, BM25, hybrid
from skills.search.query import SearchRequest

SEARCH_IN = re.compile(r"search\.in\((\w+), '((?:[^']|'')*)', '\|'\)")


class LocalIndex:
    """One index's documents with a BM25 table over its searchable string fields."""

    def __init__(self, definition: dict[str, Any], documents: Sequence[dict[str, Any]]) -> None:
        self.definition = definition
        self.documents = list(documents)
        self._text_fields = [
            f["name"] for f in definition["fields"]
            if "Edm.String" in f["type"] and f.get("searchable", True) and not f.get("key")
        ]  # fmt: skip
        self._vector_field = next(
            (f["name"] for f in definition["fields"] if f["type"] == "Collection(Edm.Single)"), None
        )
        self.analyzer = text_analyzer(definition)
        self._keywords = BM25([self._searchable_text(doc) for doc in self.documents], self.analyzer)

    def _searchable_text(self, doc: dict[str, Any]) -> str:
        parts: list[str] = []
        for name in self._text_fields:
            value = doc.get(name)
            parts += value if isinstance(value, list) else [value or ""]
        return " ".join(parts)

    def bm25(self, query: str) -> list[tuple[int, float]]:
        """(document position, score) for documents sharing a word with ``query``, best first."""
        return self._keywords.rank(query)

    def nearest(self, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest documents by cosine similarity, best first."""
        if self._vector_field is None:
            return []
        scored = [
            (position, _cosine(vector, doc[self._vector_field]))
            for position, doc in enumerate(self.documents)
            if doc.get(self._vector_field)
        ]
        return sorted(scored, key=lambda item: -item[1])[:k]


def text_analyzer(definition: dict[str, Any]) -> str:
    """The analyzer of an index's searchable text fields, which the simulation ranks as one text:
    one for all of them, and one :data:`skills.ranking.ANALYZERS` mirrors.

    >>> text_analyzer({"fields": [{"name": "t", "type": "Edm.String"}]})
    'standard.lucene'
    """
    names = {
        field.get("analyzer") or "standard.lucene"
        for field in definition["fields"]
        if "Edm.String" in field["type"] and field.get("searchable", True) and not field.get("key")
    }
    if len(names) > 1:
        raise ValueError(f"the simulation ranks one analyzer per index, not {sorted(names)}")
    name = names.pop() if names else "standard.lucene"
    if name not in ANALYZERS:
        raise ValueError(
            f"the simulation has no mirror of analyzer {name!r}: {', '.join(ANALYZERS)}"
        )
    return name


class LocalSearcher:
    """The :class:`skills.search.query.Searcher` of the simulation."""

    def __init__(self, indexes: dict[str, LocalIndex], embedder: Embedder) -> None:
        self.indexes = indexes
        self.embedder = embedder
        self.requests: list[SearchRequest] = []  # what was asked, for tests and curiosity

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        self.requests.append(request)
        target = self.indexes[request.index]
        allowed = _filtered(target.documents, request.filter)
        if request.text.strip() == "*":
            ranked = [(position, 1.0) for position in range(len(target.documents))]
        else:
            ranked = self._hybrid(
                target, request.text, request.vector_k, request.vector_weight, request.keywords
            )
        if request.order_by:
            ranked.sort(key=lambda r: [target.documents[r[0]].get(f) for f in request.order_by])
        results = []
        skipped = 0
        for position, score in ranked:
            if position not in allowed:
                continue
            if skipped < request.skip:
                skipped += 1
                continue
            doc = target.documents[position]
            selected = {name: doc.get(name) for name in request.select}
            results.append({**selected, "@search.score": score})
            if len(results) == request.top:
                break
        return results

    def _hybrid(
        self,
        index: LocalIndex,
        text: str,
        vector_k: int | None,
        vector_weight: float,
        keywords: bool = True,
    ) -> list[tuple[int, float]]:
        keyword = [position for position, _ in index.bm25(text)] if keywords else []
        nearest: list[int] = []
        if vector_k:
            vector = self.embedder.embed([text])[0]
            nearest = [position for position, _ in index.nearest(vector, vector_k)]
        return hybrid(keyword, nearest, vector_weight)


def _filtered(documents: Sequence[dict[str, Any]], filter: str | None) -> set[int]:
    if filter is None:
        return set(range(len(documents)))
    match = SEARCH_IN.fullmatch(filter.strip())
    if match is None:
        raise ValueError(f"the simulation understands only search.in(field, 'a|b', '|'): {filter}")
    field, joined = match.group(1), match.group(2).replace("''", "'")
    wanted = set(joined.split("|"))
    return {position for position, doc in enumerate(documents) if doc.get(field) in wanted}


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
