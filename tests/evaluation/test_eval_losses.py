"""The loss classes of a budget prompt, on a document small enough to check by hand."""

from __future__ import annotations

import numpy as np

from skills.evaluation.chunksets import ChunkSet, Leaf
from skills.evaluation.dataset import Question
from skills.evaluation.losses import classify, half_first_sunk
from skills.evaluation.retrieval import half_rankings
from skills.evaluation.returns import Sent
from skills.evaluation.spans import Span

TEXT = "Cover page. " * 10 + "Alpha beta. Gamma delta. Epsilon zeta."
START = TEXT.index("Alpha")
# One parent over the whole text; three children: the cover, "Alpha beta. Gamma", "delta. ...".
CUT = TEXT.index("delta")
LEAVES = (
    Leaf(Span("d", 0, START), TEXT[:START], 0),
    Leaf(Span("d", START, CUT), TEXT[START:CUT], 0),
    Leaf(Span("d", CUT, len(TEXT)), TEXT[CUT:], 0),
)
CHUNKS = ChunkSet(LEAVES, (Span("d", 0, len(TEXT)),))


def text_of(span: Span) -> str:
    return TEXT[span.start : span.end]


def question(reference: str) -> Question:
    at = TEXT.index(reference)
    return Question("q", "?", "d", "prose", (Span("d", at, at + len(reference)),))


def test_a_reference_in_the_prompt_is_no_loss() -> None:
    sent = [Sent(Span("d", START, CUT), "")]
    assert classify(question("Alpha beta"), [1, 0, 2], CHUNKS, sent, 1000, text_of) is None


def test_a_reference_over_two_children_not_sent_whole_straddles() -> None:
    sent = [Sent(Span("d", START, CUT), "")]
    loss = classify(question("Gamma delta"), [1, 2, 0], CHUNKS, sent, 1000, text_of)
    assert loss is not None and loss.kind == "straddles" and loss.answer_rank is None


def test_a_child_ranked_past_the_fetched_ones_is_not_fetched() -> None:
    ranked = [0] * 50 + [1]  # the answer's child at rank 50: the 51st, past the 50 fetched
    loss = classify(question("Alpha beta"), ranked, CHUNKS, [], 1000, text_of)
    assert loss is not None and loss.kind == "not fetched" and loss.answer_rank == 50


def test_a_fetched_child_behind_a_head_that_took_its_room_is_head_first() -> None:
    sent = [Sent(Span("d", 0, START), "")]  # the parent's head: the cover page
    without_head = [Sent(Span("d", START, CUT), "")]
    loss = classify(question("Alpha beta"), [0, 1, 2], CHUNKS, sent, 100, text_of, without_head)
    assert loss is not None and loss.kind == "head first" and loss.answer_rank == 1
    # without the head the answer would not have been sent either: the budget ran out
    loss = classify(question("Alpha beta"), [0, 1, 2], CHUNKS, sent, 100, text_of, sent)
    assert loss is not None and loss.kind == "budget ran out"


def test_a_fetched_child_behind_other_hits_is_budget_ran_out() -> None:
    sent = [Sent(Span("d", CUT, len(TEXT)), "")]
    loss = classify(question("Alpha beta"), [2, 1, 0], CHUNKS, sent, 1000, text_of)
    assert loss is not None and loss.kind == "budget ran out"


def test_a_child_one_half_ranks_first_and_the_other_sinks_is_a_half_first_sunk() -> None:
    """The fusion, not the budget: keywords rank the answer's child first, the vectors 61st."""
    sent = [Sent(Span("d", CUT, len(TEXT)), "")]
    keywords, vectors = [1, 2, 0], [2, 0] + [0] * 59 + [1]
    loss = classify(question("Alpha beta"), [2, 1, 0], CHUNKS, sent, 1000, text_of, None, None)
    assert loss is not None and loss.kind == "budget ran out"  # without the halves: no cause
    halves = (keywords, vectors)
    loss = classify(question("Alpha beta"), [2, 1, 0], CHUNKS, sent, 1000, text_of, None, halves)
    assert loss is not None and loss.kind == "half's first sunk" and loss.answer_rank == 1
    # either half may be the one that found it; a half that never ranks it sinks it too
    assert half_first_sunk(question("Alpha beta"), CHUNKS, [0, 2], [1, 0, 2])
    # a child both halves rank well, or neither ranks first or second, is a plain ranking loss
    assert not half_first_sunk(question("Alpha beta"), CHUNKS, [1, 0, 2], [2, 1, 0])
    assert not half_first_sunk(question("Alpha beta"), CHUNKS, [0, 2, 1], vectors)
    # the 60th (index 59) is not yet sunk
    assert not half_first_sunk(question("Alpha beta"), CHUNKS, keywords, [0] * 59 + [1])


def test_a_reference_no_child_holds_straddles_whatever_the_halves_rank() -> None:
    sent = [Sent(Span("d", START, CUT), "")]
    halves = ([1, 2, 0], [0] * 70)
    loss = classify(question("Gamma delta"), [1, 2, 0], CHUNKS, sent, 1000, text_of, None, halves)
    assert loss is not None and loss.kind == "straddles"


def test_half_rankings_rank_each_half_alone() -> None:
    texts = ["alpha beta", "gamma delta", "epsilon alpha"]
    leaf_vectors = np.eye(3, dtype=np.float32)
    question_vectors = np.array([[0.0, 0.0, 1.0]], dtype=np.float32)
    [(keywords, vectors)] = half_rankings(["gamma"], question_vectors, texts, leaf_vectors, 3)
    assert keywords == [1]  # only the child with the word
    assert vectors[0] == 2 and sorted(vectors) == [0, 1, 2]  # every child, nearest first


def test_a_child_that_holds_the_reference_but_is_not_ranked_at_all_is_not_fetched() -> None:
    """Past the ranking's depth is past the fetched children; it straddles only when no child
    holds the reference (a shallow ranking once read as ``straddles``: wx-dml-03)."""
    loss = classify(question("Alpha beta"), [2, 0], CHUNKS, [], 1000, text_of)
    assert loss is not None and loss.kind == "not fetched" and loss.answer_rank is None
