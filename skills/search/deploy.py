"""Create or update one mode's objects on the service, in dependency order, showing what changes.

Order matters: a skillset's projections need their indexes, an indexer needs its data source,
skillset and index. Each object is compared with what the service has first, so a second deploy
of unchanged definitions changes nothing (the diff is empty and no PUT is sent).

What the service returns is not what was sent: it adds defaults (``"inputs": []``,
``"analyzer": null``...), ``@odata.etag``, and blanks secrets. The diff therefore compares only
the properties our definition sets, and ignores the secret values the service hides (``null``),
with one exception: a secret the service holds and our definition drops (a function key, when
the deploy runs without ``SKILL_FUNCTION_KEY``) stays in the diff, so dropping it is never silent.

Three rules make a deploy safe to run from any shell:

- nothing is sent unless every Web API skill authenticates (a function key header or an
  ``authResourceId``): without it every skill call is refused with 401, and with
  ``maxFailedItems: -1`` the indexer run still looks successful;
- a change that files indexed before would not see (a skillset, an index, the data source, the
  indexer's parsing or mappings) is reported as needing an indexer reset, because blob change
  detection goes by timestamp: unchanged files keep their old chunks. ``reset=True`` resets
  and runs the indexer;
- nothing is sent when an index update would change an existing field's analyzer, which the
  service refuses ("Existing field ... cannot be changed"): the index must be deleted and deployed
  again, its documents re-indexed (:func:`analyzer_changes`).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from skills.search.echo import same_meaning
from skills.search.pending import ResetLedger
from skills.search.templates import Definition, DefinitionSet, Kind

SECRET_KEYS = frozenset({"httpHeaders", "apiKey", "connectionString"})
REDACTED = "<redacted>"
WEB_API_SKILL = "#Microsoft.Skills.Custom.WebApiSkill"
#: indexer properties whose change alters what an indexed file becomes (the rest: schedule, batch
#: sizes, failure limits, description, only change how the indexer runs)
REPROCESSING_INDEXER_KEYS = ("dataSourceName", "skillsetName", "targetIndexName", "fieldMappings",
                             "outputFieldMappings", "parameters.configuration")  # fmt: skip


class DeployError(RuntimeError):
    """The definitions must not be sent as they are; the message says what to set."""


@dataclass(frozen=True)
class Change:
    """What a deploy did (or would do) with one object."""

    kind: Kind
    name: str
    action: str  # "create" | "update" | "unchanged"
    diff: str
    #: what the diff cannot show (secret values the service hides)
    notes: tuple[str, ...] = ()
    #: the properties that differ (see :func:`changed_keys`)
    changed: tuple[str, ...] = ()


class Reader(Protocol):
    """Where definitions are read from: the service (:class:`Service`) or a fake in tests."""

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None: ...


class Store(Reader, Protocol):
    """Where definitions are written to, and the indexer reset and run."""

    def put(self, kind: Kind, body: dict[str, Any]) -> None: ...

    def reset_indexer(self, name: str) -> None: ...

    def run_indexer(self, name: str) -> None: ...


class Service:
    """Get and put each kind of object through the SDK 12 clients (plain dicts go in)."""

    def __init__(self, endpoint: str, credential: Any) -> None:
        from azure.search.documents.indexes import SearchIndexClient, SearchIndexerClient

        self.endpoint, self.credential = endpoint, credential
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

    def reset_indexer(self, name: str) -> None:
        self.indexers.reset_indexer(name)

    def run_indexer(self, name: str) -> None:
        self.indexers.run_indexer(name)

    def indexer_status(self, name: str) -> dict[str, Any] | None:
        """The REST shape of Get Indexer Status (``lastResult``, ``limits``); None if absent."""
        from azure.core.exceptions import ResourceNotFoundError

        try:
            return dict(self.indexers.get_indexer_status(name).as_dict())
        except ResourceNotFoundError:
            return None

    def document_count(self, index: str) -> int | None:
        from azure.core.exceptions import ResourceNotFoundError
        from azure.search.documents import SearchClient

        client = SearchClient(self.endpoint, index, self.credential)
        try:
            return int(client.get_document_count())
        except ResourceNotFoundError:
            return None


def comparable(current: Any, desired: Any, secret: bool = False) -> Any:
    """``current`` cut down to the shape of ``desired``, to diff against it.

    Inside a secret (:data:`SECRET_KEYS`) a null is a value the service hides, and takes ours.
    Elsewhere a null is what the service holds (an unset ``authResourceId``) and stays; a
    property the service does not return at all cannot be compared, and takes ours. A secret the
    service holds and ``desired`` lacks is kept, so that the diff shows it going.

    >>> comparable({"a": 1, "apiKey": None, "extra": 3}, {"a": 2, "apiKey": "secret"})
    {'a': 1, 'apiKey': 'secret'}
    >>> comparable({"authResourceId": None}, {"authResourceId": "api://x"})
    {'authResourceId': None}
    >>> comparable({"a": 1, "httpHeaders": {"x-functions-key": None}}, {"a": 1})
    {'a': 1, 'httpHeaders': {'x-functions-key': None}}

    A value that means ours in the service's own spelling (:func:`skills.search.echo.same_meaning`:
    a duration, an enum's casing, null for empty) takes ours, so that it is no change:

    >>> comparable({"timeout": "PT3M50S", "fieldMappings": None},
    ...            {"timeout": "PT230S", "fieldMappings": []})
    {'timeout': 'PT230S', 'fieldMappings': []}
    """
    if same_meaning(current, desired):
        return desired
    if isinstance(desired, dict) and isinstance(current, dict):
        kept = {
            key: _comparable_value(current, key, value, secret) for key, value in desired.items()
        }
        dropped = {
            key: value
            for key, value in current.items()
            if key in SECRET_KEYS and key not in desired and value
        }
        return {**kept, **dropped}
    if isinstance(desired, list) and isinstance(current, list) and len(desired) == len(current):
        return [comparable(c, d, secret) for c, d in zip(current, desired, strict=True)]
    return current


def _comparable_value(current: dict[str, Any], key: str, ours: Any, secret: bool) -> Any:
    hidden = secret or key in SECRET_KEYS
    if key not in current or (hidden and current[key] is None):
        return ours
    return comparable(current[key], ours, hidden)


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


def hidden_secrets(current: Any, desired: Any, path: str = "") -> list[str]:
    """Paths of secrets ``desired`` sets whose service value is hidden (null), so not compared.

    >>> hidden_secrets({"skills": [{"httpHeaders": None}]}, {"skills": [{"httpHeaders": {"k": 1}}]})
    ['skills[0].httpHeaders']
    """
    if isinstance(desired, dict) and isinstance(current, dict):
        found = []
        for key, value in desired.items():
            where = f"{path}.{key}".lstrip(".")
            if key in SECRET_KEYS and value and not _visible(current.get(key)):
                found.append(where)
            elif key in current:
                found += hidden_secrets(current[key], value, where)
        return found
    if isinstance(desired, list) and isinstance(current, list):
        return [
            found
            for index, (c, d) in enumerate(zip(current, desired, strict=False))
            for found in hidden_secrets(c, d, f"{path}[{index}]")
        ]
    return []


def _visible(value: Any) -> bool:
    """A value the service shows (not null, and not a map of nulls)."""
    if isinstance(value, dict):
        return any(v is not None for v in value.values())
    return value is not None


def unauthenticated_skills(definitions: DefinitionSet) -> list[str]:
    """Names of Web API skills that would call the function without a key or a token."""
    return [
        skill["name"]
        for skill in definitions.skillset.get("skills", [])
        if skill.get("@odata.type") == WEB_API_SKILL
        and not skill.get("authResourceId")
        and not any(skill.get("httpHeaders", {}).values())
        and "code=" not in str(skill.get("uri", ""))
    ]


def plan(service: Reader, definitions: DefinitionSet) -> list[tuple[Definition, Change]]:
    """What deploying would do, object by object, in dependency order."""
    planned = []
    for item in definitions.items:
        current = service.get(item.kind, item.name)
        text = diff(current, item.body)
        action = "create" if current is None else ("update" if text else "unchanged")
        hidden = hidden_secrets(current, item.body) if current is not None else []
        notes = tuple(f"{path}: the service hides its value, not compared" for path in hidden)
        changed = changed_keys(current, item.body) if text else ()
        planned.append((item, Change(item.kind, item.name, action, text, notes, changed)))
    return planned


def analyzer_changes(service: Reader, definitions: DefinitionSet) -> list[str]:
    """Fields of indexes already on the service whose analyzer the definitions change (a field
    without one has Azure's default, ``standard.lucene``), as ``index.field: old -> new``."""
    found = []
    for item in definitions.items:
        if item.kind != "index":
            continue
        current = service.get("index", item.name)
        fields = {field["name"]: field for field in (current or {}).get("fields", [])}
        for field in item.body["fields"]:
            if field["name"] not in fields:
                continue
            for key in ("analyzer", "searchAnalyzer", "indexAnalyzer"):
                before, after = fields[field["name"]].get(key), field.get(key)
                if key == "analyzer":
                    before, after = before or "standard.lucene", after or "standard.lucene"
                if field.get("searchable", True) and before != after:
                    found.append(f"{item.name}.{field['name']}: {key} {before} -> {after}")
    return found


def deploy(
    service: Store,
    definitions: DefinitionSet,
    *,
    reset: bool = False,
    resend_secrets: bool = False,
    ledger: ResetLedger | None = None,
    ledger_name: str = "",
    say: Callable[[str], None] = lambda line: None,
) -> list[Change]:
    """Create or update every object that differs; idempotent (a re-run is all ``unchanged``).

    Raises :class:`DeployError` before sending anything when a Web API skill has no auth.
    ``resend_secrets`` also sends the objects whose hidden secrets could not be compared (a
    rotated function key); ``reset`` resets and runs the indexer when :func:`reset_reasons`
    says the change needs it, or when ``ledger`` still holds a reset an earlier deploy needed
    (written before any change is sent, cleared once the service accepted the reset; see
    :mod:`skills.search.pending`; ``ledger_name`` is the ledger's key for this service).
    """
    unsigned = unauthenticated_skills(definitions)
    if unsigned:
        raise DeployError(
            f"skill {', '.join(unsigned)} would call the function without auth (every call "
            "refused with 401): set SKILL_FUNCTION_KEY (functionKey mode) or "
            "SKILL_AUTH_RESOURCE_ID (entra mode); nothing was sent"
        )
    planned = []
    refused = analyzer_changes(service, definitions)
    if refused:
        raise DeployError(
            f"{'; '.join(refused)}: the service cannot change an existing field's analyzer. "
            "Delete the index (its documents go with it), deploy again, then run the indexer "
            "with --reset; nothing was sent"
        )
    for item, change in plan(service, definitions):
        if change.action == "unchanged" and resend_secrets and change.notes:
            change = replace(change, action="update")
        planned.append((item, change))
    changes = [change for _, change in planned]
    reasons = reset_reasons(changes, definitions)
    if ledger is not None and reasons:
        ledger.record(ledger_name, reasons)  # before anything is sent: a reset is never lost
    for item, change in planned:
        if change.action != "unchanged":
            service.put(item.kind, item.body)
    owed = ledger.reasons(ledger_name) if ledger is not None else reasons
    if reset and owed:
        name = definitions.indexer["name"]
        service.reset_indexer(name)
        if ledger is not None:
            ledger.clear(ledger_name)
        say(f"indexer {name} reset ({'; '.join(owed)}): {_run_after_reset(service, name)}")
    return changes


def _run_after_reset(service: Store, name: str) -> str:
    """Start the reset indexer; a run already in progress (409) is no failure: the service keeps
    the reset ("resets the change tracking state", Reset Indexer, REST 2025-09-01), so the next
    run, the scheduled one at the latest, indexes every file again."""
    try:
        service.run_indexer(name)
    except Exception as error:
        if getattr(error, "status_code", None) != 409:
            raise
        return "a run is already in progress (409); the next run indexes every file again"
    return "started; every file is indexed again"


def reset_reasons(changes: list[Change], definitions: DefinitionSet) -> list[str]:
    """Why files indexed before would keep stale chunks after ``changes``; empty: no reset.

    A first deploy needs none (a new indexer runs over every file). Otherwise any update of the
    data source, an index or the skillset, a new index, or an indexer change in
    :data:`REPROCESSING_INDEXER_KEYS` does.
    """
    indexer = next(c for c in changes if c.kind == "indexer")
    if indexer.action == "create":
        return []
    reasons = [
        f"{change.kind} {change.name} {'created' if change.action == 'create' else 'changed'}"
        for change in changes
        if change.kind != "indexer" and change.action != "unchanged"
    ]
    reprocessing = [key for key in indexer.changed if key in REPROCESSING_INDEXER_KEYS]
    if reprocessing:
        reasons.append(f"indexer {indexer.name} changed {', '.join(reprocessing)}")
    return reasons


def changed_keys(current: dict[str, Any] | None, desired: dict[str, Any]) -> tuple[str, ...]:
    """The top-level properties (and ``parameters.*``) whose values differ, as :func:`diff` sees.

    >>> changed_keys({"a": 1, "parameters": {"b": 1, "c": 2}}, {"a": 1, "parameters": {"c": 3}})
    ('parameters.c',)
    """
    if current is None:
        return tuple(desired)
    seen = comparable(current, desired)
    found: list[str] = []
    for key in sorted(set(seen) | set(desired)):
        before, after = seen.get(key), desired.get(key)
        if before == after:
            continue
        if key == "parameters" and isinstance(before, dict) and isinstance(after, dict):
            found += [f"parameters.{k}" for k in sorted(set(before) | set(after))
                      if before.get(k) != after.get(k)]  # fmt: skip
        else:
            found.append(key)
    return tuple(found)
