"""How long an evaluation will take, said before it starts.

Embedding the chunks is most of an evaluation's time, and it depends on the machine and on the
embedder, so the rate is measured here: a few passages of the documents themselves are embedded
once, uncached, and the tokens every distinct chunk set will embed are divided by that rate.
Chunk sets are counted once (candidates that differ only in what a hit returns share their
chunks and vectors), and each holds about the documents' tokens again, plus its overlap and
heading prefixes (``PREFIX_AND_OVERLAP``). Vectors already in the cache cost nothing, so a second
run is faster than said.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from skills.chunking import count_tokens
from skills.embeddings import Embedder
from skills.evaluation.dataset import Dataset
from skills.evaluation.grid import Candidate

#: A chunk set's tokens over its documents': overlap, heading prefixes and baselines' windows
#: (the dev set's candidates embed 1.1x to 1.5x their documents' tokens).
PREFIX_AND_OVERLAP = 1.3
#: The sample the rate is measured on: this many passages of about ``SAMPLE_CHARS`` characters.
SAMPLE_PASSAGES = 16
SAMPLE_CHARS = 800


@dataclass(frozen=True, slots=True)
class Estimate:
    """Tokens an evaluation embeds and the seconds that takes at the measured rate."""

    chunk_sets: int
    tokens: int
    tokens_per_second: float

    @property
    def seconds(self) -> float:
        return self.tokens / self.tokens_per_second if self.tokens_per_second else 0.0

    def sentence(self) -> str:
        """One line for the terminal, before the work starts."""
        minutes = self.seconds / 60
        took = f"about {minutes:.0f} minutes" if minutes >= 1.5 else "about a minute or less"
        return (
            f"{self.chunk_sets} chunk sets, about {self.tokens:,} tokens to embed at "
            f"{self.tokens_per_second:,.0f} tokens/s measured here: {took} "
            "(vectors already cached are not embedded again)"
        )


def estimate(dataset: Dataset, candidates: Sequence[Candidate], embedder: Embedder) -> Estimate:
    """The work ``candidates`` make of ``dataset``, at the rate ``embedder`` shows on a sample."""
    document_tokens = sum(count_tokens(text) for text in dataset.documents.values())
    chunk_sets = len({candidate.chunk_key for candidate in candidates})
    tokens = int(chunk_sets * document_tokens * PREFIX_AND_OVERLAP)
    return Estimate(chunk_sets, tokens, measured_rate(sample(dataset), embedder))


def sample(dataset: Dataset) -> list[str]:
    """Up to ``SAMPLE_PASSAGES`` passages cut evenly from the documents."""
    text = "\n".join(dataset.documents.values())
    if not text.strip():
        return []
    step = max(SAMPLE_CHARS, len(text) // SAMPLE_PASSAGES)
    return [text[i : i + SAMPLE_CHARS] for i in range(0, len(text), step)][:SAMPLE_PASSAGES]


def measured_rate(passages: Sequence[str], embedder: Embedder) -> float:
    """Tokens per second ``embedder`` embeds ``passages`` at, once warm (the first call loads
    the model, which a run pays once)."""
    if not passages:
        return 0.0
    embedder.embed(passages[:1])
    started = time.perf_counter()
    embedder.embed(list(passages))
    elapsed = time.perf_counter() - started
    return sum(count_tokens(p) for p in passages) / elapsed if elapsed > 0 else 0.0
