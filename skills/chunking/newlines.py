"""Line endings: what the parsers and the packer read, with every offset into the original.

Blobs written on Windows end their lines with ``\\r\\n``, and old Mac files with a lone ``\\r``.
Every structural rule (a table row is a line, a blank line ends a block, front matter is closed
by a ``---`` line) is written for ``\\n``; with ``\\r\\n`` a table row's last cell held a ``\\r``
and no delimiter row matched, so a CRLF copy of 79 Markdown files had 103 checker violations
against 8. Rather than teach every pattern a second line ending, the engine reads one *view* of
the text of the same length: ``\\r\\n`` becomes `` \\n`` (the carriage return is a trailing space,
which every line pattern allows) and a lone ``\\r`` becomes ``\\n``. Offsets are the same in both,
so chunks are still sliced from the original, and tokens are still counted on the original.

>>> line_view("| a |\\r\\n|---|\\r\\nold\\rmac")
'| a | \\n|---| \\nold\\nmac'
"""

from __future__ import annotations


def line_view(text: str) -> str:
    """``text`` with ``\\r\\n`` read as `` \\n`` and a lone ``\\r`` as ``\\n``; the same length."""
    if "\r" not in text:  # the usual case: no copy
        return text
    return text.replace("\r\n", " \n").replace("\r", "\n")
