"""Section numbers typed into a paragraph's text, as people number headings by hand.

``2.3 Terms``, ``第三章 附件`` (chapter three), ``四、验收`` (part four), ``Article 5 Payment``,
``Appendix B``, ``附件二`` (attachment two): the
number, its family (numbers of one family count in one sequence) and the depth it implies.
``word_outline.py`` takes such a paragraph as a heading only when its family runs in sequence
(another paragraph carries the number before or after it) and the paragraph reads as a title.

>>> typed_number("2.3 Terms of payment")
Number(family='decimal:2', value=3, depth=2)
>>> typed_number("第三章  竞争性谈判须知")
Number(family='chapter:章', value=3, depth=1)
>>> typed_number("▲ 四、验收").value
4
>>> typed_number("2024 was a good year") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DECIMAL = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?[ \t\u3000]+\S")
_CHAPTER = re.compile(r"^第\s*([一二三四五六七八九十百零〇两\d]+)\s*([章节篇部])")
_PART = re.compile(r"^[▲△■□●◆\s]*([一二三四五六七八九十]+)\s*[、.．]")
_WORDED = re.compile(r"^(chapter|part|section|article)\s+(\d{1,3}|[ivxlc]{1,6})\b", re.IGNORECASE)
_APPENDIX = re.compile(
    r"^(附件|附表)\s*([一二三四五六七八九十]+|\d{1,2})(?![\d一二三四五六七八九十])"
)
_ANNEX = re.compile(r"^(appendix|annex|schedule|exhibit)\s+([a-z]|\d{1,2})\b", re.IGNORECASE)
_CJK_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_CJK_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_WORD_DEPTH = {"chapter": 1, "part": 1, "section": 2, "article": 2}
_CHAPTER_DEPTH = {"篇": 1, "部": 1, "章": 1, "节": 2}


@dataclass(frozen=True, slots=True)
class Number:
    """A typed section number: numbers of one ``family`` form one sequence (a decimal number's
    family is its parent's: ``decimal:2`` for 2.1, 2.2 ...)."""

    family: str
    value: int
    depth: int


def typed_number(text: str) -> Number | None:
    """The section number ``text`` opens with, if any."""
    stripped = text.strip()
    match = _DECIMAL.match(stripped)
    if match:
        parts = [int(p) for p in match.group(1).split(".")]
        if len(parts) == 1 and parts[0] > 50:  # "2024 was": a year or a quantity, not a section
            return None
        parent = ".".join(str(p) for p in parts[:-1])
        return Number(f"decimal:{parent}", parts[-1], len(parts))
    match = _CHAPTER.match(stripped)
    if match:
        value = _cjk_value(match.group(1))
        kind = match.group(2)
        return Number(f"chapter:{kind}", value, _CHAPTER_DEPTH[kind]) if value else None
    match = _PART.match(stripped)
    if match:
        value = _cjk_value(match.group(1))
        return Number("part", value, 2) if value else None
    match = _APPENDIX.match(stripped)
    if match:
        value = _cjk_value(match.group(2))
        return Number(f"appendix:{match.group(1)}", value, 2) if value else None
    match = _ANNEX.match(stripped)
    if match:
        token = match.group(2).lower()
        value = int(token) if token.isdigit() else ord(token) - ord("a") + 1
        return Number(f"annex:{match.group(1).lower()}", value, 1)
    match = _WORDED.match(stripped)
    if match:
        word = match.group(1).lower()
        value = _roman_or_int(match.group(2))
        return Number(f"word:{word}", value, _WORD_DEPTH[word]) if value else None
    return None


def _cjk_value(digits: str) -> int:
    """一 1, 十 10, 十二 12, 二十 20, 二十三 23, or a decimal written in digits."""
    if digits.isdigit():
        return int(digits)
    if "百" in digits:
        return 0
    if "十" in digits:
        tens, _, ones = digits.partition("十")
        return (_CJK_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CJK_DIGITS.get(ones, 0))
    return _CJK_DIGITS.get(digits, 0) if len(digits) == 1 else 0


def _roman_or_int(token: str) -> int:
    if token.isdigit():
        return int(token)
    values = [_ROMAN[c] for c in token.lower()]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
