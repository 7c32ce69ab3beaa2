"""``python -m skills demo``: the bundled samples through the skill, as an indexer would send them.

Starts the development server on a free loopback port, sends ``samples/`` (Markdown,
reStructuredText, text and code files) in indexer-shaped batches (``recordId`` per record,
``documentKey`` = the file's path, options in the query string as they would be in the skill's
``uri``) and prints what a newcomer reads in a screen: a table of the documents (format,
parents, children, tokens, warnings), then one document's tree (``--tree``), each chunk named by
a short id (``p1`` a parent, ``c4`` a child, by the ordinals of the answer), a child under its
parent with only the headings it adds. ``--verbose`` prints every document's tree with longer
previews and offsets; ``--json`` the raw responses, ids and all.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from skills.chunking import count_tokens
from skills.formats.registry import TEXT_SUFFIXES, by_name
from skills.local.devserver import PROJECT_ROOT, running
from skills.terminal import tree_lines

_OPTION_FLAGS = {
    "strategy": "strategy",
    "parent_max_tokens": "parentMaxTokens",
    "child_max_tokens": "childMaxTokens",
    "child_overlap_tokens": "childOverlapTokens",
}
_COLUMNS = ("document", "format", "parents", "children", "tokens", "warnings")


@dataclass(frozen=True, slots=True)
class Answered:
    """One document sent and the record the skill answered for it (``None``: none came back)."""

    path: Path
    record: dict[str, Any] | None

    @property
    def key(self) -> str:
        return _key(self.path)

    @property
    def parents(self) -> list[dict[str, Any]]:
        return list((self.record or {}).get("data", {}).get("parents", []))

    def messages(self, kind: str) -> list[str]:
        return [m["message"] for m in (self.record or {}).get(kind) or []]


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    files = sample_files(Path(args.samples))
    if not files:
        print(f"no {', '.join(sorted(TEXT_SUFFIXES))} files in {args.samples}")
        return 1
    query = {wire: str(v) for flag, wire in _OPTION_FLAGS.items() if (v := getattr(args, flag))}
    answered: list[Answered] = []
    with running() as base_url:
        url = f"{base_url}/api/chunk" + (f"?{urlencode(query)}" if query else "")
        for batch in _batches(files, args.batch_size):
            status, answer = post(url, indexer_batch(batch))
            if args.json:
                print(json.dumps(answer, indent=2, ensure_ascii=False))
                continue
            print(f"batch of {len(batch)} record(s) to /api/chunk: HTTP {status}")
            by_id = {record["recordId"]: record for record in answer.get("values", [])}
            answered += [Answered(p, by_id.get(str(n))) for n, p in enumerate(batch, start=1)]
    if args.json:
        return 0
    print()
    print(summary_table(answered))
    for line in problems(answered):
        print(line)
    shown = answered if args.verbose else [tree_document(answered, args.tree)]
    width = args.width or (90 if args.verbose else 60)
    for document in shown:
        print()
        print(render_tree(document, width, args.verbose))
    return 0


def sample_files(folder: Path) -> list[Path]:
    """The sample documents, in a stable order."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in TEXT_SUFFIXES)


def indexer_batch(paths: Sequence[Path]) -> dict[str, Any]:
    """``{"values": [{"recordId": "1", "data": {"text", "documentKey"}}, ...]}``."""
    return {
        "values": [
            {
                "recordId": str(number),
                "data": {"text": path.read_text(encoding="utf-8"), "documentKey": _key(path)},
            }
            for number, path in enumerate(paths, start=1)
        ]
    }


def post(url: str, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST JSON, return (status, decoded JSON body), 4xx/5xx included."""
    request = urllib.request.Request(
        url,
        data=json.dumps(payload).encode("utf-8"),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=230) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def summary_table(answered: Sequence[Answered]) -> str:
    """One row per document: its format, parents, children, tokens (of the whole document, in
    ``cl100k_base``) and warnings; ``error`` in place of the counts when the record failed."""
    rows = [_summary_row(document) for document in answered]
    totals = [sum(int(row[k]) for row in rows if row[k].isdigit()) for k in range(2, 6)]
    rows.append(["total", "", *map(str, totals)])
    widths = [max(len(row[k]) for row in [list(_COLUMNS), *rows]) for k in range(len(_COLUMNS))]

    def line(cells: Sequence[str]) -> str:
        left = [cell.ljust(width) for cell, width in zip(cells[:2], widths, strict=False)]
        right = [cell.rjust(width) for cell, width in zip(cells[2:], widths[2:], strict=True)]
        return "  ".join(left + right).rstrip()

    return "\n".join([line(_COLUMNS), *map(line, rows)])


def _summary_row(document: Answered) -> list[str]:
    fmt = by_name(document.path.name)
    tokens = str(count_tokens(document.path.read_text(encoding="utf-8")))
    name = fmt.name if fmt else "?"
    if document.record is None or document.messages("errors"):
        return [document.key, name, "error", "error", tokens, "-"]
    parents = document.parents
    children = sum(len(parent["children"]) for parent in parents)
    warnings = len(document.messages("warnings"))
    return [document.key, name, str(len(parents)), str(children), tokens, str(warnings)]


def problems(answered: Sequence[Answered]) -> list[str]:
    """The errors and warnings of every record, one line each, under the table."""
    lines = []
    for document in answered:
        if document.record is None:
            lines.append(f"! {document.key}: no record in the response")
        lines += [f"! {document.key}: {message}" for message in document.messages("errors")]
        lines += [f"~ {document.key}: {message}" for message in document.messages("warnings")]
    return lines


def tree_document(answered: Sequence[Answered], key: str | None) -> Answered:
    """The document whose tree is shown: the one named ``key`` (a path or its end), else the
    first with more than one parent, else the first."""
    if key:
        for document in answered:
            if document.key == key or document.key.endswith("/" + key.lstrip("/")):
                return document
        raise SystemExit(f"--tree {key}: not among {', '.join(d.key for d in answered)}")
    return next((d for d in answered if len(d.parents) > 1), answered[0])


def render_tree(document: Answered, width: int, verbose: bool = False) -> str:
    """The document's parents (``p<ordinal>``) and, under each, its children (``c<ordinal>``):
    a parent with its heading path, a child with the headings it adds to its parent's and the
    start of its text (:func:`skills.terminal.tree_lines`, the layout ``python -m skills chunk
    --output tree`` prints too). ``verbose`` adds each chunk's offsets and tokens."""
    parents = document.parents
    children = sum(len(parent["children"]) for parent in parents)
    lines = [
        f"{document.key}: {len(parents)} parent(s) p<n>, {children} child(ren) c<n>, by "
        "ordinal; › a child's headings below its parent's"
    ]
    if document.record is None or document.messages("errors"):
        return "\n".join([*lines, "  (no chunks: see the errors above)"])
    lines += tree_lines(parents, width, verbose)
    return "\n".join(lines)


def _batches(files: list[Path], size: int) -> Iterator[list[Path]]:
    for start in range(0, len(files), size):
        yield files[start : start + size]


def _key(path: Path) -> str:
    try:
        return path.resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skills demo", description=__doc__)
    parser.add_argument("--samples", default=str(PROJECT_ROOT / "samples"), help="folder to send")
    parser.add_argument("--batch-size", type=int, default=10, help="records per call")
    parser.add_argument("--strategy", help="fixed|recursive|structural|hierarchical|semantic")
    parser.add_argument("--parent-max-tokens", type=int)
    parser.add_argument("--child-max-tokens", type=int)
    parser.add_argument("--child-overlap-tokens", type=int)
    parser.add_argument("--tree", help="the document whose tree is shown (a path, or its end)")
    parser.add_argument("--verbose", action="store_true", help="every document's tree, offsets")
    parser.add_argument("--width", type=int, help="characters of text shown per chunk")
    parser.add_argument("--json", action="store_true", help="print the raw responses")
    return parser
