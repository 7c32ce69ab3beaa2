"""Chunking options for one record: record > query string > app settings > engine defaults.

Every source speaks the engine's camelCase option names (``childMaxTokens``); app settings use
``CHUNK_`` + the snake_case name in upper case (``CHUNK_CHILD_MAX_TOKENS``), which
:class:`~skills.skill.settings.SkillSettings` keeps by the snake_case name (``chunk_defaults``).
A value of ``null`` in a record means "not given" (the indexer sends null for a missing input), so
it falls through to the next source. Numbers may arrive as text (``"128"``: query strings and app
settings are always text); booleans are not numbers.

>>> resolve_options({"childMaxTokens": 128}, {"strategy": "structural"}, {}).strategy.value
'structural'

``contextualize`` (``none`` or ``llm``, app setting ``CHUNK_CONTEXTUALIZE``) is the skill's own
option, resolved the same way: with ``llm`` each child keeps ``noteTokens`` (``LLM_NOTE_TOKENS``
unless given) for room for a note written by a chat model (:mod:`skills.llm.notes`).

>>> resolve_contextualize({}, {"contextualize": "llm"}, {}).value
'llm'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from annotated_types import Ge, Le
from pydantic import ValidationError

from skills.chunking import ChunkOptions
from skills.skill.contract import HugeInteger
from skills.skill.settings import option_setting_name

#: camelCase wire name -> snake_case field name, for every engine option.
OPTION_FIELDS: dict[str, str] = {
    (info.alias or name): name for name, info in ChunkOptions.model_fields.items()
}
_INT_FIELDS = frozenset(
    name for name, info in ChunkOptions.model_fields.items() if info.annotation is int
)
_MAX_SHOWN_VALUE = 40
#: An integer as text: ASCII digits only (``int()`` also reads ``"²³"``-like and ``"1_000"``),
#: short enough to convert at once; ``"128.0"`` is accepted, as pydantic accepts ``128.0``.
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}(?:\.0*)?")


class Contextualize(StrEnum):
    """Whether children get a context note from a chat model."""

    NONE = "none"
    LLM = "llm"


#: The skill's own options, beside the engine's.
SKILL_OPTIONS = ("contextualize",)


class OptionError(ValueError):
    """An option that cannot be used; the message names it and says what is allowed."""


@dataclass(frozen=True, slots=True)
class _Given:
    value: Any
    source: str  # "record", "query string" or "app setting CHUNK_..."


def resolve_options(
    record: Mapping[str, Any],
    query: Mapping[str, str],
    app_defaults: Mapping[str, str],
    defaults: Mapping[str, Any] | None = None,
) -> ChunkOptions:
    """The validated options for one record, or :class:`OptionError` naming what is wrong;
    ``app_defaults`` are the ``CHUNK_`` app settings by field name; ``defaults`` (camelCase) come
    last, before the engine's own."""
    given = _collect(record, query, app_defaults)
    for wire, value in (defaults or {}).items():
        given.setdefault(wire, _Given(value, "skill's default"))
    for name, item in given.items():
        _check_type(name, item)
    try:
        return ChunkOptions.model_validate({name: item.value for name, item in given.items()})
    except ValidationError as exc:
        raise OptionError(_describe(exc, given)) from None


def resolve_contextualize(
    record: Mapping[str, Any], query: Mapping[str, str], app_defaults: Mapping[str, str]
) -> Contextualize:
    """``contextualize`` for one record (``none`` unless given), or :class:`OptionError`."""
    item = _given("contextualize", "contextualize", record, query, app_defaults)
    if item is None:
        return Contextualize.NONE
    if isinstance(item.value, list | dict):
        kind = "an array" if isinstance(item.value, list) else "an object"
        allowed = ", ".join(member.value for member in Contextualize)
        raise OptionError(f"contextualize: must be one of {allowed}, got {kind} from the record")
    value = item.value.strip().lower() if isinstance(item.value, str) else item.value
    if value not in tuple(Contextualize):
        allowed = ", ".join(member.value for member in Contextualize)
        raise OptionError(
            f"contextualize: must be one of {allowed} (got {_show(item.value)} from the "
            f"{item.source})"
        )
    return Contextualize(value)


def _collect(
    record: Mapping[str, Any], query: Mapping[str, str], app_defaults: Mapping[str, str]
) -> dict[str, _Given]:
    given: dict[str, _Given] = {}
    for wire, field in OPTION_FIELDS.items():
        item = _given(wire, field, record, query, app_defaults)
        if item is not None:
            given[wire] = item
    return given


def _given(
    wire: str,
    field: str,
    record: Mapping[str, Any],
    query: Mapping[str, str],
    app_defaults: Mapping[str, str],
) -> _Given | None:
    """The value that counts, record > query string > app setting, or None."""
    if record.get(wire) is not None:
        return _Given(record[wire], "record")
    if query.get(wire) not in (None, ""):
        return _Given(query[wire], "query string")
    if app_defaults.get(field) not in (None, ""):
        return _Given(app_defaults[field], f"app setting {option_setting_name(field)}")
    return None


def _check_type(wire: str, item: _Given) -> None:
    """Reject what pydantic's lax mode would quietly accept (``true`` as 1; ``12.0`` is fine),
    and what the engine's own int() would fail on without naming the option (``"²³"``, a number
    of thousands of digits)."""
    value = item.value
    if isinstance(value, list | dict):
        _refuse_structure(wire, item)
    if OPTION_FIELDS[wire] not in _INT_FIELDS:
        return
    if isinstance(value, bool):
        got = "a boolean"
    elif isinstance(value, HugeInteger):
        got = repr(value).strip("<>")
    elif isinstance(value, str) and not _WHOLE_NUMBER.fullmatch(value.strip()):
        got = _show(value)
    else:
        return
    raise OptionError(
        f"{wire}: must be a whole number{_range(wire)}, got {got} from the {item.source}"
    )


def _refuse_structure(wire: str, item: _Given) -> None:
    """An array or object where an option's value belongs, refused by its kind alone: it is
    never shown nor validated, since one nested hundreds of levels deep would exhaust the stack
    of whatever walks it (``repr``, pydantic, an enum lookup)."""
    kind = "an array" if isinstance(item.value, list) else "an object"
    what = "a whole number" if OPTION_FIELDS.get(wire) in _INT_FIELDS else "a single value"
    raise OptionError(f"{wire}: must be {what}{_range(wire)}, got {kind} from the {item.source}")


def _describe(exc: ValidationError, given: Mapping[str, _Given]) -> str:
    problems = []
    for error in exc.errors(include_url=False):
        wire = str(error["loc"][0]) if error["loc"] else ""
        if wire in given:
            item = given[wire]
            problems.append(
                f"{wire}: {_plain(error['msg'])}{_range(wire)} "
                f"(got {_show(item.value)} from the {item.source})"
            )
        else:  # a rule across options (e.g. overlap vs size): the engine's message names them
            problems.append(_plain(error["msg"]))
    return "; ".join(problems)


def _range(wire: str) -> str:
    """``; allowed range: 16 to 8191`` or ``; allowed: fixed, recursive, ...``, from the engine."""
    info = ChunkOptions.model_fields[OPTION_FIELDS[wire]]
    low = next((m.ge for m in info.metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, Le)), None)
    if low is not None and high is not None:
        return f"; allowed range: {low} to {high}"
    annotation = info.annotation
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "; allowed: " + ", ".join(str(member.value) for member in annotation)
    return ""


def _plain(message: str) -> str:
    return message.removeprefix("Value error, ")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN_VALUE else text[: _MAX_SHOWN_VALUE - 3] + "..."
