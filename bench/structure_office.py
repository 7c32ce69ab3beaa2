"""What of an Office file's structure its converter keeps, against hand-written truth (issue 31).

``bench/structure.py`` scores the headings that reach the index as children's heading paths;
Office files in the corpus are small (most are one child), so this scores the converter's
Markdown itself, on the same truth files (``bench/real_files/truth/*.json`` whose ``file`` is a
``.docx`` or ``.xlsx``):

- **Word headings**: the ATX headings of the Markdown against the truth's ``headings``, by
  normalised text in order (recall, precision) and level (the share of matched headings whose
  level is the truth's);
- **sheet headers**: for each truth sheet, whether the first table under ``# <sheet name>`` has
  the truth's ``header`` as its header row (``header_row: null``: an empty header row);
- **numbers as displayed**: for each ``displayed`` entry, whether the text is a cell of that
  sheet's tables.

    python bench/corpus.py bench/real_files/office.json     # fill .cache/corpus first
    python bench/structure_office.py
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.structure import TRUTH, normalise, resolve  # noqa: E402
from skills.formats.conversion import ConversionError  # noqa: E402
from skills.formats.read import read_file  # noqa: E402

_ATX = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_RULE = re.compile(r"^\|( --- \|)+$")


def headings(markdown: str) -> list[tuple[int, str]]:
    return [(len(m.group(1)), normalise(m.group(2))) for m in _ATX.finditer(markdown)]


def word_score(truth: dict[str, Any], markdown: str) -> dict[str, int]:
    true = [(h["level"], normalise(h["text"])) for h in truth["headings"]]
    found = headings(markdown)
    matched = levels = start = 0
    for level, text in found:
        for index in range(start, len(true)):
            if true[index][1] == text:
                matched += 1
                levels += true[index][0] == level
                start = index + 1
                break
    return {"true": len(true), "found": len(found), "matched": matched, "levels": levels}


def sheet_sections(markdown: str) -> dict[str, str]:
    """Each sheet's Markdown by sheet name (a sheet is a heading: level 1 here, level 2 in
    MarkItDown's)."""
    parts = re.split(r"^#{1,6} (.+)$", markdown, flags=re.MULTILINE)
    return {normalise(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def first_header(section: str) -> list[str] | None:
    lines = section.splitlines()
    for index, line in enumerate(lines):
        if _RULE.match(line) and index > 0:
            cells = [normalise(c) for c in lines[index - 1].strip().strip("|").split(" | ")]
            while cells and not cells[-1]:
                cells.pop()
            return cells
    return None


def sheet_score(truth: dict[str, Any], markdown: str) -> dict[str, Any]:
    sections = sheet_sections(markdown)
    right, wrong = 0, []
    for sheet in truth.get("sheets", []):
        header = first_header(sections.get(normalise(sheet["name"]), ""))
        wanted = [normalise(c) for c in sheet["header"]]
        ok = header is not None and (header == wanted if sheet["header_row"] else not header)
        right += ok
        if not ok:
            wrong.append(f"{sheet['name']}: {header}")
    shown = 0
    for entry in truth.get("displayed", []):
        section = sections.get(normalise(entry["sheet"]), "")
        shown += f"| {entry['text']} |" in section
    return {
        "sheets": len(truth.get("sheets", [])),
        "sheets_right": right,
        "displayed": len(truth.get("displayed", [])),
        "displayed_right": shown,
        "wrong": wrong,
    }


def markitdown_text(path: Path) -> str:
    """MarkItDown's Markdown of the file (not a project dependency: install it apart, e.g.
    ``pip install --target DIR markitdown[docx,xlsx]`` and run with ``PYTHONPATH=DIR``); a file
    it cannot convert counts as empty."""
    from markitdown import MarkItDown

    try:
        return str(MarkItDown().convert(str(path)).text_content)
    except Exception as exc:
        print(f"{path.name}: MarkItDown failed ({type(exc).__name__})", file=sys.stderr)
        return ""


def _converted(source: Path, name: str) -> str:
    """The converter's Markdown, or nothing when the file does not convert (said on stderr): a
    file refused is a measured loss, not the end of the run."""
    try:
        return read_file(source.read_bytes(), source.name).text
    except ConversionError as error:
        print(f"{name} does not convert, counted as nothing found: {error}", file=sys.stderr)
        return ""


def run(only: str | None, converter: str) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for path in sorted(TRUTH.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        name = truth["file"]
        if not re.search(r"\.(docx|xlsx)$", name) or (only and not re.search(only, name)):
            continue
        source = resolve(name)
        if converter == "markitdown":
            markdown = markitdown_text(source)
        else:
            markdown = _converted(source, name)
        if name.endswith(".docx"):
            rows[name] = word_score(truth, markdown)
        else:
            rows[name] = sheet_score(truth, markdown)
    return rows


def summary(rows: dict[str, dict[str, Any]]) -> dict[str, float | int]:
    def total(key: str) -> int:
        return sum(int(row.get(key, 0)) for row in rows.values())

    def share(part: int, whole: int) -> float:
        return part / whole if whole else 1.0

    return {
        "word_files": sum(name.endswith(".docx") for name in rows),
        "heading_recall": share(total("matched"), total("true")),
        "heading_precision": share(total("matched"), total("found")),
        "heading_levels": share(total("levels"), total("matched")),
        "sheets_right": total("sheets_right"),
        "sheets": total("sheets"),
        "displayed_right": total("displayed_right"),
        "displayed": total("displayed"),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="a regular expression over truth files' 'file'")
    parser.add_argument("--markitdown", action="store_true", help="MarkItDown instead of ours")
    args = parser.parse_args(argv)
    converter = "markitdown" if args.markitdown else "this skill"
    rows = run(args.only, converter)
    for name, row in rows.items():
        print(name, {k: v for k, v in row.items() if v or k != "wrong"})
    print(converter, json.dumps(summary(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
