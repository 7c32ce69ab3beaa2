"""Imports point down the house, never up: the engine imports nothing of the project but itself;
the file formats only the engine; the model calls only the engine and the embedders; the skill
nothing of the search side, the evaluation or the local tools. A module that needs something from
a floor above has it handed in instead (as the engine takes a ``BoundaryModel``), or the thing
moves down.

The floors, bottom up: the engine (``skills.chunking``); the formats (``skills.formats``) and the
model calls (``skills.llm``); the skill (``skills.skill``); the search side (``skills.search``,
whose field contract names what the skill sends); the evaluation (``skills.evaluation``); the
tools (``skills.local``, ``bench``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKILLS = ROOT / "skills"


def _within(*packages: str) -> Callable[[str], bool]:
    return lambda module: any(module == p or module.startswith(p + ".") for p in packages)


def _outside(*packages: str) -> Callable[[str], bool]:
    inside = _within(*packages)
    return lambda module: not inside(module)


#: folder -> which imports of the project (``skills`` and its modules) it may make.
RULES: dict[str, Callable[[str], bool]] = {
    "chunking": _within("skills.chunking"),
    "formats": _within("skills.formats", "skills.chunking"),
    "llm": _within("skills.llm", "skills.chunking", "skills.embeddings"),
    "skill": _outside("skills.search", "skills.evaluation", "skills.local"),
}


def project_imports(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """(line, module) of every import of the project's own modules in ``path``, a module of
    ``package``, those inside functions too; a relative import is read as the absolute module it
    names."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name == "skills" or name.startswith("skills."):
                yield node.lineno, name


def upward_imports(folder: Path, allowed: Callable[[str], bool]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(folder.rglob("*.py"))
        for line, module in project_imports(path, _package_of(path))
        if not allowed(module)
    ]


def _package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parent.parts)


def test_no_import_points_up() -> None:
    found = [
        line for name, allowed in RULES.items() for line in upward_imports(SKILLS / name, allowed)
    ]
    assert not found, "imports that point up the house:\n" + "\n".join(found)


#: The packer and what it is made of know no markup: what they need of a parsed text comes from
#: the outline (``Outline.readable``, ``Outline.whole_sections``).
PACKER = ("pack.py", "finer.py", "tidy.py", "piece.py")


def test_the_packer_imports_no_parser() -> None:
    found = [
        f"{name}:{line} imports {module}"
        for name in PACKER
        for line, module in project_imports(SKILLS / "chunking" / name, "skills.chunking")
        if _within("skills.chunking.markup")(module)
    ]
    assert not found, "the packer reads the outline, not a parser:\n" + "\n".join(found)


def test_every_rule_names_a_folder_that_exists() -> None:
    assert all((SKILLS / name / "__init__.py").is_file() for name in RULES)


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The rule can fail: planted imports that point up are found, relative ones too."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "import skills.formats.read\n"
        "from skills.chunking import chunk_document\n"
        "def later():\n    from ..skill import handler\n",
        encoding="utf-8",
    )
    found = project_imports(planted, "skills.chunking")
    upward = [module for _, module in found if not RULES["chunking"](module)]
    assert upward == ["skills.formats.read", "skills.skill"]
