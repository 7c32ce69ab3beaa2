"""The Document Layout skill's Markdown sections, rebuilt into one Markdown document.

Azure's Document Layout skill (``#Microsoft.Skills.Util.DocumentIntelligenceLayoutSkill``,
``outputFormat: markdown``) answers with ``markdown_document``: a list of sections, each
``{"content": ..., "sections": {"h1": ..., "h2": ..., ...}, "ordinal_position": N}``, where
``sections`` holds the section's heading path (levels down to ``markdownHeaderDepth``, unused
ones ``""``) and ``content`` its text without those headings
(https://learn.microsoft.com/azure/search/cognitive-search-skill-document-intelligence-layout).
Chunking each section alone would cut the document where Layout did and lose the parents that
span sections; this module puts the sections back in ``ordinal_position`` order, writing each
heading where the path changes, so the engine sees the document whole.

Pages: the content keeps Document Intelligence's ``<!-- PageBreak -->`` markers when the
layout model writes them; when a section instead carries ``locationMetadata.pageNumber`` (the
docs say location metadata applies to both output formats, without a Markdown sample), page
breaks are written where that number grows.

>>> sections = [
...     {"content": "Jim", "sections": {"h1": "Foo", "h2": "Bar"}, "ordinal_position": 0},
...     {"content": "Lance", "sections": {"h1": "Foo", "h2": "Boo"}, "ordinal_position": 1},
... ]
>>> print(layout_to_markdown(sections).text, end="")
# Foo
<BLANKLINE>
## Bar
<BLANKLINE>
Jim
<BLANKLINE>
## Boo
<BLANKLINE>
Lance
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skills.formats.conversion import PAGE_BREAK, ConversionError, Converted, titled
from skills.formats.markdown_text import heading

_LEVELS = 6
_SHAPE = (
    "markdownDocument must be the Document Layout skill's markdown_document: an array of "
    '{"content", "sections": {"h1", ...}, "ordinal_position"} objects'
)


def layout_to_markdown(sections: Any) -> Converted:
    """One Markdown document from Layout's sections, or :class:`ConversionError` for another
    shape."""
    items = _checked(sections)
    blocks: list[str] = []
    path = [""] * _LEVELS
    page = None
    for item in sorted(items, key=lambda item: item[0]):
        _, headings, content, number = item
        if number is not None and page is not None and number > page:
            blocks.extend([PAGE_BREAK] * (number - page))
        page = number if number is not None else page
        changed = next((level for level in range(_LEVELS) if headings[level] != path[level]), None)
        if changed is not None:
            blocks.extend(
                heading(level + 1, headings[level])
                for level in range(changed, _LEVELS)
                if headings[level]
            )
            path = headings
        if content.strip():
            blocks.append(content.strip())
    return titled("\n\n".join(blocks) + "\n" if blocks else "", None, [])


def _checked(sections: Any) -> list[tuple[int, list[str], str, int | None]]:
    if not isinstance(sections, list):
        raise ConversionError(_SHAPE)
    items = []
    for position, section in enumerate(sections):
        if not isinstance(section, Mapping) or not isinstance(section.get("content", ""), str):
            raise ConversionError(f"{_SHAPE}; item {position} is not")
        ordinal = section.get("ordinal_position", position)
        ordinal = ordinal if isinstance(ordinal, int) else position
        items.append((ordinal, _path(section.get("sections")), section.get("content") or "",
                      _page(section.get("locationMetadata"))))  # fmt: skip
    return items


def _path(sections: Any) -> list[str]:
    if not isinstance(sections, Mapping):
        return [""] * _LEVELS
    return [_text(sections.get(f"h{level}")) for level in range(1, _LEVELS + 1)]


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _page(location: Any) -> int | None:
    number = location.get("pageNumber") if isinstance(location, Mapping) else None
    return number if isinstance(number, int) and number > 0 else None
