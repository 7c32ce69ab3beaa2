"""Contextual notes at the scale of a container: the estimate a deploy prints before it runs,
and the fill of notes a run skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from skills.search import cli
from skills.search.doctor import Blob
from skills.search.notes import (
    DOCUMENT_MAX_TOKENS,
    documents_missing_notes,
    estimate_notes,
)
from skills.search.settings import SearchSettings


def test_the_estimate_reproduces_the_measured_figures_of_the_docs() -> None:
    """docs/deploy.md: 1,000 documents of 9,900 characters, 72,700 calls, 229 M input tokens,
    3.5 M output tokens; at the shipped 50K TPM that is the issue's 76 hours and more."""
    estimate = estimate_notes([9_900] * 1_000, capacity=50)
    assert estimate.calls == pytest.approx(72_700, rel=0.01)
    assert estimate.input_tokens == pytest.approx(229e6, rel=0.01)
    assert estimate.output_tokens == pytest.approx(3.5e6, rel=0.01)
    assert 76 <= estimate.hours <= 80


def test_input_grows_with_the_square_of_a_document_until_the_outline_replaces_it() -> None:
    small, double = (estimate_notes([size], 50).input_tokens for size in (4_000, 8_000))
    assert 3.0 < double / small < 4.0  # children x document length
    limit = DOCUMENT_MAX_TOKENS * 4
    big, bigger = (estimate_notes([size], 50).input_tokens for size in (limit * 2, limit * 4))
    assert bigger / big == pytest.approx(2.0)  # past the limit each call carries the outline


def test_more_capacity_takes_less_time_for_the_same_tokens() -> None:
    slow, fast = (estimate_notes([9_900] * 100, capacity) for capacity in (50, 500))
    assert slow.input_tokens == fast.input_tokens
    assert slow.hours / fast.hours == pytest.approx(10.0)


def test_a_document_with_one_skipped_note_is_listed_once() -> None:
    children: list[dict[str, str | None]] = [
        {"sourcePath": "https://a/documents/x.md", "context": "A note."},
        {"sourcePath": "https://a/documents/y.md", "context": ""},
        {"sourcePath": "https://a/documents/y.md", "context": ""},
        {"sourcePath": "https://a/documents/z.md", "context": None},
    ]
    assert documents_missing_notes(children) == [
        "https://a/documents/y.md",
        "https://a/documents/z.md",
    ]


@dataclass
class FakeBlob:
    metadata: dict[str, str]
    written: list[dict[str, str]] = field(default_factory=list)

    def get_blob_properties(self) -> Any:
        return self

    def set_blob_metadata(self, metadata: dict[str, str]) -> None:
        self.written.append(metadata)


@dataclass
class FakeContainer:
    url: str
    blobs: dict[str, FakeBlob]

    def get_blob_client(self, name: str) -> FakeBlob:
        return self.blobs[name]


def test_fill_touches_each_blob_keeping_its_metadata() -> None:
    container = FakeContainer(
        "https://a.blob.core.windows.net/documents",
        {"y y.md": FakeBlob({"owner": "me"}), "z.md": FakeBlob({})},
    )
    urls = [
        "https://a.blob.core.windows.net/documents/y%20y.md",
        "https://a.blob.core.windows.net/documents/z.md",
        "https://elsewhere.blob.core.windows.net/other/w.md",
    ]
    assert cli.touch(container, urls) == 2
    (written,) = container.blobs["y y.md"].written
    assert written["owner"] == "me" and written["notesrequested"].endswith("Z")


class ListedStorage:
    def blobs(self) -> list[Blob]:
        return [Blob("a.md", "https://a/documents/a.md", 9_900),
                Blob("b.exe", "https://a/documents/b.exe", 10**9)]  # fmt: skip


def test_the_deploy_prints_what_notes_will_cost_and_take_before_it_runs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_CHAT_DEPLOYMENT", "gpt-5.2")
    monkeypatch.setenv("AZURE_OPENAI_CHAT_CAPACITY", "50")
    monkeypatch.setenv("CONTEXT_INPUT_PRICE_PER_MILLION", "1")
    monkeypatch.setenv("CONTEXT_OUTPUT_PRICE_PER_MILLION", "10")
    monkeypatch.setattr(cli, "_storage", lambda settings: ListedStorage())
    settings = SearchSettings(storage_blob_endpoint="https://a.blob.core.windows.net")
    cli._print_note_estimate(settings, "embedded")
    out = capsys.readouterr().out
    assert "for 1 files (9,900 characters): about 73 chat calls" in out  # not the .exe
    assert "hours at 50K TPM" in out and "USD at the prices given" in out
    assert "python -m skills.search notes --fill" in out


def test_no_chat_deployment_no_estimate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AZURE_OPENAI_CHAT_DEPLOYMENT", raising=False)
    cli._print_note_estimate(SearchSettings(storage_blob_endpoint="https://a"), "embedded")
    assert capsys.readouterr().out == ""
