"""The batch time budget: answer before the indexer's timeout, whatever the batch holds.

The indexer gives a skill call 30 s by default (230 s at most) and fails every document of a batch
that times out. So the skill watches its own clock, from the request's arrival to the last byte
it expects to send. Before each record it asks: if this record takes the requested strategy and
every record after it the fastest one, does the batch still end inside the budget? If so, the
record gets the requested strategy; if not, the fastest one (with a warning). So records keep the
full strategy for as long as the fast path can still finish the rest, and the fast path takes
what the full one cannot.

One record can still take longer than predicted (a pathological text, a busy neighbour) and
spend the budget. The records after it are then not failed for it: each one that the fast path
can finish within a grace past the budget (a quarter of it, at most
:data:`MAX_OVERRUN_SECONDS`) gets the fast path, planned ``LATE`` (the skill warns why); only a
record that cannot gets an error. So no record is planned to end more than the grace past the
budget, which the deployment keeps below the indexer's timeout (180 s of 230 s).

Costs are predicted from the speeds measured on this batch (smoothed towards assumed priors)
and include the answer's transfer: each answered record's JSON counts at
:data:`SEND_BYTES_PER_SECOND`, since the indexer's clock runs until it has the whole answer.

>>> budget = TimeBudget(10.0, clock=iter([0.0, 0.0]).__next__)
>>> budget.plan(chars=1_000, rest_chars=0)
<Plan.FULL: 'full'>
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum

from skills.formats.isolation import KILL_GRACE_SECONDS

#: Speeds assumed before a record of the batch is measured, characters per second of the whole
#: record (engine, shaping, serialising): about half of what one core of the build machine does
#: on technical Markdown (full: 2.2-5.6 million, fast: 3.0-7.5 million; ``docs/skill.md``), so
#: a huge first record is not planned optimistically, nor sent to the fast path when it fits.
ASSUMED_FULL_CHARS_PER_SECOND = 1_500_000.0
ASSUMED_FAST_CHARS_PER_SECOND = 3_000_000.0
#: Weight of the priors, in seconds of work: one slow first record (a cold cache, a busy
#: neighbour) must not decide for a whole batch on its own.
PRIOR_SECONDS = 0.25
#: How far past the budget a batch may run to answer, on the fast path, the records after one
#: that overran it: a quarter of the budget, at most this (the default 180 s budget's indexer
#: allows 230 s).
MAX_OVERRUN_SECONDS = 5.0
OVERRUN_FRACTION = 0.25
#: Transfer rate reserved for the answer (host to indexer): an assumption, kept low, since the
#: skill cannot see the network; 100 MB of JSON then reserve 4 s.
SEND_BYTES_PER_SECOND = 25_000_000.0


class Plan(StrEnum):
    """What to do with the next record."""

    FULL = "full"  # the requested strategy
    FAST = "fast"  # the fastest strategy, with a warning
    LATE = "late"  # the budget is spent but the fast path fits in the grace: fast, with a warning
    SKIP = "skip"  # the budget and its grace are spent: a per-record error


class _Speed:
    """Characters per second, measured and smoothed towards a prior."""

    def __init__(self, prior: float) -> None:
        self._chars = prior * PRIOR_SECONDS
        self._seconds = PRIOR_SECONDS

    def add(self, chars: int, seconds: float) -> None:
        self._chars += chars
        self._seconds += seconds

    def seconds_for(self, chars: int) -> float:
        return chars * self._seconds / self._chars


class TimeBudget:
    """One batch's clock and measured speeds."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._start = clock()
        self._sending = 0.0  # transfer time of what is already answered
        self._speeds = {
            Plan.FULL: _Speed(ASSUMED_FULL_CHARS_PER_SECOND),
            Plan.FAST: _Speed(ASSUMED_FAST_CHARS_PER_SECOND),
        }

    def left(self) -> float:
        """Seconds left once what is answered so far is sent."""
        return self.seconds - (self._clock() - self._start) - self._sending

    @property
    def grace(self) -> float:
        """Seconds past the budget that records after an overrun may still use."""
        return min(MAX_OVERRUN_SECONDS, self.seconds * OVERRUN_FRACTION)

    def plan(self, chars: int, rest_chars: int) -> Plan:
        """FULL while the rest still fits on the fast path after it, else FAST; once the budget
        is spent, LATE while this record fits in the grace on the fast path, else SKIP."""
        left = self.left()
        if left <= 0:
            fits = self._speeds[Plan.FAST].seconds_for(chars) <= left + self.grace
            return Plan.LATE if fits else Plan.SKIP
        return Plan.FULL if self.allowance(chars, rest_chars, left) > 0 else Plan.FAST

    def conversion_seconds(self) -> float:
        """Seconds a file of the next record may take to convert: what is left of the budget,
        or, once the budget is spent, of its grace less the time a worker is given to stop
        after its deadline before it is killed (``KILL_GRACE_SECONDS``), so that a record
        answered late ends within the grace too."""
        left = self.left()
        return max(0.0, left if left > 0 else left + self.grace - KILL_GRACE_SECONDS)

    def allowance(self, chars: int, rest_chars: int, left: float | None = None) -> float:
        """Seconds this record may still spend on the full path beyond its predicted cost: what
        a slow external call (``semantic``'s embeddings) may use without costing later records."""
        left = self.left() if left is None else left
        rest = self._speeds[Plan.FAST].seconds_for(rest_chars)
        return left - rest - self._speeds[Plan.FULL].seconds_for(chars)

    def measured(self, plan: Plan, chars: int, seconds: float, answer_bytes: int) -> None:
        """Feed the speed of ``plan`` with one record and reserve the transfer of its answer."""
        sending = answer_bytes / SEND_BYTES_PER_SECOND
        self._sending += sending
        if plan is not Plan.SKIP:
            speed = Plan.FAST if plan is Plan.LATE else plan
            self._speeds[speed].add(chars, seconds + sending)
