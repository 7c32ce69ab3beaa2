"""Context notes kept in the function's own Blob storage, so re-indexing an unchanged document
costs no model call.

A note's key hashes everything that decides it: the document's text, the child's span, the model
(deployment) and the prompt version. A document that changed gets new keys, so its old notes are
never reused (they are left for a lifecycle rule to delete); one that did not change finds every
note it had. One blob per note, named by its key, in one container.

Identity-based in Azure: a :class:`NoteStore` names the account, and the process's
``DefaultAzureCredential`` signs in (the function's identity has Storage Blob Data Owner on that
account); a connection string (Azurite's, for local runs and tests) takes precedence where keys
are allowed. Which app settings fill it is :mod:`skills.skill.settings`'. A cache that fails
(network, role) is skipped with a count, never an error.

>>> old, new = document_hash("Install it."), document_hash("Install it!")
>>> note_key(old, 0, 4, "gpt-4o-mini", "v1") == note_key(new, 0, 4, "gpt-4o-mini", "v1")
False
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from dataclasses import dataclass
from typing import Any, Protocol

DEFAULT_CONTAINER = "context-notes"


@dataclass(frozen=True, slots=True)
class NoteStore:
    """Where the notes are kept: one container of a storage account, reached by its connection
    string when one is given, else by its blob service URL and the process's identity."""

    connection_string: str = ""
    account_url: str = ""
    container: str = DEFAULT_CONTAINER


class NoteCache(Protocol):
    """Notes by key; ``get`` gives None for a miss. Both may raise: callers count, not fail."""

    def get(self, key: str) -> str | None: ...

    def put(self, key: str, note: str) -> None: ...


def document_hash(text: str) -> str:
    """Hashed once per record: every child's key starts from it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def note_key(document: str, start: int, end: int, model: str, prompt_version: str) -> str:
    """``sha256(document hash, span, model, prompt version)``, hex."""
    return hashlib.sha256(
        f"{prompt_version}\x00{model}\x00{document}\x00{start}\x00{end}".encode()
    ).hexdigest()


class BlobNoteCache:
    """One blob per note in one container (created on first use)."""

    def __init__(self, container: Any) -> None:
        self._container = container
        self._ready = False
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        from azure.core.exceptions import ResourceNotFoundError

        try:
            data: bytes = self._container.download_blob(key).readall()
        except ResourceNotFoundError:
            return None
        return data.decode("utf-8")

    def put(self, key: str, note: str) -> None:
        self._ensure_container()
        self._container.upload_blob(
            key, note.encode("utf-8"), overwrite=True, metadata={"kind": "context-note"}
        )

    def _ensure_container(self) -> None:
        from azure.core.exceptions import ResourceExistsError

        with self._lock:
            if self._ready:
                return
            with contextlib.suppress(ResourceExistsError):  # made by another instance
                self._container.create_container()
            self._ready = True


_lock = threading.Lock()
_caches: dict[NoteStore, BlobNoteCache] = {}


def note_cache(store: NoteStore | None) -> BlobNoteCache | None:
    """The process's cache for ``store``, or None when no storage is configured."""
    if store is None:
        return None
    with _lock:
        if store not in _caches:
            _caches[store] = BlobNoteCache(_container_client(store))
        return _caches[store]


#: A cache is worth a few seconds at most: the storage SDK's retries start with a 15 s back-off
#: (measured: 17.8 s for one read of an unreachable account with a single retry), which would
#: spend the time budget on it. A failed read is a model call; the record stops using the cache.
CLIENT_OPTIONS: dict[str, Any] = {"retry_total": 0, "connection_timeout": 3, "read_timeout": 5}


def _container_client(store: NoteStore) -> Any:
    from azure.storage.blob import ContainerClient

    if store.connection_string:
        return ContainerClient.from_connection_string(
            store.connection_string, store.container, **CLIENT_OPTIONS
        )
    from skills.llm.chat import azure_credential

    return ContainerClient(
        store.account_url, store.container, credential=azure_credential(), **CLIENT_OPTIONS
    )
