"""A small reader over tree-sitter-bicep trees, just enough for the infra tests.

The Bicep CLI cannot be installed on the build machines, so the tests parse the templates with the
tree-sitter grammar (syntax only) and inspect declarations through this module: resources with
their type and API version, module calls with their params, params with their decorators, outputs,
and object literals turned into Python values. Anything that is not a literal comes back as an
:class:`Expr` holding its source text, so a test can still compare it.

>>> doc = BicepFile.from_text("param a string = 'x'\\noutput B string = a")
>>> doc.params["a"].default, doc.outputs["B"].value
('x', Expr(text='a'))
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tree_sitter_bicep
from tree_sitter import Language, Node, Parser

PARSER = Parser(Language(tree_sitter_bicep.language()))


@dataclass(frozen=True)
class Expr:
    """A non-literal expression, kept as its source text."""

    text: str


@dataclass(frozen=True)
class Union:
    """``union(a, b, ...)``: the objects merged at deploy time, each part read as a value."""

    parts: list[Any]
    text: str


@dataclass(frozen=True)
class Ternary:
    """``condition ? consequence : alternative`` with both branches read as values."""

    condition: str
    consequence: Any
    alternative: Any


@dataclass(frozen=True)
class Problem:
    """A syntax error or a missing token, 1-based like an editor shows it."""

    line: int
    column: int
    kind: str


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any
    decorators: dict[str, Any]


@dataclass(frozen=True)
class Output:
    name: str
    type: str
    value: Any
    node: Node


@dataclass(frozen=True)
class Resource:
    """``resource <symbol> '<type>@<api>' [existing] = [if (...)] {...}``"""

    symbol: str
    type: str
    api_version: str
    existing: bool
    condition: str | None
    loop: str | None
    body: dict[str, Any]
    node: Node


@dataclass(frozen=True)
class Module:
    symbol: str
    path: str
    condition: str | None
    body: dict[str, Any]


@dataclass
class BicepFile:
    """One parsed ``.bicep`` file."""

    path: Path | None
    root: Node
    params: dict[str, Param] = field(default_factory=dict)
    variables: dict[str, Any] = field(default_factory=dict)
    resources: list[Resource] = field(default_factory=list)
    modules: list[Module] = field(default_factory=list)
    outputs: dict[str, Output] = field(default_factory=dict)
    target_scope: str = "resourceGroup"

    @classmethod
    def from_text(cls, text: str, path: Path | None = None) -> BicepFile:
        doc = cls(path=path, root=PARSER.parse(text.encode()).root_node)
        doc._read()
        return doc

    @classmethod
    def load(cls, path: Path) -> BicepFile:
        return cls.from_text(path.read_text(encoding="utf-8"), path)

    def problems(self) -> list[Problem]:
        """Every ERROR and MISSING node (an empty list means the grammar accepted the file)."""
        return list(_problems(self.root))

    def resources_of_type(self, type_name: str) -> list[Resource]:
        return [r for r in self.resources if r.type.lower() == type_name.lower()]

    def _read(self) -> None:
        pending: dict[str, Any] = {}
        for node in self.root.named_children:
            if node.type == "decorators":
                pending = _decorators(node)
                continue
            self._declare(node, pending)
            pending = {}

    def _declare(self, node: Node, decorators: dict[str, Any]) -> None:
        kids = node.named_children
        if node.type == "target_scope_assignment":
            self.target_scope = value_of(kids[0])
        elif node.type == "parameter_declaration":
            default = value_of(kids[2]) if len(kids) > 2 else None
            self.params[_text(kids[0])] = Param(_text(kids[0]), _text(kids[1]), default, decorators)
        elif node.type == "variable_declaration":
            self.variables[_text(kids[0])] = value_of(kids[-1])
        elif node.type == "output_declaration":
            name = _text(kids[0])
            self.outputs[name] = Output(name, _text(kids[1]), value_of(kids[-1]), kids[-1])
        elif node.type == "resource_declaration":
            self.resources.append(_resource(node))
        elif node.type == "module_declaration":
            condition, body = _conditional_body(node.named_children[-1])
            self.modules.append(Module(_text(kids[0]), value_of(kids[1]), condition, body))


def walk(node: Node) -> Iterator[Node]:
    """Every node under ``node`` (itself included), depth first."""
    yield node
    for child in node.children:
        yield from walk(child)


def value_of(node: Node) -> Any:
    """A Python value for a literal, an :class:`Expr` for anything else."""
    kind = node.type
    if kind == "string" and not any(c.type == "interpolation" for c in node.named_children):
        return "".join(_text(c) for c in node.named_children if c.type != "comment")
    if kind == "number":
        return int(_text(node))
    if kind == "boolean":
        return _text(node) == "true"
    if kind == "null":
        return None
    if kind == "array":
        return [value_of(c) for c in node.named_children if c.type != "comment"]
    if kind == "object":
        return _object(node)
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return value_of(node.named_children[0])
    if kind == "call_expression" and _text(node.named_children[0]) == "union":
        args = node.named_children[1].named_children
        return Union([value_of(a) for a in args if a.type != "comment"], _text(node))
    if kind == "ternary_expression":
        condition = node.child_by_field_name("condition")
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        if condition and consequence and alternative:
            return Ternary(_text(condition), value_of(consequence), value_of(alternative))
    return Expr(_text(node))


def _object(node: Node) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for prop in node.named_children:
        if prop.type != "object_property":
            continue
        key_node, value_node = prop.named_children[0], prop.named_children[-1]
        key = value_of(key_node) if key_node.type == "string" else _text(key_node)
        result[key if isinstance(key, str) else key.text] = value_of(value_node)
    return result


def _resource(node: Node) -> Resource:
    kids = node.named_children
    type_and_api = value_of(kids[1])
    type_name, _, api = type_and_api.partition("@")
    existing = any(c.type == "existing" or _text(c) == "existing" for c in node.children)
    loop = None
    value = kids[-1]
    if value.type == "for_statement":
        # for <item> in <iterable>: <body>; `loop` keeps the iterable's source text.
        body = value.child_by_field_name("body")
        assert body is not None
        iterable = [c for c in value.named_children if c.end_byte <= body.start_byte][-1]
        loop, value = _text(iterable), body
    condition, properties = _conditional_body(value)
    return Resource(_text(kids[0]), type_name, api, existing, condition, loop, properties, node)


def _conditional_body(node: Node) -> tuple[str | None, dict[str, Any]]:
    if node.type == "if_statement":
        test, obj = node.named_children[0], node.named_children[-1]
        return _text(test), _object(obj)
    if node.type == "object":
        return None, _object(node)
    raise ValueError(f"unexpected declaration body: {node.type}")


def _decorators(node: Node) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for decorator in node.named_children:
        call = decorator.named_children[0]
        if call.type != "call_expression":
            continue
        name = _text(call.named_children[0])
        args = [value_of(a) for a in call.named_children[1].named_children]
        found[name] = args[0] if len(args) == 1 else args
    return found


def _problems(node: Node) -> Iterator[Problem]:
    if node.is_error or node.is_missing:
        kind = f"MISSING {node.type}" if node.is_missing else "ERROR"
        yield Problem(node.start_point[0] + 1, node.start_point[1] + 1, kind)
    if node.has_error:
        for child in node.children:
            yield from _problems(child)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8")


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def identifiers(text: str) -> set[str]:
    """Identifier-like words of an expression's source (for 'does it reference X' checks)."""
    return set(_WORD.findall(text))


def inline_variables(value: Any, variables: dict[str, Any]) -> Any:
    """``value`` with every bare reference to one of ``variables`` replaced by its value, so a
    check sees the object a ``var`` holds instead of the variable's name."""
    if isinstance(value, Expr) and value.text in variables:
        return inline_variables(variables[value.text], variables)
    if isinstance(value, dict):
        return {k: inline_variables(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [inline_variables(v, variables) for v in value]
    if isinstance(value, Union):
        return Union([inline_variables(p, variables) for p in value.parts], value.text)
    if isinstance(value, Ternary):
        return Ternary(
            value.condition,
            inline_variables(value.consequence, variables),
            inline_variables(value.alternative, variables),
        )
    return value
