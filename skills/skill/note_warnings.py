"""What a ``contextualize=llm`` record's warnings say about its notes: one warning a record,
naming the settings that would give the missing notes.

>>> from skills.llm import NoteStats
>>> stats = NoteStats(notes=3)
>>> stats.miss("budget")
>>> missing_warning(stats, children=4)  # doctest: +ELLIPSIS
'context notes missing for 1 of 4 children (1 over the token budget (CONTEXT_RECORD_MAX_...'
"""

from __future__ import annotations

from skills.llm import NoteStats
from skills.skill.settings import (
    BATCH_TOKENS_SETTING,
    CHAT_DEPLOYMENT_SETTING,
    OPENAI_ENDPOINT_SETTING,
    RECORD_TOKENS_SETTING,
)

#: A record asked for notes where no chat deployment is configured.
NO_DEPLOYMENT = (
    f"contextualize=llm ignored: no chat deployment is configured ({OPENAI_ENDPOINT_SETTING} "
    f"and {CHAT_DEPLOYMENT_SETTING}); children keep the heading path only"
)
_REASONS = {
    "budget": f"over the token budget ({RECORD_TOKENS_SETTING} / {BATCH_TOKENS_SETTING})",
    "throttled": "throttled by the chat deployment (429)",
    "time": "out of the skill's time budget",
    "service": "chat deployment errors",
    "empty": "empty answers",
}


def missing_warning(stats: NoteStats, children: int) -> str | None:
    """The record's one warning about children without a note, or None when all have one."""
    missing = sum(stats.missing.values())
    if not missing:
        return None
    reasons = ", ".join(
        f"{count} {_REASONS.get(reason, reason)}" for reason, count in stats.missing.most_common()
    )
    return (
        f"context notes missing for {missing} of {children} children ({reasons}): they keep "
        "the heading path only"
    )
