"""A stand-in search service over five children, for the query path's tests
(``tests/search/test_search_halves_first.py``) and its latency bench (``query_latency.py``).

The fused (hybrid) query finds the children a, b, c, d, e in that order; the keywords alone find
d first and the vector alone e, each below three children in the fusion. Each request is kept
(``requests``) and answered after ``latency`` seconds.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from skills.search.query import SearchRequest

#: The one document the children are slices of.
SOURCE = "".join(f"w{i:02d} " for i in range(40))


def child(chunk: str, score: float, start: int) -> dict[str, Any]:
    """A child as the children index returns it (embedded mode): eight characters of
    ``SOURCE`` from ``start``, its own parent ``p-<chunk>``."""
    end = start + 8
    return {
        "chunkId": chunk, "parentChunkId": f"p-{chunk}", "@search.score": score,
        "text": SOURCE[start:end], "start": start, "end": end, "ordinal": 0, "prefix": "",
        "headings": [], "pages": [], "title": "doc.md", "sourcePath": "https://x/doc.md",
        "documentKey": "k", "parentText": SOURCE[start:end], "parentStart": start,
        "parentEnd": end, "parentPrefix": "",
    }  # fmt: skip


class Halves:
    """The fused query's children a, b, c, d, e; the keywords alone find d first, the vector
    alone e; a filtered request (the siblings of the parents sent) finds nothing."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.requests: list[SearchRequest] = []

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        self.requests.append(request)
        if self.latency:
            time.sleep(self.latency)
        if request.filter:
            return []
        if request.vector_k is None:
            return [child("d", 9.0, 24)][: request.top]
        if not request.keywords:
            return [child("e", 0.9, 32)][: request.top]
        return [child(c, 0.05 - 0.01 * i, 8 * i) for i, c in enumerate("abcde")][: request.top]


class Hanging(Halves):
    """A service whose halves' requests hang until ``released`` (a read that never ends, up to
    the client's timeout); ``arrived`` counts them."""

    def __init__(self) -> None:
        super().__init__()
        self.released = threading.Event()
        self.arrived = threading.Semaphore(0)

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        if not request.filter and (request.vector_k is None or not request.keywords):
            self.arrived.release()
            self.released.wait(timeout=60)
        return super().search(request)
