"""Tables of a PDF page from its aligned cells, as Markdown pipe tables.

A text layer has no table, only lines whose words stand apart (``pdf.lines``: a line's cells,
where its words are over an em apart) and lines set beside or under each other. A table is
rebuilt from their geometry, in four steps:

1. **Runs**: the page's lines in PDFium's order, cut where the next line is three lines' height
   below the run or climbs more than eight lines back up (the next column of the page, or a
   table set beside this one). A climb of a few lines is a row written cell by cell (LaTeX
   writes each ``p{}`` cell of a row in turn).
2. **Columns**: the run's pieces (a line's cells, each on its own baseline, or the line
   itself) are put on visual lines by their baselines; the visual lines with two pieces or more
   give the columns (the x-ranges more than a tenth of them cover: a name that runs into the
   next column joins nothing). A line that straddles two columns (a note, a paragraph of
   prose), stands alone, reads as a caption (``Table 3: ...``) or as a section's heading (a
   number and a title, bold or larger than the run's type: ``4 | Results`` under a table) is no
   part of a table: it cuts the run, and each part is looked at again.
3. **Rows**: in a ruled table (the page's thin wide paths: two rules or more across most of
   it, as many as three in five first-column lines) the lines between two rules are a row.
   Else a visual line with a piece in the first column opens a row; the lines under it with
   nothing in the first column are its cells' next lines (a wrapped cell), joined into the
   same cell. Where rows stand further apart than a row's own lines and the first column wraps
   too (``ggsearch36/`` over ``glsearch36``), a first-column line right under another one goes
   on with its row instead. Lines above the first row's first column (a header set
   bottom-aligned over three lines, or centred half a line higher) belong to the header; a full
   line above, over an empty corner, is a header row of its own.
4. **Checks**, to keep lines as lines when unsure (a table made wrong cuts its rows from their
   header, which is worse than none): three rows or more (two under a ``Table N`` caption),
   the first (the header) without
   figures or numbered items, every row with two cells or more (a bold or colon label between
   two tables cuts them; a group's name, set between two rules across the table or bold over
   plain rows, is a row of its own, its name in the first cell), rows in PDFium's order
   (boxes of a flowchart, written one after the other, are not), not a list whose bullets
   stand apart, not labels with colons and their values, not a header naming one thing twice,
   not a form (small labels over larger values), not a numbered listing or code (the last
   column monospaced, lines ending ``;`` ``{`` ``}``; but columns typed under a header of
   words, three or more and no comment in them, are a table: a register table in Courier),
   not prose set in two columns (every column's pieces five words long or more). A first row
   with a sentence in it (five words or more and a full stop) is no header but a list's first
   item: the table is written under an empty header.

A cell's lines are joined with a space, a word hyphenated at the line end is joined whole
(``convert.clean`` decides, as for any line), and dot leaders (``Total . . . . . 10,690,561``)
are left out.

A table that ends a page (nothing but furniture after it) and whose rows go on at the top of
the next page in the same columns is written on that page under the same header (each page's
part stays its own pipe table: a page break marker cannot stand inside one): the first rows
of the next page must fit the columns of the table before (as many, at the same places), and
may be words (``es | Spanish``) or figures; a part that repeats the header keeps its own. A
row the page break cut in two (its end opens the next page, first cell empty, in columns whose
cells wrap) is written whole on the page it starts on, and a table too short to write alone
(its header and one row) is written when the next page goes on in its columns
(``page_tables``).

>>> from skills.formats.pdf.lines import Line, Page
>>> def row(i, *cells):
...     spans = tuple((100.0 * n, 100.0 * n + 40, c, 0.0) for n, c in enumerate(cells))
...     return Line(0, " ".join(cells), 10, 400, False, True, 20.0 * i, 0, True, spans)
>>> lines = (row(0, "Code", "Team"), row(1, "E1", "api"), row(2, "E2", "queue"))
>>> page = Page(0, lines, 9, False, False)
>>> tables(page, set())
{0: (3, [['Code', 'Team'], ['E1', 'api'], ['E2', 'queue']])}
"""

from __future__ import annotations

import bisect
import itertools
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from skills.formats.conversion import in_time
from skills.formats.pdf.headings import Key
from skills.formats.pdf.lines import Line, Page

_NUMBER = re.compile(r"^[-–+(]?[\d.,%$€£ ]+\)?$")
_BULLETS = frozenset("•◦▪‣●○■□–-*+")  # (+ and - mark a UML class's members)
_CAPTION = re.compile(r"^(?:Table|Figure|Fig\.|Tab\.|Listing)\s*[\dIVX]+[.:]?\s", re.I)
_TABLE_CAPTION = re.compile(r"^(?:Table|Tab\.)\s*[\dIVX][\d.]*[.:]?\s", re.I)
_SECTION = re.compile(r"^\d+(?:\.\d+)+\.?$")  # 3.2, 5.22.1
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?)$")  # 4, 3.2, A.1
_NUMBERED_TITLE = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?)\s+[A-Z]")
_HEADER_WORDS = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)?")  # ``name``, ``Long option``
_COMMENTS = (";", "#", "//", "/*", "--", "!")
_ITEM = re.compile(r"^(?:\d+\s*[-–.)]|[-–•*]\s)")  # ``1 - NONE``, ``2.``, ``- TOP``
_LEADERS = re.compile(r"(?:\s*\.){3,}\s*$|(?:\s*\.\s+){3,}(?=\s*\S)")
_MIN_ROWS = 3
_TAIL = 6  # a page's last lines looked at for a table too short to write, going on after it
_ROW_GAP = 3.0  # line heights below a run, past which the next line starts another
_CLIMB = 8.0  # line heights back up the page, past which the next line starts another run
_PITCH = 1.25  # of the size: a line pitch, where none is measured
_SAME_LINE = 0.35  # of the size: baselines this close are one visual line
_ROOMY = 1.2  # of the line pitch: a gap this wide or more stands between two rows
_ACROSS = 0.6  # of a table's width: a rule drawn over this much parts two rows
_LINE_BELOW = 0.8  # of the line pitch: a line this far below another is on a line of its own
_PROSE_WORDS = 5  # words per piece (median) in every column: prose in columns, no table

Table = list[list[str]]
Column = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Carried:
    """The header and columns of a table that ended a page: the next page may go on with it."""

    header: list[str]
    columns: list[Column]
    figures: list[bool | None]  # by column: every cell a figure, none, or some
    bold: bool  # the rows under the header were bold
    wraps: list[bool] = field(default_factory=list)  # by column: a cell over two lines or more
    start: int = 0  # the table's first line on its page
    end: int = 0  # the line after it
    rows: Table = field(default_factory=list)  # its rows, header first
    written: bool = True  # False: too short to write alone (its header and one row)


@dataclass(frozen=True, slots=True)
class _Piece:
    """A cell of a line, or the line itself: what stands at one place of a visual line."""

    line: int  # the line's index on the page
    left: float
    right: float
    base: float
    size: float
    text: str
    first: bool  # the line's first piece: the line's font is its font
    mono: bool
    bold: bool
    ruled: tuple[float, float] | None = None  # (x0, x1) of a rule drawn right above its line


def tables(
    page: Page, skip: set[Key], carried: Carried | None = None
) -> dict[int, tuple[int, Table]]:
    """First line -> (the line after the table, its rows with the header first). ``carried``
    is the table that ended the page before: rows at the top of this page in its columns go
    on under its header."""
    kept = [i for i in range(len(page.lines)) if (page.index, i) not in skip]
    found: dict[int, tuple[int, Table]] = {}
    for run in _runs(page.lines, kept):
        go_on = carried if run[0] == kept[0] else None
        for first, end, rows in _run_tables(page.lines, run, kept, go_on, rules=page.rules):
            found[first] = (end, rows)
    return found


def last_header(page: Page, skip: set[Key], found: dict[int, tuple[int, Table]]) -> Carried | None:
    """The table that ends the page (nothing but furniture after it), if any: its header and
    columns, which the next page's first rows may go on in. A table too short to be written
    as one (its header and a single row: the page break came right after it) is carried too,
    and its rows on the next page keep that header."""
    kept = [i for i in range(len(page.lines)) if (page.index, i) not in skip]
    if not kept:
        return None
    ending = [(start, end, rows) for start, (end, rows) in found.items() if end == kept[-1] + 1]
    if not ending and any(page.lines[i].cells for i in kept[-_TAIL:]):
        run = _runs(page.lines, kept)[-1]
        short = _run_tables(page.lines, run, kept, None, least=2, rules=page.rules)
        ending = [table for table in short if table[1] == kept[-1] + 1]
    if not ending:
        return None
    start, end, rows = ending[0]
    kept_set = set(kept)
    lines = [i for i in range(start, end) if i in kept_set]
    pieces = [p for i in lines for p in _pieces(page.lines[i], i)]
    visual = _ruled(_visual_lines(pieces), page.rules)
    columns = _columns([vl for vl in visual if len(vl) >= 2])
    if len(columns) != len(rows[0]):
        return None
    figures = [_figures([row[n] for row in rows[1:]]) for n in range(len(columns))]
    bold = sum(page.lines[i].bold for i in lines[1:]) * 2 > len(lines[1:])
    wraps = _wrapping(visual, columns, rows[0])
    written = start in found
    return Carried(rows[0], columns, figures, bold, wraps, start, end, rows, written)


def _wrapping(
    visual: list[list[_Piece]], columns: list[Column], header: list[str], continued: bool = False
) -> list[bool]:
    """By column: whether a row's cell there (the header's aside) is set over two lines or more."""
    wraps = [False] * len(columns)
    for group in _row_groups(visual, columns, continued):
        if _cells(group, columns) == header:
            continue
        for n in range(len(columns)):
            wraps[n] |= sum(any(_column(p, columns) == n for p in vl) for vl in group) >= 2
    return wraps


def page_tables(
    pages: list[Page], skip: set[Key], expired: Callable[[], bool] = lambda: False
) -> list[dict[int, tuple[int, Table]]]:
    """The tables of every page (see ``tables``), the pages in turn: a table that ends a page
    goes on at the top of the next under its header, and a row the page break cut in two is
    written whole on the page it starts on (see ``_mend``). Raises ``OutOfTime`` when
    ``expired()`` before a page: the caller keeps the pages without tables."""
    found: list[dict[int, tuple[int, Table]]] = []
    carried: Carried | None = None
    for page in pages:
        in_time(expired)
        grids = {} if page.garbage else tables(page, skip, carried)
        if carried is not None and found:
            _mend(found[-1], grids, page, skip, carried)
        found.append(grids)
        carried = None if page.garbage else last_header(page, skip, grids)
    return found


def _mend(
    before: dict[int, tuple[int, Table]],
    grids: dict[int, tuple[int, Table]],
    page: Page,
    skip: set[Key],
    carried: Carried,
) -> None:
    """Join the end of a row the page break cut (the first row going on under the carried
    header, its first cell empty) to the last row of the table before, and write that table
    when it was too short to be written alone: the next page bears it out. The end is a cut
    row's only where each of its cells goes on a cell of the last row in a column whose cells
    wrap (a row of a group, its first cell left empty on purpose, fills columns of one line)."""
    first = next((i for i in range(len(page.lines)) if (page.index, i) not in skip), -1)
    going = grids.get(first)
    if going is None or not carried.rows or not _same_row(going[1][0], carried.header):
        return
    end, rows = going
    at = 2 if len(rows) > 2 and _same_row(rows[1], carried.header) else 1  # a repeated header
    if at + 1 >= len(rows):
        return  # nothing but the cut row's end: left where it is
    tail, last = rows[at], carried.rows[-1]
    filled = [n for n, text in enumerate(tail) if text]
    if tail[0] or not filled or not all(last[n] for n in filled):
        return
    lines = [i for i in range(first, end) if (page.index, i) not in skip]
    pieces = [p for i in lines for p in _pieces(page.lines[i], i)]
    here = _wrapping(_ruled(_visual_lines(pieces), page.rules), carried.columns, [], True)
    if not all(carried.wraps[n] or here[n] for n in filled):
        return
    joined = [_joined([a, b]) if b else a for a, b in zip(last, tail, strict=True)]
    before[carried.start] = (carried.end, [*carried.rows[:-1], joined])
    grids[first] = (end, rows[:at] + rows[at + 1 :])


def _same_row(a: list[str], b: list[str]) -> bool:
    return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))


def _figures(cells: list[str]) -> bool | None:
    """Whether a column's cells are all figures (True), none of them (False), or some."""
    kinds = {bool(_NUMBER.match(cell)) for cell in cells if cell}
    return kinds.pop() if len(kinds) == 1 else None


def _runs(lines: tuple[Line, ...], kept: list[int]) -> list[list[int]]:
    """The kept lines cut into runs: a line far below the run, or far back up, starts another.
    Only runs that may hold a table are kept: a line with cells, or one that does not go down
    the page from the line before (cells written one by one)."""
    runs: list[list[int]] = []
    low = 0.0  # the lowest baseline the last run covers
    for i in kept:
        line = lines[i]
        if runs:
            above = lines[runs[-1][-1]]
            height = max(line.size, above.size)
            if (
                _base(line) - low <= _ROW_GAP * height
                and _base(above) - _base(line) <= _CLIMB * height
            ):
                runs[-1].append(i)
                low = max(low, _bottom(line))
                continue
        runs.append([i])
        low = _bottom(line)
    return [run for run in runs if _may_hold_a_table(lines, run)]


def _may_hold_a_table(lines: tuple[Line, ...], run: list[int]) -> bool:
    return any(lines[i].cells for i in run) or any(
        _base(lines[b]) <= _base(lines[a]) + 0.5 for a, b in itertools.pairwise(run)
    )


def _run_tables(
    lines: tuple[Line, ...],
    run: list[int],
    kept: list[int],
    carried: Carried | None,
    least: int = _MIN_ROWS,
    rules: tuple[tuple[float, float, float], ...] = (),
) -> list[tuple[int, int, Table]]:
    """The tables of one run: (first line, the line after it, rows)."""
    pieces = [piece for i in run for piece in _pieces(lines[i], i)]
    visual = _ruled(_visual_lines(pieces), rules)
    found: list[tuple[int, int, Table]] = []
    going_on = _going_on_part(visual, carried, kept, least) if carried else None
    if going_on is not None:
        found.append(going_on[0])
        visual = going_on[1]
    parts = [p for p in _split(visual, _isolated(visual) + _headings(visual)) if p]
    captioned = {id(visual[k + 1][0]) for k in _table_captions(visual)}
    while parts:
        part = parts.pop(0)
        columns = _columns([vl for vl in part if len(vl) >= 2])
        if len(columns) < 2:
            continue
        straddling = [
            k
            for k, vl in enumerate(part)
            if not _placed(vl, columns) and not _runs_over(part, k, columns)
        ]
        if straddling:
            parts[:0] = [p for p in _split(part, straddling) if p]
            continue
        trimmed = _trimmed(part, columns)
        lone, labels, grouping = _lone(trimmed, columns)
        if lone and not grouping:
            if labels:  # a label between two tables (``Tables:``, ``Rows:``)
                parts[:0] = [p for p in _split(trimmed, lone) if p]
            continue  # else a row of one cell: a label that wraps, a ruled row: unsure
        fewest = min(least, 2) if id(trimmed[0][0]) in captioned else least
        rows = _table(trimmed, columns, None, fewest, grouped=bool(lone))
        if rows is not None and _block(trimmed, kept):
            found.append(_span(trimmed, rows))
    return found


def _going_on_part(
    part: list[list[_Piece]], carried: Carried, kept: list[int], least: int
) -> tuple[tuple[int, int, Table], list[list[_Piece]]] | None:
    """The rows at the top of the part that go on in the columns of the table before, as that
    table (first line, the line after it, rows), and the rest of the part; or None."""
    fitting = [all(_fits(p, carried.columns) for p in vl) for vl in part]  # each in its column
    for k in _headings(part):
        fitting[k] = False  # a section's heading ends the table
    end = fitting.index(False) if False in fitting else len(part)
    head = part[:end]
    own = _columns([vl for vl in head if len(vl) >= 2])
    if not head or not _same_columns(own, carried.columns):
        return None
    trimmed = _trimmed(head, carried.columns, continued=True)
    table = _table(trimmed, carried.columns, carried, least)
    if table is None or not _block(trimmed, kept):
        return None
    return _span(trimmed, table), part[part.index(trimmed[-1]) + 1 :]


def _block(part: list[list[_Piece]], kept: list[int]) -> bool:
    """The part's lines follow each other in PDFium's order (nothing else in between)."""
    used = sorted({p.line for vl in part for p in vl})
    at = kept.index(used[0])
    return kept[at : at + len(used)] == used


def _span(part: list[list[_Piece]], table: Table) -> tuple[int, int, Table]:
    used = [p.line for vl in part for p in vl]
    return min(used), max(used) + 1, table


def _pieces(line: Line, index: int) -> list[_Piece]:
    """The line's cells, or the line itself, as pieces of its visual line (none for a line set
    at an angle: a watermark across the page is no cell)."""
    if line.rotated:
        return []
    cells = (() if _numbered_title(line) else line.cells) or (
        (line.left, line.right or line.left + 0.5 * line.size * len(line.text), line.text, 0.0),
    )
    base, size = _base(line), line.size
    return [
        _Piece(
            index, left, right, base - rise, size, _no_leaders(text), n == 0, line.mono, line.bold
        )
        for n, (left, right, text, rise) in enumerate(cells)
    ]


def _numbered_title(line: Line) -> bool:
    """A section number set apart from its title (``3.2    List of reserved words``): one piece,
    no row of a table (the converter writes the line as a heading)."""
    cells = line.cells
    return len(cells) == 2 and bool(_SECTION.match(cells[0][2])) and cells[1][2][:1].isalpha()


def _base(line: Line) -> float:
    return line.base or line.top + 0.8 * line.size  # lines made without a baseline (tests)


def _bottom(line: Line) -> float:
    """The baseline of the last line the line covers: PDFium joins two lines at a soft hyphen."""
    return _base(line) + line.text.count("\ufffe") * _PITCH * line.size


def _no_leaders(text: str) -> str:
    """A cell's text without its dot leaders: ``Total. . . . .`` -> ``Total``."""
    return _LEADERS.sub("", text).strip() or text


def _visual_lines(pieces: list[_Piece]) -> list[list[_Piece]]:
    """The pieces on the same baseline, top to bottom, each line's pieces left to right."""
    found: list[list[_Piece]] = []
    for piece in sorted(pieces, key=lambda p: (p.base, p.left)):
        if found and piece.base - found[-1][0].base <= _SAME_LINE * piece.size:
            found[-1].append(piece)
        else:
            found.append([piece])
    return [sorted(vl, key=lambda p: p.left) for vl in found]


def _ruled(
    visual: list[list[_Piece]], rules: tuple[tuple[float, float, float], ...]
) -> list[list[_Piece]]:
    """The visual lines, each piece knowing the widest rule drawn between its line and the one
    above (under the descenders above, over the capitals here)."""
    if not rules:
        return visual
    marked: list[list[_Piece]] = []
    for k, vl in enumerate(visual):
        low = visual[k - 1][0].base + 0.2 * vl[0].size if k else -1.0
        high = vl[0].base - 0.7 * vl[0].size
        spans = [(x0, x1) for y, x0, x1 in rules if low < y < high]
        widest = max(spans, key=lambda s: s[1] - s[0], default=None)
        marked.append([replace(p, ruled=widest) for p in vl] if widest else vl)
    return marked


def _columns(rows: list[list[_Piece]]) -> list[Column]:
    """The x-ranges the pieces of the given visual lines cover, where more than a tenth of
    them cover it (a name that runs into the next column does not join the two)."""
    if len(rows) < 2:
        return []
    events = sorted(
        [(p.left, 1) for vl in rows for p in vl] + [(p.right, -1) for vl in rows for p in vl]
    )
    least = len(rows) // 10
    columns: list[list[float]] = []
    depth = 0
    for n, (x, step) in enumerate(events):
        depth += step
        end = events[n + 1][0] if n + 1 < len(events) else x
        if end <= x:
            continue
        if depth > least:
            if columns and columns[-1][1] >= x:
                columns[-1][1] = end
            else:
                columns.append([x, end])
    return [(left, right) for left, right in columns]


def _fits(piece: _Piece, columns: list[Column]) -> bool:
    """The piece stands in one column: over it and no further than halfway to the next (a
    header's word centred over a column of figures may be wider than it; the last column is
    open to the right). A short line of prose beside an empty column goes well past it."""
    first, end = _window(piece, columns)
    over = [n for n in range(first, end) if _overlap(piece, columns[n]) > 0]
    if len(over) != 1:
        return False
    n = over[0]
    left, right = columns[n]
    if n and piece.left < left - (left - columns[n - 1][1]) / 2:
        return False
    return n == len(columns) - 1 or piece.right <= right + (columns[n + 1][0] - right) / 2


def _same_columns(own: list[Column], carried: list[Column]) -> bool:
    """As many columns as the table before, each over the one at its place there."""
    return len(own) == len(carried) and all(
        min(a[1], b[1]) > max(a[0], b[0]) for a, b in zip(own, carried, strict=True)
    )


def _placed(vl: list[_Piece], columns: list[Column]) -> bool:
    """A visual line's pieces stand in the columns: a line alone in one column, a row's cells
    each over a column (a cell may run into the next one, as a long name does)."""
    if len(vl) == 1:
        return _fits(vl[0], columns)
    return all(_overlap(p, columns[_column(p, columns)]) > 0 for p in vl)


def _runs_over(part: list[list[_Piece]], k: int, columns: list[Column]) -> bool:
    """A first cell too long for its column, alone on its line (the producer moved the row's
    other cells to the next line: ``{K/S/U}{I/D}{PAR/PDR}{0..7}`` over ``16 | memory ...``):
    it starts in the first column and ends before the last, a row's line is right above it
    and right under it stand the row's other cells, with nothing in the first column."""
    vl = part[k]
    if len(vl) != 1 or not 0 < k < len(part) - 1 or len(columns) < 3:
        return False
    piece, below = vl[0], part[k + 1]
    first, last = columns[0], columns[-1]
    return (
        first[0] - piece.size <= piece.left <= first[1]
        and piece.right < last[0]
        and _close(vl, below)
        and _close(part[k - 1], vl)
        and len(part[k - 1]) >= 2
        and all(_column(p, columns) > 0 and _placed([p], columns) for p in below)
    )


def _column(piece: _Piece, columns: list[Column]) -> int:
    """The column the piece overlaps most (or, over none, the nearest): one of those it
    overlaps or the one on either side of them, since ``_columns`` are sorted and apart and a
    column further away overlaps less."""
    first, end = _window(piece, columns)
    near = range(max(first - 1, 0), min(end + 1, len(columns)))
    return max(near, key=lambda n: _overlap(piece, columns[n]))


def _window(piece: _Piece, columns: list[Column]) -> tuple[int, int]:
    """The columns (``first`` to ``end``, not included) that reach over the piece's span, found
    by bisection in ``_columns``' sorted, disjoint ranges: looking at every column for every
    piece cost a table of C columns C times its cells (a page of 100 columns and 400 rows took
    8 s). A piece of no width is looked at against every column."""
    if piece.right <= piece.left:
        return 0, len(columns)
    first = bisect.bisect_right(columns, piece.left, key=lambda column: column[1])
    end = bisect.bisect_left(columns, piece.right, key=lambda column: column[0])
    return first, max(first, end)


def _overlap(piece: _Piece, column: Column) -> float:
    return min(piece.right, column[1]) - max(piece.left, column[0])


def _trimmed(
    part: list[list[_Piece]], columns: list[Column], continued: bool = False
) -> list[list[_Piece]]:
    """The part from its first row line to its last, with the lines right above the first (a
    header set over several lines) and right under the last that are a cell's next lines (in a
    later column): a footnote's mark or a line of text under the table is no row of it, nor
    are lines out of the first column after room (``ANEXO I-A-1  Página 12 de 14``)."""
    multi = [k for k, vl in enumerate(part) if len({_column(p, columns) for p in vl}) >= 2]
    if not multi:
        return part
    start, end = multi[0], multi[-1]
    while start > 0 and (continued or _close(part[start - 1], part[start])):
        start -= 1  # (at the top of a page going on, all of it: a row the page break cut)
    while (
        end + 1 < len(part)
        and _close(part[end], part[end + 1])
        and all(_column(p, columns) > 0 for p in part[end + 1])
    ):
        end += 1
    trimmed = part[start : end + 1]
    gaps, pitch = _gaps(trimmed)
    keyed = [any(_column(p, columns) == 0 for p in vl) for vl in trimmed]
    last = max((k for k, key in enumerate(keyed) if key), default=len(trimmed))
    for k in range(max(last + 1, 2), len(trimmed)):
        if gaps[k] >= _ROOMY * pitch:
            return trimmed[:k]  # under the last row, room, then lines: a page's footer
    return trimmed


def _close(above: list[_Piece], below: list[_Piece]) -> bool:
    """Two visual lines one right under the other (no more than a line and a half apart)."""
    hidden = max(p.text.count("\ufffe") for p in above)
    gap = below[0].base - above[0].base - hidden * _PITCH * above[0].size
    return gap <= 1.5 * _PITCH * max(above[0].size, below[0].size)


def _table_captions(visual: list[list[_Piece]]) -> list[int]:
    """Lines that name the table right under them (``Table 5.3 The *.pc file path options``):
    a header and one row under such a caption are a table, too short as they are to tell."""
    return [
        k
        for k, vl in enumerate(visual[:-1])
        if len(vl) == 1 and _TABLE_CAPTION.match(vl[0].text) and _close(vl, visual[k + 1])
    ]


def _isolated(part: list[list[_Piece]]) -> list[int]:
    """Lines alone on their visual line, with room above and below them (a title), or that
    read as a caption (``Table 3: ...``): no part of a table's rows."""
    return [
        k
        for k, vl in enumerate(part)
        if len(vl) == 1
        and (
            _CAPTION.match(vl[0].text)
            or (
                (k == 0 or not _close(part[k - 1], vl))
                and (k == len(part) - 1 or not _close(vl, part[k + 1]))
            )
        )
    ]


def _headings(part: list[list[_Piece]]) -> list[int]:
    """Visual lines set as a section's heading, which no table runs past: a section number and
    its title (``4 | Results``, ``3.2 MPLINK compatibility mode``) bold or larger than the
    part's own type, or a line of one piece larger by a point and a half. The part's type is
    its pieces' middle size and mostly bold or not; a table's bold header row is no heading (no
    number opens it)."""
    pieces = [p for vl in part for p in vl]
    if len(part) < 2:
        return []
    body = statistics.median(p.size for p in pieces)
    bold = 2 * sum(p.bold for p in pieces) > len(pieces)
    found: list[int] = []
    for k, vl in enumerate(part):
        if len({p.line for p in vl}) != 1 or len(vl) > 2:
            continue  # (one line of the page: a heading is written as one)
        larger = all(p.size >= body + 1 for p in vl)
        if not (larger or (not bold and all(p.bold for p in vl))):
            continue
        first = vl[0].text
        numbered = (
            bool(_NUMBERING.match(first)) and vl[-1].text[:1].isalpha()
            if len(vl) == 2
            else bool(_NUMBERED_TITLE.match(first))
        )
        if numbered or (len(vl) == 1 and all(p.size >= body + 1.5 for p in vl)):
            found.append(k)
    return found


def _lone(part: list[list[_Piece]], columns: list[Column]) -> tuple[list[int], bool, bool]:
    """The visual lines of the rows that fill one cell only; whether they all read as labels
    (bold, or ending with a colon): a table, if any, is above or below them; and whether they
    all name a group of the table's rows instead (one line, under the header and over rows:
    set between two rules across the table, or bold without a colon over plain rows)."""
    found: list[int] = []
    labels = grouping = True
    at = 0
    groups = _row_groups(part, columns)
    for n, group in enumerate(groups):
        if _filled(_cells(group, columns)) < 2:
            found.extend(range(at, at + len(group)))
            pieces = [p for vl in group for p in vl]
            colon = pieces[-1].text.endswith(":")
            labels = labels and (all(p.bold for p in pieces) or colon)
            named = len(pieces) == 1 and 0 < n < len(groups) - 1 and not colon
            plain_after = not all(p.bold for vl in groups[n + 1] for p in vl) if named else False
            grouping = (
                grouping
                and named
                and (_between_rules(part, at, columns) or (pieces[0].bold and plain_after))
            )
        at += len(group)
    return found, labels, grouping


def _split(part: list[list[_Piece]], cuts: list[int]) -> list[list[list[_Piece]]]:
    pieces: list[list[list[_Piece]]] = [[]]
    for k, vl in enumerate(part):
        if k in cuts:
            pieces.append([])
        else:
            pieces[-1].append(vl)
    return pieces


def _first_line(part: list[list[_Piece]]) -> int:
    return min(p.line for vl in part for p in vl)


def _table(
    part: list[list[_Piece]],
    columns: list[Column],
    carried: Carried | None,
    least: int,
    grouped: bool = False,
) -> Table | None:
    """The visual lines as rows of one table under ``columns``, or None when unsure. With
    ``grouped``, a row of one cell names a group of rows: its text goes in the first cell."""
    if _code(part, columns):
        return None
    groups = _row_groups(part, columns, carried is not None)
    if not _in_order(groups):
        return None
    rows = [_cells(group, columns) for group in groups]
    if carried is not None:
        return _going_on(rows, part, carried)
    if grouped:
        rows = [row if _filled(row) > 1 else _named(row) for row in rows]
    if len(rows) < least or any(_filled(row) < 2 for row in rows if not grouped or not row[0]):
        return None
    if _filled(rows[0]) < 2:
        return None
    if _figured(rows[0]):
        return None  # a first row of figures is no header: the table's start is not here
    if 2 * sum(bool(_ITEM.match(cell)) for cell in rows[0]) > _filled(rows[0]):
        return None  # numbered or dashed items side by side: a form's choices, no header
    if all(row[0] in _BULLETS or _symbol(row[0]) for row in rows[1:]):
        return None  # a list whose bullets stand apart from their items
    if _listing(rows):
        return None  # a listing, its lines numbered
    if 2 * sum(row[0].endswith(":") for row in rows) > len(rows):
        return None  # labels and their values (``Author: | NRN/NHN Team``), a form's fields
    named = [_squashed(cell) for cell in rows[0] if cell]
    if len(set(named)) < len(named):
        return None  # one name twice in a header: boxes of a diagram side by side
    if _form(part, rows, columns):
        return None
    if _prose(part, columns):
        return None
    if any(_sentence(cell) for cell in rows[0]):
        return [[""] * len(columns), *rows]  # a list without a header: its first row is prose
    return rows


def _form(part: list[list[_Piece]], rows: Table, columns: list[Column]) -> bool:
    """A form: small labels over larger values, row after row (the first row's type comes back
    under rows in another type), where a table's rows are all in one type under its header."""
    sizes = [
        statistics.median(p.size for p in group_pieces)
        for group_pieces in _row_pieces(part, columns)
    ]
    if len(sizes) < 3:
        return False
    body = statistics.mode(sizes[1:])
    return abs(sizes[0] - body) >= 0.5 and any(abs(size - sizes[0]) < 0.5 for size in sizes[1:])


def _row_pieces(part: list[list[_Piece]], columns: list[Column]) -> list[list[_Piece]]:
    return [[p for vl in group for p in vl] for group in _row_groups(part, columns)]


def _in_order(groups: list[list[list[_Piece]]]) -> bool:
    """The rows are written one after the other in PDFium's order: a producer writes a table
    row by row (or a row cell by cell), never back to an earlier row, as it does when it
    writes boxes of text side by side one box after the other (a flowchart, two columns of
    prose): rows found there are lines of different boxes."""
    row_of: dict[int, int] = {}
    for n, group in enumerate(groups):
        for vl in group:
            for piece in vl:
                row_of.setdefault(piece.line, n)
    rows = [row_of[line] for line in sorted(row_of)]
    return all(b >= a for a, b in itertools.pairwise(rows))


def _going_on(rows: Table, part: list[list[_Piece]], carried: Carried) -> Table | None:
    """Rows at the top of a page under the header of the table that ended the page before, or
    None when they are a table of their own: a first row that repeats that header keeps it,
    one that reads as a header (bold over rows that were not, or words in a column of
    figures) starts a new table. The first row may be a row cut by the page break (one cell)."""
    repeated = all(_same(a, b) for a, b in zip(rows[0], carried.header, strict=False))
    data = rows[1:] if repeated else rows
    if not data or _filled(data[0]) < 1 or any(_filled(row) < 2 for row in data[1:]):
        return None
    if repeated:
        return rows
    if all(p.bold for p in part[0]) and not carried.bold:
        return None
    for cell, kind in zip(rows[0], carried.figures, strict=False):
        if cell and kind and not _NUMBER.match(cell):
            return None  # words over a column of figures: a header
    return [carried.header, *rows]


def _row_groups(
    part: list[list[_Piece]], columns: list[Column], continued: bool = False
) -> list[list[list[_Piece]]]:
    """The visual lines grouped into rows (see the module's docstring, step 3). In a table
    going on from the page before (``continued``), lines above the first row's first cell are
    the end of a row the page break cut, a row of their own."""
    keyed = [any(_column(p, columns) == 0 for p in vl) for vl in part]
    gaps, pitch = _gaps(part)
    roomy = [gap >= _ROOMY * pitch for gap in gaps]
    first = keyed.index(True) if any(keyed) else 0
    starts = [k for k in range(first + 1, len(part)) if keyed[k]]  # rows after the first
    spaced = sum(roomy[k] for k in starts)
    wrapped = all(roomy[k] or keyed[k - 1] for k in starts)  # tight only under a first cell
    cells_wrap = not all(keyed[first:])  # (every line a full row: groups of rows set apart)
    by_gaps = spaced >= 2 and 4 * spaced >= len(starts) and wrapped and cells_wrap
    below = bool(first) and gaps[first] >= _LINE_BELOW * pitch  # not a header's centred cell
    if below and any(len(vl) >= 2 for vl in part[:first]):
        first -= 1  # a header row of its own, its first cell empty (a crosstab's corner)
    ruled = _rows_by_rules(part, columns, first)
    if ruled is not None:
        return ruled
    groups: list[list[list[_Piece]]] = [part[: first + 1]]
    if first and not any(keyed[:first]) and (continued or roomy[first]):
        groups = [part[:first], [part[first]]]  # the end of a row, not a header's top
    for k in range(first + 1, len(part)):
        if keyed[k]:
            opens = not (by_gaps and not roomy[k] and keyed[k - 1])  # a wrapped first cell
        else:  # a header takes no line after room
            opens = (len(groups) == 1 and roomy[k]) or _between_rules(part, k, columns)
        if opens:
            groups.append([part[k]])
        else:
            groups[-1].append(part[k])
    return groups


def _rows_by_rules(
    part: list[list[_Piece]], columns: list[Column], first: int
) -> list[list[list[_Piece]]] | None:
    """A ruled table's rows, between the rules drawn across it (two or more under its first
    row's line, each over most of its width, and as many as three in five of the first-column
    lines under it); None for a table not ruled so (a header's rule only, LaTeX's booktabs,
    rules between groups of rows)."""
    cuts = [k for k in range(first + 1, len(part)) if _across(part[k], columns)]
    keyed = [
        k for k in range(first + 1, len(part)) if any(_column(p, columns) == 0 for p in part[k])
    ]
    if len(cuts) < 2 or 5 * len(cuts) < 3 * len(keyed):
        return None  # (rules between groups of rows, not between rows)
    groups: list[list[list[_Piece]]] = [[]]
    for k, vl in enumerate(part):
        if k in cuts:
            groups.append([])
        groups[-1].append(vl)
    return groups


def _across(vl: list[_Piece], columns: list[Column]) -> bool:
    """A rule is drawn right above the visual line over most of the table's width."""
    span, width = vl[0].ruled, columns[-1][1] - columns[0][0]
    return (
        span is not None
        and min(span[1], columns[-1][1]) - max(span[0], columns[0][0]) >= _ACROSS * width
    )


def _between_rules(part: list[list[_Piece]], k: int, columns: list[Column]) -> bool:
    """A line alone between two rules across the table: a row of its own (a group's name,
    ``Node Attributes``, centred over the columns), not a cell's next line."""
    return (
        len(part[k]) == 1
        and k + 1 < len(part)
        and _across(part[k], columns)
        and _across(part[k + 1], columns)
    )


def _gaps(part: list[list[_Piece]]) -> tuple[list[float], float]:
    """The gap above each visual line (from the last line the one above covers: PDFium joins
    two lines at a soft hyphen), and the part's line pitch."""
    hidden = [max(p.text.count("\ufffe") for p in vl) for vl in part]  # lines PDFium joined
    raw = [0.0, *(part[k][0].base - part[k - 1][0].base for k in range(1, len(part)))]
    pitch = _pitch([raw[k] for k in range(1, len(part)) if not hidden[k - 1]], part[0][0].size)
    return [raw[k] - hidden[k - 1] * pitch if k else 0.0 for k in range(len(part))], pitch


def _pitch(gaps: list[float], size: float) -> float:
    """A table's line pitch: the lower quartile of the gaps between its visual lines."""
    real = sorted(gap for gap in gaps if gap >= 0.6 * size)
    return real[len(real) // 4] if real else 1.2 * size


def _cells(group: list[list[_Piece]], columns: list[Column]) -> list[str]:
    cells: list[list[str]] = [[] for _ in columns]
    for vl in group:
        for piece in vl:
            cells[_column(piece, columns)].append(piece.text)
    return [_joined(texts) for texts in cells]


def _joined(texts: list[str]) -> str:
    """A wrapped cell's lines as one: a space between them, none after a soft hyphen (U+FFFE,
    which ``convert.clean`` then resolves) or a hyphen that cut a path or a word
    (``i386-linux-``)."""
    out = ""
    for text in texts:
        cut = out.endswith("\ufffe") or (
            out.endswith("-") and len(out) > 1 and out[-2].isalnum() and text[:1].isalnum()
        )
        out += text if cut or not out else " " + text
    return out


def _named(row: list[str]) -> list[str]:
    """A group's name, alone in its row, moved to the row's first cell."""
    return [" ".join(cell for cell in row if cell), *([""] * (len(row) - 1))]


def _figured(row: list[str]) -> bool:
    """A row that reads as data, not as a header: a figure in its first cell or in a third of
    its cells or more. A spreadsheet printed with the list going on beside its header's names
    (``商品编码 | 数量 | ... | 334010052 | 2.18 | 华联绿豆``) still has its header."""
    figures = sum(bool(_NUMBER.match(cell)) for cell in row if cell)
    return bool(_NUMBER.match(row[0])) or 3 * figures >= _filled(row)


def _sentence(cell: str) -> bool:
    """Five words or more ending in a full stop: a sentence, which no header's cell is."""
    return len(cell.split()) >= _PROSE_WORDS and cell.endswith(".") and not cell.endswith("..")


def _symbol(cell: str) -> bool:
    """One character that is no letter or digit: a bullet of a symbol font (Wingdings' ``!``)."""
    return len(cell) == 1 and not cell.isalnum()


def _filled(row: list[str]) -> int:
    return sum(bool(cell) for cell in row)


def _same(a: str, b: str) -> bool:
    return _squashed(a) == _squashed(b)


def _squashed(text: str) -> str:
    return "".join(text.split()).casefold()


def _listing(rows: Table) -> bool:
    """Rows whose first cells count up from a line number (``1 max,`` ``2 cos,``): a listing."""
    numbers = [re.match(r"\d+", row[0]) for row in rows]
    if not all(numbers):
        return False
    values = [int(n.group()) for n in numbers if n]
    return all(b == a + 1 for a, b in itertools.pairwise(values))


def _code(part: list[list[_Piece]], columns: list[Column]) -> bool:
    """Code or a terminal's output, its comments aligned: the last column's lines in a
    monospaced font (or, where no line starts in it, most lines), or most lines ending as
    statements do (``;``, ``{``, ``}``: a numbered listing in a proportional font). Columns
    typed under a header of words are a table all the same (``_typed_table``)."""
    ends = [vl[-1].text.rstrip().endswith((";", "{", "}")) for vl in part]
    if 2 * sum(ends) > len(ends):
        return True
    last = len(columns) - 1
    known = [p.mono for vl in part for p in vl if p.first and _column(p, columns) == last]
    if not known:
        known = list({p.line: p.mono for vl in part for p in vl}.values())
    return 2 * sum(known) > len(known) and not _typed_table(part, columns)


def _typed_table(part: list[list[_Piece]], columns: list[Column]) -> bool:
    """A table typed in a monospaced font (a manual's register table in Courier, set with
    tabs: ``name | size | comments`` over ``PC | 16 | program counter``), not code: three
    columns or more, the first line a word or two over each of them, and no comment in any
    cell (``;``, ``#``, ``//``: code's comments aligned in a column)."""
    head = part[0]
    if len(columns) < 3 or len({_column(p, columns) for p in head}) != len(columns):
        return False
    if not all(_HEADER_WORDS.fullmatch(p.text) for p in head):
        return False
    return not any(p.text.startswith(_COMMENTS) for vl in part for p in vl)


def _prose(part: list[list[_Piece]], columns: list[Column]) -> bool:
    """Every column holds pieces of five words or more: two columns of prose, not a table."""
    words: list[list[int]] = [[] for _ in columns]
    for vl in part:
        for piece in vl:
            words[_column(piece, columns)].append(len(piece.text.split()))
    return all(column and statistics.median(column) >= _PROSE_WORDS for column in words)
