"""PDF to the engine's Markdown: the text layer page by page, headings from the bookmarks.

PDFium (pypdfium2) reads each page's text in reading order. Lines are kept as they are; a line
clearly shorter than the page's full lines ends a paragraph (a blank line follows), ``•`` bullets
become list items, and a line that would read as Markdown syntax is escaped. A line that is a
bookmark's title on the bookmark's page becomes a heading of the bookmark's depth: born-digital
PDFs (Word, LibreOffice, LaTeX exports) carry their headings that way. Pages are separated by
Document Intelligence's page markers, so every chunk knows its pages.

What a text layer does not say is lost: tables are lines of cells, code is lines of text. Pages
without any text are counted; when most pages have none the PDF is a scan and the warning names
the route that reads it (the ``layout`` definitions: Azure's Document Layout skill, then this
skill). An encrypted PDF, a broken one, or one with more pages than ``Limits.max_pages`` is an
error before any page is read.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    out_of_time,
    titled,
)
from skills.formats.markdown_text import heading, plain

#: The warning of a file with no text layer: it names the route that reads scans.
SCANNED = (
    "{empty} of {pages} pages have no text layer (a scan or images of text): index this file "
    "with the 'layout' definitions (Document Layout skill, then this skill; docs/formats.md)"
)
_BULLET = re.compile(r"^[ \t]*[•◦▪‣●○■□–][ \t]+")
_SHORT_LINE = 0.8  # of the page's long lines' length: shorter ends a paragraph


def pdf_to_markdown(data: bytes, limits: Limits) -> Converted:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ConversionError(_open_error(str(exc))) from None
    try:
        return _convert(pdf, limits)
    finally:
        pdf.close()


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
    headings = _bookmarks(pdf)
    pages: list[str] = []
    warnings: list[str] = []
    empty = 0
    for index in range(count):
        if limits.expired():
            warnings.append(out_of_time("pages", index, count))
            break
        page = pdf[index]
        try:
            textpage = page.get_textpage()
            text = textpage.get_text_range() if textpage.count_chars() else ""
            textpage.close()
        finally:
            page.close()
        if not text.strip():
            empty += 1
        pages.append(_page_markdown(text, headings.get(index, []), index + 1))
    if empty and empty * 2 >= count:
        warnings.append(SCANNED.format(empty=empty, pages=count))
    metadata = pdf.get_metadata_dict(skip_empty=True)
    first = [headings[index][0] for index in sorted(headings)[:1]]
    title = metadata.get("Title") or (first[0][1] if first and first[0][0] == 1 else "")
    return titled(f"\n\n{PAGE_BREAK}\n\n".join(pages) + "\n", title, warnings)


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


def _page_markdown(text: str, headings: list[tuple[int, str]], number: int) -> str:
    text = text.replace("\ufffe", "-")  # PDFium's mark of a hyphen that ends a line
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    lines = [line for line in lines if line.strip()]
    full = sorted(len(line) for line in lines)[int(len(lines) * 0.9)] if lines else 0
    pending = list(headings)
    out: list[str] = []
    for line in lines:
        words = " ".join(line.split())
        match = next((h for h in pending if h[1] == words), None)
        if match is not None:
            pending.remove(match)
            out.append(("\n" if out else "") + heading(match[0], words) + "\n")
            continue
        bullet = _BULLET.match(line)
        out.append("- " + plain(line[bullet.end() :]) if bullet else plain(line))
        if bullet or len(line) < _SHORT_LINE * full:
            out.append("")
    out.append(f'<!-- PageNumber="{number}" -->')
    return "\n".join(out).strip("\n")
