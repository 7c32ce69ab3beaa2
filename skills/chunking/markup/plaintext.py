"""Plain text -> ``Outline``: paragraphs, separated by blank lines, and numbered titles.

Lines inside a paragraph are not cut points here: the packer cuts an oversized paragraph between
sentences first, then lines, then words.

Licenses, contracts, RFCs and text cracked from PDFs number their sections
(``13.5 Constructing Responses From Caches``, ``0. Definitions.``). Read as paragraphs, such a
title ended a parent or stood alone as a 7-12-token child. A title is recognised conservatively:
a paragraph of one short line (at most ``_TITLE_WORDS`` words) that starts with a section
number and a capital, with no dot leaders (``3.2 Caching ........ 14`` is a table of contents,
not a parent), in a document that has at least three of them. Its depth is how many parts its
number has (``13.5`` is 2), and it leads into what follows, as a Markdown heading does.

>>> text = "1. Scope\\n\\nText.\\n\\n2. Terms\\n\\nText.\\n\\n2.1 Words\\n\\nText.\\n"
>>> outline = parse_text(text, titles=True)
>>> [(section.title, section.depth) for section in outline.sections]
[('1. Scope', 1), ('2. Terms', 1), ('2.1 Words', 2)]
"""

from __future__ import annotations

import re

from skills.chunking.levels import Level
from skills.chunking.outline import Outline, OutlineBuilder, SectionTree

#: A run of blank lines, whole. Possessive, and without a look-ahead for the paragraph after it:
#: a run that fails a look-ahead (blank lines at the end) would be rescanned from each of its
#: newlines, a quadratic cost.
_GAP = re.compile(r"\n(?:[ \t]*+\n)++")
_LINE_CONTENT = re.compile(r"[ \t]*\S")
_TITLE_WORDS = 10
MIN_TITLES = 3  # in a document, for any of its numbered lines to be titles
#: A section number, then a capitalised title on one line followed by a blank line (or the end).
_TITLE = re.compile(
    r"[ \t]{0,4}(?P<number>(?:\d{1,2}\.){0,4}\d{1,2})\.?[ \t]+(?P<title>[A-Z][^\n]*?)[ \t]*"
    r"(?=\n[ \t]*\n|\n?\Z)"
)
_LEADERS = re.compile(r"\.{4,}|(?:\. ){3,}|[,;:]$")


def parse_text(text: str, heading_depth: int = 6, titles: bool = False) -> Outline:
    """A block break at the start of every paragraph; with ``titles``, numbered titles open
    sections (those deeper than ``heading_depth`` are strong breaks only)."""
    builder = OutlineBuilder(len(text))
    starts = [0]
    for gap in _GAP.finditer(text):
        if _LINE_CONTENT.match(text, gap.end()):
            builder.cut(gap.end(), Level.BLOCK)
            starts.append(gap.end())
    if titles:
        _titles(text, starts, builder, heading_depth)
    return builder.build()


def numbered_title(text: str, start: int) -> tuple[int, int] | None:
    """``(end, parts)`` when the paragraph at ``start`` is a numbered title: one line of at
    most ``_TITLE_WORDS`` words, a section number of ``parts`` parts, then a capital, no dot
    leaders, a blank line (or the end) after it. The Markdown parser asks it too, for
    licenses read as Markdown (``_MarkdownParser._numbered_titles``).

    >>> numbered_title("3.1. Distribution of Source Form\\n\\nText.", 0)
    (32, 2)
    """
    match = _TITLE.match(text, start)
    if match is None or len(match.group("title").split()) > _TITLE_WORDS:
        return None
    if _LEADERS.search(match.group("title")):
        return None
    return match.end(), match.group("number").count(".") + 1


def _titles(text: str, starts: list[int], builder: OutlineBuilder, heading_depth: int) -> None:
    found = []
    for start in starts:
        title = numbered_title(text, start)
        if title is not None:
            found.append((start, *title))
    if len(found) < MIN_TITLES:
        return
    sections = SectionTree(builder, heading_depth)
    for start, end, depth in found:
        line = text[start:end].strip()
        sections.heading(start, depth, " ".join(line.split()))
        builder.heading_line(start, end)
    sections.close_all(len(text))
