"""contextualize=llm against a fake chat completions endpoint on loopback: the real openai client,
its requests, our retries, the token and time budgets, and what the record says when notes are
missing."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fake_chat import Answer, FakeChat, fake_chat

from skills.chunking import count_tokens
from skills.skill import SkillSettings, handle_chunk_request
from skills.skill.contract import SkillResponse

SECTIONS = ["Install", "Configure", "Run", "Upgrade"]
DOC = "# Widget guide\n\n" + "\n\n".join(
    f"## {name}\n\n"
    + " ".join(f"To {name.lower()} step {n}, the operator checks widget {n}." for n in range(14))
    for name in SECTIONS
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeChat]:
    with fake_chat() as chat:
        yield chat


@pytest.fixture
def chat(server: FakeChat) -> FakeChat:
    server.reset()
    return server


def env(chat: FakeChat, **extra: str) -> dict[str, str]:
    return {
        "AZURE_OPENAI_ENDPOINT": chat.url,
        "AZURE_OPENAI_CHAT_DEPLOYMENT": "notes",
        "AZURE_OPENAI_API_KEY": "test-key",
        "CONTEXT_CONCURRENCY": "3",
        **extra,
    }


def call(
    settings: dict[str, str], *docs: str, query: dict[str, str] | None = None, **data: Any
) -> list[dict[str, Any]]:
    values = [
        {"recordId": str(n), "data": {"text": doc, "documentKey": f"d{n}.md", **data}}
        for n, doc in enumerate(docs or (DOC,))
    ]
    body = json.dumps({"values": values}).encode()
    app_settings = SkillSettings.from_env(settings)
    reply = handle_chunk_request(body, query or {"contextualize": "llm"}, app_settings)
    assert reply.status == 200, reply.body[:300]
    records = json.loads(reply.body)["values"]
    SkillResponse.model_validate({"values": records})
    return list(records)


def children(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [child for parent in record["data"]["parents"] for child in parent["children"]]


def warnings(record: dict[str, Any]) -> str:
    return " | ".join(w["message"] for w in record["warnings"] or [])


def test_every_child_gets_a_note_after_its_heading_path(chat: FakeChat) -> None:
    (record,) = call(env(chat))
    kids = children(record)
    assert len(kids) > 4 and record["errors"] is None and record["warnings"] is None
    for child in kids:
        path = " > ".join(child["headings"])
        assert child["context"].startswith("About ")
        assert child["embedText"] == f"{path}\n\n{child['context']}\n\n{child['text']}"
        assert count_tokens(child["embedText"]) <= 128
        assert DOC[child["start"] : child["end"]] == child["text"]
    assert len(chat.requests) == len(kids)


def test_the_text_is_cut_as_with_the_same_room_and_no_note(chat: FakeChat) -> None:
    (noted,) = call(env(chat))
    (plain,) = call(env(chat), query={"noteTokens": "32"})
    assert [(c["start"], c["end"]) for c in children(noted)] == [
        (c["start"], c["end"]) for c in children(plain)
    ]
    assert all(child["context"] == "" for child in children(plain))


def test_requests_speak_the_azure_api_and_share_the_document_prefix(chat: FakeChat) -> None:
    (record,) = call(env(chat), title="Widget guide")
    first = chat.requests[0]
    assert first.path == "/openai/deployments/notes/chat/completions"
    assert first.query["api-version"] == ["2025-04-01-preview"]
    assert first.headers["api-key"] == "test-key"
    prefixes = {json.dumps(seen.body["messages"][:-1]) for seen in chat.requests}
    assert len(prefixes) == 1  # instructions and document: identical for every child
    system, document, _ = first.body["messages"]
    assert system["role"] == "system" and "note" in system["content"]
    assert document["content"] == f'<document title="Widget guide">\n{DOC}\n</document>'
    texts = {seen.body["messages"][-1]["content"] for seen in chat.requests}
    assert texts == {
        f"The chunk to situate:\n<chunk>\n{c['text']}\n</chunk>" for c in children(record)
    }
    assert first.body["max_completion_tokens"] == 32 + 16
    assert first.body["reasoning_effort"] == "none"
    assert "temperature" not in first.body and "max_tokens" not in first.body  # gpt-5 rejects them


def test_the_first_child_is_asked_alone_then_the_rest_together(chat: FakeChat) -> None:
    chat.script = lambda n: Answer(delay=0.05)
    call(env(chat))
    first, *rest = sorted(chat.requests, key=lambda seen: seen.started)
    assert all(seen.started >= first.finished for seen in rest)
    assert chat.most_active == 3  # CONTEXT_CONCURRENCY


def test_a_long_document_sends_its_outline_and_the_child_section(chat: FakeChat) -> None:
    # parents of 256 tokens: the guide (744 tokens) is then more than one section
    (record,) = call(env(chat, CONTEXT_DOCUMENT_MAX_TOKENS="200"), parentMaxTokens=256)
    assert record["warnings"] is None
    _, context, _ = chat.requests[0].body["messages"]
    outline = "\n".join(["Widget guide"] + [f"Widget guide > {name}" for name in SECTIONS])
    assert f"<outline>\n{outline}\n</outline>" in context["content"]
    assert "(Widget guide):\n<section>\n# Widget guide\n\n## Install" in context["content"]
    assert DOC not in context["content"]


def test_throttling_waits_as_asked_then_succeeds(chat: FakeChat) -> None:
    chat.script = lambda n: (
        Answer(429, {"retry-after-ms": "50", "retry-after": "1"}) if n < 2 else Answer()
    )
    (record,) = call(env(chat))
    assert record["warnings"] is None
    assert [seen.status for seen in chat.requests[:3]] == [429, 429, 200]
    assert chat.requests[1].started - chat.requests[0].finished >= 0.05


def test_throttling_past_the_time_budget_degrades_without_waiting(chat: FakeChat) -> None:
    chat.script = lambda n: Answer(429, {"retry-after": "60"})
    (record,) = call(env(chat))
    kids = children(record)
    assert record["errors"] is None
    assert f"context notes missing for {len(kids)} of {len(kids)} children" in warnings(record)
    assert "throttled by the chat deployment (429)" in warnings(record)
    assert all(child["context"] == "" for child in kids)
    assert all(child["embedText"].startswith(" > ".join(child["headings"])) for child in kids)
    assert len(chat.requests) <= 3  # once throttled past the deadline, the others are not sent


def test_a_server_error_is_retried(chat: FakeChat) -> None:
    chat.script = lambda n: Answer(503) if n == 0 else Answer()
    (record,) = call(env(chat))
    assert record["warnings"] is None
    assert chat.requests[0].status == 503 and len(chat.answered) == len(children(record))


def test_lasting_server_errors_leave_children_without_notes(chat: FakeChat) -> None:
    chat.script = lambda n: Answer(500)
    (record,) = call(env(chat, CONTEXT_MAX_RETRIES="1"))
    kids = children(record)
    assert "chat deployment errors" in warnings(record) and record["errors"] is None
    assert len(chat.requests) == 2 * len(kids)  # each child tried twice, then left as it is


def test_a_client_error_is_not_retried(chat: FakeChat) -> None:
    chat.script = lambda n: Answer(400)
    (record,) = call(env(chat))
    assert len(chat.requests) == len(children(record))


def test_slow_answers_are_cut_off_by_the_time_budget(chat: FakeChat) -> None:
    chat.script = lambda n: Answer(delay=5.0)
    (record,) = call(env(chat), query={"contextualize": "llm", "timeBudgetSeconds": "3"})
    assert record["errors"] is None
    assert "out of the skill's time budget" in warnings(record)
    assert len(chat.requests) == 1  # the first call timed out; nothing else was worth sending


def test_the_record_token_budget_stops_the_calls(chat: FakeChat) -> None:
    per_call = 700  # about what one call of this document is estimated at
    (record,) = call(env(chat, CONTEXT_RECORD_MAX_TOKENS=str(3 * per_call)))
    kids = children(record)
    noted = [child for child in kids if child["context"]]
    assert 1 <= len(noted) < len(kids) and len(chat.requests) == len(noted)
    assert "over the token budget" in warnings(record)


def test_the_batch_token_budget_spans_its_records(chat: FakeChat) -> None:
    call(env(chat))
    used = sum(sum(len(m["content"]) // 4 for m in s.body["messages"]) + 7 for s in chat.requests)
    chat.reset()
    other = DOC.replace("widget", "gadget")
    budget = str(used + 3 * count_tokens(DOC))  # the first record's spend, and about three calls
    first, second = call(env(chat, CONTEXT_BATCH_MAX_TOKENS=budget), DOC, other)
    assert first["warnings"] is None
    noted = [child for child in children(second) if child["context"]]
    assert 1 <= len(noted) <= 3 and "over the token budget" in warnings(second)


def test_the_batch_log_line_counts_notes_and_tokens(
    chat: FakeChat, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="skills.skill"):
        (record,) = call(env(chat))
    line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("chunk batch"))
    fields = json.loads(line.removeprefix("chunk batch "))
    kids = len(children(record))
    assert fields["contextNotes"] == kids and fields["contextMissing"] == 0
    counted = [sum(len(m["content"]) // 4 for m in s.body["messages"]) for s in chat.requests]
    assert fields["contextInputTokens"] == sum(counted)  # as the service counts them
    assert 0 < fields["contextCachedTokens"] < fields["contextInputTokens"]
    assert fields["contextOutputTokens"] == 7 * kids


def test_without_a_deployment_the_record_says_so(chat: FakeChat) -> None:
    (record,) = call({})
    assert "no chat deployment is configured" in warnings(record)
    assert record["errors"] is None and chat.requests == []


def test_the_option_comes_from_an_app_setting_and_is_checked(chat: FakeChat) -> None:
    (record,) = call(env(chat, CHUNK_CONTEXTUALIZE="llm"), query={})
    assert all(child["context"] for child in children(record))
    body = json.dumps(
        {"values": [{"recordId": "x", "data": {"text": DOC, "contextualize": "gpt"}}]}
    )
    settings = SkillSettings.from_env(env(chat))
    reply = json.loads(handle_chunk_request(body.encode(), {}, settings).body)
    assert (
        "contextualize: must be one of none, llm (got 'gpt' from the record)"
        in (reply["values"][0]["errors"][0]["message"])
    )


def test_keyless_calls_carry_a_bearer_token_from_one_credential(
    chat: FakeChat, monkeypatch: pytest.MonkeyPatch
) -> None:
    import azure.identity
    from azure.core.credentials import AccessToken

    from skills.llm import chat as chat_module

    made: list[object] = []

    class Credential:
        def __init__(self) -> None:
            made.append(self)

        def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
            assert scopes == (chat_module.COGNITIVE_SERVICES_SCOPE,)
            return AccessToken("entra-token", 2**31)

    monkeypatch.setattr(azure.identity, "DefaultAzureCredential", Credential)
    monkeypatch.setattr(chat_module, "_credential", [])
    monkeypatch.setattr(chat_module, "_clients", {})
    keyless = {k: v for k, v in env(chat).items() if k != "AZURE_OPENAI_API_KEY"}
    call(keyless, DOC, DOC.replace("widget", "gadget"))
    call(keyless)
    assert len(made) == 1  # once per process, not per record or batch
    assert {seen.headers["authorization"] for seen in chat.requests} == {"Bearer entra-token"}
    assert all("api-key" not in seen.headers for seen in chat.requests)


def test_slow_notes_leave_the_next_records_their_time(
    chat: FakeChat, caplog: pytest.LogCaptureFixture
) -> None:
    chat.script = lambda n: Answer(delay=0.8)
    settings = env(chat, CONTEXT_REQUEST_TIMEOUT_SECONDS="5")
    query = {"contextualize": "llm", "timeBudgetSeconds": "3"}
    with caplog.at_level(logging.INFO, logger="skills.skill"):
        first, second = call(settings, DOC, DOC.replace("widget", "gadget"), query=query)
    line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("chunk batch"))
    fields = json.loads(line.removeprefix("chunk batch "))
    assert fields["errors"] == 0 and fields["fallbacks"] == 0 and fields["skipped"] == 0
    assert "out of the skill's time budget" in warnings(first)
    assert children(second) and "out of the skill's time budget" in warnings(second)
