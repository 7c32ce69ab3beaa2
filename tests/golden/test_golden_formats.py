"""Golden conversions: the Markdown each file fixture becomes, kept as reviewed files, so that a
change to a converter (or an upgrade of the library under it) shows as a diff of Markdown.

    PYTHONPATH=. .venv/bin/python -m pytest tests/golden --update-golden
    git diff tests/golden/converted
"""

from __future__ import annotations

import json

import pytest
from test_golden import HERE, ROOT, compare

from skills.formats.read import read_file

FIXTURES = ROOT / "tests" / "formats" / "fixtures"
CONVERTED = sorted(
    path.name for path in FIXTURES.iterdir() if path.name not in {"locked.pdf", "scanned.pdf"}
)


@pytest.fixture
def update(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def test_every_converted_golden_file_has_a_fixture() -> None:
    present = {path.name for path in (HERE / "converted").iterdir()}
    assert present == {f"{name}.md" for name in CONVERTED}


@pytest.mark.parametrize("name", CONVERTED)
def test_converted_markdown_matches_the_golden_file(name: str, update: bool) -> None:
    file = read_file((FIXTURES / name).read_bytes(), name)
    header = json.dumps({"title": file.title, "warnings": list(file.warnings)}) + "\n"
    compare(HERE / "converted" / f"{name}.md", header + file.text, update)
