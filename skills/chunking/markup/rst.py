"""reStructuredText -> ``Outline``: section titles, literal and code blocks, tables, lists.

Sphinx and docutils documents (the docs of Python, CMake and most Python libraries) reach the
skill as text. Read as Markdown they go wrong where the two syntaxes differ: a title underlined
with ``~~~`` opens a code fence that swallows the sections after it, a literal block after ``::``
is cut like prose, and a grid table is a run of lines. This reader follows docutils' rules, as far
as chunking needs them:

- **Section titles**: a line of text under a blank line with an underline, and maybe an overline,
  of one repeated punctuation character, as long as the title (or four characters at least).
  Depth is the order in which each style (character, with or without overline) first appears,
  as docutils assigns it. A line of four or more such characters between blank lines is a
  transition.
- **Literal blocks**: the indented block after a paragraph ending with ``::``, a doctest block
  (``>>>`` lines), and the body of a code directive (``code-block``, ``code``, ``sourcecode``,
  ``doctest``, ...) are code: kept whole while they fit, cut between lines when they alone do
  not; a piece of a code directive reopens its directive line.
- **Tables**: grid tables (``+---+``), simple tables (``===  ===``) and the ``list-table`` and
  ``csv-table`` directives are cut only between rows, and each piece repeats the header's rows
  (without a grid's border lines; a directive's line and options before them).
- **Lists**: bullet, enumerated and field-list items (``:param x:``) are list-item cuts. Every
  other block starts after blank lines. A definition list's term (a paragraph's line followed at
  once by a more indented one) leads into its definition, as a title does: no piece ends after it.

Lines are visited one by one: reStructuredText is indentation-based, and its documents are small.

Example: ``"Title\\n=====\\n\\nText::\\n\\n    code\\n"`` gives the section ``Title`` (depth 1), a
block break before ``Text::`` and a literal block (a container) from ``    code``.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from skills.chunking.levels import Level
from skills.chunking.outline import Container, Outline, OutlineBuilder, SectionTree

#: One punctuation character repeated: a title's underline or overline, or a transition.
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*$")
_GRID_BORDER = re.compile(r"[ \t]*\+(?:[-=]+\+)+[ \t]*$")
_GRID_HEADER_BORDER = re.compile(r"[ \t]*\+(?:=+\+)+[ \t]*$")
_GRID_LINE = re.compile(r"[ \t]*[+|]")
_BORDER = re.compile(r"[ \t]*[-=+][-=+ \t]*$")  # a table's border or column-span rule
_SIMPLE_BORDER = re.compile(r"[ \t]*=+(?:[ \t]+=+)+[ \t]*$")
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+([\w:.+-]+?)::(?:[ \t]|$)")
_EXPLICIT = re.compile(r"[ \t]*\.\.(?:[ \t]|$)")  # a comment, target or footnote
_TARGET = re.compile(r"[ \t]*\.\.[ \t]+_[^\n]*:[ \t]*$")  # ``.. _install:``, not a link's URL
_OPTION = re.compile(r"[ \t]+:[\w-]+:")
_LIST_ITEM = re.compile(
    r"([ \t]*)(?:[-*+\u2022\u2023\u2043]|\d{1,9}[.)]|\(\d{1,9}\)|#[.)]|:[^:\s][^:\n]*:)(?:[ \t]+|$)"
)
_DOCTEST = re.compile(r"[ \t]*>>>(?:[ \t]|$)")
#: Directives whose body is code (or verbatim text) rather than reStructuredText.
CODE_DIRECTIVES = frozenset(
    {
        "code",
        "code-block",
        "sourcecode",
        "doctest",
        "testcode",
        "testoutput",
        "testsetup",
        "testcleanup",
        "parsed-literal",
        "math",
        "ipython",
        "jupyter-execute",
        "prompt",
    }
)
#: Directives whose body is a table: rows of bullets (``* - a``) or of comma-separated values.
TABLE_DIRECTIVES = frozenset({"list-table", "csv-table"})
_HEADER_ROWS = re.compile(r"[ \t]+:header-rows:[ \t]*(\d+)")
_HEADER_OPTION = re.compile(r"[ \t]+:header:")  # a csv-table's column names
_BULLET_ROW = re.compile(r"[ \t]*[-*+][ \t]")
_MIN_LOOSE_ADORNMENT = 4  # an underline shorter than its title still counts from this length


#: What only reStructuredText writes (``looks_like``): explicit markup at the margin (a directive
#: ``.. note::``, a target ``.. _install:``), an interpreted-text role (``:class:`Client```), a
#: literal block (a paragraph ending with ``::``, then an indented block), a table border
#: (``+----+----+``, ``====  ====``), or a title adorned with a character Markdown gives no
#: heading meaning (``~~~``, ``^^^``) or with an overline.
_SIGNS = re.compile(
    r"^\.\.[ \t]+(?:[\w:.+-]+::|_[^\n]*:)|:[\w-]+:`[^`\n]+`|::[ \t\r]*\n[ \t\r]*\n[ \t]+\S"
    r"|^(?:\+(?:-+\+){2,}|=+(?:[ \t]+=+)+)[ \t\r]*$",
    re.MULTILINE,
)
_TITLE = re.compile(
    r"^(?P<title>\w[^\n]*)\n(?P<adornment>([!-,./:-<>-@\[-`{-~])\3{2,})[ \t\r]*$"
    r"|^(?P<overline>([=~^\"'`#*+])\5{2,})[ \t\r]*\n[ \t]*\w[^\n]*\n(?P=overline)[ \t\r]*$",
    re.MULTILINE,
)
#: What reStructuredText never writes at the margin: an ATX heading or a backtick fence (code
#: samples in a reStructuredText document are indented). Either makes the text Markdown.
_NEVER = re.compile(r"^(?:#{1,6}[ \t]+\S|```)", re.MULTILINE)


def looks_like(sample: str) -> bool:
    """Whether the start of a text shows reStructuredText's own markup and no Markdown heading
    or fence.

    >>> looks_like("Install\\n~~~~~~~\\n\\nRun ``pip install x``.\\n")
    True
    >>> looks_like("# Install\\n\\n.. not a directive here\\n")
    False
    """
    if _NEVER.search(sample):
        return False
    return bool(_SIGNS.search(sample)) or any(map(_adorns_title, _TITLE.finditer(sample)))


def _adorns_title(match: re.Match[str]) -> bool:
    """An underline as long as its title (a fence closing a line of code is usually shorter)."""
    if match.group("overline"):
        return True
    return len(match.group("adornment")) >= len(match.group("title").rstrip())


def parse_rst(text: str, heading_depth: int = 6) -> Outline:
    """Find the structure of ``text``; titles deeper than ``heading_depth`` open no section."""
    return _RstParser(text, heading_depth).run()


class _RstParser:
    """One pass over the lines, with the little state titles, lists and literal blocks need."""

    def __init__(self, text: str, heading_depth: int) -> None:
        self.text = text
        self.builder = OutlineBuilder(len(text))
        self.sections = SectionTree(self.builder, heading_depth)
        self.starts = [0, *(m.end() for m in re.finditer("\n", text) if m.end() < len(text))]
        self.styles: list[tuple[str, bool]] = []  # title styles in order of first appearance
        self.list_columns: list[int] = []  # content columns of the open list items
        #: indentation -> the line before which a simple table at that indentation closes nowhere
        self.unclosed_until: dict[int, int] = {}

    # -- lines -------------------------------------------------------------------------------
    def line(self, i: int) -> str:
        """Line ``i`` without its line break (``\\n`` or ``\\r\\n``)."""
        end = self.starts[i + 1] - 1 if i + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[i] : end].removesuffix("\r")

    def end_of(self, i: int) -> int:
        """Where line ``i`` ends, its newline included."""
        return self.starts[i + 1] if i + 1 < len(self.starts) else len(self.text)

    def blank(self, i: int) -> bool:
        return i >= len(self.starts) or not self.line(i).strip()

    def run(self) -> Outline:
        count = len(self.starts)
        i = 0
        block_start = True  # after blank lines, a title, a table or a code block
        literal_column = -1  # the indentation a literal block must exceed (after ``::``)
        paragraph_column = 0
        while i < count:
            line = self.line(i)
            if not line.strip():
                block_start = True
                i += 1
                continue
            indent = _indent(line)
            if block_start and 0 <= literal_column < indent:
                i = self._code(i, i, literal_column, "")
                literal_column, block_start = -1, True
                continue
            literal_column = -1
            after = self._construct(i, line, indent) if block_start else None
            if after is not None:
                i, block_start = after, True
                continue
            item = _LIST_ITEM.match(line)
            if item is not None and not _DIRECTIVE.match(line):
                paragraph_column = self._item(i, item)
            elif block_start:
                self.builder.cut(self.starts[i], Level.BLOCK)
                while self.list_columns and self.list_columns[-1] > indent:
                    self.list_columns.pop()
                paragraph_column = indent
                if self._term(i, line, indent):  # names its definition: leads into it
                    self.builder.label_line(self.starts[i], self.starts[i] + len(line))
            if line.rstrip().endswith("::") and not _EXPLICIT.match(line):
                literal_column = paragraph_column
            block_start = False
            i += 1
        self.sections.close_all(len(self.text))
        return self.builder.build()

    def _construct(self, i: int, line: str, indent: int) -> int | None:
        """A construct that starts a block at line ``i`` and spans lines: the line after it, or
        None when there is none here."""
        adornment = _ADORNMENT.match(line)
        if adornment is not None:
            return self._overlined_title(i, adornment.group(1)) or self._transition(i)
        if indent == 0 and (after := self._underlined_title(i, line)) is not None:
            return after
        if _GRID_BORDER.match(line):
            return self._grid_table(i, indent)
        if _SIMPLE_BORDER.match(line):
            return self._simple_table(i, indent)
        if _DOCTEST.match(line):
            return self._code(i, i, -1, "", stop_at_blank=True)
        directive = _DIRECTIVE.match(line)
        if directive is not None:
            self.builder.cut(self.starts[i], Level.BLOCK)
            name = directive.group(1).lower()
            if name in CODE_DIRECTIVES:
                return self._code_directive(i, indent)
            if name in TABLE_DIRECTIVES:
                return self._directive_table(i, indent, name)
            return None
        if _TARGET.match(line):  # names what follows it: it leads into it, like a heading
            self.builder.cut(self.starts[i], Level.BLOCK)
            self.builder.label_line(self.starts[i], self.starts[i] + len(line))
            return i + 1
        return None

    # -- titles and transitions --------------------------------------------------------------
    def _underlined_title(self, i: int, line: str) -> int | None:
        if i + 1 >= len(self.starts) or _EXPLICIT.match(line) or _GRID_LINE.match(line):
            return None
        underline = _ADORNMENT.match(self.line(i + 1))
        if underline is None or not _long_enough(self.line(i + 1), line):
            return None
        self._title(i, i + 1, (underline.group(1), False), line)
        return i + 2

    def _overlined_title(self, i: int, char: str) -> int | None:
        if i + 2 >= len(self.starts) or self.blank(i + 1):
            return None
        title, underline = self.line(i + 1), self.line(i + 2)
        closing = _ADORNMENT.match(underline)
        if closing is None or closing.group(1) != char or _ADORNMENT.match(title):
            return None
        if not _long_enough(self.line(i), title):
            return None
        self._title(i, i + 2, (char, True), title)
        return i + 3

    def _title(self, first: int, last: int, style: tuple[str, bool], title: str) -> None:
        """A section from line ``first`` (or from the targets that name it, just before it: a
        Sphinx section usually opens with ``.. _label:``) to the title's last line ``last``."""
        if style not in self.styles:
            self.styles.append(style)
        start, end = self.starts[first], self.starts[last] + len(self.line(last))
        k = first - 1
        while k >= 0 and (self.blank(k) or self.starts[k] in self.builder.label_lines):
            if not self.blank(k):
                start = self.starts[k]
            k -= 1
        self.sections.heading(start, self.styles.index(style) + 1, title.strip())
        for k in range(first, last + 1):
            if k > first:
                self.builder.cut(self.starts[k], Level.AVOID)
            self.builder.heading_line(self.starts[k], end)
        self.list_columns.clear()

    def _transition(self, i: int) -> int | None:
        line = self.line(i)
        if len(line.strip()) < _MIN_LOOSE_ADORNMENT or not self.blank(i + 1):
            return None
        start = self.starts[i]
        self.builder.cut(start, Level.THEMATIC_BREAK)
        self.builder.bare_line(start, start + len(line))
        following = next((k for k in range(i + 1, len(self.starts)) if not self.blank(k)), None)
        if following is not None:
            self.builder.cut(self.starts[following], Level.THEMATIC_BREAK)
        self.list_columns.clear()
        return i + 1

    # -- code --------------------------------------------------------------------------------
    def _code(
        self, first: int, body: int, column: int, reopen: str, stop_at_blank: bool = False
    ) -> int:
        """A container from line ``first`` whose body starts at line ``body`` and runs while
        lines are indented past ``column`` (blank lines inside it included), or to the first
        blank line; returns the line after it."""
        last = self._last_indented(body, column, stop_at_blank)
        start, end = self.starts[first], self.end_of(last)
        body_start = self.starts[body]
        avoid = (body_start,) if body_start > start else ()
        self.builder.cut(start, Level.BLOCK)
        self.builder.container(Container(start, body_start, end, reopen, avoid))
        self._break_after(last + 1)
        return last + 1

    def _last_indented(self, body: int, column: int, stop_at_blank: bool = False) -> int:
        """The last line of the block from line ``body`` whose lines are indented past
        ``column``, blank lines inside it included (or up to the first blank line)."""
        last = body
        for k in range(body, len(self.starts)):
            if self.blank(k):
                if stop_at_blank:
                    break
            elif _indent(self.line(k)) <= column:
                break
            else:
                last = k
        return last

    def _directive_body(self, i: int, indent: int) -> tuple[int, int | None]:
        """The line after the options of the directive at line ``i``, and the first line of its
        body (None when nothing after them is indented past ``indent``: no body)."""
        k = i + 1
        while k < len(self.starts) and _OPTION.match(self.line(k)):
            k += 1
        options_end = k
        while k < len(self.starts) and self.blank(k):
            k += 1
        if k >= len(self.starts) or _indent(self.line(k)) <= indent:
            return options_end, None
        return options_end, k

    def _code_directive(self, i: int, indent: int) -> int:
        """A code directive: its line and options are reopened by every piece of its body."""
        options_end, body = self._directive_body(i, indent)
        if body is None:
            return options_end  # ``literalinclude``-like, a block of its own
        reopen = self.text[self.starts[i] : self.starts[options_end] - 1].rstrip() + "\n\n"
        return self._code(i, body, indent, reopen)

    # -- tables ------------------------------------------------------------------------------
    def _grid_table(self, i: int, indent: int) -> int:
        """A grid table: its lines start with ``+`` or ``|``; rows end at full border lines."""
        k = i + 1
        while k < len(self.starts) and _GRID_LINE.match(self.line(k)):
            if _indent(self.line(k)) != indent:
                break
            k += 1
        last = k - 1
        header_end = next(
            (j for j in range(i + 1, last) if _GRID_HEADER_BORDER.match(self.line(j))), i
        )
        row_starts = {j + 1 for j in range(header_end, last) if _GRID_BORDER.match(self.line(j))}
        return self._table(i, header_end, last, row_starts)

    def _simple_table(self, i: int, indent: int) -> int | None:
        """A simple table: a border, rows (a header before a second border), a closing border
        followed by a blank line; a row starts where its first column holds text.

        A border that closes nothing is not a table. The lines its scan passed hold no closing
        border for any later one either, so they are scanned once, not once per stray border."""
        if i < self.unclosed_until.get(indent, -1):
            return None
        borders = [i]
        k = i + 1
        while k < len(self.starts):
            line = self.line(k)
            if _SIMPLE_BORDER.match(line) and _indent(line) == indent:
                borders.append(k)
                if self.blank(k + 1):
                    break
            elif line.strip() and (_indent(line) < indent or _ADORNMENT.match(line)):
                break  # not a table: text before it, or a title, ends it unclosed
            k += 1
        if k >= len(self.starts) or not _SIMPLE_BORDER.match(self.line(k)) or len(borders) < 2:
            self.unclosed_until[indent] = k
            return None
        last = borders[-1]
        header_end = borders[1] if len(borders) > 2 else i
        row_starts = {  # not at a "----  ----" rule between rows: it stays with the row above
            j
            for j in range(header_end + 1, last)
            if self.line(j)[indent : indent + 1].strip() and not _BORDER.match(self.line(j))
        }
        return self._table(i, header_end, last, row_starts)

    def _directive_table(self, i: int, indent: int, name: str) -> int:
        """A ``list-table`` or ``csv-table``: cut only between rows like a grid table, each piece
        reopening the directive (its title, and its options: a csv-table's ``:header:``) and the
        ``:header-rows:`` rows. A list-table's row is a bullet at the body's indentation, its
        cells the nested bullets (``* - name`` then ``  - type``); a csv-table's row is a line."""
        options_end, body = self._directive_body(i, indent)
        if body is None:
            return options_end  # ``:file:`` or ``:url:``: a block of its own
        options = range(i + 1, options_end)
        header_rows = 0
        for k in options:
            if header := _HEADER_ROWS.match(self.line(k)):
                header_rows = int(header.group(1))
        # options that only lay the table out: not worth repeating
        layout = {k for k in options if not _HEADER_OPTION.match(self.line(k))}
        column, last = _indent(self.line(body)), self._last_indented(body, indent)
        rows = [
            j
            for j in range(body, last + 1)
            if not self.blank(j)
            and _indent(self.line(j)) == column
            and (name == "csv-table" or _BULLET_ROW.match(self.line(j)))
        ]
        if len(rows) <= header_rows:  # no data rows: nothing to repeat a header for
            return self._table(i, last, last, set())
        header_end = rows[header_rows] - 1
        return self._table(i, header_end, last, set(rows[header_rows + 1 :]), layout)

    def _table(
        self,
        first: int,
        header_end: int,
        last: int,
        row_starts: set[int],
        unrepeated: AbstractSet[int] = frozenset(),
    ) -> int:
        """A table container: pieces begin only at ``row_starts`` (not the first row: the header
        stays with it), and reopen the header's lines without its border lines. A border is one
        word piece per character for many embedding models (all-MiniLM-L6-v2 reads 256): two
        full-width borders would push the row itself out of what the model reads."""
        start, end = self.starts[first], self.end_of(last)
        body = header_end + 1
        header = (self.line(j) for j in range(first, min(body, last + 1)) if j not in unrepeated)
        reopen = "".join(line.rstrip() + "\n" for line in header if not _BORDER.match(line))
        body_start = self.starts[body] if body <= last else start
        avoid = tuple(
            self.starts[j] for j in range(first + 1, last + 1) if j == body or j not in row_starts
        )
        self.builder.cut(start, Level.BLOCK)
        self.builder.container(Container(start, body_start, end, reopen, avoid))
        self._break_after(last + 1)
        return last + 1

    # -- lists ------------------------------------------------------------------
    def _item(self, i: int, item: re.Match[str]) -> int:
        """A list item's cut (deeper items cut worse); returns its content column."""
        indent = len(item.group(1).expandtabs())
        while self.list_columns and self.list_columns[-1] > indent:
            self.list_columns.pop()
        self.builder.cut(self.starts[i], Level.list_item(len(self.list_columns)))
        column = indent + max(len(item.group(0).expandtabs()) - indent, 1)
        self.list_columns.append(column)
        return column

    def _term(self, i: int, line: str, indent: int) -> bool:
        """Whether line ``i``, which starts a paragraph, is a definition list's term (or an
        option list's option whose description starts on the next line): docutils reads a
        paragraph line followed at once by a more indented line so."""
        if self.blank(i + 1) or line.rstrip().endswith("::"):
            return False
        return _indent(self.line(i + 1)) > indent and not _EXPLICIT.match(line)

    def _break_after(self, line: int) -> None:
        """A block starts right after a code block or table when text follows at once."""
        if line < len(self.starts) and not self.blank(line):
            self.builder.cut(self.starts[line], Level.BLOCK)


def _long_enough(adornment: str, title: str) -> bool:
    length, wanted = len(adornment.rstrip()), len(title.strip())
    return length >= wanted or length >= _MIN_LOOSE_ADORNMENT


def _indent(line: str) -> int:
    """Columns before the first character, a tab moving to the next multiple of eight (docutils'
    tab stops)."""
    margin = line[: len(line) - len(line.lstrip())]
    return len(margin.expandtabs())
