"""A chat completions endpoint on loopback that speaks Azure OpenAI's JSON, for the tests.

Real HTTP, so the real ``openai`` client (its URL, headers, timeouts and error types) is what the
skill talks to. Each request is recorded; ``script`` decides the answer of the n-th request (a
status, headers and a delay), and a 200 carries a note naming the chunk's first words with a
usage block in which a prompt whose prefix was seen before counts as cached, as the service's
automatic prompt caching does.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Answer:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Seen:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: dict[str, Any]
    started: float
    finished: float = 0.0
    status: int = 0


class FakeChat:
    """The server's state: what it saw and how it answers."""

    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self.script: Callable[[int], Answer] = lambda n: Answer()
        self.active = 0
        self.most_active = 0
        self._prefixes: set[str] = set()
        self._lock = threading.Lock()
        self.url = ""

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.script = lambda n: Answer()
            self.active = self.most_active = 0
            self._prefixes.clear()

    @property
    def answered(self) -> list[Seen]:
        return [seen for seen in self.requests if seen.status == 200]

    def handle(self, seen: Seen) -> tuple[Answer, dict[str, Any]]:
        with self._lock:
            number = len(self.requests)
            self.requests.append(seen)
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        answer = self.script(number)
        messages = seen.body.get("messages", [])
        prefix = json.dumps(messages[:-1])
        with self._lock:
            cached = prefix in self._prefixes
            if answer.status == 200:
                self._prefixes.add(prefix)
        chunk = messages[-1]["content"].split("<chunk>\n", 1)[-1] if messages else ""
        prompt = sum(len(message["content"]) // 4 for message in messages)
        body: dict[str, Any] = {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-4o-mini",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {
                        "role": "assistant",
                        "content": "About " + " ".join(chunk.split()[:4]) + ".",
                    },
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": 7,
                "total_tokens": prompt + 7,
                "prompt_tokens_details": {"cached_tokens": len(prefix) // 4 if cached else 0},
            },
        }
        if answer.status != 200:
            body = {"error": {"code": str(answer.status), "message": "scripted failure"}}
        return answer, body

    def done(self, seen: Seen, status: int) -> None:
        with self._lock:
            seen.finished = time.monotonic()
            seen.status = status
            self.active -= 1


def _handler(state: FakeChat) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            url = urlsplit(self.path)
            seen = Seen(
                url.path,
                parse_qs(url.query),
                {k.lower(): v for k, v in self.headers.items()},
                body,
                time.monotonic(),
            )
            answer, payload = state.handle(seen)
            if answer.delay:
                time.sleep(answer.delay)
            data = json.dumps(payload).encode()
            try:
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client gave up (a timeout): nothing to answer
                pass
            finally:
                state.done(seen, answer.status)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def fake_chat() -> Iterator[FakeChat]:
    """A running server on 127.0.0.1 (a free port), stopped on exit."""
    state = FakeChat()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
