"""The rule catalogues stay true: every function ``docs/chunking.md`` (Markdown, rST, text) and
``docs/code.md`` (source code) say decides a rule exists in the engine, and every test they say
pins one exists in the suite."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "docs" / "chunking.md"
#: Every rules page, and the section of it that holds the rule tables (``None``: the whole page).
PAGES = {CATALOGUE: "## The rules", ROOT / "docs" / "code.md": None}
ENGINE = ROOT / "skills" / "chunking"
TESTS = ROOT / "tests"
CODE = re.compile(r"`([^`]+)`")


def catalogue_rows() -> list[list[str]]:
    """The cells of every rule row (four columns) of the rules pages' tables."""
    rows = []
    for page, section in PAGES.items():
        rows += _rows(page, section)
    return rows


def _rows(page: Path, section: str | None) -> list[list[str]]:
    rules = page.read_text(encoding="utf-8")
    if section is not None:
        rules = rules.split(section, 1)[1].split("\n## ", 1)[0]
    rows = []
    in_rules = False  # inside a table whose header's first cell is "Rule"
    for line in rules.splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) != 4:
            in_rules = False
        elif cells[0] == "Rule":
            in_rules = True
        elif in_rules and not set(cells[0]) <= {"-"}:
            rows.append(cells)
    return rows


def defined_names(folder: Path, prefix: str) -> set[str]:
    pattern = re.compile(rf"^\s*(?:def|class) ({prefix}\w*)", re.MULTILINE)
    return {
        name for path in folder.rglob("*.py") for name in pattern.findall(path.read_text("utf-8"))
    }


def test_the_catalogue_has_rules() -> None:
    assert len(_rows(CATALOGUE, PAGES[CATALOGUE])) >= 30
    assert all(len(_rows(page, section)) >= 5 for page, section in PAGES.items())


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
