"""What an answer weighs and what a call holds: bytes and allocations counted, never seconds.

An answer repeats its input several times (each child's text and embedText, each parent's text,
the overlap); the indexer reads, buffers and forwards all of it, and the Function holds it while
it sends. ``docs/skill.md`` ("What an answer weighs") states the numbers these tests bound.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from skills.chunking import encoding
from skills.local.devserver import PROJECT_ROOT
from skills.skill import SkillSettings, handle_chunk_request

#: Ordinary Markdown: the project's samples and the golden inputs (fixed files, real prose).
MARKDOWN_FILES = sorted(
    [*(PROJECT_ROOT / "samples").glob("*.md"), *(PROJECT_ROOT / "tests/golden/inputs").glob("*.md")]
)


def body_for(texts: list[str]) -> bytes:
    """An indexer-shaped request: blob URLs as document keys, as the shipped skillsets send."""
    values = [
        {
            "recordId": str(number),
            "data": {
                "text": text,
                "documentKey": f"https://acct.blob.core.windows.net/docs/{number}.md",
            },
        }
        for number, text in enumerate(texts)
    ]
    return json.dumps({"values": values}).encode("utf-8")


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_an_answer_weighs_under_six_bytes_per_input_byte_on_ordinary_markdown() -> None:
    texts = [text_of(path) for path in MARKDOWN_FILES]
    assert len(texts) >= 4
    reply = handle_chunk_request(body_for(texts), {}, SkillSettings())
    assert reply.status == 200
    assert len(reply.body) / sum(len(text.encode("utf-8")) for text in texts) < 6.0


def test_no_single_ordinary_document_weighs_seven_bytes_per_byte() -> None:
    for path in MARKDOWN_FILES:
        text = text_of(path)
        reply = handle_chunk_request(body_for([text]), {}, SkillSettings())
        assert len(reply.body) / len(text.encode("utf-8")) < 7.0, path.name


def test_a_calls_peak_memory_is_about_its_request_plus_its_answer() -> None:
    """Records are answered one at a time and freed: the peak above the request is the answer's
    bytes plus one record's working set, not every record's chunks at once."""
    texts = [text_of(path) for path in MARKDOWN_FILES] * 12  # ~0.6 MB, many records
    body = body_for(texts)
    encoding()  # the tokenizer is loaded once per process, not per call
    handle_chunk_request(body_for(texts[:1]), {}, SkillSettings())
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        reply = handle_chunk_request(body, {}, SkillSettings())
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert reply.status == 200
    assert peak < len(reply.body) + 2 * len(body)
