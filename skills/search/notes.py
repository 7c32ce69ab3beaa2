"""Contextual notes at the scale of a container: what they will cost and take, and which
documents still lack some.

**Before a deploy.** One chat call per child, each carrying the document (up to
``CONTEXT_DOCUMENT_MAX_TOKENS``) and the child: input grows as children x document length. The
estimate is calibrated on the measurement ``docs/deploy.md`` reports for the dev set (29
documents of 9,900 characters on average, every prompt counted with ``cl100k_base`` by
``python -m skills.evaluation.contextual --count``): 7.34 children per 1,000 characters, 3,150
input tokens per call for a 9,900-character document (its 2,475 tokens and 675 of instructions,
chunk and framing), at most 48 output tokens a call. A deployment of ``capacity`` thousand tokens
per minute takes the tokens at that rate and at most 6 requests a minute per 1,000 TPM
(the rate the doctor's throttling advice uses), whichever is slower.

>>> estimate = estimate_notes([9_900] * 1_000, capacity=50)
>>> round(estimate.calls), round(estimate.input_tokens / 1e6), round(estimate.hours)
(72655, 229, 77)

**After a run.** A child whose note was skipped (token budget, throttling, time) is projected
with an empty ``context``; the note cache keeps only notes that were written, so nothing marks a
skipped note as done, but an unchanged blob is never read again by the indexer.
:func:`documents_missing_notes` finds the blobs with such children, and ``python -m skills.search
notes --fill`` touches them (a metadata write changes their timestamp, so change detection picks
them up) for the next run: the notes written before come from the cache for free, the skipped
ones are asked again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

#: the calibration above (dev set, default sizes; docs/deploy.md "Context notes: what they cost")
CHILDREN_PER_CHARACTER = 2_107 / (29 * 9_900)
CHARACTERS_PER_TOKEN = 4.0
PROMPT_OVERHEAD_TOKENS = 675
OUTPUT_TOKENS_PER_CALL = 48
DOCUMENT_MAX_TOKENS = 8_000
#: the outline (at most 1,000 tokens) that replaces the document past DOCUMENT_MAX_TOKENS
OUTLINE_TOKENS = 1_000
#: Azure OpenAI allows 6 requests a minute per 1,000 tokens a minute of capacity
REQUESTS_PER_MINUTE_PER_K_TPM = 6


@dataclass(frozen=True)
class NoteEstimate:
    documents: int
    characters: int
    calls: float
    input_tokens: float
    output_tokens: float
    capacity: int
    hours: float

    def cost(self, input_price: float, output_price: float) -> float:
        """USD for the given prices per million tokens (no prompt cache hit)."""
        return (self.input_tokens * input_price + self.output_tokens * output_price) / 1e6

    def lines(self) -> list[str]:
        """What the deploy prints."""
        return [
            f"contextual notes (contextualize=llm) for {self.documents:,} files "
            f"({self.characters:,} characters): about {self.calls:,.0f} chat calls, "
            f"{self.input_tokens / 1e6:,.1f} M input and {self.output_tokens / 1e6:,.1f} M "
            f"output tokens, {self.hours:,.1f} hours at {self.capacity}K TPM",
            "  (an estimate from the dev set's measurement, docs/deploy.md; PDF and Office files "
            "count one character per byte, more than their text)",
        ]


def estimate_notes(
    sizes: Iterable[int], capacity: int, document_max_tokens: int = DOCUMENT_MAX_TOKENS
) -> NoteEstimate:
    """The notes of documents of ``sizes`` characters, at ``capacity`` thousand TPM."""
    documents = characters = 0
    calls = input_tokens = 0.0
    for size in sizes:
        documents += 1
        characters += size
        children = size * CHILDREN_PER_CHARACTER
        tokens = size / CHARACTERS_PER_TOKEN
        context = tokens if tokens <= document_max_tokens else OUTLINE_TOKENS + 2 * 128
        calls += children
        input_tokens += children * (context + PROMPT_OVERHEAD_TOKENS)
    output_tokens = calls * OUTPUT_TOKENS_PER_CALL
    by_tokens = (input_tokens + output_tokens) / (capacity * 1_000) / 60
    by_requests = calls / (capacity * REQUESTS_PER_MINUTE_PER_K_TPM) / 60
    hours = max(by_tokens, by_requests)
    return NoteEstimate(documents, characters, calls, input_tokens, output_tokens, capacity, hours)


def documents_missing_notes(children: Iterable[Mapping[str, Any]]) -> list[str]:
    """Source paths (blob URLs) of the documents with at least one child without a note, in
    the order first seen.

    >>> documents_missing_notes([{"sourcePath": "a", "context": "x"},
    ...                          {"sourcePath": "b", "context": ""},
    ...                          {"sourcePath": "b", "context": None}])
    ['b']
    """
    found: dict[str, None] = {}
    for child in children:
        if not child.get("context") and child.get("sourcePath"):
            found.setdefault(str(child["sourcePath"]), None)
    return list(found)


def blob_names(urls: Iterable[str], container_url: str) -> Iterator[str]:
    """The blob names of ``urls`` inside the container at ``container_url`` (others skipped).

    >>> list(blob_names(["https://a/docs/x%20y.pdf", "https://b/other/z"], "https://a/docs"))
    ['x y.pdf']
    """
    from urllib.parse import unquote

    prefix = container_url.rstrip("/") + "/"
    for url in urls:
        if url.startswith(prefix):
            yield unquote(url[len(prefix) :])
