"""One chat completion within a deadline: the Azure OpenAI call behind ``contextualize=llm``.

The ``openai`` package's ``AzureOpenAI`` client speaks to the deployment, keyless by default: a
bearer token from ``DefaultAzureCredential`` (the function's managed identity) for the Cognitive
Services scope; an API key (:class:`ChatTarget`) only where keys are allowed. The client and its
credential are built once per process and shared by every record and thread (both are
thread-safe), never per record.

The call is what the models Azure OpenAI still deploys accept: every current text model is a
reasoning model of the gpt-5 family (the retirement table, ``docs/deploy.md``), which rejects
``max_tokens`` ("use 'max_completion_tokens' instead") and any ``temperature`` but the default
(https://learn.microsoft.com/azure/ai-foundry/openai/how-to/reasoning: "These models don't
currently support the same set of parameters"). So the note's room is ``max_completion_tokens``
and ``reasoning_effort`` (:class:`CallPolicy`; the notes send ``none`` by default: gpt-5.2's
lowest, so that the whole room is the note; gpt-5-mini's lowest is ``minimal``) is sent when set.

Retries are ours, not the client's (``max_retries=0``): the client would sleep for a
``Retry-After`` of up to a minute whatever the skill's time budget says, so here each attempt gets
the time that is left as its timeout, and a wait is taken only when it ends before the deadline.
429 honours ``retry-after-ms`` / ``Retry-After`` (Azure OpenAI sends both); 5xx, timeouts and
connection errors back off briefly. Anything else (400, 401, 403, 404) is final at once.

>>> wait_for({"retry-after": "2"}, attempt=0)
2.0
>>> wait_for({"retry-after-ms": "250", "retry-after": "1"}, attempt=0)
0.25
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Reasoning parameters (``max_completion_tokens``, ``reasoning_effort``) need 2025-04-01-preview
#: or later on Azure OpenAI.
DEFAULT_API_VERSION = "2025-04-01-preview"
#: The token scope Azure OpenAI accepts for Entra ID (keyless) calls.
COGNITIVE_SERVICES_SCOPE = "https://cognitiveservices.azure.com/.default"
#: Back-off before retrying a 5xx, a timeout or a broken connection: 0.5 s, 1 s, 2 s, ...
BASE_BACKOFF_SECONDS = 0.5
#: An attempt that would get less time than this is not made: no answer comes back that fast.
MIN_ATTEMPT_SECONDS = 0.5


class ChatFailure(Exception):
    """The call gave no note; ``reason`` is one of ``throttled``, ``time``, ``service``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens the service counted for one call (``cached`` is part of ``prompt``)."""

    prompt: int = 0
    cached: int = 0
    completion: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt + other.prompt,
            self.cached + other.cached,
            self.completion + other.completion,
        )


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    usage: Usage


@dataclass(frozen=True, slots=True)
class ChatTarget:
    """Which deployment to call and how (the app settings, parsed)."""

    endpoint: str
    deployment: str
    api_version: str
    api_key: str = ""


@dataclass(frozen=True, slots=True)
class CallPolicy:
    """How each call is made: retries after a failure, each request's own timeout (the deadline
    may cut it shorter), and the ``reasoning_effort`` sent (empty: none sent)."""

    max_retries: int = 3
    request_timeout: float = 10.0
    reasoning_effort: str = ""


class ChatModel:
    """A deployment's chat completions, called with a deadline and bounded retries."""

    def __init__(
        self,
        client: Any,
        deployment: str,
        policy: CallPolicy = CallPolicy(),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.model = deployment
        self._client = client
        self._policy = policy
        self._clock = clock
        self._sleep = sleep

    def complete(
        self, messages: Sequence[Mapping[str, str]], max_tokens: int, deadline: float
    ) -> Reply:
        """The reply, or :class:`ChatFailure` once retries or the time up to ``deadline`` (on
        this model's clock) are used up; never waits past ``deadline``."""
        import openai

        attempt = 0
        while True:
            left = deadline - self._clock()
            if left < MIN_ATTEMPT_SECONDS:
                raise ChatFailure("time", "the skill's time budget ran out")
            try:
                return self._call(messages, max_tokens, min(self._policy.request_timeout, left))
            except openai.RateLimitError as exc:
                failure = ChatFailure("throttled", "429")
                wait = wait_for(exc.response.headers, attempt)
            except openai.APIStatusError as exc:
                if exc.status_code < 500:
                    raise ChatFailure("service", f"HTTP {exc.status_code}") from None
                failure = ChatFailure("service", f"HTTP {exc.status_code}")
                wait = wait_for(exc.response.headers, attempt)
            except openai.APITimeoutError:
                failure, wait = ChatFailure("time", "request timed out"), wait_for({}, attempt)
            except openai.APIConnectionError:
                failure, wait = ChatFailure("service", "connection failed"), wait_for({}, attempt)
            attempt += 1
            if attempt > self._policy.max_retries:
                raise failure
            if self._clock() + wait + MIN_ATTEMPT_SECONDS > deadline:
                raise failure  # the wait would end past the deadline: give up now, not later
            self._sleep(wait)

    def _call(
        self, messages: Sequence[Mapping[str, str]], max_tokens: int, timeout: float
    ) -> Reply:
        options: dict[str, Any] = {"max_completion_tokens": max_tokens}
        if self._policy.reasoning_effort:
            options["reasoning_effort"] = self._policy.reasoning_effort
        response = self._client.chat.completions.create(
            model=self.model, messages=list(messages), timeout=timeout, **options
        )
        text = (response.choices[0].message.content or "") if response.choices else ""
        return Reply(text.strip(), _usage(response.usage))


def wait_for(headers: Mapping[str, str], attempt: int) -> float:
    """Seconds to wait before the next attempt: what the service asked, else an exponential
    back-off (``retry-after-ms`` is Azure's and finer, so it wins)."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            value = float(headers.get(name, "")) * scale
        except ValueError:
            continue
        if value >= 0:
            return value
    return BASE_BACKOFF_SECONDS * 2.0**attempt


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or 0
    return Usage(int(usage.prompt_tokens or 0), int(cached), int(usage.completion_tokens or 0))


_lock = threading.Lock()
_clients: dict[ChatTarget, Any] = {}
_credential: list[Any] = []


def azure_credential() -> Any:
    """The process's one ``DefaultAzureCredential`` (managed identity in Azure, ``az login`` on a
    workstation): token caching works per credential, so it is made once."""
    with _lock:
        if not _credential:
            from azure.identity import DefaultAzureCredential

            _credential.append(DefaultAzureCredential())
        return _credential[0]


def azure_client(target: ChatTarget) -> Any:
    """The process's ``AzureOpenAI`` client for ``target``, built on first use."""
    if not target.api_key:
        credential = azure_credential()  # outside the lock below: it takes the same lock
    with _lock:
        if target not in _clients:
            from openai import AzureOpenAI

            if target.api_key:
                auth: dict[str, Any] = {"api_key": target.api_key}
            else:
                from azure.identity import get_bearer_token_provider

                provider = get_bearer_token_provider(credential, COGNITIVE_SERVICES_SCOPE)
                auth = {"azure_ad_token_provider": provider}
            _clients[target] = AzureOpenAI(
                azure_endpoint=target.endpoint,
                api_version=target.api_version,
                max_retries=0,
                **auth,
            )
        return _clients[target]
