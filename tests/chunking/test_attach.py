"""Lines that never make a piece alone attach one way, recorded once in the outline
(``outline.Attach``) and obeyed by the packer at every cut: a heading or a label leads into the
piece after it, a line with nothing to read trails the piece before it."""

from __future__ import annotations

from skills.chunking import ChunkOptions, Strategy, chunk_document
from skills.chunking.markup.markdown import parse_markdown
from skills.chunking.outline import Attach

PARAGRAPH = "Filters narrow the queryset with the parameters of the request, one by one. " * 4


def test_headings_and_labels_lead_in_and_bare_lines_trail() -> None:
    source = (
        "# Guide\n\nSome text.\n\n* **HTTPS**\n  * certificates\n\n---\n\n"
        '<a id="next"></a>\n\nMore text.\n'
    )
    outline = parse_markdown(source)

    def attach(line: str) -> Attach | None:
        found = outline.attached_line(source.index(line))
        return None if found is None else found[1]

    assert attach("# Guide") is Attach.NEXT
    assert attach("* **HTTPS**") is Attach.NEXT
    assert attach("---") is Attach.PREVIOUS
    assert attach('<a id="next">') is Attach.PREVIOUS
    assert attach("Some text.") is None
    assert attach("  * certificates") is None


def test_a_cut_between_a_trailing_and_a_leading_line_falls_between_them() -> None:
    # "---" then "## Ordering": one cut separates the two paragraphs, and each line stays on
    # its side of it, whatever the levels of the cuts around them.
    source = f"{PARAGRAPH}\n\n---\n\n## Ordering\n\n{PARAGRAPH}\n"
    result = chunk_document(
        source, options=ChunkOptions(strategy=Strategy.STRUCTURAL, child_max_tokens=80)
    )
    texts = [chunk.text for chunk in result.leaves]
    assert len(texts) == 2
    assert texts[0].rstrip().endswith("---")
    assert texts[1].startswith("## Ordering")
