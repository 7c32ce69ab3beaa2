"""Plain text -> ``Outline``: paragraphs (separated by blank lines) and lines, nothing else."""

from __future__ import annotations

from skills.chunking import outline as lv
from skills.chunking.outline import Outline


def parse_text(text: str) -> Outline:
    """Cut points at every non-blank line: a block break after a blank line, else a line break."""
    outline = Outline(length=len(text))
    position = 0
    previous_blank = True
    for raw in text.split("\n"):
        start = position
        position += len(raw) + 1
        if not raw.strip():
            previous_blank = True
            continue
        outline.add_break(start, lv.BLOCK if previous_blank else lv.LINE)
        previous_blank = False
    outline.freeze()
    return outline
