"""Indexer-shaped load against the development server, on loopback only, bounded in count and time.

What it measures (numbers go to docs/skill.md, "Skill load"):

1. ``goal``: one 1000-record batch of ~5 KB Markdown documents, the server pinned to one core,
   sent one at a time (``--goal-repeats`` times): latency against the indexer's 30 s default
   timeout, and the CPU cost of the skill layer and of the HTTP layer relative to the engine's.
2. ``matrix``: batch sizes 1, 10, 100, 1000 x 5 and 10 concurrent calls, documents of 2-50 KB
   (log-uniform sizes), at most ``--requests-per-worker`` calls per worker and ``--case-seconds``
   per case: records/s, MB/s, p50/p95/p99 latency, errors (HTTP or record errors: must be 0).
3. ``soak``: steady traffic (batches of 100, 5 workers) for ``--soak-seconds`` (default 60; the
   issue's 10-minute run is ``--soak-seconds 600``), sampling the server's resident memory.
4. ``files`` (``--files``): ``--file-batches`` batches of ``--files-per-batch`` mixed files (the
   committed fixtures and samples: PDF, Word, PowerPoint, Excel, HTML, Markdown, text, code, as
   the ``files`` indexer sends them), at the shipped ``perInstanceConcurrency``, at 4 times it and
   all at once, on one server at the shipped budget: records sent and answered (a lost record is
   one missing from an answer, or in a call that failed), record errors other than the
   encrypted PDF's, p50/p95 latency, the server's peak memory and whether it survived.
5. ``large files`` (``--large-files``): one call of ten large and hostile files
   (``bench/hostile_files.py``) at the shipped budget: every record answered, the server's peak
   resident memory.

Documents are cut from real technical Markdown (``--docs``, default ../shared/eval/dev/docs, read
only, never copied), or generated when that folder is missing. The server is a child process
(``python -m skills serve``) on 127.0.0.1 with a free port; it is stopped at the end.

    python bench/load.py                      # the full run (about 4-5 minutes on 2 cores)
    python bench/load.py --quick              # a smoke run (about 30 s)
    python bench/load.py --files              # mixed files under concurrency (2-4 minutes)
    python bench/load.py --large-files        # ten large files in one call (2-4 minutes)
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import json
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skills.chunking import chunk_document  # noqa: E402
from skills.skill import SkillSettings, handle_chunk_request  # noqa: E402

LOOPBACK = "127.0.0.1"
DEFAULT_DOCS = ROOT.parent / "shared" / "eval" / "dev" / "docs"
SKILL_TIMEOUT_SECONDS = 30.0  # the indexer's default WebApiSkill timeout


# ---------------------------------------------------------------- documents


def paragraphs(folder: Path) -> list[str]:
    """Blank-line separated blocks of every Markdown file under ``folder`` (sorted, stable)."""
    blocks: list[str] = []
    for path in sorted(folder.rglob("*.md")) if folder.is_dir() else []:
        blocks += [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    return blocks or synthetic_paragraphs()


def synthetic_paragraphs() -> list[str]:
    """Markdown-like blocks for machines without the eval documents."""
    rng = random.Random(7)
    words = ["index", "chunk", "parent", "child", "token", "vector", "search", "skill", "batch"]
    blocks = []
    for n in range(400):
        kind = n % 7
        if kind == 0:
            blocks.append(f"## Section {n}")
        elif kind == 3:
            blocks.append("```python\n" + "\n".join(f"x{i} = {i}" for i in range(8)) + "\n```")
        elif kind == 5:
            blocks.append(
                "| a | b |\n| --- | --- |\n" + "\n".join(f"| {i} | {i * i} |" for i in range(6))
            )
        else:
            blocks.append(" ".join(rng.choice(words) for _ in range(rng.randint(30, 120))) + ".")
    return blocks


def make_documents(blocks: list[str], sizes: list[int], seed: int) -> list[str]:
    """One document per target size (characters): consecutive blocks from a random start."""
    rng = random.Random(seed)
    docs = []
    for number, size in enumerate(sizes):
        parts = [f"# Document {number}"]
        length = len(parts[0])
        index = rng.randrange(len(blocks))
        while length < size:
            block = blocks[index % len(blocks)]
            parts.append(block)
            length += len(block) + 2
            index += 1
        docs.append("\n\n".join(parts)[:size])
    return docs


def log_uniform_sizes(count: int, low: int, high: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [int(math.exp(rng.uniform(math.log(low), math.log(high)))) for _ in range(count)]


def indexer_body(docs: list[str], prefix: str) -> bytes:
    """What the indexer sends: recordIds, text, documentKey (the blob path)."""
    values = [
        {"recordId": str(i), "data": {"text": doc, "documentKey": f"https://bench/{prefix}/{i}.md"}}
        for i, doc in enumerate(docs)
    ]
    return json.dumps({"values": values}).encode("utf-8")


# ---------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


class Server:
    """``python -m skills serve`` as a child process on loopback."""

    def __init__(self, env: dict[str, str], core: int | None, log: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://{LOOPBACK}:{self.port}"
        self.log = log
        command = [sys.executable, "-m", "skills", "serve", "--port", str(self.port)]
        self._log_file = log.open("w") if log else None
        self.process = subprocess.Popen(
            [*command, "--log-level", "info" if log else "warning"],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=self._log_file or subprocess.DEVNULL,
        )
        if core is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(self.process.pid, {core})
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the development server did not start within 60 s")

    def rss_mb(self) -> float:
        """Resident memory of the server process, from /proc (Linux)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (robust to a busy machine)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def last_batch_line(self) -> dict[str, Any]:
        """The fields of the last ``chunk batch`` log line (needs ``log``)."""
        assert self.log is not None
        lines = [ln for ln in self.log.read_text().splitlines() if "chunk batch {" in ln]
        fields: dict[str, Any] = json.loads(lines[-1].split("chunk batch ", 1)[1])
        return fields

    def stop(self) -> None:
        if self._log_file:
            self._log_file.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


# ---------------------------------------------------------------- load


@dataclass
class CaseResult:
    name: str
    batch_size: int
    concurrency: int
    requests: int = 0
    records: int = 0
    megabytes: float = 0.0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    http_errors: int = 0
    record_errors: int = 0
    record_warnings: int = 0
    record_fallbacks: int = 0
    rss_before_mb: float = 0.0
    rss_after_mb: float = 0.0
    server_cpu_s: float = 0.0

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies) or [float("nan")]
        out = {k: v for k, v in asdict(self).items() if k != "latencies"}
        out.update(
            records_per_s=self.records / self.seconds if self.seconds else 0.0,
            mb_per_s=self.megabytes / self.seconds if self.seconds else 0.0,
            records_per_cpu_s=self.records / self.server_cpu_s if self.server_cpu_s else 0.0,
            p50_s=percentile(lat, 50),
            p95_s=percentile(lat, 95),
            p99_s=percentile(lat, 99),
        )
        return out


def percentile(sorted_values: list[float], q: float) -> float:
    index = max(0, math.ceil(q / 100 * len(sorted_values)) - 1)
    return sorted_values[index]


@dataclass(frozen=True)
class Outcome:
    """One call: latency, status and what its records say."""

    latency: float
    status: int
    errors: int = 0
    warnings: int = 0
    fallbacks: int = 0  # records chunked with the fast strategy to stay inside the budget


def post(client: httpx.Client, url: str, body: bytes) -> Outcome:
    started = time.perf_counter()
    try:
        response = client.post(url, content=body, headers={"Content-Type": "application/json"})
    except httpx.TimeoutException:  # past the client's 240 s: the indexer (230 s) gave up too
        return Outcome(time.perf_counter() - started, 504)
    latency = time.perf_counter() - started
    if response.status_code >= 300:
        return Outcome(latency, response.status_code)
    values = response.json()["values"]
    warned = [" ".join(w["message"] for w in v["warnings"]) for v in values if v["warnings"]]
    return Outcome(
        latency,
        response.status_code,
        errors=sum(1 for v in values if v["errors"]),
        warnings=len(warned),
        fallbacks=sum(1 for text in warned if "instead of" in text),
    )


def run_case(
    server: Server,
    result: CaseResult,
    bodies: list[tuple[bytes, int]],
    requests_per_worker: int,
    max_seconds: float,
) -> CaseResult:
    """Each worker sends up to ``requests_per_worker`` batches, none started after the deadline."""
    url = f"{server.url}/api/chunk"
    result.rss_before_mb = server.rss_mb()
    cpu_before = server.cpu_seconds()
    started = time.perf_counter()
    deadline = started + max_seconds

    def worker(number: int) -> None:
        with httpx.Client(timeout=240) as client:
            for turn in range(requests_per_worker):
                if turn and time.perf_counter() >= deadline:  # every worker calls at least once
                    return
                body, chars = bodies[(number * requests_per_worker + turn) % len(bodies)]
                outcome = post(client, url, body)
                result.requests += 1
                result.latencies.append(outcome.latency)
                if outcome.status >= 300:
                    result.http_errors += 1
                    continue
                result.records += result.batch_size
                result.megabytes += chars / 1e6
                result.record_errors += outcome.errors
                result.record_warnings += outcome.warnings
                result.record_fallbacks += outcome.fallbacks

    with concurrent.futures.ThreadPoolExecutor(result.concurrency) as pool:
        list(pool.map(worker, range(result.concurrency)))
    result.seconds = time.perf_counter() - started
    result.server_cpu_s = server.cpu_seconds() - cpu_before
    result.rss_after_mb = server.rss_mb()
    return result


# ---------------------------------------------------------------- experiments


def cpu_seconds(work: Any) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def probe(body_file: Path, rounds: int = 3) -> dict[str, list[float]]:
    """In a fresh process, interleaved: CPU seconds of the engine alone and of the skill handler
    (everything but HTTP) on the same batch."""
    body = body_file.read_bytes()
    values = json.loads(body)["values"]
    docs = [(v["data"]["text"], v["data"]["documentKey"]) for v in values]
    settings = SkillSettings.from_env({**os.environ, "SKILL_TIME_BUDGET_SECONDS": "230"})

    def engine() -> None:
        for text, key in docs:
            chunk_document(text, document_key=key)

    engine()  # warm-up: tokenizer and caches, as a warm instance has them
    out: dict[str, list[float]] = {"engine_cpu_s": [], "handler_cpu_s": []}
    for _ in range(rounds):
        out["engine_cpu_s"].append(cpu_seconds(engine))
        out["handler_cpu_s"].append(cpu_seconds(lambda: handle_chunk_request(body, {}, settings)))
    return out


def run_probe(body_file: Path, core: int, rounds: int) -> dict[str, list[float]]:
    command = [sys.executable, str(Path(__file__).resolve()), "--probe", str(body_file)]
    command += ["--goal-repeats", str(rounds)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(process.pid, {core})
    out, _ = process.communicate(timeout=600)
    result: dict[str, list[float]] = json.loads(out)
    return result


def goal(blocks: list[str], repeats: int, env: dict[str, str], work: Path) -> dict[str, Any]:
    """1000 x ~5 KB on one core: latency vs 30 s, skill and HTTP overhead vs the engine.

    Costs are CPU seconds (process time), which a busy machine disturbs far less than wall time.
    The HTTP layer is measured inside one request: the server process's CPU for the call minus the
    handler's own CPU from its batch log line (``cpuMs``). The engine alone and the handler are
    then measured in a fresh probe process, interleaved, minimum of the repeats.
    """
    docs = make_documents(blocks, [5_000] * 1000, seed=1)
    body = indexer_body(docs, "goal")
    body_file = work / "goal-body.json"
    body_file.write_bytes(body)
    chars = sum(map(len, docs))
    server = Server(env, core=0, log=work / "server.log")
    server_cpu, handler_in_server, walls = [], [], []
    case = CaseResult("goal", 1000, 1)
    try:
        run_case(server, CaseResult("warm-up", 1000, 1), [(body, chars)], 1, 600)
        for _ in range(repeats):
            run_case(server, case, [(body, chars)], 1, 600)
            server_cpu.append(case.server_cpu_s)
            handler_in_server.append(server.last_batch_line()["cpuMs"] / 1000)
            walls.append(case.latencies[-1])
    finally:
        server.stop()
    probed = run_probe(body_file, core=1 % (os.cpu_count() or 1), rounds=repeats)
    engine_s, handler_s = min(probed["engine_cpu_s"]), min(probed["handler_cpu_s"])
    served_s = min(server_cpu)
    return {
        "documents": len(docs),
        "characters": chars,
        "request_mb": len(body) / 1e6,
        **probed,
        "server_cpu_s": server_cpu,
        "handler_cpu_in_server_s": handler_in_server,
        "round_trip_wall_s": walls,
        "load_average_1min": os.getloadavg()[0],
        "share_of_30s_timeout_cpu": served_s / SKILL_TIMEOUT_SECONDS,
        "share_of_30s_timeout_wall_median": statistics.median(walls) / SKILL_TIMEOUT_SECONDS,
        "skill_layer_vs_engine": (handler_s - engine_s) / engine_s,
        "http_server_vs_engine": min(
            (total - inner) / engine_s
            for total, inner in zip(server_cpu, handler_in_server, strict=True)
        ),
        "record_errors": case.record_errors,
        "records_with_warnings": case.record_warnings,
        "http_errors": case.http_errors,
    }


def matrix(
    blocks: list[str], args: argparse.Namespace, env: dict[str, str]
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    server = Server(env, core=None)
    memory = {"rss_start_mb": server.rss_mb()}
    rows = []
    try:
        for batch_size in args.batch_sizes:
            bodies = []
            distinct = max(args.distinct_batches, 50 // batch_size)  # small batches: many docs
            for n in range(distinct):
                sizes = log_uniform_sizes(batch_size, 2_000, 50_000, seed=batch_size * 100 + n)
                docs = make_documents(blocks, sizes, seed=batch_size * 100 + n)
                bodies.append((indexer_body(docs, f"m{batch_size}-{n}"), sum(sizes)))
            for concurrency in args.concurrency:
                case = CaseResult(f"b{batch_size}-c{concurrency}", batch_size, concurrency)
                per_worker = args.requests_per_worker if batch_size < 1000 else 1
                run_case(server, case, bodies, per_worker, args.case_seconds)
                rows.append(case.summary())
                print(format_row(rows[-1]), flush=True)
        memory["rss_after_matrix_mb"] = server.rss_mb()
        memory.update(soak(server, blocks, args.soak_seconds))
    finally:
        server.stop()
    return rows, memory


def shipped_configuration() -> dict[str, int]:
    """The values the project ships, read where they are set: the skillset's ``batchSize`` and
    ``degreeOfParallelism`` (skills/search/settings.py), the Flex instance's
    ``perInstanceConcurrency`` and the time budget (infra/main.bicep)."""
    from skills.search.settings import SearchSettings

    bicep = (ROOT / "infra" / "main.bicep").read_text(encoding="utf-8")

    def default(name: str) -> int:
        found = re.search(rf"param {name} int = (\d+)", bicep)
        assert found, f"infra/main.bicep has no int default for {name}"
        return int(found.group(1))

    return {
        "batch_size": SearchSettings.skill_batch_size,
        "degree_of_parallelism": SearchSettings.skill_degree_of_parallelism,
        "per_instance_concurrency": default("httpPerInstanceConcurrency"),
        "budget_seconds": default("skillTimeBudgetSeconds"),
    }


def shipped_documents(count: int, seed: int, heavy_every: int) -> list[int]:
    """Sizes an indexer sends: 2-50 KB mostly, every ``heavy_every``-th 1-4 million characters
    (up to what an S1 indexer extracts from one blob)."""
    sizes = log_uniform_sizes(count, 2_000, 50_000, seed)
    heavy = log_uniform_sizes(count, 1_000_000, 4_000_000, seed + 1)
    return [
        heavy[i] if heavy_every and i % heavy_every == heavy_every - 1 else n
        for i, n in enumerate(sizes)
    ]


def shipped(blocks: list[str], args: argparse.Namespace, config: dict[str, int]) -> dict[str, Any]:
    """One instance of the shipped configuration: a server on one core, as many concurrent calls
    as ``perInstanceConcurrency`` lets Flex route to it, each of ``batchSize`` records, at the
    shipped budget, for ``--shipped-seconds``; then ``worst``: the same concurrency of calls whose
    every record is as long as the skill accepts (``SKILL_MAX_TEXT_CHARS``, or ``--worst-chars``).
    Every record must come back without an error; the latency must stay inside the budget."""
    batch, workers = config["batch_size"], config["per_instance_concurrency"]
    env = {"SKILL_TIME_BUDGET_SECONDS": str(config["budget_seconds"])}
    calls = max(args.distinct_batches * workers, -(-args.heavy_every * 2 // batch))
    every = shipped_documents(batch * calls, seed=5_000, heavy_every=args.heavy_every)
    bodies = []
    for n in range(calls):
        sizes = every[n * batch : (n + 1) * batch]
        docs = make_documents(blocks, sizes, seed=5_000 + n)
        bodies.append((indexer_body(docs, f"s{n}"), sum(sizes)))
    server = Server(env, core=0)
    try:
        steady = CaseResult("shipped", batch, workers)
        samples = sampled(server, steady, bodies, args.shipped_seconds)
        worst = CaseResult("worst", batch, workers)
        docs = make_documents(blocks, [args.worst_chars] * batch, seed=77)
        worst_body = [(indexer_body(docs, "worst"), args.worst_chars * batch)]
        del docs
        worst_samples = sampled(server, worst, worst_body, 0.0, per_worker=1)
    finally:
        server.stop()
    half = len(samples) // 2
    return {
        "configuration": config,
        "steady": steady.summary(),
        "rss_first_mb": samples[0],
        "rss_max_first_half_mb": max(samples[: half or 1]),
        "rss_max_second_half_mb": max(samples[half:]),
        "rss_last_mb": samples[-1],
        "worst": worst.summary(),
        "worst_chars_per_record": args.worst_chars,
        "worst_rss_max_mb": max(worst_samples),
        "load_average_1min": os.getloadavg()[0],
    }


def sampled(
    server: Server,
    case: CaseResult,
    bodies: list[tuple[bytes, int]],
    seconds: float,
    per_worker: int = 1_000_000,
) -> list[float]:
    """Run ``case`` for ``seconds`` (at least one call per worker), sampling resident memory."""
    samples: list[float] = [server.rss_mb()]
    with concurrent.futures.ThreadPoolExecutor(1) as sampler:
        future = sampler.submit(run_case, server, case, bodies, per_worker, max(seconds, 1e-3))
        while not future.done():
            time.sleep(min(5.0, max(0.5, seconds / 40)))
            samples.append(server.rss_mb())
        future.result()
    samples.append(server.rss_mb())
    return samples


def soak(server: Server, blocks: list[str], seconds: float) -> dict[str, float]:
    """Steady batches of 100 from 5 workers; resident memory sampled along the way."""
    bodies = []
    for n in range(10):
        sizes = log_uniform_sizes(100, 2_000, 50_000, seed=9_000 + n)
        bodies.append(
            (indexer_body(make_documents(blocks, sizes, seed=9_000 + n), "soak"), sum(sizes))
        )
    samples: list[float] = [server.rss_mb()]
    case = CaseResult("soak", 100, 5)
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(1) as sampler:
        future = sampler.submit(run_case, server, case, bodies, 10_000, seconds)
        while not future.done():
            time.sleep(min(5.0, max(0.5, seconds / 20)))
            samples.append(server.rss_mb())
        future.result()
    samples.append(server.rss_mb())
    half = len(samples) // 2
    return {
        "soak_seconds": time.perf_counter() - started,
        "soak_requests": case.requests,
        "soak_records": case.records,
        "soak_errors": case.http_errors + case.record_errors,
        "soak_rss_first_mb": samples[0],
        "soak_rss_max_first_half_mb": max(samples[: half or 1]),
        "soak_rss_max_second_half_mb": max(samples[half:]),
        "soak_rss_last_mb": samples[-1],
    }


def format_row(row: dict[str, Any]) -> str:
    return (
        f"| {row['batch_size']} | {row['concurrency']} | {row['requests']} | "
        f"{row['records_per_s']:.0f} | {row['records_per_cpu_s']:.0f} | "
        f"{row['mb_per_s']:.2f} | {row['p50_s']:.2f} | "
        f"{row['p95_s']:.2f} | {row['p99_s']:.2f} | {row['http_errors'] + row['record_errors']} | "
        f"{row['rss_before_mb']:.0f} -> {row['rss_after_mb']:.0f} |"
    )


#: The files of the ``files`` cases; ``locked.pdf`` is encrypted and answers its own error.
FILE_SOURCES = (
    *sorted((ROOT / "tests" / "formats" / "fixtures").iterdir()),
    *sorted((ROOT / "samples").iterdir()),
)
EXPECTED_FILE_ERRORS = frozenset({"locked.pdf"})


def files_body(count: int, offset: int) -> tuple[bytes, list[str]]:
    """A ``files`` indexer's call of ``count`` files taken in turn from :data:`FILE_SOURCES`
    from ``offset``: each record a base64 ``file_data`` with its name and blob path."""
    names, values = [], []
    for k in range(count):
        path = FILE_SOURCES[(offset + k) % len(FILE_SOURCES)]
        names.append(path.name)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        values.append(
            {
                "recordId": str(k),
                "data": {
                    "file_data": {"$type": "file", "data": data},
                    "fileName": path.name,
                    "documentKey": f"https://bench/files/{offset}/{k}/{path.name}",
                },
            }
        )
    return json.dumps({"values": values}).encode("utf-8"), names


@dataclass
class FilesCase:
    """One concurrency of the ``files`` cases: what was sent, answered and lost."""

    concurrency: int
    calls: int = 0
    records_sent: int = 0
    records_answered: int = 0
    records_lost: int = 0
    unexpected_errors: int = 0
    expected_errors: int = 0
    http_errors: int = 0
    latencies: list[float] = field(default_factory=list)
    rss_max_mb: float = 0.0
    server_alive: bool = True
    errors_seen: list[str] = field(default_factory=list)

    def add(self, call: FilesCase) -> None:
        """Count one call's outcome in this case."""
        for name in ("calls", "records_sent", "records_answered", "records_lost"):
            setattr(self, name, getattr(self, name) + getattr(call, name))
        for name in ("unexpected_errors", "expected_errors", "http_errors"):
            setattr(self, name, getattr(self, name) + getattr(call, name))
        self.latencies += call.latencies
        self.errors_seen += call.errors_seen

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies) or [float("nan")]
        out = {k: v for k, v in asdict(self).items() if k not in ("latencies", "errors_seen")}
        out.update(p50_s=percentile(lat, 50), p95_s=percentile(lat, 95), max_s=lat[-1])
        out["errors_seen"] = sorted(set(self.errors_seen))[:10]
        return out


def files_call(
    client: httpx.Client, url: str, body: bytes, names: list[str], case: FilesCase
) -> None:
    started = time.perf_counter()
    try:
        response = client.post(url, content=body, headers={"Content-Type": "application/json"})
    except httpx.HTTPError as exc:  # the server died, or the call ran past the client's 240 s
        case.latencies.append(time.perf_counter() - started)
        case.http_errors += 1
        case.records_lost += len(names)
        case.errors_seen.append(type(exc).__name__)
        return
    case.latencies.append(time.perf_counter() - started)
    if response.status_code >= 300:
        case.http_errors += 1
        case.records_lost += len(names)
        return
    answered = {value["recordId"]: value for value in response.json()["values"]}
    case.records_answered += len(answered)
    case.records_lost += sum(1 for k in range(len(names)) if str(k) not in answered)
    for k, name in enumerate(names):
        errors = (answered.get(str(k)) or {}).get("errors") or []
        if errors and name in EXPECTED_FILE_ERRORS:
            case.expected_errors += 1
        elif errors:
            case.unexpected_errors += 1
            case.errors_seen.append(f"{name}: {errors[0]['message'][:120]}")


def files(args: argparse.Namespace, config: dict[str, int]) -> list[dict[str, Any]]:
    """The ``files`` cases: the same batches at each concurrency, one server each."""
    bodies = [
        files_body(args.files_per_batch, offset=n * args.files_per_batch)
        for n in range(args.file_batches)
    ]
    shipped_concurrency = config["per_instance_concurrency"]
    levels = sorted({shipped_concurrency, 4 * shipped_concurrency, args.file_batches})
    env = {"SKILL_TIME_BUDGET_SECONDS": str(config["budget_seconds"])}
    results = []
    for concurrency in levels:
        case = FilesCase(concurrency)
        server = Server(env, core=None)
        url = f"{server.url}/api/chunk"
        done, lock = threading.Event(), threading.Lock()
        try:

            def one(index: int, case: FilesCase = case, url: str = url, lock: Any = lock) -> None:
                body, names = bodies[index]
                call = FilesCase(case.concurrency, calls=1, records_sent=len(names))
                with httpx.Client(timeout=240) as client:
                    files_call(client, url, body, names, call)
                with lock:
                    case.add(call)

            with concurrent.futures.ThreadPoolExecutor(1) as watcher:
                watching = watcher.submit(_watch_rss, server, case, done)
                with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
                    list(pool.map(one, range(len(bodies))))
                done.set()
                watching.result()
        finally:
            done.set()
            case.server_alive = server.process.poll() is None
            server.stop()
        results.append(case.summary())
        print(json.dumps(results[-1]), flush=True)
    return results


def _watch_rss(server: Server, case: FilesCase, done: threading.Event) -> None:
    """Sample the server's resident memory until the case is over or the server exits."""
    while not done.is_set() and server.process.poll() is None:
        try:
            case.rss_max_mb = max(case.rss_max_mb, server.rss_mb())
        except OSError:
            return
        done.wait(0.2)


def large_files(config: dict[str, int]) -> dict[str, Any]:
    """One call of ten large files (``bench/hostile_files.py``) at the shipped budget: every
    record answered, and the server's peak resident memory (a 2,048 MB instance must hold it)."""
    from bench.hostile_files import large_batch

    made = large_batch()
    names = [name for name, _ in made]
    values = [
        {
            "recordId": str(k),
            "data": {
                "file_data": {"$type": "file", "data": base64.b64encode(data).decode("ascii")},
                "fileName": name,
                "documentKey": f"https://bench/large/{name}",
            },
        }
        for k, (name, data) in enumerate(made)
    ]
    sizes = {name: round(len(data) / 2**20, 2) for name, data in made}
    body = json.dumps({"values": values}).encode("utf-8")
    del made, values
    case = FilesCase(1, calls=1, records_sent=len(names))
    server = Server({"SKILL_TIME_BUDGET_SECONDS": str(config["budget_seconds"])}, core=None)
    done = threading.Event()
    started_mb = server.rss_mb()
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as watcher:
            watching = watcher.submit(_watch_rss, server, case, done)
            with httpx.Client(timeout=240) as client:
                response = client.post(
                    f"{server.url}/api/chunk",
                    content=body,
                    headers={"Content-Type": "application/json"},
                )
            done.set()
            watching.result()
        case.server_alive = server.process.poll() is None
        answers = response.json()["values"] if response.status_code < 300 else []
        ended_mb = server.rss_mb()
    finally:
        done.set()
        server.stop()
    outcome = {
        value["recordId"]: (
            "error: " + value["errors"][0]["message"][:160]
            if value["errors"]
            else f"{len(value['data'].get('parents', []))} parents"
            + "".join(f"; warning: {w['message'][:100]}" for w in value["warnings"] or [])
        )
        for value in answers
    }
    return {
        "status": response.status_code,
        "seconds": response.elapsed.total_seconds(),
        "files_mb": sizes,
        "records_answered": len(answers),
        "records_lost": len(names) - len(answers),
        "rss_start_mb": started_mb,
        "rss_max_mb": case.rss_max_mb,
        "rss_end_mb": ended_mb,
        "server_alive": case.server_alive,
        "records": {names[int(k)]: v for k, v in outcome.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "--docs", type=Path, default=DEFAULT_DOCS, help="Markdown to cut documents from"
    )
    parser.add_argument(
        "--batch-sizes", type=lambda s: [int(x) for x in s.split(",")], default=[1, 10, 100, 1000]
    )
    parser.add_argument(
        "--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[5, 10]
    )
    parser.add_argument(
        "--requests-per-worker", type=int, default=4, help="batches < 1000 (1000: one)"
    )
    parser.add_argument(
        "--distinct-batches", type=int, default=3, help="different bodies per batch size"
    )
    parser.add_argument("--case-seconds", type=float, default=60.0, help="no new call after this")
    parser.add_argument("--goal-repeats", type=int, default=3)
    parser.add_argument(
        "--soak-seconds", type=float, default=60.0, help="600 for the 10-minute soak"
    )
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--goal-only", action="store_true", help="only the 1000 x 5 KB batch")
    parser.add_argument("--soak-only", action="store_true", help="only the memory soak")
    parser.add_argument(
        "--shipped", action="store_true", help="only one instance of the shipped configuration"
    )
    parser.add_argument("--shipped-seconds", type=float, default=120.0, help="600: 10 minutes")
    parser.add_argument("--heavy-every", type=int, default=25, help="every n-th document 1-4 MB")
    parser.add_argument("--worst-chars", type=int, default=16_000_000, help="per worst record")
    parser.add_argument("--batch-size", type=int, help="override the shipped batchSize")
    parser.add_argument("--per-instance-concurrency", type=int, help="override the shipped one")
    parser.add_argument("--budget-seconds", type=int, help="override the shipped budget")
    parser.add_argument("--files", action="store_true", help="only the mixed-files cases")
    parser.add_argument("--large-files", action="store_true", help="one call of ten large files")
    parser.add_argument("--file-batches", type=int, default=5, help="batches of the files cases")
    parser.add_argument("--files-per-batch", type=int, default=50, help="files in each batch")
    parser.add_argument("--out", type=Path, help="write all results as JSON here")
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)  # internal: see probe()
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.probe, args.goal_repeats)))
        return 0
    if args.quick:
        args.batch_sizes, args.requests_per_worker, args.goal_repeats = [1, 10, 100], 2, 1
        args.soak_seconds, args.distinct_batches = 10.0, 1
    # The matrix shares one process between up to 10 calls of 1000 large documents: give them the
    # WebApiSkill maximum so the budget does not turn queueing into (counted) record errors.
    env = {"SKILL_TIME_BUDGET_SECONDS": "230"}
    blocks = paragraphs(args.docs)
    print(f"documents cut from {args.docs if args.docs.is_dir() else 'synthetic blocks'}")
    if args.large_files:
        config = shipped_configuration()
        if args.budget_seconds is not None:
            config["budget_seconds"] = args.budget_seconds
        result = large_files(config)
        print(json.dumps(result, indent=2))
        if args.out:
            args.out.write_text(json.dumps({"large_files": result}, indent=2))
        return 1 if result["records_lost"] or not result["server_alive"] else 0
    if args.files:
        config = shipped_configuration()
        for key in ("per_instance_concurrency", "budget_seconds"):
            if getattr(args, key) is not None:
                config[key] = getattr(args, key)
        cases = files(args, config)
        if args.out:
            args.out.write_text(json.dumps({"files": cases}, indent=2))
        bad = sum(c["records_lost"] + c["unexpected_errors"] + c["http_errors"] for c in cases)
        return 1 if bad or not all(c["server_alive"] for c in cases) else 0
    if args.shipped:
        config = shipped_configuration()
        for key in ("batch_size", "per_instance_concurrency", "budget_seconds"):
            if getattr(args, key) is not None:
                config[key] = getattr(args, key)
        result = shipped(blocks, args, config)
        print(json.dumps(result, indent=2))
        if args.out:
            args.out.write_text(json.dumps({"shipped": result}, indent=2))
        lost = sum(
            result[k]["http_errors"] + result[k]["record_errors"] for k in ("steady", "worst")
        )
        late = max(result["steady"]["p99_s"], result["worst"]["p99_s"]) > config["budget_seconds"]
        return 1 if lost or late else 0
    if args.soak_only:
        server = Server(env, core=None)
        try:
            memory = {"rss_start_mb": server.rss_mb(), **soak(server, blocks, args.soak_seconds)}
        finally:
            server.stop()
        print(json.dumps(memory, indent=2))
        return 1 if memory["soak_errors"] else 0
    with tempfile.TemporaryDirectory() as work:  # the full strategy's cost, no fallback
        goal_result = goal(blocks, args.goal_repeats, env, Path(work))
    print(json.dumps(goal_result, indent=2))
    if args.goal_only:
        if args.out:
            args.out.write_text(json.dumps({"goal": goal_result}, indent=2))
        errors = goal_result["record_errors"] + goal_result["http_errors"]
        return 1 if errors else 0
    print(
        "| batch | concurrent | calls | records/s | records/CPU-s | MB/s | p50 s | p95 s | p99 s "
        "| errors | RSS MB |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows, memory = matrix(blocks, args, env)
    print(json.dumps(memory, indent=2))
    if args.out:
        args.out.write_text(
            json.dumps({"goal": goal_result, "matrix": rows, "memory": memory}, indent=2)
        )
    errors = goal_result["record_errors"] + goal_result["http_errors"] + memory["soak_errors"]
    errors += sum(row["http_errors"] + row["record_errors"] for row in rows)
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
