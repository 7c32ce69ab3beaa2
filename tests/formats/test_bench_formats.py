"""bench/formats.py and bench/formats_versus.py run and report what they say (no timing is
asserted: speed lives in docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def test_the_conversion_bench_reports_every_format_and_the_package_size(tmp_path: Path) -> None:
    out = tmp_path / "formats.json"
    command = [sys.executable, "bench/formats.py", "--scale", "0.05", "--repeats", "1"]
    subprocess.run(
        [*command, "--json", str(out)], cwd=PROJECT, check=True, capture_output=True, timeout=600
    )
    results = json.loads(out.read_text(encoding="utf-8"))
    for fmt in ("pdf", "docx", "pptx", "xlsx", "html"):
        # Rates are rounded to 0.01 MB/s and may read 0.0 on a loaded machine: check what ran.
        assert results[fmt]["seconds"] > 0 and results[fmt]["mb_per_s"] >= 0
    assert results["pdf"]["pages"] == 24  # the runbook's 12 pages, imported twice
    package = results["package"]
    assert package["after_mb"] > package["before_mb"] and "pypdfium2" in package["added"]


def test_the_versus_bench_counts_structure_for_both_paths() -> None:
    completed = subprocess.run(
        [sys.executable, "bench/formats_versus.py"],
        cwd=PROJECT, check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    rows = [line.split(" | ") for line in completed.stdout.splitlines()[2:]]
    assert len(rows) == 10
    ours = [row for row in rows if row[1] == "this skill"]
    assert all(int(row[3]) > 0 for row in ours), "every file's chunks carry heading paths"
