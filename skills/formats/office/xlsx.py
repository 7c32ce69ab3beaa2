"""Excel (.xlsx) to the engine's Markdown: one page per sheet, each a heading and its tables.

A sheet becomes ``# <sheet name>`` and its tables, each under its real header row, with the
title, caption and note rows around it as text (``sheet_tables.py``); every child cut from a
long table repeats the header. Merged ranges are read from the sheet's XML and their value fills
their first cell's columns: a range merged across columns is one cell of the table (its other
columns are left out where no row of the table uses them, and left empty in a data row whose
table uses them: a totals label merged over the item columns is written once), and one merged
down several rows names each of them that holds data of its own (a merged category names every
row it spans; a block of text merged over empty rows, or a long note, is written once). A cell
shows as the sheet displays it (``number_format.py``: ``62.3%``, ``$1,234.50``, ``11-Nov-22``),
formulas as their cached values. Empty rows and the empty columns after the last used one are
left out; the sheet's declared dimension is not trusted (some writers declare ``A1:A1`` over a
whole table). Sheets are separated by Document Intelligence's page markers (a chunk's pages are
its sheets' numbers). The workbook is read as a stream (openpyxl's read-only mode), and at most
``Limits.max_cells`` cells are read: the rest is left out with a warning rather than holding a
huge sheet in memory. The deadline is checked on every row, so a wide sheet stops where the time
ran out, with a warning. A stylesheet openpyxl refuses (xlsx-populate's empty fills) is cut to
its number and cell formats and the workbook read again, with a warning: its looks are lost, not
its cells.
"""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    no_text,
    out_of_time,
    reason,
    stopped_at,
    titled,
)
from skills.formats.markdown_text import heading
from skills.formats.office.number_format import display
from skills.formats.office.part_names import usual_part_names
from skills.formats.office.sheet_tables import Row, tables
from skills.formats.office.strict import as_transitional
from skills.formats.office.xml_numbers import whole


def xlsx_to_markdown(data: bytes, limits: Limits) -> Converted:
    warnings: list[str] = []
    data = as_transitional(usual_part_names(data, limits), "xl/workbook.xml", limits)
    try:
        book = _opened(data)
    except (KeyError, ValueError, TypeError) as exc:
        book = _without_styles(data, exc)
        warnings.append(
            f"the workbook's cell styles cannot be read ({type(exc).__name__}): its number "
            "formats are kept, its fonts, fills and borders (which the index does not use) are not"
        )
    pages: list[str] = []
    budget = limits.max_cells
    try:
        sheets = book.worksheets
        for number, sheet in enumerate(sheets, start=1):
            if limits.expired():
                warnings.append(out_of_time("sheets", number - 1, len(sheets)))
                break
            failed: list[Exception] = []
            rows, budget, read = _rows(sheet, budget, limits, failed)
            body = "\n\n".join(tables(rows)) if rows else "(empty sheet)"
            pages.append(f'{heading(1, sheet.title)}\n\n{body}\n\n<!-- PageNumber="{number}" -->')
            if failed:
                warnings.append(
                    f"sheet {sheet.title!r} could not be read after its row {read} "
                    f"({reason(failed[0])}): the rest of it is not indexed"
                )
            if read > EXCEL_ROWS:
                warnings.append(
                    f"sheet {sheet.title!r} numbers rows past Excel's last ({EXCEL_ROWS:,}): "
                    "they are not indexed"
                )
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
    if not pages and not warnings:  # no sheet at all, or none whose part the package holds
        warnings.append(no_text("workbook"))
    return titled(f"\n\n{PAGE_BREAK}\n\n".join(pages) + "\n", title, warnings)


#: the parts of a stylesheet that say how a cell's value is shown; the rest is its look
_SHOWN = {"numFmts", "cellXfs"}


def _opened(data: bytes) -> Any:
    """The workbook in openpyxl's read-only mode, each sheet's size left unread: openpyxl reads
    it from the sheet's ``<dimension>`` element and, when there is none (some writers leave it
    out), parses the whole sheet for it as the workbook opens, before any deadline can be asked
    (100,000 rows of formatted cells: 15.6 s of 16.7, a given deadline of 1 s notwithstanding).
    The rows are read here as they come, their declared size unused (``reset_dimensions``)."""
    from openpyxl import load_workbook
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    setattr(ReadOnlyWorksheet, "_get_size", _size_unread)  # noqa: B010 (a method of openpyxl's)
    return load_workbook(io.BytesIO(data), read_only=True, data_only=True)


def _size_unread(sheet: Any) -> None:
    """``ReadOnlyWorksheet._get_size`` that reads nothing: the size stays unknown (None)."""


def _without_styles(data: bytes, error: Exception) -> Any:
    """The workbook read again with a stylesheet of its number formats and cell formats alone,
    when the first reading failed on it (xlsx-populate writes empty ``<fill/>`` elements, which
    openpyxl refuses); ConversionError when that is not the trouble."""
    refused = ConversionError(f"not a readable Excel workbook ({type(error).__name__})")
    try:
        rebuilt = _restyled(data)
        if rebuilt is None:
            raise refused
        return _opened(rebuilt)
    except (KeyError, ValueError, TypeError, zipfile.BadZipFile):
        raise refused from None


def _restyled(data: bytes) -> bytes | None:
    """The package with ``xl/styles.xml`` cut to the parts in ``_SHOWN`` (None: it has none
    to cut); every other part copied as a stream, so memory stays that of one block."""
    from lxml import etree

    name = "xl/styles.xml"
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        if name not in source.namelist():
            return None
        root = etree.fromstring(source.read(name), etree.XMLParser(resolve_entities=False))
        cut = [child for child in root if etree.QName(child).localname not in _SHOWN]
        if not cut:
            return None
        for child in cut:
            root.remove(child)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for item in source.infolist():
                if item.filename == name:
                    target.writestr(name, etree.tostring(root, xml_declaration=True))
                    continue
                with source.open(item) as part, target.open(item.filename, "w") as copy:
                    shutil.copyfileobj(part, copy, 1 << 20)
    return out.getvalue()


#: merged ranges read per sheet, at most (a sheet of more is read without filling the rest)
MAX_MERGED_RANGES = 10_000
_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]{1,3})(\d+):([A-Z]{1,3})(\d+)"')
Range = tuple[int, int, int, int]  # first row, first column, last row, last column (1-based)
#: a row's start tag (its attributes) or a cell's value (``<v>``, an inline string's ``<is>``)
_ROW_OR_VALUE = re.compile(rb"<(?:\w+:)?(?:row\b([^>]*)>|v>|v\s[^>]*>|is>)")
_ROW_NUMBER = re.compile(rb'\br="(\d+)"')


#: Excel's last row: openpyxl yields an empty row for every number below a row's, whatever it is
EXCEL_ROWS = 1_048_576
#: empty rows (between the rows a sheet holds) that cost one cell of the budget
EMPTY_ROWS_PER_CELL = 16


def _rows(
    sheet: Any, budget: int, limits: Limits, failed: list[Exception]
) -> tuple[list[Row], int, int]:
    """The sheet's non-empty rows as displayed, trimmed of trailing empty cells, merged ranges
    filled from their first cell, the cells left, and how many rows were read: up to the
    deadline, checked on every row (one row may hold 16,384 cells). A row costs the budget
    its cells as shown (merged ranges filled), and at least one, and one more per merged range
    it is under; an empty row a sixteenth of one, a row of cells that only carry a format too
    (BMW's price workbook formats a sheet down to row 1,048,187 under 581 rows of data: at nine
    cells a row its empty rows ended the budget and warned that the workbook was cut), and rows
    past Excel's last are not read: a range merged over a whole sheet (``A1:XFD1048576``, 9 KB
    of XML) filled 16,384 cells of every row and took 4.7 s and 1.2 GB over 1,000 rows, and a
    row numbered 10**9 after row 1
    ran until the deadline, openpyxl yielding an empty row for each number between. Where
    openpyxl cannot parse what follows (a row numbered ``²``, a merged range ending at a row of
    5,000 digits, which it parses after the last row), the rows read are kept and its error is
    put in ``failed``."""
    rows: list[Row] = []
    read = 0
    if hasattr(sheet, "reset_dimensions"):
        sheet.reset_dimensions()
    ranges, last = _scanned(sheet, limits.expired)
    pending = sorted(ranges, reverse=True)  # popped from the end: by first row
    active: dict[Range, str] = {}
    covered = 0  # rows that only continue ranges merged down from above: no blank rows
    skipped = 0  # empty rows between the rows the sheet holds
    for number, cells in enumerate(_readable(sheet.iter_rows(), failed), start=1):
        if limits.expired():
            break
        read += 1
        if number > EXCEL_ROWS:  # (``read`` says so)
            break
        if last is not None and number > last and not active:  # nothing below to show
            break
        if _valueless(cells) and not active and not (pending and pending[-1][0] <= number):
            # a row openpyxl yields for a row number the sheet skips, or a row of cells that
            # only carry a format: 1/16 of a cell
            skipped += 1
            budget -= skipped % EMPTY_ROWS_PER_CELL == 0
            if budget <= 0:
                break
            continue
        own = [display(getattr(c, "value", None), getattr(c, "number_format", None)) for c in cells]
        while pending and pending[-1][0] == number:
            merged = pending.pop()
            active[merged] = own[merged[1] - 1] if merged[1] <= len(own) else ""
        shown, spans, joined = _filled_from_merges(own, active, number)
        continued = not any(c.strip() for c in own) and any(r[0] < number for r in active)
        starts = frozenset(r[1] - 1 for r in active if r[0] == number)
        down = max(
            (r[2] for r, v in active.items() if r[0] == number < r[2] and v.strip()), default=0
        )
        if active or any(v.strip() for v in shown):
            budget -= max(1, len(cells), len(shown)) + len(active)
        else:  # cells that only carry a format (a sheet formatted down to its last row)
            skipped += 1
            budget -= skipped % EMPTY_ROWS_PER_CELL == 0
        active = {r: v for r, v in active.items() if r[2] > number}
        while pending and pending[-1][0] < number:  # a range above the rows read: none
            pending.pop()
        _trim(own)
        _trim(shown)
        if shown:
            at = number - covered
            mine = own if own != shown else []
            rows.append(Row(at, shown, mine, spans, starts, joined, number, down))
        elif continued:  # a header merged down two rows: its second row does not cut the table
            covered += 1
        if budget <= 0:
            break
    return rows, budget, read


def _valueless(cells: tuple[Any, ...]) -> bool:
    return all(getattr(cell, "value", None) is None for cell in cells)


def _readable(rows: Iterator[Any], failed: list[Exception]) -> Iterator[Any]:
    """The rows openpyxl yields until it meets what it cannot parse (its error in ``failed``):
    errors of the caller's loop body are not caught here, only those of openpyxl's parser."""
    try:
        yield from rows
    except (ValueError, TypeError, KeyError, IndexError) as exc:
        failed.append(exc)


#: a merged value longer than this is a note, not a category: it is not repeated down its rows
MAX_REPEATED_CHARS = 200


def _filled_from_merges(
    own: list[str], active: dict[Range, str], number: int
) -> tuple[list[str], bool, frozenset[int]]:
    """The row with each merged range's value in all its columns, whether a range spans columns
    from this row (a merged header over the row below), and the columns (0-based) a range covers
    right of its first one. Below its first row, a range's value fills a row only when that row
    holds data of its own and the value is short: a category names the rows beside it, while a
    title or a note merged over blank rows is not written again on each of them. A range that
    overlaps one already filled in the row is left out (Excel never writes such ranges; a hostile
    file of thousands, each over the whole sheet, would fill its columns thousands of times)."""
    shown = list(own)
    spans = False
    joined: set[int] = set()
    has_own = any(cell.strip() for cell in own)
    end = 0  # the last column filled by a range of this row
    for (first_row, first, _, last), value in sorted(active.items(), key=lambda r: r[0][1]):
        if first_row < number and not (has_own and len(value) <= MAX_REPEATED_CHARS):
            continue
        if first <= end:
            continue
        end = last
        if len(shown) < last:
            shown.extend([""] * (last - len(shown)))
        for column in range(first, last + 1):
            shown[column - 1] = value
        joined.update(range(first, last))  # 0-based: the columns after the first
        spans = spans or (first_row == number and last > first and bool(value.strip()))
    return shown, spans, frozenset(joined)


def _trim(cells: list[str]) -> None:
    while cells and not cells[-1].strip():
        cells.pop()


def _scanned(sheet: Any, expired: Callable[[], bool]) -> tuple[list[Range], int | None]:
    """The sheet's merged ranges, from its XML (openpyxl's read-only mode does not read them),
    and the last row that holds a value (``None``: not known, a row without its number, rows
    out of order, a tag too long or too many ranges): scanned in blocks, never held whole. Rows
    below the last value are not parsed: a sheet formatted down to its last row (BMW's price
    workbook, 91 MB of empty formatted cells under 581 rows of data) costs a scan of its bytes,
    not a million rows parsed. The scan stops at the deadline (``expired``, asked before each
    block), and the rows' loop then at once, with its warning."""
    source = getattr(sheet, "_get_source", None)
    if source is None:
        return [], None
    found: set[Range] = set()
    rows = _LastValue()
    tail = b""
    with source() as stream:
        while not expired() and (block := stream.read(1 << 20)):
            data = tail + block
            for match in _MERGE.finditer(data):
                a, r1, b, r2 = match.groups()
                first, end = whole(r1, EXCEL_ROWS + 1), whole(r2, EXCEL_ROWS + 1)
                found.add((first or 0, _column(a), end or 0, _column(b)))
            tail = data[-128:]
            rows.feed(block)
            if len(found) >= MAX_MERGED_RANGES:
                rows.last = None
                break
    last = None if expired() else rows.last  # (a scan cut short knows no last row)
    return [r for r in found if r[0] <= r[2] and r[1] <= r[3]], last


class _LastValue:
    """The last row number that holds a value, fed a sheet's XML block by block: each tag is
    read once (from the last ``<`` of a block, what may be a tag not yet whole waits for the
    next block; one of kilobytes makes the last row unknown)."""

    MOST_PENDING = 4096

    def __init__(self) -> None:
        self.row: int | None = None
        self.last: int | None = 0
        self.pending = b""

    def feed(self, block: bytes) -> None:
        if self.last is None:
            return
        data = self.pending + block
        read = 0
        for match in _ROW_OR_VALUE.finditer(data):
            read = match.end()
            if match.group(1) is None:  # a value, in the row opened last
                self.last = None if self.row is None else max(self.last, self.row)
                if self.last is None:
                    return
            else:  # rows out of order are read as openpyxl yields them, to the end
                number = _ROW_NUMBER.search(match.group(1))
                at = whole(number.group(1), EXCEL_ROWS + 1) if number else None
                self.row = None if at is None or (self.row is not None and at < self.row) else at
        cut = data.rfind(b"<", read)  # a tag not yet whole starts at the last '<', if any
        self.pending = data[cut:] if cut >= 0 else b""
        if len(self.pending) > self.MOST_PENDING:
            self.last = None


def _column(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number
