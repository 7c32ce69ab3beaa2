"""The one CPU-time measuring loop of the benchmarks and of the n-against-4n tests.

CPU time of the calling thread, not wall time: other processes on a shared machine slow every
measurement alike, so ratios measured in one run stay meaningful; and not the process's, which
also counts what other threads do meanwhile (a server or a thread pool an earlier test left
running, in a whole test run). What is measured here is single-threaded: the engine and the
converters start no threads. Each round repeats the call
until ``min_seconds`` have passed (so that a millisecond is not clock noise), with the garbage
collector off (so that a collection started by earlier work is not charged to this call), and
the best round wins.

    >>> cpu_seconds(lambda: sum(range(1000)), rounds=1, min_seconds=0.001) > 0
    True
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from typing import TypeVar

Input = TypeVar("Input")


def cpu_seconds(run: Callable[[], object], rounds: int = 3, min_seconds: float = 0.002) -> float:
    """CPU seconds per call of ``run``: the best of ``rounds`` rounds, each repeating the call
    for at least ``min_seconds``."""
    best = math.inf
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            calls, started = 0, time.thread_time()
            while (elapsed := time.thread_time() - started) < min_seconds or not calls:
                run()
                calls += 1
            best = min(best, elapsed / calls)
    finally:
        gc.enable()
    return best


def growth_of(
    make: Callable[[int], Input],
    n: int,
    run: Callable[[Input], object],
    min_seconds: float = 0.05,
) -> float:
    """How many times longer ``run(make(4 n))`` takes than ``run(make(n))``, in one run: about 4
    for a linear path, about 16 for a quadratic one, however busy the machine is. One untimed
    call first warms what a first call loads (the tokenizer, a converter's imports)."""
    small, large = make(n), make(4 * n)
    run(small)
    return cpu_seconds(lambda: run(large), min_seconds=min_seconds) / cpu_seconds(
        lambda: run(small), min_seconds=min_seconds
    )


def least_growth(
    make: Callable[[int], Input],
    n: int,
    run: Callable[[Input], object],
    bound: float,
    tries: int = 3,
) -> float:
    """``growth_of`` measured up to ``tries`` times: the first ratio below ``bound``, else the
    smallest. A burst of another process's work can slow one measurement of a linear path past
    the bound (one converter's test failed so on a machine at load 13); a superlinear path is
    above it every time."""
    best = math.inf
    for _ in range(tries):
        best = min(best, growth_of(make, n, run))
        if best < bound:
            break
    return best
