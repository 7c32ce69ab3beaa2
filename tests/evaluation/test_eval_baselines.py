"""The baselines produce exact spans of the source, so they are scored like our chunks."""

from __future__ import annotations

import itertools

import pytest

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
