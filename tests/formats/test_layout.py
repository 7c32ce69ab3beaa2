"""Document Layout's sections back into one document: order, headings where the path changes,
pages where the output gives them (shape: cognitive-search-skill-document-intelligence-layout)."""

from __future__ import annotations

from typing import Any

import pytest

from skills.chunking import ChunkOptions, chunk_document
from skills.formats.conversion import ConversionError
from skills.formats.layout import layout_to_markdown


def section(content: str, ordinal: int, page: int | None = None, **headings: str) -> dict[str, Any]:
    item = {"content": content, "sections": headings, "ordinal_position": ordinal}
    if page is not None:
        item["locationMetadata"] = {"pageNumber": page, "ordinalPosition": ordinal}
    return item


def test_sections_are_put_back_in_ordinal_order_with_each_heading_once() -> None:
    markdown = layout_to_markdown(
        [
            section("Second.", 1, h1="Guide", h2="Use"),
            section("First.", 0, h1="Guide", h2="Install"),
            section("Third.", 2, h1="Guide", h2="Use", h3="Options"),
        ]
    ).text
    assert (
        markdown
        == "# Guide\n\n## Install\n\nFirst.\n\n## Use\n\nSecond.\n\n### Options\n\nThird.\n"
    )


def test_page_numbers_of_the_sections_become_page_markers_the_chunks_carry() -> None:
    long = "A sentence about the lease terms. " * 40
    markdown = layout_to_markdown(
        [
            section(long, 0, 1, h1="Lease", h2="Term"),
            section(long, 1, 3, h1="Lease", h2="Payments"),
        ]
    ).text
    assert markdown.count("<!-- PageBreak -->") == 2  # page 1, then page 3
    result = chunk_document(markdown, format="markdown", options=ChunkOptions())
    payments = [leaf for leaf in result.leaves if leaf.headings[-1:] == ("Payments",)]
    assert payments and all(leaf.pages == (3,) for leaf in payments)


def test_page_breaks_inside_the_content_are_kept_as_they_are() -> None:
    markdown = layout_to_markdown([section("One.\n\n<!-- PageBreak -->\n\nTwo.", 0, h1="Doc")]).text
    assert "One.\n\n<!-- PageBreak -->\n\nTwo." in markdown


@pytest.mark.parametrize("body", [{"content": "x"}, ["text"], [{"content": 3}]])
def test_another_shape_is_a_clear_error(body: object) -> None:
    with pytest.raises(ConversionError, match="markdown_document"):
        layout_to_markdown(body)
