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
from pdf_maker import Prose, Spec, make_pdf, with_title

import skills.formats.pdf.convert as pdf
import skills.formats.pdf.headings.typography as typography
import skills.formats.pdf.tables as pdf_tables
from skills.formats.conversion import Limits, out_of_time
from skills.formats.pdf.furniture import furniture
from skills.formats.pdf.headings.candidates import find_candidates
from skills.formats.pdf.lines import FaceWeights, read_page
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

    def slow_read(page: Any, index: int, faces: FaceWeights) -> Any:
        clock[0] += 1.0
        return read_page(page, index, faces)

    monkeypatch.setattr(pdf, "read_page", slow_read)
    file = read_file(fixture(RUNBOOK), RUNBOOK, isolated=False, limits=_Ticking(8, clock))
    assert len(_pages(file.text)) == 5
    assert file.text.startswith("# Operations runbook: document ingestion")
    assert "## First response" in file.text
    assert file.warnings == (out_of_time("pages", 5, 12),)


def _chapters() -> bytes:
    """Three pages without bookmarks, each a 16 pt bold chapter title over prose and a table of
    three columns: headings from typography, tables from the pages."""
    prose = Prose(["ox", "ul"], ("Times-Roman", 10))
    pages: list[list[Spec]] = []
    for number, name in enumerate(["Scope", "Design", "Limits"], start=1):
        rows: list[Spec] = [(f"r{number}x{k}\tv{k}\tw{k}", "Helvetica", 10) for k in range(6)]
        before = [line for _ in range(number) for line in prose.paragraph()]
        title: Spec = (name, "Helvetica-Bold", 16)
        pages.append([*before, title, *prose.paragraph(), *rows, *prose.paragraph()])
    return make_pdf(pages)


def test_the_deadline_inside_the_heading_step_keeps_the_pages_without_headings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The candidates' step ends past the deadline: the steps after it in the heading pipeline
    are not run (a hostile file's thousands of candidates made one of them run for minutes),
    the pages are written as read, without headings or tables, with the warning."""
    data = _chapters()
    whole = read_file(data, "chapters.pdf", isolated=False)
    assert re.findall(r"^# .*$", whole.text, re.MULTILINE) == [
        "# Scope",
        "# Design",
        "# Limits",
    ]
    clock = [0.0]

    def slow_candidates(*args: Any) -> Any:
        clock[0] = 100.0
        return find_candidates(*args)

    monkeypatch.setattr(typography, "find_candidates", slow_candidates)
    late = read_file(data, "chapters.pdf", isolated=False, limits=_Ticking(10, clock))
    assert not re.findall(r"^#", late.text, re.MULTILINE)
    assert len(_pages(late.text)) == 3 and "r3x5" in late.text
    assert any(
        "after reading 3 pages: its headings and tables were not recovered" in warning
        for warning in late.warnings
    )


def test_the_deadline_inside_the_heading_step_keeps_the_metadata_title(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The title is found in the heading step, weighed against the first page: when the
    deadline falls inside it, the metadata's title stays (it was dropped with the headings)."""
    data = with_title(_chapters(), "Chapters of the guide")
    clock = [0.0]

    def slow_candidates(*args: Any) -> Any:
        clock[0] = 100.0
        return find_candidates(*args)

    monkeypatch.setattr(typography, "find_candidates", slow_candidates)
    late = read_file(data, "chapters.pdf", isolated=False, limits=_Ticking(10, clock))
    assert late.title == "Chapters of the guide"
    assert not re.findall(r"^#", late.text, re.MULTILINE)
    skipped = read_file(with_title(_chapters(), "Untitled"), "c.pdf", isolated=False,
                        limits=_Ticking(10, clock))  # fmt: skip
    assert skipped.title is None  # (a producer's default is no title, late or not)


def test_the_deadline_inside_the_table_step_keeps_the_pages_and_their_headings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first page's tables end past the deadline: the other pages' are not looked for;
    the headings found before stay."""
    data = _chapters()
    whole = read_file(data, "chapters.pdf", isolated=False)
    assert "| r3x0 | v0 | w0 |" in whole.text
    clock = [0.0]

    first_tables = pdf_tables.tables

    def slow_tables(*args: Any) -> Any:
        clock[0] = 100.0
        return first_tables(*args)

    monkeypatch.setattr(pdf_tables, "tables", slow_tables)
    late = read_file(data, "chapters.pdf", isolated=False, limits=_Ticking(10, clock))
    assert "# Limits" in late.text and "r3x5" in late.text
    assert "| r3x0 | v0 | w0 |" not in late.text
    assert any("its tables were not recovered" in warning for warning in late.warnings)
