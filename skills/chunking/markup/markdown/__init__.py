"""Markdown -> ``Outline``: where sections, blocks, list items and containers begin.

By concern: ``blocks`` reads the block structure (headings, fences, tables, lists, quotes);
``dialects`` holds the MkDocs, DocFX and Hugo lines and the lines with nothing to read as a
table of rules; ``matter`` finds the front and back matter around a page's text; ``inline``
reads a heading's title and a span's text as a reader reads them (links as their text).

Example: ``"# A\\n\\ntext\\n\\n## B\\n- x\\n- y\\n"`` gives sections ``A`` (depth 1) and ``B``
(depth 2, parent A), a block break before ``text``, a section break before ``## B`` and list-item
breaks before ``- x`` and ``- y``.
"""

from __future__ import annotations

import re

from skills.chunking.markup.markdown.blocks import parse_markdown
from skills.chunking.markup.markdown.inline import heading_title, link_text
from skills.chunking.markup.markdown.matter import back_matter, front_matter

__all__ = [
    "back_matter",
    "front_matter",
    "heading_title",
    "link_text",
    "looks_like",
    "parse_markdown",
]

#: Markdown's block syntax and links (``looks_like``). Not a numbered line alone: licenses,
#: contracts and RFCs number their sections ("1. Definitions."), and read as Markdown a LICENSE
#: lost its titles. A link's URL holds no bracket or parenthesis here: each candidate ``](`` is
#: then read to the next one at most, where a line of ``[a](`` repeated took seconds to sniff.
_SIGNS = re.compile(
    r"^(?: {0,3}#{1,6}[ \t]| {0,3}(?:```|~~~)| {0,3}\|.*\|[ \t]*$| {0,3}[-*+][ \t]+\S"
    r"| {0,3}>[ \t]?|.*\]\([^()\[\]\s]+\)"
    r"| {0,3}<table[\s>]|<!-- Page(?:Break|Number|Header|Footer)\b)",  # Document Intelligence
    re.MULTILINE | re.IGNORECASE,
)


def looks_like(sample: str) -> bool:
    """Whether the start of a text shows any Markdown block syntax or link.

    >>> looks_like("Intro\\n\\n- one\\n- two\\n"), looks_like("1. Definitions.\\n")
    (True, False)
    """
    return _SIGNS.search(sample) is not None
