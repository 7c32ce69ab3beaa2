"""Rules from held-out round 25 (issue 30, tenth pass): PDFs made by Microsoft Word (its own
export, Print To PDF, PDFMaker), from public GitHub repositories, in eight languages. Each test
fails with its rule taken out."""

from __future__ import annotations

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
