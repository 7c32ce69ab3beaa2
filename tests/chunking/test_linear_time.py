"""Chunking time grows linearly with the input, for every shape of input a parser reads.

A crafted document of a few kilobytes must not hold an instance for seconds: each test times the
engine on an input of ``n`` and of ``4 n`` units of one shape, in one run, and asks that the time
grow by less than ``MAX_GROWTH``. A linear path grows by about 4, a quadratic one by about 16, so
the test passes on a noisy machine and fails on a quadratic path. CPU time, best of three: other
processes on the machine slow both sizes alike. ``n`` is chosen so that the quadratic paths these
tests were written against took tenths of a second at ``4 n``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from skills.chunking import ChunkOptions, chunk_document

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0
ROUNDS = 3

Shape = Callable[[int], str]


def cpu_seconds(source: str, format: str, options: ChunkOptions) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        started = time.process_time()
        chunk_document(source, format=format, options=options)
        best = min(best, time.process_time() - started)
    return best


def growth(shape: Shape, n: int, format: str, options: ChunkOptions | None = None) -> float:
    """How many times longer chunking ``shape(4 n)`` takes than ``shape(n)``."""
    options = options or ChunkOptions()
    chunk_document(shape(n), format=format, options=options)  # warm caches (the tokenizer)
    small = cpu_seconds(shape(n), format, options)
    large = cpu_seconds(shape(4 * n), format, options)
    return large / max(small, 1e-4)


BLANK_RUNS: dict[str, tuple[Shape, str]] = {
    "newlines after a character, as text": (lambda n: "a" + "\n" * n, "text"),
    "newlines after a character, as markdown": (lambda n: "# t\n\na" + "\n" * n, "markdown"),
    "spaced blank lines, as markdown": (lambda n: "a\n" + " \n" * n, "markdown"),
}


@pytest.mark.parametrize("name", BLANK_RUNS)
def test_a_run_of_blank_lines_costs_linear_time(name: str) -> None:
    shape, format = BLANK_RUNS[name]
    assert growth(shape, 4000, format) < MAX_GROWTH
