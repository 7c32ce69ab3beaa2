"""Shared pieces of the search tests: the samples, a test-only embedder, real enriched documents."""

from __future__ import annotations

import hashlib
import math
import os
import socket
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from skills.formats.registry import TEXT_SUFFIXES
from skills.search.local_run import azurite_blob_port
from skills.search.settings import Mode, SearchSettings
from skills.search.simulation import (
    SourceDocument,
    blob_document_key,
    call_web_api_skill,
    run_embedding_skill,
)
from skills.search.templates import DefinitionSet, render

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


def azurite_listening(port: int, wait_seconds: float) -> bool:
    """Poll the port: scripts/test.sh starts Azurite in the background just before the tests."""
    deadline = time.monotonic() + wait_seconds
    while True:
        with socket.socket() as probe:
            probe.settimeout(1.0)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


#: Where scripts/test.sh starts Azurite's blob service.
AZURITE_PORT = azurite_blob_port()


def require_azurite() -> int:
    """Azurite's blob port, once it listens; else the calling module is skipped, saying why, and
    in CI it fails instead: a test that needs Azurite must not pass there by not running."""
    ci = bool(os.environ.get("CI"))
    if not azurite_listening(AZURITE_PORT, 30.0 if ci else 2.0):
        reason = (
            f"Azurite blob service not listening on 127.0.0.1:{AZURITE_PORT} "
            "(scripts/test.sh starts it)"
        )
        if ci:
            raise RuntimeError(reason)
        pytest.skip(reason, allow_module_level=True)
    return AZURITE_PORT
