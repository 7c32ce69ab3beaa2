"""Check a document against an index definition the way the service would on upload.

The rules are the documented ones that bite with projected chunks: every field must exist, values
must fit the EDM type (``Edm.Int32`` range, vectors of exactly ``dimensions`` numbers), the key is
``[A-Za-z0-9_=-]`` up to 1024 characters, and a filterable, sortable or facetable string must stay
under the 32 KB term limit ("A field contains a term that is too large").

>>> index = {"fields": [{"name": "id", "type": "Edm.String", "key": True},
...                     {"name": "n", "type": "Edm.Int32"}]}
>>> validate_document(index, {"id": "a", "n": "3"})
["field 'n' (Edm.Int32): expected an integer, got str"]
"""

from __future__ import annotations

import re
from typing import Any

KEY_PATTERN = re.compile(r"[A-Za-z0-9_\-=]{1,1024}")
TERM_LIMIT_BYTES = 32766
INT32 = (-(2**31), 2**31 - 1)


def key_field(index: dict[str, Any]) -> str:
    return str(next(field["name"] for field in index["fields"] if field.get("key")))


def validate_document(index: dict[str, Any], document: dict[str, Any]) -> list[str]:
    """Problems with ``document`` for ``index``; empty when the service would accept it."""
    fields = {field["name"]: field for field in index["fields"]}
    problems = [f"field {name!r} is not in the index" for name in document if name not in fields]
    key = key_field(index)
    key_value = document.get(key)
    if not isinstance(key_value, str) or not KEY_PATTERN.fullmatch(key_value):
        problems.append(f"key {key!r} must be 1-1024 of A-Z a-z 0-9 _ - =, got {key_value!r}")
    for name, value in document.items():
        if name in fields and value is not None:
            problems.extend(check_value(fields[name], value))
    return problems


def check_value(field: dict[str, Any], value: Any) -> list[str]:
    type_name: str = field["type"]
    label = f"field {field['name']!r} ({type_name})"
    if type_name.startswith("Collection("):
        if not isinstance(value, list):
            return [f"{label}: expected a list, got {type(value).__name__}"]
        inner = {**field, "type": type_name[len("Collection(") : -1]}
        problems = [p for item in value for p in check_value(inner, item)]
        dimensions = field.get("dimensions")
        if dimensions is not None and len(value) != dimensions:
            problems.append(f"{label}: {len(value)} numbers, the field has {dimensions} dimensions")
        return problems[:3]
    return _check_scalar(field, label, type_name, value)


def _check_scalar(field: dict[str, Any], label: str, type_name: str, value: Any) -> list[str]:
    if type_name == "Edm.String":
        if not isinstance(value, str):
            return [f"{label}: expected a string, got {type(value).__name__}"]
        indexed_whole = any(field.get(flag) for flag in ("filterable", "sortable", "facetable"))
        if indexed_whole and len(value.encode("utf-8")) > TERM_LIMIT_BYTES:
            return [f"{label}: {len(value.encode())} bytes exceeds the 32 KB term limit"]
        return []
    if type_name in ("Edm.Int32", "Edm.Int64"):
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{label}: expected an integer, got {type(value).__name__}"]
        if type_name == "Edm.Int32" and not INT32[0] <= value <= INT32[1]:
            return [f"{label}: {value} is outside Int32"]
        return []
    if type_name in ("Edm.Single", "Edm.Double"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return [f"{label}: expected a number, got {type(value).__name__}"]
        return []
    if type_name == "Edm.Boolean":
        return [] if isinstance(value, bool) else [f"{label}: expected a boolean"]
    return [f"{label}: type not checked by this simulation"]
