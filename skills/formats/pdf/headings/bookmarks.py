"""Headings from bookmarks, found on their pages' text; and the lines in a bookmarked heading's
type that an outline one level short leaves out."""

from __future__ import annotations

import bisect
from collections import Counter, deque

from skills.formats.pdf.headings.body import followed_by_text
from skills.formats.pdf.headings.model import Body, Heading, Key
from skills.formats.pdf.headings.wording import (
    NUMBER,
    chapter_start,
    goes_on,
    heading_like,
    joined,
    normalised,
    section_number,
)
from skills.formats.pdf.lines import Line, Page

_BOOKMARK_PAGES = 3  # a bookmark's title is looked for on its page and the two after it


_EMPHASIS = 3  # lines of a bookmarked type, over its bookmarked ones, past which it is emphasis


def from_bookmarks(
    pages: list[Page], bookmarks: dict[int, list[tuple[int, str]]], skip: set[Key]
) -> dict[Key, Heading]:
    """The bookmarks found on their pages' text, as headings of their depth."""
    found: dict[Key, Heading] = {}
    by_index = {page.index: page for page in pages}
    taken: dict[int, set[int]] = {}
    indexed: dict[int, _Lines] = {}
    for index in sorted(bookmarks):
        for level, title in bookmarks[index]:
            for page in (by_index.get(n) for n in range(index, index + _BOOKMARK_PAGES)):
                if page is None:
                    continue
                used = taken.setdefault(page.index, set())
                if page.index not in indexed:
                    indexed[page.index] = _Lines(page)
                match = indexed[page.index].find(normalised(title), used, skip)
                if match is not None:
                    start, count = chapter_start(page, *match, skip, used)
                    found[(page.index, start)] = Heading(level, joined(page, start, count), count)
                    used.update(range(start, start + count))
                    break
    return found


class _Lines:
    """A page's lines by the words a bookmark's title may have: a line's, a line's after its
    section number, two lines' together (and after a number). A title is looked up, not
    compared with every line of its page: 10,000 bookmarks to a page of 10,000 lines took
    minutes. What a lookup finds is what reading the lines in order finds: the first line not
    taken, one line before two."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._one: dict[str, deque[int]] = {}
        self._two: dict[str, deque[int]] = {}
        self._opening: list[str] = []  # each line's words after its section number
        words = self._words = [normalised(line.text) for line in page.lines]
        for i, line in enumerate(page.lines):
            self._opening.append(_after_number(words[i]))
            for text in dict.fromkeys((words[i], self._opening[i])):
                self._one.setdefault(text, deque()).append(i)
            if i + 1 < len(page.lines):
                two = normalised(line.text + " " + page.lines[i + 1].text)
                for text in dict.fromkeys((two, _after_number(two))):
                    self._two.setdefault(text, deque()).append(i)

    def find(self, wanted: str, taken: set[int], skip: set[Key]) -> Key | None:
        """``(line, 1)`` or ``(line, 2)``: where the title ``wanted`` (normalised) is."""
        index = self._page.index
        one, two = self._one.get(wanted), self._two.get(wanted)
        # (a line passed over stays so: lines are only ever taken, never given back)
        while one and (one[0] in taken or (index, one[0]) in skip):
            one.popleft()
        while two and not self._two_lines(two[0], wanted, taken, skip):
            two.popleft()
        if one and (not two or one[0] <= two[0]):
            return one[0], 1
        return (two[0], 2) if two else None

    def _two_lines(self, i: int, wanted: str, taken: set[int], skip: set[Key]) -> bool:
        return (
            i not in taken
            and (self._page.index, i) not in skip
            and i + 1 not in taken
            and self._opens(i, wanted)
        )

    def _opens(self, i: int, wanted: str) -> bool:
        """Line ``i`` is the first of the two the title ``wanted`` spans: the title opens with
        the line's words, its section number kept or left out. A numbered heading wrapped over
        two lines keeps its number in Word's tags and bookmarks (``4.1. Apresentação geral da
        estrutura (esquema) do`` / ``sistema de dados``, tagged whole as ``H2``): matched with
        the number left out only, it was never found, and typography's two lines stayed two
        headings."""
        return wanted.startswith(self._opening[i]) or wanted.startswith(self._words[i])


def _after_number(words: str) -> str:
    match = NUMBER.match(words)
    return words[match.end() :] if match is not None else words


def with_bookmarked_types(
    pages: list[Page], found: dict[Key, Heading], body: Body, skip: set[Key]
) -> dict[Key, Heading]:
    """``found`` and the lines set in the type of bookmarked headings that no bookmark names
    (an outline that stops a level short): a type of two bookmarked headings at least, not the
    body's, whose heading-like lines are at most three times as many as its bookmarked ones
    (else the type is emphasis that some bookmarks happen to point at)."""
    by_index = {page.index: page for page in pages}
    levels: dict[tuple[float, bool], Counter[int]] = {}
    taken: set[Key] = set()
    for (index, start), heading in found.items():
        line = by_index[index].lines[start + heading.lines - 1]
        levels.setdefault(_type(line), Counter())[heading.level] += 1
        taken.update((index, i) for i in range(start, start + heading.lines))
    levels = {
        kind: n for kind, n in levels.items() if n.total() >= 2 and kind != (body.size, body.bold)
    }
    if not levels:
        return found
    counts = Counter(normalised(ln.text) for page in pages for ln in page.lines)
    extra: dict[Key, Heading] = {}
    for page in pages:
        i = 0
        while i < len(page.lines):
            key, line = (page.index, i), page.lines[i]
            kind = _type(line)
            i += 1
            if kind not in levels or key in taken or key in skip or page.garbage or line.rotated:
                continue
            if not heading_like(line, counts):
                continue
            count = 1
            if i < len(page.lines) and _type(page.lines[i]) == kind:
                count += goes_on(line.text, page.lines[i].text)
            if followed_by_text(page, key[1] + count - 1, body):
                level = levels[kind].most_common(1)[0][0]
                extra[key] = Heading(level, joined(page, key[1], count), count)
                i = key[1] + count
    of_kind: dict[tuple[float, bool], list[Key]] = {}  # (each type's lines found once)
    for key in extra:
        of_kind.setdefault(_type(by_index[key[0]].lines[key[1]]), []).append(key)
    for kind, n in levels.items():
        more = of_kind.get(kind, [])
        if len(more) + n.total() > _EMPHASIS * n.total():
            for key in more:
                del extra[key]
    return dict(sorted({**found, **extra}.items()))


def flat(bookmarks: dict[int, list[tuple[int, str]]]) -> bool:
    """Every bookmark at one depth: an outline of one level, as Word writes from a document
    whose authors styled only its chapters as headings."""
    return len({level for marks in bookmarks.values() for level, _ in marks}) == 1


def with_numbered_children(
    found: dict[Key, Heading], typography: dict[Key, Heading]
) -> dict[Key, Heading]:
    """``found`` (a one-level outline's headings) and the headings typography finds numbered
    under them: a heading whose section number goes on the number of the bookmarked heading
    before it (``1.1 Objectives``, ``5.1.1.1 Login Interface`` after ``1. INTRODUCTION``,
    ``5. APPROACH``), a level deeper for each part more. Word's "Save as PDF" bookmarks the
    paragraphs styled as headings and nothing else, so a test plan whose chapters were styled
    and its 41 sections set bold by hand read as ten chapters over 61 children (20 % of its
    headings). Only numbered children are added: a bookmark's number vouches for theirs, while
    the bold lines of an outline's own text are the author's emphasis as often as headings.

    >>> marks = {(0, 1): Heading(1, "1. Introduction")}
    >>> typed = {(0, 1): Heading(1, "1. Introduction"), (0, 5): Heading(2, "1.1 Scope"),
    ...          (0, 9): Heading(2, "Scope of work"), (1, 2): Heading(2, "2.1 Items")}
    >>> [(h.level, h.text) for h in with_numbered_children(marks, typed).values()]
    [(1, '1. Introduction'), (2, '1.1 Scope')]
    """
    numbered = [(key, heading, section_number(heading.text)) for key, heading in found.items()]
    parents = sorted((key, heading, number) for key, heading, number in numbered if number)
    if not parents:
        return found
    covered = {(key[0], key[1] + n) for key, heading in found.items() for n in range(heading.lines)}
    keys = [key for key, _, _ in parents]
    extra: dict[Key, Heading] = {}
    for key, heading in typography.items():
        number = section_number(heading.text)
        at = bisect.bisect_right(keys, key) - 1
        if number is None or at < 0 or key in covered:
            continue
        _, parent, prefix = parents[at]
        if len(number) > len(prefix) and number[: len(prefix)] == prefix:
            level = parent.level + len(number) - len(prefix)
            extra[key] = Heading(level, heading.text, heading.lines)
    return dict(sorted({**found, **extra}.items()))


def _type(line: Line) -> tuple[float, bool]:
    return round(line.size * 2) / 2, line.bold
