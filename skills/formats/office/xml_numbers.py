"""Whole numbers an Office file writes in its XML attributes, read within bounds.

A numbering level (``w:ilvl``), an outline level, a span, a font size, a first number, the row of
a merged range: the file writes each as text, and a hostile one writes 5,000 digits (Python
refuses to convert more than 4,300, which failed the whole file), ``²`` (``str.isdigit`` holds,
``int`` refuses it), a sign or a fraction. :func:`whole` is the one reading of such an attribute
for our Office readers: ASCII digits only, and a number past the reader's bound is the bound,
found from its length before anything is converted.

>>> whole("3", 8), whole("9" * 5000, 8), whole("00012", 99), whole("²", 8), whole("-1", 8)
(3, 8, 12, None, None)
>>> whole(None, 8), whole("", 8), whole(b"1048577", 1_048_576)
(None, None, 1048576)
"""

from __future__ import annotations

#: Word's numbering levels are 0 to 8 (``w:ilvl``); a level past them is read as this one, which
#: no numbering defines, so it numbers nothing whatever its digits.
MAX_LEVEL = 9
#: Word's outline levels: 0 to 8 a heading's, 9 body text
BODY_OUTLINE = 9
#: Word's largest font size, 1,638 points, in the half-points ``w:sz`` is written in
MAX_HALF_POINTS = 3_276


def whole(value: str | bytes | None, most: int) -> int | None:
    """The whole number ``value`` writes, at most ``most`` (a larger one is ``most``); ``None``
    when it writes none (absent, empty, a sign, a fraction, digits other than ASCII ones)."""
    if not value:
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(most)):
        return most
    return min(int(digits), most)
