"""A notebook becomes one Markdown text: Markdown cells as they are, code cells fenced in the
notebook's language, outputs left out; its chunks keep cells whole and index into that text."""

from __future__ import annotations

import json

import pytest

from skills.chunking import ChunkOptions, chunk_document
from skills.formats.conversion import ConversionError, Limits
from skills.formats.notebook import convert
from skills.formats.registry import by_name


def notebook(*cells: dict[str, object], language: str = "python") -> bytes:
    metadata = {"kernelspec": {"language": language, "name": language}}
    return json.dumps({"nbformat": 4, "metadata": metadata, "cells": list(cells)}).encode()


def markdown_cell(source: str) -> dict[str, object]:
    return {"cell_type": "markdown", "metadata": {}, "source": source.splitlines(keepends=True)}


def code_cell(source: str, output: str = "") -> dict[str, object]:
    outputs = [{"output_type": "stream", "name": "stdout", "text": [output]}] if output else []
    return {"cell_type": "code", "source": source, "outputs": outputs, "execution_count": 1}


def test_cells_become_markdown_and_fenced_code_in_order() -> None:
    data = notebook(markdown_cell("# Loading\nRead the file."), code_cell("df = read('a.csv')"))
    converted = convert(data, Limits())
    assert converted.text == "# Loading\nRead the file.\n\n```python\ndf = read('a.csv')\n```\n\n"


def test_outputs_are_left_out_of_the_text() -> None:
    data = notebook(code_cell("print(42)", output="OUTPUT-42\n"))
    assert "OUTPUT-42" not in convert(data, Limits()).text


def test_the_fence_outgrows_backticks_in_the_source() -> None:
    converted = convert(notebook(code_cell('doc = """\n```\nx\n```\n"""')), Limits())
    assert converted.text.startswith("````python\n")
    assert converted.text.endswith("\n````\n\n")


def test_the_kernel_names_the_language_of_code_cells() -> None:
    converted = convert(notebook(code_cell("x <- 1"), language="R"), Limits())
    assert converted.text.startswith("```r\n")


def test_chunks_index_into_the_converted_text_and_keep_cells_whole() -> None:
    cells = []
    for section in range(6):
        cells.append(markdown_cell(f"## Step {section}\nWhat step {section} does."))
        cells.append(code_cell("\n".join(f"value_{i} = step_{section}({i})" for i in range(6))))
    text = convert(notebook(*cells), Limits()).text
    options = ChunkOptions(child_max_tokens=96, child_overlap_tokens=0)
    result = chunk_document(text, document_key="analysis.ipynb", options=options)
    assert result.format == "markdown"
    for leaf in result.leaves:
        assert text[leaf.start : leaf.end] == leaf.text
        assert leaf.text.count("```") % 2 == 0, "a code cell that fits is never cut"
        assert leaf.headings and leaf.headings[0].startswith("Step")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b'{"nbformat": 3, "worksheets": []}', "nbformat 4"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_broken_notebook_is_a_clear_error(data: bytes, message: str) -> None:
    with pytest.raises(ConversionError, match=message):
        convert(data, Limits())


def test_notebooks_are_registered_as_converted_markdown() -> None:
    fmt = by_name("https://a.blob.core.windows.net/c/Analysis.IPYNB")
    assert fmt is not None and fmt.converter is convert and fmt.markup.value == "markdown"
