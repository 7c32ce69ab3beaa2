"""Exact token counts of any span of one document, from one tiktoken pass over it.

Encoding every candidate chunk again would cost a tiktoken pass per level of the hierarchy, so the
engine encodes the document once and answers ``count(start, end)`` from where the tokens end.

Why that is exact: tiktoken first cuts text into pre-tokens with a regex, then applies BPE inside
each pre-token, so a position where every substring's pre-tokenization is cut the same way cuts
the tokens the same way too. For cl100k_base these *safe* positions include:

- the start of a non-blank line (the newline run before it always ends its pre-token there);
- a space followed by a non-space and preceded by a non-space or a newline (``"a b"``: the space
  starts the pre-token ``" b"`` whatever comes before or after).

Between two safe positions the count is a difference of two prefix counts. Other positions cost
a small local encode of the text up to the nearest safe position ("edges"). The tests check all
of this against direct encoding on generated text.

Documents are encoded in segments cut at safe positions, which keeps memory bounded on huge
inputs. A text with no safe position for a whole segment (a 1 MB line without spaces) is cut
anyway, at a *barrier*. A count is never a direct encoding of more than the stretch between two
safe positions or barriers: encoding a megabyte of spaces whole is slow in tiktoken (its BPE is
quadratic in a pre-token's length) and overflows its regex engine's stack. So a count across a
barrier adds the counts of its sides, plus one token per barrier: encoded apart, two sides can
come out one token short of the whole (one merge lost, as with runs of tabs or dashes; never more
in 2,800 random splits of 14 kinds of runs, and the property tests look for more), so such a
count is never below the exact one, though it may be above. Every other count is exact.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from skills.chunking.tokens import encoding

SEGMENT_CHARS = 1 << 16

# Safe: the start of a non-blank line, or a space between a non-space (or newline) and a non-space.
SAFE = re.compile(r"(?<=\n)(?=[ \t]*\S)|(?<=\S)(?= \S)")


@lru_cache(maxsize=1)
def _token_byte_lengths() -> npt.NDArray[np.int64]:
    """Length in bytes of every token id, to turn token ids into offsets without decoding."""
    enc = encoding()
    lengths = np.zeros(enc.n_vocab, dtype=np.int64)
    for token in range(enc.n_vocab):
        try:
            lengths[token] = len(enc.decode_single_token_bytes(token))
        except KeyError:  # unused ids between the regular and the special tokens
            continue
    return lengths


# ``is_safe`` at one position: a newline then a line that is not blank, or a space between two
# non-spaces. One match, not a slice of the line: counting asks this twice per span.
_SAFE_AT = re.compile(r"(?<=\n)[^\S\n]*\S|(?<=\S) \S")


def is_safe(text: str, position: int) -> bool:
    """Whether ``position`` is a safe cut (see the module docstring)."""
    if position <= 0 or position >= len(text):
        return True
    return _SAFE_AT.match(text, position) is not None


class TokenIndex:
    """Token counts for spans of ``text``; build once per document."""

    def __init__(self, text: str, segment_chars: int = SEGMENT_CHARS) -> None:
        self.text = text
        self.barriers: list[int] = []
        # int32: four bytes a token keeps a 50 MB document's index near 50 MB. One buffer that
        # grows in place, not a list of per-segment arrays joined at the end: those, kept
        # between each segment's short-lived arrays, left the C heap full of holes it never
        # gave back (on 50 MB, 0.7x the document's size in resident memory beyond the index).
        ends = array("i")
        byte_lengths = _token_byte_lengths()
        start = 0
        length = len(text)
        while start < length:
            end = self._segment_end(start, segment_chars)
            segment = text[start:end]
            tokens = _token_ids(segment)
            byte_ends = np.cumsum(byte_lengths[tokens])
            ends.frombytes((_char_ends(segment, byte_ends) + start).astype(np.int32).tobytes())
            start = end
        self.ends: npt.NDArray[np.int32] = np.frombuffer(ends, dtype=np.int32)
        self.total = len(self.ends)
        self._ends_view = self.ends.data  # a memoryview: bisect on it needs no numpy call

    def _segment_end(self, start: int, segment_chars: int) -> int:
        """A safe position near ``start + segment_chars`` (a barrier if there is none)."""
        limit = start + segment_chars
        if limit >= len(self.text):
            return len(self.text)
        newline = self.text.rfind("\n", start + segment_chars // 2, limit)
        while newline > start:
            if is_safe(self.text, newline + 1):
                return newline + 1
            newline = self.text.rfind("\n", start + segment_chars // 2, newline)
        space = self.text.rfind(" ", start + segment_chars // 2, limit)
        while space > start:
            if is_safe(self.text, space):
                return space
            space = self.text.rfind(" ", start + segment_chars // 2, space)
        self.barriers.append(limit)
        return limit

    # -- counting -----------------------------------------------------------------------------
    def tokens_before(self, position: int) -> int:
        """Number of tokens that end at or before ``position`` (exact at safe positions)."""
        return bisect_right(self._ends_view, position)

    def tokens_before_all(self, positions: array[int]) -> array[int]:
        """``tokens_before`` for many positions (an ``array("q")``) at once."""
        query = np.frombuffer(positions, dtype=np.int64).astype(np.int32)
        counts = self.ends.searchsorted(query, side="right").astype(np.int64)
        return array("q", counts.tobytes())

    def count(self, start: int, end: int) -> int:
        """Number of tokens of ``text[start:end]``: exact, unless a barrier lies inside (then at
        most one token more per barrier, see the module docstring)."""
        if end <= start:
            return 0
        first = start if self._is_cut(start) else self._next_cut(start, end)
        last = end if self._is_cut(end) else max(first, self._last_cut(first, end))
        if first >= last:  # no cut inside: a stretch of one segment at most
            return len(encoding().encode_ordinary(self.text[start:end]))
        middle = self.tokens_before(last) - self.tokens_before(first)
        head = len(encoding().encode_ordinary(self.text[start:first])) if first > start else 0
        tail = len(encoding().encode_ordinary(self.text[last:end])) if end > last else 0
        # Every split that is not at a safe position is at a barrier strictly inside the span
        # (between head and middle, inside the middle, or between middle and tail).
        return head + middle + tail + self._barriers_in(start, end)

    def _is_cut(self, position: int) -> bool:
        """Whether the index counts exactly up to ``position``: a safe position or a barrier."""
        return is_safe(self.text, position) or self._barriers_in(position - 1, position + 1) > 0

    def _barriers_in(self, low: int, high: int) -> int:
        """How many barriers lie strictly inside ``(low, high)``."""
        if not self.barriers:
            return 0
        return bisect_left(self.barriers, high) - bisect_right(self.barriers, low)

    def _next_cut(self, start: int, end: int) -> int:
        """The first safe position or barrier in ``(start, end)``, else ``end``; the search for
        a safe one stops at the barrier, so it never scans more than a segment."""
        index = bisect_right(self.barriers, start)
        stop = min(end, self.barriers[index]) if index < len(self.barriers) else end
        match = SAFE.search(self.text, start + 1, stop)
        return match.start() if match else stop

    def _last_cut(self, low: int, high: int) -> int:
        """The last safe position or barrier in ``(low, high]``, or -1."""
        index = bisect_right(self.barriers, high) - 1
        barrier = self.barriers[index] if index >= 0 else -1
        if barrier > low:
            low = barrier - 1  # look for a safe position after it only
        found = last_safe(self.text, low, high)
        return found if found > low else (barrier if barrier > low else -1)


def last_safe(text: str, low: int, high: int) -> int:
    """The last safe position in ``(low, high]``, or -1; looks back in growing windows."""
    window = 64
    while True:
        start = max(low + 1, high - window)
        found = -1
        # two characters past ``high``: the pattern looks ahead to decide at ``high`` itself
        for match in SAFE.finditer(text, start, min(len(text), high + 2)):
            if match.start() <= high:
                found = match.start()
        if found > low or start == low + 1:
            return found
        window *= 4


def _token_ids(segment: str) -> npt.NDArray[np.uint32]:
    """``encode_ordinary``'s ids straight into an array (special-token text stays plain text)."""
    enc = encoding()
    try:
        return enc.encode_to_numpy(segment, allowed_special=set(), disallowed_special=())
    except UnicodeEncodeError:  # lone surrogates: encode_ordinary replaces them, one for one
        return np.asarray(enc.encode_ordinary(segment), dtype=np.uint32)


def _char_ends(segment: str, byte_ends: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Turn the byte offsets where tokens end into character offsets.

    A token that ends inside a multi-byte character is counted as ending after it; no token ends
    inside a character at a safe position, so counts between safe positions are unaffected.
    """
    if segment.isascii():
        return byte_ends
    data = np.frombuffer(segment.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    leading = np.cumsum((data & 0xC0) != 0x80, dtype=np.int64)
    ends: npt.NDArray[np.int64] = leading[byte_ends - 1]
    return ends
