"""A spreadsheet cell's value as the sheet displays it, from its number format.

openpyxl gives a cell's stored value (``0.6229333333333333``, a ``datetime``) and its format
string (``0.0%``, built-in formats by their usual codes). This renders the common formats the
way Excel does: percentages, fixed decimals, thousands separators, currency and literal text,
dates and times, and a section per sign (``#,##0;(#,##0)``). Numbers are rounded half away from
zero on their decimal digits, as Excel rounds (0.5 % in ``0%`` shows ``1%``). What it does not
know (fractions, conditions, scientific notation with custom exponents) falls back to the plain
value, so a cell is never lost, only shown plainly.

The built-in short date (format 14, which shows as the reader's locale's date) is written
``yyyy-mm-dd``: one unambiguous date rather than a guess at the author's locale.

>>> display(0.6229333333333333, "0.0%")
'62.3%'
>>> display(1234.5, '"$"#,##0.00')
'$1,234.50'
>>> display(-1234.5, "#,##0;(#,##0)")
'(1,235)'
>>> import datetime
>>> display(datetime.datetime(2022, 11, 11), "d-mmm-yy")
'11-Nov-22'
>>> display(datetime.datetime(2022, 11, 11), "mm-dd-yy")
'2022-11-11'
>>> display(27.299999999999997, "General")
'27.3'
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

#: openpyxl's name for built-in format 14, the locale's short date
_LOCALE_DATE = "mm-dd-yy"
#: the longest format Excel keeps (its Format record holds at most 255 characters): a longer
#: one, which only a hostile file writes, shows the plain value. Without a bound a format is
#: parsed again for every cell it applies to (10,000 characters: 1-7 ms a cell) and its quoted
#: text is written into each (10 KB of Markdown a cell from 20 bytes of XML)
MAX_FORMAT = 255
_SECTIONS = re.compile(r'((?:"[^"]*"|\\.|[^;])*)(?:;|$)')
_BRACKET = re.compile(r"\[([^\]]*)\]")
_QUOTED = re.compile(r'"([^"]*)"|\\(.)|_.|\*.')
_DATE_CODES = re.compile(r"(yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm|a/p|\.0+)")
_MONTHS = [
    *("January", "February", "March", "April", "May", "June", "July", "August"),
    *("September", "October", "November", "December"),
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def display(value: object, number_format: str | None) -> str:
    """``value`` as a cell of format ``number_format`` shows it (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return value
    fmt = (number_format or "General").strip()
    if len(fmt) > MAX_FORMAT:
        return _plain(value)
    try:
        if isinstance(value, dt.datetime | dt.date | dt.time | dt.timedelta):
            return _date(value, fmt)
        if isinstance(value, int | float):
            return _number(value, fmt)
    except (ValueError, InvalidOperation, OverflowError):
        pass
    return _plain(value)


def _plain(value: object) -> str:
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.15g}"
    if isinstance(value, dt.datetime) and value.time() == dt.time(0):
        return value.date().isoformat()
    return str(value)


def _section(fmt: str, value: float) -> tuple[str, bool]:
    """The section of a ``positive;negative;zero`` format that applies, and whether the sign
    is written by it (a negative section shows the absolute value)."""
    sections = [s for s in _SECTIONS.findall(fmt)][:4]
    while len(sections) > 1 and sections[-1] == "":
        sections.pop()
    if value < 0 and len(sections) >= 2:
        return sections[1], True
    if value == 0 and len(sections) >= 3:
        return sections[2], False
    return sections[0], False


def _number(value: float, fmt: str) -> str:
    if fmt.lower() == "general" or not fmt:
        return _plain(value)
    section, signed = _section(fmt, value)
    currency = ""
    for inner in _BRACKET.findall(section):
        if inner.startswith("$"):
            currency = inner[1:].split("-")[0]
        elif inner and inner[0] in "<>=":
            return _plain(value)  # a conditional format
    section = _BRACKET.sub(lambda m: currency if m.group(1).startswith("$") else "", section)
    literal = _QUOTED.sub(_literal, section)
    if "/" in literal or re.search(r"[eE][+-]", literal):
        return _plain(value)
    match = re.search(r"[0#?][0#?,]*(?:\.[0#?]*)?|\.[0#?]+", literal)
    if match is None and "@" in literal:  # the text format
        return literal.replace("@", _plain(value))
    if match is None:
        return literal if literal.strip() else _plain(value)
    code = match.group(0)
    number = abs(value) if signed else value
    number *= 100 ** literal.count("%")
    decimals = len(code.split(".")[1]) if "." in code else 0
    text = _optional_digits(_fixed(number, decimals, grouped="," in code.split(".")[0]), code)
    return literal[: match.start()] + text + literal[match.end() :]


def _optional_digits(text: str, code: str) -> str:
    """``text`` (the number with every decimal place of ``code``) with the digits a ``#`` or
    ``?`` placeholder shows only when significant left out, as Excel does: ``#0.#`` shows 1000
    as ``1000.`` and 2.5 as ``2.5``; ``#`` shows 0 as nothing (``?`` as a space).

    >>> [_optional_digits(*case) for case in [("1000.0", "#0.#"), ("0", "#"), ("0.50", "#.0#")]]
    ['1000.', '', '.5']
    """
    whole_code, point, fraction_code = code.partition(".")
    sign = "-" if text.startswith("-") else ""
    whole, _, fraction = text.lstrip("-").partition(".")
    if point:
        shown = fraction_code.rstrip("#?")
        kept = max(len(fraction.rstrip("0")), len(shown))
        fraction = fraction[:kept] + "".join(" " if c == "?" else "" for c in fraction_code[kept:])
    if whole == "0" and not any(c == "0" for c in whole_code):
        whole = " " if "?" in whole_code else ""
    return sign + whole + point + fraction


def _literal(match: re.Match[str]) -> str:
    """Quoted text and escaped characters as themselves; ``_x`` (a space as wide as x) as a
    space; ``*x`` (fill the cell with x) as nothing."""
    whole = match.group(0)
    if whole[0] == "_":
        return " "
    if whole[0] == "*":
        return ""
    return match.group(1) if match.group(1) is not None else match.group(2)


def _fixed(number: float, decimals: int, *, grouped: bool) -> str:
    quantum = Decimal(1).scaleb(-decimals)
    rounded = Decimal(repr(number)).quantize(quantum, rounding=ROUND_HALF_UP)
    if rounded == 0:
        rounded = abs(rounded)
    return f"{rounded:,.{decimals}f}" if grouped else f"{rounded:.{decimals}f}"


def _date(value: dt.datetime | dt.date | dt.time | dt.timedelta, fmt: str) -> str:
    if isinstance(value, dt.timedelta):
        return _elapsed(value, fmt)
    if fmt.lower() == _LOCALE_DATE and isinstance(value, dt.datetime | dt.date):
        return (value.date() if isinstance(value, dt.datetime) else value).isoformat()
    if fmt.lower() in (_LOCALE_DATE, "general"):
        return _plain(value)
    section = _BRACKET.sub("", _SECTIONS.findall(fmt)[0])
    if isinstance(value, dt.time):
        moment = dt.datetime.combine(dt.date(1899, 12, 30), value)
    elif isinstance(value, dt.datetime):
        moment = value
    else:
        moment = dt.datetime.combine(value, dt.time(0))
    lowered = section.lower()
    if not _DATE_CODES.search(_QUOTED.sub("", lowered)):
        return _plain(value)
    twelve = "am/pm" in lowered or "a/p" in lowered
    out: list[str] = []
    tokens = _tokens(section)
    minutes = _minutes(tokens)
    for index, (token, is_code) in enumerate(tokens):
        if not is_code:
            out.append(token)
            continue
        out.append(_date_token(token.lower(), moment, twelve, index in minutes))
    return "".join(out)


def _tokens(section: str) -> list[tuple[str, bool]]:
    """The format cut into (text, is a date code) pieces, quoted text and escapes literal."""
    tokens: list[tuple[str, bool]] = []
    position = 0
    pattern = re.compile(r'"([^"]*)"|\\(.)|_.|\*.|' + _DATE_CODES.pattern, re.IGNORECASE)
    for match in pattern.finditer(section):
        if match.start() > position:
            tokens.append((section[position : match.start()], False))
        whole = match.group(0)
        if match.group(1) is not None or match.group(2) is not None:
            tokens.append((match.group(1) or match.group(2) or "", False))
        elif whole[0] in "_*":
            tokens.append((" " if whole[0] == "_" else "", False))
        else:
            tokens.append((whole, True))
        position = match.end()
    tokens.append((section[position:], False))
    return tokens


def _minutes(tokens: list[tuple[str, bool]]) -> set[int]:
    """The tokens (by index) where ``m``/``mm`` is minutes: right after an hour code or right
    before a seconds code, else a month. One pass over the codes (a look at every code for each
    of them made a format of 5,000 ``m:`` take 3.8 s a cell).

    >>> sorted(_minutes(_tokens("h:mm m ss")))
    [2, 4]
    """
    codes = [(i, t.lower()) for i, (t, code) in enumerate(tokens) if code]
    return {
        index
        for n, (index, _) in enumerate(codes)
        if (n > 0 and codes[n - 1][1].startswith("h"))
        or (n + 1 < len(codes) and codes[n + 1][1].startswith("s"))
    }


def _date_token(token: str, moment: dt.datetime, twelve: bool, minute: bool) -> str:
    if token in ("m", "mm") and minute:
        return f"{moment.minute:0{len(token)}d}"
    hour = moment.hour % 12 or 12 if twelve else moment.hour
    simple = {
        "yyyy": f"{moment.year:04d}",
        "yy": f"{moment.year % 100:02d}",
        "mmmmm": _MONTHS[moment.month - 1][0],
        "mmmm": _MONTHS[moment.month - 1],
        "mmm": _MONTHS[moment.month - 1][:3],
        "mm": f"{moment.month:02d}",
        "m": str(moment.month),
        "dddd": _DAYS[moment.weekday()],
        "ddd": _DAYS[moment.weekday()][:3],
        "dd": f"{moment.day:02d}",
        "d": str(moment.day),
        "hh": f"{hour:02d}",
        "h": str(hour),
        "ss": f"{moment.second:02d}",
        "s": str(moment.second),
        "am/pm": "AM" if moment.hour < 12 else "PM",
        "a/p": "A" if moment.hour < 12 else "P",
    }
    if token.startswith("."):
        digits = len(token) - 1
        return "." + f"{moment.microsecond:06d}"[:digits]
    return simple.get(token, token)


def _elapsed(value: dt.timedelta, fmt: str) -> str:
    """A duration (openpyxl reads ``[h]:mm:ss`` cells as ``timedelta``)."""
    seconds = int(value.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if "s" in fmt.lower():
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{hours}:{minutes:02d}"
