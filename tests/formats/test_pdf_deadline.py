"""A PDF whose time runs out: the pages read are indexed, whichever step the deadline falls in.

The PDF converter reads its pages, then works over the whole document (running headers,
headings, tables). A file read up to its deadline then spent seconds in those steps and was
killed 2 s past the deadline in its worker: the record lost every page. The time here is a
clock the test moves (``_Ticking``), never the wall clock, so the tests say what happens at a
given point of the budget, however busy the machine is.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from format_fixtures import fixture

import skills.formats.pdf.convert as pdf
from skills.formats.conversion import Limits, out_of_time
from skills.formats.pdf.furniture import furniture
from skills.formats.pdf.lines import read_page
from skills.formats.read import read_file

RUNBOOK = "operations-runbook.pdf"  # 12 pages with bookmarks: headings on most pages


class _Ticking(Limits):
    """Limits whose time left is ``budget`` less what the test's ``clock`` says was spent."""

    __slots__ = ("budget", "clock")
    budget: float
    clock: list[float]

    def __init__(self, budget: float, clock: list[float]) -> None:
        super().__init__(deadline=time.monotonic() + 3600)  # what the old code looked at
        object.__setattr__(self, "budget", budget)
        object.__setattr__(self, "clock", clock)

    def left(self) -> float:
        return float(self.budget - self.clock[0])


def _pages(text: str) -> list[str]:
    return text.split("<!-- PageBreak -->")


def test_pages_read_up_to_the_deadline_are_kept_when_a_later_step_is_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The running-header step ends past the deadline: headings and tables are not looked
    for, and every page read is written as read, with a warning that says so."""
    whole = read_file(fixture(RUNBOOK), RUNBOOK, isolated=False)
    clock = [0.0]

    def slow_furniture(pages: Any) -> Any:
        clock[0] = 100.0  # the step ends past the deadline
        return furniture(pages)

    monkeypatch.setattr(pdf, "furniture", slow_furniture)
    late = read_file(fixture(RUNBOOK), RUNBOOK, isolated=False, limits=_Ticking(10, clock))
    assert len(_pages(late.text)) == len(_pages(whole.text)) == 12
    assert not re.findall(r"^#", late.text, re.MULTILINE)
    assert "First response" in late.text and "First response" in whole.text
    assert any(
        "after reading 12 pages: its headings and tables were not recovered" in warning
        for warning in late.warnings
    )


def test_the_page_loop_stops_with_the_time_the_document_steps_need_still_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a page costs one second of an 8-second budget: the loop stops before page 6,
    when what is left (3 s) no longer covers what reading took (5 s, at ``PASSES_SHARE`` 1),
    and the headings of the 5 pages read are found in the time kept for them."""
    clock = [0.0]

    def slow_read(page: Any, index: int) -> Any:
        clock[0] += 1.0
        return read_page(page, index)

    monkeypatch.setattr(pdf, "read_page", slow_read)
    file = read_file(fixture(RUNBOOK), RUNBOOK, isolated=False, limits=_Ticking(8, clock))
    assert len(_pages(file.text)) == 5
    assert file.text.startswith("# Operations runbook: document ingestion")
    assert "## First response" in file.text
    assert file.warnings == (out_of_time("pages", 5, 12),)
