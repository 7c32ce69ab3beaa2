"""Turn ranked child hits into the top N distinct parents, with their passage and citations.

Azure AI Search has no group-by or join, so the client does it: walk the child hits in rank order,
keep the first hit of each parent (its rank is the parent's rank), keep every further hit of that
parent as a matched child, stop at N parents. This module is pure: the Azure query and the local
simulation both call it, so what the simulation answers is what the service path answers.

What a hit returns is a parameter, :class:`Expand`, because it is a retrieval-quality choice the
evaluation decides with numbers:

- ``top-parent`` (the default): the whole parent for the first result, the matched children for
  the others: the first context is a whole section, the rest cost little of the prompt; on the dev
  set it beats every baseline on top-1 and within a 1,000- and a 2,000-token prompt, with half the
  tokens of ``parent`` (``docs/evaluation.md``);
- ``parent``: the whole parent section (at most 1,024 tokens by default) for every result;
- ``children``: only the matched children, merged where they touch or overlap;
- ``merge``: the whole parent when the children matched among the top ``MERGE_WINDOW`` hits
  cover at least ``MERGE_RATIO`` of it, else the matched children (the "auto-merging" of
  parent-child retrieval: the smallest prompt, at a lower top-1);
- ``neighbours``: the matched children and their adjacent siblings, merged.

Passages are slices of the parent text by offset, so overlapping children are never repeated.

Given the caller's prompt budget in tokens instead (``collapse(..., budget=B)``), what each
parent sends is chosen to fill it (:func:`skills.search.assembly.assemble`, the code the
evaluation's ``budget`` policy measures): whole parents while they fit, hit children otherwise,
each passage preceded by its chunk's prefix (heading path, reopened table header or code fence).

>>> hits = [ChildHit("c2", "p1", 0.9, "bb", 2, 4, 1), ChildHit("c9", "p2", 0.8, "x", 0, 1, 0),
...         ChildHit("c1", "p1", 0.7, "aa", 0, 2, 0)]
>>> [(p, [h.chunk_id for h in group]) for p, group in group_by_parent(hits, top=5)]
[('p1', ['c2', 'c1']), ('p2', ['c9'])]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeVar

from skills.search.assembly import Group, Passage, Piece, assemble

T = TypeVar("T")
PASSAGE_GAP = "\n\n"
_SEPARATOR = "\x00"  # between kept texts, so that no text is found across two of them
#: ``merge``: the top hits that count, and the share of a parent they must cover to return it.
MERGE_WINDOW = 10
MERGE_RATIO = 0.5
#: Section evidence (off at 0): how much of the reciprocal ranks of its section's other best hits
#: a hit gains before the hits are grouped (:func:`section_order`).
SECTION_WEIGHT = 0.0
#: The best hits of a section that count as its evidence (the hit itself among them).
SECTION_HITS = 3


class Expand(StrEnum):
    """What one child hit contributes to the returned context (see the module docstring)."""

    PARENT = "parent"
    TOP_PARENT = "top-parent"
    CHILDREN = "children"
    MERGE = "merge"
    NEIGHBOURS = "neighbours"


@dataclass(frozen=True)
class ChildHit:
    """One child document as the children index returns it, with its rank score."""

    chunk_id: str
    parent_chunk_id: str
    score: float
    text: str
    start: int
    end: int
    ordinal: int
    headings: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    title: str | None = None
    source_path: str | None = None
    document_key: str | None = None
    parent_text: str | None = None  # filled in mode ``embedded`` only
    parent_start: int | None = None
    parent_end: int | None = None
    prefix: str = ""  # what the child's embedText adds before its text
    parent_prefix: str = ""  # mode ``embedded`` only

    @classmethod
    def from_result(cls, doc: Mapping[str, Any]) -> ChildHit:
        """From a search result; the semantic reranker score wins over the fused score."""
        score = doc.get("@search.rerankerScore")
        if score is None:
            score = doc.get("@search.score") or 0.0
        return cls(
            chunk_id=doc["chunkId"],
            parent_chunk_id=doc["parentChunkId"],
            score=float(score),
            text=doc.get("text") or "",
            start=int(doc["start"]),
            end=int(doc["end"]),
            ordinal=int(doc.get("ordinal") or 0),
            headings=tuple(doc.get("headings") or ()),
            pages=tuple(doc.get("pages") or ()),
            title=doc.get("title"),
            source_path=doc.get("sourcePath"),
            document_key=doc.get("documentKey"),
            parent_text=doc.get("parentText"),
            parent_start=doc.get("parentStart"),
            parent_end=doc.get("parentEnd"),
            prefix=doc.get("prefix") or "",
            parent_prefix=doc.get("parentPrefix") or "",
        )


@dataclass(frozen=True)
class ParentDoc:
    """A parent section: from the parents index (``reference``) or from a child (``embedded``)."""

    parent_chunk_id: str
    text: str
    start: int
    end: int
    headings: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    title: str | None = None
    source_path: str | None = None
    document_key: str | None = None
    prefix: str = ""  # what the parent's embedText adds before its text

    @classmethod
    def from_result(cls, doc: Mapping[str, Any]) -> ParentDoc:
        return cls(
            parent_chunk_id=doc["parentChunkId"],
            text=doc.get("text") or "",
            start=int(doc["start"]),
            end=int(doc["end"]),
            headings=tuple(doc.get("headings") or ()),
            pages=tuple(doc.get("pages") or ()),
            title=doc.get("title"),
            source_path=doc.get("sourcePath"),
            document_key=doc.get("documentKey"),
            prefix=doc.get("prefix") or "",
        )

    @classmethod
    def from_child(cls, hit: ChildHit) -> ParentDoc | None:
        """The parent a child carries in mode ``embedded``; None if the child has no copy."""
        if hit.parent_text is None or hit.parent_start is None or hit.parent_end is None:
            return None
        return cls(
            parent_chunk_id=hit.parent_chunk_id,
            text=hit.parent_text,
            start=hit.parent_start,
            end=hit.parent_end,
            headings=hit.headings,  # a child sits under its parent's heading path (or deeper)
            pages=hit.pages,
            title=hit.title,
            source_path=hit.source_path,
            document_key=hit.document_key,
            prefix=hit.parent_prefix,
        )


@dataclass(frozen=True)
class Span:
    """A sibling child's place in the document (all that ``neighbours`` needs to know of it), and
    the prefix it is embedded with (what a passage starting at it sends before its text)."""

    ordinal: int
    start: int
    end: int
    prefix: str = ""


@dataclass(frozen=True)
class Citation:
    """Where a matched child comes from: enough to link to the document and highlight it."""

    chunk_id: str
    title: str | None
    source_path: str | None
    document_key: str | None
    start: int
    end: int
    headings: tuple[str, ...]
    pages: tuple[int, ...]


@dataclass(frozen=True)
class ParentResult:
    """One answer: a parent in rank order, the passage to read, the children that matched."""

    rank: int
    parent_chunk_id: str
    score: float
    passage: str
    parent: ParentDoc | None
    children: tuple[ChildHit, ...]
    citations: tuple[Citation, ...] = field(default=())
    #: Hits that repeat a matched child's text and so opened no result of their own: the other
    #: places the same words stand (npm's shared option on another command's page).
    repeated_in: tuple[Citation, ...] = field(default=())
    #: With a budget: what ``passage`` joins, each with its prefix and exact offsets.
    passages: tuple[Passage, ...] = field(default=())


def section_order(
    groups: Sequence[Hashable], weight: float, hits: int = SECTION_HITS, k: int = 60
) -> list[tuple[int, float]]:
    """A ranking reordered by the evidence of each hit's section: ``groups[i]`` is the section
    (parent) of the hit ranked ``i`` (from 0); the hit scores ``1 / (k + i + 1)`` (a reciprocal
    rank, as RRF scores a list) plus ``weight`` times the same of the best ``hits - 1`` other hits
    of its section. Positions with their new score, best first, ties in the old order. Ranks
    alone, not the service's scores: the query (on the hits it fetched) and the evaluation (on
    as many ranked leaves) reorder the same list the same way, whatever the scores' scale.

    A section that three hits point at outranks a lone hit ranked just above its second:

    >>> [i for i, _ in section_order(["a", "b", "a", "c", "a"], 0.5)]
    [0, 2, 4, 1, 3]
    >>> [i for i, _ in section_order(["a", "b", "a"], 0.0)]
    [0, 1, 2]
    """
    if not 0 <= weight < math.inf or hits < 1:
        raise ValueError("section evidence needs a finite weight >= 0 and hits >= 1")
    base = [1.0 / (k + rank + 1) for rank in range(len(groups))]
    best: dict[Hashable, list[float]] = {}
    for rank, group in enumerate(groups):
        best.setdefault(group, [])
        if len(best[group]) < hits:
            best[group].append(base[rank])
    scored = []
    for rank, group in enumerate(groups):
        others = [score for score in best[group] if score != base[rank]][: hits - 1]
        scored.append((rank, base[rank] + weight * sum(others)))
    return sorted(scored, key=lambda item: (-item[1], item[0]))


def by_section(hits: Sequence[ChildHit], weight: float) -> list[ChildHit]:
    """The hits in :func:`section_order`, each scored by it (``weight`` 0: unchanged)."""
    if not weight:
        return list(hits)
    order = section_order([hit.parent_chunk_id for hit in hits], weight)
    return [replace(hits[rank], score=score) for rank, score in order]


def group_by_parent(hits: Sequence[ChildHit], top: int) -> list[tuple[str, list[ChildHit]]]:
    """The first ``top`` distinct parents in the order their best child ranks, with their hits.

    A hit whose text the hits kept before it already hold opens no parent: the same paragraph
    in several documents (a shared option described on every command's page, a page copied
    into each version of the docs) would send the prompt the same words again, in place of the
    next distinct answer.
    """
    groups: dict[str, list[ChildHit]] = {}
    ranked = sorted(hits, key=lambda h: -h.score)  # stable: ties keep the service's order
    for hit in distinct_hits(ranked, lambda h: h.parent_chunk_id, lambda h: h.text):
        if hit.parent_chunk_id in groups:
            groups[hit.parent_chunk_id].append(hit)
        elif len(groups) < top:
            groups[hit.parent_chunk_id] = [hit]
    return list(groups.items())


def distinct_hits(
    ranked: Iterable[T], group_of: Callable[[T], Hashable], text_of: Callable[[T], str]
) -> Iterator[T]:
    """The hits, best first, less those that would open a group although the hits before them
    hold their text: the one rule the query (``group_by_parent``) and the evaluation
    (``skills.evaluation.returns``) both apply. A hit of a group already open is kept.

    >>> texts = {1: "a b", 2: "b", 3: "b", 4: "c"}
    >>> list(distinct_hits([1, 2, 3, 4], lambda h: h % 2, texts.get))
    [1, 3, 4]
    """
    seen = SeenText()
    opened: set[Hashable] = set()
    for hit in ranked:
        group, text = group_of(hit), text_of(hit)
        if group not in opened:
            if seen.holds(text):
                continue
            opened.add(group)
        seen.add(text)
        yield hit


class SeenText:
    """The texts kept so far, compared with runs of white space as one space (two copies of a
    paragraph may break their lines differently).

    >>> seen = SeenText()
    >>> seen.add("Sets the  access level\\nof a package.")
    >>> seen.holds("the access level of"), seen.holds("access level of a team"), seen.holds(" ")
    (True, False, False)
    """

    def __init__(self) -> None:
        self._texts = _SEPARATOR

    def add(self, text: str) -> None:
        self._texts += _flat(text) + _SEPARATOR

    def holds(self, text: str) -> bool:
        """Whether one kept text contains all of ``text``; never for a blank one."""
        flat = _flat(text)
        return bool(flat) and flat in self._texts


def _flat(text: str) -> str:
    return " ".join(text.split())


def collapse(
    hits: Sequence[ChildHit],
    parents: Mapping[str, ParentDoc],
    top: int,
    expand: Expand = Expand.TOP_PARENT,
    siblings: Mapping[str, Sequence[Span]] | None = None,
    neighbours: int = 1,
    budget: tuple[int, Callable[[str], int]] | None = None,
) -> list[ParentResult]:
    """Top ``top`` parents with passages; ``siblings`` (parent id -> spans) feeds ``neighbours``.
    With ``budget`` (tokens, counter) the passages fill that prompt and ``expand`` is not used:
    the parents that send nothing are left out."""
    groups = group_by_parent(hits, top)
    repeats = _repeats(hits, groups)
    if budget is not None:
        ranks = {hit.chunk_id: rank for rank, hit in enumerate(hits)}
        return _within_budget(groups, parents, repeats, siblings or {}, ranks, *budget)
    results = []
    top_hits = {hit.chunk_id for hit in hits[:MERGE_WINDOW]}
    for rank, (parent_id, group) in enumerate(groups, start=1):
        parent = parents.get(parent_id)
        if expand is Expand.MERGE:
            spans = _merged(group, parent, top_hits)
        else:
            mode = expand
            if expand is Expand.TOP_PARENT:
                mode = Expand.PARENT if rank == 1 else Expand.CHILDREN
            spans = _spans(group, mode, (siblings or {}).get(parent_id, ()), neighbours, parent)
        results.append(
            ParentResult(
                rank=rank,
                parent_chunk_id=parent_id,
                score=group[0].score,
                passage=_passage(spans, parent, group),
                parent=parent,
                children=tuple(group),
                citations=tuple(_citation(hit) for hit in group),
                repeated_in=tuple(_citation(hit) for hit in repeats.get(parent_id, ())),
            )
        )
    return results


def _within_budget(
    groups: Sequence[tuple[str, list[ChildHit]]],
    parents: Mapping[str, ParentDoc],
    repeats: Mapping[str, Sequence[ChildHit]],
    siblings: Mapping[str, Sequence[Span]],
    ranks: Mapping[str, int],
    budget: int,
    count: Callable[[str], int],
) -> list[ParentResult]:
    """The results whose parents send something within ``budget`` tokens, in rank order; a
    parent's ``siblings`` (all its children) are what its hit passages grow by, ``ranks`` each
    hit's place in the search's ranking."""

    def parent_piece(parent: ParentDoc | None) -> Piece | None:
        if parent is None:
            return None
        return Piece(
            _doc(parent.document_key), parent.start, parent.end, parent.text, parent.prefix
        )

    def children(parent: ParentDoc | None, spans: Sequence[Span]) -> tuple[Piece, ...]:
        if parent is None:
            return ()
        inside = [s for s in spans if parent.start <= s.start < s.end <= parent.end]
        return tuple(
            Piece(
                _doc(parent.document_key),
                s.start,
                s.end,
                parent.text[s.start - parent.start : s.end - parent.start],
                s.prefix,
            )
            for s in sorted(inside, key=lambda s: (s.start, s.end))
        )

    assembled = assemble(
        [
            Group(
                parent_piece(parents.get(parent_id)),
                tuple(
                    Piece(_doc(hit.document_key), hit.start, hit.end, hit.text, hit.prefix)
                    for hit in group
                ),
                children(parents.get(parent_id), siblings.get(parent_id, ())),
                tuple(ranks[hit.chunk_id] for hit in group),
            )
            for parent_id, group in groups
        ],
        budget,
        count,
    )
    results: list[ParentResult] = []
    for (parent_id, group), passages in zip(groups, assembled, strict=True):
        if not passages:
            continue
        results.append(
            ParentResult(
                rank=len(results) + 1,
                parent_chunk_id=parent_id,
                score=group[0].score,
                passage=PASSAGE_GAP.join(passage.rendered for passage in passages),
                parent=parents.get(parent_id),
                children=tuple(group),
                citations=tuple(_citation(hit) for hit in group),
                repeated_in=tuple(_citation(hit) for hit in repeats.get(parent_id, ())),
                passages=tuple(passages),
            )
        )
    return results


def _doc(document_key: str | None) -> str:
    return document_key or ""


def _repeats(
    hits: Sequence[ChildHit], groups: Sequence[tuple[str, list[ChildHit]]]
) -> dict[str, list[ChildHit]]:
    """The hits no group kept whose text a kept hit holds, under that hit's parent (the first
    group holding it), best first."""
    kept = [(parent_id, _flat(hit.text)) for parent_id, group in groups for hit in group]
    kept_ids = {hit.chunk_id for _, group in groups for hit in group}
    repeats: dict[str, list[ChildHit]] = {}
    for hit in sorted(hits, key=lambda h: -h.score):
        text = _flat(hit.text)
        if hit.chunk_id in kept_ids or not text:
            continue
        holder = next((parent_id for parent_id, held in kept if text in held), None)
        if holder is not None:
            repeats.setdefault(holder, []).append(hit)
    return repeats


def _spans(
    group: Sequence[ChildHit],
    expand: Expand,
    siblings: Sequence[Span],
    neighbours: int,
    parent: ParentDoc | None,
) -> list[tuple[int, int]]:
    if expand is Expand.PARENT and parent is not None:
        return [(parent.start, parent.end)]
    spans = [(hit.start, hit.end) for hit in group]
    if expand is Expand.NEIGHBOURS:
        wanted = {
            hit.ordinal + step for hit in group for step in range(-neighbours, neighbours + 1)
        }
        spans += [(s.start, s.end) for s in siblings if s.ordinal in wanted]
    return merge_spans(spans)


def _merged(
    group: Sequence[ChildHit], parent: ParentDoc | None, top_hits: set[str]
) -> list[tuple[int, int]]:
    """The parent when its top hits cover enough of it, else the matched children."""
    children = merge_spans([(hit.start, hit.end) for hit in group])
    if parent is None or parent.end <= parent.start:
        return children
    top = merge_spans([(hit.start, hit.end) for hit in group if hit.chunk_id in top_hits])
    covered = sum(min(end, parent.end) - max(start, parent.start) for start, end in top)
    if covered >= MERGE_RATIO * (parent.end - parent.start):
        return [(parent.start, parent.end)]
    return children


def merge_spans(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, with overlapping or touching spans merged.

    >>> merge_spans([(5, 9), (0, 3), (3, 4), (8, 12)])
    [(0, 4), (5, 12)]
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _passage(
    spans: Sequence[tuple[int, int]], parent: ParentDoc | None, group: Sequence[ChildHit]
) -> str:
    """Slices of the parent's text by document offset; the children's texts without a parent."""
    if parent is None:
        ordered = sorted(group, key=lambda hit: hit.start)
        return PASSAGE_GAP.join(hit.text for hit in ordered)
    pieces = []
    for start, end in spans:
        low, high = max(start, parent.start), min(end, parent.end)
        if low < high:
            pieces.append(parent.text[low - parent.start : high - parent.start])
    return PASSAGE_GAP.join(pieces)


def _citation(hit: ChildHit) -> Citation:
    return Citation(
        chunk_id=hit.chunk_id,
        title=hit.title,
        source_path=hit.source_path,
        document_key=hit.document_key,
        start=hit.start,
        end=hit.end,
        headings=hit.headings,
        pages=hit.pages,
    )
