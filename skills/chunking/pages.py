"""Page numbers from the page markers of Azure Document Intelligence's Markdown output.

Document Intelligence writes ``<!-- PageBreak -->`` between pages (and ``<!-- PageNumber="..." -->``
with the printed number, which may be roman or absent, ``<!-- PageHeader="..." -->`` and
``<!-- PageFooter="..." -->``); the skill's converters write the page break too. A chunk's pages
are the physical pages, from 1, that its non-space text touches; a document without a page break
has no pages.

The markers are for the pages, not for reading: a chunk's text keeps them (its offsets are the
source's), its embedded text does not (:func:`without_page_markers`), so no embedding carries
``<!-- PageBreak -->`` and no keyword search matches ``PageNumber``.
"""

from __future__ import annotations

import re
from bisect import bisect_right

_PAGE_BREAK = re.compile(r"<!--\s*PageBreak\s*-->")
#: A page marker on a line of its own (as Document Intelligence and the converters write them; a
#: marker inside a line of code or prose is text).
_MARKER = r"^[ \t]*<!--\s*Page(?:Break|Number|Header|Footer)\b[^\n]*?-->[ \t]*$"
#: A page marker with the line breaks before it (one paragraph break stays in their place).
_MARKER_AND_BREAKS = re.compile(r"\n*" + _MARKER, re.MULTILINE)
MARKER_START = re.compile(_MARKER, re.MULTILINE)


def without_page_markers(text: str) -> str:
    """``text`` with its page markers taken out, as it is embedded.

    >>> without_page_markers('Para.\\n<!-- PageNumber="1" -->\\n\\n<!-- PageBreak -->\\n\\nNext.')
    'Para.\\n\\nNext.'
    >>> without_page_markers("<!-- PageBreak -->\\n\\n# Title")
    '# Title'
    """
    if "<!--" not in text:
        return text
    stripped = _MARKER_AND_BREAKS.sub("", text)
    return stripped.lstrip("\n") if MARKER_START.match(text.lstrip()) else stripped


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
