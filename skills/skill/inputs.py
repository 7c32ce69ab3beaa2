"""One record's inputs, checked: the document, title, documentKey, format and the options.

The document comes one of three ways, exactly one per record: ``text`` (the indexer's cracked
or plain text, chunked as it is), ``file_data`` (the file itself, ``{"$type": "file", "data":
<base64>}`` from ``/document/file_data`` with ``allowSkillsetToReadFileData``, named by
``fileName`` and ``contentType``; converted by ``skills.formats``), or ``markdownDocument`` (the
Document Layout skill's sections, rebuilt into one document). A converted document's offsets and
``text`` refer to the Markdown the conversion wrote, which every parent carries.

A record fails (``InputError``) only when nothing useful can come out of it: no text, unknown
inputs, unusable options. Everything else degrades with a warning: a title of the wrong type is
ignored, a missing documentKey is replaced by a hash of the text, lone UTF-16 surrogates (which JSON
allows and UTF-8 cannot carry) become U+FFFD, one character for one, so offsets still match the
indexer's text.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from skills.chunking import ChunkOptions, Format
from skills.formats.conversion import ConversionError, Limits
from skills.formats.layout import layout_to_markdown
from skills.formats.read import read_file
from skills.skill.contract import HugeInteger
from skills.skill.options import (
    OPTION_FIELDS,
    SKILL_OPTIONS,
    Contextualize,
    OptionError,
    resolve_contextualize,
    resolve_options,
)
from skills.skill.settings import MAX_TEXT_SETTING, SkillSettings

#: One of these carries the document (see the module docstring).
SOURCE_INPUTS = ("text", "file_data", "markdownDocument")
DOCUMENT_INPUTS = (*SOURCE_INPUTS, "fileName", "contentType", "title", "documentKey", "format")
#: Every input name a record may carry.
KNOWN_INPUTS = frozenset(DOCUMENT_INPUTS) | frozenset(OPTION_FIELDS) | frozenset(SKILL_OPTIONS)
#: The room a child keeps for its note under ``contextualize=llm`` unless ``noteTokens`` is given.
LLM_NOTE_TOKENS = 32
#: Query-string names that are not record inputs: the function key and the batch time budget.
QUERY_ONLY = frozenset({"code", "timeBudgetSeconds"})
#: Every name the query string may carry: the options, ``format``, and the query-only names.
QUERY_NAMES = frozenset(OPTION_FIELDS) | frozenset(SKILL_OPTIONS) | {"format"} | QUERY_ONLY
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
    data: Any,
    query: Mapping[str, str],
    settings: SkillSettings,
    limits: Limits | None = None,
) -> RecordInputs:
    """Checked inputs of one record, or :class:`InputError`; text is cut at the settings'
    ``max_text_chars``; a file is converted within ``limits`` (its deadline is the batch's)."""
    if not isinstance(data, dict):
        raise InputError(f"data must be an object with a 'text' input, got {_kind(data)}")
    _reject_unknown(data)
    try:
        app_defaults = settings.chunk_defaults
        contextualize = resolve_contextualize(data, query, app_defaults)
        defaults = {"noteTokens": LLM_NOTE_TOKENS} if contextualize is Contextualize.LLM else {}
        options = resolve_options(data, query, app_defaults, defaults)
    except OptionError as exc:
        raise InputError(str(exc)) from None
    warnings: list[str] = []
    document = _document(data, limits or Limits(), warnings)
    text = _text(document.text, settings.max_text_chars, warnings)
    title = _title(data.get("title"), warnings) or document.title
    return RecordInputs(
        text=text,
        title=title,
        document_key=_document_key(data.get("documentKey"), text, warnings),
        format=document.markup or _format(data.get("format"), query, app_defaults),
        options=options,
        warnings=tuple(warnings),
        contextualize=contextualize,
    )


@dataclass(frozen=True, slots=True)
class _Document:
    text: Any  # checked by ``_text``
    title: str | None = None
    markup: Format | None = None


def _document(data: Mapping[str, Any], limits: Limits, warnings: list[str]) -> _Document:
    """The record's one document source, converted to text when it is a file or Layout's
    sections."""
    given = [name for name in SOURCE_INPUTS if data.get(name) is not None]
    if len(given) > 1:
        raise InputError(f"give one of {', '.join(SOURCE_INPUTS)}, not {' and '.join(given)}")
    try:
        if given == ["file_data"]:
            file = read_file(
                _file_bytes(data["file_data"]),
                _string(data.get("fileName")) or _string(data.get("documentKey")),
                _string(data.get("contentType")),
                limits,
            )
            warnings.extend(file.warnings)
            return _Document(file.text, file.title, file.markup)
        if given == ["markdownDocument"]:
            layout = layout_to_markdown(data["markdownDocument"])
            return _Document(layout.text, layout.title, Format.MARKDOWN)
    except ConversionError as exc:
        raise InputError(str(exc)) from None
    return _Document(data.get("text"))


def _file_bytes(value: Any) -> bytes:
    """The bytes of an indexer file object: ``{"$type": "file", "data": <base64>}``."""
    if not isinstance(value, Mapping) or value.get("$type") != "file":
        raise InputError(
            'file_data must be a file object {"$type": "file", "data": <base64>}: map it from '
            "/document/file_data with allowSkillsetToReadFileData: true on the indexer"
        )
    encoded = value.get("data")
    if not isinstance(encoded, str):
        raise InputError(
            "file_data has no inline 'data' (a url/sasToken file object is not fetched by this "
            "skill): map /document/file_data from a blob indexer"
        )
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise InputError("file_data's data is not valid base64") from None


def _string(value: Any) -> str:
    return value if isinstance(value, str) else ""


def unknown_query_names(query: Mapping[str, str]) -> list[str]:
    """Query-string names the skill does not take there: a typo in the skill's ``uri``, or a
    per-document input (``text``, ``title``, ``documentKey``) that only a record can carry."""
    return sorted(name for name in query if name not in QUERY_NAMES)


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
            "text is missing: map a skill input named 'text' (for example /document/content), "
            "or 'file_data' (/document/file_data) or 'markdownDocument' (the Layout skill's)"
        )
    if not isinstance(value, str):
        raise InputError(f"text must be a string, got {_kind(value)}")
    if len(value) > max_chars:
        warnings.append(
            f"text truncated to its first {max_chars} characters (of {len(value)}); "
            f"{MAX_TEXT_SETTING} sets the limit"
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


def _format(value: Any, query: Mapping[str, str], app_defaults: Mapping[str, str]) -> Format | None:
    if value is None or value == "":
        value = query.get("format") or app_defaults.get("format") or None
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
    if isinstance(value, int | float | HugeInteger):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"
