"""A prompt assembled for a budget: whole sections while they fit, readable children otherwise."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bench.cputime import least_growth
from skills.search.assembly import (
    Group,
    Passage,
    Piece,
    assemble,
    contents,
    headed,
    joined,
    leads_in,
    question_terms,
    window,
)

SOURCE = "".join(f"w{i:02d} " for i in range(60))  # 60 words of 4 characters


def words(text: str) -> int:
    return len(text.split())


def piece(start_word: int, end_word: int, prefix: str = "") -> Piece:
    start, end = 4 * start_word, 4 * end_word
    return Piece("d", start, end, SOURCE[start:end], prefix)


def group(parent: tuple[int, int], *hits: tuple[int, int]) -> Group:
    return Group(piece(*parent, "P\n"), tuple(piece(*hit, "C\n") for hit in hits))


#: Three sections of 10 words, each with one or two hit children of 2 or 3 words.
GROUPS = [group((0, 10), (4, 6)), group((10, 20), (12, 14), (17, 20)), group((20, 30), (25, 27))]


def whole_first(groups: list[Group], budget: int) -> list[list[Passage]]:
    """The assembly with no limit on the first section's share: the tests of the later steps."""
    return assemble(groups, budget, words, first_share=1)


def sent(passages: list[list[Passage]]) -> list[tuple[int, int, bool]]:
    return [(p.start // 4, p.end // 4, p.whole) for group in passages for p in group]


def test_the_first_section_comes_whole_and_the_others_as_their_hit_children() -> None:
    # 11 for the first section (prefix + 10 words); 3 + 4 + 3 for the children of the others
    assert sent(whole_first(GROUPS, 21)) == [
        (0, 10, True), (12, 14, False), (17, 20, False), (25, 27, False)
    ]  # fmt: skip


def test_what_is_left_turns_children_back_into_whole_sections_in_rank_order() -> None:
    # 11 + 3 + 4 + 3 = 21, then the second section whole costs 11 - 7 = 4 more
    assert sent(whole_first(GROUPS, 25)) == [(0, 10, True), (10, 20, True), (25, 27, False)]
    assert sent(whole_first(GROUPS, 100)) == [(0, 10, True), (10, 20, True), (20, 30, True)]


def test_the_first_section_takes_at_most_a_quarter_of_the_budget() -> None:
    # within 44 the first section (11 tokens) is a quarter and comes first, whole; within 14 it
    # is not, nor its head (7): the budget goes to the four hits in rank order (3 + 3 + 4 + 3)
    assert sent(assemble(GROUPS, 44, words))[0] == (0, 10, True)
    assert sent(assemble(GROUPS, 14, words)) == [
        (4, 6, False), (12, 14, False), (17, 20, False), (25, 27, False)
    ]  # fmt: skip


def test_the_first_sections_room_stops_growing_at_first_most_tokens() -> None:
    # within 12 the whole first section (11) leaves 1 token; held to 7 tokens it sends its head
    # to its hit (7) and the next hit fits (3); the share still bounds a small budget
    assert sent(whole_first(GROUPS, 12)) == [(0, 10, True)]
    held = assemble(GROUPS, 12, words, first_share=1, first_most=7)
    assert sent(held) == [(0, 6, False), (12, 14, False)]
    assert assemble(GROUPS, 14, words, first_most=100) == assemble(GROUPS, 14, words)


def test_within_its_quarter_a_long_first_section_sends_its_head() -> None:
    # a 40-word section (41 tokens) within 28: its head to the hit's end (7) is the quarter
    long = [group((0, 40), (4, 6))]
    assert sent(assemble(long, 28, words)) == [(0, 6, False)]
    assert sent(assemble(long, 27, words)) == [(4, 6, False)]


def test_a_first_section_larger_than_the_budget_sends_its_head_to_the_end_of_a_hit() -> None:
    # the first section from its start to the end of its hit (words 0-6): 7 tokens with "P"
    assert sent(whole_first(GROUPS, 8)) == [(0, 6, False)]


def test_with_head_holds_best_a_head_without_the_best_hit_is_not_sent() -> None:
    # a 40-word section whose best hit (words 30-32) lies past the quarter of 28 and a weaker hit
    # (words 4-6) inside it: the head to the weaker hit (7) would open the prompt without the
    # passage that made the section first
    long = [Group(piece(0, 40, "P\n"), (piece(30, 32, "C\n"), piece(4, 6, "C\n")))]
    assert sent(assemble(long, 28, words)) == [(0, 6, False), (30, 32, False)]
    assert sent(assemble(long, 28, words, head_holds_best=True)) == [(4, 6, False), (30, 32, False)]
    # a head that reaches the best hit is still sent
    near = [Group(piece(0, 40, "P\n"), (piece(4, 6, "C\n"), piece(30, 32, "C\n")))]
    assert sent(assemble(near, 28, words, head_holds_best=True))[0] == (0, 6, False)


def test_without_room_for_a_head_the_first_section_sends_its_hit_children() -> None:
    assert sent(whole_first(GROUPS, 6)) == [(4, 6, False), (12, 14, False)]


def test_a_passage_that_does_not_fit_is_skipped_and_a_smaller_one_after_it_is_taken() -> None:
    # 11 + 3 (12-14) leaves 3: 17-20 (4 tokens) does not fit, 25-27 (3) does
    assert sent(whole_first(GROUPS, 17)) == [(0, 10, True), (12, 14, False), (25, 27, False)]


def test_the_prefix_is_sent_before_the_text_and_counted() -> None:
    only = [Group(None, (piece(0, 3, "Install > Options\n"),))]
    assert whole_first(only, 5) == [[]]  # "Install > Options" is 3 words, the text 3
    [[passage]] = whole_first(only, 6)
    assert passage.rendered == "Install > Options\n" + SOURCE[0:12]


def test_touching_and_overlapping_children_are_one_passage_with_the_first_prefix() -> None:
    [passage] = joined([piece(5, 8, "second\n"), piece(2, 5, "first\n"), piece(4, 6, "inner\n")])
    assert (passage.start, passage.end, passage.prefix) == (8, 32, "first\n")
    assert passage.text == SOURCE[8:32]


def test_a_group_without_parent_text_sends_only_its_children() -> None:
    bare = [Group(None, (piece(0, 2),)), Group(None, (piece(30, 33),))]
    assert sent(whole_first(bare, 100)) == [(0, 2, False), (30, 33, False)]


_SPANS = st.tuples(st.integers(0, 58), st.integers(1, 10)).map(lambda s: (s[0], min(60, sum(s))))


@given(
    st.lists(st.tuples(_SPANS, st.lists(_SPANS, min_size=1, max_size=4)), max_size=6),
    st.integers(0, 200),
)
def test_a_prompt_never_exceeds_its_budget_and_cites_exact_offsets(
    layout: list[tuple[tuple[int, int], list[tuple[int, int]]]], budget: int
) -> None:
    groups = [group(parent, *hits) for parent, hits in layout]
    passages = [p for ps in whole_first(groups, budget) for p in ps]
    assert sum(words(p.rendered) for p in passages) <= budget
    assert all(SOURCE[p.start : p.end] == p.text for p in passages)
    assert all(p.rendered == p.prefix + p.text for p in passages)


def test_joined_children_too_long_for_what_is_left_send_their_head_to_a_child_end() -> None:
    # the second section's hits 11-14 and 13-17 join into one 6-word passage (7 with "C");
    # after the first section (11) only 5 are left: the head to the first hit's end (4) fits
    second = group((10, 20), (11, 14), (13, 17))
    assert sent(whole_first([GROUPS[0], second], 16)) == [(0, 10, True), (11, 14, False)]


def ranked(parent: tuple[int, int], hits: list[tuple[int, int]], ranks: list[int]) -> Group:
    """A group whose parent's children are its words in pairs, with hits ranked in the search."""
    children = tuple(piece(w, w + 2, "C\n") for w in range(parent[0], parent[1], 2))
    return Group(
        piece(*parent, "P\n"), tuple(piece(*hit, "C\n") for hit in hits), children, tuple(ranks)
    )


def sections(layout: list[tuple[int, set[int]]]) -> list[Group]:
    """Groups in search order: section ``s`` is words 10s-10s+10, its children the word pairs,
    its hits the pairs ``hits`` names, ranked from the section's place in ``layout`` on."""
    return [
        ranked((10 * s, 10 * s + 10), [(10 * s + 2 * h, 10 * s + 2 * h + 2) for h in sorted(hits)],
               [rank + h for h in sorted(hits)])
        for rank, (s, hits) in enumerate(layout)
    ]  # fmt: skip


def test_hits_are_sent_in_the_search_rank_not_parent_by_parent() -> None:
    # after the first section (11), 6 are left: the second section's best hit (rank 1) and the
    # third's (rank 2) fit; the second section's other hit (rank 5) would have come first by parent
    groups = [
        ranked((0, 10), [(4, 6)], [0]),
        ranked((10, 20), [(12, 14), (16, 18)], [1, 5]),
        ranked((20, 30), [(24, 26)], [2]),
    ]
    assert sent(whole_first(groups, 17)) == [(0, 10, True), (12, 14, False), (24, 26, False)]


def test_budget_left_after_the_hits_grows_each_passage_by_the_child_after_it() -> None:
    # 11 + 3 (words 12-14 with "C") leaves 2: the next child (14-16) joins the passage for 2 more;
    # the section whole would cost 8 more
    groups = [ranked((0, 10), [(4, 6)], [0]), ranked((10, 20), [(12, 14)], [1])]
    assert sent(whole_first(groups, 16)) == [(0, 10, True), (12, 16, False)]


def test_consecutive_children_are_one_passage_with_the_first_ones_prefix() -> None:
    groups = [ranked((0, 10), [(0, 2)], [0]), ranked((10, 20), [(14, 16), (12, 14)], [1, 2])]
    [_, second] = whole_first(groups, 11 + 5)
    assert [(p.start // 4, p.end // 4, p.prefix) for p in second] == [(12, 16, "C\n")]


@given(
    st.lists(st.tuples(st.integers(0, 5), st.sets(st.integers(0, 4), min_size=1)), max_size=6),
    st.integers(0, 120),
)
def test_with_children_known_a_prompt_fits_and_every_passage_is_whole_children(
    layout: list[tuple[int, set[int]]], budget: int
) -> None:
    groups = sections(layout)
    passages = [p for ps in whole_first(groups, budget) for p in ps]
    assert sum(words(p.rendered) for p in passages) <= budget
    assert all(SOURCE[p.start : p.end] == p.text for p in passages)
    assert all(p.start % 8 == 0 and p.end % 8 == 0 for p in passages)  # child boundaries


def test_a_section_with_three_quarters_of_its_children_sent_is_sent_whole() -> None:
    # the second section's hits are 3 of its 4 children (3 + 2 + 3 after the first's 11): the
    # missing one costs 1 more, sent before the third section's hit, which no longer fits in 22
    groups = [
        ranked((0, 10), [(0, 2)], [0]),
        ranked((10, 18), [(10, 12), (12, 14), (16, 18)], [1, 2, 3]),
        ranked((20, 30), [(24, 26)], [4]),
    ]
    assert sent(whole_first(groups, 22)) == [(0, 10, True), (10, 18, True)]


def test_with_headed_first_a_first_parent_without_a_heading_sends_only_its_hits() -> None:
    # The fixture's parents carry the prefix "P\n" (a heading path): headed, step 1 runs.
    assert sent(assemble(GROUPS, 19, words, 1, headed_first=True))[0] == (0, 10, True)
    bare = [Group(piece(0, 10), (piece(4, 6, "C\n"),)), *GROUPS[1:]]  # a window of plain prose
    # Within 19: the bare window whole (10) first leaves room for the second section's hits
    # (3 + 4) only; without step 1, the hits (3 + 7 + 3) come first, then the second section
    # whole (4 more).
    assert sent(assemble(bare, 19, words, 1)) == [(0, 10, True), (12, 14, False), (17, 20, False)]
    assert sent(assemble(bare, 19, words, 1, headed_first=True)) == [
        (4, 6, False), (10, 20, True), (25, 27, False)
    ]  # fmt: skip


def test_a_section_opening_with_a_markdown_heading_is_headed_without_a_prefix() -> None:
    assert headed(Piece("d", 0, 12, "## Install\n\nrun it", ""))
    assert not headed(Piece("d", 0, 12, "COVER PAGE\n\nAcme", ""))
    assert headed(Piece("d", 0, 12, "run it", "Install\n"))


def test_with_prefix_once_a_section_says_its_heading_path_once() -> None:
    # two hits of one section, not next to each other: the second is sent without the path
    # the first gave, and what that saves lets the third section's hit in (3 + 2 + 3 = 8)
    groups = [
        ranked((0, 20), [(2, 4), (14, 16)], [0, 1]),
        ranked((20, 30), [(24, 26)], [2]),
    ]
    # without it: 3 + 3, and the 2 left grow the first passage by its next child
    assert sent(assemble(groups, 8, words, 0)) == [(2, 6, False), (14, 16, False)]
    once = assemble(groups, 8, words, 0, prefix_once=True)
    assert sent(once) == [(2, 4, False), (14, 16, False), (24, 26, False)]
    assert [p.prefix for ps in once for p in ps] == ["C\n", "", "C\n"]


def test_with_prefix_once_a_path_drops_the_heading_its_passage_opens_with() -> None:
    text = "## Options\n\nTimeout in seconds."
    hit = Piece("d", 0, len(text), text, "Guide > Options\n\n")
    [[passage]] = assemble([Group(None, (hit,))], 100, words, prefix_once=True)
    assert passage.rendered == "Guide\n\n" + text
    alone = Piece("d", 0, len(text), text, "Options\n\n")
    [[passage]] = assemble([Group(None, (alone,))], 100, words, prefix_once=True)
    assert passage.rendered == text
    other = Piece("d", 0, len(text), text, "Guide > Install\n\n")  # another heading: kept
    [[passage]] = assemble([Group(None, (other,))], 100, words, prefix_once=True)
    assert passage.prefix == "Guide > Install\n\n"


TOC = "Contents\n1 Introduction . . . . . . 1\n1.1 Legalese . . . . . . 1\n2 Basics . . . . 3\n"


def test_with_skip_contents_a_table_of_contents_is_sent_neither_whole_nor_as_a_hit() -> None:
    contents_list = Piece("d", 0, len(TOC), TOC, "")
    body = "1 Introduction\n\nR was first written in Auckland."
    section = Piece("d", 100, 100 + len(body), body, "")
    groups = [Group(contents_list, (contents_list,)), Group(section, (section,))]
    assert [p.text for ps in assemble(groups, 100, words) for p in ps] == [TOC, body]
    kept = assemble(groups, 100, words, skip_contents=True)
    assert [p.text for ps in kept for p in ps] == [body]


def test_a_table_of_contents_is_lines_ending_in_dot_leaders_and_a_page_number() -> None:
    assert contents(TOC)
    assert contents("Preface ……… ix\nIndex ……… 212")
    assert not contents("The rate rose . . . . and fell back to 3\nin 1988, then to 2.")
    assert not contents("")


@given(
    st.lists(st.tuples(st.integers(0, 5), st.sets(st.integers(0, 4), min_size=1)), max_size=6),
    st.integers(0, 120),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_with_either_option_a_prompt_still_fits_and_cites_exact_offsets(
    layout: list[tuple[int, set[int]]],
    budget: int,
    prefix_once: bool,
    skip_contents: bool,
    head_holds_best: bool,
) -> None:
    groups = sections(layout)
    assembled = assemble(
        groups,
        budget,
        words,
        prefix_once=prefix_once,
        skip_contents=skip_contents,
        head_holds_best=head_holds_best,
    )
    passages = [p for ps in assembled for p in ps]
    assert sum(words(p.rendered) for p in passages) <= budget
    assert all(SOURCE[p.start : p.end] == p.text for p in passages)
    assert all(p.rendered == p.prefix + p.text for p in passages)


def test_a_passage_reaches_the_model_without_page_markers_and_is_counted_so() -> None:
    # a converted PDF's child may begin at a page break: the model reads the text, the citation
    # keeps the exact offsets, and the budget counts what is sent
    text = "Silt rises.\n\n<!-- PageBreak -->\n\nTides fall at dusk.\n"
    marked = Piece("d", 0, len(text), text, "Report > Tides\n")
    [[passage]] = assemble([Group(marked, (marked,))], 9, words)
    assert passage.text == text and (passage.start, passage.end) == (0, len(text))
    assert passage.rendered == "Report > Tides\nSilt rises.\n\nTides fall at dusk.\n"
    assert words(passage.rendered) == 9  # with the marker, 12 words would not fit 9


#: A section whose second child only leads into the third (``in order:``), then a last child.
LEAD_DOC = (
    "## Values\n\nA value comes from one of three places.\n\n"
    "### Sources\n\nClick looks for it in order:\n\n"
    "1. the command line\n2. the environment\n3. the default\n\n"
    "The first one found wins.\n"
)


def lead_children() -> tuple[Piece, ...]:
    """The section's four children: its opening, the lead-in, the list, the closing line."""
    cuts = [0, LEAD_DOC.index("### Sources"), LEAD_DOC.index("1. the"), LEAD_DOC.index("The first")]
    ends = [*cuts[1:], len(LEAD_DOC)]
    return tuple(
        Piece("d", start, end, LEAD_DOC[start:end], "C\n")
        for start, end in zip(cuts, ends, strict=True)
    )


def lead_group(hit: int, ranks: tuple[int, ...] = (0,)) -> Group:
    children = lead_children()
    parent = Piece("d", 0, len(LEAD_DOC), LEAD_DOC, "P\n")
    return Group(parent, (children[hit],), children, ranks)


def test_a_child_that_leads_in_is_one_paragraph_ending_in_a_colon_past_its_headings() -> None:
    opening, lead, listed, closing = (child.text for child in lead_children())
    assert leads_in(lead)
    assert not leads_in(opening) and not leads_in(listed) and not leads_in(closing)
    assert not leads_in("It is five seconds.\n\nYou can change it:")  # a fact, then the lead
    assert not leads_in("### Usage:\n\n")  # a heading alone


def headings_over_a_lead(count: int) -> str:
    return "### A heading\n" * count + "It goes on in these sources:"


def test_a_childs_headings_are_passed_over_in_time_linear_in_their_number() -> None:
    """Each heading line was popped from the front of the list of lines, which moved all the
    others: 100,000 heading lines took 0.6 s, quadratic."""
    assert leads_in(headings_over_a_lead(3)) and not leads_in(headings_over_a_lead(3) + "\n\nx")
    assert least_growth(headings_over_a_lead, 20_000, leads_in, 8.0) < 8.0


def test_with_lead_in_a_hit_that_leads_in_is_sent_with_the_child_it_leads_to() -> None:
    # the lead-in (rank 0, 1 + 8 words) and another section's hit (rank 1, 1 + 8): within 20
    # both hits fit and the list (10 more) does not; with lead_in the lead-in comes with its list
    # (one passage, 19) and the next hit no longer fits
    other = Group(None, (Piece("e", 0, 15, "a b c d e f g h", "Q\n"),), (), (1,))
    groups = [lead_group(1), other]
    lead, listed = lead_children()[1:3]
    alone = assemble(groups, 20, words, first_share=0, lead_in=False)
    assert [[(p.start, p.end) for p in ps] for ps in alone] == [[(lead.start, lead.end)], [(0, 15)]]
    together = assemble(groups, 20, words, first_share=0, lead_in=True)
    assert [[(p.start, p.end) for p in ps] for ps in together] == [[(lead.start, listed.end)], []]


def test_with_lead_in_a_lead_in_without_room_for_what_it_leads_to_is_not_sent() -> None:
    # the lead-in and its list are 7 + 13 words: within 12 only the lead-in would fit
    assert [p for ps in assemble([lead_group(1)], 12, words, 0, lead_in=False) for p in ps]
    assert assemble([lead_group(1)], 12, words, first_share=0, lead_in=True) == [[]]


def test_with_lead_in_step_ones_head_does_not_end_on_a_lead_in() -> None:
    # within 22 the section whole (1 + 33 words) does not fit, nor its head to the end of the
    # list (29); its head to the end of the lead-in (19) does, and ends on "in order:". With
    # lead_in no head is sent: the lead-in comes as a hit, with its list (1 + 18)
    lead, listed = lead_children()[1:3]
    head = assemble([lead_group(1)], 22, words, first_share=1, lead_in=False)
    assert [(p.start, p.end) for p in head[0]] == [(0, lead.end)]
    led = assemble([lead_group(1)], 22, words, first_share=1, lead_in=True)
    assert [(p.start, p.end) for p in led[0]] == [(lead.start, listed.end)]


def prose_group(text: str, prefix: str = "P\n") -> Group:
    """One section of one child (the whole ``text``), hit."""
    child = Piece("p", 0, len(text), text, prefix)
    return Group(child, (child,), (child,), (0,))


PETS = "Pets are covered. The deductible is two hundred dollars. It resets each year. Claims go on."


def test_a_window_is_the_sentence_holding_the_questions_words_grown_within_its_limit() -> None:
    a, b = window(PETS, question_terms("How much is the deductible?"), 10, words) or (0, 0)
    assert PETS[a:b] == "The deductible is two hundred dollars. It resets each year. "
    assert window(PETS, question_terms("Are cats insured?"), 9, words) is None


def test_with_windows_a_hit_too_large_for_what_is_left_is_sent_as_its_window() -> None:
    first = prose_group(" ".join(f"x{i}" for i in range(8)) + ".")  # 9 tokens with its prefix
    second = Group(
        Piece("q", 0, len(PETS), PETS, "Q\n"),
        (Piece("q", 0, len(PETS), PETS, "Q\n"),),
        (Piece("q", 0, len(PETS), PETS, "Q\n"),),
        (1,),
    )
    asked = "How much is the deductible?"
    without = assemble([first, second], 20, words, first_share=0)
    assert [p.text for ps in without for p in ps] == [first.hits[0].text]  # 16 tokens: no room
    with_windows = assemble(
        [first, second], 20, words, first_share=0, question=asked, windows=0.5, window_tokens=10
    )
    assert [p.rendered for p in with_windows[1]] == [
        "Q\nThe deductible is two hundred dollars. It resets each year. "
    ]
    assert with_windows[1][0].start == PETS.index("The deductible")


def test_with_windows_a_hit_without_the_questions_words_is_not_cut() -> None:
    only = Group(
        Piece("q", 0, len(PETS), PETS, "Q\n"),
        (Piece("q", 0, len(PETS), PETS, "Q\n"),),
        (Piece("q", 0, len(PETS), PETS, "Q\n"),),
        (0,),
    )
    assert assemble([only], 10, words, first_share=0, question="Are cats insured?", windows=1) == [
        []
    ]
