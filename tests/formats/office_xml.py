"""Small Word packages built from their XML in the tests, for what pandoc and LibreOffice never
write (outline levels on plain paragraphs, bold pseudo-headings, text only in a header)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterable
from xml.sax.saxutils import escape

from skills.formats.office.strict import NAMESPACES

NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
    'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
    "</Relationships>"
)
_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/'
    '2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
    'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.wordprocessingml.document.main+xml"/></Types>'
)


def para(
    text: str,
    *,
    style: str = "",
    outline: int | None = None,
    bold: bool = False,
    size: int | None = None,
    number: tuple[int, int] | None = None,
) -> str:
    """One ``w:p``; ``size`` in half-points, ``number`` as (numId, ilvl)."""
    ppr = ""
    if style:
        ppr += f'<w:pStyle w:val="{style}"/>'
    if number is not None:
        ppr += f'<w:numPr><w:ilvl w:val="{number[1]}"/><w:numId w:val="{number[0]}"/></w:numPr>'
    if outline is not None:
        ppr += f'<w:outlineLvl w:val="{outline}"/>'
    rpr = ("<w:b/>" if bold else "") + (f'<w:sz w:val="{size}"/>' if size else "")
    run = f"<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space='preserve'>{escape(text)}</w:t></w:r>"
    return f"<w:p><w:pPr>{ppr}</w:pPr>{run}</w:p>"


def table(*cells: str) -> str:
    return (
        "<w:tbl><w:tr>"
        + "".join(f"<w:tc>{para(c, bold=True)}</w:tc>" for c in cells)
        + ("</w:tr></w:tbl>")
    )


def style(
    style_id: str,
    name: str,
    *,
    based_on: str = "",
    outline: int | None = None,
    number: int | None = None,
) -> str:
    """A paragraph style; ``number``: a numId its paragraphs are numbered by (the level from
    the numbering's ``w:pStyle`` link)."""
    inner = f'<w:name w:val="{name}"/>'
    if based_on:
        inner += f'<w:basedOn w:val="{based_on}"/>'
    ppr = f'<w:outlineLvl w:val="{outline}"/>' if outline is not None else ""
    ppr += f'<w:numPr><w:numId w:val="{number}"/></w:numPr>' if number is not None else ""
    if ppr:
        inner += f"<w:pPr>{ppr}</w:pPr>"
    return f'<w:style w:type="paragraph" w:styleId="{style_id}">{inner}</w:style>'


def decimal_numbering(num_id: int = 1) -> str:
    """A legal-style scheme: "1.", "1.1.", "1.1.1."."""
    levels = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        f'<w:lvlText w:val="{".".join(f"%{n}" for n in range(1, i + 2))}."/></w:lvl>'
        for i in range(3)
    )
    return (
        f'<w:numbering {NS}><w:abstractNum w:abstractNumId="0">{levels}</w:abstractNum>'
        f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
    )


def docx(
    body: Iterable[str],
    *,
    styles: Iterable[str] = (),
    numbering: str = "",
    parts: dict[str, str] | None = None,
) -> bytes:
    """A Word package whose body is ``body``'s paragraphs and tables."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", _TYPES)
        package.writestr("_rels/.rels", _RELS)
        package.writestr(
            "word/document.xml", f"<w:document {NS}><w:body>{''.join(body)}</w:body></w:document>"
        )
        package.writestr("word/styles.xml", f"<w:styles {NS}>{''.join(styles)}</w:styles>")
        if numbering:
            package.writestr("word/numbering.xml", numbering)
        for name, xml in (parts or {}).items():
            package.writestr(name, xml)
    return out.getvalue()


def run(text: str, *, bold: bool = False, italic: bool = False, style: str = "") -> str:
    rpr = ("<w:b/>" if bold else "") + ("<w:i/>" if italic else "")
    rpr += f'<w:rStyle w:val="{style}"/>' if style else ""
    return f"<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space='preserve'>{escape(text)}</w:t></w:r>"


def raw_para(inner: str, ppr: str = "") -> str:
    """A ``w:p`` of the given runs (and other inline XML)."""
    return f"<w:p><w:pPr>{ppr}</w:pPr>{inner}</w:p>"


def tables_docx(xml_bytes: int) -> bytes:
    """A report of sections, each a heading, a sentence and a table of 12 rows of 6 cells, with
    about ``xml_bytes`` of body XML (the shape of a generated report that mammoth read slowly)."""

    def cell(text: str) -> str:
        return f"<w:tc><w:tcPr><w:tcW w:w='1500' w:type='dxa'/></w:tcPr>{para(text)}</w:tc>"

    body, size, number = [], 0, 0
    while size < xml_bytes:
        rows = "".join(
            "<w:tr>" + "".join(cell(f"r{r}c{c} value {number}") for c in range(6)) + "</w:tr>"
            for r in range(12)
        )
        part = para(f"Section {number}", outline=0) + para("About the table below.")
        part += f"<w:tbl>{rows}</w:tbl>"
        body.append(part)
        size += len(part)
        number += 1
    return docx(body)


def rewritten(data: bytes, change: Callable[[str, bytes], bytes | None]) -> bytes:
    """The package with each part changed by ``change(name, part)`` (None: the part left out)."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            part = change(item.filename, source.read(item))
            if part is not None:
                target.writestr(item, part)
    return out.getvalue()


def with_part(data: bytes, name: str, change: Callable[[str], str]) -> bytes:
    """The package with its XML part ``name`` rewritten by ``change``."""
    return rewritten(
        data,
        lambda part, body: change(body.decode("utf-8")).encode("utf-8") if part == name else body,
    )


def strict(data: bytes) -> bytes:
    """The package as Excel, Word or PowerPoint write it with "Strict Open XML" chosen."""

    def renamed(name: str, part: bytes) -> bytes:
        for strict_name, usual in NAMESPACES:
            part = part.replace(usual, strict_name)
        return part

    return rewritten(data, renamed)
