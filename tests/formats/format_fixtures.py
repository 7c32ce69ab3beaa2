"""The committed fixtures (scripts/make_format_fixtures.sh) and the checks every converted file
must pass, as for Markdown: exact offsets, token caps, nothing dropped."""

from __future__ import annotations

import re
from pathlib import Path

from skills.chunking import Chunking, ChunkOptions, chunk_document, count_tokens
from skills.formats.read import FileText, read_file

PROJECT = Path(__file__).resolve().parents[2]
FIXTURES = PROJECT / "tests" / "formats" / "fixtures"
SAMPLES = PROJECT / "samples"
OPTIONS = [
    ChunkOptions(),
    ChunkOptions(strategy="hierarchical", parent_max_tokens=256, child_max_tokens=64),
    ChunkOptions(strategy="structural", child_max_tokens=96),
]
_ATX = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*$", re.MULTILINE)


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def convert(name: str) -> FileText:
    return read_file(fixture(name), name)


def chunk(file: FileText, options: ChunkOptions, key: str = "doc") -> Chunking:
    return chunk_document(
        file.text, title=file.title, format=file.markup, document_key=key, options=options
    )


def markdown_headings(markdown: str) -> list[str]:
    """The ATX headings of a Markdown source, outside code fences, markup removed."""
    headings, fenced = [], False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else _ATX.match(line)
        if match:
            headings.append(match.group(2).replace("`", ""))
    return headings


def check_invariants(source: str, result: Chunking, options: ChunkOptions) -> None:
    for chunk_ in (*result.parents, *result.leaves):
        assert source[chunk_.start : chunk_.end] == chunk_.text
        assert chunk_.tokens == count_tokens(chunk_.embed_text)
        limit = options.parent_max_tokens if chunk_.level == 0 else options.child_max_tokens
        assert chunk_.tokens <= limit
    covered = bytearray(len(source))
    for leaf in result.leaves:
        covered[leaf.start : leaf.end] = b"\x01" * (leaf.end - leaf.start)
    dropped = [i for i, c in enumerate(source) if not covered[i] and not c.isspace()]
    assert not dropped, f"dropped {source[dropped[0] : dropped[0] + 40]!r}"
