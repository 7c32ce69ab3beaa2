"""The local end-to-end run: files -> Azurite -> simulated indexer -> local indexes -> queries.

Everything here is local: Azurite (the storage emulator) holds the blobs, the skill runs as the
project's dev server on 127.0.0.1, the embedder is the local model of :mod:`skills.embeddings`.
The definitions are rendered from the same templates as a deploy, with the local skill URL and
the local embedder's dimensions.
"""

from __future__ import annotations

import mimetypes
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skills.embeddings import Embedder
from skills.search.local_index import LocalIndex, LocalSearcher
from skills.search.settings import Mode, SearchSettings
from skills.search.simulation import SimulationResult, read_container, run_indexer
from skills.search.templates import DefinitionSet, render

#: Azurite's fixed development account (public, documented; not a secret).
AZURITE_ACCOUNT = "devstoreaccount1"
AZURITE_KEY = (
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)
SERVER_START_SECONDS = 60.0


def azurite_blob_port() -> int:
    """Where Azurite's blob service listens: ``AZURITE_BLOB_PORT`` (scripts/setup.sh sets it when
    it starts Azurite), else Azurite's own default."""
    return int(os.environ.get("AZURITE_BLOB_PORT", "10000"))


def azurite_connection_string(port: int | None = None) -> str:
    """The connection string of Azurite's blob service on 127.0.0.1 (``azurite_blob_port``)."""
    blob_port = port or azurite_blob_port()
    return (
        f"DefaultEndpointsProtocol=http;AccountName={AZURITE_ACCOUNT};AccountKey={AZURITE_KEY};"
        f"BlobEndpoint=http://127.0.0.1:{blob_port}/{AZURITE_ACCOUNT};"
    )


def container_client(connection_string: str, container: str) -> Any:
    from azure.storage.blob import BlobServiceClient

    service = BlobServiceClient.from_connection_string(connection_string)
    client = service.get_container_client(container)
    if not client.exists():
        client.create_container()
    return client


def replace_contents(container: Any, files: Sequence[Path]) -> None:
    """Make the container hold exactly ``files``: what a run indexes is what it was given."""
    for blob in container.list_blobs():
        container.delete_blob(blob.name)
    upload(container, files)


def upload(container: Any, files: Sequence[Path], folder: str = "") -> None:
    """Upload (overwrite) each file under ``folder`` with its content type."""
    from azure.storage.blob import ContentSettings

    for path in files:
        content_type = mimetypes.guess_type(path.name)[0] or "text/plain"
        container.upload_blob(
            f"{folder}{path.name}", path.read_bytes(), overwrite=True,
            content_settings=ContentSettings(content_type=content_type),
        )  # fmt: skip


@dataclass
class LocalRun:
    """What the simulation produced, and a searcher over it for the query path."""

    definitions: DefinitionSet
    result: SimulationResult
    searcher: LocalSearcher

    @property
    def children_index(self) -> str:
        return str(self.definitions.indexer["targetIndexName"])

    @property
    def parents_index(self) -> str | None:
        names = [name for name in self.definitions.indexes if name != self.children_index]
        return names[0] if names else None


def simulate(
    mode: Mode,
    files: Sequence[Path],
    *,
    skill_uri: str,
    embedder: Embedder,
    connection_string: str | None = None,
    container: str = "simulation",
) -> LocalRun:
    """Put ``files`` in an Azurite container, run the simulated indexer on it, index locally.

    The container is emptied first, so it holds exactly ``files``.
    """
    settings = SearchSettings(
        dimensions=embedder.dimensions, skill_uri=skill_uri, container=container, prefix="local"
    )
    definitions = render(mode, settings)
    client = container_client(connection_string or azurite_connection_string(), container)
    replace_contents(client, files)
    folder = definitions.data_source["container"].get("query")
    documents = read_container(client, definitions.indexer, folder)
    result = run_indexer(definitions, documents, embedder)
    indexes = {
        name: LocalIndex(definitions.indexes[name], docs) for name, docs in result.documents.items()
    }
    return LocalRun(definitions, result, LocalSearcher(indexes, embedder))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def skill_server(port: int | None = None, log_level: str = "info") -> Iterator[str]:
    """Run ``python -m skills serve`` on 127.0.0.1 and yield the skill URL; stop it afterwards.
    ``log_level`` ``warning`` keeps its per-request log lines out of a demo's output."""
    chosen = port or free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "skills", "serve", "--port", str(chosen), "--log-level", log_level],
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        _wait_for_port(chosen, process)
        _warm_up(f"http://127.0.0.1:{chosen}/api/health")
        yield f"http://127.0.0.1:{chosen}/api/chunk"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def _warm_up(health_url: str) -> None:
    """One health call loads the tokenizer, as a warm instance would have it loaded.

    The first batch then measures the skill, not its one-time start-up (an early skill version
    counted the tokenizer load in its time budget and fell back to a faster strategy).
    """
    with urllib.request.urlopen(health_url, timeout=SERVER_START_SECONDS) as response:
        response.read()


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the skill dev server exited with code {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the skill dev server did not listen on port {port} in time")
