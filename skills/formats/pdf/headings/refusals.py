"""Document-wide checks that take candidates away: a crowded page's labels, a table's first
cells, runs of labels, a contents page's entries, numbered lists taken for chapters, headings
that head nothing, a drawing's labels. Conservative by design: a wrong heading misplaces every
child under it, a missed one only leaves them in the section before."""

from __future__ import annotations

import re
from collections import Counter

from skills.formats.pdf.headings.body import (
    PROSE_WORDS,
    column_gutter,
    in_prose_script,
    is_larger,
    is_text,
    text_margin,
)
from skills.formats.pdf.headings.model import Body, Candidate, Key
from skills.formats.pdf.headings.titles import TITLE_INDENT, turned_page
from skills.formats.pdf.headings.wording import (
    form_part,
    normalised,
    page_reference,
    section_number,
    words,
)
from skills.formats.pdf.lines import Line, Page

RUN = 3  # unnumbered headings in a row with no text between: labels, not headings


_CONTENTS_ENTRIES = 3  # lines of a page that later headings repeat: a contents page's entries


_WRAPPED_ENTRY = 5  # words of a contents entry's first line that may open a longer heading


_CROWDED = 8  # headings a page may have: more are a form's labels


def in_the_prose_script(
    candidates: list[Candidate], pages: list[Page], body: Body
) -> list[Candidate]:
    """Without the candidates in another script than the prose's Latin (:func:`in_prose_script`:
    a page of SIL's font samples read as a crowded form's took its real heading with them). A
    heading in another script heads a document written in it (a Japanese deck's ``結論``)."""
    return in_prose_script(candidates, lambda c: c.text, pages, body)


_COVER_LINES = 4  # display lines of a page with no text: a cover (a part's page has fewer)


def off_covers(
    candidates: list[Candidate], pages: list[Page], body: Body, skip: set[Key]
) -> list[Candidate]:
    """Without the lines of a cover, the first page or another: four display lines or more
    (larger than the body and short: no prose, whatever the body's size is taken to be) and no
    line of text. Word 2010's guide opens with a notice page, then a cover of seven lines from
    32 to 40 pt whose address, ``27 Lowell Street`` / ``Peabody, MA 01960``, headed nothing
    but the next page's text. A part's or a chapter's opening page holds fewer (``Part II`` /
    ``Methods``)."""
    covers = set()
    for page in pages:
        shown = [line for i, line in enumerate(page.lines) if (page.index, i) not in skip]
        display = all(
            is_larger(line.size, body) and words(line.text) < PROSE_WORDS for line in shown
        )
        if len(shown) >= _COVER_LINES and display:
            covers.add(page.index)
    return [c for c in candidates if c.key[0] not in covers]


def without_contents(candidates: list[Candidate]) -> list[Candidate]:
    """Without the entries of a contents page that gives no page numbers: three or more lines of
    one page that a heading of another type repeats on a later page (SIMH's FAQ lists ``4.7 IS
    THERE AN EXAMPLE OF THE SIMULATOR RUNNING VMS?`` in 12 pt bold small capitals on page 3, and
    the question heads page 12 as ``4.7 Is there an example of the simulator running VMS?`` in
    14 pt; a wrapped entry's first line, of five words or more, opens its heading's words). The
    entries follow one another with no text between; a heading's name seen again in its own type
    (``Detail 1`` under each chapter), or over text (a man page's synopsis groups, described
    again later: ``STRING ATTRIBUTES``), is no entry."""
    later = _Later(candidates)
    ends = {(c.key[0], c.key[1] + c.lines) for c in candidates}  # the line after each one
    starts = {c.key for c in candidates}
    echoes: Counter[int] = Counter()
    echoed: set[Key] = set()
    for candidate in candidates:
        page, i = candidate.key
        if candidate.key not in ends and (page, i + candidate.lines) not in starts:
            continue  # text under it: a heading (a man page's SYNOPSIS groups), not a list
        if later.repeats(candidate):
            echoes[candidate.key[0]] += 1
            echoed.add(candidate.key)
    return [c for c in candidates if c.key not in echoed or echoes[c.key[0]] < _CONTENTS_ENTRIES]


#: The latest page of each of the two types (size, boldness) seen last on a place of the trie
_Latest = list[tuple[int, tuple[float, bool]]]


class _Later:
    """The candidates' words in a trie, each place holding the latest pages of the candidates
    whose words end there (``whole``) and of those that go on past it (``longer``): whether a
    later heading of another type repeats an entry is one walk down its words. (Compared with
    every candidate of the same opening words, 12,000 candidates took 15 s.)"""

    def __init__(self, candidates: list[Candidate]) -> None:
        self._root: _Place = _Place()
        for candidate in candidates:
            kind = (candidate.size, candidate.bold)
            place = self._root
            for word in normalised(candidate.text).split():
                _note(place.longer, candidate.key[0], kind)
                place = place.next.setdefault(word, _Place())
            _note(place.whole, candidate.key[0], kind)

    def repeats(self, entry: Candidate) -> bool:
        """A heading on a later page, in another type, has the entry's words, or opens with
        them when they are five or more (a wrapped entry's first line)."""
        place = self._root
        words = normalised(entry.text).split()
        for word in words:
            place = place.next[word]
        wanted = [place.whole, place.longer] if len(words) >= _WRAPPED_ENTRY else [place.whole]
        kind = (entry.size, entry.bold)
        return any(p > entry.key[0] and k != kind for latest in wanted for p, k in latest)


class _Place:
    __slots__ = ("longer", "next", "whole")

    def __init__(self) -> None:
        self.next: dict[str, _Place] = {}
        self.whole: _Latest = []
        self.longer: _Latest = []


def _note(latest: _Latest, page: int, kind: tuple[float, bool]) -> None:
    """Keep the two latest pages of distinct types: whether a type other than a given one was
    seen after a page is then known (the latest type, else the one before it)."""
    for n, (seen, other) in enumerate(latest):
        if other == kind:
            latest[n] = (max(seen, page), kind)
            break
    else:
        latest.append((page, kind))
    latest.sort(key=lambda item: -item[0])
    del latest[2:]


def heading_text(
    pages: list[Page], candidates: list[Candidate], skip: set[Key], body: Body
) -> list[Candidate]:
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
    kept: list[Candidate] = []
    for n, candidate in enumerate(candidates):
        start = position.get(candidate.key)
        following = candidates[n + 1] if n + 1 < len(candidates) else None
        end = position.get(following.key, len(order)) if following is not None else len(order)
        between = order[start + candidate.lines : end] if start is not None else []
        text = [key for key in between if is_text(by_index[key[0]].lines[key[1]], body)]
        empty = start is not None and not text
        if empty and (following is None or following.size > candidate.size + 0.5):
            continue
        kept.append(candidate)
    return kept


def uncrowded(candidates: list[Candidate], pages: list[Page], body: Body) -> list[Candidate]:
    """Without the lines of the body's size on a page that would have more than eight headings
    (a form's field labels, a poster's or a diagram's captions, a manual's bold entry names: a
    page of prose has a few at most); the page's larger lines stay when few enough (the man
    page's ``BUILT-IN FUNCTIONS`` over forty bold function signatures). A page set in two
    columns of text is two pages' worth: each column is counted on its own (``_Columns``)."""
    column = _Columns(pages, body)
    per_page = Counter(column.of(c) for c in candidates)
    larger = Counter(column.of(c) for c in candidates if is_larger(c.size, body))
    in_turn = _numbered_in_turn(candidates) | _pages_in_turn(candidates)
    in_turn |= over_paragraphs(candidates, pages, body)
    return [
        c
        for c in candidates
        if per_page[column.of(c)] <= _CROWDED
        or (is_larger(c.size, body) and larger[column.of(c)] <= _CROWDED)
        or c.key in in_turn
    ]


_PARAGRAPH_SHARE = 0.75  # of a crowded page's body-size candidates that head a paragraph
_CITED_SECTION = re.compile(r"^\d+(\.\d+)*,\s")  # ``8.4.5, "Annotation Types"``: cited


def over_paragraphs(candidates: list[Candidate], pages: list[Page], body: Body) -> set[Key]:
    """The bold body-size candidates of a crowded page that each stand over a paragraph of
    prose starting at their own left edge, when most of the page's body-size candidates do: a
    requirements list's ``BR1: Optimalizace časových slotů`` / ``FR1: Konfigurace služeb`` over
    their one- or two-line descriptions (seven to nine such heads a page in a Word project's
    specification), an employee handbook's ``Performance Evaluations``, ``Resignation``,
    ``Final Paycheck`` (ten a page, in English and Spanish). A form's labels stand over fields
    or short values, a diagram's over more short labels, and a manual's entry names over text
    set in under them (a definition), so none of them passes; nor does a section number cited with a
    comma after it (Adobe's errata: ``8.4.5, "Annotation Types" (Free Text Annotations)`` over
    its correction, under a ``Page 1114`` entry: the part corrected, not a section here)."""
    pages_by_index = {page.index: page for page in pages}
    heading: dict[int, list[Key]] = {}
    tried: Counter[int] = Counter()
    for c in candidates:
        if is_larger(c.size, body) or not c.bold or _CITED_SECTION.match(c.text):
            continue
        tried[c.key[0]] += 1
        if _heads_paragraph(pages_by_index[c.key[0]], c, body):
            heading.setdefault(c.key[0], []).append(c.key)
    return {
        key
        for index, keys in heading.items()
        if len(keys) >= _PARAGRAPH_SHARE * tried[index]
        for key in keys
    }


def _heads_paragraph(page: Page, candidate: Candidate, body: Body) -> bool:
    """The line after ``candidate`` is a line of regular prose in the body's size that starts
    where the candidate starts (to a third of an em)."""
    first = candidate.key[1]
    after = first + candidate.lines
    if after >= len(page.lines):
        return False
    line, head = page.lines[after], page.lines[first]
    return (
        not line.bold
        and abs(line.size - body.size) <= 0.5
        and abs(line.left - head.left) <= body.size / 3
        and words(line.text) >= PROSE_WORDS
    )


def _pages_in_turn(candidates: list[Candidate]) -> set[Key]:
    """The ``Page 48`` headings (``candidates.names_a_page_beyond``) whose page comes after the
    one before: an errata list's entries in the order of the pages they correct, however many
    headings crowd their page (Adobe's errata open with a chapter, four sections and four such
    entries on one page: ten headings, and the entries were dropped as a form's labels)."""
    found: set[Key] = set()
    last = 0
    for c in candidates:
        number = page_reference(c.text)
        if number is None:
            continue
        if number > last:
            found.add(c.key)
        last = number
    return found


class _Columns:
    """The column of a page a candidate stands in: (page, 0) on a page of one column or in its
    left column, (page, 1) in its right one (:func:`column_gutter`, found once per page)."""

    def __init__(self, pages: list[Page], body: Body) -> None:
        self._pages = {page.index: page for page in pages}
        self._body = body
        self._gutters: dict[int, float | None] = {}

    def of(self, candidate: Candidate) -> tuple[int, int]:
        index, i = candidate.key
        page = self._pages[index]
        if index not in self._gutters:
            self._gutters[index] = column_gutter(page, self._body)
        gutter = self._gutters[index]
        return index, int(gutter is not None and page.lines[i].left >= gutter)


def _numbered_in_turn(candidates: list[Candidate]) -> set[Key]:
    """The bold or larger candidates whose one-part number comes next in their type's
    numbering: ``C.`` after ``B.``, ``3.`` after ``2.``, or ``1.`` / ``A.`` first under a
    larger heading that came since. They head sections, however many labels crowd their page
    (an InDesign chapter's ``C. Traitement des acidoses métaboliques`` and ``1. Acidoses
    métaboliques aiguës`` at the foot of a page whose table has a dozen bold cells). Not on
    a page crowded with numbered lines: a contents page's entries (``1 GENERAL QUESTIONS``,
    ``1.1 WHAT IS SIMH?``, ...) are no headings."""
    found: set[Key] = set()
    numbered = Counter(c.key[0] for c in candidates if c.number is not None)
    last: dict[tuple[float, bool], str] = {}
    parent_since: set[tuple[float, bool]] = set()
    for c in candidates:
        parent_since |= {kind for kind in last if c.size > kind[0] + 0.5}
        number = c.number
        if not c.strong or number is None or len(number) != 1 or len(number[0]) > 2:
            continue
        kind, value = (c.size, number[0].isdigit()), number[0]
        previous = last.get(kind)
        first = value in ("1", "A", "a") and (previous is None or kind in parent_since)
        in_turn = first or (previous is not None and _next_in_turn(previous, value))
        if in_turn and numbered[c.key[0]] <= _CROWDED:
            found.add(c.key)
        last[kind] = value
        parent_since.discard(kind)
    return found


def _next_in_turn(previous: str, value: str) -> bool:
    """``value`` follows ``previous``: ``2`` after ``1``, ``C`` after ``B``."""
    if previous.isdigit() and value.isdigit():
        return int(value) == int(previous) + 1
    one_letter = len(previous) == len(value) == 1 and previous.isalpha()
    return one_letter and ord(value) == ord(previous) + 1


def out_of_rows(candidates: list[Candidate], pages: list[Page]) -> list[Candidate]:
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
            and not _beside_its_paragraph(page, cell, other)
            for other in page.lines
        ):
            return True
    return False


_MEASURE = 0.6  # of the page's widest line: a line this wide is the text's measure
_NEXT_LINE = 3.0  # sizes down to a paragraph's next line (PDFium joins two at a soft hyphen)


def _beside_its_paragraph(page: Page, line: Line, other: Line) -> bool:
    """``other``, on ``line``'s baseline right of it, is the first line of a paragraph set
    smaller: across the text's measure (most of the page's widest line), with the paragraph's
    next line under it at its left edge. ``line`` is then a heading set in the margin beside
    its paragraph (ConTeXt's ``Overview`` / ``LATEX users can set the options either when
    loading the package...``), not a table's first cell beside the row's next (an InDesign data
    sheet's ``Sampling`` / ``method`` in 8 pt beside its values in 7 pt: a column wide, or one
    line of its row, the next row's value further down)."""
    if other.size > line.size - 0.5 or other.cells:
        return False  # (a row's cells PDFium read as one line: ``IP 67 Equivalent to IP-67``)
    widest = max((ln.right - ln.left for ln in page.lines if not ln.rotated), default=0.0)
    if other.right - other.left < widest * _MEASURE:
        return False
    return any(
        abs(below.left - other.left) <= 2 and 0 < below.top - other.top <= other.size * _NEXT_LINE
        for below in page.lines
    )


#: A part's label before its name: ``Section 1:``, ``Chapter 2 -``, ``Part III.``.
_PART_LABEL = re.compile(r"^(?:section|chapter|part|appendix)\s+(\w{1,4})\s*[:.\-–]\s+", re.I)


def without_part_references(candidates: list[Candidate], body: Body) -> list[Candidate]:
    """Without the lines of the body's size that name a part of the document by its label,
    its number and its name (``Section 3: Managerial Process Plan``) where a larger heading on
    another page is that part (``3. Managerial Process Plans``: the same number, the name's
    first two words): the list of the document's parts in its introduction, each over a
    sentence saying what that part holds (an IEEE project plan's ``Document Structure``, six
    bold lines under it), refers to them, as underlined lines naming a larger heading are a
    contents page's links (``_named_larger``)."""
    parts: dict[tuple[str, str], set[int]] = {}
    for c in candidates:
        if is_larger(c.size, body) and c.number is not None:
            parts.setdefault(_part(c.number[0], c.text), set()).add(c.key[0])
    kept: list[Candidate] = []
    for c in candidates:
        label = _PART_LABEL.match(c.text)
        if label is not None and not is_larger(c.size, body):
            named = _part(label.group(1), c.text[label.end() :])
            if parts.get(named, set()) - {c.key[0]}:
                continue
        kept.append(c)
    return kept


def _part(number: str, text: str) -> tuple[str, str]:
    """A part's number and the first two words of its name (its number off):
    ``("3", "managerial process")`` for ``3. Managerial Process Plans``."""
    words = normalised(text).split()
    if words and section_number(text) is not None:
        words = words[1:]
    return number.casefold(), " ".join(words[:2])


def without_label_runs(candidates: list[Candidate]) -> list[Candidate]:
    """Without runs of three or more unnumbered headings with no text between them: the labels
    of a diagram, the lines of a cover page, a table's header cells. A ``Page 232`` heading
    (``candidates.names_a_page_beyond``) is numbered like a section: under a new chapter and
    section, the three in a row are a stack of headings, not labels."""
    kept: list[Candidate] = []
    run: list[Candidate] = []
    for candidate in [*candidates, None]:
        follows = (
            candidate is not None
            and run
            and candidate.number is None
            and not _cjk_enumerated(candidate.text)
            and not form_part(candidate.text)
            and page_reference(candidate.text) is None
            and candidate.key == (run[-1].key[0], run[-1].key[1] + run[-1].lines)
        )
        if follows:
            run.append(candidate)  # type: ignore[arg-type]
            continue
        if len(run) < RUN:
            kept.extend(run)
        run = []
        if candidate is None:
            break
        if candidate.number is None and not (
            _cjk_enumerated(candidate.text)
            or form_part(candidate.text)
            or page_reference(candidate.text) is not None
        ):
            run = [candidate]
        else:
            kept.append(candidate)
    return kept


#: How Chinese documents number their parts: ``第四节`` (section four), ``第2章``, ``一、``,
#: ``（三）``, ``1、`` (an ideographic comma after the number).
_CJK_ENUMERATION = re.compile(
    r"\s*(?:第\s*[一二三四五六七八九十百零〇\d]+\s*[章节節部篇条條]|[一二三四五六七八九十]+\s*、"
    r"|[（(]\s*[一二三四五六七八九十]+\s*[）)]|\d{1,2}\s*、)"
)


def _cjk_enumerated(text: str) -> bool:
    """The line opens with a Chinese part's number (``第四节 财务报表``, ``一、财务报表``,
    ``1、合并资产负债表``): numbered, though ``section_number`` reads only Western numbers. A
    quarterly report from WPS Office sets these three one under the other at 16, 12 and 10.5
    pt; taken for a run of three unnumbered labels (a cover's lines, an address), all went.

    >>> _cjk_enumerated("第四节 财务报表"), _cjk_enumerated("（二）重大资产出售事项进展")
    (True, True)
    >>> _cjk_enumerated("公司报告期不存在证券投资。"), _cjk_enumerated("2018 年第一季度报告")
    (False, False)
    """
    return _CJK_ENUMERATION.match(text) is not None


def consistent(candidates: list[Candidate]) -> list[Candidate]:
    """Drop numbered lists taken for chapters, and body-type numbered lines that do not
    continue the document's numbering."""
    restarts = _restarts(candidates)
    kept: list[Candidate] = []
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


#: A part numbered in Roman capitals: ``IV. ALCALOSES MÉTABOLIQUES``.
_ROMAN_NUMBERED = re.compile(r"\s*[IVXL]{1,5}\.\s")


def _restarts(candidates: list[Candidate]) -> set[float]:
    """The sizes at which single numbers start again (``1 2 3`` ... ``1 2``): a numbered list
    taken for chapters. Not when a larger numbered heading comes between: an outline's ``1.``
    ``2.`` under each lettered section (``B.`` at 11 pt over ``1.`` at 10 pt, then ``II.`` /
    ``A.`` over a new ``1.``). An unnumbered heading between does not do: a form's steps
    ``1. Aprovar`` ``2. Negar`` under each of its sections are lists all the same."""
    restarts: set[float] = set()
    last_single: dict[float, int] = {}
    parent_since: set[float] = set()  # sizes a larger numbered heading came after, since
    for candidate in candidates:
        if candidate.number is not None or _ROMAN_NUMBERED.match(candidate.text):
            parent_since |= {size for size in last_single if candidate.size > size + 0.5}
        number = candidate.number
        if number is None or len(number) != 1 or not number[0].isdigit():
            continue
        value = int(number[0])
        size = candidate.size
        if size in last_single and value <= last_single[size] and size not in parent_since:
            restarts.add(size)
        last_single[size] = value
        parent_since.discard(size)
    return restarts


def _continues(number: tuple[str, ...] | None, seen: list[tuple[str, ...]]) -> bool:
    """``3.1.2`` continues ``3.1`` (first child) or ``3.1.1`` (next sibling); ``1`` opens the
    numbering (a body-type ``1`` is a candidate only in an outline: ``body_outline``)."""
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


def without_figure_labels(
    candidates: list[Candidate], pages: list[Page], skip: set[Key], body: Body
) -> list[Candidate]:
    """Without the labels of drawings in a document whose headings are numbered: unnumbered
    lines in a type no numbered heading has (RTKLIB's figures in Times and Arial at 10-11 pt
    among sections in Lucida Sans at 12 and 14 pt, a formula's bold symbols), set in and with
    no prose after them (:func:`_figure_label`). A centred heading in a numbered heading's type
    stays (GeoBase's ``Point Events`` over its diagram)."""
    numbered = {(round(c.size), c.bold) for c in candidates if c.number is not None}
    if not numbered:
        return candidates
    margin = text_margin(pages, body)
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
    if line.left < margin + TITLE_INDENT * body.size:
        return False
    after = next(
        (page.lines[j] for j in range(i + 1, len(page.lines)) if (page.index, j) not in skip),
        None,
    )
    if after is None:
        return True
    at_margin = abs(after.left - margin) < body.size
    return not at_margin and words(after.text) < PROSE_WORDS


#: The one word an admonition's label is (DocBook's, Asciidoctor's, Sphinx's boxes): in the
#: singular, a box's label; a section of remarks says ``Notes``.
_ADMONITIONS = frozenset({"note", "important", "warning", "caution", "tip", "hint", "attention",
                          "danger", "remarque", "hinweis", "achtung", "nota", "aviso"})  # fmt: skip
_ADMONITION_INDENT = 2  # ems the label is set in from the text's margin, at least


def without_admonition_labels(
    candidates: list[Candidate], pages: list[Page], body: Body
) -> list[Candidate]:
    """Without an admonition's label: one word such as ``Note``, ``Important`` or ``Warning``,
    alone, set in from the text's margin by two ems or more, as the box it heads is (dompdf's
    print of xsltproc's DocBook man page: 14 pt bold ``Important`` and ``Note`` 65 pt in from
    the options, over their indented paragraphs). A section so named starts at the margin."""
    if not any(_admonition(c.text) for c in candidates):
        return candidates
    margin = text_margin(pages, body)
    by_index = {page.index: page for page in pages}
    return [
        c
        for c in candidates
        if not _admonition(c.text)
        or by_index[c.key[0]].lines[c.key[1]].left < margin + _ADMONITION_INDENT * c.size
    ]


def _admonition(text: str) -> bool:
    return text.strip().rstrip(":").casefold() in _ADMONITIONS


def turned_pages(pages: list[Page]) -> set[int]:
    """Pages whose lines are mostly set at an angle: a landscape page (RTKLIB's p179, a wide
    table turned on its side under ``Appendix F GNSS Signal Specifications``). There a line at
    the page's angle is upright to its reader, and may head the page like any other; elsewhere
    a line at an angle is a watermark or a margin's label."""
    return {page.index for page in pages if turned_page(page)}
