"""Room for a context note: leaves leave ``noteTokens`` free, and a note fits the cap after the
heading path without touching the chunk's text or offsets."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from skills.chunking import ChunkOptions, chunk_document, count_tokens, with_note

DOC = "# Guide\n\n## Install\n\n" + " ".join(f"Step {n} copies the files." for n in range(60))
NOTE = "This part of the guide lists the install steps that come before configuration."


def test_leaves_keep_the_note_room_free() -> None:
    options = ChunkOptions(child_max_tokens=128, note_tokens=32)
    result = chunk_document(DOC, document_key="g.md", options=options)
    assert max(leaf.tokens for leaf in result.leaves) <= 96
    assert max(leaf.tokens for leaf in result.leaves) > 64  # packed to the budget, not far below


def test_a_note_goes_after_the_heading_path_within_the_cap() -> None:
    options = ChunkOptions(child_max_tokens=128, note_tokens=32)
    leaf = chunk_document(DOC, document_key="g.md", options=options).leaves[1]
    noted = with_note(leaf, NOTE, 128)
    assert noted.embed_text == "Guide > Install\n\n" + NOTE + "\n\n" + leaf.text
    assert noted.tokens == count_tokens(noted.embed_text) <= 128
    assert (noted.start, noted.end, noted.text) == (leaf.start, leaf.end, leaf.text)
    assert (noted.note, leaf.note) == (NOTE, "")


def test_a_note_too_long_is_cut_at_a_word() -> None:
    leaf = chunk_document(DOC, document_key="g.md").leaves[0]
    noted = with_note(leaf, NOTE * 5, leaf.tokens + 10)
    assert noted.tokens <= leaf.tokens + 10
    assert noted.note and (NOTE * 5).startswith(noted.note)
    assert (NOTE * 5)[len(noted.note)] == " "  # the cut falls between words


def test_no_room_leaves_the_chunk_as_it_was() -> None:
    leaf = chunk_document(DOC, document_key="g.md").leaves[0]
    assert with_note(leaf, NOTE, leaf.tokens) == leaf
    assert with_note(leaf, "   ", 8191) == leaf


def test_a_note_never_breaks_a_reopened_fence() -> None:
    code = "# Run\n\n```python\n" + "\n".join(f"x{n} = call({n})" for n in range(80)) + "\n```\n"
    options = ChunkOptions(child_max_tokens=64, note_tokens=16)
    leaf = chunk_document(code, document_key="r.md", options=options).leaves[1]
    noted = with_note(leaf, "Calls in a loop.\nSecond line.", 64)
    assert noted.embed_text.startswith("Run\n\nCalls in a loop. Second line.\n\n```python\n")


def test_the_default_overlap_is_a_share_of_what_the_note_leaves() -> None:
    assert ChunkOptions(child_max_tokens=128, note_tokens=32).child_overlap_tokens == 96 // 5
    fixed = {"strategy": "fixed", "childMaxTokens": 128, "noteTokens": "32"}
    assert ChunkOptions.model_validate(fixed).child_overlap_tokens == 24


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"noteTokens": 81}, "noteTokens (81) must be at most half of childMaxTokens (160)"),
        ({"noteTokens": 32, "childOverlapTokens": 65}, "less noteTokens (32)"),
    ],
)
def test_note_room_is_checked_against_the_leaf(values: dict[str, int], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ChunkOptions.model_validate(values)
