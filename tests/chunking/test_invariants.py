"""The rules every strategy keeps, checked on generated Markdown and reStructuredText and on real
documents.

- ``source[start:end] == text``; ``tokens`` is the exact count of ``embed_text``, within its limit;
- every chunk's ``embed_text`` starts with its heading path (its innermost headings when the
  whole path does not fit) and ends with its text, less the page markers (``<!-- PageBreak -->``:
  pages are in ``pages``, never in what is embedded);
- children lie inside their parent, and the children of a parent (the leaves of a flat strategy)
  cover every non-space character of it: nothing is dropped;
- ids are valid Azure AI Search keys, unique, and the same on every run;
- in the structure-first strategies, no chunk of a real document holds only headings and
  thematic breaks, and no code block or table that fits a leaf on its own is cut.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_documents import markdown_document, real_documents, rst_document

from skills.chunking import Chunk, Chunking, ChunkOptions, chunk_document, count_tokens
from skills.chunking.markup.markdown import back_matter, front_matter, parse_markdown
from skills.chunking.markup.rst import parse_rst
from skills.chunking.newlines import line_view
from skills.chunking.outline import Outline
from skills.chunking.pages import MARKER_START, without_page_markers
from skills.chunking.piece import text_start
from skills.chunking.prefix import PATH_SEPARATOR
from skills.chunking.sentences import sentence_starts

KEY = re.compile(r"[A-Za-z0-9_\-=]{1,1024}")

OPTION_SETS = [
    ChunkOptions(strategy="hierarchical", parent_max_tokens=256, child_max_tokens=64),
    ChunkOptions(),  # the defaults: hierarchical, 640 / 128, overlap 64
    ChunkOptions(
        strategy="hierarchical",
        parent_max_tokens=512,
        child_max_tokens=128,
        child_overlap_tokens=32,
    ),
    ChunkOptions(strategy="structural", child_max_tokens=96, heading_depth=2),
    ChunkOptions(strategy="recursive", child_max_tokens=48),
    ChunkOptions(strategy="fixed", child_max_tokens=64, child_overlap_tokens=16),
    ChunkOptions(strategy="fixed", child_max_tokens=512, child_overlap_tokens=128),
    ChunkOptions(parent_max_tokens=512, child_max_tokens=96, prose_child_max_tokens=192),
]


def check_invariants(
    source: str, result: Chunking, options: ChunkOptions, title: str | None
) -> None:
    for chunk in (*result.parents, *result.leaves):
        assert source[chunk.start : chunk.end] == chunk.text
        assert chunk.text.strip(), "a chunk holds some non-space text"
        assert chunk.tokens == count_tokens(chunk.embed_text)
        # a leaf of running prose may take up to the prose budget, any other the child budget
        leaf_limits = {options.child_max_tokens, options.prose_child_max_tokens or 0} - {0}
        limits = {options.parent_max_tokens} if chunk.level == 0 else leaf_limits
        limit = max(limits)
        assert chunk.tokens <= limit
        assert chunk.embed_text == chunk.prefix + without_page_markers(chunk.text)
        assert not MARKER_START.search(chunk.embed_text)
        path = [title, *chunk.headings] if title else list(chunk.headings)
        assert all(path), "no empty heading in a path"
        if path and options.strategy.value != "recursive":
            line = chunk.prefix.split("\n", 1)[0]
            if line.endswith(path[-1]):  # the path, or its innermost part when all does not fit
                assert any(line == PATH_SEPARATOR.join(path[i:]) for i in range(len(path)))
            else:  # not even the innermost heading fits half the budget beside what is
                # reopened, or the whole block (or row) the chunk holds beside it
                innermost = count_tokens(path[-1] + "\n\n" + chunk.prefix)
                assert any(
                    innermost > limit // 2 or innermost + count_tokens(chunk.text) > limit
                    for limit in limits
                )
        assert KEY.fullmatch(chunk.id)
    ids = [c.id for c in (*result.parents, *result.leaves)]
    assert len(ids) == len(set(ids))
    assert [c.ordinal for c in result.leaves] == list(range(len(result.leaves)))
    start, end = content_bounds(source, result, options)
    if result.parents:
        assert_covers(source, result.parents, start, end)
        for parent in result.parents:
            children = result.children_of(parent)
            assert children, "every parent has children"
            for child in children:
                assert parent.start <= child.start and child.end <= parent.end
            assert_covers(source, children, parent.start, parent.end)
        assert {leaf.parent_id for leaf in result.leaves} == {p.id for p in result.parents}
    else:
        assert_covers(source, result.leaves, start, end)
    assert all(start <= c.start and c.end <= end for c in (*result.parents, *result.leaves))


def content_bounds(source: str, result: Chunking, options: ChunkOptions) -> tuple[int, int]:
    """What the chunks must cover: a Markdown page without its front matter and its back matter
    (``markdown.front_matter``, ``markdown.back_matter``: its metadata), unless the markup is
    read as plain text. The back matter is where the parser found it (not in a code block)."""
    if result.format != "markdown" or options.strategy.value == "recursive":
        return 0, len(source)
    view = line_view(source)
    start = front_matter(view)[0]
    end = back_matter(view, start)
    if end < len(view) and end != parse_markdown(view, sections_only=True).content_end:
        end = len(view)  # definitions in an unclosed code block: its text
    return start, end


def assert_covers(source: str, chunks: Sequence[Chunk], start: int, end: int) -> None:
    covered = bytearray(end - start)
    for chunk in chunks:
        covered[chunk.start - start : chunk.end - start] = b"\x01" * (chunk.end - chunk.start)
    dropped = [i for i in range(start, end) if not covered[i - start] and not source[i].isspace()]
    assert not dropped, f"dropped {source[dropped[0] : dropped[0] + 40]!r}"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(markdown_document, st.sampled_from(OPTION_SETS), st.sampled_from([None, "Guide"]))
def test_generated_markdown_keeps_every_rule(
    source: str, options: ChunkOptions, title: str | None
) -> None:
    result = chunk_document(source, title=title, document_key="generated.md", options=options)
    check_invariants(source, result, options, title)
    again = chunk_document(source, title=title, document_key="generated.md", options=options)
    assert [c.id for c in again.leaves] == [c.id for c in result.leaves]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rst_document, st.sampled_from(OPTION_SETS))
def test_generated_rst_keeps_every_rule(source: str, options: ChunkOptions) -> None:
    result = chunk_document(source, format="rst", document_key="generated.rst", options=options)
    check_invariants(source, result, options, None)
    if options in OPTION_SETS[:3]:
        assert not lone_heading_chunks(source, result, options)
        assert not blocks_cut_although_they_fit(source, result, options)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=3000), st.sampled_from(OPTION_SETS))
def test_arbitrary_text_keeps_every_rule(source: str, options: ChunkOptions) -> None:
    try:
        result = chunk_document(source, document_key="any", options=options)
    except ValueError as error:  # binary-looking input is refused with a message
        assert "binary" in str(error)
        return
    check_invariants(source, result, options, None)


@pytest.mark.parametrize("path", real_documents(), ids=lambda p: p.name)
@pytest.mark.parametrize(
    "options",
    [*OPTION_SETS[:2], *OPTION_SETS[3:5], OPTION_SETS[-1]],
    ids=lambda o: f"{o.strategy.value}",
)
def test_real_documents_keep_every_rule(path: Path, options: ChunkOptions) -> None:
    source = path.read_bytes().decode("utf-8")
    result = chunk_document(source, title=path.stem, document_key=str(path), options=options)
    assert result.leaves
    check_invariants(source, result, options, path.stem)


def parse(source: str, format: str, heading_depth: int) -> Outline:
    """The structure the engine read: the graders look at the same blocks and headings."""
    if format == "rst":
        return parse_rst(source, heading_depth)
    return parse_markdown(source, heading_depth)


def lone_heading_chunks(source: str, result: Chunking, options: ChunkOptions) -> list[str]:
    """Chunks that hold only heading lines and bare lines (thematic breaks, anchors) although
    their parent (or the document) has text after them. Allowed only where a heading alone was
    too big; where it did not fit with the headings after it and the first word they lead into
    (in the room a leaf's overlap leaves); or where what follows (past other headings and
    labels, such as a reStructuredText target) is a code block, a table or a sentence that fits
    alone but not with them (a long front matter before a long first sentence)."""
    if result.format == "text":
        return []
    outline = parse(source, result.format, options.heading_depth)
    lines = {**outline.heading_lines, **outline.bare_lines}
    leading = {**lines, **outline.label_lines}
    parents = {parent.id: parent for parent in result.parents}

    def only_lines(start: int, end: int, lines: dict[int, int] = lines) -> tuple[bool, int]:
        position = start
        while position < end and position in lines:
            position = lines[position]
            if position < end:
                position = text_start(source, position, end)
        return position >= end, position

    lone = []
    for chunk in (*result.parents, *result.leaves):
        end = parents[chunk.parent_id].end if chunk.parent_id else len(source)
        only, position = only_lines(chunk.start, chunk.end)
        cut_inside = only and position > chunk.end  # a heading that alone exceeds the limit
        rest_only, after_lines = only_lines(text_start(source, chunk.end, end), end, leading)
        followed = not rest_only
        block_next = outline.container_starting_in(after_lines, after_lines + 1) is not None
        word = re.compile(r"\s*\S+").match(source, after_lines)  # past the headings after it
        with_a_word = chunk.prefix + source[chunk.start : word.end() if word else after_lines]
        limit = room = options.parent_max_tokens
        if chunk.level == 1 or not result.parents:
            limit = options.child_max_tokens
            room = limit - options.child_overlap_tokens
        # a sentence that fits a chunk alone is not cut to make room for what leads into it
        sentence = first_sentence(source, outline, after_lines, end)
        lead_and_sentence = chunk.prefix + source[chunk.start : sentence[1]]
        sentence_kept = count_tokens(source[slice(*sentence)]) <= limit and room < count_tokens(
            lead_and_sentence
        )
        cut_inside = cut_inside or count_tokens(with_a_word) > room or sentence_kept
        if only and followed and not cut_inside and not block_next:
            lone.append(chunk.text)
    return lone


def first_sentence(source: str, outline: Outline, start: int, end: int) -> tuple[int, int]:
    """The span of the first sentence of the block that starts at ``start``."""
    index = bisect_right(outline.positions, start)
    block_end = min(outline.positions[index], end) if index < len(outline.positions) else end
    starts = sentence_starts(source, start, block_end) if start < block_end else []
    return start, starts[0] if starts else block_end


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(markdown_document, st.sampled_from(OPTION_SETS[:3]))
@example(  # a long heading whose content fits beside it by the estimate, not by the exact count
    "The.\n\nThe the the the the the. The.\n\nThe the the.\n\n| a | b |\n|---|---|\n| the\n| the\n"
    "| the the\n\n# the the 3.14 v1.2.3 v1.2.3 {{ items | length > 1 }}\n\n"
    "The the the the the v1.2.3.",
    OPTION_SETS[0],
)
def test_no_generated_chunk_is_only_headings(source: str, options: ChunkOptions) -> None:
    result = chunk_document(source, document_key="generated.md", options=options)
    assert not lone_heading_chunks(source, result, options)


@pytest.mark.parametrize("path", real_documents(), ids=lambda p: p.name)
@pytest.mark.parametrize("options", OPTION_SETS[:3], ids=lambda o: f"{o.strategy.value}")
def test_no_chunk_of_a_real_document_is_only_headings(path: Path, options: ChunkOptions) -> None:
    source = path.read_bytes().decode("utf-8")
    result = chunk_document(source, document_key=str(path), options=options)
    assert not lone_heading_chunks(source, result, options)


def blocks_cut_although_they_fit(source: str, result: Chunking, options: ChunkOptions) -> list[str]:
    """Code blocks and tables that fit a leaf on their own (with the blank lines after them, which
    a leaf holds up to the next text), without any heading path, yet no leaf holds whole: the
    heading path gives way before a block is cut."""
    if result.format == "text" or options.strategy.value not in ("hierarchical", "structural"):
        return []
    cut = []
    for block in parse(source, result.format, options.heading_depth).containers:
        end = block.start + len(source[block.start : block.end].rstrip())
        with_blank_lines = source[block.start : text_start(source, block.end, len(source))]
        if count_tokens(with_blank_lines) > options.child_max_tokens:
            continue
        if not any(leaf.start <= block.start and end <= leaf.end for leaf in result.leaves):
            cut.append(source[block.start : block.end])
    return cut


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(markdown_document, st.sampled_from(OPTION_SETS[:3]))
@example(  # a table that fits a leaf alone, but not with the "---" that stays with it
    "| h0 | h1 |\n|---|---|\n| the | e.g. e.g. |\n| e.g. | the the e.g. |\n| the the 3.14 "
    + "x" * 40
    + " | the the v1.2.3 "
    + "x" * 40
    + " |\n\n---",
    OPTION_SETS[0],
)
def test_no_generated_block_that_fits_is_cut(source: str, options: ChunkOptions) -> None:
    result = chunk_document(source, title="Guide", document_key="generated.md", options=options)
    assert not blocks_cut_although_they_fit(source, result, options)


@pytest.mark.parametrize("path", real_documents(), ids=lambda p: p.name)
@pytest.mark.parametrize("options", OPTION_SETS[:3], ids=lambda o: f"{o.strategy.value}")
def test_no_block_of_a_real_document_that_fits_is_cut(path: Path, options: ChunkOptions) -> None:
    source = path.read_bytes().decode("utf-8")
    result = chunk_document(source, title=path.stem, document_key=str(path), options=options)
    assert not blocks_cut_although_they_fit(source, result, options)
