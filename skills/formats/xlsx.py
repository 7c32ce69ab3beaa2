"""Excel (.xlsx) to the engine's Markdown: one page per sheet, each a heading and a table.

A sheet becomes ``# <sheet name>`` and a pipe table of its used cells (formulas as their cached
values), whose first non-empty row is the header, so every child cut from a long sheet repeats
it. Empty rows and the empty columns after the last used one are left out. Sheets are separated
by Document Intelligence's page markers (a chunk's pages are its sheets' numbers). The workbook
is read as a stream (openpyxl's read-only mode), and at most ``Limits.max_cells`` cells are read:
the rest is left out with a warning rather than holding a huge sheet in memory. The deadline is
checked on every row, so a wide sheet stops where the time ran out, with a warning.
"""

from __future__ import annotations

import io
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    out_of_time,
    stopped_at,
    titled,
)
from skills.formats.markdown_text import heading, table


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
            rows, budget, read = _rows(sheet, budget, limits)
            body = table(rows) if rows else "(empty sheet)"
            pages.append(f'{heading(1, sheet.title)}\n\n{body}\n\n<!-- PageNumber="{number}" -->')
            if limits.expired():
                warnings.append(stopped_at(f"{read} rows of sheet {sheet.title!r}"))
                break
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


def _rows(sheet: Any, budget: int, limits: Limits) -> tuple[list[list[Any]], int, int]:
    """The sheet's non-empty rows, trimmed of trailing empty cells, the cells left, and how many
    rows were read: up to the deadline, checked on every row (one row may hold 16,384 cells).

    The sheet's declared size is ignored (``reset_dimensions``): openpyxl would pad every row to
    it, and a file may declare 16,384 columns for a few cells."""
    rows: list[list[Any]] = []
    read = 0
    sheet.reset_dimensions()
    for values in sheet.iter_rows(values_only=True):
        if limits.expired():
            break
        read += 1
        budget -= len(values)
        cells = list(values)
        while cells and (cells[-1] is None or str(cells[-1]).strip() == ""):
            cells.pop()
        if cells:
            rows.append(cells)
        if budget <= 0:
            break
    return rows, budget, read
