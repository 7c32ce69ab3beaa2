"""Exact search of every leaf of the corpus: by vector, as the reference judge does, or hybrid.

All leaves of all documents are one index; a question's leaves are ranked by the dot product of
normalized vectors. Exact search keeps the comparison about chunking, not about an ANN index.
``hybrid`` adds what the search side's query really runs: a BM25 ranking over the leaves' embedded
text, fused with the vector query's nearest leaves by Reciprocal Rank Fusion
(:mod:`skills.ranking`), each part as deep as the service takes it (the query's ``k`` of 50,
1,000 keyword results).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from skills.embeddings import Embedder
from skills.ranking import BM25, DEFAULT_ANALYZER, SERVICE_VECTOR_WEIGHT, hybrid

RETRIEVALS = ("vector", "hybrid")


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
    keywords = BM25(leaf_texts, analyzer)
    rankings = []
    for question, nearest in zip(
        questions, rank(question_vectors, leaf_vectors, vector_k), strict=True
    ):
        matching = [position for position, _ in keywords.rank(question)]
        fused = hybrid(matching, nearest, vector_weight)
        rankings.append([position for position, _ in fused[:depth]])
    return rankings
