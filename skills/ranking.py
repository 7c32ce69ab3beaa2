"""Keyword ranking (BM25) and Reciprocal Rank Fusion: the two halves of a hybrid query.

Azure AI Search ranks a hybrid query's text part with BM25 (k1 = 1.2, b = 0.75) and fuses it with
the vector part by Reciprocal Rank Fusion (a document scores the sum of ``1 / (60 + rank)`` over
the rankings it appears in). The search side's local simulation and the evaluation's hybrid
retrieval both rank this way, so "what the service would return" is computed in one place.

Words are split as the index's analyzer splits them: Azure's default, the standard Lucene
analyzer, breaks text at Unicode's word boundaries and lower-cases it, without stemming (see
``words``). It matters on technical text: ``httpx.AsyncClient`` is one word there, so a question
about an "async client" does not match it by keyword.

>>> ranking = BM25(["retry the request", "the timeout", "retries and timeouts"])
>>> [position for position, _ in ranking.rank("request timeout")]  # no stemming: not 2
[1, 0]
>>> english = BM25(["retry the request", "the timeout", "retries and timeouts"], "en.lucene")
>>> sorted(position for position, _ in english.rank("request timeout"))  # timeouts: 2 too
[0, 1, 2]
>>> [position for position, _ in fuse([[0, 1, 2], [2, 1]])]
[2, 1, 0]
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

K1, B = 1.2, 0.75
RRF_K = 60
#: How many keyword results a hybrid query fuses with the vector query's ``k`` nearest: Azure's
#: ``maxTextRecallSize``, 1,000 unless the query sets it. A leaf far down the keyword ranking
#: still adds its ``1 / (60 + rank)``.
TEXT_RECALL = 1000
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


#: The index analyzers the local ranking mirrors, by their Azure names.
ANALYZERS: dict[str, Callable[[str], list[str]]] = {
    "standard.lucene": words,
    "en.lucene": english_words,
}
DEFAULT_ANALYZER = "standard.lucene"


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


def hybrid(keyword: Sequence[int], nearest: Sequence[int]) -> list[tuple[int, float]]:
    """A hybrid query's ranking, as the service fuses it: the first ``TEXT_RECALL`` keyword
    results and the vector query's ``nearest`` (its ``k``, empty for a keyword-only query)."""
    return fuse([nearest, keyword[:TEXT_RECALL]])


def fuse(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[tuple[int, float]]:
    """Reciprocal Rank Fusion of rankings (positions, best first): (position, fused score), best
    first, ties by position."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, position in enumerate(ranking, start=1):
            fused[position] = fused.get(position, 0.0) + 1.0 / (k + rank)
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))
