"""The throughput benchmark runs end to end on a tiny corpus and writes well-formed results.

Timings are never asserted (machines are noisy; speed claims live in ``docs/performance.md``):
these tests check that every number the benchmark promises is there, has the right shape, and
agrees with the others, so that a broken benchmark is caught before anyone quotes it.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # a dozen interpreters start (one per memory probe)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "throughput.py"
CHILD, PARENT, COPIES = 64, 256, 2
MEMORY_MB, BIG_MB = 0.05, 0.1
OURS = ("fixed", "recursive", "structural", "hierarchical")
#: contender -> the module it needs; the benchmark skips it only when that module is missing
LIBRARY_MODULES = {
    "langchain": "langchain_text_splitters",
    "semchunk": "semchunk",
    "chonkie": "chonkie",
    "llamaindex": "llama_index.core",
}

GUIDE = """# Installing the tool

Install it with pip, e.g. `pip install tool`. Dr. Smith wrote version 3.14 in the U.S. office.

## Configuration

| setting | default | meaning |
|---|---|---|
| `timeout` | 5.0 | seconds before a request gives up |
| `retries` | 3 | how often a failed request is tried again |

```python
import os.path
config = os.path.join("etc", "tool.toml")
```

- first item, which is long enough to need a few words of explanation
- second item
  - a nested item

## Usage

""" + "\n\n".join(
    f"Paragraph {i}: the client sends a request and reads the reply." for i in range(30)
)

NOTES = "\n\n".join(
    f"Plain notes, line {i}, without any structure but with sentences. Another one follows."
    for i in range(40)
)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # the parent package is missing
        return False


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    """One benchmark run on a two-file corpus: (the JSON it wrote, what it printed)."""
    corpus = tmp_path_factory.mktemp("corpus")
    (corpus / "guide.md").write_text(GUIDE, encoding="utf-8")
    (corpus / "notes.txt").write_text(NOTES, encoding="utf-8")
    out = corpus.parent / "throughput.json"
    command = [
        sys.executable, str(SCRIPT), "--corpus", str(corpus), "--copies", str(COPIES),
        "--repeats", "1", "--child-tokens", str(CHILD), "--parent-tokens", str(PARENT),
        "--memory-mb", str(MEMORY_MB), "--big-mb", str(BIG_MB), "--json", str(out),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8")), done.stdout


@pytest.fixture(scope="module")
def rows(run: tuple[dict[str, Any], str]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in run[0]["rows"]}


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_throughput", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it executes
    spec.loader.exec_module(module)
    return module


def test_every_contender_has_a_row_in_table_order(rows: dict[str, dict[str, Any]]) -> None:
    assert list(rows) == ["floor", *OURS, *LIBRARY_MODULES]


def test_corpus_is_replicated_as_asked(run: tuple[dict[str, Any], str]) -> None:
    env = run[0]["environment"]
    assert (env["files"], env["copies"], env["repeats"]) == (2, COPIES, 1)
    assert env["total_mb"] == pytest.approx(COPIES * env["unique_mb"])


def test_floor_and_our_strategies_are_timed(rows: dict[str, dict[str, Any]]) -> None:
    for name in ("floor", *OURS):
        row = rows[name]
        assert row["status"] == "ok", (name, row["status"])
        assert len(row["seconds"]) == 1 and row["seconds"][0] > 0
        assert row["mb_per_s"] > 0 and row["ratio_to_floor"] > 0
    assert rows["floor"]["ratio_to_floor"] == pytest.approx(1.0)


def test_our_strategies_chunk_within_their_caps(rows: dict[str, dict[str, Any]]) -> None:
    for name in OURS:
        row = rows[name]
        assert row["chunks"] > 1 and row["over_cap"] == 0, (name, row)
        cap = PARENT if name == "hierarchical" else CHILD
        assert 0 < row["max_tokens"] <= cap
    assert rows["hierarchical"]["parents"] > 0
    assert all(rows[name]["parents"] == 0 for name in ("fixed", "recursive", "structural"))


def test_libraries_are_measured_or_skipped_only_when_missing(
    rows: dict[str, dict[str, Any]],
) -> None:
    for name, module in LIBRARY_MODULES.items():
        row = rows[name]
        if not _installed(module):
            assert row["status"].startswith("skipped: not installed"), (name, row["status"])
            continue
        assert row["status"] == "ok", (name, row["status"])
        assert row["mb_per_s"] > 0 and row["chunks"] > 0 and row["over_cap"] >= 0
        assert row["version"]


def test_memory_is_measured_for_every_timed_contender(rows: dict[str, dict[str, Any]]) -> None:
    for name, row in rows.items():
        if row["status"] != "ok":
            assert row["memory"] is None
            continue
        memory = row["memory"]
        assert "error" not in memory, (name, memory)
        assert memory["document_mb"] >= MEMORY_MB
        assert memory["baseline_rss_mb"] <= memory["peak_rss_mb"]
        assert memory["added_mb"] >= 0 and memory["added_x_size"] >= 0
        assert 0 <= memory["retained_mb"] <= memory["added_mb"]


def test_big_document_probe_reports_the_default_strategy(
    run: tuple[dict[str, Any], str],
) -> None:
    big = run[0]["big_document"]
    assert "error" not in big, big
    assert big["document_mb"] >= BIG_MB and big["seconds"] > 0
    assert big["added_x_size"] == pytest.approx(big["added_mb"] / big["document_mb"])
    assert big["mb_per_s"] > 0 and len(big["engine"]) == len(run[0]["environment"]["engine"]) == 12
    assert any(line.startswith("- `hierarchical` on one") for line in run[0]["goals"])


def test_printed_table_is_the_json_table(run: tuple[dict[str, Any], str]) -> None:
    report, stdout = run
    assert report["table"] in stdout
    table_rows = [line for line in report["table"].splitlines() if line.startswith("| ")][1:]
    names = [line.split("|")[1].strip() for line in table_rows]
    assert names == [row["name"] for row in report["rows"]]


def test_one_document_reaches_its_size_from_corpus_text_only() -> None:
    bench = _load_script()
    texts = ["alpha é", "beta 🦛"]
    document = bench.one_document(texts, 0.001)
    assert len(document.encode("utf-8")) >= 1000
    assert set(document.split("\n\n")) == set(texts)
