"""PowerPoint (.pptx) to the engine's Markdown: one page per slide, its title a heading.

Each slide becomes ``# <slide title>`` (when it has one) and its shapes in reading order (top to
bottom, then left to right, into groups): text as paragraphs, indented paragraphs as nested list
items, tables as pipe tables whose first row is the header, then the speaker notes. Slides are
separated by Document Intelligence's page markers, so every chunk knows its slide numbers. The
deck's title is its document property, else the first slide's title. Pictures and charts are left
out.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    out_of_time,
    stopped_at,
    titled,
)
from skills.formats.markdown_text import heading, plain, table

#: python-pptx holds every part it reads as an lxml tree, about 16 bytes of memory per byte of
#: XML (a 2,000-slide deck of 2.4 MB of XML peaked 37 MB above its start): 32 MB of a deck's XML
#: stays near 0.5 GB, where the package limit alone (512 MB unpacked) would allow gigabytes
MAX_DECK_XML_BYTES = 32 * 2**20


def pptx_to_markdown(data: bytes, limits: Limits) -> Converted:
    from pptx import Presentation

    _check_xml_size(data)
    try:
        deck = Presentation(io.BytesIO(data))
    except (KeyError, ValueError) as exc:
        raise ConversionError(f"not a readable PowerPoint deck ({type(exc).__name__})") from None
    slides = list(deck.slides)
    if len(slides) > limits.max_pages:
        raise ConversionError(
            f"the deck has {len(slides)} slides, more than the {limits.max_pages} one file may "
            "have: split it"
        )
    pages: list[str] = []
    warnings: list[str] = []
    for number, slide in enumerate(slides, start=1):
        if limits.expired():
            warnings.append(out_of_time("slides", number - 1, len(slides)))
            break
        pages.append(_slide(slide, number, limits))
        if limits.expired():  # inside the slide, whose shapes stop at the deadline too
            done = f"{number - 1} of {len(slides)} slides and part of slide {number}"
            warnings.append(stopped_at(done))
            break
    first_title = next((_title_of(slide) for slide in slides if _title_of(slide)), "")
    title = deck.core_properties.title or first_title
    return titled(f"\n\n{PAGE_BREAK}\n\n".join(pages) + "\n", title, warnings)


def _check_xml_size(data: bytes) -> None:
    """Refuse, before a part is parsed, a deck whose XML would not fit in memory."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        size = sum(i.file_size for i in package.infolist() if i.filename.endswith(".xml"))
    if size > MAX_DECK_XML_BYTES:
        raise ConversionError(
            f"the deck is {size / 2**20:,.0f} MB of XML, more than the "
            f"{MAX_DECK_XML_BYTES // 2**20} MB one file may have: split it or save it as PDF"
        )


def _slide(slide: Any, number: int, limits: Limits) -> str:
    blocks = []
    title_shape = slide.shapes.title
    if title_shape is not None and title_shape.text_frame.text.strip():
        blocks.append(heading(1, title_shape.text_frame.text))
    title_id = title_shape.shape_id if title_shape is not None else None
    shapes = (shape for shape in slide.shapes if shape.shape_id != title_id)
    blocks.extend(_blocks(shapes, limits))
    if slide.has_notes_slide and not limits.expired():
        notes = slide.notes_slide.notes_text_frame
        if notes is not None and notes.text.strip():
            blocks.append(plain(notes.text.strip()))
    blocks.append(f'<!-- PageNumber="{number}" -->')
    return "\n\n".join(blocks)


def _blocks(shapes: Iterable[Any], limits: Limits) -> Iterator[str]:
    """The shapes' text in reading order, up to the deadline (checked on every shape: one slide
    may hold thousands; the slide loop then says where conversion stopped)."""
    for shape in sorted(shapes, key=lambda s: (s.top or 0, s.left or 0)):
        if limits.expired():
            return
        if shape.shape_type is not None and shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
            yield from _blocks(shape.shapes, limits)
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [[c.text for c in row.cells] for row in shape.table.rows]
            if rows:
                yield table(rows)
        elif shape.has_text_frame:
            text = _text_frame(shape.text_frame)
            if text:
                yield text


def _text_frame(frame: Any) -> str:
    lines = []
    for paragraph in frame.paragraphs:
        text = " ".join(paragraph.text.replace("\x0b", "\n").split())
        if not text:
            continue
        if paragraph.level > 0:
            lines.append("  " * (paragraph.level - 1) + "- " + text)
        else:
            lines.append(("\n" if lines else "") + plain(text))
    return "\n".join(lines).strip()


def _title_of(slide: Any) -> str:
    shape = slide.shapes.title
    return str(shape.text_frame.text).strip() if shape is not None else ""
