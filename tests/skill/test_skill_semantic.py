"""The semantic strategy in the skill: Azure OpenAI when configured, hierarchical when not/down."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from skilltest_support import batch, call_chunk, messages, records

from skills.embeddings import AzureOpenAIEmbedder
from skills.skill import boundaries

TOPICS = ("penguin", "invoice")
PARTS = [f"The penguin note {i} says a penguin is a penguin." for i in range(11)] + [
    f"The invoice note {i} says an invoice is an invoice." for i in range(7)
]
TEXT = "\n\n".join(PARTS)
SEMANTIC = {"text": TEXT, "documentKey": "k", "format": "text", "strategy": "semantic"}
SIZES = {"parentMaxTokens": 200, "childMaxTokens": 64}


class Topics:
    """Stands in for the Azure OpenAI deployment: one dimension per topic word."""

    calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        Topics.calls += 1
        return [[float(text.count(word)) for word in TOPICS] for text in texts]


class Down:
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise ConnectionError("no route to the deployment")


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(boundaries.ENDPOINT, "https://aoai.example.openai.azure.com")
    monkeypatch.setenv(boundaries.DEPLOYMENT, "embeddings")
    monkeypatch.setattr(boundaries, "_cache", {})


def test_without_settings_there_is_no_model_and_the_record_says_so() -> None:
    assert boundaries.boundary_model({}) is None
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    assert out["data"]["parents"]
    assert "semantic boundaries unavailable" in messages(out, "warnings")


def test_configured_embeddings_cut_parents_where_the_topic_changes(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boundaries, "_embedder", lambda *settings: Topics())
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    starts = [parent["start"] for parent in out["data"]["parents"]]
    assert starts == [0, TEXT.index(PARTS[11])]
    assert not messages(out, "warnings")


def test_the_model_is_built_once_per_setting(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[tuple[str, ...]] = []

    def build(*settings: str) -> Topics:
        built.append(settings)
        return Topics()

    monkeypatch.setattr(boundaries, "_embedder", build)
    env = {boundaries.ENDPOINT: "https://a", boundaries.DEPLOYMENT: "d"}
    assert boundaries.boundary_model(env) is boundaries.boundary_model(env)
    assert boundaries.boundary_model({**env, boundaries.DIMENSIONS: "256"}) is not None
    assert built == [("https://a", "d", "", ""), ("https://a", "d", "256", "")]


def test_an_embedding_outage_costs_quality_not_the_record(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boundaries, "_embedder", lambda *settings: Down())
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    assert out["errors"] is None and out["data"]["parents"]
    assert messages(out, "warnings") == (
        "semantic boundaries failed (ConnectionError): used hierarchical chunking instead"
    )


def test_other_strategies_never_build_the_model(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*settings: str) -> Topics:
        raise AssertionError("built for a non-semantic record")

    monkeypatch.setattr(boundaries, "_embedder", refuse)
    out = records(call_chunk(batch({**SEMANTIC, "strategy": "hierarchical"})))["1"]
    assert out["errors"] is None


@pytest.mark.parametrize(
    ("dimensions", "sent", "expected"),
    [("256", True, 256), ("", False, 1536), ("abc", False, 1536)],
)
def test_a_missing_or_malformed_dimension_count_is_not_sent(
    dimensions: str, sent: bool, expected: int
) -> None:
    embedder = boundaries._embedder("https://aoai.example.openai.azure.com", "d", dimensions, "")
    assert isinstance(embedder, AzureOpenAIEmbedder)  # built without any network call
    assert embedder.dimensions == expected
    assert embedder._send_dimensions is sent
