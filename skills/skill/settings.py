"""Every app setting the skill reads, parsed once as the Function starts into one typed object.

``function_app.py`` builds :class:`SkillSettings` from ``os.environ`` at import (the host restarts
the worker when an app setting changes) and hands it, or the part each needs, to the request path:
nothing below reads the environment, and every setting's name is spelled in this module only
(``tests/skill/test_skill_settings.py``). Tests build their own (``SkillSettings(...)`` or
``from_env`` of a dict). Malformed service settings fall back to their defaults (a typo must not
take the skill down); malformed *chunking* defaults are reported per record by
:mod:`skills.skill.options`, naming the setting.

=============================  ===========================================  ==================
setting                        meaning                                      default
=============================  ===========================================  ==================
``SKILL_AUTH``                 ``key`` (function key) or ``entra``          ``key``
                               (anonymous level behind App Service Auth)
``SKILL_MAX_BODY_BYTES``       larger request bodies get 413                104857600 (100 MB)
``SKILL_TIME_BUDGET_SECONDS``  per-batch budget, keep below the skill's     180
                               ``timeout`` (the shipped skillsets: 230 s)
``SKILL_ALLOWED_CALLER_IDS``   principal ids allowed to call in ``entra``   none: ``entra``
                               mode, comma-separated                        will not start
``SKILL_MAX_TEXT_CHARS``       longer texts are cut there (with a warning)  16000000
``CHUNK_<OPTION>``             default for a chunking option, e.g.          engine default
                               ``CHUNK_CHILD_MAX_TOKENS=128``
=============================  ===========================================  ==================

The model calls (:mod:`skills.llm`): ``AZURE_OPENAI_ENDPOINT`` with
``AZURE_OPENAI_EMBEDDING_DEPLOYMENT`` (optional ``AZURE_OPENAI_EMBEDDING_DIMENSIONS``,
``AZURE_OPENAI_API_VERSION``, ``AZURE_CLIENT_ID``) give the ``semantic`` strategy its embeddings;
with ``AZURE_OPENAI_CHAT_DEPLOYMENT`` (optional ``AZURE_OPENAI_API_KEY``) ``contextualize=llm``
its chat model, bounded by the ``CONTEXT_*`` settings, its notes cached where
``CONTEXT_CACHE_*`` (or the host's own storage) say. ``APPLICATIONINSIGHTS_CONNECTION_STRING``
turns on OpenTelemetry (:mod:`skills.skill.telemetry`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from skills.llm import (
    DEFAULT_API_VERSION,
    CallPolicy,
    ChatTarget,
    EmbeddingDeployment,
    NoteSettings,
    NoteStore,
)

#: The Functions host rejects bodies above 100 MB by default; the dev server matches it.
DEFAULT_MAX_BODY_BYTES = 100 * 1024 * 1024
#: The deployed budget (``infra/main.bicep``'s ``skillTimeBudgetSeconds``) for the shipped
#: skillsets' ``timeout`` of ``PT230S``: room for a cold start, an overrun's grace and transfer.
DEFAULT_TIME_BUDGET_SECONDS = 180.0
#: The WebApiSkill timeout cannot exceed 230 s, so no budget above it makes sense.
MAX_TIME_BUDGET_SECONDS = 230.0
#: The most text an indexer ever extracts from one document (S3 tier: 16 million characters).
DEFAULT_MAX_TEXT_CHARS = 16_000_000

# The service's own settings.
AUTH_SETTING = "SKILL_AUTH"
ALLOWED_CALLERS_SETTING = "SKILL_ALLOWED_CALLER_IDS"
MAX_BODY_SETTING = "SKILL_MAX_BODY_BYTES"
BUDGET_SETTING = "SKILL_TIME_BUDGET_SECONDS"
MAX_TEXT_SETTING = "SKILL_MAX_TEXT_CHARS"
#: App settings that give chunking defaults start with this prefix.
OPTION_SETTING_PREFIX = "CHUNK_"
TELEMETRY_SETTING = "APPLICATIONINSIGHTS_CONNECTION_STRING"
#: Not read but written, when unset, for the OpenTelemetry distro (:mod:`telemetry`).
RESOURCE_DETECTORS_SETTING = "OTEL_EXPERIMENTAL_RESOURCE_DETECTORS"
# Azure OpenAI, for both the embeddings and the chat model.
OPENAI_ENDPOINT_SETTING = "AZURE_OPENAI_ENDPOINT"
OPENAI_API_VERSION_SETTING = "AZURE_OPENAI_API_VERSION"
EMBEDDING_DEPLOYMENT_SETTING = "AZURE_OPENAI_EMBEDDING_DEPLOYMENT"
EMBEDDING_DIMENSIONS_SETTING = "AZURE_OPENAI_EMBEDDING_DIMENSIONS"
CLIENT_ID_SETTING = "AZURE_CLIENT_ID"
#: Set by App Service and Azure Functions when the app has a managed identity.
IDENTITY_ENDPOINT_SETTING = "IDENTITY_ENDPOINT"
CHAT_DEPLOYMENT_SETTING = "AZURE_OPENAI_CHAT_DEPLOYMENT"
CHAT_API_KEY_SETTING = "AZURE_OPENAI_API_KEY"
# contextualize=llm's budgets and calls.
CONCURRENCY_SETTING = "CONTEXT_CONCURRENCY"
RECORD_TOKENS_SETTING = "CONTEXT_RECORD_MAX_TOKENS"
BATCH_TOKENS_SETTING = "CONTEXT_BATCH_MAX_TOKENS"
DOCUMENT_TOKENS_SETTING = "CONTEXT_DOCUMENT_MAX_TOKENS"
REQUEST_TIMEOUT_SETTING = "CONTEXT_REQUEST_TIMEOUT_SECONDS"
MAX_RETRIES_SETTING = "CONTEXT_MAX_RETRIES"
#: Empty sends none (a model without reasoning); unset: ``none``, gpt-5.2's lowest.
REASONING_EFFORT_SETTING = "CONTEXT_REASONING_EFFORT"
# Where the notes are cached.
CACHE_CONNECTION_SETTING = "CONTEXT_CACHE_CONNECTION_STRING"
CACHE_ACCOUNT_SETTING = "CONTEXT_CACHE_ACCOUNT_URL"
#: The host storage's identity-based blob endpoint (Flex Consumption), the cache's fallback.
HOST_BLOB_SETTING = "AzureWebJobsStorage__blobServiceUri"
CACHE_CONTAINER_SETTING = "CONTEXT_CACHE_CONTAINER"


class AuthMode(StrEnum):
    """How callers are authenticated; one setting switches it, the deployment sets it."""

    KEY = "key"  # function key (x-functions-key header or ?code=), checked by the Functions host
    ENTRA = "entra"  # anonymous function level; App Service Authentication checks the bearer token


class SettingsError(RuntimeError):
    """A setting the Function must not start without; the message says which and why."""


class SkillSettings(BaseModel):
    """Every setting the skill reads; the chunking defaults are kept as text, since a bad one is
    an error of each record that would use it, naming the setting (:mod:`options`).

    >>> settings = SkillSettings.from_env({"SKILL_MAX_BODY_BYTES": "oops"})
    >>> settings.max_body_bytes == DEFAULT_MAX_BODY_BYTES, settings.notes
    (True, None)
    """

    model_config = ConfigDict(frozen=True)

    auth: AuthMode = AuthMode.KEY
    #: the principal ids ``entra`` mode lets call, lower case
    allowed_callers: frozenset[str] = frozenset()
    max_body_bytes: int = Field(DEFAULT_MAX_BODY_BYTES, gt=0)
    time_budget_seconds: float = Field(
        DEFAULT_TIME_BUDGET_SECONDS, gt=0, le=MAX_TIME_BUDGET_SECONDS
    )
    #: whether the budget was set (the Function says at start-up when it was not)
    time_budget_given: bool = False
    max_text_chars: int = Field(DEFAULT_MAX_TEXT_CHARS, gt=0)
    #: ``CHUNK_<FIELD>`` app settings by the option's field name (``child_max_tokens``), as text
    chunk_defaults: Mapping[str, str] = Field(default_factory=dict)
    embeddings: EmbeddingDeployment | None = None
    notes: NoteSettings | None = None
    note_store: NoteStore | None = None
    telemetry_connection: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SkillSettings:
        """Settings from app settings; a malformed value keeps the default."""
        return cls(
            auth=_auth(env),
            allowed_callers=_allowed_callers(env),
            max_body_bytes=_positive_int(env.get(MAX_BODY_SETTING), DEFAULT_MAX_BODY_BYTES),
            time_budget_seconds=time_budget(env.get(BUDGET_SETTING), DEFAULT_TIME_BUDGET_SECONDS),
            time_budget_given=BUDGET_SETTING in env,
            max_text_chars=_positive_int(env.get(MAX_TEXT_SETTING), DEFAULT_MAX_TEXT_CHARS),
            chunk_defaults={
                name.removeprefix(OPTION_SETTING_PREFIX).lower(): value
                for name, value in env.items()
                if name.startswith(OPTION_SETTING_PREFIX) and value != ""
            },
            embeddings=_embeddings(env),
            notes=_notes(env),
            note_store=_note_store(env),
            telemetry_connection=env.get(TELEMETRY_SETTING, ""),
        )

    def startup_notes(self) -> list[str]:
        """What the Function says as it starts about the settings it runs without; a setting it
        must not start without raises :class:`SettingsError`.

        >>> SkillSettings.from_env({"SKILL_AUTH": "entra"}).startup_notes()
        Traceback (most recent call last):
        ...
        skills.skill.settings.SettingsError: SKILL_AUTH=entra needs SKILL_ALLOWED_CALLER_IDS...
        >>> SkillSettings.from_env({"SKILL_TIME_BUDGET_SECONDS": "180"}).startup_notes()
        []
        """
        if self.auth is AuthMode.ENTRA and not self.allowed_callers:
            raise SettingsError(
                f"{AUTH_SETTING}=entra needs {ALLOWED_CALLERS_SETTING}: without it any caller App "
                "Service Authentication lets in would be served; set it to the search service's "
                "managed identity's principal id (infra/ does)"
            )
        notes = []
        if not self.time_budget_given:
            notes.append(
                f"{BUDGET_SETTING} is not set: each batch gets {DEFAULT_TIME_BUDGET_SECONDS:g} s, "
                "which needs the skill's timeout at PT230S (index_definitions/); set it below the "
                "skill's timeout"
            )
        return notes


def option_setting_name(field_name: str) -> str:
    """``child_max_tokens`` -> ``CHUNK_CHILD_MAX_TOKENS``."""
    return OPTION_SETTING_PREFIX + field_name.upper()


def time_budget(raw: str | None, default: float) -> float:
    """A budget in seconds within (0, 230]; anything else gives ``default``."""
    try:
        value = float(raw) if raw is not None else default
    except ValueError:
        return default
    if not math.isfinite(value) or value <= 0:
        return default
    return min(value, MAX_TIME_BUDGET_SECONDS)


def _auth(env: Mapping[str, str]) -> AuthMode:
    """``SKILL_AUTH=entra`` selects Entra ID mode; anything else keeps the function key."""
    value = env.get(AUTH_SETTING, "").strip().lower()
    return AuthMode.ENTRA if value == AuthMode.ENTRA.value else AuthMode.KEY


def _allowed_callers(env: Mapping[str, str]) -> frozenset[str]:
    parts = (part.strip().lower() for part in env.get(ALLOWED_CALLERS_SETTING, "").split(","))
    return frozenset(part for part in parts if part)


def _embeddings(env: Mapping[str, str]) -> EmbeddingDeployment | None:
    """The ``semantic`` strategy's deployment; None without an endpoint and a deployment."""
    endpoint = env.get(OPENAI_ENDPOINT_SETTING, "").strip()
    deployment = env.get(EMBEDDING_DEPLOYMENT_SETTING, "").strip()
    if not endpoint or not deployment:
        return None
    dimensions = env.get(EMBEDDING_DIMENSIONS_SETTING, "").strip()
    return EmbeddingDeployment(
        endpoint,
        deployment,
        dimensions=int(dimensions) if dimensions.isdigit() else None,
        api_version=env.get(OPENAI_API_VERSION_SETTING, "").strip(),
        managed_identity=bool(env.get(IDENTITY_ENDPOINT_SETTING)),
        client_id=env.get(CLIENT_ID_SETTING, ""),
    )


def _notes(env: Mapping[str, str]) -> NoteSettings | None:
    """``contextualize=llm``'s chat deployment and bounds; None without a chat deployment."""
    endpoint = env.get(OPENAI_ENDPOINT_SETTING, "").strip()
    deployment = env.get(CHAT_DEPLOYMENT_SETTING, "").strip()
    if not endpoint or not deployment:
        return None
    target = ChatTarget(
        endpoint,
        deployment,
        env.get(OPENAI_API_VERSION_SETTING, "").strip() or DEFAULT_API_VERSION,
        env.get(CHAT_API_KEY_SETTING, "").strip(),
    )
    base = NoteSettings(target)
    calls = CallPolicy(
        max_retries=_number(env.get(MAX_RETRIES_SETTING), base.calls.max_retries, 0, 10),
        request_timeout=float(
            _number(env.get(REQUEST_TIMEOUT_SETTING), int(base.calls.request_timeout), 1, 230)
        ),
        reasoning_effort=env.get(REASONING_EFFORT_SETTING, base.calls.reasoning_effort).strip(),
    )
    return NoteSettings(
        target,
        concurrency=_number(env.get(CONCURRENCY_SETTING), base.concurrency, 1, 64),
        record_max_tokens=_number(env.get(RECORD_TOKENS_SETTING), base.record_max_tokens),
        batch_max_tokens=_number(env.get(BATCH_TOKENS_SETTING), base.batch_max_tokens),
        document_max_tokens=_number(env.get(DOCUMENT_TOKENS_SETTING), base.document_max_tokens),
        calls=calls,
    )


def _note_store(env: Mapping[str, str]) -> NoteStore | None:
    """Where notes are cached: a connection string, else an account (the cache's own, else the
    host's storage); None when neither is set."""
    connection = env.get(CACHE_CONNECTION_SETTING, "").strip()
    account = (env.get(CACHE_ACCOUNT_SETTING) or env.get(HOST_BLOB_SETTING) or "").strip()
    if not connection and not account:
        return None
    container = env.get(CACHE_CONTAINER_SETTING, "").strip()
    return (
        NoteStore(connection, account, container) if container else NoteStore(connection, account)
    )


def _positive_int(raw: str | None, default: int) -> int:
    try:
        value = int(raw) if raw is not None else default
    except ValueError:
        return default
    return value if value > 0 else default


def _number(raw: str | None, default: int, low: int = 1, high: int = 10**9) -> int:
    """A whole number within [low, high], else ``default``."""
    text = (raw or "").strip()
    return int(text) if text.isdigit() and low <= int(text) <= high else default
