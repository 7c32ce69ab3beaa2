"""Chunking speed of source code next to Markdown: MB/s of ``chunk_document`` at the defaults.

Code is read by its syntax tree (tree-sitter, then one walk in Python over the definitions and
statements), Markdown by regular expressions; both are then packed by the same packer. This
script says what the tree costs: each corpus is chunked whole, document by document with its own
path as the document key (so ``.py`` files are read as code), best of ``--repeats`` rounds, next
to the floor of any token-exact chunker (one ``encode_ordinary`` pass over the same text).
Grammars are loaded before timing (a few milliseconds each, once per process).

    python bench/code_speed.py                                   # skills/ against the dev docs
    python bench/code_speed.py --code /work/corpora/code --markdown ../shared/eval/dev/docs
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make `skills` importable
    sys.path.insert(0, str(ROOT))

from skills.chunking import ChunkOptions, chunk_document, encoding  # noqa: E402
from skills.formats.registry import by_name  # noqa: E402

DEFAULT_MARKDOWN = ROOT.parent / "shared" / "eval" / "dev" / "docs"


def load(folder: Path, markup: str) -> dict[str, str]:
    """Path -> text of the files under ``folder`` whose registered format is chunked as
    ``markup`` (``code`` or ``markdown``)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        fmt = by_name(path.name)
        if path.is_file() and fmt is not None and fmt.is_text and fmt.markup.value == markup:
            found[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
    if not found:
        raise SystemExit(f"no {markup} files under {folder}")
    return found


def best_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(name: str, documents: dict[str, str], repeats: int) -> str:
    options = ChunkOptions()
    megabytes = sum(len(text.encode("utf-8")) for text in documents.values()) / 1e6
    enc = encoding()

    def chunk_all() -> None:
        for key, text in documents.items():
            chunk_document(text, document_key=key, options=options)

    def floor() -> None:
        for text in documents.values():
            enc.encode_ordinary(text)

    chunk_all()  # warm up: grammars, tokenizer tables
    chunked, floored = best_seconds(chunk_all, repeats), best_seconds(floor, repeats)
    return (
        f"| {name} | {len(documents)} | {megabytes:.2f} | {megabytes / chunked:.2f} "
        f"| {megabytes / floored:.2f} | {chunked / floored:.1f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--code", type=Path, default=ROOT / "skills", help="folder of source files")
    p.add_argument("--markdown", type=Path, default=DEFAULT_MARKDOWN, help="folder of Markdown")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    print("| corpus | files | MB | chunked MB/s | floor MB/s | x floor |")
    print("|---|---|---|---|---|---|")
    corpora = (("code", args.code, "code"), ("Markdown", args.markdown, "markdown"))
    for name, folder, markup in corpora:
        print(measure(f"{name} ({folder.name})", load(folder, markup), args.repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
