"""The streaming Word converter (skills/formats/office/word_stream.py): what each construct becomes,
and memory bounded by the largest block, not by the document."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from office_xml import NS, docx, para, raw_para, run, style, tables_docx

from skills.formats.conversion import Limits
from skills.formats.office.docx import docx_to_markdown

_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

ROOT = Path(__file__).resolve().parents[2]
BULLETS = (
    f"<w:numbering {NS}>"
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
)
_RELS = (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/hyperlink" Target="https://example.test/docs" TargetMode="External"/>'
    "</Relationships>"
)


def markdown(body: list[str], **kwargs: object) -> str:
    return docx_to_markdown(docx(body, **kwargs), Limits()).text  # type: ignore[arg-type]


def test_runs_keep_bold_italic_and_code_and_merge_neighbours() -> None:
    styles = [
        '<w:style w:type="character" w:styleId="VC"><w:name w:val="Verbatim Char"/></w:style>'
    ]
    inner = run("Call ", bold=False) + run("the ", bold=True) + run("API", bold=True)
    inner += run(" with ") + run("retry=3", style="VC") + run(" now", italic=True)
    assert markdown([raw_para(inner)], styles=styles) == "Call **the API** with `retry=3` *now*\n"


def test_nested_lists_follow_the_numbering_formats() -> None:
    body = [
        para("first", number=(1, 0)),
        para("step", number=(1, 1)),
        para("second", number=(1, 0)),
    ]
    assert markdown(body, numbering=BULLETS) == "- first\n  1. step\n- second\n"


def test_an_empty_paragraph_does_not_end_a_list() -> None:
    body = [para("one", number=(1, 0)), para(""), para("two", number=(1, 0))]
    assert markdown(body, numbering=BULLETS) == "- one\n- two\n"


def test_a_table_has_its_first_row_as_header_and_merged_columns_as_empty_cells() -> None:
    span = "<w:tc><w:tcPr><w:gridSpan w:val='2'/></w:tcPr>" + para("Total") + "</w:tc>"
    rows = "<w:tr><w:tc>" + para("Name") + "</w:tc><w:tc>" + para("a|b") + "</w:tc></w:tr>"
    rows += f"<w:tr>{span}</w:tr>"
    assert markdown([f"<w:tbl>{rows}</w:tbl>"]) == "| Name | a\\|b |\n| --- | --- |\n| Total |  |\n"


def test_hyperlinks_deleted_text_and_field_codes() -> None:
    link = f'<w:hyperlink r:id="rId9" xmlns:r="{_R}">{run("the docs")}</w:hyperlink>'
    deleted = f"<w:del>{run('old ')}</w:del>"
    field = (
        "<w:r><w:fldChar w:fldCharType='begin'/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r>"
        "<w:r><w:fldChar w:fldCharType='separate'/></w:r>"
        + run("7")
        + "<w:r><w:fldChar w:fldCharType='end'/></w:r>"
    )
    body = [raw_para(run("Read ") + deleted + link + run(", page ") + field)]
    text = markdown(body, parts={"word/_rels/document.xml.rels": _RELS})
    assert text == "Read [the docs](https://example.test/docs), page 7\n"


def test_code_paragraphs_are_one_fenced_block_with_their_blank_lines() -> None:
    styles = [style("SourceCode", "Source Code")]
    body = [para("x = 1", style="SourceCode"), para("", style="SourceCode")]
    body += [para("y = 2", style="SourceCode"), para("Done.")]
    assert markdown(body, styles=styles) == "```\nx = 1\n\ny = 2\n```\n\nDone.\n"


def test_footnotes_are_numbered_references_and_a_list_at_the_end() -> None:
    notes = (
        f"<w:footnotes {NS}><w:footnote w:id='4'>{para('Since 2019.')}</w:footnote></w:footnotes>"
    )
    body = [raw_para(run("Widgets") + "<w:r><w:footnoteReference w:id='4'/></w:r>" + run(" ship."))]
    text = markdown(body, parts={"word/footnotes.xml": notes})
    assert text == "Widgets[[1]](#footnote-4) ship.\n\n1. Since 2019. [↑](#footnote-ref-4)\n"


def test_a_paragraph_that_would_read_as_markdown_syntax_is_escaped() -> None:
    assert markdown([para("# not a heading")]) == "\\# not a heading\n"


def test_the_title_paragraph_is_the_title_not_text() -> None:
    converted = docx_to_markdown(
        docx(
            [para("Annual report", style="Title"), para("Body.")], styles=[style("Title", "Title")]
        ),
        Limits(),
    )
    assert converted.title == "Annual report" and converted.text == "Body.\n"


def test_a_text_box_is_read_after_its_paragraph() -> None:
    box = f"<w:r><w:drawing><w:txbxContent>{para('Boxed note')}</w:txbxContent></w:drawing></w:r>"
    assert markdown([raw_para(run("Anchor") + box), para("After")]) == (
        "Anchor\n\nBoxed note\n\nAfter\n"
    )


_PEAK = """
import resource, sys
sys.path.insert(0, {root!r})
from skills.formats.conversion import Limits
data = open({path!r}, "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if {convert}:
    from skills.formats.office.docx import docx_to_markdown
    docx_to_markdown(data, Limits())
else:
    import lxml.etree, skills.formats.office.docx  # what the conversion imports
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def _peak_kb(path: Path, convert: bool) -> int:
    code = _PEAK.format(root=str(ROOT), path=str(path), convert=convert)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return int(result.stdout.strip())


def test_memory_grows_with_the_largest_block_not_the_document(tmp_path: Path) -> None:
    """4 MB of body XML (mammoth needed some 75 bytes a byte: 300 MB) stays within a byte of
    memory per byte of XML over the imports alone."""
    path = tmp_path / "tables.docx"
    data = tables_docx(4 * 2**20)
    path.write_bytes(data)
    extra_kb = _peak_kb(path, convert=True) - _peak_kb(path, convert=False)
    assert extra_kb * 1024 < 4 * 2**20, f"{extra_kb / 1024:.0f} MB for 4 MB of XML"


def test_a_document_without_any_text_says_so() -> None:
    converted = docx_to_markdown(docx([para("")]), Limits())
    assert converted.text.strip() == ""
    assert any("has no text to index" in w and "'layout'" in w for w in converted.warnings)


def _rows(*rows: list[str]) -> str:
    """A table of plain cells, one list a row."""
    xml = "".join(
        "<w:tr>" + "".join(f"<w:tc>{para(c)}</w:tc>" for c in r) + "</w:tr>" for r in rows
    )
    return f"<w:tbl>{xml}</w:tbl>"


def test_a_table_laying_the_page_out_keeps_the_tables_in_its_cells() -> None:
    # 240-DOP-1013A: a frame whose cells hold the form's tables, the steps table among them
    steps = _rows(["Step", "Work Activity"], ["1", "Check the slips."], ["2", "Pull the joint."])
    fields = _rows(["Task Name:", "Lay Down Tubulars"])
    frame = f"<w:tbl><w:tr><w:tc>{fields}{para('')}</w:tc></w:tr>"
    frame += f"<w:tr><w:tc>{steps}{para('Review after the job.')}</w:tc></w:tr></w:tbl>"
    text = markdown([frame])
    assert "| Task Name: | Lay Down Tubulars |" in text
    assert "| Step | Work Activity |\n| --- | --- |\n| 1 | Check the slips. |" in text
    assert "Review after the job." in text


def test_a_data_table_with_a_table_in_one_cell_stays_one_table() -> None:
    inner = _rows(["a", "b"])
    outer = "<w:tbl><w:tr>" + f"<w:tc>{para('Name')}</w:tc><w:tc>{para('Parts')}</w:tc></w:tr>"
    outer += f"<w:tr><w:tc>{para('Lamp')}</w:tc><w:tc>{inner}{para('')}</w:tc></w:tr></w:tbl>"
    assert "| Lamp | a b |" in markdown([outer])
