"""A PDF's title: the metadata title when it is a real one, else the first page's largest line;
and the checks that keep a stale metadata title, a journal's banner or a first chapter's heading
from being taken for it."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from skills.formats.pdf.headings.body import LARGER, in_prose_script, is_larger, worded
from skills.formats.pdf.headings.model import Body, Heading, Key
from skills.formats.pdf.headings.wording import (
    CJK,
    chapter_number,
    goes_on,
    hangs,
    joined_lines,
    normalised,
    section_number,
)
from skills.formats.pdf.lines import Line, Page

_NOT_TITLES = re.compile(
    r"^(?:microsoft (?:word|powerpoint|excel) - |untitled|document\d*$|slide \d+$|"
    r"[\w\- ]+\.(?:docx?|pptx?|xlsx?|pdf|tex|dvi|indd|rtf|odt|txt|html?|ps|qxd)$)",
    re.I,
)


_MAN_HEADER = re.compile(r"^([A-Za-z][\w.:+-]*\(\d\w{0,4}\))\s.*\s\1$")


_TITLE_PAGE_LINES = 3  # lines of body text on a first page that is a cover


_TITLE = 1.3  # the first page's title's size over the body's, at least


_LEAD_TITLE = 1.15  # ... when it is the page's first line, in bold


_RUNNING_SAMPLE = 200  # furniture lines looked at for the names they repeat


_NAMED = 8  # characters a line needs before it can name what a running header names


_NEAR_SIZE = 0.95  # of the largest size: a banner and a title about as large


def meaningful_title(title: str | None) -> str:
    """The metadata title, or '' when it is a producer's default or a file name.

    >>> meaningful_title("Microsoft Word - report.docx"), meaningful_title("Annual Report 2024")
    ('', 'Annual Report 2024')
    >>> meaningful_title("sag-39-3-4-0902-21:sag-0"), meaningful_title("annot-sample")
    ('', '')
    >>> meaningful_title("Introduction"), meaningful_title("e-Government")
    ('Introduction', 'e-Government')
    >>> meaningful_title(r"C:\\d\\tex\\SAMPLE.DVI"), meaningful_title("/home/ann/report")
    ('', '')
    """
    title = " ".join((title or "").split())
    if len(title) < 3 or _NOT_TITLES.match(title) or not any(c.isalpha() for c in title):
        return ""
    if "\\" in title or title.startswith("/"):
        return ""  # a file's path: C:\d\df\tex\SAMPLE.DVI
    if " " not in title and (
        any(c.isdigit() for c in title) or "_" in title or ("-" in title and title.islower())
    ):
        return ""  # an identifier or a file's name: CrashOH1M5, sag-0902-21, annot-sample
    return title


def first_page_title(pages: list[Page], body: Body, skip: set[Key]) -> tuple[str, list[Key]]:
    """The first page's largest line (and the one or two after it in that type), when it is
    clearly larger than the body, not numbered, and larger than any line of words on the other
    pages (``worded``) or on a cover (a first page of three lines of body text at most): a
    title page's title, not the first of the document's chapter headings."""
    readable = [page for page in pages if page.lines and not page.garbage]
    if not readable or body.size <= 0:
        return "", []
    page = readable[0]
    turned = turned_page(page)
    lines = [
        (i, line)
        for i, line in enumerate(page.lines)
        if (page.index, i) not in skip and line.rotated == turned
    ]
    lines = in_prose_script(lines, lambda numbered: numbered[1].text, pages, body)
    if not lines:
        return "", []
    size = _title_size(pages, skip, page, lines)
    # (only a line about as large as the title can outsize it: the others are not looked at)
    large = [
        line for other in readable[1:] for i, line in enumerate(other.lines)
        if line.size > size - 0.5 and (other.index, i) not in skip and not line.rotated
        and worded(line)
    ]  # fmt: skip
    large = in_prose_script(large, lambda line: line.text, pages, body)  # samples: no heading
    elsewhere = max((line.size for line in large), default=0.0)
    if size < body.size * _title_ratio(lines, size) or (
        size < elsewhere + 0.5
        and not is_cover(page, body)
        and not _fields_page(page, body, lines, size)
        and not _over_numbered_chapters(pages, skip, page, lines, size)
        and not _over_contents(pages, skip, page, lines, size, body)
    ):
        return "", []
    first = next(n for n, (_, line) in enumerate(lines) if line.size == size)  # not a banner
    run = [lines[first]]
    for i, line in lines[first + 1 : first + 3]:
        above = run[-1][1]
        if abs(line.size - size) > 0.5:
            break
        if not (
            goes_on(above.text, line.text)
            or hangs(above, line)
            or _full(page, above, line)
            or _leads_in(above)
            or _capitals_go_on(above, line)
        ):
            break  # a second line of its own (a heading in the title's type), or a sentence's end
        run.append((i, line))
    text = joined_lines(line.words for _, line in run)
    if turned and not any(worded(line) for _, line in run):
        return "", []  # a turned chart's largest glyph (``é``), no words
    if len(text) > 200 or not any(c.isalpha() for c in text) or section_number(text):
        return "", []
    return " ".join(text.split()), [(page.index, i) for i, _ in run]


_CENTRED = 3.0  # points a centred line's middle may stand off the middle of the page's text
_CENTRED_BLOCK = 3  # centred lines atop a first page that may be its title block, at most
_BLANK = re.compile(r"_{3}")  # a form's blank to fill in (``Contract No.____``): no title


def centred_title(pages: list[Page], skip: set[Key]) -> tuple[str, list[Key]]:
    """The title of a first page none of whose lines is larger than its text: the bold lines
    centred atop it, over its text (a Word contract, every line 11 pt: ``Sample Contract`` /
    ``Contract No.____`` / ``PROFESSIONAL SERVICES AGREEMENT``, then the agreement's first
    sentence). Of them, the one set in capitals when only one is (how Word's users set a
    title in the body's size), else the first; a form's blank is none. Each of them read as
    a heading, and the document had no title. Asked when the first page gave no title by size
    and the metadata none."""
    readable = [page for page in pages if page.lines and not page.garbage]
    if not readable:
        return "", []
    page = readable[0]
    lines = sorted(
        ((i, line) for i, line in enumerate(page.lines)
         if (page.index, i) not in skip and not line.rotated),
        key=lambda numbered: numbered[1].top,
    )  # fmt: skip
    if len(lines) <= _CENTRED_BLOCK:
        return "", []
    left = min(line.left for _, line in lines)
    middle = (left + max(line.right for _, line in lines)) / 2
    block = list(itertools.takewhile(lambda n: _centred(n[1], left, middle), lines))
    if not block or len(block) > _CENTRED_BLOCK:
        return "", []
    named = [
        (i, line) for i, line in block
        if worded(line) and not _BLANK.search(line.text) and section_number(line.text) is None
    ]  # fmt: skip
    capitals = [(i, line) for i, line in named if line.text.isupper()]
    chosen = capitals if len(capitals) == 1 else named[:1]
    if not chosen:
        return "", []
    i, line = chosen[0]
    return " ".join(line.words.split()), [(page.index, i)]


def _centred(line: Line, left: float, middle: float) -> bool:
    """A bold line of one type centred on the page's text, set in from its left edge."""
    return (
        line.bold
        and line.uniform
        and line.left > left + line.size
        and abs((line.left + line.right) / 2 - middle) <= _CENTRED
    )


def without_title_again(
    headings: dict[Key, Heading], title: str, own: list[Key]
) -> dict[Key, Heading]:
    """The headings less the first one under the title's own lines on its page when it says
    the title again: pandoc's title block over the document's own top heading (``Users, Groups,
    UIDs and GIDs on systemd Systems`` centred, then the same words at the margin) is one title
    shown twice, not a section under it; the headings under it move up to level 1."""
    if not own or not normalised(title):
        return headings
    below = [key for key in headings if key[0] == own[0][0] and key > own[-1]]
    first = min(below, default=None)
    if first is None or normalised(headings[first].text) != normalised(title):
        return headings
    rest = {key: found for key, found in headings.items() if key != first}
    up = min((found.level for found in rest.values()), default=1) - 1  # its sections move up
    return {key: replace(found, level=found.level - up) for key, found in rest.items()}


def _leads_in(above: Line) -> bool:
    """A title line ending in a colon goes on in the next line of its type: it names what the
    title is (KyriakosTsalia's Greek specification through Google Docs: ``Έγγραφο SRS:`` over
    ``Software Requirements Specification``, both 26 pt bold; read alone, the second line was
    a heading)."""
    return above.words.rstrip().endswith(":")


def _full(page: Page, above: Line, line: Line) -> bool:
    """A title line that runs to the right edge of the page's text goes on in the next line of
    its type that starts where it starts: it wrapped because it was full (an article typed in
    Word's look, ``INVERTED HONOR: A READING OF THE LIFE OF ESTEBANILLO`` / ``GONZÁLEZ``: no
    joining word, no indent; read alone, the second line was a heading and the byline under it
    another)."""
    if abs(line.left - above.left) >= above.size:
        return False
    others = [other for other in page.lines if other is not above and not other.rotated]
    edge = max((other.right for other in others if not other.mono), default=0.0)
    return edge > 0 and above.right >= edge - above.size


def _capitals_go_on(above: Line, line: Line) -> bool:
    """Two title lines in capitals, one right under the other at the margin it starts at: one
    title set over two lines (an InDesign chapter opener's ``DÉSORDRES`` / ``DE L’ÉQUILIBRE
    ACIDE-BASE``: no joining word a capital line shows). Read alone, the second line was the
    chapter's first heading."""

    def capitals(text: str) -> bool:
        letters = [char for char in text if char.isalpha()]
        return len(letters) >= 2 and all(char.isupper() for char in letters)

    return (
        capitals(above.text) and capitals(line.text) and abs(line.left - above.left) < above.size
        and 0 < line.top - above.top <= above.size * 1.4
    )  # fmt: skip


def turned_page(page: Page) -> bool:
    """Most of the page's lines are set at an angle: a landscape page PDFium reads turned (SIL's
    feature tables printed through PScript5), whose lines at that angle are upright to its
    reader, its title among them; elsewhere a line at an angle is a watermark."""
    return sum(line.rotated for line in page.lines) * 2 > len(page.lines)


def _title_ratio(lines: list[tuple[int, Line]], size: float) -> float:
    """How much larger than the body the first page's largest line must be to be the title: 1.3
    times, or 1.15 when it is the page's first line and bold (Word's essays: a 14 pt bold title
    over 12 pt text, ``Bug, Feature, or Code Rot? Adventures in OS Debugging``; a web page's
    15 pt heading over 13 pt text). A line lower on the page, or regular, needs the wider
    margin: a first section's heading is no title."""
    first = lines[0][1]
    if first.size == size and first.bold:
        return _LEAD_TITLE
    return _LEAD_TITLE if _under_name_block(lines, size) else _TITLE


_NAME_BLOCK = 5  # short lines over an essay's title, at most (name, teacher, course, date)
_NAME_WORDS = 6


def _under_name_block(lines: list[tuple[int, Line]], size: float) -> bool:
    """The first page's largest line is bold and set in to the page's middle under a few short
    lines of smaller text at the margin: an essay's heading in MLA's form (dmoini's homework
    through Word: ``Alexia Filler``, ``Dr. Johnson``, ``CMSI 401``, ``10/30/2019`` over
    ``Assignment 2`` in 14 pt over 12 pt text), whose title is no first section."""
    at = next(n for n, (_, line) in enumerate(lines) if line.size == size)
    title, block = lines[at][1], [line for _, line in lines[:at]]
    return (
        title.bold
        and 0 < len(block) <= _NAME_BLOCK
        and all(line.size < size and len(line.text.split()) <= _NAME_WORDS for line in block)
        and title.left > max(line.left for line in block) + 3 * size
    )


def _title_size(
    pages: list[Page], skip: set[Key], page: Page, lines: list[tuple[int, Line]]
) -> float:
    """The size of the first page's largest line; but when lines of about that size (to 5 %)
    include one that the running headers name and one they do not, the largest of those they do
    not name: the first is a journal's banner over the article's title."""
    size = max(line.size for _, line in lines)
    near = [line for _, line in lines if line.size >= size * _NEAR_SIZE]
    running = [normalised(line.text) for line in _furniture_lines(pages, skip, page)]
    named = [_named_in(line, running) for line in near]
    if any(named) and not all(named):
        return max(line.size for line, banner in zip(near, named, strict=True) if not banner)
    return size


def _furniture_lines(pages: list[Page], skip: set[Key], first: Page) -> list[Line]:
    """The running headers and footers of the pages after ``first`` (a few of each)."""
    by_index = {page.index: page for page in pages}
    found = [
        by_index[index].lines[i]
        for index, i in sorted(skip)
        if index != first.index and index in by_index and i < len(by_index[index].lines)
    ]
    return found[:_RUNNING_SAMPLE]


def _named_in(line: Line, running: list[str]) -> bool:
    """The line names what the running headers name: a journal's banner over an article
    (``Solar Energy Materials & Solar Cells``, in ``Y. Özen et al. / Solar Energy Materials &
    Solar Cells 137 (2015) 1-5``), a series or a company, not the document."""
    words = normalised(line.text)
    return len(words) >= _NAMED and any(words in header for header in running)


def man_page_name(pages: list[Page]) -> str:
    """A man page's name, from the header it repeats atop its first page (``DOT(1) General
    Commands Manual DOT(1)``: the name and section at both ends), when nothing else names the
    document: groff and mandoc print no title but that one.

    >>> from skills.formats.pdf.lines import Line
    >>> header = "LIBCGRAPH(3) Library Functions Manual LIBCGRAPH(3)"
    >>> man_page_name([Page(0, (Line(0, header, 10, 400, False, True, 40, 72),), 50, False, False)])
    'LIBCGRAPH(3)'
    """
    first = next((page for page in pages if page.lines and not page.garbage), None)
    if first is None:
        return ""
    match = _MAN_HEADER.match(first.lines[0].text.strip())
    return match.group(1) if match else ""


#: A web address, as a browser prints the page's in its header or footer.
_ADDRESS = re.compile(r"^(?:https?|file)://\S+$")
_DATED = 4  # letters a date, a time or a page count has at most (``1 of 9``, ``02:17 p.m.``)


def printed_page_title(pages: list[Page], skip: set[Key]) -> str:
    """The title a browser prints atop each page of a web page it prints, when nothing else
    names the document: Firefox sets the page's title left and its address right (``mkgrkindex.nw
    ... file:///export/home/...``), Chrome the date left and the title in the middle. The top
    line of every page is furniture (``skip``) and the same; its cells, less addresses, dates,
    times and page counts, leave one: the title. A web address in the first page's top or bottom
    line says the PDF is a browser's print.

    >>> from skills.formats.pdf.lines import Line
    >>> cells = ((18, 91, "Notes.html", 0.0), (325, 576, "file:///home/ann/Notes.html", 0.0))
    >>> head = Line(0, "Notes.html file:///home/ann/Notes.html", 10, 400, False, True, 20, 18,
    ...             cells=cells)
    >>> pages = [Page(n, (head, Line(n, "Text.", 12, 400, False, True, 60, 60)), 50, False, False)
    ...          for n in range(2)]
    >>> printed_page_title(pages, {(0, 0), (1, 0)})
    'Notes.html'
    """
    readable = [page for page in pages if page.lines and not page.garbage]
    if len(readable) < 2:
        return ""
    tops = [min(range(len(page.lines)), key=lambda i: page.lines[i].top) for page in readable]
    if any((page.index, i) not in skip for page, i in zip(readable, tops, strict=True)):
        return ""
    head = readable[0].lines[tops[0]]
    if any(page.lines[i].text != head.text for page, i in zip(readable, tops, strict=True)):
        return ""
    foot = max(readable[0].lines, key=lambda line: line.top)
    if not any(_ADDRESS.match(cell[2]) for line in (head, foot) for cell in line.cells):
        return ""
    named = [cell[2] for cell in head.cells if not _ADDRESS.match(cell[2]) and not _dated(cell[2])]
    return named[0] if len(named) == 1 else ""


def _dated(text: str) -> bool:
    """A date, a time or a page count: digits and a few letters at most (``25/08/2009 02:17
    µ.µ.``, ``3 of 9``)."""
    return any(c.isdigit() for c in text) and sum(c.isalpha() for c in text) <= _DATED


def printed(title: str, page: Page) -> bool:
    """Most of the title's words are on the page (a stale metadata title names another version
    or another document: ``Gutenprint 5.0 User's Manual and Release Notes`` over a first page
    reading ``Gutenprint 5.2`` / ``User's Manual``).

    >>> from skills.formats.pdf.lines import Line
    >>> page = Page(0, (Line(0, "Gutenprint 5.2", 32, 400, True, True, 300, 200),
    ...                 Line(0, "User's Manual", 24, 400, True, True, 340, 230)), 30, False, False)
    >>> printed("Gutenprint 5.0 User's Manual and Release Notes", page)
    False
    >>> printed("Gutenprint 5.2 User's Manual", page)
    True
    """
    text = normalised(" ".join(line.text for line in page.lines))
    shown = set(text.split())
    wanted = normalised(title).split()
    found = sum(word in shown or (bool(CJK.search(word)) and word in text) for word in wanted)
    return found * 4 >= len(wanted) * 3


def is_cover(page: Page, body: Body) -> bool:
    """A page of a title and a few lines (a subtitle, a date): three lines of body text at most."""
    return sum(line.size < body.size * LARGER for line in page.lines) <= _TITLE_PAGE_LINES


_FIELD_WORDS = 8  # words a title page's field (``Giảng Viên: Ths. Nguyễn Thành Luân``) has at most


def _fields_page(page: Page, body: Body, lines: list[tuple[int, Line]], size: float) -> bool:
    """A title page whose text in the body's size is only short fields, no sentence: a
    report's cover (``Mã Môn: IE103``, ``Giảng Viên: ...``, ``TP.Hồ Chí Minh, tháng 01 năm
    2026`` under a Typst report's title), whose title stands though an appendix's heading is
    set larger. A page of prose has a line of more words, or one ending a sentence; a
    contents page's short entries under ``Contents`` are no fields."""
    largest = next(line for _, line in lines if line.size == size)
    if normalised(largest.text) in _CONTENTS:
        return False
    small = [line for line in page.lines if line.size < body.size * LARGER]
    return bool(small) and all(
        len(line.text.split()) <= _FIELD_WORDS and not line.text.rstrip().endswith(".")
        for line in small
    )


TITLE_INDENT = 2  # ems a cover's centred title is set in from the headings' margin


#: A contents list's own heading: no title, however large and whatever follows it.
_CONTENTS = frozenset({"contents", "table of contents", "inhalt", "inhaltsverzeichnis",
                       "sommaire", "table des matières", "índice", "indice",
                       "contenido"})  # fmt: skip
_CONTENTS_ENTRIES = 3  # lines under it that name headings set large later: a contents list


def _over_contents(
    pages: list[Page],
    skip: set[Key],
    page: Page,
    lines: list[tuple[int, Line]],
    size: float,
    body: Body,
) -> bool:
    """The first page's first line, in its largest size, stands over the document's contents
    though chapters are set as large: before the page's next line of that size come three lines
    or more that name lines set larger than the body on later pages (an HTML manual printed
    whole: Ninja's ``The Ninja build system`` in 32 px, as its chapters are, over the linked
    list of them, through wkhtmltopdf). A contents list's own heading (``Table of Contents``)
    is no title, nor a numbered chapter."""
    first = lines[0][1]
    if first.size != size or normalised(first.text) in _CONTENTS:
        return False
    if section_number(first.text) is not None:
        return False
    later = {
        normalised(line.text)
        for other in pages[page.index + 1 :]
        if not other.garbage
        for i, line in enumerate(other.lines)
        if (other.index, i) not in skip and is_larger(line.size, body)
    }
    entries = 0
    for _, line in lines[1:]:
        if line.size >= size - 0.5:
            break
        entries += normalised(line.text) in later
    return entries >= _CONTENTS_ENTRIES


def _over_numbered_chapters(
    pages: list[Page], skip: set[Key], page: Page, lines: list[tuple[int, Line]], size: float
) -> bool:
    """The first page's largest line is a cover's title though chapters elsewhere are set as
    large: every line of its size on the other pages is a numbered heading or the wrapped
    second line of one, and it is set in from their margin (centred: ``AltairZ80 Simulator
    Usage`` over chapters ``1 Simulator Files`` ... in the same 15.8 pt bold)."""
    first = next(line for _, line in lines if line.size == size)
    if section_number(first.text) is not None:
        return False
    margins: list[float] = []
    for other in pages:
        if other.index == page.index or other.garbage:
            continue
        for i, line in enumerate(other.lines):
            if (other.index, i) in skip or line.rotated or line.size < size - 0.5:
                continue
            if section_number(line.text) is not None:
                margins.append(line.left)
                continue
            above = other.lines[i - 1] if i > 0 else None
            if above is None or abs(above.size - line.size) > 0.5:
                return False
            if section_number(above.text) is None:
                return False  # (not the second line of a wrapped chapter heading)
    return bool(margins) and first.left >= min(margins) + TITLE_INDENT * size


_OVER_NUMBERED = 3  # numbered headings in the first line's type, at least
_NUMBERED_SHARE = 0.75  # of the other headings in its type that are numbered, at least
#: The names of a document's first unnumbered part, which may open page one in its chapters'
#: type with no title over it: a heading, never the title.
_FRONT_MATTER = frozenset({"abstract", "summary", "executive summary", "introduction",
                           "preface", "foreword", "overview", "background", "acknowledgements",
                           "acknowledgments", "revision history", "document history", "purpose",
                           "scope", "glossary"}) | _CONTENTS  # fmt: skip


def over_numbered_headings(
    pages: list[Page], skip: set[Key], headings: dict[Key, Heading]
) -> Key | None:
    """The first heading, when it is the document's title set in its numbered headings' own
    type: the first page's first line (furniture aside), unnumbered, of two words or more and
    no front matter's name, in the size and weight of three headings or more of which three in
    four are numbered (``Chapter 2:``, ``2.1``). A Word author who types the title in the
    chapters' style on no cover (the printed policy manual's bold 12 pt ``FictionalTech Global
    Corporate Policies & Procedures Manual`` over ``Chapter 1: Introduction ...``; the SIMH
    memo's 14 pt ``Adding An I/O Device To A SIMH Virtual Machine`` over ``1. SCP and I/O
    Device Interactions``; pdfTeX's FASTA guide) had no title and a first heading over every
    chapter. Asked only when nothing else titles the document."""
    if not headings:
        return None
    first = min(headings)
    page = next((p for p in pages if p.lines and not p.garbage), None)
    if page is None or first[0] != page.index:
        return None
    top = next((i for i in range(len(page.lines)) if (page.index, i) not in skip), None)
    text = headings[first].text
    if first[1] != top or section_number(text) or chapter_number(text):
        return None
    if len(text.split()) < 2 or normalised(text) in _FRONT_MATTER:
        return None
    by_index = {p.index: p for p in pages}
    line = page.lines[first[1]]
    alike = {
        key: found.text
        for key, found in headings.items()
        if key != first and _same_type(by_index[key[0]].lines[key[1]], line)
    }
    numbered = sum(bool(section_number(t) or chapter_number(t)) for t in alike.values())
    over_numbered = numbered >= _OVER_NUMBERED and numbered >= _NUMBERED_SHARE * len(alike)
    over = _over_sibling(page, first, headings[first].lines, skip, alike)
    return first if over_numbered or over else None


def _over_sibling(
    page: Page, title: Key, count: int, skip: set[Key], alike: dict[Key, str]
) -> bool:
    """The next line after ``title`` (furniture aside) opens a heading of its type: the title
    heads nothing of its own, its first section's name right under it (pdfTeX's FASTA guide:
    ``The FASTA program package`` over ``Introduction``, both 14.3 pt bold)."""
    lines = range(title[1] + count, len(page.lines))
    nxt = next((i for i in lines if (page.index, i) not in skip), None)
    if nxt is None or (page.index, nxt) not in alike:
        return False
    first = page.lines[title[1]]
    return abs(page.lines[nxt].left - first.left) < first.size  # (set in: an entry under it)


def _same_type(line: Line, other: Line) -> bool:
    return abs(line.size - other.size) < 0.5 and line.bold == other.bold
