"""The rules held-out round 21 asked for (docs/formats.md): PDFs from public repositories by
producers no truth file had before (Typst, ONLYOFFICE, Keynote, PowerPoint for Mac, PDFium,
Deckset, Google Slides, WPS Office, InDesign CC), read from their typography alone. Each test
fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 11.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("qy", "xw", "vz", "jq", "wk"), BODY)
paragraph = _PROSE.paragraph


def _markdown(pages: list[list[Spec]]) -> str:
    return read_file(make_pdf(pages), "document.pdf").text


def test_numbered_headings_that_start_again_under_each_lettered_section_stay() -> None:
    # an InDesign textbook chapter: "1." "2." "3." in 10 pt bold under "B." at 11 pt, then
    # "II." / "A." and a new "1.": the numbers start again under each section, as an outline's
    # do; taken for a numbered list restarting, every 10 pt heading was dropped
    pages: list[list[Spec]] = [
        [("A. The first part", BOLD, 13, 72), *paragraph(100),
         ("1. The first point", BOLD, 11, 170), *paragraph(190),
         ("2. The second point", BOLD, 11, 260), *paragraph(280)],
        [("B. The second part", BOLD, 13, 72), *paragraph(100),
         ("1. The third point", BOLD, 11, 170), *paragraph(190),
         ("2. The fourth point", BOLD, 11, 260), *paragraph(280)],
    ]  # fmt: skip
    assert [line.lstrip("# ") for line in headings(pages)] == [
        "A. The first part", "1. The first point", "2. The second point",
        "B. The second part", "1. The third point", "2. The fourth point",
    ]  # fmt: skip


def test_a_numbered_list_that_starts_again_with_no_heading_between_stays_a_list() -> None:
    # the case the restart rule is for: bold numbered lines 1, 2 then 1, 2 again under no new
    # heading are two lists, not chapters
    pages: list[list[Spec]] = [
        [("A Guide to Steps", BOLD, 22, 40), ("The Only Part", BOLD, 16, 72), *paragraph(100),
         ("1. Take the first step", BOLD, 11, 170), *paragraph(190),
         ("2. Take the second step", BOLD, 11, 260), *paragraph(280),
         ("1. Take the first step again", BOLD, 11, 350), *paragraph(370),
         ("2. Take the second step again", BOLD, 11, 440), *paragraph(460)],
    ]  # fmt: skip
    assert headings(pages) == ["# The Only Part"]


def test_a_lettered_heading_in_turn_stays_on_a_page_crowded_with_bold_labels() -> None:
    # the InDesign chapter's "C. Traitement des acidoses métaboliques" and "1. Acidoses
    # métaboliques aiguës" at the foot of a page whose table has a dozen bold cells: a page
    # with more than eight candidates of the body's size is a form's, and all were dropped;
    # a heading whose number comes next in its type's numbering is no form's label
    cells = ("north", "south", "east", "west", "upper", "lower", "inner", "outer", "middle")
    labels = [(f"Label {word}", BOLD, 11, 90 + 30 * n) for n, word in enumerate(cells)]
    values = [
        (f"the value of the {word} cell", *BODY, 105 + 30 * n) for n, word in enumerate(cells)
    ]
    pages: list[list[Spec]] = [
        [("A Handbook of Parts", BOLD, 22, 40),
         ("A. The first part", BOLD, 11, 72), *paragraph(90),
         ("B. The second part", BOLD, 11, 170), *paragraph(190)],
        [*sorted([*labels, *values], key=lambda spec: spec[3]),
         ("C. The third part", BOLD, 11, 400), *paragraph(420)],
    ]  # fmt: skip
    found = [line.lstrip("# ") for line in headings(pages)]
    assert "C. The third part" in found
    assert not any(line.startswith("Label") for line in found)


def _kerned_pdf(lines: list[str]) -> bytes:
    """A one-page PDF whose lines are ``TJ`` arrays in 11 pt Times-Roman (``lines``: the array's
    inside, as ``(alcalose) -115 (?)``: a kerning move of an eighth of an em or so and no space
    character), written by hand as a typesetter writes them; pdf_maker sets whole strings."""
    shows = "".join(f"BT /F1 11 Tf 72 {700 - 20 * n} Td [{line}] TJ ET\n" for n, line in
                    enumerate(lines))  # fmt: skip
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(shows)} >>\nstream\n{shows}endstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
    ]
    out, offsets = "%PDF-1.4\n", []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n{body}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n"
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out.encode("latin-1")


def test_a_thin_space_before_a_question_mark_is_read_as_a_space() -> None:
    # the InDesign chapter's French headings: "Acidose ou alcalose ?" sets the question mark a
    # thin space (an eighth of an em) after the word, no space character: PDFium wrote
    # "alcalose?", and the heading read otherwise than the page shows
    data = _kerned_pdf(["(Acidose ou alcalose) -115 (?)"])
    assert "alcalose ?" in read_file(data, "document.pdf").text


def test_a_colon_set_tight_against_its_word_stays_tight() -> None:
    data = _kerned_pdf(["(The files are README) 0 (: and NEWS)"])
    assert "README: and NEWS" in read_file(data, "document.pdf").text


SLIDE = (1024.0, 768.0)  # Keynote's 4:3 slide


def _centred(text: str, font: str, size: float, top: float) -> Spec:
    """A line centred on the slide (its width from PDFium's boxes)."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(make_pdf([[(text, font, size, 100, 0)]], SLIDE))[0]
    width = float(page.get_textpage().get_charbox(len(text) - 1)[2])
    return (text, font, size, top, (SLIDE[0] - width) / 2)


def _deck(slides: list[list[Spec]]) -> list[str]:
    return [line for line in read_file(make_pdf(slides, SLIDE), "deck.pdf").text.splitlines()
            if line.startswith("#")]  # fmt: skip


def _bullets(word: str) -> list[Spec]:
    return [(f"A point about the {word} thing number {n}", "Helvetica", 30, 300 + 45 * n, 80)
            for n in range(4)]  # fmt: skip


def test_a_centred_slide_title_over_two_lines_is_one_title() -> None:
    # Keynote's "Go is addictive," / "I want it everywhere…" and "open-source" / "mutant Go
    # compilers": centred, each line starts elsewhere, and the title was cut at its first line
    bold = "Helvetica-Bold"
    slides: list[list[Spec]] = [
        [_centred("Mutant Compilers", bold, 64, 300), *_bullets("first")],
        [_centred("Go is addictive,", bold, 64, 60), _centred("I want it all", bold, 64, 140),
         *_bullets("second")],
        [_centred("open-source", bold, 64, 60), _centred("mutant compilers", bold, 64, 140),
         *_bullets("third")],
    ]  # fmt: skip
    assert _deck(slides) == [
        "# Go is addictive, I want it all",
        "# open-source mutant compilers",
    ]


def test_a_slide_titles_next_line_opening_with_an_ellipsis_goes_on() -> None:
    # Keynote's "Help a mutant Go compiler" / "…or write your own!": the ellipsis's top is at
    # the x-height, so by the lines' tops the second stood a line and a half under the first
    bold = "Helvetica-Bold"
    slides: list[list[Spec]] = [
        [_centred("Mutant Compilers", bold, 64, 300), *_bullets("fourth")],
        [_centred("Help a compiler", bold, 64, 60), _centred("\u2026or write one", bold, 64, 140),
         *_bullets("fifth")],
        [_centred("The last slide", bold, 64, 60), *_bullets("sixth")],
    ]  # fmt: skip
    assert _deck(slides) == ["# Help a compiler \u2026or write one", "# The last slide"]


def _body_bullets(word: str) -> list[Spec]:
    return [(f"A point about the {word} thing, number {n}", "Helvetica", 18, 80 + 30 * n, 40)
            for n in range(5)]  # fmt: skip


def test_slide_titles_in_a_header_band_at_the_bodys_size_are_titles() -> None:
    # PowerPoint for Mac's deck: each slide's title an 18 pt line in capitals at the slide's
    # top ("BUSINESS PROBLEM", "WHY MONGODB - DYNAMIC FEED MANAGEMENT"), as large as the text
    # under it; no title was larger than the body, so the deck had no headings
    light = "Helvetica"
    slides: list[list[Spec]] = [
        [("BUSINESS PROBLEM", light, 18, 20, 12), *_body_bullets("seventh")],
        [("BUSINESS PROBLEM", light, 18, 20, 12), *_body_bullets("eighth")],
        [("WHY MONGODB - FEED MANAGEMENT", light, 18, 20, 12), *_body_bullets("ninth")],
        [("WHY GO, MONGODB and BEEGO", light, 18, 20, 12), *_body_bullets("tenth")],
        [("CONCLUSION", light, 18, 20, 12), *_body_bullets("eleventh")],
    ]  # fmt: skip
    assert _deck(slides) == [
        "# BUSINESS PROBLEM", "# BUSINESS PROBLEM", "# WHY MONGODB - FEED MANAGEMENT",
        "# WHY GO, MONGODB and BEEGO", "# CONCLUSION",
    ]  # fmt: skip


def test_a_few_capital_lines_atop_slides_at_the_bodys_size_are_no_band() -> None:
    light = "Helvetica"
    slides: list[list[Spec]] = [
        [("NOTE", light, 18, 20, 12), *_body_bullets("twelfth")],
        [("A plain first line of text", light, 18, 20, 12), *_body_bullets("thirteenth")],
        [("A plain second line of text", light, 18, 20, 12), *_body_bullets("fourteenth")],
        [("TIP", light, 18, 20, 12), *_body_bullets("fifteenth")],
        [("A plain third line of text", light, 18, 20, 12), *_body_bullets("sixteenth")],
    ]  # fmt: skip
    assert _deck(slides) == []


def _cjk_pdf(lines: list[tuple[str, float, float]]) -> bytes:
    """A one-page A4 PDF of (text, size, top) lines in SimSun, not embedded, each character
    written as its code point through Identity-H and mapped back by a ToUnicode range (as a
    Chinese office suite writes its text); a space a quarter of an em wide."""
    shows = "".join(
        f"BT /F1 {size} Tf 56 {842 - top} Td <{''.join(f'{ord(c):04X}' for c in text)}> Tj ET\n"
        for text, size, top in lines
    )
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def "
        "1 begincodespacerange <0000> <FFFF> endcodespacerange "
        "1 beginbfrange <0000> <FFFF> <0000> endbfrange endcmap "
        "CMapName currentdict /CMap defineresource pop end end"
    )
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(shows.encode('latin-1'))} >>\nstream\n{shows}endstream",
        "<< /Type /Font /Subtype /Type0 /BaseFont /SimSun /Encoding /Identity-H "
        "/DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
        "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /SimSun /CIDSystemInfo << /Registry "
        "(Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R /DW 1000 "
        "/W [32 [250]] >>",
        f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream",
        "<< /Type /FontDescriptor /FontName /SimSun /Flags 4 /FontBBox [0 -141 1000 859] "
        "/ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 700 /StemV 80 >>",
    ]
    out, offsets = "%PDF-1.4\n", []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n{body}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n"
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out.encode("latin-1")


def test_chinese_numbered_headings_one_under_the_other_are_no_run_of_labels() -> None:
    # a quarterly report from WPS Office: "第四节 财务报表" (16 pt), "一、财务报表" (12 pt) and
    # "1、合并资产负债表" (10.5 pt) one under the other over a table; numbered in Chinese, which
    # section_number does not read, they were a run of three unnumbered labels and all went
    text = [
        "公司报告期内经营情况正常，各项业务按计划推进，未发生重大变化。",
        "本季度营业收入较上年同期有所下降，主要原因是产品销售减少。",
        "董事会及全体董事保证本报告内容的真实、准确和完整。",
        "财务报表未经会计师事务所审计，请投资者注意投资风险。",
        "报告期内公司未发生对外担保事项，也未发生资金占用情况。",
        "公司将继续推进资产出售事项，并及时履行信息披露义务。",
        "本报告期内，公司主要会计数据和财务指标未发生重大变动。",
        "公司股东总数及前十名股东持股情况详见下表所列内容。",
    ]
    lines = [("东北电气发展股份有限公司", 18.0, 60.0), ("第一节 重要提示", 16.0, 110.0)]
    lines += [(text[n], 9.0, 140.0 + 14 * n) for n in range(4)]
    lines += [("第二节 公司基本情况", 16.0, 230.0), ("一、主要会计数据", 12.0, 260.0)]
    lines += [("1、资产负债表项目", 10.5, 282.0)]
    lines += [(text[4 + n], 9.0, 305.0 + 14 * n) for n in range(4)]
    found = [line for line in read_file(_cjk_pdf(lines), "report.pdf").text.splitlines()
             if line.startswith("#")]  # fmt: skip
    assert found == [
        "# 第一节 重要提示", "# 第二节 公司基本情况", "## 一、主要会计数据",
        "### 1、资产负债表项目",
    ]  # fmt: skip


def test_numbered_steps_under_each_unnumbered_heading_stay_lists() -> None:
    # a registration guide (megaparse's 0168004): "1. Aprovar sua inscrição" "2. Negar seu
    # aplicativo ou" "3. Peça informações adicionais" in bold under each "Etapa ..." heading:
    # an unnumbered heading between is no outline's parent, so the restart still marks a list
    pages: list[list[Spec]] = [
        [("A Guide to Forms", BOLD, 22, 40),
         ("Register a new pupil", BOLD, 14, 72), *paragraph(100),
         ("1. Approve the form", BOLD, 11, 170), ("2. Deny the form", BOLD, 11, 185),
         ("3. Ask for more", BOLD, 11, 200), *paragraph(220)],
        [("Register a pupil again", BOLD, 14, 72), *paragraph(100),
         ("1. Approve the request", BOLD, 11, 170), ("2. Deny the request", BOLD, 11, 185),
         ("3. Ask for more papers", BOLD, 11, 200), *paragraph(220)],
    ]  # fmt: skip
    assert headings(pages) == ["# Register a new pupil", "# Register a pupil again"]


def test_a_contents_page_crowded_with_numbered_entries_keeps_them_out() -> None:
    # simh's FAQ: its contents page lists "1 GENERAL QUESTIONS", "1.1 WHAT IS SIMH?" ... in
    # bold; numbered in turn, they are no headings on a page crowded with numbered lines
    entries: list[Spec] = [("1 GENERAL QUESTIONS", BOLD, 12, 72)]
    entries += [(f"1.{n} WHAT IS ITEM {n}?", BOLD, 12, 72 + 16 * n) for n in range(1, 6)]
    entries += [("2 OPERATIONAL QUESTIONS", BOLD, 12, 170)]
    entries += [(f"2.{n} HOW DO I DO {n}?", BOLD, 12, 170 + 16 * n) for n in range(1, 6)]
    pages: list[list[Spec]] = [
        [("Frequently Asked Questions", BOLD, 22, 40), *paragraph(100)],
        entries,
        [("1 General Questions", BOLD, 16, 72), ("1.1 What is item 1?", BOLD, 14, 100),
         *paragraph(125)],
    ]  # fmt: skip
    assert headings(pages) == ["# 1 General Questions", "## 1.1 What is item 1?"]


ITALIC_BOLD = "Helvetica-BoldOblique"


def test_a_forms_numbered_part_under_its_section_band_is_no_run_of_labels() -> None:
    # ONLYOFFICE's sample form: "SECTION A: All questions must be completed", "A(1) Personal
    # details" and the field group's label "Name (this should be your legal name)" one under
    # the other; "A(1)" is a number section_number does not read, and the three went as a
    # run of unnumbered labels
    pages: list[list[Spec]] = [
        [("Application Form", BOLD, 24, 40),
         ("SECTION A: All questions must be completed", ITALIC_BOLD, 12, 90),
         ("A(1) Personal details", BOLD, 11, 115),
         ("Name (this should be your legal name)", ITALIC_BOLD, 10, 135), *paragraph(155),
         ("A(2) Contact Information", BOLD, 11, 240), *paragraph(260)],
    ]  # fmt: skip
    found = [line.lstrip("# ") for line in headings(pages)]
    assert "A(1) Personal details" in found and "A(2) Contact Information" in found


def test_a_section_label_over_a_numbered_part_is_not_read_into_it() -> None:
    # the form's page 4: "SECTION B" centred over "B(1) Next of kin"; a chapter's label over
    # its name opens the name ("Chapter 2" / "Installation"), and the two read as one heading
    # "SECTION B B(1) Next of kin"; a part with a number of its own is no chapter's name
    pages: list[list[Spec]] = [
        [("Application Form", BOLD, 24, 40), ("A(1) Personal details", BOLD, 11, 90),
         *paragraph(110)],
        [("SECTION B", ITALIC_BOLD, 12, 60, 250), ("B(1) Next of kin", BOLD, 11, 90),
         *paragraph(110), ("B(2) Declaration", BOLD, 11, 200), *paragraph(220)],
    ]  # fmt: skip
    found = [line.lstrip("# ") for line in headings(pages)]
    assert "SECTION B B(1) Next of kin" not in found and "B(1) Next of kin" in found


def test_one_part_numbers_of_different_types_take_their_levels_from_their_types() -> None:
    # the InDesign chapter numbers its parts "I.", its sections "A." and their points "1.", each
    # number one part long: read by the number's parts, all were level 1
    pages: list[list[Spec]] = [
        [("A Chapter of Parts", BOLD, 24, 40),
         ("I. THE FIRST PART", BOLD, 14, 72), ("A. The first section", BOLD, 12, 95),
         *paragraph(115), ("1. The first point", BOLD, 11, 185), *paragraph(205),
         ("2. The second point", BOLD, 11, 275), *paragraph(295)],
        [("B. The second section", BOLD, 12, 72), *paragraph(92),
         ("1. The third point", BOLD, 11, 160), *paragraph(180)],
    ]  # fmt: skip
    assert headings(pages) == [
        "# I. THE FIRST PART", "## A. The first section", "### 1. The first point",
        "### 2. The second point", "## B. The second section", "### 1. The third point",
    ]  # fmt: skip


def test_a_covers_title_over_short_fields_stands_though_an_appendix_is_set_larger() -> None:
    # a Typst project report: the cover's 28 pt title over a table of short fields (course,
    # teacher, group, place and date), and a 30 pt appendix heading later: the title was
    # refused as smaller than a heading elsewhere, and the cover's banner lines became headings
    regular = "Helvetica"
    pages: list[list[Spec]] = [
        [("NATIONAL UNIVERSITY OF THE CITY", regular, 18, 70),
         ("SCHOOL OF INFORMATION TECHNOLOGY", regular, 18, 100),
         ("PROJECT REPORT", regular, 20, 360), ("A Room Booking System", regular, 28, 400),
         ("Course: IE103", *BODY, 550), ("Teacher: Dr. Nguyen", *BODY, 567),
         ("Group: Team 02", *BODY, 584), ("The City, January 2026", *BODY, 630)],
        [("Introduction", regular, 20, 72), *paragraph(100)],
        [("Appendix A", regular, 30, 72), *paragraph(110)],
    ]  # fmt: skip
    markdown = _markdown(pages)
    found = [line.lstrip("# ") for line in markdown.splitlines() if line.startswith("#")]
    assert found == ["Introduction", "Appendix A"]
    assert read_file(make_pdf(pages), "report.pdf").title == "A Room Booking System"


def test_a_diagrams_numbers_above_a_slides_title_are_not_its_first_line() -> None:
    # Google Slides' RobustIRC deck: slide 2 draws a diagram's node numbers "1 2 3" at the
    # slide's top, above the title "Motivation", at the body's size: taken for the slide's
    # first line, it was no title and the slide had none
    bold = "Helvetica-Bold"
    slides: list[list[Spec]] = [
        [_centred("Robust Chat", bold, 64, 300), *_bullets("seventeenth")],
        [("1 2 3", "Helvetica", 30, 20, 600), ("Motivation", bold, 44, 60, 40),
         *_bullets("eighteenth")],
        [("Idea", bold, 44, 60, 40), *_bullets("nineteenth")],
    ]  # fmt: skip
    assert _deck(slides) == ["# Motivation", "# Idea"]


def _titled(data: bytes, title: str) -> bytes:
    """``data`` with a metadata title, added as an incremental update (an Info dictionary)."""
    import re

    trailer = re.findall(rb"trailer\s*<<(.*?)>>\s*startxref\s*(\d+)", data, re.S)[-1]
    root = re.search(rb"/Root\s*(\d+ \d+ R)", trailer[0])
    size = int(re.search(rb"/Size\s*(\d+)", trailer[0]).group(1))  # type: ignore[union-attr]
    assert root is not None
    body = f"{size} 0 obj\n<< /Title ({title}) >>\nendobj\n".encode("latin-1")
    start = len(data) + 1
    xref = start + len(body)
    tail = (
        f"xref\n{size} 1\n{start:010d} 00000 n \ntrailer\n<< /Size {size + 1} /Root "
        f"{root.group(1).decode()} /Info {size} 0 R /Prev {trailer[1].decode()} >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode("latin-1")
    return data + b"\n" + body + tail


def test_a_metadata_title_said_only_in_passing_on_the_title_slide_gives_way() -> None:
    # a Keynote deck's metadata title "GopherCon" (the conference) and its first slide's 64 pt
    # "Mutant Go compilers" over "A short talk by ... at GopherCon on 26th April 2014": the
    # metadata, printed on the page, was taken for the title
    bold = "Helvetica-Bold"
    slides: list[list[Spec]] = [
        [_centred("Mutant Compilers", bold, 64, 300),
         _centred("A short talk by Ann at GopherCon on 26th April", "Helvetica", 24, 400)],
        [("The first phase", bold, 44, 60, 40), *_bullets("twentieth")],
        [("The second phase", bold, 44, 60, 40), *_bullets("twenty-first")],
    ]  # fmt: skip
    data = _titled(make_pdf(slides, SLIDE), "GopherCon")
    assert read_file(data, "deck.pdf").title == "Mutant Compilers"


def test_a_headings_note_in_brackets_over_its_next_lines_goes_with_it() -> None:
    # the InDesign chapter: "1. Alcalose métabolique de contraction" / "(correspond aux causes
    # d'alcalose ... d'une DEC," / "qui est le facteur de maintien principal), avec hypoTA" in
    # one bold type: the bracket's lines are no heading alone, and the heading was cut at its
    # first line
    pages: list[list[Spec]] = [
        [("A Handbook of Causes", BOLD, 22, 40),
         ("A. The main causes", BOLD, 13, 72), *paragraph(95),
         ("1. Loss of the volume kind", BOLD, 11, 170, 72),
         ("(which goes with the causes of a loss of water,", BOLD, 11, 185, 86),
         ("the chief factor of all), with low pressure", BOLD, 11, 200, 86),
         *paragraph(222),
         ("2. Gain of the base kind", BOLD, 11, 300, 72), *paragraph(322)],
    ]  # fmt: skip
    found = [line.lstrip("# ") for line in headings(pages)]
    assert found == [
        "A. The main causes",
        "1. Loss of the volume kind (which goes with the causes of a loss of water, the chief "
        "factor of all), with low pressure",
        "2. Gain of the base kind",
    ]


def test_a_contents_pages_short_entries_are_no_title_pages_fields() -> None:
    # pypdf's pdflatex-outline and rst2pdf's toc-depth test: page 1 opens with "Contents" over
    # short entries and the chapters are set larger later: no title page, no title
    regular = "Helvetica"
    entries = [(f"{n} Part {word}", *BODY, 85 + 15 * n)
               for n, word in enumerate(("One", "Two", "Three", "Four", "Five"), 1)]  # fmt: skip
    pages: list[list[Spec]] = [
        [("Contents", BOLD, 18, 72), *entries],
        [("1 Part One", regular, 24, 72), *paragraph(105)],
        [("2 Part Two", regular, 24, 72), *paragraph(105)],
    ]  # fmt: skip
    assert read_file(make_pdf(pages), "report.pdf").title != "Contents"


def test_a_title_over_two_lines_in_capitals_is_one_title() -> None:
    # the InDesign chapter opener: "DÉSORDRES" / "DE L'ÉQUILIBRE ACIDE-BASE" in 28 pt capitals,
    # one under the other: no joining word shows in capitals, and the second line became the
    # chapter's first heading
    pages: list[list[Spec]] = [
        [("DISORDERS", BOLD, 28, 80), ("OF THE ACID BALANCE", BOLD, 28, 113),
         *paragraph(170), ("I. THE GASES OF THE BLOOD", BOLD, 13, 250), *paragraph(275)],
        [("II. THE LOSS OF BASE", BOLD, 13, 72), *paragraph(100)],
    ]  # fmt: skip
    data = make_pdf(pages)
    assert read_file(data, "chapter.pdf").title == "DISORDERS OF THE ACID BALANCE"
    assert headings(pages) == ["# I. THE GASES OF THE BLOOD", "# II. THE LOSS OF BASE"]


def test_a_forms_short_part_title_ending_in_a_full_stop_is_a_heading() -> None:
    # ONLYOFFICE's sample form: "A(7) English Language Proficiency." and "A(12) Names and
    # addresses of your academic referees." end in a full stop, and read as sentences
    pages: list[list[Spec]] = [
        [("Application Form", BOLD, 24, 40),
         ("A(1) Personal details", BOLD, 11, 90), *paragraph(110),
         ("A(2) English Language Proficiency.", BOLD, 11, 190), *paragraph(210)],
    ]  # fmt: skip
    found = [line.lstrip("# ") for line in headings(pages)]
    assert "A(2) English Language Proficiency." in found


def test_a_word_tracked_out_keeps_its_exclamation_mark_tight() -> None:
    # the Rust deck's "FEEDBACK WELCOME!" and Prawn's character-spacing sample: every letter
    # stands apart, the mark as far as the letters; no thin space of its own
    tracked = " -110 ".join(f"({char})" for char in "WELCOME!")
    data = _kerned_pdf([tracked])
    assert "WELCOME!" in read_file(data, "document.pdf").text


def test_a_closing_slides_thanks_over_a_centred_address_is_no_two_line_title() -> None:
    # a report deck's last slide: "Thank you!" centred over the firm's address in its size
    bold = "Helvetica-Bold"
    slides: list[list[Spec]] = [
        [_centred("The Literacy Scan", bold, 64, 300), *_bullets("twenty-second")],
        [("The findings", bold, 44, 60, 40), *_bullets("twenty-third")],
        [_centred("Thank you!", bold, 44, 200), _centred("Education-First.com", bold, 44, 260)],
    ]  # fmt: skip
    assert "# Thank you! Education-First.com" not in _deck(slides)
