"""PowerPoint (.pptx) to the engine's Markdown: one page per slide, its title a heading.

Each slide becomes ``# <slide title>`` (when it has one) and its shapes in reading order (top to
bottom, then left to right, into groups): text as paragraphs, indented paragraphs as nested list
items, tables as pipe tables whose first row is the header, a chart as its title, categories
and series names, SmartArt as the texts of its diagram data, then all the text of the notes page
(the notes placeholder and any other text box on it; not its slide number). Slides are separated
by Document Intelligence's page markers, so every chunk knows its slide numbers. The deck's
title is its document property, else the first slide's title. Pictures are left out, and so are
a chart's numbers (its data lives in an embedded workbook).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    no_text,
    out_of_time,
    stopped_at,
    titled,
)
from skills.formats.markdown_text import heading, plain, table

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_DIAGRAM = _DGM
_MARKER = re.compile(r"<!-- Page(?:Number=\"\d+\"|Break) -->")
#: placeholders of a notes page that are furniture: slide number, date, header, footer
_NOTES_FURNITURE = {13, 16, 14, 15}  # PP_PLACEHOLDER.SLIDE_NUMBER, DATE, HEADER, FOOTER


def pptx_to_markdown(data: bytes, limits: Limits) -> Converted:
    from pptx import Presentation

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
    text = f"\n\n{PAGE_BREAK}\n\n".join(pages) + "\n"
    if not _MARKER.sub("", text).strip():
        warnings.append(no_text("deck"))
    return titled(text, title, warnings)


def _slide(slide: Any, number: int, limits: Limits) -> str:
    blocks = []
    title_shape = slide.shapes.title
    if title_shape is not None and title_shape.text_frame.text.strip():
        blocks.append(heading(1, title_shape.text_frame.text))
    title_id = title_shape.shape_id if title_shape is not None else None
    shapes = (shape for shape in slide.shapes if shape.shape_id != title_id)
    blocks.extend(_blocks(shapes, limits))
    if slide.has_notes_slide and not limits.expired():
        blocks.extend(_notes(slide.notes_slide))
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
        elif getattr(shape, "has_chart", False) and shape.has_chart:
            text = _chart(shape.chart)
            if text:
                yield text
        elif _is_smartart(shape):
            text = _smartart(shape)
            if text:
                yield text
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [[c.text for c in row.cells] for row in shape.table.rows]
            if rows:
                yield table(rows)
        elif shape.has_text_frame:
            text = _text_frame(shape.text_frame)
            if text:
                yield text


def _notes(notes_slide: Any) -> Iterator[str]:
    """Every text on the notes page but its slide number, date, header and footer."""
    for shape in notes_slide.shapes:
        if not shape.has_text_frame:
            continue
        if shape.is_placeholder and shape.placeholder_format.type in _NOTES_FURNITURE:
            continue
        text = shape.text_frame.text.strip()
        if text:
            yield plain(text)


def _chart(chart: Any) -> str:
    """A chart's words: its title, its categories and its series' names."""
    lines = []
    if chart.has_title and chart.chart_title.has_text_frame:
        title = " ".join(chart.chart_title.text_frame.text.split())
        if title:
            lines.append(f"Chart: {title}")
    try:
        plots = list(chart.plots)
    except (KeyError, NotImplementedError):  # a chart type python-pptx does not model
        plots = []
    categories = [str(c) for c in plots[0].categories if str(c).strip()] if plots else []
    series = [s.name for plot in plots for s in plot.series if s.name]
    if categories:
        lines.append("Categories: " + ", ".join(categories))
    if series:
        lines.append("Series: " + ", ".join(series))
    return plain("\n".join(lines))


def _is_smartart(shape: Any) -> bool:
    element = shape._element
    return any(node.get("uri") == _DIAGRAM for node in element.iter(f"{{{_A}}}graphicData"))


def _smartart(shape: Any) -> str:
    """The texts of a SmartArt graphic, from its diagram data part, one per line."""
    from lxml import etree

    for node in shape._element.iter(f"{{{_DGM}}}relIds"):
        rid = node.get(f"{{{_R}}}dm")
        if rid is None:
            continue
        part = shape.part.related_part(rid)
        root = etree.fromstring(part.blob, etree.XMLParser(resolve_entities=False))
        texts = []
        for point in root.iter(f"{{{_DGM}}}pt"):
            words = " ".join("".join(t.text or "" for t in point.iter(f"{{{_A}}}t")).split())
            if words:
                texts.append(words)
        return plain("\n".join(texts))
    return ""


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
