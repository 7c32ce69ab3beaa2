"""A conversion gives back the memory it used: the process is not left at its high-water mark.

A 0.29 MB PDF of one 2-million-operation content stream took +533 MB and the process stayed at
1.1-1.2 GB after such files: PDFium's freed memory stayed in glibc's heap, BeautifulSoup's trees
waited for the cycle collector. The case runs in a fresh interpreter (resident set from
``/proc``): one warm-up conversion, then the heavy file, whose conversion must have used memory
(its high-water mark well above the start) and left almost none of it behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import zlib

import pytest
from format_fixtures import PROJECT

from skills.formats.memory import RELEASE_ABOVE_BYTES, resident_bytes

MB = 2**20


def one_page_pdf(content: bytes) -> bytes:
    """A PDF of one page whose content stream is ``content``, compressed."""
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def path_operations(count: int) -> bytes:
    return b"".join(
        b"%d %d m %d %d l S\n" % (i % 600, i % 700, i % 500, i % 300) for i in range(count)
    )


_CHILD = textwrap.dedent(
    """
    import json, resource, sys
    sys.path[:0] = ["tests/formats", "."]
    from skills.formats.memory import resident_bytes
    from skills.formats.read import read_file

    data = open(sys.argv[1], "rb").read()
    read_file(open("tests/formats/fixtures/operations-runbook.pdf", "rb").read(), "warm.pdf")
    before = resident_bytes()
    text = read_file(data, "heavy.pdf").text
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"before": before, "after": resident_bytes(), "peak": peak}))
    """
)


@pytest.mark.skipif(resident_bytes() is None, reason="needs Linux's /proc/self/statm")
def test_a_heavy_pdf_leaves_little_memory_behind(tmp_path: object) -> None:
    """Before: 341 MB of a 355 MB high-water mark stayed behind."""
    pdf = tmp_path / "heavy.pdf"  # type: ignore[operator]
    pdf.write_bytes(one_page_pdf(path_operations(600_000)))
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, str(pdf)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    rss = json.loads(child.stdout)
    assert rss["peak"] - rss["before"] > 2 * RELEASE_ABOVE_BYTES, "the file is not heavy"
    assert rss["after"] - rss["before"] < RELEASE_ABOVE_BYTES, (
        f"{(rss['after'] - rss['before']) / MB:.0f} MB left behind "
        f"(peak +{(rss['peak'] - rss['before']) / MB:.0f} MB)"
    )
