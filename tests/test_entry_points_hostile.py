"""The command-line entry points given missing, malformed or huge input: a one-line error that
says what is wrong, exit 2, never a traceback (as ``python -m skills chunk`` and the skill's
own entry points answer, ``tests/chunking/test_cli.py``, ``tests/skill/test_skill_hostile.py``).

Each case runs the command as a user would, in a child process, with no Azure setting in its
environment (nothing is contacted: every case is refused before a client is made).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HUGE_CHARS = 20_000_000


def run(tmp_path: Path, *command: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "SKILL_"))}
    return subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def refused(done: subprocess.CompletedProcess[str], says: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-800:])
    assert "Traceback" not in done.stderr, done.stderr[-800:]
    assert says in done.stderr, done.stderr[-800:]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------ python -m skills.evaluation.loso


def loso(
    tmp_path: Path, *folders: Path, candidate: str = "hier"
) -> subprocess.CompletedProcess[str]:
    paths = [str(folder) for folder in folders]
    return run(tmp_path, "-m", "skills.evaluation.loso", *paths, "--candidates", candidate)


def test_loso_without_a_run_folder_says_which(tmp_path: Path) -> None:
    refused(loso(tmp_path, tmp_path / "hybrid-missing"), "results.json cannot be read")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not JSON"),
        ("", "is not JSON"),
        ("[1, 2, 3]", "is not what python -m skills eval writes"),
        ('{"results": [{"no": "name"}]}', "is not what python -m skills eval writes"),
        (json.dumps({"results": ["x" * HUGE_CHARS]}), "is not what python -m skills eval writes"),
    ],
    ids=["malformed", "empty", "a list", "unnamed results", "huge"],
)
def test_loso_with_a_results_file_it_cannot_use_says_why(
    tmp_path: Path, content: str, says: str
) -> None:
    write(tmp_path / "hybrid-set" / "results.json", content)
    refused(loso(tmp_path, tmp_path / "hybrid-set"), says)


def test_loso_with_a_candidate_no_run_has_names_the_ones_it_has(tmp_path: Path) -> None:
    result = {"name": "hier-1024 budget", "baseline": False, "questions": []}
    write(tmp_path / "hybrid-set" / "results.json", json.dumps({"results": [result]}))
    done = loso(tmp_path, tmp_path / "hybrid-set", candidate="nonexistent")
    refused(done, "'nonexistent' is not in the run of set (it has 'hier-1024 budget'")


# ------------------------------------------------------------------- python bench/corpus.py


def corpus(tmp_path: Path, manifest: Path) -> subprocess.CompletedProcess[str]:
    return run(tmp_path, "bench/corpus.py", str(manifest))


FILE = {"name": "pypdf/x.pdf", "source": "pypi", "package": "pypdf", "version": "1",
        "path": "pypdf-1/x.pdf", "sha256": "0" * 64}  # fmt: skip


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot be read"),
        ("{not json", "is not JSON"),
        ("", "is not JSON"),
        ('{"description": "no files"}', 'has no "files" list'),
        (json.dumps({"files": ["x" * HUGE_CHARS]}), "a file entry is not an object"),
        (json.dumps({"files": [{"name": "x.pdf"}]}), "lacks source, package, version, path"),
        (json.dumps({"files": [{**FILE, "source": "ftp"}]}), "comes from 'ftp'"),
        (json.dumps({"files": [{**FILE, "name": "../../x"}]}), "not a relative path inside"),
        (json.dumps({"files": [{**FILE, "name": "/etc/x"}]}), "not a relative path inside"),
    ],
    ids=[
        "missing",
        "malformed",
        "empty",
        "no files",
        "huge",
        "fields missing",
        "registry",
        "escapes the cache",
        "absolute",
    ],
)
def test_corpus_with_a_manifest_it_cannot_use_says_why(
    tmp_path: Path, content: str | None, says: str
) -> None:
    manifest = tmp_path / "manifest.json"
    if content is not None:
        write(manifest, content)
    refused(corpus(tmp_path, manifest), says)


def test_corpus_given_a_folder_says_so(tmp_path: Path) -> None:
    refused(corpus(tmp_path, tmp_path), "cannot be read")


# ---------------------------------------------------------------- python bench/structure.py


def structure(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    report = str(tmp_path / "report.json")  # never the committed results
    return run(tmp_path, "bench/structure.py", "--json", report, *arguments)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "cannot be read as JSON"),
        ("{not json", "cannot be read as JSON"),
        ("[1, 2]", 'is not a truth file: no "file" name'),
        (json.dumps({"headings": []}), 'is not a truth file: no "file" name'),
        (json.dumps({"file": ["x" * HUGE_CHARS]}), 'is not a truth file: no "file" name'),
    ],
    ids=["empty", "malformed", "a list", "no file", "huge"],
)
def test_structure_with_a_truth_file_it_cannot_use_names_it(
    tmp_path: Path, content: str, says: str
) -> None:
    folder = tmp_path / "truth"
    write(folder / "bad.json", content)
    done = structure(tmp_path, "--truth", str(folder))
    refused(done, f"bad.json {says}")
    assert not (tmp_path / "report.json").exists()


def test_structure_with_no_truth_file_says_so(tmp_path: Path) -> None:
    refused(structure(tmp_path, "--truth", str(tmp_path / "none")), "no truth file in")


def test_structure_with_a_pattern_that_does_not_compile_says_why(tmp_path: Path) -> None:
    refused(structure(tmp_path, "--only", "["), "not a regular expression")


def test_structure_counts_a_file_that_does_not_convert_as_nothing_found(tmp_path: Path) -> None:
    broken = write(tmp_path / "broken.docx", "a text file named as a Word document")
    truth = {"file": str(broken), "headings": [{"level": 1, "text": "Scope", "page": None}]}
    write(tmp_path / "truth" / "broken.json", json.dumps(truth))
    done = structure(tmp_path, "--truth", str(tmp_path / "truth"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "broken.docx does not convert, counted as nothing found" in done.stderr
    row = json.loads((tmp_path / "report.json").read_text())["this skill"][str(broken)]
    assert (row["true_headings"], row["matched"], row["recall"]) == (1, 0, 0.0)


def test_structure_writes_the_committed_results_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run without ``--json`` rewrote ``bench/results/structure.json``: a measure over a few
    files replaced the committed one over all of them. Now only ``--write-results`` does."""
    import importlib

    bench = importlib.import_module("bench.structure")  # (by name: ``bench.structure`` is a folder)
    committed = tmp_path / "results" / "structure.json"
    monkeypatch.setattr(bench, "DEFAULT_JSON", committed)
    broken = write(tmp_path / "broken.docx", "a text file named as a Word document")
    truth = {"file": str(broken), "headings": [{"level": 1, "text": "Scope", "page": None}]}
    write(tmp_path / "truth" / "broken.json", json.dumps(truth))
    assert bench.main(["--truth", str(tmp_path / "truth")]) == 0
    assert not committed.exists()
    assert bench.main(["--truth", str(tmp_path / "truth"), "--write-results"]) == 0
    assert str(broken) in json.loads(committed.read_text())["this skill"]


# ------------------------------------------------------ python -m skills.search notes --fill


@pytest.mark.parametrize(
    ("endpoint", "says"),
    [
        (None, "set these environment variables first: AZURE_SEARCH_ENDPOINT"),
        ("::::", "AZURE_SEARCH_ENDPOINT must be an https:// URL"),
        ("http://search.example.com", "AZURE_SEARCH_ENDPOINT must be an https:// URL"),
        ("https://" + "x" * (HUGE_CHARS // 1000), "AZURE_SEARCH_ENDPOINT must be an https:// URL"),
    ],
    ids=["missing", "malformed", "not https", "huge"],
)
def test_notes_fill_without_a_usable_endpoint_says_why(
    tmp_path: Path, endpoint: str | None, says: str
) -> None:
    env = {} if endpoint is None else {"AZURE_SEARCH_ENDPOINT": endpoint}
    done = run(tmp_path, "-m", "skills.search", "notes", "--mode", "files", "--fill", **env)
    refused(done, says)


def test_notes_with_an_unknown_mode_is_a_usage_error(tmp_path: Path) -> None:
    done = run(tmp_path, "-m", "skills.search", "notes", "--mode", "nonsense", "--fill")
    refused(done, "invalid choice: 'nonsense'")


# ----------------------------------------------------------------------- python -m skills house


def test_house_takes_no_arguments(tmp_path: Path) -> None:
    done = run(tmp_path, "-m", "skills", "house", "x" * 100_000)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "python -m skills house" in done.stdout + done.stderr
