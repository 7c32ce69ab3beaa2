"""A heading path stays small however long a heading is: the answer is linear in the input."""

from __future__ import annotations

import json

from skills.chunking import ChunkOptions, chunk_document, count_tokens
from skills.chunking.outline import ELLIPSIS, MAX_TITLE_CHARS, cut_at_word

LONG_TITLE = " ".join(f"word{k}" for k in range(2000))


def answer_bytes(source: str) -> int:
    result = chunk_document(source, format="markdown")
    return sum(len(json.dumps(c.to_dict())) for c in (*result.parents, *result.leaves))


def test_a_title_is_cut_at_a_word_and_marked() -> None:
    assert cut_at_word("Configure the retry policy", 100) == "Configure the retry policy"
    assert cut_at_word("Configure the retry policy", 20) == "Configure the retry" + ELLIPSIS
    assert cut_at_word("x" * 50, 20) == "x" * 20 + ELLIPSIS  # no space: cut anyway


def test_a_long_heading_is_kept_in_the_heading_path_by_its_first_words() -> None:
    result = chunk_document(f"# {LONG_TITLE}\n\nSome text.\n", format="markdown")
    for chunk in (*result.parents, *result.leaves):
        (title,) = chunk.headings
        assert title.startswith("word0 word1 ") and title.endswith(ELLIPSIS)
        assert len(title) <= MAX_TITLE_CHARS + 1


def test_an_innermost_heading_too_long_for_its_share_keeps_its_first_words() -> None:
    options = ChunkOptions(parent_max_tokens=200, child_max_tokens=48, child_overlap_tokens=0)
    source = f"# {LONG_TITLE}\n\nSome text about it.\n"
    result = chunk_document(source, format="markdown", options=options)
    for leaf in result.leaves:
        assert leaf.prefix.startswith("word0 word1 ") and leaf.prefix.endswith(ELLIPSIS + "\n\n")
        assert count_tokens(leaf.prefix) <= 48 // 2


def test_the_answer_grows_linearly_with_a_heading() -> None:
    small = answer_bytes("# " + "word " * 4000 + "\n\ntext\n")
    large = answer_bytes("# " + "word " * 16000 + "\n\ntext\n")
    assert large < 5 * small


def test_a_heading_path_near_its_share_still_leaves_room_for_text() -> None:
    # Two 15-word headings make a path of about half a child: children must still hold text,
    # not one word each under a 60-token path (70 bytes of answer per byte of input).
    outer = " ".join(f"alpha{k}" for k in range(15))
    inner = " ".join(f"beta{k}" for k in range(15))
    source = f"# {outer}\n\n## {inner}\n\n" + "word " * 20_000 + "\n"
    assert answer_bytes(source) < 12 * len(source)


def test_a_heading_of_links_makes_an_answer_of_bounded_size_per_input_byte() -> None:
    source = "# " + "[a](b) " * 4000 + "\n\ntext\n"
    assert answer_bytes(source) < 25 * len(source)
