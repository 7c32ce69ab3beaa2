"""HTML to the engine's Markdown: the page's content, not its chrome.

Boilerplate is removed before conversion: the ``head``, ``script``, ``style``, ``noscript``,
``template``, ``svg``, ``iframe``, ``form``, ``nav`` and ``aside``, the page-level ``header`` and
``footer`` (one inside an ``article`` or ``section`` is that part's own and stays), the ARIA
``banner``, ``navigation``, ``contentinfo``, ``search`` and ``complementary`` roles, hidden
elements, and cookie or consent banners (an ``id`` or ``class`` naming cookies, consent or
GDPR). When the page has a ``main`` (or else exactly one ``article``), only that is converted.

markdownify (over BeautifulSoup with the standard library's parser) writes the rest: ``h1``-``h6``
as ATX headings, lists, ``pre`` as a fenced block (the fence longer than any backtick run inside,
the language from a ``language-*`` class), tables as pipe tables whose header is the ``thead`` or
first row, with ``|`` escaped in cells. The title is ``<title>``, else the first ``h1``.

The work is linear in the page's size whatever its shape. One walk over the parsed page (a loop,
not recursion) marks the boilerplate, which the converter then skips (removing elements one by
one from BeautifulSoup's tree costs a scan of their siblings each); ordered lists are numbered
from one count per list. markdownify's own cost grows with nesting depth (each element rewrites
the text of all it holds, and looks up its ancestors), and it recurses: an element nested more
than :data:`MAX_DEPTH` levels deep is kept as its plain text, with a warning. Real pages nest a few
dozen levels; thousands of nested ``div``, tables in tables or lists in lists are hostile.

>>> page = b"<title>T</title><nav>menu</nav><h1>Hello</h1><p>World</p>"
>>> print(html_to_markdown(page, Limits()).text, end="")
# Hello
<BLANKLINE>
World
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from skills.formats.conversion import ConversionError, Converted, Limits, titled

_DROPPED_TAGS = frozenset(
    (
        *("head", "title", "script", "style", "noscript", "template", "svg", "iframe", "form"),
        *("nav", "aside"),
    )
)
_PAGE_CHROME = frozenset(("header", "footer"))  # dropped unless inside one of _SECTIONING
_SECTIONING = frozenset(("article", "section", "main"))
_CELLS = frozenset(("td", "th"))
_DROPPED_ROLES = {"banner", "navigation", "contentinfo", "search", "complementary"}
_BANNER = re.compile(r"cookie|consent|gdpr", re.IGNORECASE)
_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)")
_BACKTICKS = re.compile(r"`+")
_BLANK_LINES = re.compile(r"\n{3,}")
_SPACES = re.compile(r"\s+")


#: markdownify's speed on the bench (bench/formats.py: 0.44 MB/s), with room for a slower core
HTML_BYTES_PER_SECOND = 0.25 * 2**20
#: Elements nested deeper than this are kept as their text: markdownify's time per element grows
#: with its depth, and it recurses (two to three Python frames a level).
MAX_DEPTH = 100
#: markdownify's slowdown per level of nesting: lists nested 49 deep convert 3 times slower than a
#: flat page (0.15 against 0.45 MB/s; blockquotes 1.5 times, divs 2 times): a page's estimate is
#: its bytes' time times (1 + depth * this), 4 times at MAX_DEPTH
SLOWDOWN_PER_LEVEL = 0.03


def html_to_markdown(data: bytes, limits: Limits) -> Converted:
    """The page as Markdown (see the module docstring for what is kept and dropped)."""
    limits.afford(len(data) / HTML_BYTES_PER_SECOND, "this HTML page")
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "html.parser")
    title_tag = soup.find("title")
    title = title_tag.get_text(" ", strip=True) if title_tag is not None else ""
    page = _walk(soup, drop_boilerplate=True)
    limits.afford(conversion_seconds(len(data), page.deepest), "this HTML page")
    if not title and page.first_h1 is not None:
        title = page.first_h1.get_text(" ", strip=True)
    markdown, warnings = _to_markdown(page.root(soup), page)
    return titled(markdown, title, warnings)


def conversion_seconds(size: int, depth: int) -> float:
    """markdownify's time for ``size`` bytes of HTML nested ``depth`` levels deep (deeper than
    :data:`MAX_DEPTH` counts as that deep: what lies below is plain text)."""
    return size / HTML_BYTES_PER_SECOND * (1 + min(depth, MAX_DEPTH) * SLOWDOWN_PER_LEVEL)


def soup_to_markdown(root: Any) -> tuple[str, list[str]]:
    """A parsed element's content as Markdown, and the warnings of what was flattened (the
    Word converter's HTML comes through here too)."""
    return _to_markdown(root, _walk(root, drop_boilerplate=False))


@dataclass
class _Page:
    """What one walk over a parsed page found: ids of the elements to skip (boilerplate) and
    of those kept as plain text (at :data:`MAX_DEPTH`), and the elements that choose the root
    and the title."""

    skipped: set[int] = field(default_factory=set)
    flattened: set[int] = field(default_factory=set)
    deep: bool = False  # an element was flattened for its depth
    main: Any = None
    articles: list[Any] = field(default_factory=list)
    body: Any = None
    first_h1: Any = None
    deepest: int = 0

    def root(self, soup: Any) -> Any:
        """The ``main``, else the one ``article``, else the ``body``, else the whole page."""
        if self.main is not None:
            return self.main
        if len(self.articles) == 1:
            return self.articles[0]
        return self.body if self.body is not None else soup


def _walk(root: Any, drop_boilerplate: bool) -> _Page:
    """One pass over ``root``'s elements in document order, without recursion. Boilerplate is
    skipped; an element :data:`MAX_DEPTH` levels deep with elements inside, and a table inside a
    table's cell (a pipe table cannot hold one), are kept as their plain text."""
    from bs4 import Tag

    page = _Page()
    stack = [(c, 1, False, False) for c in reversed(root.contents) if isinstance(c, Tag)]
    while stack:
        tag, depth, sectioned, celled = stack.pop()
        page.deepest = max(page.deepest, depth)
        if drop_boilerplate and _is_boilerplate(tag, sectioned):
            page.skipped.add(id(tag))
            continue
        if (depth == MAX_DEPTH and any(isinstance(c, Tag) for c in tag.contents)) or (
            tag.name == "table" and celled
        ):
            page.flattened.add(id(tag))
            page.deep = page.deep or depth == MAX_DEPTH
            continue
        _note_landmark(page, tag)
        inside = (sectioned or tag.name in _SECTIONING, celled or tag.name in _CELLS)
        stack.extend(
            (child, depth + 1, *inside)
            for child in reversed(tag.contents)
            if isinstance(child, Tag)
        )
    return page


def _note_landmark(page: _Page, tag: Any) -> None:
    if tag.name == "main" and page.main is None:
        page.main = tag
    elif tag.name == "article":
        page.articles.append(tag)
    elif tag.name == "body" and page.body is None:
        page.body = tag
    elif tag.name == "h1" and page.first_h1 is None:
        page.first_h1 = tag


def _is_boilerplate(tag: Any, sectioned: bool) -> bool:
    if tag.name in _DROPPED_TAGS or (tag.name in _PAGE_CHROME and not sectioned):
        return True
    role = str(tag.get("role") or "").lower()
    if role in _DROPPED_ROLES or tag.has_attr("hidden") or tag.get("aria-hidden") == "true":
        return True
    names = " ".join([str(tag.get("id") or ""), *(tag.get("class") or [])])
    return bool(names.strip()) and _BANNER.search(names) is not None


def _strings(tag: Any, skipped: set[int]) -> Iterator[str]:
    """The text under ``tag`` outside skipped elements, a ``br`` as a line break, in document
    order and without recursion (nor changes to the tree)."""
    from bs4.element import CData, NavigableString, Tag

    stack = list(reversed(tag.contents))
    while stack:
        node = stack.pop()
        if isinstance(node, Tag):
            if node.name == "br":
                yield "\n"
            elif id(node) not in skipped:
                stack.extend(reversed(node.contents))
        elif type(node) in (NavigableString, CData):
            yield str(node)


def _plain_text(tag: Any, skipped: set[int]) -> str:
    """The text under ``tag``, its whitespace collapsed: a deep element kept as one paragraph."""
    return _SPACES.sub(" ", " ".join(_strings(tag, skipped))).strip()


def _to_markdown(root: Any, page: _Page) -> tuple[str, list[str]]:
    try:
        markdown = str(_converter(page).convert_soup(root))
    except RecursionError:
        raise ConversionError(
            "the document nests too deeply to convert (thousands of levels): flatten it"
        ) from None
    warnings = []
    if page.deep:
        warnings.append(
            f"the document nests elements more than {MAX_DEPTH} levels deep: what lies deeper "
            "is kept as plain text (its lists, tables and headings are lost)"
        )
    return _BLANK_LINES.sub("\n\n", markdown).strip() + "\n", warnings


def _converter(page: _Page) -> Any:
    from bs4.element import NavigableString
    from markdownify import MarkdownConverter

    class _Converter(MarkdownConverter):
        """markdownify with cells that cannot break their table, fences that cannot close
        early, boilerplate skipped, the deepest elements as plain text, and ordered lists
        numbered in one pass."""

        def __init__(self, **options: Any) -> None:
            super().__init__(**options)
            self.numbers: dict[int, int] = {}
            self.counts: dict[tuple[int, str], int] = {}

        def process_tag(self, node: Any, parent_tags: set[str] | None = None) -> str:
            if id(node) in page.skipped:
                return ""
            if id(node) in page.flattened:
                text = self.process_text(  # type: ignore[attr-defined]
                    NavigableString(_plain_text(node, page.skipped)), parent_tags
                )
                if not text:
                    return ""
                return f" {text} " if "_inline" in (parent_tags or ()) else f"\n\n{text}\n\n"
            return str(super().process_tag(node, parent_tags))  # type: ignore[misc]

        def convert_li(self, el: Any, text: str, parent_tags: set[str]) -> str:
            parent = el.parent
            if parent is None or parent.name != "ol":
                return str(super().convert_li(el, text, parent_tags))  # type: ignore[misc]
            text = (text or "").strip()
            if not text:
                return "\n"
            bullet = f"{self._number(parent, el)}. "
            pad = " " * len(bullet)
            lines = "\n".join(pad + line if line else "" for line in text.split("\n"))
            return bullet + lines[len(bullet) :] + "\n"

        def _number(self, ol: Any, li: Any) -> int:
            """``li``'s number in ``ol``: its ``start`` plus the ``li`` before it, counted once
            per list (markdownify counts the previous siblings for every item)."""
            if id(li) not in self.numbers:
                start = str(ol.get("start") or "")
                first = int(start) if start.isdecimal() and len(start) <= 9 else 1  # not ½
                items = (child for child in ol.children if getattr(child, "name", None) == "li")
                for position, item in enumerate(items):
                    self.numbers[id(item)] = first + position
            return self.numbers[id(li)]

        def convert_tr(self, el: Any, text: str, parent_tags: set[str]) -> str:
            """markdownify's row, with the row's own cells (markdownify counts every cell
            below the row, and every row of a ``thead`` for each of its rows)."""
            cells = [child for child in el.children if getattr(child, "name", None) in _CELLS]
            width = sum(_colspan(cell) for cell in cells)
            parent = el.parent
            first = el.find_previous_sibling() is None
            head = all(cell.name == "th" for cell in cells) or (
                parent.name == "thead" and self._count(parent, "tr") == 1
            )
            headless = first and (parent.name != "tbody" or not self._count(parent.parent, "thead"))
            if first and (head or headless):  # table_infer_header is on
                return f"|{text}\n| {' | '.join(['---'] * width)} |\n"
            if first and (
                parent.name == "table"
                or (parent.name == "tbody" and not parent.find_previous_sibling())
            ):
                empty = f"| {' | '.join([''] * width)} |\n"
                return f"{empty}| {' | '.join(['---'] * width)} |\n|{text}\n"
            return f"|{text}\n"

        def _count(self, tag: Any, name: str) -> int:
            """How many ``name`` children ``tag`` has, counted once per ``tag``."""
            key = (id(tag), name)
            if key not in self.counts:
                self.counts[key] = sum(getattr(c, "name", None) == name for c in tag.children)
            return self.counts[key]

        def convert_td(self, el: Any, text: str, parent_tags: set[str]) -> str:
            cell = text.replace("|", "\\|")
            return str(super().convert_td(el, cell, parent_tags))  # type: ignore[misc]

        def convert_th(self, el: Any, text: str, parent_tags: set[str]) -> str:
            cell = text.replace("|", "\\|")
            return str(super().convert_th(el, cell, parent_tags))  # type: ignore[misc]

        def convert_pre(self, el: Any, text: str, parent_tags: set[str]) -> str:
            text = "".join(_strings(el, page.skipped))  # Word's code lines end with <br>
            if not text.strip():
                return ""
            fence = "`" * max(3, 1 + max(map(len, _BACKTICKS.findall(text)), default=0))
            return f"\n\n{fence}{_language(el)}\n{text.strip(chr(10))}\n{fence}\n\n"

    return _Converter(
        heading_style="ATX",
        bullets="-",
        table_infer_header=True,
        escape_asterisks=False,
        escape_underscores=False,
        strip=["img"],
    )


def _colspan(cell: Any) -> int:
    span = str(cell.get("colspan") or "")
    return max(1, min(1000, int(span))) if span.isdigit() else 1


def _language(pre: Any) -> str:
    for tag in (pre, pre.find("code")):
        if tag is not None:
            match = _LANGUAGE.search(" ".join(tag.get("class") or []))
            if match:
                return match.group(1)
    return ""
