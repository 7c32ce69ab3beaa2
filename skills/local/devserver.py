"""Development server: the functions registered in ``function_app.py``, served by uvicorn.

No handler is copied: the routes are read from ``app.get_functions()`` (the same list the Functions
worker indexes), each request becomes a ``func.HttpRequest`` and goes to the registered user
function on a worker thread, as the host's thread pool would run it. Like ``func start``, it checks
no function keys and no App Service Authentication; like the host, it refuses bodies above 100 MB.
Unlike the host, it tells the function when the client hangs up (:mod:`skills.skill.hangup`).

>>> with running() as base_url:  # doctest: +SKIP
...     httpx.post(f"{base_url}/api/chunk", json={"values": []}).json()
{'values': []}
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import azure.functions as func

from skills.skill import watching

#: The project root, where ``function_app.py`` and ``host.json`` live.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
#: The Functions host's default request body limit.
HOST_MAX_BODY_BYTES = 100 * 1024 * 1024
#: How long a stopped server waits for the requests under way: then it answers no more and exits,
#: abandoning what still runs (nobody waits for it; the indexer retries a batch it lost).
SHUTDOWN_SECONDS = 10

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

logger = logging.getLogger("skills.local.devserver")
_functions_cache: dict[int, list[Any]] = {}
_cache_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class Route:
    """One HTTP-triggered function: where it answers and what it calls."""

    name: str
    path: str
    methods: frozenset[str]
    auth_level: str
    handler: Callable[[func.HttpRequest], Any]


def load_app(root: Path = PROJECT_ROOT) -> func.FunctionApp:
    """The ``app`` object of ``function_app.py``, imported as the worker imports it."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    module = importlib.import_module("function_app")
    app: func.FunctionApp = module.app
    return app


def registered_functions(app: func.FunctionApp) -> list[Any]:
    """``app.get_functions()``, once per app: a second call raises in azure-functions."""
    with _cache_lock:
        if id(app) not in _functions_cache:
            _functions_cache[id(app)] = list(app.get_functions())
        return _functions_cache[id(app)]


def route_prefix(root: Path = PROJECT_ROOT) -> str:
    """``extensions.http.routePrefix`` from host.json (``api`` when absent)."""
    try:
        host = json.loads((root / "host.json").read_text(encoding="utf-8"))
        prefix = host.get("extensions", {}).get("http", {}).get("routePrefix", "api")
    except (OSError, ValueError, AttributeError):
        prefix = "api"
    return str(prefix).strip("/")


def routes(app: func.FunctionApp, prefix: str) -> dict[str, Route]:
    """Path -> route for every HTTP-triggered function of ``app``."""
    out: dict[str, Route] = {}
    for function in registered_functions(app):
        trigger = function.get_trigger()
        if getattr(trigger, "type", None) != "httpTrigger":
            continue
        route = str(trigger.route or function.get_function_name()).strip("/")
        path = "/" + "/".join(part for part in (prefix, route) if part)
        methods = frozenset(str(getattr(m, "value", m)).upper() for m in trigger.methods or [])
        out[path] = Route(
            name=function.get_function_name(),
            path=path,
            methods=methods or frozenset({"GET", "POST"}),
            auth_level=str(getattr(trigger.auth_level, "value", trigger.auth_level)),
            handler=function.get_user_function(),
        )
    return out


class FunctionsAsgiApp:
    """A minimal ASGI app that routes to registered functions (literal routes only)."""

    def __init__(self, table: dict[str, Route], max_body_bytes: int = HOST_MAX_BODY_BYTES) -> None:
        self.table = table
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        route = self.table.get(scope["path"].rstrip("/") or "/")
        if route is None:
            await _send(send, 404, _json_error(f"no function answers {scope['path']}"))
            return
        if scope["method"] not in route.methods:
            await _send(send, 405, _json_error(f"{route.name} accepts {sorted(route.methods)}"))
            return
        body, too_large = await _read_body(receive, self.max_body_bytes)
        if too_large:
            message = f"request body above the host's limit of {self.max_body_bytes} bytes"
            await _send(send, 413, _json_error(message))
            return
        gone = threading.Event()
        watcher = asyncio.create_task(_watch_disconnect(receive, gone))
        try:
            with watching(gone):
                response = await asyncio.to_thread(route.handler, _request(scope, body))
        except Exception:  # the host answers 500 when a function raises; so do we
            logger.exception("function %s raised", route.name)
            await _send(send, 500, _json_error(f"function {route.name} raised; see the log"))
            return
        finally:
            watcher.cancel()
        if not gone.is_set():
            await _send_response(send, response)


def asgi_app(root: Path = PROJECT_ROOT) -> FunctionsAsgiApp:
    """The dev server's ASGI app for the project's ``function_app.py``."""
    return FunctionsAsgiApp(routes(load_app(root), route_prefix(root)))


def serve(
    host: str,
    port: int,
    log_level: str = "info",
    app: FunctionsAsgiApp | None = None,
    shutdown_seconds: int = SHUTDOWN_SECONDS,
) -> None:
    """Serve until interrupted (``python -m skills serve``), then stop within ``shutdown_seconds``
    of SIGTERM or Ctrl-C: uvicorn waits that long for the requests under way, cancels them and
    raises the signal again. Python's own Ctrl-C handler would turn that into KeyboardInterrupt,
    and the event loop would then wait for the worker thread of a conversion still running (a
    hostile page held a server for minutes that way); with the default action the process ends."""
    import uvicorn

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    uvicorn.run(
        app or asgi_app(), host=host, port=port, log_level=log_level, lifespan="on",
        timeout_graceful_shutdown=shutdown_seconds,
    )  # fmt: skip


@contextmanager
def running(host: str = "127.0.0.1", port: int = 0, log_level: str = "warning") -> Iterator[str]:
    """Serve on a background thread; yields the base URL (``port=0``: a free port)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    server = uvicorn.Server(uvicorn.Config(asgi_app(), log_level=log_level, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the development server did not start")
            threading.Event().wait(0.02)
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _request(scope: Scope, body: bytes) -> func.HttpRequest:
    query = scope.get("query_string", b"").decode("latin-1")
    headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]}
    host = headers.get("host", "127.0.0.1")
    url = f"http://{host}{scope['path']}" + (f"?{query}" if query else "")
    return func.HttpRequest(
        method=scope["method"],
        url=url,
        headers=headers,
        params=dict(parse_qsl(query, keep_blank_values=True)),
        route_params={},
        body=body,
    )


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The whole body, or (b"", True) once it passes ``limit`` (the rest is read and dropped)."""
    chunks: list[bytes] = []
    size = 0
    more = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        part = message.get("body", b"")
        size += len(part)
        if size <= limit:
            chunks.append(part)
        else:
            chunks.clear()
        more = bool(message.get("more_body", False))
    return (b"", True) if size > limit else (b"".join(chunks), False)


async def _watch_disconnect(receive: Receive, gone: threading.Event) -> None:
    """Once the body is read, ``receive`` returns only when the client hangs up."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone.set()


async def _send_response(send: Send, response: func.HttpResponse) -> None:
    headers = [(k.lower(), v) for k, v in response.headers.items() if k.lower() != "content-length"]
    if response.mimetype and not any(k == "content-type" for k, _ in headers):
        charset = f"; charset={response.charset}" if response.charset else ""
        headers.append(("content-type", f"{response.mimetype}{charset}"))
    await _send(send, response.status_code, response.get_body(), headers)


async def _send(
    send: Send, status: int, body: bytes, headers: list[tuple[str, str]] | None = None
) -> None:
    headers = headers or [("content-type", "application/json; charset=utf-8")]
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _json_error(message: str) -> bytes:
    return json.dumps({"error": {"message": message}}).encode()
