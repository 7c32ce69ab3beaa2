"""The deployment hands the search side every setting it needs, under the names it reads.

azd writes each output of main.bicep into the environment (.azure/<env>/.env); the search deploy
command and the evaluation read them from there. So the names are an interface: they are checked
against the readers' own tables, not against a list kept here.
"""

from __future__ import annotations

import os
import re
import subprocess

import yaml
from infra_bicep import Expr, Ternary
from infra_paths import AZURE_YAML, INFRA, MAIN, ROOT, load

from skills.search import settings as search_settings

UPPER_SNAKE = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")


def outputs() -> dict[str, object]:
    return {name: out.value for name, out in load(MAIN).outputs.items()}


def test_output_names_are_upper_snake_case() -> None:
    assert all(UPPER_SNAKE.match(name) for name in outputs())


def test_every_setting_a_real_search_deployment_needs_is_an_output() -> None:
    missing = set(search_settings.REQUIRED_FOR_AZURE) - set(outputs())
    assert missing == set()


def test_skill_auth_resource_id_is_an_output_and_empty_in_key_mode() -> None:
    """The search settings treat an empty value as unset, so key mode sends no token scope."""
    assert "SKILL_AUTH_RESOURCE_ID" in search_settings.ENVIRONMENT
    value = outputs()["SKILL_AUTH_RESOURCE_ID"]
    assert value == Ternary(
        "effectiveSkillAuthMode == 'entra'", Expr("'api://${skillAppClientId}'"), ""
    )


def test_embedding_outputs_feed_the_search_templates_and_the_embedder() -> None:
    names = {
        "AZURE_OPENAI_ENDPOINT",
        "AZURE_OPENAI_EMBEDDING_DEPLOYMENT",
        "AZURE_OPENAI_EMBEDDING_MODEL",
        "AZURE_OPENAI_EMBEDDING_DIMENSIONS",
    }
    assert names <= set(search_settings.ENVIRONMENT)
    assert names <= set(outputs())
    embedder = (ROOT / "skills" / "embeddings.py").read_text(encoding="utf-8")
    for name in names - {"AZURE_OPENAI_EMBEDDING_MODEL"}:
        assert f'"{name}"' in embedder, name
    assert load(MAIN).outputs["AZURE_OPENAI_EMBEDDING_DIMENSIONS"].type == "int"


def test_storage_outputs_name_the_documents_account_not_the_host_account() -> None:
    values = outputs()
    assert values["AZURE_STORAGE_RESOURCE_ID"] == Expr("documentsStorage.outputs.id")
    assert values["AZURE_STORAGE_ACCOUNT"] == Expr("documentsStorage.outputs.name")
    assert values["AZURE_STORAGE_CONTAINER"] == Expr("documentsContainerName")


def test_the_function_key_is_never_an_output() -> None:
    """It is the one secret of key mode: the deploy step fetches it through the management API."""
    assert "SKILL_FUNCTION_KEY" in search_settings.ENVIRONMENT
    assert "SKILL_FUNCTION_KEY" not in outputs()
    assert {"AZURE_FUNCTION_APP_NAME", "AZURE_RESOURCE_GROUP", "AZURE_FUNCTION_APP_ID"} <= set(
        outputs()
    )


def test_the_auth_mode_input_is_not_overwritten_by_an_output() -> None:
    """azd writes outputs back into the environment that fills main.parameters.json. The
    effective mode can differ from the requested one (entra without an app registration falls
    back to keys), so it must not land in the variable the user set."""
    params_text = (INFRA / "main.parameters.json").read_text(encoding="utf-8")
    fed = dict(re.findall(r'"(\w+)":\s*\{\s*"value":\s*"\$\{(\w+)', params_text))
    assert fed["skillAuthMode"] == "SKILL_AUTH_MODE"
    assert "SKILL_AUTH_MODE" not in outputs()
    assert outputs()["SKILL_AUTH_MODE_EFFECTIVE"] == Expr("effectiveSkillAuthMode")


def test_azure_yaml_points_at_infra_and_the_function_service() -> None:
    config = yaml.safe_load(AZURE_YAML.read_text(encoding="utf-8"))
    infra = config["infra"]
    assert infra["provider"] == "bicep"
    assert (ROOT / infra["path"] / f"{infra['module']}.bicep").resolve() == MAIN.resolve()
    (service,) = config["services"].values()
    assert service["host"] == "function"
    assert service["language"] == "python"
    assert service.get("remoteBuild") is True, "Linux wheels must be built on the platform"
    project = (ROOT / service["project"]).resolve()
    assert (project / "function_app.py").is_file()
    assert (project / "host.json").is_file()
    assert (project / "requirements.txt").is_file()


def test_azd_runs_the_search_deploy_after_the_code_is_deployed() -> None:
    """postdeploy, not postprovision: the host creates its function key when it first starts."""
    hooks = yaml.safe_load(AZURE_YAML.read_text(encoding="utf-8"))["hooks"]
    assert set(hooks) == {"postdeploy"}
    hook = hooks["postdeploy"]
    assert hook["shell"] == "sh" and hook["continueOnError"] is False
    script = ROOT / hook["run"]
    assert script.is_file() and os.access(script, os.X_OK)
    assert subprocess.run(["sh", "-n", str(script)], check=False).returncode == 0
    text = script.read_text(encoding="utf-8")
    for step in ("skills.search deploy", "skills.search check", "az functionapp keys list"):
        assert step in text


def test_every_output_the_hook_reads_is_an_output() -> None:
    script = (ROOT / "scripts" / "azd-postdeploy.sh").read_text(encoding="utf-8")
    read = set(re.findall(r"\$\{?([A-Z][A-Z0-9_]+)", script))
    settings = {"AZURE_SEARCH_MODE", "AZURE_SEARCH_RESET", "AZURE_UPLOAD_SAMPLES", "PYTHON",
                "HOOK_TRIES", "HOOK_WAIT_SECONDS", "SKILL_FUNCTION_KEY", "MODE", "TRIES",
                "WAIT_SECONDS", "HOOK_VENV", "VENV", "AZURE_TOKEN_CREDENTIALS"}  # fmt: skip
    assert read - settings <= set(outputs())
