"""``python -m skills.search check``: a read-only doctor for a live deployment.

What it looks at, in the order a user would ask when something looks wrong:

1. **skill**: the function refuses an unsigned request and answers a signed one (a probe record,
   sent with the function key; in entra mode only the unsigned half can be checked from here,
   because only the search service's identity may call the skill);
2. **definitions**: what the service holds equals what ``deploy`` would send (the same plan,
   so a difference reads as the diff ``deploy --diff`` prints);
3. **indexer**: the last run, its counts, and every per-item error and warning (a skill call
   refused with 401 or a truncated file shows up only there: ``maxFailedItems: -1`` lets the run
   itself succeed);
4. **documents**: the document count of each index;
5. **storage**: blob soft delete and versioning on the documents account, against the indexer's
   schedule (:func:`skills.search.safety.soft_delete_problems`), and every blob the tier would
   truncate, skip, or give keys longer than the service accepts.

Nothing is written. A part whose settings are missing is reported as skipped, with what to set.
Each part reads through a narrow interface (:class:`Inspector`, :class:`Storage`, ``post``), so
tests run the same code against a fake service.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from skills.search.deploy import plan
from skills.search.safety import TIER_LIMITS, TierLimits, blob_problems, soft_delete_problems
from skills.search.settings import SearchSettings
from skills.search.templates import DefinitionSet, Kind

T = TypeVar("T")
Status = Literal["ok", "warning", "problem", "skipped"]
#: at most this many item errors and warnings are listed one by one
LISTED_ITEMS = 20
PROBE_TEXT = "# Check\n\nA probe record from python -m skills.search check."
PROBE_TIMEOUT_SECONDS = 120  # a cold start of a Flex instance plus the tokenizer load
THROTTLED = re.compile(r"\b429\b|too many requests|rate limit|throttl", re.IGNORECASE)
THROTTLED_ADVICE = (
    "some documents failed on throttling (429): the embedding deployment allows 6 requests a "
    "minute per 1,000 TPM and the skillset embeds one child per request (about 29 per 5 KB "
    "file). Raise AZURE_OPENAI_EMBEDDING_CAPACITY within your quota (azd up), then "
    "python -m skills.search deploy --reset to index the failed files again"
)

#: Item errors a first run on Azure can show that no test here can, and what to do about each
ADVICE: tuple[tuple[re.Pattern[str], str], ...] = (
    (THROTTLED, THROTTLED_ADVICE),
    (
        re.compile(r"caller is not in SKILL_ALLOWED_CALLER_IDS", re.IGNORECASE),
        "entra mode: the skill refused the caller Easy Auth vouched for (X-MS-CLIENT-PRINCIPAL-ID "
        "is not in SKILL_ALLOWED_CALLER_IDS): azd up sets it to the Search identity's principal "
        "id; add other callers with the skillExtraCallerPrincipalIds parameter",
    ),
    (
        # Without a billable resource, billable skills stop after 20 documents a day and the run
        # shows "Time Out" (https://learn.microsoft.com/azure/search/cognitive-search-attach-
        # cognitive-services); a missing role shows as a 401/403 from the AI Services account.
        re.compile(r"DocumentIntelligenceLayoutSkill|document-layout", re.IGNORECASE),
        "the Document Layout skill failed: check that AZURE_AI_SERVICES_ENDPOINT is the account "
        "azd up made in layout mode, that the Search identity has Cognitive Services User on it "
        "(role assignments take minutes), and that the account's region is one the skill "
        "supports (AZURE_AI_SERVICES_LOCATION, docs/deploy.md)",
    ),
)


@dataclass(frozen=True)
class Finding:
    """One thing the doctor looked at and what it found."""

    part: str
    status: Status
    message: str


class Inspector(Protocol):
    """The read side of the search service (:class:`skills.search.deploy.Service`)."""

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None: ...

    def indexer_status(self, name: str) -> dict[str, Any] | None: ...

    def document_count(self, index: str) -> int | None: ...


@dataclass(frozen=True)
class Blob:
    name: str
    url: str
    size: int


class Storage(Protocol):
    """The documents account: its blob service settings and the container's blobs."""

    def blob_service(self) -> dict[str, Any]: ...

    def blobs(self) -> Iterable[Blob]: ...


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes


#: POST ``body`` to ``url`` with ``headers``; the status of any answer (errors included)
Post = Callable[[str, dict[str, str], bytes], Response]


def diagnose(
    settings: SearchSettings,
    definitions: DefinitionSet,
    *,
    inspector: Inspector | None,
    post: Post | None,
    storage: Storage | None,
) -> list[Finding]:
    """Every finding, part by part; a part given ``None`` is reported as skipped."""
    findings = check_skill(settings, post)
    if inspector is None:
        findings.append(Finding("service", "skipped", "set AZURE_SEARCH_ENDPOINT"))
        status = None
    else:
        findings += _guarded("definitions", lambda: check_definitions(inspector, definitions))
        status = _read_status(inspector, definitions, findings)
        findings += _guarded("documents", lambda: check_documents(inspector, definitions))
    if storage is None:
        message = "set AZURE_STORAGE_RESOURCE_ID and AZURE_STORAGE_BLOB_ENDPOINT"
        findings.append(Finding("storage", "skipped", message))
    else:
        findings += _guarded(
            "storage", lambda: check_storage(storage, settings, definitions, status)
        )
    return findings


def _read_status(
    inspector: Inspector, definitions: DefinitionSet, findings: list[Finding]
) -> dict[str, Any] | None:
    name = definitions.indexer["name"]
    try:
        status = inspector.indexer_status(name)
    except Exception as error:  # an auth or network error is a finding, not a crash
        findings.append(Finding("indexer", "problem", _could_not("indexer", error)))
        return None
    findings += check_indexer(name, status)
    return status


#: the role a part's reads need, named when they are refused with 403 (``docs/deploy.md``,
#: "Who may do what"; azd grants them to the signed-in user)
NEEDED_ROLES = {
    "definitions": "Search Service Contributor on the search service",
    "indexer": "Search Service Contributor on the search service",
    "documents": "Search Index Data Reader (or Contributor) on the search service",
    "storage": "Reader on the documents storage account and Storage Blob Data Reader on it",
}


def _guarded(part: str, check: Callable[[], list[Finding]]) -> list[Finding]:
    """A check's findings, or one finding saying why it could not run (no role, no network)."""
    try:
        return check()
    except Exception as error:
        return [Finding(part, "problem", _could_not(part, error))]


def _could_not(part: str, error: Exception) -> str:
    if forbidden(error):
        return (
            f"could not check: refused with 403 after every try; the signed-in identity needs "
            f"{NEEDED_ROLES[part]} (a role assigned minutes ago may still be applying)"
        )
    return f"could not check: {type(error).__name__}: {error}"


# ---- waiting for roles ------------------------------------------------------------------------

#: tries of a call the service refuses with 403, and the first wait (doubled after each try): new
#: role assignments can take minutes to apply ("Role assignment changes are not being detected",
#: https://learn.microsoft.com/azure/role-based-access-control/troubleshooting), and ``azd up``
#: runs the doctor right after provisioning them: 6 tries wait 10+20+40+80+160 s, about 5 minutes
FORBIDDEN_TRIES = 6
FORBIDDEN_FIRST_WAIT_SECONDS = 10.0


def forbidden(error: BaseException) -> bool:
    """A 403 from Search or Resource Manager (azure-core raises ``HttpResponseError`` for it)."""
    return getattr(error, "status_code", None) == 403


@dataclass
class Patience:
    """How long to wait for a 403 to go away: ``tries`` calls, waits doubling from ``first``.

    Once a call has used every try, later calls are tried once: a role that is missing, not
    applying, should cost one wait, not one per check.
    """

    tries: int = FORBIDDEN_TRIES
    first: float = FORBIDDEN_FIRST_WAIT_SECONDS
    sleep: Callable[[float], None] = time.sleep
    say: Callable[[str], None] = print
    exhausted: bool = False

    def call(self, what: str, call: Callable[[], T]) -> T:
        """``call()``, again after a wait while it is refused with 403, at most ``tries`` times."""
        wait, tries = self.first, 1 if self.exhausted else self.tries
        for attempt in range(1, tries + 1):
            try:
                return call()
            except Exception as error:
                if not forbidden(error):
                    raise
                if attempt == tries:
                    self.exhausted = True
                    raise
                self.say(
                    f"{what}: 403, new role assignments may still be applying; trying again in "
                    f"{wait:.0f} s ({attempt} of {tries})"
                )
                self.sleep(wait)
                wait *= 2
        raise AssertionError("unreachable: the last try returns or raises")


class PatientInspector:
    """An :class:`Inspector` whose reads wait out a 403 (see :class:`Patience`)."""

    def __init__(self, inner: Inspector, patience: Patience) -> None:
        self.inner, self.patience = inner, patience

    def get(self, kind: Kind, name: str) -> dict[str, Any] | None:
        return self.patience.call(f"reading {kind} {name}", lambda: self.inner.get(kind, name))

    def indexer_status(self, name: str) -> dict[str, Any] | None:
        return self.patience.call(
            f"reading the status of {name}", lambda: self.inner.indexer_status(name)
        )

    def document_count(self, index: str) -> int | None:
        return self.patience.call(f"counting {index}", lambda: self.inner.document_count(index))


class PatientStorage:
    """A :class:`Storage` whose reads wait out a 403 (the doctor's Reader role applying)."""

    def __init__(self, inner: Storage, patience: Patience) -> None:
        self.inner, self.patience = inner, patience

    def blob_service(self) -> dict[str, Any]:
        return self.patience.call("reading blob service settings", self.inner.blob_service)

    def blobs(self) -> Iterable[Blob]:
        return self.patience.call("listing the container", lambda: list(self.inner.blobs()))


# ---- 1. the skill --------------------------------------------------------------------------------


def check_skill(settings: SearchSettings, post: Post | None) -> list[Finding]:
    """The function refuses a request without credentials and answers one with the key."""
    if post is None:
        return [Finding("skill", "skipped", "set SKILL_URI")]
    body = json.dumps({"values": [{"recordId": "check", "data": {"text": PROBE_TEXT}}]}).encode()
    json_headers = {"Content-Type": "application/json"}
    findings = [_unsigned(post(settings.skill_uri, json_headers, body))]
    if settings.skill_function_key:
        signed = {**json_headers, "x-functions-key": settings.skill_function_key}
        findings.append(_signed(post(settings.skill_uri, signed, body)))
    elif settings.skill_auth_resource_id:
        message = (
            "entra mode: only the search service's identity may call the skill, so a signed "
            "probe cannot be sent from here; the indexer's errors show whether its calls pass"
        )
        findings.append(Finding("skill", "skipped", message))
    else:
        findings.append(Finding("skill", "skipped", "set SKILL_FUNCTION_KEY for a signed probe"))
    return findings


def _unsigned(answer: Response) -> Finding:
    if answer.status in (401, 403):
        return Finding("skill", "ok", f"an unsigned request is refused ({answer.status})")
    if 200 <= answer.status < 300:
        return Finding("skill", "problem", "an unsigned request is answered: anyone can call it")
    return Finding("skill", "problem", f"an unsigned request got {answer.status}, not 401")


def _signed(answer: Response) -> Finding:
    if answer.status != 200:
        return Finding("skill", "problem", f"a signed request got {answer.status}, not 200")
    if not answer.content_type.startswith("application/json"):
        kind = answer.content_type or "no content type"
        return Finding("skill", "problem", f"the answer is {kind}; Search needs JSON")
    try:
        (record,) = json.loads(answer.body)["values"]
    except (ValueError, KeyError, TypeError):
        return Finding("skill", "problem", "the answer is not one record in a 'values' array")
    if record.get("recordId") != "check" or record.get("errors"):
        return Finding("skill", "problem", f"the probe record came back wrong: {record}")
    parents = (record.get("data") or {}).get("parents") or []
    return Finding("skill", "ok", f"a signed request is answered: {len(parents)} parent(s)")


def urllib_post(url: str, headers: dict[str, str], body: bytes) -> Response:
    """:data:`Post` over the standard library; HTTP errors are answers, not exceptions."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT_SECONDS) as response:
            return Response(response.status, response.headers.get("Content-Type", ""),
                            response.read())  # fmt: skip
    except urllib.error.HTTPError as error:
        return Response(error.code, error.headers.get("Content-Type", ""), error.read())


# ---- 2. the definitions --------------------------------------------------------------------------


def check_definitions(inspector: Inspector, definitions: DefinitionSet) -> list[Finding]:
    """Each object equals its rendered definition (secret values the service hides aside)."""
    findings = []
    for _, change in plan(inspector, definitions):
        what = f"{change.kind} {change.name}"
        if change.action == "create":
            findings.append(Finding("definitions", "problem", f"{what} is missing: deploy it"))
        elif change.action == "update":
            message = f"{what} differs from the definitions (deploy to update):\n{change.diff}"
            findings.append(Finding("definitions", "problem", message))
        else:
            notes = "".join(f"; {note}" for note in change.notes)
            findings.append(Finding("definitions", "ok", f"{what} is as rendered{notes}"))
    return findings


# ---- 3. the indexer ------------------------------------------------------------------------------


def check_indexer(name: str, status: dict[str, Any] | None) -> list[Finding]:
    """The last run and its per-item errors and warnings (REST Get Indexer Status shape)."""
    if status is None:
        return [Finding("indexer", "problem", f"indexer {name} does not exist: deploy it")]
    last = status.get("lastResult")
    if not last:
        return [Finding("indexer", "warning", f"indexer {name} has not run yet")]
    outcome = last.get("status")
    summary = (
        f"last run {outcome} ({last.get('startTime')} to {last.get('endTime')}): "
        f"{last.get('itemsProcessed', 0)} processed, {last.get('itemsFailed', 0)} failed"
    )
    if last.get("errorMessage"):
        summary += f"; {last['errorMessage']}"
    healthy = outcome in ("success", "inProgress") and not last.get("itemsFailed")
    findings = [Finding("indexer", "ok" if healthy else "problem", summary)]
    errors = last.get("errors") or []
    findings += _items("problem", "error", errors, "errorMessage")
    findings += _items("warning", "warning", last.get("warnings") or [], "message")
    for pattern, advice in ADVICE:
        if any(pattern.search(json.dumps(error)) for error in errors):
            findings.append(Finding("indexer", "problem", advice))
    return findings


def _items(status: Status, label: str, items: list[dict[str, Any]], text: str) -> list[Finding]:
    listed = [
        Finding("indexer", status, f"{label} {item.get('key') or '(no key)'}: {item.get(text)}"
                + (f" ({item['details']})" if item.get("details") else ""))
        for item in items[:LISTED_ITEMS]
    ]  # fmt: skip
    if len(items) > LISTED_ITEMS:
        more = f"... and {len(items) - LISTED_ITEMS} more {label}s (the portal lists them all)"
        listed.append(Finding("indexer", status, more))
    return listed


# ---- 4. the documents ----------------------------------------------------------------------------


def check_documents(inspector: Inspector, definitions: DefinitionSet) -> list[Finding]:
    findings = []
    for index in definitions.indexes:
        count = inspector.document_count(index)
        if count is None:
            findings.append(Finding("documents", "problem", f"index {index} does not exist"))
        elif count == 0:
            message = f"index {index} is empty: has the indexer run over a non-empty container?"
            findings.append(Finding("documents", "warning", message))
        else:
            findings.append(Finding("documents", "ok", f"index {index}: {count:,} documents"))
    return findings


# ---- 5. the storage ------------------------------------------------------------------------------


def check_storage(
    storage: Storage,
    settings: SearchSettings,
    definitions: DefinitionSet,
    status: dict[str, Any] | None,
) -> list[Finding]:
    """Soft delete against the schedule, and the blobs the tier would cut, skip or misname."""
    properties = storage.blob_service()
    policy = properties.get("deleteRetentionPolicy") or {}
    schedule = (definitions.indexer.get("schedule") or {}).get("interval", "PT1H")
    problems = soft_delete_problems(
        enabled=policy.get("enabled"), days=policy.get("days"),
        versioning=properties.get("isVersioningEnabled"), schedule=schedule,
    )  # fmt: skip
    findings = [Finding("storage", "problem", problem) for problem in problems]
    if not problems:
        message = f"soft delete keeps deleted blobs {policy.get('days')} days, versioning off"
        findings.append(Finding("storage", "ok", message))
    return findings + list(_blob_findings(storage, settings, definitions, status))


def _blob_findings(
    storage: Storage,
    settings: SearchSettings,
    definitions: DefinitionSet,
    status: dict[str, Any] | None,
) -> Iterator[Finding]:
    limits = tier_limits(status, settings.search_sku)
    contexts = [
        selector["sourceContext"]
        for selector in definitions.skillset.get("indexProjections", {}).get("selectors", [])
    ]
    count = flagged = 0
    for blob in storage.blobs():
        count += 1
        for problem in blob_problems(blob.name, blob.url, blob.size, limits, contexts):
            flagged += 1
            yield Finding("storage", "problem", problem)
    if not flagged:
        where = f"the {settings.search_sku} tier's limits" if limits else "the key length"
        yield Finding("storage", "ok", f"{count} blob(s), none over {where}")


def tier_limits(status: dict[str, Any] | None, sku: str) -> TierLimits | None:
    """The service's own limits (Get Indexer Status ``limits``), else the documented tier's."""
    limits = (status or {}).get("limits") or {}
    size = limits.get("maxDocumentExtractionSize")
    characters = limits.get("maxDocumentContentCharactersToExtract")
    if isinstance(size, int) and isinstance(characters, int):
        return TierLimits(size, characters)
    return TIER_LIMITS.get(sku)


def render_report(findings: list[Finding]) -> str:
    """The findings as the CLI prints them: one line each, the part and a mark in front."""
    marks = {"ok": "ok     ", "warning": "WARN   ", "problem": "PROBLEM", "skipped": "skipped"}
    lines = []
    for finding in findings:
        first, *rest = finding.message.splitlines()
        lines.append(f"{marks[finding.status]}  {finding.part:<11}  {first}")
        lines += [f"{'':22}{line}" for line in rest]
    return "\n".join(lines)
