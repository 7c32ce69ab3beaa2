"""PowerPoint (.pptx) to the engine's Markdown: one page per slide, its title a heading.

Each slide becomes ``# <slide title>`` (when it has one: its title placeholder, or on a slide
without one, as decks built on the Blank layout are, a text box of one short line set at 28 pt
or more and a quarter larger than any other text on it) and its shapes in reading order (top to
bottom, then left to right, into groups): text as paragraphs, indented paragraphs as nested list
items, tables as pipe tables whose first row is the header, a chart as its title, categories and
series names (read from the chart's XML, so every chart type reads alike; a date axis as its
number format shows it), SmartArt as the texts of its diagram data, then all the text of the
notes page (the notes placeholder and any other text box on it). Slide numbers, dates and
footers, on slides and notes pages, are furniture and left out. Slides are separated by
Document Intelligence's page markers, so every chunk knows its slide numbers.
The deck's title is its stored title when a slide shows it, else the first slide's title
(PowerPoint stores "Presentation" or the design template's name in decks that never say it); it
heads every slide's heading path, the first slide's too. Pictures are left out, and so are a
chart's numbers (its data lives in an embedded workbook).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from typing import Any

from skills.formats.conversion import (
    PAGE_BREAK,
    ConversionError,
    Converted,
    Limits,
    no_text,
    out_of_time,
    reason,
    stopped_at,
    titled,
)
from skills.formats.markdown_text import heading, plain, table
from skills.formats.office.number_format import display
from skills.formats.office.part_names import usual_part_names
from skills.formats.office.strict import as_transitional
from skills.formats.office.xml_numbers import whole

_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
_DIAGRAM = _DGM
_MARKER = re.compile(r"<!-- Page(?:Number=\"\d+\"|Break) -->")
#: placeholders that are furniture, on a slide as on its notes page: slide number, date, header,
#: footer (a footer repeats the deck's name or "Confidential" on every slide)
_FURNITURE = {13, 16, 14, 15}  # PP_PLACEHOLDER.SLIDE_NUMBER, DATE, HEADER, FOOTER
#: python-pptx holds every part it reads as an lxml tree, about 16 bytes of memory per byte of
#: XML (a 2,000-slide deck of 2.4 MB of XML peaked 37 MB above its start): 32 MB of a deck's XML
#: stays near 0.5 GB, where the package limit alone (512 MB unpacked) would allow gigabytes
MAX_DECK_XML_BYTES = 32 * 2**20


def pptx_to_markdown(data: bytes, limits: Limits) -> Converted:
    from pptx import Presentation

    _check_xml_size(data)
    data = as_transitional(usual_part_names(data, limits), "ppt/presentation.xml", limits)
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
    defaults = level_points(deck.part._element.find(f"{{{_P}}}defaultTextStyle"))
    pages: list[str] = []
    warnings: list[str] = []
    broken: list[str] = []
    unreadable: list[str] = []  # slides python-pptx cannot read (an id of 5,000 digits)
    for number, slide in enumerate(slides, start=1):
        if limits.expired():
            warnings.append(out_of_time("slides", number - 1, len(slides)))
            break
        try:
            pages.append(_slide(slide, number, limits, broken, defaults))
        except (ValueError, TypeError, KeyError) as exc:  # python-pptx's reading of its XML
            pages.append(f'<!-- PageNumber="{number}" -->')
            unreadable.append(f"slide {number} ({reason(exc)})")
        if limits.expired():  # inside the slide, whose shapes stop at the deadline too
            done = f"{number - 1} of {len(slides)} slides and part of slide {number}"
            warnings.append(stopped_at(done))
            break
    if broken:
        warnings.append(
            f"{len(broken)} shape{'s' if len(broken) != 1 else ''} left out, their parts missing "
            f"or unreadable ({', '.join(broken[:3])}{', ...' if len(broken) > 3 else ''}): the "
            "rest of the deck is indexed; open and save the deck in PowerPoint to repair it"
        )
    if unreadable:
        warnings.append(
            f"{'; '.join(unreadable[:3])}{'; ...' if len(unreadable) > 3 else ''} could not be "
            "read and left out: the rest of the deck is indexed; open and save the deck in "
            "PowerPoint to repair it"
        )
    text = f"\n\n{PAGE_BREAK}\n\n".join(pages) + "\n"
    if not _MARKER.sub("", text).strip():
        warnings.append(no_text("deck"))
    first = _title_of(slides[0], defaults) if slides else ""
    title = deck_title(deck.core_properties.title, first, text)
    if title is None or len(pages) < 2:
        return titled(text, title, warnings)
    # every slide's title is a level-1 heading, a sibling of the others: the deck's title heads
    # them all, so it is kept even when it is the first slide's title too
    return Converted(text, title, tuple(warnings))


def deck_title(stored: str | None, first_slide: str, text: str) -> str | None:
    """The deck's title: its stored title when a slide shows it, else its first slide's title.
    PowerPoint keeps a stored title the deck never shows from elsewhere: its default
    ("Presentation", "PowerPoint Presentation") or the design template's name.

    >>> deck_title("Presentation", "Q3 results", "# Q3 results")
    'Q3 results'
    >>> deck_title("Q3 results", "Agenda", "# Agenda ... Q3 results ...")
    'Q3 results'
    >>> deck_title("Presentation", "", "# Revenue") is None
    True
    """
    stored = " ".join((stored or "").split())
    if stored and _squeezed(stored) in _squeezed(text):
        return stored
    return first_slide or None


def _squeezed(text: str) -> str:
    return "".join(text.split()).casefold()


def _check_xml_size(data: bytes) -> None:
    """Refuse, before a part is parsed, a deck whose XML would not fit in memory."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        size = sum(i.file_size for i in package.infolist() if i.filename.endswith(".xml"))
    if size > MAX_DECK_XML_BYTES:
        raise ConversionError(
            f"the deck is {size / 2**20:,.0f} MB of XML, more than the "
            f"{MAX_DECK_XML_BYTES // 2**20} MB one file may have: split it or save it as PDF"
        )


def _slide(
    slide: Any, number: int, limits: Limits, broken: list[str], defaults: dict[int, float]
) -> str:
    blocks = []
    title_shape = slide.shapes.title
    if title_shape is None:
        title_shape = _text_box_title(slide.shapes, defaults)
    if title_shape is not None and title_shape.text_frame.text.strip():
        blocks.append(heading(1, one_line(title_shape.text_frame.text)))
    title_id = title_shape.shape_id if title_shape is not None else None
    shapes = (s for s in slide.shapes if s.shape_id != title_id and not _furniture(s))
    blocks.extend(_blocks(shapes, limits, broken, number, title_id))
    if slide.has_notes_slide and not limits.expired():
        blocks.extend(_notes(slide.notes_slide))
    blocks.append(f'<!-- PageNumber="{number}" -->')
    return "\n\n".join(blocks)


def _blocks(
    shapes: Iterable[Any], limits: Limits, broken: list[str], number: int, skip: int | None = None
) -> Iterator[str]:
    """The shapes' text in reading order, up to the deadline (checked on every shape: one slide
    may hold thousands; the slide loop then says where conversion stopped). A chart or a
    SmartArt graphic whose part is missing or unreadable (a relationship to no part, a part of
    another type) is left out and named in ``broken``: it failed the whole deck."""
    for shape in _reading_order(list(shapes)):
        if limits.expired():
            return
        if shape.shape_type is not None and shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
            inner = (s for s in shape.shapes if s.shape_id != skip)  # the title, read above
            yield from _blocks(inner, limits, broken, number, skip)
        elif (getattr(shape, "has_chart", False) and shape.has_chart) or _is_smartart(shape):
            text = _graphic(shape, broken, number)
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


def _reading_order(shapes: list[Any]) -> list[Any]:
    """Top to bottom, then left to right; but two columns of stacked shapes (a comparison
    slide's caption over its text on each side, the kreuzberg pitch deck's) are read column
    by column: the shapes fall into exactly two groups that no shape spans, side by side, each
    of two shapes or more. A slide of three columns, or with a shape across both, keeps the
    plain order."""
    ordered = sorted(shapes, key=lambda s: (s.top or 0, s.left or 0))
    if len(ordered) < 4:
        return ordered
    by_left = sorted(ordered, key=lambda s: s.left or 0)
    cuts, reach = [], -1
    for index, shape in enumerate(by_left[:-1]):
        reach = max(reach, (shape.left or 0) + (shape.width or 0))
        if reach <= (by_left[index + 1].left or 0):
            cuts.append(index + 1)
    if len(cuts) != 1 or not 2 <= cuts[0] <= len(by_left) - 2:
        return ordered
    left, right = by_left[: cuts[0]], by_left[cuts[0] :]
    if not _side_by_side(left, right):
        return ordered
    on_left = {id(s) for s in left}  # (a shape's == compares its XML: ``in left`` was quadratic)
    return [s for s in ordered if id(s) in on_left] + [s for s in ordered if id(s) not in on_left]


def _side_by_side(left: list[Any], right: list[Any]) -> bool:
    """Whether two groups of shapes share the slide's height (their spans overlap)."""

    def span(group: list[Any]) -> tuple[int, int]:
        return min(s.top or 0 for s in group), max((s.top or 0) + (s.height or 0) for s in group)

    (top_a, bottom_a), (top_b, bottom_b) = span(left), span(right)
    return top_a < bottom_b and top_b < bottom_a


def _furniture(shape: Any) -> bool:
    """A slide number, date, header or footer placeholder: the same on every page."""
    return bool(shape.is_placeholder) and shape.placeholder_format.type in _FURNITURE


def _graphic(shape: Any, broken: list[str], number: int) -> str:
    """A chart's or a SmartArt graphic's words; "" (and the shape named in ``broken``) when
    its part cannot be read."""
    try:
        return _chart(shape.chart) if shape.has_chart else _smartart(shape)
    except Exception as exc:  # python-pptx and lxml raise their own types on a broken part
        broken.append(f"slide {number}: {shape.name!r} ({type(exc).__name__})")
        return ""


def _notes(notes_slide: Any) -> Iterator[str]:
    """Every text on the notes page but its slide number, date, header and footer."""
    for shape in notes_slide.shapes:
        if not shape.has_text_frame:
            continue
        if _furniture(shape):
            continue
        text = shape.text_frame.text.strip()
        if text:
            yield plain(text)


_C = "http://schemas.openxmlformats.org/drawingml/2006/chart"


def _chart(chart: Any) -> str:
    """A chart's words: its title, its categories and its series' names, read from the chart
    part's XML so that every chart type reads alike (python-pptx models few of them: a 3-D area
    chart raised NotImplementedError and failed the whole deck). A title without text of its own
    (PowerPoint's new pie chart) shows, as Office does, its only series' name: ``Sales``."""
    space = chart._chartSpace
    lines = []
    series = list(space.iter(f"{{{_C}}}ser"))
    names = [name for ser in series if (name := _series_name(ser))]
    title = space.find(f"{{{_C}}}chart/{{{_C}}}title")
    words = " ".join(t.text or "" for t in title.iter(f"{{{_A}}}t")) if title is not None else ""
    words = " ".join(words.split())
    if title is not None and title.find(f"{{{_C}}}tx") is None and len(series) == len(names) == 1:
        words = names[0]  # a title without text of its own shows the only series' name
    if words:
        lines.append(f"Chart: {words}")
    categories = _category_labels(series[0]) if series else []
    if categories:
        lines.append("Categories: " + ", ".join(categories))
    if names:
        lines.append("Series: " + ", ".join(names))
    return plain("\n".join(lines))


def _category_labels(series: Any) -> list[str]:
    """The category labels of a series (its ``c:cat`` cache; of a multi-level axis, the
    innermost level), in order."""
    category = series.find(f"{{{_C}}}cat")
    if category is None:
        return []
    level = category.find(f".//{{{_C}}}lvl")
    points = (level if level is not None else category).iter(f"{{{_C}}}pt")
    fmt = category.findtext(f".//{{{_C}}}formatCode")
    labels = [" ".join((p.findtext(f"{{{_C}}}v") or "").split()) for p in points]
    return [_shown(label, fmt) for label in labels if label]


def _shown(label: str, fmt: str | None) -> str:
    """A number category as its axis shows it (a date's serial 37261 in ``m/d/yyyy`` is
    1/5/2002); text as it is."""
    from openpyxl.styles.numbers import is_date_format
    from openpyxl.utils.datetime import from_excel

    try:
        value = float(label)
    except ValueError:
        return label
    if fmt and is_date_format(fmt):
        try:
            return display(from_excel(value), fmt)
        except (ValueError, OverflowError):
            return label
    return display(value, fmt or "General")


def _series_name(series: Any) -> str:
    """A series' name: its ``c:tx`` cached text or its literal value."""
    name = series.find(f"{{{_C}}}tx")
    if name is None:
        return ""
    texts = [v.text or "" for v in name.iter(f"{{{_C}}}v")]
    return " ".join(" ".join(texts).split())


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


def _title_of(slide: Any, defaults: dict[int, float]) -> str:
    try:
        shape = slide.shapes.title
        if shape is None:
            shape = _text_box_title(slide.shapes, defaults)
    except (ValueError, TypeError, KeyError):  # a slide left out as unreadable
        return ""
    return one_line(str(shape.text_frame.text)) if shape is not None else ""


#: a slide's title set in a text box is at least this large, and this many times any other text
_TITLE_POINTS = 28
_TITLE_RATIO = 1.25


def _text_box_title(shapes: Any, defaults: dict[int, float]) -> Any:
    """On a slide without a title placeholder (decks built on the Blank layout), the text box
    that titles it: one short line, a title's size (28 pt or more) and a quarter again as large as
    every other text on the slide ("Problem" at 80 pt over 28 pt text; groups read into). Sizes
    are read as PowerPoint draws them (:func:`shape_points`); a text whose size cannot be known
    leaves the slide untitled, as does a tie."""
    texts: list[tuple[Any, float]] = []
    stack = list(shapes)
    while stack:
        shape = stack.pop()
        if shape.shape_type is not None and shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
            stack.extend(shape.shapes)
            continue
        if not shape.has_text_frame or not _LETTER.search(shape.text_frame.text):
            continue  # numbers alone (a step's "1") title nothing
        points = shape_points(shape, defaults)
        if points is None:
            return None
        texts.append((shape, points))
    if not texts:
        return None
    texts.sort(key=lambda item: item[1], reverse=True)
    shape, size = texts[0]
    others = [other for _, other in texts[1:]]
    words = one_line(shape.text_frame.text)
    short = len(words) <= 80 and len(words.split()) <= 10 and not words.endswith((".", ",", ";"))
    large = size >= _TITLE_POINTS and all(size >= _TITLE_RATIO * other for other in others)
    return shape if short and large else None


def shape_points(shape: Any, defaults: dict[int, float]) -> float | None:
    """The largest size (pt) of a shape's text as PowerPoint draws it, None when no run's size
    can be known here. A run without a size of its own inherits, in DrawingML's order, its
    paragraph's (``a:pPr/a:defRPr``), then its level's in the shape's own list style
    (``a:lstStyle``: templates set a title box's 48 pt there, its runs bare), then, in a text
    box, the deck's default text style (``p:defaultTextStyle``, 18 pt in PowerPoint's blank
    deck). A placeholder's further steps (its layout's and master's styles) are not read, so a
    bare run in a placeholder stays unknown.

    A bare run in a box whose list style sets 48 pt: 48.0; in a plain box of a deck whose
    default is 18 pt: 18.0.
    """
    body = shape.text_frame._txBody
    own = level_points(body.find(f"{{{_A}}}lstStyle"))
    deck = {} if shape.is_placeholder else defaults
    sizes = []
    for paragraph in shape.text_frame.paragraphs:
        properties = paragraph._p.find(f"{{{_A}}}pPr")
        marked = properties.find(f"{{{_A}}}defRPr") if properties is not None else None
        inherited = (
            _hundredths(marked) or own.get(paragraph.level + 1) or deck.get(paragraph.level + 1)
        )
        for run in paragraph.runs:
            points = run.font.size.pt if run.font.size else inherited
            if points:
                sizes.append(points)
    return max(sizes) if sizes else None


def level_points(list_style: Any) -> dict[int, float]:
    """The size (pt) a DrawingML list style (``a:lstStyle``, ``p:defaultTextStyle``) gives its
    paragraph levels 1-9, those it sets: ``<a:lvl1pPr><a:defRPr sz="4800"/>`` is {1: 48.0}."""
    if list_style is None:
        return {}
    sizes = {}
    for level in range(1, 10):
        points = _hundredths(list_style.find(f"{{{_A}}}lvl{level}pPr/{{{_A}}}defRPr"))
        if points:
            sizes[level] = points
    return sizes


#: DrawingML's largest text size, 4,000 points, in the hundredths ``sz`` is written in
MAX_HUNDREDTHS = 400_000


def _hundredths(properties: Any) -> float | None:
    """A text properties element's ``sz`` (hundredths of a point) in points, if it sets one,
    read by :func:`~skills.formats.office.xml_numbers.whole`: ``int`` refused ``²`` (which
    ``isdigit`` passes) and 5,000 digits, and the slide was left out, or the whole deck when
    its default text style wrote it.

    >>> from lxml import etree
    >>> [_hundredths(etree.fromstring(f'<r sz="{v}"/>')) for v in ("4800", "²", "9" * 5000)]
    [48.0, None, 4000.0]
    """
    value = properties.get("sz") if properties is not None else None
    hundredths = whole(value, MAX_HUNDREDTHS)
    return hundredths / 100 if hundredths else None


_LETTER = re.compile(r"[^\W\d_]")


#: Chinese, Japanese and Korean characters, which are written without spaces between words
_WIDE = r"\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_WIDE_BREAK = re.compile(rf"(?<=[{_WIDE}])[\v\n]+(?=[{_WIDE}])")


def one_line(text: str) -> str:
    """A title set on several lines as one line: a line break is a space, except between two
    Chinese, Japanese or Korean characters, where it is nothing (those scripts put no space
    between words).

    >>> one_line("Quarterly\vresults"), one_line("パワポ・テスト\v難しい")
    ('Quarterly results', 'パワポ・テスト難しい')
    """
    return " ".join(_WIDE_BREAK.sub("", text).split())
