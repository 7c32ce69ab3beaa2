"""The local end-to-end run: samples in Azurite, the simulated indexer, the local embedder, queries.

Needs Azurite's blob service on 127.0.0.1:$AZURITE_BLOB_PORT (scripts/test.sh starts it). Without
it the tests skip and say so, except in CI, where a missing Azurite is a failure.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator

import pytest
from search_fixtures import SAMPLES, require_azurite

from skills.embeddings import LOCAL_MODEL_NAME, CachedEmbedder, LocalMiniLMEmbedder
from skills.search.collapse import Expand
from skills.search.local_run import LocalRun, simulate, skill_server
from skills.search.query import QueryOptions, query_parents
from skills.search.settings import Mode

PORT = require_azurite()


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> CachedEmbedder:
    cache = tmp_path_factory.mktemp("embeddings")
    return CachedEmbedder(LocalMiniLMEmbedder(), model=LOCAL_MODEL_NAME, directory=cache)


@pytest.fixture(scope="module")
def skill_url() -> Iterator[str]:
    with skill_server() as url:
        yield url


@pytest.fixture(scope="module")
def runs(skill_url: str, embedder: CachedEmbedder) -> dict[Mode, LocalRun]:
    container = f"e2e-{uuid.uuid4().hex[:12]}"
    return {
        mode: simulate(mode, SAMPLES, skill_uri=skill_url, embedder=embedder, container=container)
        for mode in ("embedded", "reference")
    }


def _contents() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in SAMPLES}


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_every_sample_is_indexed_without_failure(mode: Mode, runs: dict[Mode, LocalRun]) -> None:
    run = runs[mode]
    assert run.result.failures == {}
    assert run.result.warnings == {}  # e.g. a time-budget fallback to another strategy
    titles = {doc["title"] for doc in run.result.documents[run.children_index]}
    assert titles == {path.name for path in SAMPLES}


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_children_cite_the_exact_source_text(mode: Mode, runs: dict[Mode, LocalRun]) -> None:
    contents = _contents()
    for child in runs[mode].result.documents[runs[mode].children_index]:
        assert contents[child["title"]][child["start"] : child["end"]] == child["text"]
        assert len(child["vector"]) == 384


def test_embedded_children_carry_their_parents_exact_text(runs: dict[Mode, LocalRun]) -> None:
    contents = _contents()
    run = runs["embedded"]
    for child in run.result.documents[run.children_index]:
        source = contents[child["title"]]
        assert source[child["parentStart"] : child["parentEnd"]] == child["parentText"]
        assert child["parentStart"] <= child["start"] < child["end"] <= child["parentEnd"]


def test_reference_mode_holds_each_parent_once_and_every_child_finds_it(
    runs: dict[Mode, LocalRun],
) -> None:
    run = runs["reference"]
    assert run.parents_index is not None
    parents = run.result.documents[run.parents_index]
    ids = [parent["parentChunkId"] for parent in parents]
    assert len(ids) == len(set(ids))
    children = run.result.documents[run.children_index]
    assert {child["parentChunkId"] for child in children} <= set(ids)
    contents = _contents()
    for parent in parents:
        assert contents[parent["title"]][parent["start"] : parent["end"]] == parent["text"]


def test_both_modes_project_the_same_children(runs: dict[Mode, LocalRun]) -> None:
    def chunk_ids(mode: Mode) -> list[str]:
        run = runs[mode]
        return sorted(child["chunkId"] for child in run.result.documents[run.children_index])

    assert chunk_ids("embedded") == chunk_ids("reference")


def test_reindexing_the_same_blobs_gives_the_same_chunk_ids(
    skill_url: str, embedder: CachedEmbedder, runs: dict[Mode, LocalRun]
) -> None:
    run = runs["embedded"]
    container = run.definitions.data_source["container"]["name"]
    again = simulate("embedded", SAMPLES, skill_uri=skill_url, embedder=embedder,
                     container=container)  # fmt: skip
    first = run.result.documents[run.children_index]
    second = again.result.documents[again.children_index]
    assert [c["chunkId"] for c in first] == [c["chunkId"] for c in second]
    assert [c["id"] for c in first] == [c["id"] for c in second]


QUESTIONS = [
    # (question, the sample file whose text answers it: checked below against the file itself)
    ("How do I authenticate to the Widget API?", "widget-api-guide.md"),
    ("storage migration by department legal team archive", "meeting-notes.txt"),
]


@pytest.mark.parametrize("mode", ["embedded", "reference"])
@pytest.mark.parametrize(("question", "expected"), QUESTIONS)
def test_query_finds_the_answering_document_first(
    mode: Mode, question: str, expected: str, runs: dict[Mode, LocalRun]
) -> None:
    assert expected in {path.name for path in SAMPLES}
    run = runs[mode]
    results = query_parents(
        run.searcher, question, children_index=run.children_index,
        parents_index=run.parents_index, options=QueryOptions(mode=mode, parents=3),
    )  # fmt: skip
    assert results, "no results"
    assert results[0].citations[0].title == expected
    ids = [result.parent_chunk_id for result in results]
    assert len(ids) == len(set(ids)) <= 3
    contents = _contents()
    for result in results:
        assert result.parent is not None
        document = contents[result.parent.title or ""]
        if result.rank == 1:  # the first result brings its whole parent (Expand.TOP_PARENT)
            assert result.passage == document[result.parent.start : result.parent.end]
        else:  # the others the document's slices of their matched children
            for child in result.children:
                assert result.parent.start <= child.start < child.end <= result.parent.end
                assert document[child.start : child.end] in result.passage


def test_reference_query_fetches_parents_with_one_search_in_filter(
    runs: dict[Mode, LocalRun],
) -> None:
    run = runs["reference"]
    run.searcher.requests.clear()
    query_parents(
        run.searcher, QUESTIONS[0][0], children_index=run.children_index,
        parents_index=run.parents_index, options=QueryOptions(mode="reference", parents=3),
    )  # fmt: skip
    lookups = [r for r in run.searcher.requests if r.index == run.parents_index]
    assert len(lookups) == 1
    assert (lookups[0].filter or "").startswith("search.in(parentChunkId, '")


@pytest.mark.parametrize("expand", [Expand.CHILDREN, Expand.NEIGHBOURS])
def test_narrower_expansions_return_text_inside_the_parent(
    expand: Expand, runs: dict[Mode, LocalRun]
) -> None:
    run = runs["reference"]
    results = query_parents(
        run.searcher, QUESTIONS[0][0], children_index=run.children_index,
        parents_index=run.parents_index,
        options=QueryOptions(mode="reference", parents=3, expand=expand),
    )  # fmt: skip
    for result in results:
        assert result.parent is not None
        for piece in result.passage.split("\n\n"):
            assert piece in result.parent.text


def test_simulate_command_indexes_the_samples_and_answers_as_json(
    skill_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from skills.search.cli import main

    monkeypatch.setenv("SKILLS_EMBEDDING_CACHE", str(tmp_path_factory.mktemp("cli-cache")))
    argv = ["simulate", "--mode", "reference", "--skill-url", skill_url, "--top", "2",
            "--container", f"cli-{uuid.uuid4().hex[:12]}", "--json",
            "--query", QUESTIONS[0][0]]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "SIMULATION" in captured.err
    answer = json.loads(captured.out.strip().splitlines()[-1])
    assert answer["question"] == QUESTIONS[0][0]
    assert 1 <= len(answer["results"]) <= 2
    assert answer["results"][0]["citations"][0]["title"] == QUESTIONS[0][1]


@pytest.mark.parametrize("mode", ["embedded", "reference"])
def test_a_budget_query_sends_prefixed_passages_at_exact_offsets_within_the_budget(
    runs: dict[Mode, LocalRun], mode: Mode
) -> None:
    from skills.chunking import count_tokens

    run = runs[mode]
    results = query_parents(
        run.searcher, QUESTIONS[0][0], children_index=run.children_index,
        parents_index=run.parents_index, options=QueryOptions(mode=mode, budget=600),
    )  # fmt: skip
    passages = [passage for result in results for passage in result.passages]
    assert passages and sum(count_tokens(p.rendered) for p in passages) <= 600
    # the first section starts at its own H1 and has no prefix; the later ones have their path
    assert any(p.prefix.startswith("Widget Service API guide") for p in passages[1:])
    contents = _contents()
    for result in results:
        document = contents[result.citations[0].title or ""]
        assert all(document[p.start : p.end] == p.text for p in result.passages)


#: What answers each question the demo asks of the samples (scripts/demo.sh, step 2): the file and
#: the heading under which the answer stands, as a person reading the samples finds them.
DEMO_ANSWERS = {
    "How do I authenticate to the Widget API?": ("widget-api-guide.md", "Authentication"),
    "What is the first action for error code E1014?": ("operations-runbook.md", "Error codes"),
    "Who pays for insurance of the leased equipment?": ("scanned-lease.md", "4. Insurance"),
}


def _demo_questions() -> list[str]:
    script = (SAMPLES[0].parents[1] / "scripts" / "demo.sh").read_text(encoding="utf-8")
    step = script.split("simulate --mode reference", 1)[1].split("\necho", 1)[0]
    return re.findall(r'--query "([^"]+)"', step)


def test_every_question_of_the_demo_has_its_answer_written_down() -> None:
    assert sorted(_demo_questions()) == sorted(DEMO_ANSWERS)


@pytest.mark.parametrize("question", list(DEMO_ANSWERS))
def test_the_demo_answers_with_the_right_section_first(
    question: str, runs: dict[Mode, LocalRun]
) -> None:
    from skills.search.cli import answering_sentence, short_id

    run = runs["reference"]
    first = query_parents(
        run.searcher, question, children_index=run.children_index,
        parents_index=run.parents_index, options=QueryOptions(mode="reference"),
    )[0]  # fmt: skip
    document, section = DEMO_ANSWERS[question]
    headings, _ = answering_sentence(question, first.children)
    assert short_id(first).startswith(f"{document}#") and section in headings
