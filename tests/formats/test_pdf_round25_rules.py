"""Rules from held-out round 25 (issue 30, tenth pass): PDFs made by Microsoft Word (its own
export, Print To PDF, PDFMaker), from public GitHub repositories, in eight languages. Each test
fails with its rule taken out."""

from __future__ import annotations

import pytest
from pdf_maker import Prose, Spec, headings

BODY = ("Times-Roman", 11.0)
BOLD = "Times-Bold"
_PROSE = Prose(("ojj", "uqq", "ixx"), BODY)
paragraph = _PROSE.paragraph


def test_a_paragraph_mark_alone_on_its_line_heads_its_article() -> None:
    # a Polish university's study regulations (Word 2013): chapters in bold 13 pt, each
    # article a bold '§ 1' alone and centred over its clauses, 36 of them read as prose
    def page(*parts: str) -> list[Spec]:
        lines: list[Spec] = []
        top = 72.0
        for part in parts:
            if part.startswith("§"):
                lines += [(part, BOLD, 11, top, 290), *paragraph(top + 22)]
                top += 100
            else:
                lines.append((part, BOLD, 13, top))
                top += 30
        return lines

    pages = [
        page("1. General provisions", "§ 1", "§ 2"),
        page("§ 3", "2. Rights and duties", "§ 5", "§ 6"),
    ]
    assert headings(pages, isolated=False) == [
        "# 1. General provisions", "## § 1", "## § 2", "## § 3",
        "# 2. Rights and duties", "## § 5", "## § 6",
    ]  # fmt: skip


def test_the_lines_above_a_contents_list_on_the_first_page_are_its_cover() -> None:
    # the same regulations open on one page with the school's name and 'REGULAMIN STUDIÓW' in
    # the chapters' own bold 13 pt, then 'Spis treści' and the first chapter: the cover's two
    # lines were read as the document's first sections
    chapters = ["1. General provisions", "2. Rights and duties", "3. Organisation"]
    first: list[Spec] = [
        ("An annex to the Senate's resolution of 29 May 2019", "Times-Italic", 10, 50, 300),
        ("POLISH-JAPANESE ACADEMY OF COMPUTER TECHNOLOGY", BOLD, 13, 80, 150),
        ("STUDY REGULATIONS", BOLD, 13, 108, 230),
        ("CONSOLIDATED TEXT", BOLD, 12, 136, 240),
        ("Contents", BOLD, 13, 170, 270),
    ]
    first += [(f"{chapter} {'.' * 60}", *BODY, 196 + 20 * n) for n, chapter in enumerate(chapters)]
    first += [(str(1 + 2 * n), *BODY, 196 + 20 * n, 520) for n in range(len(chapters))]
    first += [(chapters[0], BOLD, 13, 270, 250), *paragraph(300)]
    later = [[*paragraph(), (chapter, BOLD, 13), *paragraph()] for chapter in chapters[1:]]
    found = headings([first, *later], isolated=False)
    assert found == ["# Contents", *(f"# {chapter}" for chapter in chapters)]


@pytest.mark.parametrize("title", ["Tabla de contenido", "Sommario", "DAFTAR ISI", "Inhoudstafel"])
def test_words_contents_titles_in_other_languages_open_a_contents_list(title: str) -> None:
    # Word titles its contents list in the document's language: the Spanish manual's 'Tabla de
    # contenido', the Italian report's 'Sommario', the Indonesian report's 'DAFTAR ISI', the
    # Flemish manual's 'Inhoudstafel'; the Indonesian sections the list names ('3.1 Tahapan
    # Persiapan', its number in the body's regular type) were missed with the list unread
    names = ["Preparation Stage", "Implementation Stage", "Evaluation Stage", "Closing Remarks"]
    entries = [(f"{name} {'.' * 40} {n + 3}", *BODY, 100 + 15 * n) for n, name in enumerate(names)]
    pages: list[list[Spec]] = [
        [("Final Report of the Programme", BOLD, 20), *paragraph(120)],
        [(title, BOLD, 13, 72), *entries],
        *([(name, *BODY, 72, 250), *paragraph(100), *paragraph(200)] for name in names),
    ]
    assert headings(pages, isolated=False) == [f"# {title}", *(f"## {name}" for name in names)]


def test_words_captions_in_other_languages_are_no_headings() -> None:
    # Word's Insert Caption writes its label in the document's language: the Indonesian
    # report's bold 'Tabel 1. Capaian Target Luaran' and 'Gambar 5.Fitur video tutorial', at the
    # body's size over their table or figure, read as four headings ('Table 1' never was)
    pages = [
        [("BAB 4. HASIL YANG DICAPAI", BOLD, 11), *paragraph(),
         ("Tabel 1. Capaian Target Luaran", BOLD, 11), *paragraph(),
         ("Gambar 2. Flowchart Kegiatan", BOLD, 11), *paragraph()],
        [("BAB 5. PENUTUP", BOLD, 11), *paragraph(),
         ("Tabla 3. Resultados del sistema", BOLD, 11), *paragraph()],
    ]  # fmt: skip
    assert headings(pages, isolated=False) == ["# BAB 4. HASIL YANG DICAPAI", "# BAB 5. PENUTUP"]
