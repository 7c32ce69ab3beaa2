"""What the packer hands out and works with: pieces, budgets and the cut points of a range."""

from __future__ import annotations

from array import array
from dataclasses import dataclass

from skills.chunking.token_index import TokenIndex


@dataclass(frozen=True, slots=True)
class Budget:
    """``limit``: no piece's tokens exceed it. ``target``: what merging aims for (the limit less
    room kept for overlap); a single unit between the two, such as a code block, stays whole."""

    limit: int
    target: int


@dataclass(frozen=True, slots=True)
class Cuts:
    """Cut points of a range, sorted: where (``positions``), how good (``levels``) and how many
    tokens come before each (``cumulative``, exact between safe positions)."""

    positions: array[int]
    levels: array[int]
    cumulative: array[int]

    @classmethod
    def of(cls, positions: array[int], levels: array[int], index: TokenIndex) -> Cuts:
        return cls(positions, levels, index.tokens_before_all(positions))


@dataclass(frozen=True, slots=True)
class Piece:
    """A packed span: ``cut`` is where it was cut, ``start`` where its text begins."""

    cut: int
    start: int
    end: int
    prefix: str
    tokens: int  # exact tokens of ``prefix + text[start:end]``
    headings: tuple[str, ...]
    text_tokens: int  # of ``text[start:end]`` alone
    path_chars: int  # of ``prefix``: its heading path line (see ``prefix.Prefix``)


def text_start(text: str, cut: int, end: int) -> int:
    """Where a chunk cut at ``cut`` begins: the next non-space character, or the start of the
    next non-blank line when the skipped space holds a newline (indentation is kept)."""
    position = cut
    line_start = cut if cut == 0 or text[cut - 1] == "\n" else -1
    while position < end and text[position].isspace():
        if text[position] == "\n":
            line_start = position + 1
        position += 1
    if position >= end:
        return end
    return line_start if line_start >= 0 else position
