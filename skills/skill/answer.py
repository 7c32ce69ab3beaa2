"""The response body, written record by record: a record's chunks live only until it is answered.

An answer weighs about six bytes per input byte. Building every record's dicts first and
serialising them at the end held all of them at once, several times over (the issue-23 batch of
95 MB peaked at 4.98 GB); here each record is serialised as soon as it is chunked and its objects
are freed, so a call's peak is its request, its answer's bytes and one record's working set. A
large record's parents come as a :class:`Stream` and are written one at a time, straight into
the buffer, so that record's working set is its chunks and one parent's objects, not every
parent's dicts plus their JSON twice over (``docs/skill.md``, "Memory").

>>> answer = Answer()
>>> answer.add({"recordId": "1", "data": {}, "errors": None, "warnings": None})
56
>>> answer.add({"recordId": "2", "data": {"n": Stream(lambda: iter([1, 2]), 2)}})
35
>>> answer.body()[-37:]
b'{"recordId":"2","data":{"n":[1,2]}}]}'
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pydantic_core


@dataclass(frozen=True, slots=True)
class Stream:
    """A JSON array whose items are made while it is written, one at a time. ``items`` gives a
    fresh iterator on each call: a record that must be written again (a lone surrogate, see
    :func:`to_json`) reads them twice. ``count`` is how many there are."""

    items: Callable[[], Iterator[Any]]
    count: int

    def __len__(self) -> int:
        return self.count


class Answer:
    """``{"values": [...]}`` as bytes, one record appended at a time."""

    def __init__(self) -> None:
        self._buffer = io.BytesIO()
        self._buffer.write(b'{"values":[')
        self.records = 0

    def add(self, record: dict[str, Any]) -> int:
        """Append one output record; returns its size in bytes. The bytes are those of
        :func:`to_json` of the record with every :class:`Stream` read into a list. A record
        that raises while it is written leaves nothing of itself in the answer."""
        buffer = self._buffer
        mark = buffer.tell()
        if self.records:
            buffer.write(b",")
        start = buffer.tell()
        try:
            for piece in _pieces(record):
                buffer.write(piece)
        except pydantic_core.PydanticSerializationError:
            self._rewind(start)
            buffer.write(_ascii_json(_read(record)))
        except BaseException:
            self._rewind(mark)
            raise
        self.records += 1
        return buffer.tell() - start

    def body(self) -> bytes:
        """The whole body (``BytesIO.getvalue`` hands over its buffer without a second copy)."""
        self._buffer.write(b"]}")
        return self._buffer.getvalue()

    def _rewind(self, position: int) -> None:
        self._buffer.seek(position)
        self._buffer.truncate()


def to_json(payload: Any) -> bytes:
    """Compact UTF-8 JSON, serialized in Rust by pydantic-core (6x faster than ``json`` on a
    20 MB answer); falls back to ASCII escapes when a string holds a lone surrogate, which UTF-8
    cannot carry (a recordId is echoed exactly as it came)."""
    try:
        return pydantic_core.to_json(payload)
    except pydantic_core.PydanticSerializationError:
        return _ascii_json(payload)


def _ascii_json(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode("ascii")


def _pieces(value: Any) -> Iterator[bytes]:
    """``pydantic_core.to_json(value)`` in pieces: a :class:`Stream` item by item, a dict that
    holds one key by key, anything else whole (compact JSON is the concatenation of its parts).
    Raises on a lone surrogate, so that :meth:`Answer.add` writes the whole record as ASCII."""
    if isinstance(value, Stream):
        yield b"["
        for number, item in enumerate(value.items()):
            if number:
                yield b","
            yield pydantic_core.to_json(item)
        yield b"]"
    elif isinstance(value, dict) and _streams(value):
        yield b"{"
        for number, (key, item) in enumerate(value.items()):
            yield (b"," if number else b"") + pydantic_core.to_json(key) + b":"
            yield from _pieces(item)
        yield b"}"
    else:
        yield pydantic_core.to_json(value)


def _streams(value: dict[str, Any]) -> bool:
    """Whether a :class:`Stream` is somewhere in ``value``, looking through dicts only."""
    return any(
        isinstance(item, Stream) or (isinstance(item, dict) and _streams(item))
        for item in value.values()
    )


def _read(value: Any) -> Any:
    """``value`` with every :class:`Stream` (in dicts) read into a list."""
    if isinstance(value, Stream):
        return list(value.items())
    if isinstance(value, dict) and _streams(value):
        return {key: _read(item) for key, item in value.items()}
    return value
