"""Loading documents and questions in the dev format and in Chroma's offset format."""

from __future__ import annotations

import base64
import csv
import json
import re
from pathlib import Path

import pytest

from skills.evaluation.dataset import DEFAULT_DEV_SET, Dataset, DatasetError, load_dataset
from skills.evaluation.grid import load_grid
from skills.evaluation.run import build_chunk_set
from skills.formats.read import read_file
from skills.skill import SkillSettings, handle_chunk_request

DOC = "# Title\n\nCafé ☕ first.\n\nSecond paragraph here.\n"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs" / "sub"
    folder.mkdir(parents=True)
    (folder / "a.md").write_bytes(DOC.encode("utf-8"))
    (folder / "notes.txt").write_bytes(b"ignored? no: .txt is read too\r\nline two\r\n")
    return tmp_path / "docs"


def write_lines(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def test_dev_format_finds_the_reference_in_code_points(docs: Path, tmp_path: Path) -> None:
    questions = write_lines(
        tmp_path / "q.jsonl",
        [
            {
                "id": "q1",
                "question": "What first?",
                "doc": "sub/a.md",
                "reference": "☕ first.",
                "kind": "prose",
            },
        ],
    )
    dataset = load_dataset(docs, questions)
    (question,) = dataset.questions
    span = question.references[0]
    assert DOC[span.start : span.end] == "☕ first."
    assert span.start == DOC.index("☕")
    assert dataset.reference_text(question) == "☕ first."


def test_documents_keep_their_newlines(docs: Path, tmp_path: Path) -> None:
    questions = write_lines(
        tmp_path / "q.jsonl",
        [
            {"id": "q", "question": "?", "doc": "sub/notes.txt", "reference": "two\r\n"},
        ],
    )
    dataset = load_dataset(docs, questions)
    assert "\r\n" in dataset.documents["sub/notes.txt"]
    assert dataset.questions[0].kind == "all"


def test_a_document_a_question_names_is_read_whatever_its_suffix(
    docs: Path, tmp_path: Path
) -> None:
    (docs / "sub" / "guide.adoc").write_text("Guide\n=====\n\nRead me.\n", encoding="utf-8")
    (docs / "sub" / "other.adoc").write_text("Not asked about.\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("Outside the folder.\n", encoding="utf-8")
    questions = write_lines(
        tmp_path / "q.jsonl",
        [
            {"id": "q", "question": "?", "doc": "sub/guide.adoc", "reference": "Read me."},
            {"id": "o", "question": "?", "doc": "../outside.md", "reference": "Outside"},
        ],
    )
    with pytest.raises(DatasetError, match=re.escape("'../outside.md' is not in the docs")):
        load_dataset(docs, questions)
    write_lines(
        questions, [{"id": "q", "question": "?", "doc": "sub/guide.adoc", "reference": "Read me."}]
    )
    dataset = load_dataset(docs, questions)
    assert set(dataset.documents) == {"sub/a.md", "sub/notes.txt", "sub/guide.adoc"}


@pytest.mark.parametrize(
    ("name", "data", "error"),
    [
        ("latin1.txt", "Caf\u00e9 au lait.".encode("latin-1"), r"latin1\.txt: not UTF-8 text"),
        (  # a format the registry converts, with nothing to read: the converter's reason
            "scan.png",
            b"\x89PNG\r\n\x1a\n\x00\xff",
            r"scan\.png: no text after conversion \(an image",
        ),
    ],
)
def test_a_document_without_text_is_refused_by_name_with_the_reason(
    docs: Path, tmp_path: Path, name: str, data: bytes, error: str
) -> None:
    (docs / "sub" / name).write_bytes(data)
    questions = write_lines(
        tmp_path / "q.jsonl",
        [{"id": "q", "question": "?", "doc": f"sub/{name}", "reference": "au lait"}],
    )
    with pytest.raises(DatasetError, match=error):
        load_dataset(docs, questions)


def page_dataset(docs: Path, tmp_path: Path, name: str, page: bytes, reference: str) -> Dataset:
    """The docs folder with ``sub/NAME`` holding ``page``, and one question answered in it."""
    (docs / "sub" / name).write_bytes(page)
    questions = write_lines(
        tmp_path / "q.jsonl",
        [{"id": "q", "question": "?", "doc": f"sub/{name}", "reference": reference}],
    )
    return load_dataset(docs, questions)


def test_an_html_page_is_read_as_the_markdown_the_skill_converts_it_to(
    docs: Path, tmp_path: Path
) -> None:
    page = b"<html><body><h1>Retries</h1><p>Retry <b>three</b> times.</p></body></html>"
    dataset = page_dataset(docs, tmp_path, "retries.html", page, "**three**")
    assert dataset.documents["sub/retries.html"] == read_file(page, "retries.html").text
    assert dataset.reference_text(dataset.questions[0]) == "**three**"


def test_chroma_style_offsets_and_corpus_id_by_stem(docs: Path, tmp_path: Path) -> None:
    start = DOC.index("Second")
    refs = [{"content": "Second paragraph", "start_index": start, "end_index": start + 16}]
    questions = write_lines(
        tmp_path / "q.jsonl",
        [
            {"question": "Which paragraph?", "corpus_id": "a", "references": json.dumps(refs)},
        ],
    )
    (question,) = load_dataset(docs, questions).questions
    assert question.doc == "sub/a.md"
    assert (question.references[0].start, question.references[0].end) == (start, start + 16)


def test_chroma_csv(docs: Path, tmp_path: Path) -> None:
    start = DOC.index("Second")
    refs = json.dumps([{"content": "Second", "start_index": start, "end_index": start + 6}])
    csv_path = tmp_path / "questions_df.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "references", "corpus_id"])
        writer.writerow(["Which, exactly?", refs, "a"])
    (question,) = load_dataset(docs, csv_path).questions
    assert question.question == "Which, exactly?"
    assert question.references[0].length == 6


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"question": "?", "doc": "sub/a.md", "reference": "absent"}, "not found"),
        ({"question": "?", "doc": "sub/a.md", "reference": "e"}, "more than once"),
        ({"question": "?", "doc": "missing.md", "reference": "x"}, "not in the docs folder"),
        ({"question": "?", "doc": "sub/a.md", "start": 5, "end": 999}, "outside"),
        ({"question": "", "doc": "sub/a.md", "reference": "Title"}, "question"),
        (
            {
                "question": "?",
                "doc": "sub/a.md",
                "references": [{"content": "nope", "start_index": 0, "end_index": 4}],
            },
            "differs",
        ),
    ],
)
def test_bad_questions_name_the_line_and_the_problem(
    docs: Path, tmp_path: Path, record: dict[str, object], message: str
) -> None:
    questions = write_lines(tmp_path / "q.jsonl", [record])
    with pytest.raises(DatasetError, match=message) as raised:
        load_dataset(docs, questions)
    assert "q.jsonl:1" in str(raised.value)


@pytest.mark.skipif(not DEFAULT_DEV_SET.is_dir(), reason="../shared/eval/dev not present")
def test_the_dev_set_loads_whole() -> None:
    dataset = load_dataset(DEFAULT_DEV_SET / "docs", DEFAULT_DEV_SET / "questions.jsonl")
    assert len(dataset.documents) == 29
    assert len(dataset.questions) == 77
    assert {q.kind for q in dataset.questions} == {
        "prose",
        "table",
        "code",
        "list",
        "context",
        "cross-section",
    }


def test_a_converted_page_is_chunked_with_the_title_the_skill_gives_it(
    docs: Path, tmp_path: Path
) -> None:
    page = b"<title>Widget API</title><article><h2>Retries</h2><p>Retry three times.</p></article>"
    dataset = page_dataset(docs, tmp_path, "api.html", page, "three")
    assert dataset.titles == {"sub/api.html": "Widget API"}  # the Markdown files have none
    engine = next(c for c in load_grid(None, with_baselines=True) if c.chunker == "engine")
    leaves = build_chunk_set(engine, dataset).leaves
    (leaf,) = [leaf for leaf in leaves if leaf.span.doc == "sub/api.html"]
    data = {"$type": "file", "data": base64.b64encode(page).decode("ascii")}
    record = {"recordId": "1", "data": {"file_data": data, "fileName": "api.html"}}
    reply = handle_chunk_request(json.dumps({"values": [record]}).encode(), {}, SkillSettings())
    (answered,) = json.loads(reply.body)["values"]
    (child,) = answered["data"]["parents"][0]["children"]
    assert leaf.embed_text == child["embedText"]
    assert leaf.embed_text.startswith("Widget API")
