"""What the service's echo of a definition means: equal values that are not equal text.

A GET does not return the JSON that was PUT. The service writes durations in its own form
(``PT230S`` comes back as ``PT3M50S``), enum values in its own casing, and an empty list or
object it was sent as null. Comparing text would report a difference on every deploy: the doctor
would fail ``azd up``, the deploy would re-send the object and ask for an indexer reset (and with
``AZURE_SEARCH_RESET=true`` re-index everything). :func:`same_meaning` says when a value the
service holds means what we send, so that only a real change is a change.

The three rules, each from its source:

- durations are ISO 8601 (``Edm.Duration`` in the REST spec; ``timeout``, ``interval``...),
  compared as lengths of time;
- a value of one of the SDK's enums (the azure-search-documents 12 models declare every one with
  ``CaseInsensitiveEnumMeta``) compares without case;
- null, an empty list, an empty object and an empty string all mean "not set".

>>> same_meaning("PT3M50S", "PT230S")
True
>>> same_meaning("SkipIndexingParentDocuments", "skipIndexingParentDocuments")
True
>>> same_meaning(None, [])
True
>>> same_meaning("PT5M", "PT230S")
False
"""

from __future__ import annotations

import enum
import re
from datetime import timedelta
from functools import cache
from typing import Any

#: ``P[nD][T[nH][nM][n[.n]S]]``: the day-time durations the service uses (no years or months,
#: which have no fixed length)
DURATION = re.compile(
    r"P(?:(?P<days>\d+)D)?"
    r"(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?"
)
EMPTY: tuple[Any, ...] = (None, [], {}, "")


def same_meaning(current: Any, desired: Any) -> bool:
    """Whether the service's ``current`` value means the ``desired`` one (see the module)."""
    if current == desired:
        return True
    if _is_empty(current) and _is_empty(desired):
        return True
    if isinstance(current, str) and isinstance(desired, str):
        return _same_duration(current, desired) or _same_enum_value(current, desired)
    return False


def _is_empty(value: Any) -> bool:
    return any(value == empty and type(value) is type(empty) for empty in EMPTY)


def duration(text: str) -> timedelta | None:
    """The length of an ISO 8601 day-time duration, or None if ``text`` is not one.

    >>> duration("PT1H30M"), duration("P1D"), duration("PT"), duration("soon")
    (datetime.timedelta(seconds=5400), datetime.timedelta(days=1), None, None)
    """
    match = DURATION.fullmatch(text)
    if match is None or not any(match.groupdict().values()):
        return None
    parts = {name: float(value) for name, value in match.groupdict().items() if value}
    return timedelta(**parts)


def _same_duration(current: str, desired: str) -> bool:
    ours, theirs = duration(desired), duration(current)
    return ours is not None and ours == theirs


def _same_enum_value(current: str, desired: str) -> bool:
    return current.lower() == desired.lower() and desired.lower() in enum_values()


@cache
def enum_values() -> frozenset[str]:
    """Every value of the SDK's case-insensitive enums, lower-cased."""
    from azure.core import CaseInsensitiveEnumMeta
    from azure.search.documents.indexes import models

    values: set[str] = set()
    for name in dir(models):
        found = getattr(models, name)
        if isinstance(found, CaseInsensitiveEnumMeta) and issubclass(found, enum.Enum):
            values |= {str(member.value).lower() for member in found}
    return frozenset(values)
