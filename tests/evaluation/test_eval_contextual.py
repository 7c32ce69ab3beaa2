"""The context-note evaluation: the free note's words, the token count, and the skip message."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.chunking import ChunkOptions, chunk_document
from skills.evaluation import contextual
from skills.evaluation.dataset import load_dataset

DOC = (
    "---\ntitle: Widget guide\ndescription: How to run widgets\n---\n\n# Widgets\n\n## Upgrade\n\n"
    "Upgrades replace the binary in place. "
    + " ".join(f"Step {n} checks the version." for n in range(40))
)


def test_the_free_note_is_the_front_matter_and_the_first_sentence_of_the_section() -> None:
    options = ChunkOptions(note_tokens=32)
    chunked = chunk_document(DOC, document_key="w.md", options=options)
    noted = contextual.free_notes("w.md", DOC, chunked, options)
    later = noted.leaves[-1]
    assert later.note == "Widget guide. How to run widgets. Upgrades replace the binary in place."
    assert later.tokens <= 128 and later.text == chunked.leaves[-1].text


@pytest.fixture
def dataset_files(tmp_path: Path) -> tuple[Path, Path]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "w.md").write_text(DOC)
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "How are upgrades done?", "doc": "w.md", '
        '"reference": "Upgrades replace the binary in place.", "kind": "prose"}\n'
    )
    return docs, questions


def test_the_count_adds_up_every_child_prompt(dataset_files: tuple[Path, Path]) -> None:
    counted = contextual.count_costs(load_dataset(*dataset_files), {})
    chunked = chunk_document(DOC, document_key="w.md", options=ChunkOptions(note_tokens=32))
    assert counted["children"] == len(chunked.leaves)
    assert counted["inputTokens"] > counted["children"] * 100  # the document in every prompt


def test_without_a_deployment_the_llm_variant_says_why_it_is_skipped() -> None:
    with pytest.raises(LookupError):
        contextual.llm_notes({})
