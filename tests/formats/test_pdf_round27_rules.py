"""Rules from held-out round 27 (issue 30, tenth pass): PDFs made by Microsoft Word (Word for
Mac, Print To PDF, Word 2013, Word for Microsoft 365), from public GitHub repositories, in
Finnish, Swedish and Czech. Each test fails with its rule taken out."""

from __future__ import annotations

from pdf_maker import Prose, Spec, headings

BODY = ("Times-Roman", 11.0)
BOLD = "Times-Bold"
_PROSE = Prose(("eyy", "awz", "ohq"), BODY)


def _requirements(indent: float) -> list[Spec]:
    """A section head in bold 13 pt over eight bold body-size requirement heads, each over a
    two-line description set ``indent`` points in from the head's left edge."""
    lines: list[Spec] = [("1.2 Business requirements", BOLD, 13, 72.0)]
    top = 100.0
    for n in range(1, 9):
        word = _PROSE.word()
        lines += [
            (f"BR{n}: The {word} goal", BOLD, 11, top),
            (f"The system must keep the {word} goal in view for every salon.", *BODY, top + 15,
             72 + indent),
            (f"The {word} goal is what the owner asked for.", *BODY, top + 30, 72 + indent),
        ]  # fmt: skip
        top += 55
    return lines


def test_bold_heads_each_over_a_paragraph_head_sections_however_many_crowd_a_page() -> None:
    # a Czech year project's specification (Word for Microsoft 365): 'BR1: Optimalizace
    # časových slotů' ... 'BR7: ...' and 'FR1: ...' in bold 12 pt over their one- or two-line
    # descriptions, ten headings on the page with '1.2' and '1.3': all eight were dropped as a
    # crowded page's form labels
    later = [("1.3 Functional requirements", BOLD, 13), *_PROSE.paragraph()]
    found = headings([_requirements(0), later], isolated=False)
    assert [heading.split(" The ")[0] for heading in found] == [
        "# 1.2 Business requirements",
        *(f"## BR{n}:" for n in range(1, 9)),
        "# 1.3 Functional requirements",
    ]


def test_bold_entry_names_over_text_set_in_under_them_stay_a_crowded_pages_labels() -> None:
    # a manual's entry names over their definitions, set in by two ems: no sections
    later = [("1.3 Functional requirements", BOLD, 13), *_PROSE.paragraph()]
    found = headings([_requirements(22), later], isolated=False)
    texts = [heading.lstrip("#").strip() for heading in found]
    assert texts == ["1.2 Business requirements", "1.3 Functional requirements"]
