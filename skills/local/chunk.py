"""``python -m skills chunk PATH... [options]``: chunk files and print the result.

``--output jsonl`` (the default) prints one JSON object per chunk (the ``Chunk`` fields plus
``doc``); ``--output tree`` shows each parent with its children for a person to read. Each file's
markup is detected (Markdown, reStructuredText or plain text); ``--format`` reads every file as one,
as the skill's ``format`` field does. A file of another format (PDF, Word, PowerPoint, Excel,
HTML: ``docs/formats.md``) is converted to Markdown first, and offsets refer to that Markdown. A
folder is walked for every suffix of ``skills.formats.registry``, with a progress bar on stderr when
the output goes to a file or a pipe (on a terminal it would be drawn between the tree's lines).

``--strategy semantic`` finds topic shifts with the evaluation's embedder
(``skills.embeddings.default_embedder``): the Azure OpenAI deployment when ``AZURE_OPENAI_*`` are
set, else the local all-MiniLM-L6-v2 that ``requirements-dev.txt`` installs, its vectors cached on
disk. Only where neither is installed does it fall back to ``hierarchical``, with a warning.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from skills.chunking import (
    Chunking,
    ChunkingError,
    ChunkOptions,
    EmbeddingBoundaries,
    Format,
    chunk_document,
)
from skills.formats.conversion import ConversionError
from skills.formats.read import read_file
from skills.formats.registry import SUFFIXES
from skills.terminal import leaf_lines, tree_lines

#: How much of a chunk's text a tree line shows.
TREE_WIDTH = 96


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skills chunk", description=__doc__)
    parser.add_argument("paths", nargs="+", type=Path, help="files or folders to chunk")
    parser.add_argument(
        "--strategy",
        default="hierarchical",
        choices=["fixed", "recursive", "structural", "hierarchical", "semantic"],
    )
    parser.add_argument("--parent-tokens", type=int, default=None, help="parent token limit")
    parser.add_argument("--child-tokens", type=int, default=None, help="child (leaf) token limit")
    parser.add_argument("--overlap", type=int, default=None, help="child overlap in tokens")
    parser.add_argument(
        "--heading-depth", type=int, default=None, help="deepest heading that opens a section"
    )
    parser.add_argument(
        "--format",
        default=None,
        choices=[member.value for member in Format],
        help="read every file as this markup (default: detected per file)",
    )
    parser.add_argument(
        "--output", default="jsonl", choices=["jsonl", "tree"], help="what is printed"
    )
    return parser


def options_from(args: argparse.Namespace) -> ChunkOptions:
    given = {
        "strategy": args.strategy,
        "parent_max_tokens": args.parent_tokens,
        "child_max_tokens": args.child_tokens,
        "child_overlap_tokens": args.overlap,
        "heading_depth": args.heading_depth,
    }
    return ChunkOptions(**{name: value for name, value in given.items() if value is not None})


def iter_documents(paths: Iterable[Path]) -> Iterator[Path]:
    """Files as given, folders walked (sorted) for document files."""
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file()
            )
        else:
            yield path


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        options = options_from(args)
    except ValidationError as error:
        print(f"invalid options: {error}", file=sys.stderr)
        return 2
    files = list(iter_documents(args.paths))
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        print(f"not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    boundaries = _boundary_model() if options.strategy.value == "semantic" else None
    failures = 0
    for path in _progress(
        files, show=any(p.is_dir() for p in args.paths) and not sys.stdout.isatty()
    ):
        try:
            file = read_file(path.read_bytes(), path.name)
            result = chunk_document(
                file.text, title=file.title, document_key=str(path),
                format=args.format or file.markup, options=options, boundary_model=boundaries,
            )  # fmt: skip
        except (ConversionError, ChunkingError) as error:
            print(f"{path}: {error}", file=sys.stderr)
            failures += 1
            continue
        for warning in file.warnings:
            print(f"{path}: {warning}", file=sys.stderr)
        if args.output == "jsonl":  # the tree shows the chunker's warnings; jsonl keeps stdout data
            for warning in result.warnings:
                print(f"{path}: {warning}", file=sys.stderr)
            write_jsonl(result, str(path), sys.stdout)
        else:
            write_tree(result, str(path), sys.stdout)
    return 1 if failures else 0


def _boundary_model() -> EmbeddingBoundaries | None:
    """Topic shifts from the configured or the installed local embedder; ``None`` (the engine then
    warns and falls back) when neither is there."""
    from skills.embeddings import LocalMiniLMEmbedder, default_embedder, local_model_path

    embedder = default_embedder()
    if isinstance(embedder.inner, LocalMiniLMEmbedder):
        try:
            local_model_path()
            if importlib.util.find_spec("sentence_transformers") is None:
                raise ImportError("sentence-transformers is not installed")
        except ImportError as error:
            print(f"semantic: no local embedding model ({error})", file=sys.stderr)
            return None
    return EmbeddingBoundaries(embedder)


def _progress(files: list[Path], show: bool) -> Iterable[Path]:
    if not show:
        return files
    from tqdm import tqdm  # a development dependency: only the command line needs it

    progress: Iterable[Path] = tqdm(files, unit="doc", file=sys.stderr)
    return progress


def write_jsonl(result: Chunking, doc: str, out: TextIO) -> None:
    for chunk in (*result.parents, *result.leaves):
        out.write(json.dumps({"doc": doc, **chunk.to_dict()}, ensure_ascii=False) + "\n")


def write_tree(result: Chunking, doc: str, out: TextIO) -> None:
    """Parents with their children, each with its offsets, tokens and heading path: the demo's
    tree (:func:`skills.terminal.tree_lines`), verbose."""
    out.write(
        f"{doc}  ({result.format}, {len(result.parents)} parents p<n>, {len(result.leaves)} "
        "children c<n>; › a child's headings below its parent's)\n"
    )
    for warning in result.warnings:
        out.write(f"  ! {warning}\n")
    children = result.children_by_parent()
    parents = [
        {**parent.to_dict(), "children": [c.to_dict() for c in children.get(parent.id, [])]}
        for parent in result.parents
    ]
    lines = (
        tree_lines(parents, TREE_WIDTH, verbose=True)
        if parents  # else fixed windows: leaves without parents
        else leaf_lines([leaf.to_dict() for leaf in result.leaves], TREE_WIDTH, verbose=True)
    )
    for line in lines:
        out.write(line + "\n")
