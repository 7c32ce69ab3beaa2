"""The public faces: code outside ``skills/chunking/`` imports only ``skills.chunking``, code
outside ``skills/skill/`` only ``skills.skill``, and code outside ``skills/llm/`` only
``skills.llm``.

As httpx tests its exported members, this keeps the engine's internals free to change: a module
outside the engine that needs something from inside asks for it to be exported from
``skills/chunking/__init__.py`` (and its ``__all__``) instead of reaching in.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import skills.chunking
import skills.llm
import skills.skill

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "skills" / "chunking"
#: Diagnostics of the parsers' own output and patterns, which read the internals on purpose.
INTERNAL_READERS = frozenset({ROOT / "bench" / "lone_lines.py", ROOT / "bench" / "superlinear.py"})


def outside_modules(
    package: Path = ENGINE, readers: frozenset[Path] = INTERNAL_READERS
) -> Iterator[Path]:
    """The project's modules outside ``package``, but for the ``readers`` of its internals."""
    for folder in (ROOT / "skills", ROOT / "bench"):
        for path in sorted(folder.rglob("*.py")):
            if package not in path.parents and path not in readers:
                yield path
    yield ROOT / "function_app.py"


def internal_imports(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """(line, module) of every import of a module inside ``package``, not the package itself."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith(package + "."):
                yield node.lineno, name


def engine_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import of an engine module other than the package itself."""
    return internal_imports(path, "skills.chunking")


def test_nothing_outside_the_engine_imports_its_internals() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in outside_modules()
        for line, module in engine_imports(path)
    ]
    assert not found, "import these from skills.chunking (export them there):\n" + "\n".join(found)


def test_every_exported_name_exists() -> None:
    missing = [name for name in skills.chunking.__all__ if not hasattr(skills.chunking, name)]
    assert not missing


def test_the_check_sees_an_internal_import(tmp_path: Path) -> None:
    """The rule can fail: a planted internal import is found."""
    planted = tmp_path / "planted.py"
    planted.write_text("from skills.chunking.pack import Piece\nimport skills.chunking.tokens\n")
    assert [module for _, module in engine_imports(planted)] == [
        "skills.chunking.pack",
        "skills.chunking.tokens",
    ]


SKILL = ROOT / "skills" / "skill"
#: Diagnostics of the skill's own memory, which read its internals on purpose.
SKILL_INTERNAL_READERS = frozenset({ROOT / "bench" / "skill_memory.py"})


def skill_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import of a module inside the skill, not the package itself."""
    return internal_imports(path, "skills.skill")


def test_nothing_outside_the_skill_imports_its_internals() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in outside_modules(SKILL, SKILL_INTERNAL_READERS)
        for line, module in skill_imports(path)
    ]
    assert not found, "import these from skills.skill (export them there):\n" + "\n".join(found)


def test_every_name_the_skill_exports_exists() -> None:
    missing = [name for name in skills.skill.__all__ if not hasattr(skills.skill, name)]
    assert not missing


def test_the_check_sees_an_import_of_the_skills_internals(tmp_path: Path) -> None:
    """The rule can fail: a planted import of the skill's internals is found."""
    planted = tmp_path / "planted.py"
    planted.write_text("from skills.skill.inputs import LLM_NOTE_TOKENS\nimport skills.skill\n")
    assert [module for _, module in skill_imports(planted)] == ["skills.skill.inputs"]


LLM = ROOT / "skills" / "llm"


def test_nothing_outside_the_model_calls_imports_their_internals() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in outside_modules(LLM, frozenset())
        for line, module in internal_imports(path, "skills.llm")
    ]
    assert not found, "import these from skills.llm (export them there):\n" + "\n".join(found)


def test_every_name_the_model_calls_export_exists() -> None:
    missing = [name for name in skills.llm.__all__ if not hasattr(skills.llm, name)]
    assert not missing


def test_every_allowed_reader_of_internals_still_reads_them() -> None:
    """An allow-list line whose module no longer reads the internals is dead: drop it."""
    dead = [
        path.relative_to(ROOT).as_posix()
        for readers, package in (
            (INTERNAL_READERS, "skills.chunking"),
            (SKILL_INTERNAL_READERS, "skills.skill"),
        )
        for path in sorted(readers)
        if not any(internal_imports(path, package))
    ]
    assert not dead, f"allowed to read internals but no longer does: {dead}"
