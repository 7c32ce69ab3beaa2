"""The development server stops within a bound of SIGTERM, even while a request still runs.

A long conversion runs on a worker thread, and Python waits for worker threads at exit: without
the bound, a stopped server stayed up until the conversion ended (a hostile page once held one for
minutes after SIGTERM). Here a route that sleeps far past the bound stands in for it.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SERVER = textwrap.dedent(
    """
    import sys, time
    from skills.local import devserver

    def slow(request):
        time.sleep(600)

    route = devserver.Route("slow", "/api/slow", frozenset({"POST"}), "anonymous", slow)
    app = devserver.FunctionsAsgiApp({"/api/slow": route})
    devserver.serve("127.0.0.1", int(sys.argv[1]), "warning", app=app, shutdown_seconds=1)
    """
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_while_a_request_still_runs(stop: signal.Signals) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(200):  # listening within seconds
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else b""
                time.sleep(0.1)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/slow", b"{}", method="POST")
        caller = subprocess.Popen(  # the request, under way while the server is stopped
            [sys.executable, "-c", f"import urllib.request as u; u.urlopen(u.Request("
             f"{request.full_url!r}, b'{{}}', method='POST'), timeout=60)"],
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(1.0)
        server.send_signal(stop)
        output = server.communicate(timeout=60)[0].decode()  # 600 s without the bound
        caller.kill()
        assert "timeout graceful shutdown exceeded" in output
        assert server.returncode == -stop, (
            output
        )  # raised again after the bound: it ends the process
    finally:
        if server.poll() is None:
            server.kill()
