"""HTML tables inside Markdown: where they start and end, their rows and their header.

Azure Document Intelligence's Layout model writes every table of a PDF as an HTML ``<table>``
(captions, ``<th>`` headers, merged cells) inside its Markdown, and technical docs embed HTML
tables too. Read as prose, such a table is cut wherever a sentence or a word ends, and the rows
after the first piece lose their header. So a table whose ``<table>`` tag opens a line becomes a
container like a pipe table: cut only at the start of a line that starts a row, and every piece
reopened with the lines before its first body row (the ``<table>`` tag, the ``<caption>`` and the
header rows).

Example: in ``"<table>\\n<tr><th>Code</th></tr>\\n<tr><td>E1</td></tr>\\n<tr><td>E2</td></tr>\\n
</table>\\n"`` the rows with ``E1`` and ``E2`` start where a cut may go, and a piece holding
``E2`` is embedded after ``"<table>\\n<tr><th>Code</th></tr>\\n"``.

A table runs to its matching ``</table>`` (nested tables stay inside it); an unclosed one ends at
the first blank line, as a CommonMark HTML block does. Tags are found with one scan of the whole
text, so any number of tables, closed or not, cost one pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from skills.chunking.outline import Spans

_TABLE_TAG = re.compile(r"<(/?)table(?=[\s>/])", re.IGNORECASE)
_ROW_OPEN = re.compile(r"<tr(?=[\s>/])", re.IGNORECASE)
#: A line that opens a table row: inside an HTML table, the only lines a piece may begin at.
ROW_LINE = re.compile(r"[ \t]*<tr(?=[\s>/])", re.IGNORECASE)
_ROW_LINES = re.compile("^" + ROW_LINE.pattern, ROW_LINE.flags | re.MULTILINE)  # found by search
#: A row's first cell, from the line that opens the row: what a piece inside the row reopens.
ROW_KEY = re.compile(
    r"[ \t]*<tr(?=[\s>/])[^>]*>\s*<t([dh])(?=[\s>/])[^>]*>.*?</t\1\s*>", re.I | re.S
)
_DATA_CELL = re.compile(r"<td(?=[\s>/])", re.IGNORECASE)
_BLANK_LINE = re.compile(r"\n[ \t]*(?:\n|$)")
_LINE_START = re.compile(r"(?<=\n)")


@dataclass(frozen=True, slots=True)
class HtmlTable:
    """One table: ``[start, end)`` covers whole lines; a piece starting at or after
    ``body_start`` (the line of the first body row) is embedded after ``text[start:body_start]``.
    Inside the body a piece begins only at a line that opens a row (``ROW_LINE``), except those in
    ``avoid``: the first body row (the header keeps it) and the rows of nested tables."""

    start: int
    body_start: int
    end: int
    avoid: tuple[int, ...]


def find_html_tables(text: str, start: int, in_code: Callable[[int], bool]) -> list[HtmlTable]:
    """The tables of ``text`` from ``start`` on whose ``<table`` tag opens a line (after up to
    three spaces) outside code (``in_code``); tables inline in a paragraph or a pipe-table cell are
    left to their block."""
    return [_table(text, first, last) for first, last in _spans(text, start, in_code)]


def _spans(text: str, start: int, in_code: Callable[[int], bool]) -> Iterator[tuple[int, int]]:
    """``(line start, end)`` of each outermost table, in order.

    Tags are paired like brackets in one scan; an opening tag left unpaired is an unclosed table,
    which ends at its first blank line. Tables never overlap, so those searches for a blank line
    cover disjoint stretches and the cost stays linear however many tables are unclosed."""
    opening: list[int] = []
    open_tags: list[int] = []
    end_of: dict[int, int] = {}
    for tag in _TABLE_TAG.finditer(text, start):
        if in_code(tag.start()):
            continue
        if tag.group(1) != "/":
            open_tags.append(tag.start())
            opening.append(tag.start())
        elif opening:
            end_of[opening.pop()] = _line_end_after(text, tag.end())
    previous_end = start
    for at in open_tags:
        line_start = _opening_line(text, at)
        if at < previous_end or line_start < 0:
            continue
        end = end_of.get(at)
        if end is None:
            blank = _BLANK_LINE.search(text, at)
            end = blank.start() + 1 if blank else len(text)
        yield line_start, end
        previous_end = end


def _table(text: str, start: int, end: int) -> HtmlTable:
    """Only the header and nested tables (rare) are read tag by tag; rows are told apart from
    the other lines by ``ROW_LINE`` when the packer cuts, so a big table costs no list of lines."""
    first_row = _first_body_row(text, start, end)
    nested = Spans(_inner_tables(text, start, end))
    rows = [
        match.start()
        for match in _ROW_LINES.finditer(text, _line_start(text, first_row), end)
        if match.end() - len("<tr") >= first_row
    ]
    top_level = [row for row in rows if not nested.hold(row)]
    body_start = top_level[0] if top_level else end
    header = (match.start() for match in _LINE_START.finditer(text, start + 1, body_start))
    inner_rows = (row for row in rows if nested.hold(row))
    return HtmlTable(start, body_start, end, (*header, body_start, *inner_rows))


def _first_body_row(text: str, start: int, end: int) -> int:
    """Where the row holding the first data cell (``<td>``) opens; the rows before it are the
    header. ``end`` when no row holds data."""
    cell = _DATA_CELL.search(text, start, end)
    if cell is None:
        return end
    rows = [row.start() for row in _ROW_OPEN.finditer(text, start, cell.start())]
    return rows[-1] if rows else cell.start()


def _inner_tables(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the tables nested in the table ``[start, end)``."""
    spans: list[tuple[int, int]] = []
    depth, opened = 0, -1
    for tag in _TABLE_TAG.finditer(text, start, end):
        depth += -1 if tag.group(1) == "/" else 1
        if depth == 2 and tag.group(1) != "/":
            opened = tag.start()
        elif depth == 1 and tag.group(1) == "/" and opened >= 0:
            spans.append((opened, tag.end()))
            opened = -1
    return spans


def _opening_line(text: str, tag: int) -> int:
    """The start of the line that ``tag`` opens after up to three spaces, else -1. Looks back
    four characters at most: a long line full of inline tables costs no rescans."""
    before = text[max(0, tag - 4) : tag]
    newline = before.rfind("\n")
    if newline < 0 and tag > len(before):
        return -1
    indent = before[newline + 1 :]
    return tag - len(indent) if not indent.strip(" ") else -1


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end_after(text: str, position: int) -> int:
    """The start of the line after the one holding ``position`` (or the end of the text)."""
    newline = text.find("\n", position)
    return len(text) if newline < 0 else newline + 1
