"""Character spans of a document and the few set operations the metrics need.

A span is half-open, ``[start, end)``, in characters (code points) of the document text, the
offsets the questions give. Union lengths are what Chroma's token-level metrics count.

>>> union_length([(0, 5), (3, 8), (10, 12)])
10
>>> overlap_length([(0, 5), (3, 8)], (4, 11))
4
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """``[start, end)`` of the document ``doc`` (its path relative to the docs folder)."""

    doc: str
    start: int
    end: int

    @property
    def length(self) -> int:
        return self.end - self.start

    def covers(self, other: Span) -> bool:
        """Whether this span holds all of ``other`` (same document, no character outside)."""
        return self.doc == other.doc and self.start <= other.start and other.end <= self.end

    def overlap(self, other: Span) -> int:
        """Characters the two spans share (0 across documents)."""
        if self.doc != other.doc:
            return 0
        return max(0, min(self.end, other.end) - max(self.start, other.start))


def merge(intervals: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, disjoint intervals with the same union; empty intervals dropped."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def union_length(intervals: Iterable[tuple[int, int]]) -> int:
    """Characters covered by at least one interval."""
    return sum(end - start for start, end in merge(intervals))


def overlap_length(intervals: Iterable[tuple[int, int]], target: tuple[int, int]) -> int:
    """Characters of ``target`` covered by the union of ``intervals``."""
    clipped = ((max(s, target[0]), min(e, target[1])) for s, e in intervals)
    return union_length(clipped)
