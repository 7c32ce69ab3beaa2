"""The data the heading rules pass around: a found heading, the body's type, a line's place and
a line that may be a heading (a candidate, before the document-wide checks decide)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading that starts at a line and spans ``lines`` lines (set over several)."""

    level: int
    text: str
    lines: int = 1


@dataclass(frozen=True, slots=True)
class Body:
    """The body text's type: the size and weight of most characters."""

    size: float
    weight: int
    bold: bool


Key = tuple[int, int]  # (page index, line index)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A line (or lines) that may be a heading, with what the checks after the reading need."""

    key: Key
    text: str
    lines: int
    size: float
    bold: bool
    strong: bool  # larger or bolder than the body; False: body type, numbered only
    number: tuple[str, ...] | None
    rotated: bool = False  # a watermark or a diagram's label: in runs of labels, never a heading
