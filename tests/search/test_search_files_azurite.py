"""The ``files`` pipeline end to end: a container of mixed files in Azurite, the simulated
indexer handing each file itself to the skill, the local index, and a question per file.

Needs Azurite as test_search_simulation_azurite.py does (skips without it, except in CI).
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from search_fixtures import require_azurite

from skills.embeddings import LOCAL_MODEL_NAME, CachedEmbedder, LocalMiniLMEmbedder
from skills.search.local_run import LocalRun, simulate, skill_server
from skills.search.query import QueryOptions, query_parents
from skills.search.simulation import SimulationError

PORT = require_azurite()

FIXTURES = Path(__file__).resolve().parents[1] / "formats" / "fixtures"
FILES = [
    FIXTURES / name
    for name in (
        "operations-runbook.pdf",
        "widget-api-guide.docx",
        "meeting-notes.pptx",
        "lease-equipment.xlsx",
        "sync-agent-reference.html",
    )
]
QUESTIONS = [
    # (question, the file whose text answers it, words of the answer in that file's text)
    ("What is the first action for error code E1056?", "operations-runbook.pdf", "Drain the node"),
    ("How do I authenticate to the Widget API?", "widget-api-guide.docx", "bearer token"),
    ("Which team moves first in the storage migration?", "meeting-notes.pptx", "legal team"),
    ("serial number of the laser cutter", "lease-equipment.xlsx", "NW-LC-7741"),
    ("How do I install the sync agent in a virtual environment?", "sync-agent-reference.html",
     "pip install sync-agent"),
]  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> LocalRun:
    cache = tmp_path_factory.mktemp("embeddings")
    embedder = CachedEmbedder(LocalMiniLMEmbedder(), model=LOCAL_MODEL_NAME, directory=cache)
    with skill_server() as url:
        return simulate(
            "files",
            FILES,
            skill_uri=url,
            embedder=embedder,
            container=f"files-{uuid.uuid4().hex[:12]}",
        )


def test_every_file_is_indexed_whole_without_failure(run: LocalRun) -> None:
    assert run.result.failures == {}
    children = run.result.documents[run.children_index]
    assert {child["title"] for child in children} == {path.name for path in FILES}
    pdf_pages = {p for c in children if c["title"].endswith(".pdf") for p in c["pages"]}
    assert pdf_pages == set(range(1, max(pdf_pages) + 1)) and max(pdf_pages) > 3


def test_the_indexer_hands_the_skill_the_file_itself(run: LocalRun) -> None:
    web = run.definitions.skillset["skills"][0]
    assert {"name": "file_data", "source": "/document/file_data"} in web["inputs"]
    assert run.definitions.indexer["parameters"]["configuration"]["parsingMode"] == "default"


@pytest.mark.parametrize(("question", "expected", "answer"), QUESTIONS)
def test_a_question_on_each_file_finds_it_first(
    run: LocalRun, question: str, expected: str, answer: str
) -> None:
    results = query_parents(
        run.searcher, question, children_index=run.children_index,
        parents_index=run.parents_index, options=QueryOptions(mode="files", parents=3),
    )  # fmt: skip
    assert results and results[0].citations[0].title == expected
    assert answer in results[0].passage


def test_the_layout_definitions_are_not_simulated_but_refused_clearly() -> None:
    from skills.search.settings import SearchSettings
    from skills.search.simulation import run_indexer
    from skills.search.templates import render

    definitions = render("layout", SearchSettings(dimensions=8))
    with pytest.raises(SimulationError, match="DocumentIntelligenceLayoutSkill"):
        run_indexer(definitions, [], embedder=None)  # type: ignore[arg-type]
