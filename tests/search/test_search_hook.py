"""The azd postdeploy hook, run as azd runs it, with stand-ins for azd and az on PATH.

``azd env get-values`` answers what provisioning would have written; ``az functionapp keys list``
answers the function key; the search service and the function are the loopback fake. The hook
must create everything on the first run, send nothing on the second, and never let the key reach
a file, its output or the azd environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_search_service import FakeDeployment, running

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / "scripts" / "azd-postdeploy.sh"
SUBSCRIPTION = "22222222-2222-2222-2222-222222222222"


@pytest.fixture
def fake() -> Iterator[FakeDeployment]:
    with running() as fake:
        yield fake


def stand_ins(bin_dir: Path, fake: FakeDeployment, log: Path) -> None:
    values = {
        "AZURE_SEARCH_ENDPOINT": fake.url,
        "AZURE_OPENAI_ENDPOINT": "https://oai-test.openai.azure.com/",
        "AZURE_OPENAI_EMBEDDING_DEPLOYMENT": "text-embedding-3-small",
        "SKILL_URI": f"{fake.url}/api/chunk",
        "SKILL_AUTH_MODE_EFFECTIVE": "functionKey",
        "SKILL_AUTH_RESOURCE_ID": "",
        "AZURE_RESOURCE_GROUP": "rg-test",
        "AZURE_SUBSCRIPTION_ID": SUBSCRIPTION,
        "AZURE_TENANT_ID": "11111111-1111-1111-1111-111111111111",
        "AZURE_FUNCTION_APP_NAME": "func-chunk-test",
        "AZURE_STORAGE_RESOURCE_ID": "/subscriptions/0/resourceGroups/rg-test/providers/"
        "Microsoft.Storage/storageAccounts/stdoctest",
    }
    env_lines = "\n".join(f'{name}="{value}"' for name, value in values.items())
    scripts = {
        "azd": f'echo "azd $*" >> "{log}"\n[ "$1 $2" = "env get-values" ] && cat <<EOF\n'
        f"{env_lines}\nEOF\n",
        "az": f'echo "az $*" >> "{log}"\necho "{fake.function_key}"\n',
    }
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}", encoding="utf-8")
        path.chmod(0o755)


def run_hook(
    tmp_path: Path, fake: FakeDeployment, **extra: str
) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    stand_ins(bin_dir, fake, log)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "SKILL_"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHON": python_logging_its_credential_choice(tmp_path),
        "PYTHONPATH": str(ROOT),
        "AZURE_SEARCH_API_KEY": fake.api_key,  # the fake speaks API keys, not Entra tokens
        "HOOK_TRIES": "1",
        "AZURE_SEARCH_PENDING_RESETS": str(tmp_path / "pending-resets.json"),  # not the repo's
        **extra,
    }
    env = {name: value for name, value in env.items() if value != "<unset>"}
    return subprocess.run(
        ["sh", str(HOOK)], env=env, capture_output=True, text=True, timeout=300, check=False
    )


def python_logging_its_credential_choice(tmp_path: Path) -> str:
    """The real interpreter, behind a script that logs which credential the step would use."""
    wrapper = tmp_path / "python-wrapper"
    wrapper.write_text(
        "#!/bin/sh\n"
        'echo "AZURE_TOKEN_CREDENTIALS=${AZURE_TOKEN_CREDENTIALS:-}"'
        f' >> "{tmp_path}/python.log"\n'
        f'exec "{sys.executable}" "$@"\n',
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    return str(wrapper)


def test_the_hook_deploys_checks_and_keeps_the_key_out_of_sight(
    tmp_path: Path, fake: FakeDeployment
) -> None:
    first = run_hook(tmp_path, fake)
    assert first.returncode == 0, first.stdout + first.stderr
    assert {kind for kind, _ in fake.objects} == {"dataSource", "index", "skillset", "indexer"}
    skillset = fake.objects[("skillset", "hcs-embedded-skillset")]
    assert skillset["skills"][0]["httpHeaders"] == {"x-functions-key": fake.function_key}
    assert "ok       skill        a signed request is answered" in first.stdout
    assert "note: the basic tier extracts at most 512,000 characters" in first.stdout
    key = str(fake.function_key)
    assert key not in first.stdout + first.stderr
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.name not in ("az", "azd"):  # the stand-in prints it
            assert key not in path.read_text(encoding="utf-8", errors="replace"), path
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8")
    assert "azd env set" not in calls
    assert "az functionapp keys list" in calls


def test_az_uses_azds_subscription_and_python_steps_azds_credential(
    tmp_path: Path, fake: FakeDeployment
) -> None:
    """az and azd may be signed in to different subscriptions (and DefaultAzureCredential tries
    the Azure CLI before azd): every step must use what azd provisioned with."""
    done = run_hook(tmp_path, fake)
    assert done.returncode == 0, done.stdout + done.stderr
    calls = (tmp_path / "calls.log").read_text(encoding="utf-8").splitlines()
    az_calls = [line for line in calls if line.startswith("az ")]
    assert az_calls and all(f"--subscription {SUBSCRIPTION}" in line for line in az_calls)
    steps = (tmp_path / "python.log").read_text(encoding="utf-8").splitlines()
    assert steps and set(steps) == {"AZURE_TOKEN_CREDENTIALS=AzureDeveloperCliCredential"}


def test_a_credential_the_user_chose_is_kept(tmp_path: Path, fake: FakeDeployment) -> None:
    done = run_hook(tmp_path, fake, AZURE_TOKEN_CREDENTIALS="WorkloadIdentityCredential")
    assert done.returncode == 0, done.stdout + done.stderr
    steps = (tmp_path / "python.log").read_text(encoding="utf-8").splitlines()
    assert set(steps) == {"AZURE_TOKEN_CREDENTIALS=WorkloadIdentityCredential"}


def fake_pythons(bin_dir: Path, versions: dict[str, tuple[int, int]]) -> None:
    """Interpreters that answer the version check as ``versions`` says; ``-m venv DIR`` makes
    a venv whose python is the real one (so the hook's later steps run)."""
    for name, version in versions.items():
        script = bin_dir / name
        script.write_text(
            "#!/bin/sh\n"
            f'echo "{name} $*" >> "{bin_dir}/pythons.log"\n'
            'if [ "$1" = "-m" ] && [ "$2" = venv ]; then\n'
            f'  mkdir -p "$3/bin" && ln -s "{sys.executable}" "$3/bin/python"; exit 0\n'
            "fi\n"
            f"exit {0 if version >= (3, 11) else 1}\n",
            encoding="utf-8",
        )
        script.chmod(0o755)


def test_the_venv_is_made_with_the_first_python_that_is_3_11_or_newer(
    tmp_path: Path, fake: FakeDeployment
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_pythons(bin_dir, {"python3.13": (3, 10), "python3.12": (3, 12), "python3": (3, 9)})
    venv = tmp_path / "venv"
    done = run_hook(tmp_path, fake, PYTHON="<unset>", HOOK_VENV=str(venv))
    assert done.returncode == 0, done.stdout + done.stderr
    used = (bin_dir / "pythons.log").read_text(encoding="utf-8")
    assert f"python3.12 -m venv {venv}" in used and "python3 -m venv" not in used
    assert (venv / "bin" / "python").exists()


def test_without_python_3_11_the_hook_stops_before_making_a_venv(
    tmp_path: Path, fake: FakeDeployment
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    old = {name: (3, 9) for name in ("python3.13", "python3.12", "python3.11", "python3")}
    fake_pythons(bin_dir, old)
    venv = tmp_path / "venv"
    done = run_hook(tmp_path, fake, PYTHON="<unset>", HOOK_VENV=str(venv))
    assert done.returncode == 1
    assert "needs Python 3.11 or newer" in done.stderr
    assert not venv.exists() and fake.objects == {}


def test_a_second_run_sends_nothing(tmp_path: Path, fake: FakeDeployment) -> None:
    assert run_hook(tmp_path, fake).returncode == 0
    fake.requests.clear()
    second = run_hook(tmp_path, fake)
    assert second.returncode == 0, second.stdout + second.stderr
    assert [method for method, _ in fake.requests if method in ("PUT", "POST")] == [
        "POST", "POST",  # the doctor's two skill probes
    ]  # fmt: skip
    assert second.stdout.count("unchanged") == 4


def test_an_upload_before_the_first_deploy_leaves_the_run_to_the_new_indexer(
    fake: FakeDeployment, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook uploads before it deploys: the indexer may not exist yet, and that is fine."""
    from skills.search.cli import _run_indexer
    from skills.search.settings import SearchSettings

    monkeypatch.setenv("AZURE_SEARCH_API_KEY", fake.api_key)
    settings = SearchSettings(search_endpoint=fake.url)
    _run_indexer(settings, "hcs-embedded-indexer")
    assert "it runs when the deploy creates it" in capsys.readouterr().out
    fake.objects[("indexer", "hcs-embedded-indexer")] = {"name": "hcs-embedded-indexer"}
    _run_indexer(settings, "hcs-embedded-indexer")
    assert "started  indexer hcs-embedded-indexer" in capsys.readouterr().out
    assert ("POST", "/indexers('hcs-embedded-indexer')/search.run?api-version=2026-04-01") in (
        fake.requests
    )
