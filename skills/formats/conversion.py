"""What a converter is: bytes of one file in, the engine's Markdown out, within limits.

A converter never raises for a bad file in a way that loses other records: it raises
:class:`ConversionError` with a message a user can act on (the skill turns it into that record's
error), and it reports what it had to leave out as warnings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class ConversionError(ValueError):
    """The file cannot be converted; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How much work one file may cost, so that time and memory stay bounded by the input.

    ``deadline`` is a ``time.monotonic()`` instant (``None``: no deadline); a converter that
    reaches it stops and returns what it has, with a warning.
    """

    deadline: float | None = None
    max_pages: int = 2000  # Document Layout's own ceiling for a PDF
    max_unpacked_bytes: int = 256 * 1024 * 1024  # a zip member or whole package, decompressed
    max_cells: int = 2_000_000  # spreadsheet cells read, over all sheets


@dataclass(frozen=True, slots=True)
class Converted:
    """A file as the engine's Markdown: its text, its title when the file names one, and what
    the conversion could not keep."""

    markdown: str
    title: str | None = None
    warnings: tuple[str, ...] = ()


class Converter(Protocol):
    def __call__(self, data: bytes, limits: Limits) -> Converted: ...
