"""Scores of one question's returned contexts, and their means over questions.

A context *hits* when its span holds the whole reference (every reference, for Chroma-style
questions with several). Rank-based scores look at the contexts in rank order; budget scores look
at what fits a prompt of ``budget`` tokens: contexts in rank order until the budget is spent, the
last one cut to the tokens left (what an application sends when it fills a budget by rank), or,
for a policy that assembles its prompt for the budget, that prompt. Each prompt is also checked
for *headerless* table fragments: a passage holding table rows whose header is neither in it
nor in the prefix sent before it. ``chroma_*`` are Chroma's
chunking-evaluation definitions over the top-``k`` contexts, counted in characters as their code
does: recall = reference characters returned / reference characters, precision = reference
characters returned / characters returned, IoU = reference characters returned / (characters
returned + reference characters missed).

>>> ref = (Span("d", 10, 20),)
>>> contexts = [Span("d", 0, 5), Span("d", 5, 25)]
>>> hit_rank(contexts, ref)
2
>>> round(ndcg_at(2, 5), 4)
0.6309
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import fmean

from skills.evaluation.spans import Span, overlap_length

RANK_CUTOFFS = (1, 5, 10)
BUDGETS = (500, 1000, 2000, 4000, 8000)
#: k of the context-cost and Chroma metrics.
CONTEXT_K = 5
#: MRR looks this deep (leaf hits); a reference found lower counts 0.
MRR_DEPTH = 10
#: Leaves ranked per question: enough contexts to fill the largest budget with small chunks, and
#: the children the query fetches for it (``skills.search.query.children_for_budget(8000)``,
#: 400).
SEARCH_DEPTH = 400

#: ``(span, tokens) -> character length of the first ``tokens`` tokens of the span's text``.
Cutter = Callable[[Span, int], int]
#: ``budget -> the prompt sent``, as ``(span, prefix sent before it)`` in order.
Prompt = Callable[[int], Sequence[tuple[Span, str]]]
#: ``(span, prefix) -> whether the passage holds table rows without their header``.
Headerless = Callable[[Span, str], bool]
#: ``span -> whether it holds text of the answer's recorded page``.
OnPage = Callable[[Span], bool]


@dataclass(frozen=True, slots=True)
class QuestionScore:
    """Every metric for one question; rates are 0 or 1, shares between 0 and 1."""

    id: str
    kind: str
    rank: int | None  # fewest leaf hits whose contexts hold the reference (1-based), or None
    budget_hit: Mapping[int, bool]
    budget_char_recall: Mapping[int, float]
    budget_headerless: Mapping[int, bool]  # the prompt holds a table fragment without header
    chroma_recall: float
    chroma_precision: float
    chroma_iou: float
    context_tokens: int  # tokens of the top CONTEXT_K contexts
    #: Budget -> the prompt holds text of the answer's recorded page (questions with a page).
    budget_page: Mapping[int, bool] = field(default_factory=dict)

    def hit_at(self, k: int) -> bool:
        return self.rank is not None and self.rank <= k


def hit_rank(contexts: Sequence[Span], references: Sequence[Span]) -> int | None:
    """Rank (from 1) by which every reference lies whole inside some returned context."""
    ranks: list[int] = []
    for reference in references:
        rank = next((i for i, c in enumerate(contexts, start=1) if c.covers(reference)), None)
        if rank is None:
            return None
        ranks.append(rank)
    return max(ranks)


def reciprocal_rank(rank: int | None, depth: int = MRR_DEPTH) -> float:
    return 0.0 if rank is None or rank > depth else 1.0 / rank


def ndcg_at(rank: int | None, k: int) -> float:
    """nDCG@k with one relevant context: the ideal DCG is 1 (relevant at rank 1)."""
    return 0.0 if rank is None or rank > k else 1.0 / math.log2(rank + 1)


def within_budget(
    contexts: Sequence[Span], budget: int, tokens: Callable[[Span], int], cut: Cutter
) -> list[Span]:
    """The contexts that fit ``budget`` tokens in rank order, the last one cut to fit.

    >>> within_budget([Span("d", 0, 40), Span("d", 50, 90)], 6, lambda s: s.length // 10,
    ...               lambda s, n: n * 10)
    [Span(doc='d', start=0, end=40), Span(doc='d', start=50, end=70)]
    """
    chosen: list[Span] = []
    left = budget
    for context in contexts:
        cost = tokens(context)
        if cost <= left:
            chosen.append(context)
            left -= cost
            continue
        if left > 0:
            length = cut(context, left)
            if length > 0:
                chosen.append(Span(context.doc, context.start, context.start + length))
        break
    return chosen


def character_recall(contexts: Iterable[Span], references: Sequence[Span]) -> float:
    """Share of reference characters inside the union of the contexts."""
    contexts = list(contexts)
    total = sum(r.length for r in references)
    found = sum(
        overlap_length(((c.start, c.end) for c in contexts if c.doc == r.doc), (r.start, r.end))
        for r in references
    )
    return found / total if total else 0.0


def chroma_scores(
    contexts: Sequence[Span], references: Sequence[Span]
) -> tuple[float, float, float]:
    """(recall, precision, IoU) as Chroma's chunking evaluation defines them, in characters.

    >>> chroma_scores([Span("d", 0, 10), Span("d", 20, 30)], [Span("d", 5, 15)])
    (0.5, 0.25, 0.2)
    """
    reference_chars = sum(r.length for r in references)
    found = round(character_recall(contexts, references) * reference_chars)
    returned = sum(c.length for c in contexts)
    missed = reference_chars - found
    recall = found / reference_chars if reference_chars else 0.0
    precision = found / returned if returned else 0.0
    iou = found / (returned + missed) if returned + missed else 0.0
    return recall, precision, iou


def score_question(
    question_id: str,
    kind: str,
    contexts: Callable[[int], Sequence[Span]],
    references: Sequence[Span],
    tokens: Callable[[Span], int],
    cut: Cutter,
    prompt: Prompt | None = None,
    headerless: Headerless = lambda span, prefix: False,
    on_page: OnPage | None = None,
) -> QuestionScore:
    """All metrics of one question; ``contexts(n)`` is what the top ``n`` leaf hits return.

    ``k`` counts leaf hits, as the reference judge does: the top 5 children of a parent-child
    strategy may return fewer than 5 distinct parents. The budget metrics take ``prompt(budget)``
    when the policy assembles one, else everything returned for the top ``SEARCH_DEPTH`` leaves,
    in rank order, cut to the budget (:func:`within_budget`). With ``on_page`` (a question whose
    answer's page is recorded), each prompt is also checked for text of that page: the page
    accuracy of a cited-pages judge, looser than the reference held whole.
    """
    rank = next(
        (n for n in range(1, MRR_DEPTH + 1) if hit_rank(contexts(n), references) is not None),
        None,
    )
    top = contexts(CONTEXT_K)
    if prompt is None:
        everything = contexts(SEARCH_DEPTH)

        def prompt(budget: int) -> list[tuple[Span, str]]:
            return [(span, "") for span in within_budget(everything, budget, tokens, cut)]

    budget_hit: dict[int, bool] = {}
    budget_recall: dict[int, float] = {}
    budget_headerless: dict[int, bool] = {}
    budget_page: dict[int, bool] = {}
    for budget in BUDGETS:
        passages = prompt(budget)
        sent = [span for span, _ in passages]
        if on_page is not None:
            budget_page[budget] = any(on_page(span) for span in sent)
        budget_hit[budget] = hit_rank(sent, references) is not None
        budget_recall[budget] = character_recall(sent, references)
        budget_headerless[budget] = any(headerless(span, prefix) for span, prefix in passages)
    recall, precision, iou = chroma_scores(top, references)
    return QuestionScore(
        id=question_id,
        kind=kind,
        rank=rank,
        budget_hit=budget_hit,
        budget_char_recall=budget_recall,
        budget_headerless=budget_headerless,
        chroma_recall=recall,
        chroma_precision=precision,
        chroma_iou=iou,
        context_tokens=sum(tokens(c) for c in top),
        budget_page=budget_page,
    )


def summarize(scores: Sequence[QuestionScore]) -> dict[str, float]:
    """Means over the questions: rates and shares in percent, tokens as a count."""
    if not scores:
        return {}
    summary: dict[str, float] = {}
    for k in RANK_CUTOFFS:
        summary[f"recall@{k}"] = _percent(s.hit_at(k) for s in scores)
    summary["mrr"] = fmean(reciprocal_rank(s.rank) for s in scores)
    summary["ndcg@5"] = fmean(ndcg_at(s.rank, 5) for s in scores)
    for budget in BUDGETS:
        summary[f"hit@B{budget}"] = _percent(s.budget_hit[budget] for s in scores)
        summary[f"char_recall@B{budget}"] = 100 * fmean(
            s.budget_char_recall[budget] for s in scores
        )
        summary[f"headerless@B{budget}"] = _percent(s.budget_headerless[budget] for s in scores)
    summary["chroma_recall@5"] = 100 * fmean(s.chroma_recall for s in scores)
    summary["chroma_precision@5"] = 100 * fmean(s.chroma_precision for s in scores)
    summary["chroma_iou@5"] = 100 * fmean(s.chroma_iou for s in scores)
    summary["context_tokens@5"] = fmean(s.context_tokens for s in scores)
    paged = [s for s in scores if s.budget_page]
    for budget in BUDGETS if paged else ():
        summary[f"page@B{budget}"] = _percent(s.budget_page[budget] for s in paged)
    summary["questions"] = float(len(scores))
    return summary


def by_kind(scores: Sequence[QuestionScore]) -> dict[str, dict[str, float]]:
    """:func:`summarize` per question kind, kinds sorted."""
    kinds = sorted({s.kind for s in scores})
    return {kind: summarize([s for s in scores if s.kind == kind]) for kind in kinds}


def _percent(flags: Iterable[bool]) -> float:
    return 100 * fmean(1.0 if flag else 0.0 for flag in flags)
