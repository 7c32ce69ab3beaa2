"""Every template is syntactically valid Bicep, as far as an offline parser can tell.

The Bicep CLI is not installable on the build machines, so tree-sitter-bicep is the syntax gate: it
catches unbalanced braces, missing colons, unterminated strings and misspelt keywords, but not
semantic errors (those are what the structural tests in this folder are for).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from infra_bicep import BicepFile, walk
from infra_paths import INFRA, MAIN, MODULES, bicep_files

EXPECTED_MODULES = {
    "ai-services",
    "function-app",
    "identity",
    "monitoring",
    "openai",
    "rbac",
    "search",
    "storage",
}


def test_the_entry_point_and_every_module_exist() -> None:
    assert MAIN.is_file()
    assert {p.stem for p in MODULES.glob("*.bicep")} == EXPECTED_MODULES


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: str(p.relative_to(INFRA)))
def test_template_parses_without_error_or_missing_nodes(path: Path) -> None:
    doc = BicepFile.load(path)
    assert doc.root.type == "infrastructure"
    assert doc.problems() == []


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("resource s 'Microsoft.Storage/storageAccounts@2024-01-01' = {\n  name: 'x'\n", 1),
        ("param a string\noutput b string = 'unterminated\n", 2),
        ("var x = {\n  name 'missing colon'\n}\n", 2),
        ("outptu x string = 'y'\n", 1),
        ("var y = concat('a', 'b'\n", 1),
    ],
)
def test_the_checker_reports_broken_templates(source: str, line: int) -> None:
    problems = BicepFile.from_text(source).problems()
    assert problems, "a broken template must not pass the syntax gate"
    assert min(p.line for p in problems) <= line + 1


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: str(p.relative_to(INFRA)))
def test_template_avoids_syntax_the_offline_parser_misreads(path: Path) -> None:
    """Spread, `extension` and resourceInput<> parse as errors in tree-sitter-bicep 1.1.0: keeping
    them out keeps the gate meaningful (a false error would be waved through)."""
    doc = BicepFile.load(path)
    text = path.read_text(encoding="utf-8")
    assert "resourceInput<" not in text
    top_level = [n.type for n in doc.root.named_children]
    assert "extension_declaration" not in top_level
    assert not any(n.type == "..." or n.type == "spread_element" for n in walk(doc.root))
