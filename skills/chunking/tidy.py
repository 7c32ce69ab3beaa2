"""The clean-up passes: functions over the pieces the packer's recursive core made, run in turn
by ``Packer.pack``. Each may merge neighbouring pieces, or have a stretch packed again
(``Packing.repack``); none drops text, and every piece still fits the limit.

- ``absorb_small``: a piece too small to stand alone joins a neighbour it fits with.
- ``no_word_for_company``: no piece ends a few words into a sentence.

Sizes here are as read (``reading_tokens``: a link counts for its text, the outline says how a
span reads); the budget is still checked on every real token.
"""

from __future__ import annotations

from typing import Protocol

from skills.chunking.finer import FinerCuts
from skills.chunking.outline import Attach, Outline
from skills.chunking.piece import Budget, Piece
from skills.chunking.token_index import TokenIndex
from skills.chunking.tokens import count_tokens


class Packing(Protocol):
    """What the clean-up passes ask of the packer (``pack.Packer``)."""

    text: str
    index: TokenIndex
    outline: Outline
    finer: FinerCuts

    def measure(self, cut: int, end: int, budget: int, start: int | None = None) -> Piece | None:
        """The piece for ``[cut, end)`` with its exact token count."""

    def past_attached(self, start: int, end: int, only: Attach | None = None) -> int:
        """Where the text after the attached lines that open ``[start, end)`` begins."""

    def repack(self, cut: int, end: int, budget: Budget) -> list[Piece]:
        """``[cut, end)`` packed again, small pieces absorbed."""


def reading_tokens(packer: Packing, start: int, end: int) -> int:
    """The tokens of ``text[start:end]`` as a reader reads it: a link as its text, a link
    reference definition as nothing (``Outline.readable``, which the parser sets). What fits
    together is decided by what a piece says; the budget is still checked on every real
    token."""
    real = packer.index.count(start, end)
    readable = packer.outline.readable(packer.text[start:end])
    return real if len(readable) == end - start else min(real, count_tokens(readable))


def absorb_small(packer: Packing, pieces: list[Piece], budget: Budget) -> list[Piece]:
    """Merge a piece too small to stand alone (under an eighth of the budget as read, a
    link counting for its text, or only lines attached to a neighbour) into a neighbour it
    fits with: the next one for a first piece, else the previous one; attached lines into the
    next one first (a heading introduces what follows), else into the previous one: a heading
    before a code block that fits a piece only alone (a content tab's ``=== "Python"``) would
    be a child that says nothing its path does not. Such a piece may fill the room kept for
    an overlap (up to the limit)."""
    threshold = budget.target // 8
    result = list(pieces)
    k = 0
    while k < len(result) and len(result) > 1:
        piece = result[k]
        says_nothing = _attached_only(packer, piece)
        small = piece.text_tokens < threshold  # as read: a bare link is small too
        small = small or reading_tokens(packer, piece.start, piece.end) < threshold
        if not small and not says_nothing:
            k += 1
            continue
        neighbours = (k + 1, k - 1) if k == 0 or says_nothing else (k - 1, k + 1)
        for other in neighbours:
            if not 0 <= other < len(result):
                continue
            first, last = (other, k) if other < k else (k, other)
            merged = packer.measure(result[first].cut, result[last].end, budget.limit)
            # lines with nothing to read may take the room kept for an overlap
            room = budget.limit if says_nothing else budget.target
            if merged is not None and merged.tokens <= room:
                result[first : last + 1] = [merged]
                k = first
                break
        else:
            k += 1
    return result


def no_word_for_company(packer: Packing, pieces: list[Piece], budget: Budget) -> list[Piece]:
    """No piece ends a few words into a sentence. When a piece holds less than an eighth of
    the budget (as read: a link counts for its text) of a sentence cut at a word, after its
    headings, it ends at the last sentence or line start with which it fits, else right
    after the headings; a fragment without headings is packed again with the piece after it (the
    packer's even parts then share the sentence out). ``### Elementary OS fails to
    install\\n\\nEOS`` ended a child, ``EOS`` alone was one at 32 tokens, and a changelog's
    ``## 3.0.1`` took one bare pull-request link of its entry for company."""
    threshold = budget.target // 8
    k = 0
    while k < len(pieces) - 1:
        piece, following = pieces[k], pieces[k + 1]
        content = packer.past_attached(piece.start, piece.end)
        cut = following.cut
        if (
            content >= piece.end
            or packer.text[cut - 1 : cut] in ("\n", "")
            or reading_tokens(packer, content, piece.end) >= threshold
            or cut in packer.finer.sentences(content, following.end)
        ):
            k += 1
            continue
        after = pieces[k + 2 : k + 3]  # a scrap at the end of what is packed again joins it
        if content > piece.start:  # after headings: end at a sentence, a line, or them
            new_cut = _last_whole_cut(packer, piece.cut, content, following.end, budget.limit)
            head = packer.measure(piece.cut, new_cut, budget.limit)
            rest = packer.repack(new_cut, following.end, budget)
            rest = absorb_small(packer, [*rest, *after], budget)
            pieces[k : k + 2 + len(after)] = [*([head] if head is not None else []), *rest]
        else:  # a fragment alone: it and the next piece, packed again as one range
            rest = packer.repack(piece.cut, following.end, budget)
            pieces[k : k + 2 + len(after)] = absorb_small(packer, [*rest, *after], budget)
        k += 1
    return pieces


def _last_whole_cut(packer: Packing, cut: int, content: int, end: int, limit: int) -> int:
    """The last sentence or line start in ``(content, end)`` up to which the piece from
    ``cut`` fits ``limit``; ``content`` when there is none (the headings then stand alone:
    the next piece's heading path still names them)."""
    inner = sorted({*packer.finer.sentences(content, end), *packer.finer.lines(content, end)})
    for position in reversed(inner):
        if packer.outline.container_at(position) is not None:
            continue  # a code block or table is cut for its headings only when too big
        piece = packer.measure(cut, position, limit)
        if piece is not None and piece.tokens <= limit:
            return position
    return content


def _attached_only(packer: Packing, piece: Piece) -> bool:
    """Whether ``piece`` holds lines attached to a neighbour (headings, labels, bare lines)
    and nothing else."""
    return packer.past_attached(piece.start, piece.end) >= piece.end
