"""How often a chunk set breaks the structure a reader needs, judged from the source text alone.

Three shares of leaves, from a small Markdown and reStructuredText scan of our own (independent
of the engine's parsers, so the engine cannot grade itself):

- *mid-sentence*: the chunk ends inside a line and not after sentence punctuation;
- *cut code*: the chunk holds part of a code block but not all of it;
- *headerless rows*: the chunk holds a table row but neither the table's header line nor (in its
  embedded text) a copy of its words: in order, however its padding, borders or HTML tags were
  written (a wide header may be repeated as its column names alone).

It also counts table rows cut inside their line (``rows_cut``), the worst case: half a row, and
*avoidable* cuts: code blocks and rows cut although they would fit in the set's largest leaf.
Code blocks are Markdown fences, and reStructuredText literal blocks (the indented lines after a
line ending with ``::``) and code directives (``.. code-block::`` and its kin: their indented
body). Tables are pipe tables; HTML tables whose ``<table>`` tag opens a line (Document
Intelligence's; a row runs from ``<tr>`` to ``</tr>``, over lines or not, and a first row of
``<th>`` cells is the header); and reStructuredText grid tables (a row runs between two border
lines, the header above the ``+===+`` border) and simple tables (a row is a line with text in the
first column and the lines after it without; the header lies between the first two borders).
Indented Markdown code blocks are not detected: telling them from a list item's continuation
needs a list-aware parser, and the scan is meant to stay small.

>>> text = "| a | b |\\n|---|---|\\n| 1 | 2 |\\n| 3 | 4 |\\n"
>>> scan(text).tables[0].header
(0, 9)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from skills.evaluation.chunksets import Leaf

_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_SENTENCE_END = ".!?:;)]}\"'`*|>"
_HTML_TABLE = re.compile(r" {0,3}<table[\s>]", re.IGNORECASE)
_HTML_TABLE_TAG = re.compile(r"<(/?)table[\s>]", re.IGNORECASE)
_HTML_ROW_TAG = re.compile(r"<(/?)(table|tr)[\s>]", re.IGNORECASE)
_GRID_BORDER = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_GRID_ROW = re.compile(r"^\s*[|+]")
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:[ \t]+=+)+\s*$")
_TAG = re.compile(r"<[^>]*>")
_WORD_RUN = re.compile(r"\w+")
_DIRECTIVE = re.compile(r"^\s*\.\.\s+[\w:.+-]+::")
_CODE_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:code-block|code|sourcecode|doctest|testcode)::")


@dataclass(frozen=True, slots=True)
class Table:
    """A table: its header and its body rows, as ``(start, end)`` spans (lines of a pipe table,
    ``<tr>`` elements of an HTML one; an HTML table without ``<th>`` has an empty header)."""

    header: tuple[int, int]
    rows: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Structure:
    """Fenced code blocks (from the opening fence to the end of the closing one) and tables."""

    code_blocks: tuple[tuple[int, int], ...]
    tables: tuple[Table, ...]


def lines_with_offsets(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each line, without its newline."""
    spans: list[tuple[int, int]] = []
    start = 0
    for line in text.split("\n"):
        spans.append((start, start + len(line)))
        start += len(line) + 1
    return spans


@cache
def scan(text: str) -> Structure:
    """Fenced code blocks, pipe tables and HTML tables of a Markdown document."""
    lines = lines_with_offsets(text)
    code: list[tuple[int, int]] = []
    tables: list[Table] = []
    index = 0
    while index < len(lines):
        start, end = lines[index]
        line = text[start:end]
        fence = _FENCE.match(line)
        if fence and not _underlines(text, lines, index):
            closing = _closing_fence(text, lines, index, fence.group(1))
            code.append((start, lines[closing][1]))
            index = closing + 1
            continue
        if _HTML_TABLE.match(line):
            closing = _closing_table(text, lines, index)
            tables.append(_html_table(text, start, lines[closing][1]))
            index = closing + 1
            continue
        table_end = _table_end(text, lines, index)
        if table_end > index:
            rows = tuple(lines[index + 2 : table_end + 1])
            tables.append(Table(header=lines[index], rows=rows))
            index = table_end + 1
            continue
        rst_table = _rst_table(text, lines, index)
        if rst_table is not None:
            tables.append(rst_table[0])
            index = rst_table[1]
            continue
        rst_code = _rst_code(text, lines, index)
        if rst_code is not None:
            code.append(rst_code[0])
            index = rst_code[1]
            continue
        index += 1
    return Structure(tuple(code), tuple(tables))


def _line(text: str, lines: list[tuple[int, int]], index: int) -> str:
    return text[lines[index][0] : lines[index][1]]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _rst_code(
    text: str, lines: list[tuple[int, int]], index: int
) -> tuple[tuple[int, int], int] | None:
    """A literal block or code directive body introduced by line ``index``, and the index of the
    line after it."""
    line = _line(text, lines, index)
    literal = line.rstrip().endswith("::") and not _DIRECTIVE.match(line)
    if not (literal or _CODE_DIRECTIVE.match(line)):
        return None
    body = index + 1
    while body < len(lines) and (
        not _line(text, lines, body).strip() or _line(text, lines, body).lstrip().startswith(":")
    ):
        body += 1  # blank lines and a directive's options
    if body >= len(lines) or _indent(_line(text, lines, body)) <= _indent(line):
        return None
    last = body
    for after in range(body, len(lines)):
        following = _line(text, lines, after)
        if following.strip() and _indent(following) <= _indent(line):
            break
        if following.strip():
            last = after
    return (lines[body][0], lines[last][1]), last + 1


def _rst_table(text: str, lines: list[tuple[int, int]], index: int) -> tuple[Table, int] | None:
    """A grid or simple table starting at line ``index``, and the index of the line after it."""
    line = _line(text, lines, index)
    if _GRID_BORDER.match(line):
        return _grid_table(text, lines, index)
    if _SIMPLE_BORDER.match(line):
        return _simple_table(text, lines, index)
    return None


def _grid_table(text: str, lines: list[tuple[int, int]], index: int) -> tuple[Table, int]:
    last = index
    while last + 1 < len(lines) and _GRID_ROW.match(_line(text, lines, last + 1)):
        last += 1
    borders = [i for i in range(index, last + 1) if _GRID_BORDER.match(_line(text, lines, i))]
    heads = [i for i in borders if "=" in _line(text, lines, i)]
    header = (lines[index + 1][0], lines[heads[0] - 1][1]) if heads else _no_header(lines, index)
    rows = tuple(
        (lines[above + 1][0], lines[below - 1][1])
        for above, below in itertools.pairwise(borders)
        if below > above + 1 and (not heads or above >= heads[0])
    )
    return Table(header=header, rows=rows), last + 1


def _simple_table(text: str, lines: list[tuple[int, int]], index: int) -> tuple[Table, int] | None:
    """Rows run to the next line with text in the first column; the table ends at a border
    followed by a blank line (two blank lines in a row end an unclosed one: not a table)."""
    borders = [index]
    for i in range(index + 1, len(lines)):
        if _SIMPLE_BORDER.match(_line(text, lines, i)):
            borders.append(i)
            if i + 1 >= len(lines) or not _line(text, lines, i + 1).strip():
                break
        elif i + 1 < len(lines) and not (_line(text, lines, i) + _line(text, lines, i + 1)).strip():
            return None
    if len(borders) < 2:
        return None
    headed = len(borders) > 2
    header = (lines[index + 1][0], lines[borders[1] - 1][1]) if headed else _no_header(lines, index)
    body = range(borders[1] + 1 if headed else index + 1, borders[-1])
    starts = [i for i in body if i not in borders and _line(text, lines, i)[:1].strip()]
    rows = []
    for start, stop in zip(starts, [*starts[1:], borders[-1]], strict=True):
        last = max(i for i in range(start, stop) if _line(text, lines, i).strip())
        rows.append((lines[start][0], lines[last][1]))
    return Table(header=header, rows=tuple(rows)), borders[-1] + 1


def _no_header(lines: list[tuple[int, int]], index: int) -> tuple[int, int]:
    """An empty header at the table's start: no row can lack it."""
    return (lines[index][0], lines[index][0])


def _underlines(text: str, lines: list[tuple[int, int]], index: int) -> bool:
    """Whether a ``~~~`` line is a reStructuredText title's underline: right under a line of text
    no longer than itself, rather than a Markdown fence."""
    line = text[lines[index][0] : lines[index][1]].rstrip()
    if index == 0 or not line or line.strip("~"):
        return False
    above = text[lines[index - 1][0] : lines[index - 1][1]].rstrip()
    return bool(above.strip()) and len(above) <= len(line)


def _closing_fence(text: str, lines: list[tuple[int, int]], opening: int, marker: str) -> int:
    for index in range(opening + 1, len(lines)):
        line = text[lines[index][0] : lines[index][1]].strip(" \t>")
        if line.startswith(marker[0] * len(marker)) and not line.strip(marker[0]):
            return index
    return len(lines) - 1  # an unclosed fence runs to the end of the document


def _closing_table(text: str, lines: list[tuple[int, int]], opening: int) -> int:
    """Index of the line that closes the HTML table opened at ``opening``; an unclosed table ends
    before its first blank line."""
    depth = 0
    for index in range(opening, len(lines)):
        line = text[lines[index][0] : lines[index][1]]
        for tag in _HTML_TABLE_TAG.finditer(line):
            depth += -1 if tag.group(1) else 1
        if depth <= 0:
            return index
    for index in range(opening + 1, len(lines)):
        if not text[lines[index][0] : lines[index][1]].strip():
            return index - 1
    return len(lines) - 1


def _html_table(text: str, start: int, end: int) -> Table:
    """The rows of the outermost table only: a table nested in a cell is part of its row."""
    rows: list[tuple[int, int]] = []
    depth, opened = 0, -1
    for tag in _HTML_ROW_TAG.finditer(text, start, end):
        closing = tag.group(1) == "/"
        if tag.group(2).lower() == "table":
            depth += -1 if closing else 1
        elif depth == 1 and not closing:
            opened = tag.start()
        elif depth == 1 and opened >= 0:
            rows.append((opened, text.find(">", tag.start()) + 1))
            opened = -1
    first = text[rows[0][0] : rows[0][1]].lower() if rows else ""
    if "<th" in first and "<td" not in first:
        return Table(header=rows[0], rows=tuple(rows[1:]))
    return Table(header=(start, start), rows=tuple(rows))


def _table_end(text: str, lines: list[tuple[int, int]], header: int) -> int:
    """Index of the last row of a table whose header line is ``header``, or ``header`` if none."""
    if header + 1 >= len(lines):
        return header
    head = text[lines[header][0] : lines[header][1]]
    delimiter = text[lines[header + 1][0] : lines[header + 1][1]]
    if "|" not in head or not _DELIMITER_ROW.match(delimiter) or "|" not in delimiter:
        return header
    last = header + 1
    while last + 1 < len(lines) and "|" in text[lines[last + 1][0] : lines[last + 1][1]]:
        last += 1
    return last


def ends_mid_sentence(text: str, end: int) -> bool:
    """Whether a chunk ending at ``end`` stops inside a line, after no sentence punctuation.

    >>> ends_mid_sentence("One two. Three four.", 8), ends_mid_sentence("One two. Three", 12)
    (False, True)
    """
    if end >= len(text) or text[end - 1] == "\n" or re.match(r"[ \t]*(\n|$)", text[end:]):
        return False
    before = text[:end].rstrip()
    return not before or before[-1] not in _SENTENCE_END


def cuts(block: tuple[int, int], start: int, end: int) -> bool:
    """Whether ``[start, end)`` holds part, but not all, of ``block``."""
    overlaps = start < block[1] and block[0] < end
    return overlaps and not (start <= block[0] and block[1] <= end)


def _words(text: str) -> str:
    """The words of ``text`` outside HTML tags, space-separated and padded with a space, so that
    one text's words are in another's, in order, when the first is a substring of the second.

    >>> _words("| Name   | Type |") in _words("path\\n\\n<th>Name</th><th>Type</th>\\n| x | y |")
    True
    """
    return " " + " ".join(_WORD_RUN.findall(_TAG.sub(" ", text))) + " "


def leaf_flags(text: str, leaf: Leaf) -> tuple[bool, bool, bool, int]:
    """(mid-sentence, cut code, headerless rows, rows cut inside their line) of one leaf."""
    structure = scan(text)
    start, end = leaf.span.start, leaf.span.end
    cut_code = any(cuts(block, start, end) for block in structure.code_blocks)
    headerless = False
    rows_cut = 0
    for table in structure.tables:
        held = [row for row in table.rows if row[0] < end and start < row[1]]
        if not held:
            continue
        rows_cut += sum(1 for row in held if cuts(row, start, end))
        header = _words(text[table.header[0] : table.header[1]])
        has_header = start <= table.header[0] and table.header[1] <= end
        if not has_header and header.strip() and header not in _words(leaf.embed_text):
            headerless = True
    return ends_mid_sentence(text, end), cut_code, headerless, rows_cut


def cut_elements(text: str, leaf: Leaf) -> set[tuple[int, int]]:
    """Code blocks and table rows of which the leaf holds a part, not all."""
    structure = scan(text)
    start, end = leaf.span.start, leaf.span.end
    elements = [*structure.code_blocks, *(row for t in structure.tables for row in t.rows)]
    return {element for element in elements if cuts(element, start, end)}


def fragmentation(
    leaves: Sequence[Leaf], documents: Mapping[str, str], tokens: Callable[[str], int]
) -> dict[str, float]:
    """Shares (percent of leaves), rows cut inside their line, and *avoidable* cuts.

    A cut is avoidable when the code block or row is no longer (in ``tokens``) than the largest
    leaf of the set: the chunker could have kept it whole and did not. Elements longer than every
    leaf have to be cut by any chunker of that size.
    """
    flags = [leaf_flags(documents[leaf.span.doc], leaf) for leaf in leaves]
    count = max(len(flags), 1)
    largest = max((tokens(leaf.embed_text) for leaf in leaves), default=0)
    cut = {
        (leaf.span.doc, element)
        for leaf in leaves
        for element in cut_elements(documents[leaf.span.doc], leaf)
    }
    avoidable = [1 for doc, (start, end) in cut if tokens(documents[doc][start:end]) <= largest]
    return {
        "mid_sentence_pct": 100 * sum(f[0] for f in flags) / count,
        "cut_code_pct": 100 * sum(f[1] for f in flags) / count,
        "headerless_rows_pct": 100 * sum(f[2] for f in flags) / count,
        "rows_cut": float(sum(f[3] for f in flags)),
        "avoidable_cuts": float(len(avoidable)),
    }
