"""Fill the caller's prompt budget with passages an LLM can read: the one function the query and
the evaluation both call.

A search ranks children; the prompt wants sections. Given the hits grouped by parent in rank
order (:class:`Group`) and a budget in tokens, :func:`assemble` chooses what each parent sends:

1. **The first parent whole** (the whole section that makes today's top-1) when it takes at most
   :data:`FIRST_SHARE` of the budget and at most :data:`FIRST_MOST` tokens, or else its longest
   *head* within that room: from its start to the end of one of its hit passages. A section that
   would take more of a small prompt costs more hits than it is worth (on the six question sets,
   pooled, a larger share lost 20 questions within 500 tokens and won none:
   ``docs/evaluation.md``); the room stops growing at :data:`FIRST_MOST` tokens, since a section
   is worth no more in a large prompt, and the tokens it would take past that are hits sent.
2. **Then the hits in the search's rank order**, each joining its parent's passages (touching
   or consecutive children are one passage) when the difference fits; one that does not fit is
   skipped and smaller ones after it may still fit. Hit by hit, not parent by parent: the tenth
   hit of the second parent no longer crowds out the third parent's best hit (on the five
   question sets, pooled, this is what won within 500 to 8,000 tokens: ``docs/evaluation.md``).
   A parent of which :data:`MOSTLY` of the children are sent is then sent whole, when the rest
   fits: the section reads as one passage, and what it costs is its few missing children.
3. **Then the neighbours**: with what is left, each passage one child longer after it, then
   before it, parent by parent in rank order (when the group's children are known).
4. **Then depth**: in rank order, a parent sent in part is sent whole when the difference fits:
   a large budget ends up with whole sections, a small one with the first section and the best
   children of many.

Four options (measured in ``docs/evaluation.md``, *Sets nobody tuned on* and *Seventh pass:
technical docs*), the first three off by default, ``lead_in`` on:
``prefix_once`` says a heading path once per section: a passage whose parent's passage before it
gave the same prefix is sent without it, and a path whose last heading the passage's own first
line is loses that heading (``# 1.2 Notation`` under ``Manual > 1.2 Notation``);
``skip_contents`` sends no hit child that is a table of contents (:func:`contents`: lines of
titles ending in dot leaders and a page number), which matches every heading's words and holds
no answer; ``head_holds_best`` lets step 1 send a head only when it reaches the first parent's
best hit: a head that ends at a weaker hit is the section's opening spent before the passage that
made the section first (a file's licence comment before the line that was asked about).
``lead_in`` sends a child that only leads into the next one (:func:`leads_in`: past its heading
lines, one paragraph ending in a colon, ``in order of decreasing precedence:``) together with
that next child, in step 2 and as the end of step 1's head, or not at all: alone it promises an
answer that the prompt then does not hold.

Nothing is ever cut: a passage is a whole child (which the chunker ended at a sentence, a line or
a row) or a whole parent, so no prompt ends mid-sentence or mid-row. Every passage carries, before
its text, the prefix its chunk is embedded with (``embed_text = prefix + text``): the heading
path, and where the chunk starts inside a table or a code block, the table's header rows or the
fence's opening line. A table row never reaches the model without its header, and the prefix is
counted in the budget. ``start``/``end`` stay the exact offsets of ``text`` in the document, so
citations are unchanged. (Separators between passages are the caller's and are not counted.)

>>> words = lambda text: len(text.split())
>>> first = Group(Piece("d", 0, 9, "one two three", "A\\n"), (Piece("d", 0, 3, "one", "A\\n"),))
>>> second = Group(Piece("d", 9, 20, "four five six", "B\\n"), (Piece("d", 9, 13, "four", "B\\n"),))
>>> [[p.rendered for p in ps] for ps in assemble([first, second], 16, words)]
[['A\\none two three'], ['B\\nfour five six']]
>>> [[p.rendered for p in ps] for ps in assemble([first, second], 5, words)]
[['A\\none'], ['B\\nfour']]

(Within 5, the first section whole, 4 of the 5, would leave no room for the second's hit.)
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from skills.chunking import sentence_starts, without_page_markers
from skills.ranking import ENGLISH_STOP_WORDS, words

#: The most of the budget the first parent (or its head) may take before any hit is sent.
FIRST_SHARE = 0.25
#: The most tokens the first parent (or its head) may take before any hit is sent, however large
#: the budget (``inf``: :data:`FIRST_SHARE` of any budget).
FIRST_MOST = math.inf
#: The share of a parent's children sent from which the parent is sent whole (when it fits).
MOSTLY = 0.75
#: Whether step 1 (the first parent whole, or its head) waits for a first parent that is a
#: headed section (:func:`headed`).
HEADED_FIRST = False
#: Whether a heading path is said once per section (the module docstring's ``prefix_once``).
PREFIX_ONCE = False
#: Whether a hit child that is a table of contents is left out (:func:`contents`).
SKIP_CONTENTS = False
#: Whether step 1's head must reach the first parent's best hit (the module docstring's
#: ``head_holds_best``).
HEAD_HOLDS_BEST = False
#: Whether a child that only leads into the next one is sent with it (the module docstring's
#: ``lead_in``; on since issue 34's seventh pass, ``docs/evaluation.md``).
LEAD_IN = True
#: The share of the budget kept for hits sent as their windows (:func:`window`): whole children
#: stop where only this much is left, and the hits after them are sent as the sentences that hold
#: the question's words (0: whole children only, the default; the module docstring's
#: ``windows``).
WINDOWS = 0.0
#: The most tokens a hit's window grows to around its best sentence (:func:`window`).
WINDOW_TOKENS = 64
#: The share of a passage's non-blank lines that end in dot leaders and a page number from which
#: it is a table of contents.
CONTENTS_SHARE = 0.5
_CONTENTS_LINE = re.compile(r"(?:(?:\.\s?){4,}|…{2,})\s*[0-9ivxlc]+\s*$", re.IGNORECASE)
_PATH_SEPARATOR = " > "
_LINE_END = re.compile(r"\n")
#: Words that ask rather than name (beside the stop words), which no window looks for.
_QUESTION_WORDS = frozenset(
    (
        "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "does", "do",
        "did", "can", "could", "should", "would", "may", "must", "i", "my", "me", "we", "our",
        "you", "your",
    )
)  # fmt: skip
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Piece:
    """A chunk of one document: its exact text ``[start, end)`` and the prefix it is embedded
    with (empty for chunkers that embed the bare text)."""

    doc: str
    start: int
    end: int
    text: str
    prefix: str = ""


@dataclass(frozen=True, slots=True)
class Group:
    """One parent and its hit children (best first); ``parent`` is None for a chunk set without
    parents, or when the parent's text is not at hand: its children are then all it can send.
    ``children`` are all of the parent's children in document order, when known: what a hit
    passage grows by (without them a group sends its hits, or its whole parent)."""

    parent: Piece | None
    hits: tuple[Piece, ...]
    children: tuple[Piece, ...] = ()
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Passage:
    """What the prompt gets from one group: ``rendered`` is sent, ``start``/``end`` cite it."""

    doc: str
    start: int
    end: int
    text: str
    prefix: str
    whole: bool  # the group's whole parent

    @property
    def rendered(self) -> str:
        """The prefix and the text as the model reads them: page markers left out, as the chunk's
        embedding leaves them out (its pages are the chunk's ``pages``; a converted PDF's
        passages began with ``<!-- PageBreak -->``)."""
        return self.prefix + without_page_markers(self.text)


def assemble(
    groups: Sequence[Group],
    budget: int,
    count: Callable[[str], int],
    first_share: float = FIRST_SHARE,
    headed_first: bool = HEADED_FIRST,
    prefix_once: bool = PREFIX_ONCE,
    skip_contents: bool = SKIP_CONTENTS,
    head_holds_best: bool = HEAD_HOLDS_BEST,
    first_most: float = FIRST_MOST,
    lead_in: bool = LEAD_IN,
    question: str = "",
    windows: float = WINDOWS,
    window_tokens: int = WINDOW_TOKENS,
) -> list[list[Passage]]:
    """Each group's passages (in document order; empty when nothing of it fits), whose
    ``count(rendered)`` sum to at most ``budget``; see the module docstring for the order
    (``first_share``: the most of the budget the first parent may take in step 1, and
    ``first_most`` the most tokens;
    ``headed_first``: step 1 only for a first parent that is a headed section, :func:`headed`;
    ``prefix_once``, ``skip_contents``, ``head_holds_best`` and ``lead_in``: the options of the
    module docstring; ``windows`` above 0 with a ``question``: that share of the budget is kept
    for hits sent as their windows of at most ``window_tokens``, :func:`window`)."""
    costs: dict[Passage, int] = {}

    def cost(passages: Sequence[Passage]) -> int:
        for passage in passages:
            if passage not in costs:
                costs[passage] = count(passage.rendered)
        return sum(costs[passage] for passage in passages)

    plans = [_Plan(group, prefix_once, lead_in) for group in groups]
    left = budget

    def take(plan: _Plan, units: Iterable[int], room: float | None = None) -> bool:
        """Send ``units`` more of ``plan`` if the difference fits what is left (and ``room``)."""
        nonlocal left
        wanted = plan.chosen | frozenset(units)
        extra = cost(plan.passages(wanted)) - cost(plan.passages(plan.chosen))
        if wanted == plan.chosen or extra > (left if room is None else min(left, room)):
            return False
        plan.chosen, left = wanted, left - extra
        return True

    terms = question_terms(question) if windows > 0 else frozenset()
    kept = budget * windows if terms else 0.0

    def take_window(plan: _Plan, unit: int) -> bool:
        """Send hit ``unit`` of ``plan`` as its window, if it has one and the difference fits."""
        nonlocal left
        if unit in plan.chosen or unit in plan.windows:
            return False
        piece = plan.units[unit]
        span = window(piece.text, terms, window_tokens, count)
        if span is None:
            return False
        before = cost(plan.passages(plan.chosen))
        plan.windows[unit] = (piece.start + span[0], piece.start + span[1])
        extra = cost(plan.passages(plan.chosen)) - before
        if extra > left:
            del plan.windows[unit]
            return False
        left -= extra
        return True

    def listed(piece: Piece | None) -> bool:
        """A table of contents, when those are left out: never sent, whole or as a hit."""
        return skip_contents and piece is not None and contents(piece.text)

    share = min(budget * first_share, first_most)
    first_parent = plans[0].group.parent if plans else None
    if (
        first_parent is not None
        and (headed(first_parent) or not headed_first)
        and not listed(first_parent)
    ):
        first = plans[0]
        shortest = first.hit_units[0] if head_holds_best and first.hit_units else 0
        if not take(first, first.everything, share):
            for end in sorted({run[-1] for run in first.runs(first.hits)}, reverse=True):
                if end < shortest:
                    break  # a head without the best hit
                end = first.led_to(end)  # a head never ends on a lead-in: with what it leads to
                if first.has_head(end) and take(first, first.head(end), share):
                    break  # the longest head that fits
    for number, unit in _by_rank(groups, plans):
        plan = plans[number]
        if listed(plan.units[unit]):
            continue
        if not take(plan, plan.with_led(unit), left - kept):
            if kept:
                take_window(plan, unit)
            continue
        if plan.known and len(plan.chosen) >= MOSTLY * len(plan.units):
            take(plan, plan.everything, left - kept)
    for plan in plans:
        for run in plan.runs(plan.chosen) if plan.known else ():
            for neighbour in (run[-1] + 1, run[0] - 1):
                if 0 <= neighbour < len(plan.units) and not listed(plan.units[neighbour]):
                    take(plan, [neighbour])
    for plan in plans:
        if plan.group.parent is not None and not listed(plan.group.parent):
            take(plan, plan.everything)
    return [plan.passages(plan.chosen) for plan in plans]


def headed(parent: Piece) -> bool:
    """Whether a parent is a section under a heading: it is embedded with a heading path, or its
    text opens with a Markdown heading. A window of headingless prose, a cover page or the
    badges atop a README is not: its start is where a size limit or the file began.

    >>> headed(Piece("d", 0, 9, "# Install", "")), headed(Piece("d", 0, 9, "Mr. Speaker", ""))
    (True, False)
    """
    return bool(parent.prefix.strip()) or parent.text.lstrip().startswith("#")


def leads_in(text: str) -> bool:
    """Whether a child's text only leads into what follows it: past its Markdown heading lines,
    one paragraph (no blank line inside) that ends in a colon. A paragraph that states something
    and then introduces an example is in a longer child, or its child's overlap carries it.

    >>> leads_in("### Value sources\\n\\nClick resolves it from these sources, in order:\\n\\n")
    True
    >>> leads_in("The default is five seconds.\\n\\nYou can change it:"), leads_in("### Usage:")
    (False, False)
    """
    lines = text.strip().splitlines()
    past = next(
        (n for n, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")),
        len(lines),
    )  # (its headings passed over at once: popped one by one, they cost their count squared)
    rest = lines[past:]
    return bool(rest) and all(line.strip() for line in rest) and rest[-1].rstrip().endswith(":")


def question_terms(question: str) -> frozenset[str]:
    """The words of a question a window looks for: its keyword terms less English stop words and
    question words.

    >>> sorted(question_terms("What is the deductible for a Pet's illness?"))
    ['deductible', 'illness', "pet's"]
    """
    return frozenset(words(question)) - ENGLISH_STOP_WORDS - _QUESTION_WORDS


def window(
    text: str, terms: frozenset[str], most: int, count: Callable[[str], int]
) -> tuple[int, int] | None:
    """The offsets in ``text`` of a hit's window: the sentence (or line) that holds the most of
    ``terms``, grown by the sentences after it, then before it, while within ``most`` tokens;
    None when no sentence holds any (a hit found by meaning alone has no words to point at).
    The first of equals wins; a window is always whole sentences, never a cut word.

    >>> text = "Pets are covered. The deductible is 200 dollars. It resets yearly. Claims go on."
    >>> a, b = window(text, frozenset({"deductible"}), 9, lambda t: len(t.split()))
    >>> text[a:b]
    'The deductible is 200 dollars. It resets yearly. '
    """
    pieces = _sentences(text)
    scores = [len(terms.intersection(words(text[a:b]))) for a, b in pieces]
    if not pieces or max(scores) == 0:
        return None
    best = scores.index(max(scores))
    first = last = best
    size = count(text[slice(*pieces[best])])
    for step in (1, -1):
        while 0 <= (last if step > 0 else first) + step < len(pieces):
            nearest = (last if step > 0 else first) + step
            more = count(text[slice(*pieces[nearest])])
            if size + more > most:
                break
            size += more
            first, last = min(first, nearest), max(last, nearest)
    return pieces[first][0], pieces[last][1]


def _sentences(text: str) -> list[tuple[int, int]]:
    """``text`` cut at its sentence starts and line ends, blank pieces left out."""
    cuts = {0, len(text), *sentence_starts(text)}
    cuts.update(match.end() for match in _LINE_END.finditer(text))
    ordered = sorted(cuts)
    return [(a, b) for a, b in itertools.pairwise(ordered) if text[a:b].strip()]


def contents(text: str) -> bool:
    """Whether a text is a table of contents: at least :data:`CONTENTS_SHARE` of its non-blank
    lines end in dot leaders (or an ellipsis) and a page number.

    >>> contents("1 Introduction . . . . . . 1\\n1.1 Legalese . . . . . . 1\\n")
    True
    >>> contents("Dots . . . . are fine in prose, 1\\nwhen they are few.\\nAnd short.")
    False
    """
    lines = [line for line in text.splitlines() if line.strip()]
    listed = sum(1 for line in lines if _CONTENTS_LINE.search(line))
    return bool(lines) and listed >= CONTENTS_SHARE * len(lines)


def said_once(passages: Sequence[Passage]) -> list[Passage]:
    """The passages of one section in document order, each heading path said once: a passage
    whose prefix the one before it gave is sent without it, and the last heading of a path is
    dropped where the passage's first line is that heading (a prefix of several lines, a table's
    header or a fence's opening line, is kept as it is).

    >>> [p.prefix for p in said_once([Passage("d", 0, 5, "# B\\nx", "A > B\\n\\n", False),
    ...                               Passage("d", 9, 12, "y", "A > B\\n\\n", False)])]
    ['A\\n\\n', '']
    """
    result: list[Passage] = []
    given = None
    for passage in passages:
        prefix = "" if passage.prefix and passage.prefix == given else passage.prefix
        given = passage.prefix or given
        result.append(replace(passage, prefix=_without_repeated_heading(prefix, passage.text)))
    return result


def _without_repeated_heading(prefix: str, text: str) -> str:
    """``prefix`` less its path's last heading when ``text`` opens with that heading's line."""
    path = prefix.strip()
    first_line = text.lstrip().split("\n", 1)[0]
    if not path or "\n" in path or not first_line.startswith("#"):
        return prefix
    *outer, last = path.split(_PATH_SEPARATOR)
    if not set(_WORD.findall(last.lower())) <= set(_WORD.findall(first_line.lower())):
        return prefix
    return _PATH_SEPARATOR.join(outer) + prefix[len(prefix.rstrip()) :] if outer else ""


def _by_rank(groups: Sequence[Group], plans: Sequence[_Plan]) -> list[tuple[int, int]]:
    """Every hit as (group number, unit) in the search's rank order; groups that do not give
    their hits' ranks keep group order."""
    ranked = [
        (group.ranks[order] if group.ranks else 0, number, order, unit)
        for number, (group, plan) in enumerate(zip(groups, plans, strict=True))
        for order, unit in enumerate(plan.hit_units)
    ]
    return [(number, unit) for _, number, _, unit in sorted(ranked)]


#: The units that stand for the whole parent, and for its head to the end of hit ``i``
#: (``_HEAD - i``), when its children are not known.
_WHOLE = -1
_HEAD = -2


class _Plan:
    """What one group sends: a set of its *units* (its children when they are known, else its
    hits) whose consecutive runs are its passages; all of them, or ``_WHOLE``, is its parent."""

    def __init__(self, group: Group, prefix_once: bool = False, lead_in: bool = False) -> None:
        self.group = group
        self.prefix_once = prefix_once
        self.lead_in = lead_in
        where = {(child.doc, child.start, child.end): i for i, child in enumerate(group.children)}
        hits = [where.get((hit.doc, hit.start, hit.end)) for hit in group.hits]
        self.known = group.parent is not None and bool(where) and None not in hits
        if self.known:
            self.units: Sequence[Piece] = group.children
            self.hit_units = [i for i in hits if i is not None]
            self.everything = frozenset(range(len(self.units)))
        else:
            order = sorted(range(len(group.hits)), key=lambda i: _place(group.hits[i]))
            self.units = [group.hits[i] for i in order]
            self.hit_units = sorted(range(len(order)), key=lambda unit: order[unit])
            every = frozenset(range(len(self.units)))
            self.everything = frozenset([_WHOLE]) if group.parent is not None else every
        self.hits = frozenset(self.hit_units)
        self.chosen: frozenset[int] = frozenset()
        #: hits sent as their windows (``windows``): unit -> the window's offsets in the document
        self.windows: dict[int, tuple[int, int]] = {}

    def led_to(self, unit: int) -> int:
        """The child a lead-in ``unit`` leads to (``lead_in``, children known), else ``unit``."""
        if (
            self.lead_in
            and self.known
            and unit + 1 < len(self.units)
            and leads_in(self.units[unit].text)
        ):
            return unit + 1
        return unit

    def with_led(self, unit: int) -> list[int]:
        """``unit``, and the child it leads into when it only leads in (``lead_in``)."""
        return sorted({unit, self.led_to(unit)})

    def has_head(self, last: int) -> bool:
        """Whether unit ``last`` ends inside the parent, so that a head can end with it."""
        parent = self.group.parent
        return parent is not None and parent.start < self.units[last].end < parent.end

    def head(self, last: int) -> frozenset[int]:
        """The parent from its start to the end of unit ``last``."""
        if self.known:
            return frozenset(range(last + 1))
        return frozenset([_HEAD - last])

    def runs(self, units: Iterable[int]) -> list[list[int]]:
        """``units`` in document order, cut where two are not next to each other (children:
        not consecutive; hits: not touching)."""
        runs: list[list[int]] = []
        for unit in sorted(unit for unit in units if unit >= 0):
            if runs and self._next_to(runs[-1], unit):
                runs[-1].append(unit)
            else:
                runs.append([unit])
        return runs

    def _next_to(self, run: list[int], unit: int) -> bool:
        if self.known:
            return unit == run[-1] + 1
        last, piece = self.units[run[-1]], self.units[unit]
        return piece.doc == last.doc and piece.start <= max(self.units[i].end for i in run)

    def passages(self, units: frozenset[int]) -> list[Passage]:
        passages = self._passages(units)
        if self.windows:
            passages = self._with_windows(passages)
        return said_once(passages) if self.prefix_once else passages

    def _with_windows(self, passages: list[Passage]) -> list[Passage]:
        """``passages`` and the windows of hits they do not hold, in document order."""
        result = list(passages)
        for unit, (start, end) in self.windows.items():
            piece = self.units[unit]
            if any(p.start <= start and end <= p.end for p in passages):
                continue  # its child came whole since (a neighbour, the section)
            text = piece.text[start - piece.start : end - piece.start]
            result.append(Passage(piece.doc, start, end, text, piece.prefix, False))
        return sorted(result, key=lambda p: (p.doc, p.start, p.end))

    def _passages(self, units: frozenset[int]) -> list[Passage]:
        parent = self.group.parent
        if _WHOLE in units and parent is not None:
            return _whole(parent)
        if not self.known:
            heads = [_HEAD - unit for unit in units if unit <= _HEAD]
            if not heads or parent is None:
                return joined([self.units[unit] for unit in units if unit >= 0])
            end = self.units[max(heads)].end
            head = _head(_whole(parent)[0], end)
            rest = [self.units[unit] for unit in units if unit >= 0 and self.units[unit].end > end]
            return [head, *joined(rest)]
        assert parent is not None
        return [self._run(parent, run) for run in self.runs(units)]

    def _run(self, parent: Piece, run: list[int]) -> Passage:
        """Children ``run`` as one passage; from the parent's start it is the parent's head, with
        the parent's prefix, and to its end too it is the whole parent."""
        first, last = run[0], run[-1]
        whole = first == 0 and last == len(self.units) - 1
        if whole:
            return _whole(parent)[0]
        start = parent.start if first == 0 else self.units[first].start
        end = self.units[last].end
        prefix = parent.prefix if first == 0 else self.units[first].prefix
        text = parent.text[start - parent.start : end - parent.start]
        return Passage(parent.doc, start, end, text, prefix, False)


def _place(piece: Piece) -> tuple[str, int, int]:
    return piece.doc, piece.start, piece.end


def _whole(parent: Piece) -> list[Passage]:
    return [Passage(parent.doc, parent.start, parent.end, parent.text, parent.prefix, True)]


def _head(passage: Passage, end: int) -> Passage:
    """The passage cut at ``end`` (a child's end), with its prefix: never the whole parent."""
    text = passage.text[: end - passage.start]
    return Passage(passage.doc, passage.start, end, text, passage.prefix, False)


def joined(hits: Sequence[Piece]) -> list[Passage]:
    """The hits in document order, touching or overlapping ones joined into one passage with the
    prefix of its first piece (where the passage starts is what it reopens).

    >>> joined([Piece("d", 4, 8, "cdef", "P2\\n"), Piece("d", 0, 6, "abcd", "P1\\n")])
    [Passage(doc='d', start=0, end=8, text='abcdef', prefix='P1\\n', whole=False)]
    """
    passages: list[Passage] = []
    for piece in sorted(hits, key=lambda p: (p.doc, p.start, p.end)):
        last = passages[-1] if passages else None
        if last is not None and last.doc == piece.doc and piece.start <= last.end:
            if piece.end > last.end:
                text = last.text + piece.text[last.end - piece.start :]
                passages[-1] = Passage(last.doc, last.start, piece.end, text, last.prefix, False)
            continue
        passages.append(Passage(piece.doc, piece.start, piece.end, piece.text, piece.prefix, False))
    return passages
