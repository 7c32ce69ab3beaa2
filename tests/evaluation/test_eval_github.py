"""Files of a public GitHub repository at a pinned commit (skills.evaluation.github), and the two
manifests that name them: bench/corpus.py's structure truth and an evaluation set's documents."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import urllib.request
from pathlib import Path

import pytest

from skills.evaluation import installed
from skills.evaluation.github import MIRRORS, GitHubFileError, github_file

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_corpus_github", ROOT / "bench" / "corpus.py")
assert _spec is not None and _spec.loader is not None
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)

HANDBOOK = b"%PDF-1.7 a handbook exported by Word, first version"


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """A bare mirror of ``someone/policies`` under ``$CORPUS_MIRRORS`` whose first commit holds
    the handbook and whose second replaces it: (first commit, second commit)."""
    work = tmp_path / "work"
    (work / "data").mkdir(parents=True)
    _git("init", "-q", cwd=work)
    commits = []
    for content in (HANDBOOK, b"%PDF-1.7 the handbook rewritten"):
        (work / "data" / "Staff Handbook.pdf").write_bytes(content)
        _git("add", ".", cwd=work)
        _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "m", cwd=work)
        commits.append(_git("rev-parse", "HEAD", cwd=work))
    mirrors = tmp_path / "mirrors"
    _git(
        "clone", "-q", "--bare", str(work), str(mirrors / "someone+policies" / "repo"), cwd=tmp_path
    )
    monkeypatch.setenv(MIRRORS, str(mirrors))
    return commits[0], commits[1]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No network: every download attempt is recorded and fails."""
    tried: list[str] = []

    def refuse(url: str, timeout: float) -> None:
        tried.append(url)
        raise OSError("network unreachable")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    return tried


def test_a_file_is_read_from_the_mirror_at_the_pinned_commit_not_the_newest(
    mirror: tuple[str, str], offline: list[str]
) -> None:
    first, second = mirror
    assert github_file("someone/policies", first, "data/Staff Handbook.pdf") == HANDBOOK
    assert github_file("someone/policies", second, "data/Staff Handbook.pdf") != HANDBOOK
    assert offline == []


def test_a_mirror_that_is_a_clone_with_its_git_folder_is_read_as_well(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, offline: list[str]
) -> None:
    work = tmp_path / "mirrors" / "someone+notes" / "repo"
    work.mkdir(parents=True)
    _git("init", "-q", cwd=work)
    (work / "notes.pdf").write_bytes(HANDBOOK)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "m", cwd=work)
    monkeypatch.setenv(MIRRORS, str(tmp_path / "mirrors"))
    commit = _git("rev-parse", "HEAD", cwd=work)
    assert github_file("someone/notes", commit, "notes.pdf") == HANDBOOK
    assert offline == []


def test_without_a_mirror_the_raw_file_is_downloaded_and_a_failure_names_the_remedy(
    offline: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(MIRRORS, raising=False)
    with pytest.raises(GitHubFileError, match=f"set {MIRRORS} to a folder holding a mirror"):
        github_file("someone/policies", "a" * 40, "data/Staff Handbook.pdf")
    raw = "https://raw.githubusercontent.com/someone/policies/"
    assert offline == [f"{raw}{'a' * 40}/data/Staff%20Handbook.pdf"]


@pytest.mark.parametrize(
    ("repository", "commit", "message"),
    [
        ("someone/policies", "main", "not a full commit"),
        ("someone/policies", "abc123", "not a full commit"),
        ("policies", "a" * 40, "not an owner/name"),
        ("someone/../../etc", "a" * 40, "not an owner/name"),
    ],
)
def test_a_moving_reference_or_a_malformed_repository_is_refused(
    repository: str, commit: str, message: str, offline: list[str]
) -> None:
    with pytest.raises(GitHubFileError, match=message):
        github_file(repository, commit, "data/x.pdf")
    assert offline == []


def _corpus_entry(commit: str, content: bytes) -> dict[str, str]:
    return {"name": "gh/someone/handbook.pdf", "source": "github", "package": "someone/policies",
            "version": commit, "path": "data/Staff Handbook.pdf",
            "sha256": hashlib.sha256(content).hexdigest()}  # fmt: skip


def test_the_corpus_fills_a_github_entry_checked_by_its_sha256(
    mirror: tuple[str, str], tmp_path: Path
) -> None:
    first, second = mirror
    (target,) = corpus.fill([_corpus_entry(first, HANDBOOK)], tmp_path / "cache")
    assert target.read_bytes() == HANDBOOK
    with pytest.raises(corpus.CorpusError, match="does not hash to the manifest's sha256"):
        corpus.fill([_corpus_entry(second, HANDBOOK)], tmp_path / "other")


def test_a_github_entry_the_corpus_cannot_reach_is_an_error_naming_it(
    offline: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(MIRRORS, raising=False)
    with pytest.raises(corpus.CorpusError, match=r"gh/someone/handbook\.pdf: .* could not be"):
        corpus.fill([_corpus_entry("b" * 40, HANDBOOK)], tmp_path / "cache")


def test_a_question_set_fills_and_reads_a_github_document(
    mirror: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The ``mirror`` fixture points ``$CORPUS_MIRRORS`` at the folder this mirror joins.)"""
    text = b"Staff may carry over five days of annual leave into the next year."
    work = tmp_path / "text"
    (work / "docs").mkdir(parents=True)
    _git("init", "-q", cwd=work)
    (work / "docs" / "leave.txt").write_bytes(text)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "m", cwd=work)
    commit = _git("rev-parse", "HEAD", cwd=work)
    mirrors = tmp_path / "mirrors"
    _git("clone", "-q", "--bare", str(work), str(mirrors / "someone+leave" / "repo"), cwd=tmp_path)
    folder = tmp_path / "set"
    folder.mkdir()
    entry = {"doc": "leave.txt", "root": "registry", "source": "github", "name": "someone/leave",
             "version": commit, "path": "docs/leave.txt", "package": "someone/leave (GitHub)",
             "sha256": hashlib.sha256(text).hexdigest()}  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps({"documents": [entry]}), encoding="utf-8")
    question = {"id": "q1", "question": "How many days carry over?", "doc": "leave.txt",
                "reference": "five days of annual leave", "kind": "prose"}  # fmt: skip
    (folder / "questions.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    monkeypatch.setattr(installed, "roots", lambda: {"registry": tmp_path / "cache"})
    assert len(installed.fill(folder)) == 1
    assert installed.fill(folder) == []
    dataset = installed.load_set(folder)
    assert dataset.reference_text(dataset.questions[0]) == "five days of annual leave"
