"""The WebApiSkill: Azure AI Search's custom skill contract around the chunking engine.

``function_app.py`` is a thin adapter over :func:`handle_chunk_request` (bytes, query string and
the settings it read once at start-up in; status and JSON bytes out), so everything here is
testable without the Functions host. Layers point inward: HTTP adapter -> ``skills.skill`` ->
``skills.llm`` and ``skills.chunking``. Code outside ``skills/skill/`` imports what it needs from
here (``tests/test_public_face.py``).

>>> reply = handle_chunk_request(b'{"values": []}', {}, SkillSettings())
>>> reply.status, reply.body
(200, b'{"values":[]}')
"""

from skills.skill.caller import refusal
from skills.skill.contract import ChildOut, ParentOut
from skills.skill.handler import Reply, handle_chunk_request
from skills.skill.hangup import watching
from skills.skill.inputs import LLM_NOTE_TOKENS
from skills.skill.settings import AuthMode, SettingsError, SkillSettings

__all__ = [
    "LLM_NOTE_TOKENS",
    "AuthMode",
    "ChildOut",
    "ParentOut",
    "Reply",
    "SettingsError",
    "SkillSettings",
    "handle_chunk_request",
    "refusal",
    "watching",
]
