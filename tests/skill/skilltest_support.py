"""Helpers for the skill tests: call the registered function as the host would, build batches."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import azure.functions as func

from skills.local.devserver import load_app, registered_functions
from skills.skill import SkillSettings
from skills.skill.contract import RecordData, SkillResponse

#: The ``app_settings`` fixture (``conftest.py``): starts the Function with these app settings.
AppSettings = Callable[..., SkillSettings]

MARKDOWN = """# Guide

An introduction that says what the guide is for.

## Install

Install the package with pip. Then check the version.

```bash
pip install example
```

## Use

| option | meaning |
| --- | --- |
| a | first |
| b | second |

Call the function with a document and read the chunks it returns.
"""


def registered(name: str) -> Any:
    """The user function registered under ``name`` in function_app.py."""
    for function in registered_functions(load_app()):
        if function.get_function_name() == name:
            return function.get_user_function()
    raise LookupError(name)


def call_chunk(
    body: bytes | dict[str, Any], params: dict[str, str] | None = None
) -> func.HttpResponse:
    """POST ``body`` to the registered ``chunk`` function, without any host."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    request = func.HttpRequest(
        method="POST",
        url="http://localhost/api/chunk",
        headers={"Content-Type": "application/json"},
        params=params or {},
        route_params={},
        body=raw,
    )
    response: func.HttpResponse = registered("chunk")(request)
    return response


def batch(*datas: dict[str, Any]) -> dict[str, Any]:
    """An indexer-shaped request: recordIds "1", "2", ... for the given ``data`` objects."""
    return {"values": [{"recordId": str(i), "data": d} for i, d in enumerate(datas, start=1)]}


def records(response: func.HttpResponse) -> dict[str, dict[str, Any]]:
    """The response's records by recordId, after checking the body against the contract."""
    body = json.loads(response.get_body())
    SkillResponse.model_validate(body)
    out: dict[str, dict[str, Any]] = {}
    for record in body["values"]:
        assert record["recordId"] not in out, f"recordId {record['recordId']!r} answered twice"
        if record["errors"] is None:
            RecordData.model_validate(record["data"])
        else:
            assert record["data"] == {}
        out[record["recordId"]] = record
    return out


def messages(record: dict[str, Any], kind: str) -> str:
    """All ``errors`` or ``warnings`` messages of a record, joined, for ``in`` checks."""
    return " | ".join(item["message"] for item in record[kind] or [])
