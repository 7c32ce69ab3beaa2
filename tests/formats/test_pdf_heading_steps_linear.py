"""The PDF's whole-document heading steps cost time linear in the candidates and lines they read.

Each step runs once over the whole document after its pages are read, with no deadline check
inside it: a step quadratic in what a hostile file can hold (thousands of headings, bookmarks or
lines on one page) ran for minutes past the batch's deadline, and the worker was killed with the
pages it had read. The pages here are made of ``Line`` objects, as ``read_page`` makes them, so
that each test times one step on a shape of ``n`` and of ``4 n`` (``least_growth``: about 4 for a
linear step, about 16 for a quadratic one, however busy the machine is).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bench.cputime import least_growth
from skills.formats.pdf.headings import body_type, from_bookmarks, with_bookmarked_types
from skills.formats.pdf.headings.candidates import find_candidates
from skills.formats.pdf.headings.contents import listed
from skills.formats.pdf.headings.model import Body, Candidate, Heading, Key
from skills.formats.pdf.headings.refusals import without_contents
from skills.formats.pdf.headings.typography import _with_section_labels
from skills.formats.pdf.headings.wording import normalised
from skills.formats.pdf.lines import Line, Page

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0
BODY = Body(10.0, 400, False)
PROSE = "The body text goes on over the whole line of the page, as prose does here"


def line(page: int, text: str, top: float, size: float = 10.0, bold: bool = False) -> Line:
    right = 72.0 + len(text) * size * 0.5
    return Line(page, text, size, 700 if bold else 400, bold, True, top, 72.0, right=right)


def page_of(index: int, lines: list[Line]) -> Page:
    return Page(index, tuple(lines), sum(len(ln.text) for ln in lines), False, False)


def contents_pairs(n: int) -> list[Candidate]:
    """``n`` candidates in pairs with no text between, on pages of eight, all opening with the
    same three words, in one type: none repeats another, and each was compared with all."""
    return [
        Candidate(
            (k // 8, k % 8 // 2 * 3 + k % 2), f"Alpha beta gamma {k}", 1, 14, True, True, None
        )
        for k in range(n)
    ]


def test_a_contents_page_is_looked_for_in_time_linear_in_the_candidates() -> None:
    """12,000 such candidates took 15 s: each entry was compared with every candidate of its
    opening words."""
    entries = [Candidate((0, k), f"Part {k} of it", 1, 10.0, True, True, None) for k in range(3)]
    later = [Candidate((2, k), f"Part {k} of it", 1, 14.0, True, True, None) for k in range(3)]
    assert without_contents(entries + later) == later  # (the rule still holds)
    assert least_growth(contents_pairs, 1_000, without_contents, MAX_GROWTH) < MAX_GROWTH


def bookmarked_page(n: int) -> tuple[list[Page], dict[int, list[tuple[int, str]]]]:
    """One page of ``n`` lines and ``n`` bookmarks to it, none of which it prints."""
    lines = [line(0, f"Line number {k} of the page", 12.0 * k) for k in range(n)]
    return [page_of(0, lines)], {0: [(1, f"Missing title {k}") for k in range(n)]}


def test_bookmarks_are_found_in_time_linear_in_their_number_and_their_pages_lines() -> None:
    """1,000 bookmarks to a page of 1,000 lines took 2 s, 4,000 to 4,000 lines 34 s: each
    title was compared with every line, each line normalised again for each title."""
    pages = [page_of(0, [line(0, "1 Intro", 0), line(0, "Scope of", 12), line(0, "it", 24)])]
    found = from_bookmarks(pages, {0: [(1, "Intro"), (2, "Scope of it")]}, set())
    assert [(key, h.level, h.lines) for key, h in found.items()] == [((0, 0), 1, 1), ((0, 1), 2, 2)]
    run = lambda shape: from_bookmarks(shape[0], shape[1], set())  # noqa: E731
    assert least_growth(bookmarked_page, 300, run, MAX_GROWTH) < MAX_GROWTH


def labelled_sections(n: int) -> tuple[list[Candidate], list[Page], Counter[str]]:
    """``n`` sections, each under a 14 pt heading, each with a bold label in capitals over
    text; each label is seen in three sections (a man page's ``SYNOPSIS``)."""
    pages, found = [], []
    for k in range(n):
        lines = [
            line(k, f"Heading of part {k}", 0, 14.0, bold=True),
            line(k, PROSE, 20),
            line(k, f"LABEL X{k // 3} OK", 40, bold=True),
            line(k, PROSE, 55),
        ]
        pages.append(page_of(k, lines))
        found.append(Candidate((k, 0), lines[0].text, 1, 14.0, True, True, None))
    counts = Counter(normalised(ln.text) for page in pages for ln in page.lines)
    return found, pages, counts


def test_labels_seen_once_a_section_are_found_in_time_linear_in_the_sections() -> None:
    """5,000 labels took 11 s: each label's sections were checked against every larger
    candidate of the document."""
    found, pages, counts = labelled_sections(6)
    added = _with_section_labels(found, pages, BODY, set(), counts)
    assert [c.text for c in added if c not in found] == ["LABEL X0 OK"] * 3 + ["LABEL X1 OK"] * 3
    run = lambda shape: _with_section_labels(shape[0], shape[1], BODY, set(), shape[2])  # noqa: E731
    assert least_growth(labelled_sections, 1_000, run, MAX_GROWTH) < MAX_GROWTH


def numbered_page(n: int) -> list[Page]:
    """One page of ``n`` bold numbered lines one under the other, then prose."""
    numbers = (f"{k % 900 + 1}.{k // 900 + 1}" for k in range(n))
    lines = [
        line(0, f"{number} Topic of the clause", 12.0 * k, bold=True)
        for k, number in enumerate(numbers)
    ]
    lines += [line(0, f"{PROSE} {k}", 12.0 * (n + 2 + k)) for k in range(n // 2)]
    return [page_of(0, lines)]


def test_numbered_lines_in_a_row_are_read_in_time_linear_in_their_number() -> None:
    """Each numbered line measured the block of lines in its type under it, to the page's
    end (4,000 in a row on one page: 16 million comparisons)."""
    pages = numbered_page(1_000)
    body = body_type(pages)
    run = lambda shape: find_candidates(shape, body, set(), Counter())  # noqa: E731
    assert least_growth(numbered_page, 1_000, run, MAX_GROWTH) < MAX_GROWTH


def spaced_bold_page(n: int) -> list[Page]:
    """One page of ``n`` short bold lines a line's space apart, then prose: each may wrap onto
    the next, which asks how far right the page's text reaches."""
    lines = [line(0, f"Label {k} set bold", 25.0 * k, bold=True) for k in range(n)]
    lines += [line(0, f"{PROSE} {k}", 25.0 * n + 12.0 * k) for k in range(n // 2)]
    return [page_of(0, lines)]


def test_lines_that_may_wrap_are_measured_in_time_linear_in_the_pages_lines() -> None:
    """Each line that may go on in the next looked at every line of its page for the text's
    right edge (4,000 such lines on one page: 1.6 s, quadratic)."""
    body = body_type(spaced_bold_page(10))
    run = lambda shape: find_candidates(shape, body, set(), Counter())  # noqa: E731
    assert least_growth(spaced_bold_page, 1_000, run, MAX_GROWTH) < MAX_GROWTH


def bookmarked_types(n: int) -> tuple[list[Page], dict[Key, Heading]]:
    """``n`` types of bookmarked headings (two each, each type its own size), and on each page
    a line in its heading's type that no bookmark names, over text."""
    pages, found = [], {}
    for k in range(2 * n):
        size = 12.0 + (k // 2) * 0.5
        lines = [
            line(k, f"Bookmarked part {k}", 0, size, bold=True),
            line(k, PROSE, 20),
            line(k, f"Unmarked part {k}", 40, size, bold=True),
            line(k, PROSE, 60),
        ]
        pages.append(page_of(k, lines))
        found[(k, 0)] = Heading(1 + k // 2 % 3, lines[0].text, 1)
    return pages, found


def test_bookmarked_types_are_widened_in_time_linear_in_their_number() -> None:
    """Each type of bookmarked heading looked at every line found in any such type (5,000
    types: 25 million looks)."""
    pages, found = bookmarked_types(3)
    widened = with_bookmarked_types(pages, found, BODY, set())
    assert [widened[(k, 2)].text for k in range(6)] == [f"Unmarked part {k}" for k in range(6)]
    run = lambda shape: with_bookmarked_types(shape[0], shape[1], BODY, set())  # noqa: E731
    assert least_growth(bookmarked_types, 500, run, MAX_GROWTH) < MAX_GROWTH


def code_heading_page(n: int) -> list[Page]:
    """One page: a 14 pt bold heading in a text face, then ``n`` bold monospaced lines in that
    size, each ending in a comma (a heading naming code that goes on in the next line), then
    prose: one heading of ``n`` lines."""
    lines = [line(0, "Font Configuration", 50.0, 14.0, bold=True)]
    lines += [
        replace(line(0, f"<tag{k} name=x{k},", 80.0 + 16.0 * k, 14.0, bold=True), mono=True)
        for k in range(n)
    ]
    lines += [line(0, f"{PROSE} {k} here", 80.0 + 16.0 * n + 14.0 * k, 12.0) for k in range(n)]
    return [page_of(0, lines)]


def test_a_heading_of_many_lines_is_joined_in_time_linear_in_its_lines() -> None:
    """A heading's lines were joined by searching the text joined so far for a dash at its end,
    once per line: a heading naming code that went on over 4,000 lines took 3 s."""
    body = Body(12.0, 400, False)
    found = find_candidates(code_heading_page(3), body, set(), Counter())
    assert [c.text for c in found][-1] == "<tag0 name=x0, <tag1 name=x1, <tag2 name=x2,"
    run = lambda shape: find_candidates(shape, body, set(), Counter())  # noqa: E731
    assert least_growth(code_heading_page, 500, run, MAX_GROWTH) < MAX_GROWTH


def code_run_over_a_label(n: int) -> list[Page]:
    """One page: a 14 pt bold heading over prose, then ``n`` bold monospaced lines in that size,
    each going on in the next (which starts in lower case), then a 6 pt label: the run is no
    heading (no text of the body's size under it), refused from each of its lines in turn."""
    lines = [line(0, "Font Configuration", 50.0, 14.0, bold=True), line(0, PROSE, 66.0, 12.0)]
    lines += [
        replace(line(0, f"tag{k} name=x{k}", 80.0 + 16.0 * k, 14.0, bold=True), mono=True)
        for k in range(n)
    ]
    lines.append(line(0, "fig", 90.0 + 16.0 * n, 6.0))
    return [page_of(0, lines)]


def test_a_run_of_lines_naming_code_is_measured_once_whatever_follows_it() -> None:
    """Each line of the run measured the run to its end again (and the block of lines in its
    type): 4,000 such lines over a figure's label took 5.6 s."""
    body = Body(12.0, 400, False)

    def run(shape: list[Page]) -> list[Candidate]:
        return find_candidates(shape, body, set(), Counter())

    assert [c.text for c in run(code_run_over_a_label(3))] == ["Font Configuration"]
    assert least_growth(code_run_over_a_label, 500, run, MAX_GROWTH) < MAX_GROWTH


def contents_naming_every_line(n: int) -> list[Page]:
    """A contents page of ``n`` entries, then pages of 40 lines each, every line one of them
    (a contents list that names every line of the document: eighth pass, round 20's rule)."""
    entry = "The body text {} goes on over the whole line of the page as prose does"
    first = [line(0, "Contents", 0, 14.0, bold=True)]
    first += [line(0, entry.format(k) + " ..... 2", 12.0 * (k + 1)) for k in range(n)]
    pages = [page_of(0, first)]
    for start in range(0, n, 40):
        index = 1 + start // 40
        texts = [entry.format(k) for k in range(start, min(n, start + 40))]
        pages.append(page_of(index, [line(index, t, 14.0 * j) for j, t in enumerate(texts)]))
    return pages


def test_a_contents_list_naming_every_line_is_matched_in_time_linear_in_its_entries() -> None:
    """Each line is compared with the next four entries only (and, set over two lines, with the
    line after it): 4,000 entries naming 4,000 lines grow as the entries do."""
    found = listed(contents_naming_every_line(50), BODY, set(), [])
    assert len(found) == 51 and found[0].text == "Contents"
    run = lambda pages: listed(pages, BODY, set(), [])  # noqa: E731
    assert least_growth(contents_naming_every_line, 1_000, run, MAX_GROWTH) < MAX_GROWTH
