"""The parser -> outline contract: what ``OutlineBuilder`` promises a parser, what an ``Outline``
promises the packer, and the order of the cut levels (``docs/dev/ENGINE_CONTRACT.md``)."""

from __future__ import annotations

import dataclasses
from array import array

import pytest

from skills.chunking.levels import MAX_BLOCK_NESTING, MAX_LIST_NESTING, Level
from skills.chunking.markup.markdown import parse_markdown
from skills.chunking.outline import NO_SECTION, Container, OutlineBuilder, SectionTree


def test_build_sorts_the_cut_points_and_keeps_the_best_level_of_each_position() -> None:
    builder = OutlineBuilder(100)
    for position, level in [(50, Level.LINE), (10, Level.BLOCK), (50, Level.heading(1))]:
        builder.cut(position, level)
    builder.cut(10, Level.AVOID)
    outline = builder.build()
    assert list(outline.positions) == [10, 50]
    assert list(outline.levels) == [Level.BLOCK, Level.heading(1)]
    assert outline.level_at(50) == Level.heading(1) and outline.level_at(30) == Level.NO_CUT


def test_a_cut_at_the_start_or_the_end_of_the_text_is_dropped() -> None:
    builder = OutlineBuilder(10)
    for position in (0, 5, 10, 11):
        builder.cut(position, Level.BLOCK)
    assert list(builder.build().positions) == [5]


def test_build_puts_the_containers_in_document_order() -> None:
    builder = OutlineBuilder(100)
    builder.container(Container(60, 61, 80, "```\n"))
    builder.container(Container(10, 11, 30, "```\n"))
    outline = builder.build()
    assert [c.start for c in outline.containers] == [10, 60]
    assert outline.container_at(70) is outline.containers[1]


def test_an_outline_never_changes_after_build() -> None:
    builder = OutlineBuilder(100)
    builder.cut(10, Level.BLOCK)
    builder.heading_line(10, 20)
    outline = builder.build()
    builder.cut(40, Level.BLOCK)  # the builder is empty again: this is another outline's
    builder.heading_line(40, 50)
    assert list(outline.positions) == [10] and dict(outline.heading_lines) == {10: 20}
    assert list(builder.build().positions) == [40]
    with pytest.raises(dataclasses.FrozenInstanceError):
        outline.positions = array("q")  # type: ignore[misc]


def test_with_cuts_derives_a_new_outline_and_keeps_the_better_level() -> None:
    source = "# Title\n\nOne.\n\nTwo.\n\nThree.\n"
    outline = parse_markdown(source)
    one, two = source.index("One"), source.index("Two")
    shifted = outline.with_cuts([two, one, 0], Level.TOPIC_SHIFT)
    assert shifted.level_at(two) == Level.TOPIC_SHIFT
    assert outline.level_at(two) == Level.BLOCK, "the outline it came from is unchanged"
    assert list(shifted.positions) == list(outline.positions)
    shifted = outline.with_cuts([source.index("# Title") + 1], Level.AVOID)
    assert len(shifted.positions) == len(outline.positions) + 1
    assert outline.with_cuts([two], Level.AVOID).level_at(two) == Level.BLOCK
    assert shifted.sections == outline.sections and shifted.heading_lines is outline.heading_lines


def test_a_section_tree_nests_headings_by_depth_and_closes_them_at_the_next() -> None:
    builder = OutlineBuilder(100)
    tree = SectionTree(builder, heading_depth=2)
    tree.heading(10, 1, "A")
    tree.heading(20, 2, "B")
    tree.heading(30, 3, "too deep")
    tree.heading(40, 2, "C")
    tree.close_all(100)
    outline = builder.build()
    spans = [(s.title, s.start, s.end, s.parent) for s in outline.sections]
    assert spans == [("A", 10, 100, NO_SECTION), ("B", 20, 40, 0), ("C", 40, 100, 0)]
    assert outline.level_at(30) == Level.DEEP_HEADING
    assert outline.heading_path(outline.section_at(35)) == ("A", "B")
    assert outline.section_at(5) == NO_SECTION and outline.heading_path(NO_SECTION) == ()


def test_enclose_puts_every_section_under_one_outermost_section() -> None:
    builder = OutlineBuilder(50)
    tree = SectionTree(builder, heading_depth=6)
    tree.heading(10, 2, "Synopsis")
    tree.close_all(50)
    builder.enclose("npm-access")
    outline = builder.build()
    assert [(s.title, s.start, s.parent) for s in outline.sections] == [
        ("npm-access", 0, NO_SECTION),
        ("Synopsis", 10, 0),
    ]


def test_the_levels_keep_their_order_best_first() -> None:
    order = [
        Level.EDGE,
        Level.SECTION,
        Level.heading(1),
        Level.heading(6),
        Level.DEEP_HEADING,
        Level.THEMATIC_BREAK,
        Level.TOPIC_SHIFT,
        Level.BLOCK,
        Level.LIST_ITEM,
        Level.list_item(MAX_LIST_NESTING),
        Level.LINE,
        Level.SENTENCE,
        Level.WORD,
        Level.AVOID,
        Level.NO_CUT,
    ]
    assert order == sorted(order, reverse=True) and len(set(order)) == len(order)
    assert Level.BLOCK > Level.block(1) > Level.block(MAX_BLOCK_NESTING) > Level.LINE, "code"
    assert max(Level) <= 127, "levels are stored as signed bytes"


def test_deep_nesting_shares_the_weakest_level_of_its_kind() -> None:
    assert Level.heading(1000) == Level.DEEP_HEADING + 1
    assert Level.list_item(1000) == Level.list_item(MAX_LIST_NESTING)
    assert Level.block(1000) == Level.block(MAX_BLOCK_NESTING)
