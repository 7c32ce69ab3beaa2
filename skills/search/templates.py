"""Load the JSON templates in ``index_definitions/`` and fill their ``{{placeholders}}``.

The templates are valid JSON so that editors, tests and users can read them as they are. Two rules
keep them so:

- a string that is *exactly* one placeholder takes the setting's value with its type
  (``"{{dimensions}}"`` becomes ``1536``); if the setting is ``None`` the property is left out,
  and an object that loses all its properties that way is left out too (``httpHeaders`` without a
  function key);
- a placeholder inside a longer string is replaced by the setting as text
  (``"ResourceId={{storageResourceId}};"``), and must not be ``None``.

>>> render_value({"a": "{{n}}", "b": "x-{{n}}", "c": {"d": "{{none}}"}}, {"n": 3, "none": None})
{'a': 3, 'b': 'x-3'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from skills.search.settings import Mode, SearchSettings

Kind = Literal["dataSource", "index", "skillset", "indexer"]

DEFINITIONS_DIR = Path(__file__).resolve().parents[2] / "index_definitions"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")

#: each mode's templates in dependency order: what a deploy creates first comes first
TEMPLATE_FILES: dict[Mode, tuple[tuple[Kind, str], ...]] = {
    "embedded": (
        ("dataSource", "datasource.json"),
        ("index", "embedded/index-children.json"),
        ("skillset", "embedded/skillset.json"),
        ("indexer", "indexer.json"),
    ),
    "reference": (
        ("dataSource", "datasource.json"),
        ("index", "reference/index-children.json"),
        ("index", "reference/index-parents.json"),
        ("skillset", "reference/skillset.json"),
        ("indexer", "indexer.json"),
    ),
    "files": (
        ("dataSource", "datasource.json"),
        ("index", "embedded/index-children.json"),
        ("skillset", "files/skillset.json"),
        ("indexer", "files/indexer.json"),
    ),
    "layout": (
        ("dataSource", "datasource.json"),
        ("index", "embedded/index-children.json"),
        ("skillset", "layout/skillset.json"),
        ("indexer", "files/indexer.json"),
    ),
}


class TemplateError(ValueError):
    """A template names a placeholder that has no value."""


@dataclass(frozen=True)
class Definition:
    """One rendered object: what kind it is, the template it came from and its REST body."""

    kind: Kind
    template: str
    body: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.body["name"])


@dataclass(frozen=True)
class DefinitionSet:
    """One mode's objects in dependency order (data source, indexes, skillset, indexer)."""

    mode: Mode
    items: tuple[Definition, ...]

    def of_kind(self, kind: Kind) -> list[dict[str, Any]]:
        return [item.body for item in self.items if item.kind == kind]

    @property
    def indexes(self) -> dict[str, dict[str, Any]]:
        return {body["name"]: body for body in self.of_kind("index")}

    @property
    def skillset(self) -> dict[str, Any]:
        return self.of_kind("skillset")[0]

    @property
    def indexer(self) -> dict[str, Any]:
        return self.of_kind("indexer")[0]

    @property
    def data_source(self) -> dict[str, Any]:
        return self.of_kind("dataSource")[0]


def load_template(relative: str, directory: Path = DEFINITIONS_DIR) -> Any:
    return json.loads((directory / relative).read_text(encoding="utf-8"))


def render(
    mode: Mode, settings: SearchSettings, directory: Path = DEFINITIONS_DIR
) -> DefinitionSet:
    """Every definition of ``mode`` with the settings filled in."""
    values = settings.template_values(mode)
    items = tuple(
        Definition(kind, relative, render_value(load_template(relative, directory), values))
        for kind, relative in TEMPLATE_FILES[mode]
    )
    return DefinitionSet(mode, items)


_OMIT = object()


def render_value(template: Any, values: Mapping[str, Any]) -> Any:
    """Fill one JSON value (see the module docstring for the two placeholder rules)."""
    result = _render(template, values)
    return None if result is _OMIT else result


def _render(node: Any, values: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        rendered = {key: _render(value, values) for key, value in node.items()}
        kept = {key: value for key, value in rendered.items() if value is not _OMIT}
        return _OMIT if node and not kept else kept
    if isinstance(node, list):
        return [item for item in (_render(v, values) for v in node) if item is not _OMIT]
    if isinstance(node, str):
        return _render_string(node, values)
    return node


def _render_string(text: str, values: Mapping[str, Any]) -> Any:
    whole = PLACEHOLDER.fullmatch(text)
    if whole:
        value = _lookup(whole.group(1), values)
        return _OMIT if value is None else value

    def substitute(match: re.Match[str]) -> str:
        value = _lookup(match.group(1), values)
        if value is None:
            raise TemplateError(f"placeholder {match.group(0)} inside {text!r} has no value")
        return str(value)

    return PLACEHOLDER.sub(substitute, text)


def _lookup(name: str, values: Mapping[str, Any]) -> Any:
    if name not in values:
        known = ", ".join(sorted(values))
        raise TemplateError(f"unknown placeholder {{{{{name}}}}}; known: {known}")
    return values[name]


def placeholders(template: Any) -> set[str]:
    """Every placeholder name a template uses (for the test that each one has a setting)."""
    found: set[str] = set()
    if isinstance(template, dict):
        for value in template.values():
            found |= placeholders(value)
    elif isinstance(template, list):
        for value in template:
            found |= placeholders(value)
    elif isinstance(template, str):
        found |= set(PLACEHOLDER.findall(template))
    return found
