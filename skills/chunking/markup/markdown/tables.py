"""Markdown's tables, as containers cut only between rows, each piece reopening the header:
GFM pipe tables (a header line with a pipe, then a delimiter row; rows run to a blank line or
a line without a pipe) and HTML tables (as Document Intelligence writes them, ``html_tables``).

>>> table = pipe_tables("| a | b |\\n|---|---|\\n| 1 | 2 |\\n", 0, Spans([]))[0]
>>> table.start, table.body_start, table.end
(0, 20, 30)
"""

from __future__ import annotations

import re

from skills.chunking.markup.html_tables import ROW_KEY, ROW_LINE, find_html_tables
from skills.chunking.outline import Container, Spans

# A pipe table row's first cell, with its pipes ("| `name` |", "name |"; "\|" escapes a pipe).
# Possessive: the leading blanks and the cell never trade characters, which on a row of tabs
# made each match quadratic in the row.
_ROW_KEY = re.compile(r"[ \t]*+(?:\|(?:\\.|[^|\\\n])*+|(?:\\.|[^|\\\n])++)\|")
# A table is found by its delimiter row ("|---|:--:|", "--- | ---"), the line after its header.
_DELIMITER_ROW = re.compile(r"\n(?= {0,3}(?:\|[ \t]*:?-|:?-+:?[ \t]*\|))")
_TABLE_DELIMITER = re.compile(r" {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_BLANKS = re.compile(r"[ \t]+")
_DASHES = re.compile(r"-+")


def html_tables(text: str, start: int, opaque: Spans) -> list[Container]:
    """HTML tables from ``start`` on, outside the ``opaque`` spans (code blocks). A table
    holding a fenced code block (Markdown in a cell) is left as blocks: containers never nest,
    and the code block's own rule matters more."""
    found = []
    for table in find_html_tables(text, start, opaque.hold):
        if opaque.first_start_after(table.start) < table.end:
            continue
        reopen = text[table.start : table.body_start] if table.body_start < table.end else ""
        found.append(
            Container(
                table.start, table.body_start, table.end, reopen, table.avoid, ROW_LINE, ROW_KEY
            )
        )
    return found


def pipe_tables(text: str, start: int, opaque: Spans) -> list[Container]:
    """Pipe tables from ``start`` on, outside the ``opaque`` spans (code blocks, HTML tables)."""
    found: list[Container] = []
    table_end = -1
    for match in _DELIMITER_ROW.finditer(text, max(start - 1, 0)):
        header_end = match.start()
        header_start = text.rfind("\n", 0, header_end) + 1
        if opaque.hold(header_end) or header_start < max(start, table_end):
            continue
        header = text[header_start:header_end]
        if "|" in header and header.strip():
            table = _pipe_table(text, header_start, header_end)
            table_end = header_start if table is None else table.end
            found.extend([table] if table is not None else [])
    return found


def _pipe_table(text: str, start: int, header_end: int) -> Container | None:
    """The table whose header is ``text[start:header_end]``, if a delimiter row follows it."""
    delimiter_end = _line_end(text, header_end + 1)
    delimiter = text[header_end + 1 : delimiter_end]
    if "-" not in delimiter or not _TABLE_DELIMITER.match(delimiter):
        return None
    body = min(delimiter_end + 1, len(text))
    end = body
    while end < len(text):  # rows run to a blank line or a line without a pipe
        row_end = _line_end(text, end)
        row = text[end:row_end]
        if "|" not in row or not row.strip():
            break
        end = min(row_end + 1, len(text))
    reopen = compact_header(text[start:header_end], delimiter)
    return Container(start, body, end, reopen, (header_end + 1, body), row_key=_ROW_KEY)


def compact_header(header: str, delimiter: str) -> str:
    """A pipe table's header and delimiter rows as every piece of the table reopens them: without
    the padding that aligns the columns in a text editor, each delimiter cell ``---`` (its colons
    kept). The padding says nothing, and a model that reads each dash as a word piece (the local
    all-MiniLM-L6-v2, 256 of them) saw nothing past a 400-dash delimiter row: every piece of
    axios' error-code table embedded as its header alone. The piece's own text is not touched.

    >>> compact_header("| Code    | Definition       |", "| :------ | ---------------: |")
    '| Code | Definition |\\n| :--- | ---: |\\n'
    """
    cells = _DASHES.sub("---", _BLANKS.sub(" ", delimiter.strip()))
    return _BLANKS.sub(" ", header.strip()) + "\n" + cells + "\n"


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end
