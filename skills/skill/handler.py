"""A WebApiSkill request body in, a status and a JSON body out: the whole skill, without HTTP.

Request-level problems are answered as a whole, before any record is touched: a body larger than
``SKILL_MAX_BODY_BYTES`` gets 413; a body that is not JSON, not an object with a ``values`` array,
or whose records lack a string ``recordId`` or repeat one gets 400 naming them. Everything else is
per record: 200 when every record succeeded, 207 when some carry errors. Nothing here raises: an
unexpected failure still gets a JSON answer (never a stack trace).
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from skills.chunking import encoding
from skills.skill.answer import to_json
from skills.skill.batch import run_batch
from skills.skill.budget import TimeBudget
from skills.skill.contract import HugeInteger, SkillRequest
from skills.skill.settings import MAX_BODY_SETTING, SkillSettings, time_budget
from skills.skill.telemetry import batch_fields, batch_span, configure_once, log_batch, log_refused

logger = logging.getLogger("skills.skill")
_MAX_NAMED = 10
#: Python's default limit for converting digits to an int (``sys.get_int_max_str_digits``).
_MAX_INT_DIGITS = 4300


@dataclass(frozen=True, slots=True)
class Reply:
    """What the Function returns: always ``application/json``."""

    status: int
    body: bytes


class RequestError(ValueError):
    """The request cannot be processed at all; ``status`` is 400 or 413."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def handle_chunk_request(body: bytes, query: Mapping[str, str], settings: SkillSettings) -> Reply:
    """Answer one skill call. ``query`` is the URL's query string, ``settings`` the app settings
    as the Function read them when it started."""
    started = (time.perf_counter(), time.process_time())
    try:
        seconds = time_budget(query.get("timeBudgetSeconds"), settings.time_budget_seconds)
        budget = TimeBudget(seconds)  # started before parsing, as the indexer's clock is
        request = parse_request(body, settings.max_body_bytes)
        encoding()  # load the tokenizer (first call only) before records are timed for the budget
        return _answer(request, query, settings, budget, started)
    except RequestError as exc:
        log_refused(exc.status, str(exc))
        return error_reply(exc.status, str(exc))
    except Exception as exc:  # last line of defence: a JSON 500, no trace in the body
        logger.exception("chunk request crashed")
        return error_reply(500, f"internal error ({type(exc).__name__}); see the function's logs")


def parse_request(body: bytes, max_body_bytes: int) -> SkillRequest:
    """The validated request, or :class:`RequestError` saying exactly what is wrong."""
    if len(body) > max_body_bytes:
        raise RequestError(
            413,
            f"request body is {len(body)} bytes, above the limit of {max_body_bytes} "
            f"({MAX_BODY_SETTING}); lower the skill's batchSize",
        )
    payload = _decode_json(body)
    if not isinstance(payload, dict) or not isinstance(payload.get("values"), list):
        raise RequestError(400, "the body must be a JSON object with a 'values' array")
    try:
        request = SkillRequest.model_validate(payload)
    except ValidationError as exc:
        raise RequestError(400, _describe_invalid(exc)) from None
    _reject_duplicates(request)
    return request


def error_reply(status: int, message: str) -> Reply:
    """A 4xx/5xx answer: ``{"error": {"message": ...}}``."""
    return Reply(status, to_json({"error": {"message": message}}))


def _answer(
    request: SkillRequest,
    query: Mapping[str, str],
    settings: SkillSettings,
    budget: TimeBudget,
    started: tuple[float, float],
) -> Reply:
    with batch_span(configure_once(settings.telemetry_connection)) as span:
        result = run_batch(request.values, query, settings, budget)
        status = 207 if result.stats.errors else 200
        body = result.answer.body()
        wall_ms = (time.perf_counter() - started[0]) * 1000
        cpu_ms = (time.process_time() - started[1]) * 1000
        fields = batch_fields(result.stats, wall_ms, cpu_ms, status)
        log_batch(fields, result.failures, span)
    return Reply(status, body)


def _decode_json(body: bytes) -> Any:
    """Strict UTF-8 (``json.loads`` on bytes would let encoded surrogates through), then JSON."""
    try:
        text = body.decode("utf-8-sig")
        return json.loads(text, parse_constant=_reject_constant, parse_int=_integer)
    except RecursionError:
        raise RequestError(400, "the body is not valid JSON: nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise RequestError(400, f"the body is not valid UTF-8: {_first_line(exc)}") from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity
        raise RequestError(400, f"the body is not valid JSON: {_first_line(exc)}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _integer(digits: str) -> int | HugeInteger:
    return int(digits) if len(digits) <= _MAX_INT_DIGITS else HugeInteger(digits)


def _describe_invalid(exc: ValidationError) -> str:
    problems = []
    for error in exc.errors(include_url=False)[:_MAX_NAMED]:
        path = _path(error["loc"])
        if error["type"] == "missing":
            problems.append(f"{path} is missing")
        else:
            problems.append(f"{path}: {error['msg']}")
    more = exc.error_count() - len(problems)
    suffix = f" (and {more} more)" if more > 0 else ""
    return (
        "invalid records: "
        + "; ".join(problems)
        + suffix
        + (". Every record needs a string recordId, unique in the request")
    )


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _reject_duplicates(request: SkillRequest) -> None:
    counts = Counter(record.record_id for record in request.values)
    repeated = [record_id for record_id, count in counts.items() if count > 1]
    if repeated:
        shown = ", ".join(json.dumps(record_id[:40]) for record_id in repeated[:_MAX_NAMED])
        more = f" (and {len(repeated) - _MAX_NAMED} more)" if len(repeated) > _MAX_NAMED else ""
        raise RequestError(400, f"duplicate recordId {shown}{more}: recordIds must be unique")


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
