"""Word (.docx) to the engine's Markdown, through mammoth's HTML and the HTML converter.

mammoth reads the document's paragraph styles: ``Heading 1``-``Heading 6`` become headings,
and so do the paragraphs ``word_outline.py`` finds to be headings without such a style (an
outline level on the paragraph or its style, a multi-level decimal numbering, and, in a file
with none of these, a short bold or larger paragraph followed by body text); numbered and
bulleted paragraphs become nested lists, tables keep their header row (``thead`` when the
row repeats as a header, else the first row, as for any HTML table), and code styles (``Source
Code``, ``HTML Preformatted``, ``Code``) become fenced blocks. The ``Title`` paragraph is the
document's title, not a heading. Images are left out (their bytes are never decoded); page
numbers are not kept: a Word file has no fixed pages until it is laid out.

Headers and footers repeat on every page (a running title, "Page 3 of 9", a confidentiality
line) and comments are remarks about the text, not the text: both are left out. A document
whose body has no text but whose headers, footers or comments do is indexed from those, with a
warning, rather than as an empty file; a document with comments says how many were left out.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from skills.formats.conversion import ConversionError, Converted, Limits, titled
from skills.formats.html import soup_to_markdown
from skills.formats.markdown_text import plain
from skills.formats.word_outline import STYLE_ID, Outline

_STYLE_MAP = "\n".join(
    [
        "p[style-name='Title'] => p.document-title:fresh",
        "p[style-name='Subtitle'] => p:fresh",
        "p[style-name='Source Code'] => pre:separator('\\n')",
        "p[style-name='HTML Preformatted'] => pre:separator('\\n')",
        "p[style-name='Code'] => pre:separator('\\n')",
        "r[style-name='Verbatim Char'] => code",
        "r[style-name='HTML Code'] => code",
        *(f"p.{STYLE_ID.format(n)} => h{n}:fresh" for n in range(1, 7)),
    ]
)
_BODY = "word/document.xml"
_INLINE = ("strong", "b", "em", "i", "u", "s")
_ASIDE = re.compile(r"^word/(header|footer|comments)\d*\.xml$")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


#: mammoth holds the whole document in memory, about 53 bytes per byte of word/document.xml, and
#: reads some 0.3 MB of it a second (bench/formats.py): 16 MB of XML (some 2.5 MB of text) stays
#: under 1 GB and about a minute
MAX_DOCUMENT_XML_BYTES = 16 * 2**20
XML_BYTES_PER_SECOND = 0.3 * 2**20


def docx_to_markdown(data: bytes, limits: Limits) -> Converted:
    import mammoth
    from bs4 import BeautifulSoup

    with zipfile.ZipFile(io.BytesIO(data)) as package:
        size = sum(i.file_size for i in package.infolist() if i.filename == _BODY)
    if size > MAX_DOCUMENT_XML_BYTES:
        raise ConversionError(
            f"the Word document's body is {size / 2**20:,.0f} MB of XML, more than the "
            f"{MAX_DOCUMENT_XML_BYTES // 2**20} MB one file may have: split it or save it as PDF"
        )
    limits.afford(size / XML_BYTES_PER_SECOND, "this Word document")

    try:
        marked = _mark_headings(data)
        result = mammoth.convert_to_html(
            io.BytesIO(marked),
            style_map=_STYLE_MAP,
            convert_image=mammoth.images.img_element(_no_image),
        )
    except (KeyError, ValueError) as exc:  # a zip without word/document.xml, broken XML
        raise ConversionError(
            f"not a readable Word document ({type(exc).__name__}: {exc})"[:200]
        ) from None
    soup = BeautifulSoup(result.value, "html.parser")
    for emphasis in soup.select(", ".join(f"h{n} {tag}" for n in range(1, 7) for tag in _INLINE)):
        emphasis.unwrap()  # a heading path names the section in words: "Scope", not "**Scope**"
    title_tag = soup.find("p", class_="document-title")
    title = title_tag.get_text(" ", strip=True) if title_tag is not None else ""
    if title_tag is not None:
        title_tag.decompose()
    markdown = soup_to_markdown(soup)
    warnings: list[str] = []
    asides = _asides(data)
    if not markdown.strip() and not title and any(asides.values()):
        markdown = "\n\n".join(plain(text) for texts in asides.values() for text in texts) + "\n"
        warnings.append(
            "the document's body has no text: its headers, footers and comments are indexed instead"
        )
    elif asides["comments"]:
        count = len(asides["comments"])
        warnings.append(
            f"{count} comment{'s' if count != 1 else ''} not indexed (only the text is)"
        )
    return titled(markdown, title, warnings)


def _mark_headings(data: bytes) -> bytes:
    """The package with the headings that Heading styles do not mark given our style ids
    (``word_outline.py``); the package itself when there are none."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        names = set(package.namelist())
        parts = {
            name: package.read(name) if name in names else None
            for name in (_BODY, "word/styles.xml", "word/numbering.xml")
        }
        body = parts[_BODY]
        if body is None:
            raise KeyError(f"there is no item named {_BODY!r} in the archive")
        outline = Outline.read(body, parts["word/styles.xml"], parts["word/numbering.xml"])
        if not outline.marks():
            return data
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as copy:
            for info in package.infolist():
                copy.writestr(
                    info, outline.mark() if info.filename == _BODY else package.read(info)
                )
    return out.getvalue()


def _asides(data: bytes) -> dict[str, list[str]]:
    """The paragraphs of text in the headers, footers and comments, each part's once."""
    from lxml import etree

    found: dict[str, list[str]] = {"header": [], "footer": [], "comments": []}
    parser = etree.XMLParser(resolve_entities=False)
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        for name in sorted(package.namelist()):
            match = _ASIDE.match(name)
            if match is None:
                continue
            root = etree.fromstring(package.read(name), parser)
            kind = match.group(1)
            if kind == "comments":
                texts = [_text(comment) for comment in root.iter(f"{_W}comment")]
            else:
                texts = [_text(paragraph) for paragraph in root.iter(f"{_W}p")]
            found[kind].extend(text for text in texts if text and text not in found[kind])
    return found


def _no_image(image: Any) -> dict[str, str]:
    """An image's alt text, without reading its bytes."""
    return {"alt": image.alt_text or ""}


def _text(element: Any) -> str:
    """An element's text runs (``w:t``), without field codes (``PAGE``)."""
    return " ".join("".join(t.text or "" for t in element.iter(f"{_W}t")).split())
