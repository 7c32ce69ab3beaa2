"""The simulated indexer calls a skill as the service does, and judges its answers the same way.

A small scripted HTTP skill on 127.0.0.1 records every request and answers as told.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from search_fixtures import HashEmbedder

from skills.search.settings import Mode, SearchSettings
from skills.search.simulation import (
    SimulationError,
    SourceDocument,
    call_web_api_skill,
    run_indexer,
)
from skills.search.templates import DefinitionSet, render

Answer = Callable[[dict[str, Any]], tuple[int, str, dict[str, Any]]]


class ScriptedSkill:
    """Records request bodies; ``answer`` turns one record into (status, content type, result)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.answer: Answer = lambda record: (200, "application/json", _ok(record))
        self.lock = threading.Lock()


def _ok(record: dict[str, Any]) -> dict[str, Any]:
    text = record["data"].get("text", "")
    return {"recordId": record["recordId"], "data": {"parents": [{"id": text}]},
            "errors": None, "warnings": None}  # fmt: skip


@pytest.fixture
def skill() -> Iterator[tuple[ScriptedSkill, str]]:
    script = ScriptedSkill()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with script.lock:
                script.requests.append(body)
                script.headers.append({k.lower(): v for k, v in self.headers.items()})
            answers = [script.answer(record) for record in body["values"]]
            status, content_type = answers[0][0], answers[0][1]
            payload = json.dumps({"values": [a[2] for a in answers]}).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield script, f"http://127.0.0.1:{server.server_address[1]}/api/chunk"
    finally:
        server.shutdown()
        server.server_close()


def definition(uri: str, batch_size: int = 2) -> dict[str, Any]:
    return {
        "@odata.type": "#Microsoft.Skills.Custom.WebApiSkill", "context": "/document",
        "uri": uri, "timeout": "PT30S", "batchSize": batch_size, "degreeOfParallelism": 2,
        "httpHeaders": {"x-functions-key": "k"},
        "inputs": [{"name": "text", "source": "/document/content"},
                   {"name": "mode", "source": "='markdown'"},
                   {"name": "size", "source": "=512"},
                   {"name": "missing", "source": "/document/nothing"}],
        "outputs": [{"name": "parents", "targetName": "parents"}],
    }  # fmt: skip


def documents(count: int) -> list[SourceDocument]:
    return [SourceDocument(f"key{i}", {"content": f"text{i}"}) for i in range(count)]


def test_records_go_in_batches_of_batch_size_with_inputs_and_headers(
    skill: tuple[ScriptedSkill, str],
) -> None:
    script, uri = skill
    docs = documents(5)
    outcome = call_web_api_skill(definition(uri, batch_size=2), docs)
    assert sorted(len(r["values"]) for r in script.requests) == [1, 2, 2]
    records = [rec for request in script.requests for rec in request["values"]]
    assert sorted(rec["data"]["text"] for rec in records) == [f"text{i}" for i in range(5)]
    assert all(rec["data"]["mode"] == "markdown" and rec["data"]["size"] == 512 for rec in records)
    assert all("missing" not in rec["data"] for rec in records)
    assert all(h.get("x-functions-key") == "k" for h in script.headers)
    assert all(outcome[doc.key] == ([], []) for doc in docs)
    assert [doc.tree["parents"] for doc in docs] == [[{"id": f"text{i}"}] for i in range(5)]


def test_a_record_with_errors_fails_its_document_and_gets_no_outputs(
    skill: tuple[ScriptedSkill, str],
) -> None:
    script, uri = skill

    def answer(record: dict[str, Any]) -> tuple[int, str, dict[str, Any]]:
        result = _ok(record)
        if record["data"]["text"] == "text1":
            result["errors"] = [{"message": "broken"}]
        return 207, "application/json", result

    script.answer = answer
    docs = documents(2)
    outcome = call_web_api_skill(definition(uri), docs)
    assert outcome["key1"] == (["broken"], [])
    assert "parents" not in docs[1].tree
    assert "parents" in docs[0].tree


def test_an_http_error_fails_every_document_of_the_batch(skill: tuple[ScriptedSkill, str]) -> None:
    script, uri = skill
    script.answer = lambda record: (500, "application/json", _ok(record))
    outcome = call_web_api_skill(definition(uri), documents(2))
    assert all("Web Api request failed: 500" in errors[0] for errors, _ in outcome.values())


def test_a_response_that_is_not_json_is_rejected(skill: tuple[ScriptedSkill, str]) -> None:
    script, uri = skill
    script.answer = lambda record: (200, "text/plain", _ok(record))
    with pytest.raises(SimulationError, match="needs JSON"):
        call_web_api_skill(definition(uri), documents(1))


def test_a_response_with_other_record_ids_is_rejected(skill: tuple[ScriptedSkill, str]) -> None:
    script, uri = skill
    script.answer = lambda record: (200, "application/json", {**_ok(record), "recordId": "x"})
    with pytest.raises(SimulationError, match="returned records"):
        call_web_api_skill(definition(uri), documents(1))


def chunked_document(key: str) -> SourceDocument:
    """A document as it stands after the skill: one parent with two children."""
    content = "# A\n\none two\n\nthree"
    child = {"parentId": "p0", "level": 1, "headings": ["A"], "pages": []}
    tree = {
        "content": content, "metadata_storage_name": f"{key}.md",
        "metadata_storage_path": f"https://x/{key}.md",
        "parents": [{
            "id": f"{key}-p0", "parentId": None, "level": 0, "ordinal": 0, "start": 0,
            "end": len(content), "text": content, "embedText": content, "tokens": 5,
            "headings": ["A"], "pages": [],
            "children": [
                {**child, "id": f"{key}-c0", "ordinal": 0, "start": 5, "end": 12,
                 "text": content[5:12], "embedText": "A\n" + content[5:12], "tokens": 3},
                {**child, "id": f"{key}-c1", "ordinal": 1, "start": 14, "end": 19,
                 "text": content[14:19], "embedText": "A\n" + content[14:19], "tokens": 2},
            ],
        }],
    }  # fmt: skip
    return SourceDocument(key, tree)


def embedding_only(
    mode: Mode, change: Callable[[DefinitionSet], None] | None = None
) -> DefinitionSet:
    """The mode's definitions without the WebApiSkill, for documents that are chunked already."""
    definitions = render(mode, SearchSettings(dimensions=4))
    definitions.skillset["skills"] = [
        s for s in definitions.skillset["skills"] if not s["@odata.type"].endswith("WebApiSkill")
    ]
    if change is not None:
        change(definitions)
    return definitions


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_run_indexer_projects_every_child_and_parent(mode: Mode) -> None:
    result = run_indexer(embedding_only(mode), [chunked_document("a"), chunked_document("b")],
                         HashEmbedder(4))  # fmt: skip
    children = result.documents[f"hcs-{mode}-children"]
    assert [c["chunkId"] for c in children] == ["a-c0", "a-c1", "b-c0", "b-c1"]
    assert all(len(c["vector"]) == 4 for c in children)
    if mode == "reference":
        parents = result.documents["hcs-reference-parents"]
        assert [p["parentChunkId"] for p in parents] == ["a-p0", "b-p0"]
    else:
        assert {c["parentText"] for c in children} == {"# A\n\none two\n\nthree"}


def test_run_indexer_refuses_documents_the_index_would_reject() -> None:
    def ordinal_as_string(d: DefinitionSet) -> None:
        children = d.indexes["hcs-embedded-children"]
        next(f for f in children["fields"] if f["name"] == "ordinal")["type"] = "Edm.String"

    with pytest.raises(SimulationError, match=r"'ordinal' \(Edm.String\): expected a string"):
        run_indexer(embedding_only("embedded", ordinal_as_string), [chunked_document("a")],
                    HashEmbedder(4))  # fmt: skip


def test_run_indexer_refuses_an_embedder_of_other_dimensions() -> None:
    with pytest.raises(SimulationError, match="dimensions"):
        run_indexer(embedding_only("embedded"), [chunked_document("a")], HashEmbedder(8))
