"""What a file really is, from its first bytes, and whether a zip package is safe to open.

A file's name and content type are claims; its bytes are the fact. :func:`sniff` names the
format the bytes show (``pdf``, ``docx``, ``pptx``, ``xlsx``, ``image``) or ``None`` for anything
else, and raises :class:`ConversionError` for what no converter reads: an encrypted Office file or a
legacy binary one (both OLE compound files), a zip that is not an Office package, a broken zip.

Office files are zip packages, and a zip can claim to unpack to far more than it holds (a zip
bomb). :func:`check_package` refuses one whose parts declare more than ``Limits`` allows before
any part is decompressed (a deck of more slides than ``Limits.max_pages`` is refused by its slide
count first, which is what its author can act on); that bound holds for what is then read,
because CPython's ``zipfile`` never returns more bytes of a member than its declared size
(``ZipExtFile`` stops at ``file_size`` and fails its CRC check instead).
"""

from __future__ import annotations

import io
import re
import zipfile

from skills.formats.conversion import DEFAULT_LIMITS, ConversionError, Limits

_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED = "EncryptedPackage".encode("utf-16-le")
#: an Office package's main part -> its format
_MAIN_PARTS = {
    "word/document.xml": "docx",
    "ppt/presentation.xml": "pptx",
    "xl/workbook.xml": "xlsx",
}


_SLIDE = re.compile(r"ppt/slides/slide\d+\.xml")
_IMAGES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")


def sniff(data: bytes, limits: Limits = DEFAULT_LIMITS) -> str | None:
    """The binary format ``data`` is, or ``None`` when it is none of them (text, HTML, ...)."""
    if data.startswith(_IMAGES) or (data.startswith(b"BM") and data[6:10] == b"\0\0\0\0"):
        return "image"
    if data[:1024].lstrip().startswith(b"%PDF-") or b"%PDF-" in data[:1024]:
        return "pdf"
    if data.startswith(_OLE):
        if _ENCRYPTED in data[: 1024 * 1024]:
            raise ConversionError(
                "the Office file is encrypted with a password: remove the protection (or store "
                "an unlocked copy) to index it"
            )
        raise ConversionError(
            "a legacy binary Office file (.doc, .xls or .ppt): save it as .docx, .xlsx or .pptx"
        )
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        # part names are compared without regard to case, as Office does (usual_part_names)
        names = {n.replace("\\", "/").lstrip("/").lower() for n in check_package(data, limits)}
        for part, fmt in _MAIN_PARTS.items():
            if part in names:
                return fmt
        raise ConversionError("a zip archive, not a Word, PowerPoint or Excel file")
    return None


def check_package(data: bytes, limits: Limits) -> set[str]:
    """The part names of a zip package that is safe to open, or :class:`ConversionError`."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            infos = package.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise ConversionError(f"the file is a damaged zip package ({exc})"[:200]) from None
    slides = sum(1 for info in infos if _SLIDE.fullmatch(info.filename))
    if slides > limits.max_pages:
        raise ConversionError(
            f"the deck has {slides} slides, more than the {limits.max_pages} one file may have: "
            "split it"
        )
    if len(infos) > limits.max_members:
        raise ConversionError(
            f"the package has {len(infos)} parts, more than {limits.max_members}: not a document"
        )
    unpacked = sum(info.file_size for info in infos)
    if unpacked > limits.max_unpacked_bytes:
        raise ConversionError(
            f"the package unpacks to {unpacked / 2**20:,.0f} MB, more than the "
            f"{limits.max_unpacked_bytes / 2**20:,.0f} MB one file may (a zip bomb, or a workbook "
            "too large to index whole): split it"
        )
    if any(info.flag_bits & 0x1 for info in infos):
        raise ConversionError("the package's parts are encrypted: remove the protection")
    return {info.filename for info in infos}
