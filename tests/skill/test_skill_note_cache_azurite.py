"""The note cache on Azurite: an unchanged document costs no model call the second time, a changed
one is asked again, and an unreachable cache costs calls, not records.

Needs Azurite's blob service on 127.0.0.1:$AZURITE_BLOB_PORT (scripts/test.sh starts it). Without
it the tests skip and say so, except in CI, where a missing Azurite is a failure.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator

import pytest
from fake_chat import FakeChat, fake_chat
from test_skill_contextual import DOC, call, children, env, warnings

from skills.llm import note_cache
from skills.search.local_run import azurite_connection_string
from skills.skill import SkillSettings
from tests.azurite import require_azurite

PORT = require_azurite()


@pytest.fixture(scope="module")
def server() -> Iterator[FakeChat]:
    with fake_chat() as chat:
        yield chat


@pytest.fixture
def cached_env(server: FakeChat) -> dict[str, str]:
    server.reset()
    return env(
        server,
        CONTEXT_CACHE_CONNECTION_STRING=azurite_connection_string(PORT),
        CONTEXT_CACHE_CONTAINER=f"notes-{uuid.uuid4().hex[:12]}",  # a fresh cache per test
    )


def test_an_unchanged_document_is_served_from_the_cache(
    server: FakeChat, cached_env: dict[str, str]
) -> None:
    (first,) = call(cached_env)
    asked = len(server.requests)
    assert asked == len(children(first))
    (again,) = call(cached_env)
    assert len(server.requests) == asked  # no call the second time
    assert [c["embedText"] for c in children(again)] == [c["embedText"] for c in children(first)]


def test_a_changed_document_is_asked_again(server: FakeChat, cached_env: dict[str, str]) -> None:
    call(cached_env)
    asked = len(server.requests)
    changed = DOC.replace("operator", "owner")
    (record,) = call(cached_env, changed)
    assert len(server.requests) == asked + len(children(record))
    asked_about = {seen.body["messages"][1]["content"] for seen in server.requests[asked:]}
    assert all("owner" in content for content in asked_about)  # the new text, not the old


def test_notes_are_blobs_named_by_their_key(cached_env: dict[str, str]) -> None:
    (record,) = call(cached_env)
    cache = note_cache(SkillSettings.from_env(cached_env).note_store)
    assert cache is not None
    names = [blob.name for blob in cache._container.list_blobs()]
    assert len(names) == len(children(record)) and all(len(name) == 64 for name in names)


def test_an_unreachable_cache_costs_calls_not_records(server: FakeChat) -> None:
    server.reset()
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    settings = env(
        server,
        CONTEXT_CACHE_CONNECTION_STRING=azurite_connection_string(dead),
        CONTEXT_CACHE_CONTAINER="unreachable",
    )
    (record,) = call(settings)
    assert record["errors"] is None and warnings(record) == ""
    assert all(child["context"] for child in children(record))
