"""Hostile Office shapes the converters' newer paths meet (merged ranges, rows numbered far
apart, charts, Strict packages, nested tables, numbering that refers to itself): each ends with a
correct output or a warning that says what was left out, with work bounded by the file or by
``Limits`` (``n`` against ``4 n`` with ``bench/cputime.py``'s ``least_growth`` where the work
grows with the file; a smaller cell budget where a tiny file declares a huge area).

The workbooks are written from their XML (``bench/hostile_files.workbook``), as a hostile file
would be: openpyxl refuses to write overlapping merged ranges or rows past Excel's last.
"""

from __future__ import annotations

import datetime
import io
import re
import time
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from office_xml import NS, docx, para, raw_para, rewritten, run
from office_xml import strict as strict_package

from bench.cputime import least_growth
from bench.hostile_files import column, workbook
from skills.formats.conversion import ConversionError, Limits
from skills.formats.read import read_file

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0


def _warned(warnings: tuple[str, ...], words: str) -> bool:
    return any(words in warning for warning in warnings)


def test_a_range_merged_over_the_whole_sheet_costs_its_cells_not_the_sheets_area() -> None:
    """``A1:XFD1048576`` over 1,000 rows of one cell filled 16,384 cells of each row: 9 KB of
    XML took 4.7 s and 1.2 GB. The cells a range fills count against the cell budget, so the
    sheet is cut where the budget ends, with the warning."""
    rows = {number: [f"v{number}"] for number in range(1, 1001)}
    file = read_file(
        workbook(rows, ["A1:XFD1048576"]), "merged.xlsx", limits=Limits(max_cells=100_000)
    )
    assert _warned(file.warnings, "workbook cut after 100000 cells")
    assert "| v1 |" in file.text  # the range's value, as Excel shows it over the whole sheet


def test_thousands_of_overlapping_merged_ranges_fill_each_cell_once() -> None:
    """Excel never writes overlapping ranges; a hostile file of 2,000 over the whole sheet filled
    each row 2,000 times and never counted it. A range over columns another range of the row
    already fills is left out, and every range a row is under costs the budget."""
    rows = {number: [f"v{number}", f"w{number}"] for number in range(1, 2001)}
    merges = [f"A{n}:{column(50 + n % 100)}1048576" for n in range(1, 2001)]
    file = read_file(workbook(rows, merges), "overlaps.xlsx", limits=Limits(max_cells=20_000))
    assert _warned(file.warnings, "workbook cut after 20000 cells")


def test_a_row_numbered_past_excels_last_is_not_waited_for() -> None:
    """openpyxl yields an empty row for every number between two rows: a row numbered 10**9
    after row 1 (a 1.5 KB file) ran until the deadline. Rows past Excel's last (1,048,576) are
    not read, with a warning; the rows between cost a sixteenth of a cell each."""
    file = read_file(
        workbook({1: ["Name", "Cost"], 2: ["rent", "12"], 10**9: ["far", "1"]}),
        "far.xlsx",
        limits=Limits(deadline=time.monotonic() + 60),
    )
    assert _warned(file.warnings, "numbers rows past Excel's last (1,048,576)")
    assert "| rent | 12 |" in file.text and "far" not in file.text
    assert not _warned(file.warnings, "time budget")


def test_rows_a_million_apart_are_both_read() -> None:
    file = read_file(workbook({1: ["first"], 1_000_000: ["last"]}), "apart.xlsx")
    assert "first" in file.text and "last" in file.text
    assert file.warnings == ()


def test_merged_header_cells_by_the_ten_thousand_cost_time_linear_in_their_number() -> None:
    """A header of two merged cells on every row (the cap on ranges read per sheet is 10,000:
    the larger file passes it)."""

    def merged_rows(count: int) -> bytes:
        rows = {n: [f"name {n}", "", f"value {n}"] for n in range(1, count + 1)}
        return workbook(rows, [f"A{n}:B{n}" for n in range(1, count + 1)])

    file = read_file(merged_rows(50), "headers.xlsx", isolated=False)
    assert "name 7" in file.text and "value 7" in file.text
    run = lambda data: read_file(data, "headers.xlsx", isolated=False)  # noqa: E731
    assert least_growth(merged_rows, 3_000, run, MAX_GROWTH) < MAX_GROWTH


def _numbered_headings(start: str) -> bytes:
    numbering = (
        f'<w:numbering {NS}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0">'
        f'<w:start w:val="{start}"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/>'
        '</w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
        "</w:numbering>"
    )
    body = []
    for k in range(3):
        body += [para(f"Scope {k}", outline=0, number=(1, 0)), para("The section's body text.")]
    return docx(body, numbering=numbering)


def test_a_numbering_that_starts_at_a_huge_number_writes_short_labels() -> None:
    """``w:start`` of 100,000,000 in Roman numerals wrote 100,000 ``M`` before every heading
    (built by string concatenation: quadratic; 10**9 never finished), and one of 5,000 digits
    failed the file. A level starts at most at Word's 32,767, and a number past 3,999 is written
    as its decimal."""
    assert "# III. Scope 0" in read_file(_numbered_headings("3"), "roman.docx").text
    for start in ("100000000", "9" * 5000):
        text = read_file(_numbered_headings(start), "roman.docx").text
        assert "# 32767. Scope 0" in text and "# 32769. Scope 2" in text
        assert len(text) < 300


def test_a_cell_spanning_a_million_columns_is_cut_to_its_tables_grid() -> None:
    """``w:gridSpan`` of 1,000,000 in a 1.4 KB file padded each of its table's 101 rows to a
    million cells: 309 MB of Markdown. A cell spans no further than its table's grid (or 64
    columns, Word's most being 63)."""
    rows = "".join(f"<w:tr><w:tc>{para(f'r{k}')}</w:tc></w:tr>" for k in range(100))
    wide = f'<w:tc><w:tcPr><w:gridSpan w:val="1000000"/></w:tcPr>{para("wide")}</w:tc>'
    text = read_file(docx([f"<w:tbl><w:tr>{wide}</w:tr>{rows}</w:tbl>"]), "wide.docx").text
    assert "| wide |" in text and "| r99 |" in text
    assert len(text) < 101 * 64 * 4


def _deck_with_chart() -> bytes:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Charted"
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = ["East", "West"]
    data.add_series("Sales", (1, 2))  # type: ignore[no-untyped-call]
    box = (Inches(1), Inches(1), Inches(4), Inches(3))
    slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, *box, data)
    second = deck.slides.add_slide(deck.slide_layouts[5])
    second.shapes.title.text = "After the chart"
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def _chart_points(count: int) -> Callable[[str, bytes], bytes | None]:
    def change(name: str, part: bytes) -> bytes:
        if not re.fullmatch(r"ppt/charts/chart\d+\.xml", name):
            return part
        points = "".join(f'<c:pt idx="{i}"><c:v>c{i}</c:v></c:pt>' for i in range(count))
        cache = re.compile(r'(<c:cat>.*?<c:ptCount val=")\d+("/>).*?(</c:strCache>)', re.S)
        return cache.sub(lambda m: f"{m[1]}{count}{m[2]}{points}{m[3]}", part.decode()).encode()

    return change


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param(lambda name, part: None if "charts/chart" in name else part, id="no-part"),
        pytest.param(
            lambda name, part: (
                re.sub(rb"<Relationship [^>]*chart[^>]*/>", b"", part)
                if name == "ppt/slides/_rels/slide1.xml.rels"
                else part
            ),
            id="no-relationship",
        ),
        pytest.param(
            lambda name, part: (
                re.sub(rb'ContentType="[^"]*chart[^"]*"', b'ContentType="a/b"', part)
                if name == "[Content_Types].xml"
                else part
            ),
            id="wrong-content-type",
        ),
    ],
)
def test_a_chart_whose_part_cannot_be_read_is_left_out_not_the_deck(
    broken: Callable[[str, bytes], bytes | None],
) -> None:
    """A chart whose relationship names no part, or a part of another type, failed the whole
    deck (KeyError, AttributeError); the deck is read without it, with a warning naming it."""
    file = read_file(rewritten(_deck_with_chart(), broken), "deck.pptx")
    assert "# Charted" in file.text and "# After the chart" in file.text
    assert _warned(file.warnings, "1 shape left out") and _warned(file.warnings, "slide 1")


def test_relationships_in_a_cycle_read_the_deck_once() -> None:
    """A slide related to itself and a chart related back to its slide: the package is read
    part by part, once."""

    def cycle(name: str, part: bytes) -> bytes:
        if name.endswith(("slide1.xml.rels", "chart1.xml.rels")):
            loop = (
                '<Relationship Id="rId90" Target="../slides/slide1.xml" Type="http://schemas.'
                'openxmlformats.org/officeDocument/2006/relationships/slide"/></Relationships>'
            )
            return part.replace(b"</Relationships>", loop.encode())
        return part

    file = read_file(rewritten(_deck_with_chart(), cycle), "deck.pptx")
    assert "Categories: East, West" in file.text and file.text.count("# Charted") == 1


def test_a_chart_of_many_points_costs_time_linear_in_them() -> None:
    text = read_file(rewritten(_deck_with_chart(), _chart_points(5)), "deck.pptx").text
    assert "Categories: c0, c1, c2, c3, c4" in text
    make = lambda count: rewritten(_deck_with_chart(), _chart_points(count))  # noqa: E731
    run = lambda data: read_file(data, "deck.pptx", isolated=False)  # noqa: E731
    assert least_growth(make, 20_000, run, MAX_GROWTH) < MAX_GROWTH


@pytest.mark.parametrize("strict", [False, True], ids=["transitional", "strict"])
def test_a_workbook_whose_sheet_part_is_missing_says_it_has_no_text(strict: bool) -> None:
    """A workbook naming a sheet the package does not hold came out as an empty record without
    a word (openpyxl skips the sheet)."""
    book = workbook({1: ["Name"], 2: ["rent"]})
    data = rewritten(strict_package(book) if strict else book, _without("xl/worksheets/sheet1.xml"))
    file = read_file(data, "book.xlsx")
    assert not file.text.strip() and _warned(file.warnings, "the workbook has no text to index")


def _without(part: str) -> Callable[[str, bytes], bytes | None]:
    return lambda name, data: None if name == part else data


def test_a_strict_package_with_a_large_part_costs_time_linear_in_it() -> None:
    """Every part of a Strict package is rewritten (its names renamed) before the reader opens
    it; a part of zeros that unpacks to many MB (under the package limit, 512 MB) costs time
    linear in its size, and the rewrite stops at the deadline (it went on to the end: 400 MB
    took 2 s of CPU, 6 s on a loaded machine), the record's error since nothing is read yet."""

    def padded(megabytes: int) -> bytes:
        book = strict_package(workbook({1: ["Name", "Cost"], 2: ["rent", "12"]}))
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(book)) as source, zipfile.ZipFile(out, "w") as target:
            for item in source.infolist():
                target.writestr(item, source.read(item))
            blob = zipfile.ZipInfo("xl/media/zeros.bin")
            target.writestr(blob, b"\0" * (megabytes << 20), zipfile.ZIP_DEFLATED)
        return out.getvalue()

    assert "| rent | 12 |" in read_file(padded(1), "strict.xlsx").text
    run = lambda data: read_file(data, "strict.xlsx", isolated=False)  # noqa: E731
    assert least_growth(padded, 8, run, MAX_GROWTH) < MAX_GROWTH
    with pytest.raises(ConversionError, match="converter renamed its Strict Open XML names"):
        read_file(padded(8), "strict.xlsx", limits=Limits(deadline=0))


_STRICT_RELS = "http://purl.oclc.org/ooxml/officeDocument/relationships"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        pytest.param(
            lambda name, part: (
                part.replace(
                    b"</Relationships>",
                    f'<Relationship Id="rId9" Type="{_STRICT_RELS}/worksheet" '
                    'Target="workbook.xml"/></Relationships>'.encode(),
                )
                if name == "xl/_rels/workbook.xml.rels"
                else part
            ),
            "",
            id="relationship-looping-to-the-workbook",
        ),
        pytest.param(
            lambda name, part: (
                re.sub(rb'ContentType="[^"]*"', b'ContentType="text/plain"', part)
                if name == "[Content_Types].xml"
                else part
            ),
            "could not be read",
            id="every-content-type-wrong",
        ),
        pytest.param(
            lambda name, part: None if name == "[Content_Types].xml" else part,
            "not a readable Excel workbook",
            id="no-content-types",
        ),
    ],
)
def test_a_strict_workbook_with_broken_relationships_reads_or_says_why(
    change: Callable[[str, bytes], bytes | None], says: str
) -> None:
    """Strict packages are renamed to Transitional ones before openpyxl opens them: a package
    whose relationships loop reads as the usual one would, and one whose content types are
    wrong or missing is its record's error, never a crash."""
    book = strict_package(workbook({1: ["Name", "Cost"], 2: ["rent", "12"]}))
    if not says:
        assert "| rent | 12 |" in read_file(rewritten(book, change), "strict.xlsx").text
        return
    with pytest.raises(ConversionError, match=says):
        read_file(rewritten(book, change), "strict.xlsx")


@pytest.mark.parametrize("level", ["100000000", "x", "9" * 5000], ids=["huge", "word", "digits"])
def test_a_numbering_level_word_cannot_have_costs_nothing(level: str) -> None:
    """Word's levels are 0 to 8. ``w:ilvl="100000000"`` built a set of every number up to it
    to compare a level's text with (18 s and 8.7 GB); a level that is no number failed the
    file. Such a level numbers nothing; the rest of the file reads as before."""
    numbering = (
        f'<w:numbering {NS}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="{level}">'
        '<w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
    )
    data = docx([para("Item", number=(1, 0)), para("Body")], numbering=numbering)
    assert read_file(data, "levels.docx", limits=Limits(deadline=time.monotonic() + 60)).text == (
        "1. Item\n\nBody\n"
    )


def test_tables_nested_past_the_parsers_depth_say_so() -> None:
    """700 tables each in the cell of the one before (2,100 elements deep): libxml2 stops at
    2,048 and its message named an option of its own; the record's error says what is wrong."""
    inner = para("deepest")
    for level in range(700):
        inner = f"<w:tbl><w:tr><w:tc>{para(f'level {level}')}{inner}</w:tc></w:tr></w:tbl>"
    with pytest.raises(ConversionError, match="nests elements more than 2,048 deep") as error:
        read_file(docx([para("Intro"), inner]), "nested.docx")
    assert "XML_PARSE_HUGE" not in str(error.value)
    shallow = para("deepest")
    for level in range(400):
        shallow = f"<w:tbl><w:tr><w:tc>{para(f'level {level}')}{shallow}</w:tc></w:tr></w:tbl>"
    assert "level 399" in read_file(docx([para("Intro"), shallow]), "nested.docx").text


_NUMBERS = {"digits": "9" * 5000, "superscript": "²"}


def _word_attribute(where: str, value: str) -> bytes:
    """A Word file with one integer attribute written ``value``: a paragraph's level, outline
    level or font size, or a style's."""
    styled = '<w:style w:type="paragraph" w:styleId="H"><w:name w:val="Big"/>{}</w:style>'
    numbering = (
        f'<w:numbering {NS}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0">'
        '<w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>'
        '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
    )
    text = "<w:r><w:t>Scope</w:t></w:r>"
    if where == "paragraph level":
        ppr = f'<w:numPr><w:ilvl w:val="{value}"/><w:numId w:val="1"/></w:numPr>'
        return docx([raw_para(text, ppr), para("Body")], numbering=numbering)
    if where == "outline level":
        return docx([raw_para(text, f'<w:outlineLvl w:val="{value}"/>'), para("Body")])
    if where == "font size":
        sized = f'<w:r><w:rPr><w:sz w:val="{value}"/></w:rPr><w:t>Scope</w:t></w:r>'
        return docx([raw_para(sized), para("Body")])
    inner = {
        "style's outline level": f'<w:pPr><w:outlineLvl w:val="{value}"/></w:pPr>',
        "style's font size": f'<w:rPr><w:sz w:val="{value}"/></w:rPr>',
        "style's level": f'<w:pPr><w:numPr><w:ilvl w:val="{value}"/><w:numId w:val="1"/>'
        "</w:numPr></w:pPr>",
    }[where]
    styles = [styled.format(inner)]
    return docx([para("Scope", style="H"), para("Body")], styles=styles, numbering=numbering)


@pytest.mark.parametrize("value", list(_NUMBERS.values()), ids=list(_NUMBERS))
@pytest.mark.parametrize(
    "where",
    [
        "paragraph level",
        "outline level",
        "font size",
        "style's outline level",
        "style's font size",
        "style's level",
    ],
)
def test_an_integer_attribute_of_any_length_or_digits_is_read_within_bounds(
    where: str, value: str
) -> None:
    """A level, an outline level or a font size of 5,000 digits (Python converts at most
    4,300) or written ``²`` (``str.isdigit``, yet no ``int``) failed the whole file. Every
    Word attribute read as a number goes through ``xml_numbers.whole``: the file reads."""
    text = read_file(_word_attribute(where, value), "numbers.docx", isolated=False).text
    assert "Scope" in text and "Body" in text


@pytest.mark.parametrize(
    "sheet_xml",
    [
        lambda rows: rows.replace('<row r="3">', f'<row r="{_NUMBERS["digits"]}">'),
        lambda rows: rows.replace('<row r="3">', '<row r="²">'),
        lambda rows: (
            rows.replace("</worksheet>", "")
            + f'<mergeCells><mergeCell ref="C1:D{_NUMBERS["digits"]}"/></mergeCells></worksheet>'
        ),
    ],
    ids=["row of 5,000 digits", "row numbered ²", "merged range to a row of 5,000 digits"],
)
def test_a_sheet_its_reader_cannot_parse_to_its_end_keeps_the_rows_before(
    sheet_xml: Callable[[str], str],
) -> None:
    """openpyxl parses a sheet as it yields its rows (its merged ranges after the last row):
    what it cannot parse failed the whole workbook, rows already read included. The rows read
    are kept, with a warning naming the sheet and the row."""
    book = workbook({1: ["name", "value"], 2: ["rent", "12"], 3: ["tax", "3"]})

    def change(name: str, data: bytes) -> bytes | None:
        return sheet_xml(data.decode()).encode() if name == "xl/worksheets/sheet1.xml" else data

    file = read_file(rewritten(book, change), "rows.xlsx", isolated=False)
    assert "| rent | 12 |" in file.text
    assert _warned(file.warnings, "sheet 'Data' could not be read after its row")
    assert not any("set_int_max_str_digits" in warning for warning in file.warnings)


def test_a_slide_python_pptx_cannot_read_is_left_out_not_the_deck() -> None:
    """A placeholder id of 5,000 digits failed python-pptx's reading of its slide, and so the
    whole deck, in Python's words ("use sys.set_int_max_str_digits()"). That slide is left
    out, with a warning in the record's words; the other slides are read."""
    from bench.hostile_files import deck

    def change(name: str, data: bytes) -> bytes | None:
        if name != "ppt/slides/slide1.xml":
            return data
        digits = _NUMBERS["digits"].encode()
        return data.replace(b'<p:ph type="title"/>', b'<p:ph type="title" idx="%s"/>' % digits)

    file = read_file(rewritten(deck(3), change), "ids.pptx", isolated=False)
    assert "# Slide 1" in file.text and "point 2.3" in file.text
    assert file.text.count("<!-- PageBreak -->") == 2
    assert _warned(file.warnings, "slide 1 (it writes a number of more than 4,300 digits")
    assert not _warned(file.warnings, "set_int_max_str_digits")


def _nested(opening: str, closing: str, inner: str, depth: int) -> str:
    return opening * depth + inner + closing * depth


_INLINE_WRAPPERS = {
    "content control": ("<w:sdt><w:sdtContent>", "</w:sdtContent></w:sdt>"),
    "hyperlink": ('<w:hyperlink w:anchor="a">', "</w:hyperlink>"),
    "smart tag": ("<w:smartTag>", "</w:smartTag>"),
    "insertion": ("<w:ins>", "</w:ins>"),
    "field": ('<w:fldSimple w:instr="REF a">', "</w:fldSimple>"),
}


@pytest.mark.parametrize("wrapper", list(_INLINE_WRAPPERS))
def test_runs_wrapped_a_thousand_deep_keep_their_text(wrapper: str) -> None:
    """Content controls, hyperlinks, smart tags, insertions and fields around a run, each in
    the one before, 1,000 deep (2,000 elements: under libxml2's limit): the walk of a
    paragraph's runs recursed and failed the file with RecursionError. The runs are walked
    with a stack; the text is all there."""
    opening, closing = _INLINE_WRAPPERS[wrapper]
    runs = run("start ") + _nested(opening, closing, run("deepest"), 1000) + run(" end")
    text = read_file(docx([raw_para(runs), para("After")]), "deep.docx", isolated=False).text
    assert "start " in text and "deepest" in text and " end" in text and "After" in text


def test_content_controls_a_thousand_deep_in_a_cell_keep_their_text() -> None:
    controls = _nested("<w:sdt><w:sdtContent>", "</w:sdtContent></w:sdt>", para("deepest"), 1000)
    cells = f"<w:tc>{controls}</w:tc><w:tc>{para('beside')}</w:tc>"
    text = read_file(docx([f"<w:tbl><w:tr>{cells}</w:tr></w:tbl>"]), "deep.docx").text
    assert "| deepest | beside |" in text


def test_text_boxes_in_text_boxes_are_read_once_each() -> None:
    """Text boxes each in a paragraph of the one before, 200 deep: each box's writer read every
    box inside it again (exponential: no end in minutes) until Python's recursion limit failed
    the file. A drawing's own boxes are read by its writer, those inside them by theirs, and
    past ``MAX_BOX_DEPTH`` the rest is one paragraph of their text."""
    opening = '<w:r><w:pict><v:textbox xmlns:v="urn:schemas-microsoft-com:vml"><w:txbxContent><w:p>'
    closing = "</w:p></w:txbxContent></v:textbox></w:pict></w:r>"
    boxes = "".join(opening + run(f"box {k} ") for k in range(200)) + run("deepest") + closing * 200
    text = read_file(docx([raw_para(run("start ") + boxes), para("After")]), "boxes.docx").text
    assert all(f"box {k}" in text for k in range(200))
    assert text.count("box 150") == 1 and "deepest" in text and "After" in text


@pytest.mark.parametrize(
    ("value", "number_format"),
    [
        (1234.5, '"' + "x" * 10_000 + '"0'),
        (1234.5, "#" * 10_000),
        (datetime.datetime(2020, 1, 2, 3, 4, 5), "m:" * 5_000),
    ],
    ids=["quoted text", "digit placeholders", "minutes and months"],
)
def test_a_number_format_longer_than_excels_shows_each_cell_plainly(
    value: object, number_format: str
) -> None:
    """A format of 10,000 characters (Excel keeps 255) was parsed again for every cell it
    applies to, its quoted text written into each (10 KB of Markdown a cell), and a date format
    of 5,000 ``m:`` looked at every code for each of them (3.8 s a cell). Such a format shows
    the cell's plain value."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["name", "value"])
    for k in range(20):
        sheet.append([f"row {k}", value])
        sheet.cell(row=k + 2, column=2).number_format = number_format
    out = io.BytesIO()
    book.save(out)
    text = read_file(out.getvalue(), "formats.xlsx", isolated=False).text
    assert "| row 19 |" in text and len(text) < 20 * 200


def test_columns_set_apart_cost_time_linear_in_the_sheets_cells() -> None:
    """Rows of one cell, each a column further right (a diagonal: every column a block of its
    own beside the others): each block to the right looked at every row of all the blocks left
    of it, so ``n`` rows cost ``n`` cubed while the sheet shows ``n`` squared cells (400 rows:
    2 s). The rows each column fills are found once: from ``n`` to ``4 n`` rows, the cells and
    the time grow 16 times (64 before)."""
    from skills.formats.office.sheet_tables import Row, tables

    def diagonal(count: int) -> list[Row]:
        return [Row(r + 1, [""] * (2 * r) + [f"v{r}"]) for r in range(count)]

    assert all(f"v{k} |" in "".join(tables(diagonal(30))) for k in range(30))
    assert least_growth(diagonal, 60, tables, 32.0) < 32.0


def _formatted_down(rows: int, last: str | None) -> bytes:
    """A sheet of two rows of data, ``rows`` rows whose column I only carries a number format
    (as BMW's price workbook formats a sheet down to row 1,048,187 under 581 rows of data),
    ``last`` in column A of the row after them, and a second sheet."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Modelo", "Motor"])
    sheet.append(["Serie 1", "116i"])
    for number in range(3, 3 + rows):
        sheet.cell(row=number, column=9).number_format = "0.00"
    if last is not None:
        sheet.cell(row=3 + rows, column=1, value=last)
    book.create_sheet("Next").append(["Name", "Cost"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_rows_of_cells_that_only_carry_a_format_cost_what_empty_rows_cost() -> None:
    """BMW's formatted rows cost their nine cells each, ended the budget and warned that the
    workbook was cut. They cost what an empty row costs now, so the data after them and the
    next sheet are read, with no warning."""
    data = _formatted_down(3_000, "after the formatting")
    file = read_file(data, "formatted.xlsx", limits=Limits(max_cells=1_000))
    assert file.warnings == ()
    assert "after the formatting" in file.text and "# Next" in file.text


def test_rows_below_a_sheets_last_value_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """BMW's sheet of 91 MB of formatted empty cells took 10 s to parse, row by row, for
    nothing: the sheet's XML is scanned for its last row holding a value (with its merged
    ranges), and openpyxl stops there."""
    from skills.formats.office import xlsx

    yielded: list[int] = []
    readable = xlsx._readable

    def counted(rows: Iterator[Any], failed: list[Exception]) -> Iterator[Any]:
        for row in readable(rows, failed):
            yielded.append(1)
            yield row

    monkeypatch.setattr(xlsx, "_readable", counted)
    file = read_file(_formatted_down(3_000, None), "formatted.xlsx", isolated=False)
    assert "| Serie 1 | 116i |" in file.text and "# Next" in file.text
    assert len(yielded) <= 2 + 3 + 1  # both sheets' rows with values, and the first row after


@pytest.mark.parametrize("size", [1, 7, 64, 1 << 20])
def test_a_sheets_last_row_with_a_value_is_found_across_any_blocks(size: int) -> None:
    """The scan reads a sheet's XML in blocks of 1 MB: a row tag or a value cut by a block's end
    is read once, whole, with the next block; rows out of order make the last row unknown."""
    from skills.formats.office.xlsx import _LastValue

    def last(xml: bytes) -> int | None:
        scan = _LastValue()
        for start in range(0, len(xml), size):
            scan.feed(xml[start : start + size])
        return scan.last

    rows = b"".join(
        b'<row r="%d" spans="1:9"><c r="A%d" t="s"><v>%d</v></c></row>' % (n, n, n)
        for n in range(1, 40)
    )
    formatted = b"".join(
        b'<x:row r="%d"><x:c r="I%d" s="3"/></x:row>' % (n, n) for n in range(40, 90)
    )
    inline = b'<row r="95"><c r="B95" t="inlineStr"><is><t>late</t></is></c></row>'
    assert last(b"<sheetData>" + rows + formatted + b"</sheetData>") == 39
    assert last(b"<sheetData>" + rows + formatted + inline + b"</sheetData>") == 95
    assert last(b"<sheetData>" + rows + b'<row r="2"><c r="A2"><v>1</v></c></row>') is None


def test_a_sheet_without_its_size_is_not_parsed_whole_as_the_workbook_opens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """openpyxl reads a sheet's size from its ``<dimension>`` element and, without one, parsed
    the whole sheet for it when the workbook opened, before any deadline was asked: 100,000
    rows of formatted cells took 15.6 s to open, a deadline of 1 s notwithstanding. The rows
    are read as they come, their size unused: nothing is parsed for it now."""
    from openpyxl.worksheet import _reader

    sized: list[int] = []
    parse = _reader.WorkSheetParser.parse_dimensions

    def counted(parser: Any) -> Any:
        sized.append(1)
        return parse(parser)

    monkeypatch.setattr(_reader.WorkSheetParser, "parse_dimensions", counted)
    rows = {1: ["Name", "Value"], **{n: [f"item {n}", str(n)] for n in range(2, 50)}}
    data = workbook(rows)
    assert b"<dimension" not in zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    file = read_file(data, "sizeless.xlsx", isolated=False)
    assert "| item 49 | 49 |" in file.text and file.warnings == ()
    assert sized == []


class _Clock(Limits):
    """Limits whose time is a clock the test moves: ``left`` is ``budget`` less ``clock[0]``."""

    __slots__ = ("budget", "clock")
    budget: float
    clock: list[float]

    def __init__(self, budget: float, clock: list[float]) -> None:
        super().__init__(deadline=time.monotonic() + 3600)
        object.__setattr__(self, "budget", budget)
        object.__setattr__(self, "clock", clock)

    def left(self) -> float:
        return float(self.budget - self.clock[0])


def test_the_scan_for_merged_ranges_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sheet's XML is scanned in blocks of 1 MB before its rows are read (up to 512 MB of
    them): the deadline is asked before each block, and past it the rows' loop stops at once
    with its warning."""
    from skills.formats.office import xlsx

    clock = [0.0]
    blocks: list[int] = []
    feed = xlsx._LastValue.feed

    def slow(scan: Any, block: bytes) -> None:
        blocks.append(len(block))
        clock[0] = 100.0  # the first block ends past the deadline
        feed(scan, block)

    monkeypatch.setattr(xlsx._LastValue, "feed", slow)
    rows = {n: [f"row {n} " + "x" * 600] for n in range(1, 4_000)}  # about 2.5 MB of XML
    file = read_file(workbook(rows), "long.xlsx", isolated=False, limits=_Clock(10, clock))
    assert len(blocks) == 1
    assert _warned(file.warnings, "conversion stopped at its time budget")
