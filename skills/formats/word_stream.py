"""A Word body to HTML in one streaming pass over ``word/document.xml``, in place of mammoth.

mammoth builds the whole document in memory before writing any of it: some 75 bytes of memory
and 4 µs per byte of XML, so a 474 KB file of tables (12.6 MB of XML) took 29-73 s and near 1 GB.
This reads the body with ``lxml.etree.iterparse`` one top-level paragraph or table at a time,
writes its HTML, and frees it, so time and memory grow with the XML and the memory with the
largest table, not the document. The HTML is the one mammoth writes with the Word converter's
style map, which the HTML path then turns into Markdown:

- a paragraph's heading level comes from ``word_outline.py`` (Heading styles, outline levels,
  numbered headings, the visual rule): ``<h1>``-``<h6>``; the ``Title`` paragraph is the
  document's title; ``Source Code``, ``HTML Preformatted`` and ``Code`` paragraphs, consecutive
  ones joined by newlines, a ``<pre>``;
- numbered and bulleted paragraphs (``w:numPr`` on the paragraph or its style) nested lists,
  ``<ol>`` unless the level's format is ``bullet`` (or ``none``);
- runs: bold ``<strong>``, italic ``<em>``, struck ``<s>``, superscript and subscript, the
  ``Verbatim Char`` and ``HTML Code`` character styles ``<code>``; tabs, line breaks, hyperlinks
  (``w:hyperlink`` to its relationship's target or ``#anchor``); deleted text is left out and
  inserted text kept (tracked changes as accepted); field codes are left out, their results kept;
- tables with ``<thead>`` for rows marked as repeating headers, ``colspan`` for merged columns;
- footnotes and endnotes as numbered references and a list at the end, as mammoth writes them;
- images as their alt text (``<img alt>``), never decoded; text boxes' paragraphs after the
  paragraph that anchors them.
"""

from __future__ import annotations

import html
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from skills.formats.conversion import Limits, out_of_time
from skills.formats.word_outline import Outline, W, heading_style_level

_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_V = "{urn:schemas-microsoft-com:vml}"
_CODE_PARAGRAPHS = {"source code", "html preformatted", "code"}
_CODE_RUNS = {"verbatim char", "html code"}
_BOLD_RUNS = {"strong"}  # mammoth's default style map: the Strong character style is bold
_TRANSPARENT = {f"{W}ins", f"{W}smartTag", f"{W}sdtContent", f"{W}fldSimple", f"{W}customXml"}
_TRANSPARENT |= {f"{W}moveTo", f"{W}dir", f"{W}bdo"}
_SKIPPED = {f"{W}del", f"{W}moveFrom", f"{W}pPr", f"{W}rPr", f"{W}sdtPr", f"{W}sdtEndPr"}
_FALSE = {"0", "false", "off"}


@dataclass(frozen=True, slots=True)
class Formatting:
    bold: bool = False
    italic: bool = False
    strike: bool = False
    code: bool = False
    position: str = ""  # "superscript", "subscript" or ""


@dataclass(slots=True)
class _Parts:
    """What the body refers to: styles by id (names and their list numbering), numbering
    formats, relationship targets, footnotes and endnotes."""

    style_names: dict[str, str]
    style_numbers: dict[str, tuple[str, int]]
    default_style: str
    ordered: dict[tuple[str, int], bool]
    links: dict[str, str]
    notes: dict[tuple[str, str], Any]
    note_order: list[tuple[str, str]] = field(default_factory=list)


def word_html(
    package: zipfile.ZipFile, outline: Outline, limits: Limits, every: int = 200
) -> tuple[str, str, str]:
    """The body as mammoth-shaped HTML, the ``Title`` paragraph's text, and the warning of a
    conversion stopped at its deadline (``""``: none), checked every ``every`` blocks."""
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
    return "".join(writer.out), writer.title, stopped


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
        element.clear()
        while element.getprevious() is not None:
            del parent[0]


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
    def __init__(self, parts: _Parts, outline: Outline | None) -> None:
        self.parts = parts
        self.levels = outline.levels_by_index() if outline is not None else {}
        self.index = 0  # the next body paragraph's number, as word_outline counts them
        self.out: list[str] = []
        self.title = ""
        self.lists: list[tuple[str, int]] = []  # open lists: (tag, level)
        self.pre: list[str] | None = None

    def nested(self) -> _Writer:
        """A writer for a cell, a text box or a note: its own lists, no headings, no title."""
        inner = _Writer(self.parts, None)
        inner.title = "taken"
        return inner

    # --- blocks -------------------------------------------------------------------------

    def block(self, element: Any) -> None:
        if element.tag == f"{W}tbl":
            self.close_open()
            self.out.append(self.table(element))
        else:
            self.paragraph(element)

    def paragraph(self, element: Any) -> None:
        level = self.levels.get(self.index)
        self.index += 1
        style = self.style_of(element)
        name = self.parts.style_names.get(style, "").lower()
        content, boxes = self.content(element)
        if name == "title" and not self.title:
            self.close_open()
            self.title = " ".join(html.unescape(re.sub(r"<[^>]+>", "", content)).split())
        elif level is not None or heading_style_level(name):
            self.close_open()
            rank = level or heading_style_level(name)
            if content.strip():
                self.out.append(f"<h{rank}>{content}</h{rank}>")
        elif name in _CODE_PARAGRAPHS:
            self.close_lists()
            if self.pre is None:
                self.pre = []
            self.pre.append(content)
        elif content.strip():  # an empty paragraph is spacing: a list goes on across it
            number = self.number_of(element, style)
            if number is not None:
                self.close_pre()
                self.list_item(number, content)
            else:
                self.close_open()
                self.out.append(f"<p>{content}</p>")
        for box in boxes:
            self.close_open()
            self.out.append(box)

    def list_item(self, number: tuple[str, int], content: str) -> None:
        num, level = number
        tag = "ol" if self.parts.ordered.get((num, level), True) else "ul"
        while self.lists and self.lists[-1][1] > level:
            self.out.append(f"</li></{self.lists.pop()[0]}>")
        if self.lists and self.lists[-1][1] == level and self.lists[-1][0] != tag:
            self.out.append(f"</li></{self.lists.pop()[0]}>")
        if self.lists and self.lists[-1][1] == level:
            self.out.append("</li>")
        else:
            self.out.append(f"<{tag}>")
            self.lists.append((tag, level))
        self.out.append(f"<li>{content}")

    def close_lists(self) -> None:
        while self.lists:
            self.out.append(f"</li></{self.lists.pop()[0]}>")

    def close_pre(self) -> None:
        if self.pre is not None:
            self.out.append("<pre>" + "\n".join(self.pre) + "</pre>")
            self.pre = None

    def close_open(self) -> None:
        self.close_lists()
        self.close_pre()

    def table(self, element: Any) -> str:
        head: list[str] = []
        body: list[str] = []
        for row in element.iterchildren(f"{W}tr"):
            header = row.find(f"{W}trPr/{W}tblHeader") is not None and not body
            cell_tag = "th" if header else "td"
            cells = []
            for cell in row.iterchildren(f"{W}tc"):
                span = _val(cell.find(f"{W}tcPr/{W}gridSpan"))
                attributes = f' colspan="{span}"' if span and span != "1" else ""
                cells.append(f"<{cell_tag}{attributes}>{self.cell(cell)}</{cell_tag}>")
            (head if header else body).append("<tr>" + "".join(cells) + "</tr>")
        thead = f"<thead>{''.join(head)}</thead>" if head else ""
        tbody = f"<tbody>{''.join(body)}</tbody>" if head else "".join(body)
        return f"<table>{thead}{tbody}</table>"

    def cell(self, cell: Any) -> str:
        """A cell's paragraphs and nested tables, through a writer of their own."""
        inner = self.nested()
        for child in cell:
            if child.tag == f"{W}p":
                self.index += 1  # word_outline counts table paragraphs too
                inner.paragraph(child)
            elif child.tag == f"{W}tbl":
                inner.close_open()
                self.index += sum(1 for _ in child.iter(f"{W}p"))
                inner.out.append(inner.table(child))
            elif child.tag in (f"{W}sdt", f"{W}customXml"):
                for paragraph in child.iter(f"{W}p"):
                    self.index += 1
                    inner.paragraph(paragraph)
        inner.close_open()
        return "".join(inner.out)

    # --- inline -------------------------------------------------------------------------

    def content(self, paragraph: Any) -> tuple[str, list[str]]:
        """A paragraph's inline HTML, and the HTML of the text boxes it anchors."""
        pieces: list[tuple[Formatting, str]] = []
        boxes: list[str] = []
        self.inline(paragraph, pieces, boxes, [False])
        return _merge(pieces), boxes

    def inline(
        self,
        element: Any,
        pieces: list[tuple[Formatting, str]],
        boxes: list[str],
        field: list[bool],
    ) -> None:
        for child in element:
            tag = child.tag
            if tag == f"{W}r":
                self.run(child, pieces, boxes, field)
            elif tag == f"{W}hyperlink":
                inner: list[tuple[Formatting, str]] = []
                self.inline(child, inner, boxes, field)
                href = self.href(child)
                text = _merge(inner)
                raw = (Formatting(), f'<a href="{html.escape(href)}">{text}</a>')
                pieces.append(raw if href and text else (Formatting(), text))
            elif tag in _TRANSPARENT or tag == f"{W}sdt":
                self.inline(child, pieces, boxes, field)
            elif tag in _SKIPPED:
                continue

    def run(
        self, run: Any, pieces: list[tuple[Formatting, str]], boxes: list[str], field: list[bool]
    ) -> None:
        formatting = self.formatting(run.find(f"{W}rPr"))
        for child in run:
            tag = child.tag
            if tag == f"{W}fldChar":
                kind = child.get(f"{W}fldCharType")
                field[0] = kind == "begin"
            elif field[0] or tag == f"{W}instrText":
                continue
            elif tag == f"{W}t":
                pieces.append((formatting, html.escape(child.text or "", quote=False)))
            elif tag == f"{W}tab":
                pieces.append((formatting, "\t"))
            elif tag in (f"{W}br", f"{W}cr"):
                if child.get(f"{W}type") not in ("page", "column"):
                    pieces.append((Formatting(), "<br />"))
            elif tag == f"{W}noBreakHyphen":
                pieces.append((formatting, "-"))
            elif tag in (f"{W}footnoteReference", f"{W}endnoteReference"):
                kind = "footnote" if tag == f"{W}footnoteReference" else "endnote"
                pieces.append((Formatting(), self.note_reference(kind, child.get(f"{W}id") or "")))
            elif tag in (f"{W}drawing", f"{W}pict", f"{_MC}AlternateContent", f"{W}object"):
                self.drawing(child, pieces, boxes)

    def drawing(self, element: Any, pieces: list[tuple[Formatting, str]], boxes: list[str]) -> None:
        """An image's alt text, and any text box inside (its paragraphs follow the paragraph)."""
        if element.tag == f"{_MC}AlternateContent":
            choice = element.find(f"{_MC}Choice")
            element = choice if choice is not None else element
        for box in element.iter(f"{W}txbxContent"):
            inner = self.nested()
            for paragraph in box.iterchildren(f"{W}p"):
                inner.paragraph(paragraph)
            inner.close_open()
            boxes.extend(inner.out)
        for described in element.iter(f"{_WP}docPr"):
            alt = described.get("descr") or ""
            picture = element.find(".//{*}blip") is not None
            if picture or element.find(f".//{_V}imagedata") is not None:
                pieces.append((Formatting(), f'<img alt="{html.escape(alt)}" />'))

    def formatting(self, rpr: Any) -> Formatting:
        if rpr is None:
            return Formatting()
        style = self.parts.style_names.get(_val(rpr.find(f"{W}rStyle")) or "", "").lower()
        position = _val(rpr.find(f"{W}vertAlign")) or ""
        return Formatting(
            bold=_on(rpr.find(f"{W}b")) or style in _BOLD_RUNS,
            italic=_on(rpr.find(f"{W}i")),
            strike=_on(rpr.find(f"{W}strike")) or _on(rpr.find(f"{W}dstrike")),
            code=style in _CODE_RUNS,
            position=position if position in ("superscript", "subscript") else "",
        )

    def href(self, link: Any) -> str:
        rid = link.get(f"{_R}id")
        anchor = link.get(f"{W}anchor")
        target = self.parts.links.get(rid or "", "")
        if anchor:
            return f"{target}#{anchor}"
        return target

    def note_reference(self, kind: str, note_id: str) -> str:
        if (kind, note_id) not in self.parts.notes:
            return ""
        self.parts.note_order.append((kind, note_id))
        number = len(self.parts.note_order)
        return f'<sup><a href="#{kind}-{note_id}" id="{kind}-ref-{note_id}">[{number}]</a></sup>'

    def footnotes(self) -> None:
        if not self.parts.note_order:
            return
        items = []
        for kind, note_id in self.parts.note_order:
            inner = self.nested()
            for paragraph in self.parts.notes[(kind, note_id)].iter(f"{W}p"):
                inner.paragraph(paragraph)
            inner.close_open()
            back = f' <a href="#{kind}-ref-{note_id}">↑</a>'
            body = "".join(inner.out)
            body = body[: -len("</p>")] + back + "</p>" if body.endswith("</p>") else body + back
            items.append(f'<li id="{kind}-{note_id}">{body}</li>')
        self.out.append("<ol>" + "".join(items) + "</ol>")

    # --- styles and numbering -------------------------------------------------------------

    def style_of(self, paragraph: Any) -> str:
        return _val(paragraph.find(f"{W}pPr/{W}pStyle")) or self.parts.default_style

    def number_of(self, paragraph: Any, style: str) -> tuple[str, int] | None:
        numpr = paragraph.find(f"{W}pPr/{W}numPr")
        if numpr is not None:
            num = _val(numpr.find(f"{W}numId"))
            level = _val(numpr.find(f"{W}ilvl"))
            if num and num != "0":
                return num, int(level) if level and level.isdigit() else 0
            if num == "0":
                return None
        return self.parts.style_numbers.get(style)


def _merge(pieces: list[tuple[Formatting, str]]) -> str:
    """Runs as HTML, neighbours of the same formatting in one element."""
    out: list[str] = []
    index = 0
    while index < len(pieces):
        formatting, text = pieces[index]
        index += 1
        while index < len(pieces) and pieces[index][0] == formatting and formatting != Formatting():
            text += pieces[index][1]
            index += 1
        out.append(_wrap(formatting, text))
    return "".join(out)


def _wrap(formatting: Formatting, text: str) -> str:
    if not text:
        return ""
    if formatting.code:
        text = f"<code>{text}</code>"
    if formatting.position == "superscript":
        text = f"<sup>{text}</sup>"
    elif formatting.position == "subscript":
        text = f"<sub>{text}</sub>"
    if formatting.strike:
        text = f"<s>{text}</s>"
    if formatting.italic:
        text = f"<em>{text}</em>"
    if formatting.bold:
        text = f"<strong>{text}</strong>"
    return text


def _read_parts(package: zipfile.ZipFile) -> _Parts:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, huge_tree=True)
    names = set(package.namelist())

    def part(name: str) -> Any:
        return etree.fromstring(package.read(name), parser) if name in names else None

    style_names: dict[str, str] = {}
    style_numbers: dict[str, tuple[str, int]] = {}
    default_style = ""
    styles = part("word/styles.xml")
    if styles is not None:
        for style in styles.iter(f"{W}style"):
            style_id = style.get(f"{W}styleId") or ""
            style_names[style_id] = _val(style.find(f"{W}name")) or ""
            numpr = style.find(f"{W}pPr/{W}numPr")
            num = _val(numpr.find(f"{W}numId")) if numpr is not None else None
            if num and num != "0":
                level = _val(numpr.find(f"{W}ilvl")) if numpr is not None else None
                style_numbers[style_id] = (num, int(level) if level and level.isdigit() else 0)
            is_default = style.get(f"{W}default") in ("1", "true")
            if style.get(f"{W}type") == "paragraph" and is_default:
                default_style = style_id
    return _Parts(
        style_names=style_names,
        style_numbers=style_numbers,
        default_style=default_style,
        ordered=_ordered(part("word/numbering.xml")),
        links=_links(part("word/_rels/document.xml.rels")),
        notes=_notes(part("word/footnotes.xml"), "footnote")
        | _notes(part("word/endnotes.xml"), "endnote"),
    )


def _ordered(root: Any) -> dict[tuple[str, int], bool]:
    """Whether each (numId, level) is numbered (``<ol>``) rather than bulleted."""
    if root is None:
        return {}
    abstract: dict[str, dict[int, bool]] = {}
    for element in root.iter(f"{W}abstractNum"):
        levels = {}
        for level in element.iter(f"{W}lvl"):
            fmt = _val(level.find(f"{W}numFmt")) or "decimal"
            levels[int(level.get(f"{W}ilvl") or 0)] = fmt not in ("bullet", "none")
        abstract[element.get(f"{W}abstractNumId") or ""] = levels
    ordered = {}
    for num in root.iter(f"{W}num"):
        levels = abstract.get(_val(num.find(f"{W}abstractNumId")) or "", {})
        for level, is_ordered in levels.items():
            ordered[(num.get(f"{W}numId") or "", level)] = is_ordered
    return ordered


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
