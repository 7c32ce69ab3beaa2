"""The baselines produce exact spans of the source, so they are scored like our chunks."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skills.chunking import count_tokens
from skills.evaluation import baselines
from skills.evaluation.spans import union_length

TEXT = (
    "# Guide\n\nSome intro text about café ☕ and things. " * 20
    + "\n\n## Part two\n\n  Indented line kept.\nAnother line.\n\n"
    + "### Deep\n\n"
    + "More words in the deep section. " * 40
)


def test_fixed_windows_cover_the_text_in_order_with_the_overlap() -> None:
    spans = baselines.fixed_windows("d", TEXT, 64, 16)
    assert spans[0].start == 0
    assert spans[-1].end == len(TEXT)
    assert all(count_tokens(TEXT[s.start : s.end]) <= 66 for s in spans)  # +2: a split emoji
    assert all(a.start < b.start < a.end for a, b in itertools.pairwise(spans))


def test_fixed_windows_without_overlap_tile_the_text() -> None:
    spans = baselines.fixed_windows("d", TEXT, 50, 0)
    assert all(a.end == b.start for a, b in itertools.pairwise(spans))
    assert union_length((s.start, s.end) for s in spans) == len(TEXT)


def test_fixed_windows_refuse_an_overlap_as_large_as_the_size() -> None:
    with pytest.raises(ValueError, match="overlap"):
        baselines.fixed_windows("d", TEXT, 10, 10)


def test_parent_child_children_lie_inside_their_parent() -> None:
    chunks = baselines.parent_child("d", TEXT, 32, 128)
    assert len(chunks.parents) < len(chunks.leaves)
    for leaf in chunks.leaves:
        assert leaf.parent is not None
        assert chunks.parents[leaf.parent].covers(leaf.span)


@pytest.mark.parametrize("keep", [False, True])
def test_langchain_chunks_are_exact_source_spans(keep: bool) -> None:
    pytest.importorskip("langchain_text_splitters")
    for chunks in (
        baselines.recursive("d", TEXT, 60, 20),
        baselines.markdown_header_recursive("d", TEXT, 60, 0, keep_headers=keep),
    ):
        assert chunks.leaves
        for leaf in chunks.leaves:
            assert TEXT[leaf.span.start : leaf.span.end] == leaf.embed_text
            assert count_tokens(leaf.embed_text) <= 60 + 10


def test_markdown_header_splitter_strips_or_keeps_headings() -> None:
    pytest.importorskip("langchain_text_splitters")
    stripped = baselines.markdown_header_recursive("d", TEXT, 400, 0)
    kept = baselines.markdown_header_recursive("d", TEXT, 400, 0, keep_headers=True)
    assert not any("## Part two" in leaf.embed_text for leaf in stripped.leaves)
    assert any("## Part two" in leaf.embed_text for leaf in kept.leaves)
    assert any("Indented line kept." in leaf.embed_text for leaf in stripped.leaves)


def test_locate_by_lines_searches_after_the_cursor() -> None:
    text = "a\nb\n\na\nb\n"
    assert baselines.locate_by_lines(text, "a\nb", 0) == (0, 3)
    assert baselines.locate_by_lines(text, "a\nb", 1) == (5, 8)
    assert baselines.locate_by_lines(text, "zzz", 0) is None


PROSE = (
    "The indexer cracks the file. It keeps the text and drops the markup! Is that enough? "
    "A page of text follows with a longer sentence that has no end for a while and goes on "
) * 12


def test_text_split_pages_never_pass_the_maximum_page_length() -> None:
    pages = baselines.text_split_pages(PROSE, 300, 80)
    assert len(pages) > 3
    assert all(end - start <= 300 for start, end in pages)


def test_text_split_pages_start_with_the_overlap_from_the_end_of_the_previous_page() -> None:
    pages = baselines.text_split_pages(PROSE, 300, 80)
    assert pages[0][0] == 0
    assert pages[-1][1] == len(PROSE)
    assert all(b[0] == a[1] - 80 for a, b in itertools.pairwise(pages))


def test_text_split_pages_end_after_a_sentence_in_the_second_half_of_the_page() -> None:
    pages = baselines.text_split_pages(PROSE, 300, 80)
    for start, end in pages[:-1]:
        assert PROSE[end - 1] in ".!?"
        assert end - start > 150


def test_text_split_pages_fall_back_to_a_space_then_to_the_length() -> None:
    words = "word " * 100
    assert all(words[end] == " " for _, end in baselines.text_split_pages(words, 300, 0)[:-1])
    letters = "x" * 700
    assert baselines.text_split_pages(letters, 300, 0) == [(0, 300), (300, 600), (600, 700)]


def test_text_split_refuses_an_overlap_as_large_as_the_page() -> None:
    with pytest.raises(ValueError, match="overlap"):
        baselines.text_split_pages(PROSE, 300, 300)


@given(st.text(alphabet=" .\nab!?", max_size=3000), st.integers(300, 900), st.integers(0, 299))
def test_text_split_pages_cover_the_text_and_always_move_on(
    text: str, size: int, overlap: int
) -> None:
    pages = baselines.text_split_pages(text, size, overlap)
    assert union_length(pages) == len(text)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in itertools.pairwise(pages))
    assert all(0 < end - start <= size for start, end in pages)


def test_text_split_of_a_text_document_splits_its_own_text_exactly() -> None:
    chunks = baselines.text_split("d", PROSE, None, 300, 80)
    assert all(PROSE[leaf.span.start : leaf.span.end] == leaf.embed_text for leaf in chunks.leaves)


def test_text_split_embeds_the_cracked_page_and_judges_it_on_the_converted_text() -> None:
    converted = "# Ingestion\n\n" + "The indexer cracks every file it reads. " * 40 + "\n"
    cracked = "Runbook 3\n" + "The indexer cracks every file it reads. " * 40 + "\n4\n"
    chunks = baselines.text_split("d", converted, cracked, 300, 50)
    assert chunks.leaves[0].embed_text.startswith("Runbook 3\nThe indexer")
    for leaf in chunks.leaves:
        located = converted[leaf.span.start : leaf.span.end]
        assert "Runbook" not in located
        assert "The indexer cracks" in located
    first = chunks.leaves[0].span
    assert converted[first.start : first.end].lstrip().startswith("The indexer")  # not the heading
