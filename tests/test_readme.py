"""Every command of the README's "Using it" runs as pasted, in a fresh clone of this checkout.

A newcomer pastes those lines one by one; a command that names a missing file, needs a setting
nobody mentioned or fails on the bundled samples is the first thing they meet. The commands are
read from the README itself, so a new line is tested the day it is written. Two are adapted, and
only in how they are run: ``serve`` runs until stopped, so it is started, asked to chunk a record
and stopped; ``eval`` takes minutes on the whole grid, so it runs one candidate. The clone is of
``HEAD``: commit before running this test on a change of the README.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Arguments appended to a slow command so that the test runs a smaller input.
SMALLER = {"eval": ["--only", "hier-1024-160-32 budget", "--no-baselines", "--no-plot"]}


def using_it_commands() -> list[str]:
    """The lines of the first ``bash`` block under "## Using it", comments stripped."""
    section = README.read_text(encoding="utf-8").split("## Using it", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "the README's 'Using it' has no bash block"
    lines = [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_using_it_starts_by_activating_the_environment_the_scripts_made() -> None:
    assert using_it_commands()[0] == "source .venv/bin/activate"


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a checkout of this repository")
    target = tmp_path_factory.mktemp("fresh") / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


def _argv(command: str, out: Path) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "python", f"a command of 'Using it' that is not python's: {command}"
    argv = [sys.executable, *words[1:]]
    if words[1:3] == ["-m", "skills"] and words[3] in SMALLER:
        argv += [*SMALLER[words[3]], "--out", str(out)]
    return argv


@pytest.mark.slow
@pytest.mark.parametrize("command", using_it_commands()[1:])
def test_each_command_runs_as_pasted_in_a_fresh_clone(
    command: str, clone: Path, tmp_path: Path
) -> None:
    if " serve " in f"{command} ":
        _serve_answers(command, clone)
        return
    done = subprocess.run(
        _argv(command, tmp_path / "out"),
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=900,
        env=_env(tmp_path),
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert done.stdout.strip(), f"{command} printed nothing"


def _env(tmp_path: Path) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("AZURE_")}
    env["SKILLS_EMBEDDING_CACHE"] = str(tmp_path / "embeddings")
    return env


def _serve_answers(command: str, clone: Path) -> None:
    """``serve`` on a free port answers an indexer's record, then stops on SIGTERM."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = _argv(re.sub(r"--port \d+", f"--port {port}", command), clone)
    server = subprocess.Popen(argv, cwd=clone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        body = json.dumps(
            {"values": [{"recordId": "1", "data": {"text": "# Title\n\nSome text.\n"}}]}
        ).encode()
        answer = None
        for _ in range(300):  # a cold start imports the engine: seconds, not minutes
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/chunk",
                    body,
                    {"Content-Type": "application/json"},
                )
                with urllib.request.urlopen(request, timeout=30) as response:
                    answer = json.loads(response.read())
                break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                time.sleep(0.2)
        assert answer is not None, "serve did not answer"
        assert [record["recordId"] for record in answer["values"]] == ["1"]
        assert answer["values"][0]["data"]["parents"]
    finally:
        server.terminate()
        server.wait(timeout=30)
