"""The lone-lines survey (``bench/lone_lines.py``) counts what it says, on hand-cut chunks."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import pytest

from skills.chunking import ChunkOptions, chunk_document
from skills.chunking.model import Chunk, Chunking

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "lone_lines.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lone_lines", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lone_lines"] = module
    spec.loader.exec_module(module)
    return module


SOURCE = (
    "## Setup\n\nInstall it first.\n\n"  # 0: a heading alone; 1: text ending with a heading
    '## Use\n\n<a id="x"></a>\n\n'
    "Run it.\n\n* **net**:\n  * faster\n"  # 2: ends with a label whose nested item is next
)


def leaves(cuts: list[int]) -> Chunking:
    bounds = list(itertools.pairwise(cuts))
    made = tuple(
        Chunk(f"c{k}", "p", 1, k, start, end, 1, SOURCE) for k, (start, end) in enumerate(bounds)
    )
    return Chunking(parents=(), leaves=made, format="markdown")


def test_it_counts_each_kind_of_lone_line() -> None:
    lone = load()
    use, anchor, run = SOURCE.index("## Use"), SOURCE.index("<a id"), SOURCE.index("Run it")
    nested = SOURCE.index("  * faster")
    counts = lone.count(
        SOURCE, leaves([0, SOURCE.index("Install"), anchor, run, nested, len(SOURCE)])
    )
    assert counts["children"] == 5
    assert counts["heading_only"] == 2  # "## Setup", and the anchor
    assert counts["ends_with_heading"] == 1  # "Install it first. ## Use"
    assert counts["tags_only"] == 1  # the anchor
    assert counts["label_split"] == 1  # "* **net**:" | "  * faster"
    assert use < anchor < run


def test_the_engine_leaves_none_on_a_small_guide(tmp_path: Path) -> None:
    lone = load()
    (tmp_path / "guide.md").write_text(SOURCE * 40, encoding="utf-8")
    (tmp_path / "binary.md").write_bytes(b"\xff\xfe\x00")
    paths = lone.markdown_files([tmp_path, tmp_path / "missing.md"])
    totals = lone.survey(paths, ChunkOptions(child_max_tokens=32))
    assert totals["files"] == 1 and totals["skipped_unreadable"] == 2
    assert totals["children"] > 10
    assert chunk_document(SOURCE * 40).leaves
    for kind in ("heading_only", "ends_with_heading", "label_split", "tags_only"):
        assert totals[kind] == 0, kind


def test_a_binary_looking_file_is_counted_as_refused_not_a_crash(tmp_path: Path) -> None:
    lone = load()
    (tmp_path / "dump.md").write_text("# Dump\n" + "\x00\x01\x02\x03" * 20, encoding="utf-8")
    (tmp_path / "guide.md").write_text(SOURCE, encoding="utf-8")
    totals = lone.survey(lone.markdown_files([tmp_path]), ChunkOptions())
    assert totals["skipped_refused"] == 1 and totals["files"] == 1


def test_bad_arguments_end_in_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lone = load()
    (tmp_path / "empty.txt").write_text("\n  \n", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9.md\n")
    for argv, message in [
        ([], "give Markdown files or folders"),
        (["--list", str(tmp_path / "missing.txt")], "cannot read --list"),
        (["--list", str(tmp_path / "latin1.txt")], "cannot read --list"),
        (["--list", str(tmp_path / "empty.txt")], "give Markdown files or folders"),
    ]:
        with pytest.raises(SystemExit) as stop:
            lone.main(argv)
        assert stop.value.code == 2
        assert message in capsys.readouterr().err
