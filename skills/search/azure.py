"""The Azure side of :class:`skills.search.query.Searcher` and of the doctor's storage checks,
and the keyless credential.

Keyless by default: ``DefaultAzureCredential`` (``az login`` on a laptop, managed identity in
Azure). The caller needs "Search Index Data Reader" to query and "Search Service Contributor" to
deploy. ``AZURE_SEARCH_API_KEY`` is honoured only where keys are allowed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

from skills.ranking import SERVICE_VECTOR_WEIGHT
from skills.search.query import Deadline, SearchRequest

SEMANTIC_CONFIGURATION = "children"
VECTOR_FIELD = "vector"


def credential() -> Any:
    """An API key credential if ``AZURE_SEARCH_API_KEY`` is set, else DefaultAzureCredential."""
    key = os.environ.get("AZURE_SEARCH_API_KEY")
    if key:
        from azure.core.credentials import AzureKeyCredential

        return AzureKeyCredential(key)
    from azure.identity import DefaultAzureCredential

    return DefaultAzureCredential()


class AzureSearcher:
    """Runs each search on the service through ``azure-search-documents`` 12.x, from any thread
    (:func:`skills.search.query.searched_together` sends a query's requests from three).

    Each thread keeps its own ``SearchClient`` per index: azure-core's synchronous transport
    (``RequestsTransport``, one ``requests`` session per client) says in its docstring that it
    is not to be taken as thread-safe, unlike the .NET SDK's clients, which are documented so.
    The credential is shared: its token cache (MSAL's) takes a lock."""

    def __init__(self, endpoint: str, credential: Any) -> None:
        self._endpoint = endpoint
        self._credential = credential
        self._local = threading.local()  # .clients: index -> this thread's SearchClient

    def _client(self, index: str) -> Any:
        clients: dict[str, Any] = self._local.__dict__.setdefault("clients", {})
        if index not in clients:
            from azure.search.documents import SearchClient

            clients[index] = SearchClient(self._endpoint, index, self._credential)
        return clients[index]

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        from azure.search.documents.models import VectorizableTextQuery

        extra: dict[str, Any] = {}
        if request.vector_k:
            # the service's default weight is not sent: a request as before this option
            weight = (
                None if request.vector_weight == SERVICE_VECTOR_WEIGHT else request.vector_weight
            )
            vector = VectorizableTextQuery(
                text=request.text,
                k_nearest_neighbors=request.vector_k,
                fields=VECTOR_FIELD,
                weight=weight,
            )
            extra["vector_queries"] = [vector]
        if request.semantic:
            extra["query_type"] = "semantic"
            extra["semantic_configuration_name"] = SEMANTIC_CONFIGURATION
        if request.skip:
            extra["skip"] = request.skip
        if request.order_by:
            extra["order_by"] = list(request.order_by)
        extra.update(_timeouts(request.timeout))
        from azure.core.exceptions import ServiceRequestTimeoutError, ServiceResponseTimeoutError

        try:
            results = self._client(request.index).search(
                search_text=request.text if request.keywords else None,
                select=list(request.select), top=request.top,
                filter=request.filter, **extra,
            )  # fmt: skip
            return [dict(result) for result in results]  # (the request is sent here)
        except (ServiceRequestTimeoutError, ServiceResponseTimeoutError) as error:
            if request.timeout is None:
                raise
            raise Deadline(None, request.timeout).spent() from error


def _timeouts(seconds: float | None) -> dict[str, float]:
    """azure-core's per-call options that bound a request to ``seconds`` (azure-core 1.41,
    ``RequestsTransport.send`` and ``RetryPolicy``): the connection's and each read's timeout
    (each 300 s by default), and the retries' total time (``timeout``, 7 days by default), past
    which the retry policy raises ``ServiceResponseTimeoutError`` instead of trying again.

    >>> _timeouts(None), _timeouts(12.5)["read_timeout"]
    ({}, 12.5)
    """
    if seconds is None:
        return {}
    return {"connection_timeout": seconds, "read_timeout": seconds, "timeout": seconds}


ARM_ENDPOINT = "https://management.azure.com"
STORAGE_API_VERSION = "2024-01-01"


class AzureStorage:
    """The documents account as the doctor reads it (:class:`skills.search.doctor.Storage`).

    The blob service's soft-delete and versioning settings come from Azure Resource Manager
    (``GET <account id>/blobServices/default``: Reader on the account is enough); the blobs from
    the data plane (Storage Blob Data Reader, which the template grants the deployer).
    """

    def __init__(
        self,
        resource_id: str,
        blob_endpoint: str,
        container: str,
        folder: str | None,
        credential: Any,
        *,
        arm_endpoint: str = ARM_ENDPOINT,
        blob_credential: Any = None,
    ) -> None:
        self._resource_id = resource_id.strip("/")
        self._blob_endpoint = blob_endpoint
        self._container = container
        self._folder = folder
        self._credential = credential
        self._blob_credential = credential if blob_credential is None else blob_credential
        self._arm_endpoint = arm_endpoint.rstrip("/")

    def blob_service(self) -> dict[str, Any]:
        """The ``properties`` of the account's blob service (REST Blob Services - Get Service
        Properties)."""
        from azure.core import PipelineClient
        from azure.core.pipeline.policies import BearerTokenCredentialPolicy, RetryPolicy
        from azure.core.rest import HttpRequest

        policy = BearerTokenCredentialPolicy(self._credential, f"{ARM_ENDPOINT}/.default")
        client: PipelineClient[Any, Any] = PipelineClient(
            self._arm_endpoint, policies=[RetryPolicy(), policy]
        )
        url = (
            f"{self._arm_endpoint}/{self._resource_id}/blobServices/default"
            f"?api-version={STORAGE_API_VERSION}"
        )
        # Tokens go over https only, except to a loopback address (the tests' fake service).
        loopback = urlparse(self._arm_endpoint).hostname in ("127.0.0.1", "localhost", "::1")
        response = client.send_request(HttpRequest("GET", url), enforce_https=not loopback)
        response.raise_for_status()
        return dict(response.json().get("properties") or {})

    def blobs(self) -> Iterator[Any]:
        from azure.storage.blob import ContainerClient

        from skills.search.doctor import Blob

        container = ContainerClient(self._blob_endpoint, self._container, self._blob_credential)
        for item in container.list_blobs(name_starts_with=self._folder or None):
            url = container.get_blob_client(item.name).url
            yield Blob(item.name, url, int(item.size or 0))
