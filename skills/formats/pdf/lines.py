"""One PDF page's text as lines that know their type: size, weight and place (PDFium).

PDFium (``pypdfium2.raw``) reads a page's text in reading order, lines ended by ``\\r\\n``.
Its text leaves out the characters a font maps to control codes (an unmapped minus or times
sign in ``5 × 5``), so past the first of them a position in the text is not PDFium's character
index: such a page gets the map from one to the other, and every typographic look-up goes
through it.

For each line two characters are sampled (the first letter or digit, past a bullet, and the last
character that is not a space): their font size (the font's em size times the text matrix's
scale, since some producers write 1 pt fonts scaled by 8; for a Type 3 font, whose own matrix
PDFium leaves out, the height of the line's tallest capital or ascender: ``_drawn_size``), their
font weight and whether the font is bold by name or flag, and the first character's box for the
line's place on the page. Two samples per line keep a page's cost near its text's (about a
millisecond for a full page); a line whose samples disagree is ``uniform=False``: body text with
an emphasised word, never a heading (unless the line is in small capitals: all capitals, the
first larger; or ends with a note in brackets set smaller, ``Schedule A—Itemized Deductions (See
pages 26-29.)``, whose last word before it agrees). A line set at an angle (a watermark, a
margin's label) says so; CJK characters spaced out for show are written together (``tidy``), and
so are letters spaced out for show, measured on the page (``_letter_spaced``). A heading set in
the margin beside its paragraph's first line is a line of its own (``_margin_heads``); a line
PDFium broke at a raised or lowered letter is one (``_rejoined``: TeX's logo; a piece set back
under the last letter, a formula editor's index drawn first, keeps a space: ``_joint``); Calibri's
and Aptos' ligatures without a Unicode value are spelled out, in a font a printer renamed too
(``_unmapped_ligatures``).

A font named regular (``Times-Roman``, ``-Regu``) is regular whatever weight PDFium reports,
and when most such characters report a bold weight the document's weights are not trusted at all
(``trusted_weights``: Ghostscript's embedded fonts report 695 for every face). A weight no font
declares (Microsoft Print to PDF's faces read 3,816 and 3,900) is read from the embedded face's
OS/2 table, each face once per document (``FaceWeights``). A page with form
fields (widget annotations) says so: its bold labels are a form's.
A page whose text is unusable (a font without a Unicode map gives control characters or
symbols; an invisible OCR layer is readable but has no typography) says so, and the converter
drops it with a warning or reads no headings from it.
"""

from __future__ import annotations

import bisect
import ctypes
import itertools
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

#: Characters a font without a Unicode map yields: C0 controls, U+FFFD, the private use area.
_GARBAGE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd\ue000-\uf8ff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: TeX's OT1 ligatures ff, fi, fl, ffi, ffl at codes 11-15, read as those characters: beside a
#: letter (a bare 13 is no line break: PDFium breaks lines with 13 and 10 together).
_TEX_LIGATURE = re.compile(r"(?<=[^\W\d_])[\x0b-\x0f](?!\n)|[\x0b-\x0f](?=[^\W\d_])")
_LIGATURES = 0xFB00  # U+FB00-FB04: ﬀ ﬁ ﬂ ﬃ ﬄ
_SPELLED = str.maketrans(
    {chr(_LIGATURES + n): s for n, s in enumerate(("ff", "fi", "fl", "ffi", "ffl", "st", "st"))}
)
_PUNCTUATION = re.compile("[.,;:!?\\-–—_()\\[\\]{}'\"‘’“”/…·•*]")
_ALNUM = re.compile(r"[^\W_]")
_SPACE = re.compile(r"\s")
_LINE = re.compile(r"[^\r\n]+")
_SHARED_BAND = 0.8  # of a line's size: the next line starting higher shares its band
#: TeX's spacing accents (``Gr¨obner``) and the combining marks they stand for.
_ACCENTS = {"¨": "\u0308", "´": "\u0301", "ˆ": "\u0302", "˜": "\u0303", "˚": "\u030a",
            "¸": "\u0327", "ˇ": "\u030c", "˘": "\u0306", "˙": "\u0307", "˝": "\u030b"}  # fmt: skip
#: Ideographs, kana and full-width forms: a space between two of them is only spacing.
_CJK_CHARS = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK = re.compile(f"[{_CJK_CHARS}]")
_SPACED_CJK = re.compile(f"(?:[{_CJK_CHARS}] ){{2,}}[{_CJK_CHARS}]")
_SPACING_ACCENT = re.compile(f"([{''.join(_ACCENTS)}])([A-Za-z\u0131])")
#: TeX's grave accent is the backquote (OT1 puts it at code 0x60): read as one only inside a
#: word, before a vowel (``Premi`ere``), or on French's word ``à`` standing alone (```a tous``),
#: where no code's backquote stands (```a`` quoted opens a word and ends with another).
_GRAVE_IN_WORD = re.compile(r"(?<=[A-Za-z0-9-])`([aeiouAEIOU])|(?<!\S)`([aA])(?=[\s,.;:!?)]|$)")
#: A bold font by its name: the word, a style suffix (``AdvOTb83ee1dd.B``, ``Times-Bd``,
#: ``NimbusRomNo9L-Medi``) or TeX's bold faces (``CMBX10``, EC's ``SFBX1200``, ``ptmb8r``).
_BOLD_NAME = re.compile(
    r"bold|black|heavy|semibold|demi|[-,.]medi(?:ital)?$|[-,.](?:b|bd|bi|bdit)$|^(?:\w{6}\+)?(?:cmbx|sfbx|ptmb|phvb)",
    re.IGNORECASE,
)
#: A regular font by its name: its style word at the end (``Times-Roman``, ``-Regu``, ``Book``).
_REGULAR_NAME = re.compile(
    r"(?:roman|regular|regu|book|light|italic|ital|oblique)(?:mt|ps)?$", re.IGNORECASE
)
#: A standard face's bare name is its regular face (``Helvetica``, ``Arial``, ``ArialMT``): the
#: bold one says so (``Helvetica-Bold``, ``Arial-BoldMT``).
_PLAIN_NAME = re.compile(
    r"^(?:\w{6}\+)?(?:helvetica|arial(?:mt)?|courier(?:new(?:psmt)?)?|timesnewromanpsmt)$",
    re.IGNORECASE,
)
#: TeX's Computer Modern faces of regular weight, by Knuth's names: roman, text italic, slanted,
#: typewriter, sans serif, small capitals, math italic (``CMR10``, ``CMTI12``, ``CMSS10``); the bold
#: ones carry ``b`` (``CMBX10``, ``CMSSBX10``, ``CMMIB10``) and do not match.
_TEX_REGULAR_NAME = re.compile(
    r"^(?:\w{6}\+)?cm(?:r|ti|sl|tt|itt|sltt|ss|ssi|csc|mi|u)\d+$", re.IGNORECASE
)
_FIXED_PITCH = 1  # the font descriptor's FixedPitch flag
#: A small-capitals face by its name: LMRomanCaps10-Regular, CMCSC10, MinionPro-RegularSC.
_CAPS_NAME = re.compile(r"Caps|SmallCap|^(?:[A-Z]{6}\+)?CMCSC|(?<=[a-z])SC(?:$|[-+,])")
_MONO_NAME = re.compile(
    r"courier|mono|consol|menlo|typewriter|^(?:\w{6}\+)?(?:cmtt|sftt|pcr)", re.I
)
_BOLD_WEIGHT = 600
#: The weights a font descriptor may declare (PDF 32000-1, table 122): a Windows printer driver
#: writes none, and PDFium's weight from its stem width runs to thousands (3,816 and 3,900).
_DECLARED_WEIGHTS = range(100, 901)
_LEAST_SIZE = 1.0  # points: a size under it is not one PDFium could read
_DRAWN_SAMPLE = 40  # characters of a line whose glyphs are measured
_CAP_HEIGHT = 0.7  # of the em: capitals', digits' and ascenders' height
_ASCENDING = frozenset("bdfhkl")
_FORCE_BOLD = 1 << 18  # the font descriptor's ForceBold flag (PDF 32000-1, table 123)
_STROKED = (2, 6)  # FPDF_TEXTRENDERMODE_FILL_STROKE, _FILL_STROKE_CLIP: a thickened face
_CELL_GAP = 1.0  # ems between two runs of text on a line: two cells
_EM_PER_CHAR = 0.6  # the widest average character (monospace): a line wider has gaps
_GAP_ROOM = 1.5  # ems of gaps a line may have before its runs are looked at
#: A line's closing stop, which Word's users leave in the body's weight after a bold heading.
_STOP = re.compile(r"(?<=[^\W_])[.:]$")
_NOTE_MARK = re.compile(r"(?<=[^\W\d_)\]])[\d*†‡]{1,2}$")  # syllables1, Results*
_LEADING_NUMBER = re.compile(r"[\dA-Z][\d.]*[.)]?\s")
_WORD = re.compile(r"\S+")
#: A lower-case letter right before a capital: two words PDFium may have joined (``aDocument``).
_CASE_CHANGE = re.compile(r"[^\W\d_A-Z\u00c0-\u00de](?=[A-Z\u00c0-\u00de])")
_WORD_GAP = 0.1  # ems between two characters' advances: a space PDFium did not write
_INVISIBLE = 3  # text render mode 3: neither filled nor stroked (an OCR layer over a scan)
_MAX_OBJECTS = 5_000  # page objects looked at for a table's rules
_RULE_WIDTH = 2.5  # points: a path no thicker is a rule
_RULE_LENGTH = 15.0  # points: and no shorter
_UNDERLINED_WORDS = 10  # a line this long at most may be an underlined heading
_UNDERLINE_DEPTH = 0.4  # of the line's size: how far under its baseline its underline is drawn


#: A line's cell: (left, right, words, rise): ``rise`` how far its baseline stands above the
#: line's (a cell of a table row beside a cell centred over two lines, PDFium's one line).
Cell = tuple[float, float, str, float]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a page: its text (soft hyphens still U+FFFE) and its type."""

    page: int  # from 0
    text: str
    size: float  # points, as printed
    weight: int  # 400 regular, 700 bold; -1 unknown (PDFium's FPDFText_GetFontWeight)
    bold: bool  # weight >= 600, or a bold font by name or flag
    uniform: bool  # every sample has this size (to 0.5 pt) and boldness
    top: float  # points from the page's top edge to the first character's top
    left: float  # points from the page's left edge
    spread: bool = False  # words set apart by wide gaps (past a section number): table cells
    cells: tuple[Cell, ...] = ()  # when two or more
    rotated: bool = False  # set at an angle: a watermark, a margin's or an axis's label
    mono: bool = False  # in a monospaced font: code, a terminal's output
    named_bold: bool = False  # bold by the font's name or ForceBold flag, whatever its weight
    named_regular: bool = False  # the font's name says regular (Times-Roman, -Regu)
    right: float = 0.0  # points from the page's left edge to the last character's right
    base: float = 0.0  # points from the page's top edge to the first character's baseline
    note: int = 0  # characters at the end that are a footnote's mark set smaller (``syllables¹``)
    code_end: bool = False  # not uniform only by a monospaced run of its size at its end
    small_caps: bool = False  # in a small-capitals face by the font's name (LMRomanCaps10)
    ink: float = 0.0  # its face's ink per glyph (``FaceWeights.ink``) when no weight is known; 0

    @property
    def words(self) -> str:
        """The line's text without a footnote's mark at its end: what a heading reads."""
        return self.text[: len(self.text) - self.note] if self.note else self.text


@dataclass(frozen=True, slots=True)
class Page:
    """A page's lines, and whether its text can be read at all."""

    index: int
    lines: tuple[Line, ...]
    chars: int
    garbage: bool  # mostly characters of fonts without a Unicode map
    invisible: bool  # an OCR layer: its sizes are a recogniser's guesses
    form: bool = False  # the page has form fields (widgets): its bold labels are a form's
    rules: tuple[tuple[float, float, float], ...] = ()  # horizontal rules: (y from top, x0, x1)
    underlined: tuple[int, ...] = ()  # lines (their index) with a rule drawn under the whole line
    shape: float = 0.0  # width over height (a slide's 4:3 or 16:9); 0 if unknown


def read_page(page: Any, index: int, faces: FaceWeights | None = None) -> Page:
    """The lines of ``page`` (a ``pypdfium2.PdfPage``) with their types; ``faces``, the weights
    of its document's embedded faces read so far (else its own)."""
    import pypdfium2.raw as raw

    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range() if count else ""
        if not text.strip():
            return Page(index, (), 0, False, False)
        height = page.get_height()
        handle = textpage.raw
        at = char_indices(raw, handle, text, count)
        shown = visible(text)
        spans = [(m.start(), m.end()) for m in _LINE.finditer(shown) if m.group().strip()]
        faces = faces or FaceWeights()
        faces.next_page()
        lines = [
            _line(raw, handle, shown, at, start, end, index, height, faces) for start, end in spans
        ]
        spans, lines = _margin_heads(raw, handle, shown, at, spans, lines, (index, height), faces)
        _beside_cells(raw, handle, shown, at, spans, lines)
        lines = _words_rejoined(lines, _producer_breaks(shown, spans))
        lines = _in_reading_order(_drawn_once(_rejoined(lines)))
        first = next(i for i, char in enumerate(text) if not char.isspace())
        invisible = _render_mode(raw, handle, at[first]) == _INVISIBLE
        tabular = _tabular(lines)
        drawn = _rules(raw, page.raw, height) if tabular or any(map(_short, lines)) else ()
    finally:
        textpage.close()
    return Page(
        index, tuple(lines), len(text), unusable(text), invisible, _has_fields(raw, page),
        drawn if tabular else (), _underlined(lines, drawn),
        round(page.get_width() / height, 3) if height else 0.0,
    )  # fmt: skip


def _margin_heads(
    raw: Any, handle: Any, text: str, at: Sequence[int], spans: list[tuple[int, int]],
    lines: list[Line], page: tuple[int, float], faces: FaceWeights,
) -> tuple[list[tuple[int, int]], list[Line]]:  # fmt: skip
    """The lines with a heading set in the left margin beside its paragraph's first line read
    as two lines, the heading first: ConTeXt sets its subsections so, and PDFium, finding the
    two on one baseline, read ``Overview LATEX users can set the options...`` as one line of
    mixed sizes. A line is cut where it reaches the page's text margin (the left edge most
    lines start at) when it starts over an em left of it in a larger type than it ends in, on
    a page where a third of the lines at most start so far left (more are a column of their
    own: a table's, or prose beside indented code). ``spans`` and ``lines`` are changed in
    place, each cut line's span and line made two."""
    if all(line.uniform for line in lines):
        return spans, lines
    margin = _text_margin(lines)
    if sum(line.left <= margin - line.size for line in lines) * 3 > len(lines):
        return spans, lines
    found: list[tuple[int, int, int]] = []  # (line, the head's end, the body's start)
    for n, line in enumerate(lines):
        if line.uniform or line.left > margin - line.size:
            continue
        cut = _head_end(raw, handle, text, at, *spans[n], margin, faces)
        if cut is not None:
            found.append((n, *cut))
    for n, head_end, body_start in reversed(found):
        start, end = spans[n]
        parts = [(start, head_end), (body_start, end)]
        spans[n : n + 1] = parts
        lines[n : n + 1] = [_line(raw, handle, text, at, a, b, *page, faces) for a, b in parts]
    return spans, lines


def _text_margin(lines: list[Line]) -> float:
    """The left edge most of the page's lines start at (to a point), the text's margin."""
    counts: dict[int, int] = {}
    for line in lines:
        counts[round(line.left)] = counts.get(round(line.left), 0) + 1
    best = max(counts, key=lambda left: counts[left] + counts.get(left + 1, 0), default=0)
    return float(best)


_PARAGRAPH_START = 20  # characters of a paragraph's first line beside a margin heading, at least


def _head_end(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, margin: float,
    faces: FaceWeights,
) -> tuple[int, int] | None:  # fmt: skip
    """Where a line's margin heading ends and its paragraph starts: the first word that starts
    at the text's margin, right after a word set larger (a table's row whose label is larger
    than its cells has cells in the body's size before the one at that margin), and opens a
    paragraph's line (20 characters at least: not a formula's subscript); None if there is
    none."""
    words = list(_WORD.finditer(text, start, end))
    for before, word in itertools.pairwise(words):
        box = _advance(raw, handle, at[word.start()])
        if box is None or box[0] < margin - 2:
            continue
        if box[0] >= margin + 2 or end - word.start() < _PARAGRAPH_START:
            return None
        first = _style(raw, handle, at[word.start()], faces).size
        head = _style(raw, handle, at[before.end() - 1], faces).size
        return (before.end(), word.start()) if head > first + 0.5 else None
    return None


_TOUCHING = 0.15  # ems between one line's end and the next's start: one line PDFium broke
_PIECE = 4  # characters: a piece this short may be set smaller (LATEX's raised ``A``)


def _rejoined(lines: list[Line]) -> list[Line]:
    """The lines with a line PDFium broke at a raised or lowered letter read as one: TeX's logo
    lowers its ``E`` and LATEX's raises a small ``A``, and at a line's start PDFium began a new
    line there (``TE`` / ``X Live``, ``L`` / ``ATE`` / ``X``): each piece a heading, or a
    line of text of its own."""
    kept: list[Line] = []
    texts: list[list[str]] = []  # each kept line's pieces, joined once (a line of many pieces)
    length = 0  # characters of the last kept line's pieces
    for line in lines:
        if kept and _goes_on_at(kept[-1], line, length):
            before = kept[-1]
            uniform = before.uniform and line.uniform and abs(before.size - line.size) < 0.5
            kept[-1] = replace(
                before, right=max(before.right, line.right), cells=(),
                uniform=uniform or len(line.text) <= _PIECE or length <= _PIECE,
            )  # fmt: skip
            piece = _joint(before, line) + line.text
            texts[-1].append(piece)
            length += len(piece)
        else:
            kept.append(line)
            texts.append([line.text])
            length = len(line.text)
    return [
        replace(line, text="".join(pieces)) if len(pieces) > 1 else line
        for line, pieces in zip(kept, texts, strict=True)
    ]


def _goes_on_at(before: Line, line: Line, length: int) -> bool:
    """``line`` goes on the line ``before`` it (``length`` characters so far): it starts where
    that one ends (to a sixth of an em, or kerned back under its last letter), on its baseline
    (to a third of its size), in its size or as a piece of four characters at most (LATEX's
    raised ``A`` is set smaller)."""
    size = before.size
    if before.rotated or line.rotated or before.cells or line.cells or not before.base:
        return False
    if not before.left < line.left <= before.right + _TOUCHING * size:
        return False  # (a kern may set the next letter back under the last: LATEX's ``A``)
    if abs(line.base - before.base) > size / 3:
        return False
    return abs(line.size - size) < 0.5 or min(length, len(line.text)) <= _PIECE


_BETWEEN_WORDS = 0.8  # ems between two words of one line, at most (a column's gutter is wider)
_LEAST_WORD_SPACE = 0.2  # ems: closer, two pieces of one word


def _words_rejoined(lines: list[Line], breaks: list[bool]) -> list[Line]:
    """The lines with a line broken between two words by the producer's own carriage return
    read as one: Word for Mac printed by macOS's Quartz writes a tab, a carriage return, a
    space and a no-break space between the words of a line (``Für\\t\\r \\xa0eine``), and PDFium
    ends a line at each: every word a line, a heading found in ``Lektion``. A piece after such
    a return (``breaks``: a carriage return with no line feed, which PDFium writes at its own
    line ends) goes on the line before it when it starts a word space after that line's end (a
    fifth of an em to four fifths), on its baseline (to a sixth of its size), in its size."""
    kept: list[Line] = []
    for line, producers in zip(lines, breaks, strict=True):
        before = kept[-1] if kept else None
        if producers and before is not None and _next_word(before, line):
            same = abs(before.size - line.size) < 0.5 and before.bold == line.bold
            kept[-1] = replace(
                before, text=f"{before.text} {line.text}", right=line.right,
                uniform=before.uniform and line.uniform and same,
            )  # fmt: skip
        else:
            kept.append(line)
    return kept


def _producer_breaks(text: str, spans: list[tuple[int, int]]) -> list[bool]:
    """For each line, whether the text before it breaks with a carriage return alone: the
    producer's character, not PDFium's line end (``\\r\\n``)."""
    gaps = [text[spans[n - 1][1] : start] if n else "" for n, (start, _) in enumerate(spans)]
    return ["\r" in gap and "\n" not in gap for gap in gaps]


def _next_word(before: Line, line: Line) -> bool:
    size = before.size
    if before.rotated or line.rotated or before.cells or line.cells or not before.base:
        return False
    if abs(line.size - size) >= 0.5 or abs(line.base - before.base) > size / 6:
        return False
    gap = line.left - before.right
    return _LEAST_WORD_SPACE * size <= gap <= _BETWEEN_WORDS * size


#: Ems a piece may start back under the line's last letter and still follow it: a kern sets a
#: letter back a third of an em at most (LATEX's ``A``, 0.36 em from the ``L``'s advance); an
#: index drawn before its letter starts a letter's width back (0.59-0.63 em in rtklib's manual).
_SET_BACK = 0.45


def _joint(before: Line, line: Line) -> str:
    """What goes between a line and the piece that goes on it: nothing, or a space when the
    piece starts well back under the line's last letter and is no combining mark. A formula
    editor draws an index before its letter (MathType's ``t₀``: ``0`` then ``t`` over it), so
    the page's order is not the reading order, and joined as drawn the two read as one word of
    neither (``time 0t``, ``includes st``): apart, each stays a word (``time 0 t``). A combining
    mark set back over its letter (a Khmer subscript, an Ethiopic or Lepcha vowel sign) follows
    it in the text as on the page."""
    if before.right - line.left <= _SET_BACK * before.size:
        return ""
    return "" if unicodedata.category(line.text[0]).startswith("M") else " "


def _drawn_once(lines: list[Line]) -> list[Line]:
    """The lines without those drawn again over themselves: the same words in the same type at
    the same place (an InDesign brochure whose every text frame is drawn twice, langchain's
    duplicate-chars.pdf). Read twice, each heading was a line seen again, and the page's text
    was written twice."""
    seen: set[tuple[str, float, float, float]] = set()
    kept: list[Line] = []
    for line in lines:
        key = (line.text, round(line.size, 1), round(line.top), round(line.left))
        if key not in seen:
            seen.add(key)
            kept.append(line)
    return kept


def _in_reading_order(lines: list[Line]) -> list[Line]:
    """The lines of a page in reading order where the producer's drawing order plainly
    contradicts their places (``_bold_drawn_last``, ``_headings_drawn_last_in_place``); else
    as drawn."""
    ordered = _bold_drawn_last(lines)
    return ordered if ordered is not lines else _headings_drawn_last_in_place(lines)


def _bold_drawn_last(lines: list[Line]) -> list[Line]:
    """The lines of a page top to bottom when its producer drew the bold ones last: every
    regular line first, then every bold one, top to bottom, bold lines falling between regular
    ones (a page printed from a browser on macOS by Quartz draws each font's runs in turn: every
    heading came after the page's text and headed nothing). Any other order is the producer's
    reading order and stays, and so does a page where two lines share a band (columns, cells)
    or one is set at an angle."""
    split = next((n for n, line in enumerate(lines) if line.bold), len(lines))
    regular, bold = lines[:split], lines[split:]
    if not regular or not bold or not all(line.bold for line in bold) or not _top_down(bold):
        return lines
    if any(line.rotated for line in lines):
        return lines
    highest, lowest = min(line.top for line in regular), max(line.top for line in regular)
    if not any(highest < line.top < lowest for line in bold):
        return lines
    ordered = sorted(lines, key=lambda line: line.top)
    for above, below in itertools.pairwise(ordered):
        if below.top < above.top + above.size * _SHARED_BAND:
            return lines
    return ordered


def _headings_drawn_last_in_place(lines: list[Line]) -> list[Line]:
    """The lines of a page with its headings in their places when the producer drew them after
    its text: the page's lines top-down, then a run of lines, top-down itself, that goes back
    up, each bold or larger than the page's text, at least one of them between two lines of
    text and each in a gap over or under the lines around it. calibre's Qt WebKit output draws
    each page's headings after its text (round 24; a bold table header or sentence in the text,
    so ``_bold_drawn_last`` does not apply): every heading came after its page's text and
    headed nothing. The late lines are put in their places, the others keep the producer's
    order. Any other order stays, and so does a page with a line at an angle, a late line that
    shares a band with a line of text (a second column, a table's cell) or stands beside it
    (3B2's running heads in the margin, drawn last), a late run set like the text (a body drawn
    after its page's header and footer), or one that stands only above or below the text (a
    running header and footer drawn last)."""
    split = next((n for n in range(1, len(lines)) if lines[n].top < lines[n - 1].top), len(lines))
    first, late = lines[:split], lines[split:]
    if not late or not _top_down(late) or any(line.rotated for line in lines):
        return lines
    text = text_size(lines)
    if not all(line.bold or line.size > text + 0.5 for line in late):
        return lines
    tops = [line.top for line in first]
    places = [bisect.bisect_right(tops, line.top) for line in late]
    if not any(0 < place < len(first) for place in places):
        return lines  # nothing between the text's lines: a running header and footer drawn last
    if not all(_in_gap(first, place, line) for place, line in zip(places, late, strict=True)):
        return lines
    ordered: list[Line] = []
    start = 0
    for place, line in zip(places, late, strict=True):
        ordered += first[start:place]
        ordered.append(line)
        start = place
    return ordered + first[start:]


def text_size(lines: Iterable[Line]) -> float:
    """The size (to half a point) most of ``lines``' characters are set in: the text's; 0.0
    for no lines."""
    counts: dict[float, int] = {}
    for line in lines:
        size = round(line.size * 2) / 2
        counts[size] = counts.get(size, 0) + len(line.text)
    return max(counts, key=counts.__getitem__, default=0.0)


def _in_gap(lines: Sequence[Line], place: int, line: Line) -> bool:
    """``line``, put before ``lines[place]`` (ordered top-down), shares a band with neither the
    line above it nor the one below it, and stands over or under them, not beside them (a
    caption beside a picture, a second column's line)."""
    above = lines[place - 1] if place else None
    below = lines[place] if place < len(lines) else None
    if above is not None and line.top < above.top + above.size * _SHARED_BAND:
        return False
    if below is not None and below.top < line.top + line.size * _SHARED_BAND:
        return False
    return all(
        line.left < other.right and other.left < line.right
        for other in (above, below) if other is not None
    )  # fmt: skip


def _top_down(lines: list[Line]) -> bool:
    return all(above.top < below.top for above, below in itertools.pairwise(lines))


def visible(text: str) -> str:
    """``text`` with control characters as spaces, place for place: a font whose Unicode map
    sends glyphs to ``U+0004`` (Microsoft's Print To PDF over Arabic samples) would otherwise
    put them in the Markdown, and the chunker refuses a text with control characters whole.
    (``unusable`` still counts them on the page's own text.) But codes 11 to 15 beside a letter
    are TeX's ligatures in a font with no Unicode map (the OT1 encoding: ff, fi, fl, ffi, ffl;
    PDFium reads the code as the character): they become the ligature characters, which
    ``tidy`` spells out (``Speci\\x0ccation``, not ``Speci cation``).

    >>> visible("ab\\x04cd, de\\x1ffg"), visible("Speci\\x0ccation, \\x0eeld \\x0c")
    ('ab cd, de fg', 'Speciﬁcation, ﬃeld  ')
    """
    text = _TEX_LIGATURE.sub(lambda m: chr(_LIGATURES + ord(m.group()) - 0x0B), text)
    return _CONTROL.sub(" ", text)


def _has_fields(raw: Any, page: Any) -> bool:
    """Whether the page holds a form field's widget (an annotation a user fills in)."""
    for n in range(raw.FPDFPage_GetAnnotCount(page.raw)):
        annot = raw.FPDFPage_GetAnnot(page.raw, n)
        if not annot:
            continue
        try:
            if raw.FPDFAnnot_GetSubtype(annot) == raw.FPDF_ANNOT_WIDGET:
                return True
        finally:
            raw.FPDFPage_CloseAnnot(annot)
    return False


def _tabular(lines: list[Line]) -> bool:
    """A page that may hold a table: a line of cells, or one that climbs back up the page."""
    return any(line.cells for line in lines) or any(
        b.base < a.base - b.size / 2 for a, b in itertools.pairwise(lines)
    )


def _short(line: Line) -> bool:
    """A line that could be an underlined heading: a few words, no cells, no sentence's end."""
    text = line.text.rstrip()
    return not line.cells and len(text.split()) <= _UNDERLINED_WORDS and not text.endswith(".")


def _underlined(lines: list[Line], rules: Sequence[tuple[float, float, float]]) -> tuple[int, ...]:
    """The short lines with a rule drawn right under their baseline from their first character
    to their last, and not much further: Word's underlined headings (``Timing Problems``,
    ``Unused Paths`` in the body's type). A rule running on past the line's end is a table's or
    a page's, not the line's underline. Each line looks only at the rules in its band under the
    baseline, found by bisection: each looked at all the page's rules, and a page of 2,400
    short lines and 2,400 rules under none of them spent 0.29 s here, four times 1,200's.

    >>> head = Line(0, "Timing Problems", 10.0, 400, False, True, 100, 72, right=140, base=108)
    >>> _underlined([head], [(110.0, 72.0, 139.0), (500.0, 0.0, 600.0)])
    (0,)
    """
    rules = sorted(rules)
    heights = [y for y, _, _ in rules]
    found: list[int] = []
    for i, line in enumerate(lines):
        if not _short(line) or not line.base:
            continue
        band = slice(
            bisect.bisect_right(heights, line.base),
            bisect.bisect_right(heights, line.base + line.size * _UNDERLINE_DEPTH),
        )
        for _, x0, x1 in rules[band]:
            if x0 <= line.left + 2 and line.right - 2 <= x1 <= line.right + line.size:
                found.append(i)
                break
    return tuple(found)


def _rules(raw: Any, page: Any, height: float) -> tuple[tuple[float, float, float], ...]:
    """The page's horizontal rules, as a ruled table's rows are drawn apart: thin wide paths
    (at most 5,000 objects looked at), a row's cell borders on one line joined into one rule."""
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    box = (ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top))
    found: list[tuple[float, float, float]] = []
    for n in range(min(raw.FPDFPage_CountObjects(page), _MAX_OBJECTS)):
        obj = raw.FPDFPage_GetObject(page, n)
        if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
            continue
        thin = raw.FPDFPageObj_GetBounds(obj, *box) and top.value - bottom.value <= _RULE_WIDTH
        if thin and right.value - left.value >= _RULE_LENGTH:
            y = round(height - (top.value + bottom.value) / 2, 1)
            found.append((y, left.value, right.value))
    joined: list[list[float]] = []
    for y, x0, x1 in sorted(found):
        if joined and abs(joined[-1][0] - y) <= 1 and x0 <= joined[-1][2] + 3:
            joined[-1][2] = max(joined[-1][2], x1)
        else:
            joined.append([y, x0, x1])
    return tuple((y, x0, x1) for y, x0, x1 in joined)


def _beside_cells(
    raw: Any,
    handle: Any,
    text: str,
    at: Sequence[int],
    spans: list[tuple[int, int]],
    lines: list[Line],
) -> None:
    """The lines next to a line of cells, looked at in full: a table's header or row whose
    words are narrow (``Sepal.Length Sepal.Width``) passes for prose by its width alone. The
    search goes on past a line that starts in a later column (a wrapped cell's next line), and
    starts too beside a line that goes back up the page (a table whose producer wrote its rows
    cell by cell: LaTeX's ``p{}`` columns), so each row of a table with wrapped cells is seen.

    Each entry of the search is (line, the right edge of the first cell of the row above it,
    the left edge of its second): a line between the two is in a later column, a line that
    ends before the second is the first cell's next line."""
    todo = [(i, line.cells[0][1], line.cells[1][0]) for i, line in enumerate(lines) if line.cells]
    looked = {i for i, _, _ in todo}  # lines looked at in full
    reached = {i: right for i, right, _ in todo}  # line -> the smallest first cell's right edge
    for i in range(1, len(lines)):
        if lines[i].base and lines[i].base < lines[i - 1].base - lines[i].size / 2:
            todo.append((i, _beside(lines, i), -math.inf))  # back up: cell by cell
    while todo:
        i, first_right, second_left = todo.pop()
        first_left = lines[i].left - lines[i].size
        for j in (i - 1, i, i + 1):
            if not 0 <= j < len(lines) or (j in looked and reached.get(j, math.inf) <= first_right):
                continue
            if j not in looked:
                looked.add(j)
                start, end = _trimmed(text, *spans[j])
                cells = _cells(raw, handle, text, at, start, end, lines[j].size, force=True)
                if cells:
                    lines[j] = replace(lines[j], cells=cells, spread=_spread(cells))
                    reached[j] = cells[0][1]
                    todo.append((j, cells[0][1], cells[1][0]))
                    continue
            line = lines[j]
            first_cell = first_left <= line.left <= first_right and line.right < second_left - 1
            if not line.cells and (line.left > first_right + 1 or first_cell):
                reached[j] = first_right  # a wrapped cell's next line: the row goes on
                todo.append((j, first_right, second_left))


def _beside(lines: list[Line], i: int) -> float:
    """The right edge of the first cell of the line that line ``i`` (which went back up the
    page) stands beside, on its baseline and to its left, among the eight lines before it."""
    for k in range(i - 1, max(i - 9, -1), -1):
        other = lines[k]
        if abs(other.base - lines[i].base) <= lines[i].size / 3 and other.right < lines[i].left:
            return other.cells[0][1] if other.cells else other.right
    return math.inf


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while text[start].isspace():
        start += 1
    while text[end - 1].isspace():
        end -= 1
    return start, end


def _spread(cells: tuple[Cell, ...]) -> bool:
    """Cells that make a line a table's row (not a section number set apart from its title)."""
    return len(cells) > 2 or (len(cells) == 2 and not _LEADING_NUMBER.fullmatch(cells[0][2] + " "))


def unusable(text: str) -> bool:
    """Text a reader cannot use: a tenth of its characters are those of fonts without a
    Unicode map, or under a third of those that are not punctuation are letters or digits
    (symbols where words should be).

    >>> unusable("\\x19\\x12\\x03 \\x04"), unusable("+%=7<>"), unusable("Index . . . . . 41")
    (True, True, False)
    """
    shown = len(text) - len(_SPACE.findall(text))
    if not shown:
        return False
    if len(_GARBAGE.findall(text)) * 10 >= shown:
        return True
    words = len(_ALNUM.findall(text))
    symbols = shown - words - len(_PUNCTUATION.findall(text))
    return words + symbols >= 5 and words * 3 < words + symbols


def char_indices(raw: Any, handle: Any, text: str, count: int) -> Sequence[int]:
    """PDFium's character index of each position in ``text``: the position itself, unless the
    text is shorter than the page's characters (PDFium left some out of it, or counted a
    character outside the Basic Multilingual Plane twice: Word's math italic ``𝑥`` is two
    UTF-16 units there and one character here); then the two are walked side by side,
    skipping the characters the text does not hold. The walk looks at no more than
    ``_MAX_PROBES`` of PDFium's characters per character of the text, so a page PDFium cannot
    align stays linear (each unexplained character used to cost a look at all the spare ones:
    a page of 4,000 math characters took a second, one of 16,000 a quarter of a minute)."""
    spare = count - len(text)
    if spare <= 0:
        return range(len(text))
    unicode = raw.FPDFText_GetUnicode
    probes = _MAX_PROBES * len(text)
    found: list[int] = []
    index = 0
    for char in text:
        skip, probed = _skipped(unicode, handle, index, char, min(spare, max(probes, 0)))
        # (a character no skip explains keeps its place)
        probes -= probed
        spare -= skip
        index += skip
        found.append(index)
        index += 1
        if char > "\uffff" and spare > 0 and 0xDC00 <= unicode(handle, index) <= 0xDFFF:
            spare -= 1  # its low surrogate, which PDFium counts as a character of its own
            index += 1
    return found


#: PDFium's characters looked at, at most, per character of a page's text (``char_indices``)
_MAX_PROBES = 8


def _skipped(unicode: Any, handle: Any, index: int, char: str, window: int) -> tuple[int, int]:
    """How many of PDFium's characters from ``index`` come before ``char`` (0 when none of the
    next ``window`` is it), and how many were looked at."""
    for n in range(window + 1):
        if _same(unicode(handle, index + n), char):
            return n, n + 1
    return 0, window + 1


def _same(code: int, char: str) -> bool:
    if char > "\uffff":  # PDFium gives the high surrogate first
        return code == 0xD800 + ((ord(char) - 0x10000) >> 10)
    return chr(code) == char or (code == 2 and char == "\ufffe")  # PDFium's soft hyphen


def _line(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, page: int,
    height: float, faces: FaceWeights,
) -> Line:  # fmt: skip
    start, end = _trimmed(text, start, end)
    words = _ALNUM.search(text, start, end)  # a bullet's font (``•``, Wingdings' ``!``) aside
    first = at[words.start() if words else start]
    style = _style(raw, handle, first, faces)
    past = _ALNUM.search(text, _past_list_label(text, start, end), end)
    if past is not None and words is not None and past.start() > words.start():
        own = _style(raw, handle, at[past.start()], faces)
        if own.same_weight(style):  # a label apart only in its size: the text's type is read
            first, style = at[past.start()], own
    size = style.size
    if size < _LEAST_SIZE:  # a Type 3 font (TeX's bitmaps): PDFium ignores its FontMatrix
        size = _drawn_size(raw, handle, text, at, start, end) or size
    uniform, marked, code_end = True, 0, False
    if end - 1 > start:
        last = _style(raw, handle, at[end - 1], faces)
        last_size = size if last.size < _LEAST_SIZE else last.size  # (read only where drawn)
        uniform = abs(last_size - size) < 0.5 and last.same_weight(style)
        if (
            not uniform
            and last.same_weight(style)
            and _small_caps(text[start:end], size, last_size)
        ):
            uniform = True  # INTRODUCTION: a capital 13.9 pt, then small capitals of 10
        stop = _STOP.search(text, start, end)
        if not uniform and stop is not None and stop.start() > start:
            # 2. COMPENSATION + a regular '.'
            word = _style(raw, handle, at[stop.start() - 1], faces)
            uniform = abs(word.size - size) < 0.5 and word.same_weight(style)
        code_end = not uniform and _ends_in_code(style, last, size, last_size)
        before = _before_note(text, start, end)
        if not uniform and before is not None:
            # Schedule A—Itemized Deductions (See ...)
            note = _style(raw, handle, at[before], faces)
            uniform = abs(note.size - size) < 0.5 and note.same_weight(style)
        mark = _NOTE_MARK.search(text, start, end)
        if not uniform and mark is not None and mark.start() > start:
            word = _style(raw, handle, at[mark.start() - 1], faces)  # syllables¹: a footnote's mark
            if abs(word.size - size) < 0.5 and word.same_weight(style) and last.size < size:
                uniform, marked = True, mark.end() - mark.start()
    left, top = _corner(raw, handle, at[start], height)
    ends = _box(raw, handle, at[start]), _box(raw, handle, at[end - 1])
    cells = _cells(raw, handle, text, at, start, end, size, ends=ends)
    right, base = _extent(raw, handle, at[start], ends[1], height)
    spaced = _spaced_words(raw, handle, text, at, start, end, size)
    shown = spaced_number(tidy(_letter_spaced(raw, handle, text, at, start, end, size, spaced)))
    shown = _unmapped_ligatures(raw, handle, text, at, start, end, shown)
    shown = _one_hyphen(_spaced_punctuation(raw, handle, text, at, start, end, size, shown))
    return Line(
        page, shown, size, style.weight, style.bold, uniform, top, left, _spread(cells), cells,
        _rotated(raw, handle, first), style.mono, style.named_bold, style.named_regular,
        right, base, marked, code_end, style.small_caps, style.ink,
    )  # fmt: skip


#: A list's label opening a line: a section number, a Roman numeral or a letter, its dot, a gap.
_LIST_LABEL = re.compile(r"(?:\d{1,3}(?:\.\d{1,3})*\.?|[IVXLC]{1,6}\.|[A-Za-z]\.)[ \t]+(?=\w)")


def _past_list_label(text: str, start: int, end: int) -> int:
    """Where the line's words start past a list's label (``4.``, ``1.3.``, ``II.``), else
    ``start``: Google Docs and LibreOffice format a numbered heading's label apart from its text
    (Google Docs' ``4.`` at 16 pt before ``Normalización`` at 18.7; LibreOffice's ``1.`` at
    14 pt before ``Connexion au NUC`` at 13), so the line's type is its text's, read there when
    the two differ in size alone: read at the label, the line was two types and no heading. A
    label of another weight stays the line's first type (a list's plain ``1.`` before a bold
    italic run-in term, ``Nonprofit library, archive and educational institution exception``).

    >>> [_past_list_label(t, 0, len(t)) for t in ("4. Normalización", "II. Prérequis", "2025 a")]
    [3, 4, 0]
    """
    label = _LIST_LABEL.match(text, start, end)
    return label.end() if label else start


_HYPHEN_TWICE = re.compile("[-\u2010]\u00ad[-\u2010]")


def _one_hyphen(text: str) -> str:
    """``text`` with a hyphen written twice around a soft hyphen read as one: Word for Mac
    printed by Quartz gives each hard hyphen as ``-``, U+00AD and ``‐`` (``Event-\u00ad‐Kalender``,
    ``BLACKBOX-\u00ad‐TESTPLAN``), a heading that no longer reads as its contents entry, and a
    word no search finds.

    >>> _one_hyphen("Event-\u00ad\u2010Kalender"), _one_hyphen("--help")
    ('Event-Kalender', '--help')
    """
    return _HYPHEN_TWICE.sub("-", text) if "\u00ad" in text else text


def _spaced_words(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, size: float
) -> str:
    """The line's text with a space where a lower-case letter and the capital after it stand a
    word space apart on the page but PDFium wrote no space between them: groff's ms through
    ps2pdf sets some words with a move and no space (``Associating aDocument View`` for
    ``a Document``, ``Outlines forMultipart``: a quarter of an em apart). Only such pairs are
    measured (two calls each), by their advances, not their ink: a name written in one piece
    (``DocIf``, ``OpenVMS``, ``JavaScript``) has no gap between advances, though the ink of
    ``c`` and ``I`` stands a sixth of an em apart."""
    pieces: list[str] = []
    last = start
    for match in _CASE_CHANGE.finditer(text, start, end):
        here = match.start()
        first, second = _advance(raw, handle, at[here]), _advance(raw, handle, at[here + 1])
        if first is not None and second is not None and second[0] - first[1] > _WORD_GAP * size:
            pieces.append(text[last : here + 1])
            last = here + 1
    pieces.append(text[last:end])
    return _untracked(raw, handle, text, at, start, end, size, " ".join(pieces))


#: A word's last character before ``?``, ``!``, ``:`` or ``;``: French sets a thin space there.
_BEFORE_PUNCTUATION = re.compile(r"[^\W_](?=[?!:;])")


def _spaced_punctuation(
    raw: Any,
    handle: Any,
    text: str,
    at: Sequence[int],
    start: int,
    end: int,
    size: float,
    shown: str,
) -> str:
    """``shown`` with a space before a ``?``, ``!``, ``:`` or ``;`` that stands a tenth of an
    em or more from the word before it on the page though PDFium wrote no space: French
    typography's thin space (an InDesign chapter's ``Acidose ou alcalose ?``, ``Étape 1 :``,
    read as ``alcalose?``). Measured by the two characters' advances, as ``_spaced_words``
    does: a colon set tight against its word (``README:``) has no gap; beyond the gap the
    word's own last letters stand apart (capitals tracked out, ``FEEDBACK WELCOME!``; Prawn's
    character-spacing sample). Only when ``shown`` is ``text``'s slice as it was."""
    if shown != text[start:end]:
        return shown
    pieces: list[str] = []
    last = start
    for match in _BEFORE_PUNCTUATION.finditer(text, start, end):
        here = match.start()
        first, second = _advance(raw, handle, at[here]), _advance(raw, handle, at[here + 1])
        before = _advance(raw, handle, at[here - 1]) if here > start else None
        tracked = first[0] - before[1] if first is not None and before is not None else 0.0
        if (
            first is not None and second is not None
            and second[0] - first[1] - max(tracked, 0.0) > _WORD_GAP * size
        ):  # fmt: skip
            pieces.append(text[last : here + 1])
            last = here + 1
    if last == start:
        return shown
    pieces.append(text[last:end])
    return " ".join(pieces)


#: Ligatures with no Unicode value, by the family whose glyph numbers they are: a Windows
#: printer driver's PDF of a Word file maps them to nothing, and PDFium reads each glyph's
#: number as the character. Calibri (Word's body font to 2023): glyph 415, ``t_i``, as U+019F
#: ``Ɵ`` (``internaƟonal``, ``HarmaƩan``, ``MicrosoŌ``, ``seƫngs``). Aptos (Word's body font
#: since 2024): ``ff`` as U+01AF ``Ư`` (``oƯice``, ``staƯ``: Microsoft Print to PDF's policy
#: manual, 55 words; its ``fi`` and ``fl`` are mapped, and no other Aptos glyph came unmapped).
_FAMILY_LIGATURES = {
    "Calibri": {"\u019f": "ti", "\u01a9": "tt", "\u01ab": "tti", "\u014c": "ft"},
    "Aptos": {"\u01af": "ff"},
}
_GLYPH_NUMBERS = re.compile(f"[{''.join(''.join(table) for table in _FAMILY_LIGATURES.values())}]")


def _unmapped_ligatures(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, shown: str
) -> str:
    """``shown`` with Calibri's and Aptos' ligatures that have no Unicode value spelled out
    (``Ɵ`` as ``ti``, ``Ư`` as ``ff``): only characters PDFium says have no Unicode map
    (``FPDFText_HasUnicodeMapError``) in a font of that family (``_ligature_family``), so a
    real ``Ō`` (``Ōsaka``) or ``Ư`` (Vietnamese ``Ưu``) stays."""
    found: dict[str, str] = {}
    for match in _GLYPH_NUMBERS.finditer(text, start, end):
        char, index = match.group(), at[match.start()]
        if char not in found and raw.FPDFText_HasUnicodeMapError(handle, index) == 1:
            spelled = _FAMILY_LIGATURES.get(_ligature_family(raw, handle, index), {}).get(char)
            if spelled:
                found[char] = spelled
    return "".join(found.get(c, c) for c in shown) if found else shown


def _ligature_family(raw: Any, handle: Any, index: int) -> str:
    """The family of ``_FAMILY_LIGATURES`` the character's font is of: by the font's name
    (``JJLENB+Calibri``), else by the embedded font's own family name (a printer names the
    face ``CIDFont+F2``; the font inside says ``Aptos``); '' for any other."""
    name = _font_name(raw, handle, index)
    named = next((family for family in _FAMILY_LIGATURES if family in name), "")
    font = _embedded_font(raw, handle, index) if not named else None
    inside = ctypes.create_string_buffer(96)
    if font and raw.FPDFFont_GetFamilyName(font, inside, 96):
        name = inside.value.decode("latin-1")
        named = next((family for family in _FAMILY_LIGATURES if family in name), "")
    return named


def _embedded_font(raw: Any, handle: Any, index: int) -> Any:
    """The font object the character at ``index`` is drawn in (what the file embeds, whatever
    it names it), or None."""
    text_object = raw.FPDFText_GetTextObject(handle, index)
    return raw.FPDFTextObj_GetFont(text_object) if text_object else None


def _font_name(raw: Any, handle: Any, index: int) -> str:
    name = ctypes.create_string_buffer(96)
    length = raw.FPDFText_GetFontInfo(handle, index, name, 96, None)
    return name.value.decode("latin-1") if length else ""


#: A space between two capitals: a word's letters spaced out (tracking) may read as two words.
_BETWEEN_CAPITALS = re.compile(r"(?<=[A-Z]) (?=[A-Z])")
_TRACKING = 0.2  # ems between two letters' advances: still one word's letters spaced out


def _untracked(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, size: float,
    shown: str,
) -> str:  # fmt: skip
    """``shown`` without the spaces PDFium put between capitals spaced out for show (tracking)
    that stand less than a fifth of an em apart and are no space of the file's own: InDesign
    sets a book's sidebar titles so, and PDFium read ``SPECIF YING INTR A-WORKSPACE``, ``CR ATES
    VS. PACKAGES`` (a space of the file's own, or one of a word space's width, stays: ``VS.
    PACKAGES``). Only in a line where the file writes spaces of its own: TeX writes none, and
    its word spaces, all PDFium's, may shrink under a fifth of an em (Freedman's ``RATIO AND
    DIFFERENCE ESTIMATORS``). Looked at only where a space stands between two capitals in
    ``text``, and only when ``shown`` is ``text``'s slice as it was (no space put in)."""
    if shown != text[start:end] or not _writes_spaces(raw, handle, text, at, start, end):
        return shown
    dropped: list[int] = []
    for match in _BETWEEN_CAPITALS.finditer(text, start, end):
        here = match.start()
        if raw.FPDFText_IsGenerated(handle, at[here]) != 1:
            continue  # the file's own space
        before, after = _advance(raw, handle, at[here - 1]), _advance(raw, handle, at[here + 1])
        if before is not None and after is not None and after[0] - before[1] < _TRACKING * size:
            dropped.append(here - start)
    for place in reversed(dropped):
        shown = shown[:place] + shown[place + 1 :]
    return shown


#: Four characters or more, each standing alone: letters spaced out for show (``C H A P T E R``).
_SPACED_RUN = re.compile(r"(?<!\S)\S(?: +\S){3,}(?!\S)")
#: A word of two letters or more standing on its own: a line that holds one is prose, not a
#: line spaced out letter by letter (its single letters are words: ``a b c``).
_WORD_OF_LETTERS = re.compile(r"(?:^|\s)\S*[^\W\d_]\S*[^\W\d_]")
_WORD_SPACE = 0.2  # ems a gap between words exceeds the gaps between a spaced-out word's letters
_MOST_TRACKING = 0.55  # ems: letters further apart are a figure's labels or a glyph table


def _letter_spaced(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, size: float,
    shown: str,
) -> str:  # fmt: skip
    """``shown`` with its letters spaced out for show (tracking: each letter advanced by the same
    extra gap) read as the words they spell: ConTeXt sets its sections so and PDFium, finding a
    gap after every letter, wrote ``w i d o w s a n d o r p h a n s``; so do soul's ``\\so``, a
    browser's ``letter-spacing`` and a title tracked glyph by glyph. The words come from the
    page, not the text: each gap between two letters' advances (where the pen stood after one
    and before the next) is measured, the spaced-out letters' gaps are the run's usual one, and
    a gap wider by a fifth of an em, or a space of the file's own, ends a word (``widows and
    orphans``). Only a line whose every word is spaced out is looked at (a line that holds a
    word of two letters is prose, whose ``a b c d`` are words), and only when ``shown`` is
    ``text``'s slice as it was. A run whose letters stand over half an em apart (a figure's
    labels, a glyph table) or whose words are not cased as words are stays as it is."""
    if shown != text[start:end] or _SPACED_RUN.search(text, start, end) is None:
        return shown
    if _WORD_OF_LETTERS.search(shown.replace("\ufffe", "")):
        return shown
    pieces: list[str] = []
    last = start
    for run in _SPACED_RUN.finditer(text, start, end):
        words = _spelled(raw, handle, text, at, run.start(), run.end(), size)
        if words is not None:
            pieces.extend((text[last : run.start()], words))
            last = run.end()
    pieces.append(text[last:end])
    return "".join(pieces)


def _spelled(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, size: float
) -> str | None:
    """The words a run of letters spaced out one by one spells (``q u i c k s t a r t``:
    ``quick start``), or None when its gaps are not a tracked word's."""
    letters = [i for i in range(start, end) if not text[i].isspace()]
    if not _trackable(text[i] for i in letters):
        return None
    gaps: list[float] = []
    own: list[bool] = []
    for before, after in itertools.pairwise(letters):
        first, second = _advance(raw, handle, at[before]), _advance(raw, handle, at[after])
        if first is None or second is None:
            return None
        gaps.append(second[0] - first[1])
        own.append(
            any(raw.FPDFText_IsGenerated(handle, at[i]) == 0 for i in range(before + 1, after))
        )
    tracked = sorted(gap for gap, mine in zip(gaps, own, strict=True) if not mine)
    if not tracked or tracked[len(tracked) // 2] > _MOST_TRACKING * size:
        return None  # the file's own spaces (single-letter words), or a figure's labels
    usual = tracked[len(tracked) // 2]
    words = [text[letters[0]]]
    for letter, gap, mine in zip(letters[1:], gaps, own, strict=True):
        if mine or gap > usual + _WORD_SPACE * size:
            words.append("")
        words[-1] += text[letter]
    return " ".join(words) if all(map(_cased, words)) else None


def _cased(word: str) -> bool:
    """A word's letters are cased as a word's are: all capitals, none, or only the first (a
    glyph table's ``Ĕ Ė Ě Ĝ ğ Ģ`` or ``Ä Å Ç É Ñ Ö Ü á à`` spells no word).

    >>> [_cased(w) for w in ("CHAPTER", "widows", "Widows", "x’s", "ĔĖĚĜğĢ", "öþĄĊĘ")]
    [True, True, True, True, False, False]
    """
    letters = "".join(char for char in word if char.isalpha())
    return len(letters) < 2 or letters[1:].islower() or letters.isupper()


def _trackable(chars: Iterable[str]) -> bool:
    """Characters a tracked word is spelled with: mostly letters of a script with capitals
    (Latin, Greek, Cyrillic, whose typography spaces letters out), with digits and punctuation
    (``lua-widow-control``, ``x’s``). Not CJK (``tidy`` writes its spaced characters together),
    nor a sample's combining marks (a Myanmar font's feature table: ``ံ း ႇ ႈ``).

    >>> _trackable("lua-widow-control"), _trackable("1001")
    (True, False)
    >>> _trackable("ံးႇႈ"), _trackable("稻作病蟲害")
    (False, False)
    """
    letters = others = 0
    for char in chars:
        if char.isupper() or char.islower():
            letters += 1
        elif char.isdigit() or unicodedata.category(char).startswith("P"):
            others += 1
        else:
            return False
    return letters > others


def _writes_spaces(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int
) -> bool:
    """The line holds a space between two capitals to look at, and a space of the file's own,
    not one PDFium put in for a gap."""
    if _BETWEEN_CAPITALS.search(text, start, end) is None:
        return False
    return any(
        raw.FPDFText_IsGenerated(handle, at[match.start()]) == 0
        for match in _SPACE.finditer(text, start, end)
    )


def _ends_in_code(first: _Style, last: _Style, size: float, last_size: float) -> bool:
    """The line ends in a monospaced run of its size, and only the face differs: set larger than
    the body, a heading that names a module or a function in code's type (ReportLab's ``Chapter
    2 Graphics and Text with pdfgen``, ``8.1 DocAssign(self, var, expr, life='forever')``);
    ``pdf.headings`` decides, knowing the body."""
    return abs(last_size - size) < 0.5 and last.mono and not first.mono


def trusted_weights(pages: list[Page]) -> list[Page]:
    """The pages with boldness read from the fonts' names alone when PDFium's weights cannot be
    trusted: when most characters in fonts named regular (``Times-Roman``, ``NimbusRomNo9L-Regu``)
    report a bold weight (Ghostscript's embedded Type 1 fonts report 695 for every face, so the
    body, code and headings all read bold and none stands out)."""
    regular = [line for page in pages for line in page.lines if line.named_regular]
    heavy = sum(len(line.text) for line in regular if line.weight >= _BOLD_WEIGHT)
    if not regular or heavy * 2 < sum(len(line.text) for line in regular):
        return pages
    return [
        replace(page, lines=tuple(replace(ln, bold=ln.named_bold, weight=-1) for ln in page.lines))
        for page in pages
    ]


def _drawn_size(raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int) -> float:
    """The line's size from its drawn glyphs: the height of its tallest capital, digit or
    ascending letter (0.7 of the em in most faces), for a font whose size PDFium cannot read
    (a Type 3 font reports 1 pt scaled by its text matrix: 0.1 pt); 0 when the line has none."""
    heights: list[float] = []
    for position in range(start, min(end, start + _DRAWN_SAMPLE)):
        char = text[position]
        if not (char.isupper() or char.isdigit() or char in _ASCENDING):
            continue
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))
        box = (ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top))
        if raw.FPDFText_GetCharBox(handle, at[position], *box) and top.value > bottom.value:
            heights.append(top.value - bottom.value)
    if not heights:
        return 0.0
    return round(max(heights) / _CAP_HEIGHT * 2) / 2  # to half a point: glyphs differ a little


def _before_note(text: str, start: int, end: int) -> int | None:
    """Where the words before a closing note in brackets end (``Yigal の出現頻度 (95年)``:
    the ``度``), when the line ends with one: a heading may set its note smaller."""
    if text[end - 1] != ")":
        return None
    opening = text.rfind("(", start, end)
    before = opening - 1
    while before > start and text[before].isspace():
        before -= 1
    return before if opening > start and before > start else None


def _small_caps(text: str, first: float, last: float) -> bool:
    """A line in small capitals: all its letters capitals, the first larger than the last."""
    letters = [char for char in text if char.isalpha()]
    return len(letters) >= 3 and all(char.isupper() for char in letters) and last < first


def tidy(text: str) -> str:
    """A line's words as a reader sees them: TeX's accents on their letters, ligatures spelled
    out (``ﬁ`` as ``fi``: keyword search finds the word), and CJK characters spaced out for show
    (``稻 作 病 蟲 害``, a justified title or table header) written together.

    >>> tidy("稻 作 病 蟲 害 and 水稻 病害")
    '稻作病蟲害 and 水稻 病害'
    """
    text = accented(text).translate(_SPELLED)
    if " " in text and _CJK.search(text):
        text = _SPACED_CJK.sub(lambda m: m.group().replace(" ", ""), text)
    return text


def accented(text: str) -> str:
    """TeX's accents set apart put back on their letters: in the OT1 encoding (LaTeX's default
    without ``fontenc``) an accented letter is the letter and a spacing accent drawn over it, and
    an accented i is the dotless ``ı`` under it (``\\^{\\i}``); a grave accent is the backquote.

    >>> accented("Gr¨obner bases, Chaˆınes, Premi`ere `a tous, `code`, `a` and x`y")
    'Gröbner bases, Chaînes, Première à tous, `code`, `a` and x`y'
    """
    if "`" in text:
        text = _GRAVE_IN_WORD.sub(
            lambda m: unicodedata.normalize("NFC", (m.group(1) or m.group(2)) + "\u0300"), text
        )
    if not _SPACING_ACCENT.search(text):
        return text
    return _SPACING_ACCENT.sub(
        lambda m: unicodedata.normalize(
            "NFC", m.group(2).replace("\u0131", "i") + _ACCENTS[m.group(1)]
        ),
        text,
    )


@dataclass(frozen=True, slots=True)
class _Style:
    size: float
    weight: int
    bold: bool
    mono: bool
    named_bold: bool
    named_regular: bool
    small_caps: bool = False
    ink: float = 0.0

    def same_weight(self, other: _Style) -> bool:
        same_ink = not (self.ink and other.ink) or _alike(self.ink, other.ink)
        return self.bold == other.bold and self.named_bold == other.named_bold and same_ink


def _style(raw: Any, handle: Any, index: int, faces: FaceWeights) -> _Style:
    """Size in points, weight, boldness (by weight, name or flag; and by name or flag alone) and
    whether the font is monospaced, of the character at ``index``. A weight no font declares
    is read from the embedded face instead (``FaceWeights``, once per face of the document)."""
    matrix = raw.FS_MATRIX()
    scale = 1.0
    if raw.FPDFText_GetMatrix(handle, index, ctypes.byref(matrix)):
        scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c)) or 1.0
    size = round(raw.FPDFText_GetFontSize(handle, index) * scale, 1)
    weight = int(raw.FPDFText_GetFontWeight(handle, index))
    if weight >= 0 and weight not in _DECLARED_WEIGHTS:
        weight = faces.weight(raw, _embedded_font(raw, handle, index))
    flags = ctypes.c_int(0)
    name = ctypes.create_string_buffer(96)
    length = raw.FPDFText_GetFontInfo(handle, index, name, 96, ctypes.byref(flags))
    font = name.value.decode("latin-1") if length else ""
    named_bold = (
        bold_by_name(font) or bool(flags.value & _FORCE_BOLD) or _stroked(raw, handle, index)
    )
    regular = not named_bold and regular_by_name(font)  # its name outweighs a wrong weight
    bold = named_bold or (not regular and weight >= _BOLD_WEIGHT)
    mono = bool(flags.value & _FIXED_PITCH) or bool(_MONO_NAME.search(font))
    unknown = weight < 0 and not named_bold and not regular
    ink = faces.ink(raw, _embedded_font(raw, handle, index)) if unknown else 0.0
    small_caps = bool(_CAPS_NAME.search(font))
    return _Style(size, weight, bold, mono, named_bold, regular, small_caps, ink)


#: The bytes of embedded faces one document may copy to read their weights: PDFium gives a face
#: only whole, and a face is copied once per document (a printer's faces are 30-300 KB, and a
#: document has a few). A face past it declares no weight: a 600 KB file of 400 pages drawn in
#: one 30 MB face (zeros after a real font, which compress to nothing) copied 12 GB and took
#: 20 s when each page copied its faces.
FACE_BYTES = 64 * 2**20


class FaceWeights:
    """The weight each embedded face of a document declares (its OS/2 table's
    ``usWeightClass``: 400 regular, 700 bold; -1 when it declares none), for a font whose
    descriptor gives PDFium no weight it can use. Microsoft Print to PDF renames every face
    (``CIDFont+F1``, ``CIDFont+F2``) and PDFium reads 3,900 for Aptos Bold and 3,816 for Aptos
    Regular, 4,140 for both faces of Times New Roman: every line read bold, or both the same,
    and no bold heading stood out.

    Each face is copied and read once per document, known on later pages by its name and its
    size (a font object's handle is asked only on the page that gave it: it is PDFium's, and
    may be another font's once the page is closed), and at most ``budget`` bytes are copied."""

    def __init__(self, budget: int = FACE_BYTES) -> None:
        self._left = budget
        self._by_face: dict[tuple[str, int], int] = {}  # (name, bytes) -> weight
        self._by_handle: dict[int, int] = {}  # this page's font objects -> weight
        self._inks: dict[str, float] = {}  # a face's name -> its ink

    def next_page(self) -> None:
        """A page is read now: the font objects seen on the last one are forgotten."""
        self._by_handle = {}

    def weight(self, raw: Any, font: Any) -> int:
        """The weight the embedded face of ``font`` (a font object of this page) declares."""
        if not font:
            return -1
        handle = ctypes.cast(font, ctypes.c_void_p).value or 0
        if handle not in self._by_handle:
            size = ctypes.c_size_t(0)
            if not raw.FPDFFont_GetFontData(font, None, 0, ctypes.byref(size)):
                size.value = 0
            name = ctypes.create_string_buffer(96)
            raw.FPDFFont_GetBaseFontName(font, name, 96)
            face = (name.value.decode("latin-1"), size.value)
            if face not in self._by_face:
                self._by_face[face] = declared_weight(self._copied(raw, font, size.value))
            self._by_handle[handle] = self._by_face[face]
        return self._by_handle[handle]

    def ink(self, raw: Any, font: Any) -> float:
        """The ink of ``font``'s ``n``, ``o`` and ``e`` (``_glyph_ink``, summed), once per face of
        the document; 0.0 when it draws none of them."""
        if not font:
            return 0.0
        name = ctypes.create_string_buffer(96)
        raw.FPDFFont_GetBaseFontName(font, name, 96)
        face = name.value.decode("latin-1")
        if face not in self._inks:
            self._inks[face] = sum(_glyph_ink(raw, font, char) for char in _INKED)
        return self._inks[face]

    def _copied(self, raw: Any, font: Any, size: int) -> bytes:
        """The face's bytes, or none when they are not there or past what is left to copy."""
        if not 0 < size <= self._left:
            return b""
        self._left -= size
        buffer = (ctypes.c_uint8 * size)()
        written = ctypes.c_size_t(0)
        if not raw.FPDFFont_GetFontData(font, buffer, size, ctypes.byref(written)):
            return b""
        return bytes(buffer)


_INKED = "noe"  # lower-case letters every Latin text has, round and straight
_INKIER = 1.28  # a face with this much more ink than the text's is its bold
_ALIKE = 1.15  # two faces within this ratio of ink are one weight


def _glyph_ink(raw: Any, font: Any, char: str) -> float:
    """How much of its box ``char``'s outline in ``font`` fills (its segments' points, curves by
    their control points: a measure to compare faces by, not an exact area); 0.0 if none. The
    share of the box, not the area: a sans face's taller ``x`` holds more ink than a serif's of
    the same weight (Helvetica's ``n``, ``o``, ``e`` 1.48 times Times-Roman's area, but 1.18
    times its share), a bold face 1.3 to 1.5 times its regular's share."""
    path = raw.FPDFFont_GetGlyphPath(font, ord(char), ctypes.c_float(1.0))
    if not path:
        return 0.0
    total, contour, points = 0.0, list[tuple[float, float]](), list[tuple[float, float]]()
    x, y = ctypes.c_float(), ctypes.c_float()
    for k in range(raw.FPDFGlyphPath_CountGlyphSegments(path)):
        segment = raw.FPDFGlyphPath_GetGlyphPathSegment(path, k)
        if not segment or not raw.FPDFPathSegment_GetPoint(
            segment, ctypes.byref(x), ctypes.byref(y)
        ):
            continue
        if raw.FPDFPathSegment_GetType(segment) == raw.FPDF_SEGMENT_MOVETO and contour:
            total += _signed_area(contour)
            contour = []
        contour.append((x.value, y.value))
        points.append((x.value, y.value))
    if not points:
        return 0.0
    width = max(p[0] for p in points) - min(p[0] for p in points)
    height = max(p[1] for p in points) - min(p[1] for p in points)
    box = width * height
    return abs(total + _signed_area(contour)) / box if box > 0 else 0.0


def _signed_area(points: list[tuple[float, float]]) -> float:
    pairs = zip(points, points[1:] + points[:1], strict=True)
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs) / 2


def _alike(ink: float, other: float) -> bool:
    return max(ink, other) <= min(ink, other) * _ALIKE


def bold_by_ink(pages: list[Page]) -> list[Page]:
    """The pages with boldness read from the glyphs where no weight is known: 3B2 renames every
    face (``AdvPS405B6``, ``B7``, ``B8``: roman, italic, bold), each with weight 0 and the same
    flags, and its embedded fonts declare none; round 24's Emerald article's bold headings were
    lines like any other (0 of 13 found). A bold face's ``n``, ``o`` and ``e`` fill 1.3 to 1.5
    times the share of their boxes its roman's do (3B2's: 1.60 against 1.13; Helvetica's 1.32,
    Times' 1.38, Courier's 1.51), another family of the same weight less (Helvetica against
    Times 1.18); a line whose face (no weight known) holds 1.28 times the ink of the face most
    of the document's characters with no weight known are set in reads bold."""
    counts: dict[float, int] = {}
    for page in pages:
        for line in page.lines:
            if line.ink:
                counts[line.ink] = counts.get(line.ink, 0) + len(line.text)
    if not counts:
        return pages
    text = max(counts, key=counts.__getitem__)
    if not any(ink >= text * _INKIER for ink in counts):
        return pages
    return [
        replace(page, lines=tuple(
            replace(ln, bold=True) if ln.ink >= text * _INKIER else ln for ln in page.lines
        ))
        for page in pages
    ]  # fmt: skip


_SFNT = (b"\x00\x01\x00\x00", b"true", b"OTTO")  # a TrueType or OpenType font's first bytes


def declared_weight(font: bytes) -> int:
    """The weight a TrueType or OpenType font declares in its OS/2 table (``usWeightClass``, 4
    bytes in), -1 for other data or a weight out of range.

    >>> table = bytes(4) + (700).to_bytes(2, "big")
    >>> font = b"true" + (1).to_bytes(2, "big") + bytes(6) + b"OS/2" + bytes(4)
    >>> font += (28).to_bytes(4, "big") + len(table).to_bytes(4, "big") + table
    >>> declared_weight(font), declared_weight(b"%!PS-AdobeFont"), declared_weight(b"")
    (700, -1, -1)
    >>> declared_weight(b"true" + (65535).to_bytes(2, "big") + bytes(6))  # a directory cut short
    -1
    """
    if font[:4] not in _SFNT:
        return -1
    held = (len(font) - 12 + 15) // 16  # directory entries starting inside the data
    tables = min(int.from_bytes(font[4:6], "big"), held)
    for entry in range(12, 12 + 16 * tables, 16):
        if font[entry : entry + 4] == b"OS/2":
            offset = int.from_bytes(font[entry + 8 : entry + 12], "big")
            weight = int.from_bytes(font[offset + 4 : offset + 6], "big")
            return weight if weight in _DECLARED_WEIGHTS else -1
    return -1


def _stroked(raw: Any, handle: Any, index: int) -> bool:
    """The character is filled and stroked (text render mode 2, or 6 with clipping): bold made
    by thickening a regular face, as Word does for a font without a bold face and ABBYY
    FineReader writes (the UDHR's ``Preamble`` and ``Article 1`` in ArialUnicodeMS)."""
    return _render_mode(raw, handle, index) in _STROKED


def bold_by_name(font: str) -> bool:
    """A font whose name says bold (PDFium gives no weight for many embedded fonts).

    >>> [bold_by_name(n) for n in ("Arial,Bold", "AdvOTb83ee1dd.B", "NimbusRomNo9L-Medi", "CMBX10")]
    [True, True, True, True]
    >>> [bold_by_name(n) for n in ("AdvOT863180fb", "NimbusRomNo9L-Regu", "CMR10", "Symbol")]
    [False, False, False, False]
    """
    return bool(_BOLD_NAME.search(font))


def regular_by_name(font: str) -> bool:
    """A font whose name says it is regular (Ghostscript's embedded Times report weight 695 for
    roman and bold alike: the name tells them apart). TeX's Computer Modern faces say it by
    Knuth's names: Ghostscript 9.10 reports ``CMR10`` at 736 and ``CMBX10`` at 764 for a LaTeX
    file through dvips, so without the name every line of such a file reads bold.

    >>> [regular_by_name(n) for n in ("Times-Roman", "ABCDEF+NimbusRomNo9L-Regu", "Arial-ItalicMT")]
    [True, True, True]
    >>> [regular_by_name(n) for n in ("Times-Bold", "Calibri", "CMBX10", "CMSSBX10", "")]
    [False, False, False, False, False]
    >>> [regular_by_name(n) for n in ("CMR10", "ABCDEF+CMTI10", "CMSS12", "CMTT9", "CMCSC10")]
    [True, True, True, True, True]
    >>> [regular_by_name(n) for n in ("Helvetica", "ABCDEF+ArialMT", "Arial-BoldMT", "Arial,Bold")]
    [True, True, False, False]
    """
    return bool(
        _REGULAR_NAME.search(font) or _PLAIN_NAME.match(font) or _TEX_REGULAR_NAME.match(font)
    )


def _cells(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int, size: float,
    force: bool = False, ends: tuple[Any, Any] | None = None,
) -> tuple[Cell, ...]:  # fmt: skip
    """The line's words grouped into cells where they stand over an em apart, when there are two
    cells or more. A line no wider than its characters need is prose (two box calls); for the
    others (and a line looked at in full: ``force``) its words' boxes say where the gaps are.
    PDFium's runs of text would cost fewer calls but hide gaps (a run may hold a gap: TeX's
    ``tt`` spaces, a table's header cells set as one string).

    Words are taken in the text's order: one that goes back left is the cell's next line (PDFium
    joins two lines at a soft hyphen), and stays in its cell."""
    if size <= 0 or " " not in text[start:end]:
        return ()
    first, last = ends or (_box(raw, handle, at[start]), _box(raw, handle, at[end - 1]))
    if first is None or last is None:
        return ()
    if not force and last[1] - first[0] < size * (_EM_PER_CHAR * (end - start) + _GAP_ROOM):
        return ()  # as wide as its characters: no gap to look for (most lines, at one call)
    cells: list[list[Any]] = []  # [left, right, words, the first word's first character]
    for word, left, right, first_char in _word_spans(raw, handle, text, at, start, end):
        if cells and left - cells[-1][1] < size * _CELL_GAP:
            cells[-1][1] = max(cells[-1][1], right)
            cells[-1][2].append(word)
        else:
            cells.append([left, right, [word], first_char])
    if len(cells) < 2:
        return ()
    base = _origin(raw, handle, at[start])
    return tuple(
        (left, right, tidy(" ".join(words)), round(_origin(raw, handle, first) - base, 1))
        for left, right, words, first in cells
    )


def _origin(raw: Any, handle: Any, index: int) -> float:
    """The baseline (points up from the page's bottom) of the character at ``index``."""
    x, y = ctypes.c_double(), ctypes.c_double()
    raw.FPDFText_GetCharOrigin(handle, index, ctypes.byref(x), ctypes.byref(y))
    return float(y.value)


def _word_spans(
    raw: Any, handle: Any, text: str, at: Sequence[int], start: int, end: int
) -> list[tuple[str, float, float, int]]:
    """Each word with its (left, right) and its first character's index."""
    spans: list[tuple[str, float, float, int]] = []
    for word in _WORD.finditer(text, start, end):
        first, last = _box(raw, handle, at[word.start()]), _box(raw, handle, at[word.end() - 1])
        if first is not None and last is not None:
            spans.append((word.group(), first[0], last[1], at[word.start()]))
    return spans


def _advance(raw: Any, handle: Any, index: int) -> tuple[float, float] | None:
    """(left, right) of the character's advance (PDFium's loose box): where the pen stood
    before and after it, whatever its ink covers."""
    rect = raw.FS_RECTF()
    return (rect.left, rect.right) if raw.FPDFText_GetLooseCharBox(handle, index, rect) else None


def _box(raw: Any, handle: Any, index: int) -> tuple[float, float] | None:
    """(left, right) of the character at ``index``."""
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    box = (ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top))
    return (left.value, right.value) if raw.FPDFText_GetCharBox(handle, index, *box) else None


def _corner(raw: Any, handle: Any, index: int, height: float) -> tuple[float, float]:
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    box = (ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top))
    if not raw.FPDFText_GetCharBox(handle, index, *box):
        return 0.0, 0.0
    return round(left.value, 1), round(height - top.value, 1)


def _extent(
    raw: Any, handle: Any, first: int, box: tuple[float, float] | None, height: float
) -> tuple[float, float]:
    """The line's right edge (from its last character's ``box``) and its first character's
    baseline (a table's rows line up by baselines: the tops of ``T`` and ``e`` differ by the
    height of a capital); 0 if unknown."""
    x, y = ctypes.c_double(), ctypes.c_double()
    found = raw.FPDFText_GetCharOrigin(handle, first, ctypes.byref(x), ctypes.byref(y))
    return (round(box[1], 1) if box else 0.0), (round(height - y.value, 1) if found else 0.0)


def _rotated(raw: Any, handle: Any, index: int) -> bool:
    """The character is set at an angle (its text matrix turns it by more than a few degrees)."""
    matrix = raw.FS_MATRIX()
    if not raw.FPDFText_GetMatrix(handle, index, ctypes.byref(matrix)):
        return False
    return bool(abs(matrix.b) + abs(matrix.c) > 0.1 * (abs(matrix.a) + abs(matrix.d)))


def _render_mode(raw: Any, handle: Any, index: int) -> int:
    obj = raw.FPDFText_GetTextObject(handle, index)
    return int(raw.FPDFTextObj_GetTextRenderMode(obj)) if obj else -1


#: A section number of two parts or more run into a capitalised word or one in capitals
#: (``5.10Altair``, ``5.15UCSD``): not a measure (``1.5GHz``, ``2.5V``).
_GLUED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)(?=[A-Z][a-z]|[A-Z]{3})")


def spaced_number(text: str) -> str:
    """A section number and its title with a space between them where the PDF sets a tab stop
    instead (Word: ``5.10`` reaches the tab stop that leaves ``5.9`` a gap, and PDFium's text
    has no space there; the page shows the two apart).

    >>> spaced_number("5.10Altair 8k Basic"), spaced_number("2.10Beaconing")
    ('5.10 Altair 8k Basic', '2.10 Beaconing')
    >>> spaced_number("5.15UCSD Pascal"), spaced_number("13.3DISK2 Compupro"), spaced_number("2.5V")
    ('5.15 UCSD Pascal', '13.3 DISK2 Compupro', '2.5V')
    >>> spaced_number("5.9 Altair Basic"), spaced_number("1.5GHz"), spaced_number("3D View")
    ('5.9 Altair Basic', '1.5GHz', '3D View')
    """
    return _GLUED_NUMBER.sub(r"\1 ", text, count=1)
