"""Golden outputs: what the engine and the skill answer for fixed documents, kept as reviewed files.

The invariant tests say that nothing broke; these say *what changed*. Every sample and every real
document under ``inputs/`` is chunked at ``OPTION_SETS`` and written, one line per chunk (parents
each followed by their children), to ``expected/<document>.<option set>.jsonl``; the skill's
answer to ``batch()`` goes to ``expected/skill-response.json``. A test compares the current output
with those files. After a change to chunking, regenerate and read the diff:

    PYTHONPATH=. .venv/bin/python -m pytest tests/golden --update-golden
    git diff tests/golden/expected

A long ``embedText`` or ``text`` is kept as its start and end (``shorten``): offsets, token counts
and ids are exact, so a change anywhere in a chunk still shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skills.chunking import Chunk, ChunkOptions, chunk_document
from skills.skill import SkillSettings, handle_chunk_request

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXPECTED = HERE / "expected"
HEAD, TAIL = 80, 40

#: Name -> options: the defaults, a tight hierarchical set that forces cuts inside tables, code and
#: rows, and the single-level structural strategy at a shallow heading depth.
OPTION_SETS: dict[str, ChunkOptions] = {
    "default": ChunkOptions(),
    "tight": ChunkOptions(parent_max_tokens=200, child_max_tokens=48, child_overlap_tokens=0),
    "structural": ChunkOptions(strategy="structural", child_max_tokens=400, heading_depth=2),
}


def documents() -> dict[str, str]:
    """Golden document name -> text, read as bytes so that offsets stay exact (no newline
    translation). A Windows-line-ending copy of one sample is made here, not stored."""
    paths = sorted((ROOT / "samples").iterdir()) + sorted(
        path for path in (HERE / "inputs").iterdir() if path.name != "SOURCES.md"
    )
    texts = {path.name: path.read_bytes().decode("utf-8") for path in paths}
    texts["widget-api-guide.crlf.md"] = texts["widget-api-guide.md"].replace("\n", "\r\n")
    return texts


def shorten(text: str) -> str:
    """``text`` whole when short, else its first ``HEAD`` and last ``TAIL`` characters."""
    if len(text) <= HEAD + TAIL + 10:
        return text
    return f"{text[:HEAD]} … [{len(text) - HEAD - TAIL} chars] … {text[-TAIL:]}"


def chunk_line(chunk: Chunk) -> str:
    record: dict[str, Any] = {
        "level": chunk.level,
        "ordinal": chunk.ordinal,
        "id": chunk.id,
        "parentId": chunk.parent_id,
        "span": [chunk.start, chunk.end],
        "tokens": chunk.tokens,
        "headings": list(chunk.headings),
        "pages": list(chunk.pages),
        "embedText": shorten(chunk.embed_text),
    }
    return json.dumps(record, ensure_ascii=False)


def render_chunks(name: str, text: str, options_name: str) -> str:
    result = chunk_document(text, document_key=name, options=OPTION_SETS[options_name])
    header = {"document": name, "options": options_name, "format": result.format}
    lines = [json.dumps(header), *(json.dumps({"warning": w}) for w in result.warnings)]
    children = result.children_by_parent()
    for parent in result.parents:
        lines.append(chunk_line(parent))
        lines.extend("  " + chunk_line(child) for child in children.get(parent.id, []))
    lines.extend(chunk_line(leaf) for leaf in result.leaves if leaf.parent_id is None)
    return "\n".join(lines) + "\n"


def batch() -> dict[str, Any]:
    """A fixed indexer batch: options from the record, a forced markup, a flat strategy, a record
    with a warning and one with an error, in one call."""
    texts = documents()
    values = [
        {"recordId": "1", "data": {"text": texts["widget-api-guide.md"], "documentKey": "w.md"}},
        {
            "recordId": "2",
            "data": {
                "text": texts["sync-agent-reference.rst"],
                "documentKey": "sync.txt",
                "format": "rst",
                "childMaxTokens": 96,
            },
        },
        {
            "recordId": "3",
            "data": {
                "text": texts["meeting-notes.txt"],
                "documentKey": "notes.txt",
                "strategy": "structural",
                "childOverlapTokens": 16,
            },
        },
        {"recordId": "4", "data": {"title": "no text here", "documentKey": "empty.md"}},
    ]
    return {"values": values}


def shorten_strings(value: Any) -> Any:
    """The answer with every long ``text`` and ``embedText`` shortened, everything else as is."""
    if isinstance(value, dict):
        return {
            key: shorten(item)
            if key in {"text", "embedText"} and isinstance(item, str)
            else shorten_strings(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [shorten_strings(item) for item in value]
    return value


def render_skill_response() -> str:
    body = json.dumps(batch()).encode("utf-8")
    reply = handle_chunk_request(body, {}, SkillSettings())  # no app settings: the defaults
    answer = {"status": reply.status, "body": shorten_strings(json.loads(reply.body))}
    return json.dumps(answer, ensure_ascii=False, indent=1) + "\n"


def cases() -> Iterator[tuple[str, str]]:
    for name in documents():
        for options_name in OPTION_SETS:
            yield name, options_name


def compare(path: Path, actual: str, update: bool) -> None:
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} is missing: run pytest tests/golden --update-golden"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"{path.relative_to(ROOT)} differs from the current output: if the change is meant, "
        "regenerate with --update-golden and review the diff"
    )


@pytest.fixture
def update(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.mark.parametrize(("name", "options_name"), list(cases()))
def test_chunks_match_the_golden_file(name: str, options_name: str, update: bool) -> None:
    actual = render_chunks(name, documents()[name], options_name)
    compare(EXPECTED / f"{name}.{options_name}.jsonl", actual, update)


def test_skill_response_matches_the_golden_file(update: bool) -> None:
    compare(EXPECTED / "skill-response.json", render_skill_response(), update)


def test_every_golden_file_has_a_case() -> None:
    """A golden file whose document or option set is gone is stale, not silently kept."""
    wanted = {f"{name}.{options}.jsonl" for name, options in cases()} | {"skill-response.json"}
    present = {path.name for path in EXPECTED.iterdir()} if EXPECTED.exists() else set()
    assert present <= wanted, f"stale golden files: {sorted(present - wanted)}"
