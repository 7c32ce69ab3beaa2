"""Headings from typography when bookmarks do not cover the document: the pipeline that reads the
candidates, adds the headings shown other ways, takes away what the checks refuse, and gives each
a level (from its numbering's depth, else from the rank of its type)."""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from skills.formats.conversion import in_time
from skills.formats.pdf.headings.body import (
    NOT_SMALLER,
    is_larger,
    is_text,
    monospaced_body,
    prominent,
)
from skills.formats.pdf.headings.body_type_headings import (
    body_outline,
    capitals_apart,
    centred_apart,
    with_underlined,
)
from skills.formats.pdf.headings.candidates import LABEL_WORDS, find_candidates
from skills.formats.pdf.headings.contents import listed
from skills.formats.pdf.headings.decks import is_deck, slide_titles
from skills.formats.pdf.headings.model import Body, Candidate, Heading, Key
from skills.formats.pdf.headings.refusals import (
    consistent,
    heading_text,
    in_the_prose_script,
    off_covers,
    out_of_rows,
    turned_pages,
    uncrowded,
    without_admonition_labels,
    without_contents,
    without_figure_labels,
    without_label_runs,
    without_part_references,
)
from skills.formats.pdf.headings.wording import REPEATED, normalised, words
from skills.formats.pdf.lines import Line, Page


def from_typography(
    pages: list[Page], body: Body, skip: set[Key], expired: Callable[[], bool] = lambda: False
) -> dict[Key, Heading]:
    """Headings found by type and numbering, with their levels. Raises ``OutOfTime`` when
    ``expired()`` between its steps (each is linear, but a hostile file's thousands of
    candidates can make one long): the caller keeps the pages without headings."""
    if body.size <= 0:
        return {}
    if is_deck(pages):
        return slide_titles(pages, body, skip)
    pages = _code_named(pages, body)
    counts = _repeats(pages, body)
    in_time(expired)
    found = without_figure_labels(find_candidates(pages, body, skip, counts), pages, skip, body)
    in_time(expired)
    found = _with_section_labels(found, pages, body, skip, counts)
    if not any(c.strong and c.number for c in found):
        found = sorted(found + body_outline(pages, body, skip, counts), key=lambda c: c.key)
    in_time(expired)
    found = with_underlined(found, pages, body, skip, counts)
    found = off_covers(found, pages, body, skip)
    found = in_the_prose_script(found, pages, body)
    found = without_admonition_labels(found, pages, body)
    in_time(expired)
    spread = out_of_rows(uncrowded(without_part_references(found, body), pages, body), pages)
    candidates = without_contents(without_label_runs(spread))
    in_time(expired)
    turned = turned_pages(pages)
    kept = consistent([c for c in candidates if not c.rotated or c.key[0] in turned])
    if not found:  # nothing set larger or bolder, not even a form's labels
        kept = capitals_apart(pages, body, skip, counts)
    if not any(is_larger(c.size, body) for c in kept):  # nothing set larger than the text
        kept = _merged(kept, centred_apart(pages, body, skip, counts))
    kept = listed(pages, body, skip, kept)
    return _levels(heading_text(pages, kept, skip, body))


def _merged(found: list[Candidate], added: list[Candidate]) -> list[Candidate]:
    """``found`` with those of ``added`` that start at no line of theirs, in reading order."""
    taken = {c.key for c in found}
    return sorted(found + [c for c in added if c.key not in taken], key=lambda c: c.key)


def _with_section_labels(
    found: list[Candidate], pages: list[Page], body: Body, skip: set[Key], counts: Counter[str]
) -> list[Candidate]:
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
    added: list[Candidate] = []
    largest = _Largest(found)
    for places in seen.values():
        size = places[0][1].size
        bounds = [(-1, 0)] + [key for key, _ in places]  # each under a larger heading of its own
        if all(largest.between(a, b) > size + 0.5 for a, b in itertools.pairwise(bounds)):
            added += [Candidate(key, line.text, 1, line.size, line.bold, True, None)
                      for key, line in places]  # fmt: skip
    return sorted(found + added, key=lambda c: c.key) if added else found


class _Largest:
    """The largest size of the candidates between two lines, in one lookup: a table of the
    largest over every run of 2, 4, 8... candidates in reading order (a sparse table). A scan
    of all candidates for each repeated label took 11 s for 5,000 labels."""

    def __init__(self, found: list[Candidate]) -> None:
        ordered = sorted(found, key=lambda c: c.key)
        self._keys = [c.key for c in ordered]
        self._runs = [[c.size for c in ordered]]
        width = 1
        while 2 * width <= len(ordered):
            run = self._runs[-1]
            self._runs.append([max(run[i], run[i + width]) for i in range(len(run) - width)])
            width *= 2

    def between(self, after: Key, before: Key) -> float:
        """The largest size of a candidate after ``after`` and before ``before`` (0: none)."""
        low = bisect.bisect_right(self._keys, after)
        high = bisect.bisect_left(self._keys, before)
        if low >= high:
            return 0.0
        level = (high - low).bit_length() - 1
        run = self._runs[level]
        return max(run[low], run[high - (1 << level)])


def _section_label(page: Page, i: int, body: Body, counts: Counter[str]) -> bool:
    line = page.lines[i]
    text = line.text.strip()
    return (
        text.isupper()
        and prominent(line, body)
        and not line.spread
        and sum(char.isalpha() for char in text) >= 2  # not a formula's variable, ``P``
        and counts[normalised(text)] >= REPEATED
        and words(text) <= LABEL_WORDS
        and i + 1 < len(page.lines)
        and is_text(page.lines[i + 1], body)
        and not _beside_its_text(line, page.lines[i + 1])
    )


def _beside_its_text(label: Line, following: Line) -> bool:
    """The text after a label starts to its right, no lower than the label's own line: the
    label stands beside its paragraph, an admonition's (Asciidoctor's ``CAUTION`` left of its
    warning, in each section it warns in), not over it as a man page's ``SYNOPSIS`` does."""
    return following.left > label.right and following.top < label.top + label.size * 0.5


def _code_named(pages: list[Page], body: Body) -> list[Page]:
    """The pages with the lines set larger than the body that end in a name in code's type
    (ReportLab's ``Chapter 2 Graphics and Text with pdfgen``: ``pdfgen`` in Courier) read as
    one type; at the body's size such a line is a label over code (``Return type Dimension``)."""
    changed: list[Page] = []
    for page in pages:
        if any(line.code_end and is_larger(line.size, body) for line in page.lines):
            lines = tuple(
                replace(line, uniform=True)
                if line.code_end and is_larger(line.size, body)
                else line
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
        (page.index, line.size < body.size * NOT_SMALLER, normalised(line.text))
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
    return counts - _running_heads(pages, body) - _in_code(pages, body)


def _in_code(pages: list[Page], body: Body) -> Counter[str]:
    """How many of each line's repeats are set in a monospaced face, in a document whose text is
    not, for the words set larger or bolder in a text face and fewer than three times so: a name
    in code (a reference's term, a listing's line) is not that heading seen again. Ninja's manual
    through wkhtmltopdf names its subsections ``depfile`` and ``deps`` and lists them again as
    Courier terms of its rule variables: with the contents entry, three sightings, and both
    headings were refused as labels. A label always in code (RTKLIB's man pages' ``OPTIONS`` in
    bold Courier) still counts."""
    if monospaced_body(pages, body):
        return Counter()
    code: Counter[str] = Counter()
    shown: Counter[str] = Counter()  # sightings larger or bolder, in a text face
    for page in pages:
        for line in page.lines if not page.garbage else ():
            if line.mono:
                code[normalised(line.text)] += 1
            elif prominent(line, body):
                shown[normalised(line.text)] += 1
    return Counter({text: n for text, n in code.items() if 0 < shown[text] < REPEATED})


def _running_heads(pages: list[Page], body: Body) -> Counter[str]:
    """How many of each line's repeats are a running head in the body's size naming a heading
    set larger on its page or before: a page's top or bottom line (by place, wherever the
    producer wrote it) whose words a larger line printed first. htmldoc sets each chapter's
    title in 20 pt, then its name in 11 pt atop every page of the chapter (written last on the
    page): ``Introduction`` was seen four times and taken for a label. (A head set smaller
    than the body is discounted already.)"""
    first: dict[str, int] = {}
    for page in pages:
        for line in page.lines:
            if not page.garbage and is_larger(line.size, body):
                first.setdefault(normalised(line.text), page.index)
    heads: Counter[str] = Counter()
    for page in pages:
        if page.garbage or len(page.lines) < 2:
            continue
        edges = (min(line.top for line in page.lines), max(line.top for line in page.lines))
        for line in page.lines:
            text = normalised(line.text)
            if (
                edges[0] < line.top < edges[1]
                or line.size < body.size * NOT_SMALLER
                or is_larger(line.size, body)
            ):
                continue
            if page.index >= first.get(text, len(pages)):
                heads[text] += 1
    return heads


def _levels(candidates: list[Candidate]) -> dict[Key, Heading]:
    if not candidates:
        return {}
    types = sorted({(c.size, c.bold) for c in candidates}, key=lambda t: (-t[0], -t[1]))
    rank = _without_late_types(sorted(candidates, key=lambda c: c.key), types)
    numbered = [c for c in candidates if c.number is not None]
    by_number = len(numbered) * 2 >= len(candidates) and _in_parts(numbered)
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


def _in_parts(numbered: list[Candidate]) -> bool:
    """Some heading's number has parts (``3.1``): the numbers say the levels. With one-part
    numbers only (``I.``, ``A.``, ``1.`` in an InDesign chapter, each a level of its own by its
    type), every number is one part long and all were level 1: their types say the levels."""
    return any(len(c.number or ()) > 1 for c in numbered)


def _without_late_types(
    candidates: list[Candidate], types: list[tuple[float, bool]]
) -> dict[tuple[float, bool], int]:
    """Each type's rank (1 the largest), a type that never opens its section ranked with the
    next smaller type: headings set a little larger by hand among their siblings, not a level
    between. A middle type's headings come first under their parent when they are a level
    (its sections hold the smaller ones); when, under every parent where it appears, a heading
    of the next smaller type came first, and it is the rarer of the two and no nearer in size
    to the larger type, its headings are that type's siblings. A bilingual handbook set four of
    its ~170 section titles at 11 pt among 10 pt ones (Colorado's sick leave, after its
    chapter's holiday pay and PTO sections): ranked a level of their own, the fourth held the
    330 children of every later section. A chapter set 1 pt under the others (17 pt among 18,
    over 14 pt steps) is nearer the larger type: their sibling, left to its rank.

    >>> from skills.formats.pdf.headings.model import Candidate
    >>> def c(n: int, size: float) -> Candidate:
    ...     return Candidate((0, n), f"H{n}", 1, size, True, True, None)
    >>> late = [c(0, 12), c(1, 10), c(2, 11), c(3, 10), c(4, 12), c(5, 10), c(6, 10)]
    >>> _without_late_types(late, [(12, True), (11, True), (10, True)])
    {(12, True): 1, (11, True): 2, (10, True): 2}
    >>> opening = [c(0, 12), c(1, 11), c(2, 10), c(3, 10), c(4, 12), c(5, 10)]
    >>> _without_late_types(opening, [(12, True), (11, True), (10, True)])
    {(12, True): 1, (11, True): 2, (10, True): 3}
    >>> near = [c(0, 18), c(1, 14), c(2, 14), c(3, 17), c(4, 14), c(5, 14)]
    >>> _without_late_types(near, [(18, True), (17, True), (14, True)])
    {(18, True): 1, (17, True): 2, (14, True): 3}
    """
    order = {kind: n for n, kind in enumerate(types)}
    late: set[tuple[float, bool]] = set()
    kinds = [(c.size, c.bold) for c in candidates]
    for larger, middle, smaller in zip(types, types[1:], types[2:], strict=False):
        if kinds.count(middle) >= kinds.count(smaller) or (
            middle[0] - smaller[0] > larger[0] - middle[0]  # nearer the larger: its sibling
        ):
            continue
        opens = came_late = False
        seen_smaller = seen_middle = False
        for kind in kinds:
            if order[kind] < order[middle]:  # a new parent
                seen_smaller = seen_middle = False
            elif kind == middle and not seen_middle:
                seen_middle = True
                came_late, opens = came_late or seen_smaller, opens or not seen_smaller
            elif kind == smaller:
                seen_smaller = True
        if came_late and not opens:
            late.add(middle)
    rank: dict[tuple[float, bool], int] = {}
    level = 0
    for kind in types:  # a late type takes the rank of the type after it
        level += kind not in late
        rank[kind] = level + (kind in late)
    return rank
