"""A note the run skipped is not cached as done: a later run of the same document asks for it
again, and gets the notes written before from the cache (what ``python -m skills.search notes
--fill`` relies on)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from skills.chunking import ChunkOptions, chunk_document
from skills.llm import ChatTarget, Ledger, NoteRun, NoteSettings
from skills.llm.chat import ChatFailure, Reply, Usage

DOC = "# Guide\n\n" + "\n\n".join(
    f"## Part {n}\n\n" + " ".join(f"Step {n}.{i} checks widget {i}." for i in range(30))
    for n in range(3)
)


class DictCache:
    def __init__(self) -> None:
        self.notes: dict[str, str] = {}

    def get(self, key: str) -> str | None:
        return self.notes.get(key)

    def put(self, key: str, note: str) -> None:
        self.notes[key] = note


class FlakyModel:
    """Answers the first ``good`` calls, then refuses as a throttled deployment does."""

    model = "notes"

    def __init__(self, good: int) -> None:
        self.good, self.calls = good, 0

    def complete(
        self, messages: Sequence[Mapping[str, str]], max_tokens: int, deadline: float
    ) -> Reply:
        self.calls += 1
        if self.calls > self.good:
            raise ChatFailure("service", "scripted failure")
        return Reply(f"Note {self.calls}.", Usage(10, 0, 3))


def run(model: FlakyModel, cache: DictCache) -> list[str]:
    settings = NoteSettings(ChatTarget("https://x", "notes", "v"), concurrency=1)
    options = ChunkOptions(child_max_tokens=64, note_tokens=16)
    chunked = chunk_document(DOC, document_key="k", options=options)
    notes = NoteRun(settings, model, cache, Ledger(10**9))
    done, _ = notes.write(chunked, DOC, "Guide", options, time.monotonic() + 60)
    return [leaf.note for leaf in done.leaves]


def test_skipped_notes_are_not_cached_and_a_later_run_fills_them_from_the_cache_and_model() -> None:
    cache = DictCache()
    first = run(FlakyModel(good=2), cache)
    written = [note for note in first if note]
    assert len(written) == 2 and len(first) > 2 and "" in first
    assert sorted(cache.notes.values()) == sorted(written)  # nothing marks a skipped note done
    again = FlakyModel(good=10**6)
    second = run(again, cache)
    assert all(second)
    assert again.calls == len(first) - 2  # only the skipped ones are asked again
