"""Images: no text layer to read. The record is answered with no chunks and a warning that
names the route that reads them (the ``layout`` definitions: Azure's Document Layout skill runs
OCR, then this skill chunks its Markdown)."""

from __future__ import annotations

from skills.formats.conversion import Converted, Limits

NO_TEXT_LAYER = (
    "an image has no text layer: index images and scanned files with the 'layout' definitions "
    "(Document Layout skill, then this skill; docs/formats.md)"
)


def image_without_text(data: bytes, limits: Limits) -> Converted:
    return Converted("", None, (NO_TEXT_LAYER,))
