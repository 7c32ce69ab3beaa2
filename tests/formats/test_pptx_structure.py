"""Chart words, SmartArt text and every text of the notes page (skills/formats/office/pptx.py), on
decks written here with python-pptx."""

from __future__ import annotations

import io
from typing import Any

from skills.formats.conversion import Limits
from skills.formats.office.pptx import pptx_to_markdown

_DATA_MODEL = (
    '<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>'
    '<dgm:pt modelId="0" type="doc"/>'
    '<dgm:pt modelId="1"><dgm:t><a:p><a:r><a:t>Plan the rollout</a:t></a:r></a:p></dgm:t></dgm:pt>'
    '<dgm:pt modelId="2"><dgm:t><a:p><a:r><a:t>Train the support team</a:t></a:r></a:p></dgm:t>'
    "</dgm:pt></dgm:ptLst></dgm:dataModel>"
)
_FRAME = (
    '<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<p:nvGraphicFramePr><p:cNvPr id="90" name="Diagram"/><p:cNvGraphicFramePr/><p:nvPr/>'
    '</p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm>'
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">'
    '<dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
    'r:dm="{rid}" r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic></p:graphicFrame>'
)

_BOX = (
    '<p:sp xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:nvSpPr>'
    '<p:cNvPr id="91" name="Text box"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/>'
    "<p:txBody><a:bodyPr/><a:p><a:r><a:t>Backup figures are in the appendix.</a:t></a:r></a:p>"
    "</p:txBody></p:sp>"
)


def deck() -> tuple[Any, Any]:
    from pptx import Presentation

    presentation = Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[5])
    slide.shapes.title.text = "Quarterly results"
    return presentation, slide


def converted(presentation: Any) -> str:
    out = io.BytesIO()
    presentation.save(out)
    return pptx_to_markdown(out.getvalue(), Limits()).text


def test_a_chart_keeps_its_title_categories_and_series_names() -> None:
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    presentation, slide = deck()
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = ["North", "South"]
    data.add_series("Revenue 2023", (1.0, 2.0))  # type: ignore[no-untyped-call]
    data.add_series("Revenue 2024", (1.5, 2.5))  # type: ignore[no-untyped-call]
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, 0, Inches(2), Inches(4), Inches(3), data
    )
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Revenue by region"
    text = converted(presentation)
    assert "Chart: Revenue by region" in text
    assert "Categories: North, South" in text
    assert "Series: Revenue 2023, Revenue 2024" in text


def test_a_chart_title_without_text_shows_its_only_series_name() -> None:
    """PowerPoint's new pie chart (python-pptx's cht-replace-data.pptx, round office-7) has a
    title element without text: Office shows the only series' name there ("Sales"). With two
    series it shows a placeholder, which is no title."""
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    presentation, slide = deck()
    for names in (["Sales"], ["Revenue 2023", "Revenue 2024"]):
        data = CategoryChartData()  # type: ignore[no-untyped-call]
        data.categories = ["1st Qtr", "2nd Qtr"]
        for name in names:
            data.add_series(name, (8.2, 3.2))  # type: ignore[no-untyped-call]
        kind = XL_CHART_TYPE.PIE if len(names) == 1 else XL_CHART_TYPE.COLUMN_CLUSTERED
        frame = slide.shapes.add_chart(kind, 0, Inches(2), Inches(4), Inches(3), data)
        frame.chart.has_title = True  # a c:title without c:tx, as PowerPoint writes it
    text = converted(presentation)
    assert "Chart: Sales" in text
    assert "Chart: Revenue" not in text and "Series: Revenue 2023, Revenue 2024" in text


def _boxes(slide: Any, boxes: list[tuple[float, float, float, str]]) -> None:
    """Text boxes at (left, top, width) inches, 0.6 inch high unless they hold a sentence."""
    from pptx.util import Inches

    for left, top, width, text in boxes:
        height = Inches(2.5 if len(text) > 20 else 0.6)
        box = slide.shapes.add_textbox(Inches(left), Inches(top), Inches(width), height)
        box.text_frame.text = text


def test_a_comparison_slide_is_read_column_by_column() -> None:
    """The kreuzberg pitch deck's comparison slides (round office-6) set a caption over a text
    on each side: read top to bottom across the slide, the two captions came first, then the
    two texts. Two columns of stacked shapes are read column by column."""
    presentation, slide = deck()
    _boxes(
        slide,
        [
            (0.5, 1.5, 4, "Unique"),
            (5.0, 1.5, 4, "First to market"),
            (0.5, 2.2, 4, "Only product dedicated to this niche market"),
            (5.0, 2.2, 4, "First product both stylish and functional"),
        ],
    )
    text = converted(presentation)
    order = ["Unique", "Only product", "First to market", "First product"]
    assert [text.index(words) for words in order] == sorted(text.index(w) for w in order)


def test_three_columns_or_a_shape_across_both_keep_the_order_across_the_slide() -> None:
    presentation, slide = deck()
    _boxes(
        slide,
        [
            (0.5, 1.0, 9, "Across both columns"),
            (0.5, 1.8, 4, "Left caption"),
            (5.0, 1.8, 4, "Right caption"),
            (0.5, 2.6, 4, "Left text under its caption"),
            (5.0, 2.6, 4, "Right text under its caption"),
        ],
    )
    text = converted(presentation)
    order = ["Across", "Left caption", "Right caption", "Left text", "Right text"]
    assert [text.index(words) for words in order] == sorted(text.index(w) for w in order)


def test_smartart_text_comes_from_its_diagram_data() -> None:
    from lxml import etree
    from pptx.opc.constants import RELATIONSHIP_TYPE
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI

    presentation, slide = deck()
    part = Part(
        PackURI("/ppt/diagrams/data1.xml"),
        "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
        slide.part.package,
        _DATA_MODEL.encode(),
    )
    rid = slide.part.relate_to(part, RELATIONSHIP_TYPE.DIAGRAM_DATA)
    slide.shapes._spTree.append(etree.fromstring(_FRAME.format(rid=rid)))
    text = converted(presentation)
    assert "Plan the rollout\nTrain the support team" in text


def test_every_text_of_the_notes_page_is_kept_but_its_slide_number() -> None:
    from lxml import etree

    presentation, slide = deck()
    notes = slide.notes_slide
    notes.notes_text_frame.text = "Say the numbers slowly."
    notes.shapes._spTree.append(etree.fromstring(_BOX))
    text = converted(presentation)
    assert "Say the numbers slowly." in text
    assert "Backup figures are in the appendix." in text


def test_a_slide_number_date_and_footer_on_a_slide_are_left_out() -> None:
    # kreuzberg's pitch deck: 'Presentation title' in the footer and the number on every slide
    import copy

    presentation, slide = deck()
    layout = slide.slide_layout
    for placeholder in layout.placeholders:
        if placeholder.placeholder_format.type in (13, 15, 16):  # number, footer, date
            slide.shapes._spTree.append(copy.deepcopy(placeholder._element))
    texts = {13: "2", 15: "Contoso pitch", 16: "5/4/2024"}
    for shape in slide.placeholders:
        if shape.placeholder_format.type in texts:
            shape.text_frame.text = texts[shape.placeholder_format.type]
    body = slide.shapes.add_textbox(0, 0, 100, 100)
    body.text_frame.text = "Revenue grew in every region."
    text = converted(presentation)
    assert len([s for s in slide.placeholders if s.placeholder_format.type in texts]) == 3
    assert "Revenue grew in every region." in text
    assert "Contoso pitch" not in text and "5/4/2024" not in text
    assert "\n\n2\n\n" not in text


def test_a_deck_without_any_text_says_so() -> None:
    from pptx import Presentation

    presentation = Presentation()
    presentation.slides.add_slide(presentation.slide_layouts[6])  # blank
    out = io.BytesIO()
    presentation.save(out)
    converted = pptx_to_markdown(out.getvalue(), Limits())
    assert any("has no text to index" in w for w in converted.warnings)


def test_a_deck_with_text_has_no_such_warning() -> None:
    presentation, _ = deck()
    out = io.BytesIO()
    presentation.save(out)
    assert pptx_to_markdown(out.getvalue(), Limits()).warnings == ()


def titled_deck(stored: str, titles: list[str]) -> Any:
    from pptx import Presentation

    presentation = Presentation()
    presentation.core_properties.title = stored
    for text in titles:
        slide = presentation.slides.add_slide(presentation.slide_layouts[5])
        slide.shapes.title.text = text
    return presentation


def converted_file(presentation: Any) -> Any:
    out = io.BytesIO()
    presentation.save(out)
    return pptx_to_markdown(out.getvalue(), Limits())


def test_a_stored_title_no_slide_shows_gives_way_to_the_first_slide_title() -> None:
    # PowerPoint stores its default or the design template's name in decks that never say it
    file = converted_file(titled_deck("Presentation", ["Migration plan", "Timeline"]))
    assert file.title == "Migration plan"


def test_a_stored_title_a_slide_shows_is_the_deck_title() -> None:
    file = converted_file(titled_deck("Migration plan 2024", ["Agenda", "Migration plan 2024"]))
    assert file.title == "Migration plan 2024"


def test_the_deck_title_heads_every_slide_even_when_the_first_slide_says_it() -> None:
    file = converted_file(titled_deck("", ["Migration plan", "Timeline", "Risks"]))
    assert file.title == "Migration plan"
    assert "# Timeline" in file.text


def test_a_title_broken_over_lines_reads_as_one_line() -> None:
    presentation = titled_deck("", ["Quarterly\vresults", "パワポ・テスト\v難しい"])
    text = converted(presentation)
    assert "# Quarterly results" in text
    assert "# パワポ・テスト難しい" in text


def test_a_chart_type_python_pptx_does_not_model_keeps_its_words() -> None:
    # PowerPoint's 3-D area chart: python-pptx raises NotImplementedError on its series
    import re
    import zipfile

    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    presentation, slide = deck()
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = ["North", "South"]
    data.add_series("Units", (3, 5))  # type: ignore[no-untyped-call]
    frame = slide.shapes.add_chart(XL_CHART_TYPE.AREA, 0, 0, Inches(4), Inches(3), data)
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Units by region"
    out = io.BytesIO()
    presentation.save(out)
    copy = io.BytesIO()
    with zipfile.ZipFile(out) as source, zipfile.ZipFile(copy, "w") as target:
        for item in source.infolist():
            part = source.read(item)
            if item.filename.startswith("ppt/charts/chart"):
                part = re.sub(rb"c:areaChart\b", b"c:area3DChart", part)
            target.writestr(item, part)
    text = pptx_to_markdown(copy.getvalue(), Limits()).text
    assert "Chart: Units by region" in text
    assert "Categories: North, South" in text and "Series: Units" in text


def test_date_categories_show_as_their_axis_shows_them() -> None:
    # PowerPoint stores a date axis as serial numbers under the axis's number format
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    presentation, slide = deck()
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = [37261, 37262]
    data.add_series("Visits", (3, 5))  # type: ignore[no-untyped-call]
    frame = slide.shapes.add_chart(XL_CHART_TYPE.LINE, 0, 0, Inches(4), Inches(3), data)
    code = "{http://schemas.openxmlformats.org/drawingml/2006/chart}formatCode"
    next(frame.chart._chartSpace.iter(code)).text = "m/d/yyyy"  # the category axis's
    assert "Categories: 1/5/2002, 1/6/2002" in converted(presentation)


def _sized_box(shapes: Any, top: float, text: str, points: float | None) -> Any:
    from pptx.util import Inches, Pt

    box = shapes.add_textbox(Inches(1), Inches(top), Inches(6), Inches(1))
    box.text_frame.text = text
    if points is not None:
        for paragraph in box.text_frame.paragraphs:
            for run in paragraph.runs:
                run.font.size = Pt(points)
    return box


def blank_slides(slides: list[list[tuple[str, float | None]]]) -> Any:
    """A deck of Blank-layout slides (no placeholder), each of text boxes (text, points)."""
    from pptx import Presentation

    presentation = Presentation()
    for boxes in slides:
        slide = presentation.slides.add_slide(presentation.slide_layouts[6])
        for top, (text, points) in enumerate(boxes):
            _sized_box(slide.shapes, 1 + top * 1.5, text, points)
    return presentation


def test_a_blank_slide_is_titled_by_its_much_larger_text_box() -> None:
    # the Accenture report deck (round office-8): 80 pt text boxes title Blank-layout slides
    presentation = blank_slides(
        [
            [("Social\vBuzz Data Analysis Report", 72)],
            [("Problem", 80), ("Over the past 5 years, Social Buzz has grown a lot.", 28)],
            [("1", 72), ("Process", 80), ("Cleaning the Data", 28)],  # a step's digit
        ]
    )
    file = converted_file(presentation)
    assert [line for line in file.text.splitlines() if line.startswith("#")] == [
        "# Social Buzz Data Analysis Report",
        "# Problem",
        "# Process",
    ]
    assert file.title == "Social Buzz Data Analysis Report"
    assert file.text.count("Problem") == 1  # the title is not repeated as text


def test_a_title_text_box_inside_a_group_is_read_once() -> None:
    presentation = blank_slides([[("Over the past 5 years, Social Buzz has grown a lot.", 24)]])
    group = presentation.slides[0].shapes.add_group_shape()
    _sized_box(group.shapes, 0, "Today's agenda", 80)
    text = converted(presentation)
    assert "# Today's agenda" in text.splitlines()
    assert text.count("Today's agenda") == 1


def test_small_or_unsized_or_even_text_boxes_title_nothing() -> None:
    presentation = blank_slides(
        [
            [("Documentation of this task: UML", 18), ("Situation 8: Manager updates", 11)],
            [("Problem", None), ("Over the past 5 years, Social Buzz has grown.", 28)],
            [("Strengths", 32), ("Weaknesses", 32)],
            [("A note written at a title's size runs on, as notes do.", 60), ("Body", 20)],
        ]
    )
    assert not [line for line in converted(presentation).splitlines() if line.startswith("#")]


def _list_style_size(box: Any, points: float) -> None:
    """Set a text box's size in its own list style only (``a:lstStyle/a:lvl1pPr/a:defRPr``), its
    runs bare, as design templates do."""
    from lxml import etree

    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    style = box.text_frame._txBody.find(f"{{{a}}}lstStyle")
    level = etree.SubElement(style, f"{{{a}}}lvl1pPr")
    etree.SubElement(level, f"{{{a}}}defRPr", sz=str(int(points * 100)))


def test_a_title_box_sized_in_its_list_style_titles_its_slide() -> None:
    # the NOVOGUE template (round office-9): 'Take Style Seriously' at 48 pt set in the box's
    # list style, beside 14 pt labels and 9 pt text sized on their runs
    presentation = blank_slides([[("Take Style Seriously", None), ("FASHION", 14), ("Lorem", 9)]])
    _list_style_size(presentation.slides[0].shapes[0], 48)
    assert "# Take Style Seriously" in converted(presentation).splitlines()


def test_a_bare_text_box_takes_the_deck_default_size() -> None:
    # the eLetto template (round office-9): 'About us' at 40 pt beside a bare 'THIS IS' box,
    # drawn at the deck's default text size (18 pt in PowerPoint's blank deck, as here)
    presentation = blank_slides([[("About us", 40), ("THIS IS", None), ("What you'll learn", 28)]])
    assert "# About us" in converted(presentation).splitlines()


def test_a_bare_title_box_at_the_default_size_titles_nothing() -> None:
    # a bare box is drawn at the deck's 18 pt: not a title's size, whatever else is on the slide
    presentation = blank_slides([[("Problem", None), ("Over the past 5 years", 12)]])
    assert not [line for line in converted(presentation).splitlines() if line.startswith("#")]
