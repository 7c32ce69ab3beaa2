"""The skill takes whole files (``file_data``) and Document Layout's sections
(``markdownDocument``): one answer per record, bad files as that record's error."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from skilltest_support import batch, call_chunk, messages, records

FIXTURES = Path(__file__).resolve().parents[1] / "formats" / "fixtures"


def file_record(name: str, data: bytes | None = None, **extra: Any) -> dict[str, Any]:
    raw = (FIXTURES / name).read_bytes() if data is None else data
    return {
        "file_data": {"$type": "file", "data": base64.b64encode(raw).decode("ascii")},
        "fileName": name,
        "documentKey": f"https://account.blob.core.windows.net/docs/{name}",
        **extra,
    }


def texts(record: dict[str, Any]) -> str:
    return "\n".join(parent["text"] for parent in record["data"]["parents"])


def test_a_batch_of_good_and_bad_files_answers_each_record_once() -> None:
    docx = (FIXTURES / "widget-api-guide.docx").read_bytes()
    out = records(
        call_chunk(
            batch(
                file_record("widget-api-guide.docx"),
                file_record("locked.pdf"),
                file_record("broken.docx", docx[:5000]),
                file_record("operations-runbook.pdf"),
                file_record("error-codes.xlsx", (FIXTURES / "operations-runbook.pdf").read_bytes()),
                {"text": "# Plain\n\nA text record keeps today's path."},
            )
        )
    )
    assert sorted(out) == ["1", "2", "3", "4", "5", "6"]
    assert "Resource model" in texts(out["1"])
    assert "encrypted with a password" in messages(out["2"], "errors")
    assert "damaged zip" in messages(out["3"], "errors")
    assert out["4"]["errors"] is None
    pages = {p for parent in out["4"]["data"]["parents"] for p in parent["pages"]}
    assert pages == set(range(1, max(pages) + 1)) and max(pages) > 3
    assert "named as xlsx but its content is pdf" in messages(out["5"], "errors")
    assert "A text record" in texts(out["6"])


def test_a_converted_file_returns_the_markdown_its_offsets_point_into() -> None:
    out = records(call_chunk(batch(file_record("widget-api-guide.html"))))["1"]
    for parent in out["data"]["parents"]:
        for child in parent["children"]:
            start = child["start"] - parent["start"]
            assert parent["text"][start : start + len(child["text"])] == child["text"]
    assert "cookies" not in texts(out)


def test_a_scanned_pdf_answers_with_a_warning_naming_the_layout_route() -> None:
    out = records(call_chunk(batch(file_record("scanned.pdf"))))["1"]
    assert out["errors"] is None
    assert "'layout' definitions" in messages(out, "warnings")


def test_file_data_must_be_an_inline_file_object() -> None:
    out = records(
        call_chunk(
            batch(
                {"file_data": "aGVsbG8="},
                {"file_data": {"$type": "file", "url": "https://x/y.pdf"}},
                {"file_data": {"$type": "file", "data": "not base64!"}},
                {"file_data": {"$type": "file", "data": "aGVsbG8="}, "text": "both"},
            )
        )
    )
    assert "file object" in messages(out["1"], "errors")
    assert "no inline 'data'" in messages(out["2"], "errors")
    assert "not valid base64" in messages(out["3"], "errors")
    assert "not file_data and" not in messages(out["4"], "errors")
    assert "give one of" in messages(out["4"], "errors")


def test_layout_sections_become_one_document_with_their_headings() -> None:
    # the shape of the Document Layout skill's markdown_document (docs/formats.md cites it)
    sections: list[dict[str, Any]] = [
        {"content": "Hi this is Jim \r\nHi this is Joe",
         "sections": {"h1": "Foo", "h2": "Bar", "h3": ""}, "ordinal_position": 0},
        {"content": "Hi this is Lance",
         "sections": {"h1": "Foo", "h2": "Bar", "h3": "Boo"}, "ordinal_position": 1},
    ]  # fmt: skip
    long = " And he wrote more about it." * 20
    sections[0]["content"] += long
    sections[1]["content"] += long
    data = {"markdownDocument": sections, "documentKey": "k", "parentMaxTokens": 128,
            "childMaxTokens": 64}  # fmt: skip
    out = records(call_chunk(batch(data)))["1"]
    children = [c for p in out["data"]["parents"] for c in p["children"]]
    lance = next(c for c in children if "Lance" in c["text"])
    assert lance["headings"] == ["Foo", "Bar", "Boo"]
    # the child holding Jim starts at "# Foo": a child of only "# Foo / ## Bar" joins the text
    # after it rather than standing alone, and no overlap reaches back into it from a later one
    assert any("Jim" in c["text"] and c["headings"][:1] == ["Foo"] for c in children)
    assert any(c["headings"] == ["Foo", "Bar"] or "## Bar\n" in c["text"] for c in children)


def test_layout_sections_of_another_shape_are_a_clear_error() -> None:
    out = records(call_chunk(batch({"markdownDocument": {"content": "x"}})))["1"]
    assert "Document Layout skill's markdown_document" in messages(out, "errors")
