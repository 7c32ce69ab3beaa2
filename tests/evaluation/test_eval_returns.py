"""What a leaf hit returns, policy by policy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.evaluation.chunksets import ChunkSet, Leaf
from skills.evaluation.returns import Policy, parse_policy, prompt, returned
from skills.evaluation.spans import Span
from skills.search import collapse as search
from skills.search.assembly import FIRST_MOST, FIRST_SHARE
from skills.search.collapse import PASSAGE_GAP, ChildHit, Expand, ParentDoc, collapse

# Two parents of doc "d": [0, 40) with leaves 0-3 of 10 chars, [40, 60) with leaves 4-5.
CHUNKS = ChunkSet(
    leaves=tuple(
        Leaf(Span("d", 10 * i, 10 * i + 10), f"leaf {i}", 0 if i < 4 else 1) for i in range(6)
    ),
    parents=(Span("d", 0, 40), Span("d", 40, 60)),
)


def test_parent_returns_each_parent_once_at_its_best_leaf() -> None:
    assert returned([4, 1, 5, 2], CHUNKS, "parent") == [Span("d", 40, 60), Span("d", 0, 40)]


def test_top_parent_returns_the_first_parent_whole_and_the_other_parents_hit_leaves() -> None:
    # leaf 1 first: parent 0 whole; leaves 5 and 4 (parent 1) touch: one passage, at leaf 5's rank
    assert returned([1, 5, 2, 4], CHUNKS, "top-parent") == [Span("d", 0, 40), Span("d", 40, 60)]
    # leaf 4 first: parent 1 whole; leaves 0 and 2 of parent 0 do not touch: two passages
    assert returned([4, 2, 0], CHUNKS, "top-parent") == [
        Span("d", 40, 60),
        Span("d", 0, 10),
        Span("d", 20, 30),
    ]
    assert returned([], CHUNKS, "top-parent") == []


@given(st.lists(st.integers(0, 5), unique=True), st.sampled_from([6, 3]))
def test_top_parent_measures_what_the_query_returns(ranking: list[int], distinct: int) -> None:
    """The evaluation's ``top-parent`` and the search side's ``collapse`` are two codes for one
    policy: on the same hits they give the same passages, in the same order; also when leaves
    repeat each other's text (``distinct=3``: leaf 4 repeats leaf 1, in the other parent)."""
    text = "".join(str(i % distinct) * 10 for i in range(6))
    parents = {
        f"p{n}": ParentDoc(f"p{n}", text[s.start : s.end], s.start, s.end)
        for n, s in enumerate(CHUNKS.parents)
    }
    leaves = [CHUNKS.leaves[i] for i in ranking]
    hits = [
        ChildHit(
            f"c{i}", f"p{leaf.parent}", 1.0 - rank / 10, text[leaf.span.start : leaf.span.end],
            leaf.span.start, leaf.span.end, i,
        )
        for rank, (i, leaf) in enumerate(zip(ranking, leaves, strict=True))
    ]  # fmt: skip
    query = [r.passage for r in collapse(hits, parents, top=len(parents), expand=Expand.TOP_PARENT)]
    evaluation: dict[int, list[str]] = {}
    for span in returned(ranking, CHUNKS, "top-parent", text_of=lambda s: text[s.start : s.end]):
        parent = next(n for n, p in enumerate(CHUNKS.parents) if p.covers(span))
        evaluation.setdefault(parent, []).append(text[span.start : span.end])
    assert query == [PASSAGE_GAP.join(passages) for passages in evaluation.values()]


@given(
    st.lists(st.integers(0, 5), unique=True, min_size=1),
    st.integers(0, 40),
    st.sampled_from([0.0, 0.25, 1.0, 3.0]),
)
def test_the_budget_policy_sends_what_the_query_sends(
    ranking: list[int], budget: int, sections: float
) -> None:
    """One assembly for both sides: the query's ``collapse(budget=...)`` and the evaluation's
    ``prompt`` send the same passages, prefixes included, for any ranking and budget, and with
    the same section evidence (the query's ``by_section`` before it collapses)."""
    text = "".join(f"w{i} " * 3 for i in range(6))  # leaf i: "wi wi wi " (9 characters + 1)
    chunks = ChunkSet(
        tuple(
            Leaf(Span("d", 10 * i, 10 * i + 10), f"H{i}\n" + text[10 * i : 10 * i + 10], i // 4)
            for i in range(6)
        ),
        (Span("d", 0, 40), Span("d", 40, 60)),
        parent_prefixes=("P0\n", "P1\n"),
    )
    parents = {
        f"p{n}": ParentDoc(f"p{n}", text[s.start : s.end], s.start, s.end, document_key="d",
                           prefix=f"P{n}\n")
        for n, s in enumerate(chunks.parents)
    }  # fmt: skip
    hits = [
        ChildHit(
            f"c{i}", f"p{i // 4}", 1.0 - rank / 10, text[10 * i : 10 * i + 10], 10 * i,
            10 * i + 10, i, document_key="d", prefix=f"H{i}\n",
        )
        for rank, i in enumerate(ranking)
    ]  # fmt: skip
    siblings: dict[str, list[search.Span]] = {}
    for i in range(6):  # what the query fetches: every child of the hits' parents
        siblings.setdefault(f"p{i // 4}", []).append(search.Span(i, 10 * i, 10 * i + 10, f"H{i}\n"))

    def words(passage: str) -> int:
        return len(passage.split())

    hits = search.by_section(hits, sections)
    query = collapse(hits, parents, top=len(hits), siblings=siblings, budget=(budget, words))
    sent = prompt(
        ranking, chunks, budget, lambda s: text[s.start : s.end], words, sections=sections
    )
    assert [(p.start, p.end, p.prefix) for r in query for p in r.passages] == [
        (s.span.start, s.span.end, s.prefix) for s in sent
    ]
    assert sum(words(r.passage) for r in query) <= budget


def test_a_hit_repeating_the_text_of_an_earlier_hit_opens_no_context() -> None:
    # Document "b" repeats a paragraph of "a" (a shared option, a copied page).
    texts = {
        "a": "Default: false. If true, npm skips it.",
        "b": "Default: false. If true, npm skips it.",
    }
    chunks = ChunkSet(
        (Leaf(Span("a", 0, 38), ""), Leaf(Span("b", 0, 38), ""), Leaf(Span("b", 0, 15), "")),
        (),
    )
    text_of = lambda span: texts[span.doc][span.start : span.end]  # noqa: E731
    assert returned([0, 1, 2], chunks, "child", text_of=text_of) == [Span("a", 0, 38)]
    assert returned([2, 0], chunks, "child", text_of=text_of) == [
        Span("b", 0, 15),
        Span("a", 0, 38),
    ]
    assert len(returned([0, 1], chunks, "child")) == 2, "without the texts, spans alone decide"


def test_child_returns_the_leaves() -> None:
    assert returned([3, 0], CHUNKS, "child") == [Span("d", 30, 40), Span("d", 0, 10)]


def test_neighbours_widen_within_the_document_and_skip_what_is_already_sent() -> None:
    assert returned([0, 1, 5], CHUNKS, "neighbours:1") == [
        Span("d", 0, 20),
        Span("d", 0, 30),
        Span("d", 40, 60),
    ]


def test_neighbours_stop_at_a_document_boundary() -> None:
    chunks = ChunkSet((Leaf(Span("a", 0, 5), ""), Leaf(Span("b", 0, 5), "")))
    assert returned([1], chunks, "neighbours:2") == [Span("b", 0, 5)]


def test_merge_returns_the_parent_only_when_enough_of_it_was_hit() -> None:
    # leaves 0, 1, 2 cover 30 of parent 0's 40 characters; leaf 4 covers half of parent 1
    assert returned([0, 4, 1, 2], CHUNKS, "merge:0.75") == [Span("d", 0, 40), Span("d", 40, 50)]
    assert returned([0, 4, 1, 2], CHUNKS, "merge:0.8") == [
        Span("d", 0, 10),
        Span("d", 40, 50),
        Span("d", 10, 20),
        Span("d", 20, 30),
    ]


def test_parent_max_returns_the_parent_only_below_the_bound() -> None:
    def tokens(span: Span) -> int:
        return span.length

    assert returned([0, 4], CHUNKS, "parent-max:20", tokens) == [
        Span("d", 0, 10),
        Span("d", 40, 60),
    ]


def test_leaves_without_parent_return_themselves_under_every_policy() -> None:
    flat = ChunkSet((Leaf(Span("d", 0, 5), ""), Leaf(Span("d", 5, 9), "")))
    for policy in ("parent", "top-parent", "merge:0.1", "child"):
        assert returned([1, 0], flat, policy) == [Span("d", 5, 9), Span("d", 0, 5)]


@pytest.mark.parametrize(
    "name",
    [
        "whole",
        "merge",
        "neighbours:",
        "merge:-1",
        "parent:2",
        "top-parent:1",
        "budget:-1",
        "budget:",
        "child:",
    ],
)
def test_unknown_policies_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="return policy"):
        parse_policy(name)


def test_window_grows_by_whole_leaves_inside_the_parent_up_to_the_limit() -> None:
    def tokens(span: Span) -> int:
        return span.length

    assert returned([1], CHUNKS, "window:30", tokens) == [Span("d", 0, 30)]
    assert returned([1], CHUNKS, "window:29", tokens) == [Span("d", 0, 20)]
    # leaf 3 is the last of parent 0: the window never reaches into parent 1
    assert returned([3], CHUNKS, "window:50", tokens) == [Span("d", 0, 40)]
    assert returned([4], CHUNKS, "window:5", tokens) == [Span("d", 40, 50)]


def test_budget_names_the_first_parents_share_and_defaults_to_the_querys() -> None:
    assert parse_policy("budget") == Policy("budget", FIRST_SHARE)
    assert parse_policy("budget:1") == Policy("budget", 1.0)
    # the same ranking within 9 tokens: the first section (7 words with "P0") whole only
    # when it may take more than a quarter of the budget
    text = "".join(f"w{i} " * 3 for i in range(6))
    chunks = ChunkSet(
        tuple(
            Leaf(Span("d", 10 * i, 10 * i + 10), text[10 * i : 10 * i + 10], i // 2)
            for i in range(4)
        ),
        (Span("d", 0, 20), Span("d", 20, 40)),
        parent_prefixes=("P0\n", "P1\n"),
    )
    words = lambda passage: len(passage.split())  # noqa: E731

    def spans(share: float) -> list[tuple[int, int]]:
        sent = prompt([0, 2], chunks, 9, lambda s: text[s.start : s.end], words, share)
        return [(s.span.start, s.span.end) for s in sent]

    assert spans(1.0) == [(0, 20)]
    assert spans(FIRST_SHARE) == [(0, 10), (20, 30)]


def test_budget_options_name_the_assembly_arguments_they_turn_on() -> None:
    assert parse_policy("budget").assembly == {}
    assert parse_policy("budget:0.2+once+notoc").assembly == {
        "prefix_once": True, "skip_contents": True
    }  # fmt: skip
    assert parse_policy("budget+headed").assembly == {"headed_first": True}
    with pytest.raises(ValueError, match=r"\+headed, \+once, \+notoc"):
        parse_policy("budget+twice")


def test_the_sections_option_names_its_weight_and_refuses_a_bad_one() -> None:
    assert parse_policy("budget+sections:0.5") == Policy("budget", FIRST_SHARE, sections=0.5)
    assert parse_policy("budget+once+sections:1").assembly == {"prefix_once": True}
    assert parse_policy("budget").sections == 0.0
    for name in ("budget+sections:x", "budget+sections:-1", "budget+sections:1+sections:2",
                 "child+sections:0.5", "budget+sections", "budget+sections:nan",
                 "budget+sections:inf"):  # fmt: skip
        with pytest.raises(ValueError, match=r"sections:WEIGHT|return policy"):
            parse_policy(name)


def test_the_first_option_bounds_step_1_in_tokens_and_refuses_a_bad_one() -> None:
    assert parse_policy("budget+first:250").first_most == 250.0
    assert parse_policy("budget+once+first:0").assembly == {"prefix_once": True}
    assert parse_policy("budget").first_most == FIRST_MOST
    for name in ("budget+first:x", "budget+first:-1", "budget+first:1+first:2",
                 "child+first:250", "budget+first", "budget+first:nan"):  # fmt: skip
        with pytest.raises(ValueError, match=r"first:TOKENS|return policy"):
            parse_policy(name)


def test_the_prompt_holds_step_1_to_the_policys_tokens() -> None:
    """The evaluation's prompt passes ``+first:T`` on to the assembly: held to 0 tokens, the
    first parent sends only its hit (what the query sends with ``first_most=0``)."""
    text = "".join(f"w{i} w{i} w{i}  " for i in range(6))  # leaf i: 3 words in 10 characters
    chunks = ChunkSet(
        tuple(Leaf(Span("d", 10 * i, 10 * i + 10), text[10 * i : 10 * i + 10], i // 4)
              for i in range(6)),
        (Span("d", 0, 40), Span("d", 40, 60)),
    )  # fmt: skip

    def words(passage: str) -> int:
        return len(passage.split())

    def spans(first_most: float) -> list[tuple[int, int]]:
        sent = prompt([1, 4], chunks, 8, lambda s: text[s.start : s.end], words, 1.0,
                      first_most=first_most)  # fmt: skip
        return [(s.span.start, s.span.end) for s in sent]

    # within 8 words: the first parent (12) sends its head to its hit (6), and the other hit (3)
    # no longer fits; without step 1 both hits are sent
    assert spans(FIRST_MOST) == [(0, 20)]
    assert spans(0) == [(10, 20), (40, 50)]


def test_section_evidence_moves_a_sections_second_hit_over_a_lone_hit() -> None:
    """Leaves 0, 1 and 2 of parent 0 against leaf 4 of parent 1 ranked second: with evidence the
    budget's second passage is parent 0's, without it parent 1's."""
    text = "".join(f"a{i} b{i} c{i}  " for i in range(6))  # three words in each leaf's 10
    words = lambda passage: len(passage.split())  # noqa: E731

    def sent(sections: float) -> list[tuple[int, int]]:
        got = prompt([0, 4, 1, 2], CHUNKS, 6, lambda s: text[s.start : s.end], words,
                     0.0, sections=sections)  # fmt: skip
        return [(s.span.start, s.span.end) for s in got]

    assert sent(0.0) == [(0, 10), (40, 50)]
    assert sent(1.0) == [(0, 20)]
