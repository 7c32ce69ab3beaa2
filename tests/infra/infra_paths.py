"""Where the infra tests find the templates, so every test file agrees on it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from infra_bicep import BicepFile

ROOT = Path(__file__).resolve().parents[2]
INFRA = ROOT / "infra"
MAIN = INFRA / "main.bicep"
MODULES = INFRA / "modules"
PARAMETERS = INFRA / "main.parameters.json"
AZURE_YAML = ROOT / "azure.yaml"


def bicep_files() -> list[Path]:
    """Every template under infra/, sorted so test ids are stable."""
    return sorted(INFRA.rglob("*.bicep"))


@cache
def load(path: Path) -> BicepFile:
    """Parse once per test session; the tests only read the result."""
    return BicepFile.load(path)


def module(name: str) -> BicepFile:
    return load(MODULES / f"{name}.bicep")
