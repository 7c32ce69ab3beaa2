"""Tables of a PDF page from its aligned cells, as Markdown pipe tables.

A text layer has no table, only lines whose words stand apart (``pdf_lines``: a line's cells,
where PDFium's runs of text are over an em apart; the lines beside a line of cells are looked at
in full, so a header of long narrow words joins its rows). Three lines or more in a row that
have two cells or more, with no gap of three lines' height between two of them (two tables one
under the other) and not mostly in a monospaced font (code with aligned comments), are a table
when they share columns: the rows with the most cells (at least two of them, and most rows)
give the columns, the columns do not overlap, every cell of every row
falls in a column of its own, and the first row, the header, holds no figure. Anything else (a
wrapped cell, a row whose cells straddle two columns, a two-column page of prose) stays lines of
text: a table made wrong splits its rows from their header, which is worse than none.

A table that ends a page (nothing but furniture after it) and whose rows go on at the top of the
next page, as many columns and no header of their own (figures in the first row), is written on
that page under the same header: each page's part stays its own pipe table (a page break marker
cannot stand inside one), and every part's rows keep their header.

>>> from skills.formats.pdf_lines import Line, Page
>>> def row(i, *cells):
...     spans = tuple((100.0 * n, 100.0 * n + 40, c) for n, c in enumerate(cells))
...     return Line(0, " ".join(cells), 10, 400, False, True, 20.0 * i, 0, True, spans)
>>> lines = (row(0, "Code", "Team"), row(1, "E1", "api"), row(2, "E2", "queue"))
>>> page = Page(0, lines, 9, False, False)
>>> tables(page, set())
{0: (3, [['Code', 'Team'], ['E1', 'api'], ['E2', 'queue']])}
"""

from __future__ import annotations

import re

from skills.formats.pdf_headings import Key
from skills.formats.pdf_lines import Line, Page

_NUMBER = re.compile(r"^[-–+(]?[\d.,%$€£ ]+\)?$")
_BULLETS = frozenset("•◦▪‣●○■□–-*")
_MIN_ROWS = 3
_ROW_GAP = 3.0  # line heights between two rows, past which they are two tables
_FULL_SHARE = 0.6  # of a table's rows that have all its columns, at least

Table = list[list[str]]


def tables(
    page: Page, skip: set[Key], carried: list[str] | None = None
) -> dict[int, tuple[int, Table]]:
    """First line -> (the line after the table, its rows with the header first). ``carried`` is
    the header of a table that ended the page before: a table that opens this page with rows
    of as many columns and no header of its own continues it, under that header."""
    found: dict[int, tuple[int, Table]] = {}
    kept = [i for i in range(len(page.lines)) if (page.index, i) not in skip]
    run: list[int] = []
    for i in [*kept, None]:
        if i is not None and len(page.lines[i].cells) >= 2:
            if not run or not _apart(page.lines[run[-1]], page.lines[i]):
                run.append(i)
                continue
            _close(page, run, found, carried if run[0] == kept[0] else None)  # a gap: two tables
            run = [i]
            continue
        if run:
            _close(page, run, found, carried if run[0] == kept[0] else None)
        run = []
    return found


def last_header(
    page: Page, skip: set[Key], found: dict[int, tuple[int, Table]]
) -> list[str] | None:
    """The header of the table that ends the page (nothing but furniture after it), if any: the
    next page's table may go on under it."""
    kept = [i for i in range(len(page.lines)) if (page.index, i) not in skip]
    if not kept or not found:
        return None
    start = max(found)
    end, rows = found[start]
    return rows[0] if end == kept[-1] + 1 else None


def _close(
    page: Page, run: list[int], found: dict[int, tuple[int, Table]], carried: list[str] | None
) -> None:
    """The run of lines of cells as a table, when it is one (under ``carried``, when it goes on
    from the page before)."""
    lines = [page.lines[j] for j in run]
    if carried is not None and len(run) >= 1:
        rows = _aligned(lines, len(carried))
        if rows is not None and any(_NUMBER.match(cell) for cell in rows[0]):
            found[run[0]] = (run[-1] + 1, [carried, *rows])  # no header of its own: goes on
            return
    if len(run) >= _MIN_ROWS:
        rows = _aligned(lines)
        if rows is not None:
            found[run[0]] = (run[-1] + 1, rows)


def _apart(above: Line, line: Line) -> bool:
    """Lines further apart than three lines' height: not rows of one table."""
    return line.top - above.top > _ROW_GAP * max(above.size, line.size)


def _aligned(lines: list[Line], continued: int = 0) -> Table | None:
    """The lines' cells as rows of one table, or None when they do not line up; ``continued``:
    the width of the table these rows go on from (their first row is then no header)."""
    if sum(line.mono for line in lines) * 2 > len(lines):
        return None  # code or a terminal's output, its comments aligned: not a table
    width = max(len(line.cells) for line in lines)
    full = [line.cells for line in lines if len(line.cells) == width]
    if continued and width != continued:
        return None
    if not continued and (len(full) < _MIN_ROWS - 1 or len(full) < _FULL_SHARE * len(lines)):
        return None
    columns = [(min(r[j][0] for r in full), max(r[j][1] for r in full)) for j in range(width)]
    if any(columns[j][1] >= columns[j + 1][0] for j in range(width - 1)):
        return None  # columns that overlap: the cells are not aligned
    if not continued and any(_NUMBER.match(cell[2]) for cell in lines[0].cells):
        return None  # a first row of figures is no header: the table's start is not here
    if all(line.cells[0][2] in _BULLETS for line in lines):
        return None  # a list whose bullets stand apart from their items
    rows: Table = []
    for line in lines:
        row = [""] * width
        for left, right, text in line.cells:
            column = max(range(width), key=lambda j: _overlap(left, right, columns[j]))
            if row[column] or _overlap(left, right, columns[column]) <= 0:
                return None  # two cells in one column, or a cell between columns
            row[column] = text
        rows.append(row)
    return rows


def _overlap(left: float, right: float, column: tuple[float, float]) -> float:
    return min(right, column[1]) - max(left, column[0])
