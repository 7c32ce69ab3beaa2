"""The settings that lose data without an error, and the rules that keep them safe.

Each rule is one function, used twice: by the offline checks of ``infra/`` (the defaults must
pass) and by ``python -m skills.search check`` (the live service must pass). They are the
service's documented limits, not guesses:

- deletion detection with ``NativeBlobSoftDeleteDeletionDetectionPolicy`` sees a deleted file only
  while its blob is soft-deleted, so soft delete must be on, blob versioning off, and the
  retention "significantly higher than your indexer interval schedule"
  (https://learn.microsoft.com/azure/search/search-how-to-index-azure-blob-changed-deleted);
- the indexer extracts at most so many characters per blob and reads blobs up to a size, per
  tier, and truncates or skips the rest with only a warning
  (https://learn.microsoft.com/azure/search/search-limits-quotas-capacity, "Indexer limits");
- a document key holds at most 1,024 characters, and a projected child's key embeds the source
  document's key, the URL-safe base64 of the blob's URL
  (https://learn.microsoft.com/azure/search/cognitive-search-common-errors-warnings).

>>> soft_delete_problems(enabled=True, days=14, versioning=False, schedule="PT1H")
[]
>>> soft_delete_problems(enabled=True, days=2, versioning=False, schedule="PT1H")[0][:43]
'blob soft delete keeps deleted files 2 days'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import isodate

from skills.search.projection import generated_key
from skills.search.simulation import blob_document_key

#: the shortest soft-delete retention, in days and in indexer intervals (see the module docstring)
MIN_RETENTION_DAYS = 7
MIN_RETENTION_INTERVALS = 7
MAX_KEY_LENGTH = 1024
#: the largest array position a projected key is assumed to carry (parents or children per file)
KEY_POSITION = 9999


@dataclass(frozen=True)
class TierLimits:
    """What the blob indexer reads of one blob on a tier."""

    max_blob_bytes: int
    max_extracted_characters: int


MB = 1024 * 1024
#: search-limits-quotas-capacity.md, "Indexer limits" (team notes, azure-ai-search.md §1.5)
TIER_LIMITS: dict[str, TierLimits] = {
    "free": TierLimits(16 * MB, 256_000),
    "basic": TierLimits(16 * MB, 512_000),
    "standard": TierLimits(128 * MB, 4_000_000),
    "standard2": TierLimits(256 * MB, 8_000_000),
    "standard3": TierLimits(256 * MB, 16_000_000),
    "storage_optimized_l1": TierLimits(256 * MB, 4_000_000),
    "storage_optimized_l2": TierLimits(256 * MB, 4_000_000),
}


def interval(schedule: str) -> timedelta:
    """An indexer schedule interval (ISO 8601, ``PT1H``) as a duration."""
    parsed = isodate.parse_duration(schedule)
    if not isinstance(parsed, timedelta):
        raise ValueError(f"indexer schedules are days, hours and minutes, got {schedule!r}")
    return parsed


def soft_delete_problems(
    *, enabled: bool | None, days: int | None, versioning: bool | None, schedule: str
) -> list[str]:
    """Why deletion detection would miss deleted files; empty when it works."""
    problems = []
    if not enabled:
        problems.append(
            "blob soft delete is off on the documents account: a deleted file keeps its chunks "
            "in the index forever"
        )
    elif days is None or not _retention_suffices(days, schedule):
        problems.append(
            f"blob soft delete keeps deleted files {days} days: keep it at least "
            f"{MIN_RETENTION_DAYS} days and {MIN_RETENTION_INTERVALS} indexer intervals "
            f"({schedule}), so that a deletion outlives a week of failed or skipped runs"
        )
    if versioning:
        problems.append("blob versioning is on: native soft-delete detection does not work with it")
    return problems


def _retention_suffices(days: int, schedule: str) -> bool:
    retention = timedelta(days=days)
    longest = max(timedelta(days=MIN_RETENTION_DAYS), MIN_RETENTION_INTERVALS * interval(schedule))
    return retention >= longest


def blob_problems(
    name: str, url: str, size: int, limits: TierLimits | None, contexts: list[str]
) -> list[str]:
    """What the indexer will silently cut or fail for one blob under the tier's ``limits``.

    ``contexts`` are the projection selectors' ``sourceContext`` paths: the deepest one makes
    the longest key. A text blob of ``n`` bytes holds at most ``n`` characters, so only blobs
    larger than the extraction limit can be truncated.
    """
    problems = []
    if limits is not None and size > limits.max_blob_bytes:
        problems.append(
            f"{name}: {size:,} bytes, above the {limits.max_blob_bytes:,}-byte blob limit of "
            "the tier: the indexer skips it"
        )
    elif limits is not None and size > limits.max_extracted_characters:
        problems.append(
            f"{name}: {size:,} bytes; the tier extracts at most "
            f"{limits.max_extracted_characters:,} characters and drops the rest with a warning"
        )
    longest = max((projected_key_length(url, context) for context in contexts), default=0)
    if longest > MAX_KEY_LENGTH:
        problems.append(
            f"{name}: its chunks' keys would be {longest:,} characters, above the "
            f"{MAX_KEY_LENGTH:,} the service accepts: shorten the blob's path"
        )
    return problems


def projected_key_length(url: str, context: str) -> int:
    """The length of the longest key a selector at ``context`` generates for the blob ``url``."""
    positions = tuple(KEY_POSITION for part in context.split("/") if part == "*")
    return len(generated_key("0" * 12, blob_document_key(url), context, positions))
