"""``python -m skills demo``: the bundled samples through the skill, as an indexer would send them.

Starts the development server on a free loopback port, sends ``samples/`` (Markdown,
reStructuredText and text files) in indexer-shaped batches (``recordId`` per record,
``documentKey`` = the file's path, options in the query string as they would be in the skill's
``uri``) and prints each document's parents with their children. ``--json`` prints the raw
responses instead.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from skills.formats.registry import TEXT_SUFFIXES
from skills.local.devserver import PROJECT_ROOT, running

_OPTION_FLAGS = {
    "strategy": "strategy",
    "parent_max_tokens": "parentMaxTokens",
    "child_max_tokens": "childMaxTokens",
    "child_overlap_tokens": "childOverlapTokens",
}


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    files = sample_files(Path(args.samples))
    if not files:
        print(f"no {', '.join(sorted(TEXT_SUFFIXES))} files in {args.samples}")
        return 1
    query = {wire: str(v) for flag, wire in _OPTION_FLAGS.items() if (v := getattr(args, flag))}
    with running() as base_url:
        url = f"{base_url}/api/chunk" + (f"?{urlencode(query)}" if query else "")
        for batch in _batches(files, args.batch_size):
            status, answer = post(url, indexer_batch(batch))
            if args.json:
                print(json.dumps(answer, indent=2, ensure_ascii=False))
                continue
            print(f"--- batch of {len(batch)} record(s): HTTP {status}")
            by_id = {record["recordId"]: record for record in answer.get("values", [])}
            for number, path in enumerate(batch, start=1):
                print(render_record(path, by_id.get(str(number)), args.width))
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


def render_record(path: Path, record: dict[str, Any] | None, width: int) -> str:
    """A readable tree: the document, its parents, each parent's children."""
    if record is None:
        return f"{_key(path)}: NO RECORD IN THE RESPONSE"
    lines = [_document_line(path, record)]
    lines += [f"  ! error: {m['message']}" for m in record.get("errors") or []]
    lines += [f"  ~ warning: {m['message']}" for m in record.get("warnings") or []]
    for parent in record.get("data", {}).get("parents", []):
        lines.append(f"  [parent {parent['ordinal']}] {_chunk_line(parent, width)}")
        for child in parent["children"]:
            lines.append(f"      - child {child['ordinal']}: {_chunk_line(child, width)}")
    return "\n".join(lines)


def _document_line(path: Path, record: dict[str, Any]) -> str:
    parents = record.get("data", {}).get("parents", [])
    children = sum(len(parent["children"]) for parent in parents)
    return f"\n{_key(path)}: {len(parents)} parent(s), {children} child(ren)"


def _chunk_line(chunk: dict[str, Any], width: int) -> str:
    where = " > ".join(chunk["headings"]) or "(no heading)"
    preview = " ".join(chunk["text"].split())
    preview = preview if len(preview) <= width else preview[: width - 1] + "…"
    span = f"chars {chunk['start']}-{chunk['end']}"
    return f"{where}  ({span})\n          {preview!r}"


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
    parser.add_argument("--width", type=int, default=90, help="characters of text shown per chunk")
    parser.add_argument("--json", action="store_true", help="print the raw responses")
    return parser
