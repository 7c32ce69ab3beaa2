"""Retry policy of the widget sync agent: which failures are retried, and after how long.

The agent calls the widget API over an unreliable network. A failed call is retried when the
failure is transient (a timeout, a connection reset, HTTP 429 or 5xx), with an exponential
backoff and full jitter, so that many agents failing at once do not retry in step.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

#: HTTP statuses worth another try: the server is busy or briefly unavailable.
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


class RetryBudgetExhausted(RuntimeError):
    """Raised when a call has failed more times than the policy allows."""

    def __init__(self, attempts: int, last_error: Exception) -> None:
        super().__init__(f"gave up after {attempts} attempts: {last_error}")
        self.attempts = attempts
        self.last_error = last_error


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failed call is retried."""

    max_attempts: int = 5
    base_delay: float = 0.5  # seconds before the first retry
    max_delay: float = 30.0  # no wait is ever longer than this

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (1 for the first retry).

        A ``Retry-After`` header from the server wins when it asks for longer; otherwise the
        wait is drawn uniformly from zero to the exponential cap (full jitter).
        """
        cap = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        jittered = random.uniform(0, cap)
        if retry_after is not None:
            return min(self.max_delay, max(retry_after, jittered))
        return jittered

    def should_retry(self, attempt: int, status: int | None, error: Exception | None) -> bool:
        """Whether a call that failed on ``attempt`` is tried again."""
        if attempt >= self.max_attempts:
            return False
        if status is not None:
            return status in RETRYABLE_STATUSES
        return isinstance(error, TimeoutError | ConnectionError)
