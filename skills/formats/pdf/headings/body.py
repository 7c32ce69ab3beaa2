"""The body text's type, read once per document, and a line measured against it: larger, bolder,
a line of text, a listing. Every typographic rule compares with this."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Set
from typing import TypeVar

from skills.formats.pdf.headings.model import Body, Key
from skills.formats.pdf.headings.wording import CJK, HANGUL, words
from skills.formats.pdf.lines import Line, Page

T = TypeVar("T")

LARGER = 1.12  # a heading's size over the body's, at least


_LARGER_POINTS = 0.8


_HEAVIER = 150  # font weight over the body's (LaTeX: 425 -> 704; Skia: 225 -> 380)


NOT_SMALLER = 0.9  # of the body's size: a line smaller (a running header) is no label's repeat


PROSE_WORDS = 6  # words of a line of prose (a label has fewer)


def body_type(pages: Iterable[Page]) -> Body:
    sizes: Counter[float] = Counter()
    types: Counter[tuple[int, bool]] = Counter()
    lines = [line for page in pages if not page.garbage for line in page.lines]
    for line in _sentences(_prose_lines(lines)):
        sizes[round(line.size * 2) / 2] += len(line.text)
        types[(line.weight, line.bold)] += len(line.text)
    if not sizes:
        return Body(0.0, -1, False)
    (weight, bold), _ = types.most_common(1)[0]
    return Body(sizes.most_common(1)[0][0], weight, bold)


_SENTENCE_SHARE = 0.2  # of the characters in lines of six words or more: the body is read there


def _sentences(lines: list[Line]) -> list[Line]:
    """The lines of running text (six words or more, not a table's row) when they hold a fifth
    of the characters: a table's short cells, however many, are not the text headings stand
    out from (SIL's feature tables: 6 pt notes in cells outweigh the 11 pt paragraphs)."""
    long = [line for line in lines if not line.spread and words(line.text) >= PROSE_WORDS]
    total = sum(len(line.text) for line in lines)
    if sum(len(line.text) for line in long) >= total * _SENTENCE_SHARE:
        return long
    return lines


def _prose_lines(lines: list[Line]) -> list[Line]:
    """The lines the body's type is read from: all of them, or, when the most common size is
    mostly monospaced and the document has prose too (a manual of examples whose code listings
    outweigh each page's prose: Prawn's 9.5 pt Courier under its 11 pt Helvetica), the
    proportional ones: the listings are not the text a heading stands out from."""
    sizes: Counter[float] = Counter()
    mono: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.size * 2) / 2] += len(line.text)
        code = line.mono and not CJK.search(line.text)  # (CJK faces are fixed-pitch)
        mono[round(line.size * 2) / 2] += len(line.text) if code else 0
    if not sizes:
        return lines
    size, count = sizes.most_common(1)[0]
    if _with_prose(sum(mono.values()), sum(sizes.values())) and mono[size] * 2 > count:
        return [line for line in lines if not line.mono or CJK.search(line.text)]
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


def worded(line: Line) -> bool:
    """A line of words, as a heading is: not a table's row, and with a word of three letters at
    least (a font's samples set large, ``ⵏⵏ ⵏⵏ ⵏⵏ``, ``ដ``, ``ꪋꫂ ꪓꫂ``, are not a chapter's
    heading that the first page's title must outsize).

    >>> from skills.formats.pdf.lines import Line
    >>> [worded(Line(1, text, 18, 400, False, True, 90, 72)) for text in ("ꪋꫂ ꪓꫂ", "Sample Text")]
    [False, True]
    """
    if line.spread:
        return False
    return any(
        sum(unicodedata.category(char)[0] in "LM" for char in word) >= 3
        for word in line.text.split()
    )


def line_spacing(page: Page, body: Body) -> float:
    """The page's usual distance from one line of text to the next."""
    gaps = sorted(
        below.top - above.top
        for above, below in zip(page.lines, page.lines[1:], strict=False)
        if abs(above.size - body.size) < 0.5 and 0 < below.top - above.top < 3 * body.size
    )
    return gaps[len(gaps) // 2] if gaps else body.size * 1.2


_COLUMN_SHARE = 4  # a column holds a quarter of its page's lines of text, at least
_COLUMN_LINES = 8  # lines of text a page needs before its columns are looked for


def column_gutter(page: Page, body: Body) -> float | None:
    """Where a page set in two columns of text divides them: the left edge of its right column,
    when every line of the body's size stands wholly left or wholly right of it (none runs
    across) and each side holds a quarter of them or more (a bilingual handbook's English and
    Spanish side by side, a journal's two columns); None on a page of one column, or where a
    line of text runs across the middle (an abstract across both columns).

    >>> from skills.formats.pdf.lines import Line
    >>> def line(left: float, top: float) -> Line:
    ...     return Line(0, "Words of a line of text here", 10, 400, False, True, top, left,
    ...                 right=left + 250)
    >>> body = Body(10.0, 400, False)
    >>> two = Page(0, tuple(line(x, y) for x in (40, 310) for y in range(60, 160, 12)), 0,
    ...            False, False)
    >>> column_gutter(two, body)
    310
    >>> one = Page(0, tuple(line(40, y) for y in range(60, 260, 12)), 0, False, False)
    >>> column_gutter(one, body) is None
    True
    """
    lines = [ln for ln in page.lines if abs(ln.size - body.size) < 0.5 and not ln.rotated]
    if len(lines) < _COLUMN_LINES:
        return None
    middle = (min(ln.left for ln in lines) + max(ln.right for ln in lines)) / 2
    right = [ln for ln in lines if ln.left >= middle]
    if not right:
        return None
    gutter = min(ln.left for ln in right)
    left = [ln for ln in lines if ln.left < middle]
    if any(ln.right > gutter for ln in left):
        return None
    fewest = min(len(left), len(right))
    return gutter if fewest * _COLUMN_SHARE >= len(lines) else None


def is_larger(size: float, body: Body) -> bool:
    return size >= body.size * LARGER and size - body.size >= _LARGER_POINTS


def prominent(line: Line, body: Body) -> bool:
    if not line.uniform:
        return False
    larger = line.size >= body.size * LARGER and line.size - body.size >= _LARGER_POINTS
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


def is_text(line: Line, body: Body) -> bool:
    """A line of text: of the body's size or larger, or a line of smaller prose (not a chart's
    axis labels or a diagram's short labels), or of a smaller listing."""
    return (
        line.size >= body.size * 0.85
        or (line.size >= body.size * 0.6 and words(line.text) >= PROSE_WORDS)
        or (line.size >= body.size * 0.6 and len(line.cells) > 2)  # a table's row
        or _listing(line, body)
    )


def _listing(line: Line, body: Body) -> bool:
    """A line of a code listing set smaller than the body (ReportLab's 8 pt Courier under its
    10 pt text): the text a heading such as ``Line methods`` heads, however short its lines."""
    return line.mono and not line.rotated and line.size >= body.size * 0.6


def followed_by_text(page: Page, last: int, body: Body, skip: Set[Key] = frozenset()) -> bool:
    """The line after a heading is of body size or larger (or the page ends), or a full line of
    smaller prose (the references under ``References``): a label in a figure is followed by
    the figure's smaller, short labels. Lines in ``skip`` (the page's footer) are passed over:
    a heading at a page's foot is followed by the next page's text."""
    after = last + 1
    while (page.index, after) in skip:
        after += 1
    if after >= len(page.lines):
        return True
    return is_text(page.lines[after], body)


_MONO_BODY = 0.5  # of the body's lines in a monospaced font: a typewritten document


_MARGIN_SHARE = 0.05  # of the body's lines that start at the text's margin, at least


def monospaced_body(pages: list[Page], body: Body) -> bool:
    """Most lines of the body's size are in a monospaced font (a typewritten or a plain-text
    document): there, a monospaced line is no sign of code."""
    lines = [
        line for page in pages if not page.garbage for line in page.lines
        if abs(line.size - body.size) < 0.5
    ]  # fmt: skip
    return bool(lines) and sum(line.mono for line in lines) > _MONO_BODY * len(lines)


def text_margin(pages: list[Page], body: Body) -> float:
    """The text's left margin: the leftmost place where many lines of the body's size start
    (one in twenty: a list's indent may hold more of them, a stray line fewer)."""
    starts = Counter(
        round(line.left) for page in pages if not page.garbage for line in page.lines
        if abs(line.size - body.size) < 0.5
    )  # fmt: skip
    least = _MARGIN_SHARE * sum(starts.values())
    return float(min((left for left, n in starts.items() if n >= least), default=0))


#: Letters of the Latin script: ASCII's, Latin-1's, the extensions and IPA, the additional
#: letters (``ễ``), Latin Extended-C and -D, and the ``ﬁ``-type ligatures.
_LATIN = re.compile("[A-Za-z\u00c0-\u02af\u1e00-\u1eff\u2c60-\u2c7f\ua720-\ua7ff\ufb00-\ufb06]")
_LATIN_PROSE = 0.8  # of the letters in lines of the body's size: a document written in Latin


def in_prose_script(
    items: list[T], text: Callable[[T], str], pages: list[Page], body: Body
) -> list[T]:
    """``items`` without those whose ``text`` holds letters but no Latin one, when the document's
    prose is in the Latin script: a font's samples or a quotation in its own script, set large
    (SIL's guides in English show Miao, Nastaliq and Arabic lines at 18 pt beside their text; a
    cover names its fonts in their script over ``Shimenkan Fonts``), no heading and no title.
    The prose's script is read only when such an item is there."""
    if not any(_out_of_script(text(item)) for item in items) or not _latin_prose(pages, body):
        return items
    return [item for item in items if not _out_of_script(text(item))]


def _latin_prose(pages: list[Page], body: Body) -> bool:
    """The document's prose is in the Latin script: four letters in five of the lines of the
    body's size, at least."""
    latin = other = 0
    for page in pages:
        for line in page.lines:
            if abs(line.size - body.size) <= 0.5:
                letters = sum(char.isalpha() for char in line.text)
                hits = len(_LATIN.findall(line.text))
                latin, other = latin + hits, other + letters - hits
    return latin >= (latin + other) * _LATIN_PROSE and latin > 0


def _out_of_script(text: str) -> bool:
    """The text has letters, none of them Latin (``𖼳𖽷𖾏``, ``جج۔``). Not in CJK or Hangul,
    which head sections of documents written mostly in English (a Japanese paper's title in a
    bilingual file)."""
    if _LATIN.search(text) or CJK.search(text) or HANGUL.search(text):
        return False
    return any(char.isalpha() for char in text)
