"""The rules held-out round 21 asked for (docs/formats.md): PDFs from public repositories by
producers no truth file had before (Typst, ONLYOFFICE, Keynote, PowerPoint for Mac, PDFium,
Deckset, Google Slides, WPS Office, InDesign CC), read from their typography alone. Each test
fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, headings

BODY = ("Times-Roman", 11.0)
BOLD = "Helvetica-Bold"
_PROSE = Prose(("qy", "xw", "vz", "jq", "wk"), BODY)
paragraph = _PROSE.paragraph


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
