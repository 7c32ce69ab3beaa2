"""Files at once over HTTP: concurrent calls to the development server, each a batch of good and
hostile files, answer every recordId exactly once and never with a 500; the good files' answers
are those each gets alone, and a worker process killed mid-batch costs only the file it held.

The server runs on a thread of this process, so its converter processes are this process's
children: the test finds them in ``/proc`` and kills them itself.
"""

from __future__ import annotations

import base64
import concurrent.futures
import functools
import io
import os
import re
import signal
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from skilltest_support import batch, call_chunk, records

from bench.hostile_files import (
    bold_drawn_last,
    code_heading,
    deck,
    nested_layout,
    printed_pdf,
    side_by_side_blocks,
    two_column_slide,
    word_cell,
    workbook,
)
from skills.local.devserver import running

FIXTURES = Path(__file__).resolve().parents[1] / "formats" / "fixtures"
GOOD = (
    "widget-api-guide.docx",
    "operations-runbook.pdf",
    "error-codes.xlsx",
    "widget-api-guide.pptx",
)
CALLS = 4
KILLS = 3


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running() as url:
        yield url


def file_record(name: str, data: bytes) -> dict[str, Any]:
    return {
        "file_data": {"$type": "file", "data": base64.b64encode(data).decode("ascii")},
        "fileName": name,
        "documentKey": f"https://account.blob.core.windows.net/docs/{name}",
    }


def good_records() -> list[dict[str, Any]]:
    """The good files; then the first again, its first run inside 1,000 nested content
    controls (a RecursionError failed it), which must read as the first does; then the
    seventh and eighth passes' shapes, which must read as they do alone."""
    fixtures = [file_record(name, (FIXTURES / name).read_bytes()) for name in GOOD]
    return [*fixtures, nested_record(), *shaped_records()]


@functools.cache
def shaped_records() -> tuple[dict[str, Any], ...]:
    """A plain text whose numbered titles hold runs of 80,000 spaces (its title pattern tried
    each end again: 80 s), and a sheet of 2,000 blocks side by side under merged labels, 8,000
    columns (each block read the growing table's header again). The eighth pass's: a PDF page
    of 3,000 regular lines with 3,000 bold ones drawn after them below them (each bold line
    looked at every regular one), a PDF heading naming code over 1,000 lines (joined in
    quadratic time), a slide of 2,000 shapes in two columns (each looked for in a list). The
    ninth pass's: a printed PDF in one 30 MB face (copied for each page), a Word cell of 20,000
    paragraphs (each asked whether its cell was a band). The tenth's: layout tables nested 300
    deep (each level read the text inside it again), a deck whose default text size is ``²``
    (the whole deck failed)."""
    spaced = "".join(
        f"{k}. Part {k}{' ' * 80_000}of it\n\nText of part {k}.\n\n" for k in (1, 2, 3)
    )
    return (
        file_record("spaced-titles.txt", spaced.encode("utf-8")),
        file_record("groups.xlsx", side_by_side_blocks(2_000)),
        file_record("bold-last.pdf", bold_drawn_last(3_000)),
        file_record("code-heading.pdf", code_heading(1_000)),
        file_record("columns.pptx", two_column_slide(2_000)),
        file_record("printed.pdf", printed_pdf(20, 30 * 2**20)),
        file_record("form.docx", word_cell(20_000)),
        file_record("procedure.docx", nested_layout(300)),
        file_record("sizes.pptx", with_part(deck(3), "ppt/presentation.xml", unknown_size)),
    )


def unknown_size(part: bytes) -> bytes:
    """The deck's default text style with a first level's size that is no number."""
    squared = "²".encode()
    return re.sub(
        rb'(<a:lvl1pPr[^>]*>\s*<a:defRPr[^>]*?)sz="\d+"', rb'\1sz="' + squared + b'"', part
    )


def with_part(data: bytes, name: str, change: Any) -> bytes:
    """The package with its part ``name`` changed by ``change`` (bytes -> bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            part = source.read(item)
            target.writestr(item, change(part) if item.filename == name else part)
    return out.getvalue()


def controls_around_a_run(body: bytes) -> bytes:
    """The body's first run inside 1,000 nested content controls (which no editor writes)."""
    start = body.index(b"<w:r>")
    end = body.index(b"</w:r>", start) + len(b"</w:r>")
    opening, closing = b"<w:sdt><w:sdtContent>", b"</w:sdtContent></w:sdt>"
    return body[:start] + opening * 1000 + body[start:end] + closing * 1000 + body[end:]


def hostile_records() -> list[tuple[dict[str, Any], str]]:
    """Hostile files and the words their record's error or warning says."""
    docx = (FIXTURES / "widget-api-guide.docx").read_bytes()
    merged = workbook({n: [f"v{n}"] for n in range(1, 201)}, ["A1:XFD1048576"])
    far = workbook({1: ["Name"], 2: ["rent"], 10**9: ["far"]})
    digits = b"9" * 5000
    long_row = with_part(
        workbook({1: ["Name"], 2: ["rent"], 3: ["tax"]}),
        "xl/worksheets/sheet1.xml",
        lambda part: part.replace(b'<row r="3">', b'<row r="%s">' % digits),
    )
    long_id = with_part(
        deck(2),
        "ppt/slides/slide1.xml",
        lambda part: part.replace(
            b'<p:ph type="title"/>', b'<p:ph type="title" idx="%s"/>' % digits
        ),
    )
    return [
        (file_record("merged.xlsx", merged), "workbook cut after"),
        (file_record("far.xlsx", far), "past Excel's last"),
        (file_record("broken.docx", docx[:5000]), "damaged zip"),
        (file_record("locked.pdf", (FIXTURES / "locked.pdf").read_bytes()), "encrypted"),
        (file_record("lies.xlsx", (FIXTURES / "operations-runbook.pdf").read_bytes()), "is pdf"),
        (file_record("long-row.xlsx", long_row), "could not be read after its row 2"),
        (file_record("long-id.pptx", long_id), "a number of more than 4,300 digits"),
    ]


def nested_record() -> dict[str, Any]:
    """The Word fixture with its first run inside 1,000 content controls: the same text."""
    docx = (FIXTURES / "widget-api-guide.docx").read_bytes()
    return file_record(GOOD[0], with_part(docx, "word/document.xml", controls_around_a_run))


def mixed_batch(call: int) -> tuple[dict[str, Any], dict[str, str]]:
    """One call's batch, good and hostile files interleaved (recordIds unique over the calls),
    and the words each hostile record must say."""
    good, hostile = good_records(), hostile_records()
    values, says = [], {}
    for k in range(max(len(good), len(hostile))):
        if k < len(good):
            values.append({"recordId": f"{call}-good-{k}", "data": good[k]})
        if k < len(hostile):
            record_id = f"{call}-bad-{k}"
            values.append({"recordId": record_id, "data": hostile[k][0]})
            says[record_id] = hostile[k][1]
    return {"values": values}, says


def alone() -> list[dict[str, Any]]:
    """Each good file's record as the skill answers it in a batch of its own."""
    return [records(call_chunk(batch(record)))["1"] for record in good_records()]


def good_ids(call: str) -> set[str]:
    return {f"{call}-good-{k}" for k in range(len(good_records()))}


def post_all(base_url: str) -> list[tuple[int, dict[str, Any], dict[str, str]]]:
    """The calls sent at once: (status, body, the hostile records' words) of each."""

    def send(call: int) -> tuple[int, dict[str, Any], dict[str, str]]:
        request, says = mixed_batch(call)
        response = httpx.post(f"{base_url}/api/chunk", json=request, timeout=300)
        return response.status_code, response.json(), says

    with concurrent.futures.ThreadPoolExecutor(max_workers=CALLS) as pool:
        return list(pool.map(send, range(CALLS)))


def by_id(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    ids = [record["recordId"] for record in body["values"]]
    assert len(ids) == len(set(ids)), "a recordId answered twice"
    return {record["recordId"]: record for record in body["values"]}


def errors(record: dict[str, Any]) -> str:
    return " | ".join(m["message"] for m in (record["errors"] or []) + (record["warnings"] or []))


def test_concurrent_batches_of_good_and_hostile_files_answer_each_record_once(
    base_url: str,
) -> None:
    expected = alone()
    for status, body, says in post_all(base_url):
        assert status in (200, 207)
        out = by_id(body)
        call = next(iter(out)).split("-")[0]
        assert set(out) == good_ids(call) | set(says)
        for k in range(len(expected)):
            record = out[f"{call}-good-{k}"]
            assert record["data"] == expected[k]["data"], (record["recordId"], errors(record))
        assert out[f"{call}-good-{len(GOOD)}"]["data"] == out[f"{call}-good-0"]["data"]
        for record_id, words in says.items():
            assert words in errors(out[record_id]), (record_id, errors(out[record_id]))


def _converter_processes() -> list[int]:
    """This process's children that are converter workers."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == os.getpid() and b"skills.formats.isolation" in command:
            found.append(int(entry.name))
    return found


def test_workers_killed_mid_batch_cost_only_the_files_they_held(base_url: str) -> None:
    """A thread kills a converter process three times, 1.5 s apart, while the calls run: a
    killed file is its record's error ("its converter stopped"), no kill costs more than the
    file its process held (an idle worker killed is replaced, not handed the next file), every
    other record is answered as it is alone, and afterwards every good file converts again."""
    expected = alone()
    stop = threading.Event()
    killed: list[int] = []

    def kill() -> None:
        while len(killed) < KILLS and not stop.wait(1.5):
            for pid in _converter_processes()[:1]:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                except ProcessLookupError:
                    pass

    killer = threading.Thread(target=kill)
    killer.start()
    try:
        answers = post_all(base_url)
    finally:
        stop.set()
        killer.join()
    assert killed, "no converter process was running to be killed"
    stopped = 0
    for status, body, says in answers:
        assert status in (200, 207)
        out = by_id(body)
        call = next(iter(out)).split("-")[0]
        assert set(out) == good_ids(call) | set(says)
        for k in range(len(expected)):
            record = out[f"{call}-good-{k}"]
            assert record["data"] == expected[k]["data"] or "converter stopped" in errors(record)
        for record_id, words in says.items():
            said = errors(out[record_id])
            assert words in said or "converter stopped" in said, (record_id, said)
        stopped += sum("converter stopped" in errors(record) for record in out.values())
    assert stopped <= len(killed)
    assert [record["data"] for record in alone()] == [record["data"] for record in expected]
