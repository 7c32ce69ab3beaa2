"""Word headings as people write them: outline levels, numbered headings, bold short lines, and
what is never a heading (skills/formats/office/word_outline.py)."""

from __future__ import annotations

from format_fixtures import markdown_headings
from office_xml import NS, decimal_numbering, docx, para, raw_para, run, style, table

from skills.formats.conversion import Limits
from skills.formats.office.docx import docx_to_markdown

BODY = "The body text of the section says what it is about, in a full sentence."


def headings(data: bytes) -> list[str]:
    text = docx_to_markdown(data, Limits()).text
    return [line for line in text.splitlines() if line.startswith("#")]


def test_an_outline_level_on_a_plain_paragraph_makes_a_heading_of_that_level() -> None:
    body = [para("Scope", outline=0), para(BODY), para("Terms", outline=1), para(BODY)]
    assert headings(docx(body)) == ["# Scope", "## Terms"]


def test_an_outline_level_on_a_custom_style_or_the_style_it_is_based_on_counts() -> None:
    styles = [style("Clause", "Clause", outline=0), style("SubClause", "Sub clause", based_on="X")]
    styles.append(style("X", "X base", outline=1))
    body = [para("Payment", style="Clause"), para(BODY), para("Late fees", style="SubClause")]
    assert headings(docx([*body, para(BODY)], styles=styles)) == ["# Payment", "## Late fees"]


def test_outline_level_nine_is_body_text() -> None:
    assert headings(docx([para("Scope", outline=9), para(BODY)])) == []


def test_a_heading_keeps_no_bold_markup() -> None:
    assert headings(docx([para("Scope", outline=0, bold=True), para(BODY)])) == ["# Scope"]


def test_multi_level_decimal_numbering_makes_numbered_headings() -> None:
    body = [
        para("Definitions", number=(1, 0)),
        para("Agreement", number=(1, 1)),
        para(BODY),
        para("Payment", number=(1, 0)),
        para(BODY),
    ]
    found = headings(docx(body, numbering=decimal_numbering()))
    assert found == ["# 1. Definitions", "## 1.1. Agreement", "# 2. Payment"]


def test_a_heading_style_linked_to_a_numbering_shows_its_number() -> None:
    numbering = decimal_numbering().replace(
        '<w:lvl w:ilvl="1">', '<w:lvl w:ilvl="1"><w:pStyle w:val="Heading2"/>'
    )
    styles = [
        style("Heading1", "heading 1", number=1),
        style("Heading2", "heading 2", number=1),
    ]
    body = [para("Scope", style="Heading1"), para("Terms", style="Heading2"), para(BODY)]
    body += [para("Terms again", style="Heading2"), para(BODY)]
    assert headings(docx(body, styles=styles, numbering=numbering)) == [
        "# 1. Scope",
        "## 1.1. Terms",
        "## 1.2. Terms again",
    ]


def test_a_one_level_numbered_list_is_not_a_run_of_headings() -> None:
    body = [para("Apples", number=(1, 0)), para("Pears", number=(1, 0)), para(BODY)]
    assert headings(docx(body, numbering=decimal_numbering())) == []


def test_a_short_bold_paragraph_followed_by_body_text_is_a_heading() -> None:
    body = [para("Introduction", bold=True), para(BODY), para("Method", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# Introduction", "# Method"]


def test_a_larger_paragraph_outranks_a_bold_one() -> None:
    body = [para("Results", size=32), para(BODY, size=22), para("Sample", bold=True, size=22)]
    assert headings(docx([*body, para(BODY, size=22)])) == ["# Results", "## Sample"]


def test_a_bold_sentence_is_not_a_heading() -> None:
    assert headings(docx([para("Payment is due.", bold=True), para(BODY)])) == []
    assert headings(docx([para("Note:", bold=True), para(BODY)])) == []


def test_a_run_of_bold_lines_is_not_a_run_of_headings() -> None:
    body = [para("Alpha", bold=True), para("Beta", bold=True), para("Gamma", bold=True)]
    assert headings(docx(body)) == []


def test_a_bold_table_cell_is_never_a_heading() -> None:
    assert headings(docx([table("Name", "Size"), para(BODY)])) == []


def test_the_visual_rule_is_off_when_the_document_marks_its_headings() -> None:
    body = [para("Scope", outline=0), para(BODY), para("Important", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# Scope"]


def test_heading_styles_are_headings_of_their_level() -> None:
    styles = [style("Heading2", "heading 2")]
    assert headings(docx([para("Usage", style="Heading2"), para(BODY)], styles=styles)) == [
        "## Usage"
    ]


def test_a_file_whose_only_text_is_in_its_header_is_indexed_with_a_warning() -> None:
    header = f"<w:hdr {NS}>{para('ACME confidential: rates 2024')}</w:hdr>"
    converted = docx_to_markdown(docx([para("")], parts={"word/header1.xml": header}), Limits())
    assert "ACME confidential: rates 2024" in converted.text
    assert any("headers, footers and comments are indexed" in w for w in converted.warnings)


def test_a_header_is_left_out_when_the_body_has_text() -> None:
    header = f"<w:hdr {NS}>{para('ACME confidential')}</w:hdr>"
    converted = docx_to_markdown(docx([para(BODY)], parts={"word/header1.xml": header}), Limits())
    assert "ACME" not in converted.text and converted.warnings == ()


def test_comments_left_out_are_counted_in_a_warning() -> None:
    comments = f"<w:comments {NS}><w:comment w:id='0'>{para('Check this')}</w:comment></w:comments>"
    converted = docx_to_markdown(
        docx([para(BODY)], parts={"word/comments.xml": comments}), Limits()
    )
    assert "Check this" not in converted.text
    assert converted.warnings == ("1 comment not indexed (only the text is)",)


def test_the_headings_found_reach_the_markdown_parser() -> None:
    body = [para("Scope", outline=0), para(BODY)]
    assert markdown_headings(docx_to_markdown(docx(body), Limits()).text) == ["Scope"]


def test_a_paragraph_styled_as_a_heading_that_reads_as_prose_is_body_text() -> None:
    styles = [style("Heading2", "heading 2")]
    prose = "The supplier declares that it has kept its accounts in order for three years."
    body = [para("Declaration", style="Heading2"), para(prose, style="Heading2"), para(BODY)]
    assert headings(docx(body, styles=styles)) == ["## Declaration"]


def test_bold_is_no_emphasis_in_a_body_that_is_mostly_bold() -> None:
    body = [para("Scope", bold=True), para(BODY, bold=True), para("Terms", bold=True)]
    assert headings(docx([*body, para(BODY, bold=True)])) == []
    larger = [para("Scope", bold=True, size=32), para(BODY, bold=True, size=24)]
    assert headings(docx(larger)) == ["# Scope"]


def test_typed_section_numbers_in_sequence_are_headings_of_their_depth() -> None:
    body = [para("1 Scope", bold=True), para(BODY), para("1.1 Terms", bold=True), para(BODY)]
    body += [para("1.2 Notices", bold=True), para(BODY), para("2 Payment", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# 1 Scope", "## 1.1 Terms", "## 1.2 Notices", "# 2 Payment"]


def test_cjk_chapters_and_parts_are_headings_beside_heading_styles() -> None:
    styles = [style("Heading1", "heading 1")]
    body = [para("第一章 总则", style="Heading1"), para("一、项目概况", bold=True), para(BODY)]
    body += [para("二、采购需求", bold=True), para(BODY), para("第二章 附件", bold=True, size=32)]
    body += [para(BODY)]
    assert headings(docx(body, styles=styles)) == [
        "# 第一章 总则",
        "## 一、项目概况",
        "## 二、采购需求",
        "# 第二章 附件",
    ]


def test_a_typed_number_without_its_neighbour_in_sequence_is_not_a_heading() -> None:
    body = [para("Scope", outline=0), para(BODY), para("3 Results", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# Scope"]


def test_numbered_lines_back_to_back_are_a_list_or_contents_not_headings() -> None:
    body = [para("1 Scope", bold=True), para("2 Payment", bold=True), para("3 Notices", bold=True)]
    assert headings(docx([*body, para(BODY)])) == []


def test_typed_steps_in_plain_text_are_not_headings() -> None:
    body = [para("1. Mix the flour"), para(BODY), para("2. Add the water"), para(BODY)]
    assert headings(docx(body)) == []


def test_a_numbered_sentence_is_not_a_heading() -> None:
    body = [para("1. The supplier shall deliver on time.", bold=True), para(BODY)]
    body += [para("2. Payment is due in thirty days.", bold=True), para(BODY)]
    assert headings(docx(body)) == []


def test_a_heading_style_on_a_cjk_sentence_or_a_bracketed_note_is_body_text() -> None:
    styles = [style("Heading2", "heading 2")]
    body = [para("特此声明。", style="Heading2"), para("（内容包括：设备）", style="Heading2")]
    assert headings(docx([*body, para(BODY)], styles=styles)) == []


def test_table_of_contents_entries_are_never_headings() -> None:
    styles = [style("TOC1", "toc 1"), style("Heading1", "heading 1")]
    body = [para("1 Scope 3", style="TOC1", bold=True), para(BODY)]
    body += [para("2 Payment 5", style="TOC1", bold=True), para(BODY)]
    body += [para("Scope", style="Heading1"), para(BODY)]
    assert headings(docx(body, styles=styles)) == ["# Scope"]


def test_a_bold_label_over_a_shorter_line_is_not_a_heading() -> None:
    body = [para("Bold", bold=True), para("Red"), para("Results", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# Results"]


def test_a_heading_style_on_a_short_sentence_keeps_it_a_heading() -> None:
    # Google Docs users title sections with sentences; the writer's Heading style says so
    styles = [style("Heading1", "heading 1"), style("Heading2", "heading 2")]
    body = [para("Cras fringilla ipsum magna, in fringilla dui commodo a.", style="Heading1")]
    body += [para(BODY), para("In eleifend velit vitae libero sollicitudin.", style="Heading2")]
    assert headings(docx([*body, para(BODY)], styles=styles)) == [
        "# Cras fringilla ipsum magna, in fringilla dui commodo a.",
        "## In eleifend velit vitae libero sollicitudin.",
    ]


def test_a_bold_label_over_another_short_label_is_no_heading() -> None:
    # a sample of run formats: each line one word or two in its own format
    body = [para("Normal"), para("Bold", bold=True), para("Underline")]
    body += [para("Strikethrough"), para("Double strikethrough")]
    assert headings(docx(body)) == []
    larger = [para("Header", size=32), para("paragraph 1", size=24), para("Lists:", size=24)]
    assert headings(docx(larger)) == ["# Header"]


def form(*rows: list[str] | str) -> str:
    """A table of four columns: a ``str`` is a band (one bold cell spanning them all), a list a
    row of field labels."""
    grid = "<w:tblGrid>" + "<w:gridCol w:w='2000'/>" * 4 + "</w:tblGrid>"
    xml = []
    for row in rows:
        if isinstance(row, str):
            span = "<w:tcPr><w:gridSpan w:val='4'/></w:tcPr>"
            xml.append(f"<w:tr><w:tc>{span}{para(row, bold=True)}</w:tc></w:tr>")
        else:
            xml.append("<w:tr>" + "".join(f"<w:tc>{para(c)}</w:tc>" for c in row) + "</w:tr>")
    return f"<w:tbl>{grid}{''.join(xml)}</w:tbl>"


def test_a_form_s_numbered_bands_are_its_sections() -> None:
    body = form(
        "REFERRAL FORM",
        "Section 1 – Client",
        ["First Name", "Last Name", "Age", "City"],
        "Section 2 – Agency            Case Number",
        ["Agency", "Phone", "Fax", "E-mail"],
        "Types of abuse (check all that apply)",
    )
    text = docx_to_markdown(docx([body]), Limits()).text
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# Section 1 – Client",
        "# Section 2 – Agency",
    ]
    assert "| First Name | Last Name | Age | City |" in text  # the table goes on under it
    assert "# Section 2 – Agency\n\nCase Number\n\n| Agency |" in text


def test_a_form_s_band_above_its_first_section_is_its_title() -> None:
    # docx2python's checked_boxes.docx: the bold band "ELDER ABUSE FORENSIC CENTER REFERRAL"
    body = form(
        ["Office Use Only", "Date:", "", "Case Number:"],
        "REFERRAL FORM",
        "Section 1 – Client",
        ["First Name", "Last Name", "Age", "City"],
        "Section 2 – Agency",
        ["Agency", "Phone", "Fax", "E-mail"],
    )
    converted = docx_to_markdown(docx([body]), Limits())
    assert converted.title == "REFERRAL FORM"
    assert "REFERRAL FORM" not in converted.text
    assert "| Office Use Only | Date: |  | Case Number: |" in converted.text


def test_a_band_with_no_section_band_under_it_is_no_title() -> None:
    body = form("REFERRAL FORM", ["First Name", "Last Name", "Age", "City"])
    converted = docx_to_markdown(docx([body]), Limits())
    assert converted.title is None and "REFERRAL FORM" in converted.text


def test_a_table_of_numbered_rows_is_no_run_of_headings() -> None:
    rows = [["1.1", "Scope", "", ""], ["1.2", "Terms", "", ""], ["1.3", "Payment", "", ""]]
    assert headings(docx([form(*rows)])) == []


def test_a_regular_dash_between_bold_words_leaves_the_line_bold() -> None:
    line = raw_para(run("Article 2", bold=True) + run(" – ") + run("Payment", bold=True))
    body = [para("Article 1 Scope", bold=True), para(BODY), line, para(BODY)]
    assert headings(docx(body)) == ["# Article 1 Scope", "# Article 2 – Payment"]


def test_typed_sections_with_nothing_above_them_are_the_top_level() -> None:
    # docx2python's checked_boxes.docx: "Section 1 – ..." to "Section 5 – ..." and no part
    body = [para("Section 1 Scope", bold=True), para(BODY), para("Section 2 Terms", bold=True)]
    body += [para(BODY)]
    assert headings(docx(body)) == ["# Section 1 Scope", "# Section 2 Terms"]


def test_typed_sections_under_a_part_keep_their_depth() -> None:
    body = [para("Part 1 General", bold=True), para(BODY), para("Section 1 Scope", bold=True)]
    body += [para(BODY), para("Section 2 Terms", bold=True), para(BODY)]
    body += [para("Part 2 Special", bold=True), para(BODY)]
    assert headings(docx(body)) == [
        "# Part 1 General",
        "## Section 1 Scope",
        "## Section 2 Terms",
        "# Part 2 Special",
    ]


def test_a_larger_line_over_a_list_is_a_heading() -> None:
    # a team's daily log (round office-8): each day's date, bold 18 pt, over what was done
    body = []
    for day in ("April 26, 2022", "April 27, 2022", "April 28, 2022"):
        body += [para(day, bold=True, size=36), para("Worked on the board", number=(1, 0))]
        body.append(para("UML diagram iteration", number=(1, 0), size=22))
    found = headings(docx(body, numbering=decimal_numbering()))
    assert found == ["# April 26, 2022", "# April 27, 2022", "# April 28, 2022"]


def test_a_bold_line_of_the_body_s_size_over_a_list_is_no_heading() -> None:
    body = [para("Fruit", bold=True, size=22), para("Apples", number=(1, 0), size=22)]
    body += [para("Pears", number=(1, 0), size=22), para(BODY, size=22)]
    assert headings(docx(body, numbering=decimal_numbering())) == []


def test_a_larger_line_over_short_labels_is_no_heading() -> None:
    body = [para("16 point", size=32), para("Red", size=22), para("Courier new", size=22)]
    body += [para("Italic", size=22), para("Bold", bold=True, size=22), para("Underline", size=22)]
    assert headings(docx(body)) == []


def test_list_items_set_as_titles_are_sections_and_may_open_with_a_subsection() -> None:
    # a requirements document (round office-8): its sections are items of a one-level list,
    # bold 15 pt, each over text or over its first use case (14 pt); the title block above
    # (a 22 pt title, a plain line, the project's name at 20 pt) holds no heading
    body = [para("Requirements Definition", size=44), para("Group 2", size=22)]
    body += [para("Dan's Cool Beans", size=40)]
    body += [para("Introduction and Context", number=(1, 0), bold=True, size=30)]
    body += [para(BODY, size=22), para("Users and their goals", number=(1, 0), bold=True, size=30)]
    body += [para("Situation 1: Customer creates an order", size=28)]
    body += [para("Participating actor: Customer", size=22), para(BODY, size=22)]
    body += [para("Situation 2: Cashier creates an order", size=28), para(BODY, size=22)]
    body += [para("Glossary", number=(1, 0), bold=True, size=30), para(BODY, size=22)]
    assert headings(docx(body, numbering=decimal_numbering())) == [
        "# 1. Introduction and Context",
        "# 2. Users and their goals",
        "## Situation 1: Customer creates an order",
        "## Situation 2: Cashier creates an order",
        "# 3. Glossary",
    ]


def test_typed_numbers_that_skip_one_or_open_under_their_parent_are_in_sequence() -> None:
    # a student's reading notes (round office-8): sections of the book taken or skipped,
    # "18.4" left out, a first subsection "18.5.1" under its typed parent
    body = [para("18.2 Abstract syntax trees", bold=True), para(BODY)]
    body += [para("18.3 Expressions", bold=True), para(BODY)]
    body += [para("18.5 Walking the tree", bold=True), para(BODY)]
    body += [para("18.5.1 Drawing", bold=True), para(BODY)]
    assert headings(docx(body)) == [
        "# 18.2 Abstract syntax trees",
        "# 18.3 Expressions",
        "# 18.5 Walking the tree",
        "## 18.5.1 Drawing",
    ]


def test_a_first_subsection_without_its_parent_typed_is_no_heading() -> None:
    body = [para("Scope", outline=0), para(BODY), para("4.1 Results", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# Scope"]


def _centred(text: str) -> str:
    return raw_para(run(text), '<w:jc w:val="center"/><w:outlineLvl w:val="0"/>')


def test_a_centred_cover_block_given_outline_levels_has_one_heading() -> None:
    # a course proposal (Word 2016 for Mac, round office-8): its title, course and authors,
    # centred and back to back, each with outline level 0 like the sections under them
    body = [_centred("Project Proposal: Coupon usage prediction"), _centred("MIS 382 Fall 2017")]
    body += [_centred("Jack Cheng and Sandra Cui"), para("Problem Description", outline=0)]
    body += [para(BODY), para("References", outline=0), para(BODY)]
    assert headings(docx(body)) == [
        "# Project Proposal: Coupon usage prediction",
        "# Problem Description",
        "# References",
    ]


def test_headings_back_to_back_that_are_not_centred_all_stay() -> None:
    body = [para("Scope", outline=0), para("Terms", outline=0), para(BODY)]
    assert headings(docx(body)) == ["# Scope", "# Terms"]


SENTENCE = "The team kept a steady pace through the sprint and met every deadline it had set."


def _two_columns(rows: list[tuple[str, list[str]]]) -> str:
    """A table of two columns: each row a label cell beside a cell of several paragraphs."""
    body = "".join(
        f"<w:tr><w:tc>{para(label, bold=True)}</w:tc><w:tc>{''.join(right)}</w:tc></w:tr>"
        for label, right in rows
    )
    grid = '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="7000"/></w:tblGrid>'
    return f"<w:tbl>{grid}{body}</w:tbl>"


def test_a_table_of_labels_beside_their_sections_is_read_as_headed_sections() -> None:
    # a sprint retrospective (Google Docs, round office-8): each question in the left cell,
    # its points (bold lines over bulleted sentences) in the right cell
    points = [para("Velocity of sprint", bold=True), para(SENTENCE, number=(1, 0))]
    points += [para("Effective communication", bold=True), para(SENTENCE, number=(1, 0))]
    later = [para("Active use of time", bold=True), para(SENTENCE, number=(1, 0))]
    body = [para("Sprint 3 Retrospective", bold=True)]
    body.append(_two_columns([("What went well?", points), ("What could be better?", later)]))
    text = docx_to_markdown(docx(body, numbering=decimal_numbering()), Limits()).text
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# What went well?",
        "## Velocity of sprint",
        "## Effective communication",
        "# What could be better?",
        "## Active use of time",
    ]
    assert "|" not in text  # read as the body, not as a table
    assert text.count(SENTENCE) == 3


def test_a_two_column_table_of_names_and_single_values_stays_a_table() -> None:
    rows = [("Owner", [para("Milni and Carissa")]), ("Status", [para("Completed")])]
    text = docx_to_markdown(docx([_two_columns(rows), para(BODY)]), Limits()).text
    assert "| **Owner** | Milni and Carissa |" in text
    assert not [line for line in text.splitlines() if line.startswith("#")]


def test_a_bold_line_over_a_list_of_sentences_is_a_heading() -> None:
    body = [para("Velocity of sprint", bold=True, size=22), para(SENTENCE, number=(1, 0))]
    body += [para("Effective communication", bold=True, size=22), para(SENTENCE, number=(1, 0))]
    found = headings(docx(body, numbering=decimal_numbering()))
    assert found == ["# Velocity of sprint", "# Effective communication"]


def test_outline_levels_set_by_hand_start_at_the_top() -> None:
    # a start-up's summary (round office-8): its name at outline level 1, sections at 2 and 3
    body = [para("Park Pay Wireless", outline=1), para(BODY), para("Problem", outline=2)]
    body += [para(BODY), para("Market research", outline=3), para(BODY)]
    assert headings(docx(body)) == ["# Park Pay Wireless", "## Problem", "### Market research"]


def test_outline_levels_under_a_heading_style_keep_their_depth() -> None:
    styles = [style("Heading1", "heading 1")]
    body = [para("Scope", style="Heading1"), para(BODY), para("Terms", outline=2), para(BODY)]
    assert headings(docx(body, styles=styles)) == ["# Scope", "### Terms"]


def test_an_unnumbered_line_set_as_the_typed_headings_are_is_a_heading_too() -> None:
    # a lab report (Word 2011 for Mac, round office-9): "Abstract:" and "Conclusion:" bold at
    # the body's size like "Part 1:" and "Part 2"; reading notes (round office-8) put an
    # unnumbered "expression vectors" among "18.3 Expressions", "18.3.1 Constants"
    body = [para("Lab Report", bold=True), para(BODY), para("Abstract:", bold=True), para(BODY)]
    body += [para("Part 1:", bold=True), para(BODY), para("Part 2", bold=True), para(BODY)]
    body += [para("Conclusion:", bold=True), para(BODY)]
    assert headings(docx(body)) == ["# Abstract:", "# Part 1:", "# Part 2", "# Conclusion:"]
    notes = [para("18.2 Syntax trees", bold=True), para(BODY)]
    notes += [para("18.3 Expressions", bold=True), para(BODY)]
    notes += [para("expression vectors", bold=True), para(BODY)]
    notes += [para("18.3.1 Constants", bold=True), para(BODY)]
    notes += [para("18.3.2 Symbols", bold=True), para(BODY)]
    assert headings(docx(notes)) == [
        "# 18.2 Syntax trees",
        "# 18.3 Expressions",
        "## expression vectors",
        "## 18.3.1 Constants",
        "## 18.3.2 Symbols",
    ]


def test_lines_beside_typed_headings_stay_text_unless_set_and_placed_as_headings() -> None:
    body = [para("Part 1", bold=True), para(BODY), para("Part 2", bold=True), para(BODY)]
    body += [para("Summary", size=32), para(BODY)]  # another look than the typed headings'
    body += [para("Owner", bold=True), para("The platform team")]  # a label over its value
    body += [para("Inputs", bold=True), para("Outputs", bold=True), para(BODY)]  # a run
    body += [para("The result holds.", bold=True), para(BODY)]  # a sentence
    assert headings(docx(body)) == ["# Part 1", "# Part 2"]


def _cover_line(text: str, size: int) -> str:
    """A centred bold line of ``size`` half-points, as covers set their titles."""
    inner = f'<w:r><w:rPr><w:b/><w:sz w:val="{size}"/></w:rPr><w:t>{text}</w:t></w:r>'
    return raw_para(inner, '<w:jc w:val="center"/>')


def test_the_one_largest_centred_line_of_the_opening_is_the_title() -> None:
    # a lab report (Word 2011 for Mac, round office-9): author, date and instructor, then the
    # title centred at 26 pt over bold sections at the body's size
    body = [para("Fernando Faria", size=24), para("10/31/15", size=24), para("Dr. Knox", size=24)]
    body += [_cover_line("Virtual Memory Project Lab Report", 52)]
    body += [para("Abstract", bold=True, size=24), para(BODY, size=24)]
    body += [para("Method", bold=True, size=24), para(BODY, size=24)]
    converted = docx_to_markdown(docx(body), Limits())
    assert converted.title == "Virtual Memory Project Lab Report"
    assert "Virtual Memory" not in converted.text  # the title, not a line of the body
    assert headings(docx(body)) == ["# Abstract", "# Method"]


def test_two_lines_at_the_opening_s_largest_size_give_no_title() -> None:
    # a report's cover (round office-9): 'RELATÓRIO' over its title, both 14 pt bold centred
    body = [_cover_line("RELATÓRIO", 28), _cover_line("Testing random spanning trees", 28)]
    body += [para("Kruskal", bold=True, size=24), para(BODY, size=24)]
    body += [para("Prim", bold=True, size=24), para(BODY, size=24)]
    assert docx_to_markdown(docx(body), Limits()).title is None
    plain_opening = [para("Design notes", size=24), para("Tokens", bold=True, size=24)]
    plain_opening += [para(BODY, size=24)]
    assert docx_to_markdown(docx(plain_opening), Limits()).title is None  # not set apart


def test_a_larger_line_set_as_two_headings_are_is_one_whatever_follows_it() -> None:
    # a senior project proposal (round office-9): its 16 pt sections over paragraphs, and
    # "Additional Software/Equipment Needed" over the one short line "Unreal Engine 5"
    body = [para("Problem Statement", size=32), para(BODY, size=24)]
    body += [para("Project Description", size=32), para(BODY, size=24)]
    body += [para("Additional Software", size=32), para("Unreal Engine 5", size=24)]
    body += [para("Personal Motivation", size=32), para(BODY, size=24)]
    assert headings(docx(body)) == [
        "# Problem Statement",
        "# Project Description",
        "# Additional Software",
        "# Personal Motivation",
    ]


def test_a_bold_line_of_the_body_s_size_needs_its_text_whatever_its_siblings() -> None:
    body = [para("Scope", bold=True, size=24), para(BODY, size=24)]
    body += [para("Terms", bold=True, size=24), para(BODY, size=24)]
    body += [para("Owner", bold=True, size=24), para("The platform team", size=24)]
    assert headings(docx(body)) == ["# Scope", "# Terms"]
