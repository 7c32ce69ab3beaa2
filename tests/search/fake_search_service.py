"""A stand-in for a live deployment: a real HTTP server on loopback speaking the REST shapes.

It answers what the real SDK clients send (paths and JSON of REST 2026-04-01, read from the
requests ``azure-search-documents`` 12.0.0 makes), so the deploy and the doctor run their real
code against it:

- Search: ``GET``/``PUT /datasources('n')``, ``/indexes('n')``, ``/skillsets('n')``,
  ``/indexers('n')``; ``GET /indexers('n')/search.status``; ``POST .../search.reset`` and
  ``.../search.run``; ``GET /indexes('n')/docs/$count``; an ``api-key`` header is required.
- Azure Resource Manager: ``GET <storage account id>/blobServices/default`` (a bearer token is
  required).
- The Function App: ``POST /api/chunk`` runs the skill's own handler when the
  ``x-functions-key`` header holds the key, and answers 401 otherwise, as the Functions host does.

What GET returns is not what was PUT, as on the service (team notes, azure-ai-search.md §6.3):
:func:`echo` adds ``@odata`` fields, returns unset properties as null and hides secrets.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from skills.search.echo import duration, enum_values
from skills.skill import SkillSettings, handle_chunk_request

COLLECTIONS = {
    "datasources": "dataSource",
    "indexes": "index",
    "skillsets": "skillset",
    "indexers": "indexer",
}
OBJECT = re.compile(r"^/(?P<collection>\w+)\('(?P<name>[^']+)'\)(?P<rest>/[^?]*)?$")
NEVER_RAN: dict[str, Any] = {
    "status": "running",
    "lastResult": None,
    "executionHistory": [],
    "limits": {},
}


def echo(
    kind: str, body: dict[str, Any], header_names: bool = False, respell: bool = False
) -> dict[str, Any]:
    """``body`` the way GET returns it: an etag, unset properties null, secrets blanked, and
    durations in the service's own form (a public GET shows ``PT3M50S`` for a skill timeout
    sent as ``PT230S``).

    ``header_names`` chooses how hidden headers come back (names with null values, or a null
    ``httpHeaders``); the docs say only that secrets come back null. ``respell`` also writes
    enum values in another casing and empty lists as null, which the service may do.
    """
    echoed: dict[str, Any] = _respelled(copy.deepcopy(body), respell)
    echoed["@odata.etag"] = '"0x8DC"'
    echoed["encryptionKey"] = None
    if kind == "skillset":
        for skill in echoed["skills"]:
            skill.setdefault("httpHeaders", None)
            skill.setdefault("authResourceId", None)
            if skill.get("httpHeaders"):
                skill["httpHeaders"] = dict.fromkeys(skill["httpHeaders"]) if header_names else None
    if kind == "index":
        for item in echoed["fields"]:
            item.setdefault("synonymMaps", [])
    return echoed


def _respelled(value: Any, enums: bool) -> Any:
    """Durations as hours, minutes and seconds; with ``enums``, enum values capitalised and
    empty lists null."""
    if isinstance(value, dict):
        return {key: _respelled(item, enums) for key, item in value.items()}
    if isinstance(value, list):
        return None if enums and not value else [_respelled(item, enums) for item in value]
    if isinstance(value, str) and (length := duration(value)) is not None:
        return _service_duration(length)
    if enums and isinstance(value, str) and value.lower() in enum_values():
        return value[:1].upper() + value[1:]
    return value


def _service_duration(length: timedelta) -> str:
    """``PT3M50S`` for 230 seconds, ``PT1H`` for an hour, ``P1D`` for a day."""
    days, seconds = length.days, length.seconds
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((hours, "H"), (minutes, "M"), (seconds, "S")) if n]
    time = "".join(parts)
    return "P" + (f"{days}D" if days else "") + (f"T{time}" if time else ("" if days else "T0S"))


@dataclass
class FakeDeployment:
    """What the fake holds; tests set ``statuses``, ``counts`` and ``blob_service`` directly."""

    api_key: str = "search-admin-key"
    #: None: the function is anonymous (a misconfigured auth level)
    function_key: str | None = "function-key"
    objects: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    statuses: dict[str, dict[str, Any]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    blob_service: dict[str, Any] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    url: str = ""
    #: this many Search and Resource Manager requests are refused with 403 first, as while new
    #: role assignments apply
    forbidden: int = 0

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[
        int, dict[str, Any] | int | None
    ]:  # fmt: skip
        """(status, JSON answer) for one request; ``headers`` have lower-case names."""
        self.requests.append((method, path))
        route = path.split("?", 1)[0]
        if route == "/api/chunk":
            return self._skill(headers, body)
        if self.forbidden > 0:
            self.forbidden -= 1
            return 403, _error("Forbidden", "the caller has no role on this resource (yet)")
        if route.startswith("/subscriptions/"):
            return self._arm(headers, route)
        if headers.get("api-key") != self.api_key:
            return 401, _error("Unauthorized", "a valid api-key is required")
        match = OBJECT.match(route)
        if match is None or match["collection"] not in COLLECTIONS:
            return 404, _error("NotFound", route)
        kind, name, rest = COLLECTIONS[match["collection"]], match["name"], match["rest"] or ""
        return self._object(method, kind, name, rest, body)

    def _object(
        self, method: str, kind: str, name: str, rest: str, body: bytes
    ) -> tuple[int, dict[str, Any] | int | None]:
        if method == "PUT" and not rest:
            created = (kind, name) not in self.objects
            self.objects[(kind, name)] = json.loads(body)
            return (201 if created else 200), echo(kind, self.objects[(kind, name)])
        if (kind, name) not in self.objects:
            return 404, _error("ResourceNameNotFound", f"No {kind} with the name '{name}'")
        if method == "GET" and not rest:
            return 200, echo(kind, self.objects[(kind, name)])
        if method == "GET" and rest == "/search.status":
            return 200, {"name": name, **self.statuses.get(name, NEVER_RAN)}
        if method == "POST" and rest in ("/search.reset", "/search.run"):
            return (204 if rest == "/search.reset" else 202), None
        if method == "GET" and rest == "/docs/$count":
            return 200, self.counts.get(name, 0)
        return 405, _error("MethodNotAllowed", f"{method} {rest}")

    def _arm(self, headers: dict[str, str], route: str) -> tuple[int, dict[str, Any] | None]:
        if not headers.get("authorization", "").startswith("Bearer "):
            return 401, _error("AuthenticationFailed", "a bearer token is required")
        if not route.endswith("/blobServices/default"):
            return 404, _error("ResourceNotFound", route)
        resource = {"id": route, "name": "default", "properties": self.blob_service}
        return 200, {**resource, "type": "Microsoft.Storage/storageAccounts/blobServices"}

    def _skill(self, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, Any] | None]:
        if self.function_key is not None and headers.get("x-functions-key") != self.function_key:
            return 401, None
        reply = handle_chunk_request(body, {}, SkillSettings())
        return reply.status, json.loads(reply.body)


def _error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


@contextmanager
def running(deployment: FakeDeployment | None = None) -> Iterator[FakeDeployment]:
    """Serve ``deployment`` on a free loopback port for the duration of the block."""
    fake = deployment or FakeDeployment()

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {name.lower(): value for name, value in self.headers.items()}
            status, answer = fake.handle(self.command, self.path, headers, body)
            payload = b"" if answer is None else json.dumps(answer).encode()
            self.send_response(status)
            if payload:
                self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_PUT = do_POST = _serve

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
