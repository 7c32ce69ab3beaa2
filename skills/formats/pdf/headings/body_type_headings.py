"""Headings set in the body's own type, found only where the document shows them some other way:
a numbered outline in order, underlined lines, lines in capitals set apart."""

from __future__ import annotations

from collections import Counter

from skills.formats.pdf.headings.body import (
    is_larger,
    is_text,
    line_spacing,
    prominent,
    text_margin,
    worded,
)
from skills.formats.pdf.headings.model import Body, Candidate, Key
from skills.formats.pdf.headings.refusals import RUN
from skills.formats.pdf.headings.wording import (
    SPACE,
    goes_on,
    heading_like,
    normalised,
    not_a_title,
    section_number,
    words,
)
from skills.formats.pdf.lines import Line, Page

_UNDERLINED = 2  # underlined body-type lines a document needs for them to be headings


_OUTLINE_WORDS = 10  # a body-type numbered line this long at most can be a heading


_APART = 1.6  # the page's line spacing: space above a line in capitals that heads a part


_CAPITAL_WORDS = 10


def capitals_apart(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[Candidate]:
    """In a document that sets no heading larger or bolder than its text, the lines in capitals
    of the body's type, at the text's left edge, with a line's space and more above them and
    text under them (an article's small capitals: ``SAMPLE DESIGN``); two at least, or none."""
    found: list[Candidate] = []
    for page in pages:
        if page.garbage or page.invisible or len(page.lines) < 3:
            continue
        lines = page.lines
        spacing = line_spacing(page, body)
        edge = min((ln.left for ln in lines if abs(ln.size - body.size) < 0.5), default=0.0)
        for i in range(1, len(lines) - 1):
            line, above, below = lines[i], lines[i - 1], lines[i + 1]
            if (page.index, i) in skip or not _capitals(line, body, counts):
                continue
            apart = line.top - above.top >= _APART * spacing and below.top > line.top
            if apart and abs(line.left - edge) <= 1 and abs(below.size - body.size) < 0.5:
                found.append(
                    Candidate((page.index, i), line.text, 1, line.size, line.bold, True, None)
                )
    return found if len(found) >= 2 else []


_CENTRED = 3  # centred lines a document needs for them to be headings
_CENTRE_OFF = 1.0  # ems: a centred line's middle off the text's middle, at most
_FULL_LINE = 2.0  # ems short of the text's right edge: a paragraph's full line


def centred_apart(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[Candidate]:
    """In a document that sets no heading larger or bolder than its text, the lines of the
    body's type centred between the text's margins, alone (no centred line right above or
    below), over a paragraph's full line, after the first page: a student's APA paper through
    Word (``Problem Statement``, ``Works Cited`` in plain 12 pt), a Google Docs manual whose
    section names are only centred atop their pages; three at least, or none. A cover's block
    of centred lines, a poem's or an address's lines are centred together, and a centred line
    over a short one heads no paragraph."""
    lines = [line for page in pages if not page.garbage for line in page.lines]
    rights = sorted(line.right for line in lines if abs(line.size - body.size) < 0.5)
    if not rights:
        return []
    left, right = text_margin(pages, body), rights[int(len(rights) * 0.9)]
    found: list[Candidate] = []
    for page in pages[1:]:
        if page.garbage or page.invisible:
            continue
        shown = [i for i in range(len(page.lines)) if (page.index, i) not in skip]
        for at, i in enumerate(shown[:-1]):
            line = page.lines[i]
            above = page.lines[shown[at - 1]] if at else None
            below = page.lines[shown[at + 1]]
            if not _centred(line, left, right, body) or not heading_like(line, counts):
                continue
            if not_a_title(line, False):
                continue  # an address or a path centred on its line
            if above is not None and _centred(above, left, right, body):
                continue
            if above is not None and goes_on(above.text, line.text):
                continue  # the sentence of the line above goes on in it (a wrapped item)
            if below.right >= right - _FULL_LINE * body.size and is_text(below, body):
                found.append(
                    Candidate((page.index, i), line.text, 1, line.size, line.bold, True, None)
                )
    return found if len(found) >= _CENTRED else []


def _centred(line: Line, left: float, right: float, body: Body) -> bool:
    middle = (line.left + line.right) / 2
    return (
        abs(line.size - body.size) < 0.5
        and line.left > left + 2 * body.size
        and abs(middle - (left + right) / 2) <= _CENTRE_OFF * body.size
        and words(line.text) <= _OUTLINE_WORDS
    )


def body_outline(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[Candidate]:
    """In a document that numbers no heading in a larger or bolder type, its top-level numbered
    lines in the body's own type, each apart from the lines around it, counting 1, 2, 3 and on
    with sections numbered under them (``1. Interval timer``, ``2. Extended memory``, ``3.
    Protection`` over ``3.1 User Mode``: a Word note whose headings are all Normal text): three
    at least, or none. A list's items (no text between them) and a paragraph's numbered line
    break the count; their ``3.1`` lines then continue nothing (``consistent``)."""
    tops: list[tuple[Key, Line]] = []
    deeper = False
    for page in pages:
        if page.garbage or page.invisible:
            continue
        spacing = line_spacing(page, body)
        for i, line in enumerate(page.lines):
            number = section_number(line.text)
            if number is None or (page.index, i) in skip or prominent(line, body):
                continue
            if abs(line.size - body.size) >= 0.5 or not all(part.isdigit() for part in number):
                continue
            if len(number) > 1:
                deeper = deeper or bool(tops and number[0] == str(len(tops)))
            elif _outline_line(page, i, spacing, body, counts):
                tops.append(((page.index, i), line))
    counted = [int((section_number(line.text) or ("0",))[0]) for _, line in tops]
    if not deeper or len(tops) < RUN or counted != list(range(1, len(tops) + 1)):
        return []
    return [
        Candidate(key, line.text, 1, line.size, line.bold, False, section_number(line.text))
        for key, line in tops
    ]


def _outline_line(page: Page, i: int, spacing: float, body: Body, counts: Counter[str]) -> bool:
    """A short line, heading-like, apart from the line above it and from the text under it."""
    lines, line = page.lines, page.lines[i]
    if words(line.text) > _OUTLINE_WORDS or not heading_like(line, counts):
        return False
    above = i == 0 or line.top - lines[i - 1].top >= _APART * spacing
    below = i + 1 < len(lines) and lines[i + 1].top - line.top >= _APART * spacing
    return above and below and is_text(lines[i + 1], body)


def with_underlined(
    found: list[Candidate], pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[Candidate]:
    """With the lines of the body's type that are underlined from end to end, heading-like, in
    no monospaced face, with words of the body's type right under them and nothing of it on
    their own line's height above (a line's space or the page's top): Word's headings made by
    underlining Normal text (``Timing Problems``, ``Unused Paths``). Two at least, or none (one
    underlined line is a word stressed, a link). An underlined entry over a line of figures is
    a list's or a table's (``NOP: no operation`` over its octal codes ``140000 140010 ...``)."""
    taken = {c.key for c in found}
    linked = _named_larger(found, body)
    added: list[Candidate] = []
    for page in pages:
        if page.garbage or page.invisible:
            continue
        spacing = line_spacing(page, body)
        for i in page.underlined:
            line = page.lines[i]
            if (page.index, i) in skip or (page.index, i) in taken or line.mono:
                continue
            if normalised(line.text) in linked or _address(line):
                continue
            if abs(line.size - body.size) >= 0.5 or not heading_like(line, counts):
                continue
            count = 2 if _wraps_underlined(page, i, spacing) else 1
            text = " ".join(ln.text.strip() for ln in page.lines[i : i + count])
            under = page.lines[i + count] if i + count < len(page.lines) else None
            if under is None or not _stands_alone(page, i, spacing):
                continue
            if count == 1 and goes_on(line.text.strip(), under.text.strip()):
                continue  # a sentence's first line, underlined whole: it goes on below
            if i + count in page.underlined:
                continue  # one of a list of links (xfig's ``Circles and Ellipses`` ...)
            if is_text(under, body) and worded(under):
                number = section_number(text)
                added.append(Candidate((page.index, i), text, count, line.size, line.bold,
                                        True, number))  # fmt: skip
    if len(added) < _UNDERLINED:
        return found
    return sorted(found + added, key=lambda c: c.key)


_PARAGRAPH_GAP = 1.2  # the page's line spacing: a paragraph's space over a line, at least
_UNDER_HEADING = 2.0  # sizes of a larger heading right over an underlined line, at most
_STOPS = (".", "!", "?", ":", ";")


def _wraps_underlined(page: Page, i: int, spacing: float) -> bool:
    """The underlined line ``i`` goes on in the next line, underlined too, in its type and a
    line under it: one heading over two lines (``Personal de administración de la familia,
    salud y`` / ``bienestar``)."""
    if i + 1 not in page.underlined:
        return False
    line, below = page.lines[i], page.lines[i + 1]
    close = 0 < below.top - line.top < _PARAGRAPH_GAP * spacing
    return close and _same_type(line, below) and goes_on(line.text.strip(), below.text.strip())


def _same_type(line: Line, other: Line) -> bool:
    return abs(line.size - other.size) < 0.5 and line.bold == other.bold


def _stands_alone(page: Page, i: int, spacing: float) -> bool:
    """Nothing of the line's type goes on into line ``i`` from above: it is the page's first
    line, or a line's space stands over it, or a larger heading stands right over it
    (``Welcome to Centro!`` in 12 pt bold over ``Our Story`` in 10 pt), or a paragraph's
    space stands over it and the line above ended its paragraph: it ends a sentence, or the
    line's first word would have fitted after it (Word wrapped no word there). A bilingual
    handbook's underlined subheadings stand 1.3 to 1.5 lines under the paragraph before them,
    as its paragraphs stand apart: none was found at 1.6."""
    if i == 0:
        return True
    line, above = page.lines[i], page.lines[i - 1]
    gap = line.top - above.top
    if gap >= _APART * spacing:
        return True
    if 0 < gap <= above.size * _UNDER_HEADING and above.size >= line.size + 0.5:
        return True
    if gap < _PARAGRAPH_GAP * spacing:
        return False
    return above.text.rstrip().rstrip("”’\"')").endswith(_STOPS) or _room_after(page, above, line)


def _room_after(page: Page, above: Line, line: Line) -> bool:
    """The first word of ``line`` would have fitted after ``above`` before the right edge of
    the lines that start where ``above`` starts: ``above`` ended its paragraph short."""
    first = line.text.split()[0] if line.text.split() else ""
    width = (line.right - line.left) * len(first) / max(1, len(line.text))
    edge = max(
        (ln.right for ln in page.lines if abs(ln.left - above.left) <= above.size),
        default=above.right,
    )
    return above.right + above.size * SPACE + width < edge


def _address(line: Line) -> bool:
    """An underlined web address or path is a link, not a heading made by underlining
    (LibreOffice's ExaML manual: ``http://www.sciencemag.org/content/346/6215/1320.abstract``
    alone on its line over the text it cites)."""
    return not_a_title(line, code_body=False)


def _named_larger(found: list[Candidate], body: Body) -> set[str]:
    """The words of the headings set larger than the body: an underlined line in the body's
    type that names one is a link to it, not a heading of its own (htmldoc's and a browser's
    contents page, ``Introduction`` underlined over ``Starting xfig``, links to the chapter
    that opens in 20 pt two pages on)."""
    return {normalised(c.text) for c in found if is_larger(c.size, body)}


def _capitals(line: Line, body: Body, counts: Counter[str]) -> bool:
    letters = [char for char in line.text if char.isalpha()]
    return (
        abs(line.size - body.size) < 0.5
        and len(letters) >= 4
        and all(char.isupper() for char in letters)
        and words(line.text) <= _CAPITAL_WORDS
        and heading_like(line, counts)
    )
