"""The baselines of issue 5, as chunk sets: what a user would get from common tools.

- fixed token windows (cl100k_base), ``size``/``overlap`` (Azure's SplitSkill default is 512/128);
- LangChain's ``RecursiveCharacterTextSplitter`` with its default separators, sized in cl100k_base
  tokens (what ``from_tiktoken_encoder`` does, counted through our offline encoding);
- LangChain's ``MarkdownHeaderTextSplitter`` on h1-h3, then the recursive splitter on each
  section (headings stripped, or kept with ``keep_headers``);
- a naive parent-child: ``child``-token windows inside ``parent``-token windows.

LangChain's Markdown splitter rebuilds its text from stripped lines, so its chunks are located in
the source by their first and last lines (searched forward from the previous chunk); the span is
then exact source text, which is what the metrics need.
"""

from __future__ import annotations

from skills.chunking import count_tokens, encode, encoding
from skills.evaluation.chunksets import ChunkSet, Leaf
from skills.evaluation.spans import Span


def token_boundaries(text: str) -> list[int]:
    """Character offset where each cl100k token starts, plus ``len(text)`` at the end.

    A token that ends inside a multi-byte character is moved to the next character boundary.
    """
    tokens = encode(text)
    _, offsets = encoding().decode_with_offsets(tokens)
    boundaries = [min(offset, len(text)) for offset in offsets]
    return [*boundaries, len(text)]


def fixed_windows(doc: str, text: str, size: int, overlap: int) -> list[Span]:
    """Windows of ``size`` tokens, each starting ``size - overlap`` tokens after the last."""
    if not 0 <= overlap < size:
        raise ValueError(f"overlap {overlap} must be at least 0 and below size {size}")
    bounds = token_boundaries(text)
    count = len(bounds) - 1
    spans: list[Span] = []
    start = 0
    while start < count:
        end = min(start + size, count)
        if bounds[end] > bounds[start]:
            spans.append(Span(doc, bounds[start], bounds[end]))
        if end == count:
            break
        start = end - overlap
    return spans


def fixed(doc: str, text: str, size: int, overlap: int) -> ChunkSet:
    """Flat fixed token windows; the embedded text is the window's text."""
    leaves = [Leaf(s, text[s.start : s.end]) for s in fixed_windows(doc, text, size, overlap)]
    return ChunkSet(tuple(leaves))


def parent_child(doc: str, text: str, child: int, parent: int) -> ChunkSet:
    """``parent``-token windows (no overlap), each cut into ``child``-token windows."""
    parents = fixed_windows(doc, text, parent, 0)
    leaves: list[Leaf] = []
    for index, outer in enumerate(parents):
        inner = text[outer.start : outer.end]
        for window in fixed_windows(doc, inner, child, 0):
            span = Span(doc, outer.start + window.start, outer.start + window.end)
            leaves.append(Leaf(span, text[span.start : span.end], index))
    return ChunkSet(tuple(leaves), tuple(parents))


def recursive(doc: str, text: str, size: int, overlap: int) -> ChunkSet:
    """LangChain's recursive splitter in cl100k tokens; chunk offsets from ``add_start_index``."""
    leaves = [
        Leaf(span, text[span.start : span.end])
        for span in _recursive_spans(doc, text, 0, size, overlap)
    ]
    return ChunkSet(tuple(leaves))


def markdown_header_recursive(
    doc: str, text: str, size: int, overlap: int, keep_headers: bool = False
) -> ChunkSet:
    """LangChain's Markdown header splitter (h1-h3), then recursive splitting of each section."""
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    splitter = MarkdownHeaderTextSplitter(
        headers_to_split_on=[("#", "h1"), ("##", "h2"), ("###", "h3")],
        strip_headers=not keep_headers,
    )
    leaves: list[Leaf] = []
    cursor = 0
    for section in splitter.split_text(text):
        located = locate_by_lines(text, section.page_content, cursor)
        if located is None:
            continue
        start, end = located
        cursor = start
        for span in _recursive_spans(doc, text[start:end], start, size, overlap):
            leaves.append(Leaf(span, text[span.start : span.end]))
    return ChunkSet(tuple(leaves))


def _recursive_spans(doc: str, text: str, base: int, size: int, overlap: int) -> list[Span]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=size,
        chunk_overlap=overlap,
        length_function=count_tokens,
        add_start_index=True,
    )
    spans: list[Span] = []
    for chunk in splitter.create_documents([text]):
        start = int(chunk.metadata["start_index"])
        if start < 0:  # LangChain could not find it: locate it ourselves
            start = text.find(chunk.page_content)
        if start >= 0:
            spans.append(Span(doc, base + start, base + start + len(chunk.page_content)))
    return spans


def locate_by_lines(text: str, piece: str, cursor: int) -> tuple[int, int] | None:
    """Source span from the first line of ``piece`` to the end of its last line, after ``cursor``.

    Lines are matched stripped and in order; a line the splitter rewrote (it collapses runs of
    spaces inside code blocks) is skipped, so the span still runs from the first line found to
    the last. ``None`` only when no line is found at all.

    >>> locate_by_lines("# T\\n\\n  alpha\\nbeta  \\n", "alpha\\nbeta", 0)
    (7, 17)
    >>> locate_by_lines("a\\n│   ├── x\\nz\\n", "a\\n│ ├── x\\nz", 0)
    (0, 13)
    """
    start = end = -1
    for line in (line.strip() for line in piece.splitlines()):
        if not line:
            continue
        found = text.find(line, cursor if start < 0 else end)
        if found < 0:
            continue
        if start < 0:
            start = found
        end = found + len(line)
    return None if start < 0 else (start, end)
