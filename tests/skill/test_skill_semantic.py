"""The semantic strategy in the skill: Azure OpenAI when configured, hierarchical when not/down."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import pytest
from skilltest_support import AppSettings, batch, call_chunk, messages, records

from skills.embeddings import AzureOpenAIEmbedder
from skills.llm import EmbeddingDeployment, boundaries
from skills.skill import SkillSettings

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
def configured(monkeypatch: pytest.MonkeyPatch, app_settings: AppSettings) -> None:
    app_settings(
        AZURE_OPENAI_ENDPOINT="https://aoai.example.openai.azure.com",
        AZURE_OPENAI_EMBEDDING_DEPLOYMENT="embeddings",
    )
    monkeypatch.setattr(boundaries, "_cache", {})


def test_without_settings_there_is_no_model_and_the_record_says_so() -> None:
    assert boundaries.boundary_model(None, deadline=10.0) is None
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    assert out["data"]["parents"]
    assert "semantic boundaries unavailable" in messages(out, "warnings")


def test_configured_embeddings_cut_parents_where_the_topic_changes(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boundaries, "_embedder", lambda deployment: Topics())
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    starts = [parent["start"] for parent in out["data"]["parents"]]
    assert starts == [0, TEXT.index(PARTS[11])]
    assert not messages(out, "warnings")


def test_the_model_is_built_once_per_setting(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[EmbeddingDeployment] = []

    def build(deployment: EmbeddingDeployment) -> Topics:
        built.append(deployment)
        return Topics()

    monkeypatch.setattr(boundaries, "_embedder", build)
    plain = EmbeddingDeployment("https://a", "d")
    for _ in range(3):
        assert boundaries.boundary_model(plain, deadline=10.0) is not None
    sized = EmbeddingDeployment("https://a", "d", dimensions=256)
    assert boundaries.boundary_model(sized, 10.0) is not None
    assert built == [plain, sized]


def test_an_embedding_outage_costs_quality_not_the_record(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boundaries, "_embedder", lambda deployment: Down())
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    assert out["errors"] is None and out["data"]["parents"]
    assert messages(out, "warnings") == (
        "semantic boundaries failed (ConnectionError): used hierarchical chunking instead"
    )


def test_other_strategies_never_build_the_model(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(deployment: EmbeddingDeployment) -> Topics:
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
    settings = SkillSettings.from_env(
        {
            "AZURE_OPENAI_ENDPOINT": "https://aoai.example.openai.azure.com",
            "AZURE_OPENAI_EMBEDDING_DEPLOYMENT": "d",
            "AZURE_OPENAI_EMBEDDING_DIMENSIONS": dimensions,
        }
    )
    assert settings.embeddings is not None
    embedder = boundaries._embedder(settings.embeddings)
    assert isinstance(embedder, AzureOpenAIEmbedder)  # built without any network call
    assert embedder.dimensions == expected
    assert embedder._send_dimensions is sent


class Throttled(Exception):
    """What openai raises for a 429: a status code and the response's headers."""

    def __init__(self, retry_after: str) -> None:
        super().__init__("429 Too Many Requests")
        self.status_code = 429
        self.response = type("Response", (), {"headers": {"retry-after": retry_after}})()


class Script:
    """An embedder that fails with the given exceptions first, then answers; counts attempts."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.attempts = 0
        self.deadlines: list[float] = []

    def embed_before(self, texts: Sequence[str], deadline: float) -> list[list[float]]:
        self.attempts += 1
        self.deadlines.append(deadline)
        if self.failures:
            raise self.failures.pop(0)
        return [[1.0, 0.0] for _ in texts]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("a bounded call must pass its deadline")


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def bounded(inner: Script, deadline: float, clock: FakeClock) -> boundaries.BoundedEmbedder:
    return boundaries.BoundedEmbedder(inner, deadline, clock, clock.sleep)


def test_each_attempt_times_out_at_the_records_deadline() -> None:
    inner, clock = Script(), FakeClock()
    assert bounded(inner, 7.5, clock).embed(["a", "b"]) == [[1.0, 0.0], [1.0, 0.0]]
    assert inner.deadlines == [7.5]


def test_a_retry_after_longer_than_the_time_left_falls_back_at_once() -> None:
    inner, clock = Script(Throttled("20")), FakeClock()
    with pytest.raises(Throttled):
        bounded(inner, 5.0, clock).embed(["a"])
    assert (inner.attempts, clock.slept) == (1, [])


def test_a_retry_after_that_fits_is_waited_for_once() -> None:
    inner, clock = Script(Throttled("1")), FakeClock()
    assert bounded(inner, 5.0, clock).embed(["a"]) == [[1.0, 0.0]]
    assert (inner.attempts, clock.slept) == (2, [1.0])


def test_an_error_that_another_attempt_cannot_fix_is_not_retried() -> None:
    inner, clock = Script(PermissionError("401")), FakeClock()
    with pytest.raises(PermissionError):
        bounded(inner, 50.0, clock).embed(["a"])
    assert inner.attempts == 1


def test_no_attempt_starts_without_time_for_it() -> None:
    inner, clock = Script(), FakeClock()
    with pytest.raises(TimeoutError):
        bounded(inner, boundaries.MIN_ATTEMPT_SECONDS / 2, clock).embed(["a"])
    assert inner.attempts == 0


def test_a_throttled_deployment_costs_a_record_one_attempt_not_its_retry_after(
    configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    inner = Script(Throttled("600"))
    monkeypatch.setattr(boundaries, "_embedder", lambda *settings: inner)
    out = records(call_chunk(batch({**SEMANTIC, **SIZES})))["1"]
    assert out["errors"] is None and out["data"]["parents"]
    assert "semantic boundaries failed (Throttled)" in messages(out, "warnings")
    assert inner.attempts == 1


class Built:
    """Records which credential classes get constructed."""

    made: ClassVar[list[str]] = []

    def __init__(self, **kwargs: object) -> None:
        Built.made.append(type(self).__name__)

    def get_token(self, *scopes: str, **kwargs: object) -> object:
        raise AssertionError("no token is needed to build the client")


class ManagedIdentityCredential(Built):
    pass


class AzureCliCredential(Built):
    pass


class DefaultAzureCredential(Built):
    pass


@pytest.mark.parametrize(
    ("env", "picked"),
    [
        ({"IDENTITY_ENDPOINT": "http://localhost:8081/msi/token"}, "ManagedIdentityCredential"),
        ({}, "AzureCliCredential"),
    ],
)
def test_one_credential_is_picked_never_the_default_chain(
    env: dict[str, str], picked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import azure.identity

    for fake in (ManagedIdentityCredential, AzureCliCredential, DefaultAzureCredential):
        monkeypatch.setattr(azure.identity, fake.__name__, fake)
    Built.made = []
    endpoint = {"AZURE_OPENAI_ENDPOINT": "https://aoai.example.openai.azure.com"}
    settings = SkillSettings.from_env({**env, **endpoint, "AZURE_OPENAI_EMBEDDING_DEPLOYMENT": "d"})
    assert settings.embeddings is not None
    boundaries._client(settings.embeddings)
    assert Built.made == [picked]
