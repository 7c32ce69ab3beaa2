"""Sentence boundaries inside one paragraph, so an oversized paragraph is cut between sentences.

The engine cuts a paragraph only when it exceeds the budget, and then prefers sentence boundaries to
word boundaries. This module answers one question, fast and without dependencies: *where may a new
sentence begin?* It returns offsets, never strings, so the caller's ``source[start:end]`` slices
stay exact.

How it works: one compiled regex finds every candidate (a stop, optional closing quotes or brackets,
whitespace, then a non-space character); cheap checks then reject the candidates that are not
sentence ends. Most technical-text traps never become candidates, because their dot is not
followed by whitespace: decimals and thousands (``3.14``, ``5.000 TL``, ``1,000.50``), versions
(``v1.2.3``), URLs and e-mails (``https://example.com/a.b?c=d``, ``user@example.com``), dotted
identifiers and file names (``os.path.join``, ``config.yaml``).

The rules, in the order they are checked:

1. **Stops.** ``.``, ``!``, ``?``, ``…`` and runs of them (``...``, ``?!``), optionally followed by
   closing quotes, brackets or emphasis markers (``" ' ” ’ » ) ] * _``), then whitespace.
2. **Plausible start.** After the whitespace must come an uppercase or uncased letter (``A``, ``É``,
   ``東``), a digit, an opening quote or bracket (``" ' “ ‘ « „ ( [ { ¿ ¡``), a backtick,
   ``*``/``_``/``~`` emphasis, a link ``[``, an image ``![``, an autolink or HTML ``<``, or ``$``
   math. A lowercase letter never starts a sentence, after ``!`` and ``?`` either: in technical
   prose a lowercase word after them is nearly always the same sentence (``Yahoo! and others``,
   ``Is it `None`? if so, skip it``), and a missed boundary only makes the caller fall back to a
   word cut, the cheaper mistake. Any other character (``-``, ``#``, ``/``, a stop) is no start.
3. **Code spans.** A stop inside an inline code span (backtick runs paired as CommonMark does,
   never across a blank line) is not a boundary: ``"`a. B`"`` is never cut.
4. **Abbreviations and markers**, only after a single ``.``, looking at the word before it
   (compared case-insensitively, except the titles):

   - always mid-sentence: ``e.g.``, ``i.e.``, ``cf.``, ``vs.``, ``approx.`` ..., and the titles
     ``Dr.``, ``Mr.``, ``Mrs.``, ``Ms.``, ``Prof.``, ``St.`` when capitalised (``5 ms. The`` ends
     a sentence);
   - mid-sentence before a number only: ``No. 5``, ``Fig. 2``, ``p. 12``, ``Sec. 4`` (but
     ``No. The`` ends a sentence);
   - ambiguous, because they often end a sentence: ``etc.``, ``Inc.``, ``Ltd.``, ``Co.``,
     ``Jr.``, ``Sr.``, ``et al.``, dotted initialisms (``U.S.``, ``U.K.``, ``a.m.``, ``p.m.``,
     ``Ph.D.``) and single capital initials (``J. R. R. Tolkien``). They end a sentence only when
     the next word is a common sentence opener (``The``, ``This``, ``It`` ...):
     ``JSON, XML, etc. The default`` is cut, ``the U.S. Army`` is not;
   - a list number right after a stop or at the start (``Steps: 1. Install it. 2. Run it.``):
     the cut goes before ``2.``, never after it.

5. **CJK stops** ``。！？｡`` (with optional closing brackets ``」』）`` ...) end a sentence with
   or without following whitespace. When no whitespace follows, the returned offset is the very
   next character, so the character before it is the stop (or its closing bracket), not
   whitespace. Such offsets ARE returned: without them a Chinese or Japanese paragraph, which has
   no spaces, could only be cut by characters.

Example (offsets, and the pieces they cut)::

    >>> text = "Use a client, e.g. `httpx.Client`. Set v1.2.3 in config.yaml. Done!"
    >>> sentence_starts(text)
    [35, 62]
    >>> [text[a:b] for a, b in zip([0, 35, 62], [35, 62, len(text)])]
    ['Use a client, e.g. `httpx.Client`. ', 'Set v1.2.3 in config.yaml. ', 'Done!']
"""

from __future__ import annotations

import re
from bisect import bisect_right

__all__ = ["sentence_starts"]

_STOPS = ".!?…"

# A candidate starts at the FIRST char of a run of stops (the lookbehind rejects the others, which
# keeps long runs like "......" linear) and ends at the next non-space character, m.end().
_CANDIDATE = re.compile(
    r"""
    [.!?…。！？｡](?<![.!?…。！？｡][.!?…。！？｡])   # first char of a run of stops
    (?:
        (?<=[.!?…]) [.!?…]*+ ["'”’»)\]*_]*+ \s++ (?![a-z])  # Western: closers, whitespace
                                                  # (ASCII lowercase next: rejected in C, faster)
      | (?<=[。！？｡]) [。！？｡]*+ [」』”’"'）)\]】〕》〉]*+ \s*+  # CJK: whitespace optional
    )
    (?=\S)
    """,
    re.VERBOSE,
)

_OPENERS = frozenset("\"'“‘«„([{`*_~<$¿¡")
_LEADING_PUNCT = "\"'“‘«„([{`*_~<"

# Titles match as written (capitalised): "5 ms. The" ends a sentence, "Ms. Lee" does not.
_TITLES = frozenset({"Dr", "Drs", "Mr", "Mrs", "Ms", "Mx", "Prof", "St"})
_ALWAYS_MID_SENTENCE = frozenset(
    {"e.g", "i.e", "cf", "vs", "viz", "approx", "ca", "resp", "esp", "incl", "excl"}
)
_BEFORE_NUMBER = frozenset(
    {"no", "nos", "nr", "p", "pp", "vol", "art", "fig", "figs", "eq", "eqs", "sec", "ch", "ref"}
)
_AMBIGUOUS = frozenset(
    {"etc", "inc", "ltd", "co", "corp", "llc", "plc", "jr", "sr", "al", "ph.d", "u.s", "u.k"}
)
_SENTENCE_OPENERS = frozenset(
    {
        "A", "After", "All", "Also", "An", "And", "As", "At", "But", "By", "Each", "For", "From",
        "He", "Here", "However", "How", "I", "If", "In", "It", "Its", "Most", "Note", "Now",
        "Once", "Only", "Our", "She", "Since", "So", "Some", "Such", "That", "The", "Their",
        "Then", "There", "These", "They", "This", "Those", "To", "Use", "We", "What", "When",
        "Where", "Which", "While", "Why", "With", "You", "Your",
    }
)  # fmt: skip
_INITIALISM = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]")  # u.s, a.m, u.s.a (already case-folded)
_WORD = re.compile(r"\w+")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
_BACKTICKS = re.compile(r"`+")
_LIST_MARKER_AFTER = frozenset(".!?…:;")
_ABBREVIATIONS = _ALWAYS_MID_SENTENCE | _BEFORE_NUMBER | _AMBIGUOUS | _TITLES
_LONGEST_ABBREVIATION = max(map(len, _ABBREVIATIONS)) + 2  # + room for "(" or '"' before it
_WORD_WINDOW = 12  # a word this long before a "." is never an abbreviation nor a list number


def sentence_starts(
    text: str, start: int = 0, end: int | None = None, *, report_from: int = 0
) -> list[int]:
    """Offsets in ``(start, end)`` where a new sentence begins, in increasing order.

    Each offset points at a non-whitespace character, preceded by whitespace or (rule 5 of the
    module docstring) by a CJK stop or its closing bracket, so ``text[a:b]`` between consecutive
    offsets are whole sentences with their trailing whitespace. ``start`` itself is never returned.
    Only ``text[start:end]`` is looked at: the result equals the offsets of that slice shifted by
    ``start``. Any string is accepted (NULs, lone surrogates); a bad range raises ``ValueError``.

    Offsets before ``report_from`` are left out unchecked: a caller that needs only the end of a
    long range (where an overlap may begin) skips most of the work. The text is still read from
    ``start`` (code spans pair from there), so the offsets kept are exactly the full scan's.

    >>> sentence_starts("Dr. Smith wrote it. It works.")
    [20]
    >>> sentence_starts("x. Hello there. Bye.", start=3)
    [16]
    """
    stop = len(text) if end is None else end
    if not 0 <= start <= stop <= len(text):
        raise ValueError(
            f"sentence_starts needs 0 <= start <= end <= len(text), got start={start}, "
            f"end={end}, len(text)={len(text)}"
        )
    part = text[start:stop]
    in_code = _CodeSpans(part).inside if "`" in part else None
    found: list[int] = []
    skip = report_from - start
    for match in _CANDIDATE.finditer(part):
        first, offset = match.span()
        if offset < skip:
            continue
        if part[first] in _STOPS:
            if not _plausible_start(part, offset):
                continue
            if (
                part[first] == "."
                and part[first + 1] not in _STOPS
                and _continues_after_dot(part, first, offset)
            ):
                continue
        if in_code is not None and in_code(first):
            continue
        found.append(start + offset)
    return found


def _plausible_start(text: str, at: int) -> bool:
    """True when ``text[at]`` can open a sentence (rule 2): never a lowercase letter."""
    char = text[at]
    if char.islower():
        return False
    if char.isalpha() or char.isdigit() or char in _OPENERS:
        return True
    return text.startswith("![", at)


def _continues_after_dot(text: str, dot: int, after: int) -> bool:
    """True when the ``.`` at ``dot`` ends an abbreviation or a list number, not a sentence."""
    window = text[max(0, dot - _WORD_WINDOW) : dot]
    pieces = window.rsplit(None, 1)
    raw = pieces[-1] if pieces else ""
    if not window or window[-1].isspace() or len(raw) >= _WORD_WINDOW:
        return False
    if len(raw) > _LONGEST_ABBREVIATION and "." not in raw:
        return False  # the common case: an ordinary word ends the sentence
    token = raw.lstrip(_LEADING_PUNCT)
    word = token.casefold()
    if word in _ALWAYS_MID_SENTENCE or token in _TITLES:
        return True
    if word in _BEFORE_NUMBER:
        return text[after].isdigit()
    if (
        word in _AMBIGUOUS
        or (len(token) == 1 and token.isupper())
        or ("." in word and _INITIALISM.fullmatch(word) is not None)
    ):
        opener = _WORD.match(text, after)
        return opener is None or opener.group() not in _SENTENCE_OPENERS
    if word.isdigit() and len(word) <= 3 and token == raw:
        return _follows_stop(text, dot - len(raw))
    return False


def _follows_stop(text: str, at: int) -> bool:
    """True when ``text[at]`` is the first character, or follows a stop/colon and whitespace."""
    before = at - 1
    while before >= 0 and text[before].isspace():
        before -= 1
    return before < 0 or text[before] in _LIST_MARKER_AFTER


class _CodeSpans:
    """Answers "is this offset inside an inline code span?", asked about increasing offsets.

    A code span never crosses a blank line, so the text is read lazily one paragraph at a time,
    only where a candidate needs it. In the common paragraph every backtick run is a single
    backtick: runs then pair in order (1st with 2nd, 3rd with 4th ...) and an odd last one is
    literal, so an offset is inside a span when an odd number of backticks precede it in its
    paragraph and one follows it; each query counts only the backticks since the previous one.
    Other paragraphs pair their runs as CommonMark does (``_PairedSpans``). Linear overall.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._end = 0  # end of the current paragraph: the first query always enters one
        self._paired: _PairedSpans | None = None
        self._last_tick = -1
        self._counted_to = 0
        self._count = 0

    def inside(self, at: int) -> bool:
        if at >= self._end:
            self._enter_paragraph(at)
        if self._paired is not None:
            return self._paired.inside(at)
        if at > self._last_tick:  # no backtick after it in its paragraph: no span to be inside
            return False
        self._count += self._text.count("`", self._counted_to, at)
        self._counted_to = at
        return self._count % 2 == 1

    def _enter_paragraph(self, at: int) -> None:
        text = self._text
        start = self._end
        for blank in _BLANK_LINE.finditer(text, self._end, at):
            start = blank.end()
        after = _BLANK_LINE.search(text, at)
        self._end = len(text) if after is None else after.start()
        self._last_tick = text.rfind("`", start, self._end)
        self._counted_to, self._count = start, 0
        double = text.find("``", start, self._end) >= 0
        self._paired = _PairedSpans(text, start, self._end) if double else None


class _PairedSpans:
    """Code spans of one paragraph as CommonMark pairs them: a run of backticks is closed by the
    next run of the same length; an unpaired run is literal text. Linear: one backward pass finds
    each run's next run of equal length, one forward pass pairs them.
    """

    def __init__(self, text: str, start: int, end: int) -> None:
        runs = [match.span() for match in _BACKTICKS.finditer(text, start, end)]
        closer = [-1] * len(runs)
        latest: dict[int, int] = {}
        for index in range(len(runs) - 1, -1, -1):
            length = runs[index][1] - runs[index][0]
            closer[index] = latest.get(length, -1)
            latest[length] = index
        self._starts: list[int] = []
        self._ends: list[int] = []
        index = 0
        while index < len(runs):
            if closer[index] < 0:
                index += 1
                continue
            self._starts.append(runs[index][0])
            self._ends.append(runs[closer[index]][1])
            index = closer[index] + 1

    def inside(self, at: int) -> bool:
        index = bisect_right(self._starts, at) - 1
        return index >= 0 and at < self._ends[index]
