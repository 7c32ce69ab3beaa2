"""What reaches the index from each fixture: this skill's path against default cracking + Text
Split (docs/formats.md).

For each file of tests/formats/fixtures/ this counts, over the children each path would index:
how many carry a heading path, how many carry page numbers, and how many table rows land in a
child that also holds the table's header row and every cell of the row. The built-in path is
emulated here, since it runs only in Azure: default cracking gives the file's plain text with
"just the text, minus any markup" (cognitive-search-skill-document-extraction), PDFium's text
layer for a PDF, the paragraphs' text for Word, the converted Markdown without its marks for the
others; the Text Split skill then cuts it into pages of ``--page-chars`` characters (its default
is 5,000; the Import and vectorize data wizard writes 2,000) with ``--overlap-chars`` overlap,
at a space near the limit (cognitive-search-skill-textsplit). Text Split gives no heading path
and default cracking no page numbers, whatever the file.

    python bench/formats_versus.py           # a Markdown table on stdout
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skills.chunking import ChunkOptions, chunk_document  # noqa: E402
from skills.formats.read import read_file  # noqa: E402

FIXTURES = ROOT / "tests" / "formats" / "fixtures"
FILES = (
    "widget-api-guide.docx", "widget-api-guide.html", "widget-api-guide.pptx",
    "error-codes.xlsx", "operations-runbook.pdf",
)  # fmt: skip
_TABLE = re.compile(r"(?:^\|.*\|[ \t]*\n)+", re.MULTILINE)
_MARKS = re.compile(r"^#{1,6}[ \t]+|^[ \t]*[-|]+[ \t|:-]*$|\||<!--.*?-->|`", re.MULTILINE)


def cells(row: str) -> list[str]:
    return [" ".join(c.split()) for c in row.strip().strip("|").split(" | ") if c.strip()]


def rows_with_header(markdown: str, chunks: list[str]) -> tuple[int, int]:
    """(rows whose cells and header cells all sit in one chunk, rows) over ``markdown``'s tables."""
    flat = [" ".join(chunk.replace("`", "").split()) for chunk in chunks]
    kept = total = 0
    for table in _TABLE.findall(markdown):
        header, _, *rows = table.splitlines()
        for row in rows:
            wanted = [c.replace("`", "").replace("\\|", "|") for c in cells(header) + cells(row)]
            total += 1
            kept += any(all(cell in chunk for cell in wanted) for chunk in flat)
    return kept, total


def cracked_text(name: str, markdown: str) -> str:
    data = (FIXTURES / name).read_bytes()
    if name.endswith(".pdf"):
        import pypdfium2 as pdfium

        return "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data))
    if name.endswith(".docx"):
        return _word_raw_text(data)
    return _MARKS.sub(" ", markdown)


def _word_raw_text(data: bytes) -> str:
    """A Word body's text, a paragraph a line, without any markup (what cracking keeps)."""
    import zipfile

    from lxml import etree

    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        root = etree.fromstring(package.read("word/document.xml"))
    lines = ("".join(t.text or "" for t in p.iter(f"{w}t")) for p in root.iter(f"{w}p"))
    return "\n\n".join(line for line in lines if line.strip())


def text_split(text: str, size: int, overlap: int) -> list[str]:
    pages, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            space = text.rfind(" ", start + size // 2, end)
            end = space if space > start else end
        pages.append(text[start:end])
        if end >= len(text):
            break
        start = max(end - overlap, start + 1)
    return pages


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page-chars", type=int, default=2000)
    parser.add_argument("--overlap-chars", type=int, default=500)
    args = parser.parse_args(argv)
    print(
        "| file | path | chunks | with heading path | with pages | table rows whole with header |"
    )
    print("|---|---|---|---|---|---|")
    for name in FILES:
        file = read_file((FIXTURES / name).read_bytes(), name)
        result = chunk_document(file.text, title=file.title, format=file.markup,
                                document_key=name, options=ChunkOptions())  # fmt: skip
        leaves = result.leaves
        kept, total = rows_with_header(file.text, [leaf.embed_text for leaf in leaves])
        headed = sum(bool(leaf.headings) or bool(file.title) for leaf in leaves)
        paged = sum(bool(leaf.pages) for leaf in leaves)
        print(f"| {name} | this skill | {len(leaves)} | {headed} | {paged} | {kept} / {total} |")
        pages = text_split(cracked_text(name, file.text), args.page_chars, args.overlap_chars)
        kept, total = rows_with_header(file.text, pages)
        print(f"| {name} | cracking + Text Split | {len(pages)} | 0 | 0 | {kept} / {total} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
