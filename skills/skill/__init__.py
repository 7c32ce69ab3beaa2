"""The WebApiSkill: Azure AI Search's custom skill contract around the chunking engine.

``function_app.py`` is a thin adapter over :func:`handle_chunk_request` (bytes, query string and
app settings in; status and JSON bytes out), so everything here is testable without the Functions
host. Layers point inward: HTTP adapter -> ``skills.skill`` -> ``skills.chunking``.

>>> reply = handle_chunk_request(b'{"values": []}', {}, {})
>>> reply.status, reply.body
(200, b'{"values":[]}')
"""

from skills.skill.handler import Reply, handle_chunk_request
from skills.skill.settings import AuthMode, SkillSettings, auth_mode

__all__ = ["AuthMode", "Reply", "SkillSettings", "auth_mode", "handle_chunk_request"]
