"""The page-by-page reading: each line larger or bolder than the body (or numbered) that reads
like a heading and heads text is a candidate, with the lines it spans; a term over its
definition, a sentence set large, an address block or a list item's next line is not."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from skills.formats.pdf.headings.body import followed_by_text, is_larger, monospaced_body, prominent
from skills.formats.pdf.headings.model import Body, Candidate, Key
from skills.formats.pdf.headings.refusals import RUN
from skills.formats.pdf.headings.wording import (
    CAPTION,
    FULL_STOPS,
    ITEM,
    PHRASE_GOES_ON,
    REPEATED,
    SPACE,
    chapter_number,
    chapter_start,
    goes_on,
    hangs,
    heading_like,
    joined,
    normalised,
    not_a_title,
    page_reference,
    section_number,
    two_sentences,
    words,
)
from skills.formats.pdf.lines import Line, Page

_ENDS_TOC_ENTRY = re.compile(r"\s\d{1,4}$")


_TOC_SHARE = 3  # a contents page: a third of its lines or more end in a page number


_TERM_INDENT = 2  # ems a definition is set in under its term


LABEL_WORDS = 4  # words of a label that opens a heading (``Example 1:``, ``Part II:``)


def find_candidates(
    pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[Candidate]:
    found: list[Candidate] = []
    code_body = monospaced_body(pages, body)
    code = _code_headings(pages, body, skip)
    again = _seen_again_larger(pages, body, skip)
    series = _numbered_series(pages, skip)
    for page in pages:
        if page.garbage or page.invisible:
            continue
        lines = page.lines
        toc_entries = sum(bool(_ENDS_TOC_ENTRY.search(line.text)) for line in lines)
        contents = toc_entries >= 3 and toc_entries * _TOC_SHARE >= len(lines)
        top = _page_title(page, skip)
        edges = _Edges(page)
        wraps = _CodeWraps(page, code)
        blocks = _Blocks(page, skip)
        i = 0
        while i < len(lines):
            line = lines[i]
            strong = prominent(line, body)
            label = strong and _label_over_name(page, i, skip, counts)
            names_code = (page.index, i) in code
            like = (
                names_code
                or heading_like(line, counts)
                or (normalised(line.text) in again and heading_like(line, Counter()))
                or _numbered_label(line, body, counts)
                or names_a_page_beyond(line.text, len(pages))
            )
            if (page.index, i) in skip or not (label or like):
                i += 1
                continue
            if not_a_title(line, code_body) and not _file_title(line, body) and not names_code:
                i += 1
                continue  # a line of code, a path or an address, the end of a cut line
            if _goes_on_item(lines, i) or (page.form and len(line.text.split()) == 1):
                i += 1
                continue  # an item's next line; a form's one-word label (Amount, Signature)
            if _goes_on_caption(lines, i):
                i += 1
                continue
            if _second_line(page, i, skip):
                i += 1
                continue  # a long heading's next line: ``or thick line shows through ...``
            number = section_number(line.text) or series.get((page.index, i))
            if not strong and (number is None or len(number) < 2 or words(line.text) > 10):
                i += 1
                continue
            if contents and _ENDS_TOC_ENTRY.search(line.text):
                i += 1
                continue
            count = 2 if label else _run(page, i, line, body, skip, counts, edges) if strong else 1
            count = wraps.count(i, count) if names_code else count
            if number is None and _defines(page, i + count - 1, body):
                i += count  # a term over its definition, set in under it (a man page's tag)
                continue
            if number is None and _ends_a_sentence_below(page, i + count - 1, skip):
                i += count + 1  # the first line of a sentence set large (a slide's callout)
                continue
            block = 0 if number is not None else blocks.count(i)  # (see _block)
            if number is None and block >= RUN and block > count:
                i += block  # three lines or more of one type: an address, a cover's lines
                continue
            over_chart = i == top and _figures_follow(page, i + count)
            if (
                number is None
                and not over_chart
                and not followed_by_text(page, i + count - 1, body, skip)
            ):
                i += 1
                continue
            start, count = chapter_start(page, i, count, skip)
            start, count = _wrapped_above(page, start, count, skip, counts)
            text = joined(page, start, count)
            number = number or section_number(text) or chapter_number(text)
            if number is None and two_sentences(text):
                i = start + count
                continue  # a bold paragraph's lines: ``... são obrigatórios. Observe que ...``
            if number is None and _exclaims(text, line, body):
                i = start + count
                continue  # ``Neste ponto, seu formulário de registro está completo!``
            if number is None and _cut_off(page, start + count - 1, text, skip):
                i = start + count
                continue  # a bold sentence's first line: ``... do pré-escolar / jardim de``
            _drop_swallowed(found, (page.index, start))
            found.append(
                Candidate(
                    (page.index, start), text, count, line.size, line.bold, strong, number,
                    line.rotated,
                )
            )  # fmt: skip
            i = start + count
    return found


_SERIES_LINE = re.compile(r"^([^\W\d_]{3,20}) (\d{1,3})$")
_SERIES = 3  # lines of one word numbered 1, 2, 3... at least


def _numbered_series(pages: list[Page], skip: set[Key]) -> dict[Key, tuple[str, ...]]:
    """The lines of a word and a number that count 1, 2, 3... through the document in one
    type, with their numbers: a homework's ``Problem 1`` to ``Problem 10`` in Word's stroked
    bold, each over its bold questions (a block of five bold lines, an address's shape, and
    refused as one), are numbered like chapters. A caption (``Table 1``) is no heading anyway."""
    seen: dict[str, list[tuple[Key, Line, int]]] = {}
    for page in pages:
        for i, line in enumerate(page.lines if not page.garbage else ()):
            match = _SERIES_LINE.match(line.words.strip())
            if match is not None and (page.index, i) not in skip:
                seen.setdefault(match.group(1).casefold(), []).append(
                    ((page.index, i), line, int(match.group(2)))
                )
    numbered: dict[Key, tuple[str, ...]] = {}
    for places in seen.values():
        counted = [n for _, _, n in places] == list(range(1, len(places) + 1))
        one_type = len({(round(line.size), line.bold) for _, line, _ in places}) == 1
        if len(places) >= _SERIES and counted and one_type:
            numbered.update({key: (str(n),) for key, _, n in places})
    return numbered


def _code_headings(pages: list[Page], body: Body, skip: set[Key]) -> set[Key]:
    """The bold monospaced lines that are headings naming code: set at a size the document's
    bold headings in its text face use too, larger than the body and than its listings, short,
    and at that type fewer than three times (fontconfig's fonts-conf through WeasyPrint:
    ``<fontconfig>``, ``<dir prefix="default" salt="">`` in 14 pt bold DejaVu Sans Mono, as
    ``Font Configuration`` is in 14 pt bold DejaVu Serif, over 12 pt text and 12 pt listings).
    However much such a line reads as code, its type says heading."""
    listings: Counter[float] = Counter()
    headings: set[float] = set()
    for page in pages:
        for line in page.lines:
            size = round(line.size * 2) / 2
            if line.mono and not line.bold:
                listings[size] += len(line.text)
            elif line.bold and not line.mono and is_larger(line.size, body):
                headings.add(size)
    listing = max(listings, key=listings.__getitem__, default=0.0)
    sizes = {size for size in headings if size > max(listing, body.size) + 0.5}
    if not sizes:
        return set()
    found: dict[str, list[Key]] = {}
    for page in pages:
        for i, line in enumerate(page.lines):
            text = line.text.strip()
            if (
                (page.index, i) not in skip
                and line.mono
                and line.bold
                and line.uniform
                and round(line.size * 2) / 2 in sizes
                and 0 < len(text) <= _CODE_HEADING_CHARS
                and not _reads_as_prose(text)
            ):
                found.setdefault(normalised(text), []).append((page.index, i))
    return {key for keys in found.values() if len(keys) < REPEATED for key in keys}


_CODE_HEADING_CHARS = 80  # a heading naming code is one element, call or command line


#: Words a sentence has and a name in code does not (with the words no phrase ends on).
_PROSE_MARKS = PHRASE_GOES_ON | frozenset({"is", "are", "was", "were", "be", "not", "when", "does"})


_TAGS_AND_VALUES = re.compile(r"""<[^<>]*>|"[^"]*"|'[^']*'""")


def _reads_as_prose(text: str) -> bool:
    """Outside its tags and quoted values, the line has a word of a sentence: a question that
    opens with a name in code (htmldoc's FAQ: ``XPointer is undefined or unknown when I compile
    xfig``, its first word in Courier), not a name (``<or>, <and>, <plus>``, ``<include
    ignore_missing="no">``)."""
    bare = _TAGS_AND_VALUES.sub(" ", text)
    return any(word in _PROSE_MARKS for word in re.findall(r"[a-z]+", bare))


class _CodeWraps:
    """How many lines a heading naming code spans: it goes on over the next such lines that
    continue it (``<test qual="any" name="property" target="default"`` / ``compare="eq">``).
    Where each line's run of such lines ends is found once per page, from its last line up: a
    heading refused after its run was measured (nothing of the body's size under it) had the
    run measured again from each of its lines (4,000 in a row on one page: 5.6 s)."""

    def __init__(self, page: Page, code: set[Key]) -> None:
        self.page, self.code = page, code
        self._reach: list[int] | None = None  # (the page's lines: only when one names code)

    def count(self, i: int, count: int) -> int:
        """The lines from ``i`` the heading spans, ``count`` of them at least."""
        if self._reach is None:
            self._reach = self._reaches()
        last = min(i + count, len(self.page.lines)) - 1
        return max(count, self._reach[last] - i + 1)

    def _reaches(self) -> list[int]:
        """Each line's last line reached by lines that continue it, one after the other."""
        lines = self.page.lines
        reach = list(range(len(lines)))
        for j in range(len(lines) - 2, -1, -1):
            if self._goes_on(j + 1):
                reach[j] = reach[j + 1]
        return reach

    def _goes_on(self, k: int) -> bool:
        """Line ``k`` names code and continues the line above it, with no gap."""
        if (self.page.index, k) not in self.code:
            return False
        above, below = self.page.lines[k - 1], self.page.lines[k]
        return goes_on(above.text, below.text) and not below.top - above.top > above.size * 1.6


def _numbered_label(line: Line, body: Body, counts: Counter[str]) -> bool:
    """A numbered section (``2 Treatment rules:``, ``2.1 Basic IGate rules:``), set larger than
    the body, is a heading though it ends in a colon: an unnumbered label (``Example 1:``) is
    one only over a title in its type. An OpenOffice specification's heading styles ended 9 of
    its 34 headings so, one of them a chapter's."""
    text = line.text.strip()
    number = section_number(text)
    if not text.endswith(":") or number is None:
        return False
    if not is_larger(line.size, body):
        return False
    return heading_like(replace(line, text=text[:-1]), counts)


def _exclaims(text: str, line: Line, body: Body) -> bool:
    """A line of the body's size that ends in ``!`` is an exclamation set in bold, not a
    heading (``Neste ponto, seu aplicativo de Registro de Aluno está completo!`` in Word 2010's
    guide): a heading that exclaims is set larger (a notice's ``FEEDBACK WELCOME!``)."""
    return text.rstrip().endswith(("!", "！")) and not is_larger(line.size, body)


def _cut_off(page: Page, last: int, text: str, skip: set[Key]) -> bool:
    """The heading's text ends on a word no phrase ends on (``of``, ``de``, ``und``), in lower
    case, and the next line, in its type and with no gap, was not taken in (it ends like a
    sentence or a label): the first line of a sentence set in bold (Word 2010's guide: ``2.
    Especifique se você está matriculando um novo aluno do pré-escolar / jardim de`` over
    ``infância ou um aluno da 1ª à 12ª série:``). A heading ending so with nothing of its type
    under it stays (a form's ``Date Range - Search by`` over its fields)."""
    split = text.split()
    if not split or split[-1] not in PHRASE_GOES_ON:
        return False
    if last + 1 >= len(page.lines) or (page.index, last + 1) in skip:
        return False
    line, below = page.lines[last], page.lines[last + 1]
    same = abs(below.size - line.size) <= 0.3 and below.bold == line.bold
    return same and 0 < below.top - line.top <= line.size * 1.6


def _drop_swallowed(found: list[Candidate], start: Key) -> None:
    """Without the last candidate when the next one starts at its line: a ``Chapter 1`` line
    that was a heading of its own until the line under it took it in (OpTeX's ``Chapter 1`` /
    ``User documentation``). Both kept, the chapter's number was seen twice, and two
    ``1``s read as a numbered list's restart dropped every chapter of that type."""
    if found and found[-1].key == start:
        found.pop()


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
    short = words(line.text) <= LABEL_WORDS
    return (
        same and close and short and (page.index, i + 1) not in skip and heading_like(below, counts)
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
                larger[normalised(line.text)] += is_larger(line.size, body)
    return {text for text, n in seen.items() if n >= REPEATED and larger[text] == n}


def _goes_on_item(lines: tuple[Line, ...], i: int) -> bool:
    """The line goes on with a list item above it: set in past the item's mark, as are the
    lines between (``• いかにして頻度の少ない単語の字句`` / ``的な情報を学習するか？``)."""
    line = lines[i]
    for j in range(i - 1, max(-1, i - 4), -1):
        above = lines[j]
        if abs(above.size - line.size) > 0.5:
            return False
        if ITEM.match(above.text.strip()) and above.left < line.left - 1:
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
        if CAPTION.match(above.text):
            return True
    return False


def _run(
    page: Page,
    i: int,
    line: Line,
    body: Body,
    skip: set[Key],
    counts: Counter[str],
    edges: _Edges,
) -> int:
    """How many lines from ``i`` one heading spans: the next one or two lines of the same type
    that do not open a numbered heading of their own."""
    count = 1
    for j in range(i + 1, min(i + 3, len(page.lines))):
        nxt = page.lines[j]
        if (page.index, j) in skip or abs(nxt.size - line.size) > 0.3 or nxt.bold != line.bold:
            break
        if section_number(nxt.text) is not None:
            break
        bracket = _in_brackets(page, i, j)
        if not (bracket or heading_like(nxt, counts) or _bracketed_tail(nxt, counts)):
            break
        above = page.lines[j - 1]
        flush = _flush_right(above, nxt)
        wraps = (
            bracket or goes_on(above.text, nxt.text) or hangs(above, nxt)
            or _filled(edges, above, nxt)
        )  # fmt: skip
        if not (wraps or flush):
            break
        if nxt.left - above.left >= line.size and not (hangs(above, nxt) or flush):
            break  # set in under a short line: an entry under its heading, not its second line
        if nxt.top - page.lines[j - 1].top > _wrap_gap(line, nxt):  # a gap: another heading
            break
        count += 1
    return count


_FLUSH = 1.0  # points two lines' right edges may differ by and still be set flush right
_RAGGED = 0.5  # ems their left edges differ by, at least: a ragged left edge


def _flush_right(above: Line, below: Line) -> bool:
    """Two lines set flush right: ending at one right edge, their left edges ragged (ConTeXt's
    margin headings wrapped in the margin: ``Broken`` / ``Hyphens``, ``Maximum`` / ``Cost``),
    one heading over two lines, though neither goes on the other as words do."""
    return (
        abs(above.right - below.right) <= _FLUSH
        and abs(above.left - below.left) >= _RAGGED * above.size
    )


_WRAPPED_BEFORE_NOTE = 5  # words of a heading's first line before a note in brackets goes on


def _in_brackets(page: Page, i: int, j: int) -> bool:
    """Line ``j`` opens a bracket after the heading's lines from ``i``, or goes on inside one
    they left open: an InDesign chapter's ``1. Alcalose métabolique de contraction`` /
    ``(correspond aux causes d’alcalose métabolique s’accompagnant d’une DEC,`` / ``qui est le
    facteur de maintien principal), avec hypoTA`` in one bold type, a note the heading goes on
    with (no heading alone, and not set in by an em under the line above). Only under a
    heading's line long enough to have wrapped (five words)."""
    if len(page.lines[i].text.split()) < _WRAPPED_BEFORE_NOTE:
        return False  # a diagram's label boxes: ``Toponymy`` / ``(external`` / ``model)``
    text = " ".join(line.text for line in page.lines[i:j])
    return page.lines[j].text.lstrip().startswith("(") or text.count("(") > text.count(")")


_WRAP_GAP = 1.6  # sizes from one line of a heading to its next, top to top, at most
_LOOSE_WRAP_GAP = 1.8  # ... when the next line goes on in lower case


def _wrap_gap(line: Line, following: Line) -> float:
    """How far down a heading's next line may start: 1.6 times its size, or 1.8 when that line
    starts in lower case, which no heading of its own does in a document's headings' type: an
    HTML printer's headings keep the page's loose line height (pandoc's style through
    wkhtmltopdf: ``Notes on resolvability of user and group`` / ``names`` 1.67 sizes apart)."""
    loose = following.text.strip()[:1].islower()
    return line.size * (_LOOSE_WRAP_GAP if loose else _WRAP_GAP)


_NOTE_WORDS = 5  # words of a note in brackets that a wrapped heading may end with


def _bracketed_tail(line: Line, counts: Counter[str]) -> bool:
    """A short note in brackets that a wrapped heading ends with (Word 2010's guide: ``Etapa 3:
    Preencher o formulário de inventário de triagem inicial`` / ``(condicional)``): no heading
    alone (``heading_like``), but the heading's last line when it wraps there."""
    text = line.text.strip()
    if not (text.startswith("(") and text.endswith(")")) or words(text) > _NOTE_WORDS:
        return False
    inner = replace(line, text=text[1:-1].strip(), note=0)
    return bool(inner.text) and heading_like(inner, counts)


def _ends_a_sentence_below(page: Page, last: int, skip: set[Key]) -> bool:
    """The line right under ``last``, in its type and with no gap, ends a sentence: the two are
    one sentence set large (a slide's callout ``...学習することが`` / ``...には不可欠。``)."""
    if last + 1 >= len(page.lines) or (page.index, last + 1) in skip:
        return False
    line, below = page.lines[last], page.lines[last + 1]
    same = abs(below.size - line.size) <= 0.3 and below.bold == line.bold
    close = 0 < below.top - line.top <= line.size * 1.6
    return same and close and below.text.rstrip().endswith(FULL_STOPS)


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
    after = page.lines[last + 2] if last + 2 < len(page.lines) else None
    if not close or not (
        below.left >= line.left + _TERM_INDENT * line.size or _set_in_block(line, below, after)
    ):
        return False
    if len(below.text.split()) < 3 or below.text.rstrip().endswith(";"):
        return False  # a listing under a label (``TYPES`` over ``Agraph_t;``), no definition
    return after is None or after.bold or abs(after.left - line.left) > 1  # no paragraph's 2nd


_BLOCK_INDENT = 1.5  # ems a definition set in as a block is set in, at least


def _set_in_block(line: Line, below: Line, after: Line | None) -> bool:
    """The definition under a term is set in by an em and a half or more, and its next line
    starts where its first does: a block set in (Rust for Rustaceans' ``Feature options`` over
    ``You've already seen examples of these...``, 1.7 ems in, its lines all there), not a
    paragraph whose first line is indented (its next line goes back to the margin), nor a list
    item (its next line is set in under the item's text, past the bullet)."""
    if after is None or below.left < line.left + _BLOCK_INDENT * line.size:
        return False
    close = 0 < after.top - below.top <= below.size * 2
    return close and abs(after.left - below.left) <= 1 and not ITEM.match(below.text)


def _block(page: Page, i: int, line: Line, skip: set[Key]) -> int:
    """How many lines from ``i`` are set in its type one under the other, with no gap. Only
    an unnumbered line's block is measured: it is then passed over whole when long, while a
    numbered line's was measured again from each of its lines (4,000 numbered lines in a row
    on one page: 16 million comparisons)."""
    count = 1
    for j in range(i + 1, len(page.lines)):
        nxt, above = page.lines[j], page.lines[j - 1]
        if (page.index, j) in skip or abs(nxt.size - line.size) > 0.3 or nxt.bold != line.bold:
            break
        if not 0 < nxt.top - above.top <= line.size * 1.6:
            break
        count += 1
    return count


class _Blocks:
    """``_block`` of a page's lines, a block measured once: a line inside the block measured
    last, in its first line's size and weight, has the rest of that block (the conditions read
    only the first line's type and each pair of lines). A long block of strong lines whose each
    line was refused after its block was measured (a heading naming code over lines smaller
    than the body) measured it again from each line: quadratic."""

    def __init__(self, page: Page, skip: set[Key]) -> None:
        self.page, self.skip = page, skip
        self.last: tuple[int, int] | None = None  # (first line, lines) of the block measured last

    def count(self, i: int) -> int:
        line = self.page.lines[i]
        if self.last is not None:
            start, count = self.last
            first = self.page.lines[start]
            if start < i < start + count and (line.size, line.bold) == (first.size, first.bold):
                return start + count - i
        count = _block(self.page, i, line, self.skip)
        self.last = (i, count)
        return count


def _filled(edges: _Edges, line: Line, following: Line) -> bool:
    """The line wrapped where the page's text ends: the next line starts where it starts, and
    its first word would not have fitted after it before the right edge of the page's widest
    other line (``Recommendations for the implementations of Khmer`` / ``Unicode``: no joining
    word, no indent, but a full line)."""
    words = following.text.split()
    if not words or abs(following.left - line.left) >= line.size:
        return False  # (lines set flush right, as a right-to-left sample's, all end there)
    first = (following.right - following.left) * len(words[0]) / len(following.text)
    return line.right + line.size * SPACE + first > edges.beside(line)


def names_a_page_beyond(text: str, page_count: int) -> bool:
    """A ``Page 48`` line in a document of fewer pages names a page of another document, not
    its own: an errata list or a change list heads each entry with the page it corrects (Adobe's
    errata for the PDF Reference, FrameMaker: ``Page 48``, ``Page 468 and 469`` in 11 pt bold
    over the instruction, 45 in 18 pages; its implementation notes, 11 in 11 pages). A page
    label (``PAGE 1``, which ``heading_like`` refuses) never numbers past the document's last
    page, so such a line may be a heading like any other (it must still be set apart).

    >>> names_a_page_beyond("Page 468 and 469", 18), names_a_page_beyond("PAGE 1", 2)
    (True, False)
    >>> names_a_page_beyond("Page 12 of 40", 18), names_a_page_beyond("Pages 48", 18)
    (False, False)
    """
    number = page_reference(text)
    return number is not None and number > page_count


class _Edges:
    """The right edge of a page's widest line of text other than a given one, listings aside: a
    line of code in a monospaced face may run past the margin the text wraps at (a patch's
    lines in xfig's FAQ, 18 pt past it, kept ``Arc-boxes don't appear correctly when viewing an
    exported`` / ``PostScript file with GhostScript`` two headings). The page's two widest lines
    are found once, on the first question (each line that may wrap looked at every line of its
    page: 4,000 bold lines a line apart on one page took 1.6 s, quadratic)."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._widest: tuple[list[tuple[float, Line]], list[tuple[float, Line]]] | None = None

    def beside(self, line: Line) -> float:
        if self._widest is None:
            upright = [ln for ln in self._page.lines if not ln.rotated]
            self._widest = _two_widest([ln for ln in upright if not ln.mono]), _two_widest(upright)
        text, every = self._widest
        return _other_than(text, line) or _other_than(every, line)


def _two_widest(lines: list[Line]) -> list[tuple[float, Line]]:
    """The two lines (two objects) that reach furthest right, with their right edges."""
    widest: list[tuple[float, Line]] = []
    for ln in lines:
        if any(seen is ln for _, seen in widest):
            continue
        widest.append((ln.right, ln))
        widest.sort(key=lambda item: -item[0])
        del widest[2:]
    return widest


def _other_than(widest: list[tuple[float, Line]], line: Line) -> float:
    return next((right for right, ln in widest if ln is not line), 0)


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
    return (
        not line.mono and is_larger(line.size, body) and bool(_FILE_PATH.match(line.text.strip()))
    )


def _second_line(page: Page, i: int, skip: set[Key]) -> bool:
    """The line goes on the one right above it, in its type, at its left edge and with no gap,
    which breaks off mid-sentence: on a comma, or on a colon after more words than a label's
    (xfig's FAQ questions, too long for a heading: ``X error occurs with X_SetClipRectangles as
    the Request code,`` / ``or thick line shows through arrowhead in certain orientations``;
    ``A warning about some action not found occurs, like "Warning:`` / ``Actions not found:
    ModeOpenCompound"``). It is the rest of that line's sentence, not a heading of its own. A
    numbered line above is ``_wrapped_above``'s: the two are one heading."""
    if i == 0 or (page.index, i - 1) in skip:
        return False
    above, line = page.lines[i - 1], page.lines[i]
    text = above.text.rstrip()
    broken = text.endswith(",") or (text.endswith(":") and words(text) > LABEL_WORDS)
    if not broken or section_number(text) is not None:
        return False
    same = abs(above.size - line.size) <= 0.3 and above.bold == line.bold
    return same and abs(above.left - line.left) <= 2 and 0 < line.top - above.top <= line.size * 1.6


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
    if same and close and section_number(above.text) is not None and heading_like(whole, counts):
        return start - 1, count + 1
    return start, count
