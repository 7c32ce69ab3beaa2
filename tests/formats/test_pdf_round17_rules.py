"""The rules held-out round 17 asked for (docs/formats.md): office suites and templates no truth
file had before (Word 2010's own export of a user guide: bold body paragraphs, wrapped steps, a
cover after a notice page), read from their typography alone. Each test fails with its rule
taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, headings, make_pdf

from skills.formats.read import read_file

BODY = ("Times-Roman", 10.0)
_PROSE = Prose(("qv", "wz", "xj", "kq", "zv"), BODY)
paragraph = _PROSE.paragraph


def _guide(*middle: Spec) -> list[list[Spec]]:
    """A two-page guide: a title, a bold step heading over text, the lines under test over text,
    a second step heading over text."""
    return [
        [
            ("Family Registration Guide", "Helvetica-Bold", 20, 72),
            *paragraph(110),
            ("Step 1: Open the district portal", "Helvetica-Bold", 14, 190),
            *paragraph(215),
            *middle,
            *paragraph(400),
        ],
        [("Step 2: Fill in the family form", "Helvetica-Bold", 14, 72), *paragraph(100)],
    ]


def test_a_bold_paragraph_of_two_sentences_is_no_heading() -> None:
    # Word 2010's guide sets its instructions in bold body type: "Todos os campos com asterisco
    # vermelho (*) são obrigatórios. Observe que existem três (3) guias, ..." over two lines,
    # then a picture: one heading of two sentences
    bold = "Helvetica-Bold"
    pages = _guide(
        ("All fields with a star are required. Note that there are three", bold, 10, 320),
        ("tabs whose fields must all be filled in", bold, 10, 334),
    )
    assert headings(pages) == [
        "# Step 1: Open the district portal", "# Step 2: Fill in the family form",
    ]  # fmt: skip


def test_a_bold_exclamation_in_the_body_size_is_no_heading() -> None:
    # Word 2010's guide: "Neste ponto, seu aplicativo de Registro de Aluno está completo!" in
    # bold body type over the text that follows it
    line = ("At this point your registration form is complete!", "Helvetica-Bold", 10, 320)
    assert headings(_guide(line)) == [
        "# Step 1: Open the district portal", "# Step 2: Fill in the family form",
    ]  # fmt: skip


def test_an_exclamation_set_larger_is_a_heading() -> None:
    line = ("Feedback welcome!", "Helvetica-Bold", 14, 320)
    assert headings(_guide(line)) == [
        "# Step 1: Open the district portal", "# Feedback welcome!",
        "# Step 2: Fill in the family form",
    ]  # fmt: skip


def test_a_bold_sentence_cut_after_a_joining_word_is_no_heading() -> None:
    # Word 2010's guide: "2.Especifique se você está matriculando um novo aluno do pré-escolar /
    # jardim de" over "infância ou um aluno da 1ª à 12ª série:", both in bold body type
    bold = "Helvetica-Bold"
    pages = _guide(
        ("Please say whether you are enrolling a new pupil in the nursery of", bold, 10, 320),
        ("the school or a pupil in years one to twelve:", bold, 10, 334),
    )
    assert headings(pages) == [
        "# Step 1: Open the district portal", "# Step 2: Fill in the family form",
    ]  # fmt: skip


def test_a_wrapped_heading_ending_in_a_bracketed_note_keeps_it() -> None:
    # Word 2010's guide wraps "Etapa 3: Preencher o formulário de inventário de triagem
    # inicial" / "(condicional)": the note alone is no heading, so the heading lost its end
    bold = "Helvetica-Bold"
    pages = _guide(
        ("Step 3: Fill in the early screening inventory form for the pupil's", bold, 14, 320),
        ("first year at school (optional)", bold, 14, 337),
    )
    long = "Step 3: Fill in the early screening inventory form for the pupil's first year at"
    assert headings(pages)[1] == f"# {long} school (optional)"
    pages = _guide(
        ("Step 3: Fill in the early screening inventory form for the pupil who is", bold, 14, 320),
        ("(optional)", bold, 14, 337),
    )
    long = "Step 3: Fill in the early screening inventory form for the pupil who is"
    assert headings(pages)[1] == f"# {long} (optional)"


def test_a_cover_after_a_notice_page_gives_no_headings() -> None:
    # Word 2010's guide opens with a notice page, then a cover of seven display lines from 32 to
    # 40 pt and no text: its address ("27 Lowell Street" / "Peabody, MA 01960") was a heading
    bold = "Helvetica-Bold"
    notice = [("Please read:", bold, 20, 72), *paragraph(110), *paragraph(190)]
    cover = [
        ("Riverside Public Schools", bold, 36, 120), ("User guide for", bold, 32, 250),
        ("families and pupils", bold, 32, 290), ("27 Lowell Street", bold, 28, 560),
        ("Riverside, MA 01960", bold, 28, 610),
    ]  # fmt: skip
    assert headings([notice, cover, *_guide()]) == [
        "# Family Registration Guide", "## Step 1: Open the district portal",
        "## Step 2: Fill in the family form",
    ]  # fmt: skip


def test_samples_in_another_script_than_the_prose_are_no_headings() -> None:
    # SIL's font guides (LibreOffice 6.3 and 7.0) show their script's samples set large in
    # their prose in English: Miao and Nastaliq lines were headings, and a page of them was
    # "crowded" (a form), which took its real heading, "Introduction", with them
    greek = [("Αλφα Βητα Ζητα Θητα", "Symbol", 16, 230 + 60 * n) for n in range(9)]
    pages = [
        [("Introduction", "Helvetica-Bold", 16, 72), *paragraph(100)]
        + [line for sample in greek for line in (sample, *paragraph(sample[3] + 22)[:2])],
        [("Installation", "Helvetica-Bold", 16, 72), *paragraph(100)],
    ]
    assert headings(pages) == ["# Introduction", "# Installation"]


def test_a_turned_first_pages_title_is_the_title() -> None:
    # SIL's feature tables are printed through PScript5 on landscape pages that PDFium reads
    # turned: every line "at an angle", so the first page had no upright line to be the title
    # ("Font Features for Andika New Basic", 16 pt bold over 11 pt text)
    def turned(spec: Spec) -> Spec:
        top = spec[3] if len(spec) >= 4 else 72.0  # (every line here has its top)
        return (spec[0], spec[1], spec[2], 540 - 72, top, 90.0)

    first: list[Spec] = [
        ("Font Features for Widget Sans", "Helvetica-Bold", 16, 72),
        *paragraph(100),
    ]
    pages = [[turned(line) for line in first], [turned(line) for line in paragraph(72)]]
    assert read_file(make_pdf(pages), "features.pdf").title == "Font Features for Widget Sans"


def test_a_bold_term_over_its_definition_set_in_as_a_block_is_no_heading() -> None:
    # Rust for Rustaceans (round 15) lists "Feature options", "Context options"... in bold body
    # type over their definitions, every line of which is set in by 1.7 ems: a definition list
    # (a paragraph's first line is set in as far, but its next line goes back to the margin)
    bold, roman = "Helvetica-Bold", "Times-Roman"

    def term(name: str, top: float) -> list[Spec]:
        word = _PROSE.word()
        return [
            (name, bold, 10, top),
            (f"These {word} options are set in under their term.", roman, 10, top + 14, 89),
            (f"Their second {word} line starts where the first one does.", roman, 10, top + 28, 89),
            (f"So does the third {word} line of the definition.", roman, 10, top + 42, 89),
        ]

    word = _PROSE.word()
    indented: list[Spec] = [
        (f"The {word} paragraph's first line is set in.", roman, 10, 560, 89),
        (f"Its second {word} line goes back to the margin.", roman, 10, 574),
    ]
    first: list[Spec] = [
        ("Conditional compilation", bold, 14, 72), *paragraph(100),
        *term("Feature options", 180), *term("Context options", 260), *term("Tool options", 340),
        ("Compiler flags", bold, 10, 540), *indented, *paragraph(600),
    ]  # fmt: skip
    pages = [first, [("Testing", bold, 14, 72), *paragraph(100)]]
    assert headings(pages) == ["# Conditional compilation", "## Compiler flags", "# Testing"]


def test_a_cover_line_in_another_script_than_the_prose_is_no_title() -> None:
    # SIL's Shimenkan guide (LibreOffice 6.3) names its fonts in Miao over "Shimenkan Fonts",
    # both 32 pt, then "User Guide": the Miao line was the title of a guide written in English
    cover: list[Spec] = [
        ("Αλφα Βητα Ζητα", "Symbol", 28, 150), ("Widget Fonts", "Helvetica-Bold", 28, 200),
        ("User Guide", "Helvetica", 20, 250),
    ]  # fmt: skip
    pages = [cover, [("Introduction", "Helvetica-Bold", 16, 72), *paragraph(100)]]
    assert read_file(make_pdf(pages), "guide.pdf").title == "Widget Fonts"


def test_samples_in_another_script_outsize_no_title() -> None:
    # SIL's Awami Nastaliq features (LibreOffice 7.0): the 16 pt title "Font Features for Awami
    # Nastaliq" was no title because the later pages' Nastaliq samples are set at 18 pt
    samples = [("Αλφα Βητα Ζητα", "Symbol", 18, 200 + 60 * n, 300) for n in range(3)]
    pages = [
        [("Font Features for Widget", "Helvetica-Bold", 16, 72), *paragraph(100)],
        [*paragraph(72), *samples, *paragraph(400)],
    ]
    assert read_file(make_pdf(pages), "features.pdf").title == "Font Features for Widget"


def test_a_tables_small_cells_that_outweigh_the_prose_do_not_set_the_body() -> None:
    # SIL's feature tables (Word through PScript5; LibreOffice 7.1): 6 pt notes in short cells
    # outweigh the 11 pt paragraphs, so the body read 6 pt and each row's 9 pt bold feature
    # name ("Small i-tail alternate") was "larger": a heading
    prose = Prose(("vq", "zx", "jw", "qz", "xv"), ("Times-Roman", 11.0))
    first: list[Spec] = [("Font Features for Widget", "Helvetica-Bold", 16, 72)]
    first += [line for n in range(3) for line in prose.paragraph(100 + 80 * n)]

    def rows(start: int) -> list[Spec]:
        found: list[Spec] = []
        for n in range(6):
            top = 72 + 90 * n
            found.append((f"Feature {start + n} alternate", "Helvetica-Bold", 9, top))
            found += [
                (f"note {prose.word()} cell {k}", "Helvetica", 6, top + 12 + 8 * k, 300)
                for k in range(6)
            ]
        return found

    pages = [first, rows(1), rows(11), rows(21)]
    assert headings(pages) == []
