"""Span counts from one encoding pass equal direct encoding, for any span of any text; across a
barrier (a segment cut where no position is safe) they are never below it."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from skills.chunking.token_index import SAFE, TokenIndex, is_safe
from skills.chunking.tokens import count_tokens

# Pieces chosen to hit cl100k's pre-tokenizer corner cases: whitespace runs with and without
# newlines, punctuation followed by newlines, contractions, digit runs, non-ASCII and emoji.
PIECES = [
    "a",
    "Z",
    "word",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    " \n",
    "\r\n",
    "\xa0",
    "\u2028",
    "\x0b",
    ".",
    ",",
    ":",
    "...",
    "'s",
    "'",
    '"',
    "(",
    ")",
    "`",
    "#",
    "|",
    "-",
    "*",
    "9",
    "1234",
    "é",
    "中文",
    "😀",
    "x\n  y",
    "!!\n",
    " 1",
    ".\n\n",
    "\x1c",
    "\x85",
]

texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


def barriers_inside(index: TokenIndex, start: int, end: int) -> int:
    return sum(start < barrier < end for barrier in index.barriers)


@settings(max_examples=300, deadline=None)
@given(texts, st.data(), st.sampled_from([4, 16, 1 << 16]))
def test_any_span_counts_like_direct_encoding(text: str, data: st.DataObject, segment: int) -> None:
    index = TokenIndex(text, segment_chars=segment)
    for _ in range(10):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
        exact, count = count_tokens(text[start:end]), index.count(start, end)
        assert count == exact if not barriers_inside(index, start, end) else count >= exact


def test_a_span_that_starts_and_ends_beside_barriers_is_never_undercounted() -> None:
    """Found by the property above: a span whose first and last cuts are barriers was split there
    too, and those two splits were not allowed for (5 tokens counted for 6)."""
    text = "aaa\n\n\n\n...aZaaaword"
    index = TokenIndex(text, segment_chars=4)
    assert index.count(8, 17) >= count_tokens(text[8:17])


@settings(max_examples=200, deadline=None)
@given(texts)
def test_safe_positions_found_by_the_regex_are_safe(text: str) -> None:
    for match in SAFE.finditer(text):
        assert is_safe(text, match.start())


@settings(max_examples=200, deadline=None)
@given(texts)
def test_counts_between_safe_positions_are_prefix_differences(text: str) -> None:
    index = TokenIndex(text)
    safe = [p for p in range(len(text) + 1) if is_safe(text, p)]
    for start, end in itertools.pairwise(safe):
        difference = index.tokens_before(end) - index.tokens_before(start)
        assert difference == count_tokens(text[start:end])


def test_whole_document_count_matches_encoding_of_real_markdown() -> None:
    text = (
        "# Title\n\nSome `code` here, e.g. os.path.join.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n" * 50
    )
    index = TokenIndex(text, segment_chars=256)
    assert index.total == count_tokens(text)
    assert not index.barriers  # every segment found a safe cut


def test_a_run_without_spaces_makes_a_barrier_and_counts_at_least_its_tokens() -> None:
    text = "x" * 5000 + " tail"
    index = TokenIndex(text, segment_chars=1024)
    assert len(index.barriers) == 4
    assert count_tokens(text) <= index.count(0, len(text)) <= count_tokens(text) + 4
    assert index.count(100, 900) == count_tokens(text[100:900])  # inside one segment: exact


def test_a_megabyte_of_spaces_is_counted_without_encoding_it_whole() -> None:
    # tiktoken's regex engine overflows its stack on a run of a million spaces in one call
    text = "a" + " " * 1_000_000 + "b"
    index = TokenIndex(text)
    assert index.barriers
    assert index.count(0, len(text)) >= index.total


def test_space_after_newline_indentation_is_not_safe() -> None:
    # "\n " + " b": the pre-tokenizer keeps "\n " together at the end of a string.
    text = "a\n  b"
    assert not is_safe(text, 3)
    assert is_safe(text, 2)  # the start of the indented line is


def test_a_count_that_ends_just_past_a_barrier_still_counts_its_split() -> None:
    # hypothesis found it: the barrier at 11 is the last cut, not inside (first, last)
    text = "a!!\n!!\na   1a"
    index = TokenIndex(text, segment_chars=4)
    assert index.barriers == [11]
    assert index.count(0, 12) >= count_tokens(text[:12])
