"""HTTP level: the development server serves the functions registered in function_app.py, on
loopback, and answers exactly what the function answers when called directly."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from skilltest_support import MARKDOWN, batch, call_chunk

from skills.local import demo
from skills.local.devserver import running
from skills.skill.contract import SkillResponse

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running() as url:
        yield url


def test_chunk_over_http_equals_the_direct_call(base_url: str) -> None:
    request = batch({"text": MARKDOWN, "documentKey": "docs/guide.md"}, {"title": "no text"})
    response = httpx.post(f"{base_url}/api/chunk", json=request, timeout=60)
    direct = call_chunk(request)
    assert response.status_code == direct.status_code == 207
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.content == direct.get_body()
    SkillResponse.model_validate(response.json())


def test_query_string_options_reach_the_function(base_url: str) -> None:
    request = batch({"text": MARKDOWN, "documentKey": "k"})
    url = f"{base_url}/api/chunk?strategy=fixed&childMaxTokens=32&code=ignored"
    over_http = httpx.post(url, json=request, timeout=60)
    direct = call_chunk(request, params={"strategy": "fixed", "childMaxTokens": "32", "code": "x"})
    assert over_http.status_code == 200
    assert over_http.content == direct.get_body()


def test_malformed_json_over_http_is_a_json_400(base_url: str) -> None:
    response = httpx.post(f"{base_url}/api/chunk", content=b"{oops", timeout=30)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/json")
    assert "not valid JSON" in response.json()["error"]["message"]


def test_health_over_http(base_url: str) -> None:
    response = httpx.get(f"{base_url}/api/health", timeout=30)
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_unknown_route_and_wrong_method_are_json_errors(base_url: str) -> None:
    missing = httpx.post(f"{base_url}/api/nothing", json={}, timeout=30)
    wrong = httpx.get(f"{base_url}/api/chunk", timeout=30)
    assert (missing.status_code, wrong.status_code) == (404, 405)
    assert "error" in missing.json() and "error" in wrong.json()


def test_concurrent_calls_each_get_their_own_records(base_url: str) -> None:
    import concurrent.futures

    def send(n: int) -> list[str]:
        request = {
            "values": [{"recordId": f"{n}-{i}", "data": {"text": MARKDOWN}} for i in range(20)]
        }
        response = httpx.post(f"{base_url}/api/chunk", json=request, timeout=120)
        return sorted(record["recordId"] for record in response.json()["values"])

    with concurrent.futures.ThreadPoolExecutor(max_workers=5) as pool:
        answers = list(pool.map(send, range(5)))
    assert answers == [sorted(f"{n}-{i}" for i in range(20)) for n in range(5)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_serve_command_answers_on_the_given_port() -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "skills", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                response = httpx.post(
                    f"http://127.0.0.1:{port}/api/chunk",
                    json=batch({"text": "# A\n\nb"}),
                    timeout=30,
                )
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "serve did not start within 60 s"
                time.sleep(0.2)
        assert response.status_code == 200
        assert [r["recordId"] for r in response.json()["values"]] == ["1"]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_demo_prints_a_table_of_the_samples_and_one_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "guide.md").write_text(MARKDOWN, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("A plain note.\n\nSecond paragraph.\n", encoding="utf-8")
    assert demo.main(["--samples", str(tmp_path), "--batch-size", "1", "--tree", "guide.md"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum("HTTP 200" in line for line in lines) == 2
    rows = {line.split()[0].rsplit("/", 1)[-1]: line.split()[1:] for line in lines if "  " in line}
    assert rows["document"] == ["format", "parents", "children", "tokens", "warnings"]
    assert rows["guide.md"][:2] == ["markdown", "1"] and rows["notes.txt"][:2] == ["text", "1"]
    assert rows["total"][0] == "2"
    tree = lines[next(k for k, line in enumerate(lines) if "guide.md: 1 parent(s)" in line) :]
    assert tree[1].startswith("p0  Guide") and tree[2].startswith("    c0  ")
    assert not any("notes.txt: 1 parent(s)" in line for line in lines), "one tree, not every one"


def test_demo_verbose_prints_every_tree_with_offsets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "guide.md").write_text(MARKDOWN, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("A plain note.\n\nSecond paragraph.\n", encoding="utf-8")
    assert demo.main(["--samples", str(tmp_path), "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "guide.md: 1 parent(s)" in out and "notes.txt: 1 parent(s)" in out
    assert "    c0  [0:" in out


def test_demo_lists_a_record_error_under_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "guide.md").write_text(MARKDOWN, encoding="utf-8")
    assert demo.main(["--samples", str(tmp_path), "--child-max-tokens", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[3].split()[2:4] == ["error", "error"]
    assert any(line.startswith("! ") and "childMaxTokens" in line for line in out.splitlines())


def test_demo_json_mode_prints_the_raw_responses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text(MARKDOWN, encoding="utf-8")
    assert demo.main(["--samples", str(tmp_path), "--json", "--strategy", "fixed"]) == 0
    answer = json.loads(capsys.readouterr().out)
    (record,) = answer["values"]
    assert all(len(parent["children"]) == 1 for parent in record["data"]["parents"])


def test_demo_without_samples_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--samples", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("no ") and ".md" in out and ".rst" in out


def test_the_dev_server_refuses_bodies_above_the_host_limit_with_json() -> None:
    import asyncio

    from skills.local.devserver import FunctionsAsgiApp, load_app, route_prefix, routes

    app = FunctionsAsgiApp(routes(load_app(), route_prefix()), max_body_bytes=1_000)

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.post("/api/chunk", content=b"x" * 5_000)

    response = asyncio.run(send())
    assert response.status_code == 413
    assert "limit of 1000 bytes" in response.json()["error"]["message"]


def test_the_route_prefix_comes_from_host_json(tmp_path: Path) -> None:
    from skills.local.devserver import route_prefix

    assert route_prefix(tmp_path) == "api"  # no host.json: the host's default
    (tmp_path / "host.json").write_text('{"extensions": {"http": {"routePrefix": ""}}}')
    assert route_prefix(tmp_path) == ""
    assert route_prefix(ROOT) == "api"


def test_a_client_that_hangs_up_stops_the_batch_at_the_next_record(
    base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Work measured in records: of 3,000, those after the hang-up are not chunked."""
    caplog.set_level(logging.INFO, logger="skills.skill")
    count = 3000
    body = json.dumps(batch(*({"text": MARKDOWN, "documentKey": f"d{i}"} for i in range(count))))
    host, port = base_url.removeprefix("http://").split(":")
    head = (
        f"POST /api/chunk HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    with socket.create_connection((host, int(port))) as client:
        client.sendall(head.encode() + body.encode())
        time.sleep(0.2)  # the batch has started
    deadline = time.monotonic() + 120
    line: dict[str, int] = {}
    while not line and time.monotonic() < deadline:
        time.sleep(0.1)
        found = [r.getMessage() for r in caplog.records if r.getMessage().startswith("chunk batch")]
        line = json.loads(found[-1].removeprefix("chunk batch ")) if found else {}
    assert line["records"] == count
    assert line["abandoned"] > count // 2
    assert line["parents"] < count // 2
