"""Children sized by the text they hold: running prose may take longer leaves than a list item,
a table row or a line of code (``proseChildMaxTokens``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from skills.chunking import ChunkOptions, chunk_document
from skills.chunking.markup.markdown import parse_markdown

SENTENCE = "The committee met again in the spring and agreed on the budget for the year. "
STORY = "# Story\n\n" + "\n\n".join(SENTENCE * 4 for _ in range(5)) + "\n\n"
STEPS = "# Steps\n\n" + "".join(f"- Step {i}: {SENTENCE}\n" for i in range(20)) + "\n"
CODE = "# Code\n\n```python\n" + "".join(f"x{i} = {i}  # {SENTENCE}\n" for i in range(8)) + "```\n"
DOCUMENT = STORY + STEPS + CODE

SMALL = {"parent_max_tokens": 512, "child_max_tokens": 64, "child_overlap_tokens": 0}


def leaf_tokens_by_section(options: ChunkOptions) -> dict[str, list[int]]:
    result = chunk_document(DOCUMENT, document_key="d.md", options=options)
    sizes: dict[str, list[int]] = {}
    for leaf in result.leaves:
        sizes.setdefault(leaf.headings[0], []).append(leaf.tokens)
    return sizes


def test_a_parent_of_running_prose_takes_children_up_to_the_prose_budget() -> None:
    plain = leaf_tokens_by_section(ChunkOptions(**SMALL))
    sized = leaf_tokens_by_section(ChunkOptions(**SMALL, prose_child_max_tokens=192))
    assert max(plain["Story"]) <= 64 < max(sized["Story"]) <= 192
    assert len(sized["Story"]) < len(plain["Story"])


def test_a_list_or_code_keeps_the_child_budget() -> None:
    plain = leaf_tokens_by_section(ChunkOptions(**SMALL))
    sized = leaf_tokens_by_section(ChunkOptions(**SMALL, prose_child_max_tokens=192))
    assert sized["Steps"] == plain["Steps"] and sized["Code"] == plain["Code"]
    assert max(sized["Steps"] + sized["Code"]) <= 64


def test_prose_is_paragraphs_and_headings_only() -> None:
    outline = parse_markdown(DOCUMENT)
    story, steps, code = len(STORY), len(STORY) + len(STEPS), len(DOCUMENT)
    assert outline.is_prose(0, story)
    assert not outline.is_prose(story, steps)  # list items
    assert not outline.is_prose(steps, code)  # a code block


def test_the_prose_budget_lies_between_the_child_and_the_parent_budgets() -> None:
    with pytest.raises(ValidationError, match="proseChildMaxTokens"):
        ChunkOptions(child_max_tokens=160, prose_child_max_tokens=128)
    with pytest.raises(ValidationError, match="proseChildMaxTokens"):
        ChunkOptions(parent_max_tokens=512, prose_child_max_tokens=640)
    assert ChunkOptions.model_validate({"proseChildMaxTokens": 256}).prose_leaf_budget == 256
    assert ChunkOptions().prose_leaf_budget == ChunkOptions().leaf_budget
