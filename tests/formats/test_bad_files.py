"""Bad files are clear errors (or warnings), found before the work they would cost."""

from __future__ import annotations

import io
import re
import zipfile

import pypdfium2 as pdfium
import pytest
from format_fixtures import convert, fixture

from skills.formats.conversion import ConversionError, Limits
from skills.formats.read import read_file


def test_a_password_protected_pdf_says_so() -> None:
    with pytest.raises(ConversionError, match="encrypted with a password"):
        convert("locked.pdf")


def test_an_encrypted_office_file_says_so() -> None:
    # Office encrypts a package into an OLE compound file holding an "EncryptedPackage" stream
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + "EncryptedPackage".encode("utf-16-le")
    with pytest.raises(ConversionError, match="encrypted with a password"):
        read_file(ole, "budget.xlsx")


def test_a_legacy_binary_office_file_asks_for_the_new_format() -> None:
    with pytest.raises(ConversionError, match=r"save it as \.docx"):
        read_file(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "memo.doc")


def test_a_truncated_package_is_a_damaged_zip() -> None:
    data = fixture("widget-api-guide.docx")
    with pytest.raises(ConversionError, match="damaged zip"):
        read_file(data[: len(data) // 2], "widget-api-guide.docx")


def test_a_zip_bomb_is_refused_before_anything_is_decompressed() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        package.writestr("word/document.xml", b"\0" * (64 * 2**20))  # 64 MB of zeros
    bomb = buffer.getvalue()
    assert len(bomb) < 2**20, "a small file that unpacks to 64 MB"
    with pytest.raises(ConversionError, match="unpacks to 64 MB"):
        read_file(bomb, "report.docx", limits=Limits(max_unpacked_bytes=16 * 2**20))


def test_a_zip_that_is_no_office_package_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        package.writestr("notes.txt", "hello")
    with pytest.raises(ConversionError, match="a zip archive, not a Word"):
        read_file(buffer.getvalue(), "notes.zip")


def test_a_pdf_of_5000_pages_is_refused_before_its_pages_are_read() -> None:
    pdf = pdfium.PdfDocument.new()
    for _ in range(5000):
        pdf.new_page(100, 100).close()
    out = io.BytesIO()
    pdf.save(out)
    with pytest.raises(ConversionError, match="has 5000 pages, more than the 2000"):
        read_file(out.getvalue(), "archive.pdf")


def test_a_huge_sheet_is_cut_at_the_cell_limit_with_a_warning() -> None:
    from openpyxl import Workbook

    book = Workbook()
    for row in range(2000):
        book.active.append([f"r{row}", row, row * 2])
    out = io.BytesIO()
    book.save(out)
    file = read_file(out.getvalue(), "big.xlsx", limits=Limits(max_cells=300))
    assert "workbook cut after 300 cells" in " ".join(file.warnings)
    assert "| r99 |" in file.text and "| r100 |" not in file.text


@pytest.mark.parametrize(
    ("data", "name", "says"),
    [
        (b"%PDF-1.7\n...", "report.docx", "named as docx but its content is pdf"),
        (b"just some text", "figures.xlsx", "named as xlsx but its content is not"),
        (b"%PDF-1.7\n...", "notes.md", "named as markdown but its content is pdf"),
    ],
)
def test_an_extension_that_lies_about_the_type_is_refused(
    data: bytes, name: str, says: str
) -> None:
    with pytest.raises(ConversionError, match=says):
        read_file(data, name)


def test_a_file_without_a_name_is_read_as_what_its_bytes_show() -> None:
    docx = read_file(fixture("widget-api-guide.docx")).format
    html = read_file(b"<!DOCTYPE html><title>T</title><p>x</p>").format
    assert (docx and docx.name, html and html.name) == ("docx", "html")
    assert read_file(b"plain words").format is None


def test_text_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(ConversionError, match="not UTF-8 text"):
        read_file(b"caf\xe9", "menu.txt")


def test_a_scanned_pdf_warns_and_names_the_layout_route() -> None:
    file = convert("scanned.pdf")
    assert not file.text.replace('<!-- PageNumber="1" -->', "").strip()
    assert "no text layer" in file.warnings[0] and "'layout' definitions" in file.warnings[0]


def test_an_image_warns_and_names_the_layout_route() -> None:
    file = read_file(b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "scan.png")
    assert file.text == "" and "'layout' definitions" in file.warnings[0]


def test_a_conversion_past_its_deadline_keeps_what_it_has_with_a_warning() -> None:
    file = read_file(fixture("operations-runbook.pdf"), "runbook.pdf", limits=Limits(deadline=0))
    assert "stopped at its time budget after 0 of" in file.warnings[0]


def test_a_word_body_too_large_to_hold_in_memory_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import skills.formats.office.docx as docx

    monkeypatch.setattr(docx, "MAX_DOCUMENT_XML_BYTES", 1024)  # in this process only
    with pytest.raises(ConversionError, match="body is 0 MB of XML, more than the 0 MB"):
        read_file(fixture("widget-api-guide.docx"), "widget-api-guide.docx", isolated=False)


@pytest.mark.parametrize(
    ("name", "part"),
    [
        ("widget-api-guide.docx", "word/document.xml"),
        ("widget-api-guide.pptx", "ppt/slides/slide2.xml"),
        ("error-codes.xlsx", "xl/sharedStrings.xml"),
    ],
)
def test_an_xml_entity_bomb_in_a_package_is_refused(name: str, part: str) -> None:
    source = zipfile.ZipFile(io.BytesIO(fixture(name)))
    entities = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10 if i else "lol"}">' for i in range(10))
    xml = source.read(part).decode("utf-8")
    declaration = xml.index("?>") + 2
    body = re.sub(r"(<(?:w:t|a:t|t)(?: [^>]*)?>)", r"\1&l9;", xml[declaration:], count=1)
    bomb = xml[:declaration] + f"<!DOCTYPE bomb [{entities}]>" + body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        for item in source.infolist():
            package.writestr(item, bomb if item.filename == part else source.read(item))
    with pytest.raises(ConversionError, match=r"could not be read .*amplification"):
        read_file(out.getvalue(), name)


@pytest.mark.parametrize("name", ["widget-api-guide.html"])
def test_a_conversion_that_cannot_stop_midway_is_refused_when_it_would_end_too_late(
    name: str,
) -> None:
    import time

    soon = Limits(deadline=time.monotonic() + 0.001)
    with pytest.raises(ConversionError, match=r"would take about \d+ s and the batch has 0 s left"):
        read_file(fixture(name), name, limits=soon)


def test_a_word_body_past_the_deadline_stops_where_it_is_with_a_warning() -> None:
    import time

    from office_xml import docx, para

    body = [para(f"Paragraph {n} of the long report.") for n in range(1000)]
    late = Limits(deadline=time.monotonic() - 1)
    file = read_file(docx(body), "long.docx", limits=late)
    assert "Paragraph 0 of" in file.text and "Paragraph 999 of" not in file.text
    assert any("time budget after 200 of 1000 paragraphs" in w for w in file.warnings)


@pytest.mark.parametrize("size", ["²", "9" * 5_000])
@pytest.mark.parametrize("part", ["ppt/presentation.xml", "ppt/slides/slide1.xml"])
def test_a_deck_whose_text_size_is_no_number_is_read_whole(size: str, part: str) -> None:
    """A text size (``sz``) that ``int`` refuses (``²`` passes ``isdigit``; 5,000 digits pass
    Python's limit) in the deck's default text style or a text box's list style: office round
    9's text-box sizes failed the whole deck from the first, left the slide out from the
    second; now the size is unknown, as an absent one."""
    from office_xml import with_part
    from pptx import Presentation
    from pptx.util import Inches, Pt

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    for top, text in ((1, "Quarterly results"), (3, "Revenue grew in every region.")):
        box = slide.shapes.add_textbox(Inches(1), Inches(top), Inches(6), Inches(1))
        box.text_frame.text = text
    box.text_frame.paragraphs[0].runs[0].font.size = Pt(12)
    out = io.BytesIO()
    deck.save(out)

    def unreadable(xml: str) -> str:
        if part.endswith("presentation.xml"):
            return re.sub(r'(<a:lvl1pPr[^>]*>\s*<a:defRPr[^>]*?)sz="\d+"', rf'\1sz="{size}"', xml)
        style = f'<a:lstStyle><a:lvl1pPr><a:defRPr sz="{size}"/></a:lvl1pPr></a:lstStyle>'
        return xml.replace("<a:lstStyle/>", style, 1)

    converted = read_file(with_part(out.getvalue(), part, unreadable), "results.pptx")
    assert "Quarterly results" in converted.text
    assert "Revenue grew in every region." in converted.text
    assert not any("left out" in w or "could not" in w for w in converted.warnings)
