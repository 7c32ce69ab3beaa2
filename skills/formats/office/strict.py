"""Office files saved as *Strict* Open XML, read as the usual (*Transitional*) ones.

Excel, Word and PowerPoint offer "Strict Open XML" when saving (ISO/IEC 29500 Strict). Its parts
are the same elements under other namespaces (``http://purl.oclc.org/ooxml/...`` instead of
``http://schemas.openxmlformats.org/...``), which openpyxl, python-pptx and our Word stream do
not know: a Strict workbook read as a Transitional one has no sheet at all (pyexcel's
``bug_176.xlsx``, a real data workbook, came out empty without a word). :func:`transitional`
rewrites the namespaces of every XML part, as a stream (a part is never held whole), so the
readers see the file they know. The rewrite looks at the deadline on every block of 1 MB: past
it, the file is its record's error (nothing of it has been read yet).

>>> strict = b'<worksheet xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main"/>'
>>> _renamed(strict)
b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import IO

from skills.formats.conversion import DEFAULT_LIMITS, Limits, copied, rewritten_package

#: Strict namespaces (and the starts of relationship types) and their Transitional names
NAMESPACES = (
    (b"http://purl.oclc.org/ooxml/spreadsheetml/main",
     b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"),
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main",
     b"http://schemas.openxmlformats.org/wordprocessingml/2006/main"),
    (b"http://purl.oclc.org/ooxml/presentationml/main",
     b"http://schemas.openxmlformats.org/presentationml/2006/main"),
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships",
     b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"),
    (b"http://purl.oclc.org/ooxml/officeDocument/sharedTypes",
     b"http://schemas.openxmlformats.org/officeDocument/2006/sharedTypes"),
    (b"http://purl.oclc.org/ooxml/officeDocument/extendedProperties",
     b"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"),
    (b"http://purl.oclc.org/ooxml/officeDocument/customProperties",
     b"http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"),
    (b"http://purl.oclc.org/ooxml/officeDocument/math",
     b"http://schemas.openxmlformats.org/officeDocument/2006/math"),
    (b"http://purl.oclc.org/ooxml/drawingml/main",
     b"http://schemas.openxmlformats.org/drawingml/2006/main"),
    (b"http://purl.oclc.org/ooxml/drawingml/chart",
     b"http://schemas.openxmlformats.org/drawingml/2006/chart"),
    (b"http://purl.oclc.org/ooxml/drawingml/diagram",
     b"http://schemas.openxmlformats.org/drawingml/2006/diagram"),
    (b"http://purl.oclc.org/ooxml/drawingml/picture",
     b"http://schemas.openxmlformats.org/drawingml/2006/picture"),
    (b"http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing",
     b"http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"),
    (b"http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing",
     b"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"),
)  # fmt: skip
_STRICT = b"http://purl.oclc.org/ooxml/"
#: bytes kept back between blocks, so that a name cut by a block's end is still renamed
_OVERLAP = max(len(strict) for strict, _ in NAMESPACES)


def as_transitional(data: bytes, main_part: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The package as Transitional Open XML: ``data`` itself unless its main part is Strict."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            strict = is_strict(package, main_part)
    except zipfile.BadZipFile:
        return data  # the converter says what is wrong with it
    return transitional(data, limits) if strict else data


def is_strict(package: zipfile.ZipFile, main_part: str) -> bool:
    """Whether the package's main part (``xl/workbook.xml``...) is written in Strict names: its
    first block names one."""
    try:
        with package.open(main_part) as part:
            return _STRICT in part.read(4096)
    except KeyError:
        return False


def transitional(data: bytes, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The package with every XML part's Strict namespaces renamed to the Transitional ones;
    other parts copied as they are. Each part is read and written in blocks, and the deadline
    is looked at before each block (:func:`rewritten_package`)."""
    return rewritten_package(data, limits, "renamed its Strict Open XML names", write=_written)


def _written(name: str, blocks: Iterator[bytes], copy: IO[bytes]) -> None:
    if name.endswith((".xml", ".rels")):
        _rename(blocks, copy)
    else:
        copied(name, blocks, copy)


def _rename(blocks: Iterator[bytes], copy: IO[bytes]) -> None:
    pending = b""
    for block in blocks:
        pending = _renamed(pending + block)
        cut = max(0, len(pending) - _OVERLAP)
        copy.write(pending[:cut])
        pending = pending[cut:]
    copy.write(_renamed(pending))


def _renamed(data: bytes) -> bytes:
    """Strict names replaced (a Transitional name holds no Strict one, so renaming twice is
    harmless)."""
    if _STRICT not in data:
        return data
    for strict, usual in NAMESPACES:
        data = data.replace(strict, usual)
    return data
