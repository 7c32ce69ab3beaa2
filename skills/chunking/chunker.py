"""``chunk_document``: the engine's one entry point."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from skills.chunking.ids import IdMaker
from skills.chunking.markup import markup_named, markup_of_text
from skills.chunking.markup.languages import language_of
from skills.chunking.model import (
    Chunking,
    ChunkTable,
    fold_marker_only,
    fold_marker_only_parents,
)
from skills.chunking.newlines import line_view
from skills.chunking.options import ChunkOptions, Format
from skills.chunking.outline import Section
from skills.chunking.strategies import BoundaryModel, Document, run_strategy

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")  # not ESC: ANSI logs are text
_SNIFF_CHARS = 65536
#: What separates the words of a file name (``1988_ronald-reagan.v2`` reads as four words), not
#: the dot of a number (``license-2.0``).
_NAME_SEPARATORS = re.compile(r"[_+\-]+|\.(?!\d)|(?<!\d)\.")
#: A file name: a stem with a letter or digit, then a suffix of up to eight letters or digits.
_FILE_NAME = re.compile(r"(.*[A-Za-z0-9].*)\.[A-Za-z0-9]{1,8}")


class ChunkingError(ValueError):
    """The input cannot be chunked; the message says why and what to do."""


def detect_format(text: str, name: str = "") -> Format:
    """The syntax of a document named ``name`` (a path or URL): the markup its suffix says
    (``markup.MARKUPS``: Markdown, reStructuredText, or source code in a language of
    ``languages.py``), else the first its text's start looks like: reStructuredText when it
    shows its own markup and no Markdown heading or fence; else Markdown when it shows any
    Markdown block syntax or link; else text.

    >>> detect_format("Install\\n~~~~~~~\\n\\nRun ``pip install x``.\\n").value
    'rst'
    >>> detect_format("# Install\\n\\n.. not a directive here\\n").value
    'markdown'
    >>> detect_format("Just words.", "https://account.blob.core.windows.net/docs/guide.rst").value
    'rst'
    """
    named = markup_named(name)
    if named is not None:
        return named.format
    sample = line_view(text[:_SNIFF_CHARS])  # Windows line endings read as newlines
    return markup_of_text(sample).format


def chunk_document(
    text: str,
    *,
    title: str | None = None,
    format: Format | str | None = None,
    document_key: str = "document",
    options: ChunkOptions | None = None,
    boundary_model: BoundaryModel | None = None,
    language: str | None = None,
) -> Chunking:
    """Cut ``text`` into parents and leaves (see ``Chunking`` and ``Chunk`` for the guarantees).

    Without a ``format``, the ``document_key``'s suffix (``.md``, ``.rst``, ``.py``) or else the
    text decides it (``detect_format``). Code's ``language`` is the suffix's unless given; its
    heading paths start with the ``title`` or else the document key's path (``code_title``).
    Raises ``ChunkingError`` for input that is not text (binary-looking) or of the wrong type;
    empty or whitespace-only text gives an empty result, with a warning that says so (a caller
    that shows warnings then says why nothing came out).
    """
    options = options or ChunkOptions()
    if not isinstance(text, str):
        raise ChunkingError(f"text must be a string, not {type(text).__name__}")
    _reject_binary(text)
    fmt = Format(format) if format is not None else detect_format(text, document_key)
    if fmt is Format.CODE:
        language = language or language_of(document_key)
        title = title or code_title(document_key)
    else:
        language = None
    if not text or text.isspace():  # (no copy of a large document, unlike strip)
        return Chunking((), (), fmt.value, warnings=(EMPTY_TEXT,), language=language)
    untitled = key_title(document_key) if options.title_from_key else None
    document = Document.prepare(text, title, fmt, options, language, boundary_model, untitled)
    layout = run_strategy(document, options, boundary_model)
    del document  # its token index and outline are as big as the text: not kept with the chunks
    ids = IdMaker(document_key)
    parent_rows, leaf_rows = fold_marker_only_parents(layout.parents, layout.leaves, text)
    parents = ChunkTable(parent_rows, text, 0, ids)
    leaves = ChunkTable(fold_marker_only(leaf_rows, text), text, 1, ids, parents)
    warnings = list(layout.warnings)
    if options.ignored_overlap:
        warnings.append(
            f"childOverlapTokens ({options.child_overlap_tokens}) ignored: the "
            f"{options.strategy.value} strategy cuts at structure and never overlaps"
        )
    return Chunking(
        parents=parents,
        leaves=leaves,
        format=fmt.value,
        warnings=tuple(warnings),
        language=language,
    )


#: The warning of a text with nothing to chunk.
EMPTY_TEXT = "text is empty or whitespace only: no chunks"


def document_sections(
    text: str, title: str | None = None, format: Format | str | None = None
) -> tuple[Section, ...]:
    """The sections the engine reads in ``text`` at the default options (Markdown headings,
    numbered titles of plain text, ...): what heading paths are made of, for measuring them
    (``bench/structure.py``).

    >>> [(s.depth, s.title) for s in document_sections("# A\\n\\ntext\\n\\n## B\\n\\nmore\\n")]
    [(1, 'A'), (2, 'B')]
    """
    fmt = Format(format) if format is not None else detect_format(text, "")
    return tuple(Document.prepare(text, title, fmt, ChunkOptions()).outline.sections)


def code_title(document_key: str) -> str:
    """What a code file's heading paths start with when no title is given: the path of its
    document key (a URL's path, unquoted, without the leading slash), or nothing for a key that
    is no path.

    >>> code_title("https://account.blob.core.windows.net/code/httpx/_client.py")
    'code/httpx/_client.py'
    >>> code_title("document")
    ''
    """
    path = unquote(urlsplit(document_key).path).strip("/")
    return path if "/" in path or "." in path else ""


def key_title(document_key: str) -> str:
    """The title ``titleFromKey`` gives a document without headings: the file name its key
    ends in, without its suffix, separators as spaces. A key that ends in no file name with a
    suffix gives none: the default key, a text's hash, an indexer's base64 key, ``LICENSE``.

    >>> key_title("https://account.blob.core.windows.net/docs/sotu/1988_ronald_reagan.txt")
    '1988 ronald reagan'
    >>> key_title("document"), key_title("text-5f1c09"), key_title("ruff/LICENSE")
    ('', '', '')
    """
    name = unquote(urlsplit(document_key).path).rstrip("/").rsplit("/", 1)[-1]
    named = _FILE_NAME.fullmatch(name)
    return " ".join(_NAME_SEPARATORS.sub(" ", named.group(1)).split()) if named else ""


def _reject_binary(text: str) -> None:
    """Refuse text that looks like binary data decoded by mistake: many NULs or control bytes."""
    sample = text[:_SNIFF_CHARS]
    if not _CONTROL.search(sample):  # the usual case, found without counting
        return
    controls = len(_CONTROL.findall(sample))
    if controls > max(8, len(sample) // 100):
        raise ChunkingError(
            "the text looks binary (NUL or control characters): extract its text first, e.g. with "
            "the indexer's document cracking or Document Intelligence"
        )
