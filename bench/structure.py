"""How much of a file's structure reaches the index: headings, sections, clean text (issue 30).

Each truth file (``bench/structure/truth/<name>.json``, hand-written by reading the rendered
pages) names a file and its headings::

    {"file": "pypdf/git.pdf", "title": "...",
     "headings": [{"level": 1, "text": "Introduction", "page": 1}, ...], "notes": "..."}

``file`` is a manifest name (``bench/corpus.py`` rebuilds it into ``.cache/corpus/files``) or a
path from the repository root. Levels are relative: 1 is the top level of the document's body.
The file goes through the skill's own path, ``read_file`` then ``chunk_document`` at the default
options, and this counts, per file and over all files:

- **heading recall and precision**: a heading that reaches the index (an element of the
  children's heading paths, whether the converter wrote it or the engine found it in plain text)
  matches a true one when their normalised texts are equal (case, spacing, quotes and dashes
  aside) and, where both are known, their pages are; each true heading matches at most once,
  in document order.
- **level agreement**: over consecutive matched headings, the share whose step (deeper, same,
  shallower) is the true step: relative nesting, not absolute numbers.
- **children in their true section**: the share of children whose heading path ends with the
  true heading their text sits under (none, before the first true heading).
- **hyphen splits**: tokens ``xxx-yyy`` in the children where ``xxxyyy`` appears elsewhere in
  the converted text unhyphenated (a word cut at a line end and not joined again).
- **furniture lines**: lines found at the same place (among a page's first or last two lines,
  digits aside) on at least half of a PDF's pages, at least three, that are still in children.
- **page markers in embedText**: children whose ``embedText`` holds a ``<!-- Page...-->``
  marker, and children made of nothing else.

``--markitdown`` also runs MarkItDown (a bench-only dependency: ``bench/requirements.txt``; its
output has no pages, so its headings match by text alone) through the same engine.

    python bench/corpus.py                    # fill .cache/corpus first
    python bench/structure.py                 # a Markdown table; bench/results/structure.json
    python bench/structure.py --markitdown --json bench/results/structure.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import cached  # noqa: E402
from skills.chunking import ChunkOptions, chunk_document  # noqa: E402
from skills.chunking.pages import PageMap  # noqa: E402
from skills.formats.read import read_file  # noqa: E402

TRUTH = ROOT / "bench" / "structure" / "truth"
DEFAULT_JSON = ROOT / "bench" / "results" / "structure.json"
_MARKER = re.compile(r"<!--\s*Page(?:Break|Number|Header|Footer)\b[^>]*-->")
_HYPHENATED = re.compile(r"\b([A-Za-z]{2,})-([a-z]{2,})\b")
_WORD = re.compile(r"[A-Za-z]{4,}")
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-"})


def normalise(text: str) -> str:
    """Text as two writers of the same heading would agree on it.

    >>> normalise("  2.1  The  ‘Quick’ Start: ")
    "2.1 the 'quick' start"
    """
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).replace("\\", "")
    return " ".join(text.casefold().split()).rstrip(" .:")


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str
    page: int | None
    at: int = -1  # position in the converted text, when known


@dataclass
class Score:
    """One file's counts (or the sum over files)."""

    files: int = 1
    true_headings: int = 0
    found_headings: int = 0
    matched: int = 0
    level_steps: int = 0
    level_agree: int = 0
    children: int = 0
    in_true_section: int = 0
    hyphen_splits: int = 0
    furniture_left: int = 0
    marker_children: int = 0
    marker_only_children: int = 0
    title: str = ""
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in (
            "files", "true_headings", "found_headings", "matched", "level_steps", "level_agree",
            "children", "in_true_section", "hyphen_splits", "furniture_left", "marker_children",
            "marker_only_children",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def shares(self) -> dict[str, float]:
        def share(part: int, whole: int) -> float:
            return round(part / whole, 3) if whole else 1.0

        return {
            "recall": share(self.matched, self.true_headings),
            "precision": share(self.matched, self.found_headings),
            "levels": share(self.level_agree, self.level_steps),
            "in_section": share(self.in_true_section, self.children),
        }


def found_headings(leaves: list[Any]) -> list[Heading]:
    """The headings that reach the index: each new element of the children's heading paths, in
    order (level: its depth in the path; page: the first page of the first child under it)."""
    found: list[Heading] = []
    previous: tuple[str, ...] = ()
    for leaf in leaves:
        path = tuple(leaf.headings)
        for depth, text in enumerate(path):
            if depth < len(previous) and previous[: depth + 1] == path[: depth + 1]:
                continue
            page = leaf.pages[0] if leaf.pages else None
            found.append(Heading(depth + 1, text, page, leaf.start))
        previous = path
    return found


def match(true: list[Heading], found: list[Heading]) -> list[tuple[int, int]]:
    """(true index, found index) pairs: equal normalised text, equal page where both known, in
    document order (a found heading never matches a true one before the last match)."""
    pairs: list[tuple[int, int]] = []
    start = 0
    for f_index, heading in enumerate(found):
        key = normalise(heading.text)
        for t_index in range(start, len(true)):
            wanted = true[t_index]
            same_page = heading.page is None or wanted.page is None or heading.page == wanted.page
            if normalise(wanted.text) == key and same_page:
                pairs.append((t_index, f_index))
                start = t_index + 1
                break
    return pairs


def level_agreement(
    true: list[Heading], found: list[Heading], pairs: list[tuple[int, int]]
) -> tuple[int, int]:
    """(steps, agreeing steps) over consecutive matched pairs."""

    def step(a: int, b: int) -> int:
        return (b > a) - (b < a)

    agree = 0
    for (t0, f0), (t1, f1) in itertools.pairwise(pairs):
        agree += step(true[t0].level, true[t1].level) == step(found[f0].level, found[f1].level)
    return max(0, len(pairs) - 1), agree


def locate(true: list[Heading], markdown: str) -> list[Heading]:
    """The true headings with their position in the converted text: found in order by their
    normalised words; one not found starts at its page's start (or stays unknown)."""
    flat, index = _flatten(markdown)
    starts = [0] + [m.end() for m in re.finditer(r"<!--\s*PageBreak\s*-->", markdown)]
    placed: list[Heading] = []
    cursor = 0
    for heading in true:
        key = normalise(heading.text)
        at = flat.find(key, cursor) if key else -1
        if at >= 0:
            cursor = at + len(key)
            position = index[at]
        elif heading.page is not None and heading.page - 1 < len(starts):
            position = starts[heading.page - 1]
        else:
            position = -1
        placed.append(Heading(heading.level, heading.text, heading.page, position))
    return placed


def _flatten(markdown: str) -> tuple[str, list[int]]:
    """The text normalised as :func:`normalise` does, with each character's source position."""
    out: list[str] = []
    index: list[int] = []
    space = True
    for position, char in enumerate(markdown):
        char = unicodedata.normalize("NFKC", char).translate(_QUOTES).casefold()
        if char == "\\" or char == "#":
            continue
        if char.isspace():
            if not space:
                out.append(" ")
                index.append(position)
            space = True
            continue
        for piece in char:
            out.append(piece)
            index.append(position)
        space = False
    return "".join(out), index


def true_section(placed: list[Heading], position: int) -> str:
    """The normalised text of the last true heading at or before ``position`` ('' if none)."""
    section = ""
    for heading in sorted((h for h in placed if h.at >= 0), key=lambda h: h.at):
        if heading.at > position:
            break
        section = normalise(heading.text)
    return section


def hyphen_splits(markdown: str, texts: list[str]) -> int:
    words = set(w.casefold() for w in _WORD.findall(markdown))
    count = 0
    for text in texts:
        for m in _HYPHENATED.finditer(text):
            count += (m.group(1) + m.group(2)).casefold() in words
    return count


def furniture(data: bytes) -> set[str]:
    """Lines repeated at the same place (first or last two of a page) on >= half the pages."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        seen: Counter[tuple[int, str]] = Counter()
        for page in pdf:
            textpage = page.get_textpage()
            lines = [" ".join(line.split()) for line in textpage.get_text_range().splitlines()]
            lines = [line for line in lines if line]
            for place, line in [*enumerate(lines[:2]), *enumerate(lines[-2:], start=-2)]:
                seen[(place, re.sub(r"\d+", "#", line))] += 1
            textpage.close()
            page.close()
        pages = len(pdf)
    finally:
        pdf.close()
    if pages < 3:
        return set()
    return {line for (_, line), n in seen.items() if n * 2 >= pages and len(line) > 1}


def furniture_left(lines: set[str], texts: list[str]) -> int:
    if not lines:
        return 0
    count = 0
    for text in texts:
        for line in text.splitlines():
            count += re.sub(r"\d+", "#", " ".join(line.split()).lstrip("#> -")) in lines
    return count


def resolve(name: str) -> Path:
    path = ROOT / name
    return path if path.is_file() else cached(name)


def score(truth: dict[str, Any], markdown: str | None = None, title: str | None = None) -> Score:
    """One file's score through the skill's path (or, given ``markdown``, another converter's)."""
    path = resolve(truth["file"])
    data = path.read_bytes()
    if markdown is None:
        file = read_file(data, path.name)
        markdown, title, fmt = file.text, file.title, file.markup
    else:
        fmt = None
    result = chunk_document(markdown, title=title, format=fmt, document_key=path.name,
                            options=ChunkOptions())  # fmt: skip
    true = [Heading(h["level"], h["text"], h.get("page")) for h in truth["headings"]]
    leaves = list(result.leaves)
    found = found_headings(leaves)
    if not PageMap(markdown).pages(0, len(markdown)):
        found = [Heading(h.level, h.text, None, h.at) for h in found]
        true = [Heading(h.level, h.text, None) for h in true]
    pairs = match(true, found)
    steps, agree = level_agreement(true, found, pairs)
    placed = locate(true, markdown)
    texts = [leaf.text for leaf in leaves]
    in_section = sum(
        normalise(leaf.headings[-1] if leaf.headings else "") == true_section(placed, leaf.start)
        for leaf in leaves
    )
    lines = furniture(data) if path.suffix.lower() == ".pdf" else set()
    matched_true = {t for t, _ in pairs}
    matched_found = {f for _, f in pairs}
    return Score(
        true_headings=len(true), found_headings=len(found), matched=len(pairs),
        level_steps=steps, level_agree=agree, children=len(leaves), in_true_section=in_section,
        hyphen_splits=hyphen_splits(markdown, texts), furniture_left=furniture_left(lines, texts),
        marker_children=sum(bool(_MARKER.search(leaf.embed_text)) for leaf in leaves),
        marker_only_children=sum(not _MARKER.sub("", leaf.text).strip() for leaf in leaves),
        title=title or "",
        misses=[f"p{h.page} {h.text}" for i, h in enumerate(true) if i not in matched_true],
        wrong=[f"p{h.page} {h.text}" for i, h in enumerate(found) if i not in matched_found],
    )  # fmt: skip


def markitdown_text(path: Path) -> str:
    from markitdown import MarkItDown  # bench/requirements.txt

    return str(MarkItDown().convert(str(path)).text_content)


def truths(folder: Path, only: str | None) -> list[dict[str, Any]]:
    found = []
    for path in sorted(folder.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        if only is None or re.search(only, truth["file"]):
            found.append(truth)
    return found


def table(rows: dict[str, Score]) -> str:
    lines = [
        "| file | true | found | recall | precision | levels | children | in section | "
        "hyphen splits | furniture | marker children | marker-only |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in rows.items():
        share = s.shares()
        lines.append(
            f"| {name} | {s.true_headings} | {s.found_headings} | {share['recall']:.0%} | "
            f"{share['precision']:.0%} | {share['levels']:.0%} | {s.children} | "
            f"{share['in_section']:.0%} | {s.hyphen_splits} | {s.furniture_left} | "
            f"{s.marker_children} | {s.marker_only_children} |"
        )
    return "\n".join(lines)


def run(folder: Path, only: str | None, markitdown: bool) -> dict[str, dict[str, Score]]:
    paths: dict[str, dict[str, Score]] = {"this skill": {}}
    if markitdown:
        paths["markitdown"] = {}
    for truth in truths(folder, only):
        for path, rows in paths.items():
            if path == "this skill":
                rows[truth["file"]] = score(truth)
            else:
                rows[truth["file"]] = score(truth, markitdown_text(resolve(truth["file"])))
    for rows in paths.values():
        total = Score(files=0)
        for row in list(rows.values()):
            total.add(row)
        rows["all"] = total
    return paths


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--truth", type=Path, default=TRUTH, help="folder of truth files")
    parser.add_argument("--only", help="a regular expression over truth files' 'file'")
    parser.add_argument("--markitdown", action="store_true", help="MarkItDown beside ours")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--misses", action="store_true", help="list missed and wrong headings")
    args = parser.parse_args(argv)
    missing = [t["file"] for t in truths(args.truth, args.only) if not resolve(t["file"]).is_file()]
    if missing:
        print(f"missing {missing}: run python bench/corpus.py first", file=sys.stderr)
        return 2
    paths = run(args.truth, args.only, args.markitdown)
    for path, rows in paths.items():
        print(f"\n### {path}\n\n{table(rows)}")
        if args.misses:
            for name, s in rows.items():
                for text in s.misses:
                    print(f"- {name}: missed {text}")
                for text in s.wrong:
                    print(f"- {name}: not a true heading {text}")
    report = {
        path: {name: {**asdict(s), **s.shares()} for name, s in rows.items()}
        for path, rows in paths.items()
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
