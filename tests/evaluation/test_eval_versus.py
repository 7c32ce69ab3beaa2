"""Candidates against the best baseline, on runs small enough to check by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skills.evaluation import report
from skills.evaluation.grid import Candidate
from skills.evaluation.metrics import BUDGETS, QuestionScore
from skills.evaluation.run import CandidateResult
from skills.evaluation.versus import sign_test, versus_best_baseline, versus_table


def score(question: str, rank: int | None, b1000: bool, b2000: bool) -> QuestionScore:
    """Within 500 and 1,000 tokens as ``b1000``, within 2,000 and more as ``b2000``."""
    hits = {budget: b1000 if budget <= 1000 else b2000 for budget in BUDGETS}
    nothing = dict.fromkeys(BUDGETS, False)
    return QuestionScore(question, "prose", rank, hits, {1000: 0.0}, nothing, 0.0, 0.0, 0.0, 0)


def run(
    name: str, baseline: bool, outcomes: list[tuple[int | None, bool, bool]]
) -> CandidateResult:
    scores = [score(f"q{i}", *outcome) for i, outcome in enumerate(outcomes)]
    return CandidateResult(Candidate(name, "fixed", {}, "child", baseline), {}, {}, {}, scores)


def test_the_sign_test_is_exact_and_two_sided() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(1, 0) == 1.0  # one question either way: no evidence
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(0, 5) == sign_test(5, 0)
    assert sign_test(3, 1) == pytest.approx(2 * (1 + 4) / 16)


def test_each_outcome_is_paired_with_the_baseline_best_at_it() -> None:
    # rank, within 1,000 tokens, within 2,000 tokens; per question q0..q3
    weak = run("weak", True, [(None, False, False)] * 4)
    top1 = run(
        "top1", True, [(1, False, False), (1, False, True), (None, False, True), (2, True, True)]
    )
    ours = run(
        "ours", False, [(1, True, True), (None, True, True), (1, True, True), (None, False, False)]
    )
    comparisons = versus_best_baseline([weak, top1, ours])
    by_outcome = {c.outcome: c for c in comparisons["ours"]}
    assert by_outcome["recall@1"].baseline == "top1"
    assert (by_outcome["recall@1"].wins, by_outcome["recall@1"].losses) == (1, 1)  # q2 / q1
    assert by_outcome["hit@B1000"].baseline == "top1"
    assert (by_outcome["hit@B1000"].wins, by_outcome["hit@B1000"].losses) == (3, 1)
    assert (by_outcome["hit@B2000"].wins, by_outcome["hit@B2000"].losses) == (1, 1)
    assert [c.outcome for c in comparisons["ours"]] == [
        "recall@1", "hit@B500", "hit@B1000", "hit@B2000", "hit@B4000", "hit@B8000"
    ]  # fmt: skip
    assert "ours" in versus_table(comparisons) and "top1" in versus_table(comparisons)


def test_a_run_without_baselines_compares_nothing() -> None:
    ours = run("ours", False, [(1, True, True)])
    assert versus_best_baseline([ours]) == {}
    assert versus_table({}) == ""


def test_the_comparisons_are_written_to_results_json(tmp_path: Path) -> None:
    top1 = run("top1", True, [(1, False, False), (None, False, True)])
    ours = run("ours", False, [(1, True, True), (1, True, True)])
    path = tmp_path / "results.json"
    report.write_json([top1, ours], path, {}, versus_best_baseline([top1, ours]))
    versus = json.loads(path.read_text(encoding="utf-8"))["versus"]["ours"]
    assert versus[0] == {
        "outcome": "recall@1",
        "baseline": "top1",
        "wins": 1,
        "losses": 0,
        "pValue": 1.0,
    }
