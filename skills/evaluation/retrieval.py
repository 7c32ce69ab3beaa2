"""Exact search of every leaf of the corpus: by vector, as the reference judge does, or hybrid.

All leaves of all documents are one index; a question's leaves are ranked by the dot product of
normalized vectors. Exact search keeps the comparison about chunking, not about an ANN index.
``hybrid`` adds what the search side's query really runs: a BM25 ranking over the leaves' embedded
text, fused with the vector query's nearest leaves by Reciprocal Rank Fusion
(:mod:`skills.ranking`), each part as deep as the service takes it: the vector query's ``k``
the query asks for at each prompt budget (:func:`skills.search.query.fetch_depth`: 50 up to
1,000 tokens, 100 at 2,000, 200 at 4,000, 400 at 8,000) and 1,000 keyword results. A larger
``k`` fuses more vector results and so reorders the top, which is why a run keeps one ranking
per ``k`` (:class:`Rankings`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from skills.embeddings import Embedder
from skills.evaluation.metrics import BUDGETS
from skills.ranking import BM25, DEFAULT_ANALYZER, SERVICE_VECTOR_WEIGHT, halves_first, hybrid
from skills.search.query import fetch_depth

RETRIEVALS = ("vector", "hybrid")


def fetch_depths(budgets: Iterable[int] = BUDGETS) -> tuple[int, ...]:
    """The fetch depths (vector ``k``) the query uses without a budget and at each of
    ``budgets``, each once, smallest first.

    >>> fetch_depths()
    (50, 100, 200, 400)
    """
    return tuple(sorted({fetch_depth(None), *(fetch_depth(budget) for budget in budgets)}))


@dataclass(frozen=True)
class Rankings:
    """Each question's leaves, best first, as the query ranks them at each of its fetch depths:
    ``by_depth[k][q]`` is question ``q``'s ranking fused with a vector ``k`` of ``k``. A prompt
    of ``budget`` tokens is assembled from :meth:`at` ``(budget)``, the ranking the query asking
    for that budget gets; what a hit returns without a budget, from ``at(None)``."""

    by_depth: Mapping[int, list[list[int]]]
    #: hybrid: each question's two halves ranked alone (:func:`half_rankings`), which the fused
    #: rankings were made of (the losses' class "half's first sunk" reads them)
    halves: Sequence[tuple[list[int], list[int]]] | None = None

    def at(self, budget: int | None) -> list[list[int]]:
        """The rankings of the query for a prompt of ``budget`` tokens (None: no budget)."""
        return self.by_depth[fetch_depth(budget)]

    @classmethod
    def alike(cls, ranking: list[list[int]], depths: Iterable[int]) -> Rankings:
        """One ranking at every depth: exact vector search, whose order ``k`` only cuts."""
        return cls({depth: ranking for depth in depths})


def normalized(vectors: ArrayLike) -> NDArray[np.float32]:
    """Rows scaled to unit length (a zero row stays zero)."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    safe = np.where(norms == 0, np.float32(1), norms).astype(np.float32)
    return (matrix / safe).astype(np.float32)


def rank(
    question_vectors: NDArray[np.float32], leaf_vectors: NDArray[np.float32], depth: int
) -> list[list[int]]:
    """For each question, the indices of its ``depth`` best leaves, best first (ties by index)."""
    scores = question_vectors @ leaf_vectors.T
    order = np.argsort(-scores, axis=1, kind="stable")[:, :depth]
    return [[int(i) for i in row] for row in order]


def embed_all(embedder: Embedder, texts: Sequence[str]) -> NDArray[np.float32]:
    """Normalized vectors of ``texts`` (an empty list gives a 0 x dimensions matrix)."""
    if not texts:
        return np.zeros((0, embedder.dimensions), dtype=np.float32)
    return normalized(embedder.embed(texts))


def hybrid_rank(
    questions: Sequence[str],
    question_vectors: NDArray[np.float32],
    leaf_texts: Sequence[str],
    leaf_vectors: NDArray[np.float32],
    depth: int,
    vector_k: int,
    analyzer: str = DEFAULT_ANALYZER,
    vector_weight: float = SERVICE_VECTOR_WEIGHT,
) -> list[list[int]]:
    """For each question, its ``depth`` best leaves by RRF of the vector query's ``vector_k``
    nearest leaves and the BM25 ranking, fused as the service fuses them for a hybrid query
    with that ``k`` and the vector query's ``vector_weight`` (:func:`skills.ranking.hybrid`),
    BM25's words made by ``analyzer``."""
    return hybrid_rankings(
        questions,
        question_vectors,
        leaf_texts,
        leaf_vectors,
        depth,
        (vector_k,),
        analyzer,
        vector_weight,
    )[vector_k]


def hybrid_rankings(
    questions: Sequence[str],
    question_vectors: NDArray[np.float32],
    leaf_texts: Sequence[str],
    leaf_vectors: NDArray[np.float32],
    depth: int,
    vector_ks: Sequence[int],
    analyzer: str = DEFAULT_ANALYZER,
    vector_weight: float = SERVICE_VECTOR_WEIGHT,
    halves: bool = False,
) -> dict[int, list[list[int]]]:
    """:func:`hybrid_rank` for each ``k`` of ``vector_ks`` (keyed by it), the keyword ranking
    and the nearest leaves computed once; ``halves``: each half's first result lifted to just
    after the fused first, as the skill's query does (:func:`skills.ranking.halves_first`)."""
    deepest = max(vector_ks, default=0)
    ranked = half_rankings(questions, question_vectors, leaf_texts, leaf_vectors, deepest, analyzer)
    return fused_rankings(ranked, depth, vector_ks, vector_weight, halves)


def half_rankings(
    questions: Sequence[str],
    question_vectors: NDArray[np.float32],
    leaf_texts: Sequence[str],
    leaf_vectors: NDArray[np.float32],
    depth: int,
    analyzer: str = DEFAULT_ANALYZER,
) -> list[tuple[list[int], list[int]]]:
    """Each question's two halves ranked alone: the leaves BM25 matches (its words made by
    ``analyzer``), best first, and the ``depth`` nearest leaves."""
    keywords = BM25(leaf_texts, analyzer)
    nearest = rank(question_vectors, leaf_vectors, depth)
    return [
        ([position for position, _ in keywords.rank(question)], row)
        for question, row in zip(questions, nearest, strict=True)
    ]


def fused_rankings(
    halves: Sequence[tuple[list[int], list[int]]],
    depth: int,
    vector_ks: Sequence[int],
    vector_weight: float = SERVICE_VECTOR_WEIGHT,
    lifted: bool = False,
) -> dict[int, list[list[int]]]:
    """Each question's ``depth`` best leaves for each ``k`` of ``vector_ks`` (keyed by it): its
    keyword ranking fused with its ``k`` nearest leaves (``halves``, :func:`half_rankings`) as
    the service fuses them; ``lifted``: each half's first result just after the fused first."""
    rankings: dict[int, list[list[int]]] = {k: [] for k in vector_ks}
    for matching, nearest in halves:
        for k in vector_ks:
            fused = [position for position, _ in hybrid(matching, nearest[:k], vector_weight)]
            if lifted:
                keyword_first = matching[0] if matching else None
                vector_first = nearest[0] if nearest else None
                fused = halves_first(fused, keyword_first, vector_first)
            rankings[k].append(fused[:depth])
    return rankings
