"""Logs: one structured line per batch, one per failed record, never the document text."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from skilltest_support import batch, call_chunk

from skills.skill import telemetry
from skills.skill.settings import TELEMETRY_SETTING

SECRET = "TOP-SECRET-CONTENT-4711"


def lines(caplog: pytest.LogCaptureFixture, prefix: str) -> list[dict[str, object]]:
    return [
        json.loads(r.getMessage().removeprefix(prefix))
        for r in caplog.records
        if r.getMessage().startswith(prefix)
    ]


def test_one_batch_line_with_the_counts(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="skills.skill")
    text = f"# {SECRET}\n\nbody"
    call_chunk(batch({"text": text, "documentKey": "a"}, {"text": "x", "strategy": "fixed"}))
    (line,) = lines(caplog, "chunk batch ")
    assert line["records"] == 2 and line["errors"] == 0 and line["status"] == 200
    assert line["characters"] == len(text) + 1
    assert line["strategy"] == "fixed:1,hierarchical:1"
    assert line["children"] == 2 and line["parents"] == 2 and int(line["tokens"]) > 0  # type: ignore[call-overload]
    assert {"durationMs", "cpuMs", "warnings", "fallbacks", "skipped"} <= set(line)


def test_failed_records_are_logged_by_id_and_reason_without_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="skills.skill")
    call_chunk(batch({"text": SECRET, "bogus": 1}, {"text": f"# {SECRET}", "childMaxTokens": 1}))
    failed = lines(caplog, "chunk record failed ")
    assert [line["recordId"] for line in failed] == ["1", "2"]
    assert "bogus" in str(failed[0]["reason"]) and "childMaxTokens" in str(failed[1]["reason"])
    assert all(SECRET not in record.getMessage() for record in caplog.records)


def test_batch_fields_are_custom_dimensions(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="skills.skill")
    call_chunk(batch({"text": "x"}))
    (record,) = [r for r in caplog.records if r.getMessage().startswith("chunk batch ")]
    assert getattr(record, "skill.records") == 1


def test_refused_requests_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="skills.skill")
    call_chunk(b"nope")
    (line,) = lines(caplog, "chunk request refused ")
    assert line["status"] == 400


def _fake_setup(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The connection strings the OpenTelemetry setup is called with, instead of running it."""
    called: list[str] = []

    def configure(connection: str) -> bool:
        called.append(connection)
        return True

    monkeypatch.setattr(telemetry, "_configure", configure)
    return called


def test_no_connection_string_means_no_opentelemetry_setup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(telemetry, "_state", {"configured": False, "tracing": False})
    called = _fake_setup(monkeypatch)
    assert telemetry.configure_once("") is False
    assert called == []


def test_opentelemetry_is_set_up_once_when_the_connection_string_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(telemetry, "_state", {"configured": False, "tracing": False})
    called = _fake_setup(monkeypatch)
    connection = "InstrumentationKey=00000000-0000-0000-0000-0"
    assert telemetry.configure_once(connection) is True
    assert telemetry.configure_once(connection) is True
    assert called == [connection]


OTEL_SCRIPT = """
import json, os, socket
attempts = []
connect = socket.socket.connect
def loopback_only(sock, address):
    host = address[0] if isinstance(address, tuple) else str(address)
    if not (host.startswith("127.") or host in ("localhost", "::1")):
        attempts.append(host)
        raise OSError("blocked by the test: not loopback")
    return connect(sock, address)
socket.socket.connect = loopback_only
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from skills.skill import SkillSettings, handle_chunk_request
body = json.dumps({"values": [{"recordId": "1", "data": {"text": "# A\\n\\nb"}}]}).encode()
reply = handle_chunk_request(body, {}, SkillSettings.from_env(os.environ))
trace.get_tracer_provider().force_flush()
sdk = isinstance(trace.get_tracer_provider(), TracerProvider)
print(json.dumps({"status": reply.status, "sdk": sdk, "blocked": attempts}))
"""


def test_with_a_connection_string_the_distro_exports_and_probes_no_metadata_address() -> None:
    pytest.importorskip("azure.monitor.opentelemetry")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("OTEL_", "APPLICATIONINSIGHTS_", "SKILL_", "CHUNK_"))
    }
    env[TELEMETRY_SETTING] = (
        "InstrumentationKey=00000000-0000-0000-0000-000000000000;"
        "IngestionEndpoint=http://127.0.0.1:9/"  # loopback, nothing listens: exports fail fast
    )
    env["APPLICATIONINSIGHTS_STATSBEAT_DISABLED_ALL"] = "true"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", OTEL_SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"status": 200, "sdk": True, "blocked": []}
