"""Tables out of real PDFs: our pipe tables against pdfplumber's and MarkItDown's (issue 30).

Each file of ``bench/real_files/tables/`` names a corpus PDF and its tables as read on the
rendered pages, header row first::

    {"file": "tabula-py/data.pdf", "round": 1, "tables": [{"page": 1, "rows": [["", "mpg", ...]]}]}

``round`` says when the truth was written: round 1 with the first table rules, round 2 (wrapped
cells, headers of two lines, a table going on over a page break) before the rules for them;
each round is totalled on its own row as well as in ``all``.

For every true table, the tables a converter writes on that page (MarkItDown's output has no
pages: all of its tables) are searched, and this counts:

- **header right**: a table whose first row is the true header;
- **rows whole**: true rows written as one row with every cell right (a row cut over two, or
  with a cell split or merged, is not);
- **cells right**: over all true rows, the cells equal to the same column of the output row that
  agrees best with it (how much of the table survives, even when rows are not whole);
- **seconds**: the converter's time over the files (best of two).

Cells compare without spaces and case (a cell wrapped over lines, or CJK text, has none to agree
on), Markdown escapes aside.

    python bench/corpus.py bench/real_files/pdf.json   # fill .cache/corpus first
    python bench/tables.py                              # this skill, pdfplumber, MarkItDown
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.structure import markitdown_text, resolve  # noqa: E402
from skills.formats.read import read_file  # noqa: E402

TRUTH = ROOT / "bench" / "real_files" / "tables"
_PAGE_BREAK = re.compile(r"<!--\s*PageBreak\s*-->")
_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")

Table = list[list[str]]
#: page (from 1) -> the tables on it; page 0 holds a converter's tables when it has no pages
Tables = dict[int, list[Table]]


@dataclass
class Score:
    tables: int = 0
    header_right: int = 0
    rows: int = 0
    rows_whole: int = 0
    cells: int = 0
    cells_right: int = 0
    seconds: float = 0.0

    def add(self, other: Score) -> None:
        for name in ("tables", "header_right", "rows", "rows_whole", "cells", "cells_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds


def cell(text: str | None) -> str:
    """A cell as two readers agree on it: no spaces, no case, no Markdown escapes.

    >>> cell(" Sepal.Length "), cell("稻種直接消毒24小時後，\\n再浸水催芽。"), cell("a \\\\| b")
    ('sepal.length', '稻種直接消毒24小時後，再浸水催芽。', 'a|b')
    """
    text = (text or "").replace("\\|", "|").replace("\\", "")
    return "".join(text.split()).casefold()


def markdown_tables(markdown: str, paged: bool = True) -> Tables:
    """The pipe tables of a Markdown text, by page (its page break markers), header first."""
    found: Tables = {}
    pages = _PAGE_BREAK.split(markdown) if paged else [markdown]
    for number, text in enumerate(pages, start=1 if paged else 0):
        table: Table = []
        for line in [*text.splitlines(), ""]:
            stripped = line.strip()
            if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
                if not _SEPARATOR.match(stripped):
                    table.append([c.strip() for c in _CELL_SPLIT.split(stripped[1:-1])])
                continue
            if table:
                found.setdefault(number, []).append(table)
            table = []
    return found


def ours(path: Path) -> Tables:
    return markdown_tables(read_file(path.read_bytes(), path.name).text)


def pdfplumber_tables(path: Path) -> Tables:
    """pdfplumber's ``extract_tables`` on every page (its default: ruling lines)."""
    _markitdown_path()
    import pdfplumber

    found: Tables = {}
    with pdfplumber.open(str(path)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            tables = [[[c or "" for c in row] for row in t] for t in page.extract_tables()]
            if tables:
                found[number] = tables
    return found


def pdfplumber_text_tables(path: Path) -> Tables:
    """pdfplumber with its text strategy (columns from aligned words, no ruling lines)."""
    _markitdown_path()
    import pdfplumber

    settings = {"vertical_strategy": "text", "horizontal_strategy": "text"}
    found: Tables = {}
    with pdfplumber.open(str(path)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            tables = [[[c or "" for c in row] for row in t] for t in page.extract_tables(settings)]
            if tables:
                found[number] = tables
    return found


def markitdown_tables(path: Path) -> Tables:
    return markdown_tables(markitdown_text(path), paged=False)


def _markitdown_path() -> None:
    target = ROOT / ".cache" / "markitdown"  # where bench/structure.py installs MarkItDown
    if target.is_dir() and str(target) not in sys.path:
        sys.path.append(str(target))


def score(true: dict[str, Any], tables: Tables) -> Score:
    """One true table against the tables written on its page."""
    rows = [[cell(c) for c in row] for row in true["rows"]]
    candidates = [
        [[cell(c) for c in row] for row in table]
        for table in tables.get(true["page"], tables.get(0, []))
    ]
    out_rows = [row for table in candidates for row in table]
    whole = sum(any(row == out for out in out_rows) for row in rows)
    right = sum(max((_agree(row, out) for out in out_rows), default=0) for row in rows)
    return Score(
        tables=1,
        header_right=int(any(table and table[0] == rows[0] for table in candidates)),
        rows=len(rows),
        rows_whole=whole,
        cells=sum(len(row) for row in rows),
        cells_right=right,
    )


def _agree(row: list[str], out: list[str]) -> int:
    return sum(a == b for a, b in zip(row, out, strict=False)) if len(out) == len(row) else 0


CONVERTERS: dict[str, Callable[[Path], Tables]] = {
    "this skill": ours,
    "pdfplumber (lines)": pdfplumber_tables,
    "pdfplumber (text)": pdfplumber_text_tables,
    "markitdown": markitdown_tables,
}


def run(folder: Path, names: list[str]) -> dict[str, dict[str, Score]]:
    results: dict[str, dict[str, Score]] = {name: {} for name in names}
    rounds: dict[str, int] = {}
    for path in sorted(folder.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        rounds[truth["file"]] = int(truth.get("round", 1))
        pdf = resolve(truth["file"])
        for name in names:
            best, tables = float("inf"), {}
            for _ in range(2):
                began = time.perf_counter()
                tables = CONVERTERS[name](pdf)
                best = min(best, time.perf_counter() - began)
            total = Score(seconds=best)
            for true in truth["tables"]:
                total.add(score(true, tables))
            results[name][truth["file"]] = total
    for rows in results.values():
        files = list(rows.items())
        for number in sorted(set(rounds.values())):
            rows[f"all (round {number})"] = _total(s for f, s in files if rounds[f] == number)
        rows["all"] = _total(s for _, s in files)
    return results


def _total(scores: Iterable[Score]) -> Score:
    total = Score()
    for one in scores:
        total.add(one)
    return total


def table(results: dict[str, dict[str, Score]]) -> str:
    lines = ["| converter | file | tables | header right | rows whole | cells right | seconds |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, rows in results.items():
        for file, s in rows.items():
            lines.append(
                f"| {name} | {file} | {s.tables} | {s.header_right} | {s.rows_whole}/{s.rows} | "
                f"{s.cells_right / s.cells:.0%} | {s.seconds:.2f} |"
            )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--converters", nargs="*", default=list(CONVERTERS), choices=CONVERTERS)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "results" / "tables.json")
    args = parser.parse_args(argv)
    missing = [
        t["file"]
        for t in (json.loads(p.read_text(encoding="utf-8")) for p in TRUTH.glob("*.json"))
        if not resolve(t["file"]).is_file()
    ]
    if missing:
        print(f"missing {missing}: run python bench/corpus.py first", file=sys.stderr)
        return 2
    results = run(TRUTH, args.converters)
    print(table(results))
    report = {name: {f: asdict(s) for f, s in rows.items()} for name, rows in results.items()}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
