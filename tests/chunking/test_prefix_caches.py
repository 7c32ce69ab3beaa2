"""The prefix builder's process-wide caches stay small whatever the documents hold.

A Function instance serves many documents, and the caches of ``skills.chunking.prefix`` outlive
each of them: keyed by whole table headers, a thousand entries of a wide table's header would
hold gigabytes. Only short inputs may be cached, so the memory left behind after many distinct
wide headers is a small share of their size.
"""

from __future__ import annotations

import gc
import tracemalloc

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
