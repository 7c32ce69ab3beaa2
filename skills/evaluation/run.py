"""One evaluation run: chunk, embed, retrieve and score every candidate on one dataset.

Candidates that differ only in what a hit returns share their chunk set and its embeddings; the
embedder's disk cache makes a re-run free. Progress goes to a tqdm bar on stderr.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from statistics import fmean
from typing import Any

import numpy as np
from numpy.typing import NDArray

from skills.chunking import (
    BoundaryModel,
    EmbeddingBoundaries,
    PageMap,
    count_tokens,
    encode,
    encoding,
)
from skills.embeddings import Embedder
from skills.evaluation.chunksets import ChunkSet, Leaf, concatenate
from skills.evaluation.dataset import Dataset
from skills.evaluation.fragmentation import fragmentation, leaf_flags
from skills.evaluation.grid import Candidate, chunk
from skills.evaluation.metrics import (
    BUDGETS,
    SEARCH_DEPTH,
    QuestionScore,
    by_kind,
    score_question,
    summarize,
    within_budget,
)
from skills.evaluation.retrieval import (
    RETRIEVALS,
    Rankings,
    embed_all,
    fetch_depths,
    fused_rankings,
    half_rankings,
    rank,
)
from skills.evaluation.returns import BUDGET, parse_policy, prompt, returned
from skills.evaluation.spans import Span
from skills.ranking import DEFAULT_ANALYZER, HALVES_FIRST, SERVICE_VECTOR_WEIGHT, VECTOR_WEIGHT
from skills.search.query import fetch_depth

#: Bytes a child's vector takes in the children index: 1,536 dimensions (the deployed default,
#: ``skills/search/settings.py``) stored as float32 and kept again as int8 by the index's scalar
#: quantization (``index_definitions/*/index-children.json``).
VECTOR_BYTES = 1536 * (4 + 1)
MIB = 1 << 20


@dataclass(frozen=True)
class CandidateResult:
    """Everything measured for one candidate."""

    candidate: Candidate
    summary: dict[str, float]
    kinds: dict[str, dict[str, float]]
    structure: dict[str, float]
    scores: list[QuestionScore] = field(repr=False)
    warnings: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.candidate.name,
            "chunker": self.candidate.chunker,
            "params": dict(self.candidate.params),
            "returns": self.candidate.returns,
            "baseline": self.candidate.baseline,
            "summary": self.summary,
            "structure": self.structure,
            "kinds": self.kinds,
            "questions": [
                {
                    "id": s.id,
                    "kind": s.kind,
                    "rank": s.rank,
                    **{f"hitB{budget}": s.budget_hit[budget] for budget in BUDGETS},
                    "headerlessB2000": s.budget_headerless[2000],
                    **{f"pageB{budget}": hit for budget, hit in s.budget_page.items()},
                    "charRecallB1000": round(s.budget_char_recall[1000], 4),
                    "contextTokens": s.context_tokens,
                }
                for s in self.scores
            ],
            "warnings": list(self.warnings[:20]),
        }


class Corpus:
    """Token counts and cuts of spans of the dataset's documents, memoized."""

    def __init__(self, dataset: Dataset) -> None:
        self.documents = dataset.documents
        self.tokens = lru_cache(maxsize=None)(self._tokens)
        self._pages: dict[str, PageMap] = {}

    def text(self, span: Span) -> str:
        return self.documents[span.doc][span.start : span.end]

    def _tokens(self, span: Span) -> int:
        return count_tokens(self.text(span))

    def on_page(self, span: Span, doc: str, page: int) -> bool:
        """Whether ``span`` holds text of page ``page`` of ``doc`` (its page breaks)."""
        if span.doc != doc:
            return False
        if doc not in self._pages:
            self._pages[doc] = PageMap(self.documents[doc])
        return page in self._pages[doc].pages(span.start, span.end)

    def headerless(self, span: Span, prefix: str) -> bool:
        """Whether the passage holds table rows whose header neither it nor its prefix has."""
        return leaf_flags(self.documents[span.doc], Leaf(span, prefix + self.text(span)))[2]

    def cut(self, span: Span, tokens: int) -> int:
        """Characters of the span's text that its first ``tokens`` tokens cover."""
        prefix = encoding().decode(encode(self.text(span))[:tokens])
        return len(prefix.rstrip("\ufffd"))


def build_chunk_set(
    candidate: Candidate, dataset: Dataset, boundary_model: BoundaryModel | None = None
) -> ChunkSet:
    """The candidate's chunk set over every document of the dataset."""
    return concatenate(
        {
            doc: chunk(
                candidate,
                doc,
                text,
                boundary_model,
                dataset.titles.get(doc),
                dataset.cracked.get(doc),
            )
            for doc, text in dataset.documents.items()
        }
    )


def costs(chunks: ChunkSet, documents: Mapping[str, str]) -> dict[str, float]:
    """What the index pays per MiB of documents: vectors (children), tokens sent to the embedding
    model, and an estimate of the index's size in reference mode (each child's vector and text,
    each parent's text once), all per MiB of UTF-8 source.

    >>> from skills.evaluation.chunksets import Leaf
    >>> chunks = ChunkSet((Leaf(Span("d", 0, 4), "A: abcd"),))
    >>> costs(chunks, {"d": "abcd" * (MIB // 4)})["leaves_per_mib"]
    1.0
    """
    size = sum(len(text.encode()) for text in documents.values()) / MIB
    if not size:
        return {}
    spans = [leaf.span for leaf in chunks.leaves]
    texts = [documents[span.doc][span.start : span.end].encode() for span in spans]
    parents = sum(len(documents[p.doc][p.start : p.end].encode()) for p in chunks.parents)
    index_bytes = len(texts) * VECTOR_BYTES + sum(map(len, texts)) + parents
    return {
        "leaves_per_mib": len(chunks.leaves) / size,
        "embedded_tokens_per_mib": sum(count_tokens(leaf.embed_text) for leaf in chunks.leaves)
        / size,
        "index_mib_per_mib": index_bytes / MIB / size,
    }


def evaluate(
    dataset: Dataset,
    candidates: Sequence[Candidate],
    embedder: Embedder,
    progress: Callable[[Iterable[Candidate]], Iterable[Candidate]] = lambda c: c,
    retrieval: str = "vector",
    build: Callable[[Candidate, Dataset, BoundaryModel | None], ChunkSet] = build_chunk_set,
    analyzer: str = DEFAULT_ANALYZER,
    baseline_analyzer: str | None = None,
    vector_weight: float = VECTOR_WEIGHT,
    baseline_vector_weight: float = SERVICE_VECTOR_WEIGHT,
    halves: bool = HALVES_FIRST,
) -> list[CandidateResult]:
    """Results of every candidate, in the given order; ``retrieval`` is ``vector`` (exact cosine,
    the reference judge's) or ``hybrid`` (BM25 + vector fused, the search side's query, its
    words made by ``analyzer``: :data:`skills.ranking.ANALYZERS`; the baselines' by
    ``baseline_analyzer`` when given, the analyzer an index of their chunks would have; the
    engine's vector query weighted by ``vector_weight``, the baselines' by
    ``baseline_vector_weight``, the service's 1 unless told; ``halves``: the engine's query
    lifts each half's first result, :func:`skills.ranking.halves_first`, the baselines' plain
    service query does not).
    ``build`` makes a candidate's chunk set (``skills.evaluation.contextual`` adds notes)."""
    if retrieval not in RETRIEVALS:
        raise ValueError(f"retrieval must be one of {', '.join(RETRIEVALS)}, not {retrieval!r}")
    corpus = Corpus(dataset)
    boundaries = EmbeddingBoundaries(embedder)  # used by ``semantic`` candidates only
    questions = [q.question for q in dataset.questions]
    question_vectors = embed_all(embedder, questions)
    rankings: dict[tuple[str, str, float, bool], tuple[ChunkSet, Rankings]] = {}
    results: list[CandidateResult] = []
    for candidate in progress(candidates):
        words = baseline_analyzer if candidate.baseline and baseline_analyzer else analyzer
        weight = baseline_vector_weight if candidate.baseline else vector_weight
        lifted = halves and not candidate.baseline
        key = (candidate.chunk_key, words, weight, lifted)
        if key not in rankings:
            chunks = build(candidate, dataset, boundaries)
            texts = [leaf.embed_text for leaf in chunks.leaves]
            leaf_vectors = embed_all(embedder, texts)
            ranked = rank_leaves(
                retrieval, questions, question_vectors, texts, leaf_vectors, words, weight, lifted
            )
            rankings[key] = (chunks, ranked)
        chunks, ranked = rankings[key]
        results.append(_score(candidate, chunks, ranked, dataset, corpus))
    return results


def rank_leaves(
    retrieval: str,
    questions: Sequence[str],
    question_vectors: NDArray[np.float32],
    texts: Sequence[str],
    leaf_vectors: NDArray[np.float32],
    analyzer: str,
    vector_weight: float = VECTOR_WEIGHT,
    halves: bool = False,
) -> Rankings:
    """Each question's best leaves, as deep as a run scores them: by vector, or fused with BM25's
    ranking (its words made by ``analyzer``) as the service's hybrid query fuses them, with the
    vector ``k`` the query asks for at each budget (:func:`skills.search.query.fetch_depth`) and
    the search side's vector weight (and with ``halves``, each half's first result lifted as
    the skill's query lifts it)."""
    depths = fetch_depths(BUDGETS)
    if retrieval == "hybrid":
        ranked = half_rankings(
            questions, question_vectors, texts, leaf_vectors, max(depths), analyzer
        )
        return Rankings(fused_rankings(ranked, SEARCH_DEPTH, depths, vector_weight, halves), ranked)
    return Rankings.alike(rank(question_vectors, leaf_vectors, SEARCH_DEPTH), depths)


def _score(
    candidate: Candidate,
    chunks: ChunkSet,
    ranked: Rankings,
    dataset: Dataset,
    corpus: Corpus,
) -> CandidateResult:
    """Every question's metrics: what a hit returns from the query without a budget, each budget's
    prompt from the ranking of the query for that budget (its own vector ``k``)."""
    scores = []
    policy = parse_policy(candidate.returns)
    by_budget = {budget: ranked.at(budget) for budget in BUDGETS}
    for number, (question, leaves) in enumerate(
        zip(dataset.questions, ranked.at(None), strict=True)
    ):

        def contexts(n: int, leaves: list[int] = leaves) -> list[Span]:
            return returned(leaves[:n], chunks, candidate.returns, corpus.tokens, corpus.text)

        def assembled(
            budget: int, number: int = number, asked: str = question.question
        ) -> list[tuple[Span, str]]:
            sent = prompt(
                by_budget[budget][number],
                chunks,
                budget,
                corpus.text,
                count_tokens,
                policy.argument,
                policy.assembly_for(asked),
                policy.sections,
                policy.first_most,
            )
            return [(passage.span, passage.prefix) for passage in sent]

        returns: dict[int, list[Span]] = {}  # one per fetch depth, as budgets share them

        def filled(
            budget: int, number: int = number, returns: dict[int, list[Span]] = returns
        ) -> list[tuple[Span, str]]:
            depth = fetch_depth(budget)
            if depth not in returns:
                leaves = by_budget[budget][number][:SEARCH_DEPTH]
                returns[depth] = returned(
                    leaves, chunks, candidate.returns, corpus.tokens, corpus.text
                )
            sent = within_budget(returns[depth], budget, corpus.tokens, corpus.cut)
            return [(span, "") for span in sent]

        scores.append(
            score_question(
                question.id,
                question.kind,
                contexts,
                question.references,
                corpus.tokens,
                corpus.cut,
                assembled if policy.kind == BUDGET else filled,
                corpus.headerless,
                None
                if question.page is None
                else partial(corpus.on_page, doc=question.doc, page=question.page),
            )
        )
    structure = fragmentation(chunks.leaves, dataset.documents, count_tokens)
    structure["leaves"] = float(len(chunks.leaves))
    structure["parents"] = float(len(chunks.parents))
    structure["mean_leaf_tokens"] = (
        fmean(corpus.tokens(leaf.span) for leaf in chunks.leaves) if chunks.leaves else 0.0
    )
    structure.update(costs(chunks, dataset.documents))
    return CandidateResult(
        candidate, summarize(scores), by_kind(scores), structure, scores, chunks.warnings
    )
