"""Plain text -> ``Outline``: paragraphs, separated by blank lines, and numbered titles.

Lines inside a paragraph are not cut points here: the packer cuts an oversized paragraph between
sentences first, then lines, then words.

Licenses, contracts, RFCs and text cracked from PDFs number their sections
(``13.5 Constructing Responses From Caches``, ``0. Definitions.``). Read as paragraphs, such a
title ended a parent or stood alone as a 7-12-token child. A title is recognised conservatively:
a paragraph of one short line (at most ``_TITLE_WORDS`` words) that starts with a section
number and a capital, with no dot leaders (``3.2 Caching ........ 14`` is a table of contents,
not a parent), in a document that has at least three of them. Its depth is how many parts its
number has (``13.5`` is 2), and it leads into what follows, as a Markdown heading does.

Two readings widen it, each only where the document's own numbering vouches for it (a wrong
heading misplaces every child under it, worse than none):

- Appendices are numbered by letters (``A. Standard Resolution Procedure``, ``A.1. Proposal``,
  ``B. Use of language``). A letter-numbered line is a title only when the document's letters
  run in order: single letters ``A.``, ``B.``, ... one step at a time from ``A``, and each
  ``A.1`` under the letter last opened. Answers in a transcript (``A. Yes.``, ``Q. And
  then?``) repeat or jump, and open nothing.
- A title may follow its paragraph without a blank line above it (a constitution whose top
  titles were wrapped onto the paragraph before): the paragraph's last line is a title when its
  number continues the document's sequence (``4.`` or ``3.4`` after ``3.3``, ``A.`` after any
  section, ``B.`` after ``A.2``), the line before it ends a sentence and is not numbered
  itself, and it is indented no deeper than that line. A list's last item (``3. Keep it.``
  after ``2. Read it.``) fails the line-before test.

>>> text = "1. Scope\\n\\nText.\\n\\n2. Terms\\n\\nText.\\n\\n2.1 Words\\n\\nText.\\n"
>>> outline = parse_text(text, titles=True)
>>> [(section.title, section.depth) for section in outline.sections]
[('1. Scope', 1), ('2. Terms', 1), ('2.1 Words', 2)]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from skills.chunking.levels import Level
from skills.chunking.outline import Outline, OutlineBuilder, SectionTree

#: A run of blank lines, whole. Possessive, and without a look-ahead for the paragraph after it:
#: a run that fails a look-ahead (blank lines at the end) would be rescanned from each of its
#: newlines, a quadratic cost.
_GAP = re.compile(r"\n(?:[ \t]*+\n)++")
_LINE_CONTENT = re.compile(r"[ \t]*\S")
_TITLE_WORDS = 10
MIN_TITLES = 3  # in a document, for any of its numbered lines to be titles
#: A section number, then a capitalised title on one line followed by a blank line (or the end).
#: The title ends at the line's last character that is no space or tab, found in one pass: a
#: lazy title before ``[ \t]*`` tried each end again over a run of spaces (quadratic: a title
#: line with 80,000 spaces took 80 s).
_TITLE = re.compile(
    r"[ \t]{0,4}(?P<number>(?:\d{1,2}\.){0,4}\d{1,2})\.?[ \t]+"
    r"(?P<title>[A-Z](?:[^\n]*[^\n \t])?)[ \t]*+(?=\n[ \t]*\n|\n?\Z)"
)
_LEADERS = re.compile(r"\.{4,}|(?:\. ){3,}|[,;:]$")
#: An appendix's title, numbered by a letter: ``A.`` (its dot required: ``A Standard`` is prose)
#: or ``A.1``/``A.1.``; then a capitalised title on one line, as ``_TITLE``.
_LETTER_TITLE = re.compile(
    r"[ \t]{0,4}(?P<number>[A-Z]\.|[A-Z](?:\.\d{1,2}){1,4}\.?)[ \t]+"
    r"(?P<title>[A-Z](?:[^\n]*[^\n \t])?)[ \t]*+(?=\n[ \t]*\n|\n?\Z)"
)
#: The end of a line that closes a sentence (before a title wrapped onto its paragraph).
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*[ \t]*\Z")
_NUMBERED_LINE = re.compile(r"[ \t]*(?:\d{1,2}|[A-Za-z])(?:\.\d{1,2})*[.)][ \t]")
#: Where letters start in a title's number (``A`` is 1001): past any section number.
_LETTERS = 1000


def parse_text(text: str, heading_depth: int = 6, titles: bool = False) -> Outline:
    """A block break at the start of every paragraph; with ``titles``, numbered titles open
    sections (those deeper than ``heading_depth`` are strong breaks only)."""
    builder = OutlineBuilder(len(text))
    starts = [0]
    for gap in _GAP.finditer(text):
        if _LINE_CONTENT.match(text, gap.end()):
            builder.cut(gap.end(), Level.BLOCK)
            starts.append(gap.end())
    if titles:
        _titles(text, starts, builder, heading_depth)
    return builder.build()


def numbered_title(text: str, start: int) -> tuple[int, int] | None:
    """``(end, parts)`` when the paragraph at ``start`` is a numbered title: one line of at
    most ``_TITLE_WORDS`` words, a section number of ``parts`` parts, then a capital, no dot
    leaders, a blank line (or the end) after it. The Markdown parser asks it too, for
    licenses read as Markdown (``_MarkdownParser._numbered_titles``).

    >>> numbered_title("3.1. Distribution of Source Form\\n\\nText.", 0)
    (32, 2)
    """
    match = _title_match(_TITLE, text, start)
    return None if match is None else (match.end(), match.group("number").count(".") + 1)


def _title_match(pattern: re.Pattern[str], text: str, start: int) -> re.Match[str] | None:
    """``pattern``'s match at ``start`` when its title is one: ``_TITLE_WORDS`` words at most,
    no dot leaders."""
    match = pattern.match(text, start)
    if match is None or len(match.group("title").split()) > _TITLE_WORDS:
        return None
    return None if _LEADERS.search(match.group("title")) else match


Number = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Title:
    """A line that may be a title: where it starts and ends, its number's parts (a letter is
    ``_LETTERS`` + its place in the alphabet), and whether a blank line is above it."""

    start: int
    end: int
    number: Number
    apart: bool  # a paragraph of its own; else the last line of a paragraph


def _titles(text: str, starts: list[int], builder: OutlineBuilder, heading_depth: int) -> None:
    candidates = sorted(_candidates(text, starts), key=lambda title: title.start)
    found = _in_sequence(candidates)
    if not _letters_in_order(found):
        found = _in_sequence([title for title in candidates if title.number[0] < _LETTERS])
    if sum(title.apart for title in found) < MIN_TITLES:
        return
    sections = SectionTree(builder, heading_depth)
    for title in found:
        line = text[title.start : title.end].strip()
        sections.heading(title.start, len(title.number), " ".join(line.split()))
        builder.heading_line(title.start, title.end)
    sections.close_all(len(text))


def _candidates(text: str, starts: list[int]) -> Iterator[_Title]:
    """Every paragraph that reads as a numbered title, and every paragraph's last line that
    does, after a line that ends a sentence, is not numbered, and is indented as deep or
    deeper."""
    ends = [*starts[1:], len(text)]
    for start, end in zip(starts, ends, strict=True):
        title = _numbered(text, start, apart=True)
        if title is not None:
            yield title
            continue
        stop = start + len(text[start:end].rstrip())
        last = text.rfind("\n", start, stop) + 1
        if last <= start:
            continue
        before = text[max(text.rfind("\n", start, last - 1) + 1, start) : last - 1]
        if not _SENTENCE_END.search(before) or _NUMBERED_LINE.match(before):
            continue
        title = _numbered(text, last, apart=False)
        if title is not None and _indent(text[last:stop]) <= _indent(before):
            yield title


def _numbered(text: str, start: int, apart: bool) -> _Title | None:
    """The title at ``start``: a section number (``numbered_title``) or an appendix's letter."""
    match = _title_match(_TITLE, text, start) or _title_match(_LETTER_TITLE, text, start)
    if match is None:
        return None  # (the two never both match: a number opens with a digit, a letter's not)
    parts = match.group("number").rstrip(".").split(".")
    first = int(parts[0]) if parts[0].isdigit() else _LETTERS + ord(parts[0]) - ord("A") + 1
    number = (first, *(int(part) for part in parts[1:]))
    return _Title(start, match.end(), number, apart)


def _in_sequence(candidates: list[_Title]) -> list[_Title]:
    """The titles a paragraph of their own, and the last lines whose number continues the one
    before them."""
    found: list[_Title] = []
    for title in candidates:
        previous = found[-1].number if found else None
        if title.apart or _continues(previous, title.number):
            found.append(title)
    return found


def _continues(previous: Number | None, number: Number) -> bool:
    """Whether ``number`` is the next title after ``previous`` (None: the first title):
    the next at one of its levels (``3.4`` or ``4`` after ``3.3``), its first part
    (``3.3.1``, or ``A.0``/``A.1`` after ``A``), or the first appendix (``A`` after any section).

    >>> _continues((3, 3), (4,)), _continues((3, 3), (3, 4)), _continues((3, 3), (6,))
    (True, True, False)
    """
    if previous is None:
        return number == (1,)
    if number == (_LETTERS + 1,):
        return previous[0] < _LETTERS
    if number[:-1] == previous and number[-1] in (0, 1):
        return True
    depth = len(number)
    return depth <= len(previous) and (
        number[:-1] == previous[: depth - 1] and number[-1] == previous[depth - 1] + 1
    )


def _letters_in_order(titles: list[_Title]) -> bool:
    """Whether the letter-numbered titles run as appendices do: ``A.``, ``B.``, ... one step at
    a time from ``A``, and each ``A.1`` under the letter last opened."""
    opened = _LETTERS
    for title in titles:
        first = title.number[0]
        if first < _LETTERS:
            continue
        if len(title.number) == 1:
            if first != opened + 1:
                return False
            opened = first
        elif first != opened:
            return False
    return True


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
