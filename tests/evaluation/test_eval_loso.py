"""Leave one set out: a default is picked without the set it is checked on."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from skills.evaluation import loso
from skills.evaluation.metrics import BUDGETS


def result(name: str, hit: list[bool], baseline: bool = False) -> dict[str, Any]:
    questions = [
        {"id": f"q{i}", **{f"hitB{b}": flag for b in BUDGETS}} for i, flag in enumerate(hit)
    ]
    return {"name": name, "baseline": baseline, "questions": questions, "structure": {}}


def run(name: str, a: list[bool], b: list[bool], base: list[bool]) -> dict[str, Any]:
    results = [result("A", a), result("B", b), result("base", base, baseline=True)]
    return {"set": name, "results": results}


RUNS = [
    run("one", [True, True, True, False], [True, False, False, False], [True, False, False, False]),
    run("two", [True, True, True, False], [True, True, False, False], [True, True, False, False]),
    run(
        "three", [False, False, False, False], [True, True, True, True], [True, True, False, False]
    ),
]


def test_each_rotation_picks_on_the_other_sets_only() -> None:
    # Without one: A hits 3 + 0, B 2 + 4 on two and three; without three: A 3 + 3, B 1 + 2.
    table = loso.rotations(RUNS, ["A", "B"])
    assert [(row.left_out, row.picked) for row in table] == [
        ("one", "B"),
        ("two", "B"),
        ("three", "A"),
    ]


def test_the_left_out_set_is_scored_against_its_own_best_baseline() -> None:
    three = loso.rotations(RUNS, ["A", "B"])[2]
    assert three.picked == "A"
    assert (three.outcomes[1000].wins, three.outcomes[1000].losses) == (0, 2)
    assert three.outcomes[1000].difference == -50.0


def test_a_tie_goes_to_the_candidate_listed_first() -> None:
    same = [run("s", [True, False], [False, True], [False, False])]
    assert loso.pick(same, ["B", "A"], [1000]) == "B"
    assert loso.pick(same, ["A", "B"], [1000]) == "A"


def test_the_interval_holds_the_difference_and_narrows_with_more_questions() -> None:
    small, large = loso.paired(6, 2, 40), loso.paired(60, 20, 400)
    assert small.interval[0] < small.difference < small.interval[1]
    assert large.interval[1] - large.interval[0] < small.interval[1] - small.interval[0]
    assert (small + large).questions == 440


def test_the_per_set_table_gives_rates_difference_and_a_pooled_row() -> None:
    text = loso.per_set_table(RUNS, "A", report_at=(1000,))
    assert "| one | 4 | 75.0 vs 25.0: +50.0" in text
    assert text.splitlines()[-1].startswith("| pooled | 12 |")


def test_a_pair_is_compared_question_by_question_per_set_and_pooled() -> None:
    runs = copy.deepcopy(RUNS)
    for one in runs:
        for result in one["results"]:
            for question in result["questions"]:
                question["rank"] = 1 if question["hitB1000"] else 5
    text = loso.pair_table(runs, "A", "B")
    assert "| one | +2 -0 | +2 -0 |" in text
    assert "| three | +0 -4 | +0 -4 |" in text
    assert text.splitlines()[-1].startswith("| pooled | +3 -4 (p 1.00) |")


def test_the_per_set_table_can_pair_the_default_with_one_named_candidate() -> None:
    text = loso.per_set_table(RUNS, "A", report_at=(1000,), against="B")
    assert "| one | 4 | 75.0 vs 25.0: +50.0" in text
    assert "| three | 4 | 0.0 vs 100.0: -100.0" in text


def test_the_command_picks_on_the_budgets_it_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A holds the answer within 4,000 tokens only, B within 1,000 and 2,000 only: the default
    choice (B1000 + B2000) picks B, ``--choose-on 4000`` picks A, a budget no run has is refused."""

    def budgets(name: str, within: set[int]) -> dict[str, Any]:
        flags = {f"hitB{b}": b in within for b in BUDGETS}
        return {"name": name, "baseline": False, "questions": [{"id": "q", **flags}],
                "structure": {}}  # fmt: skip

    for name in ("one", "two"):
        folder = tmp_path / f"hybrid-{name}"
        folder.mkdir()
        results = [budgets("A", {4000}), budgets("B", {1000, 2000}),
                   {**budgets("base", set()), "baseline": True}]  # fmt: skip
        (folder / "results.json").write_text(json.dumps({"results": results}), encoding="utf-8")
    folders = [str(tmp_path / "hybrid-one"), str(tmp_path / "hybrid-two")]

    def picked(*extra: str) -> set[str]:
        assert loso.main([*folders, "--candidates", "A", "B", *extra]) == 0
        rows = capsys.readouterr().out.split("\n")
        return {row.split(" | ")[1] for row in rows if row.startswith(("| one", "| two"))}

    assert picked() == {"B"}
    assert picked("--choose-on", "4000") == {"A"}
    with pytest.raises(SystemExit):
        loso.main([*folders, "--candidates", "A", "--choose-on", "3000"])
