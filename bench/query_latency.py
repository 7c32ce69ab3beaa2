"""A query's wall time against a service whose every request takes the same time: what sending
the halves' one-result requests at the same time as the hybrid request saves.

The service is a stand-in (``stand_in_search.Halves``: five children, each request answered
after ``--latency`` seconds), so the number is the query path's own: one round trip with the
halves sent together, three when they were sent one after another.

    python bench/query_latency.py                 # 0.1 s a request, 10 queries
    python bench/query_latency.py --latency 0.05 --queries 40
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stand_in_search import Halves
from skills.search.query import QueryOptions, query_parents


def seconds_a_query(latency: float, queries: int, halves_first: bool) -> float:
    options = QueryOptions(parents=5, children=5, halves_first=halves_first)
    service = Halves(latency)
    started = time.perf_counter()
    for _ in range(queries):
        query_parents(service, "q", children_index="children", options=options)
    return (time.perf_counter() - started) / queries


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds a request takes")
    parser.add_argument("--queries", type=int, default=10)
    args = parser.parse_args(argv)
    if not 0 <= args.latency <= 10 or not 1 <= args.queries <= 10_000:
        print("error: --latency 0-10 s, --queries 1-10,000", file=sys.stderr)
        return 2
    for halves in (False, True):
        took = seconds_a_query(args.latency, args.queries, halves)
        print(f"halves_first={halves}: {took:.3f} s a query ({took / args.latency:.2f} requests)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
