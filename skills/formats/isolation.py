"""Files are converted in worker processes, so that a file can cost only its own record.

A converter parses bytes nobody vetted with native code (PDFium, lxml, expat). In the skill's own
process a crash there would take every record in flight with it, a parse cannot be interrupted at
a deadline, and the memory a parse takes stays in the process's heap. So :func:`convert` sends the
file to a worker: a child process (``python -m skills.formats.isolation``) that imports the
converters once and converts one file at a time, and then

- a worker that crashes (PDFium's segfault), or whose conversion needs more than
  :data:`WORKER_MEMORY_BYTES` beyond its own start (its address space is limited, so the parse
  fails there instead of growing the instance), fails that record with a
  :class:`~skills.formats.conversion.ConversionError`; the worker is replaced for the next file;
- a conversion still running :data:`KILL_GRACE_SECONDS` past its record's deadline (converters
  stop at the deadline by themselves between pages, rows and shapes; a single native parse does
  not) is killed: the record's error, and its memory is the system's again at once;
- a worker left larger than :data:`RECYCLE_ABOVE_BYTES` by a file is retired, which returns the
  file's memory to the system, all of it, unlike ``malloc_trim`` in a long-lived process;
- up to :func:`worker_count` files convert at once, each in its own worker: PDFium is never
  called from two threads of one process, and a PDF no longer waits for another one's lock.

The skill's process stays in charge: it counts the time and refuses to wait for a worker past the
deadline, so a batch is never held up by conversions nobody waits for. When no worker can be
started (a host that forbids child processes), :class:`Unavailable` is raised and the caller
converts in its own process instead (``skills.formats.read``).

Requests and answers cross the worker's stdin and stdout as length-prefixed pickles; only the
skill's own process writes to a worker, and a worker's output is read only by the process that
started it.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from skills.formats.conversion import ConversionError, Converted, Limits, unreadable

#: Memory one conversion may add to its worker (address space beyond the worker's own after its
#: imports): a PDF page of 2 million path operations takes about 0.5 GB to parse; a file that
#: needs more than this fails alone instead of pushing the instance (2,048 MB) out of memory.
WORKER_MEMORY_BYTES = 1024 * 2**20
#: A worker whose resident set is above this after a file is retired (started afresh when next
#: needed, about 0.7 s): the memory its files took goes back to the system.
RECYCLE_ABOVE_BYTES = 256 * 2**20
#: How long past its record's deadline a conversion may still answer before it is killed: the
#: converters' own deadline checks (per page, row, shape) answer well inside it.
KILL_GRACE_SECONDS = 2.0
#: How often a worker checks that the process that started it is still there.
_ORPHAN_CHECK_SECONDS = 1.0
_HEADER = struct.Struct(">Q")
_ROOT = Path(__file__).resolve().parents[2]

logger = logging.getLogger("skills.formats")


class Unavailable(RuntimeError):
    """No worker process could be started here: convert in this process instead."""


def worker_count() -> int:
    """Files converted at once unless the skill configures it (:func:`configure`): one per core
    this process may use, at least 2 (a small file need not wait for a large one), at most 4
    (each worker holds ~50-100 MB)."""
    if _CONFIGURED is not None:
        return _CONFIGURED
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, min(4, cores or 1))


@dataclass(frozen=True, slots=True)
class _Request:
    format: str  # a registry format name
    data: bytes
    limits: Limits


class Workers:
    """A pool of worker processes, each converting one file at a time."""

    def __init__(
        self,
        size: int | None = None,
        memory_bytes: int = WORKER_MEMORY_BYTES,
        recycle_above_bytes: int = RECYCLE_ABOVE_BYTES,
    ) -> None:
        self.size = worker_count() if size is None else size
        self.memory_bytes = memory_bytes
        self.recycle_above_bytes = recycle_above_bytes
        self._turns = threading.BoundedSemaphore(self.size)
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._started = 0  # workers ever started: a measure, and what the tests read

    @property
    def started(self) -> int:
        return self._started

    def convert(self, format_name: str, data: bytes, limits: Limits) -> Converted:
        """``format_name``'s converter applied to ``data`` in a worker, or this file's
        :class:`ConversionError` (refused, crashed, out of memory, out of time);
        :class:`Unavailable` when this pool has no workers or none can start."""
        if self.size < 1:
            raise Unavailable("the converter processes are turned off (0 configured)")
        wait = -1.0 if limits.deadline is None else max(0.0, limits.deadline - time.monotonic())
        if not self._turns.acquire(timeout=wait):
            raise ConversionError(
                f"the {format_name} file was not converted: the other files of concurrent batches "
                f"held all {self.size} converters until the batch's time budget ran out; lower "
                "the skill's batchSize or the Function App's perInstanceConcurrency"
            )
        try:
            worker = self._take()
            try:
                return worker.ask(_Request(format_name, data, limits))
            except ConversionError:
                raise  # the file's; a worker that crashed or was killed is not given back
            except BaseException:
                worker.stop()  # its pipe may hold half a request or answer
                raise
            finally:
                self._give_back(worker)
        finally:
            self._turns.release()

    def close(self) -> None:
        """Stop the idle workers (a worker in use stops when its conversion ends)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.stop()

    def _take(self) -> _Worker:
        """An idle worker that is still alive, else a new one: the system may kill a worker
        while it waits (the out-of-memory killer, a container's memory limit), and a good file
        sent to it would fail as if it had crashed the converter."""
        while True:
            with self._lock:
                if not self._idle:
                    self._started += 1
                    break
                worker = self._idle.pop()
            if worker.alive():
                return worker
            worker.stop()  # reaped
        return _Worker.start(self.memory_bytes)

    def _give_back(self, worker: _Worker) -> None:
        """Keep ``worker`` for the next file, or stop it (crashed, killed, grown) and start its
        replacement now: the replacement imports the converters (about 1 s) while the skill
        chunks this file, not when the next file waits for it."""
        resident = worker.resident_bytes()
        if worker.alive() and resident is not None and resident <= self.recycle_above_bytes:
            with self._lock:
                self._idle.append(worker)
            return
        worker.stop()
        try:
            fresh = _Worker.start(self.memory_bytes)
        except Unavailable:
            return  # the next file tries again, and says why
        with self._lock:
            self._started += 1
            self._idle.append(fresh)


class _Worker:
    """One child process and its two pipes."""

    def __init__(self, process: subprocess.Popen[bytes], memory_bytes: int) -> None:
        self.process = process
        self.memory_bytes = memory_bytes
        assert process.stdin is not None and process.stdout is not None
        self._to: IO[bytes] = process.stdin
        self._from = process.stdout.fileno()

    @classmethod
    def start(cls, memory_bytes: int) -> _Worker:
        command = [sys.executable, "-m", "skills.formats.isolation", str(memory_bytes)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_ROOT), *sys.path])}
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=_ROOT, env=env
            )
        except OSError as exc:
            raise Unavailable(f"no converter process could be started ({exc})") from exc
        return cls(process, memory_bytes)

    def ask(self, request: _Request) -> Converted:
        """The worker's answer, or this file's :class:`ConversionError`."""
        try:
            _write_frame(self._to, pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL))
        except (BrokenPipeError, ConnectionResetError):
            raise ConversionError(self._died(request.format)) from None
        limits = request.limits
        kill_at = (  # a file sent after its deadline still gets the grace to answer
            None
            if limits.deadline is None
            else max(limits.deadline, time.monotonic()) + KILL_GRACE_SECONDS
        )
        try:
            kind, value = pickle.loads(_read_frame(self._from, kill_at))
        except TimeoutError:
            self.stop()
            raise ConversionError(
                f"the {request.format} file was still being converted {KILL_GRACE_SECONDS:g} s "
                "after the batch's time budget ran out and was stopped: lower the skill's "
                "batchSize, or raise its timeout and SKILL_TIME_BUDGET_SECONDS"
            ) from None
        except EOFError:
            raise ConversionError(self._died(request.format)) from None
        if kind == "converted":
            assert isinstance(value, Converted)
            return value
        if kind == "exhausted":  # the worker exits: its heap may be in any state
            self.stop()
        raise ConversionError(str(value))

    def _died(self, format_name: str) -> str:
        code = self.process.wait()
        how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit {code}"
        return (
            f"the {format_name} file could not be converted: its converter stopped ({how}), "
            "which a damaged file, or one that needs more memory than a conversion may take "
            f"({self.memory_bytes // 2**20} MB), causes; the other files are not affected"
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def resident_bytes(self) -> int | None:
        """The worker's resident set (``/proc``), None when it cannot be read."""
        try:
            with open(f"/proc/{self.process.pid}/statm", "rb") as statm:
                return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            return None

    def stop(self) -> None:
        """Kill the worker and reap it: its memory is the system's again."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def _write_frame(out: IO[bytes], payload: bytes) -> None:
    out.write(_HEADER.pack(len(payload)))
    out.write(payload)
    out.flush()


def _read_frame(fd: int, until: float | None) -> bytes:
    """One length-prefixed frame from ``fd``: ``EOFError`` when the writer is gone,
    ``TimeoutError`` when ``until`` (a ``time.monotonic()`` instant) passes first."""
    header = _read_exact(fd, _HEADER.size, until)
    (length,) = _HEADER.unpack(header)
    return _read_exact(fd, length, until)


def _read_exact(fd: int, count: int, until: float | None) -> bytes:
    parts: list[bytes] = []
    while count:
        if until is not None:
            left = until - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        part = os.read(fd, min(count, 1 << 20))
        if not part:
            raise EOFError
        parts.append(part)
        count -= len(part)
    return b"".join(parts)


_POOL: Workers | None = None
_POOL_LOCK = threading.Lock()
_CONFIGURED: int | None = None  # the skill's setting, when given (:func:`configure`)


def configure(processes: int | None) -> None:
    """How many worker processes convert files (``None``: :func:`worker_count`'s default; ``0``:
    none, files are converted in this process), set once by the skill from its settings before
    the first file; a pool already made keeps its size."""
    global _CONFIGURED
    _CONFIGURED = processes


def pool() -> Workers:
    """The process's workers, made on first use and stopped at exit."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = Workers()
            atexit.register(_POOL.close)
        return _POOL


def convert(format_name: str, data: bytes, limits: Limits) -> Converted:
    """``data`` converted as ``format_name`` in one of the process's workers."""
    return pool().convert(format_name, data, limits)


# ------------------------------------------------------------------ the worker's side


def _serve(memory_bytes: int) -> None:
    """Answer requests from stdin on stdout until stdin closes."""
    from skills.formats.registry import by_format

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the skill's process
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever a library prints goes to stderr, never into an answer
    requests = os.fdopen(0, "rb")
    _preload()
    _watch_parent(os.getppid())
    _limit_memory(memory_bytes)
    while True:
        try:
            header = requests.read(_HEADER.size)
            if len(header) < _HEADER.size:
                return
            request: _Request = pickle.loads(requests.read(_HEADER.unpack(header)[0]))
        except (OSError, EOFError):
            return
        fmt = by_format(request.format)
        reply: tuple[str, Any]
        try:
            if fmt is None or fmt.converter is None:
                raise ConversionError(f"{request.format} is not a converted format")
            reply = ("converted", fmt.converter(request.data, request.limits))
        except ConversionError as exc:
            reply = ("refused", str(exc))
        except MemoryError:
            reply = ("exhausted", _out_of_memory(request.format, memory_bytes))
        except Exception as exc:  # third-party parsers raise their own types on bad input
            reply = ("refused", unreadable(request.format, exc))
        del request
        _write_frame(replies, pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
        if reply[0] == "exhausted":
            return  # a heap that ran out may be in any state: the next file gets a new worker


def _out_of_memory(format_name: str, memory_bytes: int) -> str:
    return (
        f"the {format_name} file needs more memory to convert than one file may take "
        f"({memory_bytes // 2**20} MB): split it, or index it with the 'layout' definitions "
        "(docs/formats.md)"
    )


def _preload() -> None:
    """Import the converters' libraries now, so the first file does not pay for it."""
    for module in ("pypdfium2", "openpyxl", "pptx", "bs4", "markdownify", "lxml.etree"):
        with contextlib.suppress(ImportError):
            __import__(module)


def _watch_parent(parent: int) -> None:
    """Exit when the process that started this worker is gone (killed, crashed): an orphaned
    worker would otherwise finish a parse nobody waits for."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-check", daemon=True).start()


def _limit_memory(memory_bytes: int) -> None:
    """Cap the address space at what the worker holds now plus ``memory_bytes``: beyond it an
    allocation fails inside this process (MemoryError, or the native library's own failure)."""
    try:
        import resource

        with open("/proc/self/statm", "rb") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = size + memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        logger.warning("the converter process runs without a memory limit")


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
