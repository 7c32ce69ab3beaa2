"""The batch time budget: answer before the indexer's timeout, whatever the batch holds.

The indexer gives a skill call 30 s by default (230 s at most) and fails every document of a batch
that times out. So the skill watches its own clock: before each record it predicts the time the rest
of the batch needs at the speed measured so far, and when that would run past the budget, the
remaining records are chunked with the fastest strategy (with a warning). Records that are still
waiting once the budget is spent get a per-record error instead of a timeout for all.

>>> budget = TimeBudget(10.0, clock=iter([0.0, 0.0]).__next__)
>>> budget.plan(remaining_chars=1_000)
<Plan.FULL: 'full'>
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum

#: Speed assumed before the first record is measured, characters per second of the full strategy
#: including shaping: a third of what one core of the build machine does (~1.5 million), so a huge
#: first record degrades early while a batch of 1000 x 5 KB still starts with the full strategy.
ASSUMED_CHARS_PER_SECOND = 500_000.0
#: Weight of that assumption in the estimate, in seconds of work: one slow first record (a cold
#: cache, a busy neighbour) must not degrade a whole batch on its own.
PRIOR_SECONDS = 0.25


#: The share of the budget that extra work never takes: the records after it are planned at the
#: speed measured so far, and a slower one must still find the budget unspent.
SPARE_RESERVE = 0.1


class Plan(StrEnum):
    """What to do with the next record."""

    FULL = "full"  # the requested strategy
    FAST = "fast"  # the fastest strategy, with a warning
    SKIP = "skip"  # the budget is spent: a per-record error


class TimeBudget:
    """Tracks one batch's elapsed time and measured speed; sticky once it has degraded."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._start = clock()
        self._chars = 0
        self._busy = 0.0
        self._degraded = False

    def elapsed(self) -> float:
        return self._clock() - self._start

    def plan(self, remaining_chars: int) -> Plan:
        """FULL while the rest of the batch fits at the measured speed, then FAST, then SKIP."""
        elapsed = self.elapsed()
        if elapsed >= self.seconds:
            return Plan.SKIP
        if not self._degraded and elapsed + remaining_chars / self._speed() > self.seconds:
            self._degraded = True
        return Plan.FAST if self._degraded else Plan.FULL

    def spare(self, remaining_chars: int) -> float:
        """Seconds left once ``remaining_chars`` more are chunked at the measured speed, less
        ``SPARE_RESERVE`` of the budget: what slow extra work on the current record (context
        notes) may use without making the records after it degrade or skip."""
        reserve = self.seconds * SPARE_RESERVE
        return self.seconds - reserve - self.elapsed() - remaining_chars / self._speed()

    def measured(self, chars: int, seconds: float) -> None:
        """Feed the speed estimate with a record chunked with the full strategy."""
        self._chars += chars
        self._busy += seconds

    def _speed(self) -> float:
        """Measured characters per second, smoothed towards the assumed speed."""
        prior_chars = ASSUMED_CHARS_PER_SECOND * PRIOR_SECONDS
        return (self._chars + prior_chars) / (self._busy + PRIOR_SECONDS)
