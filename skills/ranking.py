"""Keyword ranking (BM25) and Reciprocal Rank Fusion: the two halves of a hybrid query.

Azure AI Search ranks a hybrid query's text part with BM25 (k1 = 1.2, b = 0.75) and fuses it with
the vector part by Reciprocal Rank Fusion (a document scores the sum of ``1 / (60 + rank)`` over
the rankings it appears in). The search side's local simulation and the evaluation's hybrid
retrieval both rank this way, so "what the service would return" is computed in one place.

Words are split as the index's analyzer splits them. Azure's default, the standard Lucene
analyzer, breaks text at Unicode's word boundaries and lower-cases it, without stemming (see
``words``). It matters on technical text: ``httpx.AsyncClient`` is one word there, so a question
about an "async client" does not match it by keyword. The index definitions therefore declare
``identifiers`` (:func:`identifier_words`): the same words, each also cut into the parts a reader
names (``async``, ``client``), the whole word kept.

>>> ranking = BM25(["retry the request", "the timeout", "retries and timeouts"])
>>> [position for position, _ in ranking.rank("request timeout")]  # no stemming: not 2
[1, 0]
>>> [position for position, _ in BM25(["httpx.AsyncClient()", "a client"]).rank("async client")]
[0, 1]
>>> english = BM25(["retry the request", "the timeout", "retries and timeouts"], "en.lucene")
>>> sorted(position for position, _ in english.rank("request timeout"))  # timeouts: 2 too
[0, 1, 2]
>>> [position for position, _ in fuse([[0, 1, 2], [2, 1]])]
[2, 1, 0]
"""

from __future__ import annotations

import argparse
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")
K1, B = 1.2, 0.75
RRF_K = 60
#: How many keyword results a hybrid query fuses with the vector query's ``k`` nearest: Azure's
#: ``maxTextRecallSize``, 1,000 unless the query sets it. A leaf far down the keyword ranking
#: still adds its ``1 / (60 + rank)``.
TEXT_RECALL = 1000
#: The vector query's weight in a hybrid query's fusion when none is sent (REST
#: ``vectorQueries[].weight``, GA since API version 2024-07-01, default 1.0): each vector result
#: adds ``weight / (60 + rank)``, each keyword result ``1 / (60 + rank)``. Above 1 the vector half
#: leads, below it the keywords. What an index of the baselines' chunks is queried with.
SERVICE_VECTOR_WEIGHT = 1.0
#: The skill's query's vector weight (``QueryOptions.vector_weight``, the evaluation's engine
#: candidates): the service's, until a weight is shown to hold with the deployed embedding model
#: (``docs/evaluation.md``, *The fourth pass*: 0.5 passes the rotation on the local model).
VECTOR_WEIGHT = SERVICE_VECTOR_WEIGHT
#: Whether the skill's query lifts each half's first result to just after the fused first
#: (:func:`halves_first`; ``QueryOptions.halves_first``, the evaluation's engine candidates; on
#: since issue 34's seventh pass, ``docs/evaluation.md``, *Seventh pass: technical docs*).
HALVES_FIRST = True
#: A word as Lucene's StandardTokenizer finds it (Unicode's word boundaries, UAX #29): a run of
#: letters, digits and ``_`` that a ``.``, ``'`` or ``:`` between two letters, or a ``.``, ``,``,
#: ``;`` or ``'`` between two digits, does not end (rules WB6-WB7 and WB11-WB12). So
#: ``os.path.join``, ``you're``, ``3.14`` and ``1,000`` are one word each, ``a9.com`` and
#: ``std::vector`` two (``::`` is two marks; a digit before a dot ends the word, as in Lucene).
_WORD = re.compile(r"\w+(?:(?:(?<=[^\W\d_])[.:'\u2019](?=[^\W\d_])|(?<=\d)[.,;'\u2019](?=\d))\w+)*")


def words(text: str) -> list[str]:
    """The terms BM25 counts, as Azure's default analyzer (``standard.lucene``) makes them.

    >>> words("HTTPX's Client.get(url_path) costs 1,000.50 on a9.com")
    ["httpx's", 'client.get', 'url_path', 'costs', '1,000.50', 'on', 'a9', 'com']
    """
    return _WORD.findall(text.lower())


#: Lucene's English stop words (``EnglishAnalyzer.ENGLISH_STOP_WORDS_SET``), which ``en.lucene``
#: drops.
ENGLISH_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)


@lru_cache(maxsize=1)
def _porter() -> Any:
    """snowballstemmer's Porter stemmer (pure Python, BSD), imported on the first English word:
    only ``en.lucene`` needs it."""
    import snowballstemmer

    return snowballstemmer.stemmer("porter")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return str(_porter().stemWord(word))


def english_words(text: str) -> list[str]:
    """The terms as Azure's ``en.lucene`` analyzer makes them (Lucene's ``EnglishAnalyzer``): the
    standard tokenizer's words, a trailing possessive ``'s`` removed, English stop words dropped,
    the rest reduced by the Porter stemmer.

    >>> english_words("The President's freedoms, and the retries of timeouts")
    ['presid', 'freedom', 'retri', 'timeout']
    """
    terms = []
    for word in words(text):
        if word.endswith(("'s", "\u2019s")):
            word = word[:-2]
        if word and word not in ENGLISH_STOP_WORDS:
            terms.append(_stem(word))
    return terms


# Lucene's WordDelimiterFilter classes a character as lower, upper, digit or delimiter; a letter
# without case (``Lo``, ``Lm``, ``Lt``) and a combining mark count as both letters.
_LOWER, _UPPER, _DIGIT, _DELIMITER = 1, 2, 4, 8
_LETTER = _LOWER | _UPPER
_CASELESS = frozenset({"Lt", "Lm", "Lo", "Mn", "Me", "Mc"})


@lru_cache(maxsize=4096)
def _character_type(character: str) -> int:
    """The class Lucene's ``WordDelimiterIterator`` gives ``character`` (its ``charType``): below
    256 by ``Character.isLowerCase``/``isUpperCase``/``isDigit``, above by the Unicode category (a
    character beyond the BMP is a surrogate pair there, which counts as letter and digit)."""
    if ord(character) < 256:
        if character.islower():
            return _LOWER
        if character.isupper():
            return _UPPER
        return _DIGIT if character.isdecimal() else _DELIMITER
    if ord(character) > 0xFFFF:
        return _LETTER | _DIGIT
    category = unicodedata.category(character)
    if category == "Lu":
        return _UPPER
    if category == "Ll":
        return _LOWER
    if category in _CASELESS:
        return _LETTER
    return _DIGIT if category in ("Nd", "Nl", "No") else _DELIMITER


def _breaks(last: int, current: int) -> bool:
    """A subword ends between two characters of these classes: at a delimiter, from lower to
    upper case (not from upper to lower: ``XMLHttp`` stays whole), and between a letter and a
    digit (``splitOnCaseChange`` and ``splitOnNumerics`` on, their defaults)."""
    if current & last:
        return False
    return not (last & _UPPER and current & _LETTER)


def _subwords(token: str) -> list[str]:
    """The parts ``word_delimiter`` cuts ``token`` into (Lucene's ``WordDelimiterIterator``):
    delimiters at either end ignored, a possessive ``'s`` after a letter skipped
    (``stemEnglishPossessive``, on by default)."""
    types = [_character_type(character) for character in token]
    start, end = 0, len(token)
    while start < end and types[start] & _DELIMITER:
        start += 1
    while end > start and types[end - 1] & _DELIMITER:
        end -= 1

    def possessive(at: int) -> bool:
        return (
            at > 2
            and token[at - 2] == "'"
            and token[at - 1] in "sS"
            and bool(types[at - 3] & _LETTER)
            and (at == end or bool(types[at] & _DELIMITER))
        )

    parts, current = [], start
    while current < end:
        while current < end and types[current] & _DELIMITER:
            current += 1
        if current >= end:
            break
        stop = current + 1
        while stop < end and not _breaks(types[stop - 1], types[stop]):
            stop += 1
        parts.append(token[current:stop])
        current = stop + 2 if stop < end - 1 and possessive(stop + 2) else stop
    return parts


def word_delimiter(token: str) -> list[str]:
    """Azure's ``WordDelimiterTokenFilter`` (Lucene's ``WordDelimiterFilter``) as the
    ``identifiers`` analyzer sets it: word and number parts generated, the whole token kept
    (``preserveOriginal``), nothing catenated. A token that is one part passes alone. Lucene's
    documented examples:

    >>> word_delimiter("PowerShot"), word_delimiter("Wi-Fi"), word_delimiter("SD500")
    (['PowerShot', 'Power', 'Shot'], ['Wi-Fi', 'Wi', 'Fi'], ['SD500', 'SD', '500'])
    >>> word_delimiter("//hello---there, 'dude'")[1:], word_delimiter("O'Neil's")[1:]
    (['hello', 'there', 'dude'], ['O', 'Neil'])
    >>> word_delimiter("XMLHttpRequest"), word_delimiter("retry")
    (['XMLHttpRequest', 'XMLHttp', 'Request'], ['retry'])
    """
    parts = _subwords(token)
    if parts == [token]:
        return parts
    return [token, *parts]


def identifier_words(text: str) -> list[str]:
    """The terms of the ``identifiers`` analyzer (``index_definitions``' custom analyzer):
    the standard tokenizer's words, each also cut as a reader names an identifier
    (:func:`word_delimiter`), then lower-cased. Every ``standard.lucene`` term is among them.

    >>> identifier_words("OUTPUT_TYPES via httpx.AsyncClient")
    ['output_types', 'output', 'types', 'via', 'httpx.asyncclient', 'httpx', 'async', 'client']
    >>> identifier_words("os.path.join(HTTPX's url)")
    ['os.path.join', 'os', 'path', 'join', "httpx's", 'httpx', 'url']
    """
    return [term.lower() for word in _WORD.findall(text) for term in word_delimiter(word)]


#: ``identifiers`` as an index declares it (the REST API's ``CustomAnalyzer`` and
#: ``WordDelimiterTokenFilter``): the standard tokenizer, the word delimiter with the settings
#: :func:`word_delimiter` mirrors (the others at their defaults: generateWordParts,
#: generateNumberParts, splitOnCaseChange, splitOnNumerics, stemEnglishPossessive on; no
#: catenation), then lower case. The filter runs before ``lowercase``: it needs the case changes.
IDENTIFIERS_DEFINITION: dict[str, list[dict[str, Any]]] = {
    "analyzers": [
        {
            "@odata.type": "#Microsoft.Azure.Search.CustomAnalyzer",
            "name": "identifiers",
            "tokenizer": "standard_v2",
            "tokenFilters": ["identifier_parts", "lowercase"],
        }
    ],
    "tokenFilters": [
        {
            "@odata.type": "#Microsoft.Azure.Search.WordDelimiterTokenFilter",
            "name": "identifier_parts",
            "preserveOriginal": True,
        }
    ],
}

#: The index analyzers the local ranking mirrors, by their Azure names (``identifiers`` is the
#: custom analyzer of :data:`IDENTIFIERS_DEFINITION`).
ANALYZERS: dict[str, Callable[[str], list[str]]] = {
    "standard.lucene": words,
    "en.lucene": english_words,
    "identifiers": identifier_words,
}
#: The analyzer of the index definitions' searchable text fields (``index_definitions``).
DEFAULT_ANALYZER = "identifiers"


class BM25:
    """An inverted index over ``texts``: term -> (position, frequency) postings, the terms made by
    the named analyzer (:data:`ANALYZERS`)."""

    def __init__(self, texts: Sequence[str], analyzer: str = DEFAULT_ANALYZER) -> None:
        if analyzer not in ANALYZERS:
            raise ValueError(f"analyzer must be one of {', '.join(ANALYZERS)}, not {analyzer!r}")
        self._words = ANALYZERS[analyzer]
        self.size = len(texts)
        self._lengths = [0] * self.size
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for position, text in enumerate(texts):
            terms = Counter(self._words(text))
            self._lengths[position] = sum(terms.values())
            for term, frequency in terms.items():
                self._postings.setdefault(term, []).append((position, frequency))
        self._average_length = sum(self._lengths) / self.size if self.size else 0.0

    def rank(self, query: str) -> list[tuple[int, float]]:
        """(position, score) of the texts sharing a term with ``query``, best first (ties by
        position)."""
        scores: dict[int, float] = {}
        for term in set(self._words(query)):
            postings = self._postings.get(term, ())
            if not postings:
                continue
            idf = math.log(1 + (self.size - len(postings) + 0.5) / (len(postings) + 0.5))
            for position, frequency in postings:
                norm = K1 * (1 - B + B * self._lengths[position] / (self._average_length or 1))
                scores[position] = scores.get(position, 0.0) + idf * frequency * (K1 + 1) / (
                    frequency + norm
                )
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def vector_weight(text: str) -> float:
    """A vector weight as a command line gives it: a number above 0 (the service refuses 0 and
    below); an ``argparse`` type.

    >>> vector_weight("0.5")
    0.5
    >>> vector_weight("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a vector weight is a number above 0, not '0'
    """
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"a vector weight is a number above 0, not {text!r}")
    return value


def hybrid(
    keyword: Sequence[int], nearest: Sequence[int], vector_weight: float = SERVICE_VECTOR_WEIGHT
) -> list[tuple[int, float]]:
    """A hybrid query's ranking, as the service fuses it: the first ``TEXT_RECALL`` keyword
    results and the vector query's ``nearest`` (its ``k``, empty for a keyword-only query),
    the latter weighted by ``vector_weight`` (:data:`SERVICE_VECTOR_WEIGHT` when not given).

    >>> [p for p, _ in hybrid([1, 2], [2, 1])], [p for p, _ in hybrid([1, 2], [2, 1], 2.0)]
    ([1, 2], [2, 1])
    """
    return fuse([nearest, keyword[:TEXT_RECALL]], weights=(vector_weight, 1.0))


def halves_first(fused: Sequence[T], keyword_first: T | None, vector_first: T | None) -> list[T]:
    """The fused ranking with the keyword half's first result and the vector half's first
    result right after the fused first (in that order, each once; None: that half found
    nothing). Reciprocal Rank Fusion scores agreement: a result that one half ranks first and
    the other does not reach scores ``1 / 61``, below every result both halves rank in their
    first sixty, so the passage that quotes the question's identifiers (a decorator's arguments
    in a table) or the one that says it in other words sank to the 15th-40th place, past what a
    1,000-token prompt sends. Each half's single surest result is kept in reach; the rest is
    the service's order.

    >>> halves_first([5, 4, 3, 2, 1], keyword_first=1, vector_first=5)
    [5, 1, 4, 3, 2]
    >>> halves_first([5, 4, 3, 2, 1], keyword_first=2, vector_first=1)
    [5, 2, 1, 4, 3]
    """
    lifted = [
        first
        for first in dict.fromkeys((keyword_first, vector_first))
        if first is not None and (not fused or first != fused[0])
    ]
    rest = [position for position in fused[1:] if position not in lifted]
    return [*fused[:1], *lifted, *rest]


def fuse(
    rankings: Sequence[Sequence[int]],
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[int, float]]:
    """Reciprocal Rank Fusion of rankings (positions, best first), each ranking's terms times its
    weight (1 when not given): (position, fused score), best first, ties by position."""
    if weights is not None and len(weights) != len(rankings):
        raise ValueError("one weight a ranking")
    fused: dict[int, float] = {}
    for number, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[number]
        for rank, position in enumerate(ranking, start=1):
            fused[position] = fused.get(position, 0.0) + weight / (k + rank)
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))
