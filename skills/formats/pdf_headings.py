"""Headings of a PDF from its bookmarks, else from its typography; and its title.

**Bookmarks** win where they match the page text: a line of the bookmark's page (or of the two
after it: producers point some a page early) is the bookmark's heading when its words are the
bookmark's title, or the title after a section number (``1 Foo`` for the bookmark ``Foo``), or
when it and the next line together are (a title set over two lines).

**Typography**, per document, when bookmarks do not cover it. The body text's size and weight
are those of most characters; a line is a heading when it is set larger (by 12 % and 0.8 pt) or
bolder than the body, whole (not a bold word opening a paragraph), short (at most 14 words and
120 characters), mostly letters, does not end like a sentence or a label (``.``, ``,``, ``;``,
``:``), is followed by text of body size or a full line of smaller prose (a label in a diagram
is followed by smaller, short labels; a page's first line that is its largest, over a chart's
figures, needs no text under it: a slide's title), is not repeated three times in the document,
is not a date, a line of syntax (``=``, braces, ``[ ``, a function's signature), a term over its
definition set in by two ems (a man page's tag; a listing of declarations under a label is no
definition), a caption, a list item (``•``, ``-``, ``■`` and the lines set in under its text: a
slide's large bullets), a table row (words over an em and a half apart) or an entry of a table
of contents (dot leaders; a page whose lines, a third of them or more, end in page numbers), and
heads something: a line of text or a heading of its type or smaller comes before the next larger
heading (a chart's label at a page's foot heads nothing). On a page with form fields a one-word
bold line is a field's label. A document that sets nothing larger or bolder than its text (no
candidate at all) is headed by its lines in capitals of the body's type at the text's left edge,
with space above them and text under them (an article's small capitals), two at least. A line in
body type is a heading only by its numbering: ``3.1.1 Logical view`` right after a heading
numbered ``3.1`` or a sibling ``3.1.x``. Numbers must be consistent: lines numbered ``1.``,
``2.`` that start again at ``1.`` are a numbered list, not chapters. A run of two or three
heading lines of one type is one heading set over several lines when a line goes on in the next
(it starts in lower case, or this one ends on ``and``, ``of``..., or on a Japanese particle,
``の``, ``は``..., or the next is set in by an em: a hanging indent, a centred title's shorter
line, but not a line set in under a short one; CJK lines join with no space); a ``Chapter 3``
line opens the heading under it, and so does a short label ending in a colon right over a line
in its type (``Example 1:`` / ``Tasting notes``); a line whose next line, in its type and with
no gap, ends a sentence is that sentence's first line (a slide's callout). A page that would
have more than eight headings is a form or a diagram: its bold labels are no headings (its
larger lines stay, when few enough); nor is a line set at an angle (a watermark). Levels come
from the numbering depth when most headings are numbered (an unnumbered one takes the level of
numbered ones of its type), else from the rank of the type (larger first, bolder first).

Conservative by design: a wrong heading misplaces every child under it, a missed one only leaves
them in the section before.

**Title**: the metadata title when it is a real one (not ``Microsoft Word - report.docx``,
``untitled``, a file name or path, or an identifier such as ``CrashOH1M5``), else the first
page's largest line when it is larger than any line elsewhere (a title page's title, set over up
to three lines that run on; of two lines about as large, not the one the running headers name:
a journal's banner); a metadata title that names a smaller line of the first page than the
title it shows names a section, and one whose words the first page of a longer file mostly does
not print is stale (another version's): the shown title is the document's.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from skills.formats.pdf_lines import Line, Page

#: A section number: ``3``, ``3.1``, ``3.1.``, ``1)``, ``A.``, ``B)`` (a letter only with its
#: dot or bracket: ``A Guide`` is words), an appendix's ``A.1``, ``E.2.3``, then a space and a
#: letter.
_NUMBER = re.compile(
    r"^(?P<number>\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+|[A-Z](?=[.)]\s+[A-Z]))"
    r"(?P<end>[.)]?)\s+(?=\w)"
)
#: A system's model as its name: ``RT-11``, ``PDP-10``, ``IBM`` (before ``1401``).
_MODEL = re.compile(r"[A-Z]{2,}(?:[-/]?\d|$)")
_CAPTION = re.compile(r"^(?:figure|fig\.|table|tab\.|chart|exhibit|listing|plate)\s*[\dIVX]", re.I)
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
#: A date alone on its line (a cover's, a letter's): ``October 14, 1998``, ``14 Oct 1998``.
_DATE = re.compile(
    rf"^(?:(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}\.?\s+(?:{_MONTHS})[a-z]*\.?,?\s+\d{{4}}|(?:{_MONTHS})[a-z]*\.?\s+\d{{4}})$",
    re.I,
)
#: A line that opens with a date, day first: ``9 Feb 2022 (SIL WSTech Team) ...``: no section 9.
_DATED = re.compile(rf"^\d{{1,2}}\.?\s+(?:{_MONTHS})[a-z]*\.?,?\s+\d{{4}}\b", re.I)
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_SAMPLES = 3  # "words" of two letters at most in a row: a font's samples
_ALPHABET = 5  # letters in code-point order: an alphabet shown
_SAMPLE_CHARS = 6  # characters of a sample "word" at most (two letters, their marks, a stop)
_LETTER_RUN = re.compile(rf"[^\W\d_]{{{_ALPHABET},}}")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)
#: A page number in lower-case Roman numerals: ``ii``, ``xiv`` (``CIVIC``, ``MIX`` are words).
_ROMAN_FOLIO = re.compile(r"^[ivxlc]{1,7}$")
_VERSION = re.compile(r"^(?:version|ver\.|rev(?:ision)?\.?|edition|release)\s*\d[\w.-]*$", re.I)
_CONTINUED = re.compile(r"\((?:cont\.?|continued)\)$", re.I)
_CHAPTER = re.compile(r"^(?:chapter|appendix|part|section|annex)\s+[\w.]{1,6}$", re.I)
_LEADERS = re.compile(r"(?:\.\s?){4,}|(?:_\s?){4,}|…{2,}")
_ENDS_TOC_ENTRY = re.compile(r"\s\d{1,4}$")
_TOC_SHARE = 3  # a contents page: a third of its lines or more end in a page number
#: A list item's mark: a bullet, a dash or a square, then a space.
_ITEM = re.compile(r"^[•◦▪‣●○■□◆◇➢➤▶►✓✔\-–—*·][ \t\u3000]")
_SENTENCE_END = (".", ",", ";", ":", "。", "，", "；", "、", "：", "=")
_FULL_STOPS = (".", "。", "!", "！")
_CJK_JOINING = frozenset("のはがをにでとへもや")  # Japanese particles: the phrase goes on
_NOT_TITLES = re.compile(
    r"^(?:microsoft (?:word|powerpoint|excel) - |untitled|document\d*$|slide \d+$|"
    r"[\w\- ]+\.(?:docx?|pptx?|xlsx?|pdf|tex|dvi|indd|rtf|odt|txt|html?|ps|qxd)$)",
    re.I,
)
_MAN_HEADER = re.compile(r"^([A-Za-z][\w.:+-]*\(\d\w{0,4}\))\s.*\s\1$")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
_BOOKMARK_PAGES = 3  # a bookmark's title is looked for on its page and the two after it
_TITLE_PAGE_LINES = 3  # lines of body text on a first page that is a cover
_JOINING = frozenset(
    ("a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
     "to", "with")
)  # fmt: skip
_MAX_WORDS = 14
_MAX_CHARS = 120
_LARGER = 1.12  # a heading's size over the body's, at least
_TITLE = 1.3  # the first page's title's size over the body's, at least
_LEAD_TITLE = 1.15  # ... when it is the page's first line, in bold
_LARGER_POINTS = 0.8
_HEAVIER = 150  # font weight over the body's (LaTeX: 425 -> 704; Skia: 225 -> 380)
_REPEATED = 3  # a line seen this often is a label, not a heading
_NOT_SMALLER = 0.9  # of the body's size: a line smaller (a running header) is no label's repeat
_EMPHASIS = 3  # lines of a bookmarked type, over its bookmarked ones, past which it is emphasis
_RUN = 3  # unnumbered headings in a row with no text between: labels, not headings
_UNDERLINED = 2  # underlined body-type lines a document needs for them to be headings
_OUTLINE_WORDS = 10  # a body-type numbered line this long at most can be a heading
_CONTENTS_ENTRIES = 3  # lines of a page that later headings repeat: a contents page's entries
_WRAPPED_ENTRY = 5  # words of a contents entry's first line that may open a longer heading
_WRAPPED_WORDS = 5  # words of a heading line that wrapped onto the next
_SPACE = 0.25  # of the em: a word space
_PROSE_WORDS = 6  # words of a line of prose (a label has fewer)
_CROWDED = 8  # headings a page may have: more are a form's labels
_RUNNING_SAMPLE = 200  # furniture lines looked at for the names they repeat
_NAMED = 8  # characters a line needs before it can name what a running header names
_NEAR_SIZE = 0.95  # of the largest size: a banner and a title about as large
_APART = 1.6  # the page's line spacing: space above a line in capitals that heads a part
_CAPITAL_WORDS = 10
_CODE_MARKS = ("=", "{", "}", "[ ")  # a line of syntax or code, not a title
#: A function's signature or call: ``srand()``, ``index(s : string, t : string): int``.
_SIGNATURE = re.compile(r"\w\([^)]*[,:][^)]*\)|\w\(\)")
_TERM_INDENT = 2  # ems a definition is set in under its term
_LABEL_WORDS = 4  # words of a label that opens a heading (``Example 1:``, ``Part II:``)


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading that starts at a line and spans ``lines`` lines (set over several)."""

    level: int
    text: str
    lines: int = 1


@dataclass(frozen=True, slots=True)
class Body:
    """The body text's type: the size and weight of most characters."""

    size: float
    weight: int
    bold: bool


Key = tuple[int, int]  # (page index, line index)


def body_type(pages: Iterable[Page]) -> Body:
    sizes: Counter[float] = Counter()
    types: Counter[tuple[int, bool]] = Counter()
    lines = [line for page in pages if not page.garbage for line in page.lines]
    for line in _prose_lines(lines):
        sizes[round(line.size * 2) / 2] += len(line.text)
        types[(line.weight, line.bold)] += len(line.text)
    if not sizes:
        return Body(0.0, -1, False)
    (weight, bold), _ = types.most_common(1)[0]
    return Body(sizes.most_common(1)[0][0], weight, bold)


def _prose_lines(lines: list[Line]) -> list[Line]:
    """The lines the body's type is read from: all of them, or, when the most common size is
    mostly monospaced and the document has prose too (a manual of examples whose code listings
    outweigh each page's prose: Prawn's 9.5 pt Courier under its 11 pt Helvetica), the
    proportional ones: the listings are not the text a heading stands out from."""
    sizes: Counter[float] = Counter()
    mono: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.size * 2) / 2] += len(line.text)
        code = line.mono and not _CJK.search(line.text)  # (CJK faces are fixed-pitch)
        mono[round(line.size * 2) / 2] += len(line.text) if code else 0
    if not sizes:
        return lines
    size, count = sizes.most_common(1)[0]
    if _with_prose(sum(mono.values()), sum(sizes.values())) and mono[size] * 2 > count:
        return [line for line in lines if not line.mono or _CJK.search(line.text)]
    return lines


_PROSE_SHARE = 0.2  # of a document's characters in proportional faces: it has prose


def _with_prose(code: int, characters: int) -> bool:
    """The document has prose beside its listings: most of its text, or at least a fifth of it
    (a literate program: ConTeXt's enigma module sets 57 % of its characters in 8 pt listings
    between 10 pt paragraphs; read from the listings, the body was 8 pt and its paragraphs
    "larger"). A typewritten or OCR'd document, all of it monospaced, has none.

    >>> _with_prose(40, 100), _with_prose(57, 100), _with_prose(98, 100)
    (True, True, False)
    """
    return characters - code >= _PROSE_SHARE * characters


def words(text: str) -> int:
    """Words of a line, two CJK characters counting as one (Chinese and Japanese put no spaces
    between words: a line of 30 characters is a sentence, not a title).

    >>> words("Limitation for System Caching"), words("四、提交谈判文件截止时间、开标时间和地点")
    (4, 10)
    """
    return len(text.split()) + len(_CJK.findall(text)) // 2


def normalised(text: str) -> str:
    """Words as a bookmark and its line agree on them: case, spacing and quotes aside."""
    text = unicodedata.normalize("NFKC", text).replace("\ufffe", "").translate(_QUOTES)
    return " ".join(text.casefold().split())


def section_number(text: str) -> tuple[str, ...] | None:
    """``("3", "1")`` for ``3.1 Traces``; ``None`` for a line without a section number.

    >>> section_number("3.1 Traces"), section_number("7. Evaluation"), section_number("1) Intro")
    (('3', '1'), ('7',), ('1',))
    >>> section_number("A. Makefile options"), section_number("A Guide"), section_number("2004 was")
    (('A',), None, None)
    >>> section_number("E.1 Time System"), section_number("A.4.2 CONVBIN"), section_number("U.S.")
    (('E', '1'), ('A', '4', '2'), None)
    >>> section_number("9 Feb 2022 (SIL WSTech Team) version 6.101"), section_number("9 Feb rules")
    (None, ('9',))
    """
    match = _NUMBER.match(text)
    if match is None or _DATED.match(text):
        return None  # (a release dated day first: its day is no section number)
    number = match.group("number")
    if number.isdigit() and len(number) > 2 and not match.group("end"):
        return None  # a year or a quantity opening a line
    return tuple(number.split("."))


# --- title -----------------------------------------------------------------------------------


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
    pages (``_worded``) or on a cover (a first page of three lines of body text at most): a
    title page's title, not the first of the document's chapter headings."""
    readable = [page for page in pages if page.lines and not page.garbage]
    if not readable or body.size <= 0:
        return "", []
    page = readable[0]
    lines = [
        (i, line)
        for i, line in enumerate(page.lines)
        if (page.index, i) not in skip and not line.rotated
    ]
    if not lines:
        return "", []
    size = _title_size(pages, skip, page, lines)
    # (only a line about as large as the title can outsize it: the others are not looked at)
    elsewhere = max(
        (line.size for other in readable[1:] for i, line in enumerate(other.lines)
         if line.size > size - 0.5 and (other.index, i) not in skip and not line.rotated
         and _worded(line)),
        default=0.0,
    )  # fmt: skip
    if size < body.size * _title_ratio(lines, size) or (
        size < elsewhere + 0.5
        and not is_cover(page, body)
        and not _over_numbered_chapters(pages, skip, page, lines, size)
    ):
        return "", []
    first = next(n for n, (_, line) in enumerate(lines) if line.size == size)  # not a banner
    run = [lines[first]]
    for i, line in lines[first + 1 : first + 3]:
        above = run[-1][1]
        if abs(line.size - size) > 0.5:
            break
        if not (_goes_on(above.text, line.text) or _hangs(above, line)):
            break  # a second line of its own (a heading in the title's type), or a sentence's end
        run.append((i, line))
    text = joined_lines(line.words for _, line in run)
    if len(text) > 200 or not any(c.isalpha() for c in text) or section_number(text):
        return "", []
    return " ".join(text.split()), [(page.index, i) for i, _ in run]


def _title_ratio(lines: list[tuple[int, Line]], size: float) -> float:
    """How much larger than the body the first page's largest line must be to be the title: 1.3
    times, or 1.15 when it is the page's first line and bold (Word's essays: a 14 pt bold title
    over 12 pt text, ``Bug, Feature, or Code Rot? Adventures in OS Debugging``; a web page's
    15 pt heading over 13 pt text). A line lower on the page, or regular, needs the wider
    margin: a first section's heading is no title."""
    first = lines[0][1]
    return _LEAD_TITLE if first.size == size and first.bold else _TITLE


def _worded(line: Line) -> bool:
    """A line of words, as a heading is: not a table's row, and with a word of three letters at
    least (a font's samples set large, ``ⵏⵏ ⵏⵏ ⵏⵏ``, ``ដ``, ``ꪋꫂ ꪓꫂ``, are not a chapter's
    heading that the first page's title must outsize).

    >>> from skills.formats.pdf_lines import Line
    >>> [_worded(Line(1, text, 18, 400, False, True, 90, 72)) for text in ("ꪋꫂ ꪓꫂ", "Sample Text")]
    [False, True]
    """
    if line.spread:
        return False
    return any(
        sum(unicodedata.category(char)[0] in "LM" for char in word) >= 3
        for word in line.text.split()
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

    >>> from skills.formats.pdf_lines import Line
    >>> header = "LIBCGRAPH(3) Library Functions Manual LIBCGRAPH(3)"
    >>> man_page_name([Page(0, (Line(0, header, 10, 400, False, True, 40, 72),), 50, False, False)])
    'LIBCGRAPH(3)'
    """
    first = next((page for page in pages if page.lines and not page.garbage), None)
    if first is None:
        return ""
    match = _MAN_HEADER.match(first.lines[0].text.strip())
    return match.group(1) if match else ""


def printed(title: str, page: Page) -> bool:
    """Most of the title's words are on the page (a stale metadata title names another version
    or another document: ``Gutenprint 5.0 User's Manual and Release Notes`` over a first page
    reading ``Gutenprint 5.2`` / ``User's Manual``).

    >>> from skills.formats.pdf_lines import Line
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
    found = sum(word in shown or (bool(_CJK.search(word)) and word in text) for word in wanted)
    return found * 4 >= len(wanted) * 3


def is_cover(page: Page, body: Body) -> bool:
    """A page of a title and a few lines (a subtitle, a date): three lines of body text at most."""
    return sum(line.size < body.size * _LARGER for line in page.lines) <= _TITLE_PAGE_LINES


# --- bookmarks -------------------------------------------------------------------------------


def from_bookmarks(
    pages: list[Page], bookmarks: dict[int, list[tuple[int, str]]], skip: set[Key]
) -> dict[Key, Heading]:
    """The bookmarks found on their pages' text, as headings of their depth."""
    found: dict[Key, Heading] = {}
    by_index = {page.index: page for page in pages}
    taken: dict[int, set[int]] = {}
    for index in sorted(bookmarks):
        for level, title in bookmarks[index]:
            for page in (by_index.get(n) for n in range(index, index + _BOOKMARK_PAGES)):
                if page is None:
                    continue
                used = taken.setdefault(page.index, set())
                match = _find_bookmark(page, title, used, skip)
                if match is not None:
                    start, count = _chapter_start(page, *match, skip, used)
                    found[(page.index, start)] = Heading(level, _joined(page, start, count), count)
                    used.update(range(start, start + count))
                    break
    return found


def _joined(page: Page, start: int, count: int) -> str:
    return joined_lines(line.words for line in page.lines[start : start + count])


def joined_lines(texts: Iterable[str]) -> str:
    """Lines of one heading as one: a space between them, none between two CJK characters (a
    line of ideographs wraps with no space to break at) nor after a dash that closes a line
    between two words (``like speaking—`` / ``reading must be taught``: the dash joins them).

    >>> joined_lines(["Amendments to", "Recordings"]), joined_lines(["記事からの", "発見"])
    ('Amendments to Recordings', '記事からの発見')
    >>> joined_lines(["like speaking—", "reading"]), joined_lines(["Notes –", "draft"])
    ('like speaking—reading', 'Notes – draft')
    """
    out = ""
    for text in texts:
        text = " ".join(text.split())
        cjk = bool(out) and bool(_CJK.match(out[-1:]) and _CJK.match(text[:1]))
        out = f"{out}{text}" if cjk or not out or _DASHED.search(out) else f"{out} {text}"
    return out


#: A line that ends in a dash right after a word: the dash joins it to the next line's word.
_DASHED = re.compile(r"\w[—–]$")


def _find_bookmark(page: Page, title: str, taken: set[int], skip: set[Key]) -> Key | None:
    wanted = normalised(title)
    lines = page.lines
    for i, line in enumerate(lines):
        if i in taken or (page.index, i) in skip:
            continue
        words = normalised(line.text)
        if words == wanted or _after_number(words) == wanted:
            return i, 1
        if i + 1 < len(lines) and i + 1 not in taken and wanted.startswith(_after_number(words)):
            two = normalised(line.text + " " + lines[i + 1].text)
            if two == wanted or _after_number(two) == wanted:
                return i, 2
    return None


def _after_number(words: str) -> str:
    match = _NUMBER.match(words)
    return words[match.end() :] if match is not None else words


def _chapter_start(
    page: Page, i: int, count: int, skip: set[Key], taken: set[int] | None = None
) -> tuple[int, int]:
    """A ``Chapter 1`` line right above a heading opens it: (first line, lines)."""
    if i == 0 or (page.index, i - 1) in skip or (taken is not None and i - 1 in taken):
        return i, count
    if not _CHAPTER.match(page.lines[i - 1].text.strip()):
        return i, count
    return i - 1, count + 1


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
            if not _heading_like(line, counts):
                continue
            count = 1
            if i < len(page.lines) and _type(page.lines[i]) == kind:
                count += _goes_on(line.text, page.lines[i].text)
            if _followed_by_text(page, key[1] + count - 1, body):
                level = levels[kind].most_common(1)[0][0]
                extra[key] = Heading(level, _joined(page, key[1], count), count)
                i = key[1] + count
    for kind, n in levels.items():
        more = [key for key in extra if _type(by_index[key[0]].lines[key[1]]) == kind]
        if len(more) + n.total() > _EMPHASIS * n.total():
            for key in more:
                del extra[key]
    return dict(sorted({**found, **extra}.items()))


def _type(line: Line) -> tuple[float, bool]:
    return round(line.size * 2) / 2, line.bold


# --- typography ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Candidate:
    key: Key
    text: str
    lines: int
    size: float
    bold: bool
    strong: bool  # larger or bolder than the body; False: body type, numbered only
    number: tuple[str, ...] | None
    rotated: bool = False  # a watermark or a diagram's label: in runs of labels, never a heading


def from_typography(pages: list[Page], body: Body, skip: set[Key]) -> dict[Key, Heading]:
    """Headings found by type and numbering, with their levels."""
    if body.size <= 0:
        return {}
    if _deck(pages):
        return _slide_titles(pages, body, skip)
    pages = _code_named(pages, body)
    counts = _repeats(pages, body)
    found = _without_figure_labels(_candidates(pages, body, skip, counts), pages, skip, body)
    found = _with_section_labels(found, pages, body, skip, counts)
    if not any(c.strong and c.number for c in found):
        found = sorted(found + _body_outline(pages, body, skip, counts), key=lambda c: c.key)
    found = _with_underlined(found, pages, body, skip, counts)
    candidates = _without_contents(_apart(_out_of_rows(_uncrowded(found, body), pages)))
    turned = _turned_pages(pages)
    kept = _consistent([c for c in candidates if not c.rotated or c.key[0] in turned])
    if not found:  # nothing set larger or bolder, not even a form's labels
        kept = _capitals_apart(pages, body, skip, counts)
    return _levels(_heading_text(pages, kept, skip, body))


def _without_contents(candidates: list[_Candidate]) -> list[_Candidate]:
    """Without the entries of a contents page that gives no page numbers: three or more lines of
    one page that a heading of another type repeats on a later page (SIMH's FAQ lists ``4.7 IS
    THERE AN EXAMPLE OF THE SIMULATOR RUNNING VMS?`` in 12 pt bold small capitals on page 3, and
    the question heads page 12 as ``4.7 Is there an example of the simulator running VMS?`` in
    14 pt; a wrapped entry's first line, of five words or more, opens its heading's words). The
    entries follow one another with no text between; a heading's name seen again in its own type
    (``Detail 1`` under each chapter), or over text (a man page's synopsis groups, described
    again later: ``STRING ATTRIBUTES``), is no entry."""
    by_opening: dict[tuple[str, ...], list[_Candidate]] = {}
    for candidate in candidates:
        by_opening.setdefault(tuple(normalised(candidate.text).split()[:3]), []).append(candidate)
    ends = {(c.key[0], c.key[1] + c.lines) for c in candidates}  # the line after each one
    starts = {c.key for c in candidates}
    echoes: Counter[int] = Counter()
    echoed: set[Key] = set()
    for candidate in candidates:
        page, i = candidate.key
        if candidate.key not in ends and (page, i + candidate.lines) not in starts:
            continue  # text under it: a heading (a man page's SYNOPSIS groups), not a list
        text = normalised(candidate.text)
        for later in by_opening[tuple(text.split()[:3])]:
            if _repeats_entry(candidate, text, later):
                echoes[candidate.key[0]] += 1
                echoed.add(candidate.key)
                break
    return [c for c in candidates if c.key not in echoed or echoes[c.key[0]] < _CONTENTS_ENTRIES]


def _repeats_entry(entry: _Candidate, text: str, heading: _Candidate) -> bool:
    if heading.key[0] <= entry.key[0] or (heading.size, heading.bold) == (entry.size, entry.bold):
        return False
    later = normalised(heading.text)
    return later == text or (later.startswith(text + " ") and len(text.split()) >= _WRAPPED_ENTRY)


#: Width over height of a slide: 4:3 (PowerPoint's 720 x 540, Keynote's 800 x 600), 16:10, 16:9.
_SLIDE_SHAPES = (4 / 3, 16 / 10, 16 / 9)
_SLIDES = 3  # pages of a deck, at least
_TITLE_LINES = 5  # lines a slide's title may take (an action title is a sentence)


def _deck(pages: list[Page]) -> bool:
    """Every page has a slide's shape: a deck saved as PDF (PowerPoint, Keynote). A landscape
    Letter or A4 page (1.29, 1.41) is a report's or a sheet's."""
    shaped = [page for page in pages if page.lines and not page.garbage]
    return len(shaped) >= _SLIDES and all(
        any(abs(page.shape - shape) < 0.01 for shape in _SLIDE_SHAPES) for page in shaped
    )


def _slide_titles(pages: list[Page], body: Body, skip: set[Key]) -> dict[Key, Heading]:
    """A deck's headings are its slides' titles: on each slide, the line nearest its top when
    set larger than the body, with the lines under it in its size (an action title runs over
    two to four lines, its first words bold: ``Cross-cutting component #1: Early literacy
    efforts need to be`` / ``guided by a clear vision, ...``). The boxes' labels, callouts and
    figures on a slide are no headings (a report deck's 144 of them were). Titles set in the
    deck's largest size on fewer than a third of its slides are its section dividers, level 1,
    over the others."""
    titles: list[tuple[Key, str, int, float]] = []
    for page in pages:
        found = _slide_title(page, body, skip)
        if found is not None:
            titles.append(found)
    if not titles:
        return {}
    largest = max(size for *_, size in titles)
    dividers = sum(size >= largest - 0.5 for *_, size in titles)
    split = dividers * 3 < len(titles)
    return {
        key: Heading(1 if not split or size >= largest - 0.5 else 2, text, count)
        for key, text, count, size in titles
    }


def _slide_title(page: Page, body: Body, skip: set[Key]) -> tuple[Key, str, int, float] | None:
    kept = [
        i for i, line in enumerate(page.lines)
        if (page.index, i) not in skip and not line.rotated and line.text.strip()
    ]  # fmt: skip
    if page.garbage or not kept:
        return None
    first = min(kept, key=lambda i: page.lines[i].top)
    line = page.lines[first]
    if not _larger(line.size, body):
        return None
    count = 1
    while count < _TITLE_LINES and first + count in kept:
        above, nxt = page.lines[first + count - 1], page.lines[first + count]
        if abs(nxt.size - line.size) > 0.5 or abs(nxt.left - line.left) > line.size:
            break
        if not 0 < nxt.top - above.top <= line.size * 1.6:
            break
        count += 1
    text = _joined(page, first, count)
    stated = text.endswith(".") and not text.endswith("..")
    if stated or _DATE.match(text) or not any(char.isalpha() for char in text):
        return None  # a closing slide's sentence, a cover's date, a chart's figure
    return (page.index, first), text, count, line.size


def _with_section_labels(
    found: list[_Candidate], pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[_Candidate]:
    """With the lines in capitals, larger or bolder than the body and over text, that are seen
    three times or more but once in each section of a larger heading: a manual's man pages'
    ``SYNOPSIS``, ``DESCRIPTION``, ``OPTIONS`` under each command are headings, not labels (a
    ``NOTE`` or ``WARNING`` seen twice in one section stays a label, and so do all of its kind).
    """
    seen: dict[str, list[tuple[Key, Line]]] = {}
    for page in pages:
        if page.garbage or page.invisible:
            continue
        for i, line in enumerate(page.lines):
            if (page.index, i) not in skip and _section_label(page, i, body, counts):
                seen.setdefault(normalised(line.text), []).append(((page.index, i), line))
    added: list[_Candidate] = []
    for places in seen.values():
        size = places[0][1].size
        larger = [c.key for c in found if c.size > size + 0.5]
        bounds = [(-1, 0)] + [key for key, _ in places]  # each under a larger heading of its own
        if all(any(a < key < b for key in larger) for a, b in itertools.pairwise(bounds)):
            added += [_Candidate(key, line.text, 1, line.size, line.bold, True, None)
                      for key, line in places]  # fmt: skip
    return sorted(found + added, key=lambda c: c.key) if added else found


def _section_label(page: Page, i: int, body: Body, counts: Counter[str]) -> bool:
    line = page.lines[i]
    text = line.text.strip()
    return (
        text.isupper()
        and _prominent(line, body)
        and not line.spread
        and sum(char.isalpha() for char in text) >= 2  # not a formula's variable, ``P``
        and counts[normalised(text)] >= _REPEATED
        and words(text) <= _LABEL_WORDS
        and i + 1 < len(page.lines)
        and _text(page.lines[i + 1], body)
    )


def _code_named(pages: list[Page], body: Body) -> list[Page]:
    """The pages with the lines set larger than the body that end in a name in code's type
    (ReportLab's ``Chapter 2 Graphics and Text with pdfgen``: ``pdfgen`` in Courier) read as
    one type; at the body's size such a line is a label over code (``Return type Dimension``)."""
    changed: list[Page] = []
    for page in pages:
        if any(line.code_end and _larger(line.size, body) for line in page.lines):
            lines = tuple(
                replace(line, uniform=True) if line.code_end and _larger(line.size, body) else line
                for line in page.lines
            )
            page = replace(page, lines=lines)
        changed.append(page)
    return changed


def _repeats(pages: list[Page], body: Body) -> Counter[str]:
    """How often each line's words are seen, less a running header's repeats.

    A heading that names what the running header names (Erlang's module page ``eldap`` under the
    running header ``eldap`` on every page) is not a label seen on every page: a line set smaller
    than the body on or after the page where its words are first set at the body's size or larger
    names its chapter and is not counted again (``Supported Characters`` in 8 pt atop the pages).
    (A letterhead in a footer on every page still counts: ``LAW OFFICES OF ...`` over a signature
    on the last page.)
    """
    seen = [
        (page.index, line.size < body.size * _NOT_SMALLER, normalised(line.text))
        for page in pages
        if not page.garbage
        for line in page.lines
    ]
    counts = Counter(text for _, _, text in seen)
    first: dict[str, int] = {}
    for index, smaller, text in seen:
        if not smaller:
            first.setdefault(text, index)
    for index, smaller, text in seen:
        if smaller and index >= first.get(text, len(pages)):
            counts[text] -= 1
    return counts


def _capitals_apart(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[_Candidate]:
    """In a document that sets no heading larger or bolder than its text, the lines in capitals
    of the body's type, at the text's left edge, with a line's space and more above them and
    text under them (an article's small capitals: ``SAMPLE DESIGN``); two at least, or none."""
    found: list[_Candidate] = []
    for page in pages:
        if page.garbage or page.invisible or len(page.lines) < 3:
            continue
        lines = page.lines
        spacing = _spacing(page, body)
        edge = min((ln.left for ln in lines if abs(ln.size - body.size) < 0.5), default=0.0)
        for i in range(1, len(lines) - 1):
            line, above, below = lines[i], lines[i - 1], lines[i + 1]
            if (page.index, i) in skip or not _capitals(line, body, counts):
                continue
            apart = line.top - above.top >= _APART * spacing and below.top > line.top
            if apart and abs(line.left - edge) <= 1 and abs(below.size - body.size) < 0.5:
                found.append(
                    _Candidate((page.index, i), line.text, 1, line.size, line.bold, True, None)
                )
    return found if len(found) >= 2 else []


def _body_outline(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[_Candidate]:
    """In a document that numbers no heading in a larger or bolder type, its top-level numbered
    lines in the body's own type, each apart from the lines around it, counting 1, 2, 3 and on
    with sections numbered under them (``1. Interval timer``, ``2. Extended memory``, ``3.
    Protection`` over ``3.1 User Mode``: a Word note whose headings are all Normal text): three
    at least, or none. A list's items (no text between them) and a paragraph's numbered line
    break the count; their ``3.1`` lines then continue nothing (``_consistent``)."""
    tops: list[tuple[Key, Line]] = []
    deeper = False
    for page in pages:
        if page.garbage or page.invisible:
            continue
        spacing = _spacing(page, body)
        for i, line in enumerate(page.lines):
            number = section_number(line.text)
            if number is None or (page.index, i) in skip or _prominent(line, body):
                continue
            if abs(line.size - body.size) >= 0.5 or not all(part.isdigit() for part in number):
                continue
            if len(number) > 1:
                deeper = deeper or bool(tops and number[0] == str(len(tops)))
            elif _outline_line(page, i, spacing, body, counts):
                tops.append(((page.index, i), line))
    counted = [int((section_number(line.text) or ("0",))[0]) for _, line in tops]
    if not deeper or len(tops) < _RUN or counted != list(range(1, len(tops) + 1)):
        return []
    return [
        _Candidate(key, line.text, 1, line.size, line.bold, False, section_number(line.text))
        for key, line in tops
    ]


def _outline_line(page: Page, i: int, spacing: float, body: Body, counts: Counter[str]) -> bool:
    """A short line, heading-like, apart from the line above it and from the text under it."""
    lines, line = page.lines, page.lines[i]
    if words(line.text) > _OUTLINE_WORDS or not _heading_like(line, counts):
        return False
    above = i == 0 or line.top - lines[i - 1].top >= _APART * spacing
    below = i + 1 < len(lines) and lines[i + 1].top - line.top >= _APART * spacing
    return above and below and _text(lines[i + 1], body)


def _with_underlined(
    found: list[_Candidate], pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[_Candidate]:
    """With the lines of the body's type that are underlined from end to end, heading-like, in
    no monospaced face, with words of the body's type right under them and nothing of it on
    their own line's height above (a line's space or the page's top): Word's headings made by
    underlining Normal text (``Timing Problems``, ``Unused Paths``). Two at least, or none (one
    underlined line is a word stressed, a link). An underlined entry over a line of figures is
    a list's or a table's (``NOP: no operation`` over its octal codes ``140000 140010 ...``)."""
    taken = {c.key for c in found}
    added: list[_Candidate] = []
    for page in pages:
        if page.garbage or page.invisible:
            continue
        spacing = _spacing(page, body)
        for i in page.underlined:
            line = page.lines[i]
            if (page.index, i) in skip or (page.index, i) in taken or line.mono:
                continue
            if abs(line.size - body.size) >= 0.5 or not _heading_like(line, counts):
                continue
            above = i == 0 or line.top - page.lines[i - 1].top >= _APART * spacing
            under = page.lines[i + 1] if i + 1 < len(page.lines) else None
            if above and under is not None and _text(under, body) and _worded(under):
                number = section_number(line.text)
                added.append(_Candidate((page.index, i), line.text, 1, line.size, line.bold,
                                        True, number))  # fmt: skip
    if len(added) < _UNDERLINED:
        return found
    return sorted(found + added, key=lambda c: c.key)


def _capitals(line: Line, body: Body, counts: Counter[str]) -> bool:
    letters = [char for char in line.text if char.isalpha()]
    return (
        abs(line.size - body.size) < 0.5
        and len(letters) >= 4
        and all(char.isupper() for char in letters)
        and words(line.text) <= _CAPITAL_WORDS
        and _heading_like(line, counts)
    )


def _spacing(page: Page, body: Body) -> float:
    """The page's usual distance from one line of text to the next."""
    gaps = sorted(
        below.top - above.top
        for above, below in zip(page.lines, page.lines[1:], strict=False)
        if abs(above.size - body.size) < 0.5 and 0 < below.top - above.top < 3 * body.size
    )
    return gaps[len(gaps) // 2] if gaps else body.size * 1.2


def _heading_text(
    pages: list[Page], candidates: list[_Candidate], skip: set[Key], body: Body
) -> list[_Candidate]:
    """Without the headings that head nothing: a line of text, or a heading in its type or
    smaller (``Appendix`` over ``A FASTA Makefile options``), must follow a heading before a
    larger one or the document's end (a chart's label at a page's foot, ``ラビン首相暗殺``,
    right before the next slide's title)."""
    order = [
        (page.index, i)
        for page in pages
        if not page.garbage
        for i in range(len(page.lines))
        if (page.index, i) not in skip
    ]
    position = {key: n for n, key in enumerate(order)}
    by_index = {page.index: page for page in pages}
    kept: list[_Candidate] = []
    for n, candidate in enumerate(candidates):
        start = position.get(candidate.key)
        following = candidates[n + 1] if n + 1 < len(candidates) else None
        end = position.get(following.key, len(order)) if following is not None else len(order)
        between = order[start + candidate.lines : end] if start is not None else []
        text = [key for key in between if _text(by_index[key[0]].lines[key[1]], body)]
        empty = start is not None and not text
        if empty and (following is None or following.size > candidate.size + 0.5):
            continue
        kept.append(candidate)
    return kept


def _uncrowded(candidates: list[_Candidate], body: Body) -> list[_Candidate]:
    """Without the lines of the body's size on a page that would have more than eight headings
    (a form's field labels, a poster's or a diagram's captions, a manual's bold entry names: a
    page of prose has a few at most); the page's larger lines stay when few enough (the man
    page's ``BUILT-IN FUNCTIONS`` over forty bold function signatures)."""
    per_page = Counter(candidate.key[0] for candidate in candidates)
    larger = Counter(c.key[0] for c in candidates if _larger(c.size, body))
    return [
        c
        for c in candidates
        if per_page[c.key[0]] <= _CROWDED
        or (_larger(c.size, body) and larger[c.key[0]] <= _CROWDED)
    ]


def _larger(size: float, body: Body) -> bool:
    return size >= body.size * _LARGER and size - body.size >= _LARGER_POINTS


def _candidates(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[_Candidate]:
    found: list[_Candidate] = []
    code_body = _monospaced_body(pages, body)
    again = _seen_again_larger(pages, body, skip)
    for page in pages:
        if page.garbage or page.invisible:
            continue
        lines = page.lines
        toc_entries = sum(bool(_ENDS_TOC_ENTRY.search(line.text)) for line in lines)
        contents = toc_entries >= 3 and toc_entries * _TOC_SHARE >= len(lines)
        top = _page_title(page, skip)
        i = 0
        while i < len(lines):
            line = lines[i]
            strong = _prominent(line, body)
            label = strong and _label_over_name(page, i, skip, counts)
            like = _heading_like(line, counts) or (
                normalised(line.text) in again and _heading_like(line, Counter())
            )
            if (page.index, i) in skip or not (label or like):
                i += 1
                continue
            if _not_a_title(line, code_body) and not _file_title(line, body):
                i += 1
                continue  # a line of code, a path or an address, the end of a cut line
            if _goes_on_item(lines, i) or (page.form and len(line.text.split()) == 1):
                i += 1
                continue  # an item's next line; a form's one-word label (Amount, Signature)
            if _goes_on_caption(lines, i):
                i += 1
                continue
            number = section_number(line.text)
            if not strong and (number is None or len(number) < 2 or words(line.text) > 10):
                i += 1
                continue
            if contents and _ENDS_TOC_ENTRY.search(line.text):
                i += 1
                continue
            count = 2 if label else _run(page, i, line, body, skip, counts) if strong else 1
            if number is None and _defines(page, i + count - 1, body):
                i += count  # a term over its definition, set in under it (a man page's tag)
                continue
            if number is None and _ends_a_sentence_below(page, i + count - 1, skip):
                i += count + 1  # the first line of a sentence set large (a slide's callout)
                continue
            block = _block(page, i, line, skip)
            if number is None and block >= _RUN and block > count:
                i += block  # three lines or more of one type: an address, a cover's lines
                continue
            over_chart = i == top and _figures_follow(page, i + count)
            if (
                number is None
                and not over_chart
                and not _followed_by_text(page, i + count - 1, body)
            ):
                i += 1
                continue
            start, count = _chapter_start(page, i, count, skip)
            start, count = _wrapped_above(page, start, count, skip, counts)
            text = _joined(page, start, count)
            number = number or section_number(text) or _chapter_number(text)
            _drop_swallowed(found, (page.index, start))
            found.append(
                _Candidate(
                    (page.index, start), text, count, line.size, line.bold, strong, number,
                    line.rotated,
                )
            )  # fmt: skip
            i = start + count
    return found


def _drop_swallowed(found: list[_Candidate], start: Key) -> None:
    """Without the last candidate when the next one starts at its line: a ``Chapter 1`` line
    that was a heading of its own until the line under it took it in (OpTeX's ``Chapter 1`` /
    ``User documentation``). Both kept, the chapter's number was seen twice, and two
    ``1``s read as a numbered list's restart dropped every chapter of that type."""
    if found and found[-1].key == start:
        found.pop()


def _prominent(line: Line, body: Body) -> bool:
    if not line.uniform:
        return False
    larger = line.size >= body.size * _LARGER and line.size - body.size >= _LARGER_POINTS
    heavier = (line.bold and not body.bold) or (
        line.weight > 0 and body.weight > 0 and line.weight - body.weight >= _HEAVIER
    )
    heavier = heavier or _small_capitals(line)
    return larger or (heavier and line.size >= body.size * 0.9)


def _small_capitals(line: Line) -> bool:
    """A whole line in a small-capitals face stands out from the text as bold does: ConTeXt's
    enigma manual sets its sections so (``loading the module / package``, centred, at the
    body's size). A paragraph set so is three lines of one type: no heading (``_block``)."""
    return line.small_caps and not line.mono


def _figures_follow(page: Page, i: int) -> bool:
    """The line at ``i`` is a figure alone (``0.05``, ``1995``): a chart's axis begins there."""
    if i >= len(page.lines):
        return False
    text = page.lines[i].text.replace(" ", "")
    return bool(text) and not any(char.isalpha() for char in text)


def _page_title(page: Page, skip: set[Key]) -> int | None:
    """The page's first line when it is the page's largest: over a chart's figures (a slide's
    title), it heads the page even though no text follows it."""
    kept = [i for i, ln in enumerate(page.lines) if (page.index, i) not in skip and not ln.rotated]
    if not kept:
        return None
    first = page.lines[kept[0]]
    if all(page.lines[i].size < first.size - 0.5 for i in kept[1:]):
        return kept[0]
    return None


def _label_over_name(page: Page, i: int, skip: set[Key], counts: Counter[str]) -> bool:
    """A label ending in a colon right over a heading line in its type: the two are one heading
    (``Example 1:`` / ``Tasting notes using padding, string tabs and multi-columns``)."""
    line = page.lines[i]
    if not line.text.rstrip().endswith(":") or i + 1 >= len(page.lines):
        return False
    below = page.lines[i + 1]
    same = abs(below.size - line.size) <= 0.3 and below.bold == line.bold and line.uniform
    close = 0 < below.top - line.top <= line.size * 1.6
    short = words(line.text) <= _LABEL_WORDS
    return (
        same
        and close
        and short
        and (page.index, i + 1) not in skip
        and _heading_like(below, counts)
    )


def _seen_again_larger(pages: list[Page], body: Body, skip: set[Key]) -> set[str]:
    """Lines seen three times and more, each time set larger than the body: headings still (a
    reference's ``Exports`` under each module, a guide's ``Detail 1`` under each section in
    12 pt bold, a talk's slide title over three slides). The labels a repetition marks (a
    form's, a table's header cells, a chart's legend: ``Data``, also a word of the text) are
    set in the body's size at least once; a larger line seen again at each page's edge is
    furniture, found before this."""
    seen: Counter[str] = Counter()
    larger: Counter[str] = Counter()
    for page in pages:
        if page.garbage:
            continue
        for i, line in enumerate(page.lines):
            if (page.index, i) not in skip:
                seen[normalised(line.text)] += 1
                larger[normalised(line.text)] += _larger(line.size, body)
    return {text for text, n in seen.items() if n >= _REPEATED and larger[text] == n}


#: A chapter's label and number opening a heading: ``Chapter 2 Installation``, ``Part 3``.
_CHAPTER_NUMBER = re.compile(r"^(?:chapter|part)\s+(\d{1,3})(?:\s|$)", re.I)


def _chapter_number(text: str) -> tuple[str, ...] | None:
    """``Chapter 2`` numbers its heading 2, one level over the ``2.1`` sections it holds
    (rinohtype sets ``Chapter 1 One`` and ``1.1 Section A`` in one type: by type alone they were
    one level).

    >>> _chapter_number("Chapter 2 Installation"), _chapter_number("Chapters of the guide")
    (('2',), None)
    """
    match = _CHAPTER_NUMBER.match(text)
    return (match.group(1),) if match else None


def _goes_on_item(lines: tuple[Line, ...], i: int) -> bool:
    """The line goes on with a list item above it: set in past the item's mark, as are the
    lines between (``• いかにして頻度の少ない単語の字句`` / ``的な情報を学習するか？``)."""
    line = lines[i]
    for j in range(i - 1, max(-1, i - 4), -1):
        above = lines[j]
        if abs(above.size - line.size) > 0.5:
            return False
        if _ITEM.match(above.text.strip()) and above.left < line.left - 1:
            return True
        if abs(above.left - line.left) > 1:
            return False  # not a line of the item's text: the item ended above
    return False


def _goes_on_caption(lines: tuple[Line, ...], i: int) -> bool:
    """The line goes on with a caption above it, in its type and with no gap between, as do the
    lines between (``Figure 4: encroachment of Word 1`` / ``into Word 2``, centred in bold)."""
    line = lines[i]
    for j in range(i - 1, max(-1, i - 4), -1):
        above, below = lines[j], lines[j + 1]
        same = abs(above.size - line.size) <= 0.3 and above.bold == line.bold
        if not same or not 0 < below.top - above.top <= line.size * 1.6:
            return False
        if _CAPTION.match(above.text):
            return True
    return False


def _out_of_rows(candidates: list[_Candidate], pages: list[Page]) -> list[_Candidate]:
    """Without the candidates that are a table's first cells (:func:`_in_a_row`). Looked at
    after a crowded page's labels are set aside, which they count towards."""
    by_index = {page.index: page for page in pages}
    return [c for c in candidates if not _in_a_row(by_index[c.key[0]], c.key[1])]


_ROW_GAP = 5  # ems from a line's end to a line on its baseline: the next cell of its row


def _in_a_row(page: Page, i: int) -> bool:
    """Another line stands on this line's baseline just right of it: the line is a table's
    first cell that PDFium wrote as a line of its own (an InDesign data sheet's row labels,
    ``Sampling`` / ``method`` in 8 pt beside its 7 pt values; the lines under it at its left
    edge in its type are the cell's), not a heading. A heading stands alone on its baseline;
    a column beside it starts further off (a gutter and the rest of the column)."""
    line = page.lines[i]
    if line.rotated:
        return False  # (a turned page's places are not left to right)
    for above in range(i, max(i - 3, -1), -1):  # (or a wrapped first cell's next lines)
        cell = page.lines[above]
        below = page.lines[above + 1] if above < i else line
        if above < i and (
            abs(cell.left - line.left) > 1
            or abs(cell.size - line.size) > 0.3
            or not 0 < below.top - cell.top <= cell.size * 1.6
        ):
            return False
        if cell.base and any(
            other is not cell
            and other.base
            and abs(other.base - cell.base) <= cell.size / 4
            and 0 <= other.left - cell.right <= _ROW_GAP * cell.size
            for other in page.lines
        ):
            return True
    return False


def _heading_like(line: Line, counts: Counter[str]) -> bool:
    text = line.text.strip()
    shown = text.replace(" ", "")
    if not line.uniform or line.spread:
        return False
    if len(text) > _MAX_CHARS or words(text) > _MAX_WORDS:
        return False
    if sum(c.isalpha() for c in shown) < max(2, len(shown) // 2) and not (
        _named_parts(text) or _named_by_model(text)
    ):
        return False
    if text.endswith(_SENTENCE_END) or _LEADERS.search(text) or _CAPTION.match(text):
        return False
    if _CONTINUED.search(text) or _DATE.match(text) or _VERSION.match(text):
        return False  # a table's title repeated; a date; a form's or a cover's version label
    if _PAGE_NUMBER.match(text) or (text.startswith("(") and text.endswith(")")):
        return False  # "PAGE 1" (furniture of a file too short to repeat it); a note in brackets
    if _ROMAN_FOLIO.match(text):
        return False  # a front matter's page number alone on a page (rinohtype's "ii", "iv")
    if _ITEM.match(text):
        return False  # a list item (a slide's bullets are set large and bold)
    if _glyph_samples(text) and section_number(text) is None:
        return False  # a font's samples shown large
    code = any(mark in text for mark in _CODE_MARKS) or _SIGNATURE.search(text)
    if code and section_number(text) is None:  # (3.7.2 Pde() is a numbered section)
        return False  # syntax: style=filled, { statement-list }, gsub(str : string, pat : string)
    return counts[normalised(text)] < _REPEATED or section_number(text) is not None


def _glyph_samples(text: str) -> bool:
    """A font's samples, not words: three or more of two letters at most (``ⵏⵏ ⵏⵏ ⵏⵏ``,
    ``ꪋꫂ ꪓꫂ ꪖꫂ ꪨꫂ``; not in Hangul or CJK, whose syllables are words), or five letters in the
    order of their code points (``ABCDEFGHIJKLMNOPQRSTUVWXYZ``, ``ᦔᦕᦖᦗᦘ``).

    >>> [_glyph_samples(t) for t in ("ⵏⵏ ⵏⵏ ⵏⵏ", "^_`abcdefghijk", "Q & A", "Basic Latin")]
    [True, True, False, False]
    """
    if _CJK.search(text) or _HANGUL.search(text):
        return False
    split = text.split()
    if len(split) >= _SAMPLES and all(len(word) <= _SAMPLE_CHARS for word in split):
        letters = [sum(unicodedata.category(c)[0] in "LM" for c in word) for word in split]
        lettered = [n for n in letters if n]
        if len(lettered) >= _SAMPLES and max(lettered) <= 2:
            return True
    for letters in _LETTER_RUN.findall(text):  # (only a run of five letters can be an alphabet)
        run = 1
        for before, char in itertools.pairwise(letters):
            run = run + 1 if ord(char) == ord(before) + 1 else 1
            if run >= _ALPHABET:
                return True
    return False


def _run(page: Page, i: int, line: Line, body: Body, skip: set[Key], counts: Counter[str]) -> int:
    """How many lines from ``i`` one heading spans: the next one or two lines of the same type
    that do not open a numbered heading of their own."""
    count = 1
    for j in range(i + 1, min(i + 3, len(page.lines))):
        nxt = page.lines[j]
        if (page.index, j) in skip or abs(nxt.size - line.size) > 0.3 or nxt.bold != line.bold:
            break
        if section_number(nxt.text) is not None or not _heading_like(nxt, counts):
            break
        above = page.lines[j - 1]
        if not (_goes_on(above.text, nxt.text) or _hangs(above, nxt) or _filled(page, above, nxt)):
            break
        if nxt.left - page.lines[j - 1].left >= line.size and not _hangs(page.lines[j - 1], nxt):
            break  # set in under a short line: an entry under its heading, not its second line
        if nxt.top - page.lines[j - 1].top > line.size * 1.6:  # a gap: another heading
            break
        count += 1
    return count


def _ends_a_sentence_below(page: Page, last: int, skip: set[Key]) -> bool:
    """The line right under ``last``, in its type and with no gap, ends a sentence: the two are
    one sentence set large (a slide's callout ``...学習することが`` / ``...には不可欠。``)."""
    if last + 1 >= len(page.lines) or (page.index, last + 1) in skip:
        return False
    line, below = page.lines[last], page.lines[last + 1]
    same = abs(below.size - line.size) <= 0.3 and below.bold == line.bold
    close = 0 < below.top - line.top <= line.size * 1.6
    return same and close and below.text.rstrip().endswith(_FULL_STOPS)


def _defines(page: Page, last: int, body: Body) -> bool:
    """The line at ``last``, in the body's size, is a term whose definition follows it set in
    by two ems or more, in the body's type (``head : node_t`` / ``the head of the edge``; a
    heading's text starts at its margin, or a first line's indent in)."""
    if last + 1 >= len(page.lines):
        return False
    line, below = page.lines[last], page.lines[last + 1]
    if abs(line.size - body.size) >= 0.5 or below.bold or abs(below.size - body.size) >= 0.5:
        return False
    close = 0 < below.top - line.top <= line.size * 2
    if not close or below.left < line.left + _TERM_INDENT * line.size:
        return False
    if len(below.text.split()) < 3 or below.text.rstrip().endswith(";"):
        return False  # a listing under a label (``TYPES`` over ``Agraph_t;``), no definition
    after = page.lines[last + 2] if last + 2 < len(page.lines) else None
    return after is None or after.bold or abs(after.left - line.left) > 1  # no paragraph's 2nd


def _block(page: Page, i: int, line: Line, skip: set[Key]) -> int:
    """How many lines from ``i`` are set in its type one under the other, with no gap."""
    count = 1
    for j in range(i + 1, len(page.lines)):
        nxt, above = page.lines[j], page.lines[j - 1]
        if (page.index, j) in skip or abs(nxt.size - line.size) > 0.3 or nxt.bold != line.bold:
            break
        if not 0 < nxt.top - above.top <= line.size * 1.6:
            break
        count += 1
    return count


def _goes_on(line: str, following: str) -> bool:
    """A heading line that the next one continues: it starts in lower case, or this one ends
    on a joining word or mark (``README: Instructions on`` / ``configuring and building``), or
    on a Japanese particle (``コンパラブルな新聞記事からの`` / ``固有表現の発見``)."""
    words = line.split()
    return (
        following[:1].islower()
        or line.endswith((",", "&", "-", "/"))
        or (bool(words) and words[-1].casefold() in _JOINING)
        or (line[-1:] in _CJK_JOINING and bool(_CJK.match(following[:1])))
    )


def _hangs(line: Line, following: Line) -> bool:
    """The next line is set in from this one by an em or more (a hanging indent, or the shorter
    second line of a centred title) after a line long enough to have wrapped (five words; the
    short centred lines of an address are lines of their own): the heading goes on there."""
    return following.left - line.left >= line.size and len(line.text.split()) >= _WRAPPED_WORDS


def _filled(page: Page, line: Line, following: Line) -> bool:
    """The line wrapped where the page's text ends: the next line starts where it starts, and
    its first word would not have fitted after it before the right edge of the page's widest
    other line (``Recommendations for the implementations of Khmer`` / ``Unicode``: no joining
    word, no indent, but a full line)."""
    words = following.text.split()
    if not words or abs(following.left - line.left) >= line.size:
        return False  # (lines set flush right, as a right-to-left sample's, all end there)
    margin = max((ln.right for ln in page.lines if not ln.rotated and ln is not line), default=0)
    first = (following.right - following.left) * len(words[0]) / len(following.text)
    return line.right + line.size * _SPACE + first > margin


def _text(line: Line, body: Body) -> bool:
    """A line of text: of the body's size or larger, or a line of smaller prose (not a chart's
    axis labels or a diagram's short labels), or of a smaller listing."""
    return (
        line.size >= body.size * 0.85
        or (line.size >= body.size * 0.6 and words(line.text) >= _PROSE_WORDS)
        or (line.size >= body.size * 0.6 and len(line.cells) > 2)  # a table's row
        or _listing(line, body)
    )


def _listing(line: Line, body: Body) -> bool:
    """A line of a code listing set smaller than the body (ReportLab's 8 pt Courier under its
    10 pt text): the text a heading such as ``Line methods`` heads, however short its lines."""
    return line.mono and not line.rotated and line.size >= body.size * 0.6


def _followed_by_text(page: Page, last: int, body: Body) -> bool:
    """The line after a heading is of body size or larger (or the page ends), or a full line of
    smaller prose (the references under ``References``): a label in a figure is followed by
    the figure's smaller, short labels."""
    if last + 1 >= len(page.lines):
        return True
    return _text(page.lines[last + 1], body)


def _apart(candidates: list[_Candidate]) -> list[_Candidate]:
    """Without runs of three or more unnumbered headings with no text between them: the labels
    of a diagram, the lines of a cover page, a table's header cells."""
    kept: list[_Candidate] = []
    run: list[_Candidate] = []
    for candidate in [*candidates, None]:
        follows = (
            candidate is not None
            and run
            and candidate.number is None
            and candidate.key == (run[-1].key[0], run[-1].key[1] + run[-1].lines)
        )
        if follows:
            run.append(candidate)  # type: ignore[arg-type]
            continue
        if len(run) < _RUN:
            kept.extend(run)
        run = []
        if candidate is None:
            break
        if candidate.number is None:
            run = [candidate]
        else:
            kept.append(candidate)
    return kept


def _consistent(candidates: list[_Candidate]) -> list[_Candidate]:
    """Drop numbered lists taken for chapters, and body-type numbered lines that do not
    continue the document's numbering."""
    restarts: set[float] = set()
    last_single: dict[float, int] = {}
    for candidate in candidates:
        number = candidate.number
        if number is None or len(number) != 1 or not number[0].isdigit():
            continue
        value = int(number[0])
        if candidate.size in last_single and value <= last_single[candidate.size]:
            restarts.add(candidate.size)
        last_single[candidate.size] = value
    kept: list[_Candidate] = []
    seen: list[tuple[str, ...]] = []
    for candidate in candidates:
        number = candidate.number
        single = number is not None and len(number) == 1 and number[0].isdigit()
        if single and candidate.size in restarts:
            continue
        if not candidate.strong and not _continues(number, seen):
            continue
        kept.append(candidate)
        if number is not None:
            seen.append(number)
    return kept


def _continues(number: tuple[str, ...] | None, seen: list[tuple[str, ...]]) -> bool:
    """``3.1.2`` continues ``3.1`` (first child) or ``3.1.1`` (next sibling); ``1`` opens the
    numbering (a body-type ``1`` is a candidate only in an outline: ``_body_outline``)."""
    if number is None or not all(part.isdigit() for part in number):
        return False
    if not seen:
        return number == ("1",)
    parent, last = number[:-1], int(number[-1])
    previous = seen[-1]
    if previous == parent and last == 1:
        return True
    if len(previous) >= len(number) and previous[: len(number) - 1] == parent:
        return previous[len(number) - 1].isdigit() and int(previous[len(number) - 1]) == last - 1
    return False


def _levels(candidates: list[_Candidate]) -> dict[Key, Heading]:
    if not candidates:
        return {}
    types = sorted({(c.size, c.bold) for c in candidates}, key=lambda t: (-t[0], -t[1]))
    rank = {kind: n + 1 for n, kind in enumerate(types)}
    numbered = [c for c in candidates if c.number is not None]
    by_number = len(numbered) * 2 >= len(candidates)
    type_level: dict[float, int] = {}
    if by_number:
        for size in {c.size for c in numbered}:
            levels = Counter(len(c.number or ()) for c in numbered if c.size == size)
            type_level[size] = levels.most_common(1)[0][0]
    headings: dict[Key, Heading] = {}
    for c in candidates:
        if by_number and c.number is not None:
            level = len(c.number)
        elif by_number and c.size in type_level:
            level = type_level[c.size]
        elif by_number:  # a type no numbered heading has: under the larger types
            level = 1 + max((type_level[s] for s in type_level if s > c.size), default=0)
        else:
            level = rank[(c.size, c.bold)]
        headings[c.key] = Heading(min(6, level), c.text, c.lines)
    return headings


# --- lines that are no headings, and headings that wrap (Word-made manuals) -----------------

#: An address or a path: a URL, a backslash, a path from the root or home, a file in a folder.
_ADDRESS = re.compile(r"://|\bwww\.\w|\\|(?:^|\s)[~.]?/\w|\w/[\w%<>.-]*\.[A-Za-z]\w{0,3}\b")
#: A command line after a prompt: ``>> cd gcc``, ``$ make``, ``sim> boot rk0``, ``C:\> dir``.
_PROMPT = re.compile(r"^(?:>>|[\w:\\]{0,12}[>$%])\s")
#: The end of a line cut from its start (a diagram's ``: Geodetic Latitude``, a path's ``)``).
_CLOSING = tuple(")]}:;,")
_MONO_BODY = 0.5  # of the body's lines in a monospaced font: a typewritten document
_TITLE_INDENT = 2  # ems a cover's centred title is set in from the headings' margin
_MARGIN_SHARE = 0.05  # of the body's lines that start at the text's margin, at least


def _monospaced_body(pages: list[Page], body: Body) -> bool:
    """Most lines of the body's size are in a monospaced font (a typewritten or a plain-text
    document): there, a monospaced line is no sign of code."""
    lines = [
        line for page in pages if not page.garbage for line in page.lines
        if abs(line.size - body.size) < 0.5
    ]  # fmt: skip
    return bool(lines) and sum(line.mono for line in lines) > _MONO_BODY * len(lines)


def _not_a_title(line: Line, code_body: bool) -> bool:
    """An unnumbered line that is code, not a heading, however bold or large: set in a
    monospaced font in a document whose text is not (a manual's command lines, keywords in an
    options table read column by column, ``rtklib_<ver>``, ``!UBX CFG-PRT ...``), an address or
    a path (``cddis.gsfc.nasa.gov/gps/products/%W/...``, ``<install dir>\\rtklib``), a command
    after its prompt (``>> cd gcc``), or a line that opens with closing punctuation: the rest of
    a line cut in two (``: Geocentric Latitude``, a diagram's label).

    >>> code = Line(0, "elmask", 9, 700, True, True, 100, 300, mono=True)
    >>> _not_a_title(code, False), _not_a_title(code, True)
    (True, False)
    >>> [_not_a_title(Line(0, t, 9, 700, True, True, 100, 60), False)
    ...  for t in ("http://example.com/a", ">> cd gcc", ": Geodetic Latitude", "Input/Output")]
    [True, True, True, False]
    """
    text = line.text.strip()
    if section_number(text) is not None:
        return False
    return (
        (line.mono and not code_body)
        or bool(_ADDRESS.search(text) or _PROMPT.match(text))
        or text.startswith(_CLOSING)
    )


#: A file's path relative to its project, alone: ``basic_concepts/creation.rb``.
_FILE_PATH = re.compile(r"^\w[\w.-]*(?:/[\w.-]+)+\.[A-Za-z]\w{0,3}$")


def _file_title(line: Line, body: Body) -> bool:
    """A relative file path alone on its line, set larger than the body in a proportional face:
    the title of the section that shows that file (Prawn's manual heads each example with its
    path, ``text/font_size.rb``, in 18 pt); a path at the body's size, in a listing's face or in
    a sentence stays code.

    >>> body = Body(11.0, 400, False)
    >>> [_file_title(Line(0, t, 18, 400, False, True, 60, 200), body)
    ...  for t in ("graphics/rectangle.rb", "http://x.org/a.rb", "see graphics/rectangle.rb")]
    [True, False, False]
    >>> _file_title(Line(0, "graphics/rectangle.rb", 11, 400, False, True, 60, 200), body)
    False
    """
    return not line.mono and _larger(line.size, body) and bool(_FILE_PATH.match(line.text.strip()))


def _named_parts(text: str) -> bool:
    """A title numbered as a section (``2.1``, ``2.1.1``) made mostly of part numbers has a word
    all the same (``2.1 2114C/2115A/2116C, 2100A, 1000-M/E/F CPUs``, ``2.1.1 CPU``): three
    letters running after the section number. Figures under a number (``1.5 2.0 3.5 mm``) have
    none.

    >>> _named_parts("2.1.1 CPU"), _named_parts("2.1 2114C/2115A, 1000-M/E/F CPUs")
    (True, True)
    >>> _named_parts("1.5 2.0 3.5 mm"), _named_parts("CPU"), _named_parts("30 Sep-2008")
    (False, False, False)
    """
    match = _NUMBER.match(text)
    if match is None or "." not in match.group("number"):
        return False  # (``30 Sep-2008``: a date's day, not a chapter)
    return re.search(r"[^\W\d_]{3}", text[match.end() :]) is not None


def _named_by_model(text: str) -> bool:
    """A numbered title that names a system by its model, a word of two capitals or more with
    figures (``2.2 RT-11``, ``7 IBM 1401``, ``9 PDP-10 TOPS-10 7.03, TOPS-10 7.04``): fewer
    letters than figures, but a name all the same. Figures under a number (``1.5 2.0 3.5 mm``,
    ``3 10 15 20``) have no such word.

    >>> [_named_by_model(t) for t in ("2.2 RT-11", "7 IBM 1401", "2.2.2 RT-11 V5.3")]
    [True, True, True]
    >>> [_named_by_model(t) for t in ("1.5 2.0 3.5 mm", "3 10 15 20", "RT-11", "1995 AB-12")]
    [False, False, False, False]
    """
    match = _NUMBER.match(text)
    if match is None or section_number(text) is None:
        return False
    name = text[match.end() :].split()
    return (
        bool(name)
        and _MODEL.match(name[0]) is not None
        and any(char.isdigit() for word in name for char in word)
    )


def _wrapped_above(
    page: Page, start: int, count: int, skip: set[Key], counts: Counter[str]
) -> tuple[int, int]:
    """A heading whose numbered first line ends with a comma, right above it in its type,
    starts there: the two lines are one title (``2.5.5 12653A Printer Controller (LPS) with
    2767 Line Printer,`` / ``12566B Microcircuit Interface with Loopback Connector``). The first
    line alone was no heading (a line ending in a comma goes on), the second no title of its
    own."""
    if start == 0 or (page.index, start - 1) in skip:
        return start, count
    above, line = page.lines[start - 1], page.lines[start]
    if section_number(line.text) is not None or not above.text.rstrip().endswith(","):
        return start, count
    same = abs(above.size - line.size) <= 0.3 and above.bold == line.bold
    close = 0 < line.top - above.top <= line.size * 1.6
    whole = replace(above, text=above.text.rstrip().rstrip(","))
    if same and close and section_number(above.text) is not None and _heading_like(whole, counts):
        return start - 1, count + 1
    return start, count


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
    return bool(margins) and first.left >= min(margins) + _TITLE_INDENT * size


def _text_margin(pages: list[Page], body: Body) -> float:
    """The text's left margin: the leftmost place where many lines of the body's size start
    (one in twenty: a list's indent may hold more of them, a stray line fewer)."""
    starts = Counter(
        round(line.left) for page in pages if not page.garbage for line in page.lines
        if abs(line.size - body.size) < 0.5
    )  # fmt: skip
    least = _MARGIN_SHARE * sum(starts.values())
    return float(min((left for left, n in starts.items() if n >= least), default=0))


def _without_figure_labels(
    candidates: list[_Candidate], pages: list[Page], skip: set[Key], body: Body
) -> list[_Candidate]:
    """Without the labels of drawings in a document whose headings are numbered: unnumbered
    lines in a type no numbered heading has (RTKLIB's figures in Times and Arial at 10-11 pt
    among sections in Lucida Sans at 12 and 14 pt, a formula's bold symbols), set in and with
    no prose after them (:func:`_figure_label`). A centred heading in a numbered heading's type
    stays (GeoBase's ``Point Events`` over its diagram)."""
    numbered = {(round(c.size), c.bold) for c in candidates if c.number is not None}
    if not numbered:
        return candidates
    margin = _text_margin(pages, body)
    by_index = {page.index: page for page in pages}
    return [
        c
        for c in candidates
        if c.number is not None
        or (round(c.size), c.bold) in numbered
        or not _figure_label(by_index[c.key[0]], c.key[1], skip, margin, body)
    ]


def _figure_label(page: Page, i: int, skip: set[Key], margin: float, body: Body) -> bool:
    """A line set in from the text's margin by two ems or more, after which comes no line of
    prose and nothing at the margin (or nothing at all): a label in a drawing (``Phase`` /
    ``Center`` / ``Antenna``, ``Mass Center of`` / ``Satellite``), a formula's line. A centred
    heading has text under it (``Abstract`` over a paragraph, ``Contents`` over its entries at
    the margin)."""
    line = page.lines[i]
    if line.left < margin + _TITLE_INDENT * body.size:
        return False
    after = next(
        (page.lines[j] for j in range(i + 1, len(page.lines)) if (page.index, j) not in skip),
        None,
    )
    if after is None:
        return True
    at_margin = abs(after.left - margin) < body.size
    return not at_margin and words(after.text) < _PROSE_WORDS


def _turned_pages(pages: list[Page]) -> set[int]:
    """Pages whose lines are mostly set at an angle: a landscape page (RTKLIB's p179, a wide
    table turned on its side under ``Appendix F GNSS Signal Specifications``). There a line at
    the page's angle is upright to its reader, and may head the page like any other; elsewhere
    a line at an angle is a watermark or a margin's label."""
    return {
        page.index
        for page in pages
        if page.lines and sum(line.rotated for line in page.lines) * 2 > len(page.lines)
    }
