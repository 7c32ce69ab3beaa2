"""A record's parents written one at a time: the same bytes as the whole record serialised at once.

The reference is the shaping as it was before the parents were streamed (``_shaped_at_once``,
kept here as the oracle) serialised with ``json.dumps`` (compact, UTF-8) and with the answer's
own ``to_json``; the answer under test gets :func:`streamed_record_data`.
"""

from __future__ import annotations

import json
import tracemalloc
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from skills.chunking import Chunk, Chunking, ChunkOptions, Strategy, chunk_document
from skills.local.devserver import PROJECT_ROOT
from skills.skill.answer import Answer, Stream, to_json
from skills.skill.shape import WRAPPER_SUFFIX, record_data, streamed_record_data

SAMPLES = sorted((PROJECT_ROOT / "samples").iterdir())
FORMATS = {".md": "markdown", ".rst": "rst", ".txt": "text", ".py": "code"}


def _shaped_at_once(result: Chunking) -> list[dict[str, Any]]:
    """``shape.parents_with_children`` as it was at ``afce48c``: every leaf grouped first."""
    by_parent: dict[str, list[Chunk]] = defaultdict(list)
    known = {parent.id for parent in result.parents}
    orphans = []
    for leaf in result.leaves:
        if leaf.parent_id is not None and leaf.parent_id in known:
            by_parent[leaf.parent_id].append(leaf)
        else:
            orphans.append(leaf)
    shaped = [_old_parent(p, p.id, by_parent[p.id], result.language) for p in result.parents]
    if orphans:
        shaped.extend(
            _old_parent(leaf, leaf.id + WRAPPER_SUFFIX, [leaf], result.language) for leaf in orphans
        )
        shaped.sort(key=lambda chunk: (chunk["start"], chunk["end"]))
    return shaped


def _old_parent(parent: Chunk, pid: str, children: list[Chunk], lang: str | None) -> dict[str, Any]:
    out = _old_common(parent, pid)
    out["children"] = [
        {**_old_common(c, c.id), "embedText": c.embed_text, "language": lang, "context": c.note}
        for c in children
    ]
    return out


def _old_common(chunk: Chunk, chunk_id: str) -> dict[str, Any]:
    return {
        "id": chunk_id,
        "ordinal": chunk.ordinal,
        "start": chunk.start,
        "end": chunk.end,
        "text": chunk.text,
        "prefix": chunk.prefix,
        "headings": list(chunk.headings),
        "pages": list(chunk.pages),
    }


def _record(record_id: str, data: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    messages = [{"message": warning} for warning in warnings] or None
    return {"recordId": record_id, "data": data, "errors": None, "warnings": messages}


def _streamed(result: Chunking, record_id: str = "1", warnings: tuple[str, ...] = ()) -> bytes:
    answer = Answer()
    answer.add(_record(record_id, streamed_record_data(result, "k"), list(warnings)))
    return answer.body()


def _at_once(result: Chunking, record_id: str = "1", warnings: tuple[str, ...] = ()) -> bytes:
    record = _record(
        record_id, {"documentKey": "k", "parents": _shaped_at_once(result)}, [*warnings]
    )
    dumped = json.dumps({"values": [record]}, ensure_ascii=False, separators=(",", ":"))
    assert to_json({"values": [record]}) == dumped.encode("utf-8")
    return dumped.encode("utf-8")


def _documents() -> Iterator[tuple[str, Chunking]]:
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        yield path.name, chunk_document(text, format=FORMATS[path.suffix], document_key=path.name)
        yield path.name + " crlf", chunk_document(text.replace("\n", "\r\n"), document_key="k")
    unicode = "# Überschrift ünïcödé\n\n" + "naïve café 東京 😀 e\u0301 \u2028 \x7f\tend. " * 400
    yield "unicode", chunk_document(unicode, options=ChunkOptions(child_max_tokens=64))
    yield "controls", chunk_document('# a"b\\c\n\n\x00\x01\x1f \u00e9 </script>', document_key="k")
    yield "empty", chunk_document("", document_key="k")
    yield "spaces", chunk_document("   \n\t", document_key="k")
    text = (PROJECT_ROOT / "samples/widget-api-guide.md").read_text(encoding="utf-8")
    for strategy in (Strategy.FIXED, Strategy.RECURSIVE, Strategy.STRUCTURAL):
        yield strategy.value, chunk_document(text, options=ChunkOptions(strategy=strategy))


DOCUMENTS = dict(_documents())


@pytest.mark.parametrize("name", DOCUMENTS)
def test_a_streamed_record_is_the_record_serialised_at_once(name: str) -> None:
    result = DOCUMENTS[name]
    assert _streamed(result) == _at_once(result)


def test_a_record_with_warnings_and_orphans_is_the_same_streamed() -> None:
    result = DOCUMENTS["widget-api-guide.md"]
    first, last = (
        replace(result.leaves[0], parent_id=None),
        replace(result.leaves[-1], parent_id="x"),
    )
    orphaned = replace(result, leaves=(first, *result.leaves[1:-1], last))
    warnings = ("text truncated to its first 9 characters", 'ünïcödé "quoted"')
    assert _streamed(orphaned, "r-é", warnings) == _at_once(orphaned, "r-é", warnings)
    assert b'-w"' in _streamed(orphaned)


def test_a_record_id_with_a_lone_surrogate_makes_the_whole_record_ascii_as_before() -> None:
    result = DOCUMENTS["unicode"]
    record = _record("id-\ud800", {"documentKey": "k", "parents": _shaped_at_once(result)}, [])
    expected = b'{"values":[' + json.dumps(record, separators=(",", ":")).encode("ascii") + b"]}"
    assert _streamed(result, "id-\ud800") == expected


def test_streamed_and_whole_record_data_are_equal_once_read() -> None:
    for result in DOCUMENTS.values():
        streamed, whole = streamed_record_data(result, "k"), record_data(result, "k")
        assert len(streamed["parents"]) == len(whole["parents"])
        assert {**streamed, "parents": list(streamed["parents"].items())} == whole


def test_a_record_that_raises_while_written_leaves_nothing_in_the_answer() -> None:
    def items() -> Iterator[int]:
        yield 1
        raise RuntimeError("shaping failed")

    answer = Answer()
    answer.add({"recordId": "1", "data": {}})
    with pytest.raises(RuntimeError):
        answer.add({"recordId": "2", "data": {"parents": Stream(items, 2)}})
    answer.add({"recordId": "3", "data": {}})
    assert json.loads(answer.body()) == {
        "values": [{"recordId": "1", "data": {}}, {"recordId": "3", "data": {}}]
    }


def test_writing_a_large_record_holds_its_bytes_not_every_parents_dicts() -> None:
    """Shaped all at once, the parents' dicts and their JSON weighed 3.6 times the record's
    bytes at their peak; streamed, the answer's buffer and one parent."""
    text = "\n\n".join(path.read_text(encoding="utf-8") for path in SAMPLES if path.suffix == ".md")
    result = chunk_document(text * 20, document_key="k")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        answer = Answer()
        size = answer.add(_record("1", streamed_record_data(result, "k"), []))
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert size > 1_000_000
    assert peak < 1.5 * size
