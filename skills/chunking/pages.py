"""Page numbers from the page markers of Azure Document Intelligence's Markdown output.

Document Intelligence writes ``<!-- PageBreak -->`` between pages (and ``<!-- PageNumber="..." -->``
with the printed number, which may be roman or absent). A chunk's pages are the physical pages,
from 1, that its non-space text touches; a document without a page break has no pages.
"""

from __future__ import annotations

import re
from bisect import bisect_right

_PAGE_BREAK = re.compile(r"<!--\s*PageBreak\s*-->")


class PageMap:
    """Which physical page each position of a document is on."""

    def __init__(self, text: str) -> None:
        self._break_ends = [match.end() for match in _PAGE_BREAK.finditer(text)]
        self.text = text

    def pages(self, start: int, end: int) -> tuple[int, ...]:
        """Pages that ``text[start:end]`` spans (trailing spaces and markers do not open a page)."""
        if not self._break_ends or end <= start:
            return ()
        last = end
        while last > start and self.text[last - 1].isspace():
            last -= 1
        first_page = 1 + bisect_right(self._break_ends, start)
        last_page = 1 + bisect_right(self._break_ends, max(start, last - 1))
        return tuple(range(first_page, last_page + 1))
