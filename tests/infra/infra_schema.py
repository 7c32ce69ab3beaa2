"""ARM property names, read from the Azure management SDK models, to check template bodies.

The Bicep CLI validates property names against the resource type schemas; it cannot be installed
here, but the same schemas ship as the azure-mgmt-* Python packages (their models are generated from
the ARM REST specs). This module turns one model class into a :class:`Shape` tree of REST names and
walks a parsed template body along it, reporting every key the resource type does not have.

Two generations of models exist side by side: msrest ones (``_attribute_map`` with flattened
``properties.x`` keys and type strings) and typespec ones (``rest_field`` descriptors with type
hints). Both end up as the same tree.
"""

from __future__ import annotations

import importlib
import re
import sys
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from infra_bicep import Expr, Ternary, Union


@dataclass
class Shape:
    """What a JSON value may look like: an object with known fields, a list, a map or a scalar."""

    kind: str  # "object" | "list" | "map" | "scalar"
    fields: dict[str, Shape] = field(default_factory=dict)
    item: Shape | None = None


SCALAR = Shape("scalar")


def model_shape(module_name: str, class_name: str) -> Shape:
    """The shape of ``module_name.class_name`` (e.g. ``azure.mgmt.web.models``, ``Site``)."""
    models = importlib.import_module(module_name)
    return _shape_of_class(getattr(models, class_name), models, {})


def unknown_keys(body: Any, shape: Shape, path: str = "") -> list[str]:
    """Paths of keys in ``body`` that ``shape`` does not declare (empty: every name is known).

    Expressions are opaque (their value is known only at deploy time); both branches of a
    ternary and every literal part of a union() are checked.
    """
    if isinstance(body, Ternary):
        return unknown_keys(body.consequence, shape, path) + unknown_keys(
            body.alternative, shape, path
        )
    if isinstance(body, Union):
        return [key for part in body.parts for key in unknown_keys(part, shape, path)]
    if isinstance(body, Expr) or shape.kind == "scalar":
        return []
    if isinstance(body, list) and shape.kind == "list" and shape.item is not None:
        found: list[str] = []
        for index, item in enumerate(body):
            found += unknown_keys(item, shape.item, f"{path}[{index}]")
        return found
    if isinstance(body, dict) and shape.kind == "map" and shape.item is not None:
        found = []
        for key, value in body.items():
            found += unknown_keys(value, shape.item, f"{path}.{key}")
        return found
    if isinstance(body, dict) and shape.kind == "object":
        found = []
        for key, value in body.items():
            child = shape.fields.get(key)
            if child is None:
                found.append(f"{path}.{key}".lstrip("."))
            else:
                found += unknown_keys(value, child, f"{path}.{key}")
        return found
    return [f"{path or '<root>'} (a {type(body).__name__} where the schema has {shape.kind})"]


# ---- msrest models -------------------------------------------------------------------------------

_MSREST_LIST = re.compile(r"^\[(.+)\]$")
_MSREST_MAP = re.compile(r"^\{(.+)\}$")


def _shape_of_class(cls: type, models: types.ModuleType, seen: dict[type, Shape]) -> Shape:
    if cls in seen:
        return seen[cls]
    shape = Shape("object")
    seen[cls] = shape
    attribute_map = getattr(cls, "_attribute_map", None)
    if attribute_map:
        for spec in attribute_map.values():
            parts = [p.replace("\\.", ".") for p in re.split(r"(?<!\\)\.", spec["key"])]
            node = shape
            for part in parts[:-1]:
                node = node.fields.setdefault(part, Shape("object"))
            node.fields[parts[-1]] = _msrest_type(spec["type"], models, seen)
        return shape
    _typespec_fields(cls, models, seen, shape)
    return shape


def _msrest_type(type_name: str, models: types.ModuleType, seen: dict[type, Shape]) -> Shape:
    if match := _MSREST_LIST.match(type_name):
        return Shape("list", item=_msrest_type(match.group(1), models, seen))
    if match := _MSREST_MAP.match(type_name):
        return Shape("map", item=_msrest_type(match.group(1), models, seen))
    cls = getattr(models, type_name, None)
    if not isinstance(cls, type) or not _is_model(cls):
        return SCALAR
    return _shape_of_class(cls, models, seen)


def _is_model(candidate: Any) -> bool:
    """An SDK model class of either generation (typespec ones get their field table only when
    first instantiated, so it is their base class that tells)."""
    if not isinstance(candidate, type):
        return False
    if hasattr(candidate, "_attribute_map"):
        return True
    return any(
        base.__name__ == "Model" and base.__module__.endswith("model_base")
        for base in candidate.__mro__
    )


# ---- typespec models -----------------------------------------------------------------------------


def _typespec_fields(
    cls: type, models: types.ModuleType, seen: dict[type, Shape], shape: Shape
) -> None:
    cls()  # the model metaclass fills _attr_to_rest_field on first instantiation
    rest_fields = cls._attr_to_rest_field  # type: ignore[attr-defined]
    namespace = {**vars(sys.modules[cls.__module__]), "_models": models}
    hints = typing.get_type_hints(cls, globalns=namespace)
    for attribute, rest in rest_fields.items():
        name = rest._rest_name_input or attribute
        shape.fields[name] = _typespec_type(hints.get(attribute, Any), models, seen)


def _typespec_type(hint: Any, models: types.ModuleType, seen: dict[type, Shape]) -> Shape:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        shapes = [_typespec_type(a, models, seen) for a in options]
        structured = [s for s in shapes if s.kind != "scalar"]
        return structured[0] if structured else SCALAR
    if origin is list:
        return Shape("list", item=_typespec_type(args[0], models, seen))
    if origin is dict:
        return Shape("map", item=_typespec_type(args[1], models, seen))
    return _shape_of_class(hint, models, seen) if _is_model(hint) else SCALAR
