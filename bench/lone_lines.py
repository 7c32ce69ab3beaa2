"""How many children say nothing of their own: a heading, a list label or an anchor alone.

The engine keeps headings and list labels with what they introduce and lines with nothing to read
(``---``, ``<a id="..."></a>``) with the piece before them (``docs/chunking.md``). This counts,
over real Markdown at the default options, the children that still break those rules:

- ``heading_only``: children holding nothing but heading, label and bare lines;
- ``ends_with_heading``: children whose last line is a heading while the next child of the same
  parent holds its text;
- ``label_split``: children ending with a list item whose nested items begin the next child;
- ``tags_only``: children holding nothing but HTML tags (comments aside; an anchor alone is
  counted here and as ``heading_only``).

Lines are recognised by the engine's own Markdown parser, so this measures the packer, not the
parser. Documents that cannot be read, are not UTF-8, look binary (the engine refuses them) or
are not Markdown are skipped and counted.

    python bench/lone_lines.py ../shared/eval/dev/docs           # folders are walked for .md
    python bench/lone_lines.py --list files.txt                   # or one path per line
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skills.chunking import ChunkingError, ChunkOptions, chunk_document
from skills.chunking.markdown import parse_markdown
from skills.chunking.model import Chunking
from skills.chunking.pack import text_start

_TAGS_ONLY = re.compile(r"(?:\s*<[^!>\n][^>\n]*>)+\s*")
_ITEM = re.compile(r"( *)(?:[-+*]|\d{1,9}[.)])[ \t]")


def markdown_files(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.md") if p.is_file())
        else:  # a missing file is counted as unreadable, not dropped
            yield path


def count(source: str, result: Chunking) -> Counter[str]:
    """The four counts for one chunked document (see the module docstring)."""
    outline = parse_markdown(source)
    lines = {**outline.heading_lines, **outline.label_lines, **outline.bare_lines}
    counts: Counter[str] = Counter(children=len(result.leaves))
    leaves = result.leaves
    for k, child in enumerate(leaves):
        following = leaves[k + 1] if k + 1 < len(leaves) else None
        sibling = following is not None and following.parent_id == child.parent_id
        if _TAGS_ONLY.fullmatch(child.text):
            counts["tags_only"] += 1
        position = child.start
        while position < child.end and position in lines:
            position = min(text_start(source, lines[position], child.end), child.end)
        if position >= child.end:
            counts["heading_only"] += 1
            continue
        body = child.text.rstrip()
        last_start = child.start + body.rfind("\n") + 1
        if sibling and last_start in outline.heading_lines:
            counts["ends_with_heading"] += 1
        label = _ITEM.match(source, last_start)
        if sibling and following is not None and label is not None:
            nested = _ITEM.match(source, text_start(source, child.end, following.end))
            if nested is not None and len(nested.group(1)) > len(label.group(1)):
                counts["label_split"] += 1
    return counts


def survey(paths: Iterable[Path], options: ChunkOptions) -> Counter[str]:
    totals: Counter[str] = Counter()
    for path in paths:
        try:
            source = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            totals["skipped_unreadable"] += 1
            continue
        try:
            result = chunk_document(source, document_key=str(path), options=options)
        except ChunkingError:
            totals["skipped_refused"] += 1
            continue
        if result.format != "markdown":
            totals["skipped_not_markdown"] += 1
            continue
        totals["files"] += 1
        totals.update(count(source, result))
    return totals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="Markdown files or folders")
    parser.add_argument("--list", type=Path, help="a file with one path per line")
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
    print(json.dumps(dict(sorted(survey(markdown_files(paths), ChunkOptions()).items()))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
