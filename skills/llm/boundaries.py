"""The ``semantic`` strategy's embeddings in the Function App: Azure OpenAI, when configured.

Topic shifts need an embedding model. The deployment gives the app the Azure OpenAI deployment the
index uses and the "Cognitive Services OpenAI User" role for its identity; the skill reads those
app settings once (:mod:`skills.skill.settings`) into an :class:`EmbeddingDeployment`. Without
one, ``semantic`` records are chunked ``hierarchical`` with a warning, as the engine does.

Bounded by the batch's time budget: the client never retries on its own (its defaults allow
10 minutes x 3 attempts, and a 429's ``Retry-After``); each request times out when the record's
share of the budget ends, and a throttled or failed attempt is tried again only when its
``Retry-After`` (or one second) still leaves room for another attempt. Otherwise the record falls
back to hierarchical chunking with a warning.

Built once per process and deployment, on the first ``semantic`` record (other strategies never
import ``openai`` or touch the network), with one credential picked once: the managed identity
where the platform offers one (``EmbeddingDeployment.managed_identity``), else the Azure CLI login
of a developer's machine. ``DefaultAzureCredential`` would instead search its whole chain
(environment, workload identity, managed identity, CLI, PowerShell, ...) again on every failed
token request, spawning a subprocess per record when no credential exists.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from skills.chunking import BoundaryModel, EmbeddingBoundaries, TextEmbedder

#: The least time worth starting an attempt with: an embeddings call rarely answers faster.
MIN_ATTEMPT_SECONDS = 0.5
#: Wait before retrying a failure that names no ``Retry-After``.
DEFAULT_RETRY_SECONDS = 1.0
#: HTTP statuses worth another attempt (throttled, timed out, or a transient server error).
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})

_lock = threading.Lock()
_cache: dict[EmbeddingDeployment, TextEmbedder] = {}


@dataclass(frozen=True, slots=True)
class EmbeddingDeployment:
    """The embedding deployment the ``semantic`` strategy asks, and how the app signs in to it."""

    endpoint: str
    deployment: str
    #: sent with every request when given (text-embedding-3 accepts it, ada-002 not)
    dimensions: int | None = None
    #: empty: ``skills.embeddings.DEFAULT_AZURE_API_VERSION``
    api_version: str = ""
    #: sign in as the platform's managed identity (App Service and Functions set
    #: ``IDENTITY_ENDPOINT``), else as the developer's Azure CLI login
    managed_identity: bool = False
    #: the user-assigned identity to sign in as; empty: the system-assigned one
    client_id: str = ""


def boundary_model(
    deployment: EmbeddingDeployment | None,
    deadline: float,
    clock: Callable[[], float] = time.monotonic,
) -> BoundaryModel | None:
    """Topic shifts from ``deployment``, finished by ``deadline`` (on ``clock``), or ``None``
    when no deployment is configured."""
    if deployment is None:
        return None
    with _lock:
        if deployment not in _cache:
            _cache[deployment] = _embedder(deployment)
        embedder = _cache[deployment]
    return EmbeddingBoundaries(BoundedEmbedder(embedder, deadline, clock))


class BoundedEmbedder:
    """An embedder that gives up at a deadline: attempts and retries only while time is left.

    ``inner.embed_before(texts, deadline)`` is used when the embedder has it (each request then
    times out at the deadline); an embedder without it (a local model) is called as it is.
    """

    def __init__(
        self,
        inner: TextEmbedder,
        deadline: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.inner = inner
        self.deadline = deadline
        self._clock = clock
        self._sleep = sleep

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        while True:
            if self.deadline - self._clock() < MIN_ATTEMPT_SECONDS:
                raise TimeoutError("no time left in the batch's budget for the embeddings call")
            try:
                return self._attempt(texts)
            except Exception as exc:
                wait = _retry_wait(exc)
                if wait is None or self._clock() + wait + MIN_ATTEMPT_SECONDS > self.deadline:
                    raise
                self._sleep(wait)

    def _attempt(self, texts: Sequence[str]) -> list[list[float]]:
        embed_before = getattr(self.inner, "embed_before", None)
        if embed_before is None:
            return self.inner.embed(texts)
        vectors: list[list[float]] = embed_before(texts, self.deadline)
        return vectors


def _retry_wait(exc: Exception) -> float | None:
    """Seconds to wait before another attempt, or ``None`` when another cannot help."""
    status = getattr(exc, "status_code", None)
    if status is None and not _is_connection_error(exc):
        return None
    if status is not None and status not in RETRY_STATUSES:
        return None
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    try:
        return max(0.0, float(headers.get("retry-after", DEFAULT_RETRY_SECONDS)))
    except (TypeError, ValueError):  # an HTTP date, or garbage: the default wait
        return DEFAULT_RETRY_SECONDS


def _is_connection_error(exc: Exception) -> bool:
    """openai's connection errors (timeouts included), without importing openai for the check."""
    return any(cls.__name__ == "APIConnectionError" for cls in type(exc).__mro__)


def _embedder(deployment: EmbeddingDeployment) -> TextEmbedder:
    from skills.embeddings import AzureOpenAIEmbedder

    # Boundaries compare passages with each other only: any dimension count works; a configured
    # one keeps the calls identical to the index's.
    return AzureOpenAIEmbedder(
        deployment.endpoint,
        deployment.deployment,
        dimensions=deployment.dimensions or 1536,
        send_dimensions=deployment.dimensions is not None,
        client=_client(deployment),
    )


def _client(deployment: EmbeddingDeployment) -> Any:
    """An Azure OpenAI client that never retries by itself, with one credential."""
    from azure.identity import (
        AzureCliCredential,
        ManagedIdentityCredential,
        get_bearer_token_provider,
    )
    from openai import AzureOpenAI

    from skills.embeddings import COGNITIVE_SERVICES_SCOPE, DEFAULT_AZURE_API_VERSION

    credential: Any = (
        ManagedIdentityCredential(client_id=deployment.client_id or None)
        if deployment.managed_identity
        else AzureCliCredential()
    )
    return AzureOpenAI(
        azure_endpoint=deployment.endpoint,
        api_version=deployment.api_version or DEFAULT_AZURE_API_VERSION,
        azure_ad_token_provider=get_bearer_token_provider(credential, COGNITIVE_SERVICES_SCOPE),
        max_retries=0,
    )
