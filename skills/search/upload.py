"""Put local files into the documents container, changing only what differs.

The blob indexer detects changes by the blob's timestamp, so re-uploading an unchanged file makes
it index the file again (and re-embed every child). Each blob carries the MD5 of its content
(``Content-MD5``, set here); a file whose MD5 matches its blob's is left alone, which keeps a
second ``azd up`` from changing anything. A file whose chunks would get keys longer than the
service accepts (:func:`skills.search.safety.projected_key_length`) is refused with the reason,
instead of failing later inside an indexer run.
"""

from __future__ import annotations

import hashlib
import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from skills.search.safety import MAX_KEY_LENGTH, projected_key_length


@dataclass(frozen=True)
class Upload:
    """What happened to one file."""

    name: str
    action: Literal["uploaded", "unchanged", "refused"]
    reason: str = ""


def sync(
    container: Any, files: Sequence[Path], folder: str, contexts: Sequence[str]
) -> list[Upload]:
    """Upload each file under ``folder`` unless its blob already holds the same bytes.

    ``container`` is an ``azure.storage.blob.ContainerClient``; ``contexts`` are the projection
    selectors' ``sourceContext`` paths, for the key-length check.
    """
    from azure.core.exceptions import ResourceNotFoundError
    from azure.storage.blob import ContentSettings

    done = []
    for path in files:
        name = f"{folder}{path.name}"
        blob = container.get_blob_client(name)
        longest = max((projected_key_length(blob.url, c) for c in contexts), default=0)
        if longest > MAX_KEY_LENGTH:
            reason = f"its chunks' keys would be {longest} characters (at most {MAX_KEY_LENGTH})"
            done.append(Upload(name, "refused", reason))
            continue
        data = path.read_bytes()
        digest = hashlib.md5(data, usedforsecurity=False).digest()
        try:
            stored = blob.get_blob_properties().content_settings.content_md5
        except ResourceNotFoundError:
            stored = None
        if stored is not None and bytes(stored) == digest:
            done.append(Upload(name, "unchanged"))
            continue
        content_type = mimetypes.guess_type(path.name)[0] or "text/plain"
        settings = ContentSettings(content_type=content_type, content_md5=bytearray(digest))
        blob.upload_blob(data, overwrite=True, content_settings=settings)
        done.append(Upload(name, "uploaded"))
    return done
