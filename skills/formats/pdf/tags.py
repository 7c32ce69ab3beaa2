"""Headings of a tagged PDF from its structure tree: what the producer says is a heading.

A tagged PDF (Word's "Save as PDF" by default, LibreOffice's with "Tagged PDF", PDF/UA files)
holds a structure tree beside its pages: elements typed ``H1``-``H6`` (or ``H``), ``P``,
``Table``..., each pointing at the marked content of a page by its MCID. PDFium reads the tree
of one page (``FPDF_StructTree_GetForPage``); a heading element's text is the text of the page
objects that carry its MCIDs (``FPDFPageObj_GetMarkedContentID``), or its ``/ActualText``.

The result has the shape of the bookmarks' (page index -> ``[(level, title)]`` in reading
order), so that the converter finds each tag on its page's lines exactly as it finds a
bookmark, and extends it to the lines set in the same type that no tag names (Word tags only
its built-in heading styles: a custom style that looks like a heading is tagged ``P``).

Only the first pages are asked whether the file is tagged: an untagged file costs three calls.
"""

from __future__ import annotations

import ctypes
import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

_HEADING = re.compile(r"^H([1-6]?)$")
_PROBE_PAGES = 3  # pages asked for a structure tree before the file is taken as untagged
_MAX_ELEMENTS = 200_000  # elements walked in all, at most (a hostile tree stops here)


def tagged_headings(
    pdf: Any, pages: int, expired: Callable[[], bool] = lambda: False
) -> dict[int, list[tuple[int, str]]]:
    """page index -> [(level, text)] of the heading elements on that page, for a tagged PDF;
    empty for an untagged one. Stops at the batch's deadline (``expired``) with what it has."""
    import pypdfium2.raw as raw

    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    budget = [_MAX_ELEMENTS]
    tagged = False
    for index in range(pages):
        if (index >= _PROBE_PAGES and not tagged) or expired():
            break
        page = pdf[index]
        try:
            tree = raw.FPDF_StructTree_GetForPage(page.raw)
            if not tree:
                continue
            try:
                roots = raw.FPDF_StructTree_CountChildren(tree)
                tagged = tagged or roots > 0
                headings: list[tuple[int, list[int], str]] = []
                for n in range(roots):
                    element = raw.FPDF_StructTree_GetChildAtIndex(tree, n)
                    if element:
                        _walk(raw, element, headings, budget, cover=index == 0)
                if headings:
                    found[index] = _texts(raw, page, headings)
            finally:
                raw.FPDF_StructTree_Close(tree)
        finally:
            page.close()
        if budget[0] <= 0:
            break
    return {
        index: [(level, text) for level, text in marks if text] for index, marks in found.items()
    }


def _walk(
    raw: Any,
    root: Any,
    headings: list[tuple[int, list[int], str]],
    budget: list[int],
    cover: bool = False,
) -> None:
    """Heading elements under ``root``, in document order: (level, their MCIDs, their
    ActualText); on the first page (``cover``) not the title's. Walked with a stack, not
    recursion: a hostile tree may nest without end."""
    stack = [root]
    while stack and budget[0] > 0:
        element = stack.pop()
        budget[0] -= 1
        match = _HEADING.match(_string(raw.FPDF_StructElement_GetType, element))
        if match is not None and cover and _titles_the_document(raw, element):
            continue
        if match is not None:
            actual = _string(raw.FPDF_StructElement_GetActualText, element)
            headings.append((int(match.group(1) or 1), _mcids(raw, element, budget), actual))
            continue
        children = [
            raw.FPDF_StructElement_GetChildAtIndex(element, n)
            for n in range(raw.FPDF_StructElement_CountChildren(element))
        ]
        stack.extend(child for child in reversed(children) if child)


def _titles_the_document(raw: Any, element: Any) -> bool:
    """An element of its own type ``Title`` that the role map reads as a heading: Word writes a
    paragraph in its Title style as ``/S /Title`` and maps ``Title`` to ``H1`` in the tree's
    role map, so PDFium's type (``FPDF_StructElement_GetType``, the mapped one) says ``H1``. On
    the first page it is the document's title, not its first section: read as a heading it
    took the Korean product policy's 28 pt title away (the converter's rule that a title line
    tagged a heading is a heading) and headed the contents page with it. Only there: a
    template may set its later headings in the Title style too (the RUP template's
    ``Revision History`` on page 2, a heading of its truth)."""
    return _string(raw.FPDF_StructElement_GetRawType, element) == "Title"


def _mcids(raw: Any, root: Any, budget: list[int]) -> list[int]:
    """The MCIDs of an element and of the elements under it (a heading's ``Span``s), in order."""
    ids: list[int] = []
    stack = [root]
    while stack and budget[0] > 0:
        element = stack.pop()
        budget[0] -= 1
        count = max(0, raw.FPDF_StructElement_GetMarkedContentIdCount(element))
        ids.extend(
            raw.FPDF_StructElement_GetMarkedContentIdAtIndex(element, n) for n in range(count)
        )
        children = [
            raw.FPDF_StructElement_GetChildAtIndex(element, n)
            for n in range(raw.FPDF_StructElement_CountChildren(element))
        ]
        stack.extend(child for child in reversed(children) if child)
    return [mcid for mcid in ids if mcid >= 0]


def _texts(
    raw: Any, page: Any, headings: list[tuple[int, list[int], str]]
) -> list[tuple[int, str]]:
    """Each heading's words: its ActualText, else the text of the page objects it tags."""
    wanted = {mcid for _, ids, _ in headings for mcid in ids}
    by_mcid: dict[int, list[str]] = defaultdict(list)
    if wanted:
        textpage = page.get_textpage()
        try:
            for n in range(raw.FPDFPage_CountObjects(page.raw)):
                obj = raw.FPDFPage_GetObject(page.raw, n)
                mcid = raw.FPDFPageObj_GetMarkedContentID(obj)
                if mcid in wanted and raw.FPDFPageObj_GetType(obj) == raw.FPDF_PAGEOBJ_TEXT:
                    by_mcid[mcid].append(_object_text(raw, obj, textpage.raw))
        finally:
            textpage.close()
    return [
        (level, " ".join((actual or "".join("".join(by_mcid[m]) for m in ids)).split()))
        for level, ids, actual in headings
    ]


def _object_text(raw: Any, obj: Any, textpage: Any) -> str:
    size = raw.FPDFTextObj_GetText(obj, textpage, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    raw.FPDFTextObj_GetText(
        obj, textpage, ctypes.cast(buffer, ctypes.POINTER(raw.FPDF_WCHAR)), size
    )
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")


def _string(function: Any, element: Any) -> str:
    """A UTF-16 string attribute of a structure element ('' when it has none)."""
    size = function(element, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    function(element, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace").strip()
