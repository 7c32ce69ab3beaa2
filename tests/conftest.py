"""Shared test helpers: where the sample and evaluation documents are."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
SAMPLES = PROJECT / "samples"
DEV_DOCS = PROJECT.parent / "shared" / "eval" / "dev" / "docs"


def real_documents() -> list[Path]:
    """The bundled samples, plus the shared dev set's documents when they are beside the project."""
    paths = sorted(p for p in SAMPLES.iterdir() if p.suffix in {".md", ".txt"})
    if DEV_DOCS.is_dir():
        paths += sorted(DEV_DOCS.rglob("*.md"))
    return paths


@pytest.fixture(scope="session")
def samples_dir() -> Path:
    return SAMPLES
