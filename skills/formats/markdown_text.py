"""The few pieces of Markdown the converters write themselves: a table, a heading, plain text.

HTML goes through markdownify (``html.py``); the converters that read structured files (slides,
sheets, PDF pages) write their Markdown here, escaped so that a cell or a line of text never
becomes syntax it is not (a ``|`` inside a cell, a ``#`` at the start of a PDF line).

>>> print(table([["Name", "Size"], ["a|b", "2"]]))
| Name | Size |
| --- | --- |
| a\\|b | 2 |
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: What would turn a line of plain text into a block it is not: a heading, a quote, a fence, a
#: table row (a list marker is left alone: in a slide or a PDF it almost always is a list).
_LINE_SYNTAX = re.compile(r"^([ \t]*)(#|>|```|~~~|\|)", re.MULTILINE)
#: A line drawn with dashes or equals signs alone (a rule typed under a table's header, a table
#: cell's lone ``-``): under a line of text it would make that line a setext heading.
_UNDERLINE = re.compile(r"^([ \t]*)([-=])(?=[-=]*[ \t]*$)", re.MULTILINE)


def cell(value: object) -> str:
    """One table cell on one line, its pipes escaped."""
    text = "" if value is None else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def table(rows: Sequence[Sequence[object]]) -> str:
    """A pipe table whose first row is the header; rows are padded to the widest."""
    width = max((len(row) for row in rows), default=0)
    if width == 0:
        return ""
    lines = []
    for number, row in enumerate(rows):
        cells = [cell(value) for value in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if number == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


def heading(level: int, text: str) -> str:
    return f"{'#' * max(1, min(6, level))} {' '.join(text.split())}"


def plain(text: str) -> str:
    """Text that reads as a paragraph, not as Markdown syntax: a line that would open a heading,
    a quote, a fence or a table is escaped, and so is a line of dashes or equals signs alone,
    which would make the line above it a heading (RTKLIB's typed rules under a table's header).

    >>> print(plain("# not a heading\\n1. step"))
    \\# not a heading
    1. step
    >>> print(plain("Message GPS Galileo\\n-----------\\nQZSSRAW-SUBFRAMEB\\n-\\n- an item"))
    Message GPS Galileo
    \\-----------
    QZSSRAW-SUBFRAMEB
    \\-
    - an item
    """
    return _UNDERLINE.sub(r"\1\\\2", _LINE_SYNTAX.sub(r"\1\\\2", text))
