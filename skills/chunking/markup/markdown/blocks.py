"""Markdown's blocks -> ``Outline``: where sections, blocks, list items and containers begin.

Only block starts are visited in Python. Regular expressions find the fences, the blank-line gaps
and the lines that start with a block marker; the lines inside a paragraph, a code block or a table
are never looked at one by one: the packer cuts between them lazily, and only when that block alone
exceeds the budget. CommonMark-lite: ATX and setext headings, fenced code (backticks and tildes; an
unclosed fence runs to the end of the document) and indented code, GFM tables, HTML tables (as
Document Intelligence writes them, see ``html_tables``), nested lists, block quotes, YAML front
matter (whose ``title:`` names a page that has no H1), and the MkDocs admonitions of technical
docs (``!!! note`` with an indented body, ``/// tip`` ... ``///``). Anything else is a paragraph,
so malformed Markdown is still chunked, with fewer good cut points.

Example: ``"# A\\n\\ntext\\n\\n## B\\n- x\\n- y\\n"`` gives sections ``A`` (depth 1) and ``B``
(depth 2, parent A), a block break before ``text``, a section break before ``## B`` and list-item
breaks before ``- x`` and ``- y``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from skills.chunking.levels import Level
from skills.chunking.markup.markdown.dialects import (
    TAB,
    ZONE,
    ZONE_END,
    marker_rule,
    nothing_to_read,
)
from skills.chunking.markup.markdown.fences import (
    CODE_INDENT,
    NESTED_FENCE,
    closes_fence,
    fenced_blocks,
    indented_code_lines,
    line_indent,
    opens_fence,
)
from skills.chunking.markup.markdown.inline import heading_title, link_text
from skills.chunking.markup.markdown.matter import back_matter, front_matter
from skills.chunking.markup.markdown.tables import html_tables, pipe_tables
from skills.chunking.markup.plaintext import MIN_TITLES, numbered_title
from skills.chunking.outline import Attach, Container, Outline, OutlineBuilder, SectionTree, Spans

#: A paragraph that may be a numbered title (``plaintext.numbered_title``) after blank lines:
#: a number of two parts or more (``3.1.``; ``3. Scope`` is an ordered list item here).
_NUMBERED_START = re.compile(r"(?:\A|(?<=\n\n)|(?<=\n[ \t]\n))[ \t]{0,3}\d{1,2}\.\d")
# A line that may start a block, and (for ``sections_only``) a line that may make a heading: ATX,
# or a setext underline (or a thematic break). Each is matched at a line start (``_MARKER``,
# ``_HEADING_MARKER``) and, in the event scans, looked ahead to after a newline.
_MARKER_LINE = r"[ \t]*(?:[#=\-*_+>!?/`~:]|\d{1,9}[.)])"
_HEADING_LINE = r" {0,3}(?:#|=+[ \t]*(?:\n|$)|-+[ \t]*(?:\n|$))"
_MARKER = re.compile(_MARKER_LINE)
_HEADING_MARKER = re.compile(_HEADING_LINE)
_QUOTE_MARKS = re.compile(r" {0,3}>(?:[ \t]*>)*[ \t]?")  # "> ", "> > ": a quote line's markers
# The event patterns begin with a plain newline, which lets the regex engine jump from one
# newline to the next; the line (or block) of interest starts where the match ends. A line after
# blank lines is both a block start and maybe a marker line: ``_MARKER`` tells. A run of blank
# lines is taken whole (possessively) and ``_events`` checks that a block follows it: a look-ahead
# failing at the end of a long run would have the run rescanned from each of its newlines.
_EVENT = re.compile(
    r"\n(?:"
    r"(?P<gap>(?:[ \t]*+\n)++)"  # blank lines: a new block starts after them
    rf"|(?P<marker>)(?={_MARKER_LINE})"
    r")"
)
_LINE_CONTENT = re.compile(r"[ \t]*\S")
_HEADING_EVENT = re.compile(rf"\n(?P<marker>)(?={_HEADING_LINE})")
_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+|$)")
#: Three or more ``#`` lines in a row (``_hash_comments``), and a bare ``#`` line among them.
_HASH_RUN = re.compile(r"(?:^ {0,3}#[^\n]*+\n){3,}", re.MULTILINE)
_BARE_HASH = re.compile(r"^ {0,3}#+[ \t]*$", re.MULTILINE)
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_THEMATIC = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_LIST_ITEM = re.compile(r"( *)(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$)")
_CONTENT = re.compile(r"\S")
_COMMENT_START = re.compile(r"^ {0,3}<!--", re.MULTILINE)


def parse_markdown(text: str, heading_depth: int = 6, sections_only: bool = False) -> Outline:
    """Find the structure of ``text``; headings deeper than ``heading_depth`` open no section.

    ``sections_only`` finds the sections and code blocks and nothing else (no block breaks, no
    lists or tables): all a strategy needs that only wants heading paths, at a fraction of the cost.
    """
    return _MarkdownParser(text, heading_depth, sections_only).run()


class _MarkdownParser:
    """Block starts in document order, with the little state lists and sections need."""

    def __init__(self, text: str, heading_depth: int, sections_only: bool = False) -> None:
        self.text = text
        self.sections_only = sections_only
        self.builder = OutlineBuilder(len(text))
        self.builder.reads_as(link_text)  # the packer weighs a link by its text
        self.sections = SectionTree(self.builder, heading_depth)
        self.list_columns: list[int] = []  # content columns of the open list items
        self.items: dict[int, tuple[int, int]] = {}  # content column -> its last item's line
        self.opaque: list[tuple[int, int]] = []  # fences, tables, front matter: no events inside
        self.admonition_column = -1  # content column of an open ``!!! note`` body, -1 for none
        self.skip_until = 0  # the end of the indented code block found last: no events inside
        self.page_title = ""  # the front matter's ``title:``
        self.numbered: dict[int, tuple[int, int]] = {}  # numbered titles: start -> (end, parts)
        self.numbered_sections: set[int] = set()  # the sections they open
        #: ``#`` lines of a comment block, not headings (``_hash_comments``): line start ->
        #: whether a new paragraph starts there (after a bare ``#``)
        self.hash_comments: dict[int, bool] = {}

    def run(self) -> Outline:
        text = self.text
        start = self._front_matter()
        self._fences(start)
        self._back_matter(start)
        comments = self._comments(start)
        if not self.sections_only:
            self._tables(start)
        opaque = Spans(self.opaque)
        self.hash_comments = self._hash_comments(start)
        if not self.sections_only:
            self.numbered = self._numbered_titles(start, opaque)
            first = _CONTENT.search(text, start)
            if first is not None and not opaque.hold(first.start()):  # the first block: no gap
                self._bare_line(text.rfind("\n", 0, first.start()) + 1)
            if line_indent(text, start) >= CODE_INDENT:
                self._indented_code(start, CODE_INDENT, opaque)
        for kind, at in self._events(start):
            if at < self.skip_until or opaque.hold(at):
                continue  # inside a code block or a table
            if kind == "gap":
                self._gap(at, opaque)
            elif not self._nested_fence(at, opaque) and not self._quoted_fence(at, opaque):
                self._marker(at)
        leads: set[int] = set()  # where the comments that lead in end
        for comment in comments:
            self._lead_in_if_under_heading(comment, leads)
        self.sections.close_all(len(text))
        if self.page_title and not any(s.depth == 1 for s in self.builder.sections):
            self.builder.enclose(self.page_title)
        return self.builder.build()

    def _events(self, start: int) -> Iterator[tuple[str, int]]:
        """``(kind, position)`` of the block events from the line start ``start`` on."""
        text = self.text
        is_marker = (_HEADING_MARKER if self.sections_only else _MARKER).match
        if start == 0 and is_marker(text):  # the first line has no newline before it
            yield "marker", 0
        events = _HEADING_EVENT if self.sections_only else _EVENT
        for match in events.finditer(text, max(start - 1, 0)):
            kind, at = match.lastgroup or "", match.end()
            if kind == "gap" and not _LINE_CONTENT.match(text, at):
                continue  # blank lines at the end
            yield kind, at
            if kind == "gap" and is_marker(text, at):
                yield "marker", at

    # -- blocks ------------------------------------------------------------------------------
    def _front_matter(self) -> int:
        """Where the page's text begins, after its front matter (``front_matter``); its
        ``title:`` names the page when no H1 does (``run``): the static-site generators (Jekyll,
        Hugo, Docusaurus, MkDocs) title a page there, and npm's command pages have no other
        title, so every one of them has a "Synopsis" and a "Description" that nothing else
        tells apart. Its ``description:`` leads the page's first chunk (``Outline.lead``)."""
        end, title, description = front_matter(self.text)
        self.page_title = title
        self.builder.front_matter(end, description)
        return end

    def _back_matter(self, start: int) -> None:
        """Where the page's text ends, before its back matter (``back_matter``), unless that
        lies in a code block (an unclosed fence runs to the end)."""
        end = back_matter(self.text, start)
        if end < len(self.text) and not Spans(self.opaque).hold(end):
            self.builder.back_matter(end)

    def _fences(self, start: int) -> None:
        """The fenced code blocks from ``start`` on (``fences.fenced_blocks``)."""
        for block in fenced_blocks(self.text, start):
            self._container(block)
            self._break_after(block.end)

    def _comments(self, start: int) -> list[tuple[int, int]]:
        """HTML comments that open a line outside code blocks, to their ``-->``: one block, with
        nothing read inside (the ``- v14.2.0`` lines of a version history are not list items)."""
        text = self.text
        fences = Spans(self.opaque)
        comments: list[tuple[int, int]] = []
        for match in _COMMENT_START.finditer(text, start):
            at = match.start()
            if fences.hold(at) or (comments and at < comments[-1][1]):
                continue
            close = text.find("-->", match.end())
            if close < 0:  # nor will any later one close: an unclosed comment is text
                break
            end = min(_line_end(text, close) + 1, len(text))
            if at == 0 or not text[text.rfind("\n", 0, at - 1) + 1 : at - 1].strip():
                self.builder.cut(at, Level.BLOCK)  # after blank lines: a block of its own
            self._break_after(end)
            self._bare_line(at)  # a macro: <!-- md:version 9.2 -->
            comments.append((at, end))
        self.opaque.extend(comments)
        return comments

    def _lead_in_if_under_heading(self, comment: tuple[int, int], leads: set[int]) -> None:
        """A comment right under a heading (or under such a comment) leads into the section with
        it, as part of the heading: Node.js keeps each API's version history there
        (``<!-- YAML added: v0.1.21 -->``), and a child of a heading and its history alone
        answers nothing. Elsewhere (a page break of Document Intelligence, a lint directive) a
        comment is a block like any other."""
        text = self.text
        start, end = comment
        previous = start  # where the text before the blank lines ends
        while previous > 0 and text[previous - 1].isspace():
            previous -= 1
        if previous in leads or text.rfind("\n", 0, previous) + 1 in self.builder.heading_lines:
            line_end = end - text.endswith("\n", start, end)
            self.builder.heading_line(start, line_end)
            leads.add(line_end)

    def _tables(self, start: int) -> None:
        """Tables outside code blocks (``tables``): HTML tables, then pipe tables outside them;
        each a container and a block of its own."""
        for table in html_tables(self.text, start, Spans(self.opaque)):
            self._container(table)
            self._break_after(table.end)  # a footnote right after it
        for table in pipe_tables(self.text, start, Spans(self.opaque)):
            self._container(table)

    def _container(self, container: Container) -> None:
        """A code block or table: a block of its own, with no event read inside it."""
        self.builder.container(container)
        self.builder.cut(container.start, Level.BLOCK)
        self.opaque.append((container.start, container.end))

    def _gap(self, block_start: int, opaque: Spans) -> None:
        """Blank lines end the open lists (and admonition bodies) unless the next line is an item
        or indented into them; a block indented four columns past them is indented code."""
        self.builder.cut(block_start, Level.BLOCK)
        if self.text[block_start] in "<{[! \t":  # most blocks start with a word
            self._bare_line(block_start)
        if block_start in self.numbered and not self.list_columns:
            self._numbered_title(block_start)
        indent = line_indent(self.text, block_start)
        open_list = self.list_columns and indent < self.list_columns[-1]
        if open_list and not _LIST_ITEM.match(self.text, block_start):
            while self.list_columns and self.list_columns[-1] > indent:
                self.list_columns.pop()
        if indent < self.admonition_column:
            self.admonition_column = -1
        column = max(self.list_columns[-1] if self.list_columns else 0, self.admonition_column)
        if indent >= column + CODE_INDENT:
            self._indented_code(block_start, column + CODE_INDENT, opaque)

    def _hash_comments(self, start: int) -> dict[int, bool]:
        """The ``#`` lines that are a comment block, not headings: three or more in a row with a
        bare ``#`` among them. A license quoted in a text file as shell comments (ICU's
        ``icu.txt``: `` #  * IPADIC (Japanese)``, `` #``) read as 290 headings, one line each;
        no outline puts three headings on consecutive lines with an empty one among them. A
        bare ``#`` parts the comment's paragraphs, as a blank line would: line start -> whether
        a paragraph starts there."""
        found: dict[int, bool] = {}
        for run in _HASH_RUN.finditer(self.text, start):
            block = run.group()
            if _BARE_HASH.search(block) is None:
                continue
            after_bare = True
            position = run.start()
            for line in block.splitlines(keepends=True):
                found[position] = after_bare
                after_bare = _BARE_HASH.fullmatch(line.rstrip("\n")) is not None
                position += len(line)
        return found

    def _numbered_titles(self, start: int, opaque: Spans) -> dict[int, tuple[int, int]]:
        """The paragraphs that are numbered titles by plain text's rule, outside code and
        tables, when there are at least ``MIN_TITLES`` of them. A license read as Markdown for
        its setext title (MPL 2.0: ``1. Definitions`` underlined with ``---``) numbers its
        subsections in plain lines (``3.1. Distribution of Source Form``)."""
        found = {}
        for match in _NUMBERED_START.finditer(self.text, start):
            title = None if opaque.hold(match.start()) else numbered_title(self.text, match.start())
            if title is not None:
                found[match.start()] = title
        return found if len(found) >= MIN_TITLES else {}

    def _numbered_title(self, start: int) -> None:
        """Open the section of the numbered title at ``start``, nested in the innermost section
        a Markdown heading opened: ``3.1.`` under ``3. Responsibilities`` (an H2) is depth 3."""
        end, parts = self.numbered[start]
        open_sections = self.sections.open
        base = next(
            (
                self.builder.sections[index].depth
                for index in reversed(open_sections)
                if index not in self.numbered_sections
            ),
            0,
        )
        self.numbered_sections.add(len(self.builder.sections))
        line = self.text[start:end]
        self.sections.heading(start, min(6, base + parts - 1), " ".join(line.split()))
        self.builder.heading_line(start, end)

    def _break_after(self, end: int) -> None:
        """A block starts at ``end``, where a code block or table ends, if text follows it on
        the next line (a paragraph with no blank line before it). An empty quote line is blank:
        the quote's next paragraph starts its own block after it."""
        if self.text[end : _line_end(self.text, end)].strip("> \t\r"):
            self.builder.cut(end, Level.BLOCK)

    def _bare_line(self, block_start: int) -> None:
        """Note a block that opens with lines with nothing to read (``dialects.nothing_to_read``:
        bare HTML tags, Hugo's shortcodes, link definitions, badges): never a piece alone, they
        stay with the neighbour their rule names (most with the piece before them)."""
        found = nothing_to_read(self.text, block_start)
        if found is None:
            return
        end, after, rule = found
        if rule.attach is Attach.NEXT:
            self.builder.label_line(block_start, end)
        else:
            self.builder.bare_line(block_start, end)
        if rule.block_after:
            self._break_after(after)

    def _indented_code(self, start: int, column: int, opaque: Spans) -> None:
        """An indented code block from ``start``: its lines indented at least ``column``, blank
        lines between them included. Like a fenced one it stays whole while it fits and is cut
        between lines when it alone does not; there is no fence line to reopen."""
        match = indented_code_lines(column).match(self.text, start)
        if match is None or match.end() <= start:
            return
        # containers never nest: stop before a fence or table
        end = min(match.end(), opaque.first_start_after(start))
        self.builder.container(Container(start, start, end, ""))
        self.skip_until = end
        self._break_after(end)

    def _nested_fence(self, start: int, opaque: Spans) -> bool:
        """A fenced code block in a list item or admonition body, indented four columns or more
        (those indented less are paired beforehand, in ``_fences``; more than three columns past
        the item's content it is indented code). It ends at its closing fence, or before the first
        line indented less than the item's content, which ends the item and the block."""
        text = self.text
        if text[start : start + 1] not in " \t":
            return False
        column = max(self.list_columns[-1] if self.list_columns else 0, self.admonition_column)
        indent = line_indent(text, start)
        if column <= 0 or not CODE_INDENT <= indent < column + CODE_INDENT:
            return False
        opening = NESTED_FENCE.match(text, start)
        if opening is None or not opens_fence(opening.group(1), opening.group(2)):
            return False

        def content(position: int, line_end: int) -> int:
            if text[position:line_end].strip() and line_indent(text, position) < column:
                return -1  # the item ends, and its block
            return position

        body = min(opening.end() + 1, len(text))
        self._scanned_fence(start, opening, body, opaque, content)
        return True

    def _quoted_fence(self, start: int, opaque: Spans) -> bool:
        """A fenced code block inside a block quote (a GitHub alert's example): a container like
        any fence, so it stays whole while it fits and each piece of a longer one reopens it with
        its ``> ```lang`` line. It ends at its closing fence, or where the quote ends."""
        text = self.text
        line_end = _line_end(text, start)
        quote = _QUOTE_MARKS.match(text, start, line_end)
        opening = quote and NESTED_FENCE.match(text, quote.end(), line_end)
        if not opening or not opens_fence(opening.group(1), opening.group(2)):
            return False

        def content(position: int, line_end: int) -> int:
            quote = _QUOTE_MARKS.match(text, position, line_end)
            return -1 if quote is None else quote.end()  # the quote ends, and its block

        self._scanned_fence(start, opening, min(line_end + 1, len(text)), opaque, content)
        return True

    def _scanned_fence(
        self,
        start: int,
        opening: re.Match[str],
        body: int,
        opaque: Spans,
        content: Callable[[int, int], int],
    ) -> None:
        """A fenced block whose lines are read past a prefix (a list item's indentation, a
        quote's ``>``): ``content(line, line_end)`` says where a line's content starts, or -1 when
        the line ends the block. The block ends at its closing fence or there; its opening line
        is reopened by every piece, and no event is read inside it."""
        text = self.text
        close = end = min(len(text), opaque.first_start_after(start))  # containers never nest
        position = body
        while position < end:
            line_end = _line_end(text, position)
            at = content(position, line_end)
            if at < 0:
                close = end = position
                break
            fence = NESTED_FENCE.match(text, at, line_end)
            if fence and closes_fence(opening.group(1), fence.group(1), fence.group(2)):
                close, end = position, min(line_end + 1, end)
                break
            position = line_end + 1
        reopen = text[start : opening.end()].rstrip() + "\n"
        avoid = (body, close) if close < end else (body,)
        self.builder.container(Container(start, body, end, reopen, avoid))
        self.builder.cut(start, Level.BLOCK)
        self.skip_until = end
        self._break_after(end)

    def _marker(self, start: int) -> None:
        text = self.text
        line_end = _line_end(text, start)
        line = text[start:line_end]
        stripped = line.lstrip()
        first = stripped[:1]
        if first in "#:" and self._variant(start, line, line_end):
            return
        if first == "#" and start in self.hash_comments:
            if self.hash_comments[start]:
                self.builder.cut(start, Level.BLOCK)
            return
        if first == "#":
            match = _ATX.match(line)
            if match:
                self.sections.heading(
                    start, len(match.group(1)), heading_title(line[match.end() :])
                )
                self.builder.heading_line(start, line_end)
                self.list_columns.clear()
                return
        # a tab group's closing line belongs to its last tab, up to the next block
        closes_tabs = bool(first == "-" and _THEMATIC.match(line)) and self.sections.close_variant(
            self._next_line(line_end), "tab"
        )
        if not closes_tabs and first in "=-" and _SETEXT.match(line) and self._setext(start, first):
            return
        if closes_tabs or (first in ("-", "*", "_") and _THEMATIC.match(line)):
            # The break closes what comes before it, so a piece ends after it: the cut there is
            # as good as the break.
            self.builder.cut(start, Level.THEMATIC_BREAK)
            self.builder.bare_line(start, line_end)
            after = _CONTENT.search(text, line_end)
            if after is not None:
                self.builder.cut(text.rfind("\n", 0, after.start()) + 1, Level.THEMATIC_BREAK)
            self.list_columns.clear()
            return
        item = _LIST_ITEM.match(line)
        if item is not None:
            indent = len(item.group(1))
            while self.list_columns and self.list_columns[-1] > indent:
                self.list_columns.pop()
            if self.list_columns:  # nested: the open item's first line introduces this list
                label = self.items.get(self.list_columns[-1])
                if label is not None:
                    self.builder.label_line(label[0], label[1])
            self.builder.cut(start, Level.list_item(len(self.list_columns)))
            column = indent + max(item.end() - indent, 1)
            self.list_columns.append(column)
            self.items[column] = (start, line_end)
            return
        if first == ">":
            if self._opens_quote_block(start, stripped):
                self.builder.cut(start, Level.BLOCK)
            return
        rule = marker_rule(line)  # the dialects' markers (``dialects.MARKER_RULES``)
        if rule is not None:
            self.builder.cut(start, rule.level)
            if rule.attach is Attach.NEXT:  # it leads into its body
                self.builder.label_line(start, line_end)
            if rule.opens_body:
                self.admonition_column = line_indent(text, start) + CODE_INDENT

    def _variant(self, start: int, line: str, line_end: int) -> bool:
        """A DocFX tab or zone marker line: it opens a labelled variant of the section it is in
        (``SectionTree.variant``), leading into it as a heading does; ``::: zone-end`` closes a
        zone and, with nothing to read, stays with the piece before it. Read as a heading, a tab
        stayed the document's H1 to its end: every later child read only ``Azure portal``."""
        tab = TAB.match(line) or ZONE.match(line)
        if tab is not None:
            kind = "tab" if line.lstrip().startswith("#") else "zone"
            self.sections.variant(start, heading_title(tab.group(1)), kind)
            self.builder.heading_line(start, line_end)
            self.list_columns.clear()
            return True
        if ZONE_END.match(line) is None:
            return False
        after = self._next_line(line_end)
        self.sections.close_variant(after, "zone")
        self.builder.bare_line(start, line_end)
        self.builder.cut(after, Level.BLOCK)
        return True

    def _next_line(self, end: int) -> int:
        """The start of the first non-blank line after ``end`` (the end of the text if none)."""
        after = _CONTENT.search(self.text, end)
        return len(self.text) if after is None else self.text.rfind("\n", 0, after.start()) + 1

    def _opens_quote_block(self, start: int, stripped: str) -> bool:
        """Whether a quote line starts a block: the quote's first line, the first after an empty
        quote line, or a heading, list item or table row inside the quote. The other lines
        continue a paragraph (a hard-wrapped quote): a break there would cut mid-sentence."""
        text = self.text
        previous = text[text.rfind("\n", 0, start - 1) + 1 : start - 1].lstrip() if start else ""
        if not previous.startswith(">") or not previous.strip("> \t"):
            return True
        content = stripped.lstrip("> \t")
        return content.startswith(("#", "|")) or _LIST_ITEM.match(content) is not None

    def _setext(self, underline: int, first: str) -> bool:
        """An ``===``/``---`` line under a paragraph line makes that line a heading; so it does
        under a numbered line (``1. Definitions``) in a document that numbers its titles."""
        text = self.text
        if underline < 2 or text[underline - 1] != "\n":
            return False
        previous = text.rfind("\n", 0, underline - 1) + 1
        line = text[previous : underline - 1]
        if not line.strip() or line.lstrip().startswith(("#", ">", "|")):
            return False
        numbered = bool(self.numbered) and numbered_title(line, 0) is not None
        if _LIST_ITEM.match(line) and not numbered:
            return False
        if numbered:  # "3. Responsibilities" over "---" in a document of numbered titles
            self.list_columns.clear()  # is a title, not a list item (MPL 2.0)
        if self.list_columns and line_indent(text, underline) < self.list_columns[-1]:
            # the line above continues a list item lazily, and CommonMark gives a setext
            # underline no such continuation: this ``---`` is a thematic break that ends the list
            return False
        self.sections.heading(previous, 1 if first == "=" else 2, heading_title(line))
        self.builder.cut(underline, Level.AVOID)
        line_end = _line_end(text, underline)
        self.builder.heading_line(previous, line_end)
        self.builder.heading_line(underline, line_end)
        return True


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end
