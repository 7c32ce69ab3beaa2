"""Word (.docx) to the engine's Markdown, through mammoth's HTML and the HTML converter.

mammoth reads the document's paragraph styles: ``Heading 1``-``Heading 6`` become headings,
numbered and bulleted paragraphs nested lists, tables keep their header row (``thead`` when the
row repeats as a header, else the first row, as for any HTML table), and code styles (``Source
Code``, ``HTML Preformatted``, ``Code``) become fenced blocks. The ``Title`` paragraph is the
document's title, not a heading. Images are left out (their bytes are never decoded); page
numbers are not kept: a Word file has no fixed pages until it is laid out.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from skills.formats.conversion import ConversionError, Converted, Limits, titled
from skills.formats.html import soup_to_markdown

_STYLE_MAP = "\n".join(
    [
        "p[style-name='Title'] => p.document-title:fresh",
        "p[style-name='Subtitle'] => p:fresh",
        "p[style-name='Source Code'] => pre:separator('\\n')",
        "p[style-name='HTML Preformatted'] => pre:separator('\\n')",
        "p[style-name='Code'] => pre:separator('\\n')",
        "r[style-name='Verbatim Char'] => code",
        "r[style-name='HTML Code'] => code",
    ]
)


#: mammoth holds the whole document in memory, about 53 bytes per byte of word/document.xml, and
#: reads some 0.3 MB of it a second (bench/formats.py): 16 MB of XML (some 2.5 MB of text) stays
#: under 1 GB and about a minute
MAX_DOCUMENT_XML_BYTES = 16 * 2**20
XML_BYTES_PER_SECOND = 0.3 * 2**20


def docx_to_markdown(data: bytes, limits: Limits) -> Converted:
    import mammoth
    from bs4 import BeautifulSoup

    with zipfile.ZipFile(io.BytesIO(data)) as package:
        size = sum(i.file_size for i in package.infolist() if i.filename == "word/document.xml")
    if size > MAX_DOCUMENT_XML_BYTES:
        raise ConversionError(
            f"the Word document's body is {size / 2**20:,.0f} MB of XML, more than the "
            f"{MAX_DOCUMENT_XML_BYTES // 2**20} MB one file may have: split it or save it as PDF"
        )
    limits.afford(size / XML_BYTES_PER_SECOND, "this Word document")

    try:
        result = mammoth.convert_to_html(
            io.BytesIO(data),
            style_map=_STYLE_MAP,
            convert_image=mammoth.images.img_element(_no_image),
        )
    except (KeyError, ValueError) as exc:  # a zip without word/document.xml, broken XML
        raise ConversionError(
            f"not a readable Word document ({type(exc).__name__}: {exc})"[:200]
        ) from None
    soup = BeautifulSoup(result.value, "html.parser")
    title_tag = soup.find("p", class_="document-title")
    title = title_tag.get_text(" ", strip=True) if title_tag is not None else ""
    if title_tag is not None:
        title_tag.decompose()
    markdown, warnings = soup_to_markdown(soup)
    return titled(markdown, title, warnings)


def _no_image(image: Any) -> dict[str, str]:
    """An image's alt text, without reading its bytes."""
    return {"alt": image.alt_text or ""}
