"""How many children say nothing of their own, or read their document's structure wrongly.

The engine keeps headings and list labels with what they introduce and lines with nothing to read
(``---``, ``<a id="..."></a>``) with the piece before them (``docs/chunking.md``). This counts,
over real documents at the default options, the children that still break those rules, and the
children of each class of defect that real documentation dialects showed (issue 18):

- ``heading_only``: children holding nothing but heading, label and bare lines (as the engine's
  own parser finds them);
- ``ends_with_heading``: children whose last line is a heading while the next child of the same
  parent holds its text;
- ``heading_then_words``: children opening with heading, label or bare lines, then at most two words
  of a sentence that the next child goes on with (``### Elementary OS ... \\n\\nEOS``);
- ``label_split``: children ending with a list item whose nested items begin the next child;
- ``tags_only``: children holding nothing but HTML tags (comments aside; an anchor alone is
  counted here and as ``heading_only``);
- ``lone_markup``: children holding nothing but markup found by this survey's own patterns
  (headings, zone and tab markers, Hugo shortcodes, admonition and content-tab markers, link
  reference definitions, badge lines, ``<!-- md:... -->`` macros, HTML tags, thematic breaks);
- ``near_duplicate``: children more than 80 % of whose characters the previous child holds too;
- ``metadata``: children holding front matter lines other than ``title:`` and ``description:``
  (``ms.author``, ``ms.date``, ``weight``): metadata embedded as text; a page of nothing but
  front matter (Hugo's section pages) is not counted: it is all the page says, and the engine
  chunks it as the page's text;
- ``tab_in_path``: children whose heading path names a DocFX tab or zone pivot they do not lie in;
- ``lost_table_header``: children that start inside a pipe table's rows (or its header) and whose
  embedded text holds neither the header line nor its column names;
- ``link_dominated``: children more than 60 % of whose characters are URLs (link targets, bare
  URLs, link reference definitions);
- ``title_alone``: children holding one numbered title line and nothing else
  (``13.5 Constructing Responses From Caches``), in plain text and in Markdown (a license read
  as Markdown, MPL 2.0's ``3.1. Distribution of Source Form``).

Every share is of all children counted. Documents that cannot be read, are not UTF-8 or look
binary (the engine refuses them) are skipped and counted; Markdown and plain text are counted,
reStructuredText is skipped. ``--crlf`` gives the engine each document with Windows line endings
(offsets are then into that copy): a dialect-proof engine gives the same counts as without.

    python bench/lone_lines.py ../shared/eval/dev/docs           # folders are walked
    python bench/lone_lines.py --list files.txt --crlf            # or one path per line
    python bench/lone_lines.py docs/ --child-tokens 32             # tighter children
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skills.chunking import ChunkingError, ChunkOptions, chunk_document
from skills.chunking.markup.markdown import parse_markdown
from skills.chunking.model import Chunk, Chunking
from skills.chunking.newlines import line_view
from skills.chunking.piece import text_start

_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".txt", ".text"})
_TAGS_ONLY = re.compile(r"(?:\s*<[^!>\n][^>\n]*>)+\s*")
_ITEM = re.compile(r"( *)(?:[-+*]|\d{1,9}[.)])[ \t]")
#: Lines with nothing to read, by this survey's own patterns (not the engine's).
_MARKUP_LINE = re.compile(
    r"[ \t]*(?:"
    r"#{1,6}(?:[ \t][^\n]*)?"  # a heading (its words are in the path)
    r"|:::[ \t]*(?:zone|moniker|row|column|image|code)[^\n]*|:::"  # DocFX blocks
    r"|\{\{[<%][^\n]*[%>]\}\}"  # Hugo shortcodes
    r"|(?:!!!|\?\?\?\+?|===\+?)[ \t]*[^\n]*|/{3,}[^\n]*"  # admonition, tab and block markers
    r"|\[[^\]\n]+\]:[ \t]*\S+[^\n]*"  # a link reference definition
    r"|(?:\[?!\[[^\]\n]*\]\([^)\n]*\)\]?(?:\([^)\n]*\))?[ \t]*)+"  # a line of badges
    r"|<!--[ \t]*md:[^\n]*-->"  # mkdocs-material's macros
    r"|(?:<[^>\n]*>[ \t]*)+"  # HTML tags
    r"|(?:[-*_][ \t]*){3,}"  # a thematic break
    r")[ \t]*\r?$",
    re.MULTILINE,
)
_FRONT_MATTER = re.compile(
    r"(?:---|\+\+\+)[ \t]*\r?\n(?:.*\r?\n){0,200}?(?:---|\+\+\+|\.\.\.)[ \t]*\r?$", re.MULTILINE
)
_FRONT_MATTER_KEY = re.compile(r"^([\w.-]+)[ \t]*[:=]", re.MULTILINE)
_TAB = re.compile(r"^#{1,6}[ \t]+\[([^\]\n]+)\]\(#tab/[^)\n]*\)[ \t]*\r?$", re.MULTILINE)
_ZONE = re.compile(r'^:::[ \t]*zone[ \t]+pivot="([^"\n]+)"[^\n]*$', re.MULTILINE)
_GROUP_END = re.compile(r"^(?:---[ \t]*|:::[ \t]*zone-end[ \t]*)\r?$", re.MULTILINE)
_PIPE_TABLE = re.compile(
    r"^(?P<header>[ \t]*\|?[^\n|]*\|[^\n]*)\r?\n(?P<delimiter>[ \t]*\|?[ \t]*:?-+:?[ \t]*"
    r"(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*)\r?\n(?P<rows>(?:[^\n]*\|[^\n]*(?:\n|$))*)",
    re.MULTILINE,
)
_URL = re.compile(r"\]\([^)\s]+\)|<?https?://[^\s)>\]]+>?|^\[[^\]\n]+\]:[ \t]*\S+", re.MULTILINE)
_NUMBERED_TITLE = re.compile(
    r"[ \t]*(?:(?:\d{1,3}\.)+\d{0,3}|[A-Z]\.|[IVX]{1,5}\.|Section[ \t]+\d+[.:]?)[ \t]+\S.{0,70}"
)
_WORD = re.compile(r"\w{2,}")

KINDS = (
    "heading_only",
    "ends_with_heading",
    "heading_then_words",
    "label_split",
    "tags_only",
    "lone_markup",
    "near_duplicate",
    "metadata",
    "tab_in_path",
    "lost_table_header",
    "link_dominated",
    "title_alone",
)


def markdown_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files given, and those in the folders given (Markdown and plain text)."""
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.suffix.lower() in _SUFFIXES and p.is_file()
            )
        else:  # a missing file is counted as unreadable, not dropped
            yield path


def count(source: str, result: Chunking) -> Counter[str]:
    """The counts for one chunked document (see the module docstring)."""
    counts: Counter[str] = Counter(children=len(result.leaves))
    if result.format == "markdown":
        counts.update(_lone_lines(source, result))
        counts.update(_dialect_defects(source, result.leaves))
    counts["title_alone"] = sum(
        1
        for child in result.leaves
        if "\n" not in child.text.strip() and _NUMBERED_TITLE.fullmatch(child.text.strip())
    )
    counts["near_duplicate"] = _near_duplicates(result)
    counts["link_dominated"] = sum(1 for child in result.leaves if _link_dominated(child.text))
    return counts


def _lone_lines(source: str, result: Chunking) -> Counter[str]:
    outline = parse_markdown(line_view(source))  # as the engine reads it: CRLF as newlines
    lines = {**outline.heading_lines, **outline.label_lines, **outline.bare_lines}
    counts: Counter[str] = Counter()
    leaves = result.leaves
    for k, child in enumerate(leaves):
        following = leaves[k + 1] if k + 1 < len(leaves) else None
        sibling = following is not None and following.parent_id == child.parent_id
        if _TAGS_ONLY.fullmatch(child.text):
            counts["tags_only"] += 1
        if not _MARKUP_LINE.sub("", child.text).strip():
            counts["lone_markup"] += 1
        position = child.start
        while position < child.end and position in lines:
            position = min(text_start(source, lines[position], child.end), child.end)
        if position >= child.end:
            counts["heading_only"] += 1
            continue
        words = source[position : child.end].split()
        cut_in_line = following is not None and "\n" not in source[child.end - 1 : following.start]
        if position > child.start and cut_in_line and len(words) <= 2:
            counts["heading_then_words"] += 1
        body = child.text.rstrip()
        last_start = child.start + max(body.rfind("\n"), body.rfind("\r")) + 1
        if sibling and last_start in outline.heading_lines:
            counts["ends_with_heading"] += 1
        label = _ITEM.match(source, last_start)
        if sibling and following is not None and label is not None:
            nested = _ITEM.match(source, text_start(source, child.end, following.end))
            if nested is not None and len(nested.group(1)) > len(label.group(1)):
                counts["label_split"] += 1
    return counts


def _dialect_defects(source: str, leaves: Sequence[Chunk]) -> Counter[str]:
    counts: Counter[str] = Counter()
    front = _FRONT_MATTER.match(source)
    if front is not None and source[front.end() :].strip():
        metadata = [
            (m.start() + front.start(), m.end() + front.start())
            for m in _FRONT_MATTER_KEY.finditer(front.group())
            if m.group(1) not in ("title", "description")
        ]
        counts["metadata"] = sum(
            1 for child in leaves if any(child.start < e and s < child.end for s, e in metadata)
        )
    groups = _variant_extents(source)
    labels = {label for label, _, _ in groups}
    for child in leaves:
        named = [part for part in child.headings if part in labels]
        if named and not any(
            label == named[-1] and start <= child.start and child.end <= end
            for label, start, end in groups
        ):
            counts["tab_in_path"] += 1
    for table in _PIPE_TABLE.finditer(source):
        header = table.group("header")
        names = _WORD.findall(header)
        inside = (table.start() + len(header) // 2, table.end())
        for child in leaves:
            if inside[0] < child.start < inside[1] and child.start >= table.start("delimiter"):
                if header.strip() not in child.embed_text and not all(
                    name in child.embed_text for name in names
                ):
                    counts["lost_table_header"] += 1
            elif inside[0] > child.start > table.start() and child.start < table.start("rows"):
                counts["lost_table_header"] += 1  # cut inside the header or its delimiter
    return counts


def _variant_extents(source: str) -> list[tuple[str, int, int]]:
    """DocFX tabs and zone pivots: (label, start, end) from their marker line to the next
    variant's marker or the ``---`` / ``::: zone-end`` that closes the group (and the blank
    lines after it)."""
    markers = sorted(
        [(m.start(), m.group(1)) for m in _TAB.finditer(source)]
        + [(m.start(), m.group(1)) for m in _ZONE.finditer(source)]
    )
    extents = []
    for k, (start, label) in enumerate(markers):
        close = _GROUP_END.search(source, start + 1)
        end = close.end() if close is not None else len(source)
        end += len(source[end:]) - len(source[end:].lstrip())  # with the blank lines after it
        if k + 1 < len(markers):
            end = min(end, markers[k + 1][0])
        extents.append((label, start, end))
    return extents


def _near_duplicates(result: Chunking) -> int:
    """Children more than 80 % inside the child before them (of the same parent)."""
    found = 0
    leaves = result.leaves
    for previous, child in itertools.pairwise(leaves):
        if previous.parent_id != child.parent_id:
            continue
        shared = max(0, min(previous.end, child.end) - max(previous.start, child.start))
        if shared > 0.8 * (child.end - child.start):
            found += 1
    return found


def _link_dominated(text: str) -> bool:
    urls = sum(len(m.group()) for m in _URL.finditer(text))
    return urls > 0.6 * len(text.strip())


def survey(paths: Iterable[Path], options: ChunkOptions, crlf: bool = False) -> Counter[str]:
    totals: Counter[str] = Counter()
    for path in paths:
        try:
            source = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            totals["skipped_unreadable"] += 1
            continue
        if crlf:
            source = source.replace("\r\n", "\n").replace("\n", "\r\n")
        try:
            result = chunk_document(source, document_key=str(path), options=options)
        except ChunkingError:
            totals["skipped_refused"] += 1
            continue
        if result.format == "rst":
            totals["skipped_not_markdown"] += 1
            continue
        totals["files"] += 1
        totals[f"files_{result.format}"] += 1
        totals.update(count(source, result))
    return totals


def shares(totals: Counter[str]) -> dict[str, float]:
    """Each defect class as a percentage of the children counted."""
    children = max(totals["children"], 1)
    return {kind: round(100 * totals[kind] / children, 2) for kind in KINDS}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="documents or folders")
    parser.add_argument("--list", type=Path, help="a file with one path per line")
    parser.add_argument("--crlf", action="store_true", help="chunk a CRLF copy of each document")
    parser.add_argument("--child-tokens", type=int, default=None, help="childMaxTokens to use")
    args = parser.parse_args(argv)
    paths = list(args.paths)
    if args.list is not None:
        try:
            listed = args.list.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            parser.error(f"cannot read --list {args.list}: {error}")
        paths += [Path(line.strip()) for line in listed if line.strip()]
    if not paths:
        parser.error("give Markdown files or folders, or --list")
    options = (
        ChunkOptions()
        if args.child_tokens is None
        else ChunkOptions(child_max_tokens=args.child_tokens)
    )
    totals = survey(markdown_files(paths), options, crlf=args.crlf)
    print(json.dumps({"counts": dict(sorted(totals.items())), "percent": shares(totals)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
