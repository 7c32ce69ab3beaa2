"""Logs: one structured line per batch and one per failed record, never any document text.

Lines go to the ``skills.skill`` logger. Under the Functions host that reaches Application Insights
through the host (``traces``, with the fields as JSON in the message). When
``APPLICATIONINSIGHTS_CONNECTION_STRING`` is set, the Azure Monitor OpenTelemetry distro is also set
up once (lazily: its import costs about a second, which no cold start without it should pay), unless
an OpenTelemetry SDK provider is already installed (the worker installs one when
``PYTHON_ENABLE_OPENTELEMETRY`` / ``PYTHON_APPLICATIONINSIGHTS_ENABLE_TELEMETRY`` is set), so
nothing is exported twice. The fields then also arrive as ``customDimensions`` (``skill.records``,
...).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from skills.skill.batch import BatchStats
from skills.skill.settings import RESOURCE_DETECTORS_SETTING

logger = logging.getLogger("skills.skill")

_lock = threading.Lock()
_state = {"configured": False, "tracing": False}


def configure_once(connection_string: str) -> bool:
    """Set up Azure Monitor OpenTelemetry when its connection string is set; True if tracing."""
    with _lock:
        if not _state["configured"]:
            _state["configured"] = True
            _state["tracing"] = bool(connection_string) and _configure(connection_string)
        return _state["tracing"]


def _configure(connection_string: str) -> bool:
    try:
        from opentelemetry import trace
        from opentelemetry.sdk.trace import TracerProvider

        if isinstance(trace.get_tracer_provider(), TracerProvider):
            return True  # the worker (or the app) already exports: do not add a second exporter
        from azure.monitor.opentelemetry import configure_azure_monitor

        # The distro's default detectors include azure_vm, which probes the VM metadata address
        # (169.254.169.254) and waits for it; a Function App is described by azure_app_service,
        # which reads app settings only. A value set by the user is kept.
        os.environ.setdefault(RESOURCE_DETECTORS_SETTING, "azure_app_service")
        configure_azure_monitor(connection_string=connection_string, logger_name="skills.skill")
        return True
    except Exception:  # telemetry must never take the skill down
        logger.exception("OpenTelemetry setup failed; logging through the host only")
        return False


@contextmanager
def batch_span(tracing: bool) -> Iterator[Any]:
    """A ``chunk batch`` span when tracing is on, else nothing."""
    if not tracing:
        yield None
        return
    from opentelemetry import trace

    with trace.get_tracer("skills.skill").start_as_current_span("chunk batch") as span:
        yield span


def batch_fields(
    stats: BatchStats, duration_ms: float, cpu_ms: float, status: int
) -> dict[str, Any]:
    """The batch log line's fields, flat, so they can be custom dimensions.

    ``cpuMs`` is the process's CPU time during the batch: next to ``durationMs`` it shows whether
    a slow batch was busy or waiting (other calls in the same process count in it too).
    """
    return {
        "records": stats.records,
        "characters": stats.characters,
        "tokens": stats.tokens,
        "parents": stats.parents,
        "children": stats.children,
        "strategy": ",".join(f"{name}:{count}" for name, count in sorted(stats.strategies.items())),
        "durationMs": round(duration_ms, 1),
        "cpuMs": round(cpu_ms, 1),
        "warnings": stats.warnings,
        "errors": stats.errors,
        "fallbacks": stats.fallbacks,
        "skipped": stats.skipped,
        "abandoned": stats.abandoned,
        "contextNotes": stats.context_notes,
        "contextCacheHits": stats.context_cache_hits,
        "contextCacheErrors": stats.context_cache_errors,
        "contextMissing": stats.context_missing,
        "contextInputTokens": stats.context_input_tokens,
        "contextCachedTokens": stats.context_cached_tokens,
        "contextOutputTokens": stats.context_output_tokens,
        "status": status,
    }


def log_batch(fields: Mapping[str, Any], failures: list[tuple[str, str]], span: Any) -> None:
    """One line for the batch, one per failed record (recordId and reason only)."""
    logger.info("chunk batch %s", json.dumps(fields), extra=_dimensions(fields))
    if span is not None:
        span.set_attributes({f"skill.{key}": value for key, value in fields.items()})
    for record_id, reason in failures:
        line = {"recordId": record_id, "reason": reason}
        logger.warning(
            "chunk record failed %s", json.dumps(line, ensure_ascii=True), extra=_dimensions(line)
        )


def log_refused(status: int, reason: str) -> None:
    """A request refused as a whole (400/413)."""
    line = {"status": status, "reason": reason}
    logger.warning("chunk request refused %s", json.dumps(line), extra=_dimensions(line))


def _dimensions(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {f"skill.{key}": value for key, value in fields.items()}
