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

>>> page = b"<title>T</title><nav>menu</nav><h1>Hello</h1><p>World</p>"
>>> print(html_to_markdown(page, Limits()).text, end="")
# Hello
<BLANKLINE>
World
"""

from __future__ import annotations

import re
from typing import Any

from skills.formats.conversion import ConversionError, Converted, Limits, titled

_DROPPED_TAGS = (
    *("head", "title", "script", "style", "noscript", "template", "svg", "iframe", "form"),
    *("nav", "aside"),
)
_DROPPED_ROLES = {"banner", "navigation", "contentinfo", "search", "complementary"}
_BANNER = re.compile(r"cookie|consent|gdpr", re.IGNORECASE)
_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)")
_BACKTICKS = re.compile(r"`+")
_BLANK_LINES = re.compile(r"\n{3,}")


#: markdownify's speed on the bench (bench/formats.py: 0.44 MB/s), with room for a slower core
HTML_BYTES_PER_SECOND = 0.25 * 2**20


def html_to_markdown(data: bytes, limits: Limits) -> Converted:
    """The page as Markdown (see the module docstring for what is kept and dropped)."""
    limits.afford(len(data) / HTML_BYTES_PER_SECOND, "this HTML page")
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "html.parser")
    title_tag = soup.find("title")
    title = title_tag.get_text(" ", strip=True) if title_tag is not None else ""
    _drop_boilerplate(soup)
    body = _content_root(soup)
    first_h1 = body.find("h1")
    if not title and first_h1 is not None:
        title = first_h1.get_text(" ", strip=True)
    return titled(soup_to_markdown(body), title, [])


def soup_to_markdown(root: Any) -> str:
    """A parsed element's content as Markdown."""
    try:
        markdown = str(_converter().convert_soup(root))
    except RecursionError:
        raise ConversionError(
            "the document nests too deeply to convert (thousands of levels): flatten it"
        ) from None
    return _BLANK_LINES.sub("\n\n", markdown).strip() + "\n"


def _drop_boilerplate(soup: Any) -> None:
    from bs4 import Tag

    for tag in soup.find_all(_DROPPED_TAGS):
        tag.decompose()
    for tag in soup.find_all(["header", "footer"]):
        if tag.find_parent(["article", "section", "main"]) is None:
            tag.decompose()
    for tag in list(soup.find_all(True)):
        if not isinstance(tag, Tag) or tag.decomposed or tag.attrs is None:
            continue
        if _is_chrome(tag):
            tag.decompose()


def _is_chrome(tag: Any) -> bool:
    role = str(tag.get("role") or "").lower()
    if role in _DROPPED_ROLES or tag.has_attr("hidden") or tag.get("aria-hidden") == "true":
        return True
    names = " ".join([str(tag.get("id") or ""), *(tag.get("class") or [])])
    return bool(names.strip()) and _BANNER.search(names) is not None


def _content_root(soup: Any) -> Any:
    main = soup.find("main")
    if main is not None:
        return main
    articles = soup.find_all("article")
    if len(articles) == 1:
        return articles[0]
    return soup.find("body") or soup


def _converter() -> Any:
    from markdownify import MarkdownConverter

    class _Converter(MarkdownConverter):
        """markdownify with cells that cannot break their table and fences that cannot close
        early."""

        def convert_td(self, el: Any, text: str, parent_tags: set[str]) -> str:
            cell = text.replace("|", "\\|")
            return str(super().convert_td(el, cell, parent_tags))  # type: ignore[misc]

        def convert_th(self, el: Any, text: str, parent_tags: set[str]) -> str:
            cell = text.replace("|", "\\|")
            return str(super().convert_th(el, cell, parent_tags))  # type: ignore[misc]

        def convert_pre(self, el: Any, text: str, parent_tags: set[str]) -> str:
            for br in el.find_all("br"):  # Word's code paragraphs break lines with <br>
                br.replace_with("\n")
            text = el.get_text()
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


def _language(pre: Any) -> str:
    for tag in (pre, pre.find("code")):
        if tag is not None:
            match = _LANGUAGE.search(" ".join(tag.get("class") or []))
            if match:
                return match.group(1)
    return ""
