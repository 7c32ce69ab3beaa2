"""The finer cutting tiers: cut points below the outline's, found lazily inside one unit that
alone exceeds the budget (``Packer._split_finer`` tries them in turn): line starts (outside
``avoid`` lines, only at rows in a table cut by rows), sentence starts, the spaces before
words, and as the last resort windows of whole tokens.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skills.chunking.outline import Outline
from skills.chunking.piece import Piece
from skills.chunking.prefix import PrefixBuilder
from skills.chunking.sentences import sentence_starts
from skills.chunking.token_index import SAFE, TokenIndex

_LINE_START = re.compile(r"(?<=\n)(?=[ \t]*\S)")


class FinerCuts:
    """The finer cut points of one document (see the module's docstring); ``measure`` is the
    packer's (a heading line is cut at words only when it alone exceeds the budget)."""

    def __init__(
        self,
        text: str,
        index: TokenIndex,
        outline: Outline,
        prefixes: PrefixBuilder,
        measure: Callable[[int, int, int], Piece | None],
    ) -> None:
        self.text = text
        self.index = index
        self.outline = outline
        self.prefixes = prefixes
        self.measure = measure
        self.avoid = {position for c in outline.containers for position in c.avoid}
        self.by_rows = any(c.row_start is not None for c in outline.containers)

    def lines(self, cut: int, end: int) -> list[int]:
        starts = (m.start() for m in _LINE_START.finditer(self.text, cut + 1, end))
        found = [start for start in starts if start not in self.avoid]
        return [start for start in found if self._starts_row(start)] if self.by_rows else found

    def _starts_row(self, position: int) -> bool:
        """Whether a line start may begin a piece in a container cut by rows (HTML tables)."""
        container = self.outline.container_at(position)
        if container is None or container.row_start is None:
            return True
        return container.row_start.match(self.text, position) is not None

    def sentences(self, cut: int, end: int, earliest: int = 0) -> list[int]:
        """Sentence cuts in ``(cut, end)``; those before ``earliest`` may be left out (a cut lies
        at or before the sentence start it comes from)."""
        text = self.text
        cuts = []
        for start in sentence_starts(text, cut, end, report_from=earliest):
            position = start - 1 if text[start - 1].isspace() else start  # CJK stops: no space
            while position > cut and text[position - 1].isspace() and text[position - 1] != "\n":
                position -= 1
            if cut < position < end:
                cuts.append(position)
        if not cuts or not self.outline.touches_heading(cuts[0], cuts[-1]):
            return cuts
        # "## 1. Setup" holds no sentence break: a heading line is cut at words, if at all
        return [position for position in cuts if self.outline.heading_around(position) is None]

    def words(self, cut: int, end: int, limit: int) -> list[int]:
        """Spaces before words in ``(cut, end)``, outside heading lines that fit ``limit``: such
        a heading is cut only when it alone exceeds the budget."""
        words = [m.start() for m in SAFE.finditer(self.text, cut + 1, end)]
        if not words or not self.outline.touches_heading(words[0], words[-1]):
            return words
        fits: dict[tuple[int, int], bool] = {}
        kept = []
        for position in words:
            heading = self.outline.heading_around(position)
            if heading is not None:
                if heading not in fits:
                    piece = self.measure(heading[0], heading[1], limit)
                    fits[heading] = piece is None or piece.tokens <= limit
                if fits[heading]:
                    continue
            kept.append(position)
        return kept

    def token_windows(self, start: int, end: int, budget: int, out: list[Piece]) -> None:
        """Last resort for a run without spaces: windows of whole tokens, each counted exactly."""
        ends = self.index.ends
        position = start
        while position < end:
            room = budget - self.prefixes.upper_bound(position, budget)
            first_token = self.index.tokens_before(position)
            stop = min(end, int(ends[min(first_token + max(room, 1), len(ends)) - 1]))
            stop = max(stop, position + 1)
            piece = self.measure(position, stop, budget)
            while piece is not None and piece.tokens > budget and stop > position + 1:
                stop = position + max(1, (stop - position) * 9 // 10)
                piece = self.measure(position, stop, budget)
            if piece is not None:
                out.append(piece)
            position = stop
