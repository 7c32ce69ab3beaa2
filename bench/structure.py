"""How much of a file's structure reaches the index: headings, sections, clean text (issue 30).

Each truth file (``bench/real_files/truth/<name>.json``, hand-written by reading the rendered
pages) names a file and its headings::

    {"file": "pypdf/git.pdf", "title": "...",
     "headings": [{"level": 1, "text": "Introduction", "page": 1}, ...], "notes": "..."}

A PDF whose producer writes bookmarks can still test the typography: ``"bookmarks": "ignored"``
reads it as if it had none.

``file`` is a manifest name (``bench/corpus.py`` rebuilds it into ``.cache/corpus/files``) or a
path from the repository root. Levels are relative: 1 is the top level of the document's body.
A deck's truth (``.pptx``) lists each slide's title (its title or centre-title placeholder, as
shown) as a level-1 heading whose page is the slide's number, and the deck's title is its title
slide's title (none when no slide titles the deck); a workbook's lists its sheets' names, level 1.
The file goes through the skill's own path, ``read_file`` then ``chunk_document`` at the default
options, and this counts, per file and over all files:

- **heading recall and precision**: a section the engine reads in the converted text (a
  Markdown heading the converter wrote, or a numbered title the engine found in plain text)
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
  marker, and children made of nothing else;
- **titles**: files whose title (what heads every heading path) is the true one (or holds it, or
  is held in it), or none when the truth has none.

A truth file marked ``"held_out": "round N"`` was written by reading the pages before the
converter ran on its file; a ``held out (round N)`` row totals each round's files alone. A
round's first numbers are the honest measure of rules set on the others (rules fixed after a
round was measured make it held out no longer: ``docs/formats.md`` keeps both).

``--markitdown`` also runs MarkItDown (a bench-only dependency: ``bench/requirements.txt``; its
output has no pages, so its headings match by text alone) through the same engine.

    python bench/corpus.py                    # fill .cache/corpus first
    python bench/structure.py                 # a Markdown table, nothing written
    python bench/structure.py --json /tmp/s.json  # the numbers, as JSON, there
    python bench/structure.py --markitdown --write-results  # rewrites bench/results/...json
    python bench/structure.py --speed         # pages a second over every corpus PDF
    python bench/structure.py --memory        # peak memory per page at 120, 480, 960 pages
    python bench/structure.py --tagged-office # tagged PDFs (LibreOffice) of the Word truth files
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
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

from bench.corpus import cached, entries  # noqa: E402
from skills.chunking import ChunkOptions, PageMap, chunk_document, document_sections  # noqa: E402
from skills.formats.conversion import ConversionError  # noqa: E402
from skills.formats.read import read_file  # noqa: E402

TRUTH = ROOT / "bench" / "real_files" / "truth"
DEFAULT_JSON = ROOT / "bench" / "results" / "structure.json"
#: The totals over the truth files marked ``"held_out": "round N"``: written before the converter
#: was run on them, and not looked at while its rules were set (up to that round's first run).
HELD_OUT = "held out"
_LINE = re.compile(r"[^\n]+")
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
    titles_right: int = 0  # files whose title is the true one (or, with none, none is given)
    title: str = ""
    misses: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in (
            "files", "true_headings", "found_headings", "matched", "level_steps", "level_agree",
            "children", "in_true_section", "hyphen_splits", "furniture_left", "marker_children",
            "marker_only_children", "titles_right",
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


def found_headings(markdown: str, fmt: str, title: str | None) -> list[Heading]:
    """The sections the engine reads in the converted text (the converter's Markdown headings
    and the numbered titles the engine finds in plain text): what the heading paths are made
    of. Level: the section's depth; page: where its heading line is."""
    pages = PageMap(markdown)
    return [
        Heading(s.depth, s.title, (pages.pages(s.start, s.start + 1) or (None,))[0], s.start)
        for s in document_sections(markdown, title, fmt)
    ]


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
    """The true headings with their position in the converted text: in order, the first line
    (or two lines) after the previous one whose words are the heading's, on the heading's page
    or after it when it is found there (a contents page without page numbers repeats the words
    earlier), else from the previous one on, else the first occurrence of its words, else the
    start of its page (or unknown)."""
    lines = [
        (m.start(), normalise(m.group().lstrip("#"))) for m in re.finditer(r"[^\n]+", markdown)
    ]
    line_starts = [at for at, _ in lines]
    flat, index = _flatten(markdown)
    starts = [0] + [m.end() for m in re.finditer(r"<!--\s*PageBreak\s*-->", markdown)]
    placed: list[Heading] = []
    line_cursor = cursor = 0
    for heading in true:
        key = normalise(heading.text)
        found = None
        if heading.page is not None and heading.page - 1 < len(starts):
            first = bisect.bisect_left(line_starts, starts[heading.page - 1])
            found = _line_with(lines, key, max(line_cursor, first))
        if found is None:
            found = _line_with(lines, key, line_cursor)
        at = flat.find(key, cursor) if key and found is None else -1
        if found is not None:
            position = lines[found][0]
            line_cursor = found + 1
            cursor = flat_position(index, position)
        elif at >= 0:
            cursor = at + len(key)
            position = index[at]
        elif heading.page is not None and heading.page - 1 < len(starts):
            position = starts[heading.page - 1]
        else:
            position = -1
        placed.append(Heading(heading.level, heading.text, heading.page, position))
    return placed


def _line_with(lines: list[tuple[int, str]], key: str, start: int) -> int | None:
    """The first line from ``start`` (or two lines) whose words are ``key``."""
    return next(
        (
            n
            for n in range(start, len(lines))
            if lines[n][1] == key
            or (n + 1 < len(lines) and f"{lines[n][1]} {lines[n + 1][1]}" == key)
        ),
        None,
    )


def flat_position(index: list[int], position: int) -> int:
    """The first flattened character at or after source ``position``."""
    from bisect import bisect_left

    return bisect_left(index, position)


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


def score(
    truth: dict[str, Any],
    markdown: str | None = None,
    title: str | None = None,
    isolated: bool = True,
) -> Score:
    """One file's score through the skill's path (or, given ``markdown``, another converter's);
    not ``isolated``, it is read in this process, where a patched converter is the one used."""
    path = resolve(truth["file"])
    data = path.read_bytes()
    if markdown is None:
        ignore = truth.get("bookmarks") == "ignored"
        file = _read(data, path.name, ignore_bookmarks=ignore, isolated=isolated)
        markdown, title, fmt = file.text, file.title, file.markup
    else:
        fmt = None
    result = chunk_document(markdown, title=title, format=fmt, document_key=path.name,
                            options=ChunkOptions())  # fmt: skip
    true = [Heading(h["level"], h["text"], h.get("page")) for h in truth["headings"]]
    leaves = list(result.leaves)
    found = found_headings(markdown, result.format, title)
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
        titles_right=_same_title(title or "", str(truth.get("title") or "")),
        title=title or "",
        misses=[f"p{h.page} {h.text}" for i, h in enumerate(true) if i not in matched_true],
        wrong=[f"p{h.page} {h.text}" for i, h in enumerate(found) if i not in matched_found],
    )  # fmt: skip


def _read(data: bytes, name: str, ignore_bookmarks: bool, isolated: bool = True) -> Any:
    """The skill's reading of a file; with ``ignore_bookmarks`` a PDF is read as if it had no
    bookmarks (in this process, where the patch reaches), so a producer that writes them is
    measured on what typography alone finds (a truth file's ``"bookmarks": "ignored"``)."""
    if not ignore_bookmarks:
        return read_file(data, name, isolated=isolated)
    import skills.formats.pdf.convert as converter

    real = converter._bookmarks
    converter._bookmarks = lambda pdf: {}  # type: ignore[assignment]
    try:
        return read_file(data, name, isolated=False)
    finally:
        converter._bookmarks = real


def _same_title(found: str, true: str) -> int:
    """1 when the titles agree: equal, or one holds the other (metadata often says
    ``Arrests by Sex and Age`` where the page says ``Table 324. Arrests by Sex and Age: 2009``)."""
    found, true = normalise(found), normalise(true)
    return int(found == true or bool(found and true and (found in true or true in found)))


def markitdown_text(path: Path) -> str | None:
    """MarkItDown's Markdown of the file: installed from bench/requirements.txt, or into
    ``.cache/markitdown`` (``pip install --target .cache/markitdown markitdown[pdf]``) so that
    its dependencies stay out of the project's environment. None, said on stderr, for a file it
    cannot read (a missing optional dependency, a part it does not parse): such a file is left out
    of MarkItDown's column rather than scored as a file without structure."""
    target = ROOT / ".cache" / "markitdown"
    if target.is_dir() and str(target) not in sys.path:
        sys.path.append(str(target))
    from markitdown import MarkItDown

    try:
        return str(MarkItDown().convert(str(path)).text_content)
    except Exception as error:  # whatever it raises: the file is left out of its column
        reason = " ".join(str(error).split())[:200]
        print(f"MarkItDown cannot read {path.name}, left out: {reason}", file=sys.stderr)
        return None


def _scored(truth: dict[str, Any]) -> Score:
    """The file's score, or, when it does not convert, a row that found nothing (said on
    stderr): a file refused is a measured loss, not the end of the run."""
    try:
        return score(truth)
    except ConversionError as error:
        print(f"{truth['file']} does not convert, counted as nothing found: {error}",
              file=sys.stderr)  # fmt: skip
        headings = truth.get("headings") or []
        return Score(
            true_headings=len(headings),
            titles_right=_same_title("", str(truth.get("title") or "")),
            misses=[f"p{h.get('page')} {h.get('text')}" for h in headings],
        )


def truths(folder: Path, only: str | None) -> list[dict[str, Any]]:
    """The truth files of ``folder`` whose ``file`` ``only`` matches; ValueError naming the first
    that is not a truth file (a JSON object whose ``file`` is a name)."""
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            truth = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ValueError(f"{path.name} cannot be read as JSON: {error}") from None
        if not isinstance(truth, dict) or not isinstance(truth.get("file"), str):
            raise ValueError(f'{path.name} is not a truth file: no "file" name')
        if only is None or re.search(only, truth["file"]):
            found.append(truth)
    return found


def _pattern(text: str) -> str:
    """``--only``'s regular expression, refused with the reason when it does not compile."""
    try:
        re.compile(text)
    except re.error as error:
        raise argparse.ArgumentTypeError(f"not a regular expression ({error}): {text!r}") from None
    return text


def table(rows: dict[str, Score]) -> str:
    lines = [
        "| file | true | found | recall | precision | levels | children | in section | "
        "hyphen splits | furniture | marker children | marker-only | title |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in rows.items():
        share = s.shares()
        lines.append(
            f"| {name} | {s.true_headings} | {s.found_headings} | {share['recall']:.0%} | "
            f"{share['precision']:.0%} | {share['levels']:.0%} | {s.children} | "
            f"{share['in_section']:.0%} | {s.hyphen_splits} | {s.furniture_left} | "
            f"{s.marker_children} | {s.marker_only_children} | {s.titles_right}/{s.files} |"
        )
    return "\n".join(lines)


def run(folder: Path, only: str | None, markitdown: bool) -> dict[str, dict[str, Score]]:
    paths: dict[str, dict[str, Score]] = {"this skill": {}}
    if markitdown:
        paths["markitdown"] = {}
    held_out: dict[str, str] = {}  # file -> its row: "held out (round 1)"
    for truth in truths(folder, only):
        if truth.get("held_out"):
            held_out[truth["file"]] = f"{HELD_OUT} ({truth['held_out']})"
        for path, rows in paths.items():
            if path == "this skill":
                rows[truth["file"]] = _scored(truth)
            elif (text := markitdown_text(resolve(truth["file"]))) is not None:
                rows[truth["file"]] = score(truth, text)
    for rows in paths.values():
        totals = {"all": Score(files=0)}
        for name in sorted(set(held_out.values())):
            totals[name] = Score(files=0)
        for name, row in rows.items():
            totals["all"].add(row)
            if name in held_out:
                totals[held_out[name]].add(row)
        rows.update(totals)
    return paths


#: LibreOffice's PDF export as Word's "Save as PDF" does it by default: tagged, no bookmarks.
TAGGED_EXPORT = (
    'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"},'
    '"ExportBookmarks":{"type":"boolean","value":"false"}}'
)


def tagged_office(folder: Path) -> dict[str, dict[str, float]]:
    """The Word files with Office truth, exported by LibreOffice (``soffice``) as tagged PDFs
    without bookmarks into ``.cache/tagged-pdf``, scored three ways: typography alone, the
    structure tree alone (as bookmarks are read), and both merged (what the converter does)."""
    import shutil
    import subprocess

    import skills.formats.pdf.convert as converter

    out = ROOT / ".cache" / "tagged-pdf"
    out.mkdir(parents=True, exist_ok=True)
    pairs = []
    for truth in truths(folder, r"\.docx$"):
        source = resolve(truth["file"])
        pdf = out / (truth["file"].replace("/", "--")[: -len(".docx")] + ".pdf")
        if not pdf.is_file():
            copy = out / pdf.name.replace(".pdf", ".docx")
            shutil.copyfile(source, copy)
            subprocess.run(["soffice", "--headless", "--convert-to", TAGGED_EXPORT, "--outdir",
                            str(out), str(copy)], capture_output=True, check=True)  # fmt: skip
        pairs.append({**truth, "file": str(pdf)})
    real, merge = converter.tagged_headings, converter._with_tags
    modes = {
        "typography": (lambda pdf, pages, expired: {}, merge),
        "tags alone": (real, lambda typography, tagged: tagged),
        "merged": (real, merge),
    }
    results: dict[str, dict[str, float]] = {}
    try:
        for mode, (tags, combine) in modes.items():
            converter.tagged_headings, converter._with_tags = tags, combine  # type: ignore[assignment]
            total = Score(files=0)
            for truth in pairs:
                total.add(score(truth, isolated=False))  # (workers do not see the patch)
            results[mode] = {"files": total.files, "true": total.true_headings,
                             "found": total.found_headings, **total.shares()}  # fmt: skip
    finally:
        converter.tagged_headings, converter._with_tags = real, merge
    return results


def speed(names: list[str], repeats: int = 2) -> dict[str, float]:
    """Pages a second of ``read_file`` over the corpus PDFs (best of ``repeats`` per file)."""
    import time

    import pypdfium2 as pdfium

    pages = 0
    seconds = 0.0
    for name in names:
        data = resolve(name).read_bytes()
        try:
            count = len(pdfium.PdfDocument(data))
        except pdfium.PdfiumError:
            continue  # an encrypted test file
        best = float("inf")
        for _ in range(repeats):
            began = time.perf_counter()
            with contextlib.suppress(ValueError):  # a refused file costs its time too
                read_file(data, "file.pdf")
            best = min(best, time.perf_counter() - began)
        pages += count
        seconds += best
    return {"files": len(names), "pages": pages, "seconds": round(seconds, 3),
            "pages_per_second": round(pages / seconds) if seconds else 0}  # fmt: skip


def memory(copies: int) -> dict[str, float]:
    """Peak resident memory of converting the runbook fixture imported ``copies`` times (12
    pages each), above the process's level once the input is built, in a fresh process."""
    import subprocess

    result = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(copies)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(json.loads(result.stdout))


def _memory_child(copies: int) -> None:
    import io
    import resource

    import pypdfium2 as pdfium

    source = pdfium.PdfDocument(ROOT / "tests" / "formats" / "fixtures" / "operations-runbook.pdf")
    out = pdfium.PdfDocument.new()
    for _ in range(copies):
        out.import_pages(source)
    buffer = io.BytesIO()
    out.save(buffer)
    data = buffer.getvalue()
    read_file(b"# warm", "warm.md")
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read_file(data, "big.pdf", isolated=False)  # in this process: its memory is measured
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
    pages = 12 * copies
    print(json.dumps({"pages": pages, "peak_mb": round(peak / 1024, 1),
                      "kb_per_page": round(peak / pages)}))  # fmt: skip


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--truth", type=Path, default=TRUTH, help="folder of truth files")
    parser.add_argument(
        "--only", type=_pattern, help="a regular expression over truth files' 'file'"
    )
    parser.add_argument("--markitdown", action="store_true", help="MarkItDown beside ours")
    report_to = parser.add_mutually_exclusive_group()
    report_to.add_argument("--json", type=Path, help="write the numbers there, as JSON")
    report_to.add_argument(
        "--write-results",
        action="store_true",
        help="rewrite the committed bench/results/structure.json (commit it on its own)",
    )
    parser.add_argument("--misses", action="store_true", help="list missed and wrong headings")
    parser.add_argument("--speed", action="store_true", help="pages/s over every corpus PDF")
    parser.add_argument("--memory", action="store_true", help="peak memory per page, 3 sizes")
    parser.add_argument(
        "--tagged-office",
        action="store_true",
        help="Word truth files as tagged PDFs (soffice): tags against typography",
    )
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args(argv)
    if args.memory_child:
        _memory_child(args.memory_child)
        return 0
    if args.memory:
        for copies in (10, 40, 80):
            print(json.dumps(memory(copies)))
        return 0
    if args.tagged_office:
        for mode, result in tagged_office(args.truth).items():
            print(json.dumps({"mode": mode, **result}))
        return 0
    if args.speed:
        names = [e["name"] for e in entries() if e["name"].endswith(".pdf")]
        missing = [name for name in names if not resolve(name).is_file()]
        if missing:
            print(f"missing {missing[:3]}...: run python bench/corpus.py first", file=sys.stderr)
            return 2
        print(json.dumps(speed(names)))
        return 0
    try:
        chosen = truths(args.truth, args.only)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not chosen:
        which = f" matches {args.only!r}" if args.only else ""
        print(f"error: no truth file in {args.truth}{which}", file=sys.stderr)
        return 2
    missing = [t["file"] for t in chosen if not resolve(t["file"]).is_file()]
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
    written = DEFAULT_JSON if args.write_results else args.json  # (None: a table only)
    if written is not None:
        written.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
        written.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
