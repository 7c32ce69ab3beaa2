"""The engine's public face: code outside ``skills/chunking/`` imports only ``skills.chunking``.

As httpx tests its exported members, this keeps the engine's internals free to change: a module
outside the engine that needs something from inside asks for it to be exported from
``skills/chunking/__init__.py`` (and its ``__all__``) instead of reaching in.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import skills.chunking

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "skills" / "chunking"
#: Diagnostics of the parsers' own output and patterns, which read the internals on purpose.
INTERNAL_READERS = {ROOT / "bench" / "lone_lines.py", ROOT / "bench" / "superlinear.py"}


def outside_modules() -> Iterator[Path]:
    for folder in (ROOT / "skills", ROOT / "bench"):
        for path in sorted(folder.rglob("*.py")):
            if ENGINE not in path.parents and path not in INTERNAL_READERS:
                yield path
    yield ROOT / "function_app.py"


def engine_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import of an engine module other than the package itself."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            if name.startswith("skills.chunking."):
                yield node.lineno, name


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
