"""Indexer resets a deploy found needed and has not done yet, kept until one is done.

A deploy sends its changes, and only then resets the indexer (when asked). If the reset never
happens (no ``--reset``, the process stopped, a refused call), the next deploy sees nothing to
change and would not know that files indexed before still hold the old chunks. So the reasons are
written down *before* the changes are sent and cleared only after the service accepted a reset:
a later ``deploy --reset`` (or ``AZURE_SEARCH_RESET=true`` in the hook) does it, and every deploy
until then says it is still needed.

The ledger is a small JSON file, ``.azure/search-pending-resets.json`` by default (azd's own
folder, ignored by git; ``AZURE_SEARCH_PENDING_RESETS`` moves it), keyed by the search endpoint
and the indexer name.

>>> ledger = MemoryLedger()
>>> ledger.record("https://s|ix", ["skillset s changed"])
>>> ledger.record("https://s|ix", ["index i changed", "skillset s changed"])
>>> ledger.reasons("https://s|ix")
['skillset s changed', 'index i changed']
>>> ledger.clear("https://s|ix"); ledger.reasons("https://s|ix")
[]
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Protocol

DEFAULT_PATH = Path(__file__).resolve().parents[2] / ".azure" / "search-pending-resets.json"


class ResetLedger(Protocol):
    """Where pending resets are kept (a file, or memory in tests)."""

    def reasons(self, key: str) -> list[str]: ...

    def record(self, key: str, reasons: list[str]) -> None: ...

    def clear(self, key: str) -> None: ...


def ledger_key(endpoint: str, indexer: str) -> str:
    return f"{endpoint.rstrip('/')}|{indexer}"


class MemoryLedger:
    """A :class:`ResetLedger` in memory."""

    def __init__(self) -> None:
        self.pending: dict[str, list[str]] = {}

    def reasons(self, key: str) -> list[str]:
        return list(self.pending.get(key, []))

    def record(self, key: str, reasons: list[str]) -> None:
        known = self.pending.setdefault(key, [])
        known += [reason for reason in reasons if reason not in known]

    def clear(self, key: str) -> None:
        self.pending.pop(key, None)


class FileLedger(MemoryLedger):
    """A :class:`ResetLedger` in a JSON file, written at once on every change."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        configured = os.environ.get("AZURE_SEARCH_PENDING_RESETS")
        self.path = path or (Path(configured) if configured else DEFAULT_PATH)
        if self.path.exists():
            self.pending = json.loads(self.path.read_text(encoding="utf-8"))

    def record(self, key: str, reasons: list[str]) -> None:
        super().record(key, reasons)
        self._write()

    def clear(self, key: str) -> None:
        if key in self.pending:
            super().clear(key)
            self._write()

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".tmp")
        partial.write_text(json.dumps(self.pending, indent=2), encoding="utf-8")
        partial.replace(self.path)
