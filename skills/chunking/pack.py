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

from skills.chunking.finer import FinerCuts
from skills.chunking.levels import Level
from skills.chunking.outline import Attach, Outline
from skills.chunking.piece import Budget, Cuts, Piece, text_start
from skills.chunking.prefix import PrefixBuilder
from skills.chunking.tidy import absorb_small, no_word_for_company
from skills.chunking.token_index import TokenIndex

#: Parts may exceed an even share of their range by this factor (never the budget).
BALANCE_SLACK = 1.15
_CONTENT = re.compile(r"\S")


@dataclass(frozen=True, slots=True)
class Task:
    """What the recursive core carries down a ``pack`` call: the ``budget``, the finer tier a
    unit too big alone is cut at next (``_split_finer``; 0: lines or sentences first), and
    ``out``, the pieces made so far, in document order."""

    budget: Budget
    tier: int
    out: list[Piece]


class Packer:
    """Packs ranges of one document, nested ones too (parents, then the children in each)."""

    def __init__(
        self, text: str, index: TokenIndex, outline: Outline, prefixes: PrefixBuilder
    ) -> None:
        self.text = text
        self.index = index
        self.prefixes = prefixes
        self.outline = outline
        self.finer = FinerCuts(text, index, outline, prefixes, self.measure)
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
        pieces = self._packed(cut, end, budget)  # the recursive core, with its fallbacks
        pieces = absorb_small(self, pieces, budget)  # scraps join a neighbour
        return no_word_for_company(self, pieces, budget)  # no piece ends a few words in

    def repack(self, cut: int, end: int, budget: Budget) -> list[Piece]:
        """``pack`` but for its last pass (``tidy.no_word_for_company``, which asks for it)."""
        return absorb_small(self, self._packed(cut, end, budget), budget)

    def _packed(self, cut: int, end: int, budget: Budget) -> list[Piece]:
        """The pieces of ``[cut, end)`` as the recursive core cuts them, before any clean-up."""
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
            self._pack(self.cuts, first, last, Task(budget, 0, out))
        else:  # a range cut inside a line (a parent of a long paragraph): its own cut points
            inner = positions[bisect_right(positions, cut) : last]
            local = Cuts.of(
                array("q", [cut, *inner, end]),
                array("b", [Level.EDGE, *levels[last - len(inner) : last], Level.EDGE]),
                self.index,
            )
            self._pack(local, 0, len(local.positions) - 1, Task(budget, 0, out))
        return out

    # -- the recursive packer: why a cut is where it is, read top-down -----------------------
    def _fits(self, cuts: Cuts, i: int, j: int, budget: int) -> bool:
        estimate = cuts.cumulative[j] - cuts.cumulative[i]
        if estimate > budget:
            return False
        return self.prefixes.upper_bound(cuts.positions[i], budget) + estimate <= budget

    def _pack(self, cuts: Cuts, i: int, j: int, task: Task) -> None:
        """Pack the range between cut points ``i`` and ``j``: one piece if it fits the target,
        else cut at the best of the cuts that may end a piece in it (``_boundaries``). A range
        with none is one unit, with the lines attached to it: one piece if it fits the limit,
        else cut by the first fallback of ``_pack_unit`` that applies. So is a range that is
        one section an outline keeps whole (a definition in code, ``Outline.whole_sections``)."""
        budget = task.budget
        boundaries = self._boundaries(cuts, i, j)
        unit = not boundaries or self._is_whole_section(cuts, i, j)
        if self._fits(cuts, i, j, budget.target) or (unit and self._fits(cuts, i, j, budget.limit)):
            self._emit(cuts, i, j, task)
        elif (k := self._section_led_into(cuts, i, j, budget)) is not None:
            self._cut_at_best(cuts, i, j, [k], task)
        elif boundaries:
            self._cut_at_best(cuts, i, j, boundaries, task)
        else:
            self._pack_unit(cuts, i, j, task)

    def _is_whole_section(self, cuts: Cuts, i: int, j: int) -> bool:
        """Whether cut points ``i`` to ``j`` hold a section the outline keeps whole, and after
        it only lines with no cut point among them (an ``elif`` line after a definition)."""
        if not self.outline.whole_sections:
            return False
        ends = self.outline.section_ends(cuts.positions[i])
        return any(cuts.positions[j - 1] < end <= cuts.positions[j] for end in ends)

    def _section_led_into(self, cuts: Cuts, i: int, j: int, budget: Budget) -> int | None:
        """The cut where a section the outline keeps whole starts, when the range opens with
        lines that lead into it and the section fits the limit only without them: a closure
        right under its factory's signature, a class's first method right under the class line.
        The piece then starts at the section; the lines before it stand alone (and join a
        neighbour they fit with, ``tidy.absorb_small``), where they ran into it before."""
        if not self.outline.whole_sections:
            return None
        leads, _ = self._attached_units(cuts, i, j)
        positions = cuts.positions
        k = i
        while k in leads and k + 1 < j:
            k += 1
            for end in self.outline.section_ends(positions[k]):
                m = bisect_left(positions, end, k + 1, j + 1)
                if m <= j and self._fits(cuts, k, m, budget.limit):
                    return k
        return None

    def _cut_at_best(
        self,
        cuts: Cuts,
        i: int,
        j: int,
        boundaries: Sequence[int],
        task: Task,
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
        goal = task.budget.target
        room = max(1, goal - self.prefixes.upper_bound(positions[i], goal))
        total = cumulative[j] - cumulative[i]
        target = total / -(-total // room) * BALANCE_SLACK
        k = 0
        while k < len(chosen) - 1:
            first = chosen[k]
            # ``_fits`` for every end at once: the prefix bound depends on the start alone
            text_room = goal - self.prefixes.upper_bound(positions[first], goal)
            reach = min(target, text_room)
            k += 1
            while k < len(chosen) - 1 and cumulative[chosen[k + 1]] - cumulative[first] <= reach:
                k += 1
            last = chosen[k]
            if cumulative[last] - cumulative[first] <= text_room:
                self._emit(cuts, first, last, task)
            else:
                self._pack(cuts, first, last, task)

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
    def _pack_unit(self, cuts: Cuts, i: int, j: int, task: Task) -> None:
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
            if fallback(cuts, i, j, task):
                return
        self._split_finer(cuts.positions[i], cuts.positions[j], task)

    def _cut_off_empty_sections(self, cuts: Cuts, i: int, j: int, task: Task) -> bool:
        """When headings end the range (empty sections, with nothing after them to lead into):
        cut before them."""
        leads, trails = self._attached_units(cuts, i, j)
        first, stop = self._between_attached(i, j, {*leads, *trails})
        ending = [k for k in range(stop, j) if k not in trails] if first < j else []
        if ending:
            self._cut_at_best(cuts, i, j, ending, task)
        return bool(ending)

    def _keep_block_whole(self, cuts: Cuts, i: int, j: int, task: Task) -> bool:
        """When the unit is a code block or table (or a line or row of one) that fits under a
        shorter heading path: keep it whole so (``_kept_whole``)."""
        whole = self._kept_whole(cuts.positions[i], cuts.positions[j], task.budget.limit)
        if whole is not None:
            task.out.append(whole)
        return whole is not None

    def _cut_before_block(self, cuts: Cuts, i: int, j: int, task: Task) -> bool:
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
            piece = self.measure(positions[k], end, task.budget.limit)
            if (piece is not None and piece.tokens <= task.budget.limit) or self._kept_whole(
                positions[k], end, task.budget.limit
            ):
                self._cut_at_best(cuts, i, j, [k], task)
                return True
        return False

    def _cut_off_bare_tail(self, cuts: Cuts, i: int, j: int, task: Task) -> bool:
        """When lines that trail end the range (a ``---`` after a table) and the code block or
        table before them fits the limit without them: cut before them."""
        _, trails = self._attached_units(cuts, i, j)
        k = j
        while k - 1 > i and k - 1 in trails:
            k -= 1
        if (
            k == j
            or self._kept_whole(cuts.positions[i], cuts.positions[k], task.budget.limit) is None
        ):
            return False
        self._cut_at_best(cuts, i, j, [k], task)
        return True

    def _kept_whole(self, cut: int, end: int, limit: int) -> Piece | None:
        """``[cut, end)`` as one piece under a shorter heading path, if it is a code block or a
        table (after the lines that lead into it) or one line or row of one, and fits ``limit``
        so: a block is cut only when it alone exceeds the budget, and its heading path gives way
        first (see ``PrefixBuilder.fitted``)."""
        text, outline = self.text, self.outline
        start = text_start(text, cut, end)
        text_tokens = self.index.count(start, end)
        if text_tokens > limit:
            return None
        first, block = start, outline.container_at(start)
        if block is None or block.start == start:  # (indented code's body starts with it)
            first = self.past_attached(start, end)  # past the lines that lead into it
            block = outline.container_starting_in(first, first + 1)
        if block is None:
            return None
        # only trailing lines may follow the block, and a part of one must be one line or row
        rest = text_start(text, block.end, end)
        if self.past_attached(rest, end, only=Attach.PREVIOUS) < end:
            return None
        whole = first == block.start and end >= block.end
        if not whole and self.finer.lines(first, min(end, block.end)):
            return None
        prefix = self.prefixes.fitted(start, end, limit - text_tokens)
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

    def past_attached(self, start: int, end: int, only: Attach | None = None) -> int:
        """Where the text after the attached lines that open ``[start, end)`` begins; with
        ``only``, past those that attach that way alone."""
        while start < end:
            line = self.outline.attached_line(start)
            if line is None or (only is not None and line[1] is not only):
                break
            start = text_start(self.text, line[0], end)
        return start

    def _emit(self, cuts: Cuts, i: int, j: int, task: Task) -> None:
        """Emit the range between cut points ``i`` and ``j`` after an exact count; split it if it
        overflows."""
        start, end = cuts.positions[i], cuts.positions[j]
        piece = self.measure(start, end, task.budget.limit)
        if piece is None:
            return
        if piece.tokens <= task.budget.limit:
            task.out.append(piece)
            return
        # the estimate was off at an unsafe cut: give back the part after the last cut that may
        # end a piece (not the one after a heading: it would leave the heading alone)
        boundaries = self._boundaries(cuts, i, j) if j - i > 1 else ()
        if boundaries:
            last = boundaries[-1]
            self._pack(cuts, i, last, task)
            self._pack(cuts, last, j, task)
        elif whole := self._kept_whole(start, end, task.budget.limit):
            task.out.append(whole)
        else:
            self._split_finer(start, end, task)

    def measure(self, cut: int, end: int, budget: int, start: int | None = None) -> Piece | None:
        """The piece for ``[cut, end)`` with its exact token count; None if it holds only spaces.

        Its text begins at ``start`` when given (an overlapped leaf keeps its cut but begins
        earlier), else at the text start after ``cut``."""
        if start is None:
            start = text_start(self.text, cut, end)
        if start >= end:
            return None
        prefix = self.prefixes.for_span(start, end, budget)
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
            cuts.update(self.finer.lines(max(low, container.body_start) - 1, high))
        elif not self.outline.overlaps_container(low, high):
            cuts.update(self.finer.sentences(low, high, earliest))
        found = sorted(cut for cut in cuts if low <= cut < high and cut >= earliest)
        if not any(self._trails(start) for start in self.outline.attached_starts(low, high)):
            return found
        return [cut for cut in found if not self._trails(text_start(self.text, cut, high))]

    def _trails(self, position: int) -> bool:
        """Whether a line that stays with the piece before it starts at ``position``."""
        line = self.outline.attached_line(position)
        return line is not None and line[1] is Attach.PREVIOUS

    # -- below the line: the finer tiers (``finer.FinerCuts``), tried in turn ------------------
    def _split_finer(self, cut: int, end: int, task: Task) -> None:
        """Cut one oversized unit at the first finer tier with a cut point inside it: lines
        first in code and tables, sentences first in prose, then words; tokens last."""
        lines, sentences, words = (
            (Level.LINE, self.finer.lines),
            (Level.SENTENCE, self.finer.sentences),
            (Level.WORD, lambda cut, end: self.finer.words(cut, end, task.budget.limit)),
        )
        in_container = self.outline.overlaps_container(cut, end)
        tiers = (lines, sentences, words) if in_container else (sentences, lines, words)
        for next_tier in range(task.tier, len(tiers)):
            level, find_cuts = tiers[next_tier]
            inner = find_cuts(cut, end)
            if inner:
                local = Cuts.of(
                    array("q", [cut, *inner, end]),
                    array("b", [Level.EDGE, *([level] * len(inner)), Level.EDGE]),
                    self.index,
                )
                self._pack(local, 0, len(inner) + 1, Task(task.budget, next_tier + 1, task.out))
                return
        self.finer.token_windows(text_start(self.text, cut, end), end, task.budget.limit, task.out)


def _first_content(text: str, start: int, end: int) -> int:
    """Start of the first non-blank line from the line start ``start`` on, before ``end``."""
    found = _CONTENT.search(text, start, end)
    if found is None:
        return end
    return max(start, text.rfind("\n", 0, found.start()) + 1)
