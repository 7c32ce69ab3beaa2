"""Rules for known misses that are classes (issue 30, ninth pass): headings a bilingual handbook
sets side by side in two columns, underlined in the body's type or in a one-row banner; titles a
document sets in its headings' own type or names by a template's placeholder; contents lists and
labels read as headings. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, heading_lines, make_pdf

from skills.formats.read import read_file

BODY = ("Helvetica", 10.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("ezz", "iqq", "oww"), BODY)

_LEFT, _RIGHT = 40.0, 310.0  # the two columns' left edges (a US letter page 612 pt wide)


def _column_section(title: str, top: float, left: float) -> list[Spec]:
    """A bold section title over three short lines of prose, all inside one column."""
    word = _PROSE.word()
    lines = [
        f"The {word} rule applies to staff who",
        f"work at {word} sites in every state,",
        f"as the {word} office sets it out.",
    ]
    return [(title, BOLD, 10.0, top, left)] + [
        (line, *BODY, top + 13 * (n + 1), left) for n, line in enumerate(lines)
    ]


def test_a_page_in_two_columns_may_hold_twice_a_pages_headings() -> None:
    # the bilingual handbook (Word for Microsoft 365) sets each section in English and Spanish
    # side by side: a page of five short sections a column has ten bold titles, more than the
    # eight a page of labels is refused at (a form's fields), and all ten were dropped (18 of the
    # handbook's section titles)
    english = ("Payroll Rules", "Social Insurance", "Jobless Insurance", "Wage Orders", "Care Act")
    spanish = ("Reglas de pago", "Seguro social", "Seguro de paro", "Embargo", "Ley de salud")
    page: list[Spec] = []
    for n, (left_title, right_title) in enumerate(zip(english, spanish, strict=True)):
        top = 72 + 70 * n
        page += _column_section(left_title, top, _LEFT) + _column_section(right_title, top, _RIGHT)
    found = heading_lines(read_file(make_pdf([page]), "handbook.pdf").text)
    assert sorted(found) == sorted(f"# {title}" for title in english + spanish)


def test_a_page_of_one_column_with_a_dozen_bold_labels_is_still_crowded() -> None:
    # the limit stands where the page is one column: ten bold one-line labels, each over two
    # short lines, are a form's or a glossary's entries
    page: list[Spec] = []
    for n in range(10):
        page += _column_section(f"Entry Name {chr(65 + n)}", 72 + 66 * n, _LEFT)[:3]
    assert heading_lines(read_file(make_pdf([page]), "form.pdf").text) == []

