"""One file in, the engine's input out: which format it is, and its text.

The bytes decide what a file is (:func:`~skills.formats.sniff.sniff`); its name, else its
content type, is the claim they are checked against. A file whose claim and bytes disagree (a
PDF named ``.docx``, a text file named ``.xlsx``) is an error that says both, because converting
it as either would index the wrong thing. A file with no claim is read as what its bytes show:
a binary format, an HTML page (``<!doctype html`` or ``<html`` first), or else UTF-8 text whose
markup the engine detects.

A converted file is converted in a worker process (:mod:`skills.formats.isolation`): a crash, a
parse that runs past the record's deadline or one that needs more memory than a file may take
fails that record only, and the memory goes back to the system. Where no worker can be started
(or with ``isolated=False``: the tests that change a converter's module) the converter runs in
this process; one marked ``serialised`` in the registry (PDFium's) then runs under one
process-wide lock, so concurrent batches on concurrent threads cannot crash the process, and a
file that waits for its turn past its deadline is its own record's error; a conversion that
leaves the process much larger than it found it gives the memory back
(:mod:`skills.formats.memory`).

>>> read_file(b"# Notes\\n", "notes.md").text
'# Notes\\n'
>>> read_file(b"%PDF-1.7 ...", "report.docx")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
skills.formats.conversion.ConversionError: report.docx is named as docx but its content is pdf...
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from skills.chunking import Format
from skills.formats import isolation
from skills.formats.conversion import (
    DEFAULT_LIMITS,
    ConversionError,
    Converted,
    Limits,
    unreadable,
)
from skills.formats.isolation import Unavailable
from skills.formats.memory import released
from skills.formats.registry import FileFormat, by_content_type, by_format, by_name
from skills.formats.sniff import sniff

#: One native converter at a time in this process (``FileFormat.serialised``): PDFium crashes
#: the process when two threads call it at once, even on different documents.
_NATIVE_LOCK = threading.Lock()
logger = logging.getLogger("skills.formats")
_HTML_START = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S
)


@dataclass(frozen=True, slots=True)
class FileText:
    """A file as the engine reads it: the text, its markup (``None``: the engine detects it),
    the title the file names, the format it was read as, and the conversion's warnings."""

    text: str
    markup: Format | None
    title: str | None
    format: FileFormat | None
    warnings: tuple[str, ...]


def read_file(
    data: bytes,
    name: str = "",
    content_type: str = "",
    limits: Limits = DEFAULT_LIMITS,
    isolated: bool = True,
) -> FileText:
    """The file's text for the engine, or :class:`ConversionError` saying why not; a converted
    file is converted in a worker process unless ``isolated`` is False."""
    fmt = _format(data, name, content_type, limits)
    if fmt is None or fmt.converter is None:
        converted = Converted(_utf8(data))
    elif isolated:
        converted = _convert_isolated(fmt, data, limits)
    else:
        converted = _convert(fmt, data, limits)
    markup = fmt.markup if fmt is not None else None
    return FileText(converted.text, markup, converted.title, fmt, converted.warnings)


_NO_ISOLATION: list[str] = []  # why workers cannot be started here, once that is known


def _convert_isolated(fmt: FileFormat, data: bytes, limits: Limits) -> Converted:
    """The converter's result from a worker process; converted here when none can start."""
    if _NO_ISOLATION:
        return _convert(fmt, data, limits)
    try:
        return isolation.convert(fmt.name, data, limits)
    except Unavailable as exc:
        if not _NO_ISOLATION:
            _NO_ISOLATION.append(str(exc))
            logger.warning("files are converted in the skill's own process: %s", exc)
        return _convert(fmt, data, limits)


def _convert(fmt: FileFormat, data: bytes, limits: Limits) -> Converted:
    """The converter's result; whatever its parser raises on a hostile or broken file (an XML
    entity bomb, which expat and libxml2 refuse; a part that is not XML) is this file's
    :class:`ConversionError`, never a crash of the record."""
    assert fmt.converter is not None
    try:
        with released():
            if fmt.serialised:
                with _native_turn(fmt, limits):
                    return fmt.converter(data, limits)
            return fmt.converter(data, limits)
    except ConversionError:
        raise
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # third-party parsers raise their own types on bad input
        raise ConversionError(unreadable(fmt.name, exc)) from None


@contextmanager
def _native_turn(fmt: FileFormat, limits: Limits) -> Iterator[None]:
    """Hold the process-wide lock of the converters that are not thread-safe
    (``FileFormat.serialised``), waiting at most until the deadline: a file that cannot get its
    turn in time is this record's error, never a wait past the batch."""
    wait = -1.0 if limits.deadline is None else max(0.0, limits.deadline - time.monotonic())
    if not _NATIVE_LOCK.acquire(timeout=wait):
        raise ConversionError(
            f"the {fmt.name} file was not converted: other {fmt.name} files held the converter "
            "(one at a time per process) until the batch's time budget ran out; lower the "
            "skill's batchSize or the Function App's perInstanceConcurrency"
        )
    try:
        yield
    finally:
        _NATIVE_LOCK.release()


def _format(data: bytes, name: str, content_type: str, limits: Limits) -> FileFormat | None:
    claimed = by_name(name) or by_content_type(content_type)
    shown = sniff(data, limits)
    actual = by_format(shown) if shown is not None else None
    if actual is None and _HTML_START.match(data[:4096]):
        actual = by_format("html") if claimed is None else None
    what = name or content_type or "the file"
    if actual is not None and claimed is not None and actual is not claimed:
        raise ConversionError(
            f"{what} is named as {claimed.name} but its content is {actual.name}: rename it or "
            "fix its content type"
        )
    if actual is None and claimed is not None and claimed.binary:
        raise ConversionError(
            f"{what} is named as {claimed.name} but its content is not: the file is damaged, "
            "or its name lies about its type"
        )
    return actual or claimed


def _utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConversionError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start}), and not a format this skill "
            "converts (docs/formats.md)"
        ) from None
