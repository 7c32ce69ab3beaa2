"""The batch time budget: degrade to the fastest strategy, then skip, but always answer in time.

Clocks are fake here: the tests check decisions, never speed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from skilltest_support import MARKDOWN, batch, call_chunk, messages, records

import skills.skill.budget as budget_module
import skills.skill.handler as handler_module
from skills.skill.budget import Plan, TimeBudget


def ticking(step: float) -> Callable[[], float]:
    """A clock that advances ``step`` seconds at every reading (the first reading is 0)."""
    counter = itertools.count()
    return lambda: next(counter) * step


def test_full_strategy_while_the_rest_of_the_batch_fits() -> None:
    budget = TimeBudget(10.0, clock=ticking(0.0))
    budget.measured(chars=1_000_000, seconds=1.0)  # ~1 million chars/s
    assert budget.plan(remaining_chars=5_000_000) is Plan.FULL


def test_fast_strategy_once_the_rest_would_run_past_the_budget() -> None:
    budget = TimeBudget(10.0, clock=ticking(0.0))
    budget.measured(chars=1_000_000, seconds=1.0)
    assert budget.plan(remaining_chars=20_000_000) is Plan.FAST


def test_degrading_is_sticky_for_the_rest_of_the_batch() -> None:
    budget = TimeBudget(10.0, clock=ticking(0.0))
    budget.measured(chars=1_000_000, seconds=1.0)
    assert budget.plan(remaining_chars=20_000_000) is Plan.FAST
    assert budget.plan(remaining_chars=10) is Plan.FAST


def test_skip_once_the_budget_is_spent() -> None:
    budget = TimeBudget(10.0, clock=ticking(6.0))  # readings: 0 (start), 6, 12
    assert budget.plan(remaining_chars=1) is Plan.FULL
    assert budget.plan(remaining_chars=1) is Plan.SKIP


def test_one_slow_record_alone_does_not_degrade_the_batch() -> None:
    budget = TimeBudget(20.0, clock=ticking(0.0))
    budget.measured(chars=5_000, seconds=0.05)  # a cold first record: 100k chars/s
    assert budget.plan(remaining_chars=5_000_000) is Plan.FULL


def test_the_first_record_is_planned_with_the_assumed_speed() -> None:
    budget = TimeBudget(10.0, clock=ticking(0.0))
    fits = int(budget_module.ASSUMED_CHARS_PER_SECOND * 9)
    assert budget.plan(remaining_chars=fits) is Plan.FULL
    assert TimeBudget(10.0, clock=ticking(0.0)).plan(fits * 2) is Plan.FAST


def test_a_batch_that_would_overrun_is_answered_with_the_fast_strategy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(budget_module, "ASSUMED_CHARS_PER_SECOND", 1.0)
    docs = [
        {"text": MARKDOWN, "documentKey": f"d{i}", "strategy": "hierarchical"} for i in range(3)
    ]
    response = call_chunk(batch(*docs))
    out = records(response)
    assert response.status_code == 200
    for record in out.values():
        assert "instead of 'hierarchical'" in messages(record, "warnings")
        assert all(len(parent["children"]) == 1 for parent in record["data"]["parents"])


def test_records_left_when_the_budget_is_spent_get_an_error_not_a_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = ticking(12.0)  # construction 0, first plan 12 (< 20), second plan 24 (>= 20)
    monkeypatch.setattr(handler_module, "TimeBudget", lambda s: TimeBudget(s, clock=clock))
    response = call_chunk(batch({"text": MARKDOWN}, {"text": MARKDOWN}, {"text": MARKDOWN}))
    out = records(response)
    assert response.status_code == 207
    assert out["1"]["errors"] is None
    for record_id in ("2", "3"):
        assert "time budget (20 s)" in messages(out[record_id], "errors")


def test_the_budget_comes_from_the_query_string_then_the_app_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[float] = []

    def spy(seconds: float) -> TimeBudget:
        seen.append(seconds)
        return TimeBudget(seconds)

    monkeypatch.setattr(handler_module, "TimeBudget", spy)
    monkeypatch.setenv("SKILL_TIME_BUDGET_SECONDS", "100")
    call_chunk(batch({"text": "x"}))
    call_chunk(batch({"text": "x"}), params={"timeBudgetSeconds": "200"})
    call_chunk(batch({"text": "x"}), params={"timeBudgetSeconds": "9999"})
    call_chunk(batch({"text": "x"}), params={"timeBudgetSeconds": "soon"})
    assert seen == [100.0, 200.0, 230.0, 100.0]
