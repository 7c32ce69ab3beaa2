"""The prefix builder's process-wide caches stay small whatever the documents hold.

A Function instance serves many documents, and the caches of ``skills.chunking.prefix`` outlive
each of them: keyed by whole table headers, a thousand entries of a wide table's header would
hold gigabytes. Only short inputs may be cached, so the memory left behind after many distinct
wide headers is a small share of their size.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from skills.chunking import chunk_document, prefix, tokens
from skills.chunking.prefix import reopen_within

COLUMNS = 2000
HEADERS = 20


def wide_header(table: int) -> str:
    """The header and delimiter rows of a pipe table of ``COLUMNS`` columns, distinct per table."""
    names = " | ".join(f"t{table} column {k}" for k in range(COLUMNS))
    return f"| {names} |\n|{'---|' * COLUMNS}\n"


def memory_left_after_wide_headers() -> tuple[int, int]:
    """(bytes still allocated, characters of headers seen) after reopening ``HEADERS`` distinct
    wide headers within a small limit, which tries their words with and without the delimiter
    row. Each header is made inside the traced run and dropped after use: what stays is what
    a cache kept."""
    reopen_within(wide_header(-1), 16)  # first-call allocations are not the caches'
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        seen = 0
        for table in range(HEADERS):
            header = wide_header(table)
            seen += len(header)
            reopen_within(header, 16)
            del header
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before, seen
    finally:
        tracemalloc.stop()


def test_wide_headers_leave_nothing_in_the_process_wide_caches() -> None:
    left, seen = memory_left_after_wide_headers()
    assert seen > 800_000
    assert left < seen // 100, f"{left:,} bytes kept after {seen:,} characters of headers"


def test_a_short_header_is_reopened_as_before() -> None:
    header = "| Name    | Type |\n|---------|------|\n"
    assert reopen_within(header, 1000) == header
    assert reopen_within(header, 10) == "| Name | Type |\n|---|---|\n"


def test_a_wide_header_is_tokenized_a_few_times_per_document_not_per_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every chunk of a sheet's rows reopens its header, with the row's first cell after it: the
    header's lines are counted once each (their counts kept by digest), not again with each
    row's key. Before, 61 rows of 16,384 columns tokenized the 0.2-million-character header
    several times per row, four fifths of the sheet's chunking time."""
    rows, columns = 30, 1000
    names = " | ".join(f"wide{columns} column {c}" for c in range(columns))
    header = f"| {names} |\n"
    delimiter = "|" + "---|" * columns + "\n"
    body = "".join(
        "| " + " | ".join(f"r{r}c{c}" for c in range(columns)) + " |\n" for r in range(rows)
    )
    counted: list[int] = []
    count = tokens.count_tokens

    def counting(text: str) -> int:
        counted.append(len(text))
        return count(text)

    monkeypatch.setattr(prefix, "count_tokens", counting)
    chunk_document(f"# Sheet\n\n{header}{delimiter}{body}", format="markdown")
    assert sum(counted) < 4 * len(header + delimiter), (
        f"{sum(counted):,} characters counted for a header of {len(header + delimiter):,}"
    )
