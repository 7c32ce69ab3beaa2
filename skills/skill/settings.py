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
``SKILL_TIME_BUDGET_SECONDS``  per-batch budget, keep below the skill's     20
                               ``timeout`` (indexer default 30 s)
``SKILL_MAX_TEXT_CHARS``       longer texts are cut there (with a warning)  16000000
``CHUNK_<OPTION>``             default for a chunking option, e.g.          engine default
                               ``CHUNK_CHILD_MAX_TOKENS=128``
=============================  ===========================================  ==================

``AZURE_OPENAI_*`` (the ``semantic`` strategy's embeddings): see :mod:`skills.skill.boundaries`;
``AZURE_OPENAI_CHAT_DEPLOYMENT`` and ``CONTEXT_*`` (``contextualize=llm``): see
:mod:`skills.skill.contextual` and :mod:`skills.skill.note_cache`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

#: The Functions host rejects bodies above 100 MB by default; the dev server matches it.
DEFAULT_MAX_BODY_BYTES = 100 * 1024 * 1024
#: Two thirds of the indexer's default 30 s skill timeout: room for serialization and transfer.
DEFAULT_TIME_BUDGET_SECONDS = 20.0
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
            time_budget_seconds=time_budget(
                env.get("SKILL_TIME_BUDGET_SECONDS"), DEFAULT_TIME_BUDGET_SECONDS
            ),
            max_text_chars=_positive_int(env.get("SKILL_MAX_TEXT_CHARS"), DEFAULT_MAX_TEXT_CHARS),
        )


def auth_mode(env: Mapping[str, str]) -> AuthMode:
    """``SKILL_AUTH=entra`` selects Entra ID mode; anything else keeps the function key."""
    value = env.get("SKILL_AUTH", "").strip().lower()
    return AuthMode.ENTRA if value == AuthMode.ENTRA.value else AuthMode.KEY


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
