"""Pooling runs sums each set's won and lost questions before the sign test."""

from __future__ import annotations

from typing import Any

from skills.evaluation.metrics import BUDGETS
from skills.evaluation.pool import pooled


def candidate(name: str, baseline: bool, top1: list[bool]) -> dict[str, Any]:
    questions = [
        {"id": f"q{i}", "rank": 1 if hit else None, **{f"hitB{b}": hit for b in BUDGETS}}
        for i, hit in enumerate(top1)
    ]
    return {"name": name, "baseline": baseline, "questions": questions}


def test_each_set_is_paired_with_its_own_best_baseline_and_the_sums_are_tested() -> None:
    first = {"results": [candidate("base", True, [True, False, False]),
                         candidate("ours", False, [True, True, True])]}  # fmt: skip
    second = {"results": [candidate("other", True, [False, False, True]),
                          candidate("base", True, [False, False, False]),
                          candidate("ours", False, [True, True, True])]}  # fmt: skip
    # first: ours +2 -0 against "base"; second: +2 -0 against "other" (its best), not "base"
    assert pooled([first, second], "ours")[0] == "+4 -0, p 0.12"
    assert pooled([first, second], "base", against="ours")[0] == "+0 -5, p 0.06"  # 2 + 3
