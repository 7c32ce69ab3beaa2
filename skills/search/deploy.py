"""Create or update one mode's objects on the service, in dependency order, showing what changes.

Order matters: a skillset's projections need their indexes, an indexer needs its data source,
skillset and index. Each object is compared with what the service has first, so a second deploy
of unchanged definitions changes nothing (the diff is empty and no PUT is sent).

What the service returns is not what was sent: it adds defaults (``"inputs": []``,
``"analyzer": null``...), ``@odata.etag``, and blanks secrets. The diff therefore compares only
the properties our definition sets, and ignores values the service hides (``null``).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from skills.search.templates import Definition, DefinitionSet, Kind

SECRET_KEYS = frozenset({"httpHeaders", "apiKey", "connectionString"})
REDACTED = "<redacted>"


@dataclass(frozen=True)
class Change:
    """What a deploy did (or would do) with one object."""

    kind: Kind
    name: str
    action: str  # "create" | "update" | "unchanged"
    diff: str


class Store(Protocol):
    """Where definitions live: the service (:class:`Service`) or a fake in tests."""

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None: ...

    def put(self, kind: Kind, body: dict[str, Any]) -> None: ...


class Service:
    """Get and put each kind of object through the SDK 12 clients (plain dicts go in)."""

    def __init__(self, endpoint: str, credential: Any) -> None:
        from azure.search.documents.indexes import SearchIndexClient, SearchIndexerClient

        self.indexes = SearchIndexClient(endpoint, credential)
        self.indexers = SearchIndexerClient(endpoint, credential)

    def _calls(self, kind: Kind) -> tuple[Callable[[str], Any], Callable[[dict[str, Any]], Any]]:
        calls: dict[str, tuple[Any, Any]] = {
            "dataSource": (
                self.indexers.get_data_source_connection,
                self.indexers.create_or_update_data_source_connection,
            ),
            "index": (self.indexes.get_index, self.indexes.create_or_update_index),
            "skillset": (self.indexers.get_skillset, self.indexers.create_or_update_skillset),
            "indexer": (self.indexers.get_indexer, self.indexers.create_or_update_indexer),
        }
        return calls[kind]

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None:
        from azure.core.exceptions import ResourceNotFoundError

        try:
            found = self._calls(kind)[0](name)
        except ResourceNotFoundError:
            return None
        return dict(found.as_dict())

    def put(self, kind: Kind, body: dict[str, Any]) -> None:
        self._calls(kind)[1](body)


def comparable(current: Any, desired: Any) -> Any:
    """``current`` cut down to the shape of ``desired``; hidden (null) service values take ours.

    >>> comparable({"a": 1, "b": None, "extra": 3}, {"a": 2, "b": "secret"})
    {'a': 1, 'b': 'secret'}
    """
    if isinstance(desired, dict) and isinstance(current, dict):
        return {
            key: value if current.get(key) is None else comparable(current[key], value)
            for key, value in desired.items()
        }
    if isinstance(desired, list) and isinstance(current, list) and len(desired) == len(current):
        return [comparable(c, d) for c, d in zip(current, desired, strict=True)]
    return current


def diff(current: dict[str, Any] | None, desired: dict[str, Any]) -> str:
    """A unified diff of the service's object (as comparable) and ours; empty when equal."""
    before = [] if current is None else _lines(comparable(current, desired))
    lines = difflib.unified_diff(before, _lines(desired), "service", "definition", lineterm="")
    return "\n".join(lines)


def _lines(body: Any) -> list[str]:
    return json.dumps(redact(body), indent=2, sort_keys=True).splitlines()


def redact(body: Any) -> Any:
    """The body with secret values replaced, for printing (keys stay visible)."""
    if isinstance(body, dict):
        return {
            key: _redact_secret(value) if key in SECRET_KEYS else redact(value)
            for key, value in body.items()
        }
    if isinstance(body, list):
        return [redact(item) for item in body]
    return body


def _redact_secret(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: REDACTED for key in value}
    if isinstance(value, str) and value.startswith("ResourceId="):
        return value  # a resource id, not a secret
    return REDACTED if value else value


def plan(service: Store, definitions: DefinitionSet) -> list[tuple[Definition, Change]]:
    """What deploying would do, object by object, in dependency order."""
    planned = []
    for item in definitions.items:
        current = service.get(item.kind, item.name)
        text = diff(current, item.body)
        action = "create" if current is None else ("update" if text else "unchanged")
        planned.append((item, Change(item.kind, item.name, action, text)))
    return planned


def deploy(service: Store, definitions: DefinitionSet) -> list[Change]:
    """Create or update every object that differs; idempotent (a re-run is all ``unchanged``)."""
    changes = []
    for item, change in plan(service, definitions):
        if change.action != "unchanged":
            service.put(item.kind, item.body)
        changes.append(change)
    return changes
