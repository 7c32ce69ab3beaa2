"""The one packer: turns an outline's levelled cut points into chunks that fit a token budget.

For a range that does not fit, it cuts at the best level present inside the range (a section
heading before a block start before a list item), then merges neighbouring pieces towards equal
parts while they fit; a piece that still does not fit is packed the same way one level down. A
single block that alone is too big is cut inside, found lazily: between lines first in code and
tables, between sentences first in prose, then between words, and between tokens as the last
resort. So a code block or a table (or one of its rows) is only cut when it alone exceeds the
budget: its heading path gives way first (``Packer._kept_whole``). Small sibling sections share a
chunk, and nothing is ever dropped. A heading is never a piece of its own: no cut falls right
after a line that leads into the next piece, nor right before one that trails the piece before it
(a line with nothing to read, such as ``---``): the outline says which way each line attaches
(``outline.Attach``), and ``Packer._boundaries`` obeys it. A unit too big for the budget is cut by
the first of a few named fallbacks that applies (``Packer._pack_unit``).

Cut positions are starts of non-blank lines or the space before a word; a chunk's text begins at
the first non-blank line (or non-space character) after its cut and runs to the next cut, so the
chunks of a range tile it without losing a non-space character.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from skills.chunking.context import ContextBuilder
from skills.chunking.levels import Level
from skills.chunking.outline import Attach, Outline
from skills.chunking.sentences import sentence_starts
from skills.chunking.token_index import SAFE, TokenIndex
from skills.chunking.tokens import count_tokens

#: Parts may exceed an even share of their range by this factor (never the budget).
BALANCE_SLACK = 1.15
_LINE_START = re.compile(r"(?<=\n)(?=[ \t]*\S)")
_CONTENT = re.compile(r"\S")


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
    path_chars: int  # of ``prefix``: its heading path line (see ``context.Prefix``)


class Packer:
    """Packs ranges of one document, nested ones too (parents, then the children in each)."""

    def __init__(
        self, text: str, index: TokenIndex, outline: Outline, context: ContextBuilder
    ) -> None:
        self.text = text
        self.index = index
        self.context = context
        self.outline = outline
        self.avoid = {position for c in outline.containers for position in c.avoid}
        self.by_rows = any(c.row_start is not None for c in outline.containers)
        first = _first_content(text, outline.content_start, outline.content_end)
        low = bisect_right(outline.positions, first)
        high = bisect_left(outline.positions, outline.content_end)
        positions = array("q", [first])
        positions.extend(outline.positions[low:high])
        positions.append(outline.content_end)
        levels = array("b", [Level.EDGE])
        levels.extend(outline.levels[low:high])
        levels.append(Level.EDGE)
        self.cuts = Cuts.of(positions, levels, index)
        self._document_attached = self._find_attached_units(self.cuts, 0, len(positions) - 1)

    @property
    def first(self) -> int:
        """Where the document's content begins (its first non-blank line after any front
        matter)."""
        return self.cuts.positions[0]

    @property
    def end(self) -> int:
        """Where the document's content ends (before any back matter): no piece reaches past."""
        return self.cuts.positions[-1]

    @property
    def is_empty(self) -> bool:
        return self.first >= self.end

    def pack(self, cut: int, end: int, limit: int, target: int | None = None) -> list[Piece]:
        """Chunks of ``text[cut:end]``, each with ``tokens <= limit``; pieces are merged up to
        ``target`` (default: the limit), and a unit that fits the limit is never cut.

        A range that fits the limit whole is one piece: the room the target keeps is for an
        overlap with a piece before, and a range packed alone has none."""
        budget = Budget(limit, min(limit, target or limit))
        return self._no_word_for_company(self._pack_range(cut, end, budget), budget)

    def _pack_range(self, cut: int, end: int, budget: Budget) -> list[Piece]:
        """``pack`` but for the words a heading takes for company (``_no_word_for_company``)."""
        limit = budget.limit
        if cut >= end or not _CONTENT.search(self.text, cut, end):
            return []
        if budget.target < limit:
            whole = self.measure(cut, end, limit)
            if whole is not None and whole.tokens <= limit:
                return [whole]
        out: list[Piece] = []
        positions, levels = self.cuts.positions, self.cuts.levels
        first, last = bisect_left(positions, cut), bisect_left(positions, end)
        if positions[first] == cut and last < len(positions) and positions[last] == end:
            self._pack(self.cuts, first, last, budget, 0, out)
        else:  # a range cut inside a line (a parent of a long paragraph): its own cut points
            inner = positions[bisect_right(positions, cut) : last]
            local = Cuts.of(
                array("q", [cut, *inner, end]),
                array("b", [Level.EDGE, *levels[last - len(inner) : last], Level.EDGE]),
                self.index,
            )
            self._pack(local, 0, len(local.positions) - 1, budget, 0, out)
        return self._absorb_small(out, budget)

    def reading_tokens(self, start: int, end: int) -> int:
        """The tokens of ``text[start:end]`` as a reader reads it: a link as its text, a link
        reference definition as nothing (``Outline.readable``, which the parser sets). What fits
        together is decided by what a piece says; the budget is still checked on every real
        token."""
        real = self.index.count(start, end)
        readable = self.outline.readable(self.text[start:end])
        return real if len(readable) == end - start else min(real, count_tokens(readable))

    def _no_word_for_company(self, pieces: list[Piece], budget: Budget) -> list[Piece]:
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
            content = self._past_attached(piece.start, piece.end)
            cut = following.cut
            if (
                content >= piece.end
                or self.text[cut - 1 : cut] in ("\n", "")
                or self.reading_tokens(content, piece.end) >= threshold
                or cut in self._sentence_cuts(content, following.end)
            ):
                k += 1
                continue
            after = pieces[k + 2 : k + 3]  # a scrap at the end of what is packed again joins it
            if content > piece.start:  # after headings: end at a sentence, a line, or them
                new_cut = self._last_whole_cut(piece.cut, content, following.end, budget.limit)
                head = self.measure(piece.cut, new_cut, budget.limit)
                rest = self._pack_range(new_cut, following.end, budget)
                rest = self._absorb_small([*rest, *after], budget)
                pieces[k : k + 2 + len(after)] = [*([head] if head is not None else []), *rest]
            else:  # a fragment alone: it and the next piece, packed again as one range
                rest = self._pack_range(piece.cut, following.end, budget)
                pieces[k : k + 2 + len(after)] = self._absorb_small([*rest, *after], budget)
            k += 1
        return pieces

    def _last_whole_cut(self, cut: int, content: int, end: int, limit: int) -> int:
        """The last sentence or line start in ``(content, end)`` up to which the piece from
        ``cut`` fits ``limit``; ``content`` when there is none (the headings then stand alone:
        the next piece's heading path still names them)."""
        inner = sorted({*self._sentence_cuts(content, end), *self._line_cuts(content, end)})
        for position in reversed(inner):
            if self.outline.container_at(position) is not None:
                continue  # a code block or table is cut for its headings only when too big
            piece = self.measure(cut, position, limit)
            if piece is not None and piece.tokens <= limit:
                return position
        return content

    def _absorb_small(self, pieces: list[Piece], budget: Budget) -> list[Piece]:
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
            says_nothing = self._attached_only(piece)
            small = piece.text_tokens < threshold  # as read: a bare link is small too
            small = small or self.reading_tokens(piece.start, piece.end) < threshold
            if not small and not says_nothing:
                k += 1
                continue
            neighbours = (k + 1, k - 1) if k == 0 or says_nothing else (k - 1, k + 1)
            for other in neighbours:
                if not 0 <= other < len(result):
                    continue
                first, last = (other, k) if other < k else (k, other)
                merged = self.measure(result[first].cut, result[last].end, budget.limit)
                # lines with nothing to read may take the room kept for an overlap
                room = budget.limit if says_nothing else budget.target
                if merged is not None and merged.tokens <= room:
                    result[first : last + 1] = [merged]
                    k = first
                    break
            else:
                k += 1
        return result

    def _attached_only(self, piece: Piece) -> bool:
        """Whether ``piece`` holds lines attached to a neighbour (headings, labels, bare lines)
        and nothing else."""
        return self._past_attached(piece.start, piece.end) >= piece.end

    # -- the recursive packer: why a cut is where it is, read top-down -----------------------
    def _fits(self, cuts: Cuts, i: int, j: int, budget: int) -> bool:
        estimate = cuts.cumulative[j] - cuts.cumulative[i]
        if estimate > budget:
            return False
        return self.context.upper_bound(cuts.positions[i], budget) + estimate <= budget

    def _pack(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> None:
        """Pack the range between cut points ``i`` and ``j``: one piece if it fits the target,
        else cut at the best of the cuts that may end a piece in it (``_boundaries``). A range
        with none is one unit, with the lines attached to it: one piece if it fits the limit,
        else cut by the first fallback of ``_pack_unit`` that applies."""
        boundaries = self._boundaries(cuts, i, j)
        if self._fits(cuts, i, j, budget.target) or (
            not boundaries and self._fits(cuts, i, j, budget.limit)
        ):
            self._emit(cuts, i, j, budget, tier, out)
        elif boundaries:
            self._cut_at_best(cuts, i, j, boundaries, budget, tier, out)
        else:
            self._pack_unit(cuts, i, j, budget, tier, out)

    def _cut_at_best(
        self,
        cuts: Cuts,
        i: int,
        j: int,
        boundaries: Sequence[int],
        budget: Budget,
        tier: int,
        out: list[Piece],
    ) -> None:
        """Cut the range at those of ``boundaries`` of the best level present, then merge
        neighbouring pieces while they fit, aiming for equal parts rather than full ones
        followed by a scrap; a piece that still does not fit is packed again."""
        positions, levels, cumulative = cuts.positions, cuts.levels, cuts.cumulative
        if isinstance(boundaries, range):  # the common case, every inner cut: a slice is fast
            best = max(levels[boundaries.start : boundaries.stop])
        else:
            best = max(levels[k] for k in boundaries)
        chosen = [i, *(k for k in boundaries if levels[k] == best), j]
        room = max(1, budget.target - self.context.upper_bound(positions[i], budget.target))
        total = cumulative[j] - cumulative[i]
        target = total / -(-total // room) * BALANCE_SLACK
        k = 0
        while k < len(chosen) - 1:
            first = chosen[k]
            # ``_fits`` for every end at once: the prefix bound depends on the start alone
            text_room = budget.target - self.context.upper_bound(positions[first], budget.target)
            reach = min(target, text_room)
            k += 1
            while k < len(chosen) - 1 and cumulative[chosen[k + 1]] - cumulative[first] <= reach:
                k += 1
            last = chosen[k]
            if cumulative[last] - cumulative[first] <= text_room:
                self._emit(cuts, first, last, budget, tier, out)
            else:
                self._pack(cuts, first, last, budget, tier, out)

    def _boundaries(self, cuts: Cuts, i: int, j: int) -> Sequence[int]:
        """The cuts inside ``(i, j)`` that may end a piece: the one place where the packer obeys
        ``outline.Attach``.

        A unit that holds only a line attached to a neighbour (``_attached_units``) never makes
        a piece on its own: no cut right after one that leads into the next unit (so an empty
        section's heading stays with the next section), none right before one that trails the
        previous unit. Those that open the range stay with the unit after them, those that end
        it with the unit before. A range of nothing but such lines (a table of contents) has
        nothing to keep them with: it may be cut between any of them."""
        leads, trails = self._attached_units(cuts, i, j)
        if not leads and not trails:
            return range(i + 1, j)
        first, stop = self._between_attached(i, j, {*leads, *trails})
        if first == j:
            return range(i + 1, j)
        excluded = {k + 1 for k in leads}.union(trails)
        return [k for k in range(first + 1, stop) if k not in excluded]

    @staticmethod
    def _between_attached(i: int, j: int, attached: set[int]) -> tuple[int, int]:
        """The cuts from which the range's units start and at which they stop, once the attached
        units that open and end it are left out (``first == j`` when there is nothing else)."""
        first = i
        while first in attached:
            first += 1
        stop = j
        while stop - 1 > first and stop - 1 in attached:
            stop -= 1
        return first, stop

    # -- one unit too big: the fallbacks, tried in order ---------------------------------------
    def _pack_unit(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> None:
        """Pack one unit that does not fit the limit with the lines attached to it. Each
        fallback says when it applies; the first that does decides the cut. The attached lines
        give way before the unit is cut inside: a code block or table is cut only when it alone
        does not fit."""
        fallbacks = (
            self._cut_off_empty_sections,
            self._keep_block_whole,
            self._cut_before_block,
            self._cut_off_bare_tail,
        )
        for fallback in fallbacks:
            if fallback(cuts, i, j, budget, tier, out):
                return
        self._split_finer(cuts.positions[i], cuts.positions[j], budget, tier, out)

    def _cut_off_empty_sections(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> bool:
        """When headings end the range (empty sections, with nothing after them to lead into):
        cut before them."""
        leads, trails = self._attached_units(cuts, i, j)
        first, stop = self._between_attached(i, j, {*leads, *trails})
        ending = [k for k in range(stop, j) if k not in trails] if first < j else []
        if ending:
            self._cut_at_best(cuts, i, j, ending, budget, tier, out)
        return bool(ending)

    def _keep_block_whole(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> bool:
        """When the unit is a code block or table (or a line or row of one) that fits under a
        shorter heading path: keep it whole so (``_kept_whole``)."""
        whole = self._kept_whole(cuts.positions[i], cuts.positions[j], budget.limit)
        if whole is not None:
            out.append(whole)
        return whole is not None

    def _cut_before_block(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> bool:
        """When a code block or table starts inside the range and fits the limit: cut where it
        starts, or where the nearest of the headings leading into it start, as many of them as
        fit with it (the others stand alone)."""
        positions = cuts.positions
        block = self.outline.container_starting_in(positions[i] + 1, positions[j])
        if block is None:
            return False
        b = bisect_left(positions, block.start, i + 1, j)
        if b == j or positions[b] != block.start:
            return False
        end = min(block.end, positions[j])
        for k in range(i + 1, b + 1):
            piece = self.measure(positions[k], end, budget.limit)
            if (piece is not None and piece.tokens <= budget.limit) or self._kept_whole(
                positions[k], end, budget.limit
            ):
                self._cut_at_best(cuts, i, j, [k], budget, tier, out)
                return True
        return False

    def _cut_off_bare_tail(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> bool:
        """When lines that trail end the range (a ``---`` after a table) and the code block or
        table before them fits the limit without them: cut before them."""
        _, trails = self._attached_units(cuts, i, j)
        k = j
        while k - 1 > i and k - 1 in trails:
            k -= 1
        if k == j or self._kept_whole(cuts.positions[i], cuts.positions[k], budget.limit) is None:
            return False
        self._cut_at_best(cuts, i, j, [k], budget, tier, out)
        return True

    def _kept_whole(self, cut: int, end: int, limit: int) -> Piece | None:
        """``[cut, end)`` as one piece under a shorter heading path, if it is a code block or a
        table (after the lines that lead into it) or one line or row of one, and fits ``limit``
        so: a block is cut only when it alone exceeds the budget, and its heading path gives way
        first (see ``ContextBuilder.fitted``)."""
        text, outline = self.text, self.outline
        start = text_start(text, cut, end)
        text_tokens = self.index.count(start, end)
        if text_tokens > limit:
            return None
        first, block = start, outline.container_at(start)
        if block is None or block.start == start:  # (indented code's body starts with it)
            first = self._past_attached(start, end)  # past the lines that lead into it
            block = outline.container_starting_in(first, first + 1)
        if block is None:
            return None
        # only trailing lines may follow the block, and a part of one must be one line or row
        rest = text_start(text, block.end, end)
        if self._past_attached(rest, end, only=Attach.PREVIOUS) < end:
            return None
        whole = first == block.start and end >= block.end
        if not whole and self._line_cuts(first, min(end, block.end)):
            return None
        prefix = self.context.fitted(start, end, limit - text_tokens)
        if prefix is None:
            return None
        tokens = prefix.tokens + text_tokens
        return Piece(
            cut, start, end, prefix.text, tokens, prefix.headings, text_tokens, prefix.path_chars
        )

    # -- lines that never make a piece alone (``outline.Attach``) ------------------------------
    def _attached_units(self, cuts: Cuts, i: int, j: int) -> tuple[list[int], list[int]]:
        """The units of cuts ``i`` to ``j`` (by the index of the cut that starts them) that hold
        one line attached to a neighbour and nothing else: those that lead into the next unit
        (``Attach.NEXT``) and those that trail the previous one (``Attach.PREVIOUS``)."""
        if cuts is self.cuts:  # the document's own cut points: looked at once, in __init__
            leads, trails = self._document_attached
            return (
                leads[bisect_left(leads, i) : bisect_left(leads, j)],
                trails[bisect_left(trails, i) : bisect_left(trails, j)],
            )
        return self._find_attached_units(cuts, i, j)

    def _find_attached_units(self, cuts: Cuts, i: int, j: int) -> tuple[list[int], list[int]]:
        """``_attached_units``, found from the attached lines of the range (few).

        A lead-in over several lines (an HTML comment under a heading, front matter) cut into
        line units makes each of its lines a leading unit: no piece ends inside it or right
        after it, as none ends right after a one-line heading. Units that start inside a line
        (words of a lead-in longer than a chunk) may still end a piece."""
        positions = cuts.positions
        leads: set[int] = set()
        trails: list[int] = []
        for start in self.outline.attached_starts(positions[i], positions[j]):
            k = bisect_right(positions, start, i, j) - 1  # the unit that holds the line
            attach = self._attachment(cuts, k)
            if attach is Attach.PREVIOUS:
                trails.append(k)
            elif attach is Attach.NEXT:
                leads.update(self._lead_in(cuts, k, j, start))
        return sorted(leads), trails

    def _lead_in(self, cuts: Cuts, k: int, j: int, start: int) -> list[int]:
        """Unit ``k``, which leads in, and the line units after it that lie inside the lead-in
        line at ``start`` (a signature, a comment over several lines) with nothing after it; a
        line that trails inside another lead-in (a signature's closing line) adds none."""
        positions, text = cuts.positions, self.text
        line = self.outline.attached_line(start)
        end = line[0] if line is not None and line[1] is Attach.NEXT else start
        units = [k]
        while k + 1 < j and positions[k + 1] < end and text[positions[k + 1] - 1] == "\n":
            k += 1  # the lead-in's next line
            if _CONTENT.search(text, end, max(end, positions[k + 1])):
                break
            units.append(k)
        return units

    def _attachment(self, cuts: Cuts, k: int) -> Attach | None:
        """Which neighbour the unit from cut ``k`` to the next stays with, if it holds one line
        attached to a neighbour and nothing else."""
        start, end = cuts.positions[k], cuts.positions[k + 1]
        line = self.outline.attached_line(start)
        if line is None and self.text[start : start + 1].isspace():  # a sentence's cut
            line_start = text_start(self.text, start, end)
            line = self.outline.attached_line(line_start) if line_start < end else None
        if line is None or _CONTENT.search(self.text, line[0], end):
            return None
        return line[1]

    def _past_attached(self, start: int, end: int, only: Attach | None = None) -> int:
        """Where the text after the attached lines that open ``[start, end)`` begins; with
        ``only``, past those that attach that way alone."""
        while start < end:
            line = self.outline.attached_line(start)
            if line is None or (only is not None and line[1] is not only):
                break
            start = text_start(self.text, line[0], end)
        return start

    def _emit(
        self, cuts: Cuts, i: int, j: int, budget: Budget, tier: int, out: list[Piece]
    ) -> None:
        """Emit the range between cut points ``i`` and ``j`` after an exact count; split it if it
        overflows."""
        start, end = cuts.positions[i], cuts.positions[j]
        piece = self.measure(start, end, budget.limit)
        if piece is None:
            return
        if piece.tokens <= budget.limit:
            out.append(piece)
            return
        # the estimate was off at an unsafe cut: give back the part after the last cut that may
        # end a piece (not the one after a heading: it would leave the heading alone)
        boundaries = self._boundaries(cuts, i, j) if j - i > 1 else ()
        if boundaries:
            last = boundaries[-1]
            self._pack(cuts, i, last, budget, tier, out)
            self._pack(cuts, last, j, budget, tier, out)
        elif whole := self._kept_whole(start, end, budget.limit):
            out.append(whole)
        else:
            self._split_finer(start, end, budget, tier, out)

    def measure(self, cut: int, end: int, budget: int, start: int | None = None) -> Piece | None:
        """The piece for ``[cut, end)`` with its exact token count; None if it holds only spaces.

        Its text begins at ``start`` when given (an overlapped leaf keeps its cut but begins
        earlier), else at the text start after ``cut``."""
        if start is None:
            start = text_start(self.text, cut, end)
        if start >= end:
            return None
        prefix = self.context.for_span(start, end, budget)
        text_tokens = self.index.count(start, end)
        tokens = prefix.tokens + text_tokens
        return Piece(
            cut, start, end, prefix.text, tokens, prefix.headings, text_tokens, prefix.path_chars
        )

    def overlap_starts(self, low: int, high: int, earliest: int = 0) -> list[int]:
        """Where a chunk ending at ``high`` may be extended back to, in ``[low, high)``, in order:
        block starts, list items and headings; sentence starts outside code and tables; and line
        starts when the range lies inside one code block or table (whose pieces reopen it); never
        a bare line (an overlap that is an anchor adds nothing).

        Only those at or after ``earliest`` are returned: an overlap reaches back a few dozen
        tokens, so checking every sentence of the range would be wasted work."""
        positions, levels = self.cuts.positions, self.cuts.levels
        first = bisect_left(positions, max(low, earliest))
        last = bisect_left(positions, high)
        cuts = {positions[k] for k in range(first, last) if levels[k] > Level.AVOID}
        container = self.outline.container_at(low)
        if container is not None and high <= container.end:
            cuts.update(self._line_cuts(max(low, container.body_start) - 1, high))
        elif not self.outline.overlaps_container(low, high):
            cuts.update(self._sentence_cuts(low, high, earliest))
        found = sorted(cut for cut in cuts if low <= cut < high and cut >= earliest)
        if not any(self._trails(start) for start in self.outline.attached_starts(low, high)):
            return found
        return [cut for cut in found if not self._trails(text_start(self.text, cut, high))]

    def _trails(self, position: int) -> bool:
        """Whether a line that stays with the piece before it starts at ``position``."""
        line = self.outline.attached_line(position)
        return line is not None and line[1] is Attach.PREVIOUS

    # -- below the line: sentences, words, tokens ----------------------------------------------
    def _split_finer(self, cut: int, end: int, budget: Budget, tier: int, out: list[Piece]) -> None:
        """Cut one oversized unit at the first finer tier with a cut point inside it: lines
        first in code and tables, sentences first in prose, then words; tokens last."""
        lines, sentences, words = (
            (Level.LINE, self._line_cuts),
            (Level.SENTENCE, self._sentence_cuts),
            (Level.WORD, lambda cut, end: self._word_cuts(cut, end, budget.limit)),
        )
        in_container = self.outline.overlaps_container(cut, end)
        tiers = (lines, sentences, words) if in_container else (sentences, lines, words)
        for next_tier in range(tier, len(tiers)):
            level, find_cuts = tiers[next_tier]
            inner = find_cuts(cut, end)
            if inner:
                local = Cuts.of(
                    array("q", [cut, *inner, end]),
                    array("b", [Level.EDGE, *([level] * len(inner)), Level.EDGE]),
                    self.index,
                )
                self._pack(local, 0, len(inner) + 1, budget, next_tier + 1, out)
                return
        self._split_tokens(text_start(self.text, cut, end), end, budget.limit, out)

    def _line_cuts(self, cut: int, end: int) -> list[int]:
        starts = (m.start() for m in _LINE_START.finditer(self.text, cut + 1, end))
        found = [start for start in starts if start not in self.avoid]
        return [start for start in found if self._starts_row(start)] if self.by_rows else found

    def _starts_row(self, position: int) -> bool:
        """Whether a line start may begin a piece in a container cut by rows (HTML tables)."""
        container = self.outline.container_at(position)
        if container is None or container.row_start is None:
            return True
        return container.row_start.match(self.text, position) is not None

    def _sentence_cuts(self, cut: int, end: int, earliest: int = 0) -> list[int]:
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

    def _word_cuts(self, cut: int, end: int, limit: int) -> list[int]:
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

    def _split_tokens(self, start: int, end: int, budget: int, out: list[Piece]) -> None:
        """Last resort for a run without spaces: windows of whole tokens, each counted exactly."""
        ends = self.index.ends
        position = start
        while position < end:
            room = budget - self.context.upper_bound(position, budget)
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


def _first_content(text: str, start: int, end: int) -> int:
    """Start of the first non-blank line from the line start ``start`` on, before ``end``."""
    found = _CONTENT.search(text, start, end)
    if found is None:
        return end
    return max(start, text.rfind("\n", 0, found.start()) + 1)
