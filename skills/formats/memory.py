"""Memory a conversion leaves behind, given back to the system once its file is converted.

Two kinds of garbage outlive a converter's return. BeautifulSoup's trees (HTML) are reference
cycles, which only Python's cycle collector frees, at a time of its choosing; and PDFium, lxml
and Python's own large objects are allocated with ``malloc``, whose freed memory glibc keeps in
the process's heap instead of returning it. Measured on one
conversion each (a fresh interpreter, resident set in MB: after the conversion, after
``gc.collect()``, after ``malloc_trim(0)``):

=====================================================  =========  ====  ===========
file                                                   converted  gc    malloc_trim
=====================================================  =========  ====  ===========
PDF, one page of 2 million path operations (9 MB)      563        563   59
HTML page of 20,000 sections (5.7 MB)                  410        91    78
=====================================================  =========  ====  ===========

So when a conversion leaves the process :data:`RELEASE_ABOVE_BYTES` larger than it found it,
:func:`released` collects and trims: a batch of several large files then holds one file's
memory at a time, not the sum of their high-water marks. Below that, nothing is done: a full
collection costs time in proportion to what the process holds, and most files are small.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: Growth of the resident set across one conversion that triggers a collection and a trim.
RELEASE_ABOVE_BYTES = 64 * 2**20
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """This process's resident set (Linux's ``/proc/self/statm``), or None elsewhere."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_BYTES
    except (OSError, IndexError, ValueError):
        return None


@contextmanager
def released() -> Iterator[None]:
    """Run a conversion; if it left the process much larger, collect cycles and trim the heap."""
    before = resident_bytes()
    try:
        yield
    finally:
        after = resident_bytes()
        if before is not None and after is not None and after - before > RELEASE_ABOVE_BYTES:
            gc.collect()
            _trim_heap()


def _trim_heap() -> None:
    """Return glibc's free heap memory to the system (a no-op without glibc)."""
    if _TRIM is not None:
        _TRIM(0)


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        trim: Callable[[int], int] | None = getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None
    return trim if name else None


_TRIM = _malloc_trim()
