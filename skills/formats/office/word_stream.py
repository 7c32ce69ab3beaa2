"""A Word body to the engine's Markdown in one streaming pass over ``word/document.xml``.

mammoth, which this replaces, built the whole document in memory before writing any of it: 13-16
s and 52-53 MB of memory per MB of XML, so a 474 KB file of tables (12.6 MB of XML) took 29-208
s and near 700 MB. This reads the body with ``lxml.etree.iterparse`` one top-level paragraph or
table at a time, writes its Markdown and frees it: time is linear in the XML and memory grows
with the largest table and the Markdown written, not the document (0.7 s and 1.4-2.0 MB per MB
of XML, ``bench/formats.py``). What it writes, the Markdown mammoth's path wrote for the
project's fixture (but for a code block's second blank line, which that path dropped):

- a paragraph's heading level comes from ``word_outline.py`` (Heading styles, outline levels,
  numbered and typed section numbers, the visual rule), with Word's own number when the
  paragraph or its style is numbered (``## 1.1. Terms``); the ``Title`` paragraph is the
  document's title; ``Source Code``, ``HTML Preformatted`` and ``Code`` paragraphs, consecutive
  ones joined by newlines, one fenced block;
- numbered and bulleted paragraphs (``w:numPr`` on the paragraph or its style) nested lists,
  numbered unless the level's format is ``bullet`` (or ``none``); an empty paragraph does not
  end a list;
- runs: bold, italic and struck text (the ``Strong`` character style is bold), the ``Verbatim
  Char`` and ``HTML Code`` character styles as inline code; tabs, line breaks, hyperlinks
  (``w:hyperlink`` to its relationship's target or ``#anchor``); deleted text is left out and
  inserted text kept (tracked changes as accepted); field codes are left out, their results
  kept;
- tables as pipe tables whose first row is the header, a merged column as an empty cell, a
  nested table flattened into its cell; a table laying the page out (each of its cells with
  text holds a table) read cell by cell as the body is, its tables as tables;
- footnotes and endnotes as numbered references (``[[1]](#footnote-4)``) and a numbered list
  at the end;
- images are left out, never decoded; text boxes' paragraphs follow the paragraph that anchors
  them; a line that would read as Markdown syntax (``# not a heading``) is escaped.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from skills.formats.conversion import Limits, out_of_time
from skills.formats.markdown_text import heading, plain
from skills.formats.office.freed_blocks import free_block
from skills.formats.office.word_outline import Outline, W, band_cell, side_labels
from skills.formats.office.xml_numbers import MAX_LEVEL, whole

_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_V = "{urn:schemas-microsoft-com:vml}"
_CODE_PARAGRAPHS = {"source code", "html preformatted", "code"}
_CODE_RUNS = {"verbatim char", "html code"}
_BOLD_RUNS = {"strong"}  # the Strong character style is bold (mammoth's default map said so too)
_TRANSPARENT = {f"{W}ins", f"{W}smartTag", f"{W}sdtContent", f"{W}fldSimple", f"{W}customXml"}
_TRANSPARENT |= {f"{W}moveTo", f"{W}dir", f"{W}bdo"}
_SKIPPED = {f"{W}del", f"{W}moveFrom", f"{W}pPr", f"{W}rPr", f"{W}sdtPr", f"{W}sdtEndPr"}
_FALSE = {"0", "false", "off"}
_DRAWINGS = {f"{W}drawing", f"{W}pict", f"{_MC}AlternateContent", f"{W}object"}
_SPACES = re.compile(r"[ \t\u00a0]{2,}|\t")
_BACKTICKS = re.compile(r"`+")
_CELL_SPACE = re.compile(r"[ \t\r\n]+")
_PLACEHOLDER = re.compile(r"%(\d)")


@dataclass(frozen=True, slots=True)
class Formatting:
    bold: bool = False
    italic: bool = False
    strike: bool = False
    code: bool = False


@dataclass(slots=True)
class _Parts:
    """What the body refers to: styles by id (names and their list numbering), numbering
    formats, relationship targets, footnotes and endnotes."""

    style_names: dict[str, str]
    style_numbers: dict[str, tuple[str, int]]
    default_style: str
    levels: dict[tuple[str, int], Level]
    links: dict[str, str]
    notes: dict[tuple[str, str], Any]
    note_order: list[tuple[str, str]] = field(default_factory=list)


def word_markdown(
    package: zipfile.ZipFile, outline: Outline, limits: Limits, every: int = 200
) -> tuple[str, str, str]:
    """The body as Markdown, the ``Title`` paragraph's text, and the warning of a conversion
    stopped at its deadline (``""``: none), checked every ``every`` blocks."""
    parts = _read_parts(package)
    writer = _Writer(parts, outline)
    stopped = ""
    with package.open("word/document.xml") as body:
        for count, block in enumerate(_blocks(body), start=1):
            writer.block(block)
            if count % every == 0 and limits.expired():
                stopped = out_of_time("paragraphs", writer.index, len(outline.paragraphs))
                break
    writer.close_open()
    writer.footnotes()
    return "\n\n".join(writer.out) + "\n", writer.title, stopped


def _blocks(source: Any) -> Iterator[Any]:
    """The body's top-level paragraphs and tables, each freed once the caller has it."""
    from lxml import etree

    context = etree.iterparse(
        source, events=("end",), tag=(f"{W}p", f"{W}tbl"), resolve_entities=False, huge_tree=True
    )
    for _, element in context:
        parent = element.getparent()
        if parent is None or not _top_level(parent):
            continue
        yield element
        free_block(element)


def _top_level(parent: Any) -> bool:
    """Whether a paragraph or table with this parent is a body block (the body, or content
    controls directly in it)."""
    while parent is not None:
        if parent.tag == f"{W}body":
            return True
        if parent.tag not in (f"{W}sdtContent", f"{W}sdt", f"{W}customXml"):
            return False
        parent = parent.getparent()
    return False


class _Writer:
    """Markdown blocks from body blocks: lists and code blocks stay open across paragraphs."""

    def __init__(self, parts: _Parts, outline: Outline | None) -> None:
        self.parts = parts
        self.levels = outline.levels_by_index() if outline is not None else {}
        self.title_band = outline.title_band if outline is not None else None
        self.title_line = outline.title_line if outline is not None else None
        self.index = 0  # the next body paragraph's number, as word_outline counts them
        self.out: list[str] = []
        self.title = ""
        self.lists: list[list[Any]] = []  # open lists: [ordered, level, indent, next number]
        self.counters: dict[str, dict[int, int]] = {}  # numId: level: the number shown last
        self.list_lines: list[str] = []
        self.pre: list[str] | None = None
        self.depth = 0  # text boxes (and notes) this writer's text is inside

    def nested(self) -> _Writer:
        """A writer for a text box or a note: its own lists, no headings, no title."""
        inner = _Writer(self.parts, None)
        inner.title = "taken"
        inner.depth = self.depth + 1
        return inner

    # --- blocks -------------------------------------------------------------------------

    def block(self, element: Any) -> None:
        """A body block; a layout table's blocks in its place, layout tables in its cells
        too (walked with a stack: they may nest as deep as the parser allows)."""
        stack = [iter((element,))]
        texty = _cells_with_text(element) if element.tag == f"{W}tbl" else set()
        while stack:
            found = next(stack[-1], None)
            if found is None:
                stack.pop()
            elif found.tag == f"{W}tbl" and (
                _layout(found, texty) or side_labels(found) is not None
            ):
                stack.append(_layout_blocks(found))
            else:
                self.one_block(found)

    def one_block(self, element: Any) -> None:
        if element.tag == f"{W}tbl":
            self.close_open()
            rows: list[list[str]] = []
            for row in self.table(element):
                if isinstance(row, list):
                    rows.append(row)
                    continue
                if rows:  # a section band: the table is cut under its heading
                    self.out.append(_table(rows))
                rows = []
                self.out.extend(row.blocks)
            if rows:
                self.out.append(_table(rows))
        else:
            self.paragraph(element)

    def paragraph(self, element: Any) -> None:
        level = self.levels.get(self.index)
        self.index += 1
        style = self.style_of(element)
        name = self.parts.style_names.get(style, "").lower()
        pieces, boxes = self.pieces(element)
        rank = level  # word_outline decides, Heading styles included
        number = self.number_of(element, style)
        label = self.count(number) if number is not None else ""
        titles = name == "title" or self.index - 1 == self.title_line
        if titles and not self.title:
            self.close_open()
            self.title = _inline(pieces, plain_text=True)
        elif rank:
            text = _inline(pieces, plain_text=True)
            if text:
                self.close_open()
                self.out.append(heading(rank, f"{label} {text}" if label else text))
        elif name in _CODE_PARAGRAPHS:
            self.close_lists()
            if self.pre is None:
                self.pre = []
            self.pre.append(_code_text(pieces))
        else:
            text = _inline(pieces)
            if text:  # an empty paragraph is spacing: a list goes on across it
                if number is not None:
                    self.close_pre()
                    self.list_item(number, text)
                else:
                    self.close_open()
                    self.out.append(plain(text))
        for box in boxes:
            self.close_open()
            self.out.append(box)

    def list_item(self, number: tuple[str, int], text: str) -> None:
        num, level = number
        known = self.parts.levels.get((num, level))
        ordered = known is None or known.ordered
        while self.lists and self.lists[-1][1] > level:
            self.lists.pop()
        if self.lists and self.lists[-1][1] == level and self.lists[-1][0] != ordered:
            if len(self.lists) == 1:  # another kind of list: a list of its own
                self.close_lists()
            else:
                self.lists.pop()
        if not (self.lists and self.lists[-1][1] == level):
            parent = self.lists[-1] if self.lists else None
            indent = parent[2] + len(_bullet(parent)) if parent is not None else 0
            self.lists.append([ordered, level, indent, 1])
        current = self.lists[-1]
        bullet = _bullet(current)
        current[3] += 1
        pad = " " * current[2]
        lines = text.split("\n")
        self.list_lines.append(pad + bullet + lines[0])
        self.list_lines.extend(pad + " " * len(bullet) + line for line in lines[1:])

    def count(self, number: tuple[str, int]) -> str:
        """Advance the numbering of ``number`` (numId, level) and return the label Word shows
        for it (``2.3``; ``""`` for a bullet), as a heading's prefix."""
        num, ilvl = number
        level = self.parts.levels.get(number)
        if level is None:
            return ""
        counters = self.counters.setdefault(num, {})
        counters[ilvl] = counters.get(ilvl, level.start - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]
        if not level.ordered:
            return ""

        def shown(match: re.Match[str]) -> str:
            k = int(match.group(1)) - 1
            parent = self.parts.levels.get((num, k))
            value = counters.get(k, parent.start if parent else 1)
            return _format_number(value, parent.fmt if parent else "decimal")

        return _PLACEHOLDER.sub(shown, level.text).strip()

    def close_lists(self) -> None:
        if self.list_lines:
            self.out.append("\n".join(self.list_lines))
        self.lists, self.list_lines = [], []

    def close_pre(self) -> None:
        if self.pre is not None:
            code = "\n".join(self.pre).strip("\n")
            if code.strip():
                fence = "`" * max(3, 1 + max(map(len, _BACKTICKS.findall(code)), default=0))
                self.out.append(f"{fence}\n{code}\n{fence}")
            self.pre = None

    def close_open(self) -> None:
        self.close_lists()
        self.close_pre()

    def table(self, element: Any) -> list[list[str] | Band]:
        """The table's rows as cells, and as a heading where a row is a section band that
        ``word_outline`` made one (a form's "Section 2 – ..." across its table)."""
        rows: list[list[str] | Band] = []
        grid = element.find(f"{W}tblGrid")
        width = max(MAX_SPAN, len(grid) if grid is not None else 0)
        for row in element.iterchildren(f"{W}tr"):
            band = self.band(row)
            if band is not None:
                rows.append(band)
                continue
            cells: list[str] = []
            for cell in row.iterchildren(f"{W}tc"):
                cells.append(self.cell(cell))
                span = _decimal(_val(cell.find(f"{W}tcPr/{W}gridSpan")), width)
                cells.extend([""] * min(span - 1, width - len(cells)))
            rows.append(cells)
        return rows

    def band(self, row: Any) -> Band | None:
        """The row as a heading when it is one band cell whose one paragraph with text has a
        heading level; the index moves past the cell's paragraphs only then."""
        cells = list(row.iterchildren(f"{W}tc"))
        if len(cells) != 1 or not band_cell(cells[0]):
            return None
        paragraphs = [p for p, boxed in _cell_paragraphs(cells[0]) if not boxed]
        texts = [(n, p) for n, p in enumerate(paragraphs) if _raw_text(p).strip()]
        if len(texts) == 1 and self.index + texts[0][0] == self.title_band and not self.title:
            self.index += len(paragraphs)  # a form's title band: the document's title
            self.title = " ".join(_raw_text(texts[0][1]).split())
            return Band([])
        if len(texts) != 1 or self.levels.get(self.index + texts[0][0]) is None:
            return None
        level = self.levels[self.index + texts[0][0]]
        self.index += len(paragraphs)
        title, rest = _gap_cut(_raw_text(texts[0][1]))
        return Band([heading(level, title), *([plain(rest)] if rest else [])])

    def cell(self, cell: Any) -> str:
        """A cell's text on one line: its paragraphs (and nested tables' cells) joined."""
        texts = []
        for paragraph, boxed in _cell_paragraphs(cell):
            if not boxed:
                self.index += 1  # word_outline counts table paragraphs too
            pieces, _ = self.pieces(paragraph, boxes=False)
            text = _inline(pieces)
            if text:
                texts.append(text)
        return " ".join(texts)

    # --- inline -------------------------------------------------------------------------

    def pieces(self, paragraph: Any, boxes: bool = True) -> tuple[list[Piece], list[str]]:
        """A paragraph's runs as pieces, and the Markdown of the text boxes it anchors."""
        pieces: list[Piece] = []
        found: list[str] = []
        self.inline(paragraph, pieces, found if boxes else None, [False])
        return pieces, found

    def inline(
        self, element: Any, pieces: list[Piece], boxes: list[str] | None, field: list[bool]
    ) -> None:
        """The runs of ``element`` as pieces, through content controls, insertions and
        hyperlinks, walked with a stack of what is open: nested 1,000 deep (as no editor
        writes them), a walk by recursion failed the file with RecursionError."""
        stack: list[tuple[Iterator[Any], list[Piece], Any]] = [(iter(element), pieces, None)]
        while stack:
            children, out, link = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                if link is not None:
                    self.linked(link, out, stack[-1][1])
                continue
            tag = child.tag
            if tag == f"{W}r":
                self.run(child, out, boxes, field)
            elif tag == f"{W}hyperlink":
                stack.append((iter(child), [], child))
            elif tag in _TRANSPARENT or tag == f"{W}sdt":
                stack.append((iter(child), out, None))

    def linked(self, link: Any, inner: list[Piece], pieces: list[Piece]) -> None:
        """A hyperlink's pieces as one link (or as they are, when it has no target)."""
        text, href = _inline(inner), self.href(link)
        if text and href:
            shown = f"<{href}>" if text == href else f"[{text}]({href})"
            pieces.append(Piece(Formatting(), shown, raw=True))
        elif text:
            pieces.extend(inner)

    def run(
        self, run: Any, pieces: list[Piece], boxes: list[str] | None, field: list[bool]
    ) -> None:
        formatting = self.formatting(run.find(f"{W}rPr"))
        for child in run:
            tag = child.tag
            if tag == f"{W}fldChar":
                field[0] = child.get(f"{W}fldCharType") == "begin"
            elif field[0] or tag == f"{W}instrText":
                continue
            elif tag == f"{W}t":
                pieces.append(Piece(formatting, child.text or ""))
            elif tag == f"{W}tab":
                pieces.append(Piece(formatting, "\t"))
            elif tag in (f"{W}br", f"{W}cr"):
                if child.get(f"{W}type") not in ("page", "column"):
                    pieces.append(Piece(formatting, "\n", raw=True))
            elif tag == f"{W}noBreakHyphen":
                pieces.append(Piece(formatting, "-"))
            elif tag in (f"{W}footnoteReference", f"{W}endnoteReference"):
                kind = "footnote" if tag == f"{W}footnoteReference" else "endnote"
                reference = self.note_reference(kind, child.get(f"{W}id") or "")
                pieces.append(Piece(Formatting(), reference, raw=True))
            elif boxes is not None and tag in _DRAWINGS:
                boxes.extend(self.text_boxes(child))

    def text_boxes(self, element: Any) -> list[str]:
        """The Markdown of the text boxes in a drawing (its first rendering only)."""
        if element.tag == f"{_MC}AlternateContent":
            choice = element.find(f"{_MC}Choice")
            element = choice if choice is not None else element
        if self.depth >= MAX_BOX_DEPTH:
            return _flat_boxes(element)
        found: list[str] = []
        for box in _outer_boxes(element):
            inner = self.nested()
            for paragraph in box.iterchildren(f"{W}p"):
                inner.paragraph(paragraph)
            inner.close_open()
            found.extend(inner.out)
        return found

    def formatting(self, rpr: Any) -> Formatting:
        if rpr is None:
            return Formatting()
        style = self.parts.style_names.get(_val(rpr.find(f"{W}rStyle")) or "", "").lower()
        return Formatting(
            bold=_on(rpr.find(f"{W}b")) or style in _BOLD_RUNS,
            italic=_on(rpr.find(f"{W}i")),
            strike=_on(rpr.find(f"{W}strike")) or _on(rpr.find(f"{W}dstrike")),
            code=style in _CODE_RUNS,
        )

    def href(self, link: Any) -> str:
        target = self.parts.links.get(link.get(f"{_R}id") or "", "")
        anchor = link.get(f"{W}anchor")
        return f"{target}#{anchor}" if anchor else target

    def note_reference(self, kind: str, note_id: str) -> str:
        if (kind, note_id) not in self.parts.notes:
            return ""
        self.parts.note_order.append((kind, note_id))
        return f"[[{len(self.parts.note_order)}]](#{kind}-{note_id})"

    def footnotes(self) -> None:
        """The notes referred to, in order of reference, as a numbered list."""
        lines = []
        for number, (kind, note_id) in enumerate(self.parts.note_order, start=1):
            texts = []
            for paragraph in self.parts.notes[(kind, note_id)].iter(f"{W}p"):
                pieces, _ = self.pieces(paragraph, boxes=False)
                texts.append(_inline(pieces))
            text = " ".join(t for t in texts if t)
            lines.append(f"{number}. {text} [↑](#{kind}-ref-{note_id})".replace("  ", " "))
        if lines:
            self.out.append("\n".join(lines))

    # --- styles and numbering -------------------------------------------------------------

    def style_of(self, paragraph: Any) -> str:
        return _val(paragraph.find(f"{W}pPr/{W}pStyle")) or self.parts.default_style

    def number_of(self, paragraph: Any, style: str) -> tuple[str, int] | None:
        numpr = paragraph.find(f"{W}pPr/{W}numPr")
        if numpr is not None:
            num = _val(numpr.find(f"{W}numId"))
            level = _val(numpr.find(f"{W}ilvl"))
            if num == "0":
                return None
            if num:
                return num, whole(level, MAX_LEVEL) or 0
        return self.parts.style_numbers.get(style)


@dataclass(frozen=True, slots=True)
class Piece:
    """Text of one formatting; ``raw`` is Markdown already (a link, a note, a line break)."""

    formatting: Formatting
    text: str
    raw: bool = False


@dataclass(frozen=True, slots=True)
class Band:
    """A table row written as a heading (and the text set beside it on its line)."""

    blocks: list[str]


#: a gap typed between two things set on one line: a tab, or four spaces or more
_GAP = re.compile(r"\t|[ \u00a0\u2002\u2003]{4,}")
_LETTERS = re.compile(r"[^\W\d_]")


def _layout(table: Any, texty: set[Any]) -> bool:
    """Whether the table lays a page out rather than holding data: every cell of it with text
    (``texty``: ``_cells_with_text``) holds a table of its own (a procedure or a form drawn as
    boxes of tables, 240-DOP-1013A's steps table inside a frame). Its cells are read as the
    body is, their tables as tables, rather than flattened, whole tables and all, into the
    cells of one row."""
    cells = [
        cell
        for row in table.iterchildren(f"{W}tr")
        for cell in row.iterchildren(f"{W}tc")
        if cell in texty
    ]
    return bool(cells) and all(
        next(_inner_blocks(cell, tables_only=True), None) is not None for cell in cells
    )


def _cells_with_text(table: Any) -> set[Any]:
    """The cells of ``table`` and of every table in it, however deep (text boxes' too), that
    hold text anywhere inside them, found in one walk. Each layout table asked it of its own
    cells, reading again the text of all the tables inside: layout tables nested 600 deep over
    200 blank runs each took 129 s (2.5 s at 150 deep), the square of the depth times the runs.

    >>> from lxml import etree
    >>> table = etree.fromstring(
    ...     f'<w:tbl xmlns:w="{W[1:-1]}"><w:tr><w:tc><w:tbl><w:tr><w:tc><w:t>x</w:t></w:tc>'
    ...     "<w:tc><w:t> </w:t></w:tc></w:tr></w:tbl></w:tc><w:tc/></w:tr></w:tbl>"
    ... )
    >>> sorted(len(list(cell.iterancestors(f"{W}tc"))) for cell in _cells_with_text(table))
    [0, 1]
    """
    from lxml import etree

    texty: set[Any] = set()
    open_cells: list[tuple[Any, list[bool]]] = []  # each open cell, and whether it has text
    for event, node in etree.iterwalk(table, events=("start", "end"), tag=(f"{W}tc", f"{W}t")):
        if node.tag == f"{W}t":
            if event == "start" and open_cells and (node.text or "").strip():
                open_cells[-1][1][0] = True
        elif event == "start":
            open_cells.append((node, [False]))
        else:
            cell, (has_text,) = open_cells.pop()
            if has_text:
                texty.add(cell)
                if open_cells:  # a cell holding a cell with text holds text
                    open_cells[-1][1][0] = True
    return texty


def _layout_blocks(table: Any) -> Iterator[Any]:
    """The paragraphs and tables of a layout table's cells, row by row, in reading order."""
    for row in table.iterchildren(f"{W}tr"):
        for cell in row.iterchildren(f"{W}tc"):
            yield from _inner_blocks(cell)


def _inner_blocks(parent: Any, tables_only: bool = False) -> Iterator[Any]:
    """A cell's own paragraphs and tables (through content controls, however deep: a stack,
    not recursion), in order."""
    stack = [iter(parent)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        elif child.tag == f"{W}tbl" or (child.tag == f"{W}p" and not tables_only):
            yield child
        elif child.tag in (f"{W}sdt", f"{W}sdtContent", f"{W}customXml"):
            stack.append(iter(child))


def _outer_boxes(element: Any) -> Iterator[Any]:
    """A drawing's text boxes, not those inside them, which their own box's writer reads:
    every box of a drawing, however deep, was read again by each box around it (boxes nested
    200 deep did not end in minutes)."""
    stack = [iter(element)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        elif node.tag == f"{W}txbxContent":
            yield node
        else:
            stack.append(iter(node))


def _flat_boxes(element: Any) -> list[str]:
    """The text of a drawing's boxes, and of the boxes inside them, as one paragraph: boxes
    nested past ``MAX_BOX_DEPTH`` (each read by a writer of its own, which recursed until
    Python stopped it)."""
    words = [
        " " if node.tag == f"{W}p" else (node.text or "") for node in element.iter(f"{W}p", f"{W}t")
    ]
    text = " ".join("".join(words).split())
    return [plain(text)] if text else []


def _raw_text(paragraph: Any) -> str:
    """The paragraph's characters as typed, spaces and tabs kept."""
    return "".join(
        (node.text or "") if node.tag == f"{W}t" else "\t"
        for node in paragraph.iter(f"{W}t", f"{W}tab")
    )


def _gap_cut(text: str) -> tuple[str, str]:
    """A title and what is set after a wide gap on its line, once the title has two words of
    letters (not at the gap after a number: "Chapter 1<tab>Scope" is one title).

    >>> _gap_cut("Section 2 – Referring Agency Information        Referring Case Number ")
    ('Section 2 – Referring Agency Information', 'Referring Case Number')
    >>> _gap_cut("Chapter 1\tScope")
    ('Chapter 1 Scope', '')
    """
    for gap in _GAP.finditer(text):
        before = text[: gap.start()]
        if sum(1 for word in before.split() if _LETTERS.search(word)) >= 2:
            return " ".join(before.split()), " ".join(text[gap.end() :].split())
    return " ".join(text.split()), ""


def _table(rows: list[list[str]]) -> str:
    """A pipe table whose first row is the header, rows padded to the widest (a cell's ``|``
    escaped; its no-break spaces kept, as Word wrote them)."""
    width = max(len(row) for row in rows)
    lines = []
    for number, row in enumerate(rows):
        cells = [_CELL_SPACE.sub(" ", c).strip().replace("|", "\\|") for c in row]
        lines.append("| " + " | ".join(cells + [""] * (width - len(row))) + " |")
        if number == 0:
            lines.append("|" + " --- |" * width)
    return "\n".join(lines)


#: columns a cell may span beyond its table's grid (Word's tables have at most 63): a span of
#: 1,000,000 in a 1.4 KB file padded every row of its table, 309 MB of empty cells
MAX_SPAN = 64
#: text boxes read inside text boxes, each as its own Markdown; deeper ones are one paragraph
MAX_BOX_DEPTH = 8
#: the largest first number of a numbering level (Word's "Start at" field stops at 32,767)
MAX_START = 32_767
#: Roman numerals are written up to 3,999 (MMMCMXCIX); a larger number as its decimal
_MAX_ROMAN = 3_999


def _decimal(value: str | None, most: int) -> int:
    """A count the file gives (a span, a first number), at least 1 and at most ``most``: a
    hostile one of thousands of digits is cut there, not written into every heading.

    >>> _decimal("3", 64), _decimal("999999999999", 64), _decimal(None, 64), _decimal("²", 64)
    (3, 64, 1, 1)
    """
    return max(1, whole(value, most) or 1)


def _format_number(value: int, fmt: str) -> str:
    """A number in a Word numbering format (the common ones; others as decimals)."""
    if fmt in ("lowerLetter", "upperLetter"):
        text = ""
        while value > 0:
            value, rest = divmod(value - 1, 26)
            text = chr(ord("a") + rest) + text
        return text.upper() if fmt == "upperLetter" else text
    if fmt in ("lowerRoman", "upperRoman") and value <= _MAX_ROMAN:
        text = _roman(value)
        return text if fmt == "upperRoman" else text.lower()
    return str(value)


def _roman(value: int) -> str:
    numerals = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC")]
    numerals += [(50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    text = ""
    for amount, numeral in numerals:
        while value >= amount:
            text, value = text + numeral, value - amount
    return text


def _bullet(open_list: list[Any]) -> str:
    return f"{open_list[3]}. " if open_list[0] else "- "


def _inline(pieces: list[Piece], plain_text: bool = False) -> str:
    """Pieces as one line of Markdown (a line break as a new line), neighbours of the same
    formatting merged, whitespace collapsed; ``plain_text``: without emphasis (a heading)."""
    out: list[str] = []
    index = 0
    while index < len(pieces):
        piece = pieces[index]
        index += 1
        if piece.raw:
            out.append(" " if plain_text and piece.text == "\n" else piece.text)
            continue
        text = piece.text
        while index < len(pieces) and not pieces[index].raw:
            if pieces[index].formatting != piece.formatting:
                break
            text += pieces[index].text
            index += 1
        text = _SPACES.sub(" ", text)
        out.append(_wrap(piece.formatting, text, plain_text))
    joined = "".join(out)
    lines = [_SPACES.sub(" ", line).strip() for line in joined.split("\n")]
    return "\n".join(line for line in lines if line)


def _wrap(formatting: Formatting, text: str, plain_text: bool) -> str:
    """Text in its markers, spaces kept outside them (``** a**`` is not emphasis)."""
    core = text.strip(" ")
    if not core:
        return text
    lead = " " if text.startswith(" ") else ""
    tail = " " if text.endswith(" ") else ""
    if formatting.code:
        fence = "`" * (1 + max(map(len, _BACKTICKS.findall(core)), default=0))
        core = f"{fence}{core}{fence}"
    if not plain_text:
        if formatting.strike:
            core = f"~~{core}~~"
        if formatting.italic:
            core = f"*{core}*"
        if formatting.bold:
            core = f"**{core}**"
    return lead + core + tail


def _code_text(pieces: list[Piece]) -> str:
    """A code paragraph's text as it is: tabs, spaces and line breaks kept."""
    return "".join(piece.text for piece in pieces if not piece.raw or piece.text == "\n")


def _cell_paragraphs(cell: Any) -> Iterator[tuple[Any, bool]]:
    """The paragraphs in ``cell`` (its nested tables' and text boxes' too) in order, each with
    whether a text box inside the cell holds it, in one walk: each paragraph looked up through
    its ancestors to the cell for a box, so nested tables cost the square of their depth.

    >>> from lxml import etree
    >>> cell = etree.fromstring(
    ...     f'<w:tc xmlns:w="{W[1:-1]}"><w:p><w:r><w:txbxContent><w:p/></w:txbxContent></w:r>'
    ...     "</w:p><w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl></w:tc>"
    ... )
    >>> [boxed for _, boxed in _cell_paragraphs(cell)]
    [False, True, False]
    """
    from lxml import etree

    boxes = 0
    walk = etree.iterwalk(cell, events=("start", "end"), tag=(f"{W}p", f"{W}txbxContent"))
    for event, node in walk:
        if node.tag == f"{W}txbxContent":
            boxes += 1 if event == "start" else -1
        elif event == "start":
            yield node, boxes > 0


def _read_parts(package: zipfile.ZipFile) -> _Parts:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, huge_tree=True)
    names = set(package.namelist())

    def part(name: str) -> Any:
        return etree.fromstring(package.read(name), parser) if name in names else None

    style_names: dict[str, str] = {}
    style_numbers: dict[str, tuple[str, int]] = {}
    default_style = ""
    levels, style_levels = _levels(part("word/numbering.xml"))
    styles = part("word/styles.xml")
    if styles is not None:
        for style in styles.iter(f"{W}style"):
            style_id = style.get(f"{W}styleId") or ""
            style_names[style_id] = _val(style.find(f"{W}name")) or ""
            numpr = style.find(f"{W}pPr/{W}numPr")
            num = _val(numpr.find(f"{W}numId")) if numpr is not None else None
            if num and num != "0":
                level = _val(numpr.find(f"{W}ilvl")) if numpr is not None else None
                ilvl = whole(level, MAX_LEVEL)
                ilvl = style_levels.get(style_id, 0) if ilvl is None else ilvl
                style_numbers[style_id] = (num, ilvl)
            is_default = style.get(f"{W}default") in ("1", "true")
            if style.get(f"{W}type") == "paragraph" and is_default:
                default_style = style_id
    return _Parts(
        style_names=style_names,
        style_numbers=style_numbers,
        default_style=default_style,
        levels=levels,
        links=_links(part("word/_rels/document.xml.rels")),
        notes=_notes(part("word/footnotes.xml"), "footnote")
        | _notes(part("word/endnotes.xml"), "endnote"),
    )


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a numbering: its format (``decimal``, ``bullet``...), its text (``%1.%2``)
    and its first number."""

    fmt: str
    text: str
    start: int

    @property
    def ordered(self) -> bool:
        return self.fmt not in ("bullet", "none")


def _levels(root: Any) -> tuple[dict[tuple[str, int], Level], dict[str, int]]:
    """Every (numId, level) of the numbering part, and the level a paragraph style is linked
    to (a ``w:lvl`` naming the style: how Heading styles get their numbers)."""
    if root is None:
        return {}, {}
    abstract: dict[str, dict[int, Level]] = {}
    style_levels: dict[str, int] = {}
    for element in root.iter(f"{W}abstractNum"):
        found = {}
        for level in element.iter(f"{W}lvl"):
            ilvl = whole(level.get(f"{W}ilvl") or "0", MAX_LEVEL)
            if ilvl is None:
                continue
            found[ilvl] = Level(
                fmt=_val(level.find(f"{W}numFmt")) or "decimal",
                text=_val(level.find(f"{W}lvlText")) or "",
                start=_decimal(_val(level.find(f"{W}start")), MAX_START),
            )
            linked = _val(level.find(f"{W}pStyle"))
            if linked:
                style_levels[linked] = ilvl
        abstract[element.get(f"{W}abstractNumId") or ""] = found
    levels = {}
    for num in root.iter(f"{W}num"):
        for ilvl, level in abstract.get(_val(num.find(f"{W}abstractNumId")) or "", {}).items():
            levels[(num.get(f"{W}numId") or "", ilvl)] = level
    return levels, style_levels


def _links(root: Any) -> dict[str, str]:
    if root is None:
        return {}
    return {rel.get("Id") or "": rel.get("Target") or "" for rel in root if rel.get("Id")}


def _notes(root: Any, kind: str) -> dict[tuple[str, str], Any]:
    if root is None:
        return {}
    found = {}
    for note in root.iter(f"{W}{kind}"):
        if note.get(f"{W}type") in (None, "normal"):
            found[(kind, note.get(f"{W}id") or "")] = note
    return found


def _val(element: Any) -> str | None:
    return None if element is None else element.get(f"{W}val")


def _on(element: Any) -> bool:
    return element is not None and (element.get(f"{W}val") or "1").lower() not in _FALSE
