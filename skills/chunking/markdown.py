"""Markdown -> ``Outline``: where sections, blocks, list items, table rows and code lines begin.

A single pass over the lines, CommonMark-lite: ATX and setext headings, fenced code (backticks
and tildes; an unclosed fence runs to the end of the document), indented code, GFM tables, nested
lists, block quotes, HTML blocks, YAML front matter, and the MkDocs admonitions found in technical
docs (``!!! note`` with an indented body, ``/// tip`` ... ``///``). Anything it does not recognise
is a paragraph, so malformed Markdown is still chunked, just with fewer good cut points.

Example: ``"# A\\n\\ntext\\n\\n## B\\n- x\\n- y\\n"`` gives sections ``A`` (depth 1) and ``B``
(depth 2, parent A), a block break before ``text``, a section break before ``## B`` and list-item
breaks before ``- x`` and ``- y``.
"""

from __future__ import annotations

import re

from skills.chunking import outline as lv
from skills.chunking.outline import Container, Outline, Section

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|$)")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_THEMATIC = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)$")
_LIST_ITEM = re.compile(r"( *)(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$)")
_TABLE_DELIMITER = re.compile(r" {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?)[ \t]")
_BLOCK_FENCE = re.compile(r"/{3,}")  # pymdownx blocks: "/// tip" ... "///"
_HEADING_ATTRIBUTES = re.compile(r"[ \t]*\{[ \t]*[#.][^}]*\}[ \t]*$")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")


def heading_title(raw: str) -> str:
    """The readable title of a heading line's content: no closing #s, no ``{ #anchor }``."""
    title = _HEADING_ATTRIBUTES.sub("", raw.strip())
    return _CLOSING_HASHES.sub("", title).strip()


def parse_markdown(text: str, heading_depth: int = 6) -> Outline:
    """Find the structure of ``text``; headings deeper than ``heading_depth`` open no section."""
    return _MarkdownParser(text, heading_depth).run()


class _MarkdownParser:
    """One pass over the lines; a small state machine for the multi-line blocks."""

    def __init__(self, text: str, heading_depth: int) -> None:
        self.text = text
        self.heading_depth = heading_depth
        self.outline = Outline(length=len(text))
        self.open_sections: list[tuple[int, int, str, int]] = []  # (start, depth, title, index)
        self.section_bounds: list[list[int]] = []  # [start, end] per section, end filled later

    # -- sections ---------------------------------------------------------------------------
    def open_section(self, start: int, depth: int, title: str) -> None:
        if depth > self.heading_depth:
            self.outline.add_break(start, lv.DEEP_HEADING)
            return
        self.outline.add_break(start, lv.SECTION - depth)
        while self.open_sections and self.open_sections[-1][1] >= depth:
            self.close_section(start)
        parent = self.open_sections[-1][3] if self.open_sections else -1
        index = len(self.outline.sections)
        self.outline.sections.append(Section(start, start, depth, title, parent))
        self.open_sections.append((start, depth, title, index))

    def close_section(self, end: int) -> None:
        start, depth, title, index = self.open_sections.pop()
        parent = self.outline.sections[index].parent
        self.outline.sections[index] = Section(start, end, depth, title, parent)

    # -- the pass ---------------------------------------------------------------------------
    def run(self) -> Outline:
        text = self.text
        outline = self.outline
        add_break = outline.add_break
        has_carriage_returns = "\r" in text
        position = 0
        previous_blank = True
        paragraph_start = -1  # start of the current paragraph's first line (setext candidate)
        paragraph_lines = 0
        fence: tuple[str, int, int, str] | None = None  # (char, length, start, reopen line)
        fence_first_body_line = False
        indented_code = False
        table: tuple[int, int, str] | None = None  # (start, body_start, reopen)
        list_columns: list[int] = []  # content columns of the open list items
        admonition_body = False
        table_rows = 0
        lines = text.split("\n")
        last = len(lines) - 1
        if lines and lines[0].rstrip() == "---":
            position = self._front_matter(lines)
            start_line = text.count("\n", 0, position)
            lines = lines[start_line:]
            last = len(lines) - 1
        for number, raw in enumerate(lines):
            start = position
            position += len(raw) + 1
            line = raw[:-1] if has_carriage_returns and raw.endswith("\r") else raw
            stripped = line.lstrip(" \t")

            # Inside a fenced code block only the closing fence matters.
            if fence is not None:
                char, length, fence_start, reopen = fence
                is_close = (
                    stripped.startswith(char * length)
                    and not stripped.strip(char).strip()
                    and len(line) - len(stripped) <= 3
                )
                if stripped:
                    add_break(
                        start, lv.AVOID if (fence_first_body_line or is_close) else lv.CODE_LINE
                    )
                fence_first_body_line = False
                if is_close:
                    end = min(position, len(text))
                    outline.containers.append(
                        Container(fence_start, body_start_of(fence_start, text), end, reopen)
                    )
                    fence = None
                    previous_blank = False
                continue

            if not stripped:  # blank line
                if table is not None:
                    self._close_table(table, start)
                    table = None
                paragraph_start, paragraph_lines = -1, 0
                previous_blank = True
                continue

            indent = len(line) - len(stripped)
            first = stripped[0]

            # A line of prose, the common case, skips every block rule.
            prose = (
                first.isalpha()
                and indent < 4
                and table is None
                and not indented_code
                and not admonition_body
                and "|" not in line
            )
            if not prose:
                if table is not None:
                    if "|" in line and not _starts_other_block(stripped):
                        # no cut between the header, the delimiter row and the first body row
                        add_break(start, lv.AVOID if table_rows < 2 else lv.LINE)
                        table_rows += 1
                        previous_blank = False
                        continue
                    self._close_table(table, start)
                    table = None

                if indented_code:
                    if indent >= 4 or line.startswith("\t"):
                        add_break(start, lv.CODE_LINE)
                        previous_blank = False
                        continue
                    indented_code = False

                if admonition_body and (indent >= 4 or line.startswith("\t")):
                    add_break(start, lv.BLOCK if previous_blank else lv.LINE)
                    previous_blank = False
                    continue
                admonition_body = False

                # Setext underline: turns the paragraph above into a heading.
                if paragraph_start >= 0 and first in "=-" and _SETEXT.match(line):
                    depth = 1 if first == "=" else 2
                    title = heading_title(text[paragraph_start:start].replace("\n", " "))
                    self.open_section(paragraph_start, depth, title)
                    add_break(start, lv.AVOID)
                    paragraph_start, paragraph_lines = -1, 0
                    previous_blank = False
                    continue

                if first == "#" and indent <= 3:
                    match = _ATX.match(line)
                    if match:
                        depth = len(match.group(1))
                        self.open_section(start, depth, heading_title(line[match.end() :]))
                        list_columns.clear()
                        paragraph_start, paragraph_lines = -1, 0
                        previous_blank = False
                        continue

                if first in "`~" and indent <= 3:
                    match = _FENCE.match(line)
                    if match and not (match.group(2)[0] == "`" and "`" in match.group(3)):
                        add_break(
                            start, lv.BLOCK if previous_blank or paragraph_start < 0 else lv.LINE
                        )
                        fence = (
                            match.group(2)[0],
                            len(match.group(2)),
                            start,
                            line.rstrip() + "\n",
                        )
                        fence_first_body_line = True
                        paragraph_start, paragraph_lines = -1, 0
                        previous_blank = False
                        continue

                if first in "-*_" and indent <= 3 and _THEMATIC.match(line):
                    add_break(start, lv.THEMATIC_BREAK)
                    paragraph_start, paragraph_lines = -1, 0
                    list_columns.clear()
                    previous_blank = False
                    continue

                if (
                    (indent >= 4 or line.startswith("\t"))
                    and previous_blank
                    and not list_columns
                    and paragraph_start < 0
                ):
                    indented_code = True
                    add_break(start, lv.BLOCK)
                    previous_blank = False
                    continue

                item = _LIST_ITEM.match(line) if (first in "-+*" or first.isdigit()) else None
                if item is not None and not _THEMATIC.match(line):
                    item_indent = len(item.group(1))
                    while list_columns and list_columns[-1] > item_indent:
                        list_columns.pop()
                    depth = len(list_columns)
                    if list_columns and list_columns[-1] <= item_indent and depth:
                        depth = len(list_columns)
                    add_break(start, lv.LIST_ITEM - min(depth, 8))
                    list_columns.append(item_indent + max(item.end() - item_indent, 1))
                    paragraph_start, paragraph_lines = -1, 0
                    previous_blank = False
                    continue

                if "|" in line and number < last and paragraph_lines == 0:
                    next_line = lines[number + 1].rstrip("\r")
                    if _TABLE_DELIMITER.match(next_line) and "-" in next_line:
                        delimiter_end = position + len(lines[number + 1]) + 1
                        reopen = line + "\n" + next_line + "\n"
                        table = (start, min(delimiter_end, len(text)), reopen)
                        table_rows = 0  # the delimiter row comes next
                        add_break(start, lv.BLOCK)
                        previous_blank = False
                        paragraph_start, paragraph_lines = -1, 0
                        continue

                if _ADMONITION.match(stripped):
                    add_break(start, lv.BLOCK)
                    admonition_body = True
                    paragraph_start, paragraph_lines = -1, 0
                    previous_blank = False
                    continue
                if first == "/" and _BLOCK_FENCE.match(stripped):
                    opening = stripped.rstrip("/ \t") != ""
                    add_break(start, lv.BLOCK if opening else lv.AVOID)
                    paragraph_start, paragraph_lines = -1, 0
                    previous_blank = False
                    continue

            # A paragraph line (or a continuation of a list item, quote or HTML block).
            if previous_blank or (paragraph_start < 0 and not list_columns):
                if list_columns and indent < list_columns[-1]:
                    list_columns.clear()
                add_break(start, lv.BLOCK if previous_blank else lv.LINE)
            else:
                add_break(start, lv.LINE)
            if paragraph_start < 0:
                paragraph_start = start
            paragraph_lines += 1
            previous_blank = False

        end = len(text)
        if fence is not None:  # an unclosed fence runs to the end of the document
            outline.containers.append(
                Container(fence[2], body_start_of(fence[2], text), end, fence[3])
            )
        if table is not None:
            self._close_table(table, end)
        while self.open_sections:
            self.close_section(end)
        outline.containers.sort(key=lambda container: container.start)
        outline.freeze()
        return outline

    def _close_table(self, table: tuple[int, int, str], end: int) -> None:
        start, body_start, reopen = table
        self.outline.containers.append(Container(start, body_start, end, reopen))

    def _front_matter(self, lines: list[str]) -> int:
        """Offset just past a leading YAML front matter block (``---`` ... ``---``), else 0."""
        offset = len(lines[0]) + 1
        for raw in lines[1:]:
            offset += len(raw) + 1
            if raw.rstrip() in {"---", "..."}:
                self.outline.add_break(min(offset, len(self.text)), lv.BLOCK)
                return min(offset, len(self.text))
        return 0


def body_start_of(fence_start: int, text: str) -> int:
    """Start of the line after the fence's opening line."""
    newline = text.find("\n", fence_start)
    return len(text) if newline < 0 else newline + 1


def _starts_other_block(stripped: str) -> bool:
    return stripped.startswith(("#", "```", "~~~", "> "))
