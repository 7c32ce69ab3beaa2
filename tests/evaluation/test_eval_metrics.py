"""The metrics on cases small enough to check by hand."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from skills.evaluation.metrics import (
    character_recall,
    chroma_scores,
    hit_rank,
    ndcg_at,
    reciprocal_rank,
    score_question,
    summarize,
    within_budget,
)
from skills.evaluation.spans import Span, merge, overlap_length, union_length

REF = (Span("d", 10, 20),)


def tokens_of(span: Span) -> int:
    """One token per 10 characters: easy arithmetic for budgets."""
    return math.ceil(span.length / 10)


def prefix(contexts: list[Span]) -> Callable[[int], list[Span]]:
    """Each leaf hit returns one context: the top n hits return the first n contexts."""
    return lambda n: contexts[:n]


def cut_to(span: Span, tokens: int) -> int:
    return min(span.length, tokens * 10)


def test_union_and_overlap_count_shared_characters_once() -> None:
    assert merge([(5, 8), (0, 3), (2, 4)]) == [(0, 4), (5, 8)]
    assert union_length([(0, 10), (5, 15)]) == 15
    assert overlap_length([(0, 12), (18, 30)], (10, 20)) == 4


def test_a_hit_needs_the_whole_reference_in_one_context() -> None:
    halves = [Span("d", 0, 15), Span("d", 15, 30)]
    assert hit_rank(halves, REF) is None
    assert hit_rank([Span("d", 0, 9), Span("d", 10, 20)], REF) == 2


def test_a_context_of_another_document_never_hits() -> None:
    assert hit_rank([Span("other", 0, 100)], REF) is None


def test_several_references_hit_at_the_rank_of_the_last_one_found() -> None:
    refs = (Span("d", 0, 5), Span("d", 50, 55))
    contexts = [Span("d", 0, 10), Span("x", 0, 9), Span("d", 40, 60)]
    assert hit_rank(contexts, refs) == 3


def test_reciprocal_rank_and_ndcg() -> None:
    assert reciprocal_rank(1) == 1.0
    assert reciprocal_rank(4) == 0.25
    assert reciprocal_rank(11) == 0.0
    assert reciprocal_rank(None) == 0.0
    assert ndcg_at(1, 5) == 1.0
    assert ndcg_at(3, 5) == pytest.approx(0.5)
    assert ndcg_at(6, 5) == 0.0


def test_budget_takes_contexts_in_order_and_cuts_the_last() -> None:
    contexts = [Span("d", 100, 130), Span("d", 0, 50), Span("d", 200, 210)]
    sent = within_budget(contexts, 5, tokens_of, cut_to)
    assert sent == [Span("d", 100, 130), Span("d", 0, 20)]


def test_budget_stops_at_the_first_context_that_does_not_fit() -> None:
    contexts = [Span("d", 0, 100), Span("d", 200, 210)]
    assert within_budget(contexts, 3, tokens_of, cut_to) == [Span("d", 0, 30)]


def test_a_cut_that_drops_the_reference_end_is_no_budget_hit() -> None:
    score = score_question("q", "prose", prefix([Span("d", 0, 25)]), REF, lambda s: 2000, cut_to)
    assert score.rank == 1
    assert score.budget_hit == dict.fromkeys((500, 1000, 2000, 4000, 8000), True)
    big = score_question(
        "q", "prose", prefix([Span("d", 0, 25)]), REF, lambda s: 1500, lambda s, n: 15
    )
    assert big.budget_hit[1000] is False
    assert big.budget_char_recall[1000] == pytest.approx(0.5)
    assert big.budget_hit[2000] is True


def test_character_recall_counts_overlapping_contexts_once() -> None:
    contexts = [Span("d", 0, 14), Span("d", 12, 16)]
    assert character_recall(contexts, REF) == pytest.approx(0.6)


def test_chroma_scores_by_hand() -> None:
    # 10 reference chars, 5 found; 20 chars returned; 5 missed: IoU 5 / (20 + 5)
    recall, precision, iou = chroma_scores([Span("d", 0, 15), Span("d", 30, 35)], REF)
    assert (recall, precision, iou) == (0.5, 0.25, 0.2)


def test_chroma_scores_perfect_context() -> None:
    assert chroma_scores([Span("d", 10, 20)], REF) == (1.0, 1.0, 1.0)


def test_summary_is_the_mean_over_questions_in_percent() -> None:
    first = score_question("a", "table", prefix([Span("d", 10, 20)]), REF, tokens_of, cut_to)
    second = score_question(
        "b", "code", prefix([Span("d", 0, 5), Span("d", 0, 30)]), REF, tokens_of, cut_to
    )
    summary = summarize([first, second])
    assert summary["recall@1"] == 50.0
    assert summary["recall@5"] == 100.0
    assert summary["mrr"] == pytest.approx(0.75)
    assert summary["context_tokens@5"] == pytest.approx((1 + 4) / 2)
    assert summary["questions"] == 2


def test_k_counts_leaf_hits_not_distinct_contexts() -> None:
    # five leaf hits that all return the same parent: one context, and the reference is not in it
    def same_parent(n: int) -> list[Span]:
        return [Span("d", 0, 9)] if n < 6 else [Span("d", 0, 9), Span("d", 0, 30)]

    score = score_question("q", "context", same_parent, REF, tokens_of, cut_to)
    assert score.rank == 6
    assert score.hit_at(5) is False
    assert score.context_tokens == 1


def test_every_leaf_the_query_fetches_for_the_largest_budget_is_ranked() -> None:
    from skills.evaluation.metrics import BUDGETS, SEARCH_DEPTH
    from skills.search.query import children_for_budget

    assert children_for_budget(max(BUDGETS)) <= SEARCH_DEPTH


def test_a_prompt_holding_text_of_the_answers_page_is_a_page_hit_without_the_answer() -> None:
    # the reference is [10, 20); the page of the answer is [0, 12) in this toy, so a context
    # of [0, 11) holds some of the page but not the whole reference
    def on_page(span: Span) -> bool:
        return span.start < 12

    score = score_question(
        "q", "prose", prefix([Span("d", 0, 11)]), REF, tokens_of, cut_to, on_page=on_page
    )
    assert score.budget_hit[1000] is False
    assert score.budget_page[1000] is True
    plain = score_question("q", "prose", prefix([Span("d", 0, 11)]), REF, tokens_of, cut_to)
    assert plain.budget_page == {}
    assert summarize([score, plain])["page@B1000"] == 100.0  # over the questions with a page
    assert "page@B1000" not in summarize([plain])
