"""The ``semantic`` strategy's embeddings in the Function App: Azure OpenAI, when configured.

Topic shifts need an embedding model. The deployment gives the app the Azure OpenAI deployment the
index uses (``AZURE_OPENAI_ENDPOINT``, ``AZURE_OPENAI_EMBEDDING_DEPLOYMENT``; optional
``AZURE_OPENAI_EMBEDDING_DIMENSIONS``, ``AZURE_OPENAI_API_VERSION``) and the "Cognitive Services
OpenAI User" role for its identity (``AZURE_CLIENT_ID`` picks the user-assigned identity). Without
them, ``semantic`` records are chunked ``hierarchical`` with a warning, as the engine does.

The client is built once per process, on the first ``semantic`` record: other strategies never
import ``openai`` or touch the network.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from skills.chunking import BoundaryModel, EmbeddingBoundaries, TextEmbedder

ENDPOINT = "AZURE_OPENAI_ENDPOINT"
DEPLOYMENT = "AZURE_OPENAI_EMBEDDING_DEPLOYMENT"
DIMENSIONS = "AZURE_OPENAI_EMBEDDING_DIMENSIONS"
API_VERSION = "AZURE_OPENAI_API_VERSION"

_lock = threading.Lock()
_cache: dict[tuple[str, ...], BoundaryModel] = {}


def boundary_model(env: Mapping[str, str]) -> BoundaryModel | None:
    """Topic shifts from the configured Azure OpenAI deployment, or ``None`` when there is none."""
    endpoint, deployment = env.get(ENDPOINT, "").strip(), env.get(DEPLOYMENT, "").strip()
    if not endpoint or not deployment:
        return None
    dimensions = env.get(DIMENSIONS, "").strip()
    api_version = env.get(API_VERSION, "").strip()
    key = (endpoint, deployment, dimensions, api_version)
    with _lock:
        if key not in _cache:
            embedder = _embedder(endpoint, deployment, dimensions, api_version)
            _cache[key] = EmbeddingBoundaries(embedder)
        return _cache[key]


def _embedder(endpoint: str, deployment: str, dimensions: str, api_version: str) -> TextEmbedder:
    from skills.embeddings import DEFAULT_AZURE_API_VERSION, AzureOpenAIEmbedder

    # Boundaries compare passages with each other only: any dimension count works; a configured
    # one keeps the calls identical to the index's (text-embedding-3 accepts it, ada-002 not).
    return AzureOpenAIEmbedder(
        endpoint,
        deployment,
        dimensions=int(dimensions) if dimensions.isdigit() else 1536,
        send_dimensions=dimensions.isdigit(),
        api_version=api_version or DEFAULT_AZURE_API_VERSION,
    )
