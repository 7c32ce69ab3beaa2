"""What the command-line tools print: one helper shared by the search CLI and the local demo."""

from __future__ import annotations

import re

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
