"""Tables rebuilt from a PDF page's geometry (``skills/formats/pdf/tables.py``): rows whose cells
wrap, rows written cell by cell, a table going on over a page break, and what is no table.

Every PDF here is written line by line with PDFium (``pdf_maker``): a tab starts the next
column 150 points further right; a line given a ``left`` of ``COLUMN_2`` is a wrapped cell's
next line in the third column.
"""

from __future__ import annotations

import io
import itertools
import re

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from pdf_maker import MARGIN, Spec, make_pdf
from test_pdf_structure import BODY, BOLD, converted

from skills.formats.read import read_file

COLUMN_2 = MARGIN + 300
PITCH = 15.0  # pdf_maker's line pitch at 10 pt


_NAMES = (f"{a}{b}{c}" for a, b, c in itertools.product("bdgklmnprstvz", "aeiou", "xqw"))


def paragraph() -> list[Spec]:
    """Three lines of body text in a word of their own (no line repeats: no page furniture)."""
    word = next(_NAMES)
    return [
        (f"The {word} part runs on over a full line of the page, as body text does here.", *BODY),
        (f"It goes on for a second line about {word}, so the body's type is plain to see.", *BODY),
        (f"A last line ends the {word} paragraph.", *BODY),
    ]


def rows_of(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("| ")]


def wrapped_table(top: float, gap: float = PITCH) -> list[Spec]:
    """A header and three rows whose last cell wraps over two or three lines, ``gap`` points
    between rows (the pitch within a row is 15)."""
    lines: list[Spec] = [("Code\tTeam\tFirst action", *BODY, top)]
    at = top + gap
    for code, team, words in (
        ("E1", "api", ["Restart the pool", "and watch the", "backlog."]),
        ("E2", "queue", ["Drain the node", "then replace it."]),
        ("E3", "store", ["Rotate the secret", "and redeploy", "the slot."]),
    ):
        lines.append((f"{code}\t{team}\t{words[0]}", *BODY, at))
        for n, more in enumerate(words[1:], start=1):
            lines.append((more, *BODY, at + n * PITCH, COLUMN_2))
        at += len(words) * PITCH + gap - PITCH
    return lines


def test_a_row_whose_last_cell_wraps_is_one_row_under_the_header() -> None:
    text, _, _ = converted([[*paragraph(), *wrapped_table(200.0, gap=20.0), *paragraph()]])
    assert rows_of(text) == [
        "| Code | Team | First action |",
        "| --- | --- | --- |",
        "| E1 | api | Restart the pool and watch the backlog. |",
        "| E2 | queue | Drain the node then replace it. |",
        "| E3 | store | Rotate the secret and redeploy the slot. |",
    ]


def test_rows_without_room_between_them_are_opened_by_their_first_cell() -> None:
    text, _, _ = converted([[*paragraph(), *wrapped_table(200.0), *paragraph()]])
    assert "| E2 | queue | Drain the node then replace it. |" in rows_of(text)


def test_a_first_cell_that_wraps_stays_in_its_row_when_rows_stand_apart() -> None:
    # fasta's Table 1: "ggsearch36/" over "glsearch36", the rows 22 points apart, lines 15
    lines: list[Spec] = [("Program\tEquiv.\tDescription", *BODY, 200.0)]
    at = 225.0
    for first, second, words in (
        ("fasta36", "blastp", ["Compare a protein", "to a database."]),
        ("ggsearch36/", "", ["Compare a protein", "globally to a", "database."]),
        ("lalign36", "", ["Calculate several", "alignments."]),
    ):
        lines.append((f"{first}\t{second}\t{words[0]}", *BODY, at))
        if first.endswith("/"):
            lines.append(("glsearch36", *BODY, at + PITCH))
        for n, more in enumerate(words[1:], start=1):
            lines.append((more, *BODY, at + n * PITCH, COLUMN_2))
        at += len(words) * PITCH + 10.0
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert "| ggsearch36/ glsearch36 |  | Compare a protein globally to a database. |" in text
    assert "| lalign36 |  | Calculate several alignments. |" in text


def test_a_row_written_cell_by_cell_is_one_row() -> None:
    # LaTeX writes each p{} cell of a row in turn: down the first cell, back up for the next
    lines: list[Spec] = [
        ("Name", *BODY, 200.0),
        ("Kind", *BODY, 200.0, MARGIN + 150),
        ("Meaning", *BODY, 200.0, COLUMN_2),
    ]
    for n, (name, kind, words) in enumerate(
        (("alpha", "int", ["The first", "value."]), ("beta", "str", ["The second", "one."]))
    ):
        at = 225.0 + n * 40.0
        lines.append((name, *BODY, at))
        lines.append((kind, *BODY, at, MARGIN + 150))
        lines.extend((word, *BODY, at + k * PITCH, COLUMN_2) for k, word in enumerate(words))
    lines.append(("gamma\tbool\tThe third.", *BODY, 305.0))
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[2:4] == [
        "| alpha | int | The first value. |",
        "| beta | str | The second one. |",
    ]


def test_a_header_set_over_several_lines_is_one_header_row() -> None:
    # the Statistical Abstract's "American / Indian / Native" over figures, bottom-aligned
    lines: list[Spec] = [
        ("American", *BODY, 200.0, COLUMN_2),
        ("Offense\tTotal\tIndian", *BODY, 212.0),
        ("Native", *BODY, 224.0, COLUMN_2),
    ]
    lines += [(f"{name}\t{n}0\t{n}", *BODY, 240.0 + 12 * n) for n, name in enumerate("ABCD")]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[0] == "| Offense | Total | American Indian Native |"


def test_dot_leaders_are_no_part_of_a_cell() -> None:
    lines: list[Spec] = [("Offense\tTotal\tMale", *BODY)]
    lines += [
        (f"{name} . . . . . . .\t{n}00\t{n}0", *BODY)
        for n, name in enumerate(("Fraud", "Arson", "Theft"), 1)
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert "| Arson | 200 | 20 |" in text


def test_a_caption_above_a_table_is_not_its_header() -> None:
    lines: list[Spec] = [("Table 2: Teams", *BODY), ("Code\tTeam\tLead", *BODY)]
    lines += [(f"E{n}\tapi\tAnn", *BODY) for n in range(3)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[0] == "| Code | Team | Lead |"


def test_a_table_going_on_with_words_keeps_the_header_of_its_columns() -> None:
    # Gutenprint's language table: page 37 goes on with "es | Spanish", no header of its own
    header: Spec = ("Code\tLanguage\tScript", *BODY)
    first = [(f"c{n}\tName{n}\tLatin", *BODY) for n in range(3)]
    rest = [(f"d{n}\tOther{n}\tGreek", *BODY) for n in range(3)]
    text, _, _ = converted([[*paragraph(), header, *first], [*rest, *paragraph()]])
    after = text.split("<!-- PageBreak -->")[1]
    assert rows_of(after)[:3] == [
        "| Code | Language | Script |",
        "| --- | --- | --- |",
        "| d0 | Other0 | Greek |",
    ]


def test_rows_in_other_columns_at_the_top_of_a_page_do_not_take_the_header() -> None:
    header: Spec = ("Code\tLanguage\tScript", *BODY)
    first = [(f"c{n}\tName{n}\tLatin", *BODY) for n in range(3)]
    rest = [(f"d{n}\tOther{n}", *BODY) for n in range(3)]  # two columns of the three
    text, _, _ = converted([[*paragraph(), header, *first], [*rest, *paragraph()]])
    assert "| Code | Language | Script |" not in text.split("<!-- PageBreak -->")[1]


def test_a_table_cut_right_after_its_first_row_gives_the_next_page_its_header() -> None:
    # the runbook: page 6 ends with the header and one row, page 7 goes on (a row cut in two)
    page_one = [*paragraph(), *wrapped_table(700.0)[:2]]
    rest: list[Spec] = [
        ("and watch the", *BODY, 72.0, COLUMN_2),
        ("E2\tqueue\tDrain the node", *BODY, 92.0),
        ("then replace it.", *BODY, 107.0, COLUMN_2),
        ("E3\tstore\tRotate the secret", *BODY, 127.0),
    ]
    text, _, _ = converted([page_one, [*rest, *paragraph()]])
    before, after = text.split("<!-- PageBreak -->")
    assert rows_of(after)[:3] == [
        "| Code | Team | First action |",
        "| --- | --- | --- |",
        "| E2 | queue | Drain the node then replace it. |",
    ]
    # the next page bears the short table out: written, its row cut by the break made whole
    assert rows_of(before) == [
        "| Code | Team | First action |",
        "| --- | --- | --- |",
        "| E1 | api | Restart the pool and watch the |",
    ]


def test_a_row_cut_by_a_page_break_is_joined_to_the_last_row_before_it() -> None:
    # the runbook's error codes: "Drain the node, then" ends page 8, "replace it; ..." opens 9
    page_one = [*paragraph(), *wrapped_table(640.0)[:-1]]  # E3's last line goes over
    rest: list[Spec] = [
        ("the slot.", *BODY, 72.0, COLUMN_2),
        ("E4\tqueue\tDrain the node", *BODY, 92.0),
        ("then replace it.", *BODY, 107.0, COLUMN_2),
        ("E5\tstore\tRestart the pool", *BODY, 127.0),
    ]
    text, _, _ = converted([page_one, [*rest, *paragraph()]])
    before, after = text.split("<!-- PageBreak -->")
    assert rows_of(before)[-1] == "| E3 | store | Rotate the secret and redeploy the slot. |"
    assert rows_of(after)[:3] == [
        "| Code | Team | First action |",
        "| --- | --- | --- |",
        "| E4 | queue | Drain the node then replace it. |",
    ]
    assert "the slot." not in after


def test_a_row_whose_first_cell_is_left_empty_at_a_page_top_stays_a_row() -> None:
    # rows of one group, the group's name only in its first row: no cell of theirs wraps
    header: Spec = ("Group\tItem\tColour", *BODY)
    first = [("Fruit\tapple\tred", *BODY), *[(f"Nut{n}\tcashew\tbrown", *BODY) for n in range(3)]]
    rest: list[Spec] = [("pear\tgreen", *BODY, 72.0, MARGIN + 150), ("Leaf\tkale\tgreen", *BODY)]
    rest += [(f"Root{n}\tbeet\tred", *BODY) for n in range(2)]
    text, _, _ = converted([[*paragraph(), header, *first], [*rest, *paragraph()]])
    before, after = text.split("<!-- PageBreak -->")
    assert "| Nut2 | cashew | brown |" in rows_of(before)
    assert "|  | pear | green |" in rows_of(after)


def test_two_columns_of_prose_are_no_table() -> None:
    # a page set in two columns, PDFium reads the left one and then climbs back for the right
    left = [
        (f"Left column line {n} says a few plain words of prose here", *BODY, 140.0 + 15 * n)
        for n in range(6)
    ]
    right = [
        (f"Right column line {n} goes on with more words of prose", *BODY, 140.0 + 15 * n, 330.0)
        for n in range(6)
    ]
    text, _, _ = converted([[*left, *right]])
    assert not rows_of(text)


def test_boxes_of_a_flowchart_side_by_side_are_no_table() -> None:
    # NCCN's flowcharts: each box's lines in turn, short fragments, the next box back up
    box_a = [
        (words, *BODY, 140.0 + 15 * n)
        for n, words in enumerate(("For invasive", "disease or", "nodes", "present"))
    ]
    box_b = [
        (words, *BODY, 140.0 + 15 * n, MARGIN + 150)
        for n, words in enumerate(("TSH and Tg", "measurement", "after surgery", "and imaging"))
    ]
    text, _, _ = converted([[*paragraph(), *box_a, *box_b, *paragraph()]])
    assert not rows_of(text)


def test_a_forms_choices_are_no_table() -> None:
    lines: list[Spec] = [
        (f"{n} - CHOICE\t{n + 5} - OPTION\t{n + 10} - OTHER", *BODY) for n in (1, 3, 5, 7)
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_labels_and_their_values_are_no_table() -> None:
    lines: list[Spec] = [
        (f"{name}:\t{value}", *BODY)
        for name, value in (
            ("Name", "Hydro"),
            ("Author", "NRN Team"),
            ("Version", "1.0"),
            ("Created", "2003"),
        )
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_a_numbered_listing_is_no_table() -> None:
    lines: list[Spec] = [(f"{n} border({n},0,1)\tbegin x:=t\ty:={n}", *BODY) for n in range(1, 6)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_a_uml_class_members_list_is_no_table() -> None:
    lines: list[Spec] = [("+\tUnknown = -1:", *BODY)]
    lines += [(f"+\tValue{n} = {n}:", *BODY) for n in range(4)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_small_labels_over_larger_values_row_after_row_are_a_form() -> None:
    label = ("Helvetica", 6.0)
    value = ("Times-Roman", 9.0)
    lines: list[Spec] = [
        ("UNIT\tNAME\tBIRTH", *label, 140.0),
        ("1\tWARD, ANN\t1995", *value, 150.0),
        ("STREET\tCITY\tPHONE", *label, 164.0),
        ("84 N. 17TH\tCOLUMBUS\t419-596", *value, 174.0),
        ("INJURIES\tTAKEN BY\tSEATING", *label, 188.0),
        ("3\tBath Township\t4", *value, 198.0),
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_table_rows_are_never_headings() -> None:
    text, _, _ = converted([[*paragraph(), *wrapped_table(200.0, gap=20.0), *paragraph()]])
    assert not re.search(r"^#+ .*(Restart|Drain|Rotate)", text, re.MULTILINE)


def test_a_bold_header_at_the_top_of_a_page_starts_a_table_of_its_own() -> None:
    header: Spec = ("Code\tLanguage\tScript", *BODY)
    first = [(f"c{n}\tName{n}\tLatin", *BODY) for n in range(3)]
    second: list[Spec] = [("Crew\tShift\tBoat", "Helvetica-Bold", 10.0)]
    second += [(f"d{n}\tOther{n}\tGreek", *BODY) for n in range(3)]
    text, _, _ = converted([[*paragraph(), header, *first], [*second, *paragraph()]])
    assert rows_of(text.split("<!-- PageBreak -->")[1])[0] == "| Crew | Shift | Boat |"


def test_prose_written_line_by_line_across_two_columns_is_no_table() -> None:
    # a producer that writes each line of the page left to right over both columns
    lines: list[Spec] = [
        (f"plain words of prose {n} run\t\tmore words of prose {n} here", *BODY, 140.0 + 15 * n)
        for n in range(5)
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_code_in_a_proportional_font_is_no_table() -> None:
    lines: list[Spec] = [
        (f"x{n} := f({n});\t\tk{n} := g(x{n});", *BODY, 140.0 + 15 * n) for n in range(5)
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert not rows_of(text)


def test_header_cells_written_cell_by_cell_over_several_lines_are_one_header_row() -> None:
    # the Chinese leaflet: two-line header cells beside one-line ones centred between them
    col = [MARGIN, MARGIN + 120, MARGIN + 240, MARGIN + 360]
    lines: list[Spec] = [  # in the order the producer wrote them, cell by cell
        ("Agent", *BODY, 205.5, col[0]),
        ("Soak", *BODY, 200.0, col[1]),
        ("(hours)", *BODY, 211.0, col[1]),
        ("Dilution", *BODY, 200.0, col[2]),
        ("(times)", *BODY, 211.0, col[2]),
        ("Method", *BODY, 205.5, col[3]),
    ]
    for n in range(3):
        lines += [
            (text, *BODY, 235.0 + 15 * n, x)
            for text, x in zip((f"Agent {n}", f"{n}4", f"{n}00", "Dip"), col, strict=True)
        ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[0] == "| Agent | Soak (hours) | Dilution (times) | Method |"


def test_a_header_row_over_an_empty_corner_is_a_row_of_its_own() -> None:
    lines: list[Spec] = [("Indonesia\tGermany", *BODY, 200.0, MARGIN + 150)]
    lines += [
        (f"{name}\t{a}\t{b}", *BODY, 215.0 + 15 * n)
        for n, (name, a, b) in enumerate(
            (
                ("Continent", "Asia", "Europe"),
                ("Capital", "Jakarta", "Berlin"),
                ("Currency", "Rupiah", "Euro"),
            )
        )
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[:3] == [
        "|  | Indonesia | Germany |",
        "| --- | --- | --- |",
        "| Continent | Asia | Europe |",
    ]


def test_a_watermark_across_a_table_is_no_cell_of_it() -> None:
    lines: list[Spec] = [("Code\tTeam\tLead", *BODY, 200.0)]
    lines += [(f"E{n}\tapi\tAnn", *BODY, 215.0 + 15 * n) for n in range(4)]
    lines.append(("DRAFT", "Helvetica-Bold", 60.0, 185.0, MARGIN + 200, 30.0))  # on E2's line
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert "| E2 | api | Ann |" in text


def test_a_footer_under_the_last_row_after_room_is_no_part_of_it() -> None:
    # the donors' list: "ANEXO I-A-1   Página 12 de 14" under the last two columns
    lines: list[Spec] = [("Name\tType\tAmount", *BODY, 200.0)]
    lines += [(f"Donor{n}\tCASH\t$ {n}0", *BODY, 216.0 + 16 * n) for n in range(3)]
    lines.append(("ANNEX 1\tPage 12 of 14", *BODY, 272.0, MARGIN + 150))
    text, _, _ = converted([[*lines]])
    assert rows_of(text)[-1] == "| Donor2 | CASH | $ 20 |"


def ruled(data: bytes, rules: list[tuple[float, float, float]]) -> bytes:
    """The PDF with thin black rules drawn on its first page: (points from the top, x0, x1)."""
    pdf = pdfium.PdfDocument(data)
    page = pdf[0]
    height = page.get_height()
    for top, x0, x1 in rules:
        rect = raw.FPDFPageObj_CreateNewRect(x0, height - top - 0.25, x1 - x0, 0.5)
        raw.FPDFPageObj_SetFillColor(rect, 0, 0, 0, 255)
        raw.FPDFPath_SetDrawMode(rect, raw.FPDF_FILLMODE_ALTERNATE, False)
        raw.FPDFPage_InsertObject(page.raw, rect)
    raw.FPDFPage_GenerateContent(page.raw)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_ruled_row_is_the_lines_between_its_rules() -> None:
    # freefem's keywords: three lines of names beside one explanation centred on the middle one
    lines: list[Spec] = [("Keywords\tExplanations", *BODY, 200.0)]
    rules = [(199.0, MARGIN - 4, 400.0), (213.0, MARGIN - 4, 400.0)]
    at = 214.0
    for names, meaning in (
        (["begin, {"], "Begin a block"),
        (["log, exp", "sin, cos", "cosh, tanh"], "Mathematical functions"),
        (["end, }"], "End a block"),
        (["solve"], "Solver mode"),
    ):
        for n, name in enumerate(names):
            middle = n == len(names) // 2
            lines.append((f"{name}\t{meaning}" if middle else name, *BODY, at + 14 * n))
        at += 14 * len(names)
        rules.append((at - 1, MARGIN - 4, 400.0))
    data = ruled(make_pdf([[*paragraph(), *lines, *paragraph()]]), rules)
    text = read_file(data, "ruled.pdf").text
    assert "| log, exp sin, cos cosh, tanh | Mathematical functions |" in text
    assert "| end, } | End a block |" in text


def test_rules_between_groups_of_rows_do_not_join_the_rows() -> None:
    # the FASTA guide's Table 3: a rule under the header and under every second row
    lines: list[Spec] = [("Query\tLibrary\tProgram", *BODY, 200.0)]
    lines += [(f"Prot{n}\tDNA{n}\tfasta{n}", *BODY, 214.0 + 14 * n) for n in range(6)]
    rules = [(199.0, MARGIN - 4, 400.0), (213.0, MARGIN - 4, 400.0)]
    rules += [(241.0, MARGIN - 4, 400.0), (269.0, MARGIN - 4, 400.0), (297.0, MARGIN - 4, 400.0)]
    text = read_file(ruled(make_pdf([[*paragraph(), *lines, *paragraph()]]), rules), "r.pdf").text
    assert "| Prot1 | DNA1 | fasta1 |" in text


def test_a_numbered_heading_right_under_a_table_is_no_row_of_it() -> None:
    # gputils: "3.2 MPLINK compatibility mode" under the options table, its title over a column
    lines: list[Spec] = [("Code\tTeam\tLead", *BODY, 200.0)]
    lines += [(f"E{n}\tapi\tAnn", *BODY, 215.0 + 15 * n) for n in range(3)]
    lines += [("4", BOLD, 12.0, 262.0), ("Results and notes", BOLD, 12.0, 262.0, MARGIN + 150)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[-1] == "| E2 | api | Ann |"
    assert "4 Results and notes" in text


def test_numbered_rows_in_the_tables_own_bold_type_stay_rows() -> None:
    lines: list[Spec] = [("No\tFruit", BOLD, 10.0)]
    lines += [(f"{n}\tApple{n}", BOLD, 10.0) for n in range(1, 5)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[-1] == "| 4 | Apple4 |"


def test_a_list_whose_first_row_is_prose_has_no_header_row() -> None:
    # simh: "SET CPU MMU | Enables the Memory Management Unit (MMU) and clock ..." opens a list
    lines: list[Spec] = [
        (f"SET CPU {name}\t{text}", *BODY)
        for name, text in (
            ("MMU", "Enables the memory unit and the clock."),
            ("QUIET", "Suppresses all warning messages."),
            ("HALT", "Stops at a halt."),
        )
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[:3] == [
        "|  |  |",
        "| --- | --- |",
        "| SET CPU MMU | Enables the memory unit and the clock. |",
    ]


MONO = ("Courier", 9.0)


def registers(names: list[str]) -> list[Spec]:
    lines: list[Spec] = [("name\tsize\tcomments", *MONO)]
    lines += [(f"{name}\t16\t{name.lower()} register", *MONO) for name in names]
    return lines


def test_a_table_typed_in_courier_under_a_header_of_words_is_a_table() -> None:
    # simh's register tables: Word, Courier set with tabs (code is monospaced too)
    text, _, _ = converted([[*paragraph(), *registers(["PC", "SP", "PSW", "KSP"]), *paragraph()]])
    assert rows_of(text)[:3] == [
        "| name | size | comments |",
        "| --- | --- | --- |",
        "| PC | 16 | pc register |",
    ]


def test_code_in_courier_with_its_comments_aligned_is_no_table() -> None:
    lines: list[Spec] = [("label\topcode\tcomment", *MONO)]
    lines += [(f"loop{n}\tdecfsz\t; count down {n}", *MONO) for n in range(4)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text) == []


def test_a_first_cell_running_into_the_next_column_keeps_its_row() -> None:
    # pdp11: "{K/S/U}{I/D}{PAR/PDR}{0..7}" alone on its line, "16 | memory ..." under it
    lines = [(*spec, 200.0 + 13.5 * n) for n, spec in enumerate(registers(["PC", "SP", "PSW"]))]
    lines += [
        ("{K/S/U}{I/D}{PAR/PDR}{0..7}x", *MONO, 254.0),
        ("16\tmemory registers", *MONO, 267.5, MARGIN + 150),
    ]
    lines += [(*spec, 281.0 + 13.5 * n) for n, spec in enumerate(registers(["USP", "WRU"])[1:])]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert "| {K/S/U}{I/D}{PAR/PDR}{0..7}x | 16 | memory registers |" in rows_of(text)
    assert rows_of(text)[-1] == "| WRU | 16 | wru register |"


def test_a_header_going_on_with_a_row_of_the_list_beside_it_is_still_a_header() -> None:
    # PDFMaker for Excel: 商品编码 | 数量 | 商品名称 | 商品基本条码 | 334010052 | 2.18 | 华联绿豆
    lines: list[Spec] = [("Code\tName\tKey\t2.18", *BODY)]
    lines += [(f"30200000{n}\tbean{n}\tk{n}\t1.{n}", *BODY) for n in range(3)]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[0] == "| Code | Name | Key | 2.18 |"


def test_groups_of_full_rows_set_apart_are_rows_not_wrapped_cells() -> None:
    # hp2100's BACI registers: rows in groups with room between them, every line a full row
    lines: list[Spec] = [("name\tsize\tcomments", *BODY, 200.0)]
    at = 222.0
    for group in (("IBUF", "OBUF", "STATUS"), ("EDSIW", "DSRW"), ("FIFOPUT", "FIFOGET", "BRK")):
        for name in group:
            lines.append((f"{name}\t16\t{name.lower()} word", *BODY, at))
            at += PITCH
        at += 10.0
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert "| OBUF | 16 | obuf word |" in rows_of(text)
    assert len(rows_of(text)) == 10


def test_a_groups_name_between_two_rules_is_a_row_of_its_own() -> None:
    # neatoguide's Table 1: "Edge Attributes" centred between rules, not the last cell's next line
    lines: list[Spec] = [("Name\tDefault\tValues", *BODY, 200.0)]
    rules = [(199.0, MARGIN - 4, 520.0), (213.0, MARGIN - 4, 520.0)]
    at = 214.0
    for group, names in (
        ("Node Attributes", ["shape", "label", "color", "pos"]),
        ("Edge Attributes", ["weight", "dir", "len", "id"]),
    ):
        lines.append((group, *BODY, at, MARGIN + 330))
        rules.append((at + 13.0, MARGIN - 4, 520.0))
        at += 14.0
        for name in names:
            lines.append((f"{name}\t{name}0\tthe {name} of it", *BODY, at))
            at += 14.0
        rules.append((at - 1, MARGIN - 4, 520.0))
    data = ruled(make_pdf([[*paragraph(), *lines, *paragraph()]]), rules)
    rows = rows_of(read_file(data, "ruled.pdf").text)
    assert rows[:3] == [
        "| Name | Default | Values |",
        "| --- | --- | --- |",
        "| Node Attributes |  |  |",
    ]
    assert "| label | label0 | the label of it |" in rows
    assert "| Edge Attributes |  |  |" in rows


def test_a_bold_groups_name_over_plain_rows_keeps_the_table_whole() -> None:
    # RTKLIB's API list: "Matrix and vector functions" in bold between groups of functions
    lines: list[Spec] = [("Function\tDescription\tSource", *BODY)]
    for group, names in (
        ("Time functions", ["epoch", "gpst"]),
        ("Matrix functions", ["mat", "eye"]),
    ):
        lines.append((group, BOLD, 10.0))
        lines += [(f"{name}()\tDo {name}\t{name}.c", *BODY) for name in names]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text)[:3] == [
        "| Function | Description | Source |",
        "| --- | --- | --- |",
        "| Time functions |  |  |",
    ]
    assert rows_of(text)[-1] == "| eye() | Do eye | eye.c |"


def test_a_header_and_one_row_under_a_table_caption_are_a_table() -> None:
    # debmake's Table 5.3: its caption, its header and a single row
    lines: list[Spec] = [("Table 5.3 The file path options", *BODY)]
    lines += [
        ("Classic\ti386 path\tamd64 path", *BODY),
        ("/usr/lib/\t/usr/lib/i386/\t/usr/lib/amd64/", *BODY),
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text) == [
        "| Classic | i386 path | amd64 path |",
        "| --- | --- | --- |",
        "| /usr/lib/ | /usr/lib/i386/ | /usr/lib/amd64/ |",
    ]


def test_a_header_and_one_row_without_a_caption_stay_lines() -> None:
    lines: list[Spec] = [
        ("Classic\ti386 path\tamd64 path", *BODY),
        ("/usr/lib/\t/usr/lib/i386/\t/usr/lib/amd64/", *BODY),
    ]
    text, _, _ = converted([[*paragraph(), *lines, *paragraph()]])
    assert rows_of(text) == []
