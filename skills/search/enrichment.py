"""The enrichment tree and its paths (``/document/parents/*/children/*/text``), as indexers see it.

An indexer keeps one JSON tree per source document, rooted at ``/document``. Skills run once per
node matched by their ``context`` (each ``*`` is one array item) and read inputs by path; index
projections read their mappings the same way. A path evaluated at a context instance binds its
``*`` to that instance's array positions, as far as it shares the context's prefix: that is how a
child projection reads its ancestor ``/document/parents/*/text``.

>>> tree = {"parents": [{"text": "P", "children": [{"id": "c0"}, {"id": "c1"}]}]}
>>> [(i, n["id"]) for i, n in instances(tree, "/document/parents/*/children/*")]
[((0, 0), 'c0'), ((0, 1), 'c1')]
>>> resolve(tree, "/document/parents/*/text", (0, 1), "/document/parents/*/children/*")
'P'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

ROOT = "document"


class PathError(ValueError):
    """A path that cannot be read from the context it is used in."""


def segments(path: str) -> list[str]:
    """``/document/a/*/b`` -> ``['a', '*', 'b']``; every enrichment path starts at ``/document``."""
    parts = path.strip("/").split("/")
    if not parts or parts[0] != ROOT:
        raise PathError(f"enrichment paths start with /{ROOT}: {path!r}")
    return parts[1:]


def instances(tree: Any, context: str) -> list[tuple[tuple[int, ...], Any]]:
    """Every node ``context`` matches, with the array positions its ``*`` took, in tree order."""
    return list(_walk(tree, segments(context), ()))


def _walk(
    node: Any, rest: list[str], bound: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], Any]]:
    if not rest:
        yield bound, node
        return
    head, tail = rest[0], rest[1:]
    if head == "*":
        if isinstance(node, list):
            for position, item in enumerate(node):
                yield from _walk(item, tail, (*bound, position))
    elif isinstance(node, dict) and head in node and node[head] is not None:
        yield from _walk(node[head], tail, bound)


def resolve(tree: Any, path: str, bound: tuple[int, ...], context: str) -> Any:
    """The value at ``path`` for the context instance whose ``*`` took the positions ``bound``.

    ``path`` may be the context itself, a descendant without further ``*``, or an ancestor's
    descendant; a ``*`` outside the context's own prefix is an error, as the service rejects it.
    Missing nodes read as ``None``, as in the indexer.
    """
    if not is_reachable(path, context):
        raise PathError(f"{path!r} cannot be read from context {context!r}")
    node = tree
    stars = 0
    for part in segments(path):
        if part == "*":
            if not isinstance(node, list) or bound[stars] >= len(node):
                return None
            node = node[bound[stars]]
            stars += 1
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            return None
    return node


def is_reachable(path: str, context: str) -> bool:
    """Whether every ``*`` in ``path`` lies on the context's own prefix (ancestors are fine)."""
    source, ctx = segments(path), segments(context)
    last_star = max((i for i, part in enumerate(source) if part == "*"), default=-1)
    return source[: last_star + 1] == ctx[: last_star + 1]


def set_at(tree: Any, context: str, bound: tuple[int, ...], name: str, value: Any) -> None:
    """Write a skill output ``name`` under the context instance (what ``targetName`` does)."""
    target = resolve(tree, context, bound, context) if segments(context) else tree
    if not isinstance(target, dict):
        raise PathError(f"cannot write {name!r} under {context!r}: not an object")
    if name in target:
        raise PathError(f"{context}/{name} already exists: a skill output cannot overwrite a node")
    target[name] = value


def leaf_paths(value: Any, prefix: str = "/" + ROOT) -> dict[str, Any]:
    """Every path with a scalar or scalar-list value under ``value``, with one example value.

    Arrays of objects become ``*``; this is the path vocabulary a skill's output really offers,
    which the cross-checks compare with the projection mappings.
    """
    found: dict[str, Any] = {}
    if isinstance(value, dict):
        for key, child in value.items():
            found.update(leaf_paths(child, f"{prefix}/{key}"))
    elif isinstance(value, list) and any(isinstance(item, dict) for item in value):
        for item in value:
            for path, example in leaf_paths(item, f"{prefix}/*").items():
                if found.get(path) in (None, [], ""):
                    found[path] = example  # keep an informative example: non-empty if any
    else:
        found[prefix] = value
    return found
