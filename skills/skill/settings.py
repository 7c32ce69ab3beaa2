"""App settings the skill reads, parsed once per request from a plain mapping (``os.environ``).

Reading settings from a mapping instead of ``os.environ`` directly keeps the skill pure: tests pass
a dict, the Function passes the environment. Malformed service settings fall back to their defaults
(a typo must not take the skill down); malformed *chunking* defaults are reported per record by
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

``AZURE_OPENAI_*`` (the ``semantic`` strategy's embeddings): see :mod:`skills.llm.boundaries`;
``AZURE_OPENAI_CHAT_DEPLOYMENT`` and ``CONTEXT_*`` (``contextualize=llm``): see
:mod:`skills.llm.notes` and :mod:`skills.llm.note_cache`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

#: The Functions host rejects bodies above 100 MB by default; the dev server matches it.
DEFAULT_MAX_BODY_BYTES = 100 * 1024 * 1024
#: The deployed budget (``infra/main.bicep``'s ``skillTimeBudgetSeconds``) for the shipped
#: skillsets' ``timeout`` of ``PT230S``: room for a cold start, an overrun's grace and transfer.
DEFAULT_TIME_BUDGET_SECONDS = 180.0
#: The setting that names who may call in ``entra`` mode (``skills.skill.caller``).
ALLOWED_CALLERS_SETTING = "SKILL_ALLOWED_CALLER_IDS"
BUDGET_SETTING = "SKILL_TIME_BUDGET_SECONDS"
#: The WebApiSkill timeout cannot exceed 230 s, so no budget above it makes sense.
MAX_TIME_BUDGET_SECONDS = 230.0
#: The most text an indexer ever extracts from one document (S3 tier: 16 million characters).
DEFAULT_MAX_TEXT_CHARS = 16_000_000
#: App settings that give chunking defaults start with this prefix.
OPTION_SETTING_PREFIX = "CHUNK_"


class AuthMode(StrEnum):
    """How callers are authenticated; one setting switches it, the deployment sets it."""

    KEY = "key"  # function key (x-functions-key header or ?code=), checked by the Functions host
    ENTRA = "entra"  # anonymous function level; App Service Authentication checks the bearer token


@dataclass(frozen=True, slots=True)
class SkillSettings:
    """Service-level settings (not chunking options: those are resolved per record)."""

    auth: AuthMode = AuthMode.KEY
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    time_budget_seconds: float = DEFAULT_TIME_BUDGET_SECONDS
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SkillSettings:
        """Settings from app settings; a malformed value keeps the default."""
        return cls(
            auth=auth_mode(env),
            max_body_bytes=_positive_int(env.get("SKILL_MAX_BODY_BYTES"), DEFAULT_MAX_BODY_BYTES),
            time_budget_seconds=time_budget(env.get(BUDGET_SETTING), DEFAULT_TIME_BUDGET_SECONDS),
            max_text_chars=_positive_int(env.get("SKILL_MAX_TEXT_CHARS"), DEFAULT_MAX_TEXT_CHARS),
        )


def auth_mode(env: Mapping[str, str]) -> AuthMode:
    """``SKILL_AUTH=entra`` selects Entra ID mode; anything else keeps the function key."""
    value = env.get("SKILL_AUTH", "").strip().lower()
    return AuthMode.ENTRA if value == AuthMode.ENTRA.value else AuthMode.KEY


class SettingsError(RuntimeError):
    """A setting the Function must not start without; the message says which and why."""


def allowed_callers(env: Mapping[str, str]) -> frozenset[str]:
    """The principal ids of ``SKILL_ALLOWED_CALLER_IDS``, lower case."""
    parts = (part.strip().lower() for part in env.get(ALLOWED_CALLERS_SETTING, "").split(","))
    return frozenset(part for part in parts if part)


def startup_check(env: Mapping[str, str]) -> list[str]:
    """What the Function says as it starts about the settings it runs without; a setting it must
    not start without raises :class:`SettingsError`.

    >>> startup_check({"SKILL_AUTH": "entra"})
    Traceback (most recent call last):
    ...
    skills.skill.settings.SettingsError: SKILL_AUTH=entra needs SKILL_ALLOWED_CALLER_IDS...
    >>> startup_check({"SKILL_TIME_BUDGET_SECONDS": "180"})
    []
    """
    if auth_mode(env) is AuthMode.ENTRA and not allowed_callers(env):
        raise SettingsError(
            f"SKILL_AUTH=entra needs {ALLOWED_CALLERS_SETTING}: without it any caller App "
            "Service Authentication lets in would be served; set it to the search service's "
            "managed identity's principal id (infra/ does)"
        )
    notes = []
    if BUDGET_SETTING not in env:
        notes.append(
            f"{BUDGET_SETTING} is not set: each batch gets {DEFAULT_TIME_BUDGET_SECONDS:g} s, "
            "which needs the skill's timeout at PT230S (index_definitions/); set it below the "
            "skill's timeout"
        )
    return notes


def time_budget(raw: str | None, default: float) -> float:
    """A budget in seconds within (0, 230]; anything else gives ``default``."""
    try:
        value = float(raw) if raw is not None else default
    except ValueError:
        return default
    if not math.isfinite(value) or value <= 0:
        return default
    return min(value, MAX_TIME_BUDGET_SECONDS)


def _positive_int(raw: str | None, default: int) -> int:
    try:
        value = int(raw) if raw is not None else default
    except ValueError:
        return default
    return value if value > 0 else default


def option_setting_name(field_name: str) -> str:
    """``child_max_tokens`` -> ``CHUNK_CHILD_MAX_TOKENS``."""
    return OPTION_SETTING_PREFIX + field_name.upper()
