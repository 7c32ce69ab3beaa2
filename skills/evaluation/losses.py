"""Why a budget prompt misses a question: the loss classes of issue 34, counted per set.

For a ``budget`` candidate and each question whose whole reference is not in its prompt of
``budget`` tokens, the first class that applies:

- ``straddles``: no single child holds the whole reference, and the prompt does not hold it
  either (an answer over two children whose neighbour did not come along);
- ``half's first sunk``: a child that holds the reference is one half's first or second (the
  keywords' or the vectors' ranking alone) and past the other half's 60th, and the fused ranking
  sent none of them: the fusion, not the budget, sank what one half had found (hybrid only;
  needs each half's ranking, ``Rankings.halves``);
- ``not fetched``: the best-ranked child that holds the reference is ranked past the children
  the query fetches for that budget (``children_for_budget``), or not within the ranking's depth
  at all (a child holds it, so it does not straddle);
- ``head first``: the child was fetched but not sent, the prompt's first passage is the first
  parent's head or whole section without the reference, and the same prompt assembled without
  that first step (``first_share`` 0) holds the reference: the head took its room (a cover page,
  a contents list, a disclaimer, the wrong section);
- ``budget ran out``: the child was fetched but not sent, the prompt being full of other hits
  (the class the issue counts first: thin children reach fewer ranks).

It also flags ``other document first``: the top-ranked child is from another document than the
reference's (near-identical documents). The classes only describe what the assembly did with the
ranking; they never change a score.

    python -m skills.evaluation.losses --set evaluation_sets/speeches \\
        --candidate "hier-1024-160-32 budget" --grid evaluation_sets/neighbours-grid.json
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from skills.chunking import count_tokens
from skills.evaluation.chunksets import ChunkSet
from skills.evaluation.dataset import Dataset, Question, load_dataset
from skills.evaluation.retrieval import Rankings
from skills.evaluation.returns import Sent, parse_policy, prompt
from skills.evaluation.spans import Span
from skills.ranking import (
    ANALYZERS,
    DEFAULT_ANALYZER,
    HALVES_FIRST,
    VECTOR_WEIGHT,
    vector_weight,
)
from skills.search.query import children_for_budget

CLASSES = ("straddles", "half's first sunk", "not fetched", "head first", "budget ran out")
#: A half "finds" a child it ranks within its first ``HALF_FIRST``; the other half "sinks" it when
#: it ranks it past its first ``HALF_SUNK`` (or not at all).
HALF_FIRST = 2
HALF_SUNK = 60


@dataclass(frozen=True, slots=True)
class Loss:
    question: str
    budget: int
    kind: str
    answer_rank: int | None  # rank (0-based) of the best child holding the reference
    first_tokens: int  # tokens of the prompt's first passage (prefix counted)
    other_document_first: bool


def holds(outer: Span, inner: Span) -> bool:
    return outer.doc == inner.doc and outer.start <= inner.start and inner.end <= outer.end


def answer_rank(question: Question, ranked: Sequence[int], chunks: ChunkSet) -> int | None:
    """Rank of the best child that holds every reference of the question, if any does."""
    for number, leaf in enumerate(ranked):
        span = chunks.leaves[leaf].span
        if all(holds(span, reference) for reference in question.references):
            return number
    return None


def half_first_sunk(
    question: Question, chunks: ChunkSet, keywords: Sequence[int], vectors: Sequence[int]
) -> bool:
    """Whether a child holding every reference is one half's first or second and past the other
    half's ``HALF_SUNK``th (``keywords``, ``vectors``: each half's ranking alone, best first)."""

    def place(ranked: Sequence[int], leaf: int) -> int:
        return ranked.index(leaf) if leaf in ranked else HALF_SUNK  # not ranked at all: sunk

    for leaf, child in enumerate(chunks.leaves):
        if not all(holds(child.span, reference) for reference in question.references):
            continue
        by_keywords, by_vectors = place(keywords, leaf), place(vectors, leaf)
        if min(by_keywords, by_vectors) < HALF_FIRST and max(by_keywords, by_vectors) >= HALF_SUNK:
            return True
    return False


def in_prompt(question: Question, sent: Sequence[Sent]) -> bool:
    return all(any(holds(p.span, r) for p in sent) for r in question.references)


def classify(
    question: Question,
    ranked: Sequence[int],
    chunks: ChunkSet,
    sent: Sequence[Sent],
    budget: int,
    text_of: Callable[[Span], str],
    without_first: Sequence[Sent] | None = None,
    halves: tuple[Sequence[int], Sequence[int]] | None = None,
) -> Loss | None:
    """The question's loss class within ``budget``, or None when the prompt holds it;
    ``without_first`` is the prompt assembled without step 1 (the first parent); ``halves``
    each half's ranking alone (keywords, vectors), for ``half's first sunk``."""
    if in_prompt(question, sent):
        return None
    rank = answer_rank(question, ranked, chunks)
    first = sent[0] if sent else None
    first_tokens = count_tokens(first.prefix + text_of(first.span)) if first is not None else 0
    top_doc = chunks.leaves[ranked[0]].span.doc if ranked else None
    other_first = top_doc is not None and top_doc != question.doc
    if rank is None and answer_rank(question, range(len(chunks.leaves)), chunks) is None:
        kind = "straddles"
    elif halves is not None and half_first_sunk(question, chunks, *halves):
        kind = "half's first sunk"
    elif rank is None or rank >= children_for_budget(budget):
        kind = "not fetched"  # past the fetched children, or past the ranking's whole depth
    elif (
        first is not None
        and _is_head(first, chunks)
        and without_first is not None
        and in_prompt(question, without_first)
    ):
        kind = "head first"
    else:
        kind = "budget ran out"
    return Loss(question.id, budget, kind, rank, first_tokens, other_first)


def _is_head(first: Sent, chunks: ChunkSet) -> bool:
    """Whether a passage starts where a parent starts (a head, or a whole section)."""
    return any(
        parent.doc == first.span.doc and parent.start == first.span.start
        for parent in chunks.parents
    )


def diagnose(
    dataset: Dataset,
    chunks: ChunkSet,
    rankings: Rankings,
    budgets: Sequence[int],
    first_share: float | None = None,
    options: Mapping[str, bool] | None = None,
    sections: float = 0.0,
    first_most: float | None = None,
) -> list[Loss]:
    """Every loss of every question at every budget, for one candidate's chunks and rankings
    (each budget's from the query for that budget, :meth:`Rankings.at`; ``options``: further
    arguments of the assembly, ``Policy.assembly``; ``sections``: the section evidence's
    weight, ``Policy.sections``; ``first_most``: step 1's most tokens, ``Policy.first_most``;
    each question's halves ranked alone, hybrid only: ``Rankings.halves``)."""
    from skills.search.assembly import FIRST_MOST, FIRST_SHARE

    most = FIRST_MOST if first_most is None else first_most

    def text_of(span: Span) -> str:
        return dataset.documents[span.doc][span.start : span.end]

    losses = []
    for number, question in enumerate(dataset.questions):
        for budget in budgets:
            ranked = rankings.at(budget)[number]
            share = FIRST_SHARE if first_share is None else first_share
            sent = prompt(
                ranked, chunks, budget, text_of, count_tokens, share, options, sections, most
            )
            if in_prompt(question, sent):
                continue
            bare = prompt(
                ranked, chunks, budget, text_of, count_tokens, 0.0, options, sections, most
            )
            pair = rankings.halves[number] if rankings.halves is not None else None
            loss = classify(question, ranked, chunks, sent, budget, text_of, bare, pair)
            if loss is not None:
                losses.append(loss)
    return losses


def summary(losses: Sequence[Loss], budgets: Sequence[int]) -> str:
    """One line per budget: the count of each class and of ``other document first``."""
    lines = []
    for budget in budgets:
        these = [loss for loss in losses if loss.budget == budget]
        counts = Counter(loss.kind for loss in these)
        cells = ", ".join(f"{kind} {counts.get(kind, 0)}" for kind in CLASSES)
        other = sum(loss.other_document_first for loss in these)
        lines.append(f"B{budget}: {len(these)} missed: {cells}; other document first {other}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skills.evaluation.losses", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--set", type=Path, help="a set of evaluation_sets/")
    parser.add_argument("--docs", type=Path, help="documents folder (with --questions)")
    parser.add_argument("--questions", type=Path)
    parser.add_argument("--grid", type=Path, required=True)
    parser.add_argument("--candidate", required=True)
    parser.add_argument("--retrieval", choices=("vector", "hybrid"), default="hybrid")
    parser.add_argument(
        "--analyzer", choices=sorted(ANALYZERS), default=DEFAULT_ANALYZER, help="BM25 words"
    )
    parser.add_argument(
        "--vector-weight",
        type=vector_weight,
        default=VECTOR_WEIGHT,
        help="the vector query's weight in the fusion",
    )
    parser.add_argument("--budgets", nargs="+", type=int, default=[1000, 2000])
    parser.add_argument("--cache", type=Path, help="embedding cache folder")
    parser.add_argument("--each", action="store_true", help="print every loss")
    args = parser.parse_args(argv)

    from skills.embeddings import default_embedder
    from skills.evaluation.grid import load_grid
    from skills.evaluation.installed import load_set
    from skills.evaluation.retrieval import embed_all
    from skills.evaluation.run import build_chunk_set, rank_leaves

    dataset = load_set(args.set) if args.set else load_dataset(args.docs, args.questions)
    candidates = {c.name: c for c in load_grid(args.grid, with_baselines=False)}
    candidate = candidates[args.candidate]
    policy = parse_policy(candidate.returns)
    if policy.kind != "budget":
        print("error: the candidate must use the budget policy", file=sys.stderr)
        return 2
    embedder = default_embedder(args.cache)
    chunks = build_chunk_set(candidate, dataset)
    texts = [leaf.embed_text for leaf in chunks.leaves]
    questions = [q.question for q in dataset.questions]
    question_vectors = embed_all(embedder, questions)
    leaf_vectors = embed_all(embedder, texts)
    rankings = rank_leaves(
        args.retrieval,
        questions,
        question_vectors,
        texts,
        leaf_vectors,
        args.analyzer,
        args.vector_weight,
        HALVES_FIRST,
    )
    losses = diagnose(
        dataset,
        chunks,
        rankings,
        args.budgets,
        policy.argument,
        policy.assembly,
        policy.sections,
        policy.first_most,
    )
    print(
        f"{args.candidate}, {len(dataset.questions)} questions, {args.retrieval} retrieval"
        + (f" ({args.analyzer})" if args.retrieval == "hybrid" else "")
    )
    print(summary(losses, args.budgets))
    if args.each:
        for loss in losses:
            print(
                f"  B{loss.budget} {loss.question}: {loss.kind} (answer child rank "
                f"{loss.answer_rank}, first passage {loss.first_tokens} tokens"
                + (", other document first" if loss.other_document_first else "")
                + ")"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
