"""Converting files from several threads at once gives each file its own answer and never
crashes the process.

The skill converts the records of concurrent batches on concurrent threads (the Functions host's
``perInstanceConcurrency``, the dev server, a second caller). PDFium is not thread-safe: two
threads in it at once, even on different documents, crash the process with a segfault
(https://pypdfium2-team.github.io/pypdfium2/python_api.html), taking every in-flight record
with it. The conversions run in a child process, so that a crash fails the test instead of
killing pytest: three threads convert a PDF over and over while three others convert a rotation
of PDFs, Office files and HTML pages, and every answer must equal the one converted alone.
Both ways a file is converted are run: in worker processes (``skills.formats.isolation``, the
skill's way: PDFium runs in each worker alone, and several PDFs convert at once) and in the
process itself under the lock (where no worker can be started). Without the lock the second
crashed the child in 6 runs out of 6 (exit -11 or -5).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

import pytest
from format_fixtures import FIXTURES, PROJECT

from skills.formats import read
from skills.formats.conversion import ConversionError, Limits
from skills.formats.read import read_file
from skills.formats.registry import FORMATS, by_format

_PDF = by_format("pdf")
assert _PDF is not None
PDF = _PDF
MIXED = [
    "operations-runbook.pdf",
    "scanned.pdf",
    "widget-api-guide.docx",
    "widget-api-guide.pptx",
    "meeting-notes.pptx",
    "lease-equipment.xlsx",
    "widget-api-guide.html",
]

_CHILD = textwrap.dedent(
    """
    import sys, threading
    from pathlib import Path
    from skills.formats.read import read_file

    names, threads, rounds = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
    files = [(name, (Path(sys.argv[4]) / name).read_bytes()) for name in names]
    isolated = sys.argv[5] == "isolated"
    alone = {name: read_file(data, name, isolated=False).text for name, data in files}
    wrong = []

    def convert(start):
        for k in range(rounds):
            name, data = files[0 if start % 2 else (start + k) % len(files)]
            if read_file(data, name, isolated=isolated).text != alone[name]:
                wrong.append(name)

    workers = [threading.Thread(target=convert, args=(k,)) for k in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    print(f"converted {threads * rounds} files, {len(wrong)} wrong: {sorted(set(wrong))}")
    """
)


@pytest.mark.parametrize("where", ["isolated", "in-process"])
def test_mixed_files_convert_from_many_threads_without_a_crash(where: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, ",".join(MIXED), "6", "40", str(FIXTURES), where],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, f"exit {child.returncode}: {child.stderr[-2000:]}"
    assert child.stdout.strip() == "converted 240 files, 0 wrong: []"


def test_only_pdf_is_serialised() -> None:
    """In the skill's own process (no worker): PDFium is the one native library that is not
    thread-safe; the others parse with lxml
    (the Word stream, python-pptx, openpyxl's writer), expat (openpyxl's reader) or Python
    (BeautifulSoup), each on its own document, and lxml locks a parser shared between threads
    (python-pptx's module-level ``oxml_parser``) itself (``lxml/parser.pxi``,
    ``_ParserContext``)."""
    assert {fmt.name for fmt in FORMATS if fmt.serialised} == {"pdf"}


def test_a_pdf_waiting_past_the_deadline_for_the_lock_is_its_own_error() -> None:
    pdf = (FIXTURES / "operations-runbook.pdf").read_bytes()
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with read._native_turn(PDF, Limits()):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        held.wait(10)
        with pytest.raises(ConversionError, match="one at a time per process"):
            deadline = Limits(deadline=time.monotonic() + 0.2)
            read_file(pdf, "report.pdf", limits=deadline, isolated=False)
    finally:
        release.set()
        holder.join()
    assert read_file(pdf, "report.pdf", isolated=False).text
