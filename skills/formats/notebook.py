"""Jupyter notebooks (``.ipynb``, nbformat 4) -> the engine's Markdown: one text, cell by cell.

The notebook becomes one Markdown document, and chunk offsets index into that text, not into the
JSON file. It is built like this, cells in order, nothing else added:

- a Markdown cell: its source as it is, then a blank line (``"\\n\\n"``);
- a code cell: a fence line of backticks with the notebook's language (```` ```python ````), the
  cell's source, a newline and the closing fence, then a blank line; the fence is one backtick
  longer than the longest run of backticks in the source, so no source closes it early;
- a raw cell: the same, fenced as ``text``.

A cell's source is the JSON's ``source`` (a string, or a list of lines joined as they are). Outputs
(results, images, tracebacks) are left out of the text: they would be embedded as if the author
had written them, and an image's base64 is thousands of tokens of nothing. So every Markdown cell
is read as Markdown (its headings give the notebook its sections) and every code cell is a code
block, kept whole while it fits a chunk and cut between lines when it does not, each piece
reopening its fence with the language.

>>> convert(b'{"nbformat": 4, "metadata": {"language_info": {"name": "python"}}, "cells": ['
...         b'{"cell_type": "markdown", "source": ["# Load\\\\n", "Read it."]},'
...         b'{"cell_type": "code", "source": "df = load()", "outputs": [{"text": "ok"}]}]}',
...         Limits()).text
'# Load\\nRead it.\\n\\n```python\\ndf = load()\\n```\\n\\n'
"""

from __future__ import annotations

import json
import re
from typing import Any

from skills.formats.conversion import ConversionError, Converted, Limits

_BACKTICKS = re.compile(r"`{3,}")
#: The language of a notebook that names none (Jupyter's own default kernel).
_DEFAULT_LANGUAGE = "python"


def convert(data: bytes, limits: Limits) -> Converted:
    """The notebook ``data`` as Markdown (see the module docstring for exactly how)."""
    notebook = _load(data)
    language = _language(notebook.get("metadata"))
    parts: list[str] = []
    warnings: list[str] = []
    skipped = 0
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict):
            skipped += 1
            continue
        kind, source = cell.get("cell_type"), _source(cell.get("source"))
        if source is None:
            skipped += 1
        elif kind == "markdown":
            parts.append(source + "\n\n")
        elif kind in ("code", "raw"):
            parts.append(_fenced(source, language if kind == "code" else "text"))
        else:
            skipped += 1
    if skipped:
        warnings.append(f"{skipped} notebook cell(s) without a readable source were left out")
    metadata = notebook.get("metadata")
    title = metadata.get("title") if isinstance(metadata, dict) else None
    return Converted(
        "".join(parts), title if isinstance(title, str) and title else None, tuple(warnings)
    )


def _load(data: bytes) -> dict[str, Any]:
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ConversionError(f"the notebook is not UTF-8 text ({error})") from None
    except json.JSONDecodeError as error:
        raise ConversionError(
            f"the notebook is not valid JSON (line {error.lineno}: {error.msg})"
        ) from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        version = notebook.get("nbformat") if isinstance(notebook, dict) else None
        raise ConversionError(
            f"not a Jupyter notebook of nbformat 4 (nbformat {version!r}, no 'cells' list): "
            "convert older notebooks with `jupyter nbconvert --to notebook`"
        )
    return notebook


def _language(metadata: Any) -> str:
    """The notebook's language: its ``language_info`` name, else its kernel's language."""
    if isinstance(metadata, dict):
        for key, field in (("language_info", "name"), ("kernelspec", "language")):
            section = metadata.get(key)
            value = section.get(field) if isinstance(section, dict) else None
            if isinstance(value, str) and re.fullmatch(r"[\w+#.-]+", value.strip()):
                return value.strip().lower()
    return _DEFAULT_LANGUAGE


def _source(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return None


def _fenced(source: str, info: str) -> str:
    longest = max((len(run) for run in _BACKTICKS.findall(source)), default=2)
    fence = "`" * (longest + 1)
    return f"{fence}{info}\n{source}\n{fence}\n\n"
