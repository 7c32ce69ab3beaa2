"""Documents and questions: the dev format, and Chroma-style offset references.

Two question formats are accepted, one JSON object per line (``.jsonl``) or one row per line of a
CSV file (Chroma's ``questions_df.csv``):

- dev format (``../shared/eval/dev``): ``doc`` and an exact ``reference`` substring that occurs
  once in the document; its offsets are found with ``str.find``.
- Chroma style: ``corpus_id`` (or ``doc``) and ``references``, a list (or a JSON string of a list)
  of ``{"content", "start_index", "end_index"}``; or ``doc`` with ``start``/``end`` offsets.
  A question with several references hits only when every one of them is returned whole.

Documents are read as UTF-8 bytes without newline translation, so offsets are code points of the
file exactly as stored; a file of a converted format (HTML, PDF, Office: ``skills.formats``) is
read as the Markdown its converter writes, as the skill reads it, and offsets point into that.
A ``doc`` that is not a path in the folder may name a file by its stem
(Chroma's ``corpus_id`` is ``"wikitexts"`` for ``wikitexts.md``).

>>> Question("q1", "Why?", "a.md", "prose", (Span("a.md", 3, 9),)).references[0].length
6
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skills.evaluation.cracking import cracked_text
from skills.evaluation.spans import Span
from skills.formats.conversion import ConversionError
from skills.formats.read import read_file
from skills.formats.registry import TEXT_SUFFIXES

#: The dev set lives next to the project: ``../shared/eval/dev`` from its root.
DEFAULT_DEV_SET = Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "dev"


class DatasetError(ValueError):
    """A questions file or docs folder that cannot be evaluated, with the line at fault."""


@dataclass(frozen=True, slots=True)
class Question:
    """A question and the passage(s) of one document that answer it."""

    id: str
    question: str
    doc: str
    kind: str
    references: tuple[Span, ...]
    #: The physical page (from 1) of the answer in a paged document (a PDF), when recorded.
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Dataset:
    """Every document of the folder (keyed by relative POSIX path) and the questions on them."""

    documents: Mapping[str, str]
    questions: tuple[Question, ...]
    #: A converted document's title, which the skill chunks it with (``skills.formats``: an HTML
    #: page's ``<title>``, an Office file's core title); the engine puts it before every path.
    titles: Mapping[str, str] = field(default_factory=dict)
    #: A PDF's text as the built-in path's document cracking gives it (``cracking.py``), which
    #: the emulated Text Split baseline splits; other documents are cracked to their own text.
    cracked: Mapping[str, str] = field(default_factory=dict)

    def reference_text(self, question: Question) -> str:
        return "\n".join(self.documents[r.doc][r.start : r.end] for r in question.references)


def load_documents(folder: Path, named: Iterable[str] = ()) -> dict[str, str]:
    """The Markdown and text documents under ``folder``, and the files ``named`` in it whatever
    their suffix (a questions file may point at ``notes.rst``), sorted by path; an empty folder
    is an error."""
    return _load_folder(folder, named)[0]


def _load_folder(
    folder: Path, named: Iterable[str] = ()
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """:func:`load_documents`, the titles of the converted ones and the PDFs' cracked text."""
    if not folder.is_dir():
        raise DatasetError(f"docs folder {folder} does not exist")
    paths = {path for path in folder.rglob("*") if path.suffix.lower() in TEXT_SUFFIXES}
    paths.update(folder / name for name in named if name and _inside(Path(name)))
    documents, titles, cracked = {}, {}, {}
    for path in sorted(paths):
        if path.is_file():
            name = path.relative_to(folder).as_posix()
            data = path.read_bytes()
            documents[name], title = read_document(data, path.as_posix())
            if title:
                titles[name] = title
            plain = cracked_text(data, path.as_posix())
            if plain is not None:
                cracked[name] = plain
    if not documents:
        raise DatasetError(f"no {'/'.join(sorted(TEXT_SUFFIXES))} documents under {folder}")
    return documents, titles, cracked


def _inside(relative: Path) -> bool:
    return not relative.is_absolute() and ".." not in relative.parts


def document_text(data: bytes, name: str) -> str:
    """The text the engine chunks for the file ``name`` (:func:`read_document` without the title).

    >>> document_text(b"<html><body><h1>Hi</h1><p>There.</p></body></html>", "a.html")
    '# Hi\\n\\nThere.\\n'
    """
    return read_document(data, name)[0]


def read_document(data: bytes, name: str) -> tuple[str, str | None]:
    """The text and title the skill chunks for the file ``name``: what its converter writes for a
    converted format (``skills.formats.read``), else the UTF-8 text without newline translation
    (offsets are exact; a BOM stays) and no title; a file that is neither, or converts to no text
    (an image), is an error naming it.

    >>> read_document(b"<title>Greeting</title><h1>Hi</h1><p>There.</p>", "a.html")
    ('# Hi\\n\\nThere.\\n', 'Greeting')
    """
    try:
        read = read_file(data, name)
    except ConversionError as error:
        raise DatasetError(f"{name}: {error}") from error
    if read.format is None or read.format.is_text:
        return data.decode("utf-8"), None
    if not read.text.strip():
        raise DatasetError(f"{name}: no text after conversion ({'; '.join(read.warnings)})")
    return read.text, read.title


def _doc_name(record: Mapping[str, Any]) -> str:
    """The document a question names: ``doc``, or Chroma's ``corpus_id``."""
    return str(record.get("doc") or record.get("corpus_id") or "")


def load_dataset(docs: Path, questions: Path) -> Dataset:
    """Documents of ``docs`` and the questions of ``questions`` (``.jsonl`` or ``.csv``)."""
    named = (_doc_name(record) for _, record in read_records(questions))
    documents, titles, cracked = _load_folder(docs, named)
    return Dataset(documents, load_questions(questions, documents), titles, cracked)


def load_questions(questions: Path, documents: Mapping[str, str]) -> tuple[Question, ...]:
    """The questions of ``questions``, their references located in ``documents``."""
    records = list(read_records(questions))
    parsed = tuple(
        parse_question(record, documents, f"{questions}:{line}") for line, record in records
    )
    if not parsed:
        raise DatasetError(f"{questions} holds no questions")
    ids = [q.id for q in parsed]
    if len(set(ids)) != len(ids):
        raise DatasetError(f"{questions}: question ids are not unique")
    return parsed


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank JSON line or CSV row."""
    text = path.read_bytes().decode("utf-8-sig")
    if path.suffix.lower() == ".csv":
        for row_number, row in enumerate(csv.DictReader(text.splitlines()), start=2):
            yield row_number, dict(row)
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DatasetError(f"{path}:{number}: not JSON ({error.msg})") from error
        if not isinstance(record, dict):
            raise DatasetError(f"{path}:{number}: expected a JSON object")
        yield number, record


def parse_question(record: Mapping[str, Any], documents: Mapping[str, str], where: str) -> Question:
    """One question in either format, with its references located in the document."""
    text = _required(record, "question", where)
    doc = resolve_doc(_doc_name(record), documents, where)
    identifier = str(record.get("id") or where.rsplit(":", 1)[-1])
    kind = str(record.get("kind") or "all")
    references = _references(record, doc, documents[doc], where)
    page = record.get("page")
    return Question(identifier, text, doc, kind, references, None if page is None else int(page))


def resolve_doc(name: str, documents: Mapping[str, str], where: str) -> str:
    """The document key for ``name``: an exact relative path, else a unique file stem."""
    if not name:
        raise DatasetError(f"{where}: missing 'doc' (or Chroma's 'corpus_id')")
    if name in documents:
        return name
    stems = [key for key in documents if Path(key).stem == name or Path(key).name == name]
    if len(stems) == 1:
        return stems[0]
    raise DatasetError(f"{where}: document {name!r} is not in the docs folder")


def _references(record: Mapping[str, Any], doc: str, text: str, where: str) -> tuple[Span, ...]:
    if record.get("reference"):
        reference = str(record["reference"])
        start = text.find(reference)
        if start < 0:
            raise DatasetError(f"{where}: reference not found in {doc}")
        if text.find(reference, start + 1) >= 0:
            raise DatasetError(f"{where}: reference occurs more than once in {doc}")
        return (Span(doc, start, start + len(reference)),)
    if record.get("references"):
        items = record["references"]
        if isinstance(items, str):
            items = json.loads(items)
        return tuple(_offset_span(item, doc, text, where) for item in items)
    if "start" in record and "end" in record:
        return (_offset_span(record, doc, text, where),)
    raise DatasetError(f"{where}: give 'reference', 'references' or 'start'/'end'")


def _offset_span(item: Mapping[str, Any], doc: str, text: str, where: str) -> Span:
    start = int(item.get("start_index", item.get("start", -1)))
    end = int(item.get("end_index", item.get("end", -1)))
    if not 0 <= start < end <= len(text):
        raise DatasetError(f"{where}: offsets [{start}, {end}) outside {doc} ({len(text)} chars)")
    content = item.get("content")
    if content is not None and text[start:end] != content:
        raise DatasetError(f"{where}: text at [{start}, {end}) of {doc} differs from 'content'")
    return Span(doc, start, end)


def _required(record: Mapping[str, Any], field: str, where: str) -> str:
    value = record.get(field)
    if not isinstance(value, str) or not value.strip():
        raise DatasetError(f"{where}: missing or empty {field!r}")
    return value
