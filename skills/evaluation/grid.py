"""The candidates of a run: a chunker with its parameters, and what a hit returns.

A grid file is JSON: ``{"baselines": true, "candidates": [CANDIDATE, ...]}``, each candidate
``{"name": ..., "chunker": ..., "params": {...}, "returns": "parent"}`` where ``chunker`` is

- ``engine``: our engine; ``params`` are ChunkOptions in wire form (``{"strategy":
  "hierarchical", "parentMaxTokens": 1024, "childMaxTokens": 256}``);
- ``fixed`` / ``recursive``: ``{"size": 512, "overlap": 128}``;
- ``mdheader``: ``{"size": 400, "overlap": 0, "keepHeaders": false}``;
- ``parent-child``: ``{"child": 128, "parent": 512}``;
- ``textsplit``: ``{"size": 2000, "overlap": 500}``, the built-in path (cracked text, Text Split
  pages in characters: :func:`skills.evaluation.baselines.text_split`);

and ``returns`` is a policy of :mod:`skills.evaluation.returns` (default ``parent``; flat chunk
sets return the leaf whatever it says). ``"baselines": true`` (the default) adds the issue's
baselines to the run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skills.chunking import BoundaryModel
from skills.evaluation import baselines
from skills.evaluation.chunksets import ChunkSet
from skills.evaluation.engine import engine_chunks
from skills.evaluation.returns import parse_policy

CHUNKERS = ("engine", "fixed", "recursive", "mdheader", "parent-child", "textsplit")


@dataclass(frozen=True)
class Candidate:
    """One line of the results table."""

    name: str
    chunker: str
    params: Mapping[str, Any] = field(default_factory=dict)
    returns: str = "parent"
    baseline: bool = False

    def __post_init__(self) -> None:
        if self.chunker not in CHUNKERS:
            raise ValueError(f"candidate {self.name!r}: chunker must be one of {CHUNKERS}")
        parse_policy(self.returns)

    @property
    def chunk_key(self) -> str:
        """Candidates with the same key share one chunk set (and its embeddings)."""
        return json.dumps([self.chunker, dict(self.params)], sort_keys=True)


def chunk(
    candidate: Candidate,
    doc: str,
    text: str,
    boundary_model: BoundaryModel | None = None,
    title: str | None = None,
    cracked: str | None = None,
) -> ChunkSet:
    """The candidate's chunk set for one document (``boundary_model``: for ``semantic``; the
    engine chunks with the ``title`` the skill would give it, the baselines know none; the
    built-in path splits the ``cracked`` text when the document has one)."""
    p = candidate.params
    if candidate.chunker == "engine":
        return engine_chunks(doc, text, dict(p), boundary_model, title)
    if candidate.chunker == "textsplit":
        return baselines.text_split(doc, text, cracked, int(p["size"]), int(p["overlap"]))
    if candidate.chunker == "fixed":
        return baselines.fixed(doc, text, int(p["size"]), int(p["overlap"]))
    if candidate.chunker == "recursive":
        return baselines.recursive(doc, text, int(p["size"]), int(p["overlap"]))
    if candidate.chunker == "mdheader":
        return baselines.markdown_header_recursive(
            doc, text, int(p["size"]), int(p["overlap"]), bool(p.get("keepHeaders", False))
        )
    return baselines.parent_child(doc, text, int(p["child"]), int(p["parent"]))


#: The baselines of issue 5 (and BASELINES.md), and the built-in path Azure AI Search offers
#: without this skill (issue 30), always in the same run as our candidates.
BASELINES = (
    Candidate("fixed-512-128", "fixed", {"size": 512, "overlap": 128}, "child", True),
    Candidate("fixed-256-0", "fixed", {"size": 256, "overlap": 0}, "child", True),
    Candidate("recursive-512-50", "recursive", {"size": 512, "overlap": 50}, "child", True),
    Candidate("recursive-400-200", "recursive", {"size": 400, "overlap": 200}, "child", True),
    Candidate("mdheader-recursive-400-0", "mdheader", {"size": 400, "overlap": 0}, "child", True),
    Candidate(
        "parent-child-128-512", "parent-child", {"child": 128, "parent": 512}, "parent", True
    ),
    Candidate(
        "azure-textsplit-2000-500",
        "textsplit",
        {"size": baselines.TEXT_SPLIT_PAGE, "overlap": baselines.TEXT_SPLIT_OVERLAP},
        "child",
        True,
    ),
)


def _hierarchical(parent: int, child: int, overlap: int = 0) -> dict[str, Any]:
    return {
        "strategy": "hierarchical",
        "parentMaxTokens": parent,
        "childMaxTokens": child,
        "childOverlapTokens": overlap,
    }


def _hier(parent: int, child: int, overlap: int, returns: str) -> Candidate:
    """``hier-P-C[-O] RETURNS``: the name says the sizes and the return policy it runs."""
    sizes = f"hier-{parent}-{child}" + (f"-{overlap}" if overlap else "")
    return Candidate(f"{sizes} {returns}", "engine", _hierarchical(parent, child, overlap), returns)


#: What a hit can return, each measured at the default sizes.
_RETURNS_AT_THE_DEFAULT = (
    "budget",
    "top-parent",
    "parent",
    "child",
    "merge:0.5",
    "parent-max:512",
    "window:384",
)

#: Our candidates when no grid file is given: today's default (``hier-1024-160-32 budget``) and
#: its ``top-parent`` twin, the half-child overlap (the default until the prompt-budget
#: evaluation, ``hier-640-128-64``) with each return policy, its neighbours in size and overlap,
#: the earlier defaults (640/128/0, 640/128/32, and 1,024/256/64 with auto-merging), semantic
#: boundaries and plain text, and the single-level strategies.
#: ``evaluation_sets/neighbours-grid.json`` is the focused grid today's default was chosen on.
DEFAULT_CANDIDATES = (
    _hier(1024, 160, 32, "budget"),
    _hier(1024, 160, 32, "top-parent"),
    *(_hier(640, 128, 64, returns) for returns in _RETURNS_AT_THE_DEFAULT),
    _hier(640, 128, 32, "budget"),
    _hier(640, 128, 32, "top-parent"),
    _hier(640, 128, 32, "parent"),
    _hier(640, 128, 0, "budget"),
    _hier(640, 128, 0, "top-parent"),
    _hier(640, 96, 48, "top-parent"),
    _hier(640, 160, 80, "top-parent"),
    _hier(576, 128, 64, "top-parent"),
    _hier(704, 128, 64, "top-parent"),
    *(_hier(1024, 256, 64, returns) for returns in ("child", "merge:0.5", "parent", "top-parent")),
    _hier(1024, 384, 0, "child"),
    Candidate(
        "semantic-640-128-64 top-parent",
        "engine",
        {**_hierarchical(640, 128, 64), "strategy": "semantic"},
        "top-parent",
    ),
    Candidate(
        "hier-640-128-64 as-text top-parent",
        "engine",
        {**_hierarchical(640, 128, 64), "format": "text"},
        "top-parent",
    ),
    Candidate(
        "semantic-640-128-64 as-text top-parent",
        "engine",
        {**_hierarchical(640, 128, 64), "strategy": "semantic", "format": "text"},
        "top-parent",
    ),
    Candidate(
        "structural-256", "engine", {"strategy": "structural", "childMaxTokens": 256}, "child"
    ),
    Candidate("recursive-256", "engine", {"strategy": "recursive", "childMaxTokens": 256}, "child"),
    Candidate("fixed-256", "engine", {"strategy": "fixed", "childMaxTokens": 256}, "child"),
)


def load_grid(path: Path | None, with_baselines: bool = True) -> list[Candidate]:
    """Candidates of a grid file (or the defaults), the baselines first when asked for."""
    if path is None:
        ours = list(DEFAULT_CANDIDATES)
    else:
        data = json.loads(path.read_text(encoding="utf-8"))
        with_baselines = with_baselines and bool(data.get("baselines", True))
        ours = [
            Candidate(
                name=str(item["name"]),
                chunker=str(item.get("chunker", "engine")),
                params=dict(item.get("params", {})),
                returns=str(item.get("returns", "parent")),
            )
            for item in data["candidates"]
        ]
    candidates = [*BASELINES, *ours] if with_baselines else ours
    names = [c.name for c in candidates]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"candidate names must be unique: {', '.join(duplicates)}")
    return candidates
