"""Fill the caller's prompt budget with passages an LLM can read: the one function the query and
the evaluation both call.

A search ranks children; the prompt wants sections. Given the hits grouped by parent in rank
order (:class:`Group`) and a budget in tokens, :func:`assemble` chooses what each parent sends:

1. **Breadth first.** In rank order, the first parent whole (the first result keeps the whole
   section that makes today's top-1), then every other parent as its hit children, touching or
   overlapping ones joined into one passage. A passage that does not fit what is left is sent
   as its longest *head* that fits: cut where one of its hit children ends (where the chunker
   ended a child: at a sentence, a line or a row), or skipped when not even its first child
   fits; smaller passages after it may still fit.
2. **Then depth.** With what is left, again in rank order, a parent sent as children is sent
   whole instead when the difference fits: a large budget ends up with whole sections, a small
   one with the first section and the best children of many.

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
>>> [[p.rendered for p in ps] for ps in assemble([first, second], 6, words)]
[['A\\none two three'], ['B\\nfour']]
>>> [[p.rendered for p in ps] for ps in assemble([first, second], 8, words)]
[['A\\none two three'], ['B\\nfour five six']]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


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
    parents, or when the parent's text is not at hand: its children are then all it can send."""

    parent: Piece | None
    hits: tuple[Piece, ...]


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
        return self.prefix + self.text


def assemble(
    groups: Sequence[Group], budget: int, count: Callable[[str], int]
) -> list[list[Passage]]:
    """Each group's passages (in document order; empty when nothing of it fits), whose
    ``count(rendered)`` sum to at most ``budget``; see the module docstring for the order."""
    costs: dict[Passage, int] = {}

    def cost(passages: Sequence[Passage]) -> int:
        for passage in passages:
            if passage not in costs:
                costs[passage] = count(passage.rendered)
        return sum(costs[passage] for passage in passages)

    def fitting(passage: Passage, ends: Sequence[int], left: int) -> Passage | None:
        """The passage, else its longest head ending at one of ``ends``, within ``left``."""
        inner = sorted((end for end in ends if passage.start < end < passage.end), reverse=True)
        for candidate in [passage, *(_head(passage, end) for end in inner)]:
            if cost([candidate]) <= left:
                return candidate
        return None

    left = budget
    chosen: list[list[Passage]] = [[] for _ in groups]
    for number, group in enumerate(groups):
        runs = joined(group.hits)
        ends = [run.end for run in runs]
        head = None
        whole = _whole(group)
        if number == 0 and whole:
            head = fitting(whole[0], ends, left)
        if head is not None:
            chosen[number].append(head)
            left -= cost([head])
        for run in runs:
            if head is not None and run.end <= head.end:
                continue
            taken = fitting(run, [hit.end for hit in group.hits], left)
            if taken is not None:
                chosen[number].append(taken)
                left -= cost([taken])
    for number, group in enumerate(groups):
        whole = _whole(group)
        if whole and chosen[number] != whole:
            extra = cost(whole) - cost(chosen[number])
            if extra <= left:
                chosen[number], left = whole, left - extra
    return chosen


def _whole(group: Group) -> list[Passage]:
    parent = group.parent
    if parent is None:
        return []
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
