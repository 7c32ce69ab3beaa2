"""``python -m skills chunk``: JSON lines for programs, a tree for people, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from skills.formats.registry import TEXT_SUFFIXES
from skills.local.chunk import main

PROJECT = Path(__file__).resolve().parents[2]
FIELDS = {"doc", "id", "parentId", "level", "ordinal", "start", "end", "text", "embedText",
          "prefix", "tokens", "headings", "pages"}  # fmt: skip


def test_jsonl_prints_every_chunk_with_its_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "# Guide\n\n" + "Retries back off exponentially. " * 80
    path = tmp_path / "guide.md"
    path.write_text(source, encoding="utf-8")
    assert main([str(path), "--child-tokens", "64", "--parent-tokens", "256"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows and all(set(row) == FIELDS for row in rows)
    assert {row["level"] for row in rows} == {0, 1}
    assert all(source[row["start"] : row["end"]] == row["text"] for row in rows)
    assert all(row["doc"] == str(path) for row in rows)
    assert max(row["tokens"] for row in rows if row["level"] == 1) <= 64


def test_an_empty_file_says_why_it_has_no_chunks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty.md").write_text("  \n", encoding="utf-8")
    assert main([str(tmp_path / "empty.md")]) == 0
    out = capsys.readouterr()
    assert out.out == "" and "empty.md: text is empty or whitespace only: no chunks" in out.err
    assert main([str(tmp_path / "empty.md"), "--output", "tree"]) == 0
    assert "! text is empty or whitespace only" in capsys.readouterr().out


def test_tree_shows_parents_with_their_children(capsys: pytest.CaptureFixture[str]) -> None:
    sample = PROJECT / "samples" / "widget-api-guide.md"
    assert main([str(sample), "--output", "tree", "--strategy", "hierarchical"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(sample)) and "parents" in out
    lines = out.splitlines()
    assert lines[1].startswith("p0  Widget Service API guide  (sections: Authentication")
    assert any(line.startswith("    c2  [") and "› Authentication" in line for line in lines)


def test_format_reads_every_file_as_the_markup_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Setup\n=====\n\nRun the agent once by hand.\n", encoding="utf-8")
    assert main([str(path), "--output", "tree"]) == 0
    assert "(text," in capsys.readouterr().out, "no sign of markup: read as text"
    assert main([str(path), "--output", "tree", "--format", "rst"]) == 0
    out = capsys.readouterr().out
    assert "(rst," in out and "Setup" in out.split("\n", 2)[1]


def test_an_unknown_format_is_a_usage_error_naming_the_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.md"
    path.write_text("text", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main([str(path), "--format", "asciidoc"])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert "invalid choice: 'asciidoc'" in captured.err and "markdown" in captured.err
    assert not captured.out, "nothing is chunked"


def test_a_folder_is_walked_with_a_progress_bar_on_stderr() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "skills", "chunk", "samples", "--strategy", "fixed"],
        cwd=PROJECT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0
    docs = {json.loads(line)["doc"] for line in completed.stdout.splitlines()}
    assert len(docs) == len(
        [p for p in (PROJECT / "samples").iterdir() if p.suffix in TEXT_SUFFIXES]
    )
    assert "doc" in completed.stderr and "100%" in completed.stderr


def test_invalid_options_and_missing_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.md"
    path.write_text("text", encoding="utf-8")
    assert main([str(path), "--child-tokens", "5"]) == 2
    assert "invalid options" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.md")]) == 2
    assert "not found" in capsys.readouterr().err


def test_binary_and_undecodable_files_are_reported_and_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe\x00binary")
    (tmp_path / "good.md").write_text("Fine text.", encoding="utf-8")
    assert main([str(tmp_path / "bad.md"), str(tmp_path / "good.md")]) == 1
    captured = capsys.readouterr()
    assert "bad.md" in captured.err
    assert json.loads(captured.out.splitlines()[0])["doc"].endswith("good.md")


def test_jsonl_reports_the_warnings_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "doc.md"
    path.write_text("# A\n\nSome text.\n", encoding="utf-8")
    assert main([str(path), "--strategy", "structural", "--overlap", "8"]) == 0
    captured = capsys.readouterr()
    assert f"{path}: childOverlapTokens (8) ignored" in captured.err
    assert all(json.loads(line) for line in captured.out.splitlines())


@pytest.mark.parametrize(
    ("argv", "warning"),
    [
        (["tests/formats/fixtures/scanned.pdf"], "no text layer"),  # the converter's
        (["samples/widget-api-guide.md", "--strategy", "structural", "--overlap", "8"], "ignored"),
    ],
)
def test_jsonl_reports_what_the_skill_would_warn_on_stderr(
    argv: list[str], warning: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The warnings the skill returns for a file reach a jsonl reader too, and stdout stays
    JSON."""
    assert main([str(PROJECT / argv[0]), *argv[1:]]) == 0
    captured = capsys.readouterr()
    assert f"{PROJECT / argv[0]}: " in captured.err and warning in captured.err
    assert all(json.loads(line) for line in captured.out.splitlines())


class _Topics:
    """Two topics, told apart by one word: what an embedding model sees of them."""

    dimensions = 2

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] if "cats" in text else [0.0, 1.0] for text in texts]


def _topics_file(tmp_path: Path) -> Path:
    cats = "".join(f"The cats sleep all day long, number {n}.\n\n" for n in range(12))
    ships = "".join(f"The ships sail at dawn from harbour {n}.\n\n" for n in range(12))
    path = tmp_path / "topics.txt"
    path.write_text(cats + ships, encoding="utf-8")
    return path


def test_semantic_uses_the_installed_embedder_instead_of_falling_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skills import embeddings

    cached = embeddings.CachedEmbedder(_Topics(), model="topics", directory=tmp_path / "cache")
    monkeypatch.setattr(embeddings, "default_embedder", lambda: cached)
    path = _topics_file(tmp_path)
    assert main([str(path), "--strategy", "semantic", "--output", "tree"]) == 0
    out = capsys.readouterr()
    assert "unavailable" not in out.out + out.err
    assert cached.misses > 0  # the embedder was asked for the topic shifts


def test_semantic_without_a_local_model_falls_back_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from skills import embeddings

    def missing() -> Path:
        raise ImportError("no weights here")

    cached = embeddings.CachedEmbedder(
        embeddings.LocalMiniLMEmbedder(), model="local", directory=tmp_path / "cache"
    )
    monkeypatch.setattr(embeddings, "default_embedder", lambda: cached)
    monkeypatch.setattr(embeddings, "local_model_path", missing)
    assert main([str(_topics_file(tmp_path)), "--strategy", "semantic", "--output", "tree"]) == 0
    out = capsys.readouterr()
    assert "no local embedding model (no weights here)" in out.err
    assert "semantic boundaries unavailable" in out.out
