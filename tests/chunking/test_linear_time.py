"""Chunking time grows linearly with the input, for every shape of input a parser reads.

A crafted document of a few kilobytes must not hold an instance for seconds: each test times the
engine on an input of ``n`` and of ``4 n`` units of one shape, in one run, and asks that the time
grow by less than ``MAX_GROWTH``. A linear path grows by about 4, a quadratic one by about 16, so
the test passes on a noisy machine and fails on a quadratic path. CPU time, best of three
(``bench/cputime.py``, the benchmarks' loop): other processes on the machine slow both sizes
alike. ``n`` is chosen so that the quadratic paths these tests were written against took tenths
of a second at ``4 n``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench.cputime import least_growth
from skills.chunking import ChunkOptions, chunk_document
from skills.chunking.chunker import detect_format
from skills.chunking.markup.markdown import parse_markdown
from skills.chunking.markup.plaintext import parse_text
from skills.chunking.token_index import SEGMENT_CHARS, TokenIndex

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0

Shape = Callable[[int], str]


def growth(shape: Shape, n: int, format: str, options: ChunkOptions | None = None) -> float:
    """``least_growth`` of chunking, at ``options`` (the defaults)."""
    chosen = options or ChunkOptions()
    return least_growth(
        shape, n, lambda source: chunk_document(source, format=format, options=chosen), MAX_GROWTH
    )


BLANK_RUNS: dict[str, tuple[Shape, Callable[[str], object]]] = {
    "newlines after a character, as text": (lambda n: "a" + "\n" * n, parse_text),
    "newlines after a character, as markdown": (lambda n: "# t\n\na" + "\n" * n, parse_markdown),
    "spaced blank lines, as markdown": (lambda n: "a\n" + " \n" * n, parse_markdown),
}


@pytest.mark.parametrize("name", BLANK_RUNS)
def test_a_run_of_blank_lines_is_read_in_linear_time(name: str) -> None:
    shape, parse = BLANK_RUNS[name]
    assert least_growth(shape, 4000, parse, MAX_GROWTH) < MAX_GROWTH


DEFINITION_RUNS: dict[str, Shape] = {
    "back matter": lambda n: "# t\n\ntext\n\n" + "[v1.0]: https://x.test/v1.0\n" * n,
    "under a paragraph line": lambda n: "text\n" + "[v1.0]: https://x.test/v1.0\n" * n,
    "between blank lines": lambda n: "text\n" + "\n[v1.0]: https://x.test/v1.0\n" * n,
    "nothing else": lambda n: "[v1.0]: https://x.test/v1.0\n" * n,
}


@pytest.mark.parametrize("name", DEFINITION_RUNS)
def test_a_run_of_link_reference_definitions_is_read_in_linear_time(name: str) -> None:
    assert least_growth(DEFINITION_RUNS[name], 4000, parse_markdown, MAX_GROWTH) < MAX_GROWTH


@pytest.mark.parametrize("run", [" ", "\n", "\t", " \n"])
def test_a_long_run_of_spaces_is_counted_in_linear_time(run: str) -> None:
    # tiktoken's BPE is quadratic in a pre-token's length: the index encodes segments
    spaces = least_growth(lambda n: "a" + run * n + "b", SEGMENT_CHARS, TokenIndex, MAX_GROWTH)
    assert spaces < MAX_GROWTH
    assert growth(lambda n: "a" + run * n + "b", SEGMENT_CHARS, "text") < MAX_GROWTH


HEADINGS: dict[str, Shape] = {
    "words": lambda n: "# " + "word " * n + "\n\ntext\n",
    "links": lambda n: "# " + "[a](b) " * n + "\n\ntext\n",
    "unclosed brackets": lambda n: "# " + "[" * (4 * n) + "\n\ntext\n",
    "unclosed tags": lambda n: "# " + "<a " * n + "\n\ntext\n",
    "unclosed attribute lists": lambda n: "# " + "{#" * (2 * n) + "\n\ntext\n",
}


@pytest.mark.parametrize("name", HEADINGS)
def test_a_long_heading_costs_linear_time(name: str) -> None:
    assert growth(HEADINGS[name], 2000, "markdown") < MAX_GROWTH


TITLE_LINES: dict[str, Shape] = {
    "a numbered title's spaces": lambda n: "1. Scope" + " " * n + "of it\n\ntext\n",
    "an appendix title's spaces and tabs": lambda n: "A. Terms" + " \t" * n + "x\n",
    "a title that ends in spaces": lambda n: "2.1 Words" + " " * n + "\n\ntext\n",
}


@pytest.mark.parametrize("name", TITLE_LINES)
def test_a_title_line_of_many_spaces_costs_linear_time(name: str) -> None:
    """A plain text's numbered or lettered title line with a long run of spaces in it: the
    title's end was looked for again from each space (80,000 took 80 s)."""
    assert least_growth(TITLE_LINES[name], 4000, parse_title_text, MAX_GROWTH) < MAX_GROWTH


def parse_title_text(text: str) -> object:
    return parse_text(text, titles=True)


def list_table(rows: int) -> str:
    """A ``list-table`` whose ``:header-rows:`` exceed its rows: all header, no body."""
    body = "".join(f"   * - cell {k}\n     - other {k}\n" for k in range(rows))
    return f"T\n=\n\n.. list-table:: Title\n   :header-rows: {rows + 5}\n\n{body}"


def html_cell(words: int, separator: str) -> str:
    cell = ("word" + separator) * words
    return f"<table>\n<tr><th>h</th></tr>\n<tr><td>{cell}</td></tr>\n</table>\n"


TABLES: dict[str, tuple[Shape, str]] = {
    "a pipe table of many columns": (
        lambda n: "|" + "a|" * n + "\n|" + "-|" * n + "\n|" + "b|" * n + "\n",
        "markdown",
    ),
    "a pipe row without its closing pipe": (
        lambda n: "| a | b |\n|---|---|\n| " + "x " * n + "\n",
        "markdown",
    ),
    "a list-table that is all header": (lambda n: list_table(n // 8), "rst"),
    "one long HTML cell": (lambda n: html_cell(n, " "), "markdown"),
    "one HTML cell of many lines": (lambda n: html_cell(n, "\n"), "markdown"),
}


@pytest.mark.parametrize("name", TABLES)
def test_a_wide_or_long_table_costs_linear_time(name: str) -> None:
    shape, format = TABLES[name]
    assert growth(shape, 4000, format) < MAX_GROWTH


def wide_table(rows: int, columns: int = 1000) -> str:
    """A sheet's shape (``xlsx`` converts one to this): a pipe table of ``columns`` named columns
    and ``rows`` rows, each row longer than a chunk, so every chunk reopens the header."""
    header = "| " + " | ".join(f"column {c}" for c in range(columns)) + " |\n"
    delimiter = "|" + "---|" * columns + "\n"
    body = "".join(
        "| " + " | ".join(f"r{r}c{c}" for c in range(columns)) + " |\n" for r in range(rows)
    )
    return f"# Sheet\n\n{header}{delimiter}{body}"


@pytest.mark.parametrize("axis", ["rows", "columns"])
def test_a_wide_sheet_costs_linear_time_in_its_rows_and_its_columns(axis: str) -> None:
    """61 rows of 16,384 columns chunked at 0.23 million characters a second: the header was
    tokenized again for every row (now 1.3 million, tests/chunking/test_context_caches.py)."""
    if axis == "rows":
        assert growth(wide_table, 8, "markdown") < MAX_GROWTH
    else:
        assert growth(lambda n: wide_table(8, n), 250, "markdown") < MAX_GROWTH


def test_sniffing_the_markup_of_a_line_of_link_openers_costs_linear_time() -> None:
    # the Markdown signs read only the first 64 K characters, but they were quadratic in them
    shape: Shape = lambda n: "[a](" * n  # noqa: E731
    assert least_growth(shape, 2000, detect_format, MAX_GROWTH) < MAX_GROWTH
