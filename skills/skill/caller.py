"""In ``entra`` mode, a second look at the caller: did App Service Authentication vouch for it?

``/api/chunk`` is anonymous at the function level in ``entra`` mode, because App Service
Authentication (Easy Auth) rejects requests without a valid token before Python runs. If Easy
Auth is ever off or misconfigured, nothing would stop a caller; so the skill also checks what Easy
Auth injects for an authenticated caller, ``X-MS-CLIENT-PRINCIPAL-ID``, a header that "external
requests aren't allowed to set" (https://learn.microsoft.com/azure/app-service/configure-
authentication-user-identities). ``SKILL_ALLOWED_CALLER_IDS`` lists the principal (object) ids
allowed, comma-separated, and the caller must be one of them: without the list the Function does
not start in ``entra`` mode (``SkillSettings.startup_notes``), and should it run anyway every call
is refused. In ``key`` mode the Functions host checks the function key and this check does nothing.

>>> entra = SkillSettings(auth=AuthMode.ENTRA, allowed_callers=frozenset({"0c1d"}))
>>> refusal({}, entra).status
401
>>> refusal({"X-MS-CLIENT-PRINCIPAL-ID": "0C1D"}, entra) is None
True
>>> refusal({"X-MS-CLIENT-PRINCIPAL-ID": "0c1d"}, SkillSettings(auth=AuthMode.ENTRA)).status
500
"""

from __future__ import annotations

from collections.abc import Mapping

from skills.skill.answer import to_json
from skills.skill.handler import Reply
from skills.skill.settings import (
    ALLOWED_CALLERS_SETTING,
    AUTH_SETTING,
    AuthMode,
    SkillSettings,
)

PRINCIPAL_HEADER = "x-ms-client-principal-id"


def refusal(headers: Mapping[str, str], settings: SkillSettings) -> Reply | None:
    """A 401/403 answer for a caller Easy Auth did not vouch for, else ``None``."""
    if settings.auth is not AuthMode.ENTRA:
        return None
    principal = next(
        (value.strip() for name, value in headers.items() if name.lower() == PRINCIPAL_HEADER), ""
    )
    if not principal:
        return _reply(
            401,
            f"no authenticated caller: {AUTH_SETTING}=entra needs App Service "
            "Authentication in front of the function (docs/deploy.md)",
        )
    allowed = settings.allowed_callers
    if not allowed:
        return _reply(
            500, f"{AUTH_SETTING}=entra without {ALLOWED_CALLERS_SETTING}: every call is refused"
        )
    if principal.lower() not in allowed:
        return _reply(403, f"caller is not in {ALLOWED_CALLERS_SETTING}")
    return None


def _reply(status: int, message: str) -> Reply:
    return Reply(status, to_json({"error": {"message": message}}))
