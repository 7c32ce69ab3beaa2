"""Uploading the samples changes only what differs, and refuses names too long for the keys.

Runs against Azurite (the real Storage SDK and emulator); skipped when it is not listening.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from search_fixtures import AZURITE_PORT, SAMPLES, azurite_listening

from skills.search.local_run import azurite_connection_string, container_client
from skills.search.upload import sync

PORT = AZURITE_PORT
CONTEXTS = ["/document/parents/*/children/*"]
pytestmark = pytest.mark.skipif(
    not azurite_listening(PORT, 1.0), reason=f"Azurite blob service not listening on {PORT}"
)


@pytest.fixture
def container() -> Iterator[Any]:
    client = container_client(azurite_connection_string(PORT), f"up-{uuid.uuid4().hex[:8]}")
    yield client
    client.delete_container()


def test_a_second_upload_of_the_same_files_changes_nothing(container: Any) -> None:
    first = sync(container, SAMPLES, "docs/", CONTEXTS)
    assert {u.action for u in first} == {"uploaded"} and len(first) == len(SAMPLES)
    stamps = {b.name: b.last_modified for b in container.list_blobs()}
    second = sync(container, SAMPLES, "docs/", CONTEXTS)
    assert {u.action for u in second} == {"unchanged"}
    assert {b.name: b.last_modified for b in container.list_blobs()} == stamps


def test_a_changed_file_is_uploaded_again(container: Any, tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nfirst", encoding="utf-8")
    assert [u.action for u in sync(container, [note], "", CONTEXTS)] == ["uploaded"]
    note.write_text("# Note\n\nsecond", encoding="utf-8")
    assert [u.action for u in sync(container, [note], "", CONTEXTS)] == ["uploaded"]
    assert container.download_blob("note.md").readall().endswith(b"second")


def test_a_name_that_makes_keys_too_long_is_refused(container: Any, tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Note", encoding="utf-8")
    (refused,) = sync(container, [note], "deep/" * 150, CONTEXTS)
    assert refused.action == "refused" and "at most 1024" in refused.reason
    assert list(container.list_blobs()) == []
