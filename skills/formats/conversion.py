"""What a converter is: bytes of one file in, the engine's Markdown out, within limits.

A converter raises :class:`ConversionError` for a file it cannot read, with a message a user can
act on (the skill turns it into that record's error, and the other records go on), and reports
what it had to leave out as warnings. Its work is bounded by :class:`Limits`: pages, cells and
decompressed bytes are counted before they are read, and past the deadline a converter stops and
returns what it has, with a warning, so a slow file degrades instead of timing out the batch.
"""

from __future__ import annotations

import io
import math
import re
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Protocol

#: Document Intelligence's page separator, which the engine's ``PageMap`` counts pages by.
PAGE_BREAK = "<!-- PageBreak -->"


class ConversionError(ValueError):
    """The file cannot be converted; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How much work one file may cost, so that time and memory stay bounded by the input.

    ``deadline`` is a ``time.monotonic()`` instant (``None``: none).
    """

    deadline: float | None = None
    max_pages: int = 2000  # what Document Layout itself accepts for a PDF
    max_unpacked_bytes: int = 512 * 1024 * 1024  # a zip package's parts, decompressed
    max_members: int = 10_000  # parts of a zip package
    max_cells: int = 1_000_000  # spreadsheet cells read, over all sheets

    def expired(self) -> bool:
        return self.left() <= 0

    def left(self) -> float:
        """Seconds to the deadline (``inf``: none; ``<= 0``: past it)."""
        return math.inf if self.deadline is None else self.deadline - time.monotonic()

    def afford(self, seconds: float, what: str) -> None:
        """Refuse, before starting, work that cannot stop midway and would end past the
        deadline (a Word body, an HTML page): an error for this record, not a batch timeout."""
        if self.deadline is None:
            return
        left = self.deadline - time.monotonic()
        if seconds > left:
            raise ConversionError(
                f"converting {what} would take about {seconds:.0f} s and the batch has "
                f"{max(0.0, left):.0f} s left: lower the skill's batchSize, or raise its timeout "
                "and SKILL_TIME_BUDGET_SECONDS"
            )


DEFAULT_LIMITS = Limits()

#: the size of the blocks a package's part is copied in
BLOCK = 1 << 20


def blocks_in_time(part: IO[bytes], limits: Limits, doing: str) -> Iterator[bytes]:
    """A package part's bytes in blocks of 1 MB, up to the deadline: past it, the record's
    error, since a package is rewritten (its names renamed) before any of its text is read.
    ``doing`` says what was under way (``"renamed its Strict Open XML names (3 of 9 parts)"``).
    """
    while block := part.read(BLOCK):
        if limits.expired():
            raise ConversionError(
                f"the file's time budget ran out while the converter {doing}, before any of "
                "its text was read: lower the skill's batchSize or raise its timeout and "
                "SKILL_TIME_BUDGET_SECONDS"
            )
        yield block


#: zlib's level for a rewritten package's parts: a 400 MB part of zeros took 2.1 s of CPU at
#: zlib's default level, 1.5 s at this one; the readers only decompress it again
_COPY_LEVEL = 1


def copied(name: str, blocks: Iterator[bytes], copy: IO[bytes]) -> None:
    """A part's blocks written as they are."""
    for block in blocks:
        copy.write(block)


def rewritten_package(
    data: bytes,
    limits: Limits,
    doing: str,
    name: Callable[[str], str] = str,
    write: Callable[[str, Iterator[bytes], IO[bytes]], None] = copied,
) -> bytes:
    """The zip package rewritten part by part: each part under ``name(part)``, its bytes read in
    blocks up to the deadline (:func:`blocks_in_time`, ``doing`` saying what was under way) and
    written by ``write(part, blocks, copy)`` (as they are, by default)."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=_COPY_LEVEL) as target,
    ):
        items = source.infolist()
        for number, item in enumerate(items):
            at = f"{doing} ({number} of {len(items)} parts)"
            with source.open(item) as part, target.open(name(item.filename), "w") as copy:
                write(item.filename, blocks_in_time(part, limits, at), copy)
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class Converted:
    """A file as the engine's input (Markdown, for every converter): its text, its title when the
    file names one that the text does not already open with, and what could not be kept."""

    text: str
    title: str | None = None
    warnings: tuple[str, ...] = ()


class Converter(Protocol):
    def __call__(self, data: bytes, limits: Limits) -> Converted: ...


_FIRST_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def titled(markdown: str, title: str | None, warnings: list[str]) -> Converted:
    """The converted document, its ``title`` kept only when it is not the first heading (the
    engine puts a title before every heading path: the same words twice would be noise).

    >>> titled("# Guide\\n\\nText.", "Guide", []).title is None
    True
    >>> titled("Text.", "  Guide ", []).title
    'Guide'
    """
    title = " ".join((title or "").split()) or None
    first = _FIRST_HEADING.search(markdown)
    if title is not None and first is not None and " ".join(first.group(1).split()) == title:
        title = None
    return Converted(markdown, title, tuple(warnings))


class OutOfTime(Exception):
    """A whole-document step reached the deadline inside itself (a PDF's headings over a
    hostile file's thousands of candidates): the step's result is left out and what was read
    before it is kept (the caller says which steps, ``pdf.convert._late``)."""


def in_time(expired: Callable[[], bool]) -> None:
    """Raise :class:`OutOfTime` when ``expired()``: asked between the parts of a long step."""
    if expired():
        raise OutOfTime


def out_of_time(what: str, done: int, total: int) -> str:
    """The warning of a conversion stopped at its deadline."""
    return stopped_at(f"{done} of {total} {what}")


def stopped_at(place: str) -> str:
    """The warning of a conversion stopped at its deadline after ``place`` (``"12 rows of
    sheet 'Data'"``)."""
    return (
        f"conversion stopped at its time budget after {place}: the rest is not indexed; lower "
        "the skill's batchSize or raise its timeout and SKILL_TIME_BUDGET_SECONDS"
    )


#: what libxml2 says of a document nested past its depth limit (2,048 with ``huge_tree``)
_TOO_DEEP = "Excessive depth in document"
#: what Python says of a number of more digits than it converts (a library's ``int()`` of an
#: attribute: openpyxl's row numbers, python-pptx's placeholder ids)
_TOO_LONG = "for integer string conversion"


def unreadable(format_name: str, error: Exception) -> str:
    """The error of a file its parser refused with an exception of its own type (a part that is
    not XML, an entity bomb expat and libxml2 refuse), named with the parser's words, except
    libxml2's for a document nested too deep and Python's for a number too long, which name
    options of their own.

    >>> unreadable("docx", KeyError("word/document.xml"))
    "the docx file could not be read (KeyError: 'word/document.xml')"
    >>> unreadable("docx", ValueError("Excessive depth in document: 2048, use XML_PARSE_HUGE"))
    'the docx file could not be read (its XML nests elements more than 2,048 deep, ...)'
    """
    return f"the {format_name} file could not be read ({reason(error)})"


def reason(error: Exception) -> str:
    """A parser's exception in a user's words (:func:`unreadable`).

    >>> reason(ValueError("Exceeds the limit (4300 digits) for integer string conversion"))
    'it writes a number of more than 4,300 digits, as no editor does'
    """
    if _TOO_DEEP in str(error):
        return "its XML nests elements more than 2,048 deep, as no editor writes"
    if _TOO_LONG in str(error):
        return "it writes a number of more than 4,300 digits, as no editor does"
    return f"{type(error).__name__}: {error}"[:160]


def no_text(what: str) -> str:
    """The warning of an Office file with no text at all (pictures only, or nothing): never an
    empty record without a word."""
    return (
        f"the {what} has no text to index: pictures are not read; index images and scanned files "
        "with the 'layout' definitions (docs/search.md)"
    )
