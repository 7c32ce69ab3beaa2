"""The Azure side of :class:`skills.search.query.Searcher`, and the keyless credential.

Keyless by default: ``DefaultAzureCredential`` (``az login`` on a laptop, managed identity in
Azure). The caller needs "Search Index Data Reader" to query and "Search Service Contributor" to
deploy. ``AZURE_SEARCH_API_KEY`` is honoured only where keys are allowed.
"""

from __future__ import annotations

import os
from typing import Any

from skills.search.query import SearchRequest

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
    """Runs each search on the service through ``azure-search-documents`` 12.x."""

    def __init__(self, endpoint: str, credential: Any) -> None:
        self._endpoint = endpoint
        self._credential = credential
        self._clients: dict[str, Any] = {}

    def _client(self, index: str) -> Any:
        if index not in self._clients:
            from azure.search.documents import SearchClient

            self._clients[index] = SearchClient(self._endpoint, index, self._credential)
        return self._clients[index]

    def search(self, request: SearchRequest) -> list[dict[str, Any]]:
        from azure.search.documents.models import VectorizableTextQuery

        extra: dict[str, Any] = {}
        if request.vector_k:
            vector = VectorizableTextQuery(
                text=request.text, k_nearest_neighbors=request.vector_k, fields=VECTOR_FIELD
            )
            extra["vector_queries"] = [vector]
        if request.semantic:
            extra["query_type"] = "semantic"
            extra["semantic_configuration_name"] = SEMANTIC_CONFIGURATION
        results = self._client(request.index).search(
            search_text=request.text, select=list(request.select), top=request.top,
            filter=request.filter, **extra,
        )  # fmt: skip
        return [dict(result) for result in results]
