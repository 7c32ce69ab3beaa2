"""The calls to Azure OpenAI deployments: a chat model's context notes (``contextualize=llm``)
and an embedding model's topic shifts (the ``semantic`` strategy).

Everything here talks to a model service within a deadline and degrades, never fails: a note that
cannot be written leaves the child its heading path, an embedder that cannot answer leaves the
record hierarchical. The modules take typed settings (the skill reads the app settings once,
``skills.skill.settings``) and never read the environment themselves.

- ``chat``: one chat completion within a deadline, retries bounded by it; the process's client.
- ``notes``: the note of every child of a record, within the token budgets and the deadline.
- ``note_cache``: notes kept in Blob storage, so an unchanged document costs no model call.
- ``boundaries``: topic shifts from the embedding deployment, within the record's deadline.

Code outside ``skills/llm/`` imports what it needs from here (``tests/test_public_face.py``).
"""

from skills.llm.boundaries import EmbeddingDeployment, boundary_model
from skills.llm.chat import DEFAULT_API_VERSION, CallPolicy, ChatTarget
from skills.llm.note_cache import NoteStore, note_cache
from skills.llm.notes import (
    NOTE_RESERVE,
    Ledger,
    NoteRun,
    NoteSettings,
    NoteStats,
    Prompts,
    output_tokens,
)

__all__ = [
    "DEFAULT_API_VERSION",
    "NOTE_RESERVE",
    "CallPolicy",
    "ChatTarget",
    "EmbeddingDeployment",
    "Ledger",
    "NoteRun",
    "NoteSettings",
    "NoteStats",
    "NoteStore",
    "Prompts",
    "boundary_model",
    "note_cache",
    "output_tokens",
]
