"""Headings the document's own contents list names: a Word or Google Docs file's contents page
is its author's outline, and a line of a later page that reads as one of its entries, whole, is
that entry's heading whatever its type.

Typography misses such headings where nothing sets them apart: a Google Docs plan set wholly in
Roboto Mono 11 pt (``4.1 Plan Introduction``), a manual whose section names are only centred at
a page's top in the body's Arial, a brief whose small-capital headings all end in a colon
(``AUFTRAG:``, refused as a label). The contents page is found by its title (``Contents``,
``Table of Contents``, ``Inhaltsverzeichnis``... within the first pages); its entries are the
lines under that title on its page, leaders and page numbers taken off, up to a list of figures
or tables. An entry is matched in the entries' order (a later entry may be matched when up to
three before it are not found: a cover's title listed first), on a line no smaller than the body
(a caption ``Figure 1 ...`` listed in a list of figures is no heading), whole or over two lines.
Three entries at least, and half of them, must be found, or the list is not trusted at all. A
list typed as a numbered list is one list with the headings Word numbers in its style: ``2.
Policy`` listed reads ``5. Policy`` on its page, and is matched by its words (its number larger),
in the type of the first such heading typography found.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from skills.formats.pdf.headings.body import NOT_SMALLER
from skills.formats.pdf.headings.model import Body, Candidate, Heading, Key
from skills.formats.pdf.headings.wording import normalised, section_number, words
from skills.formats.pdf.lines import Line, Page

#: A contents page's title, its words normalised (a colon after it aside).
TITLES = frozenset(
    {
        "contents",
        "table of contents",
        "table of content",
        "inhalt",
        "inhaltsverzeichnis",
        "sommaire",
        "table des matières",
        "índice",
        "indice",
        "contenido",
        "contenidos",
        "tabla de contenido",  # Word's Spanish contents title
        "tabla de contenidos",
        "sommario",  # Word's Italian
        "daftar isi",  # Word's Indonesian
        "cuprins",  # Word's Romanian
        "tartalomjegyzék",  # Word's Hungarian
        "sadržaj",  # Word's Croatian
        "mục lục",  # Word's Vietnamese
        "sumário",
        "inhoud",
        "inhoudsopgave",
        "inhoudstafel",  # Flemish
        "innehåll",
        "indholdsfortegnelse",
        "innhold",
        "sisällys",
        "spis treści",
        "obsah",
        "περιεχόμενα",
        "содержание",
        "оглавление",
        "目录",
        "目次",
        "목차",
    }
)
_OTHER_LISTS = re.compile(
    r"^(list|table|index) of (figures|tables|illustrations|abbreviations)|"
    r"^(abbildungs|tabellen)verzeichnis|^liste des (figures|tableaux)"
)
_LEADER_AND_PAGE = re.compile(
    r"(\s*[.·…_\-–—]{2,}\s*|\s+)(\d{1,4}|[ivxlc]{1,6})?\s*$|\s*[.·…_\-–—]{3,}$"
)
_FIRST_PAGES = 10  # a contents page is among the document's first pages
_LOOK_AHEAD = 4  # entries tried at each line: up to three before it may go unfound
_LEAST_FOUND = 3


def listed(
    pages: list[Page], body: Body, skip: set[Key], found: list[Candidate]
) -> list[Candidate]:
    """``found`` with the lines that the document's contents list names, as headings."""
    place = _contents_title(pages, skip)
    if place is None:
        return found
    page, title = place
    entries = _entries(page, title, skip)
    if len(entries) < _LEAST_FOUND:
        return found
    matched = _matched(pages[page.index + 1 - pages[0].index :], body, skip, entries)
    if len(matched) < _LEAST_FOUND or len(matched) * 2 < len(entries):
        return found
    matched = _typed_as_list_siblings(matched, found, entries)
    found = _without_entries(found, page, title, entries)
    taken = {(c.key[0], c.key[1] + n) for c in found for n in range(c.lines)}
    line = page.lines[title]
    added = [_candidate((page.index, title), line, line.text, 1), *matched]
    added = [c for c in added if not taken & {(c.key[0], c.key[1] + n) for n in range(c.lines)}]
    return sorted(found + added, key=lambda c: c.key)


def _without_entries(
    found: list[Candidate], page: Page, title: int, entries: list[str]
) -> list[Candidate]:
    """``found`` less the contents list's own entries: the lines under its title, on its page,
    that read as one of its entries with nothing after them on the page but more of the list
    (no sentence, no line of prose: a chapter that starts on the contents page keeps its
    heading). A list with no page numbers and no leaders is not a contents page to the other
    checks, and its bold entries read as headings: the Korean policy's ``1. Focusmedia``,
    ``2. 상품 정책``, the design document's ``Overview``, ``Controllers`` (their page numbers
    PDFium reads as lines apart)."""
    listed_entries = set(entries)
    last_text = max(
        (i for i in range(title + 1, len(page.lines)) if _sentence(page.lines[i])), default=-1
    )
    return [
        c
        for c in found
        if not (
            c.key[0] == page.index
            and title < c.key[1]
            and c.key[1] > last_text
            and normalised(_LEADER_AND_PAGE.sub("", c.text)) in listed_entries
        )
    ]


_PROSE = 12  # words of a line that is prose, not a contents entry


def _sentence(line: Line) -> bool:
    """A line of running text: it ends a sentence, or is as long as prose runs."""
    text = line.text.rstrip()
    ends = text.endswith((".", "!", "?", "。")) and not _LEADER_AND_PAGE.search(text)
    return ends or words(text) >= _PROSE


def without_unlisted_cover(
    headings: dict[Key, Heading], pages: list[Page], skip: set[Key]
) -> dict[Key, Heading]:
    """The headings (tagged, or typography's) less the first page's that the document's
    contents list does not name, when it names three of the others: Word tags a cover's lines
    set in a heading style, and its contents list, built from the same styles, leaves the cover
    out (the SRS's 28 pt ``Software Requirements Specification``, the RUP template's
    ``<SWE-Büroplatzverwaltung>`` and ``Version <1.0>``, all tagged ``H1``): they are the
    cover's, not sections, and the title shown there stays the title. A cover set by hand is
    the same (round 23's Portuguese report: the project's name and the authors in bold under
    the course's 20 pt lines, read by typography as sections over the front matter)."""
    place = _contents_title(pages, skip)
    if place is None:
        return headings
    entries = set(_entries(*place, skip))
    if sum(normalised(found.text) in entries for found in headings.values()) < _LEAST_FOUND:
        return headings
    cover = _cover(pages, *place)
    return {
        key: found
        for key, found in headings.items()
        if not cover(key) or normalised(found.text) in entries
    }


def _cover(pages: list[Page], contents: Page, title: int) -> Callable[[Key], bool]:
    """Whether a line is the cover's: on the first page when the contents list comes later;
    above the contents list's title when the list is on the first page itself (a short Word
    document's title block, then its contents, then its first chapter: a Polish university's
    regulations open with the school's name and ``REGULAMIN STUDIÓW`` in the chapters' bold
    13 pt over ``Spis treści``; the chapter under the list is the list's)."""
    first = pages[0].index
    if contents.index != first:
        return lambda key: key[0] == first
    return lambda key: key[0] == first and key[1] < title


def _contents_title(pages: list[Page], skip: set[Key]) -> tuple[Page, int] | None:
    for page in pages[:_FIRST_PAGES]:
        for i, line in enumerate(page.lines):
            if (page.index, i) not in skip and _title_words(line.text) in TITLES:
                return page, i
    return None


def _title_words(text: str) -> str:
    return normalised(text).rstrip(":").strip()


def _entries(page: Page, title: int, skip: set[Key]) -> list[str]:
    """The contents list's entries, normalised, leaders and page numbers taken off."""
    entries: list[str] = []
    for i in range(title + 1, len(page.lines)):
        if (page.index, i) in skip:
            continue
        text = normalised(_LEADER_AND_PAGE.sub("", page.lines[i].text))
        if _OTHER_LISTS.match(text):
            break
        if sum(char.isalpha() for char in text) >= 2 and text.rstrip(":") not in TITLES:
            entries.append(text)
    return entries


def _matched(pages: list[Page], body: Body, skip: set[Key], entries: list[str]) -> list[Candidate]:
    found: list[Candidate] = []
    next_entry = 0
    for page in pages:
        if page.garbage or page.invisible:
            continue
        lines = page.lines
        for i, line in enumerate(lines):
            if next_entry >= len(entries):
                return found
            if (page.index, i) in skip or line.size < body.size * NOT_SMALLER:
                continue
            text = normalised(line.words)
            window = entries[next_entry : next_entry + _LOOK_AHEAD]
            count = 1
            if text not in window and i + 1 < len(lines) and (page.index, i + 1) not in skip:
                text = f"{text} {normalised(lines[i + 1].words)}"  # an entry set over two lines
                count = 2
            at = window.index(text) if text in window else None
            if at is None:
                count, at = 1, _numbered_on(normalised(line.words), window)
            if at is not None:
                next_entry += at + 1
                shown = " ".join(lines[i + n].words for n in range(count))
                found.append(_candidate((page.index, i), line, shown, count))
    return found


_LIST_NUMBER = re.compile(r"^(\d{1,3})[.)] (.+)$")


def _numbered_on(text: str, window: list[str]) -> int | None:
    """Where in ``window`` an entry names the line ``text`` (normalised) that Word's list
    numbering numbered on from the contents list itself: a contents list typed as a numbered
    list (``1.`` ``2.`` ``3.``) and headings in the same list style are one list, so the
    heading the list calls ``2. 상품 정책`` reads ``5. 상품 정책`` (round 23's Korean policy,
    its level-1 items regular at the body's size: no candidate). Both numbered by one number,
    the line's larger, the words after it the same; None if no entry is.

    >>> _numbered_on("5. 상품 정책", ["a. 사이클", "2. 상품 정책"])
    1
    >>> _numbered_on("1. scope", ["2. scope"]), _numbered_on("5. scope", ["2. scope of work"])
    (None, None)
    """
    line = _LIST_NUMBER.match(text)
    if line is None:
        return None
    for at, entry in enumerate(window):
        listed = _LIST_NUMBER.match(entry)
        if listed and listed[2] == line[2] and int(listed[1]) < int(line[1]):
            return at
    return None


def _typed_as_list_siblings(
    matched: list[Candidate], found: list[Candidate], entries: list[str]
) -> list[Candidate]:
    """``matched`` with each line numbered on from the contents list (``_numbered_on``) in the
    type of the first heading typography found that is numbered on by as many: they are items
    of one list, one level, though Word set only the first in bold (the Korean policy's bold
    ``4. Focusmedia``, listed as ``1.``, and its regular ``5. 상품 정책``, ``6. 공통 정책``, listed
    as ``2.`` and ``3.``, were read a level under the first one's ``A.`` items)."""
    listed_numbers = {m[2]: int(m[1]) for e in entries if (m := _LIST_NUMBER.match(e))}

    def numbered_on_by(candidate: Candidate) -> int | None:
        shown = _LIST_NUMBER.match(normalised(candidate.text))
        if shown is None or shown[2] not in listed_numbers:
            return None
        offset = int(shown[1]) - listed_numbers[shown[2]]
        return offset if offset > 0 else None

    typed: dict[int, Candidate] = {}
    for candidate in sorted(found, key=lambda c: c.key):
        offset = numbered_on_by(candidate)
        if offset is not None and candidate.strong:
            typed.setdefault(offset, candidate)
    return [
        replace(c, size=typed[offset].size, bold=typed[offset].bold, strong=True)
        if (offset := numbered_on_by(c)) in typed
        else c
        for c in matched
    ]


def _candidate(key: Key, line: Line, text: str, count: int) -> Candidate:
    return Candidate(key, text, count, line.size, line.bold, True, section_number(text))
