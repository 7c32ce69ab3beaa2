"""A SIMULATION of the Azure AI Search indexer, for a local end-to-end run with no Azure.

It is not the service. It does, from the same rendered definitions a deploy sends, what the
indexer is documented to do with them, so that a mistake in the definitions or the skill shows up
here first:

1. list the blobs of the data source's container (Azurite), keeping the indexer's
   ``indexedFileNameExtensions``, and build each ``/document`` (``content`` in ``parsingMode:
   text``, ``file_data`` with ``allowSkillsetToReadFileData``, plus ``metadata_storage_*``),
   keyed like the blob indexer (URL-safe base64 of the path);
2. call the WebApiSkill over HTTP with its inputs, ``batchSize`` records per request and
   ``degreeOfParallelism`` requests at a time, and check each response as the indexer does;
3. run the embedding skill at its context with a local embedder instead of Azure OpenAI;
4. apply the index projections (:mod:`skills.search.projection`) and validate every projected
   document against its index schema (:mod:`skills.search.schema`).

What it does not do: change tracking, deletion detection, retries, and the service's real ranking
(:mod:`skills.search.local_index` stands in for it).
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from skills.embeddings import Embedder
from skills.search.enrichment import instances, resolve, set_at
from skills.search.projection import project
from skills.search.schema import key_field, validate_document
from skills.search.templates import DefinitionSet

WEB_API_SKILL = "#Microsoft.Skills.Custom.WebApiSkill"
EMBEDDING_SKILL = "#Microsoft.Skills.Text.AzureOpenAIEmbeddingSkill"
SKILL_TIMEOUT_SECONDS = 230.0
#: what this module knows how to run (the embedding skill with a local embedder)
SIMULATED_SKILLS = (WEB_API_SKILL, EMBEDDING_SKILL)


class SimulationError(RuntimeError):
    """The run found something the service would reject; the message lists what."""


@dataclass
class SourceDocument:
    """One blob as the indexer sees it: its key and its enrichment tree (``/document``)."""

    key: str
    tree: dict[str, Any]


@dataclass
class SimulationResult:
    """The documents each index would hold, and the documents that failed, with why."""

    documents: dict[str, list[dict[str, Any]]]
    failures: dict[str, list[str]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)


def blob_document_key(path: str) -> str:
    """The blob indexer's default key: URL-safe base64 of ``metadata_storage_path``.

    >>> blob_document_key("https://a/b.md")
    'aHR0cHM6Ly9hL2IubWQ1'
    """
    encoded = base64.urlsafe_b64encode(path.encode("utf-8")).decode("ascii")
    stripped = encoded.rstrip("=")
    return f"{stripped}{len(encoded) - len(stripped)}"  # HttpServerUtility.UrlTokenEncode style


def read_container(
    container: Any, indexer: dict[str, Any], folder: str | None = None
) -> list[SourceDocument]:
    """Every blob the indexer would pick up, as a source document: its text in ``parsingMode:
    text``, the file itself (``file_data``) when the indexer lets the skillset read it (the
    default mode's cracked ``content`` is not simulated: no definition here reads it)."""
    configuration = indexer.get("parameters", {}).get("configuration", {})
    extensions = _extensions(configuration.get("indexedFileNameExtensions"))
    as_text = configuration.get("parsingMode") == "text"
    with_file = configuration.get("allowSkillsetToReadFileData") is True
    documents = []
    for blob in container.list_blobs(name_starts_with=folder):
        name = blob.name.rsplit("/", 1)[-1]
        if extensions and not name.lower().endswith(extensions):
            continue
        client = container.get_blob_client(blob.name)
        data = client.download_blob().readall()
        path = client.url
        tree: dict[str, Any] = {}
        if as_text:
            tree["content"] = data.decode("utf-8-sig")
        if with_file:
            tree["file_data"] = {"$type": "file", "data": base64.b64encode(data).decode("ascii")}
        tree |= {
            "metadata_storage_name": name,
            "metadata_storage_path": path,
            "metadata_storage_size": blob.size,
            "metadata_storage_content_type": blob.content_settings.content_type,
        }
        documents.append(SourceDocument(blob_document_key(path), tree))
    return documents


def _extensions(configured: str | None) -> tuple[str, ...]:
    return tuple(e.strip().lower() for e in (configured or "").split(",") if e.strip())


def run_indexer(
    definitions: DefinitionSet, documents: Sequence[SourceDocument], embedder: Embedder
) -> SimulationResult:
    """Skills, projections and validation for ``documents`` (steps 2-4 of the module docstring)."""
    skills = definitions.skillset["skills"]
    unknown = [s["@odata.type"] for s in skills if s["@odata.type"] not in SIMULATED_SKILLS]
    if unknown:
        raise SimulationError(
            f"the simulation cannot run {', '.join(unknown)} (a billed Azure service): run "
            "these definitions on Azure"
        )
    failures: dict[str, list[str]] = {}
    warnings: dict[str, list[str]] = {}
    for skill in skills:
        if skill["@odata.type"] == WEB_API_SKILL:
            for key, (errors, notes) in call_web_api_skill(skill, documents).items():
                if errors:
                    failures[key] = errors
                if notes:
                    warnings[key] = notes
    alive = [doc for doc in documents if doc.key not in failures]
    for skill in skills:
        if skill["@odata.type"] == EMBEDDING_SKILL:
            run_embedding_skill(skill, alive, embedder)
    indexes = definitions.indexes
    key_fields = {name: key_field(index) for name, index in indexes.items()}
    projected: dict[str, list[dict[str, Any]]] = {name: [] for name in indexes}
    problems = []
    for doc in alive:
        out = project(doc.tree, doc.key, definitions.skillset["indexProjections"], key_fields)
        for index_name, docs in out.items():
            for projected_doc in docs:
                problems += [
                    f"{index_name}: {p}"
                    for p in validate_document(indexes[index_name], projected_doc)
                ]
            projected[index_name].extend(docs)
    if problems:
        raise SimulationError(
            "projected documents the service would reject:\n" + "\n".join(problems[:20])
        )
    return SimulationResult(projected, failures, warnings)


def call_web_api_skill(
    skill: dict[str, Any], documents: Sequence[SourceDocument]
) -> dict[str, tuple[list[str], list[str]]]:
    """Call the skill like the indexer: batches, parallel requests, outputs under the context.

    Returns document key -> (errors, warnings). A document with errors gets no outputs, as in the
    service ("WebApi response contains both data and errors. Will not process Data.").
    """
    records = [
        (doc, bound, f"{position}")
        for position, (doc, bound) in enumerate(
            (doc, bound) for doc in documents for bound, _ in instances(doc.tree, skill["context"])
        )
    ]
    size = int(skill.get("batchSize", 1000))
    batches = [records[i : i + size] for i in range(0, len(records), size)]
    with ThreadPoolExecutor(max_workers=int(skill.get("degreeOfParallelism", 5))) as pool:
        replies = list(pool.map(lambda batch: _post_batch(skill, batch), batches))
    outcome: dict[str, tuple[list[str], list[str]]] = {}
    for batch, reply in zip(batches, replies, strict=True):
        for doc, bound, record_id in batch:
            errors, notes = _apply_record(skill, doc, bound, reply.get(record_id))
            previous = outcome.get(doc.key, ([], []))
            outcome[doc.key] = (previous[0] + errors, previous[1] + notes)
    return outcome


def _post_batch(
    skill: dict[str, Any], batch: Sequence[tuple[SourceDocument, tuple[int, ...], str]]
) -> dict[str, dict[str, Any]]:
    values = [
        {"recordId": record_id, "data": _inputs(skill, doc.tree, bound)}
        for doc, bound, record_id in batch
    ]
    body = json.dumps({"values": values}).encode("utf-8")
    headers = {"Content-Type": "application/json", **skill.get("httpHeaders", {})}
    request = urllib.request.Request(skill["uri"], data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=_timeout_seconds(skill)) as response:
            content_type = response.headers.get("Content-Type", "")
            if not content_type.startswith("application/json"):
                raise SimulationError(f"skill answered {content_type!r}: the indexer needs JSON")
            payload = json.loads(response.read())
    except urllib.error.HTTPError as error:  # > 299: every document of the batch fails
        message = f"Web Api request failed: {error.code} {error.read()[:500]!r}"
        return {record_id: {"errors": [{"message": message}]} for _, _, record_id in batch}
    returned = [record["recordId"] for record in payload["values"]]
    sent = [record_id for _, _, record_id in batch]
    if sorted(returned) != sorted(sent):
        raise SimulationError(f"skill returned records {returned} for {sent}")
    return {record["recordId"]: record for record in payload["values"]}


def _inputs(skill: dict[str, Any], tree: dict[str, Any], bound: tuple[int, ...]) -> dict[str, Any]:
    context = skill["context"]
    data = {}
    for entry in skill["inputs"]:
        source = entry["source"]
        value = (
            _literal(source) if source.startswith("=") else resolve(tree, source, bound, context)
        )
        if value is not None:
            data[entry["name"]] = value
    return data


def _literal(source: str) -> Any:
    """``=512`` -> 512, ``='markdown'`` -> 'markdown' (the forms our definitions may use)."""
    text = source[1:].strip()
    if text.startswith("'") and text.endswith("'"):
        return text[1:-1].replace("''", "'")
    return json.loads(text)


def _timeout_seconds(skill: dict[str, Any]) -> float:
    timeout = str(skill.get("timeout", "PT30S"))
    if timeout.startswith("PT") and timeout.endswith("S") and timeout[2:-1].isdigit():
        return float(timeout[2:-1])
    return SKILL_TIMEOUT_SECONDS


def _apply_record(
    skill: dict[str, Any],
    doc: SourceDocument,
    bound: tuple[int, ...],
    record: dict[str, Any] | None,
) -> tuple[list[str], list[str]]:
    if record is None:
        return ["the skill returned no record for this document"], []
    errors = [m["message"] for m in record.get("errors") or []]
    notes = [m["message"] for m in record.get("warnings") or []]
    if errors:
        return errors, notes
    data = record.get("data") or {}
    for output in skill["outputs"]:
        if output["name"] in data:
            set_at(doc.tree, skill["context"], bound, output["targetName"], data[output["name"]])
    return [], notes


def run_embedding_skill(
    skill: dict[str, Any], documents: Iterable[SourceDocument], embedder: Embedder
) -> None:
    """The Azure OpenAI embedding skill, with ``embedder`` in place of the deployment."""
    if embedder.dimensions != skill.get("dimensions", embedder.dimensions):
        raise SimulationError(
            f"the embedder makes {embedder.dimensions} numbers, the skill says "
            f"{skill.get('dimensions')}: render the definitions with the embedder's dimensions"
        )
    context, source = skill["context"], skill["inputs"][0]["source"]
    targets = [(doc, bound) for doc in documents for bound, _ in instances(doc.tree, context)]
    texts = [resolve(doc.tree, source, bound, context) or "" for doc, bound in targets]
    vectors = embedder.embed(texts) if texts else []
    target_name = skill["outputs"][0]["targetName"]
    for (doc, bound), vector in zip(targets, vectors, strict=True):
        set_at(doc.tree, context, bound, target_name, vector)
