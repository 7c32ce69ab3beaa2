"""Azurite's blob service for the tests that need one (the search side's and the note cache's):
where it listens, and a module-level guard that skips (or in CI fails) without it.

Imported as ``tests.azurite`` from every folder, so that it is one module wherever it is used.
"""

from __future__ import annotations

import os
import socket
import time

import pytest

from skills.search.local_run import azurite_blob_port

#: Where scripts/test.sh starts Azurite's blob service.
AZURITE_PORT = azurite_blob_port()


def azurite_listening(port: int, wait_seconds: float) -> bool:
    """Poll the port: scripts/test.sh starts Azurite in the background just before the tests."""
    deadline = time.monotonic() + wait_seconds
    while True:
        with socket.socket() as probe:
            probe.settimeout(1.0)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


def require_azurite() -> int:
    """Azurite's blob port, once it listens; else the calling module is skipped, saying why, and
    in CI it fails instead: a test that needs Azurite must not pass there by not running."""
    ci = bool(os.environ.get("CI"))
    if not azurite_listening(AZURITE_PORT, 30.0 if ci else 2.0):
        reason = (
            f"Azurite blob service not listening on 127.0.0.1:{AZURITE_PORT} "
            "(scripts/test.sh starts it)"
        )
        if ci:
            raise RuntimeError(reason)
        pytest.skip(reason, allow_module_level=True)
    return AZURITE_PORT
