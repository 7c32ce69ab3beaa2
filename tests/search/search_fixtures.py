"""Shared pieces of the search tests: the samples, a test-only embedder, real enriched documents."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skills.formats.registry import TEXT_SUFFIXES
from skills.search.settings import Mode, SearchSettings
from skills.search.simulation import (
    SourceDocument,
    blob_document_key,
    call_web_api_skill,
    run_embedding_skill,
)
from skills.search.templates import DefinitionSet, render
from tests.azurite import AZURITE_PORT as AZURITE_PORT  # the search tests' names for them
from tests.azurite import azurite_listening as azurite_listening
from tests.azurite import require_azurite as require_azurite

ROOT = Path(__file__).resolve().parents[2]
#: The text samples the indexer reads (with the registry's suffixes: Markdown, text, source code).
SAMPLES = sorted(p for p in (ROOT / "samples").iterdir() if p.suffix in TEXT_SUFFIXES)
MODES: tuple[Mode, ...] = ("embedded", "reference")


class HashEmbedder:
    """A deterministic test double: a unit vector from the text's hash (no model, no meaning)."""

    def __init__(self, dimensions: int = 16) -> None:
        self.dimensions = dimensions
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        vectors = []
        for text in texts:
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            raw = [digest[i % len(digest)] - 127.5 for i in range(self.dimensions)]
            norm = math.sqrt(sum(x * x for x in raw))
            vectors.append([x / norm for x in raw])
        return vectors


def local_definitions(mode: Mode, skill_uri: str, dimensions: int) -> DefinitionSet:
    return render(mode, SearchSettings(dimensions=dimensions, skill_uri=skill_uri))


def source_documents(files: Sequence[Path] = SAMPLES) -> list[SourceDocument]:
    """The samples as the blob indexer would present them (without a storage account)."""
    documents = []
    for path in files:
        url = f"https://account.blob.core.windows.net/documents/{path.name}"
        tree: dict[str, Any] = {
            "content": path.read_text(encoding="utf-8"),
            "metadata_storage_name": path.name,
            "metadata_storage_path": url,
        }
        documents.append(SourceDocument(blob_document_key(url), tree))
    return documents


def enrich(definitions: DefinitionSet, embedder: HashEmbedder) -> list[SourceDocument]:
    """Real skill output (over HTTP) plus the embedding step, for every sample."""
    documents = source_documents()
    for skill in definitions.skillset["skills"]:
        if skill["@odata.type"].endswith("WebApiSkill"):
            outcome = call_web_api_skill(skill, documents)
            failed = {key: errors for key, (errors, _) in outcome.items() if errors}
            assert not failed, failed
        else:
            run_embedding_skill(skill, documents, embedder)
    return documents
