"""The WebApiSkill wire contract (Azure AI Search custom skill interface), as pydantic models.

Requests are validated with these models; responses are built as plain dicts for speed (a batch can
carry tens of megabytes of chunk text) and the tests validate every response against
:class:`SkillResponse`, so the two cannot drift apart.

Request::

    {"values": [{"recordId": "1", "data": {"text": "# A\\n\\nb", "documentKey": "a.md"}}]}

Response (one record per recordId that came in, in any order; ``errors``/``warnings`` may be null)::

    {"values": [{"recordId": "1",
                 "data": {"documentKey": "a.md", "parents": [{"id": ..., "children": [...]}]},
                 "errors": null, "warnings": null}]}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class HugeInteger:
    """A JSON integer of more than 4,300 digits, kept as its digits: Python refuses to convert it
    (the conversion is quadratic), and it must fail only the record that holds it, naming the
    field, not the whole batch."""

    __slots__ = ("digits",)

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {len(self.digits.lstrip('-'))} digits>"


class InputRecord(BaseModel):
    """One record of a request. ``data`` is checked per record, so one bad record fails alone."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    record_id: StrictStr = Field(alias="recordId")
    data: Any = None


class SkillRequest(BaseModel):
    """The request body. Unknown top-level keys are ignored, as the indexer may add some."""

    model_config = ConfigDict(extra="ignore")

    values: list[InputRecord]


class Message(BaseModel):
    """An error or warning: the indexer shows ``message`` in its execution history."""

    model_config = ConfigDict(extra="forbid")

    message: str


class _ChunkOut(BaseModel):
    """The fields every chunk carries on the wire: what the index projections map."""

    model_config = ConfigDict(extra="forbid")

    id: str
    ordinal: int
    start: int
    end: int
    text: str
    #: ``embedText`` minus ``text``: the heading path and reopened table header or code fence,
    #: which the query sends before a passage so that it reads alone.
    prefix: str
    headings: list[str]
    pages: list[int]


class ChildOut(_ChunkOut):
    """A leaf chunk: what gets embedded and searched (``/document/parents/*/children/*``), with
    its document's programming language for source code (null otherwise), to filter on."""

    embedText: str
    language: str | None
    context: str  # its context note (contextualize=llm), also inside embedText; empty without


class ParentOut(_ChunkOut):
    """A parent section with its children (``/document/parents/*``)."""

    children: list[ChildOut]


class RecordData(BaseModel):
    """``data`` of a successful record: the skill's outputs (``parents``, ``documentKey``)."""

    model_config = ConfigDict(extra="forbid")

    documentKey: str
    parents: list[ParentOut]


class OutputRecord(BaseModel):
    """One record of a response; ``data`` is ``{}`` when ``errors`` is set."""

    model_config = ConfigDict(extra="forbid")

    recordId: str
    data: RecordData | dict[str, Any]
    errors: list[Message] | None
    warnings: list[Message] | None


class SkillResponse(BaseModel):
    """The response body."""

    model_config = ConfigDict(extra="forbid")

    values: list[OutputRecord]


class ErrorBody(BaseModel):
    """Body of a 4xx answer: the whole request was refused, no record was processed."""

    model_config = ConfigDict(extra="forbid")

    error: Message
