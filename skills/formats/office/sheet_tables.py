"""A sheet's rows as the tables people drew on it: which row is a table's header, and which rows
are a title, a caption or notes around it.

Rows are cut into runs at blank rows. In a run, the header is the first row that spans the
table: it reaches the last column most rows reach (a wide one may stop short by a tenth of its
width: helper columns without a name) and has a cell of its own in each column they fill (a
crosstab's empty top-left corner allowed), and most of its cells are words. Rows above it
are text before the table; rows under the data that fill under half of the header's cells, in
words, are text after it. A header under a row of cells merged across columns ("Sales" over
"2023 | 2024") takes that row's words as a prefix ("Sales 2023 | Sales 2024"); only a row made
of merged cells is such a group row (notes above a table that happen to merge a cell are text).
A run of at most three single-cell rows of words before another run is a caption, and a run
whose rows are single cells and ranges merged across columns (a title over captions, a box of
merged lines) is text. A run with no header row is a table with an empty header row (numbers
from its first row on, rows counted 1, 2, 3 from the first, or the rest of a table after a blank
row): data never becomes a header. Tables set side by side past an empty column are cut apart
when they fill different rows or when the right one repeats the left one's header.

"Own" cells decide (what each cell holds); the table shows the cells with merged ranges filled
from their first cell, so a merged category names every row it spans. A merged row is a group
row only when its names are short (at most six words: a merged note is text) and it is not one
cell over the whole header (that is the table's title). A table shows only the columns some row
fills: the columns a range merged across columns covers after its first are left out where no
row has a cell of its own there ("Foglio" merged over B:D is one column, not three), and so is a
column empty in every row (a margin column A).

>>> rows = [Row(1, ["BUDGET"]), Row(3, ["Item", "Cost"]), Row(4, ["Rent", "1200"])]
>>> print("\\n\\n".join(tables(rows)))
BUDGET
<BLANKLINE>
| Item | Cost |
| --- | --- |
| Rent | 1200 |
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import zip_longest

from skills.formats.markdown_text import plain, table

_NUMBERISH = re.compile(r"[-+($€£¥]*[\d.,:/% -]+[)%]?|TRUE|FALSE")
#: a merged cell of more words is a note or a title, not the name of a group of columns
MAX_GROUP_WORDS = 6
#: a header cell of more words is a note (a header merged down over several rows holds names)
MAX_NAME_WORDS = 12


@dataclass(frozen=True, slots=True)
class Row:
    """One non-empty row: its number in the sheet, its cells as displayed (merged ranges filled
    from their first cell), each cell's own value (``own``, default: the same), and whether a
    merged range spans columns from this row."""

    number: int
    cells: list[str]
    own: list[str] = field(default_factory=list)
    spans: bool = False
    starts: frozenset[int] = frozenset()  # columns (0-based) where a merged range begins
    joined: frozenset[int] = frozenset()  # columns (0-based) a range covers right of its first
    row: int = 0  # its row in the sheet (``number`` skips rows that only continue merges)
    down: int = 0  # the last sheet row a range merged down from this row reaches (0: none)

    @property
    def mine(self) -> list[str]:
        return self.own or self.cells

    @property
    def group_header(self) -> bool:
        """A row of merged group names ("Sales" over "2023 | 2024"): one range spans columns,
        and every cell of its own is the first of a merged range."""
        mine = self.mine
        names = [c for c in mine if c.strip()]
        return (
            self.spans
            and all(i in self.starts for i, c in enumerate(mine) if c.strip())
            and all(len(name.split()) <= MAX_GROUP_WORDS for name in names)
        )

    def covers(self, header: Row) -> bool:
        """One merged cell over the header's first column and most of the others: the table's
        title, not a group of its columns. A group leaves the first column (the rows' names)
        to itself ("Sales" over B:C beside "Region"); a title may stop short of a column added
        after it was set ("Timesheet" merged over A:E above a header of A:F)."""
        filled = [i for i, c in enumerate(header.cells) if c.strip()]
        mine = [i for i, c in enumerate(self.mine) if c.strip()]
        if len(mine) != 1 or not filled:
            return False
        value = self.mine[mine[0]]
        under = [i for i in filled if i < len(self.cells) and self.cells[i] == value]
        return filled[0] in under and 2 * len(under) > len(filled)


def tables(rows: list[Row]) -> list[str]:
    """The sheet's tables and the text around them, as Markdown blocks."""
    blocks: list[str] = []
    runs = [part for run in _runs(rows) for part in _side_by_side(run)]
    for index, run in enumerate(runs):
        if (index + 1 < len(runs) and _caption(run)) or _bands(run):
            blocks.append(_text(run))
            continue
        fields = _labelled_fields(run)
        if fields:  # a form's labels over their values, before (or instead of) a table
            blocks.append(_text(run[:fields]))
            run = run[fields:]
            if not run:
                continue
        run = _merged_header(run)
        start = _header_index(run)
        if start is None:  # numbers from the first row on, or a table going on after a blank
            keep = _columns(run)
            blocks.append(table([[""] * len(keep), *(_only(_once(r), keep) for r in run)]))
            continue
        if start == 0 and _form(run):
            blocks.append(_text(run))
            continue
        if _priced(run[start:]):  # a block's first data row under its title: no header
            if start:
                blocks.append(_text(run[:start]))
            notes = _notes(run[start], run[start + 1 :])
            data = run[start : len(run) - len(notes)]
            keep = _columns(data)
            blocks.append(table([[""] * len(keep), *(_only(_once(r), keep) for r in data)]))
            if notes:
                blocks.append(_text(notes))
            continue
        header = run[start].cells
        above = run[:start]
        notes_above: list[str] = []
        while above and not above[-1].covers(run[start]):
            grouped = _group_names(above[-1])
            if grouped is None:
                break
            names, remarks = grouped
            header = _joined(names, header)  # "Sales" merged over "2023 | 2024"
            notes_above = remarks + notes_above  # and "Current" over "Phase 1" over "# | %"
            above = above[:-1]
        if above:
            blocks.append(_text(above))
        if notes_above:
            blocks.append(plain("\n".join(notes_above)))
        body = run[start + 1 :]
        if not body and _filled(run[start].mine) == 1:
            blocks.append(plain(" ".join(c for c in header if c.strip())))  # a lone label
            continue
        notes = _notes(run[start], body)
        data = body[: len(body) - len(notes)]
        keep = _columns([run[start], *data])
        blocks.append(table([_only(header, keep), *(_only(_once(r), keep) for r in data)]))
        if notes:
            blocks.append(_text(notes))
    return blocks


def _group_names(row: Row) -> tuple[list[str], list[str]] | None:
    """A row of group names over the header: each column's group name (its cells) and the notes
    merged among them, or ``None`` when the row is not one. A group row is made of merged
    cells of short names; one whose merged cells are short names beside a longer note ("The
    most important values ..." over A:G, "dec2bin" over I:N, "dec2hex" over W:AB) names the
    columns under the short ones, and its note is text before the table.

    >>> row = Row(1, ["A long note over the inputs here", "A long note over the inputs here",
    ...               "", "dec2bin", "dec2bin"], spans=True, starts=frozenset({0, 3}),
    ...           joined=frozenset({1, 4}), own=["A long note over the inputs here", "", "",
    ...                                          "dec2bin", ""])
    >>> _group_names(row)
    (['', '', '', 'dec2bin', 'dec2bin'], ['A long note over the inputs here'])
    """
    if row.group_header:
        return row.cells, []
    mine = row.mine
    own = [(i, c) for i, c in enumerate(mine) if c.strip()]
    if not row.spans or len(own) < 2 or any(i not in row.starts for i, _ in own):
        return None
    short = [c for _, c in own if len(c.split()) <= MAX_GROUP_WORDS]
    notes = [c for _, c in own if len(c.split()) > MAX_GROUP_WORDS]
    if not short or not notes:
        return None
    names = [c if len(c.split()) <= MAX_GROUP_WORDS else "" for c in row.cells]
    return names, notes


def _merged_header(run: list[Row]) -> list[Row]:
    """The run with a header merged down over several rows made one row: at the top of the run
    (under title lines of one cell), a row of words whose ranges are merged down into the rows
    below, those rows (and the rows their own ranges reach) holding words only. Each column's
    header is its names from the top down, each once: "Caloric contribution" merged over
    B1:B4 above "(%)" is "Caloric contribution (%)". Data merged down (a category beside its
    rows) never is such a block: the block must open the table."""
    top = 0
    while top < len(run) and _filled(run[top].mine) <= 1 and run[top].down <= run[top].row:
        top += 1
    if top == len(run) or run[top].down <= run[top].row or not _words(run[top]):
        return run
    end, last = run[top].down, top
    while last + 1 < len(run) and run[last + 1].row <= end and _words(run[last + 1]):
        last += 1
        end = max(end, run[last].down)
    if last == top or (last + 1 < len(run) and run[last + 1].row <= end):
        return run
    block = run[top : last + 1]
    width = max(len(r.cells) for r in block)
    cells = [
        " ".join(dict.fromkeys(c for r in block if (c := _at(r.cells, i).strip())))
        for i in range(width)
    ]
    joined = frozenset(i for i in range(width) if not any(_names(r, i) for r in block))
    merged = Row(block[0].number, cells, [], False, block[0].starts, joined, block[0].row)
    return [*run[:top], merged, *run[last + 1 :]]


def _names(row: Row, column: int) -> bool:
    """Whether the row names ``column`` itself: a cell of its own there that neither continues
    a range merged across columns nor opens one (a group's name, "Balance" merged over F:I,
    names the columns under it, not the spacer column F it starts in)."""
    opens = column in row.starts and column + 1 in row.joined
    return bool(_at(row.mine, column).strip()) and column not in row.joined and not opens


def _words(row: Row) -> bool:
    """Every cell of the row's own is a name: words ("(%)" too), no figure and no sentence
    (at most 12 words)."""
    return all(
        not (_NUMBERISH.fullmatch(c.strip()) and any(d.isdigit() for d in c))
        and len(c.split()) <= MAX_NAME_WORDS
        for c in row.mine
        if c.strip()
    )


def _at(cells: list[str], index: int) -> str:
    return cells[index] if index < len(cells) else ""


def _runs(rows: list[Row]) -> list[list[Row]]:
    """Rows cut at blank rows."""
    runs: list[list[Row]] = []
    for row in rows:
        if runs and row.number == runs[-1][-1].number + 1:
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def _side_by_side(run: list[Row]) -> list[list[Row]]:
    """The run as the tables set side by side in it, left to right: cut at a column no row
    fills, where the columns on each side (two or more of them) fill different rows (a pivot
    table beside the data it sums, from another row and of another length). A spacer column
    inside one table (every row fills both sides) cuts nothing, nor does a column of labels.

    >>> run = [Row(1, ["Iris", "Kind"]), Row(2, ["5.1", "setosa", "", "Label", "Sum"])]
    >>> run += [Row(3, ["4.9", "setosa", "", "setosa", "10"]), Row(4, ["6.2", "virginica"])]
    >>> [[r.cells for r in part] for part in _side_by_side(run)][1]
    [['Label', 'Sum'], ['setosa', '10']]
    """
    width = max(len(r.cells) for r in run)
    filling: list[list[int]] = [[] for _ in range(width)]  # each column's rows, by number
    for r in run:
        for i, cell in enumerate(r.cells):
            if cell.strip():
                filling[i].append(r.number)
    used = [bool(rows) for rows in filling]
    groups: list[list[int]] = []
    for i in range(width):
        if used[i] and groups and used[i - 1]:
            groups[-1].append(i)
        elif used[i]:
            groups.append([i])
    by_number = {r.number: r for r in run}
    names = _HeaderNames(by_number)
    parts: list[list[int]] = []
    filled: list[set[int]] = []  # the rows each part fills
    for group in groups:
        rows = {number for i in group for number in filling[i]}
        if parts and not _apart(by_number, parts[-1], filled[-1], group, rows, names):
            parts[-1].extend(group)
            filled[-1] |= rows
        else:
            parts.append(list(group))
            filled.append(rows)
    if len(parts) < 2:
        return [run]
    sides = [_columns_of(run, part[0], part[-1] + 1) for part in parts]
    return [piece for side in sides for piece in _runs(side)]


def _apart(
    rows: dict[int, Row],
    left: list[int],
    rows_left: set[int],
    right: list[int],
    rows_right: set[int],
    names: _HeaderNames | None = None,
) -> bool:
    """Whether two blocks of columns (``left`` and ``right``, filling these rows) are two tables:
    each two columns or more and two rows or more, filling different rows: neither's rows all
    the other's, or the fewer rows one block of the other's (a shorter table beside a longer
    one). Columns filled in scattered rows of a table (an optional address beside every name)
    are the same table. Blocks filling the same rows are two tables when the right one's header
    repeats the left one's names (four league tables side by side, each POS | TEAM | P ...), or
    when both are boxes of merged bands (a "Functions Used" list beside another). The rows of
    each column are found once per run (``_side_by_side``): a look at every row of the left
    block for each block to its right made a sheet's columns cost their number cubed (400
    one-cell rows, each a column further right: 2 s).

    >>> rows = {n: Row(n, ["Iris", "Kind", "", "Label", "Sum"]) for n in range(1, 5)}
    >>> every = {1, 2, 3, 4}
    >>> _apart(rows, [0, 1], every, [3, 4], {2, 3}), _apart(rows, [0, 1], every, [3, 4], {2, 4})
    (True, False)
    """
    if min(len(left), len(right), len(rows_left), len(rows_right)) < 2:
        return False
    names = names or _HeaderNames(rows)
    if names.repeated(min(rows_left), left, rows[min(rows_right)], right):
        return True
    if _banded(rows, rows_right, right) and _banded(rows, rows_left, left):
        return True
    fewer, more = sorted((rows_left, rows_right), key=len)
    if not fewer <= more:
        return True
    low, high = min(fewer), max(fewer)
    block = sum(1 for number in more if low <= number <= high)
    return len(fewer) < len(more) and block == len(fewer)


class _HeaderNames:
    """The header names of the rows a block to the left starts at, each row read once: the left
    block grows as blocks that are not apart join it, and its header was read again over all
    its columns for each block to its right (4,000 blocks of three columns under merged labels:
    35 s). A left block's names are its first row's cells between its first and last columns
    (the columns between its groups are empty in every row)."""

    def __init__(self, rows: dict[int, Row]) -> None:
        self._rows = rows
        self._read: dict[int, tuple[list[int], list[int], dict[str, list[int]]]] = {}

    def repeated(
        self, left_first: int, left: list[int], right_first: Row, right: list[int]
    ) -> bool:
        """Whether the right block's header (its first row's cells) repeats the left one's
        names (the left block's first row, ``left_first``): at least two, and two thirds of its
        own. A block whose first row is one name ("2023" and "2024" each merged over Q1 | Q2)
        has no such header: the group names tell its columns apart, and the blocks are one table.

        >>> row = Row(1, ["POS", "TEAM", "", "POS", "TEAM"])
        >>> _HeaderNames({1: row}).repeated(1, [0, 1], row, [3, 4])
        True
        """
        mine = _header_names(right_first, right)
        if len(mine) < 2:
            return False
        filled, words, at = self._row(left_first)
        width = len(filled) - 1
        low, high = min(left[0], width), min(left[-1] + 1, width)
        count, worded = filled[high] - filled[low], words[high] - words[low]
        if count < 2 or worded * 2 <= count:
            return False  # (no header of two names or more, mostly words: ``_header_names``)
        shared = [name for name in mine if _within(at.get(name, []), low, high)]
        return len(shared) >= 2 and len(shared) * 3 >= len(mine) * 2

    def _row(self, number: int) -> tuple[list[int], list[int], dict[str, list[int]]]:
        """Running counts of the row's names and of those that are words, and each name's
        columns."""
        if number not in self._read:
            filled, words = [0], [0]
            at: dict[str, list[int]] = {}
            for i, cell in enumerate(self._rows[number].mine):
                name = cell.strip()
                filled.append(filled[-1] + bool(name))
                words.append(words[-1] + bool(name and not _NUMBERISH.fullmatch(name)))
                if name:
                    at.setdefault(name, []).append(i)
            self._read[number] = filled, words, at
        return self._read[number]


def _within(columns: list[int], low: int, high: int) -> bool:
    """A column of the sorted ``columns`` is in ``low:high``."""
    at = bisect.bisect_left(columns, low)
    return at < len(columns) and columns[at] < high


def _header_names(row: Row, columns: list[int]) -> list[str]:
    """The row's cells in ``columns``, when they are two names or more (else none)."""
    cells = [c.strip() for i in columns if (c := _at(row.mine, i)).strip()]
    return cells if len(cells) >= 2 and _texty(cells) else []


def _banded(rows: dict[int, Row], filled: set[int], columns: list[int]) -> bool:
    """Whether every row filling the block holds one range merged across all its columns (a box
    of lines, each a band over the block's width)."""
    first, rest = columns[0], set(columns[1:])
    return bool(filled) and all(
        first in r.starts and rest <= r.joined and _filled(_only(r.mine, columns)) == 1
        for r in (rows[number] for number in sorted(filled))
    )


def _columns_of(run: list[Row], start: int, end: int) -> list[Row]:
    """The run's rows cut to the columns ``start:end`` (0-based), rows left empty dropped."""
    cut = []
    for r in run:
        cells = r.cells[start:end]
        if not any(c.strip() for c in cells):
            continue
        starts = frozenset(i - start for i in r.starts if start <= i < end)
        joined = frozenset(i - start for i in r.joined if start <= i < end)
        own = r.own[start:end] if r.own else []
        cut.append(
            Row(r.number, cells, own, r.spans and bool(joined), starts, joined, r.row, r.down)
        )
    return cut


def _bands(run: list[Row]) -> bool:
    """A run of titles and captions, not a table: no row has two cells of its own but in ranges
    merged across columns within their row, and some row has such a range ("Part A" over
    captions each merged over the table under it, or a box of lines each merged across the
    box). A range merged down as well is a block of the sheet, not a line."""
    spanning = [r for r in run if r.spans]
    return (
        bool(spanning)
        and all(r.down <= r.row for r in spanning)
        and all(_filled(r.mine) <= 1 or r.group_header for r in run)
    )


def _caption(run: list[Row]) -> bool:
    """A title or a few lines of text above the next table: at most three rows of one cell of
    words each."""
    return len(run) <= 3 and all(_filled(r.mine) == 1 and _texty(r.mine) for r in run)


def _header_index(run: list[Row]) -> int | None:
    """The index of the run's header row (``None``: no row of the run is one). A wide header
    may stop short of the last columns its rows reach, by a tenth of their width: BMW's price
    list names 69 of its 70 columns, the last one a helper without a name."""
    if len(run) == 1:
        return 0 if _texty(run[0].mine) else None
    usual_width = Counter(len(r.mine) for r in run).most_common(1)[0][0]
    usual_filled = Counter(_filled(r.mine) for r in run).most_common(1)[0][0]
    used = sorted({i for r in run for i, c in enumerate(r.mine) if c.strip()})  # no margin
    for index, row in enumerate(run[: max(1, len(run) - 1)]):
        cells = row.mine
        gaps = [i for i in used if not _at(cells, i).strip()]
        full = _filled(cells) >= usual_filled or gaps == used[:1]  # a crosstab's empty corner
        if len(cells) >= usual_width - usual_width // 10 and full:
            grouped = index > 0 and run[index - 1].group_header  # years under "Sales"
            if index == 0 and _numbered(run):
                return None  # "1 | alpha" over "2 | beta": rows counted from the first
            return index if _texty(cells) or grouped else None
    return None


def _numbered(run: list[Row]) -> bool:
    """The run's first column counts from its first row on (1, 2, 3 ...) and the first row's
    other cells are of the kind of the cells under them (no name over a column of figures): its
    rows are numbered items, the first of them no header ("0 | Name | Age" over "1 | Ann | 32"
    is a header over a counted index).

    >>> _numbered([Row(1, ["1", "alpha"]), Row(2, ["2", "beta"]), Row(3, ["3", "gamma"])])
    True
    >>> _numbered([Row(1, ["0", "Age"]), Row(2, ["1", "32"]), Row(3, ["2", "41"])])
    False
    """
    column = min((i for r in run for i, c in enumerate(r.mine) if c.strip()), default=0)
    firsts = [_at(r.mine, column).strip() for r in run[:3]]
    if len(firsts) < 3 or not all(f.isdigit() for f in firsts):
        return False
    counted = [int(f) for f in firsts] == list(range(int(firsts[0]), int(firsts[0]) + 3))
    top, under = run[0].mine, run[1].mine
    width = max(len(top), len(under))
    return counted and all(_figure(_at(top, i)) == _figure(_at(under, i)) for i in range(width))


def _form(run: list[Row]) -> bool:
    """Two rows of labels beside their values, a figure under a figure (a Gantt chart's
    "PROJECT TITLE | Banking Service Development | GROUP NUMBER | 3" over "GROUP MEMBER |
    ... | DATE | 3/12/18"): a form's fields, text, not a table whose header is its first row.

    >>> _form([Row(1, ["Title", "Plan", "Group", "3"]), Row(2, ["Member", "Ann", "Date", "3/1"])])
    True
    >>> _form([Row(1, ["Name", "Age"]), Row(2, ["Ann", "32"])])
    False
    """
    if len(run) != 2:
        return False
    top, under = run[0].mine, run[1].mine
    width = max(len(top), len(under))
    kinds = all(_figure(_at(top, i)) == _figure(_at(under, i)) for i in range(width))
    return kinds and any(_figure(_at(top, i)) for i in range(width))


def _labelled_fields(run: list[Row]) -> int:
    """How many rows at the top of the run are a form's fields: a row of labels (at least half
    of its cells of its own end with a colon, as forms write their labels; title lines of one
    cell above it go with it) and the rows under it that fill no more cells than it does, the
    values, each a field's few words. They are text, never the header of a table: one that
    follows them begins at the first row wider than the labels. An invoice's "FROM: | BILL
    TO:" over two addresses is a form, no table; a timesheet's "EMPLOYEE ID:" beside the
    name, over "E001", sits above the header "DATE | LOGIN TIME | LOGOUT TIME | TOTAL HOURS"
    (round office-9). A header writes its names without colons, and a list of references
    under "# | References:" is a table (its values are sentences).

    >>> _labelled_fields([Row(1, ["FROM:", "BILL TO:"]), Row(2, ["Company XYZ", "ABC Co."])])
    2
    >>> _labelled_fields([Row(1, ["ID:", "Ann"]), Row(2, ["E1"]), Row(3, ["Date", "In", "Out"])])
    2
    >>> _labelled_fields([Row(1, ["Name", "Age"]), Row(2, ["Ann", "32"])])
    0
    """
    top = 0
    while top < len(run) - 1 and _filled(run[top].mine) <= 1:
        top += 1
    labels = [c.strip() for c in run[top].mine if c.strip()]
    if not labels or 2 * sum(c.endswith((":", "：")) for c in labels) < len(labels):
        return 0
    end = top + 1
    while end < len(run) and _filled(run[end].mine) <= len(labels):
        end += 1
    values = [c for row in run[top + 1 : end] for c in row.mine]
    return end if all(len(c.split()) <= MAX_NAME_WORDS for c in values) else 0


def _priced(run: list[Row]) -> bool:
    """The first row holds an amount as figures are shown ("$3,250.00", "4.75%", "1,234")
    in a column of figures: it is the first data row, no header (a budget block's
    "Mortgage | $3,250.00 | Joint checking" under its title); a header names such columns.

    >>> _priced([Row(1, ["Mortgage", "$3,250.00"]), Row(2, ["Electric", "$120.00"])])
    True
    >>> _priced([Row(1, ["Region", "2024"]), Row(2, ["North", "1,250.00"])])
    False
    """
    top = run[0].mine
    below = run[1:4]
    return any(
        _AMOUNT.search(cell) and _figure(cell) and all(_figure(_at(r.mine, i)) for r in below)
        for i, cell in enumerate(top)
        if cell.strip()
    )


#: a figure shown as an amount: a currency sign, decimals, a per cent sign or grouped thousands
_AMOUNT = re.compile(r"[$€£¥]\s*\d|\d\.\d|\d\s*%|\d,\d{3}")


def _figure(cell: str) -> bool:
    return bool(_NUMBERISH.fullmatch(cell.strip())) and any(d.isdigit() for d in cell)


def _notes(header: Row, body: list[Row]) -> list[Row]:
    """The rows after the data that fill under half of the header's cells, in words (notes
    written below a table), when data rows stand above them."""
    wanted = _held(header)
    end = len(body)
    while end > 1 and _held(body[end - 1]) * 2 < wanted and _texty(body[end - 1].mine):
        end -= 1
    return body[end:]


def _held(row: Row) -> int:
    """The cells the row shows, a range merged across columns counted once: its own cells and
    the categories merged down into it from rows above (so the last rows of a merged category
    are data, not notes), while a note merged across the row stays one cell."""
    return sum(1 for i, c in enumerate(row.cells) if c.strip() and i not in row.joined)


def _joined(upper: list[str], lower: list[str]) -> list[str]:
    """Group names before the names under them, once ("Region" merged down both rows)."""
    return [
        " ".join(dict.fromkeys(part for part in (up.strip(), low.strip()) if part))
        for up, low in zip_longest(upper, lower, fillvalue="")
    ]


def _columns(rows: list[Row]) -> list[int]:
    """The columns (0-based) the table shows: those where some row has a cell that is not empty
    and not the continuation of a range merged across columns (so a range merged over B:D is one
    column, and a column left empty, such as a margin column A, is none).

    >>> _columns([Row(1, ["", "Sheet", "Sheet", "Text"], joined=frozenset({2}))])
    [1, 3]
    """
    width = max((len(row.cells) for row in rows), default=0)
    return [
        i
        for i in range(width)
        if any(i < len(r.cells) and r.cells[i].strip() and i not in r.joined for r in rows)
    ]


def _once(row: Row) -> list[str]:
    """A data row's cells with a range merged across columns written once, in its first column
    (a totals label merged over the item columns, "TOTAL:" over B:E beside the sums, is one
    label, not four); a category merged down still names each row, in its first column.

    >>> _once(Row(9, ["TOTAL:", "TOTAL:", "TOTAL:", "3,255"], joined=frozenset({1, 2})))
    ['TOTAL:', '', '', '3,255']
    """
    return [c if i not in row.joined else "" for i, c in enumerate(row.cells)]


def _only(cells: list[str], keep: list[int]) -> list[str]:
    return [cells[i] if i < len(cells) else "" for i in keep]


def _text(rows: list[Row]) -> str:
    return plain("\n".join(" ".join(c for c in row.mine if c.strip()) for row in rows))


def _filled(cells: list[str]) -> int:
    return sum(1 for c in cells if c.strip())


def _texty(cells: list[str]) -> bool:
    """Most of the row's filled cells are words, not numbers or dates."""
    filled = [c for c in cells if c.strip()]
    words = [c for c in filled if not _NUMBERISH.fullmatch(c.strip())]
    return bool(filled) and len(words) * 2 > len(filled)
