"""A file is converted in a worker process: what it does there costs its own record only.

Each case starts its own small pool (``Workers``), so a worker killed here is never one that
another test uses. The heavy file is a PDF page of 2 million path operations
(``bench/hostile_files.py``): PDFium parses it in one native call of about 3 s that no deadline
check can interrupt, its resident set peaks about 0.5 GB above the worker's, and it converts
without error when nothing stops it.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from format_fixtures import fixture

from bench.hostile_files import one_page_pdf, path_operations
from skills.formats import isolation, read
from skills.formats.conversion import ConversionError, Limits
from skills.formats.isolation import Unavailable, Workers
from skills.formats.read import read_file
from skills.formats.registry import by_format

HEAVY = one_page_pdf(path_operations(2_000_000))
MB = 2**20
FILES = {
    "operations-runbook.pdf": "pdf",
    "widget-api-guide.docx": "docx",
    "widget-api-guide.pptx": "pptx",
    "lease-equipment.xlsx": "xlsx",
    "widget-api-guide.html": "html",
}


@pytest.fixture
def workers() -> Iterator[Workers]:
    pool = Workers(size=1)
    yield pool
    pool.close()


def busy_worker(pool: Workers) -> isolation._Worker:
    """The pool's one worker, started by converting a small file."""
    pool.convert("html", b"<p>warm</p>", Limits())
    (worker,) = pool._idle
    return worker


def gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists()


def test_a_file_converts_in_a_worker_as_it_does_in_the_process(workers: Workers) -> None:
    for name, format_name in FILES.items():
        fmt = by_format(format_name)
        assert fmt is not None and fmt.converter is not None
        data = fixture(name)
        assert workers.convert(format_name, data, Limits()) == fmt.converter(data, Limits())
    assert workers.started == 1, "one worker converted them all, one after the other"


def test_a_refused_file_is_its_error_and_the_worker_goes_on(workers: Workers) -> None:
    with pytest.raises(ConversionError, match="encrypted with a password"):
        workers.convert("pdf", fixture("locked.pdf"), Limits())
    assert workers.convert("pdf", fixture("operations-runbook.pdf"), Limits()).text
    assert workers.started == 1


def test_a_converter_that_crashes_fails_its_file_and_the_next_file_converts(
    workers: Workers,
) -> None:
    """A segfault in the worker (sent to it here mid-parse, as PDFium's own would arrive) is the
    file's error; in the skill's process it would have ended every record in flight."""
    worker = busy_worker(workers)
    crash = threading.Timer(0.5, os.kill, (worker.process.pid, signal.SIGSEGV))
    crash.start()
    with pytest.raises(ConversionError, match=r"converter stopped \(signal SIGSEGV\)"):
        workers.convert("pdf", HEAVY, Limits())
    crash.join()
    assert workers.convert("pdf", fixture("operations-runbook.pdf"), Limits()).text
    assert workers.started == 2, "the crashed worker was replaced"


def test_a_file_that_needs_more_memory_than_a_file_may_take_fails_alone() -> None:
    """Under a 150 MB allowance PDFium cannot parse the page (it aborts, in the worker); the
    next file converts in a new worker."""
    pool = Workers(size=1, memory_bytes=150 * MB)
    try:
        with pytest.raises(ConversionError, match=r"converter stopped.*150 MB"):
            pool.convert("pdf", HEAVY, Limits())
        assert pool.convert("pdf", fixture("operations-runbook.pdf"), Limits()).text
    finally:
        pool.close()


def test_a_conversion_past_its_deadline_is_killed_and_its_memory_freed(
    workers: Workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline passes while the page is parsed (the converter checks it before each page,
    not inside PDFium), and the parse is still running when the grace after it ends: the worker
    is killed, so the ~0.5 GB it was taking is the system's again, not the skill's."""
    monkeypatch.setattr(isolation, "KILL_GRACE_SECONDS", 0.3)
    worker = busy_worker(workers)
    start = worker.resident_bytes()
    assert start is not None
    peak = [start]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            peak[0] = max(peak[0], worker.resident_bytes() or 0)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with pytest.raises(ConversionError, match=r"still being converted .* and was stopped"):
            workers.convert("pdf", HEAVY, Limits(deadline=time.monotonic() + 1.0))
    finally:
        done.set()
        watcher.join()
    assert peak[0] - start > 50 * MB, "the parse had taken memory when it was stopped"
    assert gone(worker.process.pid), "the killed worker's memory went back to the system"
    assert workers.convert("pdf", fixture("operations-runbook.pdf"), Limits()).text


def test_a_worker_left_larger_than_its_bound_is_retired() -> None:
    """Retired means stopped and reaped, and replaced at once by a new worker that waits for
    the next file."""
    keeps = Workers(size=1)
    retires = Workers(size=1, recycle_above_bytes=1)
    try:
        for pool in (keeps, retires):
            for _ in range(2):
                pool.convert("pdf", fixture("operations-runbook.pdf"), Limits())
        assert keeps.started == 1 and len(keeps._idle) == 1
        first = retires._idle[0].process.pid
        retires.convert("pdf", fixture("operations-runbook.pdf"), Limits())
        assert gone(first) and retires._idle[0].process.pid != first
        assert retires.started == 4 and len(retires._idle) == 1
    finally:
        keeps.close()
        retires.close()


def test_a_file_waits_for_a_worker_no_longer_than_its_deadline(workers: Workers) -> None:
    busy_worker(workers)
    holder = threading.Thread(target=workers.convert, args=("pdf", HEAVY, Limits()))
    holder.start()
    try:
        while workers._idle:  # until the holder has taken the one worker
            time.sleep(0.01)
        started = workers.started
        with pytest.raises(ConversionError, match="held all 1 converters"):
            workers.convert("html", b"<p>late</p>", Limits(deadline=time.monotonic() + 0.2))
        # the late file started no worker of its own (the holder's may be replaced once it is
        # answered, when the heavy file left it too large: that is the holder's, not this one's)
        assert workers.started == started == 1
    finally:
        holder.join()


def test_where_no_worker_can_start_files_are_converted_in_the_process(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(memory_bytes: int) -> isolation._Worker:
        raise Unavailable("no converter process could be started (not allowed here)")

    monkeypatch.setattr(isolation._Worker, "start", refuse)
    monkeypatch.setattr(isolation, "_POOL", Workers(size=1))
    monkeypatch.setattr(read, "_NO_ISOLATION", [])
    with caplog.at_level(logging.WARNING, logger="skills.formats"):
        first = read_file(fixture("widget-api-guide.docx"), "guide.docx")
        second = read_file(fixture("operations-runbook.pdf"), "runbook.pdf")
    assert first.text and second.text
    said = [r.getMessage() for r in caplog.records if "own process" in r.getMessage()]
    assert said == ["files are converted in the skill's own process: no converter process "
                    "could be started (not allowed here)"]  # fmt: skip


def test_the_setting_0_converts_in_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from skills.skill import SkillSettings

    monkeypatch.setattr(isolation, "_CONFIGURED", None)
    SkillSettings.from_env({"SKILL_CONVERTER_PROCESSES": "0"}).configure_converters()
    with pytest.raises(Unavailable, match="turned off"):
        Workers().convert("pdf", fixture("operations-runbook.pdf"), Limits())
    SkillSettings.from_env({"SKILL_CONVERTER_PROCESSES": "3"}).configure_converters()
    assert Workers().size == 3
    SkillSettings.from_env({"SKILL_CONVERTER_PROCESSES": "many"}).configure_converters()
    assert Workers().size == isolation.worker_count() >= 2


def test_a_worker_killed_while_idle_is_replaced_before_the_next_file(workers: Workers) -> None:
    """The system may kill an idle worker (the out-of-memory killer picks the largest process;
    a container's cgroup limit): the next file, a good one, was sent to the dead worker and
    failed with "its converter stopped". A dead worker is replaced when it is taken."""
    worker = busy_worker(workers)
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.wait()
    converted = workers.convert("docx", fixture("widget-api-guide.docx"), Limits())
    assert converted.text == read_file(fixture("widget-api-guide.docx"), "w.docx").text
    assert workers.started == 2
