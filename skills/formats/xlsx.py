"""Excel (.xlsx) to the engine's Markdown: one page per sheet, each a heading and a table.

A sheet becomes ``# <sheet name>`` and its tables: runs of non-empty rows, a blank row between
two tables. A table's header is its first row that spans the table (it reaches the last column
most of its rows reach, with at most one cell fewer than they have) and is mostly text; rows
above it (a title, a caption, notes) are written as text before the table, not as its header.
Every child cut from a long table repeats the header. A run whose first row is not such a row
but has the width of the table before it continues that table (a blank row inside a table). A
cell shows as the sheet displays it (``number_format.py``: ``62.3%``, ``$1,234.50``,
``11-Nov-22``), formulas as their cached values. Empty rows and the empty columns after the last
used one are left out; the sheet's declared dimension is not trusted (some writers declare
``A1:A1`` over a whole table). Sheets are separated
by Document Intelligence's page markers (a chunk's pages are its sheets' numbers). The workbook
is read as a stream (openpyxl's read-only mode), and at most ``Limits.max_cells`` cells are read:
the rest is left out with a warning rather than holding a huge sheet in memory.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    out_of_time,
    titled,
)
from skills.formats.markdown_text import heading, plain, table
from skills.formats.number_format import display


def xlsx_to_markdown(data: bytes, limits: Limits) -> Converted:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (KeyError, ValueError, TypeError) as exc:
        raise ConversionError(f"not a readable Excel workbook ({type(exc).__name__})") from None
    warnings: list[str] = []
    pages: list[str] = []
    budget = limits.max_cells
    try:
        sheets = book.worksheets
        for number, sheet in enumerate(sheets, start=1):
            if limits.expired():
                warnings.append(out_of_time("sheets", number - 1, len(sheets)))
                break
            rows, budget = _rows(sheet, budget)
            body = "\n\n".join(_blocks(rows)) if rows else "(empty sheet)"
            pages.append(f'{heading(1, sheet.title)}\n\n{body}\n\n<!-- PageNumber="{number}" -->')
            if budget <= 0:
                warnings.append(
                    f"workbook cut after {limits.max_cells} cells (sheet {sheet.title!r}): the "
                    "rest is not indexed; split the workbook or export its data as CSV"
                )
                break
    finally:
        book.close()
    title = book.properties.title if book.properties is not None else None
    return titled(f"\n\n{PAGE_BREAK}\n\n".join(pages) + "\n", title, warnings)


Row = tuple[int, list[str]]  # the row's number in the sheet, its cells as displayed


def _rows(sheet: Any, budget: int) -> tuple[list[Row], int]:
    """The sheet's non-empty rows as displayed, trimmed of trailing empty cells, and the cells
    left."""
    rows: list[Row] = []
    if hasattr(sheet, "reset_dimensions"):
        sheet.reset_dimensions()
    for number, cells in enumerate(sheet.iter_rows(), start=1):
        budget -= len(cells)
        shown = [
            display(getattr(c, "value", None), getattr(c, "number_format", None)) for c in cells
        ]
        while shown and not shown[-1].strip():
            shown.pop()
        if shown:
            rows.append((number, shown))
        if budget <= 0:
            break
    return rows, budget


def _blocks(rows: list[Row]) -> list[str]:
    """The sheet's tables (and the text above each), as Markdown blocks."""
    blocks: list[str] = []
    previous_width = 0
    runs = _runs(rows)
    for index, run in enumerate(runs):
        if index + 1 < len(runs) and _caption(run):
            blocks.append(
                plain("\n".join(" ".join(c for c in cells if c.strip()) for _, cells in run))
            )
            continue
        start = _header_index(run)
        if start is None and previous_width and _width(run[0][1]) == previous_width:
            blocks.append(_continued(run))
            continue
        if start is None:  # numbers from the first row on: a table without a header
            blocks.append(_continued(run))
            previous_width = max(_width(cells) for _, cells in run)
            continue
        captions = [" ".join(c for c in cells if c.strip()) for _, cells in run[:start]]
        if captions:
            blocks.append(plain("\n".join(captions)))
        body = [cells for _, cells in run[start:]]
        if len(body) == 1 and start == 0 and _filled(body[0]) == 1:
            blocks.append(plain(body[0][-1]))  # a lone cell between tables: a caption
            continue
        notes = _notes(body)
        blocks.append(table(body[: len(body) - len(notes)]))
        if notes:
            blocks.append(
                plain("\n".join(" ".join(c for c in cells if c.strip()) for cells in notes))
            )
        previous_width = max(_width(cells) for cells in body)
    return blocks


def _caption(run: list[Row]) -> bool:
    """A title or a few lines of text above the next table: at most three rows of one cell of
    words each."""
    return len(run) <= 3 and all(_filled(cells) == 1 and _texty(cells) for _, cells in run)


def _runs(rows: list[Row]) -> list[list[Row]]:
    """Rows cut at blank rows."""
    runs: list[list[Row]] = []
    for row in rows:
        if runs and row[0] == runs[-1][-1][0] + 1:
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def _header_index(run: list[Row]) -> int | None:
    """The index of the run's header row: the first that spans the table's usual width and is
    mostly text (``None``: no row of the run is one)."""
    if len(run) == 1:
        return 0 if _texty(run[0][1]) else None
    widths = Counter(_width(cells) for _, cells in run)
    usual_width = widths.most_common(1)[0][0]
    usual_filled = Counter(_filled(cells) for _, cells in run).most_common(1)[0][0]
    for index, (_, cells) in enumerate(run[: max(1, len(run) - 1)]):
        gaps = [i for i, c in enumerate(cells) if not c.strip()]
        full = _filled(cells) >= usual_filled or gaps == [0]  # a crosstab's empty corner
        if _width(cells) >= usual_width and full:
            return index if _texty(cells) else None
    return None


def _notes(body: list[list[str]]) -> list[list[str]]:
    """The rows after the table's data that fill under half of its header's cells (notes
    written below a table), when the table has data rows above them."""
    if len(body) < 3:
        return []
    wanted = _filled(body[0])
    end = len(body)
    while end > 2 and _filled(body[end - 1]) * 2 < wanted and _texty(body[end - 1]):
        end -= 1
    return body[end:]


def _continued(run: list[Row]) -> str:
    """A table without a header of its own (numbers from its first row, or the rest of the
    table above after a blank row): its header row is empty rather than a row of data."""
    return table([[""] * _width(run[0][1]), *[cells for _, cells in run]])


def _width(cells: list[str]) -> int:
    return len(cells)


def _filled(cells: list[str]) -> int:
    return sum(1 for c in cells if c.strip())


def _texty(cells: list[str]) -> bool:
    """Most of the row's filled cells are words, not numbers or dates."""
    filled = [c for c in cells if c.strip()]
    words = [c for c in filled if not _NUMBERISH.fullmatch(c.strip())]
    return bool(filled) and len(words) * 2 > len(filled)


_NUMBERISH = re.compile(r"[-+($€£¥]*[\d.,:/% -]+[)%]?|TRUE|FALSE")
