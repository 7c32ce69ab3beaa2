"""Hostile input: whatever arrives, the indexer gets a JSON answer for every record, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from skilltest_support import MARKDOWN, batch, call_chunk, messages, records

from skills.skill.settings import DEFAULT_MAX_TEXT_CHARS


def test_invalid_utf8_body_gets_400() -> None:
    response = call_chunk(b'{"values": [{"recordId": "1", "data": {"text": "\xff\xfe\xc3"}}]}')
    assert response.status_code == 400
    assert "not valid UTF-8" in json.loads(response.get_body())["error"]["message"]


def test_lone_surrogates_in_text_are_replaced_with_a_warning_and_offsets_kept() -> None:
    text = "# T\n\nbefore \ud800 after \udfff end"
    body = json.dumps(batch({"text": text, "documentKey": "k"})).encode("ascii")
    out = records(call_chunk(body))
    assert "surrogate" in messages(out["1"], "warnings")
    child = out["1"]["data"]["parents"][0]["children"][0]
    assert child["end"] <= len(text) and "\ufffd" in child["text"]


def test_a_lone_surrogate_record_id_is_echoed_exactly() -> None:
    body = json.dumps({"values": [{"recordId": "id-\udc80", "data": {"text": "x"}}]}).encode()
    response = call_chunk(body)
    assert response.status_code == 200
    assert [r["recordId"] for r in json.loads(response.get_body())["values"]] == ["id-\udc80"]


def test_nul_bytes_give_a_record_error_or_data_never_a_failed_batch() -> None:
    response = call_chunk(batch({"text": "\x00" * 64}, {"text": "a\x00b"}, {"text": MARKDOWN}))
    out = records(response)
    assert response.status_code == 207
    assert "binary" in messages(out["1"], "errors")
    assert out["3"]["errors"] is None


@pytest.mark.slow
def test_a_50_mb_text_is_cut_to_the_indexer_maximum_with_a_warning() -> None:
    paragraph = "Some prose about chunking, with words and numbers 12345. " * 20 + "\n\n"
    text = ("# Huge\n\n" + paragraph * (50_000_000 // len(paragraph) + 1))[:50_000_000]
    response = call_chunk(batch({"text": text, "documentKey": "huge.md"}))
    out = records(response)
    assert response.status_code == 200
    assert "truncated" in messages(out["1"], "warnings")
    ends = [c["end"] for p in out["1"]["data"]["parents"] for c in p["children"]]
    assert max(ends) <= DEFAULT_MAX_TEXT_CHARS


def test_ten_thousand_records_all_come_back_once() -> None:
    response = call_chunk(
        {
            "values": [
                {"recordId": f"r{i}", "data": {"text": f"# D{i}\n\nbody {i}"}}
                for i in range(10_000)
            ]
        }
    )
    assert response.status_code == 200
    assert len(records(response)) == 10_000


def test_deeply_nested_json_gets_400() -> None:
    depth = 100_000
    body = (
        b'{"values": [{"recordId": "1", "data": {"text": ' + b"[" * depth + b"]" * depth + b"}}]}"
    )
    response = call_chunk(body)
    assert response.status_code == 400
    assert "nested too deeply" in json.loads(response.get_body())["error"]["message"]


def test_moderate_nesting_inside_a_record_fails_only_that_record() -> None:
    nested: Any = "x"
    for _ in range(200):
        nested = {"a": [nested]}
    out = records(call_chunk(batch({"text": nested}, {"text": MARKDOWN})))
    assert "text must be a string, got an object" in messages(out["1"], "errors")
    assert out["2"]["errors"] is None


def test_numbers_as_text_are_accepted_for_numeric_options() -> None:
    out = records(
        call_chunk(batch({"text": MARKDOWN, "childMaxTokens": "64", "headingDepth": "2"}))
    )
    assert out["1"]["errors"] is None


def test_a_number_as_text_input_is_an_error() -> None:
    out = records(call_chunk(batch({"text": 12345})))
    assert "text must be a string, got a number" in messages(out["1"], "errors")


WRONG_TYPES: list[tuple[str, Any, str]] = [
    ("text", 1.5, "errors"),
    ("text", True, "errors"),
    ("text", ["a", "b"], "errors"),
    ("text", {"a": 1}, "errors"),
    ("title", 7, "warnings"),
    ("title", ["t"], "warnings"),
    ("documentKey", ["k"], "warnings"),
    ("documentKey", {"k": 1}, "warnings"),
    ("documentKey", False, "warnings"),
    ("format", 3, "errors"),
    ("format", ["markdown"], "errors"),
    ("strategy", 1, "errors"),
    ("strategy", ["fixed"], "errors"),
    ("parentMaxTokens", "lots", "errors"),
    ("childMaxTokens", 100.5, "errors"),
    ("childMaxTokens", True, "errors"),
    ("childMaxTokens", [100], "errors"),
    ("childOverlapTokens", {"n": 1}, "errors"),
    ("headingDepth", -1, "errors"),
    ("includeHeadings", "perhaps", "errors"),
    ("includeHeadings", [True], "errors"),
]


@pytest.mark.parametrize(("field", "value", "kind"), WRONG_TYPES)
def test_a_wrong_type_in_any_field_is_named_and_stays_in_its_record(
    field: str, value: Any, kind: str
) -> None:
    data = {"text": MARKDOWN, "documentKey": "k", field: value}
    response = call_chunk(batch(data, {"text": MARKDOWN, "documentKey": "ok"}))
    out = records(response)
    assert field in messages(out["1"], kind)
    assert out["2"]["errors"] is None
    assert response.status_code == (207 if kind == "errors" else 200)


def test_data_that_is_not_an_object_is_a_record_error() -> None:
    request = {"values": [{"recordId": "1", "data": "text"}, {"recordId": "2"}]}
    out = records(call_chunk(request))
    assert "data must be an object" in messages(out["1"], "errors")
    assert "got null" in messages(out["2"], "errors")


def test_unknown_fields_outside_data_are_ignored() -> None:
    request = {
        "values": [{"recordId": "1", "data": {"text": MARKDOWN}, "extra": 1}],
        "somethingNew": {"x": 1},
    }
    response = call_chunk(request)
    assert response.status_code == 200 and records(response)["1"]["errors"] is None


def test_a_numeric_document_key_is_used_as_text() -> None:
    out = records(call_chunk(batch({"text": MARKDOWN, "documentKey": 42})))
    assert out["1"]["data"]["documentKey"] == "42" and out["1"]["warnings"] is None


def test_utf8_encoded_surrogates_are_invalid_utf8_and_get_400() -> None:
    response = call_chunk(b'{"values": [{"recordId": "1", "data": {"text": "a\xed\xa0\x80"}}]}')
    assert response.status_code == 400
    assert "not valid UTF-8" in json.loads(response.get_body())["error"]["message"]


@pytest.mark.parametrize("value", ["²³", "1_000", "٣٢", "9" * 4301])
def test_an_option_int_cannot_read_names_the_option(value: str) -> None:
    out = records(call_chunk(batch({"text": MARKDOWN, "childMaxTokens": value})))
    error = messages(out["1"], "errors")
    assert error.startswith("childMaxTokens: must be a whole number") and "from the record" in error
    assert "int()" not in error and "digits)" not in error


def test_an_integer_of_thousands_of_digits_fails_only_its_record() -> None:
    huge = b"9" * 4301
    body = (
        b'{"values": [{"recordId": "1", "data": {"text": "a", "childMaxTokens": ' + huge + b"}},"
        b'{"recordId": "2", "data": {"text": "b", "documentKey": ' + huge + b"}},"
        b'{"recordId": "3", "data": {"text": "c"}, "extra": ' + huge + b"}]}"
    )
    response = call_chunk(body)
    out = records(response)
    assert response.status_code == 207
    assert "a number of 4301 digits" in messages(out["1"], "errors")
    assert "documentKey ignored" in messages(out["2"], "warnings")
    assert out["2"]["data"]["parents"] and out["3"]["data"]["parents"]


@pytest.mark.parametrize("option", ["strategy", "childMaxTokens", "contextualize"])
@pytest.mark.parametrize("shape", ["[{}]", '{{"a": {}}}'])
def test_an_option_nested_hundreds_deep_is_a_record_error_without_a_traceback(
    option: str, shape: str, caplog: pytest.LogCaptureFixture
) -> None:
    """980 levels of a strategy used to log a RecursionError traceback (its repr, pydantic, the
    enum lookup each walk it): an option's array or object is refused by its kind alone. Depths
    near the stack's limit may fail the whole body's JSON parse instead (a 400), never a crash."""
    answered = 0
    for depth in (200, 600, 900, 950, 980):
        value = "1"
        for _ in range(depth):
            value = shape.format(value)
        body = '{"values": [{"recordId": "1", "data": {"text": "# A\\n\\nb", "%s": %s}}]}'
        response = call_chunk((body % (option, value)).encode())
        if response.status_code == 400:
            assert "nested too deeply" in json.loads(response.get_body())["error"]["message"]
            continue
        answered += 1
        error = messages(records(response)["1"], "errors")
        assert error.startswith(f"{option}: must be ") and "got an " in error
    assert answered >= 3
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
