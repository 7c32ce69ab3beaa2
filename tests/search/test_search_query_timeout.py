"""A query has a bounded time (``QueryOptions.timeout``, ``AZURE_SEARCH_QUERY_TIMEOUT_SECONDS``):
a search service that stops answering fails it with :class:`QueryTimeout` in that time, instead
of holding it for azure-core's defaults (a read waits 300 s, and is tried again ten times)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from bench.stand_in_search import Hanging
from skills.search.query import QueryOptions, QueryTimeout, query_parents
from skills.search.settings import QUERY_TIMEOUT_SECONDS, SearchSettings, SettingsError


@pytest.fixture
def silent_service() -> Iterator[str]:
    """An endpoint that accepts connections and never answers (a hung service)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:  # closed
                return

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    server.close()
    for connection in held:
        connection.close()


def test_a_query_to_a_service_that_never_answers_fails_in_its_time(silent_service: str) -> None:
    """Through azure-search-documents and azure-core themselves: the request's timeouts are
    theirs (``connection_timeout``, ``read_timeout``, the retries' ``timeout``)."""
    from azure.core.credentials import AzureKeyCredential

    from skills.search.azure import AzureSearcher

    searcher = AzureSearcher(silent_service, AzureKeyCredential("key"))
    started = time.monotonic()
    with pytest.raises(QueryTimeout, match="did not answer the query within 1 s") as error:
        query_parents(searcher, "q", children_index="children", options=QueryOptions(timeout=1))
    assert time.monotonic() - started < 10
    assert error.value.__notes__ == ["raised by the hybrid query"]


def test_a_query_waits_for_its_halves_no_longer_than_its_time() -> None:
    """A searcher that does not honour a request's timeout (a stand-in, another client): the
    halves' answers are waited for until the query's time is spent, and the error names the
    half."""
    hanging = Hanging()
    started = time.monotonic()
    try:
        with pytest.raises(QueryTimeout) as error:
            query_parents(hanging, "q", children_index="slow", options=QueryOptions(timeout=0.5))
        assert time.monotonic() - started < 10
        assert error.value.__notes__[0].startswith("raised by the keyword half")
    finally:
        hanging.released.set()


def test_the_query_time_is_a_setting_with_a_default() -> None:
    assert QueryOptions().timeout == QUERY_TIMEOUT_SECONDS == 30
    assert SearchSettings.from_env({}).query_timeout_seconds == 30
    environ = {"AZURE_SEARCH_QUERY_TIMEOUT_SECONDS": "90"}
    assert SearchSettings.from_env(environ).query_timeout_seconds == 90
    with pytest.raises(SettingsError, match="AZURE_SEARCH_QUERY_TIMEOUT_SECONDS"):
        SearchSettings.from_env({"AZURE_SEARCH_QUERY_TIMEOUT_SECONDS": "0"})
    with pytest.raises(ValueError, match="timeout"):
        QueryOptions(timeout=0)
