"""What the PDF converter reads from a page's typography when the file has no bookmarks: headings
and their levels, the title, clean words, no page furniture, and pages it cannot read."""

from __future__ import annotations

import re

import pytest
from format_fixtures import fixture
from pdf_maker import MARGIN, Spec, heading_lines, make_pdf

from skills.chunking import ChunkOptions, chunk_document
from skills.formats.conversion import Limits
from skills.formats.pdf.convert import pdf_to_markdown
from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
BOLD = "Helvetica-Bold"
SMALL = ("Times-Roman", 7.0)
_WORDS = iter(f"{a}{b}" for a in "bcdfghklmnprstvz" for b in ("ane", "ile", "ora", "usk", "eth"))


def paragraph() -> list[Spec]:
    """Three lines of body text, in words no other paragraph uses (repeated lines at a page's
    edge would be page furniture)."""
    word = next(_WORDS)
    return [
        (
            f"The {word} section runs on over a full line of the page, as body text does here.",
            *BODY,
        ),
        (
            f"It goes on for a second line about {word}, so that the body's type is plain to see.",
            *BODY,
        ),
        (f"A last line ends the {word} paragraph.", *BODY),
    ]


def converted(pages: list[list[Spec]]) -> tuple[str, str | None, tuple[str, ...]]:
    file = read_file(make_pdf(pages), "report.pdf")
    return file.text, file.title, file.warnings


def test_lines_larger_or_bolder_than_the_body_are_headings_levelled_by_size() -> None:
    text, _, _ = converted(
        [
            [("Overview", BOLD, 16), *paragraph(), ("Scope", BOLD, 13), *paragraph()],
            [("Method", BOLD, 16), *paragraph(), ("Limits", BOLD, 10), *paragraph()],
        ]
    )
    assert heading_lines(text) == ["# Overview", "## Scope", "# Method", "### Limits"]


def test_numbered_headings_take_their_level_from_the_numbering_and_all_are_found() -> None:
    # the engine's numbered-title rule alone took "3.1 Traces" and missed "7. Evaluation"
    text, _, _ = converted(
        [
            [("6. Results", BOLD, 14), *paragraph(), ("6.6 Correctness", BOLD, 12), *paragraph()],
            [("7. Evaluation", BOLD, 14), *paragraph(), ("7.1 Traces", BOLD, 12), *paragraph()],
        ]
    )
    assert heading_lines(text) == [
        "# 6. Results",
        "## 6.6 Correctness",
        "# 7. Evaluation",
        "## 7.1 Traces",
    ]
    chunks = chunk_document(text, format=None, options=ChunkOptions(child_max_tokens=64))
    after = [leaf for leaf in chunks.leaves if leaf.start >= text.index("# 7. Evaluation")]
    assert after and all(leaf.headings[0] == "7. Evaluation" for leaf in after)


def test_a_body_type_numbered_line_is_a_heading_only_when_it_continues_the_numbering() -> None:
    text, _, _ = converted(
        [
            [("3 Model", BOLD, 14), *paragraph(), ("3.1 LRS model", BOLD, 10), *paragraph()],
            [("3.1.1 Logical view", *BODY), *paragraph(), ("3.1.2 Hydro network", *BODY)],
            [*paragraph(), ("5.2 Not after 3.1.2", *BODY), *paragraph()],
        ]
    )
    assert heading_lines(text) == [
        "# 3 Model",
        "## 3.1 LRS model",
        "### 3.1.1 Logical view",
        "### 3.1.2 Hydro network",
    ]
    assert "\n5.2 Not after 3.1.2\n" in text  # in its paragraph: the engine does not title it


def test_a_numbered_list_in_bold_that_starts_again_is_not_chapters() -> None:
    def items() -> list[Spec]:
        return [
            ("1. Precision", BOLD, 10),
            *paragraph(),
            ("2. Header line", BOLD, 10),
            *paragraph(),
        ]

    export = [("Export", BOLD, 16), *paragraph(), *items()]
    text, _, _ = converted([[("Data Import and Export", BOLD, 24), *export], items(), items()])
    assert heading_lines(text) == ["# Export"]


def test_labels_of_a_diagram_and_captions_are_not_headings() -> None:
    labels = [("Hydro Network", BOLD, 10), ("Events", BOLD, 10), ("Metadata", BOLD, 10)]
    small = [("- geometry: GB_Curve", "Helvetica", 6)]
    text, _, _ = converted(
        [
            [("Packages", BOLD, 14), *paragraph(), *labels, ("Figure 2 - Packages", BOLD, 10)],
            [("Code List", BOLD, 18), *small, *paragraph()],
        ]
    )
    assert heading_lines(text) == ["# Packages"]


def test_the_first_page_largest_line_is_the_title_and_not_a_heading() -> None:
    text, title, _ = converted(
        [
            [
                ("Annual Report", BOLD, 24),
                ("of the Harbour Board", BOLD, 24),
                ("Summary", BOLD, 14, 180),  # set apart from the title
                *paragraph(),
            ]
        ]
    )
    assert title == "Annual Report of the Harbour Board"
    assert heading_lines(text) == ["# Summary"]


def test_what_stands_above_the_title_and_the_lines_right_under_it_are_not_headings() -> None:
    # a journal's banner over the article's title, then its authors with no gap
    text, title, _ = converted(
        [
            [
                ("ORIGINAL ARTICLE", BOLD, 12, 40),
                ("Harbour Silt and Tides", BOLD, 24, 80),
                ("Ann Author and Ben Writer", BOLD, 12, 106),
                ("Introduction", BOLD, 14, 160),
                *paragraph(),
                *paragraph(),
            ],
            [("Results", BOLD, 14), *paragraph()],
        ]
    )
    assert title == "Harbour Silt and Tides"
    assert heading_lines(text) == ["# Introduction", "# Results"]


def test_running_headers_footers_and_page_numbers_are_left_out_but_pages_still_count() -> None:
    pages = [
        [
            ("Harbour Board - Annual Report 2024", "Helvetica", 8, 30),
            ("Part " + word, BOLD, 14),
            *paragraph(),
            *paragraph(),
            (str(number), "Helvetica", 8, 760),
        ]
        for number, word in enumerate(["One", "Two", "Three", "Four"], start=1)
    ]
    text, _, _ = converted(pages)
    assert "Annual Report 2024" not in text
    assert not re.search(r"^\d$", text, re.MULTILINE)
    assert text.count("<!-- PageBreak -->") == 3
    assert heading_lines(text) == ["# Part One", "# Part Two", "# Part Three", "# Part Four"]


def test_a_word_cut_at_a_line_end_is_joined_and_a_real_compound_kept() -> None:
    text, _, _ = converted(
        [
            [
                ("The indexer reads the infor-", *BODY),
                ("mation of every page, and the Gimp-", *BODY),
                ("Print driver is a name.", *BODY),
            ]
        ]
    )
    assert "information" in text and "infor-" not in text
    assert "Gimp-Print" in text


def test_a_page_of_symbols_is_dropped_with_a_warning_naming_it_and_the_layout_route() -> None:
    garbage: list[Spec] = [("+%=<> +%=<> +%=<> +%=<>", *BODY)] * 3
    text, _, warnings = converted([[("Intro", BOLD, 14), *paragraph()], garbage, paragraph()])
    assert "+%=" not in text and text.count("A last line") == 2
    assert text.count("<!-- PageBreak -->") == 2  # the page is still counted
    assert warnings and warnings[0].startswith("page 2 of 3 has no text layer")
    assert "'layout' definitions" in warnings[0]


@pytest.mark.parametrize("size", [10.0, 10.4])
def test_text_in_the_body_type_alone_makes_no_heading(size: float) -> None:
    text, _, _ = converted([[("Short line", "Times-Roman", size), *paragraph(), *paragraph()]])
    assert heading_lines(text) == []


def test_the_lines_of_a_cover_page_are_not_headings() -> None:
    cover: list[Spec] = [
        ("Hydro Network Data Model", BOLD, 20),
        ("Natural Resources Canada", BOLD, 12),
        ("Customer Service Centre", BOLD, 12),
        ("Telephone 1-800-661-2638", *BODY),
    ]
    text, title, _ = converted(
        [cover, [("1 Overview", BOLD, 14), *paragraph(), *paragraph()], [*paragraph()]]
    )
    assert title == "Hydro Network Data Model"
    assert heading_lines(text) == ["# 1 Overview"]


def test_an_xfa_form_says_that_its_fields_are_not_read() -> None:
    # the shape of a dynamic XFA form as Acrobat writes it: the catalog asks the reader to
    # render the form, and the page itself is empty ("Please wait..." in most producers)
    body = (
        b"%PDF-1.7\n1 0 obj\n<< /NeedsRendering true /Pages 2 0 R /Type /Catalog >>\nendobj\n"
        b"2 0 obj\n<< /Count 1 /Kids [ 3 0 R ] /Type /Pages >>\nendobj\n"
        b"3 0 obj\n<< /MediaBox [ 0 0 300 300 ] /Parent 2 0 R /Type /Page >>\nendobj\n"
    )
    offsets = [body.index(f"{n} 0 obj".encode()) for n in (1, 2, 3)]
    xref = b"xref\n0 4\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    data = body + xref + b"trailer\n<< /Root 1 0 R /Size 4 >>\nstartxref\n%d\n%%%%EOF\n" % len(body)
    file = read_file(data, "form.pdf")
    assert file.warnings and file.warnings[0].startswith("the PDF is an XFA form")


def test_aligned_cells_become_a_pipe_table_whose_rows_keep_their_header() -> None:
    rows = [("Code\tComponent\tFirst action", *BODY)] + [
        (f"E10{n}\tindexer\tRestart the pool", *BODY) for n in range(4)
    ]
    text, _, _ = converted([[*paragraph(), *rows, *paragraph()]])
    assert "| Code | Component | First action |\n| --- | --- | --- |\n" in text
    assert "| E103 | indexer | Restart the pool |" in text


def test_cells_that_do_not_line_up_stay_lines_of_text() -> None:
    rows = [("Code\tComponent", *BODY), ("E100\tindexer\tRestart", *BODY), ("E101", *BODY)]
    text, _, _ = converted([[*paragraph(), *rows, *paragraph()]])
    assert "|" not in text


def test_a_page_crowded_with_bold_labels_is_a_form_and_gives_no_heading() -> None:
    # a crash report's page: forty bold field labels, each over its value in body type
    fields = ["County", "Locality", "Weather", "Contour", "Surface", "Damage", "Roadway",
              "Traffic", "Injuries", "Ejection"]  # fmt: skip
    form: list[Spec] = []
    for field in fields:
        form += [(field, BOLD, 10), (f"{field} value written in", *BODY)]
    text, _, _ = converted(
        [
            [*paragraph(), ("Summary", BOLD, 14), *paragraph()],
            form,
            [("Notes", BOLD, 14), *paragraph()],
        ]
    )
    assert heading_lines(text) == ["# Summary", "# Notes"]


def test_positions_past_a_character_left_out_of_the_text_keep_their_pdfium_index() -> None:
    # PDFium's text leaves out a glyph mapped to a control code (an unmapped "×" in "5 × 5"):
    # without the map, every line after it would read the type of the character before it
    from types import SimpleNamespace

    from skills.formats.pdf.lines import char_indices

    codes = [ord(c) for c in "5 "] + [3] + [ord(c) for c in " 5\r\nHead"]
    raw = SimpleNamespace(FPDFText_GetUnicode=lambda handle, index: codes[index])
    text = "5  5\r\nHead"
    at = char_indices(raw, None, text, len(codes))
    assert [codes[at[i]] for i in range(len(text))] == [ord(c) for c in text]
    assert at[text.index("H")] == codes.index(ord("H"))
    assert char_indices(raw, None, "5 \x03 5", 5) == range(5)  # nothing left out: no look-up


def test_a_heading_in_small_capitals_is_a_heading() -> None:
    # WordPerfect's INTRODUCTION: a 14 pt capital, then capitals of 10 pt on the same baseline
    def small_caps(word: str, top: float) -> list[Spec]:
        return [(word[0], BOLD, 14, top), (word[1:], BOLD, 10, top + 4, MARGIN + 3.9)]

    text, _, _ = converted(
        [
            [*small_caps("INTRODUCTION", 72), *paragraph(), *paragraph()],
            [*small_caps("IMPLEMENTATION", 72), *paragraph(), *paragraph()],
        ]
    )
    assert heading_lines(text) == ["# INTRODUCTION", "# IMPLEMENTATION"]


def test_a_heading_whose_second_line_hangs_in_is_one_heading() -> None:
    text, _, _ = converted(
        [
            [
                ("Webcasting Amendments to the Performance Right in Sound", BOLD, 13, 72),
                ("Recordings", BOLD, 13, 88, MARGIN + 36),
                *paragraph(),
                *paragraph(),
            ],
            [("Remedies", BOLD, 13), *paragraph()],
        ]
    )
    assert heading_lines(text) == [
        "# Webcasting Amendments to the Performance Right in Sound Recordings",
        "# Remedies",
    ]


def test_a_bullet_item_that_ends_in_bold_words_is_not_a_heading() -> None:
    # a symbol font's bullet (read as "!") and a bold title at the end of a plain sentence
    item: list[Spec] = [
        ("!", BOLD, 10, 200),
        ("Title I, the", "Times-Roman", 10, 200, MARGIN + 20),
        ("Copyright Treaties Act", "Times-Bold", 10, 200, MARGIN + 80),
    ]
    text, _, _ = converted(
        [[("Scope", BOLD, 14, 72), *paragraph(), *item], [("Limits", BOLD, 14), *paragraph()]]
    )
    assert heading_lines(text) == ["# Scope", "# Limits"]


def test_a_heading_over_smaller_prose_is_a_heading_and_one_over_short_labels_is_not() -> None:
    references: list[Spec] = [
        (f"[{n}] A. Author, B. Writer, a paper on harbour silt, J. Tides {n} (2005) 1-9.", *SMALL)
        for n in range(1, 4)
    ]
    labels: list[Spec] = [("- geometry: GB_Curve", *SMALL), ("- name: String", *SMALL)]
    text, _, _ = converted(
        [
            [("Method", BOLD, 14), *paragraph(), ("Diagram", BOLD, 10), *labels, *paragraph()],
            [("Results", BOLD, 14), *paragraph(), ("References", BOLD, 10), *references],
        ]
    )
    assert heading_lines(text) == ["# Method", "# Results", "## References"]


def test_a_watermark_set_at_an_angle_is_neither_the_title_nor_a_heading() -> None:
    mark: Spec = ("CONFIDENTIAL", BOLD, 60, 500, 150, 45)
    text, title, _ = converted(
        [
            [("Scope", BOLD, 14), *paragraph(), *paragraph(), mark],
            [("Limits", BOLD, 14), *paragraph(), mark],
        ]
    )
    assert title is None or "CONFIDENTIAL" not in title
    assert heading_lines(text) == ["# Scope", "# Limits"]


def test_two_lines_in_the_title_type_that_do_not_run_on_are_a_title_and_a_heading() -> None:
    text, title, _ = converted(
        [[("Harbour Report", BOLD, 24), ("Tides", BOLD, 24), *paragraph(), *paragraph()]]
    )
    assert title == "Harbour Report"
    assert heading_lines(text) == ["# Tides"]


def test_a_tagged_pdf_gives_its_tagged_headings_even_one_set_in_the_body_type(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # LibreOffice's tagged PDF without bookmarks (scripts/make_format_fixtures.sh): its H3
    # "Tides and dredging windows" looks like a paragraph; only the structure tree says otherwise
    # pdf_to_markdown in this process: read_file would convert in a worker, beyond the patch
    data = fixture("tagged-report.pdf")
    tagged = heading_lines(pdf_to_markdown(data, Limits()).text)
    assert tagged == [
        "# Harbour Works",
        "## Silt in the channel",
        "### Tides and dredging windows",
        "## Lock gates",
    ]
    monkeypatch.setattr(
        "skills.formats.pdf.convert.tagged_headings", lambda pdf, pages, expired: {}
    )
    untagged = heading_lines(pdf_to_markdown(data, Limits()).text)
    assert "### Tides and dredging windows" not in untagged


def test_a_header_of_long_narrow_words_still_heads_its_table() -> None:
    # as wide as its characters (no gap by width alone), but beside rows of cells
    header: Spec = (
        "Measurement.Length.Sepal\tMeasurement.Width.Sepal\tSpecies.Of.The.Flower",
        *BODY,
    )
    rows = [(f"5.{n}\t3.{n}\tsetosa", *BODY) for n in range(4)]
    text, _, _ = converted([[*paragraph(), header, *rows, *paragraph()]])
    assert "| Measurement.Length.Sepal | Measurement.Width.Sepal | Species.Of.The.Flower |" in text
    assert "| 5.3 | 3.3 | setosa |" in text


def test_two_tables_one_under_the_other_are_two_tables() -> None:
    first = [("Code\tTeam", *BODY, 100.0 + 15 * n) for n in range(1)] + [
        (f"E{n}\tapi", *BODY, 115.0 + 15 * n) for n in range(3)
    ]
    second = [("Region\tZone\tRack", *BODY, 300.0)] + [
        (f"north\tz{n}\tr{n}", *BODY, 315.0 + 15 * n) for n in range(3)
    ]
    text, _, _ = converted([[*first, *second]])
    assert "| Code | Team |\n| --- | --- |\n| E0 | api |" in text
    assert "| Region | Zone | Rack |\n| --- | --- | --- |\n| north | z0 | r0 |" in text


def test_code_with_aligned_comments_is_not_a_table() -> None:
    code = [(f"mov eax{n}, ebx\t// load the value {n}", "Courier", 10.0) for n in range(4)]
    text, _, _ = converted([[*paragraph(), *code, *paragraph()]])
    assert "|" not in text and "// load the value 3" in text


def test_a_table_that_goes_on_over_a_page_break_keeps_its_header_there() -> None:
    header: Spec = ("Zone\tDepth\tSilt", *BODY)
    first = [(f"Z{n}\t{n}.5\t{n}0", *BODY) for n in range(3)]
    rest = [(f"{n}\t{n}.5\t{n}0", *BODY) for n in range(3, 6)]  # figures only: no header here
    text, _, _ = converted([[*paragraph(), header, *first], [*rest, *paragraph()]])
    before, after = text.split("<!-- PageBreak -->")
    assert "| Zone | Depth | Silt |\n| --- | --- | --- |\n| Z0 | 0.5 | 00 |" in before
    assert "| Zone | Depth | Silt |\n| --- | --- | --- |\n| 3 | 3.5 | 30 |" in after


def test_a_new_table_at_the_top_of_a_page_keeps_its_own_header() -> None:
    first = [("Zone\tDepth\tSilt", *BODY)] + [(f"Z{n}\t{n}.5\t{n}0", *BODY) for n in range(3)]
    second = [("Crew\tShift\tBoat", *BODY)] + [(f"C{n}\tday\tB{n}", *BODY) for n in range(3)]
    text, _, _ = converted([[*paragraph(), *first], [*second, *paragraph()]])
    assert "| Crew | Shift | Boat |\n| --- | --- | --- |\n| C0 | day | B0 |" in text


def test_a_note_in_brackets_an_address_block_and_a_page_label_are_not_headings() -> None:
    # the shapes of a two-page government form: too short for furniture to repeat
    address: list[Spec] = [
        ("Department of Harbour Works", "Helvetica", 12, 400, 200),
        ("Evidence Intake Centre", "Helvetica", 12, 414, 210),
        ("PO 4444-12", "Helvetica", 12, 428, 225),  # no heading by itself: mostly figures
        ("Janesville, WI 53547", "Helvetica", 12, 442, 215),
    ]
    text, _, _ = converted(
        [
            [
                ("Section I: Identification", BOLD, 12, 72),
                ("(Complete this section only if you are the claimant)", BOLD, 12),
                *paragraph(),
                *paragraph(),
                ("PAGE 1", BOLD, 12, 700),
            ],
            [("Section II: Election", BOLD, 12, 72), *paragraph(), *address],
        ]
    )
    assert heading_lines(text) == ["# Section I: Identification", "# Section II: Election"]


def test_a_title_that_runs_on_after_a_comma_is_one_title() -> None:
    text, title, _ = converted(
        [
            [
                ("INTENT TO FILE A CLAIM FOR COMPENSATION,", BOLD, 16),
                ("OR SURVIVORS PENSION", BOLD, 16),
                *paragraph(),
                *paragraph(),
            ]
        ]
    )
    assert title == "INTENT TO FILE A CLAIM FOR COMPENSATION, OR SURVIVORS PENSION"
    assert heading_lines(text) == []


def test_the_structure_tree_is_read_until_the_deadline_and_no_further() -> None:
    import pypdfium2 as pdfium

    from skills.formats.pdf.tags import tagged_headings

    pdf = pdfium.PdfDocument(fixture("tagged-report.pdf"))
    try:
        assert tagged_headings(pdf, len(pdf))[0][2] == (3, "Tides and dredging windows")
        assert tagged_headings(pdf, len(pdf), expired=lambda: True) == {}
    finally:
        pdf.close()


def test_a_bullet_item_that_wraps_under_a_hanging_indent_stays_one_paragraph() -> None:
    # the item's second line starts under its text, past the bullet: it goes on with the item;
    # a line back at the bullet's own margin after an item is a paragraph of its own
    item = (
        "• If the tide gauge reports a level above the quay's mark, the harbour office closes the"
    )
    text, _, _ = converted(
        [
            [
                (
                    "Harbour rules for the quay, read by the officer before every shift here.",
                    *BODY,
                    160,
                ),
                (item, "Times-Roman", 10, 200, MARGIN),
                (
                    "outer locks for the night and warns every berth.",
                    "Times-Roman",
                    10,
                    215,
                    MARGIN + 9,
                ),
                ("• Short item.", "Times-Roman", 10, 235, MARGIN),
                (
                    "Then the log is closed for the day by the officer on watch, as always.",
                    *BODY,
                    255,
                ),
            ]
        ]
    )
    assert "closes the\nouter locks for the night" in text
    assert "- Short item.\n\nThen the log is closed" in text
