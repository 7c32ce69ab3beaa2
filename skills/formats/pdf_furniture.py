"""Page furniture: running headers, footers and page numbers, found by repetition.

A line is furniture when it sits at a page's edge (among its first two or last two lines) and
either (a) the same words, digits aside, sit at an edge on at least half of the pages, or (b) it
is a page's first or last line, at a place (the same distance from the top, within 2 pt) that
holds an edge line on at least half of the pages, and its words, digits aside, are at that place
on three pages at least (a running header that names the current chapter changes with it; a
table's header repeated atop each page it continues on), or it is a page number. Documents of
fewer than three pages have no furniture: nothing repeats enough to tell.

>>> from skills.formats.pdf_lines import Line, Page
>>> def page(i, *texts):
...     lines = [Line(i, t, 10, 400, False, True, 40.0 + 20 * n, 72) for n, t in enumerate(texts)]
...     return Page(i, tuple(lines), 99, False, False)
>>> words = ["Alpha", "Beta", "Gamma", "Delta"]
>>> pages = [page(i, f"Guide {i + 1}", f"{w} opens.", f"{w} ends.") for i, w in enumerate(words)]
>>> sorted(furniture(pages))
[(0, 0), (1, 0), (2, 0), (3, 0)]
"""

from __future__ import annotations

import re
from collections import defaultdict

from skills.formats.pdf_lines import Page

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^[\W_]*(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?[\W_]*$", re.I
)
_EDGE = 2  # lines at each end of a page that may be furniture
_TOLERANCE = 2.0  # points: the same place on two pages
_AGAIN = 3  # pages a running line's words are at its place on (a chapter's running header)


def masked(text: str) -> str:
    """A line with its digits aside: ``"Guide 12"`` and ``"Guide 13"`` are one running line."""
    return _DIGITS.sub("#", " ".join(text.casefold().split()))


def furniture(pages: list[Page]) -> set[tuple[int, int]]:
    """(page index, line index) of every furniture line."""
    with_text = [page for page in pages if page.lines and not page.garbage]
    if len(with_text) < 3:
        return set()
    half = len(with_text) / 2
    edges = [(page, i) for page in with_text for i in _edge_indices(len(page.lines))]
    by_words: dict[str, set[int]] = defaultdict(set)
    for page, i in edges:
        by_words[masked(page.lines[i].text)].add(page.index)
    places = _places(edges)
    found: set[tuple[int, int]] = set()
    for page, i in edges:
        line = page.lines[i]
        words = masked(line.text)
        if len(by_words[words]) >= half:
            found.add((page.index, i))
            continue
        if i not in (0, len(page.lines) - 1):
            continue
        near_pages, near_words = places[_place(page, i)]
        repeated = near_words[words] >= _AGAIN or _PAGE_NUMBER.match(line.text)
        if len(near_pages) >= half and repeated:
            found.add((page.index, i))
    return found


def _edge_indices(count: int) -> list[int]:
    """Indices of the first and the last ``_EDGE`` lines of a page of ``count`` lines."""
    return sorted(set(range(min(_EDGE, count))) | set(range(max(0, count - _EDGE), count)))


def _place(page: Page, i: int) -> tuple[bool, int]:
    """Which edge (top: among the first lines) and how far from the top, in 2 pt steps."""
    return i < _EDGE, round(page.lines[i].top / _TOLERANCE)


def _places(
    edges: list[tuple[Page, int]],
) -> dict[tuple[bool, int], tuple[set[int], dict[str, int]]]:
    """Each place (top or bottom edge, distance from the top in 2 pt steps) -> the pages with an
    edge line there (a neighbouring step counts too) and how often each masked text sits there."""
    exact: dict[tuple[bool, int], tuple[set[int], dict[str, int]]] = {}
    for page, i in edges:
        pages, words = exact.setdefault(_place(page, i), (set(), defaultdict(int)))
        pages.add(page.index)
        words[masked(page.lines[i].text)] += 1
    merged: dict[tuple[bool, int], tuple[set[int], dict[str, int]]] = {}
    for (top, step), (pages, words) in exact.items():
        near_pages = set(pages)
        near_words: dict[str, int] = defaultdict(int, words)
        for other in (step - 1, step + 1):
            if (top, other) in exact:
                near_pages |= exact[(top, other)][0]
                for text, n in exact[(top, other)][1].items():
                    near_words[text] += n
        merged[(top, step)] = (near_pages, near_words)
    return merged
