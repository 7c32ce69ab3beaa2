"""A conversion gives back the memory it used: the process is not left at its high-water mark.

A 0.29 MB PDF of one 2-million-operation content stream took +533 MB and the process stayed at
1.1-1.2 GB after such files: PDFium's freed memory stayed in glibc's heap, BeautifulSoup's trees
waited for the cycle collector. The skill converts in worker processes, which are retired when
a file leaves them large (``tests/formats/test_isolation.py``); this is the path where no worker
can be started and the file is converted in the process itself (``isolated=False``). The case
runs in a fresh interpreter (resident set from ``/proc``): one warm-up conversion, then the
heavy file, whose conversion must have used memory (its high-water mark well above the start)
and left almost none of it behind.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from format_fixtures import PROJECT

from bench.hostile_files import one_page_pdf, path_operations
from skills.formats.memory import RELEASE_ABOVE_BYTES, resident_bytes

MB = 2**20


_CHILD = textwrap.dedent(
    """
    import json, resource, sys
    sys.path[:0] = ["tests/formats", "."]
    from skills.formats.memory import resident_bytes
    from skills.formats.read import read_file

    data = open(sys.argv[1], "rb").read()
    warm = open("tests/formats/fixtures/operations-runbook.pdf", "rb").read()
    read_file(warm, "warm.pdf", isolated=False)
    before = resident_bytes()
    text = read_file(data, "heavy.pdf", isolated=False).text
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"before": before, "after": resident_bytes(), "peak": peak}))
    """
)


@pytest.mark.skipif(resident_bytes() is None, reason="needs Linux's /proc/self/statm")
def test_a_heavy_pdf_leaves_little_memory_behind(tmp_path: Path) -> None:
    """Before: 341 MB of a 355 MB high-water mark stayed behind."""
    pdf = tmp_path / "heavy.pdf"
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
