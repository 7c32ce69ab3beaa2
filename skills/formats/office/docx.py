"""Word (.docx) to the engine's Markdown: the body streamed (``word_stream.py``), its headings
decided by ``word_outline.py``.

``Heading 1``-``Heading 6`` become headings, and so do the paragraphs ``word_outline.py``
finds to be headings without such a style (an outline level on the paragraph or its style, a
multi-level decimal numbering, section numbers typed in sequence, and, in a file with none of
these, a short bold or larger paragraph followed by body text); numbered and bulleted
paragraphs become nested lists, tables pipe tables whose first row is the header, and code
styles (``Source Code``, ``HTML Preformatted``, ``Code``) fenced blocks. The ``Title``
paragraph is the document's title, not a heading. Images are left out (their bytes are never
decoded); page numbers are not kept: a Word file has no fixed pages until it is laid out.

Headers and footers repeat on every page (a running title, "Page 3 of 9", a confidentiality
line) and comments are remarks about the text, not the text: both are left out. A document
whose body has no text but whose headers, footers or comments do is indexed from those, with a
warning, rather than as an empty file; a document with comments says how many were left out.
"""

from __future__ import annotations

import io
import re
import zipfile

from skills.formats.conversion import ConversionError, Converted, Limits, no_text, titled
from skills.formats.markdown_text import plain
from skills.formats.office.part_names import usual_part_names
from skills.formats.office.strict import as_transitional
from skills.formats.office.word_outline import Outline, text_runs
from skills.formats.office.word_stream import word_markdown

_BODY = "word/document.xml"
_ASIDE = re.compile(r"^word/(header|footer|comments)\d*\.xml$")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


#: the stream holds one top-level paragraph or table at a time; the HTML it writes (about a
#: tenth of the XML) is then parsed whole for markdownify, which bounds one file's body
MAX_DOCUMENT_XML_BYTES = 64 * 2**20
#: blocks between two looks at the deadline
_DEADLINE_EVERY = 200


def docx_to_markdown(data: bytes, limits: Limits) -> Converted:
    data = as_transitional(usual_part_names(data, limits), _BODY, limits)
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        size = sum(i.file_size for i in package.infolist() if i.filename == _BODY)
        if size > MAX_DOCUMENT_XML_BYTES:
            raise ConversionError(
                f"the Word document's body is {size / 2**20:,.0f} MB of XML, more than the "
                f"{MAX_DOCUMENT_XML_BYTES // 2**20} MB one file may have: split it or save it "
                "as PDF"
            )
        try:
            outline = _outline(package)
            markdown, title, stopped = word_markdown(package, outline, limits, _DEADLINE_EVERY)
        except KeyError as exc:  # a zip without word/document.xml
            raise ConversionError(f"not a readable Word document ({exc})"[:200]) from None
    warnings: list[str] = [stopped] if stopped else []
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
    if not markdown.strip() and not title:
        warnings.append(no_text("document"))
    return titled(markdown, title, warnings)


def _outline(package: zipfile.ZipFile) -> Outline:
    names = set(package.namelist())
    styles, numbering = (
        package.read(name) if name in names else None
        for name in ("word/styles.xml", "word/numbering.xml")
    )
    with package.open(_BODY) as body:
        return Outline.read(body, styles, numbering)


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
                texts = [text_runs(comment) for comment in root.iter(f"{_W}comment")]
            else:
                texts = [text_runs(paragraph) for paragraph in root.iter(f"{_W}p")]
            found[kind].extend(text for text in texts if text and text not in found[kind])
    return found
