"""Properties over generated input: any body gets a 2xx/4xx JSON answer; every well-formed batch
gets every recordId back exactly once."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skilltest_support import call_chunk

from skills.skill.contract import ErrorBody, RecordData, SkillResponse

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
INPUT_NAMES = st.sampled_from(
    [
        "text",
        "title",
        "documentKey",
        "format",
        "strategy",
        "childMaxTokens",
        "parentMaxTokens",
        "childOverlapTokens",
        "headingDepth",
        "includeHeadings",
        "somethingElse",
    ]
)
PLAUSIBLE = (
    JSON_SCALARS
    | st.sampled_from(["markdown", "text", "fixed", "hierarchical", "# H\n\nbody", "64", 64, 512])
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
)
RECORD_DATA = st.dictionaries(INPUT_NAMES, PLAUSIBLE, max_size=5) | JSON_VALUES
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_answer(status: int, mimetype: str, body: bytes) -> Any:
    """2xx or 4xx, JSON, shaped as the contract says for that status."""
    assert 200 <= status < 300 or 400 <= status < 500, status
    assert mimetype == "application/json"
    payload = json.loads(body)
    if status < 300:
        SkillResponse.model_validate(payload)
    else:
        ErrorBody.model_validate(payload)
    return payload


@SETTINGS
@given(st.binary(max_size=200))
def test_any_bytes_get_a_json_answer(body: bytes) -> None:
    response = call_chunk(body)
    check_answer(response.status_code, response.mimetype, response.get_body())


@SETTINGS
@given(JSON_VALUES | st.fixed_dictionaries({"values": st.lists(JSON_VALUES, max_size=5)}))
def test_any_json_body_gets_a_json_answer(payload: Any) -> None:
    response = call_chunk(json.dumps(payload).encode())
    check_answer(response.status_code, response.mimetype, response.get_body())


@SETTINGS
@given(
    st.lists(st.text(max_size=12), unique=True, max_size=8).flatmap(
        lambda ids: st.tuples(
            st.just(ids), st.lists(RECORD_DATA, min_size=len(ids), max_size=len(ids))
        )
    ),
    st.dictionaries(
        st.sampled_from(["strategy", "childMaxTokens", "format", "x"]),
        PLAUSIBLE.filter(lambda v: isinstance(v, str)),
        max_size=2,
    ),
)
def test_every_well_formed_batch_gets_every_record_id_back_once(
    ids_and_data: tuple[list[str], list[Any]], query: dict[str, str]
) -> None:
    ids, datas = ids_and_data
    request = {"values": [{"recordId": i, "data": d} for i, d in zip(ids, datas, strict=True)]}
    response = call_chunk(json.dumps(request).encode(), params=query)
    payload = check_answer(response.status_code, response.mimetype, response.get_body())
    assert response.status_code in (200, 207)
    assert Counter(record["recordId"] for record in payload["values"]) == Counter(ids)
    failed = [record for record in payload["values"] if record["errors"]]
    assert (response.status_code == 207) == bool(failed)
    for record in payload["values"]:
        if not record["errors"]:
            RecordData.model_validate(record["data"])
