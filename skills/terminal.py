"""What the command-line tools print: one passage preview and one document tree, shared by the
search CLI, the local demo and ``python -m skills chunk``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

#: A line that only draws: a setext or reStructuredText underline, a thematic break, a table's
#: rule (``=====``, ``-----``, ``|---|:--:|``, ``+----+``). On one line it reads as noise.
_DRAWN = re.compile(r"^[ \t]*(?:[=\-~^*#+`'\".:_|][ \t]*){3,}$", re.M)


def preview(text: str, width: int) -> str:
    """``text`` on one line, its whitespace runs made single spaces and its lines that only draw
    (underlines, rules) left out, cut to ``width`` characters with an ellipsis, quoted (``repr``)
    so that an empty or odd passage is visible as such.

    >>> preview("Install\\n\\n  the   widget", 40)
    "'Install the widget'"
    >>> preview("abcdefgh", 5)
    "'abcd…'"
    >>> preview(" \\n\\t ", 5)
    "''"
    >>> preview("Sync Agent\\n==========\\n\\n| a |\\n|---|\\n| 1 |", 40)
    "'Sync Agent | a | | 1 |'"
    """
    words = " ".join(_DRAWN.sub("", text).split())
    return repr(words if len(words) <= width else words[: width - 1] + "…")


def tree_lines(
    parents: Sequence[Mapping[str, Any]], width: int, verbose: bool = False
) -> list[str]:
    """A document's parents (``p<ordinal>``) and, under each, its children (``c<ordinal>``): the
    one tree layout of the demo and ``python -m skills chunk --output tree``. A parent shows its
    heading path and the sections it holds; a child the headings it adds to its parent's (after
    ``›``) and the start of its text. ``verbose`` adds each chunk's offsets and tokens.

    Each parent is a mapping with the skill's answer's fields (``ordinal``, ``headings``,
    ``start``, ``end``, ``tokens``, ``text``) and its ``children``, mappings of the same fields.

    >>> child = {"ordinal": 1, "headings": ["Guide", "Setup"], "start": 8, "end": 30, "tokens": 6,
    ...          "text": "Setup\\n=====\\n\\nRun it once."}
    >>> parent = {"ordinal": 0, "headings": ["Guide"], "start": 0, "end": 30, "tokens": 8,
    ...           "text": "", "children": [child]}
    >>> print("\\n".join(tree_lines([parent], 40)))
    p0  Guide  (sections: Setup)
        c1  › Setup  'Setup Run it once.'
    >>> print("\\n".join(tree_lines([parent], 40, verbose=True)))
    p0  Guide  (sections: Setup)  [0:30] 8 tokens
        c1  [8:30] 6 tokens  › Setup  'Setup Run it once.'
    """
    lines = []
    for parent in parents:
        sections = list(dict.fromkeys(a[0] for c in parent["children"] if (a := _added(parent, c))))
        covers = f"  (sections: {', '.join(sections)})" if sections else ""
        span = _span(parent, verbose, "  ")
        lines.append(f"p{parent['ordinal']}  {_path(parent['headings'])}{covers}{span}")
        lines += ["    " + line for line in leaf_lines(parent["children"], width, verbose, parent)]
    return lines


def leaf_lines(
    children: Sequence[Mapping[str, Any]],
    width: int,
    verbose: bool = False,
    parent: Mapping[str, Any] | None = None,
) -> list[str]:
    """One line per child (``c<ordinal>``), as :func:`tree_lines` shows them under a parent;
    without one (fixed windows have none) a child shows its whole heading path."""
    lines = []
    for child in children:
        added = _added(parent, child) if parent is not None else list(child["headings"])
        where = f"› {' > '.join(added)}  " if added else ""
        span = _span(child, verbose, "").lstrip() + "  " if verbose else ""
        lines.append(f"c{child['ordinal']}  {span}{where}{preview(child['text'], width)}")
    return lines


def _added(parent: Mapping[str, Any], child: Mapping[str, Any]) -> list[str]:
    """The headings of ``child``'s path below its parent's."""
    return list(child["headings"][len(parent["headings"]) :])


def _path(headings: Sequence[str]) -> str:
    return " > ".join(headings) or "(no heading)"


def _span(chunk: Mapping[str, Any], verbose: bool, lead: str) -> str:
    if not verbose:
        return ""
    tokens = f" {chunk['tokens']} tokens" if "tokens" in chunk else ""
    return f"{lead}[{chunk['start']}:{chunk['end']}]{tokens}"
