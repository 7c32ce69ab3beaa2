"""The baselines of issue 5, as chunk sets: what a user would get from common tools.

- fixed token windows (cl100k_base), ``size``/``overlap`` (Azure's SplitSkill default is 512/128);
- LangChain's ``RecursiveCharacterTextSplitter`` with its default separators, sized in cl100k_base
  tokens (what ``from_tiktoken_encoder`` does, counted through our offline encoding);
- LangChain's ``MarkdownHeaderTextSplitter`` on h1-h3, then the recursive splitter on each
  section (headings stripped, or kept with ``keep_headers``);
- a naive parent-child: ``child``-token windows inside ``parent``-token windows;
- Azure AI Search's built-in path: the cracked text cut by the Text Split skill into pages of
  2,000 characters with 500 of overlap (:func:`text_split`).

LangChain's Markdown splitter rebuilds its text from stripped lines, so its chunks are located in
the source by their first and last lines (searched forward from the previous chunk); the span is
then exact source text, which is what the metrics need.
"""

from __future__ import annotations

import re

from skills.chunking import count_tokens, encode, encoding
from skills.evaluation.chunksets import ChunkSet, Leaf
from skills.evaluation.cracking import Alignment
from skills.evaluation.spans import Span

#: What the Import and vectorize data wizard sets on the Text Split skill (``textSplitMode``
#: ``pages``): ``maximumPageLength`` and ``pageOverlapLength``, in characters.
TEXT_SPLIT_PAGE = 2000
TEXT_SPLIT_OVERLAP = 500
#: A sentence's end: ``.``, ``!`` or ``?`` (closing quotes and brackets after it), then white space.
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s)")
_SPACE = re.compile(r"\s")


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


def text_split_pages(text: str, size: int, overlap: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each page the Text Split skill cuts ``text`` into (``textSplitMode``
    ``pages``, ``maximumPageLength`` ``size``, ``pageOverlapLength`` ``overlap``, in characters).

    What Microsoft documents (https://learn.microsoft.com/azure/search/cognitive-search-skill-textsplit):
    a page is at most ``size`` characters (``String.Length``); "the algorithm does its best to
    break the text on sentence boundaries, so the size of each chunk might be slightly less";
    "each page starts with this number of characters from the end of the previous page". The
    exact rule is not published, so this emulation takes the plainest reading of it: a page ends
    after the last sentence end (``.``, ``!`` or ``?`` before white space) in the second half of
    its ``size``, else at the last white space there, else at ``size``; the next page starts
    ``overlap`` characters before that end (the overlap counts inside the next page's ``size``,
    and may start inside a word). Characters are code points (a character outside the Basic
    Multilingual Plane, two UTF-16 units in .NET, counts one here).

    >>> text = "One. Two two. Three three three. Four."
    >>> [text[s:e] for s, e in text_split_pages(text, 20, 5)]
    ['One. Two two.', ' two. Three three', 'three three. Four.']
    """
    if not 0 <= overlap < size:
        raise ValueError(f"overlap {overlap} must be at least 0 and below size {size}")
    pages: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        limit = start + size
        if limit >= len(text):
            pages.append((start, len(text)))
            break
        end = _page_end(text, start, limit)
        pages.append((start, end))
        start = end - overlap if end - overlap > start else end
    return pages


def _page_end(text: str, start: int, limit: int) -> int:
    """Where a page from ``start`` ends: after the last sentence end, else at the last white
    space, in ``(start + half the page, limit]``; else at ``limit``."""
    floor = start + (limit - start) // 2
    ends = [m.end() for m in _SENTENCE_END.finditer(text, floor, limit + 1) if m.end() <= limit]
    if ends:
        return ends[-1]
    spaces = [m.start() for m in _SPACE.finditer(text, floor + 1, limit + 1)]
    return spaces[-1] if spaces else limit


def text_split(
    doc: str,
    text: str,
    cracked: str | None = None,
    size: int = TEXT_SPLIT_PAGE,
    overlap: int = TEXT_SPLIT_OVERLAP,
) -> ChunkSet:
    """The built-in path: ``cracked`` (the document's text as default cracking gives it,
    :func:`skills.evaluation.cracking.cracked_text`; ``text`` itself when ``None``) cut into Text
    Split pages (:func:`text_split_pages`). Each page is embedded as it is (no heading, no
    title: the built-in path has none) and judged as the span of ``text`` its words land on
    (:class:`skills.evaluation.cracking.Alignment`); a page none of whose words is in ``text``
    (a page of furniture only) is left out with a warning.
    """
    if cracked is None:
        return ChunkSet(
            tuple(
                Leaf(Span(doc, start, end), text[start:end])
                for start, end in text_split_pages(text, size, overlap)
            )
        )
    alignment = Alignment.of(cracked, text)
    leaves: list[Leaf] = []
    lost = 0
    for start, end in text_split_pages(cracked, size, overlap):
        located = alignment.span(start, end)
        if located is None:
            lost += 1
            continue
        leaves.append(Leaf(Span(doc, *located), cracked[start:end]))
    warnings = (f"{lost} Text Split pages hold no word of the converted text",) if lost else ()
    return ChunkSet(tuple(leaves), warnings=warnings)
