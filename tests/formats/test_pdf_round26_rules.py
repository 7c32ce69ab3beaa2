"""The rules held-out round 26 asked for (docs/formats.md): PDFs from public repositories by the
producers the truth files held least of (Google Docs, browsers' print, LibreOffice Writer
without bookmarks, LaTeX through dvips and Ghostscript, ONLYOFFICE). Each test fails with its
rule taken out."""

from __future__ import annotations

from dataclasses import replace

from pdf_maker import Prose, Spec, headings, make_pdf

from skills.formats.pdf.lines import Page, accented, read_page, regular_by_name, trusted_weights
from skills.formats.read import read_file

BODY = ("Times-Roman", 10.5)
BOLD = "Times-Bold"
_PROSE = Prose(("yv", "uq", "oj", "ix", "ew"), BODY)
paragraph = _PROSE.paragraph


def test_computer_modern_faces_of_regular_weight_are_regular_by_name() -> None:
    # Ghostscript 9.10 reports CMR10 at weight 736 and CMBX10 at 764 (a LaTeX file through
    # dvips): only Knuth's names tell the roman from the bold
    assert all(map(regular_by_name, ["CMR10", "ABCDEF+CMR12", "CMTI10", "CMSL10", "CMTT10"]))
    assert all(map(regular_by_name, ["CMSS10", "CMCSC10", "CMMI10"]))
    assert not any(map(regular_by_name, ["CMBX10", "ABCDEF+CMBX12", "CMSSBX10", "CMMIB10"]))


def _read(pages: list[list[Spec]]) -> list[Page]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(make_pdf(pages))
    try:
        return [read_page(pdf[n], n) for n in range(len(pdf))]
    finally:
        pdf.close()


def _as_ghostscript_cm(page: Page) -> Page:
    """The page as Ghostscript 9.10 reports a LaTeX file's fonts: every face bold by weight,
    the roman named ``CMR10`` and the bold ``CMBX10``."""
    lines = tuple(
        replace(
            line,
            weight=764 if line.bold else 736,
            named_regular=regular_by_name("CMBX10" if line.bold else "CMR10"),
            named_bold=line.bold,
            bold=True,
        )
        for line in page.lines
    )
    return replace(page, lines=lines)


def test_a_latex_file_whose_every_face_reports_bold_reads_its_bold_by_the_fonts_names() -> None:
    # the body and the exercises' titles all read bold by weight: none stood out, and the
    # file's nine exercises were no headings
    pages = [_as_ghostscript_cm(page) for page in _read([
        [("Exercice 1 - Lecture des fichiers", BOLD, 10.5), *paragraph(), *paragraph()],
    ])]  # fmt: skip
    read = trusted_weights(pages)
    bold = {line.text: line.bold for line in read[0].lines}
    assert bold["Exercice 1 - Lecture des fichiers"]
    assert not any(flag for text, flag in bold.items() if text.startswith(("The ", "It ", "A ")))


def test_tex_grave_accents_and_dotless_i_go_back_on_their_letters() -> None:
    # OT1 (LaTeX without fontenc) draws an accented letter as a spacing accent over it: the
    # grave is the backquote, an accented i the dotless i
    assert accented("Premi`ere partie, Deuxi`eme, c’est-`a-dire, 9`eme") == (
        "Première partie, Deuxième, c’est-à-dire, 9ème"
    )
    assert accented("Liste de Chaˆınes, `a rendre") == "Liste de Chaînes, à rendre"


def test_a_backquote_in_code_stays() -> None:
    # the guard: a backquote that opens a quoted word, or stands after a space before more
    # than one letter, is no accent
    assert accented("run `ls` or `a` then `abc") == "run `ls` or `a` then `abc"


def test_the_converted_text_reads_a_heading_with_a_tex_grave_accent_as_its_words() -> None:
    pages = [[("Un guide", BOLD, 24), *paragraph(), ("Premi`ere partie", BOLD, 16), *paragraph(),
              ("Le rendu `a tous.", *BODY)]]  # fmt: skip
    text = read_file(make_pdf(pages), "document.pdf", isolated=False).text
    assert "# Première partie" in text
    assert "Le rendu à tous." in text


def _numbered(label: str, text: str, base: float, sizes: tuple[float, float]) -> list[Spec]:
    """A numbered heading whose list label is set in another size than its text, on one
    baseline ``base`` points from the top: Google Docs' and LibreOffice's list numbering."""
    label_size, text_size = sizes
    return [
        (label, HEADING, label_size, base - label_size, 72),
        (text, HEADING, text_size, base - text_size, 72 + 3 * label_size),
    ]


HEADING = "Helvetica"


def test_a_numbered_headings_type_is_read_at_its_text_past_a_label_set_apart() -> None:
    # "4." at 16 pt before "Normalización" at 18.7 pt: read at the label, the line was two
    # types (not uniform) and no heading
    pages = [
        [("Un informe de datos", HEADING, 30, 72), *paragraph(130),
         *_numbered("1.", "Introduccion del estudio", 240, (16, 18.7)), *paragraph(260),
         *_numbered("2.", "Normalizacion de variables", 360, (16, 18.7)), *paragraph(380)],
    ]  # fmt: skip
    found = [line.lstrip("# ") for line in headings(pages)]
    assert found == ["1. Introduccion del estudio", "2. Normalizacion de variables"]


def test_a_plain_label_before_a_bold_run_in_term_is_still_a_list_item() -> None:
    # the guard: a label of another weight than its text is not read past (the DMCA summary's
    # plain "1." before its bold italic term, a list item and no heading)
    pages = [
        [("Un informe de datos", HEADING, 30, 72), *paragraph(130),
         ("1.", *BODY, 240, 72), ("Nonprofit library exception", BOLD, 10.5, 240, 100),
         *paragraph(260)],
    ]  # fmt: skip
    assert headings(pages) == []


def _section(number: str, top: float) -> list[Spec]:
    """A short section: a 14 pt bold numbered heading over two lines of prose."""
    word = _PROSE.word()
    return [
        (f"{number} Handling the {word} queue", BOLD, 14, top),
        (f"Open the {word} page, check each entry against the bill and post it.", *BODY, top + 22),
        (f"Entries that do not add up are flagged for {word} review.", *BODY, top + 36),
    ]


def test_a_page_of_ten_short_sections_over_prose_keeps_its_headings() -> None:
    # more than eight headings on a page read as a form's labels, and all ten were dropped;
    # each stands over a paragraph of the body's prose
    numbers = [f"4.{n}" for n in range(1, 11)]
    pages = [
        [("Operating procedures", BOLD, 24, 72), *paragraph(120), *paragraph(190)],
        [item for n, number in enumerate(numbers) for item in _section(number, 60 + 68 * n)],
    ]
    assert [line.split(" Handling")[0].lstrip("# ") for line in headings(pages)] == numbers


def test_a_page_of_ten_bold_labels_over_values_stays_a_form() -> None:
    # the guard: labels over short values (a form's fields), not over prose, are no headings
    form: list[Spec] = []
    for n in range(10):
        form += [(f"Field number {n}", BOLD, 14, 60 + 68 * n), (f"Value {n}", *BODY, 82 + 68 * n)]
    pages = [[("Application form", BOLD, 24, 72), *paragraph(120), *paragraph(190)], form]
    assert headings(pages) == []
