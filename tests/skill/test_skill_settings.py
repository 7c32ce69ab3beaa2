"""The app settings are read once, in one module: ``SkillSettings.from_env`` parses them, and the
request path takes the typed settings (or the part it needs), never the environment.

So a setting's name is spelled in ``skills/skill/settings.py`` only (messages name it through its
constant), no function of the skill or the model calls takes an ``env`` mapping, and the pages
that list the settings list what the code reads.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from skills.llm import CallPolicy, NoteStore
from skills.skill import settings as settings_module
from skills.skill.settings import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_TEXT_CHARS,
    DEFAULT_TIME_BUDGET_SECONDS,
    AuthMode,
    SkillSettings,
)

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_MODULE = ROOT / "skills" / "skill" / "settings.py"
#: The request path: the skill, the model calls, and the Function that reads the environment.
REQUEST_PATH = [
    *sorted((ROOT / "skills" / "skill").glob("*.py")),
    *sorted((ROOT / "skills" / "llm").glob("*.py")),
    ROOT / "function_app.py",
]
#: The pages whose tables list the settings.
SETTINGS_PAGES = (ROOT / "docs" / "skill.md", ROOT / "docs" / "contextual.md")


def setting_names() -> dict[str, str]:
    """Constant -> setting name, for every setting ``settings.py`` names."""
    return {
        name: value
        for name, value in vars(settings_module).items()
        if name.endswith("_SETTING") and isinstance(value, str)
    }


def code_strings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every string in ``path``'s code: docstrings left out, f-strings' literal
    parts in."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue
            yield node.lineno, node.value


def spelled_elsewhere(paths: list[Path]) -> list[str]:
    names = set(setting_names().values()) | {settings_module.OPTION_SETTING_PREFIX}
    return [
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{line} {name}"
        for path in paths
        if path != SETTINGS_MODULE
        for line, text in code_strings(path)
        for name in names
        if name in text
    ]


def test_every_setting_name_is_spelled_in_the_settings_module_only() -> None:
    found = spelled_elsewhere(REQUEST_PATH)
    assert not found, "name these through skills.skill.settings' constants:\n" + "\n".join(found)


def test_the_check_sees_a_setting_spelled_elsewhere(tmp_path: Path) -> None:
    """The rule can fail: a name in a message or a lookup is found, one in a docstring is not."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Reads SKILL_AUTH."""\n'
        'def f(env, n):\n    """SKILL_AUTH too."""\n'
        '    return env.get("SKILL_MAX_TEXT_CHARS"), f"{n} over; CONTEXT_CONCURRENCY caps it"\n',
        encoding="utf-8",
    )
    found = spelled_elsewhere([planted])
    assert found == ["planted.py:4 SKILL_MAX_TEXT_CHARS", "planted.py:4 CONTEXT_CONCURRENCY"]


def env_parameters(path: Path) -> Iterator[str]:
    """``function(env)`` for every function of ``path`` that takes an ``env`` mapping."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            if any(argument.arg in ("env", "environ") for argument in arguments):
                yield f"{path.relative_to(ROOT)}: {getattr(node, 'name', 'lambda')}(env)"


def code_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of the lines of ``path`` that are code, not docstrings or comments."""
    text = path.read_text(encoding="utf-8")
    docstring_lines = {
        line
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    for number, line in enumerate(text.splitlines(), start=1):
        if number not in docstring_lines and not line.lstrip().startswith("#"):
            yield number, line


def test_the_environment_is_read_in_the_settings_module_only() -> None:
    takers = [
        taker
        for path in REQUEST_PATH
        if path not in (SETTINGS_MODULE, ROOT / "function_app.py")
        for taker in env_parameters(path)
    ]
    assert not takers, "these take the environment; give them the typed settings:\n" + "\n".join(
        takers
    )
    readers = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in REQUEST_PATH
        if path != ROOT / "function_app.py"
        for line, text in code_lines(path)
        if re.search(r"\bos\.(environ|getenv)\b", text) and "setdefault" not in text
    ]
    assert not readers, "only function_app.py reads os.environ:\n" + "\n".join(readers)


def test_every_setting_is_in_the_docs_and_every_documented_one_is_read() -> None:
    pages = "\n".join(page.read_text(encoding="utf-8") for page in SETTINGS_PAGES)
    names = set(setting_names().values())
    undocumented = sorted(name for name in names if f"`{name}`" not in pages)
    internal = {
        settings_module.RESOURCE_DETECTORS_SETTING,
        settings_module.IDENTITY_ENDPOINT_SETTING,
    }
    assert set(undocumented) <= internal, f"settings the docs do not list: {undocumented}"
    rows = [line for line in pages.splitlines() if line.startswith("| `")]
    listed = {
        name
        for row in rows
        for name in re.findall(r"`([A-Z][A-Z0-9_]+(?:__[A-Za-z]+)?)`", row.split("|")[1])
        if not name.startswith(settings_module.OPTION_SETTING_PREFIX)
    }
    stale = sorted(listed - names - {"AzureWebJobsStorage__blobServiceUri"})
    assert not stale, f"the docs list settings the skill does not read: {stale}"


def test_without_app_settings_everything_has_its_default() -> None:
    settings = SkillSettings.from_env({})
    assert settings == SkillSettings()
    assert (settings.auth, settings.max_body_bytes, settings.max_text_chars) == (
        AuthMode.KEY,
        DEFAULT_MAX_BODY_BYTES,
        DEFAULT_MAX_TEXT_CHARS,
    )
    assert (settings.embeddings, settings.notes, settings.note_store) == (None, None, None)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SKILL_MAX_BODY_BYTES", "-1"),
        ("SKILL_MAX_BODY_BYTES", "lots"),
        ("SKILL_TIME_BUDGET_SECONDS", "inf"),
        ("SKILL_TIME_BUDGET_SECONDS", "0"),
        ("SKILL_MAX_TEXT_CHARS", "1e6"),
    ],
)
def test_a_malformed_service_setting_keeps_its_default(name: str, value: str) -> None:
    assert SkillSettings.from_env({name: value}).model_dump(exclude={"time_budget_given"}) == (
        SkillSettings().model_dump(exclude={"time_budget_given"})
    )


def test_a_budget_above_the_skill_timeout_is_held_at_it() -> None:
    settings = SkillSettings.from_env({"SKILL_TIME_BUDGET_SECONDS": "900"})
    assert settings.time_budget_seconds == 230.0 and settings.time_budget_given
    assert SkillSettings().time_budget_seconds == DEFAULT_TIME_BUDGET_SECONDS


def test_chunking_defaults_are_kept_as_text_by_option_field() -> None:
    """A bad one fails the records that use it, naming the setting (test_skill_contract)."""
    env = {"CHUNK_CHILD_MAX_TOKENS": "256", "CHUNK_HEADING_DEPTH": "9", "CHUNK_FORMAT": ""}
    assert SkillSettings.from_env(env).chunk_defaults == {
        "child_max_tokens": "256",
        "heading_depth": "9",
    }


def test_the_model_calls_are_configured_by_their_settings() -> None:
    env = {
        "AZURE_OPENAI_ENDPOINT": "https://aoai.example",
        "AZURE_OPENAI_EMBEDDING_DEPLOYMENT": "embed",
        "AZURE_OPENAI_EMBEDDING_DIMENSIONS": "256",
        "AZURE_OPENAI_CHAT_DEPLOYMENT": "notes",
        "CONTEXT_CONCURRENCY": "3",
        "CONTEXT_MAX_RETRIES": "99",  # above 10: the default
        "CONTEXT_REASONING_EFFORT": "",
        "CONTEXT_REQUEST_TIMEOUT_SECONDS": "5",
        "AzureWebJobsStorage__blobServiceUri": "https://host.blob.example",
        "IDENTITY_ENDPOINT": "http://localhost/msi",
    }
    settings = SkillSettings.from_env(env)
    assert settings.embeddings is not None and settings.notes is not None
    assert (settings.embeddings.deployment, settings.embeddings.dimensions) == ("embed", 256)
    assert settings.embeddings.managed_identity
    assert settings.notes.target.deployment == "notes"
    assert settings.notes.target.api_version == "2025-04-01-preview"
    assert settings.notes.concurrency == 3
    assert settings.notes.calls == CallPolicy(max_retries=3, request_timeout=5.0)
    assert settings.note_store == NoteStore(account_url="https://host.blob.example")


def test_settings_are_frozen() -> None:
    settings = SkillSettings()
    with pytest.raises(ValueError, match="frozen"):
        settings.max_body_bytes = 1  # type: ignore[misc]
