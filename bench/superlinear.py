"""Super-linearity sweep: does any input shape make the engine, or one of its patterns, slower
than linear?

Two sweeps, each doubling the input five times (six sizes) and reporting how the time grows
over the last doubling as an exponent (``log2(t(2n) / t(n))``: 1.0 is linear, 2.0 quadratic):

- **patterns**: every compiled regular expression at module level in the engine's parsers (and
  the indented-code pattern the Markdown reader builds), run with ``finditer`` over strings made
  of one seed repeated (``[``, ``<a ``, ``{#``, blank lines, pipes, stops, ...). ``finditer``
  tries the pattern at every position, the most any use of it can cost; a pattern that is only
  ever ``match``-ed over a bounded window may show super-linear here and be harmless, which the
  report then says.
- **documents**: ``chunk_document`` at the default options on documents of one shape each
  (headings, tables, fences, lists, quotes, HTML, reStructuredText constructs, blank runs, long
  lines), the same shapes the tests of ``tests/chunking/test_linear_time.py`` time at n and 4n.

CPU time of this process, best of three, each measurement repeated to at least 2 ms
(``bench/cputime.py``, the loop the n-against-4n tests use too). A series
stops early (and is reported as such) when one measurement takes over ``--max-seconds``.

    python bench/superlinear.py                   # both; writes bench/results/superlinear.json
    python bench/superlinear.py --only documents  # or patterns
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cputime import cpu_seconds
from skills.chunking import LANGUAGES, chunk_document
from skills.chunking.markup.markdown.fences import indented_code_lines

MODULES = (
    "markup.markdown",
    "markup.markdown.blocks",
    "markup.markdown.dialects",
    "markup.markdown.fences",
    "markup.markdown.inline",
    "markup.markdown.matter",
    "markup.markdown.tables",
    "markup.plaintext",
    "markup.rst",
    "markup.html_tables",
    "outline",
    "pack",
    "finer",
    "prefix",
    "token_index",
    "sentences",
    "chunker",
    "pages",
    "ids",
    "markup.code",
    "markup.languages",
)
SEEDS = (
    "a", " ", "\t", "\n", "a ", " \n", "\n    x", "[", "[a](", "(", "<a ", "<tr", "{#", "#",
    "|", "| a ", "-", "=", "*", "`", ">", "1. ", ". ", "A. ", "::", ":a:", "中", "x9/",
)  # fmt: skip
REPEATS = 3  # documents; patterns, about 1,700 series, are measured once
MIN_SECONDS = 0.002  # each measurement repeats its call to this much CPU time


def series(
    make: Callable[[int], str],
    run: Callable[[str], object],
    base: int,
    limit: float,
    repeats: int = REPEATS,
) -> dict[str, Any]:
    """Times of ``run(make(base * 2**k))`` for k = 0..5, and the exponent of their growth over
    the last two doublings (a log-log slope: 1 linear, 2 quadratic)."""
    sizes: list[int] = []
    seconds: list[float] = []
    for k in range(6):
        text = make(base << k)
        sizes.append(len(text))
        seconds.append(cpu_seconds(lambda text=text: run(text), repeats, MIN_SECONDS))
        if seconds[-1] > limit:
            break
    first = max(0, len(sizes) - 3)
    growth = math.log(seconds[-1] / seconds[first]) / math.log(sizes[-1] / sizes[first])
    return {
        "chars": sizes,
        "seconds": seconds,
        "exponent": round(growth, 2),
        "complete": len(sizes) == 6,
    }


def patterns() -> dict[str, re.Pattern[str]]:
    """Every module-level compiled pattern of the engine, by ``module.NAME``."""
    found: dict[str, re.Pattern[str]] = {}
    for name in MODULES:
        module = importlib.import_module(f"skills.chunking.{name}")
        for attribute, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found.setdefault(f"{name.removeprefix('markup.')}.{attribute}", value)
    found["markdown.fences.indented_code_lines(4)"] = indented_code_lines(4)
    for language in LANGUAGES.values():  # patterns held by the languages table's entries
        if language.fallback_signs is not None:
            found[f"languages.{language.name}.fallback_signs"] = language.fallback_signs
    return found


def sweep_patterns(limit: float) -> list[dict[str, Any]]:
    rows = []
    for name, pattern in patterns().items():
        worst: dict[str, Any] | None = None
        for seed in SEEDS:

            def make(chars: int, seed: str = seed) -> str:
                return (seed * (chars // len(seed) + 1))[:chars]

            result = series(
                make, lambda text, p=pattern: sum(1 for _ in p.finditer(text)), 256, limit, 1
            )
            if worst is None or result["exponent"] > worst["exponent"]:
                worst = {"pattern": name, "seed": seed, **result}
        assert worst is not None
        rows.append(worst)
        print(f"{name:45} worst seed {worst['seed']!r:10} exponent {worst['exponent']}", flush=True)
    return rows


def _rows(count: int) -> str:
    return "".join(f"| r{k} | value {k} |\n" for k in range(count))


#: name -> (document of n units, format, n at the smallest size)
DOCUMENTS: dict[str, tuple[Callable[[int], str], str | None, int]] = {
    "headings: many sections": (
        lambda n: "".join(f"## H{k}\n\ntext {k}.\n\n" for k in range(n)),
        None,
        250,
    ),
    "headings: one of many words": (lambda n: "# " + "word " * n + "\n\ntext\n", None, 500),
    "headings: one of many links": (lambda n: "# " + "[a](b) " * n + "\n\ntext\n", None, 500),
    "headings: one of '['": (lambda n: "# " + "[" * n + "\n\ntext\n", None, 2000),
    "headings: one of '<a '": (lambda n: "# " + "<a " * n + "\n\ntext\n", None, 1000),
    "headings: one of '{#'": (lambda n: "# " + "{#" * n + "\n\ntext\n", None, 1000),
    "headings: consecutive, no text": (
        lambda n: "".join(f"# H{k}\n" for k in range(n)) + "text\n",
        None,
        250,
    ),
    "tables: many rows": (lambda n: "| a | b |\n|---|---|\n" + _rows(n), None, 250),
    "tables: many columns": (
        lambda n: "|" + "a|" * n + "\n|" + "-|" * n + "\n|" + "b|" * n + "\n",
        None,
        500,
    ),
    "tables: row without closing pipe": (
        lambda n: "| a | b |\n|---|---|\n| " + "x " * n + "\n",
        None,
        1000,
    ),
    "tables: many delimiter rows": (lambda n: "a | b\n" + "--- | ---\n" * n, None, 500),
    "fences: many blocks": (
        lambda n: "".join(f"```\ncode {k}\n```\n\n" for k in range(n)),
        None,
        250,
    ),
    "fences: one long block": (lambda n: "```py\n" + "x = 1\n" * n + "```\n", None, 500),
    "fences: unclosed, many fence lines": (lambda n: "```\n" * n, None, 500),
    "fences: in list items": (
        lambda n: "".join(f"- item\n\n    ```\n    c{k}\n    ```\n" for k in range(n)),
        None,
        200,
    ),
    "fences: in quotes": (
        lambda n: "".join(f"> ```\n> c{k}\n> ```\n\n" for k in range(n)),
        None,
        200,
    ),
    "lists: many items": (lambda n: "".join(f"- item {k}\n" for k in range(n)), None, 500),
    "lists: alternating depths": (
        lambda n: "".join(("  " * (k % 8)) + f"- item {k}\n" for k in range(n)),
        None,
        500,
    ),
    "quotes: many lines": (lambda n: "".join(f"> quoted line {k}\n" for k in range(n)), None, 500),
    "quotes: one line of many '>'": (lambda n: ">" * n + " x\n", None, 1000),
    "html: many tables": (lambda n: "<table>\n<tr><td>a</td></tr>\n</table>\n\n" * n, None, 250),
    "html: unclosed tables": (lambda n: "<table>\n<tr><td>a\n" * n, None, 250),
    "html: one long cell": (
        lambda n: "<table>\n<tr><th>h</th></tr>\n<tr><td>" + "word " * n + "</td></tr>\n</table>\n",
        None,
        1000,
    ),
    "html: one cell of many lines": (
        lambda n: (
            "<table>\n<tr><th>h</th></tr>\n<tr><td>" + "word\n" * n + "</td></tr>\n</table>\n"
        ),
        None,
        1000,
    ),
    "html: unclosed comments": (lambda n: "<!-- note\n\ntext\n\n" * n, None, 250),
    "html: bare tag lines": (lambda n: '<a id="x"></a>\n\ntext\n\n' * n, None, 250),
    "rst: many titles": (
        lambda n: "".join(f"Title {k}\n{'=' * 9}\n\ntext\n\n" for k in range(n)),
        "rst",
        250,
    ),
    "rst: long grid table": (
        lambda n: "+---+---+\n| a | b |\n+===+===+\n" + "| x | y |\n+---+---+\n" * n,
        "rst",
        250,
    ),
    "rst: unclosed simple-table borders": (lambda n: "====  ====\n\ntext\n\n" * n, "rst", 250),
    "rst: list-table, all header": (
        lambda n: (
            f"T\n=\n\n.. list-table::\n   :header-rows: {n + 5}\n\n"
            + "".join(f"   * - a{k}\n     - b\n" for k in range(n))
        ),
        "rst",
        125,
    ),
    "rst: many code directives": (lambda n: ".. code-block:: py\n\n   x = 1\n\n" * n, "rst", 250),
    "rst: one long literal block": (lambda n: "Code::\n\n" + "    x = 1\n" * n, "rst", 500),
    "rst: definition list": (
        lambda n: "".join(f"term {k}\n   definition {k}\n" for k in range(n)),
        "rst",
        250,
    ),
    "blank runs: text": (lambda n: "a" + "\n" * n, "text", 2000),
    "blank runs: markdown": (lambda n: "# t\n\na" + "\n" * n, None, 2000),
    "blank runs: spaced, markdown": (lambda n: "a\n" + " \n" * n, None, 1000),
    "blank runs: rst": (lambda n: "Title\n=====\n\na" + "\n" * n, "rst", 2000),
    "long lines: words": (lambda n: "word " * n, "text", 1000),
    "long lines: no spaces": (lambda n: "x" * n, "text", 4000),
    "long lines: spaces": (lambda n: "a" + " " * n + "b", "text", 4000),
    "long lines: 'x9/'": (lambda n: "x9/" * n, "text", 2000),
    "long lines: CJK": (lambda n: "中文。" * n, "text", 1000),
    "long lines: sentences": (lambda n: "A short one. " * n, "text", 500),
    "long lines: abbreviations": (lambda n: "see e.g. this " * n, "text", 500),
}


def sweep_documents(limit: float) -> list[dict[str, Any]]:
    rows = []
    chunk_document("warm up the tokenizer")
    for name, (make, format, base) in DOCUMENTS.items():
        result = series(make, lambda text, f=format: chunk_document(text, format=f), base, limit)
        rows.append({"family": name, **result})
        print(
            f"{name:40} {result['chars'][-1]:>8} chars {result['seconds'][-1]:8.4f} s "
            f"exponent {result['exponent']}",
            flush=True,
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=("patterns", "documents"))
    parser.add_argument("--max-seconds", type=float, default=2.0, help="per document measure")
    parser.add_argument("--max-pattern-seconds", type=float, default=0.1, help="per pattern one")
    parser.add_argument(
        "--json", type=Path, default=Path(__file__).parent / "results" / "superlinear.json"
    )
    args = parser.parse_args()
    results: dict[str, Any] = {"python": sys.version.split()[0]}
    if args.only in (None, "documents"):
        results["documents"] = sweep_documents(args.max_seconds)
    if args.only in (None, "patterns"):
        results["patterns"] = sweep_patterns(args.max_pattern_seconds)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
