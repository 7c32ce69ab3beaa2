"""Whether the caller is still waiting: work nobody will read stops at the next record.

A server that can see the client hang up (the development server: its ASGI ``receive`` reports
``http.disconnect``) runs the function inside :func:`watching`; the batch asks
:func:`client_gone` before each record and answers the rest with an error instead of chunking them.
The Functions host cannot tell the Python worker: it drops an invocation whose client left before
the worker got it (Azure/azure-functions-host#9530), but does not signal one in flight, and the
Python worker handles no ``InvocationCancel`` (Azure/azure-functions-python-worker#1097). There,
the time budget is what stops abandoned work: it ends before the indexer's ``timeout``.

The flag travels in a context variable, which ``asyncio.to_thread`` copies to the worker thread,
so the function's signature stays the host's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_gone: ContextVar[threading.Event | None] = ContextVar("client_gone", default=None)


@contextmanager
def watching(event: threading.Event) -> Iterator[None]:
    """Code run inside (and threads started from it) sees ``event`` as the hang-up signal."""
    token = _gone.set(event)
    try:
        yield
    finally:
        _gone.reset(token)


def client_gone() -> bool:
    """True once the server saw the client hang up; always False where nobody watches."""
    event = _gone.get()
    return event is not None and event.is_set()
