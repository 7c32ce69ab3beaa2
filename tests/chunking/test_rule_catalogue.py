"""The rule catalogue in ``docs/chunking.md`` stays true: every function it says decides a rule
exists in the engine, and every test it says pins one exists in the suite."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "docs" / "chunking.md"
ENGINE = ROOT / "skills" / "chunking"
TESTS = ROOT / "tests"
CODE = re.compile(r"`([^`]+)`")


def catalogue_rows() -> list[list[str]]:
    """The cells of every rule row (four columns) of the catalogue's tables."""
    rules = CATALOGUE.read_text(encoding="utf-8").split("## The rules", 1)[1]
    rules = rules.split("\n## ", 1)[0]
    rows = []
    for line in rules.splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 4 and cells[0] != "Rule" and not set(cells[0]) <= {"-"}:
            rows.append(cells)
    return rows


def defined_names(folder: Path, prefix: str) -> set[str]:
    pattern = re.compile(rf"^\s*(?:def|class) ({prefix}\w*)", re.MULTILINE)
    return {
        name for path in folder.rglob("*.py") for name in pattern.findall(path.read_text("utf-8"))
    }


def test_the_catalogue_has_rules() -> None:
    assert len(catalogue_rows()) >= 30


def test_every_deciding_function_exists_in_the_engine() -> None:
    names = defined_names(ENGINE, "")
    modules = {path.stem for path in ENGINE.rglob("*.py")} | {"outline"}
    missing = []
    for row in catalogue_rows():
        for ref in CODE.findall(row[2]):
            last = ref.split(".")[-1].removesuffix(".py")
            if last not in names and last not in modules:
                missing.append(ref)
    assert not missing, f"the catalogue names functions the engine does not define: {missing}"


def test_every_pinning_test_exists() -> None:
    names = defined_names(TESTS, "test_")
    files = {path.name for path in TESTS.rglob("test_*.py")}
    missing = []
    for row in catalogue_rows():
        for ref in CODE.findall(row[3]):
            name = ref.split("::")[-1]
            known = Path(name).name in files if name.endswith(".py") else name in names
            if not known:
                missing.append(ref)
    assert not missing, f"the catalogue names tests that do not exist: {missing}"
