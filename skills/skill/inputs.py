"""One record's inputs, checked: text, title, documentKey, format and the chunking options.

A record fails (``InputError``) only when nothing useful can come out of it: no text, unknown
inputs, unusable options. Everything else degrades with a warning: a title of the wrong type is
ignored, a missing documentKey is replaced by a hash of the text, lone UTF-16 surrogates (which JSON
allows and UTF-8 cannot carry) become U+FFFD, one character for one, so offsets still match the
indexer's text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skills.chunking import ChunkOptions, Format
from skills.skill.options import (
    OPTION_FIELDS,
    SKILL_OPTIONS,
    Contextualize,
    OptionError,
    resolve_contextualize,
    resolve_options,
)
from skills.skill.settings import option_setting_name

DOCUMENT_INPUTS = ("text", "title", "documentKey", "format")
#: Every input name a record may carry.
KNOWN_INPUTS = frozenset(DOCUMENT_INPUTS) | frozenset(OPTION_FIELDS) | frozenset(SKILL_OPTIONS)
#: The room a child keeps for its note under ``contextualize=llm`` unless ``noteTokens`` is given.
LLM_NOTE_TOKENS = 32
#: Query-string names that are not record inputs: the function key and the batch time budget.
QUERY_ONLY = frozenset({"code", "timeBudgetSeconds"})
_SURROGATE = re.compile("[\ud800-\udfff]")
_FORMATS = tuple(member.value for member in Format)


class InputError(ValueError):
    """The record cannot be chunked; the message says which input and what to do."""


@dataclass(frozen=True, slots=True)
class RecordInputs:
    """What the engine gets for one record, plus the warnings collected on the way."""

    text: str
    title: str | None
    document_key: str
    format: Format | None
    options: ChunkOptions
    warnings: tuple[str, ...]
    contextualize: Contextualize = Contextualize.NONE


def read_inputs(
    data: Any, query: Mapping[str, str], settings: Mapping[str, str], max_text_chars: int
) -> RecordInputs:
    """Checked inputs of one record, or :class:`InputError`; text is cut at ``max_text_chars``."""
    if not isinstance(data, dict):
        raise InputError(f"data must be an object with a 'text' input, got {_kind(data)}")
    _reject_unknown(data)
    warnings: list[str] = []
    text = _text(data.get("text"), max_text_chars, warnings)
    try:
        contextualize = resolve_contextualize(data, query, settings)
        defaults = {"noteTokens": LLM_NOTE_TOKENS} if contextualize is Contextualize.LLM else {}
        options = resolve_options(data, query, settings, defaults)
    except OptionError as exc:
        raise InputError(str(exc)) from None
    return RecordInputs(
        text=text,
        title=_title(data.get("title"), warnings),
        document_key=_document_key(data.get("documentKey"), text, warnings),
        format=_format(data.get("format"), query, settings),
        options=options,
        warnings=tuple(warnings),
        contextualize=contextualize,
    )


def unknown_query_names(query: Mapping[str, str]) -> list[str]:
    """Query-string names the skill does not know (a typo in the skill's ``uri``)."""
    return sorted(name for name in query if name not in KNOWN_INPUTS and name not in QUERY_ONLY)


def replace_surrogates(value: str) -> tuple[str, int]:
    """``value`` with lone surrogates replaced by U+FFFD, and how many there were."""
    if _SURROGATE.search(value) is None:
        return value, 0
    return _SURROGATE.subn("\ufffd", value)


def _reject_unknown(data: Mapping[str, Any]) -> None:
    unknown = sorted(str(name) for name in data if name not in KNOWN_INPUTS)
    if unknown:
        names = ", ".join(repr(name[:40]) for name in unknown[:5])
        raise InputError(
            f"unknown input {names}; allowed inputs: {', '.join(sorted(KNOWN_INPUTS))}"
        )


def _text(value: Any, max_chars: int, warnings: list[str]) -> str:
    if value is None:
        raise InputError(
            "text is missing: map a skill input named 'text' (for example /document/content)"
        )
    if not isinstance(value, str):
        raise InputError(f"text must be a string, got {_kind(value)}")
    if len(value) > max_chars:
        warnings.append(
            f"text truncated to its first {max_chars} characters (of {len(value)}); "
            "SKILL_MAX_TEXT_CHARS sets the limit"
        )
        value = value[:max_chars]
    text, replaced = replace_surrogates(value)
    if replaced:
        warnings.append(f"text had {replaced} unpaired UTF-16 surrogate(s), replaced by U+FFFD")
    return text


def _title(value: Any, warnings: list[str]) -> str | None:
    if value is None or isinstance(value, str):
        return None if value is None else replace_surrogates(value)[0]
    warnings.append(f"title ignored: must be a string, got {_kind(value)}")
    return None


def _document_key(value: Any, text: str, warnings: list[str]) -> str:
    if isinstance(value, str) and value.strip():
        return replace_surrogates(value)[0]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    digest = hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=12).hexdigest()
    if value is None or value == "":
        warnings.append(
            "documentKey missing: chunk ids derive from a hash of the text; map documentKey to "
            "the indexer's document key (for example /document/metadata_storage_path) for ids "
            "that stay stable when the document changes"
        )
    else:
        warnings.append(f"documentKey ignored: must be a string, got {_kind(value)}")
    return f"text-{digest}"


def _format(value: Any, query: Mapping[str, str], settings: Mapping[str, str]) -> Format | None:
    if value is None or value == "":
        value = query.get("format") or settings.get(option_setting_name("format")) or None
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in _FORMATS:
        return Format(value.strip().lower())
    shown = repr(value)[:40] if isinstance(value, str) else _kind(value)
    raise InputError(f"format: must be one of {', '.join(_FORMATS)} or null, got {shown}")


def _kind(value: Any) -> str:
    """JSON's name for the type of a decoded value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"
