"""What the command-line tools print: one helper shared by the search CLI and the local demo."""

from __future__ import annotations


def preview(text: str, width: int) -> str:
    """``text`` on one line, its whitespace runs made single spaces, cut to ``width`` characters
    with an ellipsis, quoted (``repr``) so that an empty or odd passage is visible as such.

    >>> preview("Install\\n\\n  the   widget", 40)
    "'Install the widget'"
    >>> preview("abcdefgh", 5)
    "'abcd…'"
    >>> preview(" \\n\\t ", 5)
    "''"
    """
    words = " ".join(text.split())
    return repr(words if len(words) <= width else words[: width - 1] + "…")
