"""What a search hit returns to the prompt: the decision the budget metric measures.

The retriever ranks leaves; a *return policy* turns that ranking into the ordered, distinct
contexts an application would send. Policies, by name:

- ``child``: each leaf itself (flat strategies have nothing else).
- ``parent``: the leaf's parent section, each parent once at the rank of its best leaf
  (a leaf without parent returns itself).
- ``top-parent``: what the query returns by default: the leaves it fetches grouped by parent, in
  the order of each parent's best leaf; the first parent whole, the other parents as their hit
  leaves (touching ones joined). The first context has its whole section, the rest cost little.
- ``neighbours:N``: the leaf widened to N leaves on each side in the same document.
- ``merge:R``: leaves of the top ``MERGE_WINDOW`` hits are grouped by parent; a parent whose hit
  leaves cover at least R of its characters is returned whole (at its best leaf's rank), the other
  leaves are returned alone. This is LlamaIndex's auto-merging idea, measured by coverage.
- ``parent-max:T``: the parent when it is at most T tokens, else the leaf (a parent size bound
  applied at query time).
- ``window:T``: the leaf grown by whole neighbouring leaves of the same parent (same document for
  flat sets), one side then the other, while the span stays within T tokens: a context of about
  T tokens centred on the hit that never leaves its section.
- ``budget``: what the query sends for a prompt budget (:func:`prompt`, the query's own
  :func:`skills.search.assembly.assemble` over the hits it fetches): the prompt is assembled for
  each budget, passages with their prefixes, never cut. Without a budget (the rank metrics) it
  returns every fetched parent whole. ``budget:S`` lets the first parent take up to S of the
  budget (``assembly.FIRST_SHARE`` by default; ``budget:1`` is the order before that cap), and
  ``budget+first:T`` up to T tokens at most, however large the budget (``assembly.FIRST_MOST``
  by default).

A context wholly inside an earlier context is skipped: it would add nothing to the prompt. Given
the leaves' texts (``text_of``), a hit whose text the hits before it already hold opens no context
of its own, as the query groups them (``skills.search.collapse.group_by_parent``): the same
paragraph in another document adds nothing either.

>>> from skills.evaluation.chunksets import ChunkSet, Leaf
>>> a, b = Span("d", 0, 10), Span("d", 10, 20)
>>> chunks = ChunkSet((Leaf(a, "", 0), Leaf(b, "", 0)), (Span("d", 0, 20),))
>>> returned([1, 0], chunks, "child")
[Span(doc='d', start=10, end=20), Span(doc='d', start=0, end=10)]
>>> returned([1, 0], chunks, "parent")
[Span(doc='d', start=0, end=20)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skills.evaluation.chunksets import ChunkSet
from skills.evaluation.spans import Span, union_length
from skills.search.assembly import FIRST_MOST, FIRST_SHARE, Group, Piece, assemble
from skills.search.collapse import MERGE_WINDOW, distinct_hits, merge_spans, section_order
from skills.search.query import FETCHED_CHILDREN, children_for_budget

#: The policy whose prompt is assembled for each budget (:func:`prompt`).
BUDGET = "budget"


#: Options a ``budget`` policy name may add after ``+`` (``budget+headed``, ``budget:0.2+once``),
#: each the ``skills.search.assembly.assemble`` argument it turns on: ``headed`` sends the first
#: parent (step 1) only when it is a headed section, ``once`` says a heading path once per
#: section, ``notoc`` leaves tables of contents out, ``tophead`` sends a head only when it reaches
#: the first parent's best hit, ``leadin`` sends a child that only leads into the next with it.
#: The policy option that reorders the fetched hits by their sections' evidence
#: (``+sections:WEIGHT``, :func:`skills.search.collapse.section_order`).
SECTIONS = "sections"
#: The policy option that bounds step 1 in tokens (``+first:TOKENS``, ``assemble``'s
#: ``first_most``).
FIRST = "first"
#: The policy option that keeps a share of the budget for hits sent as their windows
#: (``+windows:SHARE``, ``assemble``'s ``windows``; the question is the window's words).
WINDOWS = "windows"
BUDGET_OPTIONS = {
    "headed": "headed_first",
    "once": "prefix_once",
    "notoc": "skip_contents",
    "tophead": "head_holds_best",
    "leadin": "lead_in",
}


@dataclass(frozen=True, slots=True)
class Policy:
    """A parsed policy name: ``kind``, its numeric argument (0 when it has none) and options."""

    kind: str
    argument: float = 0.0
    options: frozenset[str] = frozenset()
    #: ``+sections:W``: the weight of section evidence (``section_order``), 0 when off
    sections: float = 0.0
    #: ``+first:T``: the most tokens step 1 may take (``assemble``'s ``first_most``)
    first_most: float = FIRST_MOST
    #: ``+windows:S``: the share of the budget kept for hits' windows (``assemble``'s ``windows``)
    windows: float = 0.0

    @property
    def assembly(self) -> dict[str, bool]:
        """The ``assemble`` arguments the options turn on (the others keep their defaults).

        >>> parse_policy("budget+once+notoc").assembly
        {'skip_contents': True, 'prefix_once': True}
        """
        return {BUDGET_OPTIONS[option]: True for option in sorted(self.options)}

    def assembly_for(self, question: str) -> dict[str, Any]:
        """The ``assemble`` arguments for one question: :attr:`assembly`, and with
        ``+windows:S`` the share kept for windows and the question whose words they hold.

        >>> parse_policy("budget+windows:0.25").assembly_for("Which port?")
        {'windows': 0.25, 'question': 'Which port?'}
        """
        windows = {"windows": self.windows, "question": question} if self.windows else {}
        return {**self.assembly, **windows}


def parse_policy(name: str) -> Policy:
    """``"merge:0.5"`` -> ``Policy("merge", 0.5)``; unknown names raise ``ValueError``.

    >>> parse_policy("budget:0.2+headed").options, parse_policy("budget+windows:0.25").windows
    (frozenset({'headed'}), 0.25)
    >>> parse_policy("budget+sections:0.5").sections, parse_policy("budget+first:250").first_most
    (0.5, 250.0)
    """
    base, *flags = name.split("+")
    policy = _parse_base(base, name)
    valued: dict[str, list[str]] = {key: [] for key in (SECTIONS, FIRST, WINDOWS)}
    for flag in flags:
        key, colon, value = flag.partition(":")
        if colon and key in valued:
            valued[key].append(value)
    flags = [flag for flag in flags if not (":" in flag and flag.partition(":")[0] in valued)]
    values = [_weight(value) for found in valued.values() for value in found]
    if (flags or values) and (
        policy.kind != BUDGET
        or not set(flags) <= BUDGET_OPTIONS.keys()
        or any(len(found) > 1 for found in valued.values())
        or any(value is None for value in values)
    ):
        takes = ", ".join(f"+{option}" for option in BUDGET_OPTIONS)
        raise ValueError(
            f"unknown options in {name!r}: a budget policy takes {takes}, +{SECTIONS}:WEIGHT "
            f", +{FIRST}:TOKENS and +{WINDOWS}:SHARE"
        )
    sections = _weight(valued[SECTIONS][0]) if valued[SECTIONS] else None
    first = _weight(valued[FIRST][0]) if valued[FIRST] else None
    windows = _weight(valued[WINDOWS][0]) if valued[WINDOWS] else None
    return Policy(
        policy.kind,
        policy.argument,
        frozenset(flags),
        sections or 0.0,
        FIRST_MOST if first is None else first,
        min(windows or 0.0, 1.0),
    )


def _weight(text: str) -> float | None:
    """A section weight or a number of tokens (a finite number >= 0), or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 <= value < math.inf else None


def _parse_base(base: str, name: str) -> Policy:
    kind, colon, argument = base.partition(":")
    if kind in {"child", "parent", "top-parent", BUDGET} and not colon:
        return Policy(kind, FIRST_SHARE if kind == BUDGET else 0.0)
    if kind in {BUDGET, "neighbours", "merge", "parent-max", "window"} and argument:
        value = float(argument)
        if value >= 0:
            return Policy(kind, value)
    raise ValueError(
        f"unknown return policy {name!r}: use child, parent, top-parent, budget[:SHARE], "
        "neighbours:N, merge:R, parent-max:TOKENS or window:TOKENS"
    )


def returned(
    ranked_leaves: Sequence[int],
    chunks: ChunkSet,
    policy: str,
    token_count: Callable[[Span], int] | None = None,
    text_of: Callable[[Span], str] | None = None,
) -> list[Span]:
    """The contexts returned for leaves ranked best first, distinct, in rank order."""
    parsed = parse_policy(policy)
    if parsed.kind == "top-parent":
        candidates = _top_parent(ranked_leaves, chunks, text_of)
    elif parsed.kind == BUDGET:
        if text_of is None:
            raise ValueError("budget needs the leaves' texts")
        sent = _prompt(ranked_leaves, chunks, None, text_of, sections=parsed.sections)
        candidates = [passage.span for passage in sent]
    else:
        hits = _distinct(ranked_leaves, chunks, text_of)
        if parsed.kind == "merge":
            candidates = _merged(hits, chunks, parsed.argument)
        else:
            candidates = [_context(i, chunks, parsed, token_count) for i in hits]
    contexts: list[Span] = []
    for span in candidates:
        if not any(kept.covers(span) for kept in contexts):
            contexts.append(span)
    return contexts


def _context(
    index: int, chunks: ChunkSet, policy: Policy, token_count: Callable[[Span], int] | None
) -> Span:
    leaf = chunks.leaves[index]
    if policy.kind == "window":
        if token_count is None:
            raise ValueError("window needs a token counter")
        return _window(index, chunks, int(policy.argument), token_count)
    if policy.kind == "child" or (leaf.parent is None and policy.kind != "neighbours"):
        return leaf.span
    if policy.kind == "parent":
        return chunks.parents[leaf.parent] if leaf.parent is not None else leaf.span
    if policy.kind == "parent-max":
        parent = chunks.parents[leaf.parent] if leaf.parent is not None else leaf.span
        if token_count is None:
            raise ValueError("parent-max needs a token counter")
        return parent if token_count(parent) <= policy.argument else leaf.span
    return _with_neighbours(index, chunks, int(policy.argument))


def _with_neighbours(index: int, chunks: ChunkSet, count: int) -> Span:
    leaf = chunks.leaves[index].span
    first, last = index, index
    while first > max(0, index - count) and chunks.leaves[first - 1].span.doc == leaf.doc:
        first -= 1
    while (
        last < min(len(chunks.leaves) - 1, index + count)
        and chunks.leaves[last + 1].span.doc == leaf.doc
    ):
        last += 1
    spans = [chunks.leaves[i].span for i in range(first, last + 1)]
    return Span(leaf.doc, min(s.start for s in spans), max(s.end for s in spans))


def _window(index: int, chunks: ChunkSet, limit: int, token_count: Callable[[Span], int]) -> Span:
    leaf = chunks.leaves[index]

    def joinable(other: int) -> bool:
        if not 0 <= other < len(chunks.leaves):
            return False
        candidate = chunks.leaves[other]
        return candidate.span.doc == leaf.span.doc and candidate.parent == leaf.parent

    span = leaf.span
    first, last = index, index
    grew = True
    while grew:
        grew = False
        for step in (-1, 1):
            other = first - 1 if step < 0 else last + 1
            if not joinable(other):
                continue
            neighbour = chunks.leaves[other].span
            wider = Span(span.doc, min(span.start, neighbour.start), max(span.end, neighbour.end))
            if token_count(wider) <= limit:
                span, grew = wider, True
                first, last = min(first, other), max(last, other)
    return span


def _merged(ranked_leaves: Sequence[int], chunks: ChunkSet, ratio: float) -> list[Span]:
    window = ranked_leaves[:MERGE_WINDOW]
    hit_by_parent: dict[int, list[int]] = {}
    for index in window:
        parent = chunks.leaves[index].parent
        if parent is not None:
            hit_by_parent.setdefault(parent, []).append(index)
    merged_parents = {
        parent
        for parent, hits in hit_by_parent.items()
        if union_length((chunks.leaves[i].span.start, chunks.leaves[i].span.end) for i in hits)
        >= ratio * chunks.parents[parent].length
    }
    result: list[Span] = []
    for index in ranked_leaves:
        parent = chunks.leaves[index].parent
        in_window = index in window
        if in_window and parent is not None and parent in merged_parents:
            result.append(chunks.parents[parent])
        else:
            result.append(chunks.leaves[index].span)
    return result


def _distinct(
    ranked_leaves: Sequence[int], chunks: ChunkSet, text_of: Callable[[Span], str] | None
) -> list[int]:
    """The hits that open or join a group, as ``group_by_parent`` keeps them: one whose text
    the hits before it hold opens none (a leaf without parent is a group of its own)."""
    if text_of is None:
        return list(ranked_leaves)

    def group_of(index: int) -> int:
        parent = chunks.leaves[index].parent
        return parent if parent is not None else -1 - index

    return list(
        distinct_hits(ranked_leaves, group_of, lambda index: text_of(chunks.leaves[index].span))
    )


def _groups(
    ranked_leaves: Sequence[int],
    chunks: ChunkSet,
    text_of: Callable[[Span], str] | None,
    fetched: int = FETCHED_CHILDREN,
) -> list[tuple[int | None, list[int]]]:
    """The hits among the ``fetched`` children the query fetches, grouped by parent (None: a
    leaf without one, a group of its own) in the order of each group's best hit, as
    ``group_by_parent``."""
    groups: dict[tuple[str, int], tuple[int | None, list[int]]] = {}
    for index in _distinct(ranked_leaves[:fetched], chunks, text_of):
        parent = chunks.leaves[index].parent
        key = ("parent", parent) if parent is not None else ("leaf", index)
        groups.setdefault(key, (parent, []))[1].append(index)
    return list(groups.values())


def _top_parent(
    ranked_leaves: Sequence[int], chunks: ChunkSet, text_of: Callable[[Span], str] | None
) -> list[Span]:
    """What the query's ``top-parent`` sends (``skills.search.collapse``): the hits among the
    children it fetches, grouped by parent in the order of each parent's best hit; the first
    parent whole, every other parent as its hit leaves, touching ones joined into one passage."""
    contexts: list[Span] = []
    for number, (parent, hits) in enumerate(_groups(ranked_leaves, chunks, text_of)):
        if number == 0 and parent is not None:
            contexts.append(chunks.parents[parent])
            continue
        doc = chunks.leaves[hits[0]].span.doc
        spans = [chunks.leaves[index].span for index in hits]
        passages = merge_spans([(span.start, span.end) for span in spans])
        contexts.extend(Span(doc, start, end) for start, end in passages)
    contexts.extend(chunks.leaves[index].span for index in ranked_leaves[FETCHED_CHILDREN:])
    return contexts


@dataclass(frozen=True, slots=True)
class Sent:
    """A passage of a prompt: its span, and the prefix sent before it."""

    span: Span
    prefix: str


def prompt(
    ranked_leaves: Sequence[int],
    chunks: ChunkSet,
    budget: int,
    text_of: Callable[[Span], str],
    count: Callable[[str], int],
    first_share: float = FIRST_SHARE,
    options: Mapping[str, Any] | None = None,
    sections: float = 0.0,
    first_most: float = FIRST_MOST,
) -> list[Sent]:
    """The ``budget`` policy's prompt of at most ``budget`` tokens, prefixes counted: the query's
    assembly (``skills.search.assembly``) of the hits it fetches for that budget
    (``children_for_budget``), passages in the order sent; ``options`` are further arguments of
    ``assemble`` (``Policy.assembly``); ``sections`` above 0 reorders the fetched hits by their
    sections' evidence first, as the query's ``section_weight`` does; ``first_most`` bounds
    step 1 in tokens (``Policy.first_most``)."""
    return _prompt(
        ranked_leaves, chunks, (budget, count), text_of, first_share, options, sections, first_most
    )


def _prompt(
    ranked_leaves: Sequence[int],
    chunks: ChunkSet,
    limit: tuple[int, Callable[[str], int]] | None,
    text_of: Callable[[Span], str],
    first_share: float = FIRST_SHARE,
    options: Mapping[str, Any] | None = None,
    sections: float = 0.0,
    first_most: float = FIRST_MOST,
) -> list[Sent]:
    """Assembled for ``limit`` (budget, counter), or with no limit: every fetched parent whole."""
    fetched = FETCHED_CHILDREN if limit is None else children_for_budget(limit[0])
    if sections:
        ranked_leaves = _by_section(ranked_leaves[:fetched], chunks, sections)

    def piece(span: Span, prefix: str) -> Piece:
        return Piece(span.doc, span.start, span.end, text_of(span), prefix)

    def leaf(index: int) -> Piece:
        return piece(chunks.leaves[index].span, _leaf_prefix(chunks, index, text_of))

    children = chunks.children()
    rank = {leaf: number for number, leaf in enumerate(ranked_leaves)}
    groups = [
        Group(None, tuple(leaf(i) for i in hits), (), tuple(rank[i] for i in hits))
        if parent is None
        else Group(
            piece(chunks.parents[parent], chunks.parent_prefix(parent)),
            tuple(leaf(i) for i in hits),
            tuple(leaf(i) for i in children.get(parent, ())),
            tuple(rank[i] for i in hits),
        )
        for parent, hits in _groups(ranked_leaves, chunks, text_of, fetched)
    ]
    # No limit: nothing costs anything, so every group fits whole.
    budget, count = limit if limit is not None else (0, lambda text: 0)
    assembled = assemble(
        groups, budget, count, first_share, first_most=first_most, **(options or {})
    )
    return [
        Sent(Span(passage.doc, passage.start, passage.end), passage.prefix)
        for passages in assembled
        for passage in passages
    ]


def _by_section(ranked_leaves: Sequence[int], chunks: ChunkSet, weight: float) -> list[int]:
    """The leaves in ``section_order`` of their parents (a leaf without one is its own)."""
    parents = [
        ("parent", chunks.leaves[i].parent) if chunks.leaves[i].parent is not None else ("leaf", i)
        for i in ranked_leaves
    ]
    return [ranked_leaves[rank] for rank, _ in section_order(parents, weight)]


def _leaf_prefix(chunks: ChunkSet, index: int, text_of: Callable[[Span], str]) -> str:
    """What the leaf's embedded text adds before its span's text (empty for a bare text)."""
    leaf = chunks.leaves[index]
    text = text_of(leaf.span)
    embedded = leaf.embed_text
    return embedded[: len(embedded) - len(text)] if text and embedded.endswith(text) else ""
