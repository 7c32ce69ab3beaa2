"""Topic shifts from embeddings: the ``BoundaryModel`` behind the ``semantic`` strategy.

Semantic chunking cuts where consecutive passages' embeddings drift apart. Done naively (embed
every sentence, cut where two neighbours differ) it is noisy: one short line ("See below:") looks
unlike everything around it. This model follows TextTiling instead: it embeds each passage between
two candidate cut points once, and scores the gap before passage ``i`` by the cosine distance
between the mean vector of the ``window`` passages before it and the mean vector of the
``window`` passages from it on. Gaps that are local peaks of that score and above the
``percentile``-th percentile of the document's gaps are topic shifts; the packer then prefers
them to ordinary block boundaries (headings still come first).

The embedder is injected (anything with ``embed(texts) -> vectors``): the engine does no I/O. The
local model and Azure OpenAI both fit (``skills.embeddings``); vectors are compared after
normalisation, so their scale does not matter. Each passage is embedded by its first
``PASSAGE_CHARS`` characters: a topic shows in a passage's opening, and a 100 KB code block must not
exceed a model's input limit (or cost its price) to say what it is about.

>>> class Topics:  # words about cats point one way, words about tax another
...     def embed(self, texts):
...         return [[t.count("cat"), t.count("tax")] for t in texts]
>>> text = "cat cat\\n\\ncat\\n\\ncat cat\\n\\ntax\\n\\ntax tax\\n\\ntax\\n"
>>> EmbeddingBoundaries(Topics(), window=2, percentile=80).topic_shifts(text, [9, 14, 23, 28, 37])
[23]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Protocol

import numpy as np
import numpy.typing as npt

#: Characters of a passage that are embedded (about 500 tokens; all-MiniLM-L6-v2 reads fewer).
PASSAGE_CHARS = 2000


class TextEmbedder(Protocol):
    """What the model needs of an embedder: vectors for texts, in order."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class EmbeddingBoundaries:
    """A ``BoundaryModel`` that marks the gaps where the embedded topic changes most."""

    def __init__(self, embedder: TextEmbedder, *, window: int = 2, percentile: float = 90) -> None:
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        if not 0 < percentile < 100:
            raise ValueError(f"percentile must be between 0 and 100 (exclusive), got {percentile}")
        self.embedder = embedder
        self.window = window
        self.percentile = percentile

    def topic_shifts(self, text: str, candidates: list[int]) -> list[int]:
        """The candidates (block starts) where the topic shifts, in order."""
        cuts = sorted({c for c in candidates if 0 < c < len(text)})
        if len(cuts) < 2:  # fewer than three passages: no gap can stand out
            return []
        bounds = [0, *cuts, len(text)]
        passages = [text[a:b].strip()[:PASSAGE_CHARS] or "." for a, b in pairwise(bounds)]
        scores = self._gap_scores(_unit_rows(self.embedder.embed(passages)))
        threshold = float(np.percentile(scores, self.percentile))
        # Windows overlap, so a shift also raises the gaps beside it: keep only the peaks.
        left = np.concatenate([[-np.inf], scores[:-1]])
        right = np.concatenate([scores[1:], [-np.inf]])
        peaks = (scores > threshold) & (scores >= left) & (scores > right)
        return [cut for cut, peak in zip(cuts, peaks, strict=True) if peak]

    def _gap_scores(self, vectors: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Cosine distance across each gap (before passage 1, 2, ...) between window means."""
        sums = np.vstack([np.zeros(vectors.shape[1]), np.cumsum(vectors, axis=0)])
        scores = np.empty(len(vectors) - 1)
        for gap in range(1, len(vectors)):
            before = sums[gap] - sums[max(0, gap - self.window)]
            after = sums[min(len(vectors), gap + self.window)] - sums[gap]
            norm = np.linalg.norm(before) * np.linalg.norm(after)
            scores[gap - 1] = 1.0 - float(before @ after) / norm if norm else 0.0
        return scores


def _unit_rows(vectors: Sequence[Sequence[float]]) -> npt.NDArray[np.float64]:
    matrix = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: npt.NDArray[np.float64] = np.divide(
        matrix, norms, out=np.zeros_like(matrix), where=norms > 0
    )
    return unit
