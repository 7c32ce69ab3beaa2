"""PDF to the engine's Markdown: the text layer page by page, with headings, clean words and no
page furniture.

PDFium (pypdfium2) reads each page's text in reading order, and for each line its type: size,
weight, place (``pdf.lines``). Then, over the whole document:

- **furniture** (running headers, footers, page numbers) is found by repetition at the same
  place across pages and left out of the text (``pdf.furniture``); the page is still counted;
- **headings** come from the bookmarks where they match the page text, else from typography
  and numbering (``pdf.headings``) merged with a tagged file's structure tree (``pdf.tags``):
  ``# 1 Overview`` and ``## 2.1 LRS model`` whether or not the producer wrote an outline; the
  first page's title line, or the metadata title when it is a real one, is the document's
  title, and what stands above it on its page (a journal's banner) or right under it with no
  gap (a subtitle, the authors) is no section;
- **words** cut at a line end by a soft hyphen (PDFium's U+FFFE) are joined, unless the
  hyphenated form appears elsewhere in the document or the second part opens with a capital or
  a digit (``Gimp-Print``, ``iodine-131m``): a real compound keeps its hyphen (and an accent
  set apart by TeX, ``Gr¨obner``, is put back on its letter);
- **tables** whose cells line up over three rows or more become pipe tables (``pdf.tables``).

Lines are kept as they are; a line clearly shorter than the page's full lines ends a paragraph
(a blank line follows), ``•`` bullets become list items, and a line that would read as Markdown
syntax is escaped. Pages are separated by Document Intelligence's page break marker, so every
chunk knows its pages.

What a text layer does not say is lost: a table whose cells wrap or do not line up is lines of
cells, code is lines of text. A page
without usable text (a scan, or fonts without a Unicode map that give symbols instead of words)
is left out, and a warning names it and the route that reads it (the ``layout`` definitions:
Azure's Document Layout skill, then this skill); an XFA form, whose fields PDFium does not
render, gets a warning too. An encrypted PDF, a broken one, or one with more pages than
``Limits.max_pages`` is an error before any page is read.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from skills.chunking import numbered_title
from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    OutOfTime,
    out_of_time,
    titled,
)
from skills.formats.markdown_text import heading, plain, table
from skills.formats.pdf.furniture import furniture
from skills.formats.pdf.headings import (
    Heading,
    Key,
    body_type,
    centred_title,
    first_page_title,
    flat,
    from_bookmarks,
    from_typography,
    is_cover,
    man_page_name,
    meaningful_title,
    normalised,
    over_numbered_headings,
    printed,
    printed_page_title,
    section_number,
    turned_page,
    with_bookmarked_types,
    with_numbered_children,
    without_title_again,
    without_unlisted_cover,
)
from skills.formats.pdf.lines import (
    FaceWeights,
    Line,
    Page,
    bold_by_ink,
    read_page,
    trusted_weights,
)
from skills.formats.pdf.tables import Table, page_tables
from skills.formats.pdf.tags import tagged_headings

#: The warning of pages whose text cannot be used: it names them and the route that reads them.
UNREADABLE = (
    "{pages} of {count} {verb} no text layer that can be read (a scan, images of text, or "
    "fonts without a Unicode map) and {pronoun} not indexed: index this file with the 'layout' "
    "definitions (Document Layout skill, then this skill; docs/formats.md)"
)
XFA = (
    "the PDF is an XFA form: PDFium reads only its static text, not the form's fields and "
    "values; export it to a plain PDF (print to PDF) to index what it shows"
)
_BULLET = re.compile(r"^[ \t]*[•◦▪‣●○■□–][ \t]+")
_SHORT_LINE = 0.8  # of the page's long lines' length: shorter ends a paragraph
_SOFT_HYPHEN = re.compile(r"(\S*?)([^\W\d_]+)\ufffe(\w+)")
_HYPHENATED = re.compile(r"\b[^\W\d_]+-[^\W\d_]+\b")
#: What follows the title in a running header: ``Guide, Release``, ``Guide | 3`` (not ``::``).
_HEADER_MARK = re.compile(r"\s?[,:|]\s")
_TITLE_PAGES = 3  # pages after the cover a title page may follow on
_NO_GAP = 1.3  # line spacing, in the line's size, under which two lines are one block
_BYLINE_GAP = 2.5  # line spacing, in the title's size, within which a marked name is its byline
_BYLINE_WORDS = 5  # words of an author's name, at most
_XFA_FORMS = (2, 3)  # FORMTYPE_XFA_FULL, FORMTYPE_XFA_FOREGROUND
#: The whole-document steps after the page loop (furniture, headings, tables, the writing) take
#: up to this share of the time the pages took to read (0.35 to 1.0 on 111- to 236-page manuals):
#: the loop stops while that much is left before the deadline
PASSES_SHARE = 1.0
#: What a dynamic XFA form says in its bytes (PDFium without XFA support may see no form at
#: all): a catalog that ``/NeedsRendering``, an ``/XFA`` stream or array in the form.
_XFA_MARK = re.compile(rb"/NeedsRendering\s*true|/XFA\s*(?:\[|\d+\s+\d+\s+R)")


def pdf_to_markdown(data: bytes, limits: Limits) -> Converted:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ConversionError(_open_error(str(exc))) from None
    try:
        converted = _convert(pdf, limits)
    finally:
        pdf.close()
    if _XFA_MARK.search(data) and XFA not in converted.warnings:
        return Converted(converted.text, converted.title, (XFA, *converted.warnings))
    return converted


def _open_error(reason: str) -> str:
    if "password" in reason.lower():
        return (
            "the PDF is encrypted with a password: remove the protection (or store an unlocked "
            "copy) to index it"
        )
    return f"not a readable PDF ({reason}): the file is damaged or not a PDF"


def _convert(pdf: Any, limits: Limits) -> Converted:
    count = len(pdf)
    if count > limits.max_pages:
        raise ConversionError(
            f"the PDF has {count} pages, more than the {limits.max_pages} one file may have: "
            "split it (Document Layout reads at most 2,000 pages too)"
        )
    warnings: list[str] = [XFA] if pdf.get_formtype() in _XFA_FORMS else []
    pages: list[Page] = []
    faces = FaceWeights()
    budget = limits.left()
    for index in range(count):
        left = limits.left()
        if left <= 0 or (index and left < (budget - left) * PASSES_SHARE):
            warnings.append(out_of_time("pages", index, count))
            break
        page = pdf[index]
        try:
            pages.append(read_page(page, index, faces))
        finally:
            page.close()
    pages = bold_by_ink(trusted_weights(pages))
    unreadable = _unreadable(pages)
    if unreadable:
        one = len(unreadable) == 1
        warnings.append(
            UNREADABLE.format(
                pages=_page_list(unreadable),
                count=count,
                verb="has" if one else "have",
                pronoun="it is" if one else "they are",
            )
        )
    late: list[str] = []  # what the deadline left out
    skip = furniture(pages) if _on_time(limits, late, "running headers") else set()
    title: str | None = None
    headings: dict[Key, Heading] = {}
    if _on_time(limits, late, "headings"):
        try:
            title, headings = _structure(pdf, pages, skip, limits)
        except OutOfTime:  # (the deadline came inside the step: pages kept, headings not)
            late.append("headings")
    if "headings" in late:  # the step that weighs the title against the first page: left out
        title = _metadata_title(pdf)
    tables: list[dict[int, tuple[int, Table]]] = [{}] * len(pages)
    if _on_time(limits, late, "tables"):
        try:
            tables = page_tables(pages, skip, limits.expired)
        except OutOfTime:
            late.append("tables")
    if late:
        warnings.append(_late(late, len(pages)))
    words = _hyphenated(pages)
    parts = [
        "" if page.garbage else _page_markdown(page, headings, skip, words, grids)
        for page, grids in zip(pages, tables, strict=True)
    ]
    markdown = f"\n\n{PAGE_BREAK}\n\n".join(parts)
    return titled(markdown + "\n", title, warnings)


def _metadata_title(pdf: Any) -> str:
    """The metadata title when it is a real one (``meaningful_title``), unchecked against the
    first page: what the title is when the deadline leaves the headings out (it was dropped with
    them, and the record had no title)."""
    return meaningful_title(pdf.get_metadata_dict(skip_empty=True).get("Title"))


def _on_time(limits: Limits, late: list[str], step: str) -> bool:
    """Whether a whole-document step may start: before the deadline, and before an earlier
    step was left out (``late`` names the steps left out)."""
    if late or limits.expired():
        late.append(step)
        return False
    return True


def _late(steps: list[str], read: int) -> str:
    """The warning of pages written as read, without the steps the deadline left out: a PDF
    read up to its deadline was killed 2 s later in its worker while its headings were being
    found, and lost every page."""
    return (
        f"conversion reached its time budget after reading {read} pages: its "
        f"{' and '.join(steps)} were not recovered, and the text of those pages is indexed as "
        "read; lower the skill's batchSize or raise its timeout and SKILL_TIME_BUDGET_SECONDS"
    )


def _unreadable(pages: list[Page]) -> list[int]:
    """Pages (from 1) left out: those with garbage, and the empty ones when they are half the
    document (a scan; one blank page in a report is not worth a warning)."""
    empty = [page.index + 1 for page in pages if not page.lines]
    garbage = [page.index + 1 for page in pages if page.garbage]
    if empty and len(empty) * 2 >= len(pages):
        return sorted(empty + garbage)
    return garbage


def _page_list(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"pages 1-3, 7"`` (one page: ``"page 4"``)."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    text = ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    return ("page " if len(numbers) == 1 else "pages ") + text


def _structure(
    pdf: Any, pages: list[Page], skip: set[Key], limits: Limits
) -> tuple[str, dict[Key, Heading]]:
    """The title, and the headings by the line they start at."""
    body = body_type(pages)
    title = metadata = _metadata_title(pdf)
    template = title  # a template's title, its placeholder filled in on the page:
    filled = _placeholder_filled(pages, template, skip)
    if filled:
        title = metadata = filled
    shown, title_lines = first_page_title(pages, body, skip)
    if not shown and not title:
        shown, title_lines = centred_title(pages, skip)
    if title and shown and len(pages) > 1 and not printed(title, pages[title_lines[0][0]]):
        title = metadata = ""  # a stale metadata title: another version's, another document's
    if title and shown and _revised(title, shown):
        title = metadata = shown  # the page shows a later version of the metadata's title
    named = _title_lines(pages, title, skip)
    if shown and named and _smaller(pages, named, title_lines):
        title, named = shown, []  # the metadata names a section under the title shown
    if title and shown and not named and _in_passing(pages, title, title_lines):
        title = shown  # the metadata names the venue or the firm a smaller line mentions
    title = title or shown or man_page_name(pages) or printed_page_title(pages, skip)
    title_lines += named
    own = list(title_lines)  # the title's lines; then what goes with them
    title_lines += _title_block(pages, title_lines)
    if title_lines and len(pages) > 1 and is_cover(pages[title_lines[0][0]], body):
        cover = title_lines[0][0]  # a cover's lines are not sections
        title_lines += [(cover, i) for i in range(len(pages[cover].lines))]
    title_lines += _title_page(pages, title, own, skip)
    if filled:  # the template's title shown again, unfilled, atop the body
        title_lines += _title_page(pages, template, own, skip)
    bookmarks = _bookmarks(pdf)
    headings = from_bookmarks(pages, bookmarks, skip) if bookmarks else {}
    headings = _without_title_block(headings, title_lines, own)
    marks = sum(len(found) for found in bookmarks.values())
    typed_skip = skip | set(title_lines) | _titled_headers(pages, title)
    if headings and len(headings) * 2 >= marks:
        headings = with_bookmarked_types(pages, headings, body, skip | set(title_lines))
        if not flat(bookmarks):
            return title, headings
        typed = from_typography(pages, body, typed_skip, limits.expired)
        return title, with_numbered_children(headings, without_title_again(typed, title, own))
    typography = from_typography(pages, body, typed_skip, limits.expired)
    typography = without_title_again(typography, title, own)
    if not title:
        title, typography = _title_in_headings_type(pages, skip, typography)
    typography = without_unlisted_cover(typography, pages, skip)
    tags = tagged_headings(pdf, len(pages), limits.expired)
    if not tags:
        return title, typography
    tagged = _without_title_block(from_bookmarks(pages, tags, skip), title_lines, own)
    tagged = without_unlisted_cover(tagged, pages, skip)
    if title == shown and any(key in tagged for key in title_lines):
        title = metadata  # the line shown as the title is tagged a heading: it is one
    return title, _with_tags(typography, tagged)


def _title_in_headings_type(
    pages: list[Page], skip: set[Key], headings: dict[Key, Heading]
) -> tuple[str, dict[Key, Heading]]:
    """The title, when the first heading is one set in its numbered headings' type
    (``over_numbered_headings``), and the headings without it; else no title."""
    key = over_numbered_headings(pages, skip, headings)
    if key is None:
        return "", headings
    return headings[key].text, {k: found for k, found in headings.items() if k != key}


#: A template's placeholder: words in angle brackets (``<Use-Case Name>``, ``<Project>``).
_PLACEHOLDER = re.compile(r"<[^<>]{1,60}>")


def _placeholder_filled(pages: list[Page], metadata: str, skip: set[Key]) -> str:
    """The first page's line that reads the metadata title with its template's placeholder
    filled in, when the metadata title holds one: Word keeps a template's Title property
    (RUP's ``Use-Case-Realization Specification: <Use-Case Name>``) while the cover shows
    ``Use-Case-Realization Specification: <Platz-buchen>``; the template's title, left unfilled
    atop the body (page 4, tagged ``H1``), is the title shown again. '' when no line does.

    >>> from skills.formats.pdf.lines import Line
    >>> line = Line(0, "Use-Case Specification: <Platz-buchen>", 18, 700, True, True, 300, 97)
    >>> page = Page(0, (line,), 40, False, False)
    >>> _placeholder_filled([page], "Use-Case Specification: <Use-Case Name>", set())
    'Use-Case Specification: <Platz-buchen>'
    >>> _placeholder_filled([page], "Use-Case Specification", set())
    ''
    """
    match = _PLACEHOLDER.search(metadata)
    if match is None or not pages:
        return ""
    before, after = normalised(metadata[: match.start()]), normalised(metadata[match.end() :])
    if not (before or after):
        return ""  # a placeholder alone (``<Project Name>``) names no line
    for i, line in enumerate(pages[0].lines):
        text = normalised(line.text)
        rest = text[len(before) :].strip()
        if (pages[0].index, i) in skip or not text.startswith(before) or not rest:
            continue
        if rest != normalised(match.group()) and rest.endswith(after):
            return " ".join(line.text.split())
    return ""


def _without_title_block(
    tagged: dict[Key, Heading], title_lines: list[Key], own: list[Key]
) -> dict[Key, Heading]:
    """The tagged or bookmarked headings less the lines that go with the title (its byline, a
    subtitle, a banner: ``_title_block``), which Word tags with whatever heading style its
    author gave them (``Bob Supnik, 24-Mar-2002 (updated 26-Jan-2005)`` tagged ``H2`` under a
    title tagged ``H1``) and an HTML printer bookmarks as the page's heading tags (WeasyPrint's
    DocBook title page: its author's ``h3``); the title's own lines keep theirs."""
    block = set(title_lines) - set(own)
    return {key: found for key, found in tagged.items() if key not in block}


def _titled_headers(pages: list[Page], title: str) -> set[Key]:
    """The lines atop a page (the page's highest) that open with the document's title and go
    on after a comma, a colon or a bar and a space: a running header (Sphinx's ``References,
    Release``, on the even pages only of a document too short for it to be found as
    furniture), no heading."""
    wanted = normalised(title)
    if not wanted:
        return set()
    found: set[Key] = set()
    for page in pages[1:]:
        if page.garbage or not page.lines:
            continue
        i = min(range(len(page.lines)), key=lambda n: page.lines[n].top)
        text = normalised(page.lines[i].text)
        if text.startswith(wanted) and _HEADER_MARK.match(text[len(wanted) :]):
            found.add((page.index, i))
    return found


def _with_tags(typography: dict[Key, Heading], tagged: dict[Key, Heading]) -> dict[Key, Heading]:
    """The headings typography finds, and the structure tree's where it has them: a tagged
    heading takes its lines from typography's (its words and level are the producer's), and a
    heading typography missed is added (Word tags its heading styles even when they look like
    the body)."""
    covered = {(page, i + n) for (page, i), found in tagged.items() for n in range(found.lines)}
    kept = {
        key: found
        for key, found in typography.items()
        if not any((key[0], key[1] + n) in covered for n in range(found.lines))
    }
    return dict(sorted({**kept, **tagged}.items()))


def _title_lines(pages: list[Page], title: str, skip: set[Key]) -> list[Key]:
    """The first page's lines that are the metadata title: not a heading of the body."""
    if not title or not pages:
        return []
    wanted = normalised(title)
    first = pages[0]
    return [
        (first.index, i)
        for i, line in enumerate(first.lines)
        if normalised(line.text) == wanted and (first.index, i) not in skip
    ]


def _revised(metadata: str, shown: str) -> bool:
    """The metadata title is an earlier version of the title the first page shows: the two open
    with the same two words and then part, neither holding the other (``Bug, Feature, or Rot``
    under ``Bug, Feature, or Code Rot? Adventures in OS Debugging``; ``Unearthing The PDP-15’s
    Advanced Monitor System`` under ``Unearthing The PDP-15’s Operating Systems``). Its words
    may all be on the page elsewhere (``printed``), but the page's title is the one to show.

    >>> _revised("Bug, Feature, or Rot", "Bug, Feature, or Code Rot? Adventures in OS Debugging")
    True
    >>> _revised("Harbour Works", "Harbour Works: Annual Report"), _revised("Guide", "Guide 2")
    (False, False)
    """
    old, new = normalised(metadata), normalised(shown)
    if old in new or new in old:
        return False
    first, second = old.split(), new.split()
    return len(first) >= 2 and first[:2] == second[:2]


def _smaller(pages: list[Page], named: list[Key], shown: list[Key]) -> bool:
    """The lines the metadata title names are set smaller than the title the page shows."""
    size = {key: pages[key[0]].lines[key[1]].size for key in (*named, *shown)}
    return max(size[key] for key in named) < min(size[key] for key in shown) - 0.5


def _in_passing(pages: list[Page], metadata: str, shown: list[Key]) -> bool:
    """The metadata title is said on the title's page only inside longer lines set smaller than
    the title shown: a Keynote deck's metadata ``GopherCon`` and its slide's 64 pt ``Mutant Go
    compilers`` over ``A short talk by Elliott Stoneham at GopherCon on 26th April 2014``. The
    metadata names the venue (or the firm, the series), the page its title."""
    index = shown[0][0]
    size = min(pages[index].lines[i].size for _, i in shown)
    wanted = normalised(metadata)
    saying = [line for line in pages[index].lines if wanted in normalised(line.text)]
    return bool(saying) and all(
        line.size < size - 0.5 and len(normalised(line.text)) > len(wanted) for line in saying
    )


def _title_block(pages: list[Page], title_lines: list[Key]) -> list[Key]:
    """What goes with the title and is no section of the body: the lines above it on its page (a
    journal's banner, ``ORIGINAL ARTICLE``), and up to two lines right under it, with no gap
    and smaller than it (a subtitle, the authors)."""
    if not title_lines:
        return []
    index = title_lines[0][0]
    lines = pages[index].lines if index < len(pages) and pages[index].index == index else ()
    rows = sorted(i for page, i in title_lines if page == index)
    if not lines or not rows or turned_page(pages[index]):
        return []  # (a turned page's places are not top to bottom)
    if lines[rows[0]].size < max(line.size for line in lines if not line.rotated) - 0.5:
        return []  # a metadata title that names a smaller line: its page's top is no banner
    top = lines[rows[0]].top
    block = [(index, i) for i, line in enumerate(lines) if line.top < top - 1]
    for j in range(rows[-1] + 1, min(rows[-1] + 3, len(lines))):
        above, line = lines[j - 1], lines[j]
        gap = line.top - above.top
        after = lines[j + 1] if j + 1 < len(lines) else None
        if _byline(above, line, lines[rows[0]].size, after):
            block.append((index, j))
            break
        if not 0 < gap <= above.size * _NO_GAP or line.size >= lines[rows[0]].size:
            break
        if section_number(line.text) is not None:
            break
        block.append((index, j))
    return block


def _byline(above: Line, line: Line, title: float, after: Line | None = None) -> bool:
    """The author's name under the title, short and marked for a footnote (``Na'aman
    Hirschfeld¹``, a line and a half under an article's title) or signed by the line ``after``
    it (``_signed``): it goes with the title, though set apart from it; read as a heading, it
    held the whole article."""
    gap = line.top - above.top
    return (
        (line.note > 0 or _signed(line, after))
        and 0 < gap <= above.size * _BYLINE_GAP
        and line.size < title
        and len(line.words.split()) <= _BYLINE_WORDS
        and section_number(line.text) is None
    )


_NAME = re.compile(r"[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)+")  # Panos Louridas, J. R. Smith


def _signed(line: Line, after: Line | None) -> bool:
    """A person's name (capitalised words, two at least) whose last word the line under it
    repeats: the copyright or the address of the author it names (WeasyPrint's DocBook title
    page: ``Panos Louridas`` in 14 pt bold over ``Copyright © 2004 Panagiotis Louridas``)."""
    if after is None or _NAME.fullmatch(line.words) is None:
        return False
    return line.words.split()[-1] in after.text.split()


def _title_page(pages: list[Page], title: str, own: list[Key], skip: set[Key]) -> list[Key]:
    """A book's title page after its cover: the largest line of one of the next few pages that
    reads the title the cover shows (alone, or with the next line: ``_wrapped_title``), and
    what goes with it, none a section of the body (No Starch's ``RUST FOR RUSTACEANS`` over
    ``JON GJENGSET`` on page 3, the cover's title again)."""
    wanted = normalised(title)
    if not own or not wanted:
        return []
    cover = own[0][0]
    for page in pages[cover + 1 : cover + 1 + _TITLE_PAGES]:
        largest = max((line.size for line in page.lines if not line.rotated), default=None)
        if page.garbage or largest is None:
            continue
        for i, line in enumerate(page.lines):
            if line.size < largest - 0.5 or (page.index, i) in skip:
                continue
            rows = [(page.index, i)]
            if normalised(line.text) != wanted:
                rows = _wrapped_title(page, i, wanted)
            if rows:
                return [*rows, *_title_block(pages, rows)]
    return []


def _wrapped_title(page: Page, i: int, wanted: str) -> list[Key]:
    """Line ``i`` and the next, in its size, when the two read ``wanted``: a title page's title
    set over two lines (``Use-Case-Realization Specification: <Use-Case`` / ``Name>``)."""
    if i + 1 >= len(page.lines) or abs(page.lines[i + 1].size - page.lines[i].size) > 0.5:
        return []
    if normalised(f"{page.lines[i].text} {page.lines[i + 1].text}") != wanted:
        return []
    return [(page.index, i), (page.index, i + 1)]


def _bookmarks(pdf: Any) -> dict[int, list[tuple[int, str]]]:
    """page index -> [(heading level, title)] in outline order, from at most 10,000 bookmarks."""
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for number, bookmark in enumerate(pdf.get_toc(max_depth=6)):
        if number >= 10_000:
            break
        dest = bookmark.get_dest()
        index = dest.get_index() if dest is not None else None
        title = " ".join((bookmark.get_title() or "").split())
        if index is not None and title:
            found[index].append((bookmark.level + 1, title))
    return found


def _hyphenated(pages: list[Page]) -> set[str]:
    """The hyphenated words the document writes whole on a line (``data-driven``)."""
    return {
        word.casefold()
        for page in pages
        if not page.garbage
        for line in page.lines
        if "-" in line.text
        for word in _HYPHENATED.findall(line.text)
    }


def clean(text: str, hyphenated: set[str]) -> str:
    """A line's words as written: soft hyphens joined, real compounds kept.

    >>> clean("statistically signifi\\ufffecant, Gimp\\ufffePrint", set())
    'statistically significant, Gimp-Print'
    >>> clean("a data\\ufffedriven test", {"data-driven"})
    'a data-driven test'
    """
    if "\ufffe" in text:
        text = _SOFT_HYPHEN.sub(lambda m: _soft_hyphen(m, hyphenated), text)
        text = text.replace("\ufffe", "-")
    return text


def _soft_hyphen(match: re.Match[str], hyphenated: set[str]) -> str:
    before, left, right = match.groups()
    keep = (
        right[:1].isupper()
        or right[:1].isdigit()
        or f"{left}-{right}".casefold() in hyphenated
        or any(mark in before for mark in "./:@")  # a URL or a path: www.sane-project.org
    )
    return f"{before}{left}{'-' if keep else ''}{right}"


def _page_markdown(
    page: Page,
    headings: dict[Key, Heading],
    skip: set[Key],
    words: set[str],
    grids: dict[int, tuple[int, list[list[str]]]],
) -> str:
    kept = [i for i in range(len(page.lines)) if (page.index, i) not in skip]
    lengths = sorted(len(page.lines[i].text) for i in kept)
    full = lengths[int(len(lengths) * 0.9)] if lengths else 0
    out: list[str] = []
    covered = -1  # the last line a heading or a table took
    following = dict(zip(kept, [*kept[1:], None], strict=False))  # empty on a page of furniture
    for i in kept:
        if i <= covered:
            continue
        found = headings.get((page.index, i))
        grid = grids.get(i)
        if found is None and grid is not None:
            end, rows = grid
            _block(out, table([[clean(cell, words) for cell in row] for row in rows]))
            covered = end - 1
            continue
        if found is not None:
            _block(out, heading(found.level, clean(found.text, words)))
            covered = i + found.lines - 1
            continue
        line = clean(page.lines[i].text, words)
        bullet = _BULLET.match(line)
        out.append("- " + plain(line[bullet.end() :]) if bullet else plain(line))
        short = len(line) < _SHORT_LINE * full
        ends = short or (bullet and not _hangs_in(page, i, following[i], headings, grids))
        if ends and not _reads_as_numbered_title(line):
            out.append("")
    return "\n".join(out).strip("\n")


def _hangs_in(
    page: Page,
    i: int,
    after: int | None,
    headings: dict[Key, Heading],
    grids: dict[int, tuple[int, list[list[str]]]],
) -> bool:
    """Whether the line after bullet line ``i`` goes on with its item: indented past the bullet
    (a hanging indent), not itself a bullet, a heading or a table. Such an item written as two
    paragraphs would cut its sentence (Gutenprint's manual: 160 of them)."""
    if after is None or (page.index, after) in headings or after in grids:
        return False
    line, below = page.lines[i], page.lines[after]
    return below.left > line.left + 1 and not _BULLET.match(below.text)


def _block(out: list[str], block: str) -> None:
    """A heading or a table, with a blank line before and after it."""
    if out and out[-1]:
        out.append("")
    out.append(block)
    out.append("")


def _reads_as_numbered_title(line: str) -> bool:
    """A line the engine would take for a numbered title (``3.1 Traces``) if it stood alone: the
    typography did not make it a heading, so it stays in its paragraph."""
    return numbered_title(line.strip() + "\n\n", 0) is not None
