"""The query and simulate commands print each result for a person: a short id, its heading path,
its score and the start of its passage on one line; the real ids stay in ``--json``."""

from __future__ import annotations

import json

import pytest

from skills.search.cli import _print_results, short_id
from skills.search.collapse import ChildHit, Citation, ParentResult

PARENT_ID = "127_0_0_1_10000_devstoreaccount1_simulation_guide_md-f5d9bbb905-p11370b7104c9d8c74ea"
URL = "http://127.0.0.1:10000/devstoreaccount1/simulation/guide.md"


def result(*ordinals: int) -> ParentResult:
    hits = tuple(
        ChildHit(f"{PARENT_ID}-c{n}", PARENT_ID, 0.03, f"text {n}", 10 * n, 10 * n + 9, n,
                 headings=("Guide", "Errors"), source_path=URL)
        for n in ordinals
    )  # fmt: skip
    citation = Citation(hits[0].chunk_id, "Guide", URL, "key", 10, 19, ("Guide", "Errors"), ())
    passage = "## Errors\n\nErrors use   the problem-details format. " + "More words. " * 30
    return ParentResult(1, PARENT_ID, 0.0312, passage, None, hits, (citation,))


def test_a_result_is_named_by_its_file_and_the_ordinals_of_its_hits() -> None:
    assert short_id(result(4, 2, 5, 6, 9)) == "guide.md#c2,c4-c6,c9"


def test_a_result_is_two_short_lines_without_the_real_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _print_results("What errors?", [result(3, 4)], as_json=False)
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == [
        "? What errors?",
        "1. guide.md#c3,c4  Guide > Errors  (score 0.0312)",
        lines[2],
    ]
    assert lines[2].startswith("   '## Errors Errors use the problem-details format. More words.")
    assert len(lines[2]) < 120 and lines[2].endswith("…'")


def test_verbose_and_json_keep_the_real_parent_id(capsys: pytest.CaptureFixture[str]) -> None:
    _print_results("What errors?", [result(3)], as_json=False, verbose=True)
    assert f"parent {PARENT_ID}" in capsys.readouterr().out
    _print_results("What errors?", [result(3)], as_json=True)
    answer = json.loads(capsys.readouterr().out)
    assert answer["results"][0]["parent_chunk_id"] == PARENT_ID


def test_a_result_shows_the_sentence_that_answers_under_its_own_heading_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A section's start may be another heading's text: the line shown is the matched
    children's sentence that holds the question's rarer words, labelled by its child's path."""
    hits = (
        ChildHit("c1", PARENT_ID, 0.03, "## Pagination\n\nPages hold at most 100 items.", 0, 44, 1,
                 headings=("Guide", "Pagination"), source_path=URL),
        ChildHit("c2", PARENT_ID, 0.03, "## Errors\n\nA stale ETag answers 412. Retry after a GET.",
                 50, 98, 2, headings=("Guide", "Errors"), source_path=URL),
    )  # fmt: skip
    citation = Citation("c1", "Guide", URL, "key", 0, 44, ("Guide", "Pagination"), ())
    answer = ParentResult(1, PARENT_ID, 0.0312, hits[0].text + "\n\n" + hits[1].text, None, hits,
                          (citation,))  # fmt: skip
    _print_results("Which status does a stale ETag answer?", [answer], as_json=False)
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[1] == "1. guide.md#c1,c2  Guide > Errors  (score 0.0312)"
    assert lines[2] == "   'A stale ETag answers 412.'"
