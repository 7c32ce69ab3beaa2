"""The WebApiSkill contract, rule by rule, through the function registered in function_app.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from skilltest_support import (
    MARKDOWN,
    AppSettings,
    batch,
    call_chunk,
    messages,
    records,
    registered,
)

from skills.chunking import ChunkOptions, chunk_document
from skills.skill.shape import WRAPPER_SUFFIX, record_data

ROOT = Path(__file__).resolve().parents[2]
KEY = re.compile(r"^[A-Za-z0-9_\-=]{1,1024}$")
LONG_MARKDOWN = "\n\n".join(
    f"## Section {n}\n\n" + " ".join(f"word{n}x{i}" for i in range(220)) for n in range(6)
)


def test_every_record_comes_back_exactly_once_as_json() -> None:
    response = call_chunk(batch(*({"text": MARKDOWN, "documentKey": f"d{i}"} for i in range(5))))
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert sorted(records(response)) == ["1", "2", "3", "4", "5"]


def test_status_is_207_when_some_records_carry_errors() -> None:
    response = call_chunk(batch({"text": MARKDOWN, "documentKey": "a"}, {"title": "no text"}))
    out = records(response)
    assert response.status_code == 207
    assert out["1"]["errors"] is None
    assert "text is missing" in messages(out["2"], "errors")


def test_hierarchical_children_lie_inside_the_parent_the_engine_gave_them() -> None:
    text = LONG_MARKDOWN
    out = records(call_chunk(batch({"text": text, "documentKey": "doc.md"})))
    parents = out["1"]["data"]["parents"]
    engine = chunk_document(text, document_key="doc.md")
    parent_of = {leaf.id: leaf.parent_id for leaf in engine.leaves}
    assert parents and [parent["id"] for parent in parents] == [p.id for p in engine.parents]
    for parent in parents:
        assert text[parent["start"] : parent["end"]] == parent["text"]
        for child in parent["children"]:
            assert parent_of[child["id"]] == parent["id"]
            assert parent["start"] <= child["start"] <= child["end"] <= parent["end"]
            assert text[child["start"] : child["end"]] == child["text"]


@pytest.mark.parametrize("strategy", ["fixed", "recursive", "structural"])
def test_flat_strategies_wrap_each_leaf_in_a_parent_of_the_same_span(strategy: str) -> None:
    data = {"text": LONG_MARKDOWN, "documentKey": "doc.md", "strategy": strategy}
    parents = records(call_chunk(batch(data)))["1"]["data"]["parents"]
    assert len(parents) > 1
    for parent in parents:
        (child,) = parent["children"]
        assert parent["id"] == child["id"] + WRAPPER_SUFFIX
        assert (parent["start"], parent["end"], parent["text"]) == (
            child["start"],
            child["end"],
            child["text"],
        )


def test_the_output_is_the_engine_result_reshaped_without_loss() -> None:
    out = records(call_chunk(batch({"text": LONG_MARKDOWN, "documentKey": "doc.md"})))
    expected = record_data(chunk_document(LONG_MARKDOWN, document_key="doc.md"), "doc.md")
    assert out["1"]["data"] == expected


def test_ids_are_valid_search_keys_and_unique_across_documents() -> None:
    response = call_chunk(
        batch(
            {
                "text": LONG_MARKDOWN,
                "documentKey": "https://acct.blob/c/a b.md",
                "strategy": "fixed",
            },
            {"text": LONG_MARKDOWN, "documentKey": "https://acct.blob/c/other.md"},
        )
    )
    ids = [
        chunk["id"]
        for record in records(response).values()
        for parent in record["data"]["parents"]
        for chunk in [parent, *parent["children"]]
    ]
    assert all(KEY.match(chunk_id) for chunk_id in ids)
    assert len(ids) == len(set(ids))


def test_ids_are_stable_for_the_same_document_key() -> None:
    request = batch({"text": MARKDOWN, "documentKey": "docs/guide.md"})
    first = records(call_chunk(request))["1"]["data"]
    assert records(call_chunk(request))["1"]["data"] == first


def _leaf_count(result_record: dict[str, object], options: ChunkOptions) -> tuple[int, int]:
    data = result_record["data"]
    assert isinstance(data, dict)
    got = sum(len(parent["children"]) for parent in data["parents"])
    expected = len(chunk_document(LONG_MARKDOWN, document_key="k", options=options).leaves)
    return got, expected


def test_option_in_the_record_wins_over_query_string_and_app_setting(
    app_settings: AppSettings,
) -> None:
    app_settings(CHUNK_CHILD_MAX_TOKENS="256")
    data = {"text": LONG_MARKDOWN, "documentKey": "k", "childMaxTokens": 64}
    out = records(call_chunk(batch(data), params={"childMaxTokens": "128"}))
    got, expected = _leaf_count(out["1"], ChunkOptions(child_max_tokens=64))
    assert got == expected


def test_query_string_wins_over_app_setting(app_settings: AppSettings) -> None:
    app_settings(CHUNK_CHILD_MAX_TOKENS="256")
    data = {"text": LONG_MARKDOWN, "documentKey": "k", "childMaxTokens": None}
    out = records(call_chunk(batch(data), params={"childMaxTokens": "64"}))
    got, expected = _leaf_count(out["1"], ChunkOptions(child_max_tokens=64))
    assert got == expected


def test_app_setting_wins_over_the_default(app_settings: AppSettings) -> None:
    app_settings(CHUNK_CHILD_MAX_TOKENS="64")
    out = records(call_chunk(batch({"text": LONG_MARKDOWN, "documentKey": "k"})))
    got, expected = _leaf_count(out["1"], ChunkOptions(child_max_tokens=64))
    assert got == expected
    assert got != len(chunk_document(LONG_MARKDOWN, document_key="k").leaves)


def test_unknown_option_is_a_record_error_naming_it_and_the_allowed_inputs() -> None:
    out = records(call_chunk(batch({"text": "x", "chunkSize": 100}, {"text": MARKDOWN})))
    error = messages(out["1"], "errors")
    assert "'chunkSize'" in error and "childMaxTokens" in error
    assert out["2"]["errors"] is None


def test_out_of_range_option_names_the_option_and_the_allowed_range() -> None:
    out = records(call_chunk(batch({"text": "x", "childMaxTokens": 5})))
    error = messages(out["1"], "errors")
    assert "childMaxTokens" in error and "16 to 8191" in error and "got 5" in error


def test_inconsistent_options_are_an_error_naming_both() -> None:
    out = records(call_chunk(batch({"text": "x", "childMaxTokens": 64, "childOverlapTokens": 40})))
    error = messages(out["1"], "errors")
    assert "childOverlapTokens" in error and "childMaxTokens" in error


def test_bad_strategy_lists_the_allowed_strategies() -> None:
    out = records(call_chunk(batch({"text": "x", "strategy": "magic"})))
    assert "allowed: fixed, recursive, structural, hierarchical, semantic" in messages(
        out["1"], "errors"
    )


def test_a_bad_app_setting_is_named_in_the_record_error(app_settings: AppSettings) -> None:
    app_settings(CHUNK_HEADING_DEPTH="9")
    out = records(call_chunk(batch({"text": MARKDOWN})))
    assert "app setting CHUNK_HEADING_DEPTH" in messages(out["1"], "errors")


def test_unknown_query_option_fails_the_records_naming_it_but_code_is_ignored() -> None:
    out = records(call_chunk(batch({"text": MARKDOWN}), params={"code": "k", "chunksize": "9"}))
    assert "'chunksize'" in messages(out["1"], "errors")
    ok = records(call_chunk(batch({"text": MARKDOWN}), params={"code": "secret-key"}))
    assert ok["1"]["errors"] is None


def test_format_comes_from_the_query_string_when_the_record_has_none() -> None:
    text = "# Not a heading in a text file\n\nbody"
    as_text = records(call_chunk(batch({"text": text, "documentKey": "k"}), {"format": "text"}))
    expected = record_data(chunk_document(text, format="text", document_key="k"), "k")
    assert as_text["1"]["data"] == expected


def test_an_unknown_format_is_an_error_listing_the_formats() -> None:
    out = records(call_chunk(batch({"text": "x", "format": "pdf"})))
    assert "markdown, rst, text" in messages(out["1"], "errors")


def test_empty_text_gives_no_chunks_and_a_warning_not_an_error() -> None:
    response = call_chunk(batch({"text": "   \n", "documentKey": "empty.md"}))
    out = records(response)
    assert response.status_code == 200
    assert out["1"]["data"]["parents"] == []
    assert "empty" in messages(out["1"], "warnings")


def test_missing_document_key_warns_and_ids_still_differ_between_documents() -> None:
    out = records(call_chunk(batch({"text": "# A\n\none"}, {"text": "# A\n\ntwo"})))
    assert "documentKey missing" in messages(out["1"], "warnings")
    first = out["1"]["data"]["parents"][0]["id"]
    assert first != out["2"]["data"]["parents"][0]["id"]


def test_document_key_is_echoed_for_projections() -> None:
    out = records(call_chunk(batch({"text": MARKDOWN, "documentKey": "docs/guide.md"})))
    assert out["1"]["data"]["documentKey"] == "docs/guide.md"


def test_a_degraded_result_is_data_with_a_warning() -> None:
    response = call_chunk(batch({"text": MARKDOWN, "documentKey": "k", "strategy": "semantic"}))
    out = records(response)
    assert response.status_code == 200
    assert out["1"]["errors"] is None and out["1"]["data"]["parents"]
    assert "semantic" in messages(out["1"], "warnings")


def test_an_engine_crash_costs_one_record_not_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    import skills.skill.batch as batch_module
    from skills.chunking import chunk_document as real

    def flaky(text: str, **kwargs: object) -> object:
        if "boom" in text:
            raise RuntimeError("engine bug")
        return real(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(batch_module, "chunk_document", flaky)
    response = call_chunk(batch({"text": "boom"}, {"text": MARKDOWN}))
    out = records(response)
    assert response.status_code == 207
    assert "internal error" in messages(out["1"], "errors")
    assert "engine bug" not in messages(out["1"], "errors")
    assert out["2"]["errors"] is None


def test_a_record_whose_parents_fail_while_written_counts_as_an_error_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import skills.skill.batch as batch_module
    import skills.skill.handler as handler_module
    from skills.skill.answer import Stream
    from skills.skill.shape import streamed_record_data as real

    def failing_parents() -> Iterator[dict[str, object]]:
        raise RuntimeError("shaping bug")
        yield {}

    def flaky(result: Any, document_key: str) -> dict[str, Any]:
        if document_key == "bad":
            return {"documentKey": document_key, "parents": Stream(failing_parents, 1)}
        return real(result, document_key)

    logged: list[Any] = []
    from skills.skill.telemetry import batch_fields as real_fields

    def fields(stats: Any, *rest: Any) -> Any:
        logged.append(stats)
        return real_fields(stats, *rest)

    monkeypatch.setattr(batch_module, "streamed_record_data", flaky)
    monkeypatch.setattr(handler_module, "batch_fields", fields)
    good = {"text": MARKDOWN, "documentKey": "good"}
    response = call_chunk(batch({"text": MARKDOWN, "documentKey": "bad"}, good))
    out = records(response)
    assert response.status_code == 207
    assert "internal error" in messages(out["1"], "errors") and out["2"]["errors"] is None
    (stats,) = logged
    alone = chunk_document(MARKDOWN, document_key="good")
    assert stats.errors == 1
    assert sum(stats.strategies.values()) == 1
    assert stats.characters == len(MARKDOWN)
    assert stats.children == len(alone.leaves)


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        (b"not json", 400, "not valid JSON"),
        (b"", 400, "not valid JSON"),
        (b"[1, 2]", 400, "'values' array"),
        (b'{"values": {"recordId": "1"}}', 400, "'values' array"),
        (b'{"values": [{"data": {"text": "x"}}]}', 400, "values[0].recordId is missing"),
        (b'{"values": [{"recordId": 7, "data": {}}]}', 400, "values[0].recordId"),
        (b'{"values": ["x"]}', 400, "values[0]"),
        (b'{"values": [{"recordId": NaN, "data": {}}]}', 400, "NaN"),
    ],
)
def test_malformed_requests_get_400_with_a_json_message(
    body: bytes, status: int, fragment: str
) -> None:
    response = call_chunk(body)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    message = json.loads(response.get_body())["error"]["message"]
    assert fragment in message and "Traceback" not in message


def test_duplicate_record_ids_get_400_naming_them() -> None:
    request = {
        "values": [{"recordId": r, "data": {"text": "x"}} for r in ["a", "b", "a", "c", "c"]]
    }
    response = call_chunk(request)
    message = json.loads(response.get_body())["error"]["message"]
    assert response.status_code == 400
    assert '"a"' in message and '"c"' in message and '"b"' not in message


def test_a_body_above_the_limit_gets_413(app_settings: AppSettings) -> None:
    app_settings(SKILL_MAX_BODY_BYTES="1000")
    response = call_chunk(batch({"text": "x" * 2000}))
    assert response.status_code == 413
    assert "SKILL_MAX_BODY_BYTES" in json.loads(response.get_body())["error"]["message"]


def test_an_empty_batch_gets_an_empty_answer() -> None:
    response = call_chunk({"values": []})
    assert (response.status_code, json.loads(response.get_body())) == (200, {"values": []})


def test_health_answers_ok_with_json() -> None:
    import azure.functions as func

    request = func.HttpRequest(method="GET", url="http://localhost/api/health", body=b"")
    response = registered("health")(request)
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert json.loads(response.get_body())["status"] == "ok"


@pytest.mark.parametrize(("mode", "level"), [("", "FUNCTION"), ("entra", "ANONYMOUS")])
def test_auth_level_follows_the_skill_auth_setting(mode: str, level: str) -> None:
    script = (
        "import json, function_app\n"
        "for f in function_app.app.get_functions():\n"
        "    binding = json.loads(f.get_function_json())['bindings'][0]\n"
        "    print(f.get_function_name(), binding['authLevel'])"
    )
    env = {**os.environ, "SKILL_AUTH": mode, "SKILL_ALLOWED_CALLER_IDS": "0c1d"}
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    levels = dict(zip(out[::2], out[1::2], strict=True))
    assert levels == {"chunk": level, "health": "ANONYMOUS"}


@pytest.mark.parametrize("name", ["text", "title", "documentKey"])
def test_a_record_input_in_the_query_string_is_refused_not_ignored(name: str) -> None:
    out = records(call_chunk(batch({"text": MARKDOWN}), params={name: "x"}))
    assert f"{name} must come from the record" in messages(out["1"], "errors")


def test_health_does_not_tell_the_auth_mode(app_settings: AppSettings) -> None:
    import azure.functions as func

    app_settings(SKILL_AUTH="entra", SKILL_ALLOWED_CALLER_IDS="0c1d")
    request = func.HttpRequest(method="GET", url="http://localhost/api/health", body=b"")
    body = json.loads(registered("health")(request).get_body())
    assert set(body) == {"status", "probeTokens"}


def _entra_call(headers: dict[str, str]) -> tuple[int, dict[str, object]]:
    import azure.functions as func

    request = func.HttpRequest(
        method="POST",
        url="http://localhost/api/chunk",
        headers={"Content-Type": "application/json", **headers},
        params={},
        route_params={},
        body=json.dumps(batch({"text": MARKDOWN})).encode(),
    )
    response = registered("chunk")(request)
    return response.status_code, json.loads(response.get_body())


def test_entra_mode_does_not_start_without_allowed_callers() -> None:
    """Any caller App Service Authentication let in would be served: the host loads no function
    (the import fails and says why)."""
    env = {k: v for k, v in os.environ.items() if k != "SKILL_ALLOWED_CALLER_IDS"}
    child = subprocess.run(
        [sys.executable, "-c", "import function_app"],
        cwd=ROOT,
        env={**env, "SKILL_AUTH": "entra"},
        capture_output=True,
        text=True,
    )
    assert child.returncode != 0
    assert "SettingsError: SKILL_AUTH=entra needs SKILL_ALLOWED_CALLER_IDS" in child.stderr


def test_entra_mode_without_allowed_callers_refuses_every_call(
    app_settings: AppSettings,
) -> None:
    app_settings(SKILL_AUTH="entra")
    status, body = _entra_call({"X-MS-CLIENT-PRINCIPAL-ID": "0c1d"})
    assert status == 500 and "every call is refused" in str(body["error"])


def test_a_missing_time_budget_is_said_at_start_up() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SKILL_TIME_BUDGET_SECONDS"}
    child = subprocess.run(
        [sys.executable, "-c", "import function_app"],
        cwd=ROOT,
        env={**env, "SKILL_AUTH": "key"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "SKILL_TIME_BUDGET_SECONDS is not set: each batch gets 180 s" in child.stderr


def test_entra_mode_refuses_a_call_easy_auth_did_not_vouch_for(
    app_settings: AppSettings,
) -> None:
    app_settings(SKILL_AUTH="entra", SKILL_ALLOWED_CALLER_IDS="0c1d")
    status, body = _entra_call({})
    assert status == 401 and "App Service Authentication" in str(body["error"])
    assert _entra_call({"X-MS-CLIENT-PRINCIPAL-ID": "0c1d"})[0] == 200


def test_entra_mode_checks_the_caller_against_the_allowed_ids(
    app_settings: AppSettings,
) -> None:
    app_settings(SKILL_AUTH="entra", SKILL_ALLOWED_CALLER_IDS="aaaa, BBBB")
    assert _entra_call({"X-MS-CLIENT-PRINCIPAL-ID": "cccc"})[0] == 403
    assert _entra_call({"X-MS-CLIENT-PRINCIPAL-ID": "bbbb"})[0] == 200


def test_key_mode_leaves_the_caller_to_the_host() -> None:
    assert _entra_call({})[0] == 200
