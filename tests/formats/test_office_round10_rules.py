"""Rules from held-out Office round 10 (``docs/formats.md``, *Held-out Office round 10*): each
test builds the smallest file that shows one class of defect and fails without its rule."""

from __future__ import annotations

from collections.abc import Sequence

from office_xml import decimal_numbering, docx, para, raw_para, style
from test_xlsx_structure import converted, headers, workbook

from skills.formats.conversion import Limits
from skills.formats.office.docx import docx_to_markdown


def test_a_form_s_labels_over_their_values_are_text_not_a_table_s_header() -> None:
    # an invoice (round office-10): "FROM: | BILL TO:" over two addresses, then its line items
    rows: dict[int, Sequence[object]] = {1: ["Invoice"]}
    rows |= {3: ["FROM:", "BILL TO:"], 4: ["Company XYZ", "ABC Company"], 5: ["123 North St"]}
    rows |= {7: ["Description", "Quantity", "Unit Price"], 8: ["Product A", 1, 50.25]}
    text = converted(workbook(rows))
    assert headers(text) == ["| Description | Quantity | Unit Price |"]
    assert "FROM: BILL TO:" in text.splitlines()


def test_a_label_beside_its_value_above_the_header_is_no_part_of_it() -> None:
    # a timesheet (round office-9): "EMPLOYEE ID:" beside the name merged over B1:D2, the ID
    # under the label, the header in row 3 touching them
    rows: dict[int, Sequence[object]] = {1: ["EMPLOYEE ID:", "Jhonny Curambao"], 2: ["E001"]}
    rows |= {3: ["DATE", "LOGIN TIME", "LOGOUT TIME", "TOTAL HOURS"]}
    rows[4] = ["01/01/23", "9:00 AM", "6:00 PM", "9:00"]
    text = converted(workbook(rows, merged=["B1:D2"]))
    assert headers(text) == ["| DATE | LOGIN TIME | LOGOUT TIME | TOTAL HOURS |"]


def test_a_column_of_references_under_a_label_stays_a_table() -> None:
    sentence = "Bloomenthal, A. (2020, March 5). How safe is Venmo and is it free? Investopedia."
    rows: dict[int, Sequence[object]] = {1: ["#", "References:"], 2: [1, sentence]}
    rows[3] = [2, sentence]
    assert headers(converted(workbook(rows))) == ["| # | References: |"]


BODY = "The body text of the section says what it is about, in a full sentence."


def word_headings(body: list[str]) -> list[str]:
    text = docx_to_markdown(docx(body, numbering=decimal_numbering()), Limits()).text
    return [line for line in text.splitlines() if line.startswith("#")]


def underlined(text: str) -> str:
    """A paragraph whose one run is underlined, at the body's size, not bold."""
    return raw_para(f'<w:r><w:rPr><w:u w:val="single"/></w:rPr><w:t>{text}</w:t></w:r>')


def test_underlined_labels_closed_by_a_colon_over_paragraphs_are_sections() -> None:
    # a policy from LibreOffice (round office-10): "Objective:", "Purpose:" ... underlined only
    body = [underlined("Objective:"), para(BODY), underlined("Purpose:"), para(BODY)]
    assert word_headings(body) == ["# Objective:", "# Purpose:"]


def test_bold_labels_over_lists_are_sections_and_a_label_over_its_value_a_field() -> None:
    # minutes (round office-10): a form's fields, then the sections over their bulleted lists
    body = [para("Meeting Title:", bold=True), para("Governance Committee Meeting")]
    body += [para("Date:", bold=True), para("10 June 2026")]
    body += [para("Discussion Summary:", bold=True), para("Access review", number=(1, 0))]
    body += [para("Backups", number=(1, 0))]
    body += [para("Action Items:", bold=True), para("Review done", number=(1, 0))]
    body += [para("Backups tested", number=(1, 0)), para("Meeting ended at 10:00")]
    assert word_headings(body) == ["# Discussion Summary:", "# Action Items:"]


def test_a_label_beside_bold_headings_of_its_look_is_one_of_them() -> None:
    # an abstract (round office-10): "MA Thesis possible topics:" beside "Abstract", "BIBLIOGRAPHY"
    body = [para("Thesis topics:", bold=True), para(BODY), para("Abstract", bold=True)]
    body += [para(BODY), para("Bibliography", bold=True), para(BODY)]
    assert word_headings(body) == ["# Thesis topics:", "# Abstract", "# Bibliography"]


def test_one_label_alone_stays_a_note() -> None:
    body = [underlined("Note:"), para(BODY), para(BODY)]
    assert word_headings(body) == []


def test_a_cover_line_styled_as_the_one_heading_leaves_the_sections_to_the_visual_rule() -> None:
    # a lab report (round office-9): a place and a date across a tab, styled Heading 2
    place = '<w:r><w:t xml:space="preserve">Santiago de Querétaro, México.   </w:t></w:r>'
    date = "<w:r><w:tab/></w:r><w:r><w:t>Delivery Date: March 16th, 2018</w:t></w:r>"
    cover = raw_para(place + date, '<w:pStyle w:val="Heading2"/>')
    body = [para("Laboratory Report"), para("Authors:"), para("Ann Lee"), cover]
    body += [para("Introduction", bold=True), para(BODY), para("Method", bold=True), para(BODY)]
    data = docx(body, styles=[style("Heading2", "heading 2")])
    text = docx_to_markdown(data, Limits()).text
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# Introduction",
        "# Method",
    ]
