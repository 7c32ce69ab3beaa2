"""Page furniture: running headers, footers and page numbers, found by repetition.

A line is furniture when it sits at a page's edge (among its first two or last two lines) and
either (a) the same words, digits aside, sit at an edge on at least half of the pages, or (b) it
is a page's first or last line, at a place (the same distance from the top, within 2 pt) that
holds an edge line on at least half of the pages, and its words, digits aside, are at that place
on three pages at least (a running header that names the current chapter changes with it; a
table's header repeated atop each page it continues on), or it is a page number, or it opens or
ends with the page's number, the same offset from the page's index as on three pages at least
and a quarter of them (``CHAPTER 3. GPLINK 42`` on the one or two pages of a short chapter; the
numbers of three sections opening three pages can share an offset by chance), unless it is set
larger than the text and opens with its number (a chapter a page: ``3 Configuring`` atop page
3). Documents of fewer than three pages have no furniture: nothing repeats enough to tell, except
line numbers down a margin (a pleading's ``1`` to ``26``, a specification's ``92``, ``93``...):
five numbers or more, each one more than the last, one under the other, alone on their lines,
are furniture on any page, and the edges are read past them. A line in a page's margin, wholly
beside its text, wherever PDFium puts it, is furniture when it holds a letter and its words sit
at its place on three pages and a quarter of them (a journal's running heads in the outer
margin).

>>> from skills.formats.pdf.lines import Line, Page
>>> def page(i, *texts):
...     lines = [Line(i, t, 10, 400, False, True, 40.0 + 20 * n, 72) for n, t in enumerate(texts)]
...     return Page(i, tuple(lines), 99, False, False)
>>> words = ["Alpha", "Beta", "Gamma", "Delta"]
>>> pages = [page(i, f"Guide {i + 1}", f"{w} opens.", f"{w} ends.") for i, w in enumerate(words)]
>>> sorted(furniture(pages))
[(0, 0), (1, 0), (2, 0), (3, 0)]
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass

from skills.formats.pdf.headings.body import LARGER
from skills.formats.pdf.headings.decks import is_deck
from skills.formats.pdf.lines import Line, Page, text_size

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^[\W_]*(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?[\W_]*$", re.I
)
_EDGE = 2  # lines at each end of a page that may be furniture
_TOLERANCE = 2.0  # points: the same place on two pages
_AGAIN = 3  # pages a running line's words are at its place on (a chapter's running header)
_BARE_NUMBER = re.compile(r"^\d{1,4}$")
_NUMBERED = 5  # line numbers in a row down a margin
_NUMBERED_SHARE = 0.25  # of the pages: a running header's page number at one offset
_OPENING = re.compile(r"^(\d{1,4})\b(?![.,]\d)")
_CLOSING = re.compile(r"(?<![\d.,])(\d{1,4})$")


def masked(text: str) -> str:
    """A line with its digits aside: ``"Guide 12"`` and ``"Guide 13"`` are one running line."""
    return _DIGITS.sub("#", " ".join(text.casefold().split()))


def furniture(pages: list[Page]) -> set[tuple[int, int]]:
    """(page index, line index) of every furniture line."""
    numbering = {(page.index, i) for page in pages if not page.garbage for i in line_numbers(page)}
    with_text = [page for page in pages if page.lines and not page.garbage]
    if len(with_text) < 3:
        return numbering
    half = len(with_text) / 2
    kept = {
        page.index: [i for i in range(len(page.lines)) if (page.index, i) not in numbering]
        for page in with_text
    }
    edges = [Edge(page, i, at < _EDGE, at in (0, len(kept[page.index]) - 1))
             for page in with_text for at, i in _edge_indices(kept[page.index])]  # fmt: skip
    text = text_size(line for page in with_text for line in page.lines)
    by_words: dict[tuple[str, float], set[int]] = defaultdict(set)
    for edge in edges:
        by_words[_running(edge)].add(edge.page.index)
    places = _places(edges)
    offsets = _page_offsets(edges)
    numbered_pages = max(_AGAIN, len(with_text) * _NUMBERED_SHARE)  # not a few sections' numbers
    series = _counted_on(edges, with_text)
    deck = is_deck(pages)
    found: set[tuple[int, int]] = numbering | _margin_heads(with_text, text)
    for edge in edges:
        page, i = edge.page, edge.i
        line = page.lines[i]
        words = masked(line.text)
        if _running(edge) in series:
            continue
        if len(by_words[_running(edge)]) >= half:
            found.add((page.index, i))
            continue
        if not edge.outer:
            continue
        near_pages, near_words = places[_place(edge)]
        repeated = (
            near_words[words] >= _AGAIN and not _continued_slide_title(edge, deck)
        ) or _PAGE_NUMBER.match(line.text)
        numbered = any(offsets[(edge.top, n)] >= numbered_pages for n in _offsets(edge))
        numbered = numbered and not _chapter_opening(line, text)
        if len(near_pages) >= half and (repeated or numbered):
            found.add((page.index, i))
    return found


def _continued_slide_title(edge: Edge, deck: bool) -> bool:
    """A deck's slide title repeated on three slides or more (fewer than half: a banner on
    every slide is furniture still) is the title of a frame that goes on, not a running header:
    beamer repeats a frame's title on each page of ``allowframebreaks``, and authors repeat one
    over slides that go on (a lecture's ``Concurrent Programming`` on three frames; a 111-slide
    PowerPoint report deck's ``References`` on four). Every title stands at one place, so the
    running header's test, the same words at an edge's place on three pages, took them."""
    return deck and edge.top


def _chapter_opening(line: Line, text_size: float) -> bool:
    """A line set larger than the text that opens with its number and goes on in words: a
    chapter's heading numbered like the page it opens (``3 Configuring`` atop page 3 of a
    guide with one chapter a page), not a running header carrying the page's number, which is
    set no larger than the text (``CHAPTER 3. GPLINK 42``). Its number alone is no reason to
    take it out; the same words at an edge on half the pages still are.

    >>> from skills.formats.pdf.lines import Line
    >>> [_chapter_opening(Line(0, t, s, 700, True, True, 40, 72), 10.0)
    ...  for t, s in (("3 Configuring", 16), ("3 Configuring", 10), ("42", 16))]
    [True, False, False]
    """
    match = _OPENING.match(line.text.strip())
    rest = line.text.strip()[match.end() :] if match else ""
    return bool(text_size) and line.size >= text_size * LARGER and any(c.isalpha() for c in rest)


@dataclass(frozen=True, slots=True)
class Edge:
    """A line among a page's first or last lines (``outer``: the very first or last one)."""

    page: Page
    i: int
    top: bool
    outer: bool


def _margin_heads(pages: list[Page], text: float) -> set[tuple[int, int]]:
    """(page index, line index) of the running heads set in the pages' margins, beside the
    text: 3B2 sets a journal's (``ER`` / ``29,2`` on odd pages, ``Shift work`` /
    ``interventions`` on even ones, the folio under them) in the outer margin and draws them
    last, three lines where the edges' test looks at two, and the third was read as a heading
    on every page; each on half the pages less a few (the first page's and a full-width
    table's have none), the edges' test missed them too. A line stands beside the text when
    it is wholly left or right of every line of its page in the document's text size; it is
    furniture when it holds a letter (a bare page number in a deck's margin is left to the
    edges' test) and its words (digits aside) in its size stand at its place (to 2 pt) on
    three pages and a quarter of them."""
    seen: dict[tuple[str, float, int], set[int]] = defaultdict(set)
    beside: list[tuple[int, int, tuple[str, float, int]]] = []
    for page in pages:
        for i in _beside_text(page, text):
            line = page.lines[i]
            if not any(char.isalpha() for char in line.text):
                continue
            key = (masked(line.text), round(line.size * 2) / 2, round(line.top / _TOLERANCE))
            seen[key].add(page.index)
            beside.append((page.index, i, key))
    needed = max(_AGAIN, len(pages) * _NUMBERED_SHARE)
    found: set[tuple[int, int]] = set()
    for index, i, (words, size, step) in beside:
        near = set().union(*(seen.get((words, size, s), set()) for s in (step - 1, step, step + 1)))
        if len(near) >= needed:
            found.add((index, i))
    return found


def _beside_text(page: Page, text: float) -> list[int]:
    """Indices of the page's lines wholly left or right of its lines in the text's size."""
    body = [line for line in page.lines if abs(line.size - text) < 0.5]
    if not body:
        return []
    left, right = min(line.left for line in body), max(line.right for line in body)
    return [i for i, line in enumerate(page.lines) if line.right < left or line.left > right]


def line_numbers(page: Page) -> list[int]:
    """Indices of the lines that number the page's lines down a margin: five bare numbers or
    more, each one more than the one above it and under it, at the same edge (to an em).

    >>> from skills.formats.pdf.lines import Line
    >>> lines = [Line(0, str(n), 12, 400, False, True, 70.0 + 24 * n, 52.0) for n in range(1, 7)]
    >>> line_numbers(Page(0, (*lines, Line(0, "7 days", 12, 400, False, True, 90, 90)), 9, False,
    ...                   False))
    [0, 1, 2, 3, 4, 5]
    """
    numbers = sorted(
        (line.top, i) for i, line in enumerate(page.lines) if _BARE_NUMBER.match(line.text)
    )
    found: list[int] = []
    run: list[int] = []
    for _, i in numbers:
        line = page.lines[i]
        if run:
            above = page.lines[run[-1]]
            goes_on = int(line.text) == int(above.text) + 1 and line.top > above.top
            if goes_on and abs(line.left - above.left) <= line.size:
                run.append(i)
                continue
            if len(run) >= _NUMBERED:
                found += run
        run = [i]
    if len(run) >= _NUMBERED:
        found += run
    return sorted(found)


def _counted_on(edges: list[Edge], pages: list[Page]) -> set[tuple[str, float]]:
    """The edge lines' words (digits aside) that count on through the document rather than
    repeat: each sighting one number, every number new and larger, not the pages' numbers (a
    different offset from the page's index somewhere), and the same words numbered so inside
    pages too. A homework's ``Problem 3``, ``Problem 5`` and ``Problem 10`` opening or ending
    three of its five pages, between the other seven problems, are its headings, not a running
    header; ``Guide 12``, ``Guide 13`` (the page's number), ``Chapter 3`` on each page of the
    chapter and an OCR'd header whose folios were misread (``THE SIEGE OF VICKSBURG. 55``),
    seen only at the edges, stay furniture."""
    numbers: dict[tuple[str, float], list[tuple[int, int]]] = defaultdict(list)
    for edge in edges:
        found = _DIGITS.findall(edge.page.lines[edge.i].text)
        numbers[_running(edge)].append((edge.page.index, int(found[0]) if len(found) == 1 else -1))
    at_edges = {(edge.page.index, edge.i) for edge in edges}
    inside = {
        masked(line.text)
        for page in pages
        for i, line in enumerate(page.lines)
        if (page.index, i) not in at_edges and _DIGITS.search(line.text)
    }
    counted: set[tuple[str, float]] = set()
    for key, seen in numbers.items():
        values = [n for _, n in sorted(seen)]
        rising = min(values) >= 0 and all(a < b for a, b in itertools.pairwise(values))
        moving = len({n - index for index, n in seen}) > 1
        if len(seen) >= 2 and rising and moving and key[0] in inside:
            counted.add(key)
    return counted


def _running(edge: Edge) -> tuple[str, float]:
    """An edge line's words, digits aside, and its size: the running header's words set larger
    under it are the page's heading (Erlang's module page: ``eldap`` in 15 pt right under the
    9 pt running header ``eldap``), not another copy of the header."""
    line = edge.page.lines[edge.i]
    return masked(line.text), round(line.size * 2) / 2


def _edge_indices(kept: list[int]) -> list[tuple[int, int]]:
    """(place among the kept lines, line index) of the first and last ``_EDGE`` kept lines."""
    count = len(kept)
    places = sorted(set(range(min(_EDGE, count))) | set(range(max(0, count - _EDGE), count)))
    return [(at, kept[at]) for at in places]


def _place(edge: Edge) -> tuple[bool, int]:
    """Which edge (top: among the first lines) and how far from the top, in 2 pt steps."""
    return edge.top, round(edge.page.lines[edge.i].top / _TOLERANCE)


def _offsets(edge: Edge) -> list[int]:
    """The numbers opening or closing the line, less the page's index: a page number's offset."""
    text = edge.page.lines[edge.i].text.strip()
    found = [_OPENING.match(text), _CLOSING.search(text)]
    return [int(m.group(1)) - edge.page.index for m in found if m is not None]


def _page_offsets(edges: list[Edge]) -> dict[tuple[bool, int], int]:
    """(top edge?, offset) -> on how many pages the outer line there carries the page's number
    at that offset from its index."""
    counts: dict[tuple[bool, int], int] = defaultdict(int)
    for edge in edges:
        if edge.outer:
            for offset in set(_offsets(edge)):
                counts[(edge.top, offset)] += 1
    return counts


def _places(
    edges: list[Edge],
) -> dict[tuple[bool, int], tuple[set[int], dict[str, int]]]:
    """Each place (top or bottom edge, distance from the top in 2 pt steps) -> the pages with an
    edge line there (a neighbouring step counts too) and how often each masked text sits there."""
    exact: dict[tuple[bool, int], tuple[set[int], dict[str, int]]] = {}
    for edge in edges:
        page, i = edge.page, edge.i
        pages, words = exact.setdefault(_place(edge), (set(), defaultdict(int)))
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
